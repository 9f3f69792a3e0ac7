// stencil1d (ASPLOS'23 Table 3, Fig. 4(a)): 3-point weighted stencil,
//   B[i] = w0*A[i-1] + w1*A[i] + w2*A[i+1]   for 1 <= i < N-1,
// iterated T times (T even) with ping-pong buffers A -> B -> A on the host.
// The weights W[0..2] are loaded on the host and passed to the region as f32
// scalars. Boundary cells (0, N-1) of both buffers are never written.
// After the call the result of the last step is in A.
func.func @stencil1d(%A: memref<?xf32>, %B: memref<?xf32>, %W: memref<?xf32>, %n: index, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %w0 = memref.load %W[%c0] : memref<?xf32>
  %w1 = memref.load %W[%c1] : memref<?xf32>
  %w2 = memref.load %W[%c2] : memref<?xf32>
  scf.for %it = %c0 to %t step %c2 {
    // A -> B
    stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index, w0 = %w0 : f32, w1 = %w1 : f32, w2 = %w2 : f32) domain [1:N - 1] iterators [parallel] {
    ^bb0(%src: memref<?xf32>, %dst: memref<?xf32>, %N: index, %x0: f32, %x1: f32, %x2: f32):
      %l = stream.load %src[d0 - 1] : memref<?xf32> -> !stream.stream<f32>
      %c = stream.load %src[d0] : memref<?xf32> -> !stream.stream<f32>
      %r = stream.load %src[d0 + 1] : memref<?xf32> -> !stream.stream<f32>
      %s = stream.compute(%l, %c, %r, %x0, %x1, %x2 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32, f32, f32) -> !stream.stream<f32> {
      ^bb1(%vl: f32, %vc: f32, %vr: f32, %k0: f32, %k1: f32, %k2: f32):
        %p0 = arith.mulf %k0, %vl : f32
        %p1 = arith.mulf %k1, %vc : f32
        %p2 = arith.mulf %k2, %vr : f32
        %s01 = arith.addf %p0, %p1 : f32
        %s012 = arith.addf %s01, %p2 : f32
        stream.yield %s012 : f32
      }
      stream.store %s -> %dst[d0] : !stream.stream<f32> -> memref<?xf32>
      stream.yield
    }
    // B -> A
    stream.region ins(%B, %A : memref<?xf32>, memref<?xf32>) syms(N = %n : index, w0 = %w0 : f32, w1 = %w1 : f32, w2 = %w2 : f32) domain [1:N - 1] iterators [parallel] {
    ^bb0(%src: memref<?xf32>, %dst: memref<?xf32>, %N: index, %x0: f32, %x1: f32, %x2: f32):
      %l = stream.load %src[d0 - 1] : memref<?xf32> -> !stream.stream<f32>
      %c = stream.load %src[d0] : memref<?xf32> -> !stream.stream<f32>
      %r = stream.load %src[d0 + 1] : memref<?xf32> -> !stream.stream<f32>
      %s = stream.compute(%l, %c, %r, %x0, %x1, %x2 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32, f32, f32) -> !stream.stream<f32> {
      ^bb1(%vl: f32, %vc: f32, %vr: f32, %k0: f32, %k1: f32, %k2: f32):
        %p0 = arith.mulf %k0, %vl : f32
        %p1 = arith.mulf %k1, %vc : f32
        %p2 = arith.mulf %k2, %vr : f32
        %s01 = arith.addf %p0, %p1 : f32
        %s012 = arith.addf %s01, %p2 : f32
        stream.yield %s012 : f32
      }
      stream.store %s -> %dst[d0] : !stream.stream<f32> -> memref<?xf32>
      stream.yield
    }
  }
  func.return
}
