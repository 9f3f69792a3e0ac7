"""Upstream MLIR's reading of an affine map of SSA ids (``%A[%i, symbol(%n) + 1]``).

``affine.load``/``affine.store`` (and ``affine.vector_load``/``vector_store``)
write their indices as affine expressions of SSA values.  Upstream MLIR's
parser (``AffineParser::parseAffineMapOfSSAIds``) makes a bare ``%x`` a
*dimension* of the map and ``symbol(%x)`` a *symbol*; the operands are the
dims, in order of first use, then the symbols; a value used twice is the
same dim or symbol as at its first use.

xDSL 0.74's parser makes every ``%x`` a symbol instead, so
``affine.load %A[%i]`` inside ``affine.for %i`` became
``affine_map<()[s0] -> (s0)>`` applied to the loop index, and upstream MLIR
refuses that generic form ("operand cannot be used as a symbol": a loop
index is a valid dim, never a valid symbol).  It also did not read
``symbol(...)``, which upstream prints once ``--canonicalize`` has promoted a
top-level value to a symbol.  infs's parser reads the maps with the rules
here instead (``infs.api.LocatingParser``).

Printing has the converse bug in xDSL 0.74: the custom form of a map with
both dims and symbols names symbol ``k`` by operand ``k`` instead of operand
``num_dims + k``, so ``A[i + n]`` (``(d0)[s0] -> (d0 + s0)`` on ``%i, %n``)
printed as ``%A[%i + %i]``, a different program once read back.
``Printer`` here prints the four affine access ops as upstream does (a dim
as ``%x``, a symbol as ``symbol(%x)``); ``infs.api.to_text`` and infs-opt's
output use it.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap, AffineSymExpr
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer as XdslPrinter
from xdsl.syntax_printer import SyntaxPrinter as XdslSyntaxPrinter
from xdsl.parser.affine_parser import AffineParser
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind


class _SSAIdsParser(AffineParser):
    def parse_map_of_ssa_ids(self) -> tuple[AffineMap, list[tuple[Span, int]], list[tuple[Span, int]]]:
        """``[expr, ...]``; returns the map and its dim and symbol operands (name span, result number)."""
        seen: dict[tuple[str, int], AffineExpr] = {}
        dims: list[tuple[Span, int]] = []
        syms: list[tuple[Span, int]] = []

        def ssa_id(is_symbol: bool) -> AffineExpr:
            tok = self._parse_token(MLIRTokenKind.PERCENT_IDENT, "expected SSA identifier")
            index = 0
            if (num := self._parse_optional_token(MLIRTokenKind.HASH_IDENT)) is not None:  # %r#1: a result of a multi-result op
                if not num.text[1:].isdigit():
                    raise ParseError(num.span, "expected an integer as SSA value tuple index")
                index = int(num.text[1:])
            key = (tok.span.text, index)
            if key in seen:  # upstream: the first use decides dim or symbol
                return seen[key]
            if is_symbol:
                e = AffineExpr.symbol(len(syms))
                syms.append((tok.span, index))
            else:
                e = AffineExpr.dimension(len(dims))
                dims.append((tok.span, index))
            seen[key] = e
            return e

        def parse_optional_id() -> AffineExpr | None:
            tok = self._current_token
            if tok.kind == MLIRTokenKind.PERCENT_IDENT:
                return ssa_id(is_symbol=False)
            if tok.kind == MLIRTokenKind.BARE_IDENT and tok.text == "symbol":
                self._consume_token(MLIRTokenKind.BARE_IDENT)
                self._parse_token(MLIRTokenKind.L_PAREN, "expected '(' after 'symbol'")
                e = ssa_id(is_symbol=True)
                self._parse_token(MLIRTokenKind.R_PAREN, "expected ')' after the symbol's SSA identifier")
                return e
            return None

        exprs = self.parse_comma_separated_list(self.Delimiter.SQUARE, lambda: self._parse_affine_expr(parse_optional_id))
        return AffineMap(len(dims), len(syms), tuple(exprs)), dims, syms


def parse_affine_map_of_ssa_ids(parser: Parser) -> tuple[AffineMap, Sequence[SSAValue]]:
    """Parse ``[expr, ...]`` of SSA ids at ``parser``'s position as upstream
    MLIR does; returns the map and its operands (index-typed: dims, then symbols)."""
    amap, dims, syms = _SSAIdsParser(parser._parser_state).parse_map_of_ssa_ids()  # noqa: SLF001
    operands = [parser.resolve_operand(UnresolvedOperand(span, index), IndexType()) for span, index in (*dims, *syms)]
    return amap, operands


# -- printing ---------------------------------------------------------------------

_PREC = {AffineBinaryOpKind.Add: 10, AffineBinaryOpKind.Mul: 20, AffineBinaryOpKind.Mod: 20, AffineBinaryOpKind.FloorDiv: 20, AffineBinaryOpKind.CeilDiv: 20}


def _print_expr(printer: XdslPrinter, e: AffineExpr, dims: Sequence[SSAValue], syms: Sequence[SSAValue], min_prec: int = 0) -> None:
    """``e`` with ``%x`` for a dim and ``symbol(%x)`` for a symbol; the fewest
    parentheses that keep its meaning (every binary op but ``+`` binds its
    right operand tighter, as upstream parses them left to right)."""
    match e:
        case AffineConstantExpr(value=v):
            printer.print_string(str(v))
        case AffineDimExpr(position=p):
            printer.print_ssa_value(dims[p])
        case AffineSymExpr(position=p):
            printer.print_string("symbol(")
            printer.print_ssa_value(syms[p])
            printer.print_string(")")
        case AffineBinaryOpExpr(kind=kind, lhs=lhs, rhs=rhs):
            prec = _PREC[kind]
            token, right = f" {kind.get_token()} ", rhs
            if kind == AffineBinaryOpKind.Add:
                # upstream prints `a + b * -1` and `a + -3` as subtractions
                if isinstance(rhs, AffineConstantExpr) and rhs.value < 0:
                    token, right = " - ", AffineConstantExpr(-rhs.value)
                elif isinstance(rhs, AffineBinaryOpExpr) and rhs.kind == AffineBinaryOpKind.Mul and isinstance(rhs.rhs, AffineConstantExpr) and rhs.rhs.value == -1:
                    token, right = " - ", rhs.lhs
            parens = prec < min_prec
            if parens:
                printer.print_string("(")
            _print_expr(printer, lhs, dims, syms, prec)
            printer.print_string(token)
            _print_expr(printer, right, dims, syms, prec if token == " + " else prec + 1)
            if parens:
                printer.print_string(")")
        case _:
            raise ValueError(f"unexpected affine expression {e}")


def _print_access(printer: XdslPrinter, memref: SSAValue, amap: AffineMap, indices: Sequence[SSAValue]) -> None:
    printer.print_ssa_value(memref)
    dims, syms = indices[: amap.num_dims], indices[amap.num_dims :]
    printer.print_string("[")
    printer.print_list(amap.results, lambda r: _print_expr(printer, r, dims, syms))
    printer.print_string("] : ")
    printer.print_attribute(memref.type)


def _print_body(printer: XdslPrinter, op: Operation) -> None:
    """What follows the op's name in upstream's custom form."""
    printer.print_string(" ")
    if isinstance(op, (affine.StoreOp, affine.VectorStoreOp)):
        printer.print_ssa_value(op.value)
        printer.print_string(", ")
    _print_access(printer, op.memref, op.map.data, op.indices)
    if isinstance(op, affine.VectorLoadOp):
        printer.print_string(", ")
        printer.print_attribute(op.result.type)
    elif isinstance(op, affine.VectorStoreOp):
        printer.print_string(", ")
        printer.print_attribute(op.value.type)


# the classes xDSL prints with the wrong symbol operands (subclasses define their own print)
_ACCESS_OPS = (affine.LoadOp, affine.StoreOp, affine.VectorLoadOp, affine.VectorStoreOp)
_XDSL_PRINTS = {cls.print for cls in _ACCESS_OPS}


class _UpstreamAccessPrinting:
    def print_op(self, op: Operation) -> None:
        if self.print_generic_format or not isinstance(op, _ACCESS_OPS) or type(op).print not in _XDSL_PRINTS:
            return super().print_op(op)  # type: ignore[misc]
        # xDSL's Printer.print_op for an op with a custom form, but its body
        begin = self._current_column
        self._print_results(op)
        self.print_string(op.name)
        end = self._current_column
        for message in self.diagnostic.op_messages.get(op, ()):
            self._add_message_on_next_line(message, begin, end)
        _print_body(self, op)  # type: ignore[arg-type]
        if self.print_debuginfo:
            self.print_string(" ")
            self.print_attribute(op.location)


class Printer(_UpstreamAccessPrinting, XdslPrinter):
    """xDSL's printer, with upstream's custom form of the affine access ops."""


class SyntaxPrinter(_UpstreamAccessPrinting, XdslSyntaxPrinter):
    """xDSL's syntax-highlighting printer, with upstream's custom form of the affine access ops."""
