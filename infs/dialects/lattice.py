"""Shared lattice attributes: the xDSL attributes that carry the lattice values.

The lattice's values (``Affine``, ``Domain``, ``AccessMap``, ``Pattern``,
ASPLOS'23 §3.2 and §4.2) are plain Python in ``infs.dialects.lattice_values``,
which imports no xDSL; this module parses, verifies and prints them as the
attributes the dialects carry: ``#lattice.expr<N - 1>``,
``#lattice.domain<[0:N-1, k+1:N]>``, ``#lattice.map<[d0, k]>``,
``#lattice.pattern<1:2:2>``.

All printed forms use balanced brackets only, so the generic form of every op
stays parseable by upstream MLIR (``--allow-unregistered-dialect``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from xdsl.ir import Data, Dialect
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from infs.dialects.lattice_values import (
    DIM_PREFIX,
    I64_MAX,
    I64_MIN,
    AccessMap,
    Affine,
    Domain,
    LatticeError,
    Pattern,
    affine_max,
    affine_min,
    dim_index,
    dim_name,
    provably_ge,
    short_int,
)


def parse_int64(parser: AttrParser, allow_negative: bool = True, context: str = "") -> int:
    """An integer literal that fits in 64 bits, else a parse error at the literal."""
    v = parse_optional_int64(parser, allow_negative)
    if v is None:
        parser.raise_error("Expected integer literal" + context)
    return v


def parse_optional_int64(parser: AttrParser, allow_negative: bool = True) -> int | None:
    start = parser.pos
    try:
        v = parser.parse_optional_integer(allow_boolean=False, allow_negative=allow_negative)
    except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
        parser.raise_error("integer literal out of the signed 64-bit range", start, parser.pos)
    if v is not None and not I64_MIN <= v <= I64_MAX:
        parser.raise_error(f"integer literal {short_int(v)} out of the signed 64-bit range", start, parser.pos)
    return v


def parse_affine(parser: AttrParser) -> Affine:
    """Parse ``term (('+'|'-') term)*`` with ``term := ['-'] INT ['*' NAME] | NAME ['*' INT]``."""

    def parse_term() -> Affine:
        neg = parser.parse_optional_punctuation("-") is not None
        val = parse_optional_int64(parser, allow_negative=False)
        if val is not None:
            term = Affine(val)
            if parser.parse_optional_punctuation("*") is not None:
                term = Affine.of(parser.parse_identifier(" in affine expression")) * val
        else:
            name = parser.parse_optional_identifier()
            if name is None:
                parser.raise_error("expected an integer or a symbol name in affine expression")
            term = Affine.of(name)
            if parser.parse_optional_punctuation("*") is not None:
                term = term * parse_int64(parser)
        return -term if neg else term

    expr = parse_term()
    while True:
        if parser.parse_optional_punctuation("+") is not None:
            expr = expr + parse_term()
        elif parser.parse_optional_punctuation("-") is not None:
            expr = expr - parse_term()
        else:
            return expr


def affine_from_text(text: str) -> Affine:
    """Parse an affine expression from a string (``"N - 1"``)."""
    from xdsl.context import Context
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    try:
        parser = Parser(Context(), text)  # lexes the first token: inside the try
        expr = parse_affine(parser)
        if parser._current_token.kind != MLIRTokenKind.EOF:  # noqa: SLF001 - no public 'at end' query
            raise LatticeError(f"unexpected '{parser._current_token.text}' in affine expression '{text}'")
    except ParseError as e:
        raise LatticeError(f"bad affine expression '{text}': {e.msg}") from None
    return expr


def parse_domain_body(parser: AttrParser) -> Domain:
    """``[p0:q0, p1:q1, ...]`` (rank 0: ``[]``)."""

    def parse_range() -> tuple[Affine, Affine]:
        p = parse_affine(parser)
        parser.parse_punctuation(":", " between domain bounds")
        q = parse_affine(parser)
        return p, q

    return Domain(tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parse_range)))


def verify_domain(domain: Domain, what: str = "domain") -> None:
    for d, (p, q) in enumerate(domain.bounds):
        if p.is_constant and q.is_constant and p.const > q.const:
            raise VerifyException(f"{what} {domain} has lower bound > upper bound in dim {d}")


def verify_access(name: str, amap: AccessMap, rank: int, dims: int, space: str, symbols: frozenset[str], pos: Sequence[int], n_indices: int, indices: str) -> None:
    """Op ``name``'s access of a rank-``rank`` array: one map result per array dim, map
    dims below ``dims`` (the rank of its ``space``), only the ``symbols`` declared, and
    its ``n_indices`` index ``indices`` at ``pos``, distinct array dims."""
    if amap.rank != rank:
        raise VerifyException(f"'{name}' access map {amap} has {amap.rank} results for a rank-{rank} array")
    for d in sorted(amap.dims_used()):
        if d >= dims:
            raise VerifyException(f"'{name}' access map {amap} uses d{d} outside the rank-{dims} {space}")
    unknown = amap.symbols_used() - symbols
    if unknown:
        raise VerifyException(f"'{name}' access map {amap} uses undeclared symbol(s) {sorted(unknown)}")
    if len(pos) != n_indices or len(set(pos)) != len(pos) or any(not 0 <= p < rank for p in pos):
        raise VerifyException(f"'{name}' indirect positions {list(pos)} do not match its {n_indices} index {indices}")


def parse_map_body(parser: AttrParser) -> AccessMap:
    return AccessMap(tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parse_affine(parser))))


def parse_pattern_body(parser: AttrParser) -> Pattern:
    start = parse_int64(parser)
    levels: list[tuple[int, int]] = []
    while parser.parse_optional_punctuation(":") is not None:
        stride = parse_int64(parser)
        parser.parse_punctuation(":", " between pattern stride and count")
        count = parse_int64(parser)
        levels.append((stride, count))
    if not levels:
        parser.raise_error("a pattern needs at least one ':stride:count' level")
    return Pattern(start, tuple(levels))


def verify_pattern(p: Pattern, what: str = "pattern") -> None:
    if not p.levels:
        raise VerifyException(f"{what} {p} has no stride:count level")
    if any(c <= 0 for _, c in p.levels):
        raise VerifyException(f"{what} {p} has a count <= 0")
    if p.start < 0:
        raise VerifyException(f"{what} {p} starts below 0")
    if p.min_index < 0:
        raise VerifyException(f"{what} {p} reaches negative indices")
    if p.max_index > I64_MAX:
        raise VerifyException(f"{what} {p} reaches beyond the signed 64-bit range")


# ---------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------


class _Bracketed:
    """``#lattice.NAME<text>``: the value parsed by ``PARSE`` inside angle
    brackets, printed by its ``str`` (which ``PARSE`` reads back)."""

    PARSE: ClassVar[Callable[[AttrParser], Any]]

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Any:
        with parser.in_angle_brackets():
            return cls.PARSE(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")  # type: ignore[attr-defined]


@irdl_attr_definition
class DomainAttr(_Bracketed, Data[Domain]):
    """``#lattice.domain<[p0:q0, ...]>`` -- a hyperrectangle with affine bounds."""

    name = "lattice.domain"
    PARSE = staticmethod(parse_domain_body)

    def verify(self) -> None:
        verify_domain(self.data)


@irdl_attr_definition
class MapAttr(_Bracketed, Data[AccessMap]):
    """``#lattice.map<[d0 - 1, k]>`` -- an affine access map."""

    name = "lattice.map"
    PARSE = staticmethod(parse_map_body)


@irdl_attr_definition
class PatternAttr(_Bracketed, Data[Pattern]):
    """``#lattice.pattern<start:stride:count...>`` -- a bitline/tile/bank index set."""

    name = "lattice.pattern"
    PARSE = staticmethod(parse_pattern_body)

    def verify(self) -> None:
        verify_pattern(self.data)


@irdl_attr_definition
class AffineAttr(_Bracketed, Data[Affine]):
    """``#lattice.expr<N - 1>`` -- one affine expression over symbols."""

    name = "lattice.expr"
    PARSE = staticmethod(parse_affine)


Lattice = Dialect("lattice", [], [DomainAttr, MapAttr, PatternAttr, AffineAttr])
