// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' infs/workloads/loops/conv2d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> (s0 - 1)>
#map1 = affine_map<()[s0] -> (((s0 - 2) floordiv 3) * 3 + 1)>
#map2 = affine_map<(d0) -> (d0 + 1)>
#map3 = affine_map<(d0) -> (d0 + 2)>
#map4 = affine_map<()[s0] -> (((s0 - 2) floordiv 3) * 3 + 1, 1)>
module {
  func.func @conv2d(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>, %arg3: index, %arg4: index) {
    %0 = affine.load %arg1[0, 0] : memref<?x?xf32>
    %1 = affine.load %arg1[0, 1] : memref<?x?xf32>
    %2 = affine.load %arg1[0, 2] : memref<?x?xf32>
    %3 = affine.load %arg1[1, 0] : memref<?x?xf32>
    %4 = affine.load %arg1[1, 1] : memref<?x?xf32>
    %5 = affine.load %arg1[1, 2] : memref<?x?xf32>
    %6 = affine.load %arg1[2, 0] : memref<?x?xf32>
    %7 = affine.load %arg1[2, 1] : memref<?x?xf32>
    %8 = affine.load %arg1[2, 2] : memref<?x?xf32>
    affine.for %arg5 = 1 to #map()[%arg3] {
      affine.for %arg6 = 1 to #map1()[%arg4] step 3 {
        %9 = affine.load %arg0[%arg5 - 1, %arg6 - 1] : memref<?x?xf32>
        %10 = affine.load %arg0[%arg5 - 1, %arg6] : memref<?x?xf32>
        %11 = affine.load %arg0[%arg5 - 1, %arg6 + 1] : memref<?x?xf32>
        %12 = affine.load %arg0[%arg5, %arg6 - 1] : memref<?x?xf32>
        %13 = affine.load %arg0[%arg5, %arg6] : memref<?x?xf32>
        %14 = affine.load %arg0[%arg5, %arg6 + 1] : memref<?x?xf32>
        %15 = affine.load %arg0[%arg5 + 1, %arg6 - 1] : memref<?x?xf32>
        %16 = affine.load %arg0[%arg5 + 1, %arg6] : memref<?x?xf32>
        %17 = affine.load %arg0[%arg5 + 1, %arg6 + 1] : memref<?x?xf32>
        %18 = arith.mulf %0, %9 fastmath<reassoc,contract> : f32
        %19 = arith.mulf %1, %10 fastmath<reassoc,contract> : f32
        %20 = arith.addf %18, %19 fastmath<reassoc,contract> : f32
        %21 = arith.mulf %2, %11 fastmath<reassoc,contract> : f32
        %22 = arith.addf %20, %21 fastmath<reassoc,contract> : f32
        %23 = arith.mulf %3, %12 fastmath<reassoc,contract> : f32
        %24 = arith.mulf %4, %13 fastmath<reassoc,contract> : f32
        %25 = arith.addf %23, %24 fastmath<reassoc,contract> : f32
        %26 = arith.mulf %5, %14 fastmath<reassoc,contract> : f32
        %27 = arith.addf %25, %26 fastmath<reassoc,contract> : f32
        %28 = arith.mulf %6, %15 fastmath<reassoc,contract> : f32
        %29 = arith.mulf %7, %16 fastmath<reassoc,contract> : f32
        %30 = arith.addf %28, %29 fastmath<reassoc,contract> : f32
        %31 = arith.mulf %8, %17 fastmath<reassoc,contract> : f32
        %32 = arith.addf %30, %31 fastmath<reassoc,contract> : f32
        %33 = arith.addf %22, %27 fastmath<reassoc,contract> : f32
        %34 = arith.addf %33, %32 fastmath<reassoc,contract> : f32
        affine.store %34, %arg2[%arg5, %arg6] : memref<?x?xf32>
        %35 = affine.apply #map2(%arg6)
        %36 = affine.load %arg0[%arg5 - 1, %35 - 1] : memref<?x?xf32>
        %37 = affine.load %arg0[%arg5 - 1, %35] : memref<?x?xf32>
        %38 = affine.load %arg0[%arg5 - 1, %35 + 1] : memref<?x?xf32>
        %39 = affine.load %arg0[%arg5, %35 - 1] : memref<?x?xf32>
        %40 = affine.load %arg0[%arg5, %35] : memref<?x?xf32>
        %41 = affine.load %arg0[%arg5, %35 + 1] : memref<?x?xf32>
        %42 = affine.load %arg0[%arg5 + 1, %35 - 1] : memref<?x?xf32>
        %43 = affine.load %arg0[%arg5 + 1, %35] : memref<?x?xf32>
        %44 = affine.load %arg0[%arg5 + 1, %35 + 1] : memref<?x?xf32>
        %45 = arith.mulf %0, %36 fastmath<reassoc,contract> : f32
        %46 = arith.mulf %1, %37 fastmath<reassoc,contract> : f32
        %47 = arith.addf %45, %46 fastmath<reassoc,contract> : f32
        %48 = arith.mulf %2, %38 fastmath<reassoc,contract> : f32
        %49 = arith.addf %47, %48 fastmath<reassoc,contract> : f32
        %50 = arith.mulf %3, %39 fastmath<reassoc,contract> : f32
        %51 = arith.mulf %4, %40 fastmath<reassoc,contract> : f32
        %52 = arith.addf %50, %51 fastmath<reassoc,contract> : f32
        %53 = arith.mulf %5, %41 fastmath<reassoc,contract> : f32
        %54 = arith.addf %52, %53 fastmath<reassoc,contract> : f32
        %55 = arith.mulf %6, %42 fastmath<reassoc,contract> : f32
        %56 = arith.mulf %7, %43 fastmath<reassoc,contract> : f32
        %57 = arith.addf %55, %56 fastmath<reassoc,contract> : f32
        %58 = arith.mulf %8, %44 fastmath<reassoc,contract> : f32
        %59 = arith.addf %57, %58 fastmath<reassoc,contract> : f32
        %60 = arith.addf %49, %54 fastmath<reassoc,contract> : f32
        %61 = arith.addf %60, %59 fastmath<reassoc,contract> : f32
        affine.store %61, %arg2[%arg5, %35] : memref<?x?xf32>
        %62 = affine.apply #map3(%arg6)
        %63 = affine.load %arg0[%arg5 - 1, %62 - 1] : memref<?x?xf32>
        %64 = affine.load %arg0[%arg5 - 1, %62] : memref<?x?xf32>
        %65 = affine.load %arg0[%arg5 - 1, %62 + 1] : memref<?x?xf32>
        %66 = affine.load %arg0[%arg5, %62 - 1] : memref<?x?xf32>
        %67 = affine.load %arg0[%arg5, %62] : memref<?x?xf32>
        %68 = affine.load %arg0[%arg5, %62 + 1] : memref<?x?xf32>
        %69 = affine.load %arg0[%arg5 + 1, %62 - 1] : memref<?x?xf32>
        %70 = affine.load %arg0[%arg5 + 1, %62] : memref<?x?xf32>
        %71 = affine.load %arg0[%arg5 + 1, %62 + 1] : memref<?x?xf32>
        %72 = arith.mulf %0, %63 fastmath<reassoc,contract> : f32
        %73 = arith.mulf %1, %64 fastmath<reassoc,contract> : f32
        %74 = arith.addf %72, %73 fastmath<reassoc,contract> : f32
        %75 = arith.mulf %2, %65 fastmath<reassoc,contract> : f32
        %76 = arith.addf %74, %75 fastmath<reassoc,contract> : f32
        %77 = arith.mulf %3, %66 fastmath<reassoc,contract> : f32
        %78 = arith.mulf %4, %67 fastmath<reassoc,contract> : f32
        %79 = arith.addf %77, %78 fastmath<reassoc,contract> : f32
        %80 = arith.mulf %5, %68 fastmath<reassoc,contract> : f32
        %81 = arith.addf %79, %80 fastmath<reassoc,contract> : f32
        %82 = arith.mulf %6, %69 fastmath<reassoc,contract> : f32
        %83 = arith.mulf %7, %70 fastmath<reassoc,contract> : f32
        %84 = arith.addf %82, %83 fastmath<reassoc,contract> : f32
        %85 = arith.mulf %8, %71 fastmath<reassoc,contract> : f32
        %86 = arith.addf %84, %85 fastmath<reassoc,contract> : f32
        %87 = arith.addf %76, %81 fastmath<reassoc,contract> : f32
        %88 = arith.addf %87, %86 fastmath<reassoc,contract> : f32
        affine.store %88, %arg2[%arg5, %62] : memref<?x?xf32>
      }
      affine.for %arg6 = max #map4()[%arg4] to #map()[%arg4] {
        %9 = affine.load %arg0[%arg5 - 1, %arg6 - 1] : memref<?x?xf32>
        %10 = affine.load %arg0[%arg5 - 1, %arg6] : memref<?x?xf32>
        %11 = affine.load %arg0[%arg5 - 1, %arg6 + 1] : memref<?x?xf32>
        %12 = affine.load %arg0[%arg5, %arg6 - 1] : memref<?x?xf32>
        %13 = affine.load %arg0[%arg5, %arg6] : memref<?x?xf32>
        %14 = affine.load %arg0[%arg5, %arg6 + 1] : memref<?x?xf32>
        %15 = affine.load %arg0[%arg5 + 1, %arg6 - 1] : memref<?x?xf32>
        %16 = affine.load %arg0[%arg5 + 1, %arg6] : memref<?x?xf32>
        %17 = affine.load %arg0[%arg5 + 1, %arg6 + 1] : memref<?x?xf32>
        %18 = arith.mulf %0, %9 fastmath<reassoc,contract> : f32
        %19 = arith.mulf %1, %10 fastmath<reassoc,contract> : f32
        %20 = arith.addf %18, %19 fastmath<reassoc,contract> : f32
        %21 = arith.mulf %2, %11 fastmath<reassoc,contract> : f32
        %22 = arith.addf %20, %21 fastmath<reassoc,contract> : f32
        %23 = arith.mulf %3, %12 fastmath<reassoc,contract> : f32
        %24 = arith.mulf %4, %13 fastmath<reassoc,contract> : f32
        %25 = arith.addf %23, %24 fastmath<reassoc,contract> : f32
        %26 = arith.mulf %5, %14 fastmath<reassoc,contract> : f32
        %27 = arith.addf %25, %26 fastmath<reassoc,contract> : f32
        %28 = arith.mulf %6, %15 fastmath<reassoc,contract> : f32
        %29 = arith.mulf %7, %16 fastmath<reassoc,contract> : f32
        %30 = arith.addf %28, %29 fastmath<reassoc,contract> : f32
        %31 = arith.mulf %8, %17 fastmath<reassoc,contract> : f32
        %32 = arith.addf %30, %31 fastmath<reassoc,contract> : f32
        %33 = arith.addf %22, %27 fastmath<reassoc,contract> : f32
        %34 = arith.addf %33, %32 fastmath<reassoc,contract> : f32
        affine.store %34, %arg2[%arg5, %arg6] : memref<?x?xf32>
      }
    }
    return
  }
}
