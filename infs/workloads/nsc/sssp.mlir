// sssp (single-source shortest paths; near-stream computing, HPCA'22 Table VI) as
// plain loops: frontier Bellman-Ford from S[0] on a weighted graph in CSR (offs, nbr,
// wt: i32 weights in [1, 255]).  Each frontier vertex u relaxes its arcs
//   Dist[v] = min(Dist[v], Dist[u] + wt)            (GAP's atomic min)
// and a vertex whose distance dropped joins the next frontier once (In[v] marks it);
// it ends when a round improved nothing.  (GAP's delta-stepping orders the same
// relaxations in buckets; the distances are the same.)
// Dist is N (i32, 2^31-1 for unreached, coming in so), Fr and Nf (the frontiers) and
// In are N (i32 scratch; In comes in and leaves as 0).
// Streams (NSC Table II): affine loads of the frontier, indirect loads of each row
// (bounds, neighbours, weights), a filter (an improvement), an indirect atomic min.
func.func @sssp(%offs: memref<?xi32>, %nbr: memref<?xi32>, %wt: memref<?xi32>, %S: memref<?xi32>, %Dist: memref<?xi32>, %Fr: memref<?xi32>, %Nf: memref<?xi32>, %In: memref<?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %src = affine.load %S[0] : memref<?xi32>
  %s = arith.index_cast %src : i32 to index
  memref.store %zero, %Dist[%s] : memref<?xi32>
  affine.store %src, %Fr[0] : memref<?xi32>
  %end = scf.while (%nf = %c1) : (index) -> index {
    %more = arith.cmpi sgt, %nf, %c0 : index
    scf.condition(%more) %nf : index
  } do {
  ^bb0(%nf: index):
    %cnt = scf.for %i = %c0 to %nf step %c1 iter_args(%c = %c0) -> (index) {
      %u = memref.load %Fr[%i] : memref<?xi32>
      %ui = arith.index_cast %u : i32 to index
      %du = memref.load %Dist[%ui] : memref<?xi32>
      %ui1 = arith.addi %ui, %c1 : index
      %b = memref.load %offs[%ui] : memref<?xi32>
      %e = memref.load %offs[%ui1] : memref<?xi32>
      %bi = arith.index_cast %b : i32 to index
      %ei = arith.index_cast %e : i32 to index
      %c2 = scf.for %k = %bi to %ei step %c1 iter_args(%cc = %c) -> (index) {
        %v = memref.load %nbr[%k] : memref<?xi32>
        %w = memref.load %wt[%k] : memref<?xi32>
        %vi = arith.index_cast %v : i32 to index
        %nd = arith.addi %du, %w : i32
        %dv = memref.load %Dist[%vi] : memref<?xi32>
        %better = arith.cmpi slt, %nd, %dv : i32
        %c3 = scf.if %better -> (index) {
          memref.store %nd, %Dist[%vi] : memref<?xi32>
          %queued = memref.load %In[%vi] : memref<?xi32>
          %fresh = arith.cmpi eq, %queued, %zero : i32
          %c4 = scf.if %fresh -> (index) {
            memref.store %one, %In[%vi] : memref<?xi32>
            memref.store %v, %Nf[%cc] : memref<?xi32>
            %c5 = arith.addi %cc, %c1 : index
            scf.yield %c5 : index
          } else {
            scf.yield %cc : index
          }
          scf.yield %c4 : index
        } else {
          scf.yield %cc : index
        }
        scf.yield %c3 : index
      }
      scf.yield %c2 : index
    }
    scf.for %i = %c0 to %cnt step %c1 {
      %v = memref.load %Nf[%i] : memref<?xi32>
      memref.store %v, %Fr[%i] : memref<?xi32>
      %vi = arith.index_cast %v : i32 to index
      memref.store %zero, %In[%vi] : memref<?xi32>
    }
    scf.yield %cnt : index
  }
  func.return
}
