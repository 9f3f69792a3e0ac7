"""Value kinds of Python kernels: numpy 2's scalar types and their MLIR types.

Takes a Python or numpy value, or two kinds and an operator; gives its kind
(a numpy dtype's name, or the weakly typed ``"int"``/``"float"`` of NEP 50),
the kind an operation on two kinds has (asked of numpy itself), the MLIR type
of a kind, and the array element types a kernel may use.  Also the ``Array``
spec of an argument without an array, and ``KernelError``, the front end's
one-line error (``infs.frontend.python_kernel`` describes the semantics).
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import IndexType, IntegerType, f32, f64, i1
from xdsl.ir import Attribute

from infs.api import InfsError

# array element types a kernel may use (the machine's, infs/element_types.py, but i1)
ELEMENT_TYPES: dict[np.dtype, Attribute] = {
    np.dtype(np.float32): f32,
    np.dtype(np.float64): f64,
    np.dtype(np.int64): IntegerType(64),
    np.dtype(np.int32): IntegerType(32),
    np.dtype(np.int16): IntegerType(16),
    np.dtype(np.int8): IntegerType(8),
}
BOOL = "bool"
WEAK_KINDS = ("int", "float")
SUPPORTED_DTYPES = "float32, float64, int64, int32, int16, int8"

# A value's kind: a numpy dtype's name (a numpy scalar: an array element, or a
# value computed from one: "float32", "int64", "bool"), or "int"/"float" -- a
# Python int (loop variables, sizes: MLIR's ``index``) or float (``f64``),
# which numpy 2 treats as weakly typed.  (Names, not np.dtype objects: a dtype
# compares equal to the string "int" or "float".)
Kind = str


def mlir_type(kind: Kind) -> Attribute:
    if kind == "int":
        return IndexType()
    if kind == "float":
        return f64
    if kind == BOOL:
        return i1
    return ELEMENT_TYPES[np.dtype(kind)]


def kind_text(kind: Kind) -> str:
    return {"int": "Python int", "float": "Python float"}.get(kind, kind)


def is_int(kind: Kind) -> bool:
    return kind == "int" or (kind not in WEAK_KINDS and np.dtype(kind).kind == "i")


def is_float(kind: Kind) -> bool:
    return kind == "float" or (kind not in WEAK_KINDS and np.dtype(kind).kind == "f")


def _sample(kind: Kind):
    if kind == "int":
        return 3
    if kind == "float":
        return 3.0
    return np.dtype(kind).type(3)


def _kind_of(x: Any) -> Kind:
    if isinstance(x, (bool, np.bool_)):
        return BOOL
    if isinstance(x, np.generic):  # (before float: np.float64 is a Python float too)
        return x.dtype.name
    if isinstance(x, int):
        return "int"
    if isinstance(x, float):
        return "float"
    return np.dtype(type(x))


def result_kind(pyop: Callable[[Any, Any], Any], a: Kind, b: Kind) -> Kind:
    """The kind of ``a op b`` under numpy 2's rules: asked of numpy itself."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _kind_of(pyop(_sample(a), _sample(b)))


def join_kind(a: Kind, b: Kind) -> Kind:
    """The kind two values meet in (an ``if``'s branches, a loop-carried variable)."""
    if a == b:
        return a
    if BOOL in (a, b):
        return None
    return result_kind(operator.add, a, b)


@dataclass(frozen=True)
class Array:
    """An array argument's type without an array (for ``kernel.mlir``):
    ``Array("float32", 2)`` is ``memref<?x?xf32>``."""

    dtype: Any
    rank: int


class KernelError(InfsError):
    """Python the kernel front end does not read, or a bad call: one line."""
