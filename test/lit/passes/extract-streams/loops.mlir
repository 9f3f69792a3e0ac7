// extract-streams: plain loop nests -> stream.regions, and why the others stay
// on the host (one remark per nest, with its location, as MLIR's optimization
// remarks).  The dependence test is the stream dialect's own
// (stream.loop_carried_dependence).
//
// RUN: infs-opt %s --split-input-file -p extract-streams 2>/dev/null | filecheck %s
// RUN: infs-opt %s --split-input-file -p 'extract-streams{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK
// The output is a valid stream program (it parses and verifies again):
// RUN: infs-opt %s --split-input-file -p extract-streams 2>/dev/null | infs-opt --split-input-file -p tensorize | filecheck %s --check-prefix=TDFG

// CHECK-LABEL: func.func @vec_add
// CHECK-NEXT:    stream.region ins(%A, %B, %C : memref<?xf32>, memref<?xf32>, memref<?xf32>) syms(n = %n : index) domain [0:n] iterators [parallel] {
// CHECK:           stream.load %{{.*}}[d0]
// CHECK:           stream.load %{{.*}}[d0]
// CHECK:           arith.addf
// CHECK:           stream.store %{{.*}} -> %{{.*}}[d0]
// CHECK-NOT:     affine.
// CHECK:         func.return
// TDFG-LABEL: func.func @vec_add
// TDFG: tdfg.graph
func.func @vec_add(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %n: index) {
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [parallel]
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xf32>
    %b = affine.load %B[%i] : memref<?xf32>
    %s = arith.addf %a, %b : f32
    affine.store %s, %C[%i] : memref<?xf32>
  }
  func.return
}

// -----

// 3-point stencil inside a time loop (ping-pong): the time loop stays a host
// scf.for around the two regions, as infs/workloads/stencil1d.mlir does by hand.
// CHECK-LABEL: func.func @stencil1d
// CHECK:         scf.for %it = %{{.*}} to %t step %{{.*}} {
// CHECK-NEXT:      stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(n = %n : index, w0 = %w0 : f32, w1 = %w1 : f32, w2 = %w2 : f32) domain [1:n - 1] iterators [parallel] {
// CHECK:             stream.load %A_1[d0 - 1]
// CHECK-NEXT:        stream.load %A_1[d0]
// CHECK-NEXT:        stream.load %A_1[d0 + 1]
// CHECK:             stream.store %{{.*}} -> %B_1[d0]
// CHECK:           stream.region ins(%B, %A : memref<?xf32>, memref<?xf32>) syms(n = %n : index) domain [1:n - 1] iterators [parallel] {
// CHECK:             stream.store %{{.*}} -> %A_1[d0]
func.func @stencil1d(%A: memref<?xf32>, %B: memref<?xf32>, %n: index, %t: index, %w0: f32, %w1: f32, %w2: f32) {
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted as a whole: its body holds 2 loops and 0 other ops (not perfectly nested); its inner loop nests are tried on their own
  affine.for %it = 0 to %t {
    // REMARK: loops.mlir:[[# @LINE + 1]]:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [1:n - 1] iterators [parallel]
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %l = affine.load %A[%i - 1] : memref<?xf32>
      %c = affine.load %A[%i] : memref<?xf32>
      %r = affine.load %A[%i + 1] : memref<?xf32>
      %p0 = arith.mulf %w0, %l : f32
      %p1 = arith.mulf %w1, %c : f32
      %p2 = arith.mulf %w2, %r : f32
      %s0 = arith.addf %p0, %p1 : f32
      %s1 = arith.addf %s0, %p2 : f32
      affine.store %s1, %B[%i] : memref<?xf32>
    }
    // REMARK: loops.mlir:[[# @LINE + 1]]:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [1:n - 1] iterators [parallel]
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %v = affine.load %B[%i] : memref<?xf32>
      affine.store %v, %A[%i] : memref<?xf32>
    }
  }
  func.return
}

// -----

// The same time loop as a perfect nest: B[i] does not move with t (each step
// overwrites it), so t stays on the host and the i loop is the region.
// CHECK-LABEL: func.func @stencil_perfect
// CHECK:         scf.for %it =
// CHECK-NEXT:      stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(n = %n : index) domain [1:n - 1] iterators [parallel]
func.func @stencil_perfect(%A: memref<?xf32>, %B: memref<?xf32>, %n: index, %t: index) {
  // REMARK: loops.mlir:[[# @LINE + 3]]:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [1:n - 1] iterators [parallel]
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop at line [[# @LINE + 1]] stays on the host around the region: the store to %B does not move with the loop(s) at line [[# @LINE + 1]] and is not an add/mul/min/max accumulation (an output dependence)
  affine.for %it = 0 to %t {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %l = affine.load %A[%i - 1] : memref<?xf32>
      %r = affine.load %A[%i + 1] : memref<?xf32>
      %s = arith.addf %l, %r : f32
      affine.store %s, %B[%i] : memref<?xf32>
    }
  }
  func.return
}

// -----

// mm as i/j/k loops, C[i,j] += A[i,k] * B[k,j]: k folds into a temporary
// (region 1, k a reduction dim), then C is updated (region 2).
// CHECK-LABEL: func.func @mm
// CHECK:         %[[T:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf32>
// CHECK-NEXT:    stream.region ins(%A, %B, %[[T]] : {{.*}}) syms(k = %k : index, m = %m : index, n = %n : index) domain [0:m, 0:n, 0:k] iterators [parallel, parallel, reduction] {
// CHECK:           stream.load %A_1[d0, d2]
// CHECK:           stream.load %B_1[d2, d1]
// CHECK:           arith.mulf
// CHECK:           %[[R:.*]] = stream.reduce add %{{.*}} over [2] : !stream.stream<f32> -> !stream.stream<f32>
// CHECK-NEXT:      stream.store %[[R]] -> %{{.*}}[d0, d1]
// CHECK:         stream.region ins(%C, %[[T]] : {{.*}}) syms(m = %m : index, n = %n : index) domain [0:m, 0:n] iterators [parallel, parallel] {
// CHECK:           stream.load %C_1[d0, d1]
// CHECK:           arith.addf
// CHECK:           stream.store %{{.*}} -> %C_1[d0, d1]
// CHECK:         memref.dealloc %[[T]]
func.func @mm(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %m: index, %n: index, %k: index) {
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 2 stream.regions: domain [0:m, 0:n, 0:k] iterators [parallel, parallel, reduction]; domain [0:m, 0:n] iterators [parallel, parallel] (the accumulation through a temporary: the fold, then the update)
  affine.for %i = 0 to %m {
    affine.for %j = 0 to %n {
      affine.for %kk = 0 to %k {
        %a = affine.load %A[%i, %kk] : memref<?x?xf32>
        %b = affine.load %B[%kk, %j] : memref<?x?xf32>
        %c = affine.load %C[%i, %j] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<?x?xf32>
      }
    }
  }
  func.return
}

// -----

// Matrix-vector product with the row sum as an iter_args accumulation: one
// region, j a reduction dim, the sum stored by y[i].
// CHECK-LABEL: func.func @mv
// CHECK:         stream.region ins(%A, %x, %y : {{.*}}) syms(m = %m : index, n = %n : index) domain [0:m, 0:n] iterators [parallel, reduction] {
// CHECK:           stream.load %A_1[d0, d1]
// CHECK:           stream.load %x_1[d1]
// CHECK:           %[[R:.*]] = stream.reduce add %{{.*}} over [1] : !stream.stream<f32> -> !stream.stream<f32>
// CHECK-NEXT:      stream.store %[[R]] -> %y_1[d0]
func.func @mv(%A: memref<?x?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index) {
  %zero = arith.constant 0.0 : f32
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:m, 0:n] iterators [parallel, reduction]
  affine.for %i = 0 to %m {
    %sum = affine.for %j = 0 to %n iter_args(%acc = %zero) -> (f32) {
      %a = affine.load %A[%i, %j] : memref<?x?xf32>
      %b = affine.load %x[%j] : memref<?xf32>
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %sum, %y[%i] : memref<?xf32>
  }
  func.return
}

// -----

// A whole-array sum returned to the host (scf.for, memref.load, i32): the
// region's result replaces the loop's.
// CHECK-LABEL: func.func @array_sum
// CHECK:         %[[S:.*]] = stream.region ins(%A : memref<?xi32>) syms(n = %n : index) domain [0:n] iterators [reduction] -> i32 {
// CHECK:           %[[R:.*]] = stream.reduce add %{{.*}} over [0] : !stream.stream<i32> -> i32
// CHECK-NEXT:      stream.yield %[[R]] : i32
// CHECK:         %[[T:.*]] = arith.addi %{{.*}}, %[[S]] : i32
// CHECK-NEXT:    func.return %[[T]] : i32
func.func @array_sum(%A: memref<?xi32>, %n: index) -> i32 {
  %init = arith.constant 7 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [reduction]
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (i32) {
    %a = memref.load %A[%i] : memref<?xi32>
    %s = arith.addi %acc, %a : i32
    scf.yield %s : i32
  }
  func.return %r : i32
}

// -----

// seidel-2d: the in-place 9-point update reads cells written by earlier
// iterations of every loop: nothing is extracted, the nest stays host loops.
// CHECK-LABEL: func.func @seidel_2d
// CHECK-NOT:     stream.region
// CHECK:         scf.for %tt =
// CHECK:           scf.for %i =
// CHECK:             scf.for %j =
// CHECK:               memref.store %{{.*}}, %A[%i, %j]
// CHECK-NOT:     stream.region
// CHECK:         func.return
func.func @seidel_2d(%A: memref<?x?xf32>, %n: index, %t: index) {
  %nine = arith.constant 9.0 : f32
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: has a loop-carried dependence: the 'stream.load' at line [[# @LINE + 7]] may read a cell of %A written by the 'stream.store' at line [[# @LINE + 22]] in an earlier iteration
  affine.for %tt = 0 to %t {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
        %a0 = affine.load %A[%i - 1, %j - 1] : memref<?x?xf32>
        %a1 = affine.load %A[%i - 1, %j] : memref<?x?xf32>
        %a2 = affine.load %A[%i - 1, %j + 1] : memref<?x?xf32>
        %a3 = affine.load %A[%i, %j - 1] : memref<?x?xf32>
        %a4 = affine.load %A[%i, %j] : memref<?x?xf32>
        %a5 = affine.load %A[%i, %j + 1] : memref<?x?xf32>
        %a6 = affine.load %A[%i + 1, %j - 1] : memref<?x?xf32>
        %a7 = affine.load %A[%i + 1, %j] : memref<?x?xf32>
        %a8 = affine.load %A[%i + 1, %j + 1] : memref<?x?xf32>
        %s1 = arith.addf %a0, %a1 : f32
        %s2 = arith.addf %s1, %a2 : f32
        %s3 = arith.addf %s2, %a3 : f32
        %s4 = arith.addf %s3, %a4 : f32
        %s5 = arith.addf %s4, %a5 : f32
        %s6 = arith.addf %s5, %a6 : f32
        %s7 = arith.addf %s6, %a7 : f32
        %s8 = arith.addf %s7, %a8 : f32
        %d = arith.divf %s8, %nine : f32
        affine.store %d, %A[%i, %j] : memref<?x?xf32>
      }
    }
  }
  func.return
}

// -----

// A guard in the body (affine.if) is host control flow: refused, lowered to scf.if.
// CHECK-LABEL: func.func @guarded
// CHECK-NOT:     stream.region
// CHECK:         scf.for %i =
// CHECK:           arith.cmpi sge
// CHECK:           scf.if
// CHECK-NOT:     affine.
func.func @guarded(%A: memref<?xf32>, %n: index) {
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: 'affine.if' in the loop body
  affine.for %i = 0 to %n {
    "affine.if"(%i) <{condition = affine_set<(d0) : (d0 - 5 >= 0)>}> ({
      %a = affine.load %A[%i] : memref<?xf32>
      %b = arith.addf %a, %a : f32
      affine.store %b, %A[%i] : memref<?xf32>
      affine.yield
    }, {
    }) : (index) -> ()
  }
  func.return
}

// -----

// A floordiv bound is not a rectangular domain over the sizes: refused, and
// the host loop computes the bound with arith.floordivsi.
// CHECK-LABEL: func.func @half
// CHECK-NOT:     stream.region
// CHECK:         arith.floordivsi %n,
// CHECK:         scf.for
func.func @half(%A: memref<?xf32>, %n: index) {
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: 'floordiv' in an index or bound ((s0 floordiv 2)) has no rectangular domain or affine map
  affine.for %i = 0 to affine_map<()[s0] -> (s0 floordiv 2)>()[%n] {
    %a = affine.load %A[%i] : memref<?xf32>
    %b = arith.addf %a, %a : f32
    affine.store %b, %A[%i] : memref<?xf32>
  }
  func.return
}

// -----

// cgeist's form: i32 sizes cast to index, scf.for, index arithmetic in i32,
// a mixed static/dynamic shape, f64 (the region is extracted; where it runs is the
// runtime's business: f64 runs in memory).
// CHECK-LABEL: func.func @cgeist_scale
// CHECK:         stream.region ins(%A, %B : memref<?x30xf64>, memref<?x30xf64>) syms(N = %N : index) domain [0:N, 1:N] iterators [parallel, parallel] {
// CHECK:           stream.load %A_1[d0, d1 - 1] : memref<?x30xf64> -> !stream.stream<f64>
// CHECK:           stream.store %{{.*}} -> %B_1[d0, d1]
func.func @cgeist_scale(%A: memref<?x30xf64>, %B: memref<?x30xf64>, %n: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1_i32 = arith.constant 1 : i32
  %N = arith.index_cast %n : i32 to index
  %two = arith.constant 2.0 : f64
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:N, 1:N] iterators [parallel, parallel]
  scf.for %i = %c0 to %N step %c1 {
    scf.for %j = %c1 to %N step %c1 {
      %ji = arith.index_cast %j : index to i32
      %jm = arith.subi %ji, %c1_i32 : i32
      %jx = arith.index_cast %jm : i32 to index
      %a = memref.load %A[%i, %jx] : memref<?x30xf64>
      %b = arith.mulf %a, %two : f64
      memref.store %b, %B[%i, %j] : memref<?x30xf64>
    }
  }
  func.return
}

// -----

// affine.parallel (a transpose) and scf.parallel bands (generic form: xDSL
// 0.74 has no custom syntax for them).
// CHECK-LABEL: func.func @par
// CHECK:         stream.region ins(%A, %B : {{.*}}) syms(n = %n : index) domain [0:n, 0:n] iterators [parallel, parallel] {
// CHECK:           stream.load %A_1[d1, d0]
// CHECK:           stream.store %{{.*}} -> %B_1[d0, d1]
// CHECK:         stream.region ins(%B, %A : {{.*}}) syms(n = %n : index) domain [0:n, 0:n] iterators [parallel, parallel] {
// CHECK:           math.absf
func.func @par(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n, 0:n] iterators [parallel, parallel]
  "affine.parallel"(%n, %n) <{lowerBoundsGroups = dense<1> : vector<2xi32>, upperBoundsGroups = dense<1> : vector<2xi32>, lowerBoundsMap = affine_map<() -> (0, 0)>, upperBoundsMap = affine_map<()[s0, s1] -> (s0, s1)>, reductions = [], steps = [1, 1]}> ({
  ^bb0(%i: index, %j: index):
    %a = affine.load %A[%j, %i] : memref<?x?xf32>
    affine.store %a, %B[%i, %j] : memref<?x?xf32>
    affine.yield
  }) : (index, index) -> ()
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n, 0:n] iterators [parallel, parallel]
  "scf.parallel"(%c0, %c0, %n, %n, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    %a = memref.load %B[%i, %j] : memref<?x?xf32>
    %b = math.absf %a : f32
    memref.store %b, %A[%i, %j] : memref<?x?xf32>
    scf.reduce
  }) : (index, index, index, index, index, index) -> ()
  func.return
}

// -----

// A triangular nest: j's bound depends on i, so i stays on the host.
// CHECK-LABEL: func.func @triangle
// CHECK:         scf.for %i =
// CHECK-NEXT:      stream.region ins(%A : memref<?x?xf32>) syms(i = %i : index) domain [0:i] iterators [parallel] {
// CHECK:             stream.load %A_1[d0, i]
// CHECK:             stream.store %{{.*}} -> %A_1[i, d0]
func.func @triangle(%A: memref<?x?xf32>, %n: index) {
  // REMARK: loops.mlir:[[# @LINE + 3]]:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:i] iterators [parallel]
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop at line [[# @LINE + 1]] stays on the host around the region: a bound (d0) depends on an enclosing loop of the region: not a rectangular domain
  affine.for %i = 0 to %n {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      %a = affine.load %A[%j, %i] : memref<?x?xf32>
      affine.store %a, %A[%i, %j] : memref<?x?xf32>
    }
  }
  func.return
}

// -----

// The last j wins: an output dependence that is not a reduction: not extracted.
// CHECK-LABEL: func.func @last_wins
// CHECK-NOT:     stream.region
// CHECK:         func.return
func.func @last_wins(%A: memref<?x?xf32>, %B: memref<?xf32>, %n: index) {
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: the store to %B does not move with the loop(s) at line [[# @LINE + 2]] and is not an add/mul/min/max accumulation (an output dependence)
  affine.for %i = 0 to %n {
    affine.for %j = 0 to %n {
      %a = affine.load %A[%i, %j] : memref<?x?xf32>
      affine.store %a, %B[%i] : memref<?xf32>
    }
  }
  func.return
}

// -----

// S[0] += A[i]: a fold over every loop into a fixed cell; the host adds the
// region's sum to the cell.
// CHECK-LABEL: func.func @sum_into
// CHECK:         %[[S:.*]] = stream.region ins(%A : memref<?xf32>) syms(n = %n : index) domain [0:n] iterators [reduction] -> f32 {
// CHECK:         %[[OLD:.*]] = memref.load %S[%{{.*}}] : memref<1xf32>
// CHECK-NEXT:    %[[NEW:.*]] = arith.addf %[[OLD]], %[[S]] : f32
// CHECK-NEXT:    memref.store %[[NEW]], %S[%{{.*}}] : memref<1xf32>
func.func @sum_into(%A: memref<?xf32>, %S: memref<1xf32>, %n: index) {
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [reduction]
  affine.for %i = 0 to %n {
    %s = affine.load %S[0] : memref<1xf32>
    %a = affine.load %A[%i] : memref<?xf32>
    %t = arith.addf %s, %a : f32
    affine.store %t, %S[0] : memref<1xf32>
  }
  func.return
}

// -----

// The accumulation reads the array it accumulates into (C[i] += C[k]): the
// sum sees updated cells, which no temporary can give: not extracted.
// CHECK-LABEL: func.func @self_sum
// CHECK-NOT:     stream.region
// CHECK:         func.return
func.func @self_sum(%C: memref<?xf32>, %n: index) {
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted:
  affine.for %i = 0 to %n {
    affine.for %k = 0 to %n {
      %c = affine.load %C[%i] : memref<?xf32>
      %d = affine.load %C[%k] : memref<?xf32>
      %s = arith.addf %c, %d : f32
      affine.store %s, %C[%i] : memref<?xf32>
    }
  }
  func.return
}

// -----

// A 5-point stencil with its 5 weights loaded on the host: 10 inputs, more
// than a near-stream function takes (8), so the taps split over computes.
// CHECK-LABEL: func.func @stencil2d
// CHECK:         stream.region ins(%A, %B : {{.*}}) syms(m = %m : index, n = %n : index, w0 = %{{.*}} : f32, w1 = %{{.*}} : f32, w2 = %{{.*}} : f32, w3 = %{{.*}} : f32, w4 = %{{.*}} : f32) domain [1:m - 1, 1:n - 1] iterators [parallel, parallel] {
// CHECK-COUNT-3:   stream.compute
// CHECK:           stream.store
func.func @stencil2d(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %W: memref<5xf32>, %m: index, %n: index) {
  %w0 = affine.load %W[0] : memref<5xf32>
  %w1 = affine.load %W[1] : memref<5xf32>
  %w2 = affine.load %W[2] : memref<5xf32>
  %w3 = affine.load %W[3] : memref<5xf32>
  %w4 = affine.load %W[4] : memref<5xf32>
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [1:m - 1, 1:n - 1] iterators [parallel, parallel]
  affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%m] {
    affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %a0 = affine.load %A[%i, %j] : memref<?x?xf32>
      %a1 = affine.load %A[%i - 1, %j] : memref<?x?xf32>
      %a2 = affine.load %A[%i + 1, %j] : memref<?x?xf32>
      %a3 = affine.load %A[%i, %j - 1] : memref<?x?xf32>
      %a4 = affine.load %A[%i, %j + 1] : memref<?x?xf32>
      %m0 = arith.mulf %w0, %a0 : f32
      %m1 = arith.mulf %w1, %a1 : f32
      %m2 = arith.mulf %w2, %a2 : f32
      %m3 = arith.mulf %w3, %a3 : f32
      %m4 = arith.mulf %w4, %a4 : f32
      %s1 = arith.addf %m0, %m1 : f32
      %s2 = arith.addf %s1, %m2 : f32
      %s3 = arith.addf %s2, %m3 : f32
      %s4 = arith.addf %s3, %m4 : f32
      affine.store %s4, %B[%i, %j] : memref<?x?xf32>
    }
  }
  func.return
}

// -----

// mm in k-i-j order (outer product): the accumulation loop k is outermost, so
// it stays a host loop around an element-wise region, as
// infs/workloads/mm_outer.mlir is written by hand.
// CHECK-LABEL: func.func @mm_kij
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for %kk =
// CHECK-NEXT:      stream.region ins(%A, %B, %C : {{.*}}) syms(kk = %kk : index, m = %m : index, n = %n : index) domain [0:m, 0:n] iterators [parallel, parallel] {
// CHECK:             stream.load %A_1[d0, kk]
// CHECK:             stream.load %B_1[kk, d1]
// CHECK:             stream.load %C_1[d0, d1]
// CHECK:             stream.store %{{.*}} -> %C_1[d0, d1]
func.func @mm_kij(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %m: index, %n: index, %k: index) {
  // REMARK: loops.mlir:[[# @LINE + 3]]:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:m, 0:n] iterators [parallel, parallel]
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop at line [[# @LINE + 1]] stays on the host around the region: has a loop-carried dependence: {{.*}}; the accumulation loop is outermost, so it stays on the host (outer-product order)
  affine.for %kk = 0 to %k {
    affine.for %i = 0 to %m {
      affine.for %j = 0 to %n {
        %a = affine.load %A[%i, %kk] : memref<?x?xf32>
        %b = affine.load %B[%kk, %j] : memref<?x?xf32>
        %c = affine.load %C[%i, %j] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<?x?xf32>
      }
    }
  }
  func.return
}

// -----

// An scf.parallel reduction (generic form) is read as the loop with iter_args
// it lowers to: a whole-array sum.
// CHECK-LABEL: func.func @par_sum
// CHECK:         %[[R:.*]] = stream.region ins(%A : memref<?xf32>) syms(n = %n : index) domain [0:n] iterators [reduction] -> f32 {
// CHECK:         func.return %[[R]] : f32
func.func @par_sum(%A: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  // REMARK: loops.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [reduction]
  %r = "scf.parallel"(%c0, %n, %c1, %z) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    %a = memref.load %A[%i] : memref<?xf32>
    "scf.reduce"(%a) ({
    ^bb1(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      "scf.reduce.return"(%s) : (f32) -> ()
    }) : (f32) -> ()
  }) : (index, index, index, f32) -> f32
  func.return %r : f32
}

// -----

// A triangular sum (k < i): the band is not rectangular, so i stays on the
// host and the accumulation loop is a fold per row.
// CHECK-LABEL: func.func @trisum
// CHECK:         scf.for %i =
// CHECK-NEXT:      %[[S:.*]] = stream.region ins(%A : memref<?x?xf32>) syms(i = %i : index) domain [0:i] iterators [reduction] -> f32 {
// CHECK:             stream.load %A_1[i, d0]
// CHECK:           memref.store %[[S]], %y[%i]
func.func @trisum(%A: memref<?x?xf32>, %y: memref<?xf32>, %n: index) {
  %z = arith.constant 0.0 : f32
  // REMARK: loops.mlir:[[# @LINE + 2]]:3: remark: extract-streams: loop nest not extracted: a bound (d0) depends on an enclosing loop of the region: not a rectangular domain
  // REMARK: loops.mlir:[[# @LINE + 2]]:5: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:i] iterators [reduction]
  affine.for %i = 0 to %n {
    %s = affine.for %k = 0 to affine_map<(d0) -> (d0)>(%i) iter_args(%acc = %z) -> (f32) {
      %a = affine.load %A[%i, %k] : memref<?x?xf32>
      %t = arith.addf %acc, %a : f32
      affine.yield %t : f32
    }
    affine.store %s, %y[%i] : memref<?xf32>
  }
  func.return
}
