// In-memory reductions (§4.2 "Other tDFG nodes"; lower-reduce): each
// decomposed piece of a `reduce` is copied into the result register, folded
// in ceil(log2 n) rounds (shift the upper half down by h = ceil(n/2) into a
// scratch register with an intra-tile shift, combine into the lower half),
// and a piece that starts inside a tile moves its result to the tile's first
// cell.  `stream_reduce` reads the tile-aligned box out (`readout`) and
// finishes near memory, keeping every T-th cell along the reduced dim
// (`near_reduce ... step`).  Everything stays inside tiles: no sync.
// 8x8 lattice in 4x4 tiles (grid 2x2).
//
// RUN: infs-opt --specialize --choose-layout='config=tiny tiles=4x4' --tdfg-to-pimcmd --expand-mv-bc --decompose --lower-shift --lower-reduce --lower-compute --map-banks --insert-sync %s | filecheck %s

// Columns [1,8) along dim 1: head piece [1,4) (tiles 0, 2; n = 3) and whole
// piece [4,8) (tiles 1, 3; n = 4).
// CHECK-LABEL: func.func @head_piece
// CHECK:         pimcmd.transpose_in %0
// head: copy columns 1-3, 2 rounds (h = 2, then h = 1), final move to column 0
// CHECK-NEXT:    pimcmd.compute copy f32 dst [[D:[0-9]+]] srcs [0] bitlines 1:1:3:4:4 tiles 0:2:2 banks 0:1:2{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[T:[0-9]+]] src [[D]] dim 1 mask [3:4] inter 0 intra -2 bitlines 3:4:4 tiles 0:2:2 banks 0:1:2{{$}}
// CHECK-NEXT:    pimcmd.compute add f32 dst [[D]] srcs {{\[}}[[D]], [[T]]] bitlines 1:4:4 tiles 0:2:2 banks 0:1:2{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[T]] src [[D]] dim 1 mask [2:3] inter 0 intra -1 bitlines 2:4:4 tiles 0:2:2 banks 0:1:2{{$}}
// CHECK-NEXT:    pimcmd.compute add f32 dst [[D]] srcs {{\[}}[[D]], [[T]]] bitlines 1:4:4 tiles 0:2:2 banks 0:1:2{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[T]] src [[D]] dim 1 mask [1:2] inter 0 intra -1 bitlines 1:4:4 tiles 0:2:2 banks 0:1:2{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst [[D]] srcs {{\[}}[[T]]] bitlines 0:4:4 tiles 0:2:2 banks 0:1:2{{$}}
// whole tiles: copy, rounds h = 2 and h = 1, result already in column 4
// CHECK-NEXT:    pimcmd.compute copy f32 dst [[D]] srcs [0] bitlines 0:1:16 tiles 1:2:2 banks 0:1:2{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[T2:[0-9]+]] src [[D]] dim 1 mask [2:4] inter 0 intra -2 bitlines 2:1:2:4:4 tiles 1:2:2 banks 0:1:2{{$}}
// CHECK-NEXT:    pimcmd.compute add f32 dst [[D]] srcs {{\[}}[[D]], [[T2]]] bitlines 0:1:2:4:4 tiles 1:2:2 banks 0:1:2{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[T2]] src [[D]] dim 1 mask [1:2] inter 0 intra -1 bitlines 1:4:4 tiles 1:2:2 banks 0:1:2{{$}}
// CHECK-NEXT:    pimcmd.compute add f32 dst [[D]] srcs {{\[}}[[D]], [[T2]]] bitlines 0:4:4 tiles 1:2:2 banks 0:1:2{{$}}
// the partials at columns 0 and 4 of every row: step 4 along dim 1
// CHECK-NEXT:    pimcmd.readout f32 src [[D]] domain [0:8, 0:8] id [[IN:[0-9]+]] bitlines 0:1:16 tiles 0:1:4 banks 0:1:2{{$}}
// CHECK-NEXT:    pimcmd.near_reduce add f32 in [[IN]] dims [0, 1] step [1, 4] out [[OUT:[0-9]+]]{{$}}
// CHECK-NEXT:    pimcmd.result index 0 id [[OUT]]
// CHECK-NOT:     pimcmd.sync
// CHECK:         func.return
func.func @head_piece(%A: memref<8x8xf32>) -> f32 {
  %s = tdfg.graph ins(%A : memref<8x8xf32>) rank 2 -> f32 {
  ^bb0(%a: memref<8x8xf32>):
    %0 = tdfg.tensor %a [0:8, 1:8] : memref<8x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.reduce add %0 dim 1 : !tdfg.tensor<f32, 2>
    %2 = tdfg.stream_reduce add %1 over [0, 1] : !tdfg.tensor<f32, 2> -> f32
    tdfg.yield %2 : f32
  }
  func.return %s : f32
}

// Rows [0,7) of column 2 along dim 0 with max: a whole-tile piece (n = 4)
// and a tail piece rows [4,7) (n = 3: h = 2, then h = 1); both start at a
// tile's first row, so no final move.
// CHECK-LABEL: func.func @odd_tail
// CHECK:         pimcmd.transpose_in %0
// CHECK-NEXT:    pimcmd.compute copy i32 dst [[D:[0-9]+]] srcs [0] bitlines 2:4:4 tiles 0:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift i32 dst [[T:[0-9]+]] src [[D]] dim 0 mask [2:4] inter 0 intra -2 bitlines 10:4:2 tiles 0:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute max i32 dst [[D]] srcs {{\[}}[[D]], [[T]]] bitlines 2:4:2 tiles 0:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift i32 dst [[T]] src [[D]] dim 0 mask [1:2] inter 0 intra -1 bitlines 6:1:1 tiles 0:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute max i32 dst [[D]] srcs {{\[}}[[D]], [[T]]] bitlines 2:1:1 tiles 0:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy i32 dst [[D]] srcs [0] bitlines 2:4:3 tiles 2:1:1 banks 1:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift i32 dst [[T2:[0-9]+]] src [[D]] dim 0 mask [2:3] inter 0 intra -2 bitlines 10:1:1 tiles 2:1:1 banks 1:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute max i32 dst [[D]] srcs {{\[}}[[D]], [[T2]]] bitlines 2:1:1 tiles 2:1:1 banks 1:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift i32 dst [[T2]] src [[D]] dim 0 mask [1:2] inter 0 intra -1 bitlines 6:1:1 tiles 2:1:1 banks 1:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute max i32 dst [[D]] srcs {{\[}}[[D]], [[T2]]] bitlines 2:1:1 tiles 2:1:1 banks 1:1:1{{$}}
// rows [0,8) read out, every 4th row kept
// CHECK-NEXT:    pimcmd.readout i32 src [[D]] domain [0:8, 2:3] id [[IN:[0-9]+]] bitlines 2:4:4 tiles 0:2:2 banks 0:1:2{{$}}
// CHECK-NEXT:    pimcmd.near_reduce max i32 in [[IN]] dims [0, 1] step [4, 1] out {{[0-9]+}}{{$}}
// CHECK-NOT:     pimcmd.sync
// CHECK:         func.return
func.func @odd_tail(%A: memref<8x8xi32>) -> i32 {
  %s = tdfg.graph ins(%A : memref<8x8xi32>) rank 2 -> i32 {
  ^bb0(%a: memref<8x8xi32>):
    %0 = tdfg.tensor %a [0:7, 2:3] : memref<8x8xi32> -> !tdfg.tensor<i32, 2>
    %1 = tdfg.reduce max %0 dim 0 : !tdfg.tensor<i32, 2>
    %2 = tdfg.stream_reduce max %1 over [0, 1] : !tdfg.tensor<i32, 2> -> i32
    tdfg.yield %2 : i32
  }
  func.return %s : i32
}
