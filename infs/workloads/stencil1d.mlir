// stencil1d (ASPLOS'23 Table 3, Fig. 4(a)): 3-point stencil,
//   B[i] = C0*A[i-1] + C0*A[i+1] + C1*A[i]   for 1 <= i < N-1,
// iterated T times (T even) with ping-pong buffers A -> B -> A on the host.
// As in the paper's stencils (Fig. 6, §3.2 "Reuse Common Comp." and the Appendix's
// Fig. 6 walk-through), the neighbours share one constant C0 = W[0] and the centre
// has C1 = W[1]; both are loaded on the host and passed to the region as f32
// scalars.  The compute is written tap by tap (C0 multiplies each neighbour):
// finding the reuse -- add the neighbours, multiply by C0 once -- is optimize-tdfg's
// job (Eq. 3, Fig. 20), not the programmer's.  Boundary cells (0, N-1) of both
// buffers are never written; after the call the last step's result is in A.
// Its float ops carry fastmath<reassoc,contract>: optimize-tdfg may reassociate the taps
// (Fig. 6's reuse), as a C compiler may under -ffast-math; without the flag the runtime
// keeps the program's rounding (driver.floats_may_reassociate).
func.func @stencil1d(%A: memref<?xf32>, %B: memref<?xf32>, %W: memref<?xf32>, %n: index, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %C0 = memref.load %W[%c0] : memref<?xf32>
  %C1 = memref.load %W[%c1] : memref<?xf32>
  scf.for %it = %c0 to %t step %c2 {
    // A -> B
    stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index, C0 = %C0 : f32, C1 = %C1 : f32) domain [1:N - 1] iterators [parallel] {
    ^bb0(%src: memref<?xf32>, %dst: memref<?xf32>, %N: index, %k0: f32, %k1: f32):
      %l = stream.load %src[d0 - 1] : memref<?xf32> -> !stream.stream<f32>
      %r = stream.load %src[d0 + 1] : memref<?xf32> -> !stream.stream<f32>
      %c = stream.load %src[d0] : memref<?xf32> -> !stream.stream<f32>
      %s = stream.compute(%k0, %l, %r, %k1, %c : f32, !stream.stream<f32>, !stream.stream<f32>, f32, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%v0: f32, %vl: f32, %vr: f32, %v1: f32, %vc: f32):
        %pl = arith.mulf %v0, %vl fastmath<reassoc,contract> : f32
        %pr = arith.mulf %v0, %vr fastmath<reassoc,contract> : f32
        %s1 = arith.addf %pl, %pr fastmath<reassoc,contract> : f32
        %pc = arith.mulf %v1, %vc fastmath<reassoc,contract> : f32
        %s2 = arith.addf %s1, %pc fastmath<reassoc,contract> : f32
        stream.yield %s2 : f32
      }
      stream.store %s -> %dst[d0] : !stream.stream<f32> -> memref<?xf32>
      stream.yield
    }
    // B -> A
    stream.region ins(%B, %A : memref<?xf32>, memref<?xf32>) syms(N = %n : index, C0 = %C0 : f32, C1 = %C1 : f32) domain [1:N - 1] iterators [parallel] {
    ^bb0(%src: memref<?xf32>, %dst: memref<?xf32>, %N: index, %k0: f32, %k1: f32):
      %l = stream.load %src[d0 - 1] : memref<?xf32> -> !stream.stream<f32>
      %r = stream.load %src[d0 + 1] : memref<?xf32> -> !stream.stream<f32>
      %c = stream.load %src[d0] : memref<?xf32> -> !stream.stream<f32>
      %s = stream.compute(%k0, %l, %r, %k1, %c : f32, !stream.stream<f32>, !stream.stream<f32>, f32, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%v0: f32, %vl: f32, %vr: f32, %v1: f32, %vc: f32):
        %pl = arith.mulf %v0, %vl fastmath<reassoc,contract> : f32
        %pr = arith.mulf %v0, %vr fastmath<reassoc,contract> : f32
        %s1 = arith.addf %pl, %pr fastmath<reassoc,contract> : f32
        %pc = arith.mulf %v1, %vc fastmath<reassoc,contract> : f32
        %s2 = arith.addf %s1, %pc fastmath<reassoc,contract> : f32
        stream.yield %s2 : f32
      }
      stream.store %s -> %dst[d0] : !stream.stream<f32> -> memref<?xf32>
      stream.yield
    }
  }
  func.return
}
