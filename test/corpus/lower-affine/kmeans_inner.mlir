// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(lower-affine)' infs/workloads/loops/kmeans_inner.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @kmeans_inner(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>, %arg3: memref<?xi32>, %arg4: memref<?x?xf32>, %arg5: memref<?xi32>, %arg6: index, %arg7: index, %arg8: index) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0x7F800000 : f32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %arg9 = %c0 to %arg6 step %c1 {
      %c0_13 = arith.constant 0 : index
      %c1_14 = arith.constant 1 : index
      scf.for %arg10 = %c0_13 to %arg8 step %c1_14 {
        %c0_15 = arith.constant 0 : index
        %c1_16 = arith.constant 1 : index
        %0 = scf.for %arg11 = %c0_15 to %arg7 step %c1_16 iter_args(%arg12 = %cst) -> (f32) {
          %1 = memref.load %arg0[%arg9, %arg11] : memref<?x?xf32>
          %2 = memref.load %arg1[%arg10, %arg11] : memref<?x?xf32>
          %3 = arith.subf %1, %2 : f32
          %4 = arith.mulf %3, %3 : f32
          %5 = arith.addf %arg12, %4 : f32
          scf.yield %5 : f32
        }
        memref.store %0, %arg2[%arg9, %arg10] : memref<?x?xf32>
      }
    }
    %c0_1 = arith.constant 0 : index
    %c1_2 = arith.constant 1 : index
    scf.for %arg9 = %c0_1 to %arg6 step %c1_2 {
      %c0_13 = arith.constant 0 : index
      %c1_14 = arith.constant 1 : index
      %0:2 = scf.for %arg10 = %c0_13 to %arg8 step %c1_14 iter_args(%arg11 = %cst_0, %arg12 = %c0_i32) -> (f32, i32) {
        %1 = memref.load %arg2[%arg9, %arg10] : memref<?x?xf32>
        %2 = arith.cmpf olt, %1, %arg11 fastmath<nnan> : f32
        %3 = arith.index_cast %arg10 : index to i32
        %4 = arith.select %2, %1, %arg11 : f32
        %5 = arith.select %2, %3, %arg12 : i32
        scf.yield %4, %5 : f32, i32
      }
      memref.store %0#1, %arg3[%arg9] : memref<?xi32>
    }
    %c0_3 = arith.constant 0 : index
    %c1_4 = arith.constant 1 : index
    scf.for %arg9 = %c0_3 to %arg8 step %c1_4 {
      %c0_13 = arith.constant 0 : index
      %c1_14 = arith.constant 1 : index
      scf.for %arg10 = %c0_13 to %arg7 step %c1_14 {
        memref.store %cst, %arg4[%arg9, %arg10] : memref<?x?xf32>
      }
    }
    %c0_5 = arith.constant 0 : index
    %c1_6 = arith.constant 1 : index
    scf.for %arg9 = %c0_5 to %arg8 step %c1_6 {
      memref.store %c0_i32, %arg5[%arg9] : memref<?xi32>
    }
    %c0_7 = arith.constant 0 : index
    %c1_8 = arith.constant 1 : index
    scf.for %arg9 = %c0_7 to %arg6 step %c1_8 {
      %c0_13 = arith.constant 0 : index
      %c1_14 = arith.constant 1 : index
      scf.for %arg10 = %c0_13 to %arg7 step %c1_14 {
        %0 = memref.load %arg3[%arg9] : memref<?xi32>
        %1 = arith.index_cast %0 : i32 to index
        %2 = memref.load %arg0[%arg9, %arg10] : memref<?x?xf32>
        %3 = memref.load %arg4[%1, %arg10] : memref<?x?xf32>
        %4 = arith.addf %3, %2 : f32
        memref.store %4, %arg4[%1, %arg10] : memref<?x?xf32>
      }
    }
    %c0_9 = arith.constant 0 : index
    %c1_10 = arith.constant 1 : index
    scf.for %arg9 = %c0_9 to %arg6 step %c1_10 {
      %0 = memref.load %arg3[%arg9] : memref<?xi32>
      %1 = arith.index_cast %0 : i32 to index
      %2 = memref.load %arg5[%1] : memref<?xi32>
      %3 = arith.addi %2, %c1_i32 : i32
      memref.store %3, %arg5[%1] : memref<?xi32>
    }
    %c0_11 = arith.constant 0 : index
    %c1_12 = arith.constant 1 : index
    scf.for %arg9 = %c0_11 to %arg8 step %c1_12 {
      %c0_13 = arith.constant 0 : index
      %c1_14 = arith.constant 1 : index
      scf.for %arg10 = %c0_13 to %arg7 step %c1_14 {
        %0 = memref.load %arg4[%arg9, %arg10] : memref<?x?xf32>
        %1 = memref.load %arg5[%arg9] : memref<?xi32>
        %2 = arith.cmpi eq, %1, %c0_i32 : i32
        %3 = arith.select %2, %c1_i32, %1 : i32
        %4 = arith.sitofp %3 : i32 to f32
        %5 = arith.divf %0, %4 : f32
        memref.store %5, %arg4[%arg9, %arg10] : memref<?x?xf32>
      }
    }
    return
  }
}
