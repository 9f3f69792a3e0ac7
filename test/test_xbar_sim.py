"""The crossbar simulator (infs.sim.xbar): records checked, evaluate against an
independent oracle on random programs, truth-table kernels exhaustively, MAGIC
netlists exhaustively, and the cost model pinned to the cited constants."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infs.hardware import xbar as hw
from infs.dialects.xbar_records import (
    PRIMARY,
    XbarKernel,
    XbarLayer,
    XbarProgram,
    XbarRecordError,
    single_kernel_program,
)
from infs.sim.xbar.cost import contra_cost, logic_gates, stream_cost
from infs.sim.xbar.evaluate import XbarEvalError, evaluate
from infs.sim.xbar.magic import AND_GATES, FULL_ADDER_GATES, and2, full_adder, magic_steps
from infs.sim.xbar.two_level import adder_slice_table, input_bits, truth_table_kernel


def random_kernel(rng, n_inputs: int) -> XbarKernel:
    widths = [2 * n_inputs] + list(rng.integers(1, 9, size=rng.integers(1, 5)))
    layers = tuple(
        XbarLayer(rng.random((widths[k], widths[k + 1])) < rng.uniform(0.05, 0.6), rng.random(widths[k + 1]) < 0.5)
        for k in range(len(widths) - 1)
    )
    n_out = int(rng.integers(1, widths[-1] + 1))
    return XbarKernel(layers, tuple(int(o) for o in rng.choice(widths[-1], n_out)))


def random_program(seed: int) -> XbarProgram:
    rng = np.random.default_rng(seed)
    n_pi = int(rng.integers(1, 7))
    kernels, wiring = [], []
    for k in range(int(rng.integers(1, 5))):
        kern = random_kernel(rng, int(rng.integers(1, 6)))
        choices = [(PRIMARY, i) for i in range(n_pi)] + [
            (s, o) for s in range(k) for o in range(len(kernels[s].outputs))
        ]
        wiring.append(np.array([choices[i] for i in rng.integers(0, len(choices), kern.n_inputs)]))
        kernels.append(kern)
    choices = [(PRIMARY, i) for i in range(n_pi)] + [
        (s, o) for s in range(len(kernels)) for o in range(len(kernels[s].outputs))
    ]
    n_po = int(rng.integers(1, 6))
    outs = np.array([choices[i] for i in rng.integers(0, len(choices), n_po)])
    return XbarProgram(
        tuple(kernels), tuple(wiring), outs, tuple(f"i{i}" for i in range(n_pi)), tuple(f"o{j}" for j in range(n_po))
    )


def oracle(program: XbarProgram, x: np.ndarray) -> np.ndarray:
    """Column by column with np.any (no matmul): out_j = invert_j XOR any_i(in_i AND plane_ij)."""
    produced = []

    def fetch(sources):
        return np.stack(
            [x[:, i] if s == PRIMARY else produced[s][:, i] for s, i in sources.tolist()], axis=1
        ) if len(sources) else np.zeros((x.shape[0], 0), bool)

    for kernel, src in zip(program.kernels, program.kernel_inputs):
        sig = fetch(src)
        cur = np.concatenate([sig, ~sig], axis=1)
        for layer in kernel.layers:
            cur = np.stack(
                [np.any(cur & layer.plane[:, j][None, :], axis=1) != layer.invert[j] for j in range(layer.n_out)],
                axis=1,
            )
        produced.append(cur[:, list(kernel.outputs)])
    return fetch(program.output_sources)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 40))
def test_evaluate_matches_oracle_on_random_programs(seed, n_vectors):
    program = random_program(seed)
    x = np.random.default_rng(seed + 1).random((n_vectors, program.n_inputs)) < 0.5
    np.testing.assert_array_equal(evaluate(program, x), oracle(program, x))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 7), st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_truth_table_kernel_is_its_table(n, m, seed):
    table = np.random.default_rng(seed).random((1 << n, m)) < 0.4
    for keep in (False, True):
        program = single_kernel_program(truth_table_kernel(table, all_minterms=keep))
        np.testing.assert_array_equal(evaluate(program, input_bits(n)), table)


def test_truth_table_kernel_constant_zero():
    table = np.zeros((8, 2), bool)
    np.testing.assert_array_equal(evaluate(single_kernel_program(truth_table_kernel(table)), input_bits(3)), table)


def test_adder_slice_fits_one_crossbar_pair():
    # §VIII-B, Fig. 16: a 3-bit adder is the largest a pair of 128x128 crossbars holds
    kernel = truth_table_kernel(adder_slice_table(3))
    assert kernel.rows <= 128 and kernel.cols <= 128 and kernel.crossbars() == 2
    assert truth_table_kernel(adder_slice_table(4)).cols > 128


def test_magic_netlists_exhaustive():
    net, s, c = full_adder()
    x = input_bits(3)
    v = net.evaluate(x)
    np.testing.assert_array_equal(v[:, s], x.sum(1) % 2 == 1)
    np.testing.assert_array_equal(v[:, c], x.sum(1) >= 2)
    net, o = and2()
    x = input_bits(2)
    np.testing.assert_array_equal(net.evaluate(x)[:, o], x[:, 0] & x[:, 1])
    assert (FULL_ADDER_GATES, AND_GATES) == (9, 3)


def test_records_reject_bad_shapes():
    with pytest.raises(XbarRecordError, match="layer 1: 2 rows but layer 0 has 3 columns"):
        XbarKernel((XbarLayer(np.ones((4, 3)), np.zeros(3)), XbarLayer(np.ones((2, 2)), np.zeros(2))), (0,))
    with pytest.raises(XbarRecordError, match="even count"):
        XbarKernel((XbarLayer(np.ones((3, 1)), np.zeros(1)),), (0,))
    with pytest.raises(XbarRecordError, match="column 5"):
        XbarKernel((XbarLayer(np.ones((2, 1)), np.zeros(1)),), (5,))
    with pytest.raises(XbarRecordError, match="invert has 2 entries for 1 columns"):
        XbarLayer(np.ones((2, 1)), np.zeros(2))
    with pytest.raises(XbarRecordError, match="booleans"):
        XbarLayer(np.full((2, 1), 2), np.zeros(1))
    k = XbarKernel((XbarLayer(np.ones((2, 1)), np.zeros(1)),), (0,))
    with pytest.raises(XbarRecordError, match="not an earlier kernel"):
        XbarProgram((k,), (np.array([[0, 0]]),), np.array([[0, 0]]), ("a",), ("y",))
    with pytest.raises(XbarRecordError, match="primary input 3 of 1"):
        XbarProgram((k,), (np.array([[PRIMARY, 3]]),), np.array([[0, 0]]), ("a",), ("y",))
    with pytest.raises(XbarRecordError, match="style"):
        XbarProgram((k,), (np.array([[PRIMARY, 0]]),), np.array([[0, 0]]), ("a",), ("y",), style="magic")


def test_evaluate_rejects_bad_inputs():
    program = single_kernel_program(truth_table_kernel(np.eye(4, 2, dtype=bool)))
    with pytest.raises(XbarEvalError, match=r"expected \(vectors, 2\)"):
        evaluate(program, np.zeros((3, 5), bool))
    with pytest.raises(XbarEvalError, match="0 or 1"):
        evaluate(program, np.full((1, 2), 3))


def test_cited_constants():
    t = hw.DEFAULT_TECH
    assert (t.rows, t.cols, t.r_lrs_ohm, t.r_hrs_ohm) == (128, 128, 10e3, 10e6)
    assert (t.read_ns, t.read_pj, t.write_ns, t.write_pj) == (29.31, 1.08, 50.88, 3910.0)
    assert (hw.CROSSBAR.area_um2, hw.CROSSBAR.power_mw) == (25.0, 0.3)
    assert hw.PE.area_um2 == pytest.approx(65700.0) and hw.PE.power_mw == 412.63
    assert sum(hw.CMOS_TABLE_VII_UM2.values()) == pytest.approx(16318, abs=1)  # Table VII total


def test_stream_cost_pinned():
    # two 128x128-fitting layers and one 200-row layer -> 1 + 2 crossbars
    k = XbarKernel(
        (XbarLayer(np.ones((200, 100), bool), np.zeros(100, bool)), XbarLayer(np.eye(100, 3, dtype=bool), np.ones(3, bool))),
        (0, 1, 2),
    )
    program = single_kernel_program(k)
    c1 = stream_cost(program, 1)
    assert c1.crossbars == 3 and c1.depth == 2
    area = 3 * 25.0 + 6.27 + math.ceil(200 / 8) * 1.05 + 1 * 2.93
    assert c1.area_um2 == pytest.approx(area)
    assert c1.latency_ns == pytest.approx(2 * 29.31)
    periph_mw = 0.01 + 25 * 0.0006 + 0.001
    assert c1.energy_pj == pytest.approx(3 * 1.08 + periph_mw * 2 * 29.31)
    c10 = stream_cost(program, 10)  # streamed: one new vector per READ
    assert c10.latency_ns == pytest.approx((2 + 9) * 29.31)
    assert c10.operations == 30


def test_contra_cost_pinned():
    # layer 0: an OR of 3 (NOR + NOT), a NOR of 2, a buffer; 2 inputs' complements
    plane = np.zeros((4, 3), bool)
    plane[[0, 1, 2], 0] = True
    plane[[0, 3], 1] = True
    plane[1, 2] = True
    k = XbarKernel((XbarLayer(plane, np.array([False, True, False])),), (0, 1, 2))
    program = single_kernel_program(k)
    assert logic_gates(program) == (2, 1 + 2)
    c = contra_cost(program, 3)
    # per vector 5 evaluations + 1 initialization step (5 output cells on one wordline), 3 vectors
    assert c.depth == 6 and c.operations == 15
    assert c.latency_ns == pytest.approx(6 * 3 * 50.88)  # STREAM §II-C WRITE latency per step
    assert c.energy_pj == pytest.approx(6 * 3 * 3910.0)  # STREAM §II-C WRITE energy per step
    assert c.area_um2 == pytest.approx(25.0 + 6.27)


def test_magic_steps_by_hand():
    # an evaluation per gate; one initialization step per wordline (128 cells) of output cells
    assert [magic_steps(g) for g in (0, 1, 128, 129, 300)] == [0, 2, 129, 131, 303]
    assert magic_steps(9, cells_per_init=4) == 9 + 3
    with pytest.raises(ValueError, match="must be >= 0"):
        magic_steps(-1)
    # the hand-built full adder: 9 NOR gates, its outputs initialized in one step
    assert magic_steps(FULL_ADDER_GATES) == 10


def test_stream_depth_follows_kernel_chain():
    k = truth_table_kernel(np.eye(4, 2, dtype=bool))  # 2 inputs, 2 layers
    prog = XbarProgram(
        (k, k), (np.array([[PRIMARY, 0], [PRIMARY, 1]]), np.array([[0, 0], [0, 1]])),
        np.array([[1, 0], [0, 1]]), ("a", "b"), ("y", "z"),
    )
    assert stream_cost(prog).depth == 4
