// linalg on memrefs goes through xDSL's own convert-linalg-to-loops (op by
// op, the loops keeping the op's location), then extract-streams; run as one
// pass or as xDSL's pass then infs's.  A linalg.fill of a reduction's output
// with the reduction's identity (nothing touching the output between them) is
// the reduction's initial value: one region storing the fold (as the
// hand-written infs/workloads/mm_inner.mlir), not the fill, a fold into a
// temporary and an update.  Only the one pass knows the loops came from linalg
// (whose loop ranges are the output's extents): after xDSL's pass alone the
// fill stays.
//
// RUN: infs-opt %s --split-input-file -p extract-streams 2>/dev/null | filecheck %s
// RUN: infs-opt %s --split-input-file -p 'extract-streams{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// RUN: infs-opt %s --split-input-file --convert-linalg-to-loops --extract-streams 2>&1 | filecheck %s --check-prefix=CHECK-TWO

// CHECK-LABEL: func.func @gemm
// CHECK:         stream.region ins(%A, %B, %C : {{.*}}) syms(A_0 = %{{.*}} : index, A_1 = %{{.*}} : index, B_1 = %{{.*}} : index) domain [0:A_0, 0:B_1, 0:A_1] iterators [parallel, parallel, reduction]
// CHECK:           %[[R:.*]] = stream.reduce add %{{.*}} over [2]
// CHECK-NEXT:      stream.store %[[R]] -> %C_1[d0, d1]
// CHECK-NOT:     stream.region
// CHECK-NOT:     linalg.
// CHECK:         func.return
// CHECK-TWO-LABEL: func.func @gemm
// CHECK-TWO-COUNT-3: stream.region
// CHECK-TWO-NOT: linalg.
func.func @gemm(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>) {
  %zero = arith.constant 0.0 : f64
  // REMARK: linalg.mlir:[[# @LINE + 3]]:3: remark: extract-streams: 'linalg.fill' lowered to loops by convert-linalg-to-loops
  // REMARK: linalg.mlir:[[# @LINE + 4]]:3: remark: extract-streams: 'linalg.matmul' lowered to loops by convert-linalg-to-loops
  // REMARK: linalg.mlir:[[# @LINE + 1]]:3: remark: extract-streams: 'linalg.fill' folded into the reduction at line [[# @LINE + 3]]: it sets its output to the reduction's identity, and linalg's reduction writes every cell of it
  linalg.fill ins(%zero : f64) outs(%C : memref<?x?xf64>)
  // REMARK: linalg.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:A_0, 0:B_1, 0:A_1] iterators [parallel, parallel, reduction]{{$}}
  linalg.matmul ins(%A, %B : memref<?x?xf64>, memref<?x?xf64>) outs(%C : memref<?x?xf64>)
  func.return
}

// -----

// 2.0 is not the add's identity: C = 2 + A.B keeps the fill, the fold and the update
// CHECK-LABEL: func.func @fill_two
// CHECK:         stream.region ins(%C : memref<?x?xf64>) {{.*}} domain [0:C_0, 0:C_1] iterators [parallel, parallel]
// CHECK:         stream.region ins(%A, %B, %{{.*}} : {{.*}}) {{.*}} iterators [parallel, parallel, reduction]
// CHECK:         stream.region ins(%C, %{{.*}} : {{.*}}) {{.*}} iterators [parallel, parallel]
func.func @fill_two(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>) {
  %two = arith.constant 2.0 : f64
  // REMARK: linalg.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:C_0, 0:C_1] iterators [parallel, parallel]
  linalg.fill ins(%two : f64) outs(%C : memref<?x?xf64>)
  // REMARK: linalg.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 2 stream.regions: domain [0:A_0, 0:B_1, 0:A_1] iterators [parallel, parallel, reduction]; domain [0:A_0, 0:B_1] iterators [parallel, parallel] (the accumulation through a temporary: the fold, then the update)
  linalg.matmul ins(%A, %B : memref<?x?xf64>, memref<?x?xf64>) outs(%C : memref<?x?xf64>)
  func.return
}

// -----

// C is read between the fill and the matmul: the fill stays
// CHECK-LABEL: func.func @read_between
// CHECK:         stream.region ins(%C : memref<?x?xf32>) {{.*}} domain [0:C_0, 0:C_1] iterators [parallel, parallel]
// CHECK:         memref.load %C
// CHECK:         stream.region ins(%A, %Bt, %{{.*}} : {{.*}}) {{.*}} iterators [parallel, parallel, reduction]
// CHECK:         stream.region ins(%C, %{{.*}} : {{.*}}) {{.*}} iterators [parallel, parallel]
func.func @read_between(%A: memref<?x?xf32>, %Bt: memref<?x?xf32>, %C: memref<?x?xf32>, %D: memref<?xf32>) {
  %zero = arith.constant 0.0 : f32
  // REMARK: linalg.mlir:[[# @LINE + 2]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:C_0, 0:C_1] iterators [parallel, parallel]
  // REMARK-NOT: folded
  linalg.fill ins(%zero : f32) outs(%C : memref<?x?xf32>)
  %c0 = arith.constant 0 : index
  %x = memref.load %C[%c0, %c0] : memref<?x?xf32>
  memref.store %x, %D[%c0] : memref<?xf32>
  // REMARK: linalg.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 2 stream.regions
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %Bt : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  func.return
}

// -----

// a row maximum from -inf (the max's identity): one region
// CHECK-LABEL: func.func @rowmax
// CHECK:         stream.region ins(%A, %R : {{.*}}) {{.*}} iterators [parallel, reduction]
// CHECK:           %[[M:.*]] = stream.reduce max %{{.*}} over [1]
// CHECK-NEXT:      stream.store %[[M]] -> %R_1[d0]
// CHECK-NOT:     stream.region
func.func @rowmax(%A: memref<?x?xf32>, %R: memref<?xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  // REMARK: linalg.mlir:[[# @LINE + 1]]:3: remark: extract-streams: 'linalg.fill' folded into the reduction at line [[# @LINE + 2]]
  linalg.fill ins(%ninf : f32) outs(%R : memref<?xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%A : memref<?x?xf32>) outs(%R : memref<?xf32>) {
  ^bb0(%a: f32, %r: f32):
    %m = arith.maximumf %r, %a : f32
    linalg.yield %m : f32
  }
  func.return
}
