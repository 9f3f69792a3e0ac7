// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' infs/workloads/loops/kmeans_outer.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> ((s0 floordiv 3) * 3)>
#map1 = affine_map<(d0) -> (d0 + 1)>
#map2 = affine_map<(d0) -> (d0 + 2)>
#map3 = affine_map<()[s0] -> ((s0 floordiv 3) * 3, 0)>
module {
  func.func @kmeans_outer(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>, %arg3: memref<?xi32>, %arg4: memref<?x?xf32>, %arg5: memref<?xi32>, %arg6: index, %arg7: index, %arg8: index) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0x7F800000 : f32
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    affine.for %arg9 = 0 to %arg6 {
      affine.for %arg10 = 0 to #map()[%arg8] step 3 {
        affine.store %cst, %arg2[%arg9, %arg10] : memref<?x?xf32>
        %0 = affine.apply #map1(%arg10)
        affine.store %cst, %arg2[%arg9, %0] : memref<?x?xf32>
        %1 = affine.apply #map2(%arg10)
        affine.store %cst, %arg2[%arg9, %1] : memref<?x?xf32>
      }
      affine.for %arg10 = max #map3()[%arg8] to %arg8 {
        affine.store %cst, %arg2[%arg9, %arg10] : memref<?x?xf32>
      }
    }
    affine.for %arg9 = 0 to %arg7 {
      affine.for %arg10 = 0 to %arg6 {
        affine.for %arg11 = 0 to #map()[%arg8] step 3 {
          %0 = affine.load %arg0[%arg10, %arg9] : memref<?x?xf32>
          %1 = affine.load %arg1[%arg9, %arg11] : memref<?x?xf32>
          %2 = affine.load %arg2[%arg10, %arg11] : memref<?x?xf32>
          %3 = arith.subf %0, %1 : f32
          %4 = arith.mulf %3, %3 : f32
          %5 = arith.addf %2, %4 : f32
          affine.store %5, %arg2[%arg10, %arg11] : memref<?x?xf32>
          %6 = affine.apply #map1(%arg11)
          %7 = affine.load %arg0[%arg10, %arg9] : memref<?x?xf32>
          %8 = affine.load %arg1[%arg9, %6] : memref<?x?xf32>
          %9 = affine.load %arg2[%arg10, %6] : memref<?x?xf32>
          %10 = arith.subf %7, %8 : f32
          %11 = arith.mulf %10, %10 : f32
          %12 = arith.addf %9, %11 : f32
          affine.store %12, %arg2[%arg10, %6] : memref<?x?xf32>
          %13 = affine.apply #map2(%arg11)
          %14 = affine.load %arg0[%arg10, %arg9] : memref<?x?xf32>
          %15 = affine.load %arg1[%arg9, %13] : memref<?x?xf32>
          %16 = affine.load %arg2[%arg10, %13] : memref<?x?xf32>
          %17 = arith.subf %14, %15 : f32
          %18 = arith.mulf %17, %17 : f32
          %19 = arith.addf %16, %18 : f32
          affine.store %19, %arg2[%arg10, %13] : memref<?x?xf32>
        }
        affine.for %arg11 = max #map3()[%arg8] to %arg8 {
          %0 = affine.load %arg0[%arg10, %arg9] : memref<?x?xf32>
          %1 = affine.load %arg1[%arg9, %arg11] : memref<?x?xf32>
          %2 = affine.load %arg2[%arg10, %arg11] : memref<?x?xf32>
          %3 = arith.subf %0, %1 : f32
          %4 = arith.mulf %3, %3 : f32
          %5 = arith.addf %2, %4 : f32
          affine.store %5, %arg2[%arg10, %arg11] : memref<?x?xf32>
        }
      }
    }
    affine.for %arg9 = 0 to %arg6 {
      %0:2 = affine.for %arg10 = 0 to #map()[%arg8] step 3 iter_args(%arg11 = %cst_0, %arg12 = %c0_i32) -> (f32, i32) {
        %2 = affine.load %arg2[%arg9, %arg10] : memref<?x?xf32>
        %3 = arith.cmpf olt, %2, %arg11 fastmath<nnan> : f32
        %4 = arith.index_cast %arg10 : index to i32
        %5 = arith.select %3, %2, %arg11 : f32
        %6 = arith.select %3, %4, %arg12 : i32
        %7 = affine.apply #map1(%arg10)
        %8 = affine.load %arg2[%arg9, %7] : memref<?x?xf32>
        %9 = arith.cmpf olt, %8, %5 fastmath<nnan> : f32
        %10 = arith.index_cast %7 : index to i32
        %11 = arith.select %9, %8, %5 : f32
        %12 = arith.select %9, %10, %6 : i32
        %13 = affine.apply #map2(%arg10)
        %14 = affine.load %arg2[%arg9, %13] : memref<?x?xf32>
        %15 = arith.cmpf olt, %14, %11 fastmath<nnan> : f32
        %16 = arith.index_cast %13 : index to i32
        %17 = arith.select %15, %14, %11 : f32
        %18 = arith.select %15, %16, %12 : i32
        affine.yield %17, %18 : f32, i32
      }
      %1:2 = affine.for %arg10 = max #map3()[%arg8] to %arg8 iter_args(%arg11 = %0#0, %arg12 = %0#1) -> (f32, i32) {
        %2 = affine.load %arg2[%arg9, %arg10] : memref<?x?xf32>
        %3 = arith.cmpf olt, %2, %arg11 fastmath<nnan> : f32
        %4 = arith.index_cast %arg10 : index to i32
        %5 = arith.select %3, %2, %arg11 : f32
        %6 = arith.select %3, %4, %arg12 : i32
        affine.yield %5, %6 : f32, i32
      }
      affine.store %1#1, %arg3[%arg9] : memref<?xi32>
    }
    affine.for %arg9 = 0 to %arg8 {
      affine.for %arg10 = 0 to #map()[%arg7] step 3 {
        affine.store %cst, %arg4[%arg9, %arg10] : memref<?x?xf32>
        %0 = affine.apply #map1(%arg10)
        affine.store %cst, %arg4[%arg9, %0] : memref<?x?xf32>
        %1 = affine.apply #map2(%arg10)
        affine.store %cst, %arg4[%arg9, %1] : memref<?x?xf32>
      }
      affine.for %arg10 = max #map3()[%arg7] to %arg7 {
        affine.store %cst, %arg4[%arg9, %arg10] : memref<?x?xf32>
      }
    }
    affine.for %arg9 = 0 to #map()[%arg8] step 3 {
      affine.store %c0_i32, %arg5[%arg9] : memref<?xi32>
      %0 = affine.apply #map1(%arg9)
      affine.store %c0_i32, %arg5[%0] : memref<?xi32>
      %1 = affine.apply #map2(%arg9)
      affine.store %c0_i32, %arg5[%1] : memref<?xi32>
    }
    affine.for %arg9 = max #map3()[%arg8] to %arg8 {
      affine.store %c0_i32, %arg5[%arg9] : memref<?xi32>
    }
    affine.for %arg9 = 0 to %arg6 {
      affine.for %arg10 = 0 to #map()[%arg7] step 3 {
        %0 = affine.load %arg3[%arg9] : memref<?xi32>
        %1 = arith.index_cast %0 : i32 to index
        %2 = affine.load %arg0[%arg9, %arg10] : memref<?x?xf32>
        %3 = memref.load %arg4[%1, %arg10] : memref<?x?xf32>
        %4 = arith.addf %3, %2 : f32
        memref.store %4, %arg4[%1, %arg10] : memref<?x?xf32>
        %5 = affine.apply #map1(%arg10)
        %6 = affine.load %arg3[%arg9] : memref<?xi32>
        %7 = arith.index_cast %6 : i32 to index
        %8 = affine.load %arg0[%arg9, %5] : memref<?x?xf32>
        %9 = memref.load %arg4[%7, %5] : memref<?x?xf32>
        %10 = arith.addf %9, %8 : f32
        memref.store %10, %arg4[%7, %5] : memref<?x?xf32>
        %11 = affine.apply #map2(%arg10)
        %12 = affine.load %arg3[%arg9] : memref<?xi32>
        %13 = arith.index_cast %12 : i32 to index
        %14 = affine.load %arg0[%arg9, %11] : memref<?x?xf32>
        %15 = memref.load %arg4[%13, %11] : memref<?x?xf32>
        %16 = arith.addf %15, %14 : f32
        memref.store %16, %arg4[%13, %11] : memref<?x?xf32>
      }
      affine.for %arg10 = max #map3()[%arg7] to %arg7 {
        %0 = affine.load %arg3[%arg9] : memref<?xi32>
        %1 = arith.index_cast %0 : i32 to index
        %2 = affine.load %arg0[%arg9, %arg10] : memref<?x?xf32>
        %3 = memref.load %arg4[%1, %arg10] : memref<?x?xf32>
        %4 = arith.addf %3, %2 : f32
        memref.store %4, %arg4[%1, %arg10] : memref<?x?xf32>
      }
    }
    affine.for %arg9 = 0 to #map()[%arg6] step 3 {
      %0 = affine.load %arg3[%arg9] : memref<?xi32>
      %1 = arith.index_cast %0 : i32 to index
      %2 = memref.load %arg5[%1] : memref<?xi32>
      %3 = arith.addi %2, %c1_i32 : i32
      memref.store %3, %arg5[%1] : memref<?xi32>
      %4 = affine.apply #map1(%arg9)
      %5 = affine.load %arg3[%4] : memref<?xi32>
      %6 = arith.index_cast %5 : i32 to index
      %7 = memref.load %arg5[%6] : memref<?xi32>
      %8 = arith.addi %7, %c1_i32 : i32
      memref.store %8, %arg5[%6] : memref<?xi32>
      %9 = affine.apply #map2(%arg9)
      %10 = affine.load %arg3[%9] : memref<?xi32>
      %11 = arith.index_cast %10 : i32 to index
      %12 = memref.load %arg5[%11] : memref<?xi32>
      %13 = arith.addi %12, %c1_i32 : i32
      memref.store %13, %arg5[%11] : memref<?xi32>
    }
    affine.for %arg9 = max #map3()[%arg6] to %arg6 {
      %0 = affine.load %arg3[%arg9] : memref<?xi32>
      %1 = arith.index_cast %0 : i32 to index
      %2 = memref.load %arg5[%1] : memref<?xi32>
      %3 = arith.addi %2, %c1_i32 : i32
      memref.store %3, %arg5[%1] : memref<?xi32>
    }
    affine.for %arg9 = 0 to %arg8 {
      affine.for %arg10 = 0 to #map()[%arg7] step 3 {
        %0 = affine.load %arg4[%arg9, %arg10] : memref<?x?xf32>
        %1 = affine.load %arg5[%arg9] : memref<?xi32>
        %2 = arith.cmpi eq, %1, %c0_i32 : i32
        %3 = arith.select %2, %c1_i32, %1 : i32
        %4 = arith.sitofp %3 : i32 to f32
        %5 = arith.divf %0, %4 : f32
        affine.store %5, %arg4[%arg9, %arg10] : memref<?x?xf32>
        %6 = affine.apply #map1(%arg10)
        %7 = affine.load %arg4[%arg9, %6] : memref<?x?xf32>
        %8 = affine.load %arg5[%arg9] : memref<?xi32>
        %9 = arith.cmpi eq, %8, %c0_i32 : i32
        %10 = arith.select %9, %c1_i32, %8 : i32
        %11 = arith.sitofp %10 : i32 to f32
        %12 = arith.divf %7, %11 : f32
        affine.store %12, %arg4[%arg9, %6] : memref<?x?xf32>
        %13 = affine.apply #map2(%arg10)
        %14 = affine.load %arg4[%arg9, %13] : memref<?x?xf32>
        %15 = affine.load %arg5[%arg9] : memref<?xi32>
        %16 = arith.cmpi eq, %15, %c0_i32 : i32
        %17 = arith.select %16, %c1_i32, %15 : i32
        %18 = arith.sitofp %17 : i32 to f32
        %19 = arith.divf %14, %18 : f32
        affine.store %19, %arg4[%arg9, %13] : memref<?x?xf32>
      }
      affine.for %arg10 = max #map3()[%arg7] to %arg7 {
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
