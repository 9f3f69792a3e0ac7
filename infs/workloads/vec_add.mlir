// vec_add (ASPLOS'23 Fig. 2): C[i] = A[i] + B[i] over N elements.
// One element-wise region: two load streams, one compute, one store stream.
func.func @vec_add(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %n: index) {
  stream.region ins(%A, %B, %C : memref<?xf32>, memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %N: index):
    %x = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %y = stream.load %b[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%x, %y : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u: f32, %v: f32):
      %t = arith.addf %u, %v : f32
      stream.yield %t : f32
    }
    stream.store %s -> %c[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
