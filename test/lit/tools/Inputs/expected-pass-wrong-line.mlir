// Used by ../verify-diagnostics-pass-errors.mlir (a pass error announced a line off).
func.func @no_layout(%A: memref<64xf32>, %B: memref<64xf32>) {
  // expected-error @+1 {{has no layout}}
  %c = arith.constant 0 : index
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 attributes {infs.sizes = {}} {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [0:64] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    tdfg.store %0 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}
