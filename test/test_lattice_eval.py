"""The lattice evaluator of tdfg.graph on hand-written graphs, against numpy."""

from __future__ import annotations

import numpy as np
import pytest

from infs import api
from infs.dialects import tdfg
from infs.runtime.lattice_eval import LTensor, evaluate_graph, intersect_boxes, run_function
from infs.runtime.scalar_ops import EvaluationError

T1 = "!tdfg.tensor<f32, 1>"
T2 = "!tdfg.tensor<f32, 2>"


def graph_of(text: str) -> tdfg.GraphOp:
    module = api.parse_text(text)
    (g,) = [op for op in module.walk() if isinstance(op, tdfg.GraphOp)]
    return g


def rng():
    return np.random.default_rng(1234)


STENCIL = f"""
func.func @f(%A: memref<?xf32>, %B: memref<?xf32>, %n: index, %w: f32) {{
  tdfg.graph ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index, w = %w : f32) rank 1 {{
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index, %W: f32):
    %l = tdfg.tensor %a [0:N - 2] : memref<?xf32> -> {T1}
    %c = tdfg.tensor %a [1:N - 1] : memref<?xf32> -> {T1}
    %r = tdfg.tensor %a [2:N] : memref<?xf32> -> {T1}
    %lm = tdfg.mv %l dim 0 dist 1 : {T1}
    %rm = tdfg.mv %r dim 0 dist -1 : {T1}
    %k = tdfg.const %W : f32 -> {T1}
    %s = tdfg.cmp add(%lm, %rm) : {T1}, {T1} -> {T1}
    %t = tdfg.cmp fma(%c, %k, %s) : {T1}, {T1}, {T1} -> {T1}
    tdfg.store %t -> %b : {T1} -> memref<?xf32>
    tdfg.yield
  }}
  func.return
}}
"""


@pytest.mark.parametrize("n", [2, 3, 7, 16])
def test_stencil_fig4a(n):
    g = graph_of(STENCIL)
    a = rng().standard_normal(n).astype(np.float32)
    b = np.zeros(n, np.float32)
    evaluate_graph(g, [a, b], [n, np.float32(0.5)])
    want = np.zeros(n, np.float32)
    want[1 : n - 1] = a[1 : n - 1] * np.float32(0.5) + (a[: n - 2] + a[2:])
    np.testing.assert_array_equal(b, want)


def test_host_function_runs_graph():
    module = api.parse_text(STENCIL)
    a = np.arange(8, dtype=np.float32)
    b = np.zeros(8, np.float32)
    run_function(module, [a, b, 8, 2.0])
    np.testing.assert_array_equal(b[1:7], 2 * a[1:7] + a[:6] + a[2:])


GAUSS = f"""
func.func @f(%A: memref<?x?xf32>, %m: memref<?xf32>, %n: index, %k: index) {{
  tdfg.graph ins(%A, %m : memref<?x?xf32>, memref<?xf32>) syms(N = %n : index, k = %k : index) rank 2 {{
  ^bb0(%a: memref<?x?xf32>, %mm: memref<?xf32>, %N: index, %K: index):
    %row = tdfg.tensor %a [k:k + 1, k + 1:N] : memref<?x?xf32> -> {T2}
    %rows = tdfg.bc %row dim 0 dist 1 count N - k - 1 : {T2}
    %mi = tdfg.stream_load %mm[d0] over [k + 1:N, k + 1:N] : memref<?xf32> -> {T2}
    %aij = tdfg.tensor %a [k + 1:N, k + 1:N] : memref<?x?xf32> -> {T2}
    %p = tdfg.cmp mul(%mi, %rows) : {T2}, {T2} -> {T2}
    %r = tdfg.cmp sub(%aij, %p) : {T2}, {T2} -> {T2}
    tdfg.store %r -> %a : {T2} -> memref<?x?xf32>
    tdfg.yield
  }}
  func.return
}}
"""


@pytest.mark.parametrize("n,k", [(4, 0), (5, 2), (6, 4), (3, 2)])
def test_gauss_broadcast_fig4c(n, k):
    g = graph_of(GAUSS)
    A = rng().standard_normal((n, n)).astype(np.float32)
    m = rng().standard_normal(n).astype(np.float32)
    want = A.copy()
    want[k + 1 :, k + 1 :] = A[k + 1 :, k + 1 :] - m[k + 1 :, None] * A[k, k + 1 :][None, :]
    evaluate_graph(g, [A, m], [n, k])
    np.testing.assert_array_equal(A, want)


SUM = f"""
func.func @f(%A: memref<?xf32>, %n: index) -> f32 {{
  %s = tdfg.graph ins(%A : memref<?xf32>) syms(N = %n : index) rank 1 -> f32 {{
  ^bb0(%a: memref<?xf32>, %N: index):
    %t = tdfg.tensor %a [0:N] : memref<?xf32> -> {T1}
    %p = tdfg.reduce add %t dim 0 : {T1}
    %s = tdfg.stream_reduce add %p over [0] : {T1} -> f32
    tdfg.yield %s : f32
  }}
  func.return %s : f32
}}
"""


@pytest.mark.parametrize("group", [None, 1, 2, 3, 4, 7, 64])
@pytest.mark.parametrize("n", [0, 1, 5, 33])
def test_reduce_pair_is_independent_of_group_size(n, group):
    g = graph_of(SUM)
    a = rng().integers(-5, 5, n).astype(np.float32)  # exact in f32 whatever the order
    (s,) = evaluate_graph(g, [a], [n], group_size=group)
    assert s == a.sum()


def test_partial_reduce_leaves_group_firsts():
    g = graph_of(SUM)
    # look at the partial tensor itself: fold a tiny graph by hand
    from infs.runtime.lattice_eval import _partial_reduce

    t = LTensor(((1, 8),), np.arange(1, 8, dtype=np.float32))
    p = _partial_reduce(t, "add", 0, 4)  # groups [1:4], [4:8]
    np.testing.assert_array_equal(p.values, [6, 0, 0, 22, 0, 0, 0])
    p = _partial_reduce(t, "max", 0, None)
    assert p.values[0] == 7 and np.all(p.values[1:] == -np.inf)
    assert g is not None


COLSUM = f"""
func.func @f(%A: memref<?x?xf32>, %C: memref<?xf32>, %m: index, %n: index) {{
  tdfg.graph ins(%A, %C : memref<?x?xf32>, memref<?xf32>) syms(M = %m : index, N = %n : index) rank 2 {{
  ^bb0(%a: memref<?x?xf32>, %c: memref<?xf32>, %M: index, %N: index):
    %t = tdfg.tensor %a [0:M, 0:N] : memref<?x?xf32> -> {T2}
    %p = tdfg.reduce max %t dim 0 : {T2}
    %s = tdfg.stream_reduce max %p over [0] : {T2} -> {T2}
    tdfg.store %s -> %c : {T2} -> memref<?xf32>
    tdfg.yield
  }}
  func.return
}}
"""


@pytest.mark.parametrize("group", [None, 1, 2, 3])
def test_column_reduction_to_lower_rank_array(group):
    g = graph_of(COLSUM)
    A = rng().standard_normal((5, 4)).astype(np.float32)
    C = np.zeros(4, np.float32)
    evaluate_graph(g, [A, C], [5, 4], group_size=group)
    np.testing.assert_array_equal(C, A.max(axis=0))


DISCARD = f"""
func.func @f(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %n: index) {{
  tdfg.graph ins(%A, %B, %C : memref<?xf32>, memref<?xf32>, memref<?xf32>) syms(N = %n : index) rank 1 {{
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %N: index):
    %t = tdfg.tensor %a [0:N] : memref<?xf32> -> {T1}
    %f = tdfg.mv %t dim 0 dist N : {T1}
    %back = tdfg.mv %f dim 0 dist 0 - N : {T1}
    %one = tdfg.const 1.0 : {T1}
    %x = tdfg.cmp add(%back, %one) : {T1}, {T1} -> {T1}
    tdfg.store %x -> %b : {T1} -> memref<?xf32>
    %down = tdfg.mv %t dim 0 dist -2 : {T1}
    %up = tdfg.mv %down dim 0 dist 2 : {T1}
    tdfg.store %up -> %c : {T1} -> memref<?xf32>
    %bc = tdfg.bc %t dim 0 dist 2 count 3 : {T1}
    %y = tdfg.cmp add(%bc, %one) : {T1}, {T1} -> {T1}
    tdfg.store %y -> %a : {T1} -> memref<?xf32>
    tdfg.yield
  }}
  func.return
}}
"""


def test_moves_to_negative_coordinates_are_discarded_beyond_the_arrays_not():
    """The lattice is the non-negative orthant, unbounded above (tdfg
    docstring): data moved beyond every array and back is all there (it was
    discarded at the arrays' hull, which dropped iterations of domains larger
    than the arrays); data moved below 0 and back is not."""
    g = graph_of(DISCARD)
    a = np.arange(4, dtype=np.float32)
    b = np.full(4, -1, np.float32)
    c = np.full(4, -1, np.float32)
    evaluate_graph(g, [a, b, c], [4])
    np.testing.assert_array_equal(b, [1, 2, 3, 4])  # moved out above and back: everything
    np.testing.assert_array_equal(c, [-1, -1, 2, 3])  # moved below 0 and back: cells 0, 1 lost
    # bc: copies at 2.., only the array's cells 2, 3 are stored (copy 0 cells 0, 1)
    np.testing.assert_array_equal(a, [0, 1, 1, 2])


GATHER = """
func.func @f(%X: memref<?xi32>, %I: memref<?xi32>, %H: memref<?xi32>, %O: memref<?xi32>, %n: index) {
  tdfg.graph ins(%X, %I, %H, %O : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>) syms(N = %n : index) rank 1 {
  ^bb0(%x: memref<?xi32>, %i: memref<?xi32>, %h: memref<?xi32>, %o: memref<?xi32>, %N: index):
    %idx = tdfg.tensor %i [0:N] : memref<?xi32> -> !tdfg.tensor<i32, 1>
    %g = tdfg.stream_load %x[%idx] over [0:N] : !tdfg.tensor<i32, 1>, memref<?xi32> -> !tdfg.tensor<i32, 1>
    %three = tdfg.const 3 : !tdfg.tensor<i32, 1>
    %q = tdfg.cmp div(%g, %three) : !tdfg.tensor<i32, 1>, !tdfg.tensor<i32, 1> -> !tdfg.tensor<i32, 1>
    tdfg.stream_store add %q -> %h[%idx] : !tdfg.tensor<i32, 1>, !tdfg.tensor<i32, 1> -> memref<?xi32>
    tdfg.stream_store store %g -> %o[%idx] : !tdfg.tensor<i32, 1>, !tdfg.tensor<i32, 1> -> memref<?xi32>
    tdfg.yield
  }
  func.return
}
"""


def test_indirect_streams():
    g = graph_of(GATHER)
    r = rng()
    x = r.integers(-20, 20, 6).astype(np.int32)
    i = r.integers(0, 6, 10).astype(np.int32)
    h = np.zeros(6, np.int32)
    o = np.zeros(6, np.int32)
    evaluate_graph(g, [x, i, h, o], [10])
    gathered = x[i]
    q = (np.abs(gathered) // 3) * np.sign(gathered)  # C-style truncation
    want_h = np.zeros(6, np.int32)
    np.add.at(want_h, i, q.astype(np.int32))
    np.testing.assert_array_equal(h, want_h)
    want_o = np.zeros(6, np.int32)
    for p, v in zip(i, gathered):  # sequential: the last write wins
        want_o[p] = v
    np.testing.assert_array_equal(o, want_o)


def test_indirect_out_of_bounds_is_an_error():
    g = graph_of(GATHER)
    with pytest.raises(EvaluationError, match="accesses index 9"):
        evaluate_graph(g, [np.zeros(6, np.int32), np.array([9], np.int32), np.zeros(6, np.int32), np.zeros(6, np.int32)], [1])


SELECT = f"""
func.func @f(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %m: index, %n: index) {{
  tdfg.graph ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) syms(M = %m : index, N = %n : index) rank 2 {{
  ^bb0(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %M: index, %N: index):
    %t = tdfg.tensor %a [0:M, 1:N] : memref<?x?xf32> -> {T2}
    %u = tdfg.tensor %a [1:M, 0:N] : memref<?x?xf32> -> {T2}
    %lt = tdfg.cmp cmp_lt(%t, %u) : {T2}, {T2} -> !tdfg.tensor<i1, 2>
    %mx = tdfg.cmp select(%lt, %u, %t) : !tdfg.tensor<i1, 2>, {T2}, {T2} -> {T2}
    %ng = tdfg.cmp neg(%mx) : {T2} -> {T2}
    %rl = tdfg.cmp relu(%ng) : {T2} -> {T2}
    %ab = tdfg.cmp abs(%mx) : {T2} -> {T2}
    %s = tdfg.cmp add(%rl, %ab) : {T2}, {T2} -> {T2}
    %sh = tdfg.shrink %s dim 1 to [2:N] : {T2}
    tdfg.store %sh -> %b : {T2} -> memref<?x?xf32>
    tdfg.yield
  }}
  func.return
}}
"""


def test_cmp_on_intersection_and_shrink():
    g = graph_of(SELECT)
    A = rng().standard_normal((4, 5)).astype(np.float32)
    B = np.zeros((4, 5), np.float32)
    evaluate_graph(g, [A, B], [4, 5])
    # intersection of [0:4, 1:5] and [1:4, 0:5] is [1:4, 1:5]; shrink to columns [2:5]
    mx = np.maximum(A[1:4, 2:5], A[1:4, 2:5])
    want = np.zeros((4, 5), np.float32)
    want[1:4, 2:5] = np.maximum(-mx, 0) + np.abs(mx)
    np.testing.assert_array_equal(B, want)


def test_integer_division_by_zero_is_an_error():
    text = GATHER.replace("tdfg.const 3", "tdfg.const 0")
    g = graph_of(text)
    with pytest.raises(EvaluationError, match="division by zero"):
        evaluate_graph(g, [np.ones(6, np.int32), np.zeros(2, np.int32), np.zeros(6, np.int32), np.zeros(6, np.int32)], [2])


def test_tensor_outside_its_array_is_an_error():
    g = graph_of(STENCIL)
    with pytest.raises(EvaluationError, match="leaves the array"):
        evaluate_graph(g, [np.zeros(3, np.float32), np.zeros(9, np.float32)], [9, 1.0])


def test_wrong_arguments_are_errors():
    g = graph_of(STENCIL)
    with pytest.raises(EvaluationError, match="takes 2 arrays"):
        evaluate_graph(g, [np.zeros(3, np.float32)], [3, 1.0])
    with pytest.raises(EvaluationError, match="numpy array of float32"):
        evaluate_graph(g, [np.zeros(3), np.zeros(3, np.float32)], [3, 1.0])


def test_intersect_boxes_with_unbounded_dims():
    assert intersect_boxes([((0, 4), None), (None, (2, 3))]) == ((0, 4), (2, 3))
    assert intersect_boxes([((0, 2),), ((3, 5),)]) == ((3, 3),)


def test_scalar_result_through_host():
    module = api.parse_text(SUM)
    a = np.arange(10, dtype=np.float32)
    (s,) = run_function(module, [a, 10], group_size=3)
    assert s == 45.0


def test_empty_tensor_reads_nothing():
    # gauss-like update with k = N - 1: row k exists but the trailing block is empty
    g = graph_of(GAUSS)
    A = rng().standard_normal((4, 4)).astype(np.float32)
    m = np.zeros(4, np.float32)
    want = A.copy()
    evaluate_graph(g, [A, m], [4, 3])
    np.testing.assert_array_equal(A, want)
    # a fixed row outside the array is not read when the tensor is empty
    evaluate_graph(g, [A, m], [4, 4])
    np.testing.assert_array_equal(A, want)
