"""The one table of element types and element-wise ops (infs.element_types):
its parts agree with each other and with every user's semantics."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, IndexType, IntegerType

from infs.dialects import pimcmd as pc
from infs.dialects import tdfg
from infs.element_types import (
    ELEMENT_BITS,
    ELEMENT_BYTES,
    ELEMENT_DTYPES,
    ELEMENTWISE_ARITY,
    REDUCE_KINDS,
    REDUCE_UFUNCS,
    EvaluationError,
    element_name,
    is_machine_element,
    numpy_dtype,
    reduce_identity,
    trunc_quotient,
)
from infs.hardware import get_profile
from infs.passes.tdfg_semantics import apply_cmp

TYPES = {"f64": Float64Type(), "i64": IntegerType(64), "f32": Float32Type(), "i32": IntegerType(32), "i16": IntegerType(16), "i8": IntegerType(8), "i1": IntegerType(1)}


@pytest.mark.parametrize("name", list(ELEMENT_BITS))
def test_widths_dtypes_and_attributes_agree(name):
    dt = ELEMENT_DTYPES[name]
    assert numpy_dtype(TYPES[name]) == dt
    assert str(TYPES[name]) == name  # the records spell element types as the IR prints them
    assert dt.itemsize == ELEMENT_BYTES[name]
    assert ELEMENT_BITS[name] == (1 if dt == np.bool_ else 8 * dt.itemsize)
    assert element_name(TYPES[name]) == name and is_machine_element(TYPES[name])


def test_the_machine_holds_64_bit_elements_but_no_half_floats():
    """f64 and i64 are machine elements (64 wordlines each);
    f16, bf16, index and odd widths are not (a region using them is not tensorized)."""
    assert ELEMENT_BITS["f64"] == ELEMENT_BITS["i64"] == 64
    for t in (Float16Type(), BFloat16Type(), IndexType(), IntegerType(4), IntegerType(128)):
        assert element_name(t) is None and not is_machine_element(t)


def test_numpy_dtype_of_scalars_and_refusal():
    assert numpy_dtype(IndexType()) == np.int64
    assert numpy_dtype(IntegerType(64)) == np.int64
    with pytest.raises(EvaluationError, match="no numpy type for i4"):
        numpy_dtype(IntegerType(4))


@pytest.mark.parametrize("op", list(ELEMENTWISE_ARITY))
def test_every_elementwise_op_has_oracle_semantics_and_a_machine_command(op):
    n = ELEMENTWISE_ARITY[op]
    args = [np.array([3, -2], np.int32)] * n
    out = apply_cmp(op, args, np.dtype(np.int32) if op not in ("cmp_lt", "cmp_le", "cmp_eq") else np.dtype(np.bool_))
    assert out.shape == (2,)
    assert pc.COMPUTE_ARITY[op] == n == tdfg.CMP_ARITY[op]


def test_every_element_type_and_op_is_priced():
    prof = get_profile("infs")
    for ty in ELEMENT_BITS:
        for op in pc.COMPUTE_ARITY:
            assert prof.compute_cycles(op, ty) > 0


@pytest.mark.parametrize("kind", REDUCE_KINDS)
@pytest.mark.parametrize("name", list(ELEMENT_DTYPES))
def test_reduce_identity_is_neutral(kind, name):
    dt = ELEMENT_DTYPES[name]
    if dt == np.bool_:
        xs = np.array([False, True])
        if kind == "add":  # i1 add is xor: 0 is neutral too
            assert not reduce_identity(kind, dt)
            return
    else:
        xs = np.array([-7, 0, 5, 100], dt)
    ident = reduce_identity(kind, dt)
    assert ident.dtype == dt
    np.testing.assert_array_equal(REDUCE_UFUNCS[kind](ident, xs), xs)
    assert REDUCE_UFUNCS[kind].reduce(xs[:0], initial=ident) == ident


def test_trunc_quotient_rounds_toward_zero():
    a = np.array([7, -7, 7, -7], np.int32)
    b = np.array([2, 2, -2, -2], np.int32)
    np.testing.assert_array_equal(trunc_quotient(a, b), [3, -3, -3, 3])


def test_trunc_quotient_of_the_int64_minimum():
    """abs(-2^63) is -2^63 in int64: the magnitude-based quotient gave -2^63 / 3 a
    positive result.  From the floor quotient it is exact; MIN / -1 wraps to MIN."""
    lo = np.iinfo(np.int64).min
    a = np.array([lo, lo, lo, lo + 1, -7], np.int64)
    b = np.array([3, -3, -1, 2, 2], np.int64)
    want = [-3074457345618258602, 3074457345618258602, lo, -4611686018427387903, -3]  # MIN / -1 wraps
    np.testing.assert_array_equal(trunc_quotient(a, b), want)


def test_bf16_has_no_numpy_type():
    """bf16 is a 16-bit float but not IEEE half: mapping it to float16 (as the
    oracles' dtype map did) computes wrong values; it is refused instead."""
    from xdsl.dialects.builtin import BFloat16Type

    with pytest.raises(EvaluationError, match="no numpy type for bf16"):
        numpy_dtype(BFloat16Type())
