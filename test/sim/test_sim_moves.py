"""Shift and broadcast equal the per-element reference (Alg. 2, Fig. 9, pimcmd docstring)."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sim_helpers import BITS, RefState, parse_program, program_text, random_raw, ref_bcast, ref_shift, set_register
from test_sim_compute import GEOMS, patterns

from infs.sim import Machine
from infs.sim.sram.geometry import Geometry

ARR = [("a", "memref<4x4xf32>"), ("b", "memref<4x4xf32>")]


def fig9_program(cmds: str) -> str:
    body = (
        "  pimcmd.array %a shape [4, 4] wordline 0 : memref<4x4xf32>\n"
        "  pimcmd.array %b shape [4, 4] wordline 32 : memref<4x4xf32>\n"
        "  pimcmd.transpose_in %a : memref<4x4xf32>\n"
        "  pimcmd.transpose_in %b : memref<4x4xf32>\n" + cmds + "\n  pimcmd.release %b : memref<4x4xf32>"
    )
    return program_text("fig9", (4, 4), (2, 2), body, ARR)


# Fig. 9: mv A[0:4, 0:3] right by 1 along dim 1 with 2x2 tiles on a 4x4 array.
FIG9 = (
    # CMD 0: A_L column 0 -> 1, intra-tile (Alg. 2 line 6), tiles 0 and 2
    "  pimcmd.shift f32 dst 32 src 0 dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 0:2:2\n"
    # CMD 1: A_L column 1 -> 2, inter-tile (line 8): bitlines 1:2:2, tiles 0:2:2
    "  pimcmd.shift f32 dst 32 src 0 dim 1 mask [1:2] inter 1 intra -1 bitlines 1:2:2 tiles 0:2:2\n"
    # CMD 2: A_R column 2 -> 3, intra-tile, tiles 1 and 3
    "  pimcmd.shift f32 dst 32 src 0 dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 1:2:2\n"
    "  pimcmd.sync"
)


def test_fig9_three_commands():
    A = np.arange(16, dtype=np.float32).reshape(4, 4) + 1
    B = -np.ones((4, 4), np.float32)
    m = Machine("fig9")
    st_ = m.run(parse_program(fig9_program(FIG9)), {"a": A, "b": B})
    want = -np.ones((4, 4), np.float32)
    want[:, 1:4] = A[:, 0:3]
    assert np.array_equal(B, want)
    assert st_.commands["shift"] == 3 and st_.commands["sync"] == 1
    # CMD 1 moves 2 bitlines x 4 B from tile 0 (bank 0) to tile 1 (bank 1) and 2 -> 3: one hop each.
    assert st_.traffic["noc_inter_tile"] == 2 * 8 * 1
    assert st_.traffic["inter_tile"] == 16
    # CMD 0 and CMD 2 move 2 cells x 4 B in each of 2 tiles, within the arrays.
    assert st_.traffic["intra_tile"] == 2 * (2 * 2 * 4)


def test_fig9_per_element_reference():
    geo = Geometry((4, 4), (2, 2), 1)
    m = Machine("fig9")
    rng = np.random.default_rng(1)
    set_register(m, 0, 32, random_raw(rng, "f32", m.cfg.total_bitlines))
    set_register(m, 32, 32, random_raw(rng, "f32", m.cfg.total_bitlines))
    ref = RefState(m, geo.num_tiles, geo.B)
    want = ref.get(32, 32)
    src = ref.get(0, 32)
    for mask, inter, intra, bl, tl in (((0, 1), 0, 1, (0, 2), (0, 2)), ((1, 2), 1, -1, (1, 3), (0, 2)), ((0, 1), 0, 1, (0, 2), (1, 3))):
        want = ref_shift(src, want, geo.grid, geo.tiles, tl, bl, 1, mask, inter, intra)
    m.run(parse_program(program_text("fig9", (4, 4), (2, 2), FIG9)))
    assert np.array_equal(ref.get(32, 32), want)


@st.composite
def shift_cases(draw):
    lattice, tiles = draw(st.sampled_from(GEOMS))
    geo = Geometry(lattice, tiles, 2)
    dim = draw(st.integers(0, geo.rank - 1))
    T = tiles[dim]
    intra = draw(st.integers(-(T - 1), T - 1))
    lo = draw(st.integers(max(0, -intra), min(T, T - intra)))
    hi = draw(st.integers(lo, min(T, T - intra)))
    g = geo.grid[dim]
    inter = draw(st.integers(-g, g))
    ty = draw(st.sampled_from(list(BITS)))
    same = draw(st.booleans())
    return lattice, tiles, dim, (lo, hi), inter, intra, ty, draw(patterns(geo.num_tiles)), draw(patterns(geo.B)), same, draw(st.integers(0, 999))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shift_cases())
def test_random_shifts(case):
    lattice, tiles, dim, mask, inter, intra, ty, tp, bp, same, seed = case
    geo = Geometry(lattice, tiles, 2)
    bits = BITS[ty]
    m = Machine("tiny")
    rng = np.random.default_rng(seed)
    src, dst = 0, (0 if same else 64)
    set_register(m, 0, bits, random_raw(rng, ty, m.cfg.total_bitlines))
    set_register(m, 64, bits, random_raw(rng, ty, m.cfg.total_bitlines))
    ref = RefState(m, geo.num_tiles, geo.B)
    want = ref_shift(ref.get(src, bits), ref.get(dst, bits), geo.grid, geo.tiles, tp.expand(), bp.expand(), dim, mask, inter, intra)
    body = f"  pimcmd.shift {ty} dst {dst} src {src} dim {dim} mask [{mask[0]}:{mask[1]}] inter {inter} intra {intra} bitlines {bp} tiles {tp}"
    m.run(parse_program(program_text("tiny", lattice, tiles, body)))
    assert np.array_equal(ref.get(dst, bits), want)


@st.composite
def bcast_cases(draw):
    lattice, tiles = draw(st.sampled_from(GEOMS))
    geo = Geometry(lattice, tiles, 2)
    dim = draw(st.integers(0, geo.rank - 1))
    T, g = tiles[dim], geo.grid[dim]
    blo = draw(st.integers(-(T - 1), T - 1))
    bhi = draw(st.integers(blo + 1, min(T, blo + T)))
    alo = draw(st.integers(-g, g))
    ahi = draw(st.integers(alo + 1, alo + g + 1))
    ty = draw(st.sampled_from(list(BITS)))
    return lattice, tiles, dim, (blo, bhi), (alo, ahi), ty, draw(patterns(geo.num_tiles)), draw(patterns(geo.B)), draw(st.booleans()), draw(st.integers(0, 999))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bcast_cases())
def test_random_bcasts(case):
    lattice, tiles, dim, intra, inter, ty, tp, bp, same, seed = case
    geo = Geometry(lattice, tiles, 2)
    bits = BITS[ty]
    m = Machine("tiny")
    rng = np.random.default_rng(seed)
    src, dst = 0, (0 if same else 64)
    set_register(m, 0, bits, random_raw(rng, ty, m.cfg.total_bitlines))
    set_register(m, 64, bits, random_raw(rng, ty, m.cfg.total_bitlines))
    ref = RefState(m, geo.num_tiles, geo.B)
    want = ref_bcast(ref.get(src, bits), ref.get(dst, bits), geo.grid, geo.tiles, tp.expand(), bp.expand(), dim, intra, inter)
    body = f"  pimcmd.bcast {ty} dst {dst} src {src} dim {dim} intra [{intra[0]}:{intra[1]}] inter [{inter[0]}:{inter[1]}] bitlines {bp} tiles {tp}"
    m.run(parse_program(program_text("tiny", lattice, tiles, body)))
    assert np.array_equal(ref.get(dst, bits), want)


def test_row_broadcast_to_every_tile_row():
    """gauss_elim-style: row 0 broadcast down dim 0 to every row of every tile."""
    lattice, tiles = (8, 16), (4, 4)
    geo = Geometry(lattice, tiles, 2)
    m = Machine("tiny")
    rng = np.random.default_rng(3)
    set_register(m, 0, 32, random_raw(rng, "f32", m.cfg.total_bitlines))
    ref = RefState(m, geo.num_tiles, geo.B)
    src = ref.get(0, 32)
    body = "  pimcmd.bcast f32 dst 32 src 0 dim 0 intra [0:4] inter [0:2] bitlines 0:1:4 tiles 0:1:4"
    m.run(parse_program(program_text("tiny", lattice, tiles, body)))
    got = ref.get(32, 32).reshape(2, 4, 4, 4)  # [g0, g1, c0, c1]
    row0 = src.reshape(2, 4, 4, 4)[0, :, 0, :]  # lattice row 0: [g1, c1]
    assert np.array_equal(got, np.broadcast_to(row0[None, :, None, :], got.shape))


def test_last_writer_progression_and_identity_maps_match_their_definitions():
    """The fast paths of the plans (gauss_elim's planning is their hot case) against the
    definitions: ``_last_writer`` is np.unique of the reversed destinations,
    ``_progression`` a slice exactly when every difference is one positive
    step, ``pattern_identity_map`` the identity map of the pattern's cells."""
    from infs.dialects.lattice import Pattern
    from infs.sim.sram import geometry as G

    rng = np.random.default_rng(13)
    for _ in range(2000):
        n = int(rng.integers(0, 24))
        kind = rng.integers(0, 3)
        if kind == 0:
            dst = np.sort(rng.choice(200, n, replace=False)).astype(np.int64)
        elif kind == 1:
            dst = int(rng.integers(0, 9)) + int(rng.integers(1, 4)) * np.arange(n, dtype=np.int64)
        else:
            dst = rng.integers(0, 16, n).astype(np.int64)
        src = rng.integers(0, 200, n).astype(np.int64)
        got = G._last_writer(src, dst)
        if n:
            uniq, first = np.unique(dst[::-1], return_index=True)
            want = (src[::-1][first], uniq)
        else:
            want = (src, dst)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
        d = np.diff(dst)
        prog = G._progression(dst)
        if n == 0 or (n > 1 and (d[0] <= 0 or not np.all(d == d[0]))):
            assert prog is None
        else:
            assert np.array_equal(np.arange(prog.start, prog.stop, prog.step or 1), dst)
    for levels in (((1, 16),), ((16, 4), (1, 3)), ((2, 5),), ((64, 2), (16, 2), (1, 16))):
        p = Pattern(5, levels)
        for shape in ((4096,), (16, 16)):
            a, b = G.pattern_identity_map(p, shape), G.identity_map(G.pattern_set(p), shape)
            assert (a.kind, a.shape, a.count) == (b.kind, b.shape, b.count)
            for x, y in zip(a.src + a.dst, b.src + b.dst):
                assert x == y if isinstance(x, slice) else np.array_equal(x, y)
