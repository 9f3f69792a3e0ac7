// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-tile{tile-size=4}))' infs/workloads/loops/dwt2d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0)[s0] -> (d0 + 4, s0)>
module {
  func.func @dwt2d(%arg0: memref<?x?xf32>, %arg1: memref<?x?xf32>, %arg2: memref<?x?xf32>, %arg3: index, %arg4: index) {
    %c2 = arith.constant 2 : index
    %cst = arith.constant 5.000000e-01 : f32
    %0 = arith.divsi %arg3, %c2 : index
    %1 = arith.divsi %arg4, %c2 : index
    affine.for %arg5 = 0 to %arg3 step 4 {
      affine.for %arg6 = 0 to %1 step 4 {
        affine.for %arg7 = #map(%arg5) to min #map1(%arg5)[%arg3] {
          affine.for %arg8 = #map(%arg6) to min #map1(%arg6)[%1] {
            %2 = affine.load %arg0[%arg7, %arg8 * 2] : memref<?x?xf32>
            %3 = affine.load %arg0[%arg7, %arg8 * 2 + 1] : memref<?x?xf32>
            %4 = arith.subf %3, %2 : f32
            %5 = arith.mulf %4, %cst : f32
            %6 = arith.addf %2, %5 : f32
            affine.store %6, %arg1[%arg7, %arg8] : memref<?x?xf32>
            affine.store %4, %arg1[%arg7, %arg8 + %1] : memref<?x?xf32>
          }
        }
      }
    }
    affine.for %arg5 = 0 to %0 step 4 {
      affine.for %arg6 = 0 to %arg4 step 4 {
        affine.for %arg7 = #map(%arg5) to min #map1(%arg5)[%0] {
          affine.for %arg8 = #map(%arg6) to min #map1(%arg6)[%arg4] {
            %2 = affine.load %arg1[%arg7 * 2, %arg8] : memref<?x?xf32>
            %3 = affine.load %arg1[%arg7 * 2 + 1, %arg8] : memref<?x?xf32>
            %4 = arith.subf %3, %2 : f32
            %5 = arith.mulf %4, %cst : f32
            %6 = arith.addf %2, %5 : f32
            affine.store %6, %arg2[%arg7, %arg8] : memref<?x?xf32>
            affine.store %4, %arg2[%arg7 + %0, %arg8] : memref<?x?xf32>
          }
        }
      }
    }
    return
  }
}
