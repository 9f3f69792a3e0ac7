"""f64 and i64 in memory: 64-bit elements run under ``--mode in``
and agree with numpy.

A 64-bit register is 64 wordlines (``element_types.ELEMENT_BITS``): the
machine computes on the raw 64-bit words (word level) or, for i64, with the
generic bit-serial algorithms (bit level; f64 arithmetic falls back to word
level like f32).  The checks here would fail if the machine silently computed
in 32 bits: the f64 values need more than f32's 24 significand bits, the i64
values wrap around at 2^63, not 2^31.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from strategies import examples, random_region

from infs import api
from infs.hardware import PIMEVAL_STEPS, PROFILES, pimeval_extrapolated, pimeval_row
from infs.runtime.driver import ModeNotHonoured, RunOptions, run_program
from infs.runtime.host import run_function
from infs.runtime.check import compare_values
from infs.sim.sram.bitlevel import FP_BITWISE, BitSerial
from infs.sim.sram.word_ops import word_op
from infs.workloads import WORKLOADS

EXAMPLES = examples(12, "INFS_WIDE_EXAMPLES")


def run_in(text: str, args: dict, config: str = "tiny", entry: str | None = None, **options):
    """Run ``text`` forced in memory, strictly (a region that cannot run in memory is an error)."""
    opts = RunOptions(config=config, mode="in", strict=options.pop("strict", True), **options)
    return run_program(api.parse_text(text), args, entry, opts)


def assert_all_in(report) -> None:
    assert report.regions and all(r.mode == "in" and not r.not_honoured for r in report.regions), [(r.mode, r.reason) for r in report.regions]


def as_f64(name: str) -> str:
    return WORKLOADS[name].text().replace("f32", "f64")


# ---------------------------------------------------------------------------
# workloads rewritten in f64
# ---------------------------------------------------------------------------

F64_RTOL = 1e-12  # far below f32's 6e-8: a computation in f32 cannot pass


@pytest.mark.parametrize("config", ["tiny", "small-16"])
def test_vec_add_f64_is_exact_beyond_f32_precision(config):
    """A + B where both need more than 24 significand bits: the f64 sum is exact,
    and differs from the f32 sum on every element."""
    n = 40
    k = np.arange(n, dtype=np.float64)
    a = 1.0 + (k + 1) * 2.0**-40
    b = (k + 3) * 2.0**-45
    c = np.zeros(n)
    rep = run_in(as_f64("vec_add"), {"A": a, "B": b, "C": c, "n": n}, config)
    assert_all_in(rep)
    np.testing.assert_array_equal(c, a + b)
    f32 = (a.astype(np.float32) + b.astype(np.float32)).astype(np.float64)
    assert np.all(c != f32)


# stencil2d's graph holds five registers at once: 160 wordlines in f32, 320 in f64 --
# more than tiny's and small-16's 256 (test_stencil2d_f64_on_256_wordlines)
@pytest.mark.parametrize("config", ["tiny{wordlines=512}", "small-16{wordlines=512}"])
def test_stencil2d_f64(config):
    m, n, t = (8, 10, 2) if config.startswith("tiny") else (10, 12, 2)
    rng = np.random.default_rng(3)
    a = rng.random((m, n))  # 53 random significand bits
    b = a.copy()
    w = np.array([0.2 + 2.0**-30, 0.2 - 2.0**-31])
    want_a, want_b = a.copy(), b.copy()
    for step in range(t):
        src, dst = (want_a, want_b) if step % 2 == 0 else (want_b, want_a)
        dst[1:-1, 1:-1] = w[0] * (src[:-2, 1:-1] + src[2:, 1:-1] + src[1:-1, :-2] + src[1:-1, 2:]) + w[1] * src[1:-1, 1:-1]
    rep = run_in(as_f64("stencil2d"), {"A": a, "B": b, "W": w, "m": m, "n": n, "t": t}, config)
    assert_all_in(rep)
    np.testing.assert_allclose(a, want_a, rtol=F64_RTOL, atol=0)
    np.testing.assert_allclose(b, want_b, rtol=F64_RTOL, atol=0)


def test_stencil2d_f64_on_256_wordlines_is_not_honoured_and_right():
    m, n, t = 8, 10, 2
    rng = np.random.default_rng(4)
    a = rng.random((m, n))
    b, w = a.copy(), np.array([0.25 + 2.0**-33, 0.5])
    want_a, want_b = a.copy(), b.copy()
    for step in range(t):
        src, dst = (want_a, want_b) if step % 2 == 0 else (want_b, want_a)
        dst[1:-1, 1:-1] = w[0] * (src[:-2, 1:-1] + src[2:, 1:-1] + src[1:-1, :-2] + src[1:-1, 2:]) + w[1] * src[1:-1, 1:-1]
    rep = run_in(as_f64("stencil2d"), {"A": a, "B": b, "W": w, "m": m, "n": n, "t": t}, "tiny", strict=False)
    assert rep.regions and all(r.mode != "in" and "wordline pressure" in r.not_honoured and "64-bit register" in r.not_honoured for r in rep.regions)
    np.testing.assert_allclose(a, want_a, rtol=F64_RTOL, atol=0)
    np.testing.assert_allclose(b, want_b, rtol=F64_RTOL, atol=0)


@pytest.mark.parametrize("name", ["mm_inner", "mm_outer"])
def test_mm_f64(name):
    m, n, k = 6, 5, 7
    rng = np.random.default_rng(5)
    a = rng.random((m, k)) + 1.0
    b = rng.random((k, n)) + 1.0
    c = np.zeros((m, n))
    args = {"A": a, "Bt": b.T.copy()} if name == "mm_inner" else {"A": a, "B": b}
    # mm_outer's graph holds five 64-bit registers: beyond small-16's 256 wordlines
    config = "small-16" if name == "mm_inner" else "small-16{wordlines=512}"
    rep = run_in(as_f64(name), {**args, "C": c, "m": m, "n": n, "k": k}, config)
    assert_all_in(rep)
    np.testing.assert_allclose(c, a @ b, rtol=F64_RTOL, atol=0)


# ---------------------------------------------------------------------------
# i64: wrap-around at 2^64, truncating division at the int64 minimum
# ---------------------------------------------------------------------------

I64_REGION = """
func.func @f(%A: memref<?xi64>, %B: memref<?xi64>, %C: memref<?xi64>, %D: memref<?xi64>, %n: index) {
  stream.region ins(%A, %B, %C, %D : memref<?xi64>, memref<?xi64>, memref<?xi64>, memref<?xi64>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xi64>, %b: memref<?xi64>, %c: memref<?xi64>, %d: memref<?xi64>, %N: index):
    %x = stream.load %a[d0] : memref<?xi64> -> !stream.stream<i64>
    %y = stream.load %b[d0] : memref<?xi64> -> !stream.stream<i64>
    %s = stream.compute(%x, %y : !stream.stream<i64>, !stream.stream<i64>) -> !stream.stream<i64> {
    ^bb1(%u: i64, %v: i64):
      %p = arith.muli %u, %v : i64
      %t = arith.addi %p, %u : i64
      stream.yield %t : i64
    }
    stream.store %s -> %c[d0] : !stream.stream<i64> -> memref<?xi64>
    %q = stream.compute(%x, %y : !stream.stream<i64>, !stream.stream<i64>) -> !stream.stream<i64> {
    ^bb1(%u: i64, %v: i64):
      %t = arith.divsi %u, %v : i64
      stream.yield %t : i64
    }
    stream.store %q -> %d[d0] : !stream.stream<i64> -> memref<?xi64>
    stream.yield
  }
  func.return
}
"""


def _i64_inputs(n: int, seed: int):
    rng = np.random.default_rng(seed)
    lo, hi = np.iinfo(np.int64).min, np.iinfo(np.int64).max
    a = rng.integers(lo, hi, n, dtype=np.int64, endpoint=True)
    b = rng.integers(-(2**40), 2**40, n, dtype=np.int64)
    a[:6] = [lo, lo, hi, 2**62 + 7, -(2**62) - 3, 2**33]
    b[:6] = [3, -7, 2, 5, 9, 2**33]  # products far past 2^63; MIN / 3 and MIN / -7 (abs(MIN) < 0)
    b[b == 0] = 1
    return a, b


def _i64_expected(a: np.ndarray, b: np.ndarray):
    """Python integers, reduced mod 2^64 by hand: independent of numpy's int64 rules."""

    def wrap(v: int) -> int:
        v &= (1 << 64) - 1
        return v - (1 << 64) if v >= 1 << 63 else v

    mul_add = [wrap(x * y + x) for x, y in zip(a.tolist(), b.tolist())]
    quot = [wrap(abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)) for x, y in zip(a.tolist(), b.tolist())]
    return np.array(mul_add, np.int64), np.array(quot, np.int64)


@pytest.mark.parametrize("machine_mode", ["functional", "bitlevel"])
def test_i64_wraps_and_divides_like_c(machine_mode):
    n = 24
    a, b = _i64_inputs(n, 1)
    c, d = np.zeros(n, np.int64), np.zeros(n, np.int64)
    # four i64 arrays are already tiny's 256 wordlines: 512 leaves room for the temporaries
    rep = run_in(I64_REGION, {"A": a, "B": b, "C": c, "D": d, "n": n}, "tiny{wordlines=512}", machine_mode=machine_mode)
    assert_all_in(rep)
    want_c, want_d = _i64_expected(a, b)
    np.testing.assert_array_equal(c, want_c)
    np.testing.assert_array_equal(d, want_d)
    assert d[0] == -3074457345618258602  # trunc(-2^63 / 3), not the 32-bit or magnitude-overflow answer
    if machine_mode == "bitlevel":  # i64 runs the generic per-bit algorithms: no word-level fallback
        assert rep.machine.stats.bitlevel_fallbacks == 0 and rep.machine.stats.bit_steps["writes"] > 0


def test_f64_arithmetic_falls_back_to_word_level_in_bitlevel_mode():
    n = 16
    a, b, c = 1.0 + np.arange(n) * 2.0**-40, np.full(n, 2.0**-44), np.zeros(n)
    rep = run_in(as_f64("vec_add"), {"A": a, "B": b, "C": c, "n": n}, "tiny", machine_mode="bitlevel")
    assert_all_in(rep)
    np.testing.assert_array_equal(c, a + b)
    assert rep.machine.stats.bitlevel_fallbacks >= 1


# ---------------------------------------------------------------------------
# bit level == word level on 64-bit words, op by op
# ---------------------------------------------------------------------------

OPS_I64 = ["add", "sub", "mul", "div", "fma", "min", "max", "cmp_lt", "cmp_le", "cmp_eq", "and", "or", "xor", "not", "abs", "neg", "relu", "copy", "select"]
ARITY = {"fma": 3, "select": 3, "not": 1, "abs": 1, "neg": 1, "relu": 1, "copy": 1}


def _raw_i64(rng, n):
    lo, hi = np.iinfo(np.int64).min, np.iinfo(np.int64).max
    v = rng.integers(lo, hi, n, dtype=np.int64, endpoint=True)
    v[:5] = [lo, hi, -1, 0, 1]
    return v.view(np.uint64)


@pytest.mark.parametrize("op", OPS_I64)
def test_bitlevel_i64_equals_word_level(op):
    rng = np.random.default_rng(7)
    n = 40
    srcs = [_raw_i64(rng, n) for _ in range(ARITY.get(op, 2))]
    if op == "select":
        srcs[0] = rng.integers(0, 2, n).astype(np.uint8)
    bs = BitSerial(n)
    got = bs.run(op, "i64", srcs)
    want = word_op(op, "i64", srcs)
    np.testing.assert_array_equal(got, want)
    assert bs.writes > 0


@pytest.mark.parametrize("op", ["add", "mul", "div", "min", "cmp_lt", "fma"])
def test_bitlevel_leaves_f64_arithmetic_to_word_level(op):
    srcs = [np.array([1.5, -2.25], np.float64).view(np.uint64)] * ARITY.get(op, 2)
    assert BitSerial(2).run(op, "f64", srcs) is None


@pytest.mark.parametrize("op", sorted(FP_BITWISE - {"select"}))
def test_bitlevel_f64_bit_operations(op):
    vals = np.array([1.5, -2.25, 0.0, -0.0, np.inf, 1e-300, -(1 + 2.0**-50)], np.float64)
    srcs = [vals.view(np.uint64)] * ARITY.get(op, 2)
    np.testing.assert_array_equal(BitSerial(len(vals)).run(op, "f64", srcs), word_op(op, "f64", srcs))


def test_word_level_f64_sign_ops_and_constants():
    """neg/abs/relu flip or clear bit 63 of an f64 (bit 31 is in its significand)."""
    x = np.array([1 + 2.0**-40, -3.5, -0.0, 2.0**-1074], np.float64)
    raw = x.view(np.uint64)
    np.testing.assert_array_equal(word_op("neg", "f64", [raw]).view(np.float64), -x)
    np.testing.assert_array_equal(word_op("abs", "f64", [raw]).view(np.float64), np.abs(x))
    np.testing.assert_array_equal(word_op("relu", "f64", [raw]).view(np.float64), [x[0], 0.0, 0.0, x[3]])
    c = 1 + 2.0**-45  # a constant operand keeps its 53 bits
    np.testing.assert_array_equal(word_op("add", "f64", [raw], const=c).view(np.float64), x + c)


# ---------------------------------------------------------------------------
# wordlines: a 64-bit register takes 64 of them
# ---------------------------------------------------------------------------


def test_f64_runs_out_of_wordlines_sooner_and_says_so():
    """On 128 wordlines vec_add's three f32 arrays (96 wordlines) fit; three f64
    arrays (192) do not: not honoured with the reason, the values still right
    (near memory), and an error under --strict."""
    cfg = "tiny{wordlines=128}"
    n = 20
    a, b = np.arange(n, dtype=np.float32), np.ones(n, np.float32)
    c = np.zeros(n, np.float32)
    assert_all_in(run_in(WORKLOADS["vec_add"].text(), {"A": a, "B": b, "C": c, "n": n}, cfg))
    np.testing.assert_array_equal(c, a + b)
    a64, b64, c64 = a.astype(np.float64) + 2.0**-40, b.astype(np.float64), np.zeros(n)
    rep = run_in(as_f64("vec_add"), {"A": a64, "B": b64, "C": c64, "n": n}, cfg, strict=False)
    (r,) = rep.regions
    assert r.mode != "in" and "wordline" in r.not_honoured, (r.mode, r.not_honoured)
    np.testing.assert_array_equal(c64, a64 + b64)
    with pytest.raises(ModeNotHonoured, match="wordline"):
        run_in(as_f64("vec_add"), {"A": a64, "B": b64, "C": np.zeros(n), "n": n}, cfg)


def test_f16_is_still_not_honoured_with_a_reason():
    text = as_f64("vec_add").replace("f64", "f16")
    n = 8
    a, b, c = np.ones(n, np.float16), np.ones(n, np.float16), np.zeros(n, np.float16)
    rep = run_in(text, {"A": a, "B": b, "C": c, "n": n}, strict=False)
    (r,) = rep.regions
    assert r.mode == "near" and "f16 has no tdfg tensor type" in r.not_honoured
    np.testing.assert_array_equal(c, a + b)


# ---------------------------------------------------------------------------
# costs
# ---------------------------------------------------------------------------


def test_64_bit_costs_follow_the_32_bit_formulas():
    infs = PROFILES["infs"]
    assert infs.compute_cycles("add", "i64") == 64 and infs.compute_cycles("add", "i32") == 32  # n
    assert infs.compute_cycles("mul", "i64") == 64 * 64 + 5 * 64  # n^2 + 5n (ASPLOS §5.2)
    assert infs.compute_cycles("add", "f64") == 4 * infs.compute_cycles("add", "f32") == 64 * 64  # gem5 n^2
    assert infs.compute_cycles("fma", "f64") == 2 * 64 * 64
    for ty in ("f64", "i64"):
        for op in OPS_I64:
            for prof in PROFILES.values():
                assert prof.compute_cycles(op, ty) >= prof.compute_cycles(op, ty.replace("64", "32")) > 0, (prof.name, op, ty)


def test_pimeval_extrapolation_reproduces_every_published_int64_row():
    """The int64 mul/div rows PIMeval lacks come from the quadratic through its int8/16/32
    rows; the same rule gives back each int64 row it does publish."""
    checked = 0
    for (dt, op), row in PIMEVAL_STEPS.items():
        if dt == "int64" and all((f"int{b}", op) in PIMEVAL_STEPS for b in (8, 16, 32)):
            assert pimeval_extrapolated("int64", op) == row, op
            checked += 1
    assert checked >= 15
    assert ("int64", "mul") not in PIMEVAL_STEPS and pimeval_row("int64", "mul") == (4160, 2080, 8256)
    assert pimeval_row("fp64", "add") == tuple(4 * v for v in PIMEVAL_STEPS[("fp32", "add")])


# ---------------------------------------------------------------------------
# random regions in f64 / i64 through the full pipeline
# ---------------------------------------------------------------------------


def test_random_f64_i64_regions_in_memory():
    stats: Counter = Counter()

    @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(random_region(max_rank=2, elem_types=("f64", "i64")), st.sampled_from(["tiny{wordlines=512}", "small-16{wordlines=512}"]))
    def run(case, config):
        note(case.describe())
        args = case.call_args()
        try:
            res = run_function(api.parse_text(case.text), args, "f")
        except Exception:  # noqa: BLE001 - the reference refusing: test_full_pipeline covers it
            stats["refused-by-reference"] += 1
            return
        want = {p: a for p, a in zip(case.params, args) if isinstance(a, np.ndarray)}
        want.update({f"result{i}": r for i, r in enumerate(res)})
        named = dict(zip(case.params, case.call_args()))
        rep = run_program(api.parse_text(case.text), named, "f", RunOptions(config=config, mode="in"))
        got = {p: named[p] for p in want if p in named}
        got.update({f"result{i}": r for i, r in enumerate(rep.results)})
        check = compare_values(got, want, rtol=F64_RTOL, atol=1e-12)
        (rec,) = rep.regions
        assert check.ok, f"ran {rec.mode} ({rec.reason}): {check.note}"
        if rec.mode == "in":
            stats["in"] += 1
        else:
            assert rec.not_honoured, "a forced in-memory region that ran elsewhere says why"
            stats[f"not-in: {rec.not_honoured[:80]}"] += 1

    run()
    print(f"wide random regions: {dict(stats)}")
    assert stats["in"] >= EXAMPLES // 3, stats


# ---------------------------------------------------------------------------
# optimize-tdfg and the pimcmd verifier know 64-bit elements
# ---------------------------------------------------------------------------


def _stencil_nodes(ty: str, dt) -> list[tuple[int, int]]:
    m, n, t = 8, 10, 2
    a = np.random.default_rng(0).random((m, n)).astype(dt)
    text = WORKLOADS["stencil2d"].text().replace("f32", ty)
    rep = run_in(text, {"A": a, "B": a.copy(), "W": np.array([0.25, 0.5], dt), "m": m, "n": n, "t": t}, "tiny{wordlines=512}")
    assert_all_in(rep)
    return [(r.tdfg_nodes_before, r.tdfg_nodes_after) for r in rep.regions]


def test_optimize_tdfg_rewrites_f64_graphs_like_f32_ones():
    """The e-graph's rules are gated per element type; with gates for the f32..i1
    list only, an f64 stencil kept its 20 nodes (no Fig. 6 reuse) where f32 went to 17."""
    f32 = _stencil_nodes("f32", np.float32)
    assert all(after < before for before, after in f32)
    assert _stencil_nodes("f64", np.float64) == f32


def test_pimcmd_verifier_counts_64_wordlines_per_register():
    def program(dst: int) -> str:
        return (
            "pimcmd.program config tiny lattice [8, 16] tiles [4, 4] banks 4 arrays_per_bank 2 wordlines 256 {\n"
            f"  pimcmd.compute add f64 dst {dst} srcs [0, 64] bitlines 0:1:16 tiles 0:1:8\n}}"
        )

    api.parse_text(program(128))  # [128, 192) fits 256 wordlines (parse_text verifies)
    with pytest.raises(api.InfsError, match=r"'pimcmd.compute' op destination wordlines \[224, 288\) leave the array's 256 wordlines"):
        api.parse_text(program(224))


def test_lower_pim_lays_f64_arrays_out_64_wordlines_apart(capsys, tmp_path):
    from infs.tools import infs_opt

    src = tmp_path / "vec_add_f64.mlir"
    src.write_text(as_f64("vec_add"))
    code = infs_opt.main([str(src), "--tensorize", "--lower-pim=sizes=N=20 config=tiny"])
    out, err = capsys.readouterr()
    assert code == 0, err
    starts = [int(line.split(" wordline ")[1].split()[0]) for line in out.splitlines() if "pimcmd.array" in line]
    assert starts == [0, 64, 128]
    assert "pimcmd.compute add f64 dst 192 srcs [0, 64]" in out
