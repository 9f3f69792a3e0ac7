// Claims, atomics returning whether they changed their cell, and counts
// (GAP bfs's compare-and-swap, sssp's relaxation, a frontier queue's slots):
// the custom form round trips, also through the generic form
// (claim-invalid.mlir: the verifier's rules).
//
// RUN: infs-opt %s | filecheck %s
// RUN: infs-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: infs-opt %s --print-op-generic | infs-opt | filecheck %s

// CHECK-LABEL: func.func @frontier
// CHECK: %[[C:.*]] = stream.atomic min changed %{{.*}} -> %{{.*}}[%{{.*}}] : !stream.stream<i32> -> memref<?xi32>
// CHECK-NEXT: %[[W:.*]] = stream.claim slt %{{.*}}, %{{.*}} -> %{{.*}}[%{{.*}}] if %[[C]] : !stream.stream<i32> -> memref<?xi32>
// CHECK-NEXT: %[[P:.*]] = stream.count %[[W]] from %{{.*}} : !stream.stream<i1>
// CHECK-NEXT: stream.store %{{.*}} -> %{{.*}}[%[[P]]] if %[[W]] : !stream.stream<i32> -> memref<?xi32>
// GENERIC: "stream.atomic"(%v, %dist, %v) <{kind = "min", map = #lattice.map<[0]>, indirect_dims = array<i64: 0>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (!stream.stream<i32>, memref<?xi32>, !stream.stream<i32>) -> !stream.stream<i1>
// GENERIC: "stream.claim"(%l, %d, %v, %c, %zero) <{predicate = "slt", map = #lattice.map<[0]>, indirect_dims = array<i64: 0>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>}>
// GENERIC: "stream.count"(%w, %T) : (!stream.stream<i1>, index) -> !stream.stream<index>
func.func @frontier(%nbr: memref<?xi32>, %D: memref<?xi32>, %Dist: memref<?xi32>, %Q: memref<?xi32>, %b: index, %e: index, %t: index, %lvl: i32) {
  stream.region ins(%nbr, %D, %Dist, %Q : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>) syms(b = %b : index, e = %e : index, t = %t : index, lvl = %lvl : i32) domain [b:e] iterators [parallel] {
  ^bb0(%n: memref<?xi32>, %d: memref<?xi32>, %dist: memref<?xi32>, %q: memref<?xi32>, %B: index, %E: index, %T: index, %L: i32):
    %v = stream.load %n[d0] : memref<?xi32> -> !stream.stream<i32>
    %zero = arith.constant 0 : i32
    %l = stream.compute(%L : i32) -> !stream.stream<i32> {
    ^bb1(%x: i32):
      stream.yield %x : i32
    }
    %c = stream.atomic min changed %v -> %dist[%v] : !stream.stream<i32> -> memref<?xi32>
    %w = stream.claim slt %zero, %l -> %d[%v] if %c : !stream.stream<i32> -> memref<?xi32>
    %p = stream.count %w from %T : !stream.stream<i1>
    stream.store %v -> %q[%p] if %w : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}
