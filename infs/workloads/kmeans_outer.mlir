// kmeans_outer (ASPLOS'23 Table 3 kmeans/out, Fig. 15): one Lloyd iteration of
// k-means on P points of dimension D with C centers, outer-product dataflow.
//   for d (host, carries the accumulation): dist[p][c] += (F[p][d] - CenT[d][c])^2
//   member[p]  = argmin_c dist[p][c]
//   newc[c][:] = mean of the points with member == c (0 for an empty cluster),
//   count[c]   = number of those points
// F is P x D, CenT is the centers transposed (D x C, as in the paper's
// outer-product code), dist is P x C, newc is C x D, member is P (i32), count
// is C (i32).  Each round broadcasts column d of F along c and row d of CenT
// along p: element-wise work only.  The centroid update is indirect atomics
// near memory (hybrid in/near-memory).
func.func @kmeans_outer(%F: memref<?x?xf32>, %CenT: memref<?x?xf32>, %dist: memref<?x?xf32>, %member: memref<?xi32>, %newc: memref<?x?xf32>, %count: memref<?xi32>, %p: index, %d: index, %c: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  stream.region ins(%dist : memref<?x?xf32>) syms(P = %p : index, C = %c : index) domain [0:P, 0:C] iterators [parallel, parallel] {
  ^bb0(%dd: memref<?x?xf32>, %P: index, %C: index):
    %z = stream.compute() -> !stream.stream<f32> {
    ^bb1():
      %zero = arith.constant 0.0 : f32
      stream.yield %zero : f32
    }
    stream.store %z -> %dd[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  scf.for %j = %c0 to %d step %c1 {
    stream.region ins(%F, %CenT, %dist : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) syms(P = %p : index, C = %c : index, j = %j : index) domain [0:P, 0:C] iterators [parallel, parallel] {
    ^bb0(%f: memref<?x?xf32>, %cent: memref<?x?xf32>, %dd: memref<?x?xf32>, %P: index, %C: index, %J: index):
      %x = stream.load %f[d0, j] : memref<?x?xf32> -> !stream.stream<f32>
      %y = stream.load %cent[j, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %acc = stream.load %dd[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %r = stream.compute(%acc, %x, %y : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%s: f32, %u: f32, %v: f32):
        %t = arith.subf %u, %v : f32
        %t2 = arith.mulf %t, %t : f32
        %q = arith.addf %s, %t2 : f32
        stream.yield %q : f32
      }
      stream.store %r -> %dd[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
      stream.yield
    }
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
