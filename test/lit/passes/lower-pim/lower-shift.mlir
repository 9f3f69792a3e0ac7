// lower-shift (Alg. 2): every decomposed `mv` piece becomes an intra-tile
// shift of the cells that stay in their tile and an inter-tile shift of those
// that cross d_inter + 1 tile boundaries, each with the piece's bitline and
// tile patterns restricted to the command's mask; a command whose mask misses
// the piece is dropped.  Every one-row `bc` piece becomes one `bcast`
// multicast per run of destination tiles (head tile, whole tiles, tail
// tile).  Computes keep their domain (lower-compute's business).  The inputs
// are decompose's printed output on `tiny` (1-D: tiles of 16; 16x8: tiles
// of 2x8, tile t = rows [2t, 2t+2)).
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics -p lower-shift | filecheck %s

// d = 3 < t: d_inter = 0, d_intra = 3 -> mask [0:13] intra +3 and mask
// [13:16] one tile on, 13 bitlines back.  Source [0,61) = whole tiles 0-2
// (both commands) + tail [48,61) in tile 3, which the second mask misses.
// CHECK-LABEL: func.func @lt_tile
// CHECK:         pimcmd.transpose_in %1 :
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 0 dim 0 mask [0:13] inter 0 intra 3 bitlines 0:1:13 tiles 0:1:3{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 0 dim 0 mask [13:16] inter 1 intra -13 bitlines 13:1:3 tiles 0:1:3{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 0 dim 0 mask [0:13] inter 0 intra 3 bitlines 0:1:13 tiles 3:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] domain [3:16]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] domain [16:64]{{$}}
// CHECK-NOT:     pimcmd.mv
func.func @lt_tile(%A: memref<64xf32>, %B: memref<64xf32>) {
  pimcmd.program ins(%A, %B : memref<64xf32>, memref<64xf32>) config tiny lattice [64] tiles [16] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<64xf32>, %1: memref<64xf32>):
    pimcmd.array %0 shape [64] wordline 0 transposed : memref<64xf32>
    pimcmd.array %1 shape [64] wordline 1 transposed : memref<64xf32>
    pimcmd.transpose_in %0 : memref<64xf32>
    pimcmd.transpose_in %1 : memref<64xf32>
    pimcmd.mv f32 dst 2 src 0 dim 0 dist 3 domain [0:48]
    pimcmd.mv f32 dst 2 src 0 dim 0 dist 3 domain [48:61]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [3:16]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [16:64]
    pimcmd.release %1 : memref<64xf32>
  }
  func.return
}

// -----
// d = 19 > t: d_inter = 1, d_intra = 3 -> (mask [0:13], inter 1, intra 3)
// and (mask [13:16], inter 2, intra -13), per piece: head [2,16), middle
// [16,32), tail [32,40) (its second command is dropped).
// CHECK-LABEL: func.func @gt_tile
// CHECK:         pimcmd.transpose_in %1 :
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 0 dim 0 mask [2:13] inter 1 intra 3 bitlines 2:1:11 tiles 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 0 dim 0 mask [13:16] inter 2 intra -13 bitlines 13:1:3 tiles 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 0 dim 0 mask [0:13] inter 1 intra 3 bitlines 0:1:13 tiles 1:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 0 dim 0 mask [13:16] inter 2 intra -13 bitlines 13:1:3 tiles 1:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 0 dim 0 mask [0:8] inter 1 intra 3 bitlines 0:1:8 tiles 2:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy
// CHECK-NOT:     pimcmd.mv
func.func @gt_tile(%A: memref<64xf32>, %B: memref<64xf32>) {
  pimcmd.program ins(%A, %B : memref<64xf32>, memref<64xf32>) config tiny lattice [64] tiles [16] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<64xf32>, %1: memref<64xf32>):
    pimcmd.array %0 shape [64] wordline 0 transposed : memref<64xf32>
    pimcmd.array %1 shape [64] wordline 1 transposed : memref<64xf32>
    pimcmd.transpose_in %0 : memref<64xf32>
    pimcmd.transpose_in %1 : memref<64xf32>
    pimcmd.mv f32 dst 2 src 0 dim 0 dist 19 domain [2:16]
    pimcmd.mv f32 dst 2 src 0 dim 0 dist 19 domain [16:32]
    pimcmd.mv f32 dst 2 src 0 dim 0 dist 19 domain [32:40]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [21:32]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [32:48]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [48:59]
    pimcmd.release %1 : memref<64xf32>
  }
  func.return
}

// -----
// d = -5 (Alg. 2 lines 9-12): (mask [0:5], inter -1, intra +11) then
// (mask [5:16], inter 0, intra -5).  The head [5,16) has no cell in [0:5).
// CHECK-LABEL: func.func @negative
// CHECK:         pimcmd.transpose_in %1 :
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 0 dim 0 mask [5:16] inter 0 intra -5 bitlines 5:1:11 tiles 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 0 dim 0 mask [0:5] inter -1 intra 11 bitlines 0:1:5 tiles 1:1:3{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 0 dim 0 mask [5:16] inter 0 intra -5 bitlines 5:1:11 tiles 1:1:3{{$}}
// CHECK-NEXT:    pimcmd.compute copy
// CHECK-NOT:     pimcmd.mv
func.func @negative(%A: memref<64xf32>, %B: memref<64xf32>) {
  pimcmd.program ins(%A, %B : memref<64xf32>, memref<64xf32>) config tiny lattice [64] tiles [16] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<64xf32>, %1: memref<64xf32>):
    pimcmd.array %0 shape [64] wordline 0 transposed : memref<64xf32>
    pimcmd.array %1 shape [64] wordline 1 transposed : memref<64xf32>
    pimcmd.transpose_in %0 : memref<64xf32>
    pimcmd.transpose_in %1 : memref<64xf32>
    pimcmd.mv f32 dst 2 src 0 dim 0 dist -5 domain [5:16]
    pimcmd.mv f32 dst 2 src 0 dim 0 dist -5 domain [16:64]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [0:48]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [48:59]
    pimcmd.release %1 : memref<64xf32>
  }
  func.return
}

// -----
// d = -18: (mask [0:2], inter -2, intra 14) misses [20,30) = tile 1 cells
// [4,14); only (mask [2:16], inter -1, intra -2) is left.
// CHECK-LABEL: func.func @negative_gt
// CHECK:         pimcmd.transpose_in %1 :
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 0 dim 0 mask [4:14] inter -1 intra -2 bitlines 4:1:10 tiles 1:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy
func.func @negative_gt(%A: memref<64xf32>, %B: memref<64xf32>) {
  pimcmd.program ins(%A, %B : memref<64xf32>, memref<64xf32>) config tiny lattice [64] tiles [16] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<64xf32>, %1: memref<64xf32>):
    pimcmd.array %0 shape [64] wordline 0 transposed : memref<64xf32>
    pimcmd.array %1 shape [64] wordline 1 transposed : memref<64xf32>
    pimcmd.transpose_in %0 : memref<64xf32>
    pimcmd.transpose_in %1 : memref<64xf32>
    pimcmd.mv f32 dst 2 src 0 dim 0 dist -18 domain [20:30]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [2:12]
    pimcmd.release %1 : memref<64xf32>
  }
  func.return
}

// -----
// Row 1 copied to rows [3,15): head = row 3 (tile 1, in-tile row 1 = source
// row + 0), middle = tiles 2..6 (in-tile rows 0..1 = source row -1..+0),
// tail = row 14 (tile 7, in-tile row 0).
// CHECK-LABEL: func.func @row_over_rows
// CHECK:         pimcmd.transpose_in %1 :
// CHECK-NEXT:    pimcmd.bcast f32 dst 2 src 0 dim 0 intra [0:1] inter [1:2] bitlines 8:1:8 tiles 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.bcast f32 dst 2 src 0 dim 0 intra [-1:1] inter [2:7] bitlines 8:1:8 tiles 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.bcast f32 dst 2 src 0 dim 0 intra [-1:0] inter [7:8] bitlines 8:1:8 tiles 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy
// CHECK-NOT:     pimcmd.bc f32
func.func @row_over_rows(%A: memref<16x8xf32>, %B: memref<16x8xf32>) {
  pimcmd.program ins(%A, %B : memref<16x8xf32>, memref<16x8xf32>) config tiny lattice [16, 8] tiles [2, 8] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<16x8xf32>, %1: memref<16x8xf32>):
    pimcmd.array %0 shape [16, 8] wordline 0 transposed : memref<16x8xf32>
    pimcmd.array %1 shape [16, 8] wordline 1 transposed : memref<16x8xf32>
    pimcmd.transpose_in %0 : memref<16x8xf32>
    pimcmd.transpose_in %1 : memref<16x8xf32>
    pimcmd.bc f32 dst 2 src 0 dim 0 dist 2 count 12 domain [1:2, 0:8]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [3:4, 0:8]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [4:14, 0:8]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [14:15, 0:8]
    pimcmd.release %1 : memref<16x8xf32>
  }
  func.return
}

// -----
// Destination inside the source's tile: one intra-tile multicast.
// CHECK-LABEL: func.func @inside_one_tile
// CHECK:         pimcmd.transpose_in %1 :
// CHECK-NEXT:    pimcmd.bcast f32 dst 2 src 0 dim 0 intra [1:2] inter [0:1] bitlines 0:1:8 tiles 2:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] domain [5:6, 0:8]{{$}}
func.func @inside_one_tile(%A: memref<16x8xf32>, %B: memref<16x8xf32>) {
  pimcmd.program ins(%A, %B : memref<16x8xf32>, memref<16x8xf32>) config tiny lattice [16, 8] tiles [2, 8] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<16x8xf32>, %1: memref<16x8xf32>):
    pimcmd.array %0 shape [16, 8] wordline 0 transposed : memref<16x8xf32>
    pimcmd.array %1 shape [16, 8] wordline 1 transposed : memref<16x8xf32>
    pimcmd.transpose_in %0 : memref<16x8xf32>
    pimcmd.transpose_in %1 : memref<16x8xf32>
    pimcmd.bc f32 dst 2 src 0 dim 0 dist 1 count 1 domain [4:5, 0:8]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [5:6, 0:8]
    pimcmd.release %1 : memref<16x8xf32>
  }
  func.return
}

// -----
// Errors: input that skipped a step (tdfg-to-pimcmd's output, not
// decomposed; a wide bc not expanded).  One line each, naming the program.
// CHECK-NOT:   Traceback
// CHECK:       error: pass 'lower-shift' failed: the pimcmd.program at {{.*}}lower-shift.mlir:[[# @LINE + 2]]:3 in @not_decomposed: 'mv' box [0:61] is not decomposed (run decompose first)
func.func @not_decomposed(%A: memref<64xf32>, %B: memref<64xf32>) {
  pimcmd.program ins(%A, %B : memref<64xf32>, memref<64xf32>) config tiny lattice [64] tiles [16] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<64xf32>, %1: memref<64xf32>):
    pimcmd.array %0 shape [64] wordline 0 transposed : memref<64xf32>
    pimcmd.array %1 shape [64] wordline 1 transposed : memref<64xf32>
    pimcmd.transpose_in %0 : memref<64xf32>
    pimcmd.transpose_in %1 : memref<64xf32>
    pimcmd.mv f32 dst 2 src 0 dim 0 dist 3 domain [0:61]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [3:64]
    pimcmd.release %1 : memref<64xf32>
  }
  func.return
}

// -----
// CHECK:       error: pass 'lower-shift' failed: the pimcmd.program at {{.*}}lower-shift.mlir:[[# @LINE + 2]]:3 in @bc_not_expanded: 'bc' of a slice wider than one cell: run expand-mv-bc first
func.func @bc_not_expanded(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  pimcmd.program ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) config tiny lattice [8, 8] tiles [2, 8] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<8x8xf32>, %1: memref<8x8xf32>):
    pimcmd.array %0 shape [8, 8] wordline 0 transposed : memref<8x8xf32>
    pimcmd.array %1 shape [8, 8] wordline 1 transposed : memref<8x8xf32>
    pimcmd.transpose_in %0 : memref<8x8xf32>
    pimcmd.transpose_in %1 : memref<8x8xf32>
    pimcmd.bc f32 dst 3 src 0 dim 0 dist 0 count 3 domain [0:2, 0:8]
    pimcmd.compute copy f32 dst 1 srcs [3] domain [0:6, 0:8]
    pimcmd.release %1 : memref<8x8xf32>
  }
  func.return
}

// -----
// The box is printed as the IR writes it.
// CHECK:       error: pass 'lower-shift' failed: the pimcmd.program at {{.*}}lower-shift.mlir:[[# @LINE + 2]]:3 in @bc_not_decomposed: 'bc' box [0:1, 1:8] is not decomposed (run decompose first)
func.func @bc_not_decomposed(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  pimcmd.program ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) config tiny lattice [8, 8] tiles [2, 4] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<8x8xf32>, %1: memref<8x8xf32>):
    pimcmd.array %0 shape [8, 8] wordline 0 transposed : memref<8x8xf32>
    pimcmd.array %1 shape [8, 8] wordline 1 transposed : memref<8x8xf32>
    pimcmd.transpose_in %0 : memref<8x8xf32>
    pimcmd.transpose_in %1 : memref<8x8xf32>
    pimcmd.bc f32 dst 3 src 0 dim 0 dist 0 count 3 domain [0:1, 1:8]
    pimcmd.compute copy f32 dst 1 srcs [3] domain [0:3, 1:8]
    pimcmd.release %1 : memref<8x8xf32>
  }
  func.return
}
// CHECK-NOT:   Traceback
