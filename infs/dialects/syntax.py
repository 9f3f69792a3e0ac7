"""Parsing/printing helpers shared by the custom assembly formats of infs ops,
and ``SymbolRegion``, the head ``stream.region`` and ``tdfg.graph`` share."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

from xdsl.dialects.builtin import AnyFloat, ArrayAttr, IndexType, IntegerType, MemRefType, StringAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation, prop_def, region_def, var_operand_def, var_result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import MultipleSpansParseError, ParseError, VerifyException
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from infs.dialects.lattice import I64_MAX, AccessMap, Affine, dim_index, parse_affine, parse_int64, short_int

OperationT = TypeVar("OperationT", bound=Operation)


def parse_typed_operands(parser: Parser, what: str = "", noun: str = "operands") -> list[SSAValue]:
    """``(%a, %b : t0, t1)`` or ``()``."""
    pos = parser.pos
    parser.parse_punctuation("(")
    if parser.parse_optional_punctuation(")") is not None:
        return []
    names = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    if len(names) != len(types):
        parser.raise_error(f"{what}{len(names)} {noun} but {len(types)} types", pos, parser.pos)
    return parser.resolve_operands(names, types, pos)


def print_typed_operands(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_string("(")
    if values:
        printer.print_list(values, printer.print_ssa_value)
        printer.print_string(" : ")
        printer.print_list([v.type for v in values], printer.print_attribute)
    printer.print_string(")")


def parse_operands_with_types(parser: Parser, keyword: str) -> list[SSAValue]:
    """``keyword(%a, %b : t0, t1)``; empty when the keyword is absent."""
    return parse_typed_operands(parser, f"{keyword}: ") if parser.parse_optional_keyword(keyword) is not None else []


def print_operands_with_types(printer: Printer, keyword: str, values: Sequence[SSAValue]) -> None:
    if values:
        printer.print_string(f" {keyword}")
        print_typed_operands(printer, values)


def parse_named_operands(parser: Parser, keyword: str) -> tuple[list[str], list[SSAValue]]:
    """``keyword(N = %n : index, alpha = %a : f32)``."""
    if parser.parse_optional_keyword(keyword) is None:
        return [], []

    def parse_one() -> tuple[str, SSAValue]:
        name = parser.parse_identifier(" (symbol name)")
        parser.parse_punctuation("=")
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        ty = parser.parse_type()
        return name, parser.resolve_operand(operand, ty)

    pairs = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parse_one)
    return [n for n, _ in pairs], [v for _, v in pairs]


def print_named_operands(printer: Printer, keyword: str, names: Sequence[str], values: Sequence[SSAValue]) -> None:
    if not values:
        return
    printer.print_string(f" {keyword}(")
    for i, (n, v) in enumerate(zip(names, values)):
        if i:
            printer.print_string(", ")
        printer.print_string(f"{n} = ")
        printer.print_ssa_value(v)
        printer.print_string(" : ")
        printer.print_attribute(v.type)
    printer.print_string(")")


def print_signature(printer: Printer, op: Operation, inputs: Sequence[Attribute], result: Attribute) -> None:
    """`` : <input types> -> <result type>`` and the op's attributes: how most custom forms end."""
    printer.print_string(" : ")
    printer.print_list(inputs, printer.print_attribute)
    printer.print_string(" -> ")
    printer.print_attribute(result)
    print_attributes(printer, op)


def parse_signature(parser: Parser, inputs: int | None = None) -> tuple[list[Attribute], Attribute]:
    """What ``print_signature`` writes before the attributes: ``inputs`` input types
    (any number if None) and the result type."""
    parser.parse_punctuation(":")
    if inputs is None:
        types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    else:
        types = [parser.parse_type() for _ in range(inputs)]
    parser.parse_punctuation("->")
    return types, parser.parse_type()


def print_reduction(printer: Printer, op: Operation, kind: str, input: SSAValue, dims: Sequence[int], init: SSAValue | None = None) -> None:
    """``kind %input over [dims] (init %v)? : <input type> -> <result type>``
    (``stream.reduce``, ``tdfg.stream_reduce``)."""
    printer.print_string(f" {kind} ")
    printer.print_ssa_value(input)
    printer.print_string(" over [" + ", ".join(str(int(d)) for d in dims) + "]")
    if init is not None:
        printer.print_string(" init ")
        printer.print_ssa_value(init)
    print_signature(printer, op, [input.type], op.results[0].type)


def parse_reduction(parser: Parser, init_type: Callable[[Attribute], Attribute] | None = None) -> tuple[str, SSAValue, list[int], SSAValue | None, Attribute]:
    """What ``print_reduction`` writes: kind, input, dims, init (of ``init_type(input
    type)``; only where the op takes one) and the result type."""
    kind = parser.parse_identifier(" (reduction kind)")
    inp = parser.parse_unresolved_operand()
    parser.parse_keyword("over")
    dims = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, lambda: parse_int64(parser))
    init = parser.parse_unresolved_operand() if init_type is not None and parser.parse_optional_keyword("init") is not None else None
    (itype,), rtype = parse_signature(parser, 1)
    init_val = parser.resolve_operand(init, init_type(itype)) if init is not None and init_type is not None else None
    return kind, parser.resolve_operand(inp, itype), dims, init_val, rtype


def parse_index_list(parser: Parser) -> tuple[AccessMap, list[int], list[SSAValue]]:
    """``[%idx, d1 + 1, k]``: affine entries, or SSA operands (indirect: index
    streams or tensors, defined earlier in the block)."""
    results: list[Affine] = []
    indirect_pos: list[int] = []
    indirect: list[SSAValue] = []

    def parse_entry() -> None:
        # an operand: the lexer's own check (a percent identifier), before any affine parse
        v = parser._parse_optional_operand_without_type() if parser._current_token.text.startswith("%") else None  # noqa: SLF001
        if v is not None:
            indirect_pos.append(len(results))
            indirect.append(v)
            results.append(Affine(0))
        else:
            results.append(parse_affine(parser))

    parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parse_entry)
    return AccessMap(tuple(results)), indirect_pos, indirect


def print_index_list(printer: Printer, amap: AccessMap, indirect_pos: Sequence[int], indirect: Sequence[SSAValue]) -> None:
    printer.print_string("[")
    ind = dict(zip(indirect_pos, indirect))
    for i, e in enumerate(amap.results):
        if i:
            printer.print_string(", ")
        if i in ind:
            printer.print_ssa_value(ind[i])
        else:
            printer.print_string(str(e))
    printer.print_string("]")


def print_attributes(printer: Printer, op: Operation) -> None:
    """`` attributes {...}``, the op's discardable attributes, at the end of its
    custom syntax (as MLIR's ``attr-dict-with-keyword``), so that the custom
    and the generic forms carry the same IR."""
    printer.print_op_attributes(op.attributes, print_keyword=True)


def parse_attributes(parser: Parser, op: OperationT) -> OperationT:
    """Reads what ``print_attributes`` wrote into ``op``; returns ``op``."""
    extra = parser.parse_optional_attr_dict_with_keyword()
    if extra is not None:
        op.attributes |= extra.data
    return op


def check_one_of(op: Operation, what: str, value: str, choices: Sequence[str]) -> None:
    if value not in choices:
        raise VerifyException(f"'{op.name}' {what} must be one of {', '.join(choices)}, got '{value}'")


def is_scalar_type(t: Attribute) -> bool:
    return isinstance(t, (IntegerType, IndexType, AnyFloat))


class SymbolRegion(IRDLOperation):
    """``op ins(arrays) syms(name = %v : T, ...) <HEAD> (-> T...)? (attributes {..})? { ^bb0(arrays..., scalars...): ... }``.

    An isolated region over arrays and named scalars (``stream.region``,
    ``tdfg.graph``): block arguments are the arrays, then the scalars; the
    index-typed scalars are symbols, named in affine expressions.  A subclass
    gives its own properties, ``print_head``/``parse_head`` (the keyword
    arguments of its ``__init__``) and ``DIMS``/``YIELD``."""

    arrays = var_operand_def(MemRefType)
    scalars = var_operand_def()
    res = var_result_def()
    sym_names = prop_def(ArrayAttr[StringAttr])
    body = region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    DIMS: ClassVar[str] = ""  # what the names d<i> stand for, in messages
    YIELD: ClassVar[type[Operation]]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.data for s in self.sym_names.data)

    @property
    def array_args(self) -> tuple[SSAValue, ...]:
        return tuple(self.body.block.args[: len(self.arrays)])

    @property
    def scalar_args(self) -> tuple[SSAValue, ...]:
        return tuple(self.body.block.args[len(self.arrays) :])

    def symbol_names(self) -> frozenset[str]:
        """Names of the index-typed scalars (usable in affine expressions)."""
        return frozenset(n for n, v in zip(self.names, self.scalars) if isinstance(v.type, IndexType))

    def verify_symbols(self) -> None:
        names = self.names
        if len(names) != len(self.scalars):
            raise VerifyException(f"'{self.name}' has {len(self.scalars)} scalars but {len(names)} names")
        if len(set(names)) != len(names):
            raise VerifyException(f"'{self.name}' has duplicate symbol names {list(names)}")
        for n in names:
            if dim_index(n) is not None:
                raise VerifyException(f"'{self.name}' symbol name '{n}' clashes with {self.DIMS} dim names d<i>")
        for v in self.scalars:
            if not is_scalar_type(v.type):
                raise VerifyException(f"'{self.name}' scalar operand must be an integer, index or float, got {v.type}")

    def verify_block_args(self) -> None:
        types = [v.type for v in self.arrays] + [v.type for v in self.scalars]
        if [a.type for a in self.body.block.args] != types:
            raise VerifyException(f"'{self.name}' block arguments must match the operands (arrays then scalars): expected {len(types)} of types {', '.join(map(str, types)) or 'none'}")

    def verify_yield(self) -> None:
        term = self.body.block.last_op
        if not isinstance(term, self.YIELD):
            raise VerifyException(f"'{self.name}' body must end with '{self.YIELD.name}'")
        if [v.type for v in term.operands] != [r.type for r in self.res]:
            raise VerifyException(f"'{self.name}' yields {[str(v.type) for v in term.operands]} but declares results {[str(r.type) for r in self.res]}")

    def print_head(self, printer: Printer) -> None:
        """What stands between ``syms(..)`` and the result types."""

    @classmethod
    def parse_head(cls, parser: Parser) -> dict[str, Any]:
        return {}

    def print(self, printer: Printer) -> None:
        print_operands_with_types(printer, "ins", self.arrays)
        print_named_operands(printer, "syms", self.names, self.scalars)
        self.print_head(printer)
        if self.res:
            printer.print_string(" -> ")
            printer.print_list([r.type for r in self.res], printer.print_attribute)
        print_attributes(printer, self)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)

    @classmethod
    def parse(cls, parser: Parser):
        arrays = parse_operands_with_types(parser, "ins")
        names, scalars = parse_named_operands(parser, "syms")
        head = cls.parse_head(parser)
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(arrays=arrays, scalars=scalars, sym_names=names, body=parser.parse_region(), result_types=result_types, **head)
        if attrs is not None:
            op.attributes |= attrs.data
        return op


class LiteralGuards:
    """Parser mixin (``class P(LiteralGuards, Parser)``): integer literals too
    long to convert, and shape dimensions beyond int64 (MLIR's shapes are
    int64; a bigger one is unusable everywhere), are parse errors at the
    literal instead of a ValueError/OverflowError later; so are float literals
    their type cannot hold, and a block label defined twice."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        guard_integer_literals(self)  # type: ignore[arg-type]

    def parse_shape_dimension(self, allow_dynamic: bool = True) -> int:
        start = self.pos  # type: ignore[attr-defined]
        dim = super().parse_shape_dimension(allow_dynamic)  # type: ignore[misc]
        if dim > I64_MAX:
            self.raise_error(f"shape dimension {short_int(dim)} out of the signed 64-bit range", start, self.pos)  # type: ignore[attr-defined]
        return dim

    def _parse_block(self):
        # xDSL records a block defined after a forward reference (`cf.br ^b` then
        # `^b:`) without its definition's span, so a second `^b:` is not seen as a
        # re-declaration and fails with a KeyError: record the span here.
        tok = self._current_token  # type: ignore[attr-defined]
        name = tok.text[1:]
        if tok.kind == MLIRTokenKind.CARET_IDENT and not Block.is_valid_name(name):
            block = self._parse_unnamed_block_label(tok)
        else:
            block = super()._parse_block()  # type: ignore[misc]
        self.blocks[name] = (block, tok.span)  # type: ignore[attr-defined]
        return block

    def _parse_unnamed_block_label(self, tok) -> Block:
        # MLIR's block labels are suffix-ids, so `^0` is a label; xDSL's Block
        # name setter refuses names starting with a digit (ValueError). Such a
        # block is parsed as an unnamed one, as xDSL already does for a forward
        # reference to it (`_get_block_from_name`).
        self._consume_token(MLIRTokenKind.CARET_IDENT)  # type: ignore[attr-defined]
        name = tok.text[1:]
        if name in self.blocks:  # type: ignore[attr-defined]
            block, original = self.blocks[name]  # type: ignore[attr-defined]
            if original is not None:
                raise MultipleSpansParseError(
                    tok.span, f"re-declaration of block '{name}'", "originally declared here:", [(original, None)]
                )
            self.forward_block_references.pop(name, None)  # type: ignore[attr-defined]
        else:
            block = Block()
        self._parse_optional_block_arg_list(block)  # type: ignore[attr-defined]
        self.parse_punctuation(":")  # type: ignore[attr-defined]
        self._parse_block_body(block)  # type: ignore[attr-defined]
        return block

    def parse_optional_successor(self):
        # The same for a successor naming such a label before its definition:
        # xDSL's `_get_block_from_name` skips an invalid name hint, its
        # `parse_optional_successor` does not.
        tok = self._parse_optional_token(MLIRTokenKind.CARET_IDENT)  # type: ignore[attr-defined]
        return None if tok is None else self._get_block_from_name(tok.span)  # type: ignore[attr-defined]

    def parse_optional_builtin_int_or_float_attr(self):
        # xDSL packs a float literal into its type's width, and a hex literal into
        # its byte size, with struct/to_bytes: a value the type cannot hold
        # (2.0e64 : f32, 0xFFF0000000000000 : f32) escapes as an OverflowError.
        start = self.pos  # type: ignore[attr-defined]
        try:
            return super().parse_optional_builtin_int_or_float_attr()  # type: ignore[misc]
        except OverflowError:
            self.raise_error("literal out of range of its type", start, self.pos)  # type: ignore[attr-defined]


def guard_integer_literals(parser: Parser) -> None:
    """Make ``parser`` report an integer literal too long for Python to convert
    as a parse error at the literal (xDSL's lexer raises a bare ValueError
    from ``int()``, e.g. for a 5000-digit ``arith.constant`` or memref size).
    Checked when the token is lexed, so every use of an integer is covered."""
    state = parser._parser_state  # noqa: SLF001 - the lexer is only reachable here
    if type(state.lexer) is MLIRLexer:
        state.lexer.__class__ = _GuardedLexer
    _check_integer_token(state.current_token)


def _check_integer_token(tok) -> None:
    limit = sys.get_int_max_str_digits()
    if tok.kind is MLIRTokenKind.INTEGER_LIT and limit and len(tok.text) > limit and tok.text[:2] not in ("0x", "0X"):
        raise ParseError(tok.span, f"integer literal of {len(tok.text)} digits is too long (at most {limit} digits)")


class _GuardedLexer(MLIRLexer):
    def lex(self):
        tok = super().lex()
        _check_integer_token(tok)
        return tok
