// optimize-tdfg on ASPLOS'23 Fig. 20: the 1-D 3-point example.  The two multiplies by V of
// the moved tensors A[0, n-2) and A[2, n) become one multiply over the expanded tensor
// A[0, n) (Eq. 4a moves the computes under the moves, Eq. 5 expands, Eq. 9 takes the
// shrinks out of the computes), shifted to where it is needed.  With float reassociation
// (the default) Eq. 3c also factors V out of the sum: one multiply of the moved sum.
//
// RUN: infs-opt --optimize-tdfg='reassociate_floats=false' %s | filecheck %s --check-prefix=PAPER
// RUN: infs-opt --optimize-tdfg %s | filecheck %s --check-prefix=FACTOR

// PAPER-LABEL: func.func @fig20
// PAPER-DAG:     %[[V:.*]] = tdfg.const %V : f32 -> !tdfg.tensor<f32, 1>
// PAPER-DAG:     %[[A:.*]] = tdfg.tensor %a [0:n] : memref<?xf32> -> !tdfg.tensor<f32, 1>
// PAPER:         %[[X:.*]] = tdfg.cmp mul(%[[A]], %[[V]])
// PAPER-NEXT:    %[[R:.*]] = tdfg.mv %[[X]] dim 0 dist -1
// PAPER-NEXT:    %[[RS:.*]] = tdfg.shrink %[[R]] dim 0 to [1:n - 1]
// PAPER-NEXT:    %[[L:.*]] = tdfg.mv %[[X]] dim 0 dist 1
// PAPER-NEXT:    %[[SUM:.*]] = tdfg.cmp add(%[[L]], %[[RS]])
// PAPER-NEXT:    tdfg.store %[[SUM]] -> %b
// PAPER-NEXT:    tdfg.yield
// PAPER-NOT:     tdfg.cmp mul

// FACTOR-LABEL: func.func @fig20
// FACTOR-DAG:     %[[V:.*]] = tdfg.const %V : f32 -> !tdfg.tensor<f32, 1>
// FACTOR-DAG:     %[[A:.*]] = tdfg.tensor %a [0:n] : memref<?xf32> -> !tdfg.tensor<f32, 1>
// FACTOR:         %[[R:.*]] = tdfg.mv %[[A]] dim 0 dist -1
// FACTOR-NEXT:    %[[L:.*]] = tdfg.mv %[[A]] dim 0 dist 1
// FACTOR-NEXT:    %[[SUM:.*]] = tdfg.cmp add(%[[L]], %[[R]])
// FACTOR-NEXT:    %[[P:.*]] = tdfg.cmp mul(%[[SUM]], %[[V]])
// FACTOR-NEXT:    %[[S:.*]] = tdfg.shrink %[[P]] dim 0 to [1:n - 1]
// FACTOR-NEXT:    tdfg.store %[[S]] -> %b
// FACTOR-NEXT:    tdfg.yield
func.func @fig20(%A: memref<?xf32>, %B: memref<?xf32>, %n: index, %v: f32) {
  tdfg.graph ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(n = %n : index, V = %v : f32) rank 1 {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index, %V: f32):
    %0 = tdfg.tensor %a [0:n - 2] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.mv %0 dim 0 dist 1 : !tdfg.tensor<f32, 1>
    %2 = tdfg.tensor %a [2:n] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    %3 = tdfg.mv %2 dim 0 dist -1 : !tdfg.tensor<f32, 1>
    %c = tdfg.const %V : f32 -> !tdfg.tensor<f32, 1>
    %4 = tdfg.cmp mul(%c, %1) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    %5 = tdfg.cmp mul(%c, %3) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    %6 = tdfg.cmp add(%4, %5) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.store %6 -> %b : !tdfg.tensor<f32, 1> -> memref<?xf32>
    tdfg.yield
  }
  func.return
}
