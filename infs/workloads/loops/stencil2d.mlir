// stencil2d (ASPLOS'23 Table 3) as plain loops: the 5-point weighted stencil
//   B[i][j] = w0*A[i][j] + w1*A[i-1][j] + w2*A[i+1][j] + w3*A[i][j-1] + w4*A[i][j+1]
// for 1 <= i < M-1, 1 <= j < N-1, T steps (T even) ping-ponging A -> B -> A.
// extract-streams keeps the time loop on the host (its body is two loop
// nests) and turns each sweep into a region, as infs/workloads/stencil2d.mlir
// is written by hand.
func.func @stencil2d(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %W: memref<?xf32>, %m: index, %n: index, %t: index) {
  %w0 = affine.load %W[0] : memref<?xf32>
  %w1 = affine.load %W[1] : memref<?xf32>
  %w2 = affine.load %W[2] : memref<?xf32>
  %w3 = affine.load %W[3] : memref<?xf32>
  %w4 = affine.load %W[4] : memref<?xf32>
  affine.for %it = 0 to %t step 2 {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%m] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
        %a0 = affine.load %A[%i, %j] : memref<?x?xf32>
        %a1 = affine.load %A[%i - 1, %j] : memref<?x?xf32>
        %a2 = affine.load %A[%i + 1, %j] : memref<?x?xf32>
        %a3 = affine.load %A[%i, %j - 1] : memref<?x?xf32>
        %a4 = affine.load %A[%i, %j + 1] : memref<?x?xf32>
        %m0 = arith.mulf %w0, %a0 : f32
        %m1 = arith.mulf %w1, %a1 : f32
        %s1 = arith.addf %m0, %m1 : f32
        %m2 = arith.mulf %w2, %a2 : f32
        %s2 = arith.addf %s1, %m2 : f32
        %m3 = arith.mulf %w3, %a3 : f32
        %s3 = arith.addf %s2, %m3 : f32
        %m4 = arith.mulf %w4, %a4 : f32
        %s4 = arith.addf %s3, %m4 : f32
        affine.store %s4, %B[%i, %j] : memref<?x?xf32>
      }
    }
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%m] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
        %a0 = affine.load %B[%i, %j] : memref<?x?xf32>
        %a1 = affine.load %B[%i - 1, %j] : memref<?x?xf32>
        %a2 = affine.load %B[%i + 1, %j] : memref<?x?xf32>
        %a3 = affine.load %B[%i, %j - 1] : memref<?x?xf32>
        %a4 = affine.load %B[%i, %j + 1] : memref<?x?xf32>
        %m0 = arith.mulf %w0, %a0 : f32
        %m1 = arith.mulf %w1, %a1 : f32
        %s1 = arith.addf %m0, %m1 : f32
        %m2 = arith.mulf %w2, %a2 : f32
        %s2 = arith.addf %s1, %m2 : f32
        %m3 = arith.mulf %w3, %a3 : f32
        %s3 = arith.addf %s2, %m3 : f32
        %m4 = arith.mulf %w4, %a4 : f32
        %s4 = arith.addf %s3, %m4 : f32
        affine.store %s4, %A[%i, %j] : memref<?x?xf32>
      }
    }
  }
  func.return
}
