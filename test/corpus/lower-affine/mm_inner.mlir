// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(lower-affine)' infs/workloads/loops/mm_inner.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @mm_inner(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>, %arg3: index, %arg4: index, %arg5: index) {
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %arg6 = %c0 to %arg3 step %c1 {
      %c0_0 = arith.constant 0 : index
      %c1_1 = arith.constant 1 : index
      scf.for %arg7 = %c0_0 to %arg4 step %c1_1 {
        %c0_2 = arith.constant 0 : index
        %c1_3 = arith.constant 1 : index
        %0 = scf.for %arg8 = %c0_2 to %arg5 step %c1_3 iter_args(%arg9 = %cst) -> (f32) {
          %1 = memref.load %arg0[%arg6, %arg8] : memref<?x?xf32>
          %2 = memref.load %arg1[%arg7, %arg8] : memref<?x?xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %arg9, %3 : f32
          scf.yield %4 : f32
        }
        memref.store %0, %arg2[%arg6, %arg7] : memref<?x?xf32>
      }
    }
    return
  }
}
