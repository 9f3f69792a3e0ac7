// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' infs/workloads/loops/gather_mlp_outer.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> ((s0 floordiv 3) * 3)>
#map1 = affine_map<(d0) -> (d0 + 1)>
#map2 = affine_map<(d0) -> (d0 + 2)>
#map3 = affine_map<()[s0] -> ((s0 floordiv 3) * 3, 0)>
module {
  func.func @gather_mlp_outer(%arg0: memref<?x?xf32>, %arg1: memref<?xi32>, %arg2: memref<?x?xf32>, %arg3: memref<?x?xf32>, %arg4: memref<?x?xf32>, %arg5: index, %arg6: index, %arg7: index) {
    %cst = arith.constant 0.000000e+00 : f32
    affine.for %arg8 = 0 to %arg5 {
      affine.for %arg9 = 0 to #map()[%arg6] step 3 {
        %0 = affine.load %arg1[%arg8] : memref<?xi32>
        %1 = arith.index_cast %0 : i32 to index
        %2 = memref.load %arg0[%1, %arg9] : memref<?x?xf32>
        affine.store %2, %arg2[%arg8, %arg9] : memref<?x?xf32>
        %3 = affine.apply #map1(%arg9)
        %4 = affine.load %arg1[%arg8] : memref<?xi32>
        %5 = arith.index_cast %4 : i32 to index
        %6 = memref.load %arg0[%5, %3] : memref<?x?xf32>
        affine.store %6, %arg2[%arg8, %3] : memref<?x?xf32>
        %7 = affine.apply #map2(%arg9)
        %8 = affine.load %arg1[%arg8] : memref<?xi32>
        %9 = arith.index_cast %8 : i32 to index
        %10 = memref.load %arg0[%9, %7] : memref<?x?xf32>
        affine.store %10, %arg2[%arg8, %7] : memref<?x?xf32>
      }
      affine.for %arg9 = max #map3()[%arg6] to %arg6 {
        %0 = affine.load %arg1[%arg8] : memref<?xi32>
        %1 = arith.index_cast %0 : i32 to index
        %2 = memref.load %arg0[%1, %arg9] : memref<?x?xf32>
        affine.store %2, %arg2[%arg8, %arg9] : memref<?x?xf32>
      }
    }
    affine.for %arg8 = 0 to %arg5 {
      affine.for %arg9 = 0 to #map()[%arg7] step 3 {
        affine.store %cst, %arg4[%arg8, %arg9] : memref<?x?xf32>
        %0 = affine.apply #map1(%arg9)
        affine.store %cst, %arg4[%arg8, %0] : memref<?x?xf32>
        %1 = affine.apply #map2(%arg9)
        affine.store %cst, %arg4[%arg8, %1] : memref<?x?xf32>
      }
      affine.for %arg9 = max #map3()[%arg7] to %arg7 {
        affine.store %cst, %arg4[%arg8, %arg9] : memref<?x?xf32>
      }
    }
    affine.for %arg8 = 0 to %arg6 {
      affine.for %arg9 = 0 to %arg5 {
        affine.for %arg10 = 0 to #map()[%arg7] step 3 {
          %0 = affine.load %arg2[%arg9, %arg8] : memref<?x?xf32>
          %1 = affine.load %arg3[%arg8, %arg10] : memref<?x?xf32>
          %2 = affine.load %arg4[%arg9, %arg10] : memref<?x?xf32>
          %3 = arith.mulf %0, %1 : f32
          %4 = arith.addf %2, %3 : f32
          affine.store %4, %arg4[%arg9, %arg10] : memref<?x?xf32>
          %5 = affine.apply #map1(%arg10)
          %6 = affine.load %arg2[%arg9, %arg8] : memref<?x?xf32>
          %7 = affine.load %arg3[%arg8, %5] : memref<?x?xf32>
          %8 = affine.load %arg4[%arg9, %5] : memref<?x?xf32>
          %9 = arith.mulf %6, %7 : f32
          %10 = arith.addf %8, %9 : f32
          affine.store %10, %arg4[%arg9, %5] : memref<?x?xf32>
          %11 = affine.apply #map2(%arg10)
          %12 = affine.load %arg2[%arg9, %arg8] : memref<?x?xf32>
          %13 = affine.load %arg3[%arg8, %11] : memref<?x?xf32>
          %14 = affine.load %arg4[%arg9, %11] : memref<?x?xf32>
          %15 = arith.mulf %12, %13 : f32
          %16 = arith.addf %14, %15 : f32
          affine.store %16, %arg4[%arg9, %11] : memref<?x?xf32>
        }
        affine.for %arg10 = max #map3()[%arg7] to %arg7 {
          %0 = affine.load %arg2[%arg9, %arg8] : memref<?x?xf32>
          %1 = affine.load %arg3[%arg8, %arg10] : memref<?x?xf32>
          %2 = affine.load %arg4[%arg9, %arg10] : memref<?x?xf32>
          %3 = arith.mulf %0, %1 : f32
          %4 = arith.addf %2, %3 : f32
          affine.store %4, %arg4[%arg9, %arg10] : memref<?x?xf32>
        }
      }
    }
    affine.for %arg8 = 0 to %arg5 {
      affine.for %arg9 = 0 to #map()[%arg7] step 3 {
        %0 = affine.load %arg4[%arg8, %arg9] : memref<?x?xf32>
        %1 = arith.maximumf %0, %cst : f32
        affine.store %1, %arg4[%arg8, %arg9] : memref<?x?xf32>
        %2 = affine.apply #map1(%arg9)
        %3 = affine.load %arg4[%arg8, %2] : memref<?x?xf32>
        %4 = arith.maximumf %3, %cst : f32
        affine.store %4, %arg4[%arg8, %2] : memref<?x?xf32>
        %5 = affine.apply #map2(%arg9)
        %6 = affine.load %arg4[%arg8, %5] : memref<?x?xf32>
        %7 = arith.maximumf %6, %cst : f32
        affine.store %7, %arg4[%arg8, %5] : memref<?x?xf32>
      }
      affine.for %arg9 = max #map3()[%arg7] to %arg7 {
        %0 = affine.load %arg4[%arg8, %arg9] : memref<?x?xf32>
        %1 = arith.maximumf %0, %cst : f32
        affine.store %1, %arg4[%arg8, %arg9] : memref<?x?xf32>
      }
    }
    return
  }
}
