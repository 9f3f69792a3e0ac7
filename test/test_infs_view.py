"""infs-view: the data, the CLI, ``infs-run --view``, and the
page in a real headless browser (Chromium; skipped with the package's name
when it is not installed: ``make browser``).

The browser tests keep a screenshot each in their ``tmp_path``."""

from __future__ import annotations

import html
import json
import math
import re
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from infs import api
from infs.dialects.lattice import Pattern
from infs.hardware import load_config
from infs.runtime.driver import RunOptions, run_program
from infs.runtime.host import phantom_array
from infs.runtime.view_data import view_data
from infs.sim.sram.geometry import Geometry, bcast_candidates, box_tile_counts, pattern_set, shift_maps
from infs.tools import infs_run, infs_view
from infs.tools.view_page import render

ROOT = Path(__file__).resolve().parents[1]
STENCIL2D = ROOT / "infs/workloads/stencil2d.mlir"
MM_OUTER = ROOT / "infs/workloads/mm_outer.mlir"
KMEANS_INNER = ROOT / "infs/workloads/kmeans_inner.mlir"


def page_data(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    assert m, "the page embeds its data"
    return json.loads(m.group(1))


def stencil_run(m: int, n: int, cfg_name: str, t: int = 2, record: bool = False, machine_mode: str = "analysis"):
    cfg = load_config(cfg_name)
    if machine_mode == "analysis":
        a, b = phantom_array((m, n), np.float32), phantom_array((m, n), np.float32)
    else:
        a, b = np.random.default_rng(0).random((m, n), np.float32), np.zeros((m, n), np.float32)
    vals = {"A": a, "B": b, "W": np.ones(2, np.float32), "m": m, "n": n, "t": t}
    rep = run_program(api.parse_file(STENCIL2D), vals, None, RunOptions(config=cfg, mode="in", machine_mode=machine_mode, jit=False, record_charges=record))
    return rep, cfg


def runs_of(rep):
    return [(r, low.record, p, a) for r, low, p, a in rep.programs]


# ---------------------------------------------------------------------------
# the data
# ---------------------------------------------------------------------------


def test_replay_reproduces_the_runs_costs():
    """The per-command costs the page shows add up to the run's own figures:
    every cycle category, every link's bytes (a warm in-memory run, JIT not charged)."""
    rep, cfg = stencil_run(40, 36, "small-16", t=4)
    d = view_data([(r, low.record, p, a) for r, low, p, a in rep.programs], rep.stats, cfg, "t")
    assert len(rep.programs) == 4 and [p["invocations"] for p in d["programs"]] == [2, 2]
    for k, v in rep.stats.cycles.items():
        assert sum(p["cycles"][k] for p in d["programs"]) == v, k
    links = sum(np.asarray(p["link_bytes"]) for p in d["programs"] if p["link_bytes"] is not None)
    assert np.allclose(links, rep.stats.link_bytes.ravel())
    assert np.allclose(d["run"]["link_bytes"], rep.stats.link_bytes.ravel())
    assert d["run"]["replay_note"] == ""
    # the first invocation's commands: their cycles plus the drain are the program's time
    p = d["programs"][0]
    assert sum(p["cost"]["cycles"]) + p["drain"] > 0
    # bank busy: every command's cycles on the banks it works on
    prog = rep.programs[0][1].record
    geo = Geometry(tuple(prog.lattice), tuple(prog.tiles), prog.per_bank)
    used = np.unique(np.arange(geo.num_tiles) // prog.per_bank)
    busy = np.asarray(d["run"]["bank_busy"])
    assert busy[used].min() > 0 and busy.sum() > 0
    assert np.all(busy[np.setdiff1d(np.arange(cfg.banks), used)] == 0)


@pytest.mark.parametrize("machine_mode", ["analysis", "functional"])
def test_the_machine_records_every_runs_charges(machine_mode):
    """``Machine.record_charges``: one entry per program run (replayed runs
    too: an analysis run after its decision's probe is a replay), in order,
    and the charges add up to the run's in-memory cycles, category by category."""
    rep, cfg = stencil_run(40, 36, "small-16", t=4, record=True, machine_mode=machine_mode)
    ch = rep.machine.charges
    assert len(ch) == len(rep.programs) == 4 and all(p is r[1] for (p, _), r in zip(ch, runs_of(rep)))
    if machine_mode == "analysis":
        assert rep.machine.replayed > 0
    tot: dict[str, int] = {}
    for prog, cs in ch:
        assert all(-1 <= i < len(prog.cmds) for i, _, _ in cs)
        for _, _, c in cs:
            tot[c.category] = tot.get(c.category, 0) + c.cycles
    assert {k: v for k, v in tot.items() if v} == {k: v for k, v in rep.stats.cycles.items() if v and k != "jit"}
    # not recording: nothing kept
    assert stencil_run(16, 16, "small-16")[0].machine.charges is None


def test_recorded_and_replayed_costs_agree():
    """The page's per-command costs from the run's own record equal those of
    replaying the run's programs on a fresh machine (a pimcmd file's way)."""
    rep, cfg = stencil_run(40, 36, "small-16", t=3, record=True)
    a = view_data(runs_of(rep), rep.stats, cfg, "t", charges=[cs for _, cs in rep.machine.charges])
    b = view_data(runs_of(rep), rep.stats, cfg, "t")
    for p, q in zip(a["programs"], b["programs"], strict=True):
        for key in ("cost", "cycles", "bank_busy", "tile_busy", "link_bytes", "links", "drain", "invocations"):
            assert p[key] == q[key], key
    assert a["run"] == b["run"] and a["run"]["replay_note"] == ""


def test_a_chunked_runs_costs_are_the_runs_own():
    """vec_add too large for tiny's arrays runs in chunks, each chunk's DRAM fetch
    hidden behind the previous chunk's compute: the page's per-command costs
    (the run's record) add up to the run's cycles; a replay of the programs
    alone, which knows nothing of the overlap, does not, and the page says so."""
    cfg, n = load_config("tiny"), 20000
    vals = {"A": phantom_array((n,), np.float32), "B": phantom_array((n,), np.float32), "C": phantom_array((n,), np.float32), "n": n}
    rep = run_program(api.parse_file(ROOT / "infs/workloads/vec_add.mlir"), vals, None, RunOptions(config=cfg, mode="in", machine_mode="analysis", record_charges=True))
    assert rep.regions[0].chunks > 1 and rep.regions[0].dram_hidden > 0
    resident = [v for v in vals.values() if isinstance(v, np.ndarray)]
    d = view_data(runs_of(rep), rep.stats, cfg, "t", resident=resident, charges=[cs for _, cs in rep.machine.charges])
    assert d["run"]["replay_note"] == ""
    for k in ("dram", "move", "compute", "final_reduce"):
        assert sum(p["cycles"][k] for p in d["programs"]) == rep.stats.cycles[k], k
    replayed = view_data(runs_of(rep), rep.stats, cfg, "t", resident=resident)
    assert replayed["run"]["replay_note"].startswith("the per-command costs differ from the run's: dram ")


def unrle(r: list[int], n: int) -> np.ndarray:
    return np.repeat(np.asarray(r[0::2], dtype=np.int64), np.asarray(r[1::2], dtype=np.int64))[:n]


def test_busy_aggregates_match_a_per_command_oracle():
    """Bank and SRAM-array busy cycles (the zoom levels' heat maps) against a
    plain per-command sum over the records, patterns expanded one by one."""
    rep, cfg = stencil_run(40, 36, "small-16", t=3, record=True)
    d = view_data(runs_of(rep), rep.stats, cfg, "t", charges=[cs for _, cs in rep.machine.charges])
    tiles_total = cfg.banks * cfg.arrays_per_bank
    run_busy = np.zeros(cfg.banks)
    recs = {id(r[1]): r[1] for r in runs_of(rep)}
    per_cmd: dict[int, np.ndarray] = {}
    for (prog, cs) in rep.machine.charges:
        acc = per_cmd.setdefault(id(prog), np.zeros(len(prog.cmds)))
        for i, _, c in cs:
            if i >= 0:
                acc[i] += c.cycles
    for p, rec in zip(d["programs"], recs.values(), strict=True):
        tb, bb = np.zeros(tiles_total), np.zeros(cfg.banks)
        for i, c in enumerate(rec.cmds):
            cyc = per_cmd[id(rec)][i]
            if not cyc:
                continue
            if c.get("tiles") is not None:
                ts = sorted(set(int(t) for t in c["tiles"].expand() if 0 <= t < p["num_tiles"]))
            elif c.kind.MNEMONIC not in ("transpose_in", "release"):
                continue  # a sync, a near-memory fold: the network and the stream engines, not the arrays
            else:  # a transfer: the tiles holding its array
                arr = next(a for a in rec.arrays() if a["arr"] == c["arr"])
                geo = Geometry(tuple(rec.lattice), tuple(rec.tiles), rec.per_bank)
                ts = [int(t) for t in np.flatnonzero(box_tile_counts(geo, [(0, 1)] * (len(rec.lattice) - len(arr["shape"])) + [(0, s) for s in arr["shape"]]))]
            for t in ts:
                tb[t] += cyc
            banks = sorted(set(int(b) for b in c["banks"].expand())) if c.get("banks") is not None else sorted({t // cfg.arrays_per_bank for t in ts})
            for b in banks:
                bb[b] += cyc
        assert np.array_equal(unrle(p["tile_busy"], tiles_total), tb)
        assert np.allclose(p["bank_busy"], bb)
        run_busy += bb
    assert np.allclose(d["run"]["bank_busy"], run_busy)
    # compact: the per-tile vectors are run-length coded (a few runs, not a value per tile)
    assert all(len(p["tile_busy"]) <= 2 * 2 * p["num_tiles"] for p in d["programs"])


def test_the_programs_embedded_spread_over_each_regions():
    """More distinct programs than a page embeds (gauss_elim: one per k and
    region): each region's first and last, and an even spread between."""
    from infs.runtime.view_data import _ProgramView, choose

    views = [_ProgramView(None, k, regions=[k % 2]) for k in range(500)]  # type: ignore[arg-type]
    kept = choose(views, 10)
    ks = [v.first for v in kept]
    assert len(kept) == 10 and ks == sorted(ks)
    for r in (0, 1):
        mine = [k for k in ks if k % 2 == r]
        assert len(mine) == 5 and mine[0] == r and mine[-1] == 498 + r
        gaps = np.diff(mine)
        assert gaps.max() - gaps.min() <= 2
    assert choose(views[:7], 10) == views[:7]


def test_layout_and_patterns_encode_the_records():
    rep, cfg = stencil_run(40, 36, "small-16")
    rec = rep.programs[0][1].record
    d = view_data([(r, low.record, p, a) for r, low, p, a in rep.programs[:1]], None, cfg, "t")
    p = d["programs"][0]
    assert p["lattice"] == list(rec.lattice) and p["tiles"] == list(rec.tiles) and p["num_tiles"] == Geometry(tuple(rec.lattice), tuple(rec.tiles), rec.per_bank).num_tiles
    assert [a["name"] for a in p["arrays"]] == ["src", "dst"] and [a["wordline"] for a in p["arrays"]] == [c["wordline"] for c in rec.arrays()]
    # the tile map (run-length coded bit masks) covers every tile; both arrays span the lattice
    r = p["tile_arrays"]
    assert sum(r[1::2]) == p["num_tiles"] and set(r[0::2]) == {3}
    for c, j in zip(rec.cmds, p["cmds"]):
        assert j["k"] == c.kind.MNEMONIC
        for key in ("tiles", "bitlines", "banks"):
            if isinstance(c.get(key), Pattern):
                start, levels = j[key]
                assert Pattern(start, tuple(tuple(lv) for lv in levels)) == c[key]


def test_page_escapes_its_data():
    d = view_data([], None, load_config("tiny"), "</script><b>x</b>")
    html = render(d)
    assert "</script><b>" not in html and page_data(html)["title"] == "</script><b>x</b>"
    # self-contained: nothing is fetched (the SVG namespace is a name, not a request)
    assert not re.search(r"""(src|href)\s*=\s*["']?https?:""", html)
    assert "https://" not in html and html.count("http://") == html.count("http://www.w3.org/2000/svg")


# ---------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------


def test_infs_view_cli_writes_page_and_png(tmp_path, capsys):
    out, png = tmp_path / "v.html", tmp_path / "v.png"
    assert infs_view.main([str(STENCIL2D), "--config", "small-16", "-o", str(out), "--png", str(png)]) == 0
    assert "wrote" in capsys.readouterr().out
    d = page_data(out.read_text())
    assert d["config"]["name"] == "small-16" and len(d["programs"]) == 2 and d["run"]["total_cycles"] > 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    # --region keeps that region's programs only
    assert infs_view.main([str(STENCIL2D), "--config", "small-16", "-o", str(out), "--region", "1"]) == 0
    assert [p["regions"] for p in page_data(out.read_text())["programs"]] == [[1]]


def test_infs_view_of_a_pimcmd_file(tmp_path):
    """A file of lowered programs (infs-opt --lower-pim's output) is viewed as it is."""
    lowered = tmp_path / "low.mlir"
    r = subprocess.run([str(ROOT / ".venv/bin/infs-opt"), "--tensorize", "--lower-pim=sizes=M=16,N=16 config=small-16", str(STENCIL2D), "-o", str(lowered)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = tmp_path / "p.html"
    assert infs_view.main([str(lowered), "-o", str(out)]) == 0
    d = page_data(out.read_text())
    assert d["config"]["name"] == "small-16" and len(d["programs"]) == 2 and all(p["invocations"] == 1 for p in d["programs"])


@pytest.mark.parametrize(
    "args, message",
    [
        (["--region", "7"], "--region 7: the program has regions 0, 1"),
        (["-o", "{tmp}"], "is a directory"),
        (["-o", "{tmp}/no/such/x.html"], "does not exist"),
        (["--mode", "near", "--tiles", "4x4"], "--tiles applies to in-memory execution"),
    ],
)
def test_infs_view_user_errors_are_one_line(tmp_path, capsys, args, message):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    rc = infs_view.main([str(STENCIL2D), "--config", "small-16", *args] + ([] if "-o" in args else ["-o", str(tmp_path / "x.html")]))
    err = capsys.readouterr().err
    assert rc == 2 and message in err and err.count("\n") == 1 and err.startswith("infs-view: error:")


def test_infs_view_of_a_program_with_nothing_to_offload(tmp_path, capsys):
    """A program with no region, no loop nest and no pimcmd.program runs on the
    host; its page says so (and shows no in-memory program)."""
    f = tmp_path / "f.mlir"
    f.write_text("func.func @f() {\n  func.return\n}\n")
    assert infs_view.main([str(f), "-o", str(tmp_path / "x.html")]) == 0
    assert "0 in-memory programs" in capsys.readouterr().out
    d = page_data((tmp_path / "x.html").read_text())
    assert d["programs"] == [] and d["run"]["regions"] == [] and d["run"]["total_cycles"] == 0
    assert any("nothing to offload, the host ran all of it" in n for n in d["run"]["notes"])


def test_infs_run_view_flag(tmp_path, capsys):
    out = tmp_path / "run.html"
    assert infs_run.main([str(STENCIL2D), "--config", "small-16", "--mode", "all", "--view", str(out), "--json"]) == 0
    d = page_data(out.read_text())
    assert "--mode in" in d["title"] and len(d["programs"]) == 2
    capsys.readouterr()
    assert infs_run.main([str(STENCIL2D), "--view", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("infs-run: error: --view") and err.count("\n") == 1


# ---------------------------------------------------------------------------
# the page in a headless browser
# ---------------------------------------------------------------------------

CHROMIUM = next((p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")) if p), None)
needs_browser = pytest.mark.skipif(CHROMIUM is None, reason="no headless browser: install the Debian package 'chromium' (make browser)")


def browse(page: Path, fragment: str, tmp_path: Path, screenshot: Path | None = None) -> dict:
    """Load ``page#fragment`` in headless Chromium; the page's ``#sel`` (its
    state) and ``#errors``; optionally a screenshot."""
    base = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--user-data-dir={tmp_path / 'chromium-profile'}", "--virtual-time-budget=10000"]
    url = page.resolve().as_uri() + "#" + fragment
    shot = ["--window-size=1400,1500", f"--screenshot={screenshot}"] if screenshot is not None else []
    r = subprocess.run([*base, *shot, "--dump-dom", url], capture_output=True, text=True, timeout=90)  # one browser run: DOM and picture
    assert r.returncode == 0, r.stderr[-2000:]
    dom = r.stdout
    errors = re.search(r'<pre id="errors"[^>]*>(.*?)</pre>', dom, re.S)
    assert errors is not None and errors.group(1).strip() == "", f"page errors: {errors.group(1) if errors else dom[-2000:]}"
    assert 'data-ready="1"' in dom, "the page did not finish initializing"
    sel = json.loads(re.search(r'<pre id="sel">(.*?)</pre>', dom, re.S).group(1))
    sel["_dom"] = dom
    if screenshot is not None:
        assert screenshot.stat().st_size > 10_000
    shutil.rmtree(tmp_path / "chromium-profile", ignore_errors=True)  # keep the page and the screenshot only
    return sel


def expected_selection(p: dict, step: int) -> dict:
    """What a command selects, by the simulator's own geometry (the page mirrors it in JS)."""
    c = p["cmds"][step]
    geo = Geometry(tuple(p["lattice"]), tuple(p["tiles"]), 1)
    pat = lambda v: pattern_set(Pattern(v[0], tuple(tuple(lv) for lv in v[1])))  # noqa: E731
    tiles, bls = pat(c["tiles"]), pat(c["bitlines"])
    if c["k"] == "shift":
        ts, td, bs, bd = shift_maps(geo, tiles, bls, c["dim"], tuple(c["mask"]), c["inter"], c["intra"])
        return {"src_tiles": len(set(ts)), "dst_tiles": len(set(td)), "src_bitlines": len(set(bs)), "dst_bitlines": len(set(bd))}
    if c["k"] == "bcast":
        _, td, _ = bcast_candidates(tiles, geo.grid, c["dim"], *c["inter"], geo.tstride(c["dim"]))
        _, bd, _ = bcast_candidates(bls, geo.tiles, c["dim"], *c["intra"], geo.bstride(c["dim"]))
        return {"src_tiles": tiles.size, "dst_tiles": len(set(td)), "src_bitlines": bls.size, "dst_bitlines": len(set(bd))}
    return {"src_tiles": tiles.size, "dst_tiles": tiles.size, "src_bitlines": bls.size, "dst_bitlines": bls.size}


@needs_browser
def test_browser_steps_through_infs_run_view(tmp_path, capsys):
    """The issue's check: ``infs-run stencil2d --view`` (paper size, paper-64:
    16,384 tiles) loads with no error, draws the mesh and the tiles, stepping
    changes the highlighted bitlines exactly as the simulator's geometry
    selects them, and a step redraws in well under a second."""
    page = tmp_path / "view.html"
    t0 = time.perf_counter()
    assert infs_run.main([str(STENCIL2D), "--size-set", "paper", "--analysis", "--mode", "in", "--view", str(page), "--json"]) == 0
    build = time.perf_counter() - t0
    capsys.readouterr()
    p = page_data(page.read_text())["programs"][0]
    shifts = [i for i, c in enumerate(p["cmds"]) if c["k"] == "shift"]
    a, b = shifts[0], next(i for i in shifts if p["cmds"][i]["bitlines"] != p["cmds"][shifts[0]]["bitlines"])
    sa = browse(page, f"prog=0&step={a}", tmp_path)
    sb = browse(page, f"prog=0&step={b}&bench=40", tmp_path, tmp_path / "step.png")
    cfg = load_config("paper-64")
    for step, s in ((a, sa), (b, sb)):
        assert s["step"] == step and s["kind"] == "shift"
        assert s["lattice_cells"] == p["num_tiles"] == 16384 and s["machine_cells"] == cfg.banks  # the machine at machine scale: its banks
        assert {k: s[k] for k in ("src_tiles", "dst_tiles", "src_bitlines", "dst_bitlines")} == expected_selection(p, step)
        assert s["lattice_painted"] >= min(s["src_tiles"], 1)  # a selected tile is drawn, however small
    assert sa["first_src_bitlines"] != sb["first_src_bitlines"]
    # the redraw time of a step (performance.now() around it in the page, layout included):
    # recorded, bounded generously (a loaded machine); docs/infs-view.md has the figures
    print(f"paper-64 stencil2d: run and page {build:.1f} s; step redraw: mean {sb['bench_ms']:.1f} ms, median {sb['bench_median_ms']:.1f} ms, parts {sb['bench_parts']}")
    assert sb["bench_steps"] == 40 and sb["bench_median_ms"] < 1000, sb["bench_ms"]
    assert build < 300, build
    # the mesh: one node per bank, a line per link, in the DOM
    mesh = re.search(r'<svg[^>]*id="mesh".*?</svg>', sb["_dom"], re.S).group(0)
    assert mesh.count("<rect") == cfg.banks
    assert mesh.count("<line") == 2 * (cfg.mesh_rows * (cfg.mesh_cols - 1) + cfg.mesh_cols * (cfg.mesh_rows - 1))


@needs_browser
def test_browser_page_of_a_run_with_nothing_in_memory_says_why(tmp_path, capsys):
    """A run with no region in memory (--mode auto at a small size: the cores
    are faster): the page loads with the run's totals, no program, and says
    plainly that nothing ran in memory and why -- each region's decision."""
    page = tmp_path / "auto.html"
    assert infs_run.main([str(STENCIL2D), "--config", "small-16", "--mode", "auto", "--view", str(page), "--json"]) == 0
    capsys.readouterr()
    d = page_data(page.read_text())
    assert d["programs"] == [] and d["run"]["regions"] and all(r["mode"] != "in" for r in d["run"]["regions"])
    s = browse(page, "", tmp_path, tmp_path / "auto.png")
    assert s["prog"] is None and s["why"].startswith("no region ran in memory: region 0 ran ")
    banner = re.search(r'<div class="banner" id="nomem">(.*?)</div>', s["_dom"], re.S).group(1)
    for r in d["run"]["regions"]:
        assert f"region {r['region']} ran " in banner and html.escape(r["reason"], quote=False) in banner
    assert "no program ran in memory" in s["_dom"]


@needs_browser
def test_browser_opens_on_a_region_that_ran_in_memory(tmp_path):
    """kmeans_inner: region 1 cannot run in memory (an argmin), region 2 can;
    shown together, the page opens on region 2's program and the regions table
    says where each ran and why; region 1 alone: the page says none ran in memory, and why."""
    page = tmp_path / "km.html"
    assert infs_view.main([str(KMEANS_INNER), "--config", "small-16", "--region", "1", "--region", "2", "-o", str(page)]) == 0
    d = page_data(page.read_text())
    assert [p["regions"] for p in d["programs"]] == [[2]]
    s = browse(page, "", tmp_path)
    # its few tiles sit on one bank: the page opens zoomed into that bank (at machine scale they are a speck)
    p, per_bank = d["programs"][0], load_config("small-16").arrays_per_bank
    banks = np.unique(np.flatnonzero(unrle(p["tile_arrays"], p["num_tiles"])) // per_bank)
    assert banks.size == 1 and s["prog"] == 0 and s["step"] == 0
    assert s["zoom"] == {"level": "bank", "bank": int(banks[0]), "array": -1} and s["machine"]["cells"] == per_bank
    assert browse(page, "bank=-1", tmp_path)["zoom"]["level"] == "machine"  # (the machine, asked for)
    table = re.search(r'<table id="regions">(.*?)</table>', s["_dom"], re.S).group(1)
    assert "<td>1</td><td>near memory</td>" in table and "argmin" in table and "<td>2</td><td>in memory</td>" in table
    assert infs_view.main([str(KMEANS_INNER), "--config", "small-16", "--region", "1", "-o", str(page)]) == 0
    s = browse(page, "", tmp_path)
    assert s["prog"] is None and s["why"].startswith("no region of those shown ran in memory: region 1 ran near memory (") and "argmin" in s["why"]


@needs_browser
def test_browser_zooms_from_banks_to_arrays_to_bitlines(tmp_path):
    """Semantic zoom through the machine panel's own click handler: a bank
    (its arrays, labelled), then an array (its tile's bitlines, as the
    simulator's geometry selects them); the breadcrumbs name the path; every
    heat map has a numeric colour scale (min, max, unit) matching the data."""
    page = tmp_path / "zoom.html"
    assert infs_view.main([str(STENCIL2D), "--config", "small-16", "--sizes", "m=40,n=36", "-o", str(page)]) == 0
    d = page_data(page.read_text())
    p, cfg = d["programs"][0], load_config("small-16")
    step = next(i for i, c in enumerate(p["cmds"]) if c["k"] == "shift" and c["inter"] == 0 and pattern_set(Pattern(c["tiles"][0], tuple(tuple(x) for x in c["tiles"][1]))).size > 0)
    tile = int(pattern_set(Pattern(p["cmds"][step]["tiles"][0], tuple(tuple(x) for x in p["cmds"][step]["tiles"][1])))[0])
    bank, arr = divmod(tile, cfg.arrays_per_bank)
    # the machine scale: every bank, with its number, the scale the run's bank busy cycles; a click on the
    # bank: its arrays by their busy cycles in the program (the scale's numbers in the DOM)
    s2 = browse(page, f"prog=0&step={step}&click=bank:{bank}", tmp_path)
    (s0,) = s2["before_clicks"]
    assert s0["machine"] == {"level": "machine", "cells": cfg.banks, "labels": cfg.banks, "min": 0, "max": max(d["run"]["bank_busy"]), "unit": "busy cycles"}
    tb = unrle(p["tile_busy"], cfg.banks * cfg.arrays_per_bank)[bank * cfg.arrays_per_bank : (bank + 1) * cfg.arrays_per_bank]
    assert s2["zoom"] == {"level": "bank", "bank": bank, "array": -1} and s2["machine"]["max"] == tb.max() and s2["machine"]["unit"] == "busy cycles"
    bar = re.search(r'<span class="scale" id="mscale-bar" data-min="([^"]*)" data-max="([^"]*)" data-unit="([^"]*)"', s2["_dom"])
    assert float(bar.group(1)) == 0 and float(bar.group(2)) == tb.max() and bar.group(3) == "busy cycles"
    for name, values in (("noc-links", d["run"]["link_bytes"]), ("noc-banks", d["run"]["bank_busy"])):
        m = re.search(rf'<span class="scale" id="{name}" data-min="([^"]*)" data-max="([^"]*)" data-unit="([^"]*)"', s2["_dom"])
        assert m and float(m.group(1)) == 0 and float(m.group(2)) == pytest.approx(max(values)) and m.group(3) in ("bytes", "busy cycles")
    assert re.search(rf'machine: 4x4 banks</a> › bank {bank} ', s2["_dom"])
    # click the bank (its arrays, coloured by their tensors), then the array (its tile's bitlines, the
    # command's source bitlines among them); before the clicks, banks by arrays holding tiles
    s = browse(page, f"prog=0&step={step}&metric=occ&click=bank:{bank},array:{arr}", tmp_path, tmp_path / "zoom.png")
    s0, s1 = s["before_clicks"]
    occ = np.bincount(np.flatnonzero(unrle(p["tile_arrays"], p["num_tiles"])) // cfg.arrays_per_bank, minlength=cfg.banks)
    assert s0["zoom"]["level"] == "machine" and s0["machine"]["max"] == occ.max() and s0["machine"]["unit"].startswith("arrays holding tiles")
    assert s1["zoom"] == {"level": "bank", "bank": bank, "array": -1} and s1["machine"]["cells"] == cfg.arrays_per_bank and s1["machine"]["unit"] == "tensors"
    assert s1["machine"]["labels"] == sum(1 for a in range(cfg.arrays_per_bank) if bank * cfg.arrays_per_bank + a < p["num_tiles"])  # each array its tile's number
    assert s["zoom"] == {"level": "array", "bank": bank, "array": arr} and s["machine"]["tile"] == tile
    assert s["machine"]["cells"] == math.prod(p["tiles"]) and s["machine"]["src_bitlines"] == expected_selection(p, step)["src_bitlines"]
    assert re.search(rf'machine: 4x4 banks</a> › <a data-z="bank">bank {bank} \(x \d+, y \d+\)</a> › array {arr} \(tile {tile}\)', s["_dom"])


@needs_browser
def test_browser_lattice_zooms_into_a_window(tmp_path):
    """A lattice of more tiles than the panel shows at a glance: ``lat=R,C``
    (what a click on it does) shows the 32 x 32 tiles around (R, C), each
    large enough to see; the whole grid is back through the breadcrumb."""
    page = tmp_path / "lat.html"
    assert infs_view.main([str(STENCIL2D), "--sizes", "m=1024,n=1024", "--tiles", "16x16", "-o", str(page)]) == 0
    p = page_data(page.read_text())["programs"][0]
    assert p["grid"] == [64, 64]
    s0 = browse(page, "prog=0&step=0", tmp_path)
    assert s0["lattice_window"] is None and s0["lattice_px"][0] <= 540
    s = browse(page, "prog=0&step=0&lat=40,10", tmp_path)
    assert s["lattice_window"] == [24, 0, 32, 32] and s["lattice_px"][0] >= 32 * 12
    assert "whole lattice</a> › tile rows 24..55, columns 0..31" in s["_dom"]


@needs_browser
def test_browser_broadcast_fan_out(tmp_path):
    page = tmp_path / "mm.html"
    assert infs_view.main([str(MM_OUTER), "--config", "small-16", "-o", str(page)]) == 0
    progs = page_data(page.read_text())["programs"]
    fans = [(p["id"], i) for p in progs for i, c in enumerate(p["cmds"]) if c["k"] == "bcast" and (c["inter"][1] - c["inter"][0]) * (c["intra"][1] - c["intra"][0]) > 1]
    k, step = next(((k, i) for k, i in fans if str(i) in progs[k]["links"]), fans[0])  # one that crosses the NoC, if any
    s = browse(page, f"prog={k}&step={step}&noc=cmd", tmp_path, tmp_path / "bcast.png")
    assert s["kind"] == "bcast" and {key: s[key] for key in ("src_tiles", "dst_tiles", "src_bitlines", "dst_bitlines")} == expected_selection(progs[k], step)
    assert "fan-out" in s["_dom"]
    # the NoC map shows this command's link bytes
    wrap = re.search(r'<div id="meshwrap"([^>]*)>', s["_dom"]).group(1)
    links = progs[k]["links"].get(str(step), [])
    assert 'data-scope="cmd"' in wrap
    assert float(re.search(r'data-bytes="([^"]*)"', wrap).group(1)) == pytest.approx(sum(v for _, v in links))
