"""The host code's value types and op tables (numpy only, no xDSL).

The schema's constants (``HOST_FORMAT``, ``OPS``, the limits), the data
form's type strings ("index", "iN", "f16"/"f32"/"f64", memrefs) and their
numpy dtypes, the integer helpers with xDSL 0.74's formulas, and the tables
of the ops ``host_program`` compiles to closures: those the host runs with the
regions' numpy semantics and those on Python ints wrapped to their width.
``host_form`` (which writes the data) and ``host_program`` (which compiles
it) share them.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from infs.arith_semantics import ceildivsi, float_maximum, float_minimum, floordivsi
from infs.runtime.bundle.errors import BundleError

HOST_FORMAT = 1
"""Version of the host section's schema (docs/bundles.md)."""

MAX_NESTING = 64  # regions inside regions a host function may have (the checker and compiler recurse on it)
MAX_SLOTS = 1 << 22  # SSA values of one function

Executor = Callable[[int, list[np.ndarray], list[Any]], Sequence[Any]]

# ---------------------------------------------------------------------------
# Types: "index", "iN", "f16"/"f32"/"f64", ["memref", [dims, -1 dynamic], elem]
# ---------------------------------------------------------------------------

FLOATS = {"f16": np.dtype(np.float16), "f32": np.dtype(np.float32), "f64": np.dtype(np.float64)}
_INT_DTYPES = {1: np.dtype(np.bool_), 8: np.dtype(np.int8), 16: np.dtype(np.int16), 32: np.dtype(np.int32), 64: np.dtype(np.int64)}


def int_width(t: Any) -> int | None:
    """Bits of an integer or index type ("index" is 64, as the host's), else None."""
    if t == "index":
        return 64
    if isinstance(t, str) and len(t) > 1 and t[0] == "i" and t[1:].isdigit() and t[1] != "0":
        w = int(t[1:])
        return w if w <= 1 << 16 else None
    return None


def is_float(t: Any) -> bool:
    return isinstance(t, str) and t in FLOATS


def is_memref(t: Any) -> bool:
    return isinstance(t, list)


def dtype_of(t: Any) -> np.dtype | None:
    """numpy type of a scalar type (``scalar_ops.numpy_dtype``), None for an odd-width integer."""
    if t == "index":
        return np.dtype(np.int64)
    if is_float(t):
        return FLOATS[t]
    return _INT_DTYPES.get(int_width(t) or 0)


def type_text(t: Any) -> str:
    if is_memref(t):
        return "memref<" + "".join(("?" if d < 0 else str(d)) + "x" for d in t[1]) + f"{t[2]}>"
    return str(t)


def check_type(t: Any, where: str) -> Any:
    if isinstance(t, str) and (t == "index" or is_float(t) or int_width(t)):
        return t
    if (
        isinstance(t, list) and len(t) == 3 and t[0] == "memref" and isinstance(t[1], list) and len(t[1]) <= 16
        and all(type(d) is int and -1 <= d < 1 << 48 for d in t[1]) and isinstance(t[2], str) and dtype_of(t[2]) is not None
    ):  # fmt: skip
        return t
    raise BundleError(f"{where}: {short_repr(t)} is not a host type")


def short_repr(v: Any) -> str:
    s = repr(v)
    return s if len(s) <= 60 else s[:57] + "..."


# ---------------------------------------------------------------------------
# Integer helpers with xDSL 0.74's formulas (xdsl.utils.comparisons), so that
# the values' Python types come out as the interpreter's do
# ---------------------------------------------------------------------------


def to_signed(signless: int, bitwidth: int) -> int:
    modulus = 2**bitwidth
    half_modulus = modulus >> 1
    return (signless + half_modulus) % modulus - half_modulus


def to_unsigned(signless: int, bitwidth: int) -> int:
    modulus = 2**bitwidth
    return (signless + modulus) % modulus


def _unsigned_view(a: np.ndarray) -> np.ndarray:
    return a.view(np.dtype(f"u{a.dtype.itemsize}")) if a.dtype != np.bool_ else a


def site_label(name: str, line: int | None) -> str:
    return f"'{name}' at line {line}" if line is not None else f"'{name}'"


# ---------------------------------------------------------------------------
# The ops the host runs with the regions' numpy semantics (scalar_ops.eval_scalar_op)
# ---------------------------------------------------------------------------


def _fdiv(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.divide(a, b)


def _fpowi(a, b):
    a = np.asarray(a)
    b = np.asarray(b).astype(np.int64)
    a, b = np.broadcast_arrays(a, b)
    x, r, n = a.copy(), np.ones_like(a), np.abs(b)
    while np.any(n > 0):
        odd = (n & 1) == 1
        r = np.where(odd, r * x, r)
        n = n >> 1
        x = np.where(n > 0, x * x, x)
    return np.where(b < 0, np.divide(np.ones_like(r), r), r)


def _minmax_si(which):
    def f(a, b):
        if np.asarray(a).dtype == np.bool_:  # a signed i1 is 0 or -1
            return (np.minimum if which is np.maximum else np.maximum)(a, b)
        return which(a, b)

    return f


def _bool_signed(cast):
    def f(a, dt):
        if np.asarray(a).dtype == np.bool_:  # true sign-extends to all ones
            return np.where(a, -1, 0).astype(dt)
        return cast(a, dt)

    return f


def _trunci(a, dt):
    return (np.asarray(a) & 1).astype(dt) if dt == np.bool_ else np.asarray(a).astype(dt)


# name -> (arity, f(*args) or f(arg, result dtype) for casts, is_cast)
NUMPY_OPS: dict[str, tuple[int, Callable[..., Any], bool]] = {
    "arith.addf": (2, np.add, False), "arith.subf": (2, np.subtract, False), "arith.mulf": (2, np.multiply, False),
    "arith.divf": (2, _fdiv, False), "arith.maximumf": (2, float_maximum, False), "arith.minimumf": (2, float_minimum, False),
    "arith.maxnumf": (2, np.fmax, False), "arith.minnumf": (2, np.fmin, False),
    "arith.divui": (2, lambda a, b: (_unsigned_view(a) // _unsigned_view(b)).view(a.dtype) if a.dtype != np.bool_ else a, False),
    "arith.remui": (2, lambda a, b: (_unsigned_view(a) % _unsigned_view(b)).view(a.dtype), False),
    "arith.shrui": (2, lambda a, b: np.right_shift(_unsigned_view(a), _unsigned_view(b)).view(a.dtype), False),
    "arith.maxsi": (2, _minmax_si(np.maximum), False), "arith.minsi": (2, _minmax_si(np.minimum), False),
    "arith.maxui": (2, lambda a, b: np.maximum(_unsigned_view(a), _unsigned_view(b)).view(a.dtype), False),
    "arith.minui": (2, lambda a, b: np.minimum(_unsigned_view(a), _unsigned_view(b)).view(a.dtype), False),
    "arith.floordivsi": (2, floordivsi, False), "arith.ceildivsi": (2, ceildivsi, False),
    "arith.negf": (1, np.negative, False),
    "arith.sitofp": (1, _bool_signed(lambda a, dt: np.asarray(a).astype(dt)), True),
    "arith.extsi": (1, _bool_signed(lambda a, dt: np.asarray(a).astype(dt)), True),
    "arith.trunci": (1, _trunci, True),
    "arith.extf": (1, lambda a, dt: np.asarray(a).astype(dt), True),
    "arith.truncf": (1, lambda a, dt: np.asarray(a).astype(dt), True),
    "arith.uitofp": (1, lambda a, dt: _unsigned_view(np.asarray(a)).astype(dt), True),
    "arith.extui": (1, lambda a, dt: _unsigned_view(np.asarray(a)).astype(dt), True),
    "arith.fptosi": (1, lambda a, dt: np.trunc(a).astype(dt), True),
    "math.absf": (1, np.abs, False), "math.absi": (1, np.abs, False), "math.sqrt": (1, np.sqrt, False),
    "math.exp": (1, np.exp, False), "math.log": (1, np.log, False), "math.tanh": (1, np.tanh, False),
    "math.fma": (3, lambda a, b, c: a * b + c, False), "math.powf": (2, np.power, False),
    "math.floor": (1, np.floor, False), "math.ceil": (1, np.ceil, False), "math.sin": (1, np.sin, False),
    "math.cos": (1, np.cos, False), "math.copysign": (2, np.copysign, False), "math.fpowi": (2, _fpowi, False),
}  # fmt: skip
# operand kind, result kind ("i" integer, "f" float) where not both float
NUMPY_KINDS = {
    **{f"arith.{n}": "ii" for n in ("divui", "remui", "shrui", "maxsi", "minsi", "maxui", "minui", "floordivsi", "ceildivsi", "extsi", "extui", "trunci")},
    "math.absi": "ii", "arith.sitofp": "if", "arith.uitofp": "if", "arith.fptosi": "fi",
}  # fmt: skip
DIVIDES = frozenset({"arith.divui", "arith.remui", "arith.floordivsi", "arith.ceildivsi"})

# Integer ops on Python ints, wrapped to the result's width (host_ops.HostIntegerArith)
WRAPPING = {
    "arith.addi": operator.add, "arith.subi": operator.sub, "arith.muli": operator.mul,
    "arith.andi": operator.and_, "arith.ori": operator.or_, "arith.xori": operator.xor,
}  # fmt: skip
CMPI_PREDICATES = (operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge, operator.lt, operator.le, operator.gt, operator.ge)
PYTHON_INT_OPS = frozenset({*WRAPPING, "arith.shli", "arith.shrsi", "arith.divsi", "arith.remsi", "arith.ceildivui"})

# Every op of the data form (what ``host_form`` writes)
OPS: frozenset[str] = frozenset({
    *NUMPY_OPS, *PYTHON_INT_OPS, "arith.cmpi", "arith.cmpf", "arith.select", "arith.index_cast", "arith.constant",
    "arith.fptoui", "arith.addui_extended", "arith.mulsi_extended", "arith.mului_extended", "arith.bitcast",
    "scf.for", "scf.if", "scf.while", "scf.index_switch", "scf.yield", "scf.condition", "func.call", "func.return",
    "memref.alloc", "memref.alloca", "memref.dealloc", "memref.load", "memref.store", "memref.dim", "memref.copy",
    "memref.cast", "memref.get_global", "cast", "offload",
})  # fmt: skip
OFFLOAD_KINDS = ("region", "graph", "program")
TERMINATORS = frozenset({"scf.yield", "scf.condition", "func.return"})
