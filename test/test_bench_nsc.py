"""``infs-bench --suite nsc`` at the small sizes, in one process.

Every workload's check run (computing data on ``nsc-ooo8``, NS) matches its
numpy reference; the suite on a few workloads has their analysis rows under
every configuration, the report names each with its check and the headline
table, the plots and the CSV are written; and a workload whose outputs
differ from its reference makes the suite say so and fail.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from infs.tools import bench_nsc
from infs.tools.bench_csv import read_csv
from infs.workloads import nsc


# The report's runs (13 per workload) on a few workloads of each kind, to keep
# the test fast; the checks (one run each) on all of them.
REPORTED = ["pathfinder", "histogram", "pr_push", "bin_tree"]


def test_every_workload_matches_its_reference() -> None:
    rows = bench_nsc._run_all([(n, dict(nsc.get(n).small), "nsc-ooo8", "NS", "mrsw", True) for n in bench_nsc.NAMES], 1, True)
    assert sorted(r["workload"] for r in rows) == sorted(bench_nsc.NAMES)
    assert all(r.get("check") == "ok" and "error" not in r for r in rows), {r["workload"]: r.get("check") or r.get("error") for r in rows}


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> tuple[int, Path, Path]:
    root = tmp_path_factory.mktemp("nsc")
    repro = root / "bench" / "REPRODUCTION-NSC.md"
    rc = bench_nsc.run(REPORTED, "small", root / "out", repro, 1, True)
    return rc, root / "out", repro


def test_the_report_at_small_sizes(suite) -> None:
    rc, out, repro = suite
    assert rc == 0
    rows = read_csv(out / "bench-nsc.csv")
    checks = {r["workload"]: r for r in rows if r["functional"]}
    assert sorted(checks) == sorted(REPORTED) and all(r["check"] == "ok" for r in checks.values())
    text = repro.read_text()
    for n in REPORTED:
        assert f"| {n} | ok |" in text, n
    assert "## Headline figures" in text and "| NS/Base | 3.19x |" in text and "## Fig. 16" in text
    assert all((repro.parent / "figures" / f).exists() for f in ("nsc_fig9_speedup.png", "nsc_fig10_energy.png", "nsc_fig12_traffic.png"))


def test_every_offloaded_workload_runs_every_configuration(suite) -> None:
    _, out, _ = suite
    rows = read_csv(out / "bench-nsc.csv")
    offloaded = {r["workload"] for r in rows if r["functional"] and r["regions_near"]}
    assert offloaded == set(REPORTED)
    runs = {(r["workload"], r["core"], r["config"], r["lock"]) for r in rows if not r["functional"] and "error" not in r}
    for n in offloaded:
        assert {c for w, core, c, _ in runs if w == n and core == "nsc-ooo8"} == set(bench_nsc.CONFIGS), n
        for core in bench_nsc.CORES[1:]:
            assert {c for w, k, c, _ in runs if w == n and k == core} == set(bench_nsc.CORE_CONFIGS), (n, core)
    assert ("pr_push", "nsc-ooo8", "NS", "exclusive") in runs  # Fig. 16's


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
