"""``infs-bench``: the paper's evaluation (ASPLOS'23 §8) reproduced on the workload suite.

    infs-bench [--workloads a,b] [--configs base,near,in,infs,infs_nojit,infs_noegraph]
               [--size-set paper|small] [--out benchmarks/out]
               [--reproduction benchmarks/REPRODUCTION.md] [--functional]
               [--jit-study hardware,gem5-controller,software,per-lowering] [--cal22 none]

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
* ``cal22.csv`` -- the CAL'22 study (its five configurations on ``cal-64``, ``--cal22``);
* ``jit.csv`` -- the JIT-model study (Inf-S under each ``--jit-study`` JIT model: which
  charge Fig. 14's 11% JIT share is consistent with);

and ``--reproduction`` (``benchmarks/REPRODUCTION.md``): each headline number
of the paper (ASPLOS §8, Figs. 2 and 11-18) next to ours, with the ratio.  The numbers and
the markdown are computed from the rows by ``infs.tools.bench_report``; this module runs.

As in the paper, mm, kmeans and gather_mlp have an inner- and an
outer-product version; Fig. 11/12 take the best version for each
configuration.  vec_add and array_sum are the Fig. 2 microbenchmarks and not
part of the Fig. 11 suite.
"""

from __future__ import annotations

import argparse
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

from infs.tools.cli import VersionAction
from infs.tools.bench_cal22 import CAL_MACHINE, CAL_NOTE, CAL_SUITE, cal_tasks
from infs.tools.bench_csv import csv_value, read_csv, write_csv  # noqa: F401 -- csv_value: infs-sweep reads its CSVs with it
from infs.tools.bench_defs import POLICY
from infs.tools.bench_pool import run_pool
from infs.tools.bench_report import (  # noqa: F401 -- re-exported: the report's names are infs-bench's API
    CONFIGS,
    MICRO,
    PAPER,
    SUITE,
    repo_relative,
    _fig2_points,
    _shape,
    best_by_benchmark,
    fig2_table,
    geomean,
    headline,
    jit_study,
    jit_table,
    reproduction_md,
    tile_summary,
    tile_table,
)

PROG = "infs-bench"


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
    options = RunOptions(config=machine, mode=mode, jit=charge, tiles=tiles, optimize=optimize, policy=POLICY.get(config, "eq2"),
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


def _not_honoured(records) -> str:
    """JSON {region: first reason} of the regions whose forced mode did not run ("" when every one did)."""
    out: dict[str, str] = {}
    for r in records:
        if r.not_honoured:
            out.setdefault(str(r.region), repo_relative(r.not_honoured))
    return json.dumps(out) if out else ""


_MODULES: dict[str, Any] = {}


def _task(name: str, sizes: dict[str, int], note: str, config: str, functional: bool, tiles=None, jit_model: str | None = None,
          machine_name: str = "paper-64") -> dict[str, Any]:  # fmt: skip
    """One (workload, configuration[, tile shape][, JIT model][, machine]) run as a CSV row; an error is a row too."""
    from infs import api
    from infs.hardware import load_config
    from infs.workloads import WORKLOADS

    w = WORKLOADS[name]
    if name not in _MODULES:
        _MODULES[name] = api.parse_file(w.path)
    try:
        machine = load_config(machine_name, jit_model=jit_model) if jit_model else machine_name
        r = run_one(_MODULES[name], w, sizes, config, functional, tiles=tiles, machine=machine)
        if jit_model:
            r["jit_model"] = jit_model
        if machine_name != "paper-64":
            r["machine"] = machine_name
    except Exception as e:  # a failing run is a row with its error, not the end of the bench
        if os.environ.get("INFS_DEBUG"):
            raise
        msg = f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"
        return {"workload": name, "config": config, "label": CONFIGS[config][0], "error": msg, "sizes": _fmt_sizes(sizes),
                "tiles": "x".join(map(str, tiles)) if tiles else "", "size_note": note,
                **({"jit_model": jit_model} if jit_model else {}), **({"machine": machine_name} if machine_name != "paper-64" else {})}  # fmt: skip
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
        what = f"{t[0]} {CONFIGS[t[3]][0]}" + (f" tiles {'x'.join(map(str, t[5]))}" if len(t) > 5 and t[5] else "") + (f" jit_model {t[6]}" if len(t) > 6 and t[6] else "") + (f" on {t[7]}" if len(t) > 7 else "")
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
        run_pool(_task, tasks, jobs, done)
    return [r for r in out if r is not None]


def _progress(msg: str, quiet: bool) -> None:
    if not quiet:
        print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------
# analysis
# ---------------------------------------------------------------------------------


# ---------------------------------------------------------------------------------
# outputs
# ---------------------------------------------------------------------------------


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


FIG2_SIZES = {"paper": (2**14, 2**16, 2**18, 2**20), "small": (16, 256)}


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
    cal_rows = read_csv(out / "cal22.csv") if (out / "cal22.csv").exists() else []
    made = plots(repro.parent / "figures", rows, configs)
    made += fig2_plot(repro.parent / "figures", fig2_rows, rows)
    made += tile_plots(repro.parent / "figures", tile_rows)
    ours = headline(rows, configs, tile_rows)
    repro.write_text(reproduction_md(ours, rows, size_notes, configs, meta, tile_rows, [f"figures/{p.name}" for p in made], fig2_table(fig2_rows, rows),
                                     jit_table(jit_rows), cal_rows))  # fmt: skip
    if args.pointnet is not False:  # the study's rows of the earlier run, if it had them
        from infs.tools.bench_pointnet import append_reproduction

        append_reproduction(repro, out, None)
    _progress(f"wrote {', '.join(p.name for p in made)} and {repro} from {out / 'bench.csv'}", args.quiet)
    return 0


def main(argv: list[str] | None = None) -> int:
    from infs.workloads import WORKLOADS

    parser = argparse.ArgumentParser(prog=PROG, description="Run the workload suite under the paper's configurations.")
    parser.add_argument("--version", action=VersionAction, help="print infs's and xDSL's versions and exit")
    parser.add_argument("--workloads", help=f"comma-separated (default: all: {', '.join(WORKLOADS)})")
    parser.add_argument("--configs", default=",".join(CONFIGS), help=f"comma-separated of {', '.join(CONFIGS)}")
    parser.add_argument("--size-set", default="paper", choices=["paper", "small"])
    parser.add_argument("--out", default="benchmarks/out", help="directory for bench.csv and the plots")
    parser.add_argument("--reproduction", default=None, help="REPRODUCTION.md path (default: benchmarks/REPRODUCTION.md for the full "
                        "paper-size suite, else OUT/REPRODUCTION.md)")  # fmt: skip
    parser.add_argument("--tiles-study", default=None, help=f"workloads for Fig. 16/17, In-L3 runs (default: {','.join(TILE_STUDY)}; 'none' to skip)")
    parser.add_argument("--jit-study", default=None, help=f"JIT models for the Fig. 14 JIT-share study, Inf-S runs (default: {','.join(JIT_STUDY)}; 'none' to skip)")
    parser.add_argument("--cal22", default=None, help=f"workloads for the CAL'22 table on {CAL_MACHINE} (default: {','.join(CAL_SUITE)}; 'none' to "
                        "skip; run only with the configurations base, near, infs and infs_nojit)")  # fmt: skip
    parser.add_argument("--functional", action="store_true", help="compute data too (slow; default: analysis mode)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs in parallel (processes; default: one per CPU)")
    parser.add_argument("--replot", action="store_true", help="no runs: redo the plots and REPRODUCTION.md from OUT/bench.csv (and tiles.csv)")
    parser.add_argument("--pointnet", action=argparse.BooleanOptionalAction, default=None,
                        help="the PointNet++ case study (infs.tools.bench_pointnet) as a REPRODUCTION.md section (default: with the full paper-size suite)")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--suite", default="asplos", choices=["asplos", "nsc", "pimflow", "stream"],
                        help="asplos: ASPLOS'23 §8 (default); nsc: near-stream computing's figures (HPCA'22 §VII) on its 14 workloads "
                             "and Table V's machine, to benchmarks/REPRODUCTION-NSC.md (infs.tools.bench_nsc); pimflow: PIMFlow's figures (CGO'23 "
                             "§6) on its five CNNs and BERT, to benchmarks/REPRODUCTION-PIMFLOW.md (infs.tools.bench_pimflow); stream: "
                             "STREAM's figures (§VIII) on the crossbar simulator, to benchmarks/REPRODUCTION-STREAM.md (infs.tools.bench_stream)")  # fmt: skip
    args = parser.parse_args(argv)
    args.argv = list(argv if argv is not None else sys.argv[1:])
    if args.suite == "nsc":
        from infs.tools import bench_nsc

        picked = [s.strip() for s in args.workloads.split(",") if s.strip()] if args.workloads else None
        repro = Path(args.reproduction) if args.reproduction else Path("benchmarks/REPRODUCTION-NSC.md")
        return bench_nsc.run(picked, args.size_set, Path(args.out), repro, args.jobs, args.quiet, _git_head())
    if args.suite == "stream":
        from infs.tools import bench_stream

        repro = Path(args.reproduction) if args.reproduction else Path("benchmarks/REPRODUCTION-STREAM.md")
        return bench_stream.run(args.size_set, Path(args.out), repro, args.quiet, _git_head())
    if args.suite == "pimflow":
        from infs.tools import bench_pimflow

        picked = [s.strip() for s in args.workloads.split(",") if s.strip()] if args.workloads else None
        repro = Path(args.reproduction) if args.reproduction else Path("benchmarks/REPRODUCTION-PIMFLOW.md")
        return bench_pimflow.run(picked, args.size_set, Path(args.out), repro, args.jobs, args.quiet, _git_head())
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
        cal_for = CAL_SUITE if args.cal22 is None else tuple(s.strip() for s in args.cal22.split(",") if s.strip() and s.strip() != "none")
        for t in cal_for:
            if t not in CAL_SUITE:
                raise UsageError(f"unknown workload '{t}' in --cal22 (CAL'22's: {', '.join(CAL_SUITE)})")
        cal_for = tuple(t for t in cal_for if t in names) if {"base", "near", "infs", "infs_nojit"} <= set(configs) else ()
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
    ct = cal_tasks(cal_for, args.size_set, args.functional)
    tasks += ct
    _progress(f"{len(tasks)} runs ({ntiles} for the tile study, {len(jt)} for the JIT-model study, {len(ct)} for CAL'22), {args.jobs} job(s)", args.quiet)
    # longest first (their rows are put back in order below)
    sched = sorted(range(len(tasks)), key=lambda i: (-_WEIGHT.get(tasks[i][0], 0) * (1 if CONFIGS[tasks[i][3]][1] in ("in", "auto") else 0.1), i))
    main_n = len(tasks) - ntiles - nfig2 - len(jt) - len(ct)
    suite_task = lambda t: len(t) == 5 and t[2] != FIG2_NOTE  # noqa: E731
    ran = _run_tasks([tasks[i] for i in sched], args.jobs, args.quiet, on_row=lambda rs: write_csv(out / "bench.csv", [r for r in rs if not r.get("tiles") and r.get("size_note") not in (FIG2_NOTE, JIT_NOTE, CAL_NOTE)]))
    all_rows: list[dict] = [{}] * len(tasks)
    for i, r in zip(sched, ran):
        all_rows[i] = r
    order = [r for r, t in zip(all_rows, tasks) if suite_task(t)]
    fig2_rows = [r for r, t in zip(all_rows, tasks) if len(t) == 5 and t[2] == FIG2_NOTE and "error" not in r]
    tile_rows = tile_rows_of([r for r, t in zip(all_rows, tasks) if len(t) == 6])
    jit_rows = [r for r, t in zip(all_rows, tasks) if len(t) == 7]
    cal_rows = [r for r, t in zip(all_rows, tasks) if len(t) == 8]
    rows = {(r["workload"], r["config"]): r for r in order if "error" not in r}
    assert main_n == len(order)
    if tile_rows:
        write_csv(out / "tiles.csv", tile_rows)
    if fig2_rows:
        write_csv(out / "fig2.csv", fig2_rows)
    if jit_rows:
        write_csv(out / "jit.csv", jit_rows)
    if cal_rows:
        write_csv(out / "cal22.csv", cal_rows)
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
                                     jit_table(jit_rows), cal_rows))  # fmt: skip
    if args.pointnet if args.pointnet is not None else full_suite:
        from infs.tools.bench_pointnet import append_reproduction

        append_reproduction(repro, out, args.size_set, args.quiet)
    _progress(f"wrote {out / 'bench.csv'}, {', '.join(p.name for p in made)} and {repro} ({total / 60:.1f} min)", args.quiet)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
