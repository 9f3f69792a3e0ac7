// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(lower-affine)' infs/workloads/loops/conv2d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @conv2d(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>, %arg3: index, %arg4: index) {
    %c0 = arith.constant 0 : index
    %c0_0 = arith.constant 0 : index
    %0 = memref.load %arg1[%c0, %c0_0] : memref<?x?xf32>
    %c0_1 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %1 = memref.load %arg1[%c0_1, %c1] : memref<?x?xf32>
    %c0_2 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %2 = memref.load %arg1[%c0_2, %c2] : memref<?x?xf32>
    %c1_3 = arith.constant 1 : index
    %c0_4 = arith.constant 0 : index
    %3 = memref.load %arg1[%c1_3, %c0_4] : memref<?x?xf32>
    %c1_5 = arith.constant 1 : index
    %c1_6 = arith.constant 1 : index
    %4 = memref.load %arg1[%c1_5, %c1_6] : memref<?x?xf32>
    %c1_7 = arith.constant 1 : index
    %c2_8 = arith.constant 2 : index
    %5 = memref.load %arg1[%c1_7, %c2_8] : memref<?x?xf32>
    %c2_9 = arith.constant 2 : index
    %c0_10 = arith.constant 0 : index
    %6 = memref.load %arg1[%c2_9, %c0_10] : memref<?x?xf32>
    %c2_11 = arith.constant 2 : index
    %c1_12 = arith.constant 1 : index
    %7 = memref.load %arg1[%c2_11, %c1_12] : memref<?x?xf32>
    %c2_13 = arith.constant 2 : index
    %c2_14 = arith.constant 2 : index
    %8 = memref.load %arg1[%c2_13, %c2_14] : memref<?x?xf32>
    %c1_15 = arith.constant 1 : index
    %c-1 = arith.constant -1 : index
    %9 = arith.addi %arg3, %c-1 : index
    %c1_16 = arith.constant 1 : index
    scf.for %arg5 = %c1_15 to %9 step %c1_16 {
      %c1_17 = arith.constant 1 : index
      %c-1_18 = arith.constant -1 : index
      %10 = arith.addi %arg4, %c-1_18 : index
      %c1_19 = arith.constant 1 : index
      scf.for %arg6 = %c1_17 to %10 step %c1_19 {
        %c-1_20 = arith.constant -1 : index
        %11 = arith.addi %arg5, %c-1_20 : index
        %c-1_21 = arith.constant -1 : index
        %12 = arith.addi %arg6, %c-1_21 : index
        %13 = memref.load %arg0[%11, %12] : memref<?x?xf32>
        %c-1_22 = arith.constant -1 : index
        %14 = arith.addi %arg5, %c-1_22 : index
        %15 = memref.load %arg0[%14, %arg6] : memref<?x?xf32>
        %c-1_23 = arith.constant -1 : index
        %16 = arith.addi %arg5, %c-1_23 : index
        %c1_24 = arith.constant 1 : index
        %17 = arith.addi %arg6, %c1_24 : index
        %18 = memref.load %arg0[%16, %17] : memref<?x?xf32>
        %c-1_25 = arith.constant -1 : index
        %19 = arith.addi %arg6, %c-1_25 : index
        %20 = memref.load %arg0[%arg5, %19] : memref<?x?xf32>
        %21 = memref.load %arg0[%arg5, %arg6] : memref<?x?xf32>
        %c1_26 = arith.constant 1 : index
        %22 = arith.addi %arg6, %c1_26 : index
        %23 = memref.load %arg0[%arg5, %22] : memref<?x?xf32>
        %c1_27 = arith.constant 1 : index
        %24 = arith.addi %arg5, %c1_27 : index
        %c-1_28 = arith.constant -1 : index
        %25 = arith.addi %arg6, %c-1_28 : index
        %26 = memref.load %arg0[%24, %25] : memref<?x?xf32>
        %c1_29 = arith.constant 1 : index
        %27 = arith.addi %arg5, %c1_29 : index
        %28 = memref.load %arg0[%27, %arg6] : memref<?x?xf32>
        %c1_30 = arith.constant 1 : index
        %29 = arith.addi %arg5, %c1_30 : index
        %c1_31 = arith.constant 1 : index
        %30 = arith.addi %arg6, %c1_31 : index
        %31 = memref.load %arg0[%29, %30] : memref<?x?xf32>
        %32 = arith.mulf %0, %13 fastmath<reassoc,contract> : f32
        %33 = arith.mulf %1, %15 fastmath<reassoc,contract> : f32
        %34 = arith.addf %32, %33 fastmath<reassoc,contract> : f32
        %35 = arith.mulf %2, %18 fastmath<reassoc,contract> : f32
        %36 = arith.addf %34, %35 fastmath<reassoc,contract> : f32
        %37 = arith.mulf %3, %20 fastmath<reassoc,contract> : f32
        %38 = arith.mulf %4, %21 fastmath<reassoc,contract> : f32
        %39 = arith.addf %37, %38 fastmath<reassoc,contract> : f32
        %40 = arith.mulf %5, %23 fastmath<reassoc,contract> : f32
        %41 = arith.addf %39, %40 fastmath<reassoc,contract> : f32
        %42 = arith.mulf %6, %26 fastmath<reassoc,contract> : f32
        %43 = arith.mulf %7, %28 fastmath<reassoc,contract> : f32
        %44 = arith.addf %42, %43 fastmath<reassoc,contract> : f32
        %45 = arith.mulf %8, %31 fastmath<reassoc,contract> : f32
        %46 = arith.addf %44, %45 fastmath<reassoc,contract> : f32
        %47 = arith.addf %36, %41 fastmath<reassoc,contract> : f32
        %48 = arith.addf %47, %46 fastmath<reassoc,contract> : f32
        memref.store %48, %arg2[%arg5, %arg6] : memref<?x?xf32>
      }
    }
    return
  }
}
