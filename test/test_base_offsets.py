"""Loop indices as base addresses (``infs.runtime.base_offsets``).

A region re-entered with a new loop index that only moves where its streams
start is lowered once; one whose index changes its shapes (gauss_elim) is
lowered at every iteration, as the paper reports (ASPLOS §8).  Folding never
changes a value: random regions run with and without it against the stream
reference, and the workloads with host loops give the same arrays both ways.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from strategies import RegionCase, examples, random_region

from infs import api
from infs.dialects import stream
from infs.runtime import jit
from infs.runtime.base_offsets import fold_base_offsets
from infs.runtime.check import compare_values
from infs.runtime.driver import RunOptions, run_program
from infs.runtime.host import run_function
from infs.sim import Machine
from infs.workloads import WORKLOADS


def _regions(text: str) -> list[stream.RegionOp]:
    return [op for op in api.parse_text(text).walk() if isinstance(op, stream.RegionOp)]


def test_mm_outer_k_becomes_the_base_of_a_column_and_a_row():
    region = _regions(WORKLOADS["mm_outer"].text())[1]
    fold = fold_base_offsets(region)
    assert fold is not None and fold.folded == {"k"}
    text = api.to_text(fold.region)
    assert "syms(M = %3 : index, N = %4 : index, base0_1 = %5 : index, base1_0 = %6 : index)" in text
    assert "stream.load %a[d0, -base0_1]" in text and "stream.load %b[-base1_0, d1]" in text
    assert "stream.load %c[d0, d1]" in text  # C does not move with k: passed whole
    A, B, C = (np.arange(35, dtype=np.float32).reshape(5, 7), np.ones((7, 6), np.float32), np.zeros((5, 6), np.float32))
    views, scalars = fold.bind(region, [A, B, C], [5, 6, 3])
    assert views[0].shape == (5, 1) and np.shares_memory(views[0], A) and views[0][2, 0] == A[2, 3]
    assert views[1].shape == (1, 6) and views[2] is C
    assert scalars == [5, 6, 0, 0]


def test_a_symbol_in_the_domain_or_with_two_strides_does_not_fold():
    # gauss_elim's k bounds the domain (the tensor shrinks): a real parameter
    for region in _regions(WORKLOADS["gauss_elim"].text()):
        fold = fold_base_offsets(region)
        assert fold is None or "k" not in fold.folded
    text = """
func.func @f(%A: memref<?xf32>, %B: memref<?xf32>, %n: index, %k: index) {
  stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index, k = %k : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index, %K: index):
    %x = stream.load %a[d0 + k] : memref<?xf32> -> !stream.stream<f32>
    %y = stream.load %a[d0 + 2*k] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%x, %y : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u: f32, %v: f32):
      %t = arith.addf %u, %v : f32
      stream.yield %t : f32
    }
    stream.store %s -> %b[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
"""
    assert fold_base_offsets(_regions(text)[0]) is None  # A moves by k and by 2k: no one base address


@pytest.mark.parametrize(
    ("name", "folded_lowerings"),
    [("mm_outer", 2), ("kmeans_inner", 5), ("gather_mlp_inner", 2), ("gauss_elim", None)],
)
def test_host_loops_lower_once_and_give_the_same_arrays(name, folded_lowerings):
    w = WORKLOADS[name]
    outs, lowerings = [], []
    for fold in (True, False):
        inputs = w.inputs("small")
        jit.clear_cache()
        report = run_program(api.parse_text(w.text()), w.call_args(inputs, "small"), w.entry, RunOptions(config="small-16", mode="in", fold_base_offsets=fold))
        outs.append(inputs)
        lowerings.append(sum(r.jit_misses for r in report.regions))
    res = compare_values(outs[0], outs[1])
    assert res.ok, res.note
    if folded_lowerings is None:  # nothing folds: the same lowerings
        assert lowerings[0] == lowerings[1] > 5
    else:
        assert lowerings[0] == folded_lowerings < lowerings[1]


def test_a_view_of_an_array_in_the_l3_is_in_the_l3():
    m = Machine("tiny", mode="analysis")
    A = np.zeros((8, 8), np.float32)
    row = A[3:4, :]
    assert not m.is_resident(row)
    m.mark_resident([A])
    assert m.is_resident(row) and m.residency_of(row) == (row, "l3")
    assert m.is_resident(row[:, 2:])  # a view of a view


@settings(max_examples=examples(25, "INFS_PIPELINE_EXAMPLES"), deadline=None, suppress_health_check=list(HealthCheck))
@given(case=random_region(max_rank=3))
def test_folding_never_changes_a_value(case: RegionCase):
    """Random regions (with the index symbol ``k`` in their maps, peeled dims,
    transposed, reversed and strided accesses): folded and unfolded runs in
    memory give the stream reference's values, or both refuse alike."""
    args = case.call_args()
    try:
        want = run_function(api.parse_text(case.text), args, "f")
    except Exception:  # noqa: BLE001 -- the reference refuses: the folded run must too
        want = None
    expected = {p: a for p, a in zip(case.params, args) if isinstance(a, np.ndarray)}
    for fold in (True, False):
        named = dict(zip(case.params, case.call_args()))
        try:
            report = run_program(api.parse_text(case.text), named, "f", RunOptions(config="small-16", mode="in", fold_base_offsets=fold))
        except Exception as e:  # noqa: BLE001
            assert want is None, f"fold={fold}: {e}\n{case.describe()}"
            continue
        assert want is not None, f"fold={fold}: the reference refuses but the run gave values\n{case.describe()}"
        got = {p: named[p] for p in expected} | {f"r{i}": r for i, r in enumerate(report.results)}
        res = compare_values(got, expected | {f"r{i}": r for i, r in enumerate(want)})
        assert res.ok, f"fold={fold}: {res.note}\n{case.describe()}"
