// A stream.load whose access map has two results for a rank-1 array: infs-opt
// reports the op, its line and what is wrong (docs/user-guide.md, "Errors").
func.func @f(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [1:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index):
    %x = stream.load %a[d0 - 1, d0] : memref<?xf32> -> !stream.stream<f32>
    stream.store %x -> %b[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
