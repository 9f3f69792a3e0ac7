// optimize-tdfg on stencil2d (infs/workloads/stencil2d.mlir), node by node.
//
// The workload (first case) weights each of its five taps by its own runtime scalar
// (w0..w4, loaded from W[0..4]), so the tensorized graph -- 4 moves, 5 multiplies,
// 4 adds -- is already the smallest the rules can reach: each w_k must multiply a
// tensor of its own (no rule may assume two runtime scalars equal), five products
// need four adds, and the offsets +-1 along dim 0 and +-1 along dim 1 need two moves
// per dim (a move shifts along one dim; one move gives one non-zero offset).  Fig. 6's
// effects need taps that share a weight (C0) or a move (the 3x3 conv2d, see
// test_optimize_tdfg.py): the pass keeps this graph exactly as it is.
//
// Second case (this file): the same stencil with one weight bound to the four neighbours (ASPLOS'23
// Fig. 6's C0; the centre has C1).  Scalars bound to the same value are one constant,
// and the rules find Fig. 6's reuse: the reads become shrinks of one read of the
// hull (Eq. 5), the four neighbours are added first (Eq. 3a/3b, 7a, 9) and C0
// multiplies once (Eq. 3c): 4 moves, 2 multiplies, 4 adds instead of 4, 5, 4.
//
// RUN: infs-opt --tensorize --optimize-tdfg %S/../../../../infs/workloads/stencil2d.mlir | filecheck %s --check-prefix=WORKLOAD
// RUN: infs-opt --tensorize --optimize-tdfg %s | filecheck %s --check-prefix=SHARED

// WORKLOAD-LABEL: tdfg.graph ins(%A, %B
// WORKLOAD-NEXT:  ^bb0
// WORKLOAD-NEXT:    %[[C:.*]] = tdfg.tensor %src [1:M - 1, 1:N - 1]
// WORKLOAD-NEXT:    %[[T1:.*]] = tdfg.tensor %src [0:M - 2, 1:N - 1]
// WORKLOAD-NEXT:    %[[UP:.*]] = tdfg.mv %[[T1]] dim 0 dist 1
// WORKLOAD-NEXT:    %[[T2:.*]] = tdfg.tensor %src [2:M, 1:N - 1]
// WORKLOAD-NEXT:    %[[DOWN:.*]] = tdfg.mv %[[T2]] dim 0 dist -1
// WORKLOAD-NEXT:    %[[T3:.*]] = tdfg.tensor %src [1:M - 1, 0:N - 2]
// WORKLOAD-NEXT:    %[[LEFT:.*]] = tdfg.mv %[[T3]] dim 1 dist 1
// WORKLOAD-NEXT:    %[[T4:.*]] = tdfg.tensor %src [1:M - 1, 2:N]
// WORKLOAD-NEXT:    %[[RIGHT:.*]] = tdfg.mv %[[T4]] dim 1 dist -1
// WORKLOAD-NEXT:    %[[K0:.*]] = tdfg.const %x0
// WORKLOAD-NEXT:    %[[K1:.*]] = tdfg.const %x1
// WORKLOAD-NEXT:    %[[K2:.*]] = tdfg.const %x2
// WORKLOAD-NEXT:    %[[P0:.*]] = tdfg.cmp mul(%[[K0]], %[[C]])
// WORKLOAD-NEXT:    %[[P1:.*]] = tdfg.cmp mul(%[[K1]], %[[UP]])
// WORKLOAD-NEXT:    %[[S1:.*]] = tdfg.cmp add(%[[P0]], %[[P1]])
// WORKLOAD-NEXT:    %[[P2:.*]] = tdfg.cmp mul(%[[K2]], %[[DOWN]])
// WORKLOAD-NEXT:    %[[S2:.*]] = tdfg.cmp add(%[[S1]], %[[P2]])
// WORKLOAD-NEXT:    %[[K3:.*]] = tdfg.const %x3
// WORKLOAD-NEXT:    %[[K4:.*]] = tdfg.const %x4
// WORKLOAD-NEXT:    %[[P3:.*]] = tdfg.cmp mul(%[[K3]], %[[LEFT]])
// WORKLOAD-NEXT:    %[[S3:.*]] = tdfg.cmp add(%[[S2]], %[[P3]])
// WORKLOAD-NEXT:    %[[P4:.*]] = tdfg.cmp mul(%[[K4]], %[[RIGHT]])
// WORKLOAD-NEXT:    %[[S4:.*]] = tdfg.cmp add(%[[S3]], %[[P4]])
// WORKLOAD-NEXT:    tdfg.store %[[S4]] -> %dst
// WORKLOAD-NEXT:    tdfg.yield
// WORKLOAD-LABEL: tdfg.graph ins(%B, %A
// WORKLOAD-COUNT-4: tdfg.mv
// WORKLOAD-COUNT-5: tdfg.cmp mul
// WORKLOAD-NOT:     tdfg.shrink

// SHARED-LABEL: func.func @stencil2d_shared
// SHARED:         ^bb0
// SHARED-NEXT:      %[[A:.*]] = tdfg.tensor %src [0:M, 0:N]
// SHARED-DAG:       %[[C0:.*]] = tdfg.const %x1
// SHARED-DAG:       %[[C1:.*]] = tdfg.const %x0
// SHARED-DAG:       %[[ROWS:.*]] = tdfg.shrink %[[A]] dim 0 to [1:M - 1]
// SHARED-DAG:       %[[RIGHT:.*]] = tdfg.mv %[[ROWS]] dim 1 dist -1
// SHARED-DAG:       %[[LEFT:.*]] = tdfg.mv %[[ROWS]] dim 1 dist 1
// SHARED-DAG:       %[[S2:.*]] = tdfg.shrink %[[A]] dim 0 to [2:M]
// SHARED-DAG:       %[[S2C:.*]] = tdfg.shrink %[[S2]] dim 1 to [1:N - 1]
// SHARED-DAG:       %[[DOWN:.*]] = tdfg.mv %[[S2C]] dim 0 dist -1
// SHARED-DAG:       %[[S0:.*]] = tdfg.shrink %[[A]] dim 0 to [0:M - 2]
// SHARED-DAG:       %[[UP:.*]] = tdfg.mv %[[S0]] dim 0 dist 1
// SHARED:           %[[N1:.*]] = tdfg.cmp add(%[[UP]], %[[DOWN]])
// SHARED-NEXT:      %[[N2:.*]] = tdfg.cmp add(%[[N1]], %[[LEFT]])
// SHARED-NEXT:      %[[N3:.*]] = tdfg.cmp add(%[[N2]], %[[RIGHT]])
// SHARED-NEXT:      %[[P:.*]] = tdfg.cmp mul(%[[C0]], %[[N3]])
// SHARED-NEXT:      %[[Q:.*]] = tdfg.cmp mul(%[[ROWS]], %[[C1]])
// SHARED-NEXT:      %[[OUT:.*]] = tdfg.cmp add(%[[Q]], %[[P]])
// SHARED-NEXT:      tdfg.store %[[OUT]] -> %dst
// SHARED-NEXT:      tdfg.yield
func.func @stencil2d_shared(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %m: index, %n: index, %c0: f32, %c1: f32) {
  stream.region ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) syms(M = %m : index, N = %n : index, w0 = %c1 : f32, w1 = %c0 : f32, w2 = %c0 : f32, w3 = %c0 : f32, w4 = %c0 : f32) domain [1:M - 1, 1:N - 1] iterators [parallel, parallel] {
  ^bb0(%src: memref<?x?xf32>, %dst: memref<?x?xf32>, %M: index, %N: index, %x0: f32, %x1: f32, %x2: f32, %x3: f32, %x4: f32):
    %a0 = stream.load %src[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %a1 = stream.load %src[d0 - 1, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %a2 = stream.load %src[d0 + 1, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %a3 = stream.load %src[d0, d1 - 1] : memref<?x?xf32> -> !stream.stream<f32>
    %a4 = stream.load %src[d0, d1 + 1] : memref<?x?xf32> -> !stream.stream<f32>
    %p0 = stream.compute(%a0, %a1, %a2, %x0, %x1, %x2 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32, f32, f32) -> !stream.stream<f32> {
    ^bb1(%v0: f32, %v1: f32, %v2: f32, %k0: f32, %k1: f32, %k2: f32):
      %m0 = arith.mulf %k0, %v0 : f32
      %m1 = arith.mulf %k1, %v1 : f32
      %s1 = arith.addf %m0, %m1 : f32
      %m2 = arith.mulf %k2, %v2 : f32
      %s2 = arith.addf %s1, %m2 : f32
      stream.yield %s2 : f32
    }
    %p1 = stream.compute(%p0, %a3, %a4, %x3, %x4 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32, f32) -> !stream.stream<f32> {
    ^bb2(%acc: f32, %v3: f32, %v4: f32, %k3: f32, %k4: f32):
      %m3 = arith.mulf %k3, %v3 : f32
      %s3 = arith.addf %acc, %m3 : f32
      %m4 = arith.mulf %k4, %v4 : f32
      %s4 = arith.addf %s3, %m4 : f32
      stream.yield %s4 : f32
    }
    stream.store %p1 -> %dst[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}
