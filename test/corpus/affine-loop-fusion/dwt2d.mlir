// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-fusion))' infs/workloads/loops/dwt2d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @dwt2d(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>, %arg3: index, %arg4: index) {
    %c2 = arith.constant 2 : index
    %cst = arith.constant 5.000000e-01 : f32
    %0 = arith.divsi %arg3, %c2 : index
    %1 = arith.divsi %arg4, %c2 : index
    affine.for %arg5 = 0 to %arg3 {
      affine.for %arg6 = 0 to %1 {
        %2 = affine.load %arg0[%arg5, %arg6 * 2] : memref<?x?xf32>
        %3 = affine.load %arg0[%arg5, %arg6 * 2 + 1] : memref<?x?xf32>
        %4 = arith.subf %3, %2 : f32
        %5 = arith.mulf %4, %cst : f32
        %6 = arith.addf %2, %5 : f32
        affine.store %6, %arg1[%arg5, %arg6] : memref<?x?xf32>
        affine.store %4, %arg1[%arg5, %arg6 + %1] : memref<?x?xf32>
      }
    }
    affine.for %arg5 = 0 to %0 {
      affine.for %arg6 = 0 to %arg4 {
        %2 = affine.load %arg1[%arg5 * 2, %arg6] : memref<?x?xf32>
        %3 = affine.load %arg1[%arg5 * 2 + 1, %arg6] : memref<?x?xf32>
        %4 = arith.subf %3, %2 : f32
        %5 = arith.mulf %4, %cst : f32
        %6 = arith.addf %2, %5 : f32
        affine.store %6, %arg2[%arg5, %arg6] : memref<?x?xf32>
        affine.store %4, %arg2[%arg5 + %0, %arg6] : memref<?x?xf32>
      }
    }
    return
  }
}
