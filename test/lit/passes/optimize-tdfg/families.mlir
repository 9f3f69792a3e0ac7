// optimize-tdfg, one rule family at a time (option rules=...).  Eq. 5, 7a and 9 are
// exercised by fig20.mlir and fig6.mlir.
//
// RUN: infs-opt --optimize-tdfg='rules=eq3' %s | filecheck %s --check-prefix=EQ3
// RUN: infs-opt --optimize-tdfg='rules=eq4' %s | filecheck %s --check-prefix=EQ4

// Eq. 3c (i32: exact): W*x + W*y -> W*(x + y)
// EQ3-LABEL: func.func @eq3
// EQ3-DAG:     %[[Y:.*]] = tdfg.tensor %b [0:n]
// EQ3-DAG:     %[[X:.*]] = tdfg.tensor %a [0:n]
// EQ3-DAG:     %[[W:.*]] = tdfg.const %W
// EQ3:         %[[S:.*]] = tdfg.cmp add(%[[X]], %[[Y]])
// EQ3-NEXT:    %[[P:.*]] = tdfg.cmp mul(%[[W]], %[[S]])
// EQ3-NEXT:    tdfg.store %[[P]] -> %b
// Eq. 4a: mv(x) + mv(y), same move -> mv(x + y)
// EQ3-LABEL: func.func @eq4
// EQ3-COUNT-2: tdfg.mv

// EQ4-LABEL: func.func @eq3
// EQ4-COUNT-2: tdfg.cmp mul
// EQ4-LABEL: func.func @eq4
// EQ4-DAG:     %[[Y:.*]] = tdfg.tensor %b [0:n - 1]
// EQ4-DAG:     %[[X:.*]] = tdfg.tensor %a [0:n - 1]
// EQ4:         %[[S:.*]] = tdfg.cmp add(%[[X]], %[[Y]])
// EQ4-NEXT:    %[[M:.*]] = tdfg.mv %[[S]] dim 0 dist 1
// EQ4-NEXT:    tdfg.store %[[M]] -> %b
// eq3: a*x + a*y (i32, exact) -> a*(x + y)
func.func @eq3(%A: memref<?xi32>, %B: memref<?xi32>, %n: index, %w: i32) {
  tdfg.graph ins(%A, %B : memref<?xi32>, memref<?xi32>) syms(n = %n : index, W = %w : i32) rank 1 {
  ^bb0(%a: memref<?xi32>, %b: memref<?xi32>, %N: index, %W: i32):
    %x = tdfg.tensor %a [0:n] : memref<?xi32> -> !tdfg.tensor<i32, 1>
    %y = tdfg.tensor %b [0:n] : memref<?xi32> -> !tdfg.tensor<i32, 1>
    %c = tdfg.const %W : i32 -> !tdfg.tensor<i32, 1>
    %0 = tdfg.cmp mul(%c, %x) : !tdfg.tensor<i32, 1>, !tdfg.tensor<i32, 1> -> !tdfg.tensor<i32, 1>
    %1 = tdfg.cmp mul(%c, %y) : !tdfg.tensor<i32, 1>, !tdfg.tensor<i32, 1> -> !tdfg.tensor<i32, 1>
    %2 = tdfg.cmp add(%0, %1) : !tdfg.tensor<i32, 1>, !tdfg.tensor<i32, 1> -> !tdfg.tensor<i32, 1>
    tdfg.store %2 -> %b : !tdfg.tensor<i32, 1> -> memref<?xi32>
    tdfg.yield
  }
  func.return
}
// eq4: mv(x) + mv(y) by the same distance -> mv(x + y)
func.func @eq4(%A: memref<?xi32>, %B: memref<?xi32>, %n: index) {
  tdfg.graph ins(%A, %B : memref<?xi32>, memref<?xi32>) syms(n = %n : index) rank 1 {
  ^bb0(%a: memref<?xi32>, %b: memref<?xi32>, %N: index):
    %x = tdfg.tensor %a [0:n - 1] : memref<?xi32> -> !tdfg.tensor<i32, 1>
    %y = tdfg.tensor %b [0:n - 1] : memref<?xi32> -> !tdfg.tensor<i32, 1>
    %0 = tdfg.mv %x dim 0 dist 1 : !tdfg.tensor<i32, 1>
    %1 = tdfg.mv %y dim 0 dist 1 : !tdfg.tensor<i32, 1>
    %2 = tdfg.cmp add(%0, %1) : !tdfg.tensor<i32, 1>, !tdfg.tensor<i32, 1> -> !tdfg.tensor<i32, 1>
    tdfg.store %2 -> %b : !tdfg.tensor<i32, 1> -> memref<?xi32>
    tdfg.yield
  }
  func.return
}
