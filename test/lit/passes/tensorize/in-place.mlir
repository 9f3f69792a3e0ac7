// In-place updates that are stream regions (carried.mlir has the ones that
// are not): every iteration reads cells no earlier iteration, and no earlier
// op of the same iteration, writes.  The verifier accepts them and tensorize
// turns them into graphs that read the arrays' entry values before any write,
// which is what the sequential loop nest computes (test_regress_static.py
// runs them in every mode against the reference).
//
// RUN: infs-opt --tensorize %s --split-input-file | filecheck %s

// A[i] = 2 * A[i]: the same cell, read before it is written
// CHECK-LABEL: func.func @same_map
// CHECK-NOT:     stream.region
// CHECK:         tdfg.graph
// CHECK:           %[[T:.*]] = tdfg.tensor %a [0:N]
// CHECK:           tdfg.store %{{.*}} -> %a
func.func @same_map(%A: memref<?xf32>, %n: index) {
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index):
    %c = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%c : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32):
      %z = arith.addf %x, %x : f32
      stream.yield %z : f32
    }
    stream.store %s -> %a[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----
// A[i] = A[i+1]: a cell a *later* iteration writes (an anti-dependence), even
// with the store first in program order
// CHECK-LABEL: func.func @shift_left
// CHECK-NOT:     stream.region
// CHECK:         tdfg.graph
// CHECK:           tdfg.tensor %a [1:N]
// CHECK:           tdfg.store
func.func @shift_left(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [0:N - 1] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index):
    %y = stream.load %b[d0] : memref<?xf32> -> !stream.stream<f32>
    stream.store %y -> %a[d0] : !stream.stream<f32> -> memref<?xf32>
    %x = stream.load %a[d0 + 1] : memref<?xf32> -> !stream.stream<f32>
    stream.store %x -> %b[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----
// gauss_elim's update: row k is read, rows k+1.. are written
// CHECK-LABEL: func.func @pivot_row
// CHECK-NOT:     stream.region
// CHECK:         tdfg.graph
func.func @pivot_row(%A: memref<?x?xf32>, %n: index, %k: index) {
  stream.region ins(%A : memref<?x?xf32>) syms(N = %n : index, k = %k : index) domain [k + 1:N, 0:N] iterators [parallel, parallel] {
  ^bb0(%a: memref<?x?xf32>, %N: index, %K: index):
    %p = stream.load %a[k, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %c = stream.load %a[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %s = stream.compute(%p, %c : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32, %y: f32):
      %z = arith.subf %y, %x : f32
      stream.yield %z : f32
    }
    stream.store %s -> %a[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}

// -----
// reads of A[0:N], writes of A[N:2N]: disjoint halves of one array
// CHECK-LABEL: func.func @disjoint_halves
// CHECK-NOT:     stream.region
// CHECK:         tdfg.graph
func.func @disjoint_halves(%A: memref<?xf32>, %n: index) {
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index):
    %c = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    stream.store %c -> %a[d0 + N] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----
// column 1 copied into column 0
// CHECK-LABEL: func.func @other_column
// CHECK-NOT:     stream.region
// CHECK:         tdfg.graph
func.func @other_column(%A: memref<?x?xf32>, %n: index) {
  stream.region ins(%A : memref<?x?xf32>) syms(N = %n : index) domain [0:N, 0:1] iterators [parallel, parallel] {
  ^bb0(%a: memref<?x?xf32>, %N: index):
    %c = stream.load %a[d0, 1] : memref<?x?xf32> -> !stream.stream<f32>
    stream.store %c -> %a[d0, 0] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}

// -----
// a row's sum into its first cell: written after the row's reduction loop,
// and no later row reads it
// CHECK-LABEL: func.func @row_sum_in_place
// CHECK-NOT:     stream.region
// CHECK:         tdfg.graph
func.func @row_sum_in_place(%A: memref<?x?xf32>, %n: index) {
  stream.region ins(%A : memref<?x?xf32>) syms(N = %n : index) domain [0:N, 0:N] iterators [parallel, reduction] {
  ^bb0(%a: memref<?x?xf32>, %N: index):
    %c = stream.load %a[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %r = stream.reduce add %c over [1] : !stream.stream<f32> -> !stream.stream<f32>
    stream.store %r -> %a[d0, 0] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}

// -----
// A[N-1-i] = 2 * A[N-1-i]: a reversed map, still the same cell
// CHECK-LABEL: func.func @reversed
// CHECK-NOT:     loop-carried
func.func @reversed(%A: memref<?xf32>, %n: index) {
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index):
    %c = stream.load %a[N - 1 - d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%c : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32):
      %z = arith.addf %x, %x : f32
      stream.yield %z : f32
    }
    stream.store %s -> %a[N - 1 - d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----
// odd cells read, even cells written
// CHECK-LABEL: func.func @odd_to_even
// CHECK-NOT:     loop-carried
func.func @odd_to_even(%A: memref<?xf32>, %n: index) {
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index):
    %c = stream.load %a[2*d0 + 1] : memref<?xf32> -> !stream.stream<f32>
    stream.store %c -> %a[2*d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
