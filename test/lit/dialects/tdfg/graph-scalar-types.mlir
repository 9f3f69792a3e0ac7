// Regression (was a missing rule): tdfg.graph takes "the same operands" as the
// stream.region it replaces (ASPLOS §3.1-§3.2), but unlike stream.region it does
// not check that its scalars are integer, index or float values: a memref or a
// tensor passed through syms(...) verifies.
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @memref_scalar(%m: memref<4xf32>) {
  // CHECK: graph-scalar-types.mlir:[[# @LINE + 1]]:3: error: 'tdfg.graph' op scalar operand must be an integer, index or float, got memref<4xf32>
  tdfg.graph syms(m = %m : memref<4xf32>) rank 1 {
  ^bb0(%M: memref<4xf32>):
    tdfg.yield
  }
  func.return
}

// -----

func.func @tensor_scalar(%v: tensor<4xf32>) {
  // CHECK: graph-scalar-types.mlir:[[# @LINE + 1]]:3: error: 'tdfg.graph' op scalar operand must be an integer, index or float, got tensor<4xf32>
  tdfg.graph syms(v = %v : tensor<4xf32>) rank 1 {
  ^bb0(%V: tensor<4xf32>):
    tdfg.yield
  }
  func.return
}
