"""The core baseline: the Base configuration's cost model (ASPLOS §2.2, §7, Eq. 1-2).

``core_cost(profile, cfg)`` prices a ``RegionProfile`` run by ``cores`` OpenMP
threads, vectorized with AVX-512, and returns a ``Cost`` of category ``core``.
The data is in L3 (as ASPLOS Fig. 2 assumes) unless it does not fit, or
``cold=True``.

Threads: ``T = min(cores, points of the collapsed outer parallel dims,
iterations / simd_lanes)`` (``near.threads_of``): the leading parallel dims
but the innermost fused into one loop and split statically, as the authors'
OpenMP kernels do (``collapse``, omp_stencil3d_avx.c:27-33), one thread per
tile, spread evenly over the mesh (uniform core placement); the host thread
is on ``host_tile``.

Bytes moved (every line from its home bank to the core tile that uses it):

* an affine stream moves its distinct lines once per thread that needs them
  (``near.stream_threads``): once in all when it moves along every collapsed
  dim (each thread has its own part), ``T`` times when it moves along none
  (every thread reads all of it), in between when a thread's chunk of the
  collapsed loop spans only part of a dim it moves along.  Reuse inside a
  thread is captured by its private caches (tiled code, as the paper's Base);
  streams of one array with the same address steps (stencil taps, a load and
  the store updating the same cells) share their lines where a thread's chunks
  of them overlap and the reuse fits the private L2 (``tap_reads``);
* a written line is fetched (for ownership, or by the load that read it) and
  written back: 2 x;
* an indirect stream fetches one line per request (``lines``; 2 x for
  stores/atomics).

Time: the largest of (all overlapped)

* compute: the region's 512-bit instructions on one core's functional units,
  gem5's GemForgeO8FUPool (Table 2; ``fu_pool_cycles``): fp add/sub/mul/div on
  ``core_fp_simd_units`` FP-SIMD units of ``core_fp_simd_cycles`` each
  (unpipelined: two per cycle), integer, compare/select and other ops (and one
  per ``simd_lanes`` atomic elements) on ``core_int_simd_units``, loads and
  stores on ``core_mem_ports``, all within ``core_issue_width`` per cycle, over
  ``T`` cores.  (Eq. 2's TP_core, one 512-bit op per core per cycle, §2.2/§4.3,
  is the runtime's estimate, not this model);
* L3 banks: bytes per bank / ``l3_bank_bytes_per_cycle``;
* NoC: per-pair bytes (each bank's bytes shared evenly by the threads'
  tiles; write-backs the other way) routed X-Y: busiest link / ``link_bytes``,
  and each core tile's ejection;
* indirect accesses: latency-bound, ``demand_window`` lines in flight per core
  (``core_mshrs``, or fewer load-queue entries: NSC Table V's IO4 has 4),
  each a round trip ``core_l2_cycles + l3_latency + 2 x mean_hops x
  hop_cycles`` (the private L2's lookup, Table 2, then the bank and back);
* memory-level parallelism (``mlp``): every line a thread fetches, affine or
  indirect, holds one of its ``core_mshrs`` (16 L2 MSHRs, gem5
  ``configs/common/Options.py:200``) for that round trip;
* DRAM: when the footprint exceeds the L3 (or ``cold``), every array byte once
  at ``dram_gbps``;

Floated streams (``floated=True``: NSC's NS_no_comp, Stream Floating [68];
SINGLE's and INST's prefetching, §VI): the load streams are offloaded
without their computation -- the SE_L3s push each line to the core's SE_core
FIFO, so a load line holds no MSHR and sends no request; instead the FIFO
(``se_core_fifo_bytes``, Table V) bounds what is in flight, by Little's law
``fifo / round trip`` bytes per cycle per core (``fifo`` term); a credit and a
done message per ``se_sync_lines`` lines (control).  Stores and the compute
stay on the cores.

plus the region's fork and join (``forkjoin_cycles``: the OpenMP team released
and gathered by libomp's hyper barrier, once per region call, so a host loop of
``k`` calls pays ``k`` of them), the first access's latency (``2 x far_hops x
hop_cycles + l3_latency + core_l1_cycles + core_l2_cycles``), and for a region
result (full reduction) the ``T`` partials combined by the host thread.  Requests (one ``control_bytes``
header per line, bank-ward) are control traffic.
"""

from __future__ import annotations

import math

import numpy as np

from infs.sim.config import HardwareConfig
from infs.sim.pointer_chase import chase_terms
from infs.sim.near.engine import data_traffic, mesh_consts, settle, stream_bank_lines, stream_threads, threads_of, vector_lanes
from infs.sim.stats import Cost
from infs.sim.workload_profile import RegionProfile


def core_tiles(cfg: HardwareConfig, threads: int) -> np.ndarray:
    """Tiles of ``threads`` threads spread evenly over the mesh."""
    return np.unique(np.round(np.linspace(0, cfg.banks - 1, threads)).astype(np.int64)) if threads < cfg.banks else np.arange(cfg.banks)


def tap_reads(offsets: list[int], span: float, rate: float, cfg: HardwareConfig) -> float:
    """How many times one thread reads the lines of one tap, for the taps of one array
    with the same address steps at byte ``offsets`` (sorted; stencil taps, a load and
    the store updating it), each thread covering ``span`` bytes of each tap.

    The taps' ranges ``[o, o + span)`` overlap where consecutive offsets are less than
    ``span`` apart; an overlap is read once only if the data stays in the private L2
    between the two uses: the bytes all the region's streams bring in meanwhile
    (``gap x rate``, ``rate`` = bytes per byte of this array) fit ``core_l2_bytes``
    (Table 2: 256 kB).  So stencil3d's north/south taps (a 2 kB row apart) share their
    lines, its up/down taps (a 1 MB plane apart, beyond a thread's chunk of ~220 kB
    of rows: the authors' kernel walks the fused (i, j) rows, omp_stencil3d_avx.c:32-33)
    are read again: A three times."""
    if span <= 0 or len(offsets) < 2:
        return 1.0
    union = span
    for a, b in zip(offsets, offsets[1:]):
        gap = float(b - a)
        union += min(gap, span) if gap * rate <= cfg.core_l2_bytes else span
    return union / span


def barrier_levels(team: int, radix: int) -> int:
    """Levels of a radix-``radix`` tree over ``team`` threads: the least ``L`` with
    ``radix ** L >= team`` (0 for a team of one)."""
    levels, reach = 0, 1
    while reach < team:
        levels, reach = levels + 1, reach * radix
    return levels


def forkjoin_cycles(cfg: HardwareConfig) -> int:
    """Cycles of one ``#pragma omp parallel for`` region's fork and join on the cores.

    The authors' Base kernels open one such region per host-loop step (gauss_elim's
    ``foo(..., k)``, gem-forge-transform omp_gaussian_elim_avx.c:41-43, 89-90) and
    run LLVM's libomp (the ``__kmp_hyper_barrier_release`` / ``__kmp_join_barrier``
    / ``__kmp_fork_call`` symbols gem5's o3_cpu_delegator.cc:746-754 names); the
    team of ``cores`` threads is created by a warm-up region before the stats are
    reset (omp_gaussian_elim_avx.c:187-193), so a measured region pays the fork's
    release and the join's gather only -- every thread of the team, whether its
    static chunk is empty or not (``omp_set_num_threads(numThreads)``).

    Both are libomp's hyper barrier with branch factor ``core_barrier_radix``
    (kmp_global.cpp: 4): ``barrier_levels(cores, radix)`` levels each way.  At a
    level a parent polls its ``radix - 1`` children's flags in turn, each a line
    the child wrote: the child's store invalidating the parent's copy and the
    parent's re-fetch of each child's line, ``radix`` coherence round trips in
    all; the release is the mirror image (``radix - 1`` stores, each taking a
    child's line for ownership, in order under x86-TSO, then the child's re-fetch).
    A round trip is an L2 miss to the flag line's home L3 bank and back:
    ``core_l2_cycles + l3_latency + 2 x mean_hops x hop_cycles`` over the team's
    tiles and the banks (lines interleaved over every bank), as ``core_detail``'s
    ``rtt``.  So ``2 x levels x radix x rtt``: on paper-64, 3 levels of 64 threads,
    a 99-cycle round trip, 2,376 cycles (1.2 us at 2 GHz) per region."""
    levels = barrier_levels(cfg.cores, cfg.core_barrier_radix)
    if not levels:
        return 0
    mc = mesh_consts(cfg)
    tiles = core_tiles(cfg, cfg.cores)
    mean_hops = float(mc.hops[tiles].mean())  # a thread's tile to a flag line's home bank
    rtt = cfg.core_l2_cycles + cfg.l3_latency + 2 * mean_hops * mc.mesh.hop_cycles
    return int(math.ceil(2 * levels * cfg.core_barrier_radix * rtt - 1e-9))


def fu_pool_instructions(profile: RegionProfile, cfg: HardwareConfig, lanes: int) -> dict[str, float]:
    """512-bit instructions of the region by the functional units that issue them:
    ``fp`` (the FP-SIMD units: fp add/sub/mul/div, each one instruction -- the
    authors' AVX-512 kernels write separate ``_mm512_mul_ps``/``_mm512_add_ps``,
    gem-forge-transform benchmark/GemForgeMicroSuite/gfm_utils.h:20-26, and a
    ``math.fma`` the profile counts as a mul and an add), ``int`` (the integer
    SIMD units: int add/mul, compares, selects, min/max, casts), ``mem`` (loads
    and stores, added per stream by ``core_detail``)."""
    t = profile.op_totals
    fp = (t.get("fp_add", 0) + t.get("fp_mul", 0) + t.get("fp_div", 0)) / lanes
    other = t.get("other", 0) * cfg.vector_other_cycles
    integer = (t.get("int_add", 0) + t.get("int_mul", 0) + t.get("cmp_select", 0) + other) / lanes
    return {"fp": float(fp), "int": float(integer), "mem": 0.0}


def fu_pool_cycles(fu: dict[str, float], cfg: HardwareConfig) -> float:
    """Cycles of one core issuing ``fu`` (``fu_pool_instructions``) on the FU pool
    of gem5's GemForgeO8FUPool (Table 2): the FP-SIMD units take one op each
    ``core_fp_simd_cycles`` (unpipelined), the integer SIMD units and the memory
    ports one per cycle each, all under the ``core_issue_width`` issue limit."""
    return max(
        fu["fp"] * cfg.core_fp_simd_cycles / cfg.core_fp_simd_units,
        fu["int"] / cfg.core_int_simd_units,
        fu["mem"] / cfg.core_mem_ports,
        (fu["fp"] + fu["int"] + fu["mem"]) / cfg.core_issue_width,
    )


def demand_window(cfg: HardwareConfig) -> int:
    """Demand loads one core keeps in flight: an L2 MSHR each (``core_mshrs``) and a
    load-queue entry each (``core_load_queue``, NSC Table V: IO4 4, OOO4 24, OOO8 72)."""
    return min(cfg.core_mshrs, cfg.core_load_queue)


def core_cost(profile: RegionProfile, cfg: HardwareConfig, cold: bool = False) -> Cost:
    """Cycles, traffic and energy of ``profile`` run on the cores (module docstring)."""
    return core_detail(profile, cfg, cold)[0]


def core_latency(cfg: HardwareConfig) -> int:
    """``core_detail``'s latency term: the fork and join (``forkjoin_cycles``), a round
    trip to the bank farthest from the host tile, the L3's and the private caches'
    latencies."""
    mc = mesh_consts(cfg)
    return forkjoin_cycles(cfg) + 2 * mc.far_from_host * mc.mesh.hop_cycles + cfg.l3_latency + cfg.core_l1_cycles + cfg.core_l2_cycles


def core_floor(profile: RegionProfile, cfg: HardwareConfig) -> int:
    """A lower bound of ``core_cost(profile, cfg, cold).cycles`` at either residency,
    without pricing it: its latency term (``core_latency``), to which ``settle`` adds
    the largest of terms that are never negative and a tail that is not either; 0 for
    a region with nothing to do (no cost at all)."""
    if not any(s.accesses for s in profile.streams) and profile.iterations == 0:
        return 0
    return core_latency(cfg)


def core_detail(profile: RegionProfile, cfg: HardwareConfig, cold: bool = False, floated: bool = False) -> tuple[Cost, dict[str, float]]:
    """``core_cost`` and its terms in cycles: ``compute``, ``port``, ``link``, ``eject``,
    ``indirect``, ``mlp``, ``dram``, ``latency`` (``forkjoin`` included), ``tail``, and ``bytes``
    moved L3 <-> cores; ``floated``: the load streams offloaded without computation
    (module docstring), with a ``fifo`` term."""
    cost = Cost("core")
    streams = profile.streams
    if not any(s.accesses for s in streams) and profile.iterations == 0:
        return cost, {}
    B, L = cfg.banks, cfg.line_bytes
    mc = mesh_consts(cfg)
    mesh, banks, hops = mc.mesh, mc.banks, mc.hops
    ext = profile.extents
    lanes = vector_lanes(profile, cfg)
    threads = threads_of(profile, cfg)
    tiles = core_tiles(cfg, threads)
    share = np.zeros(B)
    share[tiles] = 1.0 / tiles.size  # each bank's bytes split evenly over the thread tiles

    read_b = np.zeros(B)  # bytes read per bank (to cores)
    write_b = np.zeros(B)  # bytes written back per bank (from cores)
    ind_lines = 0.0
    floated_lines = 0.0  # load lines the SE_L3s push to the cores (floated)
    fu = fu_pool_instructions(profile, cfg, lanes)
    vector_ops = fu["fp"] + fu["int"]  # compute instructions (energy: vector_op each)
    # Affine streams of one array with the same address steps (stencil taps, a
    # load and the store that updates it): (lines read, lines written, byte
    # offsets, element bytes); their lines are shared as far as ``tap_reads`` says.
    groups: dict[tuple, tuple[np.ndarray, np.ndarray, set[int], int]] = {}
    for s in streams:
        if not s.accesses:
            continue
        if s.kind == "atomic":
            vector_ops += s.accesses / lanes
            fu["int"] += s.accesses / lanes
        fu["mem"] += s.accesses / lanes
        if s.indirect:
            per_bank = stream_bank_lines(s, ext, cfg)
            total = per_bank.sum()
            # an empty target array has no lines (every index is outside it:
            # the program's error, which the reference reports after this cost)
            per_bank = per_bank / total * s.lines if total else per_bank
            if floated and s.kind == "load":
                floated_lines += s.lines
            else:
                ind_lines += s.lines
            read_b += per_bank * L
            if s.is_write:
                write_b += per_bank * L
            continue
        per_bank = stream_bank_lines(s, ext, cfg)
        per_bank = per_bank * stream_threads(s, profile, threads)  # threads sharing its cells each read them
        key = (s.array, s.strides)
        r, w, offs, eb = groups.get(key, (np.zeros(B), np.zeros(B), set(), s.elem_bytes))
        offs.add(s.offset * s.elem_bytes)
        groups[key] = (np.maximum(r, per_bank), np.maximum(w, per_bank) if s.is_write else w, offs, eb)
    rate = sum(g[3] for g in groups.values())  # bytes all groups bring in per element step
    demand_affine = 0.0  # affine lines the cores fetch themselves (floated: the written arrays')
    for key, (r, w, offs, eb) in list(groups.items()):
        r = r * tap_reads(sorted(offs), float(r.sum()) * L / threads, rate / eb, cfg)
        groups[key] = (r, w, offs, eb)
        read_b += r * L
        write_b += w * L
        if floated and not w.any():
            floated_lines += float(r.sum())
        else:
            demand_affine += float(r.sum())
    compute = fu_pool_cycles(fu, cfg) / threads

    port_b = read_b + write_b
    flows = np.outer(read_b, share) + np.outer(write_b, share).T  # bank -> tile reads, tile -> bank write-backs
    req_bh = float((np.outer(share, read_b / L) * hops).sum()) * cfg.control_bytes  # request headers
    if floated and floated_lines:
        # pushed lines send no request; a credit and a done per se_sync_lines lines instead
        pushed = floated_lines / max(1.0, float(read_b.sum()) / L)
        req_bh *= 1.0 - pushed
        req_bh += floated_lines / cfg.se_sync_lines * 2 * cfg.control_bytes * float(mc.mean_hops)

    mean_hops = float((np.outer(share, np.full(B, 1.0 / B)) * hops).sum())
    # an L2 MSHR is held from the private L2's lookup (Table 2: 16 cycles) through the
    # mesh and the L3 bank and back (the L1's 2 cycles come before it: ``latency``)
    rtt = cfg.core_l2_cycles + cfg.l3_latency + 2 * mean_hops * mesh.hop_cycles
    indirect = ind_lines / threads / (demand_window(cfg) / rtt) if ind_lines else 0.0
    # Every line a core fetches (affine streams and their L2 stride prefetches
    # included) holds one of its core_mshrs L2 MSHRs for a round trip
    # (Little's law): gem5 Options.py:200 gives 16 per private L2.
    affine_lines = demand_affine
    # The first window of core_mshrs lines is the latency term's round trip.
    mlp = max(0.0, (affine_lines + ind_lines) / threads - cfg.core_mshrs) / cfg.core_mshrs * rtt
    # floated lines wait in the SE_core FIFO from the SE_L3's send to the core's use
    # (Little's law: fifo bytes per round trip per core; the round trip from the bank)
    fifo = floated_lines * L / threads / (cfg.se_core_fifo_bytes / (rtt - cfg.core_l2_cycles)) if floated_lines else 0.0

    loads, data_bh, dram_bytes, dram_cycles = data_traffic(flows, hops, profile.footprint_bytes, cold, cfg, mesh, banks)

    tail = 0
    far = mc.far_from_host
    for r in profile.reductions:
        if r.scalar and threads > 1:
            tail += far * mesh.hop_cycles + math.ceil(threads * r.results / lanes)
            vector_ops += threads * r.results / lanes
    terms = {
        "compute": compute,
        "port": float(port_b.max()) / cfg.l3_bank_bytes_per_cycle,
        "link": float(loads.max()) / cfg.link_bytes,
        "eject": float(flows.sum(axis=0).max()) / cfg.link_bytes,
        "indirect": indirect,
        "mlp": mlp,
        "fifo": fifo,
        "dram": dram_cycles,
    }
    # a pointer chase's step: a load whose address is the previous step's element, its
    # L2 miss's round trip to the bank and back, as an indirect line's (sim/pointer_chase.py)
    terms.update(chase_terms(profile, threads, rtt))
    forkjoin = forkjoin_cycles(cfg)
    latency = core_latency(cfg)
    settle(cost, terms, latency, tail, loads, data_bh, req_bh, float(port_b.sum()), vector_ops, dram_bytes)
    terms.update(bytes=float(port_b.sum()), threads=float(threads), forkjoin=float(forkjoin))
    return cost, terms
