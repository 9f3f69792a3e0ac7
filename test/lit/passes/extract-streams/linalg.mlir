// linalg on memrefs goes through xDSL's own convert-linalg-to-loops (op by
// op, the loops keeping the op's location), then extract-streams; run as one
// pass or as xDSL's pass then infs's.
//
// RUN: infs-opt %s -p 'extract-streams{remarks=true}' 2>&1 | filecheck %s
// RUN: infs-opt %s --convert-linalg-to-loops --extract-streams 2>&1 | filecheck %s --check-prefix=CHECK-TWO

// CHECK: linalg.mlir:[[# @LINE + 13]]:3: remark: extract-streams: 'linalg.fill' lowered to loops by convert-linalg-to-loops
// CHECK: linalg.mlir:[[# @LINE + 13]]:3: remark: extract-streams: 'linalg.matmul' lowered to loops by convert-linalg-to-loops
// CHECK: linalg.mlir:[[# @LINE + 11]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:C_0, 0:C_1] iterators [parallel, parallel]
// CHECK: linalg.mlir:[[# @LINE + 11]]:3: remark: extract-streams: loop nest extracted into 2 stream.regions: domain [0:A_0, 0:B_1, 0:A_1] iterators [parallel, parallel, reduction]; domain [0:A_0, 0:B_1] iterators [parallel, parallel] (the accumulation through a temporary: the fold, then the update)
// CHECK-LABEL: func.func @gemm
// CHECK:         stream.region ins(%C : memref<?x?xf64>) syms(C_0 = %{{.*}} : index, C_1 = %{{.*}} : index) domain [0:C_0, 0:C_1] iterators [parallel, parallel]
// CHECK:         stream.region ins(%A, %B, %{{.*}} : {{.*}}) syms(A_0 = %{{.*}} : index, A_1 = %{{.*}} : index, B_1 = %{{.*}} : index) domain [0:A_0, 0:B_1, 0:A_1] iterators [parallel, parallel, reduction]
// CHECK:         stream.region ins(%C, %{{.*}} : {{.*}}) {{.*}} domain [0:A_0, 0:B_1] iterators [parallel, parallel]
// CHECK-NOT:     linalg.
// CHECK-TWO-COUNT-3: stream.region
// CHECK-TWO-NOT: linalg.
func.func @gemm(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>) {
  %zero = arith.constant 0.0 : f64
  linalg.fill ins(%zero : f64) outs(%C : memref<?x?xf64>)
  linalg.matmul ins(%A, %B : memref<?x?xf64>, memref<?x?xf64>) outs(%C : memref<?x?xf64>)
  func.return
}
