// gather_mlp_inner (ASPLOS'23 Table 3 gather_mlp/in, Fig. 15; PointNet++ "gather"
// + "MLP" stages): gather M rows of a feature table by an index array, then
// one fully connected layer with ReLU, inner-product dataflow.
//   G[r][:] = X[idx[r]][:]                               (indirect loads)
//   Y[r][o] = relu(sum_i G[r][i] * Wt[o][i])             (reduction over i innermost)
// X is R x N (R rows, any R), idx is M (i32, values in [0, R)), G is M x N,
// Wt is the weights transposed (K x N), Y is M x K.
func.func @gather_mlp_inner(%X: memref<?x?xf32>, %idx: memref<?xi32>, %G: memref<?x?xf32>, %Wt: memref<?x?xf32>, %Y: memref<?x?xf32>, %m: index, %n: index, %k: index) {
  // Gather near memory: G[r][:] = X[idx[r]][:] (indirect stream laid out as a tensor).
  stream.region ins(%X, %idx, %G : memref<?x?xf32>, memref<?xi32>, memref<?x?xf32>) syms(M = %m : index, N = %n : index) domain [0:M, 0:N] iterators [parallel, parallel] {
  ^bb0(%x: memref<?x?xf32>, %ix: memref<?xi32>, %g: memref<?x?xf32>, %M: index, %N: index):
    %r = stream.load %ix[d0] : memref<?xi32> -> !stream.stream<i32>
    %v = stream.load %x[%r, d1] : memref<?x?xf32> -> !stream.stream<f32>
    stream.store %v -> %g[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  // MLP layer, inner product.
  stream.region ins(%G, %Wt, %Y : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) syms(M = %m : index, K = %k : index, N = %n : index) domain [0:M, 0:K, 0:N] iterators [parallel, parallel, reduction] {
  ^bb0(%g: memref<?x?xf32>, %wt: memref<?x?xf32>, %y: memref<?x?xf32>, %M: index, %K: index, %N: index):
    %a = stream.load %g[d0, d2] : memref<?x?xf32> -> !stream.stream<f32>
    %b = stream.load %wt[d1, d2] : memref<?x?xf32> -> !stream.stream<f32>
    %p = stream.compute(%a, %b : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u: f32, %v: f32):
      %t = arith.mulf %u, %v : f32
      stream.yield %t : f32
    }
    %s = stream.reduce add %p over [2] : !stream.stream<f32> -> !stream.stream<f32>
    %r = stream.compute(%s : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u: f32):
      %zero = arith.constant 0.0 : f32
      %t = arith.maximumf %u, %zero : f32
      stream.yield %t : f32
    }
    stream.store %r -> %y[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}
