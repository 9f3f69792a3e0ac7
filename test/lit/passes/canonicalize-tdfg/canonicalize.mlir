// canonicalize-tdfg: merge consecutive moves on one dim, drop zero moves,
// turn single broadcasts into moves, fold and share constants, refresh hints.
//
// RUN: infs-opt --canonicalize-tdfg %s --split-input-file | filecheck %s

// CHECK-LABEL: func.func @moves
// CHECK:       hints {shift = array<i64: 0>, broadcast = array<i64>, reduce = array<i64>, primary = 0 : i64, align = array<i64: 0>}
// CHECK:         %[[T:.*]] = tdfg.tensor %a [0:N - 2]
// CHECK-NEXT:    %[[M:.*]] = tdfg.mv %[[T]] dim 0 dist N + 2
// CHECK-NEXT:    %[[C:.*]] = tdfg.const 9.0 : !tdfg.tensor<f32, 1>
// CHECK-NEXT:    %[[R:.*]] = tdfg.cmp mul(%[[M]], %[[C]])
// CHECK-NEXT:    tdfg.store %[[R]] -> %a
// CHECK-NEXT:    tdfg.yield
func.func @moves(%A: memref<?xf32>, %n: index) {
  tdfg.graph ins(%A : memref<?xf32>) syms(N = %n : index) rank 1 hints {shift = array<i64: 0>, broadcast = array<i64: 0>} {
  ^bb0(%a: memref<?xf32>, %N: index):
    %t = tdfg.tensor %a [0:N - 2] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    %m1 = tdfg.mv %t dim 0 dist 1 : !tdfg.tensor<f32, 1>
    %m2 = tdfg.mv %m1 dim 0 dist 1 : !tdfg.tensor<f32, 1>
    %m0 = tdfg.mv %m2 dim 0 dist 0 : !tdfg.tensor<f32, 1>
    %m3 = tdfg.mv %m0 dim 0 dist N : !tdfg.tensor<f32, 1>
    %c2 = tdfg.const 2.0 : !tdfg.tensor<f32, 1>
    %c3 = tdfg.const 3.0 : !tdfg.tensor<f32, 1>
    %c3b = tdfg.const 3.0 : !tdfg.tensor<f32, 1>
    %s = tdfg.cmp mul(%c2, %c3) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    %u = tdfg.cmp add(%s, %c3b) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    %r = tdfg.cmp mul(%m3, %u) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    %b = tdfg.bc %r dim 0 dist 0 count 1 : !tdfg.tensor<f32, 1>
    tdfg.store %b -> %a : !tdfg.tensor<f32, 1> -> memref<?xf32>
    tdfg.yield
  }
  func.return
}

// -----
// Moves on different dims are not merged; a compare of constants folds to an
// i1 constant (true prints as -1, the 1-bit two's complement value).
// CHECK-LABEL: func.func @two_dims
// CHECK:         %[[T:.*]] = tdfg.tensor %a [0:M, 0:N]
// CHECK-NEXT:    %[[M0:.*]] = tdfg.mv %[[T]] dim 0 dist 1
// CHECK-NEXT:    %[[M1:.*]] = tdfg.mv %[[M0]] dim 1 dist 1
// CHECK-NEXT:    %[[B:.*]] = tdfg.const -1 : !tdfg.tensor<i1, 2>
// CHECK-NEXT:    %[[Z:.*]] = tdfg.const 0 : !tdfg.tensor<i32, 2>
// CHECK-NEXT:    tdfg.cmp select(%[[B]], %[[M1]], %[[Z]])
func.func @two_dims(%A: memref<?x?xi32>, %m: index, %n: index) {
  tdfg.graph ins(%A : memref<?x?xi32>) syms(M = %m : index, N = %n : index) rank 2 {
  ^bb0(%a: memref<?x?xi32>, %M: index, %N: index):
    %t = tdfg.tensor %a [0:M, 0:N] : memref<?x?xi32> -> !tdfg.tensor<i32, 2>
    %m0 = tdfg.mv %t dim 0 dist 1 : !tdfg.tensor<i32, 2>
    %m1 = tdfg.mv %m0 dim 1 dist 1 : !tdfg.tensor<i32, 2>
    %one = tdfg.const 1 : !tdfg.tensor<i32, 2>
    %two = tdfg.const 2 : !tdfg.tensor<i32, 2>
    %lt = tdfg.cmp cmp_lt(%one, %two) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i1, 2>
    %z = tdfg.const 0 : !tdfg.tensor<i32, 2>
    %r = tdfg.cmp select(%lt, %m1, %z) : !tdfg.tensor<i1, 2>, !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    %s = tdfg.shrink %r dim 0 to [1:M] : !tdfg.tensor<i32, 2>
    tdfg.store %s -> %a : !tdfg.tensor<i32, 2> -> memref<?x?xi32>
    tdfg.yield
  }
  func.return
}
