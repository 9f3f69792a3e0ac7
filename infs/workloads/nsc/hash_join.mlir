// hash_join (near-stream computing, HPCA'22 Table VI) as plain loops: the probe
// phase of a hash join of 8-byte keys.  The build side's keys Bk sit in a chained
// hash table (Head: each of H buckets' first row, Next: the row after each in its
// chain, -1 at the end; bucket = key mod H); each of P probe keys walks its
// bucket's chain (a pointer chase) to the row with its key,
//   r = Head[k % H]; while (r >= 0 && Bk[r] != k) r = Next[r];  Match[i] = r
// and Cnt[0] counts the matches (NSC Table VI: 1/8 of the probes hit).
// Bk is B (i64), Head is H, Next is B, Pk is P (i64), Match is P (i32), Cnt is 1 (i32).
// Streams (NSC Table II): an affine load of the probe keys, an indirect load of the
// bucket's head, a pointer-chasing stream along the chain (an scf.while) reduced to
// the row found, an affine store, a reduction (the count).
func.func @hash_join(%Bk: memref<?xi64>, %Head: memref<?xi32>, %Next: memref<?xi32>, %Pk: memref<?xi64>, %Match: memref<?xi32>, %Cnt: memref<?xi32>, %p: index, %h: index) {
  %zero = arith.constant 0 : i32
  %hi = arith.index_cast %h : index to i64
  %c0 = affine.load %Cnt[0] : memref<?xi32>
  %total = affine.for %i = 0 to %p iter_args(%cnt = %c0) -> (i32) {
    %k = affine.load %Pk[%i] : memref<?xi64>
    %bucket = arith.remsi %k, %hi : i64
    %b = arith.index_cast %bucket : i64 to index
    %first = memref.load %Head[%b] : memref<?xi32>
    %row = scf.while (%r = %first) : (i32) -> i32 {
      %valid = arith.cmpi sge, %r, %zero : i32
      %go = scf.if %valid -> (i1) {
        %ri = arith.index_cast %r : i32 to index
        %bk = memref.load %Bk[%ri] : memref<?xi64>
        %ne = arith.cmpi ne, %bk, %k : i64
        scf.yield %ne : i1
      } else {
        %f = arith.constant false
        scf.yield %f : i1
      }
      scf.condition(%go) %r : i32
    } do {
    ^bb0(%cur: i32):
      %ci = arith.index_cast %cur : i32 to index
      %nx = memref.load %Next[%ci] : memref<?xi32>
      scf.yield %nx : i32
    }
    affine.store %row, %Match[%i] : memref<?xi32>
    %hit = arith.cmpi sge, %row, %zero : i32
    %one = arith.extui %hit : i1 to i32
    %cnt1 = arith.addi %cnt, %one : i32
    affine.yield %cnt1 : i32
  }
  affine.store %total, %Cnt[0] : memref<?xi32>
  func.return
}
