// Regression (was a bug): errors that a custom parser raises after it has read the whole op
// (parser.raise_error without a span) point at the token after the op, i.e.
// at the start of the next line, instead of at the op. Seen in stream.load
// (result type check) and tdfg.const (result type, literal type).
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @load_result_type(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    // CHECK: parse-error-location.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: stream.load of memref<?xf32> must return a stream of its element type
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<i32>
    stream.yield
  }
  func.return
}

// -----

func.func @const_result_type() {
  tdfg.graph rank 1 {
    // CHECK: parse-error-location.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: tdfg.const result must be a !tdfg.tensor, got f32
    %c = tdfg.const 1.0 : f32
    tdfg.yield
  }
  func.return
}

// -----

func.func @const_literal() {
  tdfg.graph rank 1 {
    // CHECK: parse-error-location.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: literal 1.5 does not fit a tensor of i32
    %c = tdfg.const 1.5 : !tdfg.tensor<i32, 1>
    tdfg.yield
  }
  func.return
}
