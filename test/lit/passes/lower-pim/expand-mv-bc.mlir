// expand-mv-bc: tensor-level moves become the moves the hardware makes.  A
// `bc` of a slice one cell thick stays (a multicast, §4.2); a wider slice is
// expanded into one `mv` per copy, the copy that lands in place (offset
// dist + j*w == 0) being a `compute copy`; a `mv` by 0 is a copy.  Every
// other command is kept.  The inputs are tdfg-to-pimcmd's printed output on
// `tiny`.
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics -p expand-mv-bc | filecheck %s

// Rows [0,2) copied by 0, 2 and 4 rows (count 3, width 2): a copy in place
// (regression: that copy was lost once, see
// test/lit/pipelines/lower-pim/bc-copy-in-place.mlir), then two moves.  The
// one-row bc is a multicast already: kept as it is.
// CHECK-LABEL: func.func @bc_wide
// CHECK:         pimcmd.transpose_in %1 :
// CHECK-NEXT:    pimcmd.bc f32 dst 2 src 0 dim 0 dist -7 count 2 domain [7:8, 0:8]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 3 srcs [0] domain [0:2, 0:8]{{$}}
// CHECK-NEXT:    pimcmd.mv f32 dst 3 src 0 dim 0 dist 2 domain [0:2, 0:8]{{$}}
// CHECK-NEXT:    pimcmd.mv f32 dst 3 src 0 dim 0 dist 4 domain [0:2, 0:8]{{$}}
// CHECK-NEXT:    pimcmd.compute add f32 dst 4 srcs [3, 2] domain [0:2, 0:8]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [4] domain [0:2, 0:8]{{$}}
// CHECK-NEXT:    pimcmd.release
// CHECK-NOT:     pimcmd.bc f32 dst 3
func.func @bc_wide(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  pimcmd.program ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) config tiny lattice [8, 8] tiles [2, 8] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<8x8xf32>, %1: memref<8x8xf32>):
    pimcmd.array %0 shape [8, 8] wordline 0 transposed : memref<8x8xf32>
    pimcmd.array %1 shape [8, 8] wordline 1 transposed : memref<8x8xf32>
    pimcmd.transpose_in %0 : memref<8x8xf32>
    pimcmd.transpose_in %1 : memref<8x8xf32>
    pimcmd.bc f32 dst 2 src 0 dim 0 dist -7 count 2 domain [7:8, 0:8]
    pimcmd.bc f32 dst 3 src 0 dim 0 dist 0 count 3 domain [0:2, 0:8]
    pimcmd.compute add f32 dst 4 srcs [3, 2] domain [0:2, 0:8]
    pimcmd.compute copy f32 dst 1 srcs [4] domain [0:2, 0:8]
    pimcmd.release %1 : memref<8x8xf32>
  }
  func.return
}

// -----
// A bc of a 3-wide column block along dim 1, copied twice by 3 and 6: two
// moves (no copy in place).
// CHECK-LABEL: func.func @bc_columns
// CHECK:         pimcmd.transpose_in %1 :
// CHECK-NEXT:    pimcmd.mv i32 dst 2 src 0 dim 1 dist 3 domain [0:4, 0:3]{{$}}
// CHECK-NEXT:    pimcmd.mv i32 dst 2 src 0 dim 1 dist 6 domain [0:4, 0:3]{{$}}
// CHECK-NEXT:    pimcmd.compute copy i32 dst 1 srcs [2] domain [0:4, 3:9]{{$}}
func.func @bc_columns(%A: memref<4x16xi32>, %B: memref<4x16xi32>) {
  pimcmd.program ins(%A, %B : memref<4x16xi32>, memref<4x16xi32>) config tiny lattice [4, 16] tiles [4, 4] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<4x16xi32>, %1: memref<4x16xi32>):
    pimcmd.array %0 shape [4, 16] wordline 0 transposed : memref<4x16xi32>
    pimcmd.array %1 shape [4, 16] wordline 1 transposed : memref<4x16xi32>
    pimcmd.transpose_in %0 : memref<4x16xi32>
    pimcmd.transpose_in %1 : memref<4x16xi32>
    pimcmd.bc i32 dst 2 src 0 dim 1 dist 3 count 2 domain [0:4, 0:3]
    pimcmd.compute copy i32 dst 1 srcs [2] domain [0:4, 3:9]
    pimcmd.release %1 : memref<4x16xi32>
  }
  func.return
}

// -----
// A move by 0 is a copy; a move by 7 stays a mv (lower-shift's business).
// CHECK-LABEL: func.func @mv_zero
// CHECK:         pimcmd.transpose_in %1 :
// CHECK-NEXT:    pimcmd.mv f32 dst 2 src 0 dim 0 dist 7 domain [3:41]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 3 srcs [0] domain [3:41]{{$}}
// CHECK-NEXT:    pimcmd.compute sub f32 dst 4 srcs [3, 2] domain [10:41]{{$}}
// CHECK-NOT:     dist 0
func.func @mv_zero(%A: memref<64xf32>, %B: memref<64xf32>) {
  pimcmd.program ins(%A, %B : memref<64xf32>, memref<64xf32>) config tiny lattice [64] tiles [16] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<64xf32>, %1: memref<64xf32>):
    pimcmd.array %0 shape [64] wordline 0 transposed : memref<64xf32>
    pimcmd.array %1 shape [64] wordline 1 transposed : memref<64xf32>
    pimcmd.transpose_in %0 : memref<64xf32>
    pimcmd.transpose_in %1 : memref<64xf32>
    pimcmd.mv f32 dst 2 src 0 dim 0 dist 7 domain [3:41]
    pimcmd.mv f32 dst 3 src 0 dim 0 dist 0 domain [3:41]
    pimcmd.compute sub f32 dst 4 srcs [3, 2] domain [10:41]
    pimcmd.compute copy f32 dst 1 srcs [4] domain [10:41]
    pimcmd.release %1 : memref<64xf32>
  }
  func.return
}

// -----
// A program whose registers are already wordlines (no `virtual`) is past
// this pass: one line, naming the program.
// CHECK-NOT:   Traceback
// CHECK:       error: pass 'expand-mv-bc' failed: the pimcmd.program at {{.*}}expand-mv-bc.mlir:[[# @LINE + 2]]:3 in @allocated: 'expand-mv-bc' runs before allocate-wordlines (the program's registers are already wordlines)
func.func @allocated(%A: memref<64xf32>) {
  pimcmd.program ins(%A : memref<64xf32>) config tiny lattice [64] tiles [16] banks 4 arrays_per_bank 2 wordlines 256 {
  ^bb0(%0: memref<64xf32>):
    pimcmd.array %0 shape [64] wordline 0 transposed : memref<64xf32>
    pimcmd.transpose_in %0 : memref<64xf32>
    pimcmd.compute neg f32 dst 0 srcs [0] bitlines 0:1:16 tiles 0:1:4
    pimcmd.release %0 : memref<64xf32>
  }
  func.return
}
// CHECK-NOT:   Traceback
