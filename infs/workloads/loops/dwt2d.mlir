// dwt2d (ASPLOS'23 Table 3) as plain loops: one level of the 2D Haar wavelet
// transform in lifting form (predict d = odd - even, update s = even + d/2),
// rows of A into T, then columns of T into O (Mallat layout), H and W even.
// H/2 and W/2 are computed once on the host.  extract-streams turns each pass
// into one region with stride-2 loads, as infs/workloads/dwt2d.mlir is written
// by hand.
func.func @dwt2d(%A: memref<?x?xf32>, %T: memref<?x?xf32>, %O: memref<?x?xf32>, %h: index, %w: index) {
  %c2 = arith.constant 2 : index
  %half = arith.constant 0.5 : f32
  %h2 = arith.divsi %h, %c2 : index
  %w2 = arith.divsi %w, %c2 : index
  // Row pass.
  affine.for %i = 0 to %h {
    affine.for %j = 0 to %w2 {
      %e = affine.load %A[%i, 2 * %j] : memref<?x?xf32>
      %o = affine.load %A[%i, 2 * %j + 1] : memref<?x?xf32>
      %d = arith.subf %o, %e : f32
      %hd = arith.mulf %d, %half : f32
      %s = arith.addf %e, %hd : f32
      affine.store %s, %T[%i, %j] : memref<?x?xf32>
      affine.store %d, %T[%i, %j + %w2] : memref<?x?xf32>
    }
  }
  // Column pass.
  affine.for %i = 0 to %h2 {
    affine.for %j = 0 to %w {
      %e = affine.load %T[2 * %i, %j] : memref<?x?xf32>
      %o = affine.load %T[2 * %i + 1, %j] : memref<?x?xf32>
      %d = arith.subf %o, %e : f32
      %hd = arith.mulf %d, %half : f32
      %s = arith.addf %e, %hd : f32
      affine.store %s, %O[%i, %j] : memref<?x?xf32>
      affine.store %d, %O[%i + %h2, %j] : memref<?x?xf32>
    }
  }
  func.return
}
