// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(lower-affine)' infs/workloads/loops/gauss_elim.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @gauss_elim(%arg0: memref<?x?xf32>, %arg1: memref<?xf32>, %arg2: memref<?xf32>, %arg3: index) {
    %c0 = arith.constant 0 : index
    %c-1 = arith.constant -1 : index
    %0 = arith.addi %arg3, %c-1 : index
    %c1 = arith.constant 1 : index
    scf.for %arg4 = %c0 to %0 step %c1 {
      %1 = memref.load %arg0[%arg4, %arg4] : memref<?x?xf32>
      %2 = memref.load %arg1[%arg4] : memref<?xf32>
      %c1_0 = arith.constant 1 : index
      %3 = arith.addi %arg4, %c1_0 : index
      %c1_1 = arith.constant 1 : index
      scf.for %arg5 = %3 to %arg3 step %c1_1 {
        %5 = memref.load %arg0[%arg5, %arg4] : memref<?x?xf32>
        %6 = arith.divf %5, %1 : f32
        memref.store %6, %arg2[%arg5] : memref<?xf32>
        %7 = memref.load %arg1[%arg5] : memref<?xf32>
        %8 = arith.mulf %6, %2 : f32
        %9 = arith.subf %7, %8 : f32
        memref.store %9, %arg1[%arg5] : memref<?xf32>
      }
      %c1_2 = arith.constant 1 : index
      %4 = arith.addi %arg4, %c1_2 : index
      %c1_3 = arith.constant 1 : index
      scf.for %arg5 = %4 to %arg3 step %c1_3 {
        %c1_4 = arith.constant 1 : index
        %5 = arith.addi %arg4, %c1_4 : index
        %c1_5 = arith.constant 1 : index
        scf.for %arg6 = %5 to %arg3 step %c1_5 {
          %6 = memref.load %arg2[%arg5] : memref<?xf32>
          %7 = memref.load %arg0[%arg4, %arg6] : memref<?x?xf32>
          %8 = memref.load %arg0[%arg5, %arg6] : memref<?x?xf32>
          %9 = arith.mulf %6, %7 : f32
          %10 = arith.subf %8, %9 : f32
          memref.store %10, %arg0[%arg5, %arg6] : memref<?x?xf32>
        }
      }
    }
    return
  }
}
