// gather_mlp_inner (ASPLOS'23 Table 3 gather_mlp/in) as plain loops: gather M
// rows of X by idx, then one fully connected layer with ReLU, inner product
// (the sum over i an iter_args accumulation):
//   G[r][i] = X[idx[r]][i];   Y[r][o] = max(sum_i G[r][i] * Wt[o][i], 0)
// extract-streams makes the gather an indirect-load region and the layer one
// region with i a reduction dim, as infs/workloads/gather_mlp_inner.mlir is
// written by hand.  X is R x N, idx is M (i32), G is M x N, Wt is K x N, Y is M x K.
func.func @gather_mlp_inner(%X: memref<?x?xf32>, %idx: memref<?xi32>, %G: memref<?x?xf32>, %Wt: memref<?x?xf32>, %Y: memref<?x?xf32>, %m: index, %n: index, %k: index) {
  %zero = arith.constant 0.0 : f32
  affine.for %r = 0 to %m {
    affine.for %i = 0 to %n {
      %row = affine.load %idx[%r] : memref<?xi32>
      %ri = arith.index_cast %row : i32 to index
      %v = memref.load %X[%ri, %i] : memref<?x?xf32>
      affine.store %v, %G[%r, %i] : memref<?x?xf32>
    }
  }
  affine.for %r = 0 to %m {
    affine.for %o = 0 to %k {
      %s = affine.for %i = 0 to %n iter_args(%acc = %zero) -> (f32) {
        %a = affine.load %G[%r, %i] : memref<?x?xf32>
        %b = affine.load %Wt[%o, %i] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %q = arith.addf %acc, %p : f32
        affine.yield %q : f32
      }
      %y = arith.maximumf %s, %zero : f32
      affine.store %y, %Y[%r, %o] : memref<?x?xf32>
    }
  }
  func.return
}
