// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-fusion))' infs/workloads/loops/stencil2d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> (s0 - 1)>
module {
  func.func @stencil2d(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?xf32>, %arg3: index, %arg4: index, %arg5: index) {
    %0 = affine.load %arg2[0] : memref<?xf32>
    %1 = affine.load %arg2[1] : memref<?xf32>
    affine.for %arg6 = 0 to %arg5 step 2 {
      affine.for %arg7 = 1 to #map()[%arg3] {
        affine.for %arg8 = 1 to #map()[%arg4] {
          %2 = affine.load %arg0[%arg7 - 1, %arg8] : memref<?x?xf32>
          %3 = affine.load %arg0[%arg7 + 1, %arg8] : memref<?x?xf32>
          %4 = affine.load %arg0[%arg7, %arg8 - 1] : memref<?x?xf32>
          %5 = affine.load %arg0[%arg7, %arg8 + 1] : memref<?x?xf32>
          %6 = affine.load %arg0[%arg7, %arg8] : memref<?x?xf32>
          %7 = arith.mulf %0, %2 fastmath<reassoc,contract> : f32
          %8 = arith.mulf %0, %3 fastmath<reassoc,contract> : f32
          %9 = arith.addf %7, %8 fastmath<reassoc,contract> : f32
          %10 = arith.mulf %0, %4 fastmath<reassoc,contract> : f32
          %11 = arith.addf %9, %10 fastmath<reassoc,contract> : f32
          %12 = arith.mulf %0, %5 fastmath<reassoc,contract> : f32
          %13 = arith.addf %11, %12 fastmath<reassoc,contract> : f32
          %14 = arith.mulf %1, %6 fastmath<reassoc,contract> : f32
          %15 = arith.addf %13, %14 fastmath<reassoc,contract> : f32
          affine.store %15, %arg1[%arg7, %arg8] : memref<?x?xf32>
        }
      }
      affine.for %arg7 = 1 to #map()[%arg3] {
        affine.for %arg8 = 1 to #map()[%arg4] {
          %2 = affine.load %arg1[%arg7 - 1, %arg8] : memref<?x?xf32>
          %3 = affine.load %arg1[%arg7 + 1, %arg8] : memref<?x?xf32>
          %4 = affine.load %arg1[%arg7, %arg8 - 1] : memref<?x?xf32>
          %5 = affine.load %arg1[%arg7, %arg8 + 1] : memref<?x?xf32>
          %6 = affine.load %arg1[%arg7, %arg8] : memref<?x?xf32>
          %7 = arith.mulf %0, %2 fastmath<reassoc,contract> : f32
          %8 = arith.mulf %0, %3 fastmath<reassoc,contract> : f32
          %9 = arith.addf %7, %8 fastmath<reassoc,contract> : f32
          %10 = arith.mulf %0, %4 fastmath<reassoc,contract> : f32
          %11 = arith.addf %9, %10 fastmath<reassoc,contract> : f32
          %12 = arith.mulf %0, %5 fastmath<reassoc,contract> : f32
          %13 = arith.addf %11, %12 fastmath<reassoc,contract> : f32
          %14 = arith.mulf %1, %6 fastmath<reassoc,contract> : f32
          %15 = arith.addf %13, %14 fastmath<reassoc,contract> : f32
          affine.store %15, %arg0[%arg7, %arg8] : memref<?x?xf32>
        }
      }
    }
    return
  }
}
