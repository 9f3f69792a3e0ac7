"""Regressions of chunked in-memory runs (``infs.runtime.chunking``):
adversarial regions on machines of a few 16- or 64-bitline arrays, so that
small arrays already need many chunks, each run forced in memory and compared
bit for bit (the sign of a zero included) with the stream reference."""

from __future__ import annotations

import numpy as np
import pytest

from infs import api
from infs.hardware import load_config
from infs.runtime.driver import RunOptions, run_program
from infs.runtime.host import run_function

# one bank of two 16-bitline arrays; one bank of two 64-bitline arrays (an i1
# lattice needs 64 elements per cache line in a bank: 16-bitline arrays refuse it)
MICRO = load_config("tiny", name="micro-32", banks=1, mesh_rows=1, mesh_cols=1, mem_ctrls=1)
WIDE = load_config("tiny", name="wide-128", bitlines=64, banks=1, mesh_rows=1, mesh_cols=1, mem_ctrls=1)


def _copy(args: dict) -> dict:
    return {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in args.items()}


def _same(a, b) -> bool:
    """Equal values of one dtype, a float's zero sign and NaNs included."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "f":
        return bool(np.array_equal(a, b, equal_nan=True) and np.array_equal(np.signbit(a), np.signbit(b)))
    return bool(np.array_equal(a, b))


def _run_both(text: str, args: dict, config, **options):
    """(reference arrays and results, in-memory arrays and results, the regions' records)."""
    ref = _copy(args)
    want = run_function(api.parse_text(text), ref, None)
    got = _copy(args)
    rep = run_program(api.parse_text(text), got, None, RunOptions(config=config, mode="in", **options))
    return (ref, list(want)), (got, list(rep.results)), rep.regions


def _assert_same(text: str, args: dict, config, chunked: bool = True, **options):
    (ref, want), (got, res), regions = _run_both(text, args, config, **options)
    if chunked:
        assert all(r.mode == "in" and r.chunks >= 2 for r in regions), [(r.mode, r.chunks, r.not_honoured) for r in regions]
    for k, v in ref.items():
        if isinstance(v, np.ndarray):
            assert _same(got[k], v), (k, got[k], v)
    for i, (x, y) in enumerate(zip(res, want)):
        assert _same(x, y), (i, x, y)
    return regions


SCALAR_FOLD = """func.func @f(%A: memref<?x{t}>, %n: index) -> {t} {{
  %s = stream.region ins(%A : memref<?x{t}>) syms(N = %n : index) domain [0:N] iterators [reduction] -> {t} {{
  ^bb0(%a: memref<?x{t}>, %N: index):
    %x = stream.load %a[d0] : memref<?x{t}> -> !stream.stream<{t}>
    %r = stream.reduce {kind} %x over [0] : !stream.stream<{t}> -> {t}
    stream.yield %r : {t}
  }}
  func.return %s : {t}
}}"""

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


@pytest.mark.parametrize("kind", ["min", "max"])
def test_float_min_max_results_keep_the_sign_of_zero_across_chunks(kind):
    """A float min (max) over chunks is arith.minimumf (maximumf): -0.0 < +0.0.  The
    chunks' results were folded with np.minimum, which keeps whichever zero comes
    first: a min over +0.0s with one -0.0 in a middle chunk gave +0.0."""
    n = 301
    zero, other = (np.float32(0.0), np.float32(-0.0)) if kind == "min" else (np.float32(-0.0), np.float32(0.0))
    A = np.full(n, zero, np.float32)
    A[250] = other
    _assert_same(SCALAR_FOLD.format(t="f32", kind=kind), {"A": A, "n": n}, MICRO)


@pytest.mark.parametrize("kind", ["add", "min", "max"])
def test_i1_results_fold_across_chunks_as_signed_bits(kind):
    """An i1 fold is signed (true is -1): add is xor, min or, max and.  The chunks'
    results were folded with np.add/np.minimum/np.maximum on bools (or, and, or):
    two trues in two chunks summed to true, a min with one true chunk to false."""
    n = 1001
    base = kind == "max"
    A = np.full(n, base, bool)
    A[[3, 600]] = not base
    _assert_same(SCALAR_FOLD.format(t="i1", kind=kind), {"A": A, "n": n}, WIDE)


@pytest.mark.parametrize("t,kind", [("f32", "min"), ("f32", "max"), ("i1", "add"), ("i1", "min"), ("i1", "max")])
def test_stored_partials_fold_as_the_region_folds(t, kind):
    """The stored partials of a chunked reduction dim (C[j] = fold_i A[i, j], i too
    long for one chunk) are folded into the stored cells with the region's own
    semantics: the sign of a float zero, an i1's signed bits."""
    m, n = (300, 4) if t == "f32" else (700, 2)
    dt = np.float32 if t == "f32" else np.bool_
    if t == "f32":
        zero, other = (0.0, -0.0) if kind == "min" else (-0.0, 0.0)
        A = np.full((m, n), zero, dt)
        A[[5, 250], :] = other
    else:
        A = np.full((m, n), kind == "max", dt)
        A[[3, 600], :] = kind != "max"
    regions = _assert_same(COLUMN_FOLD.format(t=t, kind=kind), {"A": A, "C": np.zeros(n, dt), "m": m, "n": n}, MICRO if t == "f32" else WIDE)
    assert "d0:" in regions[0].chunk_shape, regions[0].chunk_shape  # the reduced dim is chunked: partials folded


# B[j] = X[i, j] (cells that do not move with i: chunks of i refused) and
# A[i + j] = X[i, j] (a cell written by several iterations: the region's last
# write, the largest i, wins)
LAST_WRITE = """func.func @f(%X: memref<?x?xf32>, %A: memref<?xf32>, %B: memref<?xf32>, %n: index, %m: index) {
  stream.region ins(%X, %A, %B : memref<?x?xf32>, memref<?xf32>, memref<?xf32>) syms(N = %n : index, M = %m : index) domain [0:N, 0:M] iterators [parallel, parallel] {
  ^bb0(%x: memref<?x?xf32>, %a: memref<?xf32>, %b: memref<?xf32>, %N: index, %M: index):
    %v = stream.load %x[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    stream.store %v -> %b[d1] : !stream.stream<f32> -> memref<?xf32>
    stream.store %v -> %a[{cell}] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}"""


def test_a_cell_written_by_iterations_in_two_chunks_of_an_inner_dim_is_not_chunked_there():
    """Chunks of d1 alone do not keep the region's order: A[d0 + d1] is written last by
    the largest d0, but the last chunk of d1 writing it has the smallest.  They were run
    (the store 'written at one access map that moves with d1'), leaving A[k] from the
    wrong iteration; now the region is refused in chunks, with the reason, and runs
    near memory with the right values."""
    n, m = 4, 40
    rng = np.random.default_rng(1)
    args = {"X": rng.standard_normal((n, m)).astype(np.float32), "A": np.zeros(n + m, np.float32), "B": np.zeros(m, np.float32), "n": n, "m": m}
    (ref, _), (got, _), (r,) = _run_both(LAST_WRITE.replace("{cell}", "d0 + d1"), args, MICRO)
    assert _same(got["A"], ref["A"]) and _same(got["B"], ref["B"])
    assert r.mode == "near" and "%A is written at [d0 + d1], where iterations in different rows of dim d1 write one cell" in r.not_honoured, r.not_honoured
    # a cell per iteration (A[d1 + 40 * d0], d1 in [0, 40): d1 told apart by the cell) still runs in chunks of d1
    args["A"] = np.zeros(n * m, np.float32)
    (ref, _), (got, _), (r,) = _run_both(LAST_WRITE.replace("{cell}", "d1 + d0 * 40"), args, MICRO)
    assert _same(got["A"], ref["A"]) and _same(got["B"], ref["B"])
    assert r.mode == "in" and r.chunks >= 2 and r.chunk_shape.startswith("d1:"), (r.mode, r.chunk_shape, r.not_honoured)


def test_two_stored_reductions_at_one_map_fold_each_into_its_own_array():
    """C[j] = sum_i A[i, j] and E[j] = max_i A[i, j], i too long for one chunk: each
    chunk's partials are folded into the cells each store wrote.  The fold found a
    store's array as the first array stored at the same map, so C was folded twice
    (sum, then max over the sums) and E never: both came out wrong."""
    text = """func.func @f(%A: memref<?x?xi32>, %C: memref<?xi32>, %E: memref<?xi32>, %m: index, %n: index) {
  stream.region ins(%A, %C, %E : memref<?x?xi32>, memref<?xi32>, memref<?xi32>) syms(M = %m : index, N = %n : index) domain [0:M, 0:N] iterators [reduction, parallel] {
  ^bb0(%a: memref<?x?xi32>, %c: memref<?xi32>, %e: memref<?xi32>, %M: index, %N: index):
    %x = stream.load %a[d0, d1] : memref<?x?xi32> -> !stream.stream<i32>
    %s = stream.reduce add %x over [0] : !stream.stream<i32> -> !stream.stream<i32>
    %t = stream.reduce max %x over [0] : !stream.stream<i32> -> !stream.stream<i32>
    stream.store %s -> %c[d1] : !stream.stream<i32> -> memref<?xi32>
    stream.store %t -> %e[d1] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}"""
    m, n = 300, 3
    A = np.random.default_rng(1).integers(-100, 100, (m, n)).astype(np.int32)
    (r,) = _assert_same(text, {"A": A, "C": np.zeros(n, np.int32), "E": np.zeros(n, np.int32), "m": m, "n": n}, MICRO)
    assert "d0:" in r.chunk_shape, r.chunk_shape


def test_single_rows_of_the_last_chunkable_dim_are_tried_when_pairs_do_not_fit():
    """B[i, j] = A[i, j] and C[i] = A[i, j] (the last j wins: only i can be chunked),
    100 rows of 20 on a machine of 32 bitlines: rows fit one at a time, not two.  The
    search split the last chunkable dim in 2, 4, ..., 64 chunks only (64 chunks of 100
    rows are pairs), so the region ran near memory although 100 chunks of one row fit."""
    text = """func.func @f(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?xf32>, %n: index, %m: index) {
  stream.region ins(%A, %B, %C : memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>) syms(N = %n : index, M = %m : index) domain [0:N, 0:M] iterators [parallel, parallel] {
  ^bb0(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?xf32>, %N: index, %M: index):
    %x = stream.load %a[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    stream.store %x -> %b[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.store %x -> %c[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}"""
    n, m = 100, 20
    A = np.random.default_rng(2).standard_normal((n, m)).astype(np.float32)
    (r,) = _assert_same(text, {"A": A, "B": np.zeros((n, m), np.float32), "C": np.zeros(n, np.float32), "n": n, "m": m}, MICRO)
    assert r.chunks == 100 and r.chunk_shape == "d0:1", (r.chunks, r.chunk_shape)


# A host loop whose first iteration runs both regions over nothing (I = 0): the
# update B[d0] += A[d0] and a max over B[0:I) (a fold of nothing: -inf)
GROWING = """func.func @f(%A: memref<?xf32>, %B: memref<?xf32>, %n: index, %s: index) -> f32 {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %s iter_args(%acc = %z) -> (f32) {
    stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(I = %i : index) domain [0:I] iterators [parallel] {
    ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %I: index):
      %x = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
      %y = stream.load %b[d0] : memref<?xf32> -> !stream.stream<f32>
      %w = stream.compute(%x, %y : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%u: f32, %v: f32):
        %t = arith.addf %u, %v : f32
        stream.yield %t : f32
      }
      stream.store %w -> %b[d0] : !stream.stream<f32> -> memref<?xf32>
      stream.yield
    }
    %m = stream.region ins(%B : memref<?xf32>) syms(I = %i : index) domain [0:I] iterators [reduction] -> f32 {
    ^bb0(%b: memref<?xf32>, %I: index):
      %y = stream.load %b[d0] : memref<?xf32> -> !stream.stream<f32>
      %q = stream.reduce max %y over [0] : !stream.stream<f32> -> f32
      stream.yield %q : f32
    }
    %acc2 = arith.addf %acc, %m : f32
    scf.yield %acc2 : f32
  }
  func.return %r : f32
}"""


def test_a_region_over_nothing_runs_in_memory_as_no_invocation_even_when_its_arrays_do_not_fit():
    """A region whose domain is empty at this call computes nothing; its whole graph, over
    arrays that are not cut to an empty box, does not fit 'tiny', and the chunk search
    refused it ('the outer dim is empty'): forced in memory it ran near memory instead,
    and under --strict the program failed on a region that has nothing to do.  It now runs
    in memory as no graph invocation (its result the fold's identity, -inf, as the
    reference's); a fold stored over an empty reduction dim still stores its identities."""
    n = 200
    A = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    (ref, want), (got, res), regions = _run_both(GROWING, {"A": A, "B": np.zeros(n, np.float32), "n": n, "s": 37}, "tiny", strict=True)
    assert _same(got["B"], ref["B"]) and _same(res[0], want[0]), (res, want)
    first = regions[:2]
    assert all(r.mode == "in" and r.graphs == 0 and "its domain is empty" in r.reason for r in first), [(r.mode, r.reason) for r in first]
    assert all(r.chunks >= 2 for r in regions[2:])
    # C[j] = max_i A[i, j] over no i: every C[j] is -inf (not a region over nothing)
    text = COLUMN_FOLD.format(t="f32", kind="max")
    m, n = 0, 300
    args = {"A": np.zeros((m, n), np.float32), "C": np.zeros(n, np.float32), "m": m, "n": n}
    (ref, _), (got, _), (r,) = _run_both(text, args, "tiny")
    assert np.all(ref["C"] == -np.inf) and _same(got["C"], ref["C"]), (r.mode, r.reason)
