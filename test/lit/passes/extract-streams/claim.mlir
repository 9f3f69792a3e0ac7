// extract-streams reads a claim (`if (D[v] < 0) D[v] = l`) and a queue
// appended to under it (`Q[t++] = v`, a counter the loop hands on through the
// scf.if) as stream.claim and stream.count (examples/claim_queue.mlir runs
// them); a counter it cannot number stays on the host, with the remark why.
//
// RUN: infs-opt %s --split-input-file -p 'extract-streams' | filecheck %s
// RUN: infs-opt %s --split-input-file -p 'extract-streams{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// CHECK-LABEL: func.func @claim_append
// CHECK: %[[V:.*]] = stream.load %{{.*}}[d0] : memref<?xi32> -> !stream.stream<i32>
// CHECK: %[[W:.*]] = stream.claim slt %{{.*}}, %{{.*}} -> %{{.*}}[%[[V]]] : !stream.stream<i32> -> memref<?xi32>
// CHECK: %[[P:.*]] = stream.count %[[W]] from %{{.*}} : !stream.stream<i1>
// CHECK: stream.store %[[V]] -> %{{.*}}[%[[P]]] if %[[W]] : !stream.stream<i32> -> memref<?xi32>
// CHECK: stream.reduce add %{{.*}} over [0] : !stream.stream<index> -> index
// CHECK-NOT: scf.if
func.func @claim_append(%V: memref<?xi32>, %D: memref<?xi32>, %Q: memref<?xi32>, %n: index, %t0: index, %l: i32) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  // REMARK: claim.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [reduction]
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%t = %t0) -> (index) {
    %v = memref.load %V[%k] : memref<?xi32>
    %vi = arith.index_cast %v : i32 to index
    %dv = memref.load %D[%vi] : memref<?xi32>
    %fresh = arith.cmpi slt, %dv, %zero : i32
    %t2 = scf.if %fresh -> (index) {
      memref.store %l, %D[%vi] : memref<?xi32>
      memref.store %v, %Q[%t] : memref<?xi32>
      %t3 = arith.addi %t, %c1 : index
      scf.yield %t3 : index
    } else {
      scf.yield %t : index
    }
    scf.yield %t2 : index
  }
  func.return %r : index
}

// -----

// A counter stepped by two: no slot is the count of the points before.
// CHECK-LABEL: func.func @step_two
// CHECK: scf.for
func.func @step_two(%V: memref<?xi32>, %D: memref<?xi32>, %Q: memref<?xi32>, %n: index, %t0: index, %l: i32) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0 : i32
  // REMARK: claim.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: the 'scf.if' at line [[# @LINE + 6]] hands on the counter of the loop changed by other than one
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%t = %t0) -> (index) {
    %v = memref.load %V[%k] : memref<?xi32>
    %vi = arith.index_cast %v : i32 to index
    %dv = memref.load %D[%vi] : memref<?xi32>
    %fresh = arith.cmpi slt, %dv, %zero : i32
    %t2 = scf.if %fresh -> (index) {
      memref.store %l, %D[%vi] : memref<?xi32>
      memref.store %v, %Q[%t] : memref<?xi32>
      %t3 = arith.addi %t, %c2 : index
      scf.yield %t3 : index
    } else {
      scf.yield %t : index
    }
    scf.yield %t2 : index
  }
  func.return %r : index
}

// -----

// A plain store at a loaded index that no claim guards: the last writer would depend on the order.
// CHECK-LABEL: func.func @unguarded
// CHECK: scf.for
func.func @unguarded(%V: memref<?xi32>, %D: memref<?xi32>, %P: memref<?xi32>, %Q: memref<?xi32>, %n: index, %t0: index, %l: i32) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  // REMARK: claim.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: the store to %P at an index loaded from memory is not an add/min/max update of that cell (the last writer would depend on the order)
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%t = %t0) -> (index) {
    %v = memref.load %V[%k] : memref<?xi32>
    %vi = arith.index_cast %v : i32 to index
    %dv = memref.load %D[%vi] : memref<?xi32>
    %fresh = arith.cmpi slt, %v, %zero : i32
    %t2 = scf.if %fresh -> (index) {
      memref.store %l, %P[%vi] : memref<?xi32>
      memref.store %v, %Q[%t] : memref<?xi32>
      %t3 = arith.addi %t, %c1 : index
      scf.yield %t3 : index
    } else {
      scf.yield %t : index
    }
    scf.yield %t2 : index
  }
  func.return %r : index
}

// -----

// A claim alone in a parallel loop (the dense frontier's form): one region, no tdfg form (tensorize refuses it).
// CHECK-LABEL: func.func @claim_only
// CHECK: stream.region
// CHECK: stream.claim slt %{{.*}}, %{{.*}} -> %{{.*}}[%{{.*}}] : !stream.stream<i32> -> memref<?xi32>
func.func @claim_only(%V: memref<?xi32>, %D: memref<?xi32>, %n: index, %l: i32) {
  %zero = arith.constant 0 : i32
  // REMARK: claim.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [parallel]
  affine.for %k = 0 to %n {
    %v = affine.load %V[%k] : memref<?xi32>
    %vi = arith.index_cast %v : i32 to index
    %dv = memref.load %D[%vi] : memref<?xi32>
    %fresh = arith.cmpi slt, %dv, %zero : i32
    scf.if %fresh {
      memref.store %l, %D[%vi] : memref<?xi32>
    }
  }
  func.return
}
