// Regression (was a bug): a forced tile shape for a rank-1 lattice cannot be given on the
// command line: `tiles=16` reaches xDSL's pipeline parser as an integer and
// the str-typed option rejects it, so
//   infs-opt --lower-pim='config=tiny tiles=16' x.mlir
// fails with "bad pipeline '...': Incompatible types: given (16,), expected
// <class 'str'>" (choose-layout and lower-pim alike; `tiles="16"` in an
// xDSL -p pipeline works, the MLIR-style flag strips the quotes).  Expected:
// the forced 1-D tiling, as `tiles=4x4` works for rank 2.
//
// RUN: infs-opt --lower-pim='config=tiny tiles=16' %s 2>&1 | filecheck %s

// CHECK-LABEL: func.func @forced_1d
// CHECK:         pimcmd.program {{.*}} lattice [32] tiles [16]
func.func @forced_1d(%A: memref<32xf32>, %B: memref<32xf32>) {
  tdfg.graph ins(%A, %B : memref<32xf32>, memref<32xf32>) rank 1 {
  ^bb0(%a: memref<32xf32>, %b: memref<32xf32>):
    %0 = tdfg.tensor %a [0:31] : memref<32xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.mv %0 dim 0 dist 1 : !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<32xf32>
    tdfg.yield
  }
  func.return
}
