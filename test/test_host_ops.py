"""infs.runtime.host_ops against xDSL 0.74's own interpreters, op for op, on
the same inputs (the host does not import ``xdsl.interpreters``, whose
``__init__`` loads every interpreter xDSL has)."""

from __future__ import annotations

import itertools
import subprocess
import sys

import pytest
from xdsl.interpreter import Interpreter
from xdsl.utils.exceptions import InterpretationError

from infs import api
from infs.runtime.host import EvaluationError, make_interpreter, run_function

INT_OPS = ["addi", "subi", "muli", "andi", "ori", "xori", "divsi", "remsi", "floordivsi", "shli", "shrsi"]
CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
TYPES = ["i8", "i32", "index"]
EDGES = {"i8": [-128, -127, -3, -1, 0, 1, 2, 7, 100, 127], "i32": [-(2**31), -(2**31) + 1, -5, -1, 0, 1, 3, 65536, 2**31 - 1], "index": [-(2**63), -7, -1, 0, 1, 5, 2**40, 2**63 - 1]}


def _module():
    fns = []
    for t in TYPES:
        for name in INT_OPS:
            fns.append(f"func.func @{name}_{t}(%a: {t}, %b: {t}) -> {t} {{\n  %r = arith.{name} %a, %b : {t}\n  func.return %r : {t}\n}}")
        for p in CMPI:
            fns.append(f"func.func @cmpi_{p}_{t}(%a: {t}, %b: {t}) -> i1 {{\n  %r = arith.cmpi {p}, %a, %b : {t}\n  func.return %r : i1\n}}")
        for u in TYPES:
            if u != t and "index" in (t, u):
                fns.append(f"func.func @cast_{t}_{u}(%a: {t}) -> {u} {{\n  %r = arith.index_cast %a : {t} to {u}\n  func.return %r : {u}\n}}")
    fns.append(
        """func.func @loops(%n: index, %c: i1) -> (i32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {
    %ii = arith.index_cast %i : index to i32
    %t = arith.select %c, %ii, %one : i32
    %a2 = arith.addi %acc, %t : i32
    scf.yield %a2 : i32
  }
  %w = scf.while (%k = %c0) : (index) -> index {
    %lt = arith.cmpi slt, %k, %n : index
    scf.condition(%lt) %k : index
  } do {
  ^bb0(%k2: index):
    %k3 = arith.addi %k2, %c1 : index
    scf.yield %k3 : index
  }
  %r = scf.if %c -> (i32) {
    %x = func.call @twice(%s) : (i32) -> i32
    scf.yield %x : i32
  } else {
    scf.yield %s : i32
  }
  %sw = scf.index_switch %n -> index
  case 2 {
    %c7 = arith.constant 7 : index
    scf.yield %c7 : index
  }
  default {
    scf.yield %w : index
  }
  func.return %r, %sw : i32, index
}
func.func @twice(%x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  func.return %y : i32
}
func.func @maths(%x: f64) -> (f64, f64, f64) {
  %e = math.exp %x : f64
  %s = math.sqrt %x : f64
  %l = math.log %x : f64
  func.return %e, %s, %l : f64, f64, f64
}"""
    )
    return api.parse_text("builtin.module {\n" + "\n".join(fns) + "\n}")


def _xdsl_interpreter(module):
    # xDSL's own implementations, the reference (importing them here is fine: tests only)
    from xdsl.interpreters.arith import ArithFunctions
    from xdsl.interpreters.builtin import BuiltinFunctions
    from xdsl.interpreters.func import FuncFunctions
    from xdsl.interpreters.math import MathFunctions
    from xdsl.interpreters.scf import ScfFunctions

    interp = Interpreter(module)
    for fns in (ArithFunctions(), ScfFunctions(), FuncFunctions(), MathFunctions(), BuiltinFunctions()):
        interp.register_implementations(fns)
    return interp


def _ours(module):
    # the host's interpreter as it runs programs (host_ops plus host.py's constants, float arith, memrefs)
    return make_interpreter(module)


def _call(interp, name, args):
    try:
        return ("ok", tuple(interp.call_op(name, args)))
    except (AssertionError, InterpretationError, EvaluationError):  # ours: a division by zero names its line
        return ("error",)


@pytest.fixture(scope="module")
def interpreters():
    m = _module()
    return _xdsl_interpreter(m), _ours(m)


@pytest.mark.parametrize("t", TYPES)
def test_integer_ops_match_xdsl(interpreters, t):
    ref, ours = interpreters
    vals = EDGES[t]
    for name in INT_OPS + [f"cmpi_{p}" for p in CMPI]:
        for a, b in itertools.product(vals, vals):
            if name in ("shli", "shrsi") and not 0 <= b < 70:
                b = abs(b) % 70
            want, got = _call(ref, f"{name}_{t}", (a, b)), _call(ours, f"{name}_{t}", (a, b))
            assert got == want, (name, t, a, b, got, want)


def test_index_casts_match_xdsl(interpreters):
    ref, ours = interpreters
    for t, u in itertools.permutations(TYPES, 2):
        if "index" not in (t, u):
            continue
        for a in EDGES[t]:
            assert _call(ours, f"cast_{t}_{u}", (a,)) == _call(ref, f"cast_{t}_{u}", (a,)), (t, u, a)


@pytest.mark.parametrize("n,c", [(0, True), (2, False), (2, True), (5, True)])
def test_control_flow_matches_xdsl(interpreters, n, c):
    ref, ours = interpreters
    assert _call(ours, "loops", (n, c)) == _call(ref, "loops", (n, c))
    assert _call(ours, "loops", (n, c))[0] == "ok"


def test_math_matches_xdsl(interpreters):
    ref, ours = interpreters
    for x in (0.25, 1.0, 3.5):
        assert _call(ours, "maths", (x,)) == _call(ref, "maths", (x,))


def test_division_by_zero_is_one_line():
    m = api.parse_text("func.func @f(%a: i32, %b: i32) -> i32 {\n  %r = arith.divsi %a, %b : i32\n  func.return %r : i32\n}")
    with pytest.raises(EvaluationError, match=r"^division by zero in 'arith.divsi' at line 2"):
        run_function(m, [7, 0])
    with pytest.raises(api.InfsError) as e:  # api.run's message: that one line
        api.run(m, {"a": 7, "b": 0}, config="tiny")
    assert str(e.value) == "<input>: error: division by zero in 'arith.divsi' at line 2"


def test_host_does_not_import_xdsl_interpreters():
    # the package's __init__ loads every xDSL interpreter (riscv, snitch, linalg...): 0.2-0.6 s per process
    # nor xDSL's math dialect, until a program has math ops (15-35 ms)
    code = "import sys, infs.runtime.host, infs.runtime.driver; print(sorted(m for m in sys.modules if m.startswith(('xdsl.interpreters', 'xdsl.dialects.math'))))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"


def test_math_ops_run_once_a_program_has_them():
    m = api.parse_text("func.func @f(%x: f64) -> f64 {\n  %e = math.sqrt %x : f64\n  func.return %e : f64\n}")
    assert run_function(m, [6.25]) == (2.5,)
