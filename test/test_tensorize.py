"""The tensorize pass: the paper's graph shapes, differential tests against the
stream reference (every workload, several small sizes), canonicalizations, and
random stream regions (hypothesis)."""

from __future__ import annotations

from collections import Counter

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from infs import api
from xdsl.dialects import scf

from infs.dialects import stream, tdfg
from infs.passes.tensorize import NOT_TENSORIZED
from infs.runtime.host import run_function as run_reference
from infs.runtime.lattice_eval import lattice_executor
from infs.runtime.lattice_eval import run_function as run_lattice
from infs.runtime.scalar_ops import EvaluationError
from infs.workloads import WORKLOADS
from strategies import RegionCase, examples, random_region


def tensorized(text_or_path) -> api.ModuleOp:
    module = api.parse_file(text_or_path) if not isinstance(text_or_path, str) or text_or_path.endswith(".mlir") else api.parse_text(text_or_path)
    api.run_pipeline(module, "tensorize")
    return module


def graphs(module) -> list[tdfg.GraphOp]:
    return [op for op in module.walk() if isinstance(op, tdfg.GraphOp)]


def node_counts(graph: tdfg.GraphOp) -> Counter:
    return Counter(op.name for op in graph.body.block.ops)


def assert_close(got, want, what=""):
    got, want = np.asarray(got), np.asarray(want)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5, err_msg=what)
    else:
        np.testing.assert_array_equal(got, want, err_msg=what)


# ---------------------------------------------------------------------------
# The paper's shapes (Fig. 4)
# ---------------------------------------------------------------------------


def test_stencil1d_is_three_tensors_two_moves_and_compute():
    m = tensorized(str(WORKLOADS["stencil1d"].path))
    gs = graphs(m)
    assert len(gs) == 2 and not [op for op in m.walk() if isinstance(op, stream.RegionOp)]
    for g in gs:
        c = node_counts(g)
        assert c["tdfg.tensor"] == 3
        assert c["tdfg.mv"] == 2
        assert c["tdfg.cmp"] >= 1 and c["tdfg.store"] == 1
        assert c["tdfg.bc"] == 0 and c["tdfg.stream_load"] == 0
        hints = g.hints.data
        assert list(hints["shift"].get_values()) == [0]
        assert list(hints["broadcast"].get_values()) == []
        dists = sorted(str(op.dist.data) for op in g.body.block.ops if isinstance(op, tdfg.MvOp))
        assert dists == ["-1", "1"]


def test_array_sum_reduction_is_split_in_two():
    (g,) = graphs(tensorized(str(WORKLOADS["array_sum"].path)))
    ops = [op for op in g.body.block.ops]
    red = [op for op in ops if isinstance(op, tdfg.ReduceOp)]
    fin = [op for op in ops if isinstance(op, tdfg.StreamReduceOp)]
    assert len(red) == 1 and len(fin) == 1
    assert fin[0].input is red[0].result and red[0].kind.data == fin[0].kind.data == "add"
    assert isinstance(ops[-1], tdfg.YieldOp) and ops[-1].values[0] is fin[0].result
    assert list(g.hints.data["reduce"].get_values()) == [0]


def test_gauss_elim_broadcasts_row_k():
    gs = graphs(tensorized(str(WORKLOADS["gauss_elim"].path)))
    assert len(gs) == 2
    update = gs[1]
    bcs = [op for op in update.body.block.ops if isinstance(op, tdfg.BcOp)]
    assert len(bcs) == 1
    (bc,) = bcs
    src = bc.input.owner
    assert isinstance(src, tdfg.TensorOp) and str(src.domain.data) == "[k:k + 1, k + 1:N]"
    assert bc.dim.value.data == 0 and str(bc.dist.data) == "1" and str(bc.count.data) == "N - k - 1"
    assert list(update.hints.data["broadcast"].get_values()) == [0]
    # m[i] runs down the rows while the rank-1 m sits along lattice dim 1: an embedded stream
    assert node_counts(update)["tdfg.stream_load"] == 1


def test_mm_outer_broadcasts_both_operands():
    gs = graphs(tensorized(str(WORKLOADS["mm_outer"].path)))
    acc = gs[1]
    dims = sorted(op.dim.value.data for op in acc.body.block.ops if isinstance(op, tdfg.BcOp))
    assert dims == [0, 1]


def test_indirect_streams_stay_embedded():
    m = tensorized(str(WORKLOADS["kmeans_outer"].path))
    kinds = [op.kind.data for op in m.walk() if isinstance(op, tdfg.StreamStoreOp)]
    assert "add" in kinds  # the centroid update: a near-memory atomic stream
    loads = [op for op in m.walk() if isinstance(op, tdfg.StreamLoadOp)]
    assert loads or kinds


def test_inner_product_keeps_its_outer_loop_on_the_host():
    """mm_inner's (i, j, k) space has more dims than its rank-2 arrays: i becomes
    a host loop around a rank-2 graph (row i of A broadcast over Bt, reduced along k)."""
    m = tensorized(str(WORKLOADS["mm_inner"].path))
    assert not [op for op in m.walk() if isinstance(op, stream.RegionOp)]
    (g,) = graphs(m)
    assert isinstance(g.parent_op(), scf.ForOp)
    assert g.lattice_rank == 2 and g.names[-1] == "x0"
    c = node_counts(g)
    assert c["tdfg.bc"] == 1 and c["tdfg.reduce"] == 1 and c["tdfg.stream_reduce"] == 1


def test_untensorizable_regions_keep_a_reason():
    m = tensorized(str(WORKLOADS["kmeans_outer"].path))
    reasons = {op.attributes[NOT_TENSORIZED].data for op in m.walk() if isinstance(op, stream.RegionOp)}
    assert any("argmin" in x for x in reasons)


def test_output_verifies_and_round_trips():
    for name in ("stencil2d", "gauss_elim", "kmeans_outer", "dwt2d"):
        m = tensorized(str(WORKLOADS[name].path))
        text = api.to_text(m)
        again = api.parse_text(text)
        assert api.to_text(again) == text
        generic = api.to_text(m, generic=True)
        assert api.to_text(api.parse_text(generic)) == text


# ---------------------------------------------------------------------------
# Differential: tensorize + lattice evaluation == stream reference
# ---------------------------------------------------------------------------


def _scaled(sizes, factor):
    return {k: (v if k == "t" else max(3, int(round(v * factor)))) for k, v in sizes.items()}


def _differential(name, sizes, seed, group_size):
    w = WORKLOADS[name]
    ref_module = api.parse_file(w.path)
    lat_module = api.parse_file(w.path)
    api.run_pipeline(lat_module, "tensorize")
    inputs = w.inputs(sizes, seed)
    ref = {k: v.copy() for k, v in inputs.items()}
    lat = {k: v.copy() for k, v in inputs.items()}
    hyb = {k: v.copy() for k, v in inputs.items()}
    r_ref = run_reference(ref_module, w.call_args(ref, sizes), w.entry)
    r_lat = run_lattice(lat_module, w.call_args(lat, sizes), w.entry, group_size=group_size)
    # the same untransformed host function, with the tensorizing region executor
    r_hyb = run_reference(ref_module, w.call_args(hyb, sizes), w.entry, executor=lattice_executor(group_size))
    for k in w.outputs:
        assert_close(lat[k], ref[k], f"{name} {sizes}: array {k} (tensorized module)")
        assert_close(hyb[k], ref[k], f"{name} {sizes}: array {k} (lattice executor)")
    for a, b, c in zip(r_lat, r_hyb, r_ref):
        assert_close(a, c, f"{name}: result")
        assert_close(b, c, f"{name}: result")
    return lat_module


@pytest.mark.parametrize("name", sorted(WORKLOADS))
@pytest.mark.parametrize("factor,group", [(0.5, None), (1.0, 4), (1.5, 3)])
def test_workload_differential(name, factor, group):
    sizes = _scaled(WORKLOADS[name].sizes("small"), factor)
    m = _differential(name, sizes, seed=int(factor * 10), group_size=group)
    assert graphs(m), f"{name}: nothing tensorized"


# ---------------------------------------------------------------------------
# Canonicalization
# ---------------------------------------------------------------------------

T1 = "!tdfg.tensor<f32, 1>"
CANON = f"""
func.func @f(%A: memref<?xf32>, %n: index) {{
  tdfg.graph ins(%A : memref<?xf32>) syms(N = %n : index) rank 1 hints {{shift = array<i64: 0>}} {{
  ^bb0(%a: memref<?xf32>, %N: index):
    %t = tdfg.tensor %a [0:N - 2] : memref<?xf32> -> {T1}
    %m1 = tdfg.mv %t dim 0 dist 1 : {T1}
    %m2 = tdfg.mv %m1 dim 0 dist 1 : {T1}
    %m3 = tdfg.mv %m2 dim 0 dist -2 : {T1}
    %c2 = tdfg.const 2.0 : {T1}
    %c3 = tdfg.const 3.0 : {T1}
    %c3b = tdfg.const 3.0 : {T1}
    %s = tdfg.cmp mul(%c2, %c3) : {T1}, {T1} -> {T1}
    %u = tdfg.cmp add(%s, %c3b) : {T1}, {T1} -> {T1}
    %r = tdfg.cmp mul(%m3, %u) : {T1}, {T1} -> {T1}
    %b = tdfg.bc %r dim 0 dist 0 count 1 : {T1}
    tdfg.store %b -> %a : {T1} -> memref<?xf32>
    tdfg.yield
  }}
  func.return
}}
"""


def test_canonicalize_merges_moves_folds_constants():
    m = api.parse_text(CANON)
    a0 = np.arange(6, dtype=np.float32)
    a1 = a0.copy()
    run_lattice(m, [a0, 6])
    api.run_pipeline(m, "canonicalize-tdfg")
    (g,) = graphs(m)
    c = node_counts(g)
    assert c["tdfg.mv"] == 0 and c["tdfg.bc"] == 0  # +1 +1 -2 = 0 and bc count 1 = mv 0
    consts = [op for op in g.body.block.ops if isinstance(op, tdfg.ConstOp)]
    assert len(consts) == 1 and consts[0].value.value.data == 9.0
    assert c["tdfg.cmp"] == 1
    assert list(g.hints.data["shift"].get_values()) == []
    run_lattice(m, [a1, 6])
    np.testing.assert_array_equal(a0, a1)


def test_canonicalize_keeps_symbolic_moves_merged():
    text = CANON.replace("dist -2", "dist N")
    m = api.parse_text(text)
    api.run_pipeline(m, "canonicalize-tdfg")
    (g,) = graphs(m)
    (mv,) = [op for op in g.body.block.ops if isinstance(op, tdfg.MvOp)]
    assert str(mv.dist.data) == "N + 2"


def test_integer_division_by_zero_is_not_folded():
    text = f"""
func.func @f(%A: memref<?xi32>) {{
  tdfg.graph ins(%A : memref<?xi32>) syms() rank 1 {{
  ^bb0(%a: memref<?xi32>):
    %x = tdfg.const 1 : !tdfg.tensor<i32, 1>
    %z = tdfg.const 0 : !tdfg.tensor<i32, 1>
    %q = tdfg.cmp div(%x, %z) : !tdfg.tensor<i32, 1>, !tdfg.tensor<i32, 1> -> !tdfg.tensor<i32, 1>
    %t = tdfg.tensor %a [0:2] : memref<?xi32> -> !tdfg.tensor<i32, 1>
    %r = tdfg.cmp add(%t, %q) : !tdfg.tensor<i32, 1>, !tdfg.tensor<i32, 1> -> !tdfg.tensor<i32, 1>
    tdfg.store %r -> %a : !tdfg.tensor<i32, 1> -> memref<?xi32>
    tdfg.yield
  }}
  func.return
}}
"""
    m = api.parse_text(text)
    api.run_pipeline(m, "canonicalize-tdfg")
    (g,) = graphs(m)
    assert node_counts(g)["tdfg.cmp"] == 2


# ---------------------------------------------------------------------------
# Random stream regions (hypothesis)
# ---------------------------------------------------------------------------

def _memref(rank: int, t: str) -> str:
    return "memref<" + "x".join(["?"] * rank) + f"x{t}>"


def _reference_and_tensorized(text: str):
    """The program twice: as written, and tensorized (every region must tensorize)."""
    ref_module = api.parse_text(text)
    lat_module = api.parse_text(text)
    api.run_pipeline(lat_module, "tensorize")
    reasons = [op.attributes[NOT_TENSORIZED].data for op in lat_module.walk() if isinstance(op, stream.RegionOp)]
    assert not reasons, f"{reasons}\n{text}"
    return ref_module, lat_module


def _assert_arrays_agree(text: str, lat_args, ref_args, exe_args) -> None:
    """The lattice run and the lattice-executor run left the reference's arrays."""
    for a, b, c in zip(lat_args, ref_args, exe_args):
        if isinstance(a, np.ndarray):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg=text)
            np.testing.assert_allclose(c, b, rtol=1e-5, atol=1e-6, err_msg=text)


def check_tensorized_region(case: RegionCase, group: int | None) -> str:
    """tensorize + lattice evaluation (the tensorized module, and the lattice
    executor under the untransformed host function) == the stream reference.

    The outcome: 'tensorized', 'stream: <reason>' (the region was left as a
    stream, which must say why), 'rejected' (the verifier rejects the
    program, for every path at once), or 'both-refuse' (the reference rejects the
    region, e.g. a loop-carried dependence, and so does the tensorized path)."""
    text = case.text
    try:
        ref_module = api.parse_text(text)
    except api.InfsError as e:  # rejected by a verifier (a loop-carried dependence): one line
        assert "\n" not in str(e), str(e)
        return "rejected"
    lat_module = api.parse_text(text)
    api.run_pipeline(lat_module, "tensorize")
    reasons = [op.attributes[NOT_TENSORIZED].data for op in lat_module.walk() if isinstance(op, stream.RegionOp)]
    for r in reasons:
        assert r.strip(), f"a region left as a stream must say why\n{text}"
    ref_args, lat_args, exe_args = case.call_args(), case.call_args(), case.call_args()
    try:
        r_ref = run_reference(ref_module, ref_args, "f")
    except EvaluationError as e:
        # the reference refuses (a loop-carried dependence): the tensorized
        # module must refuse too, never compute from the arrays at entry
        for what, run in (("tensorized module", lambda: run_lattice(lat_module, lat_args, "f", group_size=group)),
                          ("lattice executor", lambda: run_reference(ref_module, exe_args, "f", executor=lattice_executor(group)))):  # fmt: skip
            try:
                run()
            except EvaluationError:
                continue
            raise AssertionError(f"the reference refuses ({e}) but the {what} gave values\n{text}") from None
        return "both-refuse"
    r_lat = run_lattice(lat_module, lat_args, "f", group_size=group)
    r_exe = run_reference(ref_module, exe_args, "f", executor=lattice_executor(group))
    _assert_arrays_agree(case.describe(), lat_args, ref_args, exe_args)
    for a, b, c in zip(r_lat, r_ref, r_exe):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6, err_msg=case.describe())
        np.testing.assert_allclose(c, b, rtol=1e-5, atol=1e-6, err_msg=case.describe())
    return f"stream: {reasons[0]}" if reasons else "tensorized"


RANDOM_REGION_EXAMPLES = examples(80, "INFS_REGION_EXAMPLES")


def test_random_regions_match_the_stream_reference():
    """Random regions (``strategies.random_region``: every reduction subset,
    permuted maps, tight shapes, odd sizes, mixed ranks, i8..f32, in-place)."""
    outcomes: Counter = Counter()

    @settings(max_examples=RANDOM_REGION_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(random_region(), st.sampled_from([None, 1, 2, 3]))
    def run(case, group):
        note(case.describe())
        outcomes[check_tensorized_region(case, group).split(" (")[0]] += 1

    run()
    print(f"random regions: {dict(outcomes)}")
    # not vacuous: most regions really tensorize
    assert outcomes["tensorized"] >= RANDOM_REGION_EXAMPLES // 2, outcomes


@st.composite
def random_wide_region(draw):
    """A region whose iteration space has one dim more than its arrays: the
    outer (parallel) dim becomes a host loop around the graph."""
    n = draw(st.integers(2, 3))
    fp = draw(st.booleans())
    T = "f32" if fp else "i32"
    ext = [draw(st.integers(1, 4)) for _ in range(n)]
    lo = [draw(st.integers(0, 1)) for _ in range(n)]
    side = max(ext) + 2
    k = draw(st.integers(0, side - 1))
    reduce_last = n == 3 and draw(st.booleans())
    iterators = ["parallel"] * n
    if reduce_last:
        iterators[-1] = "reduction"

    def off_expr(j: int) -> str:
        off = draw(st.integers(-lo[j], 2 - lo[j]))
        return f"d{j}" if off == 0 else (f"d{j} + {off}" if off > 0 else f"d{j} - {-off}")

    def some_dims() -> list[int]:
        return sorted(draw(st.permutations(range(n)))[: n - 1])

    mt = _memref(n - 1, T)
    body = []
    n_loads = draw(st.integers(1, 3))
    for i in range(n_loads):
        idx = [off_expr(j) for j in some_dims()]
        if draw(st.booleans()):
            idx[draw(st.integers(0, n - 2))] = draw(st.sampled_from(["k", "0"]))
        body.append(f"%l{i} = stream.load %x[{', '.join(idx)}] : {mt} -> !stream.stream<{T}>")
    ops = ["arith.addf", "arith.mulf", "arith.maximumf"] if fp else ["arith.addi", "arith.muli", "arith.maxsi"]
    lines, acc = [], "%a0"
    for i in range(1, n_loads + 1):
        lines.append(f"%v{i} = {draw(st.sampled_from(ops))} {acc}, %a{i} : {T}")
        acc = f"%v{i}"
    ins = ", ".join([f"%l{i}" for i in range(n_loads)] + ["%alpha"])
    tys = ", ".join([f"!stream.stream<{T}>"] * n_loads + [T])
    args = ", ".join(f"%a{i}: {T}" for i in range(n_loads + 1))
    body.append(f"%s = stream.compute({ins} : {tys}) -> !stream.stream<{T}> {{\n  ^bb1({args}):\n    " + "\n    ".join(lines) + f"\n    stream.yield {acc} : {T}\n  }}")
    if reduce_last:
        kind = draw(st.sampled_from(["add", "max", "min"]))
        body.append(f"%r = stream.reduce {kind} %s over [{n - 1}] : !stream.stream<{T}> -> !stream.stream<{T}>")
        body.append(f"stream.store %r -> %z[{', '.join(off_expr(j) for j in range(n - 1))}] : !stream.stream<{T}> -> {mt}")
    elif draw(st.booleans()):
        body.append(f"stream.store %s -> %z[{', '.join(off_expr(j) for j in some_dims())}] : !stream.stream<{T}> -> {mt}")
    else:
        body.append(f"stream.atomic {draw(st.sampled_from(['add', 'min', 'max']))} %s -> %z[{', '.join(off_expr(j) for j in some_dims())}] : !stream.stream<{T}> -> {mt}")
    body.append("stream.yield")
    syms = [f"N{j}" for j in range(n)] + ["k"]
    domain = ", ".join(f"{lo[j]}:N{j} + {lo[j]}" if lo[j] else f"0:N{j}" for j in range(n))
    text = (
        f"func.func @f(%X: {mt}, %Z: {mt}, {', '.join(f'%s{s}: index' for s in syms)}, %salpha: {T}) {{\n"
        f"  stream.region ins(%X, %Z : {mt}, {mt}) syms({', '.join(f'{s} = %s{s} : index' for s in syms)}, alpha = %salpha : {T}) "
        f"domain [{domain}] iterators [{', '.join(iterators)}] {{\n"
        f"  ^bb0(%x: {mt}, %z: {mt}, {', '.join(f'%{s}: index' for s in syms)}, %alpha: {T}):\n    " + "\n    ".join(body) + "\n  }\n  func.return\n}\n"
    )
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    dt = np.float32 if fp else np.int32
    arrays = [rng.integers(-4, 5, [side] * (n - 1)).astype(dt) for _ in range(2)]
    return text, arrays + ext + [k, dt(draw(st.integers(-3, 3)))]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(random_wide_region(), st.sampled_from([None, 2]))
def test_random_wide_regions_use_host_loops(case, group):
    text, args = case
    ref_module, lat_module = _reference_and_tensorized(text)
    (g,) = graphs(lat_module)
    assert isinstance(g.parent_op(), scf.ForOp)
    ref_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    lat_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    exe_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    run_reference(ref_module, ref_args, "f")
    run_lattice(lat_module, lat_args, "f", group_size=group)
    run_reference(ref_module, exe_args, "f", executor=lattice_executor(group))
    _assert_arrays_agree(text, lat_args, ref_args, exe_args)


@pytest.mark.parametrize("idx", ["d0", "2*d0", "0"])
def test_stores_through_one_map_keep_program_order(idx):
    text = f"""
func.func @f(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {{
  stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {{
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index):
    %x = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %y = stream.compute(%x : !stream.stream<f32>) -> !stream.stream<f32> {{
    ^bb1(%v: f32):
      %t = arith.addf %v, %v : f32
      stream.yield %t : f32
    }}
    stream.store %y -> %b[{idx}] : !stream.stream<f32> -> memref<?xf32>
    stream.store %x -> %b[{idx}] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }}
  func.return
}}
"""
    ref_m, lat_m = api.parse_text(text), api.parse_text(text)
    api.run_pipeline(lat_m, "tensorize")
    assert graphs(lat_m)
    a = np.arange(1, 6, dtype=np.float32)
    b_ref, b_lat = np.zeros(10, np.float32), np.zeros(10, np.float32)
    run_reference(ref_m, [a, b_ref, 5], "f")
    run_lattice(lat_m, [a, b_lat, 5], "f")
    np.testing.assert_array_equal(b_lat, b_ref)
