// array_sum (ASPLOS'23 Fig. 2) as plain loops: s = sum_i A[i], an iter_args
// accumulation (C's `float s = 0; for (i ...) s += A[i];` as cgeist prints it).
// extract-streams makes the loop one reduction region whose result (a scalar)
// the function returns, as infs/workloads/array_sum.mlir is written by hand.
func.func @array_sum(%A: memref<?xf32>, %n: index) -> f32 {
  %zero = arith.constant 0.0 : f32
  %sum = affine.for %i = 0 to %n iter_args(%acc = %zero) -> (f32) {
    %a = affine.load %A[%i] : memref<?xf32>
    %s = arith.addf %acc, %a : f32
    affine.yield %s : f32
  }
  func.return %sum : f32
}
