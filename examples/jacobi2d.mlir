// jacobi-2d (PolyBench/C 4.2's kernel_jacobi_2d) in single precision, as plain
// affine loops -- what Polygeist's cgeist prints for the C code, with float
// instead of double and both sizes run-time values:
//
//   for (t = 0; t < tsteps; t++) {
//     for (i = 1; i < n - 1; i++) for (j = 1; j < n - 1; j++)
//       B[i][j] = 0.2f * (A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j]);
//     for (i = 1; i < n - 1; i++) for (j = 1; j < n - 1; j++)
//       A[i][j] = 0.2f * (B[i][j] + B[i][j-1] + B[i][j+1] + B[i+1][j] + B[i-1][j]);
//   }
//
// No stream.region is written by hand: infs-run finds them (extract-streams),
// keeps the time loop on the host and runs each sweep where the runtime decides.
//   infs-run examples/jacobi2d.mlir --sizes n=2048,tsteps=10 --shape A=2048x2048,B=2048x2048 --config paper-64 --mode auto --check
#map = affine_map<()[s0] -> (s0 - 1)>
func.func @kernel_jacobi_2d(%tsteps: index, %n: index, %A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %cst = arith.constant 2.000000e-01 : f32
  affine.for %t = 0 to %tsteps {
    affine.for %i = 1 to #map()[%n] {
      affine.for %j = 1 to #map()[%n] {
        %0 = affine.load %A[%i, %j] : memref<?x?xf32>
        %1 = affine.load %A[%i, %j - 1] : memref<?x?xf32>
        %2 = arith.addf %0, %1 : f32
        %3 = affine.load %A[%i, %j + 1] : memref<?x?xf32>
        %4 = arith.addf %2, %3 : f32
        %5 = affine.load %A[%i + 1, %j] : memref<?x?xf32>
        %6 = arith.addf %4, %5 : f32
        %7 = affine.load %A[%i - 1, %j] : memref<?x?xf32>
        %8 = arith.addf %6, %7 : f32
        %9 = arith.mulf %8, %cst : f32
        affine.store %9, %B[%i, %j] : memref<?x?xf32>
      }
    }
    affine.for %i = 1 to #map()[%n] {
      affine.for %j = 1 to #map()[%n] {
        %0 = affine.load %B[%i, %j] : memref<?x?xf32>
        %1 = affine.load %B[%i, %j - 1] : memref<?x?xf32>
        %2 = arith.addf %0, %1 : f32
        %3 = affine.load %B[%i, %j + 1] : memref<?x?xf32>
        %4 = arith.addf %2, %3 : f32
        %5 = affine.load %B[%i + 1, %j] : memref<?x?xf32>
        %6 = arith.addf %4, %5 : f32
        %7 = affine.load %B[%i - 1, %j] : memref<?x?xf32>
        %8 = arith.addf %6, %7 : f32
        %9 = arith.mulf %8, %cst : f32
        affine.store %9, %A[%i, %j] : memref<?x?xf32>
      }
    }
  }
  func.return
}
