"""Regressions of ``optimize-tdfg`` (the e-graph, Appendix Eq. 3-9) and ``canonicalize-tdfg``
found by differential fuzzing: random tDFG graphs evaluated on the lattice
(``infs.runtime.lattice_eval``, the oracle) before and after each pass, compared bit for bit.

Each graph below gave a different lattice result (a silent wrong answer) or an evaluation
error after the pass.  One e-graph engine serves every test (egglog compiles the rules once
per process)."""

from __future__ import annotations

import numpy as np
import pytest

from infs import api
from infs.dialects import tdfg
from infs.passes.canonicalize_tdfg import canonicalize_graph
from infs.passes.optimize_tdfg import optimize_graph
from infs.passes.tdfg_cost import CostModel
from infs.runtime.lattice_eval import evaluate_graph

MODEL = CostModel.of("paper-64")


def _graph(body: str, rank: int = 1, arrays: int = 3) -> str:
    """A graph over ``arrays`` i32 arrays of the lattice's rank and the index symbol N."""
    mt = "memref<" + "x".join("?" * rank) + "xi32>"
    names = [chr(ord("a") + k) for k in range(arrays)]
    return f"""func.func @g({", ".join(f"%{x.upper()}: {mt}" for x in names)}, %n: index) {{
  tdfg.graph ins({", ".join(f"%{x.upper()}" for x in names)} : {", ".join([mt] * arrays)}) syms(N = %n : index) rank {rank} {{
  ^bb0({", ".join(f"%{x}: {mt}" for x in names)}, %N: index):
{body}
    tdfg.yield
  }}
  func.return
}}"""


def _eval(graph: tdfg.GraphOp, n: int) -> list[list]:
    rank = graph.lattice_rank
    arrays = [np.arange(n**rank, dtype=np.int32).reshape((n,) * rank) * (k + 1) for k in range(len(graph.arrays))]
    evaluate_graph(graph, arrays, [n])
    return [a.tolist() for a in arrays]


def _check(text: str, n: int, passes=("optimize", "canonicalize")) -> None:
    """The graph's lattice result is the same after each pass (on a copy each)."""
    (graph,) = [g for g in api.parse_text(text).walk() if isinstance(g, tdfg.GraphOp)]
    want = _eval(graph, n)
    for name in passes:
        g = graph.clone()
        if name == "optimize":
            optimize_graph(g, MODEL, time_limit=float("inf"))
        else:
            canonicalize_graph(g)
        g.verify()
        assert _eval(g, n) == want, f"{name}-tdfg changed the result:\n{g}"


T1 = "!tdfg.tensor<i32, 1>"
T2 = "!tdfg.tensor<i32, 2>"


def test_eq7b_keeps_the_cells_a_move_of_a_shrunk_constant_drops():
    """``mv(mv(shrink(7, [0:3]), -1), +1)`` has 7 at cells 1 and 2 (the first move drops the
    cell it puts at -1).  Eq. 7b turned ``mv(shrink(c, [0:3]), -1)`` into ``shrink(c, [-1:2])``
    (a constant is unbounded: the shrink keeps the cell at -1), so the e-graph found the two
    moves equal to ``shrink(c, [0:3])`` and shared the add below: B[0] got 7 + A[0]."""
    body = f"""
    %x = tdfg.tensor %a [0:N] : memref<?xi32> -> {T1}
    %k = tdfg.const 7 : {T1}
    %s = tdfg.shrink %k dim 0 to [0:3] : {T1}
    %m = tdfg.mv %s dim 0 dist -1 : {T1}
    %m2 = tdfg.mv %m dim 0 dist 1 : {T1}
    %y1 = tdfg.cmp add(%m2, %x) : {T1}, {T1} -> {T1}
    %y2 = tdfg.cmp add(%s, %x) : {T1}, {T1} -> {T1}
    tdfg.store %y1 -> %b : {T1} -> memref<?xi32>
    tdfg.store %y2 -> %c : {T1} -> memref<?xi32>"""
    _check(_graph(body), 5)


@pytest.mark.parametrize("spread", ["mv %s dim 1 dist 1", "bc %s dim 1 dist 0 count 1"])
def test_eq7a_and_8a_keep_a_constant_shrunk_below_0_clipped(spread):
    """A move (or a broadcast of a tensor bounded along its dim) drops the cells below 0
    in every dim: ``shrink(c, dim 0, [-2:3])`` moved along dim 1 keeps rows [0:3).  Eq. 7a
    (8a) exchanged the two, and the shrink of the moved constant kept rows -2 and -1, which
    the next move along dim 0 brought onto rows 0 and 1 of B (the e-graph found ``%m2``
    equal to ``%s2`` and shared the multiplies)."""
    body = f"""
    %x = tdfg.tensor %a [0:N, 0:N] : memref<?x?xi32> -> {T2}
    %k = tdfg.const 7 : {T2}
    %k1 = tdfg.shrink %k dim 1 to [0:N] : {T2}
    %s = tdfg.shrink %k1 dim 0 to [-2:3] : {T2}
    %m = tdfg.{spread} : {T2}
    %m2 = tdfg.mv %m dim 0 dist 2 : {T2}
    %t = tdfg.{spread.replace("%s", "%k1")} : {T2}
    %ts = tdfg.shrink %t dim 0 to [-2:3] : {T2}
    %s2 = tdfg.mv %ts dim 0 dist 2 : {T2}
    %y1 = tdfg.cmp mul(%m2, %x) : {T2}, {T2} -> {T2}
    %z1 = tdfg.cmp mul(%y1, %x) : {T2}, {T2} -> {T2}
    %y2 = tdfg.cmp mul(%s2, %x) : {T2}, {T2} -> {T2}
    %z2 = tdfg.cmp mul(%y2, %x) : {T2}, {T2} -> {T2}
    tdfg.store %z1 -> %b : {T2} -> memref<?x?xi32>
    tdfg.store %z2 -> %c : {T2} -> memref<?x?xi32>"""
    _check(_graph(body, rank=2), 5, passes=("optimize",))


@pytest.mark.parametrize(
    "why,body",
    [
        # merged into mv(s, +2): the cell at -3 lands on 0 (before: the first move dropped it)
        ("merge", f"%m = tdfg.mv %s dim 0 dist 1 : {T1}\n    %m2 = tdfg.mv %m dim 0 dist 1 : {T1}"),
        # a zero move drops the cells below 0 too: mv(s, 0) is not s
        ("zero move", f"%m = tdfg.mv %s dim 0 dist 0 : {T1}\n    %m2 = tdfg.mv %m dim 0 dist 2 : {T1}"),
    ],
)
def test_canonicalize_moves_of_a_constant_shrunk_below_0(why, body):
    """``shrink(c, [-5:3])`` has cells at -5..-1 (a shrink of a constant does not clip);
    ``_lower_bound`` took 0 for it ("every cell lies at >= 0"), so the moves were merged
    (and a zero move dropped) where the first move drops cells the second brings back."""
    text = _graph(f"""
    %k = tdfg.const 7 : {T1}
    %s = tdfg.shrink %k dim 0 to [-5:3] : {T1}
    {body}
    tdfg.store %m2 -> %a : {T1} -> memref<?xi32>""", arrays=1)
    _check(text, 6, passes=("canonicalize",))


def test_canonicalize_single_broadcast_of_an_unbounded_tensor_is_not_a_move():
    """``bc(x, dim 1, 1, count 1)`` of a tensor unbounded along dim 1 is ``x`` itself; the
    move it became drops ``x``'s rows below 0, which the next move along dim 0 needs."""
    text = _graph(f"""
    %k = tdfg.const 7 : {T2}
    %s = tdfg.shrink %k dim 0 to [-2:3] : {T2}
    %b = tdfg.bc %s dim 1 dist 1 count 1 : {T2}
    %m2 = tdfg.mv %b dim 0 dist 2 : {T2}
    tdfg.store %m2 -> %a : {T2} -> memref<?x?xi32>""", rank=2, arrays=1)
    _check(text, 5, passes=("canonicalize",))


def test_a_provably_empty_read_does_not_widen_eq5s_hull():
    """``A[N + 3:N + 3]`` reads nothing (valid whatever N is); Eq. 5 took it into the hull of
    A's reads, ``A[0:N + 3]``, which the rewritten stencil read: 'tdfg.tensor' domain
    [(0, 9)] leaves the array (shape [6])."""
    body = f"""
    %x1 = tdfg.tensor %a [0:N - 2] : memref<?xi32> -> {T1}
    %x2 = tdfg.tensor %a [2:N] : memref<?xi32> -> {T1}
    %y = tdfg.tensor %a [N + 3:N + 3] : memref<?xi32> -> {T1}
    %k = tdfg.const 3 : {T1}
    %m1 = tdfg.mv %x1 dim 0 dist 1 : {T1}
    %m2 = tdfg.mv %x2 dim 0 dist -1 : {T1}
    %p1 = tdfg.cmp mul(%m1, %k) : {T1}, {T1} -> {T1}
    %p2 = tdfg.cmp mul(%m2, %k) : {T1}, {T1} -> {T1}
    %s = tdfg.cmp add(%p1, %p2) : {T1}, {T1} -> {T1}
    %t = tdfg.cmp add(%y, %y) : {T1}, {T1} -> {T1}
    tdfg.store %s -> %b : {T1} -> memref<?xi32>
    tdfg.store %t -> %c : {T1} -> memref<?xi32>"""
    text = _graph(body)
    _check(text, 6, passes=("optimize",))
    # the stencil part is still optimized (Fig. 6: one multiply)
    (graph,) = [g for g in api.parse_text(text).walk() if isinstance(g, tdfg.GraphOp)]
    assert optimize_graph(graph, MODEL, time_limit=float("inf")).changed
    assert sum(1 for op in graph.body.block.ops if isinstance(op, tdfg.CmpOp) and op.op.data == "mul") == 1


def test_graphs_optimized_on_several_threads_each_get_their_own_engine():
    """egglog's e-graph may be used only on the thread that made it ('EGraph is
    unsendable', a Rust panic that is a BaseException): the engines are per thread,
    so api.run from a thread pool optimizes its graphs like a single thread does."""
    import threading

    from infs.workloads import WORKLOADS

    w = WORKLOADS["stencil1d"]
    sizes = w.sizes("small")
    inputs = dict(w.inputs(sizes, 0)) | sizes
    want = api.run(w.path, {k: np.copy(v) if isinstance(v, np.ndarray) else v for k, v in inputs.items()}, config="small-16", mode="in").outputs
    got, errors = [], []

    def run():
        try:
            got.append(api.run(w.path, {k: np.copy(v) if isinstance(v, np.ndarray) else v for k, v in inputs.items()}, config="small-16", mode="in").outputs)
        except BaseException as e:  # noqa: BLE001 -- the panic is a BaseException
            errors.append(f"{type(e).__name__}: {str(e)[:100]}")

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(got) == 2
    for out in got:
        for k in want:
            np.testing.assert_array_equal(out[k], want[k])


@pytest.mark.parametrize("spread, column", [("tdfg.mv %s dim 1 dist 1", [0, 0, 7, 7, 7]), ("tdfg.bc %s dim 1 dist 1 count 2", [7, 7, 7, 7, 7])])
def test_a_move_along_an_unbounded_dim_drops_the_cells_below_0_of_the_others_on_the_machine(spread, column):
    """A constant shrunk to [-2:3) along dim 0 and then moved along dim 1 (along
    which it is unbounded): the move discards the cells at negative coordinates
    (tdfg docstring), the lattice evaluator did, and the machine's box inference
    kept them ('the same constant'), so a later move by 2 along dim 0 brought two
    rows of 7 back that the lattice semantics had dropped.  A bc of a tensor
    unbounded along its dim is the tensor itself (its copies cover the same
    cells; nothing moves): there both keep the rows."""
    from infs.runtime import lattice_eval
    from infs.runtime.driver import RunOptions, run_program

    body = f"""
    %k = tdfg.const 7 : {T2}
    %s = tdfg.shrink %k dim 0 to [-2:3] : {T2}
    %m = {spread} : {T2}
    %m2 = tdfg.mv %m dim 0 dist 2 : {T2}
    tdfg.store %m2 -> %a : {T2} -> memref<?x?xi32>"""
    text = _graph(body, rank=2, arrays=1)
    want = np.zeros((5, 5), np.int32)
    lattice_eval.run_function(api.parse_text(text), [want, 5], "g")
    got = np.zeros((5, 5), np.int32)
    run_program(api.parse_text(text), [got, 5], "g", RunOptions(config="small-16", mode="in", strict=True))
    np.testing.assert_array_equal(got, want)
    assert list(want[:, 1]) == column
