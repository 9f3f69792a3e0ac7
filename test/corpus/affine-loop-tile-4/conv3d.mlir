// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-tile{tile-size=4}))' infs/workloads/loops/conv3d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0)[s0] -> (d0 + 4, s0)>
#map2 = affine_map<()[s0] -> (s0 - 1)>
#map3 = affine_map<(d0)[s0] -> (d0 + 4, s0 - 1)>
module {
  func.func @conv3d(%arg0: memref<?x?x?xf32>, %arg1: memref<?x?x?xf32>, %arg2: memref<?x?x?xf32>, %arg3: index, %arg4: index, %arg5: index, %arg6: index) {
    %cst = arith.constant 0.000000e+00 : f32
    affine.for %arg7 = 0 to %arg4 step 4 {
      affine.for %arg8 = 0 to %arg5 step 4 {
        affine.for %arg9 = 0 to %arg6 step 4 {
          affine.for %arg10 = #map(%arg7) to min #map1(%arg7)[%arg4] {
            affine.for %arg11 = #map(%arg8) to min #map1(%arg8)[%arg5] {
              affine.for %arg12 = #map(%arg9) to min #map1(%arg9)[%arg6] {
                affine.store %cst, %arg2[%arg10, %arg11, %arg12] : memref<?x?x?xf32>
              }
            }
          }
        }
      }
    }
    affine.for %arg7 = 0 to %arg3 step 4 {
      affine.for %arg8 = 0 to %arg4 step 4 {
        affine.for %arg9 = 1 to #map2()[%arg5] step 4 {
          affine.for %arg10 = 1 to #map2()[%arg6] step 4 {
            affine.for %arg11 = #map(%arg7) to min #map1(%arg7)[%arg3] {
              affine.for %arg12 = #map(%arg8) to min #map1(%arg8)[%arg4] {
                affine.for %arg13 = #map(%arg9) to min #map3(%arg9)[%arg5] {
                  affine.for %arg14 = #map(%arg10) to min #map3(%arg10)[%arg6] {
                    %0 = affine.load %arg0[%arg11, %arg13 - 1, %arg14 - 1] : memref<?x?x?xf32>
                    %1 = affine.load %arg0[%arg11, %arg13 - 1, %arg14] : memref<?x?x?xf32>
                    %2 = affine.load %arg0[%arg11, %arg13 - 1, %arg14 + 1] : memref<?x?x?xf32>
                    %3 = affine.load %arg0[%arg11, %arg13, %arg14 - 1] : memref<?x?x?xf32>
                    %4 = affine.load %arg0[%arg11, %arg13, %arg14] : memref<?x?x?xf32>
                    %5 = affine.load %arg0[%arg11, %arg13, %arg14 + 1] : memref<?x?x?xf32>
                    %6 = affine.load %arg0[%arg11, %arg13 + 1, %arg14 - 1] : memref<?x?x?xf32>
                    %7 = affine.load %arg0[%arg11, %arg13 + 1, %arg14] : memref<?x?x?xf32>
                    %8 = affine.load %arg0[%arg11, %arg13 + 1, %arg14 + 1] : memref<?x?x?xf32>
                    %9 = affine.load %arg1[%arg12, %arg11, 0] : memref<?x?x?xf32>
                    %10 = affine.load %arg1[%arg12, %arg11, 1] : memref<?x?x?xf32>
                    %11 = affine.load %arg1[%arg12, %arg11, 2] : memref<?x?x?xf32>
                    %12 = affine.load %arg1[%arg12, %arg11, 3] : memref<?x?x?xf32>
                    %13 = affine.load %arg1[%arg12, %arg11, 4] : memref<?x?x?xf32>
                    %14 = affine.load %arg1[%arg12, %arg11, 5] : memref<?x?x?xf32>
                    %15 = affine.load %arg1[%arg12, %arg11, 6] : memref<?x?x?xf32>
                    %16 = affine.load %arg1[%arg12, %arg11, 7] : memref<?x?x?xf32>
                    %17 = affine.load %arg1[%arg12, %arg11, 8] : memref<?x?x?xf32>
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
                    %35 = affine.load %arg2[%arg12, %arg13, %arg14] : memref<?x?x?xf32>
                    %36 = arith.addf %35, %34 fastmath<reassoc,contract> : f32
                    affine.store %36, %arg2[%arg12, %arg13, %arg14] : memref<?x?x?xf32>
                  }
                }
              }
            }
          }
        }
      }
    }
    return
  }
}
