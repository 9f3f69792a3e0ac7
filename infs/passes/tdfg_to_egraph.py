"""A tensor dataflow graph as egglog facts, for ``optimize-tdfg``.

Takes a ``tdfg.graph`` whose bounds are affine in at most
``tdfg_egraph.SLOTS`` index symbols; gives its encoding (``GraphEncoding``:
each value as an egglog term over reads, constants and leaves, affine bounds
as fixed slots of coefficients, ``Slots``) and Eq. 5's tensor expansions
(every read made equal to shrinks of the read of the hull of its array's
reads, where that hull is provable).  The rules themselves are in
``tdfg_egraph``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.ir import Operation, SSAValue

from infs.dialects import tdfg
from infs.dialects.lattice import Affine, Domain, LatticeError
from infs.passes.tdfg_cost import element_of


# ---------------------------------------------------------------------------
# Affine <-> egglog
# ---------------------------------------------------------------------------


class Slots:
    def __init__(self, symbols: Sequence[str]):
        self.names = tuple(sorted(symbols))
        self.index = {n: k for k, n in enumerate(self.names)}

    def fields(self, e: Affine) -> tuple[int, ...]:
        from infs.passes.tdfg_egraph import SLOTS

        out = [e.const] + [0] * SLOTS
        for n, c in e.terms:
            out[1 + self.index[n]] = c
        return tuple(out)

    def aff(self, e: Affine) -> str:
        from infs.passes.tdfg_egraph import aff_text

        return aff_text(self.fields(e))

    def affine(self, fields: Sequence[int]) -> Affine:
        return Affine._make(fields[0], {n: fields[1 + k] for k, n in enumerate(self.names)})  # noqa: SLF001


# ---------------------------------------------------------------------------
# Graph -> e-graph
# ---------------------------------------------------------------------------

_WRITES = (tdfg.StoreOp, tdfg.StreamStoreOp)


@dataclass
class GraphEncoding:
    graph: tdfg.GraphOp
    slots: Slots
    rank: int
    reads: list[tuple[SSAValue, Domain]] = field(default_factory=list)  # read id -> (array, domain)
    read_ids: dict[tuple[int, Domain], int] = field(default_factory=dict)
    expanded: set[int] = field(default_factory=set)  # read ids that have an expanded form
    consts: list[tdfg.ConstOp] = field(default_factory=list)
    const_ids: dict[tuple, int] = field(default_factory=dict)
    leaves: list[SSAValue] = field(default_factory=list)
    leaf_ids: dict[SSAValue, int] = field(default_factory=dict)
    terms: dict[SSAValue, str] = field(default_factory=dict)  # algebra value -> egglog global
    program: list[str] = field(default_factory=list)  # egglog commands adding the graph
    opaque: list[Operation] = field(default_factory=list)  # ops kept as they are, in order
    roots: list[SSAValue] = field(default_factory=list)  # algebra values the opaque ops use
    types: dict[tuple[str, int], str] = field(default_factory=dict)  # (kind, id) -> element type

    def read_id(self, array: SSAValue, dom: Domain, ty: str = "") -> int:
        """The id of the read of ``array`` over ``dom``, numbered when first seen (of type ``ty``)."""
        key = (list(self.graph.array_args).index(array), dom)
        if key not in self.read_ids:
            self.read_ids[key] = len(self.reads)
            self.reads.append((array, dom))
            self.types[("read", self.read_ids[key])] = ty
        return self.read_ids[key]

    def const_id(self, op: tdfg.ConstOp) -> int:
        key = _const_key(op, self.graph)
        if key not in self.const_ids:
            self.const_ids[key] = len(self.consts)
            self.consts.append(op)
            self.types[("const", self.const_ids[key])] = element_of(op.result.type)
        return self.const_ids[key]

    def node(self, op: Operation) -> tuple[str, tuple] | None:
        """A read, constant or algebra op as its e-node: constructor and literal arguments."""
        if isinstance(op, tdfg.TensorOp):
            return "Read", (self.read_id(op.array, op.domain.data),)
        if isinstance(op, tdfg.ConstOp):
            return "Const", (self.const_id(op),)
        return _algebra(op, self.slots)


def _const_key(op: tdfg.ConstOp, graph: tdfg.GraphOp) -> tuple:
    if op.scalar is not None:
        # by the value the graph's scalar is bound to: two block arguments bound to the same
        # SSA value outside the graph (``syms(w2 = %w, w3 = %w)``) are provably equal
        outer = graph.scalars[list(graph.scalar_args).index(op.scalar)]
        return ("scalar", outer, op.result.type)
    return ("literal", str(op.value), op.result.type)  # by spelling: -0.0 stays apart from 0.0


def _algebra(op: Operation, slots: Slots) -> tuple[str, tuple] | None:
    """A compute, move, broadcast or shrink as an e-node: its constructor and literal
    arguments (op name and type, dim, affine fields), as ``EGraphView`` reads them back."""
    if isinstance(op, tdfg.CmpOp):
        return f"Cmp{len(op.inputs)}", (op.op.data, element_of(op.inputs[-1].type))
    if isinstance(op, tdfg.MvOp):
        return "Mv", (op.dim.value.data, slots.fields(op.dist.data))
    if isinstance(op, tdfg.BcOp):
        return "Bc", (op.dim.value.data, slots.fields(op.dist.data), slots.fields(op.count.data))
    if isinstance(op, tdfg.ShrinkOp):
        ((lo, hi),) = op.range.data.bounds
        return "Shrink", (op.dim.value.data, slots.fields(lo), slots.fields(hi))
    return None


def encode(graph: tdfg.GraphOp, slots: Slots) -> GraphEncoding:
    """The graph's tensor algebra as egglog terms (``enc.terms``: value -> a ``$v<k>`` global
    bound by ``enc.program``); every other op stays as it is."""
    from infs.passes.tdfg_egraph import aff_text

    enc = GraphEncoding(graph, slots, graph.lattice_rank)
    written: set[SSAValue] = set()

    def bind(v: SSAValue, text: str) -> None:
        name = f"$v{len(enc.terms)}"
        enc.program.append(f"(let {name} {text})")
        enc.terms[v] = name

    def term(v: SSAValue) -> str:
        t = enc.terms.get(v)
        if t is not None:
            return t
        if v not in enc.leaf_ids:
            enc.leaf_ids[v] = len(enc.leaves)
            enc.leaves.append(v)
            enc.types[("leaf", enc.leaf_ids[v])] = element_of(v.type)
        return f"(Leaf {enc.leaf_ids[v]})"

    for op in graph.body.block.ops:
        if isinstance(op, tdfg.TensorOp) and op.array not in written:
            bind(op.result, f"(Read {enc.read_id(op.array, op.domain.data, element_of(op.result.type))})")
        elif isinstance(op, tdfg.ConstOp):
            bind(op.result, f"(Const {enc.const_id(op)})")
        elif (node := _algebra(op, slots)) is not None:
            ctor, values = node
            lits = [f'"{a}"' if isinstance(a, str) else aff_text(a) if isinstance(a, tuple) else str(a) for a in values]
            kids = [term(v) for v in op.operands]
            # egglog's constructors: a compute's op and type come first, a move's input first
            bind(op.result, "(" + " ".join([ctor, *(lits + kids if ctor.startswith("Cmp") else kids + lits)]) + ")")
        else:
            enc.opaque.append(op)
            for v in op.operands:
                if v in enc.terms and v not in enc.roots:
                    enc.roots.append(v)
            if isinstance(op, _WRITES):
                written.add(op.array)
    return enc


def expand(enc: GraphEncoding, graph: tdfg.GraphOp, slots: Slots) -> list[str]:
    """Adds the expanded reads to ``enc``; the egglog facts of Eq. 5 and of one-cell-wide
    reads (Eq. 8b).  Deterministic: the same graph gives the same read ids."""
    program: list[str] = []
    # Eq. 5: T(.., p, q, ..) <=> S(i, p, q, T(.., p', q', ..)) towards the hull of the array's reads
    for rid, hull in expansions(enc):
        arr, dom = enc.reads[rid]
        t = f"(Read {enc.read_id(arr, hull, enc.types[('read', rid)])})"
        for d, ((p, q), (hp, hq)) in enumerate(zip(dom.bounds, hull.bounds)):
            if (p, q) != (hp, hq):
                t = f"(Shrink {t} {d} {slots.aff(p)} {slots.aff(q)})"
        program.append(f"(union (Read {rid}) {t})")
        enc.expanded.add(rid)
    # Eq. 8b needs one-cell-wide reads
    for rid, (_arr, dom) in enumerate(enc.reads):
        for d, (p, q) in enumerate(dom.bounds):
            if q - p == Affine(1):
                program.append(f"(unit_at (Read {rid}) {d} {slots.aff(p)})")
    return program


def expansions(enc: GraphEncoding) -> list[tuple[int, Domain]]:
    """Eq. 5: for each read, the hull of it and of the other reads of its array that have
    a provable hull with it -- cells the graph reads anyway, so they exist.  A read that is
    provably empty reads nothing, and its bounds need not lie in the array (``[N + 3:N + 3]``
    is a valid read of an N-cell array): it neither widens a hull nor is expanded."""
    by_array: dict[SSAValue, list[int]] = {}
    for rid, (arr, dom) in enumerate(enc.reads):
        if dom.is_empty() is not True:
            by_array.setdefault(arr, []).append(rid)
    out: list[tuple[int, Domain]] = []
    for rids in by_array.values():
        for rid in rids:
            hull = enc.reads[rid][1]
            for other in rids:
                try:
                    hull = hull.hull(enc.reads[other][1])
                except LatticeError:
                    continue  # not provable: no expansion towards that read
            if hull != enc.reads[rid][1]:
                out.append((rid, hull))
    return out
