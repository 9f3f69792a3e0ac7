// conv2d (ASPLOS'23 Table 3) as plain loops: 3x3 convolution of an H x W image,
//   O[i][j] = sum_{a,b in 0..2} K[a][b] * I[i+a-1][j+b-1]   for 1 <= i < H-1, 1 <= j < W-1,
// the nine weights read once before the loops, the taps summed row by row.
// extract-streams makes the nest one region with the weights as f32 scalars;
// the sum has more than 8 inputs, so it splits into one compute per row and
// one that adds the rows, as infs/workloads/conv2d.mlir is written by hand.
// Boundary cells of O are not written.
// Its float ops carry fastmath<reassoc,contract> (see infs/workloads/conv2d.mlir).
func.func @conv2d(%I: memref<?x?xf32>, %K: memref<?x?xf32>, %O: memref<?x?xf32>, %h: index, %w: index) {
  %k00 = affine.load %K[0, 0] : memref<?x?xf32>
  %k01 = affine.load %K[0, 1] : memref<?x?xf32>
  %k02 = affine.load %K[0, 2] : memref<?x?xf32>
  %k10 = affine.load %K[1, 0] : memref<?x?xf32>
  %k11 = affine.load %K[1, 1] : memref<?x?xf32>
  %k12 = affine.load %K[1, 2] : memref<?x?xf32>
  %k20 = affine.load %K[2, 0] : memref<?x?xf32>
  %k21 = affine.load %K[2, 1] : memref<?x?xf32>
  %k22 = affine.load %K[2, 2] : memref<?x?xf32>
  affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%h] {
    affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%w] {
      %i00 = affine.load %I[%i - 1, %j - 1] : memref<?x?xf32>
      %i01 = affine.load %I[%i - 1, %j] : memref<?x?xf32>
      %i02 = affine.load %I[%i - 1, %j + 1] : memref<?x?xf32>
      %i10 = affine.load %I[%i, %j - 1] : memref<?x?xf32>
      %i11 = affine.load %I[%i, %j] : memref<?x?xf32>
      %i12 = affine.load %I[%i, %j + 1] : memref<?x?xf32>
      %i20 = affine.load %I[%i + 1, %j - 1] : memref<?x?xf32>
      %i21 = affine.load %I[%i + 1, %j] : memref<?x?xf32>
      %i22 = affine.load %I[%i + 1, %j + 1] : memref<?x?xf32>
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
      affine.store %t2, %O[%i, %j] : memref<?x?xf32>
    }
  }
  func.return
}
