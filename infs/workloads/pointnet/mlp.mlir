// PointNet++ MLP (ASPLOS'23 §8 "Case Study of PointNet++", the "MLP" stage, and
// the classifier's FCx3): three fully connected layers on every row of a
// (K x N) x D0 matrix, each with a bias, the first two with ReLU and the third
// with ReLU when relu3 = 1 (a set abstraction's MLP) and without when relu3 = 0
// (FCx3: the last layer gives the class scores).  Batch normalization is folded
// into the weights at inference and dropout is off, so neither appears.
//   H1 = relu(G * W1 + b1);  H2 = relu(H1 * W2 + b2);  Y = [relu](H2 * W3 + b3)
// G is K x N x D0, Wl is D(l-1) x Dl, bl is Dl, H1/H2/Y are K x N x D1/D2/D3.
// Outer-product dataflow (ASPLOS'23 §8 "Dataflow Choices"): a host loop over
// each layer's input width, every region element-wise over K x N x Dl.
func.func @pointnet_mlp(%G: memref<?x?x?xf32>, %W1: memref<?x?xf32>, %b1: memref<?xf32>, %H1: memref<?x?x?xf32>, %W2: memref<?x?xf32>, %b2: memref<?xf32>, %H2: memref<?x?x?xf32>, %W3: memref<?x?xf32>, %b3: memref<?xf32>, %Y: memref<?x?x?xf32>, %k: index, %n: index, %d0: index, %d1: index, %d2: index, %d3: index, %relu3: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index

  // Layer 1: H1 = relu(G * W1 + b1), outer product (host loop over the input width).
  stream.region ins(%b1, %H1 : memref<?xf32>, memref<?x?x?xf32>) syms(K = %k : index, N = %n : index, D = %d1 : index) domain [0:K, 0:N, 0:D] iterators [parallel, parallel, parallel] {
  ^bb0(%bb: memref<?xf32>, %y: memref<?x?x?xf32>, %K: index, %N: index, %D: index):
    %v = stream.load %bb[d2] : memref<?xf32> -> !stream.stream<f32>
    stream.store %v -> %y[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
    stream.yield
  }
  scf.for %i = %c0 to %d0 step %c1 {
    stream.region ins(%G, %W1, %H1 : memref<?x?x?xf32>, memref<?x?xf32>, memref<?x?x?xf32>) syms(K = %k : index, N = %n : index, D = %d1 : index, i = %i : index) domain [0:K, 0:N, 0:D] iterators [parallel, parallel, parallel] {
    ^bb0(%g: memref<?x?x?xf32>, %w: memref<?x?xf32>, %y: memref<?x?x?xf32>, %K: index, %N: index, %D: index, %I: index):
      %a = stream.load %g[d0, d1, i] : memref<?x?x?xf32> -> !stream.stream<f32>
      %b = stream.load %w[i, d2] : memref<?x?xf32> -> !stream.stream<f32>
      %acc = stream.load %y[d0, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %r = stream.compute(%acc, %a, %b : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%s: f32, %u: f32, %t: f32):
        %m = arith.mulf %u, %t : f32
        %q = arith.addf %s, %m : f32
        stream.yield %q : f32
      }
      stream.store %r -> %y[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
      stream.yield
    }
  }
  stream.region ins(%H1 : memref<?x?x?xf32>) syms(K = %k : index, N = %n : index, D = %d1 : index) domain [0:K, 0:N, 0:D] iterators [parallel, parallel, parallel] {
  ^bb0(%y: memref<?x?x?xf32>, %K: index, %N: index, %D: index):
    %v = stream.load %y[d0, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
    %r = stream.compute(%v : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u: f32):
      %zero = arith.constant 0.0 : f32
      %t = arith.maximumf %u, %zero : f32
      stream.yield %t : f32
    }
    stream.store %r -> %y[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
    stream.yield
  }

  // Layer 2: H2 = relu(H1 * W2 + b2), outer product (host loop over the input width).
  stream.region ins(%b2, %H2 : memref<?xf32>, memref<?x?x?xf32>) syms(K = %k : index, N = %n : index, D = %d2 : index) domain [0:K, 0:N, 0:D] iterators [parallel, parallel, parallel] {
  ^bb0(%bb: memref<?xf32>, %y: memref<?x?x?xf32>, %K: index, %N: index, %D: index):
    %v = stream.load %bb[d2] : memref<?xf32> -> !stream.stream<f32>
    stream.store %v -> %y[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
    stream.yield
  }
  scf.for %i = %c0 to %d1 step %c1 {
    stream.region ins(%H1, %W2, %H2 : memref<?x?x?xf32>, memref<?x?xf32>, memref<?x?x?xf32>) syms(K = %k : index, N = %n : index, D = %d2 : index, i = %i : index) domain [0:K, 0:N, 0:D] iterators [parallel, parallel, parallel] {
    ^bb0(%g: memref<?x?x?xf32>, %w: memref<?x?xf32>, %y: memref<?x?x?xf32>, %K: index, %N: index, %D: index, %I: index):
      %a = stream.load %g[d0, d1, i] : memref<?x?x?xf32> -> !stream.stream<f32>
      %b = stream.load %w[i, d2] : memref<?x?xf32> -> !stream.stream<f32>
      %acc = stream.load %y[d0, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %r = stream.compute(%acc, %a, %b : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%s: f32, %u: f32, %t: f32):
        %m = arith.mulf %u, %t : f32
        %q = arith.addf %s, %m : f32
        stream.yield %q : f32
      }
      stream.store %r -> %y[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
      stream.yield
    }
  }
  stream.region ins(%H2 : memref<?x?x?xf32>) syms(K = %k : index, N = %n : index, D = %d2 : index) domain [0:K, 0:N, 0:D] iterators [parallel, parallel, parallel] {
  ^bb0(%y: memref<?x?x?xf32>, %K: index, %N: index, %D: index):
    %v = stream.load %y[d0, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
    %r = stream.compute(%v : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u: f32):
      %zero = arith.constant 0.0 : f32
      %t = arith.maximumf %u, %zero : f32
      stream.yield %t : f32
    }
    stream.store %r -> %y[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
    stream.yield
  }

  // Layer 3: Y = [relu](H2 * W3 + b3), outer product (host loop over the input width).
  stream.region ins(%b3, %Y : memref<?xf32>, memref<?x?x?xf32>) syms(K = %k : index, N = %n : index, D = %d3 : index) domain [0:K, 0:N, 0:D] iterators [parallel, parallel, parallel] {
  ^bb0(%bb: memref<?xf32>, %y: memref<?x?x?xf32>, %K: index, %N: index, %D: index):
    %v = stream.load %bb[d2] : memref<?xf32> -> !stream.stream<f32>
    stream.store %v -> %y[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
    stream.yield
  }
  scf.for %i = %c0 to %d2 step %c1 {
    stream.region ins(%H2, %W3, %Y : memref<?x?x?xf32>, memref<?x?xf32>, memref<?x?x?xf32>) syms(K = %k : index, N = %n : index, D = %d3 : index, i = %i : index) domain [0:K, 0:N, 0:D] iterators [parallel, parallel, parallel] {
    ^bb0(%g: memref<?x?x?xf32>, %w: memref<?x?xf32>, %y: memref<?x?x?xf32>, %K: index, %N: index, %D: index, %I: index):
      %a = stream.load %g[d0, d1, i] : memref<?x?x?xf32> -> !stream.stream<f32>
      %b = stream.load %w[i, d2] : memref<?x?xf32> -> !stream.stream<f32>
      %acc = stream.load %y[d0, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %r = stream.compute(%acc, %a, %b : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%s: f32, %u: f32, %t: f32):
        %m = arith.mulf %u, %t : f32
        %q = arith.addf %s, %m : f32
        stream.yield %q : f32
      }
      stream.store %r -> %y[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
      stream.yield
    }
  }
  %act = arith.cmpi ne, %relu3, %c0 : index
  scf.if %act {
    stream.region ins(%Y : memref<?x?x?xf32>) syms(K = %k : index, N = %n : index, D = %d3 : index) domain [0:K, 0:N, 0:D] iterators [parallel, parallel, parallel] {
    ^bb0(%y: memref<?x?x?xf32>, %K: index, %N: index, %D: index):
      %v = stream.load %y[d0, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %r = stream.compute(%v : !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%u: f32):
        %zero = arith.constant 0.0 : f32
        %t = arith.maximumf %u, %zero : f32
        stream.yield %t : f32
      }
      stream.store %r -> %y[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
      stream.yield
    }
  }
  func.return
}
