"""The reference evaluator's state of one region run, and its general path: index grids.

Takes a ``stream.region``, its arrays and scalars; gives ``RegionState`` (the
iteration box, symbol values, SSA values, index grids of accesses) and
``evaluate_grids``: every access through int64 index grids of the whole
domain, computes and reductions on full-domain values, every write through
flat cell indices, merged so that the last writer in (iteration order,
program order) wins per cell and atomics apply in order (``apply_writes``),
after a dependence check on the actual cells (``check_dependences``).  The
view path falls back to it and hands it its writes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects.builtin import IndexType, MemRefType
from xdsl.ir import SSAValue

from infs.dialects import stream
from infs.dialects.lattice import AccessMap, LatticeError
from infs.element_types import (
    elementwise_max,
    elementwise_min,
    float_fold,
    float_fold_at,
    reduce_identity,
    signed_atomic_ufunc,
    signed_i1_identity,
)
from infs.runtime.reference_checks import check_domain_memory, region_label
from infs.runtime.scalar_ops import EvaluationError, eval_scalar_op, numpy_dtype, op_label


class RegionState:
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
        # per stream.chase: [steps of all its chains, steps of the longest] (eval_chase adds them up)
        self.chase_stats: dict[stream.ChaseOp, list[int]] = {}
        # per filtered store/atomic: [points it wrote at, points it was asked at] (write_filter adds them up)
        self.filter_stats: dict[stream.StoreOp | stream.AtomicOp, list[int]] = {}

    def restricted(self, box: list[tuple[int, int]]) -> "RegionState":
        """This invocation over a sub-box of its domain (``row_parts``)."""
        sub = object.__new__(RegionState)
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
                shape: tuple[int, ...] | None = None, where: np.ndarray | None = None) -> tuple[np.ndarray, ...]:  # fmt: skip
        """The cells ``op`` accesses at the points of ``shape``, bounds-checked.
        ``where`` (flat over ``shape``): a filtered write's points that write;
        only those are checked, the others get cell 0 (never written)."""
        if where is not None:
            return self._filtered_indices(op, amap, indirect_pos, indirect, array, shape or self.shape, where)
        shape = self.shape if shape is None else shape
        size = int(np.prod(shape)) if shape else 1
        idx = self._unchecked_indices(op, amap, indirect_pos, indirect, shape)
        bshape = np.broadcast_shapes(*(np.shape(i) for i in idx)) if idx else ()
        for d, i in enumerate(idx):
            if size and np.size(i) and (np.min(i) < 0 or np.max(i) >= array.shape[d]):
                bad = int(np.min(i)) if np.min(i) < 0 else int(np.max(i))
                raise EvaluationError(f"{op_label(op)} accesses index {bad} in dim {d} of an array of shape {list(array.shape)}")
        return tuple(np.broadcast_to(i, bshape) for i in idx)

    def _unchecked_indices(self, op, amap: AccessMap, indirect_pos, indirect, shape: tuple[int, ...]) -> list[np.ndarray]:
        """The cells ``op`` accesses at the points of ``shape``, before any bounds check:
        the map over the grids, its indirect positions from the values they load."""
        grids = [self.grid(i, shape[i] == self.shape[i]) for i in range(self.rank)]
        try:
            idx = list(amap.apply(grids, self.env)) if self.rank else [np.asarray(e.evaluate(self.env)) for e in amap.results]
        except LatticeError as e:
            raise EvaluationError(f"{op_label(op)}: {e}") from None
        for p, v in zip(indirect_pos, indirect):
            idx[p] = self.values[v].astype(np.int64)
        return idx

    def _filtered_indices(self, op, amap: AccessMap, indirect_pos, indirect, array: np.ndarray, shape: tuple[int, ...], where: np.ndarray) -> tuple[np.ndarray, ...]:
        idx = self._unchecked_indices(op, amap, indirect_pos, indirect, shape)
        keep = where.reshape(shape)
        out = []
        for d, i in enumerate(idx):
            i = np.broadcast_to(i, shape)
            kept = i[keep]
            if kept.size and (np.min(kept) < 0 or np.max(kept) >= array.shape[d]):
                bad = int(np.min(kept)) if np.min(kept) < 0 else int(np.max(kept))
                raise EvaluationError(f"{op_label(op)} accesses index {bad} in dim {d} of an array of shape {list(array.shape)}")
            out.append(np.where(keep, i, 0))
        return tuple(out)

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


def evaluate_grids(region: stream.RegionOp, st: RegionState) -> list[np.ndarray]:
    """The general path: every access through int64 index grids of the whole
    domain, every write through flat cell indices (``apply_writes``)."""
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
            st.values[op.result] = eval_compute(op, st, st.values.__getitem__)
        elif isinstance(op, stream.ChaseOp):
            st.values[op.result] = eval_chase(op, st)
        elif isinstance(op, stream.ReduceOp):
            st.values[op.result] = eval_reduce(op, st, st.values[op.input])
        elif isinstance(op, stream.ClaimOp):
            eval_claim(op, pos, st, writes)
        elif isinstance(op, stream.CountOp):
            m = np.broadcast_to(np.asarray(st.values[op.mask], dtype=np.bool_), st.shape).ravel().astype(np.int64)
            st.values[op.result] = (np.cumsum(m) - m + int(st.values[op.start])).reshape(st.shape)
        elif isinstance(op, (stream.StoreOp, stream.AtomicOp)):
            arr = st.values[op.array]
            wshape = st.write_shape(op.value)
            changed = op.changed if isinstance(op, stream.AtomicOp) else None
            if changed is not None:
                st.values[changed] = np.zeros(wshape, np.bool_)
            if not math.prod(wshape):  # no write point: nothing happens
                continue
            filt = write_filter(st, op, wshape)
            if filt is not None and not filt.any():
                continue  # the filter holds nowhere: nothing happens
            idx = st.indices(op, op.access_map(), op.indirect_positions(), op.indices, arr, wshape, filt)
            kind = "store" if isinstance(op, stream.StoreOp) else op.kind.data
            if changed is not None:
                st.values[changed] = atomic_changes(op, st, arr, idx, wshape, filt)
            writes.setdefault(id(arr), []).append((pos, idx, st.values[op.value], kind, wshape, filt))
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
        check_dependences(region, st, arr, reads.get(key, []) if st.size else [], ws, aliased_names(region, st, arr))
        apply_writes(st, arr, ws, len(ops))
    return results


def eval_compute(op: stream.ComputeOp, st: RegionState, value: Callable[[SSAValue], np.ndarray]) -> np.ndarray:
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


def _field_name(region: stream.RegionOp, f: SSAValue) -> str:
    i = region.array_args.index(f)
    return f"%{region.arrays[i].name_hint or f.name_hint or f'array #{i}'}"


def eval_chase(op: stream.ChaseOp, st: RegionState) -> np.ndarray:
    """A pointer-chasing stream at every point of the box, vectorized across
    its chains: each numpy step advances every live chain by one node (loads
    its fields at the pointer, runs the body), so the Python loop runs once
    per step of the longest chain, never per chain or element.  A chain ends
    at a null (negative) pointer or where the body says stop; its value is
    the pointer it ended at.  A pointer past the fields' end, or more steps
    than the fields have slots (the chain then visits a slot twice: with the
    same inputs it cycles for ever), is an error naming the op."""
    region = st.region
    ptr_dtype = numpy_dtype(stream.elem_type(op.start.type))
    fields = [st.values[f] for f in op.fields]
    written = [st.values[w.array] for w in region.body.block.ops if isinstance(w, (stream.StoreOp, stream.AtomicOp))]
    for f, arr in zip(op.fields, fields):
        if any(arr.size and w.size and np.shares_memory(arr, w) for w in written):
            raise EvaluationError(f"{op_label(op)} chases through {_field_name(region, f)}, which the region writes at run time (aliased host arguments): pass distinct arrays")
    if not st.size:
        return np.zeros(st.shape, ptr_dtype)
    ptr = np.broadcast_to(np.asarray(st.values[op.start]), st.shape).astype(np.int64).ravel()
    inputs = [np.broadcast_to(np.asarray(st.values[v]), st.shape).ravel() for v in op.inputs]
    slots = min(a.shape[0] for a in fields)
    body = list(op.body.block.ops)
    args = list(op.body.block.args)
    live = np.flatnonzero(ptr >= 0)
    steps = np.zeros(ptr.size, np.int64)
    step = 0

    def where(i: int) -> str:
        point = np.unravel_index(int(i), st.shape)
        return f"[{', '.join(str(int(c) + p) for c, (p, _) in zip(point, st.box))}]"

    while live.size:
        step += 1
        cur = ptr[live]
        out = cur >= slots
        if np.any(out):
            k = int(np.argmax(out))
            f = min(range(len(fields)), key=lambda j: fields[j].shape[0])
            raise EvaluationError(
                f"{op_label(op)}: the chain of iteration {where(live[k])} reaches pointer {int(cur[k])} at step {step}, outside {_field_name(region, op.fields[f])} of {slots} elements"
            )
        if step > slots:  # (every pointer valid: a chain this long visited a slot twice)
            raise EvaluationError(
                f"{op_label(op)}: the chain of iteration {where(live[0])} runs more steps than its fields have slots ({slots}): it cycles (it is at slot {int(cur[0])} after {slots} steps)"
            )
        local: dict[SSAValue, np.ndarray] = {args[0]: cur.astype(ptr_dtype)}
        for a, arr in zip(args[1 : 1 + len(fields)], fields):
            local[a] = arr[cur]
        for a, x in zip(args[1 + len(fields) :], inputs):
            local[a] = x[live]
        steps[live] += 1
        for inner in body:
            if isinstance(inner, stream.YieldOp):
                go = np.broadcast_to(np.asarray(local[inner.values[0]], np.bool_), cur.shape)
                nxt = np.broadcast_to(np.asarray(local[inner.values[1]]), cur.shape).astype(np.int64)
                break
            local[inner.results[0]] = eval_scalar_op(inner, [local[a] for a in inner.operands])
        moved = live[go]
        ptr[moved] = nxt[go]
        live = moved[nxt[go] >= 0]
    stats = st.chase_stats.setdefault(op, [0, 0])
    stats[0] += int(steps.sum())
    stats[1] = max(stats[1], int(steps.max()))
    return ptr.astype(ptr_dtype).reshape(st.shape)


def eval_reduce(op: stream.ReduceOp, st: RegionState, v: np.ndarray) -> np.ndarray:
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


def _fold(op: stream.ReduceOp, st: RegionState, kind: str, dims: tuple[int, ...], v: np.ndarray, init) -> np.ndarray:
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


def write_filter(st: RegionState, op, wshape: tuple[int, ...]) -> np.ndarray | None:
    """The points of ``wshape`` where a filtered store or atomic writes (its
    ``if %m``), flat; None when it writes at every point.  The filter's value
    at a masked-out point is all there is of it: nothing else is evaluated
    differently (a stream body has no control flow, NSC §III-B's predication)."""
    if op.mask is None:
        return None
    filt = np.broadcast_to(np.asarray(st.values[op.mask], dtype=np.bool_), wshape).ravel()
    stats = st.filter_stats.setdefault(op, [0, 0])  # (only the general path evaluates filters: once per op and run)
    stats[0], stats[1] = stats[0] + int(np.count_nonzero(filt)), stats[1] + int(filt.size)
    return filt


def _by_cell(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The points (flat, in iteration order) grouped by cell, each group in
    iteration order: the stable sort's order, and where each group starts."""
    order = np.argsort(cells, kind="stable")
    sc = cells[order]
    start = np.ones(sc.size, np.bool_)
    start[1:] = sc[1:] != sc[:-1]
    return order, start


def _segmented_exclusive(vals: np.ndarray, start: np.ndarray, combine, identity) -> np.ndarray:
    """Per group (``start`` marks each group's first element), the fold by
    ``combine`` of the elements before each one (``identity`` at a group's
    first): a scan by doubling, log2(n) numpy passes."""
    inc = vals.copy()
    seg = np.cumsum(start)
    k = 1
    while k < inc.size:
        same = seg[k:] == seg[:-k]
        inc[k:] = np.where(same, combine(inc[k:], inc[:-k]), inc[k:])  # (the right side reads the pass's old values)
        k *= 2
    out = np.empty_like(inc)
    if inc.size:
        out[0] = identity
        out[1:] = np.where(start[1:], identity, inc[:-1])
    return out


def atomic_changes(op: stream.AtomicOp, st: RegionState, arr: np.ndarray, idx, wshape: tuple[int, ...], filt: np.ndarray | None) -> np.ndarray:
    """Whether each point's min (max) update changes its cell, in iteration
    order: its value beats the cell's value at region entry and every earlier
    point's value for that cell (the array is the atomic's alone: the verifier's
    rule).  False where the filter fails."""
    cells = _flat_cells(arr, idx, wshape).ravel()
    val = np.broadcast_to(np.asarray(st.values[op.value], dtype=arr.dtype), wshape).ravel()
    keep = np.ones(cells.size, np.bool_) if filt is None else filt
    c, v = cells[keep], val[keep]
    order, start = _by_cell(c)
    lo = op.kind.data == "min"
    info = np.iinfo(arr.dtype)
    before = _segmented_exclusive(v[order], start, np.minimum if lo else np.maximum, info.max if lo else info.min)
    cur = (np.minimum if lo else np.maximum)(arr.reshape(-1)[c[order]], before)
    won = np.empty(c.size, np.bool_)
    won[order] = (v[order] < cur) if lo else (v[order] > cur)
    out = np.zeros(cells.size, np.bool_)
    out[keep] = won
    st.filter_stats.setdefault(("changes", op), [0])[0] += int(np.count_nonzero(out))
    return out.reshape(wshape)


def eval_claim(op: stream.ClaimOp, pos: int, st: RegionState, writes: dict) -> None:
    """``stream.claim``'s points that claim their cell, in iteration order (the
    stream dialect's semantics): among the points asked (its filter holds) at
    one cell, in order, each claims while the cell passes the test -- the
    entry value does, and every earlier claimer's value did.  The claimers'
    writes join the array's as stores (the last claimer's value stays)."""
    arr = st.values[op.array]
    shape = st.shape
    st.values[op.won] = np.zeros(shape, np.bool_)
    if not st.size:
        return
    filt = write_filter(st, op, shape)
    asked = np.ones(st.size, np.bool_) if filt is None else filt
    if filt is None:
        stats = st.filter_stats.setdefault(op, [0, 0])
        stats[0], stats[1] = stats[0] + st.size, stats[1] + st.size
    if not asked.any():
        return
    idx = st.indices(op, op.access_map(), op.indirect_positions(), op.indices, arr, shape, filt)
    cells = _flat_cells(arr, idx, shape).ravel()[asked]
    val = np.broadcast_to(np.asarray(st.values[op.value], dtype=arr.dtype), shape).ravel()[asked]
    pred, bound = op.predicate.data, np.asarray(st.values[op.bound], dtype=arr.dtype)
    order, start = _by_cell(cells)
    fails = ~np.asarray(stream.claim_test(pred, val[order], bound), np.bool_)
    cs = np.cumsum(fails)
    excl = cs - fails
    base = np.maximum.accumulate(np.where(start, excl, 0))  # (excl never decreases: each group's first value)
    entry = np.asarray(stream.claim_test(pred, arr.reshape(-1)[cells[order]], bound), np.bool_)
    won_sorted = entry & (excl == base)
    won = np.zeros(st.size, np.bool_)
    won[np.flatnonzero(asked)[order]] = won_sorted
    st.values[op.won] = won.reshape(shape)
    st.filter_stats.setdefault(("changes", op), [0])[0] += int(np.count_nonzero(won))
    if won.any():
        writes.setdefault(id(arr), []).append((pos, idx, st.values[op.value], "store", shape, won))


def access_grids(st: RegionState, op, arr: np.ndarray, shape: tuple[int, ...] | None = None) -> tuple[np.ndarray, ...]:
    return st.indices(op, op.access_map(), op.indirect_positions(), op.indices, arr, shape)


def grid_writes(st: RegionState, arr: np.ndarray, ws) -> list:
    """The view path's writes in the general path's form (cell index grids)."""
    return [(pos, idx if idx is not None else access_grids(st, op, arr, wshape), val, kind, wshape, write_filter(st, op, wshape)) for pos, op, val, kind, wshape, idx, _ in ws]


def _flat_cells(arr: np.ndarray, idx: tuple[np.ndarray, ...], shape: tuple[int, ...]) -> np.ndarray:
    full = [np.broadcast_to(i, shape) for i in idx]
    return np.ravel_multi_index(full, arr.shape).reshape(shape) if full else np.zeros(shape, np.int64)


def aliased_names(region: stream.RegionOp, st: RegionState, arr: np.ndarray) -> list[str]:
    """Names of the region's array arguments bound to ``arr`` when there are
    several (the static check sees distinct arguments as distinct arrays)."""
    names = [f"%{a.name_hint}" if a.name_hint else f"array #{i}" for i, a in enumerate(region.array_args) if st.values[a] is arr]
    return names if len(names) > 1 else []


def check_dependences(region, st: RegionState, arr: np.ndarray, reads, writes, aliased: list[str]) -> None:
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
        for wpos, widx, _, _, wshape, filt in writes:
            wids = st.write_ids(wshape).ravel()
            target = first_before if wpos < rpos else first_after
            wcells = _flat_cells(arr, widx, wshape).ravel()
            if filt is not None:
                wcells, wids = wcells[filt], wids[filt]
            np.minimum.at(target, wcells, wids)
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


def apply_writes(st: RegionState, arr: np.ndarray, writes, n_ops: int) -> None:
    """Sequential semantics of all stores and atomics on one array.

    Every write event has a key (iteration, then program order).  Per cell, the
    last store wins, and the atomics after it are folded on top; atomics before
    the last store are overwritten by it.
    """
    kinds = {w[3] for w in writes if w[3] != "store"}
    if len(kinds) > 1:
        from infs.passes.tensorize import atomic_lines

        ops = list(st.region.body.block.ops)
        lines = sorted({ops[w[0]] for w in writes if w[3] != "store"}, key=ops.index)
        raise EvaluationError(f"{region_label(st.region)} mixes atomic kinds {sorted(kinds)} on one array ({atomic_lines(lines)})")
    cells_l, keys_l, vals_l, is_store_l = [], [], [], []
    for pos, idx, val, kind, wshape, filt in writes:
        keep = slice(None) if filt is None else filt  # a filtered write: only where its filter holds
        cells_l.append(_flat_cells(arr, idx, wshape).ravel()[keep])
        keys_l.append((st.write_ids(wshape).ravel() * n_ops + pos)[keep])
        vals_l.append(np.broadcast_to(np.asarray(val, dtype=arr.dtype), wshape).ravel()[keep])
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
