// Regression (was a bug): a LoweringError (the lower-pim passes' user-facing "this tDFG cannot
// be lowered for this machine" error, e.g. wordline pressure) is not caught
// by infs.api.run_pipeline (it catches DiagnosticException/LatticeError
// only; LoweringError derives from ValueError), so infs-opt reports it as
//   infs-opt: internal error: LoweringError: wordline pressure: ... (please report; INFS_DEBUG=1 shows the traceback)
// with exit status 70, instead of a normal one-line pass error, exit 1
// (like specialize/choose-layout errors).  The same happens for every
// LoweringError, e.g. running decompose on an allocated program.
//
// RUN: not infs-opt --lower-pim='config=fig9 tiles=2x2' %s 2>&1 | filecheck %s

// CHECK-NOT: internal error
// CHECK:     infs-opt: error: pass 'lower-pim' failed: {{.*}}wordline pressure:
// CHECK-NOT: please report
func.func @pressure(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  tdfg.graph ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) rank 2 {
  ^bb0(%a: memref<4x4xf32>, %b: memref<4x4xf32>):
    %0 = tdfg.tensor %a [0:4, 0:3] : memref<4x4xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.mv %0 dim 1 dist 1 : !tdfg.tensor<f32, 2>
    %2 = tdfg.tensor %a [0:4, 1:4] : memref<4x4xf32> -> !tdfg.tensor<f32, 2>
    %3 = tdfg.mv %2 dim 1 dist -1 : !tdfg.tensor<f32, 2>
    %4 = tdfg.cmp add(%1, %3) : !tdfg.tensor<f32, 2>, !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    tdfg.store %4 -> %b : !tdfg.tensor<f32, 2> -> memref<4x4xf32>
    tdfg.yield
  }
  func.return
}
