// stencil2d (ASPLOS'23 Table 3; the stencil of Fig. 6) as plain loops: the 5-point stencil
//   B[i][j] = C0*A[i-1][j] + C0*A[i+1][j] + C0*A[i][j-1] + C0*A[i][j+1] + C1*A[i][j]
// (neighbours weighted by C0 = W[0], the centre by C1 = W[1], written tap by tap)
// for 1 <= i < M-1, 1 <= j < N-1, T steps (T even) ping-ponging A -> B -> A.
// extract-streams keeps the time loop on the host (its body is two loop
// nests) and turns each sweep into a region, as infs/workloads/stencil2d.mlir
// is written by hand.
// Its float ops carry fastmath<reassoc,contract>: optimize-tdfg may reassociate the taps
// (Fig. 6's reuse), as a C compiler may under -ffast-math; without the flag the runtime
// keeps the program's rounding (driver.floats_may_reassociate).
func.func @stencil2d(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %W: memref<?xf32>, %m: index, %n: index, %t: index) {
  %C0 = affine.load %W[0] : memref<?xf32>
  %C1 = affine.load %W[1] : memref<?xf32>
  affine.for %it = 0 to %t step 2 {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%m] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
        %up = affine.load %A[%i - 1, %j] : memref<?x?xf32>
        %down = affine.load %A[%i + 1, %j] : memref<?x?xf32>
        %left = affine.load %A[%i, %j - 1] : memref<?x?xf32>
        %right = affine.load %A[%i, %j + 1] : memref<?x?xf32>
        %centre = affine.load %A[%i, %j] : memref<?x?xf32>
        %pu = arith.mulf %C0, %up fastmath<reassoc,contract> : f32
        %pd = arith.mulf %C0, %down fastmath<reassoc,contract> : f32
        %s1 = arith.addf %pu, %pd fastmath<reassoc,contract> : f32
        %pl = arith.mulf %C0, %left fastmath<reassoc,contract> : f32
        %s2 = arith.addf %s1, %pl fastmath<reassoc,contract> : f32
        %pr = arith.mulf %C0, %right fastmath<reassoc,contract> : f32
        %s3 = arith.addf %s2, %pr fastmath<reassoc,contract> : f32
        %pc = arith.mulf %C1, %centre fastmath<reassoc,contract> : f32
        %s4 = arith.addf %s3, %pc fastmath<reassoc,contract> : f32
        affine.store %s4, %B[%i, %j] : memref<?x?xf32>
      }
    }
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%m] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
        %up = affine.load %B[%i - 1, %j] : memref<?x?xf32>
        %down = affine.load %B[%i + 1, %j] : memref<?x?xf32>
        %left = affine.load %B[%i, %j - 1] : memref<?x?xf32>
        %right = affine.load %B[%i, %j + 1] : memref<?x?xf32>
        %centre = affine.load %B[%i, %j] : memref<?x?xf32>
        %pu = arith.mulf %C0, %up fastmath<reassoc,contract> : f32
        %pd = arith.mulf %C0, %down fastmath<reassoc,contract> : f32
        %s1 = arith.addf %pu, %pd fastmath<reassoc,contract> : f32
        %pl = arith.mulf %C0, %left fastmath<reassoc,contract> : f32
        %s2 = arith.addf %s1, %pl fastmath<reassoc,contract> : f32
        %pr = arith.mulf %C0, %right fastmath<reassoc,contract> : f32
        %s3 = arith.addf %s2, %pr fastmath<reassoc,contract> : f32
        %pc = arith.mulf %C1, %centre fastmath<reassoc,contract> : f32
        %s4 = arith.addf %s3, %pc fastmath<reassoc,contract> : f32
        affine.store %s4, %A[%i, %j] : memref<?x?xf32>
      }
    }
  }
  func.return
}
