// bin_tree (near-stream computing, HPCA'22 Table VI) as plain loops: Q lookups in a
// binary search tree of 8-byte keys whose nodes live in arrays (Key: i64, Lt/Rt:
// the children's slots, -1 for none; Root[0] the root's slot), each a pointer
// chase from the root,
//   node = Root; while (node >= 0 && Key[node] != q) node = q < Key[node] ? Lt[node] : Rt[node];
//   Res[i] = node                                      (-1: the key is not in the tree)
// Qk is Q (i64), Res is Q (i32).
// Streams (NSC Table II): an affine load of the lookups, a pointer-chasing stream
// (the next node's slot loaded from the current one: an scf.while) reduced to the
// node found.
func.func @bin_tree(%Key: memref<?xi64>, %Lt: memref<?xi32>, %Rt: memref<?xi32>, %Root: memref<?xi32>, %Qk: memref<?xi64>, %Res: memref<?xi32>, %q: index) {
  %zero = arith.constant 0 : i32
  %root = affine.load %Root[0] : memref<?xi32>
  affine.for %i = 0 to %q {
    %k = affine.load %Qk[%i] : memref<?xi64>
    %found = scf.while (%node = %root) : (i32) -> i32 {
      %valid = arith.cmpi sge, %node, %zero : i32
      %go = scf.if %valid -> (i1) {
        %ni = arith.index_cast %node : i32 to index
        %nk = memref.load %Key[%ni] : memref<?xi64>
        %ne = arith.cmpi ne, %nk, %k : i64
        scf.yield %ne : i1
      } else {
        %f = arith.constant false
        scf.yield %f : i1
      }
      scf.condition(%go) %node : i32
    } do {
    ^bb0(%cur: i32):
      %ci = arith.index_cast %cur : i32 to index
      %ck = memref.load %Key[%ci] : memref<?xi64>
      %less = arith.cmpi slt, %k, %ck : i64
      %l = memref.load %Lt[%ci] : memref<?xi32>
      %r = memref.load %Rt[%ci] : memref<?xi32>
      %child = arith.select %less, %l, %r : i32
      scf.yield %child : i32
    }
    affine.store %found, %Res[%i] : memref<?xi32>
  }
  func.return
}
