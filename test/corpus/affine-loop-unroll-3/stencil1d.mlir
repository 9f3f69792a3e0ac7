// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' infs/workloads/loops/stencil1d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> (((s0 - 2) floordiv 3) * 3 + 1)>
#map1 = affine_map<(d0) -> (d0 + 1)>
#map2 = affine_map<(d0) -> (d0 + 2)>
#map3 = affine_map<()[s0] -> (((s0 - 2) floordiv 3) * 3 + 1, 1)>
#map4 = affine_map<()[s0] -> (s0 - 1)>
module {
  func.func @stencil1d(%arg0: memref<?xf32>, %arg1: memref<?xf32>, %arg2: memref<?xf32>, %arg3: index, %arg4: index) {
    %0 = affine.load %arg2[0] : memref<?xf32>
    %1 = affine.load %arg2[1] : memref<?xf32>
    affine.for %arg5 = 0 to %arg4 step 2 {
      affine.for %arg6 = 1 to #map()[%arg3] step 3 {
        %2 = affine.load %arg0[%arg6 - 1] : memref<?xf32>
        %3 = affine.load %arg0[%arg6 + 1] : memref<?xf32>
        %4 = affine.load %arg0[%arg6] : memref<?xf32>
        %5 = arith.mulf %0, %2 fastmath<reassoc,contract> : f32
        %6 = arith.mulf %0, %3 fastmath<reassoc,contract> : f32
        %7 = arith.addf %5, %6 fastmath<reassoc,contract> : f32
        %8 = arith.mulf %1, %4 fastmath<reassoc,contract> : f32
        %9 = arith.addf %7, %8 fastmath<reassoc,contract> : f32
        affine.store %9, %arg1[%arg6] : memref<?xf32>
        %10 = affine.apply #map1(%arg6)
        %11 = affine.load %arg0[%10 - 1] : memref<?xf32>
        %12 = affine.load %arg0[%10 + 1] : memref<?xf32>
        %13 = affine.load %arg0[%10] : memref<?xf32>
        %14 = arith.mulf %0, %11 fastmath<reassoc,contract> : f32
        %15 = arith.mulf %0, %12 fastmath<reassoc,contract> : f32
        %16 = arith.addf %14, %15 fastmath<reassoc,contract> : f32
        %17 = arith.mulf %1, %13 fastmath<reassoc,contract> : f32
        %18 = arith.addf %16, %17 fastmath<reassoc,contract> : f32
        affine.store %18, %arg1[%10] : memref<?xf32>
        %19 = affine.apply #map2(%arg6)
        %20 = affine.load %arg0[%19 - 1] : memref<?xf32>
        %21 = affine.load %arg0[%19 + 1] : memref<?xf32>
        %22 = affine.load %arg0[%19] : memref<?xf32>
        %23 = arith.mulf %0, %20 fastmath<reassoc,contract> : f32
        %24 = arith.mulf %0, %21 fastmath<reassoc,contract> : f32
        %25 = arith.addf %23, %24 fastmath<reassoc,contract> : f32
        %26 = arith.mulf %1, %22 fastmath<reassoc,contract> : f32
        %27 = arith.addf %25, %26 fastmath<reassoc,contract> : f32
        affine.store %27, %arg1[%19] : memref<?xf32>
      }
      affine.for %arg6 = max #map3()[%arg3] to #map4()[%arg3] {
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
      affine.for %arg6 = 1 to #map()[%arg3] step 3 {
        %2 = affine.load %arg1[%arg6 - 1] : memref<?xf32>
        %3 = affine.load %arg1[%arg6 + 1] : memref<?xf32>
        %4 = affine.load %arg1[%arg6] : memref<?xf32>
        %5 = arith.mulf %0, %2 fastmath<reassoc,contract> : f32
        %6 = arith.mulf %0, %3 fastmath<reassoc,contract> : f32
        %7 = arith.addf %5, %6 fastmath<reassoc,contract> : f32
        %8 = arith.mulf %1, %4 fastmath<reassoc,contract> : f32
        %9 = arith.addf %7, %8 fastmath<reassoc,contract> : f32
        affine.store %9, %arg0[%arg6] : memref<?xf32>
        %10 = affine.apply #map1(%arg6)
        %11 = affine.load %arg1[%10 - 1] : memref<?xf32>
        %12 = affine.load %arg1[%10 + 1] : memref<?xf32>
        %13 = affine.load %arg1[%10] : memref<?xf32>
        %14 = arith.mulf %0, %11 fastmath<reassoc,contract> : f32
        %15 = arith.mulf %0, %12 fastmath<reassoc,contract> : f32
        %16 = arith.addf %14, %15 fastmath<reassoc,contract> : f32
        %17 = arith.mulf %1, %13 fastmath<reassoc,contract> : f32
        %18 = arith.addf %16, %17 fastmath<reassoc,contract> : f32
        affine.store %18, %arg0[%10] : memref<?xf32>
        %19 = affine.apply #map2(%arg6)
        %20 = affine.load %arg1[%19 - 1] : memref<?xf32>
        %21 = affine.load %arg1[%19 + 1] : memref<?xf32>
        %22 = affine.load %arg1[%19] : memref<?xf32>
        %23 = arith.mulf %0, %20 fastmath<reassoc,contract> : f32
        %24 = arith.mulf %0, %21 fastmath<reassoc,contract> : f32
        %25 = arith.addf %23, %24 fastmath<reassoc,contract> : f32
        %26 = arith.mulf %1, %22 fastmath<reassoc,contract> : f32
        %27 = arith.addf %25, %26 fastmath<reassoc,contract> : f32
        affine.store %27, %arg0[%19] : memref<?xf32>
      }
      affine.for %arg6 = max #map3()[%arg3] to #map4()[%arg3] {
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
