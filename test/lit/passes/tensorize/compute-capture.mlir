// A stream.compute body is isolated from above (infs/dialects/stream.py): a
// scalar of the region it uses must be one of its inputs.  A body that uses
// one directly is one located error before any pass runs (tensorize raised
// KeyError, a fuzzer's find), whether the value is a region scalar
// or a region-level arith result.
//
// RUN: infs-opt %s --tensorize --split-input-file --verify-diagnostics | filecheck %s

func.func @captures_a_region_scalar(%A: memref<?xf32>, %n: index, %w: f32) {
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index, w = %w : f32) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index, %x: f32):
    %c = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%c : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%v: f32):
      // CHECK: compute-capture.mlir:[[# @LINE + 1]]:7: error: 'arith.addf' op operand #0 (%x) is defined outside the enclosing 'stream.compute', which is isolated from above (pass it in as an operand)
      %z = arith.addf %x, %v : f32
      stream.yield %z : f32
    }
    stream.store %s -> %a[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----

func.func @captures_a_region_level_result(%A: memref<?xf32>, %n: index, %w: f32) {
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index, w = %w : f32) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index, %x: f32):
    %x2 = arith.mulf %x, %x : f32
    %c = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%c : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%v: f32):
      // CHECK: compute-capture.mlir:[[# @LINE + 1]]:7: error: 'arith.mulf' op operand #1 (%x2) is defined outside the enclosing 'stream.compute', which is isolated from above (pass it in as an operand)
      %z = arith.mulf %v, %x2 : f32
      stream.yield %z : f32
    }
    stream.store %s -> %a[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----

// passed in as an input, the same computation tensorizes
func.func @passes_it_in(%A: memref<?xf32>, %n: index, %w: f32) {
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index, w = %w : f32) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index, %x: f32):
    %c = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%c, %x : !stream.stream<f32>, f32) -> !stream.stream<f32> {
    ^bb1(%v: f32, %k: f32):
      %z = arith.addf %k, %v : f32
      stream.yield %z : f32
    }
    stream.store %s -> %a[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
// CHECK: tdfg.graph
// CHECK: tdfg.cmp add
