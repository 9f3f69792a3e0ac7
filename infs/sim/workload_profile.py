"""What a stream region does at concrete sizes, as plain data (no xDSL objects).

The near-memory (``near.py``) and core (``core.py``) cost models price a
``RegionProfile``; ``infs.runtime.region_profile.profile_region`` builds one
from a ``stream.region`` and its arguments.  The simulator never imports the
compiler or the runtime: these dataclasses are the interface.

Addresses are in *elements* of the stream's array, row-major (C order), with
the array's first element at address 0.  Every array is assumed to start at a
64 kB-aligned address (huge pages, as NSC §VI uses for large data structures),
so its first 1 kB interleave block is in bank 0.

An affine stream touches ``offset + sum_d strides[d] * i_d`` at iteration
point ``i`` (``i_d`` counted from the domain's lower bound, ``0 <= i_d <
extents[d]``): ``offset`` is the address at the domain's first point and
``strides[d]`` the address step along iteration dim ``d`` (0: the access does
not move along ``d``, a broadcast).  An indirect stream's data-dependent
array dims contribute nothing to ``offset``/``strides``: only its affine part
is known.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Mapping, Sequence

import numpy as np

from infs.unique_ints import unique_ints

# Compute op classes (per element).  ``fp_div`` holds every division: AVX-512
# has no vector integer divide, compilers divide through fp.
OP_CLASSES = ("int_add", "int_mul", "fp_add", "fp_mul", "fp_div", "cmp_select", "other")

STREAM_KINDS = ("load", "store", "atomic")


def zero_ops() -> dict[str, int]:
    return dict.fromkeys(OP_CLASSES, 0)


RUN_CAP = 1 << 16  # contiguous runs enumerated exactly (dense accesses)
ELEMENT_CAP = 1 << 18  # elements enumerated exactly (accesses a line or more apart)


def _runs(offset: int, strides: Sequence[int], extents: Sequence[int]):
    """The access set ``{offset + sum strides[d] * i_d}`` as runs: ``(lo, step, count,
    rest)`` -- ``count`` elements ``step`` apart from each run start, the run starts
    ``lo + sum s * i`` over the ``rest`` (step, extent) pairs.  Dims are sorted by
    step; a dim whose step equals the span below it continues the run (a full row)."""
    dims = sorted((abs(st), n) for st, n in zip(strides, extents) if st != 0 and n > 1)
    lo = offset + sum(st * (n - 1) for st, n in zip(strides, extents) if st < 0)
    if not dims:
        return lo, 1, 1, []
    step, count = dims[0]
    rest = dims[1:]
    while rest and rest[0][0] == step * count:
        count *= rest[0][1]
        rest = rest[1:]
    return lo, step, count, rest


_RANGES: OrderedDict[tuple, tuple[np.ndarray, np.ndarray] | None] = OrderedDict()
RANGES_MEMO = 1024  # LRU: the region profile and the near/core models ask for the same streams


def affine_line_ranges(offset: int, strides: Sequence[int], extents: Sequence[int], elem_bytes: int,
                       line_bytes: int) -> tuple[np.ndarray, np.ndarray] | None:  # fmt: skip
    """Disjoint, sorted line ranges ``[l0, l1)`` an affine access touches (exact), or
    None when it has too many runs to enumerate (``RUN_CAP`` / ``ELEMENT_CAP``).
    Memoized (the arrays are shared: read-only)."""
    key = (int(offset), tuple(int(s) for s in strides), tuple(int(n) for n in extents), int(elem_bytes), int(line_bytes))
    if key in _RANGES:
        _RANGES.move_to_end(key)
        return _RANGES[key]
    out = _affine_line_ranges(*key)
    if out is not None:
        for a in out:
            a.setflags(write=False)
    _RANGES[key] = out
    if len(_RANGES) > RANGES_MEMO:
        _RANGES.popitem(last=False)
    return out


def _affine_line_ranges(offset: int, strides: Sequence[int], extents: Sequence[int], elem_bytes: int,
                        line_bytes: int) -> tuple[np.ndarray, np.ndarray] | None:  # fmt: skip
    lo, step, count, rest = _runs(offset, strides, extents)
    runs = math.prod(n for _, n in rest)
    dense = step * elem_bytes < line_bytes
    if runs > RUN_CAP or (not dense and runs * count > ELEMENT_CAP):
        return None
    starts = np.full(1, lo, np.int64)
    for st, n in rest:
        starts = (starts[:, None] + st * np.arange(n, dtype=np.int64)[None, :]).reshape(-1)
    if dense:
        span = ((count - 1) * step + 1) * elem_bytes
        l0 = starts * elem_bytes // line_bytes
        l1 = (starts * elem_bytes + span - 1) // line_bytes + 1
    else:
        l0 = unique_ints(((starts[:, None] + step * np.arange(count, dtype=np.int64)[None, :]) * elem_bytes // line_bytes).reshape(-1))
        return l0, l0 + 1
    if l0.size > 1:
        order = np.argsort(l0, kind="stable")
        l0, l1 = l0[order], l1[order]
        reach = np.maximum.accumulate(l1)
        l0 = np.maximum(l0, np.concatenate([l0[:1], reach[:-1]]))  # drop what earlier ranges cover
        keep = l1 > l0
        l0, l1 = l0[keep], l1[keep]
    return l0, l1


def affine_line_count(offset: int, strides: Sequence[int], extents: Sequence[int], elem_bytes: int, line_bytes: int) -> int:
    """Distinct lines of an affine access: exact when ``affine_line_ranges`` can
    enumerate it, else every run counted apart with the first run's alignment."""
    r = affine_line_ranges(offset, strides, extents, elem_bytes, line_bytes)
    if r is not None:
        return int((r[1] - r[0]).sum())
    lo, step, count, rest = _runs(offset, strides, extents)
    runs = math.prod(n for _, n in rest)
    if step * elem_bytes >= line_bytes:
        return runs * count
    start = (lo * elem_bytes) % line_bytes
    span = ((count - 1) * step + 1) * elem_bytes
    return runs * ((start + span - 1) // line_bytes + 1)


@dataclass(frozen=True)
class StreamProfile:
    """One memory stream (``stream.load`` / ``stream.store`` / ``stream.atomic``)."""

    kind: str  # load | store | atomic
    array: int  # position of the array among the region's arrays
    name: str  # the array's name (for reports)
    elem_bytes: int
    array_shape: tuple[int, ...]
    accesses: int  # executions: iteration points (write points for a reduced value)
    elements: int  # distinct cells touched (indirect: upper bound min(accesses, cells reachable))
    lines: int  # distinct cache lines touched (indirect: line requests)
    offset: int  # address of the access at the domain's first point (affine part)
    strides: tuple[int, ...]  # address step per iteration dim (affine part)
    indirect: bool = False
    indirect_dims: tuple[int, ...] = ()  # array dims given by index streams
    run: int = 1  # indirect: consecutive elements served by one line request
    atomic: str | None = None  # atomic kind (add, min, max; claim: a stream.claim's test-and-set)
    reduced: bool = False  # store/atomic of a reduced value (one write per result)
    chase_depth: int = 0  # a field of a pointer chase (stream.chase): the longest chain's steps (0: not a chase)
    filtered: int = 0  # a filtered store/atomic (if %m): the points its filter was evaluated at (accesses: those that wrote; 0: not filtered)
    changes: int = -1  # an atomic's requests that changed their cell, where the profile read them (a claim's claimers); -1: not known

    @property
    def array_cells(self) -> int:
        return math.prod(self.array_shape)

    @property
    def array_bytes(self) -> int:
        return self.array_cells * self.elem_bytes

    @property
    def bytes(self) -> int:
        """Bytes of distinct cells touched."""
        return self.elements * self.elem_bytes

    @property
    def is_write(self) -> bool:
        return self.kind in ("store", "atomic")

    @property
    def reuse(self) -> float:
        """Accesses per distinct cell (> 1 for broadcasts)."""
        return self.accesses / self.elements if self.elements else 0.0


@dataclass(frozen=True)
class ReductionProfile:
    """One ``stream.reduce``."""

    kind: str  # add, mul, min, max, argmin, argmax
    dims: tuple[int, ...]  # iteration dims folded
    elements: int  # elements folded
    results: int  # values produced (one per point of the remaining dims)
    elem_bytes: int  # bytes of one result
    op_class: str  # class of one fold step (fp_add, cmp_select, ...)
    scalar: bool = False  # folds every dim: a region result returned to the core


@dataclass(frozen=True)
class RegionProfile:
    """A ``stream.region`` at concrete sizes."""

    extents: tuple[int, ...]  # iteration domain extents (d0 outermost)
    iterators: tuple[str, ...]  # parallel / reduction per dim
    streams: tuple[StreamProfile, ...]
    ops: Mapping[str, int] = field(default_factory=zero_ops)  # static ops per iteration (compute bodies + reductions)
    op_totals: Mapping[str, int] = field(default_factory=zero_ops)  # element ops executed (each op x points it runs at)
    reductions: tuple[ReductionProfile, ...] = ()
    name: str = "region"

    @property
    def iterations(self) -> int:
        """Domain volume."""
        return math.prod(self.extents) if self.extents else 1

    @property
    def rank(self) -> int:
        return len(self.extents)

    @property
    def total_ops(self) -> int:
        return int(sum(self.op_totals.values()))

    @property
    def atomic_ops(self) -> int:
        return sum(s.accesses for s in self.streams if s.kind == "atomic")

    @property
    def footprint_bytes(self) -> int:
        """Bytes of the arrays the region touches (each array once)."""
        seen: dict[int, int] = {}
        for s in self.streams:
            seen[s.array] = s.array_bytes
        return sum(seen.values())

    def loads(self) -> list[StreamProfile]:
        return [s for s in self.streams if s.kind == "load"]

    def writes(self) -> list[StreamProfile]:
        return [s for s in self.streams if s.is_write]
