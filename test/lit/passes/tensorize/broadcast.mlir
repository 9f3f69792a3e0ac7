// tensorize: dims a map drops or fixes to a symbol become tdfg.bc (Fig. 4c:
// row k of A broadcast down the trailing submatrix; outer-product mm: column
// k of A along j, row k of B along i).
//
// RUN: infs-opt --tensorize %s --split-input-file | filecheck %s

// CHECK-LABEL: func.func @gauss_update
// CHECK:       tdfg.graph
// CHECK-SAME:  hints {shift = array<i64>, broadcast = array<i64: 0>, reduce = array<i64>, primary = 0 : i64, align = array<i64: 0>}
// CHECK:         %[[M:.*]] = tdfg.stream_load %mm[d0] over [k + 1:N, k + 1:N]
// CHECK-NEXT:    %[[ROW:.*]] = tdfg.tensor %a [k:k + 1, k + 1:N]
// CHECK-NEXT:    %[[ROWS:.*]] = tdfg.bc %[[ROW]] dim 0 dist 1 count N - k - 1
// CHECK-NEXT:    %[[AIJ:.*]] = tdfg.tensor %a [k + 1:N, k + 1:N]
// CHECK-NEXT:    %[[P:.*]] = tdfg.cmp mul(%[[M]], %[[ROWS]])
// CHECK-NEXT:    %[[R:.*]] = tdfg.cmp sub(%[[AIJ]], %[[P]])
// CHECK-NEXT:    tdfg.store %[[R]] -> %a
func.func @gauss_update(%A: memref<?x?xf32>, %m: memref<?xf32>, %n: index, %k: index) {
  stream.region ins(%A, %m : memref<?x?xf32>, memref<?xf32>) syms(N = %n : index, k = %k : index) domain [k + 1:N, k + 1:N] iterators [parallel, parallel] {
  ^bb0(%a: memref<?x?xf32>, %mm: memref<?xf32>, %N: index, %K: index):
    %mi = stream.load %mm[d0] : memref<?xf32> -> !stream.stream<f32>
    %akj = stream.load %a[k, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %aij = stream.load %a[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %r = stream.compute(%aij, %mi, %akj : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32, %f: f32, %y: f32):
      %t = arith.mulf %f, %y : f32
      %s = arith.subf %x, %t : f32
      stream.yield %s : f32
    }
    stream.store %r -> %a[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}

// -----
// CHECK-LABEL: func.func @mm_outer_step
// CHECK:       broadcast = array<i64: 0, 1>
// CHECK:         %[[X:.*]] = tdfg.tensor %a [0:M, k:k + 1]
// CHECK-NEXT:    %[[XB:.*]] = tdfg.bc %[[X]] dim 1 dist -k count N
// CHECK-NEXT:    %[[Y:.*]] = tdfg.tensor %b [k:k + 1, 0:N]
// CHECK-NEXT:    %[[YB:.*]] = tdfg.bc %[[Y]] dim 0 dist -k count M
// CHECK-NEXT:    %[[C:.*]] = tdfg.tensor %c [0:M, 0:N]
// CHECK-NEXT:    %[[P:.*]] = tdfg.cmp mul(%[[XB]], %[[YB]])
// CHECK-NEXT:    %[[S:.*]] = tdfg.cmp add(%[[C]], %[[P]])
// CHECK-NEXT:    tdfg.store %[[S]] -> %c
func.func @mm_outer_step(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %m: index, %n: index, %kk: index) {
  stream.region ins(%A, %B, %C : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) syms(M = %m : index, N = %n : index, k = %kk : index) domain [0:M, 0:N] iterators [parallel, parallel] {
  ^bb0(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %M: index, %N: index, %K: index):
    %x = stream.load %a[d0, k] : memref<?x?xf32> -> !stream.stream<f32>
    %y = stream.load %b[k, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %acc = stream.load %c[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %r = stream.compute(%acc, %x, %y : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%s: f32, %u: f32, %v: f32):
      %t = arith.mulf %u, %v : f32
      %q = arith.addf %s, %t : f32
      stream.yield %q : f32
    }
    stream.store %r -> %c[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}

// -----
// A lower-rank array sits in the trailing lattice dims: v[d1] is broadcast
// along dim 0 (a dropped leading dim), no symbol involved.
// CHECK-LABEL: func.func @row_bias
// CHECK:         %[[V:.*]] = tdfg.tensor %v [0:1, 0:N]
// CHECK-NEXT:    %[[VB:.*]] = tdfg.bc %[[V]] dim 0 dist 0 count M
func.func @row_bias(%X: memref<?x?xi32>, %V: memref<?xi32>, %m: index, %n: index) {
  stream.region ins(%X, %V : memref<?x?xi32>, memref<?xi32>) syms(M = %m : index, N = %n : index) domain [0:M, 0:N] iterators [parallel, parallel] {
  ^bb0(%x: memref<?x?xi32>, %v: memref<?xi32>, %M: index, %N: index):
    %a = stream.load %x[d0, d1] : memref<?x?xi32> -> !stream.stream<i32>
    %b = stream.load %v[d1] : memref<?xi32> -> !stream.stream<i32>
    %s = stream.compute(%a, %b : !stream.stream<i32>, !stream.stream<i32>) -> !stream.stream<i32> {
    ^bb1(%p: i32, %q: i32):
      %r = arith.addi %p, %q : i32
      stream.yield %r : i32
    }
    stream.store %s -> %x[d0, d1] : !stream.stream<i32> -> memref<?x?xi32>
    stream.yield
  }
  func.return
}
