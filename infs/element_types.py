"""Element types and element-wise ops of the infs dialects: one table each.

What an element *is* -- its width in bits and bytes, its numpy type, the raw
word a register holds it in -- and what the element-wise ops and reduction
kinds of ``tdfg`` and ``pimcmd`` are (arity, identity, numpy ufunc).  The
dialect verifiers, the oracles (``infs.runtime.reference``,
``lattice_eval``), the passes, the cost model (``infs.hardware``) and the
simulator read these tables; nothing else spells them.

Widths follow the machine model (``pimcmd`` docstring, ASPLOS'23 §4.2): a
register holding an element of type f64/i64/f32/i32/i16/i8/i1 is that many
wordlines (a 64-bit register takes 64, so an array runs out of wordlines
twice as soon); in memory an i1 takes one byte (numpy's ``bool``).  f16 and
other types have no entry: a region using them is not tensorized and runs
near memory (or on the cores) with that reason.

This module imports nothing from infs: it is on the ground floor of the
layering (docs/architecture.md), below ``infs.hardware`` and the dialects,
which both read it.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import numpy as np

from infs.arith_semantics import float_maximum, float_minimum, trunc_quotient  # noqa: F401 -- the element types' semantics, shared with the xDSL-free host

if TYPE_CHECKING:
    from xdsl.ir import Attribute


def _builtin():
    """xDSL's builtin dialect if it is loaded, else None: a value can only be an
    xDSL type when xDSL is loaded, and the simulator and the bundle's host run
    without it (this module must not load it for them)."""
    return sys.modules.get("xdsl.dialects.builtin")


# ---------------------------------------------------------------------------
# Element types the machine holds
# ---------------------------------------------------------------------------

ELEMENT_BITS: dict[str, int] = {"f64": 64, "i64": 64, "f32": 32, "i32": 32, "i16": 16, "i8": 8, "i1": 1}
"""Bits of an element (= wordlines of a register holding it)."""

ELEMENT_BYTES: dict[str, int] = {n: max(1, b // 8) for n, b in ELEMENT_BITS.items()}
"""Bytes of an element in memory (an i1 is a byte)."""

ELEMENT_DTYPES: dict[str, np.dtype] = {
    "f64": np.dtype(np.float64), "i64": np.dtype(np.int64),
    "f32": np.dtype(np.float32), "i32": np.dtype(np.int32), "i16": np.dtype(np.int16),
    "i8": np.dtype(np.int8), "i1": np.dtype(np.bool_),
}  # fmt: skip
"""numpy type of an element's value (host arrays, buffers, results)."""

WORD_TYPES: dict[int, type[np.unsignedinteger]] = {64: np.uint64, 32: np.uint32, 16: np.uint16, 8: np.uint8, 1: np.uint8}
"""Unsigned word holding ``bits`` raw register bits (the simulator's storage)."""


def is_float_element(name: str) -> bool:
    return ELEMENT_DTYPES[name].kind == "f"


def element_name(t: "Attribute") -> str | None:
    """The table's name of an xDSL element type (``f64``, ``i32``...), or None
    when the machine holds no such element (f16, bf16, index, i4...)."""
    b = _builtin()
    if b is None:
        return None
    if isinstance(t, b.IntegerType):
        name = f"i{t.width.data}"
    elif isinstance(t, (b.Float16Type, b.Float32Type, b.Float64Type)):
        name = f"f{t.bitwidth}"
    else:
        return None
    return name if name in ELEMENT_BITS else None


def is_machine_element(t: "Attribute") -> bool:
    """Whether registers can hold elements of xDSL type ``t`` (a tdfg tensor / pimcmd type)."""
    return element_name(t) is not None


MACHINE_ELEMENTS = ", ".join(ELEMENT_BITS)
"""The element types the machine holds, as error messages list them."""


def numpy_dtype(t: "Attribute") -> np.dtype:
    """numpy dtype of a scalar or element type: ``index`` is int64, ``i1`` bool,
    other integers and floats of 8..64 bits their numpy type."""
    b = _builtin()
    if b is None:
        raise EvaluationError(f"no numpy type for {t}")
    if isinstance(t, b.IndexType):
        return np.dtype(np.int64)
    if isinstance(t, b.IntegerType):
        w = t.width.data
        if w == 1:
            return np.dtype(np.bool_)
        if w in (8, 16, 32, 64):
            return np.dtype(f"int{w}")
    if isinstance(t, (b.Float16Type, b.Float32Type, b.Float64Type)):  # IEEE only: bf16 is no float16
        return np.dtype(f"float{t.bitwidth}")
    raise EvaluationError(f"no numpy type for {t}")


class EvaluationError(ValueError):
    """A program whose reference semantics are undefined (out of bounds, division
    by zero, a type numpy cannot hold...)."""


# ---------------------------------------------------------------------------
# Element-wise ops (§3.2 compute nodes; pimcmd.compute adds ``copy``)
# ---------------------------------------------------------------------------

ELEMENTWISE_ARITY: dict[str, int] = {
    "add": 2, "sub": 2, "mul": 2, "div": 2, "fma": 3, "min": 2, "max": 2,
    "cmp_lt": 2, "cmp_le": 2, "cmp_eq": 2, "select": 3,
    "and": 2, "or": 2, "xor": 2, "not": 1, "abs": 1, "neg": 1, "relu": 1,
}  # fmt: skip
COMPARE_OPS = ("cmp_lt", "cmp_le", "cmp_eq")
COMMUTATIVE = ("add", "mul", "min", "max", "and", "or", "xor", "cmp_eq")  # tdfg-to-pimcmd puts a constant last
BITWISE_OPS = ("and", "or", "xor", "not")


def elementwise_min(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """tdfg/pimcmd ``min``: signed for integers, ``arith.minimumf`` for floats."""
    return float_minimum(a, b) if np.asarray(a).dtype.kind == "f" else np.minimum(a, b)


def elementwise_max(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """tdfg/pimcmd ``max``: signed for integers, ``arith.maximumf`` for floats."""
    return float_maximum(a, b) if np.asarray(a).dtype.kind == "f" else np.maximum(a, b)


def wrapping_add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``np.add`` (integers wrap around), except that i1 values wrap mod 2 (xor), as the machine adds them."""
    return np.bitwise_xor(a, b) if a.dtype == np.bool_ else np.add(a, b)


# ---------------------------------------------------------------------------
# Reduction kinds (tdfg.reduce / stream_reduce, pimcmd.reduce / near_reduce)
# ---------------------------------------------------------------------------

REDUCE_KINDS = ("add", "mul", "min", "max")
ATOMIC_KINDS = ("add", "min", "max")  # read-modify-writes whose order is unobservable
STORE_KINDS = ("store", *ATOMIC_KINDS)  # a plain store (the last write wins) or an atomic one
REDUCE_UFUNCS = {"add": np.add, "mul": np.multiply, "min": np.minimum, "max": np.maximum}


def reduce_ufunc(kind: str, dtype: np.dtype) -> np.ufunc:
    """The ufunc a tdfg/pimcmd reduction of ``kind`` folds ``dtype`` with: the
    machine's i1 is 0/1 with mod-2 arithmetic, so its add is xor (``np.add``
    on bools is or); mul is and, min and, max or (unsigned), numpy's bool ops."""
    if kind == "add" and np.dtype(dtype) == np.bool_:
        return np.bitwise_xor
    return REDUCE_UFUNCS[kind]


def zero_of_kind(kind: str, x: np.ndarray) -> np.ndarray:
    """Where ``x`` is the zero a float min (-0.0) / max (+0.0) prefers."""
    return (x == 0) & (np.signbit(x) if kind == "min" else ~np.signbit(x))


def float_fold(kind: str, x: np.ndarray, axis, keepdims: bool = True, initial=None) -> np.ndarray:
    """``ufunc.reduce`` of a reduction kind over ``axis``; a float min/max
    folds as ``arith.minimumf``/``maximumf`` (-0.0 < +0.0), which is
    order-free: ``np.minimum.reduce`` kept the sign of the zero its order met
    last, so the sequential reference and the machine's tree disagreed."""
    x = np.asarray(x)
    r = REDUCE_UFUNCS[kind].reduce(x, axis=axis, keepdims=keepdims, dtype=x.dtype, initial=initial)
    if kind in ("min", "max") and x.dtype.kind == "f":
        hit = np.any(zero_of_kind(kind, x), axis=axis, keepdims=keepdims)
        r = np.where((r == 0) & hit, x.dtype.type(-0.0 if kind == "min" else 0.0), r)
    return r


def float_fold_at(kind: str, target: np.ndarray, cells: np.ndarray, vals: np.ndarray, ufunc: np.ufunc | None = None) -> None:
    """``ufunc.at(target, cells, vals)`` (a flat ``target``) for an atomic of
    ``kind``; float min/max as ``arith.minimumf``/``maximumf`` (see float_fold)."""
    ufunc = ufunc or REDUCE_UFUNCS[kind]
    if kind not in ("min", "max") or target.dtype.kind != "f":
        ufunc.at(target, cells, vals)
        return
    hit = zero_of_kind(kind, target)
    np.logical_or.at(hit, cells, zero_of_kind(kind, np.asarray(vals)))
    ufunc.at(target, cells, vals)
    target[(target == 0) & hit] = -0.0 if kind == "min" else 0.0


def signed_atomic_ufunc(kind: str, dtype: np.dtype) -> np.ufunc:
    """The ufunc a stream-level atomic (or fold) of ``kind`` applies to
    ``dtype``: arith's semantics, where min/max are signed and an i1 is signed
    too (true is -1): on bools add is xor, min is or, max is and."""
    if np.dtype(dtype) == np.bool_:
        return {"add": np.bitwise_xor, "mul": np.logical_and, "min": np.logical_or, "max": np.logical_and}[kind]
    return REDUCE_UFUNCS[kind]


def signed_i1_identity(kind: str) -> int:
    """The identity of a stream-level (arith) min/max over i1 as its signed
    value: an i1 is signed there (true is -1), so min's is 0 (false, the
    largest) and max's is -1 (true).  ``reduce_identity`` gives the tdfg's
    unsigned 0/1 ones."""
    return 0 if kind == "min" else -1


def reduce_identity(kind: str, dtype: np.dtype) -> np.ndarray:
    """Neutral element of a reduction kind in ``dtype``: what a reduction of
    nothing gives (the oracles' and the machine's folds start from it)."""
    if kind == "add":
        return np.zeros((), dtype)
    if kind == "mul":
        return np.ones((), dtype)
    if kind == "min":
        return np.asarray(np.inf if dtype.kind == "f" else (True if dtype == np.bool_ else np.iinfo(dtype).max), dtype)
    if kind == "max":
        return np.asarray(-np.inf if dtype.kind == "f" else (False if dtype == np.bool_ else np.iinfo(dtype).min), dtype)
    raise EvaluationError(f"unknown reduction kind '{kind}' (known: {', '.join(REDUCE_KINDS)})")
