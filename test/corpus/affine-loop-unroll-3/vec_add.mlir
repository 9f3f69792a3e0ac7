// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' infs/workloads/loops/vec_add.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> ((s0 floordiv 3) * 3)>
#map1 = affine_map<(d0) -> (d0 + 1)>
#map2 = affine_map<(d0) -> (d0 + 2)>
#map3 = affine_map<()[s0] -> ((s0 floordiv 3) * 3, 0)>
module {
  func.func @vec_add(%arg0: memref<?xf32>, %arg1: memref<?xf32>, %arg2: memref<?xf32>, %arg3: index) {
    affine.for %arg4 = 0 to #map()[%arg3] step 3 {
      %0 = affine.load %arg0[%arg4] : memref<?xf32>
      %1 = affine.load %arg1[%arg4] : memref<?xf32>
      %2 = arith.addf %0, %1 : f32
      affine.store %2, %arg2[%arg4] : memref<?xf32>
      %3 = affine.apply #map1(%arg4)
      %4 = affine.load %arg0[%3] : memref<?xf32>
      %5 = affine.load %arg1[%3] : memref<?xf32>
      %6 = arith.addf %4, %5 : f32
      affine.store %6, %arg2[%3] : memref<?xf32>
      %7 = affine.apply #map2(%arg4)
      %8 = affine.load %arg0[%7] : memref<?xf32>
      %9 = affine.load %arg1[%7] : memref<?xf32>
      %10 = arith.addf %8, %9 : f32
      affine.store %10, %arg2[%7] : memref<?xf32>
    }
    affine.for %arg4 = max #map3()[%arg3] to %arg3 {
      %0 = affine.load %arg0[%arg4] : memref<?xf32>
      %1 = affine.load %arg1[%arg4] : memref<?xf32>
      %2 = arith.addf %0, %1 : f32
      affine.store %2, %arg2[%arg4] : memref<?xf32>
    }
    return
  }
}
