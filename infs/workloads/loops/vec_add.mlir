// vec_add (ASPLOS'23 Fig. 2) as plain loops: C[i] = A[i] + B[i].
// extract-streams turns the loop into infs/workloads/vec_add.mlir's region.
//   infs-run infs/workloads/loops/vec_add.mlir --sizes n=4096 --shape A=4096,B=4096,C=4096 --check
func.func @vec_add(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %n: index) {
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xf32>
    %b = affine.load %B[%i] : memref<?xf32>
    %s = arith.addf %a, %b : f32
    affine.store %s, %C[%i] : memref<?xf32>
  }
  func.return
}
