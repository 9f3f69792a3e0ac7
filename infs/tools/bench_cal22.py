"""The CAL'22 paper's evaluation (Infinity Stream, IEEE CAL 2022, §2) on ``cal-64``: its runs
and REPRODUCTION.md's second table.

Takes the workload names ``infs-bench`` runs and gives the runs CAL'22 needs (``cal_tasks``:
tuples for ``infs_bench._task``); takes their rows and gives the table (``cal_checks``,
``cal_table``).  CAL'22's configurations (cal:137-139), each on ``cal-64`` (CAL Table 2):

* **Base** and **Near-L3** as in ASPLOS (runtime modes ``core`` and ``near``);
* **Inf-S** -- the hardware lowering pipeline, "10 cycles/cmd" (``jit_model`` ``hardware``);
* **Inf-S_fixed** -- "input and hardware parameters are known to precompile tDFG (no runtime
  lowering)": the JIT not charged (``infs_nojit``);
* **Inf-S_soft** -- "a runtime library to lower tDFG into bit-serial commands (about 1k
  cycles per command)" (``jit_model`` ``software``).

CAL evaluates "9 dense OpenMP workloads" at "a 2048x2048 matrix or equivalent sized input"
and names stencils, gauss_elim, conv3D and mm_inner among its bars; kmeans and gather_mlp
appear nowhere in it.  The nine here: the seven single-implementation benchmarks of the
ASPLOS suite and mm's inner and outer product as two workloads (mm_inner is a bar of CAL's
Fig. 7), at the ASPLOS Table 3 sizes (2k x 2k for the 2-D ones).  Its numbers (``CAL22``)
are geomeans over those nine (speedups) or means (cycle shares), as ASPLOS's.
"""

from __future__ import annotations

from infs.tools.bench_gaps import Check, cut_geo, mean_share, ratio_of, speedup_geo

CAL_NOTE = "CAL'22 study"
CAL_MACHINE = "cal-64"
CAL_SUITE = ("stencil1d", "stencil2d", "stencil3d", "dwt2d", "gauss_elim", "conv2d", "conv3d", "mm_inner", "mm_outer")
# CAL configuration -> (infs-bench configuration, JIT model of the machine, label)
CAL_CONFIGS: dict[str, tuple[str, str | None, str]] = {
    "base": ("base", None, "Base"),
    "near": ("near", None, "Near-L3"),
    "infs": ("infs", "hardware", "Inf-S"),
    "infs_fixed": ("infs_nojit", "hardware", "Inf-S_fixed"),
    "infs_soft": ("infs", "software", "Inf-S_soft"),
}

# CAL'22's numbers (line numbers of infinity-stream-cal22.txt)
CAL22: dict[str, tuple[float, str]] = {
    "cal22_infs_over_near": (4.5, "cal:154 'Inf-S yields speedup close to Inf-S_fixed (4.5x)'"),
    "cal22_fixed_over_near": (4.6, "cal:154 'Inf-S_fixed achieves the highest 4.6x speedup'"),
    "cal22_soft_over_near": (2.5, "cal:154 'Inf-S_soft still achieves 2.5x speedup over Near-L3'"),
    "cal22_near_over_base": (1.18, "cal:143 'Near-L3 achieves 18% speedup'"),
    "cal22_near_cut_vs_base": (0.24, "cal:143 'and 24% traffic reduction'"),
    "cal22_infs_cut_vs_near": (0.52, "cal:7 '52% traffic reduction over a state-of-the-art near-memory computing technique'"),
    "cal22_conv3d_near_extra_noc": (1.10, "cal:147 'for conv3D Near-L3 introduces 110% extra NoC traffic'"),
    "cal22_in_memory_share": (0.86, "cal:149 'in-memory computing takes 86% of total cycles'"),
    "cal22_dram_share": (0.44, "cal:149 'with 44%, 20%, and 20% spent in transposing, computing, and tensor moving'"),
    "cal22_compute_share": (0.20, "cal:149"),
    "cal22_move_share": (0.20, "cal:149"),
    "cal22_wait_share": (0.14, "cal:149 '14% cycles are spent waiting for synchronization or near-memory streams'"),
    "cal22_ops_in_memory": (0.99, "cal:149 'nearly all computation (99%) are performed in-memory'"),
}


def cal_tasks(workloads, size_set: str, functional: bool = False) -> list[tuple]:
    """The study's runs: every CAL workload among ``workloads`` under every CAL configuration
    on ``cal-64`` (``infs_bench._task``'s arguments: 8-tuples, the last the machine)."""
    from infs.workloads import WORKLOADS

    # the sizes of infs_bench.bench_sizes (Table 3, or the test sizes), which imports this module
    return [(name, WORKLOADS[name].sizes(size_set), CAL_NOTE, cfg, functional, None, jit, CAL_MACHINE)
            for cfg, jit, _ in CAL_CONFIGS.values() for name in CAL_SUITE if name in workloads]  # fmt: skip


def cal_key(r: dict) -> str:
    """The CAL configuration of a study row."""
    for k, (cfg, jit, _) in CAL_CONFIGS.items():
        if r.get("config") == cfg and (jit is None or r.get("jit_model") == jit):
            return k
    return str(r.get("config"))


def cal_table_rows(cal_rows: list[dict]) -> dict[str, dict[str, dict]]:
    """workload -> CAL configuration -> row (the failed runs left out)."""
    out: dict[str, dict[str, dict]] = {}
    for r in cal_rows:
        if "error" not in r and r.get("workload") in CAL_SUITE:
            out.setdefault(r["workload"], {})[cal_key(r)] = r
    return {w: out[w] for w in CAL_SUITE if w in out}


def cal_checks(cal_rows: list[dict]) -> list[Check]:
    """CAL'22's numbers against ours (module docstring)."""
    t = cal_table_rows(cal_rows)
    if not t:
        return []
    P = {k: v for k, (v, _) in CAL22.items()}
    labels = {k: lab for k, (_, _, lab) in CAL_CONFIGS.items()}
    out: list[Check] = []

    def add(key, fig, what, metric, table, fmt="{:.2f}x", scan=(), own=()):
        v = metric(table) if table else None
        if v is not None:
            out.append(Check(fig, what, key, P[key], v, fmt=fmt, table=table, metric=metric, scan=scan, labels=labels, own=own))

    def sub(*cs):
        return {w: {c: r for c, r in by.items() if c in cs} for w, by in t.items() if all(c in by for c in cs)}

    for key, num, what in (("cal22_infs_over_near", "infs", "Inf-S (hardware lowering, 10 cycles/cmd) over Near-L3"),
                           ("cal22_fixed_over_near", "infs_fixed", "Inf-S_fixed (no runtime lowering) over Near-L3"),
                           ("cal22_soft_over_near", "infs_soft", "Inf-S_soft (runtime library, 1,000 cycles/cmd) over Near-L3")):  # fmt: skip
        add(key, "Fig. 6", what + " (geomean)", speedup_geo(num, "near"), sub(num, "near"), scan=((num, "cycles"), ("near", "cycles")))
    add("cal22_near_over_base", "Fig. 6", "Near-L3 over Base (geomean)", speedup_geo("near", "base"), sub("near", "base"),
        scan=(("near", "cycles"), ("base", "cycles")))  # fmt: skip
    add("cal22_near_cut_vs_base", "Fig. 6", "NoC traffic cut, Near-L3 vs Base (1 - geomean of byte-hops)", cut_geo("near", "base"), sub("near", "base"),
        fmt="{:.0%}", scan=(("near", "traffic"), ("base", "traffic")))  # fmt: skip
    add("cal22_infs_cut_vs_near", "abstract", "NoC traffic cut, Inf-S vs Near-L3", cut_geo("infs", "near"), sub("infs", "near"), fmt="{:.0%}",
        scan=(("infs", "traffic"), ("near", "traffic")))  # fmt: skip
    c3 = sub("near", "base")
    if "conv3d" in c3:
        r = ratio_of("near", "base", "noc_traffic")
        add("cal22_conv3d_near_extra_noc", "Fig. 6", "conv3d: Near-L3's NoC traffic over Base's, minus 1 (extra traffic)",
            lambda tb: None if r(tb) is None else r(tb) - 1, {"conv3d": c3["conv3d"]}, fmt="{:+.0%}", scan=(("near", "traffic"), ("base", "traffic")))  # fmt: skip
    inf = sub("infs")
    for key, cats, what in (("cal22_in_memory_share", ("dram", "jit", "move", "compute"), "memory (transposing + JIT + move + compute)"),
                            ("cal22_dram_share", ("dram",), "transposing (DRAM)"), ("cal22_compute_share", ("compute",), "compute"),
                            ("cal22_move_share", ("move",), "tensor moves"),
                            ("cal22_wait_share", ("final_reduce", "near_mem", "core"), "near-memory streams and the cores (final reduce + near + core; our syncs are in move)")):  # fmt: skip
        add(key, "Fig. 7", f"Inf-S cycles in {what} (mean over workloads)", mean_share("infs", cats), inf, fmt="{:.1%}", scan=(("infs", "cycles"),), own=cats)
    add("cal22_ops_in_memory", "Fig. 7", "ops (elements) computed in memory, Inf-S (mean)",
        lambda tb: sum(float(by["infs"].get("elements_in_memory_fraction", 0) or 0) for by in tb.values()) / len(tb) if tb else None, inf, fmt="{:.0%}")  # fmt: skip
    return out


def cal_table(cal_rows: list[dict]) -> list[str]:
    """REPRODUCTION.md's CAL'22 section: the table, then the per-workload speedups."""
    checks = cal_checks(cal_rows)
    if not checks:
        return []
    from infs.tools.bench_checks import checks_table

    t = cal_table_rows(cal_rows)
    out = checks_table(f"## CAL'22 (Infinity Stream, IEEE CAL 2022) on `{CAL_MACHINE}`",
                       f"CAL'22's configurations on its Table 2 machine (`{CAL_MACHINE}`): Base, Near-L3, Inf-S (the hardware lowering "
                       "pipeline, 10 cycles per command), Inf-S_fixed (precompiled: no JIT charged) and Inf-S_soft (a runtime library, "
                       f"1,000 cycles per command), on its nine workloads ({', '.join(t)}) at the ASPLOS Table 3 sizes "
                       "(`infs/tools/bench_cal22.py` says why these nine). Geomeans of speedups, means of cycle shares.",
                       checks)  # fmt: skip
    cs = [c for c in CAL_CONFIGS if c != "base"]
    out += ["", "Per workload, speedup over Base:", "", "| workload | Base cycles | " + " | ".join(CAL_CONFIGS[c][2] for c in cs) + " | Inf-S regions in/near/core | Inf-S JIT share | Inf-S_soft JIT share |",
            "|---|---:|" + "---:|" * len(cs) + "---|---:|---:|"]  # fmt: skip
    for w, by in t.items():
        if "base" not in by:
            continue
        base = int(by["base"]["total_cycles"])
        cells = [f"{base / by[c]['total_cycles']:.2f}x" if c in by and by[c]["total_cycles"] else "-" for c in cs]
        inf, soft = by.get("infs"), by.get("infs_soft")
        reg = f"{inf['regions_in']}/{inf['regions_near']}/{inf['regions_core']}" if inf else "-"
        js = lambda r: f"{r['cyc_jit'] / r['total_cycles']:.1%}" if r and r["total_cycles"] else "-"  # noqa: E731
        out.append(f"| {w} | {base:,} | " + " | ".join(cells) + f" | {reg} | {js(inf)} | {js(soft)} |")
    return out

