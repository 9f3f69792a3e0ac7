// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' infs/workloads/loops/mm_inner.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> ((s0 floordiv 3) * 3)>
#map1 = affine_map<(d0) -> (d0 + 1)>
#map2 = affine_map<(d0) -> (d0 + 2)>
#map3 = affine_map<()[s0] -> ((s0 floordiv 3) * 3, 0)>
module {
  func.func @mm_inner(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>, %arg3: index, %arg4: index, %arg5: index) {
    %cst = arith.constant 0.000000e+00 : f32
    affine.for %arg6 = 0 to %arg3 {
      affine.for %arg7 = 0 to %arg4 {
        %0 = affine.for %arg8 = 0 to #map()[%arg5] step 3 iter_args(%arg9 = %cst) -> (f32) {
          %2 = affine.load %arg0[%arg6, %arg8] : memref<?x?xf32>
          %3 = affine.load %arg1[%arg7, %arg8] : memref<?x?xf32>
          %4 = arith.mulf %2, %3 : f32
          %5 = arith.addf %arg9, %4 : f32
          %6 = affine.apply #map1(%arg8)
          %7 = affine.load %arg0[%arg6, %6] : memref<?x?xf32>
          %8 = affine.load %arg1[%arg7, %6] : memref<?x?xf32>
          %9 = arith.mulf %7, %8 : f32
          %10 = arith.addf %5, %9 : f32
          %11 = affine.apply #map2(%arg8)
          %12 = affine.load %arg0[%arg6, %11] : memref<?x?xf32>
          %13 = affine.load %arg1[%arg7, %11] : memref<?x?xf32>
          %14 = arith.mulf %12, %13 : f32
          %15 = arith.addf %10, %14 : f32
          affine.yield %15 : f32
        }
        %1 = affine.for %arg8 = max #map3()[%arg5] to %arg5 iter_args(%arg9 = %0) -> (f32) {
          %2 = affine.load %arg0[%arg6, %arg8] : memref<?x?xf32>
          %3 = affine.load %arg1[%arg7, %arg8] : memref<?x?xf32>
          %4 = arith.mulf %2, %3 : f32
          %5 = arith.addf %arg9, %4 : f32
          affine.yield %5 : f32
        }
        affine.store %1, %arg2[%arg6, %arg7] : memref<?x?xf32>
      }
    }
    return
  }
}
