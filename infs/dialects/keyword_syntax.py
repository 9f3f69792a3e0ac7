"""A table-driven ``keyword value`` assembly format for properties.

Ops whose syntax is a fixed sequence of ``keyword value`` pairs (all of
``pimcmd`` and several ``tdfg`` ops) declare ``FIELDS``, a tuple of
``Field(keyword, property, kind, optional)``; ``parse_fields``/``print_fields`` then
parse and print them.  Kinds:

``int`` ``IntegerAttr(i64)``; ``ints`` ``[1, 2]`` as ``DenseArrayBase(i64)``;
``str`` a bare identifier or a string literal (``\"paper-64\"``) as ``StringAttr``; ``pattern`` ``1:2:2`` as
``PatternAttr``; ``domain`` ``[0:N, 1:2]`` as ``DomainAttr``; ``expr`` an affine
expression as ``AffineAttr``; ``map`` ``[d0, d1 + 1]`` as ``MapAttr``; ``range`` ``[lo:hi]`` (ints, may be negative) as
``DenseArrayBase(i64)`` of two values; ``flag`` a bare keyword as ``UnitAttr``;
``number`` an int or float literal (``FloatAttr`` f64 / ``IntegerAttr`` i64).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from xdsl.dialects.builtin import DenseArrayBase, FloatAttr, IntegerAttr, StringAttr, UnitAttr, f64, i64
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.printer import Printer

from infs.dialects.lattice import (
    AffineAttr,
    DomainAttr,
    MapAttr,
    PatternAttr,
    I64_MAX,
    I64_MIN,
    parse_affine,
    parse_domain_body,
    parse_int64,
    parse_map_body,
    parse_pattern_body,
    short_int,
)


@dataclass(frozen=True)
class Field:
    keyword: str
    prop: str
    kind: str
    optional: bool = False


def int_array(values) -> DenseArrayBase:
    """``array<i64: ...>`` of ``values``, one attribute per tuple of values."""
    return _int_array(tuple(int(v) for v in values))


@lru_cache(maxsize=4096)
def _int_array(values: tuple[int, ...]) -> DenseArrayBase:
    # attributes are immutable; building a DenseArrayBase is slow in xDSL 0.74
    return DenseArrayBase.from_list(i64, list(values))


def format_number(v: float) -> str:
    """A float literal that ``parse_number_or_special`` reads back (``inf``, ``-inf``, ``nan`` too)."""
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    text = repr(v)
    mantissa, e, exponent = text.partition("e")
    # MLIR's float literal needs a '.' before an exponent ('1e+16' lexes as 1, then 'e')
    return f"{mantissa}.0e{exponent}" if e and "." not in mantissa else text


def parse_number_or_special(parser: Parser) -> int | float:
    """An integer or float literal, or ``inf``/``-inf``/``nan``."""
    start = parser.pos
    neg = parser.parse_optional_punctuation("-") is not None
    special = parser.parse_optional_keyword_in(("inf", "nan"))  # type: ignore[arg-type]
    if special is not None:
        v = math.inf if special == "inf" else math.nan
    else:
        try:
            v = parser.parse_number()
        except ValueError:  # more digits than Python converts
            parser.raise_error("integer literal out of the signed 64-bit range", start, parser.pos)
    v = -v if neg else v
    if isinstance(v, int) and not I64_MIN <= v <= I64_MAX:
        parser.raise_error(f"integer literal {short_int(v)} out of the signed 64-bit range", start, parser.pos)
    return v


# kinds whose value is a lattice attribute: its parser, and its ``str`` to print
_LATTICE_KINDS = {"pattern": (PatternAttr, parse_pattern_body), "domain": (DomainAttr, parse_domain_body), "expr": (AffineAttr, parse_affine), "map": (MapAttr, parse_map_body)}


def parse_field_value(parser: Parser, kind: str) -> Attribute:
    if kind in _LATTICE_KINDS:
        cls, parse = _LATTICE_KINDS[kind]
        return cls(parse(parser))
    if kind == "int":
        return IntegerAttr(parse_int64(parser), i64)
    if kind == "ints":
        return int_array(parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, lambda: parse_int64(parser)))
    if kind == "str":
        return StringAttr(parser.parse_identifier_or_str_literal())
    if kind == "range":
        parser.parse_punctuation("[")
        lo = parse_int64(parser)
        parser.parse_punctuation(":")
        hi = parse_int64(parser)
        parser.parse_punctuation("]")
        return int_array([lo, hi])
    if kind == "number":
        v = parse_number_or_special(parser)
        return FloatAttr(v, f64) if isinstance(v, float) else IntegerAttr(v, i64)
    raise ValueError(f"unknown field kind {kind}")


def print_field_value(printer: Printer, kind: str, attr: Attribute) -> None:
    if kind in _LATTICE_KINDS:
        printer.print_string(str(attr.data))  # type: ignore[attr-defined]
    elif kind == "str":
        assert isinstance(attr, StringAttr)
        printer.print_identifier_or_string_literal(attr.data)
    elif kind in ("ints", "range"):
        assert isinstance(attr, DenseArrayBase)
        values = [str(v) for v in attr.get_values()]
        printer.print_string(f"[{':'.join(values)}]" if kind == "range" else f"[{', '.join(values)}]")
    elif kind == "number" and isinstance(attr, FloatAttr):
        printer.print_string(format_number(float(attr.value.data)))
    elif kind in ("int", "number"):
        assert isinstance(attr, IntegerAttr)
        printer.print_string(str(attr.value.data))
    else:
        raise ValueError(f"unknown field kind {kind}")


def parse_fields(parser: Parser, fields: tuple[Field, ...]) -> dict[str, Attribute]:
    props: dict[str, Attribute] = {}
    for f in fields:
        if f.kind == "flag":
            if parser.parse_optional_keyword(f.keyword) is not None:
                props[f.prop] = UnitAttr()
            continue
        if f.optional:
            if parser.parse_optional_keyword(f.keyword) is None:
                continue
        else:
            parser.parse_keyword(f.keyword)
        props[f.prop] = parse_field_value(parser, f.kind)
    return props


def print_fields(printer: Printer, fields: tuple[Field, ...], props: dict[str, Attribute]) -> None:
    for f in fields:
        attr = props.get(f.prop)
        if attr is None:
            continue
        if f.kind == "flag":
            printer.print_string(f" {f.keyword}")
            continue
        printer.print_string(f" {f.keyword} ")
        print_field_value(printer, f.kind, attr)
