// Regression (was a bug): infs.api.verify_module keeps only the first line of a verifier
// message. For xDSL's own (IRDL) constraint checks the reason is on the second
// line, so the one-line error ends in "does not verify:" and never says why.
// Today: "... 'tdfg.mv' op result 'result' at position 0 does not verify:"
// (the lost line is "f32 should be of base attribute tdfg.tensor").
//
// RUN: infs-opt %s --verify-diagnostics | filecheck %s

func.func @f(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: irdl-constraint-message.mlir:[[# @LINE + 1]]:5: error: 'tdfg.mv' op {{.*}}does not verify:{{.*}}tdfg.tensor
    %m = "tdfg.mv"(%t) <{dim = 0 : i64, dist = #lattice.expr<1>}> : (!tdfg.tensor<f32, 1>) -> f32
    tdfg.yield
  }
  func.return
}
