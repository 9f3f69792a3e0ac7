// pr_push (PageRank, push; near-stream computing, HPCA'22 Table VI) as plain loops:
// iters iterations on a graph in CSR (offs, nbr), scores Sc starting at 1/N:
//   Ct[u] = Sc[u] / max(deg(u), 1)                  (each vertex's contribution)
//   Nx[v] += Ct[u] for every arc (u, v)             (pushed to the neighbours: atomic adds)
//   Sc[v] = (1 - d) / N + d * Nx[v];  Nx[v] = 0      (d = K[0], GAP's damping 0.85)
// Sc, Nx, Ct are N (f32).
// Streams (NSC Table II): affine loads of the scores and row bounds, indirect loads
// of each row's neighbours, an indirect atomic add into the neighbours' sums.
func.func @pr_push(%offs: memref<?xi32>, %nbr: memref<?xi32>, %Sc: memref<?xf32>, %Nx: memref<?xf32>, %Ct: memref<?xf32>, %K: memref<?xf32>, %n: index, %iters: index) {
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
    affine.for %u = 0 to %n {
      %c = affine.load %Ct[%u] : memref<?xf32>
      %b = affine.load %offs[%u] : memref<?xi32>
      %e = affine.load %offs[%u + 1] : memref<?xi32>
      %bi = arith.index_cast %b : i32 to index
      %ei = arith.index_cast %e : i32 to index
      scf.for %k = %bi to %ei step %c1 {
        %v = memref.load %nbr[%k] : memref<?xi32>
        %vi = arith.index_cast %v : i32 to index
        %old = memref.load %Nx[%vi] : memref<?xf32>
        %new = arith.addf %old, %c : f32
        memref.store %new, %Nx[%vi] : memref<?xf32>
      }
    }
    affine.for %v = 0 to %n {
      %acc = affine.load %Nx[%v] : memref<?xf32>
      %da = arith.mulf %d, %acc : f32
      %s = arith.addf %base, %da : f32
      affine.store %s, %Sc[%v] : memref<?xf32>
      affine.store %zero, %Nx[%v] : memref<?xf32>
    }
  }
  func.return
}
