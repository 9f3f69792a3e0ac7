"""Regions too large for the SRAM arrays run in memory in chunks of their outer dim
(``infs.runtime.chunking``): checked against the stream reference on every
workload at sizes 2-5x the capacity of ``tiny``/``small-16``, on random regions
and random machines, and on the regions it must refuse."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from strategies import examples, random_region

from infs import api
from infs.hardware import load_config
from infs.runtime import jit
from infs.runtime.check import compare_values
from infs.runtime.chunking import chunk_starts, chunk_unsafe, dim_unsafe
from infs.runtime.driver import RunOptions, run_program
from infs.runtime.host import run_function
from infs.workloads import WORKLOADS


# per workload: sizes whose largest region needs 2-5x the bitlines of the machine
# (tiny: 128, small-16: 8,192), and, for each region too large for the machine
# that is not chunked, the reason it is refused (None: every such region runs in chunks)
OVER = {
    "tiny": {
        "vec_add": ({"n": 500}, None),
        "array_sum": ({"n": 500}, None),  # a scalar result: the chunks' sums summed
        "stencil1d": ({"n": 600}, None),
        "stencil2d": ({"m": 20, "n": 24, "t": 2}, None),
        "stencil3d": ({"l": 6, "m": 10, "n": 12, "t": 2}, None),  # single planes of d0 do not fit: rows of d1 too
        # A -> T along d0 (its even/odd stores T[d0, d1], T[d0, d1 + W2] own their rows);
        # T -> O's stores O[d0, d1], O[d0 + H2, d1] apart for tensorize because a chunk's
        # rows [XLO, XLO + CH) lie inside [0, H2) (chunk_region's assumptions)
        "dwt2d": ({"h": 20, "w": 24}, None),
        # the update below the pivot in rows: row k outside [XLO, XLO + CH) inside [k + 1, n)
        # for the verifier, read through its own row view (chunk_region); the last pivots'
        # regions have fewer than 2 rows (one chunk over views)
        "gauss_elim": ({"n": 24}, None),
        "conv2d": ({"h": 18, "w": 20}, None),
        "conv3d": ({"ci": 2, "co": 4, "h": 10, "w": 12}, None),  # single output channels do not fit: rows too
        "mm_inner": ({"m": 4, "n": 12, "k": 40}, None),  # rows i on the host, each in chunks of its j
        "mm_outer": ({"m": 20, "n": 24, "k": 3}, None),
        "kmeans_inner": ({"p": 100, "d": 4, "c": 4}, None),  # the atomic centroid sums in chunks of points, in order
        "kmeans_outer": ({"p": 100, "d": 4, "c": 4}, None),
        "gather_mlp_inner": ({"m": 20, "n": 40, "k": 12, "r": 16}, None),
        "gather_mlp_outer": ({"m": 32, "n": 8, "k": 12, "r": 16}, None),
    },
    "small-16": {
        "vec_add": ({"n": 30011}, None),
        "stencil2d": ({"m": 150, "n": 151, "t": 2}, None),
        "conv2d": ({"h": 130, "w": 140}, None),
        "mm_inner": ({"m": 2, "n": 200, "k": 100}, None),
        # chunks of columns below the pivot, in whole cache lines (rows of d0 are refused as on tiny)
        "gauss_elim": ({"n": 150}, None),
    },
}


def _run(name: str, sizes: dict[str, int], config: str, **options):
    """A run (mode in; ``RunOptions`` fields) checked against the reference (not in analysis mode)."""
    w = WORKLOADS[name]
    sizes = {**w.sizes("small"), **sizes}
    inputs = w.inputs(sizes, 3)
    ref = {k: v.copy() for k, v in inputs.items()}
    ref_res = run_function(api.parse_file(w.path), w.call_args(ref, sizes), w.entry)
    arrays = {k: v.copy() for k, v in inputs.items()}
    rep = run_program(api.parse_file(w.path), w.call_args(arrays, sizes), w.entry, RunOptions(config=config, mode="in", **options))
    if options.get("machine_mode") != "analysis":
        got = {**{k: arrays[k] for k in w.outputs}, **dict(zip(w.results, rep.results))}
        want = {**{k: ref[k] for k in w.outputs}, **dict(zip(w.results, ref_res))}
        check = compare_values(got, want)
        assert check.ok, f"{name} {sizes} on {config}: {check.note}"
    return rep


@pytest.mark.parametrize("config,name", [(c, n) for c, ws in OVER.items() for n in ws])
def test_workloads_beyond_capacity_run_in_chunks_and_match_the_reference(config, name):
    sizes, refused = OVER[config][name]
    rep = _run(name, sizes, config)
    whole = _run(name, sizes, config, chunk=False)  # the sizes do exceed the machine: not in memory at once
    assert any("SRAM arrays" in r.not_honoured for r in whole.regions), [r.not_honoured for r in whole.regions]
    chunked = [r for r in rep.regions if r.chunks]
    assert chunked or name == "gauss_elim", [(r.mode, r.reason) for r in rep.regions]
    for r in chunked:
        assert r.mode == "in" and r.graphs == r.chunks and (f"in {r.chunks} chunks of " if r.chunks > 1 else "in one chunk, over array views") in r.reason, r
        # one lowering per chunk shape: every full chunk, and the shorter last one along each chunked dim
        assert r.jit_misses <= 2 ** len(r.chunk_shape.split(" x ")), (r.jit_misses, r.chunk_shape)
    # a region too large for the machine either runs in chunks or is refused with the reason
    big = [r for r in rep.regions if "SRAM arrays" in r.not_honoured]
    if refused is None:
        assert not big, [r.not_honoured for r in big]
    else:
        assert big and all(refused in r.not_honoured or "has fewer than 2 rows" in r.not_honoured for r in big), [r.not_honoured for r in big]
        assert any(refused in r.not_honoured for r in big)


def test_every_workload_is_in_the_over_capacity_table():
    assert set(OVER["tiny"]) == set(WORKLOADS)


def test_chunking_can_be_turned_off():
    rep = _run("vec_add", {"n": 500}, "tiny", chunk=False)
    (r,) = rep.regions
    assert r.mode == "near" and not r.chunks and "SRAM arrays" in r.not_honoured


def test_auto_weighs_the_chunked_run_with_eq2():
    """Under auto the chunked plan is priced like any in-memory plan (Eq. 2, or the
    whole run against the near/core models); whatever wins, the values are right."""
    w, extra = WORKLOADS["stencil2d"], {"m": 20, "n": 24, "t": 2}
    sizes = {**w.sizes("small"), **extra}
    inputs = w.inputs(sizes, 3)
    ref = {k: v.copy() for k, v in inputs.items()}
    run_function(api.parse_file(w.path), w.call_args(ref, sizes), w.entry)
    rep = run_program(api.parse_file(w.path), w.call_args(inputs, sizes), w.entry, RunOptions(config="tiny", mode="auto"))
    assert compare_values({k: inputs[k] for k in w.outputs}, {k: ref[k] for k in w.outputs}).ok
    for r in rep.regions:
        assert r.reason.startswith(("Eq. 2", "not in memory")), r.reason


def test_chunks_cover_the_range_in_order():
    assert chunk_starts(0, 10, 4) == [(3, 0), (3, 3), (3, 6), (1, 9)]
    assert chunk_starts(1, 23, 16) == [(2, s) for s in range(1, 23, 2)]
    for lo, hi, k in [(0, 7, 2), (5, 100, 8), (0, 1, 2), (3, 4, 4)]:
        parts = chunk_starts(lo, hi, k)
        assert sum(n for n, _ in parts) == hi - lo and [s for _, s in parts] == sorted(s for _, s in parts)
        assert len(parts) <= k


UNSAFE = {
    "a fold with an init value": (
        """func.func @f(%A: memref<?xf32>, %n: index, %c: f32) -> f32 {
  %s = stream.region ins(%A : memref<?xf32>) syms(N = %n : index, C = %c : f32) domain [0:N] iterators [reduction] -> f32 {
  ^bb0(%a: memref<?xf32>, %N: index, %C: f32):
    %x = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %r = stream.reduce add %x over [0] init %C : !stream.stream<f32> -> f32
    stream.yield %r : f32
  }
  func.return %s : f32
}""",
        "without an init value",
    ),
    "offset read of a written array": (
        """func.func @f(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index):
    %x = stream.load %a[d0 + 1] : memref<?xf32> -> !stream.stream<f32>
    %y = stream.load %b[d0] : memref<?xf32> -> !stream.stream<f32>
    %z = stream.compute(%x, %y : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u: f32, %v: f32):
      %t = arith.addf %u, %v : f32
      stream.yield %t : f32
    }
    stream.store %z -> %a[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}""",
        "written and read at another access map",
    ),
    "write not moving with d0": (
        """func.func @f(%A: memref<?x?xf32>, %B: memref<?xf32>, %n: index, %m: index) {
  stream.region ins(%A, %B : memref<?x?xf32>, memref<?xf32>) syms(N = %n : index, M = %m : index) domain [0:N, 0:M] iterators [parallel, parallel] {
  ^bb0(%a: memref<?x?xf32>, %b: memref<?xf32>, %N: index, %M: index):
    %x = stream.load %a[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    stream.store %x -> %b[d1] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}""",
        "do not move with the outer dim",
    ),
}


def test_chunks_of_a_max_fold_and_a_product_fold_combine_in_order():
    """Results folded across chunks: max and an integer product (wrapping) equal the reference."""
    for kind, dt, t in (("max", np.float32, "f32"), ("mul", np.int32, "i32")):
        text = f"""func.func @f(%A: memref<?x{t}>, %n: index) -> {t} {{
  %s = stream.region ins(%A : memref<?x{t}>) syms(N = %n : index) domain [0:N] iterators [reduction] -> {t} {{
  ^bb0(%a: memref<?x{t}>, %N: index):
    %x = stream.load %a[d0] : memref<?x{t}> -> !stream.stream<{t}>
    %r = stream.reduce {kind} %x over [0] : !stream.stream<{t}> -> {t}
    stream.yield %r : {t}
  }}
  func.return %s : {t}
}}"""
        rng = np.random.default_rng(5)
        A = (rng.standard_normal(613) * 10).astype(dt) if dt is np.float32 else rng.integers(-3, 4, 613).astype(dt)
        (want,) = run_function(api.parse_text(text), {"A": A.copy(), "n": 613})
        rep = run_program(api.parse_text(text), {"A": A.copy(), "n": 613}, None, RunOptions(config="tiny", mode="in"))
        (r,) = rep.regions
        assert r.mode == "in" and r.chunks >= 2, r.not_honoured
        assert rep.results[0] == want, (kind, rep.results[0], want)


@pytest.mark.parametrize("case", list(UNSAFE))
def test_unsafe_regions_are_not_chunked_and_say_why(case):
    text, why = UNSAFE[case]
    (region,) = [op for op in api.parse_text(text).walk() if op.name == "stream.region"]
    assert why in (chunk_unsafe(region) or "")


def test_an_offset_write_over_capacity_runs_near_memory_with_the_reason_and_right_values():
    text = UNSAFE["offset read of a written array"][0]
    n = 700
    A = np.arange(n + 1, dtype=np.float32)
    B = np.ones(n, dtype=np.float32)
    want = A.copy()
    run_function(api.parse_text(text), {"A": want, "B": B.copy(), "n": n})
    rep = run_program(api.parse_text(text), {"A": A, "B": B, "n": n}, None, RunOptions(config="tiny", mode="in"))
    (r,) = rep.regions
    assert r.mode == "near" and "not in chunks: %A is written and read at another access map" in r.not_honoured
    assert np.array_equal(A, want)


def test_a_chunked_program_is_lowered_once_per_chunk_shape():
    jit.clear_cache()
    rep = _run("vec_add", {"n": 1001}, "tiny")
    (r,) = rep.regions
    full = r.chunks - 1 if 1001 % r.chunk_rows else r.chunks
    assert r.chunks >= 8 and r.jit_misses == (1 if full == r.chunks else 2)
    # the search lowered one chunk that did not fit per halving: the whole region, 2, 4, ... chunks
    assert jit.cache_stats()["misses"] == r.jit_misses + int(math.log2(r.chunks))


# machines of 32 and 64 bitlines (one or two banks of two 16-bitline arrays):
# most random regions exceed them, and many fit once in chunks
MICRO = [
    load_config("tiny", name="micro-32", banks=1, mesh_rows=1, mesh_cols=1, mem_ctrls=1),
    load_config("tiny", name="micro-64", banks=2, mesh_rows=1, mesh_cols=2, mem_ctrls=1),
]


@settings(max_examples=examples(40, "INFS_CHUNK_EXAMPLES"), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(case=random_region(), machine=st.sampled_from(MICRO))
def test_random_regions_on_small_machines_chunked_or_not_match_the_reference(case, machine):
    """Random regions forced in memory on machines of 32 or 64 bitlines: every
    run, chunked or not, gives the reference's values."""
    args = case.call_args()
    try:
        res = run_function(api.parse_text(case.text), args, "f")
    except Exception:  # noqa: BLE001 - a program the reference refuses: not this test's subject
        return
    want = {**{p: a for p, a in zip(case.params, args) if isinstance(a, np.ndarray)}, **{f"r{i}": r for i, r in enumerate(res)}}
    args2 = case.call_args()
    named = dict(zip(case.params, args2))
    try:
        rep = run_program(api.parse_text(case.text), named, "f", RunOptions(config=machine, mode="in"))
    except Exception as e:  # noqa: BLE001
        assert "\n" not in str(e).strip(), e
        event("refused with an error")
        return
    got = {**{p: named[p] for p in want if p in named}, **{f"r{i}": r for i, r in enumerate(rep.results)}}
    check = compare_values(got, want)
    assert check.ok, f"{[(r.mode, r.chunks, r.reason) for r in rep.regions]}: {check.note}"
    chunked = [r for r in rep.regions if r.chunks]
    if chunked:
        several = any(" x " in r.chunk_shape for r in chunked)
        event("chunked, partials folded" if "chunk_fold" in rep.stats.commands else "chunked along several dims" if several else "chunked")
    else:
        event("in" if all(r.mode == "in" for r in rep.regions) else "refused")


# a 2-D reduction of either dim stored into a vector, of any kind, on the micro machines:
# chunked along the other dim, or along both with the partials folded
FOLD_REGION = """func.func @f(%A: memref<?x?x{t}>, %C: memref<?x{t}>, %m: index, %n: index) {{
  stream.region ins(%A, %C : memref<?x?x{t}>, memref<?x{t}>) syms(M = %m : index, N = %n : index) domain [0:M, 0:N] iterators [{kinds}] {{
  ^bb0(%a: memref<?x?x{t}>, %c: memref<?x{t}>, %M: index, %N: index):
    %x = stream.load %a[d0, d1] : memref<?x?x{t}> -> !stream.stream<{t}>
    %s = stream.reduce {kind} %x over [{r}] : !stream.stream<{t}> -> !stream.stream<{t}>
    stream.store %s -> %c[d{p}] : !stream.stream<{t}> -> memref<?x{t}>
    stream.yield
  }}
  func.return
}}"""


@settings(max_examples=examples(12, "INFS_CHUNK_EXAMPLES"), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=st.integers(1, 90), n=st.integers(1, 90), r=st.sampled_from([0, 1]), kind=st.sampled_from(["add", "mul", "min", "max"]),
       t=st.sampled_from(["f32", "i32"]), machine=st.sampled_from(MICRO), seed=st.integers(0, 99))  # fmt: skip
def test_random_stored_reductions_in_chunks_match_the_reference(m, n, r, kind, t, machine, seed):
    kinds = ", ".join("reduction" if d == r else "parallel" for d in range(2))
    text = FOLD_REGION.format(t=t, kinds=kinds, kind=kind, r=r, p=1 - r)
    rng = np.random.default_rng(seed)
    # small magnitudes: a product of 90 floats stays finite, and the reference's order of a float sum is not the machine's
    A = (rng.uniform(0.9, 1.1, (m, n)) if kind == "mul" else rng.standard_normal((m, n))).astype(np.float32) if t == "f32" else rng.integers(-3, 4, (m, n)).astype(np.int32)
    out = n if r == 0 else m
    want = np.zeros(out, A.dtype)
    run_function(api.parse_text(text), {"A": A.copy(), "C": want, "m": m, "n": n}, "f")
    C = np.zeros(out, A.dtype)
    rep = run_program(api.parse_text(text), {"A": A, "C": C, "m": m, "n": n}, "f", RunOptions(config=machine, mode="in"))
    (rec,) = rep.regions
    check = compare_values({"C": C}, {"C": want})
    assert check.ok, f"{rec.mode} {rec.chunk_shape} {rec.not_honoured}: {check.note}"
    if t == "i32":
        assert np.array_equal(C, want)
    event("folded" if "chunk_fold" in rep.stats.commands else "chunked" if rec.chunks else rec.mode)


# C[j] = fold_i A[i, j]: the outer dim is a reduction whose values are stored
COLUMN_FOLD = """func.func @f(%A: memref<?x?x{t}>, %C: memref<?x{t}>, %m: index, %n: index) {{
  stream.region ins(%A, %C : memref<?x?x{t}>, memref<?x{t}>) syms(M = %m : index, N = %n : index) domain [0:M, 0:N] iterators [reduction, parallel] {{
  ^bb0(%a: memref<?x?x{t}>, %c: memref<?x{t}>, %M: index, %N: index):
    %x = stream.load %a[d0, d1] : memref<?x?x{t}> -> !stream.stream<{t}>
    %s = stream.reduce {kind} %x over [0] : !stream.stream<{t}> -> !stream.stream<{t}>
    stream.store %s -> %c[d1] : !stream.stream<{t}> -> memref<?x{t}>
    stream.yield
  }}
  func.return
}}"""


def _column_fold(m: int, n: int, kind: str = "add", t: str = "f32", **options):
    text = COLUMN_FOLD.format(kind=kind, t=t)
    rng = np.random.default_rng(7)
    A = rng.standard_normal((m, n)).astype(np.float32) if t == "f32" else rng.integers(-1000, 1000, (m, n)).astype(np.int32)
    want = np.zeros(n, A.dtype)
    run_function(api.parse_text(text), {"A": A.copy(), "C": want, "m": m, "n": n})
    C = np.zeros(n, A.dtype)
    rep = run_program(api.parse_text(text), {"A": A, "C": C, "m": m, "n": n}, None, RunOptions(config="tiny", mode="in", **options))
    (r,) = rep.regions
    return rep, r, C, want


def test_an_outer_stored_reduction_is_chunked_along_a_parallel_dim():
    """The outer dim cannot be chunked (its values are stored): chunks of d1 instead,
    each reducing whole columns, so nothing is combined across chunks."""
    rep, r, C, want = _column_fold(8, 64)
    assert r.mode == "in" and r.chunks >= 2 and r.chunk_shape.startswith("d1:") and "d0" not in r.chunk_shape, (r.reason, r.not_honoured)
    assert f"in {r.chunks} chunks of {r.chunk_shape} (too large" in r.reason
    assert "chunk_fold" not in rep.stats.commands
    assert compare_values({"C": C}, {"C": want}).ok


def test_stencil3d_chunks_along_two_dims_with_halos():
    """Single planes of stencil3d's outer dim do not fit tiny: rows of its second dim too
    (the halo rows of both dims in each chunk's views); one lowering per chunk shape."""
    rep = _run("stencil3d", {"l": 6, "m": 10, "n": 12, "t": 2}, "tiny")
    for r in rep.regions:
        assert r.mode == "in" and r.chunk_shape.startswith("d0:1 x d1:"), (r.chunk_shape, r.not_honoured)
        assert r.jit_misses <= 4


def test_host_loop_regions_are_chunked_inside_each_point():
    """mm_inner's rows i are host loops; each row's region [j, k] is chunked along j."""
    rep = _run("mm_inner", {"m": 4, "n": 12, "k": 40}, "tiny")
    (r,) = rep.regions
    assert r.mode == "in" and "of its inner region at each host loop point" in r.reason and r.chunks % 4 == 0, r.reason
    assert r.chunk_shape.startswith("d0:") and "d1" not in r.chunk_shape  # j split, k (the reduction) whole
    assert "chunk_fold" not in rep.stats.commands


def test_a_stored_reduction_too_large_for_its_other_dims_is_folded_across_chunks():
    """Single columns of 300 rows do not fit tiny: the reduced dim is chunked too and each
    later chunk's partials are folded, in order, into what the earlier ones stored (near
    memory, charged by its model); add on floats, max on integers."""
    for kind, t in (("add", "f32"), ("max", "i32"), ("mul", "i32")):
        rep, r, C, want = _column_fold(300, 4, kind, t)
        assert r.mode == "in" and r.chunk_shape.startswith("d1:1 x d0:"), (kind, r.chunk_shape, r.not_honoured)
        folds = rep.stats.commands.get("chunk_fold", 0)
        per_column = r.chunks // 4
        assert folds == 4 * (per_column - 1), (folds, r.chunks)
        assert rep.stats.cycles["near_mem"] > 0
        if t == "f32":
            assert compare_values({"C": C}, {"C": want}).ok, (C, want)
        else:
            assert np.array_equal(C, want), (kind, C, want)
    # the same run in analysis mode (no data) charges the same cycles
    rep_a, *_ = _column_fold(300, 4, machine_mode="analysis")
    rep_f, *_ = _column_fold(300, 4)
    assert rep_a.stats.total_cycles == rep_f.stats.total_cycles and rep_a.stats.commands == rep_f.stats.commands


def test_mm_inner_whose_row_does_not_fit_folds_partials_of_k():
    rep = _run("mm_inner", {"m": 2, "n": 4, "k": 400}, "tiny")
    (r,) = rep.regions
    assert r.mode == "in" and "d1:" in r.chunk_shape and rep.stats.commands.get("chunk_fold", 0) > 0, (r.chunk_shape, r.not_honoured)


def test_folding_partials_can_be_turned_off_and_is_refused_for_a_stored_value_not_a_fold():
    _, r, C, want = _column_fold(300, 4, chunk_folds=False)
    assert r.mode == "near" and "d0: the outer dim is a reduction whose values are stored, not returned" in r.not_honoured, r.not_honoured
    # C[j] = (sum_i A[i, j])^2: the squares of partials do not fold into the square of the sum
    text = COLUMN_FOLD.format(kind="add", t="f32").replace(
        "    stream.store %s -> %c[d1]",
        """    %u = stream.compute(%s : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%p: f32):
      %w = arith.mulf %p, %p : f32
      stream.yield %w : f32
    }
    stream.store %u -> %c[d1]""",
    )
    (region,) = [op for op in api.parse_text(text).walk() if op.name == "stream.region"]
    assert "a store is not of an add/mul/min/max reduction over it" in (dim_unsafe(region, 0, fold=True) or "")
    A = np.ones((300, 4), np.float32)
    C = np.zeros(4, dtype=np.float32)
    rep = run_program(api.parse_text(text), {"A": A, "C": C, "m": 300, "n": 4}, None, RunOptions(config="tiny", mode="in"))
    (r,) = rep.regions
    assert r.mode == "near" and "d0: the outer dim is a reduction whose values are stored, and a store is not of an add/mul" in r.not_honoured, r.not_honoured
    assert np.array_equal(C, np.full(4, 300.0 * 300.0))


def test_the_report_shows_a_chunk_of_several_dims_by_its_shape(capsys):
    from infs.tools import infs_run

    rc = infs_run.main([str(WORKLOADS["stencil3d"].path), "--sizes", "l=6,m=10,n=12,t=2", "--config", "tiny", "--mode", "in"])
    assert rc == 0
    out = capsys.readouterr().out
    (row,) = [ln for ln in out.splitlines() if "in memory in chunks" in ln]
    assert "2 region run(s): 64 chunks of d0:1 x d1:1 x" in row and "rows" not in row, row


def _cycles(name: str, sizes: dict[str, int], config: str, **options):
    """A chunked run (mode in) checked against the reference: (report, its total cycles)."""
    rep = _run(name, sizes, config, **options)
    return rep, rep.stats.total_cycles


# (workload, sizes, config, warm): chunked runs with some input in DRAM and room for the
# next chunk's inputs beside the running one (vec_add, cold: A and B; C, only written, is
# not fetched; stencil2d: both arrays, cold), the fetches of the chunks after the first
# hidden behind compute
OVERLAPPING = [
    ("vec_add", {"n": 500}, "tiny", False),
    ("stencil2d", {"m": 20, "n": 24, "t": 2}, "tiny", False),
    ("vec_add", {"n": 30011}, "small-16", False),  # A and B (117 KB each) from DRAM into its 256 KB L3
]


@pytest.mark.parametrize("name,sizes,config,warm", OVERLAPPING)
def test_double_buffered_chunks_hide_dram_fetches_and_cost_no_more_than_serial(name, sizes, config, warm):
    serial, s_cycles = _cycles(name, sizes, config, warm=warm, chunk_overlap=False)
    over, o_cycles = _cycles(name, sizes, config, warm=warm)
    hidden = sum(r.dram_hidden for r in over.regions)
    assert 0 < hidden and o_cycles == s_cycles - hidden, (o_cycles, s_cycles, hidden)
    assert not any(r.dram_hidden for r in serial.regions)
    # only DRAM time is hidden: compute, moves, traffic and the bytes moved are the serial run's
    for k in ("compute", "move", "final_reduce", "near_mem", "jit"):
        assert over.stats.cycles[k] == serial.stats.cycles[k], k
    assert over.stats.cycles["dram"] == serial.stats.cycles["dram"] - hidden
    assert over.stats.traffic == serial.stats.traffic
    assert any("DRAM fetch overlapped with the previous chunk's compute" in r.reason for r in over.regions)
    # the analysis mode charges exactly what the functional run does, with and without overlap
    for ov, cycles in ((True, o_cycles), (False, s_cycles)):
        rep, c = _cycles(name, sizes, config, warm=warm, chunk_overlap=ov, machine_mode="analysis")
        assert c == cycles and sum(r.dram_hidden for r in rep.regions) == (hidden if ov else 0)


@pytest.mark.parametrize(
    "name,sizes,config,warm,why",
    [
        # every input in the L3 (array_sum's 2 KB, stencil2d's 3.75 KB): nothing to fetch
        ("array_sum", {"n": 500}, "tiny", True, None),
        ("stencil2d", {"m": 20, "n": 24, "t": 2}, "tiny", True, None),
        # A and B in the L3, C past it but only written (allocated, not fetched): nothing to fetch
        ("vec_add", {"n": 500}, "tiny", True, None),
        # both arrays from DRAM: a chunk's 576 bytes do not fit beside the 224 of 256 wordlines the previous one uses
        ("conv2d", {"h": 20, "w": 24}, "tiny", False, "the chunks' DRAM transfers serial (the next chunk's 576 bytes from DRAM do not fit the 512 bytes of the L3 beside a chunk's 224 wordlines)"),
    ],
)
def test_chunks_with_nothing_to_overlap_cost_the_serial_cycles_and_say_so(name, sizes, config, warm, why):
    serial, s_cycles = _cycles(name, sizes, config, warm=warm, chunk_overlap=False)
    over, o_cycles = _cycles(name, sizes, config, warm=warm)
    assert o_cycles == s_cycles and not any(r.dram_hidden for r in over.regions)
    assert all(r.chunks > 1 for r in over.regions)
    if why:
        assert all(why in r.reason for r in over.regions), [r.reason for r in over.regions]
    else:
        assert not any("DRAM" in r.reason for r in over.regions), [r.reason for r in over.regions]


def test_the_chunked_plan_prices_the_run_it_charges(monkeypatch):
    """Eq. 2's whole-run estimate of a chunked plan (``plan["full"]``, which auto weighs
    against the near/core models) is the overlapped run's cycles, not the serial ones."""
    from infs.runtime.driver import RegionRuntime

    plans = []
    orig = RegionRuntime.plan_chunked

    def spy(self, region, arrays, scalars):
        plan, why = orig(self, region, arrays, scalars)
        plans.append(plan)
        return plan, why

    monkeypatch.setattr(RegionRuntime, "plan_chunked", spy)
    rep, cycles = _cycles("vec_add", {"n": 500}, "tiny", warm=False)
    (r,) = rep.regions
    (plan,) = plans
    assert r.dram_hidden > 0 and plan["full"] == r.cycles == cycles


def test_warm_inputs_fill_the_l3_in_argument_order_the_rest_start_in_dram():
    from infs.sim import Machine

    m = Machine("tiny")  # a 4,096-byte L3
    a, b, c, d = (np.zeros(n, np.float32) for n in (500, 500, 100, 10))
    assert [x is c for x in m.mark_resident([a, a, b, c, d], capacity=m.cfg.l3_bytes)] == [True, False]
    assert m.is_resident(a) and m.is_resident(b) and not m.is_resident(c) and not m.is_resident(d)
    # vec_add at n = 500 on tiny: A and B (2,000 bytes each) fit, C does not
    w = WORKLOADS["vec_add"]
    sizes = {**w.sizes("small"), "n": 500}
    arrays = w.inputs(sizes, 3)
    rep = run_program(api.parse_file(w.path), w.call_args(arrays, sizes), w.entry, RunOptions(config="tiny", mode="in", machine_mode="analysis"))
    assert rep.machine.is_resident(arrays["A"]) and rep.machine.is_resident(arrays["B"]) and not rep.machine.is_resident(arrays["C"])
    rep = run_program(api.parse_file(w.path), w.call_args(arrays, sizes), w.entry, RunOptions(config="tiny", mode="near"))
    warm = rep.stats.total_cycles
    rep = run_program(api.parse_file(w.path), w.call_args(w.inputs(sizes, 3), sizes), w.entry, RunOptions(config="tiny", mode="near", warm=False))
    # near memory: a footprint beyond the L3 comes from DRAM however warm (``near.data_traffic``)
    assert warm == rep.stats.total_cycles
    small = {**sizes, "n": 100}  # 1,200 bytes: warm is cheaper
    warm = run_program(api.parse_file(w.path), w.call_args(w.inputs(small, 3), small), w.entry, RunOptions(config="tiny", mode="near")).stats.total_cycles
    cold = run_program(api.parse_file(w.path), w.call_args(w.inputs(small, 3), small), w.entry, RunOptions(config="tiny", mode="near", warm=False)).stats.total_cycles
    assert warm < cold


@pytest.mark.parametrize("dims", [(0,), (1,), (0, 1)])
def test_a_region_empty_along_a_dim_is_not_split_into_zero_chunks(dims):
    """Found by test_regress_inmemory's random reductions: a 3x3x0 domain forced onto 1x1x128
    tiles (too large for tiny's arrays) made the chunk search split an empty dim into 0
    chunks (ZeroDivisionError).  An empty box is not chunked; the run matches the reference."""
    import test_regress_inmemory as R

    perm, store = (0, 1, 2), tuple(range(3 - len(dims)))
    module = api.parse_text(R.reduce_program(3, dims, "add", "f32", perm, (0, 0, 0), store))
    args = R.make_args(3, dims, (3, 3, 0), "f32", perm, (0, 0, 0), store, "add", 1)
    want = R.reference(module, args)
    report, got = R.run_in(module, args, "tiny", (1, 1, 128))
    R.assert_same(report.results, got, *want, "tiny tiles 1x1x128")
    assert not any(r.chunks for r in report.regions)


def test_a_near_memory_region_beyond_the_l3_leaves_what_does_not_fit_in_dram():
    """A near-memory region is charged its footprint from DRAM when it exceeds the L3; its
    arrays then count as in the L3 only while they fit (before: all of them, so a later
    in-memory region on them skipped their DRAM transfer)."""
    w = WORKLOADS["vec_add"]
    for n, resident in ((500, [True, True, False]), (100, [True, True, True])):
        sizes = {**w.sizes("small"), "n": n}
        arrays = w.inputs(sizes, 3)
        rep = run_program(api.parse_file(w.path), w.call_args(arrays, sizes), w.entry, RunOptions(config="tiny", mode="near", warm=False))
        assert [rep.machine.is_resident(arrays[k]) for k in "ABC"] == resident, n


# Two stores to one array at row offsets (dwt2d's T -> O): O[d0 + C1, d1] and
# O[d0 + H + C2, d1] over d0 in [0, H).  Apart when C2 >= C1 (chunks of d0: their
# start and size symbolic, tensorize proves them apart from the chunk's rows lying
# in [0, H)); when C2 < C1 the stores overlap and the later one wins: chunks of d0
# MUST be refused (their order would not be the region's).
OFFSET_STORES = """func.func @f(%A: memref<?x?xf32>, %O: memref<?x?xf32>, %h: index, %w: index, %p: index) {{
  stream.region ins(%A, %O : memref<?x?xf32>, memref<?x?xf32>) syms(H = %h : index, W = %w : index, P = %p : index) domain [0:H, 0:W] iterators [parallel, parallel] {{
  ^bb0(%a: memref<?x?xf32>, %o: memref<?x?xf32>, %H: index, %W: index, %P: index):
    %x = stream.load %a[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %y = stream.compute(%x : !stream.stream<f32>) -> !stream.stream<f32> {{
    ^bb1(%u: f32):
      %c = arith.constant 2.0 : f32
      %v = arith.mulf %u, %c : f32
      stream.yield %v : f32
    }}
    stream.store %x -> %o[d0 + {first}, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.store %y -> %o[d0 + {second}, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }}
  func.return
}}"""


@settings(max_examples=examples(10, "INFS_CHUNK_EXAMPLES"), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(h=st.integers(6, 40), w=st.sampled_from([16, 32]), c1=st.integers(0, 3), c2=st.integers(-3, 3), p=st.integers(0, 3),
       symbolic=st.booleans(), swap=st.booleans())  # fmt: skip
def test_random_offset_stores_in_chunks_match_the_reference_and_overlapping_ones_are_refused(h, w, c1, c2, p, symbolic, swap):
    c2 = max(c2, -h)  # (rows stay >= 0)
    base = "P + " if symbolic else ""
    first, second = f"{base}{c1}", f"{base}H + {c2}"
    if swap:  # the store at the higher rows first
        first, second = second, first
    text = OFFSET_STORES.format(first=first, second=second)
    rng = np.random.default_rng(h * 100 + w)
    A = rng.standard_normal((h, w)).astype(np.float32)
    rows = (p if symbolic else 0) + h + max(c1, h + c2) + 1
    want = np.full((rows, w), -1.0, np.float32)
    run_function(api.parse_text(text), {"A": A.copy(), "O": want, "h": h, "w": w, "p": p}, "f")
    O = np.full((rows, w), -1.0, np.float32)
    rep = run_program(api.parse_text(text), {"A": A, "O": O, "h": h, "w": w, "p": p}, "f", RunOptions(config="tiny", mode="in"))
    (rec,) = rep.regions
    assert np.array_equal(O, want), (rec.mode, rec.chunk_shape, rec.not_honoured)
    if c2 < c1:  # the stores overlap: chunks of d0 would reorder them
        assert "d0" not in rec.chunk_shape, (rec.chunk_shape, rec.reason)
        event("overlap: " + ("chunks of d1" if rec.chunks else rec.mode))
    else:
        # apart: chunks of d0 are not refused as unsound (they may not lay out: a chunk's
        # lattice spans the rows between its two stores)
        for why in ("may overlap", "at two access maps", "not valid"):
            assert why not in rec.not_honoured, rec.not_honoured
        event(f"apart: {'chunks ' + rec.chunk_shape.split(':')[0] if rec.chunks else rec.mode}")


# A pivot row read beside the rows a region updates (gauss_elim's A[k, d1]):
# below them (rows [K + 1 + E, N)), above them (rows [0, K - E)) -- chunks of d0
# are sound, the verifier proving row K outside a chunk's symbolic rows -- or
# the last row the region updates ([0, K + 1): only an anti-dependence, which the
# region's order keeps), where chunks of d0 MUST be refused: one of them holds the
# pivot row.
PIVOT = """func.func @f(%A: memref<?x?xf32>, %n: index, %w: index, %k: index) {{
  stream.region ins(%A : memref<?x?xf32>) syms(N = %n : index, W = %w : index, K = %k : index) domain [{rows}, 0:W] iterators [parallel, parallel] {{
  ^bb0(%a: memref<?x?xf32>, %N: index, %W: index, %K: index):
    %p = stream.load %a[K, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %x = stream.load %a[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %y = stream.compute(%x, %p : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {{
    ^bb1(%u: f32, %v: f32):
      %c = arith.constant 0.5 : f32
      %t = arith.mulf %v, %c : f32
      %r = arith.subf %u, %t : f32
      stream.yield %r : f32
    }}
    stream.store %y -> %a[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }}
  func.return
}}"""


@settings(max_examples=examples(10, "INFS_CHUNK_EXAMPLES"), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(where=st.sampled_from(["below", "above", "last"]), n=st.integers(8, 48), w=st.sampled_from([16, 32]), e=st.integers(0, 3), data=st.data())
def test_random_pivot_rows_in_chunks_match_the_reference_and_a_pivot_inside_is_refused(where, n, w, e, data):
    if where == "below":
        k = data.draw(st.integers(0, n - e - 2), label="k")
        rows = f"K + {e + 1}:N"
    elif where == "above":
        k = data.draw(st.integers(e + 1, n - 1), label="k")
        rows = f"0:K - {e}" if e else "0:K"
    else:
        k = data.draw(st.integers(1, n - 1), label="k")
        rows = "0:K + 1"
    text = PIVOT.format(rows=rows)
    rng = np.random.default_rng(n * 10 + k)
    A = rng.standard_normal((n, w)).astype(np.float32)
    want = A.copy()
    run_function(api.parse_text(text), {"A": want, "n": n, "w": w, "k": k}, "f")
    rep = run_program(api.parse_text(text), {"A": A, "n": n, "w": w, "k": k}, "f", RunOptions(config="tiny", mode="in"))
    (rec,) = rep.regions
    assert np.array_equal(A, want), (rec.mode, rec.chunk_shape, rec.not_honoured)
    if where == "last":
        assert "d0" not in rec.chunk_shape, (rec.chunk_shape, rec.reason)
        event("inside: " + ("chunks of d1" if rec.chunks else rec.mode))
    else:
        for why in ("loop-carried", "another access map", "not valid", "does not tensorize", "not only where"):
            assert why not in rec.not_honoured, rec.not_honoured
        event(f"{where}: {'chunks ' + rec.chunk_shape.split(':')[0] if rec.chunks else rec.mode}")


def _region(text: str):
    (region,) = [op for op in api.parse_text(text).walk() if op.name == "stream.region"]
    return region


def test_the_checks_accept_a_chunk_only_by_its_assumptions_and_only_true_ones():
    """What proves a chunk sound is the chunk's rows inside the region's
    (``chunk_assumptions``): without them the verifier sees gauss_elim's pivot row
    inside the chunk and tensorize sees dwt2d's two stores overlap; a wrong
    assumption proves nothing, and the runtime checks the true ones on every chunk."""
    from infs.dialects import stream
    from infs.passes.tensorize import tensorize_region
    from infs.runtime.chunking import _chunk_region, assumptions_unmet, chunk_assumptions, chunk_names, chunk_region

    below = _region(PIVOT.format(rows="K + 1:N"))
    names = chunk_names(below, (0,))
    proof, _ = _chunk_region(below, (0,), names, {})  # the pivot row read on the array itself
    assert proof.assumptions and stream.loop_carried_dependence(proof) is None
    saved = proof.assumptions
    proof.assumptions = ()
    assert "loop-carried dependence" in (stream.loop_carried_dependence(proof) or "")
    from infs.dialects.lattice import Affine

    proof.assumptions = (Affine.of("XLO") - Affine.of("K"), saved[1])  # XLO >= K: row K may be the chunk's first
    assert "loop-carried dependence" in (stream.loop_carried_dependence(proof) or "")
    # the chunk the runtime runs reads the pivot row through its own view
    chunked, _ = chunk_region(below, (0,))
    assert [src for src, _ in chunked.array_sources] == [0, 0] and chunked.array_sources[1][1]
    env, facts = {"N": 20, "W": 16, "K": 4, "CH": 5}, chunk_assumptions(below, (0,))
    assert assumptions_unmet(facts, {**env, "XLO": 5}) is None and assumptions_unmet(facts, {**env, "XLO": 15}) is None
    assert "XLO" in (assumptions_unmet(facts, {**env, "XLO": 4}) or "")  # the pivot row inside
    assert "XLO" in (assumptions_unmet(facts, {**env, "XLO": 16}) or "")  # past the region's last row

    stores = _region(OFFSET_STORES.format(first="0", second="H"))
    chunked, _ = chunk_region(stores, (0,))
    assert tensorize_region(chunked)[1] is None
    chunked.assumptions = ()
    assert "may overlap" in (tensorize_region(chunked)[1] or "")
    overlapping = _region(OFFSET_STORES.format(first="1", second="H"))
    chunked, _ = chunk_region(overlapping, (0,))  # (dim_unsafe refuses it first; tensorize would too)
    assert "may overlap" in (tensorize_region(chunked)[1] or "")
    assert "two access maps" in (dim_unsafe(overlapping, 0, env={"H": 10, "W": 16, "P": 0}) or "")
