// lower-reduce (§4.2 "Other tDFG nodes"): every decomposed `reduce` piece
// becomes a copy of the piece into the destination register, then
// ceil(log2 n) rounds over its n in-tile cells along the dim (shift the upper
// part down by h = ceil(n/2) into a fresh scratch register with an intra-tile
// shift, combine into the lower part), and for a piece starting inside a tile
// one more shift moving the result to the tile's first cell, where the
// near-memory reduction reads the partials (Fig. 4b).  The inputs are
// lower-shift's printed output on `tiny`, 8x8 in 4x4 tiles (grid 2x2).
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics -p lower-reduce | filecheck %s

// Columns [1,8) along dim 1: head piece [1,4) (tiles 0, 2; n = 3) and whole
// piece [4,8) (tiles 1, 3; n = 4).
// CHECK-LABEL: func.func @head_piece
// CHECK:         pimcmd.transpose_in %0 :
// head: copy columns 1-3, 2 rounds (h = 2, then h = 1), final move to column 0
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [0] bitlines 1:1:3:4:4 tiles 0:2:2{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 1 dim 1 mask [3:4] inter 0 intra -2 bitlines 3:4:4 tiles 0:2:2{{$}}
// CHECK-NEXT:    pimcmd.compute add f32 dst 1 srcs [1, 2] bitlines 1:4:4 tiles 0:2:2{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 1 dim 1 mask [2:3] inter 0 intra -1 bitlines 2:4:4 tiles 0:2:2{{$}}
// CHECK-NEXT:    pimcmd.compute add f32 dst 1 srcs [1, 2] bitlines 1:4:4 tiles 0:2:2{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 1 dim 1 mask [1:2] inter 0 intra -1 bitlines 1:4:4 tiles 0:2:2{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] bitlines 0:4:4 tiles 0:2:2{{$}}
// whole tiles: copy, rounds h = 2 and h = 1 with a new scratch register (3),
// result already in column 4
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [0] bitlines 0:1:16 tiles 1:2:2{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst 3 src 1 dim 1 mask [2:4] inter 0 intra -2 bitlines 2:1:2:4:4 tiles 1:2:2{{$}}
// CHECK-NEXT:    pimcmd.compute add f32 dst 1 srcs [1, 3] bitlines 0:1:2:4:4 tiles 1:2:2{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst 3 src 1 dim 1 mask [1:2] inter 0 intra -1 bitlines 1:4:4 tiles 1:2:2{{$}}
// CHECK-NEXT:    pimcmd.compute add f32 dst 1 srcs [1, 3] bitlines 0:4:4 tiles 1:2:2{{$}}
// the readout and the near-memory rest are kept
// CHECK-NEXT:    pimcmd.readout f32 src 1 domain [0:8, 0:8] id 0{{$}}
// CHECK-NEXT:    pimcmd.near_reduce add f32 in 0 dims [0, 1] step [1, 4] out 1{{$}}
// CHECK-NOT:     pimcmd.reduce
func.func @head_piece(%A: memref<8x8xf32>) -> f32 {
  %s = pimcmd.program ins(%A : memref<8x8xf32>) config tiny lattice [8, 8] tiles [4, 4] banks 4 arrays_per_bank 2 wordlines 256 virtual -> f32 {
  ^bb0(%0: memref<8x8xf32>):
    pimcmd.array %0 shape [8, 8] wordline 0 transposed : memref<8x8xf32>
    pimcmd.transpose_in %0 : memref<8x8xf32>
    pimcmd.reduce add f32 dst 1 src 0 dim 1 domain [0:8, 1:4]
    pimcmd.reduce add f32 dst 1 src 0 dim 1 domain [0:8, 4:8]
    pimcmd.readout f32 src 1 domain [0:8, 0:8] id 0
    pimcmd.near_reduce add f32 in 0 dims [0, 1] step [1, 4] out 1
    pimcmd.result index 0 id 1
  }
  func.return %s : f32
}

// -----
// Rows [0,7) of column 2 along dim 0 with max: a whole-tile piece (n = 4)
// and a tail piece rows [4,7) (n = 3: h = 2, then h = 1); both start at a
// tile's first row, so no final move.
// CHECK-LABEL: func.func @odd_tail
// CHECK:         pimcmd.transpose_in %0 :
// CHECK-NEXT:    pimcmd.compute copy i32 dst 1 srcs [0] bitlines 2:4:4 tiles 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift i32 dst 2 src 1 dim 0 mask [2:4] inter 0 intra -2 bitlines 10:4:2 tiles 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute max i32 dst 1 srcs [1, 2] bitlines 2:4:2 tiles 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift i32 dst 2 src 1 dim 0 mask [1:2] inter 0 intra -1 bitlines 6:1:1 tiles 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute max i32 dst 1 srcs [1, 2] bitlines 2:1:1 tiles 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy i32 dst 1 srcs [0] bitlines 2:4:3 tiles 2:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift i32 dst 3 src 1 dim 0 mask [2:3] inter 0 intra -2 bitlines 10:1:1 tiles 2:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute max i32 dst 1 srcs [1, 3] bitlines 2:1:1 tiles 2:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift i32 dst 3 src 1 dim 0 mask [1:2] inter 0 intra -1 bitlines 6:1:1 tiles 2:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute max i32 dst 1 srcs [1, 3] bitlines 2:1:1 tiles 2:1:1{{$}}
// CHECK-NEXT:    pimcmd.readout i32 src 1 domain [0:8, 2:3] id 0{{$}}
// CHECK-NOT:     pimcmd.reduce
func.func @odd_tail(%A: memref<8x8xi32>) -> i32 {
  %s = pimcmd.program ins(%A : memref<8x8xi32>) config tiny lattice [8, 8] tiles [4, 4] banks 4 arrays_per_bank 2 wordlines 256 virtual -> i32 {
  ^bb0(%0: memref<8x8xi32>):
    pimcmd.array %0 shape [8, 8] wordline 0 transposed : memref<8x8xi32>
    pimcmd.transpose_in %0 : memref<8x8xi32>
    pimcmd.reduce max i32 dst 1 src 0 dim 0 domain [0:4, 2:3]
    pimcmd.reduce max i32 dst 1 src 0 dim 0 domain [4:7, 2:3]
    pimcmd.readout i32 src 1 domain [0:8, 2:3] id 0
    pimcmd.near_reduce max i32 in 0 dims [0, 1] step [4, 1] out 1
    pimcmd.result index 0 id 1
  }
  func.return %s : i32
}

// -----
// A reduce that skipped decompose (tdfg-to-pimcmd's output): one line,
// naming the program.
// CHECK-NOT:   Traceback
// CHECK:       error: pass 'lower-reduce' failed: the pimcmd.program at {{.*}}lower-reduce.mlir:[[# @LINE + 2]]:3 in @not_decomposed: 'reduce' box [0:8, 1:8] is not decomposed (run decompose first)
func.func @not_decomposed(%A: memref<8x8xf32>) -> f32 {
  %s = pimcmd.program ins(%A : memref<8x8xf32>) config tiny lattice [8, 8] tiles [4, 4] banks 4 arrays_per_bank 2 wordlines 256 virtual -> f32 {
  ^bb0(%0: memref<8x8xf32>):
    pimcmd.array %0 shape [8, 8] wordline 0 transposed : memref<8x8xf32>
    pimcmd.transpose_in %0 : memref<8x8xf32>
    pimcmd.reduce add f32 dst 1 src 0 dim 1 domain [0:8, 1:8]
    pimcmd.readout f32 src 1 domain [0:8, 0:8] id 0
    pimcmd.near_reduce add f32 in 0 dims [0, 1] step [1, 4] out 1
    pimcmd.result index 0 id 1
  }
  func.return %s : f32
}
// CHECK-NOT:   Traceback
