"""Regressions found by running programs as MLIR users write them upstream
(affine loops, linalg named ops and generics, scf.parallel) through
extract-streams and the runtime, each against a numpy oracle."""

from __future__ import annotations

import numpy as np
import pytest

from infs import api

POOL = """
func.func @k(%I: memref<?x?x?x?xf32>, %K: memref<?x?xf32>, %O: memref<?x?x?x?xf32>) {
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%I, %K : memref<?x?x?x?xf32>, memref<?x?xf32>) outs(%O : memref<?x?x?x?xf32>)
  func.return
}
"""


def _pool_oracle(I: np.ndarray, O: np.ndarray, k: int, s: int) -> np.ndarray:
    out = O.copy()
    for n, c, h, w in np.ndindex(*O.shape):
        out[n, c, h, w] = max(O[n, c, h, w], I[n, c, s * h : s * h + k, s * w : s * w + k].max())
    return out


@pytest.mark.parametrize("mode", ["auto", "in"])
def test_pooling_nchw_max_is_the_running_max_of_the_window(mode: str) -> None:
    # upstream: O = max(O, I) over the window (K only gives its shape); xDSL's body
    # max(I, K) stored the max of an input cell and a kernel cell, in every mode
    rng = np.random.default_rng(0)
    I = rng.uniform(-1, 1, (1, 2, 6, 6)).astype(np.float32)
    K = rng.uniform(-1, 1, (2, 2)).astype(np.float32)
    O = rng.uniform(-1, 1, (1, 2, 3, 3)).astype(np.float32)
    res = api.run(POOL, {"I": I, "K": K, "O": O}, config="small-16", mode=mode)
    np.testing.assert_array_equal(res.outputs["O"], _pool_oracle(I, O, 2, 2))


@pytest.mark.parametrize(
    ("body", "args", "what"),
    [
        ("%z = arith.constant 1.5 : f64\n  linalg.fill ins(%z : f64) outs(%C : memref<?x?xf32>)", "%C: memref<?x?xf32>", "'linalg.fill' computes f64 for an output of f32 elements"),
        ("linalg.copy ins(%A : memref<?x?xi8>) outs(%C : memref<?x?xi32>)", "%A: memref<?x?xi8>, %C: memref<?x?xi32>", "'linalg.copy' computes i8 for an output of i32 elements"),
        ("linalg.add ins(%A, %A : memref<?x?xi8>, memref<?x?xi8>) outs(%C : memref<?x?xi32>)", "%A: memref<?x?xi8>, %C: memref<?x?xi32>", "'linalg.add' computes i8 for an output of i32 elements"),
    ],
)
def test_named_op_with_mixed_element_types_is_one_line_naming_it(body: str, args: str, what: str) -> None:
    # upstream casts a named op's operands to its output's type; xDSL's lowering does not,
    # and stored an i8 into an i32 array: a verifier error on a 'memref.store' the user never wrote
    text = f"func.func @k({args}) {{\n  {body}\n  func.return\n}}\n"
    inputs = {"A": np.ones((2, 3), np.int8), "C": np.zeros((2, 3), np.int32 if "i32" in args else np.float32)}
    with pytest.raises(api.InfsError) as e:
        api.run(api.parse_text(text, "m.mlir"), {k: v for k, v in inputs.items() if f"%{k}:" in args}, config="small-16")
    msg = str(e.value)
    assert "\n" not in msg and "m.mlir:" in msg and what in msg and "memref.store" not in msg, msg


# affine.parallel (%i, %j) = (0, max(1, 2)) to (min(%n, 4), %n): bound groups, as affine-loop-tile prints them
PAR_GROUPS = """
func.func @k(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %n: index) {
  "affine.parallel"(%n, %n) <{lowerBoundsGroups = dense<[1, 2]> : vector<2xi32>, lowerBoundsMap = affine_map<() -> (0, 1, 2)>, reductions = [], steps = [1, 1],
                              upperBoundsGroups = dense<[2, 1]> : vector<2xi32>, upperBoundsMap = affine_map<()[s0, s1] -> (s0, 4, s1)>}> ({
  ^bb0(%i: index, %j: index):
    %a = affine.load %A[%j - 1, %i] : memref<?x?xf32>
    affine.store %a, %B[%i, %j] : memref<?x?xf32>
    "affine.yield"() : () -> ()
  }) : (index, index) -> ()
  func.return
}
"""


@pytest.mark.parametrize("n", [3, 6])
def test_affine_parallel_with_bound_groups_runs_on_the_host(n: int) -> None:
    # was "'affine.parallel' with max/min bound groups is not supported" for a valid program
    rng = np.random.default_rng(1)
    A, B = rng.uniform(-1, 1, (6, 6)).astype(np.float32), rng.uniform(-1, 1, (6, 6)).astype(np.float32)
    want = B.copy()
    for i in range(min(n, 4)):
        for j in range(2, n):
            want[i, j] = A[j - 1, i]
    res = api.run(PAR_GROUPS, {"A": A, "B": B, "n": n}, config="small-16", mode="auto")
    np.testing.assert_array_equal(res.outputs["B"], want)


# B[i] = A[(i8)i] for i in 256..300: the truncation wraps to 0..43; read as affine, the region read A[256..299]
TRUNC = """
func.func @k(%A: memref<?xf32>, %B: memref<?xf32>) {
  affine.for %i = 256 to 300 {
    %t = arith.index_cast %i : index to i32
    %u = CAST
    %ii = arith.index_cast %u : i8 to index
    %b = memref.load %A[%ii] : memref<?xf32>
    memref.store %b, %B[%i] : memref<?xf32>
  }
  func.return
}
"""


@pytest.mark.parametrize("cast", ["arith.trunci %t : i32 to i8", "arith.index_cast %i : index to i8"])
@pytest.mark.parametrize("mode", ["auto", "in"])
def test_an_index_truncated_to_i8_wraps(cast: str, mode: str) -> None:
    rng = np.random.default_rng(2)
    A, B = rng.uniform(-1, 1, 300).astype(np.float32), rng.uniform(-1, 1, 300).astype(np.float32)
    want = B.copy()
    want[256:300] = A[0:44]
    res = api.run(TRUNC.replace("CAST", cast), {"A": A, "B": B}, config="small-16", mode=mode)
    np.testing.assert_array_equal(res.outputs["B"], want)


# an i8 loop whose index arithmetic wraps: j = i + 10 in i8 is negative for i >= 118 (out of bounds in
# the loops), where the affine reading took it for 128..136 and read those cells
I8_LOOP = """
func.func @k(%A: memref<?xf32>, %B: memref<?xf32>) {
  %lo = arith.constant 100 : i8
  %hi = arith.constant 127 : i8
  %c1 = arith.constant 1 : i8
  %c10 = arith.constant 10 : i8
  scf.for %i = %lo to %hi step %c1 : i8 {
    %j = arith.addi %i, %c10 : i8
    %jj = arith.index_cast %j : i8 to index
    %ii = arith.index_cast %i : i8 to index
    %b = memref.load %A[%jj] : memref<?xf32>
    memref.store %b, %B[%ii] : memref<?xf32>
  }
  func.return
}
"""


def test_index_arithmetic_in_i8_that_wraps_is_out_of_bounds_as_in_the_loops() -> None:
    A, B = np.zeros(200, np.float32), np.zeros(200, np.float32)
    with pytest.raises(api.InfsError, match=r"index -128"):
        api.run(I8_LOOP, {"A": A, "B": B}, config="small-16", mode="in")


def test_a_named_op_whose_body_does_not_verify_names_the_op_and_its_line() -> None:
    # xDSL builds linalg.matmul's body without casts (upstream casts i8 to i32) and with no
    # location: its verifier error named 'arith.addi', an op the user never wrote, with no line
    text = """
func.func @k(%A: memref<?x?xi8>, %B: memref<?x?xi8>, %C: memref<?x?xi32>) {
  linalg.matmul ins(%A, %B : memref<?x?xi8>, memref<?x?xi8>) outs(%C : memref<?x?xi32>)
  func.return
}
"""
    with pytest.raises(api.InfsError) as e:
        api.parse_text(text, "mm.mlir")
    assert str(e.value).startswith("mm.mlir:3:3: error: 'linalg.matmul' op its body's 'arith.addi' does not verify:"), str(e.value)


BCAST_REDUCE = """
func.func @k(%x: memref<?xf32>, %A: memref<?x?x?xf32>, %B: memref<?x?x?xf32>, %r: memref<?xf32>) {
  linalg.broadcast ins(%x : memref<?xf32>) outs(%B : memref<?x?x?xf32>) dimensions = [0, 2]
  %ninf = arith.constant 0xFF800000 : f32
  linalg.fill ins(%ninf : f32) outs(%r : memref<?xf32>)
  linalg.reduce ins(%A : memref<?x?x?xf32>) outs(%r : memref<?xf32>) dimensions = [0, 2]
    (%a: f32, %acc: f32) {
      %m = arith.maximumf %acc, %a : f32
      linalg.yield %m : f32
    }
  func.return
}
"""


@pytest.mark.parametrize("mode", ["auto", "in"])
def test_linalg_broadcast_and_reduce_run_as_generics(mode: str) -> None:
    # xDSL has no loop lowering for them: "'linalg.broadcast' at line 3 is not supported on the host"
    rng = np.random.default_rng(3)
    x, A = rng.uniform(-1, 1, 4).astype(np.float32), rng.uniform(-1, 1, (3, 4, 2)).astype(np.float32)
    res = api.run(BCAST_REDUCE, {"x": x, "A": A, "B": np.zeros((3, 4, 2), np.float32), "r": np.zeros(4, np.float32)}, config="small-16", mode=mode)
    np.testing.assert_array_equal(res.outputs["B"], np.broadcast_to(x[None, :, None], (3, 4, 2)))
    np.testing.assert_array_equal(res.outputs["r"], A.max(axis=(0, 2)))
    assert len(res.regions) == 2  # the broadcast, and the reduce with the fill of -inf folded into it


def test_an_affine_access_left_on_the_host_names_its_line_when_out_of_bounds() -> None:
    # the host's memref.load made of an affine.load had no location: "error: 'memref.load' index -1 ..."
    text = """
func.func @k(%A: memref<?xf64>, %n: index) {
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i * 3 - 1] : memref<?xf64>
    %b = arith.addf %a, %a : f64
    affine.store %b, %A[%i * 3 + 2] : memref<?xf64>
  }
  func.return
}
"""
    with pytest.raises(api.InfsError, match=r"oob\.mlir: error: 'memref.load' at line 4 index -1 out of bounds"):
        api.run(api.parse_text(text, "oob.mlir"), {"A": np.zeros(50), "n": 7}, config="small-16")


def test_an_index_valued_accumulation_is_not_called_a_loop_index() -> None:
    # s += (index)A[i] in index: the remark said "a loop index is used as a value"
    from infs.passes.extract_streams import extract_streams

    text = """
func.func @k(%A: memref<?xi32>, %n: index) -> index {
  %c0 = arith.constant 0 : index
  %s = affine.for %i = 0 to %n iter_args(%acc = %c0) -> (index) {
    %a = affine.load %A[%i] : memref<?xi32>
    %ai = arith.index_cast %a : i32 to index
    %t = arith.addi %acc, %ai : index
    affine.yield %t : index
  }
  func.return %s : index
}
"""
    remarks = [str(r) for r in extract_streams(api.parse_text(text, "acc.mlir"))]
    assert remarks == ["acc.mlir:4:3: remark: extract-streams: loop nest not extracted: an index value computed by 'arith.index_cast' in the nest "
                       "is used as data (streams carry integer and float elements, not index: compute it in i32/i64)"], remarks
    res = api.run(text, {"A": np.arange(-3, 6, dtype=np.int32), "n": 9}, config="small-16")
    assert res.results[0] == 9
