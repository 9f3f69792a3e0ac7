"""Every compute op on every element type equals the per-element reference (pimcmd docstring)."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sim_helpers import (
    BITS,
    RefState,
    parse_program,
    program_text,
    random_raw,
    ref_compute,
    same_raw,
    set_register,
)

from infs.dialects.lattice import Pattern
from infs.dialects.pimcmd_schema import COMPUTE_ARITY
from infs.element_types import COMPARE_OPS
from infs.sim import Machine
from infs.sim.sram.geometry import Geometry

TYPES = ("f32", "i32", "i16", "i8", "i1")
GEOMS = [((8, 16), (4, 4)), ((7, 13), (4, 4)), ((128,), (16,)), ((4, 4, 8), (2, 2, 4))]
SRC_WL = (0, 32, 64)
DST_WL = 96
COND_WL = 200


def run_compute(mode, lattice, tiles, op, ty, tpat, bpat, const=None, dst=DST_WL, srcs=None, seed=0):
    geo = Geometry(tuple(lattice), tuple(tiles), 2)
    nt, B = geo.num_tiles, geo.B
    m = Machine("tiny", mode=mode)
    rng = np.random.default_rng(seed)
    bits = BITS[ty]
    arity = COMPUTE_ARITY[op] - (1 if const is not None else 0)
    if srcs is None:
        srcs = [COND_WL if (op == "select" and i == 0) else SRC_WL[i] for i in range(arity)]
    for i, s in enumerate(srcs):
        sb = 1 if (op == "select" and i == 0) else bits
        set_register(m, s, sb, random_raw(rng, "i1" if sb == 1 else ty, m.cfg.total_bitlines))
    dbits = 1 if op in COMPARE_OPS else bits
    if dst not in srcs:
        set_register(m, dst, dbits, random_raw(rng, "i1" if dbits == 1 else ty, m.cfg.total_bitlines))
    ref = RefState(m, nt, B)
    ins = [ref.get(s, 1 if (op == "select" and i == 0) else bits) for i, s in enumerate(srcs)]
    before = ref.get(dst, dbits)
    c = f" const {const!r}" if const is not None else ""
    body = f"  pimcmd.compute {op} {ty} dst {dst} srcs {list(srcs)}{c} bitlines {bpat} tiles {tpat}"
    prog = parse_program(program_text("tiny", lattice, tiles, body))
    m.run(prog)
    want = ref_compute(op, ty, ins, before, tpat.expand(), bpat.expand(), const)
    got = ref.get(dst, dbits)
    return m, got, want, (ty if dbits > 1 else "i1")


@pytest.mark.parametrize("ty", TYPES)
@pytest.mark.parametrize("op", list(COMPUTE_ARITY))
def test_every_op_full_and_partial(op, ty):
    for lattice, tiles in GEOMS[:2]:
        geo = Geometry(lattice, tiles, 2)
        full_t, full_b = Pattern(0, ((1, geo.num_tiles),)), Pattern(0, ((1, geo.B),))
        part_t, part_b = Pattern(1, ((3, 2),)), Pattern(2, ((1, 2), (4, 3)))
        for tp, bp in ((full_t, full_b), (part_t, part_b), (full_t, part_b)):
            _, got, want, rty = run_compute("functional", lattice, tiles, op, ty, tp, bp)
            assert same_raw(rty, got, want), (op, ty, lattice, str(tp), str(bp))


@pytest.mark.parametrize("ty", TYPES)
@pytest.mark.parametrize("op", [o for o, n in COMPUTE_ARITY.items() if n >= 2 and o != "select"])
def test_constant_operand(op, ty):
    const = {"f32": 2.5, "i32": -7, "i16": 300, "i8": -3, "i1": 1}[ty]
    _, got, want, rty = run_compute("functional", (8, 16), (4, 4), op, ty, Pattern(0, ((1, 8),)), Pattern(0, ((1, 16),)), const=const)
    assert same_raw(rty, got, want)


@pytest.mark.parametrize("op", ["add", "mul", "sub", "max", "fma"])
def test_in_place_destination(op):
    srcs = [0, 32, 64][: COMPUTE_ARITY[op]]
    _, got, want, rty = run_compute("functional", (8, 16), (4, 4), op, "f32", Pattern(0, ((1, 8),)), Pattern(1, ((2, 8),)), dst=0, srcs=srcs)
    assert same_raw(rty, got, want)


@st.composite
def patterns(draw, n: int):
    start = draw(st.integers(0, n - 1))
    levels, hi = [], start
    for _ in range(draw(st.integers(1, 2))):
        room = n - 1 - hi
        if room == 0:
            levels.append((1, 1))
            continue
        stride = draw(st.integers(1, room))
        count = draw(st.integers(1, room // stride + 1))
        levels.append((stride, count))
        hi += stride * (count - 1)
    return Pattern(start, tuple(levels))


@st.composite
def compute_cases(draw):
    lattice, tiles = draw(st.sampled_from(GEOMS))
    geo = Geometry(lattice, tiles, 2)
    op = draw(st.sampled_from(list(COMPUTE_ARITY)))
    ty = draw(st.sampled_from(TYPES))
    return lattice, tiles, op, ty, draw(patterns(geo.num_tiles)), draw(patterns(geo.B)), draw(st.integers(0, 2**16))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(compute_cases())
def test_random_patterns(case):
    lattice, tiles, op, ty, tp, bp, seed = case
    _, got, want, rty = run_compute("functional", lattice, tiles, op, ty, tp, bp, seed=seed)
    assert same_raw(rty, got, want)


@pytest.mark.parametrize("mode", ["functional", "bitlevel"])
@pytest.mark.parametrize("ty", TYPES)
@pytest.mark.parametrize("op", [o for o, n in COMPUTE_ARITY.items() if n == 1])
def test_constant_only_operand(op, ty, mode):
    """A unary op on a constant alone, e.g. ``copy`` as a fill."""
    const = {"f32": -1.5, "i32": -7, "i16": 300, "i8": -3, "i1": 1}[ty]
    _, got, want, rty = run_compute(mode, (7, 13), (4, 4), op, ty, Pattern(1, ((2, 3),)), Pattern(0, ((5, 3),)), const=const)
    assert same_raw(rty, got, want)


def test_word_level_neg_on_a_strided_bitline_pattern():
    """Found by test_bitlevel_random: numpy 2.4.6's ``np.negative(x, out=o)`` with
    ``o`` a strided view of 32-bit words reads a wrong input element, so the
    machine never negates into ``out`` (``infs/sim/sram/machine.py`` ``_arith``)."""
    tp, bp = Pattern(0, ((1, 1),)), Pattern(0, ((4, 2),))
    _, got, want, _ = run_compute("functional", (8, 16), (4, 4), "neg", "i32", tp, bp, const=None, seed=0)
    assert np.array_equal(got, want)
