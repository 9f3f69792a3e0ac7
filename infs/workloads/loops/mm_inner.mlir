// mm_inner (ASPLOS'23 Table 3 mm/in) as plain loops: C = A * Bt^T in the
// inner-product order i, j, k, the sum over k an iter_args accumulation (C's
// `float s = 0; for (k ...) s += A[i][k] * Bt[j][k]; C[i][j] = s;`).
// extract-streams makes the nest one region with k a reduction dim, as
// infs/workloads/mm_inner.mlir is written by hand.
// A is M x K, Bt is N x K (B transposed), C is M x N.
func.func @mm_inner(%A: memref<?x?xf32>, %Bt: memref<?x?xf32>, %C: memref<?x?xf32>, %m: index, %n: index, %k: index) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to %m {
    affine.for %j = 0 to %n {
      %s = affine.for %kk = 0 to %k iter_args(%acc = %zero) -> (f32) {
        %a = affine.load %A[%i, %kk] : memref<?x?xf32>
        %b = affine.load %Bt[%j, %kk] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %q = arith.addf %acc, %p : f32
        affine.yield %q : f32
      }
      affine.store %s, %C[%i, %j] : memref<?x?xf32>
    }
  }
  func.return
}
