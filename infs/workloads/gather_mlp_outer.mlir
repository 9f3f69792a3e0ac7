// gather_mlp_outer (ASPLOS'23 Table 3 gather_mlp/out, Fig. 15; PointNet++ "gather"
// + "MLP" stages): gather M rows of a feature table by an index array, then
// one fully connected layer with ReLU, outer-product dataflow.
//   G[r][:] = X[idx[r]][:]                               (indirect loads)
//   for i (host, carries the accumulation): Y[r][o] += G[r][i] * W[i][o]
//   Y = relu(Y)
// X is R x N (R rows, any R), idx is M (i32, values in [0, R)), G is M x N,
// W is N x K, Y is M x K (zeroed by the program).
func.func @gather_mlp_outer(%X: memref<?x?xf32>, %idx: memref<?xi32>, %G: memref<?x?xf32>, %W: memref<?x?xf32>, %Y: memref<?x?xf32>, %m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // Gather near memory: G[r][:] = X[idx[r]][:] (indirect stream laid out as a tensor).
  stream.region ins(%X, %idx, %G : memref<?x?xf32>, memref<?xi32>, memref<?x?xf32>) syms(M = %m : index, N = %n : index) domain [0:M, 0:N] iterators [parallel, parallel] {
  ^bb0(%x: memref<?x?xf32>, %ix: memref<?xi32>, %g: memref<?x?xf32>, %M: index, %N: index):
    %r = stream.load %ix[d0] : memref<?xi32> -> !stream.stream<i32>
    %v = stream.load %x[%r, d1] : memref<?x?xf32> -> !stream.stream<f32>
    stream.store %v -> %g[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  stream.region ins(%Y : memref<?x?xf32>) syms(M = %m : index, K = %k : index) domain [0:M, 0:K] iterators [parallel, parallel] {
  ^bb0(%y: memref<?x?xf32>, %M: index, %K: index):
    %z = stream.compute() -> !stream.stream<f32> {
    ^bb1():
      %zero = arith.constant 0.0 : f32
      stream.yield %zero : f32
    }
    stream.store %z -> %y[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  // MLP layer, outer product: column i of G broadcast along o, row i of W along r.
  scf.for %i = %c0 to %n step %c1 {
    stream.region ins(%G, %W, %Y : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) syms(M = %m : index, K = %k : index, i = %i : index) domain [0:M, 0:K] iterators [parallel, parallel] {
    ^bb0(%g: memref<?x?xf32>, %w: memref<?x?xf32>, %y: memref<?x?xf32>, %M: index, %K: index, %I: index):
      %a = stream.load %g[d0, i] : memref<?x?xf32> -> !stream.stream<f32>
      %b = stream.load %w[i, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %acc = stream.load %y[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %r = stream.compute(%acc, %a, %b : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%s: f32, %u: f32, %v: f32):
        %t = arith.mulf %u, %v : f32
        %q = arith.addf %s, %t : f32
        stream.yield %q : f32
      }
      stream.store %r -> %y[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
      stream.yield
    }
  }
  // Activation.
  stream.region ins(%Y : memref<?x?xf32>) syms(M = %m : index, K = %k : index) domain [0:M, 0:K] iterators [parallel, parallel] {
  ^bb0(%y: memref<?x?xf32>, %M: index, %K: index):
    %v = stream.load %y[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %r = stream.compute(%v : !stream.stream<f32>) -> !stream.stream<f32> {
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
