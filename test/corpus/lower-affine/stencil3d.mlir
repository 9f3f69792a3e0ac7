// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(lower-affine)' infs/workloads/loops/stencil3d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @stencil3d(%arg0: memref<?x?x?xf32>, %arg1: memref<?x?x?xf32>, %arg2: memref<?xf32>, %arg3: index, %arg4: index, %arg5: index, %arg6: index) {
    %c0 = arith.constant 0 : index
    %0 = memref.load %arg2[%c0] : memref<?xf32>
    %c1 = arith.constant 1 : index
    %1 = memref.load %arg2[%c1] : memref<?xf32>
    %c0_0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    scf.for %arg7 = %c0_0 to %arg6 step %c2 {
      %c1_1 = arith.constant 1 : index
      %c-1 = arith.constant -1 : index
      %2 = arith.addi %arg3, %c-1 : index
      %c1_2 = arith.constant 1 : index
      scf.for %arg8 = %c1_1 to %2 step %c1_2 {
        %c1_6 = arith.constant 1 : index
        %c-1_7 = arith.constant -1 : index
        %4 = arith.addi %arg4, %c-1_7 : index
        %c1_8 = arith.constant 1 : index
        scf.for %arg9 = %c1_6 to %4 step %c1_8 {
          %c1_9 = arith.constant 1 : index
          %c-1_10 = arith.constant -1 : index
          %5 = arith.addi %arg5, %c-1_10 : index
          %c1_11 = arith.constant 1 : index
          scf.for %arg10 = %c1_9 to %5 step %c1_11 {
            %c-1_12 = arith.constant -1 : index
            %6 = arith.addi %arg8, %c-1_12 : index
            %7 = memref.load %arg0[%6, %arg9, %arg10] : memref<?x?x?xf32>
            %c1_13 = arith.constant 1 : index
            %8 = arith.addi %arg8, %c1_13 : index
            %9 = memref.load %arg0[%8, %arg9, %arg10] : memref<?x?x?xf32>
            %c-1_14 = arith.constant -1 : index
            %10 = arith.addi %arg9, %c-1_14 : index
            %11 = memref.load %arg0[%arg8, %10, %arg10] : memref<?x?x?xf32>
            %c1_15 = arith.constant 1 : index
            %12 = arith.addi %arg9, %c1_15 : index
            %13 = memref.load %arg0[%arg8, %12, %arg10] : memref<?x?x?xf32>
            %c-1_16 = arith.constant -1 : index
            %14 = arith.addi %arg10, %c-1_16 : index
            %15 = memref.load %arg0[%arg8, %arg9, %14] : memref<?x?x?xf32>
            %c1_17 = arith.constant 1 : index
            %16 = arith.addi %arg10, %c1_17 : index
            %17 = memref.load %arg0[%arg8, %arg9, %16] : memref<?x?x?xf32>
            %18 = memref.load %arg0[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
            %19 = arith.mulf %0, %7 fastmath<reassoc,contract> : f32
            %20 = arith.mulf %0, %9 fastmath<reassoc,contract> : f32
            %21 = arith.addf %19, %20 fastmath<reassoc,contract> : f32
            %22 = arith.mulf %0, %11 fastmath<reassoc,contract> : f32
            %23 = arith.addf %21, %22 fastmath<reassoc,contract> : f32
            %24 = arith.mulf %0, %13 fastmath<reassoc,contract> : f32
            %25 = arith.addf %23, %24 fastmath<reassoc,contract> : f32
            %26 = arith.mulf %0, %15 fastmath<reassoc,contract> : f32
            %27 = arith.addf %25, %26 fastmath<reassoc,contract> : f32
            %28 = arith.mulf %0, %17 fastmath<reassoc,contract> : f32
            %29 = arith.addf %27, %28 fastmath<reassoc,contract> : f32
            %30 = arith.mulf %1, %18 fastmath<reassoc,contract> : f32
            %31 = arith.addf %29, %30 fastmath<reassoc,contract> : f32
            memref.store %31, %arg1[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
          }
        }
      }
      %c1_3 = arith.constant 1 : index
      %c-1_4 = arith.constant -1 : index
      %3 = arith.addi %arg3, %c-1_4 : index
      %c1_5 = arith.constant 1 : index
      scf.for %arg8 = %c1_3 to %3 step %c1_5 {
        %c1_6 = arith.constant 1 : index
        %c-1_7 = arith.constant -1 : index
        %4 = arith.addi %arg4, %c-1_7 : index
        %c1_8 = arith.constant 1 : index
        scf.for %arg9 = %c1_6 to %4 step %c1_8 {
          %c1_9 = arith.constant 1 : index
          %c-1_10 = arith.constant -1 : index
          %5 = arith.addi %arg5, %c-1_10 : index
          %c1_11 = arith.constant 1 : index
          scf.for %arg10 = %c1_9 to %5 step %c1_11 {
            %c-1_12 = arith.constant -1 : index
            %6 = arith.addi %arg8, %c-1_12 : index
            %7 = memref.load %arg1[%6, %arg9, %arg10] : memref<?x?x?xf32>
            %c1_13 = arith.constant 1 : index
            %8 = arith.addi %arg8, %c1_13 : index
            %9 = memref.load %arg1[%8, %arg9, %arg10] : memref<?x?x?xf32>
            %c-1_14 = arith.constant -1 : index
            %10 = arith.addi %arg9, %c-1_14 : index
            %11 = memref.load %arg1[%arg8, %10, %arg10] : memref<?x?x?xf32>
            %c1_15 = arith.constant 1 : index
            %12 = arith.addi %arg9, %c1_15 : index
            %13 = memref.load %arg1[%arg8, %12, %arg10] : memref<?x?x?xf32>
            %c-1_16 = arith.constant -1 : index
            %14 = arith.addi %arg10, %c-1_16 : index
            %15 = memref.load %arg1[%arg8, %arg9, %14] : memref<?x?x?xf32>
            %c1_17 = arith.constant 1 : index
            %16 = arith.addi %arg10, %c1_17 : index
            %17 = memref.load %arg1[%arg8, %arg9, %16] : memref<?x?x?xf32>
            %18 = memref.load %arg1[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
            %19 = arith.mulf %0, %7 fastmath<reassoc,contract> : f32
            %20 = arith.mulf %0, %9 fastmath<reassoc,contract> : f32
            %21 = arith.addf %19, %20 fastmath<reassoc,contract> : f32
            %22 = arith.mulf %0, %11 fastmath<reassoc,contract> : f32
            %23 = arith.addf %21, %22 fastmath<reassoc,contract> : f32
            %24 = arith.mulf %0, %13 fastmath<reassoc,contract> : f32
            %25 = arith.addf %23, %24 fastmath<reassoc,contract> : f32
            %26 = arith.mulf %0, %15 fastmath<reassoc,contract> : f32
            %27 = arith.addf %25, %26 fastmath<reassoc,contract> : f32
            %28 = arith.mulf %0, %17 fastmath<reassoc,contract> : f32
            %29 = arith.addf %27, %28 fastmath<reassoc,contract> : f32
            %30 = arith.mulf %1, %18 fastmath<reassoc,contract> : f32
            %31 = arith.addf %29, %30 fastmath<reassoc,contract> : f32
            memref.store %31, %arg0[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
          }
        }
      }
    }
    return
  }
}
