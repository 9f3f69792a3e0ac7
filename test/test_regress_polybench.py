"""Regressions found by red-team runs of the PolyBench kernels (test/polybench),
linalg programs and the indirect-access/atomic programs (gather_mlp_*,
kmeans_*, hand-written streams) against oracles written from the C.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from infs import api

# Two atomic kinds on one array in one region: each iteration adds, then takes
# the max, so the order of the updates matters (the kinds do not commute with
# each other).  The reference (near/core) refuses it; the graph in memory
# applied all adds, then all maxes: H[0] = max(3 - 5, 3, -5) = 3, not the
# loop's -2 (a silent wrong answer under --mode in).
TWO_ATOMIC_KINDS = """
func.func @f(%V: memref<?xi32>, %idx: memref<?xi32>, %H: memref<?xi32>, %n: index) {
  stream.region ins(%V, %idx, %H : memref<?xi32>, memref<?xi32>, memref<?xi32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%v: memref<?xi32>, %ix: memref<?xi32>, %h: memref<?xi32>, %N: index):
    %m = stream.load %ix[d0] : memref<?xi32> -> !stream.stream<i32>
    %x = stream.load %v[d0] : memref<?xi32> -> !stream.stream<i32>
    stream.atomic add %x -> %h[%m] : !stream.stream<i32> -> memref<?xi32>
    stream.atomic max %x -> %h[%m] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}
"""


@pytest.mark.parametrize("mode", ["auto", "in", "near", "core"])
def test_two_atomic_kinds_on_one_array_are_refused_in_every_mode(mode):
    args = {"V": np.array([3, -5], np.int32), "idx": np.array([0, 0], np.int32), "H": np.zeros(1, np.int32), "n": 2}
    with pytest.raises(api.InfsError, match=r"mixes atomic kinds \['add', 'max'\] on one array"):
        api.run(TWO_ATOMIC_KINDS, args, config="small-16", mode=mode)


def test_tensorize_leaves_two_atomic_kinds_on_one_array_a_stream_region():
    from infs.passes.tensorize import tensorize_module

    module = tensorize_module(api.parse_text(TWO_ATOMIC_KINDS))
    names = {op.name for op in module.walk()}
    assert "stream.region" in names and "tdfg.graph" not in names
    region = next(op for op in module.walk() if op.name == "stream.region")
    assert "mixes atomic kinds ['add', 'max'] on one array" in str(region.attributes)


# An indirect atomic into an empty array: every index is outside it, the
# program's one-line error.  The core model's cost (computed by --mode auto's
# decision before the reference names the error) divided the indirect
# stream's lines over the banks by their sum, 0 for an empty array: numpy's
# "RuntimeWarning: invalid value encountered in divide" and its source line
# went to stderr before infs-run's error (three lines, not one).
EMPTY_TARGET = """
func.func @f(%V: memref<?xf64>, %idx: memref<?xi32>, %H: memref<?xf64>, %n: index) {
  stream.region ins(%V, %idx, %H : memref<?xf64>, memref<?xi32>, memref<?xf64>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%v: memref<?xf64>, %ix: memref<?xi32>, %h: memref<?xf64>, %N: index):
    %m = stream.load %ix[d0] : memref<?xi32> -> !stream.stream<i32>
    %x = stream.load %v[d0] : memref<?xf64> -> !stream.stream<f64>
    stream.atomic max %x -> %h[%m] : !stream.stream<f64> -> memref<?xf64>
    stream.yield
  }
  func.return
}
"""


def test_indirect_atomic_into_an_empty_array_is_one_line(tmp_path, capsys):
    from infs.tools.infs_run import main

    prog = tmp_path / "empty.mlir"
    prog.write_text(EMPTY_TARGET)
    for name, value in (("V", np.ones(2)), ("idx", np.zeros(2, np.int32)), ("H", np.zeros(0))):
        np.save(tmp_path / f"{name}.npy", value)
    argv = [str(prog), "--config", "tiny", "--scalar", "n=2"] + [f"--input={n}={tmp_path / n}.npy" for n in ("V", "idx", "H")]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning numpy would print to stderr fails the run
        code = main(argv)
    err = capsys.readouterr().err
    assert code == 1
    assert err.splitlines() == [f"infs-run: {prog}: error: 'stream.atomic' at line 7 accesses index 0 in dim 0 of an array of shape [0]"]

