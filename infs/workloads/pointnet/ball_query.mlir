// PointNet++ ball query (ASPLOS'23 §8 "Case Study of PointNet++", the "Ball
// Query" stage): for each of K centroids, the first N points (in index order)
// within radius r; fewer than N found: the first one found fills the rest
// (none found: index 0, as the reference implementation leaves it).
//   key[k][i]   = |X[i] - C[k]|^2 < r^2 ? i : P         (P: "not in the ball")
//   sel[k][0]   = -1
//   for s in 0..N (host: slot s starts after slot s-1's point):
//     sel[k][s+1] = min_i (key[k][i] > sel[k][s] ? key[k][i] : P)
//   idx[k][s]   = sel[k][s+1] < P ? sel[k][s+1] : (sel[k][1] < P ? sel[k][1] : 0)
// X is P x 3, C is K x 3 (the centroids), R holds r^2 (f32), iota is 0..P-1
// (i32: the point index as a stream, streams have no iteration-index value),
// key is K x P and sel K x (N+1) (i32 scratch), idx is K x N (i32).
// The selection is a scan with a data-dependent output position, which no
// stream or tensor expresses; it is written as N min-reductions over the
// distance mask instead, N x K x P compares where a core's sequential scan
// stops after N hits (docs/pointnet.md).
func.func @pointnet_ball_query(%X: memref<?x?xf32>, %C: memref<?x?xf32>, %R: memref<?xf32>, %iota: memref<?xi32>, %key: memref<?x?xi32>, %sel: memref<?x?xi32>, %idx: memref<?x?xi32>, %p: index, %k: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r2 = memref.load %R[%c0] : memref<?xf32>
  %pi = arith.index_cast %p : index to i32
  stream.region ins(%X, %C, %iota, %key : memref<?x?xf32>, memref<?x?xf32>, memref<?xi32>, memref<?x?xi32>) syms(K = %k : index, P = %p : index, R2 = %r2 : f32, PI = %pi : i32) domain [0:K, 0:P] iterators [parallel, parallel] {
  ^bb0(%x: memref<?x?xf32>, %c: memref<?x?xf32>, %io: memref<?xi32>, %ky: memref<?x?xi32>, %K: index, %P: index, %rr: f32, %pp: i32):
    %px = stream.load %x[d1, 0] : memref<?x?xf32> -> !stream.stream<f32>
    %py = stream.load %x[d1, 1] : memref<?x?xf32> -> !stream.stream<f32>
    %pz = stream.load %x[d1, 2] : memref<?x?xf32> -> !stream.stream<f32>
    %qx = stream.load %c[d0, 0] : memref<?x?xf32> -> !stream.stream<f32>
    %qy = stream.load %c[d0, 1] : memref<?x?xf32> -> !stream.stream<f32>
    %qz = stream.load %c[d0, 2] : memref<?x?xf32> -> !stream.stream<f32>
    %i = stream.load %io[d1] : memref<?xi32> -> !stream.stream<i32>
    %d = stream.compute(%px, %py, %pz, %qx, %qy, %qz, %rr : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32) -> !stream.stream<i1> {
    ^bb1(%vx: f32, %vy: f32, %vz: f32, %wx: f32, %wy: f32, %wz: f32, %r: f32):
      %dx = arith.subf %vx, %wx : f32
      %dy = arith.subf %vy, %wy : f32
      %dz = arith.subf %vz, %wz : f32
      %xx = arith.mulf %dx, %dx : f32
      %yy = arith.mulf %dy, %dy : f32
      %zz = arith.mulf %dz, %dz : f32
      %s1 = arith.addf %xx, %yy : f32
      %s2 = arith.addf %s1, %zz : f32
      %in = arith.cmpf olt, %s2, %r : f32
      stream.yield %in : i1
    }
    %kv = stream.compute(%d, %i, %pp : !stream.stream<i1>, !stream.stream<i32>, i32) -> !stream.stream<i32> {
    ^bb1(%in: i1, %vi: i32, %vp: i32):
      %o = arith.select %in, %vi, %vp : i32
      stream.yield %o : i32
    }
    stream.store %kv -> %ky[d0, d1] : !stream.stream<i32> -> memref<?x?xi32>
    stream.yield
  }
  stream.region ins(%sel : memref<?x?xi32>) syms(K = %k : index) domain [0:K] iterators [parallel] {
  ^bb0(%sl: memref<?x?xi32>, %K: index):
    %m1 = stream.compute() -> !stream.stream<i32> {
    ^bb1():
      %c = arith.constant -1 : i32
      stream.yield %c : i32
    }
    stream.store %m1 -> %sl[d0, 0] : !stream.stream<i32> -> memref<?x?xi32>
    stream.yield
  }
  scf.for %s = %c0 to %n step %c1 {
    stream.region ins(%key, %sel : memref<?x?xi32>, memref<?x?xi32>) syms(K = %k : index, P = %p : index, s = %s : index, PI = %pi : i32) domain [0:K, 0:P] iterators [parallel, reduction] {
    ^bb0(%ky: memref<?x?xi32>, %sl: memref<?x?xi32>, %K: index, %P: index, %S: index, %pp: i32):
      %kk = stream.load %ky[d0, d1] : memref<?x?xi32> -> !stream.stream<i32>
      %pv = stream.load %sl[d0, s] : memref<?x?xi32> -> !stream.stream<i32>
      %v = stream.compute(%kk, %pv, %pp : !stream.stream<i32>, !stream.stream<i32>, i32) -> !stream.stream<i32> {
      ^bb1(%a: i32, %b: i32, %q: i32):
        %after = arith.cmpi sgt, %a, %b : i32
        %o = arith.select %after, %a, %q : i32
        stream.yield %o : i32
      }
      %m = stream.reduce min %v over [1] : !stream.stream<i32> -> !stream.stream<i32>
      stream.store %m -> %sl[d0, s + 1] : !stream.stream<i32> -> memref<?x?xi32>
      stream.yield
    }
  }
  stream.region ins(%sel, %idx : memref<?x?xi32>, memref<?x?xi32>) syms(K = %k : index, N = %n : index, PI = %pi : i32) domain [0:K, 0:N] iterators [parallel, parallel] {
  ^bb0(%sl: memref<?x?xi32>, %ix: memref<?x?xi32>, %K: index, %N: index, %pp: i32):
    %v = stream.load %sl[d0, d1 + 1] : memref<?x?xi32> -> !stream.stream<i32>
    %f = stream.load %sl[d0, 1] : memref<?x?xi32> -> !stream.stream<i32>
    %o = stream.compute(%v, %f, %pp : !stream.stream<i32>, !stream.stream<i32>, i32) -> !stream.stream<i32> {
    ^bb1(%a: i32, %b: i32, %q: i32):
      %z = arith.constant 0 : i32
      %hit = arith.cmpi slt, %a, %q : i32
      %any = arith.cmpi slt, %b, %q : i32
      %first = arith.select %any, %b, %z : i32
      %r = arith.select %hit, %a, %first : i32
      stream.yield %r : i32
    }
    stream.store %o -> %ix[d0, d1] : !stream.stream<i32> -> memref<?x?xi32>
    stream.yield
  }
  func.return
}
