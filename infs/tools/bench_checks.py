"""The paper's numbers as ``Check``s: the headline table's (for their gap causes) and the
further numbers of ASPLOS §8's text that REPRODUCTION.md reports beside them.

Takes the runs' rows (``(workload, configuration) -> row``, ``infs-bench``'s bench.csv) and
gives one ``bench_gaps.Check`` per number: paper, ours, and the metric that recomputes ours
from the rows, so that ``bench_gaps.quantified_cause`` can say where a gap sits.

The further numbers (``PAPER_MORE``), each defined as the paper's text defines it:

* Fig. 13 (asplos:504): "Inf-S converts most of the data movement into intra-tile shifts":
  intra-tile bytes over intra- plus inter-tile bytes of Inf-S, mean over the benchmarks
  that move tensors;
* Fig. 12 text (asplos:502): Near-L3's "29% traffic reduction" (1 - geomean of Near-L3 /
  Base NoC traffic, as the headline's Fig. 12 cuts) and "for kmeans Near-L3 introduces 2.6x
  extra NoC traffic" (Near-L3 / Base NoC traffic of kmeans, each its best implementation);
* Fig. 14 (asplos:514): the Inf-S cycle split, mean over benchmarks of each category's
  share: DRAM 26%, compute 32%, move 19%, final reduce 4.9%, and in memory 88% (DRAM +
  compute + move + JIT: 26 + 32 + 19 + 11); the JIT share of gauss_elim (51%) and stencil3d
  (50%), asplos:516;
* Fig. 15 (asplos:518): the outer product on Inf-S "achieves 4.4x speedup over Base", Base
  being the tiled inner product Fig. 15 normalizes to: geomean over mm, kmeans and
  gather_mlp of Base inner / Inf-S outer cycles;
* the chip area overhead, 6.52% (asplos:532), from ``bench_area`` for ``paper-64``.
"""

from __future__ import annotations

from typing import Any

from infs.tools.bench_gaps import Check, cut_geo, mean_share, ratio_of, speedup_geo

# key -> (the paper's value, where it says so)
PAPER_MORE: dict[str, tuple[float, str]] = {
    "fig13_intra_tile_share": (0.5, "asplos:504 'most of the data movement into intra-tile shifts'"),
    "fig12_near_cut_vs_base": (0.29, "asplos:502 'Near-L3 achieves 2.0x speedup and 29% traffic reduction'"),
    "fig12_kmeans_near_noc_over_base": (2.6, "asplos:502 'for kmeans Near-L3 introduces 2.6x extra NoC traffic'"),
    "fig14_dram_share": (0.26, "asplos:514 '26%, 32%, and 19% spent on DRAM transfer, computing, and tensor moving'"),
    "fig14_compute_share": (0.32, "asplos:514"),
    "fig14_move_share": (0.19, "asplos:514"),
    "fig14_final_reduce_share": (0.049, "asplos:514 '4.9% of cycles are spent waiting for the final reduction'"),
    "fig14_in_memory_share": (0.88, "asplos:514 'in-memory computing takes 88% of total cycles'"),
    "fig14_jit_share_gauss_elim": (0.51, "asplos:516 '51% for gauss_elim'"),
    "fig14_jit_share_stencil3d": (0.50, "asplos:516 '50% for stencil3d'"),
    "fig15_infs_outer_over_base_inner": (4.4, "asplos:518 'Overall, it achieves 4.4x speedup over Base'"),
    "area_overhead": (0.0652, "asplos:532 'the whole chip area overhead is 6.52%'"),
}

_DATAFLOW = (("mm", "mm_inner", "mm_outer"), ("kmeans", "kmeans_inner", "kmeans_outer"), ("gather_mlp", "gather_mlp_inner", "gather_mlp_outer"))


def _f(r: dict, k: str) -> float:
    try:
        return float(r.get(k, 0.0) or 0.0)
    except (TypeError, ValueError):
        return 0.0


def _pick(best: dict[str, dict[str, dict]], configs) -> dict[str, dict[str, dict]]:
    return {b: {c: r for c, r in cs.items() if c in configs} for b, cs in best.items() if any(c in cs for c in configs)}


def headline_checks(ours: dict[str, Any], rows: dict[tuple[str, str], dict]) -> list[Check]:
    """A ``Check`` per headline number of ``bench_report.PAPER`` that the runs give, with the
    metric ``bench_report.headline`` computes it by."""
    from infs.tools.bench_defs import CONFIGS, PAPER

    best = ours.get("_best", {})
    L = {c: v[0] for c, v in CONFIGS.items()}
    out: list[Check] = []

    def chk(key, what, **kw):
        if ours.get(key) is not None:
            out.append(Check(kw.pop("fig"), what, key, PAPER.get(key), ours.get(key), **kw))

    vi, vn = rows.get(("vec_add", "in")), rows.get(("vec_add", "near"))
    if vi and vn:
        chk("fig2_vec_add_in_over_near", "vec_add In-L3 over Near-L3", fig="Fig. 2", table={"vec_add": {"in": vi, "near": vn}},
            metric=speedup_geo("in", "near"), scan=(("in", "cycles"), ("near", "cycles")))  # fmt: skip
        if ours.get("fig2_vec_add_in_over_near_compute_only") is not None:

            def compute_only(t):
                i, n = t["vec_add"]["in"], t["vec_add"]["near"]
                core = _f(i, "total_cycles") - _f(i, "cyc_dram") - _f(i, "cyc_jit")
                return _f(n, "total_cycles") / core if core > 0 else None

            out.append(Check("Fig. 2", "vec_add In-L3 over Near-L3, compute only", "fig2_vec_add_in_over_near_compute_only", PAPER["fig2_vec_add_in_over_near"],
                             ours["fig2_vec_add_in_over_near_compute_only"], table={"vec_add": {"in": vi, "near": vn}}, metric=compute_only,
                             scan=(("in", "cycles"), ("near", "cycles"))))  # fmt: skip
    for key, num, den in (("fig11_infs_over_near", "infs", "near"), ("fig11_infs_over_base", "infs", "base"),
                          ("fig11_in_over_near", "in", "near"), ("fig11_near_over_base", "near", "base"),
                          ("fig11_nojit_over_infs", "infs_nojit", "infs")):  # fmt: skip
        chk(key, f"{L[num]} over {L[den]} (geomean)", fig="Fig. 11", table=_pick(best, (num, den)), metric=speedup_geo(num, den),
            scan=((num, "cycles"), (den, "cycles")))  # fmt: skip
    mx = [(b, cs["base"]["total_cycles"] / cs["infs"]["total_cycles"]) for b, cs in best.items() if "infs" in cs and "base" in cs and cs["infs"]["total_cycles"]]
    if mx:
        b, _ = max(mx, key=lambda x: x[1])
        chk("fig11_infs_over_base_max", "Inf-S over Base (max)", fig="Fig. 11", table={b: _pick(best, ("infs", "base"))[b]},
            metric=speedup_geo("infs", "base"), scan=(("infs", "cycles"), ("base", "cycles")), note=f"The max is {b}'s.")  # fmt: skip
    for key, den in (("fig12_noc_cut_vs_near", "near"), ("fig12_noc_cut_vs_base", "base")):
        chk(key, f"NoC traffic cut, Inf-S vs {L[den]}", fig="Fig. 12", fmt="{:.0%}", table=_pick(best, ("infs", den)), metric=cut_geo("infs", den),
            scan=(("infs", "traffic"), (den, "traffic")))  # fmt: skip
    chk("fig14_jit_share", "JIT share of Inf-S runtime (mean over benchmarks)", fig="Fig. 14", fmt="{:.1%}", table=_pick(best, ("infs",)), metric=mean_share("infs", ("jit",)),
        scan=(("infs", "cycles"),), own=("jit",))  # fmt: skip
    inf = _pick(best, ("infs",))
    chk("fig14_ops_in_memory", "ops computed in memory, Inf-S", fig="Fig. 14", fmt="{:.0%}", table=inf,
        metric=lambda t: sum(_f(cs["infs"], "elements_in_memory_fraction") for cs in t.values()) / len(t) if t else None)  # fmt: skip
    low = _pick(best, ("infs_lowerable",))
    if low:
        chk("fig14_ops_in_memory_lowerable", "ops computed in memory, Inf-S under the gem5 artifact's rule", fig="Fig. 14", fmt="{:.0%}", table=low,
            metric=lambda t: sum(_f(cs["infs_lowerable"], "elements_in_memory_fraction") for cs in t.values()) / len(t) if t else None)  # fmt: skip
    for key, c in (("fig18_in_energy_over_near", "in"), ("fig18_infs_energy_over_near", "infs")):
        chk(key, f"energy efficiency of {L[c]} over Near-L3 (geomean)", fig="Fig. 18", table=_pick(best, (c, "near")), metric=speedup_geo(c, "near", "energy_pj"),
            scan=((c, "energy"), ("near", "energy")))  # fmt: skip

    def lowering_mean(t):
        lows = [float(x) for cs in t.values() for x in str(cs["infs"].get("jit_lowering_ms", "")).split(";") if x]
        return 1e3 * sum(lows) / len(lows) if lows else None

    if ours.get("jit_us_per_lowering_mean") is not None:
        n = ours.get("jit_lowerings", 0)
        chk("jit_us_per_lowering_mean", "JIT wall time per lowering (µs)", fig="§8", fmt="{:.0f}", table=inf, metric=lowering_mean,
            note=f"Wall time of infs's Python JIT over {n} lowerings (the paper's is C++ on the simulated core; the charge "
                 "the simulation makes is `jit_model`'s, not this time).")  # fmt: skip
    for key, what in (("fig16_heuristic_vs_best", "layout heuristic vs best tile shape"), ("fig16_heuristic_over_no_tiling", "layout heuristic over no tiling")):
        chk(key, what, fig="Fig. 16/17", fmt="{:.3f}x", note="The per-workload terms are listed under the Fig. 16/17 table.")
    return out


def more_checks(rows: dict[tuple[str, str], dict], best: dict[str, dict[str, dict]]) -> list[Check]:
    """The further numbers of ASPLOS §8 (module docstring), those the runs give."""
    P = {k: v for k, (v, _) in PAPER_MORE.items()}
    out: list[Check] = []
    inf = _pick(best, ("infs",))
    # Fig. 13: intra- vs inter-tile shift bytes of Inf-S
    moving = {b: cs for b, cs in inf.items() if _f(cs["infs"], "traffic_intra_tile") + _f(cs["infs"], "traffic_inter_tile") > 0}
    if moving:

        def intra(t):
            xs = [_f(cs["infs"], "traffic_intra_tile") / (_f(cs["infs"], "traffic_intra_tile") + _f(cs["infs"], "traffic_inter_tile")) for cs in t.values()]
            return sum(xs) / len(xs) if xs else None

        v = intra(moving)
        per = ", ".join(f"{b} {intra({b: cs}):.0%}" for b, cs in moving.items())
        out.append(Check("Fig. 13", f"Inf-S data movement that is intra-tile shifts (bytes, mean over the {len(moving)} benchmarks that move tensors: {per})",
                         "fig13_intra_tile_share", P["fig13_intra_tile_share"], v, fmt="{:.0%}", paper_fmt="most (>{:.0%})",
                         table=moving, metric=intra, agrees=v > P["fig13_intra_tile_share"]))  # fmt: skip
    nb = _pick(best, ("near", "base"))
    if any("near" in cs and "base" in cs for cs in nb.values()):
        m = cut_geo("near", "base")
        out.append(Check("Fig. 12", "NoC traffic cut, Near-L3 vs Base (1 - geomean of Near-L3 / Base byte-hops)", "fig12_near_cut_vs_base",
                         P["fig12_near_cut_vs_base"], m(nb), fmt="{:.0%}", table=nb, metric=m,
                         scan=(("near", "traffic"), ("base", "traffic"))))  # fmt: skip
    if "kmeans" in nb and {"near", "base"} <= set(nb["kmeans"]):
        t = {"kmeans": nb["kmeans"]}
        m = ratio_of("near", "base", "noc_traffic")
        which = f"{nb['kmeans']['near']['workload']} / {nb['kmeans']['base']['workload']}"
        out.append(Check("Fig. 12", f"kmeans NoC traffic, Near-L3 over Base (best implementations: {which})", "fig12_kmeans_near_noc_over_base",
                         P["fig12_kmeans_near_noc_over_base"], m(t), table=t, metric=m, scan=(("near", "traffic"), ("base", "traffic"))))  # fmt: skip
    if inf:
        for key, cats, what in (("fig14_dram_share", ("dram",), "DRAM (transfer and transposition)"), ("fig14_compute_share", ("compute",), "compute"),
                                ("fig14_move_share", ("move",), "tensor moves"), ("fig14_final_reduce_share", ("final_reduce",), "final reduce"),
                                ("fig14_in_memory_share", ("dram", "compute", "move", "jit"), "memory (DRAM + compute + move + JIT)")):  # fmt: skip
            m = mean_share("infs", cats)
            out.append(Check("Fig. 14", f"Inf-S cycles in {what} (mean over benchmarks)", key, P[key], m(inf), fmt="{:.1%}",
                             table=inf, metric=m, scan=(("infs", "cycles"),), own=cats))  # fmt: skip
        for b in ("gauss_elim", "stencil3d"):
            if b in inf:
                t = {b: inf[b]}
                m = mean_share("infs", ("jit",))
                key = f"fig14_jit_share_{b}"
                r = inf[b]["infs"]
                note = (f"Inf-S ran {b}'s regions {r.get('regions_in', 0)}/{r.get('regions_near', 0)}/{r.get('regions_core', 0)} in/near/core and "
                        f"lowered {int(_f(r, 'jit_misses'))} tDFGs (not memoized) for {int(_f(r, 'cyc_jit')):,} cycles"
                        + (f"; the first region kept out of memory: {r['not_in_reason']}" if r.get("not_in_reason") else "") + ".")  # fmt: skip
                out.append(Check("Fig. 14", f"JIT share of {b}'s Inf-S cycles", key, P[key], m(t), fmt="{:.1%}", table=t, metric=m,
                                 scan=(("infs", "cycles"),), note=note, own=("jit",)))  # fmt: skip
    t = {b: {"base": rows[(i, "base")], "infs": rows[(o, "infs")]} for b, i, o in _DATAFLOW if (i, "base") in rows and (o, "infs") in rows}
    if t:
        m = speedup_geo("infs", "base")
        out.append(Check("Fig. 15", f"Inf-S outer product over Base inner product (geomean over {', '.join(t)})", "fig15_infs_outer_over_base_inner",
                         P["fig15_infs_outer_over_base_inner"], m(t), table=t, metric=m, scan=(("infs", "cycles"), ("base", "cycles")),
                         labels={"infs": "Inf-S (outer)", "base": "Base (inner)"}))  # fmt: skip
    from infs.hardware import load_config
    from infs.tools.bench_area import area, describe

    a = area(load_config("paper-64"))
    out.append(Check("§8", "chip area overhead of in-/near-memory logic, `paper-64` (`infs/tools/bench_area.py`)", "area_overhead",
                     P["area_overhead"], a.overhead, fmt="{:.2%}", note=describe(a, "paper-64")))  # fmt: skip
    return out


def checks_table(title: str, intro: str, checks: list[Check]) -> list[str]:
    """A markdown section: the checks' rows under the headline table's columns."""
    if not checks:
        return []
    return [title, "", intro, "", "| figure | quantity | paper | ours | ours / paper |", "|---|---|---:|---:|---:|", *(c.md() for c in checks)]


def more_table(checks: list[Check]) -> list[str]:
    return checks_table("## Further numbers of the paper's text (Figs. 12-15, §8)",
                        "Each as ASPLOS §8 defines it (`infs/tools/bench_checks.py` says where); from the same runs as the headline table, "
                        "each benchmark its best implementation per configuration but Fig. 15's (outer product on Inf-S, inner on Base).",
                        checks)  # fmt: skip

