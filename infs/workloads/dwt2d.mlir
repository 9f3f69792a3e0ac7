// dwt2d (ASPLOS'23 Table 3): one level of the 2D Haar wavelet transform in
// lifting form, rows then columns, on an H x W image (H, W even).
//   predict  d = odd - even        update  s = even + d/2   (s = (even + odd)/2)
// Row pass (H x W/2 points):    T[i][j] = s(A[i][2j], A[i][2j+1]),  T[i][W/2 + j] = d(...)
// Column pass (H/2 x W points): O[i][j] = s(T[2i][j], T[2i+1][j]),  O[H/2 + i][j] = d(...)
// so O holds the four sub-bands in Mallat layout: LL | HL over LH | HH.
// The even/odd split of a decimating transform is inherently a stride-2
// access (maps 2*d1, 2*d1 + 1); everything else is unit stride.  H/2 and W/2
// are computed on the host and passed as symbols.
func.func @dwt2d(%A: memref<?x?xf32>, %T: memref<?x?xf32>, %O: memref<?x?xf32>, %h: index, %w: index) {
  %c2 = arith.constant 2 : index
  %h2 = arith.divsi %h, %c2 : index
  %w2 = arith.divsi %w, %c2 : index
  // Row pass.
  stream.region ins(%A, %T : memref<?x?xf32>, memref<?x?xf32>) syms(H = %h : index, W2 = %w2 : index) domain [0:H, 0:W2] iterators [parallel, parallel] {
  ^bb0(%a: memref<?x?xf32>, %t: memref<?x?xf32>, %H: index, %W2: index):
    %e = stream.load %a[d0, 2*d1] : memref<?x?xf32> -> !stream.stream<f32>
    %o = stream.load %a[d0, 2*d1 + 1] : memref<?x?xf32> -> !stream.stream<f32>
    %d = stream.compute(%e, %o : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%ve: f32, %vo: f32):
      %r = arith.subf %vo, %ve : f32
      stream.yield %r : f32
    }
    %s = stream.compute(%e, %d : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%ve: f32, %vd: f32):
      %half = arith.constant 0.5 : f32
      %hd = arith.mulf %vd, %half : f32
      %r = arith.addf %ve, %hd : f32
      stream.yield %r : f32
    }
    stream.store %s -> %t[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.store %d -> %t[d0, d1 + W2] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  // Column pass.
  stream.region ins(%T, %O : memref<?x?xf32>, memref<?x?xf32>) syms(H2 = %h2 : index, W = %w : index) domain [0:H2, 0:W] iterators [parallel, parallel] {
  ^bb0(%t: memref<?x?xf32>, %out: memref<?x?xf32>, %H2: index, %W: index):
    %e = stream.load %t[2*d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %o = stream.load %t[2*d0 + 1, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %d = stream.compute(%e, %o : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%ve: f32, %vo: f32):
      %r = arith.subf %vo, %ve : f32
      stream.yield %r : f32
    }
    %s = stream.compute(%e, %d : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%ve: f32, %vd: f32):
      %half = arith.constant 0.5 : f32
      %hd = arith.mulf %vd, %half : f32
      %r = arith.addf %ve, %hd : f32
      stream.yield %r : f32
    }
    stream.store %s -> %out[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.store %d -> %out[d0 + H2, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}
