"""The host code's data form compiled to closures (infs.runtime.bundle) against
``infs.runtime.host``'s interpreter: the same results (value, Python/numpy type
and bits), the same array contents and the same one-line errors -- op by op on
edge and random values, and on every workload (offloaded regions run by the
reference executor in both) at sizes hypothesis draws."""

from __future__ import annotations

import functools
import itertools
import json
import math
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infs import api
from infs.runtime import host
from infs.runtime.bundle.errors import BundleError, HostRunError
from infs.runtime.bundle.host_form import host_data
from infs.runtime.bundle.host_program import compile_host
from infs.runtime.driver import extract_regions
from infs.runtime.reference import evaluate_region
from infs.runtime.scalar_ops import EvaluationError
from infs.workloads import WORKLOADS
from infs.workloads import pointnet

# ---------------------------------------------------------------------------
# Running both
# ---------------------------------------------------------------------------


def _bundle_program(module):
    """The module's host code through JSON text and back (what a bundle holds)."""
    data, offloads = host_data(module)
    return compile_host(json.loads(json.dumps(data))), offloads


def _same_value(x, y) -> bool:
    if type(x) is not type(y):
        return False
    if isinstance(x, np.ndarray):
        return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()
    if isinstance(x, np.generic):
        return x.dtype == y.dtype and x.tobytes() == y.tobytes()
    if isinstance(x, float):
        return x == y and math.copysign(1, x) == math.copysign(1, y) or (x != x and y != y)
    return x == y


def _copy(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def run_both(module, args, name=None, program=None):
    """Both runs on copies of ``args``: ('ok', results, arrays) or ('error', message) each."""
    prog, offloads = program or _bundle_program(module)
    a1, a2 = _copy(args), _copy(args)
    try:
        out1 = ("ok", host.run_function(module, a1, name), a1)
    except EvaluationError as e:
        out1 = ("error", str(e))
    region = lambda i, arrays, scalars: evaluate_region(offloads["region"][i], arrays, scalars)  # noqa: E731
    try:
        out2 = ("ok", prog.run(a2, name, region=region), a2)
    except (HostRunError, EvaluationError) as e:
        out2 = ("error", str(e))
    return out1, out2


def assert_same(out1, out2, what=""):
    assert out1[0] == out2[0], (what, out1, out2)
    if out1[0] == "error":
        assert out1[1] == out2[1], what
        return
    _, r1, arr1 = out1
    _, r2, arr2 = out2
    assert len(r1) == len(r2), what
    for x, y in zip(r1, r2):
        assert _same_value(x, y), (what, x, y, type(x), type(y))
    for x, y in zip(arr1, arr2):
        assert _same_value(x, y), what


# ---------------------------------------------------------------------------
# Op by op
# ---------------------------------------------------------------------------

EDGES = {
    "i1": [False, True],
    "i4": [-8, -3, -1, 0, 1, 7],
    "i8": [-128, -7, -1, 0, 1, 3, 127],
    "i32": [-(2**31), -5, -1, 0, 1, 7, 2**31 - 1],
    "i64": [-(2**63), -9, -1, 0, 2, 2**63 - 1],
    "index": [-(2**63), -9, -1, 0, 1, 3, 2**40, 2**63 - 1],
    "f16": [0.0, -0.0, 1.0, -2.5, math.inf, -math.inf, math.nan, 65504.0, 1e-7],
    "f32": [0.0, -0.0, 1.0, -2.5, math.inf, -math.inf, math.nan, 3.0e38, 1e-40, 2.0**31, 300.7],
    "f64": [0.0, -0.0, 1.0, -2.5, math.inf, -math.inf, math.nan, 1e300, 5e-324, -(2.0**63), 2.0**64],
}
INTS = ("i1", "i4", "i8", "i32", "i64", "index")
FLOATS = ("f16", "f32", "f64")


def _cases() -> list[tuple[str, tuple[str, ...], str, str]]:
    """(case name, argument types, result types text, the op's line)."""
    cases = []

    def add(op, ins, out, body):
        cases.append((f"{op}_{'_'.join(ins)}_{out.replace(', ', '_')}", ins, out, body))

    for t in INTS:
        for op in ("addi", "subi", "muli", "andi", "ori", "xori", "divsi", "remsi", "shli", "shrsi", "ceildivui",
                   "divui", "remui", "shrui", "maxsi", "minsi", "maxui", "minui", "floordivsi", "ceildivsi"):  # fmt: skip
            add(op, (t, t), t, f"%r = arith.{op} %a, %b : {t}")
        for p in ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"):
            add(f"cmpi_{p}", (t, t), "i1", f"%r = arith.cmpi {p}, %a, %b : {t}")
        add("select", ("i1", t, t), t, f"%r = arith.select %a, %b, %c : {t}")
        if t not in ("i1", "i4", "index"):
            for op in ("addui_extended", "mulsi_extended", "mului_extended"):
                o2 = "i1" if op == "addui_extended" else t
                add(op, (t, t), f"{t}, {o2}", f"%r, %s = arith.{op} %a, %b : {t}" + (f", {o2}" if op == "addui_extended" else ""))
    for s, d in (("i8", "i32"), ("i1", "i32"), ("i4", "i8"), ("i1", "i8"), ("i32", "i64")):
        for op in ("extsi", "extui"):
            add(op, (s,), d, f"%r = arith.{op} %a : {s} to {d}")
        add("trunci", (d,), s, f"%r = arith.trunci %a : {d} to {s}")
    for t in ("i1", "i8", "i32", "i64"):
        add("index_cast", (t,), "index", f"%r = arith.index_cast %a : {t} to index")
        add("index_cast", ("index",), t, f"%r = arith.index_cast %a : index to {t}")
    for i, f in itertools.product(("i1", "i4", "i8", "i32", "i64"), FLOATS):
        for op in ("sitofp", "uitofp"):
            add(op, (i,), f, f"%r = arith.{op} %a : {i} to {f}")
        if i != "i1":
            for op in ("fptosi", "fptoui"):
                add(op, (f,), i, f"%r = arith.{op} %a : {f} to {i}")
    add("extf", ("f32",), "f64", "%r = arith.extf %a : f32 to f64")
    add("extf", ("f16",), "f32", "%r = arith.extf %a : f16 to f32")
    add("truncf", ("f64",), "f32", "%r = arith.truncf %a : f64 to f32")
    add("truncf", ("f32",), "f16", "%r = arith.truncf %a : f32 to f16")
    for a, b in (("i32", "f32"), ("f32", "i32"), ("f64", "i64"), ("i64", "f64"), ("i16", "f16"), ("f16", "i16")):
        if a in EDGES:
            add("bitcast", (a,), b, f"%r = arith.bitcast %a : {a} to {b}")
    for t in FLOATS:
        for op in ("addf", "subf", "mulf", "divf", "maximumf", "minimumf", "maxnumf", "minnumf"):
            add(op, (t, t), t, f"%r = arith.{op} %a, %b : {t}")
        add("negf", (t,), t, f"%r = arith.negf %a : {t}")
        for p in ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"):
            add(f"cmpf_{p}", (t, t), "i1", f"%r = arith.cmpf {p}, %a, %b : {t}")
        add("select", ("i1", t, t), t, f"%r = arith.select %a, %b, %c : {t}")
    for t in ("f32", "f64"):
        for op in ("absf", "sqrt", "exp", "log", "tanh", "floor", "ceil", "sin", "cos"):
            add(op, (t,), t, f"%r = math.{op} %a : {t}")
        for op in ("powf", "copysign"):
            add(op, (t, t), t, f"%r = math.{op} %a, %b : {t}")
        add("fma", (t, t, t), t, f"%r = math.fma %a, %b, %c : {t}")
        add("fpowi", (t, "i32"), t, f"%r = math.fpowi %a, %b : {t}, i32")
    for t in ("i8", "i32", "i4"):
        add("absi", (t,), t, f"%r = math.absi %a : {t}")
    for t in ("i32", "index", "f32", "f64", "i1", "i4"):
        v = {"i32": "-7", "index": "18446744073709551615", "f32": "0.1", "f64": "-3.3e-300", "i1": "true", "i4": "9"}[t]
        add("constant", (), t, "%r = arith.constant true" if t == "i1" else f"%r = arith.constant {v} : {t}")
    return cases


CASES = _cases()
NAMES = "abc"


def _function(case) -> str:
    name, ins, out, body = case
    params = ", ".join(f"%{n}: {t}" for n, t in zip(NAMES, ins))
    results = [r.strip() for r in out.split(",")]
    ret = ", ".join(["%r", "%s"][: len(results)])
    return f"func.func @{name}({params}) -> ({out}) {{\n  {body}\n  func.return {ret} : {out}\n}}"


@functools.cache
def _case_module(i: int):
    m = api.parse_text(_function(CASES[i]))
    return m, _bundle_program(m)


def _values(t: str):
    return EDGES[t]


def test_case_names_unique():
    assert len({c[0] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("kind", ["int", "float", "cast_math"])
def test_ops_on_edge_values(kind):
    """Every op of the data form on every combination of edge values (ternary ops on a sample)."""
    rng = np.random.default_rng(0)
    for i, case in enumerate(CASES):
        name, ins, _, _ = case
        is_int = all(t in INTS for t in ins) and ins and not name.startswith(("index_cast", "ext", "trunc", "sitofp", "uitofp", "absi"))
        is_float = ins and all(t in FLOATS for t in ins) and not name.startswith(("extf", "truncf", "fptos", "fptou", "bitcast"))
        k = "int" if is_int else "float" if is_float else "cast_math"
        if k != kind:
            continue
        m, prog = _case_module(i)
        combos = list(itertools.product(*(_values(t) for t in ins)))
        if len(combos) > 150:
            combos = [combos[j] for j in rng.choice(len(combos), 150, replace=False)]
        for vals in combos:
            assert_same(*run_both(m, list(vals), program=prog), (name, vals))


def _random_value(t: str):
    if t == "i1":
        return st.booleans()
    if t in FLOATS:
        return st.one_of(st.sampled_from(EDGES[t]), st.floats(width=int(t[1:]), allow_nan=True))
    w = 64 if t == "index" else int(t[1:])
    return st.one_of(st.sampled_from(EDGES[t]), st.integers(-(2 ** (w - 1)), 2 ** (w - 1) - 1))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_ops_on_random_values(data):
    i = data.draw(st.integers(0, len(CASES) - 1))
    _, ins, _, _ = CASES[i]
    vals = [data.draw(_random_value(t)) for t in ins]
    m, prog = _case_module(i)
    assert_same(*run_both(m, vals, program=prog), (CASES[i][0], vals))


# ---------------------------------------------------------------------------
# Control flow, memrefs, calls, errors
# ---------------------------------------------------------------------------

CONTROL = """
"memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<4xi32>, initial_value = dense<[3, -1, 4, 1]> : tensor<4xi32>, constant}> : () -> ()
"memref.global"() <{sym_name = "zeros", sym_visibility = "private", type = memref<2x3xf32>, initial_value = unit}> : () -> ()
func.func @twice(%x: i32) -> i32 {
  %r = arith.addi %x, %x : i32
  func.return %r : i32
}
func.func @fact(%n: index) -> index {
  %c1 = arith.constant 1 : index
  %le = arith.cmpi sle, %n, %c1 : index
  %r = scf.if %le -> (index) {
    scf.yield %c1 : index
  } else {
    %m = arith.subi %n, %c1 : index
    %f = func.call @fact(%m) : (index) -> index
    %p = arith.muli %n, %f : index
    scf.yield %p : index
  }
  func.return %r : index
}
func.func @deep(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %z -> (index) {
    scf.yield %c0 : index
  } else {
    %m = arith.subi %n, %c1 : index
    %d = func.call @deep(%m) : (index) -> index
    scf.yield %d : index
  }
  func.return %r : index
}
func.func @ext(%x: i32) -> i32
func.func @calls_ext(%x: i32) -> i32 {
  %r = func.call @ext(%x) : (i32) -> i32
  func.return %r : i32
}
func.func @main(%A: memref<?x?xf32>, %v: memref<?xi32>, %n: index, %s: index, %c: i1, %x: f32) -> (i32, index, f32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %acc = scf.for %i = %c0 to %n step %s iter_args(%a = %z) -> (i32) {
    %ii = arith.index_cast %i : index to i32
    %t = arith.select %c, %ii, %one : i32
    %a2 = arith.addi %a, %t : i32
    %t2 = func.call @twice(%a2) : (i32) -> i32
    %m = arith.remsi %i, %n : index
    %d = memref.dim %v, %c0 : memref<?xi32>
    %k = arith.remsi %i, %d : index
    memref.store %t2, %v[%k] : memref<?xi32>
    scf.yield %a2 : i32
  }
  %w = scf.while (%k = %c0) : (index) -> index {
    %lt = arith.cmpi slt, %k, %n : index
    scf.condition(%lt) %k : index
  } do {
  ^bb0(%k2: index):
    %k3 = arith.addi %k2, %s : index
    scf.yield %k3 : index
  }
  %sw = scf.index_switch %n -> index
  case 2 {
    %q = arith.constant 20 : index
    scf.yield %q : index
  }
  case 5 {
    %q = arith.constant 50 : index
    scf.yield %q : index
  }
  default {
    %f = func.call @fact(%n) : (index) -> index
    scf.yield %f : index
  }
  %tab = memref.get_global @table : memref<4xi32>
  %c3 = arith.constant 3 : index
  %t3 = memref.load %tab[%c3] : memref<4xi32>
  memref.store %acc, %tab[%c3] : memref<4xi32>
  %zs = memref.get_global @zeros : memref<2x3xf32>
  %buf = memref.alloc(%n) : memref<?xf32>
  %rows = memref.dim %A, %c0 : memref<?x?xf32>
  %cols = memref.dim %A, %c1 : memref<?x?xf32>
  %sum = scf.for %i = %c0 to %rows step %c1 iter_args(%p = %x) -> (f32) {
    %inner = scf.for %j = %c0 to %cols step %c1 iter_args(%q = %p) -> (f32) {
      %e = memref.load %A[%i, %j] : memref<?x?xf32>
      %q2 = arith.addf %q, %e : f32
      %q3 = arith.mulf %q2, %x : f32
      memref.store %q3, %A[%i, %j] : memref<?x?xf32>
      scf.yield %q2 : f32
    }
    scf.yield %inner : f32
  }
  %big = arith.cmpf ogt, %sum, %x : f32
  scf.if %big {
    %z0 = memref.load %zs[%c0, %c0] : memref<2x3xf32>
    memref.store %sum, %zs[%c0, %c0] : memref<2x3xf32>
  }
  %tot = arith.addi %w, %sw : index
  memref.dealloc %buf : memref<?xf32>
  func.return %t3, %tot, %sum, %w : i32, index, f32, index
}
"""


@functools.cache
def _control():
    m = api.parse_text(CONTROL)
    return m, _bundle_program(m)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(-2, 9), s=st.integers(-1, 3), c=st.booleans(), x=st.floats(-4, 4, width=32),
    rows=st.integers(0, 3), cols=st.integers(0, 3), vlen=st.integers(0, 4),
)  # fmt: skip
def test_control_flow_memrefs_and_calls(n, s, c, x, rows, cols, vlen):
    m, prog = _control()
    rng = np.random.default_rng(n + 2 + 7 * rows)
    A = rng.standard_normal((rows, cols)).astype(np.float32)
    v = np.zeros(vlen, dtype=np.int32)
    out = run_both(m, [A, v, n, s, c, x], "main", program=prog)
    assert_same(*out)


@pytest.mark.parametrize(
    "name, args",
    [("fact", [12]), ("fact", [25]), ("deep", [3000]), ("calls_ext", [1]), ("twice", [2**31 - 1])],
)
def test_calls(name, args):
    m, prog = _control()
    assert_same(*run_both(m, args, name, program=prog))


def test_call_depth_limit():
    # the same line as host_ops' (not run through xDSL's interpreter here: it
    # takes ~100 s to nest 10,000 calls deep, its scopes growing at each level)
    m, (prog, _) = _control()
    with pytest.raises(HostRunError, match=r"^'func.call' at line 29: calls nest more than 10,000 deep \(a recursion that does not end\?\)$"):
        prog.run([10_001], "deep")
    assert prog.run([9_999], "deep") == (0,)


@pytest.mark.parametrize(
    "args",
    [{"n": 1}, {"x": 1}, [1, 2], ["a"], [2**40], [True]],
    ids=["unknown-name", "unknown-name-2", "arity", "string", "range", "bool"],
)
def test_bad_arguments_same_line(args):
    m, prog = _control()
    assert_same(*run_both(m, args, "twice", program=prog))


def test_bad_array_arguments_same_line():
    m, prog = _control()
    good = [np.zeros((2, 2), np.float32), np.zeros(3, np.int32), 2, 1, True, np.float32(1)]
    for k, bad in ((0, np.zeros((2, 2), np.float64)), (0, np.zeros(4, np.float32)), (1, [1, 2])):
        args = list(good)
        args[k] = bad
        assert_same(*run_both(m, args, "main", program=prog))
    for name in (None, "nope"):
        assert_same(*run_both(m, good, name, program=prog))


@pytest.mark.parametrize(
    "text",
    [
        "func.func @f(%a: i32) -> i32 {\n  %r = \"test.op\"(%a) : (i32) -> i32\n  func.return %r : i32\n}",
        "func.func @f(%a: f32) -> f32 {\n  %h = arith.truncf %a : f32 to bf16\n  %r = arith.extf %h : bf16 to f32\n  func.return %r : f32\n}",
        "func.func @f(%a: index) -> index {\n  %r = affine.apply affine_map<(d0) -> (d0 + 1)>(%a)\n  func.return %r : index\n}",
        "func.func @f(%a: i1) -> i32 {\n  cf.cond_br %a, ^bb1, ^bb2\n^bb1:\n  %x = arith.constant 1 : i32\n  func.return %x : i32\n"
        "^bb2:\n  %y = arith.constant 2 : i32\n  func.return %y : i32\n}",
    ],
    ids=["unknown-op", "bf16", "affine", "branches"],
)
def test_unsupported_op_is_one_line_at_build_time(text):
    m = api.parse_text(text)
    with pytest.raises(BundleError) as e:
        host_data(m)
    msg = str(e.value)
    assert "\n" not in msg and "at line" in msg and "not supported on the host" in msg, msg


# ---------------------------------------------------------------------------
# The workloads, every offloaded region run by the reference executor
# ---------------------------------------------------------------------------


@functools.cache
def _workload(name: str, plain_loops: bool = False):
    w = WORKLOADS[name]
    if plain_loops:
        m = api.parse_text((w.path.parent / "loops" / w.path.name).read_text())
        extract_regions(m)
    else:
        m = api.parse_text(w.text())
    return m, _bundle_program(m)


def _workload_args(w, sizes, seed):
    inputs = w.inputs(sizes, seed=seed)
    return [inputs[a] if a in inputs else sizes[a] for a in w.args]


@pytest.mark.parametrize("plain_loops", [False, True], ids=["regions", "loops-extracted"])
@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_workload_small(name, plain_loops):
    w = WORKLOADS[name]
    if plain_loops and not (w.path.parent / "loops" / w.path.name).exists():
        pytest.skip("no plain-loop version")
    m, prog = _workload(name, plain_loops)
    sizes = w.sizes("small")
    out1, out2 = run_both(m, _workload_args(w, sizes, 3), w.entry, program=prog)
    assert out1[0] == "ok", out1
    assert_same(out1, out2, name)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_workloads_at_drawn_sizes(data):
    """Sizes drawn between 1 and the small ones (an error, if the program gives one, is the same line)."""
    name = data.draw(st.sampled_from(sorted(WORKLOADS)))
    w = WORKLOADS[name]
    sizes = {k: data.draw(st.integers(1, v), label=k) for k, v in w.sizes("small").items()}
    try:
        args = _workload_args(w, sizes, data.draw(st.integers(0, 3)))
    except (ValueError, IndexError):  # sizes the workload's inputs cannot be made for
        return
    m, prog = _workload(name)
    assert_same(*run_both(m, args, w.entry, program=prog), (name, sizes))


@functools.cache
def _pointnet(kind: str):
    file, entry, _ = pointnet.PROGRAMS[kind]
    m = api.parse_text(pointnet.program_path(kind).read_text())
    return m, entry, _bundle_program(m)


def test_pointnet_stages():
    calls = pointnet.network_calls(pointnet.SMALL_SSG, seed=1)
    seen = set()
    for call in calls:
        if call.kind in seen:
            continue
        seen.add(call.kind)
        m, entry, prog = _pointnet(call.kind)
        args = [call.args[a] for a in pointnet.PROGRAMS[call.kind][2]]
        out1, out2 = run_both(m, args, entry, program=prog)
        assert out1[0] == "ok", out1
        assert_same(out1, out2, call.kind)
    assert seen == set(pointnet.STAGES)


# ---------------------------------------------------------------------------
# No xDSL on the closure path
# ---------------------------------------------------------------------------


def test_closure_path_imports_no_xdsl(tmp_path):
    m, (prog, _) = _control()
    data, _ = host_data(m)
    w = WORKLOADS["array_sum"]
    wm, _ = _workload("array_sum")
    wdata, _ = host_data(wm)
    (tmp_path / "control.json").write_text(json.dumps(data))
    (tmp_path / "sum.json").write_text(json.dumps(wdata))
    expected = host.run_function(m, [np.ones((2, 3), np.float32), np.zeros(3, np.int32), 6, 2, True, np.float32(0.5)], "main")
    script = textwrap.dedent(f"""
        import json, sys
        import numpy as np
        from infs.runtime.bundle.host_program import compile_host
        p = compile_host(json.load(open({str(tmp_path / "control.json")!r})))
        r = p.run([np.ones((2, 3), np.float32), np.zeros(3, np.int32), 6, 2, True, np.float32(0.5)], "main")
        print(repr([str(x) for x in r]))
        # the array sum's region by a numpy executor: the host code around it from the data
        s = compile_host(json.load(open({str(tmp_path / "sum.json")!r})))
        (total,) = s.run([np.arange(10, dtype=np.float32), 10], region=lambda i, arrays, scalars: [arrays[0][: scalars[0]].sum()])
        print(float(total))
        bad = [m for m in sys.modules if m.split(".")[0] in ("xdsl", "egglog") or m.startswith(("infs.passes", "infs.dialects", "infs.element_types"))]
        print("LOADED", bad)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True).stdout.splitlines()
    assert out[0] == repr([str(x) for x in expected])
    assert float(out[1]) == 45.0
    assert out[2] == "LOADED []"
    del w


def test_allocation_past_memory_same_line():
    m = api.parse_text("func.func @f(%n: index) {\n  %a = memref.alloc(%n, %n) : memref<?x?xf64>\n  func.return\n}")
    out1, out2 = run_both(m, [2**30])
    assert out1[0] == out2[0] == "error"
    # the memory available is read at each run: the line up to it
    assert out1[1].split("; this host has")[0] == out2[1].split("; this host has")[0] == "'memref.alloc' of shape [1073741824, 1073741824] x float64 needs 8192.0 PB"
    assert_same(*run_both(m, [-3]))
