// tensorize leaves regions it cannot express as tensors alone, with the
// reason as an attribute; verbose=true also prints a remark per region.
//
// RUN: infs-opt --tensorize %s --split-input-file | filecheck %s
// RUN: infs-opt -p 'tensorize{verbose=true}' %s --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// REMARK: not_tensorized.mlir:13:3: remark: stream.region not tensorized: 'argmin' reductions have no in-memory counterpart
// CHECK-LABEL: func.func @nearest
// CHECK:         stream.region
// CHECK-SAME:    attributes {infs.not_tensorized = "'argmin' reductions have no in-memory counterpart"}
// CHECK:         stream.reduce argmin
func.func @nearest(%D: memref<?x?xf32>, %M: memref<?xi32>, %p: index, %c: index) {
  stream.region ins(%D, %M : memref<?x?xf32>, memref<?xi32>) syms(P = %p : index, C = %c : index) domain [0:P, 0:C] iterators [parallel, reduction] {
  ^bb0(%d: memref<?x?xf32>, %m: memref<?xi32>, %P: index, %C: index):
    %v = stream.load %d[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %a = stream.reduce argmin %v over [1] : !stream.stream<f32> -> !stream.stream<i32>
    stream.store %a -> %m[d0] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}

// -----
// REMARK: remark: stream.region not tensorized: 'arith.sitofp' has no tdfg element-wise counterpart
// CHECK-LABEL: func.func @to_float
// CHECK:         stream.region
// CHECK-SAME:    infs.not_tensorized = "'arith.sitofp' has no tdfg element-wise counterpart"
func.func @to_float(%A: memref<?xi32>, %B: memref<?xf32>, %n: index) {
  stream.region ins(%A, %B : memref<?xi32>, memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xi32>, %b: memref<?xf32>, %N: index):
    %x = stream.load %a[d0] : memref<?xi32> -> !stream.stream<i32>
    %f = stream.compute(%x : !stream.stream<i32>) -> !stream.stream<f32> {
    ^bb1(%v: i32):
      %r = arith.sitofp %v : i32 to f32
      stream.yield %r : f32
    }
    stream.store %f -> %b[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----
// REMARK: remark: stream.region not tensorized: array element type f16 has no tdfg tensor type
// CHECK-LABEL: func.func @half
// CHECK:         stream.region
// CHECK-SAME:    infs.not_tensorized = "array element type f16 has no tdfg tensor type (f64, i64, f32, i32, i16, i8, i1)"
func.func @half(%A: memref<?xf16>, %n: index) {
  stream.region ins(%A : memref<?xf16>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf16>, %N: index):
    %x = stream.load %a[d0] : memref<?xf16> -> !stream.stream<f16>
    stream.store %x -> %a[d0] : !stream.stream<f16> -> memref<?xf16>
    stream.yield
  }
  func.return
}

// -----
// A rank-2 space over rank-1 arrays whose outer dim is a reduction: it can
// neither fit the lattice nor become a host loop.
// REMARK: remark: stream.region not tensorized: the rank-2 iteration space does not fit the rank-1 lattice of its arrays (cells outside the arrays' bounding hyperrectangle are undefined); with the outer loop(s) on the host: its outer 1 dim(s) are not all parallel, so they cannot become host loops
// CHECK-LABEL: func.func @outer_reduction
// CHECK:         stream.region
// CHECK-SAME:    infs.not_tensorized = "the rank-2 iteration space does not fit the rank-1 lattice
func.func @outer_reduction(%X: memref<?xf32>, %R: memref<?xf32>, %m: index, %n: index) {
  stream.region ins(%X, %R : memref<?xf32>, memref<?xf32>) syms(M = %m : index, N = %n : index) domain [0:M, 0:N] iterators [reduction, parallel] {
  ^bb0(%x: memref<?xf32>, %r: memref<?xf32>, %M: index, %N: index):
    %v = stream.load %x[d1] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.reduce add %v over [0] : !stream.stream<f32> -> !stream.stream<f32>
    stream.store %s -> %r[d1] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----
// REMARK: remark: stream.region not tensorized: two stores to one array may overlap
// CHECK-LABEL: func.func @overlap
// CHECK:         stream.region
// CHECK-SAME:    infs.not_tensorized = "two stores to one array may overlap in an order tensors cannot express"
func.func @overlap(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index):
    %x = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    stream.store %x -> %b[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.store %x -> %b[d0 + 1] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----
// A load below the array's start (a[i - 5] from i = 0) has no tensor: the
// region stays a stream region (the runtime names the access it makes),
// rather than becoming a graph that fails to verify.
// REMARK: remark: stream.region not tensorized: 'stream.load' at line [[# @LINE + 8]] reads from index -5 in dim 0 of its array, below its start
// CHECK-LABEL: func.func @below_start
// CHECK:         stream.region
// CHECK-SAME:    infs.not_tensorized = "'stream.load' at line [[# @LINE + 5]] reads from index -5 in dim 0 of its array, below its start"
// CHECK-NOT:     tdfg.graph
func.func @below_start(%A: memref<?xf32>, %C: memref<?xf32>, %n: index) {
  stream.region ins(%A, %C : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %c: memref<?xf32>, %N: index):
    %x = stream.load %a[d0 - 5] : memref<?xf32> -> !stream.stream<f32>
    stream.store %x -> %c[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
