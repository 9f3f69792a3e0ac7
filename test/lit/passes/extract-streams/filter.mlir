// extract-streams finds filters (NSC's filtered streams, §II-A; a condition as
// predication in the stream's configuration, §III-B) in plain loops: an scf.if
// yielding nothing around stores is a filtered stream.store / stream.atomic
// (`if %m`; the else side's on the negated condition), and `if (w < D[v]) D[v] = w`
// an atomic min.  The filter's loads and arithmetic run at every point, so
// what may fail where the condition does not hold keeps the nest on the host.
//
// RUN: infs-opt %s --split-input-file -p 'extract-streams' | filecheck %s
// RUN: infs-opt %s --split-input-file -p 'extract-streams{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// if/else around affine stores and an indirect update.
// CHECK-LABEL: func.func @if_else
// CHECK: stream.region
// CHECK: %[[X:.*]] = stream.load %{{.*}}[d0] : memref<?xi32> -> !stream.stream<i32>
// CHECK-NEXT: %[[M:.*]] = stream.compute(%[[X]], %{{.*}} : !stream.stream<i32>, i32) -> !stream.stream<i1> {
// CHECK: arith.cmpi sgt
// CHECK: stream.store %[[X]] -> %{{.*}}[d0] if %[[M]] : !stream.stream<i32> -> memref<?xi32>
// CHECK: stream.atomic add %{{.*}} -> %{{.*}}[%[[X]]] if %[[M]] : !stream.stream<i32> -> memref<?xi32>
// CHECK: %[[NOT:.*]] = stream.compute(%[[M]] : !stream.stream<i1>) -> !stream.stream<i1> {
// CHECK: arith.xori
// CHECK: stream.store %{{.*}} -> %{{.*}}[d0] if %[[NOT]] : !stream.stream<i32> -> memref<?xi32>
// CHECK-NOT: scf.if
func.func @if_else(%A: memref<?xi32>, %B: memref<?xi32>, %H: memref<?xi32>, %n: index, %t: i32) {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  // REMARK: filter.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [parallel]
  affine.for %i = 0 to %n {
    %x = affine.load %A[%i] : memref<?xi32>
    %big = arith.cmpi sgt, %x, %t : i32
    scf.if %big {
      affine.store %x, %B[%i] : memref<?xi32>
      %k = arith.index_cast %x : i32 to index
      %h = memref.load %H[%k] : memref<?xi32>
      %h1 = arith.addi %h, %one : i32
      memref.store %h1, %H[%k] : memref<?xi32>
    } else {
      %nx = arith.subi %zero, %x : i32
      affine.store %nx, %B[%i] : memref<?xi32>
    }
  }
  func.return
}

// -----

// A relaxation (sssp's): the filter is the update's own test, an atomic min.
// CHECK-LABEL: func.func @relax
// CHECK: %[[V:.*]] = stream.load %{{.*}}[d0]
// CHECK-NEXT: %[[W:.*]] = stream.load %{{.*}}[d0]
// CHECK-NEXT: stream.atomic min %[[W]] -> %{{.*}}[%[[V]]] : !stream.stream<i32> -> memref<?xi32>
func.func @relax(%V: memref<?xi32>, %W: memref<?xi32>, %D: memref<?xi32>, %n: index) {
  // REMARK: filter.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region
  affine.for %i = 0 to %n {
    %v = affine.load %V[%i] : memref<?xi32>
    %w = affine.load %W[%i] : memref<?xi32>
    %vi = arith.index_cast %v : i32 to index
    %d = memref.load %D[%vi] : memref<?xi32>
    %better = arith.cmpi sgt, %d, %w : i32
    scf.if %better {
      memref.store %w, %D[%vi] : memref<?xi32>
    }
  }
  func.return
}

// -----

// Nested filters: the inner store on both conditions.
// CHECK-LABEL: func.func @nested
// CHECK: arith.andi
// CHECK: stream.store %{{.*}} -> %{{.*}}[d0] if %{{.*}} : !stream.stream<f32> -> memref<?xf32>
func.func @nested(%A: memref<?xf32>, %B: memref<?xf32>, %n: index, %lo: f32, %hi: f32) {
  // REMARK: filter.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region
  affine.for %i = 0 to %n {
    %x = affine.load %A[%i] : memref<?xf32>
    %above = arith.cmpf ogt, %x, %lo : f32
    scf.if %above {
      %below = arith.cmpf olt, %x, %hi : f32
      scf.if %below {
        affine.store %x, %B[%i] : memref<?xf32>
      }
    }
  }
  func.return
}

// -----

// A value loaded at a loaded index inside the filter: out of bounds, maybe, where it fails.
func.func @guarded_gather(%P: memref<?xi32>, %X: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  %zero = arith.constant 0 : i32
  // REMARK: filter.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: the 'scf.if' at line [[# @LINE + 4]] loads %X at an index loaded from memory inside the filter: a filtered stream loads at every point, and that index may be out of bounds where the filter fails
  affine.for %i = 0 to %n {
    %p = affine.load %P[%i] : memref<?xi32>
    %ok = arith.cmpi sge, %p, %zero : i32
    scf.if %ok {
      %pi = arith.index_cast %p : i32 to index
      %x = memref.load %X[%pi] : memref<?xf32>
      affine.store %x, %B[%i] : memref<?xf32>
    }
  }
  func.return
}

// -----

// A filtered accumulation into one cell: not a filtered stream (yet).
func.func @filtered_sum(%A: memref<?xf32>, %S: memref<1xf32>, %n: index) {
  %z = arith.constant 0.0 : f32
  // REMARK: filter.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: the filtered store to %S does not move with the loop(s) at line [[# @LINE + 1]] (a filtered accumulation)
  affine.for %i = 0 to %n {
    %x = affine.load %A[%i] : memref<?xf32>
    %pos = arith.cmpf ogt, %x, %z : f32
    scf.if %pos {
      %s = affine.load %S[0] : memref<1xf32>
      %s1 = arith.addf %s, %x : f32
      affine.store %s1, %S[0] : memref<1xf32>
    }
  }
  func.return
}

// -----

// A division inside the filter: it would run where the filter fails.
func.func @guarded_division(%A: memref<?xi32>, %B: memref<?xi32>, %n: index) {
  %zero = arith.constant 0 : i32
  %c = arith.constant 100 : i32
  // REMARK: filter.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: the 'scf.if' at line [[# @LINE + 4]] holds 'arith.divsi' by a divisor that may be 0 or -1: a filtered stream computes at every point
  affine.for %i = 0 to %n {
    %x = affine.load %A[%i] : memref<?xi32>
    %nz = arith.cmpi ne, %x, %zero : i32
    scf.if %nz {
      %q = arith.divsi %c, %x : i32
      affine.store %q, %B[%i] : memref<?xi32>
    }
  }
  func.return
}
