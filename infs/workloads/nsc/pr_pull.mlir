// pr_pull (GAP pr, pull; near-stream computing, HPCA'22 Table VI) as plain loops:
// iters iterations on a symmetric graph in CSR (offs, nbr), scores Sc starting at 1/N:
//   Ct[u] = Sc[u] / max(deg(u), 1)                       (each vertex's contribution)
//   Sc[v] = (1 - d) / N + d * sum over v's neighbours u of Ct[u]   (d = K[0], 0.85)
// Sc, Ct are N (f32).
// Streams (NSC Table II): affine loads of the scores and row bounds, indirect loads
// of each row's neighbours and their contributions, an indirect reduction per row.
func.func @pr_pull(%offs: memref<?xi32>, %nbr: memref<?xi32>, %Sc: memref<?xf32>, %Ct: memref<?xf32>, %K: memref<?xf32>, %n: index, %iters: index) {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ione = arith.constant 1 : i32
  %d = affine.load %K[0] : memref<?xf32>
  %ni = arith.index_cast %n : index to i64
  %nf = arith.sitofp %ni : i64 to f32
  %omd = arith.subf %one, %d : f32
  %base = arith.divf %omd, %nf : f32
  affine.for %it = 0 to %iters {
    affine.for %u = 0 to %n {
      %b = affine.load %offs[%u] : memref<?xi32>
      %e = affine.load %offs[%u + 1] : memref<?xi32>
      %deg = arith.subi %e, %b : i32
      %lt = arith.cmpi slt, %deg, %ione : i32
      %deg1 = arith.select %lt, %ione, %deg : i32
      %degf = arith.sitofp %deg1 : i32 to f32
      %s = affine.load %Sc[%u] : memref<?xf32>
      %c = arith.divf %s, %degf : f32
      affine.store %c, %Ct[%u] : memref<?xf32>
    }
    affine.for %v = 0 to %n {
      %b = affine.load %offs[%v] : memref<?xi32>
      %e = affine.load %offs[%v + 1] : memref<?xi32>
      %bi = arith.index_cast %b : i32 to index
      %ei = arith.index_cast %e : i32 to index
      %sum = scf.for %k = %bi to %ei step %c1 iter_args(%acc = %zero) -> (f32) {
        %u = memref.load %nbr[%k] : memref<?xi32>
        %ui = arith.index_cast %u : i32 to index
        %c = memref.load %Ct[%ui] : memref<?xf32>
        %acc1 = arith.addf %acc, %c : f32
        scf.yield %acc1 : f32
      }
      %ds = arith.mulf %d, %sum : f32
      %s = arith.addf %base, %ds : f32
      affine.store %s, %Sc[%v] : memref<?xf32>
    }
  }
  func.return
}
