// extract-streams: reductions written as nested iter_args loops (as cgeist prints
// a fold over a 2-D array) are one region reducing over both dims; min/max as
// cgeist prints fmin/fmax (maxnumf/minnumf) and ternaries (a select of a compare).
//
// RUN: infs-opt %s --split-input-file -p extract-streams 2>/dev/null | filecheck %s
// RUN: infs-opt %s --split-input-file -p 'extract-streams{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// CHECK-LABEL: func.func @sum_of_squares
// CHECK:         stream.region ins(%A : memref<?x?xf32>) syms(m = %m : index, n = %n : index) domain [0:n, 0:m] iterators [reduction, reduction] -> f32 {
// CHECK:           arith.mulf
// CHECK:           stream.reduce add %{{.*}} over [0, 1] : !stream.stream<f32> -> f32
// CHECK-NOT:     scf.for
// CHECK:         func.return
func.func @sum_of_squares(%A: memref<?x?xf32>, %n: index, %m: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  // REMARK: reductions.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n, 0:m] iterators [reduction, reduction]
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (f32) {
    %r2 = scf.for %j = %c0 to %m step %c1 iter_args(%b = %a) -> (f32) {
      %x = memref.load %A[%i, %j] : memref<?x?xf32>
      %x2 = arith.mulf %x, %x : f32
      %s = arith.addf %b, %x2 : f32
      scf.yield %s : f32
    }
    scf.yield %r2 : f32
  }
  func.return %r : f32
}

// -----

// fmax: maxnumf skips a NaN; the fold's max propagates it, so a NaN is read as
// the identity first.  A non-identity initial value that is not NaN (a
// constant) is combined on the host.
// CHECK-LABEL: func.func @fmax
// CHECK:         %[[R:.*]] = stream.region ins(%A : memref<4x?xf32>) {{.*}} domain [0:4, 0:m] iterators [reduction, reduction] -> f32 {
// CHECK:             arith.cmpf une
// CHECK:             arith.select
// CHECK:           stream.reduce max %{{.*}} over [0, 1]
// CHECK:         arith.maxnumf %{{.*}}, %[[R]] : f32
func.func @fmax(%A: memref<4x?xf32>, %m: index) -> f32 {
  %init = arith.constant 0.0 : f32
  // REMARK: reductions.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:4, 0:m] iterators [reduction, reduction]
  %r = affine.for %i = 0 to 4 iter_args(%a = %init) -> (f32) {
    %r2 = affine.for %j = 0 to %m iter_args(%b = %a) -> (f32) {
      %x = affine.load %A[%i, %j] : memref<4x?xf32>
      %s = arith.maxnumf %b, %x : f32
      affine.yield %s : f32
    }
    affine.yield %r2 : f32
  }
  func.return %r : f32
}

// -----

// From an argument that may be NaN: fmax(NaN, all-NaN elements) is NaN, the
// region's fold would be its identity.
// CHECK-LABEL: func.func @fmax_from_an_argument
// CHECK-NOT:     stream.region
func.func @fmax_from_an_argument(%A: memref<4x?xf32>, %m: index, %init: f32) -> f32 {
  // REMARK: reductions.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: iter_arg #0 of the reduction loop is a 'arith.maxnumf' fold from a value that may be NaN
  %r = affine.for %i = 0 to 4 iter_args(%a = %init) -> (f32) {
    %r2 = affine.for %j = 0 to %m iter_args(%b = %a) -> (f32) {
      %x = affine.load %A[%i, %j] : memref<4x?xf32>
      %s = arith.maxnumf %b, %x : f32
      affine.yield %s : f32
    }
    affine.yield %r2 : f32
  }
  func.return %r : f32
}

// -----

// A ternary min over i32 (b < x ? b : x) is a min fold; a row per host
// iteration when the sum is stored per row.
// CHECK-LABEL: func.func @imin_rows
// CHECK:         stream.region ins(%A, %B : memref<?x?xi32>, memref<?xi32>) {{.*}} domain [0:n, 0:m, 0:k] iterators [parallel, reduction, reduction] {
// CHECK:           stream.reduce min %{{.*}} over [1, 2]
func.func @imin_rows(%A: memref<?x?xi32>, %B: memref<?xi32>, %n: index, %m: index, %k: index) {
  %big = arith.constant 2147483647 : i32
  // REMARK: reductions.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n, 0:m, 0:k] iterators [parallel, reduction, reduction]
  affine.for %r = 0 to %n {
    %v = affine.for %i = 0 to %m iter_args(%a = %big) -> (i32) {
      %v2 = affine.for %j = 0 to %k iter_args(%b = %a) -> (i32) {
        %x = affine.load %A[%r, %i + %j] : memref<?x?xi32>
        %c = arith.cmpi slt, %b, %x : i32
        %s = arith.select %c, %b, %x : i32
        affine.yield %s : i32
      }
      affine.yield %v2 : i32
    }
    affine.store %v, %B[%r] : memref<?xi32>
  }
  func.return
}

// -----

// A float ternary max without fastmath<nnan,nsz> is not a fold: which NaN or
// which zero it keeps depends on the order.
// CHECK-LABEL: func.func @ternary_fmax
// CHECK-NOT:     stream.region
func.func @ternary_fmax(%A: memref<?x?xf32>, %n: index, %m: index) -> f32 {
  %ninf = arith.constant 0xFF800000 : f32
  // REMARK: reductions.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: iter_arg #0 of the reduction loop is a max written as a compare and a select whose compare is not fastmath<nnan,nsz>
  %r = affine.for %i = 0 to %n iter_args(%a = %ninf) -> (f32) {
    %r2 = affine.for %j = 0 to %m iter_args(%b = %a) -> (f32) {
      %x = affine.load %A[%i, %j] : memref<?x?xf32>
      %c = arith.cmpf ogt, %b, %x : f32
      %s = arith.select %c, %b, %x : f32
      affine.yield %s : f32
    }
    affine.yield %r2 : f32
  }
  func.return %r : f32
}

// -----

// With fastmath<fast> (cgeist -ffast-math) the same ternary is a max fold.
// CHECK-LABEL: func.func @ternary_fmax_fast
// CHECK:         stream.reduce max %{{.*}} over [0, 1]
func.func @ternary_fmax_fast(%A: memref<?x?xf32>, %n: index, %m: index) -> f32 {
  %ninf = arith.constant 0xFF800000 : f32
  // REMARK: reductions.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n, 0:m] iterators [reduction, reduction]
  %r = affine.for %i = 0 to %n iter_args(%a = %ninf) -> (f32) {
    %r2 = affine.for %j = 0 to %m iter_args(%b = %a) -> (f32) {
      %x = affine.load %A[%i, %j] : memref<?x?xf32>
      %c = arith.cmpf ogt, %x, %b fastmath<fast> : f32
      %s = arith.select %c, %x, %b : f32
      affine.yield %s : f32
    }
    affine.yield %r2 : f32
  }
  func.return %r : f32
}

// -----

// The inner loop's bounds depend on the outer index (a triangle): not one
// rectangular domain; the outer loop stays on the host and the inner fold is a
// region per host iteration, added to the accumulator there.
// CHECK-LABEL: func.func @triangle
// CHECK:         scf.for %i = {{.*}} iter_args(%a = %z) -> (f32) {
// CHECK-NEXT:      %[[R:.*]] = stream.region ins(%A : memref<?x?xf32>) syms(i = %i : index) domain [0:i] iterators [reduction] -> f32 {
// CHECK:           arith.addf %a, %[[R]] : f32
func.func @triangle(%A: memref<?x?xf32>, %n: index) -> f32 {
  %z = arith.constant 0.0 : f32
  // REMARK: reductions.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: a bound (d0) depends on an enclosing loop of the region: not a rectangular domain
  %r = affine.for %i = 0 to %n iter_args(%a = %z) -> (f32) {
    // REMARK: reductions.mlir:[[# @LINE + 1]]:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:i] iterators [reduction]
    %r2 = affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) iter_args(%b = %a) -> (f32) {
      %x = affine.load %A[%i, %j] : memref<?x?xf32>
      %s = arith.addf %b, %x : f32
      affine.yield %s : f32
    }
    affine.yield %r2 : f32
  }
  func.return %r : f32
}
