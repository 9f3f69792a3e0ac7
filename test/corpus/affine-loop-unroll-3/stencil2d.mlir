// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' infs/workloads/loops/stencil2d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> (s0 - 1)>
#map1 = affine_map<()[s0] -> (((s0 - 2) floordiv 3) * 3 + 1)>
#map2 = affine_map<(d0) -> (d0 + 1)>
#map3 = affine_map<(d0) -> (d0 + 2)>
#map4 = affine_map<()[s0] -> (((s0 - 2) floordiv 3) * 3 + 1, 1)>
module {
  func.func @stencil2d(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?xf32>, %arg3: index, %arg4: index, %arg5: index) {
    %0 = affine.load %arg2[0] : memref<?xf32>
    %1 = affine.load %arg2[1] : memref<?xf32>
    affine.for %arg6 = 0 to %arg5 step 2 {
      affine.for %arg7 = 1 to #map()[%arg3] {
        affine.for %arg8 = 1 to #map1()[%arg4] step 3 {
          %2 = affine.load %arg0[%arg7 - 1, %arg8] : memref<?x?xf32>
          %3 = affine.load %arg0[%arg7 + 1, %arg8] : memref<?x?xf32>
          %4 = affine.load %arg0[%arg7, %arg8 - 1] : memref<?x?xf32>
          %5 = affine.load %arg0[%arg7, %arg8 + 1] : memref<?x?xf32>
          %6 = affine.load %arg0[%arg7, %arg8] : memref<?x?xf32>
          %7 = arith.mulf %0, %2 fastmath<reassoc,contract> : f32
          %8 = arith.mulf %0, %3 fastmath<reassoc,contract> : f32
          %9 = arith.addf %7, %8 fastmath<reassoc,contract> : f32
          %10 = arith.mulf %0, %4 fastmath<reassoc,contract> : f32
          %11 = arith.addf %9, %10 fastmath<reassoc,contract> : f32
          %12 = arith.mulf %0, %5 fastmath<reassoc,contract> : f32
          %13 = arith.addf %11, %12 fastmath<reassoc,contract> : f32
          %14 = arith.mulf %1, %6 fastmath<reassoc,contract> : f32
          %15 = arith.addf %13, %14 fastmath<reassoc,contract> : f32
          affine.store %15, %arg1[%arg7, %arg8] : memref<?x?xf32>
          %16 = affine.apply #map2(%arg8)
          %17 = affine.load %arg0[%arg7 - 1, %16] : memref<?x?xf32>
          %18 = affine.load %arg0[%arg7 + 1, %16] : memref<?x?xf32>
          %19 = affine.load %arg0[%arg7, %16 - 1] : memref<?x?xf32>
          %20 = affine.load %arg0[%arg7, %16 + 1] : memref<?x?xf32>
          %21 = affine.load %arg0[%arg7, %16] : memref<?x?xf32>
          %22 = arith.mulf %0, %17 fastmath<reassoc,contract> : f32
          %23 = arith.mulf %0, %18 fastmath<reassoc,contract> : f32
          %24 = arith.addf %22, %23 fastmath<reassoc,contract> : f32
          %25 = arith.mulf %0, %19 fastmath<reassoc,contract> : f32
          %26 = arith.addf %24, %25 fastmath<reassoc,contract> : f32
          %27 = arith.mulf %0, %20 fastmath<reassoc,contract> : f32
          %28 = arith.addf %26, %27 fastmath<reassoc,contract> : f32
          %29 = arith.mulf %1, %21 fastmath<reassoc,contract> : f32
          %30 = arith.addf %28, %29 fastmath<reassoc,contract> : f32
          affine.store %30, %arg1[%arg7, %16] : memref<?x?xf32>
          %31 = affine.apply #map3(%arg8)
          %32 = affine.load %arg0[%arg7 - 1, %31] : memref<?x?xf32>
          %33 = affine.load %arg0[%arg7 + 1, %31] : memref<?x?xf32>
          %34 = affine.load %arg0[%arg7, %31 - 1] : memref<?x?xf32>
          %35 = affine.load %arg0[%arg7, %31 + 1] : memref<?x?xf32>
          %36 = affine.load %arg0[%arg7, %31] : memref<?x?xf32>
          %37 = arith.mulf %0, %32 fastmath<reassoc,contract> : f32
          %38 = arith.mulf %0, %33 fastmath<reassoc,contract> : f32
          %39 = arith.addf %37, %38 fastmath<reassoc,contract> : f32
          %40 = arith.mulf %0, %34 fastmath<reassoc,contract> : f32
          %41 = arith.addf %39, %40 fastmath<reassoc,contract> : f32
          %42 = arith.mulf %0, %35 fastmath<reassoc,contract> : f32
          %43 = arith.addf %41, %42 fastmath<reassoc,contract> : f32
          %44 = arith.mulf %1, %36 fastmath<reassoc,contract> : f32
          %45 = arith.addf %43, %44 fastmath<reassoc,contract> : f32
          affine.store %45, %arg1[%arg7, %31] : memref<?x?xf32>
        }
        affine.for %arg8 = max #map4()[%arg4] to #map()[%arg4] {
          %2 = affine.load %arg0[%arg7 - 1, %arg8] : memref<?x?xf32>
          %3 = affine.load %arg0[%arg7 + 1, %arg8] : memref<?x?xf32>
          %4 = affine.load %arg0[%arg7, %arg8 - 1] : memref<?x?xf32>
          %5 = affine.load %arg0[%arg7, %arg8 + 1] : memref<?x?xf32>
          %6 = affine.load %arg0[%arg7, %arg8] : memref<?x?xf32>
          %7 = arith.mulf %0, %2 fastmath<reassoc,contract> : f32
          %8 = arith.mulf %0, %3 fastmath<reassoc,contract> : f32
          %9 = arith.addf %7, %8 fastmath<reassoc,contract> : f32
          %10 = arith.mulf %0, %4 fastmath<reassoc,contract> : f32
          %11 = arith.addf %9, %10 fastmath<reassoc,contract> : f32
          %12 = arith.mulf %0, %5 fastmath<reassoc,contract> : f32
          %13 = arith.addf %11, %12 fastmath<reassoc,contract> : f32
          %14 = arith.mulf %1, %6 fastmath<reassoc,contract> : f32
          %15 = arith.addf %13, %14 fastmath<reassoc,contract> : f32
          affine.store %15, %arg1[%arg7, %arg8] : memref<?x?xf32>
        }
      }
      affine.for %arg7 = 1 to #map()[%arg3] {
        affine.for %arg8 = 1 to #map1()[%arg4] step 3 {
          %2 = affine.load %arg1[%arg7 - 1, %arg8] : memref<?x?xf32>
          %3 = affine.load %arg1[%arg7 + 1, %arg8] : memref<?x?xf32>
          %4 = affine.load %arg1[%arg7, %arg8 - 1] : memref<?x?xf32>
          %5 = affine.load %arg1[%arg7, %arg8 + 1] : memref<?x?xf32>
          %6 = affine.load %arg1[%arg7, %arg8] : memref<?x?xf32>
          %7 = arith.mulf %0, %2 fastmath<reassoc,contract> : f32
          %8 = arith.mulf %0, %3 fastmath<reassoc,contract> : f32
          %9 = arith.addf %7, %8 fastmath<reassoc,contract> : f32
          %10 = arith.mulf %0, %4 fastmath<reassoc,contract> : f32
          %11 = arith.addf %9, %10 fastmath<reassoc,contract> : f32
          %12 = arith.mulf %0, %5 fastmath<reassoc,contract> : f32
          %13 = arith.addf %11, %12 fastmath<reassoc,contract> : f32
          %14 = arith.mulf %1, %6 fastmath<reassoc,contract> : f32
          %15 = arith.addf %13, %14 fastmath<reassoc,contract> : f32
          affine.store %15, %arg0[%arg7, %arg8] : memref<?x?xf32>
          %16 = affine.apply #map2(%arg8)
          %17 = affine.load %arg1[%arg7 - 1, %16] : memref<?x?xf32>
          %18 = affine.load %arg1[%arg7 + 1, %16] : memref<?x?xf32>
          %19 = affine.load %arg1[%arg7, %16 - 1] : memref<?x?xf32>
          %20 = affine.load %arg1[%arg7, %16 + 1] : memref<?x?xf32>
          %21 = affine.load %arg1[%arg7, %16] : memref<?x?xf32>
          %22 = arith.mulf %0, %17 fastmath<reassoc,contract> : f32
          %23 = arith.mulf %0, %18 fastmath<reassoc,contract> : f32
          %24 = arith.addf %22, %23 fastmath<reassoc,contract> : f32
          %25 = arith.mulf %0, %19 fastmath<reassoc,contract> : f32
          %26 = arith.addf %24, %25 fastmath<reassoc,contract> : f32
          %27 = arith.mulf %0, %20 fastmath<reassoc,contract> : f32
          %28 = arith.addf %26, %27 fastmath<reassoc,contract> : f32
          %29 = arith.mulf %1, %21 fastmath<reassoc,contract> : f32
          %30 = arith.addf %28, %29 fastmath<reassoc,contract> : f32
          affine.store %30, %arg0[%arg7, %16] : memref<?x?xf32>
          %31 = affine.apply #map3(%arg8)
          %32 = affine.load %arg1[%arg7 - 1, %31] : memref<?x?xf32>
          %33 = affine.load %arg1[%arg7 + 1, %31] : memref<?x?xf32>
          %34 = affine.load %arg1[%arg7, %31 - 1] : memref<?x?xf32>
          %35 = affine.load %arg1[%arg7, %31 + 1] : memref<?x?xf32>
          %36 = affine.load %arg1[%arg7, %31] : memref<?x?xf32>
          %37 = arith.mulf %0, %32 fastmath<reassoc,contract> : f32
          %38 = arith.mulf %0, %33 fastmath<reassoc,contract> : f32
          %39 = arith.addf %37, %38 fastmath<reassoc,contract> : f32
          %40 = arith.mulf %0, %34 fastmath<reassoc,contract> : f32
          %41 = arith.addf %39, %40 fastmath<reassoc,contract> : f32
          %42 = arith.mulf %0, %35 fastmath<reassoc,contract> : f32
          %43 = arith.addf %41, %42 fastmath<reassoc,contract> : f32
          %44 = arith.mulf %1, %36 fastmath<reassoc,contract> : f32
          %45 = arith.addf %43, %44 fastmath<reassoc,contract> : f32
          affine.store %45, %arg0[%arg7, %31] : memref<?x?xf32>
        }
        affine.for %arg8 = max #map4()[%arg4] to #map()[%arg4] {
          %2 = affine.load %arg1[%arg7 - 1, %arg8] : memref<?x?xf32>
          %3 = affine.load %arg1[%arg7 + 1, %arg8] : memref<?x?xf32>
          %4 = affine.load %arg1[%arg7, %arg8 - 1] : memref<?x?xf32>
          %5 = affine.load %arg1[%arg7, %arg8 + 1] : memref<?x?xf32>
          %6 = affine.load %arg1[%arg7, %arg8] : memref<?x?xf32>
          %7 = arith.mulf %0, %2 fastmath<reassoc,contract> : f32
          %8 = arith.mulf %0, %3 fastmath<reassoc,contract> : f32
          %9 = arith.addf %7, %8 fastmath<reassoc,contract> : f32
          %10 = arith.mulf %0, %4 fastmath<reassoc,contract> : f32
          %11 = arith.addf %9, %10 fastmath<reassoc,contract> : f32
          %12 = arith.mulf %0, %5 fastmath<reassoc,contract> : f32
          %13 = arith.addf %11, %12 fastmath<reassoc,contract> : f32
          %14 = arith.mulf %1, %6 fastmath<reassoc,contract> : f32
          %15 = arith.addf %13, %14 fastmath<reassoc,contract> : f32
          affine.store %15, %arg0[%arg7, %arg8] : memref<?x?xf32>
        }
      }
    }
    return
  }
}
