// Well-formed but invalid input (helper input of the tools tests): the load
// on line 6, column 5, has a rank-1 map for a rank-2 array.
func.func @f(%A: memref<4x4xf32>) {
  stream.region ins(%A : memref<4x4xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<4x4xf32>):
    %v = stream.load %a[d0] : memref<4x4xf32> -> !stream.stream<f32>
    stream.yield
  }
  func.return
}
