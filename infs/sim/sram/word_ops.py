"""Word-level element semantics of the SRAM machine's compute commands.

Takes the raw register words of a command's sources (``uint64``/``uint32``/
``uint16``/``uint8`` bit patterns, ``uint8`` 0/1 for i1) and gives the raw
words of its result, vectorized over every cell at once: ``word_op`` for the
element-wise ops, ``reduce_box`` for reductions.  The semantics are those
``infs.sim.sram.machine``'s docstring lists (numpy float32/float64, two's
complement with wraparound, i1 mod 2, compares to i1, logic on raw bits).
"""

from __future__ import annotations

import numpy as np

from infs.element_types import (
    COMPARE_OPS,
    ELEMENT_BITS,
    ELEMENT_DTYPES,
    WORD_TYPES,
    float_fold,
    float_maximum,
    float_minimum,
    is_float_element,
    reduce_identity,
    trunc_quotient,
)

# an element's value in a register word (an i1 is the word's 0/1) and on the host
TYPED = {n: (WORD_TYPES[b] if b == 1 else ELEMENT_DTYPES[n].type) for n, b in ELEMENT_BITS.items()}
HOST = {n: dt.type for n, dt in ELEMENT_DTYPES.items()}
SIGN = {b: WORD_TYPES[b](1 << (b - 1)) for b in (64, 32)}  # a float's sign bit in its raw word

def raw_const(const, ty: str):
    bits = ELEMENT_BITS[ty]
    if is_float_element(ty):
        return HOST[ty](const).view(WORD_TYPES[bits])
    return WORD_TYPES[bits](int(const) & ((1 << bits) - 1))


def _typed_const(const, ty: str):
    if is_float_element(ty):
        return HOST[ty](const)
    bits = ELEMENT_BITS[ty]
    v = int(const) & ((1 << bits) - 1)
    if ty == "i1":
        return np.uint8(v)
    if v >= 1 << (bits - 1):
        v -= 1 << bits
    return TYPED[ty](v)


def word_op(name: str, ty: str, raw_ins: list[np.ndarray], const=None, out: np.ndarray | None = None) -> np.ndarray:
    """Word-level ``name`` on raw operand words; returns raw result words.

    ``out`` (a raw view of the destination) is written in place when given and
    the op allows it, which avoids a temporary for the common element-wise ops."""
    bits = ELEMENT_BITS[ty]
    rt = WORD_TYPES[bits]
    tt = TYPED[ty]
    if name == "select":
        c = raw_ins[0].astype(bool)
        return np.where(c, raw_ins[1], raw_ins[2]).astype(rt, copy=False)
    raw = list(raw_ins)
    if const is not None:
        raw.append(raw_const(const, ty))
    if name in ("and", "or", "xor"):
        f = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[name]
        return f(raw[0], raw[1], out=out) if out is not None and out.dtype == rt else f(raw[0], raw[1]).astype(rt, copy=False)
    if name == "not":
        r = np.invert(raw[0])
        return (r & rt(1)) if ty == "i1" else r
    if name == "copy":
        return np.array(raw[0], dtype=rt, copy=True)
    if is_float_element(ty) and name in ("neg", "abs", "relu"):
        x, sign = raw[0], SIGN[bits]
        if name == "neg":
            return x ^ sign
        if name == "abs":
            return x & ~sign
        return np.where((x & sign) != 0, rt(0), x)
    vals = [(r.view(tt) if isinstance(r, np.ndarray) else _typed_const_raw(r, ty)) for r in raw]
    with np.errstate(all="ignore"):
        if ty == "i1":
            a = vals
            res = _i1_op(name, a)
        elif name in COMPARE_OPS:
            f = {"cmp_lt": np.less, "cmp_le": np.less_equal, "cmp_eq": np.equal}[name]
            return f(vals[0], vals[1]).astype(np.uint8)
        elif name == "div" and not is_float_element(ty):
            a, b = (np.asarray(v).astype(np.int64) for v in vals[:2])
            q = np.where(b == 0, 0, trunc_quotient(a, np.where(b == 0, 1, b)))
            res = q.astype(tt)  # wraps (MIN / -1 = MIN)
        else:
            typed_out = out.view(tt) if (out is not None and out.dtype == rt and bits > 1) else None
            res = _arith(name, vals, typed_out)
            if typed_out is not None and res is typed_out:
                return out
    res = np.asarray(res)
    if res.dtype != tt:
        res = res.astype(tt)
    return res.view(rt) if bits > 1 else res


def _typed_const_raw(r, ty: str):
    """A raw scalar constant as its typed value."""
    if is_float_element(ty):
        return WORD_TYPES[ELEMENT_BITS[ty]](r).view(HOST[ty])
    bits = ELEMENT_BITS[ty]
    v = int(r)
    if ty != "i1" and v >= 1 << (bits - 1):
        v -= 1 << bits
    return TYPED[ty](v)


def _arith(name: str, v: list, out):
    if name == "add":
        return np.add(v[0], v[1], out=out)
    if name == "sub":
        return np.subtract(v[0], v[1], out=out)
    if name == "mul":
        return np.multiply(v[0], v[1], out=out)
    if name == "div":
        return np.divide(v[0], v[1], out=out)
    if name == "fma":
        t = np.multiply(v[0], v[1])
        return np.add(t, v[2], out=out)
    if name in ("min", "max") and v[0].dtype.kind == "f":
        # arith.minimumf/maximumf: -0.0 < +0.0 in either operand order (np.minimum
        # gives its second operand on a tie; the lowering puts a constant last)
        return (float_minimum if name == "min" else float_maximum)(v[0], v[1])
    if name == "min":
        return np.minimum(v[0], v[1], out=out)
    if name == "max":
        return np.maximum(v[0], v[1], out=out)
    if name == "neg":
        # never into ``out``: numpy 2.4.6's np.negative reads a wrong input
        # element for 32-bit types when ``out`` is a strided view (e.g. bitlines
        # 0:5:4 of a tile); test_word_level_neg_on_a_strided_bitline_pattern
        return np.negative(v[0])
    if name == "abs":
        return np.abs(v[0], out=out)
    if name == "relu":
        return np.maximum(v[0], v[0].dtype.type(0), out=out)
    raise ValueError(f"unknown compute op '{name}'")


def _i1_op(name: str, v: list) -> np.ndarray:
    a = [np.asarray(x, dtype=np.uint8) for x in v]
    one = np.uint8(1)
    if name in ("add", "sub"):
        return (a[0] ^ a[1]) & one
    if name in ("mul", "div", "min"):
        return a[0] & a[1]
    if name == "max":
        return a[0] | a[1]
    if name == "fma":
        return (a[0] & a[1]) ^ a[2]
    if name in ("neg", "abs", "relu"):
        return a[0].copy()
    if name == "cmp_lt":
        return (a[0] < a[1]).astype(np.uint8)
    if name == "cmp_le":
        return (a[0] <= a[1]).astype(np.uint8)
    if name == "cmp_eq":
        return (a[0] == a[1]).astype(np.uint8)
    raise ValueError(f"unknown compute op '{name}'")


def to_raw(vals: np.ndarray, ty: str) -> np.ndarray:
    """Typed (or host) values as raw register words."""
    bits = ELEMENT_BITS[ty]
    if ty == "i1":
        return (np.asarray(vals) != 0).astype(np.uint8)
    return np.ascontiguousarray(np.asarray(vals).astype(TYPED[ty])).view(WORD_TYPES[bits])


def reduce_box(op: str, ty: str, x: np.ndarray, dims: tuple[int, ...]) -> np.ndarray:
    """Fold ``x`` over ``dims`` keeping them as size-1 axes (element semantics as compute).

    The fold starts from the kind's identity, so the reduction of an empty box
    is defined (a tensor moved out of the lattice reduces to the identity)."""
    if ty == "i1":
        x = np.asarray(x).astype(np.uint8)
        f = {"add": np.bitwise_xor, "mul": np.bitwise_and, "min": np.minimum, "max": np.maximum}[op]
        initial = np.uint8(1 if op in ("mul", "min") else 0)
        return (f.reduce(x, axis=dims, keepdims=True, initial=initial) & 1).astype(np.bool_)
    with np.errstate(all="ignore"):  # float min/max: -0.0 < +0.0 (float_fold)
        return float_fold(op, x, dims, True, reduce_identity(op, x.dtype))
