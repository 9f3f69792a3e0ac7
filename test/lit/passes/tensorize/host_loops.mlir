// tensorize: an iteration space with more dims than the arrays (the lattice
// has the rank of the largest array, §3.2) keeps its outer parallel dims on
// the host: an scf.for nest around a graph of the remaining dims, the loop
// index passed as a new symbol (x0).  Inner-product mm: row x0 of A is
// broadcast over Bt, multiplied, reduced along k; C[x0, j] runs along lattice
// dim 0 of the result, across C's rows, so it leaves through a store stream.
//
// RUN: infs-opt --tensorize %s --split-input-file | filecheck %s
// RUN: infs-opt --tensorize %s --split-input-file --print-op-generic | infs-opt --split-input-file | filecheck %s

// CHECK-LABEL: func.func @mm_inner
// CHECK:         %[[LB:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ST:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %x0 = %[[LB]] to %m step %[[ST]] {
// CHECK-NEXT:      tdfg.graph ins(%A, %Bt, %C : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) syms(M = %m : index, N = %n : index, K = %k : index, x0 = %x0 : index) rank 2
// CHECK-SAME:      hints {shift = array<i64>, broadcast = array<i64: 0>, reduce = array<i64: 1>
// CHECK:             %[[R:.*]] = tdfg.tensor %a [x0:x0 + 1, 0:K]
// CHECK-NEXT:        %[[RB:.*]] = tdfg.bc %[[R]] dim 0 dist -x0 count N
// CHECK-NEXT:        %[[B:.*]] = tdfg.tensor %bt [0:N, 0:K]
// CHECK-NEXT:        %[[P:.*]] = tdfg.cmp mul(%[[RB]], %[[B]])
// CHECK-NEXT:        %[[PR:.*]] = tdfg.reduce add %[[P]] dim 1
// CHECK-NEXT:        %[[S:.*]] = tdfg.stream_reduce add %[[PR]] over [1]
// CHECK-NEXT:        tdfg.stream_store store %[[S]] -> %c[x0, d0]
// CHECK-NEXT:        tdfg.yield
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     stream.region
func.func @mm_inner(%A: memref<?x?xf32>, %Bt: memref<?x?xf32>, %C: memref<?x?xf32>, %m: index, %n: index, %k: index) {
  stream.region ins(%A, %Bt, %C : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) syms(M = %m : index, N = %n : index, K = %k : index) domain [0:M, 0:N, 0:K] iterators [parallel, parallel, reduction] {
  ^bb0(%a: memref<?x?xf32>, %bt: memref<?x?xf32>, %c: memref<?x?xf32>, %M: index, %N: index, %K: index):
    %x = stream.load %a[d0, d2] : memref<?x?xf32> -> !stream.stream<f32>
    %y = stream.load %bt[d1, d2] : memref<?x?xf32> -> !stream.stream<f32>
    %p = stream.compute(%x, %y : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u: f32, %v: f32):
      %t = arith.mulf %u, %v : f32
      stream.yield %t : f32
    }
    %s = stream.reduce add %p over [2] : !stream.stream<f32> -> !stream.stream<f32>
    stream.store %s -> %c[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}

// -----
// Bounds are materialized on the host from the region's symbols.
// CHECK-LABEL: func.func @rows_from_k
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[LB:.*]] = arith.addi %[[C1]], %k : index
// CHECK-NEXT:    %[[CM:.*]] = arith.constant -1 : index
// CHECK-NEXT:    %[[UB:.*]] = arith.addi %[[CM]], %n : index
// CHECK:         scf.for %x0 = %[[LB]] to %[[UB]] step
// CHECK:           %[[T:.*]] = tdfg.tensor %v [0:M]
// CHECK-NEXT:      tdfg.stream_store add %[[T]] -> %w[d0]
func.func @rows_from_k(%V: memref<?xi32>, %W: memref<?xi32>, %n: index, %m: index, %k: index) {
  stream.region ins(%V, %W : memref<?xi32>, memref<?xi32>) syms(N = %n : index, M = %m : index, k = %k : index) domain [k + 1:N - 1, 0:M] iterators [parallel, parallel] {
  ^bb0(%v: memref<?xi32>, %w: memref<?xi32>, %N: index, %M: index, %K: index):
    %x = stream.load %v[d1] : memref<?xi32> -> !stream.stream<i32>
    stream.atomic add %x -> %w[d1] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}
