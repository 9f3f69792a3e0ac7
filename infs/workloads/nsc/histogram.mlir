// histogram (MineBench; near-stream computing, HPCA'22 Table VI) as plain loops:
// N 32-bit values counted into 256 bins by their 8-bit key, the value's top byte,
//   H[(unsigned)V[i] >> 24] += 1
// V is N (i32), H is 256 (i32; added to, as the C's counters are).
// Streams (NSC Table II): an affine load of the values, an indirect atomic
// (read-modify-write) at the key computed from each value.
func.func @histogram(%V: memref<?xi32>, %H: memref<?xi32>, %n: index) {
  %one = arith.constant 1 : i32
  %shift = arith.constant 24 : i32
  affine.for %i = 0 to %n {
    %v = affine.load %V[%i] : memref<?xi32>
    %key = arith.shrui %v, %shift : i32
    %k = arith.index_cast %key : i32 to index
    %h = memref.load %H[%k] : memref<?xi32>
    %h1 = arith.addi %h, %one : i32
    memref.store %h1, %H[%k] : memref<?xi32>
  }
  func.return
}
