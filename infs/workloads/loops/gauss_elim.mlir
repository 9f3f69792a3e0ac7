// gauss_elim (ASPLOS'23 Table 3, Fig. 4(c)) as plain loops: forward elimination
// of A x = b on an N x N system, no pivoting.  For each k (it carries the
// dependence), the pivot A[k][k] and b[k] are read once, then
//   for k < i < N:          m[i] = A[i][k] / A[k][k];  b[i] -= m[i] * b[k]
//   for k < i, j < N:       A[i][j] -= m[i] * A[k][j]
// extract-streams keeps k on the host (the two nests of its body share A) and
// turns each nest into a region, with the pivot and b[k] as f32 scalars, as
// infs/workloads/gauss_elim.mlir is written by hand.  Column k below the
// diagonal is left as is (the multipliers are in m).
func.func @gauss_elim(%A: memref<?x?xf32>, %b: memref<?xf32>, %m: memref<?xf32>, %n: index) {
  affine.for %k = 0 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
    %akk = affine.load %A[%k, %k] : memref<?x?xf32>
    %bk = affine.load %b[%k] : memref<?xf32>
    affine.for %i = affine_map<(d0) -> (d0 + 1)>(%k) to %n {
      %aik = affine.load %A[%i, %k] : memref<?x?xf32>
      %mi = arith.divf %aik, %akk : f32
      affine.store %mi, %m[%i] : memref<?xf32>
      %bi = affine.load %b[%i] : memref<?xf32>
      %t = arith.mulf %mi, %bk : f32
      %r = arith.subf %bi, %t : f32
      affine.store %r, %b[%i] : memref<?xf32>
    }
    affine.for %i = affine_map<(d0) -> (d0 + 1)>(%k) to %n {
      affine.for %j = affine_map<(d0) -> (d0 + 1)>(%k) to %n {
        %mi = affine.load %m[%i] : memref<?xf32>
        %akj = affine.load %A[%k, %j] : memref<?x?xf32>
        %aij = affine.load %A[%i, %j] : memref<?x?xf32>
        %t = arith.mulf %mi, %akj : f32
        %s = arith.subf %aij, %t : f32
        affine.store %s, %A[%i, %j] : memref<?x?xf32>
      }
    }
  }
  func.return
}
