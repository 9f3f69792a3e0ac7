"""Regressions found by red-teaming the command-line tools' edge cases
(infs-opt pass order, infs-sweep and infs-view flags): each test failed
before its fix."""

from __future__ import annotations

from pathlib import Path

from infs.tools import infs_sweep


def test_sweep_plot_without_a_table_is_a_one_line_error(tmp_path: Path, capsys) -> None:
    # `--plot` plots the table as it is; with no table there is nothing to plot.
    # It used to say "wrote OUT/sweep.csv", exit 0, and write nothing.
    spec = tmp_path / "s.toml"
    spec.write_text('workloads = ["vec_add"]\nsizes = ["small"]\nmodes = ["core", "in"]\n[machines]\nbase = "tiny"\n')
    out = tmp_path / "out"
    rc = infs_sweep.main([str(spec), "--plot", "--quiet", "--out", str(out)])
    cap = capsys.readouterr()
    assert rc == 2
    err = cap.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("infs-sweep: error: --plot:"), cap.err
    assert "run the sweep first" in err[0]
    assert "wrote" not in cap.out + cap.err
    assert not (out / "sweep.csv").exists()
