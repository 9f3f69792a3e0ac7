// Upstream MLIR's custom form of scf.parallel, scf.reduce (its reduction
// regions as upstream prints them), memref.alloc/alloca (`alignment = N`,
// and the `{alignment = N : i64}` of MLIR before 20) and memref.cast
// (infs/dialects/upstream_syntax.py): custom -> custom; custom -> generic
// (checked with the GENERIC prefix); generic -> custom.
// RUN: infs-opt %s --split-input-file | filecheck %s
// RUN: infs-opt %s --split-input-file --print-op-generic > %t.generic.mlir
// RUN: filecheck %s --check-prefix=GENERIC < %t.generic.mlir
// RUN: infs-opt %t.generic.mlir --split-input-file | filecheck %s

// CHECK-LABEL: func.func @parallel
// CHECK:         %r, %r_1 = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z, %zi) -> (f32, i32) {
// CHECK-NEXT:      %a = memref.load %A[%i] : memref<?xf32>
// CHECK-NEXT:      %b = arith.fptosi %a : f32 to i32
// CHECK-NEXT:      scf.reduce(%a, %b : f32, i32) {
// CHECK-NEXT:      ^bb0(%x: f32, %y: f32):
// CHECK-NEXT:        %s = arith.addf %x, %y : f32
// CHECK-NEXT:        scf.reduce.return %s : f32
// CHECK-NEXT:      }, {
// CHECK-NEXT:      ^bb0(%x_1: i32, %y_1: i32):
// CHECK-NEXT:        %s_1 = arith.maxsi %x_1, %y_1 : i32
// CHECK-NEXT:        scf.reduce.return %s_1 : i32
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.parallel (%i_1, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
// CHECK-NEXT:      %a_1 = memref.load %A[%i_1] : memref<?xf32>
// CHECK-NEXT:      memref.store %a_1, %A[%j] : memref<?xf32>
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "parallel"
// GENERIC:       %r, %r_1 = "scf.parallel"(%c0, %n, %c1, %z, %zi) <{operandSegmentSizes = array<i32: 1, 1, 1, 2>}> ({
// GENERIC:         "scf.reduce"(%a, %b) ({
// GENERIC:         }, {
// GENERIC:         }) : (f32, i32) -> ()
// GENERIC:       }) : (index, index, index, f32, i32) -> (f32, i32)
// GENERIC:       "scf.parallel"(%c0, %c0, %n, %n, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
// GENERIC:         "scf.reduce"() : () -> ()
func.func @parallel(%A: memref<?xf32>, %n: index) -> (f32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.000000e+00 : f32
  %zi = arith.constant 0 : i32
  %r:2 = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z, %zi) -> (f32, i32) {
    %a = memref.load %A[%i] : memref<?xf32>
    %b = arith.fptosi %a : f32 to i32
    scf.reduce(%a, %b : f32, i32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%x: i32, %y: i32):
      %s = arith.maxsi %x, %y : i32
      scf.reduce.return %s : i32
    }
  }
  // (the implicit scf.reduce left out, as upstream accepts it)
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %a = memref.load %A[%i] : memref<?xf32>
    memref.store %a, %A[%j] : memref<?xf32>
  }
  return %r#0, %r#1 : f32, i32
}

// -----

// CHECK-LABEL: func.func @memrefs
// CHECK-NEXT:    %0 = memref.alloca() : memref<4x4xf32>
// CHECK-NEXT:    %1 = memref.alloca(%n) alignment = 16 : memref<?xf32>
// CHECK-NEXT:    %2 = memref.alloc(%n) alignment = 64 : memref<?xf32>
// CHECK-NEXT:    %3 = memref.alloca(%n) alignment = 8 : memref<?xf32>
// CHECK-NEXT:    %4 = memref.cast %0 : memref<4x4xf32> to memref<?x?xf32>
// CHECK-NEXT:    %5 = memref.cast %A : memref<?x?xf32> to memref<*xf32>
// GENERIC-LABEL: sym_name = "memrefs"
// GENERIC:       %1 = "memref.alloca"(%n) <{alignment = 16 : i64, operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?xf32>
// GENERIC:       %3 = "memref.alloca"(%n) <{alignment = 8 : i64, operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?xf32>
// GENERIC:       %4 = "memref.cast"(%0) : (memref<4x4xf32>) -> memref<?x?xf32>
func.func @memrefs(%A: memref<?x?xf32>, %n: index) {
  %0 = memref.alloca() : memref<4x4xf32>
  %1 = memref.alloca(%n) alignment = 16 : memref<?xf32>
  %2 = memref.alloc(%n) alignment = 64 : memref<?xf32>
  %3 = memref.alloca(%n) {alignment = 8 : i64} : memref<?xf32>
  %4 = memref.cast %0 : memref<4x4xf32> to memref<?x?xf32>
  %5 = memref.cast %A : memref<?x?xf32> to memref<*xf32>
  memref.dealloc %2 : memref<?xf32>
  return
}
