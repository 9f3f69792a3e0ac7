// array_sum (ASPLOS'23 Fig. 2): s = sum_i A[i] over N elements.
// One reduction region; the reduction over the only dim makes the sum a
// region result (a scalar), returned by the function.
func.func @array_sum(%A: memref<?xf32>, %n: index) -> f32 {
  %sum = stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [reduction] -> f32 {
  ^bb0(%a: memref<?xf32>, %N: index):
    %x = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.reduce add %x over [0] : !stream.stream<f32> -> f32
    stream.yield %s : f32
  }
  func.return %sum : f32
}
