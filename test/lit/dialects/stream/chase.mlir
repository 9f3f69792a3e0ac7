// stream.chase, the pointer-chasing stream (NSC Table II): its custom form
// round trips (custom -> custom, custom -> generic -> custom); its verifier
// rules are in chase-invalid.mlir.
//
// RUN: infs-opt %s --split-input-file | filecheck %s
// RUN: infs-opt %s --split-input-file --print-op-generic | infs-opt --split-input-file | filecheck %s

// A binary-search-tree lookup per query: the key travels with the chase.
// CHECK-LABEL: func.func @tree_search
// CHECK: %{{.*}} = stream.chase(%{{.*}} : i32) fields(%{{.*}}, %{{.*}}, %{{.*}} : memref<?xi64>, memref<?xi32>, memref<?xi32>) with(%{{.*}} : !stream.stream<i64>) -> !stream.stream<i32> {
// CHECK-NEXT: ^{{.*}}(%{{.*}}: i32, %{{.*}}: i64, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i64):
// CHECK: stream.yield %{{.*}}, %{{.*}} : i1, i32
func.func @tree_search(%Key: memref<?xi64>, %Lt: memref<?xi32>, %Rt: memref<?xi32>, %Qk: memref<?xi64>, %Res: memref<?xi32>, %q: index, %root: i32) {
  stream.region ins(%Key, %Lt, %Rt, %Qk, %Res : memref<?xi64>, memref<?xi32>, memref<?xi32>, memref<?xi64>, memref<?xi32>) syms(Q = %q : index, root = %root : i32) domain [0:Q] iterators [parallel] {
  ^bb0(%key: memref<?xi64>, %lt: memref<?xi32>, %rt: memref<?xi32>, %qk: memref<?xi64>, %res: memref<?xi32>, %Q: index, %r0: i32):
    %k = stream.load %qk[d0] : memref<?xi64> -> !stream.stream<i64>
    %found = stream.chase(%r0 : i32) fields(%key, %lt, %rt : memref<?xi64>, memref<?xi32>, memref<?xi32>) with(%k : !stream.stream<i64>) -> !stream.stream<i32> {
    ^bb1(%p: i32, %nk: i64, %l: i32, %r: i32, %x: i64):
      %ne = arith.cmpi ne, %nk, %x : i64
      %less = arith.cmpi slt, %x, %nk : i64
      %child = arith.select %less, %l, %r : i32
      stream.yield %ne, %child : i1, i32
    }
    stream.store %found -> %res[d0] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}

// -----

// A hash-chain probe: the chain's head loaded at a computed bucket, the key
// as its one input.
// CHECK-LABEL: func.func @chain_probe
// CHECK: stream.chase(%{{.*}} : !stream.stream<i32>) fields(%{{.*}}, %{{.*}} : memref<?xi64>, memref<?xi32>) with(%{{.*}} : !stream.stream<i64>) -> !stream.stream<i32>
func.func @chain_probe(%Bk: memref<?xi64>, %Head: memref<?xi32>, %Next: memref<?xi32>, %Pk: memref<?xi64>, %Val: memref<?xi32>, %Out: memref<?xi32>, %p: index, %h: i64) {
  stream.region ins(%Bk, %Head, %Next, %Pk, %Val, %Out : memref<?xi64>, memref<?xi32>, memref<?xi32>, memref<?xi64>, memref<?xi32>, memref<?xi32>) syms(P = %p : index, h = %h : i64) domain [0:P] iterators [parallel] {
  ^bb0(%bk: memref<?xi64>, %head: memref<?xi32>, %next: memref<?xi32>, %pk: memref<?xi64>, %val: memref<?xi32>, %out: memref<?xi32>, %P: index, %H: i64):
    %k = stream.load %pk[d0] : memref<?xi64> -> !stream.stream<i64>
    %b = stream.compute(%k, %H : !stream.stream<i64>, i64) -> !stream.stream<i64> {
    ^bb1(%x: i64, %y: i64):
      %m = arith.remsi %x, %y : i64
      stream.yield %m : i64
    }
    %first = stream.load %head[%b] : memref<?xi32> -> !stream.stream<i32>
    %row = stream.chase(%first : !stream.stream<i32>) fields(%bk, %next : memref<?xi64>, memref<?xi32>) with(%k : !stream.stream<i64>) -> !stream.stream<i32> {
    ^bb2(%r: i32, %rk: i64, %nx: i32, %x: i64):
      %ne = arith.cmpi ne, %rk, %x : i64
      stream.yield %ne, %nx : i1, i32
    }
    stream.store %row -> %out[d0] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}
