// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(lower-affine)' infs/workloads/loops/mm_outer.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @mm_outer(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>, %arg3: index, %arg4: index, %arg5: index) {
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %arg6 = %c0 to %arg3 step %c1 {
      %c0_2 = arith.constant 0 : index
      %c1_3 = arith.constant 1 : index
      scf.for %arg7 = %c0_2 to %arg4 step %c1_3 {
        memref.store %cst, %arg2[%arg6, %arg7] : memref<?x?xf32>
      }
    }
    %c0_0 = arith.constant 0 : index
    %c1_1 = arith.constant 1 : index
    scf.for %arg6 = %c0_0 to %arg5 step %c1_1 {
      %c0_2 = arith.constant 0 : index
      %c1_3 = arith.constant 1 : index
      scf.for %arg7 = %c0_2 to %arg3 step %c1_3 {
        %c0_4 = arith.constant 0 : index
        %c1_5 = arith.constant 1 : index
        scf.for %arg8 = %c0_4 to %arg4 step %c1_5 {
          %0 = memref.load %arg0[%arg7, %arg6] : memref<?x?xf32>
          %1 = memref.load %arg1[%arg6, %arg8] : memref<?x?xf32>
          %2 = memref.load %arg2[%arg7, %arg8] : memref<?x?xf32>
          %3 = arith.mulf %0, %1 : f32
          %4 = arith.addf %2, %3 : f32
          memref.store %4, %arg2[%arg7, %arg8] : memref<?x?xf32>
        }
      }
    }
    return
  }
}
