// PointNet++ gather (ASPLOS'23 §8 "Case Study of PointNet++", the "Gather"
// stage): each centroid's N neighbours' coordinates, relative to the centroid,
// then their feature vectors: a (K x N) x (3 + D) matrix.
//   G[k][j][0:3]   = X[idx[k][j]][:] - C[k][:]            (indirect loads)
//   G[k][j][3:3+D] = F[idx[k][j]][:]
// X is P x 3, F is P x D (the previous set abstraction's features; D may be 0),
// C is K x 3, idx is K x N (i32, values in [0, P)), G is K x N x (3 + D).
// A "group all" stage (SA3) is this program with idx[0][j] = j and C = 0.
func.func @pointnet_gather(%X: memref<?x?xf32>, %F: memref<?x?xf32>, %C: memref<?x?xf32>, %idx: memref<?x?xi32>, %G: memref<?x?x?xf32>, %k: index, %n: index, %d: index) {
  stream.region ins(%X, %C, %idx, %G : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xi32>, memref<?x?x?xf32>) syms(K = %k : index, N = %n : index) domain [0:K, 0:N, 0:3] iterators [parallel, parallel, parallel] {
  ^bb0(%x: memref<?x?xf32>, %c: memref<?x?xf32>, %ix: memref<?x?xi32>, %g: memref<?x?x?xf32>, %K: index, %N: index):
    %r = stream.load %ix[d0, d1] : memref<?x?xi32> -> !stream.stream<i32>
    %v = stream.load %x[%r, d2] : memref<?x?xf32> -> !stream.stream<f32>
    %o = stream.load %c[d0, d2] : memref<?x?xf32> -> !stream.stream<f32>
    %rel = stream.compute(%v, %o : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%a: f32, %b: f32):
      %s = arith.subf %a, %b : f32
      stream.yield %s : f32
    }
    stream.store %rel -> %g[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
    stream.yield
  }
  stream.region ins(%F, %idx, %G : memref<?x?xf32>, memref<?x?xi32>, memref<?x?x?xf32>) syms(K = %k : index, N = %n : index, D = %d : index) domain [0:K, 0:N, 0:D] iterators [parallel, parallel, parallel] {
  ^bb0(%f: memref<?x?xf32>, %ix: memref<?x?xi32>, %g: memref<?x?x?xf32>, %K: index, %N: index, %D: index):
    %r = stream.load %ix[d0, d1] : memref<?x?xi32> -> !stream.stream<i32>
    %v = stream.load %f[%r, d2] : memref<?x?xf32> -> !stream.stream<f32>
    stream.store %v -> %g[d0, d1, d2 + 3] : !stream.stream<f32> -> memref<?x?x?xf32>
    stream.yield
  }
  func.return
}
