// conv3d (ASPLOS'23 Table 3) as plain loops: multi-channel 3x3 convolution,
//   O[o][y][x] = sum_{i < CI} sum_{a,b in 0..2} K[o][i][3a+b] * I[i][y+a-1][x+b-1]
// for 0 <= o < CO, 1 <= y < H-1, 1 <= x < W-1 (boundary cells of O stay 0).
// I is CI x H x W, O is CO x H x W, K is CO x CI x 9.  O is zeroed first; then
// for each input channel i (outermost: it carries the accumulation into O),
// every (o, y, x) adds its 3x3 taps, summed row by row.  extract-streams makes
// the zeroing a region, keeps i on the host, and turns the (o, y, x) sweep into
// an element-wise region, as infs/workloads/conv3d.mlir is written by hand.
// Its float ops carry fastmath<reassoc,contract> (see infs/workloads/conv3d.mlir).
func.func @conv3d(%I: memref<?x?x?xf32>, %K: memref<?x?x?xf32>, %O: memref<?x?x?xf32>, %ci: index, %co: index, %h: index, %w: index) {
  %zero = arith.constant 0.0 : f32
  affine.for %o = 0 to %co {
    affine.for %y = 0 to %h {
      affine.for %x = 0 to %w {
        affine.store %zero, %O[%o, %y, %x] : memref<?x?x?xf32>
      }
    }
  }
  affine.for %i = 0 to %ci {
    affine.for %o = 0 to %co {
      affine.for %y = 1 to affine_map<()[s0] -> (s0 - 1)>()[%h] {
        affine.for %x = 1 to affine_map<()[s0] -> (s0 - 1)>()[%w] {
          %i00 = affine.load %I[%i, %y - 1, %x - 1] : memref<?x?x?xf32>
          %i01 = affine.load %I[%i, %y - 1, %x] : memref<?x?x?xf32>
          %i02 = affine.load %I[%i, %y - 1, %x + 1] : memref<?x?x?xf32>
          %i10 = affine.load %I[%i, %y, %x - 1] : memref<?x?x?xf32>
          %i11 = affine.load %I[%i, %y, %x] : memref<?x?x?xf32>
          %i12 = affine.load %I[%i, %y, %x + 1] : memref<?x?x?xf32>
          %i20 = affine.load %I[%i, %y + 1, %x - 1] : memref<?x?x?xf32>
          %i21 = affine.load %I[%i, %y + 1, %x] : memref<?x?x?xf32>
          %i22 = affine.load %I[%i, %y + 1, %x + 1] : memref<?x?x?xf32>
          %k00 = affine.load %K[%o, %i, 0] : memref<?x?x?xf32>
          %k01 = affine.load %K[%o, %i, 1] : memref<?x?x?xf32>
          %k02 = affine.load %K[%o, %i, 2] : memref<?x?x?xf32>
          %k10 = affine.load %K[%o, %i, 3] : memref<?x?x?xf32>
          %k11 = affine.load %K[%o, %i, 4] : memref<?x?x?xf32>
          %k12 = affine.load %K[%o, %i, 5] : memref<?x?x?xf32>
          %k20 = affine.load %K[%o, %i, 6] : memref<?x?x?xf32>
          %k21 = affine.load %K[%o, %i, 7] : memref<?x?x?xf32>
          %k22 = affine.load %K[%o, %i, 8] : memref<?x?x?xf32>
          %m00 = arith.mulf %k00, %i00 fastmath<reassoc,contract> : f32
          %m01 = arith.mulf %k01, %i01 fastmath<reassoc,contract> : f32
          %s01 = arith.addf %m00, %m01 fastmath<reassoc,contract> : f32
          %m02 = arith.mulf %k02, %i02 fastmath<reassoc,contract> : f32
          %r0 = arith.addf %s01, %m02 fastmath<reassoc,contract> : f32
          %m10 = arith.mulf %k10, %i10 fastmath<reassoc,contract> : f32
          %m11 = arith.mulf %k11, %i11 fastmath<reassoc,contract> : f32
          %s11 = arith.addf %m10, %m11 fastmath<reassoc,contract> : f32
          %m12 = arith.mulf %k12, %i12 fastmath<reassoc,contract> : f32
          %r1 = arith.addf %s11, %m12 fastmath<reassoc,contract> : f32
          %m20 = arith.mulf %k20, %i20 fastmath<reassoc,contract> : f32
          %m21 = arith.mulf %k21, %i21 fastmath<reassoc,contract> : f32
          %s21 = arith.addf %m20, %m21 fastmath<reassoc,contract> : f32
          %m22 = arith.mulf %k22, %i22 fastmath<reassoc,contract> : f32
          %r2 = arith.addf %s21, %m22 fastmath<reassoc,contract> : f32
          %t1 = arith.addf %r0, %r1 fastmath<reassoc,contract> : f32
          %t2 = arith.addf %t1, %r2 fastmath<reassoc,contract> : f32
          %acc = affine.load %O[%o, %y, %x] : memref<?x?x?xf32>
          %t3 = arith.addf %acc, %t2 fastmath<reassoc,contract> : f32
          affine.store %t3, %O[%o, %y, %x] : memref<?x?x?xf32>
        }
      }
    }
  }
  func.return
}
