"""What the reference evaluator (and the runtime before it) checks of a ``stream.region``.

Takes a region and its operands' shapes, scalars or arrays; gives the points
its evaluation materializes and whether they fit the host's memory, whether
a large domain runs in rows of its outermost dim (``row_parts``: where that
order is the loop nest's for every effect), which written operands are one
array at run time (``aliased_operands``), the first access outside its array
(``out_of_bounds_access``) and the stream dialect's static dependence check;
the facts they read of the IR are memoized per region op, with the IR they
were read from (a host loop runs one region thousands of times).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import IndexType

from infs.dialects import stream, tdfg
from infs.dialects.lattice import I64_MAX, I64_MIN, LatticeError, dim_index
from infs.runtime.memory import available_memory, human_bytes
from infs.runtime.scalar_ops import FAILS_ON_SOME_POINTS, EvaluationError, op_label


# What the evaluator holds per iteration point at least: one int64 (a cell's
# flat index, or the point's iteration number); it holds several, so a domain
# refused by this bound would certainly not fit.
BYTES_PER_POINT = 8


def region_label(region: stream.RegionOp | tdfg.GraphOp) -> str:
    return op_label(region)


def evaluated_points(region: stream.RegionOp, box: Sequence[tuple[int, int]]) -> int:
    """Points the evaluator materializes for ``box``: the domain's; for an
    empty domain the points of reductions over its empty dims (a reduction
    over no iteration still gives its identity at each kept point)."""
    shape = [max(0, q - p) for p, q in box]
    size = math.prod(shape)
    if size:
        rows = row_parts(region, shape)
        return size if rows is None else rows * math.prod(shape[1:])
    work = 0
    for op in region.body.block.ops:
        if isinstance(op, stream.ReduceOp):
            live = stream.live_dims(op.result, region)
            work = max(work, math.prod(n for d, n in enumerate(shape) if d in live))
    return work


def check_domain_memory(region: stream.RegionOp, box: Sequence[tuple[int, int]], label: str | None = None, *, whole: bool = False) -> int:
    """The host can hold what evaluating ``region`` over ``box`` materializes
    (checked before anything is allocated); else one EvaluationError line
    naming the region and its domain.  Returns the points.  ``whole``: the
    whole domain at once, not in rows (``row_parts``)."""
    points = math.prod(max(0, q - p) for p, q in box) if whole else evaluated_points(region, box)
    need = points * BYTES_PER_POINT
    avail = available_memory()
    if avail is not None and need > avail:
        dom = ", ".join(f"{p}:{q}" for p, q in box)
        raise EvaluationError(
            f"{label or region_label(region)}: its iteration domain [{dom}] has {points:,} points; evaluating it needs at least "
            f"{human_bytes(need)} of host memory, this host has {human_bytes(avail)} available: use smaller sizes, or --analysis (timing only)"
        )
    return points


# Large domains in rows of the outermost dim.  A region whose domain holds more
# than ROW_POINTS points (mm_inner at paper size: 2048^3, 64 GB of products)
# runs as consecutive sub-boxes of its outermost dim, in order, when that is the
# loop nest's own order for every effect: no array it reads is one it writes (so
# a row reads nothing an earlier row wrote), it yields no value, has no
# atomics (their float rounding follows the order of all points) and no
# indirect access, no reduction spans the outermost dim, and no compute can fail
# on some points only (a division).  Each row then stores what the loop nest's
# iterations of that row store, the last row's stores landing last; a reduction
# over inner dims folds each output's inputs in the same layout as on the whole
# domain, so the bits are the same (test_reference: rows vs whole).
ROW_POINTS = 1 << 24


def row_parts(region: stream.RegionOp, shape: Sequence[int]) -> int | None:
    """Rows of the outermost dim per sub-box when ``region`` runs in rows over
    a domain of ``shape`` (above), else None."""
    size = math.prod(shape)
    if size <= ROW_POINTS or shape[0] < 2:
        return None
    for op in region.body.block.ops:
        if isinstance(op, (stream.AtomicOp, stream.ClaimOp, stream.CountOp)) or (isinstance(op, stream.YieldOp) and op.values):
            return None
        if isinstance(op, (stream.LoadOp, stream.StoreOp)) and op.indirect_positions():
            return None  # index data is checked per invocation: an error must not follow half the rows' stores
        if isinstance(op, stream.ReduceOp) and 0 in op.dims_list():
            return None
        if isinstance(op, stream.ComputeOp) and any(isinstance(inner, FAILS_ON_SOME_POINTS) for inner in op.body.block.ops):
            # the whole domain fails before any store, at the first op failing anywhere: rows would
            # store the rows before the failing one, and may name another op (as _chunk_plan)
            return None
    if any(region.arrays[i] is region.arrays[j] for i, j in _read_write_pairs(region)):
        return None  # one operand read and written: a row may read what an earlier row wrote
    return max(1, ROW_POINTS // (size // shape[0]))


def _read_write_pairs(region: stream.RegionOp) -> list[tuple[int, int]]:
    """(written, read) array operand positions of ``region``."""
    read = [j for j, a in enumerate(region.array_args) if any(isinstance(u.operation, stream.LoadOp) for u in a.uses)]
    return [(i, j) for i in _facts(region)[0] for j in read]


def reads_what_it_writes(region: stream.RegionOp, arrays: Sequence[np.ndarray]) -> bool:
    """An array the region writes is, at run time, one it reads."""
    return any(arrays[i] is arrays[j] for i, j in _read_write_pairs(region))


_WRITES = (stream.StoreOp, stream.AtomicOp, stream.ClaimOp, tdfg.StoreOp, tdfg.StreamStoreOp)


def aliased_operands(region: stream.RegionOp | tdfg.GraphOp, arrays: Sequence[np.ndarray], same_object: bool = True) -> str | None:
    """Why this invocation's arrays cannot be taken as distinct: two distinct
    array operands share memory at run time and the region (or graph) writes
    one of them (None when they can).  The static checks (dependences, store
    order) and the in-memory layout see distinct operands as distinct arrays.
    ``same_object=False`` skips operands bound to the very same array (the
    evaluator handles those exactly, cell by cell)."""
    written = _facts(region)[0] if isinstance(region, stream.RegionOp) else _written(region)
    if not written:
        return None
    args = list(region.body.block.args[: len(region.arrays)])

    def name(i: int) -> str:
        v = region.arrays[i]
        return f"%{v.name_hint or args[i].name_hint or f'array #{i}'}"

    for i in range(len(arrays)):
        for j in range(i + 1, len(arrays)):
            if region.arrays[i] is region.arrays[j] or not (i in written or j in written):
                continue  # one operand passed twice: the static checks see it
            a, b = arrays[i], arrays[j]
            if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)) or (a is b and not same_object):
                continue
            if a.size and b.size and np.shares_memory(a, b):
                w = name(j) if j in written else name(i)
                return f"its array operands {name(i)} and {name(j)} share memory at run time (aliased host arguments) and it writes {w}: pass distinct arrays"
    return None


def out_of_bounds_access(region: stream.RegionOp, shapes: Sequence[Sequence[int]], scalars: Sequence[object]) -> str | None:
    """The first affine access of ``region`` that leaves its array over the
    iteration domain (arrays of ``shapes``), as the evaluator words it, or None.

    Checked arithmetically, before anything runs: an affine index takes its
    extremes at the corners of the domain box, so two points per dim suffice.
    Every mode calls it, so an access the evaluator refuses is never run in
    memory instead (where the lattice would simply drop the cells).  Indirect
    positions are checked by the evaluator on the actual index data."""
    index_syms, accesses = _facts(region)[1:]
    env = {n: int(scalars[i]) for i, n in index_syms if i < len(scalars)}  # type: ignore[arg-type]
    try:
        box = region.iteration_domain.evaluate(env)
    except LatticeError:
        return None  # the evaluator reports an unbound symbol itself
    if any(q <= p for p, q in box):
        return None  # nothing runs
    rank = len(box)
    for name, label, arg, live, indirect, results in accesses:
        # a reduced value is stored once, after its reduction loops: at their first coordinate
        live = range(rank) if live is None else live
        shape = shapes[arg]
        extremes = []
        for const, terms, text in results:
            # the extremes of an affine index over the box, exactly (Python ints), term by term
            if not all(I64_MIN <= v <= I64_MAX for v in (const, *(c for _, c, _ in terms))):
                return f"'{name}' index {text} is beyond the signed 64-bit range"  # as AccessMap.apply words it
            lo = hi = const
            for n, c, d in terms:
                if d is None:
                    if n not in env:
                        return None  # the evaluator reports an unbound symbol itself
                    lo, hi = lo + c * env[n], hi + c * env[n]
                else:
                    p, q = box[d]
                    a, b = c * p, c * (q - 1 if d in live else p)
                    lo, hi = lo + min(a, b), hi + max(a, b)
            extremes.append((lo, hi))
        for d, (lo, hi) in enumerate(extremes):
            if d not in indirect and (lo < 0 or hi >= shape[d]):
                return f"{label} accesses index {lo if lo < 0 else hi} in dim {d} of an array of shape {list(shape)}"
    return None


def _written(region: stream.RegionOp | tdfg.GraphOp) -> frozenset[int]:
    """Array operands (by position) the region or graph writes."""
    args = list(region.body.block.args[: len(region.arrays)])
    return frozenset(args.index(op.array) for op in region.body.block.ops if isinstance(op, _WRITES) and op.array in args)


# What aliased_operands and out_of_bounds_access read of a region's IR, per
# region op with the IR it was read from (as _STATIC_CHECKS): a host loop runs
# the same region thousands of times (gauss_elim: 4,094 invocations a run),
# and reading the ops' properties through xDSL took most of the two checks.
_FACTS: weakref.WeakKeyDictionary[stream.RegionOp, tuple[object, tuple]] = weakref.WeakKeyDictionary()


def _facts(region: stream.RegionOp) -> tuple:
    """(written operands, [(scalar position, name)] of the index symbols, per
    affine access op: (name, its label with its line for errors, array position, live dims or None for all,
    indirect positions, per result (const, [(term name, coefficient, dim or None)], text))."""
    key = _ir_key(region)
    hit = _FACTS.get(region)
    if hit is not None and hit[0] == key:
        return hit[1]
    index_syms = [(i, n) for i, (n, a) in enumerate(zip(region.names, region.scalar_args)) if isinstance(a.type, IndexType)]
    args = list(region.array_args)
    accesses = []
    for op in region.body.block.ops:
        if not isinstance(op, (stream.LoadOp, stream.StoreOp, stream.AtomicOp, stream.ClaimOp)):
            continue
        if not isinstance(op, stream.LoadOp) and op.mask is not None:
            continue  # a filtered write: the evaluator checks the points that write (as the loop's `if` guards them)
        live = None if isinstance(op, stream.LoadOp) else stream.live_dims(op.value, region)
        results = [(e.const, [(n, c, dim_index(n)) for n, c in e.terms], str(e)) for e in op.access_map().results]
        accesses.append((op.name, op_label(op), args.index(op.array), live, frozenset(op.indirect_positions()), results))
    facts = (_written(region), index_syms, accesses)
    _FACTS[region] = (key, facts)
    return facts


# The static dependence check of a region, per region op, with the IR it was
# computed on: a host loop re-enters one region thousands of times (gauss_elim's
# k: 4,094 regions at paper size, 3 ms per check), and the IR does not change.
_STATIC_CHECKS: weakref.WeakKeyDictionary[stream.RegionOp, tuple[object, str | None]] = weakref.WeakKeyDictionary()


def _ir_key(region: stream.RegionOp) -> object:
    """What ``stream.loop_carried_dependence`` reads: the region's properties
    (domain), operands, and each op's type, operands and properties (maps,
    indirect dims, reduced dims).  Values are held weakly: the key must not
    keep the region (its weak dictionary key) alive."""
    ref = weakref.ref
    return (
        dict(region.properties), tuple(map(ref, region.operands)), tuple(map(ref, region.array_args)),
        tuple((type(op), tuple(map(ref, op.operands)), dict(op.properties)) for op in region.body.block.ops),
    )  # fmt: skip


def static_dependence(region: stream.RegionOp) -> str | None:
    key = _ir_key(region)
    hit = _STATIC_CHECKS.get(region)
    if hit is not None and hit[0] == key:
        return hit[1]
    out = stream.loop_carried_dependence(region)
    _STATIC_CHECKS[region] = (key, out)
    return out
