"""Regressions of the semantics the oracles (reference, lattice evaluator) and
the machine must agree on, each checked against an independent numpy oracle."""

from __future__ import annotations

import numpy as np
import pytest

from infs import api

# ---------------------------------------------------------------------------
# stream.reduce over i1: an i1 is signed (true is -1), so add is xor (mod 2),
# mul and, min or, max and; argmin finds the first true.  The reference and
# the lattice evaluator folded add with or, and every path took min/max as
# unsigned (min = and).
# ---------------------------------------------------------------------------

_I1_REDUCE_SCALAR = """
func.func @k(%A: memref<?xi1>, %n: index) -> i1 {
  %r = stream.region ins(%A : memref<?xi1>) syms(N = %n : index) domain [0:N] iterators [reduction] -> i1 {
  ^bb0(%a: memref<?xi1>, %N: index):
    %l = stream.load %a[d0] : memref<?xi1> -> !stream.stream<i1>
    %s = stream.reduce KIND %l over [0] : !stream.stream<i1> -> i1
    stream.yield %s : i1
  }
  func.return %r : i1
}
"""

_I1_REDUCE_ROWS = """
func.func @k(%A: memref<?x?xi1>, %B: memref<?xi1>, %n: index, %m: index, %c: i1) {
  stream.region ins(%A, %B : memref<?x?xi1>, memref<?xi1>) syms(N = %n : index, M = %m : index, c = %c : i1) domain [0:N, 0:M] iterators [parallel, reduction] {
  ^bb0(%a: memref<?x?xi1>, %b: memref<?xi1>, %N: index, %M: index, %cc: i1):
    %l = stream.load %a[d0, d1] : memref<?x?xi1> -> !stream.stream<i1>
    %s = stream.reduce KIND %l over [1] init %cc : !stream.stream<i1> -> !stream.stream<i1>
    stream.store %s -> %b[d0] : !stream.stream<i1> -> memref<?xi1>
    stream.yield
  }
  func.return
}
"""


def _signed_i1_fold(kind: str, rows: np.ndarray, init: bool | None) -> np.ndarray:
    """Python-int fold of the signed values (true = -1), keeping the low bit."""
    out = []
    for row in np.atleast_2d(rows):
        vals = [-int(x) for x in row] + ([-int(init)] if init is not None else [])
        if kind == "add":
            r = sum(vals)
        elif kind == "mul":
            r = 1
            for x in vals:
                r *= x
        else:
            r = (min if kind == "min" else max)(vals, default=0 if kind == "min" else -1)
        out.append(bool(r & 1))
    return np.array(out)


_A1 = np.array([True, False, True])
_A2 = np.array([[True, False, True], [True, True, True], [False, False, False], [False, True, False]])


@pytest.mark.parametrize("mode", ["near", "core", "in"])
@pytest.mark.parametrize("kind", ["add", "mul", "min", "max"])
def test_i1_stream_reduce_to_a_scalar(kind, mode):
    want = bool(_signed_i1_fold(kind, _A1, None)[0])
    r = api.run(_I1_REDUCE_SCALAR.replace("KIND", kind), {"A": _A1, "n": 3}, config="small-16", mode=mode, strict=True, cross_check=mode != "in")
    assert bool(np.asarray(r.results[0])) is want
    _lattice_agrees(r, mode)


def _lattice_agrees(r, mode: str) -> None:
    # near/core: the tDFG on the lattice evaluator gave the reference's values
    if mode != "in":
        assert [(rec.check, rec.check_error) for rec in r.regions] == [("lattice", "")]


@pytest.mark.parametrize("init", [False, True])
@pytest.mark.parametrize("mode", ["near", "in"])
@pytest.mark.parametrize("kind", ["add", "mul", "min", "max"])
def test_i1_stream_reduce_rows_with_init(kind, mode, init):
    B = np.zeros(4, bool)
    if kind in ("add", "mul") and mode == "in":  # the init's element-wise i1 add/mul has no tdfg op: refused
        with pytest.raises(api.InfsError, match=f"'{kind}' on i1 values has no tdfg counterpart"):
            api.run(_I1_REDUCE_ROWS.replace("KIND", kind), {"A": _A2, "B": B, "n": 4, "m": 3, "c": init}, config="small-16", mode=mode, strict=True)
        return
    r = api.run(
        _I1_REDUCE_ROWS.replace("KIND", kind),
        {"A": _A2, "B": B, "n": 4, "m": 3, "c": init},
        config="small-16",
        mode=mode,
        strict=True,
        cross_check=mode != "in",
    )
    np.testing.assert_array_equal(r.outputs["B"], _signed_i1_fold(kind, _A2, init))
    if kind in ("min", "max"):  # an add/mul init has no tdfg op: no graph to check
        _lattice_agrees(r, mode)


@pytest.mark.parametrize("kind, want", [("argmin", 1), ("argmax", 0)])
def test_i1_stream_argmin_argmax_are_signed(kind, want):
    # [false, true, true, false]: the signed minimum is true (-1), first at 1
    src = _I1_REDUCE_SCALAR.replace("-> i1 {\n  %r", "-> i32 {\n  %r").replace("-> i1 {\n  ^bb0", "-> i32 {\n  ^bb0")
    src = src.replace("-> i1\n", "-> i32\n").replace("yield %s : i1", "yield %s : i32").replace("func.return %r : i1", "func.return %r : i32")
    r = api.run(src.replace("KIND", kind), {"A": np.array([False, True, True, False]), "n": 4}, config="small-16", mode="near")
    assert int(np.asarray(r.results[0])) == want


_I1_ATOMIC_ROWS = """
func.func @k(%A: memref<?x?xi1>, %B: memref<?xi1>, %n: index, %m: index) {
  stream.region ins(%A, %B : memref<?x?xi1>, memref<?xi1>) syms(N = %n : index, M = %m : index) domain [0:N, 0:M] iterators [parallel, reduction] {
  ^bb0(%a: memref<?x?xi1>, %b: memref<?xi1>, %N: index, %M: index):
    %l = stream.load %a[d0, d1] : memref<?x?xi1> -> !stream.stream<i1>
    stream.atomic KIND %l -> %b[d0] : !stream.stream<i1> -> memref<?xi1>
    stream.yield
  }
  func.return
}
"""


@pytest.mark.parametrize("mode", ["near", "core", "in"])
@pytest.mark.parametrize("kind", ["add", "min", "max"])
def test_i1_atomics_are_signed_and_mod_2(kind, mode):
    # B[i] = B[i] KIND A[i, j] for every j: the same signed i1 folds as stream.reduce
    # (every path applied add as or and min/max as unsigned)
    B0 = np.array([False, True, False, True])
    r = api.run(_I1_ATOMIC_ROWS.replace("KIND", kind), {"A": _A2, "B": B0, "n": 4, "m": 3}, config="small-16", mode=mode, strict=True, cross_check=mode != "in")
    want = np.array([_signed_i1_fold(kind, row, b)[0] for row, b in zip(_A2, B0)])
    np.testing.assert_array_equal(r.outputs["B"], want)
    _lattice_agrees(r, mode)


# ---------------------------------------------------------------------------
# A tdfg.graph in the host code (infs-opt --tensorize, run ahead of time): an
# integer division by zero is the lattice evaluator's error, not the machine's
# quotient 0 (as a stream.region run in memory reports it, driver.check_divisors)
# ---------------------------------------------------------------------------

_GRAPH_DIV = """func.func @k(%A: memref<?xi32>, %B: memref<?xi32>, %C: memref<?xi32>, %n: index) {
  tdfg.graph ins(%A, %B, %C : memref<?xi32>, memref<?xi32>, memref<?xi32>) syms(n = %n : index) rank 1 {
  ^bb0(%A_1: memref<?xi32>, %B_1: memref<?xi32>, %C_1: memref<?xi32>, %n_1: index):
    %0 = tdfg.tensor %A_1 [0:n] : memref<?xi32> -> !tdfg.tensor<i32, 1>
    %1 = tdfg.tensor %B_1 [0:n] : memref<?xi32> -> !tdfg.tensor<i32, 1>
    %2 = tdfg.cmp div(%0, %1) : !tdfg.tensor<i32, 1>, !tdfg.tensor<i32, 1> -> !tdfg.tensor<i32, 1>
    tdfg.store %2 -> %C_1 : !tdfg.tensor<i32, 1> -> memref<?xi32>
    tdfg.yield
  }
  func.return
}
"""


@pytest.mark.parametrize("mode", ["in", "auto"])
def test_graph_integer_division_by_zero_is_an_error(mode):
    A, C = np.array([7, -8, 9, 10], np.int32), np.zeros(4, np.int32)
    r = api.run(_GRAPH_DIV, {"A": A, "B": np.array([2, 3, -3, 1], np.int32), "C": C, "n": 4}, config="tiny", mode=mode)
    np.testing.assert_array_equal(r.outputs["C"], [3, -2, -3, 10])  # toward zero
    with pytest.raises(api.InfsError, match=r"integer division by zero in 'tdfg.cmp' div at line 6$"):
        api.run(_GRAPH_DIV, {"A": A, "B": np.array([2, 0, 3, 1], np.int32), "C": C, "n": 4}, config="tiny", mode=mode)


# ---------------------------------------------------------------------------
# api.run / @infs.kernel tiles: validated as infs-run's --tiles (a tile shape
# of 0 was quietly not honoured: the region ran near memory)
# ---------------------------------------------------------------------------

_DOUBLE = """
func.func @k(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xf32>
    %s = arith.addf %a, %a : f32
    affine.store %s, %B[%i] : memref<?xf32>
  }
  func.return
}
"""


@pytest.mark.parametrize("tiles", [(0,), (-16,), (16.0,), (True,), 16, "16", ()])
def test_bad_tiles_are_a_one_line_error(tiles):
    import infs

    @infs.kernel
    def double(A, B, n: int):
        for i in range(n):
            B[i] = A[i] + A[i]

    A, B = np.ones(16, np.float32), np.zeros(16, np.float32)
    with pytest.raises(api.InfsError, match=r"bad tiles .*: expected a tuple of positive integers, e.g. \(16, 16\)$") as e:
        api.run(_DOUBLE, {"A": A, "B": B, "n": 16}, config="tiny", mode="in", tiles=tiles)
    assert "\n" not in str(e.value)
    with pytest.raises(api.InfsError, match=r"bad tiles"):
        double(A, B, 16, config="tiny", mode="in", tiles=tiles)


def test_good_tiles_are_honoured():
    A, B = np.arange(16, dtype=np.float32), np.zeros(16, np.float32)
    r = api.run(_DOUBLE, {"A": A, "B": B, "n": 16}, config="tiny", mode="in", strict=True, tiles=(16,))
    np.testing.assert_array_equal(r.outputs["B"], A + A)
    assert [x.mode for x in r.regions] == ["in"]


# ---------------------------------------------------------------------------
# math.floor/ceil/cos/copysign/fpowi and arith.floordivsi/ceildivsi: the host
# stopped with "Could not find interpretation function", and a region could
# not evaluate them ("... is not supported"); MLIR's semantics, checked
# against numpy/Python on values whose results are exact
# ---------------------------------------------------------------------------

_OPS_LOOP = """
func.func @k(%A: memref<?xf32>, %K: memref<?xi32>, %B: memref<?xf32>, %n: index) {
  affine.for %i = 1 to %n {
    %p = affine.load %B[%i - 1] : memref<?xf32>
    %a = affine.load %A[%i] : memref<?xf32>
    %k = affine.load %K[%i] : memref<?xi32>
    BODY
    %s = arith.addf %r, CARRY : f32
    affine.store %s, %B[%i] : memref<?xf32>
  }
  func.return
}
"""
_F = np.array([0.0, -2.5, 1.5, 3.75, -0.5, 2.0, -0.0, 0.5], np.float32)
_K = np.array([0, -7, 7, 2, -3, 3, 0, -2], np.int32)
_OP_CASES = {
    "math.floor": ("%r = math.floor %a : f32", lambda a, k: np.floor(a)),
    "math.ceil": ("%r = math.ceil %a : f32", lambda a, k: np.ceil(a)),
    "math.cos": ("%r = math.cos %a : f32", lambda a, k: np.cos(a)),
    "math.copysign": ("%m = arith.sitofp %k : i32 to f32\n    %r = math.copysign %a, %m : f32", lambda a, k: np.copysign(a, np.float32(k))),
    "math.fpowi": ("%r = math.fpowi %a, %k : f32, i32", lambda a, k: np.float32(float(a) ** int(k)) if a != 0 or k >= 0 else np.float32(np.inf)),
    "arith.floordivsi": ("%c3 = arith.constant 3 : i32\n    %x = arith.floordivsi %k, %c3 : i32\n    %r = arith.sitofp %x : i32 to f32", lambda a, k: np.float32(int(k) // 3)),
    "arith.ceildivsi": ("%c3 = arith.constant 3 : i32\n    %x = arith.ceildivsi %k, %c3 : i32\n    %r = arith.sitofp %x : i32 to f32", lambda a, k: np.float32(-(-int(k) // 3))),
}


@pytest.mark.parametrize("where", ["host", "near", "core"])
@pytest.mark.parametrize("op", list(_OP_CASES))
def test_more_math_and_division_ops(op, where):
    body, fn = _OP_CASES[op]
    carried = where == "host"  # B[i] = f(...) + B[i - 1] carries a dependence: a host loop
    src = _OPS_LOOP.replace("BODY", body).replace("CARRY", "%p" if carried else "%r")
    B = np.zeros(8, np.float32)
    want = B.copy()
    with np.errstate(all="ignore"):
        for i in range(1, 8):
            f = np.float32(fn(_F[i], _K[i]))
            want[i] = f + (want[i - 1] if carried else f)
    r = api.run(src, {"A": _F, "K": _K, "B": B, "n": 8}, config="tiny", mode="auto" if carried else where)
    assert [g.mode for g in r.regions] == ([] if carried else [where])
    np.testing.assert_array_equal(r.outputs["B"], want)


@pytest.mark.parametrize("where", ["host", "near", "core", "auto"])
@pytest.mark.parametrize("op", ["arith.floordivsi", "arith.ceildivsi"])
def test_floordivsi_ceildivsi_by_zero_is_the_programs_error(op, where):
    body = f"%x = {op} %k, %k : i32\n    %r = arith.sitofp %x : i32 to f32"  # K[6] = 0
    src = _OPS_LOOP.replace("BODY", body).replace("CARRY", "%p" if where == "host" else "%r")
    with pytest.raises(api.InfsError) as e:
        api.run(src, {"A": _F, "K": _K, "B": np.zeros(8, np.float32), "n": 8}, config="tiny", mode="auto" if where == "host" else where)
    assert str(e.value) == f"<input>: error: division by zero in '{op}' at line 7"


def test_host_divsi_by_zero_names_its_line():
    # the host's integer division said "@k: AssertionError: (for_loop/k/root)('arith.divsi' divides by zero)"
    src = _OPS_LOOP.replace("BODY", "%x = arith.divsi %k, %k : i32\n    %r = arith.sitofp %x : i32 to f32").replace("CARRY", "%p")
    with pytest.raises(api.InfsError) as e:
        api.run(src, {"A": _F, "K": _K, "B": np.zeros(8, np.float32), "n": 8}, config="tiny")
    assert str(e.value) == "<input>: error: division by zero in 'arith.divsi' at line 7"


# ---------------------------------------------------------------------------
# arith.minimumf/maximumf (and tdfg/pimcmd min/max on floats): -0.0 < +0.0
# whatever the operands' order.  np.minimum gives its second operand on a tie,
# and the lowering puts a constant last: minimumf(0.0, -0.0) was -0.0 near
# memory and +0.0 in memory
# ---------------------------------------------------------------------------

_MINMAX = """
func.func @k(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  %c = arith.constant CONST : f32
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xf32>
    %s = arith.OP ARGS : f32
    affine.store %s, %B[%i] : memref<?xf32>
  }
  func.return
}
"""


def _ieee(op: str, a: float, b: float) -> float:
    import math

    if math.isnan(a) or math.isnan(b):
        return math.nan
    if a == b == 0:  # signed zeros: -0.0 is the smaller
        neg = math.copysign(1, a) < 0 or math.copysign(1, b) < 0
        pos = math.copysign(1, a) > 0 or math.copysign(1, b) > 0
        return -0.0 if (neg if op == "minimumf" else not pos) else 0.0
    return min(a, b) if op == "minimumf" else max(a, b)


@pytest.mark.parametrize("mode", ["near", "core", "in"])
@pytest.mark.parametrize("const", ["0.0", "-0.0"])
@pytest.mark.parametrize("args", ["%c, %a", "%a, %c"])
@pytest.mark.parametrize("op", ["minimumf", "maximumf"])
def test_float_min_max_order_signed_zeros(op, args, const, mode):
    A = np.array([-0.0, 0.0, np.nan, -1.0, 2.0], np.float32)
    src = _MINMAX.replace("OP", op).replace("ARGS", args).replace("CONST", const)
    r = api.run(src, {"A": A, "B": np.ones(5, np.float32), "n": 5}, config="tiny", mode=mode, strict=True, cross_check=mode != "in")
    want = np.array([_ieee(op, float(a), float(const)) for a in A], np.float32)
    got = r.outputs["B"]
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    np.testing.assert_array_equal(got, want)
    _lattice_agrees(r, mode)


_F_REDUCE = _I1_REDUCE_SCALAR.replace("i1", "f32")
_F_ATOMIC = _I1_ATOMIC_ROWS.replace("i1", "f32")


@pytest.mark.parametrize("mode", ["near", "core", "in"])
@pytest.mark.parametrize("kind", ["min", "max"])
@pytest.mark.parametrize("vals", [[0.0, -0.0], [-0.0, 0.0], [0.0, -0.0, 0.0, 0.0, 0.0], [-0.0] * 3 + [0.0] * 40 + [-0.0], [2.0, -0.0, 1.0, 0.0]])
def test_float_min_max_reductions_are_order_free_on_signed_zeros(vals, kind, mode):
    # np.minimum.reduce kept the sign of the zero its order met last: the
    # sequential reference and the machine's tree disagreed
    import functools

    A = np.array(vals, np.float32)
    op = "minimumf" if kind == "min" else "maximumf"
    want = functools.reduce(lambda a, b: _ieee(op, a, b), map(float, A))
    r = api.run(_F_REDUCE.replace("KIND", kind), {"A": A, "n": len(A)}, config="small-16", mode=mode, strict=True, cross_check=mode != "in")
    got = float(np.asarray(r.results[0]))
    assert (got, np.signbit(got)) == (want, np.signbit(want))
    _lattice_agrees(r, mode)


@pytest.mark.parametrize("mode", ["near", "core", "in"])
@pytest.mark.parametrize("kind", ["min", "max"])
def test_float_min_max_atomics_are_order_free_on_signed_zeros(kind, mode):
    import functools

    A = np.array([[0.0, -0.0, 0.0], [-0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, -0.0, 2.0]], np.float32)
    B0 = np.array([-0.0, 0.0, -0.0, 0.0], np.float32)
    op = "minimumf" if kind == "min" else "maximumf"
    want = np.array([functools.reduce(lambda a, b: _ieee(op, a, b), map(float, [b, *row])) for row, b in zip(A, B0)], np.float32)
    r = api.run(_F_ATOMIC.replace("KIND", kind), {"A": A, "B": B0, "n": 4, "m": 3}, config="small-16", mode=mode, strict=True, cross_check=mode != "in")
    np.testing.assert_array_equal(np.signbit(r.outputs["B"]), np.signbit(want))
    np.testing.assert_array_equal(r.outputs["B"], want)
    _lattice_agrees(r, mode)


_F_GRAPH_FOLDS = """func.func @g(%A: memref<?xf32>, %H: memref<1xf32>, %n: index) {
  %r = tdfg.graph ins(%A, %H : memref<?xf32>, memref<1xf32>) syms(N = %n : index) rank 1 -> f32 {
  ^bb0(%a: memref<?xf32>, %h: memref<1xf32>, %N: index):
    %t = tdfg.tensor %a [0:N] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    %p = tdfg.reduce KIND %t dim 0 : !tdfg.tensor<f32, 1>
    %s = tdfg.stream_reduce KIND %p over [0] : !tdfg.tensor<f32, 1> -> f32
    tdfg.stream_store KIND %t -> %h[0] : !tdfg.tensor<f32, 1> -> memref<1xf32>
    tdfg.yield %s : f32
  }
  func.return
}
"""


@pytest.mark.parametrize("group", [None, 2])
@pytest.mark.parametrize("kind", ["min", "max"])
@pytest.mark.parametrize("vals", [[0.0, -0.0, 0.0, 0.0], [-0.0, 0.0, -0.0, -0.0], [0.0, 0.0, -0.0, 0.0]])
def test_lattice_float_min_max_folds_are_order_free_on_signed_zeros(vals, kind, group):
    import functools

    from infs.dialects import tdfg
    from infs.runtime.lattice_eval import evaluate_graph

    (graph,) = [op for op in api.parse_text(_F_GRAPH_FOLDS.replace("KIND", kind)).walk() if isinstance(op, tdfg.GraphOp)]
    A = np.array(vals, np.float32)
    H = np.array([-0.0 if kind == "max" else 0.0], np.float32)
    op = "minimumf" if kind == "min" else "maximumf"
    want = functools.reduce(lambda a, b: _ieee(op, a, b), map(float, A))
    (s,) = evaluate_graph(graph, [A, H], [len(A)], group_size=group)
    assert (float(s), bool(np.signbit(s))) == (want, bool(np.signbit(want)))
    want_h = _ieee(op, float(np.array([-0.0 if kind == "max" else 0.0])[0]), want)
    assert (float(H[0]), bool(np.signbit(H[0]))) == (want_h, bool(np.signbit(want_h)))


_RELU_GRAPH = """func.func @g(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  tdfg.graph ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index) rank 1 {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index):
    %t = tdfg.tensor %a [0:N] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    %r = tdfg.cmp relu(%t) : !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.store %r -> %b : !tdfg.tensor<f32, 1> -> memref<?xf32>
    tdfg.yield
  }
  func.return
}
"""


def test_float_relu_on_the_lattice_is_the_machines():
    # relu is +0 where the sign bit is set (pimcmd, the machine); the lattice
    # evaluator's np.maximum(x, 0) kept a negative NaN
    from infs.dialects import tdfg
    from infs.runtime.lattice_eval import evaluate_graph

    A = np.array([-0.0, 0.0, -1.5, 2.0, np.nan, np.inf, -np.inf], np.float32)
    A = np.concatenate([A, np.array([0xFFC00000], np.uint32).view(np.float32)])  # a negative NaN
    want = np.where(np.signbit(A), np.float32(0), A)
    r = api.run(_RELU_GRAPH, {"A": A, "B": np.ones_like(A), "n": len(A)}, config="tiny", mode="in")
    (graph,) = [op for op in api.parse_text(_RELU_GRAPH).walk() if isinstance(op, tdfg.GraphOp)]
    B = np.ones_like(A)
    evaluate_graph(graph, [A.copy(), B], [len(A)])
    for got in (r.outputs["B"], B):
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("tiles", [(0,), 16, (2.5,)])
def test_api_lower_bad_tiles_are_a_one_line_error(tiles):
    # tiles=16 raised a TypeError traceback from the JIT's cache key
    with pytest.raises(api.InfsError, match=r"^error: bad tiles .*: expected a tuple of positive integers, e.g. \(16, 16\)$"):
        api.lower(_GRAPH_DIV, {"n": 16}, config="tiny", tiles=tiles)


@pytest.mark.parametrize("mode", ["near", "core", "in"])
@pytest.mark.parametrize("kind", ["add", "mul", "min", "max"])
def test_i1_stream_reduce_over_an_empty_range_gives_the_signed_identity(kind, mode):
    # A reduction of nothing is its kind's identity: for a signed i1 (true is
    # -1) min's is false (0, the largest value) and max's is true; the
    # reference folded as i8 from int8's identities (127, -128), whose low bit
    # gave the unsigned ones (min true, max false).
    want = bool(_signed_i1_fold(kind, np.zeros((1, 0), bool), None)[0])
    r = api.run(_I1_REDUCE_SCALAR.replace("KIND", kind), {"A": np.zeros(0, bool), "n": 0}, config="small-16", mode=mode)
    assert bool(np.asarray(r.results[0])) is want


@pytest.mark.parametrize("kind", ["min", "max"])
def test_i1_reduce_of_a_region_over_nothing_in_memory_gives_the_signed_identity(kind):
    # Forced in memory, a region whose domain is empty runs as no graph invocation
    # (its arrays need not fit), each result the fold of nothing: for an i1 min/max
    # the signed identity (min false, max true), as the reference gives it.
    r = api.run(_I1_REDUCE_SCALAR.replace("KIND", kind), {"A": np.ones(200000, bool), "n": 0}, config="tiny", mode="in", strict=True)
    assert [(x.mode, x.graphs) for x in r.regions] == [("in", 0)]
    assert bool(np.asarray(r.results[0])) is (kind == "max")
