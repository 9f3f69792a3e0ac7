// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(canonicalize)' infs/workloads/loops/kmeans_inner.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @kmeans_inner(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>, %arg3: memref<?xi32>, %arg4: memref<?x?xf32>, %arg5: memref<?xi32>, %arg6: index, %arg7: index, %arg8: index) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0x7F800000 : f32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    affine.for %arg9 = 0 to %arg6 {
      affine.for %arg10 = 0 to %arg8 {
        %0 = affine.for %arg11 = 0 to %arg7 iter_args(%arg12 = %cst) -> (f32) {
          %1 = affine.load %arg0[%arg9, %arg11] : memref<?x?xf32>
          %2 = affine.load %arg1[%arg10, %arg11] : memref<?x?xf32>
          %3 = arith.subf %1, %2 : f32
          %4 = arith.mulf %3, %3 : f32
          %5 = arith.addf %arg12, %4 : f32
          affine.yield %5 : f32
        }
        affine.store %0, %arg2[%arg9, %arg10] : memref<?x?xf32>
      }
    }
    affine.for %arg9 = 0 to %arg6 {
      %0:2 = affine.for %arg10 = 0 to %arg8 iter_args(%arg11 = %cst_0, %arg12 = %c0_i32) -> (f32, i32) {
        %1 = affine.load %arg2[%arg9, %arg10] : memref<?x?xf32>
        %2 = arith.cmpf olt, %1, %arg11 fastmath<nnan> : f32
        %3 = arith.index_cast %arg10 : index to i32
        %4 = arith.select %2, %1, %arg11 : f32
        %5 = arith.select %2, %3, %arg12 : i32
        affine.yield %4, %5 : f32, i32
      }
      affine.store %0#1, %arg3[%arg9] : memref<?xi32>
    }
    affine.for %arg9 = 0 to %arg8 {
      affine.for %arg10 = 0 to %arg7 {
        affine.store %cst, %arg4[%arg9, %arg10] : memref<?x?xf32>
      }
    }
    affine.for %arg9 = 0 to %arg8 {
      affine.store %c0_i32, %arg5[%arg9] : memref<?xi32>
    }
    affine.for %arg9 = 0 to %arg6 {
      affine.for %arg10 = 0 to %arg7 {
        %0 = affine.load %arg3[%arg9] : memref<?xi32>
        %1 = arith.index_cast %0 : i32 to index
        %2 = affine.load %arg0[%arg9, %arg10] : memref<?x?xf32>
        %3 = memref.load %arg4[%1, %arg10] : memref<?x?xf32>
        %4 = arith.addf %3, %2 : f32
        memref.store %4, %arg4[%1, %arg10] : memref<?x?xf32>
      }
    }
    affine.for %arg9 = 0 to %arg6 {
      %0 = affine.load %arg3[%arg9] : memref<?xi32>
      %1 = arith.index_cast %0 : i32 to index
      %2 = memref.load %arg5[%1] : memref<?xi32>
      %3 = arith.addi %2, %c1_i32 : i32
      memref.store %3, %arg5[%1] : memref<?xi32>
    }
    affine.for %arg9 = 0 to %arg8 {
      affine.for %arg10 = 0 to %arg7 {
        %0 = affine.load %arg4[%arg9, %arg10] : memref<?x?xf32>
        %1 = affine.load %arg5[%arg9] : memref<?xi32>
        %2 = arith.cmpi eq, %1, %c0_i32 : i32
        %3 = arith.select %2, %c1_i32, %1 : i32
        %4 = arith.sitofp %3 : i32 to f32
        %5 = arith.divf %0, %4 : f32
        affine.store %5, %arg4[%arg9, %arg10] : memref<?x?xf32>
      }
    }
    return
  }
}
