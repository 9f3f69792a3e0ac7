"""``infs-bench``: the paper's evaluation (ASPLOS'23 §8) reproduced on the workload suite.

    infs-bench [--workloads a,b] [--configs base,near,in,infs,infs_nojit,infs_noegraph]
               [--size-set paper|small] [--out benchmarks/out]
               [--reproduction benchmarks/REPRODUCTION.md] [--functional]
               [--jit-study hardware,gem5-controller,software,per-lowering]

Runs every workload of ``infs/workloads`` under the paper's configurations
(§7 "Parameters and Configurations"):

* **Base** -- every region on the cores (runtime mode ``core``);
* **Near-L3** -- every region's streams near L3 (mode ``near``);
* **In-L3** -- in memory wherever possible, near memory otherwise (mode ``in``);
* **Inf-S** -- the runtime's Eq. 2 decision, fused in-/near-memory (mode ``auto``);
* **Inf-S no JIT** -- ``auto`` with the JIT's cycles not charged;
* **Inf-S no e-graph** -- ``auto`` with each tDFG lowered as tensorized, without
  ``optimize-tdfg`` (§3.2; the paper gives no number for it: it measures the pass).

Each run is one ``run_program`` on ``paper-64`` in the machine's analysis
mode (timing, traffic and energy without data; ``--functional`` computes the
data too), with the inputs in the L3 (``warm``) and the JIT cache cleared
before the run.  Outputs (in ``--out``; the plots in ``figures/`` beside the
REPRODUCTION.md written, which shows them):

* ``bench.csv`` -- one row per workload x configuration: cycles, the Fig. 14
  breakdown, traffic (Fig. 12/13), NoC byte-hops, energy, regions per mode,
  JIT misses and wall time, the sizes used and the run's wall time;
* ``fig11_speedup.png`` -- speedup over Base per benchmark and geomean;
* ``fig12_noc_traffic.png`` -- NoC traffic normalized to Base;
* ``fig13_traffic.png`` -- traffic by kind per configuration;
* ``fig14_breakdown.png`` -- the Inf-S cycle breakdown per benchmark;
* ``fig15_dataflow.png`` -- outer over inner product per configuration;
* ``fig18_energy.png`` -- energy efficiency over Near-L3;
* ``tiles.csv`` -- the Fig. 16/17 study (layout heuristic vs every tile shape, In-L3);
* ``fig16_tiles.png`` -- per 2-D workload, the cycle breakdown per tile shape;
* ``fig17_tiles3d.png`` -- per 3-D workload, the speedup over no tiling per tile shape;
* ``jit.csv`` -- the JIT-model study (Inf-S under each ``--jit-study`` JIT model: which
  charge Fig. 14's 11% JIT share is consistent with);

and ``--reproduction`` (``benchmarks/REPRODUCTION.md``): each headline number
of the paper (ASPLOS §8, Figs. 2 and 11-18) next to ours, with the ratio.

As in the paper, mm, kmeans and gather_mlp have an inner- and an
outer-product version; Fig. 11/12 take the best version for each
configuration.  vec_add and array_sum are the Fig. 2 microbenchmarks and not
part of the Fig. 11 suite.
"""

from __future__ import annotations

import argparse
import csv
import datetime as _dt
import gc
import itertools
import json
import math
import os
import platform
import subprocess
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from collections.abc import Sequence
from typing import Any

import numpy as np

from infs import version_text

PROG = "infs-bench"

# name -> (label, runtime mode, charge the JIT, optimize-tdfg before the JIT)
CONFIGS: dict[str, tuple[str, str, bool, bool]] = {
    "base": ("Base", "core", True, True),
    "near": ("Near-L3", "near", True, True),
    "in": ("In-L3", "in", True, True),
    "infs": ("Inf-S", "auto", True, True),
    "infs_nojit": ("Inf-S no JIT", "auto", False, True),
    "infs_noegraph": ("Inf-S no e-graph", "auto", True, False),
}

# The Fig. 11 suite: benchmark -> its implementations (best one per configuration).
SUITE: dict[str, tuple[str, ...]] = {
    "stencil1d": ("stencil1d",),
    "stencil2d": ("stencil2d",),
    "stencil3d": ("stencil3d",),
    "dwt2d": ("dwt2d",),
    "gauss_elim": ("gauss_elim",),
    "conv2d": ("conv2d",),
    "conv3d": ("conv3d",),
    "mm": ("mm_inner", "mm_outer"),
    "kmeans": ("kmeans_inner", "kmeans_outer"),
    "gather_mlp": ("gather_mlp_inner", "gather_mlp_outer"),
}
MICRO = ("vec_add", "array_sum")  # Fig. 2

# Rough relative cost of a workload's runs (for scheduling the longest first).
_WEIGHT = {"mm_outer": 9, "conv3d": 8, "kmeans_inner": 7, "mm_inner": 5, "gauss_elim": 5, "gather_mlp_inner": 4,
           "kmeans_outer": 2, "stencil3d": 1}  # fmt: skip

# The Fig. 16/17 study (§8 "Data Layout"): workloads whose tile shape is swept, at their bench sizes.
# Fig. 16: every 2-D benchmark of Fig. 11, in the implementation Fig. 11 takes on In-L3 and Inf-S
# (the outer product of mm, kmeans and gather_mlp, §8 "Dataflow Choices"); Fig. 17: the 3-D ones.
# kmeans_outer stays in although no shape can be forced on it: ``RunOptions.tiles`` is one shape
# for every region and two of its regions have 1-D lattices, so each forced 2-D shape is rejected
# there -- its rows say so, with the layout's reason, instead of the benchmark silently missing.
TILE_STUDY = ("stencil2d", "dwt2d", "conv2d", "gauss_elim", "mm_outer", "kmeans_outer", "gather_mlp_outer", "stencil3d", "conv3d")
# The study runs In-L3, not Inf-S (which the paper's Fig. 17 plots): In-L3 runs every region in
# memory whatever the shape, so the cycles differ by the layout alone.  Under Inf-S, Eq. 2 sends
# regions of gauss_elim, dwt2d and conv3d near memory or to the cores at the paper's sizes, where
# the tile shape does nothing, and a bad shape could be hidden by the decision moving its region
# out of memory.  (The paper's Inf-S runs these benchmarks in memory, i.e. it is In-L3 there.)
TILE_CONFIG = "in"

# The paper's headline numbers (ASPLOS §8, Figs. 2 and 11-18).
PAPER = {
    "fig2_vec_add_in_over_near": 21.0,
    "fig11_infs_over_near": 2.6,
    "fig11_infs_over_base": 5.1,
    "fig11_infs_over_base_max": 8.9,
    "fig11_in_over_near": 2.1,
    "fig11_near_over_base": 2.0,
    "fig11_nojit_over_infs": 1.19,
    "fig12_noc_cut_vs_near": 0.75,
    "fig12_noc_cut_vs_base": 0.90,
    "fig14_jit_share": 0.11,
    "fig14_ops_in_memory": 0.99,
    "fig18_in_energy_over_near": 1.5,  # §8: energy efficiency over Near-L3
    "fig18_infs_energy_over_near": 2.4,
    "jit_us_per_lowering_mean": 220.0,  # §8: "The average JIT time is 220us (σ 449us)"
    "fig16_heuristic_vs_best": 1.02,
    "fig16_heuristic_over_no_tiling": 1.34,
}


class UsageError(Exception):
    pass


@dataclass
class Row:
    workload: str
    config: str
    data: dict[str, Any]


# ---------------------------------------------------------------------------------
# running
# ---------------------------------------------------------------------------------


def bench_sizes(w, size_set: str) -> tuple[dict[str, int], str]:
    """(sizes, note): the paper's Table 3 sizes (every workload runs at them
    since a re-entered region is lowered once, ``runtime/base_offsets.py``)."""
    if size_set == "small":
        return w.sizes("small"), "small (test sizes)"
    return w.sizes("paper"), "paper (Table 3)"


def _fmt_sizes(sizes: dict[str, int]) -> str:
    return " ".join(f"{k}={v}" for k, v in sizes.items())


def run_one(module, w, sizes: dict[str, int], config: str, functional: bool, tiles=None, seed: int = 0, machine: Any = "paper-64") -> dict[str, Any]:
    """One run of workload ``w`` under ``config`` on ``machine`` (a name, file or
    ``HardwareConfig``; infs-sweep passes its own): the CSV row's numbers."""
    from infs.hardware import load_config
    from infs.runtime import jit
    from infs.runtime.driver import RunOptions, run_program

    label, mode, charge, optimize = CONFIGS[config]
    values = w.make_inputs(sizes, np.random.default_rng(seed))
    args = w.call_args(values, sizes)
    jit.clear_cache()
    gc.collect()
    options = RunOptions(config=machine, mode=mode, jit=charge, tiles=tiles, optimize=optimize,
                         machine_mode="functional" if functional else "analysis", warm=True)  # fmt: skip
    t0 = time.perf_counter()
    machine_mode = options.machine_mode
    try:
        rep = run_program(module, args, w.entry, options)
    except Exception:  # noqa: BLE001 -- analysis mode cannot read a region result out of the arrays: compute the data
        if functional:
            raise
        machine_mode = "functional"
        values = w.make_inputs(sizes, np.random.default_rng(seed))
        args = w.call_args(values, sizes)
        jit.clear_cache()
        t0 = time.perf_counter()
        rep = run_program(module, args, w.entry, replace(options, machine_mode="functional"))
    wall = time.perf_counter() - t0
    st = rep.stats
    cfg = load_config(machine)
    el_total = sum(r.elements for r in rep.regions) or 1
    el_in = sum(r.elements for r in rep.regions if r.mode == "in")
    modes = rep.mode_counts()
    noc = sum(v for k, v in st.traffic.items() if k.startswith("noc"))
    d: dict[str, Any] = {
        "workload": w.name,
        "config": config,
        "label": label,
        "mode": mode,
        "jit_charged": charge,
        "total_cycles": st.total_cycles,
        "seconds_simulated": st.total_cycles / (cfg.freq_ghz * 1e9),
        **{f"cyc_{k}": v for k, v in st.cycles.items()},
        **{f"traffic_{k}": v for k, v in st.traffic.items()},
        "noc_traffic": noc,
        "noc_byte_hops": st.noc_byte_hops,
        "energy_pj": st.total_energy_pj,
        **{f"energy_{k}": v for k, v in st.energy_pj.items()},
        "regions": len(rep.regions),
        "regions_in": modes.get("in", 0),
        "regions_near": modes.get("near", 0),
        "regions_core": modes.get("core", 0),
        "elements": el_total,
        "elements_in_memory_fraction": el_in / el_total,
        # why the first region that did not run in memory did not (the decision's words)
        "not_in_reason": next((r.reason for r in rep.regions if r.mode != "in"), "")[:200],
        "jit_misses": sum(r.jit_misses for r in rep.regions),
        # wall time of each distinct lowering that ran in memory, ms, ';'-separated (JIT statistics, §8)
        "jit_lowering_ms": ";".join(f"{1e3 * low.seconds:.3f}" for low in {id(p[1]): p[1] for p in rep.programs}.values()),
        "jit_wall_s": sum(r.jit_seconds for r in rep.regions),
        "optimize_wall_s": sum(r.optimize_seconds for r in rep.regions),  # host time, not simulated cycles
        "tdfg_nodes_before": sum(r.tdfg_nodes_before for r in rep.regions),
        "tdfg_nodes_after": sum(r.tdfg_nodes_after for r in rep.regions),
        "commands": sum(r.commands for r in rep.regions),
        "tiles": "x".join(map(str, tiles)) if tiles else "",
        # the tile shape of each distinct lowering (the heuristic's choice when ``tiles`` is None; Fig. 16's "default")
        "tiles_chosen": "/".join(dict.fromkeys("x".join(map(str, low.record.tiles)) for _, low, *_ in rep.programs)),
        "lattice": "x".join(map(str, _largest_lattice([tuple(low.record.lattice) for _, low, *_ in rep.programs]))),
        # region -> why its forced mode (In-L3) could not run (a forced tile shape the layout rejects lands here)
        "not_honoured": _not_honoured(rep.regions),
        "sizes": _fmt_sizes(sizes),
        "machine_mode": machine_mode,
        "wall_s": wall,
    }
    return d


def _largest_lattice(lattices: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The lattice of highest rank, then most cells (the one a workload's tile shapes are swept over)."""
    return max(lattices, key=lambda t: (len(t), math.prod(t)), default=())


def _rel(msg: str) -> str:
    """A runtime message with the checkout's absolute path taken out (REPRODUCTION.md is read elsewhere)."""
    return msg.replace(f"{Path(__file__).resolve().parents[2]}/", "")


def _not_honoured(records) -> str:
    """JSON {region: first reason} of the regions whose forced mode did not run ("" when every one did)."""
    out: dict[str, str] = {}
    for r in records:
        if r.not_honoured:
            out.setdefault(str(r.region), _rel(r.not_honoured))
    return json.dumps(out) if out else ""


_MODULES: dict[str, Any] = {}


def _task(name: str, sizes: dict[str, int], note: str, config: str, functional: bool, tiles=None, jit_model: str | None = None) -> dict[str, Any]:
    """One (workload, configuration[, tile shape][, JIT model]) run as a CSV row; an error is a row too."""
    from infs import api
    from infs.hardware import load_config
    from infs.workloads import WORKLOADS

    w = WORKLOADS[name]
    if name not in _MODULES:
        _MODULES[name] = api.parse_file(w.path)
    try:
        machine = load_config("paper-64", jit_model=jit_model) if jit_model else "paper-64"
        r = run_one(_MODULES[name], w, sizes, config, functional, tiles=tiles, machine=machine)
        if jit_model:
            r["jit_model"] = jit_model
    except Exception as e:  # a failing run is a row with its error, not the end of the bench
        if os.environ.get("INFS_DEBUG"):
            raise
        msg = f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"
        return {"workload": name, "config": config, "label": CONFIGS[config][0], "error": msg, "sizes": _fmt_sizes(sizes),
                "tiles": "x".join(map(str, tiles)) if tiles else "", "size_note": note}  # fmt: skip
    r["size_note"] = note
    return r


def _run_tasks(tasks: list[tuple], jobs: int, quiet: bool, on_row=None) -> list[dict]:
    """Run ``_task(*t)`` for every task (``jobs`` processes), rows in task order.
    A progress bar (rich, on stderr) shows the runs done, the elapsed time and
    the ETA; each finished run's line is printed above it."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    out: list[dict | None] = [None] * len(tasks)
    progress = Progress(
        TextColumn("[bold]infs-bench"), BarColumn(), MofNCompleteColumn(), TextColumn("runs"),
        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
        console=Console(stderr=True), disable=quiet, transient=False,
    )  # fmt: skip
    bar = progress.add_task("runs", total=len(tasks))

    def done(i: int, r: dict) -> None:
        out[i] = r
        t = tasks[i]
        what = f"{t[0]} {CONFIGS[t[3]][0]}" + (f" tiles {'x'.join(map(str, t[5]))}" if len(t) > 5 and t[5] else "") + (f" jit_model {t[6]}" if len(t) > 6 else "")
        if not quiet:
            if "error" in r:
                progress.console.print(f"{what}: FAILED {r['error']}", markup=False, highlight=False)
            else:
                progress.console.print(f"{what} ({r['sizes']}): {r['total_cycles']:,} cycles, regions in/near/core "
                                       f"{r['regions_in']}/{r['regions_near']}/{r['regions_core']}, {r['wall_s']:.1f} s",
                                       markup=False, highlight=False)  # fmt: skip
        progress.advance(bar)
        if on_row:
            on_row([x for x in out if x is not None])

    with progress:
        if jobs <= 1:
            for i, t in enumerate(tasks):
                done(i, _task(*t))
        else:
            import concurrent.futures as cf
            import multiprocessing as mp

            # not "fork": a process that has run optimize-tdfg holds egglog's rayon thread
            # pool, which a forked child does not have (its first egglog call waits forever)
            with cf.ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("forkserver")) as ex:
                futs = {ex.submit(_task, *t): i for i, t in enumerate(tasks)}
                for f in cf.as_completed(futs):
                    done(futs[f], f.result())
    return [r for r in out if r is not None]


def _progress(msg: str, quiet: bool) -> None:
    if not quiet:
        print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------
# analysis
# ---------------------------------------------------------------------------------


def geomean(xs) -> float:
    xs = [x for x in xs if x and x > 0 and math.isfinite(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def best_by_benchmark(rows: dict[tuple[str, str], dict], configs, key: str = "total_cycles") -> dict[str, dict[str, dict]]:
    """benchmark -> config -> the row of its best implementation (fewest cycles)."""
    out: dict[str, dict[str, dict]] = {}
    for bench, impls in SUITE.items():
        for c in configs:
            cands = [rows[(i, c)] for i in impls if (i, c) in rows]
            if cands:
                out.setdefault(bench, {})[c] = min(cands, key=lambda r: r[key])
    return out


def headline(rows: dict[tuple[str, str], dict], configs, tile_rows: list[dict]) -> dict[str, Any]:
    """Our value of each headline number of ``PAPER`` (None where the runs needed are missing)."""
    best = best_by_benchmark(rows, configs)
    ours: dict[str, Any] = {}

    def ratio_geo(num: str, den: str, key="total_cycles"):
        xs = [b[den][key] / b[num][key] for b in best.values() if num in b and den in b and b[num][key] > 0]
        return (geomean(xs), max(xs) if xs else None, len(xs)) if xs else (None, None, 0)

    def speedups(num, den):
        return {k: b[den]["total_cycles"] / b[num]["total_cycles"] for k, b in best.items() if num in b and den in b}

    vi, vn = rows.get(("vec_add", "in")), rows.get(("vec_add", "near"))
    if vi and vn:
        ours["fig2_vec_add_in_over_near"] = vn["total_cycles"] / vi["total_cycles"]
        core_in = vi["total_cycles"] - vi["cyc_dram"] - vi["cyc_jit"]
        ours["fig2_vec_add_in_over_near_compute_only"] = vn["total_cycles"] / core_in if core_in > 0 else None
    ours["fig11_infs_over_near"], _, ours["n_infs_near"] = ratio_geo("infs", "near")
    ours["fig11_infs_over_base"], ours["fig11_infs_over_base_max"], ours["n_infs_base"] = ratio_geo("infs", "base")
    ours["fig11_in_over_near"], _, _ = ratio_geo("in", "near")
    ours["fig11_near_over_base"], _, _ = ratio_geo("near", "base")
    ours["fig11_nojit_over_infs"], _, _ = ratio_geo("infs_nojit", "infs")
    ours["infs_over_noegraph"], ours["infs_over_noegraph_max"], _ = ratio_geo("infs", "infs_noegraph")
    ours["fig11_best_over_base"] = {c: geomean(speedups(c, "base").values()) for c in configs if c != "base"}
    # Fig. 12: NoC traffic (byte-hops, control included), best implementation by cycles
    for den, key in (("near", "fig12_noc_cut_vs_near"), ("base", "fig12_noc_cut_vs_base")):
        xs = [b["infs"]["noc_traffic"] / b[den]["noc_traffic"] for b in best.values() if "infs" in b and den in b and b[den]["noc_traffic"] > 0]
        ours[key] = 1 - geomean([max(x, 1e-9) for x in xs]) if xs else None
    # Fig. 14: Inf-S JIT share of runtime (mean over benchmarks) and ops in memory
    infs = [b["infs"] for b in best.values() if "infs" in b]
    if infs:
        ours["fig14_jit_share"] = sum(r["cyc_jit"] / r["total_cycles"] for r in infs if r["total_cycles"]) / len(infs)
        ours["fig14_jit_share_total"] = sum(r["cyc_jit"] for r in infs) / max(1, sum(r["total_cycles"] for r in infs))
        ours["fig14_ops_in_memory"] = sum(r["elements_in_memory_fraction"] for r in infs) / len(infs)
        ours["fig14_in_memory_cycle_share"] = sum(
            (r["cyc_dram"] + r["cyc_move"] + r["cyc_compute"] + r["cyc_final_reduce"]) / r["total_cycles"] for r in infs if r["total_cycles"]
        ) / len(infs)
    # Fig. 15: inner vs outer
    f15 = {}
    for c in ("infs", "base", "near", "in"):
        i, o = rows.get(("mm_inner", c)), rows.get(("mm_outer", c))
        if i and o:
            f15[c] = i["total_cycles"] / o["total_cycles"]  # > 1: outer wins
    ours["fig15_mm_outer_over_inner"] = f15
    ours["fig15_outer_over_inner"] = {}
    for bench, (inner, outer) in (("mm", ("mm_inner", "mm_outer")), ("kmeans", ("kmeans_inner", "kmeans_outer")),
                                  ("gather_mlp", ("gather_mlp_inner", "gather_mlp_outer"))):  # fmt: skip
        for c in ("infs", "near", "in", "base"):
            i, o = rows.get((inner, c)), rows.get((outer, c))
            if i and o and o["total_cycles"] > 0:
                ours["fig15_outer_over_inner"][(bench, c)] = (i["total_cycles"] / o["total_cycles"], i, o)
    # Fig. 18: energy efficiency (work per joule) over Near-L3, best implementation by cycles
    for c, key in (("in", "fig18_in_energy_over_near"), ("infs", "fig18_infs_energy_over_near")):
        xs = [b["near"]["energy_pj"] / b[c]["energy_pj"] for b in best.values() if c in b and "near" in b and b[c]["energy_pj"] > 0]
        ours[key] = geomean(xs) if xs else None
    # JIT time per lowering (the JIT's own wall time; infs's JIT is Python)
    lows = [float(x) for b in best.values() if "infs" in b for x in str(b["infs"].get("jit_lowering_ms", "")).split(";") if x]
    if lows:
        m = sum(lows) / len(lows)
        ours["jit_us_per_lowering_mean"] = 1e3 * m
        ours["jit_us_per_lowering_sd"] = 1e3 * math.sqrt(sum((x - m) ** 2 for x in lows) / len(lows))
        ours["jit_us_per_lowering_max"] = 1e3 * max(lows)
        ours["jit_lowerings"] = len(lows)
    # Fig. 16/17: over every 2-D and 3-D workload of the study ("across all 2D/3D benchmarks", §8)
    if tile_rows:
        summ = tile_summary(tile_rows)
        h_best = [v["vs_best"] for v in summ.values() if v["vs_best"] is not None]
        h_flat = [v["over_no_tiling"] for v in summ.values() if v["over_no_tiling"] is not None]
        ours["fig16_heuristic_vs_best"] = geomean(h_best) if h_best else None
        ours["fig16_heuristic_over_no_tiling"] = geomean(h_flat) if h_flat else None
        ours["fig16_n_vs_best"], ours["fig16_n_over_no_tiling"] = len(h_best), len(h_flat)
    ours["_best"] = best
    return ours


# ---------------------------------------------------------------------------------
# outputs
# ---------------------------------------------------------------------------------


def write_csv(path: Path, rows: list[dict]) -> None:
    if not rows:
        return
    keys: list[str] = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    with path.open("w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=keys)
        wr.writeheader()
        for r in rows:
            # floats in full (the shortest text that reads back as the same number): six
            # significant digits made a row's energy and paper-size traffic differ from
            # infs-run --json's figures for the same run
            wr.writerow({k: (repr(float(v)) if isinstance(v, float) else v) for k, v in r.items()})


def plots(out: Path, rows: dict[tuple[str, str], dict], configs: list[str]) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    best = best_by_benchmark(rows, configs)
    benches = [b for b in SUITE if b in best and "base" in best[b]]
    made: list[Path] = []
    others = [c for c in configs if c != "base"]
    colors = {"base": "#7f7f7f", "near": "#1f77b4", "in": "#ff7f0e", "infs": "#2ca02c", "infs_nojit": "#98df8a", "infs_noegraph": "#d62728"}

    def bars(values: dict[str, list[float]], names: list[str], ylabel: str, title: str, fname: str, log: bool, hline: float | None) -> None:
        fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(names) + 2), 3.6))
        n = len(values)
        width = 0.8 / max(1, n)
        x = np.arange(len(names))
        for j, (c, ys) in enumerate(values.items()):
            ax.bar(x + (j - (n - 1) / 2) * width, ys, width, label=CONFIGS[c][0], color=colors.get(c))
        ax.set_xticks(x)
        ax.set_xticklabels(names, rotation=30, ha="right")
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        if log:
            ax.set_yscale("log")
        if hline is not None:
            ax.axhline(hline, color="k", lw=0.6)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)  # outside: never on the bars
        fig.tight_layout()
        p = out / fname
        fig.savefig(p, dpi=120)
        plt.close(fig)
        made.append(p)

    if benches and others:
        vals = {}
        for c in others:
            sp = [best[b]["base"]["total_cycles"] / best[b][c]["total_cycles"] if c in best[b] else float("nan") for b in benches]
            vals[c] = sp + [geomean(sp)]
        bars(vals, benches + ["geomean"], "speedup over Base", "Fig. 11: speedup over Base (best implementation per config)", "fig11_speedup.png", True, 1.0)
    if benches:
        vals = {}
        for c in configs:
            rel = [
                best[b][c]["noc_traffic"] / best[b]["base"]["noc_traffic"] if c in best[b] and best[b]["base"]["noc_traffic"] > 0 else float("nan")
                for b in benches
            ]
            vals[c] = rel + [geomean(rel)]
        bars(vals, benches + ["geomean"], "NoC traffic / Base", "Fig. 12: NoC traffic (byte-hops) normalized to Base", "fig12_noc_traffic.png", True, 1.0)
    # Fig. 13: traffic by kind, summed over the benchmarks (best implementation), per configuration
    from infs.sim.stats import TRAFFIC_KEYS

    if benches:
        vals = {c: [sum(float(best[b][c].get(f"traffic_{k}", 0) or 0) for b in benches if c in best[b]) for k in TRAFFIC_KEYS] for c in configs}
        bars(vals, list(TRAFFIC_KEYS), "bytes (NoC kinds: byte-hops)", "Fig. 13: traffic by kind, summed over the benchmarks", "fig13_traffic.png", True, None)
    # Fig. 15: outer over inner product per configuration (> 1: outer wins)
    pairs = (("mm", "mm_inner", "mm_outer"), ("kmeans", "kmeans_inner", "kmeans_outer"), ("gather_mlp", "gather_mlp_inner", "gather_mlp_outer"))
    have = [(b, i, o) for b, i, o in pairs if any((i, c) in rows and (o, c) in rows for c in configs)]
    if have:
        vals = {c: [rows[(i, c)]["total_cycles"] / rows[(o, c)]["total_cycles"] if (i, c) in rows and (o, c) in rows and rows[(o, c)]["total_cycles"] else float("nan")
                    for _, i, o in have] for c in configs}  # fmt: skip
        bars(vals, [b for b, _, _ in have], "outer / inner speedup", "Fig. 15: outer over inner product (>1: outer wins)", "fig15_dataflow.png", True, 1.0)
    # Fig. 18: energy efficiency over Near-L3
    if benches and "near" in configs:
        vals = {}
        for c in configs:
            ef = [best[b]["near"]["energy_pj"] / best[b][c]["energy_pj"] if c in best[b] and "near" in best[b] and best[b][c]["energy_pj"] > 0 else float("nan") for b in benches]
            vals[c] = ef + [geomean(ef)]
        bars(vals, benches + ["geomean"], "energy efficiency / Near-L3", "Fig. 18: energy efficiency over Near-L3", "fig18_energy.png", True, 1.0)
    # Fig. 14: cycle breakdown (fractions) of every implementation, Inf-S and (for comparison) In-L3
    panels = [c for c in ("infs", "in") if c in configs]
    impls = [i for b in SUITE.values() for i in b if any((i, c) in rows for c in panels)]
    if impls and panels:
        from infs.sim.stats import CYCLE_KEYS

        fig, axes = plt.subplots(len(panels), 1, figsize=(max(6, 0.7 * len(impls) + 2), 2.6 * len(panels) + 1.4), sharex=True, squeeze=False)
        x = np.arange(len(impls))
        for ax, c in zip(axes[:, 0], panels):
            bottom = np.zeros(len(impls))
            for k in CYCLE_KEYS:
                fr = np.array([rows[(i, c)][f"cyc_{k}"] / max(1, rows[(i, c)]["total_cycles"]) if (i, c) in rows else 0.0 for i in impls])
                ax.bar(x, fr, bottom=bottom, label=k)
                bottom += fr
            ops = [rows[(i, c)]["elements_in_memory_fraction"] if (i, c) in rows else np.nan for i in impls]
            ax.plot(x, ops, "k.", markersize=9, label="ops in memory")
            ax.set_ylim(0, 1.05)
            ax.set_ylabel(f"{CONFIGS[c][0]} cycles")
        axes[0, 0].set_title("Fig. 14: cycle breakdown (dots: fraction of ops in memory)")
        axes[-1, 0].set_xticks(x)
        axes[-1, 0].set_xticklabels(impls, rotation=30, ha="right")
        axes[0, 0].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
        fig.tight_layout()
        p = out / "fig14_breakdown.png"
        fig.savefig(p, dpi=120)
        plt.close(fig)
        made.append(p)
    return made


def tile_plots(figdir: Path, tile_rows: list[dict]) -> list[Path]:
    """Fig. 16 (per 2-D workload: the cycle breakdown of every tile shape normalized to the
    heuristic's total) and Fig. 17 (per 3-D workload: speedup over no tiling of every shape),
    the best and the heuristic's ("default", bold as in the paper's Fig. 17) shapes marked."""
    summ = tile_summary(tile_rows)
    if not summ:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    from infs.sim.stats import CYCLE_KEYS

    figdir.mkdir(parents=True, exist_ok=True)
    made: list[Path] = []

    def grid(n: int, w: float, h: float):
        ncols = min(n, 3)
        nrows = -(-n // ncols)
        fig, axes = plt.subplots(nrows, ncols, figsize=(w * ncols, h * nrows + 1.0), squeeze=False)
        for ax in axes.flat[n:]:
            ax.set_visible(False)
        return fig, list(axes.flat[:n])

    def ticks(ax, rs: list[dict]) -> None:
        ax.set_xticks(np.arange(len(rs)))
        ax.set_xticklabels(["heuristic" if r["tiles"] == "heuristic" else r["tiles"] for r in rs], rotation=60, ha="right", fontsize=7)
        for lab, r in zip(ax.get_xticklabels(), rs):
            if r.get("default"):
                lab.set_fontweight("bold")  # the paper's "default as bold"
            if r.get("rejected"):
                lab.set_color("#999999")

    def finish(ax, wl: str, rs: list[dict], heights, ylabel: str) -> None:
        """Marks (x: rejected shape, *: best), the 1.0 line, labels and ticks of one panel."""
        top = max(float(np.max(heights)) if len(heights) else 0.0, 1.0)
        for i, r in enumerate(rs):
            if r.get("rejected"):
                ax.text(i, 0.02 * top, "x", ha="center", va="bottom", color="#999999", fontsize=9)
            elif r.get("best"):
                ax.text(i, heights[i] + 0.02 * top, "*", ha="center", va="bottom", fontsize=11)
        ax.axhline(1.0, color="k", lw=0.6)
        ax.set_ylim(0, top * 1.15)
        ax.set_title(wl, fontsize=9)
        ax.set_ylabel(ylabel, fontsize=8)
        ticks(ax, rs)

    def save(fig, handles, name: str) -> None:
        # the legend below the panels: never on the bars
        ncol = min(len(handles), 5)
        fig.legend(handles=handles, loc="lower center", ncol=ncol, fontsize=8, frameon=False)
        fig.tight_layout(rect=(0, (0.15 + 0.2 * -(-len(handles) // ncol)) / fig.get_figheight(), 1, 1))
        p = figdir / name
        fig.savefig(p, dpi=120)
        plt.close(fig)
        made.append(p)

    marks = [Patch(facecolor="none", edgecolor="none", label="bold label: heuristic's shape (default)"),
             Patch(facecolor="none", edgecolor="none", label="*: best forced shape; x: shape rejected")]  # fmt: skip
    two = [wl for wl, v in summ.items() if v["rank"] == 2 and v["heuristic"]]
    if two:
        used = [k for k in CYCLE_KEYS if any(int(r.get(f"cyc_{k}", 0) or 0) for r in tile_rows if r["workload"] in two and not r.get("rejected"))]
        fig, axes = grid(len(two), 4.2, 2.9)
        for ax, wl in zip(axes, two):
            rs = [r for r in tile_rows if r["workload"] == wl]
            h = summ[wl]["heuristic"]["total_cycles"] or 1
            x = np.arange(len(rs))
            bottom = np.zeros(len(rs))
            for k in used:
                ys = np.array([0.0 if r.get("rejected") else int(r.get(f"cyc_{k}", 0) or 0) / h for r in rs])
                ax.bar(x, ys, bottom=bottom, color=f"C{CYCLE_KEYS.index(k)}", width=0.75)  # Fig. 14's colors
                bottom += ys
            finish(ax, wl, rs, bottom, "cycles / heuristic")
        fig.suptitle("Fig. 16: cycle breakdown vs. 2-D tile shape (In-L3, normalized to the layout heuristic)", fontsize=10)
        save(fig, [Patch(color=f"C{CYCLE_KEYS.index(k)}", label=k) for k in used] + marks, "fig16_tiles.png")
    three = [wl for wl, v in summ.items() if v["rank"] == 3 and v["heuristic"]]
    if three:
        fig, axes = grid(len(three), 5.5, 3.0)
        for ax, wl in zip(axes, three):
            rs = [r for r in tile_rows if r["workload"] == wl]
            flat = summ[wl]["no_tiling"]
            x = np.arange(len(rs))
            if flat is None:
                ax.set_title(f"{wl} (no valid no-tiling run)", fontsize=9)
                ticks(ax, rs)
                continue
            ys = [0.0 if r.get("rejected") else flat["total_cycles"] / r["total_cycles"] for r in rs]
            colors = ["#ff7f0e" if r["tiles"] == "heuristic" else "#7f7f7f" if r.get("no_tiling") else "#1f77b4" for r in rs]
            ax.bar(x, ys, color=colors, width=0.75)
            finish(ax, wl, rs, ys, "speedup over no tiling")
        fig.suptitle("Fig. 17: speedup over no tiling vs. 3-D tile shape (In-L3)", fontsize=10)
        save(fig, [Patch(color="#ff7f0e", label="layout heuristic"), Patch(color="#1f77b4", label="forced shape"),
                   Patch(color="#7f7f7f", label="no tiling (row-major)")] + marks, "fig17_tiles3d.png")  # fmt: skip
    return made


def _f(x, fmt="{:.2f}") -> str:
    return "n/a" if x is None or (isinstance(x, float) and not math.isfinite(x)) else fmt.format(x)


def _git_head() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True,
                              cwd=Path(__file__).resolve().parents[2]).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _git_dirty() -> list[str]:
    """Tracked files of ``infs/`` with uncommitted changes (the run used them)."""
    try:
        out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "infs"], capture_output=True, text=True,
                             check=True, cwd=Path(__file__).resolve().parents[2]).stdout  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return []
    return sorted(line[3:].strip() for line in out.splitlines() if line.strip())


def run_meta(args, total_wall: float, n_runs: int, dirty: list[str] | None = None, commit: str | None = None) -> dict[str, Any]:
    return {
        "command": " ".join(["infs-bench", *args.argv]),
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit or _git_head(),
        "uncommitted": dirty if dirty is not None else _git_dirty(),
        "wall_s": round(total_wall, 1),
        "runs": n_runs,
        "jobs": args.jobs,
        "host": f"{platform.machine()} / Python {platform.python_version()} ({os.cpu_count()} CPUs)",
    }


def reproduction_md(ours: dict[str, Any], rows: dict[tuple[str, str], dict], size_notes: dict[str, tuple[str, str]],
                    configs: list[str], meta: dict[str, Any], tile_rows: list[dict], plot_paths: Sequence[str] = (),
                    fig2: Sequence[str] = (), jit: Sequence[str] = ()) -> str:  # fmt: skip
    P = PAPER
    lines: list[str] = []
    add = lines.append
    add("# Reproduction of the paper's headline numbers (ASPLOS'23 Infinity Stream)")
    add("")
    add(f"Generated by `{meta['command']}` on {meta['date']} at commit `{meta['commit']}`: {meta['runs']} runs "
        f"({len(rows)} of the suite, {len(tile_rows)} of the tile study) in {meta['wall_s'] / 60:.1f} min wall with "
        f"{meta['jobs']} parallel job(s) on {meta['host']}."
        + (f" The working tree also had uncommitted changes to {', '.join(f'`{x}`' for x in meta['uncommitted'])}."
           if meta.get("uncommitted") else "")
        + (f" {meta['note']}" if meta.get("note") else "") + " "
        "Machine `paper-64` (ASPLOS Table 2), analysis mode (timing only), inputs in the L3 "
        "at the start (warm), JIT cache cleared before every run. Every number below comes from these runs "
        "(`bench.csv` and `tiles.csv` in the output directory have all of them).")  # fmt: skip
    add("")
    add("Ratios are geomeans over the Fig. 11 benchmarks (stencil1d/2d/3d, dwt2d, gauss_elim, conv2d, conv3d, mm, "
        "kmeans, gather_mlp), each configuration taking its best implementation (inner or outer product) as in the paper. "
        "`ours / paper` is the ratio of the two values.")  # fmt: skip
    add("")
    add("| figure | quantity | paper | ours | ours / paper |")
    add("|---|---|---:|---:|---:|")

    def row(fig, what, key, ourkey=None, fmt="{:.2f}x", paper_fmt=None):
        p = P.get(key)
        o = ours.get(ourkey or key)
        r = o / p if (o is not None and p and isinstance(o, float | int) and math.isfinite(o)) else None
        add(f"| {fig} | {what} | {(paper_fmt or fmt).format(p) if p is not None else '-'} | {_f(o, fmt)} | {_f(r)} |")

    va = size_notes.get("vec_add", ("?", ""))[0]
    row("Fig. 2", f"vec_add ({va}; paper: 4M): In-L3 over Near-L3 (total, with transpose + JIT)", "fig2_vec_add_in_over_near")
    row("Fig. 2", f"vec_add ({va}): In-L3 over Near-L3, compute only (data already transposed, as Fig. 2 assumes)",
        "fig2_vec_add_in_over_near", "fig2_vec_add_in_over_near_compute_only")  # fmt: skip
    row("Fig. 11", "Inf-S over Near-L3 (geomean)", "fig11_infs_over_near")
    row("Fig. 11", "Inf-S over Base (geomean)", "fig11_infs_over_base")
    row("Fig. 11", "Inf-S over Base (max)", "fig11_infs_over_base_max")
    row("Fig. 11", "In-L3 over Near-L3 (geomean)", "fig11_in_over_near")
    row("Fig. 11", "Near-L3 over Base (geomean)", "fig11_near_over_base")
    row("Fig. 11", "Inf-S no JIT over Inf-S (geomean)", "fig11_nojit_over_infs")
    row("§3.2", "Inf-S over Inf-S no e-graph (geomean; optimize-tdfg's effect, no number in the paper)", "infs_over_noegraph")
    row("§3.2", "Inf-S over Inf-S no e-graph (max)", "infs_over_noegraph_max")
    row("Fig. 12", "NoC traffic cut (byte-hops of data + control, 1 - geomean of Inf-S / X), Inf-S vs Near-L3", "fig12_noc_cut_vs_near", fmt="{:.0%}")
    row("Fig. 12", "NoC traffic cut, Inf-S vs Base", "fig12_noc_cut_vs_base", fmt="{:.0%}")
    row("Fig. 14", "JIT share of Inf-S runtime (mean over benchmarks)", "fig14_jit_share", fmt="{:.1%}")
    row("Fig. 14", "ops (elements) computed in memory, Inf-S", "fig14_ops_in_memory", fmt="{:.0%}")
    f15 = ours.get("fig15_mm_outer_over_inner", {})
    for c, want in (("infs", "outer wins"), ("in", "outer wins"), ("base", "inner wins")):
        v = f15.get(c)
        got = "n/a" if v is None else (f"outer wins ({v:.2f}x)" if v > 1 else f"inner wins ({1 / v:.2f}x)")
        ok = "n/a" if v is None else ("agrees" if (v > 1) == (want == "outer wins") else "**disagrees**")
        where = ""
        if v is not None:
            ri, ro = rows[("mm_inner", c)], rows[("mm_outer", c)]
            where = f" (ran: inner {ri['regions_in']}/{ri['regions_near']}/{ri['regions_core']}, outer {ro['regions_in']}/{ro['regions_near']}/{ro['regions_core']} regions in/near/core)"
        add(f"| Fig. 15 | mm inner vs outer product on {CONFIGS[c][0]}{where} | {want} | {got} | {ok} |")
    f15all = ours.get("fig15_outer_over_inner", {})
    for (bench, c), (v, ri, ro) in sorted(f15all.items(), key=lambda kv: (list(SUITE).index(kv[0][0]), kv[0][1])):
        if bench == "mm" and c != "near":
            continue  # the three mm rows above
        want = "inner wins" if c == "base" else "outer wins"
        got = f"outer wins ({v:.2f}x)" if v > 1 else f"inner wins ({1 / v:.2f}x)"
        ok = "agrees" if (v > 1) == (want == "outer wins") else "**disagrees**"
        where = f" (ran: inner {ri['regions_in']}/{ri['regions_near']}/{ri['regions_core']}, outer {ro['regions_in']}/{ro['regions_near']}/{ro['regions_core']} regions in/near/core)"
        add(f"| Fig. 15 | {bench} inner vs outer product on {CONFIGS[c][0]}{where} | {want} | {got} | {ok} |")
    row("Fig. 18", "energy efficiency over Near-L3, In-L3 (geomean)", "fig18_in_energy_over_near")
    row("Fig. 18", "energy efficiency over Near-L3, Inf-S (geomean)", "fig18_infs_energy_over_near")
    row("§8", "JIT wall time per lowering, mean over the Inf-S runs' lowerings (µs; infs's JIT is Python)", "jit_us_per_lowering_mean", fmt="{:.0f}")
    if tile_rows:
        # the rows keep their names from run to run; what they cover is said below the table
        row("Fig. 16/17", "layout heuristic vs best tile shape (cycles, geomean)", "fig16_heuristic_vs_best", fmt="{:.3f}x", paper_fmt="≤{:.2f}x")
        row("Fig. 16/17", "layout heuristic over no tiling (innermost dim contiguous)", "fig16_heuristic_over_no_tiling")
    else:
        add("| Fig. 16/17 | layout heuristic vs best tile / no tiling | within 2% / 1.34x | not run | - |")
    add("")
    add("Secondary numbers from the same runs: "
        f"JIT share of all Inf-S cycles summed over benchmarks {_f(ours.get('fig14_jit_share_total'), '{:.1%}')}; "
        f"in-memory categories (DRAM/transpose, move, compute, final reduce) {_f(ours.get('fig14_in_memory_cycle_share'), '{:.0%}')} "
        "of Inf-S cycles (paper: 88%)."
        + (f" The Fig. 16/17 rows are geomeans over the {ours.get('fig16_n_vs_best', 0)} (best shape) and "
           f"{ours.get('fig16_n_over_no_tiling', 0)} (no tiling) 2-D/3-D workloads of the tile study with a valid forced "
           "shape, In-L3 runs." if tile_rows else ""))  # fmt: skip
    if ours.get("jit_lowerings"):
        add("")
        add(f"JIT statistics (§8; paper: mean 220 µs, σ 449 µs, max 1616 µs on gauss_elim, C++): over the "
            f"{ours['jit_lowerings']:,} lowerings the Inf-S runs executed, mean {ours['jit_us_per_lowering_mean']:.0f} µs, "
            f"σ {ours['jit_us_per_lowering_sd']:.0f} µs, max {ours['jit_us_per_lowering_max']:.0f} µs (wall time of infs's "
            "Python JIT on this machine; the simulated charge is `jit_model`, see `benchmarks/MODEL.md`).")  # fmt: skip
    vi, vn = rows.get(("vec_add", "in")), rows.get(("vec_add", "near"))
    if vi and vn:
        add("")
        add(f"Fig. 2 in cycles: In-L3 {vi['total_cycles']:,} (transposition {vi['cyc_dram']:,}, compute {vi['cyc_compute']:,}, "
            f"move {vi['cyc_move']:,}, JIT {vi['cyc_jit']:,}); Near-L3 {vn['total_cycles']:,}; Base {rows[('vec_add', 'base')]['total_cycles']:,}."
            if ("vec_add", "base") in rows else f"Fig. 2 in cycles: In-L3 {vi['total_cycles']:,}; Near-L3 {vn['total_cycles']:,}.")  # fmt: skip
    add("")
    # per-benchmark speedups
    best = ours["_best"]
    add("## Per benchmark (speedup over Base, best implementation)")
    add("")
    others = [c for c in configs if c != "base"]
    add("| benchmark | Base cycles | " + " | ".join(CONFIGS[c][0] for c in others) + " | Inf-S regions in/near/core | Inf-S JIT share |")
    add("|---|---:|" + "---:|" * len(others) + "---|---:|")
    for b, cs in best.items():
        if "base" not in cs:
            continue
        base = cs["base"]["total_cycles"]
        cells = []
        for c in others:
            if c in cs:
                cells.append(f"{base / cs[c]['total_cycles']:.2f}x ({cs[c]['workload'].split('_')[-1] if len(SUITE[b]) > 1 else ''})".replace(" ()", ""))
            else:
                cells.append("-")
        inf = cs.get("infs")
        reg = f"{inf['regions_in']}/{inf['regions_near']}/{inf['regions_core']}" if inf else "-"
        js = f"{inf['cyc_jit'] / inf['total_cycles']:.1%}" if inf and inf["total_cycles"] else "-"
        add(f"| {b} | {base:,} | " + " | ".join(cells) + f" | {reg} | {js} |")
    add("")
    add("## Sizes used")
    add("")
    add("| workload | sizes | note |")
    add("|---|---|---|")
    for wl, (s, note) in size_notes.items():
        add(f"| {wl} | {s} | {note} |")
    add("")
    if tile_rows:
        lines.extend(tile_table(tile_rows))
        add("")
    if fig2:
        lines.extend(fig2)
        add("")
    if jit:
        lines.extend(jit)
        add("")
    if plot_paths:
        add("## Plots")
        add("")
        for pth in plot_paths:
            add(f"![{Path(pth).stem}]({pth})")
            add("")
    add("## Observations from these runs")
    add("")
    for line in observations(rows, configs):
        add(f"* {line}")
    add("")
    add("## Why they differ")
    add("")
    add("Generated from these runs: for each headline ratio more than 25% away from the paper, the benchmarks that "
        "pull it down and where their cycles go, each cycle category named by the model component that charges it.")  # fmt: skip
    add("")
    for line in why_they_differ(ours, rows, configs):
        add(f"* {line}")
    return "\n".join(lines) + "\n"


def tile_table(tile_rows: list[dict]) -> list[str]:
    """REPRODUCTION.md's Fig. 16/17 section: every run of the tile study with its cycle breakdown,
    the best and the heuristic's ("default") shape marked as Fig. 16 annotates them, a rejected
    shape with its reason."""
    from infs.sim.stats import CYCLE_KEYS

    summ = tile_summary(tile_rows)
    out = ["## Fig. 16/17: tile shapes (In-L3 runs)", "",
           f"Each workload of the study ({', '.join(summ)}) runs In-L3 (every region in memory, so the cycles differ by "
           "the layout alone; under Inf-S, Eq. 2 moves some of these regions out of memory, where the shape does "
           "nothing) once with the runtime's layout heuristic (`choose_layout`, §4.1) and once per forced tile shape "
           "(`RunOptions.tiles`; the same shape for every region). 2-D (Fig. 16): every power-of-two shape of 256 cells; "
           "3-D (Fig. 17): the shapes with every side at most 16, and 1x1x256. The cycle categories add up to the "
           "total. **default**: the heuristic's choice (the forced run of the same shape, when it chose one shape for "
           "every region); **best**: the fewest cycles of the forced shapes; **no tiling**: the innermost dimension "
           "laid out contiguously (row-major); **rejected**: a region's layout refused the shape (the region ran near "
           "memory instead), so the row has no cycles of that shape.", "",
           "| workload | tile shape | cycles | vs heuristic | " + " | ".join(CYCLE_KEYS) + " | note |",
           "|---|---|---:|---:|" + "---:|" * len(CYCLE_KEYS) + "---|"]  # fmt: skip
    for r in tile_rows:
        s = summ[r["workload"]]
        h = s["heuristic"]["total_cycles"] if s["heuristic"] else None
        if r["tiles"] == "heuristic":
            name = f"heuristic ({str(r.get('tiles_chosen', '')).replace('/', ' / ') or '?'})"
        else:
            name = r["tiles"]
        notes = [k.replace("_", " ") for k in ("default", "best", "no_tiling") if r.get(k)]
        if r.get("rejected"):
            out.append(f"| {r['workload']} | {name} | - | - | " + " | ".join("-" for _ in CYCLE_KEYS)
                       + f" | rejected: {str(r['rejected']).replace('|', '/')} |")  # fmt: skip
            continue
        rel = f"{r['total_cycles'] / h:.3f}" if h else "-"
        cyc = " | ".join(f"{int(r.get(f'cyc_{k}', 0) or 0):,}" for k in CYCLE_KEYS)
        out.append(f"| {r['workload']} | {name} | {int(r['total_cycles']):,} | {rel} | {cyc} | {', '.join(notes)} |")
    per = [f"{wl} {v['vs_best']:.3f}x (best {v['best']['tiles']}"
           + (f"; no tiling {v['no_tiling']['tiles']} / heuristic {v['over_no_tiling']:.2f}x)" if v["over_no_tiling"] is not None else ")")
           for wl, v in summ.items() if v["vs_best"] is not None]  # fmt: skip
    if per:
        out += ["", "Per workload, the headline ratios' terms: heuristic / best forced shape " + ", ".join(per) + "."]
    rej = [wl for wl, v in summ.items() if v["heuristic"] and not v["valid"]]
    if rej:
        out += ["", "Every forced shape was rejected on " + ", ".join(rej) + ": the headline ratios leave "
                + ("it" if len(rej) == 1 else "them") + " out."]  # fmt: skip
    return out


# Each cycle category (infs.sim.stats.CYCLE_KEYS) and the model component that charges it.
COMPONENT = {
    "dram": "transposition and DRAM transfers (`infs/sim/timing.py` `dram`, residency §5.2)",
    "jit": "the JIT charge (`HardwareConfig.jit_model`)",
    "move": "tensor moves: shifts and broadcasts (`infs/sim/timing.py` `shift`/`bcast`, Alg. 2)",
    "compute": "bit-serial compute (`INFS_LATENCY` in `infs/hardware.py`)",
    "final_reduce": "readout and the near-memory fold of partial reductions (`timing.py` `readout`)",
    "near_mem": "regions near memory (the NSC model, `infs/sim/near.py`)",
    "core": "regions on the cores (the Base model, `infs/sim/core.py`)",
}

# headline ratio -> (configuration whose speedup it is, configuration it is over)
_RATIOS = {
    "fig11_infs_over_near": ("infs", "near"),
    "fig11_infs_over_base": ("infs", "base"),
    "fig11_in_over_near": ("in", "near"),
    "fig11_near_over_base": ("near", "base"),
    "fig11_nojit_over_infs": ("infs_nojit", "infs"),
}


def _breakdown(r: dict, top: int = 2) -> str:
    """A run's largest cycle categories, as shares with their components."""
    from infs.sim.stats import CYCLE_KEYS

    tot = max(1, int(r["total_cycles"]))
    parts = sorted(((int(r.get(f"cyc_{k}", 0) or 0) / tot, k) for k in CYCLE_KEYS), reverse=True)[:top]
    return ", ".join(f"{share:.0%} {k}" for share, k in parts if share > 0)


def why_they_differ(ours: dict[str, Any], rows: dict[tuple[str, str], dict], configs) -> list[str]:
    """The generated explanation of every headline gap (generated, so that it cannot go stale)."""
    from infs.sim.stats import CYCLE_KEYS

    best = best_by_benchmark(rows, configs)
    out: list[str] = []
    for key, (num, den) in _RATIOS.items():
        o, p = ours.get(key), PAPER.get(key)
        if o is None or not p or not math.isfinite(o) or 0.8 <= o / p <= 1.25:
            continue
        per = sorted(
            (b[den]["total_cycles"] / b[num]["total_cycles"], name, b[num], b[den])
            for name, b in best.items() if num in b and den in b and b[num]["total_cycles"] > 0
        )  # fmt: skip
        low = [x for x in per if (x[0] < p) == (o < p)][:3] if o < p else [x for x in per[::-1] if x[0] > p][:3]
        shares = {k: 0.0 for k in CYCLE_KEYS}
        for _, _, rn, _ in low:
            for k in CYCLE_KEYS:
                shares[k] += (int(rn.get(f"cyc_{k}", 0) or 0)) / max(1, int(rn["total_cycles"])) / max(1, len(low))
        culprit = max(shares, key=shares.get) if low else None
        label = {c: CONFIGS[c][0] for c in (num, den)}
        detail = "; ".join(f"{name} {r:.2f}x ({label[num]}: {_breakdown(rn)}; {label[den]}: {_breakdown(rd)})" for r, name, rn, rd in low)
        line = f"**{key}** ({label[num]} over {label[den]}): paper {p:.2f}x, ours {o:.2f}x ({o / p:.2f} of the paper)."
        if low and culprit:
            line += (f" Furthest {'below' if o < p else 'above'}: {detail}. In those {label[num]} runs "
                     f"{shares[culprit]:.0%} of the cycles (mean) are `{culprit}`: {COMPONENT[culprit]}.")  # fmt: skip
        out.append(line)
    # JIT share (Fig. 14)
    js, p = ours.get("fig14_jit_share"), PAPER["fig14_jit_share"]
    if js is not None and math.isfinite(js) and not 0.8 <= js / p <= 1.25:
        runs = [b["infs"] for b in best.values() if "infs" in b]
        lowerings = sum(int(r.get("jit_misses", 0) or 0) for r in runs)
        out.append(f"**fig14_jit_share**: paper {p:.0%}, ours {js:.1%}. The Inf-S runs lowered {lowerings:,} tDFGs "
                   f"(not memoized) and were charged {sum(int(r.get('cyc_jit', 0) or 0) for r in runs):,} cycles for them: "
                   f"{COMPONENT['jit']}, per command by default as the authors' gem5 model charges it "
                   "(see `benchmarks/MODEL.md`); the JIT-model section below gives the share under each named model.")  # fmt: skip
    # ops in memory (Fig. 14)
    om, p = ours.get("fig14_ops_in_memory"), PAPER["fig14_ops_in_memory"]
    if om is not None and math.isfinite(om) and not 0.8 <= om / p <= 1.25:
        missed = sorted(((float(b["infs"]["elements_in_memory_fraction"]), name, b["infs"]) for name, b in best.items() if "infs" in b))
        parts = [f"{name} {f:.0%} in memory ({r.get('not_in_reason') or 'every region in memory'})" for f, name, r in missed if f < 0.9]
        out.append(f"**fig14_ops_in_memory**: paper {p:.0%}, ours {om:.0%}. Benchmarks with under 90% of their elements in "
                   "memory under Inf-S, with the runtime's reason for the first region it kept out (Eq. 2, §4.3, in "
                   "`infs/runtime/driver.py` `decide`): " + "; ".join(parts) + ".")  # fmt: skip
    # Fig. 15: every preference that disagrees with the paper, with both implementations' costs
    for (bench, c), (v, ri, ro) in ours.get("fig15_outer_over_inner", {}).items():
        if (v > 1) == (c != "base"):
            continue
        out.append(f"**Fig. 15 {bench} on {CONFIGS[c][0]}**: the paper's {'inner' if c == 'base' else 'outer'} product wins there, "
                   f"ours {'outer' if v > 1 else 'inner'} ({max(v, 1 / v):.2f}x). Inner: {int(ri['total_cycles']):,} cycles "
                   f"({_breakdown(ri)}), NoC {float(ri['noc_traffic']):,.0f} byte-hops; outer: {int(ro['total_cycles']):,} cycles "
                   f"({_breakdown(ro)}), NoC {float(ro['noc_traffic']):,.0f} byte-hops, {int(ro['regions'])} regions: "
                   + ", ".join(COMPONENT[k] for k in dict.fromkeys(_breakdown(ro, 1).split()[1:2]) if k in COMPONENT) + ".")  # fmt: skip
    # the paper's Inf-S is at least as fast as the faster of In-L3 and Near-L3 on every benchmark (Fig. 11)
    slower = []
    for name, b in best.items():
        alts = [b[c] for c in ("in", "near") if c in b]
        if "infs" in b and alts:
            fast = min(alts, key=lambda r: r["total_cycles"])
            if b["infs"]["total_cycles"] > fast["total_cycles"]:
                slower.append(f"{name} {fast['total_cycles'] / b['infs']['total_cycles']:.2f}x of {CONFIGS[fast['config']][0]} "
                              f"(Inf-S: {_breakdown(b['infs'])}; first region kept out of memory: "
                              f"{b['infs'].get('not_in_reason') or 'none'})")  # fmt: skip
    if slower:
        out.append("**Inf-S slower than the faster of In-L3 and Near-L3** (the paper's Inf-S never is): " + "; ".join(slower)
                   + ". Its per-region choice is Eq. 2 (§4.3), which compares the cores at peak with the in-memory "
                   "latencies, not with the near-memory model.")  # fmt: skip
    out += _energy_gaps(ours, best)
    order = _geomean_order(best)
    if order:
        out.append(order)
    if not out:
        out.append("Every headline ratio above is within 25% of the paper.")
    return out


def _energy_classes() -> dict[str, str]:
    """Energy class -> the constants that charge it (``infs/sim/energy.py``, leakage per cycle)."""
    from infs.sim.energy import ENERGY_OF

    by: dict[str, list[str]] = {}
    for cls, const in ENERGY_OF.values():
        by.setdefault(cls, []).append(const)
    by["static"] = ["static_fraction"]
    return {c: ", ".join(f"`{k}`" for k in dict.fromkeys(v)) for c, v in by.items()}


def _energy_split(r: dict, top: int = 2) -> str:
    from infs.sim.stats import ENERGY_KEYS

    tot = float(r.get("energy_pj", 0.0) or 0.0) or 1.0
    parts = sorted(((float(r.get(f"energy_{k}", 0.0) or 0.0) / tot, k) for k in ENERGY_KEYS), reverse=True)[:top]
    return ", ".join(f"{share:.0%} {k}" for share, k in parts if share > 0)


def _energy_gaps(ours: dict[str, Any], best: dict[str, dict[str, dict]]) -> list[str]:
    """Fig. 18: each energy-efficiency ratio more than 25% from the paper, the benchmarks that
    pull it away and the energy classes (with their constants, `benchmarks/MODEL.md`) behind it."""
    from infs.sim.stats import ENERGY_KEYS

    consts = _energy_classes()
    out = []
    for c, key in (("in", "fig18_in_energy_over_near"), ("infs", "fig18_infs_energy_over_near")):
        o, p = ours.get(key), PAPER[key]
        if o is None or not math.isfinite(o) or 0.8 <= o / p <= 1.25:
            continue
        per = sorted((b["near"]["energy_pj"] / b[c]["energy_pj"], name, b[c], b["near"])
                     for name, b in best.items() if c in b and "near" in b and float(b[c]["energy_pj"]) > 0)  # fmt: skip
        low = [x for x in per if x[0] < p][:3] if o < p else [x for x in per[::-1] if x[0] > p][:3]
        if not low:
            continue
        shares = dict.fromkeys(ENERGY_KEYS, 0.0)
        for _, _, rc, _ in low:
            for k in ENERGY_KEYS:
                shares[k] += float(rc.get(f"energy_{k}", 0.0) or 0.0) / max(1.0, float(rc["energy_pj"])) / len(low)
        culprit = max(shares, key=shares.get)
        label = CONFIGS[c][0]
        detail = "; ".join(f"{name} {r:.2f}x ({label}: {_energy_split(rc)}; Near-L3: {_energy_split(rn)})" for r, name, rc, rn in low)
        out.append(f"**{key}** (energy efficiency of {label} over Near-L3): paper {p:.2f}x, ours {o:.2f}x ({o / p:.2f} of the "
                   f"paper). Furthest {'below' if o < p else 'above'}: {detail}. In those {label} runs {shares[culprit]:.0%} of "
                   f"the energy (mean) is `{culprit}`, charged by {consts.get(culprit, 'the machine')}"
                   + (" (15% of the machine's peak dynamic power for every cycle, the authors' method: energy follows run time)" if culprit == "static" else "")
                   + ".")  # fmt: skip
    return out


# Fig. 11's geomean order (speedup over Base), slowest first, as the paper reports it
_ORDER = ("base", "near", "in", "infs", "infs_nojit")


def _geomean_order(best: dict[str, dict[str, dict]]) -> str:
    """The Fig. 11 geomean order Base < Near-L3 < In-L3 < Inf-S <= Inf-S no JIT: holds or where not."""
    means = {}
    for c in _ORDER:
        xs = [b["base"]["total_cycles"] / b[c]["total_cycles"] for b in best.values() if "base" in b and c in b and b[c]["total_cycles"] > 0]
        if xs:
            means[c] = geomean(xs)
    if len(means) < len(_ORDER):
        return ""
    # Inf-S no JIT equals Inf-S where the JIT charge is negligible: <= for that pair
    broken = [(a, b) for a, b in zip(_ORDER, _ORDER[1:]) if not (means[a] < means[b] or (b == "infs_nojit" and means[a] <= means[b]))]
    seq = f"{CONFIGS[_ORDER[0]][0]} {means[_ORDER[0]]:.2f}x" + "".join(
        f" {'>=' if (a, b) in broken else ('<=' if means[a] == means[b] else '<')} {CONFIGS[b][0]} {means[b]:.2f}x"
        for a, b in zip(_ORDER, _ORDER[1:]))  # fmt: skip
    if not broken:
        return f"**Fig. 11 geomean order** (speedup over Base): {seq}: holds, as in the paper."
    return (f"**Fig. 11 geomean order** (speedup over Base): {seq}: does not hold for "
            + ", ".join(f"{CONFIGS[a][0]} vs {CONFIGS[b][0]}" for a, b in broken) + ".")


def observations(rows: dict[tuple[str, str], dict], configs) -> list[str]:
    """Facts read off the runs that explain the gaps (regenerated with every run)."""
    obs: list[str] = []
    names = list(dict.fromkeys(w for w, _ in rows))
    if "in" in configs and "infs" in configs:
        faster = []
        for w in names:
            i, f = rows.get((w, "in")), rows.get((w, "infs"))
            if i and f and i["total_cycles"] < f["total_cycles"] and f["regions_in"] < i["regions_in"]:
                faster.append(f"{w} ({f['total_cycles'] / i['total_cycles']:.2f}x; Inf-S ran {f['regions_in']} of "
                              f"{f['regions']} regions in memory)")  # fmt: skip
        if faster:
            obs.append("In-L3 (everything in memory) beat Inf-S, whose Eq. 2 decision kept regions near memory or on "
                       "the cores, on: " + ", ".join(faster) + ". Inf-S should be at least as fast as the faster of In-L3 "
                       "and Near-L3. When it is not, the decision's in-memory estimate is off (see below).")  # fmt: skip
        both = []
        for w in names:
            f, i, n = rows.get((w, "infs")), rows.get((w, "in")), rows.get((w, "near"))
            if f and i and n and f["total_cycles"] * 1.01 < min(i["total_cycles"], n["total_cycles"]):
                both.append(f"{w} ({min(i['total_cycles'], n['total_cycles']) / f['total_cycles']:.2f}x over the better of the two; "
                            f"regions in/near/core {f['regions_in']}/{f['regions_near']}/{f['regions_core']})")  # fmt: skip
        if both:
            obs.append("Inf-S beat both In-L3 and Near-L3 by more than 1% by choosing per region (in memory, near memory or on the cores): " + ", ".join(both) + ".")
        tot_in = sum(r["regions_in"] for (w, c), r in rows.items() if c == "infs")
        tot = sum(r["regions"] for (w, c), r in rows.items() if c == "infs")
        obs.append(f"Inf-S ran {tot_in} of {tot} region invocations in memory; In-L3 ran "
                   f"{sum(r['regions_in'] for (w, c), r in rows.items() if c == 'in')} of "
                   f"{sum(r['regions'] for (w, c), r in rows.items() if c == 'in')}.")  # fmt: skip
    if "in" in configs:
        mv = [(w, r["cyc_move"] / r["total_cycles"], r["total_cycles"]) for (w, c), r in rows.items() if c == "in" and r["total_cycles"]]
        heavy = [f"{w} {m:.0%} ({t:,} cycles)" for w, m, t in mv if m > 0.5]
        if heavy:
            obs.append("Tensor moves dominate In-L3 on " + ", ".join(heavy) + ". Table 3 lists gauss_elim, conv3d, mm, "
                       "kmeans and gather_mlp as broadcast (BC) workloads.")  # fmt: skip
        dr = [(w, r["cyc_dram"] / r["total_cycles"]) for (w, c), r in rows.items() if c == "in" and r["total_cycles"]]
        heavy = [f"{w} {d:.0%}" for w, d in dr if d > 0.3]
        if heavy:
            obs.append("Transposition in and out of the arrays (`dram` category; the data starts in the L3 in its normal "
                       "layout) is a large share of In-L3 cycles on " + ", ".join(heavy) + ".")  # fmt: skip
    if "in" in configs:
        js = [(w, r["cyc_jit"] / r["total_cycles"]) for (w, c), r in rows.items() if c == "in" and r["total_cycles"]]
        top = sorted(js, key=lambda x: -x[1])[:3]
        if top:
            obs.append("JIT share of In-L3 cycles (10 cycles per command of every lowering that was not memoized), highest: "
                       + ", ".join(f"{w} {j:.1%}" for w, j in top) + ".")  # fmt: skip
    return obs




# ---------------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------------


def tile_candidates(rank: int, bitlines: int) -> list[tuple[int, ...]]:
    """Tile shapes of ``bitlines`` cells with power-of-two sides (the last dim contiguous)."""
    e = int(math.log2(bitlines))
    out = []
    for parts in itertools.product(range(e + 1), repeat=rank):
        if sum(parts) == e:
            out.append(tuple(2**p for p in parts))
    return out


def row_major_tile(lattice: Sequence[int], bitlines: int) -> tuple[int, ...]:
    """The "no tiling" shape of §8 (the innermost dimension laid out contiguously): the lattice's
    rows one after the other, each dimension from the innermost as long as it is (rounded up to a
    power of two) until an array's ``bitlines`` are full; the outermost takes what is left.
    1x256 for a 2048x2048 lattice, 2x128 for 32768x128 (two rows of 128 per array)."""
    out: list[int] = []
    left = bitlines
    for s in reversed(lattice):
        t = min(left, 1 << max(0, math.ceil(math.log2(max(1, s)))))
        out.append(t)
        left //= t
    out[-1] *= left
    return tuple(reversed(out))


def tile_shapes(rank: int, bitlines: int) -> list[tuple[int, ...]]:
    """The shapes the study forces for a lattice of ``rank``.  2-D: all of them (9 for 256 bitlines,
    Fig. 16's x axis).  3-D and up: the 45 power-of-two shapes of 256 cells trimmed to those with
    every side at most sqrt(bitlines) (16) -- 15 shapes, from 1x16x16 (2-D tiles of each plane)
    over 2x8x16 ... 16x8x2 to the cubes 4x8x8, 8x4x8, 8x8x4 and the like of 16x4x4 -- plus the
    no-tiling 1x1x256.  A side of 32 or more leaves 8 cells for the other two sides together: a
    layout close to a 2-D or 1-D one, which Fig. 16 and the no-tiling baseline stand for."""
    cands = tile_candidates(rank, bitlines)
    if rank <= 2:
        return cands
    side = math.isqrt(bitlines)
    return [t for t in cands if max(t) <= side] + [(1,) * (rank - 1) + (bitlines,)]


def _study_rank(w) -> int:
    """The lattice rank of a workload's tile study: its (first) output array's rank."""
    return len(w.make_inputs(w.sizes("small"), np.random.default_rng(0))[w.outputs[0]].shape) if w.outputs else 1


def tile_tasks(workloads, size_set: str) -> list[tuple]:
    """The study's runs: per workload the heuristic's (no forced shape), then one per shape of
    ``tile_shapes`` and the no-tiling shape of its output array at the run's sizes."""
    from infs.hardware import load_config
    from infs.workloads import WORKLOADS

    cfg = load_config("paper-64")
    tasks: list[tuple] = []
    for name in workloads:
        w = WORKLOADS[name]
        sizes, note = bench_sizes(w, size_set)
        rank = _study_rank(w)
        shapes = tile_shapes(rank, cfg.bitlines)
        if w.outputs:
            out = w.make_inputs(sizes, np.random.default_rng(0))[w.outputs[0]]
            flat = row_major_tile(out.shape, cfg.bitlines)
            shapes += [flat] if flat not in shapes else []
        tasks.append((name, sizes, note, TILE_CONFIG, False, None))
        tasks += [(name, sizes, note, TILE_CONFIG, False, t) for t in shapes]
    return tasks


# Fig. 2 as an input-size sweep: vec_add at these sizes besides the suite's (4M at paper size)
FIG2_NOTE = "Fig. 2 sweep"

# The JIT-model study: Inf-S on the Fig. 11 suite under each named JIT model
# (``infs.hardware.JIT_COMMAND_CYCLES``) and the per-lowering one, to see which
# charge the paper's 11% JIT share (Fig. 14, ASPLOS §8) is consistent with.  Eq. 2
# sees the model's charge too, so a dearer JIT also moves regions out of memory.
JIT_NOTE = "JIT-model study"
JIT_STUDY = ("hardware", "gem5-controller", "software", "per-lowering")


def jit_tasks(workloads, size_set: str, models: Sequence[str], functional: bool = False) -> list[tuple]:
    """The study's runs: every Fig. 11 implementation among ``workloads``, Inf-S, under each model."""
    from infs.workloads import WORKLOADS

    impls = [i for b in SUITE.values() for i in b if i in workloads]
    return [(name, bench_sizes(WORKLOADS[name], size_set)[0], JIT_NOTE, "infs", functional, None, m) for m in models for name in impls]


def jit_study(jit_rows: list[dict]) -> dict[str, dict[str, Any]]:
    """model -> the study's numbers over the Fig. 11 benchmarks (each its best implementation
    under that model, as Fig. 14 takes): the mean JIT share, the share of the summed cycles,
    the elements in memory, the benchmarks run; and ``held``, the mean JIT share of the
    ``hardware`` runs with their lowerings charged at this model's rate instead (the regions
    where Eq. 2 put them at 10 cycles/cmd: the JIT is charged serially, so the rest of each
    run's cycles are the same).  Eq. 2 under a dearer charge moves regions out of memory,
    which the paper's Fig. 14 (99% of the ops in memory) does not show: ``held`` is the
    share at the paper's offload."""
    from infs.hardware import JIT_COMMAND_CYCLES, load_config

    out: dict[str, dict[str, Any]] = {}
    hw = {(r["workload"], "infs"): r for r in jit_rows if r.get("jit_model") == "hardware" and "error" not in r}
    hw_best = [b["infs"] for b in best_by_benchmark(hw, ["infs"]).values() if b["infs"]["total_cycles"]]
    for m in dict.fromkeys(r["jit_model"] for r in jit_rows if "error" not in r):
        rows = {(r["workload"], "infs"): r for r in jit_rows if r.get("jit_model") == m and "error" not in r}
        best = [b["infs"] for b in best_by_benchmark(rows, ["infs"]).values()]
        best = [r for r in best if r["total_cycles"]]
        if not best:
            continue
        held = None
        if hw_best:
            rate = JIT_COMMAND_CYCLES.get(m)
            per_lowering = load_config("paper-64", jit_model="per-lowering").jit_lowering_cycles(0, 0.0)
            shares = []
            for r in hw_best:
                jit = r["cyc_jit"] * rate / JIT_COMMAND_CYCLES["hardware"] if rate is not None else r["jit_misses"] * per_lowering
                shares.append(jit / (r["total_cycles"] - r["cyc_jit"] + jit) if jit else 0.0)
            held = sum(shares) / len(shares) if m in JIT_COMMAND_CYCLES or m == "per-lowering" else None
        out[m] = {
            "held": held,
            "rate": JIT_COMMAND_CYCLES.get(m),
            "share": sum(r["cyc_jit"] / r["total_cycles"] for r in best) / len(best),
            "share_total": sum(r["cyc_jit"] for r in best) / sum(r["total_cycles"] for r in best),
            "in_memory": sum(r["elements_in_memory_fraction"] for r in best) / len(best),
            "benchmarks": len(best),
            "cycles": sum(r["total_cycles"] for r in best),
        }
    return out


def jit_table(jit_rows: list[dict]) -> list[str]:
    """REPRODUCTION.md's JIT-model section: the Inf-S JIT share under each model, and which one the
    paper's 11% (Fig. 14) is consistent with (within the 0.8-1.25x the headline table calls close)."""
    study = jit_study(jit_rows)
    if not study:
        return []
    from infs.hardware import JIT_MODEL_SOURCES

    p = PAPER["fig14_jit_share"]
    out = ["## JIT models: which charge gives Fig. 14's 11% JIT share", "",
           f"Inf-S on the Fig. 11 suite under each JIT model (`jit_model`, `infs-run --jit-model`; sources in "
           "`benchmarks/MODEL.md`), each benchmark its best implementation under that model. The charge is also "
           "Eq. 2's N_node x Lat_JIT, so a dearer JIT moves regions out of memory too (the elements column).", "",
           "| model | charge | JIT share (mean over benchmarks) | JIT share of the summed cycles | elements in memory | Inf-S cycles summed | JIT share, regions as under `hardware` |",
           "|---|---|---:|---:|---:|---:|---:|"]  # fmt: skip
    for m, v in study.items():
        charge = f"{v['rate']:,} cycles/cmd" if v["rate"] is not None else ("220 µs per lowering" if m == "per-lowering" else m)
        held = "-" if v["held"] is None else f"{v['held']:.1%}"
        out.append(f"| `{m}` | {charge} | {v['share']:.1%} | {v['share_total']:.1%} | {v['in_memory']:.0%} | {v['cycles']:,} | {held} |")
    if not any(v["share"] for v in study.values()):
        return out + ["", "No run of the study was charged any JIT cycles (no region ran in memory): it says nothing about the 11%."]
    out.append("")

    def verdict(key: str, what: str) -> str:
        got = {m: v[key] for m, v in study.items() if v[key] is not None}
        if not got:
            return ""
        ok = [m for m, x in got.items() if 0.8 <= x / p <= 1.25]
        near = min(got, key=lambda m: abs(math.log(max(got[m], 1e-12) / p)))
        if ok:
            return f"{what}, the paper's {p:.0%} is consistent with {', '.join(f'`{m}`' for m in ok)} (within 0.8-1.25x)."
        lo = [m for m, x in got.items() if x < p]
        hi = [m for m, x in got.items() if x > p]
        between = (f"; it lies between `{max(lo, key=got.get)}` ({got[max(lo, key=got.get)]:.1%}) and `{min(hi, key=got.get)}` "
                   f"({got[min(hi, key=got.get)]:.1%})" if lo and hi else "")  # fmt: skip
        return f"{what}, no model gives the paper's {p:.0%} within 0.8-1.25x: the closest is `{near}` ({got[near]:.1%}){between}."

    out.append(" ".join(x for x in (verdict("held", "With the regions where Eq. 2 puts them under `hardware` (the offload closest to the paper's)"),
                                     verdict("share", "With Eq. 2 deciding under each charge")) if x))  # fmt: skip
    return out
FIG2_SIZES = {"paper": (2**14, 2**16, 2**18, 2**20), "small": (16, 256)}


def _fig2_points(fig2_rows: list[dict], rows: dict[tuple[str, str], dict]) -> dict[int, dict[str, dict]]:
    """n -> config -> row, the suite's own vec_add run included."""
    pts: dict[int, dict[str, dict]] = {}
    for r in [*fig2_rows, *(rows[("vec_add", c)] for c in ("base", "near", "in") if ("vec_add", c) in rows)]:
        n = int(str(r["sizes"]).split("n=")[1].split()[0])
        pts.setdefault(n, {})[r["config"]] = r
    return dict(sorted(pts.items()))


def fig2_table(fig2_rows: list[dict], rows: dict[tuple[str, str], dict]) -> list[str]:
    """REPRODUCTION.md's Fig. 2 section: vec_add by input size (paper: In-L3 ~21x Near-L3 at 4M)."""
    pts = _fig2_points(fig2_rows, rows)
    if len(pts) < 2:
        return []
    out = ["## Fig. 2: vec_add by input size", "",
           "| n | Base | Near-L3 | In-L3 | In-L3 over Near-L3 (total) | In-L3 over Near-L3 (compute only) |",
           "|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for n, by in pts.items():
        cyc = {c: int(r["total_cycles"]) for c, r in by.items()}
        i, nr = by.get("in"), by.get("near")
        tot = f"{cyc['near'] / cyc['in']:.2f}x" if i and nr and cyc["in"] else "-"
        comp = int(i["cyc_compute"]) + int(i["cyc_move"]) if i else 0
        only = f"{cyc['near'] / comp:.2f}x" if i and nr and comp else "-"
        out.append(f"| {n:,} | {cyc.get('base', '-'):,} | {cyc.get('near', '-'):,} | {cyc.get('in', '-'):,} | {tot} | {only} |"
                   if all(c in cyc for c in ("base", "near", "in")) else f"| {n:,} | - | - | - | {tot} | {only} |")  # fmt: skip
    return out


def fig2_plot(figdir: Path, fig2_rows: list[dict], rows: dict[tuple[str, str], dict]) -> list[Path]:
    pts = _fig2_points(fig2_rows, rows)
    if len(pts) < 2:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figdir.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(6.5, 3.4))
    for c in ("base", "near", "in"):
        xs = [n for n, by in pts.items() if c in by]
        ax.plot(xs, [int(pts[n][c]["total_cycles"]) for n in xs], "o-", label=CONFIGS[c][0])
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("vec_add elements")
    ax.set_ylabel("cycles")
    ax.set_title("Fig. 2: vec_add by input size")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    fig.tight_layout()
    p = figdir / "fig2_sizes.png"
    fig.savefig(p, dpi=120)
    plt.close(fig)
    return [p]


def _shape(tiles) -> tuple[int, ...]:
    return tuple(int(x) for x in str(tiles).split("x") if x.strip().isdigit())


def tile_rows_of(rows: list[dict]) -> list[dict]:
    """Every row of the tile study (in order), annotated for Fig. 16/17: the heuristic's run gets
    ``tiles`` "heuristic" and ``default``; a forced shape that some region's layout rejected (the
    region ran near memory instead, which In-L3 does rather than fail) or whose run failed gets
    ``rejected``, the one-line reason -- its cycles are not the shape's; ``no_tiling`` marks the
    row-major shape of the heuristic's lattice, ``best`` the valid forced shapes with the fewest
    cycles, ``default`` also the forced shape equal to the heuristic's choice when it chose one
    shape for every region.  Idempotent: ``--replot`` annotates tiles.csv's rows again."""
    out = [dict(r) for r in rows]
    for r in out:
        r["tiles"] = str(r.get("tiles", "") or "heuristic")
        for k in ("rejected", "best", "default", "no_tiling"):
            r.pop(k, None)
    for wl in dict.fromkeys(r["workload"] for r in out):
        rs = [r for r in out if r["workload"] == wl]
        heur = next((r for r in rs if r["tiles"] == "heuristic"), None)
        swept = [r for r in rs if r is not heur]
        base_nh: set[str] = set()
        if heur is not None:
            heur["default"] = True
            if "error" in heur:
                heur["rejected"] = heur["error"]
            else:
                base_nh = set(json.loads(heur.get("not_honoured") or "{}"))
        lattice = _shape(heur.get("lattice", "")) if heur is not None and "error" not in heur else ()
        chosen = str(heur.get("tiles_chosen", "")) if heur is not None else ""
        for r in swept:
            parts = _shape(r["tiles"])
            if "error" in r:
                r["rejected"] = r["error"]
            else:
                new = [(k, v) for k, v in json.loads(r.get("not_honoured") or "{}").items() if k not in base_nh]
                if new:
                    k, v = new[0]
                    r["rejected"] = f"region {k}: {v}" + (f" (and {len(new) - 1} more region(s))" if len(new) > 1 else "")
            flat = row_major_tile(lattice, math.prod(parts)) if len(lattice) == len(parts) else (1,) * (len(parts) - 1) + (math.prod(parts),)
            r["no_tiling"] = parts == flat
            r["default"] = bool(chosen) and "/" not in chosen and r["tiles"] == chosen
        valid = [r for r in swept if not r.get("rejected")]
        fewest = min((r["total_cycles"] for r in valid), default=None)
        for r in swept:
            r["best"] = not r.get("rejected") and r["total_cycles"] == fewest
        if heur is not None:
            heur["best"] = False
            heur["no_tiling"] = False
    return out


def tile_summary(tile_rows: list[dict]) -> dict[str, dict[str, Any]]:
    """workload -> its study at a glance: the heuristic's row, the best and no-tiling rows (None
    when every forced shape was rejected), the lattice rank, heuristic / best and no tiling /
    heuristic (Fig. 16/17's two headline ratios, per workload)."""
    out: dict[str, dict[str, Any]] = {}
    for wl in dict.fromkeys(r["workload"] for r in tile_rows):
        rs = [r for r in tile_rows if r["workload"] == wl]
        heur = next((r for r in rs if r["tiles"] == "heuristic" and not r.get("rejected")), None)
        valid = [r for r in rs if r["tiles"] != "heuristic" and not r.get("rejected")]
        best = next((r for r in valid if r.get("best")), None)
        flat = next((r for r in valid if r.get("no_tiling")), None)
        rank = max((len(_shape(r["tiles"])) for r in rs if r["tiles"] != "heuristic"), default=0)
        ok = heur is not None and heur["total_cycles"] > 0
        out[wl] = {
            "heuristic": heur, "best": best, "no_tiling": flat, "rank": rank, "valid": valid,
            "vs_best": heur["total_cycles"] / best["total_cycles"] if ok and best and best["total_cycles"] else None,
            "over_no_tiling": flat["total_cycles"] / heur["total_cycles"] if ok and flat else None,
        }
    return out


def csv_value(v: str) -> Any:
    """A CSV cell as what it was written from: a bool, an int, a float or text."""
    if v in ("True", "False"):
        return v == "True"
    for t in (int, float):
        try:
            return t(v)
        except ValueError:
            pass
    return v


def read_csv(path: Path) -> list[dict]:
    """Rows of a bench CSV, numbers as numbers."""
    with path.open() as f:
        return [{k: csv_value(v) for k, v in r.items() if v != ""} for r in csv.DictReader(f)]


def replot(out: Path, repro: Path, configs: list[str], args) -> int:
    """The plots and REPRODUCTION.md again from the CSVs of an earlier run (its numbers, its wall time)."""
    if not (out / "bench.csv").exists():
        print(f"{PROG}: error: --replot: no {out / 'bench.csv'}", file=sys.stderr)
        return 2
    order = read_csv(out / "bench.csv")
    tile_rows = tile_rows_of(read_csv(out / "tiles.csv")) if (out / "tiles.csv").exists() else []
    rows = {(r["workload"], r["config"]): r for r in order if "error" not in r and r["config"] in configs}
    size_notes = {}
    for r in order:
        size_notes.setdefault(r["workload"], (str(r["sizes"]), r.get("size_note", "")))
    if (out / "run.json").exists():
        meta = json.loads((out / "run.json").read_text())
    else:
        meta = run_meta(args, sum(r.get("wall_s", 0.0) for r in order + tile_rows) / max(1, args.jobs), len(order) + len(tile_rows))
        meta["note"] = "(Wall time estimated as the sum of the runs' wall times / jobs.)"
    meta["note"] = (meta.get("note", "") + f" Plots and this file regenerated from the CSVs on {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M UTC}.").strip()
    fig2_rows = read_csv(out / "fig2.csv") if (out / "fig2.csv").exists() else []
    jit_rows = read_csv(out / "jit.csv") if (out / "jit.csv").exists() else []
    made = plots(repro.parent / "figures", rows, configs)
    made += fig2_plot(repro.parent / "figures", fig2_rows, rows)
    made += tile_plots(repro.parent / "figures", tile_rows)
    ours = headline(rows, configs, tile_rows)
    repro.write_text(reproduction_md(ours, rows, size_notes, configs, meta, tile_rows, [f"figures/{p.name}" for p in made], fig2_table(fig2_rows, rows),
                                     jit_table(jit_rows)))  # fmt: skip
    _progress(f"wrote {', '.join(p.name for p in made)} and {repro} from {out / 'bench.csv'}", args.quiet)
    return 0


def main(argv: list[str] | None = None) -> int:
    from infs.workloads import WORKLOADS

    parser = argparse.ArgumentParser(prog=PROG, description="Run the workload suite under the paper's configurations.")
    parser.add_argument("--version", action="version", version=version_text(PROG), help="print infs's and xDSL's versions and exit")
    parser.add_argument("--workloads", help=f"comma-separated (default: all: {', '.join(WORKLOADS)})")
    parser.add_argument("--configs", default=",".join(CONFIGS), help=f"comma-separated of {', '.join(CONFIGS)}")
    parser.add_argument("--size-set", default="paper", choices=["paper", "small"])
    parser.add_argument("--out", default="benchmarks/out", help="directory for bench.csv and the plots")
    parser.add_argument("--reproduction", default=None, help="REPRODUCTION.md path (default: benchmarks/REPRODUCTION.md for the full "
                        "paper-size suite, else OUT/REPRODUCTION.md)")  # fmt: skip
    parser.add_argument("--tiles-study", default=None, help=f"workloads for Fig. 16/17, In-L3 runs (default: {','.join(TILE_STUDY)}; 'none' to skip)")
    parser.add_argument("--jit-study", default=None, help=f"JIT models for the Fig. 14 JIT-share study, Inf-S runs (default: {','.join(JIT_STUDY)}; 'none' to skip)")
    parser.add_argument("--functional", action="store_true", help="compute data too (slow; default: analysis mode)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs in parallel (processes; default: one per CPU)")
    parser.add_argument("--replot", action="store_true", help="no runs: redo the plots and REPRODUCTION.md from OUT/bench.csv (and tiles.csv)")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    args.argv = list(argv if argv is not None else sys.argv[1:])
    try:
        names = [s.strip() for s in args.workloads.split(",") if s.strip()] if args.workloads else list(WORKLOADS)
        for n in names:
            if n not in WORKLOADS:
                raise UsageError(f"unknown workload '{n}' (known: {', '.join(WORKLOADS)})")
        configs = [s.strip() for s in args.configs.split(",") if s.strip()]
        for c in configs:
            if c not in CONFIGS:
                raise UsageError(f"unknown config '{c}' (known: {', '.join(CONFIGS)})")
        tiles_for = TILE_STUDY if args.tiles_study is None else tuple(s for s in args.tiles_study.split(",") if s and s != "none")
        tiles_for = tuple(t for t in tiles_for if t in names)
        for t in tiles_for:
            if t not in WORKLOADS:
                raise UsageError(f"unknown workload '{t}' in --tiles-study")
        from infs.hardware import JIT_MODELS

        jit_models = JIT_STUDY if args.jit_study is None else tuple(s.strip() for s in args.jit_study.split(",") if s.strip() and s.strip() != "none")
        for m in jit_models:
            if m not in JIT_MODELS:
                raise UsageError(f"unknown JIT model '{m}' in --jit-study (known: {', '.join(JIT_MODELS)})")
        jit_models = jit_models if "infs" in configs else ()
    except UsageError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    full_suite = set(names) == set(WORKLOADS) and set(configs) == set(CONFIGS) and args.size_set == "paper"
    repro = Path(args.reproduction) if args.reproduction else (Path("benchmarks/REPRODUCTION.md") if full_suite else out / "REPRODUCTION.md")
    if args.replot:
        return replot(out, repro, configs, args)
    head, dirty = _git_head(), _git_dirty()  # the code the runs use: HEAD at the start plus these
    t_start = time.perf_counter()
    size_notes: dict[str, tuple[str, str]] = {}
    tasks = []
    for name in names:
        sizes, note = bench_sizes(WORKLOADS[name], args.size_set)
        size_notes[name] = (_fmt_sizes(sizes), note)
        tasks += [(name, sizes, note, c, args.functional) for c in configs]
    nfig2 = 0
    if "vec_add" in names:  # Fig. 2 as an input-size sweep (the suite's run is its largest point)
        for n in FIG2_SIZES[args.size_set]:
            tasks += [("vec_add", {"n": n}, FIG2_NOTE, c, args.functional) for c in ("base", "near", "in") if c in configs]
            nfig2 += sum(1 for c in ("base", "near", "in") if c in configs)
    ntiles = 0
    if tiles_for:
        tt = tile_tasks(tiles_for, args.size_set)
        ntiles = len(tt)
        tasks += tt
    jt = jit_tasks(names, args.size_set, jit_models, args.functional)
    tasks += jt
    _progress(f"{len(tasks)} runs ({ntiles} for the tile study, {len(jt)} for the JIT-model study), {args.jobs} job(s)", args.quiet)
    # longest first (their rows are put back in order below)
    sched = sorted(range(len(tasks)), key=lambda i: (-_WEIGHT.get(tasks[i][0], 0) * (1 if CONFIGS[tasks[i][3]][1] in ("in", "auto") else 0.1), i))
    main_n = len(tasks) - ntiles - nfig2 - len(jt)
    suite_task = lambda t: len(t) == 5 and t[2] != FIG2_NOTE  # noqa: E731
    ran = _run_tasks([tasks[i] for i in sched], args.jobs, args.quiet, on_row=lambda rs: write_csv(out / "bench.csv", [r for r in rs if not r.get("tiles") and r.get("size_note") not in (FIG2_NOTE, JIT_NOTE)]))
    all_rows: list[dict] = [{}] * len(tasks)
    for i, r in zip(sched, ran):
        all_rows[i] = r
    order = [r for r, t in zip(all_rows, tasks) if suite_task(t)]
    fig2_rows = [r for r, t in zip(all_rows, tasks) if len(t) == 5 and t[2] == FIG2_NOTE and "error" not in r]
    tile_rows = tile_rows_of([r for r, t in zip(all_rows, tasks) if len(t) == 6])
    jit_rows = [r for r, t in zip(all_rows, tasks) if len(t) == 7]
    rows = {(r["workload"], r["config"]): r for r in order if "error" not in r}
    assert main_n == len(order)
    if tile_rows:
        write_csv(out / "tiles.csv", tile_rows)
    if fig2_rows:
        write_csv(out / "fig2.csv", fig2_rows)
    if jit_rows:
        write_csv(out / "jit.csv", jit_rows)
    total = time.perf_counter() - t_start
    write_csv(out / "bench.csv", order)
    repro.parent.mkdir(parents=True, exist_ok=True)
    made = plots(repro.parent / "figures", rows, configs)  # beside REPRODUCTION.md, which shows them
    ours = headline(rows, configs, tile_rows)
    meta = run_meta(args, total, len(tasks), dirty, head)
    (out / "run.json").write_text(json.dumps(meta, indent=2) + "\n")
    made += fig2_plot(repro.parent / "figures", fig2_rows, rows)
    made += tile_plots(repro.parent / "figures", tile_rows)
    repro.write_text(reproduction_md(ours, rows, size_notes, configs, meta, tile_rows, [f"figures/{p.name}" for p in made], fig2_table(fig2_rows, rows),
                                     jit_table(jit_rows)))  # fmt: skip
    _progress(f"wrote {out / 'bench.csv'}, {', '.join(p.name for p in made)} and {repro} ({total / 60:.1f} min)", args.quiet)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
