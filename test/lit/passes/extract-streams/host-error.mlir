// Host code extract-streams cannot lower for the host interpreter is a
// one-line error naming the op and where it is (not a traceback).
//
// RUN: not infs-opt %s -p extract-streams 2>&1 | filecheck %s
// CHECK: infs-opt: error: pass 'extract-streams' failed: {{.*}}host-error.mlir:[[# @LINE + 4]]:5: 'affine.vector_load' cannot stay on the host (no lowering to scf/memref)
// CHECK-NOT: Traceback
func.func @vl(%A: memref<?xf32>, %n: index) {
  affine.for %i = 0 to %n {
    %v = affine.vector_load %A[%i] : memref<?xf32>, vector<4xf32>
  }
  func.return
}
