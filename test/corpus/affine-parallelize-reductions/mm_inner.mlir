// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-parallelize{parallel-reductions=true}))' infs/workloads/loops/mm_inner.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @mm_inner(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>, %arg3: index, %arg4: index, %arg5: index) {
    %cst = arith.constant 0.000000e+00 : f32
    affine.parallel (%arg6) = (0) to (symbol(%arg3)) {
      affine.parallel (%arg7) = (0) to (symbol(%arg4)) {
        %0 = affine.parallel (%arg8) = (0) to (symbol(%arg5)) reduce ("addf") -> (f32) {
          %2 = affine.load %arg0[%arg6, %arg8] : memref<?x?xf32>
          %3 = affine.load %arg1[%arg7, %arg8] : memref<?x?xf32>
          %4 = arith.mulf %2, %3 : f32
          affine.yield %4 : f32
        }
        %1 = arith.addf %cst, %0 : f32
        affine.store %1, %arg2[%arg6, %arg7] : memref<?x?xf32>
      }
    }
    return
  }
}
