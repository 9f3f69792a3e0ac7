"""Upstream MLIR's custom syntax for ops that xDSL 0.74 reads only in generic form.

Real tool output -- ``mlir-opt --affine-parallelize``, ``--lower-affine``,
Polygeist's ``cgeist`` -- prints these ops in their custom form, and xDSL 0.74
stops on them (``Operation affine.parallel does not have a custom format``).
This module defines, for each, an op class of infs's own: a subclass of
xDSL's definition (so every ``isinstance`` check against xDSL's class, in
xDSL's passes and in infs's, still holds) whose ``parse``/``print`` are
upstream's, as ``mlir/lib/Dialect/{Affine,SCF,MemRef}/IR/*Ops.cpp`` and the
``.td`` assembly formats spell them, and whose generic form (properties, their
types, operand order) is the one upstream prints with
``--mlir-print-op-generic``:

``affine.parallel``  ``(%i, %j) = (0, max(0, %n - 4)) to (%n, min(20, %n))
                     step (1, 2) reduce ("addf", "maxnumf") -> (f32, f32) {...}``;
                     ``reductions`` are upstream's ``arith::AtomicRMWKind``
                     values (``[0, 5]`` in generic form), not xDSL's strings
``affine.if``        ``#set(%i)[%n] -> f32 {...} else {...}``
``affine.min/max``   ``affine_map<...>(%i)[%n]`` (``affine.max`` is new: xDSL
                     0.74 has no such op)
``affine.apply``     as ``affine.min``
``scf.parallel``     ``(%i) = (%lb) to (%ub) step (%s) init (%z) -> f32 {...}``
``scf.reduce``       ``(%a, %b : f32, i32) {^bb0(...): ...}, {...}``
``memref.alloc/alloca`` ``(%n)[%s] alignment = 16 : memref<?xf32>`` (and
                     ``{alignment = 16 : i64}``, as MLIR before 20 printed it)
``memref.cast``      ``%a : memref<4xf32> to memref<?xf32>``
``llvm.mlir.global`` (its custom form is xDSL's) with the ``tls_mode`` property
                     of upstream's generic form, which xDSL 0.74 lacks

Bounds are affine expressions of SSA values with upstream's rule: a bare
``%x`` is a map dimension, ``symbol(%x)`` a symbol.  (The same rule for the
indices of ``affine.load``/``affine.store`` is ``infs.dialects.affine_ssa_ids``'.)
(``affine.for``, ``affine.yield``, ``memref.subview`` and the ``llvm`` ops
cgeist emits -- ``llvm.func @printf(!llvm.ptr, ...) -> i32``,
``llvm.mlir.global internal constant @s("..\\00")``, ``llvm.mlir.addressof``,
``llvm.getelementptr``, ``llvm.call ... vararg(...)`` -- xDSL 0.74 already
reads as upstream prints them.)

``with_upstream_syntax(dialect)`` gives a dialect with these classes in place
of xDSL's; ``infs.api.register_dialects`` registers it in every context infs
builds.  Nothing in xDSL is patched.  The code uses xDSL's parser and
printer as its own dialects do (and its ``AffineParser`` for expressions), so
it could be offered to xDSL as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import affine, llvm, memref, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    BytesAttr,
    DenseIntElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    SymbolNameConstraint,
    TypedAttribute,
    UnitAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_prop_def, prop_def, region_def, result_def, traits_def, var_operand_def, var_result_def
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.parser.affine_parser import AffineParser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator as _IsTerminator
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from infs.dialects.syntax import parse_typed_operands, print_typed_operands

# ---------------------------------------------------------------------------
# arith::AtomicRMWKind, the reductions of affine.parallel
# ---------------------------------------------------------------------------

# upstream's arith::AtomicRMWKind values, in their order (as mlir-opt reads them): the
# generic form of `reduce ("addf", "maxnumf")` is `reductions = [0, 5]`
REDUCTION_KINDS: tuple[str, ...] = (
    "addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu",
    "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori",
)  # fmt: skip
_FLOAT_KINDS = frozenset({"addf", "maximumf", "maxnumf", "minimumf", "minnumf", "mulf"})
_INT_KINDS = frozenset({"addi", "andi", "maxs", "maxu", "mins", "minu", "muli", "ori", "xori"})


def reduction_kind(attr: Attribute) -> str:
    """The name of one entry of an ``affine.parallel``'s ``reductions``."""
    if isinstance(attr, IntegerAttr) and 0 <= attr.value.data < len(REDUCTION_KINDS):
        return REDUCTION_KINDS[attr.value.data]
    raise VerifyException(f"{attr} is not a reduction kind (0..{len(REDUCTION_KINDS) - 1}: {', '.join(REDUCTION_KINDS)})")


# the op that combines two values of each kind (arith::getReductionOp); "assign" has none
_COMBINERS: dict[str, str] = {
    "addf": "AddfOp", "addi": "AddiOp", "andi": "AndIOp", "maximumf": "MaximumfOp", "maxnumf": "MaxnumfOp",
    "maxs": "MaxSIOp", "maxu": "MaxUIOp", "minimumf": "MinimumfOp", "minnumf": "MinnumfOp", "mins": "MinSIOp",
    "minu": "MinUIOp", "mulf": "MulfOp", "muli": "MuliOp", "ori": "OrIOp", "xori": "XOrIOp",
}  # fmt: skip


def reduction_combiner(kind: str) -> type[Operation] | None:
    """The ``arith`` op that combines two values of a reduction ``kind``
    (upstream's ``arith::getReductionOp``); None for ``assign``."""
    from xdsl.dialects import arith

    name = _COMBINERS.get(kind)
    return getattr(arith, name) if name else None


def reduction_identity(kind: str, t: Attribute) -> Attribute | None:
    """The value a reduction of ``kind`` over type ``t`` starts from (upstream's
    ``arith::getIdentityValueAttr``, which ``--lower-affine`` uses as the
    ``scf.parallel`` init): ``maxnumf``/``minnumf`` start from a NaN, which they
    skip; None for ``assign``."""
    from xdsl.dialects.builtin import FloatAttr

    if isinstance(t, AnyFloat):
        v = {"addf": 0.0, "mulf": 1.0, "maximumf": float("-inf"), "minimumf": float("inf"), "maxnumf": float("nan"), "minnumf": float("nan")}.get(kind)
        return None if v is None else FloatAttr(v, t)
    width = 64 if isinstance(t, IndexType) else t.width.data if isinstance(t, IntegerType) else None
    if width is None:
        return None
    lo, hi = -(2 ** (width - 1)), 2 ** (width - 1) - 1
    # (all ones, the unsigned maximum, is -1 in the signless attribute's signed reading)
    v = {"addi": 0, "ori": 0, "xori": 0, "maxu": 0, "muli": 1, "andi": -1, "minu": -1, "maxs": lo, "mins": hi}.get(kind)
    return None if v is None else IntegerAttr(v, t)


# ---------------------------------------------------------------------------
# Affine expressions over SSA values (MLIR's parseAffineExprOfSSAIds and
# printAffineExprOfSSAIds; the printer is AsmPrinter's printAffineExprInternal)
# ---------------------------------------------------------------------------


def _key(u: UnresolvedOperand) -> tuple[str, int]:
    return (u.span.text, u.index)


class _SSAExprs:
    """Parses affine expressions whose leaves are SSA values: ``%x`` is a
    dimension, ``symbol(%x)`` a symbol, numbered in order of first use (a value
    used again is the same dimension or symbol)."""

    def __init__(self, parser: Parser):
        self.parser = parser
        self.dims: list[UnresolvedOperand] = []
        self.syms: list[UnresolvedOperand] = []
        self._seen: dict[tuple[str, int], AffineExpr] = {}

    def _leaf(self) -> AffineExpr | None:
        p = self.parser
        if p._current_token.kind == MLIRTokenKind.PERCENT_IDENT:  # noqa: SLF001
            return self._use(p.parse_unresolved_operand(), False)
        if p.parse_optional_keyword("symbol") is not None:
            p.parse_punctuation("(")
            u = p.parse_unresolved_operand()
            p.parse_punctuation(")")
            return self._use(u, True)
        return None

    def _use(self, u: UnresolvedOperand, symbol: bool) -> AffineExpr:
        k = _key(u)
        if k not in self._seen:
            if symbol:
                self._seen[k] = AffineExpr.symbol(len(self.syms))
                self.syms.append(u)
            else:
                self._seen[k] = AffineExpr.dimension(len(self.dims))
                self.dims.append(u)
        return self._seen[k]

    def expr(self) -> AffineExpr:
        start = self.parser.pos
        try:
            return AffineParser(self.parser._parser_state)._parse_affine_expr(self._leaf)  # noqa: SLF001
        except NotImplementedError:  # (xDSL builds no semi-affine expression)
            self.parser.raise_error("not an affine expression (a product or quotient of two values is semi-affine)", start, self.parser.pos)

    def operands(self) -> list[SSAValue]:
        return [self.parser.resolve_operand(u, IndexType()) for u in (*self.dims, *self.syms)]


_STRONG, _WEAK = True, False


def print_affine_expr_of_ssa_ids(printer: Printer, expr: AffineExpr, dims: Sequence[SSAValue], syms: Sequence[SSAValue], strong: bool = _WEAK) -> None:
    """``expr`` as upstream prints it, ``%x`` for a dimension and ``symbol(%x)`` for a symbol."""
    p = printer.print_string
    match expr:
        case AffineConstantExpr(value=v):
            p(str(v))
        case AffineDimExpr(position=i):
            printer.print_ssa_value(dims[i])
        case AffineSymExpr(position=i):
            p("symbol(")
            printer.print_ssa_value(syms[i])
            p(")")
        case AffineBinaryOpExpr(kind=kind, lhs=lhs, rhs=rhs):
            sub = lambda e, s: print_affine_expr_of_ssa_ids(printer, e, dims, syms, s)  # noqa: E731
            if strong:
                p("(")
            if kind != AffineBinaryOpKind.Add:
                if kind == AffineBinaryOpKind.Mul and isinstance(rhs, AffineConstantExpr) and rhs.value == -1:
                    p("-")
                    sub(lhs, _STRONG)
                else:
                    sub(lhs, _STRONG)
                    p(f" {kind.get_token()} ")
                    sub(rhs, _STRONG)
            elif isinstance(rhs, AffineBinaryOpExpr) and rhs.kind == AffineBinaryOpKind.Mul and isinstance(rhs.rhs, AffineConstantExpr) and rhs.rhs.value < 0:
                # x + y * -1 is x - y; x + y * -3 is x - y * 3
                sub(lhs, _WEAK)
                p(" - ")
                if rhs.rhs.value == -1:
                    sub(rhs.lhs, _STRONG if isinstance(rhs.lhs, AffineBinaryOpExpr) and rhs.lhs.kind == AffineBinaryOpKind.Add else _WEAK)
                else:
                    sub(rhs.lhs, _STRONG)
                    p(f" * {-rhs.rhs.value}")
            elif isinstance(rhs, AffineConstantExpr) and rhs.value < 0:
                sub(lhs, _WEAK)
                p(f" - {-rhs.value}")
            else:
                sub(lhs, _WEAK)
                p(" + ")
                sub(rhs, _WEAK)
            if strong:
                p(")")
        case _:
            raise ValueError(f"unexpected affine expression {expr}")


def _parse_dim_and_symbol_list(parser: Parser, num_dims: int, num_syms: int, what: str) -> list[SSAValue]:
    """``(%d0, ...)[%s0, ...]`` (MLIR's parseDimAndSymbolList), checked against the map's counts."""
    pos = parser.pos
    dims = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_unresolved_operand)
    syms = parser.parse_optional_comma_separated_list(Parser.Delimiter.SQUARE, parser.parse_unresolved_operand) or []
    if len(dims) != num_dims or len(syms) != num_syms:
        parser.raise_error(f"{what} takes {num_dims} dimension and {num_syms} symbol operands, not {len(dims)} and {len(syms)}", pos, parser.pos)
    return [parser.resolve_operand(u, IndexType()) for u in (*dims, *syms)]


def _print_dim_and_symbol_list(printer: Printer, operands: Sequence[SSAValue], num_dims: int) -> None:
    printer.print_string("(")
    printer.print_list(operands[:num_dims], printer.print_ssa_value)
    printer.print_string(")")
    if len(operands) > num_dims:
        printer.print_string("[")
        printer.print_list(operands[num_dims:], printer.print_ssa_value)
        printer.print_string("]")


def _parse_optional_arrow_types(parser: Parser) -> list[Attribute]:
    """``-> t`` or ``-> (t0, t1)`` or nothing (MLIR's parseOptionalArrowTypeList)."""
    if parser.parse_optional_punctuation("->") is None:
        return []
    if parser.parse_optional_punctuation("(") is not None:
        if parser.parse_optional_punctuation(")") is not None:
            return []
        types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        return types
    return [parser.parse_type()]


def _print_optional_arrow_types(printer: Printer, types: Sequence[Attribute]) -> None:
    if not types:
        return
    printer.print_string(" -> ")
    if len(types) == 1:
        printer.print_attribute(types[0])
        return
    printer.print_string("(")
    printer.print_list(types, printer.print_attribute)
    printer.print_string(")")


def _ensure_terminator(region: Region, make: Callable[[], Operation]) -> None:
    """The implicit terminator the custom form may leave out (MLIR's ensureTerminator)."""
    if not region.blocks:
        region.add_block(Block())
    block = region.blocks[-1]
    if block.last_op is None or not block.last_op.has_trait(_IsTerminator):
        block.add_op(make())


def _attr_dict(op: Operation, parser: Parser) -> None:
    op.attributes |= parser.parse_optional_attr_dict()


# ---------------------------------------------------------------------------
# affine
# ---------------------------------------------------------------------------


def _groups(values: Sequence[int]) -> DenseIntElementsAttr:
    return DenseIntElementsAttr.from_list(TensorType(i32, [len(values)]), list(values))


def _parse_bound_groups(parser: Parser, keyword: str) -> tuple[AffineMap, list[SSAValue], list[int]]:
    """``(e, max(e, e), ...)``: one group per iv (MLIR's parseAffineMapWithMinMax).

    The expressions are flattened into one map whose dimensions (then symbols)
    are the distinct values in order of first use, lower and upper bounds
    apart, as upstream builds them."""
    flat: list[tuple[AffineExpr, list[UnresolvedOperand], list[UnresolvedOperand]]] = []
    groups: list[int] = []

    other = {"max": "min", "min": "max"}[keyword]

    def one() -> None:
        e = _SSAExprs(parser)
        pos = parser.pos
        if parser.parse_optional_keyword(other) is not None:
            which = "a lower" if keyword == "max" else "an upper"
            parser.raise_error(f"{which} bound group is {keyword}(...), not {other}(...)", pos, parser.pos)
        if parser.parse_optional_keyword(keyword) is not None:
            exprs = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, e.expr)
        else:
            exprs = [e.expr()]
        flat.extend((x, e.dims, e.syms) for x in exprs)
        groups.append(len(exprs))

    parser.parse_comma_separated_list(Parser.Delimiter.PAREN, one)
    dims: dict[tuple[str, int], int] = {}
    syms: dict[tuple[str, int], int] = {}
    units: dict[tuple[str, int], UnresolvedOperand] = {}
    exprs = []
    for x, ds, ss in flat:
        new_d = [AffineExpr.dimension(dims.setdefault(_key(u), len(dims))) for u in ds]
        new_s = [AffineExpr.symbol(syms.setdefault(_key(u), len(syms))) for u in ss]
        for u in (*ds, *ss):
            units.setdefault(_key(u), u)
        exprs.append(x.replace_dims_and_symbols(new_d, new_s))
    operands = [parser.resolve_operand(units[k], IndexType()) for k in (*dims, *syms)]
    return AffineMap(len(dims), len(syms), tuple(exprs)), operands, groups


def _print_bound_groups(printer: Printer, m: AffineMap, groups: Sequence[int], operands: Sequence[SSAValue], keyword: str) -> None:
    dims, syms = operands[: m.num_dims], operands[m.num_dims :]
    start = 0
    for k, size in enumerate(groups):
        if k:
            printer.print_string(", ")
        if size == 1:
            print_affine_expr_of_ssa_ids(printer, m.results[start], dims, syms)
        else:
            printer.print_string(f"{keyword}(")
            printer.print_list(m.results[start : start + size], lambda e: print_affine_expr_of_ssa_ids(printer, e, dims, syms))
            printer.print_string(")")
        start += size


@irdl_op_definition
class AffineParallelOp(affine.ParallelOp):
    """``affine.parallel`` in upstream's syntax; ``reductions`` holds
    ``arith::AtomicRMWKind`` values, as upstream's generic form does."""

    name = "affine.parallel"

    # (xDSL 0.74 cannot re-run its op definition over a defined op's fields,
    # so every field is declared again; only `reductions` differs)
    map_operands = var_operand_def(IndexType)
    reductions = prop_def(ArrayAttr[IntegerAttr])
    lowerBoundsMap = prop_def(AffineMapAttr)
    lowerBoundsGroups = prop_def(DenseIntElementsAttr)
    upperBoundsMap = prop_def(AffineMapAttr)
    upperBoundsGroups = prop_def(DenseIntElementsAttr)
    steps = prop_def(ArrayAttr[IntegerAttr[IntegerType]])
    res = var_result_def()
    body = region_def("single_block")

    def reduction_kinds(self) -> tuple[str, ...]:
        return tuple(reduction_kind(a) for a in self.reductions.data)

    def verify_(self) -> None:
        lm, um = self.lowerBoundsMap.data, self.upperBoundsMap.data
        if len(self.operands) != lm.num_dims + lm.num_symbols + um.num_dims + um.num_symbols:
            raise VerifyException(f"its bound maps take {lm.num_dims + lm.num_symbols + um.num_dims + um.num_symbols} operands, not {len(self.operands)}")
        if sum(self.lowerBoundsGroups.get_values()) != len(lm.results) or sum(self.upperBoundsGroups.get_values()) != len(um.results):
            raise VerifyException("its bound groups do not cover its bound maps' results")
        n = len(self.body.block.args)
        lg, ug = self.lowerBoundsGroups.get_values(), self.upperBoundsGroups.get_values()
        if len(lg) != n or len(ug) != n or len(self.steps.data) != n:
            raise VerifyException(f"{n} induction variables need as many lower bound groups, upper bound groups and steps (have {len(lg)}, {len(ug)}, {len(self.steps.data)})")
        if any(g < 1 for g in (*lg, *ug)):
            raise VerifyException("a bound group holds at least one expression")
        if any(s.value.data < 1 for s in self.steps.data):
            raise VerifyException("steps must be positive")
        if any(not isinstance(a.type, IndexType) for a in self.body.block.args):
            raise VerifyException("the induction variables are of type index")
        kinds = self.reduction_kinds()
        if len(kinds) != len(self.res):
            raise VerifyException(f"a reduction must be specified for each result ({len(self.res)} results, {len(kinds)} reductions)")
        for k, r in zip(kinds, self.res):
            if (k in _FLOAT_KINDS and not isinstance(r.type, AnyFloat)) or (k in _INT_KINDS and not isinstance(r.type, (IntegerType, IndexType))):
                raise VerifyException(f"result type {r.type} cannot match reduction '{k}'")
        y = self.body.block.last_op
        if isinstance(y, affine.YieldOp) and [v.type for v in y.operands] != [r.type for r in self.res]:
            raise VerifyException(f"its affine.yield yields ({', '.join(str(v.type) for v in y.operands)}), its results are ({', '.join(str(r.type) for r in self.res)})")

    @classmethod
    def parse(cls, parser: Parser) -> AffineParallelOp:
        ivs = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False))
        parser.parse_punctuation("=")
        pos = parser.pos
        lmap, lops, lgroups = _parse_bound_groups(parser, "max")
        if len(lgroups) != len(ivs):
            parser.raise_error(f"expected {len(ivs)} lower bounds (one per induction variable), not {len(lgroups)}", pos, parser.pos)
        parser.parse_keyword("to")
        pos = parser.pos
        umap, uops, ugroups = _parse_bound_groups(parser, "min")
        if len(ugroups) != len(ivs):
            parser.raise_error(f"expected {len(ivs)} upper bounds (one per induction variable), not {len(ugroups)}", pos, parser.pos)
        steps = [1] * len(ivs)
        if parser.parse_optional_keyword("step") is not None:
            pos = parser.pos
            steps = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, lambda: parser.parse_integer(allow_boolean=False))
            if len(steps) != len(ivs):
                parser.raise_error(f"expected {len(ivs)} steps (one per induction variable), not {len(steps)}", pos, parser.pos)
            if any(s < 1 for s in steps):
                parser.raise_error("steps must be positive", pos, parser.pos)
        kinds: list[int] = []
        if parser.parse_optional_keyword("reduce") is not None:

            def kind() -> int:
                p = parser.pos
                s = parser.parse_str_literal("a reduction kind")
                if s not in REDUCTION_KINDS:
                    parser.raise_error(f'invalid reduction value: "{s}" (one of {", ".join(REDUCTION_KINDS)})', p, parser.pos)
                return REDUCTION_KINDS.index(s)

            kinds = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, kind)
        pos = parser.pos
        types = _parse_optional_arrow_types(parser)
        if len(types) != len(kinds):
            parser.raise_error(f"{len(kinds)} reductions but {len(types)} result types", pos, parser.pos)
        body = parser.parse_region([iv.resolve(IndexType()) for iv in ivs])
        _ensure_terminator(body, affine.YieldOp.get)
        op = cls.build(
            operands=[[*lops, *uops]],
            result_types=[types],
            properties={
                "reductions": ArrayAttr([IntegerAttr(k, i64) for k in kinds]),
                "lowerBoundsMap": AffineMapAttr(lmap),
                "lowerBoundsGroups": _groups(lgroups),
                "upperBoundsMap": AffineMapAttr(umap),
                "upperBoundsGroups": _groups(ugroups),
                "steps": ArrayAttr([IntegerAttr(s, i64) for s in steps]),
            },
            regions=[body],
        )
        _attr_dict(op, parser)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        printer.print_list(self.body.block.args, lambda a: printer.print_block_argument(a, print_type=False))
        printer.print_string(") = (")
        lm, um = self.lowerBoundsMap.data, self.upperBoundsMap.data
        n = lm.num_dims + lm.num_symbols
        ops = list(self.map_operands)
        _print_bound_groups(printer, lm, self.lowerBoundsGroups.get_values(), ops[:n], "max")
        printer.print_string(") to (")
        _print_bound_groups(printer, um, self.upperBoundsGroups.get_values(), ops[n:], "min")
        printer.print_string(")")
        steps = [s.value.data for s in self.steps.data]
        if any(s != 1 for s in steps):
            printer.print_string(f" step ({', '.join(map(str, steps))})")
        if self.res:
            printer.print_string(" reduce (" + ", ".join(f'"{k}"' for k in self.reduction_kinds()) + ") -> (")
            printer.print_list(self.result_types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False, print_block_terminators=bool(self.res))
        printer.print_op_attributes(self.attributes)


class AffineIfOp(affine.IfOp):
    """``affine.if #set(%dims)[%syms] (-> types)? {...} (else {...})?``."""

    name = "affine.if"

    def verify_(self) -> None:
        s = self.condition.data
        if len(self.args) != s.num_dims + s.num_symbols:
            raise VerifyException(f"its integer set takes {s.num_dims + s.num_symbols} operands, not {len(self.args)}")
        want = [r.type for r in self.res]
        for region, what in ((self.then_region, "then"), (self.else_region, "else")):
            if not region.blocks:
                if want:
                    raise VerifyException(f"with results, it needs an else region")
                continue
            y = region.blocks[-1].last_op
            if isinstance(y, affine.YieldOp) and [v.type for v in y.operands] != want:
                raise VerifyException(f"its {what} region yields ({', '.join(str(v.type) for v in y.operands)}), its results are ({', '.join(map(str, want))})")

    @classmethod
    def parse(cls, parser: Parser) -> AffineIfOp:
        pos = parser.pos
        cond = parser.parse_attribute()
        if not isinstance(cond, AffineSetAttr):
            parser.raise_error(f"expected an integer set (affine_set<...>), not {cond}", pos, parser.pos)
        s = cond.data
        args = _parse_dim_and_symbol_list(parser, s.num_dims, s.num_symbols, "this integer set")
        types = _parse_optional_arrow_types(parser)
        then_r = parser.parse_region()
        _ensure_terminator(then_r, affine.YieldOp.get)
        else_r = Region()
        if parser.parse_optional_keyword("else") is not None:
            else_r = parser.parse_region()
            _ensure_terminator(else_r, affine.YieldOp.get)
        op = cls.build(operands=[args], result_types=[types], properties={"condition": cond}, regions=[then_r, else_r])
        _attr_dict(op, parser)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.condition)
        _print_dim_and_symbol_list(printer, list(self.args), self.condition.data.num_dims)
        _print_optional_arrow_types(printer, self.result_types)
        printer.print_string(" ")
        printer.print_region(self.then_region, print_entry_block_args=False, print_empty_block=False, print_block_terminators=bool(self.res))
        if self.else_region.blocks:
            printer.print_string(" else ")
            printer.print_region(self.else_region, print_entry_block_args=False, print_empty_block=False, print_block_terminators=bool(self.res))
        printer.print_op_attributes(self.attributes)


def _parse_map_op(cls: type[Operation], parser: Parser) -> Operation:
    """``affine_map<...>(%dims)[%syms] attr-dict`` (affine.apply, min, max)."""
    pos = parser.pos
    m = parser.parse_attribute()
    if not isinstance(m, AffineMapAttr):
        parser.raise_error(f"expected an affine map, not {m}", pos, parser.pos)
    operands = _parse_dim_and_symbol_list(parser, m.data.num_dims, m.data.num_symbols, "this affine map")
    op = cls.build(operands=[operands], result_types=[IndexType()], properties={"map": m})
    _attr_dict(op, parser)
    return op


def _print_map_op(op: Operation, printer: Printer) -> None:
    m = op.properties["map"]
    assert isinstance(m, AffineMapAttr)
    printer.print_string(" ")
    printer.print_attribute(m)
    _print_dim_and_symbol_list(printer, list(op.operands), m.data.num_dims)
    printer.print_op_attributes(op.attributes)


class AffineApplyOp(affine.ApplyOp):
    """``affine.apply #map(%dims)[%syms]``."""

    name = "affine.apply"

    @classmethod
    def parse(cls, parser: Parser) -> AffineApplyOp:
        return _parse_map_op(cls, parser)  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        _print_map_op(self, printer)


class AffineMinOp(affine.MinOp):
    """``affine.min #map(%dims)[%syms]``: the least of the map's results."""

    name = "affine.min"

    @classmethod
    def parse(cls, parser: Parser) -> AffineMinOp:
        return _parse_map_op(cls, parser)  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        _print_map_op(self, printer)


@irdl_op_definition
class AffineMaxOp(IRDLOperation):
    """``affine.max #map(%dims)[%syms]``: the greatest of the map's results.
    (Not a subclass of ``affine.min``: an ``isinstance(op, affine.MinOp)`` must
    not take it for one.)"""

    name = "affine.max"

    arguments = var_operand_def(IndexType())
    result = result_def(IndexType())
    map = prop_def(AffineMapAttr)

    traits = traits_def(Pure())

    def verify_(self) -> None:
        m = self.map.data
        if len(self.operands) != m.num_dims + m.num_symbols:
            raise VerifyException(f"its map takes {m.num_dims + m.num_symbols} operands, not {len(self.operands)}")
        if not m.results:
            raise VerifyException("its map has no result")

    @classmethod
    def parse(cls, parser: Parser) -> AffineMaxOp:
        return _parse_map_op(cls, parser)  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        _print_map_op(self, printer)


# ---------------------------------------------------------------------------
# scf
# ---------------------------------------------------------------------------


class SCFParallelOp(scf.ParallelOp):
    """``scf.parallel (%i) = (%lb) to (%ub) step (%s) (init (%v) -> t)? {...}``."""

    name = "scf.parallel"

    @classmethod
    def parse(cls, parser: Parser) -> SCFParallelOp:
        ivs = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False))
        parser.parse_punctuation("=")

        def operands(what: str) -> list[SSAValue]:
            pos = parser.pos
            us = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_unresolved_operand)
            if len(us) != len(ivs):
                parser.raise_error(f"expected {len(ivs)} {what} (one per induction variable), not {len(us)}", pos, parser.pos)
            return [parser.resolve_operand(u, IndexType()) for u in us]

        lbs = operands("lower bounds")
        parser.parse_keyword("to")
        ubs = operands("upper bounds")
        parser.parse_keyword("step")
        steps = operands("steps")
        inits_u: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("init") is not None:
            inits_u = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        pos = parser.pos
        types = _parse_optional_arrow_types(parser)
        if len(types) != len(inits_u):
            parser.raise_error(f"{len(inits_u)} init values but {len(types)} result types", pos, parser.pos)
        inits = [parser.resolve_operand(u, t) for u, t in zip(inits_u, types)]
        body = parser.parse_region([iv.resolve(IndexType()) for iv in ivs])
        _ensure_terminator(body, SCFReduceOp)
        op = cls.build(operands=[lbs, ubs, steps, inits], result_types=[types], regions=[body])
        _attr_dict(op, parser)
        return op

    def print(self, printer: Printer) -> None:
        def values(vs: Sequence[SSAValue]) -> None:
            printer.print_string("(")
            printer.print_list(vs, printer.print_ssa_value)
            printer.print_string(")")

        printer.print_string(" ")
        printer.print_string("(")
        printer.print_list(self.body.block.args, lambda a: printer.print_block_argument(a, print_type=False))
        printer.print_string(") = ")
        values(self.lowerBound)
        printer.print_string(" to ")
        values(self.upperBound)
        printer.print_string(" step ")
        values(self.step)
        if self.initVals:
            printer.print_string(" init ")
            values(self.initVals)
        _print_optional_arrow_types(printer, self.result_types)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)


class SCFReduceOp(scf.ReduceOp):
    """``scf.reduce (`(` %v, ... `:` t, ... `)`)? ({^bb0(%a: t, %b: t): ...}, ...)?``."""

    name = "scf.reduce"

    @classmethod
    def parse(cls, parser: Parser) -> SCFReduceOp:
        # the operand list is optional: ``scf.reduce`` alone ends a loop without reductions
        args = parse_typed_operands(parser) if parser._current_token.kind == MLIRTokenKind.L_PAREN else []  # noqa: SLF001
        regions: list[Region] = []
        if args:
            regions.append(parser.parse_region())
            while parser.parse_optional_punctuation(",") is not None:
                regions.append(parser.parse_region())
        op = cls.build(operands=[args], regions=[regions])
        _attr_dict(op, parser)
        return op

    def print(self, printer: Printer) -> None:
        if self.args:
            print_typed_operands(printer, self.args)
            printer.print_string(" ")
            printer.print_list(self.reductions, printer.print_region)
        printer.print_op_attributes(self.attributes)


# ---------------------------------------------------------------------------
# memref
# ---------------------------------------------------------------------------


def _parse_alloc(cls: type[Operation], parser: Parser) -> Operation:
    """``(%dyn...)([%sym...])? (alignment = N)? attr-dict : memref-type``."""
    dyn = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, lambda: parser.parse_operand(IndexType()))
    syms = parser.parse_optional_comma_separated_list(Parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())) or []
    props: dict[str, Attribute] = {}
    if parser.parse_optional_keyword("alignment") is not None:
        parser.parse_punctuation("=")
        props["alignment"] = IntegerAttr(parser.parse_integer(allow_boolean=False), i64)
    attrs = parser.parse_optional_attr_dict()
    if "alignment" in attrs:  # MLIR before 20 printed it in the attribute dictionary
        props["alignment"] = attrs.pop("alignment")
    parser.parse_punctuation(":")
    pos = parser.pos
    t = parser.parse_type()
    if not isinstance(t, MemRefType):
        parser.raise_error(f"expected a memref type, not {t}", pos, parser.pos)
    op = cls.build(operands=[dyn, syms], result_types=[t], properties=props)
    op.attributes |= attrs
    return op


def _print_alloc(op: memref.AllocOp | memref.AllocaOp, printer: Printer) -> None:
    printer.print_string("(")
    printer.print_list(op.dynamic_sizes, printer.print_ssa_value)
    printer.print_string(")")
    if op.symbol_operands:
        printer.print_string("[")
        printer.print_list(op.symbol_operands, printer.print_ssa_value)
        printer.print_string("]")
    if op.alignment is not None:
        printer.print_string(f" alignment = {op.alignment.value.data}")
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(op.memref.type)


class MemRefAllocOp(memref.AllocOp):
    """``memref.alloc(%dyn)[%sym] alignment = 16 : memref<...>``."""

    name = "memref.alloc"

    @classmethod
    def parse(cls, parser: Parser) -> MemRefAllocOp:
        return _parse_alloc(cls, parser)  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        _print_alloc(self, printer)


class MemRefAllocaOp(memref.AllocaOp):
    """``memref.alloca(%dyn)[%sym] alignment = 16 : memref<...>``."""

    name = "memref.alloca"

    @classmethod
    def parse(cls, parser: Parser) -> MemRefAllocaOp:
        return _parse_alloc(cls, parser)  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        _print_alloc(self, printer)


class MemRefCastOp(memref.CastOp):
    """``memref.cast %a : memref<4xf32> to memref<?xf32>``."""

    name = "memref.cast"

    def verify_(self) -> None:
        # upstream's CastOp::areCastCompatible, for ranked memrefs: the same
        # element type, memory space and rank, and each dim equal unless one is ?
        # (an unranked memref casts to and from any of the same element type)
        a, b = self.source.type, self.dest.type
        if a.element_type != b.element_type:
            raise VerifyException(f"operand type {a} and result type {b} are cast incompatible (element types differ)")
        if isinstance(a, MemRefType) and isinstance(b, MemRefType):
            if a.memory_space != b.memory_space:
                raise VerifyException(f"operand type {a} and result type {b} are cast incompatible (memory spaces differ)")
            sa, sb = a.get_shape(), b.get_shape()
            if len(sa) != len(sb) or any(x != y and DYNAMIC_INDEX not in (x, y) for x, y in zip(sa, sb)):
                raise VerifyException(f"operand type {a} and result type {b} are cast incompatible")
        elif not isinstance(a, MemRefType) and not isinstance(b, MemRefType):
            raise VerifyException(f"operand type {a} and result type {b} are cast incompatible (unranked to unranked)")

    @classmethod
    def parse(cls, parser: Parser) -> MemRefCastOp:
        u = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_t = parser.parse_type()
        parser.parse_keyword("to")
        dst_t = parser.parse_type()
        op = cls.build(operands=[parser.resolve_operand(u, src_t)], result_types=[dst_t])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.source)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" to ")
        printer.print_attribute(self.dest.type)


# ---------------------------------------------------------------------------
# llvm
# ---------------------------------------------------------------------------


_VISIBILITY = {0: "", 1: "hidden", 2: "protected"}  # LLVM::Visibility


@irdl_op_definition
class LLVMGlobalOp(llvm.GlobalOp):
    """``llvm.mlir.global`` with upstream's ``tls_mode`` property, which its
    generic form always carries (``tls_mode = 0 : i64``: not thread-local) and
    xDSL 0.74's definition lacks; the custom form is xDSL's, as upstream's."""

    name = "llvm.mlir.global"

    # (every field declared again, as for AffineParallelOp; `tls_mode` is new)
    global_type = prop_def()
    constant = opt_prop_def(UnitAttr)
    sym_name = prop_def(SymbolNameConstraint())
    linkage = prop_def(llvm.LinkageAttr)
    dso_local = opt_prop_def(UnitAttr)
    thread_local_ = opt_prop_def(UnitAttr)
    visibility_ = opt_prop_def(IntegerAttr[IntegerType])
    value = opt_prop_def()
    alignment = opt_prop_def(IntegerAttr)
    addr_space = prop_def(IntegerAttr)
    unnamed_addr = opt_prop_def(IntegerAttr)
    section = opt_prop_def(StringAttr)
    tls_mode = opt_prop_def(IntegerAttr)
    body = region_def()

    def verify_(self) -> None:
        # a thread-local mode other than the default has no custom form here: refuse it, not drop it
        if self.tls_mode is not None and self.tls_mode.value.data != 0:
            raise VerifyException(f"tls_mode {self.tls_mode.value.data} (a thread-local model) is not supported")
        if self.visibility_ is not None and self.visibility_.value.data not in _VISIBILITY:
            raise VerifyException(f"visibility_ {self.visibility_.value.data} is not one of {sorted(_VISIBILITY)}")

    @classmethod
    def parse(cls, parser: Parser) -> LLVMGlobalOp:
        """``linkage visibility? thread_local? unnamed_addr? constant? @name(value?) attr-dict (: type)? region?``
        (upstream's GlobalOp::parse; xDSL 0.74's reads no visibility)."""
        linkage = parser.parse_optional_keyword_in(llvm._LINKAGE_OPTIONS) or "external"  # noqa: SLF001
        vis = parser.parse_optional_keyword_in(("hidden", "protected"))
        thread_local_ = parser.parse_optional_keyword("thread_local") is not None
        ua = parser.parse_optional_keyword_in(tuple(llvm.UNNAMED_ADDR_KEY_BY_KEYWORD))
        constant = parser.parse_optional_keyword("constant") is not None
        sym_name = parser.parse_symbol_name()
        parser.parse_punctuation("(")
        value = None
        if parser.parse_optional_punctuation(")") is None:
            value = parser.parse_attribute()
            parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        pos = parser.pos
        if parser.parse_optional_punctuation(":") is not None:
            global_type = parser.parse_type()
        elif isinstance(value, (StringAttr, BytesAttr)):  # (bytes: not UTF-8, "\\FF")
            n = len(value.data.encode()) if isinstance(value, StringAttr) else len(value.data)
            global_type = llvm.LLVMArrayType(n, IntegerType(8))  # an array of its bytes, as upstream
        elif isinstance(value, TypedAttribute):
            global_type = value.get_type()
        else:
            parser.raise_error("expected ':' and the global's type", pos, parser.pos)
        props: dict[str, Attribute] = {"global_type": global_type, "sym_name": sym_name, "linkage": llvm.LinkageAttr(linkage), "addr_space": attrs.pop("addr_space", IntegerAttr(0, 32))}
        for key in ("alignment", "section", "dso_local", "tls_mode", "visibility_", "unnamed_addr"):
            if key in attrs:
                props[key] = attrs.pop(key)
        if constant:
            props["constant"] = UnitAttr()
        if thread_local_:
            props["thread_local_"] = UnitAttr()
        if value is not None:
            props["value"] = value
        if ua is not None:
            props["unnamed_addr"] = IntegerAttr(llvm.UNNAMED_ADDR_KEY_BY_KEYWORD[ua], 64)
        if vis is not None:
            props["visibility_"] = IntegerAttr({v: k for k, v in _VISIBILITY.items()}[vis], 64)
        op = cls.build(properties=props, regions=[parser.parse_optional_region() or Region()])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        """As upstream prints it (GlobalOp::print): keywords for the linkage,
        visibility, thread_local, unnamed_addr and constant; the type left out of
        a string global."""
        words = [self.linkage.linkage.data]
        if self.visibility_ is not None and _VISIBILITY.get(self.visibility_.value.data):
            words.append(_VISIBILITY[self.visibility_.value.data])
        if self.thread_local_ is not None:
            words.append("thread_local")
        if self.unnamed_addr is not None and (kw := llvm.UNNAMED_ADDR_KEYWORD_BY_KEY.get(self.unnamed_addr.value.data)):
            words.append(kw)
        if self.constant is not None:
            words.append("constant")
        printer.print_string(" " + " ".join(words) + " ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string("(")
        if self.value is not None:
            printer.print_attribute(self.value)
        printer.print_string(")")
        shown = {k: v for k, v in self.properties.items() if k in ("addr_space", "alignment", "section", "dso_local")}
        printer.print_op_attributes(shown | self.attributes)
        if isinstance(self.value, (StringAttr, BytesAttr)) and not self.body.blocks:
            return
        printer.print_string(" : ")
        printer.print_attribute(self.global_type)
        if self.body.blocks:
            printer.print_string(" ")
            printer.print_region(self.body, print_entry_block_args=False)


# ---------------------------------------------------------------------------
# The dialects
# ---------------------------------------------------------------------------

UPSTREAM_OPS: dict[str, tuple[type[Operation], ...]] = {
    "affine": (AffineParallelOp, AffineIfOp, AffineApplyOp, AffineMinOp, AffineMaxOp),
    "scf": (SCFParallelOp, SCFReduceOp),
    "memref": (MemRefAllocOp, MemRefAllocaOp, MemRefCastOp),
    "llvm": (LLVMGlobalOp,),
}
"""Dialect name -> the op classes of this module that take the place of
xDSL's of the same name (or join them: ``affine.max``)."""


def with_upstream_syntax(dialect: Dialect) -> Dialect:
    """``dialect`` with this module's op classes in place of xDSL's."""
    ours = {op.name: op for op in UPSTREAM_OPS.get(dialect.name, ())}
    if not ours:
        return dialect
    ops = [ours.pop(op.name, op) for op in dialect.operations]
    return Dialect(dialect.name, [*ops, *ours.values()], list(dialect.attributes), list(dialect._interfaces))  # noqa: SLF001 (no public accessor in 0.74)
