"""Front-end gaps that kept offloadable nests on the host, and float ``abs``.

* a reduction written as nested ``iter_args`` loops (``s += A[i, j] * A[i, j]``
  over two loops, min/max, integer sums; scf and affine) is one region that
  reduces over both dims;
* a conditional expression whose sides load arrays is a select in the region
  when every load is in bounds at every point of the domain, and stays on the
  host (with the reason) when that cannot be proved;
* ``abs`` of a float is ``math.absf``: ``abs(-0.0)`` is ``+0.0``.

The oracle is the same function called in plain Python (numpy scalars), or
numpy itself, on small machines and odd sizes.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import infs
from infs import api

from strategies import examples

EXAMPLES = examples(6, "INFS_FRONTEND_GAPS_EXAMPLES")
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def plain(fn, *args):
    """``fn`` run as plain Python on copies of the arrays (the oracle)."""
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        out = fn.fn(*copies)
    return copies, out


# ---------------------------------------------------------------------------
# float abs
# ---------------------------------------------------------------------------


@infs.kernel
def inv_abs(X, Y):
    for i in range(len(X)):
        Y[i] = 1.0 / abs(X[i])


@infs.kernel
def int_abs(X, Y):
    for i in range(len(X)):
        Y[i] = abs(X[i])


@pytest.mark.parametrize(("mode", "machine"), [("core", "functional"), ("near", "functional"), ("in", "functional"), ("in", "bitlevel")])
def test_abs_of_minus_zero_is_plus_zero(mode, machine):
    X = np.array([-0.0, 0.0, -2.0, 4.0, -np.inf, np.nan], np.float32)
    Y = np.zeros_like(X)
    (_, want), _ = plain(inv_abs, X, Y)
    inv_abs(X, Y, config="tiny", mode=mode, machine_mode=machine)
    assert np.array_equal(Y, want, equal_nan=True)
    assert Y[0] == np.inf and Y[1] == np.inf


def test_float_abs_is_math_absf_in_the_program():
    text = inv_abs.mlir(np.zeros(3, np.float32), np.zeros(3, np.float32))
    assert "math.absf" in text and "arith.select" not in text


@pytest.mark.parametrize("mode", ["core", "in"])
def test_integer_abs_wraps_on_int_min(mode):
    X = np.array([np.iinfo(np.int32).min, -1, 0, 7, np.iinfo(np.int32).max], np.int32)
    Y = np.zeros_like(X)
    (_, want), _ = plain(int_abs, X, Y)
    int_abs(X, Y, config="tiny", mode=mode)
    assert np.array_equal(Y, want) and Y[0] == np.iinfo(np.int32).min


# ---------------------------------------------------------------------------
# nested iter_args reductions: one region reducing over both dims
# ---------------------------------------------------------------------------


@infs.kernel
def sum_of_squares(A):
    s = 0.0
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            s += A[i, j] ** 2
    return s


@infs.kernel
def int_sum(A):
    s = 0
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            s += A[i, j]
    return s


@infs.kernel
def smallest(A, m: float):
    s = m
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            s = min(s, A[i, j])
    return s


@infs.kernel
def largest(A):
    s = -np.inf
    for i in range(A.shape[0]):
        for j in range(A.shape[1]):
            s = max(s, A[i, j])
    return s


def _one_2d_reduction(remarks: list[str]) -> bool:
    return any("extracted into 1 stream.region" in r and "iterators [reduction, reduction]" in r for r in remarks)


@pytest.mark.parametrize("kernel", [sum_of_squares, int_sum, largest])
def test_a_nested_python_reduction_is_one_region_over_both_dims(kernel):
    A = np.ones((3, 5), np.float32 if kernel is not int_sum else np.int32)
    assert _one_2d_reduction(kernel.remarks(A)), kernel.remarks(A)


@SETTINGS
@given(st.integers(0, 7), st.integers(0, 9), st.sampled_from(["f32", "f64", "i32"]), st.sampled_from(["in", "near", "core"]), st.integers(0, 2**31))
def test_nested_python_reductions_match_python(n, m, ty, mode, seed):
    rng = np.random.default_rng(seed)
    if ty == "i32":
        A = rng.integers(-(2**31), 2**31, (n, m), dtype=np.int64).astype(np.int32)  # wraps as numpy's int32 sum does
        kernels = [int_sum]
    else:
        # small integers in floats: every partial sum is exact, so any order of the fold is the loop's
        A = rng.integers(-20, 21, (n, m)).astype(np.float32 if ty == "f32" else np.float64)
        kernels = [sum_of_squares, largest]
    for k in kernels:
        if mode == "in" and A.size == 0:
            continue  # (an empty domain runs nowhere in memory)
        r = k(A, config="tiny", mode=mode)
        _, want = plain(k, A)
        assert r.value == want, (k.fn.__name__, r.value, want)
    if ty != "i32" and A.size and mode != "in":
        m0 = float(rng.integers(-30, 30))
        r = smallest(A, m0, config="tiny", mode=mode)
        assert r.value == plain(smallest, A, m0)[1]


FMAX = """
func.func @fmax(%A: memref<?x?xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?x?xf32>
  %m = memref.dim %A, %c1 : memref<?x?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %init) -> (f32) {
    %r2 = scf.for %j = %c0 to %m step %c1 iter_args(%b = %a) -> (f32) {
      %x = memref.load %A[%i, %j] : memref<?x?xf32>
      %s = arith.OP %b, %x : f32
      scf.yield %s : f32
    }
    scf.yield %r2 : f32
  }
  func.return %r : f32
}
"""


@SETTINGS
@given(st.integers(1, 6), st.integers(1, 7), st.sampled_from(["maxnumf", "minnumf", "maximumf", "minimumf"]), st.sampled_from(["in", "near"]),
       st.floats(-5, 5, width=32) | st.just(float("nan")), st.booleans(), st.integers(0, 2**31))
def test_nested_min_max_folds_keep_the_loops_nan_semantics(n, m, op, mode, init, const_init, seed):
    # fmax/fmin (maxnumf/minnumf) skip NaNs, maximumf/minimumf propagate them:
    # the region must give what the loops give, NaNs anywhere (also all of them)
    rng = np.random.default_rng(seed)
    A = rng.integers(-9, 10, (n, m)).astype(np.float32)
    A[rng.random((n, m)) < rng.choice([0.0, 0.3, 1.0])] = np.nan
    text = FMAX.replace("OP", op)
    if const_init:
        bits = "0x7FC00000" if np.isnan(init) else repr(float(np.float32(init)))
        text = text.replace("%init: f32) -> f32 {", f"%unused: f32) -> f32 {{\n  %init = arith.constant {bits} : f32")
    num = op.endswith("numf")
    region = not num or (const_init and not np.isnan(init))
    assert ("iterators [reduction, reduction]" in api.to_text(api.run_pipeline(api.parse_text(text, "f.mlir"), "extract-streams"))) == region
    want = np.float32(init)
    f = {"max": np.fmax if num else np.maximum, "min": np.fmin if num else np.minimum}[op[:3]]
    for x in A.ravel():
        want = f(want, x)
    got = api.run(text, {"A": A, ("unused" if const_init else "init"): np.float32(init)}, config="tiny", mode=mode if region else "auto").results[0]
    assert np.array_equal(np.float32(got), want, equal_nan=True), (got, want)


@pytest.mark.parametrize("op", ["maxnumf", "minnumf"])
def test_a_nan_skipping_fold_from_a_value_that_may_be_nan_stays_on_the_host(op):
    # fmax(NaN, every element NaN) is NaN; the region's fold would give its identity
    text = FMAX.replace("OP", op)
    module = api.run_pipeline(api.parse_text(text, "f.mlir"), "extract-streams")
    assert "stream.region" not in api.to_text(module)
    A = np.full((2, 3), np.nan, np.float32)
    got = api.run(text, {"A": A, "init": np.float32(np.nan)}, config="tiny", mode="auto").results[0]
    assert np.isnan(got)
    # from a constant that is not NaN, the fold is a region again
    const = text.replace("%init: f32) -> f32 {", "%unused: f32) -> f32 {\n  %init = arith.constant 3.0 : f32")
    assert "iterators [reduction, reduction]" in api.to_text(api.run_pipeline(api.parse_text(const, "f.mlir"), "extract-streams"))
    got = api.run(const, {"A": A, "unused": np.float32(0)}, config="tiny", mode="near").results[0]
    assert got == 3.0


@infs.kernel
def block_sums(A, B):
    for r in range(A.shape[0]):
        s = 0
        for i in range(A.shape[1]):
            for j in range(A.shape[2]):
                s += A[r, i, j]
        B[r] = s


@SETTINGS
@given(st.integers(1, 5), st.integers(0, 5), st.integers(1, 6), st.sampled_from(["in", "near", "core"]), st.integers(0, 2**31))
def test_a_nested_reduction_per_row_is_one_region(n, m, k, mode, seed):
    rng = np.random.default_rng(seed)
    A = rng.integers(-(2**31), 2**31, (n, m, k), dtype=np.int64).astype(np.int32)
    B = np.zeros(n, np.int32)
    assert any("iterators [parallel, reduction, reduction]" in r for r in block_sums.remarks(A, B)), block_sums.remarks(A, B)
    (_, want), _ = plain(block_sums, A, B)
    block_sums(A, B, config="tiny", mode=mode)
    np.testing.assert_array_equal(B, want)


SHIFTED = """
func.func @k(%A: memref<NxF32>, %B: memref<NxF32>, %C: memref<NxF32>) {
  %z = arith.constant 0.0 : f32
  affine.for %i = LO to HI {
    %c = affine.load %C[%i] : memref<NxF32>
    %p = arith.cmpf ogt, %c, %z : f32
    %v = scf.if %p -> (f32) {
      %a = affine.load %A[%i + OA] : memref<NxF32>
      scf.yield %a : f32
    } else {
      %b = affine.load %B[%i + OB] : memref<NxF32>
      scf.yield %b : f32
    }
    affine.store %v, %C[%i] : memref<NxF32>
  }
  func.return
}
"""


@SETTINGS
@given(st.integers(1, 13), st.integers(0, 13), st.integers(0, 13), st.integers(-3, 3), st.integers(-3, 3), st.sampled_from(["auto", "near"]), st.integers(0, 2**31))
def test_a_select_of_shifted_loads_is_extracted_exactly_when_in_bounds(n, lo, hi, oa, ob, mode, seed):
    hi = max(hi, lo)
    lo, hi = min(lo, n), min(hi, n)
    text = SHIFTED.replace("NxF32", f"{n}xf32").replace("LO", str(lo)).replace("HI", str(hi)).replace("OA", str(oa)).replace("OB", str(ob))
    in_bounds = all(0 <= lo + o and hi - 1 + o < n for o in (oa, ob))
    extracted = "stream.region" in api.to_text(api.run_pipeline(api.parse_text(text, "s.mlir"), "extract-streams"))
    if lo < hi:  # (an empty loop reads nothing: either way is right)
        assert extracted == in_bounds, (lo, hi, oa, ob)
    rng = np.random.default_rng(seed)
    A, B, C = (rng.integers(-5, 6, n).astype(np.float32) for _ in range(3))
    want, ok = C.copy(), True
    for i in range(lo, hi):  # the loops, as written
        j = i + (oa if want[i] > 0 else ob)
        if not 0 <= j < n:
            ok = False
            break
        want[i] = (A if want[i] > 0 else B)[j]
    if not ok:
        with pytest.raises(api.InfsError, match="out of bounds"):
            api.run(text, {"A": A, "B": B, "C": C}, config="tiny", mode=mode)
        return
    got = api.run(text, {"A": A, "B": B, "C": C}, config="tiny", mode=mode).outputs["C"]
    np.testing.assert_array_equal(got, want)


@infs.kernel
def lower_triangle_sum(A):
    s = 0
    for i in range(A.shape[0]):
        for j in range(i):
            s += A[i, j]
    return s


@pytest.mark.parametrize("mode", ["auto", "near", "core"])
def test_a_triangular_nested_reduction_folds_each_row_in_a_region(mode):
    A = np.arange(7 * 9, dtype=np.int32).reshape(7, 9) - 20
    remarks = lower_triangle_sum.remarks(A)
    assert any("extracted into 1 stream.region: domain [0:i] iterators [reduction]" in r for r in remarks), remarks
    r = lower_triangle_sum(A, config="tiny", mode=mode)
    assert r.value == plain(lower_triangle_sum, A)[1]
