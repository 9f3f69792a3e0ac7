// bfs_push (GAP bfs, top-down; near-stream computing, HPCA'22 Table VI) as plain
// loops: breadth-first search from S[0] on a graph in CSR (offs: N+1 row starts,
// nbr: the neighbours), level by level.  The frontier is Q[lo:hi); each of its
// vertices u claims every neighbour v not yet reached (GAP's compare-and-swap on
// the parent: here D[v] < 0, then D[v] = level + 1, Par[v] = u) and appends it to
// the queue; the next frontier is what the level appended.
// offs, nbr are i32; Q (the queue), D (depth, -1 unreached) and Par (parent, -1)
// are N (i32); D and Par come in as -1.
// Streams (NSC Table II): affine loads of the frontier, indirect loads of each
// frontier vertex's row (bounds and neighbours), a filter (unreached), an indirect
// atomic (the compare-and-swap) and an indirect store (the queue's tail).
func.func @bfs_push(%offs: memref<?xi32>, %nbr: memref<?xi32>, %S: memref<?xi32>, %Q: memref<?xi32>, %D: memref<?xi32>, %Par: memref<?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %src = affine.load %S[0] : memref<?xi32>
  %s = arith.index_cast %src : i32 to index
  memref.store %zero, %D[%s] : memref<?xi32>
  memref.store %src, %Par[%s] : memref<?xi32>
  affine.store %src, %Q[0] : memref<?xi32>
  %done:3 = scf.while (%lo = %c0, %hi = %c1, %level = %zero) : (index, index, i32) -> (index, index, i32) {
    %more = arith.cmpi slt, %lo, %hi : index
    scf.condition(%more) %lo, %hi, %level : index, index, i32
  } do {
  ^bb0(%lo: index, %hi: index, %level: i32):
    %next = arith.addi %level, %one : i32
    %tail = scf.for %i = %lo to %hi step %c1 iter_args(%t = %hi) -> (index) {
      %u = memref.load %Q[%i] : memref<?xi32>
      %ui = arith.index_cast %u : i32 to index
      %ui1 = arith.addi %ui, %c1 : index
      %b = memref.load %offs[%ui] : memref<?xi32>
      %e = memref.load %offs[%ui1] : memref<?xi32>
      %bi = arith.index_cast %b : i32 to index
      %ei = arith.index_cast %e : i32 to index
      %t2 = scf.for %k = %bi to %ei step %c1 iter_args(%tt = %t) -> (index) {
        %v = memref.load %nbr[%k] : memref<?xi32>
        %vi = arith.index_cast %v : i32 to index
        %dv = memref.load %D[%vi] : memref<?xi32>
        %fresh = arith.cmpi slt, %dv, %zero : i32
        %t3 = scf.if %fresh -> (index) {
          memref.store %next, %D[%vi] : memref<?xi32>
          memref.store %u, %Par[%vi] : memref<?xi32>
          memref.store %v, %Q[%tt] : memref<?xi32>
          %t4 = arith.addi %tt, %c1 : index
          scf.yield %t4 : index
        } else {
          scf.yield %tt : index
        }
        scf.yield %t3 : index
      }
      scf.yield %t2 : index
    }
    scf.yield %hi, %tail, %next : index, index, i32
  }
  func.return
}
