// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-parallelize))' infs/workloads/loops/vec_add.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @vec_add(%arg0: memref<?xf32>, %arg1: memref<?xf32>, %arg2: memref<?xf32>, %arg3: index) {
    affine.parallel (%arg4) = (0) to (symbol(%arg3)) {
      %0 = affine.load %arg0[%arg4] : memref<?xf32>
      %1 = affine.load %arg1[%arg4] : memref<?xf32>
      %2 = arith.addf %0, %1 : f32
      affine.store %2, %arg2[%arg4] : memref<?xf32>
    }
    return
  }
}
