// kmeans_outer (ASPLOS'23 Table 3 kmeans/out) as plain loops: one Lloyd
// iteration on P points of dimension D with C centers, outer-product distances
// (dist zeroed, then for d outermost: dist[p][c] += (F[p][d] - CenT[d][c])^2),
// the argmin assignment, then the centroid update (sums and counts at the cell
// member[p] selects) and the means.  extract-streams keeps d on the host around
// an element-wise region and turns every other nest into the region
// infs/workloads/kmeans_outer.mlir has by hand (the argmin loop into a
// 'stream.reduce argmin', the updates into indirect 'stream.atomic add's).
// F is P x D, CenT is D x C, dist is P x C, member is P (i32), newc is C x D, count is C (i32).
func.func @kmeans_outer(%F: memref<?x?xf32>, %CenT: memref<?x?xf32>, %dist: memref<?x?xf32>, %member: memref<?xi32>, %newc: memref<?x?xf32>, %count: memref<?xi32>, %p: index, %d: index, %c: index) {
  %zero = arith.constant 0.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %zero_i = arith.constant 0 : i32
  %one_i = arith.constant 1 : i32
  affine.for %pp = 0 to %p {
    affine.for %cc = 0 to %c {
      affine.store %zero, %dist[%pp, %cc] : memref<?x?xf32>
    }
  }
  // Distances, outer product.
  affine.for %dd = 0 to %d {
    affine.for %pp = 0 to %p {
      affine.for %cc = 0 to %c {
        %x = affine.load %F[%pp, %dd] : memref<?x?xf32>
        %y = affine.load %CenT[%dd, %cc] : memref<?x?xf32>
        %acc = affine.load %dist[%pp, %cc] : memref<?x?xf32>
        %t = arith.subf %x, %y : f32
        %t2 = arith.mulf %t, %t : f32
        %q = arith.addf %acc, %t2 : f32
        affine.store %q, %dist[%pp, %cc] : memref<?x?xf32>
      }
    }
  }
  // Assignment: member[p] = argmin_c dist[p][c] (first index on ties: strict <; no NaN
  // distances, as -ffinite-math-only tells a C compiler: fastmath<nnan>).
  affine.for %pp = 0 to %p {
    %best:2 = affine.for %cc = 0 to %c iter_args(%bv = %inf, %bi = %zero_i) -> (f32, i32) {
      %v = affine.load %dist[%pp, %cc] : memref<?x?xf32>
      %lt = arith.cmpf olt, %v, %bv fastmath<nnan> : f32
      %ci = arith.index_cast %cc : index to i32
      %nv = arith.select %lt, %v, %bv : f32
      %ni = arith.select %lt, %ci, %bi : i32
      affine.yield %nv, %ni : f32, i32
    }
    affine.store %best#1, %member[%pp] : memref<?xi32>
  }
  // Clear the accumulators.
  affine.for %cc = 0 to %c {
    affine.for %dd = 0 to %d {
      affine.store %zero, %newc[%cc, %dd] : memref<?x?xf32>
    }
  }
  affine.for %cc = 0 to %c {
    affine.store %zero_i, %count[%cc] : memref<?xi32>
  }
  // Centroid sums and counts: accumulations at the cell member[p] selects.
  affine.for %pp = 0 to %p {
    affine.for %dd = 0 to %d {
      %mb = affine.load %member[%pp] : memref<?xi32>
      %mi = arith.index_cast %mb : i32 to index
      %x = affine.load %F[%pp, %dd] : memref<?x?xf32>
      %s = memref.load %newc[%mi, %dd] : memref<?x?xf32>
      %t = arith.addf %s, %x : f32
      memref.store %t, %newc[%mi, %dd] : memref<?x?xf32>
    }
  }
  affine.for %pp = 0 to %p {
    %mb = affine.load %member[%pp] : memref<?xi32>
    %mi = arith.index_cast %mb : i32 to index
    %n0 = memref.load %count[%mi] : memref<?xi32>
    %n1 = arith.addi %n0, %one_i : i32
    memref.store %n1, %count[%mi] : memref<?xi32>
  }
  // New centroids: sum / max(count, 1) (an empty cluster gets 0).
  affine.for %cc = 0 to %c {
    affine.for %dd = 0 to %d {
      %s = affine.load %newc[%cc, %dd] : memref<?x?xf32>
      %n = affine.load %count[%cc] : memref<?xi32>
      %empty = arith.cmpi eq, %n, %zero_i : i32
      %cnt = arith.select %empty, %one_i, %n : i32
      %fcnt = arith.sitofp %cnt : i32 to f32
      %q = arith.divf %s, %fcnt : f32
      affine.store %q, %newc[%cc, %dd] : memref<?x?xf32>
    }
  }
  func.return
}
