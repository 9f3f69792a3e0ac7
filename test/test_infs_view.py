"""infs-view: the data, the CLI, ``infs-run --view``, and the
page in a real headless browser (Chromium; skipped with the package's name
when it is not installed: ``make browser``).

The browser tests keep a screenshot each in their ``tmp_path``."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from infs import api
from infs.dialects.lattice import Pattern
from infs.hardware import load_config
from infs.runtime.driver import RunOptions, run_program
from infs.runtime.host import phantom_array
from infs.runtime.view_data import view_data
from infs.sim.geometry import Geometry, bcast_candidates, pattern_set, shift_maps
from infs.tools import infs_run, infs_view
from infs.tools.view_page import render

ROOT = Path(__file__).resolve().parents[1]
STENCIL2D = ROOT / "infs/workloads/stencil2d.mlir"
MM_OUTER = ROOT / "infs/workloads/mm_outer.mlir"


def page_data(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    assert m, "the page embeds its data"
    return json.loads(m.group(1))


def stencil_run(m: int, n: int, cfg_name: str, t: int = 2):
    cfg = load_config(cfg_name)
    vals = {"A": phantom_array((m, n), np.float32), "B": phantom_array((m, n), np.float32), "W": phantom_array((2,), np.float32), "m": m, "n": n, "t": t}
    rep = run_program(api.parse_file(STENCIL2D), vals, None, RunOptions(config=cfg, mode="in", machine_mode="analysis", jit=False))
    return rep, cfg


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
    assert infs_run.main([str(STENCIL2D), "--size-set", "paper", "--analysis", "--mode", "in", "--view", str(page), "--json"]) == 0
    capsys.readouterr()
    p = page_data(page.read_text())["programs"][0]
    shifts = [i for i, c in enumerate(p["cmds"]) if c["k"] == "shift"]
    a, b = shifts[0], next(i for i in shifts if p["cmds"][i]["bitlines"] != p["cmds"][shifts[0]]["bitlines"])
    sa = browse(page, f"prog=0&step={a}", tmp_path)
    sb = browse(page, f"prog=0&step={b}&bench=40", tmp_path, tmp_path / "step.png")
    for step, s in ((a, sa), (b, sb)):
        assert s["step"] == step and s["kind"] == "shift"
        assert s["machine_cells"] == s["lattice_cells"] == p["num_tiles"] == 16384
        assert {k: s[k] for k in ("src_tiles", "dst_tiles", "src_bitlines", "dst_bitlines")} == expected_selection(p, step)
    assert sa["first_src_bitlines"] != sb["first_src_bitlines"]
    assert sb["bench_steps"] == 40 and sb["bench_ms"] < 250, sb["bench_ms"]
    # the mesh: one node per bank, a line per link, in the DOM
    mesh = re.search(r'<svg[^>]*id="mesh".*?</svg>', sb["_dom"], re.S).group(0)
    cfg = load_config("paper-64")
    assert mesh.count("<rect") == cfg.banks
    assert mesh.count("<line") == 2 * (cfg.mesh_rows * (cfg.mesh_cols - 1) + cfg.mesh_cols * (cfg.mesh_rows - 1))


@needs_browser
def test_browser_page_of_a_run_with_nothing_in_memory(tmp_path, capsys):
    """A run with no region in memory: the page still loads, with the run's totals and no program."""
    page = tmp_path / "near.html"
    assert infs_run.main([str(STENCIL2D), "--mode", "near", "--view", str(page), "--json"]) == 0
    capsys.readouterr()
    assert page_data(page.read_text())["programs"] == []
    s = browse(page, "", tmp_path, tmp_path / "near.png")
    assert s["prog"] is None and "no program ran in memory" in s["_dom"]


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
