"""STREAM's synthesis and mapping (passes/xbar) against the netlist's own simulation.

Every circuit goes through STREAM-O and STREAM-M to crossbar kernels; the
crossbar simulator (sim/xbar.evaluate, one boolean matmul per layer) must give
what netlist_records.evaluate gives: c17 exhaustively, the ISCAS85 circuits on
random vectors, random Boolean functions (hypothesis) through every pass and
the IR round trip.  ABC is Debian's berkeley-abc; without it these tests skip
and name the package.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infs.dialects import xbar
from infs.dialects import xbar_records as xr
from infs.dialects.netlist_records import Gate, Netlist, evaluate, parse_bench
from infs.passes.xbar import synthesis
from infs.passes.xbar.abc import ABC_PACKAGE, abc_available
from infs.passes.xbar.decompose_pe import best_cuts, decompose
from infs.passes.xbar.netlist_ir import hw_to_mll, hw_to_oig, mll_to_hw, oig_to_hw
from infs.passes.xbar.optimize_aig import optimized_aig
from infs.sim.xbar.evaluate import evaluate as xbar_evaluate

pytestmark = pytest.mark.skipif(not abc_available(), reason=f"needs ABC: the Debian package '{ABC_PACKAGE}' (make test installs it as root)")

ISCAS = Path(__file__).resolve().parents[1] / "infs" / "workloads" / "iscas85"
CIRCUITS = ["c432", "c499", "c880", "c1355", "c1908", "c2670", "c3540", "c5315", "c6288", "c7552"]


def bench(name: str) -> Netlist:
    return parse_bench((ISCAS / f"{name}.bench").read_text(), f"{name}.bench")


def exhaustive(n: int) -> np.ndarray:
    return ((np.arange(1 << n)[:, None] >> np.arange(n)) & 1).astype(bool)


def check(program: xr.XbarProgram, net: Netlist, x: np.ndarray) -> None:
    got = xbar_evaluate(program, x)
    want = evaluate(net, x)
    bad = np.argwhere(got != want)
    assert bad.size == 0, f"{net.name} ({program.style}): vector {bad[0][0]} output {net.outputs[bad[0][1]]} differs"


@pytest.mark.parametrize("style", ["stream-o", "stream-m"])
def test_c17_exhaustive(style):
    net = bench("c17")
    program, counts = synthesis.synthesize(net, style)
    check(program, net, exhaustive(5))
    check(decompose(program, 1), net, exhaustive(5))  # one crossbar per PE: every cut
    assert counts["mapped"] >= counts["technology_dependent"]


@pytest.mark.parametrize("name", CIRCUITS)
def test_iscas85_stream_o_and_m(name):
    net = bench(name)
    x = np.random.default_rng(len(name)).random((48, len(net.inputs))) < 0.5
    for style in ("stream-o", "stream-m"):
        program, counts = synthesis.synthesize(net, style, eliminate=0)
        check(program, net, x)
        check(decompose(program, 10), net, x)  # a staircase unit: 10 crossbars (Table III)
        assert counts["technology_dependent"] <= counts["technology_independent"]


def test_stream_o_covering_merges_gates():
    # Fig. 13's direction: the OR/NOR cover never has more gates than ABC's OR2..OR5/INV netlist
    _, counts = synthesis.stream_o(bench("c880"))
    assert counts["technology_dependent"] < counts["technology_independent"]


def test_algorithm_1_and_eliminate_sweep():
    net = bench("c432")
    _, counts = synthesis.stream_m(net)
    assert 0 <= counts["eliminate"] <= synthesis.ELIMINATE_MAX
    nodes = synthesis.eliminate_sweep(net, [0, 5, 30])
    assert nodes[30] <= nodes[5] <= nodes[0]  # Fig. 14(a): collapsing more leaves fewer nodes


def test_hardware_cost_is_eq_4():
    # two levels: f = a.b (one product), g = f + c (two products); r = c = 2
    net = Netlist("t", ("a", "b", "c"), ("g",), (Gate("f", "sop", ("a", "b"), ("11",)), Gate("g", "sop", ("f", "c"), ("1-", "-1"))))
    # level 1: X = 2 * fan-outs of the inputs (a, b, c: 3) = 6, Y = 1, Z = 1 -> ceil(6/4) + ceil(1/4) = 3
    # level 2: X = 2 * fan-outs of f (1) = 2, Y = 2, Z = 1 -> ceil(4/4) + ceil(2/4) = 2
    assert synthesis.hardware_cost(net, size=2) == 5


def test_best_cuts_minimizes_crossing_signals():
    assert best_cuts([5, 1, 7, 2, 9], 2) == [2, 4]  # after the 1 and the 2
    widths = [4, 9, 1, 8, 8, 2, 6]
    cuts = best_cuts(widths, 3)
    bounds = [0, *cuts, len(widths)]
    assert all(b - a <= 3 for a, b in zip(bounds, bounds[1:]))
    # against every admissible cut set (brute force)
    import itertools

    best = min(
        sum(widths[c - 1] for c in cs)
        for r in range(len(widths))
        for cs in itertools.combinations(range(1, len(widths)), r)
        if all(b - a <= 3 for a, b in zip([0, *cs, len(widths)], [*cs, len(widths)]))
    )
    assert sum(widths[c - 1] for c in cuts) == best


OPS = ["and", "or", "nand", "nor", "xor", "xnor", "not", "buf"]


@st.composite
def random_netlists(draw):
    n_in = draw(st.integers(1, 5))
    signals = [f"i{k}" for k in range(n_in)]
    gates = []
    for k in range(draw(st.integers(1, 12))):
        op = draw(st.sampled_from(OPS))
        arity = 1 if op in ("not", "buf") else draw(st.integers(1, 4))
        fanins = tuple(draw(st.sampled_from(signals)) for _ in range(arity))
        gates.append(Gate(f"g{k}", op, fanins))
        signals.append(f"g{k}")
    outs = draw(st.lists(st.sampled_from(signals), min_size=1, max_size=4, unique=True))
    return Netlist("rand", tuple(signals[:n_in]), tuple(outs), tuple(gates))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_netlists(), st.integers(1, 4))
def test_random_functions_through_every_pass(net, pe_crossbars):
    x = exhaustive(len(net.inputs))
    # optimize-aig's AIG
    aig = optimized_aig(net)
    assert (evaluate(aig, x) == evaluate(net, x)).all()
    assert (evaluate(xbar.hw_to_netlist(xbar.netlist_to_hw(aig)), x) == evaluate(net, x)).all()
    # STREAM-O: ABC, cover, the IR and back, mapping, PE decomposition, the program's IR and back
    oig, _ = synthesis.stream_o(net)
    oig2 = hw_to_oig(oig_to_hw(oig))
    oig_to_hw(oig2).verify()
    prog = xr.single_kernel_program(synthesis.map_oig(oig2), net.inputs, oig2.output_names, "stream-o")
    check(prog, net, x)
    split = decompose(prog, pe_crossbars)
    back = xbar.xbar_to_records(xbar.records_to_xbar(split, "rand"))
    check(back, net, x)
    # STREAM-M, at Algorithm 1's i and at eliminate 0
    for eliminate in (None, 0):
        mll, _ = synthesis.stream_m(net, eliminate)
        module = mll_to_hw(mll, net.outputs)
        module.verify()
        mll2, outs = hw_to_mll(module)
        prog = xr.single_kernel_program(synthesis.map_mll(mll2), net.inputs, outs, "stream-m")
        check(prog, net, x)
        check(decompose(prog, pe_crossbars), net, x)


@settings(max_examples=40, deadline=None)
@given(random_netlists())
def test_comb_ir_round_trip(net):
    x = exhaustive(len(net.inputs))
    module = xbar.netlist_to_hw(net)
    module.verify()
    assert (evaluate(xbar.hw_to_netlist(module), x) == evaluate(net, x)).all()


def test_gate_counts_for_the_bench():
    counts = synthesis.gate_counts(bench("c17"), "stream-m", eliminate=0)
    assert set(counts) >= {"technology_independent", "technology_dependent", "mapped", "layers", "eliminate"}


EDGE_NETLISTS = [
    # constants beside an input and its complement
    Netlist("consts", ("a",), ("one", "zero", "a", "na"), (Gate("one", "sop", (), ("",)), Gate("zero", "sop", (), ()), Gate("na", "not", ("a",)))),
    Netlist("noin", (), ("one",), (Gate("one", "sop", (), ("",)),)),
    Netlist("noout", ("a", "b"), (), (Gate("g", "and", ("a", "b")),)),
    Netlist("wires", ("a", "b"), ("b", "a"), ()),
]


@pytest.mark.parametrize("net", EDGE_NETLISTS, ids=[n.name for n in EDGE_NETLISTS])
@pytest.mark.parametrize("style", ["stream-o", "stream-m"])
def test_edge_netlists(net, style):
    x = exhaustive(len(net.inputs))
    program, _ = synthesis.synthesize(net, style)
    back = xbar.xbar_to_records(xbar.records_to_xbar(program, net.name))
    for p in (program, back, decompose(program, 1)):
        got = xbar_evaluate(p, x)
        assert got.shape == (x.shape[0], len(net.outputs))
        assert (got == evaluate(net, x)).all()
