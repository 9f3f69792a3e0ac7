"""infs-bench: the suite runner produces the CSV, the plots and REPRODUCTION.md (small sizes, in-process)."""

from __future__ import annotations

import csv
import math
from pathlib import Path

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
    # the CAL'22 table (stencil2d is one of its workloads) from its five runs on cal-64, and the further numbers
    cal = list(csv.DictReader((out / "cal22.csv").open()))
    assert len(cal) == 5 and {r["machine"] for r in cal} == {"cal-64"} and not any(r.get("error") for r in cal)
    assert "## CAL'22 (Infinity Stream, IEEE CAL 2022) on `cal-64`" in text and "| Fig. 6 | Inf-S_fixed (no runtime lowering) over Near-L3" in text
    assert "## Further numbers of the paper's text" in text and "| §8 | chip area overhead" in text
    # --replot: the same report again from the CSVs, no runs
    (figures / "fig11_speedup.png").unlink()
    repro.unlink()
    assert infs_bench.main(["--replot", "--out", str(out), "--reproduction", str(repro), "--quiet"]) == 0
    assert (figures / "fig11_speedup.png").exists()
    again = repro.read_text()
    assert "regenerated from the CSVs" in again
    table = lambda t: [ln for ln in t.splitlines() if ln.startswith("| Fig.")]  # noqa: E731
    assert table(again) == table(text)


def test_bench_bad_arguments(capsys, tmp_path):
    never = str(tmp_path / "never")
    assert infs_bench.main(["--workloads", "nope", "--out", never]) == 2
    assert "unknown workload 'nope'" in capsys.readouterr().err
    assert infs_bench.main(["--configs", "base,gpu", "--out", never]) == 2
    assert "unknown config 'gpu'" in capsys.readouterr().err
    assert infs_bench.main(["--cal22", "kmeans_outer", "--out", never]) == 2
    assert "unknown workload 'kmeans_outer' in --cal22 (CAL'22's: stencil1d," in capsys.readouterr().err
    assert not (tmp_path / "never").exists()  # refused before anything is written


def test_tile_candidates():
    assert infs_bench.tile_candidates(2, 256) == [(1, 256), (2, 128), (4, 64), (8, 32), (16, 16), (32, 8), (64, 4), (128, 2), (256, 1)]
    assert all(a * b * c == 256 for a, b, c in infs_bench.tile_candidates(3, 256))


def test_geomean():
    assert infs_bench.geomean([2.0, 8.0]) == pytest.approx(4.0)


# ---------------------------------------------------------------------------------
# Fig. 16/17: the tile study
# ---------------------------------------------------------------------------------


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def test_bench_tile_study_small(tmp_path):
    """A 2-D, a 3-D and a mixed-rank workload (kmeans_outer: no 2-D shape can be forced on its 1-D
    regions) at small sizes: tiles.csv, the table with its breakdown, the marks, the headline rows
    and both plots."""
    from infs.sim.stats import CYCLE_KEYS

    out, repro = tmp_path / "out", tmp_path / "REPRODUCTION.md"
    study = "stencil2d,kmeans_outer,stencil3d"
    assert infs_bench.main(["--workloads", study, "--configs", "in", "--size-set", "small", "--out", str(out),
                            "--reproduction", str(repro), "--tiles-study", study, "--jobs", "1", "--quiet"]) == 0  # fmt: skip
    rows = infs_bench.tile_rows_of(infs_bench.read_csv(out / "tiles.csv"))
    by: dict[str, list[dict]] = {}
    for r in rows:
        by.setdefault(r["workload"], []).append(r)
    assert list(by) == study.split(",")
    shapes = {wl: [r["tiles"] for r in rs if r["tiles"] != "heuristic"] for wl, rs in by.items()}
    assert shapes["stencil2d"] == ["x".join(map(str, t)) for t in infs_bench.tile_candidates(2, 256)]
    assert shapes["stencil3d"] == ["x".join(map(str, t)) for t in infs_bench.tile_shapes(3, 256)]
    for wl, rs in by.items():
        heur = [r for r in rs if r["tiles"] == "heuristic"]
        assert len(heur) == 1 and heur[0].get("default") and not heur[0].get("rejected"), wl
        assert heur[0]["regions_in"] > 0 and str(heur[0]["tiles_chosen"])
        valid = [r for r in rs if not r.get("rejected")]
        for r in valid:  # the breakdown adds up to the total
            assert sum(int(r.get(f"cyc_{k}", 0)) for k in CYCLE_KEYS) == r["total_cycles"], (wl, r["tiles"])
        swept = [r for r in valid if r["tiles"] != "heuristic"]
        if swept:
            fewest = min(r["total_cycles"] for r in swept)
            assert {r["tiles"] for r in swept if r.get("best")} == {r["tiles"] for r in swept if r["total_cycles"] == fewest}
            # the heuristic chose one shape for every region: forcing that shape is the same run
            # (when the study sweeps it: the cost ranking may pick a valid shape outside the
            # study's power-of-two set, e.g. stencil3d's 1x256x1 at the small size)
            chosen = str(heur[0]["tiles_chosen"])
            assert "/" not in chosen, (wl, chosen)
            same = [r for r in swept if r["tiles"] == chosen]
            assert len(same) <= 1
            if same:
                assert same[0].get("default") and same[0]["total_cycles"] == heur[0]["total_cycles"], (wl, chosen)
            assert sum(1 for r in swept if r.get("no_tiling")) == 1
    # kmeans_outer: every forced 2-D shape is rejected by its 1-D regions' layout, with the reason
    km = [r for r in by["kmeans_outer"] if r["tiles"] != "heuristic"]
    assert len(km) == 9
    for r in km:
        assert str(r.get("rejected", "")).startswith("region ") and f"tile shape {r['tiles']} has rank 2, the lattice has rank 1" in r["rejected"]
        assert str(Path(infs_bench.__file__).resolve().parents[2]) not in r["rejected"]  # the checkout's path is taken out
    text = repro.read_text()
    table = text.split("## Fig. 16/17: tile shapes (In-L3 runs)", 1)[1].split("\n## ", 1)[0]
    lines = [ln for ln in table.splitlines() if ln.startswith("| ") and not ln.startswith("| workload")]
    head = _cells(next(ln for ln in table.splitlines() if ln.startswith("| workload")))
    assert head[4:4 + len(CYCLE_KEYS)] == list(CYCLE_KEYS) and head[-1] == "note"
    assert len(lines) == len(rows)
    for ln in lines:
        c = _cells(ln)
        if c[2] == "-":
            assert c[-1].startswith("rejected: region ")
            continue
        assert sum(int(x.replace(",", "")) for x in c[4:4 + len(CYCLE_KEYS)]) == int(c[2].replace(",", "")), ln
    notes = {(c[0], c[1]): c[-1] for c in map(_cells, lines)}
    # small lattice 6x10x12: row-major 1x16x16 is the no-tiling shape; 1x1x256 is swept too (which shape is
    # best is the model's business: the marks are checked, not the winner)
    assert ("stencil3d", "1x1x256") in notes and "no tiling" in notes[("stencil3d", "1x16x16")]
    assert [t for (wl, t), n in notes.items() if wl == "stencil3d" and "no tiling" in n] == ["1x16x16"]
    assert sum("best" in n for (wl, _), n in notes.items() if wl == "stencil3d") >= 1
    assert all("default" in n for (wl, t), n in notes.items() if t.startswith("heuristic ("))
    assert sum("best" in n for (wl, _), n in notes.items() if wl == "stencil2d") >= 1
    assert "Every forced shape was rejected on kmeans_outer" in table
    # the headline rows: over the two workloads with valid shapes, from these rows
    summ = infs_bench.tile_summary(rows)
    want = infs_bench.geomean([summ[w]["heuristic"]["total_cycles"] / summ[w]["best"]["total_cycles"] for w in ("stencil2d", "stencil3d")])
    hrow = next(ln for ln in text.splitlines() if ln.startswith("| Fig. 16/17 | layout heuristic vs best tile shape"))
    assert _cells(hrow)[1] == "layout heuristic vs best tile shape (cycles, geomean)" and _cells(hrow)[3] == f"{want:.3f}x"
    assert "The Fig. 16/17 rows are geomeans over the 2 (best shape) and 2 (no tiling) 2-D/3-D workloads" in text
    frow = next(ln for ln in text.splitlines() if ln.startswith("| Fig. 16/17 | layout heuristic over no tiling"))
    flat = infs_bench.geomean([summ[w]["no_tiling"]["total_cycles"] / summ[w]["heuristic"]["total_cycles"] for w in ("stencil2d", "stencil3d")])
    assert _cells(frow)[3] == f"{flat:.2f}x"
    figures = tmp_path / "figures"
    for png in ("fig16_tiles.png", "fig17_tiles3d.png"):
        assert (figures / png).stat().st_size > 1000
        assert f"![{png[:-4]}](figures/{png})" in text
    # --replot annotates tiles.csv's rows again: the same table and headline
    repro.unlink()
    (figures / "fig17_tiles3d.png").unlink()
    assert infs_bench.main(["--replot", "--configs", "in", "--out", str(out), "--reproduction", str(repro), "--quiet"]) == 0
    again = repro.read_text()
    assert (figures / "fig17_tiles3d.png").exists()
    pick = lambda t: [ln for ln in t.splitlines() if ln.startswith("| ")]  # noqa: E731
    assert pick(again) == pick(text)


def test_tile_study_workloads_and_shapes():
    from infs.workloads import WORKLOADS

    ranks = {w: infs_bench._study_rank(WORKLOADS[w]) for w in infs_bench.TILE_STUDY}
    assert ranks == {"stencil2d": 2, "dwt2d": 2, "conv2d": 2, "gauss_elim": 2, "mm_outer": 2, "kmeans_outer": 2,
                     "gather_mlp_outer": 2, "stencil3d": 3, "conv3d": 3}  # fmt: skip
    assert infs_bench.TILE_CONFIG == "in"
    s3 = infs_bench.tile_shapes(3, 256)
    assert len(s3) == 16 and len(set(s3)) == 16 and all(a * b * c == 256 for a, b, c in s3)
    assert {(1, 16, 16), (4, 8, 8), (2, 8, 16), (16, 4, 4), (1, 1, 256)} <= set(s3)
    assert all(max(t) <= 16 for t in s3 if t != (1, 1, 256))
    assert infs_bench.tile_shapes(2, 256) == infs_bench.tile_candidates(2, 256)
    # the heuristic's run and one per shape, the no-tiling one of the output array added when missing
    tasks = infs_bench.tile_tasks(["stencil3d"], "paper")
    assert tasks[0][5] is None and [t[5] for t in tasks[1:]] == s3 and all(t[3] == "in" for t in tasks)


def test_row_major_tile():
    assert infs_bench.row_major_tile((2048, 2048), 256) == (1, 256)
    assert infs_bench.row_major_tile((32768, 128), 256) == (2, 128)  # two rows of 128 per array
    assert infs_bench.row_major_tile((16, 512, 512), 256) == (1, 1, 256)
    assert infs_bench.row_major_tile((6, 10, 12), 256) == (1, 16, 16)
    assert infs_bench.row_major_tile((1, 16), 256) == (16, 16)


def _trow(wl, tiles, cycles, **kw):
    r = {"workload": wl, "config": "in", "tiles": tiles, "total_cycles": cycles, "regions_in": 2, "cyc_compute": cycles}
    r.update(kw)
    return r


def test_tile_rows_of_rejections_and_marks():
    import json

    nh = lambda **d: json.dumps(d)  # noqa: E731
    rows = infs_bench.tile_rows_of([
        # the heuristic: region 2 cannot run in memory whatever the shape (not the shape's fault)
        _trow("w", "", 100, tiles_chosen="16x16", lattice="512x512", not_honoured=nh(**{"2": "'argmin' has no counterpart"})),
        _trow("w", "1x256", 120, not_honoured=nh(**{"2": "'argmin' has no counterpart"})),
        _trow("w", "16x16", 100, not_honoured=nh(**{"2": "'argmin' has no counterpart"})),
        _trow("w", "32x8", 90, not_honoured=nh(**{"2": "'argmin' has no counterpart", "0": "tile shape 32x8 needs 99 arrays", "1": "x"})),
        {"workload": "w", "config": "in", "tiles": "256x1", "error": "LayoutError: boom"},
        _trow("v", "", 50, tiles_chosen="1x256/256x1", lattice="8x8"),
        _trow("v", "1x256", 60),
        _trow("v", "8x32", 40),
    ])  # fmt: skip
    t = {(r["workload"], r["tiles"]): r for r in rows}
    assert not t[("w", "1x256")].get("rejected") and not t[("w", "16x16")].get("rejected")
    # the fastest run is rejected: a region its layout refused ran near memory, so it is not the best
    assert t[("w", "32x8")]["rejected"] == "region 0: tile shape 32x8 needs 99 arrays (and 1 more region(s))"
    assert t[("w", "256x1")]["rejected"] == "LayoutError: boom"
    assert t[("w", "16x16")]["best"] and t[("w", "16x16")]["default"] and not t[("w", "32x8")]["best"]
    assert t[("w", "1x256")]["no_tiling"] and not t[("w", "16x16")]["no_tiling"]
    assert t[("w", "heuristic")]["default"]
    # mixed per-region choice: no forced shape is "the default"; 8x8 lattice: row-major is 32x8
    assert not any(t[("v", s)]["default"] for s in ("1x256", "8x32")) and t[("v", "8x32")]["best"]
    summ = infs_bench.tile_summary(rows)
    assert summ["w"]["vs_best"] == 1.0 and summ["w"]["over_no_tiling"] == 1.2
    assert summ["v"]["vs_best"] == 50 / 40 and summ["v"]["over_no_tiling"] is None
    ours = infs_bench.headline({}, ["in"], rows)
    assert ours["fig16_heuristic_vs_best"] == pytest.approx(math.sqrt(1.25)) and ours["fig16_n_vs_best"] == 2
    assert ours["fig16_heuristic_over_no_tiling"] == pytest.approx(1.2) and ours["fig16_n_over_no_tiling"] == 1
    # idempotent (--replot annotates tiles.csv's rows again)
    assert infs_bench.tile_rows_of(rows) == rows


def _row(config, cycles, energy=None):
    from infs.sim.stats import ENERGY_KEYS

    energy = energy or {"static": 1.0}
    r = {"config": config, "total_cycles": cycles, "energy_pj": sum(energy.values())}
    r.update({f"energy_{k}": energy.get(k, 0.0) for k in ENERGY_KEYS})
    return r


def test_geomean_order_holds_or_names_the_pair():
    from infs.tools.bench_report import _geomean_order

    ok = {"a": {"base": _row("base", 100), "near": _row("near", 50), "in": _row("in", 25), "infs": _row("infs", 20), "infs_nojit": _row("infs_nojit", 20)}}
    assert "holds" in _geomean_order(ok)
    bad = {"a": {**ok["a"], "in": _row("in", 200)}}
    line = _geomean_order(bad)
    assert "does not hold for Near-L3 vs In-L3." in line and "Near-L3 2.00x >= In-L3 0.50x < Inf-S" in line


def test_energy_gap_names_the_class_and_its_constants():
    from infs.tools.bench_report import _energy_gaps

    best = {"x": {"near": _row("near", 10, {"noc": 10.0, "static": 10.0}), "in": _row("in", 5, {"static": 30.0, "compute": 5.0}),
                  "infs": _row("infs", 5, {"compute": 8.0})}}  # fmt: skip
    lines = _energy_gaps({"fig18_in_energy_over_near": 20 / 35, "fig18_infs_energy_over_near": 2.5}, best)
    assert len(lines) == 1  # Inf-S's 2.5x is within 25% of the paper's 2.4x
    assert "fig18_in_energy_over_near" in lines[0] and "x 0.57x" in lines[0]
    assert "`static`" in lines[0] and "`static_fraction`" in lines[0]
