// ASPLOS'23 Fig. 9: a 4x4 f32 array in 2x2 tiles on the `fig9` machine
// (4 banks x 1 SRAM array x 4 bitlines: tile t is array t in bank t), and a
// `mv` of columns [0, 3) right by 1.  Alg. 1 splits the source into
// A_L = [0,4) x [0,2) (whole tiles 0 and 2) and A_R = [0,4) x [2,3) (partial
// tiles 1 and 3); Alg. 2 gives
//   CMD 0: intra-tile shift of column 0 of A_L  (bitlines 0:2:2, tiles 0:2:2)
//   CMD 1: inter-tile shift of column 1 of A_L  (bitlines 1:2:2, tiles 0:2:2,
//          one tile right, one bitline left)
//   CMD 2: intra-tile shift of A_R              (bitlines 0:2:2, tiles 1:2:2)
// and no second command for A_R (its mask [1:2) misses the tensor).  A sync
// separates the inter-tile shift from the copy that consumes the result.
//
// The pipeline and the same passes run one by one give the same program.
// RUN: infs-opt --lower-pim='config=fig9 tiles=2x2' %s | filecheck %s
// RUN: infs-opt --specialize --canonicalize-tdfg --choose-layout='config=fig9 tiles=2x2' --tdfg-to-pimcmd --expand-mv-bc --decompose --lower-shift --lower-reduce --lower-compute --map-banks --insert-sync --allocate-wordlines %s | filecheck %s

// CHECK-LABEL: func.func @fig9
// CHECK:         pimcmd.program ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) config fig9 lattice [4, 4] tiles [2, 2] banks 4 arrays_per_bank 1 wordlines 128 {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: memref<4x4xf32>, %[[B:.*]]: memref<4x4xf32>):
// CHECK-NEXT:      pimcmd.array %[[A]] shape [4, 4] wordline [[WA:[0-9]+]] transposed
// CHECK-NEXT:      pimcmd.array %[[B]] shape [4, 4] wordline [[WB:[0-9]+]] transposed
// CHECK-NEXT:      pimcmd.transpose_in %[[A]]
// CHECK-NEXT:      pimcmd.transpose_in %[[B]]
// CMD 0 (Alg. 2 line 6)
// CHECK-NEXT:      pimcmd.shift f32 dst [[T:[0-9]+]] src [[WA]] dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 0:2:2 banks 0:2:2{{$}}
// CMD 1 (Alg. 2 line 8)
// CHECK-NEXT:      pimcmd.shift f32 dst [[T]] src [[WA]] dim 1 mask [1:2] inter 1 intra -1 bitlines 1:2:2 tiles 0:2:2 banks 0:2:2{{$}}
// CMD 2 (Alg. 2 line 6 for A_R; line 8 filtered out)
// CHECK-NEXT:      pimcmd.shift f32 dst [[T]] src [[WA]] dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 1:2:2 banks 1:2:2{{$}}
// CHECK-NEXT:      pimcmd.sync
// the store: column 1 (tiles 0, 2) and columns 2-3 (tiles 1, 3) of B
// CHECK-NEXT:      pimcmd.compute copy f32 dst [[WB]] srcs {{\[}}[[T]]] bitlines 1:2:2 tiles 0:2:2 banks 0:2:2{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst [[WB]] srcs {{\[}}[[T]]] bitlines 0:1:4 tiles 1:2:2 banks 1:2:2{{$}}
// CHECK-NEXT:      pimcmd.release %[[B]]
// CHECK-NEXT:    }
// CHECK-NOT:     pimcmd.shift
func.func @fig9(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  tdfg.graph ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) rank 2 {
  ^bb0(%a: memref<4x4xf32>, %b: memref<4x4xf32>):
    %0 = tdfg.tensor %a [0:4, 0:3] : memref<4x4xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.mv %0 dim 1 dist 1 : !tdfg.tensor<f32, 2>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 2> -> memref<4x4xf32>
    tdfg.yield
  }
  func.return
}
