"""Affine maps of SSA ids (``affine.load %A[%i, symbol(%n) + 1]``) read and
printed as upstream MLIR does: a bare ``%x`` is a dim, ``symbol(%x)`` a
symbol; the operands are the dims, then the symbols
(``infs/dialects/affine_ssa_ids.py``).

xDSL 0.74 read every SSA id as a symbol (upstream refuses a loop index as a
symbol) and printed the custom form of a map with dims and symbols naming a
symbol by the wrong operand (``A[i + n]`` printed as ``%A[%i + %i]``).
"""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

import infs
from infs import api
from infs.tools import infs_opt


def _accesses(module):
    return [op for op in module.walk() if op.name in ("affine.load", "affine.store")]


LOOP = """
func.func @f(%A: memref<?xf64>, %B: memref<?xf64>, %n: index) {
  affine.for %i = 0 to %n {
    %x = affine.load %A[%i + symbol(%n) - 1] : memref<?xf64>
    affine.store %x, %B[%i] : memref<?xf64>
  }
  func.return
}
"""


def test_a_loop_index_is_a_dim_and_symbol_marks_a_symbol():
    m = api.parse_text(LOOP)
    load, store = _accesses(m)
    assert str(load.map.data) == "(d0)[s0] -> (((d0 + s0) + -1))"
    assert [o.name_hint for o in load.indices] == ["i", "n"]
    assert str(store.map.data) == "(d0) -> (d0)"


def test_the_first_use_decides_dim_or_symbol():
    text = """
    func.func @f(%A: memref<?x?xf64>, %n: index, %m: index) {
      %x = affine.load %A[symbol(%n) + %m, %n * 2 + %m] : memref<?x?xf64>
      func.return
    }
    """
    (load,) = _accesses(api.parse_text(text))
    assert str(load.map.data) == "(d0)[s0] -> ((s0 + d0), ((s0 * 2) + d0))"
    assert [o.name_hint for o in load.indices] == ["m", "n"]


def test_a_result_of_a_multi_result_op_by_number():
    text = """
    func.func @f(%A: memref<?xf64>, %n: index) {
      %r:2 = affine.for %i = 0 to %n iter_args(%a = %n, %b = %n) -> (index, index) {
        affine.yield %b, %a : index, index
      }
      %x = affine.load %A[%r#1 + symbol(%r#0)] : memref<?xf64>
      func.return
    }
    """
    m = api.parse_text(text)
    (loop,) = [op for op in m.walk() if op.name == "affine.for"]
    (load,) = _accesses(m)
    assert str(load.map.data) == "(d0)[s0] -> ((d0 + s0))"
    assert list(load.indices) == [loop.results[1], loop.results[0]]


def test_custom_form_round_trips_with_symbols():
    m = api.parse_text(LOOP)
    text = api.to_text(m)
    assert "affine.load %A[%i + symbol(%n) - 1] : memref<?xf64>" in text
    assert api.to_text(api.parse_text(text), generic=True) == api.to_text(m, generic=True)


def test_infs_opt_prints_symbols_as_upstream(tmp_path):
    p = tmp_path / "loop.mlir"
    p.write_text(LOOP)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert infs_opt.main([str(p)]) == 0
    assert "affine.load %A[%i + symbol(%n) - 1] : memref<?xf64>" in out.getvalue()


def test_a_python_kernel_prints_an_offset_by_an_argument_as_a_symbol():
    """``A[i + n]``: the kernel's map is ``(d0)[s0] -> (d0 + s0)`` on ``%i, %n``;
    its text printed ``%A[%i + %i]`` (a different program once read back)."""

    @infs.kernel
    def shift(A, B, n: int):
        for i in range(n):
            B[i] = A[i + n]

    A, B = np.arange(20.0), np.zeros(10)
    text = shift.mlir(A, B, 5)
    assert "%A[%i + symbol(%n)]" in text
    res = api.run(text, {"A": A, "B": B, "n": 5}, config="tiny", mode="auto")
    np.testing.assert_array_equal(res.outputs["B"][:5], A[5:10])


@pytest.mark.parametrize(
    "index, message",
    [("symbol(%n", "expected ')' after the symbol's SSA identifier"), ("symbol(3)", "expected SSA identifier"), ("symbol %n", "expected '(' after 'symbol'")],
)
def test_a_bad_symbol_is_one_line_with_its_place(index, message):
    text = f"func.func @f(%A: memref<?xf64>, %n: index) {{\n  %x = affine.load %A[{index}] : memref<?xf64>\n  func.return\n}}\n"
    with pytest.raises(api.InfsError) as e:
        api.parse_text(text, "bad.mlir")
    line = str(e.value)
    assert "\n" not in line and line.startswith("bad.mlir:2:") and message in line, line
