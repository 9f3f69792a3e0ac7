// gather_mlp_outer (ASPLOS'23 Table 3 gather_mlp/out) as plain loops: gather M
// rows of X by idx, then one fully connected layer with ReLU, outer product:
//   G[r][i] = X[idx[r]][i];   Y = 0;   for i: Y[r][o] += G[r][i] * W[i][o];   Y = max(Y, 0)
// extract-streams makes the gather an indirect-load region, the zeroing and the
// activation element-wise regions, keeps i (outermost: it carries the
// accumulation into Y) on the host around an element-wise region, as
// infs/workloads/gather_mlp_outer.mlir is written by hand.
// X is R x N, idx is M (i32), G is M x N, W is N x K, Y is M x K.
func.func @gather_mlp_outer(%X: memref<?x?xf32>, %idx: memref<?xi32>, %G: memref<?x?xf32>, %W: memref<?x?xf32>, %Y: memref<?x?xf32>, %m: index, %n: index, %k: index) {
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
      affine.store %zero, %Y[%r, %o] : memref<?x?xf32>
    }
  }
  affine.for %i = 0 to %n {
    affine.for %r = 0 to %m {
      affine.for %o = 0 to %k {
        %a = affine.load %G[%r, %i] : memref<?x?xf32>
        %b = affine.load %W[%i, %o] : memref<?x?xf32>
        %acc = affine.load %Y[%r, %o] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %q = arith.addf %acc, %p : f32
        affine.store %q, %Y[%r, %o] : memref<?x?xf32>
      }
    }
  }
  affine.for %r = 0 to %m {
    affine.for %o = 0 to %k {
      %y = affine.load %Y[%r, %o] : memref<?x?xf32>
      %t = arith.maximumf %y, %zero : f32
      affine.store %t, %Y[%r, %o] : memref<?x?xf32>
    }
  }
  func.return
}
