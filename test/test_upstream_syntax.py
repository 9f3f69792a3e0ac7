"""Upstream MLIR's custom syntax (``infs.dialects.upstream_syntax``).

Every case is written in the custom form upstream MLIR prints (checked by the
``iree-opt`` of the ``[mlir]`` extra when it was written).  Without upstream
MLIR: infs parses it, prints it, parses that again and gets the same generic
form; the printed custom form is the one upstream prints for the ops of this
module.  With upstream MLIR (``iree.compiler.ir``, the ``[mlir]`` extra): the
generic form infs gives, and the custom form infs prints, both read in upstream
MLIR as the same program as the case itself (upstream's generic form of the
three is equal).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infs import api
from infs.dialects import upstream_syntax as us
from infs.passes.extract_streams import extract_streams

CASES: dict[str, str] = {
    "parallel": """
func.func @f(%A: memref<?x?xf32>, %n: index) {
  affine.parallel (%i, %j) = (0, 0) to (%n, 10) {
    %v = affine.load %A[%i, %j] : memref<?x?xf32>
    affine.store %v, %A[%j, %i] : memref<?x?xf32>
  }
  return
}
""",
    "parallel_reduce_steps_groups": """
func.func @f(%A: memref<10x20xf32>, %N: index) -> (f32, f32) {
  %r:2 = affine.parallel (%i, %j) = (0, max(0, %N - 4)) to (10, min(20, %N)) step (1, 2) reduce ("addf", "maxnumf") -> (f32, f32) {
    %v = affine.load %A[%i, %j] : memref<10x20xf32>
    affine.yield %v, %v : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}
""",
    "parallel_symbols": """
func.func @f(%A: memref<?xi32>, %n: index, %m: index) -> i32 {
  %r = affine.parallel (%i) = (symbol(%m)) to (symbol(%n) * 2 - symbol(%m)) reduce ("maxs") -> (i32) {
    %v = affine.load %A[%i] : memref<?xi32>
    affine.yield %v : i32
  }
  return %r : i32
}
""",
    "parallel_every_kind": """
func.func @f(%x: f32, %y: i32) {
  %r:15 = affine.parallel (%i) = (0) to (4) reduce ("addf", "addi", "andi", "maximumf", "maxnumf", "maxs", "maxu", "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori") -> (f32, i32, i32, f32, f32, i32, i32, f32, f32, i32, i32, f32, i32, i32, i32) {
    affine.yield %x, %y, %y, %x, %x, %y, %y, %x, %x, %y, %y, %x, %y, %y, %y : f32, i32, i32, f32, f32, i32, i32, f32, f32, i32, i32, f32, i32, i32, i32
  }
  return
}
""",
    "if_else_results": """
#set = affine_set<(d0)[s0] : (d0 - 10 >= 0, s0 - d0 - 1 >= 0)>
func.func @f(%i: index, %n: index, %A: memref<?xf32>) -> f32 {
  %c = arith.constant 1.000000e+00 : f32
  affine.if #set(%i)[%n] {
    affine.store %c, %A[%i] : memref<?xf32>
  }
  affine.if affine_set<(d0) : (d0 == 0)>(%i) {
    affine.store %c, %A[%i] : memref<?xf32>
  } else {
    affine.store %c, %A[%i + 1] : memref<?xf32>
  }
  %r = affine.if affine_set<()[s0] : (s0 >= 0)>()[%n] -> f32 {
    affine.yield %c : f32
  } else {
    %l = affine.load %A[0] : memref<?xf32>
    affine.yield %l : f32
  }
  return %r : f32
}
""",
    "min_max_apply": """
func.func @f(%i: index, %n: index) -> (index, index, index, index) {
  %0 = affine.min affine_map<(d0)[s0] -> (s0, d0 + 4)>(%i)[%n]
  %1 = affine.max affine_map<(d0)[s0] -> (s0, d0 - 4)>(%i)[%n]
  %2 = affine.apply affine_map<(d0)[s0] -> (d0 * 2 + s0)>(%i)[%n]
  %3 = affine.apply affine_map<() -> (42)>()
  return %0, %1, %2, %3 : index, index, index, index
}
""",
    "scf_parallel_reduce": """
func.func @f(%A: memref<?xf32>, %n: index) -> (f32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.000000e+00 : f32
  %zi = arith.constant 0 : i32
  %r:2 = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z, %zi) -> (f32, i32) {
    %a = memref.load %A[%i] : memref<?xf32>
    %b = arith.fptosi %a : f32 to i32
    scf.reduce(%a, %b : f32, i32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%x: i32, %y: i32):
      %s = arith.maxsi %x, %y : i32
      scf.reduce.return %s : i32
    }
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %a = memref.load %A[%i] : memref<?xf32>
    memref.store %a, %A[%j] : memref<?xf32>
    scf.reduce
  }
  return %r#0, %r#1 : f32, i32
}
""",
    "memref_alloca_cast": """
func.func @f(%A: memref<?x?xf32>, %n: index) {
  %0 = memref.alloca() : memref<4x4xf32>
  %1 = memref.alloca(%n) alignment = 16 : memref<?xf32>
  %2 = memref.alloc(%n) alignment = 64 : memref<?xf32>
  %3 = memref.cast %0 : memref<4x4xf32> to memref<?x?xf32>
  %4 = memref.cast %A : memref<?x?xf32> to memref<*xf32>
  %5 = memref.subview %A[1, 2] [2, 2] [1, 1] : memref<?x?xf32> to memref<2x2xf32, strided<[?, 1], offset: ?>>
  memref.dealloc %2 : memref<?xf32>
  return
}
""",
    "cgeist_llvm": """
module {
  llvm.mlir.global internal constant @str0("hello %d\\0A\\00") {addr_space = 0 : i32}
  llvm.mlir.global external @stderr() {addr_space = 0 : i32} : !llvm.ptr
  llvm.func @printf(!llvm.ptr, ...) -> i32
  llvm.func @fprintf(!llvm.ptr, !llvm.ptr, ...) -> i32
  func.func @main() -> i32 {
    %0 = llvm.mlir.addressof @str0 : !llvm.ptr
    %1 = llvm.getelementptr %0[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<10 x i8>
    %c5_i32 = arith.constant 5 : i32
    %2 = llvm.call @printf(%1, %c5_i32) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32
    %3 = llvm.mlir.addressof @stderr : !llvm.ptr
    %4 = llvm.load %3 : !llvm.ptr -> !llvm.ptr
    return %2 : i32
  }
}
""",
    "llvm_globals": """
module {
  llvm.mlir.global external hidden @h(3 : i32) {addr_space = 0 : i32} : i32
  llvm.mlir.global private unnamed_addr constant @s("\\FF\\C3\\A9\\00") {addr_space = 0 : i32, dso_local}
  llvm.mlir.global internal local_unnamed_addr @z() {addr_space = 0 : i32, alignment = 8 : i64} : !llvm.array<4 x f32>
}
""",
}

# the custom form upstream MLIR prints of the ops this module defines, as infs must print it
PRINTED = {
    "parallel_reduce_steps_groups": 'affine.parallel (%i, %j) = (0, max(0, %N - 4)) to (10, min(20, %N)) step (1, 2) reduce ("addf", "maxnumf") -> (f32, f32) {',
    "parallel_symbols": 'affine.parallel (%i) = (symbol(%m)) to (symbol(%n) * 2 - symbol(%m)) reduce ("maxs") -> (i32) {',
    "if_else_results": "affine.if affine_set<()[s0] : (s0 >= 0)>()[%n] -> f32 {",
    "min_max_apply": "affine.max affine_map<(d0)[s0] -> (s0, (d0 + -4))>(%i)[%n]",
    "scf_parallel_reduce": "scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z, %zi) -> (f32, i32) {",
    "memref_alloca_cast": "memref.alloca(%n) alignment = 16 : memref<?xf32>",
    "cgeist_llvm": 'llvm.mlir.global internal constant @str0("hello %d\\0A\\00") {addr_space = 0 : i32}\n',
    "llvm_globals": 'llvm.mlir.global private unnamed_addr constant @s("\\FF\\C3\\A9\\00") {addr_space = 0 : i32, dso_local}\n',
}


def _generic(text: str) -> str:
    return api.to_text(api.parse_text(text), generic=True)


@pytest.mark.parametrize("name", CASES)
def test_custom_form_round_trips(name: str) -> None:
    module = api.parse_text(CASES[name])
    custom = api.to_text(module)
    generic = api.to_text(module, generic=True)
    assert _generic(custom) == generic
    assert _generic(generic) == generic
    assert api.to_text(api.parse_text(custom)) == custom
    if name in PRINTED:
        assert PRINTED[name] in custom


def test_parallel_reductions_are_upstreams_enum_values() -> None:
    generic = _generic(CASES["parallel_reduce_steps_groups"])
    assert "reductions = [0 : i64, 5 : i64]" in generic
    assert "lowerBoundsGroups = dense<[1, 2]> : tensor<2xi32>" in generic
    assert "steps = [1 : i64, 2 : i64]" in generic
    (op,) = [o for o in api.parse_text(CASES["parallel_every_kind"]).walk() if isinstance(o, us.AffineParallelOp)]
    assert op.reduction_kinds() == tuple(k for k in us.REDUCTION_KINDS if k != "assign")


def test_ops_are_xdsls_classes_too() -> None:
    """isinstance checks against xDSL's classes (passes, the host) hold; affine.max is no affine.min."""
    from xdsl.dialects import affine, memref, scf

    ops = {o.name: o for c in CASES.values() for o in api.parse_text(c).walk()}
    assert isinstance(ops["affine.parallel"], affine.ParallelOp)
    assert isinstance(ops["affine.if"], affine.IfOp)
    assert isinstance(ops["scf.parallel"], scf.ParallelOp) and isinstance(ops["scf.reduce"], scf.ReduceOp)
    assert isinstance(ops["memref.cast"], memref.CastOp) and isinstance(ops["memref.alloca"], memref.AllocaOp)
    assert isinstance(ops["affine.min"], affine.MinOp) and not isinstance(ops["affine.max"], affine.MinOp)


BAD = [
    ("  affine.parallel (%i) = (0) to (%n, 4) {\n  }", "2:33: error: expected 1 upper bounds (one per induction variable), not 2"),
    ('  affine.parallel (%i) = (0) to (%n) reduce ("plus") -> (f32) {\n  }', '2:46: error: invalid reduction value: "plus"'),
    ("  affine.parallel (%i) = (0) to (%n) step (0) {\n  }", "2:43: error: steps must be positive"),
    ('  %r = affine.parallel (%i) = (0) to (%n) reduce ("addf") -> (i32) {\n    %c = arith.constant 1 : i32\n    affine.yield %c : i32\n  }', "2:3: error: 'affine.parallel' op result type i32 cannot match reduction 'addf'"),
    ('  affine.parallel (%i) = (0) to (%n) reduce ("addf") {\n  }', "2:54: error: 1 reductions but 0 result types"),
    ("  affine.parallel (%i) = (0) to (%n * %n) {\n  }", "2:34: error: not an affine expression"),
    ("  affine.parallel (%i) = (0) to (max(%n, 3)) {\n  }", "2:34: error: an upper bound group is min(...), not max(...)"),
    ("  affine.if affine_set<(d0) : (d0 >= 0)>(%n)[%n] {\n  }", "2:41: error: this integer set takes 1 dimension and 0 symbol operands, not 1 and 1"),
    ("  %r = affine.if affine_set<(d0) : (d0 >= 0)>(%n) -> f32 {\n    %c = arith.constant 1.0 : f32\n    affine.yield %c : f32\n  }", "2:3: error: 'affine.if' op with results, it needs an else region"),
    ("  %x = affine.max affine_set<(d0) : (d0 >= 0)>(%n)", "2:19: error: expected an affine map"),
    ("  %c0 = arith.constant 0 : index\n  scf.parallel (%i, %j) = (%c0) to (%n) step (%c0) {\n  }", "3:27: error: expected 2 lower bounds (one per induction variable), not 1"),
    ("  %x = affine.apply affine_map<(d0)[s0] -> (d0 mod s0)>(%n)[%n]", "2:54: error: semi-affine maps (a product, mod or division by a symbol or dimension) are not supported"),
    ("  %a = memref.cast %A : memref<?xf32> to memref<4x4xf32>", "2:3: error: 'memref.cast' op operand type memref<?xf32> and result type memref<4x4xf32> are cast incompatible"),
]


@pytest.mark.parametrize("body, want", BAD, ids=[w.split("error: ")[1][:40] for _, w in BAD])
def test_bad_syntax_is_one_line_with_its_place(body: str, want: str) -> None:
    text = f"func.func @f(%A: memref<?xf32>, %n: index) {{\n{body}\n  return\n}}\n"
    with pytest.raises(api.InfsError) as e:
        api.parse_text(text, "bad.mlir")
    assert str(e.value).startswith(f"bad.mlir:{want}"), str(e.value)
    assert "\n" not in str(e.value)


# -- extract-streams reads the parsed ops -----------------------------------

REDUCE = """
func.func @f(%A: memref<?x?xf32>, %n: index, %m: index, %S: memref<4xf32>) {
  %r:3 = affine.parallel (%i, %j) = (0, 0) to (%n, %m) reduce ("addf", "maximumf", "minimumf") -> (f32, f32, f32) {
    %v = affine.load %A[%i, %j] : memref<?x?xf32>
    %w = arith.mulf %v, %v : f32
    affine.yield %w, %v, %v : f32, f32, f32
  }
  affine.store %r#0, %S[0] : memref<4xf32>
  affine.store %r#1, %S[1] : memref<4xf32>
  affine.store %r#2, %S[2] : memref<4xf32>
  %t = affine.parallel (%i) = (0) to (%n) step (2) reduce ("mulf") -> (f32) {
    %v = affine.load %A[%i, 0] : memref<?x?xf32>
    affine.yield %v : f32
  }
  affine.store %t, %S[3] : memref<4xf32>
  return
}
"""


@pytest.mark.parametrize("n, m", [(1, 1), (3, 5), (6, 2)])
def test_affine_parallel_reduce_becomes_a_reduction_region(n: int, m: int) -> None:
    module = api.parse_text(REDUCE)
    remarks = extract_streams(module)
    assert remarks[0].extracted and "iterators [reduction, reduction]" in str(remarks[0])
    A = np.random.default_rng(n * 10 + m).uniform(0.5, 1.5, (n, m)).astype(np.float32)
    want = [np.sum(A * A, dtype=np.float32), A.max(), A.min(), np.prod(A[::2, 0], dtype=np.float32)]
    for mode in ("auto", "in"):
        res = api.run(api.parse_text(REDUCE), {"A": A, "n": n, "m": m, "S": np.zeros(4, np.float32)}, config="tiny", mode=mode)
        np.testing.assert_allclose(res.outputs["S"], want, rtol=1e-5)


def test_an_empty_parallel_reduce_is_its_identity() -> None:
    """Zero iterations: each result is its kind's identity, as upstream's --lower-affine starts it."""
    res = api.run(api.parse_text(REDUCE), {"A": np.ones((1, 1), np.float32), "n": 0, "m": 3, "S": np.full(4, 7, np.float32)}, config="tiny")
    np.testing.assert_array_equal(res.outputs["S"], [0.0, -np.inf, np.inf, 1.0])


def test_affine_max_and_if_run_on_the_host() -> None:
    text = """
func.func @f(%A: memref<8xi32>, %n: index) {
  affine.for %i = 0 to 8 {
    %x = affine.max affine_map<(d0)[s0] -> (d0, s0 - d0)>(%i)[%n]
    %y = affine.min affine_map<(d0) -> (d0, 3)>(%x)
    %v = arith.index_cast %y : index to i32
    affine.if affine_set<(d0) : (d0 - 2 >= 0)>(%i) {
      affine.store %v, %A[%i] : memref<8xi32>
    } else {
      %c = arith.constant -1 : i32
      affine.store %c, %A[%i] : memref<8xi32>
    }
  }
  return
}
"""
    res = api.run(api.parse_text(text), {"A": np.zeros(8, np.int32), "n": 5}, config="tiny")
    want = [min(max(i, 5 - i), 3) if i >= 2 else -1 for i in range(8)]
    np.testing.assert_array_equal(res.outputs["A"], want)


# -- upstream MLIR agrees ------------------------------------------------------


def _upstream_generic(text: str) -> str:
    ir = pytest.importorskip("iree.compiler.ir", reason="upstream MLIR bindings (iree-base-compiler, the [mlir] extra) not installed")
    ctx = ir.Context()
    module = ir.Module.parse(text, ctx)
    # upstream's custom parser of llvm.mlir.global sets the default
    # `unnamed_addr = 0` (none); xDSL's leaves the optional property out: the same global
    return module.operation.get_asm(print_generic_op_form=True).replace("unnamed_addr = 0 : i64, ", "")


@pytest.mark.parametrize("name", CASES)
def test_upstream_reads_infs_output_as_the_same_program(name: str) -> None:
    want = _upstream_generic(CASES[name])
    module = api.parse_text(CASES[name])
    assert _upstream_generic(api.to_text(module, generic=True)) == want
    assert _upstream_generic(api.to_text(module)) == want
    # and infs reads upstream's own generic form as the same program
    assert _upstream_generic(api.to_text(api.parse_text(want))) == want


# -- the acceptance case: PolyBench gemm after upstream's --affine-parallelize --

GEMM_PARALLEL = Path(__file__).resolve().parent / "lit" / "dialects" / "upstream" / "gemm-affine-parallelize.mlir"


@pytest.mark.parametrize("mode", ["auto", "in"])
def test_affine_parallelized_gemm_gives_numpys_answer(mode: str) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent / "polybench"))
    from reference import KERNELS, expected, inputs

    k, sizes = KERNELS["gemm"], {"NI": 7, "NJ": 11, "NK": 5}
    args = inputs(k, sizes, seed=1)
    want = expected(k, args, sizes)
    module = api.parse_text(GEMM_PARALLEL.read_text(), str(GEMM_PARALLEL))
    assert sum(isinstance(o, us.AffineParallelOp) for o in module.walk()) == 3
    res = api.run(module, args, config="small-16", mode=mode)
    assert len(res.regions) == 3
    for a, w in want.items():
        np.testing.assert_allclose(res.outputs[a], w, rtol=1e-10, atol=1e-12, err_msg=a)


def test_memref_ops_in_custom_form_run_on_the_host() -> None:
    """memref.alloca/alloc/cast parsed from upstream's form are infs's classes; the host runs them."""
    text = """
func.func @f(%A: memref<4xf32>, %n: index) {
  %t = memref.alloca(%n) alignment = 16 : memref<?xf32>
  %u = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
  %c = memref.cast %u : memref<4xf32> to memref<?xf32>
  scf.for %i = %n to %n step %n {
  }
  affine.for %i = 0 to 4 {
    %v = affine.load %A[%i] : memref<4xf32>
    %w = arith.addf %v, %v : f32
    affine.store %w, %t[%i] : memref<?xf32>
    %x = affine.load %t[%i] : memref<?xf32>
    memref.store %x, %c[%i] : memref<?xf32>
    %y = memref.load %c[%i] : memref<?xf32>
    affine.store %y, %A[%i] : memref<4xf32>
  }
  memref.dealloc %u : memref<4xf32>
  return
}
"""
    module = api.parse_text(text)
    assert {type(o) for o in module.walk()} >= {us.MemRefAllocaOp, us.MemRefAllocOp, us.MemRefCastOp}
    res = api.run(module, {"A": np.arange(4, dtype=np.float32), "n": 4}, config="tiny")
    np.testing.assert_array_equal(res.outputs["A"], [0, 2, 4, 6])


# -- random affine.parallel heads (hypothesis) ---------------------------------

_VALUES = ("%a", "%b", "%c")


@st.composite
def _bound_expr(draw) -> str:
    def leaf() -> str:
        v = draw(st.sampled_from(_VALUES))
        return f"symbol({v})" if draw(st.booleans()) else v

    kind = draw(st.sampled_from(["const", "leaf", "add", "sub", "mul", "div", "mod"]))
    k = draw(st.integers(1, 5))
    if kind == "const":
        return str(draw(st.integers(-3, 9)))
    if kind == "leaf":
        return leaf()
    if kind == "mul":
        return f"{leaf()} * {k}"
    if kind in ("div", "mod"):
        return f"({leaf()} + {k}) {'floordiv' if kind == 'div' else 'mod'} {k + 1}"
    return f"{leaf()} {'+' if kind == 'add' else '-'} {draw(st.sampled_from([str(k), leaf()]))}"


@st.composite
def _parallel(draw) -> str:
    n = draw(st.integers(1, 3))

    def bounds(keyword: str) -> str:
        groups = []
        for _ in range(n):
            exprs = draw(st.lists(_bound_expr(), min_size=1, max_size=3))
            groups.append(exprs[0] if len(exprs) == 1 else f"{keyword}({', '.join(exprs)})")
        return ", ".join(groups)

    ivs = ", ".join(f"%i{k}" for k in range(n))
    head = f"affine.parallel ({ivs}) = ({bounds('max')}) to ({bounds('min')})"
    if draw(st.booleans()):
        head += f" step ({', '.join(str(draw(st.integers(1, 4))) for _ in range(n))})"
    kinds = draw(st.lists(st.sampled_from([k for k in us.REDUCTION_KINDS if k != "assign"]), max_size=3))
    types = ["f32" if k in us._FLOAT_KINDS else "i32" for k in kinds]
    vals = ["%x" if t == "f32" else "%y" for t in types]
    res = ""
    body = "    %v = affine.load %A[%i0] : memref<?xf32>\n    affine.store %v, %A[%i0] : memref<?xf32>\n"
    if kinds:
        res = f"%r:{len(kinds)} = " if len(kinds) > 1 else "%r = "
        head += f' reduce ({", ".join(chr(34) + k + chr(34) for k in kinds)}) -> ({", ".join(types)})'
        body += f"    affine.yield {', '.join(vals)} : {', '.join(types)}\n"
    return f"func.func @f(%A: memref<?xf32>, %a: index, %b: index, %c: index, %x: f32, %y: i32) {{\n  {res}{head} {{\n{body}  }}\n  return\n}}\n"


@settings(max_examples=20, deadline=None)
@given(_parallel())
def test_random_affine_parallel_heads_round_trip(text: str) -> None:
    module = api.parse_text(text)
    generic = api.to_text(module, generic=True)
    assert _generic(api.to_text(module)) == generic


@settings(max_examples=12, deadline=None)
@given(_parallel())
def test_random_affine_parallel_heads_are_upstreams(text: str) -> None:
    """Bounds (dims, symbol(...), max/min groups, a value used in several), steps
    and reductions: upstream reads infs's generic and custom forms as the case."""
    want = _upstream_generic(text)
    module = api.parse_text(text)
    assert _upstream_generic(api.to_text(module, generic=True)) == want
    assert _upstream_generic(api.to_text(module)) == want


def test_an_assign_reduction_is_refused_in_one_line() -> None:
    """reduce ("assign") parses (upstream's parser takes it) but has no identity to fold from."""
    text = """
func.func @f(%A: memref<?xf32>, %n: index, %S: memref<1xf32>) {
  %r = affine.parallel (%i) = (0) to (%n) reduce ("assign") -> (f32) {
    %v = affine.load %A[%i] : memref<?xf32>
    affine.yield %v : f32
  }
  affine.store %r, %S[0] : memref<1xf32>
  return
}
"""
    with pytest.raises(api.InfsError) as e:
        api.run(api.parse_text(text, "assign.mlir"), {"A": np.zeros(4, np.float32), "n": 4, "S": np.zeros(1, np.float32)}, config="tiny")
    assert "assign.mlir:3:3: 'affine.parallel' reduce (\"assign\") of f32 has no identity" in str(e.value)
    assert "\n" not in str(e.value)
