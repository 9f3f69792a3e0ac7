"""Bit-level mode (bit-serial algorithms on packed bit-planes) == word-level mode."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sim_helpers import same_raw
from test_sim_compute import GEOMS, patterns, run_compute

from infs.dialects.lattice import Pattern
from infs.dialects.pimcmd import COMPUTE_ARITY
from infs.sim.bitlevel import FP_BITWISE, BitSerial
from infs.sim.geometry import Geometry

INT_TYPES = ("i32", "i16", "i8", "i1")
FULL_T, FULL_B = Pattern(0, ((1, 8),)), Pattern(0, ((1, 16),))


@pytest.mark.parametrize("ty", INT_TYPES)
@pytest.mark.parametrize("op", list(COMPUTE_ARITY))
def test_bitlevel_equals_wordlevel_on_integers(op, ty):
    for seed in (0, 1):
        mb, got_b, want, rty = run_compute("bitlevel", (8, 16), (4, 4), op, ty, FULL_T, FULL_B, seed=seed)
        mw, got_w, _, _ = run_compute("functional", (8, 16), (4, 4), op, ty, FULL_T, FULL_B, seed=seed)
        assert np.array_equal(got_b, got_w) and np.array_equal(got_b, want)
        assert mb.stats.bitlevel_fallbacks == 0 and mb.stats.bit_steps["writes"] > 0
        assert mb.stats.same_costs(mw.stats)


@pytest.mark.parametrize("op", sorted(FP_BITWISE))
def test_bitlevel_f32_bit_operations(op):
    mb, got_b, want, rty = run_compute("bitlevel", (7, 13), (4, 4), op, "f32", FULL_T, FULL_B)
    assert same_raw(rty, got_b, want) and mb.stats.bitlevel_fallbacks == 0


def test_f32_arithmetic_falls_back_word_level():
    mb, got_b, want, rty = run_compute("bitlevel", (8, 16), (4, 4), "add", "f32", FULL_T, FULL_B)
    assert same_raw(rty, got_b, want) and mb.stats.bitlevel_fallbacks == 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_bitlevel_random(data):
    lattice, tiles = data.draw(st.sampled_from(GEOMS))
    geo = Geometry(lattice, tiles, 2)
    op = data.draw(st.sampled_from(list(COMPUTE_ARITY)))
    ty = data.draw(st.sampled_from(INT_TYPES))
    tp, bp = data.draw(patterns(geo.num_tiles)), data.draw(patterns(geo.B))
    seed = data.draw(st.integers(0, 999))
    const = None
    if COMPUTE_ARITY[op] >= 2 and op != "select" and data.draw(st.booleans()):
        const = data.draw(st.integers(-(2**31), 2**31 - 1))
    _, got_b, want, _ = run_compute("bitlevel", lattice, tiles, op, ty, tp, bp, const=const, seed=seed)
    _, got_w, _, _ = run_compute("functional", lattice, tiles, op, ty, tp, bp, const=const, seed=seed)
    assert np.array_equal(got_b, got_w) and np.array_equal(got_b, want)


@pytest.mark.parametrize("n", [8, 16, 32])
def test_bit_step_counts(n):
    rng = np.random.default_rng(n)
    raw = {8: np.uint8, 16: np.uint16, 32: np.uint32}[n]
    a = rng.integers(0, 2**n, 64, dtype=np.uint64).astype(raw)
    b = rng.integers(0, 2**n, 64, dtype=np.uint64).astype(raw)
    ty = {8: "i8", 16: "i16", 32: "i32"}[n]
    add = BitSerial(64)
    assert np.array_equal(add.run("add", ty, [a, b]), (a + b).astype(raw))
    # ripple carry: 2n plane reads, n plane writes, 5 logic steps per bit
    assert (add.reads, add.writes, add.logic) == (2 * n, n, 5 * n)
    mul = BitSerial(64)
    assert np.array_equal(mul.run("mul", ty, [a, b]), (a * b).astype(raw))
    # shift-add on the upper bits only: n ANDs for the first partial product, then
    # for i = 1..n-1 (n - i) ANDs and a (n - i)-bit add: ~n^2/2 full-adder steps
    adders = sum(n - i for i in range(1, n))
    assert mul.logic == n + adders + 5 * adders
    assert adders == n * (n - 1) // 2
