// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' infs/workloads/loops/stencil3d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> (s0 - 1)>
#map1 = affine_map<()[s0] -> (((s0 - 2) floordiv 3) * 3 + 1)>
#map2 = affine_map<(d0) -> (d0 + 1)>
#map3 = affine_map<(d0) -> (d0 + 2)>
#map4 = affine_map<()[s0] -> (((s0 - 2) floordiv 3) * 3 + 1, 1)>
module {
  func.func @stencil3d(%arg0: memref<?x?x?xf32>, %arg1: memref<?x?x?xf32>, %arg2: memref<?xf32>, %arg3: index, %arg4: index, %arg5: index, %arg6: index) {
    %0 = affine.load %arg2[0] : memref<?xf32>
    %1 = affine.load %arg2[1] : memref<?xf32>
    affine.for %arg7 = 0 to %arg6 step 2 {
      affine.for %arg8 = 1 to #map()[%arg3] {
        affine.for %arg9 = 1 to #map()[%arg4] {
          affine.for %arg10 = 1 to #map1()[%arg5] step 3 {
            %2 = affine.load %arg0[%arg8 - 1, %arg9, %arg10] : memref<?x?x?xf32>
            %3 = affine.load %arg0[%arg8 + 1, %arg9, %arg10] : memref<?x?x?xf32>
            %4 = affine.load %arg0[%arg8, %arg9 - 1, %arg10] : memref<?x?x?xf32>
            %5 = affine.load %arg0[%arg8, %arg9 + 1, %arg10] : memref<?x?x?xf32>
            %6 = affine.load %arg0[%arg8, %arg9, %arg10 - 1] : memref<?x?x?xf32>
            %7 = affine.load %arg0[%arg8, %arg9, %arg10 + 1] : memref<?x?x?xf32>
            %8 = affine.load %arg0[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
            %9 = arith.mulf %0, %2 fastmath<reassoc,contract> : f32
            %10 = arith.mulf %0, %3 fastmath<reassoc,contract> : f32
            %11 = arith.addf %9, %10 fastmath<reassoc,contract> : f32
            %12 = arith.mulf %0, %4 fastmath<reassoc,contract> : f32
            %13 = arith.addf %11, %12 fastmath<reassoc,contract> : f32
            %14 = arith.mulf %0, %5 fastmath<reassoc,contract> : f32
            %15 = arith.addf %13, %14 fastmath<reassoc,contract> : f32
            %16 = arith.mulf %0, %6 fastmath<reassoc,contract> : f32
            %17 = arith.addf %15, %16 fastmath<reassoc,contract> : f32
            %18 = arith.mulf %0, %7 fastmath<reassoc,contract> : f32
            %19 = arith.addf %17, %18 fastmath<reassoc,contract> : f32
            %20 = arith.mulf %1, %8 fastmath<reassoc,contract> : f32
            %21 = arith.addf %19, %20 fastmath<reassoc,contract> : f32
            affine.store %21, %arg1[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
            %22 = affine.apply #map2(%arg10)
            %23 = affine.load %arg0[%arg8 - 1, %arg9, %22] : memref<?x?x?xf32>
            %24 = affine.load %arg0[%arg8 + 1, %arg9, %22] : memref<?x?x?xf32>
            %25 = affine.load %arg0[%arg8, %arg9 - 1, %22] : memref<?x?x?xf32>
            %26 = affine.load %arg0[%arg8, %arg9 + 1, %22] : memref<?x?x?xf32>
            %27 = affine.load %arg0[%arg8, %arg9, %22 - 1] : memref<?x?x?xf32>
            %28 = affine.load %arg0[%arg8, %arg9, %22 + 1] : memref<?x?x?xf32>
            %29 = affine.load %arg0[%arg8, %arg9, %22] : memref<?x?x?xf32>
            %30 = arith.mulf %0, %23 fastmath<reassoc,contract> : f32
            %31 = arith.mulf %0, %24 fastmath<reassoc,contract> : f32
            %32 = arith.addf %30, %31 fastmath<reassoc,contract> : f32
            %33 = arith.mulf %0, %25 fastmath<reassoc,contract> : f32
            %34 = arith.addf %32, %33 fastmath<reassoc,contract> : f32
            %35 = arith.mulf %0, %26 fastmath<reassoc,contract> : f32
            %36 = arith.addf %34, %35 fastmath<reassoc,contract> : f32
            %37 = arith.mulf %0, %27 fastmath<reassoc,contract> : f32
            %38 = arith.addf %36, %37 fastmath<reassoc,contract> : f32
            %39 = arith.mulf %0, %28 fastmath<reassoc,contract> : f32
            %40 = arith.addf %38, %39 fastmath<reassoc,contract> : f32
            %41 = arith.mulf %1, %29 fastmath<reassoc,contract> : f32
            %42 = arith.addf %40, %41 fastmath<reassoc,contract> : f32
            affine.store %42, %arg1[%arg8, %arg9, %22] : memref<?x?x?xf32>
            %43 = affine.apply #map3(%arg10)
            %44 = affine.load %arg0[%arg8 - 1, %arg9, %43] : memref<?x?x?xf32>
            %45 = affine.load %arg0[%arg8 + 1, %arg9, %43] : memref<?x?x?xf32>
            %46 = affine.load %arg0[%arg8, %arg9 - 1, %43] : memref<?x?x?xf32>
            %47 = affine.load %arg0[%arg8, %arg9 + 1, %43] : memref<?x?x?xf32>
            %48 = affine.load %arg0[%arg8, %arg9, %43 - 1] : memref<?x?x?xf32>
            %49 = affine.load %arg0[%arg8, %arg9, %43 + 1] : memref<?x?x?xf32>
            %50 = affine.load %arg0[%arg8, %arg9, %43] : memref<?x?x?xf32>
            %51 = arith.mulf %0, %44 fastmath<reassoc,contract> : f32
            %52 = arith.mulf %0, %45 fastmath<reassoc,contract> : f32
            %53 = arith.addf %51, %52 fastmath<reassoc,contract> : f32
            %54 = arith.mulf %0, %46 fastmath<reassoc,contract> : f32
            %55 = arith.addf %53, %54 fastmath<reassoc,contract> : f32
            %56 = arith.mulf %0, %47 fastmath<reassoc,contract> : f32
            %57 = arith.addf %55, %56 fastmath<reassoc,contract> : f32
            %58 = arith.mulf %0, %48 fastmath<reassoc,contract> : f32
            %59 = arith.addf %57, %58 fastmath<reassoc,contract> : f32
            %60 = arith.mulf %0, %49 fastmath<reassoc,contract> : f32
            %61 = arith.addf %59, %60 fastmath<reassoc,contract> : f32
            %62 = arith.mulf %1, %50 fastmath<reassoc,contract> : f32
            %63 = arith.addf %61, %62 fastmath<reassoc,contract> : f32
            affine.store %63, %arg1[%arg8, %arg9, %43] : memref<?x?x?xf32>
          }
          affine.for %arg10 = max #map4()[%arg5] to #map()[%arg5] {
            %2 = affine.load %arg0[%arg8 - 1, %arg9, %arg10] : memref<?x?x?xf32>
            %3 = affine.load %arg0[%arg8 + 1, %arg9, %arg10] : memref<?x?x?xf32>
            %4 = affine.load %arg0[%arg8, %arg9 - 1, %arg10] : memref<?x?x?xf32>
            %5 = affine.load %arg0[%arg8, %arg9 + 1, %arg10] : memref<?x?x?xf32>
            %6 = affine.load %arg0[%arg8, %arg9, %arg10 - 1] : memref<?x?x?xf32>
            %7 = affine.load %arg0[%arg8, %arg9, %arg10 + 1] : memref<?x?x?xf32>
            %8 = affine.load %arg0[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
            %9 = arith.mulf %0, %2 fastmath<reassoc,contract> : f32
            %10 = arith.mulf %0, %3 fastmath<reassoc,contract> : f32
            %11 = arith.addf %9, %10 fastmath<reassoc,contract> : f32
            %12 = arith.mulf %0, %4 fastmath<reassoc,contract> : f32
            %13 = arith.addf %11, %12 fastmath<reassoc,contract> : f32
            %14 = arith.mulf %0, %5 fastmath<reassoc,contract> : f32
            %15 = arith.addf %13, %14 fastmath<reassoc,contract> : f32
            %16 = arith.mulf %0, %6 fastmath<reassoc,contract> : f32
            %17 = arith.addf %15, %16 fastmath<reassoc,contract> : f32
            %18 = arith.mulf %0, %7 fastmath<reassoc,contract> : f32
            %19 = arith.addf %17, %18 fastmath<reassoc,contract> : f32
            %20 = arith.mulf %1, %8 fastmath<reassoc,contract> : f32
            %21 = arith.addf %19, %20 fastmath<reassoc,contract> : f32
            affine.store %21, %arg1[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
          }
        }
      }
      affine.for %arg8 = 1 to #map()[%arg3] {
        affine.for %arg9 = 1 to #map()[%arg4] {
          affine.for %arg10 = 1 to #map1()[%arg5] step 3 {
            %2 = affine.load %arg1[%arg8 - 1, %arg9, %arg10] : memref<?x?x?xf32>
            %3 = affine.load %arg1[%arg8 + 1, %arg9, %arg10] : memref<?x?x?xf32>
            %4 = affine.load %arg1[%arg8, %arg9 - 1, %arg10] : memref<?x?x?xf32>
            %5 = affine.load %arg1[%arg8, %arg9 + 1, %arg10] : memref<?x?x?xf32>
            %6 = affine.load %arg1[%arg8, %arg9, %arg10 - 1] : memref<?x?x?xf32>
            %7 = affine.load %arg1[%arg8, %arg9, %arg10 + 1] : memref<?x?x?xf32>
            %8 = affine.load %arg1[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
            %9 = arith.mulf %0, %2 fastmath<reassoc,contract> : f32
            %10 = arith.mulf %0, %3 fastmath<reassoc,contract> : f32
            %11 = arith.addf %9, %10 fastmath<reassoc,contract> : f32
            %12 = arith.mulf %0, %4 fastmath<reassoc,contract> : f32
            %13 = arith.addf %11, %12 fastmath<reassoc,contract> : f32
            %14 = arith.mulf %0, %5 fastmath<reassoc,contract> : f32
            %15 = arith.addf %13, %14 fastmath<reassoc,contract> : f32
            %16 = arith.mulf %0, %6 fastmath<reassoc,contract> : f32
            %17 = arith.addf %15, %16 fastmath<reassoc,contract> : f32
            %18 = arith.mulf %0, %7 fastmath<reassoc,contract> : f32
            %19 = arith.addf %17, %18 fastmath<reassoc,contract> : f32
            %20 = arith.mulf %1, %8 fastmath<reassoc,contract> : f32
            %21 = arith.addf %19, %20 fastmath<reassoc,contract> : f32
            affine.store %21, %arg0[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
            %22 = affine.apply #map2(%arg10)
            %23 = affine.load %arg1[%arg8 - 1, %arg9, %22] : memref<?x?x?xf32>
            %24 = affine.load %arg1[%arg8 + 1, %arg9, %22] : memref<?x?x?xf32>
            %25 = affine.load %arg1[%arg8, %arg9 - 1, %22] : memref<?x?x?xf32>
            %26 = affine.load %arg1[%arg8, %arg9 + 1, %22] : memref<?x?x?xf32>
            %27 = affine.load %arg1[%arg8, %arg9, %22 - 1] : memref<?x?x?xf32>
            %28 = affine.load %arg1[%arg8, %arg9, %22 + 1] : memref<?x?x?xf32>
            %29 = affine.load %arg1[%arg8, %arg9, %22] : memref<?x?x?xf32>
            %30 = arith.mulf %0, %23 fastmath<reassoc,contract> : f32
            %31 = arith.mulf %0, %24 fastmath<reassoc,contract> : f32
            %32 = arith.addf %30, %31 fastmath<reassoc,contract> : f32
            %33 = arith.mulf %0, %25 fastmath<reassoc,contract> : f32
            %34 = arith.addf %32, %33 fastmath<reassoc,contract> : f32
            %35 = arith.mulf %0, %26 fastmath<reassoc,contract> : f32
            %36 = arith.addf %34, %35 fastmath<reassoc,contract> : f32
            %37 = arith.mulf %0, %27 fastmath<reassoc,contract> : f32
            %38 = arith.addf %36, %37 fastmath<reassoc,contract> : f32
            %39 = arith.mulf %0, %28 fastmath<reassoc,contract> : f32
            %40 = arith.addf %38, %39 fastmath<reassoc,contract> : f32
            %41 = arith.mulf %1, %29 fastmath<reassoc,contract> : f32
            %42 = arith.addf %40, %41 fastmath<reassoc,contract> : f32
            affine.store %42, %arg0[%arg8, %arg9, %22] : memref<?x?x?xf32>
            %43 = affine.apply #map3(%arg10)
            %44 = affine.load %arg1[%arg8 - 1, %arg9, %43] : memref<?x?x?xf32>
            %45 = affine.load %arg1[%arg8 + 1, %arg9, %43] : memref<?x?x?xf32>
            %46 = affine.load %arg1[%arg8, %arg9 - 1, %43] : memref<?x?x?xf32>
            %47 = affine.load %arg1[%arg8, %arg9 + 1, %43] : memref<?x?x?xf32>
            %48 = affine.load %arg1[%arg8, %arg9, %43 - 1] : memref<?x?x?xf32>
            %49 = affine.load %arg1[%arg8, %arg9, %43 + 1] : memref<?x?x?xf32>
            %50 = affine.load %arg1[%arg8, %arg9, %43] : memref<?x?x?xf32>
            %51 = arith.mulf %0, %44 fastmath<reassoc,contract> : f32
            %52 = arith.mulf %0, %45 fastmath<reassoc,contract> : f32
            %53 = arith.addf %51, %52 fastmath<reassoc,contract> : f32
            %54 = arith.mulf %0, %46 fastmath<reassoc,contract> : f32
            %55 = arith.addf %53, %54 fastmath<reassoc,contract> : f32
            %56 = arith.mulf %0, %47 fastmath<reassoc,contract> : f32
            %57 = arith.addf %55, %56 fastmath<reassoc,contract> : f32
            %58 = arith.mulf %0, %48 fastmath<reassoc,contract> : f32
            %59 = arith.addf %57, %58 fastmath<reassoc,contract> : f32
            %60 = arith.mulf %0, %49 fastmath<reassoc,contract> : f32
            %61 = arith.addf %59, %60 fastmath<reassoc,contract> : f32
            %62 = arith.mulf %1, %50 fastmath<reassoc,contract> : f32
            %63 = arith.addf %61, %62 fastmath<reassoc,contract> : f32
            affine.store %63, %arg0[%arg8, %arg9, %43] : memref<?x?x?xf32>
          }
          affine.for %arg10 = max #map4()[%arg5] to #map()[%arg5] {
            %2 = affine.load %arg1[%arg8 - 1, %arg9, %arg10] : memref<?x?x?xf32>
            %3 = affine.load %arg1[%arg8 + 1, %arg9, %arg10] : memref<?x?x?xf32>
            %4 = affine.load %arg1[%arg8, %arg9 - 1, %arg10] : memref<?x?x?xf32>
            %5 = affine.load %arg1[%arg8, %arg9 + 1, %arg10] : memref<?x?x?xf32>
            %6 = affine.load %arg1[%arg8, %arg9, %arg10 - 1] : memref<?x?x?xf32>
            %7 = affine.load %arg1[%arg8, %arg9, %arg10 + 1] : memref<?x?x?xf32>
            %8 = affine.load %arg1[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
            %9 = arith.mulf %0, %2 fastmath<reassoc,contract> : f32
            %10 = arith.mulf %0, %3 fastmath<reassoc,contract> : f32
            %11 = arith.addf %9, %10 fastmath<reassoc,contract> : f32
            %12 = arith.mulf %0, %4 fastmath<reassoc,contract> : f32
            %13 = arith.addf %11, %12 fastmath<reassoc,contract> : f32
            %14 = arith.mulf %0, %5 fastmath<reassoc,contract> : f32
            %15 = arith.addf %13, %14 fastmath<reassoc,contract> : f32
            %16 = arith.mulf %0, %6 fastmath<reassoc,contract> : f32
            %17 = arith.addf %15, %16 fastmath<reassoc,contract> : f32
            %18 = arith.mulf %0, %7 fastmath<reassoc,contract> : f32
            %19 = arith.addf %17, %18 fastmath<reassoc,contract> : f32
            %20 = arith.mulf %1, %8 fastmath<reassoc,contract> : f32
            %21 = arith.addf %19, %20 fastmath<reassoc,contract> : f32
            affine.store %21, %arg0[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
          }
        }
      }
    }
    return
  }
}
