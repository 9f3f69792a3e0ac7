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

from collections.abc import Container, Mapping
from dataclasses import dataclass
from functools import lru_cache

from infs.dialects.lattice_values import AccessMap, Affine, Domain, LatticeError
from infs.dialects.pimcmd_records import Box, box_intersect, box_shift, box_with
from infs.dialects.tdfg_records import BC, CMP, CONST, MV, REDUCE, SHRINK, SINKS, STORE, STREAM_LOAD, STREAM_REDUCE, STREAM_STORE, TENSOR
from infs.dialects.pimcmd_records import ArrayType
from infs.dialects.tdfg_records import GraphRecord, Node
from infs.element_types import ELEMENT_BITS
from infs.passes.lowering_errors import LoweringError

INF = 1 << 62  # bound of the infinite constant tensors' boxes


def box_of_shape(shape: tuple[int, ...], rank: int) -> Box:
    """An array's cells in the lattice (a rank-r array sits in the trailing dims)."""
    return ((0, 1),) * (rank - len(shape)) + tuple([(0, s) for s in shape])


def lattice_cells(rank: int) -> Box:
    """Every cell of the tDFG lattice (``tdfg`` docstring): the non-negative
    orthant; the oracle discards moved data outside it, and nothing else."""
    return ((0, INF),) * rank


def is_infinite(b: Box) -> bool:
    """True when some dim is unbounded (a constant tensor, possibly shrunk along other dims)."""
    return any(p <= -INF or q >= INF for p, q in b)


def element_name(t: ArrayType | str) -> str:
    """The element name of an array type (or a type name), if the machine holds it."""
    return checked_element(t.element_type if isinstance(t, ArrayType) else t)


def checked_element(name: str) -> str:
    """``name`` (an element type's), if it has an in-memory representation."""
    if name not in ELEMENT_BITS:
        raise LoweringError(f"element type {name} has no in-memory representation")
    return name


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
        env = self.env
        try:
            return tuple([(p.evaluate(env), q.evaluate(env)) for p, q in d.bounds])
        except LatticeError as err:
            raise LoweringError(f"{err} (give it in sizes=...)") from None

    def access_map(self, m: AccessMap) -> AccessMap:
        used = _map_symbols(m)
        missing = used - set(self.env)
        if missing:
            raise LoweringError(f"symbol '{sorted(missing)[0]}' is not bound (give it in sizes=...)")
        if not used:
            return m  # substituting nothing gives an equal map
        return m.substitute({n: self.env[n] for n in used})


@lru_cache(maxsize=4096)
def _map_symbols(m: AccessMap) -> frozenset[str]:
    """The symbols of a map (size-independent; maps are immutable)."""
    return m.symbols_used()


CONCRETE = Bindings()


@dataclass(frozen=True)
class GraphFacts:
    """Size-independent facts of one graph (a ``GraphRecord``) that the lowering reads.

    The passes compute them afresh (a pass may have rewritten the graph); the
    JIT once per graph, which it treats as frozen once handed over (its
    memoization keys on the graph's identity anyway)."""

    graph: GraphRecord
    laid_out: tuple[int, ...]  # arrays read as tensors or stored to from memory
    moved_dims: Mapping[str, frozenset[int]]  # "shift"/"broadcast"/"reduce" -> lattice dims
    nodes: int  # tDFG nodes (terminator excluded)
    symbols: frozenset[str]  # the index symbols (what sizes bind)
    rank: int = 0  # the lattice rank
    body: tuple[Node, ...] = ()  # the graph's nodes, terminator included
    sched: tuple[Node, ...] = ()  # the lowering's node order (``schedule``)
    values: int = 0  # tensor values (``Node.res`` < values)
    arg_ranks: tuple[int, ...] = ()
    arg_static: tuple[tuple[int, ...] | None, ...] = ()  # static memref shapes (-1: dynamic)
    scalar_types: tuple[str, ...] = ()  # the graph scalars' type names
    has_stream_load: bool = False
    arg_types: tuple[ArrayType, ...] = ()  # the array arguments' types
    result_types: tuple[str, ...] = ()  # the graph's result types
    # (symbol, size) per dim of a statically sized array that a tensor reads
    # whole ([0:N]), in op order (``specialize.infer_from_static_shapes``)
    static_extents: tuple[tuple[str, int], ...] = ()
    primary: int | None = None  # the layout hint ``primary`` (an array index), if any
    arg_names: tuple[str | None, ...] = ()  # the array arguments' name hints

    @staticmethod
    def of(graph: GraphRecord) -> "GraphFacts":
        if not isinstance(graph, GraphRecord):  # a graph op (the tests', a pass's): its record first
            from infs.dialects.tdfg_ir_records import from_graph

            graph = from_graph(graph)
        body = graph.nodes
        arrays = graph.arrays
        return GraphFacts(
            graph=graph,
            laid_out=tuple(laid_out_nodes(body)),
            moved_dims={k: frozenset(_hint_dims(graph, k)) for k in ("shift", "broadcast", "reduce")},
            nodes=len(body) - 1,
            symbols=graph.symbol_names(),
            rank=graph.rank,
            body=body,
            sched=tuple(schedule_nodes(body)),
            values=graph.values,
            arg_ranks=tuple(len(a.shape) for a in arrays),
            arg_static=tuple(a.shape for a in arrays),
            scalar_types=graph.scalar_types,
            has_stream_load=any(n.kind is STREAM_LOAD for n in body),
            arg_types=arrays,
            result_types=graph.result_types,
            static_extents=tuple(full_extents((n.domain, arrays[n.arr].shape) for n in body if n.kind is TENSOR)),
            primary=graph.hints.get("primary"),
            arg_names=graph.array_names or (None,) * len(arrays),
        )


class SpecializeError(ValueError):
    """An unbound or ill-typed binding (one line)."""


def symbol_extents(extents, bound: Container[str] = frozenset()) -> dict[str, int]:
    """The size of each symbol not in ``bound`` from (symbol, static extent) pairs
    (``full_extents``; the JIT has them as ``GraphFacts.static_extents``); two
    different extents of one symbol are an error."""
    found: dict[str, int] = {}
    for name, size in extents:
        if name in bound:
            continue
        if found.get(name, size) != size:
            raise SpecializeError(f"'tdfg.tensor' domains [0:{name}] over arrays of sizes {found[name]} and {size}: symbol '{name}' cannot be the extent of both")
        found[name] = size
    return found


def full_extents(reads) -> list[tuple[str, int]]:
    """(symbol, size) per dim of a statically sized array that a tensor reads
    whole ([0:N]); ``reads``: (domain, array shape) of each ``tdfg.tensor``."""
    out = []
    for dom, shape in reads:
        lead = dom.rank - len(shape)
        for d, size in enumerate(shape):
            p, q = dom.bounds[lead + d]
            if size >= 0 and p == Affine(0) and len(q.terms) == 1 and q.terms[0][1] == 1 and q.const == 0:
                out.append((q.terms[0][0], size))
    return out


def _hint_dims(graph: GraphRecord, key: str) -> set[int]:
    if key in graph.hints:
        return set(graph.hints[key])
    # no hint: read the movement off the graph itself
    kind = {"shift": MV, "broadcast": BC, "reduce": REDUCE}[key]
    return {n.dim for n in graph.nodes if n.kind is kind}


def schedule_nodes(body) -> list[Node]:
    """A topological order that keeps few tensors live (§3.4).

    Each side-effecting node (store, stream_store, yield) is preceded by its
    operand trees, depth first, the larger subtree first (Sethi-Ullman), so a
    value is computed just before its first use; side effects keep their
    order.  Nodes no side effect depends on are dropped.
    """
    producer = {n.res: n for n in body if n.res >= 0}
    size: dict[Node, int] = {}

    def deps(n: Node) -> list[Node]:
        return [producer[v] for v in n.ins]

    def subtree(n: Node) -> int:
        if n not in size:
            size[n] = 1 + sum(subtree(d) for d in deps(n))
        return size[n]

    return postorder([n for n in body if n.kind in SINKS], deps, subtree)


def schedule(ops) -> list:
    """``schedule_nodes`` on IR ops (optimize-tdfg's register count): the same order."""
    from infs.dialects import tdfg

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


def infer_boxes(graph: GraphRecord, clip: Box | None = None, at: Bindings = CONCRETE, facts: GraphFacts | None = None) -> list[Box | None]:
    """Box of every tensor value of a specialized graph (constants: unbounded
    dims), indexed by the value's number (``GraphFacts.vid``; None: no box)."""
    facts = facts or GraphFacts.of(graph)
    boxes: list[Box | None] = [None] * facts.values
    rank = facts.rank
    value = at.value

    def clipped(b: Box) -> Box:
        if clip is None:
            return b
        # bounded dims are clipped to the bounding box (an empty result keeps its
        # first coordinate: an empty fold's identity sits there); unbounded
        # ones (constants) stay
        return tuple([(lo, m if m > lo else lo) if -INF < p and q < INF else (p, q)
                      for (p, q), (c0, c1) in zip(b, clip) for lo in [p if p > c0 else c0] for m in [q if q < c1 else c1]])  # fmt: skip

    inf = ((-INF, INF),) * rank  # a constant's box
    for n in facts.body:
        k = n.kind
        if k is TENSOR or k is STREAM_LOAD:
            boxes[n.res] = clipped(at.box(n.domain))
        elif k is CONST:
            boxes[n.res] = inf
        elif k is CMP:
            out = inf
            for v in n.ins:
                out = box_intersect(out, boxes[v])
            boxes[n.res] = clipped(out)
        elif k is MV or k is BC:
            b = boxes[n.ins[0]]
            d = n.dim
            if b[d][0] <= -INF or b[d][1] >= INF:
                # unbounded along the move: the same constant; a mv still discards
                # the cells it leaves at negative coordinates in every dim (a
                # shrunk constant's), a bc's copies cover the same cells (lattice_eval)
                boxes[n.res] = clipped(b) if k is MV else b
            elif k is MV:
                boxes[n.res] = clipped(box_shift(b, d, value(n.dist)))
            else:
                p, q = b[d]
                dist, count = value(n.dist), value(n.count)
                boxes[n.res] = clipped(box_with(b, d, p + dist, p + dist + count * (q - p)))
        elif k is SHRINK:
            b = boxes[n.ins[0]]
            d = n.dim
            ((lo, hi),) = at.box(n.domain)
            p, q = b[d]
            boxes[n.res] = box_with(b, d, max(p, lo), min(q, hi))
        elif k is REDUCE:
            boxes[n.res] = boxes[n.ins[0]]
        elif k is STREAM_REDUCE:
            b = boxes[n.ins[0]]
            if is_infinite(b):
                raise LoweringError("'tdfg.stream_reduce' of an unbounded constant tensor")
            if n.tensor_result:
                boxes[n.res] = clipped(collapse(b, n.dims))
    return boxes


def _hull(a: Box, b: Box) -> Box:
    return tuple([(p0 if p0 < p1 else p1, q0 if q0 > q1 else q1) for (p0, q0), (p1, q1) in zip(a, b)])


def needed_boxes(graph: GraphRecord, at: Bindings = CONCRETE, facts: GraphFacts | None = None,
                 shapes: Mapping[int, tuple[int, ...]] | None = None) -> dict[int, Box]:  # fmt: skip
    """For each tensor value (by number), the bounding box of its cells that can reach a
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
    rank = facts.rank
    boxes = infer_boxes(graph, clip=lattice_cells(rank), at=at, facts=facts)
    need: dict[int, Box] = {}

    def add(v: int, b: Box) -> None:
        own = boxes[v]
        if own is None or is_infinite(own):
            return  # a scalar, or a constant: it needs no cells of its own
        b = box_intersect(b, own)
        if not any(q > p for p, q in b):
            return
        # a box empty along some dim has no cells, but its other ranges reach
        # the side effect through an empty fold's identities (a reduce over an
        # empty K still stores M x N zeros): the lattice must hold them too
        need[v] = _hull(need[v], b) if v in need else b

    for n in reversed(facts.sched):
        k = n.kind
        out = need.get(n.res) if n.res >= 0 else None
        if k is STORE:
            shape = (shapes or {}).get(n.arr)
            own = boxes[n.ins[0]]
            if own is not None:
                add(n.ins[0], own if shape is None else box_of_shape(shape, rank))
        elif k is STREAM_STORE:
            own = boxes[n.ins[0]]
            for v in n.ins:
                add(v, own)
        elif k is STREAM_LOAD:
            for v in n.ins:
                add(v, boxes[n.res])
        elif k is STREAM_REDUCE:
            b = boxes[n.ins[0]]
            if not n.tensor_result:
                add(n.ins[0], b)
            elif out is not None:
                for d in n.dims:
                    out = box_with(out, d, *b[d])
                add(n.ins[0], out)
        elif out is None:
            continue
        elif k is CMP or k is SHRINK:
            for v in n.ins:
                add(v, out)
        elif k is MV:
            add(n.ins[0], box_shift(out, n.dim, -at.value(n.dist)))
        elif k is BC or k is REDUCE:
            d = n.dim
            add(n.ins[0], box_with(out, d, *boxes[n.ins[0]][d]))
    return need


def lattice_extent(graph: GraphRecord, laid_out: Mapping[int, tuple[int, ...]], shapes: Mapping[int, tuple[int, ...]],
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
    rank = facts.rank
    ext = [1] * rank
    for shape in laid_out.values():
        for j, s in enumerate(shape):
            d = rank - len(shape) + j
            ext[d] = s if s > ext[d] else ext[d]
    cells = lattice_cells(rank)
    streamed = [box_intersect(at.box(n.domain), cells) for n in facts.body if n.kind is STREAM_LOAD]
    for b in [*streamed, *needed_boxes(graph, at, facts, shapes).values()]:
        for d, (p, q) in enumerate(b):
            if q > p and q > ext[d]:  # an empty range lays nothing out along its dim (the others may: an empty fold's identities)
                ext[d] = q
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


def laid_out_nodes(body) -> list[int]:
    """Indices of the graph's arrays that live in memory (read as tensors or stored to from memory)."""
    return sorted({n.arr for n in body if n.kind is TENSOR or (n.kind is STORE and not n.near_value)})


def laid_out_arrays(ops, arg_tuple) -> list[int]:
    """``laid_out_nodes`` on IR ops (optimize-tdfg's register count)."""
    from infs.dialects import tdfg

    near = (tdfg.StreamReduceOp, tdfg.StreamLoadOp)  # ops whose results are computed near memory
    args = list(arg_tuple)
    return sorted({args.index(op.array) for op in ops if isinstance(op, tdfg.TensorOp) or (isinstance(op, tdfg.StoreOp) and not isinstance(op.value.owner, near))})


def array_shapes(graph: GraphRecord, known: dict[int, tuple[int, ...]] | None = None, at: Bindings = CONCRETE,
                 facts: GraphFacts | None = None) -> dict[int, tuple[int, ...]]:  # fmt: skip
    """Shape of each laid-out array: given, static, or the origin-anchored hull of what the graph touches."""
    facts = facts or GraphFacts.of(graph)
    laid = facts.laid_out
    if known and all(i in known for i in laid):
        return {i: tuple(known[i]) for i in laid}
    # the boxes are only needed for arrays whose shape nobody gave
    boxes = infer_boxes(graph, at=at, facts=facts)
    rank = facts.rank
    out: dict[int, tuple[int, ...]] = {}
    for i in laid:
        r = facts.arg_ranks[i]
        if known and i in known:
            out[i] = tuple(known[i])
            continue
        static = facts.arg_static[i]
        extent = [0] * r
        for n in facts.body:
            b = None
            if n.kind is TENSOR and n.arr == i:
                b = at.box(n.domain)
            elif n.kind is STORE and n.arr == i and not is_infinite(boxes[n.ins[0]]):
                b = boxes[n.ins[0]]
            if b is not None:
                for j in range(r):
                    p, q = b[rank - r + j]
                    if q > p:  # an empty range ([2:M] with M = 1) says nothing of the extent
                        extent[j] = max(extent[j], q)
        out[i] = tuple(s if s >= 0 else e for s, e in zip(static, extent))
    return out
