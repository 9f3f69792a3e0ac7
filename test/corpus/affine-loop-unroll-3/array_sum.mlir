// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' infs/workloads/loops/array_sum.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> ((s0 floordiv 3) * 3)>
#map1 = affine_map<(d0) -> (d0 + 1)>
#map2 = affine_map<(d0) -> (d0 + 2)>
#map3 = affine_map<()[s0] -> ((s0 floordiv 3) * 3, 0)>
module {
  func.func @array_sum(%arg0: memref<?xf32>, %arg1: index) -> f32 {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = affine.for %arg2 = 0 to #map()[%arg1] step 3 iter_args(%arg3 = %cst) -> (f32) {
      %2 = affine.load %arg0[%arg2] : memref<?xf32>
      %3 = arith.addf %arg3, %2 : f32
      %4 = affine.apply #map1(%arg2)
      %5 = affine.load %arg0[%4] : memref<?xf32>
      %6 = arith.addf %3, %5 : f32
      %7 = affine.apply #map2(%arg2)
      %8 = affine.load %arg0[%7] : memref<?xf32>
      %9 = arith.addf %6, %8 : f32
      affine.yield %9 : f32
    }
    %1 = affine.for %arg2 = max #map3()[%arg1] to %arg1 iter_args(%arg3 = %0) -> (f32) {
      %2 = affine.load %arg0[%arg2] : memref<?xf32>
      %3 = arith.addf %arg3, %2 : f32
      affine.yield %3 : f32
    }
    return %1 : f32
  }
}
