// mm_inner (ASPLOS'23 Table 3 mm/in, Fig. 8 / Fig. 15): C = A * B, inner-product
// dataflow -- for i, for j: C[i][j] = sum_k A[i][k] * Bt[j][k].
// A is M x K, Bt is B transposed (N x K, so the k stream is unit stride as in
// the paper's inner-product code), C is M x N.  The reduction over k is the
// innermost loop (a 'reduction' dim of the region): in memory it is a partial
// tensor reduction finished near memory.
func.func @mm_inner(%A: memref<?x?xf32>, %Bt: memref<?x?xf32>, %C: memref<?x?xf32>, %m: index, %n: index, %k: index) {
  stream.region ins(%A, %Bt, %C : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) syms(M = %m : index, N = %n : index, K = %k : index) domain [0:M, 0:N, 0:K] iterators [parallel, parallel, reduction] {
  ^bb0(%a: memref<?x?xf32>, %bt: memref<?x?xf32>, %c: memref<?x?xf32>, %M: index, %N: index, %K: index):
    %x = stream.load %a[d0, d2] : memref<?x?xf32> -> !stream.stream<f32>
    %y = stream.load %bt[d1, d2] : memref<?x?xf32> -> !stream.stream<f32>
    %p = stream.compute(%x, %y : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u: f32, %v: f32):
      %t = arith.mulf %u, %v : f32
      stream.yield %t : f32
    }
    %s = stream.reduce add %p over [2] : !stream.stream<f32> -> !stream.stream<f32>
    stream.store %s -> %c[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}
