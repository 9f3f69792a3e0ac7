"""The machine runs records (``PimProgram``): the same results and statistics
as the op they came from, array binding by name, and ``forget`` after an op is
edited in place."""

import numpy as np
from xdsl.dialects.builtin import StringAttr

from infs import api
from infs.dialects import pimcmd as pc
from infs.dialects import tdfg
from infs.dialects.pimcmd_records_ir import from_op
from infs.runtime import jit
from infs.sim import Machine

T = "!tdfg.tensor<i32, 2>"
STENCIL = f"""func.func @g(%A: memref<8x8xi32>, %B: memref<8x8xi32>) {{
  tdfg.graph ins(%A, %B : memref<8x8xi32>, memref<8x8xi32>) syms() rank 2 {{
  ^bb0(%a: memref<8x8xi32>, %b: memref<8x8xi32>):
    %t = tdfg.tensor %a [1:7, 1:7] : memref<8x8xi32> -> {T}
    %l = tdfg.mv %t dim 1 dist 1 : {T}
    %u = tdfg.mv %t dim 0 dist -1 : {T}
    %s = tdfg.cmp add(%l, %u) : {T}, {T} -> {T}
    %d = tdfg.cmp mul(%s, %t) : {T}, {T} -> {T}
    tdfg.store %d -> %b : {T} -> memref<8x8xi32>
    tdfg.yield
  }}
  func.return
}}"""


def _lowered(text: str = STENCIL, config: str = "small-16", tiles=(4, 16)):
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    return jit.lower(g, {}, config, tiles)


def test_records_and_op_give_the_same_run():
    low = _lowered()
    A = np.arange(64, dtype=np.int32).reshape(8, 8)
    outs, stats = [], []
    for prog in (low.record, low.program, from_op(low.program)):
        B = np.zeros((8, 8), np.int32)
        m = Machine("small-16")
        st = m.run(prog, {0: A.copy(), 1: B})
        outs.append(B)
        stats.append((dict(st.cycles), dict(st.traffic), st.element_ops))
    assert all(np.array_equal(o, outs[0]) for o in outs) and outs[0].any()
    assert stats[0] == stats[1] == stats[2]


def test_arrays_bind_by_name():
    low = _lowered()
    A = np.arange(64, dtype=np.int32).reshape(8, 8)
    by_index, by_name = np.zeros((8, 8), np.int32), np.zeros((8, 8), np.int32)
    Machine("small-16").run(low.record, {0: A.copy(), 1: by_index})
    Machine("small-16").run(low.record, {"a": A.copy(), "%b": by_name})
    np.testing.assert_array_equal(by_index, by_name)


def test_forget_an_op_edited_in_place():
    text = """func.func @g(%A: memref<4xi32>) {
  tdfg.graph ins(%A : memref<4xi32>) syms() rank 1 {
  ^bb0(%a: memref<4xi32>):
    %t = tdfg.tensor %a [0:4] : memref<4xi32> -> !tdfg.tensor<i32, 1>
    %d = tdfg.cmp add(%t, %t) : !tdfg.tensor<i32, 1>, !tdfg.tensor<i32, 1> -> !tdfg.tensor<i32, 1>
    tdfg.store %d -> %a : !tdfg.tensor<i32, 1> -> memref<4xi32>
    tdfg.yield
  }
  func.return
}"""
    prog = _lowered(text, tiles=None).program
    m = Machine("small-16")
    a = np.arange(4, dtype=np.int32)
    m.run(prog, {0: a})
    np.testing.assert_array_equal(a, [0, 2, 4, 6])
    add = next(o for o in prog.body.block.ops if isinstance(o, pc.ComputeOp) and o.op.data == "add")
    add.properties["op"] = StringAttr("mul")
    m.forget(prog)
    a = np.arange(4, dtype=np.int32)
    m.run(prog, {0: a})
    np.testing.assert_array_equal(a, [0, 1, 4, 9])
