"""infs-bench: the suite runner produces the CSV, the plots and REPRODUCTION.md (small sizes, in-process)."""

from __future__ import annotations

import csv

import pytest

from infs.tools import infs_bench


def test_bench_small_two_workloads(tmp_path):
    out = tmp_path / "out"
    repro = tmp_path / "REPRODUCTION.md"
    rc = infs_bench.main(["--workloads", "vec_add,stencil2d", "--size-set", "small", "--out", str(out),
                          "--reproduction", str(repro), "--tiles-study", "stencil2d", "--quiet"])  # fmt: skip
    assert rc == 0
    rows = list(csv.DictReader((out / "bench.csv").open()))
    assert {(r["workload"], r["config"]) for r in rows} == {(w, c) for w in ("vec_add", "stencil2d") for c in infs_bench.CONFIGS}
    for r in rows:
        assert not r.get("error")
        assert int(r["total_cycles"]) > 0
        assert float(r["energy_pj"]) > 0
        assert float(r["wall_s"]) > 0
        assert r["sizes"]
        # the breakdown adds up to the total
        assert sum(int(r[f"cyc_{k}"]) for k in ("dram", "jit", "move", "compute", "final_reduce", "near_mem", "core")) == int(r["total_cycles"])
    by = {(r["workload"], r["config"]): r for r in rows}
    assert int(by[("stencil2d", "in")]["regions_in"]) > 0
    assert int(by[("stencil2d", "near")]["regions_near"]) > 0 and int(by[("stencil2d", "base")]["regions_core"]) > 0
    assert int(by[("stencil2d", "infs_nojit")]["cyc_jit"]) == 0
    figures = tmp_path / "figures"  # beside REPRODUCTION.md, which shows them
    for png in ("fig11_speedup.png", "fig12_noc_traffic.png", "fig13_traffic.png", "fig14_breakdown.png", "fig18_energy.png"):
        assert (figures / png).stat().st_size > 1000
    assert (out / "tiles.csv").exists()
    # Fig. 2 as a size sweep: vec_add at the small sweep's sizes besides the suite's own run
    assert {r["sizes"] for r in csv.DictReader((out / "fig2.csv").open())} == {"n=16", "n=256"}
    assert (figures / "fig2_sizes.png").stat().st_size > 1000
    text = repro.read_text()
    assert "| Fig. 2 |" in text and "| Fig. 11 | Inf-S over Base (geomean)" in text and "## Sizes used" in text
    assert "stencil2d | m=16 n=24 t=4 |" in text
    assert "## Why they differ" in text and "## Observations from these runs" in text
    assert "## Fig. 2: vec_add by input size" in text and "| 256 |" in text
    assert "![fig11_speedup](figures/fig11_speedup.png)" in text and "| Fig. 18 | energy efficiency over Near-L3, Inf-S" in text
    # generated, not hand-written: every bullet names a gap measured in this run (or says there is none)
    why = text.split("## Why they differ", 1)[1]
    assert "paper" in why and ("ours" in why or "within 25%" in why)
    assert (out / "run.json").exists()
    # --replot: the same report again from the CSVs, no runs
    (figures / "fig11_speedup.png").unlink()
    repro.unlink()
    assert infs_bench.main(["--replot", "--out", str(out), "--reproduction", str(repro), "--quiet"]) == 0
    assert (figures / "fig11_speedup.png").exists()
    again = repro.read_text()
    assert "regenerated from the CSVs" in again
    table = lambda t: [ln for ln in t.splitlines() if ln.startswith("| Fig.")]  # noqa: E731
    assert table(again) == table(text)


def test_bench_bad_arguments(capsys):
    assert infs_bench.main(["--workloads", "nope", "--out", "/tmp/never"]) == 2
    assert "unknown workload 'nope'" in capsys.readouterr().err
    assert infs_bench.main(["--configs", "base,gpu", "--out", "/tmp/never"]) == 2
    assert "unknown config 'gpu'" in capsys.readouterr().err


def test_tile_candidates():
    assert infs_bench.tile_candidates(2, 256) == [(1, 256), (2, 128), (4, 64), (8, 32), (16, 16), (32, 8), (64, 4), (128, 2), (256, 1)]
    assert all(a * b * c == 256 for a, b, c in infs_bench.tile_candidates(3, 256))


def test_geomean():
    assert infs_bench.geomean([2.0, 8.0]) == pytest.approx(4.0)
