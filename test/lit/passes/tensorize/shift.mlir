// tensorize: offset accesses become tensors aligned with tdfg.mv (Fig. 4a),
// the compound compute body becomes primitive cmp nodes, scalars become const.
//
// RUN: infs-opt --tensorize %s --split-input-file | filecheck %s
// RUN: infs-opt --tensorize %s --split-input-file --print-op-generic | infs-opt --split-input-file | filecheck %s

// CHECK-LABEL: func.func @stencil1d
// CHECK:       tdfg.graph ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index, w = %w : f32) rank 1
// CHECK-SAME:  hints {shift = array<i64: 0>, broadcast = array<i64>, reduce = array<i64>, primary = 1 : i64, align = array<i64: 0, 1>}
// CHECK:         %[[L:.*]] = tdfg.tensor %src [0:N - 2]
// CHECK-NEXT:    %[[LM:.*]] = tdfg.mv %[[L]] dim 0 dist 1
// CHECK-NEXT:    %[[C:.*]] = tdfg.tensor %src [1:N - 1]
// CHECK-NEXT:    %[[R:.*]] = tdfg.tensor %src [2:N]
// CHECK-NEXT:    %[[RM:.*]] = tdfg.mv %[[R]] dim 0 dist -1
// CHECK-NEXT:    %[[W:.*]] = tdfg.const %x : f32 -> !tdfg.tensor<f32, 1>
// CHECK-NEXT:    %[[S:.*]] = tdfg.cmp add(%[[LM]], %[[RM]])
// CHECK-NEXT:    %[[T:.*]] = tdfg.cmp mul(%[[W]], %[[C]])
// CHECK-NEXT:    %[[U:.*]] = tdfg.cmp add(%[[S]], %[[T]])
// CHECK-NEXT:    tdfg.store %[[U]] -> %dst
// CHECK-NEXT:    tdfg.yield
// CHECK-NOT:   stream.
func.func @stencil1d(%A: memref<?xf32>, %B: memref<?xf32>, %n: index, %w: f32) {
  stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index, w = %w : f32) domain [1:N - 1] iterators [parallel] {
  ^bb0(%src: memref<?xf32>, %dst: memref<?xf32>, %N: index, %x: f32):
    %l = stream.load %src[d0 - 1] : memref<?xf32> -> !stream.stream<f32>
    %c = stream.load %src[d0] : memref<?xf32> -> !stream.stream<f32>
    %r = stream.load %src[d0 + 1] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%l, %c, %r, %x : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32) -> !stream.stream<f32> {
    ^bb1(%vl: f32, %vc: f32, %vr: f32, %k: f32):
      %a = arith.addf %vl, %vr : f32
      %m = arith.mulf %k, %vc : f32
      %t = arith.addf %a, %m : f32
      stream.yield %t : f32
    }
    stream.store %s -> %dst[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----
// The iteration space is anchored at the stored array (B[d0 + 1, d1]): the
// result needs no move, the loads move by +1 along dim 0, and the d1 + 2
// access also by -2 along dim 1.
// CHECK-LABEL: func.func @shift2d
// CHECK:       hints {shift = array<i64: 0, 1>
// CHECK:         %[[A:.*]] = tdfg.tensor %a [0:M, 0:N]
// CHECK-NEXT:    %[[AM:.*]] = tdfg.mv %[[A]] dim 0 dist 1
// CHECK-NEXT:    %[[B:.*]] = tdfg.tensor %a [0:M, 2:N + 2]
// CHECK-NEXT:    %[[B0:.*]] = tdfg.mv %[[B]] dim 0 dist 1
// CHECK-NEXT:    %[[B1:.*]] = tdfg.mv %[[B0]] dim 1 dist -2
// CHECK-NEXT:    %[[X:.*]] = tdfg.cmp sub(%[[AM]], %[[B1]])
// CHECK-NEXT:    tdfg.store %[[X]] -> %b
func.func @shift2d(%A: memref<?x?xi32>, %B: memref<?x?xi32>, %m: index, %n: index) {
  stream.region ins(%A, %B : memref<?x?xi32>, memref<?x?xi32>) syms(M = %m : index, N = %n : index) domain [0:M, 0:N] iterators [parallel, parallel] {
  ^bb0(%a: memref<?x?xi32>, %b: memref<?x?xi32>, %M: index, %N: index):
    %x = stream.load %a[d0, d1] : memref<?x?xi32> -> !stream.stream<i32>
    %y = stream.load %a[d0, d1 + 2] : memref<?x?xi32> -> !stream.stream<i32>
    %d = stream.compute(%x, %y : !stream.stream<i32>, !stream.stream<i32>) -> !stream.stream<i32> {
    ^bb1(%u: i32, %v: i32):
      %r = arith.subi %u, %v : i32
      stream.yield %r : i32
    }
    stream.store %d -> %b[d0 + 1, d1] : !stream.stream<i32> -> memref<?x?xi32>
    stream.yield
  }
  func.return
}
