// A linked-list search per key, as plain loops (cgeist's form of
//   for (i = 0; i < n; i++) { p = head; while (p >= 0 && Val[p] != Keys[i]) p = Next[p]; Out[i] = p; }
// ): the list's nodes are slots of Val/Next (-1 ends the list); Out[i] is the
// slot holding Keys[i], or -1.  extract-streams turns the scf.while into a
// pointer-chasing stream (stream.chase) and the loop into one region.
func.func @list_search(%Val: memref<?xi32>, %Next: memref<?xi32>, %Keys: memref<?xi32>, %Out: memref<?xi32>, %Head: memref<?xi32>, %n: index) {
  %zero = arith.constant 0 : i32
  %head = affine.load %Head[0] : memref<?xi32>
  affine.for %i = 0 to %n {
    %k = affine.load %Keys[%i] : memref<?xi32>
    %p = scf.while (%q = %head) : (i32) -> i32 {
      %valid = arith.cmpi sge, %q, %zero : i32
      %go = scf.if %valid -> (i1) {
        %qi = arith.index_cast %q : i32 to index
        %v = memref.load %Val[%qi] : memref<?xi32>
        %ne = arith.cmpi ne, %v, %k : i32
        scf.yield %ne : i1
      } else {
        %f = arith.constant false
        scf.yield %f : i1
      }
      scf.condition(%go) %q : i32
    } do {
    ^bb0(%c: i32):
      %ci = arith.index_cast %c : i32 to index
      %nx = memref.load %Next[%ci] : memref<?xi32>
      scf.yield %nx : i32
    }
    affine.store %p, %Out[%i] : memref<?xi32>
  }
  func.return
}
