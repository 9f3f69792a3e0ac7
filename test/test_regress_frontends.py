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


_CAST = """
func.func @k(%A: memref<?xi32>, %B: memref<?xi32>, %C: memref<?xOT>, %n: index) {
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xi32>
    %b = affine.load %B[%i] : memref<?xi32>
    BODY
    affine.store %s, %C[%i] : memref<?xOT>
  }
  func.return
}
"""
_IA = np.array([1, 2, 3, -4, 5, 0, 7, -128, 300], np.int32)
_IB = np.array([2, 2, 1, -4, 0, 0, 9, 1, 44], np.int32)
_LT = _IA < _IB


@pytest.mark.parametrize(
    "body, otype, want",
    [
        # a signed i1 is 0 or -1 (LLVM's sext/sitofp of i1 true: all ones, -1.0)
        ("%c = arith.cmpi slt, %a, %b : i32\n    %s = arith.extsi %c : i1 to i32", "i32", np.where(_LT, -1, 0).astype(np.int32)),
        ("%c = arith.cmpi slt, %a, %b : i32\n    %s = arith.sitofp %c : i1 to f32", "f32", np.where(_LT, -1.0, 0.0).astype(np.float32)),
        ("%c = arith.cmpi slt, %a, %b : i32\n    %s = arith.extui %c : i1 to i32", "i32", _LT.astype(np.int32)),
        # trunci keeps the low bit: 2 -> 0, not "nonzero"
        ("%t = arith.trunci %a : i32 to i1\n    %s = arith.extui %t : i1 to i32", "i32", (_IA & 1).astype(np.int32)),
    ],
    ids=["extsi_i1", "sitofp_i1", "extui_i1", "trunci_i1"],
)
@pytest.mark.parametrize("mode", ["auto", "in", "core"])
def test_i1_casts(body, otype, want, mode):
    dt = np.int32 if otype == "i32" else np.float32
    inputs = {"A": _IA, "B": _IB, "C": np.ones(len(_IA), dt), "n": len(_IA)}
    r = api.run(_CAST.replace("BODY", body).replace("OT", otype), inputs, config="tiny", mode=mode)
    np.testing.assert_array_equal(r.outputs["C"], want)
    if otype == "f32":  # sitofp of false is +0.0
        assert not np.signbit(r.outputs["C"][~_LT]).any()


def test_kernel_whose_carried_scalar_changes_type():
    # `s = 0.0` is a Python float (f64); `s * 0.5 + A[i]` is f32 (numpy 2), so the
    # loop body is read again with an f32 carry; dropping the first reading's
    # hoisted constants erased attached ops (an AssertionError from xDSL)
    import infs

    @infs.kernel
    def decay(A, n: int):
        s = 0.0
        for i in range(n):
            s = s * 0.5 + A[i]
        return s

    A = np.array([0.0, 1.0, 2.0, 3.0, -1.5], np.float32)
    want = np.float32(0.0)
    for a in A:  # C: s = s * 0.5f + A[i] in float
        want = np.float32(want * np.float32(0.5) + a)
    run = decay(A, len(A), config="tiny", mode="auto")
    assert run.value == want


_DIV = """
func.func @k(%A: memref<?xi32>, %B: memref<?xi32>, %C: memref<?xi32>, %n: index) {
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xi32>
    %b = affine.load %B[%i] : memref<?xi32>
    %s = arith.divsi %a, %b : i32
    affine.store %s, %C[%i] : memref<?xi32>
  }
  func.return
}
"""


@pytest.mark.parametrize("mode", ["in", "auto", "near", "core"])
def test_integer_division_by_zero_is_an_error_in_every_mode(mode):
    # in memory the machine's quotient for a zero divisor is 0 (a silent
    # answer where near, core and the host stop with the op's line)
    A = np.array([5, -5, 7, 3], np.int32)
    inputs = {"A": A, "B": np.array([2, 0, 1, -1], np.int32), "C": np.zeros(4, np.int32), "n": 4}
    with pytest.raises(api.InfsError, match=r"division by zero in 'arith.divsi' at line 6"):
        api.run(_DIV, inputs, config="small-16", mode=mode)
    # without a zero divisor it still runs where asked, C's truncating quotient
    inputs["B"] = np.array([2, -3, 1, -1], np.int32)
    r = api.run(_DIV, inputs, config="small-16", mode=mode)
    np.testing.assert_array_equal(r.outputs["C"], [2, 1, 7, -3])
    if mode == "in":
        assert [g.mode for g in r.regions] == ["in"]


def test_unsupported_compute_op_names_its_line():
    text = _DIV.replace("arith.divsi", "arith.ceildivui")
    inputs = {"A": np.ones(4, np.int32), "B": np.ones(4, np.int32), "C": np.zeros(4, np.int32), "n": 4}
    with pytest.raises(api.InfsError, match=r"'arith.ceildivui' at line 6 is not supported"):
        api.run(text, inputs, config="tiny", mode="auto")


_I1_SIGNED = """
func.func @k(%A: memref<?xi32>, %B: memref<?xi32>, %C: memref<?xi32>, %n: index) {
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xi32>
    %b = affine.load %B[%i] : memref<?xi32>
    %z = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %p = arith.cmpi sgt, %a, %z : i32
    %q = arith.cmpi sgt, %b, %z : i32
    BODY
    %s = arith.select %r, %one, %z : i32
    affine.store %s, %C[%i] : memref<?xi32>
  }
  func.return
}
"""
# the four (p, q) pairs; as signed i1 values true is -1, false 0
_P = np.array([True, True, False, False])
_Q = np.array([True, False, True, False])
_SP, _SQ = -_P.astype(int), -_Q.astype(int)


@pytest.mark.parametrize(
    "body, want",
    [
        ("%r = arith.cmpi slt, %p, %q : i1", _SP < _SQ),
        ("%r = arith.cmpi sge, %p, %q : i1", _SP >= _SQ),
        ("%r = arith.maxsi %p, %q : i1", np.maximum(_SP, _SQ) != 0),
        ("%r = arith.minsi %p, %q : i1", np.minimum(_SP, _SQ) != 0),
    ],
    ids=["slt", "sge", "maxsi", "minsi"],
)
@pytest.mark.parametrize("mode", ["in", "core"])
def test_signed_i1_compares_and_min_max(body, want, mode):
    inputs = {"A": _P.astype(np.int32), "B": _Q.astype(np.int32), "C": np.full(4, 7, np.int32), "n": 4}
    r = api.run(_I1_SIGNED.replace("BODY", body), inputs, config="tiny", mode=mode)
    np.testing.assert_array_equal(r.outputs["C"], want.astype(np.int32))
    assert [g.mode for g in r.regions] == [mode]


_I1_FOLD = """
func.func @k(%A: memref<?xi1>, %n: index) -> i1 {
  %init = arith.constant INIT
  %s = affine.for %i = 0 to %n iter_args(%acc = %init) -> (i1) {
    %a = affine.load %A[%i] : memref<?xi1>
    %t = arith.OP %acc, %a : i1
    affine.yield %t : i1
  }
  func.return %s : i1
}
"""


@pytest.mark.parametrize(
    "op, init, want",
    [
        ("addi", "false", False),  # 1 + 0 + 1 wraps to 0 (parity), not "any"
        ("maxsi", "true", False),  # signed: max(-1, 0) = 0
        ("minsi", "false", True),  # signed: min(-1, 0) = -1
    ],
)
@pytest.mark.parametrize("mode", ["auto", "in", "core"])
def test_i1_folds(op, init, want, mode):
    A = np.array([True, False, True])
    r = api.run(_I1_FOLD.replace("INIT", init).replace("OP", op), {"A": A, "n": 3}, config="small-16", mode=mode)
    assert bool(np.asarray(r.results[0])) is want


_HOST_MATH = """
func.func @k(%A: memref<?xf64>, %n: index) {
  affine.for %i = 1 to %n {
    %p = affine.load %A[%i - 1] : memref<?xf64>
    %a = affine.load %A[%i] : memref<?xf64>
    %f = OP %p : f64
    %s = arith.addf %f, %a : f64
    affine.store %s, %A[%i] : memref<?xf64>
  }
  func.return
}
"""


@pytest.mark.parametrize(
    "op, first, fn",
    [
        ("math.sqrt", -4.0, np.sqrt),  # NaN, not "math domain error"
        ("math.log", 0.0, np.log),  # -inf
        ("math.exp", 800.0, np.exp),  # inf, not an OverflowError traceback
        ("math.absf", -4.0, np.abs),  # the host had no absf/tanh
        ("math.tanh", -4.0, np.tanh),
    ],
)
def test_math_on_the_host_as_in_regions(op, first, fn):
    # A[i] = f(A[i - 1]) + A[i] carries a dependence: the loop runs on the host
    A = np.array([first, 1.0, 2.0])
    want = A.copy()
    with np.errstate(all="ignore"):
        for i in range(1, 3):
            want[i] = fn(want[i - 1]) + want[i]
    r = api.run(_HOST_MATH.replace("OP", op), {"A": A, "n": 3}, config="tiny", mode="auto")
    assert r.regions == []
    np.testing.assert_array_equal(r.outputs["A"], want)


_HOST_UNSIGNED = """
func.func @k(%A: memref<?xTY>, %B: memref<?xTY>, %n: index) {
  affine.for %i = 1 to %n {
    %a = affine.load %A[%i - 1] : memref<?xTY>
    %b = affine.load %B[%i] : memref<?xTY>
    %s = arith.OP %a, %b : TY
    affine.store %s, %A[%i] : memref<?xTY>
  }
  func.return
}
"""


@pytest.mark.parametrize("ty, dt", [("i8", np.int8), ("i16", np.int16), ("i32", np.int32)])
@pytest.mark.parametrize("op", ["shrui", "remui", "divui"])
def test_unsigned_ops_on_the_host(ty, dt, op):
    # a carried loop runs on the host, whose integers are Python ints: an
    # unsigned op read them as int64 (-25 >> 3 unsigned in i8 gave -1, not 28)
    bits = np.iinfo(dt).bits
    A = np.array([-25, 0, 0, 0], dt)
    B = np.array([0, 3, 5, 2], dt) if op == "shrui" else np.array([0, 7, -3, 9], dt)
    want = A.copy()
    for i in range(1, 4):
        ua, ub = int(want[i - 1]) % (1 << bits), int(B[i]) % (1 << bits)
        r = {"shrui": ua >> ub, "remui": ua % ub, "divui": ua // ub}[op]
        want[i] = r - (1 << bits) if r >= 1 << (bits - 1) else r
    r = api.run(_HOST_UNSIGNED.replace("TY", ty).replace("OP", op), {"A": A, "B": B, "n": 4}, config="tiny", mode="auto")
    assert r.regions == []
    np.testing.assert_array_equal(r.outputs["A"], want)


_HIST = """
func.func @k(%idx: memref<?xi32>, %V: memref<?xi32>, %H: memref<?xi32>, %n: index) {
  affine.for %i = 0 to %n {
    %x = affine.load %idx[%i] : memref<?xi32>
    %j = arith.index_cast %x : i32 to index
    %h = memref.load %H[%j] : memref<?xi32>
    %v = affine.load %V[%i] : memref<?xi32>
    %s = arith.addi %h, %v : i32
    memref.store %s, %H[%j] : memref<?xi32>
  }
  func.return
}
"""

_GATHER = """
func.func @k(%idx: memref<?xi32>, %X: memref<?x?xf32>, %Y: memref<?x?xf32>, %n: index, %d: index) {
  affine.for %i = 0 to %n {
    affine.for %k = 0 to %d {
      %x = affine.load %idx[%i] : memref<?xi32>
      %j = arith.index_cast %x : i32 to index
      %v = memref.load %X[%j, %k] : memref<?x?xf32>
      %w = affine.load %Y[%i, %k] : memref<?x?xf32>
      %s = arith.addf %v, %w : f32
      affine.store %s, %Y[%i, %k] : memref<?x?xf32>
    }
  }
  func.return
}
"""


@pytest.mark.parametrize("bad", [-1, 4])
@pytest.mark.parametrize("mode", ["in", "near"])
def test_loaded_index_outside_its_array_is_the_programs_error(bad, mode):
    # in memory the stream engines raised the simulator's SimError ('pimcmd.near_store'
    # reaches index 4), not an InfsError naming the program's op
    idx = np.array([0, bad, 1], np.int32)
    inputs = {"idx": idx, "V": np.ones(3, np.int32), "H": np.zeros(4, np.int32), "n": 3}
    with pytest.raises(api.InfsError, match=rf"'stream.atomic' at line 9 accesses index {bad} in dim 0 of an array of shape \[4\]"):
        api.run(_HIST, inputs, config="tiny", mode=mode)
    inputs = {"idx": idx, "X": np.ones((4, 3), np.float32), "Y": np.zeros((3, 3), np.float32), "n": 3, "d": 3}
    with pytest.raises(api.InfsError, match=rf"accesses index {bad} in dim 0 of an array of shape \[4, 3\]"):
        api.run(_GATHER, inputs, config="small-16", mode=mode)


_PREFIX_AB = """
func.func @k(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  affine.for %i = 1 to %n {
    %b = affine.load %B[%i - 1] : memref<?xf32>
    %a = affine.load %A[%i] : memref<?xf32>
    %s = arith.addf %a, %b : f32
    affine.store %s, %A[%i] : memref<?xf32>
  }
  func.return
}
"""


def test_api_run_keeps_an_array_passed_twice_one_array():
    # k(X, X, n) in C is a prefix sum of X; api.run copied each argument on its
    # own, so the region saw two arrays and returned X[i] + X_old[i - 1]
    X = np.arange(6, dtype=np.float32)
    with pytest.raises(api.InfsError, match="share memory at run time"):
        api.run(_PREFIX_AB, {"A": X, "B": X, "n": 5}, config="tiny", mode="auto")
    with pytest.raises(api.InfsError, match="arguments 'A' and 'B' are different views of the same memory"):
        api.run(_PREFIX_AB, {"A": X[1:], "B": X[:-1], "n": 4}, config="tiny", mode="auto")
    # distinct arrays, and one array only read twice, still run
    r = api.run(_PREFIX_AB, {"A": X, "B": X.copy(), "n": 5}, config="tiny", mode="auto")
    np.testing.assert_array_equal(r.outputs["A"], [0, 1, 3, 5, 7, 5])
    ro = "func.func @k(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %n: index) {\n  affine.for %i = 0 to %n {\n    %a = affine.load %A[%i] : memref<?xf32>\n    %b = affine.load %B[%i] : memref<?xf32>\n    %s = arith.addf %a, %b : f32\n    affine.store %s, %C[%i] : memref<?xf32>\n  }\n  func.return\n}"
    r = api.run(ro, {"A": X, "B": X, "C": np.zeros(6, np.float32), "n": 6}, config="tiny", mode="in")
    np.testing.assert_array_equal(r.outputs["C"], 2 * X)


def test_memref_alloca_scratch_array():
    # cgeist prints a C local array as memref.alloca; the host's alloca called
    # the @impl-wrapped run_alloc and returned its (results, terminator) pair:
    # "Number of operation results (1) doesn't match ... (2)"
    text = """
func.func @k(%A: memref<?xf32>, %n: index) {
  %tmp = memref.alloca(%n) : memref<?xf32>
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xf32>
    affine.store %a, %tmp[%i] : memref<?xf32>
  }
  affine.for %i = 1 to %n {
    %a = affine.load %tmp[%i - 1] : memref<?xf32>
    %b = affine.load %A[%i] : memref<?xf32>
    %s = arith.addf %a, %b : f32
    affine.store %s, %A[%i] : memref<?xf32>
  }
  func.return
}
"""
    A = np.array([1.0, 2.0, 4.0, 8.0], np.float32)
    for mode in ("auto", "in"):
        r = api.run(text, {"A": A, "n": 4}, config="tiny", mode=mode)
        np.testing.assert_array_equal(r.outputs["A"], [1.0, 3.0, 6.0, 12.0])


def test_memref_globals_and_casts_on_the_host():
    # cgeist's static arrays are memref.global + memref.get_global, and it casts
    # static memrefs to dynamic ones: the host had no implementation of either
    # ("Could not find interpretation function for op memref.get_global")
    text = """
"memref.global"() <{sym_name = "W", sym_visibility = "private", type = memref<4xf32>, initial_value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>, constant}> : () -> ()
"memref.global"() <{sym_name = "T", sym_visibility = "private", type = memref<4xf32>, initial_value}> : () -> ()
func.func @k(%A: memref<4xf32>, %B: memref<?xf32>, %n: index) {
  %w = memref.get_global @W : memref<4xf32>
  %t = memref.get_global @T : memref<4xf32>
  %a2 = "memref.cast"(%A) : (memref<4xf32>) -> memref<?xf32>
  affine.for %i = 0 to %n {
    %a = affine.load %a2[%i] : memref<?xf32>
    %b = affine.load %w[%i] : memref<4xf32>
    %s = arith.mulf %a, %b : f32
    affine.store %s, %t[%i] : memref<4xf32>
  }
  %t2 = memref.get_global @T : memref<4xf32>
  affine.for %i = 0 to %n {
    %x = affine.load %t2[%i] : memref<4xf32>
    %y = arith.addf %x, %x : f32
    affine.store %y, %B[%i] : memref<?xf32>
  }
  func.return
}
"""
    A = np.array([1.0, -1.0, 0.5, 2.0], np.float32)
    for mode in ("auto", "in", "core"):
        r = api.run(text, {"A": A, "B": np.zeros(4, np.float32), "n": 4}, config="tiny", mode=mode)
        np.testing.assert_array_equal(r.outputs["B"], 2 * A * np.array([1, 2, 3, 4], np.float32))


def test_kernel_int_argument_that_does_not_fit_the_array_element():
    # the program casts an ``int`` argument to the element type it meets
    # (index_cast wraps: 300 became 44 in int8): a silent answer where plain
    # Python (numpy 2) raises OverflowError, or compares past the type
    import infs

    @infs.kernel
    def addk(A, B, n: int, k: int):
        for i in range(n):
            B[i] = A[i] + k

    @infs.kernel
    def below(A, B, n: int, k: int):
        for i in range(n):
            B[i] = A[i] if A[i] < k else 0

    A = np.array([100, -2, 3], np.int8)
    for kern in (addk, below):
        B = np.zeros(3, np.int8)
        with pytest.raises(api.InfsError, match="argument 'k' = 300 does not fit int8"):
            kern(A, B, 3, 300, config="tiny")
        assert not B.any()
    B = np.zeros(3, np.int8)
    addk(A, B, 3, -128, config="tiny")  # in range: int8 arithmetic wraps, as numpy's
    np.testing.assert_array_equal(B, (A.astype(np.int16) - 128).astype(np.int8))
