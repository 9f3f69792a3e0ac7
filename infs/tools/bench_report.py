"""``infs-bench``'s report: the paper's headline numbers computed from the runs' rows and
``benchmarks/REPRODUCTION.md`` written from them (ASPLOS'23 §8, Figs. 2 and 11-18).

Takes the rows ``infs-bench`` produces (one dict per run: cycles by category, traffic, NoC
bytes, energy, regions per mode; ``infs.tools.infs_bench.run_one``) and gives the headline
values (``headline``), the markdown sections (``reproduction_md``, ``tile_table``,
``jit_table``, ``fig2_table``) and the generated explanations of the gaps
(``why_they_differ``, ``observations``).  Pure functions of the rows: no run happens here,
so ``infs-bench --replot`` redoes the file from the CSVs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from infs.tools.bench_defs import COMPONENT, CONFIGS, MICRO, PAPER, SUITE, energy_classes as _energy_classes  # noqa: F401 -- re-exported


def repo_relative(msg: str) -> str:
    """A runtime message with the checkout's absolute path taken out (the reports are read elsewhere)."""
    return msg.replace(f"{Path(__file__).resolve().parents[2]}/", "")


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
    lowerable = [b["infs_lowerable"] for b in best.values() if "infs_lowerable" in b]
    if lowerable:  # the same mean under the artifact's rule (``bench_defs.POLICY``)
        ours["fig14_ops_in_memory_lowerable"] = sum(r["elements_in_memory_fraction"] for r in lowerable) / len(lowerable)
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


def _f(x, fmt="{:.2f}") -> str:
    return "n/a" if x is None or (isinstance(x, float) and not math.isfinite(x)) else fmt.format(x)


def reproduction_md(ours: dict[str, Any], rows: dict[tuple[str, str], dict], size_notes: dict[str, tuple[str, str]],
                    configs: list[str], meta: dict[str, Any], tile_rows: list[dict], plot_paths: Sequence[str] = (),
                    fig2: Sequence[str] = (), jit: Sequence[str] = (), cal_rows: Sequence[dict] = ()) -> str:  # fmt: skip
    from infs.tools.bench_cal22 import cal_table
    from infs.tools.bench_checks import more_checks, more_table

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
    row("Fig. 14", "ops (elements) computed in memory, Inf-S under the gem5 artifact's rule (`--policy lowerable`: in memory whenever it lowers)", "fig14_ops_in_memory_lowerable", fmt="{:.0%}")
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
        "of Inf-S cycles (the paper's 88% counts the JIT instead of the final reduce, 26 + 32 + 19 + 11%: its row is in the next table)."
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
    more = more_table(more_checks(rows, ours["_best"]))
    if more:
        lines.extend(more)
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
    cal = cal_table(list(cal_rows))
    if cal:
        lines.extend(cal)
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
    add("Generated from these runs: for each number of the tables above more than 25% away from the paper's (ours / paper "
        "outside 0.8-1.25, or a qualitative claim that does not hold), where the difference sits. The benchmarks furthest "
        "from the paper's and where their cycles go, each category named by the model component that charges it; then the "
        "single statistic (cycle category, NoC traffic kind or energy class of one configuration) whose scaling, all else "
        "equal, makes ours equal the paper's, with the factor and its share; and ours without the benchmark furthest off. "
        "These are counterfactuals on the recorded statistics: they locate the gap in our model, not in the paper's.")  # fmt: skip
    add("")
    for line in why_they_differ(ours, rows, configs, cal_rows):
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


def why_they_differ(ours: dict[str, Any], rows: dict[tuple[str, str], dict], configs, cal_rows: Sequence[dict] = ()) -> list[str]:
    """The generated explanation of every gap of REPRODUCTION.md's tables (generated, so that it
    cannot go stale): each number of the headline table, of the further numbers and of the
    CAL'22 table more than 25% from the paper's gets its detail (the benchmarks furthest off,
    where their cycles or energy go) and ``bench_gaps.quantified_cause``; then the Fig. 15
    preferences that disagree, Inf-S slower than In-L3 or Near-L3, and Fig. 11's order."""
    from infs.tools.bench_cal22 import cal_checks
    from infs.tools.bench_checks import headline_checks, more_checks

    best = best_by_benchmark(rows, configs)
    detail = _gap_details(ours, rows, best)
    out: list[str] = []
    for chk in headline_checks(ours, rows) + more_checks(rows, best) + cal_checks(list(cal_rows)):
        if not chk.gap:
            continue
        line = detail.get(chk.key)
        if line is None:
            r = chk.ratio
            line = (f"**{chk.key}** ({chk.fig}, {chk.what}): paper {'-' if chk.paper is None else chk.cell(chk.paper, chk.paper_fmt)}, "
                    f"ours {chk.cell(chk.ours)}" + (f" ({r:.2f} of the paper)." if r is not None and chk.agrees is None else "."))  # fmt: skip
        cause = chk.cause()
        out.append(f"{line} {cause}" if cause else line)
    out += _qualitative_gaps(ours, best)
    if not out:
        out.append("Every number of the tables above is within 25% of the paper's.")
    return out


def _gap_details(ours: dict[str, Any], rows: dict[tuple[str, str], dict], best: dict[str, dict[str, dict]]) -> dict[str, str]:
    """key -> the sentence naming a gap of the headline table and the benchmarks behind it
    (the quantified cause is appended by ``why_they_differ``)."""
    from infs.sim.stats import CYCLE_KEYS

    out: dict[str, str] = {}
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
        out[key] = line
    # JIT share (Fig. 14)
    js, p = ours.get("fig14_jit_share"), PAPER["fig14_jit_share"]
    if js is not None and math.isfinite(js) and not 0.8 <= js / p <= 1.25:
        runs = [b["infs"] for b in best.values() if "infs" in b]
        lowerings = sum(int(r.get("jit_misses", 0) or 0) for r in runs)
        out["fig14_jit_share"] = (f"**fig14_jit_share**: paper {p:.0%}, ours {js:.1%}. The Inf-S runs lowered {lowerings:,} tDFGs "
                   f"(not memoized) and were charged {sum(int(r.get('cyc_jit', 0) or 0) for r in runs):,} cycles for them: "
                   f"{COMPONENT['jit']}, per command by default as the authors' gem5 model charges it "
                   "(see `benchmarks/MODEL.md`); the JIT-model section below gives the share under each named model.")  # fmt: skip
    # ops in memory (Fig. 14)
    om, p = ours.get("fig14_ops_in_memory"), PAPER["fig14_ops_in_memory"]
    if om is not None and math.isfinite(om) and not 0.8 <= om / p <= 1.25:
        missed = sorted(((float(b["infs"]["elements_in_memory_fraction"]), name, b["infs"]) for name, b in best.items() if "infs" in b))
        parts = [f"{name} {f:.0%} in memory ({r.get('not_in_reason') or 'every region in memory'})" for f, name, r in missed if f < 0.9]
        out["fig14_ops_in_memory"] = (f"**fig14_ops_in_memory**: paper {p:.0%}, ours {om:.0%}. Benchmarks with under 90% of their elements in "
                                      "memory under Inf-S, with the runtime's reason for the first region it kept out (Eq. 2, §4.3, in "
                                      "`infs/runtime/driver.py` `decide`): " + "; ".join(parts) + ".")  # fmt: skip
    for line in _energy_gaps(ours, best):
        out[line.split("**")[1]] = line
    return out


def _qualitative_gaps(ours: dict[str, Any], best: dict[str, dict[str, dict]]) -> list[str]:
    """The gaps that are not one number: Fig. 15 preferences that disagree with the paper's,
    Inf-S slower than the faster of In-L3 and Near-L3, Fig. 11's geomean order."""
    out: list[str] = []
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
    order = _geomean_order(best)
    if order:
        out.append(order)
    return out


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


def _shape(tiles) -> tuple[int, ...]:
    return tuple(int(x) for x in str(tiles).split("x") if x.strip().isdigit())


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
