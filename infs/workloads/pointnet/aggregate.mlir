// PointNet++ aggregate (ASPLOS'23 §8 "Case Study of PointNet++", the
// "Aggregate" stage): the max of each feature over a centroid's N neighbours,
// written at column offset `off` of O (MSG concatenates its scales' outputs).
//   O[k][off + o] = max_j Y[k][j][o]
// Y is K x N x D, O is K x W with off + D <= W.
func.func @pointnet_aggregate(%Y: memref<?x?x?xf32>, %O: memref<?x?xf32>, %k: index, %n: index, %d: index, %off: index) {
  stream.region ins(%Y, %O : memref<?x?x?xf32>, memref<?x?xf32>) syms(K = %k : index, N = %n : index, D = %d : index, off = %off : index) domain [0:K, 0:N, 0:D] iterators [parallel, reduction, parallel] {
  ^bb0(%y: memref<?x?x?xf32>, %o: memref<?x?xf32>, %K: index, %N: index, %D: index, %OFF: index):
    %v = stream.load %y[d0, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
    %m = stream.reduce max %v over [1] : !stream.stream<f32> -> !stream.stream<f32>
    stream.store %m -> %o[d0, d2 + off] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}
