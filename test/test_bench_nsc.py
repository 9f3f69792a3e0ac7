"""``infs-bench --suite nsc`` at the small sizes: the whole suite in one process.

Every workload's check run (computing data on ``nsc-ooo8``, NS) matches its
numpy reference, every offloaded workload has its analysis rows under every
configuration, the report names each workload with its check and the
headline table, the plots and the CSV are written; and a workload whose
outputs differ from its reference makes the suite say so and fail.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from infs.tools import bench_nsc
from infs.tools.bench_csv import read_csv
from infs.workloads import nsc


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> tuple[int, Path, Path]:
    root = tmp_path_factory.mktemp("nsc")
    repro = root / "bench" / "REPRODUCTION-NSC.md"
    rc = bench_nsc.run(None, "small", root / "out", repro, 1, True)
    return rc, root / "out", repro


def test_every_workload_matches_its_reference(suite) -> None:
    rc, out, repro = suite
    assert rc == 0
    rows = read_csv(out / "bench-nsc.csv")
    checks = {r["workload"]: r for r in rows if r["functional"]}
    assert sorted(checks) == sorted(bench_nsc.NAMES)
    assert all(r["check"] == "ok" and "error" not in r for r in checks.values()), {n: r.get("check") for n, r in checks.items()}
    text = repro.read_text()
    for n in bench_nsc.NAMES:
        assert f"| {n} | ok |" in text, n
    assert "## Headline figures" in text and "| NS/Base | 3.19x |" in text
    assert all((repro.parent / "figures" / f).exists() for f in ("nsc_fig9_speedup.png", "nsc_fig10_energy.png", "nsc_fig12_traffic.png"))


def test_every_offloaded_workload_runs_every_configuration(suite) -> None:
    _, out, _ = suite
    rows = read_csv(out / "bench-nsc.csv")
    offloaded = {r["workload"] for r in rows if r["functional"] and r["regions_near"]}
    assert offloaded, "no workload offloaded"
    runs = {(r["workload"], r["core"], r["config"]) for r in rows if not r["functional"] and "error" not in r}
    for n in offloaded:
        assert {c for w, core, c in runs if w == n and core == "nsc-ooo8"} == set(bench_nsc.CONFIGS), n
        for core in bench_nsc.CORES[1:]:
            assert {c for w, k, c in runs if w == n and k == core} == set(bench_nsc.CORE_CONFIGS), (n, core)


def test_a_wrong_output_fails_the_suite(tmp_path, monkeypatch, capsys) -> None:
    w = nsc.get("histogram")
    ref = w.reference

    def off_by_one(x, sizes):
        out = ref(x, sizes)
        return {k: (v + 1 if k == w.outputs[0] else v) for k, v in out.items()}

    monkeypatch.setitem(nsc.WORKLOADS, w.name, dataclasses.replace(w, reference=off_by_one))
    rc = bench_nsc.run(["histogram"], "small", tmp_path / "out", tmp_path / "R.md", 1, True)
    assert rc == 1
    assert f"histogram nsc-ooo8 NS: differ: {w.outputs[0]}" in capsys.readouterr().out
