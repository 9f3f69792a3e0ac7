// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(lower-affine)' infs/workloads/loops/stencil1d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @stencil1d(%arg0: memref<?xf32>, %arg1: memref<?xf32>, %arg2: memref<?xf32>, %arg3: index, %arg4: index) {
    %c0 = arith.constant 0 : index
    %0 = memref.load %arg2[%c0] : memref<?xf32>
    %c1 = arith.constant 1 : index
    %1 = memref.load %arg2[%c1] : memref<?xf32>
    %c0_0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    scf.for %arg5 = %c0_0 to %arg4 step %c2 {
      %c1_1 = arith.constant 1 : index
      %c-1 = arith.constant -1 : index
      %2 = arith.addi %arg3, %c-1 : index
      %c1_2 = arith.constant 1 : index
      scf.for %arg6 = %c1_1 to %2 step %c1_2 {
        %c-1_6 = arith.constant -1 : index
        %4 = arith.addi %arg6, %c-1_6 : index
        %5 = memref.load %arg0[%4] : memref<?xf32>
        %c1_7 = arith.constant 1 : index
        %6 = arith.addi %arg6, %c1_7 : index
        %7 = memref.load %arg0[%6] : memref<?xf32>
        %8 = memref.load %arg0[%arg6] : memref<?xf32>
        %9 = arith.mulf %0, %5 fastmath<reassoc,contract> : f32
        %10 = arith.mulf %0, %7 fastmath<reassoc,contract> : f32
        %11 = arith.addf %9, %10 fastmath<reassoc,contract> : f32
        %12 = arith.mulf %1, %8 fastmath<reassoc,contract> : f32
        %13 = arith.addf %11, %12 fastmath<reassoc,contract> : f32
        memref.store %13, %arg1[%arg6] : memref<?xf32>
      }
      %c1_3 = arith.constant 1 : index
      %c-1_4 = arith.constant -1 : index
      %3 = arith.addi %arg3, %c-1_4 : index
      %c1_5 = arith.constant 1 : index
      scf.for %arg6 = %c1_3 to %3 step %c1_5 {
        %c-1_6 = arith.constant -1 : index
        %4 = arith.addi %arg6, %c-1_6 : index
        %5 = memref.load %arg1[%4] : memref<?xf32>
        %c1_7 = arith.constant 1 : index
        %6 = arith.addi %arg6, %c1_7 : index
        %7 = memref.load %arg1[%6] : memref<?xf32>
        %8 = memref.load %arg1[%arg6] : memref<?xf32>
        %9 = arith.mulf %0, %5 fastmath<reassoc,contract> : f32
        %10 = arith.mulf %0, %7 fastmath<reassoc,contract> : f32
        %11 = arith.addf %9, %10 fastmath<reassoc,contract> : f32
        %12 = arith.mulf %1, %8 fastmath<reassoc,contract> : f32
        %13 = arith.addf %11, %12 fastmath<reassoc,contract> : f32
        memref.store %13, %arg0[%arg6] : memref<?xf32>
      }
    }
    return
  }
}
