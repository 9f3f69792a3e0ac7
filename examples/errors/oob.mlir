// B[i] = A[i + 2] over [0:N]: the last two iterations read past A. The program
// verifies; infs-run reports the access when it runs (docs/user-guide.md, "Errors").
func.func @f(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index):
    %x = stream.load %a[d0 + 2] : memref<?xf32> -> !stream.stream<f32>
    stream.store %x -> %b[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
