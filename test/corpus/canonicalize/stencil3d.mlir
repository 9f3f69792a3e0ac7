// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(canonicalize)' infs/workloads/loops/stencil3d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> (s0 - 1)>
module {
  func.func @stencil3d(%arg0: memref<?x?x?xf32>, %arg1: memref<?x?x?xf32>, %arg2: memref<?xf32>, %arg3: index, %arg4: index, %arg5: index, %arg6: index) {
    %0 = affine.load %arg2[0] : memref<?xf32>
    %1 = affine.load %arg2[1] : memref<?xf32>
    affine.for %arg7 = 0 to %arg6 step 2 {
      affine.for %arg8 = 1 to #map()[%arg3] {
        affine.for %arg9 = 1 to #map()[%arg4] {
          affine.for %arg10 = 1 to #map()[%arg5] {
            %2 = affine.load %arg0[%arg8 - 1, %arg9, %arg10] : memref<?x?x?xf32>
            %3 = affine.load %arg0[%arg8 + 1, %arg9, %arg10] : memref<?x?x?xf32>
            %4 = affine.load %arg0[%arg8, %arg9 - 1, %arg10] : memref<?x?x?xf32>
            %5 = affine.load %arg0[%arg8, %arg9 + 1, %arg10] : memref<?x?x?xf32>
            %6 = affine.load %arg0[%arg8, %arg9, %arg10 - 1] : memref<?x?x?xf32>
            %7 = affine.load %arg0[%arg8, %arg9, %arg10 + 1] : memref<?x?x?xf32>
            %8 = affine.load %arg0[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
            %9 = arith.mulf %0, %2 fastmath<reassoc,contract> : f32
            %10 = arith.mulf %0, %3 fastmath<reassoc,contract> : f32
            %11 = arith.addf %9, %10 fastmath<reassoc,contract> : f32
            %12 = arith.mulf %0, %4 fastmath<reassoc,contract> : f32
            %13 = arith.addf %11, %12 fastmath<reassoc,contract> : f32
            %14 = arith.mulf %0, %5 fastmath<reassoc,contract> : f32
            %15 = arith.addf %13, %14 fastmath<reassoc,contract> : f32
            %16 = arith.mulf %0, %6 fastmath<reassoc,contract> : f32
            %17 = arith.addf %15, %16 fastmath<reassoc,contract> : f32
            %18 = arith.mulf %0, %7 fastmath<reassoc,contract> : f32
            %19 = arith.addf %17, %18 fastmath<reassoc,contract> : f32
            %20 = arith.mulf %1, %8 fastmath<reassoc,contract> : f32
            %21 = arith.addf %19, %20 fastmath<reassoc,contract> : f32
            affine.store %21, %arg1[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
          }
        }
      }
      affine.for %arg8 = 1 to #map()[%arg3] {
        affine.for %arg9 = 1 to #map()[%arg4] {
          affine.for %arg10 = 1 to #map()[%arg5] {
            %2 = affine.load %arg1[%arg8 - 1, %arg9, %arg10] : memref<?x?x?xf32>
            %3 = affine.load %arg1[%arg8 + 1, %arg9, %arg10] : memref<?x?x?xf32>
            %4 = affine.load %arg1[%arg8, %arg9 - 1, %arg10] : memref<?x?x?xf32>
            %5 = affine.load %arg1[%arg8, %arg9 + 1, %arg10] : memref<?x?x?xf32>
            %6 = affine.load %arg1[%arg8, %arg9, %arg10 - 1] : memref<?x?x?xf32>
            %7 = affine.load %arg1[%arg8, %arg9, %arg10 + 1] : memref<?x?x?xf32>
            %8 = affine.load %arg1[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
            %9 = arith.mulf %0, %2 fastmath<reassoc,contract> : f32
            %10 = arith.mulf %0, %3 fastmath<reassoc,contract> : f32
            %11 = arith.addf %9, %10 fastmath<reassoc,contract> : f32
            %12 = arith.mulf %0, %4 fastmath<reassoc,contract> : f32
            %13 = arith.addf %11, %12 fastmath<reassoc,contract> : f32
            %14 = arith.mulf %0, %5 fastmath<reassoc,contract> : f32
            %15 = arith.addf %13, %14 fastmath<reassoc,contract> : f32
            %16 = arith.mulf %0, %6 fastmath<reassoc,contract> : f32
            %17 = arith.addf %15, %16 fastmath<reassoc,contract> : f32
            %18 = arith.mulf %0, %7 fastmath<reassoc,contract> : f32
            %19 = arith.addf %17, %18 fastmath<reassoc,contract> : f32
            %20 = arith.mulf %1, %8 fastmath<reassoc,contract> : f32
            %21 = arith.addf %19, %20 fastmath<reassoc,contract> : f32
            affine.store %21, %arg0[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
          }
        }
      }
    }
    return
  }
}
