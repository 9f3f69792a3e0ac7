// kmeans_inner (ASPLOS'23 Table 3 kmeans/in, Fig. 15): one Lloyd iteration of
// k-means on P points of dimension D with C centers, inner-product dataflow.
//   dist[p][c] = sum_d (F[p][d] - Cen[c][d])^2     (reduction over d innermost)
//   member[p]  = argmin_c dist[p][c]
//   newc[c][:] = mean of the points with member == c (0 for an empty cluster),
//   count[c]   = number of those points
// F is P x D, Cen is C x D, dist is P x C, newc is C x D, member is P (i32),
// count is C (i32).  Distances and the assignment are tensor work in memory;
// the centroid update is indirect atomics near memory (hybrid in/near-memory).
func.func @kmeans_inner(%F: memref<?x?xf32>, %Cen: memref<?x?xf32>, %dist: memref<?x?xf32>, %member: memref<?xi32>, %newc: memref<?x?xf32>, %count: memref<?xi32>, %p: index, %d: index, %c: index) {
  // Distances, inner product: the d loop is a reduction inside the region.
  stream.region ins(%F, %Cen, %dist : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) syms(P = %p : index, C = %c : index, D = %d : index) domain [0:P, 0:C, 0:D] iterators [parallel, parallel, reduction] {
  ^bb0(%f: memref<?x?xf32>, %cen: memref<?x?xf32>, %dd: memref<?x?xf32>, %P: index, %C: index, %D: index):
    %x = stream.load %f[d0, d2] : memref<?x?xf32> -> !stream.stream<f32>
    %y = stream.load %cen[d1, d2] : memref<?x?xf32> -> !stream.stream<f32>
    %sq = stream.compute(%x, %y : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u: f32, %v: f32):
      %t = arith.subf %u, %v : f32
      %t2 = arith.mulf %t, %t : f32
      stream.yield %t2 : f32
    }
    %s = stream.reduce add %sq over [2] : !stream.stream<f32> -> !stream.stream<f32>
    stream.store %s -> %dd[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  // Assignment: membership[p] = argmin_c dist[p][c] (first index on ties).
  stream.region ins(%dist, %member : memref<?x?xf32>, memref<?xi32>) syms(P = %p : index, C = %c : index) domain [0:P, 0:C] iterators [parallel, reduction] {
  ^bb0(%dd: memref<?x?xf32>, %mb: memref<?xi32>, %P: index, %C: index):
    %v = stream.load %dd[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %a = stream.reduce argmin %v over [1] : !stream.stream<f32> -> !stream.stream<i32>
    stream.store %a -> %mb[d0] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  // Clear the accumulators.
  stream.region ins(%newc : memref<?x?xf32>) syms(C = %c : index, D = %d : index) domain [0:C, 0:D] iterators [parallel, parallel] {
  ^bb0(%nc: memref<?x?xf32>, %C: index, %D: index):
    %z = stream.compute() -> !stream.stream<f32> {
    ^bb1():
      %zero = arith.constant 0.0 : f32
      stream.yield %zero : f32
    }
    stream.store %z -> %nc[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  stream.region ins(%count : memref<?xi32>) syms(C = %c : index) domain [0:C] iterators [parallel] {
  ^bb0(%cn: memref<?xi32>, %C: index):
    %z = stream.compute() -> !stream.stream<i32> {
    ^bb1():
      %zero = arith.constant 0 : i32
      stream.yield %zero : i32
    }
    stream.store %z -> %cn[d0] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  // Centroid update near memory: indirect atomic adds keyed by the membership
  // stream (irregular, so it stays a stream; the distance work above is the
  // in-memory tensor part).
  stream.region ins(%F, %member, %newc : memref<?x?xf32>, memref<?xi32>, memref<?x?xf32>) syms(P = %p : index, D = %d : index) domain [0:P, 0:D] iterators [parallel, parallel] {
  ^bb0(%f: memref<?x?xf32>, %mb: memref<?xi32>, %nc: memref<?x?xf32>, %P: index, %D: index):
    %m = stream.load %mb[d0] : memref<?xi32> -> !stream.stream<i32>
    %x = stream.load %f[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    stream.atomic add %x -> %nc[%m, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  stream.region ins(%member, %count : memref<?xi32>, memref<?xi32>) syms(P = %p : index) domain [0:P] iterators [parallel] {
  ^bb0(%mb: memref<?xi32>, %cn: memref<?xi32>, %P: index):
    %m = stream.load %mb[d0] : memref<?xi32> -> !stream.stream<i32>
    %one = stream.compute() -> !stream.stream<i32> {
    ^bb1():
      %c1_i32 = arith.constant 1 : i32
      stream.yield %c1_i32 : i32
    }
    stream.atomic add %one -> %cn[%m] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  // New centroids: sum / max(count, 1) (an empty cluster gets 0).
  stream.region ins(%newc, %count : memref<?x?xf32>, memref<?xi32>) syms(C = %c : index, D = %d : index) domain [0:C, 0:D] iterators [parallel, parallel] {
  ^bb0(%nc: memref<?x?xf32>, %cn: memref<?xi32>, %C: index, %D: index):
    %s = stream.load %nc[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %n = stream.load %cn[d0] : memref<?xi32> -> !stream.stream<i32>
    %r = stream.compute(%s, %n : !stream.stream<f32>, !stream.stream<i32>) -> !stream.stream<f32> {
    ^bb1(%vs: f32, %vn: i32):
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %empty = arith.cmpi eq, %vn, %zero : i32
      %cnt = arith.select %empty, %one, %vn : i32
      %fcnt = arith.sitofp %cnt : i32 to f32
      %q = arith.divf %vs, %fcnt : f32
      stream.yield %q : f32
    }
    stream.store %r -> %nc[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}
