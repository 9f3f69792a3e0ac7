"""The numpy semantics of the arith ops whose answer numpy's own ufuncs get
wrong: IEEE minimum/maximum (NaN, signed zeros), C-style and floor/ceil
integer quotients, arith.cmpf's predicates on NaN.  numpy only: the element types (``infs.element_types``),
the host's interpreter (``runtime.scalar_ops``) and the bundle's xDSL-free
host (``runtime.bundle.host_program``) share one definition of each.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def float_minimum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``arith.minimumf`` (IEEE 754-2019 minimum): NaN if either is NaN, and
    -0.0 < +0.0.  ``np.minimum`` gives its second operand on a tie, so
    ``min(-0.0, 0.0)`` was +0.0 and the answer depended on the operands'
    order (the lowering puts a constant last)."""
    a, b = np.asarray(a), np.asarray(b)
    return np.where((a == b) & np.signbit(a), a, np.minimum(a, b))


def float_maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``arith.maximumf``: NaN if either is NaN, and +0.0 > -0.0 (see float_minimum)."""
    a, b = np.asarray(a), np.asarray(b)
    return np.where((a == b) & ~np.signbit(a), a, np.maximum(a, b))


def trunc_quotient(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """C-style quotient (toward zero) of nonzero-divisor integers, in int64:
    ``arith.divsi`` and tdfg ``div`` on integers; the caller checks divisors and casts.

    From the floor quotient, not from magnitudes: ``abs`` of the int64 minimum
    is itself, which made ``-2^63 / 3`` come out positive.  ``MIN / -1`` wraps
    to ``MIN`` (two's complement, as the machine's divider gives)."""
    a64 = np.asarray(a).astype(np.int64)
    b64 = np.asarray(b).astype(np.int64)
    with np.errstate(all="ignore"):
        q = np.floor_divide(a64, b64)
        r = np.remainder(a64, b64)
    return q + ((r != 0) & ((a64 < 0) ^ (b64 < 0)))


def floordivsi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``arith.floordivsi`` on arrays of one integer dtype (nonzero divisors)."""
    # MLIR's floordivsi rounds toward -inf (numpy's floor_divide, in int64 so
    # that MIN / -1 wraps back to MIN in the type, as divsi); a signed i1's only
    # nonzero divisor is -1 (true), and -x wraps back to x
    if a.dtype == np.bool_:
        return a
    with np.errstate(all="ignore"):
        return np.floor_divide(a.astype(np.int64), b.astype(np.int64)).astype(a.dtype)


def ceildivsi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``arith.ceildivsi`` on arrays of one integer dtype (nonzero divisors)."""
    # toward +inf: the floor quotient, one more when the division is inexact
    if a.dtype == np.bool_:
        return a
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    with np.errstate(all="ignore"):
        return (np.floor_divide(a64, b64) + (np.remainder(a64, b64) != 0)).astype(a.dtype)


def _unordered(a, b):
    return np.isnan(a) | np.isnan(b)


# arith.cmpf: an ordered predicate is false and an unordered one true when an
# operand is NaN (MLIR's LangRef, as LLVM's fcmp); numpy's comparisons are all
# false on NaN except not_equal, so 'one' and the 'u' predicates add the test
CMPF_PREDICATES: dict[str, Callable[[Any, Any], Any]] = {
    "oeq": np.equal, "ogt": np.greater, "oge": np.greater_equal, "olt": np.less, "ole": np.less_equal,
    "one": lambda a, b: np.not_equal(a, b) & ~_unordered(a, b),
    "ueq": lambda a, b: np.equal(a, b) | _unordered(a, b),
    "ugt": lambda a, b: np.greater(a, b) | _unordered(a, b),
    "uge": lambda a, b: np.greater_equal(a, b) | _unordered(a, b),
    "ult": lambda a, b: np.less(a, b) | _unordered(a, b),
    "ule": lambda a, b: np.less_equal(a, b) | _unordered(a, b),
    "une": np.not_equal,
    "ord": lambda a, b: ~(np.isnan(a) | np.isnan(b)),
    "uno": lambda a, b: np.isnan(a) | np.isnan(b),
    "false": lambda a, b: np.full(np.broadcast(a, b).shape, False),
    "true": lambda a, b: np.full(np.broadcast(a, b).shape, True),
}  # fmt: skip
