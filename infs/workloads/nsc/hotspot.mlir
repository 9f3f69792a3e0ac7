// hotspot (Rodinia; near-stream computing, HPCA'22 Table VI) as plain loops: the
// transient temperature of a chip of rows x cols cells, t steps (t even) ping-ponging
// T -> B -> T, each cell
//   T' = T + step/Cap * (P + (T_s + T_n - 2T)/Ry + (T_e + T_w - 2T)/Rx + (amb - T)/Rz)
// with the neighbour past the chip's edge the cell itself (Rodinia's edge and corner
// formulas drop that neighbour's term: the same sum).  K holds [step/Cap, 1/Rx, 1/Ry,
// 1/Rz, amb] from Rodinia's chip constants for the grid (infs.workloads.nsc).
// The clamped neighbour is a select on the loop index, as the C's conditional is.
// Streams (NSC Table II): affine loads of the cell, its power and (clamped at the
// edges) its four neighbours, an affine multi-operand store.
func.func @hotspot(%T: memref<?x?xf32>, %P: memref<?x?xf32>, %B: memref<?x?xf32>, %K: memref<?xf32>, %rows: index, %cols: index, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %rlast = arith.subi %rows, %c1 : index
  %clast = arith.subi %cols, %c1 : index
  %cap1 = affine.load %K[0] : memref<?xf32>
  %rx1 = affine.load %K[1] : memref<?xf32>
  %ry1 = affine.load %K[2] : memref<?xf32>
  %rz1 = affine.load %K[3] : memref<?xf32>
  %amb = affine.load %K[4] : memref<?xf32>
  affine.for %s = 0 to %t step 2 {
    affine.for %r = 0 to %rows {
      %rn0 = arith.subi %r, %c1 : index
      %top = arith.cmpi eq, %r, %c0 : index
      %rn = arith.select %top, %r, %rn0 : index
      %rs0 = arith.addi %r, %c1 : index
      %bottom = arith.cmpi eq, %r, %rlast : index
      %rs = arith.select %bottom, %r, %rs0 : index
      affine.for %c = 0 to %cols {
        %cw0 = arith.subi %c, %c1 : index
        %left = arith.cmpi eq, %c, %c0 : index
        %cw = arith.select %left, %c, %cw0 : index
        %ce0 = arith.addi %c, %c1 : index
        %right = arith.cmpi eq, %c, %clast : index
        %ce = arith.select %right, %c, %ce0 : index
        %tc = affine.load %T[%r, %c] : memref<?x?xf32>
        %p = affine.load %P[%r, %c] : memref<?x?xf32>
        %tn = memref.load %T[%rn, %c] : memref<?x?xf32>
        %ts = memref.load %T[%rs, %c] : memref<?x?xf32>
        %tw = memref.load %T[%r, %cw] : memref<?x?xf32>
        %te = memref.load %T[%r, %ce] : memref<?x?xf32>
        %two_t = arith.mulf %two, %tc : f32
        %v1 = arith.addf %ts, %tn : f32
        %v2 = arith.subf %v1, %two_t : f32
        %vert = arith.mulf %v2, %ry1 : f32
        %h1 = arith.addf %te, %tw : f32
        %h2 = arith.subf %h1, %two_t : f32
        %horiz = arith.mulf %h2, %rx1 : f32
        %a0 = arith.subf %amb, %tc : f32
        %amb_term = arith.mulf %a0, %rz1 : f32
        %s1 = arith.addf %p, %vert : f32
        %s2 = arith.addf %s1, %horiz : f32
        %s3 = arith.addf %s2, %amb_term : f32
        %delta = arith.mulf %cap1, %s3 : f32
        %new = arith.addf %tc, %delta : f32
        affine.store %new, %B[%r, %c] : memref<?x?xf32>
      }
    }
    affine.for %r = 0 to %rows {
      %rn0 = arith.subi %r, %c1 : index
      %top = arith.cmpi eq, %r, %c0 : index
      %rn = arith.select %top, %r, %rn0 : index
      %rs0 = arith.addi %r, %c1 : index
      %bottom = arith.cmpi eq, %r, %rlast : index
      %rs = arith.select %bottom, %r, %rs0 : index
      affine.for %c = 0 to %cols {
        %cw0 = arith.subi %c, %c1 : index
        %left = arith.cmpi eq, %c, %c0 : index
        %cw = arith.select %left, %c, %cw0 : index
        %ce0 = arith.addi %c, %c1 : index
        %right = arith.cmpi eq, %c, %clast : index
        %ce = arith.select %right, %c, %ce0 : index
        %tc = affine.load %B[%r, %c] : memref<?x?xf32>
        %p = affine.load %P[%r, %c] : memref<?x?xf32>
        %tn = memref.load %B[%rn, %c] : memref<?x?xf32>
        %ts = memref.load %B[%rs, %c] : memref<?x?xf32>
        %tw = memref.load %B[%r, %cw] : memref<?x?xf32>
        %te = memref.load %B[%r, %ce] : memref<?x?xf32>
        %two_t = arith.mulf %two, %tc : f32
        %v1 = arith.addf %ts, %tn : f32
        %v2 = arith.subf %v1, %two_t : f32
        %vert = arith.mulf %v2, %ry1 : f32
        %h1 = arith.addf %te, %tw : f32
        %h2 = arith.subf %h1, %two_t : f32
        %horiz = arith.mulf %h2, %rx1 : f32
        %a0 = arith.subf %amb, %tc : f32
        %amb_term = arith.mulf %a0, %rz1 : f32
        %s1 = arith.addf %p, %vert : f32
        %s2 = arith.addf %s1, %horiz : f32
        %s3 = arith.addf %s2, %amb_term : f32
        %delta = arith.mulf %cap1, %s3 : f32
        %new = arith.addf %tc, %delta : f32
        affine.store %new, %T[%r, %c] : memref<?x?xf32>
      }
    }
  }
  func.return
}
