// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(lower-affine)' infs/workloads/loops/conv3d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @conv3d(%arg0: memref<?x?x?xf32>, %arg1: memref<?x?x?xf32>, %arg2: memref<?x?x?xf32>, %arg3: index, %arg4: index, %arg5: index, %arg6: index) {
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %arg7 = %c0 to %arg4 step %c1 {
      %c0_2 = arith.constant 0 : index
      %c1_3 = arith.constant 1 : index
      scf.for %arg8 = %c0_2 to %arg5 step %c1_3 {
        %c0_4 = arith.constant 0 : index
        %c1_5 = arith.constant 1 : index
        scf.for %arg9 = %c0_4 to %arg6 step %c1_5 {
          memref.store %cst, %arg2[%arg7, %arg8, %arg9] : memref<?x?x?xf32>
        }
      }
    }
    %c0_0 = arith.constant 0 : index
    %c1_1 = arith.constant 1 : index
    scf.for %arg7 = %c0_0 to %arg3 step %c1_1 {
      %c0_2 = arith.constant 0 : index
      %c1_3 = arith.constant 1 : index
      scf.for %arg8 = %c0_2 to %arg4 step %c1_3 {
        %c1_4 = arith.constant 1 : index
        %c-1 = arith.constant -1 : index
        %0 = arith.addi %arg5, %c-1 : index
        %c1_5 = arith.constant 1 : index
        scf.for %arg9 = %c1_4 to %0 step %c1_5 {
          %c1_6 = arith.constant 1 : index
          %c-1_7 = arith.constant -1 : index
          %1 = arith.addi %arg6, %c-1_7 : index
          %c1_8 = arith.constant 1 : index
          scf.for %arg10 = %c1_6 to %1 step %c1_8 {
            %c-1_9 = arith.constant -1 : index
            %2 = arith.addi %arg9, %c-1_9 : index
            %c-1_10 = arith.constant -1 : index
            %3 = arith.addi %arg10, %c-1_10 : index
            %4 = memref.load %arg0[%arg7, %2, %3] : memref<?x?x?xf32>
            %c-1_11 = arith.constant -1 : index
            %5 = arith.addi %arg9, %c-1_11 : index
            %6 = memref.load %arg0[%arg7, %5, %arg10] : memref<?x?x?xf32>
            %c-1_12 = arith.constant -1 : index
            %7 = arith.addi %arg9, %c-1_12 : index
            %c1_13 = arith.constant 1 : index
            %8 = arith.addi %arg10, %c1_13 : index
            %9 = memref.load %arg0[%arg7, %7, %8] : memref<?x?x?xf32>
            %c-1_14 = arith.constant -1 : index
            %10 = arith.addi %arg10, %c-1_14 : index
            %11 = memref.load %arg0[%arg7, %arg9, %10] : memref<?x?x?xf32>
            %12 = memref.load %arg0[%arg7, %arg9, %arg10] : memref<?x?x?xf32>
            %c1_15 = arith.constant 1 : index
            %13 = arith.addi %arg10, %c1_15 : index
            %14 = memref.load %arg0[%arg7, %arg9, %13] : memref<?x?x?xf32>
            %c1_16 = arith.constant 1 : index
            %15 = arith.addi %arg9, %c1_16 : index
            %c-1_17 = arith.constant -1 : index
            %16 = arith.addi %arg10, %c-1_17 : index
            %17 = memref.load %arg0[%arg7, %15, %16] : memref<?x?x?xf32>
            %c1_18 = arith.constant 1 : index
            %18 = arith.addi %arg9, %c1_18 : index
            %19 = memref.load %arg0[%arg7, %18, %arg10] : memref<?x?x?xf32>
            %c1_19 = arith.constant 1 : index
            %20 = arith.addi %arg9, %c1_19 : index
            %c1_20 = arith.constant 1 : index
            %21 = arith.addi %arg10, %c1_20 : index
            %22 = memref.load %arg0[%arg7, %20, %21] : memref<?x?x?xf32>
            %c0_21 = arith.constant 0 : index
            %23 = memref.load %arg1[%arg8, %arg7, %c0_21] : memref<?x?x?xf32>
            %c1_22 = arith.constant 1 : index
            %24 = memref.load %arg1[%arg8, %arg7, %c1_22] : memref<?x?x?xf32>
            %c2 = arith.constant 2 : index
            %25 = memref.load %arg1[%arg8, %arg7, %c2] : memref<?x?x?xf32>
            %c3 = arith.constant 3 : index
            %26 = memref.load %arg1[%arg8, %arg7, %c3] : memref<?x?x?xf32>
            %c4 = arith.constant 4 : index
            %27 = memref.load %arg1[%arg8, %arg7, %c4] : memref<?x?x?xf32>
            %c5 = arith.constant 5 : index
            %28 = memref.load %arg1[%arg8, %arg7, %c5] : memref<?x?x?xf32>
            %c6 = arith.constant 6 : index
            %29 = memref.load %arg1[%arg8, %arg7, %c6] : memref<?x?x?xf32>
            %c7 = arith.constant 7 : index
            %30 = memref.load %arg1[%arg8, %arg7, %c7] : memref<?x?x?xf32>
            %c8 = arith.constant 8 : index
            %31 = memref.load %arg1[%arg8, %arg7, %c8] : memref<?x?x?xf32>
            %32 = arith.mulf %23, %4 fastmath<reassoc,contract> : f32
            %33 = arith.mulf %24, %6 fastmath<reassoc,contract> : f32
            %34 = arith.addf %32, %33 fastmath<reassoc,contract> : f32
            %35 = arith.mulf %25, %9 fastmath<reassoc,contract> : f32
            %36 = arith.addf %34, %35 fastmath<reassoc,contract> : f32
            %37 = arith.mulf %26, %11 fastmath<reassoc,contract> : f32
            %38 = arith.mulf %27, %12 fastmath<reassoc,contract> : f32
            %39 = arith.addf %37, %38 fastmath<reassoc,contract> : f32
            %40 = arith.mulf %28, %14 fastmath<reassoc,contract> : f32
            %41 = arith.addf %39, %40 fastmath<reassoc,contract> : f32
            %42 = arith.mulf %29, %17 fastmath<reassoc,contract> : f32
            %43 = arith.mulf %30, %19 fastmath<reassoc,contract> : f32
            %44 = arith.addf %42, %43 fastmath<reassoc,contract> : f32
            %45 = arith.mulf %31, %22 fastmath<reassoc,contract> : f32
            %46 = arith.addf %44, %45 fastmath<reassoc,contract> : f32
            %47 = arith.addf %36, %41 fastmath<reassoc,contract> : f32
            %48 = arith.addf %47, %46 fastmath<reassoc,contract> : f32
            %49 = memref.load %arg2[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
            %50 = arith.addf %49, %48 fastmath<reassoc,contract> : f32
            memref.store %50, %arg2[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
          }
        }
      }
    }
    return
  }
}
