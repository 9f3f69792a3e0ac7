// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-parallelize{parallel-reductions=true}))' infs/workloads/loops/gather_mlp_inner.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @gather_mlp_inner(%arg0: memref<?x?xf32>, %arg1: memref<?xi32>, %arg2: memref<?x?xf32>, %arg3: memref<?x?xf32>, %arg4: memref<?x?xf32>, %arg5: index, %arg6: index, %arg7: index) {
    %cst = arith.constant 0.000000e+00 : f32
    affine.for %arg8 = 0 to %arg5 {
      affine.for %arg9 = 0 to %arg6 {
        %0 = affine.load %arg1[%arg8] : memref<?xi32>
        %1 = arith.index_cast %0 : i32 to index
        %2 = memref.load %arg0[%1, %arg9] : memref<?x?xf32>
        affine.store %2, %arg2[%arg8, %arg9] : memref<?x?xf32>
      }
    }
    affine.parallel (%arg8) = (0) to (symbol(%arg5)) {
      affine.parallel (%arg9) = (0) to (symbol(%arg7)) {
        %0 = affine.parallel (%arg10) = (0) to (symbol(%arg6)) reduce ("addf") -> (f32) {
          %3 = affine.load %arg2[%arg8, %arg10] : memref<?x?xf32>
          %4 = affine.load %arg3[%arg9, %arg10] : memref<?x?xf32>
          %5 = arith.mulf %3, %4 : f32
          affine.yield %5 : f32
        }
        %1 = arith.addf %cst, %0 : f32
        %2 = arith.maximumf %1, %cst : f32
        affine.store %2, %arg4[%arg8, %arg9] : memref<?x?xf32>
      }
    }
    return
  }
}
