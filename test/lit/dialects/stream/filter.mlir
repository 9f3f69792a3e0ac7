// Filtered stores and atomics (`if %m`, NSC's filtered streams): the custom
// form round trips, and the generic form carries the filter as the last
// operand segment (filter-invalid.mlir: the verifier's rules).
//
// RUN: infs-opt %s --split-input-file | filecheck %s
// RUN: infs-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: infs-opt %s --split-input-file --print-op-generic | infs-opt --split-input-file | filecheck %s

// CHECK-LABEL: func.func @filtered
// CHECK: stream.store %{{.*}} -> %{{.*}}[d0] if %[[M:.*]] : !stream.stream<i32> -> memref<?xi32>
// CHECK-NEXT: stream.atomic add %{{.*}} -> %{{.*}}[%{{.*}}] if %[[M]] : !stream.stream<i32> -> memref<?xi32>
// CHECK-NEXT: stream.store %{{.*}} -> %{{.*}}[d0] : !stream.stream<i32> -> memref<?xi32>
// GENERIC-LABEL: "func.func"() <{sym_name = "filtered"
// GENERIC: "stream.store"(%x, %b, %m) <{map = #lattice.map<[d0]>, indirect_dims = array<i64>, operandSegmentSizes = array<i32: 1, 1, 0, 1>}>
// GENERIC: "stream.atomic"(%x, %h, %x, %m) <{kind = "add", map = #lattice.map<[0]>, indirect_dims = array<i64: 0>, operandSegmentSizes = array<i32: 1, 1, 1, 1>}>
// GENERIC: "stream.store"(%x, %c) <{map = #lattice.map<[d0]>, indirect_dims = array<i64>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}>
func.func @filtered(%A: memref<?xi32>, %B: memref<?xi32>, %H: memref<?xi32>, %C: memref<?xi32>, %n: index, %t: i32) {
  stream.region ins(%A, %B, %H, %C : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>) syms(N = %n : index, t = %t : i32) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xi32>, %b: memref<?xi32>, %h: memref<?xi32>, %c: memref<?xi32>, %N: index, %T: i32):
    %x = stream.load %a[d0] : memref<?xi32> -> !stream.stream<i32>
    %m = stream.compute(%x, %T : !stream.stream<i32>, i32) -> !stream.stream<i1> {
    ^bb1(%v: i32, %u: i32):
      %big = arith.cmpi sgt, %v, %u : i32
      stream.yield %big : i1
    }
    stream.store %x -> %b[d0] if %m : !stream.stream<i32> -> memref<?xi32>
    stream.atomic add %x -> %h[%x] if %m : !stream.stream<i32> -> memref<?xi32>
    stream.store %x -> %c[d0] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}
