// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-tile{tile-size=4}))' infs/workloads/loops/array_sum.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @array_sum(%arg0: memref<?xf32>, %arg1: index) -> f32 {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = affine.for %arg2 = 0 to %arg1 iter_args(%arg3 = %cst) -> (f32) {
      %1 = affine.load %arg0[%arg2] : memref<?xf32>
      %2 = arith.addf %arg3, %1 : f32
      affine.yield %2 : f32
    }
    return %0 : f32
  }
}
