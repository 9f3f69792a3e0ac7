// scluster (streamcluster's pgain, Rodinia/PARSEC; near-stream computing, HPCA'22
// Table VI) as plain loops: for each of iters candidate centers x = Cand[it], every
// point i's weighted squared distance to it,
//   x_cost = |X[i] - X[x]|^2 * Wt[i]
// and, as pgain does, either the point switches to x (Sw[it][i] = 1, Gain[it] +=
// x_cost - Cost[i]) or its current center is credited what opening x would not save
//   Low[it][Ctab[Asg[i]]] += Cost[i] - x_cost      (Sw[it][i] = 0).
// X is P x D (D = 16: 64-byte points), Wt, Cost are P (f32), Asg is P (i32: the point
// id of each point's center), Ctab is P (i32: a center's point id -> its number),
// Cand is iters (i32), Sw is iters x P (i32), Gain is iters (f32), Low is iters x K.
// Streams (NSC Table II): affine loads of the points, an indirect load of the
// candidate's coordinates, an affine reduction (the distance, sent back as one
// scalar), a filter (x_cost < Cost), an indirect atomic through two indirections.
func.func @scluster(%X: memref<?x?xf32>, %Wt: memref<?xf32>, %Cost: memref<?xf32>, %Asg: memref<?xi32>, %Ctab: memref<?xi32>, %Cand: memref<?xi32>, %Sw: memref<?x?xi32>, %Gain: memref<?xf32>, %Low: memref<?x?xf32>, %p: index, %d: index, %k: index, %iters: index) {
  %zero = arith.constant 0.0 : f32
  %yes = arith.constant 1 : i32
  %no = arith.constant 0 : i32
  affine.for %it = 0 to %iters {
    %xc = affine.load %Cand[%it] : memref<?xi32>
    %x = arith.index_cast %xc : i32 to index
    %g0 = affine.load %Gain[%it] : memref<?xf32>
    %g = affine.for %i = 0 to %p iter_args(%acc = %g0) -> (f32) {
      %dist = affine.for %j = 0 to %d iter_args(%s = %zero) -> (f32) {
        %a = affine.load %X[%i, %j] : memref<?x?xf32>
        %b = memref.load %X[%x, %j] : memref<?x?xf32>
        %t = arith.subf %a, %b : f32
        %t2 = arith.mulf %t, %t : f32
        %s1 = arith.addf %s, %t2 : f32
        affine.yield %s1 : f32
      }
      %w = affine.load %Wt[%i] : memref<?xf32>
      %x_cost = arith.mulf %dist, %w : f32
      %cur = affine.load %Cost[%i] : memref<?xf32>
      %switch = arith.cmpf olt, %x_cost, %cur : f32
      %next = scf.if %switch -> (f32) {
        affine.store %yes, %Sw[%it, %i] : memref<?x?xi32>
        %delta = arith.subf %x_cost, %cur : f32
        %acc1 = arith.addf %acc, %delta : f32
        scf.yield %acc1 : f32
      } else {
        affine.store %no, %Sw[%it, %i] : memref<?x?xi32>
        %asg = affine.load %Asg[%i] : memref<?xi32>
        %ai = arith.index_cast %asg : i32 to index
        %ctr = memref.load %Ctab[%ai] : memref<?xi32>
        %ci = arith.index_cast %ctr : i32 to index
        %low = memref.load %Low[%it, %ci] : memref<?x?xf32>
        %save = arith.subf %cur, %x_cost : f32
        %low1 = arith.addf %low, %save : f32
        memref.store %low1, %Low[%it, %ci] : memref<?x?xf32>
        scf.yield %acc : f32
      }
      affine.yield %next : f32
    }
    affine.store %g, %Gain[%it] : memref<?xf32>
  }
  func.return
}
