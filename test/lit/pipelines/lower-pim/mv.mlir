// lower-shift (Alg. 2): a decomposed `mv` piece becomes an intra-tile shift
// of the cells that stay in their tile and an inter-tile shift of those that
// cross tile boundaries, each with the piece's bitlines restricted to the
// command's mask.  A command whose mask misses the piece is dropped.  1-D f32
// on `tiny`: 64 cells in tiles of t = 16 (tile 0 = [0,16), ...).
//
// RUN: infs-opt --specialize --choose-layout=config=tiny --tdfg-to-pimcmd --expand-mv-bc --decompose --lower-shift %s | filecheck %s

// d = 3 < t: d_inter = 0, d_intra = 3 -> mask [0:13] intra +3 and mask
// [13:16] one tile on, 13 bitlines back.  Source [0,61) = whole tiles 0-2
// (both commands) + tail [48,61) in tile 3, which the second mask misses.
// CHECK-LABEL: func.func @lt_tile
// CHECK:         pimcmd.transpose_in %1
// CHECK-NEXT:    pimcmd.shift f32 dst [[R:[0-9]+]] src 0 dim 0 mask [0:13] inter 0 intra 3 bitlines 0:1:13 tiles 0:1:3{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [13:16] inter 1 intra -13 bitlines 13:1:3 tiles 0:1:3{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [0:13] inter 0 intra 3 bitlines 0:1:13 tiles 3:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy
func.func @lt_tile(%A: memref<64xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [0:61] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.mv %0 dim 0 dist 3 : !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// d = t: one inter-tile shift of whole tiles, no intra-tile part.
// CHECK-LABEL: func.func @eq_tile
// CHECK:         pimcmd.transpose_in %1
// CHECK-NEXT:    pimcmd.shift f32 dst {{[0-9]+}} src 0 dim 0 mask [0:16] inter 1 intra 0 bitlines 0:1:16 tiles 0:1:3{{$}}
// CHECK-NEXT:    pimcmd.compute copy
func.func @eq_tile(%A: memref<64xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [0:48] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.mv %0 dim 0 dist 16 : !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// d = 19 > t: d_inter = 1, d_intra = 3 -> (mask [0:13], inter 1, intra 3)
// and (mask [13:16], inter 2, intra -13), per piece: head [2,16), middle
// [16,32), tail [32,40) (its second command is dropped).
// CHECK-LABEL: func.func @gt_tile
// CHECK:         pimcmd.transpose_in %1
// CHECK-NEXT:    pimcmd.shift f32 dst [[R:[0-9]+]] src 0 dim 0 mask [2:13] inter 1 intra 3 bitlines 2:1:11 tiles 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [13:16] inter 2 intra -13 bitlines 13:1:3 tiles 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [0:13] inter 1 intra 3 bitlines 0:1:13 tiles 1:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [13:16] inter 2 intra -13 bitlines 13:1:3 tiles 1:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [0:8] inter 1 intra 3 bitlines 0:1:8 tiles 2:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy
func.func @gt_tile(%A: memref<64xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [2:40] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.mv %0 dim 0 dist 19 : !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// d = -5 (Alg. 2 lines 9-12): (mask [0:5], inter -1, intra +11) then
// (mask [5:16], inter 0, intra -5).  The head [5,16) has no cell in [0:5).
// CHECK-LABEL: func.func @negative
// CHECK:         pimcmd.transpose_in %1
// CHECK-NEXT:    pimcmd.shift f32 dst [[R:[0-9]+]] src 0 dim 0 mask [5:16] inter 0 intra -5 bitlines 5:1:11 tiles 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [0:5] inter -1 intra 11 bitlines 0:1:5 tiles 1:1:3{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [5:16] inter 0 intra -5 bitlines 5:1:11 tiles 1:1:3{{$}}
// CHECK-NEXT:    pimcmd.compute copy
func.func @negative(%A: memref<64xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [5:64] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.mv %0 dim 0 dist -5 : !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// d = -18: (mask [0:2], inter -2, intra 14) misses [20,30) = tile 1 cells
// [4,14); only (mask [2:16], inter -1, intra -2) is left.
// CHECK-LABEL: func.func @negative_gt
// CHECK:         pimcmd.transpose_in %1
// CHECK-NEXT:    pimcmd.shift f32 dst {{[0-9]+}} src 0 dim 0 mask [4:14] inter -1 intra -2 bitlines 4:1:10 tiles 1:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy
func.func @negative_gt(%A: memref<64xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [20:30] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.mv %0 dim 0 dist -18 : !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// d = -2t: whole tiles two tiles back.
// CHECK-LABEL: func.func @negative_eq
// CHECK:         pimcmd.transpose_in %1
// CHECK-NEXT:    pimcmd.shift f32 dst {{[0-9]+}} src 0 dim 0 mask [0:16] inter -2 intra 0 bitlines 0:1:16 tiles 2:1:2{{$}}
// CHECK-NEXT:    pimcmd.compute copy
func.func @negative_eq(%A: memref<64xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [16:64] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.mv %0 dim 0 dist -32 : !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// Cells moved past the lattice's end are not shifted (§3.2): of [0,64)
// moved by 20 only the source [0,44) is.
// CHECK-LABEL: func.func @clipped
// CHECK:         pimcmd.transpose_in %1
// CHECK-NEXT:    pimcmd.shift f32 dst [[R:[0-9]+]] src 0 dim 0 mask [0:12] inter 1 intra 4 bitlines 0:1:12 tiles 0:1:2{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [12:16] inter 2 intra -12 bitlines 12:1:4 tiles 0:1:2{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst [[R]] src 0 dim 0 mask [0:12] inter 1 intra 4 bitlines 0:1:12 tiles 2:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy
func.func @clipped(%A: memref<64xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [0:64] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.mv %0 dim 0 dist 20 : !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}
