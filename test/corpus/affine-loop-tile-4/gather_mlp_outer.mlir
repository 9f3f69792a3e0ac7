// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-tile{tile-size=4}))' infs/workloads/loops/gather_mlp_outer.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0)[s0] -> (d0 + 4, s0)>
module {
  func.func @gather_mlp_outer(%arg0: memref<?x?xf32>, %arg1: memref<?xi32>, %arg2: memref<?x?xf32>, %arg3: memref<?x?xf32>, %arg4: memref<?x?xf32>, %arg5: index, %arg6: index, %arg7: index) {
    %cst = arith.constant 0.000000e+00 : f32
    affine.for %arg8 = 0 to %arg5 step 4 {
      affine.for %arg9 = 0 to %arg6 step 4 {
        affine.for %arg10 = #map(%arg8) to min #map1(%arg8)[%arg5] {
          affine.for %arg11 = #map(%arg9) to min #map1(%arg9)[%arg6] {
            %0 = affine.load %arg1[%arg10] : memref<?xi32>
            %1 = arith.index_cast %0 : i32 to index
            %2 = memref.load %arg0[%1, %arg11] : memref<?x?xf32>
            affine.store %2, %arg2[%arg10, %arg11] : memref<?x?xf32>
          }
        }
      }
    }
    affine.for %arg8 = 0 to %arg5 step 4 {
      affine.for %arg9 = 0 to %arg7 step 4 {
        affine.for %arg10 = #map(%arg8) to min #map1(%arg8)[%arg5] {
          affine.for %arg11 = #map(%arg9) to min #map1(%arg9)[%arg7] {
            affine.store %cst, %arg4[%arg10, %arg11] : memref<?x?xf32>
          }
        }
      }
    }
    affine.for %arg8 = 0 to %arg6 step 4 {
      affine.for %arg9 = 0 to %arg5 step 4 {
        affine.for %arg10 = 0 to %arg7 step 4 {
          affine.for %arg11 = #map(%arg8) to min #map1(%arg8)[%arg6] {
            affine.for %arg12 = #map(%arg9) to min #map1(%arg9)[%arg5] {
              affine.for %arg13 = #map(%arg10) to min #map1(%arg10)[%arg7] {
                %0 = affine.load %arg2[%arg12, %arg11] : memref<?x?xf32>
                %1 = affine.load %arg3[%arg11, %arg13] : memref<?x?xf32>
                %2 = affine.load %arg4[%arg12, %arg13] : memref<?x?xf32>
                %3 = arith.mulf %0, %1 : f32
                %4 = arith.addf %2, %3 : f32
                affine.store %4, %arg4[%arg12, %arg13] : memref<?x?xf32>
              }
            }
          }
        }
      }
    }
    affine.for %arg8 = 0 to %arg5 step 4 {
      affine.for %arg9 = 0 to %arg7 step 4 {
        affine.for %arg10 = #map(%arg8) to min #map1(%arg8)[%arg5] {
          affine.for %arg11 = #map(%arg9) to min #map1(%arg9)[%arg7] {
            %0 = affine.load %arg4[%arg10, %arg11] : memref<?x?xf32>
            %1 = arith.maximumf %0, %cst : f32
            affine.store %1, %arg4[%arg10, %arg11] : memref<?x?xf32>
          }
        }
      }
    }
    return
  }
}
