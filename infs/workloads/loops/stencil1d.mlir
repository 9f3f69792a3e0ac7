// stencil1d (ASPLOS'23 Table 3, Fig. 4(a)) as plain loops: the 3-point stencil
//   B[i] = C0*A[i-1] + C0*A[i+1] + C1*A[i]   for 1 <= i < N-1,
// (neighbours weighted by C0 = W[0], the centre by C1 = W[1], written tap by tap),
// T steps (T even) ping-ponging A -> B -> A.  extract-streams keeps the time
// loop on the host (its body is two loop nests) and turns each sweep into a
// region, as infs/workloads/stencil1d.mlir is written by hand.
// Its float ops carry fastmath<reassoc,contract> (see infs/workloads/stencil1d.mlir).
func.func @stencil1d(%A: memref<?xf32>, %B: memref<?xf32>, %W: memref<?xf32>, %n: index, %t: index) {
  %C0 = affine.load %W[0] : memref<?xf32>
  %C1 = affine.load %W[1] : memref<?xf32>
  affine.for %it = 0 to %t step 2 {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %l = affine.load %A[%i - 1] : memref<?xf32>
      %r = affine.load %A[%i + 1] : memref<?xf32>
      %c = affine.load %A[%i] : memref<?xf32>
      %pl = arith.mulf %C0, %l fastmath<reassoc,contract> : f32
      %pr = arith.mulf %C0, %r fastmath<reassoc,contract> : f32
      %s1 = arith.addf %pl, %pr fastmath<reassoc,contract> : f32
      %pc = arith.mulf %C1, %c fastmath<reassoc,contract> : f32
      %s2 = arith.addf %s1, %pc fastmath<reassoc,contract> : f32
      affine.store %s2, %B[%i] : memref<?xf32>
    }
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
      %l = affine.load %B[%i - 1] : memref<?xf32>
      %r = affine.load %B[%i + 1] : memref<?xf32>
      %c = affine.load %B[%i] : memref<?xf32>
      %pl = arith.mulf %C0, %l fastmath<reassoc,contract> : f32
      %pr = arith.mulf %C0, %r fastmath<reassoc,contract> : f32
      %s1 = arith.addf %pl, %pr fastmath<reassoc,contract> : f32
      %pc = arith.mulf %C1, %c fastmath<reassoc,contract> : f32
      %s2 = arith.addf %s1, %pc fastmath<reassoc,contract> : f32
      affine.store %s2, %A[%i] : memref<?xf32>
    }
  }
  func.return
}
