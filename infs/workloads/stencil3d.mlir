// stencil3d (ASPLOS'23 Table 3): 7-point weighted stencil on an L x M x N grid,
//   B[i][j][k] = w0*A[i][j][k] + w1*A[i-1][j][k] + w2*A[i+1][j][k]
//              + w3*A[i][j-1][k] + w4*A[i][j+1][k] + w5*A[i][j][k-1] + w6*A[i][j][k+1]
// on the interior, iterated T times (T even) with ping-pong buffers A -> B -> A
// on the host.  The seven weights W[0..6] are loaded on the host and passed as
// f32 scalars.  Boundary cells are never written; the last step's result is in A.
// (The taps are folded by a chain of computes: at most 8 inputs each.)
func.func @stencil3d(%A: memref<?x?x?xf32>, %B: memref<?x?x?xf32>, %W: memref<?xf32>, %l: index, %m: index, %n: index, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %w0 = memref.load %W[%c0] : memref<?xf32>
  %w1 = memref.load %W[%c1] : memref<?xf32>
  %w2 = memref.load %W[%c2] : memref<?xf32>
  %w3 = memref.load %W[%c3] : memref<?xf32>
  %w4 = memref.load %W[%c4] : memref<?xf32>
  %w5 = memref.load %W[%c5] : memref<?xf32>
  %w6 = memref.load %W[%c6] : memref<?xf32>
  scf.for %it = %c0 to %t step %c2 {
    // A -> B
    stream.region ins(%A, %B : memref<?x?x?xf32>, memref<?x?x?xf32>) syms(L = %l : index, M = %m : index, N = %n : index, w0 = %w0 : f32, w1 = %w1 : f32, w2 = %w2 : f32, w3 = %w3 : f32, w4 = %w4 : f32, w5 = %w5 : f32, w6 = %w6 : f32) domain [1:L - 1, 1:M - 1, 1:N - 1] iterators [parallel, parallel, parallel] {
    ^bb0(%src: memref<?x?x?xf32>, %dst: memref<?x?x?xf32>, %L: index, %M: index, %N: index, %x0: f32, %x1: f32, %x2: f32, %x3: f32, %x4: f32, %x5: f32, %x6: f32):
      %a0 = stream.load %src[d0, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %a1 = stream.load %src[d0 - 1, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %a2 = stream.load %src[d0 + 1, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %a3 = stream.load %src[d0, d1 - 1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %a4 = stream.load %src[d0, d1 + 1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %a5 = stream.load %src[d0, d1, d2 - 1] : memref<?x?x?xf32> -> !stream.stream<f32>
      %a6 = stream.load %src[d0, d1, d2 + 1] : memref<?x?x?xf32> -> !stream.stream<f32>
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
      %p2 = stream.compute(%p1, %a5, %a6, %x5, %x6 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32, f32) -> !stream.stream<f32> {
      ^bb3(%acc: f32, %v5: f32, %v6: f32, %k5: f32, %k6: f32):
        %m5 = arith.mulf %k5, %v5 : f32
        %s5 = arith.addf %acc, %m5 : f32
        %m6 = arith.mulf %k6, %v6 : f32
        %s6 = arith.addf %s5, %m6 : f32
        stream.yield %s6 : f32
      }
      stream.store %p2 -> %dst[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
      stream.yield
    }
    // B -> A
    stream.region ins(%B, %A : memref<?x?x?xf32>, memref<?x?x?xf32>) syms(L = %l : index, M = %m : index, N = %n : index, w0 = %w0 : f32, w1 = %w1 : f32, w2 = %w2 : f32, w3 = %w3 : f32, w4 = %w4 : f32, w5 = %w5 : f32, w6 = %w6 : f32) domain [1:L - 1, 1:M - 1, 1:N - 1] iterators [parallel, parallel, parallel] {
    ^bb0(%src: memref<?x?x?xf32>, %dst: memref<?x?x?xf32>, %L: index, %M: index, %N: index, %x0: f32, %x1: f32, %x2: f32, %x3: f32, %x4: f32, %x5: f32, %x6: f32):
      %a0 = stream.load %src[d0, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %a1 = stream.load %src[d0 - 1, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %a2 = stream.load %src[d0 + 1, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %a3 = stream.load %src[d0, d1 - 1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %a4 = stream.load %src[d0, d1 + 1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %a5 = stream.load %src[d0, d1, d2 - 1] : memref<?x?x?xf32> -> !stream.stream<f32>
      %a6 = stream.load %src[d0, d1, d2 + 1] : memref<?x?x?xf32> -> !stream.stream<f32>
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
      %p2 = stream.compute(%p1, %a5, %a6, %x5, %x6 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32, f32) -> !stream.stream<f32> {
      ^bb3(%acc: f32, %v5: f32, %v6: f32, %k5: f32, %k6: f32):
        %m5 = arith.mulf %k5, %v5 : f32
        %s5 = arith.addf %acc, %m5 : f32
        %m6 = arith.mulf %k6, %v6 : f32
        %s6 = arith.addf %s5, %m6 : f32
        stream.yield %s6 : f32
      }
      stream.store %p2 -> %dst[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
      stream.yield
    }
  }
  func.return
}
