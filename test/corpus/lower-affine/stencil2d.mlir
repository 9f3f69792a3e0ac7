// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(lower-affine)' infs/workloads/loops/stencil2d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @stencil2d(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?xf32>, %arg3: index, %arg4: index, %arg5: index) {
    %c0 = arith.constant 0 : index
    %0 = memref.load %arg2[%c0] : memref<?xf32>
    %c1 = arith.constant 1 : index
    %1 = memref.load %arg2[%c1] : memref<?xf32>
    %c0_0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    scf.for %arg6 = %c0_0 to %arg5 step %c2 {
      %c1_1 = arith.constant 1 : index
      %c-1 = arith.constant -1 : index
      %2 = arith.addi %arg3, %c-1 : index
      %c1_2 = arith.constant 1 : index
      scf.for %arg7 = %c1_1 to %2 step %c1_2 {
        %c1_6 = arith.constant 1 : index
        %c-1_7 = arith.constant -1 : index
        %4 = arith.addi %arg4, %c-1_7 : index
        %c1_8 = arith.constant 1 : index
        scf.for %arg8 = %c1_6 to %4 step %c1_8 {
          %c-1_9 = arith.constant -1 : index
          %5 = arith.addi %arg7, %c-1_9 : index
          %6 = memref.load %arg0[%5, %arg8] : memref<?x?xf32>
          %c1_10 = arith.constant 1 : index
          %7 = arith.addi %arg7, %c1_10 : index
          %8 = memref.load %arg0[%7, %arg8] : memref<?x?xf32>
          %c-1_11 = arith.constant -1 : index
          %9 = arith.addi %arg8, %c-1_11 : index
          %10 = memref.load %arg0[%arg7, %9] : memref<?x?xf32>
          %c1_12 = arith.constant 1 : index
          %11 = arith.addi %arg8, %c1_12 : index
          %12 = memref.load %arg0[%arg7, %11] : memref<?x?xf32>
          %13 = memref.load %arg0[%arg7, %arg8] : memref<?x?xf32>
          %14 = arith.mulf %0, %6 fastmath<reassoc,contract> : f32
          %15 = arith.mulf %0, %8 fastmath<reassoc,contract> : f32
          %16 = arith.addf %14, %15 fastmath<reassoc,contract> : f32
          %17 = arith.mulf %0, %10 fastmath<reassoc,contract> : f32
          %18 = arith.addf %16, %17 fastmath<reassoc,contract> : f32
          %19 = arith.mulf %0, %12 fastmath<reassoc,contract> : f32
          %20 = arith.addf %18, %19 fastmath<reassoc,contract> : f32
          %21 = arith.mulf %1, %13 fastmath<reassoc,contract> : f32
          %22 = arith.addf %20, %21 fastmath<reassoc,contract> : f32
          memref.store %22, %arg1[%arg7, %arg8] : memref<?x?xf32>
        }
      }
      %c1_3 = arith.constant 1 : index
      %c-1_4 = arith.constant -1 : index
      %3 = arith.addi %arg3, %c-1_4 : index
      %c1_5 = arith.constant 1 : index
      scf.for %arg7 = %c1_3 to %3 step %c1_5 {
        %c1_6 = arith.constant 1 : index
        %c-1_7 = arith.constant -1 : index
        %4 = arith.addi %arg4, %c-1_7 : index
        %c1_8 = arith.constant 1 : index
        scf.for %arg8 = %c1_6 to %4 step %c1_8 {
          %c-1_9 = arith.constant -1 : index
          %5 = arith.addi %arg7, %c-1_9 : index
          %6 = memref.load %arg1[%5, %arg8] : memref<?x?xf32>
          %c1_10 = arith.constant 1 : index
          %7 = arith.addi %arg7, %c1_10 : index
          %8 = memref.load %arg1[%7, %arg8] : memref<?x?xf32>
          %c-1_11 = arith.constant -1 : index
          %9 = arith.addi %arg8, %c-1_11 : index
          %10 = memref.load %arg1[%arg7, %9] : memref<?x?xf32>
          %c1_12 = arith.constant 1 : index
          %11 = arith.addi %arg8, %c1_12 : index
          %12 = memref.load %arg1[%arg7, %11] : memref<?x?xf32>
          %13 = memref.load %arg1[%arg7, %arg8] : memref<?x?xf32>
          %14 = arith.mulf %0, %6 fastmath<reassoc,contract> : f32
          %15 = arith.mulf %0, %8 fastmath<reassoc,contract> : f32
          %16 = arith.addf %14, %15 fastmath<reassoc,contract> : f32
          %17 = arith.mulf %0, %10 fastmath<reassoc,contract> : f32
          %18 = arith.addf %16, %17 fastmath<reassoc,contract> : f32
          %19 = arith.mulf %0, %12 fastmath<reassoc,contract> : f32
          %20 = arith.addf %18, %19 fastmath<reassoc,contract> : f32
          %21 = arith.mulf %1, %13 fastmath<reassoc,contract> : f32
          %22 = arith.addf %20, %21 fastmath<reassoc,contract> : f32
          memref.store %22, %arg0[%arg7, %arg8] : memref<?x?xf32>
        }
      }
    }
    return
  }
}
