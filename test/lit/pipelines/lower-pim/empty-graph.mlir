// Regression (test_regress_lowering.py, a graph with no array in memory): a graph with no array in
// memory.  lower-pim said "the graph has no tensor in memory: nothing to lay
// out"; a graph over an empty domain (N = 0) lowers to an empty program, and
// so does an empty graph now.
//
// RUN: infs-opt --lower-pim='sizes=N=8 config=small-16' %s | filecheck %s

// CHECK-LABEL: func.func @empty
// CHECK-NEXT:    pimcmd.program ins(%A : memref<?xf32>) scalars(%n : index) config "small-16" lattice [1] tiles [64] banks 16 arrays_per_bank 8 wordlines 256 {
// CHECK-NEXT:    ^bb0(%a: memref<?xf32>, %N: index):
// CHECK-NEXT:    } attributes {infs.symbols = ["N"], infs.sizes = {N = 8 : i64}, infs.source = "func.func @source(%A: memref<?xf32>, %n: index) {
// CHECK-NEXT:    func.return
func.func @empty(%A: memref<?xf32>, %n: index) {
  tdfg.graph ins(%A : memref<?xf32>) syms(N = %n : index) rank 1 {
  ^bb0(%a: memref<?xf32>, %N: index):
    tdfg.yield
  }
  func.return
}
