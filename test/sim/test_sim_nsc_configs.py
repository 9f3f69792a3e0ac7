"""NSC's configurations in the near model (HPCA'22 §IV-§VII): each mechanism's cost pinned to its formula.

The machine is NSC's (Table V, ``nsc-ooo8`` / ``nsc-ooo4`` / ``nsc-io4``); the
configuration is ``near_config``; ``infs.sim.near.nsc`` says which side prices a
region, ``engine.near_memory_detail`` what separates the configurations at the banks.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infs.hardware import BUILTIN, NEAR_CONFIGS, ConfigError, load_config
from infs.sim.core.baseline import core_detail, demand_window
from infs.sim.near.engine import (RANGE_MESSAGES, decouple_overlap, harmonic, lock_cycles, mesh_consts, modifying_fraction,
                                  near_memory_detail, scm_rate, uses_scalar_pe)  # fmt: skip
from infs.sim.near.nsc import near_cost, near_detail, single_line
from infs.sim.workload_profile import ReductionProfile, RegionProfile, StreamProfile, zero_ops

OOO8 = load_config("nsc-ooo8")


def cfg(name: str = "nsc-ooo8", **kw):
    return load_config(name, **kw)


def ops(**kw):
    o = zero_ops()
    o.update(kw)
    return o


def affine(kind, array, n, eb=4, size=None):
    return StreamProfile(kind=kind, array=array, name=f"a{array}", elem_bytes=eb, array_shape=(size or n,), accesses=n, elements=n,
                         lines=-(-n * eb // 64), offset=0, strides=(1,))  # fmt: skip


def indirect(kind, array, n, cells, atomic=None):
    """``n`` scalar requests (one element a line) into a ``cells``-element array."""
    return StreamProfile(kind, array, f"x{array}", 4, (cells,), n, min(n, cells), n, 0, (0,), indirect=True, indirect_dims=(0,),
                         atomic=atomic)  # fmt: skip


def vec_add(n):
    return RegionProfile((n,), ("parallel",), (affine("load", 0, n), affine("load", 1, n), affine("store", 2, n)),
                         ops=ops(fp_add=1), op_totals=ops(fp_add=n))  # fmt: skip


def gather(n, cells):
    """out[i] = X[idx[i]]: an index stream, an indirect load, an affine store (no op)."""
    return RegionProfile((n,), ("parallel",), (affine("load", 0, n), indirect("load", 1, n, cells), affine("store", 2, n)))


def scatter_atomic(n, cells, kind="add"):
    """X[idx[i]] op= v[i]: an index stream, a value stream, an indirect atomic (one op)."""
    return RegionProfile((n,), ("parallel",), (affine("load", 0, n), affine("load", 1, n), indirect("atomic", 2, n, cells, kind)),
                         ops=ops(int_add=1), op_totals=ops(int_add=n))  # fmt: skip


def array_sum(n):
    return RegionProfile((n,), ("reduction",), (affine("load", 0, n),), ops=ops(fp_add=1), op_totals=ops(fp_add=n),
                         reductions=(ReductionProfile("add", (0,), n, 1, 4, "fp_add", scalar=True),))  # fmt: skip


def round_trip(c):
    m = mesh_consts(c)
    return 2.0 * m.mean_hops * m.mesh.hop_cycles


# ---------------------------------------------------------------------------
# the machine (Table V)
# ---------------------------------------------------------------------------


def test_nsc_machines_are_table_v():
    for name, issue, lq, fifo, rob in (("nsc-io4", 4, 4, 256, 0), ("nsc-ooo4", 4, 24, 1024, 32), ("nsc-ooo8", 8, 72, 2048, 64)):
        c = cfg(name)
        assert (c.core_issue_width, c.core_load_queue, c.se_core_fifo_bytes, c.scc_rob_entries) == (issue, lq, fifo, rob)
        assert c.l3_bytes // c.banks == 1 << 20 and c.ways == 16  # '1MB per bank / 16-way'
        assert (c.mesh_rows, c.mesh_cols, c.link_bytes, c.router_stages, c.l3_latency) == (8, 8, 32, 5, 20)
        assert (c.interleave_bytes, c.mem_ctrls, c.se_streams_per_core, c.se_buffer_bytes, c.se_init_cycles, c.scc_count) == (64, 4, 12, 1024, 4, 2)
        assert c.se_streams_per_core * c.cores == 768 and c.se_buffer_bytes * c.cores == 64 * 1024  # '768 total', '64kB'
        assert c.near_config == "NS" and c.near_lock == "mrsw" and c.near_scalar_pe
    # 'x2 for OOO8': 4 Int ALU/SIMD and 2 FP ALU/SIMD per 4-issue core
    assert (cfg("nsc-ooo4").core_int_simd_units, cfg("nsc-ooo4").core_fp_simd_units) == (4, 2)
    assert (OOO8.core_int_simd_units, OOO8.core_fp_simd_units) == (8, 4)
    assert {"nsc-io4", "nsc-ooo4", "nsc-ooo8"} <= set(BUILTIN)


@pytest.mark.parametrize("field, value, msg", [
    ("near_config", "NS_fast", "near_config: unknown near-stream configuration 'NS_fast' (known: NS, NS_no_sync"),
    ("near_lock", "ticket", "near_lock: unknown lock 'ticket' (known: mrsw, exclusive)"),
    ("scc_rob_entries", -1, "scc_rob_entries"),
    ("near_scalar_pe", "yes", "near_scalar_pe"),
])  # fmt: skip
def test_bad_nsc_fields_are_one_line(field, value, msg):
    with pytest.raises(ConfigError, match=msg.replace("(", r"\(").replace(")", r"\)")) as e:
        cfg("nsc-ooo8", **{field: value})
    assert "\n" not in str(e.value)


# ---------------------------------------------------------------------------
# range synchronization (§IV-B) and sync-free (§V)
# ---------------------------------------------------------------------------


def test_range_sync_traffic_of_an_indirect_load_is_its_ranges():
    n = 1 << 16
    c_ns, c_free = cfg(near_config="NS"), cfg(near_config="NS_no_sync")
    ns, t_ns = near_memory_detail(gather(n, 1 << 20), c_ns)
    free, t_free = near_memory_detail(gather(n, 1 << 20), c_free)
    mean = mesh_consts(c_ns).mean_hops
    ranges = n / c_ns.se_sync_lines * RANGE_MESSAGES * c_ns.control_bytes * mean
    out_lines = -(-n * 4 // 64)
    commits = out_lines / c_ns.se_sync_lines * c_ns.control_bytes * mean  # the affine store's commits
    assert t_ns["range_sync_bh"] == pytest.approx(ranges + commits)
    assert t_free["range_sync_bh"] == 0.0
    assert ns.traffic["noc_control"] - free.traffic["noc_control"] == pytest.approx(ranges + commits)
    assert ns.traffic["noc_data"] == free.traffic["noc_data"]
    # the indirect line waits one round trip in the buffer for its range and the go-ahead
    assert t_ns["buffer"] > t_free["buffer"]


def test_affine_commits_cost_traffic_not_time():
    """SE_core builds an affine stream's ranges (§IV-B): NS commits ahead, with the credits."""
    n = 1 << 20
    ns, t_ns = near_memory_detail(vec_add(n), cfg(near_config="NS"))
    free, _ = near_memory_detail(vec_add(n), cfg(near_config="NS_no_sync"))
    c = cfg()
    assert t_ns["range_sync_bh"] == pytest.approx(n * 4 / 64 / c.se_sync_lines * c.control_bytes * mesh_consts(c).mean_hops)
    assert ns.cycles == free.cycles
    assert ns.traffic["noc_control"] > free.traffic["noc_control"]


def test_indirect_atomics_wait_two_round_trips_under_ns():
    n, cells = 1 << 14, 1 << 12
    c_ns, c_free = cfg(near_config="NS", near_lock="exclusive"), cfg(near_config="NS_no_sync", near_lock="exclusive")
    s = indirect("atomic", 2, n, cells, "add")
    rt = round_trip(c_ns)
    per_cell, others = n / cells, 63 / 64  # 64 threads: a request meets another thread's lock 63/64 of the time
    assert lock_cycles(s, c_ns, rt, 64) == pytest.approx(per_cell * (c_ns.l3_latency + 2 * rt) * others)
    assert lock_cycles(s, c_free, rt, 64) == pytest.approx(per_cell * c_free.l3_latency * others)
    assert lock_cycles(s, c_ns, rt, 1) == 0.0  # one stream's atomics are ordered by its SE_L3 (§IV-C)
    _, t_ns = near_memory_detail(scatter_atomic(n, cells), c_ns)
    _, t_free = near_memory_detail(scatter_atomic(n, cells), c_free)
    assert t_ns["lock"] == pytest.approx(per_cell * (c_ns.l3_latency + 2 * rt) * others)
    assert t_free["lock"] == pytest.approx(per_cell * c_free.l3_latency * others)


def test_decouple_overlaps_the_latency_of_its_instances():
    r = gather(256, 1 << 12)
    _, t_free = near_memory_detail(r, cfg(near_config="NS_no_sync"))
    _, t_dec = near_memory_detail(r, cfg(near_config="NS_decouple"))
    k = decouple_overlap(r, OOO8)
    assert k == 12 // 3
    assert t_dec["latency"] == math.ceil(t_free["latency"] / k)


# ---------------------------------------------------------------------------
# the MRSW lock (§IV-C, Fig. 16)
# ---------------------------------------------------------------------------


def test_harmonic_numbers():
    assert harmonic(1) == 1.0 and harmonic(4) == pytest.approx(25 / 12)
    exact = sum(1.0 / i for i in range(1, 1001))
    assert harmonic(1000) == pytest.approx(exact, rel=1e-12)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 1 << 16), cells=st.integers(1, 1 << 12), kind=st.sampled_from(["add", "min", "max"]))
def test_mrsw_locks_only_the_updates_that_change_the_value(n, cells, kind):
    s = indirect("atomic", 0, n, cells, kind)
    k = n / min(n, cells)
    want = 1.0 if kind == "add" or k <= 1 else harmonic(k) / k
    assert modifying_fraction(s) == pytest.approx(want)
    rt = round_trip(OOO8)
    mrsw = lock_cycles(s, cfg(near_lock="mrsw"), rt, 64)
    excl = lock_cycles(s, cfg(near_lock="exclusive"), rt, 64)
    assert mrsw == pytest.approx(excl * want)
    assert 0 < mrsw <= excl


def test_pr_push_adds_gain_nothing_from_mrsw():
    """§VII-D: 'Atomics in pr_push always modify the value and thus do not benefit from MRSW lock.'"""
    r = scatter_atomic(1 << 14, 1 << 10, "add")
    assert near_cost(r, cfg(near_lock="mrsw")).cycles == near_cost(r, cfg(near_lock="exclusive")).cycles


# ---------------------------------------------------------------------------
# the scalar PE and the SCM's contexts (§VII-C/D, Table V)
# ---------------------------------------------------------------------------


def test_scalar_pe_serves_simple_indirect_regions_without_the_scm():
    r = scatter_atomic(1 << 12, 1 << 12)
    assert uses_scalar_pe(r, OOO8) and not uses_scalar_pe(r, cfg(near_scalar_pe=False))
    assert not uses_scalar_pe(vec_add(1 << 12), OOO8)  # affine: vectorized, on the SCM
    _, on = near_memory_detail(r, OOO8)
    _, off = near_memory_detail(r, cfg(near_scalar_pe=False))
    assert off["latency"] - on["latency"] == OOO8.se_init_cycles
    assert on["scalar_pe"] == 1.0 and off["scalar_pe"] == 0.0


def test_scm_rate_is_littles_law_over_the_scc_rob():
    assert scm_rate(cfg("nsc-ooo8")) == 1.0 and scm_rate(cfg("nsc-ooo4")) == 1.0  # 64 / 5, 32 / 5: at least one
    io4 = cfg("nsc-io4")
    assert scm_rate(io4) == pytest.approx(io4.scc_count / (io4.se_init_cycles + 1))  # in-order: one op per SCC
    heavy = RegionProfile((1 << 16,), ("parallel",), (affine("load", 0, 1 << 16), affine("store", 1, 1 << 16)),
                          ops=ops(fp_mul=64), op_totals=ops(fp_mul=64 << 16))  # fmt: skip
    _, t8 = near_memory_detail(heavy, cfg("nsc-ooo8"))
    _, t4 = near_memory_detail(heavy, io4)
    assert t4["compute"] == pytest.approx(t8["compute"] / scm_rate(io4))


# ---------------------------------------------------------------------------
# INST, SINGLE, NS_no_comp (§VI) and the cores (Table V)
# ---------------------------------------------------------------------------


def test_inst_offloads_every_iteration():
    r = vec_add(1 << 16)
    c = cfg(near_config="INST")
    cost, t = near_detail(r, c)
    lines = 3 * (1 << 16) * 4 / 64
    threads = 64
    assert t["path"] == "iteration"
    assert t["offload"] == pytest.approx(lines / threads / min(c.core_mshrs, c.core_load_queue) * (round_trip(c) + c.l3_latency))
    free, _ = near_memory_detail(r, cfg(near_config="NS_no_sync"))
    assert cost.traffic["noc_control"] - free.traffic["noc_control"] == pytest.approx(lines * 2 * c.control_bytes * mesh_consts(c).mean_hops)
    # no reduction at iteration granularity: the cores reduce what the streams bring
    assert near_detail(array_sum(1 << 16), c)[1]["path"] == "floated"


def test_single_offloads_single_line_functions_only():
    c = cfg(near_config="SINGLE")
    assert single_line(array_sum(64)) and single_line(gather(64, 64)) is False
    assert near_detail(array_sum(1 << 16), c)[1]["path"] == "banks"
    assert near_detail(vec_add(1 << 16), c)[1]["path"] == "floated"  # multi-operand
    assert near_detail(scatter_atomic(1 << 12, 1 << 10), c)[1]["path"] == "iteration"  # indirect atomics
    # sync-free: no range-sync where it offloads
    assert near_detail(array_sum(1 << 16), c)[1]["range_sync_bh"] == 0.0


def test_no_comp_floats_the_loads_to_the_se_core_fifo():
    r = vec_add(1 << 20)
    for name in ("nsc-ooo8", "nsc-io4"):
        c = cfg(name, near_config="NS_no_comp")
        cost, t = near_detail(r, c)
        assert t["path"] == "floated" and cost.category == "near_mem"
        base, tb = core_detail(r, c)
        m = mesh_consts(c)
        rtt = c.l3_latency + 2 * m.mean_hops * m.mesh.hop_cycles  # the FIFO's round trip: bank and back
        threads = 64
        loads = 2 * (1 << 20) * 4 / 64
        assert t["fifo"] == pytest.approx(loads * 64 / threads / (c.se_core_fifo_bytes / rtt), rel=1e-3)
        assert t["mlp"] < tb["mlp"]  # the floated lines hold no MSHR
        assert cost.traffic["noc_data"] == base.traffic["noc_data"]  # the same lines reach the cores


def test_in_order_cores_keep_fewer_loads_in_flight():
    assert demand_window(cfg("nsc-io4")) == 4 and demand_window(cfg("nsc-ooo4")) == 16 and demand_window(OOO8) == 16
    r = gather(1 << 14, 1 << 20)
    _, io4 = core_detail(r, cfg("nsc-io4"))
    _, ooo8 = core_detail(r, OOO8)
    assert io4["indirect"] == pytest.approx(ooo8["indirect"] * 16 / 4)


@pytest.mark.parametrize("config", NEAR_CONFIGS)
def test_every_configuration_prices_every_pattern(config):
    c = cfg(near_config=config)
    for r in (vec_add(1 << 12), gather(1 << 12, 1 << 14), scatter_atomic(1 << 12, 1 << 8, "min"), array_sum(1 << 12)):
        cost, t = near_detail(r, c)
        assert cost.category == "near_mem" and cost.cycles > 0 and t["path"] in ("banks", "floated", "iteration")
        assert np.isfinite(cost.traffic["noc_control"]) and cost.traffic["noc_control"] > 0
