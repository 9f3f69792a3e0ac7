// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-tile{tile-size=4}))' infs/workloads/loops/conv2d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> (s0 - 1)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0)[s0] -> (d0 + 4, s0 - 1)>
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
    affine.for %arg5 = 1 to #map()[%arg3] step 4 {
      affine.for %arg6 = 1 to #map()[%arg4] step 4 {
        affine.for %arg7 = #map1(%arg5) to min #map2(%arg5)[%arg3] {
          affine.for %arg8 = #map1(%arg6) to min #map2(%arg6)[%arg4] {
            %9 = affine.load %arg0[%arg7 - 1, %arg8 - 1] : memref<?x?xf32>
            %10 = affine.load %arg0[%arg7 - 1, %arg8] : memref<?x?xf32>
            %11 = affine.load %arg0[%arg7 - 1, %arg8 + 1] : memref<?x?xf32>
            %12 = affine.load %arg0[%arg7, %arg8 - 1] : memref<?x?xf32>
            %13 = affine.load %arg0[%arg7, %arg8] : memref<?x?xf32>
            %14 = affine.load %arg0[%arg7, %arg8 + 1] : memref<?x?xf32>
            %15 = affine.load %arg0[%arg7 + 1, %arg8 - 1] : memref<?x?xf32>
            %16 = affine.load %arg0[%arg7 + 1, %arg8] : memref<?x?xf32>
            %17 = affine.load %arg0[%arg7 + 1, %arg8 + 1] : memref<?x?xf32>
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
            affine.store %34, %arg2[%arg7, %arg8] : memref<?x?xf32>
          }
        }
      }
    }
    return
  }
}
