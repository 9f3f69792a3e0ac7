// The verifier's rules for a write's filter (infs/dialects/stream.py, _verify_filter).
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @reduced_filter(%A: memref<?xi32>, %B: memref<?xi32>, %n: index) {
  stream.region ins(%A, %B : memref<?xi32>, memref<?xi32>) syms(N = %n : index) domain [0:N, 0:N] iterators [parallel, reduction] {
  ^bb0(%a: memref<?xi32>, %b: memref<?xi32>, %N: index):
    %x = stream.load %a[d1] : memref<?xi32> -> !stream.stream<i32>
    %k = stream.compute(%x : !stream.stream<i32>) -> !stream.stream<i1> {
    ^bb1(%v: i32):
      %z = arith.constant 0 : i32
      %p = arith.cmpi sgt, %v, %z : i32
      stream.yield %p : i1
    }
    %r = stream.reduce max %k over [1] : !stream.stream<i1> -> !stream.stream<i1>
    %s = stream.reduce add %x over [1] : !stream.stream<i32> -> !stream.stream<i32>
    // CHECK: filter-invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.store' op filter must be produced by a stream.load, stream.compute, stream.chase, stream.claim or stream.atomic of the same region
    stream.store %s -> %b[d0] if %r : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}

// -----

func.func @filter_over_reduced_dims(%A: memref<?x?xi32>, %B: memref<?xi32>, %n: index) {
  stream.region ins(%A, %B : memref<?x?xi32>, memref<?xi32>) syms(N = %n : index) domain [0:N, 0:N] iterators [parallel, reduction] {
  ^bb0(%a: memref<?x?xi32>, %b: memref<?xi32>, %N: index):
    %x = stream.load %a[d0, d1] : memref<?x?xi32> -> !stream.stream<i32>
    %s = stream.reduce add %x over [1] : !stream.stream<i32> -> !stream.stream<i32>
    %m = stream.compute(%x : !stream.stream<i32>) -> !stream.stream<i1> {
    ^bb1(%v: i32):
      %z = arith.constant 0 : i32
      %p = arith.cmpi sgt, %v, %z : i32
      stream.yield %p : i1
    }
    // CHECK: filter-invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.store' op filter varies over dim(s) [1] its value is reduced over
    stream.store %s -> %b[d0] if %m : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}
