"""Machines of odd geometry (bitlines per array, arrays per bank that are not powers of two).

* the tile shapes choose-layout may pick are exactly ASPLOS'23 §4.1's: ``prod(T)``
  = bitlines per array and ``T_inner * W mod L == 0`` (the paper's dim 0 is the
  contiguous one, the last dim here), nothing stricter (no powers of two, no
  tile dividing the array's extents);
* whenever such a tile shape fits the machine, one is picked; when none does, the
  reason names the constraint that failed: the cache-line rule (whatever the
  sizes), or the capacity (in the tile shapes that meet the rule);
* random odd machines and shapes give numpy's answers in memory (or say why not).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import infs
from infs import api
from infs.dialects import tdfg
from infs.element_types import ELEMENT_BYTES
from infs.hardware import load_config
from infs.passes.lower_pim.choose_layout import LayoutError, _candidates, choose_layout

from strategies import examples

EXAMPLES = examples(10, "INFS_GEOMETRY_EXAMPLES")
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _paper_tilings(B: int, rank: int, W: int, L: int) -> set[tuple[int, ...]]:
    """§4.1 by brute force: every rank-tuple of sizes with product B and T_inner * W a multiple of L."""
    divs = [d for d in range(1, B + 1) if B % d == 0]
    return {T for T in itertools.product(divs, repeat=rank) if math.prod(T) == B and (T[-1] * W) % L == 0}


@SETTINGS
@given(st.integers(1, 360), st.integers(1, 3), st.integers(1, 40), st.sampled_from([1, 2, 4, 8, 16, 32, 64]))
def test_the_valid_tilings_are_exactly_the_papers(B, rank, W, L):
    got = {T for T, _ in _candidates(B, rank, W, L, frozenset(), frozenset(), frozenset())}
    assert got == _paper_tilings(B, rank, W, L)


def _graph(shape: tuple[int, ...], elem: str = "f32") -> tdfg.GraphOp:
    r = len(shape)
    mt = f"memref<{'x'.join(map(str, shape))}x{elem}>"
    tt = f"!tdfg.tensor<{elem}, {r}>"
    dom = ", ".join(f"0:{s}" for s in shape)
    text = f"""
func.func @g(%A: {mt}, %B: {mt}) {{
  tdfg.graph ins(%A, %B : {mt}, {mt}) rank {r} {{
  ^bb0(%a: {mt}, %b: {mt}):
    %0 = tdfg.tensor %a [{dom}] : {mt} -> {tt}
    tdfg.store %0 -> %b : {tt} -> {mt}
    tdfg.yield
  }}
  func.return
}}
"""
    return next(op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp))


def _machine(banks: int, arrays: int, bitlines: int, wordlines: int = 256):
    return load_config({"base": "tiny", "mesh_rows": 1, "mesh_cols": banks, "banks": banks, "ways": 1, "compute_ways": 1,
                        "arrays_per_way": arrays, "bitlines": bitlines, "mem_ctrls": 2, "htree_levels": 8, "wordlines": wordlines})  # fmt: skip


def _tiles_needed(lattice, T) -> int:
    return math.prod(-(-s // t) for s, t in zip(lattice, T))


@SETTINGS
@given(st.integers(1, 6), st.integers(1, 20), st.integers(1, 120), st.lists(st.integers(1, 60), min_size=1, max_size=3), st.sampled_from(["f32", "i32", "i8", "i16", "f64"]))
def test_a_valid_tiling_that_fits_is_always_found(banks, arrays, bitlines, shape, elem):
    cfg = _machine(banks, arrays, bitlines)
    W, L = cfg.arrays_per_bank, max(1, cfg.line_bytes // ELEMENT_BYTES[elem])
    valid = _paper_tilings(bitlines, len(shape), W, L)
    fits = [T for T in valid if _tiles_needed(shape, T) <= cfg.banks * W]
    g = _graph(tuple(shape), elem)
    if fits:
        T = choose_layout(g, cfg).tiles
        assert T in valid and _tiles_needed(shape, T) <= cfg.banks * W
        return
    with pytest.raises(LayoutError) as e:
        choose_layout(g, cfg)
    msg = str(e.value)
    if not valid:
        assert f"so T{len(shape) - 1} a multiple of {L // math.gcd(L, W)}, and no multiple of" in msg, msg
    else:
        need = min(_tiles_needed(shape, T) for T in valid)
        assert f"needs at least {need} SRAM arrays of {bitlines} bitlines" in msg, msg


def test_a_machine_no_tile_shape_suits_says_so_whatever_the_size():
    # 12 bitlines, 1 array per bank, f32 (16 per line): T_inner must be a multiple of 16; the
    # refusal named the capacity ('the lattice [11, 22] needs at least 22 SRAM arrays')
    with pytest.raises(LayoutError) as e:
        choose_layout(_graph((11, 22)), _machine(1, 1, 12))
    msg = str(e.value)
    assert "needs at least" not in msg
    assert "T0*T1 = 12 and T1 * 1 arrays per bank a multiple of the 16 f32 elements of a 64-byte line, so T1 a multiple of 16, and no multiple of 16 divides 12" in msg, msg


def test_a_lattice_too_big_for_the_valid_tilings_names_the_capacity():
    # 48 bitlines, 15 arrays, f64 (8 per line): T_inner in {8, 16, 24, 48}; the fewest arrays in
    # those is 28 (3x1x16), while a 3-wide inner tile would take 15 -- the refusal blamed the cache line
    with pytest.raises(LayoutError) as e:
        choose_layout(_graph((10, 7, 9), "f64"), _machine(1, 15, 48))
    msg = str(e.value)
    assert "no tile shape" not in msg
    assert "needs at least 28 SRAM arrays of 48 bitlines; 'custom' has 15 (in tiles 3x1x16;" in msg, msg
    assert "2x8x3 would take 15 but breaks §4.1's cache-line rule T2 * 15 mod 8 = 0" in msg, msg


# ---------------------------------------------------------------------------
# Differential: odd machines run what they can in memory, with numpy's answers
# ---------------------------------------------------------------------------


@infs.kernel
def stencil2d(A, B):
    for i in range(1, A.shape[0] - 1):
        for j in range(1, A.shape[1] - 1):
            B[i, j] = A[i - 1, j] + A[i + 1, j] - A[i, j - 1] * A[i, j + 1]


@infs.kernel
def row_sums(A, B):
    for i in range(A.shape[0]):
        s = 0
        for j in range(A.shape[1]):
            s += A[i, j]
        B[i] = s


def _oracle(k, *args):
    out = [a.copy() for a in args]
    with np.errstate(all="ignore"):
        k.fn(*out)
    return out


@settings(max_examples=max(1, EXAMPLES // 2), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([(1, 15, 48), (3, 5, 48), (5, 3, 48), (2, 8, 47), (1, 2, 720), (3, 4, 30), (2, 6, 36)]),
    st.integers(3, 23), st.integers(1, 29), st.sampled_from([np.float32, np.int32, np.int16]), st.integers(0, 2**31),
)
def test_odd_machines_give_numpys_answers(machine, n, m, dt, seed):
    rng = np.random.default_rng(seed)
    cfg = _machine(*machine, wordlines=512)
    A = rng.integers(-9, 10, (n, m)).astype(dt)
    for k, args in ((stencil2d, (A, np.zeros_like(A))), (row_sums, (A, np.zeros(n, dt)))):
        want = _oracle(k, *args)
        r = k(*args, config=cfg, mode="in")
        for got, exp in zip(args, want):
            np.testing.assert_array_equal(got, exp)
        g = r.regions[0]
        if g.mode != "in":
            # the one line names the rule that failed
            assert "§4.1" in g.not_honoured or "needs at least" in g.not_honoured or "wordline" in g.not_honoured, g.not_honoured
