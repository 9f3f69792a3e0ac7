// extract-streams: indices loaded from memory (NSC §II-B indirect streams) and
// argmin loops, as the gather_mlp and kmeans workloads are written as plain
// loops (infs/workloads/loops).  A gather is an indirect stream.load; an
// add/min/max update of the cell a loaded index selects is an indirect
// stream.atomic (the same updates in any order); a plain store at a loaded
// index, or an update that also reads the array, stays on the host.
//
// RUN: infs-opt %s --split-input-file -p extract-streams 2>/dev/null | filecheck %s
// RUN: infs-opt %s --split-input-file -p 'extract-streams{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// CHECK-LABEL: func.func @gather
// CHECK:         stream.region ins(%idx, %X, %G : memref<?xi32>, memref<?x?xf32>, memref<?x?xf32>) syms(m = %m : index, n = %n : index) domain [0:m, 0:n] iterators [parallel, parallel] {
// CHECK-NEXT:    ^{{.*}}(%idx_1: memref<?xi32>, %X_1: memref<?x?xf32>, %G_1: memref<?x?xf32>, %{{.*}}: index, %{{.*}}: index):
// CHECK-NEXT:      %[[R:.*]] = stream.load %idx_1[d0] : memref<?xi32> -> !stream.stream<i32>
// CHECK-NEXT:      %[[V:.*]] = stream.load %X_1[%[[R]], d1] : memref<?x?xf32> -> !stream.stream<f32>
// CHECK-NEXT:      stream.store %[[V]] -> %G_1[d0, d1]
func.func @gather(%X: memref<?x?xf32>, %idx: memref<?xi32>, %G: memref<?x?xf32>, %m: index, %n: index) {
  // REMARK: indirect.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:m, 0:n] iterators [parallel, parallel]
  affine.for %r = 0 to %m {
    affine.for %i = 0 to %n {
      %row = affine.load %idx[%r] : memref<?xi32>
      %ri = arith.index_cast %row : i32 to index
      %v = memref.load %X[%ri, %i] : memref<?x?xf32>
      affine.store %v, %G[%r, %i] : memref<?x?xf32>
    }
  }
  func.return
}

// -----

// A histogram: count[member[p]] += 1 and sums[member[p]][d] += F[p][d].
// CHECK-LABEL: func.func @histogram
// CHECK:         stream.region ins(%member, %count
// CHECK:           %[[M:.*]] = stream.load %member_1[d0] : memref<?xi32> -> !stream.stream<i32>
// CHECK:           stream.atomic add %{{.*}} -> %count_1[%[[M]]] : !stream.stream<i32> -> memref<?xi32>
// CHECK:         stream.region ins(%member, %F, %sums
// CHECK:           %[[M2:.*]] = stream.load %member_1[d0]
// CHECK-NEXT:      %[[X:.*]] = stream.load %F_1[d0, d1]
// CHECK-NEXT:      stream.atomic max %[[X]] -> %sums_1[%[[M2]], d1] : !stream.stream<f32> -> memref<?x?xf32>
func.func @histogram(%member: memref<?xi32>, %count: memref<?xi32>, %F: memref<?x?xf32>, %sums: memref<?x?xf32>, %p: index, %d: index) {
  %one = arith.constant 1 : i32
  // REMARK: indirect.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:p] iterators [parallel]
  affine.for %i = 0 to %p {
    %mb = affine.load %member[%i] : memref<?xi32>
    %mi = arith.index_cast %mb : i32 to index
    %c = memref.load %count[%mi] : memref<?xi32>
    %c1 = arith.addi %c, %one : i32
    memref.store %c1, %count[%mi] : memref<?xi32>
  }
  // REMARK: indirect.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:p, 0:d] iterators [parallel, parallel]
  affine.for %i = 0 to %p {
    affine.for %j = 0 to %d {
      %mb = affine.load %member[%i] : memref<?xi32>
      %mi = arith.index_cast %mb : i32 to index
      %x = affine.load %F[%i, %j] : memref<?x?xf32>
      %s = memref.load %sums[%mi, %j] : memref<?x?xf32>
      %t = arith.maximumf %x, %s : f32
      memref.store %t, %sums[%mi, %j] : memref<?x?xf32>
    }
  }
  func.return
}

// -----

// Kept on the host: a scatter (with repeated indices the last writer depends
// on the order), a multiplying update (stream.atomic has no mul), an update
// whose summand reads the array, a store at a fixed cell of a value loaded at a
// loaded index, an index with an offset.
// CHECK-LABEL: func.func @host
// CHECK-NOT:     stream.region
// CHECK:         func.return
func.func @host(%idx: memref<?xi32>, %A: memref<?xf32>, %X: memref<?xf32>, %n: index) {
  // REMARK: indirect.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: the store to %X at an index loaded from memory is not an add/min/max update of that cell (the last writer would depend on the order)
  affine.for %i = 0 to %n {
    %k = affine.load %idx[%i] : memref<?xi32>
    %ki = arith.index_cast %k : i32 to index
    %a = affine.load %A[%i] : memref<?xf32>
    memref.store %a, %X[%ki] : memref<?xf32>
  }
  // REMARK: indirect.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: the store to %X at an index loaded from memory is not an add/min/max update of that cell (the last writer would depend on the order)
  affine.for %i = 0 to %n {
    %k = affine.load %idx[%i] : memref<?xi32>
    %ki = arith.index_cast %k : i32 to index
    %a = affine.load %A[%i] : memref<?xf32>
    %x = memref.load %X[%ki] : memref<?xf32>
    %y = arith.mulf %x, %a : f32
    memref.store %y, %X[%ki] : memref<?xf32>
  }
  // REMARK: indirect.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: the update of %X at a loaded index reads or stores %X elsewhere
  affine.for %i = 0 to %n {
    %k = affine.load %idx[%i] : memref<?xi32>
    %ki = arith.index_cast %k : i32 to index
    %a = affine.load %X[%i] : memref<?xf32>
    %x = memref.load %X[%ki] : memref<?xf32>
    %y = arith.addf %x, %a : f32
    memref.store %y, %X[%ki] : memref<?xf32>
  }
  // X[0] = X[idx[i]] + A[i] is no accumulation into X[0] (the indirect load's map is 0 too)
  // REMARK: indirect.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: the store to %X does not move with the loop(s) at line [[# @LINE + 1]] and is not an add/mul/min/max accumulation (an output dependence)
  affine.for %i = 0 to %n {
    %k = affine.load %idx[%i] : memref<?xi32>
    %ki = arith.index_cast %k : i32 to index
    %x = memref.load %X[%ki] : memref<?xf32>
    %a = affine.load %A[%i] : memref<?xf32>
    %y = arith.addf %x, %a : f32
    affine.store %y, %X[0] : memref<?xf32>
  }
  // REMARK: indirect.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: an index is computed by 'affine.load', which is not affine in the loop indices
  affine.for %i = 0 to %n {
    %k = affine.load %idx[%i] : memref<?xi32>
    %ki = arith.index_cast %k : i32 to index
    %c1 = arith.constant 1 : index
    %k1 = arith.addi %ki, %c1 : index
    %x = memref.load %A[%k1] : memref<?xf32>
    affine.store %x, %X[%i] : memref<?xf32>
  }
  func.return
}

// -----

// argmin over each row (first index on ties: strict <; no NaN: fastmath<nnan>)
// as stream.reduce argmin.
// CHECK-LABEL: func.func @argmin
// CHECK:         stream.region ins(%D, %out : memref<?x?xf32>, memref<?xi32>) syms(c = %c : index, p = %p : index) domain [0:p, 0:c] iterators [parallel, reduction] {
// CHECK:           %[[V:.*]] = stream.load %D_1[d0, d1]
// CHECK-NEXT:      %[[A:.*]] = stream.reduce argmin %[[V]] over [1] : !stream.stream<f32> -> !stream.stream<i32>
// CHECK-NEXT:      stream.store %[[A]] -> %out_1[d0]
func.func @argmin(%D: memref<?x?xf32>, %out: memref<?xi32>, %p: index, %c: index) {
  %inf = arith.constant 0x7F800000 : f32
  %z = arith.constant 0 : i32
  // REMARK: indirect.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:p, 0:c] iterators [parallel, reduction]
  affine.for %i = 0 to %p {
    %best:2 = affine.for %j = 0 to %c iter_args(%bv = %inf, %bi = %z) -> (f32, i32) {
      %v = affine.load %D[%i, %j] : memref<?x?xf32>
      %lt = arith.cmpf olt, %v, %bv fastmath<nnan> : f32
      %ji = arith.index_cast %j : index to i32
      %nv = arith.select %lt, %v, %bv : f32
      %ni = arith.select %lt, %ji, %bi : i32
      affine.yield %nv, %ni : f32, i32
    }
    affine.store %best#1, %out[%i] : memref<?xi32>
  }
  func.return
}

// -----

// Not an argmin the reduction computes: <= (the last index on ties), a start
// index that is not the loop's first, the minimum itself used, a compare
// without nnan (the loop skips a NaN, the reduction picks it).
// CHECK-LABEL: func.func @not_argmin
// CHECK-NOT:     stream.region
// CHECK:         func.return
func.func @not_argmin(%D: memref<?x?xf32>, %out: memref<?xi32>, %mins: memref<?xf32>, %p: index, %c: index) {
  %inf = arith.constant 0x7F800000 : f32
  %z = arith.constant 0 : i32
  // REMARK: indirect.mlir:[[# @LINE + 2]]:5: remark: extract-streams: loop nest not extracted: an argmin/argmax loop that is not 'if (x < best) {best = x; at = i;}' from best = +inf (-inf), at = the loop's first index, with only the index used
  affine.for %i = 0 to %p {
    %best:2 = affine.for %j = 0 to %c iter_args(%bv = %inf, %bi = %z) -> (f32, i32) {
      %v = affine.load %D[%i, %j] : memref<?x?xf32>
      %lt = arith.cmpf ole, %v, %bv fastmath<nnan> : f32
      %ji = arith.index_cast %j : index to i32
      %nv = arith.select %lt, %v, %bv : f32
      %ni = arith.select %lt, %ji, %bi : i32
      affine.yield %nv, %ni : f32, i32
    }
    affine.store %best#1, %out[%i] : memref<?xi32>
  }
  // REMARK: indirect.mlir:[[# @LINE + 2]]:5: remark: extract-streams: loop nest not extracted: an argmin/argmax loop
  affine.for %i = 0 to %p {
    %best:2 = affine.for %j = 1 to %c iter_args(%bv = %inf, %bi = %z) -> (f32, i32) {
      %v = affine.load %D[%i, %j] : memref<?x?xf32>
      %lt = arith.cmpf olt, %v, %bv fastmath<nnan> : f32
      %ji = arith.index_cast %j : index to i32
      %nv = arith.select %lt, %v, %bv : f32
      %ni = arith.select %lt, %ji, %bi : i32
      affine.yield %nv, %ni : f32, i32
    }
    affine.store %best#1, %out[%i] : memref<?xi32>
  }
  // REMARK: indirect.mlir:[[# @LINE + 2]]:5: remark: extract-streams: loop nest not extracted: an argmin/argmax loop
  affine.for %i = 0 to %p {
    %best:2 = affine.for %j = 0 to %c iter_args(%bv = %inf, %bi = %z) -> (f32, i32) {
      %v = affine.load %D[%i, %j] : memref<?x?xf32>
      %lt = arith.cmpf olt, %v, %bv fastmath<nnan> : f32
      %ji = arith.index_cast %j : index to i32
      %nv = arith.select %lt, %v, %bv : f32
      %ni = arith.select %lt, %ji, %bi : i32
      affine.yield %nv, %ni : f32, i32
    }
    affine.store %best#1, %out[%i] : memref<?xi32>
    affine.store %best#0, %mins[%i] : memref<?xf32>
  }
  // REMARK: indirect.mlir:[[# @LINE + 2]]:5: remark: extract-streams: loop nest not extracted: an argmin/argmax loop whose compare is not fastmath<nnan>: the loop skips a NaN, stream.reduce picks it
  affine.for %i = 0 to %p {
    %best:2 = affine.for %j = 0 to %c iter_args(%bv = %inf, %bi = %z) -> (f32, i32) {
      %v = affine.load %D[%i, %j] : memref<?x?xf32>
      %lt = arith.cmpf olt, %v, %bv : f32
      %ji = arith.index_cast %j : index to i32
      %nv = arith.select %lt, %v, %bv : f32
      %ni = arith.select %lt, %ji, %bi : i32
      affine.yield %nv, %ni : f32, i32
    }
    affine.store %best#1, %out[%i] : memref<?xi32>
  }
  func.return
}
