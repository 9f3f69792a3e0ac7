// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-fusion))' infs/workloads/loops/stencil1d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> (s0 - 1)>
module {
  func.func @stencil1d(%arg0: memref<?xf32>, %arg1: memref<?xf32>, %arg2: memref<?xf32>, %arg3: index, %arg4: index) {
    %0 = affine.load %arg2[0] : memref<?xf32>
    %1 = affine.load %arg2[1] : memref<?xf32>
    affine.for %arg5 = 0 to %arg4 step 2 {
      affine.for %arg6 = 1 to #map()[%arg3] {
        %2 = affine.load %arg0[%arg6 - 1] : memref<?xf32>
        %3 = affine.load %arg0[%arg6 + 1] : memref<?xf32>
        %4 = affine.load %arg0[%arg6] : memref<?xf32>
        %5 = arith.mulf %0, %2 fastmath<reassoc,contract> : f32
        %6 = arith.mulf %0, %3 fastmath<reassoc,contract> : f32
        %7 = arith.addf %5, %6 fastmath<reassoc,contract> : f32
        %8 = arith.mulf %1, %4 fastmath<reassoc,contract> : f32
        %9 = arith.addf %7, %8 fastmath<reassoc,contract> : f32
        affine.store %9, %arg1[%arg6] : memref<?xf32>
      }
      affine.for %arg6 = 1 to #map()[%arg3] {
        %2 = affine.load %arg1[%arg6 - 1] : memref<?xf32>
        %3 = affine.load %arg1[%arg6 + 1] : memref<?xf32>
        %4 = affine.load %arg1[%arg6] : memref<?xf32>
        %5 = arith.mulf %0, %2 fastmath<reassoc,contract> : f32
        %6 = arith.mulf %0, %3 fastmath<reassoc,contract> : f32
        %7 = arith.addf %5, %6 fastmath<reassoc,contract> : f32
        %8 = arith.mulf %1, %4 fastmath<reassoc,contract> : f32
        %9 = arith.addf %7, %8 fastmath<reassoc,contract> : f32
        affine.store %9, %arg0[%arg6] : memref<?xf32>
      }
    }
    return
  }
}
