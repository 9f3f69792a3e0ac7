"""Arrays a graph only writes (tdfg-to-pimcmd): one written whole is allocated, not
fetched (no transpose_in), and a compute's result goes straight into its wordlines;
one written in part keeps the fetch, so the cells the graph does not write keep
their values.  Every run is checked against numpy, on tiny and small-16, whole and
in chunks (infs.runtime.chunking), and functional cycles equal the analysis ones."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infs import api
from infs.dialects import pimcmd_schema as K
from infs.runtime.driver import RunOptions, run_program
from infs.workloads import WORKLOADS

# C[lo:hi] = A[lo:hi] * A[lo:hi] + 1; C elsewhere untouched (the graph writes only [lo:hi])
SQUARE = """
func.func @f(%A: memref<?xf32>, %C: memref<?xf32>, %lo: index, %hi: index) {
  stream.region ins(%A, %C : memref<?xf32>, memref<?xf32>) syms(L = %lo : index, H = %hi : index) domain [L:H] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %c: memref<?xf32>, %L: index, %H: index):
    %x = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%x : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u: f32):
      %one = arith.constant 1.0 : f32
      %t = arith.mulf %u, %u : f32
      %r = arith.addf %t, %one : f32
      stream.yield %r : f32
    }
    stream.store %s -> %c[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
"""

# write, then read what was written: C = A + B (C only written), then D = C * C (C read),
# then C = C - A (C read and written)
CHAIN = """
func.func @g(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %D: memref<?xf32>, %n: index) {
  stream.region ins(%A, %B, %C : memref<?xf32>, memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %N: index):
    %x = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %y = stream.load %b[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%x, %y : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u: f32, %v: f32):
      %t = arith.addf %u, %v : f32
      stream.yield %t : f32
    }
    stream.store %s -> %c[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  stream.region ins(%C, %D : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%c: memref<?xf32>, %d: memref<?xf32>, %N: index):
    %x = stream.load %c[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%x : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u: f32):
      %t = arith.mulf %u, %u : f32
      stream.yield %t : f32
    }
    stream.store %s -> %d[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  stream.region ins(%C, %A : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%c: memref<?xf32>, %a: memref<?xf32>, %N: index):
    %x = stream.load %c[d0] : memref<?xf32> -> !stream.stream<f32>
    %y = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%x, %y : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u: f32, %v: f32):
      %t = arith.subf %u, %v : f32
      stream.yield %t : f32
    }
    stream.store %s -> %c[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
"""


def _fetched(rep) -> list[set[int]]:
    """Per in-memory program run: the array arguments it transposes in."""
    return [{c["arr"] for c in low.record.cmds if c.kind is K.TRANSPOSE_IN} for _, low, *_ in rep.programs]


def _square(n: int, lo: int, hi: int, config: str, seed: int, **options):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(n).astype(np.float32)
    c = rng.standard_normal(n).astype(np.float32)  # old values: the cells outside [lo:hi] must keep them
    want = c.copy()
    want[lo:hi] = a[lo:hi] * a[lo:hi] + np.float32(1)
    module = api.parse_text(SQUARE)
    rep = run_program(module, [a, c, lo, hi], "f", RunOptions(config=config, mode="in", strict=True, **options))
    np.testing.assert_array_equal(c, want)
    analysis = run_program(api.parse_text(SQUARE), [a, np.empty_like(c), lo, hi], "f", RunOptions(config=config, mode="in", machine_mode="analysis", **options))
    assert analysis.stats.total_cycles == rep.stats.total_cycles
    return rep


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(1, 200), data=st.data(), config=st.sampled_from(["tiny", "small-16"]), warm=st.booleans(), seed=st.integers(0, 3))
def test_partial_and_whole_writes_match_numpy(n, data, config, warm, seed):
    lo = data.draw(st.integers(0, n - 1), "lo")
    hi = data.draw(st.integers(lo + 1, n), "hi")
    rep = _square(n, lo, hi, config, seed, warm=warm)
    if lo == 0 and hi == n:
        assert all(1 not in f and 0 in f for f in _fetched(rep))  # C written whole: not fetched


@pytest.mark.parametrize("config", ["tiny", "small-16"])
@pytest.mark.parametrize("n,lo,hi", [(64, 0, 64), (64, 1, 63), (100, 0, 1), (100, 99, 100), (130, 3, 128), (1, 0, 1)])
def test_writes_of_a_box_match_numpy(config, n, lo, hi):
    rep = _square(n, lo, hi, config, n + lo)
    assert all(r.mode == "in" for r in rep.regions)
    if (n, lo, hi) == (64, 1, 63):  # a stencil's interior: C is fetched, its two edge cells kept
        assert all(1 in f for f in _fetched(rep))
    if (lo, hi) == (0, n):
        assert all(1 not in f for f in _fetched(rep))


@pytest.mark.parametrize("lo,hi", [(0, 500), (1, 499), (0, 499), (7, 500)])
def test_chunked_writes_match_numpy(lo, hi):
    """500 elements on tiny run in chunks, each chunk's graph on its rows of the arrays."""
    rep = _square(500, lo, hi, "tiny", 1, warm=False)
    (r,) = rep.regions
    assert r.mode == "in" and r.chunks > 1
    assert any(1 not in f for f in _fetched(rep))  # the chunks write their rows of C whole


@pytest.mark.parametrize("config", ["tiny", "small-16"])
@pytest.mark.parametrize("n", [1, 40, 256, 700])
def test_write_then_read_across_regions_matches_numpy(config, n):
    rng = np.random.default_rng(n)
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    c, d = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    s = a + b
    want_d, want_c = s * s, s - a
    rep = run_program(api.parse_text(CHAIN), [a, b, c, d, n], "g", RunOptions(config=config, mode="in", strict=True))
    np.testing.assert_array_equal(d, want_d)
    np.testing.assert_array_equal(c, want_c)
    assert all(r.mode == "in" for r in rep.regions)
    # region 0 only writes C and region 1 only writes D: neither is fetched; region 2 reads C: it is
    by_region: dict[int, set[int]] = {}
    for (region, low, *_), f in zip(rep.programs, _fetched(rep)):
        by_region.setdefault(region, set()).update(f)
    assert 2 not in by_region[0] and 1 not in by_region[1] and 0 in by_region[2]


def test_vec_add_computes_into_c_with_no_fetch_and_no_copy():
    """Fig. 2's vec_add: A and B are transposed in, C is not; one add writes C's wordlines."""
    w = WORKLOADS["vec_add"]
    inputs = w.inputs("small", 0)
    r = api.run(str(w.path), dict(inputs, **w.sizes("small")), config="small-16", mode="in")
    np.testing.assert_array_equal(r.outputs["C"], inputs["A"] + inputs["B"])
    ((_, low, *_),) = r.report.programs
    kinds = [c.kind for c in low.record.cmds]
    assert _fetched(r.report) == [{0, 1}] and kinds.count(K.RELEASE) == 1
    computes = [c for c in low.record.cmds if c.kind is K.COMPUTE]
    assert [c["op"] for c in computes] == ["add"]
    (c_entry,) = [c for c in low.record.cmds if c.kind is K.ARRAY and c["arr"] == 2]
    assert computes[0]["dst"] == c_entry["wordline"]


@pytest.mark.parametrize("name", ["stencil1d", "stencil2d", "dwt2d", "conv2d", "mm_outer", "gauss_elim"])
@pytest.mark.parametrize("config", ["tiny", "small-16"])
def test_workloads_with_output_arrays_match_their_reference(name, config):
    w = WORKLOADS[name]
    inputs = w.inputs("small", 2)
    sizes = w.sizes("small")
    r = api.run(str(w.path), dict(inputs, **sizes), config=config, mode="in", strict=True)
    want = w.reference(inputs, sizes)
    for k, v in want.items():
        np.testing.assert_allclose(r.outputs[k], v, rtol=2e-5, atol=1e-5, err_msg=k)
