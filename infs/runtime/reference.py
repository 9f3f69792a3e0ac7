"""Reference semantics of ``stream.region``: the oracle for every lowering.

``evaluate_region(region, arrays, scalars)`` runs one region on numpy arrays,
vectorized over the whole iteration domain, with exactly the result of the
sequential loop nest (``infs.dialects.stream`` docstring):

* every stream value is a numpy array broadcastable to the domain's shape
  (dims a load's map drops stay size-1: broadcast, never materialized);
  affine loads, stores and atomics go through strided views of the arrays,
  indirect ones (and writes a view cannot order) through index grids -- the
  two give the same bits (section "The view path" below);
* stores from all store ops of an array are merged and the last writer in
  (iteration order, program order) wins per cell;
* atomics apply op by op in program order, each op's points in iteration
  order (``ufunc.at``'s order on the general path; the kinds are commutative,
  and float rounding then follows that order);
* reductions fold with ``keepdims`` so results keep broadcasting; f32 sums
  use numpy's pairwise order (tests compare f32 with a tolerance);
* a domain of more than ``ROW_POINTS`` points runs in rows of its outermost
  dim where that order is the loop nest's for every effect (``_row_parts``),
  with the same bits as the whole domain at once;
* a region in which an iteration may read a cell written by an earlier
  iteration (a loop-carried dependence) is not a stream region: the verifier
  rejects it (``stream.loop_carried_dependence``, the one check every path
  shares), and so does ``evaluate_region`` for IR that was never verified,
  with the same message.  The evaluator also checks the dependence on the
  actual cells (unless the maps prove each read precedes every write of its
  cells): it can only find one the static check missed when two of the
  region's arrays are one array at run time, and anything else is a bug of
  the static check (an internal error, never a silent result).

Host functions around regions run through ``infs.runtime.host``.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, MemRefType
from xdsl.ir import Operation, SSAValue

from infs.dialects import stream, tdfg
from infs.element_types import elementwise_max, elementwise_min, float_fold, float_fold_at, reduce_identity, signed_atomic_ufunc, signed_i1_identity
from infs.dialects.lattice import I64_MAX, I64_MIN, AccessMap, LatticeError, dim_index
from infs.runtime.memory import available_memory, human_bytes
from infs.runtime.scalar_ops import FAILS_ON_SOME_POINTS, EvaluationError, eval_scalar_op, numpy_dtype, op_label

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
        rows = _row_parts(region, shape)
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
    whole domain at once, not in rows (``_row_parts``)."""
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


def _row_parts(region: stream.RegionOp, shape: Sequence[int]) -> int | None:
    """Rows of the outermost dim per sub-box when ``region`` runs in rows over
    a domain of ``shape`` (above), else None."""
    size = math.prod(shape)
    if size <= ROW_POINTS or shape[0] < 2:
        return None
    for op in region.body.block.ops:
        if isinstance(op, stream.AtomicOp) or (isinstance(op, stream.YieldOp) and op.values):
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


def _reads_what_it_writes(region: stream.RegionOp, arrays: Sequence[np.ndarray]) -> bool:
    """An array the region writes is, at run time, one it reads."""
    return any(arrays[i] is arrays[j] for i, j in _read_write_pairs(region))


_WRITES = (stream.StoreOp, stream.AtomicOp, tdfg.StoreOp, tdfg.StreamStoreOp)


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
        if not isinstance(op, (stream.LoadOp, stream.StoreOp, stream.AtomicOp)):
            continue
        live = None if isinstance(op, stream.LoadOp) else stream.live_dims(op.value, region)
        results = [(e.const, [(n, c, dim_index(n)) for n, c in e.terms], str(e)) for e in op.access_map().results]
        accesses.append((op.name, op_label(op), args.index(op.array), live, frozenset(op.indirect_positions()), results))
    facts = (_written(region), index_syms, accesses)
    _FACTS[region] = (key, facts)
    return facts


class _RegionState:
    def __init__(self, region: stream.RegionOp, arrays: Sequence[np.ndarray], scalars: Sequence[object], label: str | None = None):
        self.region = region
        if len(arrays) != len(region.arrays) or len(scalars) != len(region.scalars):
            raise EvaluationError(
                f"stream.region takes {len(region.arrays)} arrays and {len(region.scalars)} scalars, got {len(arrays)} and {len(scalars)}"
            )
        self.env: dict[str, int] = {}
        self.values: dict[SSAValue, np.ndarray] = {}
        for arg, arr, operand in zip(region.array_args, arrays, region.arrays):
            assert isinstance(operand.type, MemRefType)
            want = numpy_dtype(operand.type.element_type)
            if not isinstance(arr, np.ndarray) or arr.dtype != want:
                raise EvaluationError(f"array argument must be a numpy array of {want}, got {getattr(arr, 'dtype', type(arr).__name__)}")
            if not arr.flags.c_contiguous:
                raise EvaluationError("array arguments must be C-contiguous numpy arrays")
            if arr.ndim != len(operand.type.get_shape()):
                raise EvaluationError(f"array argument of rank {arr.ndim} passed for {operand.type}")
            self.values[arg] = arr
        for name, arg, val in zip(region.names, region.scalar_args, scalars):
            dt = numpy_dtype(arg.type)
            self.values[arg] = np.asarray(val, dtype=dt)
            if isinstance(arg.type, IndexType):
                self.env[name] = int(val)  # type: ignore[arg-type]
        try:
            self.box = region.iteration_domain.evaluate(self.env)
        except LatticeError as e:
            raise EvaluationError(str(e)) from None
        self.shape = tuple(max(0, q - p) for p, q in self.box)
        self.rank = len(self.shape)
        self.size = math.prod(self.shape)
        check_domain_memory(region, self.box, label)
        self._grids: dict[int, np.ndarray] = {}

    def restricted(self, box: list[tuple[int, int]]) -> "_RegionState":
        """This invocation over a sub-box of its domain (``_row_parts``)."""
        sub = object.__new__(_RegionState)
        sub.__dict__.update(self.__dict__)
        sub.values, sub._grids = dict(self.values), {}
        sub.box, sub.shape = box, tuple(max(0, q - p) for p, q in box)
        sub.size = math.prod(sub.shape)
        return sub

    def grid(self, i: int, full: bool = True) -> np.ndarray:
        """The open grid of dim ``i`` (varies along dim i only); not ``full``: its
        first coordinate only (a reduced dim's, unused by the store's map) --
        made on demand, so an empty domain allocates no grid of its other dims."""
        p, n = self.box[i][0], self.shape[i]
        if not full:
            return np.full([1] * self.rank, p if n else 0, np.int64)
        if i not in self._grids:
            self._grids[i] = np.arange(p, p + n, dtype=np.int64).reshape([n if j == i else 1 for j in range(self.rank)])
        return self._grids[i]

    # -- helpers ------------------------------------------------------------
    def full(self, v: np.ndarray) -> np.ndarray:
        return np.broadcast_to(v, self.shape)

    def indices(self, op, amap: AccessMap, indirect_pos: Sequence[int], indirect: Sequence[SSAValue], array: np.ndarray,
                shape: tuple[int, ...] | None = None) -> tuple[np.ndarray, ...]:  # fmt: skip
        shape = self.shape if shape is None else shape
        size = int(np.prod(shape)) if shape else 1
        grids = [self.grid(i, shape[i] == self.shape[i]) for i in range(self.rank)]
        try:
            idx = list(amap.apply(grids, self.env)) if self.rank else [np.asarray(e.evaluate(self.env)) for e in amap.results]
        except LatticeError as e:
            raise EvaluationError(f"{op_label(op)}: {e}") from None
        for p, v in zip(indirect_pos, indirect):
            idx[p] = self.values[v].astype(np.int64)
        bshape = np.broadcast_shapes(*(np.shape(i) for i in idx)) if idx else ()
        for d, i in enumerate(idx):
            if size and np.size(i) and (np.min(i) < 0 or np.max(i) >= array.shape[d]):
                bad = int(np.min(i)) if np.min(i) < 0 else int(np.max(i))
                raise EvaluationError(f"{op_label(op)} accesses index {bad} in dim {d} of an array of shape {list(array.shape)}")
        return tuple(np.broadcast_to(i, bshape) for i in idx)

    def iteration_ids(self, shape: tuple[int, ...]) -> np.ndarray:
        """Linear iteration number (C order = sequential order) of each point."""
        return np.arange(self.size, dtype=np.int64).reshape(self.shape) if self.rank else np.zeros((), np.int64)

    def write_shape(self, value: SSAValue) -> tuple[int, ...]:
        """Points at which a store happens: a reduced value is stored once per
        point of its remaining dims, after the reduction loops, even when the
        reduced range is empty (the loop nest stores the init value)."""
        live = stream.live_dims(value, self.region)
        return tuple(n if d in live else 1 for d, n in enumerate(self.shape))

    def write_ids(self, shape: tuple[int, ...]) -> np.ndarray:
        """Sequential position of each write point (reduced dims: after their last iteration)."""
        if not self.rank:
            return np.zeros((), np.int64)
        full = [np.arange(n, dtype=np.int64) if m == n else np.full(1, max(n - 1, 0), np.int64) for n, m in zip(self.shape, shape)]
        grids = np.meshgrid(*full, indexing="ij")
        return np.ravel_multi_index(grids, tuple(max(n, 1) for n in self.shape)).reshape(shape)


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


def _static_dependence(region: stream.RegionOp) -> str | None:
    key = _ir_key(region)
    hit = _STATIC_CHECKS.get(region)
    if hit is not None and hit[0] == key:
        return hit[1]
    out = stream.loop_carried_dependence(region)
    _STATIC_CHECKS[region] = (key, out)
    return out


def evaluate_region(
    region: stream.RegionOp, arrays: Sequence[np.ndarray], scalars: Sequence[object], label: str | None = None, *, views: bool = True
) -> list[np.ndarray]:
    """Run ``region`` in place on ``arrays``; return its scalar results.
    ``label`` names the region in errors (default: its line).  ``views=False``
    evaluates every access through index grids (the general path the view
    path falls back to; the tests compare the two)."""
    carried = _static_dependence(region)
    if carried is not None:
        raise EvaluationError(f"'{region.name}' {carried}")
    alias = aliased_operands(region, arrays, same_object=False)
    if alias is not None:
        raise EvaluationError(f"{label or region_label(region)}: {alias}")
    st = _RegionState(region, arrays, scalars, label)
    bad = out_of_bounds_access(region, [a.shape for a in arrays], scalars)
    if bad is not None:
        raise EvaluationError(bad)
    evaluate = _evaluate_views if views else _evaluate_grids
    try:
        rows = _row_parts(region, st.shape)
        if rows is not None and _reads_what_it_writes(region, arrays):
            check_domain_memory(region, st.box, label, whole=True)
            rows = None
        if rows is None:
            return evaluate(region, st)
        p0, q0 = st.box[0]
        for r0 in range(p0, q0, rows):  # in order: the outermost loop's
            evaluate(region, st.restricted([(r0, min(r0 + rows, q0)), *st.box[1:]]))
        return []
    except MemoryError:  # past the lower bound of check_domain_memory
        dom = ", ".join(f"{p}:{q}" for p, q in st.box)
        raise EvaluationError(f"{label or region_label(region)}: the host ran out of memory evaluating its iteration domain [{dom}] ({st.size:,} points): use smaller sizes") from None


def _evaluate_grids(region: stream.RegionOp, st: _RegionState) -> list[np.ndarray]:
    """The general path: every access through int64 index grids of the whole
    domain, every write through flat cell indices (``_apply_writes``)."""
    block = region.body.block
    ops = list(block.ops)
    # writes per array: list of (op position, cell indices, values, kind)
    writes: dict[int, list[tuple[int, tuple[np.ndarray, ...], np.ndarray, str]]] = {}
    reads: dict[int, list[tuple[int, tuple[np.ndarray, ...]]]] = {}
    results: list[np.ndarray] = []

    for pos, op in enumerate(ops):
        if isinstance(op, stream.LoadOp):
            arr = st.values[op.array]
            if not st.size:  # no iteration reads anything
                st.values[op.result] = np.zeros(st.shape, arr.dtype)
                continue
            idx = st.indices(op, op.access_map(), op.indirect_positions(), op.indices, arr)
            st.values[op.result] = arr[idx]
            reads.setdefault(id(arr), []).append((pos, idx))
        elif isinstance(op, stream.ComputeOp):
            st.values[op.result] = _eval_compute(op, st, st.values.__getitem__)
        elif isinstance(op, stream.ReduceOp):
            st.values[op.result] = _eval_reduce(op, st, st.values[op.input])
        elif isinstance(op, (stream.StoreOp, stream.AtomicOp)):
            arr = st.values[op.array]
            wshape = st.write_shape(op.value)
            if not math.prod(wshape):  # no write point: nothing happens
                continue
            idx = st.indices(op, op.access_map(), op.indirect_positions(), op.indices, arr, wshape)
            kind = "store" if isinstance(op, stream.StoreOp) else op.kind.data
            writes.setdefault(id(arr), []).append((pos, idx, st.values[op.value], kind, wshape))
        elif isinstance(op, stream.YieldOp):
            results = [np.asarray(st.values[v]).reshape(()) for v in op.values]
        else:  # pure arith at region level (constants, symbol arithmetic)
            st.values[op.results[0]] = eval_scalar_op(op, [st.values[a] for a in op.operands])

    by_id = {id(st.values[a]): st.values[a] for a in region.array_args}
    for key, ws in writes.items():
        ws = [w for w in ws if int(np.prod(w[4]))]  # no write point: nothing happens
        if not ws:
            continue
        arr = by_id[key]
        _check_dependences(region, st, arr, reads.get(key, []) if st.size else [], ws, _aliased(region, st, arr))
        _apply_writes(st, arr, ws, len(ops))
    return results


def _eval_compute(op: stream.ComputeOp, st: _RegionState, value: Callable[[SSAValue], np.ndarray]) -> np.ndarray:
    """The general path's compute: the result broadcast to its stream inputs' shapes."""
    body = op.body.block
    local: dict[SSAValue, np.ndarray] = {a: value(v) for a, v in zip(body.args, op.inputs)}
    for inner in body.ops:
        if isinstance(inner, stream.YieldOp):
            out = np.asarray(local[inner.values[0]])
            shapes = [np.shape(local[a]) for a, v in zip(body.args, op.inputs) if isinstance(v.type, stream.StreamType)]
            # the result varies over its stream inputs' dims even where the body ignores them
            # (no stream input: the same value at every point)
            target = np.broadcast_shapes(out.shape, *shapes) if shapes else st.shape
            return np.broadcast_to(out, target)
        local[inner.results[0]] = eval_scalar_op(inner, [local[a] for a in inner.operands])
    raise EvaluationError("stream.compute body has no stream.yield")


def _eval_reduce(op: stream.ReduceOp, st: _RegionState, v: np.ndarray) -> np.ndarray:
    kind = op.kind.data
    dims = tuple(op.dims_list())
    v = np.asarray(v)
    # broadcast only along the reduced dims (others may stay size-1)
    target = tuple(st.shape[d] if d in dims else v.shape[d] for d in range(st.rank))
    v = np.broadcast_to(v, target)
    init = st.values[op.init] if op.init is not None else None
    if v.dtype != np.bool_:
        return _fold(op, st, kind, dims, v, init)
    # an i1 is signed (true is -1, as arith's i1): fold its 0/-1 values as i8
    # (add and mul wrap, min/max/argmin/argmax are signed) and keep the low
    # bit -- add is xor, mul and, min or, max and (stream.reduce's docstring)
    init8 = None if init is None else -np.asarray(init).astype(np.int8)
    if init8 is None and kind in ("min", "max"):  # int8's identities would give the unsigned ones
        init8 = np.int8(signed_i1_identity(kind))
    r = _fold(op, st, kind, dims, -v.astype(np.int8), init8)
    return r if kind in ("argmin", "argmax") else (r & 1).astype(np.bool_)


def _fold(op: stream.ReduceOp, st: _RegionState, kind: str, dims: tuple[int, ...], v: np.ndarray, init) -> np.ndarray:
    if kind in ("argmin", "argmax"):
        (d,) = dims
        if st.shape[d] == 0:
            raise EvaluationError(f"{kind} over an empty range in {op_label(op)}")
        f = np.argmin if kind == "argmin" else np.argmax
        out = f(v, axis=d, keepdims=True) + st.box[d][0]  # the coordinate, not the position
        return out.astype(numpy_dtype(stream.elem_type(op.result.type)))
    dtype = v.dtype
    if init is None:
        init = reduce_identity(kind, dtype)
    # IEEE float folds as the loop nest's: a product that overflows to inf and
    # then meets a 0 is NaN (inf - inf too).  numpy's product over the C-ordered
    # domain is that sequential fold, bit for bit; its warning is no error of
    # ours, and the value is the loop's (test_reference: ..._meets_zero_is_nan...).
    with np.errstate(over="ignore", invalid="ignore"):
        if kind == "add":
            r = np.add.reduce(v, axis=dims, keepdims=True, dtype=dtype)
            r = (r + init).astype(dtype)
        elif kind == "mul":
            r = (np.multiply.reduce(v, axis=dims, keepdims=True, dtype=dtype) * init).astype(dtype)
        else:  # floats: arith.minimumf/maximumf, -0.0 < +0.0 (float_fold)
            combine = elementwise_min if kind == "min" else elementwise_max
            r = np.asarray(combine(float_fold(kind, v, dims, True, reduce_identity(kind, dtype)), np.asarray(init, dtype))).astype(dtype)
    return r


# ---------------------------------------------------------------------------
# The view path: affine accesses as strided numpy views
# ---------------------------------------------------------------------------
#
# An affine map sends the point ``lo + t`` of a box to the flat element
# ``sum_k e_k(lo + t) * stride_k``, linear in ``t``: the cells of any affine
# access over a box are one strided view of the array (a transposed map is a
# transposed view, a constant index a fixed offset, a dim the map does not use
# a size-1 axis that broadcasts).  Loads read through such views and stores and
# atomics write through them, so nothing of the domain's size is built but the
# computed values; index grids remain for indirect accesses and for writes
# whose order the views cannot express (several ops on overlapping cells,
# stores mixed with atomics, maps folding two dims into one array dim).
#
# Values stay compact (a load's unused dims are size 1, a compute is numpy's
# broadcast of its operands), which gives every point the value the grid path
# gives it, elementwise.  What is not elementwise is a float reduction: numpy's
# summation order follows the memory layout of its input.  A float add/mul/
# min/max reduction therefore reduces exactly the array the grid path would
# have built (same shape, same C layout: ``_grid_layout``), so its result is
# bit-identical to the general path's.

_VIEW_SAFE_OPS = (
    arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp, arith.MaximumfOp, arith.MinimumfOp, arith.MaxnumfOp,
    arith.MinnumfOp, arith.SubiOp, arith.MuliOp, arith.AndIOp, arith.OrIOp, arith.XOrIOp, arith.MaxSIOp, arith.MinSIOp,
    arith.MaxUIOp, arith.MinUIOp, arith.AddiOp, arith.NegfOp, arith.CmpfOp, arith.CmpiOp, arith.SelectOp,
)  # fmt: skip
_VIEW_SAFE_MATH = frozenset({"math.absf", "math.absi", "math.sqrt", "math.exp", "math.log", "math.tanh", "math.fma", "math.powf"})
# Float atomics fold colliding points in a Python loop over them (their order
# is the result); past this many per cell, the general path's ufunc.at.
_LOOP_ATOMIC_LIMIT = 1024


@dataclass
class _Access:
    """One affine access as a view: ``view`` (axes in iteration-dim order,
    size 1 where the map does not use the dim), the array cells it spans
    (``lo``/``hi`` per array dim), and whether distinct used points are
    distinct cells (``injective``: no array dim mixes two varying dims)."""

    view: np.ndarray
    used: frozenset[int]
    lo: tuple[int, ...]
    hi: tuple[int, ...]
    injective: bool


def _affine_access(arr: np.ndarray, amap: AccessMap, env: dict[str, int], starts: Sequence[int], lengths: Sequence[int]) -> _Access | None:
    """The cells ``amap`` reaches over the box (``starts``, ``lengths`` per
    iteration dim, all lengths > 0) as a view of ``arr``; None when some cell
    is outside the array or a term is out of range (the general path reports
    it), or the map is not one the view can express."""
    if len(amap.results) != arr.ndim:
        return None
    strides = [0] * len(starts)
    used: set[int] = set()
    offset = 0
    lo_l, hi_l = [], []
    injective = True
    for k, e in enumerate(amap.results):
        at = e.const
        span_lo = span_hi = 0
        varying = 0
        for n, c in e.terms:
            if abs(c) > 2**40 or abs(at) > 2**62:
                return None
            d = dim_index(n)
            if d is None:
                if n not in env:
                    return None
                at += c * env[n]
                continue
            if d >= len(starts):
                return None
            at += c * starts[d]
            span = c * (lengths[d] - 1)
            span_lo, span_hi = span_lo + min(0, span), span_hi + max(0, span)
            strides[d] += c * arr.strides[k]
            if lengths[d] > 1:
                used.add(d)
                varying += 1
        injective &= varying <= 1
        lo, hi = at + span_lo, at + span_hi
        if lo < 0 or hi >= arr.shape[k]:
            return None
        lo_l.append(lo)
        hi_l.append(hi)
        offset += at * arr.strides[k]
    shape = [lengths[d] if d in used else 1 for d in range(len(starts))]
    view = np.ndarray(shape, arr.dtype, buffer=arr, offset=offset, strides=[s if d in used else 0 for d, s in enumerate(strides)])
    return _Access(view, frozenset(used), tuple(lo_l), tuple(hi_l), injective)


def _is_float(dtype: np.dtype) -> bool:
    return bool(np.issubdtype(dtype, np.floating))


class _ViewState:
    """Per-value bookkeeping of the view path: ``grid[v]`` is the (shape,
    materialized shape) of the array the grid path holds for stream value v:
    a C-contiguous array of the materialized shape broadcast to the shape, or
    None when that layout is not known (then it is rebuilt: ``grid_value``)."""

    def __init__(self, region: stream.RegionOp, st: _RegionState):
        self.region = region
        self.st = st
        self.grid: dict[SSAValue, tuple[tuple[int, ...], tuple[int, ...]] | None] = {}
        self.grid_loads: set[SSAValue] = set()  # loads evaluated through index grids (C, full shape already)

    def layout(self, v: SSAValue) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        if not isinstance(v.type, stream.StreamType):
            return (), ()  # a region scalar: 0-d
        return self.grid[v]

    def grid_value(self, v: SSAValue, memo: dict[SSAValue, np.ndarray]) -> np.ndarray:
        """The very array (values, shape and layout) the grid path holds for ``v``."""
        st = self.st
        if not isinstance(v.type, stream.StreamType):
            return st.values[v]
        if v in memo:
            return memo[v]
        lay = self.grid.get(v)
        if lay is not None:
            shape, mat = lay
            val = st.values[v]
            if not mat and np.ndim(val) and (np.size(val) == 1 or 0 in shape):
                # a value constant over the domain (a compute of constants only) held
                # compact: one cell, or none when the domain is empty (found by
                # test_pinned_nests[empty_fold]: a fold over an empty range)
                val = np.asarray(val).reshape(()) if np.size(val) == 1 else np.zeros((), np.asarray(val).dtype)
            out = np.broadcast_to(np.ascontiguousarray(np.broadcast_to(val, mat)), shape)
        else:
            owner = v.owner
            if isinstance(owner, stream.ComputeOp):
                out = _eval_compute(owner, st, lambda x: self.grid_value(x, memo))
            else:
                assert isinstance(owner, stream.ReduceOp)  # a non-float reduce (exact in any order) of an unknown-layout input
                inp = self.grid_value(owner.input, memo)
                dims = owner.dims_list()
                shape = tuple(1 if d in dims else n for d, n in enumerate(inp.shape))
                out = np.ascontiguousarray(np.broadcast_to(st.values[v], shape))
        memo[v] = out
        return out

    def compute_layout(self, op: stream.ComputeOp) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """The grid path's layout of a compute's result, when its body only has
        ops whose numpy results are fresh C-contiguous arrays of their operands'
        broadcast shape (ufuncs of C-contiguous or broadcast operands)."""
        body = op.body.block
        local: dict[SSAValue, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        for a, v in zip(body.args, op.inputs):
            lay = self.layout(v)
            if lay is None:
                return None
            local[a] = lay
        for inner in body.ops:
            if isinstance(inner, stream.YieldOp):
                shape, mat = local[inner.values[0]]
                ins = [self.layout(v)[0] for v in op.inputs if isinstance(v.type, stream.StreamType)]  # type: ignore[index]
                target = np.broadcast_shapes(shape, *ins) if ins else self.st.shape
                return tuple(target), mat
            if isinstance(inner, arith.ConstantOp):
                local[inner.results[0]] = ((), ())
            elif isinstance(inner, _VIEW_SAFE_OPS) or inner.name in _VIEW_SAFE_MATH:
                shape = tuple(np.broadcast_shapes(*(local[a][0] for a in inner.operands)))
                local[inner.results[0]] = (shape, shape)
            else:
                return None
        return None


def _compact(v: np.ndarray, rank: int) -> np.ndarray:
    """``v`` with the region's rank (leading size-1 axes), for broadcasting."""
    v = np.asarray(v)
    return v.reshape((1,) * (rank - v.ndim) + v.shape) if v.ndim < rank else v


def _evaluate_views(region: stream.RegionOp, st: _RegionState) -> list[np.ndarray]:
    block = region.body.block
    ops = list(block.ops)
    vs = _ViewState(region, st)
    # per array: reads (op position, op, index grids or None, view access or None)
    reads: dict[int, list[tuple[int, stream.LoadOp, tuple[np.ndarray, ...] | None, _Access | None]]] = {}
    # per array: writes (op position, op, value, kind, write shape, index grids or None, view access or None)
    writes: dict[int, list[tuple]] = {}
    results: list[np.ndarray] = []
    starts = [p for p, _ in st.box]
    dead = _dead_after(ops)
    chunks = _chunk_plan(ops, st)
    deferred: list[tuple[list, int, SSAValue]] = []  # (writes list, entry, compute value) filled in chunks

    for pos, op in enumerate(ops):
        if chunks is None:
            for v in dead.get(pos - 1, ()):  # values no later op uses: freed as the loop nest would
                st.values.pop(v, None)
        if isinstance(op, stream.LoadOp):
            arr = st.values[op.array]
            vs.grid[op.result] = (st.shape, st.shape)
            if not st.size:  # no iteration reads anything
                st.values[op.result] = np.zeros(st.shape, arr.dtype)
                continue
            acc = None if op.indirect_positions() else _affine_access(arr, op.access_map(), st.env, starts, st.shape)
            if acc is None:
                idx = st.indices(op, op.access_map(), op.indirect_positions(), op.indices, arr)
                st.values[op.result] = arr[idx]
                reads.setdefault(id(arr), []).append((pos, op, idx, None))
            else:
                st.values[op.result] = acc.view
                reads.setdefault(id(arr), []).append((pos, op, None, acc))
        elif isinstance(op, stream.ComputeOp):
            vs.grid[op.result] = vs.compute_layout(op)
            if chunks is None:
                st.values[op.result] = _compact(_eval_compute_compact(op, st), st.rank)
        elif isinstance(op, stream.ReduceOp):
            st.values[op.result] = _reduce_views(op, st, vs)
        elif isinstance(op, (stream.StoreOp, stream.AtomicOp)):
            arr = st.values[op.array]
            wshape = st.write_shape(op.value)
            if not math.prod(wshape):  # no write point: nothing happens
                continue
            kind = "store" if isinstance(op, stream.StoreOp) else op.kind.data
            acc = idx = None
            if not op.indirect_positions():
                wstarts = [p if d_live else (p if n else 0) for p, d_live, n in zip(starts, [w == n for w, n in zip(wshape, st.shape)], st.shape)]
                acc = _affine_access(arr, op.access_map(), st.env, wstarts, wshape)
            if acc is None:  # indirect (its index values are read now, before any write) or not a view
                idx = st.indices(op, op.access_map(), op.indirect_positions(), op.indices, arr, wshape)
            ws = writes.setdefault(id(arr), [])
            if chunks is not None and isinstance(op.value.owner, stream.ComputeOp):
                deferred.append((ws, len(ws), op.value))
                ws.append((pos, op, None, kind, wshape, idx, acc))
            else:
                ws.append((pos, op, st.values[op.value], kind, wshape, idx, acc))
        elif isinstance(op, stream.YieldOp):
            memo: dict[SSAValue, np.ndarray] = {}
            results = [np.array(vs.grid_value(v, memo)).reshape(()) for v in op.values]  # a copy: values may be views
        else:  # pure arith at region level (constants, symbol arithmetic)
            st.values[op.results[0]] = eval_scalar_op(op, [st.values[a] for a in op.operands])

    if chunks is not None:
        stored = _evaluate_chunks(ops, st, dead, chunks, {v for *_, v in deferred})
        for ws, i, v in deferred:
            ws[i] = (ws[i][0], ws[i][1], stored[v], *ws[i][3:])
    by_id = {id(st.values[a]): st.values[a] for a in region.array_args}
    written = [by_id[k] for k in writes]
    # a value read through a view of an array the region writes is copied
    # before any write lands (the grid path's loads were copies)
    for ws in writes.values():
        for i, w in enumerate(ws):
            val = w[2]
            if isinstance(val, np.ndarray) and any(np.may_share_memory(val, a) for a in written):
                ws[i] = (w[0], w[1], val.copy(), *w[3:])
    for key, ws in writes.items():
        arr = by_id[key]
        rs = reads.get(key, []) if st.size else []
        if rs and not _independent(st, rs, ws):
            _check_dependences(region, st, arr, [(p, g if g is not None else _grids(st, o, arr)) for p, o, g, _ in rs], _grid_writes(st, arr, ws), _aliased(region, st, arr))
        if not _apply_view_writes(st, arr, ws):
            _apply_writes(st, arr, _grid_writes(st, arr, ws), len(ops))
    return results


# Computes in chunks of the domain.  A region's computes evaluated over the
# whole domain at once hold several values of the domain's size: conv3d keeps
# three partial sums and the products being added, 5 values of 16 x 254 x 254
# f32 (20 MiB) against 8 MiB of arrays.  Where every compute is elementwise and
# nothing but stores uses the values (no reduction, no result), the computes
# run on slices of one domain axis instead, ``CHUNK_POINTS`` points at a time:
# a load's view is sliced, a compute runs on the slices, and a stored value is
# copied into its full-size array (the only value kept whole: the writes go in
# after every read, as before).  Elementwise numpy ops give each point the same
# bits on a slice as on the whole, so results do not change; the chunks fit in
# the CPU's L2 cache, which makes them no slower.
CHUNK_POINTS = 1 << 16
_CHUNK_CASTS = (arith.SIToFPOp, arith.UIToFPOp, arith.ExtFOp, arith.TruncFOp, arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp, arith.IndexCastOp)


def _chunk_plan(ops: list, st: _RegionState) -> tuple[int, list[tuple[int, int]]] | None:
    """(axis, [start, stop) ranges) to evaluate the region's computes in, or
    None to evaluate them whole: when they hold at most one intermediate of the
    domain's size (nothing to save), or some op needs whole values (a
    reduction, a result, an indirect access's index values), or a compute has
    an op that can fail on some points (integer division: which error a run
    reports must not depend on the chunks)."""
    if st.size < 2 * CHUNK_POINTS:
        return None
    work = 0
    for op in ops:
        if isinstance(op, stream.ReduceOp) or (isinstance(op, stream.YieldOp) and op.values):
            return None
        if isinstance(op, (stream.LoadOp, stream.StoreOp, stream.AtomicOp)) and op.indirect_positions():
            return None
        if isinstance(op, stream.ComputeOp):
            for inner in op.body.block.ops:
                if isinstance(inner, (arith.ConstantOp, stream.YieldOp)):
                    continue
                if not (isinstance(inner, _VIEW_SAFE_OPS + _CHUNK_CASTS) or inner.name in _VIEW_SAFE_MATH):
                    return None
                work += 1
    if work < 2:
        return None
    axis = next(d for d, n in enumerate(st.shape) if n > 1)
    n = st.shape[axis]
    rows = max(2, CHUNK_POINTS // (st.size // n))
    bounds = list(range(0, n, rows)) + [n]
    if bounds[-1] - bounds[-2] == 1:  # no chunk of one row: a value's axis is then 1 exactly when it does not vary
        del bounds[-2]
    return axis, list(zip(bounds, bounds[1:]))


def _evaluate_chunks(ops: list, st: _RegionState, dead: dict[int, list[SSAValue]], chunks: tuple[int, list[tuple[int, int]]],
                     stored: set[SSAValue]) -> dict[SSAValue, np.ndarray]:  # fmt: skip
    """The region's computes chunk by chunk (``_chunk_plan``); the whole value
    of each compute in ``stored``, as the whole-domain evaluation gives it."""
    axis, ranges = chunks
    n = st.shape[axis]
    whole: dict[SSAValue, np.ndarray] = {}
    for c0, c1 in ranges:
        cut = (slice(None),) * axis + (slice(c0, c1),)
        values = dict(st.values)
        for op in ops:
            if isinstance(op, stream.LoadOp):
                v = values[op.result]
                if np.ndim(v) == st.rank and v.shape[axis] > 1:
                    values[op.result] = v[cut]
        for pos, op in enumerate(ops):
            for v in dead.get(pos - 1, ()):
                values.pop(v, None)
            if not isinstance(op, stream.ComputeOp):
                continue
            val = _compact(_eval_compute_compact(op, st, values), st.rank)
            values[op.result] = val
            if op.result in stored:
                if val.shape[axis] == 1:  # the same on every chunk (chunks have 2 rows or more)
                    whole.setdefault(op.result, np.array(val))
                else:
                    if op.result not in whole:
                        whole[op.result] = np.empty(val.shape[:axis] + (n,) + val.shape[axis + 1 :], val.dtype)
                    whole[op.result][cut] = val
    return whole


def _dead_after(ops: list) -> dict[int, list[SSAValue]]:
    """Per op position, the values of the region's ops last used there (a
    value nobody uses dies where it is made), except those a float reduction
    or the yield may rebuild the grid path's arrays from (``grid_value``)."""
    keep: set[SSAValue] = set()
    todo = [v for op in ops if isinstance(op, stream.YieldOp) for v in op.values]
    todo += [op.input for op in ops if isinstance(op, stream.ReduceOp) and op.kind.data not in ("argmin", "argmax")]
    while todo:
        v = todo.pop()
        if v in keep:
            continue
        keep.add(v)
        owner = v.owner
        if isinstance(owner, stream.ComputeOp):
            todo += list(owner.inputs)
        elif isinstance(owner, stream.ReduceOp):
            todo.append(owner.input)
    last: dict[SSAValue, int] = {}
    for pos, op in enumerate(ops):
        for r in op.results:
            last[r] = pos
        for v in op.operands:
            if v in last:
                last[v] = pos
    out: dict[int, list[SSAValue]] = {}
    for v, pos in last.items():
        if v not in keep:
            out.setdefault(pos, []).append(v)
    return out


def _grids(st: _RegionState, op, arr: np.ndarray, shape: tuple[int, ...] | None = None) -> tuple[np.ndarray, ...]:
    return st.indices(op, op.access_map(), op.indirect_positions(), op.indices, arr, shape)


def _grid_writes(st: _RegionState, arr: np.ndarray, ws) -> list:
    """The view path's writes in the general path's form (cell index grids)."""
    return [(pos, idx if idx is not None else _grids(st, op, arr, wshape), val, kind, wshape) for pos, op, val, kind, wshape, idx, _ in ws]


def _eval_compute_compact(op: stream.ComputeOp, st: _RegionState, values: dict[SSAValue, np.ndarray] | None = None) -> np.ndarray:
    """A compute on its operands as they are (views, size-1 dims): numpy's
    broadcast gives each point the grid path's value.  ``values``: the
    operands' values (default ``st.values``; a chunk's, ``_evaluate_chunks``)."""
    body = op.body.block
    values = st.values if values is None else values
    local: dict[SSAValue, np.ndarray] = {a: values[v] for a, v in zip(body.args, op.inputs)}
    inner_ops = list(body.ops)
    last = {v: i for i, inner in enumerate(inner_ops) for v in inner.operands}
    for i, inner in enumerate(inner_ops):
        if isinstance(inner, stream.YieldOp):
            return np.asarray(local[inner.values[0]])
        local[inner.results[0]] = eval_scalar_op(inner, [local[a] for a in inner.operands])
        for a in set(inner.operands):  # intermediates die at their last use
            if last[a] == i:
                local.pop(a, None)
    raise EvaluationError("stream.compute body has no stream.yield")


def _reduce_views(op: stream.ReduceOp, st: _RegionState, vs: _ViewState) -> np.ndarray:
    """A reduction on the view path.  Integer kinds (wrapping add/mul, min,
    max) and argmin/argmax give the same result in any order: they reduce the
    compact value.  A float add/mul/min/max reduces the grid path's very array
    (see the section comment), so its result is bit-identical."""
    kind = op.kind.data
    v = st.values[op.input]
    if kind in ("argmin", "argmax") or not _is_float(v.dtype):
        r = _eval_reduce(op, st, v)
        lay = vs.layout(op.input)
        dims = op.dims_list()
        vs.grid[op.result] = None if lay is None else ((shape := tuple(1 if d in dims else n for d, n in enumerate(lay[0]))), shape)
        return r
    r = _eval_reduce(op, st, vs.grid_value(op.input, {}))
    vs.grid[op.result] = (r.shape, r.shape)
    return r


def _independent(st: _RegionState, reads, writes) -> bool:
    """No read of the array can see a write of the region, proven from the
    maps (the general check on the cells finds nothing then): each (read,
    write) pair either spans disjoint cells, or is a write after the read, in
    program order, through the same one-to-one map over the whole domain
    (each cell is read and written by one iteration, the read first)."""
    for rpos, rop, _, racc in reads:
        for wpos, wop, _, _, wshape, _, wacc in writes:
            if racc is None or wacc is None:
                return False
            if any(rh < wl or wh < rl for rl, rh, wl, wh in zip(racc.lo, racc.hi, wacc.lo, wacc.hi)):
                continue
            if (
                wpos > rpos
                and wshape == st.shape
                and wop.access_map() == rop.access_map()
                and wacc.injective
                and all(st.shape[d] <= 1 for d in range(st.rank) if d not in wacc.used)
            ):
                continue
            return False
    return True


def _apply_view_writes(st: _RegionState, arr: np.ndarray, writes) -> bool:
    """The writes to ``arr`` through their views, with the general path's
    result, when their order is expressible that way; False (nothing written)
    otherwise.

    * stores only: each op's view is one-to-one over the dims it uses; of the
      points writing one cell (they differ in dims the map does not use) the
      last in iteration order wins: the value at the last coordinate of those
      dims.  Several ops go in program order when each pair writes disjoint
      cells or the same cells from the same points (then the later op wins).
    * atomics only, one kind: applied op by op in program order, each op's
      points in iteration order -- the order ``ufunc.at`` applies them in the
      general path.  Colliding points (dims the map does not use) fold in that
      order: a loop over those dims for floats, a ``ufunc.reduce`` for
      integers (exact in any order).
    """
    if any(acc is None or not acc.injective for *_, acc in writes):
        return False
    kinds = {w[3] for w in writes}
    if len(kinds) != 1:
        return False
    (kind,) = kinds
    if kind == "store":
        for i, a in enumerate(writes):
            for b in writes[i + 1 :]:
                aa, ba = a[6], b[6]
                disjoint = any(ah < bl or bh < al for al, ah, bl, bh in zip(aa.lo, aa.hi, ba.lo, ba.hi))
                if not disjoint and not (a[4] == b[4] and a[1].access_map() == b[1].access_map()):
                    return False
        for _, _, val, _, wshape, _, acc in writes:
            v = np.broadcast_to(np.asarray(val, dtype=arr.dtype), wshape)
            last = tuple(slice(None) if d in acc.used else slice(n - 1, n) for d, n in enumerate(wshape))
            acc.view[...] = v[last]
        return True
    ufunc = signed_atomic_ufunc(kind, arr.dtype)  # i1: xor, or, and (true is -1)
    loops = []
    for _, _, val, _, wshape, _, acc in writes:
        v = np.broadcast_to(np.asarray(val, dtype=arr.dtype), wshape)
        free = [d for d, n in enumerate(wshape) if d not in acc.used and n > 1]
        if free and _is_float(arr.dtype) and math.prod(wshape[d] for d in free) > _LOOP_ATOMIC_LIMIT:
            return False
        loops.append((v, free, acc))
    if _is_float(arr.dtype) and kind in ("min", "max"):  # arith.minimumf/maximumf: -0.0 < +0.0
        f = elementwise_min if kind == "min" else elementwise_max
        ufunc = lambda a, b, out: np.copyto(out, f(a, b))  # noqa: E731
    with np.errstate(over="ignore", invalid="ignore"):
        for v, free, acc in loops:
            if not free:
                ufunc(acc.view, v, out=acc.view)
            elif not _is_float(arr.dtype):
                ufunc(acc.view, ufunc.reduce(v, axis=tuple(free), keepdims=True, dtype=arr.dtype), out=acc.view)
            else:
                for point in np.ndindex(*(v.shape[d] for d in free)):
                    sel = [slice(None)] * v.ndim
                    for d, i in zip(free, point):
                        sel[d] = slice(i, i + 1)
                    ufunc(acc.view, v[tuple(sel)], out=acc.view)
    return True


def _flat_cells(arr: np.ndarray, idx: tuple[np.ndarray, ...], shape: tuple[int, ...]) -> np.ndarray:
    full = [np.broadcast_to(i, shape) for i in idx]
    return np.ravel_multi_index(full, arr.shape).reshape(shape) if full else np.zeros(shape, np.int64)


def _aliased(region: stream.RegionOp, st: _RegionState, arr: np.ndarray) -> list[str]:
    """Names of the region's array arguments bound to ``arr`` when there are
    several (the static check sees distinct arguments as distinct arrays)."""
    names = [f"%{a.name_hint}" if a.name_hint else f"array #{i}" for i, a in enumerate(region.array_args) if st.values[a] is arr]
    return names if len(names) > 1 else []


def _check_dependences(region, st: _RegionState, arr: np.ndarray, reads, writes, aliased: list[str]) -> None:
    """Find reads of a cell written by an earlier iteration (or earlier in the
    same iteration by an op before the read in program order) on the actual
    cells.  The verifier's static check rules these out for distinct arrays, so
    one found here comes from aliased arguments (a user error) or is a bug."""
    if not reads:
        return
    ids = st.iteration_ids(st.shape).ravel()
    big = np.iinfo(np.int64).max
    for rpos, idx in reads:
        first_before = np.full(arr.size, big, dtype=np.int64)  # writes earlier in program order
        first_after = np.full(arr.size, big, dtype=np.int64)
        for wpos, widx, _, _, wshape in writes:
            wids = st.write_ids(wshape).ravel()
            target = first_before if wpos < rpos else first_after
            np.minimum.at(target, _flat_cells(arr, widx, wshape).ravel(), wids)
        cells = _flat_cells(arr, idx, st.shape).ravel()
        bad = (ids >= first_before[cells]) | (ids > first_after[cells])
        if np.any(bad):
            i = int(np.argmax(bad))
            point = np.unravel_index(i, st.shape)
            coords = [int(c) + p for c, (p, _) in zip(point, st.box)]
            if not aliased:
                raise AssertionError(f"the static dependence check missed a loop-carried dependence: iteration {coords} reads a cell written by an earlier iteration")
            raise EvaluationError(
                f"'stream.region' has a loop-carried dependence: {' and '.join(aliased)} are one array at run time, "
                f"and iteration {coords} reads a cell of it written by an earlier iteration; split it into several regions"
            )


def _apply_writes(st: _RegionState, arr: np.ndarray, writes, n_ops: int) -> None:
    """Sequential semantics of all stores and atomics on one array.

    Every write event has a key (iteration, then program order).  Per cell, the
    last store wins, and the atomics after it are folded on top; atomics before
    the last store are overwritten by it.
    """
    kinds = {k for *_, k, _ in writes if k != "store"}
    if len(kinds) > 1:
        from infs.passes.tensorize import atomic_lines

        ops = list(st.region.body.block.ops)
        lines = sorted({ops[pos] for pos, *_, k, _ in writes if k != "store"}, key=ops.index)
        raise EvaluationError(f"{region_label(st.region)} mixes atomic kinds {sorted(kinds)} on one array ({atomic_lines(lines)})")
    cells_l, keys_l, vals_l, is_store_l = [], [], [], []
    for pos, idx, val, kind, wshape in writes:
        cells_l.append(_flat_cells(arr, idx, wshape).ravel())
        keys_l.append(st.write_ids(wshape).ravel() * n_ops + pos)
        vals_l.append(np.broadcast_to(np.asarray(val, dtype=arr.dtype), wshape).ravel())
        is_store_l.append(np.full(cells_l[-1].size, kind == "store"))
    cells, keys = np.concatenate(cells_l), np.concatenate(keys_l)
    vals, is_store = np.concatenate(vals_l), np.concatenate(is_store_l)
    flat = arr.reshape(-1)
    last_store = np.full(arr.size, -1, dtype=np.int64)
    if np.any(is_store):
        np.maximum.at(last_store, cells[is_store], keys[is_store])
        sel = is_store & (keys == last_store[cells])
        flat[cells[sel]] = vals[sel]
    if kinds:
        (kind,) = kinds
        after = ~is_store & (keys > last_store[cells])
        ufunc = signed_atomic_ufunc(kind, arr.dtype)  # i1: xor, or, and (true is -1)
        with np.errstate(over="ignore", invalid="ignore"):  # inf + -inf: NaN, as the loop gives (as above)
            float_fold_at(kind, flat, cells[after], vals[after], ufunc)
