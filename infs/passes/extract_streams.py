"""``extract-streams``: plain loop nests become ``stream.region``s, the compiler's first step.

Takes ``func.func`` bodies written as ordinary loops: ``affine.for`` /
``affine.parallel`` / ``scf.for`` / ``scf.parallel`` nests over
``affine.load``/``affine.store``/``memref.load``/``memref.store`` with affine
indices (also through ``affine.apply``, ``arith.index_cast`` and integer
``addi``/``subi``/``muli`` by a constant) or loaded in the body
(``memref.load %X[%idx_i]``: an indirect stream; an add/min/max update of
such a cell is an indirect ``stream.atomic``), and ``arith``/``math`` bodies.

Gives the same functions with each loop nest that is a stream region (ASPLOS'23
§3.1: the paper's compiler finds the regions in plain C loops) replaced by one
(or two) ``stream.region`` ops -- domain, ``parallel``/``reduction``
iterators, ``stream.load``/``compute``/``reduce``/``store`` -- and everything
else left as host code around them, lowered to ``scf``/``arith``/``memref``
(the host interpreter and every later pass know these).  Loops that carry a
dependence stay host ``scf.for`` loops around the region, as the stencil time
step of ``infs/workloads/stencil1d.mlir`` does by hand.

How a nest is decided.  The nest's perfectly nested loops ``L1..Ln`` (a band)
and its innermost body are read into loads, stores and expression trees.  Then,
for ``p = 0, 1, ..., n-1``, the inner band ``L(p+1)..Ln`` is tried as a region
with ``L1..Lp`` on the host: its statements are classified (plain stores;
reductions: an ``iter_args`` accumulation or argmin/argmax loop -- also nested
``iter_args`` loops handing their accumulator down, one fold over all their
dims -- or ``X[m] = X[m] op f`` with ``m`` invariant in some loops, op in
add/mul/min/max; an ``scf.if`` yielding loaded values is a select when both
sides are safe at every point, ``Analysis.if_select``), the region is built, and the
stream dialect's own exact dependence test (``stream.loop_carried_dependence``,
which the region verifier runs: distance/direction vectors over the access maps
with a GCD test, conservative beyond them) decides whether it equals the
sequential nest.  The first region that passes is kept; the peeled loops are
the ones that carry a dependence.  An accumulation into an array the region
also reads at the same cell (``C[i,j] += A[i,k]*B[k,j]``) becomes two regions:
the reduction into a host-allocated temporary, then the element-wise update.
Nothing is guessed: a construct the analysis does not read (non-affine
indices, ``affine.if``, ``floordiv``/``mod`` bounds, non-unit steps, calls,
bounds depending on an inner loop, ...) keeps the loop on the host.

Distribution.  A nest whose body is not one statement -- an imperfect nest
(C's ``C[i][j] = 0; for (k ...) C[i][j] += ...`` as cgeist prints it, or
``for (j) C[i][j] *= beta; for (k) for (j) ...``), or a perfect one whose
body is not one region (two folds over different loops, as in bicg) -- is
split into one nest per statement when ``distribution_refused`` finds no array
that one statement writes and another touches at a different iteration of the
band (each such access must index the array with every band loop's index,
identically in every access); each copy is then tried as above.  Otherwise
the inner nests are tried on their own and the remark says why the band was
not distributed.

linalg.  ``linalg`` structured ops on memrefs (``generic``, ``matmul``,
``fill``, ``add``, ...) are first lowered by xDSL's own
``convert-linalg-to-loops`` pattern (``lower_linalg``), keeping each op's
location for the remarks; linalg on tensors is an error (bufferize first).
A ``linalg.fill`` of a reduction's output with the reduction's identity right
before it is the reduction's initial value (``_fill_before``): the region
stores the fold, and the fill is dropped (mm_inner's one region, not three).

``remarks=true`` prints one line per loop nest on stderr, as MLIR's
optimization remarks: ``file:line:col: remark: extract-streams: ...`` saying
what was extracted, and for every nest (or loop) kept on the host, why.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import affine, arith, func, memref, scf
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import BroadcastOp, FillOp, GenericOp, PoolingNchwMaxOp, ReduceOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FileLineColLoc,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap, AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr, AffineSymExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from infs.dialects import stream
from infs.element_types import EvaluationError, numpy_dtype, reduce_identity
from infs.dialects.lattice import AccessMap, Affine, Domain, LatticeError, dim_index, dim_name
from infs.passes import lowering_errors

# ---------------------------------------------------------------------------
# Remarks
# ---------------------------------------------------------------------------


def location_text(op: Operation) -> str:
    return lowering_errors.location_text(op) or "<unknown>"


@dataclass
class Remark:
    op: Operation
    text: str
    extracted: bool

    def __str__(self) -> str:
        return f"{location_text(self.op)}: remark: extract-streams: {self.text}"


class Refuse(Exception):
    """This loop nest (at this depth) is not a stream region; the message says why."""


# ---------------------------------------------------------------------------
# Loops
# ---------------------------------------------------------------------------

_LOOPS = (affine.ForOp, scf.ForOp, affine.ParallelOp, scf.ParallelOp)


def _is_loop(op: Operation) -> bool:
    return isinstance(op, _LOOPS)


def _body(op: Operation) -> Block:
    return op.regions[0].blocks[0]


def _ivs(op: Operation) -> list[SSAValue]:
    args = _body(op).args
    return list(args[:1] if isinstance(op, (affine.ForOp, scf.ForOp)) else args)


def _ops_of(block: Block) -> list[Operation]:
    ops = list(block.ops)
    if ops and ops[-1].name in ("affine.yield", "scf.yield", "scf.reduce"):
        ops = ops[:-1]
    return ops


def _scf_bounds(op: scf.ForOp | scf.ParallelOp) -> tuple[Sequence[SSAValue], Sequence[SSAValue], Sequence[SSAValue]]:
    """The lower bounds, upper bounds and steps of an scf loop's ivs."""
    if isinstance(op, scf.ForOp):
        return [op.lb], [op.ub], [op.step]
    return op.lowerBound, op.upperBound, op.step


def _one_bound_each(op: affine.ParallelOp) -> bool:
    """No max/min bound groups: one lower and one upper bound expression per iv."""
    return all(g == 1 for g in (*op.lowerBoundsGroups.get_values(), *op.upperBoundsGroups.get_values()))


def _parallel_bounds(op: affine.ParallelOp, read):
    """``read(map, its operands)`` of an ``affine.parallel``'s lower, then of its upper bound map."""
    lm, um = op.lowerBoundsMap.data, op.upperBoundsMap.data
    n = lm.num_dims + lm.num_symbols
    return read(op.lowerBoundsMap, op.map_operands[:n]), read(op.upperBoundsMap, op.map_operands[n : n + um.num_dims + um.num_symbols])


_INDEX_ARITH = (arith.ConstantOp, arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.IndexCastOp, arith.ExtSIOp, arith.TruncIOp, affine.ApplyOp)


def _is_compute_op(op: Operation) -> bool:
    """A side-effect-free arith/math op, which a compute body may hold."""
    return op.dialect_name() in stream.COMPUTE_BODY_DIALECTS and not op.regions and is_side_effect_free(op)


def _is_pure_scalar_op(op: Operation) -> bool:
    """Pure integer/index arithmetic a band may hold between its loops
    (analysed lazily), or a compute op (read on use, where it becomes part of
    a compute body, or refused if it uses a loop index as a value)."""
    index_arith = isinstance(op, _INDEX_ARITH) and all(isinstance(r.type, (IndexType, IntegerType)) for r in op.results)
    return index_arith or _is_compute_op(op)


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
class Store:
    array: SSAValue
    amap: AccessMap
    value: Node
    order: int
    src: Operation | None
    ind: tuple = ()
    atomic: str | None = None  # X[idx[p]] op= value: a stream.atomic of this kind


# combining ops of reductions (kind names of stream.reduce)
_REDUCE_KIND = {
    "arith.addf": "add",
    "arith.addi": "add",
    "arith.mulf": "mul",
    "arith.muli": "mul",
    "arith.minimumf": "min",
    "arith.minsi": "min",
    "arith.maximumf": "max",
    "arith.maxsi": "max",
}


def _reduce_kind(op: Operation) -> str | None:
    """The stream.reduce kind ``op`` combines with, if any.  None on i1: there
    add is xor and the signed min/max are and/or (true is -1), which no kind
    means (the reference and the machine fold i1 as 0/1 with or/and)."""
    if op.results and op.results[0].type == IntegerType(1):
        return None
    return _REDUCE_KIND.get(op.name)


# maxnum/minnum skip a NaN operand (C's fmax/fmin); stream.reduce's max/min propagate it
_NUM_MINMAX = {"arith.maxnumf": "max", "arith.minnumf": "min"}
# select(cmp(l, r), l, r) picks the larger for these predicates (max), the smaller for the others (min)
_PICKS_LARGER = {"ogt", "oge", "ugt", "uge", "sgt", "sge"}
_ORDERED_PICKS = {"ogt", "oge", "olt", "ole", "sgt", "sge", "slt", "sle"}


def _no_nans(op: Operation, nsz: bool = False) -> bool:
    """``fastmath<nnan>`` (with ``nsz``: also ``nsz``; or ``fast``) on ``op``: the
    program promises no NaN operands (and that the sign of a zero does not matter)."""
    fm = getattr(op, "fastmath", None)
    flags = {f.value for f in fm.data} if fm is not None else set()
    return "fast" in flags or {"nnan", *(("nsz",) if nsz else ())} <= flags


def _fold_of(y: SSAValue, acc: SSAValue) -> tuple[Operation, str, int, SSAValue, str | None] | None:
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
        if isinstance(cmp, arith.CmpfOp) and not _no_nans(cmp, nsz=True):
            # (the ternary keeps the later of two equal values: -0.0 or +0.0 by the order; a NaN is dropped or kept by its place)
            why = f"a {kind} written as a compare and a select whose compare is not fastmath<nnan,nsz> (the loop's pick of a NaN or of -0.0 against +0.0 depends on the order, the fold's does not)"
        return comb, kind, pos, picks[1 - pos], why
    kind = _NUM_MINMAX.get(comb.name) or _reduce_kind(comb)
    if kind is None or len(comb.operands) != 2 or acc not in comb.operands or acc.uses.get_length() != 1:
        return None
    pos = list(comb.operands).index(acc)
    return comb, kind, pos, comb.operands[1 - pos], None


def _drop_nans(body: Node, kind: str) -> Node:
    """``x != x ? identity : x``: a NaN as the fold's identity, so that the
    max/min fold (NaN-propagating) equals the maxnum/minnum loop (NaN-skipping)."""
    t = body.type
    ph = Block(arg_types=[t, t, IntegerType(1)]).args  # template operands: a node's op is cloned with its inputs mapped in
    ident = arith.ConstantOp(FloatAttr(float("-inf") if kind == "max" else float("inf"), t))
    isnan = Op(IntegerType(1), arith.CmpfOp(ph[0], ph[0], "une"), [body, body])
    return Op(t, arith.SelectOp(ph[2], ph[1], ph[0]), [isnan, Const(t, ident), body])


_INT_DIVISIONS = (arith.DivSIOp, arith.DivUIOp, arith.RemSIOp, arith.RemUIOp, arith.CeilDivSIOp, arith.CeilDivUIOp, arith.FloorDivSIOp)


def _may_trap(op: Operation) -> bool:
    """An integer division or remainder whose divisor is not a constant other than 0 and -1
    (x / 0 stops a run; MIN / -1 overflows)."""
    if not isinstance(op, _INT_DIVISIONS):
        return False
    d = op.operands[1].owner
    return not (isinstance(d, arith.ConstantOp) and isinstance(d.value, IntegerAttr) and d.value.value.data not in (0, -1))


def _select_op(t: Attribute) -> Operation:
    """A detached ``arith.select`` of type ``t``: a template whose operands are mapped to the node's inputs when it is cloned."""
    c, a, b = Block(arg_types=[IntegerType(1), t, t]).args
    return arith.SelectOp(c, a, b)


def _minmax_op(kind: str, t: Attribute) -> Operation:
    """A detached ``max``/``min`` op of type ``t``: a template whose operands are mapped to the node's inputs when it is cloned."""
    a, b = Block(arg_types=[t, t]).args
    if isinstance(t, IntegerType):
        return (arith.MaxSIOp if kind == "max" else arith.MinSIOp)(a, b)
    return (arith.MaximumfOp if kind == "max" else arith.MinimumfOp)(a, b)


def _chained_loop(loop: Operation) -> Operation | None:
    """The ``iter_args`` loop nested in ``loop`` that takes ``loop``'s accumulators
    as its initial values and whose results ``loop`` yields, both in order,
    with nothing else in ``loop``'s body but pure index arithmetic (the two
    loops are one fold over both their dims); None if there is none."""
    blk = _body(loop)
    accs = list(blk.args[1:])
    ops = _ops_of(blk)
    loops = [o for o in ops if _is_loop(o)]
    if not accs or len(loops) != 1 or not isinstance(loops[0], (affine.ForOp, scf.ForOp)):
        return None
    inner = loops[0]
    inits = list(inner.inits if isinstance(inner, affine.ForOp) else inner.iter_args)  # type: ignore[attr-defined]
    term = blk.last_op
    if inits != accs or term is None or list(term.operands) != list(inner.results) or any(a.uses.get_length() != 1 for a in accs):
        return None
    if any(r.uses.get_length() != 1 for r in inner.results):
        return None
    if not all(o is inner or _is_pure_scalar_op(o) for o in ops):
        return None
    return inner


def _walk_nodes(n: Node, seen: set[int] | None = None, into_reductions: bool = True):
    """Every node reachable from ``n`` once (``into_reductions=False``: not
    inside a reduction's body -- the reduction itself is yielded)."""
    seen = set() if seen is None else seen
    if id(n) in seen:
        return
    seen.add(id(n))
    yield n
    if isinstance(n, (Op, Load)):
        for a in n.args if isinstance(n, Op) else [x for _, x in n.ind]:
            yield from _walk_nodes(a, seen, into_reductions)
    elif isinstance(n, Red) and into_reductions:
        yield from _walk_nodes(n.body, seen, into_reductions)


def _is_identity(n: Node, kind: str) -> bool:
    """Whether ``n`` is the constant a fold of ``kind`` starts from (0, 1, +-inf
    or the integer extremes), so ``n op fold`` is the fold.  (-0.0 counts: a
    zero's sign is all an all-(-0.0) sum can change, and zeros compare equal.)"""
    v = n.op.value if isinstance(n, Const) else None  # type: ignore[attr-defined]
    try:  # (not i1: its min/max are signed -1/0, not numpy's bool's)
        return isinstance(v, (FloatAttr, IntegerAttr)) and n.type != IntegerType(1) and bool(v.value.data == reduce_identity(kind, numpy_dtype(n.type)))
    except EvaluationError:  # (bf16, i4...: no numpy type)
        return False


# ---------------------------------------------------------------------------
# Affine analysis of index values
# ---------------------------------------------------------------------------


def _product(a: Affine, b: Affine) -> Affine:
    """``a * b`` where one of them is a constant."""
    return b * a.const if a.is_constant else a * b.const


def _fold_affine(e: AffineExpr, dims: Sequence, syms: Sequence, const, binary):
    """``e`` bottom-up: a constant as ``const(value)``, a dim or symbol as its
    entry of ``dims``/``syms``, a binary op as ``binary(e, lhs, rhs)``."""
    if isinstance(e, AffineConstantExpr):
        return const(e.value)
    if isinstance(e, AffineDimExpr):
        return dims[e.position]
    if isinstance(e, AffineSymExpr):
        return syms[e.position]
    assert isinstance(e, AffineBinaryOpExpr)
    lhs = _fold_affine(e.lhs, dims, syms, const, binary)
    return binary(e, lhs, _fold_affine(e.rhs, dims, syms, const, binary))


def _narrow(t: Attribute) -> bool:
    """An integer type narrower than i32, whose index arithmetic may wrap at sizes that occur."""
    return isinstance(t, IntegerType) and t.width.data < 32


class Analysis:
    """Reads one candidate region: ``root`` (the outermost loop put in the
    region) and the loops whose ivs are the region's dims."""

    def __init__(self, root: Operation):
        self.root = root
        self.dims: dict[SSAValue, int] = {}
        self.bounds: list[tuple[Affine, Affine]] = []
        self.dim_loops: list[Operation] = []
        self.symbols: dict[SSAValue, str] = {}
        self.scalars: dict[SSAValue, str] = {}
        self.names: set[str] = set()
        self.nodes: dict[SSAValue, Node] = {}
        self.loads: list[Load] = []
        self.stores: list[Store] = []
        self.order = 0
        self.band_dims: list[int] = []
        self.red_loop: Operation | None = None
        self.escaping: dict[SSAValue, Node] = {}
        self.fills: dict[Operation, FillFold] = {}  # (lower_linalg's) the load of an output a fill before it set to the identity
        self.folded: list[FillFold] = []
        self.roots: dict[object, SSAValue] = {}  # array_root -> the SSA name the nest uses for that array

    # -- names -----------------------------------------------------------
    def _name(self, v: SSAValue, default: str) -> str:
        hint = v.name_hint or ""
        owner = v.owner
        if not hint and isinstance(owner, (arith.IndexCastOp, arith.ExtSIOp, arith.TruncIOp)):
            hint = owner.input.name_hint or ""  # cgeist's `%0 = arith.index_cast %arg1`: the size is %arg1
        elif not hint and isinstance(owner, memref.DimOp) and isinstance(owner.index.owner, arith.ConstantOp):
            # a bound read from an array's shape (convert-linalg-to-loops): %A's dim 0 is A_0
            arr = owner.source.name_hint
            hint = f"{arr}_{owner.index.owner.value.value.data}" if arr else ""
        base = "".join(c if (c.isalnum() or c == "_") else "_" for c in hint)
        if not base or not (base[0].isalpha() or base[0] == "_") or dim_index(base) is not None:
            base = default
        name, i = base, 1
        while name in self.names or dim_index(name) is not None:
            name, i = f"{base}_{i}", i + 1
        self.names.add(name)
        return name

    def inside(self, v: SSAValue) -> bool:
        return self.root.is_ancestor(v.owner)

    def symbol(self, v: SSAValue) -> Affine:
        if v not in self.symbols:
            if not isinstance(v.type, (IndexType, IntegerType)):
                raise Refuse(f"an index is computed from a {v.type} value")
            self.symbols[v] = self._name(v, "s")
        return Affine.of(self.symbols[v])

    # -- index values -------------------------------------------------------
    def aff(self, v: SSAValue) -> Affine:
        if v in self.dims:
            return Affine.of(dim_name(self.dims[v]))
        owner = v.owner
        if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
            return Affine(int(owner.value.value.data))
        if isinstance(owner, (arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.TruncIOp, arith.IndexCastOp)) and _narrow(v.type):
            # i8/i16 arithmetic wraps where the affine form would not ((i8)i for i >= 128):
            # on the host its value is exact (a symbol); inside the nest it is not affine
            if not self.inside(v):
                return self.symbol(v)
            raise Refuse(f"an index computed in {v.type} by '{owner.name}' may wrap (index arithmetic is read as exact in index, i32 and i64 only)")
        if isinstance(owner, (arith.AddiOp, arith.SubiOp)):
            a, b = self.aff(owner.lhs), self.aff(owner.rhs)
            return a + b if isinstance(owner, arith.AddiOp) else a - b
        if isinstance(owner, arith.MuliOp):
            a, b = self.aff(owner.lhs), self.aff(owner.rhs)
            if a.is_constant or b.is_constant:
                return _product(a, b)
            if not self.inside(v):
                return self.symbol(v)
            raise Refuse(f"index product {a} * {b} is not affine")
        if isinstance(owner, (arith.IndexCastOp, arith.ExtSIOp, arith.TruncIOp)):
            if isinstance(v.type, IndexType) and not self.inside(v):
                return self.symbol(v)  # a host size cast to index once (cgeist's i32 sizes): the symbol is the index
            # (casts between index and i32/i64 as cgeist emits them: sizes and loop indices are far from overflow)
            if isinstance(owner.input.type, (IndexType, IntegerType)):
                return self.aff(owner.input)
        if isinstance(owner, affine.ApplyOp):
            return self.map_results(owner.map, owner.mapOperands)[0]
        if not self.inside(v):
            return self.symbol(v)
        what = f"'{owner.name}'" if isinstance(owner, Operation) else "a block argument"
        raise Refuse(f"an index is computed by {what}, which is not affine in the loop indices")

    def expr(self, e: AffineExpr, dims: Sequence[Affine], syms: Sequence[Affine]) -> Affine:
        def binary(e: AffineBinaryOpExpr, a: Affine, b: Affine) -> Affine:
            if e.kind == AffineBinaryOpKind.Add:
                return a + b
            if e.kind == AffineBinaryOpKind.Mul:
                if a.is_constant or b.is_constant:
                    return _product(a, b)
                raise Refuse(f"affine product {a} * {b}")
            if a.is_constant and b.is_constant and b.const > 0:
                x, y = a.const, b.const
                return Affine({AffineBinaryOpKind.Mod: x % y, AffineBinaryOpKind.FloorDiv: x // y, AffineBinaryOpKind.CeilDiv: -(-x // y)}[e.kind])
            raise Refuse(f"'{e.kind.get_token()}' in an index or bound ({e}) has no rectangular domain or affine map")

        return _fold_affine(e, dims, syms, Affine, binary)

    def map_results(self, amap: affine.AffineMapAttr, operands: Sequence[SSAValue]) -> list[Affine]:
        m = amap.data
        ops = [self.aff(o) for o in operands]
        return [self.expr(r, ops[: m.num_dims], ops[m.num_dims :]) for r in m.results]

    # -- loops --------------------------------------------------------------
    def loop_bounds(self, op: Operation) -> list[tuple[Affine, Affine]]:
        """Bounds of the loop's dims (unit steps, one expression each)."""
        if isinstance(op, affine.ForOp):
            if op.step.value.data != 1:
                raise Refuse(f"step {op.step.value.data} (only unit steps map onto a domain)")
            lbs = self.map_results(op.lowerBoundMap, op.lowerBoundOperands)
            ubs = self.map_results(op.upperBoundMap, op.upperBoundOperands)
            if len(lbs) != 1 or len(ubs) != 1:
                raise Refuse("a max/min bound (several bound expressions) is not a rectangular domain")
            return [(lbs[0], ubs[0])]
        if isinstance(op, affine.ParallelOp):
            if op.reductions.data or op.res:
                raise Refuse("affine.parallel with reductions")
            if any(s.value.data != 1 for s in op.steps.data):
                raise Refuse("non-unit steps")
            if not _one_bound_each(op):
                raise Refuse("a max/min bound (several bound expressions) is not a rectangular domain")
            return list(zip(*_parallel_bounds(op, self.map_results)))
        if isinstance(op, (scf.ForOp, scf.ParallelOp)):
            if isinstance(op, scf.ParallelOp) and (op.initVals or op.res):
                raise Refuse("scf.parallel with reductions")
            out = []
            for lb, ub, st in zip(*_scf_bounds(op)):
                s = self.aff(st)
                if not (s.is_constant and s.const == 1):
                    raise Refuse(f"step {s} (only unit steps map onto a domain)")
                out.append((self.aff(lb), self.aff(ub)))
            return out
        raise Refuse(f"'{op.name}' is not a loop")

    def add_loop(self, op: Operation) -> list[int]:
        bounds = self.loop_bounds(op)
        out = []
        for iv, (lo, hi) in zip(_ivs(op), bounds):
            for b in (lo, hi):
                if any(dim_index(n) is not None for n in b.names):
                    raise Refuse(f"a bound ({b}) depends on an enclosing loop of the region: not a rectangular domain")
            if lo.is_constant and hi.is_constant and lo.const > hi.const:
                raise Refuse(f"the loop never runs (bounds {lo} to {hi})")
            d = len(self.bounds)
            self.dims[iv] = d
            self.bounds.append((lo, hi))
            self.dim_loops.append(op)
            out.append(d)
        return out

    # -- values of the body -----------------------------------------------------
    def access(self, op: Operation) -> tuple[SSAValue, AccessMap]:
        if isinstance(op, (affine.LoadOp, affine.StoreOp)):
            array = op.memref
            idx = self.map_results(op.map, op.indices)
            ind: list[tuple[int, Node]] = []
        else:
            array = op.memref  # type: ignore[attr-defined]
            ind = [(p, n) for p, n in enumerate(map(self.indirect, op.indices)) if n is not None]  # type: ignore[attr-defined]
            idx = [Affine(0) if any(p == q for q, _ in ind) else self.aff(i) for p, i in enumerate(op.indices)]  # type: ignore[attr-defined]
        t = array.type
        if not isinstance(t, MemRefType):
            raise Refuse(f"'{op.name}' on a {t}")
        if self.inside(array):
            raise Refuse(f"'{op.name}' on an array allocated inside the loop nest")
        # one array under two names (a memref.cast of it, two get_globals): the region and its dependence
        # test would take them for two arrays, and a carried dependence through them
        # would go unseen (the loops stay on the host, which runs them in order)
        other = self.roots.setdefault(array_root(array), array)
        if other is not array:
            raise Refuse(f"{_array_label(other)} and {_array_label(array)} are one array (a 'memref.cast' of it, or 'memref.get_global's of one global)")
        if len(idx) > stream.MAX_ACCESS_RANK:
            raise Refuse(f"'{op.name}' of a rank-{len(idx)} array (streams reach up to {stream.MAX_ACCESS_RANK} dims)")
        if not stream.is_scalar_type(t.element_type):
            raise Refuse(f"'{op.name}' of {t.element_type} elements")
        return array, AccessMap(tuple(idx)), tuple(ind)

    def indirect(self, v: SSAValue) -> Load | None:
        """An index that is an integer loaded in this body (through casts): an
        indirect access (NSC §II-B, ``X[idx[r]]``), the index stream read as is."""
        while isinstance(v.owner, (arith.IndexCastOp, arith.ExtSIOp)) and isinstance(v.owner.input.type, IntegerType):
            v = v.owner.input
        n = self.nodes.get(v)
        return n if isinstance(n, Load) and isinstance(n.type, IntegerType) else None

    def node(self, v: SSAValue) -> Node:
        if v in self.nodes:
            return self.nodes[v]
        if v in self.dims or (isinstance(v.type, IndexType) and self.inside(v)):
            try:
                moves = v in self.dims or any(dim_index(n) is not None for n in self.aff(v).names)
            except Refuse:
                moves = False
            if moves:
                raise Refuse("a loop index is used as a value (streams carry array elements, not their coordinates)")
            raise Refuse(f"an index value computed by '{v.owner.name if isinstance(v.owner, Operation) else 'a block argument'}' in the nest is used as data (streams carry integer and float elements, not index: compute it in i32/i64)")
        owner, outside = v.owner, not self.inside(v)
        if outside and (isinstance(v.type, MemRefType) or not stream.is_scalar_type(v.type)):
            raise Refuse(f"a {v.type} value from outside the nest is used as a value")
        if isinstance(owner, arith.ConstantOp):
            n: Node = Const(v.type, owner)
        elif outside:
            if v not in self.scalars:
                self.scalars[v] = self._name(v, "x")
            n = Scalar(v.type, v)
        elif isinstance(owner, Operation) and _is_compute_op(owner) and len(owner.results) == 1:
            n = Op(v.type, owner, [self.node(o) for o in owner.operands])
        else:
            what = f"'{owner.name}'" if isinstance(owner, Operation) else "a block argument"
            raise Refuse(f"a value computed by {what} inside the nest")
        self.nodes[v] = n
        return n

    def body(self, ops: Sequence[Operation], in_reduction: bool = False) -> None:
        """Read the innermost body in program order (loads, stores, one reduction loop)."""
        forward: dict[tuple[int, AccessMap], Node] = {}  # same-iteration store -> load forwarding
        unconditional: set[tuple[int, AccessMap]] = set()  # cells this body reads or writes at every point
        speculated: list[tuple[Load, Operation]] = []  # loads on one side of an scf.if, read as a select
        for op in ops:
            if isinstance(op, (affine.LoadOp, memref.LoadOp)):
                ld = self.load(op, forward)
                if not ld.ind:
                    unconditional.add((id(ld.array), ld.amap))
            elif isinstance(op, (affine.StoreOp, memref.StoreOp)):
                if in_reduction:
                    raise Refuse(f"'{op.name}' inside a reduction loop")
                array, amap, ind = self.access(op)
                value = self.node(op.value)
                forward = {k: n for k, n in forward.items() if k[0] != id(array)}
                forward[(id(array), amap, ind)] = value
                self.stores.append(Store(array, amap, value, self.order, op, ind))
                self.order += 1
                if not ind:
                    unconditional.add((id(array), amap))
            elif isinstance(op, (affine.ForOp, scf.ForOp)) and op.results and not in_reduction:
                self.reduction_loop(op)
            elif _is_loop(op):
                raise Refuse(f"the body of the innermost loop holds another '{op.name}' (not perfectly nested)")
            elif isinstance(op, scf.IfOp) and op.results:
                self.if_select(op, forward, speculated)
            elif _is_pure_scalar_op(op):
                continue  # read on use
            else:
                raise Refuse(f"'{op.name}' in the loop body")
        for ld, where in speculated:
            why = None if (id(ld.array), ld.amap) in unconditional else self.unproved_bounds(ld)
            if why is not None:
                raise Refuse(f"the 'scf.if' at line {_line(where)} loads {_array_label(ld.array)}[{', '.join(map(str, ld.amap.results))}] on one side only: a select evaluates both sides, and {why}")

    def load(self, op: Operation, forward: dict) -> Load:
        """A load of the body (the stored value when this iteration stored that cell before)."""
        array, amap, ind = self.access(op)
        fwd = forward.get((id(array), amap, ind))
        if fwd is not None:
            self.nodes[op.results[0]] = fwd
            return Load(op.results[0].type, array, amap, -1, op, ind)  # (the cell is written at every point: in bounds)
        ld = Load(op.results[0].type, array, amap, self.order, op, ind)
        self.order += 1
        self.loads.append(ld)
        self.nodes[op.results[0]] = ld
        return ld

    def if_select(self, op: scf.IfOp, forward: dict, speculated: list[tuple[Load, Operation]]) -> None:
        """``scf.if`` yielding values, each side loads and arithmetic only (``x[i] if
        c else y[i]``): both sides evaluated and ``arith.select``ed, as a stream
        body must (it has no control flow).  Safe only if neither side can fail
        where the program would not have run it: no integer division by a
        divisor that may be 0 or -1, no indirect load, and every load in bounds
        at every point of the domain (checked by ``body`` once it has read all
        the accesses, ``unproved_bounds``)."""
        cond = self.node(op.cond)
        sides = []
        for region in (op.true_region, op.false_region):
            blk = region.block
            for o in list(blk.ops)[:-1]:
                if isinstance(o, (affine.LoadOp, memref.LoadOp)):
                    ld = self.load(o, forward)
                    if ld.ind:
                        raise Refuse(f"the 'scf.if' at line {_line(op)} loads at an index loaded from memory on one side only: a select evaluates both sides, and that index may be out of bounds")
                    if ld.order >= 0:
                        speculated.append((ld, op))
                elif isinstance(o, scf.IfOp) and o.results:
                    self.if_select(o, forward, speculated)
                elif _is_pure_scalar_op(o):
                    if _may_trap(o):
                        raise Refuse(f"the 'scf.if' at line {_line(op)} holds '{o.name}' by a divisor that may be 0 or -1 on one side only: a select evaluates both sides")
                else:
                    raise Refuse(f"'{o.name}' in a branch of the 'scf.if' at line {_line(op)} (a select of its sides takes loads and arithmetic only)")
            sides.append(list(blk.last_op.operands))  # type: ignore[union-attr]
        for res, t, e in zip(op.results, *sides):
            tn, en = self.node(t), self.node(e)
            self.nodes[res] = tn if tn is en else Op(res.type, _select_op(res.type), [cond, tn, en])

    def unproved_bounds(self, ld: Load) -> str | None:
        """Why ``ld``'s indices are not proved inside its array at every point of
        the domain (None: proved).  Each index's least and greatest value over
        the box (a coefficient's sign picks the bound) against 0 and the array's
        size: a static size, or the symbol a ``memref.dim`` of that array gave."""
        shape = ld.array.type.get_shape()  # type: ignore[attr-defined]
        for p, e in enumerate(ld.amap.results):
            lo = hi = Affine(e.const)
            for n, c in e.terms:
                d = dim_index(n)
                if d is None:
                    lo, hi = lo + Affine.of(n) * c, hi + Affine.of(n) * c
                else:
                    first, last = self.bounds[d][0], self.bounds[d][1] - 1
                    lo, hi = lo + (first if c > 0 else last) * c, hi + (last if c > 0 else first) * c
            if not self._nonnegative(lo):
                return f"its index {p} ({e}) is not proved >= 0 over the domain (its least value is {lo})"
            size = Affine(shape[p]) if shape[p] != DYNAMIC_INDEX else self._dim_symbol(ld.array, p)
            if size is None:
                return f"its dim {p} has a dynamic size that no bound of the domain is read from (memref.dim)"
            if not self._nonnegative(size - 1 - hi):
                return f"its index {p} ({e}) is not proved < its size {size} over the domain (its greatest value is {hi})"
        return None

    def _dim_symbol(self, array: SSAValue, p: int) -> Affine | None:
        for v, nm in self.symbols.items():
            o = v.owner
            if isinstance(o, memref.DimOp) and array_root(o.source) == array_root(array) and isinstance(o.index.owner, arith.ConstantOp) and o.index.owner.value.value.data == p:
                return Affine.of(nm)
        return None

    def _nonnegative(self, x: Affine) -> bool:
        """``x >= 0`` for every value of its symbols: a constant >= 0 plus sizes (memref.dim) with positive coefficients."""
        sizes = {nm for v, nm in self.symbols.items() if isinstance(v.owner, memref.DimOp)}
        return x.const >= 0 and all(c > 0 and n in sizes for n, c in x.terms)

    def reduction_loop(self, op: Operation) -> None:
        """An ``iter_args`` accumulation: each result is init op (fold of the body's value).
        Nested ``iter_args`` loops that hand their accumulators down unchanged
        (``for i iter_args(a = init) { for j iter_args(b = a) {...} yield }``, as
        cgeist prints a sum over a 2-D array) are one fold over all their dims."""
        if self.red_loop is not None:
            raise Refuse("two reduction loops in one body")
        self.red_loop = op
        rdims = self.add_loop(op)
        inner = op
        while (nxt := _chained_loop(inner)) is not None:
            rdims += self.add_loop(nxt)
            inner = nxt
        blk = _body(inner)
        accs = list(blk.args[1:])
        inits = list(op.inits if isinstance(op, affine.ForOp) else op.iter_args)  # type: ignore[attr-defined]
        self.body(_ops_of(blk), in_reduction=True)
        term = blk.last_op
        assert term is not None
        if inner is op and self.arg_reduction(op, rdims[0], accs, inits, list(term.operands)):
            return
        for j, (acc, init, y, res) in enumerate(zip(accs, inits, term.operands, op.results)):
            fold = _fold_of(y, acc)
            if fold is None:
                raise Refuse(f"iter_arg #{j} of the reduction loop is not an add/mul/min/max accumulation")
            comb, kind, pos, x, nan = fold
            if nan is not None:
                raise Refuse(f"iter_arg #{j} of the reduction loop is {nan}")
            # the accumulator is a block argument inside the nest: node() refuses any other use of it
            body = self.node(x)
            init_n = self.node(init)
            if comb.name in _NUM_MINMAX and not _no_nans(comb):
                body = _drop_nans(body, kind)
                if not _is_identity(init_n, kind) and not (isinstance(init_n, Const) and init_n.op.value.value.data == init_n.op.value.value.data):
                    # maxnum(NaN, fold) is the fold's -inf where the loop keeps NaN (every element NaN, or none)
                    raise Refuse(f"iter_arg #{j} of the reduction loop is a '{comb.name}' fold from a value that may be NaN (the loop keeps it when every element is NaN, the fold of the region gives its identity)")
            red = Red(y.type, kind, frozenset(rdims), body, op)
            if _is_identity(init_n, kind):
                self.nodes[res] = red
            else:
                args: list[Node] = [red, red]
                args[pos] = init_n
                if comb.name == "arith.select":  # (its compare's result made the fold's pick: the host combines with the kind's op)
                    comb = _minmax_op(kind, y.type)
                self.nodes[res] = Op(y.type, comb, args)

    def arg_reduction(self, op: Operation, r: int, accs: list[SSAValue], inits: list[SSAValue], ys: list[SSAValue]) -> bool:
        """The argmin (argmax) loop ``if (x < best) {best = x; at = i;}``
        (iter_args best = +inf, at = the first index; strict ``<``: the first
        index on ties) as ``stream.reduce argmin``.  Only the index may be used,
        and the compare must say ``fastmath<nnan>`` (C's -ffinite-math-only):
        the loop never picks a NaN, the reduction (like numpy's) picks the first."""
        if len(accs) != 2 or not all(isinstance(y.owner, arith.SelectOp) for y in ys):
            return False
        (sv, si), (bv, bi) = [y.owner for y in ys], accs  # type: ignore[misc]
        cmp, cast = sv.cond.owner, si.lhs.owner
        kind = {4: "argmin", 2: "argmax"}.get(cmp.predicate.value.data if isinstance(cmp, arith.CmpfOp) else -1)  # (cmpf olt, ogt)  # type: ignore[union-attr]
        while isinstance(cast, (arith.IndexCastOp, arith.ExtSIOp)):
            cast = cast.input.owner if cast.input is not _ivs(op)[0] else None  # type: ignore[assignment]
        x, init_v, init_i = sv.lhs, inits[0].owner, inits[1].owner
        lo = self.bounds[r][0]
        if (kind is None or cast is not None or si.cond is not sv.cond or list(cmp.operands) != [x, bv] or sv.rhs is not bv or si.rhs is not bi  # type: ignore[union-attr]
                or bv.uses.get_length() != 2 or bi.uses.get_length() != 1 or op.results[0].uses.get_length()
                or not isinstance(init_v, arith.ConstantOp) or init_v.value.value.data != (float("inf") if kind == "argmin" else float("-inf"))  # type: ignore[union-attr]
                or not (isinstance(init_i, arith.ConstantOp) and lo.is_constant and init_i.value.value.data == lo.const)):  # type: ignore[union-attr]
            raise Refuse("an argmin/argmax loop that is not 'if (x < best) {best = x; at = i;}' from best = +inf (-inf), at = the loop's first index, with only the index used")
        if not {f.value for f in cmp.fastmath.data} & {"nnan", "fast"}:  # type: ignore[union-attr]
            raise Refuse("an argmin/argmax loop whose compare is not fastmath<nnan>: the loop skips a NaN, stream.reduce picks it")
        self.nodes[op.results[1]] = Red(si.result.type, kind, frozenset({r}), self.node(x), op)
        return True


class ExtractError(DiagnosticException):
    """Host code the pass cannot lower (one line, with the op's location)."""


# ---------------------------------------------------------------------------
# Statements -> reductions (which loops fold, which stores accumulate)
# ---------------------------------------------------------------------------


def array_root(v: SSAValue) -> object:
    """Which array a memref value is: through ``memref.cast``s (which only change
    its type), and one array for every ``memref.get_global`` of the same global."""
    while isinstance(v.owner, memref.CastOp):
        v = v.owner.source
    if isinstance(v.owner, memref.GetGlobalOp):
        return ("memref.global", v.owner.name_.root_reference.data)
    return v


def _array_label(v: SSAValue) -> str:
    return f"%{v.name_hint}" if v.name_hint else "an array"


def classify(a: Analysis) -> frozenset[int]:
    """Turn ``X[m] = X[m] op f`` (``m`` invariant in some loops) into a fold of
    ``f`` over those loops; check the stores and reductions fit one region;
    return the reduction dims."""
    band = frozenset(a.band_dims)
    if not a.stores and not a.escaping:
        raise Refuse("the loop nest stores nothing and yields nothing")
    for s in a.stores:
        inv = band - s.amap.dims_used()
        if s.ind:
            _atomic(a, s)
        if s.ind or not inv:
            continue
        v = s.value
        loops = ", ".join(_line(a.dim_loops[d]) for d in sorted(inv))
        pos = _updated_cell(s)
        if pos is None:
            raise Refuse(f"the store to {_array_label(s.array)} does not move with the loop(s) at line {loops} and is not an add/mul/min/max accumulation (an output dependence)")
        f = v.args[1 - pos]
        for n in _walk_nodes(f):
            if isinstance(n, Red):
                raise Refuse("a reduction nested in an accumulation")
            if isinstance(n, Load) and n.array is s.array:
                raise Refuse(f"the accumulation into {_array_label(s.array)} reads {_array_label(s.array)} in its summand")
        if sum(1 for t in a.stores if t.array is s.array) > 1:
            raise Refuse(f"{_array_label(s.array)} is accumulated and stored again in one body")
        args = list(v.args)
        args[1 - pos] = Red(v.type, _REDUCE_KIND[v.op.name], frozenset(inv), f, v.op)
        fill = a.fills.get(v.args[pos].src)  # type: ignore[union-attr]
        if fill is not None and fill.acc_root is a.root:
            # the whole linalg op is the region, so it folds from the fill's value (the identity): the fold alone
            s.value = args[1 - pos]
            a.folded.append(fill)
        else:
            s.value = Op(v.type, v.op, args)
    dims = {n.dims for n in _reds_of(a)}
    if len(dims) > 1:
        raise Refuse("reductions over different loops in one body")
    red = next(iter(dims)) if dims else frozenset()
    if red and any(s.atomic for s in a.stores):
        raise Refuse("an update at a loaded index beside a reduction in one body")
    if red & band:
        # the folded loops enclose every store: a store that is not an
        # accumulation happens only when their range is not empty, which
        # the temporary (or the host) form cannot promise
        for s in a.stores:
            if not any(isinstance(n, Red) for n in _walk_nodes(s.value)):
                raise Refuse(f"the store to {_array_label(s.array)} sits in the accumulation loop but is not an accumulation")
    alld = frozenset(range(len(a.bounds)))
    for s in a.stores:
        used = s.amap.dims_used()
        if not s.atomic and (used & red or used != alld - red):
            raise Refuse(f"the store to {_array_label(s.array)} does not move with every parallel loop of the nest (an output dependence)")
        for n in _walk_nodes(s.value, into_reductions=False):
            if isinstance(n, Load) and n.amap.dims_used() & red:
                raise Refuse("a value loaded inside the reduction is used outside it")
    return red


def _updated_cell(s: Store) -> int | None:
    """Which operand of the stored value ``X[m] op f`` (op in add/mul/min/max)
    is the load of the stored cell ``X[m]`` (at the same loaded indices); None
    if the value is not such an update."""
    v = s.value
    if not (isinstance(v, Op) and _reduce_kind(v.op) is not None and len(v.args) == 2):
        return None
    ind = [(p, id(n)) for p, n in s.ind]
    return next((i for i, x in enumerate(v.args) if isinstance(x, Load) and x.array is s.array and x.amap == s.amap and [(p, id(n)) for p, n in x.ind] == ind), None)


def _atomic(a: Analysis, s: Store) -> None:
    """``X[idx[p]] = X[idx[p]] op f`` (the cell chosen by a loaded index): in
    any order the same updates, i.e. a ``stream.atomic`` of ``f`` (NSC's
    indirect atomics).  A plain store at a loaded index is refused: with
    repeated indices the last writer would depend on the order."""
    pos = _updated_cell(s)
    kind = _REDUCE_KIND[s.value.op.name] if pos is not None else None  # type: ignore[union-attr]
    if kind not in stream.ATOMIC_KINDS:
        raise Refuse(f"the store to {_array_label(s.array)} at an index loaded from memory is not an add/min/max update of that cell (the last writer would depend on the order)")
    f = s.value.args[1 - pos]  # type: ignore[union-attr, operator]
    if any(isinstance(n, Load) and n.array is s.array for n in _walk_nodes(f)) or sum(t.array is s.array for t in a.stores) > 1:
        raise Refuse(f"the update of {_array_label(s.array)} at a loaded index reads or stores {_array_label(s.array)} elsewhere")
    s.value, s.atomic = f, kind


# ---------------------------------------------------------------------------
# Host code: affine expressions as arith ops
# ---------------------------------------------------------------------------


class HostOps:
    """Ops to insert on the host (before the nest, and after it)."""

    def __init__(self) -> None:
        self.before: list[Operation] = []
        self.after: list[Operation] = []
        self.consts: dict[int, SSAValue] = {}

    def const(self, v: int) -> SSAValue:
        if v not in self.consts:
            self.consts[v] = _index_const(self.before, v)
        return self.consts[v]

    def emit(self, op: Operation, after: bool = False) -> SSAValue:
        (self.after if after else self.before).append(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def index(self, v: SSAValue) -> SSAValue:
        """``v`` as an index (a cast before the nest if it is an integer)."""
        return v if isinstance(v.type, IndexType) else self.emit(arith.IndexCastOp(v, IndexType()))

    def symbols(self, a: Analysis) -> dict[str, SSAValue]:
        """The analysis's symbols by name, as index values."""
        return {nm: self.index(v) for v, nm in a.symbols.items()}

    def affine(self, e: Affine, env: dict[str, SSAValue], after: bool = False) -> SSAValue:
        acc: SSAValue | None = None
        for n, c in e.terms:
            t = env[n]
            if c != 1:
                t = self.emit(arith.MuliOp(t, self.const(c)), after)
            acc = t if acc is None else self.emit(arith.AddiOp(acc, t), after)
        if acc is None:
            return self.const(e.const)
        if e.const:
            acc = self.emit(arith.AddiOp(acc, self.const(e.const)), after)
        return acc


def _put(out: list[Operation], op: Operation) -> SSAValue:
    out.append(op)
    return op.results[0]


def _index_const(out: list[Operation], v: int) -> SSAValue:
    return _put(out, arith.ConstantOp(IntegerAttr.from_index_int_value(v)))


_HOST_BINARY = {AffineBinaryOpKind.Add: arith.AddiOp, AffineBinaryOpKind.Mul: arith.MuliOp, AffineBinaryOpKind.FloorDiv: arith.FloorDivSIOp}


def host_affine_expr(e: AffineExpr, dims: Sequence[SSAValue], syms: Sequence[SSAValue], out: list[Operation]) -> SSAValue:
    """``e`` as arith ops (affine ``mod`` is non-negative, ``floordiv`` rounds down)."""

    def binary(x: AffineBinaryOpExpr, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        if x.kind in _HOST_BINARY:
            return _put(out, _HOST_BINARY[x.kind](lhs, rhs))
        if x.kind == AffineBinaryOpKind.CeilDiv:  # ceil(a/b) = -floor(-a/b)
            fl = _put(out, arith.FloorDivSIOp(_put(out, arith.SubiOp(_index_const(out, 0), lhs)), rhs))
            return _put(out, arith.SubiOp(_index_const(out, 0), fl))
        # a mod b = a - b * floor(a/b)
        mul = _put(out, arith.MuliOp(rhs, _put(out, arith.FloorDivSIOp(lhs, rhs))))
        return _put(out, arith.SubiOp(lhs, mul))

    return _fold_affine(e, dims, syms, lambda v: _index_const(out, v), binary)


def _host_map(amap: affine.AffineMapAttr, operands: Sequence[SSAValue], out: list[Operation]) -> list[SSAValue]:
    m = amap.data
    ops = list(operands)
    return [host_affine_expr(r, ops[: m.num_dims], ops[m.num_dims :], out) for r in m.results]


def _fold(values: list[SSAValue], cls: type[Operation], out: list[Operation]) -> SSAValue:
    return functools.reduce(lambda acc, v: _put(out, cls(acc, v)), values)


def _scf_region(region: Region) -> Region:
    """The region's contents moved to a new region, its affine/scf.reduce terminator replaced by scf.yield."""
    term = region.blocks[0].last_op if region.blocks else None
    if term is not None and term.name in ("affine.yield", "scf.reduce"):
        if term.name == "scf.reduce" and term.operands:
            raise ExtractError(f"{location_text(term)}: 'scf.parallel' with reductions cannot stay on the host")
        Rewriter.replace_op(term, scf.YieldOp(*term.operands))
    return Rewriter.move_region_contents_to_new_regions(region)


def _parallel_as_loops(op: scf.ParallelOp | affine.ParallelOp, lbs: Sequence[SSAValue], ubs: Sequence[SSAValue], steps: Sequence[SSAValue], out: Sequence[Operation] = ()) -> None:
    """A parallel loop (after the bound ops ``out``) as nested ``scf.for`` loops,
    carrying the accumulators of an ``scf.parallel``'s reductions (a sequential
    order is one of its legal executions)."""
    body = op.body.blocks[0]
    red = body.last_op
    inits = list(op.initVals) if isinstance(op, scf.ParallelOp) else []
    ivs = list(body.args)
    blocks = [Block(arg_types=[IndexType(), *(v.type for v in inits)]) for _ in ivs]
    # the innermost block: the body, then each reduction's combiner on (accumulator, value)
    inner = blocks[-1]
    for o in list(body.ops)[:-1]:  # (all but the terminator, red)
        o.detach()
        inner.add_op(o)
    new_accs = []
    for j, (r, v) in enumerate(zip(red.reductions, red.args) if isinstance(red, scf.ReduceOp) else ()):
        rb = r.blocks[0]
        mapper: dict[SSAValue, SSAValue] = {rb.args[0]: inner.args[1 + j], rb.args[1]: v}
        *combine, ret = rb.ops
        assert isinstance(ret, scf.ReduceReturnOp)
        for o in combine:
            inner.add_op(o.clone(value_mapper=mapper))  # (clone maps o's results to the copy's in mapper)
        new_accs.append(mapper.get(ret.result, ret.result))
    inner.add_op(scf.YieldOp(*new_accs))
    loop: scf.ForOp | None = None
    for k in reversed(range(len(ivs))):
        if loop is not None:
            blocks[k].add_ops([loop, scf.YieldOp(*loop.results)])
        loop = scf.ForOp(lbs[k], ubs[k], steps[k], inits if k == 0 else list(blocks[k - 1].args[1:]), Region(blocks[k]))
        loop.location = op.location
    for k, iv in enumerate(ivs):
        iv.replace_all_uses_with(blocks[k].args[0])
    assert loop is not None
    Rewriter.replace_op(op, [*out, loop], list(loop.results))


def _affine_parallel_as_fors(op: affine.ParallelOp) -> None:
    """An ``affine.parallel`` with ``reduce`` as the ``affine.for`` nest with
    ``iter_args`` that folds the same values in one legal order (the sequential
    one), each accumulator starting from its kind's identity as upstream's
    ``--lower-affine`` starts it: the analysis reads that nest's fold as a
    ``stream.reduce`` (``reduction_loop``), and the host runs it as ``scf.for``.
    Each iv's bound group is the ``max``/``min`` bound map of its loop."""
    from infs.dialects.upstream_syntax import reduction_combiner, reduction_identity, reduction_kind

    kinds = [reduction_kind(a) for a in op.reductions.data]
    types = [r.type for r in op.res]
    out: list[Operation] = []
    inits: list[SSAValue] = []
    combiners = []
    for k, t in zip(kinds, types):
        ident, comb = reduction_identity(k, t), reduction_combiner(k)
        if ident is None or comb is None:
            raise ExtractError(f"{location_text(op)}: 'affine.parallel' reduce (\"{k}\") of {t} has no identity to start from (upstream's --lower-affine refuses it too)")
        inits.append(_put(out, arith.ConstantOp(ident)))
        combiners.append(comb)
    body = op.body.blocks[0]
    ivs = list(body.args)
    lm, um = op.lowerBoundsMap.data, op.upperBoundsMap.data
    n = lm.num_dims + lm.num_symbols
    lops, uops = list(op.map_operands[:n]), list(op.map_operands[n:])

    def bound(m: AffineMap, groups: Sequence[int], k: int) -> affine.AffineMapAttr:
        start = sum(groups[:k])
        return affine.AffineMapAttr(AffineMap(m.num_dims, m.num_symbols, m.results[start : start + groups[k]]))

    lg, ug = op.lowerBoundsGroups.get_values(), op.upperBoundsGroups.get_values()
    blocks = [Block(arg_types=[IndexType(), *types]) for _ in ivs]
    inner = blocks[-1]
    y = body.last_op
    assert isinstance(y, affine.YieldOp)
    for o in list(body.ops)[:-1]:
        o.detach()
        inner.add_op(o)
    folded = [_put_in(inner, comb(acc, v)) for comb, acc, v in zip(combiners, inner.args[1:], y.operands)]
    inner.add_op(affine.YieldOp.get(*folded))
    loop: affine.ForOp | None = None
    for k in reversed(range(len(ivs))):
        if loop is not None:
            blocks[k].add_ops([loop, affine.YieldOp.get(*loop.results)])
        accs = inits if k == 0 else list(blocks[k - 1].args[1:])
        loop = affine.ForOp.from_region(lops, uops, accs, types, bound(lm, lg, k), bound(um, ug, k), Region(blocks[k]), op.steps.data[k].value.data)
        loop.location = op.location
    for k, iv in enumerate(ivs):
        iv.replace_all_uses_with(blocks[k].args[0])
    assert loop is not None
    Rewriter.replace_op(op, [*out, loop], list(loop.results))


def _put_in(block: Block, op: Operation) -> SSAValue:
    block.add_op(op)
    return op.results[0]


def _grouped(values: list[SSAValue], groups: Sequence[int], cls: type[Operation], out: list[Operation]) -> list[SSAValue]:
    """An ``affine.parallel``'s bound values per iv: each group folded by ``cls`` (max for lower bounds, min for upper)."""
    res, i = [], 0
    for g in groups:
        res.append(_fold(values[i : i + g], cls, out))
        i += g
    return res


def lower_host_affine(root: Operation) -> None:
    """What stays on the host, in scf/arith/memref (the host interpreter's dialects)."""
    todo = [op for op in root.walk() if op.dialect_name() == "affine" or isinstance(op, scf.ParallelOp)]
    # inner ops first: a loop's body is lowered before the loop is rebuilt around it
    for op in reversed(todo):
        if op.parent is None:
            continue
        out: list[Operation] = []
        if isinstance(op, (affine.ApplyOp, affine.MinOp)):
            # (an apply's map has one result, which is the min of it alone)
            vals = _host_map(op.map, op.mapOperands if isinstance(op, affine.ApplyOp) else op.arguments, out)
            Rewriter.replace_op(op, out, [_fold(vals, arith.MinSIOp, out)])
        elif op.name == "affine.max":  # (infs.dialects.upstream_syntax.AffineMaxOp: xDSL 0.74 has none)
            vals = _host_map(op.properties["map"], op.operands, out)
            Rewriter.replace_op(op, out, [_fold(vals, arith.MaxSIOp, out)])
        elif isinstance(op, (affine.LoadOp, affine.StoreOp)):
            idx = _host_map(op.map, op.indices, out)
            new_mem = memref.LoadOp.get(op.memref, idx) if isinstance(op, affine.LoadOp) else memref.StoreOp.get(op.value, op.memref, idx)
            new_mem.location = op.location  # (a run-time error of the access names the user's line)
            Rewriter.replace_op(op, [*out, new_mem])
        elif isinstance(op, affine.ForOp):
            lb = _fold(_host_map(op.lowerBoundMap, op.lowerBoundOperands, out), arith.MaxSIOp, out)
            ub = _fold(_host_map(op.upperBoundMap, op.upperBoundOperands, out), arith.MinSIOp, out)
            step = _index_const(out, op.step.value.data)
            new = scf.ForOp(lb, ub, step, list(op.inits), _scf_region(op.body))
            new.location = op.location
            Rewriter.replace_op(op, [*out, new], list(new.results))
        elif isinstance(op, (affine.ParallelOp, scf.ParallelOp)):
            if isinstance(op, affine.ParallelOp):
                if op.reductions.data or op.res:
                    raise ExtractError(f"{location_text(op)}: 'affine.parallel' with reductions cannot stay on the host")
                # a bound group (as affine-loop-tile and affine-parallelize print them) is the max
                # of its lower bound expressions and the min of its upper ones, per iv
                lb_all, ub_all = _parallel_bounds(op, lambda m, operands: _host_map(m, operands, out))
                lbs = _grouped(lb_all, op.lowerBoundsGroups.get_values(), arith.MaxSIOp, out)
                ubs = _grouped(ub_all, op.upperBoundsGroups.get_values(), arith.MinSIOp, out)
                steps = [_index_const(out, s.value.data) for s in op.steps.data]
            else:
                lbs, ubs, steps = map(list, _scf_bounds(op))
            _parallel_as_loops(op, lbs, ubs, steps, out)
        elif isinstance(op, affine.IfOp):
            s = op.condition.data
            args = list(op.args)
            conds = []
            for con in s.constraints:
                e = host_affine_expr(con.lhs - con.rhs, args[: s.num_dims], args[s.num_dims :], out)
                pred = {"==": "eq", ">=": "sge", "<=": "sle"}[con.kind.value]
                conds.append(_put(out, arith.CmpiOp(e, _index_const(out, 0), pred)))
            if not conds:
                conds.append(_put(out, arith.ConstantOp(IntegerAttr(1, IntegerType(1)))))
            cond = _fold(conds, arith.AndIOp, out)
            then_r, else_r = _scf_region(op.then_region), _scf_region(op.else_region)
            new = scf.IfOp(cond, [r.type for r in op.res], then_r, else_r if else_r.blocks else None)
            new.location = op.location
            Rewriter.replace_op(op, [*out, new], list(new.results))
        elif isinstance(op, affine.YieldOp):
            continue  # rewritten with its loop
        else:
            raise ExtractError(f"{location_text(op)}: '{op.name}' cannot stay on the host (no lowering to scf/memref)")


# ---------------------------------------------------------------------------
# Building regions
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class TmpLoad(Node):
    """Region 2 of a two-phase accumulation: the fold, read back from its temporary."""

    array: SSAValue
    amap: AccessMap


class RegionBuilder:
    """One ``stream.region`` over ``dims`` (dims of the analysis, in order)."""

    def __init__(self, a: Analysis, host: HostOps, dims: Sequence[int], red: frozenset[int]):
        self.a, self.host = a, host
        self.dims = list(dims)
        self.env = {dim_name(d): Affine.of(dim_name(i)) for i, d in enumerate(self.dims)}
        self.domain = Domain(tuple(a.bounds[d] for d in self.dims))
        self.iterators = ["reduction" if d in red else "parallel" for d in self.dims]
        self.memo: dict[int, SSAValue] = {}
        self.block: Block | None = None

    def build(self, stores: list[Store], loads: list[Load], results: list[Node]) -> stream.RegionOp:
        """``stores`` (maps in analysis dims); ``loads``: every load the values use."""
        a = self.a
        used_syms: set[str] = set(self.domain.names)
        nodes: list[Node] = []
        seen: set[int] = set()
        for s in stores:
            used_syms |= s.amap.symbols_used()
            for v in [s.value, *(x for _, x in s.ind)]:
                nodes.extend(_walk_nodes(v, seen))
        for r in results:
            nodes.extend(_walk_nodes(r, seen))
        accesses = sorted([(s.order, s.array) for s in stores] + [(n.order, n.array) for n in nodes if isinstance(n, Load)], key=lambda t: t[0])
        arrays = list(dict.fromkeys([*(x for _, x in accesses), *(n.array for n in nodes if isinstance(n, TmpLoad))]))
        used_syms.update(*(n.amap.symbols_used() for n in nodes if isinstance(n, (Load, TmpLoad))))
        by_name = {nm: v for v, nm in a.symbols.items()}
        sym_names = sorted(used_syms)
        sym_vals = [self.host.index(by_name[nm]) for nm in sym_names]
        data = list(dict.fromkeys(n.value for n in nodes if isinstance(n, Scalar)))
        names = sym_names + [a.scalars[v] for v in data]
        scalar_vals = sym_vals + data
        block = Block(arg_types=[x.type for x in arrays] + [v.type for v in scalar_vals])
        for arg, x in zip(block.args, [*arrays, *scalar_vals]):
            arg.name_hint = x.name_hint  # (the dependence test's messages name arrays by them)
        self.block = block
        self.array_arg = {x: block.args[i] for i, x in enumerate(arrays)}
        self.scalar_arg = {v: block.args[len(arrays) + len(sym_vals) + i] for i, v in enumerate(data)}
        used_loads = [ld for ld in loads if any(ld is n for n in nodes)]
        for s in sorted([*used_loads, *stores], key=lambda x: (x.order, isinstance(x, Store))):
            if isinstance(s, Load):
                self.value(s)
            else:
                where = (self.array_arg[s.array], s.amap.substitute(self.env), [self.value(x) for _, x in s.ind], [p for p, _ in s.ind])
                st = stream.AtomicOp(s.atomic, self.stream(s.value), *where) if s.atomic else stream.StoreOp(self.stream(s.value), *where)
                if s.src is not None:
                    st.location = s.src.location
                block.add_op(st)
        block.add_op(stream.YieldOp(*[self.value(r) for r in results]))
        return stream.RegionOp(arrays, scalar_vals, names, self.domain, self.iterators, Region(block), [r.type for r in results])

    # -- values -----------------------------------------------------------
    def add(self, op: Operation) -> SSAValue:
        assert self.block is not None
        self.block.add_op(op)
        return op.results[0]

    def value(self, n: Node) -> SSAValue:
        if id(n) in self.memo:
            return self.memo[id(n)]
        if isinstance(n, (Load, TmpLoad)):
            ind = n.ind if isinstance(n, Load) else ()
            op = stream.LoadOp(self.array_arg[n.array], n.amap.substitute(self.env), [self.value(x) for _, x in ind], [p for p, _ in ind])
            if isinstance(n, Load):
                op.location = n.src.location
            v = self.add(op)
        elif isinstance(n, Red):
            body = self.stream(n.body)
            rdims = [i for i, d in enumerate(self.dims) if d in n.dims]
            whole = len(rdims) == len(self.dims)
            red = stream.ReduceOp(n.kind, body, rdims, n.type if whole else stream.StreamType(n.type))
            if n.src is not None:
                red.location = n.src.location
            v = self.add(red)
        elif isinstance(n, Scalar):
            v = self.scalar_arg[n.value]
        else:
            v = self.compute(n)
        self.memo[id(n)] = v
        return v

    def stream(self, n: Node) -> SSAValue:
        v = self.value(n)
        if isinstance(v.type, stream.StreamType):
            return v
        # a scalar (a region scalar) stored at every point: a compute that yields it
        blk = Block(arg_types=[v.type])
        blk.add_op(stream.YieldOp(blk.args[0]))
        return self.add(stream.ComputeOp([v], stream.StreamType(v.type), Region(blk)))

    def compute(self, n: Node) -> SSAValue:
        def leaves_of(x: Node, seen: set[int]) -> list[Node]:
            if id(x) in seen:
                return []
            seen.add(id(x))
            if isinstance(x, (Load, TmpLoad, Red, Scalar)) or (id(x) in self.memo and x is not n):
                return [x]
            return [leaf for y in x.args for leaf in leaves_of(y, seen)] if isinstance(x, Op) else []

        leaves = leaves_of(n, set())
        if len(leaves) > stream.MAX_COMPUTE_INPUTS:
            # NSC: a near-stream function takes at most 8 inputs: compute the operands first
            assert isinstance(n, Op)
            for y in n.args:
                if isinstance(y, Op):
                    self.value(y)
            leaves = leaves_of(n, set())
        inputs = [self.value(x) for x in leaves]
        blk = Block(arg_types=[stream.elem_type(v.type) for v in inputs])
        env: dict[int, SSAValue] = {id(x): blk.args[i] for i, x in enumerate(leaves)}

        def emit(x: Node) -> SSAValue:
            if id(x) in env:
                return env[id(x)]
            assert isinstance(x, (Const, Op))
            # two operands of one SSA value mapped to different nodes cannot happen: a node is per SSA value
            c = x.op.clone(value_mapper={operand: emit(arg) for operand, arg in zip(x.op.operands, x.args)} if isinstance(x, Op) else None)
            blk.add_op(c)
            env[id(x)] = c.results[0]
            return c.results[0]

        out = emit(n)
        blk.add_op(stream.YieldOp(out))
        return self.add(stream.ComputeOp(inputs, stream.StreamType(n.type), Region(blk)))


# ---------------------------------------------------------------------------
# One loop nest
# ---------------------------------------------------------------------------


def _dependence(region: stream.RegionOp) -> None:
    """The stream dialect's own test (the region verifier's): refuse a region
    that would not equal its sequential loop nest."""
    why = stream.loop_carried_dependence(region)
    if why is not None:
        raise Refuse(why.removesuffix("; split it into several regions"))
    try:
        region.verify()
    except VerifyException as e:
        raise Refuse(f"the region would not verify: {str(e).splitlines()[0]}") from None


def _erase(ops: Sequence[Operation]) -> None:
    for op in reversed(ops):
        Rewriter.erase_op(op, safe_erase=False)


@dataclass
class Plan:
    host: HostOps
    regions: list[stream.RegionOp]
    replace: dict[SSAValue, SSAValue] = field(default_factory=dict)
    note: str = ""


def plan_region(a: Analysis) -> Plan:
    """The region(s) for analysed loops, or Refuse."""
    red = classify(a)
    dims = list(range(len(a.bounds)))
    par = [d for d in dims if d not in red]
    host = HostOps()
    built: list[stream.RegionOp] = []
    try:
        if not par:
            return _plan_scalar(a, host, dims, red, built)
        if red and not red & set(a.band_dims) and not all(_reduced_only(s.value) for s in a.stores):
            # the fold is an iter_args loop inside the band: a store after it
            # happens once per band point, even when the fold's range is
            # empty, but in one region a store of a value that is not a fold
            # would happen once per point of the fold's range (never, if empty)
            return _plan_two_phase(a, host, dims, par, red, "a store after the accumulation loop does not store only folds", built)
        one = RegionBuilder(a, host, dims, red).build(a.stores, a.loads, [])
        try:
            return Plan(host, [_checked(one, built)])
        except Refuse as e:
            if not red:
                raise
            first_why = str(e)
        built.remove(one)
        one.erase(safe_erase=False)
        if red == frozenset(range(len(red))):
            # the folded loops are the outermost: the program asks for the
            # outer-product order (ASPLOS'23 mm/out), which keeps them on the
            # host around an element-wise region rather than a temporary
            raise Refuse(f"{first_why}; the accumulation loop is outermost, so it stays on the host (outer-product order)")
        return _plan_two_phase(a, host, dims, par, red, first_why, built)
    except (Refuse, VerifyException, LatticeError):
        _erase(built)
        _erase(host.after + host.before)
        raise


def _reduced_only(n: Node) -> bool:
    """Whether every stream ``n`` is computed from is a fold (so ``n`` lives on
    the region's parallel dims only): a Red, or arith over Reds and constants."""
    leaves = [x for x in _walk_nodes(n, into_reductions=False) if isinstance(x, (Load, Scalar, Red))]
    return bool(leaves) and all(isinstance(x, Red) for x in leaves)


def _reds_of(a: Analysis) -> list[Red]:
    """The reductions the stores and the escaping values use, once each."""
    return list(dict.fromkeys(n for v in [*(s.value for s in a.stores), *a.escaping.values()] for n in _walk_nodes(v) if isinstance(n, Red)))


def _stored_in_reds(a: Analysis) -> None:
    stored = {id(s.array) for s in a.stores}
    for r in _reds_of(a):
        for n in _walk_nodes(r.body):
            if isinstance(n, Load) and id(n.array) in stored:
                raise Refuse(f"the reduction reads {_array_label(n.array)}, which the nest also writes")


def _checked(region: stream.RegionOp, built: list[stream.RegionOp]) -> stream.RegionOp:
    """``region``, once the dependence test passes (``built``: for ``plan_region`` to erase if not)."""
    built.append(region)
    _dependence(region)
    return region


def _plan_two_phase(a: Analysis, host: HostOps, dims: list[int], par: list[int], red: frozenset[int], first_why: str, built: list[stream.RegionOp]) -> Plan:
    """``X[m] = X[m] op fold(f)``: the folds into temporaries (region 1), then
    the element-wise update (region 2)."""
    _stored_in_reds(a)
    if len(par) > stream.MAX_ACCESS_RANK:
        raise Refuse(f"{first_why}; and the accumulation's {len(par)} parallel loops are too many for a temporary")
    env = host.symbols(a)
    extents = [host.emit(arith.MaxSIOp(host.affine(a.bounds[d][1] - a.bounds[d][0], env), host.const(0))) for d in par]
    r1_stores = []
    tmap = AccessMap(tuple(Affine.of(dim_name(d)) - a.bounds[d][0] for d in par))
    swapped: dict[int, Node] = {}  # each node of the update, with the folds read back from their temporaries
    for r in _reds_of(a):
        t = MemRefType(r.type, [DYNAMIC_INDEX] * len(par))
        alloc = memref.AllocOp(extents, [], t)
        host.before.append(alloc)
        host.after.append(memref.DeallocOp.get(alloc.memref))
        # region 1 stores each fold at its last reduction point (after all reduction loops), so order = last
        r1_stores.append(Store(alloc.memref, tmap, r, 1 << 30, None))
        swapped[id(r)] = TmpLoad(r.type, alloc.memref, tmap)
    region1 = _checked(RegionBuilder(a, host, dims, red).build(r1_stores, a.loads, []), built)

    def swap(n: Node) -> Node:
        if id(n) not in swapped:
            swapped[id(n)] = Op(n.type, n.op, [swap(x) for x in n.args]) if isinstance(n, Op) else n
        return swapped[id(n)]

    stores2 = [dataclasses.replace(s, value=swap(s.value)) for s in a.stores]
    region2 = _checked(RegionBuilder(a, host, par, frozenset()).build(stores2, a.loads, []), built)
    return Plan(host, [region1, region2], note=" (the accumulation through a temporary: the fold, then the update)")


def _plan_scalar(a: Analysis, host: HostOps, dims: list[int], red: frozenset[int], built: list[stream.RegionOp]) -> Plan:
    """Every loop folds: the region's results are the folds (scalars); the host
    combines them with the initial values and stores."""
    _stored_in_reds(a)
    reds = _reds_of(a)
    region = _checked(RegionBuilder(a, host, dims, red).build([], a.loads, list(reds)), built)
    env = {id(r): region.results[i] for i, r in enumerate(reds)}
    sym_env = host.symbols(a)

    def hval(n: Node) -> SSAValue:
        if id(n) in env:
            return env[id(n)]
        if isinstance(n, Load):
            idx = [host.affine(e, sym_env, True) for e in n.amap.results]
            for p, x in n.ind:
                idx[p] = host.emit(arith.IndexCastOp(hval(x), IndexType()), True)
            v = host.emit(memref.LoadOp.get(n.array, idx), True)
        elif isinstance(n, Scalar):
            v = n.value
        else:
            assert isinstance(n, (Const, Op))
            v = host.emit(n.op.clone(value_mapper={o: hval(x) for o, x in zip(n.op.operands, n.args)} if isinstance(n, Op) else None), True)
        env[id(n)] = v
        return v

    for s in a.stores:
        v = hval(s.value)
        idx = [host.affine(e, sym_env, True) for e in s.amap.results]
        host.emit(memref.StoreOp.get(v, s.array, idx), True)
    return Plan(host, [region], {res: hval(n) for res, n in a.escaping.items()})


def _band(loop: Operation) -> tuple[list[Operation], list[Operation]]:
    """The perfectly nested loops from ``loop`` down, and the innermost body's ops."""
    if loop.results:
        return [], [loop]  # a host-level accumulation loop: its results escape to the host
    band = [loop]
    while True:
        ops = _ops_of(_body(band[-1]))
        loops = [o for o in ops if _is_loop(o)]
        if not (len(loops) == 1 and not loops[0].results and all(o is loops[0] or _is_pure_scalar_op(o) for o in ops)):
            return band, ops
        band.append(loops[0])


# ---------------------------------------------------------------------------
# Loop distribution (fission) of a nest's statements
# ---------------------------------------------------------------------------

_MEM_OPS = (affine.LoadOp, affine.StoreOp, memref.LoadOp, memref.StoreOp)
_CONTROL = (affine.ForOp, scf.ForOp, affine.ParallelOp, scf.ParallelOp, affine.IfOp, scf.IfOp, affine.YieldOp, scf.YieldOp, scf.ReduceOp, scf.ReduceReturnOp)


def _statements(leaf: Sequence[Operation]) -> list[list[int]]:
    """The innermost body's statements, as lists of positions in ``leaf``: ops
    joined by def-use chains (through pure scalar ops, which every statement
    that uses them gets a copy of), loops each on their own, then
    interleaved statements merged, so that each is one contiguous stretch of
    the body (distribution keeps every op's order within an iteration)."""
    pos = {op: i for i, op in enumerate(leaf)}
    floating = {i for i, op in enumerate(leaf) if not _is_loop(op) and _is_pure_scalar_op(op)}
    # each statement op -> the furthest op joined to it by a def-use chain
    reach = {i: i for i in range(len(leaf)) if i not in floating}

    def sources(v: SSAValue, seen: set[int]) -> set[int]:
        """The statement ops (not floating) ``v`` is computed from, within the body."""
        owner = v.owner
        if not isinstance(owner, Operation) or owner not in pos:
            return set()
        i = pos[owner]
        if i not in floating:
            return {i}
        if i in seen:
            return set()
        seen.add(i)
        return set().union(*(sources(o, seen) for o in owner.operands))

    for i in reach:
        for inner in leaf[i].walk():
            for o in inner.operands:
                for j in sources(o, set()):
                    reach[min(i, j)] = max(reach[min(i, j)], i, j)
    # joined ops and the ops between them are one stretch: merge the overlapping [i, reach[i]]
    merged: list[list[int]] = []
    for lo in sorted(reach):
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], reach[lo])
        else:
            merged.append([lo, reach[lo]])
    return [[i for i in range(lo, hi + 1) if i not in floating] for lo, hi in merged]


def _outer_index(a: Analysis, op: Operation) -> tuple[SSAValue, list[Affine | None]]:
    """The array and each index of a load/store as an affine function of the
    band's loops (None where it moves with a loop inside the band's body, or
    is not affine)."""

    def attempt(read, *args) -> Affine | None:
        try:
            return read(*args)
        except Refuse:
            return None

    if isinstance(op, (affine.LoadOp, affine.StoreOp)):
        m = op.map.data
        inner = Affine.of("inner-")  # an operand that moves inside the body: a result using it is None
        ops = [x if x is not None else inner for x in (attempt(a.aff, o) for o in op.indices)]
        out = [attempt(a.expr, e, ops[: m.num_dims], ops[m.num_dims :]) for e in m.results]
        return op.memref, [None if r is None or "inner-" in r.names else r for r in out]
    return op.memref, [attempt(a.aff, i) for i in op.indices]  # type: ignore[attr-defined]


def distribution_refused(band: Sequence[Operation], leaf: Sequence[Operation], parts: list[list[int]]) -> str | None:
    """Why the band may not be distributed over ``parts`` (None: it may).

    Distributing runs every instance of part 1, then every instance of part
    2, ...; within one iteration of the band the parts keep their order, so
    the new order differs only between a later part's instance at one band
    iteration and an earlier part's at a later one.  That is legal when no
    array one part writes is touched by another part at a different band
    iteration: every access to such an array (in every part) has, for each
    loop of the band, one index that is that loop's index (coefficient +-1,
    plus the same symbols and constant in every access) -- so two iterations
    of the band never touch the same cell of it.  Anything else (an array
    shared across iterations, an op with effects the analysis does not read)
    keeps the nest as it is: when unsure, no distribution."""
    a = Analysis(band[0])
    loop_of: list[Operation] = []
    for loop in band:
        for iv in _ivs(loop):
            a.dims[iv] = len(loop_of)
            loop_of.append(loop)
    touched: dict[object, list[tuple[int, Operation, bool]]] = {}
    for n, part in enumerate(parts):
        for i in part:
            for op in leaf[i].walk():
                if isinstance(op, _MEM_OPS):
                    if a.inside(op.memref):
                        return f"'{op.name}' on an array allocated inside the nest"
                    touched.setdefault(array_root(op.memref), []).append((n, op, isinstance(op, (affine.StoreOp, memref.StoreOp))))
                elif not (isinstance(op, _CONTROL) or _is_pure_scalar_op(op)):
                    return f"'{op.name}' in the loop body"
    for acc in touched.values():
        if len({n for n, _, _ in acc}) < 2 or not any(w for _, _, w in acc):
            continue
        array = acc[0][1].memref  # (a name it has, for the message)
        idx = [_outer_index(a, op)[1] for _, op, _ in acc]
        if len({len(x) for x in idx}) != 1:
            return f"{_array_label(array)} is accessed with different ranks"
        same = [r for r in range(len(idx[0])) if idx[0][r] is not None and all(x[r] == idx[0][r] for x in idx)]
        for d, loop in enumerate(loop_of):
            dn = dim_name(d)
            if not any(idx[0][r].coeff(dn) in (1, -1) and all(n == dn or dim_index(n) is None for n in idx[0][r].names) for r in same):  # type: ignore[union-attr]
                return f"{_array_label(array)}, written by one statement and accessed by another, is shared between iterations of the loop at line {_line(loop)}"
    return None


def distribute(root: Operation, leaf: Sequence[Operation], parts: list[list[int]]) -> list[Operation]:
    """One copy of the nest per part, each keeping only that part's ops (and
    the pure scalar ops they use), in order before ``root``, which goes."""
    pos = {op: i for i, op in enumerate(leaf)}
    floating = {i for i, op in enumerate(leaf) if not _is_loop(op) and _is_pure_scalar_op(op)}
    out: list[Operation] = []
    for part in parts:
        keep = set(part)
        todo = list(part)
        while todo:
            i = todo.pop()
            for inner in leaf[i].walk():
                for o in inner.operands:
                    j = pos.get(o.owner) if isinstance(o.owner, Operation) else None
                    if j is not None and j in floating and j not in keep:
                        keep.add(j)
                        todo.append(j)
        copy = root.clone()
        _, ops = _band(copy)  # (the copy of root's band: its leaf is a copy of leaf)
        assert len(ops) == len(leaf)
        _erase([o for i, o in enumerate(ops) if i not in keep])
        out.append(copy)
    Rewriter.insert_op(out, InsertPoint.before(root))
    Rewriter.erase_op(root, safe_erase=False)
    return out


def _line(op: Operation) -> str:
    loc = op.location
    return str(loc.line.data) if isinstance(loc, FileLineColLoc) else "?"


class Extractor:
    def __init__(self) -> None:
        self.remarks: list[Remark] = []
        self.parts: dict[Operation, str] = {}
        self.fills: dict[Operation, FillFold] = {}

    def remark(self, op: Operation, text: str, extracted: bool = False) -> None:
        # a distributed statement's nest has the location of the nest it came from: the remark says which statement
        self.remarks.append(Remark(op, self.parts.get(op, "") + text, extracted))

    def loop(self, op: Operation) -> None:
        """``nest(op)``; a fill (``_fill_before``) is decided after the reduction it precedes."""
        if any(fd.fill_root is op for fd in self.fills.values()):
            return
        n = len(self.remarks)
        self.nest(op)
        for fd in [fd for fd in self.fills.values() if fd.acc_root is op]:
            later, self.remarks[n:] = self.remarks[n:], []
            if fd.folded:  # every cell it sets, the reduction sets, from the same value
                self.remark(fd.fill_root, f"'linalg.fill' folded into the reduction at line {_line(op)}: it sets its output to the reduction's identity, and linalg's reduction writes every cell of it", True)
                _erase(fd.fill)
            else:
                self.nest(fd.fill_root)
            self.remarks += later

    def block(self, ops: Sequence[Operation], any_region: bool = False) -> None:
        """Each loop of ``ops`` as a nest; the blocks of host control flow
        (``scf.if``, ``affine.if``, ``scf.while``; with ``any_region``, of any
        op) likewise: loops inside it are nests of their own."""
        for op in list(ops):
            if _is_loop(op):
                self.loop(op)
            elif op.regions and (any_region or op.dialect_name() in ("scf", "affine")):
                for r in op.regions:
                    for b in r.blocks:
                        self.block(b.ops)

    def analyse(self, root: Operation, band: Sequence[Operation], leaf: Sequence[Operation]) -> Analysis:
        a = Analysis(root)
        a.fills = self.fills
        for loop in band:
            a.band_dims += a.add_loop(loop)
        if not band:
            (loop,) = leaf
            a.reduction_loop(loop)
            # (an argmin loop's best value has no node: arg_reduction checks nothing uses it)
            missing = [r for r in loop.results if r not in a.nodes and r.uses]
            if missing:  # e.g. an iter_args loop whose body lost its yield (found by make fuzz)
                raise Refuse(f"{len(missing)} result(s) of the loop are not yielded by its body")
            a.escaping = {r: a.nodes[r] for r in loop.results if r in a.nodes}
        else:
            a.body(leaf)
        return a

    def distribute(self, loop: Operation, band: Sequence[Operation], leaf: Sequence[Operation], why: str) -> str | None:
        """Distribute the band over its body's statements when that is legal
        (``distribution_refused``) and each part becomes a nest of its own
        (tried at every depth again); else why not."""
        parts = _statements(leaf)
        if len(parts) < 2:
            return "its body is one statement"
        refused = distribution_refused(band, leaf, parts)
        if refused is not None:
            return refused
        copies = distribute(loop, leaf, parts)
        self.remark(loop, f"loop nest distributed into {len(copies)} nests, one per statement ({why}; no array one statement writes is shared with another between iterations)")
        for n, c in enumerate(copies):
            self.parts[c] = f"statement {n + 1} of {len(copies)}: "
            self.nest(c)
        return None

    def nest(self, loop: Operation) -> None:
        band, leaf = _band(loop)
        plain_inner = [o for o in leaf if _is_loop(o) and not (o.results and band)]
        if band and plain_inner:
            where = f"the body of the loop at line {_line(band[-1])}" if band[-1] is not loop else "its body"
            k = sum(1 for o in leaf if _is_loop(o))
            shape = f"{where} holds {k} loop{'s' if k > 1 else ''} and {len(leaf) - k} other op{'s' if len(leaf) - k != 1 else ''} (not perfectly nested)"
            not_distributed = self.distribute(loop, band, leaf, shape)
            if not_distributed is None:
                return
            self.remark(loop, f"loop nest not extracted as a whole: {shape}; its inner loop nests are tried on their own (not distributed: {not_distributed})")
            self.block(leaf, any_region=True)
            return
        reasons: list[str] = []
        for p in range(max(len(band), 1)):  # (no band: the one accumulation loop)
            root = band[p] if band else leaf[0]
            try:
                a = self.analyse(root, band[p:], leaf)
                plan = plan_region(a)
            except Refuse as e:
                reasons.append(str(e))
            except (VerifyException, LatticeError) as e:
                # an op of the nest the analysis read wrongly: keep it on the host (a wrong region is worse than none)
                reasons.append(f"the region would not verify: {str(e).splitlines()[0]}")
            else:
                break
            if p == 0 and band and len(_statements(leaf)) > 1:
                # the whole band is not one region: its statements may be, apart
                if self.distribute(loop, band, leaf, f"the whole nest is not one region: {reasons[-1]}") is None:
                    return
        else:
            self.remark(loop, f"loop nest not extracted: {reasons[-1]}")
            if band:
                # an accumulation loop in the body is a nest of its own (a fold per
                # host iteration, e.g. a triangular sum over k < i)
                for o in leaf:
                    if _is_loop(o) and o.results:
                        self.nest(o)
            else:
                # an accumulation loop holding one that folds its accumulator further
                # (a triangle: for i iter_args { for j < i iter_args(%b = %a) }): the
                # inner one is a fold per host iteration, as in a band
                self.block(_ops_of(_body(leaf[0])))
            return
        self.apply(root, plan)
        for fd in a.folded:
            fd.folded = True
        desc = "; ".join(f"domain {r.iteration_domain} iterators [{', '.join(r.iterator_kinds)}]" for r in plan.regions)
        n = len(plan.regions)
        self.remark(root, f"loop nest extracted into {n} stream.region{'s' if n > 1 else ''}: {desc}{plan.note}", True)
        if p:
            lines = ", ".join(_line(x) for x in band[:p])
            many = "s" if p > 1 else ""
            self.remark(loop, f"loop{many} at line{many} {lines} stay{'' if many else 's'} on the host around the region: {reasons[-1]}")

    def apply(self, root: Operation, plan: Plan) -> None:
        ip = InsertPoint.before(root)
        for r in plan.regions:
            r.location = root.location  # (errors and reports about the region point at its loop nest)
        Rewriter.insert_op([*plan.host.before, *plan.regions, *plan.host.after], ip)
        for old, new in plan.replace.items():
            old.replace_all_uses_with(new)
        Rewriter.erase_op(root, safe_erase=False)


@dataclass(eq=False)
class FillFold:
    """A ``linalg.fill`` and the reduction after it (``_fill_before``), as loops."""

    fill: list[Operation]  # the fill's ops: its bounds, then its loop nest
    fill_root: Operation
    acc_root: Operation  # the reduction's outermost loop
    folded: bool = False  # the reduction's region folds from the identity: the fill is dead


def _fill_before(g: Operation) -> FillOp | None:
    """The ``linalg.fill`` that ``g``'s reduction may start from instead of its
    output's cells, as xDSL's ``memref-stream-fold-fill`` and MLIR-HLO's
    fuse-fill-into-reduction fold it: the fill is of ``g``'s only output, with
    the identity of the op ``g`` yields, and only pure ops run between them.
    Linalg makes operand shapes that disagree with the indexing maps undefined,
    so an output map of distinct loop dims means ``g`` writes every cell of the
    output, each after folding over all its other loops (from the identity,
    once the fill is dropped; an empty fold stores the identity, as the fill
    did).  Distinct memrefs are distinct arrays, as everywhere in this pass;
    views, which would alias, are not folded."""
    if not isinstance(g, LinalgStructuredOperation) or isinstance(g, FillOp) or len(g.outputs) != 1:  # type: ignore[attr-defined]
        return None
    c, ins, blk = g.outputs[0], list(g.inputs), g.body.block  # type: ignore[attr-defined]
    out_map = g.get_indexing_maps().data[-1].data  # type: ignore[attr-defined]
    dims = [e.position for e in out_map.results if isinstance(e, AffineDimExpr)]
    y = blk.last_op.operands[0].owner if blk.last_op is not None and blk.last_op.operands else None
    kind = _reduce_kind(y) if isinstance(y, Operation) and blk.args[len(ins)] in y.operands else None
    f = g.prev_op
    while f is not None and not isinstance(f, FillOp) and not f.regions and is_side_effect_free(f):
        f = f.prev_op
    if (kind is None or not isinstance(f, FillOp) or f.outputs[0] is not c or c in ins
            or len(set(dims)) != len(out_map.results) or len(dims) == out_map.num_dims):  # (no reduction loop: nothing to fold)
        return None
    v = f.inputs[0]
    if not (isinstance(v.owner, arith.ConstantOp) and _is_identity(Const(v.type, v.owner), kind)):
        return None
    arrays = [m for m in [c, *ins] if isinstance(m.type, MemRefType)]
    return f if all(isinstance(m, BlockArgument) or isinstance(m.owner, (memref.AllocOp, memref.AllocaOp)) for m in arrays) else None


def _check_body_types(op: Operation, name: str) -> None:
    """Each value the op's body yields has its output's element type.  Upstream's
    named ops cast their operands to the output's type (``cast_signed``: a fill
    of an f64 into f32, an i8 copy into i32); xDSL's bodies do not, and its
    lowering would store an i8 into an i32 array (a verifier error on a
    ``memref.store`` the user never wrote): one line naming the op instead."""
    term = op.body.block.last_op  # type: ignore[attr-defined]
    outs = list(op.outputs)  # type: ignore[attr-defined]
    if term is None or len(term.operands) != len(outs):
        return  # (the op's own verifier names a malformed body)
    for v, o in zip(term.operands, outs):
        elem = o.type.element_type if isinstance(o.type, MemRefType) else None
        if elem is not None and v.type != elem:
            ins = sorted({str(x.type.element_type if isinstance(x.type, MemRefType) else x.type) for x in op.inputs})  # type: ignore[attr-defined]
            raise ExtractError(f"{location_text(op)}: '{name}' computes {v.type} for an output of {elem} elements (inputs: {', '.join(ins)}): "
                               "convert-linalg-to-loops does not cast between element types; cast the inputs first (arith.extsi/sitofp/extf/truncf in a linalg.generic)")


def _pooling_max_body(op: Operation) -> None:
    """Upstream's ``linalg.pooling_nchw_max`` is ``O = max(O, I)`` (the kernel
    operand only gives the window's shape); xDSL 0.74's body is ``max(I, K)``,
    which would store the max of the input and the kernel's values and drop
    the window's running max.  The op gets upstream's body before lowering."""
    block = op.body.block  # type: ignore[attr-defined]
    old = block.last_op.operands[0].owner if block.last_op is not None and block.last_op.operands else None
    if not (isinstance(old, (arith.MaximumfOp, arith.MaxSIOp)) and len(block.args) == 3):
        return
    new = type(old)(block.args[2], block.args[0])
    Rewriter.replace_op(old, new)


def _as_generic(op: BroadcastOp | ReduceOp) -> Operation | None:
    """``linalg.broadcast`` / ``linalg.reduce`` on memrefs as the ``linalg.generic``
    they are (xDSL 0.74 has no loop lowering for them, and the host none
    either): broadcast reads its input at the output's dims but ``dimensions``,
    reduce folds its input over ``dimensions`` into its init with its body."""
    if op.results or not all(isinstance(v.type, MemRefType) for v in (op.input, op.init)):
        return None  # (on tensors: the host names the op)
    dims = set(op.dimensions.get_values())  # type: ignore[union-attr]
    rank = len(op.init.type.get_shape() if isinstance(op, BroadcastOp) else op.input.type.get_shape())  # type: ignore[union-attr]
    full = AffineMap.identity(rank)
    part = AffineMap(rank, 0, tuple(AffineDimExpr(i) for i in range(rank) if i not in dims))
    if isinstance(op, BroadcastOp):
        maps, iters = [part, full], [IteratorTypeAttr.parallel()] * rank
        body = Region(Block(arg_types=[op.input.type.element_type, op.init.type.element_type]))  # type: ignore[union-attr]
        body.block.add_op(LinalgYieldOp(body.block.args[0]))
    else:
        maps = [full, part]
        iters = [IteratorTypeAttr.reduction() if i in dims else IteratorTypeAttr.parallel() for i in range(rank)]
        body = Rewriter.move_region_contents_to_new_regions(op.region)  # (%in, %init) -> the new init, as generic's (ins, outs)
    g = GenericOp([op.input], [op.init], body, [affine.AffineMapAttr(m) for m in maps], iters)
    g.location = op.location
    Rewriter.replace_op(op, g)
    return g


def lower_linalg(module: ModuleOp) -> tuple[list[Remark], dict[Operation, FillFold]]:
    """``linalg`` structured ops on memrefs (``linalg.generic``, ``matmul``,
    ``fill``, ``add``, ...) as loops, by xDSL's own ``convert-linalg-to-loops``
    pattern (infs has no second linalg lowering), one op at a time so that the
    loops keep the op's location (the pass's remarks then point at it).  Also
    the fills a reduction may fold (``_fill_before``), by the load of the
    output in the reduction's loops."""
    from xdsl.dialects.builtin import TensorType
    from xdsl.pattern_rewriter import PatternRewriter
    from xdsl.transforms.convert_linalg_to_loops import LowerLinalgStructuredOpPattern

    remarks: list[Remark] = []
    pattern = LowerLinalgStructuredOpPattern()
    names: dict[Operation, str] = {}  # a generic made of a broadcast/reduce -> the op the user wrote
    for o in [o for o in module.walk() if isinstance(o, (BroadcastOp, ReduceOp))]:
        if (g := _as_generic(o)) is not None:
            names[g] = o.name
    ops = [o for o in module.walk() if isinstance(o, LinalgStructuredOperation)]
    pairs = {g: (f, g.outputs[0]) for g in ops if (f := _fill_before(g)) is not None}  # type: ignore[attr-defined]
    lowered: dict[Operation, list[Operation]] = {}
    fills: dict[Operation, FillFold] = {}
    for op in ops:
        if op.results or any(isinstance(v.type, TensorType) for v in op.operands):
            raise ExtractError(f"{location_text(op)}: '{op.name}' on tensors: bufferize it to memrefs first (convert-linalg-to-loops lowers linalg on memrefs only)")
        _check_body_types(op, names.get(op, op.name))
        if isinstance(op, PoolingNchwMaxOp):
            _pooling_max_body(op)
        block = op.parent_block()
        assert block is not None
        old = set(block.ops)
        try:
            pattern.match_and_rewrite(op, PatternRewriter(op))
        except (NotImplementedError, DiagnosticException, VerifyException) as e:
            raise ExtractError(f"{location_text(op)}: '{names.get(op, op.name)}': convert-linalg-to-loops cannot lower it: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
        new = [o for o in block.ops if o not in old]  # (the op's loops, where it stood)
        for o in new:
            for x in o.walk():
                if location_text(x) == "<unknown>":
                    x.location = op.location
        loop = next((o for o in new if _is_loop(o)), None)
        how = "" if op not in names else " (as the linalg.generic it is)"
        remarks.append(Remark(loop or op, f"'{names.get(op, op.name)}' lowered to loops by convert-linalg-to-loops{how}", False))
        lowered[op] = new
        if op in pairs:
            f, c = pairs[op]
            f_loop = next((o for o in lowered[f] if _is_loop(o)), None)
            loads = [x for o in new for x in o.walk() if isinstance(x, memref.LoadOp) and x.memref is c]
            if loop is not None and f_loop is not None and len(loads) == 1:
                fills[loads[0]] = FillFold(lowered[f], f_loop, loop)
    return remarks, fills


def extract_streams(module: ModuleOp) -> list[Remark]:
    """Run the pass on ``module`` (in place); its remarks, in program order.
    ``linalg`` ops on memrefs become loops first (``lower_linalg``)."""
    ex = Extractor()
    remarks, ex.fills = lower_linalg(module)
    ex.remarks += remarks
    for f in [op for op in module.walk() if isinstance(op, func.FuncOp)]:
        # an scf.parallel reduction is read as the loops with iter_args it lowers to
        for p in reversed([o for o in f.walk() if isinstance(o, scf.ParallelOp) and o.initVals]):
            _parallel_as_loops(p, p.lowerBound, p.upperBound, p.step)
        # and an affine.parallel reduction as the affine.for nest with iter_args
        for p in reversed([o for o in f.walk() if isinstance(o, affine.ParallelOp) and o.res]):
            _affine_parallel_as_fors(p)
        for b in f.body.blocks:
            ex.block(b.ops)
        lower_host_affine(f)
    return ex.remarks


def has_plain_loops(module: ModuleOp) -> bool:
    """Loops (or linalg ops, which become loops) for the pass to read."""
    return any(_is_loop(op) or isinstance(op, (LinalgStructuredOperation, BroadcastOp, ReduceOp)) for op in module.walk())


@dataclass(frozen=True)
class ExtractStreamsPass(ModulePass):
    """Turn plain loop nests into ``stream.region``s (see the module docstring)."""

    name = "extract-streams"

    remarks: bool = False
    """Print one remark per loop nest on stderr: what was extracted, and why the rest stays on the host."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for r in extract_streams(op):
            if self.remarks:
                print(r, file=sys.stderr)
