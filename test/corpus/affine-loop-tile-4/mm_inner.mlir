// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-tile{tile-size=4}))' infs/workloads/loops/mm_inner.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0)[s0] -> (d0 + 4, s0)>
module {
  func.func @mm_inner(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>, %arg3: index, %arg4: index, %arg5: index) {
    %cst = arith.constant 0.000000e+00 : f32
    affine.for %arg6 = 0 to %arg3 step 4 {
      affine.for %arg7 = 0 to %arg4 step 4 {
        affine.for %arg8 = #map(%arg6) to min #map1(%arg6)[%arg3] {
          affine.for %arg9 = #map(%arg7) to min #map1(%arg7)[%arg4] {
            %0 = affine.for %arg10 = 0 to %arg5 iter_args(%arg11 = %cst) -> (f32) {
              %1 = affine.load %arg0[%arg8, %arg10] : memref<?x?xf32>
              %2 = affine.load %arg1[%arg9, %arg10] : memref<?x?xf32>
              %3 = arith.mulf %1, %2 : f32
              %4 = arith.addf %arg11, %3 : f32
              affine.yield %4 : f32
            }
            affine.store %0, %arg2[%arg8, %arg9] : memref<?x?xf32>
          }
        }
      }
    }
    return
  }
}
