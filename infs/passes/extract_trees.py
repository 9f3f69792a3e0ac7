"""Expression trees of a loop nest's innermost body, and the reductions they fold.

Takes the ops of the innermost body; gives the tree nodes the analysis reads
them into (``Load``, ``Scalar``, ``Const``, ``Op``, ``Red``, ``Chase`` -- a
pointer chase -- and ``Store`` statements), which op folds a loop-carried accumulator and with which
reduction kind (add/mul/min/max, argmin/argmax, NaN-aware or not), which ops
may trap (integer division), the select and min/max ops a tree lowers to, the
chained accumulation loops, and walks over trees.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Block, Operation, SSAValue

from infs.element_types import EvaluationError, numpy_dtype, reduce_identity
from infs.dialects.lattice import AccessMap
from infs.passes.extract_loops import is_loop, is_pure_scalar_op, loop_body, ops_of


# ---------------------------------------------------------------------------
# Expression trees of the innermost body
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class Node:
    type: Attribute


@dataclass(eq=False)
class Load(Node):
    array: SSAValue
    amap: AccessMap
    order: int
    src: Operation
    ind: tuple = ()  # indirect positions: ((position, the Load of the index), ...) -- the map is 0 there


@dataclass(eq=False)
class Scalar(Node):
    value: SSAValue


@dataclass(eq=False)
class Const(Node):
    op: Operation


@dataclass(eq=False)
class Op(Node):
    op: Operation
    args: list[Node]


@dataclass(eq=False)
class Red(Node):
    kind: str
    dims: frozenset[int]
    body: Node
    src: Operation | None = None  # the reduction loop (or accumulating op): the stream.reduce's location


@dataclass(eq=False)
class Chase(Node):
    """A pointer chase (an ``scf.while`` walking ``p = next(p)``): ``stream.chase``.
    ``body`` holds the ops of the walk's test and step (clones of the loop's, in
    order), ``ptr`` the SSA values that are the pointer in them, ``fields``
    (array, the loads of it at the pointer), ``inputs`` (the outside values
    they use, and their nodes), ``go``/``next`` the values yielded (``go``
    None: the walk goes on until the pointer is null)."""

    start: Node
    fields: list[tuple[SSAValue, list[SSAValue]]]
    inputs: list[tuple[SSAValue, Node]]
    ptr: list[SSAValue]
    body: list[Operation]
    go: SSAValue | None
    next: SSAValue
    order: int
    src: Operation


@dataclass(eq=False)
class Won(Node):
    """Whether a claim (``Store.claim``) claimed its cell at this point: the
    ``stream.claim``'s result."""

    store: "Store"


@dataclass(eq=False)
class Changed(Node):
    """Whether an atomic min/max (``Store.atomic``) changed its cell at this
    point: the ``stream.atomic``'s ``changed`` result (the relaxation's test,
    ``if (f < X[c])``, as the loop evaluates it in order)."""

    store: "Store"


@dataclass(eq=False)
class Slot(Node):
    """An append's slot ``Q[t++]``: ``start`` plus the points before this one
    where ``mask`` holds (``stream.count``)."""

    mask: Node
    start: Node


@dataclass(eq=False)
class Store:
    array: SSAValue
    amap: AccessMap
    value: Node
    order: int
    src: Operation | None
    ind: tuple = ()
    atomic: str | None = None  # X[idx[p]] op= value: a stream.atomic of this kind
    mask: Node | None = None  # under an scf.if: the i1 condition it happens on (a filtered stream.store/atomic)
    claim: tuple | None = None  # (cmpi predicate name, bound node): ``if (X[c] pred k) X[c] = value`` as a stream.claim
    changed: bool = False  # an atomic min/max whose test other statements use (its ``changed`` result)


# combining ops of reductions (kind names of stream.reduce)
REDUCE_KIND = {
    "arith.addf": "add",
    "arith.addi": "add",
    "arith.mulf": "mul",
    "arith.muli": "mul",
    "arith.minimumf": "min",
    "arith.minsi": "min",
    "arith.maximumf": "max",
    "arith.maxsi": "max",
}


def reduce_kind(op: Operation) -> str | None:
    """The stream.reduce kind ``op`` combines with, if any.  None on i1: there
    add is xor and the signed min/max are and/or (true is -1), which no kind
    means (the reference and the machine fold i1 as 0/1 with or/and)."""
    if op.results and op.results[0].type == IntegerType(1):
        return None
    return REDUCE_KIND.get(op.name)


# maxnum/minnum skip a NaN operand (C's fmax/fmin); stream.reduce's max/min propagate it
NUM_MINMAX = {"arith.maxnumf": "max", "arith.minnumf": "min"}
# select(cmp(l, r), l, r) picks the larger for these predicates (max), the smaller for the others (min)
_PICKS_LARGER = {"ogt", "oge", "ugt", "uge", "sgt", "sge"}
_ORDERED_PICKS = {"ogt", "oge", "olt", "ole", "sgt", "sge", "slt", "sle"}


def no_nans(op: Operation, nsz: bool = False) -> bool:
    """``fastmath<nnan>`` (with ``nsz``: also ``nsz``; or ``fast``) on ``op``: the
    program promises no NaN operands (and that the sign of a zero does not matter)."""
    fm = getattr(op, "fastmath", None)
    flags = {f.value for f in fm.data} if fm is not None else set()
    return "fast" in flags or {"nnan", *(("nsz",) if nsz else ())} <= flags


def fold_of(y: SSAValue, acc: SSAValue) -> tuple[Operation, str, int, SSAValue, str | None] | None:
    """How the yielded ``y`` folds into the accumulator ``acc``: (the combining
    op, the stream.reduce kind, the position of ``acc`` in its two operands,
    the folded value, why it is not a fold after all -- or None).  Reads
    ``acc op x`` for add/mul/min/max (also ``maxnumf``/``minnumf``), and the
    ternary ``acc > x ? acc : x`` (``arith.select`` of a compare of the two, as
    cgeist prints fmax written as a conditional)."""
    comb = y.owner
    if not isinstance(comb, Operation):
        return None
    if isinstance(comb, arith.SelectOp):
        cmp = comb.cond.owner
        picks = [comb.lhs, comb.rhs]
        if y.type == IntegerType(1) or not (isinstance(cmp, (arith.CmpfOp, arith.CmpiOp)) and acc in picks and acc.uses.get_length() == 2 and set(cmp.operands) == set(picks) and comb.lhs is not comb.rhs and comb.cond.uses.get_length() == 1):
            return None
        pred = cmp.predicate.value.data
        name = (arith.CMPF_COMPARISON_OPERATIONS if isinstance(cmp, arith.CmpfOp) else arith.CMPI_COMPARISON_OPERATIONS)[pred]
        if name not in _ORDERED_PICKS:
            return None
        larger = name in _PICKS_LARGER
        kind = "max" if larger == (comb.lhs is cmp.lhs) else "min"
        pos = picks.index(acc)
        why = None
        if isinstance(cmp, arith.CmpfOp) and not no_nans(cmp, nsz=True):
            # (the ternary keeps the later of two equal values: -0.0 or +0.0 by the order; a NaN is dropped or kept by its place)
            why = f"a {kind} written as a compare and a select whose compare is not fastmath<nnan,nsz> (the loop's pick of a NaN or of -0.0 against +0.0 depends on the order, the fold's does not)"
        return comb, kind, pos, picks[1 - pos], why
    kind = NUM_MINMAX.get(comb.name) or reduce_kind(comb)
    if kind is None or len(comb.operands) != 2 or acc not in comb.operands or acc.uses.get_length() != 1:
        return None
    pos = list(comb.operands).index(acc)
    return comb, kind, pos, comb.operands[1 - pos], None


def drop_nans(body: Node, kind: str) -> Node:
    """``x != x ? identity : x``: a NaN as the fold's identity, so that the
    max/min fold (NaN-propagating) equals the maxnum/minnum loop (NaN-skipping)."""
    t = body.type
    ph = Block(arg_types=[t, t, IntegerType(1)]).args  # template operands: a node's op is cloned with its inputs mapped in
    ident = arith.ConstantOp(FloatAttr(float("-inf") if kind == "max" else float("inf"), t))
    isnan = Op(IntegerType(1), arith.CmpfOp(ph[0], ph[0], "une"), [body, body])
    return Op(t, arith.SelectOp(ph[2], ph[1], ph[0]), [isnan, Const(t, ident), body])


_INT_DIVISIONS = (arith.DivSIOp, arith.DivUIOp, arith.RemSIOp, arith.RemUIOp, arith.CeilDivSIOp, arith.CeilDivUIOp, arith.FloorDivSIOp)


def may_trap(op: Operation) -> bool:
    """An integer division or remainder whose divisor is not a constant other than 0 and -1
    (x / 0 stops a run; MIN / -1 overflows)."""
    if not isinstance(op, _INT_DIVISIONS):
        return False
    d = op.operands[1].owner
    return not (isinstance(d, arith.ConstantOp) and isinstance(d.value, IntegerAttr) and d.value.value.data not in (0, -1))


def select_op(t: Attribute) -> Operation:
    """A detached ``arith.select`` of type ``t``: a template whose operands are mapped to the node's inputs when it is cloned."""
    c, a, b = Block(arg_types=[IntegerType(1), t, t]).args
    return arith.SelectOp(c, a, b)


def logic_op(kind: str) -> Operation:
    """A detached i1 ``arith.andi`` (``kind`` "and") or ``arith.xori`` ("xor", with
    true: not): a template as ``select_op``'s."""
    a, b = Block(arg_types=[IntegerType(1), IntegerType(1)]).args
    return arith.AndIOp(a, b) if kind == "and" else arith.XOrIOp(a, b)


def minmax_op(kind: str, t: Attribute) -> Operation:
    """A detached ``max``/``min`` op of type ``t``: a template whose operands are mapped to the node's inputs when it is cloned."""
    a, b = Block(arg_types=[t, t]).args
    if isinstance(t, IntegerType):
        return (arith.MaxSIOp if kind == "max" else arith.MinSIOp)(a, b)
    return (arith.MaximumfOp if kind == "max" else arith.MinimumfOp)(a, b)


def chained_loop(loop: Operation) -> Operation | None:
    """The ``iter_args`` loop nested in ``loop`` that takes ``loop``'s accumulators
    as its initial values and whose results ``loop`` yields, both in order,
    with nothing else in ``loop``'s body but pure index arithmetic (the two
    loops are one fold over both their dims); None if there is none."""
    blk = loop_body(loop)
    accs = list(blk.args[1:])
    ops = ops_of(blk)
    loops = [o for o in ops if is_loop(o)]
    if not accs or len(loops) != 1 or not isinstance(loops[0], (affine.ForOp, scf.ForOp)):
        return None
    inner = loops[0]
    inits = list(inner.inits if isinstance(inner, affine.ForOp) else inner.iter_args)  # type: ignore[attr-defined]
    term = blk.last_op
    if inits != accs or term is None or list(term.operands) != list(inner.results) or any(a.uses.get_length() != 1 for a in accs):
        return None
    if any(r.uses.get_length() != 1 for r in inner.results):
        return None
    if not all(o is inner or is_pure_scalar_op(o) for o in ops):
        return None
    return inner


def walk_nodes(n: Node, seen: set[int] | None = None, into_reductions: bool = True):
    """Every node reachable from ``n`` once (``into_reductions=False``: not
    inside a reduction's body -- the reduction itself is yielded)."""
    seen = set() if seen is None else seen
    if id(n) in seen:
        return
    seen.add(id(n))
    yield n
    if isinstance(n, (Op, Load)):
        for a in n.args if isinstance(n, Op) else [x for _, x in n.ind]:
            yield from walk_nodes(a, seen, into_reductions)
    elif isinstance(n, Chase):
        for a in [n.start, *(x for _, x in n.inputs)]:
            yield from walk_nodes(a, seen, into_reductions)
    elif isinstance(n, Slot):
        for a in (n.mask, n.start):
            yield from walk_nodes(a, seen, into_reductions)
    elif isinstance(n, Red) and into_reductions:
        yield from walk_nodes(n.body, seen, into_reductions)


def is_identity(n: Node, kind: str) -> bool:
    """Whether ``n`` is the constant a fold of ``kind`` starts from (0, 1, +-inf
    or the integer extremes), so ``n op fold`` is the fold.  (-0.0 counts: a
    zero's sign is all an all-(-0.0) sum can change, and zeros compare equal.)"""
    v = n.op.value if isinstance(n, Const) else None  # type: ignore[attr-defined]
    try:  # (not i1: its min/max are signed -1/0, not numpy's bool's)
        return isinstance(v, (FloatAttr, IntegerAttr)) and n.type != IntegerType(1) and bool(v.value.data == reduce_identity(kind, numpy_dtype(n.type)))
    except EvaluationError:  # (bf16, i4...: no numpy type)
        return False
