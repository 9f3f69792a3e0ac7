"""End-to-end differential tests of the in-memory path.

1. Every workload, at its small size and at a second (unaligned) small size,
   on ``small-16``, ``tiny`` and four custom machines built with
   ``load_config`` overrides (16/32/64/256 bitlines per array, 4-64 arrays per
   bank, 1-16 banks, 256/512 wordlines), and with forced tile shapes:
   tensorize -> JIT (``lower-pim``) -> simulator == the stream reference
   (``host.run_function`` on a copy of the inputs), exact for ints, f32 within
   ``compare_values``' tolerance.  A combination whose layout does not fit
   (``LayoutError``) or that runs out of wordlines (``LoweringError`` "wordline
   pressure") is skipped explicitly: ``tiny`` combinations are pytest skips
   with the reason; the other five machines hold every workload, so all their
   150 combinations must run, and at most one forced tile shape per workload
   and size may be skipped.  Every run checks that tDFG graphs were lowered
   (except for workloads the tensorizer leaves as streams, which must say why).
2. Random tDFG graphs (hypothesis): 1-3-D lattices, random array shapes and
   sub-domains, ``cmp`` chains, ``mv``, ``bc``, ``const``, ``shrink``,
   ``reduce`` + ``stream_reduce``, ``store``, random machine configs and tile
   shapes: ``jit.lower`` + ``Machine.run`` == ``lattice_eval.evaluate_graph``.
3. JIT memoization: a stencil lowers each distinct graph once; the memoized
   programs give the reference results.

The custom machines are ``HardwareConfig`` objects handed to the JIT and the
simulator as they are (not registered by name).  Bugs found are kept at the
end of the file as regression tests with minimal reproducers (strict xfail
while a bug is open; the random graph generator steers around open ones and
says which test pins each).
"""

from __future__ import annotations

import functools
import math
import os
from typing import NamedTuple

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from xdsl.utils.exceptions import VerifyException

from infs import api
from infs.dialects import stream, tdfg
from infs.hardware import HardwareConfig, load_config
from infs.passes.lower_pim.choose_layout import LayoutError
from infs.passes.lowering_errors import LoweringError
from infs.passes.specialize import SpecializeError
from infs.runtime import host, jit
from infs.runtime.check import compare_values
from infs.passes.tensorize import tensorize_module
from infs.runtime.driver import ModeNotHonoured, RunOptions, run_program
from infs.runtime.lattice_eval import evaluate_graph
from infs.sim import Machine, SimError
from infs.workloads import WORKLOADS
from strategies import machines

# ---------------------------------------------------------------------------
# Machines
# ---------------------------------------------------------------------------

# Custom small machines: ``load_config("small-16", **overrides)``.  Each keeps
# the validation rules of ``infs.hardware.validate`` (banks == mesh_rows x
# mesh_cols, compute_ways <= ways, the H-tree reaches every array of a bank,
# mem_ctrls <= 2 x mesh_rows).
CUSTOM_CONFIGS: dict[str, dict] = {
    # 16 banks x 16 arrays x 16 bitlines, 512 wordlines
    "e2e-b16-wl512": dict(bitlines=16, wordlines=512, arrays_per_way=8),
    # 4 banks (2x2) x 4 arrays x 256 bitlines: few, wide arrays
    "e2e-b256-2x2": dict(bitlines=256, mesh_rows=2, mesh_cols=2, banks=4, ways=1, compute_ways=1, arrays_per_way=4, mem_ctrls=2, htree_levels=1),
    # 8 banks (2x4 mesh) x 4 arrays x 64 bitlines, 512 wordlines
    "e2e-b64-2x4-wl512": dict(bitlines=64, wordlines=512, mesh_rows=2, mesh_cols=4, banks=8, ways=2, compute_ways=1, arrays_per_way=4, mem_ctrls=4),
    # one bank (1x1 mesh) x 64 arrays x 32 bitlines: no inter-bank traffic at all
    "e2e-b32-1bank": dict(bitlines=32, mesh_rows=1, mesh_cols=1, banks=1, ways=4, compute_ways=4, arrays_per_way=16, mem_ctrls=2, htree_levels=3),
}


@functools.cache
def _cfg(name: str) -> HardwareConfig:
    """A built-in machine, or a custom one (named after its key: the JIT memoizes on the name)."""
    if name in CUSTOM_CONFIGS:
        return load_config("small-16", name=name, **CUSTOM_CONFIGS[name])
    return load_config(name)


def test_custom_configs_are_what_they_claim():
    geo = {n: (_cfg(n).banks, _cfg(n).arrays_per_bank, _cfg(n).bitlines, _cfg(n).wordlines) for n in CUSTOM_CONFIGS}
    assert geo == {
        "e2e-b16-wl512": (16, 16, 16, 512),
        "e2e-b256-2x2": (4, 4, 256, 256),
        "e2e-b64-2x4-wl512": (8, 4, 64, 512),
        "e2e-b32-1bank": (1, 64, 32, 256),
    }


# Configurations of the workload matrix: these hold every workload at both sizes;
# ``tiny`` (8 arrays of 16 bitlines) only the smallest lattices.
BIG_CONFIGS = ("small-16", *CUSTOM_CONFIGS)

# A second small size per workload: odd / unaligned extents, fewer steps.
OTHER_SIZES: dict[str, dict[str, int]] = {
    "vec_add": {"n": 37},
    "array_sum": {"n": 45},
    "stencil1d": {"n": 50, "t": 2},
    "stencil2d": {"m": 9, "n": 13, "t": 2},
    "stencil3d": {"l": 5, "m": 7, "n": 9, "t": 2},
    "dwt2d": {"h": 10, "w": 14},
    "gauss_elim": {"n": 9},
    "conv2d": {"h": 11, "w": 13},
    "conv3d": {"ci": 2, "co": 3, "h": 7, "w": 9},
    "mm_inner": {"m": 5, "n": 7, "k": 9},
    "mm_outer": {"m": 9, "n": 7, "k": 5},
    "kmeans_inner": {"p": 40, "d": 5, "c": 3},
    "kmeans_outer": {"p": 40, "d": 5, "c": 3},
    "gather_mlp_inner": {"m": 20, "n": 5, "k": 7, "r": 9},
    "gather_mlp_outer": {"m": 20, "n": 5, "k": 7, "r": 9},
}
SIZE_SETS = ("small", "other")

# Workloads the tensorizer may leave entirely as streams (every region says why);
# mm_inner was one until tensorize learned it.
NOT_TENSORIZED = {"mm_inner"}


def test_other_sizes_cover_every_workload():
    assert set(OTHER_SIZES) == set(WORKLOADS)
    for name, w in WORKLOADS.items():
        assert set(OTHER_SIZES[name]) == set(w.sizes("small")), name


# ---------------------------------------------------------------------------
# Workload runs
# ---------------------------------------------------------------------------


def _sizes(name: str, which: str) -> dict[str, int]:
    w = WORKLOADS[name]
    return w.sizes("small") if which == "small" else dict(OTHER_SIZES[name])


@functools.cache
def _module(name: str):
    return api.parse_file(WORKLOADS[name].path)


@functools.cache
def _tensorized_info(name: str) -> tuple[tuple[int, ...], tuple[str | None, ...]]:
    """Lattice ranks of the graphs after tensorize, and every remaining region's remark."""
    t = tensorize_module(_module(name))
    ranks = tuple(g.lattice_rank for g in t.walk() if isinstance(g, tdfg.GraphOp))
    remarks = []
    for r in t.walk():
        if isinstance(r, stream.RegionOp):
            a = r.attributes.get("infs.not_tensorized")
            remarks.append(getattr(a, "data", None))
    return ranks, tuple(remarks)


@functools.cache
def _reference(name: str, which: str) -> tuple[dict[str, np.ndarray], dict[str, object]]:
    """Inputs and the stream reference's final outputs and results."""
    w = WORKLOADS[name]
    sizes = _sizes(name, which)
    inputs = w.inputs(sizes, 0 if which == "small" else 1)
    arrays = {k: v.copy() for k, v in inputs.items()}
    res = host.run_function(_module(name), w.call_args(arrays, sizes), w.entry)
    expected: dict[str, object] = {k: arrays[k] for k in w.outputs}
    expected.update(zip(w.results, res))
    return inputs, expected


class Skipped(Exception):
    """A combination the machine cannot hold (layout) or that runs out of wordlines."""


def _run_in_memory(name: str, which: str, config: str, tiles: tuple[int, ...] | None = None) -> int:
    """Run one combination and check it against the stream reference; the number of graphs lowered."""
    w = WORKLOADS[name]
    sizes = _sizes(name, which)
    inputs, expected = _reference(name, which)
    arrays = {k: v.copy() for k, v in inputs.items()}
    try:
        res, machine, lowered = _run_in_memory_tensorized(_module(name), w.call_args(arrays, sizes), w.entry, _cfg(config), tiles)
    except ModeNotHonoured as e:
        if isinstance(e.error, LayoutError):
            raise Skipped(f"LayoutError: {e.error}") from None
        if not isinstance(e.error, LoweringError) or "wordline pressure" not in str(e.error):
            raise
        raise Skipped(f"LoweringError: {e.error}") from None
    actual = {**{k: arrays[k] for k in w.outputs}, **dict(zip(w.results, res))}
    check = compare_values(actual, expected)
    where = f"{name} sizes={sizes} config={config} tiles={tiles}"
    assert check.ok, f"{where}: {check.note}"
    for k in w.outputs:  # exact for ints (compare_values), same dtype everywhere
        assert arrays[k].dtype == expected[k].dtype, where  # type: ignore[union-attr]
    if lowered:
        assert machine.cycles > 0, where
    return len(lowered)


def _check_in_memory_ran(name: str, lowered: int) -> None:
    ranks, remarks = _tensorized_info(name)
    if ranks:
        assert lowered > 0, f"{name} has {len(ranks)} tdfg graphs but none was lowered"
    else:
        assert lowered == 0
        assert name in NOT_TENSORIZED, f"{name} is no longer tensorized: {remarks}"
        assert remarks and all(remarks), f"{name}: a region stayed a stream without an infs.not_tensorized remark"


def test_only_known_workloads_stay_streams():
    untensorized = {n for n in WORKLOADS if not _tensorized_info(n)[0]}
    assert untensorized <= NOT_TENSORIZED


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_regions_left_as_streams_say_why(name):
    _, remarks = _tensorized_info(name)
    assert all(remarks), f"{name}: a stream.region was left without an infs.not_tensorized remark"


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_workload_in_memory_matches_stream_reference(name):
    """Both sizes on every machine that holds the workload (all must run: no vacuous pass)."""
    ran = 0
    for which in SIZE_SETS:
        for config in BIG_CONFIGS:
            try:
                lowered = _run_in_memory(name, which, config)
            except Skipped as e:
                # these machines hold every workload at both sizes: a skip here is a
                # regression of the layout / wordline allocation, not a small machine
                pytest.fail(f"{name} ({which}) does not run on {config}: {e}")
            _check_in_memory_ran(name, lowered)
            ran += 1
    assert ran == len(SIZE_SETS) * len(BIG_CONFIGS) == 10


@pytest.mark.parametrize("which", SIZE_SETS)
@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_workload_on_the_tiny_machine(name, which):
    """'tiny' (8 arrays of 16 bitlines) holds only the smallest lattices: the others are skipped explicitly."""
    try:
        lowered = _run_in_memory(name, which, "tiny")
    except Skipped as e:
        pytest.skip(str(e))
    _check_in_memory_ran(name, lowered)


def test_the_tiny_machine_runs_some_workloads():
    ran = []
    for name in ("vec_add", "array_sum", "stencil1d"):
        for which in SIZE_SETS:
            ran.append(_run_in_memory(name, which, "tiny"))
    assert all(n > 0 for n in ran), ran


# Forced tile shapes, per lattice rank: (config, tiles).  Skewed shapes on
# purpose (one-cell-thick tiles, tiles longer than the array, 3-D tiles of
# every orientation).
TILE_CASES: dict[int, tuple[tuple[str, tuple[int, ...]], ...]] = {
    1: (("small-16", (64,)), ("e2e-b16-wl512", (16,)), ("e2e-b256-2x2", (256,))),
    2: (
        ("small-16", (2, 32)),
        ("small-16", (16, 4)),
        ("e2e-b16-wl512", (1, 16)),
        ("e2e-b16-wl512", (8, 2)),
        ("e2e-b256-2x2", (4, 64)),
        ("e2e-b64-2x4-wl512", (64, 1)),
    ),
    3: (
        ("small-16", (1, 8, 8)),
        ("small-16", (4, 4, 4)),
        ("e2e-b16-wl512", (2, 2, 4)),
        ("e2e-b256-2x2", (2, 8, 16)),
        ("e2e-b32-1bank", (8, 4, 1)),
    ),
}


def _single_rank_workloads() -> list[str]:
    """Workloads whose graphs all share one lattice rank (``tiles=`` applies to every graph)."""
    return sorted(n for n in WORKLOADS if len(set(_tensorized_info(n)[0])) == 1)


@pytest.mark.parametrize("which", SIZE_SETS)
@pytest.mark.parametrize("name", _single_rank_workloads())
def test_workload_with_forced_tiles(name, which):
    (rank,) = set(_tensorized_info(name)[0])
    ran, skipped = 0, []
    for config, tiles in TILE_CASES[rank]:
        try:
            lowered = _run_in_memory(name, which, config, tiles)
        except Skipped as e:  # a tile shape the lattice does not fit (explicit, counted)
            skipped.append((config, tiles, str(e)))
            continue
        _check_in_memory_ran(name, lowered)
        ran += 1
    assert ran >= len(TILE_CASES[rank]) - 1, f"{name}: too many tile shapes skipped: {skipped}"


def test_forced_tiles_cover_most_workloads():
    names = _single_rank_workloads()
    assert len(names) >= 11, names
    assert {r for n in names for r in _tensorized_info(n)[0]} == {1, 2, 3}


def test_a_machine_too_small_is_reported_not_crashed():
    """The skip path is real: stencil2d's 16x24 lattice does not fit 'tiny' (8 arrays of 16 bitlines)."""
    with pytest.raises(Skipped, match="LayoutError: .*needs at least"):
        _run_in_memory("stencil2d", "small", "tiny")
    with pytest.raises(Skipped, match="LayoutError"):
        _run_in_memory("stencil2d", "small", "small-16", (2, 2))  # 4 cells, the arrays have 64 bitlines


# ---------------------------------------------------------------------------
# Random tDFG graphs: jit.lower + Machine.run == lattice_eval
# ---------------------------------------------------------------------------

# INFS_E2E_EXAMPLES=2000 for a longer bug hunt
RANDOM_EXAMPLES = int(os.environ.get("INFS_E2E_EXAMPLES", "80"))
HYPO_CONFIGS = ("small-16", "tiny", "fig9", *CUSTOM_CONFIGS)
CMP_OPS = ("add", "sub", "mul", "min", "max")
LITERALS = {"f32": ("2.0", "-1.5", "0.5", "3.0", "0.0"), "i32": ("2", "-3", "7", "0", "1"), "i16": ("2", "-3", "7", "0", "1"), "i8": ("2", "-3", "7", "0", "1")}
LITERALS |= {"f64": LITERALS["f32"], "i64": ("2", "-3", "7", "0", "1", "5000000000")}  # 64-bit elements
NP_TYPES = {"f32": np.float32, "i32": np.int32, "i16": np.int16, "i8": np.int8, "f64": np.float64, "i64": np.int64}


def _machine(config: str) -> HardwareConfig:
    """A named machine of this file, or a generated TOML file (``strategies.machines``)."""
    return load_config(config) if config.endswith(".toml") else _cfg(config)

Box = tuple  # per dim (lo, hi) or None (unbounded: a constant)


def _intersect(a: Box, b: Box) -> Box:
    out = []
    for x, y in zip(a, b):
        if x is None or y is None:
            out.append(y if x is None else x)
        else:
            lo = max(x[0], y[0])
            out.append((lo, max(lo, min(x[1], y[1]))))
    return tuple(out)


def _bounded(b: Box) -> bool:
    return all(x is not None for x in b)


def _nonempty(b: Box) -> bool:
    return all(x is None or x[1] > x[0] for x in b)


def _factorizations(n: int, rank: int) -> list[tuple[int, ...]]:
    if rank == 1:
        return [(n,)]
    return [(d, *rest) for d in range(1, n + 1) if n % d == 0 for rest in _factorizations(n // d, rank - 1)]


class Val(NamedTuple):
    """A tensor value of a generated graph."""

    name: str
    box: Box
    alias: int | None = None  # the array whose own register holds the value (tensor, shrink of one, mv by 0)
    clipped: frozenset[int] = frozenset()  # dims along which it is a move that discarded cells
    near: bool = False  # a stream_reduce result (a near-memory buffer)
    const: bool = False  # a tdfg.const, or a shrink of one


@st.composite
def random_graphs(draw):
    """A random tdfg.graph (text), its lattice, arrays, machine config and tile shape."""
    # a machine of this file, or a random one loaded from a TOML file
    if draw(st.booleans()):
        config = draw(st.sampled_from(HYPO_CONFIGS))
    else:
        config = str(draw(machines()).path)
    cfg = _machine(config)
    rank = draw(st.integers(1, 3))
    elem = draw(st.sampled_from(("f32", "f32", "i32", "i32", "i16", "i8", "f64", "i64")))
    # lattice extents: at most ~ the machine's cells, small enough to stay fast
    cap = max(1, min(cfg.total_bitlines, {1: 64, 2: 192, 3: 256}[rank]))
    lattice: list[int] = []
    for d in range(rank):
        room = cap // max(1, math.prod(lattice))
        lattice.append(draw(st.integers(1, max(1, min(room, {1: 64, 2: 16, 3: 8}[rank])))))
    n_sym = lattice[-1]  # the index symbol N

    # arrays: 0 spans the lattice (so the global bounding box is the lattice); the
    # others have random ranks and extents inside it
    shapes = [tuple(lattice)]
    for _ in range(draw(st.integers(0, 2))):
        r = draw(st.integers(1, rank))
        shapes.append(tuple(draw(st.integers(1, lattice[rank - r + j])) for j in range(r)))
    static = [draw(st.booleans()) for _ in shapes]

    def mtype(i: int) -> str:
        dims = "x".join(str(s) if static[i] else "?" for s in shapes[i])
        return f"memref<{dims}x{elem}>"

    T = f"!tdfg.tensor<{elem}, {rank}>"
    lines: list[str] = []
    pool: list[Val] = []
    results: list[str] = []
    counter = iter(range(10**6))
    hull = tuple((0, s) for s in lattice)

    def fresh() -> str:
        return f"%v{next(counter)}"

    def bound(p: int, q: int) -> str:
        # some upper bounds written with the symbol N (exercises specialize)
        if q <= n_sym and draw(st.integers(0, 3)) == 0:
            k = n_sym - q
            if k:
                return f"{p}:N - {k}"
            return f"{p}:N"
        return f"{p}:{q}"

    def array_box(i: int) -> Box:
        return tuple([(0, 1)] * (rank - len(shapes[i])) + [(0, s) for s in shapes[i]])

    def moved(src: Val, d: int, lo: int, hi: int) -> tuple[Box, frozenset[int]]:
        box = list(src.box)
        box[d] = (lo, hi)
        out = _intersect(tuple(box), hull)
        return out, (frozenset({d}) if out[d] != (lo, hi) else frozenset())

    def op_tensor(i: int | None = None) -> None:
        if i is None:
            i = draw(st.integers(0, len(shapes) - 1))
        shape = shapes[i]
        lead = rank - len(shape)
        box = []
        for d in range(rank):
            s = 1 if d < lead else shape[d - lead]
            p = draw(st.integers(0, s - 1))
            q = draw(st.integers(p + 1, s))
            box.append((p, q))
        v = fresh()
        dom = ", ".join(bound(p, q) for p, q in box)
        lines.append(f"{v} = tdfg.tensor %a{i} [{dom}] : {mtype(i)} -> {T}")
        pool.append(Val(v, tuple(box), i))

    def op_stream_load() -> None:
        # an embedded stream: array i read through a permuted (transposed) map
        # with offsets, over a box of the lattice; dims the map skips broadcast
        i = draw(st.integers(0, len(shapes) - 1))
        shape = shapes[i]
        order = list(draw(st.permutations(range(rank))))[: len(shape)]
        box = [None] * rank
        idx = []
        for p, j in enumerate(order):
            w = draw(st.integers(1, max(1, min(lattice[j], shape[p]))))
            b0 = draw(st.integers(0, lattice[j] - w))
            i0 = draw(st.integers(0, shape[p] - w))
            box[j] = (b0, b0 + w)
            off = i0 - b0
            idx.append(f"d{j}" if off == 0 else (f"d{j} + {off}" if off > 0 else f"d{j} - {-off}"))
        for j in range(rank):
            if box[j] is None:
                p = draw(st.integers(0, lattice[j] - 1))
                box[j] = (p, draw(st.integers(p + 1, lattice[j])))
        v = fresh()
        dom = ", ".join(f"{p}:{q}" for p, q in box)
        lines.append(f"{v} = tdfg.stream_load %a{i}[{', '.join(idx)}] over [{dom}] : {mtype(i)} -> {T}")
        pool.append(Val(v, tuple(box)))

    def op_const() -> None:
        v = fresh()
        if draw(st.booleans()):
            lines.append(f"{v} = tdfg.const %W : {elem} -> {T}")
        else:
            lines.append(f"{v} = tdfg.const {draw(st.sampled_from(LITERALS[elem]))} : {T}")
        pool.append(Val(v, (None,) * rank, const=True))

    def op_cmp() -> None:
        arity = 3 if draw(st.integers(0, 5)) == 0 else 2
        name = "fma" if arity == 3 else draw(st.sampled_from(CMP_OPS))
        cands = [
            (a, b) for a in range(len(pool)) for b in range(len(pool))
            if _nonempty(_intersect(pool[a].box, pool[b].box)) and not (pool[a].const and pool[b].const)
        ]  # fmt: skip
        if not cands:
            return op_tensor()
        a, b = draw(st.sampled_from(cands))
        ins = [pool[a], pool[b]]
        if arity == 3:
            ins.append(draw(st.sampled_from(pool)))
        box = functools.reduce(_intersect, [x.box for x in ins])
        if not _bounded(box):
            return op_tensor()
        v = fresh()
        lines.append(f"{v} = tdfg.cmp {name}({', '.join(x.name for x in ins)}) : {', '.join([T] * len(ins))} -> {T}")
        pool.append(Val(v, box))

    def bounded_value() -> Val | None:
        vals = [x for x in pool if not x.const and _bounded(x.box) and _nonempty(x.box)]
        return draw(st.sampled_from(vals)) if vals else None

    def op_mv() -> None:
        src = bounded_value()
        if src is None:
            return op_tensor()
        d = draw(st.integers(0, rank - 1))
        if d in src.clipped:
            # canonicalize-tdfg (in the lower-pim pipeline) merges consecutive moves
            # across the discard at the global bounding box (documented: tensorize
            # never produces such graphs)
            return op_tensor()
        k = draw(st.integers(-lattice[d] - 2, lattice[d] + 2))
        v = fresh()
        lines.append(f"{v} = tdfg.mv {src.name} dim {d} dist {k} : {T}")
        box, clipped = moved(src, d, src.box[d][0] + k, src.box[d][1] + k)
        pool.append(Val(v, box, src.alias, clipped, src.near) if k == 0 else Val(v, box, None, clipped))  # mv by 0 is dropped

    def op_shrink(src: Val | None = None, d: int | None = None, width: int | None = None) -> Val:
        if src is None:
            src = draw(st.sampled_from(pool))
        if d is None:
            d = draw(st.integers(0, rank - 1))
        lo, hi = src.box[d] if src.box[d] is not None else (0, lattice[d])
        p = draw(st.integers(lo, hi - 1)) if hi > lo else lo
        q = p + width if width is not None else draw(st.integers(p, hi))
        v = fresh()
        lines.append(f"{v} = tdfg.shrink {src.name} dim {d} to [{p}:{q}] : {T}")
        box = list(src.box)
        if box[d] is None:
            box[d] = (p, q)
        else:
            lo2 = max(p, box[d][0])
            box[d] = (lo2, max(lo2, min(q, box[d][1])))
        # a shrunk array tensor is still the array's register; a shrunk constant is
        # only cmp-ed with tensors and stored (BUG: see test_shrunk_constants)
        out = Val(v, tuple(box), src.alias, const=src.const)  # (a shrunk buffer is written into a register)
        pool.append(out)
        return out

    def op_bc() -> None:
        src = bounded_value()
        if src is None:
            return op_tensor()
        d = draw(st.integers(0, rank - 1))
        lo, hi = src.box[d]
        w = 1 if draw(st.integers(0, 4)) else draw(st.integers(1, 3))
        if hi - lo != w:
            src = op_shrink(src, d, min(w, hi - lo))
        lo, hi = src.box[d]
        if hi <= lo:
            return
        dist = draw(st.integers(-lattice[d], lattice[d]))
        count = draw(st.integers(1, lattice[d] + 1))
        if count == 1 and d in src.clipped:
            count = 2  # a single copy is a move (see op_mv)
        v = fresh()
        lines.append(f"{v} = tdfg.bc {src.name} dim {d} dist {dist} count {count} : {T}")
        box, clipped = moved(src, d, lo + dist, lo + dist + count * (hi - lo))
        if count == 1 and dist == 0:  # canonicalized away
            pool.append(Val(v, box, src.alias, clipped, src.near))
        else:
            pool.append(Val(v, box, None, clipped if count == 1 else frozenset()))

    def op_reduce() -> None:
        # any bounded tensor, empty ones too (their reduction is the identity)
        vals = [x for x in pool if not x.const and _bounded(x.box)]
        if not vals:
            return op_tensor()
        src = draw(st.sampled_from(vals))
        kinds = ("add", "min", "max", "mul") if elem[0] != "f" else ("add", "min", "max")
        kind = draw(st.sampled_from(kinds))
        d = draw(st.integers(0, rank - 1))
        extra = [e for e in range(rank) if e != d and draw(st.booleans())]
        dims = sorted([d, *extra])
        inp = src.name
        # mostly the in-memory partial reduce first (Fig. 4b)
        if draw(st.integers(0, 4)):
            inp = fresh()
            lines.append(f"{inp} = tdfg.reduce {kind} {src.name} dim {d} : {T}")
        v = fresh()
        over = ", ".join(map(str, dims))
        if len(dims) == rank:
            lines.append(f"{v} = tdfg.stream_reduce {kind} {inp} over [{over}] : {T} -> {elem}")
            results.append(v)
        else:
            lines.append(f"{v} = tdfg.stream_reduce {kind} {inp} over [{over}] : {T} -> {T}")
            box = list(src.box)
            for e in dims:
                box[e] = (box[e][0], box[e][0] + 1)
            pool.append(Val(v, tuple(box), near=True))

    op_tensor(0)  # array 0 is always laid out
    steps = {"tensor": op_tensor, "cmp": op_cmp, "mv": op_mv, "bc": op_bc, "const": op_const, "shrink": op_shrink, "reduce": op_reduce, "load": op_stream_load}
    kinds = ("tensor", "cmp", "cmp", "cmp", "mv", "mv", "bc", "bc", "const", "shrink", "reduce", "reduce", "load")
    for _ in range(draw(st.integers(1, 12))):
        steps[draw(st.sampled_from(kinds))]()

    # stores last: tensors read the arrays as they were on entry
    first = draw(st.sampled_from(pool))
    lines.append(f"tdfg.store {first.name} -> %a0 : {T} -> {mtype(0)}")
    for _ in range(draw(st.integers(0, 2))):
        vals = [x for x in pool if _bounded(x.box)] or pool
        if draw(st.integers(0, 9)) == 0:
            vals = pool  # sometimes an (unbounded) constant: fills the array
        src = draw(st.sampled_from(vals))
        i = draw(st.integers(0, len(shapes) - 1))
        lines.append(f"tdfg.store {src.name} -> %a{i} : {T} -> {mtype(i)}")

    # the machine, and the tile shape: chosen by the layout heuristics or forced
    B, capacity = cfg.bitlines, cfg.total_arrays
    fits = [t for t in _factorizations(B, rank) if math.prod(-(-s // x) for s, x in zip(lattice, t)) <= capacity]
    # (the heuristics also keep a cache line in one bank, which 'fig9' never can: force its tiles)
    force = config == "fig9" or draw(st.booleans())
    tiles = draw(st.sampled_from(fits)) if fits and force else None

    w_val = draw(st.sampled_from((-2.0, 0.5, 3.0))) if elem[0] == "f" else draw(st.integers(-5, 5))
    seed = draw(st.integers(0, 2**16))
    values = draw(st.sampled_from(("halves", "uniform")))
    mode = draw(st.sampled_from(("functional", "functional", "bitlevel")))  # bit-serial compute too

    arg_types = ", ".join(mtype(i) for i in range(len(shapes)))
    ins = ", ".join(f"%A{i}" for i in range(len(shapes)))
    fn_args = ", ".join([*(f"%A{i}: {mtype(i)}" for i in range(len(shapes))), "%n: index", f"%w: {elem}"])
    bb_args = ", ".join([*(f"%a{i}: {mtype(i)}" for i in range(len(shapes))), "%N: index", f"%W: {elem}"])
    res_types = ", ".join([elem] * len(results))
    lhs = "" if not results else ("%r = " if len(results) == 1 else f"%r:{len(results)} = ")
    arrow = f" -> {res_types}" if results else ""
    yld = f"tdfg.yield {', '.join(results)} : {res_types}" if results else "tdfg.yield"
    body = "\n    ".join([*lines, yld])
    text = (
        f"func.func @g({fn_args}) {{\n"
        f"  {lhs}tdfg.graph ins({ins} : {arg_types}) syms(N = %n : index, w = %w : {elem}) rank {rank}{arrow} {{\n"
        f"  ^bb0({bb_args}):\n    {body}\n  }}\n  func.return\n}}\n"
    )
    return dict(
        text=text, config=config, tiles=tiles, shapes=shapes, elem=elem, n=n_sym, w=w_val, seed=seed,
        results=len(results), values=values, mode=mode,
    )  # fmt: skip


def _fill(shape: tuple[int, ...], elem: str, rng: np.random.Generator, values: str = "halves") -> np.ndarray:
    # f32: small multiples of 1/2 (sums exact whatever the order), or positive
    # uniform values (rounded sums within compare_values' tolerance); the
    # element-wise ops round identically on both sides
    if elem[0] == "f":
        if values == "uniform":
            return rng.uniform(0.5, 2.0, shape).astype(NP_TYPES[elem])
        return (rng.integers(-8, 9, shape) / 2).astype(NP_TYPES[elem])
    return rng.integers(-50, 51, shape).astype(NP_TYPES[elem])


def check_random_graph(case: dict, stats: dict[str, int], in_hypothesis: bool = False) -> None:
    if in_hypothesis:
        note(case["text"])
        note(f"config={case['config']} tiles={case['tiles']} shapes={case['shapes']} N={case['n']} w={case['w']} mode={case['mode']}")
    module = api.parse_text(case["text"])
    (graph,) = [op for op in module.walk() if isinstance(op, tdfg.GraphOp)]
    rng = np.random.default_rng(case["seed"])
    elem = case["elem"]
    arrays = [_fill(s, elem, rng, case.get("values", "halves")) for s in case["shapes"]]
    w = NP_TYPES[elem](case["w"])
    scalars = [case["n"], w]

    expected = [a.copy() for a in arrays]
    want = evaluate_graph(graph, expected, scalars)

    cfg = _machine(case["config"])
    try:
        lowered = jit.lower(graph, {"N": case["n"]}, cfg, case["tiles"], {i: a.shape for i, a in enumerate(arrays)})
    except LayoutError:
        stats["layout"] += 1
        return
    except LoweringError as e:
        if "wordline pressure" not in str(e):
            raise
        stats["wordlines"] += 1
        return
    actual = [a.copy() for a in arrays]
    machine = Machine(cfg, mode=case.get("mode", "functional"))
    machine.run(lowered.program, dict(enumerate(actual)), scalars=[scalars[i] for i in lowered.scalar_map])
    for i, (a, e) in enumerate(zip(actual, expected)):
        check = compare_values({f"a{i}": a}, {f"a{i}": e})
        assert check.ok, f"array {i}: {check.note}"
    assert len(machine.results) == len(want)
    for i, r in enumerate(want):
        check = compare_values({"r": np.asarray(machine.results[i], NP_TYPES[elem])}, {"r": np.asarray(r)})
        assert check.ok, f"result {i}: {machine.results[i]} != {r}"
    stats["ran"] += 1
    stats["commands"] += lowered.commands


def test_random_graphs_match_lattice_semantics():
    stats = {"ran": 0, "layout": 0, "wordlines": 0, "commands": 0, "examples": 0}

    @settings(max_examples=RANDOM_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], database=None)
    @given(random_graphs())
    def run(case):
        stats["examples"] += 1
        check_random_graph(case, stats, in_hypothesis=True)

    run()
    print(f"random graphs: {stats}")
    # most examples really ran on the machine (not skipped as too big / out of wordlines)
    assert stats["ran"] >= RANDOM_EXAMPLES // 2, stats
    assert stats["commands"] > 0


# A few graphs hypothesis may not hit often, pinned down.
PINNED = [
    # Fig. 9: mv of columns [0,3) right by 1 on a 4x4 array in 2x2 tiles
    dict(
        text="""func.func @g(%A0: memref<?x?xf32>, %n: index, %w: f32) {
  tdfg.graph ins(%A0 : memref<?x?xf32>) syms(N = %n : index, w = %w : f32) rank 2 {
  ^bb0(%a0: memref<?x?xf32>, %N: index, %W: f32):
    %v0 = tdfg.tensor %a0 [0:4, 0:N - 1] : memref<?x?xf32> -> !tdfg.tensor<f32, 2>
    %v1 = tdfg.mv %v0 dim 1 dist 1 : !tdfg.tensor<f32, 2>
    tdfg.store %v1 -> %a0 : !tdfg.tensor<f32, 2> -> memref<?x?xf32>
    tdfg.yield
  }
  func.return
}
""",
        config="fig9", tiles=(2, 2), shapes=[(4, 4)], elem="f32", n=4, w=1.0, seed=1, results=0,
    ),
    # kmeans-style: reduce a row, complete it near memory, broadcast it back, use it
    dict(
        text="""func.func @g(%A0: memref<?x?xi32>, %A1: memref<?x?xi32>, %n: index, %w: i32) {
  %r = tdfg.graph ins(%A0, %A1 : memref<?x?xi32>, memref<?x?xi32>) syms(N = %n : index, w = %w : i32) rank 2 -> i32 {
  ^bb0(%a0: memref<?x?xi32>, %a1: memref<?x?xi32>, %N: index, %W: i32):
    %v0 = tdfg.tensor %a0 [0:6, 0:N] : memref<?x?xi32> -> !tdfg.tensor<i32, 2>
    %v1 = tdfg.reduce add %v0 dim 1 : !tdfg.tensor<i32, 2>
    %v2 = tdfg.stream_reduce add %v1 over [1] : !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %v3 = tdfg.bc %v2 dim 1 dist 0 count N : !tdfg.tensor<i32, 2>
    %v4 = tdfg.const %W : i32 -> !tdfg.tensor<i32, 2>
    %v5 = tdfg.cmp mul(%v3, %v4) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %v6 = tdfg.cmp sub(%v0, %v5) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    tdfg.store %v6 -> %a1 : !tdfg.tensor<i32, 2> -> memref<?x?xi32>
    %v7 = tdfg.reduce max %v6 dim 0 : !tdfg.tensor<i32, 2>
    %v8 = tdfg.stream_reduce max %v7 over [0, 1] : !tdfg.tensor<i32, 2> -> i32
    tdfg.yield %v8 : i32
  }
  func.return
}
""",
        config="e2e-b16-wl512", tiles=(2, 8), shapes=[(6, 21), (6, 21)], elem="i32", n=21, w=3, seed=2, results=1,
    ),
    # 3-D: a mv longer than the tile, broadcasts of a 1-D array along both leading
    # dims, and a store of a moved tensor into the lower-rank array
    dict(
        text="""func.func @g(%A0: memref<?x?x?xf32>, %A1: memref<?xf32>, %n: index, %w: f32) {
  tdfg.graph ins(%A0, %A1 : memref<?x?x?xf32>, memref<?xf32>) syms(N = %n : index, w = %w : f32) rank 3 {
  ^bb0(%a0: memref<?x?x?xf32>, %a1: memref<?xf32>, %N: index, %W: f32):
    %v0 = tdfg.tensor %a0 [0:3, 0:5, 0:N] : memref<?x?x?xf32> -> !tdfg.tensor<f32, 3>
    %v1 = tdfg.mv %v0 dim 2 dist -5 : !tdfg.tensor<f32, 3>
    %v2 = tdfg.tensor %a1 [0:1, 0:1, 1:N] : memref<?xf32> -> !tdfg.tensor<f32, 3>
    %v3 = tdfg.bc %v2 dim 0 dist 0 count 3 : !tdfg.tensor<f32, 3>
    %v4 = tdfg.bc %v3 dim 1 dist 0 count 5 : !tdfg.tensor<f32, 3>
    %v5 = tdfg.cmp max(%v1, %v4) : !tdfg.tensor<f32, 3>, !tdfg.tensor<f32, 3> -> !tdfg.tensor<f32, 3>
    tdfg.store %v5 -> %a0 : !tdfg.tensor<f32, 3> -> memref<?x?x?xf32>
    tdfg.store %v1 -> %a1 : !tdfg.tensor<f32, 3> -> memref<?xf32>
    tdfg.yield
  }
  func.return
}
""",
        config="small-16", tiles=(1, 2, 32), shapes=[(3, 5, 11), (11,)], elem="f32", n=11, w=0.0, seed=3, results=0,
    ),
]


@pytest.mark.parametrize("case", PINNED, ids=["fig9-mv", "reduce-bc-back", "3d-long-mv"])
def test_pinned_graphs_match_lattice_semantics(case):
    stats = {"ran": 0, "layout": 0, "wordlines": 0, "commands": 0}
    check_random_graph(case, stats)
    assert stats["ran"] == 1, stats


# ---------------------------------------------------------------------------
# JIT memoization
# ---------------------------------------------------------------------------


def _run_in_memory_tensorized(module, args, entry: str, config, tiles=None, tensorized=None):
    """The module tensorized ahead of time, its graphs run in memory by the
    runtime (``tdfg.graph`` in the host code), regions left as streams near
    memory: (results, machine, the lowerings run in order)."""
    rep = run_program(tensorized or tensorize_module(module), args, entry, RunOptions(config=config, mode="in", tiles=tiles))
    return rep.results, rep.machine, [lowered for _, lowered, _, _ in rep.programs]


@pytest.mark.parametrize("name,steps", [("stencil2d", 4), ("stencil1d", 6)])
def test_jit_lowers_each_distinct_graph_once(name, steps):
    w = WORKLOADS[name]
    sizes = dict(w.sizes("small"), t=steps)
    inputs = w.inputs(sizes, 0)
    ref = {k: v.copy() for k, v in inputs.items()}
    host.run_function(_module(name), w.call_args(ref, sizes), w.entry)

    jit.clear_cache()
    assert jit.cache_stats() == {"hits": 0, "misses": 0, "entries": 0}
    arrays = {k: v.copy() for k, v in inputs.items()}
    _, machine, lowered = _run_in_memory_tensorized(_module(name), w.call_args(arrays, sizes), w.entry, "small-16")
    distinct = {id(lw) for lw in lowered}
    graphs = len(_tensorized_info(name)[0])
    assert len(lowered) == steps and len(distinct) == graphs == 2  # the A->B and B->A sweeps
    assert jit.cache_stats() == {"hits": steps - graphs, "misses": graphs, "entries": graphs}
    check = compare_values({k: arrays[k] for k in w.outputs}, {k: ref[k] for k in w.outputs})
    assert check.ok, check.note  # the memoized programs ran the later steps

    # one tensorized module run twice on other inputs: its graphs lower on the
    # first run, the second run is all hits (and still right)
    tmod = tensorize_module(_module(name))
    runs = []
    for seed in (1, 2):
        inputs = w.inputs(sizes, seed)
        ref = {k: v.copy() for k, v in inputs.items()}
        host.run_function(_module(name), w.call_args(ref, sizes), w.entry)
        arrays = {k: v.copy() for k, v in inputs.items()}
        runs += _run_in_memory_tensorized(None, w.call_args(arrays, sizes), w.entry, "small-16", tensorized=tmod)[2]
        check = compare_values({k: arrays[k] for k in w.outputs}, {k: ref[k] for k in w.outputs})
        assert check.ok, f"seed {seed}: {check.note}"
    assert jit.cache_stats() == {"hits": steps - graphs + 2 * steps - graphs, "misses": 2 * graphs, "entries": 2 * graphs}
    assert len({id(lw) for lw in runs}) == graphs


def test_jit_memo_key_covers_sizes_tiles_and_config():
    text = PINNED[0]["text"]
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    jit.clear_cache()
    a = jit.lower(g, {"N": 8}, "small-16", None, {0: (8, 8)})
    assert jit.lower(g, {"N": 8}, "small-16", None, {0: (8, 8)}) is a
    assert jit.lower(g, {"N": 8}, load_config("small-16"), None, {0: (8, 8)}) is a
    others = [
        jit.lower(g, {"N": 6}, "small-16", None, {0: (8, 6)}),
        jit.lower(g, {"N": 8}, "small-16", (2, 32), {0: (8, 8)}),
        jit.lower(g, {"N": 8}, _cfg("e2e-b16-wl512"), None, {0: (8, 8)}),
    ]
    assert all(o is not a for o in others) and len({id(o) for o in others}) == 3
    assert jit.cache_stats() == {"hits": 2, "misses": 4, "entries": 4}


# ---------------------------------------------------------------------------
# Bugs found (kept as the tests should behave)
# ---------------------------------------------------------------------------


def test_jit_accepts_an_unregistered_custom_config():
    """Regression: the JIT used to reload the machine by name (ConfigError for a custom config)."""
    cfg = load_config("small-16", name="e2e-unregistered", bitlines=16)
    w = WORKLOADS["vec_add"]
    inputs, expected = _reference("vec_add", "small")
    arrays = {k: v.copy() for k, v in inputs.items()}
    _, _, lowered = _run_in_memory_tensorized(_module("vec_add"), w.call_args(arrays, w.sizes("small")), w.entry, cfg)
    assert compare_values({"C": arrays["C"]}, {"C": expected["C"]}).ok
    assert [math.prod(lw.record.tiles) for lw in lowered] == [16]


def test_jit_lowers_for_an_overridden_config_that_keeps_its_name():
    """Regression: an override keeping the built-in's name used to be lowered for the built-in."""
    cfg = load_config("small-16", mesh_rows=2, mesh_cols=2, banks=4, mem_ctrls=4)
    assert cfg.name == "small-16" and cfg.banks == 4
    w = WORKLOADS["vec_add"]
    inputs, expected = _reference("vec_add", "small")
    arrays = {k: v.copy() for k, v in inputs.items()}
    jit.clear_cache()  # (the memo key holds the name only: see the xfail below)
    _, _, lowered = _run_in_memory_tensorized(_module("vec_add"), w.call_args(arrays, w.sizes("small")), w.entry, cfg)
    assert compare_values({"C": arrays["C"]}, {"C": expected["C"]}).ok
    assert [lw.record.banks for lw in lowered] == [4]
    jit.clear_cache()


def test_jit_memo_key_distinguishes_configs_with_the_same_name():
    (g,) = [op for op in api.parse_text(PINNED[0]["text"]).walk() if isinstance(op, tdfg.GraphOp)]
    jit.clear_cache()
    a = jit.lower(g, {"N": 8}, "small-16", None, {0: (8, 8)})
    narrow = load_config("small-16", bitlines=16)
    b = jit.lower(g, {"N": 8}, narrow, None, {0: (8, 8)})
    assert b is not a
    assert math.prod(b.record.tiles) == 16


def test_store_of_an_arrays_entry_value_after_another_store():
    T = "!tdfg.tensor<i32, 1>"
    text = f"""func.func @g(%A: memref<4xi32>) {{
  tdfg.graph ins(%A : memref<4xi32>) syms() rank 1 {{
  ^bb0(%a: memref<4xi32>):
    %t = tdfg.tensor %a [0:4] : memref<4xi32> -> {T}
    %d = tdfg.cmp add(%t, %t) : {T}, {T} -> {T}
    tdfg.store %d -> %a : {T} -> memref<4xi32>
    tdfg.store %t -> %a : {T} -> memref<4xi32>
    tdfg.yield
  }}
  func.return
}}"""
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    want = np.arange(1, 5, dtype=np.int32)
    evaluate_graph(g, [want], [])
    np.testing.assert_array_equal(want, [1, 2, 3, 4])  # the last store writes the entry values back
    got = np.arange(1, 5, dtype=np.int32)
    Machine("small-16").run(jit.lower(g, {}, "small-16").program, {0: got})
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("over,want", [(0, [3]), (1, [3])])
def test_near_memory_store_keeps_to_the_array(over, want):
    T = "!tdfg.tensor<i32, 2>"
    text = f"""func.func @g(%A: memref<2x3xi32>, %C: memref<1xi32>) {{
  tdfg.graph ins(%A, %C : memref<2x3xi32>, memref<1xi32>) syms() rank 2 {{
  ^bb0(%a: memref<2x3xi32>, %c: memref<1xi32>):
    %t = tdfg.tensor %a [0:2, 0:3] : memref<2x3xi32> -> {T}
    %s = tdfg.stream_reduce add %t over [{over}] : {T} -> {T}
    tdfg.store %s -> %c : {T} -> memref<1xi32>
    tdfg.yield
  }}
  func.return
}}"""
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    A = np.arange(6, dtype=np.int32).reshape(2, 3)
    expected = np.zeros(1, np.int32)
    evaluate_graph(g, [A.copy(), expected], [])
    # over [0]: C[0] = A[0,0] + A[1,0]; over [1]: C[0] = A[0,0] + A[0,1] + A[0,2]
    np.testing.assert_array_equal(expected, want)
    got = np.zeros(1, np.int32)
    Machine("small-16").run(jit.lower(g, {}, "small-16").program, {0: A.copy(), 1: got})
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("tiles", [(2, 2), (4, 1)])
def test_stream_reduce_after_reduce_keeps_the_first_coordinate(tiles):
    T = "!tdfg.tensor<i32, 2>"
    text = f"""func.func @g(%A: memref<4x4xi32>) {{
  tdfg.graph ins(%A : memref<4x4xi32>) syms() rank 2 {{
  ^bb0(%a: memref<4x4xi32>):
    %t = tdfg.tensor %a [1:4, 0:4] : memref<4x4xi32> -> {T}
    %p = tdfg.reduce add %t dim 0 : {T}
    %s = tdfg.stream_reduce add %p over [0] : {T} -> {T}
    tdfg.store %s -> %a : {T} -> memref<4x4xi32>
    tdfg.yield
  }}
  func.return
}}"""
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    A = np.arange(16, dtype=np.int32).reshape(4, 4)
    expected = A.copy()
    evaluate_graph(g, [expected], [])
    np.testing.assert_array_equal(expected[1], A[1:].sum(axis=0))  # row 1 = the column sums of rows 1..3
    got = A.copy()
    Machine("fig9").run(jit.lower(g, {}, "fig9", tiles).program, {0: got})
    np.testing.assert_array_equal(got, expected)


def test_specialize_accepts_a_partial_domain_of_a_static_array():
    """Regression: [0:N] on a static memref<8xi32> with N=4 bound used to be a SpecializeError."""
    T = "!tdfg.tensor<i32, 1>"
    text = f"""func.func @g(%A: memref<8xi32>, %n: index) {{
  tdfg.graph ins(%A : memref<8xi32>) syms(N = %n : index) rank 1 {{
  ^bb0(%a: memref<8xi32>, %N: index):
    %t = tdfg.tensor %a [0:N] : memref<8xi32> -> {T}
    %d = tdfg.cmp add(%t, %t) : {T}, {T} -> {T}
    tdfg.store %d -> %a : {T} -> memref<8xi32>
    tdfg.yield
  }}
  func.return
}}"""
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    expected = np.arange(8, dtype=np.int32)
    evaluate_graph(g, [expected], [4])
    np.testing.assert_array_equal(expected, [0, 2, 4, 6, 4, 5, 6, 7])
    got = np.arange(8, dtype=np.int32)
    Machine("small-16").run(jit.lower(g, {"N": 4}, "small-16").program, {0: got})
    np.testing.assert_array_equal(got, expected)


def test_specialize_and_the_jit_refuse_a_symbol_that_is_the_extent_of_arrays_of_two_sizes():
    """[0:N] over a memref<4x6> and a memref<8x6> with N unbound: N cannot be both extents.
    One line from the pass and from the JIT (which repeats the check on runtime shapes)."""
    T = "!tdfg.tensor<f32, 2>"
    text = f"""func.func @conflict(%A: memref<4x6xf32>, %B: memref<8x6xf32>, %C: memref<?x?xf32>, %n: index, %m: index) {{
  tdfg.graph ins(%A, %B, %C : memref<4x6xf32>, memref<8x6xf32>, memref<?x?xf32>) syms(N = %n : index, M = %m : index) rank 2 {{
  ^bb0(%a: memref<4x6xf32>, %b: memref<8x6xf32>, %c: memref<?x?xf32>, %N: index, %M: index):
    %0 = tdfg.tensor %a [0:N, 0:M] : memref<4x6xf32> -> {T}
    %1 = tdfg.tensor %b [0:N, 0:M] : memref<8x6xf32> -> {T}
    %2 = tdfg.cmp add(%0, %1) : {T}, {T} -> {T}
    tdfg.store %2 -> %c : {T} -> memref<?x?xf32>
    tdfg.yield
  }}
  func.return
}}"""
    from xdsl.context import Context

    from infs.passes.specialize import SpecializePass

    with pytest.raises(SpecializeError, match=r"^'tdfg.tensor' domains \[0:N\] over arrays of sizes 4 and 8: symbol 'N' cannot be the extent of both$"):
        SpecializePass().apply(Context(), api.parse_text(text))
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    with pytest.raises(SpecializeError, match=r"^the tdfg.graph at <input>:2:3 in @conflict: 'tdfg.tensor' domains \[0:N\] over arrays of sizes 4 and 8: symbol 'N' cannot be the extent of both$"):
        jit.lower(g, {}, "small-16", shapes={0: (4, 6), 1: (8, 6), 2: (8, 6)})


def test_bounding_box_covers_arrays_that_are_not_laid_out():
    T = "!tdfg.tensor<i32, 2>"
    text = f"""func.func @g(%A: memref<2x3xi32>, %B: memref<2xi32>) {{
  tdfg.graph ins(%A, %B : memref<2x3xi32>, memref<2xi32>) syms() rank 2 {{
  ^bb0(%a: memref<2x3xi32>, %b: memref<2xi32>):
    %t = tdfg.tensor %b [0:1, 0:2] : memref<2xi32> -> {T}
    %m = tdfg.mv %t dim 1 dist 1 : {T}
    %s = tdfg.stream_reduce add %m over [1] : {T} -> {T}
    tdfg.store %s -> %a : {T} -> memref<2x3xi32>
    tdfg.yield
  }}
  func.return
}}"""
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    B = np.array([10, 20], np.int32)
    expected = np.zeros((2, 3), np.int32)
    evaluate_graph(g, [expected, B.copy()], [])
    np.testing.assert_array_equal(expected, [[0, 30, 0], [0, 0, 0]])  # both moved cells stay inside A's columns
    got = np.zeros((2, 3), np.int32)
    Machine("small-16").run(jit.lower(g, {}, "small-16").program, {0: got, 1: B.copy()})
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("elem", ["i32", "f32"])
@pytest.mark.parametrize("kind", ["add", "mul", "min", "max"])
@pytest.mark.parametrize("partial", [False, True])
def test_stream_reduce_of_an_empty_tensor_is_the_identity(kind, elem, partial):
    """A tensor moved below the lattice's origin is empty: its reduction is the kind's identity
    (an empty readout gives an empty buffer; the near-memory fold starts at the identity)."""
    T = f"!tdfg.tensor<{elem}, 1>"
    M = f"memref<4x{elem}>"
    red = f"%p = tdfg.reduce {kind} %m dim 0 : {T}\n    " if partial else ""
    src = "%p" if partial else "%m"
    text = f"""func.func @g(%B: {M}) -> {elem} {{
  %r = tdfg.graph ins(%B : {M}) syms() rank 1 -> {elem} {{
  ^bb0(%b: {M}):
    %t = tdfg.tensor %b [0:4] : {M} -> {T}
    %m = tdfg.mv %t dim 0 dist -4 : {T}
    {red}%s = tdfg.stream_reduce {kind} {src} over [0] : {T} -> {elem}
    tdfg.yield %s : {elem}
  }}
  func.return %r : {elem}
}}"""
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    B = np.array([1, 2, 3, 4], np.int32 if elem == "i32" else np.float32)
    (want,) = evaluate_graph(g, [B.copy()], [])
    identity = {"add": 0, "mul": 1, "min": np.iinfo(np.int32).max if elem == "i32" else np.inf,
                "max": np.iinfo(np.int32).min if elem == "i32" else -np.inf}[kind]  # fmt: skip
    assert want == identity
    machine = Machine("small-16")
    machine.run(jit.lower(g, {}, "small-16").record, {0: B.copy()})
    assert machine.results == {0: want}


def test_store_of_an_empty_array_tensor_into_another_array():
    T = "!tdfg.tensor<i32, 1>"
    text = f"""func.func @g(%A: memref<4xi32>, %B: memref<4xi32>) {{
  tdfg.graph ins(%A, %B : memref<4xi32>, memref<4xi32>) syms() rank 1 {{
  ^bb0(%a: memref<4xi32>, %b: memref<4xi32>):
    %t = tdfg.tensor %a [0:4] : memref<4xi32> -> {T}
    %d = tdfg.cmp add(%t, %t) : {T}, {T} -> {T}
    %e = tdfg.shrink %t dim 0 to [2:2] : {T}
    tdfg.store %d -> %a : {T} -> memref<4xi32>
    tdfg.store %e -> %b : {T} -> memref<4xi32>
    tdfg.yield
  }}
  func.return
}}"""
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    A, B = np.arange(4, dtype=np.int32), np.zeros(4, np.int32)
    wa, wb = A.copy(), B.copy()
    evaluate_graph(g, [wa, wb], [])
    ga, gb = A.copy(), B.copy()
    Machine("small-16").run(jit.lower(g, {}, "small-16").program, {0: ga, 1: gb})
    np.testing.assert_array_equal(ga, wa)
    np.testing.assert_array_equal(gb, wb)


SHRUNK_CONSTANTS = {
    # cmp of a constant and a shrunk constant: LoweringError "of constants only: run canonicalize-tdfg"
    "cmp": (1, (4,), """%t = tdfg.tensor %a [0:4] : {M} -> {T}
    %c = tdfg.const 2 : {T}
    %s = tdfg.shrink %c dim 0 to [1:3] : {T}
    %d = tdfg.cmp add(%c, %s) : {T}, {T} -> {T}
    tdfg.store %d -> %a : {T} -> {M}
    tdfg.yield"""),
    # stream_reduce of a shrunk constant: LoweringError "a constant tensor is used where its extent is unknown"
    "stream_reduce": (1, (4,), """%t = tdfg.tensor %a [0:4] : {M} -> {T}
    %c = tdfg.const 2 : {T}
    %s = tdfg.shrink %c dim 0 to [1:3] : {T}
    %v = tdfg.stream_reduce add %s over [0] : {T} -> i32
    tdfg.store %v -> %a : i32 -> {M}
    tdfg.yield"""),
    # mv / bc of a constant shrunk along one dim of a 2-D lattice: not moved (wrong rows)
    "mv": (2, (4, 4), """%t = tdfg.tensor %a [0:4, 0:4] : {M} -> {T}
    %c = tdfg.const 2 : {T}
    %s = tdfg.shrink %c dim 0 to [0:1] : {T}
    %m = tdfg.mv %s dim 0 dist 2 : {T}
    %d = tdfg.cmp add(%t, %m) : {T}, {T} -> {T}
    tdfg.store %d -> %a : {T} -> {M}
    tdfg.yield"""),
    "bc": (2, (4, 4), """%t = tdfg.tensor %a [0:4, 0:4] : {M} -> {T}
    %c = tdfg.const 2 : {T}
    %s = tdfg.shrink %c dim 0 to [0:1] : {T}
    %m = tdfg.bc %s dim 0 dist 2 count 2 : {T}
    %d = tdfg.cmp add(%t, %m) : {T}, {T} -> {T}
    tdfg.store %d -> %a : {T} -> {M}
    tdfg.yield"""),
}


@pytest.mark.parametrize("case", sorted(SHRUNK_CONSTANTS))
def test_shrunk_constants(case):
    rank, shape, body = SHRUNK_CONSTANTS[case]
    T = f"!tdfg.tensor<i32, {rank}>"
    M = "memref<" + "x".join(map(str, shape)) + "xi32>"
    if case == "stream_reduce":  # the sum is the graph's result
        body = body.replace("tdfg.store %v -> %a : i32 -> {M}\n    tdfg.yield", "tdfg.store %t -> %a : {T} -> {M}\n    tdfg.yield %v : i32")
    res = case == "stream_reduce"
    text = f"""func.func @g(%A: {M}) {{
  {'%r = ' if res else ''}tdfg.graph ins(%A : {M}) syms() rank {rank}{' -> i32' if res else ''} {{
  ^bb0(%a: {M}):
    {body.format(T=T, M=M)}
  }}
  func.return
}}"""
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    A = np.arange(math.prod(shape), dtype=np.int32).reshape(shape)
    expected = A.copy()
    want = evaluate_graph(g, [expected], [])
    got = A.copy()
    machine = Machine("small-16")
    machine.run(jit.lower(g, {}, "small-16").program, {0: got})
    np.testing.assert_array_equal(got, expected)
    assert [machine.results[i] for i in range(len(want))] == [int(x) for x in want]


def test_specialize_binding_wins_over_static_shapes_of_different_sizes():
    T = "!tdfg.tensor<i32, 1>"
    text = f"""func.func @g(%A: memref<8xi32>, %B: memref<6xi32>, %n: index) {{
  tdfg.graph ins(%A, %B : memref<8xi32>, memref<6xi32>) syms(N = %n : index) rank 1 {{
  ^bb0(%a: memref<8xi32>, %b: memref<6xi32>, %N: index):
    %t = tdfg.tensor %a [0:N] : memref<8xi32> -> {T}
    %u = tdfg.tensor %b [0:N] : memref<6xi32> -> {T}
    %d = tdfg.cmp add(%t, %u) : {T}, {T} -> {T}
    tdfg.store %d -> %a : {T} -> memref<8xi32>
    tdfg.yield
  }}
  func.return
}}"""
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    A, B = np.arange(8, dtype=np.int32), np.arange(6, dtype=np.int32) * 10
    expected = A.copy()
    evaluate_graph(g, [expected, B.copy()], [4])
    np.testing.assert_array_equal(expected, [0, 11, 22, 33, 4, 5, 6, 7])
    got = A.copy()
    Machine("small-16").run(jit.lower(g, {"N": 4}, "small-16").program, {0: got, 1: B.copy()})
    np.testing.assert_array_equal(got, expected)


def test_jit_folds_constant_computations():
    T = "!tdfg.tensor<i32, 1>"
    text = f"""func.func @g(%A: memref<?xi32>) {{
  tdfg.graph ins(%A : memref<?xi32>) syms() rank 1 {{
  ^bb0(%a: memref<?xi32>):
    %t = tdfg.tensor %a [0:4] : memref<?xi32> -> {T}
    %c = tdfg.const 2 : {T}
    %k = tdfg.const 3 : {T}
    %ck = tdfg.cmp mul(%c, %k) : {T}, {T} -> {T}
    %d = tdfg.cmp add(%t, %ck) : {T}, {T} -> {T}
    tdfg.store %d -> %a : {T} -> memref<?xi32>
    tdfg.yield
  }}
  func.return
}}"""
    api.run_pipeline(api.parse_text(text), "lower-pim{config=small-16}")  # the pass pipeline folds it
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    expected = np.arange(4, dtype=np.int32)
    evaluate_graph(g, [expected], [])
    np.testing.assert_array_equal(expected, [6, 7, 8, 9])
    got = np.arange(4, dtype=np.int32)
    Machine("small-16").run(jit.lower(g, {}, "small-16", None, {0: (4,)}).program, {0: got})
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("outer", ["store", "min"])
def test_stream_reduce_tensor_of_an_empty_range_is_the_identity(outer):
    """A stream_reduce with a tensor result over an empty dim folds to the
    identity at each kept cell (tdfg semantics, as a stream.reduce over no
    iteration; it had no cells), so storing it writes the identity
    and folding it again folds that identity."""
    T = "!tdfg.tensor<f32, 3>"
    M = "memref<?x?x?xf32>"
    tail = (f"tdfg.store %e -> %a : {T} -> {M}\n    tdfg.yield" if outer == "store"
            else f"%s = tdfg.stream_reduce min %e over [0, 1, 2] : {T} -> f32\n    tdfg.yield %s : f32")  # fmt: skip
    res = " -> f32" if outer == "min" else ""
    text = f"""func.func @g(%A: {M}) {{
  {"%r = " if res else ""}tdfg.graph ins(%A : {M}) syms() rank 3{res} {{
  ^bb0(%a: {M}):
    %t = tdfg.tensor %a [0:2, 0:1, 0:1] : {M} -> {T}
    %row = tdfg.shrink %t dim 0 to [0:1] : {T}
    %out = tdfg.bc %row dim 0 dist -1 count 1 : {T}
    %e = tdfg.stream_reduce add %out over [0] : {T} -> {T}
    {tail}
  }}
  func.return
}}"""
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    A = np.array([3.0, 5.0], np.float32).reshape(2, 1, 1)
    want = A.copy()
    results = evaluate_graph(g, [want], [])
    got = A.copy()
    machine = Machine("small-16")
    machine.run(jit.lower(g, {}, "small-16", None, {0: (2, 1, 1)}).record, {0: got})
    np.testing.assert_array_equal(got, want)
    assert [machine.results[i] for i in range(len(results))] == [float(r) for r in results]
    if outer == "min":
        assert machine.results == {0: 0.0}  # min over {0.0}, add's identity
    else:
        assert got[0, 0, 0] == 0.0 and got[1, 0, 0] == 5.0


# -- regressions ------------------------------------------------------------------


def _one_array_graph(body: str, elem: str = "i32", n: int = 4) -> str:
    """A function holding one rank-1 tdfg.graph over ``%A: memref<n x elem>`` (block argument ``%a``)."""
    m = f"memref<{n}x{elem}>"
    lines = "\n    ".join(line.strip() for line in body.strip().splitlines())
    return f"""func.func @g(%A: {m}) {{
  tdfg.graph ins(%A : {m}) syms() rank 1 {{
  ^bb0(%a: {m}):
    {lines}
    tdfg.yield
  }}
  func.return
}}"""


def _lower_and_compare(text: str, arrays: list[np.ndarray], config: str = "small-16", shapes=None, via_op: bool = True):
    """Oracle vs the machine on the records and, printed and re-parsed, on the program op."""
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    want = [a.copy() for a in arrays]
    want_res = evaluate_graph(g, want, [])
    low = jit.lower(g, {}, config, None, shapes)
    runs = [low.record]
    if via_op:
        low.program.verify()
        runs.append(low.program)
        str(low.program)  # printable
    for prog in runs:
        got = [a.copy() for a in arrays]
        m = Machine(config)
        m.run(prog, dict(enumerate(got)))
        for g_, w_ in zip(got, want):
            np.testing.assert_array_equal(g_, w_)
        assert [m.results[i] for i in range(len(want_res))] == [w.item() for w in want_res]
    return low


def test_empty_readout_of_a_register_in_use():
    """An empty readout's source is any wordline: it must not be remapped twice."""
    T = "!tdfg.tensor<i32, 1>"
    text = f"""func.func @g(%A: memref<4xi32>, %B: memref<4xi32>) -> i32 {{
  %r = tdfg.graph ins(%A, %B : memref<4xi32>, memref<4xi32>) syms() rank 1 -> i32 {{
  ^bb0(%a: memref<4xi32>, %b: memref<4xi32>):
    %t = tdfg.tensor %a [0:4] : memref<4xi32> -> {T}
    %u = tdfg.tensor %b [0:4] : memref<4xi32> -> {T}
    %d = tdfg.cmp add(%t, %u) : {T}, {T} -> {T}
    tdfg.store %d -> %a : {T} -> memref<4xi32>
    %e = tdfg.shrink %u dim 0 to [2:2] : {T}
    %s = tdfg.stream_reduce add %e over [0] : {T} -> i32
    tdfg.yield %s : i32
  }}
  func.return %r : i32
}}"""
    _lower_and_compare(text, [np.arange(4, dtype=np.int32), np.arange(4, dtype=np.int32) * 10])


def test_stream_load_beyond_the_arrays_keeps_every_cell():
    """A stream's domain counts iterations: its tensor widens the lattice and
    the hull (it was clipped to the arrays' hull)."""
    T = "!tdfg.tensor<i32, 1>"
    text = f"""func.func @g(%A: memref<4xi32>) -> i32 {{
  %r = tdfg.graph ins(%A : memref<4xi32>) syms() rank 1 -> i32 {{
  ^bb0(%a: memref<4xi32>):
    %l = tdfg.stream_load %a[0] over [0:8] : memref<4xi32> -> {T}
    %s = tdfg.stream_reduce add %l over [0] : {T} -> i32
    tdfg.yield %s : i32
  }}
  func.return %r : i32
}}"""
    low = _lower_and_compare(text, [np.array([1, 2, 3, 4], np.int32)], shapes={0: (4,)})
    assert low.record.lattice == (8,)


def test_negative_zero_constant_survives_printing():
    """-0.0 and 0.0 are one key in a dict: the attribute cache keys floats by their bits."""
    T = "!tdfg.tensor<f32, 1>"

    def graph(c: str) -> str:
        return _one_array_graph(f"""
    %t = tdfg.tensor %a [0:4] : memref<4xf32> -> {T}
    %c = tdfg.const {c} : {T}
    %d = tdfg.cmp div(%t, %c) : {T}, {T} -> {T}
    tdfg.store %d -> %a : {T} -> memref<4xf32>""", elem="f32")

    A = np.array([1.0, -2.0, 3.0, 0.5], np.float32)
    _lower_and_compare(graph("0.0"), [A])  # fills the cache with +0.0 first
    _lower_and_compare(graph("-0.0"), [A])


def test_folded_i1_constant_is_a_number_not_a_flag():
    T, B = "!tdfg.tensor<i32, 1>", "!tdfg.tensor<i1, 1>"
    text = _one_array_graph(f"""
    %t = tdfg.tensor %a [0:4] : memref<4xi32> -> {T}
    %one = tdfg.const 1 : {T}
    %two = tdfg.const 2 : {T}
    %c = tdfg.cmp cmp_lt(%one, %two) : {T}, {T} -> {B}
    %l = tdfg.cmp cmp_lt(%t, %two) : {T}, {T} -> {B}
    %x = tdfg.cmp and(%l, %c) : {B}, {B} -> {B}
    %d = tdfg.cmp select(%x, %t, %two) : {B}, {T}, {T} -> {T}
    tdfg.store %d -> %a : {T} -> memref<4xi32>""")
    _lower_and_compare(text, [np.array([0, 1, 5, 6], np.int32)])


@pytest.mark.parametrize("op", ["add", "fma"])
def test_i1_arithmetic_is_mod_2(op):
    """i1 add is xor (MLIR's wrapping addi on i1), in the oracle as in the machine."""
    T, B = "!tdfg.tensor<i32, 1>", "!tdfg.tensor<i1, 1>"
    args = "%p, %q, %p" if op == "fma" else "%p, %q"
    types = ", ".join([B] * (3 if op == "fma" else 2))
    text = _one_array_graph(f"""
    %t = tdfg.tensor %a [0:4] : memref<4xi32> -> {T}
    %one = tdfg.const 1 : {T}
    %two = tdfg.const 2 : {T}
    %p = tdfg.cmp cmp_lt(%t, %two) : {T}, {T} -> {B}
    %q = tdfg.cmp cmp_lt(%one, %t) : {T}, {T} -> {B}
    %x = tdfg.cmp {op}({args}) : {types} -> {B}
    %d = tdfg.cmp select(%x, %t, %two) : {B}, {T}, {T} -> {T}
    tdfg.store %d -> %a : {T} -> memref<4xi32>""")
    (g,) = [o for o in api.parse_text(text).walk() if isinstance(o, tdfg.GraphOp)]
    A = np.array([0, 1, 5, 6], np.int32)
    want = A.copy()
    evaluate_graph(g, [want], [])
    p, q = A < 2, 1 < A
    x = (p ^ q) if op == "add" else ((p & q) ^ p)
    np.testing.assert_array_equal(want, np.where(x, A, 2))
    _lower_and_compare(text, [A])


def test_clear_cache_relowers_a_graph_edited_in_place():
    """The JIT treats a graph as frozen; clear_cache() (which also drops the graph facts) is how to say it changed."""
    T = "!tdfg.tensor<i32, 1>"
    text = _one_array_graph(f"""
    %t = tdfg.tensor %a [0:4] : memref<4xi32> -> {T}
    %d = tdfg.cmp add(%t, %t) : {T}, {T} -> {T}
    %e = tdfg.cmp mul(%t, %t) : {T}, {T} -> {T}
    tdfg.store %d -> %a : {T} -> memref<4xi32>""")
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    A = np.arange(4, dtype=np.int32)
    got = A.copy()
    Machine("small-16").run(jit.lower(g, {}, "small-16").record, {0: got})
    np.testing.assert_array_equal(got, 2 * A)
    store = next(o for o in g.body.block.ops if isinstance(o, tdfg.StoreOp))
    store.operands[0] = [o for o in g.body.block.ops if isinstance(o, tdfg.CmpOp)][1].result
    jit.clear_cache()
    got = A.copy()
    Machine("small-16").run(jit.lower(g, {}, "small-16").record, {0: got})
    np.testing.assert_array_equal(got, A * A)


@pytest.mark.parametrize("config,tiles", [("small-16", None), ("tiny", (4, 4)), ("tiny", (16, 1)), ("tiny", (2, 8))])
def test_broadcast_pieces_into_one_register_keep_each_other(config, tiles):
    """Found by hypothesis: a 2-wide broadcast whose copies are a move and an in-place
    copy wrote its in-place copy over its covering tiles, clobbering the moved copy:
    a compute into a register other commands also write is decomposed exactly."""
    T = "!tdfg.tensor<f32, 2>"
    text = f"""func.func @g(%A: memref<9x5xf32>) {{
  tdfg.graph ins(%A : memref<9x5xf32>) syms() rank 2 {{
  ^bb0(%a: memref<9x5xf32>):
    %t = tdfg.tensor %a [0:6, 0:5] : memref<9x5xf32> -> {T}
    %cols = tdfg.shrink %t dim 1 to [3:5] : {T}
    %b = tdfg.bc %cols dim 1 dist -2 count 2 : {T}
    tdfg.store %b -> %a : {T} -> memref<9x5xf32>
    tdfg.yield
  }}
  func.return
}}"""
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    A = np.arange(45, dtype=np.float32).reshape(9, 5)
    want = A.copy()
    evaluate_graph(g, [want], [])
    np.testing.assert_array_equal(want[:6, 1:3], A[:6, 3:5])
    got = A.copy()
    try:
        low = jit.lower(g, {}, config, tiles, {0: (9, 5)})
    except LayoutError as e:
        pytest.skip(f"layout does not fit: {e}")
    Machine(config).run(low.record, {0: got})
    np.testing.assert_array_equal(got, want)


# ---------------------------------------------------------------------------
# Verified always: the JIT's programs go through the pimcmd verifiers
# ---------------------------------------------------------------------------

_ADD_GRAPH = """func.func @g(%A: memref<8x8xi32>, %B: memref<8x8xi32>) {
  tdfg.graph ins(%A, %B : memref<8x8xi32>, memref<8x8xi32>) syms() rank 2 {
  ^bb0(%a: memref<8x8xi32>, %b: memref<8x8xi32>):
    %t = tdfg.tensor %a [0:8, 0:8] : memref<8x8xi32> -> !tdfg.tensor<i32, 2>
    %s = tdfg.cmp add(%t, %t) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    tdfg.store %s -> %b : !tdfg.tensor<i32, 2> -> memref<8x8xi32>
    tdfg.yield
  }
  func.return
}"""


def _corrupting_lowering(monkeypatch):
    """The JIT's lowering with every compute's destination beyond the array's wordlines."""
    from infs.dialects import pimcmd_schema as K

    from infs.passes.lower_pim import lower_pim

    real = lower_pim.lower_program

    def broken(prog):
        out = real(prog)
        out.cmds = [c.with_(dst=10**6) if c.kind is K.COMPUTE else c for c in out.cmds]
        return out

    monkeypatch.setattr(lower_pim, "lower_program", broken)
    (g,) = [op for op in api.parse_text(_ADD_GRAPH).walk() if isinstance(op, tdfg.GraphOp)]
    return g


@pytest.mark.parametrize("how", ["env", "set_verify"])
def test_jit_output_goes_through_the_verifiers(monkeypatch, how):
    g = _corrupting_lowering(monkeypatch)
    monkeypatch.setenv("INFS_VERIFY", "0")
    monkeypatch.setattr(jit, "_VERIFY", [False])
    jit.clear_cache()
    jit.lower(g, {}, "small-16", (4, 16))  # not verified: the broken program passes unseen
    if how == "env":
        monkeypatch.setenv("INFS_VERIFY", "1")
    else:
        jit.set_verify(True)
    jit.clear_cache()
    with pytest.raises(LoweringError) as e:
        jit.lower(g, {}, "small-16", (4, 16))
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("the tdfg.graph at <input>:2:3 in @g: the JIT's program does not verify: ")
    assert "'pimcmd.compute' destination wordlines [1000000, 1000032) leave the array's 256 wordlines" in msg
    jit.clear_cache()


def test_infs_run_check_verifies_jit_programs(monkeypatch, capsys):
    from infs.tools import infs_run

    monkeypatch.setenv("INFS_VERIFY", "0")
    monkeypatch.setattr(jit, "_VERIFY", [False])
    assert not jit.verifying()
    rc = infs_run.main([str(WORKLOADS["vec_add"].path), "--config", "small-16", "--mode", "in", "--check", "--json"])
    assert rc == 0 and jit.verifying()
