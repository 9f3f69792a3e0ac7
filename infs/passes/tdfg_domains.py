"""Concrete domain inference for specialized ``tdfg.graph`` values.

Every tensor value's domain (a box; ``None`` for the infinite ``const``
tensors) follows from the node semantics in ``infs.dialects.tdfg``:
``cmp`` intersects, ``mv`` shifts, ``bc`` spans its copies, ``shrink``
restricts, ``reduce`` keeps its input's box, ``stream_reduce`` collapses the
reduced dims to their first coordinate.  The lattice is the non-negative
orthant, unbounded above (``LATTICE``, the ``tdfg`` docstring): data moved to
a negative coordinate is discarded, nothing else is.  With a smaller ``clip``
box (the physical lattice of a layout) cells outside it are dropped too:
``needed_boxes`` says which cells reach a side effect, and the physical
lattice (``lattice_extent``) covers all of them, so that dropping the others
changes nothing.

``GraphFacts`` gathers what the lowering reads off a graph that does not
depend on sizes (its arrays, node order, which arrays live in memory, the
dims it shifts/broadcasts/reduces); the JIT computes it once per graph.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, MemRefType
from xdsl.ir import Attribute, Operation, SSAValue

from infs.dialects import tdfg
from infs.dialects.element_types import ELEMENT_BITS
from infs.dialects.lattice import AccessMap, Affine, Domain, LatticeError
from infs.dialects.pimcmd_records import Box
from infs.dialects.pimcmd_records import element_name as record_element_name
from infs.passes.pim_program import LoweringError, box_intersect, box_shift, box_with

INF = 1 << 62  # bound of the infinite constant tensors' boxes


def lattice_cells(rank: int) -> Box:
    """Every cell of the tDFG lattice (``tdfg`` docstring): the non-negative
    orthant; the oracle discards moved data outside it, and nothing else."""
    return tuple((0, INF) for _ in range(rank))


def infinite_box(rank: int) -> Box:
    return tuple((-INF, INF) for _ in range(rank))


def is_infinite(b: Box) -> bool:
    """True when some dim is unbounded (a constant tensor, possibly shrunk along other dims)."""
    return any(p <= -INF or q >= INF for p, q in b)


def element_name(t: Attribute) -> str:
    name = record_element_name(t)
    if name not in ELEMENT_BITS:
        raise LoweringError(f"element type {name} has no in-memory representation")
    return name


def _int(a: Attribute) -> int:
    assert isinstance(a, IntegerAttr)
    return a.value.data


def array_rank(v: SSAValue) -> int:
    assert isinstance(v.type, MemRefType)
    return len(v.type.get_shape())


class Bindings:
    """Concrete values of a graph's affine attributes under symbol bindings.

    With an empty environment the graph must be specialized already; the JIT
    passes its sizes instead, which spares it a copy of the graph."""

    def __init__(self, env: Mapping[str, int] | None = None):
        self.env = dict(env or {})

    def value(self, e: Affine) -> int:
        try:
            return e.evaluate(self.env)
        except LatticeError as err:
            raise LoweringError(f"{err} (give it in sizes=...)") from None

    def box(self, d: Domain) -> Box:
        return tuple((self.value(p), self.value(q)) for p, q in d.bounds)

    def access_map(self, m: AccessMap) -> AccessMap:
        missing = m.symbols_used() - set(self.env)
        if missing:
            raise LoweringError(f"symbol '{sorted(missing)[0]}' is not bound (give it in sizes=...)")
        return m.substitute({n: self.env[n] for n in m.symbols_used()})


CONCRETE = Bindings()


@dataclass(frozen=True)
class GraphFacts:
    """Size-independent facts of one ``tdfg.graph`` that the lowering reads.

    The passes compute them afresh (a pass may have rewritten the graph); the
    JIT once per graph, which it treats as frozen once handed over (its
    memoization keys on the graph's identity anyway)."""

    ops: tuple[Operation, ...]  # body ops, terminator included
    args: tuple[SSAValue, ...]  # the array block arguments
    laid_out: tuple[int, ...]  # arrays read as tensors or stored to from memory
    order: tuple[Operation, ...]  # the lowering's node order (``schedule``)
    moved_dims: Mapping[str, frozenset[int]]  # "shift"/"broadcast"/"reduce" -> lattice dims
    nodes: int  # tDFG nodes (terminator excluded)
    symbols: frozenset[str]  # the index symbols (what sizes bind)

    @staticmethod
    def of(graph: tdfg.GraphOp) -> "GraphFacts":
        ops = tuple(graph.body.block.ops)
        args = graph.array_args
        return GraphFacts(
            ops=ops,
            args=args,
            laid_out=tuple(laid_out_arrays(ops, args)),
            order=tuple(schedule(ops)),
            moved_dims={k: frozenset(_hint_dims(graph, ops, k)) for k in ("shift", "broadcast", "reduce")},
            nodes=sum(1 for op in ops if not isinstance(op, tdfg.YieldOp)),
            symbols=graph.symbol_names(),
        )


def _hint_dims(graph: tdfg.GraphOp, ops, key: str) -> set[int]:
    if graph.hints is not None and key in graph.hints.data:
        v = graph.hints.data[key]
        if isinstance(v, DenseArrayBase):
            return {int(d) for d in v.get_values()}
    # no hint: read the movement off the graph itself
    kinds = {"shift": tdfg.MvOp, "broadcast": tdfg.BcOp, "reduce": tdfg.ReduceOp}
    return {op.dim.value.data for op in ops if isinstance(op, kinds[key])}


def schedule(ops) -> list:
    """A topological order that keeps few tensors live (§3.4).

    Each side-effecting node (store, stream_store, yield) is preceded by its
    operand trees, depth first, the larger subtree first (Sethi-Ullman), so a
    value is computed just before its first use; side effects keep their
    order.  Nodes no side effect depends on are dropped.
    """
    ops = list(ops)
    size: dict = {}

    def subtree(op) -> int:
        if op not in size:
            size[op] = 1 + sum(subtree(v.owner) for v in op.operands if v.owner in owners)
        return size[op]

    owners = set(ops)
    sinks = [op for op in ops if isinstance(op, (tdfg.StoreOp, tdfg.StreamStoreOp, tdfg.YieldOp))]
    return postorder(sinks, lambda op: [v.owner for v in op.operands if v.owner in owners], subtree)


def postorder(sinks, deps, subtree) -> list:
    """Every node reachable from ``sinks`` (through ``deps``), each after its
    dependences, the largest subtree (``subtree``) first -- the lowering's
    schedule, which optimize-tdfg's register count follows too."""
    order: list = []
    seen: set = set()
    for sink in sinks:
        stack = [(sink, False)]
        while stack:
            cur, expanded = stack.pop()
            if cur in seen:
                continue
            if expanded:
                seen.add(cur)
                order.append(cur)
                continue
            stack.append((cur, True))
            ds = [d for d in deps(cur) if d not in seen]
            ds.sort(key=subtree)  # popped last-in first-out: the largest subtree runs first
            stack.extend((d, False) for d in ds)
    return order


def infer_boxes(graph: tdfg.GraphOp, clip: Box | None = None, at: Bindings = CONCRETE, facts: GraphFacts | None = None) -> dict[SSAValue, Box]:
    """Box of every tensor value of a specialized graph (constants: unbounded dims)."""
    boxes: dict[SSAValue, Box] = {}
    rank = graph.lattice_rank

    def clipped(b: Box) -> Box:
        if clip is None:
            return b
        # bounded dims are clipped to the bounding box (an empty result keeps its
        # first coordinate: an empty fold's identity sits there); unbounded
        # ones (constants) stay
        return tuple((lo, max(lo, min(q, c1))) if -INF < p and q < INF else (p, q)
                     for (p, q), (c0, c1) in zip(b, clip) for lo in [max(p, c0)])  # fmt: skip

    for op in facts.ops if facts is not None else graph.body.block.ops:
        if isinstance(op, tdfg.TensorOp):
            boxes[op.result] = clipped(at.box(op.domain.data))
        elif isinstance(op, tdfg.ConstOp):
            boxes[op.result] = infinite_box(rank)
        elif isinstance(op, tdfg.CmpOp):
            out = infinite_box(rank)
            for v in op.inputs:
                out = box_intersect(out, boxes[v])
            boxes[op.result] = clipped(out)
        elif isinstance(op, tdfg.MvOp):
            b = boxes[op.input]
            d = _int(op.dim)
            if b[d][0] <= -INF or b[d][1] >= INF:
                boxes[op.result] = b  # unbounded along the move: the same constant
            else:
                boxes[op.result] = clipped(box_shift(b, d, at.value(op.dist.data)))
        elif isinstance(op, tdfg.BcOp):
            b = boxes[op.input]
            if b[_int(op.dim)][0] <= -INF or b[_int(op.dim)][1] >= INF:
                boxes[op.result] = b
            else:
                d = _int(op.dim)
                p, q = b[d]
                dist, count = at.value(op.dist.data), at.value(op.count.data)
                boxes[op.result] = clipped(box_with(b, d, p + dist, p + dist + count * (q - p)))
        elif isinstance(op, tdfg.ShrinkOp):
            b = boxes[op.input]
            d = _int(op.dim)
            ((lo, hi),) = at.box(op.range.data)
            p, q = b[d]
            boxes[op.result] = box_with(b, d, max(p, lo), min(q, hi))
        elif isinstance(op, tdfg.ReduceOp):
            boxes[op.result] = boxes[op.input]
        elif isinstance(op, tdfg.StreamLoadOp):
            boxes[op.result] = clipped(at.box(op.domain.data))
        elif isinstance(op, tdfg.StreamReduceOp):
            b = boxes[op.input]
            if is_infinite(b):
                raise LoweringError("'tdfg.stream_reduce' of an unbounded constant tensor")
            if isinstance(op.result.type, tdfg.TensorType):
                boxes[op.result] = clipped(collapse(b, op.dims_list()))
    return boxes


def _hull(a: Box, b: Box) -> Box:
    return tuple((min(p0, p1), max(q0, q1)) for (p0, q0), (p1, q1) in zip(a, b))


def needed_boxes(graph: tdfg.GraphOp, at: Bindings = CONCRETE, facts: GraphFacts | None = None,
                 shapes: Mapping[int, tuple[int, ...]] | None = None) -> dict[SSAValue, Box]:  # fmt: skip
    """For each tensor value, the bounding box of its cells that can reach a
    side effect (``store``, ``stream_store``, ``stream_reduce``; a scalar
    result is a ``stream_reduce``): the cells a physical lattice must hold so
    that the graph computes what the lattice semantics computes.

    Backwards over the lowering's node order from the side effects: a ``store``
    needs its value's cells inside the array (the whole value where the
    array's shape is unknown: ``shapes`` gives those known), a ``stream_store``
    or a ``stream_reduce`` all of its input's cells (and a ``stream_load`` or
    ``stream_store`` its index tensors over its domain); a ``cmp``/``shrink``
    needs its inputs on the cells needed of it, a ``mv`` the cells it moves
    there.  A ``bc`` or a ``reduce`` needs its input's whole extent along its
    dim (the copies' width, the reduce's groups), a ``stream_reduce`` with a
    tensor result its input's whole extent along the folded dims.  Values
    without needed cells are absent."""
    facts = facts or GraphFacts.of(graph)
    boxes = infer_boxes(graph, clip=lattice_cells(graph.lattice_rank), at=at, facts=facts)
    rank = graph.lattice_rank
    need: dict[SSAValue, Box] = {}

    def add(v: SSAValue, b: Box) -> None:
        own = boxes.get(v)
        if own is None or is_infinite(own):
            return  # a scalar, or a constant: it needs no cells of its own
        b = box_intersect(b, own)
        if all(q <= p for p, q in b):
            return
        # a box empty along some dim has no cells, but its other ranges reach
        # the side effect through an empty fold's identities (a reduce over an
        # empty K still stores M x N zeros): the lattice must hold them too
        need[v] = _hull(need[v], b) if v in need else b

    args = list(facts.args)
    for op in reversed(facts.order):
        out = need.get(op.results[0]) if op.results else None
        if isinstance(op, tdfg.StoreOp):
            shape = (shapes or {}).get(args.index(op.array))
            own = boxes.get(op.value)
            if own is not None:
                add(op.value, own if shape is None else tuple([(0, 1)] * (rank - len(shape)) + [(0, s) for s in shape]))
        elif isinstance(op, tdfg.StreamStoreOp):
            own = boxes[op.value]
            add(op.value, own)
            for v in op.indices:
                add(v, own)
        elif isinstance(op, tdfg.StreamLoadOp):
            for v in op.indices:
                add(v, boxes[op.result])
        elif isinstance(op, tdfg.StreamReduceOp):
            b = boxes[op.input]
            if not isinstance(op.result.type, tdfg.TensorType):
                add(op.input, b)
            elif out is not None:
                for d in op.dims_list():
                    out = box_with(out, d, *b[d])
                add(op.input, out)
        elif out is None:
            continue
        elif isinstance(op, (tdfg.CmpOp, tdfg.ShrinkOp)):
            for v in op.operands:
                add(v, out)
        elif isinstance(op, tdfg.MvOp):
            add(op.input, box_shift(out, _int(op.dim), -at.value(op.dist.data)))
        elif isinstance(op, (tdfg.BcOp, tdfg.ReduceOp)):
            d = _int(op.dim)
            add(op.input, box_with(out, d, *boxes[op.input][d]))
    return need


def lattice_extent(graph: tdfg.GraphOp, laid_out: Mapping[int, tuple[int, ...]], shapes: Mapping[int, tuple[int, ...]],
                   at: Bindings = CONCRETE, facts: GraphFacts | None = None) -> list[int]:  # fmt: skip
    """The physical lattice of a graph (the extent of each dim from the origin):
    the laid-out arrays (``laid_out``: index -> shape), the tensors its
    embedded load streams lay out (§3.3), and every cell that reaches a side
    effect (``needed_boxes``; ``shapes``: every array shape known).  Cells
    outside it are dropped by the lowering; none of them is needed, so the
    lowering computes what the lattice semantics computes (``tdfg``
    docstring).  An iteration domain larger than every array (a fixed-index
    load broadcast over it, a store through a reversed map) grows it."""
    facts = facts or GraphFacts.of(graph)
    rank = graph.lattice_rank
    ext = [1] * rank
    for shape in laid_out.values():
        for j, s in enumerate(shape):
            d = rank - len(shape) + j
            ext[d] = max(ext[d], s)
    cells = lattice_cells(rank)
    streamed = [box_intersect(at.box(op.domain.data), cells) for op in facts.ops if isinstance(op, tdfg.StreamLoadOp)]
    for b in [*streamed, *needed_boxes(graph, at, facts, shapes).values()]:
        for d, (p, q) in enumerate(b):
            if q > p:  # an empty range lays nothing out along its dim (the others may: an empty fold's identities)
                ext[d] = max(ext[d], q)
    return ext


def collapse(b: Box, dims) -> Box:
    """A stream_reduce's tensor box: each reduced dim collapses to its first
    coordinate (tdfg semantics, ``lattice_eval``).  An empty reduced range
    folds to the identity, as the stream reference does for each kept cell;
    the result is empty only where a kept dim is."""
    for d in dims:
        p, _ = b[d]
        b = box_with(b, d, p, p + 1)
    return b


def laid_out_arrays(ops, arg_tuple) -> list[int]:
    """Indices of the graph's arrays that live in memory (read as tensors or stored to)."""
    args = list(arg_tuple)
    used = set()
    for op in ops:
        if isinstance(op, tdfg.TensorOp):
            used.add(args.index(op.array))
        elif isinstance(op, tdfg.StoreOp) and not isinstance(op.value.owner, (tdfg.StreamReduceOp, tdfg.StreamLoadOp)):
            used.add(args.index(op.array))  # results computed near memory are stored near memory
    return sorted(used)


def array_shapes(graph: tdfg.GraphOp, known: dict[int, tuple[int, ...]] | None = None, at: Bindings = CONCRETE,
                 facts: GraphFacts | None = None) -> dict[int, tuple[int, ...]]:  # fmt: skip
    """Shape of each laid-out array: given, static, or the origin-anchored hull of what the graph touches."""
    facts = facts or GraphFacts.of(graph)
    args, laid = facts.args, facts.laid_out
    # the boxes are only needed for arrays whose shape nobody gave
    boxes = infer_boxes(graph, at=at, facts=facts) if not known or any(i not in known for i in laid) else {}
    rank = graph.lattice_rank
    out: dict[int, tuple[int, ...]] = {}
    for i in laid:
        a = args[i]
        r = array_rank(a)
        if known and i in known:
            out[i] = tuple(known[i])
            continue
        mt = a.type
        assert isinstance(mt, MemRefType)
        static = mt.get_shape()
        extent = [0] * r
        for op in facts.ops:
            b = None
            if isinstance(op, tdfg.TensorOp) and op.array is a:
                b = at.box(op.domain.data)
            elif isinstance(op, tdfg.StoreOp) and op.array is a and not is_infinite(boxes[op.value]):
                b = boxes[op.value]
            if b is not None:
                for j in range(r):
                    p, q = b[rank - r + j]
                    if q > p:  # an empty range ([2:M] with M = 1) says nothing of the extent
                        extent[j] = max(extent[j], q)
        out[i] = tuple(s if s >= 0 else e for s, e in zip(static, extent))
    return out
