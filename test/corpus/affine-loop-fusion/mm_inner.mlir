// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-fusion))' infs/workloads/loops/mm_inner.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @mm_inner(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>, %arg3: index, %arg4: index, %arg5: index) {
    %cst = arith.constant 0.000000e+00 : f32
    affine.for %arg6 = 0 to %arg3 {
      affine.for %arg7 = 0 to %arg4 {
        %0 = affine.for %arg8 = 0 to %arg5 iter_args(%arg9 = %cst) -> (f32) {
          %1 = affine.load %arg0[%arg6, %arg8] : memref<?x?xf32>
          %2 = affine.load %arg1[%arg7, %arg8] : memref<?x?xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %arg9, %3 : f32
          affine.yield %4 : f32
        }
        affine.store %0, %arg2[%arg6, %arg7] : memref<?x?xf32>
      }
    }
    return
  }
}
