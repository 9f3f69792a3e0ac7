"""Pure per-command latency formulas shared by the timing model and the compiler.

The timing model (``infs.sim.timing``) charges every command with these; the
layout choice (``infs.passes.choose_layout``) ranks tile shapes with the same
formulas applied to the counts and distances a lowering would give.  They
live here, below both (they import nothing of ``infs``), because a pass may
not import ``infs.sim`` (layering: passes -> dialects; sim -> pimcmd).
Sources are cited at each formula; the constants they read are the machine's
(``infs.hardware.HardwareConfig``), each cited there.
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
