// mm_outer (ASPLOS'23 Table 3 mm/out, Fig. 8 / Fig. 15): C = A * B, outer-product
// dataflow -- for k (host, carries the accumulation): for i, for j:
//   C[i][j] += A[i][k] * B[k][j]
// Each round broadcasts column k of A along j and row k of B along i onto the
// whole of C: element-wise work only, no reduction inside the region.
// A is M x K, B is K x N, C is M x N; C is zeroed by a first region.
func.func @mm_outer(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  stream.region ins(%C : memref<?x?xf32>) syms(M = %m : index, N = %n : index) domain [0:M, 0:N] iterators [parallel, parallel] {
  ^bb0(%c: memref<?x?xf32>, %M: index, %N: index):
    %z = stream.compute() -> !stream.stream<f32> {
    ^bb1():
      %zero = arith.constant 0.0 : f32
      stream.yield %zero : f32
    }
    stream.store %z -> %c[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  scf.for %kk = %c0 to %k step %c1 {
    stream.region ins(%A, %B, %C : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) syms(M = %m : index, N = %n : index, k = %kk : index) domain [0:M, 0:N] iterators [parallel, parallel] {
    ^bb0(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %M: index, %N: index, %K: index):
      %x = stream.load %a[d0, k] : memref<?x?xf32> -> !stream.stream<f32>
      %y = stream.load %b[k, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %acc = stream.load %c[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %r = stream.compute(%acc, %x, %y : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%s: f32, %u: f32, %v: f32):
        %t = arith.mulf %u, %v : f32
        %q = arith.addf %s, %t : f32
        stream.yield %q : f32
      }
      stream.store %r -> %c[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
      stream.yield
    }
  }
  func.return
}
