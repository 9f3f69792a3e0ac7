"""In-memory results that were silently wrong, and empty domains.

1. A ``stream.reduce`` over several dims (a whole 2-D sum; a 3-D array summed
   over dims [0, 1]) lowered to one partial dim only: the near-memory fold
   stepped by 1 along the other reduced dims and added the reduce rounds'
   leftovers (2x2 [[1, 2], [3, 4]]: 17, not 10).  A reduce of partials must
   also fold over the tile-aligned box (a head piece's partial sits at its
   tile's first cell, before the box).
2. A reduction over a transposed access with runtime shapes: the stream_load
   tensor was clipped to the arrays' hull (in the oracle and in
   choose-layout), so lattice rows were lost.
3. An empty domain (a size of 0, or ``[1:N - 1]`` with ``N = 1``) failed in
   ``infs-opt --lower-pim`` inside the generated IR (a LOT entry of shape
   [0]; a concrete inverted range); it lowers to a program that does nothing.
4. Iteration domains larger than every array (found by the fuzzers; cases F1, F2, F5): a
   fixed-index load broadcast over the domain, a store through a reversed
   map from ``[1:N + 1]``, a reduce over an offset dim lost the iterations
   outside the arrays' hull (oracle and in memory).  F4: a reduction of a
   broadcast beyond the arrays failed to lower.  B4: moves merged across
   the discard at the lattice's origin.

Then properties (hypothesis): random reductions over every subset of dims of
rank-1..3 arrays, with transposed / permuted load and store maps, offset
domains, arrays larger than the domain, odd and prime sizes, several element
types and kinds, machines ``tiny`` / ``small-16`` and random forced tile
shapes, through ``run_program(mode="in")`` (tensorize, JIT, simulator) and
through the ``infs-opt`` passes (specialize ... allocate-wordlines, the
programs run on the simulator), against the stream reference.
"""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from infs import api
from infs.dialects import pimcmd as pc
from infs.hardware import load_config
from infs.passes.lower_pim.lower_pim import LowerPimPass
from infs.passes.tensorize import TensorizePass
from infs.runtime import host
from infs.runtime.check import compare_values
from infs.runtime.driver import RunOptions, run_program
from infs.passes.tensorize import tensorize_module
from infs.runtime.lattice_eval import run_function as lattice_run
from infs.runtime.scalar_ops import numpy_dtype
from infs.sim import Machine

ROOT = Path(__file__).resolve().parents[1]
ELEM = {"f32": np.float32, "i32": np.int32, "i16": np.int16}


# ---------------------------------------------------------------------------
# Program text
# ---------------------------------------------------------------------------


def reduce_program(rank: int, dims: tuple[int, ...], kind: str = "add", elem: str = "f32", perm: tuple[int, ...] | None = None,
                   lo: tuple[int, ...] | None = None, store_perm: tuple[int, ...] | None = None) -> str:  # fmt: skip
    """``stream.reduce kind`` over ``dims`` of ``A[d_perm...]`` on the domain
    ``[lo_i:S_i]``; a full reduction returns a scalar, a partial one is stored
    into ``Y`` at the kept dims (in ``store_perm`` order of the kept dims)."""
    perm = perm or tuple(range(rank))
    lo = lo or (0,) * rank
    kept = [d for d in range(rank) if d not in dims]
    full = not kept
    a_t = f"memref<{'?x' * rank}{elem}>"
    syms = ", ".join(f"S{i} = %s{i} : index" for i in range(rank))
    args = ", ".join(f"%s{i}: index" for i in range(rank))
    dom = ", ".join(f"{lo[i]}:S{i}" for i in range(rank))
    iters = ", ".join("reduction" if i in dims else "parallel" for i in range(rank))
    amap = ", ".join(f"d{p}" for p in perm)
    sym_args = ", ".join(f"%S{i}: index" for i in range(rank))
    dims_txt = ", ".join(map(str, dims))
    if full:
        return f"""func.func @f(%A: {a_t}, {args}) -> {elem} {{
  %r = stream.region ins(%A : {a_t}) syms({syms}) domain [{dom}] iterators [{iters}] -> {elem} {{
  ^bb0(%a: {a_t}, {sym_args}):
    %x = stream.load %a[{amap}] : {a_t} -> !stream.stream<{elem}>
    %s = stream.reduce {kind} %x over [{dims_txt}] : !stream.stream<{elem}> -> {elem}
    stream.yield %s : {elem}
  }}
  func.return %r : {elem}
}}"""
    order = [kept[j] for j in (store_perm or range(len(kept)))]
    y_t = f"memref<{'?x' * len(kept)}{elem}>"
    ymap = ", ".join(f"d{d}" for d in order)
    return f"""func.func @f(%A: {a_t}, %Y: {y_t}, {args}) {{
  stream.region ins(%A, %Y : {a_t}, {y_t}) syms({syms}) domain [{dom}] iterators [{iters}] {{
  ^bb0(%a: {a_t}, %y: {y_t}, {sym_args}):
    %x = stream.load %a[{amap}] : {a_t} -> !stream.stream<{elem}>
    %s = stream.reduce {kind} %x over [{dims_txt}] : !stream.stream<{elem}> -> !stream.stream<{elem}>
    stream.store %s -> %y[{ymap}] : !stream.stream<{elem}> -> {y_t}
    stream.yield
  }}
  func.return
}}"""


def make_args(rank: int, dims, sizes, elem="f32", perm=None, extra=None, store_perm=None, kind="add", seed=0) -> dict[str, Any]:
    perm = perm or tuple(range(rank))
    extra = extra or (0,) * rank
    rng = np.random.default_rng(seed)
    shape = tuple(sizes[p] + extra[p] for p in perm)
    dt = ELEM[elem]
    if kind == "mul":  # products stay representable (and exact for ints)
        vals = rng.choice([1, 1, 1, -1, 2], size=shape) if dt != np.float32 else rng.uniform(0.9, 1.1, size=shape)
    elif dt == np.float32:
        vals = rng.uniform(-1, 1, size=shape)
    else:
        vals = rng.integers(-50, 50, size=shape)
    args: dict[str, Any] = {"A": np.asarray(vals, dtype=dt)}
    kept = [d for d in range(rank) if d not in dims]
    if kept:
        order = [kept[j] for j in (store_perm or range(len(kept)))]
        args["Y"] = np.full(tuple(sizes[d] for d in order), 7, dtype=dt)
    for i in range(rank):
        args[f"s{i}"] = sizes[i]
    return args


def _copy(args: dict[str, Any]) -> dict[str, Any]:
    return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in args.items()}


def reference(module, args) -> tuple[tuple[Any, ...], dict[str, Any]]:
    ref = _copy(args)
    return tuple(host.run_function(module, ref)), ref


def assert_same(got_res, got_args, want_res, want_args, what: str) -> None:
    """Results and arrays as ``--check`` compares them (f32 within tolerance, ints exact)."""
    actual = {f"result{i}": v for i, v in enumerate(got_res)} | {k: got_args[k] for k, v in want_args.items() if isinstance(v, np.ndarray)}
    expected = {f"result{i}": v for i, v in enumerate(want_res)} | {k: v for k, v in want_args.items() if isinstance(v, np.ndarray)}
    assert len(got_res) == len(want_res), f"{what}: {len(got_res)} results, expected {len(want_res)}"
    check = compare_values(actual, expected)
    assert check.ok, f"{what}: {check.note}"


def run_in(module, args, config="tiny", tiles=None):
    """``--mode in`` through the runtime: the region must really run in memory."""
    got = _copy(args)
    report = run_program(module, got, None, RunOptions(config=config, mode="in", tiles=tiles))
    return report, got


CAPACITY = ("SRAM arrays", "wordline", "cache line", "bitlines")


def in_memory_or_reject(report) -> None:
    """A layout that does not fit the machine is not this test's concern
    (rejected); any other reason to leave memory is a failure."""
    for rec in report.regions:
        if rec.mode != "in":
            assume(not any(k in rec.reason for k in CAPACITY))
            raise AssertionError(f"region {rec.region} ran {rec.mode}: {rec.reason}")


# ---------------------------------------------------------------------------
# The infs-opt path: passes on IR, then the printed programs on the simulator
# ---------------------------------------------------------------------------


@register_impls
class _ProgramFunctions(InterpreterFunctions):
    """Runs the ``pimcmd.program`` ops ``infs-opt --lower-pim`` leaves in the host code."""

    def __init__(self, config: str):
        self.machine = Machine(config)
        self.programs = 0

    @impl(pc.ProgramOp)
    def run_program(self, interpreter: Interpreter, op: pc.ProgramOp, args: tuple[Any, ...]):
        n = len(op.arrays)
        self.machine.run(op, dict(enumerate(args[:n])), scalars=[np.asarray(s).item() for s in args[n:]])
        self.programs += 1
        return tuple(np.asarray(self.machine.results[i], dtype=numpy_dtype(r.type))[()] for i, r in enumerate(op.res))


def run_opt(module, args, sizes: dict[str, int], config="tiny", tiles=""):
    """tensorize + lower-pim (sizes bound at compile time, as ``infs-opt``), re-parsed, then run."""
    low = api.run_pipeline(module.clone(), [TensorizePass(), LowerPimPass(sizes=",".join(f"{k}={v}" for k, v in sizes.items()), config=config, tiles=tiles)])
    low = api.parse_text(api.to_text(low))  # what infs-opt prints is what runs
    interp = host.make_interpreter(low)
    progs = _ProgramFunctions(config)
    interp.register_implementations(progs)
    got = _copy(args)
    fn = host.find_function(low)
    res = tuple(interp.call_op(fn, tuple(host.bind_arguments(fn, got))))
    return res, got, progs.programs


# ---------------------------------------------------------------------------
# Reductions over several dims
# ---------------------------------------------------------------------------


def test_sum_of_a_whole_2x2_array_in_memory():
    module = api.parse_text(reduce_program(2, (0, 1)))
    args = {"A": np.array([[1, 2], [3, 4]], np.float32), "s0": 2, "s1": 2}
    for config in ("tiny", "small-16"):
        report, _ = run_in(module, args, config)
        assert [r.mode for r in report.regions] == ["in"]
        assert report.results[0] == 10.0  # was 17


def test_3d_sum_over_dims_0_1_into_a_vector():
    module = api.parse_text(reduce_program(3, (0, 1)))
    args = make_args(3, (0, 1), (3, 4, 5))
    want = reference(module, args)
    for config in ("tiny", "small-16"):
        report, got = run_in(module, args, config)
        assert [r.mode for r in report.regions] == ["in"]
        assert_same(report.results, got, *want, config)


@pytest.mark.parametrize("tiles", [(8, 8), (4, 16), (2, 32)])
def test_2d_sum_of_an_offset_domain_folds_the_head_tiles(tiles):
    """[1:13, 3:16]: the dim-0 head piece's partials go to row 0, outside the
    box; the dim-1 reduce must fold that row too."""
    module = api.parse_text(reduce_program(2, (0, 1), lo=(1, 3)))
    args = make_args(2, (0, 1), (13, 16))
    want = reference(module, args)
    report, got = run_in(module, args, "small-16", tiles)
    assert [r.mode for r in report.regions] == ["in"]
    assert_same(report.results, got, *want, f"tiles {tiles}")


def test_mul_over_two_dims_is_not_idempotent():
    """max/min hid the bug (folding leftovers twice changes nothing); mul does not."""
    module = api.parse_text(reduce_program(2, (0, 1), kind="mul", elem="i32"))
    args = make_args(2, (0, 1), (5, 6), elem="i32", kind="mul")
    want = reference(module, args)
    report, got = run_in(module, args, "tiny")
    assert_same(report.results, got, *want, "mul")


# ---------------------------------------------------------------------------
# A transposed access with the runtime's real shapes
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n,m", [(5, 7), (7, 5), (3, 11), (1, 6)])
def test_reduction_over_a_transposed_access(n, m):
    """y[d0] = sum over d1 of A[d1, d0], domain [0:N, 0:M], A is MxN."""
    module = api.parse_text(reduce_program(2, (1,), perm=(1, 0)))
    args = make_args(2, (1,), (n, m), perm=(1, 0))
    want = reference(module, args)
    np.testing.assert_allclose(want[1]["Y"], args["A"].sum(axis=0), rtol=1e-5)
    report, got = run_in(module, args, "tiny")
    assert [r.mode for r in report.regions] == ["in"]
    assert_same(report.results, got, *want, "in memory")
    # the tDFG oracle (lattice semantics with the real arrays) agrees too
    lat = _copy(args)
    lattice_run(tensorize_module(module), lat)
    assert_same((), lat, *want, "lattice oracle")


# ---------------------------------------------------------------------------
# Empty domains
# ---------------------------------------------------------------------------


def _workload(name: str):
    return api.parse_file(ROOT / "infs" / "workloads" / f"{name}.mlir")


def test_empty_domain_lowers_with_infs_opt():
    r = subprocess.run([sys.executable, "-m", "infs.tools.infs_opt", "--tensorize", "--lower-pim=sizes=N=0 config=tiny",
                        str(ROOT / "infs" / "workloads" / "vec_add.mlir")], capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "pimcmd.program" in r.stdout and "pimcmd.array" not in r.stdout


@pytest.mark.parametrize("name,sizes,args", [
    ("vec_add", {"N": 0}, {"A": np.zeros(0, np.float32), "B": np.zeros(0, np.float32), "C": np.zeros(0, np.float32), "n": 0}),
    ("array_sum", {"N": 0}, {"A": np.zeros(0, np.float32), "n": 0}),
    # [1:M - 1] with M = 1 is the inverted range [1:0] once specialized
    ("stencil2d", {"M": 1, "N": 1}, {"A": np.ones((1, 1), np.float32), "B": np.ones((1, 1), np.float32),
                                      "W": np.ones(2, np.float32), "m": 1, "n": 1, "t": 2}),
    ("stencil2d", {"M": 0, "N": 5}, {"A": np.ones((0, 5), np.float32), "B": np.ones((0, 5), np.float32),
                                      "W": np.ones(2, np.float32), "m": 0, "n": 5, "t": 2}),
])  # fmt: skip
def test_empty_domain_program_matches_the_reference(name, sizes, args):
    module = _workload(name)
    want = reference(module, args)
    res, got, programs = run_opt(module, args, sizes)
    assert programs >= 1
    assert_same(res, got, *want, name)


def test_empty_reductions_give_the_identity():
    for kind, elem in (("add", "f32"), ("max", "f32"), ("min", "i32"), ("mul", "f32")):
        module = api.parse_text(reduce_program(2, (0, 1), kind=kind, elem=elem))
        args = make_args(2, (0, 1), (0, 3), elem=elem)
        want = reference(module, args)
        res, got, _ = run_opt(module, args, {"S0": 0, "S1": 3})
        assert_same(res, got, *want, f"{kind} (infs-opt)")
        report, got = run_in(module, args, "tiny")
        assert_same(report.results, got, *want, f"{kind} (mode in)")


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

# per machine and rank, the largest size per dim that fits the lattice
MAX_SIZE = {"tiny": {1: 40, 2: 9, 3: 4}, "small-16": {1: 200, 2: 23, 3: 9}}
ODD_SIZES = [1, 2, 3, 5, 7, 9, 11, 13, 17, 19, 23, 31, 37, 41, 97, 131, 199]


def _tile_shapes(bitlines: int, rank: int) -> list[tuple[int, ...]]:
    powers = [1 << k for k in range(int(math.log2(bitlines)) + 1)]
    return [t for t in itertools.product(powers, repeat=rank) if math.prod(t) == bitlines]


@st.composite
def reduction_case(draw):
    config = draw(st.sampled_from(["tiny", "small-16"]))
    rank = draw(st.integers(1, 3))
    dims = tuple(sorted(draw(st.sets(st.integers(0, rank - 1), min_size=1))))
    kind = draw(st.sampled_from(["add", "add", "max", "min", "mul"]))
    elem = draw(st.sampled_from(["f32", "i32", "i16"] if kind != "mul" else ["f32", "i32"]))
    hi = MAX_SIZE[config][rank]
    sizes = tuple(draw(st.sampled_from([s for s in ODD_SIZES if s <= hi] + [hi]) | st.just(0)) for _ in range(rank))
    perm = tuple(draw(st.permutations(range(rank))))
    lo = tuple(draw(st.integers(0, min(2, s))) for s in sizes)
    extra = tuple(draw(st.sampled_from([0, 0, 1, 3])) for _ in range(rank))
    kept = rank - len(dims)
    store_perm = tuple(draw(st.permutations(range(kept)))) if kept else None
    tiles = draw(st.none() | st.sampled_from(_tile_shapes(load_config(config).bitlines, rank)))
    seed = draw(st.integers(0, 2**16))
    return config, rank, dims, kind, elem, sizes, perm, lo, extra, store_perm, tiles, seed


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(reduction_case())
def test_random_reductions_in_memory_match_the_stream_reference(case):
    config, rank, dims, kind, elem, sizes, perm, lo, extra, store_perm, tiles, seed = case
    text = reduce_program(rank, dims, kind, elem, perm, lo, store_perm)
    note(text)
    module = api.parse_text(text)
    args = make_args(rank, dims, sizes, elem, perm, extra, store_perm, kind, seed)
    want = reference(module, args)
    report, got = run_in(module, args, config, tiles)
    in_memory_or_reject(report)
    assert_same(report.results, got, *want, f"{config} tiles {tiles}")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(reduction_case(), st.booleans())
def test_random_reductions_through_infs_opt_match_the_stream_reference(case, empty):
    """The same programs lowered by the passes with sizes bound at compile time
    (arrays exactly the domain's size: ``infs-opt`` knows no runtime shapes);
    sometimes with one size 0."""
    config, rank, dims, kind, elem, sizes, perm, lo, _, store_perm, tiles, seed = case
    if empty:
        sizes = tuple(0 if i == 0 else s for i, s in enumerate(sizes))
        lo = (0,) + lo[1:]
    text = reduce_program(rank, dims, kind, elem, perm, lo, store_perm)
    note(text)
    module = api.parse_text(text)
    args = make_args(rank, dims, sizes, elem, perm, None, store_perm, kind, seed)
    want = reference(module, args)
    try:
        res, got, _ = run_opt(module, args, {f"S{i}": s for i, s in enumerate(sizes)}, config, "x".join(map(str, tiles)) if tiles else "")
    except api.InfsError as e:
        assume(not any(k in str(e) for k in CAPACITY))
        raise
    assert_same(res, got, *want, f"{config} tiles {tiles}")


# ---------------------------------------------------------------------------
# Iteration domains larger than every array (found by the fuzzers; cases F1, F2, F5): the
# lattice was the arrays' hull, so the iterations of a fixed-index load
# broadcast over the domain, of a store through a reversed map from a domain
# [1:N + 1], or of a reduce over an offset dim, beyond it were dropped (in
# the lattice oracle and in memory).
# ---------------------------------------------------------------------------

F1_REVERSED_STORE = """func.func @f(%X: memref<?xf32>, %Y: memref<?xf32>, %n: index) {
  stream.region ins(%X, %Y : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [1:N + 1] iterators [parallel] {
  ^bb0(%x: memref<?xf32>, %y: memref<?xf32>, %N: index):
    %l = stream.load %x[0] : memref<?xf32> -> !stream.stream<f32>
    stream.store %l -> %y[N - d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}"""

F2_BROADCAST_SUM = """func.func @f(%X0: memref<3xi16>, %sN0: index, %sk: index, %salpha: i16) -> i16 {
  %out = stream.region ins(%X0 : memref<3xi16>) syms(N0 = %sN0 : index, k = %sk : index, alpha = %salpha : i16) domain [0:N0] iterators [reduction] -> i16 {
  ^bb0(%x0: memref<3xi16>, %N0: index, %k: index, %alpha: i16):
    %l0 = stream.load %x0[k] : memref<3xi16> -> !stream.stream<i16>
    %s = stream.compute(%l0, %alpha : !stream.stream<i16>, i16) -> !stream.stream<i16> {
    ^bb1(%a0: i16, %a1: i16):
      %p0 = arith.cmpi sge, %a0, %a1 : i16
      %v0 = arith.select %p0, %a1, %a0 : i16
      %fin = arith.addi %v0, %a0 : i16
      stream.yield %fin : i16
    }
    %r = stream.reduce add %s over [0] : !stream.stream<i16> -> i16
    stream.yield %r : i16
  }
  func.return %out : i16
}"""

F2_FIXED_STORE = """func.func @f(%X0: memref<4xi8>, %Y0: memref<?xi8>, %sN0: index, %sk: index, %salpha: i8) {
  stream.region ins(%X0, %Y0 : memref<4xi8>, memref<?xi8>) syms(N0 = %sN0 : index, k = %sk : index, alpha = %salpha : i8) domain [0:N0] iterators [parallel] {
  ^bb0(%x0: memref<4xi8>, %y0: memref<?xi8>, %N0: index, %k: index, %alpha: i8):
    %l0 = stream.load %x0[k] : memref<4xi8> -> !stream.stream<i8>
    %s = stream.compute(%l0, %alpha : !stream.stream<i8>, i8) -> !stream.stream<i8> {
    ^bb1(%a0: i8, %a1: i8):
      %v0 = arith.maxsi %a0, %a1 : i8
      %fin = arith.addi %v0, %a0 : i8
      stream.yield %fin : i8
    }
    stream.store %s -> %y0[k] : !stream.stream<i8> -> memref<?xi8>
    stream.yield
  }
  func.return
}"""

F2_ATOMIC = """func.func @f(%X0: memref<?xf32>, %Y0: memref<?xf32>, %J0: memref<?xi32>, %sN0: index, %sk: index, %salpha: f32) {
  stream.region ins(%X0, %Y0, %J0 : memref<?xf32>, memref<?xf32>, memref<?xi32>) syms(N0 = %sN0 : index, k = %sk : index, alpha = %salpha : f32) domain [0:N0] iterators [parallel] {
  ^bb0(%x0: memref<?xf32>, %y0: memref<?xf32>, %j0: memref<?xi32>, %N0: index, %k: index, %alpha: f32):
    %l0 = stream.load %x0[k] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%l0, %alpha : !stream.stream<f32>, f32) -> !stream.stream<f32> {
    ^bb1(%a0: f32, %a1: f32):
      %v1 = math.fma %a1, %a1, %a0 : f32
      %fin = arith.addf %v1, %a0 : f32
      stream.yield %fin : f32
    }
    %iq = stream.load %j0[k] : memref<?xi32> -> !stream.stream<i32>
    stream.atomic add %s -> %y0[%iq] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}"""

F5_OFFSET_REDUCE = """func.func @f(%X0: memref<?x?xi8>, %X1: memref<?x?xi8>, %J0: memref<?xi32>, %X2: memref<?xi8>, %Z0: memref<?xi8>, %sN0: index, %sN1: index, %sk: index, %salpha: i8) {
  stream.region ins(%X0, %X1, %J0, %X2, %Z0 : memref<?x?xi8>, memref<?x?xi8>, memref<?xi32>, memref<?xi8>, memref<?xi8>) syms(N0 = %sN0 : index, N1 = %sN1 : index, k = %sk : index, alpha = %salpha : i8) domain [0:N0, 2:N1 + 2] iterators [parallel, reduction] {
  ^bb0(%x0: memref<?x?xi8>, %x1: memref<?x?xi8>, %j0: memref<?xi32>, %x2: memref<?xi8>, %z0: memref<?xi8>, %N0: index, %N1: index, %k: index, %alpha: i8):
    %l0 = stream.load %x0[1, d1 - 1] : memref<?x?xi8> -> !stream.stream<i8>
    %ix1 = stream.load %j0[d0] : memref<?xi32> -> !stream.stream<i32>
    %l1 = stream.load %x1[%ix1, d1 - 1] : memref<?x?xi8> -> !stream.stream<i8>
    %l2 = stream.load %x2[d1 - 1] : memref<?xi8> -> !stream.stream<i8>
    %s = stream.compute(%l0, %l1, %l2, %alpha : !stream.stream<i8>, !stream.stream<i8>, !stream.stream<i8>, i8) -> !stream.stream<i8> {
    ^bb1(%a0: i8, %a1: i8, %a2: i8, %a3: i8):
      %v0 = arith.muli %a2, %a0 : i8
      %fin = arith.addi %v0, %a0 : i8
      stream.yield %fin : i8
    }
    %r = stream.reduce mul %s over [1] : !stream.stream<i8> -> !stream.stream<i8>
    stream.store %r -> %z0[0] : !stream.stream<i8> -> memref<?xi8>
    stream.yield
  }
  func.return
}"""

REVERSED_IN_PLACE = """func.func @f(%X0: memref<1xf32>, %sN0: index) {
  stream.region ins(%X0 : memref<1xf32>) syms(N0 = %sN0 : index) domain [2:N0 + 2] iterators [parallel] {
  ^bb0(%x0: memref<1xf32>, %N0: index):
    %l0 = stream.load %x0[0] : memref<1xf32> -> !stream.stream<f32>
    %s = stream.compute(%l0 : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%a0: f32):
      %v0 = arith.addf %a0, %a0 : f32
      %fin = arith.addf %v0, %a0 : f32
      stream.yield %fin : f32
    }
    stream.store %s -> %x0[N0 + 1 - d0] : !stream.stream<f32> -> memref<1xf32>
    stream.yield
  }
  func.return
}"""

NEGATIVE_DOMAIN = """func.func @f(%X: memref<?xf32>, %n: index) -> f32 {
  %r = stream.region ins(%X : memref<?xf32>) syms(N = %n : index) domain [-2:N] iterators [reduction] -> f32 {
  ^bb0(%x: memref<?xf32>, %N: index):
    %l = stream.load %x[0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.reduce add %l over [0] : !stream.stream<f32> -> f32
    stream.yield %s : f32
  }
  func.return %r : f32
}"""

_I8, _F32 = np.int8, np.float32
WIDE_DOMAIN_CASES = {
    "F1 reversed store": (F1_REVERSED_STORE, {"X": np.array([3], _F32), "Y": np.array([0], _F32), "n": 1}),
    "F1 reversed store, N=5": (F1_REVERSED_STORE, {"X": np.array([3, 1], _F32), "Y": np.arange(5, dtype=_F32), "n": 5}),
    "F2 broadcast sum": (F2_BROADCAST_SUM, {"X0": np.array([2, 4, 3], np.int16), "sN0": 53, "sk": 2, "salpha": np.int16(0)}),
    "F2 fixed store": (F2_FIXED_STORE, {"X0": np.array([1, -4, 3, 3], _I8), "Y0": np.array([0, -1, -4, -4, -2, 2], _I8),
                                         "sN0": 97, "sk": 3, "salpha": _I8(2)}),
    "F2 atomic": (F2_ATOMIC, {"X0": np.array([-2, -1], _F32), "Y0": np.array([2, 0, 3, -3], _F32), "J0": np.array([2, 2], np.int32),
                              "sN0": 31, "sk": 1, "salpha": _F32(0)}),
    "F5 offset reduce": (F5_OFFSET_REDUCE, {"X0": np.array([[0, 4, 2], [1, 3, 1]], _I8),
                                            "X1": np.array([[1, 3, 1], [-4, -1, -1], [-4, 3, -3], [4, 3, -4], [3, 2, 2], [-1, 0, 4], [3, 1, 1]], _I8),
                                            "J0": np.array([3, 2, 1, 1, 1, 6, 0, 5, 3, 2, 4, 6, 0, 3, 2, 1, 3, 3, 0], np.int32),
                                            "X2": np.array([-2, 2, 4, -2, 2], _I8), "Z0": np.array([0, -4], _I8), "sN0": 19, "sN1": 2,
                                            "sk": 1, "salpha": _I8(0)}),
    "reversed in place": (REVERSED_IN_PLACE, {"X0": np.array([3], _F32), "sN0": 1}),
    # a domain below 0 that no access lines up with: anchored at the origin
    "negative domain": (NEGATIVE_DOMAIN, {"X": np.array([1.5, 2], _F32), "n": 5}),
}  # fmt: skip


@pytest.mark.parametrize("name", list(WIDE_DOMAIN_CASES))
def test_iteration_domain_larger_than_the_arrays(name):
    """The tDFG oracle and ``--mode in`` (which must run the region in
    memory) agree with the stream reference."""
    text, args = WIDE_DOMAIN_CASES[name]
    module = api.parse_text(text)
    want = reference(module, args)
    lat = _copy(args)
    lat_res = lattice_run(tensorize_module(module), lat)
    assert_same(lat_res, lat, *want, "lattice oracle")
    for config in ("tiny", "small-16"):
        report, got = run_in(module, args, config)
        if config == "tiny" and any(k in r.reason for r in report.regions for k in CAPACITY):
            continue  # the machine cannot hold it (i8 lines, the lattice): refused, with the reason
        assert [r.mode for r in report.regions] == ["in"], [r.reason for r in report.regions]
        assert_same(report.results, got, *want, f"--mode in on {config}")


# ---------------------------------------------------------------------------
# F4: a reduction of a broadcast beyond the arrays (random graphs): the bc's
# copies left the arrays' hull, so the fold was empty and its identities lay
# outside the lattice (LoweringError).  Its copies are cells of the lattice:
# the lattice grows over them; an empty fold whose identities nothing reads
# needs no cell.
# ---------------------------------------------------------------------------

F4_GRAPH = """func.func @g(%A0: memref<2x15xf32>, %A1: memref<1x11xf32>, %A2: memref<?xf32>, %n: index, %w: f32) {
  tdfg.graph ins(%A0, %A1, %A2 : memref<2x15xf32>, memref<1x11xf32>, memref<?xf32>) syms(N = %n : index, w = %w : f32) rank 2 {
  ^bb0(%a0: memref<2x15xf32>, %a1: memref<1x11xf32>, %a2: memref<?xf32>, %N: index, %W: f32):
    %v0 = tdfg.tensor %a0 [1:2, 14:15] : memref<2x15xf32> -> !tdfg.tensor<f32, 2>
    %v1 = tdfg.cmp sub(%v0, %v0) : !tdfg.tensor<f32, 2>, !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    %v2 = tdfg.bc %v0 dim 1 dist 2 count 10 : !tdfg.tensor<f32, 2>
    %v3 = tdfg.reduce min %v2 dim 1 : !tdfg.tensor<f32, 2>
    %v4 = tdfg.stream_reduce min %v3 over [1] : !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    %v8 = tdfg.mv %v4 dim 0 dist -4 : !tdfg.tensor<f32, 2>
    tdfg.store %v1 -> %a0 : !tdfg.tensor<f32, 2> -> memref<2x15xf32>
    tdfg.store %v8 -> %a0 : !tdfg.tensor<f32, 2> -> memref<2x15xf32>
    tdfg.store %v0 -> %a0 : !tdfg.tensor<f32, 2> -> memref<2x15xf32>
    tdfg.yield
  }
  func.return
}"""

# the fold of the copies is used: stored (moved back into the array) and summed
F4_GRAPH_USED = """func.func @g(%A0: memref<2x15xf32>, %n: index) -> f32 {
  %r = tdfg.graph ins(%A0 : memref<2x15xf32>) syms(N = %n : index) rank 2 -> f32 {
  ^bb0(%a0: memref<2x15xf32>, %N: index):
    %v0 = tdfg.tensor %a0 [0:2, 13:15] : memref<2x15xf32> -> !tdfg.tensor<f32, 2>
    %v2 = tdfg.bc %v0 dim 1 dist 4 count 3 : !tdfg.tensor<f32, 2>
    %v3 = tdfg.reduce max %v2 dim 1 : !tdfg.tensor<f32, 2>
    %v4 = tdfg.stream_reduce max %v3 over [1] : !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    %v5 = tdfg.mv %v4 dim 1 dist -17 : !tdfg.tensor<f32, 2>
    %s = tdfg.stream_reduce add %v2 over [0, 1] : !tdfg.tensor<f32, 2> -> f32
    tdfg.store %v5 -> %a0 : !tdfg.tensor<f32, 2> -> memref<2x15xf32>
    tdfg.yield %s : f32
  }
  func.return %r : f32
}"""

# an empty fold (count 0) whose identities, beyond the arrays, nothing reads
F4_EMPTY_FOLD = """func.func @g(%A0: memref<2x15xf32>, %n: index) {
  tdfg.graph ins(%A0 : memref<2x15xf32>) syms(N = %n : index) rank 2 {
  ^bb0(%a0: memref<2x15xf32>, %N: index):
    %v0 = tdfg.tensor %a0 [0:2, 13:15] : memref<2x15xf32> -> !tdfg.tensor<f32, 2>
    %v2 = tdfg.bc %v0 dim 1 dist 7 count 0 : !tdfg.tensor<f32, 2>
    %v4 = tdfg.stream_reduce min %v2 over [1] : !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    tdfg.store %v4 -> %a0 : !tdfg.tensor<f32, 2> -> memref<2x15xf32>
    tdfg.store %v0 -> %a0 : !tdfg.tensor<f32, 2> -> memref<2x15xf32>
    tdfg.yield
  }
  func.return
}"""


@pytest.mark.parametrize("text", [F4_GRAPH, F4_GRAPH_USED, F4_EMPTY_FOLD], ids=["fuzz", "used", "empty"])
@pytest.mark.parametrize("config,tiles", [("small-16", None), ("small-16", (2, 32)), ("tiny", (2, 8))])
def test_reduction_of_a_broadcast_beyond_the_arrays_lowers(text, config, tiles):
    from infs.dialects import tdfg
    from infs.runtime import jit
    from infs.runtime.lattice_eval import evaluate_graph

    module = api.parse_text(text)
    (graph,) = [op for op in module.walk() if isinstance(op, tdfg.GraphOp)]
    rng = np.random.default_rng(3)
    arrays = [rng.integers(-8, 9, a.type.get_shape() if all(s >= 0 for s in a.type.get_shape()) else (15,)).astype(np.float32)
              for a in graph.arrays]  # fmt: skip
    scalars = [15] + [np.float32(0.5)] * (len(graph.scalars) - 1)
    want_arrays = [a.copy() for a in arrays]
    want = evaluate_graph(graph, want_arrays, scalars)
    lowered = jit.lower(graph, {"N": 15}, load_config(config), tiles, {i: a.shape for i, a in enumerate(arrays)})
    got_arrays = [a.copy() for a in arrays]
    machine = Machine(load_config(config))
    machine.run(lowered.program, dict(enumerate(got_arrays)), scalars=[scalars[i] for i in lowered.scalar_map])
    for i, (g, w) in enumerate(zip(got_arrays, want_arrays)):
        np.testing.assert_array_equal(g, w, err_msg=f"array {i}")
    assert [np.asarray(machine.results[i]).item() for i in range(len(want))] == [np.asarray(r).item() for r in want]


# ---------------------------------------------------------------------------
# B4: canonicalize-tdfg merged mv(mv(x, a), b) -> mv(x, a + b) even where the
# first move discards cells the second brings back.  Above the arrays the
# lattice is unbounded now (nothing is discarded); below 0 it is not, so a
# merge must keep the first move's cells at >= 0.
# ---------------------------------------------------------------------------


def _moves_graph(dists: list[str], n: int) -> str:
    T = "!tdfg.tensor<i32, 1>"
    M = "memref<?xi32>"
    lines = [f"%v0 = tdfg.tensor %a [0:N] : {M} -> {T}"]
    for i, k in enumerate(dists):
        lines.append(f"%v{i + 1} = tdfg.mv %v{i} dim 0 dist {k} : {T}")
    last = f"%v{len(dists)}"
    lines.append(f"%s = tdfg.stream_reduce add {last} over [0] : {T} -> i32")
    lines.append(f"tdfg.store {last} -> %b : {T} -> {M}")
    body = "\n    ".join(lines)
    return f"""func.func @g(%A: {M}, %B: {M}, %n: index) -> i32 {{
  %r = tdfg.graph ins(%A, %B : {M}, {M}) syms(N = %n : index) rank 1 -> i32 {{
  ^bb0(%a: {M}, %b: {M}, %N: index):
    {body}
    tdfg.yield %s : i32
  }}
  func.return %r : i32
}}"""


def _eval_moves(text: str, n: int):
    from infs.dialects import tdfg
    from infs.runtime.lattice_eval import evaluate_graph

    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    a = np.arange(1, n + 1, dtype=np.int32)
    b = np.zeros(n + 4, np.int32)
    (s,) = evaluate_graph(g, [a, b], [n])
    return int(s), b


def _canonicalized(text: str) -> str:
    return api.to_text(api.run_pipeline(api.parse_text(text), "canonicalize-tdfg"))


@pytest.mark.parametrize("dists", [["-2", "2"], ["0 - N", "N"], ["-1", "-1", "3"], ["N", "0 - N"], ["3", "-5"], ["-2", "-3"]])
def test_merged_moves_keep_the_cells_the_unmerged_ones_keep(dists):
    n = 5
    text = _moves_graph(dists, n)
    merged = _canonicalized(text)
    s0, b0 = _eval_moves(text, n)
    s1, b1 = _eval_moves(merged, n)
    assert (s1, b1.tolist()) == (s0, b0.tolist()), merged


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-6, 6) | st.sampled_from(["N", "0 - N", "N - 2", "2 - N"]), min_size=2, max_size=4), st.integers(1, 7))
def test_random_move_chains_mean_the_same_after_canonicalize(dists, n):
    text = _moves_graph([str(k) for k in dists], n)
    note(text)
    merged = _canonicalized(text)
    assert _eval_moves(merged, n)[0] == _eval_moves(text, n)[0]
    assert _eval_moves(merged, n)[1].tolist() == _eval_moves(text, n)[1].tolist()


def test_tensorize_still_merges_moves_inside_the_iteration_space():
    """z[d0] = x[d0 + 1] with the store y[d0 + 2] as anchor: the load's move
    (+1) and the store's (-2) merge into one (-1); values as the reference."""
    text = """func.func @f(%X: memref<?xf32>, %Y: memref<?xf32>, %Z: memref<?xf32>, %n: index) {
  stream.region ins(%X, %Y, %Z : memref<?xf32>, memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%x: memref<?xf32>, %y: memref<?xf32>, %z: memref<?xf32>, %N: index):
    %l = stream.load %x[d0 + 1] : memref<?xf32> -> !stream.stream<f32>
    stream.store %l -> %y[d0 + 2] : !stream.stream<f32> -> memref<?xf32>
    stream.store %l -> %z[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}"""
    module = api.parse_text(text)
    graph_text = api.to_text(tensorize_module(module))
    assert graph_text.count("tdfg.mv") == 2 and "dist -1" in graph_text, graph_text
    args = {"X": np.arange(7, dtype=np.float32), "Y": np.zeros(8, np.float32), "Z": np.zeros(6, np.float32), "n": 6}
    want = reference(module, args)
    lat = _copy(args)
    lattice_run(tensorize_module(module), lat)
    assert_same((), lat, *want, "lattice oracle")


# ---------------------------------------------------------------------------
# C2: a stream.compute body that uses a scalar of its region directly (not
# as an input) crashed tensorize with KeyError.  Compute bodies are isolated
# from above (stream dialect docstring): one located line, exit 1.
# ---------------------------------------------------------------------------

CAPTURE = """func.func @f(%A: memref<?xf32>, %n: index, %w: f32) {
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index, w = %w : f32) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index, %x: f32):
    %c = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%c : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%v: f32):
      %z = arith.addf %x, %v : f32
      stream.yield %z : f32
    }
    stream.store %s -> %a[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
"""


@pytest.mark.parametrize("tool,extra", [("infs_opt", ["--tensorize"]), ("infs_run", ["--mode", "in", "--sizes", "n=4", "--shape", "A=4"])])
def test_compute_body_using_a_region_scalar_is_one_located_error(tmp_path, tool, extra):
    f = tmp_path / "capture.mlir"
    f.write_text(CAPTURE)
    r = subprocess.run([sys.executable, "-m", f"infs.tools.{tool}", str(f), *extra], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 1, (r.returncode, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "internal error" not in r.stderr, r.stderr
    assert f"{f}:7:7: error: 'arith.addf' op operand #0 (%x) is defined outside the enclosing 'stream.compute'" in lines[0], lines[0]


def test_empty_fold_beyond_the_arrays_stores_every_identity():
    """Found by make fuzz: mm_inner with K = 0 and M larger than A's rows.  The host
    loop's row x0 >= 5 put A's (empty, K = 0) row tensor outside the lattice, which was
    sized by the cells only; clipped, it lost its row range, so the empty reduction stored
    no zeros for those rows in memory (C kept its old values) while near/core stored them."""
    from infs import api
    from infs.workloads import WORKLOADS

    rng = np.random.default_rng(0)
    arrays = {"A": rng.uniform(-1, 1, (3, 8)).astype(np.float32), "Bt": rng.uniform(-1, 1, (5, 1)).astype(np.float32),
              "C": rng.uniform(-1, 1, (16, 16)).astype(np.float32)}  # fmt: skip
    want = arrays["C"].copy()
    want[:13, :1] = 0.0
    for mode in ("in", "near"):
        r = api.run(WORKLOADS["mm_inner"].path, {**arrays, "m": 13, "n": 1, "k": 0}, config="tiny", mode=mode, strict=True)
        np.testing.assert_array_equal(r.outputs["C"], want, err_msg=mode)



EMPTY_DIM_INDIRECT = """func.func @f(%X0: memref<8x11x1xi16>, %J0: memref<1xi32>, %X1: memref<?x?x?xi16>, %sN0: index, %sN1: index, %sN2: index, %sk: index, %salpha: i16) -> i16 {
  %out = stream.region ins(%X0, %J0, %X1 : memref<8x11x1xi16>, memref<1xi32>, memref<?x?x?xi16>) syms(N0 = %sN0 : index, N1 = %sN1 : index, N2 = %sN2 : index, k = %sk : index, alpha = %salpha : i16) domain [1:N0 + 1, 2:N1 + 2, 0:N2] iterators [reduction, reduction, reduction] -> i16 {
  ^bb0(%x0: memref<8x11x1xi16>, %j0: memref<1xi32>, %x1: memref<?x?x?xi16>, %N0: index, %N1: index, %N2: index, %k: index, %alpha: i16):
    %ix0 = stream.load %j0[k] : memref<1xi32> -> !stream.stream<i32>
    %l0 = stream.load %x0[%ix0, d0 + 2, N1 + 2 - d1] : memref<8x11x1xi16> -> !stream.stream<i16>
    %l1 = stream.load %x1[d0 + 2, d1 + 1, d2 + 2] : memref<?x?x?xi16> -> !stream.stream<i16>
    %s = stream.compute(%l0, %l1, %alpha : !stream.stream<i16>, !stream.stream<i16>, i16) -> !stream.stream<i16> {
    ^bb1(%a0: i16, %a1: i16, %a2: i16):
      %v0 = math.absi %a0 : i16
      %v1 = math.absi %a0 : i16
      %v2 = arith.constant -2 : i16
      %v2b = arith.addi %v1, %v2 : i16
      %v3 = math.absi %a1 : i16
      %v4 = math.absi %v1 : i16
      %fin = arith.addi %v4, %a0 : i16
      stream.yield %fin : i16
    }
    %r = stream.reduce mul %s over [0, 1, 2] : !stream.stream<i16> -> i16
    stream.yield %r : i16
  }
  func.return %out : i16
}"""


def test_an_indirect_load_over_an_empty_dim_runs_in_memory():
    """Found by make fuzz (with empty dims in the generator): an indirect load whose region has a
    size-0 dim reached the simulator with its index buffer empty at [0:0] and its access box empty
    at [1:1] along that dim, which it called a mismatch (SimError, an internal error); two empty
    boxes hold the same (no) cells.  The fold over nothing is mul's identity, 1."""
    from infs import api

    rng = np.random.default_rng(0)
    inputs = {"X0": rng.integers(-4, 5, (8, 11, 1)).astype(np.int16), "J0": np.array([5], np.int32),
              "X1": rng.integers(-4, 5, (10, 8, 9)).astype(np.int16), "sN0": 7, "sN1": 0, "sN2": 7, "sk": 0,
              "salpha": np.int16(2)}  # fmt: skip
    for mode in ("in", "near"):
        r = api.run(EMPTY_DIM_INDIRECT, dict(inputs), config="small-16", mode=mode, strict=True)
        assert r.results == (1,), mode
