// extract-streams splits a loop whose body tests its index against its first or
// last value (C's border clamp: `j > 0 ? A[j-1] : A[j]`, hotspot's `r == 0 ? r : r - 1`)
// at those iterations, under a host test that the loop runs at least two
// iterations (else one piece whose iteration is both borders); in each piece the
// test is a constant, the clamp folds, and the piece is a stream region.
// Nested splits hoist their guards (unswitching), so a 2-D clamp gives nine 2-D regions.
//
// RUN: infs-opt %s --split-input-file -p 'extract-streams' | filecheck %s
// RUN: infs-opt %s --split-input-file -p 'extract-streams{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// CHECK-LABEL: func.func @blur
// CHECK: %[[OK:.*]] = arith.cmpi sge, %n, %{{.*}} : index
// CHECK: scf.if %[[OK]] {
// CHECK: stream.region {{.*}} domain [0:1] iterators [parallel]
// CHECK: stream.region {{.*}} domain [1:n - 1] iterators [parallel]
// CHECK: stream.load %{{.*}}[d0 - 1]
// CHECK: stream.load %{{.*}}[d0 + 1]
// CHECK: stream.region {{.*}} domain [n - 1:n] iterators [parallel]
// CHECK: } else {
// CHECK: stream.region {{.*}} domain [0:n] iterators [parallel]
// CHECK-NOT: arith.select
func.func @blur(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %last = arith.subi %n, %c1 : index
  // REMARK: border-peel.mlir:[[# @LINE + 5]]:3: remark: extract-streams: loop split at its first and last iterations: its body tests the index against them (a border clamp), constant in each piece
  // REMARK: border-peel.mlir:[[# @LINE + 4]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:1] iterators [parallel]
  // REMARK: border-peel.mlir:[[# @LINE + 3]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [1:n - 1] iterators [parallel]
  // REMARK: border-peel.mlir:[[# @LINE + 2]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [n - 1:n] iterators [parallel]
  // REMARK: border-peel.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [parallel]
  affine.for %j = 0 to %n {
    %first = arith.cmpi eq, %j, %c0 : index
    %jm = arith.subi %j, %c1 : index
    %jl = arith.select %first, %j, %jm : index
    %lastp = arith.cmpi eq, %j, %last : index
    %jp = arith.addi %j, %c1 : index
    %jr = arith.select %lastp, %j, %jp : index
    %l = memref.load %A[%jl] : memref<?xf32>
    %c = affine.load %A[%j] : memref<?xf32>
    %r = memref.load %A[%jr] : memref<?xf32>
    %s = arith.addf %l, %c : f32
    %t = arith.addf %s, %r : f32
    affine.store %t, %B[%j] : memref<?xf32>
  }
  func.return
}

// -----

// Two clamped dims (the first row, the last column): the guards hoisted, every piece a 2-D region.
// CHECK-LABEL: func.func @blur2d
// CHECK: domain [1:n - 1, 1:m - 1] iterators [parallel, parallel]
// REMARK: remark: extract-streams: loop split at its first iteration: its body tests the index against it
// REMARK: remark: extract-streams: loop split at its last iteration: its body tests the index against it
// REMARK-NOT: not extracted
func.func @blur2d(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nl = arith.subi %n, %c1 : index
  %ml = arith.subi %m, %c1 : index
  affine.for %i = 0 to %n {
    %top = arith.cmpi eq, %i, %c0 : index
    %im = arith.subi %i, %c1 : index
    %iu = arith.select %top, %i, %im : index
    affine.for %j = 0 to %m {
      %right = arith.cmpi eq, %j, %ml : index
      %jp = arith.addi %j, %c1 : index
      %jr = arith.select %right, %j, %jp : index
      %u = memref.load %A[%iu, %j] : memref<?x?xf32>
      %r = memref.load %A[%i, %jr] : memref<?x?xf32>
      %s = arith.addf %u, %r : f32
      affine.store %s, %B[%i, %j] : memref<?x?xf32>
    }
  }
  func.return
}
