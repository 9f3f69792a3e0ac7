// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' infs/workloads/loops/conv3d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> ((s0 floordiv 3) * 3)>
#map1 = affine_map<(d0) -> (d0 + 1)>
#map2 = affine_map<(d0) -> (d0 + 2)>
#map3 = affine_map<()[s0] -> ((s0 floordiv 3) * 3, 0)>
#map4 = affine_map<()[s0] -> (s0 - 1)>
#map5 = affine_map<()[s0] -> (((s0 - 2) floordiv 3) * 3 + 1)>
#map6 = affine_map<()[s0] -> (((s0 - 2) floordiv 3) * 3 + 1, 1)>
module {
  func.func @conv3d(%arg0: memref<?x?x?xf32>, %arg1: memref<?x?x?xf32>, %arg2: memref<?x?x?xf32>, %arg3: index, %arg4: index, %arg5: index, %arg6: index) {
    %cst = arith.constant 0.000000e+00 : f32
    affine.for %arg7 = 0 to %arg4 {
      affine.for %arg8 = 0 to %arg5 {
        affine.for %arg9 = 0 to #map()[%arg6] step 3 {
          affine.store %cst, %arg2[%arg7, %arg8, %arg9] : memref<?x?x?xf32>
          %0 = affine.apply #map1(%arg9)
          affine.store %cst, %arg2[%arg7, %arg8, %0] : memref<?x?x?xf32>
          %1 = affine.apply #map2(%arg9)
          affine.store %cst, %arg2[%arg7, %arg8, %1] : memref<?x?x?xf32>
        }
        affine.for %arg9 = max #map3()[%arg6] to %arg6 {
          affine.store %cst, %arg2[%arg7, %arg8, %arg9] : memref<?x?x?xf32>
        }
      }
    }
    affine.for %arg7 = 0 to %arg3 {
      affine.for %arg8 = 0 to %arg4 {
        affine.for %arg9 = 1 to #map4()[%arg5] {
          affine.for %arg10 = 1 to #map5()[%arg6] step 3 {
            %0 = affine.load %arg0[%arg7, %arg9 - 1, %arg10 - 1] : memref<?x?x?xf32>
            %1 = affine.load %arg0[%arg7, %arg9 - 1, %arg10] : memref<?x?x?xf32>
            %2 = affine.load %arg0[%arg7, %arg9 - 1, %arg10 + 1] : memref<?x?x?xf32>
            %3 = affine.load %arg0[%arg7, %arg9, %arg10 - 1] : memref<?x?x?xf32>
            %4 = affine.load %arg0[%arg7, %arg9, %arg10] : memref<?x?x?xf32>
            %5 = affine.load %arg0[%arg7, %arg9, %arg10 + 1] : memref<?x?x?xf32>
            %6 = affine.load %arg0[%arg7, %arg9 + 1, %arg10 - 1] : memref<?x?x?xf32>
            %7 = affine.load %arg0[%arg7, %arg9 + 1, %arg10] : memref<?x?x?xf32>
            %8 = affine.load %arg0[%arg7, %arg9 + 1, %arg10 + 1] : memref<?x?x?xf32>
            %9 = affine.load %arg1[%arg8, %arg7, 0] : memref<?x?x?xf32>
            %10 = affine.load %arg1[%arg8, %arg7, 1] : memref<?x?x?xf32>
            %11 = affine.load %arg1[%arg8, %arg7, 2] : memref<?x?x?xf32>
            %12 = affine.load %arg1[%arg8, %arg7, 3] : memref<?x?x?xf32>
            %13 = affine.load %arg1[%arg8, %arg7, 4] : memref<?x?x?xf32>
            %14 = affine.load %arg1[%arg8, %arg7, 5] : memref<?x?x?xf32>
            %15 = affine.load %arg1[%arg8, %arg7, 6] : memref<?x?x?xf32>
            %16 = affine.load %arg1[%arg8, %arg7, 7] : memref<?x?x?xf32>
            %17 = affine.load %arg1[%arg8, %arg7, 8] : memref<?x?x?xf32>
            %18 = arith.mulf %9, %0 fastmath<reassoc,contract> : f32
            %19 = arith.mulf %10, %1 fastmath<reassoc,contract> : f32
            %20 = arith.addf %18, %19 fastmath<reassoc,contract> : f32
            %21 = arith.mulf %11, %2 fastmath<reassoc,contract> : f32
            %22 = arith.addf %20, %21 fastmath<reassoc,contract> : f32
            %23 = arith.mulf %12, %3 fastmath<reassoc,contract> : f32
            %24 = arith.mulf %13, %4 fastmath<reassoc,contract> : f32
            %25 = arith.addf %23, %24 fastmath<reassoc,contract> : f32
            %26 = arith.mulf %14, %5 fastmath<reassoc,contract> : f32
            %27 = arith.addf %25, %26 fastmath<reassoc,contract> : f32
            %28 = arith.mulf %15, %6 fastmath<reassoc,contract> : f32
            %29 = arith.mulf %16, %7 fastmath<reassoc,contract> : f32
            %30 = arith.addf %28, %29 fastmath<reassoc,contract> : f32
            %31 = arith.mulf %17, %8 fastmath<reassoc,contract> : f32
            %32 = arith.addf %30, %31 fastmath<reassoc,contract> : f32
            %33 = arith.addf %22, %27 fastmath<reassoc,contract> : f32
            %34 = arith.addf %33, %32 fastmath<reassoc,contract> : f32
            %35 = affine.load %arg2[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
            %36 = arith.addf %35, %34 fastmath<reassoc,contract> : f32
            affine.store %36, %arg2[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
            %37 = affine.apply #map1(%arg10)
            %38 = affine.load %arg0[%arg7, %arg9 - 1, %37 - 1] : memref<?x?x?xf32>
            %39 = affine.load %arg0[%arg7, %arg9 - 1, %37] : memref<?x?x?xf32>
            %40 = affine.load %arg0[%arg7, %arg9 - 1, %37 + 1] : memref<?x?x?xf32>
            %41 = affine.load %arg0[%arg7, %arg9, %37 - 1] : memref<?x?x?xf32>
            %42 = affine.load %arg0[%arg7, %arg9, %37] : memref<?x?x?xf32>
            %43 = affine.load %arg0[%arg7, %arg9, %37 + 1] : memref<?x?x?xf32>
            %44 = affine.load %arg0[%arg7, %arg9 + 1, %37 - 1] : memref<?x?x?xf32>
            %45 = affine.load %arg0[%arg7, %arg9 + 1, %37] : memref<?x?x?xf32>
            %46 = affine.load %arg0[%arg7, %arg9 + 1, %37 + 1] : memref<?x?x?xf32>
            %47 = affine.load %arg1[%arg8, %arg7, 0] : memref<?x?x?xf32>
            %48 = affine.load %arg1[%arg8, %arg7, 1] : memref<?x?x?xf32>
            %49 = affine.load %arg1[%arg8, %arg7, 2] : memref<?x?x?xf32>
            %50 = affine.load %arg1[%arg8, %arg7, 3] : memref<?x?x?xf32>
            %51 = affine.load %arg1[%arg8, %arg7, 4] : memref<?x?x?xf32>
            %52 = affine.load %arg1[%arg8, %arg7, 5] : memref<?x?x?xf32>
            %53 = affine.load %arg1[%arg8, %arg7, 6] : memref<?x?x?xf32>
            %54 = affine.load %arg1[%arg8, %arg7, 7] : memref<?x?x?xf32>
            %55 = affine.load %arg1[%arg8, %arg7, 8] : memref<?x?x?xf32>
            %56 = arith.mulf %47, %38 fastmath<reassoc,contract> : f32
            %57 = arith.mulf %48, %39 fastmath<reassoc,contract> : f32
            %58 = arith.addf %56, %57 fastmath<reassoc,contract> : f32
            %59 = arith.mulf %49, %40 fastmath<reassoc,contract> : f32
            %60 = arith.addf %58, %59 fastmath<reassoc,contract> : f32
            %61 = arith.mulf %50, %41 fastmath<reassoc,contract> : f32
            %62 = arith.mulf %51, %42 fastmath<reassoc,contract> : f32
            %63 = arith.addf %61, %62 fastmath<reassoc,contract> : f32
            %64 = arith.mulf %52, %43 fastmath<reassoc,contract> : f32
            %65 = arith.addf %63, %64 fastmath<reassoc,contract> : f32
            %66 = arith.mulf %53, %44 fastmath<reassoc,contract> : f32
            %67 = arith.mulf %54, %45 fastmath<reassoc,contract> : f32
            %68 = arith.addf %66, %67 fastmath<reassoc,contract> : f32
            %69 = arith.mulf %55, %46 fastmath<reassoc,contract> : f32
            %70 = arith.addf %68, %69 fastmath<reassoc,contract> : f32
            %71 = arith.addf %60, %65 fastmath<reassoc,contract> : f32
            %72 = arith.addf %71, %70 fastmath<reassoc,contract> : f32
            %73 = affine.load %arg2[%arg8, %arg9, %37] : memref<?x?x?xf32>
            %74 = arith.addf %73, %72 fastmath<reassoc,contract> : f32
            affine.store %74, %arg2[%arg8, %arg9, %37] : memref<?x?x?xf32>
            %75 = affine.apply #map2(%arg10)
            %76 = affine.load %arg0[%arg7, %arg9 - 1, %75 - 1] : memref<?x?x?xf32>
            %77 = affine.load %arg0[%arg7, %arg9 - 1, %75] : memref<?x?x?xf32>
            %78 = affine.load %arg0[%arg7, %arg9 - 1, %75 + 1] : memref<?x?x?xf32>
            %79 = affine.load %arg0[%arg7, %arg9, %75 - 1] : memref<?x?x?xf32>
            %80 = affine.load %arg0[%arg7, %arg9, %75] : memref<?x?x?xf32>
            %81 = affine.load %arg0[%arg7, %arg9, %75 + 1] : memref<?x?x?xf32>
            %82 = affine.load %arg0[%arg7, %arg9 + 1, %75 - 1] : memref<?x?x?xf32>
            %83 = affine.load %arg0[%arg7, %arg9 + 1, %75] : memref<?x?x?xf32>
            %84 = affine.load %arg0[%arg7, %arg9 + 1, %75 + 1] : memref<?x?x?xf32>
            %85 = affine.load %arg1[%arg8, %arg7, 0] : memref<?x?x?xf32>
            %86 = affine.load %arg1[%arg8, %arg7, 1] : memref<?x?x?xf32>
            %87 = affine.load %arg1[%arg8, %arg7, 2] : memref<?x?x?xf32>
            %88 = affine.load %arg1[%arg8, %arg7, 3] : memref<?x?x?xf32>
            %89 = affine.load %arg1[%arg8, %arg7, 4] : memref<?x?x?xf32>
            %90 = affine.load %arg1[%arg8, %arg7, 5] : memref<?x?x?xf32>
            %91 = affine.load %arg1[%arg8, %arg7, 6] : memref<?x?x?xf32>
            %92 = affine.load %arg1[%arg8, %arg7, 7] : memref<?x?x?xf32>
            %93 = affine.load %arg1[%arg8, %arg7, 8] : memref<?x?x?xf32>
            %94 = arith.mulf %85, %76 fastmath<reassoc,contract> : f32
            %95 = arith.mulf %86, %77 fastmath<reassoc,contract> : f32
            %96 = arith.addf %94, %95 fastmath<reassoc,contract> : f32
            %97 = arith.mulf %87, %78 fastmath<reassoc,contract> : f32
            %98 = arith.addf %96, %97 fastmath<reassoc,contract> : f32
            %99 = arith.mulf %88, %79 fastmath<reassoc,contract> : f32
            %100 = arith.mulf %89, %80 fastmath<reassoc,contract> : f32
            %101 = arith.addf %99, %100 fastmath<reassoc,contract> : f32
            %102 = arith.mulf %90, %81 fastmath<reassoc,contract> : f32
            %103 = arith.addf %101, %102 fastmath<reassoc,contract> : f32
            %104 = arith.mulf %91, %82 fastmath<reassoc,contract> : f32
            %105 = arith.mulf %92, %83 fastmath<reassoc,contract> : f32
            %106 = arith.addf %104, %105 fastmath<reassoc,contract> : f32
            %107 = arith.mulf %93, %84 fastmath<reassoc,contract> : f32
            %108 = arith.addf %106, %107 fastmath<reassoc,contract> : f32
            %109 = arith.addf %98, %103 fastmath<reassoc,contract> : f32
            %110 = arith.addf %109, %108 fastmath<reassoc,contract> : f32
            %111 = affine.load %arg2[%arg8, %arg9, %75] : memref<?x?x?xf32>
            %112 = arith.addf %111, %110 fastmath<reassoc,contract> : f32
            affine.store %112, %arg2[%arg8, %arg9, %75] : memref<?x?x?xf32>
          }
          affine.for %arg10 = max #map6()[%arg6] to #map4()[%arg6] {
            %0 = affine.load %arg0[%arg7, %arg9 - 1, %arg10 - 1] : memref<?x?x?xf32>
            %1 = affine.load %arg0[%arg7, %arg9 - 1, %arg10] : memref<?x?x?xf32>
            %2 = affine.load %arg0[%arg7, %arg9 - 1, %arg10 + 1] : memref<?x?x?xf32>
            %3 = affine.load %arg0[%arg7, %arg9, %arg10 - 1] : memref<?x?x?xf32>
            %4 = affine.load %arg0[%arg7, %arg9, %arg10] : memref<?x?x?xf32>
            %5 = affine.load %arg0[%arg7, %arg9, %arg10 + 1] : memref<?x?x?xf32>
            %6 = affine.load %arg0[%arg7, %arg9 + 1, %arg10 - 1] : memref<?x?x?xf32>
            %7 = affine.load %arg0[%arg7, %arg9 + 1, %arg10] : memref<?x?x?xf32>
            %8 = affine.load %arg0[%arg7, %arg9 + 1, %arg10 + 1] : memref<?x?x?xf32>
            %9 = affine.load %arg1[%arg8, %arg7, 0] : memref<?x?x?xf32>
            %10 = affine.load %arg1[%arg8, %arg7, 1] : memref<?x?x?xf32>
            %11 = affine.load %arg1[%arg8, %arg7, 2] : memref<?x?x?xf32>
            %12 = affine.load %arg1[%arg8, %arg7, 3] : memref<?x?x?xf32>
            %13 = affine.load %arg1[%arg8, %arg7, 4] : memref<?x?x?xf32>
            %14 = affine.load %arg1[%arg8, %arg7, 5] : memref<?x?x?xf32>
            %15 = affine.load %arg1[%arg8, %arg7, 6] : memref<?x?x?xf32>
            %16 = affine.load %arg1[%arg8, %arg7, 7] : memref<?x?x?xf32>
            %17 = affine.load %arg1[%arg8, %arg7, 8] : memref<?x?x?xf32>
            %18 = arith.mulf %9, %0 fastmath<reassoc,contract> : f32
            %19 = arith.mulf %10, %1 fastmath<reassoc,contract> : f32
            %20 = arith.addf %18, %19 fastmath<reassoc,contract> : f32
            %21 = arith.mulf %11, %2 fastmath<reassoc,contract> : f32
            %22 = arith.addf %20, %21 fastmath<reassoc,contract> : f32
            %23 = arith.mulf %12, %3 fastmath<reassoc,contract> : f32
            %24 = arith.mulf %13, %4 fastmath<reassoc,contract> : f32
            %25 = arith.addf %23, %24 fastmath<reassoc,contract> : f32
            %26 = arith.mulf %14, %5 fastmath<reassoc,contract> : f32
            %27 = arith.addf %25, %26 fastmath<reassoc,contract> : f32
            %28 = arith.mulf %15, %6 fastmath<reassoc,contract> : f32
            %29 = arith.mulf %16, %7 fastmath<reassoc,contract> : f32
            %30 = arith.addf %28, %29 fastmath<reassoc,contract> : f32
            %31 = arith.mulf %17, %8 fastmath<reassoc,contract> : f32
            %32 = arith.addf %30, %31 fastmath<reassoc,contract> : f32
            %33 = arith.addf %22, %27 fastmath<reassoc,contract> : f32
            %34 = arith.addf %33, %32 fastmath<reassoc,contract> : f32
            %35 = affine.load %arg2[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
            %36 = arith.addf %35, %34 fastmath<reassoc,contract> : f32
            affine.store %36, %arg2[%arg8, %arg9, %arg10] : memref<?x?x?xf32>
          }
        }
      }
    }
    return
  }
}
