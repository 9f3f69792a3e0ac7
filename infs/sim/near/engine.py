"""Near-memory streams: the NSC / Near-L3 cost model (HPCA'22 §IV, ASPLOS §5.1, §7).

``near_memory_cost(profile, cfg)`` prices a ``RegionProfile`` run by the L3
stream engines (SE_L3) and returns a ``Cost`` of category ``near_mem``.  The
region's streams are offloaded to the banks holding their data; the data is
in L3 (as ASPLOS Fig. 2 assumes) unless it does not fit, or ``cold=True``.

Placement.  Static NUCA: byte ``a`` of an array is in bank
``(a // interleave_bytes) % banks`` (arrays start 64 kB-aligned, so block 0 is
in bank 0).  ``stream_bank_lines`` counts, per bank, the distinct lines an
affine stream touches -- closed-form per contiguous run of lines, vectorized
over runs (``workload_profile.affine_line_ranges``; spread evenly beyond
65,536 runs).

Where the work happens (NSC §II "Multi-op"): at the *anchor* stream's banks --
the (first) affine store/atomic of unreduced values, else the affine load
with the most distinct cells.  The region's iterations are spread over the
banks like the anchor's lines (``p_it``).

Per bank ``b``, all overlapped (streams are pipelined):

* L3 port: every line an affine stream reads or writes at its home bank, and
  one line access per indirect request at its target bank (atomics: read +
  write, two) -- ``bytes_b / l3_bank_bytes_per_cycle``;
* compute: ``p_it[b] x sum_class(op_totals x cycles_class) / simd_lanes``
  (one 512-bit op per cycle; divides ``vector_div_cycles``), plus one op per
  atomic request at its target bank;
* stream buffer (NSC Table V: 1 kB per core in each SE_L3): by Little's law
  a bank streams at most ``buffer_lines / hold`` lines per cycle, where a line
  is held ``l3_latency + se_init_cycles`` (+ its forwarding hops x
  ``hop_cycles``; indirect: the request's round trip) and the ``T`` threads'
  streams share the banks holding the work (``T/active`` x 1 kB per bank);
* NoC: operands forwarded to the anchor (NSC §IV-A "Stream Forward"), values
  forwarded from the anchor to other stores, indirect responses/payloads and
  reduction partials, as per-pair bytes routed X-Y (``noc.Mesh``): the busiest
  link's bytes / ``link_bytes``, and each bank's injection and ejection.

Forwarding volume of an operand stream X towards the anchor Y:

* same address steps in bytes along every dim (element-wise): X[i] sits at a
  constant byte distance ``D`` from Y[i]; with ``D = q*IL + r`` a fraction
  ``(IL - r)/IL`` of the elements comes from the bank ``q`` blocks away and
  ``r/IL`` from ``q + 1`` (``q = r = 0``: all local, vec_add);
* other steps, X moving along every dim Y moves along (transposes, strided
  and shifted views): each X element goes to its consumer's bank; the bank
  offsets between the two are counted on a deterministic grid of iteration
  points (``bank_offsets``, at most 65,536 points) and applied to Y's banks;
* X broadcast along dims Y moves along, and the stream engine holds X between
  its uses (``rereads``: X's bytes inside the reused dim fit the SE_L3 stream
  buffer beside the other streams' lines in flight -- ASPLOS §8 "partially
  recognize the broadcast pattern"): X's bank is independent of Y's; each
  distinct X cell is sent once to every bank its consumers span --
  ``ceil(span/IL)`` banks for the byte span of Y over those dims -- spread as
  X's lines x Y's lines, and multicast on an X-Y tree (Table 2: "multicast X-Y
  routing") when that is every bank;
* X reused along a dim whose data does not fit the buffer (§8: Near-L3
  "cannot explore the data reuse when offloaded to L3", e.g. B of an
  inner-product mm): X is read from L3 and forwarded again at every step of
  that dim (L3 port, stream buffer and NoC all pay each walk).

Indirect streams (NSC §IV-C) send one request per line (``run`` elements)
from the anchor to the target's bank, uniform over the target array's banks:
a header (``control_bytes``, control traffic) plus, for stores/atomics, the
payload; loads get the payload back.  Reductions (NSC §II "Reduce") fold
partial results in every bank one result's reduced elements span (``k =
ceil(span/IL)``, at most ``banks``); the ``results x k`` partials go to the
bank of the store that writes them, or to the core (``host_tile``) for a
region result, which combines them (``/ simd_lanes``) after the stream ends.

Control traffic (bytes x mean hops): each of ``min(cores, points of the
collapsed outer parallel dims, iterations / simd_lanes)`` threads (``threads_of``)
configures each stream
(``se_config_bytes``); a stream migrating to the next bank sends its
configuration there; a credit and a done message (``control_bytes``) per
``se_sync_lines`` lines per stream.

Atomics and affine stores are performed at their home bank (affine atomics
also pay a read and a write per line and one vector op per ``simd_lanes``
elements).  Time = the largest per-bank bound + latency + the core's final
reduction (``tail``).

Latency: the configuration reaching the farthest bank, the first L3 access,
the SE compute initiation and the completion back to the core:
``2 x far_hops x hop_cycles + l3_latency + se_init_cycles``.

DRAM: when the footprint exceeds the L3 (or ``cold``), every array byte comes
from DRAM once (``dram_gbps``), overlapped with the streaming.

Energy: L3 line bytes (``sram_read_byte``), vector ops (``vector_op``),
bytes x hops (``noc_byte_hop``), DRAM bytes.

NSC's configurations (HPCA'22 §VI; ``cfg.near_config``).  This function prices
the ones whose streams and computation sit at the banks; ``sim/near/nsc.py``
dispatches the others (NS_no_comp, and what INST and SINGLE cannot offload) to
the cores.  What separates them here (``nsc_terms``):

* NS -- range synchronization (§IV-B): an indirect stream's SE_L3 reports the
  ``[min, max)`` range it touched every ``se_sync_lines`` requests
  (``RANGE_BYTES``: two of Table IV's 48-bit addresses and a header, to the
  core; affine ranges are built by SE_core, no traffic), the core sends a
  commit message per ``se_sync_lines`` lines of every store/atomic stream
  ("only then can streams write back"); an affine stream's ranges are known
  to SE_core, whose commits go ahead with the credits (no wait), but an
  indirect one's line waits in the stream buffer for its range to reach the
  core and the commit to come back, and a buffered indirect store/atomic
  for two round trips (§VII-B: "two round trips to collect results and
  commit the buffered indirect atomics"), its line's lock too.
* NS_no_sync -- no ranges, no commits (§V): streams commit at once; credits and
  done messages stay (they "still report their progress").
* NS_decouple -- NS_no_sync, and fully decoupled loops (§V, Fig. 8): SE_core
  runs ``se_streams_per_core // streams`` instances of the region at once, so a
  call's latency is overlapped with the next calls' by that factor.
* INST (Omni-Compute-like, §VI) -- one offload per iteration: a request and a
  response (``control_bytes`` each, per stream and vector iteration) between
  the core and the banks, the core keeping ``min(core_mshrs,
  core_load_queue)`` in flight (each a round trip); no range-sync.
* SINGLE (Livia-like, §VI) -- sync-free, as NS_no_sync, for the regions whose
  function touches one data structure (an index stream chained to it allowed);
  indirect atomics fall back to INST (§VII-B).

In all of them: the lock of an indirect atomic's cell (§IV-C) serializes the
other threads' requests to it for ``lock window`` cycles each -- the L3 access, plus the
commit protocol under NS; the MRSW lock (``near_lock``) only for the atomics
that change the value: an add always, a min/max on ``k`` updates of a cell
``H_k / k`` of them (the expected records of ``k`` values in random order).
The scalar PE (``near_scalar_pe``, §VII-D)
serves a region with an indirect stream and at most one op per iteration
without the SCM's ``se_init_cycles``; the SCM's rate is at most
``scc_rob_entries / (se_init_cycles + 1)`` vector ops per cycle (Little's law
over its ROB entries, Table V; ``scc_count`` ops in flight in-order).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from functools import lru_cache

import numpy as np

from infs.sim.config import HardwareConfig
from infs.sim.pointer_chase import chase_terms
from infs.noc import Mesh, memory_controllers, nearest
from infs.sim.stats import Cost
from infs.sim.workload_profile import RegionProfile, StreamProfile, affine_line_count, affine_line_ranges


def mesh_of(cfg: HardwareConfig) -> Mesh:
    return Mesh(cfg.mesh_rows, cfg.mesh_cols, cfg.link_bytes, cfg.hop_cycles)


class _MeshConsts:
    """What the near-memory and core models read of a config's mesh, computed once
    per config (``mesh_consts``; the arrays are shared: read-only)."""

    def __init__(self, cfg: HardwareConfig):
        B = cfg.banks
        self.cfg = cfg
        self.mesh = mesh_of(cfg)
        self.banks = np.arange(B)
        self.hops = self.mesh.hops(self.banks[:, None], self.banks[None, :]).astype(np.float64)
        self.mean_hops = float(self.hops.mean())
        self.next_hops = float(self.hops[self.banks, (self.banks + 1) % B].mean())
        self.hops_max = self.hops.max(axis=1)
        self.far_to_host = int(self.mesh.hops(self.banks, cfg.host_tile).max())
        self.far_from_host = int(self.mesh.hops(cfg.host_tile, self.banks).max())
        self.cast_src = np.repeat(self.banks, B)  # every bank multicasting to every bank
        self.cast_dst = np.tile(self.banks, B)
        for a in (self.banks, self.hops, self.hops_max, self.cast_src, self.cast_dst):
            a.setflags(write=False)


_CONSTS: dict[int, _MeshConsts] = {}


def mesh_consts(cfg: HardwareConfig) -> _MeshConsts:
    hit = _CONSTS.get(id(cfg))
    if hit is None or hit.cfg is not cfg:
        if len(_CONSTS) > 64:
            _CONSTS.clear()
        hit = _CONSTS[id(cfg)] = _MeshConsts(cfg)
    return hit


def data_traffic(flows: np.ndarray, hops: np.ndarray, footprint: int, cold: bool, cfg: HardwareConfig, mesh: Mesh, banks: np.ndarray):
    """Per-link loads, data byte-hops, DRAM bytes and DRAM cycles of a region
    whose tile-to-tile data ``flows`` (zeroed on the diagonal, in place: local
    data crosses no link) plus, when it starts in DRAM (``cold``) or does not
    fit the L3, the fill of its footprint from the memory controllers."""
    np.fill_diagonal(flows, 0.0)
    src, dst = np.nonzero(flows)
    loads = mesh.unicast_loads(src, dst, flows[src, dst]) if src.size else mesh.zero_loads()
    data_bh = float((flows * hops).sum())
    dram_bytes = float(footprint) if (cold or footprint > cfg.l3_bytes) else 0.0
    if not dram_bytes:
        return loads, data_bh, 0.0, 0.0
    mc = nearest(mesh, banks, memory_controllers(cfg.mesh_rows, cfg.mesh_cols, cfg.mem_ctrls))
    dl = mesh.unicast_loads(mc, banks, np.full(len(banks), dram_bytes / len(banks)))
    return loads + dl, data_bh + float(dl.sum()), dram_bytes, dram_bytes / cfg.dram_bytes_per_cycle


def settle(cost: Cost, terms: dict[str, float], latency: int, tail: int, loads: np.ndarray, data_bh: float, control_bh: float,
           l3_bytes: float, vector_ops: float, dram_bytes: float) -> None:  # fmt: skip
    """A near-memory or core region's cost: its bound (the largest term) plus
    latency and tail, with its link loads, NoC traffic and energy inputs."""
    cost.cycles = int(math.ceil(max(terms.values()) - 1e-9)) + latency + tail
    terms.update(latency=float(latency), tail=float(tail))
    cost.link_loads = loads
    cost.traffic["noc_data"] = data_bh
    cost.traffic["noc_control"] = control_bh
    cost.quantities.update({
        "noc_byte_hops": data_bh + control_bh, "l3_bytes": l3_bytes, "vector_ops": float(vector_ops),
        "dram_bytes": dram_bytes,
    })  # fmt: skip


def op_cycles(cfg: HardwareConfig) -> dict[str, int]:
    """Vector-pipe cycles of one 512-bit op per class."""
    return {"int_add": 1, "int_mul": 1, "fp_add": 1, "fp_mul": 1, "fp_div": cfg.vector_div_cycles,
            "cmp_select": 1, "other": cfg.vector_other_cycles}  # fmt: skip


def weighted_ops(profile: RegionProfile, cfg: HardwareConfig) -> float:
    """Element ops of the region weighted by their vector-pipe cycles."""
    cyc = op_cycles(cfg)
    return float(sum(n * cyc[c] for c, n in profile.op_totals.items()))


def vector_lanes(profile: RegionProfile, cfg: HardwareConfig) -> int:
    """Elements per vector op: ``simd_lanes`` 32-bit lanes (one 512-bit vector,
    ASPLOS §2.2), half as many for a region with 64-bit elements (AVX-512 holds
    8 doubles).  Narrower elements keep the 32-bit count (the paper's workloads
    are 32-bit; the cost classes are per 32-bit lane)."""
    widest = max((s.elem_bytes for s in profile.streams), default=4)
    return max(1, cfg.simd_lanes * 4 // max(4, widest))


def parallel_dims(profile: RegionProfile) -> int:
    """How many outer dims the OpenMP threads split: the leading run of parallel
    dims, collapsed into one loop as the authors' kernels fuse them ("we fuse the
    i/j loop level", gem-forge-transform benchmark/GemForgeMicroSuite/stream/
    stencil3d/omp_stencil3d_avx/omp_stencil3d_avx.c:27-33), but not the innermost
    dim of a nest (the vector loop); the outermost dim alone when no dim leads
    parallel (a reduction: partial results per thread) or the region is 1-D."""
    ext, its = profile.extents, profile.iterators
    lead = 0
    while lead < len(ext) and lead < len(its) and its[lead] == "parallel":
        lead += 1
    if len(ext) > 1:
        lead = min(lead, len(ext) - 1)
    return max(lead, 1) if ext else 0


def threads_of(profile: RegionProfile, cfg: HardwareConfig) -> int:
    """OpenMP threads of a region: its collapsed outer parallel dims (``parallel_dims``)
    split statically over the cores, each thread getting at least one vector
    (``simd_lanes`` iterations)."""
    ext = profile.extents
    fused = math.prod(ext[: parallel_dims(profile)]) if ext else 1
    return max(1, min(cfg.cores, fused, -(-profile.iterations // cfg.simd_lanes)))


def stream_threads(s: StreamProfile, profile: RegionProfile, threads: int) -> float:
    """How many times ``threads`` threads read the distinct cells of ``s`` in all (1:
    each thread its own part; ``threads``: every thread all of it).  Thread ``t``
    runs a contiguous chunk of ``c = P / threads`` points of the collapsed dims
    (``parallel_dims``, extents ``E_d``, ``P`` their product): along dim ``d`` it
    meets ``min(E_d, max(1, c / inner_d))`` values (``inner_d``: the product of
    the collapsed extents inside ``d``), so it reads that share of the cells
    ``s`` moves along; over every thread, ``threads x prod_d share_d`` of them."""
    ext = profile.extents
    k = parallel_dims(profile)
    if not ext or threads <= 1:
        return 1.0
    dims = ext[:k]
    chunk = math.prod(dims) / threads
    factor = float(threads)
    inner = 1.0
    for d in range(k - 1, -1, -1):
        if s.strides[d] != 0 and dims[d] > 1:
            factor *= min(dims[d], max(1.0, chunk / inner)) / dims[d]
        inner *= dims[d]
    return max(1.0, factor)


def _line_bank_counts(l0: np.ndarray, l1: np.ndarray, cfg: HardwareConfig) -> np.ndarray:
    """Lines per bank of the line ranges ``[l0, l1)`` (summed over ranges)."""
    g = cfg.interleave_bytes // cfg.line_bytes  # lines per interleave block
    period = cfg.banks * g
    B = cfg.banks

    def upto(x: np.ndarray) -> np.ndarray:
        """Lines below each ``x`` in every bank, summed over the ranges, in O(ranges + banks):
        the whole periods below ``x`` give ``g`` lines to every bank; in the last, partial
        period (``x % period`` lines) the banks before the block ``q`` it ends in get ``g``,
        bank ``q`` gets the ``r`` lines of that block below ``x``, the others none."""
        x = x.astype(np.int64)
        whole = int((x // period).sum()) * g
        q, r = np.divmod(x % period, g)
        ends = np.bincount(q, minlength=B)
        past = x.size - np.cumsum(ends)  # ranges whose partial period ends after bank b's block
        part = np.bincount(q, weights=r, minlength=B).astype(np.int64)  # exact: integers far below 2**53
        return whole + g * past + part

    if l0.size == 0:
        return np.zeros(cfg.banks)
    return (upto(l1) - upto(l0)).astype(np.float64)


def array_bank_lines(s: StreamProfile, cfg: HardwareConfig) -> np.ndarray:
    """Lines per bank of the whole array of ``s``."""
    n = -(-s.array_bytes // cfg.line_bytes)
    return _line_bank_counts(np.zeros(1, np.int64), np.full(1, n, np.int64), cfg)


# stream_bank_lines memoized by what it reads (LRU): a host loop's regions
# re-profile the streams that do not move with its index unchanged every iteration
_BANK_LINES: OrderedDict[tuple, np.ndarray] = OrderedDict()
BANK_LINES_MEMO = 1024


def stream_bank_lines(s: StreamProfile, extents: tuple[int, ...], cfg: HardwareConfig) -> np.ndarray:
    """Distinct lines per bank an affine stream touches (indirect: its target array's lines).
    The returned array is shared: read-only."""
    if s.indirect:
        key: tuple = (True, s.array_bytes, cfg.banks, cfg.line_bytes, cfg.interleave_bytes)
    elif s.accesses == 0:
        return np.zeros(cfg.banks)
    else:
        key = (False, s.offset, s.strides, extents, s.elem_bytes, s.elements, cfg.banks, cfg.line_bytes, cfg.interleave_bytes)
    hit = _BANK_LINES.get(key)
    if hit is not None:
        _BANK_LINES.move_to_end(key)
        return hit
    out = array_bank_lines(s, cfg) if s.indirect else _affine_bank_lines(s, extents, cfg)
    out.setflags(write=False)
    _BANK_LINES[key] = out
    if len(_BANK_LINES) > BANK_LINES_MEMO:
        _BANK_LINES.popitem(last=False)
    return out


def _affine_bank_lines(s: StreamProfile, extents: tuple[int, ...], cfg: HardwareConfig) -> np.ndarray:
    ranges = affine_line_ranges(s.offset, s.strides, extents, s.elem_bytes, cfg.line_bytes)
    if ranges is None:  # too many runs to enumerate: spread evenly
        n = min(affine_line_count(s.offset, s.strides, extents, s.elem_bytes, cfg.line_bytes), s.elements)
        return np.full(cfg.banks, n / cfg.banks)
    return _line_bank_counts(ranges[0], ranges[1], cfg)


def _norm(v: np.ndarray) -> np.ndarray:
    t = float(v.sum())
    return v / t if t > 0 else np.full(v.size, 1.0 / v.size)


def choose_anchor(profile: RegionProfile) -> int | None:
    """Index of the stream whose banks do the region's work (module docstring)."""
    best = None
    for i, s in enumerate(profile.streams):
        if s.is_write and not s.indirect and not s.reduced and s.accesses:
            return i
    for i, s in enumerate(profile.streams):
        if s.kind == "load" and not s.indirect and s.accesses and (best is None or s.elements > profile.streams[best].elements):
            best = i
    if best is None:
        for i, s in enumerate(profile.streams):
            if s.accesses:
                return i
    return best


def byte_span(s: StreamProfile, extents: tuple[int, ...], dims) -> int:
    """Bytes from the first to the last element ``s`` touches while ``dims`` move."""
    return (sum((extents[d] - 1) * abs(s.strides[d]) for d in dims) + 1) * s.elem_bytes


def rereads(s: StreamProfile, extents: tuple[int, ...], reserve: float, cfg: HardwareConfig) -> tuple[float, set[int]]:
    """(times ``s`` reads and forwards its data, dims whose reuse is exploited).

    An SE_L3 has no cache: it keeps a stream's data only in its stream buffer
    (NSC Table V: 64 kB per SE_L3), which also holds the other streams' lines in
    flight (``reserve`` bytes).  So a stream reused along dim ``d`` (stride 0,
    extent > 1) keeps its data between two uses -- the stream engine recognizes
    the broadcast (ASPLOS §8, Fig. 15: "partially recognize the broadcast
    pattern") -- only if the bytes it touches over the dims inside ``d`` fit
    beside that reserve (a row of B reused by every row of an outer-product
    step); otherwise it reads its data from L3 again, and forwards it again,
    for every step of ``d`` (§8: Near-L3 "cannot explore the data reuse when
    offloaded to L3": B of an inner-product mm, re-read for every row)."""
    factor = 1.0
    held: set[int] = set()
    room = cfg.se_buffer_bytes * cfg.cores - reserve
    for d, (st, n) in enumerate(zip(s.strides, extents)):
        if st != 0 or n <= 1:
            continue
        if byte_span(s, extents, range(d + 1, len(extents))) <= room:
            held.add(d)
        else:
            factor *= n
    return factor, held


def _forward(flows: np.ndarray, multicast: np.ndarray, x: StreamProfile, y: StreamProfile, px: np.ndarray, py: np.ndarray,
             extents: tuple[int, ...], reuse: tuple[float, set[int]], cfg: HardwareConfig, x_to_y: bool) -> None:  # fmt: skip
    """Add the bytes stream ``x`` exchanges with the anchor ``y`` (``x_to_y``: x's
    elements go to y's banks, else y's values go to x's banks): unicast to
    ``flows``, and to ``multicast`` the bytes each bank multicasts to every bank
    (a broadcast to all banks, X-Y multicast routing per Table 2); ``reuse`` is
    ``rereads(x, ...)``."""
    B, IL = cfg.banks, cfg.interleave_bytes
    walks, held = reuse
    nbytes = float(x.elements * x.elem_bytes) * walks
    if nbytes == 0:
        return
    same = len(x.strides) == len(y.strides) and all(a * x.elem_bytes == b * y.elem_bytes for a, b in zip(x.strides, y.strides))
    if same:
        delta = x.offset * x.elem_bytes - y.offset * y.elem_bytes  # x's byte - y's byte, same iteration
        q, r = divmod(delta, IL)
        dst = np.arange(B)
        vol = nbytes * py  # per y bank
        for k, frac in ((q, (IL - r) / IL), (q + 1, r / IL)):
            if frac <= 0:
                continue
            src = (dst + k) % B  # a permutation of the banks: no pair repeats, so += is add.at
            if x_to_y:
                flows[src, dst] += vol * frac
            else:
                flows[dst, src] += vol * frac
        return
    # the reuse the SE exploits: the dims whose data it holds in its buffer
    reused = [d for d, (sx, sy, n) in enumerate(zip(x.strides, y.strides, extents)) if sx == 0 and sy != 0 and n > 1 and d in held]
    if not reused:
        # each x use has its own consumer: the bank offset y -> x, sampled
        offsets = bank_offsets(x, y, extents, cfg)
        ks = np.nonzero(offsets)[0]
        dst = np.broadcast_to(np.arange(B), (ks.size, B))
        # row i: the permutation of the banks of offset ks[i] (see above); distinct
        # offsets reach distinct pairs, so one fancy += adds each pair's volume once
        src = (dst + ks[:, None]) % B
        vol = (nbytes * offsets[ks])[:, None] * py[None, :]
        if x_to_y:
            flows[src, dst] += vol
        else:
            flows[dst, src] += vol
        return
    # dims along which y moves but x does not (held): each x cell reaches the banks that span covers
    span = byte_span(y, extents, reused)
    spread = min(B, max(1, math.ceil(span / IL)))
    if x_to_y and spread == B:
        multicast += nbytes * px
        return
    total = nbytes * (spread if x_to_y else 1)
    if x_to_y:
        flows += total * np.outer(px, py)
    else:
        flows += total * np.outer(py, px)


SAMPLE_POINTS = 1 << 16


@lru_cache(maxsize=1024)
def _sample_positions(n: int, per_dim: int) -> np.ndarray:
    """``bank_offsets``' sample points along a dim of extent ``n`` (read-only)."""
    pos = np.unique(np.linspace(0, n - 1, min(n, per_dim)).round().astype(np.int64)) if n > 0 else np.zeros(1, np.int64)
    pos.setflags(write=False)
    return pos


def bank_offsets(x: StreamProfile, y: StreamProfile, extents: tuple[int, ...], cfg: HardwareConfig) -> np.ndarray:
    """Fraction of iterations whose ``x`` element is ``k`` banks after its ``y`` element
    (mod ``banks``), from a deterministic grid of at most ``SAMPLE_POINTS`` iteration
    points (about ``SAMPLE_POINTS ** (1/rank)`` per dim, evenly spread, not a power
    of two so that it does not alias with the interleave)."""
    rank = len(extents)
    per_dim = max(2, int(SAMPLE_POINTS ** (1.0 / max(rank, 1))) - 1)
    ax = np.full(1, x.offset * x.elem_bytes, np.int64)
    ay = np.full(1, y.offset * y.elem_bytes, np.int64)
    for d, n in enumerate(extents):
        pos = _sample_positions(n, per_dim)
        ax = (ax[:, None] + pos[None, :] * x.strides[d] * x.elem_bytes).reshape(-1)
        ay = (ay[:, None] + pos[None, :] * y.strides[d] * y.elem_bytes).reshape(-1)
    k = (ax // cfg.interleave_bytes - ay // cfg.interleave_bytes) % cfg.banks
    return np.bincount(k, minlength=cfg.banks) / k.size


def not_offloadable(profile: RegionProfile, cfg: HardwareConfig) -> str | None:
    """Why the stream engines cannot take the region, or None: each thread's streams
    go to the SE_L3s, which take ``se_streams_per_core`` per core (NSC Table V: 12,
    768 in all); a region with more runs on the cores (its streams stay there)."""
    live = sum(1 for s in profile.streams if s.accesses)
    if live > cfg.se_streams_per_core:
        return f"it has {live} streams; an SE_L3 takes {cfg.se_streams_per_core} per core (NSC Table V)"
    return None


# A range message (§IV-B): [min, max) as two of Table IV's 48-bit addresses (12 B)
# and the stream's header: two control messages.
RANGE_MESSAGES = 2
SYNC_FREE = ("NS_no_sync", "NS_decouple", "SINGLE")


def harmonic(k: float) -> float:
    """``H_k = 1 + 1/2 + ... + 1/k`` for integer ``k`` (``k`` is rounded), the expected
    number of records (new minima) among ``k`` values in random order."""
    n = max(1, int(round(k)))
    if n < 64:
        return float(sum(1.0 / i for i in range(1, n + 1)))
    return math.log(n) + 0.5772156649015329 + 1.0 / (2 * n) - 1.0 / (12 * n * n)  # Euler-Maclaurin


def modifying_fraction(s: StreamProfile) -> float:
    """Fraction of an atomic stream's requests that change the value (§IV-C: "many
    atomics do not change the value (e.g. compare-exchange in bfs, min in sssp)"),
    with ``k`` = requests per distinct cell, in random order: min/max ``H_k / k``,
    an add (it always changes the value) 1; where the profile counted the
    requests that changed their cell (``changes``: a claim's claimers, an
    atomic min returning ``changed``), that share."""
    if s.changes >= 0 and s.accesses:  # counted by the profile (a claim's claimers, a min's improvements)
        return s.changes / s.accesses
    k = s.accesses / s.elements if s.elements else 1.0
    if k <= 1.0:
        return 1.0
    if s.atomic in ("min", "max"):
        return harmonic(k) / k
    return 1.0


def scm_rate(cfg: HardwareConfig) -> float:
    """Vector ops per cycle the SCM sustains for one SE_L3: its ops in flight
    (``scc_rob_entries``, Table V; in-order SCCs: ``scc_count``) over an op's time
    there (``se_init_cycles`` to reach it, one to issue), at most one (the SE's
    512-bit op per cycle)."""
    inflight = cfg.scc_rob_entries or cfg.scc_count
    return min(1.0, inflight / (cfg.se_init_cycles + 1))


def uses_scalar_pe(profile: RegionProfile, cfg: HardwareConfig) -> bool:
    """The region's computation runs on the SE_L3's scalar PE (§VII-D): it is on, the
    region has an indirect stream (scalar requests; the affine regions' ops are
    vectorized) and at most one op per iteration."""
    return cfg.near_scalar_pe and any(s.indirect and s.accesses for s in profile.streams) and sum(profile.ops.values()) <= 1


def lock_window(cfg: HardwareConfig, round_trip: float) -> float:
    """Cycles an indirect atomic holds its line's lock (§IV-C): the L3 access, and
    under range-sync (NS) the two round trips of the commit protocol (§VII-B)."""
    return cfg.l3_latency + (2.0 * round_trip if cfg.near_config == "NS" else 0.0)


def lock_cycles(s: StreamProfile, cfg: HardwareConfig, round_trip: float, threads: int) -> float:
    """Cycles a target cell of an indirect atomic stream is locked against the other
    threads' streams: its requests x the fraction that locks it exclusively
    (``near_lock``: all, or under MRSW the modifying ones) x the window x the share
    of them from another thread's stream than the holder's, ``(T - 1) / T`` -- atomics
    of one stream "can always proceed even if they modify the same memory, as they
    are ordered by SE_L3" (§IV-C)."""
    if not (s.indirect and s.kind == "atomic" and s.accesses) or threads <= 1:
        return 0.0
    per_cell = s.accesses / max(1.0, float(s.elements))
    excl = 1.0 if cfg.near_lock == "exclusive" else modifying_fraction(s)
    return per_cell * excl * lock_window(cfg, round_trip) * (threads - 1) / threads


def decouple_overlap(profile: RegionProfile, cfg: HardwareConfig) -> int:
    """Instances of a fully decoupled region SE_core runs at once (§V, Fig. 8):
    as many as its stream table holds (``se_streams_per_core`` over the region's streams)."""
    live = max(1, sum(1 for s in profile.streams if s.accesses))
    return max(1, cfg.se_streams_per_core // live)


def near_memory_cost(profile: RegionProfile, cfg: HardwareConfig, cold: bool = False) -> Cost:
    """Cycles, traffic and energy of ``profile`` run by the L3 stream engines (module docstring)."""
    return near_memory_detail(profile, cfg, cold)[0]


def near_memory_detail(profile: RegionProfile, cfg: HardwareConfig, cold: bool = False) -> tuple[Cost, dict[str, float]]:
    """``near_memory_cost`` and its terms: the per-resource bounds in cycles (``port``,
    ``buffer``, ``compute``, ``inject``, ``eject``, ``link``, ``dram``), ``latency``,
    ``tail`` (final reduction at the core), the ``anchor`` stream and ``port_lines``
    (max lines through one bank)."""
    cost = Cost("near_mem")
    streams = profile.streams
    if not any(s.accesses for s in streams) and profile.iterations == 0:
        return cost, {}
    B, L, IL = cfg.banks, cfg.line_bytes, cfg.interleave_bytes
    mc = mesh_consts(cfg)
    mesh, banks, hops, mean_hops, next_hops = mc.mesh, mc.banks, mc.hops, mc.mean_hops, mc.next_hops
    ext = profile.extents
    lanes = vector_lanes(profile, cfg)

    lines = [stream_bank_lines(s, ext, cfg) for s in streams]
    probs = [_norm(v) for v in lines]
    anchor = choose_anchor(profile)
    p_it = probs[anchor] if anchor is not None and not streams[anchor].indirect else np.full(B, 1.0 / B)

    flows = np.zeros((B, B))  # data bytes src bank -> dst bank
    multicast = np.zeros(B)  # data bytes each bank multicasts to every bank
    port = np.zeros(B)  # bytes through each bank's arrays
    comp = p_it * (weighted_ops(profile, cfg) / lanes)  # vector-pipe cycles per bank
    ctrl = 0.0  # control bytes x hops
    vector_ops = profile.total_ops / lanes

    threads = threads_of(profile, cfg)
    live = [s for s in streams if s.accesses]
    ctrl += threads * len(live) * cfg.se_config_bytes * mean_hops
    sync = cfg.near_config == "NS"  # range-sync (module docstring, "NSC's configurations")
    round_trip = 2.0 * mean_hops * mesh.hop_cycles  # a bank and the core (the commit protocol's unit)
    sync_bh = 0.0  # range and commit messages (bytes x hops): NS's range-sync traffic
    lock = 0.0  # the busiest atomic line's locked cycles
    scalar_pe = uses_scalar_pe(profile, cfg)
    if not scalar_pe:
        comp = comp / scm_rate(cfg)
    # stream-buffer space the other streams need: a line in flight per thread each
    reserve = float(max(0, len(live) - 1) * threads * L)

    # SE_L3 stream buffer (Little's law): a line holds buffer space from its L3
    # request until the SE consumes it -- L3 latency, compute initiation, and the
    # mesh hops when it is forwarded (indirect: the request's round trip).
    held = np.zeros(B)  # line-cycles of buffer occupancy per bank
    base_hold = cfg.l3_latency + (0 if scalar_pe else cfg.se_init_cycles)
    for i, s in enumerate(streams):
        if not s.accesses:
            continue
        if s.indirect:
            req = float(s.lines)
            pt = probs[i]
            payload = s.run * s.elem_bytes
            accesses = 2.0 if s.kind == "atomic" else 1.0
            port += req * pt * L * accesses
            trip = float(p_it @ hops @ pt)
            ctrl += req * cfg.control_bytes * trip
            if s.kind == "load":
                flows += req * payload * np.outer(pt, p_it)
            else:
                flows += req * payload * np.outer(p_it, pt)
            if s.kind == "atomic":
                comp += req * pt  # one (up to 512-bit) RMW op per request at the target
                vector_ops += req
                lock = max(lock, lock_cycles(s, cfg, round_trip, threads))
            wait = 0.0
            if sync:
                # the range every se_sync_lines requests to the core; a buffered store/atomic's
                # commit back, and it waits two round trips (§VII-B) before it is issued
                sync_bh += req / cfg.se_sync_lines * RANGE_MESSAGES * cfg.control_bytes * mean_hops
                wait = round_trip  # the range out, the commit (or the core's go-ahead) back
                if s.is_write:
                    sync_bh += req / cfg.se_sync_lines * cfg.control_bytes * mean_hops
                    wait = 2.0 * round_trip
            held += req * p_it * (base_hold + 2 * trip * mesh.hop_cycles + wait)
            continue
        reuse = rereads(s, ext, reserve, cfg)
        walks = reuse[0] if s.kind == "load" else 1.0
        nlines = float(lines[i].sum()) * walks
        port += lines[i] * walks * L * (2.0 if s.kind == "atomic" else 1.0)
        blocks = nlines * L / IL
        ctrl += max(0.0, blocks - threads) * cfg.se_config_bytes * next_hops  # migrations
        ctrl += nlines / cfg.se_sync_lines * 2 * cfg.control_bytes * mean_hops  # credits + done
        if sync and s.is_write:
            # the core's commit per se_sync_lines lines; SE_core builds an affine stream's
            # ranges itself (§IV-B), so it commits ahead, with the credits: no wait
            sync_bh += nlines / cfg.se_sync_lines * cfg.control_bytes * mean_hops
        if s.kind == "atomic":
            comp += probs[i] * (s.accesses / lanes)
            vector_ops += s.accesses / lanes
        fwd_hops = 0.0
        if i != anchor and anchor is not None and (s.kind == "load" or not s.reduced):
            mine, cast = np.zeros((B, B)), np.zeros(B)
            _forward(mine, cast, s, streams[anchor], probs[i], p_it, ext, reuse, cfg, x_to_y=s.kind == "load")
            flows += mine
            multicast += cast
            sent = float(mine.sum()) + float(cast.sum())
            fwd_hops = (float((mine * hops).sum()) + float(cast @ mc.hops_max)) / sent if sent else 0.0
        held += lines[i] * walks * (base_hold + fwd_hops * mesh.hop_cycles)

    # reductions: partials per bank, forwarded to the result's store bank or the core
    tail = 0
    reduced_writes = [i for i, s in enumerate(streams) if s.is_write and s.reduced and s.accesses]
    for r in profile.reductions:
        if not r.results or not r.elements:
            continue
        k = 1
        if anchor is not None and not streams[anchor].indirect:
            a = streams[anchor]
            span = byte_span(a, ext, r.dims)
            k = min(B, max(1, math.ceil(span / IL)))
        msgs = float(r.results * k)
        if r.scalar or not reduced_writes:
            dst = np.zeros(B)
            dst[cfg.host_tile] = 1.0
            tail += mc.far_to_host * mesh.hop_cycles + math.ceil(msgs / lanes)
        else:
            dst = probs[reduced_writes[0]]
            comp += dst * (msgs / lanes)
        flows += msgs * r.elem_bytes * np.outer(p_it, dst)
        vector_ops += msgs / lanes

    loads, data_bh, dram_bytes, dram_cycles = data_traffic(flows, hops, profile.footprint_bytes, cold, cfg, mesh, banks)
    if multicast.any():  # one X-Y tree per source bank (Table 2: multicast X-Y routing)
        cast = mesh.all_to_all_loads(multicast) if B == mesh.nodes else mesh.multicast_loads(mc.cast_src, mc.cast_src, mc.cast_dst, multicast)
        loads = loads + cast
        data_bh += float(cast.sum())

    # per bank: 1 kB per core whose streams are there -- the T threads over the banks holding the work
    active = max(1, int(np.count_nonzero(held)))
    buffer_lines = cfg.se_buffer_bytes / L * threads / active
    terms = {
        "port": float(port.max()) / cfg.l3_bank_bytes_per_cycle,
        "buffer": float(held.max()) / buffer_lines,
        "compute": float(comp.max()),
        "inject": float((flows.sum(axis=1) + multicast).max()) / cfg.link_bytes,
        "eject": float(flows.sum(axis=0).max() + multicast.sum()) / cfg.link_bytes,
        "link": float(loads.max()) / cfg.link_bytes,
        "dram": dram_cycles,
        "lock": lock,
    }
    # a pointer chase's step: an L3 access at the node's bank and the stream's
    # migration to the next node's bank (NSC §IV "Pointer-Chasing Stream"; sim/pointer_chase.py)
    terms.update(chase_terms(profile, threads, cfg.l3_latency + mean_hops * mesh.hop_cycles))
    latency = 2 * mc.far_from_host * mesh.hop_cycles + cfg.l3_latency + (0 if scalar_pe else cfg.se_init_cycles)
    if cfg.near_config == "INST":
        # one offload per vector iteration and stream: request + response, each a round trip
        # from the core, min(core_mshrs, core_load_queue) in flight per core (module docstring)
        offloads = sum(float(s.lines) for s in live)
        ctrl += offloads * 2 * cfg.control_bytes * mean_hops
        window = min(cfg.core_mshrs, cfg.core_load_queue)
        terms["offload"] = offloads / threads / window * (round_trip + cfg.l3_latency)
    elif cfg.near_config == "NS_decouple":
        latency = -(-latency // decouple_overlap(profile, cfg))
    ctrl += sync_bh
    settle(cost, terms, latency, tail, loads, data_bh, ctrl, float(port.sum()), vector_ops, dram_bytes)
    terms.update(anchor=-1.0 if anchor is None else float(anchor), port_lines=float(port.max()) / L, range_sync_bh=sync_bh,
                 scalar_pe=float(scalar_pe))  # fmt: skip
    return cost, terms
