"""The cores' OpenMP fork/join (infs/sim/core/baseline.py ``forkjoin_cycles``): libomp's
radix-4 hyper barrier releasing and gathering the whole team, charged once per
parallel region call, so a host loop of k calls pays k of them; outputs unchanged."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from infs import api
from infs.runtime.driver import RunOptions, run_program
from infs.sim.config import ConfigError, load_config
from infs.sim.core.baseline import barrier_levels, core_detail, forkjoin_cycles
from infs.sim.workload_profile import RegionProfile, StreamProfile, zero_ops
from infs.workloads import WORKLOADS


def _mean_manhattan(rows: int, cols: int, team: int | None = None) -> float:
    """Mean X-Y hops from a team thread's tile (``team`` threads spread evenly over the
    tiles, one per tile at most; every tile by default) to a tile of a rows x cols
    mesh (the oracle: written out here, not the simulator's mesh tables)."""
    n = rows * cols
    ys, xs = np.divmod(np.arange(n), cols)
    src = np.arange(n) if team is None or team >= n else np.unique(np.round(np.linspace(0, n - 1, team)).astype(int))
    return float((np.abs(ys[src, None] - ys[None, :]) + np.abs(xs[src, None] - xs[None, :])).mean())


def _expected(cfg) -> int:
    levels = 0
    while cfg.core_barrier_radix**levels < cfg.cores:
        levels += 1
    rtt = cfg.core_l2_cycles + cfg.l3_latency + 2 * _mean_manhattan(cfg.mesh_rows, cfg.mesh_cols, cfg.cores) * cfg.hop_cycles
    return int(np.ceil(2 * levels * cfg.core_barrier_radix * rtt - 1e-9))


def test_paper64_pays_six_levels_of_four_round_trips_per_region():
    cfg = load_config("paper-64")
    assert (cfg.cores, cfg.core_barrier_radix, cfg.hop_cycles) == (64, 4, 6)
    # an 8x8 mesh's mean distance is 2 x (8^2 - 1) / (3 x 8) = 5.25 hops: a 16 + 20 + 63 = 99-cycle round trip
    assert _mean_manhattan(8, 8) == 5.25
    assert forkjoin_cycles(cfg) == 2 * 3 * 4 * 99 == 2376


@pytest.mark.parametrize("team,radix,levels", [(1, 4, 0), (2, 4, 1), (4, 4, 1), (5, 4, 2), (16, 4, 2), (64, 4, 3), (65, 4, 4), (64, 2, 6), (64, 64, 1), (3, 2, 2)])
def test_barrier_levels(team, radix, levels):
    assert barrier_levels(team, radix) == levels


@pytest.mark.parametrize("name,over", list(itertools.product(["tiny", "small-16", "paper-64"], [{}, {"core_barrier_radix": 2}, {"core_barrier_radix": 8}, {"cores": 16}, {"cores": 1}])))
def test_forkjoin_formula_on_every_machine(name, over):
    cfg = load_config(name, **over)
    assert forkjoin_cycles(cfg) == _expected(cfg)
    if cfg.cores == 1:
        assert forkjoin_cycles(cfg) == 0  # no team to fork


def test_a_radix_below_two_is_refused():
    with pytest.raises(ConfigError, match="core_barrier_radix"):
        load_config("paper-64", core_barrier_radix=1)


def _vec_add(n: int) -> RegionProfile:
    def s(kind, array):
        return StreamProfile(kind=kind, array=array, name=f"a{array}", elem_bytes=4, array_shape=(n,), accesses=n, elements=n, lines=-(-n * 4 // 64), offset=0, strides=(1,))

    ops = zero_ops()
    ops["fp_add"] = n
    return RegionProfile((n,), ("parallel",), (s("load", 0), s("load", 1), s("store", 2)), op_totals=ops)


@pytest.mark.parametrize("n", [16, 1024, 1 << 20])
def test_a_region_pays_its_forkjoin_once_whatever_its_size(n):
    """Even a region with one thread's worth of work: the whole team joins (the
    authors' omp_set_num_threads(numThreads) team, static chunks)."""
    base = load_config("small-16")
    cost, t = core_detail(_vec_add(n), base)
    wide = load_config("small-16", core_barrier_radix=64)  # one level of 64: 2 x 64 round trips
    cost_w, t_w = core_detail(_vec_add(n), wide)
    assert t["forkjoin"] == forkjoin_cycles(base)
    assert cost_w.cycles - cost.cycles == forkjoin_cycles(wide) - forkjoin_cycles(base)
    # the barrier moves no modelled data (its flag lines are control, outside the streams' traffic)
    assert cost_w.traffic == cost.traffic
    assert {k: v for k, v in t.items() if k not in ("latency", "forkjoin")} == {k: v for k, v in t_w.items() if k not in ("latency", "forkjoin")}


def _run(name: str, cfg, machine_mode: str):
    w = WORKLOADS[name]
    sizes = w.sizes("small")
    values = w.make_inputs(sizes, np.random.default_rng(1))
    inputs = {k: np.array(v, copy=True) for k, v in values.items()}
    rep = run_program(api.parse_file(w.path), w.call_args(values, sizes), w.entry, RunOptions(config=cfg, mode="core", machine_mode=machine_mode, warm=True))
    return w, sizes, values, inputs, rep


@pytest.mark.parametrize("name", ["gauss_elim", "mm_outer", "kmeans_outer"])
def test_a_host_loop_of_k_region_calls_pays_k_forkjoins(name):
    base, wide = load_config("small-16"), load_config("small-16", core_barrier_radix=64)
    _, _, _, _, a = _run(name, base, "analysis")
    _, _, _, _, b = _run(name, wide, "analysis")
    calls = len(a.regions)
    assert calls == len(b.regions) > 1 and all(r.mode == "core" for r in a.regions)
    delta = forkjoin_cycles(wide) - forkjoin_cycles(base)
    assert [rb.cycles - ra.cycles for ra, rb in zip(a.regions, b.regions)] == [delta] * calls
    assert b.stats.total_cycles - a.stats.total_cycles == calls * delta


def test_gauss_elim_calls_two_regions_per_step():
    """gauss_elim's host loop over k: the multiplier column and the update, each a
    region call (the authors' kernel: one omp parallel for per k, which this model
    splits in two)."""
    w, sizes, _, _, rep = _run("gauss_elim", load_config("small-16"), "analysis")
    assert len(rep.regions) == 2 * (sizes["n"] - 1)


@pytest.mark.parametrize("name", ["gauss_elim", "kmeans_outer"])
def test_outputs_do_not_depend_on_the_forkjoin(name):
    outs = []
    for radix in (4, 64):
        w, sizes, values, inputs, rep = _run(name, load_config("tiny", core_barrier_radix=radix), "functional")
        ref = w.reference(inputs, sizes)
        got = {k: np.asarray(values[k]) for k in w.outputs}
        for k in w.outputs:
            np.testing.assert_allclose(got[k], ref[k], rtol=1e-4, atol=1e-4)
        outs.append(got)
    for k in outs[0]:
        np.testing.assert_array_equal(outs[0][k], outs[1][k])
