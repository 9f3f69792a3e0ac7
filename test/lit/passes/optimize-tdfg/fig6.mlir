// optimize-tdfg on a stencil shaped like ASPLOS'23 Fig. 6: three taps weighted by C0
// (A[i-1][j-1], A[i-1][j], A[i][j-1]) and the centre by C1, on [1, M-1) x [1, N-1).
// Tensor expansion (Eq. 5, 7a): A0 = A[0, M-2) x [0, N-2) and A3 = A[1, M-1) x [0, N-2),
// both moved right by 1 along dim 1, become one move of the expanded tensor; reuse of
// common computation (Eq. 4a, 9): C0 multiplies once, over A[0, M-1) x [0, N-1), and the
// products are moved where they are needed.  (Float reassociation off: the sum keeps
// its order, so this is exactly the paper's pair of transformations.)
//
// RUN: infs-opt --optimize-tdfg='reassociate_floats=false' %s | filecheck %s
//
// Bad options: one line naming the pass and the option, non-zero exit.
// RUN: not infs-opt %s -p 'optimize-tdfg{rules=eq3,eq99}' 2>&1 | filecheck %s --check-prefix=RULES
// RUN: not infs-opt %s -p 'optimize-tdfg{node-limit=-1}' 2>&1 | filecheck %s --check-prefix=LIMIT
// RUN: not infs-opt %s --optimize-tdfg='iter-limit=-2' 2>&1 | filecheck %s --check-prefix=ITER
// RUN: not infs-opt %s -p 'optimize-tdfg{time-limit=-0.5}' 2>&1 | filecheck %s --check-prefix=TIME
// RUN: not infs-opt %s -p 'optimize-tdfg{config=nosuch}' 2>&1 | filecheck %s --check-prefix=CONFIG
// RULES-NOT:  Traceback
// RULES:      infs-opt: error: pass 'optimize-tdfg' failed: unknown rule family 'eq99' (known: eq3, eq4, eq6, eq7, eq8, eq9)
// RULES-NOT:  {{.}}
// (options are named as they are written: node-limit, not the field's node_limit)
// LIMIT:      infs-opt: error: pass 'optimize-tdfg' failed: option node-limit must be >= 0, got -1
// LIMIT-NOT:  {{.}}
// ITER:       infs-opt: error: pass 'optimize-tdfg' failed: option iter-limit must be >= 0, got -2
// ITER-NOT:   {{.}}
// TIME:       infs-opt: error: pass 'optimize-tdfg' failed: option time-limit must be >= 0, got -0.5
// TIME-NOT:   {{.}}
// CONFIG:     infs-opt: error: pass 'optimize-tdfg' failed: unknown hardware config 'nosuch'
// CONFIG-NOT: Traceback

// CHECK-LABEL: func.func @fig6
// CHECK-DAG:     %[[K1:.*]] = tdfg.const %x1
// CHECK-DAG:     %[[A:.*]] = tdfg.tensor %a [0:M - 1, 0:N - 1] : memref<?x?xf32> -> !tdfg.tensor<f32, 2>
// CHECK-DAG:     %[[K0:.*]] = tdfg.const %x0
// CHECK:         %[[S0:.*]] = tdfg.shrink %[[A]] dim 0 to [1:M - 1]
// CHECK-NEXT:    %[[P1:.*]] = tdfg.cmp mul(%[[S0]], %[[K1]])
// CHECK-NEXT:    %[[V3:.*]] = tdfg.shrink %[[P1]] dim 1 to [1:N - 1]
// CHECK-NEXT:    %[[P0:.*]] = tdfg.cmp mul(%[[A]], %[[K0]])
// CHECK-NEXT:    %[[RIGHT:.*]] = tdfg.mv %[[P0]] dim 1 dist 1
// CHECK-NEXT:    %[[S:.*]] = tdfg.cmp add(%[[RIGHT]], %[[P0]])
// CHECK-NEXT:    %[[DOWN:.*]] = tdfg.mv %[[S]] dim 0 dist 1
// CHECK-NEXT:    %[[V01:.*]] = tdfg.cmp add(%[[DOWN]], %[[RIGHT]])
// CHECK-NEXT:    %[[OUT:.*]] = tdfg.cmp add(%[[V01]], %[[V3]])
// CHECK-NEXT:    tdfg.store %[[OUT]] -> %b
// CHECK-NEXT:    tdfg.yield
// CHECK-NOT:     tdfg.cmp mul
func.func @fig6(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %m: index, %n: index, %c0: f32, %c1: f32) {
  tdfg.graph ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) syms(M = %m : index, N = %n : index, C0 = %c0 : f32, C1 = %c1 : f32) rank 2 {
  ^bb0(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %M: index, %N: index, %x0: f32, %x1: f32):
    %k0 = tdfg.const %x0 : f32 -> !tdfg.tensor<f32, 2>
    %k1 = tdfg.const %x1 : f32 -> !tdfg.tensor<f32, 2>
    %a0 = tdfg.tensor %a [0:M - 2, 0:N - 2] : memref<?x?xf32> -> !tdfg.tensor<f32, 2>
    %m0 = tdfg.mv %a0 dim 1 dist 1 : !tdfg.tensor<f32, 2>
    %n0 = tdfg.mv %m0 dim 0 dist 1 : !tdfg.tensor<f32, 2>
    %a1 = tdfg.tensor %a [0:M - 2, 1:N - 1] : memref<?x?xf32> -> !tdfg.tensor<f32, 2>
    %n1 = tdfg.mv %a1 dim 0 dist 1 : !tdfg.tensor<f32, 2>
    %a3 = tdfg.tensor %a [1:M - 1, 0:N - 2] : memref<?x?xf32> -> !tdfg.tensor<f32, 2>
    %m3 = tdfg.mv %a3 dim 1 dist 1 : !tdfg.tensor<f32, 2>
    %a4 = tdfg.tensor %a [1:M - 1, 1:N - 1] : memref<?x?xf32> -> !tdfg.tensor<f32, 2>
    %v0 = tdfg.cmp mul(%k0, %n0) : !tdfg.tensor<f32, 2>, !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    %v1 = tdfg.cmp mul(%k0, %n1) : !tdfg.tensor<f32, 2>, !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    %v2 = tdfg.cmp mul(%k0, %m3) : !tdfg.tensor<f32, 2>, !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    %v3 = tdfg.cmp mul(%k1, %a4) : !tdfg.tensor<f32, 2>, !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    %s0 = tdfg.cmp add(%v0, %v1) : !tdfg.tensor<f32, 2>, !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    %s1 = tdfg.cmp add(%s0, %v2) : !tdfg.tensor<f32, 2>, !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    %s2 = tdfg.cmp add(%s1, %v3) : !tdfg.tensor<f32, 2>, !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    tdfg.store %s2 -> %b : !tdfg.tensor<f32, 2> -> memref<?x?xf32>
    tdfg.yield
  }
  func.return
}
