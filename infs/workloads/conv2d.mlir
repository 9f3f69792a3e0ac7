// conv2d (ASPLOS'23 Table 3): 3x3 convolution of an H x W image,
//   O[i][j] = sum_{a,b in 0..2} K[a][b] * I[i+a-1][j+b-1]   for 1 <= i < H-1, 1 <= j < W-1.
// The nine filter weights are loaded on the host and passed to the region as
// f32 scalars (shift-only data movement).  Boundary cells of O are not written.
// The taps are folded row by row (a near-stream function takes <= 8 inputs).
// Its float ops carry fastmath<reassoc,contract>: optimize-tdfg may reassociate the taps
// (Fig. 6's reuse), as a C compiler may under -ffast-math; without the flag the runtime
// keeps the program's rounding (driver.floats_may_reassociate).
func.func @conv2d(%I: memref<?x?xf32>, %K: memref<?x?xf32>, %O: memref<?x?xf32>, %h: index, %w: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k00 = memref.load %K[%c0, %c0] : memref<?x?xf32>
  %k01 = memref.load %K[%c0, %c1] : memref<?x?xf32>
  %k02 = memref.load %K[%c0, %c2] : memref<?x?xf32>
  %k10 = memref.load %K[%c1, %c0] : memref<?x?xf32>
  %k11 = memref.load %K[%c1, %c1] : memref<?x?xf32>
  %k12 = memref.load %K[%c1, %c2] : memref<?x?xf32>
  %k20 = memref.load %K[%c2, %c0] : memref<?x?xf32>
  %k21 = memref.load %K[%c2, %c1] : memref<?x?xf32>
  %k22 = memref.load %K[%c2, %c2] : memref<?x?xf32>
  stream.region ins(%I, %O : memref<?x?xf32>, memref<?x?xf32>) syms(H = %h : index, W = %w : index, k00 = %k00 : f32, k01 = %k01 : f32, k02 = %k02 : f32, k10 = %k10 : f32, k11 = %k11 : f32, k12 = %k12 : f32, k20 = %k20 : f32, k21 = %k21 : f32, k22 = %k22 : f32) domain [1:H - 1, 1:W - 1] iterators [parallel, parallel] {
  ^bb0(%in: memref<?x?xf32>, %out: memref<?x?xf32>, %H: index, %W: index, %x00: f32, %x01: f32, %x02: f32, %x10: f32, %x11: f32, %x12: f32, %x20: f32, %x21: f32, %x22: f32):
    %i00 = stream.load %in[d0 - 1, d1 - 1] : memref<?x?xf32> -> !stream.stream<f32>
    %i01 = stream.load %in[d0 - 1, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %i02 = stream.load %in[d0 - 1, d1 + 1] : memref<?x?xf32> -> !stream.stream<f32>
    %i10 = stream.load %in[d0, d1 - 1] : memref<?x?xf32> -> !stream.stream<f32>
    %i11 = stream.load %in[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %i12 = stream.load %in[d0, d1 + 1] : memref<?x?xf32> -> !stream.stream<f32>
    %i20 = stream.load %in[d0 + 1, d1 - 1] : memref<?x?xf32> -> !stream.stream<f32>
    %i21 = stream.load %in[d0 + 1, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %i22 = stream.load %in[d0 + 1, d1 + 1] : memref<?x?xf32> -> !stream.stream<f32>
    %r0 = stream.compute(%i00, %i01, %i02, %x00, %x01, %x02 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32, f32, f32) -> !stream.stream<f32> {
    ^bb1(%v0: f32, %v1: f32, %v2: f32, %w0: f32, %w1: f32, %w2: f32):
      %m0 = arith.mulf %w0, %v0 fastmath<reassoc,contract> : f32
      %m1 = arith.mulf %w1, %v1 fastmath<reassoc,contract> : f32
      %s1 = arith.addf %m0, %m1 fastmath<reassoc,contract> : f32
      %m2 = arith.mulf %w2, %v2 fastmath<reassoc,contract> : f32
      %s2 = arith.addf %s1, %m2 fastmath<reassoc,contract> : f32
      stream.yield %s2 : f32
    }
    %r1 = stream.compute(%i10, %i11, %i12, %x10, %x11, %x12 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32, f32, f32) -> !stream.stream<f32> {
    ^bb1(%v0: f32, %v1: f32, %v2: f32, %w0: f32, %w1: f32, %w2: f32):
      %m0 = arith.mulf %w0, %v0 fastmath<reassoc,contract> : f32
      %m1 = arith.mulf %w1, %v1 fastmath<reassoc,contract> : f32
      %s1 = arith.addf %m0, %m1 fastmath<reassoc,contract> : f32
      %m2 = arith.mulf %w2, %v2 fastmath<reassoc,contract> : f32
      %s2 = arith.addf %s1, %m2 fastmath<reassoc,contract> : f32
      stream.yield %s2 : f32
    }
    %r2 = stream.compute(%i20, %i21, %i22, %x20, %x21, %x22 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, f32, f32, f32) -> !stream.stream<f32> {
    ^bb1(%v0: f32, %v1: f32, %v2: f32, %w0: f32, %w1: f32, %w2: f32):
      %m0 = arith.mulf %w0, %v0 fastmath<reassoc,contract> : f32
      %m1 = arith.mulf %w1, %v1 fastmath<reassoc,contract> : f32
      %s1 = arith.addf %m0, %m1 fastmath<reassoc,contract> : f32
      %m2 = arith.mulf %w2, %v2 fastmath<reassoc,contract> : f32
      %s2 = arith.addf %s1, %m2 fastmath<reassoc,contract> : f32
      stream.yield %s2 : f32
    }
    %s = stream.compute(%r0, %r1, %r2 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u0: f32, %u1: f32, %u2: f32):
      %t1 = arith.addf %u0, %u1 fastmath<reassoc,contract> : f32
      %t2 = arith.addf %t1, %u2 fastmath<reassoc,contract> : f32
      stream.yield %t2 : f32
    }
    stream.store %s -> %out[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}
