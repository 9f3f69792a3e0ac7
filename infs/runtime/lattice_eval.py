"""Lattice semantics of ``tdfg.graph``: the numpy oracle for the tensor dataflow graph.

``evaluate_graph(graph, arrays, scalars)`` runs one graph on numpy arrays
(updated in place by ``store``/``stream_store``) and returns its scalar
results.  It implements the semantics of the ``infs.dialects.tdfg`` docstring:

* a tensor value is a concrete box on the rank-R lattice plus its values
  (``LTensor``); a dim may be *unbounded* (``const`` is an infinite tensor:
  every dim unbounded, values broadcast);
* a rank-r array occupies the last r lattice dims, the leading ones at
  coordinate 0; ``tensor`` takes its cells in the node's domain;
* ``cmp`` works on the intersection of its inputs' boxes; ``mv``/``bc`` move
  or replicate a tensor and then discard every cell at a negative coordinate
  (the lattice is the non-negative orthant, unbounded above; §3.2's global
  bounding hyperrectangle is the physical lattice, which holds every cell
  that matters: ``tdfg_domains.lattice_extent``);
* ``reduce`` folds each group of consecutive cells along ``dim`` into the
  group's first cell and leaves the kind's identity in the other cells, so
  that the ``reduce`` + ``stream_reduce`` pair does not depend on the group
  size.  Groups are lattice-aligned runs of ``group_size`` cells (the tile
  size, chosen at lowering); by default one group spans the whole extent;
* ``stream_reduce`` folds along its dims: a scalar when it folds every dim,
  else a tensor whose folded dims collapse to their first coordinate (an
  empty range folds to the kind's identity);
* ``stream_load``/``stream_store`` are embedded streams: per cell of the
  domain (of the stored tensor) an affine / indirect access; a ``store``
  stream writes in lattice (C) order, the last write to a cell wins, the
  other kinds combine atomically;
* ops run in program order; ``store`` writes a tensor's cells that lie in its
  array back to the array.

Everything is vectorized (no per-element Python loops).

Host functions whose regions have been tensorized run with ``run_function``
(the host runner of ``infs.runtime.host`` plus an interpreter implementation
of ``tdfg.graph``); ``lattice_executor`` is a region executor for
``infs.runtime.host.run_function`` that tensorizes each ``stream.region`` on
the fly and evaluates the graph (outer dims that do not fit the lattice run
as host loops around the graph, as the pass emits them; regions that stay
streams use the stream reference).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import FileLineColLoc, FloatAttr, IndexType, IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import SSAValue

from infs.dialects import stream, tdfg
from infs.element_types import REDUCE_UFUNCS, EvaluationError, zero_of_kind, float_fold, float_fold_at, numpy_dtype, reduce_identity, reduce_ufunc
from infs.dialects.lattice import AccessMap, LatticeError
from infs.passes.tdfg_domains import lattice_cells
from infs.passes.tdfg_semantics import TdfgSemanticsError, apply_cmp
from infs.runtime import host
from infs.runtime.reference import evaluate_region
from infs.runtime.scalar_ops import op_label

Box = tuple[tuple[int, int] | None, ...]
GroupSize = int | Mapping[int, int] | None


@dataclass
class LTensor:
    """A tensor on the lattice: ``box[d]`` is ``(lo, hi)`` or ``None`` (unbounded);
    ``values`` has the box's extents (1 along unbounded dims, broadcast)."""

    box: Box
    values: np.ndarray

    @property
    def rank(self) -> int:
        return len(self.box)

    def bounded(self) -> bool:
        return all(b is not None for b in self.box)

    def is_empty(self) -> bool:
        return any(b is not None and b[1] <= b[0] for b in self.box)

    def concrete_box(self) -> tuple[tuple[int, int], ...]:
        if not self.bounded():
            raise EvaluationError("tensor has an unbounded domain where a bounded one is needed")
        return tuple(self.box)  # type: ignore[arg-type]

    def extract(self, box: Box) -> np.ndarray:
        """Values on ``box`` (which lies inside this tensor's box)."""
        sl = []
        shape = []
        for b, mine in zip(box, self.box):
            if b is None:
                sl.append(slice(None))
                shape.append(1)
            elif mine is None:
                sl.append(slice(None))
                shape.append(max(0, b[1] - b[0]))
            else:
                lo, hi = b
                if hi > lo and (lo < mine[0] or hi > mine[1]):
                    raise EvaluationError(f"box {box} is not inside {self.box}")
                sl.append(slice(lo - mine[0], max(lo, hi) - mine[0]))
                shape.append(max(0, hi - lo))
        v = self.values[tuple(sl)]
        return np.broadcast_to(v, tuple(shape))

    def __repr__(self) -> str:
        return f"LTensor(box={self.box}, values={self.values!r})"


def intersect_boxes(boxes: Sequence[Box]) -> Box:
    out: list[tuple[int, int] | None] = []
    for per_dim in zip(*boxes):
        bounded = [b for b in per_dim if b is not None]
        if not bounded:
            out.append(None)
        else:
            lo = max(b[0] for b in bounded)
            hi = min(b[1] for b in bounded)
            out.append((lo, max(lo, hi)))
    return tuple(out)


def _clip(t: LTensor, cells: tuple[tuple[int, int], ...]) -> LTensor:
    """Discard cells outside the lattice's ``cells`` (at a negative coordinate)."""
    box = []
    sl = []
    for b, (hlo, hhi) in zip(t.box, cells):
        if b is None:
            box.append(None)
            sl.append(slice(None))
            continue
        lo, hi = max(b[0], hlo), min(b[1], hhi)
        hi = max(lo, hi)
        box.append((lo, hi))
        sl.append(slice(lo - b[0], hi - b[0]))
    return LTensor(tuple(box), t.values[tuple(sl)])


def _grids(box: tuple[tuple[int, int], ...]) -> list[np.ndarray]:
    r = len(box)
    return [np.arange(lo, max(lo, hi), dtype=np.int64).reshape([max(0, hi - lo) if j == i else 1 for j in range(r)]) for i, (lo, hi) in enumerate(box)]


def _array_box(arr: np.ndarray, rank: int) -> tuple[tuple[int, int], ...]:
    lead = rank - arr.ndim
    return tuple([(0, 1)] * lead + [(0, s) for s in arr.shape])


def _group_size_for(group_size: GroupSize, dim: int) -> int | None:
    if group_size is None:
        return None
    if isinstance(group_size, Mapping):
        g = group_size.get(dim)
    else:
        g = group_size
    if g is not None and int(g) < 1:
        raise EvaluationError(f"reduce group size must be >= 1, got {g}")
    return None if g is None else int(g)


class _GraphState:
    def __init__(self, graph: tdfg.GraphOp, arrays: Sequence[np.ndarray], scalars: Sequence[Any]):
        if len(arrays) != len(graph.arrays) or len(scalars) != len(graph.scalars):
            raise EvaluationError(
                f"tdfg.graph takes {len(graph.arrays)} arrays and {len(graph.scalars)} scalars, got {len(arrays)} and {len(scalars)}"
            )
        self.rank = graph.lattice_rank
        self.env: dict[str, int] = {}
        self.arrays: dict[SSAValue, np.ndarray] = {}
        self.scalars: dict[SSAValue, Any] = {}
        for arg, arr, operand in zip(graph.array_args, arrays, graph.arrays):
            assert isinstance(operand.type, MemRefType)
            want = numpy_dtype(operand.type.element_type)
            if not isinstance(arr, np.ndarray) or arr.dtype != want:
                raise EvaluationError(f"array argument must be a numpy array of {want}, got {getattr(arr, 'dtype', type(arr).__name__)}")
            if arr.ndim != len(operand.type.get_shape()):
                raise EvaluationError(f"array argument of rank {arr.ndim} passed for {operand.type}")
            self.arrays[arg] = arr
        for name, arg, val in zip(graph.names, graph.scalar_args, scalars):
            self.scalars[arg] = val
            if isinstance(arg.type, IndexType):
                self.env[name] = int(val)
        # The lattice (tdfg docstring): the non-negative orthant, unbounded
        # above; moved data at a negative coordinate is discarded.  (A hull of
        # the arrays would drop iterations of a domain larger than every array.)
        self.cells: tuple[tuple[int, int], ...] = lattice_cells(self.rank)
        self.values: dict[SSAValue, Any] = {}

    def ev(self, expr) -> int:
        try:
            return expr.evaluate(self.env)
        except LatticeError as e:
            raise EvaluationError(str(e)) from None

    def box_of(self, dom) -> tuple[tuple[int, int], ...]:
        try:
            return tuple((p, max(p, q)) for p, q in dom.evaluate(self.env))
        except LatticeError as e:
            raise EvaluationError(str(e)) from None

    def tensor(self, v: SSAValue) -> LTensor:
        t = self.values[v]
        if not isinstance(t, LTensor):
            raise EvaluationError(f"expected a tensor value, got {t!r}")
        return t

    def access_indices(self, op, amap: AccessMap, pos: Sequence[int], indices: Sequence[SSAValue], box, arr: np.ndarray) -> tuple[np.ndarray, ...]:
        shape = tuple(hi - lo for lo, hi in box)
        try:
            idx = list(amap.apply(_grids(box), self.env))
        except LatticeError as e:
            raise EvaluationError(f"{op_label(op)}: {e}") from None
        for p, v in zip(pos, indices):
            it = self.tensor(v)
            inter = intersect_boxes([it.box, box])
            if any(a is None or a != b for a, b in zip(inter, box)) and int(np.prod(shape)):
                raise EvaluationError(f"'{op.name}' index tensor with domain {it.box} does not cover {box}")
            idx[p] = it.extract(box).astype(np.int64)
        idx = [np.broadcast_to(i, shape) for i in idx]
        if int(np.prod(shape)):
            for d, i in enumerate(idx):
                lo, hi = int(i.min()), int(i.max())
                if lo < 0 or hi >= arr.shape[d]:
                    bad = lo if lo < 0 else hi
                    raise EvaluationError(f"{op_label(op)} accesses index {bad} in dim {d} of an array of shape {list(arr.shape)}")
        return tuple(idx)


def evaluate_graph(graph: tdfg.GraphOp, arrays: Sequence[np.ndarray], scalars: Sequence[Any], group_size: GroupSize = None) -> list[Any]:
    """Run ``graph`` in place on ``arrays``; return its (scalar) results.

    ``group_size`` is the number of consecutive cells one ``tdfg.reduce``
    folds (an int for every dim, or a ``{dim: size}`` mapping); ``None`` (the
    default) folds the whole extent at once.
    """
    st = _GraphState(graph, arrays, scalars)
    op = None
    try:
        for op in graph.body.block.ops:
            if isinstance(op, tdfg.YieldOp):
                return [st.values[v] for v in op.values]
            _eval_op(op, st, group_size)
    except TdfgSemanticsError as e:
        loc = getattr(op, "location", None)  # the op's source line, as the reference names its op's
        raise EvaluationError(f"{e} at line {loc.line.data}" if isinstance(loc, FileLineColLoc) else str(e)) from None
    except MemoryError as e:
        # a tensor the sizes make larger than the host (a bc count of 1e11): numpy
        # refuses the allocation up front; one line naming the op
        raise EvaluationError(f"'{op.name if op else 'tdfg.graph'}': the lattice evaluator cannot hold its tensor on this host ({str(e).splitlines()[0]})") from None
    raise EvaluationError("tdfg.graph body has no tdfg.yield")


def _eval_op(op, st: _GraphState, group_size: GroupSize) -> None:
    R = st.rank
    if isinstance(op, tdfg.TensorOp):
        arr = st.arrays[op.array]
        box = st.box_of(op.domain.data)
        abox = _array_box(arr, R)
        empty = any(hi <= lo for lo, hi in box)  # an empty tensor reads nothing
        for d, ((lo, hi), (alo, ahi)) in enumerate(zip(box, abox)):
            if not empty and (lo < alo or hi > ahi):
                raise EvaluationError(f"'tdfg.tensor' domain {list(box)} leaves the array (shape {list(arr.shape)}) in lattice dim {d}")
        shape = tuple(hi - lo for lo, hi in box)
        lead = R - arr.ndim
        if any(s == 0 for s in shape):
            vals = np.zeros(shape, arr.dtype)
        else:
            vals = np.array(arr[tuple(slice(lo, hi) for lo, hi in box[lead:])]).reshape(shape)
        st.values[op.result] = LTensor(box, vals)
    elif isinstance(op, tdfg.CmpOp):
        ins = [st.tensor(v) for v in op.inputs]
        box = intersect_boxes([t.box for t in ins])
        dtype = numpy_dtype(op.result.type.element_type)
        vals = apply_cmp(op.op.data, [t.extract(box) for t in ins], dtype)
        shape = tuple(1 if b is None else b[1] - b[0] for b in box)
        st.values[op.result] = LTensor(box, np.broadcast_to(vals, shape))
    elif isinstance(op, tdfg.MvOp):
        t = st.tensor(op.input)
        d = op.dim.value.data
        k = st.ev(op.dist.data)
        box = list(t.box)
        if box[d] is not None:
            lo, hi = box[d]
            box[d] = (lo + k, hi + k)
        st.values[op.result] = _clip(LTensor(tuple(box), t.values), st.cells)
    elif isinstance(op, tdfg.BcOp):
        t = st.tensor(op.input)
        d = op.dim.value.data
        k = st.ev(op.dist.data)
        c = max(0, st.ev(op.count.data))
        box = list(t.box)
        if box[d] is None:
            st.values[op.result] = t  # copies of an unbounded tensor cover the same cells
            return
        lo, hi = box[d]
        w = hi - lo
        reps = [1] * R
        reps[d] = c
        vals = np.tile(t.values, reps)
        box[d] = (lo + k, lo + k + c * w)
        st.values[op.result] = _clip(LTensor(tuple(box), vals), st.cells)
    elif isinstance(op, tdfg.ConstOp):
        dtype = numpy_dtype(op.result.type.element_type)
        if op.scalar is not None:
            raw = st.scalars[op.scalar]
        else:
            v = op.value
            assert isinstance(v, (FloatAttr, IntegerAttr))
            raw = v.value.data
        val = np.asarray(raw).astype(dtype)
        st.values[op.result] = LTensor((None,) * R, val.reshape((1,) * R))
    elif isinstance(op, tdfg.ShrinkOp):
        t = st.tensor(op.input)
        d = op.dim.value.data
        ((p, q),) = st.box_of(op.range.data)
        box = list(t.box)
        if box[d] is None:
            box[d] = (p, q)
        else:
            lo = max(box[d][0], p)
            box[d] = (lo, max(lo, min(box[d][1], q)))
        box_t = tuple(box)
        vals = t.extract(box_t)
        shape = tuple(1 if b is None else b[1] - b[0] for b in box_t)
        st.values[op.result] = LTensor(box_t, np.broadcast_to(vals, shape))
    elif isinstance(op, tdfg.ReduceOp):
        st.values[op.result] = _partial_reduce(st.tensor(op.input), op.kind.data, op.dim.value.data, _group_size_for(group_size, op.dim.value.data))
    elif isinstance(op, tdfg.StreamReduceOp):
        st.values[op.result] = _stream_reduce(st.tensor(op.input), op.kind.data, op.dims_list())
    elif isinstance(op, tdfg.StreamLoadOp):
        arr = st.arrays[op.array]
        box = st.box_of(op.domain.data)
        idx = st.access_indices(op, op.map.data, tuple(op.indirect_dims.get_values()), op.indices, box, arr)
        shape = tuple(hi - lo for lo, hi in box)
        vals = arr[idx] if int(np.prod(shape)) else np.zeros(shape, arr.dtype)
        st.values[op.result] = _clip(LTensor(box, np.asarray(vals)), st.cells)
    elif isinstance(op, tdfg.StreamStoreOp):
        t = st.tensor(op.value)
        arr = st.arrays[op.array]
        box = t.concrete_box()
        if t.is_empty():
            return
        idx = st.access_indices(op, op.map.data, tuple(op.indirect_dims.get_values()), op.indices, box, arr)
        vals = np.broadcast_to(t.values, tuple(hi - lo for lo, hi in box)).astype(arr.dtype).ravel()
        cells = np.ravel_multi_index(tuple(i.ravel() for i in idx), arr.shape)
        flat = arr.reshape(-1)
        kind = op.kind.data
        if kind == "store":
            # last write (in lattice C order) wins
            rev = cells[::-1]
            uniq, first = np.unique(rev, return_index=True)
            flat[uniq] = vals[::-1][first]
        else:
            ufunc = reduce_ufunc(kind, arr.dtype)  # the machine's i1 add is xor
            with np.errstate(over="ignore"):
                float_fold_at(kind, flat, cells, vals, ufunc)
    elif isinstance(op, tdfg.StoreOp):
        t = st.tensor(op.value)
        arr = st.arrays[op.array]
        abox = _array_box(arr, R)
        box = intersect_boxes([t.box, abox])
        assert all(b is not None for b in box)
        if any(b[1] <= b[0] for b in box):  # type: ignore[index]
            return
        vals = t.extract(box)
        lead = R - arr.ndim
        arr[tuple(slice(lo, hi) for lo, hi in box[lead:])] = vals.reshape(vals.shape[lead:])  # type: ignore[misc]
    else:
        raise EvaluationError(f"'{op.name}' is not a tdfg node the lattice evaluator knows")


def _partial_reduce(t: LTensor, kind: str, d: int, group: int | None) -> LTensor:
    if t.box[d] is None:
        raise EvaluationError("'tdfg.reduce' of a tensor that is unbounded along its dim")
    lo, hi = t.box[d]  # type: ignore[misc]
    n = hi - lo
    vals = t.values
    if vals.shape[d] != n:
        vals = np.broadcast_to(vals, tuple(n if i == d else s for i, s in enumerate(vals.shape)))
    ufunc = reduce_ufunc(kind, vals.dtype)
    out = np.empty(vals.shape, vals.dtype)
    out[...] = reduce_identity(kind, vals.dtype)
    if n == 0:
        return LTensor(t.box, out)
    if group is None:
        starts = np.array([0])
    else:
        pos = np.arange(lo, hi)
        gid = np.floor_divide(pos, group)
        starts = np.flatnonzero(np.r_[True, gid[1:] != gid[:-1]])
    with np.errstate(over="ignore", invalid="ignore"):
        partial = ufunc.reduceat(vals, starts, axis=d)
    if kind in ("min", "max") and vals.dtype.kind == "f":  # -0.0 < +0.0, in any order (float_fold)
        hit = np.logical_or.reduceat(zero_of_kind(kind, vals), starts, axis=d)
        partial = np.where((partial == 0) & hit, vals.dtype.type(-0.0 if kind == "min" else 0.0), partial)
    index = [slice(None)] * vals.ndim
    index[d] = starts
    out[tuple(index)] = partial
    return LTensor(t.box, out)


def _stream_reduce(t: LTensor, kind: str, dims: Sequence[int]) -> Any:
    for d in dims:
        if t.box[d] is None:
            raise EvaluationError("'tdfg.stream_reduce' over a dim along which the tensor is unbounded")
    shape = tuple(1 if b is None else b[1] - b[0] for b in t.box)
    vals = np.broadcast_to(t.values, shape)
    ufunc = reduce_ufunc(kind, vals.dtype)
    ident = reduce_identity(kind, vals.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        if ufunc is REDUCE_UFUNCS[kind]:
            r = float_fold(kind, vals, tuple(dims), True, ident)  # float min/max: -0.0 < +0.0
        else:
            r = ufunc.reduce(vals, axis=tuple(dims), keepdims=True, dtype=vals.dtype, initial=ident)
    if len(dims) == t.rank:
        return np.asarray(r, vals.dtype).reshape(())
    # each folded dim collapses to its first coordinate; an empty range folds
    # to the identity (as a stream.reduce over no iteration, per kept cell)
    box = list(t.box)
    for d in dims:
        lo, _ = box[d]  # type: ignore[misc]
        box[d] = (lo, lo + 1)
    return LTensor(tuple(box), r)


# ---------------------------------------------------------------------------
# Host integration
# ---------------------------------------------------------------------------


def run_function(
    module: ModuleOp,
    args: Mapping[str, Any] | Sequence[Any],
    name: str | None = None,
    executor: host.RegionExecutor | None = None,
    group_size: GroupSize = None,
) -> tuple[Any, ...]:
    """``infs.runtime.host.run_function`` for modules holding ``tdfg.graph`` ops
    (evaluated with the lattice semantics); remaining ``stream.region`` ops run
    through ``executor`` (default: the stream reference)."""

    def run_graph(graph: tdfg.GraphOp, arrays: list[np.ndarray], scalars: list[Any]) -> list[Any]:
        return evaluate_graph(graph, arrays, scalars, group_size)

    return host.run_function(module, args, name, executor, graph_executor=run_graph)


def lattice_executor(group_size: GroupSize = None) -> host.RegionExecutor:
    """A region executor for ``infs.runtime.host.run_function``: tensorizes each
    ``stream.region`` (the ``tensorize`` pass on one region) and evaluates the
    graph on the lattice; a region that cannot be tensorized runs with the
    stream reference."""
    from infs.passes.tensorize import compile_region, host_loop_points

    def run(region: stream.RegionOp, arrays: list[np.ndarray], scalars: list[Any]) -> list[Any]:
        comp = compile_region(region)
        try:
            if comp.graph is None:
                return evaluate_region(region, arrays, scalars)
            if not comp.peel:
                return evaluate_graph(comp.graph, arrays, scalars, group_size)
            try:  # the outer dims are host loops around the graph of the rest
                for point in itertools.product(*host_loop_points(comp, region, scalars)[0]):
                    evaluate_graph(comp.graph, arrays, [*scalars, *point], group_size)
            except LatticeError as e:
                raise EvaluationError(str(e)) from None
            return []
        finally:
            comp.release()

    return run
