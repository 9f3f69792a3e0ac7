// Broadcast (§4.2 "Broadcast nodes are handled similarly to move nodes, with
// the broadcast destination encoded"): a one-row `bc` becomes one `bcast`
// multicast per run of destination tiles -- the head tile (partly covered),
// the whole tiles in the middle, the tail tile -- with in-tile offsets
// `intra` and tile offsets `inter` relative to the source cell.  A wider
// slice is expanded into one `mv` per copy (expand-mv-bc).  On `tiny` a
// 16x8 f32 lattice gets 2x8 tiles (grid 8x1: tile t = rows [2t, 2t+2)).
//
// RUN: infs-opt --specialize --choose-layout=config=tiny --tdfg-to-pimcmd --expand-mv-bc --decompose --lower-shift --lower-reduce --lower-compute --map-banks --insert-sync %s | filecheck %s

// Row 1 copied to rows [3,15): head = row 3 (tile 1, in-tile row 1 = source
// row + 0), middle = tiles 2..6 (in-tile rows 0..1 = source row -1..+0),
// tail = row 14 (tile 7, in-tile row 0).  The multicasts cross tiles: a sync
// comes before the store reads the result.
// CHECK-LABEL: func.func @row_over_rows
// CHECK:         pimcmd.transpose_in %1
// CHECK-NEXT:    pimcmd.bcast f32 dst [[R:[0-9]+]] src 0 dim 0 intra [0:1] inter [1:2] bitlines 8:1:8 tiles 0:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.bcast f32 dst [[R]] src 0 dim 0 intra [-1:1] inter [2:7] bitlines 8:1:8 tiles 0:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.bcast f32 dst [[R]] src 0 dim 0 intra [-1:0] inter [7:8] bitlines 8:1:8 tiles 0:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.sync
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] bitlines 8:1:8 tiles 1:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] bitlines 0:1:16 tiles 2:1:5 banks 1:1:3{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] bitlines 0:1:8 tiles 7:1:1 banks 3:1:1{{$}}
// CHECK-NEXT:    pimcmd.release
func.func @row_over_rows(%A: memref<16x8xf32>, %B: memref<16x8xf32>) {
  tdfg.graph ins(%A, %B : memref<16x8xf32>, memref<16x8xf32>) rank 2 {
  ^bb0(%a: memref<16x8xf32>, %b: memref<16x8xf32>):
    %0 = tdfg.tensor %a [1:2, 0:8] : memref<16x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.bc %0 dim 0 dist 2 count 12 : !tdfg.tensor<f32, 2>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 2> -> memref<16x8xf32>
    tdfg.yield
  }
  func.return
}

// Destination inside the source's tile: one intra-tile multicast, no sync.
// CHECK-LABEL: func.func @inside_one_tile
// CHECK:         pimcmd.transpose_in %1
// CHECK-NEXT:    pimcmd.bcast f32 dst [[R:[0-9]+]] src 0 dim 0 intra [1:2] inter [0:1] bitlines 0:1:8 tiles 2:1:1 banks 1:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] bitlines 8:1:8 tiles 2:1:1 banks 1:1:1{{$}}
// CHECK-NEXT:    pimcmd.release
func.func @inside_one_tile(%A: memref<16x8xf32>, %B: memref<16x8xf32>) {
  tdfg.graph ins(%A, %B : memref<16x8xf32>, memref<16x8xf32>) rank 2 {
  ^bb0(%a: memref<16x8xf32>, %b: memref<16x8xf32>):
    %0 = tdfg.tensor %a [4:5, 0:8] : memref<16x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.bc %0 dim 0 dist 1 count 1 : !tdfg.tensor<f32, 2>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 2> -> memref<16x8xf32>
    tdfg.yield
  }
  func.return
}

// A two-row slice copied 3 times (by 3, 5, 7 rows): one mv per copy, each
// lowered by Alg. 2 (t = 2: d_intra = 1 -> two commands per copy).
// CHECK-LABEL: func.func @wide
// CHECK:         pimcmd.transpose_in %1
// CHECK-NEXT:    pimcmd.shift f32 dst [[R:[0-9]+]] src 0 dim 0 mask [0:1] inter 1 intra 1 bitlines 0:1:8 tiles 0:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [1:2] inter 2 intra -1 bitlines 8:1:8 tiles 0:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [0:1] inter 2 intra 1 bitlines 0:1:8 tiles 0:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [1:2] inter 3 intra -1 bitlines 8:1:8 tiles 0:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [0:1] inter 3 intra 1 bitlines 0:1:8 tiles 0:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [1:2] inter 4 intra -1 bitlines 8:1:8 tiles 0:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.sync
// CHECK-NEXT:    pimcmd.compute copy
func.func @wide(%A: memref<16x8xf32>, %B: memref<16x8xf32>) {
  tdfg.graph ins(%A, %B : memref<16x8xf32>, memref<16x8xf32>) rank 2 {
  ^bb0(%a: memref<16x8xf32>, %b: memref<16x8xf32>):
    %0 = tdfg.tensor %a [0:2, 0:8] : memref<16x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.bc %0 dim 0 dist 3 count 3 : !tdfg.tensor<f32, 2>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 2> -> memref<16x8xf32>
    tdfg.yield
  }
  func.return
}

// Copies past the lattice's last row are dropped (count 40 -> rows [1,16)):
// head row 1 stays in tile 0 (an intra-tile multicast), tiles 1..7 are whole
// (no tail).
// CHECK-LABEL: func.func @clipped
// CHECK:         pimcmd.transpose_in %1
// CHECK-NEXT:    pimcmd.bcast f32 dst [[R:[0-9]+]] src 0 dim 0 intra [1:2] inter [0:1] bitlines 2:1:4 tiles 0:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.bcast f32 dst [[R]] src 0 dim 0 intra [0:2] inter [1:8] bitlines 2:1:4 tiles 0:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.sync
// CHECK-NEXT:    pimcmd.compute copy
func.func @clipped(%A: memref<16x8xf32>, %B: memref<16x8xf32>) {
  tdfg.graph ins(%A, %B : memref<16x8xf32>, memref<16x8xf32>) rank 2 {
  ^bb0(%a: memref<16x8xf32>, %b: memref<16x8xf32>):
    %0 = tdfg.tensor %a [0:1, 2:6] : memref<16x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.bc %0 dim 0 dist 1 count 40 : !tdfg.tensor<f32, 2>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 2> -> memref<16x8xf32>
    tdfg.yield
  }
  func.return
}
