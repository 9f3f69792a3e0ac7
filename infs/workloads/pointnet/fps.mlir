// PointNet++ furthest point sampling (ASPLOS'23 §8 "Case Study of PointNet++",
// the "Furthest Sample" stage of a set abstraction).
//   cidx[0] = 0
//   dist[i] = +inf
//   for k in 1..K (host: each centroid depends on the previous one):
//     dist[i] = min(dist[i], |X[i] - X[cidx[k-1]]|^2)    (element-wise, P points)
//     cidx[k] = argmax_i dist[i]                          (first index on ties)
//   C[k][:] = X[cidx[k]][:]                               (the sampled centroids)
// X is P x 3 (xyz), dist is P (scratch), cidx is K (i32), C is K x 3.  The first
// centroid is point 0 (the reference implementation's choice; the points are in
// random order, so it is a random point).  The iteration is the paper's
// "iterative algorithm without sufficient work in each iteration": two small
// regions per centroid, the host carrying the last centroid's coordinates.
func.func @pointnet_fps(%X: memref<?x?xf32>, %dist: memref<?xf32>, %cidx: memref<?xi32>, %C: memref<?x?xf32>, %p: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %z = arith.constant 0 : i32
  memref.store %z, %cidx[%c0] : memref<?xi32>
  stream.region ins(%dist : memref<?xf32>) syms(P = %p : index) domain [0:P] iterators [parallel] {
  ^bb0(%d: memref<?xf32>, %P: index):
    %inf = stream.compute() -> !stream.stream<f32> {
    ^bb1():
      %big = arith.constant 0x7F800000 : f32
      stream.yield %big : f32
    }
    stream.store %inf -> %d[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  %last = scf.for %j = %c1 to %k step %c1 iter_args(%l = %c0) -> (index) {
    %cx = memref.load %X[%l, %c0] : memref<?x?xf32>
    %cy = memref.load %X[%l, %c1] : memref<?x?xf32>
    %cz = memref.load %X[%l, %c2] : memref<?x?xf32>
    stream.region ins(%X, %dist : memref<?x?xf32>, memref<?xf32>) syms(P = %p : index, CX = %cx : f32, CY = %cy : f32, CZ = %cz : f32) domain [0:P] iterators [parallel] {
    ^bb0(%x: memref<?x?xf32>, %d: memref<?xf32>, %P: index, %ax: f32, %ay: f32, %az: f32):
      %px = stream.load %x[d0, 0] : memref<?x?xf32> -> !stream.stream<f32>
      %py = stream.load %x[d0, 1] : memref<?x?xf32> -> !stream.stream<f32>
      %pz = stream.load %x[d0, 2] : memref<?x?xf32> -> !stream.stream<f32>
      %old = stream.load %d[d0] : memref<?xf32> -> !stream.stream<f32>
      %new = stream.compute(%old, %px, %py, %pz, %ax, %ay, %az : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32, f32, f32) -> !stream.stream<f32> {
      ^bb1(%o: f32, %vx: f32, %vy: f32, %vz: f32, %qx: f32, %qy: f32, %qz: f32):
        %dx = arith.subf %vx, %qx : f32
        %dy = arith.subf %vy, %qy : f32
        %dz = arith.subf %vz, %qz : f32
        %xx = arith.mulf %dx, %dx : f32
        %yy = arith.mulf %dy, %dy : f32
        %zz = arith.mulf %dz, %dz : f32
        %s1 = arith.addf %xx, %yy : f32
        %s2 = arith.addf %s1, %zz : f32
        %m = arith.minimumf %o, %s2 : f32
        stream.yield %m : f32
      }
      stream.store %new -> %d[d0] : !stream.stream<f32> -> memref<?xf32>
      stream.yield
    }
    %far = stream.region ins(%dist : memref<?xf32>) syms(P = %p : index) domain [0:P] iterators [reduction] -> i32 {
    ^bb0(%d: memref<?xf32>, %P: index):
      %v = stream.load %d[d0] : memref<?xf32> -> !stream.stream<f32>
      %a = stream.reduce argmax %v over [0] : !stream.stream<f32> -> i32
      stream.yield %a : i32
    }
    memref.store %far, %cidx[%j] : memref<?xi32>
    %n = arith.index_cast %far : i32 to index
    scf.yield %n : index
  }
  // The sampled centroids' coordinates (an indirect gather, K x 3).
  stream.region ins(%X, %cidx, %C : memref<?x?xf32>, memref<?xi32>, memref<?x?xf32>) syms(K = %k : index) domain [0:K, 0:3] iterators [parallel, parallel] {
  ^bb0(%x: memref<?x?xf32>, %ci: memref<?xi32>, %c: memref<?x?xf32>, %K: index):
    %r = stream.load %ci[d0] : memref<?xi32> -> !stream.stream<i32>
    %v = stream.load %x[%r, d1] : memref<?x?xf32> -> !stream.stream<f32>
    stream.store %v -> %c[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}
