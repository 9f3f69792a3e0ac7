// hotspot3D (Rodinia; near-stream computing, HPCA'22 Table VI) as plain loops: the
// temperature of a chip of nz layers of ny x nx cells, t steps (t even) ping-ponging
// T -> B -> T, each cell (Rodinia 3D.c's computeTempCPU, its order of terms)
//   T' = cc*T + cw*T_w + ce*T_e + cs*T_s + cn*T_n + cb*T_b + ct*T_t + dt/Cap * P + ct*amb
// with a neighbour past a face the cell itself (the C's conditionals, selects on the
// loop indices).  K holds [cc, cn, cs, ce, cw, ct, cb, dt/Cap, amb] from Rodinia's
// chip constants for the grid (infs.workloads.nsc).  T, P, B are nz x ny x nx.
// Streams (NSC Table II): affine loads of the cell, its power and (clamped at the
// faces) its six neighbours, an affine multi-operand store.
func.func @hotspot3D(%T: memref<?x?x?xf32>, %P: memref<?x?x?xf32>, %B: memref<?x?x?xf32>, %K: memref<?xf32>, %nx: index, %ny: index, %nz: index, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %xlast = arith.subi %nx, %c1 : index
  %ylast = arith.subi %ny, %c1 : index
  %zlast = arith.subi %nz, %c1 : index
  %cc = affine.load %K[0] : memref<?xf32>
  %cn = affine.load %K[1] : memref<?xf32>
  %cs = affine.load %K[2] : memref<?xf32>
  %ce = affine.load %K[3] : memref<?xf32>
  %cw = affine.load %K[4] : memref<?xf32>
  %ct = affine.load %K[5] : memref<?xf32>
  %cb = affine.load %K[6] : memref<?xf32>
  %sdc = affine.load %K[7] : memref<?xf32>
  %amb = affine.load %K[8] : memref<?xf32>
  %ct_amb = arith.mulf %ct, %amb : f32
  affine.for %s = 0 to %t step 2 {
    affine.for %z = 0 to %nz {
      %zb0 = arith.subi %z, %c1 : index
      %zf = arith.cmpi eq, %z, %c0 : index
      %zb = arith.select %zf, %z, %zb0 : index
      %zt0 = arith.addi %z, %c1 : index
      %zl = arith.cmpi eq, %z, %zlast : index
      %zt = arith.select %zl, %z, %zt0 : index
      affine.for %y = 0 to %ny {
        %yn0 = arith.subi %y, %c1 : index
        %yf = arith.cmpi eq, %y, %c0 : index
        %yn = arith.select %yf, %y, %yn0 : index
        %ys0 = arith.addi %y, %c1 : index
        %yl = arith.cmpi eq, %y, %ylast : index
        %ys = arith.select %yl, %y, %ys0 : index
        affine.for %x = 0 to %nx {
          %xw0 = arith.subi %x, %c1 : index
          %xf = arith.cmpi eq, %x, %c0 : index
          %xw = arith.select %xf, %x, %xw0 : index
          %xe0 = arith.addi %x, %c1 : index
          %xl = arith.cmpi eq, %x, %xlast : index
          %xe = arith.select %xl, %x, %xe0 : index
          %tc = affine.load %T[%z, %y, %x] : memref<?x?x?xf32>
          %tw = memref.load %T[%z, %y, %xw] : memref<?x?x?xf32>
          %te = memref.load %T[%z, %y, %xe] : memref<?x?x?xf32>
          %ts = memref.load %T[%z, %ys, %x] : memref<?x?x?xf32>
          %tn = memref.load %T[%z, %yn, %x] : memref<?x?x?xf32>
          %tb = memref.load %T[%zb, %y, %x] : memref<?x?x?xf32>
          %tt = memref.load %T[%zt, %y, %x] : memref<?x?x?xf32>
          %p = affine.load %P[%z, %y, %x] : memref<?x?x?xf32>
          %m0 = arith.mulf %cc, %tc : f32
          %m1 = arith.mulf %cw, %tw : f32
          %a1 = arith.addf %m0, %m1 : f32
          %m2 = arith.mulf %ce, %te : f32
          %a2 = arith.addf %a1, %m2 : f32
          %m3 = arith.mulf %cs, %ts : f32
          %a3 = arith.addf %a2, %m3 : f32
          %m4 = arith.mulf %cn, %tn : f32
          %a4 = arith.addf %a3, %m4 : f32
          %m5 = arith.mulf %cb, %tb : f32
          %a5 = arith.addf %a4, %m5 : f32
          %m6 = arith.mulf %ct, %tt : f32
          %a6 = arith.addf %a5, %m6 : f32
          %m7 = arith.mulf %sdc, %p : f32
          %a7 = arith.addf %a6, %m7 : f32
          %a8 = arith.addf %a7, %ct_amb : f32
          affine.store %a8, %B[%z, %y, %x] : memref<?x?x?xf32>
        }
      }
    }
    affine.for %z = 0 to %nz {
      %zb0 = arith.subi %z, %c1 : index
      %zf = arith.cmpi eq, %z, %c0 : index
      %zb = arith.select %zf, %z, %zb0 : index
      %zt0 = arith.addi %z, %c1 : index
      %zl = arith.cmpi eq, %z, %zlast : index
      %zt = arith.select %zl, %z, %zt0 : index
      affine.for %y = 0 to %ny {
        %yn0 = arith.subi %y, %c1 : index
        %yf = arith.cmpi eq, %y, %c0 : index
        %yn = arith.select %yf, %y, %yn0 : index
        %ys0 = arith.addi %y, %c1 : index
        %yl = arith.cmpi eq, %y, %ylast : index
        %ys = arith.select %yl, %y, %ys0 : index
        affine.for %x = 0 to %nx {
          %xw0 = arith.subi %x, %c1 : index
          %xf = arith.cmpi eq, %x, %c0 : index
          %xw = arith.select %xf, %x, %xw0 : index
          %xe0 = arith.addi %x, %c1 : index
          %xl = arith.cmpi eq, %x, %xlast : index
          %xe = arith.select %xl, %x, %xe0 : index
          %tc = affine.load %B[%z, %y, %x] : memref<?x?x?xf32>
          %tw = memref.load %B[%z, %y, %xw] : memref<?x?x?xf32>
          %te = memref.load %B[%z, %y, %xe] : memref<?x?x?xf32>
          %ts = memref.load %B[%z, %ys, %x] : memref<?x?x?xf32>
          %tn = memref.load %B[%z, %yn, %x] : memref<?x?x?xf32>
          %tb = memref.load %B[%zb, %y, %x] : memref<?x?x?xf32>
          %tt = memref.load %B[%zt, %y, %x] : memref<?x?x?xf32>
          %p = affine.load %P[%z, %y, %x] : memref<?x?x?xf32>
          %m0 = arith.mulf %cc, %tc : f32
          %m1 = arith.mulf %cw, %tw : f32
          %a1 = arith.addf %m0, %m1 : f32
          %m2 = arith.mulf %ce, %te : f32
          %a2 = arith.addf %a1, %m2 : f32
          %m3 = arith.mulf %cs, %ts : f32
          %a3 = arith.addf %a2, %m3 : f32
          %m4 = arith.mulf %cn, %tn : f32
          %a4 = arith.addf %a3, %m4 : f32
          %m5 = arith.mulf %cb, %tb : f32
          %a5 = arith.addf %a4, %m5 : f32
          %m6 = arith.mulf %ct, %tt : f32
          %a6 = arith.addf %a5, %m6 : f32
          %m7 = arith.mulf %sdc, %p : f32
          %a7 = arith.addf %a6, %m7 : f32
          %a8 = arith.addf %a7, %ct_amb : f32
          affine.store %a8, %T[%z, %y, %x] : memref<?x?x?xf32>
        }
      }
    }
  }
  func.return
}
