// optimize-tdfg on stencil2d (infs/workloads/stencil2d.mlir), node by node.
//
// The workload is the paper's stencil (ASPLOS'23 Fig. 6, §3.2 "Reuse Common Comp.",
// Appendix): the four neighbours times one constant C0, the centre times C1, written
// tap by tap.  Tensorized (BEFORE), each of its two graphs (A -> B, B -> A) is 4 moves,
// 5 multiplies (C0 four times) and 4 adds.  optimize-tdfg (WORKLOAD) finds Fig. 6's
// reuse: the reads become shrinks of one read of the hull (Eq. 5), the four
// neighbours are added first (Eq. 3a/3b, 7a, 9) and C0 multiplies once (Eq. 3c):
// 4 moves, 2 multiplies, 4 adds -- 10 moves and computes instead of 13.  The four
// moves stay: each neighbour has its own offset, and a move shifts along one dim.
//
// Second case (@stencil2d_shared, SHARED): the stencil written with five weights, four
// of them bound to the same value outside the region.  Scalars bound to the same
// value are one constant, so the pass finds the same graph.
//
// Third case (@stencil2d_distinct, DISTINCT): five taps, five runtime weights (the
// form infs's stencil2d had before it followed the paper).  No rule may assume two
// runtime scalars equal: each w_k must multiply a tensor of its own, five products
// need four adds, and four offsets need four moves, so the graph -- 4 moves, 5
// multiplies, 4 adds -- is the smallest the rules can reach and is kept exactly as
// it is.
//
// RUN: infs-opt --tensorize %S/../../../../infs/workloads/stencil2d.mlir | filecheck %s --check-prefix=BEFORE
// RUN: infs-opt --tensorize --optimize-tdfg %S/../../../../infs/workloads/stencil2d.mlir | filecheck %s --check-prefix=WORKLOAD
// RUN: infs-opt --tensorize --optimize-tdfg %s | filecheck %s --check-prefix=SHARED
// RUN: infs-opt --tensorize --optimize-tdfg %s | filecheck %s --check-prefix=DISTINCT

// BEFORE-LABEL: tdfg.graph ins(%A, %B
// BEFORE-NEXT:  ^bb0
// BEFORE-NEXT:    %[[T1:.*]] = tdfg.tensor %src [0:M - 2, 1:N - 1]
// BEFORE-NEXT:    %[[UP:.*]] = tdfg.mv %[[T1]] dim 0 dist 1
// BEFORE-NEXT:    %[[T2:.*]] = tdfg.tensor %src [2:M, 1:N - 1]
// BEFORE-NEXT:    %[[DOWN:.*]] = tdfg.mv %[[T2]] dim 0 dist -1
// BEFORE-NEXT:    %[[T3:.*]] = tdfg.tensor %src [1:M - 1, 0:N - 2]
// BEFORE-NEXT:    %[[LEFT:.*]] = tdfg.mv %[[T3]] dim 1 dist 1
// BEFORE-NEXT:    %[[T4:.*]] = tdfg.tensor %src [1:M - 1, 2:N]
// BEFORE-NEXT:    %[[RIGHT:.*]] = tdfg.mv %[[T4]] dim 1 dist -1
// BEFORE-NEXT:    %[[C:.*]] = tdfg.tensor %src [1:M - 1, 1:N - 1]
// BEFORE-NEXT:    %[[C0:.*]] = tdfg.const %k0
// BEFORE-NEXT:    %[[C1:.*]] = tdfg.const %k1
// BEFORE-NEXT:    %[[P1:.*]] = tdfg.cmp mul(%[[C0]], %[[UP]])
// BEFORE-NEXT:    %[[P2:.*]] = tdfg.cmp mul(%[[C0]], %[[DOWN]])
// BEFORE-NEXT:    %[[S1:.*]] = tdfg.cmp add(%[[P1]], %[[P2]])
// BEFORE-NEXT:    %[[P3:.*]] = tdfg.cmp mul(%[[C0]], %[[LEFT]])
// BEFORE-NEXT:    %[[S2:.*]] = tdfg.cmp add(%[[S1]], %[[P3]])
// BEFORE-NEXT:    %[[P4:.*]] = tdfg.cmp mul(%[[C0]], %[[RIGHT]])
// BEFORE-NEXT:    %[[S3:.*]] = tdfg.cmp add(%[[S2]], %[[P4]])
// BEFORE-NEXT:    %[[P5:.*]] = tdfg.cmp mul(%[[C1]], %[[C]])
// BEFORE-NEXT:    %[[S4:.*]] = tdfg.cmp add(%[[S3]], %[[P5]])
// BEFORE-NEXT:    tdfg.store %[[S4]] -> %dst
// BEFORE-NEXT:    tdfg.yield
// BEFORE-LABEL: tdfg.graph ins(%B, %A
// BEFORE-NEXT:  ^bb0
// BEFORE-NEXT:    %[[T1:.*]] = tdfg.tensor %src [0:M - 2, 1:N - 1]
// BEFORE-NEXT:    %[[UP:.*]] = tdfg.mv %[[T1]] dim 0 dist 1
// BEFORE-NEXT:    %[[T2:.*]] = tdfg.tensor %src [2:M, 1:N - 1]
// BEFORE-NEXT:    %[[DOWN:.*]] = tdfg.mv %[[T2]] dim 0 dist -1
// BEFORE-NEXT:    %[[T3:.*]] = tdfg.tensor %src [1:M - 1, 0:N - 2]
// BEFORE-NEXT:    %[[LEFT:.*]] = tdfg.mv %[[T3]] dim 1 dist 1
// BEFORE-NEXT:    %[[T4:.*]] = tdfg.tensor %src [1:M - 1, 2:N]
// BEFORE-NEXT:    %[[RIGHT:.*]] = tdfg.mv %[[T4]] dim 1 dist -1
// BEFORE-NEXT:    %[[C:.*]] = tdfg.tensor %src [1:M - 1, 1:N - 1]
// BEFORE-NEXT:    %[[C0:.*]] = tdfg.const %k0
// BEFORE-NEXT:    %[[C1:.*]] = tdfg.const %k1
// BEFORE-NEXT:    %[[P1:.*]] = tdfg.cmp mul(%[[C0]], %[[UP]])
// BEFORE-NEXT:    %[[P2:.*]] = tdfg.cmp mul(%[[C0]], %[[DOWN]])
// BEFORE-NEXT:    %[[S1:.*]] = tdfg.cmp add(%[[P1]], %[[P2]])
// BEFORE-NEXT:    %[[P3:.*]] = tdfg.cmp mul(%[[C0]], %[[LEFT]])
// BEFORE-NEXT:    %[[S2:.*]] = tdfg.cmp add(%[[S1]], %[[P3]])
// BEFORE-NEXT:    %[[P4:.*]] = tdfg.cmp mul(%[[C0]], %[[RIGHT]])
// BEFORE-NEXT:    %[[S3:.*]] = tdfg.cmp add(%[[S2]], %[[P4]])
// BEFORE-NEXT:    %[[P5:.*]] = tdfg.cmp mul(%[[C1]], %[[C]])
// BEFORE-NEXT:    %[[S4:.*]] = tdfg.cmp add(%[[S3]], %[[P5]])
// BEFORE-NEXT:    tdfg.store %[[S4]] -> %dst
// BEFORE-NEXT:    tdfg.yield

// WORKLOAD-LABEL: tdfg.graph ins(%A, %B
// WORKLOAD-NEXT:  ^bb0
// WORKLOAD-NEXT:    %[[A:.*]] = tdfg.tensor %src [0:M, 0:N]
// WORKLOAD-NEXT:    %[[C0:.*]] = tdfg.const %k0
// WORKLOAD-NEXT:    %[[C1:.*]] = tdfg.const %k1
// WORKLOAD-NEXT:    %[[ROWS:.*]] = tdfg.shrink %[[A]] dim 0 to [1:M - 1]
// WORKLOAD-NEXT:    %[[RIGHT:.*]] = tdfg.mv %[[ROWS]] dim 1 dist -1
// WORKLOAD-NEXT:    %[[S2:.*]] = tdfg.shrink %[[A]] dim 0 to [2:M]
// WORKLOAD-NEXT:    %[[S2C:.*]] = tdfg.shrink %[[S2]] dim 1 to [1:N - 1]
// WORKLOAD-NEXT:    %[[DOWN:.*]] = tdfg.mv %[[S2C]] dim 0 dist -1
// WORKLOAD-NEXT:    %[[S0:.*]] = tdfg.shrink %[[A]] dim 0 to [0:M - 2]
// WORKLOAD-NEXT:    %[[UP:.*]] = tdfg.mv %[[S0]] dim 0 dist 1
// WORKLOAD-NEXT:    %[[N1:.*]] = tdfg.cmp add(%[[UP]], %[[DOWN]])
// WORKLOAD-NEXT:    %[[LEFT:.*]] = tdfg.mv %[[ROWS]] dim 1 dist 1
// WORKLOAD-NEXT:    %[[N2:.*]] = tdfg.cmp add(%[[LEFT]], %[[N1]])
// WORKLOAD-NEXT:    %[[N3:.*]] = tdfg.cmp add(%[[N2]], %[[RIGHT]])
// WORKLOAD-NEXT:    %[[P:.*]] = tdfg.cmp mul(%[[C0]], %[[N3]])
// WORKLOAD-NEXT:    %[[Q:.*]] = tdfg.cmp mul(%[[ROWS]], %[[C1]])
// WORKLOAD-NEXT:    %[[OUT:.*]] = tdfg.cmp add(%[[Q]], %[[P]])
// WORKLOAD-NEXT:    tdfg.store %[[OUT]] -> %dst
// WORKLOAD-NEXT:    tdfg.yield
// WORKLOAD-LABEL: tdfg.graph ins(%B, %A
// WORKLOAD-NEXT:  ^bb0
// WORKLOAD-NEXT:    %[[A:.*]] = tdfg.tensor %src [0:M, 0:N]
// WORKLOAD-NEXT:    %[[C0:.*]] = tdfg.const %k0
// WORKLOAD-NEXT:    %[[C1:.*]] = tdfg.const %k1
// WORKLOAD-NEXT:    %[[ROWS:.*]] = tdfg.shrink %[[A]] dim 0 to [1:M - 1]
// WORKLOAD-NEXT:    %[[RIGHT:.*]] = tdfg.mv %[[ROWS]] dim 1 dist -1
// WORKLOAD-NEXT:    %[[S2:.*]] = tdfg.shrink %[[A]] dim 0 to [2:M]
// WORKLOAD-NEXT:    %[[S2C:.*]] = tdfg.shrink %[[S2]] dim 1 to [1:N - 1]
// WORKLOAD-NEXT:    %[[DOWN:.*]] = tdfg.mv %[[S2C]] dim 0 dist -1
// WORKLOAD-NEXT:    %[[S0:.*]] = tdfg.shrink %[[A]] dim 0 to [0:M - 2]
// WORKLOAD-NEXT:    %[[UP:.*]] = tdfg.mv %[[S0]] dim 0 dist 1
// WORKLOAD-NEXT:    %[[N1:.*]] = tdfg.cmp add(%[[UP]], %[[DOWN]])
// WORKLOAD-NEXT:    %[[LEFT:.*]] = tdfg.mv %[[ROWS]] dim 1 dist 1
// WORKLOAD-NEXT:    %[[N2:.*]] = tdfg.cmp add(%[[LEFT]], %[[N1]])
// WORKLOAD-NEXT:    %[[N3:.*]] = tdfg.cmp add(%[[N2]], %[[RIGHT]])
// WORKLOAD-NEXT:    %[[P:.*]] = tdfg.cmp mul(%[[C0]], %[[N3]])
// WORKLOAD-NEXT:    %[[Q:.*]] = tdfg.cmp mul(%[[ROWS]], %[[C1]])
// WORKLOAD-NEXT:    %[[OUT:.*]] = tdfg.cmp add(%[[Q]], %[[P]])
// WORKLOAD-NEXT:    tdfg.store %[[OUT]] -> %dst
// WORKLOAD-NEXT:    tdfg.yield

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

// DISTINCT-LABEL: func.func @stencil2d_distinct
// DISTINCT:        ^bb0
// DISTINCT-NEXT:     %[[C:.*]] = tdfg.tensor %src [1:M - 1, 1:N - 1]
// DISTINCT-NEXT:     %[[T1:.*]] = tdfg.tensor %src [0:M - 2, 1:N - 1]
// DISTINCT-NEXT:     %[[UP:.*]] = tdfg.mv %[[T1]] dim 0 dist 1
// DISTINCT-NEXT:     %[[T2:.*]] = tdfg.tensor %src [2:M, 1:N - 1]
// DISTINCT-NEXT:     %[[DOWN:.*]] = tdfg.mv %[[T2]] dim 0 dist -1
// DISTINCT-NEXT:     %[[T3:.*]] = tdfg.tensor %src [1:M - 1, 0:N - 2]
// DISTINCT-NEXT:     %[[LEFT:.*]] = tdfg.mv %[[T3]] dim 1 dist 1
// DISTINCT-NEXT:     %[[T4:.*]] = tdfg.tensor %src [1:M - 1, 2:N]
// DISTINCT-NEXT:     %[[RIGHT:.*]] = tdfg.mv %[[T4]] dim 1 dist -1
// DISTINCT-NEXT:     %[[K0:.*]] = tdfg.const %x0
// DISTINCT-NEXT:     %[[K1:.*]] = tdfg.const %x1
// DISTINCT-NEXT:     %[[K2:.*]] = tdfg.const %x2
// DISTINCT-NEXT:     %[[P0:.*]] = tdfg.cmp mul(%[[K0]], %[[C]])
// DISTINCT-NEXT:     %[[P1:.*]] = tdfg.cmp mul(%[[K1]], %[[UP]])
// DISTINCT-NEXT:     %[[S1:.*]] = tdfg.cmp add(%[[P0]], %[[P1]])
// DISTINCT-NEXT:     %[[P2:.*]] = tdfg.cmp mul(%[[K2]], %[[DOWN]])
// DISTINCT-NEXT:     %[[S2:.*]] = tdfg.cmp add(%[[S1]], %[[P2]])
// DISTINCT-NEXT:     %[[K3:.*]] = tdfg.const %x3
// DISTINCT-NEXT:     %[[K4:.*]] = tdfg.const %x4
// DISTINCT-NEXT:     %[[P3:.*]] = tdfg.cmp mul(%[[K3]], %[[LEFT]])
// DISTINCT-NEXT:     %[[S3:.*]] = tdfg.cmp add(%[[S2]], %[[P3]])
// DISTINCT-NEXT:     %[[P4:.*]] = tdfg.cmp mul(%[[K4]], %[[RIGHT]])
// DISTINCT-NEXT:     %[[S4:.*]] = tdfg.cmp add(%[[S3]], %[[P4]])
// DISTINCT-NEXT:     tdfg.store %[[S4]] -> %dst
// DISTINCT-NEXT:     tdfg.yield
func.func @stencil2d_distinct(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %m: index, %n: index, %w0: f32, %w1: f32, %w2: f32, %w3: f32, %w4: f32) {
  stream.region ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) syms(M = %m : index, N = %n : index, w0 = %w0 : f32, w1 = %w1 : f32, w2 = %w2 : f32, w3 = %w3 : f32, w4 = %w4 : f32) domain [1:M - 1, 1:N - 1] iterators [parallel, parallel] {
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
