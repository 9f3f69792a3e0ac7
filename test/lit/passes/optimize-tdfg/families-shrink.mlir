// optimize-tdfg, the shrink families (Eq. 6 and 8) one at a time (option rules=...).
// A one-row tensor broadcast to 8 rows and shrunk to rows [2, 6) is a broadcast straight
// onto those rows (Eq. 8b: dist 2, count 4 -- half the copies).  Behind a shrink along
// the other dim, Eq. 8b only sees the broadcast after Eq. 6a has put the two shrinks in
// the other order: with Eq. 8 alone the second graph stays as it is.
//
// RUN: infs-opt --optimize-tdfg='rules=eq8' %s | filecheck %s --check-prefix=EQ8
// RUN: infs-opt --optimize-tdfg='rules=eq6,eq8' %s | filecheck %s --check-prefix=EQ6

// EQ8-LABEL: func.func @eq8
// EQ8-DAG:     %[[Y:.*]] = tdfg.tensor %c [2:6, 0:n]
// EQ8-DAG:     %[[ROW:.*]] = tdfg.tensor %a [0:1, 0:n]
// EQ8:         %[[B:.*]] = tdfg.bc %[[ROW]] dim 0 dist 2 count 4
// EQ8-NEXT:    %[[S:.*]] = tdfg.cmp add(%[[B]], %[[Y]])
// EQ8-NEXT:    tdfg.store %[[S]] -> %c
// EQ8-LABEL: func.func @eq6
// EQ8:         tdfg.bc %row dim 0 dist 0 count 8
// EQ8-NEXT:    tdfg.shrink %b dim 1 to [0:n - 1]
// EQ8-NEXT:    tdfg.shrink %t dim 0 to [2:6]

// EQ6-LABEL: func.func @eq6
// EQ6-DAG:     %[[Y:.*]] = tdfg.tensor %c [2:6, 0:n]
// EQ6-DAG:     %[[ROW:.*]] = tdfg.tensor %a [0:1, 0:n]
// EQ6:         %[[B:.*]] = tdfg.bc %[[ROW]] dim 0 dist 2 count 4
// EQ6-NEXT:    %[[T:.*]] = tdfg.shrink %[[B]] dim 1 to [0:n - 1]
// EQ6-NEXT:    %[[S:.*]] = tdfg.cmp add(%[[T]], %[[Y]])
// EQ6-NEXT:    tdfg.store %[[S]] -> %c
// EQ6-NOT:     count 8
func.func @eq8(%A: memref<?x?xi32>, %C: memref<?x?xi32>, %n: index) {
  tdfg.graph ins(%A, %C : memref<?x?xi32>, memref<?x?xi32>) syms(n = %n : index) rank 2 {
  ^bb0(%a: memref<?x?xi32>, %c: memref<?x?xi32>, %N: index):
    %row = tdfg.tensor %a [0:1, 0:n] : memref<?x?xi32> -> !tdfg.tensor<i32, 2>
    %b = tdfg.bc %row dim 0 dist 0 count 8 : !tdfg.tensor<i32, 2>
    %s = tdfg.shrink %b dim 0 to [2:6] : !tdfg.tensor<i32, 2>
    %y = tdfg.tensor %c [2:6, 0:n] : memref<?x?xi32> -> !tdfg.tensor<i32, 2>
    %0 = tdfg.cmp add(%s, %y) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    tdfg.store %0 -> %c : !tdfg.tensor<i32, 2> -> memref<?x?xi32>
    tdfg.yield
  }
  func.return
}
func.func @eq6(%A: memref<?x?xi32>, %C: memref<?x?xi32>, %n: index) {
  tdfg.graph ins(%A, %C : memref<?x?xi32>, memref<?x?xi32>) syms(n = %n : index) rank 2 {
  ^bb0(%a: memref<?x?xi32>, %c: memref<?x?xi32>, %N: index):
    %row = tdfg.tensor %a [0:1, 0:n] : memref<?x?xi32> -> !tdfg.tensor<i32, 2>
    %b = tdfg.bc %row dim 0 dist 0 count 8 : !tdfg.tensor<i32, 2>
    %t = tdfg.shrink %b dim 1 to [0:n - 1] : !tdfg.tensor<i32, 2>
    %s = tdfg.shrink %t dim 0 to [2:6] : !tdfg.tensor<i32, 2>
    %y = tdfg.tensor %c [2:6, 0:n] : memref<?x?xi32> -> !tdfg.tensor<i32, 2>
    %0 = tdfg.cmp add(%s, %y) : !tdfg.tensor<i32, 2>, !tdfg.tensor<i32, 2> -> !tdfg.tensor<i32, 2>
    tdfg.store %0 -> %c : !tdfg.tensor<i32, 2> -> memref<?x?xi32>
    tdfg.yield
  }
  func.return
}
