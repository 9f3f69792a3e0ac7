// extract-streams distributes a nest over its statements when no array one
// statement writes is shared with another between iterations (C's
// `C[i][j] = 0; for (k...) C[i][j] += ...`, as cgeist prints it), and says
// why not otherwise.
//
// RUN: infs-opt %s --split-input-file -p extract-streams 2>/dev/null | filecheck %s
// RUN: infs-opt %s --split-input-file -p 'extract-streams{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// CHECK-LABEL: func.func @init_then_accumulate
// CHECK:         stream.region ins(%C : memref<?x?xf64>) syms(m = %m : index, n = %n : index) domain [0:m, 0:n] iterators [parallel, parallel] {
// CHECK:           stream.store %{{.*}} -> %C_1[d0, d1]
// CHECK:         stream.region ins(%A, %B, %{{.*}} : {{.*}}) syms(k = %k : index, m = %m : index, n = %n : index) domain [0:m, 0:n, 0:k] iterators [parallel, parallel, reduction] {
// CHECK:         stream.region ins(%C, %{{.*}} : {{.*}}) syms(m = %m : index, n = %n : index) domain [0:m, 0:n] iterators [parallel, parallel] {
// CHECK-NOT:     affine.
func.func @init_then_accumulate(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>, %m: index, %n: index, %k: index) {
  %zero = arith.constant 0.0 : f64
  // REMARK: distribute.mlir:[[# @LINE + 3]]:3: remark: extract-streams: loop nest distributed into 2 nests, one per statement (the body of the loop at line [[# @LINE + 4]] holds 1 loop and 1 other op (not perfectly nested); no array one statement writes is shared with another between iterations)
  // REMARK-NEXT: distribute.mlir:[[# @LINE + 2]]:3: remark: extract-streams: statement 1 of 2: loop nest extracted into 1 stream.region: domain [0:m, 0:n] iterators [parallel, parallel]
  // REMARK-NEXT: distribute.mlir:[[# @LINE + 1]]:3: remark: extract-streams: statement 2 of 2: loop nest extracted into 2 stream.regions: domain [0:m, 0:n, 0:k] iterators [parallel, parallel, reduction]; domain [0:m, 0:n] iterators [parallel, parallel] (the accumulation through a temporary: the fold, then the update)
  affine.for %i = 0 to %m {
    affine.for %j = 0 to %n {
      affine.store %zero, %C[%i, %j] : memref<?x?xf64>
      affine.for %kk = 0 to %k {
        %a = affine.load %A[%i, %kk] : memref<?x?xf64>
        %b = affine.load %B[%kk, %j] : memref<?x?xf64>
        %c = affine.load %C[%i, %j] : memref<?x?xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %C[%i, %j] : memref<?x?xf64>
      }
    }
  }
  func.return
}

// -----

// bicg: s[j] += r[i] * A[i][j] and q[i] += A[i][j] * p[j] in one body fold
// over different loops, so the nest is not one region; each statement alone
// is (s's fold over i is outermost: i stays on the host around its region).
// CHECK-LABEL: func.func @two_folds
// CHECK:         scf.for %i = %{{.*}} to %n step %{{.*}} {
// CHECK-NEXT:      stream.region ins(%s, %r, %A : {{.*}}) syms(i = %i : index, m = %m : index) domain [0:m] iterators [parallel] {
// CHECK:         stream.region ins(%A, %p, %{{.*}} : {{.*}}) syms(m = %m : index, n = %n : index) domain [0:n, 0:m] iterators [parallel, reduction] {
// CHECK:         stream.region ins(%q, %{{.*}} : {{.*}}) syms(n = %n : index) domain [0:n] iterators [parallel] {
func.func @two_folds(%A: memref<?x?xf64>, %s: memref<?xf64>, %q: memref<?xf64>, %p: memref<?xf64>, %r: memref<?xf64>, %m: index, %n: index) {
  // REMARK: distribute.mlir:[[# @LINE + 4]]:3: remark: extract-streams: loop nest distributed into 2 nests, one per statement (the whole nest is not one region: reductions over different loops in one body; no array one statement writes is shared with another between iterations)
  // REMARK-NEXT: distribute.mlir:[[# @LINE + 4]]:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:m] iterators [parallel]
  // REMARK-NEXT: distribute.mlir:[[# @LINE + 2]]:3: remark: extract-streams: statement 1 of 2: loop at line [[# @LINE + 2]] stays on the host around the region: {{.*}} the accumulation loop is outermost, so it stays on the host (outer-product order)
  // REMARK-NEXT: distribute.mlir:[[# @LINE + 1]]:3: remark: extract-streams: statement 2 of 2: loop nest extracted into 2 stream.regions: domain [0:n, 0:m] iterators [parallel, reduction]; domain [0:n] iterators [parallel]
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %m {
      %0 = affine.load %s[%j] : memref<?xf64>
      %1 = affine.load %r[%i] : memref<?xf64>
      %2 = affine.load %A[%i, %j] : memref<?x?xf64>
      %3 = arith.mulf %1, %2 : f64
      %4 = arith.addf %0, %3 : f64
      affine.store %4, %s[%j] : memref<?xf64>
      %5 = affine.load %q[%i] : memref<?xf64>
      %6 = affine.load %A[%i, %j] : memref<?x?xf64>
      %7 = affine.load %p[%j] : memref<?xf64>
      %8 = arith.mulf %6, %7 : f64
      %9 = arith.addf %5, %8 : f64
      affine.store %9, %q[%i] : memref<?xf64>
    }
  }
  func.return
}

// -----

// doitgen's sum[p] is rewritten at every (r, q): shared between iterations of
// the band, so the band is not distributed (its inner nests are, on their own).
// CHECK-LABEL: func.func @shared_temporary
// CHECK:         scf.for %r =
// CHECK:           scf.for %q =
// CHECK-NEXT:        stream.region ins(%A, %C4, %sum : {{.*}}) {{.*}} domain [0:np] iterators [parallel]
// CHECK:             stream.region ins(%sum, %A : {{.*}}) {{.*}} domain [0:np] iterators [parallel]
func.func @shared_temporary(%A: memref<?x?x?xf64>, %C4: memref<?x?xf64>, %sum: memref<?xf64>, %nr: index, %nq: index, %np: index) {
  // REMARK: distribute.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted as a whole: the body of the loop at line [[# @LINE + 2]] holds 2 loops and 0 other ops (not perfectly nested); its inner loop nests are tried on their own (not distributed: %sum, written by one statement and accessed by another, is shared between iterations of the loop at line [[# @LINE + 1]])
  affine.for %r = 0 to %nr {
    affine.for %q = 0 to %nq {
      affine.for %p = 0 to %np {
        %0 = affine.load %A[%r, %q, %p] : memref<?x?x?xf64>
        %1 = affine.load %C4[%p, %p] : memref<?x?xf64>
        %2 = arith.mulf %0, %1 : f64
        affine.store %2, %sum[%p] : memref<?xf64>
      }
      affine.for %p = 0 to %np {
        %0 = affine.load %sum[%p] : memref<?xf64>
        affine.store %0, %A[%r, %q, %p] : memref<?x?x?xf64>
      }
    }
  }
  func.return
}

// -----

// cgeist's sizes: i32 arguments cast to index once; the region's symbols take
// the arguments' names.
// CHECK-LABEL: func.func @cgeist_sizes
// CHECK:         stream.region ins(%arg2 : memref<?x30xf64>) syms(arg0 = %{{.*}} : index, arg1 = %{{.*}} : index) domain [0:arg0, 0:arg1]
func.func @cgeist_sizes(%arg0: i32, %arg1: i32, %arg2: memref<?x30xf64>) {
  %cst = arith.constant 2.0 : f64
  %0 = arith.index_cast %arg1 : i32 to index
  %1 = arith.index_cast %arg0 : i32 to index
  affine.for %arg3 = 0 to %1 {
    affine.for %arg4 = 0 to %0 {
      %2 = affine.load %arg2[%arg3, %arg4] : memref<?x30xf64>
      %3 = arith.mulf %2, %cst : f64
      affine.store %3, %arg2[%arg3, %arg4] : memref<?x30xf64>
    }
  }
  func.return
}
