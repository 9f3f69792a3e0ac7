"""The reference evaluator of ``stream.region`` (infs.runtime.reference, run
through infs.runtime.host.run_function) against hand-written numpy.

Programs are MLIR text: ``program(...)`` wraps a region body into a host
function whose parameters are named like the arguments given to ``run``.
Inside the region body, array ``X`` is the block argument ``%mem_X`` and
symbol/scalar ``S`` is ``%sym_S``.
"""

from __future__ import annotations

import math
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infs import api
from infs.runtime.host import run_function
from infs.runtime.scalar_ops import EvaluationError

CTX = api.make_context()
SETTINGS = settings(max_examples=50, deadline=None)

F32 = "!stream.stream<f32>"


def mt(rank: int, elem: str = "f32") -> str:
    return "memref<" + "?x" * rank + elem + ">"


def program(arrays: dict[str, str], syms: dict[str, str], domain: str, iterators: str, body: str, results: tuple[str, ...] = ()) -> str:
    """A host function running one region; the function returns the region's results."""
    params = [f"%{n}: {t}" for n, t in arrays.items()] + [f"%{n}: {t}" for n, t in syms.items()]
    res = f" -> {', '.join(results)}" if results else ""
    ins = f"ins({', '.join('%' + n for n in arrays)} : {', '.join(arrays.values())})" if arrays else ""
    sym = f"syms({', '.join(f'{n} = %{n} : {t}' for n, t in syms.items())})" if syms else ""
    bargs = [f"%mem_{n}: {t}" for n, t in arrays.items()] + [f"%sym_{n}: {t}" for n, t in syms.items()]
    names = ", ".join(f"%r{i}" for i in range(len(results)))
    lhs = f"{names} = " if results else ""
    ret = f"func.return {names} : {', '.join(results)}" if results else "func.return"
    return (
        f"func.func @f({', '.join(params)}){res} {{\n"
        f"  {lhs}stream.region {ins} {sym} domain {domain} iterators [{iterators}]{res} {{\n"
        f"  ^bb0({', '.join(bargs)}):\n{body}\n  }}\n  {ret}\n}}\n"
    )


_CACHE: dict[str, object] = {}


def run(src: str, **args):
    module = _CACHE.get(src)
    if module is None:
        module = _CACHE[src] = api.parse_text(src, ctx=CTX)
    return run_function(module, args)


def compute(inputs: list[tuple[str, str]], ret: str, lines: str, name: str = "%s") -> str:
    """``name = stream.compute(inputs) { ^bb(%x0, %x1, ...): lines }``; lines use %x<i>."""
    ops = ", ".join(v for v, _ in inputs)
    types = ", ".join(t for _, t in inputs)
    elem = lambda t: t[len("!stream.stream<") : -1] if t.startswith("!stream") else t  # noqa: E731
    args = ", ".join(f"%x{i}: {elem(t)}" for i, (_, t) in enumerate(inputs))
    return f"    {name} = stream.compute({ops} : {types}) -> {ret} {{\n    ^bb1({args}):\n{lines}\n    }}"


def rng_for(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def f32(rng, shape, scale=4.0) -> np.ndarray:
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def small_ints_f32(rng, shape) -> np.ndarray:
    """Integer-valued f32 data: sums of these are exact in any order."""
    return rng.integers(-8, 9, size=shape).astype(np.float32)


def assert_bits_equal(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.view(f"u{got.dtype.itemsize}"), want.view(f"u{want.dtype.itemsize}"))


# ---------------------------------------------------------------------------
# Affine loads: offsets, broadcast, transpose, strides, symbols
# ---------------------------------------------------------------------------

STENCIL_1D = program(
    {"A": mt(1), "B": mt(1)},
    {"N": "index"},
    "[1:N - 1]",
    "parallel",
    """    %l = stream.load %mem_A[d0 - 1] : memref<?xf32> -> !stream.stream<f32>
    %c = stream.load %mem_A[d0] : memref<?xf32> -> !stream.stream<f32>
    %r = stream.load %mem_A[d0 + 1] : memref<?xf32> -> !stream.stream<f32>
"""
    + compute([("%l", F32), ("%c", F32), ("%r", F32)], F32, "      %t = arith.addf %x0, %x1 : f32\n      %u = arith.addf %t, %x2 : f32\n      stream.yield %u : f32")
    + """
    stream.store %s -> %mem_B[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield""",
)


@SETTINGS
@given(st.integers(0, 40), st.integers(0, 2**31))
def test_stencil1d_offsets(n, seed):
    rng = rng_for(seed)
    A = f32(rng, n)
    B = f32(rng, n)
    want = B.copy()
    if n >= 3:
        want[1:-1] = (A[:-2] + A[1:-1]) + A[2:]
    assert run(STENCIL_1D, A=A, B=B, N=n) == ()
    assert_bits_equal(B, want)


SHIFT_2D = program(
    {"A": mt(2), "B": mt(2)},
    {"P": "index", "Q": "index", "M": "index", "N": "index", "o": "index"},
    "[P:M, Q:N]",
    "parallel, parallel",
    """    %x = stream.load %mem_A[d0 + o - 2, d1 - 1] : memref<?x?xf32> -> !stream.stream<f32>
    %y = stream.load %mem_A[d0, d1 + 3] : memref<?x?xf32> -> !stream.stream<f32>
"""
    + compute([("%x", F32), ("%y", F32)], F32, "      %t = arith.subf %x0, %x1 : f32\n      stream.yield %t : f32")
    + """
    stream.store %s -> %mem_B[d0 - P, d1 + 1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield""",
)


@SETTINGS
@given(st.integers(1, 4), st.integers(0, 6), st.integers(2, 3), st.integers(0, 5), st.integers(2, 4), st.integers(0, 2**31))
def test_2d_offsets_with_symbols(p, m_ext, q, n_ext, o, seed):
    """B[i - P, j + 1] = A[i + o - 2, j - 1] - A[i, j + 3] over [P:M, Q:N]."""
    rng = rng_for(seed)
    M, N = p + m_ext, q + n_ext
    rows = max(M + o - 2, M) + 1
    A = f32(rng, (rows, N + 3))
    B = f32(rng, (m_ext + 1, N + 2))
    want = B.copy()
    i, j = np.meshgrid(np.arange(p, M), np.arange(q, N), indexing="ij")
    want[i - p, j + 1] = A[i + o - 2, j - 1] - A[i, j + 3]
    run(SHIFT_2D, A=A, B=B, P=p, Q=q, M=M, N=N, o=o)
    assert_bits_equal(B, want)


BROADCAST = program(
    {"A": mt(2), "R": mt(1), "C": mt(1), "B": mt(2)},
    {"M": "index", "N": "index"},
    "[0:M, 0:N]",
    "parallel, parallel",
    """    %a = stream.load %mem_A[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %r = stream.load %mem_R[d1] : memref<?xf32> -> !stream.stream<f32>
    %c = stream.load %mem_C[d0 + 1] : memref<?xf32> -> !stream.stream<f32>
"""
    + compute([("%a", F32), ("%r", F32), ("%c", F32)], F32, "      %t = arith.mulf %x0, %x1 : f32\n      %u = arith.addf %t, %x2 : f32\n      stream.yield %u : f32")
    + """
    stream.store %s -> %mem_B[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield""",
)


@SETTINGS
@given(st.integers(0, 7), st.integers(0, 7), st.integers(0, 2**31))
def test_broadcast_dropped_dims(m, n, seed):
    rng = rng_for(seed)
    A, R, C, B = f32(rng, (m, n)), f32(rng, n), f32(rng, m + 1), f32(rng, (m, n))
    want = A * R[None, :] + C[1:, None]
    run(BROADCAST, A=A, R=R, C=C, B=B, M=m, N=n)
    assert_bits_equal(B, want)


TRANSPOSE_3D = program(
    {"A": mt(3), "B": mt(3), "T": mt(2)},
    {"I": "index", "J": "index", "K": "index"},
    "[0:I, 0:J, 0:K]",
    "parallel, parallel, parallel",
    """    %a = stream.load %mem_A[d2, d0, d1] : memref<?x?x?xf32> -> !stream.stream<f32>
    %t = stream.load %mem_T[d1, d0] : memref<?x?xf32> -> !stream.stream<f32>
"""
    + compute([("%a", F32), ("%t", F32)], F32, "      %m = arith.maximumf %x0, %x1 : f32\n      stream.yield %m : f32")
    + """
    stream.store %s -> %mem_B[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
    stream.yield""",
)


@SETTINGS
@given(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4), st.integers(0, 2**31))
def test_transpose_permuted_dims(i, j, k, seed):
    rng = rng_for(seed)
    A, T, B = f32(rng, (k, i, j)), f32(rng, (j, i)), f32(rng, (i, j, k))
    want = np.maximum(np.transpose(A, (1, 2, 0)), T.T[:, :, None])
    run(TRANSPOSE_3D, A=A, B=B, T=T, I=i, J=j, K=k)
    assert_bits_equal(B, want)


STRIDED = program(
    {"A": mt(1), "B": mt(1), "C": mt(1)},
    {"N": "index"},
    "[0:N]",
    "parallel",
    """    %a = stream.load %mem_A[2*d0 + 1] : memref<?xf32> -> !stream.stream<f32>
    %b = stream.load %mem_A[3*d0] : memref<?xf32> -> !stream.stream<f32>
"""
    + compute([("%a", F32), ("%b", F32)], F32, "      %m = arith.mulf %x0, %x1 : f32\n      stream.yield %m : f32")
    + """
    stream.store %s -> %mem_B[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.store %a -> %mem_C[2*d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield""",
)


@SETTINGS
@given(st.integers(0, 20), st.integers(0, 2**31))
def test_strided_maps(n, seed):
    rng = rng_for(seed)
    A = f32(rng, max(3 * n - 2, 2 * n, 1))
    B, C = f32(rng, n), f32(rng, 2 * n + 1)
    wantB = A[1 : 2 * n : 2] * A[0 : 3 * n : 3]
    wantC = C.copy()
    wantC[0 : 2 * n : 2] = A[1 : 2 * n : 2]
    run(STRIDED, A=A, B=B, C=C, N=n)
    assert_bits_equal(B, wantB)
    assert_bits_equal(C, wantC)


ROW_K = program(
    {"A": mt(2), "B": mt(1)},
    {"k": "index", "N": "index"},
    "[0:N]",
    "parallel",
    """    %a = stream.load %mem_A[k, d0] : memref<?x?xf32> -> !stream.stream<f32>
    %p = stream.load %mem_A[k, k] : memref<?x?xf32> -> !stream.stream<f32>
"""
    + compute([("%a", F32), ("%p", F32)], F32, "      %d = arith.divf %x0, %x1 : f32\n      stream.yield %d : f32")
    + """
    stream.store %s -> %mem_B[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield""",
)


@SETTINGS
@given(st.integers(1, 8), st.data())
def test_symbols_in_maps(n, data):
    k = data.draw(st.integers(0, n - 1))
    rng = rng_for(data.draw(st.integers(0, 2**31)))
    A = f32(rng, (n, n)) + np.float32(20)
    B = f32(rng, n)
    run(ROW_K, A=A, B=B, k=k, N=n)
    assert_bits_equal(B, A[k, :] / A[k, k])


HOST_LOOP = """
func.func @rows(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %m: index, %n: index, %alpha: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %m step %c1 {
    stream.region ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) syms(k = %k : index, N = %n : index, alpha = %alpha : f32) domain [0:N] iterators [parallel] {
    ^bb0(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %kk: index, %nn: index, %al: f32):
      %x = stream.load %a[k, d0] : memref<?x?xf32> -> !stream.stream<f32>
      %y = stream.load %b[k, N - 1 - d0] : memref<?x?xf32> -> !stream.stream<f32>
      %s = stream.compute(%x, %y, %al : !stream.stream<f32>, !stream.stream<f32>, f32) -> !stream.stream<f32> {
      ^bb1(%u: f32, %v: f32, %w: f32):
        %t = arith.mulf %u, %w : f32
        %r = arith.addf %t, %v : f32
        stream.yield %r : f32
      }
      stream.store %s -> %a[k, d0] : !stream.stream<f32> -> memref<?x?xf32>
      stream.yield
    }
  }
  func.return
}
"""


@SETTINGS
@given(st.integers(0, 5), st.integers(0, 6), st.floats(-4, 4, width=32), st.integers(0, 2**31))
def test_host_loop_around_region(m, n, alpha, seed):
    """A host scf.for binds the symbol k; the region updates row k in place."""
    rng = rng_for(seed)
    A, B = f32(rng, (m, n)), f32(rng, (m, n))
    want = A * np.float32(alpha) + B[:, ::-1]
    run(HOST_LOOP, A=A, B=B, m=m, n=n, alpha=alpha)
    assert_bits_equal(A, want)


TWO_REGIONS = """
func.func @two(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xi1>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %nn: index):
    %x = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%x : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u: f32):
      %one = arith.constant 1.0 : f32
      %r = arith.addf %u, %one : f32
      stream.yield %r : f32
    }
    stream.store %s -> %b[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  %tot = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
    %r = stream.region ins(%B, %C : memref<?xf32>, memref<?xi1>) syms(k = %k : index) domain [0:k + 1] iterators [reduction] -> f32 {
    ^bb0(%b: memref<?xf32>, %c: memref<?xi1>, %kk: index):
      %x = stream.load %b[d0] : memref<?xf32> -> !stream.stream<f32>
      %p = stream.compute(%x : !stream.stream<f32>) -> !stream.stream<i1> {
      ^bb1(%u: f32):
        %two = arith.constant 2.0 : f32
        %q = arith.cmpf olt, %u, %two : f32
        stream.yield %q : i1
      }
      stream.store %p -> %c[d0] : !stream.stream<i1> -> memref<?xi1>
      %s = stream.reduce add %x over [0] : !stream.stream<f32> -> f32
      stream.yield %s : f32
    }
    %nacc = arith.addf %acc, %r : f32
    scf.yield %nacc : f32
  }
  func.return %tot : f32
}
"""


@SETTINGS
@given(st.integers(0, 12), st.integers(0, 2**31))
def test_host_sequences_regions_and_carries_results(n, seed):
    """Region 2 (in a host loop with iter_args) sees what region 1 wrote; the
    reduction result of each region flows into the host's accumulation."""
    rng = rng_for(seed)
    A = small_ints_f32(rng, n)
    B, C = f32(rng, n), np.zeros(n, np.bool_)
    (tot,) = run(TWO_REGIONS, A=A, B=B, C=C, n=n)
    assert_bits_equal(B, A + np.float32(1))
    np.testing.assert_array_equal(C, B < 2)
    want = np.float32(0)
    for k in range(n):
        want = want + np.float32(B[: k + 1].sum())  # exact: integer-valued data
    assert tot == want


HOST_F32 = """func.func @f(%x: f32) -> (f32, f32, i8) {
  %a = arith.constant 0.1 : f32
  %b = arith.addf %a, %x : f32
  %c = arith.constant 100 : i8
  %d = arith.addi %c, %c : i8
  func.return %a, %b, %d : f32, f32, i8
}
"""


def test_host_integer_arithmetic_wraps():
    assert run(HOST_F32, x=np.float32(0.2))[2] == -56


def test_host_f32_arithmetic_is_float32():
    a, b, _ = run(HOST_F32, x=np.float32(0.2))
    assert np.asarray(a).dtype == np.float32 and a == np.float32(0.1)
    assert np.asarray(b).dtype == np.float32 and b == np.float32(0.1) + np.float32(0.2)


# ---------------------------------------------------------------------------
# Indirect loads/stores and atomics
# ---------------------------------------------------------------------------

GATHER = program(
    {"A": mt(2), "I": mt(1, "i32"), "B": mt(2), "V": mt(1), "W": mt(1)},
    {"N": "index", "K": "index"},
    "[0:N, 0:K]",
    "parallel, parallel",
    """    %i = stream.load %mem_I[d0] : memref<?xi32> -> !stream.stream<i32>
    %row = stream.load %mem_A[%i, d1] : memref<?x?xf32> -> !stream.stream<f32>
    stream.store %row -> %mem_B[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    %v = stream.load %mem_V[%i] : memref<?xf32> -> !stream.stream<f32>
    stream.store %v -> %mem_W[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield""",
)


@SETTINGS
@given(st.integers(1, 6), st.integers(0, 12), st.integers(0, 4), st.integers(0, 2**31))
def test_indirect_loads(rows, n, k, seed):
    rng = rng_for(seed)
    A, V = f32(rng, (rows, k)), f32(rng, rows)
    I = rng.integers(0, rows, n).astype(np.int32)
    B, W = f32(rng, (n, k)), f32(rng, n)
    W0 = W.copy()
    run(GATHER, A=A, I=I, B=B, V=V, W=W, N=n, K=k)
    assert_bits_equal(B, A[I, :])
    # W[i] = V[I[i]] at every point (i, j): nothing is written when K = 0
    assert_bits_equal(W, V[I] if k else W0)


SCATTER = program(
    {"A": mt(1), "I": mt(1, "i64"), "B": mt(1)},
    {"N": "index"},
    "[0:N]",
    "parallel",
    """    %i = stream.load %mem_I[d0] : memref<?xi64> -> !stream.stream<i64>
    %a = stream.load %mem_A[d0] : memref<?xf32> -> !stream.stream<f32>
    stream.store %a -> %mem_B[%i] : !stream.stream<f32> -> memref<?xf32>
    stream.yield""",
)


@SETTINGS
@given(st.integers(1, 6), st.integers(0, 15), st.integers(0, 2**31))
def test_indirect_store_last_writer_wins(m, n, seed):
    rng = rng_for(seed)
    I = rng.integers(0, m, n).astype(np.int64)  # repeated indices likely
    A, B = f32(rng, n), f32(rng, m)
    want = B.copy()
    for it in range(n):  # sequential loop
        want[I[it]] = A[it]
    run(SCATTER, A=A, I=I, B=B, N=n)
    assert_bits_equal(B, want)


def atomic_program(kind: str, elem: str) -> str:
    st_t = f"!stream.stream<{elem}>"
    return program(
        {"A": mt(1, elem), "I": mt(1, "i32"), "C": mt(2, elem)},
        {"N": "index", "K": "index"},
        "[0:N, 0:K]",
        "parallel, parallel",
        f"""    %i = stream.load %mem_I[d0] : memref<?xi32> -> !stream.stream<i32>
    %a = stream.load %mem_A[d0] : {mt(1, elem)} -> {st_t}
    stream.atomic {kind} %a -> %mem_C[%i, d1] : {st_t} -> {mt(2, elem)}
    stream.yield""",
    )


@SETTINGS
@given(
    st.sampled_from(["add", "min", "max"]),
    st.sampled_from(["f32", "i32", "i8"]),
    st.integers(1, 5),
    st.integers(0, 15),
    st.integers(0, 3),
    st.integers(0, 2**31),
)
def test_atomics_with_repeated_indices(kind, elem, m, n, k, seed):
    rng = rng_for(seed)
    dt = {"f32": np.float32, "i32": np.int32, "i8": np.int8}[elem]
    if dt is np.float32:
        A = f32(rng, n)
    else:
        A = rng.integers(np.iinfo(dt).min, np.iinfo(dt).max, n, endpoint=True).astype(dt)
    I = rng.integers(0, m, n).astype(np.int32)
    C = (f32(rng, (m, k)) if dt is np.float32 else rng.integers(-100, 100, (m, k)).astype(dt))
    want = C.copy()
    with np.errstate(over="ignore"):
        for it in range(n):  # sequential loop nest, iteration order
            for j in range(k):
                old = want[I[it], j]
                want[I[it], j] = {"add": lambda: old + A[it], "min": lambda: min(old, A[it]), "max": lambda: max(old, A[it])}[kind]()
    run(atomic_program(kind, elem), A=A, I=I, C=C, N=n, K=k)
    assert_bits_equal(C, want)


HISTOGRAM = program(
    {"I": mt(1, "i32"), "H": mt(1, "i32")},
    {"N": "index"},
    "[0:N]",
    "parallel",
    """    %i = stream.load %mem_I[d0] : memref<?xi32> -> !stream.stream<i32>
"""
    + compute([("%i", "!stream.stream<i32>")], "!stream.stream<i32>", "      %one = arith.constant 1 : i32\n      stream.yield %one : i32", name="%one")
    + """
    stream.atomic add %one -> %mem_H[%i] : !stream.stream<i32> -> memref<?xi32>
    stream.yield""",
)


@SETTINGS
@given(st.integers(1, 8), st.integers(0, 40), st.integers(0, 2**31))
def test_histogram(bins, n, seed):
    rng = rng_for(seed)
    I = rng.integers(0, bins, n).astype(np.int32)
    H = np.zeros(bins, np.int32)
    run(HISTOGRAM, I=I, H=H, N=n)
    np.testing.assert_array_equal(H, np.bincount(I, minlength=bins).astype(np.int32))


# ---------------------------------------------------------------------------
# Several writes to one cell: last writer in iteration order, then program order
# ---------------------------------------------------------------------------

DIAGONAL = program(
    {"X": mt(2), "B": mt(1)},
    {"M": "index", "N": "index"},
    "[0:M, 0:N]",
    "parallel, parallel",
    """    %x = stream.load %mem_X[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    stream.store %x -> %mem_B[d0 + d1] : !stream.stream<f32> -> memref<?xf32>
    stream.yield""",
)


@SETTINGS
@given(st.integers(0, 6), st.integers(0, 6), st.integers(0, 2**31))
def test_many_iterations_write_one_cell(m, n, seed):
    rng = rng_for(seed)
    X, B = f32(rng, (m, n)), f32(rng, max(m + n - 1, 1))
    want = B.copy()
    for i in range(m):
        for j in range(n):
            want[i + j] = X[i, j]
    run(DIAGONAL, X=X, B=B, M=m, N=n)
    assert_bits_equal(B, want)


def two_stores(first_const: bool) -> str:
    const_store = "    stream.store %y -> %mem_B[0] : !stream.stream<f32> -> memref<?xf32>\n"
    row_store = "    stream.store %x -> %mem_B[d0] : !stream.stream<f32> -> memref<?xf32>\n"
    stores = const_store + row_store if first_const else row_store + const_store
    return program(
        {"X": mt(1), "Y": mt(1), "B": mt(1)},
        {"N": "index"},
        "[0:N]",
        "parallel",
        """    %x = stream.load %mem_X[d0] : memref<?xf32> -> !stream.stream<f32>
    %y = stream.load %mem_Y[d0] : memref<?xf32> -> !stream.stream<f32>
"""
        + stores
        + "    stream.yield",
    )


@SETTINGS
@given(st.booleans(), st.integers(0, 8), st.integers(0, 2**31))
def test_two_store_ops_program_order(first_const, n, seed):
    rng = rng_for(seed)
    X, Y, B = f32(rng, n), f32(rng, n), f32(rng, max(n, 1))
    want = B.copy()
    for i in range(n):
        if first_const:
            want[0] = Y[i]
            want[i] = X[i]
        else:
            want[i] = X[i]
            want[0] = Y[i]
    run(two_stores(first_const), X=X, Y=Y, B=B, N=n)
    assert_bits_equal(B, want)


ATOMIC_THEN_STORE = program(
    {"X": mt(1, "i32"), "B": mt(1, "i32")},
    {"N": "index"},
    "[0:N]",
    "parallel",
    """    %x = stream.load %mem_X[d0] : memref<?xi32> -> !stream.stream<i32>
    stream.atomic add %x -> %mem_B[d0] : !stream.stream<i32> -> memref<?xi32>
    stream.store %x -> %mem_B[d0] : !stream.stream<i32> -> memref<?xi32>
    stream.yield""",
)

STORE_THEN_ATOMIC = ATOMIC_THEN_STORE.replace(
    "    stream.atomic add %x -> %mem_B[d0] : !stream.stream<i32> -> memref<?xi32>\n    stream.store %x -> %mem_B[d0] : !stream.stream<i32> -> memref<?xi32>",
    "    stream.store %x -> %mem_B[d0] : !stream.stream<i32> -> memref<?xi32>\n    stream.atomic add %x -> %mem_B[d0] : !stream.stream<i32> -> memref<?xi32>",
)


def test_store_then_atomic_same_cell():
    X = np.array([1, 2, 3], np.int32)
    B = np.array([100, 100, 100], np.int32)
    run(STORE_THEN_ATOMIC, X=X, B=B, N=3)
    np.testing.assert_array_equal(B, 2 * X)  # B[i] = X[i]; B[i] += X[i]


def test_atomic_then_store_same_cell():
    X = np.array([1, 2, 3], np.int32)
    B = np.array([100, 100, 100], np.int32)
    run(ATOMIC_THEN_STORE, X=X, B=B, N=3)
    np.testing.assert_array_equal(B, X)  # B[i] += X[i]; B[i] = X[i]


# ---------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------


def reduce_program(kind: str, elem: str, dims: str, iterators: str, result: str, with_init: bool, store_dims: str | None) -> str:
    st_t = f"!stream.stream<{elem}>"
    init = ""
    init_use = ""
    if with_init:
        init = f"    %c = arith.constant {'2.5' if elem.startswith('f') else '3'} : {elem}\n"
        init_use = " init %c"
    body = f"""    %x = stream.load %mem_A[d0, d1] : {mt(2, elem)} -> {st_t}
{init}    %r = stream.reduce {kind} %x over {dims}{init_use} : {st_t} -> {result}
"""
    arrays = {"A": mt(2, elem)}
    if store_dims is not None:
        arrays["O"] = mt(1, result[len("!stream.stream<") : -1])
        body += f"    stream.store %r -> %mem_O[{store_dims}] : {result} -> {arrays['O']}\n    stream.yield"
        return program(arrays, {"M": "index", "N": "index"}, "[0:M, 0:N]", iterators, body)
    body += f"    stream.yield %r : {result}"
    return program(arrays, {"M": "index", "N": "index"}, "[0:M, 0:N]", iterators, body, results=(result,))


def np_reduce(kind, A, axis, dt, init):
    with np.errstate(over="ignore"):
        if kind == "add":
            r = np.add.reduce(A, axis=axis, dtype=dt)
            return (r + dt(init)).astype(dt)
        if kind == "mul":
            r = np.multiply.reduce(A, axis=axis, dtype=dt)
            return (r * dt(init)).astype(dt)
        ident = (np.inf if kind == "min" else -np.inf) if np.dtype(dt).kind == "f" else (np.iinfo(dt).max if kind == "min" else np.iinfo(dt).min)
        f = np.minimum if kind == "min" else np.maximum
        r = (np.min if kind == "min" else np.max)(A, axis=axis, initial=ident)
        return f(r, dt(init)).astype(dt)


IDENTITY = {"add": 0, "mul": 1, "min": None, "max": None}


@SETTINGS
@given(
    st.sampled_from(["add", "mul", "min", "max"]),
    st.sampled_from(["f32", "i32", "i16"]),
    st.sampled_from(["rows", "cols", "all"]),
    st.booleans(),
    st.integers(0, 5),
    st.integers(0, 5),
    st.integers(0, 2**31),
)
def test_reductions(kind, elem, over, with_init, m, n, seed):
    rng = rng_for(seed)
    dt = {"f32": np.float32, "i32": np.int32, "i16": np.int16}[elem]
    if dt is np.float32:
        A = small_ints_f32(rng, (m, n)) if kind in ("add", "mul") else f32(rng, (m, n))
        if kind == "mul":
            A = rng.choice(np.array([-2, -1, 1, 2, 0.5], np.float32), (m, n))  # exact products
    else:
        A = rng.integers(np.iinfo(dt).min, np.iinfo(dt).max, (m, n), endpoint=True).astype(dt)
    init_val = (2.5 if dt is np.float32 else 3) if with_init else None
    if not with_init:
        if kind in ("add", "mul"):
            init_val = IDENTITY[kind]
        else:
            init_val = (np.inf if kind == "min" else -np.inf) if dt is np.float32 else (np.iinfo(dt).max if kind == "min" else np.iinfo(dt).min)
    st_t = f"!stream.stream<{elem}>"
    if over == "all":
        src = reduce_program(kind, elem, "[0, 1]", "reduction, reduction", elem, with_init, None)
        (got,) = run(src, A=A, M=m, N=n)
        want = np_reduce(kind, A, (0, 1), dt, init_val)
        assert np.asarray(got).dtype == dt  # a scalar of the element type
        assert got == want
        return
    # partial reductions over an empty reduced range: see test_partial_reduction_over_empty_range
    if (over == "cols" and n == 0) or (over == "rows" and m == 0):
        return
    if over == "cols":  # reduce d1, keep d0
        src = reduce_program(kind, elem, "[1]", "parallel, reduction", st_t, with_init, "d0")
        O = np.zeros(m, dt)
        run(src, A=A, O=O, M=m, N=n)
        np.testing.assert_array_equal(O, np_reduce(kind, A, 1, dt, init_val))
    else:  # reduce d0, keep d1
        src = reduce_program(kind, elem, "[0]", "reduction, parallel", st_t, with_init, "d1")
        O = np.zeros(n, dt)
        run(src, A=A, O=O, M=m, N=n)
        np.testing.assert_array_equal(O, np_reduce(kind, A, 0, dt, init_val))


SUM_F32 = reduce_program("add", "f32", "[0, 1]", "reduction, reduction", "f32", False, None)


@SETTINGS
@given(st.integers(0, 30), st.integers(0, 30), st.integers(0, 2**31))
def test_f32_sum_within_tolerance(m, n, seed):
    rng = rng_for(seed)
    A = f32(rng, (m, n))
    (got,) = run(SUM_F32, A=A, M=m, N=n)
    assert np.asarray(got).dtype == np.float32
    want = float(np.sum(A.astype(np.float64)))
    assert abs(got - want) <= 1e-5 * (np.abs(A).sum() + 1)


BROADCAST_SUM = program(
    {"A": mt(1, "i32"), "O": mt(1, "i32")},
    {"M": "index", "N": "index"},
    "[0:M, 2:N]",
    "parallel, reduction",
    """    %x = stream.load %mem_A[d0] : memref<?xi32> -> !stream.stream<i32>
    %r = stream.reduce add %x over [1] : !stream.stream<i32> -> !stream.stream<i32>
    stream.store %r -> %mem_O[d0] : !stream.stream<i32> -> memref<?xi32>
    stream.yield""",
)


@SETTINGS
@given(st.integers(0, 6), st.integers(3, 9), st.integers(0, 2**31))
def test_reduce_of_broadcast_stream(m, n, seed):
    """A stream that does not vary along the reduced dim is folded once per point."""
    rng = rng_for(seed)
    A = rng.integers(-50, 50, m).astype(np.int32)
    O = np.full(m, 7, np.int32)
    run(BROADCAST_SUM, A=A, O=O, M=m, N=n)
    np.testing.assert_array_equal(O, A * max(n - 2, 0))


def test_partial_reduction_over_empty_range():
    A = np.zeros(3, np.int32)
    O = np.full(3, 7, np.int32)
    run(BROADCAST_SUM, A=A, O=O, M=3, N=2)  # domain [0:3, 2:2]: d1 is empty
    np.testing.assert_array_equal(O, np.zeros(3, np.int32))


def arg_program(kind: str, elem: str, out: str, lo: int) -> str:
    return program(
        {"A": mt(2, elem), "O": mt(1, out)},
        {"M": "index", "N": "index"},
        f"[0:M, {lo}:N]",
        "parallel, reduction",
        f"""    %x = stream.load %mem_A[d0, d1] : {mt(2, elem)} -> !stream.stream<{elem}>
    %r = stream.reduce {kind} %x over [1] : !stream.stream<{elem}> -> !stream.stream<{out}>
    stream.store %r -> %mem_O[d0] : !stream.stream<{out}> -> {mt(1, out)}
    stream.yield""",
    )


@SETTINGS
@given(
    st.sampled_from(["argmin", "argmax"]),
    st.sampled_from(["f32", "i32"]),
    st.sampled_from(["i32", "i64", "index"]),
    st.integers(0, 3),
    st.integers(0, 5),
    st.integers(1, 7),
    st.integers(0, 2**31),
)
def test_argmin_argmax_first_on_ties(kind, elem, out, lo, m, ext, seed):
    rng = rng_for(seed)
    n = lo + ext
    dt = np.float32 if elem == "f32" else np.int32
    A = rng.integers(0, 3, (m, n)).astype(dt)  # many ties
    odt = {"i32": np.int32, "i64": np.int64, "index": np.int64}[out]
    O = np.full(m, -1, odt)
    run(arg_program(kind, elem, out, lo), A=A, O=O, M=m, N=n)
    want = np.full(m, -1, odt)
    for i in range(m):
        best = lo
        for j in range(lo, n):  # strict comparison keeps the first extremum
            if (A[i, j] < A[i, best]) if kind == "argmin" else (A[i, j] > A[i, best]):
                best = j
        want[i] = best  # an iteration coordinate, not a position
    np.testing.assert_array_equal(O, want)


def test_argmin_over_empty_range_is_an_error():
    src = arg_program("argmin", "f32", "i32", 0)
    with pytest.raises(EvaluationError, match="argmin"):
        run(src, A=np.zeros((2, 0), np.float32), O=np.zeros(2, np.int32), M=2, N=0)


def test_array_sum_workload_style_scalar_result():
    src = reduce_program("add", "i32", "[0, 1]", "reduction, reduction", "i32", True, None)
    A = np.arange(12, dtype=np.int32).reshape(3, 4)
    assert run(src, A=A, M=3, N=4) == (66 + 3,)
    assert run(src, A=A, M=0, N=4) == (3,)  # empty domain: the init value


INIT_FROM_SYMBOL = program(
    {"A": mt(1)},
    {"N": "index", "c": "f32"},
    "[0:N]",
    "reduction",
    """    %x = stream.load %mem_A[d0] : memref<?xf32> -> !stream.stream<f32>
    %r = stream.reduce max %x over [0] init %sym_c : !stream.stream<f32> -> f32
    stream.yield %r : f32""",
    results=("f32",),
)


@SETTINGS
@given(st.integers(0, 10), st.floats(-10, 10, width=32), st.integers(0, 2**31))
def test_init_from_scalar_operand(n, c, seed):
    A = f32(rng_for(seed), n)
    (got,) = run(INIT_FROM_SYMBOL, A=A, N=n, c=c)
    assert np.asarray(got).dtype == np.float32
    assert got == max([float(v) for v in A] + [c])


@pytest.mark.parametrize(
    "kind, elem, want",
    [("add", "f32", 0.0), ("mul", "f32", 1.0), ("min", "f32", np.inf), ("max", "f32", -np.inf), ("min", "i32", 2**31 - 1), ("max", "i16", -(2**15))],
)
def test_empty_domain_reduction_is_identity(kind, elem, want):
    src = reduce_program(kind, elem, "[0, 1]", "reduction, reduction", elem, False, None)
    dt = np.float32 if elem == "f32" else {"i32": np.int32, "i16": np.int16}[elem]
    assert run(src, A=np.zeros((3, 0), dt), M=3, N=0) == (want,)
    assert run(src, A=np.zeros((0, 3), dt), M=0, N=3) == (want,)


# ---------------------------------------------------------------------------
# Compute bodies: integer semantics, cmp/select, float32 bit equality
# ---------------------------------------------------------------------------


def binop_program(op: str, elem: str) -> str:
    st_t = f"!stream.stream<{elem}>"
    return program(
        {"A": mt(1, elem), "B": mt(1, elem), "C": mt(1, elem)},
        {"N": "index"},
        "[0:N]",
        "parallel",
        f"""    %a = stream.load %mem_A[d0] : {mt(1, elem)} -> {st_t}
    %b = stream.load %mem_B[d0] : {mt(1, elem)} -> {st_t}
"""
        + compute([("%a", st_t), ("%b", st_t)], st_t, f"      %r = arith.{op} %x0, %x1 : {elem}\n      stream.yield %r : {elem}")
        + f"""
    stream.store %s -> %mem_C[d0] : {st_t} -> {mt(1, elem)}
    stream.yield""",
    )


INT_TYPES = {"i8": np.int8, "i16": np.int16, "i32": np.int32}


def c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def wrap(v: int, dt) -> int:
    bits = np.iinfo(dt).bits
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


INT_OPS = {
    "addi": lambda a, b: a + b,
    "subi": lambda a, b: a - b,
    "muli": lambda a, b: a * b,
    "divsi": c_div,
    "remsi": lambda a, b: a - c_div(a, b) * b,
    "maxsi": max,
    "minsi": min,
    "andi": lambda a, b: a & b,
    "ori": lambda a, b: a | b,
    "xori": lambda a, b: a ^ b,
}


@SETTINGS
@given(st.sampled_from(sorted(INT_OPS)), st.sampled_from(sorted(INT_TYPES)), st.integers(0, 12), st.integers(0, 2**31))
def test_integer_ops_c_semantics_and_wraparound(op, elem, n, seed):
    rng = rng_for(seed)
    dt = INT_TYPES[elem]
    info = np.iinfo(dt)
    A = rng.integers(info.min + 1, info.max, n, endpoint=True).astype(dt)  # avoid MIN / -1
    B = rng.integers(info.min, info.max, n, endpoint=True).astype(dt)
    if op in ("divsi", "remsi"):
        B[B == 0] = 3
        if n:
            B[0] = -7 if n > 1 else 7  # small divisors too
    C = np.zeros(n, dt)
    run(binop_program(op, elem), A=A, B=B, C=C, N=n)
    want = np.array([wrap(INT_OPS[op](int(a), int(b)), dt) for a, b in zip(A, B)], dtype=dt)
    np.testing.assert_array_equal(C, want)


@pytest.mark.parametrize(
    "op, a, b, want",
    [
        ("divsi", [-7, 7, -7, 7, -1, 0], [2, -2, -2, 2, 5, 3], [-3, -3, 3, 3, 0, 0]),
        ("remsi", [-7, 7, -7, 7, -1, 0], [2, -2, -2, 2, 5, 3], [-1, 1, -1, 1, -1, 0]),
        ("addi", [127, -128, 100], [1, -1, 100], [-128, 127, -56]),
        ("muli", [64, -128, 16], [2, -1, 16], [-128, -128, 0]),
        ("subi", [-128, 0], [1, -128], [127, -128]),
    ],
)
def test_integer_examples_i8(op, a, b, want):
    A, B = np.array(a, np.int8), np.array(b, np.int8)
    C = np.zeros(len(a), np.int8)
    run(binop_program(op, "i8"), A=A, B=B, C=C, N=len(a))
    assert C.tolist() == want


def test_division_by_zero_is_an_error():
    A, B = np.array([1, 2], np.int32), np.array([1, 0], np.int32)
    with pytest.raises(EvaluationError, match="division by zero"):
        run(binop_program("divsi", "i32"), A=A, B=B, C=np.zeros(2, np.int32), N=2)


FLOAT_OPS = {"addf": np.add, "subf": np.subtract, "mulf": np.multiply, "divf": np.divide, "maximumf": np.maximum, "minimumf": np.minimum}


@SETTINGS
@given(st.sampled_from(sorted(FLOAT_OPS)), st.integers(0, 30), st.integers(0, 2**31))
def test_float32_ops_bit_equal_to_numpy(op, n, seed):
    rng = rng_for(seed)
    A = (rng.standard_normal(n) * 10.0 ** rng.integers(-8, 8, n)).astype(np.float32)
    B = (rng.standard_normal(n) * 10.0 ** rng.integers(-8, 8, n)).astype(np.float32)
    if n > 2:
        B[1] = A[1]
        B[2] = -0.0
    C = np.zeros(n, np.float32)
    run(binop_program(op, "f32"), A=A, B=B, C=C, N=n)
    with np.errstate(all="ignore"):
        want = FLOAT_OPS[op](A, B).astype(np.float32)
    assert_bits_equal(C, want)


SELECT = program(
    {"A": mt(1, "i16"), "B": mt(1, "i16"), "X": mt(1), "C": mt(1, "i16"), "D": mt(1)},
    {"N": "index", "t": "f32"},
    "[0:N]",
    "parallel",
    """    %a = stream.load %mem_A[d0] : memref<?xi16> -> !stream.stream<i16>
    %b = stream.load %mem_B[d0] : memref<?xi16> -> !stream.stream<i16>
    %x = stream.load %mem_X[d0] : memref<?xf32> -> !stream.stream<f32>
"""
    + compute(
        [("%a", "!stream.stream<i16>"), ("%b", "!stream.stream<i16>")],
        "!stream.stream<i16>",
        "      %lt = arith.cmpi slt, %x0, %x1 : i16\n      %m = arith.select %lt, %x1, %x0 : i16\n      %d = arith.subi %m, %x0 : i16\n      stream.yield %d : i16",
        name="%c",
    )
    + "\n"
    + compute(
        [("%x", F32), ("%sym_t", "f32")],
        F32,
        "      %gt = arith.cmpf ogt, %x0, %x1 : f32\n      %z = arith.constant 0.0 : f32\n      %r = arith.select %gt, %x0, %z : f32\n      stream.yield %r : f32",
        name="%d",
    )
    + """
    stream.store %c -> %mem_C[d0] : !stream.stream<i16> -> memref<?xi16>
    stream.store %d -> %mem_D[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield""",
)


@SETTINGS
@given(st.integers(0, 20), st.floats(-2, 2, width=32), st.integers(0, 2**31))
def test_cmp_and_select(n, t, seed):
    rng = rng_for(seed)
    A = rng.integers(-(2**15), 2**15, n).astype(np.int16)
    B = rng.integers(-(2**15), 2**15, n).astype(np.int16)
    X = f32(rng, n, 2.0)
    C, D = np.zeros(n, np.int16), np.zeros(n, np.float32)
    run(SELECT, A=A, B=B, X=X, C=C, D=D, N=n, t=t)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(C, (np.maximum(A, B) - A).astype(np.int16))
    assert_bits_equal(D, np.where(X > np.float32(t), X, np.float32(0)))


CASTS = program(
    {"A": mt(1, "i32"), "F": mt(1)},
    {"N": "index"},
    "[0:N]",
    "parallel",
    """    %a = stream.load %mem_A[d0] : memref<?xi32> -> !stream.stream<i32>
"""
    + compute(
        [("%a", "!stream.stream<i32>")],
        F32,
        "      %f = arith.sitofp %x0 : i32 to f32\n      %h = arith.constant 0.5 : f32\n      %g = arith.mulf %f, %h : f32\n      stream.yield %g : f32",
    )
    + """
    stream.store %s -> %mem_F[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield""",
)


def test_sitofp_then_mulf():
    A = np.array([-3, 0, 7, 2**24 + 1], np.int32)
    F = np.zeros(4, np.float32)
    run(CASTS, A=A, F=F, N=4)
    assert_bits_equal(F, A.astype(np.float32) * np.float32(0.5))


# ---------------------------------------------------------------------------
# Empty domains
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 2])
def test_empty_domain_touches_nothing(n):
    """[1:N-1] is empty for N <= 2 (even negative-extent for N = 0)."""
    A = np.arange(n, dtype=np.float32)
    B = np.full(n, 9, np.float32)
    run(STENCIL_1D, A=A, B=B, N=n)
    assert B.tolist() == [9.0] * n


def test_empty_domain_skips_out_of_bounds_checks():
    """No iteration runs, so nothing is accessed (the loop nest would not fault)."""
    A, B, C = np.zeros(0, np.float32), np.zeros(0, np.float32), np.zeros(0, np.float32)
    assert run(STRIDED, A=A, B=B, C=C, N=0) == ()
    B = np.full(3, 4, np.float32)
    run(DIAGONAL, X=np.zeros((0, 7), np.float32), B=B, M=0, N=7)  # 0 + 6 would be out of bounds
    assert B.tolist() == [4.0] * 3


# ---------------------------------------------------------------------------
# Dependences and bounds: rejection with a clear EvaluationError
# ---------------------------------------------------------------------------


def inplace_program(load_map: str, store_map: str, domain: str, rank: int) -> str:
    return program(
        {"A": mt(rank)},
        {"N": "index"},
        domain,
        ", ".join(["parallel"] * rank),
        f"""    %x = stream.load %mem_A[{load_map}] : {mt(rank)} -> !stream.stream<f32>
"""
        + compute([("%x", F32)], F32, "      %one = arith.constant 1.0 : f32\n      %y = arith.addf %x0, %one : f32\n      stream.yield %y : f32")
        + f"""
    stream.store %s -> %mem_A[{store_map}] : !stream.stream<f32> -> {mt(rank)}
    stream.yield""",
    )


CARRIED = "has a loop-carried dependence: the 'stream.load' at line 4 may read a cell of %mem_A written by the 'stream.store' at line 11 in an earlier iteration"


def run_unverified(src: str, **args):
    """Run IR that skipped the verifier (as IR built by a program may)."""
    return run_function(api.parse_text(src, ctx=CTX, verify=False), args)


@pytest.mark.parametrize("n", [3, 4, 10])
def test_loop_carried_dependence_is_rejected(n):
    src = inplace_program("d0 - 1", "d0", "[1:N]", 1)  # A[i] = A[i-1] + 1
    A = np.zeros(n, np.float32)
    with pytest.raises(api.InfsError, match=CARRIED):
        run(src, A=A, N=n)
    # the evaluator applies the same check to IR that was never verified
    with pytest.raises(EvaluationError, match=CARRIED):
        run_unverified(src, A=A, N=n)
    assert not A.any()


def test_loop_carried_dependence_2d_outer_dim_is_rejected():
    src = inplace_program("d0 - 1, d1 + 1", "d0, d1", "[1:N, 0:N - 1]", 2)
    with pytest.raises(api.InfsError, match=CARRIED):
        run(src, A=np.zeros((4, 4), np.float32), N=4)
    with pytest.raises(EvaluationError, match=CARRIED):
        run_unverified(src, A=np.zeros((4, 4), np.float32), N=4)


def test_dependence_through_aliased_arrays_is_found_at_run_time():
    """Two array arguments bound to one array at run time: the static check sees
    two arrays; the evaluator finds the dependence on the actual cells."""
    src = program(
        {"A": mt(1), "B": mt(1)},
        {"N": "index"},
        "[1:N]",
        "parallel",
        """    %x = stream.load %mem_A[d0 - 1] : memref<?xf32> -> !stream.stream<f32>
    stream.store %x -> %mem_B[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield""",
    )
    A = np.arange(4, dtype=np.float32)
    with pytest.raises(EvaluationError, match="loop-carried dependence: %mem_A and %mem_B are one array at run time, and iteration"):
        run(src, A=A, B=A, N=4)
    B = np.zeros(4, np.float32)
    run(src, A=A, B=B, N=4)
    assert B.tolist() == [0.0, 0.0, 1.0, 2.0]


@pytest.mark.parametrize("n", [0, 1, 5])
def test_same_iteration_in_place_update_is_accepted(n):
    src = inplace_program("d0", "d0", "[0:N]", 1)  # A[i] = A[i] + 1
    A = np.arange(n, dtype=np.float32)
    run(src, A=A, N=n)
    assert A.tolist() == [i + 1.0 for i in range(n)]


def test_in_place_scaling_is_accepted():
    src = program(
        {"A": mt(2)},
        {"M": "index", "N": "index"},
        "[0:M, 0:N]",
        "parallel, parallel",
        """    %x = stream.load %mem_A[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
"""
        + compute([("%x", F32)], F32, "      %two = arith.constant 2.0 : f32\n      %y = arith.mulf %x0, %two : f32\n      stream.yield %y : f32")
        + """
    stream.store %s -> %mem_A[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield""",
    )
    A = f32(rng_for(1), (3, 5))
    want = A * np.float32(2)
    run(src, A=A, M=3, N=5)
    assert_bits_equal(A, want)


@pytest.mark.parametrize(
    "load_map, store_map, domain, rank",
    [
        ("d0 + 1", "d0", "[0:N - 1]", 1),  # A[i] = A[i+1] + 1
        ("d0 + 1, d1 - 1", "d0, d1", "[0:N - 1, 1:N]", 2),  # A[i, j] = A[i+1, j-1] + 1
        ("d0, d1 + 1", "d0, d1", "[0:N, 0:N - 1]", 2),  # A[i, j] = A[i, j+1] + 1
    ],
)
def test_anti_dependence_reads_old_values(load_map, store_map, domain, rank):
    """Reading cells that *later* iterations write: the sequential loop sees the
    old values, so the region is valid and equals the loop nest."""
    src = inplace_program(load_map, store_map, domain, rank)
    n = 5
    A = f32(rng_for(3), (n,) * rank)
    want = A.copy()
    one = np.float32(1)
    if rank == 1:
        for i in range(n - 1):
            want[i] = want[i + 1] + one
    elif load_map == "d0 + 1, d1 - 1":
        for i in range(n - 1):
            for j in range(1, n):
                want[i, j] = want[i + 1, j - 1] + one
    else:
        for i in range(n):
            for j in range(n - 1):
                want[i, j] = want[i, j + 1] + one
    run(src, A=A, N=n)
    assert_bits_equal(A, want)


IN_PLACE_AFTER_UNRELATED_STORE = program(
    {"A": mt(1)},
    {"N": "index"},
    "[0:N]",
    "parallel",
    compute([("%sym_N", "index")], F32, "      %z = arith.constant 9.0 : f32\n      stream.yield %z : f32", name="%z")
    + """
    stream.store %z -> %mem_A[d0 + N] : !stream.stream<f32> -> memref<?xf32>
    %x = stream.load %mem_A[d0] : memref<?xf32> -> !stream.stream<f32>
    %c = arith.constant 5.0 : f32
"""
    + compute([("%x", F32), ("%c", "f32")], F32, "      %y = arith.mulf %x0, %x1 : f32\n      stream.yield %y : f32", name="%y")
    + """
    stream.store %y -> %mem_A[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield""",
)


def test_scalar_only_compute_and_region_level_constant():
    """A compute with no stream input is the same value at every point; a
    region-level arith.constant feeds a compute as a scalar."""
    src = IN_PLACE_AFTER_UNRELATED_STORE.replace(
        "    stream.store %z -> %mem_A[d0 + N] : !stream.stream<f32> -> memref<?xf32>\n    %x = stream.load %mem_A[d0] : memref<?xf32> -> !stream.stream<f32>\n",
        "    %x = stream.load %mem_A[d0] : memref<?xf32> -> !stream.stream<f32>\n    stream.store %z -> %mem_A[d0 + N] : !stream.stream<f32> -> memref<?xf32>\n",
    )
    A = np.arange(6, dtype=np.float32)
    run(src, A=A, N=3)
    assert A.tolist() == [0.0, 5.0, 10.0, 9.0, 9.0, 9.0]


def test_in_place_update_after_store_to_other_cells_is_accepted():
    A = np.arange(6, dtype=np.float32)
    run(IN_PLACE_AFTER_UNRELATED_STORE, A=A, N=3)  # A[i+3] = 9; A[i] = A[i] * 5
    assert A.tolist() == [0.0, 5.0, 10.0, 9.0, 9.0, 9.0]


def test_indirect_read_after_write_is_rejected():
    src = program(
        {"A": mt(1), "I": mt(1, "i32")},
        {"N": "index"},
        "[0:N]",
        "parallel",
        """    %i = stream.load %mem_I[d0] : memref<?xi32> -> !stream.stream<i32>
    %x = stream.load %mem_A[%i] : memref<?xf32> -> !stream.stream<f32>
    stream.store %x -> %mem_A[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield""",
    )
    # whether an iteration reads a cell an earlier one wrote depends on I's
    # contents (here iteration 1 reads cell 0), so the region is refused for
    # every I: the static check cannot know
    A = np.arange(4, dtype=np.float32)
    with pytest.raises(api.InfsError, match="loop-carried dependence: the 'stream.load' at line 5 may read a cell of %mem_A written by the 'stream.store' at line 6 in an earlier iteration"):
        run(src, A=A.copy(), I=np.array([1, 0, 3, 2], np.int32), N=4)


@pytest.mark.parametrize(
    "program_text, args, index",
    [
        (STENCIL_1D.replace("[1:N - 1]", "[0:N - 1]"), {"N": 5}, "-1"),
        (STENCIL_1D.replace("[1:N - 1]", "[1:N]"), {"N": 5}, "5"),
        (STRIDED, {"N": 4}, None),
    ],
)
def test_out_of_bounds_load_is_rejected(program_text, args, index):
    n = args["N"]
    arrays = {"A": np.zeros(n, np.float32), "B": np.zeros(n, np.float32)}
    if "%mem_C" in program_text:
        arrays = {"A": np.zeros(n, np.float32), "B": np.zeros(n, np.float32), "C": np.zeros(2 * n, np.float32)}
    before = {k: v.copy() for k, v in arrays.items()}
    with pytest.raises(EvaluationError, match="accesses index" + (f" {index} " if index else "")):
        run(program_text, **arrays, **args)
    for k in arrays:  # nothing was written
        np.testing.assert_array_equal(arrays[k], before[k])


def test_out_of_bounds_store_and_indirect_are_rejected():
    src = DIAGONAL
    with pytest.raises(EvaluationError, match=r"stream.store' at line 5 accesses index 4 in dim 0"):
        run(src, X=np.zeros((2, 4), np.float32), B=np.zeros(4, np.float32), M=2, N=4)
    with pytest.raises(EvaluationError, match="accesses index -1"):
        run(GATHER, A=np.zeros((3, 2), np.float32), I=np.array([0, -1], np.int32), B=np.zeros((2, 2), np.float32), V=np.zeros(3, np.float32), W=np.zeros(2, np.float32), N=2, K=2)
    with pytest.raises(EvaluationError, match="accesses index 3"):
        run(SCATTER, A=np.zeros(2, np.float32), I=np.array([0, 3], np.int64), B=np.zeros(3, np.float32), N=2)


def test_bad_arguments_are_rejected():
    with pytest.raises(EvaluationError, match="float32"):
        run(STENCIL_1D, A=np.zeros(4, np.float64), B=np.zeros(4, np.float32), N=4)
    with pytest.raises(EvaluationError, match="no value bound"):
        run(STENCIL_1D, A=np.zeros(4, np.float32), B=np.zeros(4, np.float32))


# ---------------------------------------------------------------------------
# Random regions against a straightforward numpy construction
# ---------------------------------------------------------------------------


@st.composite
def random_regions(draw):
    """A random 1-3-D region: loads with random affine maps (offsets, strides,
    symbols, dropped and permuted dims) within bounds, a random chain of
    f32 ops, one store (possibly transposed and offset).  Returns the source,
    the arguments, and the expected output array."""
    rank = draw(st.integers(1, 3))
    rng = rng_for(draw(st.integers(0, 2**31)))
    syms = {"P": draw(st.integers(0, 3)), "Q": draw(st.integers(0, 3))}

    def via_symbol(value: int) -> str:
        """An affine text equal to `value`, maybe written through a symbol."""
        s = draw(st.sampled_from([None, "P", "Q"]))
        if s is None:
            return str(value)
        c = value - syms[s]
        return f"{s} + {c}" if c >= 0 else f"{s} - {-c}"

    lo = [draw(st.integers(-2, 3)) for _ in range(rank)]  # negative coordinates are fine
    hi = [p + draw(st.integers(0, 4)) for p in lo]
    extent = [q - p for p, q in zip(lo, hi)]
    domain = "[" + ", ".join(f"{via_symbol(p)}:{via_symbol(q)}" for p, q in zip(lo, hi)) + "]"
    grids = [g + p for g, p in zip(np.indices(extent, dtype=np.int64), lo)] if rank else []

    arrays: dict[str, str] = {}
    args: dict[str, object] = {}
    loads: list[str] = []
    values: list[np.ndarray] = []
    n_in = draw(st.integers(1, 3))
    for a in range(n_in):
        m = draw(st.integers(1, rank))
        dims = draw(st.permutations(range(rank)))[:m]
        entries, shape, index = [], [], []
        for dd in dims:
            coef = draw(st.sampled_from([1, 1, 2]))
            off = draw(st.integers(-coef * lo[dd], max(3, 2 - coef * lo[dd])))  # first index >= 0
            term = f"{coef}*d{dd}" if coef != 1 else f"d{dd}"
            off_text = via_symbol(off)
            entries.append(f"{term} + {off_text}")
            shape.append(max(coef * (hi[dd] - 1) + off + 1, 1) + draw(st.integers(0, 2)))
            index.append(coef * grids[dd] + off)
        name = f"A{a}"
        arrays[name] = mt(m)
        arr = f32(rng, shape)
        args[name] = arr
        loads.append(f"    %l{a} = stream.load %mem_{name}[{', '.join(entries)}] : {mt(m)} -> {F32}")
        values.append(arr[tuple(index)])
    alpha = np.float32(draw(st.floats(-3, 3, width=32)))
    use_alpha = draw(st.booleans())

    inputs = [(f"%l{a}", F32) for a in range(n_in)] + ([("%sym_alpha", "f32")] if use_alpha else [])
    names = [f"%x{i}" for i in range(len(inputs))]
    vals = values + ([alpha] if use_alpha else [])
    ops = {"addf": np.add, "mulf": np.multiply, "subf": np.subtract, "maximumf": np.maximum}
    lines = []
    for t in range(draw(st.integers(1, 5))):
        op = draw(st.sampled_from(sorted(ops)))
        i = draw(st.integers(0, len(names) - 1))
        j = draw(st.integers(0, len(names) - 1))
        lines.append(f"      %t{t} = arith.{op} {names[i]}, {names[j]} : f32")
        with np.errstate(all="ignore"):
            vals.append(ops[op](vals[i], vals[j]))
        names.append(f"%t{t}")
    lines.append(f"      stream.yield {names[-1]} : f32")
    result = np.broadcast_to(np.asarray(vals[-1], dtype=np.float32), tuple(extent))

    perm = draw(st.permutations(range(rank)))
    out_off = [draw(st.integers(-lo[dd], max(2, 2 - lo[dd]))) for dd in perm]
    out_shape = [max(hi[dd] - 1 + o + 1, 1) + draw(st.integers(0, 1)) for dd, o in zip(perm, out_off)]
    out = f32(rng, out_shape)
    want = out.copy()
    want[tuple(grids[dd] + o for dd, o in zip(perm, out_off))] = result
    arrays["B"] = mt(rank)
    args["B"] = out
    store_map = ", ".join(f"d{dd} + {via_symbol(o)}" for dd, o in zip(perm, out_off))
    body = "\n".join(loads) + "\n" + compute(inputs, F32, "\n".join(lines)) + f"\n    stream.store %s -> %mem_B[{store_map}] : {F32} -> {mt(rank)}\n    stream.yield"
    src = program(arrays, {"P": "index", "Q": "index", "alpha": "f32"}, domain, ", ".join(["parallel"] * rank), body)
    args.update(P=syms["P"], Q=syms["Q"], alpha=float(alpha))
    return src, args, want


@settings(max_examples=80, deadline=None)
@given(random_regions())
def test_random_regions_match_numpy(case):
    src, args, want = case
    run(src, **args)
    assert_bits_equal(args["B"], want)


def test_i1_addi_and_subi_wrap_mod_2():
    """MLIR's addi/subi on i1 wrap: true + true = false (xor), as the machine computes them."""
    from xdsl.dialects import arith
    from xdsl.dialects.builtin import i1

    from infs.runtime.scalar_ops import eval_scalar_op

    a, b = np.array([True, True, False, False]), np.array([True, False, True, False])
    x, y = arith.ConstantOp.from_int_and_width(1, i1), arith.ConstantOp.from_int_and_width(1, i1)
    for op in (arith.AddiOp(x, y), arith.SubiOp(x, y)):
        np.testing.assert_array_equal(eval_scalar_op(op, [a, b]), a ^ b)


@pytest.mark.parametrize("kind, want", [("min", [True, True]), ("max", [True, False])])
def test_i1_min_max_reductions_start_from_the_identity(kind, want):
    """An i1 min/max without init folds from its identity; the oracle's own
    table asked np.iinfo(bool) and failed with a ValueError.  stream.reduce's
    min/max are signed, true being -1: min is or, max is and."""
    src = reduce_program(kind, "i1", "[1]", "parallel, reduction", "!stream.stream<i1>", False, "d0")
    A = np.array([[True, True], [False, True]])
    O = np.zeros(2, np.bool_)
    run(src, A=A, O=O, M=2, N=2)
    np.testing.assert_array_equal(O, np.array(want))


# ---------------------------------------------------------------------------
# The view path against the general index-grid path
# ---------------------------------------------------------------------------
#
# evaluate_region reads and writes affine accesses through strided views;
# evaluate_region(views=False) takes the general path (index grids, flat cell
# indices, ufunc.at) that the view path falls back to.  Both must give the
# same bits (float reductions included: the view path reduces the grid
# path's very array) and the same errors.

from functools import partial  # noqa: E402

from hypothesis import assume, note  # noqa: E402

from infs.runtime import reference, reference_checks, reference_views  # noqa: E402
from strategies import examples, random_region  # noqa: E402

NP_T = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i8": np.int8, "i64": np.int64}
VIEW_SETTINGS = settings(max_examples=examples(60), deadline=None)


def run_both(text: str, args: dict, seed: int = 0) -> None:
    """Run ``text`` with ``args`` on both paths; same bits, same results or the same error."""
    try:
        module = api.parse_text(text, ctx=CTX)
    except api.InfsError as e:  # a region the verifier rejects (a loop-carried dependence)
        note(str(e))
        assume(False)
    outs = []
    for views in (True, False):
        a = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in args.items()}
        try:
            res = run_function(module, a, executor=partial(reference.evaluate_region, views=views))
            outs.append(("ok", a, res))
        except EvaluationError as e:
            outs.append(("error", str(e), None))
    assert_same_outcome(*outs)


def assert_same_outcome(first: tuple, other: tuple) -> None:
    """Two runs' ("ok", arrays, results) or ("error", message, None): the same bits, or the same error."""
    (k1, a1, r1), (k2, a2, r2) = first, other
    assert k1 == k2, (k1, a1, k2, a2)
    if k1 == "error":
        assert a1 == a2
        return
    for name in a1:
        if isinstance(a1[name], np.ndarray):
            assert_bits_equal(a2[name], a1[name])
    assert len(r1) == len(r2)
    for x, y in zip(r1, r2):
        assert_bits_equal(np.asarray(y), np.asarray(x))


def _float_values(case, seed: int) -> dict:
    """The case's arguments, float arrays drawn from a normal law (sums are then
    order-sensitive: the test sees any change of summation order)."""
    rng = np.random.default_rng(seed)
    args = {}
    for p in case.params:
        v = case.arrays[p].copy() if p in case.arrays else case.scalars[p]
        if isinstance(v, np.ndarray) and v.dtype.kind == "f":
            v = (rng.standard_normal(v.shape) * 3).astype(v.dtype)
        args[p] = v
    return args


@VIEW_SETTINGS
@given(random_region(), st.integers(0, 2**31))
def test_views_match_grids_on_random_regions(case, seed):
    note(case.describe())
    run_both(case.text, _float_values(case, seed))


@st.composite
def affine_case(draw):
    """A region of random affine maps: per array dim an iteration dim times a
    coefficient (1, -1, 2, 3: transposed, reversed, strided), a constant, a
    symbol, two dims on one array dim (d0 + d1), or one dim on two array dims
    (a diagonal); sizes 0, 1, odd and prime; outputs: stores (one or two ops,
    maps that drop dims: the last iteration wins), atomics (colliding points),
    reductions over any dims (float ones: bit-identical), in place."""
    n = draw(st.integers(1, 3))
    ext = [draw(st.sampled_from([0, 1, 1, 2, 3, 5, 7, 11, 13, 17, 37, 37])) for _ in range(n)]
    while math.prod(ext) > 1200:  # sums of 9 and more floats: numpy's order follows the layout
        ext[ext.index(max(ext))] = 3
    lo = [draw(st.integers(0, 2)) for _ in range(n)]
    T = draw(st.sampled_from(["f32", "f64", "i32", "i8"]))
    fp = T.startswith("f")
    k_val = draw(st.integers(0, 3))
    reach: dict[str, list[int]] = {}
    ranks: dict[str, int] = {}
    elems: dict[str, str] = {}

    def coords(j: int) -> list[int]:
        # the coordinates an access sees: the dim's range, and 0 for an empty
        # dim a reduced store indexes (the general path's coordinate then)
        return list(range(lo[j], lo[j] + ext[j])) or [lo[j], 0]

    def expr(name: str, pos: int) -> str:
        kind = draw(st.sampled_from(["dim", "dim", "dim", "dim", "const", "sym", "sum"] + (["rev"] if True else [])))
        if kind == "dim" or (kind in ("sum",) and n == 1):
            j = draw(st.integers(0, n - 1))
            c = draw(st.sampled_from([1, 1, 1, 2, 3]))
            vals = [c * x for x in coords(j)]
            off = max(0, -min(vals)) + draw(st.integers(0, 2))
            e, top = (f"{c}*d{j}" if c != 1 else f"d{j}") + (f" + {off}" if off else ""), max(vals) + off
        elif kind == "rev":
            j = draw(st.integers(0, n - 1))
            c = draw(st.sampled_from([1, 2]))
            top = max(c * x for x in coords(j)) + draw(st.integers(0, 2))
            e = f"{top} - {c}*d{j}" if c != 1 else f"{top} - d{j}"
        elif kind == "const":
            top = draw(st.integers(0, 3))
            e = str(top)
        elif kind == "sym":
            top, e = k_val, "k"
        else:
            a, b = draw(st.permutations(range(n)))[:2]
            top = max(coords(a)) + max(coords(b))
            e = f"d{a} + d{b}"
        reach[name][pos] = max(reach[name][pos], top + 1)
        return e

    def new(prefix: str, rank: int, elem: str) -> str:
        name = f"{prefix}{sum(1 for a in reach if a.startswith(prefix))}"
        reach[name], ranks[name], elems[name] = [1] * rank, rank, elem
        return name

    def amap(name: str) -> str:
        if ranks[name] == n > 1 and draw(st.booleans()):  # a permutation of the dims (transposed)
            perm = draw(st.permutations(range(n)))
            for p, j in enumerate(perm):
                reach[name][p] = max(reach[name][p], max(coords(j)) + 1)
            return ", ".join(f"d{j}" for j in perm)
        es = [expr(name, p) for p in range(ranks[name])]
        if ranks[name] > 1 and draw(st.integers(0, 6)) == 0:  # a diagonal: one dim on two array dims
            j = draw(st.integers(0, n - 1))
            es[0] = es[1] = f"d{j}"
            top = max(coords(j)) + 1
            reach[name][0], reach[name][1] = max(reach[name][0], top), max(reach[name][1], top)
        return ", ".join(es)

    body: list[str] = []
    loads = []
    for i in range(draw(st.integers(1, 3))):
        if loads and draw(st.booleans()):
            x = draw(st.sampled_from([l for l, _ in loads]))
        else:
            x = new("X", draw(st.integers(1, 3)), T)
        body.append(f"%l{i} = stream.load %{x.lower()}[{amap(x)}] : {{{x}}} -> !stream.stream<{T}>")
        loads.append((x, i))
    S = f"!stream.stream<{T}>"
    add = "arith.addf" if fp else "arith.addi"
    mul = "arith.mulf" if fp else "arith.muli"
    lines = [f"%v0 = {add} %a0, %a{len(loads) - 1} : {T}", f"%v1 = {mul} %v0, %a0 : {T}"]
    R = T
    if not fp and draw(st.integers(0, 3)) == 0:  # a cast: the grid path's layout is then rebuilt
        lines.append(f"%v2 = arith.sitofp %v1 : {T} to f32")
        R = "f32"
    else:
        lines.append(f"%v2 = arith.subf %v1, %w : {T}" if fp else f"%v2 = arith.subi %v1, %w : {T}")
    body.append(
        f"%s = stream.compute({', '.join(f'%l{i}' for _, i in loads)}, %alpha : {', '.join([S] * len(loads))}, {T}) -> !stream.stream<{R}> {{\n"
        f"    ^bb1({', '.join(f'%a{i}: {T}' for _, i in loads)}, %w: {T}):\n      " + "\n      ".join(lines) + f"\n      stream.yield %v2 : {R}\n    }}"
    )
    RS = f"!stream.stream<{R}>"
    iterators = ["parallel"] * n
    result = None
    out = draw(st.sampled_from(["store", "store2", "atomic", "reduce", "reduce", "reduce", "inplace"]))
    if out == "inplace" and R == T:
        x = loads[0][0]
        body.append(f"stream.store %s -> %{x.lower()}[{body[0].split('[', 1)[1].split(']')[0]}] : {RS} -> {{{x}}}")
    elif out in ("store", "store2", "inplace"):
        y = new("Y", draw(st.integers(1, 3)), R)
        for _ in range(2 if out == "store2" else 1):
            body.append(f"stream.store %s -> %{y.lower()}[{amap(y)}] : {RS} -> {{{y}}}")
    elif out == "atomic":
        y = new("Y", draw(st.integers(1, 3)), R)
        kind = draw(st.sampled_from(["add", "min", "max"]))
        for _ in range(draw(st.integers(1, 2))):
            body.append(f"stream.atomic {kind} %s -> %{y.lower()}[{amap(y)}] : {RS} -> {{{y}}}")
    else:
        red = sorted(draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=n)))
        for d in red:
            iterators[d] = "reduction"
        kind = draw(st.sampled_from(["add", "add", "max", "min", "mul"]))
        keep = [j for j in range(n) if j not in red]
        if keep:
            z = new("Z", len(keep), R)
            body.append(f"%r = stream.reduce {kind} %s over [{', '.join(map(str, red))}] : {RS} -> {RS}")
            perm = list(draw(st.permutations(keep)))
            body.append(f"stream.store %r -> %{z.lower()}[{', '.join(f'd{j}' for j in perm)}] : {RS} -> {{{z}}}")
            for p, j in enumerate(perm):
                reach[z][p] = max(reach[z][p], max(coords(j)) + 1)
        else:
            result = R
            body.append(f"%r = stream.reduce {kind} %s over [{', '.join(map(str, red))}] : {RS} -> {R}")
    body.append(f"stream.yield %r : {R}" if result else "stream.yield")

    shapes = {a: [r + draw(st.sampled_from([0, 0, 1, 3])) for r in reach[a]] for a in reach}
    types = {a: mt(ranks[a], elems[a]) for a in reach}
    text = "\n    ".join(body)
    for a, t in types.items():
        text = text.replace("{" + a + "}", t)
    names = list(reach)
    domain = ", ".join(f"{lo[j]}:N{j} + {lo[j]}" for j in range(n))
    res = f" -> {result}" if result else ""
    src = (
        f"func.func @f({', '.join([f'%{a}: {types[a]}' for a in names] + [f'%sN{j}: index' for j in range(n)] + ['%sk: index', f'%salpha: {T}'])}){res} {{\n"
        + ("  %out = " if result else "  ")
        + f"stream.region ins({', '.join('%' + a for a in names)} : {', '.join(types[a] for a in names)}) "
        f"syms({', '.join(f'N{j} = %sN{j} : index' for j in range(n))}, k = %sk : index, alpha = %salpha : {T}) "
        f"domain [{domain}] iterators [{', '.join(iterators)}]{res} {{\n"
        f"  ^bb0({', '.join(f'%{a.lower()}: {types[a]}' for a in names)}, {', '.join(f'%N{j}: index' for j in range(n))}, %k: index, %alpha: {T}):\n    "
        + text
        + "\n  }\n"
        + (f"  func.return %out : {result}\n" if result else "  func.return\n")
        + "}\n"
    )
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    args: dict = {}
    for a in names:
        dt = NP_T[elems[a]]
        args[a] = (rng.standard_normal(shapes[a]) * 3).astype(dt) if dt().dtype.kind == "f" else rng.integers(-50, 50, shapes[a]).astype(dt)
    args |= {f"sN{j}": ext[j] for j in range(n)}
    args["sk"] = k_val
    args["salpha"] = NP_T[T](draw(st.integers(-3, 3)))
    return src, args


@VIEW_SETTINGS
@given(affine_case())
@pytest.mark.filterwarnings("error::RuntimeWarning")  # numpy's float warnings are noise here: fail on them
def test_views_match_grids_on_random_affine_maps(case):
    src, args = case
    note(src)
    run_both(src, args)


PRODUCT_ROWS = program(
    {"A": mt(2), "Z": mt(1)},
    {"M": "index", "N": "index"},
    "[0:M, 0:N]",
    "parallel, reduction",
    """    %a = stream.load %mem_A[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %r = stream.reduce mul %a over [1] : !stream.stream<f32> -> !stream.stream<f32>
    stream.store %r -> %mem_Z[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield""",
)


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_a_product_that_overflows_and_then_meets_zero_is_nan_without_a_warning():
    """The fold of the sequential loop: a row whose product reaches inf before a 0
    is inf * 0 = NaN in IEEE f32, one whose 0 comes first stays 0 (the random
    affine test met it: i8 products cast to f32, multiplied over 629 points).
    numpy computed the same bits but warned 'invalid value encountered in reduce'."""
    A = np.array([[1e30, 1e30, 0.0, 2.0], [1e30, 0.0, 1e30, 2.0], [-1e30, 1e30, 1e30, 1.0]], np.float32)
    args = {"A": A, "Z": np.zeros(3, np.float32), "M": 3, "N": 4}
    run_both(PRODUCT_ROWS, args)
    Z = np.zeros(3, np.float32)
    run(PRODUCT_ROWS, A=A, Z=Z, M=3, N=4)
    want = []
    for row in A:  # the loop nest, in f32, in order
        acc = np.float32(1)
        with np.errstate(over="ignore", invalid="ignore"):
            for x in row:
                acc = np.float32(acc * x)
        want.append(acc)
    assert_bits_equal(Z, np.array(want, np.float32))
    assert np.isnan(Z[0]) and Z[1] == 0 and Z[2] == -np.inf


TRANSPOSED_SUM = program(
    {"A": mt(2), "B": mt(2), "Z": mt(1)},
    {"M": "index", "N": "index"},
    "[0:M, 0:N]",
    "reduction, parallel",
    """    %a = stream.load %mem_A[d1, d0] : memref<?x?xf32> -> !stream.stream<f32>
    %b = stream.load %mem_B[d1, d0] : memref<?x?xf32> -> !stream.stream<f32>
"""
    + compute([("%a", F32), ("%b", F32)], F32, "      %t = arith.mulf %x0, %x1 : f32\n      stream.yield %t : f32")
    + """
    %r = stream.reduce add %s over [0] : !stream.stream<f32> -> !stream.stream<f32>
    stream.store %r -> %mem_Z[d1] : !stream.stream<f32> -> memref<?xf32>
    stream.yield""",
)


@pytest.mark.parametrize("m, n", [(37, 41), (9, 3), (100, 7)])
def test_float_reduction_of_transposed_views_is_bit_identical(m, n):
    """The loads are transposed views, the product numpy makes of them is in
    Fortran order, and numpy sums along the contiguous axis pairwise: reducing
    it as it is would change the rounding.  The view path reduces the grid
    path's C-ordered array: the same bits."""
    rng = rng_for(m * n)
    args = {"A": f32(rng, (n, m)), "B": f32(rng, (n, m)), "Z": np.zeros(n, np.float32), "M": m, "N": n}
    run_both(TRANSPOSED_SUM, args)
    Z = args["Z"].copy()
    run(TRANSPOSED_SUM, **(args | {"Z": Z}))
    want = np.add.reduce(np.ascontiguousarray((args["A"] * args["B"]).T), axis=0)  # the grid path's order
    assert_bits_equal(Z, want)


ATOMIC_ROWS = program(
    {"A": mt(2), "Y": mt(1)},
    {"M": "index", "N": "index"},
    "[0:M, 0:N]",
    "parallel, parallel",
    """    %a = stream.load %mem_A[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    stream.atomic add %a -> %mem_Y[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.atomic add %a -> %mem_Y[d0 + 1] : !stream.stream<f32> -> memref<?xf32>
    stream.yield""",
)


@pytest.mark.parametrize("m, n", [(5, 50), (1, 3), (4, 1)])
def test_float_atomics_fold_in_iteration_order(m, n):
    """Colliding float atomics (a map that drops d1) fold op by op, each in
    iteration order -- the general path's ufunc.at order -- bit for bit."""
    rng = rng_for(m + 7 * n)
    A = f32(rng, (m, n)) * np.float32(1000)
    Y = f32(rng, (m + 1,))
    run_both(ATOMIC_ROWS, {"A": A, "Y": Y, "M": m, "N": n})
    want = Y.copy()
    for shift in (0, 1):
        for i in range(m):
            for j in range(n):
                want[i + shift] = np.float32(want[i + shift] + A[i, j])
    run(ATOMIC_ROWS, A=A, Y=Y, M=m, N=n)
    assert_bits_equal(Y, want)


def test_writes_the_views_cannot_order_take_the_general_path(monkeypatch):
    """A store whose map folds two dims into one array dim (d0 + d1: several
    points per cell, not a one-to-one view) goes through the general path's
    flat cells, with its last-writer-wins result."""
    src = program(
        {"A": mt(2), "Y": mt(1)},
        {"M": "index", "N": "index"},
        "[0:M, 0:N]",
        "parallel, parallel",
        """    %a = stream.load %mem_A[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    stream.store %a -> %mem_Y[d0 + d1] : !stream.stream<f32> -> memref<?xf32>
    stream.yield""",
    )
    calls = []
    general = reference_views.apply_writes
    monkeypatch.setattr(reference_views, "apply_writes", lambda *a: calls.append(1) or general(*a))
    A = np.arange(12, dtype=np.float32).reshape(3, 4)
    Y = np.full(6, -1, np.float32)
    run(src, A=A, Y=Y, M=3, N=4)
    # cell c is written by every (i, j) with i + j = c; the last in iteration order has the largest i
    assert Y.tolist() == [A[min(c, 2), c - min(c, 2)] for c in range(6)]
    assert calls == [1]
    calls.clear()
    run(inplace_program("d0", "d0", "[0:N]", 1), A=np.zeros(4, np.float32), N=4)
    assert calls == []  # a one-to-one store: through its view


def test_elementwise_region_allocates_only_its_result():
    """vec_add through views: the loads are views, the store writes through
    one; what the evaluator allocates is the computed values (one array), not
    int64 index grids of the domain (7.4 GiB at 64M elements)."""
    import tracemalloc

    n = 1 << 20
    src = program(
        {"A": mt(1), "B": mt(1), "C": mt(1)},
        {"N": "index"},
        "[0:N]",
        "parallel",
        """    %a = stream.load %mem_A[d0] : memref<?xf32> -> !stream.stream<f32>
    %b = stream.load %mem_B[d0] : memref<?xf32> -> !stream.stream<f32>
"""
        + compute([("%a", F32), ("%b", F32)], F32, "      %t = arith.addf %x0, %x1 : f32\n      stream.yield %t : f32")
        + """
    stream.store %s -> %mem_C[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield""",
    )
    rng = rng_for(3)
    A, B, C = f32(rng, n), f32(rng, n), np.zeros(n, np.float32)
    run(src, A=A, B=B, C=C, N=4)  # parse and warm up
    tracemalloc.start()
    try:
        run(src, A=A, B=B, C=C, N=n)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert_bits_equal(C, A + B)
    assert peak < 1.5 * 4 * n, peak  # one f32 result (the grid path: 3 x 8 bytes per point)


def test_static_dependence_check_follows_the_ir():
    """The static check is cached per region op, keyed on the IR it read: a
    region whose map changes after a run is checked anew."""
    from infs.dialects import stream as stream_d
    from infs.dialects.lattice import AccessMap, Affine
    from infs.dialects.stream import MapAttr

    src = inplace_program("d0", "d0", "[1:N]", 1)
    module = api.parse_text(src, ctx=CTX, verify=False)
    A = np.zeros(4, np.float32)
    run_function(module, {"A": A, "N": 4})
    assert A.tolist() == [0.0, 1.0, 1.0, 1.0]
    load = next(op for op in module.walk() if isinstance(op, stream_d.LoadOp))
    load.properties["map"] = MapAttr(AccessMap((Affine.of("d0") - 1,)))  # A[i] = A[i-1] + 1: carried
    with pytest.raises(EvaluationError, match=CARRIED):
        run_function(module, {"A": A, "N": 4})


def test_bounds_and_alias_facts_follow_the_ir():
    """out_of_bounds_access and aliased_operands read the region's IR once per
    region op (reference_checks._FACTS, keyed like the static check): a map that
    changes after a run is read anew."""
    from infs.dialects import stream as stream_d
    from infs.dialects.lattice import AccessMap, Affine
    from infs.dialects.stream import MapAttr

    module = api.parse_text(inplace_program("d0", "d0", "[0:N]", 1), ctx=CTX)
    region = next(op for op in module.walk() if isinstance(op, stream_d.RegionOp))
    assert reference_checks.out_of_bounds_access(region, [(4,)], [4]) is None
    assert region in reference_checks._FACTS
    load = next(op for op in module.walk() if isinstance(op, stream_d.LoadOp))
    load.properties["map"] = MapAttr(AccessMap((Affine.of("d0") + 1,)))  # A[i + 1]: index 4 of 4
    assert reference_checks.out_of_bounds_access(region, [(4,)], [4]) == f"'stream.load' at line {load.location.line.data} accesses index 4 in dim 0 of an array of shape [4]"
    A = np.zeros(4, np.float32)
    assert reference_checks.aliased_operands(region, [A]) is None


def test_static_dependence_cache_does_not_keep_regions_alive():
    """The cache is weak on the region op, and its key holds the IR's values
    weakly: a module dropped after a run is freed (tests and fuzzers parse
    thousands)."""
    import gc
    import weakref

    from infs.dialects import stream as stream_d

    module = api.parse_text(inplace_program("d0", "d0", "[0:N]", 1), ctx=CTX)
    run_function(module, {"A": np.zeros(4, np.float32), "N": 4})
    region = weakref.ref(next(op for op in module.walk() if isinstance(op, stream_d.RegionOp)))
    assert region() in reference_checks._STATIC_CHECKS
    del module
    gc.collect()
    assert region() is None


@pytest.mark.parametrize("n1", [0, 1, 3])
def test_views_reduce_a_constant_compute_over_an_empty_or_short_range(n1):
    """Regression (test_extract_streams' empty_fold, broken by the view path): a
    float fold of a compute of constants only over [1:1 + n1] -- the grid path
    holds the constant as a scalar, the view path a compact array."""
    text = """func.func @f(%T: memref<?xf32>, %n1: index) {
  stream.region ins(%T : memref<?xf32>) syms(N1 = %n1 : index) domain [0:1, 1:N1 + 1] iterators [parallel, reduction] {
  ^bb0(%t: memref<?xf32>, %N1: index):
    %c = stream.compute() -> !stream.stream<f32> {
      %k = arith.constant 1.0 : f32
      stream.yield %k : f32
    }
    %r = stream.reduce add %c over [1] : !stream.stream<f32> -> !stream.stream<f32>
    stream.store %r -> %t[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}"""
    run_both(text, {"T": np.full(1, 7.0, np.float32), "n1": n1})
    T = np.full(1, 7.0, np.float32)
    run_function(api.parse_text(text), {"T": T, "n1": n1})
    assert T.tolist() == [float(n1)]


# Computes in chunks of the domain (reference_views.CHUNK_POINTS): the chunked view
# path must give the general path's bits on any region it takes.


@VIEW_SETTINGS
@given(random_region(), st.integers(0, 2**31), st.sampled_from([1, 2, 3, 7]))
def test_chunked_computes_match_grids_on_random_regions(case, seed, points):
    note(case.describe())
    saved = reference_views.CHUNK_POINTS
    reference_views.CHUNK_POINTS = points  # every region with two or more compute ops of 2 * points cells runs in chunks
    try:
        run_both(case.text, _float_values(case, seed))
    finally:
        reference_views.CHUNK_POINTS = saved


@VIEW_SETTINGS
@given(affine_case(), st.sampled_from([1, 2, 5]))
def test_chunked_computes_match_grids_on_random_affine_maps(case, points):
    src, args = case
    note(src)
    saved = reference_views.CHUNK_POINTS
    reference_views.CHUNK_POINTS = points
    try:
        run_both(src, args)
    finally:
        reference_views.CHUNK_POINTS = saved


def conv3d_peak(co: int, h: int, w: int) -> tuple[int, int, np.ndarray]:
    """conv3d (infs/workloads) on the reference evaluator: (bytes of one value
    of the tap regions' domain, tracemalloc's peak while running, O)."""
    import tracemalloc

    from infs.workloads import WORKLOADS

    w_ = WORKLOADS["conv3d"]
    module = _CACHE.get("conv3d")
    if module is None:
        module = _CACHE["conv3d"] = api.parse_text(w_.text(), ctx=CTX)
    sizes = {"ci": 2, "co": co, "h": h, "w": w}
    args = w_.make_inputs(sizes, np.random.default_rng(0)) | sizes
    run_function(module, {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in args.items()})  # warm up
    tracemalloc.start()
    try:
        run_function(module, args)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return co * (h - 2) * (w - 2) * 4, peak, args["O"]


def test_conv3d_taps_run_in_chunks_of_the_domain():
    """conv3d's tap region holds three partial sums and the products being
    added, 5 values of the domain's size, when its computes run on the whole
    domain (3.4x the arrays near memory); in chunks only the stored
    sum is whole.  Same bits as the whole-domain evaluation."""
    value, peak, chunked = conv3d_peak(32, 130, 130)
    assert 32 * 128 * 128 >= 8 * getattr(reference, "CHUNK_POINTS", 1 << 16)  # the region is chunked
    assert peak < 2 * value, (peak, value)
    saved = getattr(reference, "CHUNK_POINTS", 1 << 16)
    reference_views.CHUNK_POINTS = 1 << 40  # no chunks
    try:
        _, whole_peak, whole = conv3d_peak(32, 130, 130)
    finally:
        reference_views.CHUNK_POINTS = saved
    assert whole_peak > 4 * value  # what the chunks save
    assert_bits_equal(chunked, whole)


# Large domains in rows of the outermost dim (reference_checks.ROW_POINTS): the rows
# give the whole domain's bits, results and errors on any region they take.


def run_rows_and_whole(text: str, args: dict, points: int) -> None:
    try:
        module = api.parse_text(text, ctx=CTX)
    except api.InfsError as e:
        note(str(e))
        assume(False)
    outs = []
    saved = reference_checks.ROW_POINTS
    try:
        for row_points, views in ((1 << 62, True), (points, True), (points, False)):
            reference_checks.ROW_POINTS = row_points
            a = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in args.items()}
            try:
                outs.append(("ok", a, run_function(module, a, executor=partial(reference.evaluate_region, views=views))))
            except EvaluationError as e:
                outs.append(("error", str(e), None))
    finally:
        reference_checks.ROW_POINTS = saved
    whole, *rows = outs
    for out in rows:
        assert_same_outcome(whole, out)


@VIEW_SETTINGS
@given(random_region(), st.integers(0, 2**31), st.sampled_from([1, 2, 3, 7, 40]))
def test_rows_match_the_whole_domain_on_random_regions(case, seed, points):
    note(case.describe())
    run_rows_and_whole(case.text, _float_values(case, seed), points)


@VIEW_SETTINGS
@given(affine_case(), st.sampled_from([1, 2, 5]))
def test_rows_match_the_whole_domain_on_random_affine_maps(case, points):
    src, args = case
    note(src)
    run_rows_and_whole(src, args, points)


def test_mm_inner_runs_in_rows_at_paper_size():
    """mm_inner's region at the paper's 2048^3 (Table 3) materializes 8.6G
    products evaluated whole, more than this host has: it runs in rows of
    i instead, whose products fit, with the whole domain's bits (a float sum
    over k, each output's terms in the same layout)."""
    from infs.workloads import WORKLOADS

    w = WORKLOADS["mm_inner"]
    module = api.parse_text(w.text(), ctx=CTX)
    region = next(op for op in module.walk() if op.name == "stream.region")
    assert reference_checks.evaluated_points(region, [(0, 2048)] * 3) == 4 * 2048 * 2048  # 4 rows of i at a time
    reference_checks.check_domain_memory(region, [(0, 2048)] * 3)  # no error
    sizes = {"m": 7, "n": 5, "k": 301}
    args = w.make_inputs(sizes, np.random.default_rng(1)) | sizes
    run_rows_and_whole(w.text(), args, 2 * 5 * 301)  # rows of 2, 2, 2 and 1


def test_rows_are_not_taken_when_a_written_array_is_a_read_one():
    """B[i+1] = A[i] with A and B one array at run time: row i+1 would read
    what row i wrote, which the whole domain's evaluation reports as a
    dependence of the actual cells; rows must not hide it."""
    text = """
func.func @f(%A: memref<?x4xf32>, %B: memref<?x4xf32>, %n: index) {
  stream.region ins(%A, %B : memref<?x4xf32>, memref<?x4xf32>) syms(N = %n : index) domain [0:N, 0:4] iterators [parallel, parallel] {
  ^bb0(%a: memref<?x4xf32>, %b: memref<?x4xf32>, %N: index):
    %x = stream.load %a[d0, d1] : memref<?x4xf32> -> !stream.stream<f32>
    stream.store %x -> %b[d0 + 1, d1] : !stream.stream<f32> -> memref<?x4xf32>
    stream.yield
  }
  func.return
}"""
    module = api.parse_text(text, ctx=CTX)
    region = next(op for op in module.walk() if op.name == "stream.region")
    saved = reference_checks.ROW_POINTS
    reference_checks.ROW_POINTS = 4
    try:
        A = np.arange(24, dtype=np.float32).reshape(6, 4)
        assert reference_checks.row_parts(region, (5, 4)) == 1  # distinct operands: rows by the IR
        with pytest.raises(EvaluationError, match="depend|written"):
            reference.evaluate_region(region, [A, A], [5])
    finally:
        reference_checks.ROW_POINTS = saved


def test_rows_are_not_taken_when_a_compute_can_fail_on_some_points():
    """An integer division fails on the points whose divisor is 0.  The whole
    domain evaluates each op over every point before any store: the first op
    (in program order) that fails anywhere is the error, and nothing is
    written.  Rows would store row 0 before row 1's zero divisor is seen, and
    name the op that fails first in row 0 (here arith.remsi, not
    arith.divsi): the same error and the same arrays either way."""
    text = """
func.func @f(%A: memref<?x4xi32>, %B: memref<?x4xi32>, %C: memref<?x4xi32>, %O: memref<?x4xi32>, %n: index) {
  stream.region ins(%A, %B, %C, %O : memref<?x4xi32>, memref<?x4xi32>, memref<?x4xi32>, memref<?x4xi32>) syms(N = %n : index) domain [0:N, 0:4] iterators [parallel, parallel] {
  ^bb0(%a: memref<?x4xi32>, %b: memref<?x4xi32>, %c: memref<?x4xi32>, %o: memref<?x4xi32>, %N: index):
    %x = stream.load %a[d0, d1] : memref<?x4xi32> -> !stream.stream<i32>
    %y = stream.load %b[d0, d1] : memref<?x4xi32> -> !stream.stream<i32>
    %z = stream.load %c[d0, d1] : memref<?x4xi32> -> !stream.stream<i32>
    %q = stream.compute(%x, %y : !stream.stream<i32>, !stream.stream<i32>) -> !stream.stream<i32> {
    ^bb1(%u: i32, %v: i32):
      %r = arith.divsi %u, %v : i32
      stream.yield %r : i32
    }
    %s = stream.compute(%q, %z : !stream.stream<i32>, !stream.stream<i32>) -> !stream.stream<i32> {
    ^bb1(%u: i32, %v: i32):
      %r = arith.remsi %u, %v : i32
      stream.yield %r : i32
    }
    stream.store %s -> %o[d0, d1] : !stream.stream<i32> -> memref<?x4xi32>
    stream.yield
  }
  func.return
}"""
    n = 5
    A = np.arange(1, 4 * n + 1, dtype=np.int32).reshape(n, 4)
    B = np.ones((n, 4), np.int32)
    B[n - 1, 2] = 0  # divsi fails in the last row only
    C = np.full((n, 4), 3, np.int32)
    C[0, 1] = 0  # remsi fails in the first row only
    outs = []
    saved = reference_checks.ROW_POINTS
    try:
        for row_points in (1 << 62, 4):  # whole; rows of one i
            reference_checks.ROW_POINTS = row_points
            O = np.full((n, 4), -1, np.int32)
            with pytest.raises(EvaluationError) as e:
                run_function(api.parse_text(text, ctx=CTX), {"A": A, "B": B, "C": C, "O": O, "n": n}, executor=reference.evaluate_region)
            outs.append((str(e.value), O))
    finally:
        reference_checks.ROW_POINTS = saved
    (msg0, O0), (msg1, O1) = outs
    assert "arith.divsi" in msg0 and (O0 == -1).all()  # the whole domain: the first op's error, nothing stored
    assert msg1 == msg0
    np.testing.assert_array_equal(O1, O0)
