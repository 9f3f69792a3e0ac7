// Regression (was a bug): the copy of a wide `bc` that lands in place (offset dist + j*w == 0)
// is lost.  expand-mv-bc expands a bc of a slice wider than one cell into one
// `mv` per copy and only turns an *input* `mv` by 0 into a copy; the `mv ...
// dist 0` it creates itself reaches lower-shift, where Alg. 2 gives no
// command for d = 0 (alg2_shifts(t, 0) == []).  Rows 0-1 of the result are
// never written and the store copies garbage: on the simulator B[0:2] stays 0
// instead of A[0:2].  Expected (expand-mv-bc's docstring: "a mv by 0 becomes
// a copy"): a copy of rows 0-1, then the moves by 2 and 4.
//
// RUN: infs-opt --lower-pim=config=tiny %s | filecheck %s

// rows [0,2) copied to rows [0,2), [2,4), [4,6); tiles 2x8 (tile 0 = rows 0-1)
// CHECK-LABEL: func.func @bc_in_place
// CHECK:         pimcmd.transpose_in %b
// CHECK-NEXT:    pimcmd.compute copy f32 dst [[R:[0-9]+]] srcs [0] bitlines 0:1:16 tiles 0:1:1
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [0:2] inter 1 intra 0 bitlines 0:1:16 tiles 0:1:1
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [0:2] inter 2 intra 0 bitlines 0:1:16 tiles 0:1:1
func.func @bc_in_place(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  tdfg.graph ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) rank 2 {
  ^bb0(%a: memref<8x8xf32>, %b: memref<8x8xf32>):
    %0 = tdfg.tensor %a [0:2, 0:8] : memref<8x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.bc %0 dim 0 dist 0 count 3 : !tdfg.tensor<f32, 2>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 2> -> memref<8x8xf32>
    tdfg.yield
  }
  func.return
}
