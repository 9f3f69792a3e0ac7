// mm_outer (ASPLOS'23 Table 3 mm/out) as plain loops: C = A * B in the
// outer-product order k, i, j.  extract-streams makes the zeroing loop a
// region, keeps k (it carries the accumulation into C and is outermost) as a
// host loop, and turns the i, j sweep into an element-wise region, as
// infs/workloads/mm_outer.mlir is written by hand.
// A is M x K, B is K x N, C is M x N.
func.func @mm_outer(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %m: index, %n: index, %k: index) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to %m {
    affine.for %j = 0 to %n {
      affine.store %zero, %C[%i, %j] : memref<?x?xf32>
    }
  }
  affine.for %kk = 0 to %k {
    affine.for %i = 0 to %m {
      affine.for %j = 0 to %n {
        %a = affine.load %A[%i, %kk] : memref<?x?xf32>
        %b = affine.load %B[%kk, %j] : memref<?x?xf32>
        %c = affine.load %C[%i, %j] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<?x?xf32>
      }
    }
  }
  func.return
}
