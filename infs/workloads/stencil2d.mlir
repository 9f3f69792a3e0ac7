// stencil2d (ASPLOS'23 Table 3): 5-point weighted stencil on an M x N grid,
//   B[i][j] = w0*A[i][j] + w1*A[i-1][j] + w2*A[i+1][j] + w3*A[i][j-1] + w4*A[i][j+1]
// for 1 <= i < M-1, 1 <= j < N-1, iterated T times (T even) with ping-pong
// buffers A -> B -> A on the host.  The five weights W[0..4] are loaded on the
// host and passed to the region as f32 scalars.  Boundary cells of both
// buffers are never written; after the call the last step's result is in A.
// (The taps are folded by a chain of computes: a near-stream function takes at
// most 8 inputs.)
func.func @stencil2d(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %W: memref<?xf32>, %m: index, %n: index, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %w0 = memref.load %W[%c0] : memref<?xf32>
  %w1 = memref.load %W[%c1] : memref<?xf32>
  %w2 = memref.load %W[%c2] : memref<?xf32>
  %w3 = memref.load %W[%c3] : memref<?xf32>
  %w4 = memref.load %W[%c4] : memref<?xf32>
  scf.for %it = %c0 to %t step %c2 {
    // A -> B
    stream.region ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) syms(M = %m : index, N = %n : index, w0 = %w0 : f32, w1 = %w1 : f32, w2 = %w2 : f32, w3 = %w3 : f32, w4 = %w4 : f32) domain [1:M - 1, 1:N - 1] iterators [parallel, parallel] {
    ^bb0(%src: memref<?x?xf32>, %dst: memref<?x?xf32>, %M: index, %N: index, %x0: f32, %x1: f32, %x2: f32, %x3: f32, %x4: f32):
      %a0 = stream.load %src[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %a1 = stream.load %src[d0 - 1, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %a2 = stream.load %src[d0 + 1, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %a3 = stream.load %src[d0, d1 - 1] : memref<?x?xf32> -> !stream.stream<f32>
      %a4 = stream.load %src[d0, d1 + 1] : memref<?x?xf32> -> !stream.stream<f32>
      %p0 = stream.compute(%a0, %a1, %a2, %x0, %x1, %x2 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32, f32, f32) -> !stream.stream<f32> {
      ^bb1(%v0: f32, %v1: f32, %v2: f32, %k0: f32, %k1: f32, %k2: f32):
        %m0 = arith.mulf %k0, %v0 : f32
        %m1 = arith.mulf %k1, %v1 : f32
        %s1 = arith.addf %m0, %m1 : f32
        %m2 = arith.mulf %k2, %v2 : f32
        %s2 = arith.addf %s1, %m2 : f32
        stream.yield %s2 : f32
      }
      %p1 = stream.compute(%p0, %a3, %a4, %x3, %x4 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32, f32) -> !stream.stream<f32> {
      ^bb2(%acc: f32, %v3: f32, %v4: f32, %k3: f32, %k4: f32):
        %m3 = arith.mulf %k3, %v3 : f32
        %s3 = arith.addf %acc, %m3 : f32
        %m4 = arith.mulf %k4, %v4 : f32
        %s4 = arith.addf %s3, %m4 : f32
        stream.yield %s4 : f32
      }
      stream.store %p1 -> %dst[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
      stream.yield
    }
    // B -> A
    stream.region ins(%B, %A : memref<?x?xf32>, memref<?x?xf32>) syms(M = %m : index, N = %n : index, w0 = %w0 : f32, w1 = %w1 : f32, w2 = %w2 : f32, w3 = %w3 : f32, w4 = %w4 : f32) domain [1:M - 1, 1:N - 1] iterators [parallel, parallel] {
    ^bb0(%src: memref<?x?xf32>, %dst: memref<?x?xf32>, %M: index, %N: index, %x0: f32, %x1: f32, %x2: f32, %x3: f32, %x4: f32):
      %a0 = stream.load %src[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %a1 = stream.load %src[d0 - 1, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %a2 = stream.load %src[d0 + 1, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %a3 = stream.load %src[d0, d1 - 1] : memref<?x?xf32> -> !stream.stream<f32>
      %a4 = stream.load %src[d0, d1 + 1] : memref<?x?xf32> -> !stream.stream<f32>
      %p0 = stream.compute(%a0, %a1, %a2, %x0, %x1, %x2 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32, f32, f32) -> !stream.stream<f32> {
      ^bb1(%v0: f32, %v1: f32, %v2: f32, %k0: f32, %k1: f32, %k2: f32):
        %m0 = arith.mulf %k0, %v0 : f32
        %m1 = arith.mulf %k1, %v1 : f32
        %s1 = arith.addf %m0, %m1 : f32
        %m2 = arith.mulf %k2, %v2 : f32
        %s2 = arith.addf %s1, %m2 : f32
        stream.yield %s2 : f32
      }
      %p1 = stream.compute(%p0, %a3, %a4, %x3, %x4 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32, f32) -> !stream.stream<f32> {
      ^bb2(%acc: f32, %v3: f32, %v4: f32, %k3: f32, %k4: f32):
        %m3 = arith.mulf %k3, %v3 : f32
        %s3 = arith.addf %acc, %m3 : f32
        %m4 = arith.mulf %k4, %v4 : f32
        %s4 = arith.addf %s3, %m4 : f32
        stream.yield %s4 : f32
      }
      stream.store %p1 -> %dst[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
      stream.yield
    }
  }
  func.return
}
