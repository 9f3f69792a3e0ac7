// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-parallelize{parallel-reductions=true}))' infs/workloads/loops/array_sum.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module {
  func.func @array_sum(%arg0: memref<?xf32>, %arg1: index) -> f32 {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = affine.parallel (%arg2) = (0) to (symbol(%arg1)) reduce ("addf") -> (f32) {
      %2 = affine.load %arg0[%arg2] : memref<?xf32>
      affine.yield %2 : f32
    }
    %1 = arith.addf %cst, %0 : f32
    return %1 : f32
  }
}
