// tensorize: a reduction splits into an in-memory partial tdfg.reduce and a
// final near-memory tdfg.stream_reduce (Fig. 4b).
//
// RUN: infs-opt --tensorize %s --split-input-file | filecheck %s

// CHECK-LABEL: func.func @array_sum
// CHECK:       %{{.*}} = tdfg.graph ins(%A : memref<?xf32>) syms(N = %n : index) rank 1
// CHECK-SAME:  reduce = array<i64: 0>
// CHECK-SAME:  -> f32
// CHECK:         %[[T:.*]] = tdfg.tensor %a [0:N]
// CHECK-NEXT:    %[[P:.*]] = tdfg.reduce add %[[T]] dim 0
// CHECK-NEXT:    %[[S:.*]] = tdfg.stream_reduce add %[[P]] over [0] : !tdfg.tensor<f32, 1> -> f32
// CHECK-NEXT:    tdfg.yield %[[S]] : f32
func.func @array_sum(%A: memref<?xf32>, %n: index) -> f32 {
  %sum = stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [reduction] -> f32 {
  ^bb0(%a: memref<?xf32>, %N: index):
    %x = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.reduce add %x over [0] : !stream.stream<f32> -> f32
    stream.yield %s : f32
  }
  func.return %sum : f32
}

// -----
// Column maxima of a matrix (reduce dim 0), stored in a vector that sits on
// lattice row 0: the collapsed row is already in place.  The init value is
// folded in with an element-wise max.
// CHECK-LABEL: func.func @col_max
// CHECK:         %[[T:.*]] = tdfg.tensor %a [0:M, 0:N]
// CHECK-NEXT:    %[[P:.*]] = tdfg.reduce max %[[T]] dim 0
// CHECK-NEXT:    %[[S:.*]] = tdfg.stream_reduce max %[[P]] over [0] : !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:    %[[I:.*]] = tdfg.const %lo : i32 -> !tdfg.tensor<i32, 2>
// CHECK-NEXT:    %[[R:.*]] = tdfg.cmp max(%[[S]], %[[I]])
// CHECK-NEXT:    tdfg.store %[[R]] -> %c
func.func @col_max(%A: memref<?x?xi32>, %C: memref<?xi32>, %m: index, %n: index, %l: i32) {
  stream.region ins(%A, %C : memref<?x?xi32>, memref<?xi32>) syms(M = %m : index, N = %n : index, lo = %l : i32) domain [0:M, 0:N] iterators [reduction, parallel] {
  ^bb0(%a: memref<?x?xi32>, %c: memref<?xi32>, %M: index, %N: index, %lo: i32):
    %x = stream.load %a[d0, d1] : memref<?x?xi32> -> !stream.stream<i32>
    %s = stream.reduce max %x over [0] init %lo : !stream.stream<i32> -> !stream.stream<i32>
    stream.store %s -> %c[d1] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}

// -----
// Row sums (reduce dim 1) of a 2-D region: the vector r sits along lattice dim
// 1, but r[d0] runs along dim 0, so the result leaves through an embedded
// store stream.
// CHECK-LABEL: func.func @row_sum
// CHECK:         %[[P:.*]] = tdfg.reduce add %{{.*}} dim 1
// CHECK-NEXT:    %[[S:.*]] = tdfg.stream_reduce add %[[P]] over [1]
// CHECK-NEXT:    tdfg.stream_store store %[[S]] -> %r[d0]
func.func @row_sum(%A: memref<?x?xf32>, %R: memref<?xf32>, %m: index, %n: index) {
  stream.region ins(%A, %R : memref<?x?xf32>, memref<?xf32>) syms(M = %m : index, N = %n : index) domain [0:M, 0:N] iterators [parallel, reduction] {
  ^bb0(%a: memref<?x?xf32>, %r: memref<?xf32>, %M: index, %N: index):
    %x = stream.load %a[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %s = stream.reduce add %x over [1] : !stream.stream<f32> -> !stream.stream<f32>
    stream.store %s -> %r[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
