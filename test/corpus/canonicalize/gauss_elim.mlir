// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(canonicalize)' infs/workloads/loops/gauss_elim.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> (s0 - 1)>
#map1 = affine_map<(d0) -> (d0 + 1)>
module {
  func.func @gauss_elim(%arg0: memref<?x?xf32>, %arg1: memref<?xf32>, %arg2: memref<?xf32>, %arg3: index) {
    affine.for %arg4 = 0 to #map()[%arg3] {
      %0 = affine.load %arg0[%arg4, %arg4] : memref<?x?xf32>
      %1 = affine.load %arg1[%arg4] : memref<?xf32>
      affine.for %arg5 = #map1(%arg4) to %arg3 {
        %2 = affine.load %arg0[%arg5, %arg4] : memref<?x?xf32>
        %3 = arith.divf %2, %0 : f32
        affine.store %3, %arg2[%arg5] : memref<?xf32>
        %4 = affine.load %arg1[%arg5] : memref<?xf32>
        %5 = arith.mulf %3, %1 : f32
        %6 = arith.subf %4, %5 : f32
        affine.store %6, %arg1[%arg5] : memref<?xf32>
      }
      affine.for %arg5 = #map1(%arg4) to %arg3 {
        affine.for %arg6 = #map1(%arg4) to %arg3 {
          %2 = affine.load %arg2[%arg5] : memref<?xf32>
          %3 = affine.load %arg0[%arg4, %arg6] : memref<?x?xf32>
          %4 = affine.load %arg0[%arg5, %arg6] : memref<?x?xf32>
          %5 = arith.mulf %2, %3 : f32
          %6 = arith.subf %4, %5 : f32
          affine.store %6, %arg0[%arg5, %arg6] : memref<?x?xf32>
        }
      }
    }
    return
  }
}
