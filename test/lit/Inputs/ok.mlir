// A valid program (helper input of the tools tests).
func.func @stencil1d(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [1:N - 1] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index):
    %l = stream.load %a[d0 - 1] : memref<?xf32> -> !stream.stream<f32>
    %r = stream.load %a[d0 + 1] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%l, %r : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32, %y: f32):
      %t = arith.addf %x, %y : f32
      stream.yield %t : f32
    }
    stream.store %s -> %b[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
