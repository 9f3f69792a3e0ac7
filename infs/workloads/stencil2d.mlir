// stencil2d (ASPLOS'23 Table 3; the stencil of Fig. 6): 5-point stencil on an M x N grid,
//   B[i][j] = C0*A[i-1][j] + C0*A[i+1][j] + C0*A[i][j-1] + C0*A[i][j+1] + C1*A[i][j]
// for 1 <= i < M-1, 1 <= j < N-1, iterated T times (T even) with ping-pong
// buffers A -> B -> A on the host.  As in the paper (§3.2 "Reuse Common Comp.":
// "instead of multiplying by C0 four times, we can reuse the result"; Appendix:
// "Since we are multiplying by a constant C_0 and C_1, we can use distributive
// rule"), the four neighbours share one constant C0 = W[0] and the centre has
// C1 = W[1]; both are loaded on the host and passed to the region as f32 scalars.
// The compute is written tap by tap (C0 multiplies each neighbour): finding
// Fig. 6's reuse is optimize-tdfg's job, not the programmer's.  Boundary cells of
// both buffers are never written; after the call the last step's result is in A.
// infs/workloads/loops/stencil2d.mlir is the same program as plain loops.
// Its float ops carry fastmath<reassoc,contract>: optimize-tdfg may reassociate the taps
// (Fig. 6's reuse), as a C compiler may under -ffast-math; without the flag the runtime
// keeps the program's rounding (driver.floats_may_reassociate).
func.func @stencil2d(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %W: memref<?xf32>, %m: index, %n: index, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %C0 = memref.load %W[%c0] : memref<?xf32>
  %C1 = memref.load %W[%c1] : memref<?xf32>
  scf.for %it = %c0 to %t step %c2 {
    // A -> B
    stream.region ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) syms(M = %m : index, N = %n : index, C0 = %C0 : f32, C1 = %C1 : f32) domain [1:M - 1, 1:N - 1] iterators [parallel, parallel] {
    ^bb0(%src: memref<?x?xf32>, %dst: memref<?x?xf32>, %M: index, %N: index, %k0: f32, %k1: f32):
      %up = stream.load %src[d0 - 1, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %down = stream.load %src[d0 + 1, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %left = stream.load %src[d0, d1 - 1] : memref<?x?xf32> -> !stream.stream<f32>
      %right = stream.load %src[d0, d1 + 1] : memref<?x?xf32> -> !stream.stream<f32>
      %centre = stream.load %src[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %s = stream.compute(%k0, %up, %down, %left, %right, %k1, %centre : f32, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%v0: f32, %vu: f32, %vd: f32, %vl: f32, %vr: f32, %v1: f32, %vc: f32):
        %pu = arith.mulf %v0, %vu fastmath<reassoc,contract> : f32
        %pd = arith.mulf %v0, %vd fastmath<reassoc,contract> : f32
        %s1 = arith.addf %pu, %pd fastmath<reassoc,contract> : f32
        %pl = arith.mulf %v0, %vl fastmath<reassoc,contract> : f32
        %s2 = arith.addf %s1, %pl fastmath<reassoc,contract> : f32
        %pr = arith.mulf %v0, %vr fastmath<reassoc,contract> : f32
        %s3 = arith.addf %s2, %pr fastmath<reassoc,contract> : f32
        %pc = arith.mulf %v1, %vc fastmath<reassoc,contract> : f32
        %s4 = arith.addf %s3, %pc fastmath<reassoc,contract> : f32
        stream.yield %s4 : f32
      }
      stream.store %s -> %dst[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
      stream.yield
    }
    // B -> A
    stream.region ins(%B, %A : memref<?x?xf32>, memref<?x?xf32>) syms(M = %m : index, N = %n : index, C0 = %C0 : f32, C1 = %C1 : f32) domain [1:M - 1, 1:N - 1] iterators [parallel, parallel] {
    ^bb0(%src: memref<?x?xf32>, %dst: memref<?x?xf32>, %M: index, %N: index, %k0: f32, %k1: f32):
      %up = stream.load %src[d0 - 1, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %down = stream.load %src[d0 + 1, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %left = stream.load %src[d0, d1 - 1] : memref<?x?xf32> -> !stream.stream<f32>
      %right = stream.load %src[d0, d1 + 1] : memref<?x?xf32> -> !stream.stream<f32>
      %centre = stream.load %src[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %s = stream.compute(%k0, %up, %down, %left, %right, %k1, %centre : f32, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%v0: f32, %vu: f32, %vd: f32, %vl: f32, %vr: f32, %v1: f32, %vc: f32):
        %pu = arith.mulf %v0, %vu fastmath<reassoc,contract> : f32
        %pd = arith.mulf %v0, %vd fastmath<reassoc,contract> : f32
        %s1 = arith.addf %pu, %pd fastmath<reassoc,contract> : f32
        %pl = arith.mulf %v0, %vl fastmath<reassoc,contract> : f32
        %s2 = arith.addf %s1, %pl fastmath<reassoc,contract> : f32
        %pr = arith.mulf %v0, %vr fastmath<reassoc,contract> : f32
        %s3 = arith.addf %s2, %pr fastmath<reassoc,contract> : f32
        %pc = arith.mulf %v1, %vc fastmath<reassoc,contract> : f32
        %s4 = arith.addf %s3, %pc fastmath<reassoc,contract> : f32
        stream.yield %s4 : f32
      }
      stream.store %s -> %dst[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
      stream.yield
    }
  }
  func.return
}
