// srad (Rodinia srad_v2; near-stream computing, HPCA'22 Table VI) as plain loops:
// speckle-reducing anisotropic diffusion of the image J (rows x cols, f32), iters times:
//   the ROI statistics (the whole image): q0sqr = var / mean^2 from sum(J), sum(J^2);
//   for each pixel: the four differences dN, dS, dW, dE to its neighbours (through the
//     clamped index arrays iN, iS, jW, jE, as Rodinia's main builds them), the
//     diffusion coefficient C = 1 / (1 + (qsqr - q0sqr) / (q0sqr (1 + q0sqr))),
//     clamped to [0, 1];
//   then J += (lambda / 4) * (C*dN + C[iS]*dS + C*dW + C[jE]*dE).
// All arithmetic in f32 (Rodinia mixes in double constants); L holds lambda.
// Streams (NSC Table II): affine loads, indirect loads (the neighbour rows and
// columns through iN/iS/jW/jE), two affine reductions, affine multi-operand stores.
func.func @srad(%J: memref<?x?xf32>, %iN: memref<?xi32>, %iS: memref<?xi32>, %jW: memref<?xi32>, %jE: memref<?xi32>, %dN: memref<?x?xf32>, %dS: memref<?x?xf32>, %dW: memref<?x?xf32>, %dE: memref<?x?xf32>, %C: memref<?x?xf32>, %L: memref<?xf32>, %rows: index, %cols: index, %iters: index) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %quarter = arith.constant 0.25 : f32
  %sixteenth = arith.constant 0.0625 : f32
  %lambda = affine.load %L[0] : memref<?xf32>
  %step = arith.mulf %quarter, %lambda : f32
  %npix = arith.muli %rows, %cols : index
  %npix_i = arith.index_cast %npix : index to i64
  %size = arith.sitofp %npix_i : i64 to f32
  affine.for %it = 0 to %iters {
    %sums:2 = affine.for %i = 0 to %rows iter_args(%s0 = %zero, %q0 = %zero) -> (f32, f32) {
      %row:2 = affine.for %j = 0 to %cols iter_args(%s = %s0, %q = %q0) -> (f32, f32) {
        %v = affine.load %J[%i, %j] : memref<?x?xf32>
        %s1 = arith.addf %s, %v : f32
        %v2 = arith.mulf %v, %v : f32
        %q1 = arith.addf %q, %v2 : f32
        affine.yield %s1, %q1 : f32, f32
      }
      affine.yield %row#0, %row#1 : f32, f32
    }
    %mean = arith.divf %sums#0, %size : f32
    %ms = arith.divf %sums#1, %size : f32
    %mm = arith.mulf %mean, %mean : f32
    %var = arith.subf %ms, %mm : f32
    %q0sqr = arith.divf %var, %mm : f32
    %q1 = arith.addf %one, %q0sqr : f32
    %qden = arith.mulf %q0sqr, %q1 : f32
    affine.for %i = 0 to %rows {
      affine.for %j = 0 to %cols {
        %jc = affine.load %J[%i, %j] : memref<?x?xf32>
        %in = affine.load %iN[%i] : memref<?xi32>
        %is = affine.load %iS[%i] : memref<?xi32>
        %jw = affine.load %jW[%j] : memref<?xi32>
        %je = affine.load %jE[%j] : memref<?xi32>
        %ini = arith.index_cast %in : i32 to index
        %isi = arith.index_cast %is : i32 to index
        %jwi = arith.index_cast %jw : i32 to index
        %jei = arith.index_cast %je : i32 to index
        %vn = memref.load %J[%ini, %j] : memref<?x?xf32>
        %vs = memref.load %J[%isi, %j] : memref<?x?xf32>
        %vw = memref.load %J[%i, %jwi] : memref<?x?xf32>
        %ve = memref.load %J[%i, %jei] : memref<?x?xf32>
        %dn = arith.subf %vn, %jc : f32
        %ds = arith.subf %vs, %jc : f32
        %dw = arith.subf %vw, %jc : f32
        %de = arith.subf %ve, %jc : f32
        affine.store %dn, %dN[%i, %j] : memref<?x?xf32>
        affine.store %ds, %dS[%i, %j] : memref<?x?xf32>
        affine.store %dw, %dW[%i, %j] : memref<?x?xf32>
        affine.store %de, %dE[%i, %j] : memref<?x?xf32>
        %nn = arith.mulf %dn, %dn : f32
        %ss = arith.mulf %ds, %ds : f32
        %ww = arith.mulf %dw, %dw : f32
        %ee = arith.mulf %de, %de : f32
        %g1 = arith.addf %nn, %ss : f32
        %g2 = arith.addf %g1, %ww : f32
        %g3 = arith.addf %g2, %ee : f32
        %jc2 = arith.mulf %jc, %jc : f32
        %G2 = arith.divf %g3, %jc2 : f32
        %l1 = arith.addf %dn, %ds : f32
        %l2 = arith.addf %l1, %dw : f32
        %l3 = arith.addf %l2, %de : f32
        %Lap = arith.divf %l3, %jc : f32
        %hg = arith.mulf %half, %G2 : f32
        %ll = arith.mulf %Lap, %Lap : f32
        %sl = arith.mulf %sixteenth, %ll : f32
        %num = arith.subf %hg, %sl : f32
        %ql = arith.mulf %quarter, %Lap : f32
        %den = arith.addf %one, %ql : f32
        %den2 = arith.mulf %den, %den : f32
        %qsqr = arith.divf %num, %den2 : f32
        %dq = arith.subf %qsqr, %q0sqr : f32
        %dd = arith.divf %dq, %qden : f32
        %dd1 = arith.addf %one, %dd : f32
        %c = arith.divf %one, %dd1 : f32
        %neg = arith.cmpf olt, %c, %zero : f32
        %cc = scf.if %neg -> (f32) {
          scf.yield %zero : f32
        } else {
          %big = arith.cmpf ogt, %c, %one : f32
          %cb = arith.select %big, %one, %c : f32
          scf.yield %cb : f32
        }
        affine.store %cc, %C[%i, %j] : memref<?x?xf32>
      }
    }
    affine.for %i = 0 to %rows {
      affine.for %j = 0 to %cols {
        %cn = affine.load %C[%i, %j] : memref<?x?xf32>
        %is = affine.load %iS[%i] : memref<?xi32>
        %je = affine.load %jE[%j] : memref<?xi32>
        %isi = arith.index_cast %is : i32 to index
        %jei = arith.index_cast %je : i32 to index
        %cs = memref.load %C[%isi, %j] : memref<?x?xf32>
        %ce = memref.load %C[%i, %jei] : memref<?x?xf32>
        %dn = affine.load %dN[%i, %j] : memref<?x?xf32>
        %ds = affine.load %dS[%i, %j] : memref<?x?xf32>
        %dw = affine.load %dW[%i, %j] : memref<?x?xf32>
        %de = affine.load %dE[%i, %j] : memref<?x?xf32>
        %t1 = arith.mulf %cn, %dn : f32
        %t2 = arith.mulf %cs, %ds : f32
        %t3 = arith.mulf %cn, %dw : f32
        %t4 = arith.mulf %ce, %de : f32
        %a1 = arith.addf %t1, %t2 : f32
        %a2 = arith.addf %a1, %t3 : f32
        %D = arith.addf %a2, %t4 : f32
        %old = affine.load %J[%i, %j] : memref<?x?xf32>
        %upd = arith.mulf %step, %D : f32
        %new = arith.addf %old, %upd : f32
        affine.store %new, %J[%i, %j] : memref<?x?xf32>
      }
    }
  }
  func.return
}
