"""infs-bench --suite stream at a tiny size: the report's sections, the plots,
the CSV, and a wrong product failing the run."""

from __future__ import annotations

import numpy as np

from infs.tools import bench_stream
from infs.tools.infs_bench import main


def test_suite_small(tmp_path, monkeypatch):
    monkeypatch.setattr(bench_stream, "SMALL", ("Trefethen_20",))
    monkeypatch.setattr(bench_stream, "ISCAS_SMALL", ("c17",))
    monkeypatch.setattr(bench_stream, "MULTIPLIER_CONSTANTS", (3,))
    repro = tmp_path / "R.md"
    assert main(["--suite", "stream", "--size-set", "small", "--out", str(tmp_path / "out"),
                 "--reproduction", str(repro), "--quiet"]) == 0
    text = repro.read_text()
    for heading in ("## Fig. 16", "## Fig. 17", "## Fig. 18 and Table VII"):
        assert heading in text
    missing = bench_stream.flow_missing()
    if missing is None:  # the synthesis flow and ABC: c17 through STREAM-O and STREAM-M, checked
        assert "| c17 | stream-o |" in text and "| c17 | stream-m |" in text and "## Table VI" in text
        assert "MISMATCH" not in text and "## Fig. 14: c1355" in text
        assert "| 3 | 2 / 2 |" in text  # the multiplier by 3, two-level: two crossbars, two layers
    else:
        assert f"Not in this report: {missing}." in text
    assert "| Trefethen_20 | 20 | 158 | exact" in text and "| ok |" in text
    assert (tmp_path / "figures" / "stream_fig16_adder.png").is_file()
    assert (tmp_path / "figures" / "stream_fig17_mvm.png").is_file()
    assert "](figures/stream_fig17_mvm.png)" in text  # relative to the report
    assert str(tmp_path) not in text
    assert (tmp_path / "out" / "bench-stream.csv").read_text().startswith("matrix,")


def test_adder_study_minimum_at_three_bits():
    rows = bench_stream.adder_study()
    assert min(rows, key=lambda r: r["crossbars_per_bit"])["bits"] == 3
    assert [r["fits_128"] for r in rows] == [True, True, True, False, False]


def test_wrong_product_fails(tmp_path, monkeypatch):
    from infs.sim.xbar import mvm as mvm_mod

    monkeypatch.setattr(bench_stream, "SMALL", ("Trefethen_20",))
    monkeypatch.setattr(bench_stream, "flow_missing", lambda: "skipped here")
    real = mvm_mod.mvm
    monkeypatch.setattr(mvm_mod, "mvm", lambda m, x: real(m, x) ^ np.int64(1))
    repro = tmp_path / "R.md"
    assert bench_stream.run("small", tmp_path / "out", repro, True) == 1
    assert "MISMATCH" in repro.read_text()


def test_wrong_circuit_output_fails(tmp_path, monkeypatch):
    import pytest

    if bench_stream.flow_missing() is not None:
        pytest.skip(bench_stream.flow_missing())
    from infs.sim.xbar import evaluate as evaluate_mod

    monkeypatch.setattr(bench_stream, "SMALL", ("Trefethen_20",))
    monkeypatch.setattr(bench_stream, "ISCAS_SMALL", ("c17",))
    monkeypatch.setattr(bench_stream, "MULTIPLIER_CONSTANTS", (1,))
    monkeypatch.setattr(bench_stream, "fig14_rows", lambda values: [])
    real = evaluate_mod.evaluate
    monkeypatch.setattr(evaluate_mod, "evaluate", lambda p, x: ~real(p, x) if p.style == "stream-m" else real(p, x))
    repro = tmp_path / "R.md"
    assert bench_stream.run("small", tmp_path / "out", repro, True) == 1
    assert "| c17 | stream-m |" in repro.read_text() and "MISMATCH" in repro.read_text()


def test_dummy_columns_by_hand():
    from infs.dialects.xbar_records import XbarKernel, XbarLayer

    # layer 0 (rows a, b, ~a, ~b): n1 = a OR b, and a dummy carrying a; layer 1: NOR(n1, a) and a dummy
    # carrying n1; layer 2: a dummy carrying layer 1's dummy of n1 (a node) and one carrying the NOR
    p0 = np.zeros((4, 2), bool)
    p0[[0, 1], 0] = True
    p0[0, 1] = True
    p1 = np.zeros((2, 2), bool)
    p1[[0, 1], 0] = True
    p1[0, 1] = True
    p2 = np.eye(2, dtype=bool)
    k = XbarKernel((XbarLayer(p0, np.array([False, False])), XbarLayer(p1, np.array([True, False])),
                    XbarLayer(p2, np.array([False, False]))), (0, 1))
    assert bench_stream.dummy_columns(k) == (1, 3)
    # the primary input carried two layers up: both dummies carry it
    q1 = np.zeros((2, 1), bool)
    q1[1, 0] = True
    k2 = XbarKernel((XbarLayer(p0, np.array([False, False])), XbarLayer(q1, np.array([False]))), (0,))
    assert bench_stream.dummy_columns(k2) == (2, 0)
