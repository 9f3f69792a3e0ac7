"""Vectorized numpy semantics of the scalar ``arith``/``math`` ops allowed in
``stream.compute`` bodies, with MLIR's integer and float semantics (C-style
truncating division, wrap-around, f32 kept in float32)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import FileLineColLoc, FloatAttr, IntegerAttr
from xdsl.ir import Operation

from infs.arith_semantics import CMPF_PREDICATES, ceildivsi, floordivsi
from infs.element_types import EvaluationError, float_maximum, float_minimum, numpy_dtype, trunc_quotient, wrapping_add


def _unsigned(a: np.ndarray) -> np.ndarray:
    return a.view(np.dtype(f"u{a.dtype.itemsize}")) if a.dtype != np.bool_ else a


def op_label(op: Operation) -> str:
    """An op by name and, when known, the source line it came from (of an
    ``@infs.kernel``, the Python line: the front end's locations survive extract-streams)."""
    loc = op.location
    return f"'{op.name}' at line {loc.line.data}" if isinstance(loc, FileLineColLoc) else f"'{op.name}'"


# The division helpers take a divisor with no zero: ``eval_scalar_op`` checks it
# first (the one point-dependent failure of these ops), naming the op's line.
def _divsi(a, b):
    return trunc_quotient(a, b).astype(a.dtype)


def _remsi(a, b):
    return (a.astype(np.int64) - _divsi(a, b).astype(np.int64) * b.astype(np.int64)).astype(a.dtype)


def _divui(a, b):
    return (_unsigned(a) // _unsigned(b)).view(a.dtype) if a.dtype != np.bool_ else a


def _remui(a, b):
    return (_unsigned(a) % _unsigned(b)).view(a.dtype)


# ops that fail on some points only (a zero divisor): which error a run reports,
# and whether any store happened first, depends on the order points are evaluated in
FAILS_ON_SOME_POINTS = (arith.DivSIOp, arith.DivUIOp, arith.RemSIOp, arith.RemUIOp, arith.FloorDivSIOp, arith.CeilDivSIOp)


def _fdiv(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.divide(a, b)


_CMPI_SIGNED = {"eq": np.equal, "ne": np.not_equal, "slt": np.less, "sle": np.less_equal, "sgt": np.greater, "sge": np.greater_equal}
_CMPI_UNSIGNED = {"ult": np.less, "ule": np.less_equal, "ugt": np.greater, "uge": np.greater_equal}

_BINARY: dict[type[Operation], Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    arith.AddfOp: np.add,
    arith.SubfOp: np.subtract,
    arith.MulfOp: np.multiply,
    arith.DivfOp: _fdiv,
    arith.MaximumfOp: float_maximum,  # -0.0 < +0.0, NaN-propagating
    arith.MinimumfOp: float_minimum,
    arith.MaxnumfOp: np.fmax,
    arith.MinnumfOp: np.fmin,
    arith.AddiOp: wrapping_add,  # i1 wraps: mod 2
    arith.SubiOp: lambda a, b: np.bitwise_xor(a, b) if a.dtype == np.bool_ else np.subtract(a, b),
    arith.MuliOp: np.multiply,
    arith.DivSIOp: _divsi,
    arith.DivUIOp: _divui,
    arith.RemSIOp: _remsi,
    arith.RemUIOp: _remui,
    arith.FloorDivSIOp: floordivsi,
    arith.CeilDivSIOp: ceildivsi,
    arith.AndIOp: np.bitwise_and,
    arith.OrIOp: np.bitwise_or,
    arith.XOrIOp: np.bitwise_xor,
    arith.MaxSIOp: np.maximum,
    arith.MinSIOp: np.minimum,
    arith.MaxUIOp: lambda a, b: np.maximum(_unsigned(a), _unsigned(b)).view(a.dtype),
    arith.MinUIOp: lambda a, b: np.minimum(_unsigned(a), _unsigned(b)).view(a.dtype),
    arith.ShLIOp: lambda a, b: np.left_shift(a, b.astype(a.dtype)),
    arith.ShRSIOp: lambda a, b: np.right_shift(a, b.astype(a.dtype)),
    arith.ShRUIOp: lambda a, b: np.right_shift(_unsigned(a), _unsigned(b)).view(a.dtype),
}


def constant_value(op: arith.ConstantOp) -> np.ndarray:
    v = op.value
    if isinstance(v, (IntegerAttr, FloatAttr)):
        return np.asarray(v.value.data, dtype=numpy_dtype(v.type))
    raise EvaluationError(f"unsupported constant {v}")


def _math_ops() -> dict[str, Callable[..., np.ndarray]]:
    return {
        "math.absf": np.abs,
        "math.absi": np.abs,
        "math.sqrt": np.sqrt,
        "math.exp": np.exp,
        "math.log": np.log,
        "math.tanh": np.tanh,
        "math.fma": lambda a, b, c: a * b + c,
        "math.powf": np.power,
        "math.floor": np.floor,
        "math.ceil": np.ceil,
        "math.sin": np.sin,
        "math.cos": np.cos,
        "math.copysign": np.copysign,
        "math.fpowi": _fpowi,
    }


def _fpowi(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``math.fpowi`` as LLVM's ``llvm.powi`` (compiler-rt's ``__powisf2``/``__powidf2``):
    square-and-multiply over the bits of ``|b|`` in ``a``'s type, then the
    reciprocal for a negative ``b`` -- not ``pow``, whose rounding can differ."""
    a = np.asarray(a)
    b = np.asarray(b).astype(np.int64)
    a, b = np.broadcast_arrays(a, b)
    x = a.copy()
    r = np.ones_like(a)
    n = np.abs(b)  # |INT64_MIN| stays negative: no i32 exponent reaches it
    while np.any(n > 0):
        odd = (n & 1) == 1
        r = np.where(odd, r * x, r)
        n = n >> 1
        x = np.where(n > 0, x * x, x)
    return np.where(b < 0, np.divide(np.ones_like(r), r), r)


_MATH = _math_ops()


def eval_scalar_op(op: Operation, args: Sequence[np.ndarray]) -> np.ndarray:
    """One arith/math op on broadcastable numpy arrays; result in the op's type."""
    rtype = numpy_dtype(op.results[0].type)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        if isinstance(op, arith.ConstantOp):
            return constant_value(op)
        f = _BINARY.get(type(op))
        if isinstance(op, (arith.MaxSIOp, arith.MinSIOp)) and np.asarray(args[0]).dtype == np.bool_:
            f = _BINARY[arith.MinSIOp if isinstance(op, arith.MaxSIOp) else arith.MaxSIOp]  # a signed i1 is 0 or -1
        if f is not None:
            a, b = args
            if isinstance(op, FAILS_ON_SOME_POINTS) and np.any(np.asarray(b) == 0):
                raise EvaluationError(f"division by zero in {op_label(op)}")
            return np.asarray(f(a, b)).astype(rtype, copy=False)
        if isinstance(op, arith.NegfOp):
            return np.negative(args[0]).astype(rtype, copy=False)
        if isinstance(op, arith.CmpfOp):
            pred = arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
            return CMPF_PREDICATES[pred](args[0], args[1])
        if isinstance(op, arith.CmpiOp):
            pred = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
            if pred in _CMPI_SIGNED:
                if pred not in ("eq", "ne") and np.asarray(args[0]).dtype == np.bool_:
                    return _CMPI_SIGNED[pred](args[1], args[0])  # a signed i1 is 0 or -1: slt(a, b) = ult(b, a)
                return _CMPI_SIGNED[pred](args[0], args[1])
            return _CMPI_UNSIGNED[pred](_unsigned(args[0]), _unsigned(args[1]))
        if isinstance(op, arith.SelectOp):
            return np.where(args[0], args[1], args[2]).astype(rtype, copy=False)
        if isinstance(op, (arith.SIToFPOp, arith.IndexCastOp, arith.ExtSIOp)) and np.asarray(args[0]).dtype == np.bool_:
            # a signed i1 is 0 or -1: true sign-extends to all ones (numpy's bool casts to 1)
            return np.where(args[0], -1, 0).astype(rtype)
        if isinstance(op, arith.TruncIOp) and rtype == np.bool_:
            return (np.asarray(args[0]) & 1).astype(rtype)  # the low bit, not "nonzero"
        if isinstance(op, (arith.SIToFPOp, arith.ExtFOp, arith.TruncFOp, arith.IndexCastOp, arith.ExtSIOp, arith.TruncIOp)):
            return np.asarray(args[0]).astype(rtype)
        if isinstance(op, (arith.UIToFPOp, arith.ExtUIOp)):
            return _unsigned(np.asarray(args[0])).astype(rtype)
        if isinstance(op, arith.FPToSIOp):
            return np.trunc(args[0]).astype(rtype)
        if op.name in _MATH:
            return np.asarray(_MATH[op.name](*args)).astype(rtype, copy=False)
    raise EvaluationError(f"{op_label(op)} is not supported in stream computations")
