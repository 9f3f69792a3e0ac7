// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(lower-affine)' infs/workloads/loops/dwt2d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @dwt2d(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>, %arg3: index, %arg4: index) {
    %c2 = arith.constant 2 : index
    %cst = arith.constant 5.000000e-01 : f32
    %0 = arith.divsi %arg3, %c2 : index
    %1 = arith.divsi %arg4, %c2 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %arg5 = %c0 to %arg3 step %c1 {
      %c0_2 = arith.constant 0 : index
      %c1_3 = arith.constant 1 : index
      scf.for %arg6 = %c0_2 to %1 step %c1_3 {
        %c2_4 = arith.constant 2 : index
        %2 = arith.muli %arg6, %c2_4 overflow<nsw> : index
        %3 = memref.load %arg0[%arg5, %2] : memref<?x?xf32>
        %c2_5 = arith.constant 2 : index
        %4 = arith.muli %arg6, %c2_5 overflow<nsw> : index
        %c1_6 = arith.constant 1 : index
        %5 = arith.addi %4, %c1_6 : index
        %6 = memref.load %arg0[%arg5, %5] : memref<?x?xf32>
        %7 = arith.subf %6, %3 : f32
        %8 = arith.mulf %7, %cst : f32
        %9 = arith.addf %3, %8 : f32
        memref.store %9, %arg1[%arg5, %arg6] : memref<?x?xf32>
        %10 = arith.addi %arg6, %1 : index
        memref.store %7, %arg1[%arg5, %10] : memref<?x?xf32>
      }
    }
    %c0_0 = arith.constant 0 : index
    %c1_1 = arith.constant 1 : index
    scf.for %arg5 = %c0_0 to %0 step %c1_1 {
      %c0_2 = arith.constant 0 : index
      %c1_3 = arith.constant 1 : index
      scf.for %arg6 = %c0_2 to %arg4 step %c1_3 {
        %c2_4 = arith.constant 2 : index
        %2 = arith.muli %arg5, %c2_4 overflow<nsw> : index
        %3 = memref.load %arg1[%2, %arg6] : memref<?x?xf32>
        %c2_5 = arith.constant 2 : index
        %4 = arith.muli %arg5, %c2_5 overflow<nsw> : index
        %c1_6 = arith.constant 1 : index
        %5 = arith.addi %4, %c1_6 : index
        %6 = memref.load %arg1[%5, %arg6] : memref<?x?xf32>
        %7 = arith.subf %6, %3 : f32
        %8 = arith.mulf %7, %cst : f32
        %9 = arith.addf %3, %8 : f32
        memref.store %9, %arg2[%arg5, %arg6] : memref<?x?xf32>
        %10 = arith.addi %arg5, %0 : index
        memref.store %7, %arg2[%10, %arg6] : memref<?x?xf32>
      }
    }
    return
  }
}
