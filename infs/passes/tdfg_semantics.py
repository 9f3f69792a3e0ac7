"""Numpy semantics of the element-wise ``tdfg.cmp`` ops and of reduction kinds.

Shared by constant folding (``canonicalize-tdfg``) and the lattice evaluator
(``infs.runtime.lattice_eval``) so both agree bit for bit.  Integer ops wrap
around (two's complement), ``div`` on integers truncates toward zero (as
``arith.divsi``) and rejects a zero divisor, float ops stay in the tensor's
element type (f32), compare ops give booleans (``i1``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import AnyFloat, IntegerType
from xdsl.ir import Attribute


class TdfgSemanticsError(ValueError):
    """An element-wise op whose result is undefined (integer division by zero...)."""


def element_dtype(t: Attribute) -> np.dtype:
    """numpy dtype of a tdfg element type (f32, i32, i16, i8, i1)."""
    if isinstance(t, IntegerType):
        w = t.width.data
        if w == 1:
            return np.dtype(np.bool_)
        if w in (8, 16, 32, 64):
            return np.dtype(f"int{w}")
    if isinstance(t, AnyFloat) and t.bitwidth in (16, 32, 64):
        return np.dtype(f"float{t.bitwidth}")
    raise TdfgSemanticsError(f"no numpy type for tdfg element type {t}")


def _div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.dtype.kind == "f":
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.divide(a, b)
    if np.any(b == 0):
        raise TdfgSemanticsError("integer division by zero in 'tdfg.cmp' div")
    q = np.abs(a.astype(np.int64)) // np.abs(b.astype(np.int64))
    return np.where((a < 0) ^ (b < 0), -q, q)


def _not(a: np.ndarray) -> np.ndarray:
    return np.logical_not(a) if a.dtype == np.bool_ else np.invert(a)


def _relu(a: np.ndarray) -> np.ndarray:
    return np.maximum(a, np.zeros((), a.dtype))


_FUNCS = {
    "add": lambda a, b: np.bitwise_xor(a, b) if a.dtype == np.bool_ else np.add(a, b),  # i1 is mod 2 (as the machine)
    "sub": np.subtract,
    "mul": np.multiply,
    "div": _div,
    "fma": lambda a, b, c: (a & b) ^ c if a.dtype == np.bool_ else a * b + c,
    "min": np.minimum,
    "max": np.maximum,
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


REDUCE_UFUNCS = {"add": np.add, "mul": np.multiply, "min": np.minimum, "max": np.maximum}
