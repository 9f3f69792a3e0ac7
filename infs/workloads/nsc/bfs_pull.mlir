// bfs_pull (GAP bfs, bottom-up; near-stream computing, HPCA'22 Table VI) as plain
// loops: breadth-first search from S[0] on a symmetric graph in CSR (offs, nbr),
// level by level.  Each vertex v not yet reached scans its neighbours for one on
// the last level (D[u] == level) and stops at the first (the C's break: an
// scf.while), which becomes its parent; the search ends at a level that reached
// nobody.  D (depth, -1 unreached) and Par (parent, -1) are N (i32), coming in as -1.
// Streams (NSC Table II): affine loads of D, indirect loads of each row (bounds,
// neighbours, their depths), an indirect reduction with an early exit (the first
// neighbour a level up), a filter (unreached vertices only).
func.func @bfs_pull(%offs: memref<?xi32>, %nbr: memref<?xi32>, %S: memref<?xi32>, %D: memref<?xi32>, %Par: memref<?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %src = affine.load %S[0] : memref<?xi32>
  %s = arith.index_cast %src : i32 to index
  memref.store %zero, %D[%s] : memref<?xi32>
  memref.store %src, %Par[%s] : memref<?xi32>
  %last = scf.while (%level = %zero) : (i32) -> i32 {
    %next = arith.addi %level, %one : i32
    %found = affine.for %v = 0 to %n iter_args(%cnt = %zero) -> (i32) {
      %dv = affine.load %D[%v] : memref<?xi32>
      %todo = arith.cmpi slt, %dv, %zero : i32
      %c = scf.if %todo -> (i32) {
        %b = affine.load %offs[%v] : memref<?xi32>
        %e = affine.load %offs[%v + 1] : memref<?xi32>
        %bi = arith.index_cast %b : i32 to index
        %ei = arith.index_cast %e : i32 to index
        %k = scf.while (%k0 = %bi) : (index) -> index {
          %in_row = arith.cmpi slt, %k0, %ei : index
          %go = scf.if %in_row -> (i1) {
            %u = memref.load %nbr[%k0] : memref<?xi32>
            %ui = arith.index_cast %u : i32 to index
            %du = memref.load %D[%ui] : memref<?xi32>
            %other = arith.cmpi ne, %du, %level : i32
            scf.yield %other : i1
          } else {
            %f = arith.constant false
            scf.yield %f : i1
          }
          scf.condition(%go) %k0 : index
        } do {
        ^bb0(%k1: index):
          %k2 = arith.addi %k1, %c1 : index
          scf.yield %k2 : index
        }
        %hit = arith.cmpi slt, %k, %ei : index
        %c2 = scf.if %hit -> (i32) {
          %u = memref.load %nbr[%k] : memref<?xi32>
          memref.store %next, %D[%v] : memref<?xi32>
          memref.store %u, %Par[%v] : memref<?xi32>
          %c3 = arith.addi %cnt, %one : i32
          scf.yield %c3 : i32
        } else {
          scf.yield %cnt : i32
        }
        scf.yield %c2 : i32
      } else {
        scf.yield %cnt : i32
      }
      affine.yield %c : i32
    }
    %grew = arith.cmpi sgt, %found, %zero : i32
    scf.condition(%grew) %next : i32
  } do {
  ^bb0(%l: i32):
    scf.yield %l : i32
  }
  func.return
}
