"""Regression tests for the runtime and the simulator.

* near-memory stores/atomics into an array the same program holds transposed
  in the SRAM arrays (§5.2 delayed release, §5.3 fused in-/near-memory);
* huge iteration domains over small arrays are refused before evaluation;
* ``--check`` of an empty-domain region in near/core mode;
* aliased host arguments at run time.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from infs import api
from infs.runtime.driver import RunOptions, run_program
from infs.runtime.host import run_function
from infs.tools import infs_run

S = "!stream.stream<f32>"
M1 = "memref<?xf32>"


def _a7(write_map: str) -> str:
    """``A[i] += A[i]`` through one load and a ``stream.atomic add`` (the fuzz case A7)."""
    return (
        f"func.func @f(%A: {M1}, %n: index) {{\n"
        f"  stream.region ins(%A : {M1}) syms(N = %n : index) domain [0:N] iterators [parallel] {{\n"
        f"  ^bb0(%a: {M1}, %N: index):\n"
        f"    %c = stream.load %a[d0] : {M1} -> {S}\n"
        f"    stream.atomic add %c -> %a[{write_map}] : {S} -> {M1}\n"
        f"    stream.yield\n  }}\n  func.return\n}}\n"
    )


def _run_vs_reference(text: str, args: dict, mode: str, config: str = "small-16"):
    module = api.parse_text(text)
    ref = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in args.items()}
    want = run_function(module, ref)
    report = run_program(module, args, None, RunOptions(config=config, mode=mode))
    for k, v in args.items():
        if isinstance(v, np.ndarray):
            np.testing.assert_array_equal(v, ref[k], err_msg=f"{mode}: array {k}")
    assert [np.asarray(r).item() for r in report.results] == [np.asarray(r).item() for r in want]
    return report


# ---------------------------------------------------------------------------
# 1. near_store into an array held transposed (was lost: no release wrote it back)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ("in", "near", "core"))
@pytest.mark.parametrize("write_map", ("d0", "d0 + N"))
def test_atomic_into_an_array_held_in_sram_reaches_the_host(write_map, mode):
    A = np.random.default_rng(0).uniform(-1, 1, 19).astype(np.float32)
    report = _run_vs_reference(_a7(write_map), {"A": A, "n": 6}, mode)
    assert {r.mode for r in report.regions} == {mode}


def test_atomic_into_an_array_held_in_sram_infs_run_check(capsys, tmp_path):
    for i, write_map in enumerate(("d0", "d0 + N")):
        path = tmp_path / f"a7_{i}.mlir"
        path.write_text(_a7(write_map))
        rc = infs_run.main([str(path), "--sizes", "n=6", "--shape", "A=19", "--mode", "in", "--check", "--config", "small-16"])
        out = capsys.readouterr().out
        assert rc == 0 and "check: outputs match the stream reference" in out, out


def _two(body: str) -> str:
    return (
        f"func.func @f(%A: {M1}, %B: {M1}, %n: index) {{\n"
        f"  stream.region ins(%A, %B : {M1}, {M1}) syms(N = %n : index) domain [0:N] iterators [parallel] {{\n"
        f"  ^bb0(%a: {M1}, %b: {M1}, %N: index):\n    %l0 = stream.load %a[d0] : {M1} -> {S}\n{body}    stream.yield\n  }}\n  func.return\n}}\n"
    )


# Found by the property below: the lowering wrote the stream engines' cells
# (near_store) into an array's registers before the graph's stores, which
# read those registers (the tensor of %a) or then overwrote the atomic's cells.
ORDER = {
    # B = A; A += A: the copy into B read A after the atomic
    "atomic_then_copy_of_its_array": _two(f"    stream.atomic add %l0 -> %a[d0] : {S} -> {M1}\n    stream.store %l0 -> %b[d0] : {S} -> {M1}\n"),
    # B = A; B += A: the store landed after the atomic and erased it
    "store_then_atomic_same_cells": _two(f"    stream.store %l0 -> %b[d0] : {S} -> {M1}\n    stream.atomic add %l0 -> %b[d0] : {S} -> {M1}\n"),
}


@pytest.mark.parametrize("mode", ("in", "near", "core"))
@pytest.mark.parametrize("name", sorted(ORDER))
def test_near_stores_land_after_the_graphs_stores(name, mode):
    A = np.arange(1, 15, dtype=np.float32)
    report = _run_vs_reference(ORDER[name], {"A": A, "B": np.zeros(14, np.float32), "n": 4}, mode)
    assert {r.mode for r in report.regions} == {mode}


@st.composite
def mixed_programs(draw):
    """One or two regions over 1-D arrays %A, %B (and an index array %I) that
    read arrays as tensors and write them with tensor stores and near-memory
    stores/atomics (affine, constant-cell or indirect), often into the very
    arrays they read -- the arrays the in-memory path holds transposed."""
    mt, it = M1, "memref<?xi32>"
    regions = []
    for r in range(draw(st.integers(1, 2))):
        lo = draw(st.integers(0, 2))
        lines = []
        loads = []
        for j in range(draw(st.integers(1, 2))):
            arr = draw(st.sampled_from(["a", "b"]))
            off = draw(st.integers(0, 3))
            lines.append(f"    %l{j} = stream.load %{arr}[d0 + {off}] : {mt} -> {S}\n")
            loads.append(f"l{j}")
        v = loads[0]
        if len(loads) > 1 or draw(st.booleans()):
            op = draw(st.sampled_from(["addf", "mulf", "subf"]))
            lines.append(
                f"    %v = stream.compute(%{loads[0]}, %{loads[-1]} : {S}, {S}) -> {S} {{\n    ^bb1(%x: f32, %y: f32):\n"
                f"      %z = arith.{op} %x, %y : f32\n      stream.yield %z : f32\n    }}\n"
            )
            v = "v"
        if draw(st.booleans()):
            lines.append(f"    %j = stream.load %i[d0] : {it} -> !stream.stream<i32>\n")
        atomic = {a: draw(st.sampled_from(["atomic add", "atomic add", "atomic min", "atomic max"])) for a in "ab"}  # one kind per array (the reference's rule)
        for _ in range(draw(st.integers(1, 3))):
            arr = draw(st.sampled_from(["a", "b"]))
            kind = draw(st.sampled_from(["store", atomic[arr]]))
            maps = ["d0", "d0 + 1", "d0 + N", "N + 7 - d0", "2"]
            if any("%j = " in ln for ln in lines):
                maps.append("%j")
            m = draw(st.sampled_from(maps))
            lines.append(f"    stream.{kind} %{v} -> %{arr}[{m}] : {S} -> {mt}\n")
        regions.append(
            f"  stream.region ins(%A, %B, %I : {mt}, {mt}, {it}) syms(N = %n : index) domain [{lo}:N] iterators [parallel] {{\n"
            f"  ^bb0(%a: {mt}, %b: {mt}, %i: {it}, %N: index):\n{''.join(lines)}    stream.yield\n  }}\n"
        )
    text = f"func.func @f(%A: {mt}, %B: {mt}, %I: {it}, %n: index) {{\n{''.join(regions)}  func.return\n}}\n"
    n = draw(st.integers(1, 9))
    seed = draw(st.integers(0, 2**16))
    return text, n, seed


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_programs(), st.sampled_from(["small-16", "tiny"]))
def test_in_memory_tensors_and_near_memory_writes_to_the_same_arrays(case, config):
    text, n, seed = case
    try:
        module = api.parse_text(text)
    except api.InfsError as e:  # a loop-carried dependence: refused everywhere, not this test's subject
        assert "loop-carried dependence" in str(e), str(e)
        assume(False)
    rng = np.random.default_rng(seed)
    size = 2 * n + 12
    args = {
        # small integers: every order of the atomics gives the same f32 values
        "A": rng.integers(-4, 5, size).astype(np.float32),
        "B": rng.integers(-4, 5, size).astype(np.float32),
        "I": rng.integers(0, size, n + 3).astype(np.int32),
        "n": n,
    }
    ref = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in args.items()}
    run_function(module, ref)
    report = run_program(module, args, None, RunOptions(config=config, mode="in"))
    event(f"regions in memory: {sum(r.mode == 'in' for r in report.regions)}/{len(report.regions)}")
    for k in ("A", "B"):
        np.testing.assert_array_equal(args[k], ref[k], err_msg=f"array {k}\n{text}n={n}")


# ---------------------------------------------------------------------------
# 2. C1: a huge iteration domain over small arrays (the evaluator allocated
#    the domain's grids before any check: MemoryError, exit 70)
# ---------------------------------------------------------------------------

WORKLOADS = Path(__file__).resolve().parent.parent / "infs" / "workloads"
HUGE = "99999999999"


def _conv2d_copy(tmp_path: Path) -> Path:
    p = tmp_path / "c.mlir"  # a copy: not the registry's workload, so --shape applies
    p.write_text((WORKLOADS / "conv2d.mlir").read_text())
    return p


def _bcast_sum(tmp_path: Path) -> Path:
    """A sum of x[0] over [0:N]: every access stays inside its one-cell array, however large N."""
    p = tmp_path / "bcast_sum.mlir"
    p.write_text(
        f"func.func @f(%X: {M1}, %n: index) -> f32 {{\n"
        f"  %r = stream.region ins(%X : {M1}) syms(N = %n : index) domain [0:N] iterators [reduction] -> f32 {{\n"
        f"  ^bb0(%x: {M1}, %N: index):\n"
        f"    %l = stream.load %x[0] : {M1} -> {S}\n"
        f"    %s = stream.reduce add %l over [0] : {S} -> f32\n"
        f"    stream.yield %s : f32\n  }}\n  func.return %r : f32\n}}\n"
    )
    return p


HUGE_DOMAIN = re.escape(f"its iteration domain [0:{HUGE}] has {int(HUGE):,} points")


def _conv2d_args(h: str, *extra: str) -> list[str]:
    return ["--config", "paper-64", "--sizes", f"h={h},w={HUGE}", "--shape", "I=13x13", "--shape", "K=5x3", "--shape", "O=3x3", *extra]


@pytest.mark.parametrize("mode", ("auto", "in", "near", "core", "all"))
def test_empty_domain_with_a_huge_dim_runs_and_checks(mode, tmp_path, capsys):
    """h=1: the domain [1:0, 1:W - 1] has no point, however large W is."""
    rc = infs_run.main([str(_conv2d_copy(tmp_path)), "--mode", mode, *_conv2d_args("1", "--check")])
    cap = capsys.readouterr()
    assert rc == 0, cap.err
    assert "check: outputs match the stream reference" in cap.out and "internal error" not in cap.err


@pytest.mark.parametrize("mode", ("auto", "in", "near", "core", "all"))
def test_huge_domain_is_one_line_naming_the_region(mode, tmp_path, capsys):
    rc = infs_run.main([str(_bcast_sum(tmp_path)), "--mode", mode, "--config", "paper-64", "--sizes", f"n={HUGE}", "--shape", "X=1", "--check"])
    err = capsys.readouterr().err
    assert rc == 1, err
    assert len(err.strip().splitlines()) == 1, err
    assert re.search(r"'stream.region' at line 2\)?: " + HUGE_DOMAIN, err), err
    assert "of host memory" in err and "internal error" not in err


@pytest.mark.parametrize("mode", ("near", "core"))
def test_huge_domain_through_the_api_names_the_region_number(mode, tmp_path):
    from infs.runtime.scalar_ops import EvaluationError

    module = api.parse_file(_bcast_sum(tmp_path))
    args = {"X": np.zeros(1, np.float32), "n": int(HUGE)}
    with pytest.raises(EvaluationError, match=r"^region 0 \('stream.region' at line 2\): " + HUGE_DOMAIN):
        run_program(module, args, None, RunOptions(config="paper-64", mode=mode))


@pytest.mark.parametrize("mode", ("in", "near"))
def test_huge_domain_in_analysis_allocates_nothing(mode, tmp_path, capsys):
    """--analysis computes no values: nothing of the domain is allocated, so it runs."""
    rc = infs_run.main([str(_bcast_sum(tmp_path)), "--mode", mode, "--config", "paper-64", "--sizes", f"n={HUGE}", "--shape", "X=1", "--analysis", "--json"])
    cap = capsys.readouterr()
    assert rc == 0, cap.err


def test_empty_domain_reduction_over_a_huge_dim():
    """A reduction over an empty dim still stores its identity at every kept
    point: those points are the work (refused when huge, exact when small)."""
    from infs.runtime.scalar_ops import EvaluationError

    text = (
        f"func.func @f(%A: memref<?x?xf32>, %Y: {M1}, %m: index, %w: index) {{\n"
        f"  stream.region ins(%A, %Y : memref<?x?xf32>, {M1}) syms(M = %m : index, W = %w : index) domain [0:M, 0:W] iterators [reduction, parallel] {{\n"
        f"  ^bb0(%a: memref<?x?xf32>, %y: {M1}, %M: index, %W: index):\n"
        f"    %c = stream.load %a[d0, d1] : memref<?x?xf32> -> {S}\n"
        f"    %r = stream.reduce add %c over [0] : {S} -> {S}\n"
        f"    stream.store %r -> %y[d1] : {S} -> {M1}\n"
        f"    stream.yield\n  }}\n  func.return\n}}\n"
    )
    module = api.parse_text(text)
    Y = np.full(6, 7.0, np.float32)
    run_function(module, {"A": np.zeros((1, 6), np.float32), "Y": Y, "m": 0, "w": 4})
    np.testing.assert_array_equal(Y, [0, 0, 0, 0, 7, 7])
    with pytest.raises(EvaluationError, match=r"its iteration domain \[0:0, 0:99999999999\] has 99,999,999,999 points"):
        run_function(module, {"A": np.zeros((1, 6), np.float32), "Y": Y, "m": 0, "w": int(HUGE)})


# ---------------------------------------------------------------------------
# 3. F3: --check of an empty-domain region in near/core mode
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "mode,argv",
    [
        ("near", ["--config", "small-16", "--sizes", "ci=1,co=16,h=2,w=1", "--shape", "I=13x13x3", "--shape", "K=3x2x5", "--shape", "O=64x8x8"]),
        ("core", ["--config", "small-16", "--sizes", "ci=1,co=16,h=2,w=1", "--shape", "I=13x13x3", "--shape", "K=3x2x5", "--shape", "O=64x8x8"]),
        ("all", ["--config", "cal-64", "--sizes", "ci=4,co=4,h=16,w=1", "--shape", "I=5x13x1", "--shape", "K=33x3x17", "--shape", "O=5x16x17"]),
    ],
)
def test_empty_domain_checks_trivially_near_and_on_the_cores(mode, argv, tmp_path, capsys):
    p = tmp_path / "conv3d_copy.mlir"
    p.write_text((WORKLOADS / "conv3d.mlir").read_text())
    rc = infs_run.main([str(p), "--mode", mode, *argv, "--check"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "check FAILED" not in out
    assert "region 1 ran near over an empty iteration domain: nothing to cross-check" in out or "region 1 ran core over an empty" in out


# ---------------------------------------------------------------------------
# 4. Aliased host arguments: two distinct operands bound to one array (or to
#    overlapping views) at run time, one of them written
# ---------------------------------------------------------------------------

ALIAS = (
    f"func.func @f(%A: {M1}, %B: {M1}, %n: index) {{\n"
    f"  stream.region ins(%A, %B : {M1}, {M1}) syms(N = %n : index) domain [0:N] iterators [parallel] {{\n"
    f"  ^bb0(%a: {M1}, %b: {M1}, %N: index):\n"
    f"    %x = stream.load %a[d0 + 1] : {M1} -> {S}\n"
    f"    stream.store %x -> %b[d0] : {S} -> {M1}\n"
    f"    stream.yield\n  }}\n  func.return\n}}\n"
)
ALIAS_ERR = r"\Aregion 0 \('stream.region' at line 2\): its array operands %A and %B share memory at run time \(aliased host arguments\) and it writes %B: pass distinct arrays\n"


@pytest.mark.parametrize("analysis", (False, True))
@pytest.mark.parametrize("mode", ("auto", "in", "near", "core"))
@pytest.mark.parametrize("how", ("same", "view"))
def test_aliased_arguments_are_refused_in_every_mode(mode, how, analysis):
    """A[i] = A[i + 1] through two arguments: the static check sees %A and %B
    as two arrays (no dependence); run with B = A (or a view of A) the result
    depends on the order the machine writes in -- refused everywhere."""
    from infs.runtime.scalar_ops import EvaluationError

    module = api.parse_text(ALIAS)
    A = np.arange(10, dtype=np.float32)
    B = A if how == "same" else A[1:]
    options = RunOptions(config="small-16", mode=mode, machine_mode="analysis" if analysis else "functional")
    with pytest.raises(EvaluationError, match=ALIAS_ERR):
        run_program(module, {"A": A, "B": B, "n": 6}, None, options)
    assert A.tolist() == list(range(10))  # refused before anything ran


def test_aliased_views_are_refused_by_the_reference_and_the_in_memory_api():
    from infs.passes.tensorize import tensorize_module
    from infs.runtime.scalar_ops import EvaluationError

    module = api.parse_text(ALIAS)
    A = np.arange(10, dtype=np.float32)
    with pytest.raises(EvaluationError, match=r"'stream.region' at line 2: its array operands %A and %B share memory"):
        run_function(module, {"A": A, "B": A[2:], "n": 6})
    with pytest.raises(EvaluationError, match=r"region 0 \('tdfg.graph' at line 2\): its array operands %A and %B share memory"):
        run_program(tensorize_module(module), {"A": A, "B": A, "n": 6}, None, RunOptions(config="small-16", mode="in"))
    # the reference itself handles one array bound to both exactly (cell by cell):
    # A[i] = A[i + 1] reads each cell before the iteration that writes it
    run_function(module, {"A": A, "B": A, "n": 6})
    assert A.tolist() == [1, 2, 3, 4, 5, 6, 6, 7, 8, 9]


@pytest.mark.parametrize("mode", ("in", "near", "core"))
def test_distinct_or_read_only_aliases_still_run(mode):
    module = api.parse_text(ALIAS)
    A = np.arange(10, dtype=np.float32)
    B = np.zeros(10, np.float32)
    run_program(module, {"A": A, "B": B, "n": 6}, None, RunOptions(config="small-16", mode=mode))
    assert B[:6].tolist() == [1, 2, 3, 4, 5, 6]
    # two read-only operands bound to one array: nothing is written through them
    text = ALIAS.replace(f"%B: {M1}, %n", f"%B: {M1}, %C: {M1}, %n").replace(f"ins(%A, %B : {M1}, {M1})", f"ins(%A, %B, %C : {M1}, {M1}, {M1})")
    text = text.replace(f"^bb0(%a: {M1}, %b: {M1},", f"^bb0(%a: {M1}, %b: {M1}, %c: {M1},").replace("stream.store %x -> %b[d0]", "stream.store %x -> %c[d0]")
    C = np.zeros(10, np.float32)
    run_program(api.parse_text(text), {"A": A, "B": A, "C": C, "n": 6}, None, RunOptions(config="small-16", mode=mode))
    assert C[:6].tolist() == [1, 2, 3, 4, 5, 6]


# ---------------------------------------------------------------------------
# 5. an access outside its array is an error in every mode (in memory, the
#    lattice silently dropped the cells while near/core refused)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ("in", "near", "core", "auto"))
@pytest.mark.parametrize("analysis", (False, True))
def test_out_of_bounds_store_is_one_error_in_every_mode(mode, analysis, tmp_path, capsys):
    path = _conv2d_copy(tmp_path)
    argv = [str(path), "--mode", mode, "--config", "paper-64", "--sizes", "h=4,w=10", "--shape", "I=13x13", "--shape", "K=5x3", "--shape", "O=3x3"]
    rc = infs_run.main(argv + (["--analysis"] if analysis else []))
    err = capsys.readouterr().err.strip().splitlines()
    assert rc not in (0, 70) and len(err) == 1, err
    line = 1 + next(i for i, ln in enumerate(path.read_text().splitlines()) if "stream.store" in ln)  # the access's line, not the region's
    assert f"'stream.store' at line {line} accesses index 8 in dim 1 of an array of shape [3, 3]" in err[0]
    assert err[0].startswith(f"infs-run: {path}: error: "), err  # the file the lines are in


@settings(max_examples=60, deadline=None)
@given(
    rank=st.integers(1, 2),
    data=st.data(),
)
def test_out_of_bounds_access_is_exact(rank, data):
    """The corner check refuses exactly the affine accesses a point-by-point walk finds outside."""
    from infs.runtime.reference_checks import out_of_bounds_access

    box = [(p, p + data.draw(st.integers(0, 4))) for p in (data.draw(st.integers(0, 3)) for _ in range(rank))]
    perm = data.draw(st.permutations(range(rank)))
    coef = [data.draw(st.sampled_from([1, -1, 2])) for _ in range(rank)]
    off = [data.draw(st.integers(-3, 6)) for _ in range(rank)]
    shape = [data.draw(st.integers(1, 9)) for _ in range(rank)]
    terms = [f"{'' if c == 1 else '-' if c == -1 else f'{c}*'}d{perm[j]}" + (f" + {o}" if o > 0 else f" - {-o}" if o < 0 else "") for j, (c, o) in enumerate(zip(coef, off))]
    mref = "memref<" + "x".join(map(str, shape)) + "xf32>"
    dom = ", ".join(f"{p}:{q}" for p, q in box)
    text = (
        f"func.func @f(%A: {mref}) {{\n"
        f"  stream.region ins(%A : {mref}) domain [{dom}] iterators [{', '.join(['parallel'] * rank)}] {{\n"
        f"  ^bb0(%a: {mref}):\n"
        f"    %c = stream.load %a[{', '.join(terms)}] : {mref} -> {S}\n"
        f"    stream.yield\n  }}\n  func.return\n}}\n"
    )
    region = next(op for op in api.parse_text(text).walk() if op.name == "stream.region")
    points = np.stack(np.meshgrid(*[np.arange(p, q) for p, q in box], indexing="ij"), -1).reshape(-1, rank)
    idx = np.stack([coef[j] * points[:, perm[j]] + off[j] for j in range(rank)], -1) if len(points) else np.zeros((0, rank), int)
    outside = bool(((idx < 0) | (idx >= np.array(shape))).any())
    assert (out_of_bounds_access(region, [shape], []) is not None) == outside
