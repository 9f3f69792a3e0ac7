// svm (MineBench; near-stream computing, HPCA'22 Table VI) as plain loops: a linear
// support vector machine trained by batch sub-gradient steps of the hinge loss,
// iters times over N samples of D = 16 features (64 bytes):
//   M[it][i] = Y[i] * (X[i] . Wv)                       (each sample's margin)
//   G = sum over the samples with M[it][i] < 1 of Y[i] * X[i]
//   Wv = (1 - lr*lambda) * Wv + (lr / N) * G
// X is N x D, Y is N (+1/-1), Wv and G are D, M is iters x N, K holds [lr, lambda].
// Streams (NSC Table II): affine loads of the samples, an affine reduction (the dot
// product), a filter (the margin below 1), affine reductions of the violators.
func.func @svm(%X: memref<?x?xf32>, %Y: memref<?xf32>, %Wv: memref<?xf32>, %G: memref<?xf32>, %M: memref<?x?xf32>, %K: memref<?xf32>, %n: index, %d: index, %iters: index) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %lr = affine.load %K[0] : memref<?xf32>
  %lam = affine.load %K[1] : memref<?xf32>
  %ni = arith.index_cast %n : index to i64
  %nf = arith.sitofp %ni : i64 to f32
  %lrl = arith.mulf %lr, %lam : f32
  %decay = arith.subf %one, %lrl : f32
  %scale = arith.divf %lr, %nf : f32
  affine.for %it = 0 to %iters {
    affine.for %j = 0 to %d {
      affine.store %zero, %G[%j] : memref<?xf32>
    }
    affine.for %i = 0 to %n {
      %dot = affine.for %j = 0 to %d iter_args(%s = %zero) -> (f32) {
        %x = affine.load %X[%i, %j] : memref<?x?xf32>
        %w = affine.load %Wv[%j] : memref<?xf32>
        %xw = arith.mulf %x, %w : f32
        %s1 = arith.addf %s, %xw : f32
        affine.yield %s1 : f32
      }
      %y = affine.load %Y[%i] : memref<?xf32>
      %m = arith.mulf %y, %dot : f32
      affine.store %m, %M[%it, %i] : memref<?x?xf32>
      %viol = arith.cmpf olt, %m, %one : f32
      scf.if %viol {
        affine.for %j = 0 to %d {
          %x = affine.load %X[%i, %j] : memref<?x?xf32>
          %yx = arith.mulf %y, %x : f32
          %g = affine.load %G[%j] : memref<?xf32>
          %g1 = arith.addf %g, %yx : f32
          affine.store %g1, %G[%j] : memref<?xf32>
        }
      }
    }
    affine.for %j = 0 to %d {
      %w = affine.load %Wv[%j] : memref<?xf32>
      %g = affine.load %G[%j] : memref<?xf32>
      %dw = arith.mulf %decay, %w : f32
      %sg = arith.mulf %scale, %g : f32
      %w1 = arith.addf %dw, %sg : f32
      affine.store %w1, %Wv[%j] : memref<?xf32>
    }
  }
  func.return
}
