"""infs-bench's report pieces on synthetic rows: the checks against the paper, their quantified
gap causes, the CAL'22 table, the area model (no runs; the real small run is test_bench.py's)."""

from __future__ import annotations

import math

import pytest

from infs.sim.stats import CYCLE_KEYS, ENERGY_KEYS
from infs.tools import bench_area, bench_cal22, bench_checks, bench_gaps, bench_report


def row(workload, config, cyc=None, traffic=None, energy=None, mode=None, regions=(1, 0, 0), in_memory=1.0, **extra):
    """A bench.csv row with the given cycle categories, NoC traffic kinds and energy classes."""
    cyc = cyc or {"core": 100}
    traffic = traffic or {"noc_data": 10.0}
    energy = energy or {"static": 1.0}
    r = {"workload": workload, "config": config, "mode": mode or bench_report.CONFIGS.get(config, ("", config))[1],
         "total_cycles": sum(cyc.values()), "noc_traffic": sum(v for k, v in traffic.items() if k.startswith("noc")),
         "energy_pj": sum(energy.values()), "regions": sum(regions), "regions_in": regions[0], "regions_near": regions[1],
         "regions_core": regions[2], "elements_in_memory_fraction": in_memory, "jit_misses": 1, "not_in_reason": ""}  # fmt: skip
    r.update({f"cyc_{k}": cyc.get(k, 0) for k in CYCLE_KEYS})
    r.update({f"traffic_{k}": traffic.get(k, 0.0) for k in ("intra_tile", "inter_tile", "noc_inter_tile", "noc_data", "noc_control", "readout")})
    r.update({f"energy_{k}": energy.get(k, 0.0) for k in ENERGY_KEYS})
    r.update(extra)
    return r


def test_scale_needed_for_the_jit_share_is_the_analytic_one():
    # one run, 10 JIT cycles of 1,000: f * 10 / (990 + f * 10) = 0.11  =>  f = 0.11 * 990 / (0.89 * 10)
    t = {"x": {"infs": row("x", "infs", {"jit": 10, "compute": 990})}}
    m = bench_gaps.mean_share("infs", ("jit",))
    f = bench_gaps.solve_scale(m, t, "infs", "cycles", "jit", 0.11)
    assert f == pytest.approx(0.11 * 990 / (0.89 * 10), rel=1e-6)
    chk = bench_gaps.Check("Fig. 14", "JIT share", "k", 0.11, m(t), fmt="{:.1%}", table=t, metric=m, scan=(("infs", "cycles"),), own=("jit",))
    assert chk.gap and chk.ratio == pytest.approx(0.01 / 0.11)
    text = chk.cause()
    assert "`jit` is 1.0% of Inf-S's cycles" in text and f"{f:.3g}x the model's charge" in text
    assert f"{f * 10:,.0f} cycles per lowered command instead of 10" in text
    # a share no factor reaches: the statistic is absent
    assert bench_gaps.solve_scale(m, {"x": {"infs": row("x", "infs", {"compute": 5})}}, "infs", "cycles", "jit", 0.11) is None


def test_removal_counterfactual_names_the_category_without_which_ours_is_the_papers():
    # Fig. 2's shape: In-L3 is 90% transposition; without it In-L3 over Near-L3 is 2,000 / 100 = 20x (paper 21x)
    t = {"vec_add": {"in": row("vec_add", "in", {"dram": 900, "compute": 100}), "near": row("vec_add", "near", {"near_mem": 2000})}}
    m = bench_gaps.speedup_geo("in", "near")
    chk = bench_gaps.Check("Fig. 2", "vec_add", "fig2", 21.0, m(t), table=t, metric=m, scan=(("in", "cycles"), ("near", "cycles")))
    assert chk.ours == pytest.approx(2.0) and chk.gap
    assert "Without In-L3's `dram` (90.0% of its cycles), ours would be 20.00x." in chk.cause()


def test_leave_one_out_names_the_benchmark_furthest_off():
    t = {b: {"infs": row(b, "infs", {"compute": 10}), "base": row(b, "base", {"core": 50})} for b in ("a", "b")}
    t["c"] = {"infs": row("c", "infs", {"compute": 100}), "base": row("c", "base", {"core": 50})}
    m = bench_gaps.speedup_geo("infs", "base")
    chk = bench_gaps.Check("Fig. 11", "x", "k", 5.0, m(t), table=t, metric=m)
    assert chk.ours == pytest.approx((5 * 5 * 0.5) ** (1 / 3))
    assert "Without c, ours would be 5.00x" in chk.cause()


def test_check_rows_and_qualitative_claims():
    c = bench_gaps.Check("Fig. 13", "intra", "k", 0.5, 0.7, fmt="{:.0%}", paper_fmt="most (>{:.0%})", agrees=True)
    assert c.md() == "| Fig. 13 | intra | most (>50%) | 70% | agrees |" and not c.gap
    d = bench_gaps.Check("Fig. 13", "intra", "k", 0.5, 0.3, fmt="{:.0%}", agrees=False)
    assert d.gap and d.md().endswith("| **disagrees** |")
    e = bench_gaps.Check("§8", "x", "k", 2.0, 2.4)
    assert not e.gap and e.md().endswith("| 1.20 |")  # within 0.8-1.25
    assert bench_gaps.Check("§8", "x", "k", 2.0, None).md().endswith("| n/a | n/a |")


def _suite_rows():
    """Every Fig. 11 implementation under every configuration, with distinct made-up numbers."""
    rows = {}
    for i, (bench, impls) in enumerate(bench_report.SUITE.items()):
        for j, w in enumerate(impls):
            k = 1 + i + 3 * j
            rows[(w, "base")] = row(w, "base", {"core": 1000 * k}, {"noc_data": 900.0 * k, "noc_control": 100.0 * k}, {"static": 50.0 * k})
            rows[(w, "near")] = row(w, "near", {"near_mem": 600 * k}, {"noc_data": 300.0 * k, "noc_control": 200.0 * k}, {"static": 40.0 * k})
            rows[(w, "in")] = row(w, "in", {"dram": 40 * k, "compute": 200 + k, "move": 30 * k, "jit": 5},
                                  {"noc_inter_tile": 20.0 * k, "noc_data": 30.0, "noc_control": 5.0}, {"compute": 20.0, "static": 10.0 * k},
                                  traffic_intra_tile=80.0 * k, traffic_inter_tile=20.0)  # fmt: skip
            for c in ("infs", "infs_nojit", "infs_noegraph"):
                jit = 0 if c == "infs_nojit" else 5
                rows[(w, c)] = row(w, c, {"dram": 30 * k, "compute": 150 + k, "move": 20 * k, "jit": jit, "final_reduce": k, "near_mem": 10},
                                   {"noc_inter_tile": 10.0 * k, "noc_data": 20.0, "noc_control": 5.0}, {"compute": 15.0, "static": 8.0 * k},
                                   regions=(3, 1, 0), in_memory=0.9, traffic_intra_tile=70.0 * k, traffic_inter_tile=30.0,
                                   jit_lowering_ms="0.5;1.5")  # fmt: skip
    return rows


def test_headline_checks_recompute_the_headline_values():
    rows = _suite_rows()
    rows[("vec_add", "in")] = row("vec_add", "in", {"dram": 800, "compute": 100, "jit": 10})
    rows[("vec_add", "near")] = row("vec_add", "near", {"near_mem": 1800})
    configs = list(bench_report.CONFIGS)
    ours = bench_report.headline(rows, configs, [])
    checks = bench_checks.headline_checks(ours, rows)
    keys = {c.key for c in checks}
    assert {"fig11_infs_over_near", "fig11_infs_over_base", "fig11_infs_over_base_max", "fig12_noc_cut_vs_near", "fig14_jit_share",
            "fig14_ops_in_memory", "fig18_infs_energy_over_near", "jit_us_per_lowering_mean", "fig2_vec_add_in_over_near",
            "fig2_vec_add_in_over_near_compute_only"} <= keys  # fmt: skip
    for c in checks:
        if c.metric is not None:  # the metric the causes perturb is the headline's own number
            assert c.metric(c.table) == pytest.approx(c.ours, rel=1e-12), c.key


def test_more_checks_follow_the_papers_definitions():
    rows = _suite_rows()
    ours = bench_report.headline(rows, list(bench_report.CONFIGS), [])
    best = ours["_best"]
    by = {c.key: c for c in bench_checks.more_checks(rows, best)}
    assert set(by) == set(bench_checks.PAPER_MORE)
    inf = [b["infs"] for b in best.values()]
    mean = lambda f: sum(f(r) for r in inf) / len(inf)  # noqa: E731
    assert by["fig14_dram_share"].ours == pytest.approx(mean(lambda r: r["cyc_dram"] / r["total_cycles"]))
    assert by["fig14_in_memory_share"].ours == pytest.approx(
        mean(lambda r: (r["cyc_dram"] + r["cyc_compute"] + r["cyc_move"] + r["cyc_jit"]) / r["total_cycles"]))
    assert by["fig13_intra_tile_share"].ours == pytest.approx(
        mean(lambda r: r["traffic_intra_tile"] / (r["traffic_intra_tile"] + r["traffic_inter_tile"])))
    assert by["fig13_intra_tile_share"].agrees is True
    near_base = [b["near"]["noc_traffic"] / b["base"]["noc_traffic"] for b in best.values()]
    assert by["fig12_near_cut_vs_base"].ours == pytest.approx(1 - bench_report.geomean(near_base))
    km = best["kmeans"]
    assert by["fig12_kmeans_near_noc_over_base"].ours == pytest.approx(km["near"]["noc_traffic"] / km["base"]["noc_traffic"])
    # Fig. 15: Base's inner product over Inf-S's outer, whichever is each configuration's best
    f15 = [rows[(f"{b}_inner", "base")]["total_cycles"] / rows[(f"{b}_outer", "infs")]["total_cycles"] for b in ("mm", "kmeans", "gather_mlp")]
    assert by["fig15_infs_outer_over_base_inner"].ours == pytest.approx(bench_report.geomean(f15))
    assert by["area_overhead"].ours == pytest.approx(0.0652)


def test_why_they_differ_covers_every_gap_of_every_table():
    rows = _suite_rows()
    configs = list(bench_report.CONFIGS)
    ours = bench_report.headline(rows, configs, [])
    cal = [dict(r, jit_model=jit, machine="cal-64") for (w, c), r in rows.items() if w in bench_cal22.CAL_SUITE
           for k, (cfg, jit, _) in bench_cal22.CAL_CONFIGS.items() if c == cfg]  # fmt: skip
    lines = bench_report.why_they_differ(ours, rows, configs, cal)
    checks = bench_checks.headline_checks(ours, rows) + bench_checks.more_checks(rows, ours["_best"]) + bench_cal22.cal_checks(cal)
    gaps = [c for c in checks if c.gap]
    assert len(gaps) > 10
    for c in gaps:
        mine = [ln for ln in lines if ln.startswith(f"**{c.key}**")]
        assert len(mine) == 1, c.key
        if c.metric is not None and c.scan:  # a number, not only words: a factor or a value without something
            assert any(s in mine[0] for s in ("x the model's charge", "ours would be", "No single statistic")), mine[0]
    assert not [c for c in checks if not c.gap and any(ln.startswith(f"**{c.key}**") for ln in lines)]


def test_cal22_tasks_and_configurations():
    tasks = bench_cal22.cal_tasks(["stencil2d", "mm_inner", "kmeans_outer"], "small")
    assert len(tasks) == 2 * len(bench_cal22.CAL_CONFIGS)  # kmeans is not a CAL'22 workload
    assert all(len(t) == 8 and t[2] == bench_cal22.CAL_NOTE and t[7] == "cal-64" for t in tasks)
    from infs.tools.infs_bench import bench_sizes
    from infs.workloads import WORKLOADS

    assert all(t[1] == bench_sizes(WORKLOADS[t[0]], "small")[0] for t in tasks)  # the suite's sizes
    assert {(t[3], t[6]) for t in tasks} == {("base", None), ("near", None), ("infs", "hardware"), ("infs_nojit", "hardware"), ("infs", "software")}
    assert bench_cal22.cal_key({"config": "infs", "jit_model": "software"}) == "infs_soft"
    assert bench_cal22.cal_key({"config": "infs_nojit", "jit_model": "hardware"}) == "infs_fixed"
    assert bench_cal22.cal_key({"config": "near"}) == "near"
    from infs.hardware import JIT_COMMAND_CYCLES, load_config

    assert JIT_COMMAND_CYCLES["hardware"] == 10 and JIT_COMMAND_CYCLES["software"] == 1000  # CAL'22 cal:137-139
    assert load_config("cal-64").bitlines == 512


def test_cal22_checks_on_synthetic_rows():
    def cal(w, k, cyc, noc):
        cfg, jit, _ = bench_cal22.CAL_CONFIGS[k]
        return row(w, cfg, cyc, {"noc_data": noc}, jit_model=jit, machine="cal-64", mode=bench_report.CONFIGS[cfg][1])

    rs = []
    for w in ("conv3d", "stencil2d"):
        rs += [cal(w, "base", {"core": 1000}, 100.0), cal(w, "near", {"near_mem": 900}, 210.0),
               cal(w, "infs", {"dram": 100, "jit": 10, "compute": 90}, 50.0), cal(w, "infs_fixed", {"dram": 100, "compute": 90}, 50.0),
               cal(w, "infs_soft", {"dram": 100, "jit": 1000, "compute": 90}, 50.0)]  # fmt: skip
    rs.append({"workload": "mm_inner", "config": "base", "error": "boom"})  # a failed run is left out
    by = {c.key: c for c in bench_cal22.cal_checks(rs)}
    assert by["cal22_infs_over_near"].ours == pytest.approx(900 / 200)
    assert not by["cal22_infs_over_near"].gap  # 4.5x: the paper's
    assert by["cal22_fixed_over_near"].ours == pytest.approx(900 / 190)
    assert by["cal22_soft_over_near"].ours == pytest.approx(900 / 1190)
    assert by["cal22_conv3d_near_extra_noc"].ours == pytest.approx(1.10)
    assert by["cal22_dram_share"].ours == pytest.approx(0.5)
    assert by["cal22_infs_cut_vs_near"].ours == pytest.approx(1 - 50 / 210)
    text = "\n".join(bench_cal22.cal_table(rs))
    assert "## CAL'22" in text and "| conv3d | 1,000 | 1.11x | 5.00x | 5.26x | 0.84x | 1/0/0 | 5.0% | 84.0% |" in text
    assert bench_cal22.cal_table([]) == []


def test_area_model():
    from infs.hardware import load_config

    p = bench_area.area(load_config("paper-64"))
    # the paper's own machine gives the paper's 6.52%: the chip area is derived from that figure
    # (and NSC's 2.1% for its 64 MB L3), so this checks the arithmetic and paper-64's geometry
    assert p.compute_bitlines == bench_area.PAPER_COMPUTE_BITLINES and p.l3_mb == 144
    assert p.overhead == pytest.approx(0.0652)
    assert p.in_memory_mm2 == pytest.approx(66.75) and p.near_memory_mm2 == pytest.approx(28.16)
    assert bench_area.L3_MM2_PER_MB > 0 and bench_area.CORES_AND_UNCORE_MM2 > 0
    c = bench_area.area(load_config("cal-64"))  # the same bitlines and banks, a larger L3: a smaller ratio
    assert c.in_memory_mm2 == pytest.approx(p.in_memory_mm2) and c.chip_mm2 > p.chip_mm2 and c.overhead < p.overhead
    s = bench_area.area(load_config("small-16"))
    assert s.in_memory_mm2 == pytest.approx(66.75 * s.compute_bitlines / bench_area.PAPER_COMPUTE_BITLINES)
    assert "6.52%" in bench_area.describe(p, "paper-64")
    assert math.isclose(bench_area.NEAR_MEMORY_MM2 / bench_area.NSC_OVERHEAD,
                        bench_area.CORES_AND_UNCORE_MM2 + bench_area.L3_MM2_PER_MB * bench_area.NSC_L3_MB)  # fmt: skip
