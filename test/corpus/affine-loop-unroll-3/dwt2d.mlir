// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' infs/workloads/loops/dwt2d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> ((s0 floordiv 3) * 3)>
#map1 = affine_map<(d0) -> (d0 + 1)>
#map2 = affine_map<(d0) -> (d0 + 2)>
#map3 = affine_map<()[s0] -> ((s0 floordiv 3) * 3, 0)>
module {
  func.func @dwt2d(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>, %arg3: index, %arg4: index) {
    %c2 = arith.constant 2 : index
    %cst = arith.constant 5.000000e-01 : f32
    %0 = arith.divsi %arg3, %c2 : index
    %1 = arith.divsi %arg4, %c2 : index
    affine.for %arg5 = 0 to %arg3 {
      affine.for %arg6 = 0 to #map()[%1] step 3 {
        %2 = affine.load %arg0[%arg5, %arg6 * 2] : memref<?x?xf32>
        %3 = affine.load %arg0[%arg5, %arg6 * 2 + 1] : memref<?x?xf32>
        %4 = arith.subf %3, %2 : f32
        %5 = arith.mulf %4, %cst : f32
        %6 = arith.addf %2, %5 : f32
        affine.store %6, %arg1[%arg5, %arg6] : memref<?x?xf32>
        affine.store %4, %arg1[%arg5, %arg6 + %1] : memref<?x?xf32>
        %7 = affine.apply #map1(%arg6)
        %8 = affine.load %arg0[%arg5, %7 * 2] : memref<?x?xf32>
        %9 = affine.load %arg0[%arg5, %7 * 2 + 1] : memref<?x?xf32>
        %10 = arith.subf %9, %8 : f32
        %11 = arith.mulf %10, %cst : f32
        %12 = arith.addf %8, %11 : f32
        affine.store %12, %arg1[%arg5, %7] : memref<?x?xf32>
        affine.store %10, %arg1[%arg5, %7 + %1] : memref<?x?xf32>
        %13 = affine.apply #map2(%arg6)
        %14 = affine.load %arg0[%arg5, %13 * 2] : memref<?x?xf32>
        %15 = affine.load %arg0[%arg5, %13 * 2 + 1] : memref<?x?xf32>
        %16 = arith.subf %15, %14 : f32
        %17 = arith.mulf %16, %cst : f32
        %18 = arith.addf %14, %17 : f32
        affine.store %18, %arg1[%arg5, %13] : memref<?x?xf32>
        affine.store %16, %arg1[%arg5, %13 + %1] : memref<?x?xf32>
      }
      affine.for %arg6 = max #map3()[%1] to %1 {
        %2 = affine.load %arg0[%arg5, %arg6 * 2] : memref<?x?xf32>
        %3 = affine.load %arg0[%arg5, %arg6 * 2 + 1] : memref<?x?xf32>
        %4 = arith.subf %3, %2 : f32
        %5 = arith.mulf %4, %cst : f32
        %6 = arith.addf %2, %5 : f32
        affine.store %6, %arg1[%arg5, %arg6] : memref<?x?xf32>
        affine.store %4, %arg1[%arg5, %arg6 + %1] : memref<?x?xf32>
      }
    }
    affine.for %arg5 = 0 to %0 {
      affine.for %arg6 = 0 to #map()[%arg4] step 3 {
        %2 = affine.load %arg1[%arg5 * 2, %arg6] : memref<?x?xf32>
        %3 = affine.load %arg1[%arg5 * 2 + 1, %arg6] : memref<?x?xf32>
        %4 = arith.subf %3, %2 : f32
        %5 = arith.mulf %4, %cst : f32
        %6 = arith.addf %2, %5 : f32
        affine.store %6, %arg2[%arg5, %arg6] : memref<?x?xf32>
        affine.store %4, %arg2[%arg5 + %0, %arg6] : memref<?x?xf32>
        %7 = affine.apply #map1(%arg6)
        %8 = affine.load %arg1[%arg5 * 2, %7] : memref<?x?xf32>
        %9 = affine.load %arg1[%arg5 * 2 + 1, %7] : memref<?x?xf32>
        %10 = arith.subf %9, %8 : f32
        %11 = arith.mulf %10, %cst : f32
        %12 = arith.addf %8, %11 : f32
        affine.store %12, %arg2[%arg5, %7] : memref<?x?xf32>
        affine.store %10, %arg2[%arg5 + %0, %7] : memref<?x?xf32>
        %13 = affine.apply #map2(%arg6)
        %14 = affine.load %arg1[%arg5 * 2, %13] : memref<?x?xf32>
        %15 = affine.load %arg1[%arg5 * 2 + 1, %13] : memref<?x?xf32>
        %16 = arith.subf %15, %14 : f32
        %17 = arith.mulf %16, %cst : f32
        %18 = arith.addf %14, %17 : f32
        affine.store %18, %arg2[%arg5, %13] : memref<?x?xf32>
        affine.store %16, %arg2[%arg5 + %0, %13] : memref<?x?xf32>
      }
      affine.for %arg6 = max #map3()[%arg4] to %arg4 {
        %2 = affine.load %arg1[%arg5 * 2, %arg6] : memref<?x?xf32>
        %3 = affine.load %arg1[%arg5 * 2 + 1, %arg6] : memref<?x?xf32>
        %4 = arith.subf %3, %2 : f32
        %5 = arith.mulf %4, %cst : f32
        %6 = arith.addf %2, %5 : f32
        affine.store %6, %arg2[%arg5, %arg6] : memref<?x?xf32>
        affine.store %4, %arg2[%arg5 + %0, %arg6] : memref<?x?xf32>
      }
    }
    return
  }
}
