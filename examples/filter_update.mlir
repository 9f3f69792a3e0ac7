// Filtered streams (near-stream computing's filters, HPCA'22 §II-A) as plain loops:
//   for (i = 0; i < n; i++) {
//     x = A[i];
//     k = x % h;                                             // (h > 0; t >= 0: x > t keeps k in range)
//     if (x > t) { B[i] = x; H[k] += 1; } else { B[i] = -x; }
//     p = head; while (p >= 0 && Val[p] != x) p = Next[p];   // the list's slot of x
//     if (p >= 0) Found[i] = p;                              // only where it is there
//     if (W[i] < D[V[i]]) D[V[i]] = W[i];                    // a relaxation: an atomic min
//   }
// extract-streams makes each store under an `if` a filtered stream.store or
// stream.atomic (`if %m`), the chase a stream.chase, and the relaxation an
// atomic min; the loop is one region.
func.func @filter_update(%A: memref<?xi32>, %B: memref<?xi32>, %H: memref<?xi32>, %Val: memref<?xi32>, %Next: memref<?xi32>, %Found: memref<?xi32>,
                         %V: memref<?xi32>, %W: memref<?xi32>, %D: memref<?xi32>, %T: memref<?xi32>, %n: index, %h: index) {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %t = affine.load %T[0] : memref<?xi32>
  %head = affine.load %T[1] : memref<?xi32>
  %hh = arith.index_cast %h : index to i32
  affine.for %i = 0 to %n {
    %x = affine.load %A[%i] : memref<?xi32>
    %r = arith.remsi %x, %hh : i32
    %k = arith.index_cast %r : i32 to index
    %big = arith.cmpi sgt, %x, %t : i32
    scf.if %big {
      affine.store %x, %B[%i] : memref<?xi32>
      %c = memref.load %H[%k] : memref<?xi32>
      %c1 = arith.addi %c, %one : i32
      memref.store %c1, %H[%k] : memref<?xi32>
    } else {
      %nx = arith.subi %zero, %x : i32
      affine.store %nx, %B[%i] : memref<?xi32>
    }
    %p = scf.while (%q = %head) : (i32) -> i32 {
      %valid = arith.cmpi sge, %q, %zero : i32
      %go = scf.if %valid -> (i1) {
        %qi = arith.index_cast %q : i32 to index
        %v = memref.load %Val[%qi] : memref<?xi32>
        %ne = arith.cmpi ne, %v, %x : i32
        scf.yield %ne : i1
      } else {
        %f = arith.constant false
        scf.yield %f : i1
      }
      scf.condition(%go) %q : i32
    } do {
    ^bb0(%cq: i32):
      %ci = arith.index_cast %cq : i32 to index
      %nxt = memref.load %Next[%ci] : memref<?xi32>
      scf.yield %nxt : i32
    }
    %there = arith.cmpi sge, %p, %zero : i32
    scf.if %there {
      affine.store %p, %Found[%i] : memref<?xi32>
    }
    %u = affine.load %V[%i] : memref<?xi32>
    %w = affine.load %W[%i] : memref<?xi32>
    %ui = arith.index_cast %u : i32 to index
    %d = memref.load %D[%ui] : memref<?xi32>
    %better = arith.cmpi slt, %w, %d : i32
    scf.if %better {
      memref.store %w, %D[%ui] : memref<?xi32>
    }
  }
  func.return
}
