// stencil3d (ASPLOS'23 Table 3): 7-point stencil on an L x M x N grid, the 3-D form
// of Fig. 6's stencil,
//   B[i][j][k] = C0*(A[i-1][j][k] + A[i+1][j][k] + A[i][j-1][k] + A[i][j+1][k]
//                    + A[i][j][k-1] + A[i][j][k+1]) + C1*A[i][j][k]
// on the interior, iterated T times (T even) with ping-pong buffers A -> B -> A
// on the host.  The six neighbours share one constant C0 = W[0] and the centre has
// C1 = W[1] (§3.2 "Reuse Common Comp.", Appendix on Fig. 6); both are loaded on the
// host and passed as f32 scalars.  The compute is written tap by tap (C0 multiplies
// each neighbour); optimize-tdfg finds the reuse.  A near-stream function takes at
// most 8 inputs, so the centre tap is a second compute.  Boundary cells are never
// written; the last step's result is in A.
// Its float ops carry fastmath<reassoc,contract>: optimize-tdfg may reassociate the taps
// (Fig. 6's reuse), as a C compiler may under -ffast-math; without the flag the runtime
// keeps the program's rounding (driver.floats_may_reassociate).
func.func @stencil3d(%A: memref<?x?x?xf32>, %B: memref<?x?x?xf32>, %W: memref<?xf32>, %l: index, %m: index, %n: index, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %C0 = memref.load %W[%c0] : memref<?xf32>
  %C1 = memref.load %W[%c1] : memref<?xf32>
  scf.for %it = %c0 to %t step %c2 {
    // A -> B
    stream.region ins(%A, %B : memref<?x?x?xf32>, memref<?x?x?xf32>) syms(L = %l : index, M = %m : index, N = %n : index, C0 = %C0 : f32, C1 = %C1 : f32) domain [1:L - 1, 1:M - 1, 1:N - 1] iterators [parallel, parallel, parallel] {
    ^bb0(%src: memref<?x?x?xf32>, %dst: memref<?x?x?xf32>, %L: index, %M: index, %N: index, %k0: f32, %k1: f32):
      %up = stream.load %src[d0 - 1, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %down = stream.load %src[d0 + 1, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %north = stream.load %src[d0, d1 - 1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %south = stream.load %src[d0, d1 + 1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %west = stream.load %src[d0, d1, d2 - 1] : memref<?x?x?xf32> -> !stream.stream<f32>
      %east = stream.load %src[d0, d1, d2 + 1] : memref<?x?x?xf32> -> !stream.stream<f32>
      %centre = stream.load %src[d0, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %nb = stream.compute(%k0, %up, %down, %north, %south, %west, %east : f32, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%v0: f32, %vu: f32, %vd: f32, %vn: f32, %vs: f32, %vw: f32, %ve: f32):
        %pu = arith.mulf %v0, %vu fastmath<reassoc,contract> : f32
        %pd = arith.mulf %v0, %vd fastmath<reassoc,contract> : f32
        %s1 = arith.addf %pu, %pd fastmath<reassoc,contract> : f32
        %pn = arith.mulf %v0, %vn fastmath<reassoc,contract> : f32
        %s2 = arith.addf %s1, %pn fastmath<reassoc,contract> : f32
        %ps = arith.mulf %v0, %vs fastmath<reassoc,contract> : f32
        %s3 = arith.addf %s2, %ps fastmath<reassoc,contract> : f32
        %pw = arith.mulf %v0, %vw fastmath<reassoc,contract> : f32
        %s4 = arith.addf %s3, %pw fastmath<reassoc,contract> : f32
        %pe = arith.mulf %v0, %ve fastmath<reassoc,contract> : f32
        %s5 = arith.addf %s4, %pe fastmath<reassoc,contract> : f32
        stream.yield %s5 : f32
      }
      %s = stream.compute(%nb, %k1, %centre : !stream.stream<f32>, f32, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb2(%acc: f32, %v1: f32, %vc: f32):
        %pc = arith.mulf %v1, %vc fastmath<reassoc,contract> : f32
        %s6 = arith.addf %acc, %pc fastmath<reassoc,contract> : f32
        stream.yield %s6 : f32
      }
      stream.store %s -> %dst[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
      stream.yield
    }
    // B -> A
    stream.region ins(%B, %A : memref<?x?x?xf32>, memref<?x?x?xf32>) syms(L = %l : index, M = %m : index, N = %n : index, C0 = %C0 : f32, C1 = %C1 : f32) domain [1:L - 1, 1:M - 1, 1:N - 1] iterators [parallel, parallel, parallel] {
    ^bb0(%src: memref<?x?x?xf32>, %dst: memref<?x?x?xf32>, %L: index, %M: index, %N: index, %k0: f32, %k1: f32):
      %up = stream.load %src[d0 - 1, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %down = stream.load %src[d0 + 1, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %north = stream.load %src[d0, d1 - 1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %south = stream.load %src[d0, d1 + 1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %west = stream.load %src[d0, d1, d2 - 1] : memref<?x?x?xf32> -> !stream.stream<f32>
      %east = stream.load %src[d0, d1, d2 + 1] : memref<?x?x?xf32> -> !stream.stream<f32>
      %centre = stream.load %src[d0, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %nb = stream.compute(%k0, %up, %down, %north, %south, %west, %east : f32, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%v0: f32, %vu: f32, %vd: f32, %vn: f32, %vs: f32, %vw: f32, %ve: f32):
        %pu = arith.mulf %v0, %vu fastmath<reassoc,contract> : f32
        %pd = arith.mulf %v0, %vd fastmath<reassoc,contract> : f32
        %s1 = arith.addf %pu, %pd fastmath<reassoc,contract> : f32
        %pn = arith.mulf %v0, %vn fastmath<reassoc,contract> : f32
        %s2 = arith.addf %s1, %pn fastmath<reassoc,contract> : f32
        %ps = arith.mulf %v0, %vs fastmath<reassoc,contract> : f32
        %s3 = arith.addf %s2, %ps fastmath<reassoc,contract> : f32
        %pw = arith.mulf %v0, %vw fastmath<reassoc,contract> : f32
        %s4 = arith.addf %s3, %pw fastmath<reassoc,contract> : f32
        %pe = arith.mulf %v0, %ve fastmath<reassoc,contract> : f32
        %s5 = arith.addf %s4, %pe fastmath<reassoc,contract> : f32
        stream.yield %s5 : f32
      }
      %s = stream.compute(%nb, %k1, %centre : !stream.stream<f32>, f32, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb2(%acc: f32, %v1: f32, %vc: f32):
        %pc = arith.mulf %v1, %vc fastmath<reassoc,contract> : f32
        %s6 = arith.addf %acc, %pc fastmath<reassoc,contract> : f32
        stream.yield %s6 : f32
      }
      stream.store %s -> %dst[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
      stream.yield
    }
  }
  func.return
}
