"""Regressions found by red-team programs written in the front ends users write
(plain affine/scf loops as cgeist prints C, linalg, Python kernels), each
checked against a numpy oracle written by hand from the program's C meaning,
not against infs's own reference evaluator (which is under test too)."""

import numpy as np
import pytest

from infs import api

_CMPF_SELECT = """
func.func @k(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %n: index) {
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xf32>
    %b = affine.load %B[%i] : memref<?xf32>
    %c = arith.cmpf PRED, %a, %b : f32
    %s = arith.select %c, %a, %b : f32
    affine.store %s, %C[%i] : memref<?xf32>
  }
  func.return
}
"""

# arith.cmpf with a NaN operand: ordered predicates false, unordered ones true
_NAN = float("nan")
_A = np.array([_NAN, 1.0, _NAN, -0.0, 2.0, 3.0, -1.0], np.float32)
_B = np.array([1.0, _NAN, _NAN, 0.0, 3.0, 3.0, -2.0], np.float32)
_UNORD = np.isnan(_A) | np.isnan(_B)
_TRUTH = {
    "one": (_A != _B) & ~_UNORD,
    "ueq": (_A == _B) | _UNORD,
    "ugt": (_A > _B) | _UNORD,
    "uge": (_A >= _B) | _UNORD,
    "ult": (_A < _B) | _UNORD,
    "ule": (_A <= _B) | _UNORD,
    "une": (_A != _B) | _UNORD,
    "olt": (_A < _B) & ~_UNORD,
}


@pytest.mark.parametrize("pred", sorted(_TRUTH))
@pytest.mark.parametrize("mode", ["auto", "near", "core"])
def test_cmpf_predicates_on_nan(pred, mode):
    n = len(_A)
    inputs = {"A": _A, "B": _B, "C": np.zeros(n, np.float32), "n": n}
    r = api.run(_CMPF_SELECT.replace("PRED", pred), inputs, config="tiny", mode=mode)
    np.testing.assert_array_equal(r.outputs["C"], np.where(_TRUTH[pred], _A, _B))


def test_cmpf_unordered_on_the_host():
    # a loop-carried select stays on the host (xDSL's interpreter + scalar_ops)
    text = """
func.func @k(%A: memref<?xf32>, %n: index) {
  affine.for %i = 1 to %n {
    %a = affine.load %A[%i] : memref<?xf32>
    %p = affine.load %A[%i - 1] : memref<?xf32>
    %c = arith.cmpf ult, %a, %p : f32
    %s = arith.select %c, %a, %p : f32
    affine.store %s, %A[%i] : memref<?xf32>
  }
  func.return
}
"""
    A = np.array([5.0, _NAN, 3.0, 4.0, 1.0], np.float32)
    want = A.copy()
    for i in range(1, len(A)):  # C: a < p, or either is NaN
        a, p = want[i], want[i - 1]
        want[i] = a if (np.isnan(a) or np.isnan(p) or a < p) else p
    r = api.run(text, {"A": A, "n": len(A)}, config="tiny", mode="auto")
    np.testing.assert_array_equal(r.outputs["A"], want)
