// Round trip of every `stream` op in its custom form, in each syntactic
// variant: region with/without ins, syms (index symbols and non-index scalars),
// results and extra attributes; affine loads (offsets, scaled dims, symbols,
// constants, transpose, broadcast) and indirect loads; compute with stream,
// scalar and no inputs (arith and math bodies); affine and indirect stores;
// atomic add/min/max; reduce of every kind, partial (stream result) and full
// (scalar result), with and without init; yield with and without values.
//
// Custom -> custom; custom -> generic (checked with the GENERIC prefix);
// generic -> custom.
// RUN: infs-opt %s | filecheck %s
// RUN: infs-opt %s --print-op-generic > %t.generic.mlir
// RUN: filecheck %s --check-prefix=GENERIC < %t.generic.mlir
// RUN: infs-opt %t.generic.mlir | filecheck %s

func.func @stencil(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [1:N - 1] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index):
    %l = stream.load %a[d0 - 1] : memref<?xf32> -> !stream.stream<f32>
    %r = stream.load %a[d0 + 1] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%l, %r : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32, %y: f32):
      %t = arith.addf %x, %y : f32
      stream.yield %t : f32
    }
    stream.store %s -> %b[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// CHECK-LABEL: func.func @stencil(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
// CHECK-NEXT:   stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [1:N - 1] iterators [parallel] {
// CHECK-NEXT:   ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index):
// CHECK-NEXT:     %l = stream.load %a[d0 - 1] : memref<?xf32> -> !stream.stream<f32>
// CHECK-NEXT:     %r = stream.load %a[d0 + 1] : memref<?xf32> -> !stream.stream<f32>
// CHECK-NEXT:     %s = stream.compute(%l, %r : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
// CHECK-NEXT:     ^bb0(%x: f32, %y: f32):
// CHECK-NEXT:       %t = arith.addf %x, %y : f32
// CHECK-NEXT:       stream.yield %t : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     stream.store %s -> %b[d0] : !stream.stream<f32> -> memref<?xf32>
// CHECK-NEXT:     stream.yield
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "stencil"
// GENERIC: "stream.region"(%A, %B, %n) <{sym_names = ["N"], domain = #lattice.domain<[1:N - 1]>, iterators = ["parallel"], operandSegmentSizes = array<i32: 2, 1>}> ({
// GENERIC: %l = "stream.load"(%a) <{map = #lattice.map<[d0 - 1]>, indirect_dims = array<i64>}> : (memref<?xf32>) -> !stream.stream<f32>
// GENERIC: %r = "stream.load"(%a) <{map = #lattice.map<[d0 + 1]>, indirect_dims = array<i64>}> : (memref<?xf32>) -> !stream.stream<f32>
// GENERIC: %s = "stream.compute"(%l, %r) ({
// GENERIC: "stream.yield"(%t) : (f32) -> ()
// GENERIC: }) : (!stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32>
// GENERIC: "stream.store"(%s, %b) <{map = #lattice.map<[d0]>, indirect_dims = array<i64>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (!stream.stream<f32>, memref<?xf32>) -> ()
// GENERIC: "stream.yield"() : () -> ()
// GENERIC: }) : (memref<?xf32>, memref<?xf32>, index) -> ()

func.func @empty_region() {
  stream.region domain [0:4] iterators [parallel] {
    stream.yield
  }
  func.return
}

// CHECK-LABEL: func.func @empty_region() {
// CHECK-NEXT:   stream.region domain [0:4] iterators [parallel] {
// CHECK-NEXT:     stream.yield
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "empty_region"
// GENERIC: "stream.region"() <{sym_names = [], domain = #lattice.domain<[0:4]>, iterators = ["parallel"], operandSegmentSizes = array<i32: 0, 0>}> ({
// GENERIC: "stream.yield"() : () -> ()

func.func @syms_only(%n: index) {
  stream.region syms(N = %n : index) domain [0:N, 0:2*N] iterators [parallel, reduction] {
  ^bb0(%N: index):
    stream.yield
  }
  func.return
}

// CHECK-LABEL: func.func @syms_only(%n: index) {
// CHECK-NEXT:   stream.region syms(N = %n : index) domain [0:N, 0:2*N] iterators [parallel, reduction] {
// CHECK-NEXT:   ^bb0(%N: index):
// CHECK-NEXT:     stream.yield
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "syms_only"
// GENERIC: "stream.region"(%n) <{sym_names = ["N"], domain = #lattice.domain<[0:N, 0:2*N]>, iterators = ["parallel", "reduction"], operandSegmentSizes = array<i32: 0, 1>}> ({
// GENERIC: "stream.yield"() : () -> ()

func.func @sum(%A: memref<16x8xf32>, %init: f32) -> f32 {
  %r = stream.region ins(%A : memref<16x8xf32>) syms(c = %init : f32) domain [0:16, 0:8] iterators [reduction, reduction] -> f32 attributes {tag = "x"} {
  ^bb0(%a: memref<16x8xf32>, %c: f32):
    %v = stream.load %a[d0, d1] : memref<16x8xf32> -> !stream.stream<f32>
    %p = stream.reduce add %v over [1] : !stream.stream<f32> -> !stream.stream<f32>
    %s = stream.reduce max %p over [0] init %c : !stream.stream<f32> -> f32
    stream.yield %s : f32
  }
  func.return %r : f32
}

// CHECK-LABEL: func.func @sum(%A: memref<16x8xf32>, %init: f32) -> f32 {
// CHECK-NEXT:   %r = stream.region ins(%A : memref<16x8xf32>) syms(c = %init : f32) domain [0:16, 0:8] iterators [reduction, reduction] -> f32 attributes {tag = "x"} {
// CHECK-NEXT:   ^bb0(%a: memref<16x8xf32>, %c: f32):
// CHECK-NEXT:     %v = stream.load %a[d0, d1] : memref<16x8xf32> -> !stream.stream<f32>
// CHECK-NEXT:     %p = stream.reduce add %v over [1] : !stream.stream<f32> -> !stream.stream<f32>
// CHECK-NEXT:     %s = stream.reduce max %p over [0] init %c : !stream.stream<f32> -> f32
// CHECK-NEXT:     stream.yield %s : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return %r : f32
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "sum"
// GENERIC: %r = "stream.region"(%A, %init) <{sym_names = ["c"], domain = #lattice.domain<[0:16, 0:8]>, iterators = ["reduction", "reduction"], operandSegmentSizes = array<i32: 1, 1>}> ({
// GENERIC: %v = "stream.load"(%a) <{map = #lattice.map<[d0, d1]>, indirect_dims = array<i64>}> : (memref<16x8xf32>) -> !stream.stream<f32>
// GENERIC: %p = "stream.reduce"(%v) <{kind = "add", dims = array<i64: 1>}> : (!stream.stream<f32>) -> !stream.stream<f32>
// GENERIC: %s = "stream.reduce"(%p, %c) <{kind = "max", dims = array<i64: 0>}> : (!stream.stream<f32>, f32) -> f32
// GENERIC: "stream.yield"(%s) : (f32) -> ()
// GENERIC: }) {tag = "x"} : (memref<16x8xf32>, f32) -> f32

func.func @gather(%X: memref<64x16xf32>, %I: memref<8xi32>, %Y: memref<8x16xf32>, %n: index, %k: index, %al: f32) {
  stream.region ins(%X, %I, %Y : memref<64x16xf32>, memref<8xi32>, memref<8x16xf32>) syms(N = %n : index, k = %k : index, alpha = %al : f32) domain [0:8, k:N] iterators [parallel, parallel] {
  ^bb0(%x: memref<64x16xf32>, %i: memref<8xi32>, %y: memref<8x16xf32>, %N: index, %K: index, %alpha: f32):
    %c2 = arith.constant 2 : index
    %idx = stream.load %i[d0] : memref<8xi32> -> !stream.stream<i32>
    %row = stream.load %x[%idx, d1] : memref<64x16xf32> -> !stream.stream<f32>
    %t = stream.load %y[d1 - k, 2*d0 + 1] : memref<8x16xf32> -> !stream.stream<f32>
    %one = stream.compute() -> !stream.stream<f32> {
      %c = arith.constant 1.0 : f32
      stream.yield %c : f32
    }
    %s = stream.compute(%row, %alpha, %one : !stream.stream<f32>, f32, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %q = math.sqrt %m : f32
      %r = arith.addf %q, %o : f32
      stream.yield %r : f32
    }
    %ii = stream.compute(%idx : !stream.stream<i32>) -> !stream.stream<i32> {
    ^bb2(%v: i32):
      stream.yield %v : i32
    }
    stream.store %s -> %y[d0, 2*d1] : !stream.stream<f32> -> memref<8x16xf32>
    stream.store %t -> %x[%ii, N] : !stream.stream<f32> -> memref<64x16xf32>
    stream.yield
  }
  func.return
}

// CHECK-LABEL: func.func @gather(%X: memref<64x16xf32>, %I: memref<8xi32>, %Y: memref<8x16xf32>, %n: index, %k: index, %al: f32) {
// CHECK-NEXT:   stream.region ins(%X, %I, %Y : memref<64x16xf32>, memref<8xi32>, memref<8x16xf32>) syms(N = %n : index, k = %k : index, alpha = %al : f32) domain [0:8, k:N] iterators [parallel, parallel] {
// CHECK-NEXT:   ^bb0(%x: memref<64x16xf32>, %i: memref<8xi32>, %y: memref<8x16xf32>, %N: index, %K: index, %alpha: f32):
// CHECK-NEXT:     %c2 = arith.constant 2 : index
// CHECK-NEXT:     %idx = stream.load %i[d0] : memref<8xi32> -> !stream.stream<i32>
// CHECK-NEXT:     %row = stream.load %x[%idx, d1] : memref<64x16xf32> -> !stream.stream<f32>
// CHECK-NEXT:     %t = stream.load %y[d1 - k, 2*d0 + 1] : memref<8x16xf32> -> !stream.stream<f32>
// CHECK-NEXT:     %one = stream.compute() -> !stream.stream<f32> {
// CHECK-NEXT:       %c = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:       stream.yield %c : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     %s = stream.compute(%row, %alpha, %one : !stream.stream<f32>, f32, !stream.stream<f32>) -> !stream.stream<f32> {
// CHECK-NEXT:     ^bb0(%a: f32, %b: f32, %o: f32):
// CHECK-NEXT:       %m = arith.mulf %a, %b : f32
// CHECK-NEXT:       %q = math.sqrt %m : f32
// CHECK-NEXT:       %r = arith.addf %q, %o : f32
// CHECK-NEXT:       stream.yield %r : f32
// CHECK-NEXT:     }
// CHECK-NEXT:     %ii = stream.compute(%idx : !stream.stream<i32>) -> !stream.stream<i32> {
// CHECK-NEXT:     ^bb0(%v: i32):
// CHECK-NEXT:       stream.yield %v : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     stream.store %s -> %y[d0, 2*d1] : !stream.stream<f32> -> memref<8x16xf32>
// CHECK-NEXT:     stream.store %t -> %x[%ii, N] : !stream.stream<f32> -> memref<64x16xf32>
// CHECK-NEXT:     stream.yield
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "gather"
// GENERIC: "stream.region"(%X, %I, %Y, %n, %k, %al) <{sym_names = ["N", "k", "alpha"], domain = #lattice.domain<[0:8, k:N]>, iterators = ["parallel", "parallel"], operandSegmentSizes = array<i32: 3, 3>}> ({
// GENERIC: %idx = "stream.load"(%i) <{map = #lattice.map<[d0]>, indirect_dims = array<i64>}> : (memref<8xi32>) -> !stream.stream<i32>
// GENERIC: %row = "stream.load"(%x, %idx) <{map = #lattice.map<[0, d1]>, indirect_dims = array<i64: 0>}> : (memref<64x16xf32>, !stream.stream<i32>) -> !stream.stream<f32>
// GENERIC: %t = "stream.load"(%y) <{map = #lattice.map<[d1 - k, 2*d0 + 1]>, indirect_dims = array<i64>}> : (memref<8x16xf32>) -> !stream.stream<f32>
// GENERIC: %one = "stream.compute"() ({
// GENERIC: "stream.yield"(%c) : (f32) -> ()
// GENERIC: }) : () -> !stream.stream<f32>
// GENERIC: %s = "stream.compute"(%row, %alpha, %one) ({
// GENERIC: "stream.yield"(%r) : (f32) -> ()
// GENERIC: }) : (!stream.stream<f32>, f32, !stream.stream<f32>) -> !stream.stream<f32>
// GENERIC: %ii = "stream.compute"(%idx) ({
// GENERIC: "stream.yield"(%v) : (i32) -> ()
// GENERIC: }) : (!stream.stream<i32>) -> !stream.stream<i32>
// GENERIC: "stream.store"(%s, %y) <{map = #lattice.map<[d0, 2*d1]>, indirect_dims = array<i64>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (!stream.stream<f32>, memref<8x16xf32>) -> ()
// GENERIC: "stream.store"(%t, %x, %ii) <{map = #lattice.map<[0, N]>, indirect_dims = array<i64: 0>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (!stream.stream<f32>, memref<64x16xf32>, !stream.stream<i32>) -> ()
// GENERIC: "stream.yield"() : () -> ()
// GENERIC: }) : (memref<64x16xf32>, memref<8xi32>, memref<8x16xf32>, index, index, f32) -> ()

func.func @histogram(%V: memref<?xi32>, %H: memref<?xi32>, %C: memref<4x?xf32>, %n: index) {
  stream.region ins(%V, %H, %C : memref<?xi32>, memref<?xi32>, memref<4x?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%v: memref<?xi32>, %h: memref<?xi32>, %c: memref<4x?xf32>, %N: index):
    %b = stream.load %v[d0] : memref<?xi32> -> !stream.stream<i32>
    %one = stream.compute() -> !stream.stream<i32> {
      %k = arith.constant 1 : i32
      stream.yield %k : i32
    }
    %f = stream.load %c[0, d0] : memref<4x?xf32> -> !stream.stream<f32>
    stream.atomic add %one -> %h[%b] : !stream.stream<i32> -> memref<?xi32>
    stream.atomic min %b -> %h[%b] : !stream.stream<i32> -> memref<?xi32>
    stream.atomic max %f -> %c[1, d0] : !stream.stream<f32> -> memref<4x?xf32>
    stream.yield
  }
  func.return
}

// CHECK-LABEL: func.func @histogram(%V: memref<?xi32>, %H: memref<?xi32>, %C: memref<4x?xf32>, %n: index) {
// CHECK-NEXT:   stream.region ins(%V, %H, %C : memref<?xi32>, memref<?xi32>, memref<4x?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
// CHECK-NEXT:   ^bb0(%v: memref<?xi32>, %h: memref<?xi32>, %c: memref<4x?xf32>, %N: index):
// CHECK-NEXT:     %b = stream.load %v[d0] : memref<?xi32> -> !stream.stream<i32>
// CHECK-NEXT:     %one = stream.compute() -> !stream.stream<i32> {
// CHECK-NEXT:       %k = arith.constant 1 : i32
// CHECK-NEXT:       stream.yield %k : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     %f = stream.load %c[0, d0] : memref<4x?xf32> -> !stream.stream<f32>
// CHECK-NEXT:     stream.atomic add %one -> %h[%b] : !stream.stream<i32> -> memref<?xi32>
// CHECK-NEXT:     stream.atomic min %b -> %h[%b] : !stream.stream<i32> -> memref<?xi32>
// CHECK-NEXT:     stream.atomic max %f -> %c[1, d0] : !stream.stream<f32> -> memref<4x?xf32>
// CHECK-NEXT:     stream.yield
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "histogram"
// GENERIC: "stream.region"(%V, %H, %C, %n) <{sym_names = ["N"], domain = #lattice.domain<[0:N]>, iterators = ["parallel"], operandSegmentSizes = array<i32: 3, 1>}> ({
// GENERIC: %b = "stream.load"(%v) <{map = #lattice.map<[d0]>, indirect_dims = array<i64>}> : (memref<?xi32>) -> !stream.stream<i32>
// GENERIC: %one = "stream.compute"() ({
// GENERIC: "stream.yield"(%k) : (i32) -> ()
// GENERIC: }) : () -> !stream.stream<i32>
// GENERIC: %f = "stream.load"(%c) <{map = #lattice.map<[0, d0]>, indirect_dims = array<i64>}> : (memref<4x?xf32>) -> !stream.stream<f32>
// GENERIC: "stream.atomic"(%one, %h, %b) <{kind = "add", map = #lattice.map<[0]>, indirect_dims = array<i64: 0>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (!stream.stream<i32>, memref<?xi32>, !stream.stream<i32>) -> ()
// GENERIC: "stream.atomic"(%b, %h, %b) <{kind = "min", map = #lattice.map<[0]>, indirect_dims = array<i64: 0>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> : (!stream.stream<i32>, memref<?xi32>, !stream.stream<i32>) -> ()
// GENERIC: "stream.atomic"(%f, %c) <{kind = "max", map = #lattice.map<[1, d0]>, indirect_dims = array<i64>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (!stream.stream<f32>, memref<4x?xf32>) -> ()
// GENERIC: "stream.yield"() : () -> ()
// GENERIC: }) : (memref<?xi32>, memref<?xi32>, memref<4x?xf32>, index) -> ()

func.func @kmeans(%X: memref<16x4xf32>, %Y: memref<16x4xf32>, %A: memref<16xindex>, %M: memref<16xf32>) -> (f32, i32) {
  %r:2 = stream.region ins(%X, %Y, %A, %M : memref<16x4xf32>, memref<16x4xf32>, memref<16xindex>, memref<16xf32>) domain [0:16, 0:4] iterators [reduction, reduction] -> f32, i32 {
  ^bb0(%x: memref<16x4xf32>, %y: memref<16x4xf32>, %a: memref<16xindex>, %m: memref<16xf32>):
    %t = stream.load %y[d1, d0] : memref<16x4xf32> -> !stream.stream<f32>
    %b = stream.load %m[d0] : memref<16xf32> -> !stream.stream<f32>
    %am = stream.reduce argmin %t over [1] : !stream.stream<f32> -> !stream.stream<index>
    %pr = stream.reduce mul %t over [1] : !stream.stream<f32> -> !stream.stream<f32>
    %mn = stream.reduce min %t over [1] : !stream.stream<f32> -> !stream.stream<f32>
    stream.store %am -> %a[d0] : !stream.stream<index> -> memref<16xindex>
    stream.store %pr -> %m[d0] : !stream.stream<f32> -> memref<16xf32>
    %all = stream.reduce add %t over [1] : !stream.stream<f32> -> !stream.stream<f32>
    %c0 = arith.constant 0.0 : f32
    %tot = stream.reduce add %t over [1, 0] init %c0 : !stream.stream<f32> -> f32
    %ax = stream.reduce argmax %mn over [0] : !stream.stream<f32> -> i32
    stream.yield %tot, %ax : f32, i32
  }
  func.return %r#0, %r#1 : f32, i32
}

// CHECK-LABEL: func.func @kmeans(%X: memref<16x4xf32>, %Y: memref<16x4xf32>, %A: memref<16xindex>, %M: memref<16xf32>) -> (f32, i32) {
// CHECK-NEXT:   %r, %r_1 = stream.region ins(%X, %Y, %A, %M : memref<16x4xf32>, memref<16x4xf32>, memref<16xindex>, memref<16xf32>) domain [0:16, 0:4] iterators [reduction, reduction] -> f32, i32 {
// CHECK-NEXT:   ^bb0(%x: memref<16x4xf32>, %y: memref<16x4xf32>, %a: memref<16xindex>, %m: memref<16xf32>):
// CHECK-NEXT:     %t = stream.load %y[d1, d0] : memref<16x4xf32> -> !stream.stream<f32>
// CHECK-NEXT:     %b = stream.load %m[d0] : memref<16xf32> -> !stream.stream<f32>
// CHECK-NEXT:     %am = stream.reduce argmin %t over [1] : !stream.stream<f32> -> !stream.stream<index>
// CHECK-NEXT:     %pr = stream.reduce mul %t over [1] : !stream.stream<f32> -> !stream.stream<f32>
// CHECK-NEXT:     %mn = stream.reduce min %t over [1] : !stream.stream<f32> -> !stream.stream<f32>
// CHECK-NEXT:     stream.store %am -> %a[d0] : !stream.stream<index> -> memref<16xindex>
// CHECK-NEXT:     stream.store %pr -> %m[d0] : !stream.stream<f32> -> memref<16xf32>
// CHECK-NEXT:     %all = stream.reduce add %t over [1] : !stream.stream<f32> -> !stream.stream<f32>
// CHECK-NEXT:     %c0 = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:     %tot = stream.reduce add %t over [1, 0] init %c0 : !stream.stream<f32> -> f32
// CHECK-NEXT:     %ax = stream.reduce argmax %mn over [0] : !stream.stream<f32> -> i32
// CHECK-NEXT:     stream.yield %tot, %ax : f32, i32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return %r, %r_1 : f32, i32
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "kmeans"
// GENERIC: %r, %r_1 = "stream.region"(%X, %Y, %A, %M) <{sym_names = [], domain = #lattice.domain<[0:16, 0:4]>, iterators = ["reduction", "reduction"], operandSegmentSizes = array<i32: 4, 0>}> ({
// GENERIC: %t = "stream.load"(%y) <{map = #lattice.map<[d1, d0]>, indirect_dims = array<i64>}> : (memref<16x4xf32>) -> !stream.stream<f32>
// GENERIC: %b = "stream.load"(%m) <{map = #lattice.map<[d0]>, indirect_dims = array<i64>}> : (memref<16xf32>) -> !stream.stream<f32>
// GENERIC: %am = "stream.reduce"(%t) <{kind = "argmin", dims = array<i64: 1>}> : (!stream.stream<f32>) -> !stream.stream<index>
// GENERIC: %pr = "stream.reduce"(%t) <{kind = "mul", dims = array<i64: 1>}> : (!stream.stream<f32>) -> !stream.stream<f32>
// GENERIC: %mn = "stream.reduce"(%t) <{kind = "min", dims = array<i64: 1>}> : (!stream.stream<f32>) -> !stream.stream<f32>
// GENERIC: "stream.store"(%am, %a) <{map = #lattice.map<[d0]>, indirect_dims = array<i64>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (!stream.stream<index>, memref<16xindex>) -> ()
// GENERIC: "stream.store"(%pr, %m) <{map = #lattice.map<[d0]>, indirect_dims = array<i64>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (!stream.stream<f32>, memref<16xf32>) -> ()
// GENERIC: %all = "stream.reduce"(%t) <{kind = "add", dims = array<i64: 1>}> : (!stream.stream<f32>) -> !stream.stream<f32>
// GENERIC: %tot = "stream.reduce"(%t, %c0) <{kind = "add", dims = array<i64: 1, 0>}> : (!stream.stream<f32>, f32) -> f32
// GENERIC: %ax = "stream.reduce"(%mn) <{kind = "argmax", dims = array<i64: 0>}> : (!stream.stream<f32>) -> i32
// GENERIC: "stream.yield"(%tot, %ax) : (f32, i32) -> ()
// GENERIC: }) : (memref<16x4xf32>, memref<16x4xf32>, memref<16xindex>, memref<16xf32>) -> (f32, i32)
