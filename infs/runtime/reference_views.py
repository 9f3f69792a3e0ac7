"""The reference evaluator's view path: affine accesses as strided numpy views.

Takes a ``stream.region`` and its ``RegionState``; gives the region's scalar
results, with the arrays written in place, bit-identical to the general path
(``reference_grids``): loads read through strided views, stores and atomics
write through them where their order allows, index grids remain for indirect
accesses and the writes views cannot order; elementwise computes run in
chunks of the domain when only stores use them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith
from xdsl.ir import SSAValue

from infs.dialects import stream
from infs.dialects.lattice import AccessMap, dim_index
from infs.element_types import elementwise_max, elementwise_min, signed_atomic_ufunc
from infs.runtime.reference_grids import (
    RegionState,
    access_grids,
    aliased_names,
    apply_writes,
    check_dependences,
    eval_chase,
    eval_compute,
    eval_reduce,
    grid_writes,
)
from infs.runtime.scalar_ops import EvaluationError, eval_scalar_op


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

    def __init__(self, region: stream.RegionOp, st: RegionState):
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
                out = eval_compute(owner, st, lambda x: self.grid_value(x, memo))
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


def evaluate_views(region: stream.RegionOp, st: RegionState) -> list[np.ndarray]:
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
        elif isinstance(op, stream.ChaseOp):
            vs.grid[op.result] = (st.shape, st.shape)
            st.values[op.result] = eval_chase(op, st)
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
            check_dependences(region, st, arr, [(p, g if g is not None else access_grids(st, o, arr)) for p, o, g, _ in rs], grid_writes(st, arr, ws), aliased_names(region, st, arr))
        if not _apply_view_writes(st, arr, ws):
            apply_writes(st, arr, grid_writes(st, arr, ws), len(ops))
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


def _chunk_plan(ops: list, st: RegionState) -> tuple[int, list[tuple[int, int]]] | None:
    """(axis, [start, stop) ranges) to evaluate the region's computes in, or
    None to evaluate them whole: when they hold at most one intermediate of the
    domain's size (nothing to save), or some op needs whole values (a
    reduction, a result, an indirect access's index values, a pointer chase's
    chains), or a compute has
    an op that can fail on some points (integer division: which error a run
    reports must not depend on the chunks)."""
    if st.size < 2 * CHUNK_POINTS:
        return None
    work = 0
    for op in ops:
        if isinstance(op, (stream.ReduceOp, stream.ChaseOp)) or (isinstance(op, stream.YieldOp) and op.values):
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


def _evaluate_chunks(ops: list, st: RegionState, dead: dict[int, list[SSAValue]], chunks: tuple[int, list[tuple[int, int]]],
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


def _eval_compute_compact(op: stream.ComputeOp, st: RegionState, values: dict[SSAValue, np.ndarray] | None = None) -> np.ndarray:
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


def _reduce_views(op: stream.ReduceOp, st: RegionState, vs: _ViewState) -> np.ndarray:
    """A reduction on the view path.  Integer kinds (wrapping add/mul, min,
    max) and argmin/argmax give the same result in any order: they reduce the
    compact value.  A float add/mul/min/max reduces the grid path's very array
    (see the section comment), so its result is bit-identical."""
    kind = op.kind.data
    v = st.values[op.input]
    if kind in ("argmin", "argmax") or not _is_float(v.dtype):
        r = eval_reduce(op, st, v)
        lay = vs.layout(op.input)
        dims = op.dims_list()
        vs.grid[op.result] = None if lay is None else ((shape := tuple(1 if d in dims else n for d, n in enumerate(lay[0]))), shape)
        return r
    r = eval_reduce(op, st, vs.grid_value(op.input, {}))
    vs.grid[op.result] = (r.shape, r.shape)
    return r


def _independent(st: RegionState, reads, writes) -> bool:
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


def _apply_view_writes(st: RegionState, arr: np.ndarray, writes) -> bool:
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
