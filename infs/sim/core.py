"""The core baseline: the Base configuration's cost model (ASPLOS §2.2, §7, Eq. 1-2).

``core_cost(profile, cfg)`` prices a ``RegionProfile`` run by ``cores`` OpenMP
threads, vectorized with AVX-512, and returns a ``Cost`` of category ``core``.
The data is in L3 (as ASPLOS Fig. 2 assumes) unless it does not fit, or
``cold=True``.

Threads: ``T = min(cores, extent of d0, iterations / simd_lanes)``
(``near.threads_of``), statically partitioning the outermost dim, one per
tile, spread evenly over the mesh (uniform core placement); the host thread
is on ``host_tile``.

Bytes moved (every line from its home bank to the core tile that uses it):

* an affine stream moves its distinct lines once per thread that needs them:
  once in all when it moves along d0 (each thread has its own part), ``T``
  times when it does not (every thread reads all of it).  Reuse inside a
  thread is captured by its private caches (tiled code, as the paper's Base);
  streams of one array with the same address steps (stencil taps, a load and
  the store updating the same cells) share their lines;
* a written line is fetched (for ownership, or by the load that read it) and
  written back: 2 x;
* an indirect stream fetches one line per request (``lines``; 2 x for
  stores/atomics).

Time: the largest of (all overlapped)

* compute: ``sum_class(op_totals x cycles_class) / (simd_lanes x T)`` -- one
  512-bit vector op per cycle per core (divides ``vector_div_cycles``), plus
  one op per ``simd_lanes`` atomic elements; loads/stores issue on separate
  ports;
* L3 banks: bytes per bank / ``l3_bank_bytes_per_cycle``;
* NoC: per-pair bytes (each bank's bytes shared evenly by the threads'
  tiles; write-backs the other way) routed X-Y: busiest link / ``link_bytes``,
  and each core tile's ejection;
* indirect accesses: latency-bound, ``core_mshrs`` lines in flight per core,
  each a round trip ``l3_latency + 2 x mean_hops x hop_cycles``;
* memory-level parallelism (``mlp``): every line a thread fetches, affine or
  indirect, holds one of its ``core_mshrs`` (16 L2 MSHRs, gem5
  ``configs/common/Options.py:200``) for that round trip (issue 11 item 4);
* DRAM: when the footprint exceeds the L3 (or ``cold``), every array byte once
  at ``dram_gbps``;

plus a fork/join barrier and the first access's latency (``2 x far_hops x
hop_cycles + l3_latency``), and for a region result (full reduction) the
``T`` partials combined by the host thread.  Requests (one ``control_bytes``
header per line, bank-ward) are control traffic.
"""

from __future__ import annotations

import math

import numpy as np

from infs.sim.config import HardwareConfig
from infs.sim.near import data_traffic, mesh_consts, settle, stream_bank_lines, threads_of, vector_lanes, weighted_ops
from infs.sim.stats import Cost
from infs.sim.workload_profile import RegionProfile


def core_tiles(cfg: HardwareConfig, threads: int) -> np.ndarray:
    """Tiles of ``threads`` threads spread evenly over the mesh."""
    return np.unique(np.round(np.linspace(0, cfg.banks - 1, threads)).astype(np.int64)) if threads < cfg.banks else np.arange(cfg.banks)


def core_cost(profile: RegionProfile, cfg: HardwareConfig, cold: bool = False) -> Cost:
    """Cycles, traffic and energy of ``profile`` run on the cores (module docstring)."""
    return core_detail(profile, cfg, cold)[0]


def core_detail(profile: RegionProfile, cfg: HardwareConfig, cold: bool = False) -> tuple[Cost, dict[str, float]]:
    """``core_cost`` and its terms in cycles: ``compute``, ``port``, ``link``, ``eject``,
    ``indirect``, ``mlp``, ``dram``, ``latency``, ``tail``, and ``bytes`` moved L3 <-> cores."""
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
    vector_ops = weighted_ops(profile, cfg) / lanes
    # Affine streams of one array with the same address steps (stencil taps, a
    # load and the store that updates it) share their lines in the private caches.
    groups: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
    for s in streams:
        if not s.accesses:
            continue
        if s.kind == "atomic":
            vector_ops += s.accesses / lanes
        if s.indirect:
            per_bank = stream_bank_lines(s, ext, cfg)
            total = per_bank.sum()
            # an empty target array has no lines (every index is outside it:
            # the program's error, which the reference reports after this cost)
            per_bank = per_bank / total * s.lines if total else per_bank
            ind_lines += s.lines
            read_b += per_bank * L
            if s.is_write:
                write_b += per_bank * L
            continue
        per_bank = stream_bank_lines(s, ext, cfg)
        if ext and s.strides[0] == 0 and ext[0] > 1:
            per_bank = per_bank * threads  # every thread reads it
        key = (s.array, s.strides)
        r, w = groups.get(key, (np.zeros(B), np.zeros(B)))
        groups[key] = (np.maximum(r, per_bank), np.maximum(w, per_bank) if s.is_write else w)
    for r, w in groups.values():
        read_b += r * L
        write_b += w * L
    compute = vector_ops / threads

    port_b = read_b + write_b
    flows = np.outer(read_b, share) + np.outer(write_b, share).T  # bank -> tile reads, tile -> bank write-backs
    req_bh = float((np.outer(share, read_b / L) * hops).sum()) * cfg.control_bytes  # request headers

    mean_hops = float((np.outer(share, np.full(B, 1.0 / B)) * hops).sum())
    rtt = cfg.l3_latency + 2 * mean_hops * mesh.hop_cycles
    indirect = ind_lines / threads / (cfg.core_mshrs / rtt) if ind_lines else 0.0
    # Every line a core fetches (affine streams and their L2 stride prefetches
    # included) holds one of its core_mshrs L2 MSHRs for a round trip
    # (Little's law): gem5 Options.py:200 gives 16 per private L2.
    affine_lines = float(sum(r.sum() for r, _w in groups.values()))
    # The first window of core_mshrs lines is the latency term's round trip.
    mlp = max(0.0, (affine_lines + ind_lines) / threads - cfg.core_mshrs) / cfg.core_mshrs * rtt

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
        "dram": dram_cycles,
    }
    latency = 2 * far * mesh.hop_cycles + cfg.l3_latency
    settle(cost, terms, latency, tail, loads, data_bh, req_bh, float(port_b.sum()), vector_ops, dram_bytes)
    terms.update(bytes=float(port_b.sum()), threads=float(threads))
    return cost, terms
