// Round trip of every `tdfg` op in its custom form, in each syntactic
// variant: graph with/without ins, syms (index symbols and a non-index scalar),
// hints (every key), results and extra attributes; tensor (symbolic domains, a
// lower-rank array on a higher-rank lattice); cmp with every element-wise op
// on f32, i32, i16, i8 and i1 tensors; mv and bc with constant and symbolic
// distances/counts; const from float and integer literals and from scalar
// operands (f32, index); shrink; reduce of every kind; stream_load affine and
// indirect; stream_reduce to a scalar and to a tensor; stream_store of every
// kind, affine and indirect; store; yield with and without values.
//
// Custom -> custom; custom -> generic (checked with the GENERIC prefix);
// generic -> custom.
// RUN: infs-opt %s | filecheck %s
// RUN: infs-opt %s --print-op-generic > %t.generic.mlir
// RUN: filecheck %s --check-prefix=GENERIC < %t.generic.mlir
// RUN: infs-opt %t.generic.mlir | filecheck %s

func.func @stencil1d(%A: memref<?xf32>, %B: memref<?xf32>, %n: index, %al: f32) {
  %s = tdfg.graph ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index, alpha = %al : f32) rank 1 hints {shift = array<i64: 0>, primary = 1 : i64} -> f32 {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index, %alpha: f32):
    %l = tdfg.tensor %a [0:N - 2] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    %c = tdfg.tensor %a [1:N - 1] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    %m = tdfg.mv %l dim 0 dist 1 : !tdfg.tensor<f32, 1>
    %k = tdfg.const 2.0 : !tdfg.tensor<f32, 1>
    %kn = tdfg.const -1.5e-3 : !tdfg.tensor<f32, 1>
    %al2 = tdfg.const %alpha : f32 -> !tdfg.tensor<f32, 1>
    %x = tdfg.cmp add(%m, %c) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    %lt = tdfg.cmp cmp_lt(%x, %k) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<i1, 1>
    %sel = tdfg.cmp select(%lt, %x, %al2) : !tdfg.tensor<i1, 1>, !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    %sh = tdfg.shrink %sel dim 0 to [2:N - 2] : !tdfg.tensor<f32, 1>
    %p = tdfg.reduce add %sh dim 0 : !tdfg.tensor<f32, 1>
    %r = tdfg.stream_reduce add %p over [0] : !tdfg.tensor<f32, 1> -> f32
    tdfg.store %x -> %b : !tdfg.tensor<f32, 1> -> memref<?xf32>
    tdfg.yield %r : f32
  }
  func.return
}

// CHECK-LABEL: func.func @stencil1d(%A: memref<?xf32>, %B: memref<?xf32>, %n: index, %al: f32) {
// CHECK-NEXT:   %s = tdfg.graph ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index, alpha = %al : f32) rank 1 hints {shift = array<i64: 0>, primary = 1 : i64} -> f32 {
// CHECK-NEXT:   ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index, %alpha: f32):
// CHECK-NEXT:     %l = tdfg.tensor %a [0:N - 2] : memref<?xf32> -> !tdfg.tensor<f32, 1>
// CHECK-NEXT:     %c = tdfg.tensor %a [1:N - 1] : memref<?xf32> -> !tdfg.tensor<f32, 1>
// CHECK-NEXT:     %m = tdfg.mv %l dim 0 dist 1 : !tdfg.tensor<f32, 1>
// CHECK-NEXT:     %k = tdfg.const 2.0 : !tdfg.tensor<f32, 1>
// CHECK-NEXT:     %kn = tdfg.const -0.001500000013038516 : !tdfg.tensor<f32, 1>
// CHECK-NEXT:     %al2 = tdfg.const %alpha : f32 -> !tdfg.tensor<f32, 1>
// CHECK-NEXT:     %x = tdfg.cmp add(%m, %c) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
// CHECK-NEXT:     %lt = tdfg.cmp cmp_lt(%x, %k) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<i1, 1>
// CHECK-NEXT:     %sel = tdfg.cmp select(%lt, %x, %al2) : !tdfg.tensor<i1, 1>, !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
// CHECK-NEXT:     %sh = tdfg.shrink %sel dim 0 to [2:N - 2] : !tdfg.tensor<f32, 1>
// CHECK-NEXT:     %p = tdfg.reduce add %sh dim 0 : !tdfg.tensor<f32, 1>
// CHECK-NEXT:     %r = tdfg.stream_reduce add %p over [0] : !tdfg.tensor<f32, 1> -> f32
// CHECK-NEXT:     tdfg.store %x -> %b : !tdfg.tensor<f32, 1> -> memref<?xf32>
// CHECK-NEXT:     tdfg.yield %r : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "stencil1d"
// GENERIC: %s = "tdfg.graph"(%A, %B, %n, %al) <{sym_names = ["N", "alpha"], rank = 1 : i64, hints = {shift = array<i64: 0>, primary = 1 : i64}, operandSegmentSizes = array<i32: 2, 2>}> ({
// GENERIC: %l = "tdfg.tensor"(%a) <{domain = #lattice.domain<[0:N - 2]>}> : (memref<?xf32>) -> !tdfg.tensor<f32, 1>
// GENERIC: %c = "tdfg.tensor"(%a) <{domain = #lattice.domain<[1:N - 1]>}> : (memref<?xf32>) -> !tdfg.tensor<f32, 1>
// GENERIC: %m = "tdfg.mv"(%l) <{dim = 0 : i64, dist = #lattice.expr<1>}> : (!tdfg.tensor<f32, 1>) -> !tdfg.tensor<f32, 1>
// GENERIC: %k = "tdfg.const"() <{value = 2.000000e+00 : f32}> : () -> !tdfg.tensor<f32, 1>
// GENERIC: %kn = "tdfg.const"() <{value = -1.500000e-03 : f32}> : () -> !tdfg.tensor<f32, 1>
// GENERIC: %al2 = "tdfg.const"(%alpha) : (f32) -> !tdfg.tensor<f32, 1>
// GENERIC: %x = "tdfg.cmp"(%m, %c) <{op = "add"}> : (!tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1>) -> !tdfg.tensor<f32, 1>
// GENERIC: %lt = "tdfg.cmp"(%x, %k) <{op = "cmp_lt"}> : (!tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1>) -> !tdfg.tensor<i1, 1>
// GENERIC: %sel = "tdfg.cmp"(%lt, %x, %al2) <{op = "select"}> : (!tdfg.tensor<i1, 1>, !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1>) -> !tdfg.tensor<f32, 1>
// GENERIC: %sh = "tdfg.shrink"(%sel) <{dim = 0 : i64, range = #lattice.domain<[2:N - 2]>}> : (!tdfg.tensor<f32, 1>) -> !tdfg.tensor<f32, 1>
// GENERIC: %p = "tdfg.reduce"(%sh) <{dim = 0 : i64, kind = "add"}> : (!tdfg.tensor<f32, 1>) -> !tdfg.tensor<f32, 1>
// GENERIC: %r = "tdfg.stream_reduce"(%p) <{kind = "add", dims = array<i64: 0>}> : (!tdfg.tensor<f32, 1>) -> f32
// GENERIC: "tdfg.store"(%x, %b) : (!tdfg.tensor<f32, 1>, memref<?xf32>) -> ()
// GENERIC: "tdfg.yield"(%r) : (f32) -> ()
// GENERIC: }) : (memref<?xf32>, memref<?xf32>, index, f32) -> f32

func.func @empty_graph() {
  tdfg.graph rank 3 {
    tdfg.yield
  }
  func.return
}

// CHECK-LABEL: func.func @empty_graph() {
// CHECK-NEXT:   tdfg.graph rank 3 {
// CHECK-NEXT:     tdfg.yield
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "empty_graph"
// GENERIC: "tdfg.graph"() <{sym_names = [], rank = 3 : i64, operandSegmentSizes = array<i32: 0, 0>}> ({
// GENERIC: "tdfg.yield"() : () -> ()

func.func @hints(%A: memref<8x8xi32>, %B: memref<8xi32>, %n: index, %k: index) {
  tdfg.graph ins(%A, %B : memref<8x8xi32>, memref<8xi32>) syms(N = %n : index, k = %k : index) rank 2 hints {shift = array<i64: 0, 1>, broadcast = array<i64: 0>, reduce = array<i64: 1>, primary = 0 : i64, align = array<i64: 0, 1>} attributes {tag = "t"} {
  ^bb0(%a: memref<8x8xi32>, %b: memref<8xi32>, %N: index, %K: index):
    %t = tdfg.tensor %a [k:N, 0:8] : memref<8x8xi32> -> !tdfg.tensor<i32, 2>
    %row = tdfg.tensor %b [0:1, 0:8] : memref<8xi32> -> !tdfg.tensor<i32, 2>
    %bc = tdfg.bc %row dim 0 dist k + 1 count N - k - 1 : !tdfg.tensor<i32, 2>
    %bc2 = tdfg.bc %row dim 1 dist 0 count 4 : !tdfg.tensor<i32, 2>
    %mv = tdfg.mv %t dim 1 dist -1 : !tdfg.tensor<i32, 2>
    %mv2 = tdfg.mv %t dim 0 dist -k : !tdfg.tensor<i32, 2>
    %c3 = tdfg.const -3 : !tdfg.tensor<i32, 2>
    %ck = tdfg.const %K : index -> !tdfg.tensor<i32, 2>
    %x0 = tdfg.cmp sub(%bc, %mv) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %x1 = tdfg.cmp mul(%x0, %c3) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %x2 = tdfg.cmp div(%x1, %ck) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %x3 = tdfg.cmp fma(%x2, %bc2, %mv2) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %x4 = tdfg.cmp min(%x3, %t) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %x5 = tdfg.cmp max(%x4, %t) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %x6 = tdfg.cmp and(%x5, %t) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %x7 = tdfg.cmp or(%x6, %t) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %x8 = tdfg.cmp xor(%x7, %t) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %x9 = tdfg.cmp not(%x8) : !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %xa = tdfg.cmp abs(%x9) : !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %xb = tdfg.cmp neg(%xa) : !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %xc = tdfg.cmp relu(%xb) : !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %le = tdfg.cmp cmp_le(%xc, %t) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i1, 2>
    %eq = tdfg.cmp cmp_eq(%xc, %t) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i1, 2>
    %bo = tdfg.cmp and(%le, %eq) : !tdfg.tensor<i1, 2>, !tdfg.tensor<i1, 2> -> !tdfg.tensor<i1, 2>
    %r1 = tdfg.reduce mul %xc dim 1 : !tdfg.tensor<i32, 2>
    %r2 = tdfg.reduce min %r1 dim 0 : !tdfg.tensor<i32, 2>
    %r3 = tdfg.reduce max %r2 dim 1 : !tdfg.tensor<i32, 2>
    %part = tdfg.stream_reduce max %r3 over [1] : !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %all = tdfg.stream_reduce min %r3 over [0, 1] : !tdfg.tensor<i32, 2> -> i32
    %mul = tdfg.stream_reduce mul %r3 over [0] : !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    tdfg.store %part -> %a : !tdfg.tensor<i32, 2> -> memref<8x8xi32>
    tdfg.yield
  }
  func.return
}

// CHECK-LABEL: func.func @hints(%A: memref<8x8xi32>, %B: memref<8xi32>, %n: index, %k: index) {
// CHECK-NEXT:   tdfg.graph ins(%A, %B : memref<8x8xi32>, memref<8xi32>) syms(N = %n : index, k = %k : index) rank 2 hints {shift = array<i64: 0, 1>, broadcast = array<i64: 0>, reduce = array<i64: 1>, primary = 0 : i64, align = array<i64: 0, 1>} attributes {tag = "t"} {
// CHECK-NEXT:   ^bb0(%a: memref<8x8xi32>, %b: memref<8xi32>, %N: index, %K: index):
// CHECK-NEXT:     %t = tdfg.tensor %a [k:N, 0:8] : memref<8x8xi32> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %row = tdfg.tensor %b [0:1, 0:8] : memref<8xi32> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %bc = tdfg.bc %row dim 0 dist k + 1 count N - k - 1 : !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %bc2 = tdfg.bc %row dim 1 dist 0 count 4 : !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %mv = tdfg.mv %t dim 1 dist -1 : !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %mv2 = tdfg.mv %t dim 0 dist -k : !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %c3 = tdfg.const -3 : !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %ck = tdfg.const %K : index -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %x0 = tdfg.cmp sub(%bc, %mv) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %x1 = tdfg.cmp mul(%x0, %c3) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %x2 = tdfg.cmp div(%x1, %ck) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %x3 = tdfg.cmp fma(%x2, %bc2, %mv2) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %x4 = tdfg.cmp min(%x3, %t) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %x5 = tdfg.cmp max(%x4, %t) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %x6 = tdfg.cmp and(%x5, %t) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %x7 = tdfg.cmp or(%x6, %t) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %x8 = tdfg.cmp xor(%x7, %t) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %x9 = tdfg.cmp not(%x8) : !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %xa = tdfg.cmp abs(%x9) : !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %xb = tdfg.cmp neg(%xa) : !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %xc = tdfg.cmp relu(%xb) : !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %le = tdfg.cmp cmp_le(%xc, %t) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i1, 2>
// CHECK-NEXT:     %eq = tdfg.cmp cmp_eq(%xc, %t) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i1, 2>
// CHECK-NEXT:     %bo = tdfg.cmp and(%le, %eq) : !tdfg.tensor<i1, 2>, !tdfg.tensor<i1, 2> -> !tdfg.tensor<i1, 2>
// CHECK-NEXT:     %r1 = tdfg.reduce mul %xc dim 1 : !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %r2 = tdfg.reduce min %r1 dim 0 : !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %r3 = tdfg.reduce max %r2 dim 1 : !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %part = tdfg.stream_reduce max %r3 over [1] : !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %all = tdfg.stream_reduce min %r3 over [0, 1] : !tdfg.tensor<i32, 2> -> i32
// CHECK-NEXT:     %mul = tdfg.stream_reduce mul %r3 over [0] : !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     tdfg.store %part -> %a : !tdfg.tensor<i32, 2> -> memref<8x8xi32>
// CHECK-NEXT:     tdfg.yield
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "hints"
// GENERIC: "tdfg.graph"(%A, %B, %n, %k) <{sym_names = ["N", "k"], rank = 2 : i64, hints = {shift = array<i64: 0, 1>, broadcast = array<i64: 0>, reduce = array<i64: 1>, primary = 0 : i64, align = array<i64: 0, 1>}, operandSegmentSizes = array<i32: 2, 2>}> ({
// GENERIC: %t = "tdfg.tensor"(%a) <{domain = #lattice.domain<[k:N, 0:8]>}> : (memref<8x8xi32>) -> !tdfg.tensor<i32, 2>
// GENERIC: %row = "tdfg.tensor"(%b) <{domain = #lattice.domain<[0:1, 0:8]>}> : (memref<8xi32>) -> !tdfg.tensor<i32, 2>
// GENERIC: %bc = "tdfg.bc"(%row) <{dim = 0 : i64, dist = #lattice.expr<k + 1>, count = #lattice.expr<N - k - 1>}> : (!tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %bc2 = "tdfg.bc"(%row) <{dim = 1 : i64, dist = #lattice.expr<0>, count = #lattice.expr<4>}> : (!tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %mv = "tdfg.mv"(%t) <{dim = 1 : i64, dist = #lattice.expr<-1>}> : (!tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %mv2 = "tdfg.mv"(%t) <{dim = 0 : i64, dist = #lattice.expr<-k>}> : (!tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %c3 = "tdfg.const"() <{value = -3 : i32}> : () -> !tdfg.tensor<i32, 2>
// GENERIC: %ck = "tdfg.const"(%K) : (index) -> !tdfg.tensor<i32, 2>
// GENERIC: %x0 = "tdfg.cmp"(%bc, %mv) <{op = "sub"}> : (!tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %x1 = "tdfg.cmp"(%x0, %c3) <{op = "mul"}> : (!tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %x2 = "tdfg.cmp"(%x1, %ck) <{op = "div"}> : (!tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %x3 = "tdfg.cmp"(%x2, %bc2, %mv2) <{op = "fma"}> : (!tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %x4 = "tdfg.cmp"(%x3, %t) <{op = "min"}> : (!tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %x5 = "tdfg.cmp"(%x4, %t) <{op = "max"}> : (!tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %x6 = "tdfg.cmp"(%x5, %t) <{op = "and"}> : (!tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %x7 = "tdfg.cmp"(%x6, %t) <{op = "or"}> : (!tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %x8 = "tdfg.cmp"(%x7, %t) <{op = "xor"}> : (!tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %x9 = "tdfg.cmp"(%x8) <{op = "not"}> : (!tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %xa = "tdfg.cmp"(%x9) <{op = "abs"}> : (!tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %xb = "tdfg.cmp"(%xa) <{op = "neg"}> : (!tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %xc = "tdfg.cmp"(%xb) <{op = "relu"}> : (!tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %le = "tdfg.cmp"(%xc, %t) <{op = "cmp_le"}> : (!tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2>) -> !tdfg.tensor<i1, 2>
// GENERIC: %eq = "tdfg.cmp"(%xc, %t) <{op = "cmp_eq"}> : (!tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2>) -> !tdfg.tensor<i1, 2>
// GENERIC: %bo = "tdfg.cmp"(%le, %eq) <{op = "and"}> : (!tdfg.tensor<i1, 2>, !tdfg.tensor<i1, 2>) -> !tdfg.tensor<i1, 2>
// GENERIC: %r1 = "tdfg.reduce"(%xc) <{dim = 1 : i64, kind = "mul"}> : (!tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %r2 = "tdfg.reduce"(%r1) <{dim = 0 : i64, kind = "min"}> : (!tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %r3 = "tdfg.reduce"(%r2) <{dim = 1 : i64, kind = "max"}> : (!tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %part = "tdfg.stream_reduce"(%r3) <{kind = "max", dims = array<i64: 1>}> : (!tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: %all = "tdfg.stream_reduce"(%r3) <{kind = "min", dims = array<i64: 0, 1>}> : (!tdfg.tensor<i32, 2>) -> i32
// GENERIC: %mul = "tdfg.stream_reduce"(%r3) <{kind = "mul", dims = array<i64: 0>}> : (!tdfg.tensor<i32, 2>) -> !tdfg.tensor<i32, 2>
// GENERIC: "tdfg.store"(%part, %a) : (!tdfg.tensor<i32, 2>, memref<8x8xi32>) -> ()
// GENERIC: "tdfg.yield"() : () -> ()
// GENERIC: }) {tag = "t"} : (memref<8x8xi32>, memref<8xi32>, index, index) -> ()

func.func @small_ints(%A: memref<4xi8>, %B: memref<4xi16>) {
  tdfg.graph ins(%A, %B : memref<4xi8>, memref<4xi16>) rank 1 {
  ^bb0(%a: memref<4xi8>, %b: memref<4xi16>):
    %t8 = tdfg.tensor %a [0:4] : memref<4xi8> -> !tdfg.tensor<i8, 1>
    %t16 = tdfg.tensor %b [0:4] : memref<4xi16> -> !tdfg.tensor<i16, 1>
    %c8 = tdfg.const 7 : !tdfg.tensor<i8, 1>
    %x8 = tdfg.cmp add(%t8, %c8) : !tdfg.tensor<i8, 1>, !tdfg.tensor<i8, 1> -> !tdfg.tensor<i8, 1>
    %x16 = tdfg.cmp neg(%t16) : !tdfg.tensor<i16, 1> -> !tdfg.tensor<i16, 1>
    tdfg.store %x8 -> %a : !tdfg.tensor<i8, 1> -> memref<4xi8>
    tdfg.store %x16 -> %b : !tdfg.tensor<i16, 1> -> memref<4xi16>
    tdfg.yield
  }
  func.return
}

// CHECK-LABEL: func.func @small_ints(%A: memref<4xi8>, %B: memref<4xi16>) {
// CHECK-NEXT:   tdfg.graph ins(%A, %B : memref<4xi8>, memref<4xi16>) rank 1 {
// CHECK-NEXT:   ^bb0(%a: memref<4xi8>, %b: memref<4xi16>):
// CHECK-NEXT:     %t8 = tdfg.tensor %a [0:4] : memref<4xi8> -> !tdfg.tensor<i8, 1>
// CHECK-NEXT:     %t16 = tdfg.tensor %b [0:4] : memref<4xi16> -> !tdfg.tensor<i16, 1>
// CHECK-NEXT:     %c8 = tdfg.const 7 : !tdfg.tensor<i8, 1>
// CHECK-NEXT:     %x8 = tdfg.cmp add(%t8, %c8) : !tdfg.tensor<i8, 1>, !tdfg.tensor<i8, 1> -> !tdfg.tensor<i8, 1>
// CHECK-NEXT:     %x16 = tdfg.cmp neg(%t16) : !tdfg.tensor<i16, 1> -> !tdfg.tensor<i16, 1>
// CHECK-NEXT:     tdfg.store %x8 -> %a : !tdfg.tensor<i8, 1> -> memref<4xi8>
// CHECK-NEXT:     tdfg.store %x16 -> %b : !tdfg.tensor<i16, 1> -> memref<4xi16>
// CHECK-NEXT:     tdfg.yield
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "small_ints"
// GENERIC: "tdfg.graph"(%A, %B) <{sym_names = [], rank = 1 : i64, operandSegmentSizes = array<i32: 2, 0>}> ({
// GENERIC: %t8 = "tdfg.tensor"(%a) <{domain = #lattice.domain<[0:4]>}> : (memref<4xi8>) -> !tdfg.tensor<i8, 1>
// GENERIC: %t16 = "tdfg.tensor"(%b) <{domain = #lattice.domain<[0:4]>}> : (memref<4xi16>) -> !tdfg.tensor<i16, 1>
// GENERIC: %c8 = "tdfg.const"() <{value = 7 : i8}> : () -> !tdfg.tensor<i8, 1>
// GENERIC: %x8 = "tdfg.cmp"(%t8, %c8) <{op = "add"}> : (!tdfg.tensor<i8, 1>, !tdfg.tensor<i8, 1>) -> !tdfg.tensor<i8, 1>
// GENERIC: %x16 = "tdfg.cmp"(%t16) <{op = "neg"}> : (!tdfg.tensor<i16, 1>) -> !tdfg.tensor<i16, 1>
// GENERIC: "tdfg.store"(%x8, %a) : (!tdfg.tensor<i8, 1>, memref<4xi8>) -> ()
// GENERIC: "tdfg.store"(%x16, %b) : (!tdfg.tensor<i16, 1>, memref<4xi16>) -> ()
// GENERIC: "tdfg.yield"() : () -> ()
// GENERIC: }) : (memref<4xi8>, memref<4xi16>) -> ()

func.func @gather_mlp(%X: memref<64x16xf32>, %I: memref<8xi32>, %Y: memref<8x16xf32>, %H: memref<64xf32>, %n: index) {
  tdfg.graph ins(%X, %I, %Y, %H : memref<64x16xf32>, memref<8xi32>, memref<8x16xf32>, memref<64xf32>) syms(N = %n : index) rank 2 {
  ^bb0(%x: memref<64x16xf32>, %i: memref<8xi32>, %y: memref<8x16xf32>, %h: memref<64xf32>, %N: index):
    %idx = tdfg.stream_load %i[d0] over [0:8, 0:16] : memref<8xi32> -> !tdfg.tensor<i32, 2>
    %rows = tdfg.stream_load %x[%idx, d1] over [0:8, 0:16] : !tdfg.tensor<i32, 2>, memref<64x16xf32> -> !tdfg.tensor<f32, 2>
    %st = tdfg.stream_load %x[2*d0 + 1, N - d1 - 1] over [0:8, 0:N] : memref<64x16xf32> -> !tdfg.tensor<f32, 2>
    tdfg.stream_store store %rows -> %y[d0, d1] : !tdfg.tensor<f32, 2> -> memref<8x16xf32>
    tdfg.stream_store add %rows -> %x[%idx, d1] : !tdfg.tensor<f32, 2>, !tdfg.tensor<i32, 2> -> memref<64x16xf32>
    tdfg.stream_store min %st -> %h[%idx] : !tdfg.tensor<f32, 2>, !tdfg.tensor<i32, 2> -> memref<64xf32>
    tdfg.stream_store max %st -> %h[d1] : !tdfg.tensor<f32, 2> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// CHECK-LABEL: func.func @gather_mlp(%X: memref<64x16xf32>, %I: memref<8xi32>, %Y: memref<8x16xf32>, %H: memref<64xf32>, %n: index) {
// CHECK-NEXT:   tdfg.graph ins(%X, %I, %Y, %H : memref<64x16xf32>, memref<8xi32>, memref<8x16xf32>, memref<64xf32>) syms(N = %n : index) rank 2 {
// CHECK-NEXT:   ^bb0(%x: memref<64x16xf32>, %i: memref<8xi32>, %y: memref<8x16xf32>, %h: memref<64xf32>, %N: index):
// CHECK-NEXT:     %idx = tdfg.stream_load %i[d0] over [0:8, 0:16] : memref<8xi32> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:     %rows = tdfg.stream_load %x[%idx, d1] over [0:8, 0:16] : !tdfg.tensor<i32, 2>, memref<64x16xf32> -> !tdfg.tensor<f32, 2>
// CHECK-NEXT:     %st = tdfg.stream_load %x[2*d0 + 1, N - d1 - 1] over [0:8, 0:N] : memref<64x16xf32> -> !tdfg.tensor<f32, 2>
// CHECK-NEXT:     tdfg.stream_store store %rows -> %y[d0, d1] : !tdfg.tensor<f32, 2> -> memref<8x16xf32>
// CHECK-NEXT:     tdfg.stream_store add %rows -> %x[%idx, d1] : !tdfg.tensor<f32, 2>, !tdfg.tensor<i32, 2> -> memref<64x16xf32>
// CHECK-NEXT:     tdfg.stream_store min %st -> %h[%idx] : !tdfg.tensor<f32, 2>, !tdfg.tensor<i32, 2> -> memref<64xf32>
// CHECK-NEXT:     tdfg.stream_store max %st -> %h[d1] : !tdfg.tensor<f32, 2> -> memref<64xf32>
// CHECK-NEXT:     tdfg.yield
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "gather_mlp"
// GENERIC: "tdfg.graph"(%X, %I, %Y, %H, %n) <{sym_names = ["N"], rank = 2 : i64, operandSegmentSizes = array<i32: 4, 1>}> ({
// GENERIC: %idx = "tdfg.stream_load"(%i) <{map = #lattice.map<[d0]>, indirect_dims = array<i64>, domain = #lattice.domain<[0:8, 0:16]>}> : (memref<8xi32>) -> !tdfg.tensor<i32, 2>
// GENERIC: %rows = "tdfg.stream_load"(%x, %idx) <{map = #lattice.map<[0, d1]>, indirect_dims = array<i64: 0>, domain = #lattice.domain<[0:8, 0:16]>}> : (memref<64x16xf32>, !tdfg.tensor<i32, 2>) -> !tdfg.tensor<f32, 2>
// GENERIC: %st = "tdfg.stream_load"(%x) <{map = #lattice.map<[2*d0 + 1, N - d1 - 1]>, indirect_dims = array<i64>, domain = #lattice.domain<[0:8, 0:N]>}> : (memref<64x16xf32>) -> !tdfg.tensor<f32, 2>
// GENERIC: "tdfg.stream_store"(%rows, %y) <{kind = "store", map = #lattice.map<[d0, d1]>, indirect_dims = array<i64>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (!tdfg.tensor<f32, 2>, memref<8x16xf32>) -> ()
// GENERIC: "tdfg.stream_store"(%rows, %x, %idx) <{kind = "add", map = #lattice.map<[0, d1]>, indirect_dims = array<i64: 0>, operandSegmentSizes = array<i32: 1, 1, 1>}> : (!tdfg.tensor<f32, 2>, memref<64x16xf32>, !tdfg.tensor<i32, 2>) -> ()
// GENERIC: "tdfg.stream_store"(%st, %h, %idx) <{kind = "min", map = #lattice.map<[0]>, indirect_dims = array<i64: 0>, operandSegmentSizes = array<i32: 1, 1, 1>}> : (!tdfg.tensor<f32, 2>, memref<64xf32>, !tdfg.tensor<i32, 2>) -> ()
// GENERIC: "tdfg.stream_store"(%st, %h) <{kind = "max", map = #lattice.map<[d1]>, indirect_dims = array<i64>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (!tdfg.tensor<f32, 2>, memref<64xf32>) -> ()
// GENERIC: "tdfg.yield"() : () -> ()
// GENERIC: }) : (memref<64x16xf32>, memref<8xi32>, memref<8x16xf32>, memref<64xf32>, index) -> ()
