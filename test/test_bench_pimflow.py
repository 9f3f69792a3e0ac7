"""``infs-bench --suite pimflow`` on the small network: the report's headline rows,
each number in them the one the CSV's rows give, the plots (relative paths), an
unknown model one line; a failed run is reported and fails the suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from infs.runtime import pimflow
from infs.runtime.pimflow_models import model_layers
from infs.tools import bench_pimflow
from infs.tools.bench_csv import read_csv
from infs.tools.infs_bench import main as infs_bench


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> tuple[int, Path, Path]:
    root = tmp_path_factory.mktemp("pimflow")
    repro = root / "bench" / "REPRODUCTION-PIMFLOW.md"
    rc = bench_pimflow.run(["tiny"], "small", root / "out", repro, 1, True)
    return rc, root / "out", repro


def test_report_and_rows(suite):
    rc, out, repro = suite
    assert rc == 0
    rows = read_csv(out / "bench-pimflow.csv")
    fig9 = {r["config"]: r for r in rows if r["study"] == "fig9"}
    assert sorted(fig9) == sorted(bench_pimflow.CONFIGS)
    text = repro.read_text()
    want = fig9["Baseline"]["seconds"] / fig9["PIMFlow"]["seconds"]
    assert f"| end to end, PIMFlow over Baseline (average) (abstract: '34% ... on average' against the GPU baseline) | 1.34x | {want:.2f}x |" in text
    # the runtime itself gives the same plan
    assert fig9["PIMFlow"]["seconds"] == pytest.approx(pimflow.plan(model_layers("tiny"), "PIMFlow").seconds)
    assert {r["config"] for r in rows if r["study"] == "fig8"} == {f"batch {b}" for b in bench_pimflow.GEMV_BATCHES}
    for p in ("pimflow_fig8_gemv.png", "pimflow_fig9_conv.png", "pimflow_fig9_e2e.png", "pimflow_fig12_energy.png", "pimflow_fig13_channels.png"):
        assert (repro.parent / "figures" / p).stat().st_size > 0
        assert f"](figures/{p})" in text
    assert str(Path.cwd()) not in text and "## Why ours differ" in text


def test_a_failed_run_fails_the_suite(tmp_path, monkeypatch):
    def broken(model):
        raise ValueError("no such layer")

    monkeypatch.setattr(bench_pimflow, "model_task", broken)
    rc = bench_pimflow.run(["tiny"], "small", tmp_path / "out", tmp_path / "R.md", 1, True)
    assert rc == 1 and "ValueError: no such layer" in (tmp_path / "R.md").read_text()


def test_unknown_model_is_one_line(capsys):
    assert infs_bench(["--suite", "pimflow", "--workloads", "LeNet", "--quiet"]) == 2
    assert capsys.readouterr().out.strip() == "infs-bench --suite pimflow: error: unknown model 'LeNet' (known: ENetB0, MnasNet, MBNetV2, ResNet50, VGG16)"
