// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(lower-affine)' infs/workloads/loops/gather_mlp_inner.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @gather_mlp_inner(%arg0: memref<?x?xf32>, %arg1: memref<?xi32>, %arg2: memref<?x?xf32>, %arg3: memref<?x?xf32>, %arg4: memref<?x?xf32>, %arg5: index, %arg6: index, %arg7: index) {
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %arg8 = %c0 to %arg5 step %c1 {
      %c0_2 = arith.constant 0 : index
      %c1_3 = arith.constant 1 : index
      scf.for %arg9 = %c0_2 to %arg6 step %c1_3 {
        %0 = memref.load %arg1[%arg8] : memref<?xi32>
        %1 = arith.index_cast %0 : i32 to index
        %2 = memref.load %arg0[%1, %arg9] : memref<?x?xf32>
        memref.store %2, %arg2[%arg8, %arg9] : memref<?x?xf32>
      }
    }
    %c0_0 = arith.constant 0 : index
    %c1_1 = arith.constant 1 : index
    scf.for %arg8 = %c0_0 to %arg5 step %c1_1 {
      %c0_2 = arith.constant 0 : index
      %c1_3 = arith.constant 1 : index
      scf.for %arg9 = %c0_2 to %arg7 step %c1_3 {
        %c0_4 = arith.constant 0 : index
        %c1_5 = arith.constant 1 : index
        %0 = scf.for %arg10 = %c0_4 to %arg6 step %c1_5 iter_args(%arg11 = %cst) -> (f32) {
          %2 = memref.load %arg2[%arg8, %arg10] : memref<?x?xf32>
          %3 = memref.load %arg3[%arg9, %arg10] : memref<?x?xf32>
          %4 = arith.mulf %2, %3 : f32
          %5 = arith.addf %arg11, %4 : f32
          scf.yield %5 : f32
        }
        %1 = arith.maximumf %0, %cst : f32
        memref.store %1, %arg4[%arg8, %arg9] : memref<?x?xf32>
      }
    }
    return
  }
}
