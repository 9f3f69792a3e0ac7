"""Bit-level mode (bit-serial algorithms on packed bit-planes) == word-level mode."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sim_helpers import same_raw
from test_sim_compute import GEOMS, patterns, run_compute

from infs.dialects.lattice import Pattern
from infs.dialects.pimcmd_schema import COMPUTE_ARITY
from infs.element_types import ELEMENT_BITS
from infs.sim.sram.bitlevel import FP_BITWISE, BitSerial, Layout
from infs.sim.sram.geometry import Geometry

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


# -- vectorized planes (words <-> planes as bit-matrix transposes, chunks of lanes) --

# The model's step counts (reads, writes, logic) at every width, as the
# per-plane implementation before vectorization counted them (bitlevel.py at
# fb213f5, one gate call per plane); they must not depend on how the gates are
# grouped into numpy calls, on the chunking, or on the number of bitlines.
WIDTHS = ("i1", "i8", "i16", "i32", "i64")
MODEL_STEPS = {
    "add": [(2, 1, 5), (16, 8, 40), (32, 16, 80), (64, 32, 160), (128, 64, 320)],
    "sub": [(2, 1, 6), (16, 8, 48), (32, 16, 96), (64, 32, 192), (128, 64, 384)],
    "mul": [(2, 1, 1), (16, 8, 176), (32, 16, 736), (64, 32, 3008), (128, 64, 12160)],
    "div": [(2, 1, 1), (16, 8, 976), (32, 16, 3232), (64, 32, 11584), (128, 64, 43648)],
    "fma": [(3, 1, 6), (24, 8, 216), (48, 16, 816), (96, 32, 3168), (192, 64, 12480)],
    "min": [(2, 1, 11), (16, 8, 83), (32, 16, 163), (64, 32, 323), (128, 64, 643)],
    "max": [(2, 1, 11), (16, 8, 83), (32, 16, 163), (64, 32, 323), (128, 64, 643)],
    "cmp_lt": [(2, 1, 7), (16, 1, 51), (32, 1, 99), (64, 1, 195), (128, 1, 387)],
    "cmp_le": [(2, 1, 10), (16, 1, 75), (32, 1, 147), (64, 1, 291), (128, 1, 579)],
    "cmp_eq": [(2, 1, 2), (16, 1, 23), (32, 1, 47), (64, 1, 95), (128, 1, 191)],
    "select": [(3, 1, 4), (17, 8, 32), (33, 16, 64), (65, 32, 128), (129, 64, 256)],
    "and": [(2, 1, 1), (16, 8, 8), (32, 16, 16), (64, 32, 32), (128, 64, 64)],
    "or": [(2, 1, 1), (16, 8, 8), (32, 16, 16), (64, 32, 32), (128, 64, 64)],
    "xor": [(2, 1, 1), (16, 8, 8), (32, 16, 16), (64, 32, 32), (128, 64, 64)],
    "not": [(1, 1, 1), (8, 8, 8), (16, 16, 16), (32, 32, 32), (64, 64, 64)],
    "abs": [(1, 1, 0), (8, 8, 80), (16, 16, 160), (32, 32, 320), (64, 64, 640)],
    "neg": [(1, 1, 6), (8, 8, 48), (16, 16, 96), (32, 32, 192), (64, 64, 384)],
    "relu": [(1, 1, 0), (8, 8, 9), (16, 16, 17), (32, 32, 33), (64, 64, 65)],
    "copy": [(1, 1, 0), (8, 8, 0), (16, 16, 0), (32, 32, 0), (64, 64, 0)],
}
WORD = {1: np.uint8, 8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def raw_words(rng, bits, n):
    if bits == 1:
        return rng.integers(0, 2, n).astype(np.uint8)
    return rng.integers(0, 2**63, n, dtype=np.uint64).astype(WORD[bits]) ^ rng.integers(0, 2, n).astype(WORD[bits]) << (bits - 1)


def srcs_for(op, bits, n, rng):
    return [raw_words(rng, 1 if op == "select" and i == 0 else bits, n) for i in range(COMPUTE_ARITY[op])]


@pytest.mark.parametrize("op", sorted(MODEL_STEPS))
def test_step_counts_are_the_model_at_any_size_and_chunking(op, monkeypatch):
    rng = np.random.default_rng(3)
    for ty, want in zip(WIDTHS, MODEL_STEPS[op]):
        bits = int(ty[1:])
        for n, chunk in ((64, BitSerial.CHUNK_BYTES), (1000, 8)):  # 1000: 16 lanes, one per chunk
            monkeypatch.setattr(BitSerial, "CHUNK_BYTES", chunk)
            alu = BitSerial(n)
            alu.run(op, ty, srcs_for(op, bits, n, rng))
            assert (alu.reads, alu.writes, alu.logic) == want, (ty, n, chunk)


@pytest.mark.parametrize("ty", WIDTHS + ("f32",))
@pytest.mark.parametrize("n", [1, 63, 64, 200, 1000])
def test_layout_planes_hold_bit_k_of_every_word(ty, n):
    bits = ELEMENT_BITS[ty]
    lay = Layout(n, max(8, bits))
    raw = raw_words(np.random.default_rng(n), bits, n)
    planes = lay.planes(lay.prepare(raw, bits), bits, 0, lay.L, np.empty((bits, lay.L), np.uint64))
    assert planes.shape == (bits, lay.L)
    # bit r of plane word g (words of the layout's width) is bit k of word r * M + g
    w = lay.width
    for k in range(bits):
        pw = planes[k].view(WORD[w]) if w < 64 else planes[k]
        got = ((pw[None, :] >> np.arange(w, dtype=WORD[w])[:, None].astype(pw.dtype)) & 1).reshape(-1)[:n]
        assert np.array_equal(got, (raw.astype(np.uint64) >> np.uint64(k if bits > 1 else 0)) & 1)
    dest = lay.destination(bits, None)
    lay.store(planes, bits, dest, 0, lay.L)
    assert np.array_equal(lay.finish(dest, bits, None), raw)


@pytest.mark.parametrize("op", ["add", "mul", "cmp_lt", "select", "min", "div"])
def test_chunks_out_and_constants_give_the_same_words(op, monkeypatch):
    """Many chunks with a ragged last one, writing the caller's vector in place,
    and a 0-d constant operand: the same words as one chunk into a new array."""
    rng = np.random.default_rng(7)
    n = 1000
    for ty in ("i32", "i8"):
        bits = ELEMENT_BITS[ty]
        srcs = srcs_for(op, bits, n, rng)
        want = BitSerial(n).run(op, ty, srcs)
        monkeypatch.setattr(BitSerial, "CHUNK_BYTES", 8 * 3 * bits)  # 3 lanes a chunk: 16 lanes -> 6 chunks
        out = np.zeros(n, want.dtype)
        assert BitSerial(n).run(op, ty, srcs, out=out) is out and np.array_equal(out, want)
        monkeypatch.undo()
        if op != "select":
            c = srcs[-1][5]
            full = BitSerial(n).run(op, ty, srcs[:-1] + [np.full(n, c)])
            assert np.array_equal(BitSerial(n).run(op, ty, srcs[:-1] + [np.asarray(c)]), full)


VALUE_OPS = ("add", "sub", "mul", "div", "cmp_lt", "cmp_le", "cmp_eq", "min", "max", "select")


@st.composite
def lane_values(draw, ty: str, n: int):
    """``n`` raw words of ``ty``: edge values (0, +-1, MIN, MAX, their neighbours)
    and arbitrary ones, so sums and products wrap and divisions hit MIN / -1 and 0."""
    bits = ELEMENT_BITS[ty]
    if bits == 1:
        vals = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
        return np.array(vals, np.uint8)
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    edge = st.sampled_from([0, 1, -1, 2, -2, lo, hi, lo + 1, hi - 1])
    vals = draw(st.lists(st.one_of(edge, st.integers(lo, hi)), min_size=n, max_size=n))
    return (np.array(vals, np.int64) & ((1 << bits) - 1)).astype(WORD[bits])


@pytest.mark.parametrize("ty", INT_TYPES)
@pytest.mark.parametrize("op", VALUE_OPS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_bitlevel_matches_word_level_on_drawn_values(op, ty, data):
    """bit-level == word-level (functional) mode on a small machine: drawn
    values incl. negatives and wrap-around, i8/i16/i32/i1, whole and partial
    patterns (the ALU writing the register in place, or not), one chunk or many."""
    from sim_helpers import RefState, parse_program, program_text, set_register

    from infs.sim import Machine

    bits = ELEMENT_BITS[ty]
    lattice, tiles = (8, 16), (4, 4)
    geo = Geometry(lattice, tiles, 2)
    tp, bp = data.draw(st.sampled_from([(FULL_T, FULL_B), None])) or (data.draw(patterns(geo.num_tiles)), data.draw(patterns(geo.B)))
    const = None
    if op != "select" and data.draw(st.booleans()):
        const = int(data.draw(lane_values(ty, 1))[0])
    srcs = [200 if op == "select" and i == 0 else (0, 64, 128)[i] for i in range(COMPUTE_ARITY[op] - (const is not None))]
    cells = geo.num_tiles * geo.B
    values = [data.draw(lane_values("i1" if op == "select" and i == 0 else ty, cells)) for i in range(len(srcs))]
    chunk = data.draw(st.sampled_from([BitSerial.CHUNK_BYTES, 8]))
    c = f" const {const}" if const is not None else ""
    body = f"  pimcmd.compute {op} {ty} dst 160 srcs {srcs}{c} bitlines {bp} tiles {tp}"
    got = {}
    old = BitSerial.CHUNK_BYTES
    BitSerial.CHUNK_BYTES = chunk
    try:
        for mode in ("bitlevel", "functional"):
            m = Machine("tiny", mode=mode)
            for s, v in zip(srcs, values):
                set_register(m, s, 1 if s == 200 else bits, v)
            m.run(parse_program(program_text("tiny", lattice, tiles, body)))
            dbits = 1 if op.startswith("cmp") else bits
            got[mode] = (RefState(m, geo.num_tiles, geo.B).get(160, dbits), m.stats)
    finally:
        BitSerial.CHUNK_BYTES = old
    assert np.array_equal(got["bitlevel"][0], got["functional"][0])
    assert got["bitlevel"][1].same_costs(got["functional"][1]) and got["bitlevel"][1].bitlevel_fallbacks == 0


# -- compiled kernels (infs/sim/sram/bit_kernels.py, numba) ---------------------------------

SIGNED = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
INT_WIDTHS = ("i8", "i16", "i32", "i64")


def numpy_wrapped(op, bits, srcs):
    """numpy's result of ``op`` on ``bits``-bit two's complement raw words (wrapping
    like the hardware; division truncates, a zero divisor gives 0, MIN / -1 = MIN)."""
    u, s = WORD[bits], SIGNED[bits]
    if op == "select":
        return np.where(srcs[0] != 0, srcs[1], srcs[2])
    x = [v.view(s) for v in srcs]
    if op.startswith("cmp_"):
        return {"cmp_lt": np.less, "cmp_le": np.less_equal, "cmp_eq": np.equal}[op](x[0], x[1]).astype(np.uint8)
    if op == "div":
        a, b = srcs
        neg_a, neg_b = x[0] < 0, x[1] < 0
        ma, mb = np.where(neg_a, -a, a), np.where(neg_b, -b, b)  # magnitudes, unsigned (MIN's fits)
        q = ma // np.where(mb == 0, u(1), mb)
        q = np.where(neg_a != neg_b, -q, q)
        return np.where(mb == 0, u(0), q).astype(u)
    with np.errstate(over="ignore"):
        r = {
            "add": lambda: x[0] + x[1], "sub": lambda: x[0] - x[1], "mul": lambda: x[0] * x[1],
            "fma": lambda: x[0] * x[1] + x[2], "neg": lambda: -x[0], "abs": lambda: np.abs(x[0]),
            "min": lambda: np.minimum(x[0], x[1]), "max": lambda: np.maximum(x[0], x[1]),
            "relu": lambda: np.maximum(x[0], s(0)), "and": lambda: x[0] & x[1], "or": lambda: x[0] | x[1],
            "xor": lambda: x[0] ^ x[1], "not": lambda: ~x[0], "copy": lambda: x[0].copy(),
        }[op]()  # fmt: skip
    return r.astype(s).view(u)


def _with_edges(rng, bits, n):
    raw = raw_words(rng, bits, n)
    edge = np.array([0, 1, -1, 2, -2, -(1 << (bits - 1)), (1 << (bits - 1)) - 1], np.int64).astype(SIGNED[bits]).view(WORD[bits])
    pick = rng.random(n) < 0.3
    raw[pick] = edge[rng.integers(0, len(edge), int(pick.sum()))]
    return raw


@pytest.mark.parametrize("ty", INT_WIDTHS)
@pytest.mark.parametrize("op", [op for op in COMPUTE_ARITY if op != "div"])
def test_kernels_give_numpys_wrapped_result_at_every_width(op, ty, monkeypatch):
    """Every op that goes through the transposes and the add / mul kernels, at
    every width, on odd lane counts (words that fill no block, lanes that fill
    no chunk) with edge values, one chunk and ragged chunks."""
    from infs.sim.sram import bit_kernels

    bits = ELEMENT_BITS[ty]
    rng = np.random.default_rng(bits)
    blk = bit_kernels.BLK
    for n in (1, 63, 1001):
        srcs = [raw_words(rng, 1, n) if op == "select" and i == 0 else _with_edges(rng, bits, n) for i in range(COMPUTE_ARITY[op])]
        want = numpy_wrapped(op, bits, srcs)
        assert np.array_equal(BitSerial(n).run(op, ty, srcs), want), (op, ty, n)
    # a block boundary: L = npad / 64 lanes = BLK + 1, and chunks of BLK - 1 lanes
    n = 64 * blk + 1
    srcs = [raw_words(rng, 1, n) if op == "select" and i == 0 else _with_edges(rng, bits, n) for i in range(COMPUTE_ARITY[op])]
    want = numpy_wrapped(op, bits, srcs)
    assert np.array_equal(BitSerial(n).run(op, ty, srcs), want), (op, ty, n)
    monkeypatch.setattr(BitSerial, "CHUNK_BYTES", 8 * bits * (blk - 1))
    assert np.array_equal(BitSerial(n).run(op, ty, srcs), want), (op, ty, n, "chunks")


@pytest.mark.parametrize("ty", INT_WIDTHS)
def test_div_gives_numpys_result_at_every_width(ty):
    bits = ELEMENT_BITS[ty]
    rng = np.random.default_rng(bits)
    n = 131
    a, b = _with_edges(rng, bits, n), _with_edges(rng, bits, n)
    b[:7] = 0
    assert np.array_equal(BitSerial(n).run("div", ty, [a, b]), numpy_wrapped("div", bits, [a, b]))


def _bits_of(planes):
    """``[n, L]`` planes -> the value (bits 0..n-1) on each of the ``64 L`` bitlines."""
    p = np.ascontiguousarray(planes)
    b = np.unpackbits(p.view(np.uint8), axis=1, bitorder="little").astype(np.uint64)
    return (b << np.arange(p.shape[0], dtype=np.uint64)[:, None]).sum(axis=0, dtype=np.uint64)


def _block_transposed(rows, w):
    """Reference transpose of every ``w x w`` bit block of ``[w, L]`` rows via unpackbits:
    bit ``r`` of w-bit column ``g`` of output row ``k`` = bit ``k`` of column ``g`` of row ``r``."""
    x = np.unpackbits(np.ascontiguousarray(rows).view(np.uint8), axis=1, bitorder="little").reshape(w, -1, w)
    packed = np.packbits(x.transpose(2, 1, 0), axis=2, bitorder="little")
    return np.ascontiguousarray(packed).reshape(w, -1).view(np.uint64)


def _strided(rng, rows, lanes, offset):
    """Random ``[rows, lanes]`` planes as a non-contiguous view (row stride larger than a row)."""
    big = rng.integers(0, 2**64, (rows, lanes + offset + 5), dtype=np.uint64)
    return big[:, offset : offset + lanes]


@settings(max_examples=25, deadline=None)
@given(w=st.sampled_from([8, 16, 32, 64]), lanes=st.sampled_from([1, 3, 511, 512, 513, 1030]),
       s0=st.integers(0, 3), d0=st.integers(0, 3), seed=st.integers(0, 99))  # fmt: skip
def test_transpose_kernel_is_the_block_transpose_on_strided_rows(w, lanes, s0, d0, seed):
    """Lanes ``s0..`` of a row-strided view into lanes ``d0..`` of another: each
    ``w x w`` bit block transposed, nothing outside the lanes written; twice = identity."""
    from infs.sim.sram import bit_kernels as bk

    rng = np.random.default_rng(seed)
    src = _strided(rng, w, lanes + s0, 2)
    dst = _strided(rng, w, lanes + d0 + 2, 1)
    before = dst.copy()
    bk.transpose(src, s0, dst, d0, lanes, bk.MASKS)
    want = before.copy()
    want[:, d0 : d0 + lanes] = _block_transposed(src[:, s0 : s0 + lanes], w)
    assert np.array_equal(dst, want)
    back = np.empty((w, lanes), np.uint64)
    bk.transpose(dst, d0, back, 0, lanes, bk.MASKS)
    assert np.array_equal(back, src[:, s0 : s0 + lanes])
    bk.transpose(back, 0, back, 0, lanes, bk.MASKS)  # in place
    assert np.array_equal(back, dst[:, d0 : d0 + lanes])


@settings(max_examples=25, deadline=None)
@given(n=st.sampled_from([1, 2, 8, 16, 32, 64]), lanes=st.sampled_from([1, 5, 511, 513]),
       carry=st.booleans(), flip=st.booleans(), seed=st.integers(0, 99))  # fmt: skip
def test_add_and_mul_kernels_on_strided_planes(n, lanes, carry, flip, seed):
    """The kernels' planes decode to numpy's ``a + b (+1)``, ``a + ~b``, carry
    out and ``a * b`` mod 2^n on every bitline, from row-strided views."""
    from infs.sim.sram import bit_kernels as bk

    rng = np.random.default_rng(seed)
    a, b = _strided(rng, n, lanes, 1), _strided(rng, n, lanes, 3)
    cin = _strided(rng, 1, lanes, 2)[0]
    va, vb, vc = _bits_of(a), _bits_of(b), _bits_of(cin[None])
    mask = np.uint64((1 << n) - 1)
    vb2 = (~vb & mask) if flip else vb
    full = va.astype(object) + vb2.astype(object) + (vc.astype(object) if carry else 0)
    s = _strided(rng, n, lanes, 2)
    cout = np.zeros(lanes, np.uint64)
    bk.add(a, b, np.uint64(2**64 - 1 if flip else 0), cin, carry, s, True, cout, True)
    assert np.array_equal(_bits_of(s).astype(object), full & int(mask))
    assert np.array_equal(_bits_of(cout[None]).astype(object), full >> n)
    cout2 = np.zeros(lanes, np.uint64)  # carry only, no sums written
    s_before = s.copy()
    bk.add(a, b, np.uint64(2**64 - 1 if flip else 0), cin, carry, s, False, cout2, True)
    assert np.array_equal(cout2, cout) and np.array_equal(s, s_before)
    acc = _strided(rng, n, lanes, 4)
    bk.mul(a, b, acc)
    with np.errstate(over="ignore"):
        assert np.array_equal(_bits_of(acc), (va * vb) & mask)
