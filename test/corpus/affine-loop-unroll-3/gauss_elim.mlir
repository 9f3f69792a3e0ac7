// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' infs/workloads/loops/gauss_elim.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> (s0 - 1)>
#map1 = affine_map<(d0) -> (d0 + 1)>
#map2 = affine_map<(d0)[s0] -> (d0 + ((-d0 + s0 - 1) floordiv 3) * 3 + 1)>
#map3 = affine_map<(d0) -> (d0 + 2)>
#map4 = affine_map<(d0)[s0] -> (d0 + ((-d0 + s0 - 1) floordiv 3) * 3 + 1, d0 + 1)>
module {
  func.func @gauss_elim(%arg0: memref<?x?xf32>, %arg1: memref<?xf32>, %arg2: memref<?xf32>, %arg3: index) {
    affine.for %arg4 = 0 to #map()[%arg3] {
      %0 = affine.load %arg0[%arg4, %arg4] : memref<?x?xf32>
      %1 = affine.load %arg1[%arg4] : memref<?xf32>
      affine.for %arg5 = #map1(%arg4) to #map2(%arg4)[%arg3] step 3 {
        %2 = affine.load %arg0[%arg5, %arg4] : memref<?x?xf32>
        %3 = arith.divf %2, %0 : f32
        affine.store %3, %arg2[%arg5] : memref<?xf32>
        %4 = affine.load %arg1[%arg5] : memref<?xf32>
        %5 = arith.mulf %3, %1 : f32
        %6 = arith.subf %4, %5 : f32
        affine.store %6, %arg1[%arg5] : memref<?xf32>
        %7 = affine.apply #map1(%arg5)
        %8 = affine.load %arg0[%7, %arg4] : memref<?x?xf32>
        %9 = arith.divf %8, %0 : f32
        affine.store %9, %arg2[%7] : memref<?xf32>
        %10 = affine.load %arg1[%7] : memref<?xf32>
        %11 = arith.mulf %9, %1 : f32
        %12 = arith.subf %10, %11 : f32
        affine.store %12, %arg1[%7] : memref<?xf32>
        %13 = affine.apply #map3(%arg5)
        %14 = affine.load %arg0[%13, %arg4] : memref<?x?xf32>
        %15 = arith.divf %14, %0 : f32
        affine.store %15, %arg2[%13] : memref<?xf32>
        %16 = affine.load %arg1[%13] : memref<?xf32>
        %17 = arith.mulf %15, %1 : f32
        %18 = arith.subf %16, %17 : f32
        affine.store %18, %arg1[%13] : memref<?xf32>
      }
      affine.for %arg5 = max #map4(%arg4)[%arg3] to %arg3 {
        %2 = affine.load %arg0[%arg5, %arg4] : memref<?x?xf32>
        %3 = arith.divf %2, %0 : f32
        affine.store %3, %arg2[%arg5] : memref<?xf32>
        %4 = affine.load %arg1[%arg5] : memref<?xf32>
        %5 = arith.mulf %3, %1 : f32
        %6 = arith.subf %4, %5 : f32
        affine.store %6, %arg1[%arg5] : memref<?xf32>
      }
      affine.for %arg5 = #map1(%arg4) to %arg3 {
        affine.for %arg6 = #map1(%arg4) to #map2(%arg4)[%arg3] step 3 {
          %2 = affine.load %arg2[%arg5] : memref<?xf32>
          %3 = affine.load %arg0[%arg4, %arg6] : memref<?x?xf32>
          %4 = affine.load %arg0[%arg5, %arg6] : memref<?x?xf32>
          %5 = arith.mulf %2, %3 : f32
          %6 = arith.subf %4, %5 : f32
          affine.store %6, %arg0[%arg5, %arg6] : memref<?x?xf32>
          %7 = affine.apply #map1(%arg6)
          %8 = affine.load %arg2[%arg5] : memref<?xf32>
          %9 = affine.load %arg0[%arg4, %7] : memref<?x?xf32>
          %10 = affine.load %arg0[%arg5, %7] : memref<?x?xf32>
          %11 = arith.mulf %8, %9 : f32
          %12 = arith.subf %10, %11 : f32
          affine.store %12, %arg0[%arg5, %7] : memref<?x?xf32>
          %13 = affine.apply #map3(%arg6)
          %14 = affine.load %arg2[%arg5] : memref<?xf32>
          %15 = affine.load %arg0[%arg4, %13] : memref<?x?xf32>
          %16 = affine.load %arg0[%arg5, %13] : memref<?x?xf32>
          %17 = arith.mulf %14, %15 : f32
          %18 = arith.subf %16, %17 : f32
          affine.store %18, %arg0[%arg5, %13] : memref<?x?xf32>
        }
        affine.for %arg6 = max #map4(%arg4)[%arg3] to %arg3 {
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
