// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' infs/workloads/loops/mm_outer.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> ((s0 floordiv 3) * 3)>
#map1 = affine_map<(d0) -> (d0 + 1)>
#map2 = affine_map<(d0) -> (d0 + 2)>
#map3 = affine_map<()[s0] -> ((s0 floordiv 3) * 3, 0)>
module {
  func.func @mm_outer(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>, %arg3: index, %arg4: index, %arg5: index) {
    %cst = arith.constant 0.000000e+00 : f32
    affine.for %arg6 = 0 to %arg3 {
      affine.for %arg7 = 0 to #map()[%arg4] step 3 {
        affine.store %cst, %arg2[%arg6, %arg7] : memref<?x?xf32>
        %0 = affine.apply #map1(%arg7)
        affine.store %cst, %arg2[%arg6, %0] : memref<?x?xf32>
        %1 = affine.apply #map2(%arg7)
        affine.store %cst, %arg2[%arg6, %1] : memref<?x?xf32>
      }
      affine.for %arg7 = max #map3()[%arg4] to %arg4 {
        affine.store %cst, %arg2[%arg6, %arg7] : memref<?x?xf32>
      }
    }
    affine.for %arg6 = 0 to %arg5 {
      affine.for %arg7 = 0 to %arg3 {
        affine.for %arg8 = 0 to #map()[%arg4] step 3 {
          %0 = affine.load %arg0[%arg7, %arg6] : memref<?x?xf32>
          %1 = affine.load %arg1[%arg6, %arg8] : memref<?x?xf32>
          %2 = affine.load %arg2[%arg7, %arg8] : memref<?x?xf32>
          %3 = arith.mulf %0, %1 : f32
          %4 = arith.addf %2, %3 : f32
          affine.store %4, %arg2[%arg7, %arg8] : memref<?x?xf32>
          %5 = affine.apply #map1(%arg8)
          %6 = affine.load %arg0[%arg7, %arg6] : memref<?x?xf32>
          %7 = affine.load %arg1[%arg6, %5] : memref<?x?xf32>
          %8 = affine.load %arg2[%arg7, %5] : memref<?x?xf32>
          %9 = arith.mulf %6, %7 : f32
          %10 = arith.addf %8, %9 : f32
          affine.store %10, %arg2[%arg7, %5] : memref<?x?xf32>
          %11 = affine.apply #map2(%arg8)
          %12 = affine.load %arg0[%arg7, %arg6] : memref<?x?xf32>
          %13 = affine.load %arg1[%arg6, %11] : memref<?x?xf32>
          %14 = affine.load %arg2[%arg7, %11] : memref<?x?xf32>
          %15 = arith.mulf %12, %13 : f32
          %16 = arith.addf %14, %15 : f32
          affine.store %16, %arg2[%arg7, %11] : memref<?x?xf32>
        }
        affine.for %arg8 = max #map3()[%arg4] to %arg4 {
          %0 = affine.load %arg0[%arg7, %arg6] : memref<?x?xf32>
          %1 = affine.load %arg1[%arg6, %arg8] : memref<?x?xf32>
          %2 = affine.load %arg2[%arg7, %arg8] : memref<?x?xf32>
          %3 = arith.mulf %0, %1 : f32
          %4 = arith.addf %2, %3 : f32
          affine.store %4, %arg2[%arg7, %arg8] : memref<?x?xf32>
        }
      }
    }
    return
  }
}
