// stream.chase's verifier rules (infs/dialects/stream.py, ChaseOp): one chunk
// each, the CHECK right above the op that must be reported.
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @no_fields(%A: memref<?xi32>, %n: index, %s: i32) {
  stream.region ins(%A : memref<?xi32>) syms(N = %n : index, s = %s : i32) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xi32>, %N: index, %S: i32):
    // CHECK: chase-invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.chase' op loads at least one field: a pointer-chasing stream's next address comes from the element it loads
    %c = stream.chase(%S : i32) fields() -> !stream.stream<i32> {
    ^bb1(%p: i32):
      %t = arith.constant true
      stream.yield %t, %p : i1, i32
    }
    stream.store %c -> %a[d0] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}

// -----

func.func @field_written(%A: memref<?xi32>, %n: index, %s: i32) {
  stream.region ins(%A : memref<?xi32>) syms(N = %n : index, s = %s : i32) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xi32>, %N: index, %S: i32):
    // CHECK: chase-invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.chase' op chases through %a, which the region writes (a chain reads the structure as it was at region entry)
    %c = stream.chase(%S : i32) fields(%a : memref<?xi32>) -> !stream.stream<i32> {
    ^bb1(%p: i32, %nx: i32):
      %t = arith.constant true
      stream.yield %t, %nx : i1, i32
    }
    stream.store %c -> %a[d0] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}

// -----

func.func @two_bases(%N: memref<?xi32>, %A: memref<?xi32>, %B: memref<?xi32>, %O: memref<?xi32>, %n: index) {
  stream.region ins(%N, %A, %B, %O : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>) syms(M = %n : index) domain [0:M] iterators [parallel] {
  ^bb0(%nx: memref<?xi32>, %a: memref<?xi32>, %b: memref<?xi32>, %o: memref<?xi32>, %M: index):
    %x = stream.load %a[d0] : memref<?xi32> -> !stream.stream<i32>
    %y = stream.load %b[d0] : memref<?xi32> -> !stream.stream<i32>
    // CHECK: chase-invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.chase' op operands derive from 2 affine streams; a pointer-chasing stream takes operands from its base stream only (NSC §II-B)
    %c = stream.chase(%x : !stream.stream<i32>) fields(%nx : memref<?xi32>) with(%y : !stream.stream<i32>) -> !stream.stream<i32> {
    ^bb1(%p: i32, %q: i32, %z: i32):
      %go = arith.cmpi ne, %q, %z : i32
      stream.yield %go, %q : i1, i32
    }
    stream.store %c -> %o[d0] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}

// -----

func.func @bad_yield(%N: memref<?xi32>, %O: memref<?xi32>, %n: index, %s: i32) {
  stream.region ins(%N, %O : memref<?xi32>, memref<?xi32>) syms(M = %n : index, s = %s : i32) domain [0:M] iterators [parallel] {
  ^bb0(%nx: memref<?xi32>, %o: memref<?xi32>, %M: index, %S: i32):
    // CHECK: chase-invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.chase' op body must end with 'stream.yield' of whether to go on (i1) and the next pointer (i32)
    %c = stream.chase(%S : i32) fields(%nx : memref<?xi32>) -> !stream.stream<i32> {
    ^bb1(%p: i32, %q: i32):
      stream.yield %q : i32
    }
    stream.store %c -> %o[d0] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}

// -----

func.func @float_pointer(%N: memref<?xf32>, %O: memref<?xf32>, %n: index, %s: f32) {
  stream.region ins(%N, %O : memref<?xf32>, memref<?xf32>) syms(M = %n : index, s = %s : f32) domain [0:M] iterators [parallel] {
  ^bb0(%nx: memref<?xf32>, %o: memref<?xf32>, %M: index, %S: f32):
    // CHECK: chase-invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.chase' op start must be a stream or scalar of i8 or wider integers (a pointer: a slot of its fields), got f32
    %c = stream.chase(%S : f32) fields(%nx : memref<?xf32>) -> !stream.stream<f32> {
    ^bb1(%p: f32, %q: f32):
      %t = arith.constant true
      stream.yield %t, %q : i1, f32
    }
    stream.store %c -> %o[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
