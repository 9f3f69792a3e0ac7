"""In-memory results that were silently wrong, and empty domains (issue 10).

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
from infs.passes.lower_pim import LowerPimPass
from infs.passes.tensorize import TensorizePass
from infs.runtime import host
from infs.runtime.check import compare_values
from infs.runtime.driver import RunOptions, run_program
from infs.runtime.inmemory import tensorize_module
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
# Item 1: reductions over several dims
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
# Item 2: a transposed access with the runtime's real shapes
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
# Item 15 (last part): empty domains
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
                                      "W": np.ones(5, np.float32), "m": 1, "n": 1, "t": 2}),
    ("stencil2d", {"M": 0, "N": 5}, {"A": np.ones((0, 5), np.float32), "B": np.ones((0, 5), np.float32),
                                      "W": np.ones(5, np.float32), "m": 0, "n": 5, "t": 2}),
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
