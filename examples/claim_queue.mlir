// Claims and a queue appended to under a filter, as GAP's bfs and sssp write
// them (extract-streams makes each loop one stream.region: a stream.claim, an
// atomic min returning whether it lowered its cell, stream.count's slots).
// Indices V may repeat: each loop's effects are the sequential loop's.
//   bfs: if (D[v] < 0) { D[v] = L; P[v] = W[k]; Q[t++] = v; }
//   sssp: if (W[k] < Dist[v]) { Dist[v] = W[k]; if (In[v] == 0) { In[v] = 1; R[r++] = v; } }
// T[0], T[1] receive the two counts (t and r start at T[0] and T[1]); L = T[2].
func.func @claim_queue(%V: memref<?xi32>, %W: memref<?xi32>, %D: memref<?xi32>, %P: memref<?xi32>, %Q: memref<?xi32>, %Dist: memref<?xi32>, %In: memref<?xi32>, %R: memref<?xi32>, %T: memref<?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %t0 = affine.load %T[0] : memref<?xi32>
  %r0 = affine.load %T[1] : memref<?xi32>
  %lvl = affine.load %T[2] : memref<?xi32>
  %t0i = arith.index_cast %t0 : i32 to index
  %r0i = arith.index_cast %r0 : i32 to index
  %tail = scf.for %k = %c0 to %n step %c1 iter_args(%t = %t0i) -> (index) {
    %v = memref.load %V[%k] : memref<?xi32>
    %w = memref.load %W[%k] : memref<?xi32>
    %vi = arith.index_cast %v : i32 to index
    %dv = memref.load %D[%vi] : memref<?xi32>
    %fresh = arith.cmpi slt, %dv, %zero : i32
    %t2 = scf.if %fresh -> (index) {
      memref.store %lvl, %D[%vi] : memref<?xi32>
      memref.store %w, %P[%vi] : memref<?xi32>
      memref.store %v, %Q[%t] : memref<?xi32>
      %t3 = arith.addi %t, %c1 : index
      scf.yield %t3 : index
    } else {
      scf.yield %t : index
    }
    scf.yield %t2 : index
  }
  %rtail = scf.for %k = %c0 to %n step %c1 iter_args(%r = %r0i) -> (index) {
    %v = memref.load %V[%k] : memref<?xi32>
    %w = memref.load %W[%k] : memref<?xi32>
    %vi = arith.index_cast %v : i32 to index
    %dv = memref.load %Dist[%vi] : memref<?xi32>
    %better = arith.cmpi slt, %w, %dv : i32
    %r2 = scf.if %better -> (index) {
      memref.store %w, %Dist[%vi] : memref<?xi32>
      %q = memref.load %In[%vi] : memref<?xi32>
      %new = arith.cmpi eq, %q, %zero : i32
      %r3 = scf.if %new -> (index) {
        memref.store %one, %In[%vi] : memref<?xi32>
        memref.store %v, %R[%r] : memref<?xi32>
        %r4 = arith.addi %r, %c1 : index
        scf.yield %r4 : index
      } else {
        scf.yield %r : index
      }
      scf.yield %r3 : index
    } else {
      scf.yield %r : index
    }
    scf.yield %r2 : index
  }
  %ti = arith.index_cast %tail : index to i32
  %ri = arith.index_cast %rtail : index to i32
  affine.store %ti, %T[0] : memref<?xi32>
  affine.store %ri, %T[1] : memref<?xi32>
  func.return
}
