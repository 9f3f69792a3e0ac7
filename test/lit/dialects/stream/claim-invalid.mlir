// The verifier's rules for claims, atomics returning `changed`, and counts.
// RUN: infs-opt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK: claim-invalid.mlir:[[# @LINE + 6]]:5: error: 'stream.claim' op 'stream.claim': a claimed array is accessed by no other op of its region, but 'stream.load' accesses it
func.func @claimed_and_loaded(%A: memref<?xi32>, %n: index) {
  stream.region ins(%A : memref<?xi32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xi32>, %N: index):
    %x = stream.load %a[d0] : memref<?xi32> -> !stream.stream<i32>
    %z = arith.constant 0 : i32
    %w = stream.claim slt %z, %x -> %a[%x] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}

// -----

// CHECK: claim-invalid.mlir:[[# @LINE + 6]]:5: error: 'stream.claim' op test bound must be a scalar of the array's element type i32, got i64
func.func @bound_type(%A: memref<?xi32>, %B: memref<?xi32>, %n: index) {
  stream.region ins(%A, %B : memref<?xi32>, memref<?xi32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xi32>, %b: memref<?xi32>, %N: index):
    %x = stream.load %a[d0] : memref<?xi32> -> !stream.stream<i32>
    %z = arith.constant 0 : i64
    "stream.claim"(%x, %b, %x, %z) <{predicate = "slt", map = #lattice.map<[0]>, indirect_dims = array<i64: 0>, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>}> : (!stream.stream<i32>, memref<?xi32>, !stream.stream<i32>, i64) -> !stream.stream<i1>
    stream.yield
  }
  func.return
}

// -----

// CHECK: claim-invalid.mlir:[[# @LINE + 5]]:5: error: 'stream.atomic' op returns whether it changed its cell for min and max only, not add
func.func @changed_add(%A: memref<?xi32>, %B: memref<?xi32>, %n: index) {
  stream.region ins(%A, %B : memref<?xi32>, memref<?xi32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xi32>, %b: memref<?xi32>, %N: index):
    %x = stream.load %a[d0] : memref<?xi32> -> !stream.stream<i32>
    %c = stream.atomic add changed %x -> %b[%x] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}

// -----

// CHECK: claim-invalid.mlir:[[# @LINE + 5]]:5: error: 'stream.count' op counts a !stream.stream<i1>, got !stream.stream<i32>
func.func @count_of_ints(%A: memref<?xi32>, %B: memref<?xi32>, %n: index) {
  stream.region ins(%A, %B : memref<?xi32>, memref<?xi32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xi32>, %b: memref<?xi32>, %N: index):
    %x = stream.load %a[d0] : memref<?xi32> -> !stream.stream<i32>
    %p = "stream.count"(%x, %N) : (!stream.stream<i32>, index) -> !stream.stream<index>
    stream.store %x -> %b[%p] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}
