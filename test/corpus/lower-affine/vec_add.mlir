// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(lower-affine)' infs/workloads/loops/vec_add.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @vec_add(%arg0: memref<?xf32>, %arg1: memref<?xf32>, %arg2: memref<?xf32>, %arg3: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %arg4 = %c0 to %arg3 step %c1 {
      %0 = memref.load %arg0[%arg4] : memref<?xf32>
      %1 = memref.load %arg1[%arg4] : memref<?xf32>
      %2 = arith.addf %0, %1 : f32
      memref.store %2, %arg2[%arg4] : memref<?xf32>
    }
    return
  }
}
