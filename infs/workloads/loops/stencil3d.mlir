// stencil3d (ASPLOS'23 Table 3) as plain loops: the 7-point stencil
//   B[i][j][k] = C0*A[i-1][j][k] + C0*A[i+1][j][k] + C0*A[i][j-1][k] + C0*A[i][j+1][k]
//                + C0*A[i][j][k-1] + C0*A[i][j][k+1] + C1*A[i][j][k]
// (written tap by tap) on the interior of an L x M x N grid, T steps (T even)
// ping-ponging A -> B -> A.  extract-streams keeps the time loop on the host and
// turns each sweep into a region; the sum has more than 8 inputs, so it splits
// into two computes (the neighbours, then the centre), as
// infs/workloads/stencil3d.mlir is written by hand.
// Its float ops carry fastmath<reassoc,contract> (see infs/workloads/stencil3d.mlir).
func.func @stencil3d(%A: memref<?x?x?xf32>, %B: memref<?x?x?xf32>, %W: memref<?xf32>, %l: index, %m: index, %n: index, %t: index) {
  %C0 = affine.load %W[0] : memref<?xf32>
  %C1 = affine.load %W[1] : memref<?xf32>
  affine.for %it = 0 to %t step 2 {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%l] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%m] {
        affine.for %k = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
          %up = affine.load %A[%i - 1, %j, %k] : memref<?x?x?xf32>
          %down = affine.load %A[%i + 1, %j, %k] : memref<?x?x?xf32>
          %north = affine.load %A[%i, %j - 1, %k] : memref<?x?x?xf32>
          %south = affine.load %A[%i, %j + 1, %k] : memref<?x?x?xf32>
          %west = affine.load %A[%i, %j, %k - 1] : memref<?x?x?xf32>
          %east = affine.load %A[%i, %j, %k + 1] : memref<?x?x?xf32>
          %centre = affine.load %A[%i, %j, %k] : memref<?x?x?xf32>
          %pu = arith.mulf %C0, %up fastmath<reassoc,contract> : f32
          %pd = arith.mulf %C0, %down fastmath<reassoc,contract> : f32
          %s1 = arith.addf %pu, %pd fastmath<reassoc,contract> : f32
          %pn = arith.mulf %C0, %north fastmath<reassoc,contract> : f32
          %s2 = arith.addf %s1, %pn fastmath<reassoc,contract> : f32
          %ps = arith.mulf %C0, %south fastmath<reassoc,contract> : f32
          %s3 = arith.addf %s2, %ps fastmath<reassoc,contract> : f32
          %pw = arith.mulf %C0, %west fastmath<reassoc,contract> : f32
          %s4 = arith.addf %s3, %pw fastmath<reassoc,contract> : f32
          %pe = arith.mulf %C0, %east fastmath<reassoc,contract> : f32
          %s5 = arith.addf %s4, %pe fastmath<reassoc,contract> : f32
          %pc = arith.mulf %C1, %centre fastmath<reassoc,contract> : f32
          %s6 = arith.addf %s5, %pc fastmath<reassoc,contract> : f32
          affine.store %s6, %B[%i, %j, %k] : memref<?x?x?xf32>
        }
      }
    }
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%l] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%m] {
        affine.for %k = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
          %up = affine.load %B[%i - 1, %j, %k] : memref<?x?x?xf32>
          %down = affine.load %B[%i + 1, %j, %k] : memref<?x?x?xf32>
          %north = affine.load %B[%i, %j - 1, %k] : memref<?x?x?xf32>
          %south = affine.load %B[%i, %j + 1, %k] : memref<?x?x?xf32>
          %west = affine.load %B[%i, %j, %k - 1] : memref<?x?x?xf32>
          %east = affine.load %B[%i, %j, %k + 1] : memref<?x?x?xf32>
          %centre = affine.load %B[%i, %j, %k] : memref<?x?x?xf32>
          %pu = arith.mulf %C0, %up fastmath<reassoc,contract> : f32
          %pd = arith.mulf %C0, %down fastmath<reassoc,contract> : f32
          %s1 = arith.addf %pu, %pd fastmath<reassoc,contract> : f32
          %pn = arith.mulf %C0, %north fastmath<reassoc,contract> : f32
          %s2 = arith.addf %s1, %pn fastmath<reassoc,contract> : f32
          %ps = arith.mulf %C0, %south fastmath<reassoc,contract> : f32
          %s3 = arith.addf %s2, %ps fastmath<reassoc,contract> : f32
          %pw = arith.mulf %C0, %west fastmath<reassoc,contract> : f32
          %s4 = arith.addf %s3, %pw fastmath<reassoc,contract> : f32
          %pe = arith.mulf %C0, %east fastmath<reassoc,contract> : f32
          %s5 = arith.addf %s4, %pe fastmath<reassoc,contract> : f32
          %pc = arith.mulf %C1, %centre fastmath<reassoc,contract> : f32
          %s6 = arith.addf %s5, %pc fastmath<reassoc,contract> : f32
          affine.store %s6, %A[%i, %j, %k] : memref<?x?x?xf32>
        }
      }
    }
  }
  func.return
}
