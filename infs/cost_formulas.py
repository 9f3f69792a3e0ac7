"""Pure per-command latency formulas shared by the timing model and the compiler.

The timing model (``infs.sim.sram.timing``) charges every command with these; the
layout choice (``infs.passes.lower_pim.choose_layout``) ranks tile shapes with the same
formulas applied to the counts and distances a lowering would give.  They
live here, below both (they import nothing of ``infs``), because a pass may
not import ``infs.sim`` (layering: passes -> dialects; sim -> pimcmd).
Sources are cited at each formula; the constants they read are the machine's
(``infs.hardware.HardwareConfig``), each cited in its part's module.
"""

from __future__ import annotations

import math


def intra_shift_cycles(bits: int, dist: int, bstride: int = 1, parallel: bool = False) -> int:
    """An in-array shift by ``dist`` along a dim whose neighbours are ``bstride``
    bitlines apart: ``bits x |dist| x bstride`` (gem5 measures the distance in
    flattened bitlines, ``DataMoveCompiler.cc:400-404``, and charges
    ``wordline_bits x |bitline_dist|``, ``PUMEngine.cc:269-295``), or ``bits``
    with ``parallel`` (gem5's ``stream_pum_enable_parallel_intra_array_shift``,
    default off).  A distance of 0 (a copy between registers) still reads and
    writes every bit row: ``bits`` cycles.  gem5 floors it at 1 cycle (the
    engine's tick, ``kickNextCommand``); the paper is silent, so the more
    conservative ``bits`` is kept."""
    if parallel:
        return bits
    return bits * max(1, abs(dist) * bstride)


def intra_bcast_cycles(bits: int, lo: int, bstride: int, parallel: bool = False) -> int:
    """The in-array part of a broadcast to in-tile offsets ``[lo, hi)``: the
    source aligned to the first destination (distance ``lo``), the fan-out free
    (ASPLOS §4.1 "broadcast is inexpensive, as it can reuse the read data";
    gem5 ``DataMoveCompiler.cc:221-255``, ``PUMEngine.cc:269-295``)."""
    return intra_shift_cycles(bits, lo, bstride, parallel)


def htree_cycles(bank_bytes: float, bytes_per_cycle: int) -> int:
    """Bytes through one bank's H-tree (shared by its arrays, §5.2), whole cycles."""
    return int(math.ceil(bank_bytes / bytes_per_cycle - 1e-9))


def drain_cycles(busiest_link_bytes: float, link_bytes: int, max_hops: int, hop_cycles: int) -> int:
    """Mesh traffic arriving: the busiest link's serialization plus the longest
    path's router and link latency (X-Y routing, §5.2)."""
    if max_hops <= 0 and busiest_link_bytes <= 0:
        return 0
    return int(math.ceil(busiest_link_bytes / link_bytes)) + max_hops * hop_cycles


# -- the H-tree of a bank, as the authors' gem5 model builds and prices it ----------------------
# Tree: the arrays of one way joined by a tree of degree ``htree_degree``
# (``CacheMemory.cc`` sets ``arrayTreeDegree = 2``), the ways of the bank by one more
# level (``DataMoveCompiler::compileInterArrayShift``'s ``split(array_per_way,
# way_per_bank, ...)``), the banks by the mesh (its last ``split``).  A transfer is
# priced at each level it crosses: ``PUMEngine::estimateCommandLatency`` charges
# ``ceil(bitlines / (8 x tree_leaf_bw_bytes)) x wordline_bits`` cycles per array moved
# (``arrayTreeLeafBandwidth = 4`` B/cycle per leaf, ``CacheMemory.cc``), the levels one
# after the other, the sub-trees of a level in parallel and the ways read in parallel
# (run.py's defaults ``--gem-forge-stream-pum-enable-parallel-inter-array-shift 1`` and
# ``--...-parallel-way-read 1``): at an in-way level the busiest sub-tree's arrays
# crossing it, at the way level the ways whose arrays cross it, at the bank level the
# arrays leaving the bank, at most one per way charged.


def htree_lca_levels(a, b, degree: int, levels: int, arrays_per_way: int, ways: int):
    """The H-tree level of the lowest common ancestor of arrays ``a`` and ``b`` of one
    bank (0 = the same array): the in-way levels of a degree-``degree`` tree over
    ``arrays_per_way`` arrays, then the way level ``levels`` (when the bank has more
    than one way).  A tree with fewer in-way levels than the way needs joins the rest
    at its top in-way level."""
    import numpy as np

    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    in_way, way_level = _htree_split(levels, ways)
    lvl = np.full(np.broadcast(a, b).shape, in_way, dtype=np.int64)
    for k in range(in_way - 1, -1, -1):  # (<= levels tree levels)
        span = degree**k
        lvl = np.where(a // span == b // span, k, lvl)
    if way_level:
        lvl = np.where(a // arrays_per_way == b // arrays_per_way, lvl, levels)
    return lvl


def _htree_split(levels: int, ways: int) -> tuple[int, bool]:
    """(in-way levels, whether the top level joins the ways): a one-level tree is one
    node over every array of the bank."""
    if ways > 1 and levels > 1:
        return levels - 1, True
    return levels, False


def htree_array_cycles(bitlines: int, bits: int, leaf_bytes_per_cycle: int) -> int:
    """One array's part of a transfer through one H-tree level: its ``bitlines`` go
    ``8 x leaf_bytes_per_cycle`` per cycle, one wordline (bit) after the other
    (``PUMEngine::estimateCommandLatency``: ``latencyPerWordline x wordline_bits``)."""
    return -(-bitlines // (8 * leaf_bytes_per_cycle)) * bits


def htree_level_arrays(bank, local, level, remote, degree: int, levels: int, arrays_per_way: int, ways: int) -> int:
    """The array transfers the H-tree makes one after the other for one command, summed
    over its levels (gem5 ``PUMEngine::estimateCommandLatency``'s ``accumulatedLatency``
    in units of one array's transfer): ``bank``/``local`` name each source array (its
    bank, its index in the bank; each source once), ``level`` the level of the lowest
    common ancestor of it and its destinations (a multicast's fan-out below it is free:
    the buffered H-tree broadcasts), ``remote`` whether a destination is in another
    bank.  As in gem5 a transfer is charged at that one level (its ``split`` of the
    command's tile distance), a remote one at the bank level; a level's count is its
    busiest sub-tree's (the banks and the sub-trees of a level move in parallel)."""
    import numpy as np

    bank = np.asarray(bank, dtype=np.int64)
    local = np.asarray(local, dtype=np.int64)
    level = np.asarray(level, dtype=np.int64)
    remote = np.asarray(remote, dtype=bool)
    if bank.size == 0:
        return 0
    total = 0
    in_way, way_level = _htree_split(levels, ways)
    per_bank = arrays_per_way * ways
    near = ~remote
    for k in range(1, in_way + 1):
        at = near & (level == k)
        if at.any():
            # the level-k node of each source: degree**k arrays of one way (the top in-way node: the way)
            span = degree**k if k < in_way else (arrays_per_way if way_level else per_bank)
            sub = bank[at] * per_bank + local[at] // span if not way_level else (
                bank[at] * per_bank + (local[at] // arrays_per_way) * arrays_per_way + (local[at] % arrays_per_way) // span)
            total += int(np.unique(sub, return_counts=True)[1].max())
    if way_level:
        at = near & (level >= levels)
        if at.any():
            # the way level: the ways read in parallel, each one array at a time
            way = np.unique(bank[at] * ways + local[at] // arrays_per_way)
            total += int(np.bincount(way // ways).max())
    if remote.any():
        # the bank level: the arrays leaving a bank, at most ``ways`` of them charged (gem5:
        # ``chargedTiles = min(numInterBankTiles, way_per_bank)`` with parallel way read)
        total += int(min(np.bincount(bank[remote]).max(), ways))
    return total
