"""The near-stream computing workloads (HPCA'22 Table VI, ``infs.workloads.nsc``):
each program run through infs at small sizes against its numpy reference; what
extract-streams finds in each today (the exact remarks, the exact one-line error
when nothing is offloaded); the references against independent brute-force
methods (plain Python loops, a queue BFS, Dijkstra, a dense power iteration, a
tree walk); the Kronecker generator's graphs; ``infs-run nsc/<name>``."""

from __future__ import annotations

import heapq
import os
from collections import deque

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infs import api
from infs.passes.extract_streams import extract_streams
from infs.tools import infs_run
from infs.workloads import nsc

NAMES = [w.removeprefix("nsc/") for w in nsc.WORKLOADS]
MACHINE = "small-16"
F32_TOL = {"rtol": 1e-4, "atol": 1e-5}

# ---------------------------------------------------------------------------
# the registry
# ---------------------------------------------------------------------------


def test_the_fourteen_workloads_of_table_vi() -> None:
    assert NAMES == ["pathfinder", "srad", "hotspot", "hotspot3D", "histogram", "scluster", "svm",
                     "bfs_push", "pr_push", "sssp", "bfs_pull", "pr_pull", "bin_tree", "hash_join"]  # fmt: skip
    assert sorted(p.stem for p in nsc.WORKLOADS["nsc/srad"].path.parent.glob("*.mlir")) == sorted(NAMES)
    assert sorted(nsc.STREAM_KINDS) == sorted(NAMES)
    assert nsc.get("pr_pull") is nsc.get("nsc/pr_pull")
    with pytest.raises(KeyError, match="unknown NSC workload 'pr'"):
        nsc.get("pr")


@pytest.mark.parametrize("name", NAMES)
def test_program_matches_its_registry_entry(name: str) -> None:
    """One public function named as the workload, taking the registry's arguments in
    order; make_inputs gives exactly its arrays, each of its memref's rank and element
    type; plain loops only (no region written by hand); the header names its streams."""
    w = nsc.get(name)
    text = w.text()
    assert "stream.region" not in text and "tdfg." not in text
    assert "// Streams (NSC Table II):" in text
    module = api.parse_file(w.path)
    (fn,) = [op for op in module.walk() if op.name == "func.func"]
    assert fn.sym_name.data == w.entry == name
    params = [a.name_hint for a in fn.body.block.args]
    assert tuple(params) == w.args
    x = w.inputs("small", seed=0)
    arrays = [a for a in fn.body.block.args if a.type.name == "memref"]
    assert sorted(x) == sorted(a.name_hint for a in arrays)
    width = {"f32": np.float32, "i32": np.int32, "i64": np.int64}
    for a in arrays:
        assert x[a.name_hint].ndim == a.type.get_num_dims(), a.name_hint
        assert x[a.name_hint].dtype == width[str(a.type.element_type)], a.name_hint
    assert set(w.outputs) <= set(x)
    assert set(w.small) >= {p for p in params if p not in x}
    assert set(w.paper) == set(w.small)


def test_programs_parse_and_verify_in_upstream_mlir() -> None:
    """As cgeist's output would: upstream MLIR (the ``[mlir]`` extra's bindings,
    docs/upstream-mlir.md) reads and verifies every program as written."""
    try:
        from iree.compiler import ir
    except ImportError:
        if os.environ.get("CI", "").lower() == "true":
            raise
        pytest.skip("upstream MLIR's Python bindings are not installed (pip install -e '.[mlir]')")
    for name in NAMES:
        with ir.Context():
            module = ir.Module.parse(nsc.get(name).text())
            assert module.operation.verify(), name


def test_inputs_are_deterministic_per_seed() -> None:
    for name in ("pathfinder", "bfs_push", "bin_tree", "hash_join", "scluster"):
        w = nsc.get(name)
        a, b, c = w.inputs(seed=4), w.inputs(seed=4), w.inputs(seed=5)
        assert all(np.array_equal(a[k], b[k]) for k in a)
        assert any(not np.array_equal(a[k], c[k]) for k in a)


def test_references_leave_their_inputs_alone() -> None:
    for name in NAMES:
        w = nsc.get(name)
        x = w.inputs(seed=1)
        before = {k: v.copy() for k, v in x.items()}
        w.reference(x, w.small)
        assert all(np.array_equal(before[k], x[k]) for k in x), name


# ---------------------------------------------------------------------------
# through infs, against the references
# ---------------------------------------------------------------------------


def _run(name: str, mode: str, seed: int = 0, sizes=None, **options):
    w = nsc.get(name)
    sz = w.sizes(sizes or "small")
    x = w.inputs(sz, seed)
    args = {k: v for k, v in {**x, **sz}.items() if k in w.args}
    return w, x, sz, api.run(w.path, args, config=MACHINE, mode=mode, **options)


def _same(w, got, want) -> None:
    for o in w.outputs:
        if np.issubdtype(want[o].dtype, np.floating):
            np.testing.assert_allclose(got[o], want[o], **F32_TOL, err_msg=f"{w.name}: {o}")
        else:
            np.testing.assert_array_equal(got[o], want[o], err_msg=f"{w.name}: {o}")


# What extract-streams finds today (the remarks, line:col: text); the workloads
# it offloads nothing of run on the host and say so (strict_offload: an error).
PARTIAL = {
    "pathfinder": [
        "22:5: remark: extract-streams: loop split at its first and last iterations: its body tests the index against them (a border clamp), constant in each piece",
        "48:5: remark: extract-streams: loop split at its first and last iterations: its body tests the index against them (a border clamp), constant in each piece",
        "15:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [parallel]",
        "19:3: remark: extract-streams: loop nest not extracted as a whole: its body holds 6 loops and 2 other ops (not perfectly nested); its inner loop nests are tried on their own (not distributed: %A, written by one statement and accessed by another, is shared between iterations of the loop at line 19)",
        "22:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:1] iterators [parallel]",
        "22:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [1:n - 1] iterators [parallel]",
        "22:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [n - 1:n] iterators [parallel]",
        "48:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:1] iterators [parallel]",
        "48:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [1:n - 1] iterators [parallel]",
        "48:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [n - 1:n] iterators [parallel]",
        "19:3: remark: extract-streams: loop nest not extracted as a whole: its body holds 2 loops and 2 other ops (not perfectly nested); its inner loop nests are tried on their own (not distributed: %A, written by one statement and accessed by another, is shared between iterations of the loop at line 19)",
        "22:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [parallel]",
        "48:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [parallel]",
    ],
    "srad": [
        "23:3: remark: extract-streams: loop nest not extracted as a whole: its body holds 3 loops and 7 other ops (not perfectly nested); its inner loop nests are tried on their own (not distributed: %J, written by one statement and accessed by another, is shared between iterations of the loop at line 23)",
        "24:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:rows, 0:cols] iterators [reduction, reduction]",
        "41:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:rows, 0:cols] iterators [parallel, parallel]",
        "100:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:rows, 0:cols] iterators [parallel, parallel]",
    ],
    "scluster": [
        "18:3: remark: extract-streams: loop nest not extracted: the body of the innermost loop holds another 'affine.for' (not perfectly nested)",
        "22:5: remark: extract-streams: loop nest not extracted: the body of the innermost loop holds another 'affine.for' (not perfectly nested)",
        "23:7: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:d] iterators [reduction]",
    ],
    "svm": [
        "20:3: remark: extract-streams: loop nest not extracted as a whole: its body holds 3 loops and 0 other ops (not perfectly nested); its inner loop nests are tried on their own (not distributed: %G, written by one statement and accessed by another, is shared between iterations of the loop at line 20)",
        "21:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:d] iterators [parallel]",
        "24:5: remark: extract-streams: loop nest not extracted: 'affine.for' in the filter of the 'scf.if' at line 36 (a filter takes loads, arithmetic and stores)",
        "25:7: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:d] iterators [reduction]",
        "37:9: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:d] iterators [parallel]",
        "46:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:d] iterators [parallel]",
    ],
    "pr_push": [
        "19:3: remark: extract-streams: loop nest not extracted as a whole: its body holds 3 loops and 0 other ops (not perfectly nested); its inner loop nests are tried on their own (not distributed: %Sc, written by one statement and accessed by another, is shared between iterations of the loop at line 19)",
        "20:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [parallel]",
        "31:5: remark: extract-streams: loop nest not extracted as a whole: its body holds 1 loop and 5 other ops (not perfectly nested); its inner loop nests are tried on their own (not distributed: its body is one statement)",
        "37:7: remark: extract-streams: loop nest extracted into 1 stream.region: domain [bi:ei] iterators [parallel]",
        "45:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [parallel]",
    ],
    "histogram": [
        "10:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [parallel]",
    ],
    "bin_tree": [
        "14:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:q] iterators [parallel]",
    ],
    "hash_join": [
        "16:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:p] iterators [reduction]",
    ],
    "bfs_push": [
        "28:5: remark: extract-streams: loop nest not extracted: an index is computed by 'memref.load', which is not affine in the loop indices",
        "36:7: remark: extract-streams: loop nest extracted into 1 stream.region: domain [bi:ei] iterators [reduction]",
    ],
    "sssp": [
        "26:5: remark: extract-streams: loop nest not extracted: an index is computed by 'memref.load', which is not affine in the loop indices",
        "35:7: remark: extract-streams: loop nest extracted into 1 stream.region: domain [bi:ei] iterators [reduction]",
        "62:5: remark: extract-streams: loop nest not extracted: the store to %In at an index loaded from memory is not an add/min/max update of that cell (the last writer would depend on the order)",
    ],
    "pr_pull": [
        "18:3: remark: extract-streams: loop nest not extracted as a whole: its body holds 2 loops and 0 other ops (not perfectly nested); its inner loop nests are tried on their own (not distributed: %Sc, written by one statement and accessed by another, is shared between iterations of the loop at line 18)",
        "19:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [parallel]",
        "30:5: remark: extract-streams: loop nest not extracted: an index is computed by 'affine.load', which is not affine in the loop indices",
        "35:7: remark: extract-streams: loop nest extracted into 1 stream.region: domain [bi:ei] iterators [reduction]",
    ],
}  # fmt: skip

_NONE = "error: nothing to offload: extract-streams turned none of its loop nests into a stream.region ({where}) (strict_offload)"
HOST_ONLY = {
    "bfs_pull": "21:5: loop nest not extracted: the 'scf.while' at line 29 (a loop that stops on a condition: a search's early exit) sits in a branch of the 'scf.if' at line 24; a stream with a termination condition under a filter has no stream op (stream.chase ends a pointer walk at the top level of a body only)",
}


# The stencils whose neighbours are clamped at the borders: each sweep's loops
# split at their first and last iterations (extract_peel), every piece a region;
# (the loops split, the regions made, the interior's domain).
_SPLIT = "remark: extract-streams: loop split at its first and last iterations: its body tests the index against them (a border clamp), constant in each piece"
PEELED = {
    "hotspot": (["23:5", "30:7", "60:5", "67:7"], 32, "[1:rows - 1, 1:cols - 1]"),
    "hotspot3D": (["27:5", "34:7", "41:9", "76:5", "83:7", "90:9"], 128, "[1:nz - 1, 1:ny - 1, 1:nx - 1]"),
}


def test_every_workload_is_classified() -> None:
    assert sorted([*PARTIAL, *HOST_ONLY, *PEELED]) == sorted(NAMES)


@pytest.mark.parametrize("name", sorted(PEELED))
def test_clamped_stencils_split_at_their_borders(name: str) -> None:
    loops, regions, interior = PEELED[name]
    w = nsc.get(name)
    module = api.parse_file(w.path)
    remarks = [str(r).removeprefix(f"{w.path}:") for r in extract_streams(module)]
    assert [r for r in remarks if "loop split" in r] == [f"{at}: {_SPLIT}" for at in loops]
    assert sum(1 for op in module.walk() if op.name == "stream.region") == regions
    assert sum(1 for r in remarks if f"stream.region: domain {interior} iterators" in r) == 2  # one per sweep
    assert not [r for r in remarks if "not extracted:" in r], [r for r in remarks if "not extracted:" in r]


@pytest.mark.parametrize("name", NAMES)
def test_through_infs_matches_the_reference(name: str) -> None:
    """Mode auto on the small machine: the outputs equal the numpy reference's,
    whatever ran near memory, in memory or on the host."""
    w, x, sz, res = _run(name, "auto")
    _same(w, res.outputs, w.reference(x, sz))
    if name in HOST_ONLY:
        assert not res.regions and res.remarks and res.remarks[0].startswith("nothing to offload")
    else:
        assert res.regions and not res.remarks


@pytest.mark.parametrize("name", sorted([*PARTIAL, *PEELED]))
@pytest.mark.parametrize("mode", ["near", "core"])
def test_offloaded_regions_in_forced_modes(name: str, mode: str) -> None:
    w, x, sz, res = _run(name, mode, seed=2)
    _same(w, res.outputs, w.reference(x, sz))
    assert {r.mode for r in res.regions} <= {mode, "core"}


@pytest.mark.parametrize("name", sorted(PARTIAL))
def test_what_extract_streams_finds_today(name: str) -> None:
    w = nsc.get(name)
    module = api.parse_file(w.path)
    remarks = [str(r).removeprefix(f"{w.path}:") for r in extract_streams(module)]
    assert remarks == PARTIAL[name]


@pytest.mark.parametrize("name", sorted(HOST_ONLY))
def test_nothing_offloaded_is_one_exact_line(name: str) -> None:
    """Where the pipeline cannot take a workload yet (an early exit inside a filter), strict_offload
    makes the host-only run an error: this line."""
    w = nsc.get(name)
    with pytest.raises(api.InfsError) as e:
        _run(name, "auto", strict_offload=True)
    assert str(e.value) == _NONE.format(where=f"{w.path}:{HOST_ONLY[name]}")
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("name,sizes", [
    ("pathfinder", {"n": 1, "t": 2}), ("pathfinder", {"n": 37, "t": 6}),
    ("srad", {"rows": 3, "cols": 5, "iters": 1}),
    ("hotspot", {"rows": 1, "cols": 7, "t": 2}), ("hotspot3D", {"nx": 3, "ny": 1, "nz": 2, "t": 2}),
    ("histogram", {"n": 1}), ("scluster", {"p": 9, "d": 3, "k": 9, "iters": 3}), ("svm", {"n": 7, "d": 5, "iters": 3}),
    ("bfs_push", {"n": 1, "m": 0}), ("bfs_push", {"n": 45, "m": 200}), ("bfs_pull", {"n": 45, "m": 200}),
    ("sssp", {"n": 30, "m": 300}), ("pr_push", {"n": 20, "m": 40, "iters": 2}), ("pr_pull", {"n": 20, "m": 40, "iters": 2}),
    ("bin_tree", {"n": 1, "q": 5}), ("bin_tree", {"n": 100, "q": 30}), ("hash_join", {"b": 40, "p": 60, "h": 1}),
    ("hash_join", {"b": 0, "p": 8, "h": 4}),
])  # fmt: skip
def test_edge_sizes_through_infs(name: str, sizes: dict) -> None:
    """Degenerate and odd sizes: one column, one vertex, an empty build side, one bucket."""
    w, x, sz, res = _run(name, "auto", seed=7, sizes=sizes)
    _same(w, res.outputs, w.reference(x, sz))


# sizes for random runs: each workload's own constraints (even step counts, k <= p,
# images of 2 x 2 or more: one pixel has no variance, srad divides by it)
_EVEN = st.sampled_from([2, 4])
RANDOM_SIZES = {
    "pathfinder": st.fixed_dictionaries({"n": st.integers(1, 40), "t": _EVEN}),
    "srad": st.fixed_dictionaries({"rows": st.integers(2, 7), "cols": st.integers(2, 9), "iters": st.integers(1, 2)}),
    "hotspot": st.fixed_dictionaries({"rows": st.integers(1, 7), "cols": st.integers(1, 9), "t": _EVEN}),
    "hotspot3D": st.fixed_dictionaries({"nx": st.integers(1, 5), "ny": st.integers(1, 4), "nz": st.integers(1, 3), "t": _EVEN}),
    "histogram": st.fixed_dictionaries({"n": st.integers(1, 300)}),
    "scluster": st.integers(1, 30).flatmap(lambda p: st.fixed_dictionaries(
        {"p": st.just(p), "d": st.integers(1, 6), "k": st.integers(1, p), "iters": st.integers(1, 3)})),
    "svm": st.fixed_dictionaries({"n": st.integers(1, 40), "d": st.integers(1, 6), "iters": st.integers(1, 3)}),
    **{g: st.fixed_dictionaries({"n": st.integers(1, 50), "m": st.integers(0, 300)}) for g in ("bfs_push", "bfs_pull", "sssp")},
    **{g: st.fixed_dictionaries({"n": st.integers(1, 40), "m": st.integers(0, 200), "iters": st.integers(1, 3)}) for g in ("pr_push", "pr_pull")},
    "bin_tree": st.fixed_dictionaries({"n": st.integers(0, 60), "q": st.integers(1, 30)}),
    "hash_join": st.fixed_dictionaries({"b": st.integers(0, 60), "p": st.integers(1, 60), "h": st.integers(1, 20)}),
}  # fmt: skip


@st.composite
def random_runs(draw):
    name = draw(st.sampled_from(NAMES))
    return name, draw(RANDOM_SIZES[name]), draw(st.integers(0, 10**6)), draw(st.sampled_from(["auto", "near", "core"])), draw(st.sampled_from(["tiny", "small-16"]))


def test_random_sizes_cover_every_workload() -> None:
    assert sorted(RANDOM_SIZES) == sorted(NAMES)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_runs())
def test_random_sizes_seeds_modes_and_machines(run) -> None:
    """Any workload, at sizes and on a machine hypothesis draws, in any mode: the reference's outputs."""
    name, sizes, seed, mode, machine = run
    w = nsc.get(name)
    x = w.inputs(sizes, seed)
    args = {k: v for k, v in {**x, **sizes}.items() if k in w.args}
    res = api.run(w.path, args, config=machine, mode=mode)
    _same(w, res.outputs, w.reference(x, sizes))


def test_odd_step_counts_are_refused() -> None:
    for name, sizes in (("pathfinder", {"n": 8, "t": 3}), ("hotspot", {"rows": 4, "cols": 4, "t": 1}), ("hotspot3D", {"nx": 2, "ny": 2, "nz": 2, "t": 5})):
        with pytest.raises(ValueError, match="ping-pongs A -> B -> A: its step count t must be even"):
            nsc.get(name).inputs(sizes)


# ---------------------------------------------------------------------------
# the references on their own: hand-computed cases and brute force
# ---------------------------------------------------------------------------


def test_pathfinder_by_hand() -> None:
    w = nsc.get("pathfinder")
    W = np.array([[3, 1, 4, 1], [5, 9, 2, 6], [5, 3, 5, 8]], np.int32)
    out = w.reference({"W": W, "A": np.zeros(4, np.int32), "B": np.zeros(4, np.int32)}, {"n": 4, "t": 2})
    # row 1: 5+min(3,1)=6, 9+min(3,1,4)=10, 2+min(1,4,1)=3, 6+min(4,1)=7
    np.testing.assert_array_equal(out["B"], [6, 10, 3, 7])
    # row 2: 5+min(6,10)=11, 3+min(6,10,3)=6, 5+min(10,3,7)=8, 8+min(3,7)=11
    np.testing.assert_array_equal(out["A"], [11, 6, 8, 11])


def test_histogram_by_hand() -> None:
    w = nsc.get("histogram")
    v = np.array([0, 0x00FFFFFF, 0x01000000, -1, -(1 << 31), 0x7FFFFFFF], np.int64).astype(np.uint32).view(np.int32)
    h = w.reference({"V": v, "H": np.zeros(256, np.int32)}, {"n": 6})["H"]
    want = np.zeros(256, np.int32)
    for k in (0, 0, 1, 255, 128, 127):
        want[k] += 1
    np.testing.assert_array_equal(h, want)


def _srad_loops(x, iters):
    """Rodinia srad_v2's loops, pixel by pixel (f32)."""
    J = x["J"].astype(np.float32).copy()
    rows, cols = J.shape
    iN, iS, jW, jE = (x[k] for k in ("iN", "iS", "jW", "jE"))
    lam = np.float32(x["L"][0])
    f = np.float32
    for _ in range(iters):
        s = q = f(0)
        for i in range(rows):
            for j in range(cols):
                s += J[i, j]
                q += J[i, j] * J[i, j]
        mean = s / f(J.size)
        var = q / f(J.size) - mean * mean
        q0 = var / (mean * mean)
        dN, dS, dW, dE, C = (np.zeros_like(J) for _ in range(5))
        for i in range(rows):
            for j in range(cols):
                jc = J[i, j]
                dN[i, j], dS[i, j] = J[iN[i], j] - jc, J[iS[i], j] - jc
                dW[i, j], dE[i, j] = J[i, jW[j]] - jc, J[i, jE[j]] - jc
                g2 = (dN[i, j] ** 2 + dS[i, j] ** 2 + dW[i, j] ** 2 + dE[i, j] ** 2) / (jc * jc)
                lap = (dN[i, j] + dS[i, j] + dW[i, j] + dE[i, j]) / jc
                num = f(0.5) * g2 - f(1 / 16) * lap * lap
                den = f(1) + f(0.25) * lap
                qs = num / (den * den)
                c = f(1) / (f(1) + (qs - q0) / (q0 * (f(1) + q0)))
                C[i, j] = f(0) if c < 0 else (f(1) if c > 1 else c)
        for i in range(rows):
            for j in range(cols):
                d = C[i, j] * dN[i, j] + C[iS[i], j] * dS[i, j] + C[i, j] * dW[i, j] + C[i, jE[j]] * dE[i, j]
                J[i, j] = J[i, j] + f(0.25) * lam * d
    return J, C


def test_srad_reference_against_rodinias_loops() -> None:
    w = nsc.get("srad")
    sz = {"rows": 5, "cols": 7, "iters": 2}
    x = w.inputs(sz, seed=3)
    j, c = _srad_loops(x, 2)
    out = w.reference(x, sz)
    np.testing.assert_allclose(out["J"], j, rtol=1e-5)
    np.testing.assert_allclose(out["C"], c, rtol=1e-4, atol=1e-6)


def _hotspot_rodinia(temp, power, k, steps):
    """Rodinia hotspot's single_iteration: the interior formula, and at the edges and
    corners the formulas that leave the missing neighbours' terms out."""
    cap1, rx1, ry1, rz1, amb = (float(v) for v in k)
    t = temp.astype(np.float64)
    rows, cols = t.shape
    for _ in range(steps):
        out = np.empty_like(t)
        for r in range(rows):
            for c in range(cols):
                v = 0.0
                if r > 0:
                    v += t[r - 1, c] - t[r, c]
                if r < rows - 1:
                    v += t[r + 1, c] - t[r, c]
                h = 0.0
                if c > 0:
                    h += t[r, c - 1] - t[r, c]
                if c < cols - 1:
                    h += t[r, c + 1] - t[r, c]
                out[r, c] = t[r, c] + cap1 * (power[r, c] + v * ry1 + h * rx1 + (amb - t[r, c]) * rz1)
        t = out
    return t


def test_hotspot_reference_is_rodinias_edge_formulas() -> None:
    w = nsc.get("hotspot")
    for sz in ({"rows": 4, "cols": 6, "t": 2}, {"rows": 1, "cols": 5, "t": 2}, {"rows": 3, "cols": 1, "t": 4}):
        x = w.inputs(sz, seed=1)
        np.testing.assert_allclose(w.reference(x, sz)["T"], _hotspot_rodinia(x["T"], x["P"], x["K"], sz["t"]), rtol=1e-6)


def test_hotspot3d_reference_against_rodinias_loops() -> None:
    w = nsc.get("hotspot3D")
    sz = {"nx": 4, "ny": 3, "nz": 3, "t": 2}
    x = w.inputs(sz, seed=2)
    cc, cn, cs, ce, cw, ct, cb, sdc, amb = (float(v) for v in x["K"])
    t = x["T"].astype(np.float64)
    nz, ny, nx = t.shape
    for _ in range(sz["t"]):
        out = np.empty_like(t)
        for z in range(nz):
            for y in range(ny):
                for xx in range(nx):
                    W, E = max(xx - 1, 0), min(xx + 1, nx - 1)
                    N, S = max(y - 1, 0), min(y + 1, ny - 1)
                    B, T = max(z - 1, 0), min(z + 1, nz - 1)
                    out[z, y, xx] = (cc * t[z, y, xx] + cw * t[z, y, W] + ce * t[z, y, E] + cs * t[z, S, xx] + cn * t[z, N, xx]
                                     + cb * t[B, y, xx] + ct * t[T, y, xx] + sdc * x["P"][z, y, xx] + ct * amb)  # fmt: skip
        t = out
    np.testing.assert_allclose(w.reference(x, sz)["T"], t, rtol=1e-6)
    # Rodinia's coefficients: a convex combination of the cell and its neighbours
    assert 0 < cc < 1 and abs(cc + 2 * ce + 2 * cn + 3 * ct - 1) < 1e-6


def test_scluster_reference_against_pgain_loop() -> None:
    w = nsc.get("scluster")
    sz = {"p": 30, "d": 4, "k": 3, "iters": 3}
    x = w.inputs(sz, seed=5)
    out = w.reference(x, sz)
    for it, cand in enumerate(x["Cand"]):
        gain, low = 0.0, np.zeros(3)
        for i in range(30):
            xc = float(np.sum((x["X"][i].astype(np.float64) - x["X"][cand]) ** 2)) * float(x["Wt"][i])
            cur = float(x["Cost"][i])
            assert out["Sw"][it, i] == (xc < cur)
            if xc < cur:
                gain += xc - cur
            else:
                low[x["Ctab"][x["Asg"][i]]] += cur - xc
        assert out["Gain"][it] == pytest.approx(gain, rel=1e-4, abs=1e-5)
        np.testing.assert_allclose(out["Low"][it], low, rtol=1e-4, atol=1e-5)


def test_svm_reference_against_per_sample_loop() -> None:
    w = nsc.get("svm")
    sz = {"n": 25, "d": 5, "iters": 3}
    x = w.inputs(sz, seed=6)
    out = w.reference(x, sz)
    wv = x["Wv"].astype(np.float64)
    lr, lam = (float(v) for v in x["K"])
    for it in range(3):
        g = np.zeros(5)
        for i in range(25):
            m = float(x["Y"][i]) * float(np.dot(x["X"][i], wv))
            assert out["M"][it, i] == pytest.approx(m, rel=1e-4, abs=1e-5)
            if m < 1:
                g += x["Y"][i] * x["X"][i]
        wv = (1 - lr * lam) * wv + lr / 25 * g
    np.testing.assert_allclose(out["Wv"], wv, rtol=1e-4, atol=1e-6)


def _adjacency(x):
    offs, nbr = x["offs"], x["nbr"]
    return [list(nbr[offs[u] : offs[u + 1]]) for u in range(offs.size - 1)]


def _queue_bfs(adj, s):
    """A plain FIFO BFS: depth, the first discoverer as parent, the discovery order."""
    depth, par, order = [-1] * len(adj), [-1] * len(adj), [s]
    depth[s], par[s] = 0, s
    q = deque([s])
    while q:
        u = q.popleft()
        for v in adj[u]:
            if depth[v] < 0:
                depth[v], par[v] = depth[u] + 1, u
                q.append(v)
                order.append(v)
    return depth, par, order


graph_sizes = st.tuples(st.integers(1, 70), st.integers(0, 400), st.integers(0, 10**6))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graph_sizes)
def test_bfs_references_against_a_queue_bfs(nms) -> None:
    n, m, seed = nms
    sz = {"n": n, "m": m}
    x = nsc.get("bfs_push").inputs(sz, seed)
    adj = _adjacency(x)
    depth, par, order = _queue_bfs(adj, int(x["S"][0]))
    push = nsc.get("bfs_push").reference(x, sz)
    np.testing.assert_array_equal(push["D"], depth)
    np.testing.assert_array_equal(push["Par"], par)
    np.testing.assert_array_equal(push["Q"][: len(order)], order)
    pull = nsc.get("bfs_pull").reference({k: v for k, v in x.items() if k != "Q"}, sz)
    np.testing.assert_array_equal(pull["D"], depth)
    for v in range(n):  # bottom-up: the first neighbour a level up, in row order
        want = next((u for u in adj[v] if depth[u] == depth[v] - 1), -1) if depth[v] > 0 else par[v]
        assert pull["Par"][v] == want


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graph_sizes)
def test_sssp_reference_against_dijkstra(nms) -> None:
    n, m, seed = nms
    sz = {"n": n, "m": m}
    x = nsc.get("sssp").inputs(sz, seed)
    offs, nbr, wt = x["offs"], x["nbr"], x["wt"]
    dist = [None] * n
    heap = [(0, int(x["S"][0]))]
    while heap:
        d, u = heapq.heappop(heap)
        if dist[u] is not None:
            continue
        dist[u] = d
        for k in range(offs[u], offs[u + 1]):
            if dist[nbr[k]] is None:
                heapq.heappush(heap, (d + int(wt[k]), int(nbr[k])))
    want = [np.iinfo(np.int32).max if d is None else d for d in dist]
    np.testing.assert_array_equal(nsc.get("sssp").reference(x, sz)["Dist"], want)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graph_sizes, st.integers(1, 6))
def test_pagerank_references_against_a_dense_power_iteration(nms, iters) -> None:
    n, m, seed = nms
    sz = {"n": n, "m": m, "iters": iters}
    x = nsc.get("pr_push").inputs(sz, seed)
    a = np.zeros((n, n))
    for u, row in enumerate(_adjacency(x)):
        a[row, u] = 1.0 / max(len(row), 1)  # column u spreads u's score over its neighbours
    score = np.full(n, 1.0 / n)
    for _ in range(iters):
        score = (1 - 0.85) / n + 0.85 * (a @ score)
    push = nsc.get("pr_push").reference(x, sz)
    pull = nsc.get("pr_pull").reference({k: v for k, v in x.items() if k != "Nx"}, sz)
    np.testing.assert_allclose(push["Sc"], score, rtol=1e-5, atol=1e-8)
    np.testing.assert_allclose(pull["Sc"], score, rtol=1e-5, atol=1e-8)


def _walk(key, left, right, root, k):
    node = root
    while node >= 0 and key[node] != k:
        node = left[node] if k < key[node] else right[node]
    return node


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 200), st.integers(1, 60), st.integers(0, 10**6))
def test_search_tree_and_bin_tree_reference(n, q, seed) -> None:
    sz = {"n": n, "q": q}
    x = nsc.get("bin_tree").inputs(sz, seed)
    key, left, right, root = x["Key"], x["Lt"], x["Rt"], int(x["Root"][0])
    # a binary search tree of every key once: in-order walk sorted, each slot reached once
    seen, stack, node, inorder = set(), [], root, []
    while stack or node >= 0:
        while node >= 0:
            assert node not in seen
            seen.add(node)
            stack.append(node)
            node = left[node]
        node = stack.pop()
        inorder.append(key[node])
        node = right[node]
    assert len(seen) == n and inorder == sorted(inorder)
    res = nsc.get("bin_tree").reference(x, sz)["Res"]
    assert [_walk(key, left, right, root, k) for k in x["Qk"]] == list(res)
    if n:
        assert 0 < np.count_nonzero(res >= 0) or q < 8  # about half the lookups hit


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 120), st.integers(1, 200), st.integers(1, 40), st.integers(0, 10**6))
def test_hash_table_and_hash_join_reference(b, p, h, seed) -> None:
    sz = {"b": b, "p": p, "h": h}
    x = nsc.get("hash_join").inputs(sz, seed)
    bk, head, nxt = x["Bk"], x["Head"], x["Next"]
    rows = []
    for bucket in range(h):  # every row on its bucket's chain once, newest first
        r, chain = head[bucket], []
        while r >= 0:
            assert bk[r] % h == bucket
            chain.append(r)
            r = nxt[r]
        assert chain == sorted(chain, reverse=True)
        rows += chain
    assert sorted(rows) == list(range(b))
    out = nsc.get("hash_join").reference(x, sz)
    for i, k in enumerate(x["Pk"]):
        r = head[k % h]
        while r >= 0 and bk[r] != k:
            r = nxt[r]
        assert out["Match"][i] == r
    assert out["Cnt"][0] == np.count_nonzero(out["Match"] >= 0)


def test_hash_join_hit_rate_is_an_eighth() -> None:
    w = nsc.get("hash_join")
    sz = {"b": 4096, "p": 16384, "h": 4096}
    hits = np.count_nonzero(w.reference(w.inputs(sz, 0), sz)["Match"] >= 0)
    assert abs(hits / 16384 - 1 / 8) < 0.01


# ---------------------------------------------------------------------------
# the Kronecker generator
# ---------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(graph_sizes)
def test_kronecker_graph_is_a_clean_symmetric_csr(nms) -> None:
    n, m, seed = nms
    offs, nbr, wt = nsc.kronecker(n, m, np.random.default_rng(seed))
    assert offs.shape == (n + 1,) and nbr.shape == wt.shape == (m,)
    assert offs[0] == 0 and np.all(np.diff(offs) >= 0) and offs[n] <= m
    arcs = int(offs[n])
    assert np.all(nbr[arcs:] == 0) and np.all(wt[arcs:] == 0)
    edges = {}
    for u in range(n):
        row = nbr[offs[u] : offs[u + 1]]
        assert np.all(np.diff(row) > 0)  # sorted, no duplicates
        assert u not in row  # no self-loops
        for v, w in zip(row, wt[offs[u] : offs[u + 1]]):
            assert 1 <= w <= 255
            edges[(u, int(v))] = int(w)
    assert all(edges.get((v, u)) == w for (u, v), w in edges.items())  # symmetric, one weight


def test_kronecker_is_skewed_and_deterministic() -> None:
    n = 1 << 12
    a = nsc.kronecker(n, 32 * n, np.random.default_rng(1))
    b = nsc.kronecker(n, 32 * n, np.random.default_rng(1))
    assert all(np.array_equal(p, q) for p, q in zip(a, b))
    deg = np.diff(a[0])
    # R-MAT at A = 0.57: a heavy tail (a uniform graph of this density has max degree ~ 2x mean)
    assert deg.max() > 20 * deg.mean()
    # most generated edges survive (duplicates and self-loops are the rest)
    assert 0.7 * 32 * n < a[0][-1] <= 32 * n


# ---------------------------------------------------------------------------
# infs-run nsc/<name>
# ---------------------------------------------------------------------------


def test_infs_run_by_name_with_check(capsys) -> None:
    assert infs_run.main(["nsc/pr_pull", "--config", MACHINE, "--mode", "near", "--check", "--sizes", "n=32,m=128,iters=2"]) == 0
    out = capsys.readouterr().out
    assert "check: outputs match the stream reference" in out
    assert infs_run.main(["nsc/bfs_pull", "--config", MACHINE, "--check"]) == 0
    captured = capsys.readouterr()
    assert "check: outputs match" in captured.out
    assert "nothing to offload" in captured.err


def test_infs_run_unknown_workload_is_one_line(capsys) -> None:
    assert infs_run.main(["nsc/pagerank"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("infs-run: error: 'nsc/pagerank': no such file, and unknown NSC workload 'pagerank' (known: "
                   + ", ".join(NAMES) + ")")  # fmt: skip


def test_infs_run_odd_steps_is_one_line(capsys) -> None:
    assert infs_run.main(["nsc/pathfinder", "--sizes", "t=3", "--config", MACHINE]) != 0
    err = capsys.readouterr().err.strip()
    assert err == "infs-run: error: pathfinder ping-pongs A -> B -> A: its step count t must be even, got 3", err


def test_shapes_are_known_before_allocating() -> None:
    """infs-run sizes every array from the registry before making any (the capacity
    check, --analysis's phantom arrays): a CSR row-start array is n + 1 long."""
    from infs.tools.runner import _workload_shapes

    for name in NAMES:
        w = nsc.get(name)
        for sizes in (w.small, {k: v + 2 for k, v in w.small.items()}):
            x = w.inputs(sizes, 0)
            assert _workload_shapes(w, dict(sizes)) == {k: (v.shape, v.dtype) for k, v in x.items()}, (name, sizes)


def test_infs_run_analysis_by_name(capsys) -> None:
    assert infs_run.main(["nsc/pr_pull", "--config", MACHINE, "--analysis", "--json"]) == 0
    assert '"total_cycles"' in capsys.readouterr().out


def test_infs_view_by_name(tmp_path, capsys) -> None:
    page = tmp_path / "srad.html"
    from infs.tools import infs_view

    assert infs_view.main(["nsc/srad", "--config", MACHINE, "--mode", "auto", "-o", str(page)]) == 0
    assert page.stat().st_size > 0 and "infs-view: wrote" in capsys.readouterr().out
