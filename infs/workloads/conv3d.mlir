// conv3d (ASPLOS'23 Table 3): multi-channel 3x3 convolution (a CNN layer),
//   O[o][y][x] = sum_{i < CI} sum_{a,b in 0..2} K[o][i][3a+b] * I[i][y+a-1][x+b-1]
// for 0 <= o < CO, 1 <= y < H-1, 1 <= x < W-1 (boundary cells of O stay 0).
// Layout: I is CI x H x W, O is CO x H x W, K is CO x CI x 9 (the 3x3 taps
// flattened: streams address at most three array dims).
// O is zeroed by a first region.  The input-channel loop carries the
// accumulation into O and stays on the host; each of its iterations is one
// region over (o, y, x) with the 3x3 taps unrolled, as in the paper's code:
// input plane i is broadcast along o, the weights K[o][i][*] along y and x.
// Its float ops carry fastmath<reassoc,contract>: optimize-tdfg may reassociate the taps
// (Fig. 6's reuse), as a C compiler may under -ffast-math; without the flag the runtime
// keeps the program's rounding (driver.floats_may_reassociate).
func.func @conv3d(%I: memref<?x?x?xf32>, %K: memref<?x?x?xf32>, %O: memref<?x?x?xf32>, %ci: index, %co: index, %h: index, %w: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  stream.region ins(%O : memref<?x?x?xf32>) syms(CO = %co : index, H = %h : index, W = %w : index) domain [0:CO, 0:H, 0:W] iterators [parallel, parallel, parallel] {
  ^bb0(%out: memref<?x?x?xf32>, %CO: index, %H: index, %W: index):
    %z = stream.compute() -> !stream.stream<f32> {
    ^bb1():
      %zero = arith.constant 0.0 : f32
      stream.yield %zero : f32
    }
    stream.store %z -> %out[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
    stream.yield
  }
  scf.for %i = %c0 to %ci step %c1 {
    stream.region ins(%I, %K, %O : memref<?x?x?xf32>, memref<?x?x?xf32>, memref<?x?x?xf32>) syms(CO = %co : index, H = %h : index, W = %w : index, i = %i : index) domain [0:CO, 1:H - 1, 1:W - 1] iterators [parallel, parallel, parallel] {
    ^bb0(%in: memref<?x?x?xf32>, %k: memref<?x?x?xf32>, %out: memref<?x?x?xf32>, %CO: index, %H: index, %W: index, %ii: index):
      %i00 = stream.load %in[i, d1 - 1, d2 - 1] : memref<?x?x?xf32> -> !stream.stream<f32>
      %i01 = stream.load %in[i, d1 - 1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %i02 = stream.load %in[i, d1 - 1, d2 + 1] : memref<?x?x?xf32> -> !stream.stream<f32>
      %i10 = stream.load %in[i, d1, d2 - 1] : memref<?x?x?xf32> -> !stream.stream<f32>
      %i11 = stream.load %in[i, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %i12 = stream.load %in[i, d1, d2 + 1] : memref<?x?x?xf32> -> !stream.stream<f32>
      %i20 = stream.load %in[i, d1 + 1, d2 - 1] : memref<?x?x?xf32> -> !stream.stream<f32>
      %i21 = stream.load %in[i, d1 + 1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %i22 = stream.load %in[i, d1 + 1, d2 + 1] : memref<?x?x?xf32> -> !stream.stream<f32>
      %k00 = stream.load %k[d0, i, 0] : memref<?x?x?xf32> -> !stream.stream<f32>
      %k01 = stream.load %k[d0, i, 1] : memref<?x?x?xf32> -> !stream.stream<f32>
      %k02 = stream.load %k[d0, i, 2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %k10 = stream.load %k[d0, i, 3] : memref<?x?x?xf32> -> !stream.stream<f32>
      %k11 = stream.load %k[d0, i, 4] : memref<?x?x?xf32> -> !stream.stream<f32>
      %k12 = stream.load %k[d0, i, 5] : memref<?x?x?xf32> -> !stream.stream<f32>
      %k20 = stream.load %k[d0, i, 6] : memref<?x?x?xf32> -> !stream.stream<f32>
      %k21 = stream.load %k[d0, i, 7] : memref<?x?x?xf32> -> !stream.stream<f32>
      %k22 = stream.load %k[d0, i, 8] : memref<?x?x?xf32> -> !stream.stream<f32>
      %r0 = stream.compute(%i00, %i01, %i02, %k00, %k01, %k02 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%v0: f32, %v1: f32, %v2: f32, %w0: f32, %w1: f32, %w2: f32):
        %m0 = arith.mulf %w0, %v0 fastmath<reassoc,contract> : f32
        %m1 = arith.mulf %w1, %v1 fastmath<reassoc,contract> : f32
        %s1 = arith.addf %m0, %m1 fastmath<reassoc,contract> : f32
        %m2 = arith.mulf %w2, %v2 fastmath<reassoc,contract> : f32
        %s2 = arith.addf %s1, %m2 fastmath<reassoc,contract> : f32
        stream.yield %s2 : f32
      }
      %r1 = stream.compute(%i10, %i11, %i12, %k10, %k11, %k12 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%v0: f32, %v1: f32, %v2: f32, %w0: f32, %w1: f32, %w2: f32):
        %m0 = arith.mulf %w0, %v0 fastmath<reassoc,contract> : f32
        %m1 = arith.mulf %w1, %v1 fastmath<reassoc,contract> : f32
        %s1 = arith.addf %m0, %m1 fastmath<reassoc,contract> : f32
        %m2 = arith.mulf %w2, %v2 fastmath<reassoc,contract> : f32
        %s2 = arith.addf %s1, %m2 fastmath<reassoc,contract> : f32
        stream.yield %s2 : f32
      }
      %r2 = stream.compute(%i20, %i21, %i22, %k20, %k21, %k22 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%v0: f32, %v1: f32, %v2: f32, %w0: f32, %w1: f32, %w2: f32):
        %m0 = arith.mulf %w0, %v0 fastmath<reassoc,contract> : f32
        %m1 = arith.mulf %w1, %v1 fastmath<reassoc,contract> : f32
        %s1 = arith.addf %m0, %m1 fastmath<reassoc,contract> : f32
        %m2 = arith.mulf %w2, %v2 fastmath<reassoc,contract> : f32
        %s2 = arith.addf %s1, %m2 fastmath<reassoc,contract> : f32
        stream.yield %s2 : f32
      }
      %acc = stream.load %out[d0, d1, d2] : memref<?x?x?xf32> -> !stream.stream<f32>
      %s = stream.compute(%acc, %r0, %r1, %r2 : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%u: f32, %u0: f32, %u1: f32, %u2: f32):
        %t1 = arith.addf %u0, %u1 fastmath<reassoc,contract> : f32
        %t2 = arith.addf %t1, %u2 fastmath<reassoc,contract> : f32
        %t3 = arith.addf %u, %t2 fastmath<reassoc,contract> : f32
        stream.yield %t3 : f32
      }
      stream.store %s -> %out[d0, d1, d2] : !stream.stream<f32> -> memref<?x?x?xf32>
      stream.yield
    }
  }
  func.return
}
