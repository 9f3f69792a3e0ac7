"""How a part of the machine declares its configuration fields, and how a value is checked.

Takes nothing from infs.  Gives ``ConfigField`` (one field: its name, type,
default, inclusive range, the source of its default and the figure it moves
most), ``Part`` (one part of the machine: its config-file section, its fields
and the checks that relate them), ``FieldRange`` and ``check_value`` (a value
against its range, or a one-line ``ConfigError`` naming the field), and the
generic bounds the parts' ranges use.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


class ConfigError(ValueError):
    """An impossible or malformed hardware configuration (one-line message).

    Not an xDSL ``DiagnosticException``: the simulator and the bundle's runner
    load configs without xDSL; the pass runner (``infs.api``) reports it as the
    pass's error, like any other bad input."""


# Generic upper bounds: far beyond any machine the papers model, small enough
# that every count the models multiply (bytes x hops x cycles, summed over a
# run) stays exact in int64/float64.  Bounds with a specific reason say it.
COUNT = 1 << 20  # sizes, latencies, cycle counts
BYTES = 1 << 30  # byte counts

# The citation most defaults have: ASPLOS'23 Table 2, "System configuration".
TABLE_2 = "ASPLOS Table 2 (asplos:412-423)"


@dataclass(frozen=True)
class FieldRange:
    """One field's type (``int``, ``number`` = finite int/float, ``bool``, ``str``) and inclusive range."""

    kind: str
    lo: float | None = None
    hi: float | None = None
    why_lo: str = ""
    why_hi: str = ""


@dataclass(frozen=True)
class ConfigField:
    """One field of ``HardwareConfig``: ``type`` is its annotation as written
    (``"int"``, ``"float"``, ``"bool"``, ``"str"``, ``"Mapping[str, float]"``);
    ``default`` its value on paper-64 (a callable makes a fresh default per
    config: a table); ``source`` where that default comes from and ``moves``
    the figure it moves most (benchmarks/MODEL.md; a field without a source --
    a choice such as the cost profile, or a table whose entries cite their own
    -- is not in that table)."""

    name: str
    type: str
    default: Any
    range: FieldRange
    source: str = ""
    moves: str = ""


@dataclass(frozen=True)
class Part:
    """One part of the machine: ``section`` names its table in a config file
    (``[sram]``, ``[noc]``, ...), ``fields`` are its fields of
    ``HardwareConfig``, and ``checks`` relate them to each other and to other
    parts' fields (each takes the config and the text naming it, and raises
    ``ConfigError`` for a machine that cannot exist).  ``table`` names the one
    field whose entries the section holds instead (``[energy]``: the entries
    of ``energy_pj``)."""

    section: str
    title: str
    fields: tuple[ConfigField, ...]
    checks: tuple[Callable[[Any, str], None], ...] = ()
    table: str | None = None


def fmt_bound(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(v)


def show(v: Any) -> str:
    """A value for an error message: short, one line."""
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10**30:
        return f"an integer of {len(str(abs(v))) if abs(v) < 10**4000 else 'over 4000'} digits"
    text = json.dumps(v) if isinstance(v, (bool, str)) else repr(v)
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def check_value(where: str, key: str, r: FieldRange, v: Any) -> Any:
    """``v`` checked against ``r`` (numbers become floats); one-line ``ConfigError`` naming ``key``."""
    what = {"int": "an integer", "number": "a finite number", "bool": "true or false", "str": "a non-empty string", "table": "a table"}[r.kind]
    if r.kind == "int" and r.lo in (0, 1) and r.hi is not None:
        what = f"a {'positive' if r.lo else 'non-negative'} integer at most {fmt_bound(r.hi)}"
    elif r.lo is not None and r.hi is not None:
        what += f" in [{fmt_bound(r.lo)}, {fmt_bound(r.hi)}]"
    ok = {
        "int": lambda: type(v) is int,
        "number": lambda: type(v) in (int, float) and math.isfinite(v),
        "bool": lambda: type(v) is bool,
        "str": lambda: isinstance(v, str) and v != "",
        "table": lambda: isinstance(v, Mapping),
    }[r.kind]()
    if not ok:
        raise ConfigError(f"{where}: {key} must be {what}, got {show(v)}")
    if r.lo is not None and v < r.lo:
        raise ConfigError(f"{where}: {key} must be {what}, got {show(v)}" + (f" ({key} {r.why_lo})" if r.why_lo else ""))
    if r.hi is not None and v > r.hi:
        raise ConfigError(f"{where}: {key} must be {what}, got {show(v)}" + (f" ({key} {r.why_hi})" if r.why_hi else ""))
    return float(v) if r.kind == "number" else v
