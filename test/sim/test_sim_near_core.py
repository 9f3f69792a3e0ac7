"""Near-memory (NSC) and core (Base) cost models on hand-computable region profiles."""

import math

import numpy as np
import pytest

from infs.sim import ConfigError, Machine, SimError, load_config
from infs.sim.core.baseline import core_cost, core_detail, forkjoin_cycles
from infs.sim.near.engine import (
    array_bank_lines,
    bank_offsets,
    choose_anchor,
    near_memory_cost,
    near_memory_detail,
    rereads,
    stream_bank_lines,
    threads_of,
)
from infs.sim.stats import Cost
from infs.sim.workload_profile import ReductionProfile, RegionProfile, StreamProfile, zero_ops

P64 = load_config("paper-64")
M4 = 4 * 1024 * 1024
# paper-64: far corner 14 hops from host tile 0, 6 cycles per hop
NEAR_LAT = 2 * 14 * 6 + 20 + 4  # config out, completion back, L3 latency, SE init
CORE_LAT = 2 * 14 * 6 + 20 + 2 + 16  # ... + the private L1 and L2 lookups (Table 2)
# + the OpenMP fork and join: 2 x 3 levels of libomp's radix-4 hyper barrier x 4 round trips
# of 16 + 20 + 2 x 5.25 mean hops x 6 cycles (test_core_forkjoin.py)
CORE_LAT += 2 * 3 * 4 * 99


def stream1d(kind, array, n, offset=0, size=None, name=None, eb=4, **kw):
    size = n + offset if size is None else size
    lines = -(-n * eb // 64)
    return StreamProfile(kind=kind, array=array, name=name or f"a{array}", elem_bytes=eb, array_shape=(size,), accesses=n,
                         elements=kw.pop("elements", n), lines=kw.pop("lines", lines), offset=offset, strides=(1,), **kw)  # fmt: skip


def ops(**kw):
    o = zero_ops()
    o.update(kw)
    return o


def vec_add(n, b_offset=0):
    return RegionProfile(
        extents=(n,), iterators=("parallel",),
        streams=(stream1d("load", 0, n), stream1d("load", 1, n, b_offset), stream1d("store", 2, n)),
        ops=ops(fp_add=1), op_totals=ops(fp_add=n),
    )  # fmt: skip


def array_sum(n):
    return RegionProfile(
        extents=(n,), iterators=("reduction",), streams=(stream1d("load", 0, n),),
        ops=ops(fp_add=1), op_totals=ops(fp_add=n),
        reductions=(ReductionProfile("add", (0,), n, 1, 4, "fp_add", scalar=True),),
    )  # fmt: skip


# ---------------------------------------------------------------------------
# placement helpers
# ---------------------------------------------------------------------------


def test_bank_lines_of_a_contiguous_stream():
    # 4M f32 = 16 MB = 262,144 lines, 16 per 1 kB block: 4,096 per bank
    per_bank = stream_bank_lines(stream1d("load", 0, M4), (M4,), P64)
    assert per_bank.sum() == 262_144 and np.all(per_bank == 4096)
    # 300 elements from element 200: bytes [800, 2000) -> lines 12..31 (20 lines), banks 0 (12..15) and 1 (16..31)
    s = stream1d("load", 0, 300, offset=200, size=1000)
    got = stream_bank_lines(s, (300,), P64)
    assert got[0] == 4 and got[1] == 16 and got.sum() == 20


def test_bank_lines_of_2d_runs_and_small_arrays():
    # interior rows of a 64 x 512 f32 array (2 kB rows: 2 blocks each), columns 1..510
    s = StreamProfile("load", 0, "A", 4, (64, 512), 62 * 510, 62 * 510, 62 * 32, offset=512 + 1, strides=(512, 1))
    got = stream_bank_lines(s, (62, 510), P64)
    assert got.sum() == 62 * 32
    rows = np.arange(1, 63)
    want = np.bincount(np.concatenate([(2 * rows) % 64, (2 * rows + 1) % 64]), minlength=64) * 16
    assert np.array_equal(got, want)
    # a 512 B array lives in bank 0
    small = stream1d("atomic", 0, 4096, lines=4096, elements=128, size=128, indirect=True, indirect_dims=(0,))
    assert array_bank_lines(small, P64)[0] == 8 and array_bank_lines(small, P64).sum() == 8


@pytest.mark.parametrize("seed", range(12))
def test_bank_lines_match_brute_force(seed):
    """Random affine accesses (incl. overlapping rows, broadcasts, strides, negative steps)."""
    rng = np.random.default_rng(seed)
    rank = int(rng.integers(1, 4))
    extents = tuple(int(x) for x in rng.integers(1, 40, rank))
    strides = tuple(int(x) for x in rng.choice([0, 1, 2, 3, 17, 64, 300, -1, -40], rank))
    eb = int(rng.choice([1, 4, 8]))
    grids = np.meshgrid(*[np.arange(n) for n in extents], indexing="ij")
    rel = sum(st * g for st, g in zip(strides, grids))
    offset = int(-rel.min()) + int(rng.integers(0, 5000))
    addr = offset + rel
    lines = np.unique(addr * eb // 64)
    want = np.bincount((lines * 64 // 1024) % 64, minlength=64)
    s = StreamProfile("load", 0, "A", eb, (int(addr.max()) + 1,), addr.size, np.unique(addr).size, lines.size, offset, strides)
    assert np.array_equal(stream_bank_lines(s, extents, P64), want)


def test_threads():
    assert threads_of(vec_add(M4), P64) == 64
    assert threads_of(vec_add(64), P64) == 4  # at least one 16-lane vector each
    assert threads_of(RegionProfile((3, 1000), ("parallel", "parallel"), ()), P64) == 3  # the innermost dim is the vector loop


def test_threads_collapse_the_outer_parallel_dims():
    """The authors' OpenMP kernels fuse the outer parallel loops (omp_stencil3d_avx.c:27-33:
    "we fuse the i/j loop level"): stencil3d's 14 interior planes of 510 rows run on all 64
    cores, not on 14; a reduction dim ends the collapsed run, the innermost dim stays the
    vector loop."""
    from infs.sim.near.engine import parallel_dims

    par3 = ("parallel",) * 3
    st3d = RegionProfile((14, 510, 510), par3, ())
    assert parallel_dims(st3d) == 2 and threads_of(st3d, P64) == 64
    assert threads_of(RegionProfile((2, 3, 1000), par3, ()), P64) == 6
    mm = RegionProfile((512, 512, 512), ("parallel", "parallel", "reduction"), ())
    assert parallel_dims(mm) == 2 and threads_of(mm, P64) == 64
    red = RegionProfile((3, 1000), ("reduction", "parallel"), ())
    assert parallel_dims(red) == 1 and threads_of(red, P64) == 3  # the outermost dim: partial results per thread
    assert parallel_dims(RegionProfile((4096,), ("reduction",), ())) == 1


@pytest.mark.parametrize("strides", [(4096, 64, 1), (0, 64, 1), (4096, 0, 1), (0, 0, 1), (64, 1, 0)])
@pytest.mark.parametrize("extents", [(8, 16, 64), (2, 64, 64), (64, 4, 16)])
def test_stream_threads_counts_the_cells_each_thread_reads(extents, strides):
    """``stream_threads`` against the threads' chunks of the collapsed (d0, d1) loop enumerated:
    the sum over threads of the distinct (d0, d1) cells each reads, over the distinct cells."""
    from infs.sim.near.engine import stream_threads

    prof = RegionProfile(extents, ("parallel",) * 3, ())
    T = threads_of(prof, P64)
    e0, e1 = extents[:2]
    f = np.arange(e0 * e1)
    key = (f // e1) * (strides[0] != 0) * e1 + (f % e1) * (strides[1] != 0)  # the cell the stream reads at f
    chunk = f // (e0 * e1 // T)
    per_thread = sum(np.unique(key[chunk == t]).size for t in range(T))
    s = StreamProfile("load", 0, "A", 4, (e0, e1, 64), 1, 1, 1, 0, strides)
    assert stream_threads(s, prof, T) == pytest.approx(per_thread / np.unique(key).size)


def test_bank_offsets_of_strided_views():
    x = StreamProfile("load", 0, "A", 4, (1024, 512), 1024 * 256, 1024 * 256, 1, 0, (512, 2))
    y = StreamProfile("store", 1, "T", 4, (1024, 512), 1024 * 256, 1024 * 256, 1, 0, (512, 1))
    off = bank_offsets(x, y, (1024, 256), P64)
    # T[i, j] at byte 4j of its row, A[i, 2j] at 8j: A is one bank further for j in [128, 256)
    assert off.sum() == pytest.approx(1.0)
    assert off[0] == pytest.approx(0.5, abs=0.01) and off[1] == pytest.approx(0.5, abs=0.01)


# ---------------------------------------------------------------------------
# near memory
# ---------------------------------------------------------------------------


HOLD = 20 + 4  # a line sits in the SE_L3 buffer from its L3 request to the compute's start
BUF_LINES = 1024 // 64  # 1 kB per core; 64 threads over 64 banks: one core's share per bank


def test_near_vec_add_is_stream_buffer_bound():
    cost, t = near_memory_detail(vec_add(M4), P64)
    # A, B read and C written in the same bank (arrays 64 kB-aligned): 3 x 4,096 lines per bank
    assert t["port_lines"] == 3 * 4096 and t["port"] == 3 * 4096
    assert t["compute"] == M4 / 64 / 16  # 4,096 vector adds per bank
    # Little's law: 16 lines in flight, each held 24 cycles -> 2/3 line per cycle per bank
    assert t["buffer"] == 3 * 4096 * HOLD / BUF_LINES
    assert cost.cycles == 3 * 4096 * HOLD // BUF_LINES + NEAR_LAT
    # with twice the buffer the bank's port (one line per cycle) is the bound
    big = load_config("paper-64", se_buffer_bytes=2048)
    assert near_memory_cost(vec_add(M4), big).cycles == 3 * 4096 + NEAR_LAT
    assert cost.traffic["noc_data"] == 0 and cost.link_loads.sum() == 0
    assert cost.category == "near_mem"
    assert cost.quantities["l3_bytes"] == 3 * M4 * 4
    assert cost.quantities["vector_ops"] == M4 / 16
    # control: per stream, credit + done per 8 lines, migrations to the next bank, configuration
    assert cost.traffic["noc_control"] > 0


def test_near_forwarding_bytes_times_hops():
    # B read one 1 kB block ahead of C: every element comes from the next bank over the X-Y mesh
    cost, t = near_memory_detail(vec_add(M4, b_offset=256), P64)
    next_hops = (56 * 1 + 7 * 8 + 14) / 64  # bank b -> b+1: one hop, 8 at a row end, 14 from 63 to 0
    assert cost.traffic["noc_data"] == pytest.approx(M4 * 4 * next_hops)
    assert cost.link_loads.sum() == pytest.approx(cost.traffic["noc_data"])
    # each bank injects 16 MB / 64 = 256 kB at 32 B/cycle
    assert t["inject"] == pytest.approx(M4 * 4 / 64 / 32)
    # B's lines stay in the buffer while they cross the mesh
    assert t["buffer"] == pytest.approx((3 * 4096 * HOLD + 4096 * next_hops * 6) / BUF_LINES)
    # a 4-byte shift: 4 / 1024 of the elements come from the previous bank
    c2 = near_memory_cost(vec_add(M4, b_offset=1), P64)
    assert 0 < c2.traffic["noc_data"] < cost.traffic["noc_data"] / 100


def test_near_reduction_partials_to_the_core():
    cost, t = near_memory_detail(array_sum(M4), P64)
    assert t["port"] == 4096 and t["compute"] == 4096 and t["buffer"] == 4096 * HOLD / BUF_LINES
    # one 4-byte partial per bank to tile 0: 4 x sum of hops to (0, 0)
    assert cost.traffic["noc_data"] == 4 * 448
    assert t["tail"] == 14 * 6 + math.ceil(64 / 16)
    assert cost.cycles == 4096 * HOLD // BUF_LINES + NEAR_LAT + t["tail"]


def test_near_indirect_gather_costs_more_than_affine():
    n, rows = 1 << 20, 1 << 20
    idx = stream1d("load", 0, n)
    aff = stream1d("load", 1, n, size=rows)
    ind = StreamProfile("load", 1, "X", 4, (rows,), n, n, n, 0, (0,), indirect=True, indirect_dims=(0,))
    out = stream1d("store", 2, n)
    affine = RegionProfile((n,), ("parallel",), (idx, aff, out))
    gather = RegionProfile((n,), ("parallel",), (idx, ind, out))
    ca, cg = near_memory_cost(affine, P64), near_memory_cost(gather, P64)
    assert cg.cycles > 2 * ca.cycles
    assert cg.traffic["noc_data"] > 0 and ca.traffic["noc_data"] == 0
    assert cg.traffic["noc_control"] > ca.traffic["noc_control"]  # request headers
    assert core_cost(gather, P64).cycles > core_cost(affine, P64).cycles


def test_near_atomics_at_their_home_bank():
    # 32k atomic adds into a 128-entry (512 B) array: all in bank 0, read + write per request
    n = 32768
    keys = stream1d("load", 0, n)
    hist = StreamProfile("atomic", 1, "count", 4, (128,), n, 128, n, 0, (0,), indirect=True, indirect_dims=(0,), atomic="add")
    cost, t = near_memory_detail(RegionProfile((n,), ("parallel",), (keys, hist)), P64)
    assert t["port_lines"] == 2 * n + n / 16 / 64  # the hot bank also holds 1/64 of the keys
    assert cost.cycles >= 2 * n


def test_near_anchor_choice():
    assert choose_anchor(vec_add(64)) == 2  # the store
    assert choose_anchor(array_sum(64)) == 0  # the only load


def test_near_small_region_pays_the_latency():
    c = near_memory_cost(vec_add(16), P64)
    assert NEAR_LAT < c.cycles < NEAR_LAT + 10
    empty = RegionProfile((0,), ("parallel",), ())
    assert near_memory_cost(empty, P64).cycles == 0 and core_cost(empty, P64).cycles == 0


def test_near_dram_when_the_footprint_exceeds_l3():
    n = 16 * M4  # 3 x 64 MB > 144 MB of L3
    cost, t = near_memory_detail(vec_add(n), P64)
    assert t["dram"] == pytest.approx(3 * n * 4 / 12.8)
    assert cost.quantities["dram_bytes"] == 3 * n * 4
    cold = near_memory_cost(vec_add(M4), P64, cold=True)
    assert cold.cycles > near_memory_cost(vec_add(M4), P64).cycles


# ---------------------------------------------------------------------------
# core baseline
# ---------------------------------------------------------------------------


def test_core_vec_add_is_bound_by_its_l2_mshrs_then_the_noc():
    cost, t = core_detail(vec_add(M4), P64)
    # 16 MB A + 16 MB B + C fetched for ownership and written back: 64 MB
    assert t["bytes"] == 4 * M4 * 4
    # per 16-lane vector: 2 loads + 1 store on the 4 memory ports (gem5 RdWrPort x 4) bound the one fp add
    assert t["compute"] == M4 / 16 / 64 * 3 / 4
    # uniform all-to-all over X-Y routing: the busiest (bisection) link carries 1/32 of it
    assert t["link"] == pytest.approx(4 * M4 * 4 / 32 / 32)
    assert max(t[k] for k in ("compute", "port", "link", "eject", "indirect", "dram")) == t["link"]
    # 16 L2 MSHRs over a 99-cycle round trip (core_l2_cycles + l3_latency + the mesh both ways) bring
    # 10 B/cycle per core: below the bisection's share (test_core_memory_level_parallelism_bound)
    assert t["mlp"] > t["link"]
    assert cost.cycles == math.ceil(t["mlp"]) + CORE_LAT
    assert cost.category == "core"
    assert cost.traffic["noc_data"] == pytest.approx(cost.link_loads.sum())


def test_core_memory_level_parallelism_bound():
    """Every line a core fetches holds one of its 16 L2 MSHRs (gem5 Options.py:200)
    for a round trip core_l2_cycles + l3_latency + 2 x mean hops x hop (8x8 mesh, threads on every tile: 5.25 hops):
    vec_add at 4M reads A, B and C (for ownership), 12,288 lines per thread; the first 16 are the
    latency term's."""
    t = core_detail(vec_add(M4), P64)[1]
    rtt = 16 + 20 + 2 * 5.25 * 6  # the L2 lookup (Table 2), the L3 bank, the mesh both ways
    assert t["mlp"] == pytest.approx((3 * M4 * 4 / 64 / 64 - 16) / 16 * rtt)
    t32 = core_detail(vec_add(M4), load_config("paper-64", core_mshrs=32))[1]
    assert t32["mlp"] == pytest.approx((3 * M4 * 4 / 64 / 64 - 32) / 32 * rtt)
    assert core_detail(vec_add(64), P64)[1]["mlp"] == 0  # within the first window


def test_core_compute_bound_for_compute_heavy_regions():
    n = M4
    heavy = RegionProfile((n,), ("parallel",), (stream1d("load", 0, n), stream1d("store", 1, n)),
                          ops=ops(fp_mul=64, fp_add=64), op_totals=ops(fp_mul=64 * n, fp_add=64 * n))  # fmt: skip
    cost, t = core_detail(heavy, P64)
    # 128 fp ops per element on 4 FP-SIMD units of 2 unpipelined cycles (GemForgeO8FUPool): 2 per cycle
    assert t["compute"] == 128 * n / 16 / 64 / 2
    assert max(t[k] for k in ("compute", "port", "link", "eject", "indirect", "dram")) == t["compute"]
    assert cost.cycles == t["compute"] + CORE_LAT
    # a vector divide is one FP-SIMD op as an add is (vdivps is SimdFloatDivOp, gem5 avxop.isa:314-315)
    div = RegionProfile((n,), ("parallel",), heavy.streams, op_totals=ops(fp_div=64 * n))
    assert core_detail(div, P64)[1]["compute"] == 64 * n / 16 / 64 / 2
    # integer ops on the 4 pipelined integer SIMD units: 4 per cycle
    ints = RegionProfile((n,), ("parallel",), heavy.streams, op_totals=ops(int_add=64 * n, int_mul=64 * n))
    assert core_detail(ints, P64)[1]["compute"] == 128 * n / 16 / 64 / 4
    # a mix of fp and int ops is bound by the 8-wide issue when neither pool is
    # (per vector: 1 fp op = 0.5 cycle, 2 int = 0.5, a load and a store = 0.5, 5 instructions = 0.625)
    mix = RegionProfile((n,), ("parallel",), heavy.streams, op_totals=ops(fp_add=n, int_add=2 * n))
    assert core_detail(mix, P64)[1]["compute"] == 5 * n / 16 / 64 / 8
    # the pool is the config's: one FP unit of two unpipelined cycles does half an fp op per cycle
    one = load_config("paper-64", core_fp_simd_units=1)
    assert core_detail(heavy, one)[1]["compute"] == 128 * n / 16 / 64 * 2


def test_core_broadcast_stream_read_by_every_thread():
    p, c = 4096, 128
    f = StreamProfile("load", 0, "F", 4, (p,), p * c, p, p // 16, 0, (1, 0))
    cen = StreamProfile("load", 1, "Cen", 4, (c,), p * c, c, c // 16, 0, (0, 1))
    d = StreamProfile("store", 2, "dist", 4, (p, c), p * c, p * c, p * c // 16, 0, (c, 1))
    t = core_detail(RegionProfile((p, c), ("parallel", "parallel"), (f, cen, d)), P64)[1]
    assert t["bytes"] == (p * 4 + 64 * c * 4 + 2 * p * c * 4)


def test_core_shares_lines_between_taps_of_one_array():
    n = M4
    taps = tuple(stream1d("load", 0, n - 2, offset=k, size=n) for k in range(3))
    st = RegionProfile((n - 2,), ("parallel",), (*taps, stream1d("store", 1, n - 2, offset=1, size=n)))
    assert core_detail(st, P64)[1]["bytes"] == pytest.approx(3 * n * 4, rel=1e-4)
    assert near_memory_detail(st, P64)[1]["port_lines"] == pytest.approx(4 * n * 4 / 64 / 64, rel=1e-3)


@pytest.mark.parametrize("model", [near_memory_cost, core_cost])
def test_monotonic_in_size(model):
    cycles = [model(vec_add(1 << k), P64).cycles for k in range(4, 24, 2)]
    assert cycles == sorted(cycles) and cycles[-1] > cycles[0]
    sums = [model(array_sum(1 << k), P64).cycles for k in range(4, 24, 2)]
    assert sums == sorted(sums)


def test_near_beats_core_on_streaming_and_core_has_twice_the_fp_rate_on_compute():
    assert near_memory_cost(vec_add(M4), P64).cycles * 3 < core_cost(vec_add(M4), P64).cycles
    n = M4
    heavy = RegionProfile((n,), ("parallel",), (stream1d("load", 0, n), stream1d("store", 1, n)), op_totals=ops(fp_mul=64 * n))
    # an SE_L3 does one 512-bit op per cycle, a core's FU pool two fp ops
    # (the cores' OpenMP fork and join, which the stream engines do not pay, aside)
    assert near_memory_cost(heavy, P64).cycles == pytest.approx(2 * (core_cost(heavy, P64).cycles - forkjoin_cycles(P64)), rel=0.01)


def test_small_configs():
    tiny = load_config("tiny")
    for model in (near_memory_cost, core_cost):
        c = model(vec_add(1000), tiny)
        assert c.cycles > 0 and c.link_loads.shape == (4, 2, 2)


# ---------------------------------------------------------------------------
# energy, stats, machine
# ---------------------------------------------------------------------------


def test_energy_from_config_constants():
    m = Machine("paper-64", mode="analysis")
    cost = near_memory_cost(vec_add(M4, b_offset=256), P64)
    m.account(cost, "region_near")
    e = m.stats.energy_pj
    q = cost.quantities
    assert e["compute"] == pytest.approx(q["vector_ops"] * P64.energy("vector_op"))
    assert e["readout"] == pytest.approx(q["l3_bytes"] * P64.energy("sram_read_byte"))
    assert e["noc"] == pytest.approx((cost.traffic["noc_data"] + cost.traffic["noc_control"]) * P64.energy("noc_byte_hop"))


def test_machine_account_adds_to_the_same_stats():
    m = Machine("paper-64", mode="analysis")
    near = near_memory_cost(vec_add(M4), P64)
    core = core_cost(vec_add(M4), P64)
    m.account(near, "region_near")
    m.account(core, "region_core")
    st = m.stats
    assert st.cycles["near_mem"] == near.cycles and st.cycles["core"] == core.cycles
    assert m.cycles == st.total_cycles == near.cycles + core.cycles
    assert st.traffic["noc_data"] == pytest.approx(core.traffic["noc_data"])
    assert st.noc_byte_hops == pytest.approx(core.link_loads.sum())
    assert st.commands == {"region_near": 1, "region_core": 1}
    assert sum(st.breakdown().values()) == pytest.approx(1.0)
    with pytest.raises(SimError, match="category"):
        m.account(Cost("bogus", cycles=1), "x")
    fm = Machine("tiny")  # functional mode too
    fm.account(near_memory_cost(vec_add(64), fm.cfg), "region_near")
    assert fm.stats.cycles["near_mem"] > 0


def test_new_config_fields():
    c = load_config("paper-64")
    assert (c.line_bytes, c.l3_bank_bytes_per_cycle, c.interleave_bytes, c.simd_lanes) == (64, 64, 1024, 16)
    assert c.l3_bytes == 64 * 18 * 16 * 8 * 1024
    assert load_config("paper-64", se_sync_lines=16).se_sync_lines == 16
    with pytest.raises(ConfigError, match="multiple of line_bytes"):
        load_config("paper-64", interleave_bytes=96)
    with pytest.raises(ConfigError, match="core_mshrs"):
        load_config("paper-64", core_mshrs=0)
    # at half the bank bandwidth vec_add near memory is port-bound: 2 cycles per line
    half = load_config("paper-64", l3_bank_bytes_per_cycle=32)
    assert near_memory_cost(vec_add(M4), half).cycles == 2 * 3 * 4096 + NEAR_LAT


# ---------------------------------------------------------------------------
# Near-L3 reuse (ASPLOS §8 / Fig. 15): held in the SE_L3 buffer, or re-read
# ---------------------------------------------------------------------------


def _st2(kind, array, shape, strides, accesses, elements, **kw):
    return StreamProfile(kind=kind, array=array, name=f"a{array}", elem_bytes=4, array_shape=shape, accesses=accesses,
                         elements=elements, lines=-(-elements * 4 // 64), offset=0, strides=strides, **kw)  # fmt: skip


def mm_inner(n):
    """C[i,j] = sum_k A[i,k] * Bt[j,k], one region over (i, j, k)."""
    return RegionProfile(
        extents=(n, n, n), iterators=("parallel", "parallel", "reduction"),
        streams=(_st2("load", 0, (n, n), (n, 0, 1), n**3, n * n), _st2("load", 1, (n, n), (0, n, 1), n**3, n * n),
                 _st2("store", 2, (n, n), (n, 1, 0), n * n, n * n, reduced=True)),
        ops=ops(fp_mul=1, fp_add=1), op_totals=ops(fp_mul=n**3, fp_add=n**3),
        reductions=(ReductionProfile("add", (2,), n**3, n * n, 4, "fp_add"),),
    )  # fmt: skip


def mm_outer_step(n):
    """One k of the outer product: C[i,j] += A[i,k] * B[k,j] over (i, j)."""
    return RegionProfile(
        extents=(n, n), iterators=("parallel", "parallel"),
        streams=(_st2("load", 0, (n, n), (n, 0), n * n, n), _st2("load", 1, (n, n), (0, 1), n * n, n),
                 _st2("load", 2, (n, n), (n, 1), n * n, n * n), _st2("store", 2, (n, n), (n, 1), n * n, n * n)),
        ops=ops(fp_mul=1, fp_add=1), op_totals=ops(fp_mul=n * n, fp_add=n * n),
    )  # fmt: skip


def test_rereads_hold_what_fits_the_stream_buffer():
    n = 2048
    # the outer product's B row (8 kB) is reused along i: held; A[i] along the inner j: held
    assert rereads(_st2("load", 1, (n, n), (0, 1), n * n, n), (n, n), 0.0, P64) == (1.0, {0})
    assert rereads(_st2("load", 0, (n, n), (n, 0), n * n, n), (n, n), 0.0, P64) == (1.0, {1})
    # the inner product's Bt (16 MB) reused along i: read again for every row
    assert rereads(_st2("load", 1, (n, n), (0, n, 1), n**3, n * n), (n, n, n), 0.0, P64) == (float(n), set())
    # a 64 kB table fits the 64 kB buffer alone, not beside other streams' lines in flight
    table = _st2("load", 1, (128, 128), (0, 128, 1), 128**3, 128 * 128)
    assert rereads(table, (128, 128, 128), 0.0, P64) == (1.0, {0})
    assert rereads(table, (128, 128, 128), 64.0, P64) == (128.0, set())


def test_near_reread_streams_pay_port_and_noc_per_walk():
    n = 512
    cost, terms = near_memory_detail(mm_inner(n), P64)
    # A (the anchor) is walked once per j (its 2 kB row is held), Bt once per i: n x its lines, forwarded n times
    bt_bytes = n * n * 4 * n
    assert cost.traffic["noc_data"] >= 0.9 * bt_bytes * 5  # ~5 mean hops on the 8x8 mesh
    held = near_memory_detail(mm_outer_step(n), P64)[0]
    assert held.traffic["noc_data"] < 64 * n * 4 * 8  # B's row multicast once per bank (an X-Y tree), A to its row's banks


def test_near_prefers_the_outer_product_at_scale():
    """ASPLOS Fig. 15: Near-L3 favours the outer product of mm (n steps of a 2-D region)."""
    n = 1024
    inner = near_memory_cost(mm_inner(n), P64).cycles
    outer = n * near_memory_cost(mm_outer_step(n), P64).cycles
    assert outer < inner


def test_regions_with_more_streams_than_an_se_takes_are_not_offloadable():
    from infs.sim.near.engine import not_offloadable

    def taps(n):
        return RegionProfile(extents=(64,), iterators=("parallel",), streams=tuple(stream1d("load", i, 64) for i in range(n)),
                             ops=ops(fp_add=1), op_totals=ops(fp_add=64))  # fmt: skip

    assert not_offloadable(taps(12), P64) is None
    assert not_offloadable(taps(13), P64) == "it has 13 streams; an SE_L3 takes 12 per core (NSC Table V)"


def test_64_bit_elements_get_half_the_vector_lanes():
    """AVX-512 holds 16 floats but 8 doubles: a region of f64 elements costs the
    cores and the stream engines twice the vector ops of the same region in f32
    (narrower elements keep the 32-bit lane count)."""
    from infs import api
    from infs.hardware import load_config
    from infs.runtime.region_profile import profile_region
    from infs.sim.core.baseline import core_cost
    from infs.sim.near.engine import vector_lanes

    text = """func.func @f(%A: memref<?xT>, %B: memref<?xT>, %n: index) {
  stream.region ins(%A, %B : memref<?xT>, memref<?xT>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xT>, %b: memref<?xT>, %N: index):
    %x = stream.load %a[d0] : memref<?xT> -> !stream.stream<T>
    %y = stream.compute(%x : !stream.stream<T>) -> !stream.stream<T> {
    ^bb1(%v: T):
      %s = arith.mulf %v, %v : T
      %t = arith.mulf %s, %v : T
      stream.yield %t : T
    }
    stream.store %y -> %b[d0] : !stream.stream<T> -> memref<?xT>
    stream.yield
  }
  func.return
}"""
    cfg = load_config("paper-64")
    n = 1 << 16
    lanes, compute = {}, {}
    for t, dt in (("f32", np.float32), ("f64", np.float64)):
        (region,) = [op for op in api.parse_text(text.replace("T", t)).walk() if op.name == "stream.region"]
        p = profile_region(region, [np.zeros(n, dt), np.zeros(n, dt)], [n])
        lanes[t] = vector_lanes(p, cfg)
        compute[t] = core_cost(p, cfg).cycles
    assert lanes == {"f32": 16, "f64": 8}
    assert compute["f64"] > compute["f32"]


def _stencil3d(l=16, m=512, n=512):
    """B = f(7 taps of A) over the interior of an l x m x n f32 grid, as the workload writes it."""
    ext = (l - 2, m - 2, n - 2)
    base = m * n + n + 1
    pts = math.prod(ext)

    def tap(kind, array, off):
        return StreamProfile(kind, array, f"a{array}", 4, (l, m, n), pts, pts, pts // 16, base + off, (m * n, n, 1))

    offs = (-m * n, m * n, -n, n, -1, 1, 0)
    return RegionProfile(ext, ("parallel",) * 3, (*(tap("load", 0, o) for o in offs), tap("store", 1, 0)),
                         op_totals=ops(fp_add=6 * pts, fp_mul=7 * pts))  # fmt: skip


def test_stencil_taps_share_lines_only_within_a_thread_s_chunk_and_its_l2():
    """A thread of the collapsed (i, j) loop walks ~110 rows (~220 kB) of one plane: its north/south
    taps (a 2 kB row apart) overlap its centre rows and are reused from the private L2 (Table 2:
    256 kB); the up/down taps (a 1 MB plane apart) are rows no other tap of the thread reads: A is
    read three times, B fetched for ownership and written back."""
    from infs.sim.core.baseline import tap_reads

    tap_bytes = 14 * 510 * 32 * 64  # the interior: 14 planes x 510 rows x 32 lines
    t = core_detail(_stencil3d(), P64)[1]
    assert t["threads"] == 64
    assert t["bytes"] == pytest.approx(3 * tap_bytes + 2 * tap_bytes, rel=0.01)
    assert core_detail(_stencil3d(), load_config("paper-64", core_l2_bytes=0))[1]["bytes"] > 1.5 * t["bytes"]
    # a 2-D stencil's taps (rows of 8 kB apart, within a thread's 32 rows) share: A once
    span = 2046 * 2048 * 4 / 64
    rows = [-8192, -4, 0, 4, 8192]
    assert tap_reads(rows, span, 2.0, P64) == pytest.approx(1 + (8188 + 4 + 4 + 8188) / span)
    # ... but not when the reuse distance (8 kB x 2 streams) exceeds a smaller L2
    small = load_config("paper-64", core_l2_bytes=8192)
    assert tap_reads(rows, span, 2.0, small) == pytest.approx(3 + 8 / span)
    assert tap_reads([0], span, 2.0, P64) == 1.0 and tap_reads([0, 0], span, 2.0, P64) == 1.0  # a load and its in-place store
