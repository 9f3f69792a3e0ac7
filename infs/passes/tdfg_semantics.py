"""Numpy semantics of the element-wise ``tdfg.cmp`` ops (their arities, the
reduction kinds and element dtypes are in ``infs.element_types``).

Shared by constant folding (``canonicalize-tdfg``) and the lattice evaluator
(``infs.runtime.lattice_eval``) so both agree bit for bit.  Integer ops wrap
around (two's complement), ``div`` on integers truncates toward zero (as
``arith.divsi``) and rejects a zero divisor, float ops stay in the tensor's
element type (f32), compare ops give booleans (``i1``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from infs.element_types import elementwise_max, elementwise_min, trunc_quotient, wrapping_add


class TdfgSemanticsError(ValueError):
    """An element-wise op whose result is undefined (integer division by zero...)."""


def _div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "f":
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.divide(a, b)
    if np.any(b == 0):
        raise TdfgSemanticsError("integer division by zero in 'tdfg.cmp' div")
    return trunc_quotient(a, b)


def _not(a: np.ndarray) -> np.ndarray:
    return np.logical_not(a) if a.dtype == np.bool_ else np.invert(a)


def _relu(a: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "f":  # the machine's float relu: +0 when the sign bit is set (-0.0, -NaN too)
        return np.where(np.signbit(a), np.zeros((), a.dtype), a)
    return np.maximum(a, np.zeros((), a.dtype))


_FUNCS = {
    "add": wrapping_add,  # i1 is mod 2 (as the machine)
    "sub": np.subtract,
    "mul": np.multiply,
    "div": _div,
    "fma": lambda a, b, c: (a & b) ^ c if a.dtype == np.bool_ else a * b + c,
    "min": elementwise_min,  # floats: arith.minimumf (-0.0 < +0.0), whatever the operands' order
    "max": elementwise_max,
    "cmp_lt": np.less,
    "cmp_le": np.less_equal,
    "cmp_eq": np.equal,
    "select": lambda c, a, b: np.where(c, a, b),
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
    "not": _not,
    "abs": np.abs,
    "neg": np.negative,
    "relu": _relu,
}


def apply_cmp(op: str, args: Sequence[np.ndarray], out_dtype: np.dtype) -> np.ndarray:
    """Apply the element-wise op ``op`` to broadcastable arrays; result in ``out_dtype``."""
    f = _FUNCS.get(op)
    if f is None:
        raise TdfgSemanticsError(f"unknown tdfg.cmp op '{op}'")
    with np.errstate(over="ignore", invalid="ignore"):
        if op in ("sub", "neg") and args[0].dtype == np.bool_:
            raise TdfgSemanticsError(f"'tdfg.cmp' {op} on i1 tensors")
        return np.asarray(f(*args)).astype(out_dtype, copy=False)

