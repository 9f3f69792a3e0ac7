// choose-layout (§4.1): a tile shape T with prod(T) = bitlines and
// T_inner * W mod L = 0 (small-16: 64 bitlines, W = 8 arrays per bank, L = 16
// f32 per 64-byte line: T_inner even), no tile longer than the array, chosen
// by the layout hints: long tiles on a reduced dim, square tiles for shifts,
// a small innermost tile for broadcasts; reduction first, then shift, then
// broadcast.  Without hints the movement is read off the graph.  `tiles=`
// forces a shape.  All arrays of a graph share the tiles.
//
// RUN: infs-opt %s --split-input-file --choose-layout=config=small-16 | filecheck %s
// RUN: infs-opt %s --split-input-file --choose-layout='config=small-16 tiles=4x16' | filecheck %s --check-prefix=FORCED

// FORCED-COUNT-6: tiles = array<i64: 4, 16>

// 2-D shifts: square 8x8 tiles (fewest cells crossing a tile boundary).
// CHECK-LABEL: func.func @shift2d
// CHECK:       infs.layout = {config = "small-16", lattice = array<i64: 32, 32>, tiles = array<i64: 8, 8>, laid_out = array<i64: 0, 1>, shapes = [array<i64: 32, 32>, array<i64: 32, 32>]}
func.func @shift2d(%A: memref<32x32xf32>, %B: memref<32x32xf32>) {
  tdfg.graph ins(%A, %B : memref<32x32xf32>, memref<32x32xf32>) rank 2 hints {shift = array<i64: 0, 1>} {
  ^bb0(%a: memref<32x32xf32>, %b: memref<32x32xf32>):
    %0 = tdfg.tensor %a [0:32, 0:32] : memref<32x32xf32> -> !tdfg.tensor<f32, 2>
    tdfg.store %0 -> %b : !tdfg.tensor<f32, 2> -> memref<32x32xf32>
    tdfg.yield
  }
  func.return
}

// -----
// Reduction along dim 1 outranks the shifts: the longest tile on dim 1 that
// does not overshoot the 32 columns.
// CHECK-LABEL: func.func @reduce1
// CHECK:       tiles = array<i64: 2, 32>
func.func @reduce1(%A: memref<32x32xf32>, %B: memref<32x32xf32>) {
  tdfg.graph ins(%A, %B : memref<32x32xf32>, memref<32x32xf32>) rank 2 hints {shift = array<i64: 0, 1>, reduce = array<i64: 1>} {
  ^bb0(%a: memref<32x32xf32>, %b: memref<32x32xf32>):
    %0 = tdfg.tensor %a [0:32, 0:32] : memref<32x32xf32> -> !tdfg.tensor<f32, 2>
    tdfg.store %0 -> %b : !tdfg.tensor<f32, 2> -> memref<32x32xf32>
    tdfg.yield
  }
  func.return
}

// -----
// Reduction along dim 0: long tiles on dim 0.
// CHECK-LABEL: func.func @reduce0
// CHECK:       tiles = array<i64: 32, 2>
func.func @reduce0(%A: memref<32x32xf32>, %B: memref<32x32xf32>) {
  tdfg.graph ins(%A, %B : memref<32x32xf32>, memref<32x32xf32>) rank 2 hints {reduce = array<i64: 0>} {
  ^bb0(%a: memref<32x32xf32>, %b: memref<32x32xf32>):
    %0 = tdfg.tensor %a [0:32, 0:32] : memref<32x32xf32> -> !tdfg.tensor<f32, 2>
    tdfg.store %0 -> %b : !tdfg.tensor<f32, 2> -> memref<32x32xf32>
    tdfg.yield
  }
  func.return
}

// -----
// Broadcast only: the smallest valid innermost tile (2: T_inner * 8 mod 16).
// CHECK-LABEL: func.func @bcast
// CHECK:       tiles = array<i64: 32, 2>
func.func @bcast(%A: memref<32x32xf32>, %B: memref<32x32xf32>) {
  tdfg.graph ins(%A, %B : memref<32x32xf32>, memref<32x32xf32>) rank 2 hints {broadcast = array<i64: 0>} {
  ^bb0(%a: memref<32x32xf32>, %b: memref<32x32xf32>):
    %0 = tdfg.tensor %a [0:32, 0:32] : memref<32x32xf32> -> !tdfg.tensor<f32, 2>
    tdfg.store %0 -> %b : !tdfg.tensor<f32, 2> -> memref<32x32xf32>
    tdfg.yield
  }
  func.return
}

// -----
// No hints: a mv along dim 1 in the graph counts as a shift hint.
// CHECK-LABEL: func.func @nohint_shift1
// CHECK:       tiles = array<i64: 2, 32>
func.func @nohint_shift1(%A: memref<32x32xf32>, %B: memref<32x32xf32>) {
  tdfg.graph ins(%A, %B : memref<32x32xf32>, memref<32x32xf32>) rank 2 {
  ^bb0(%a: memref<32x32xf32>, %b: memref<32x32xf32>):
    %0 = tdfg.tensor %a [0:32, 0:32] : memref<32x32xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.mv %0 dim 1 dist 1 : !tdfg.tensor<f32, 2>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 2> -> memref<32x32xf32>
    tdfg.yield
  }
  func.return
}

// -----
// The lattice is the hull of all arrays (16x16 and 12x16).  The tilings are
// ranked by the timing model's estimate: in 32x2 tiles (16 rows idle) the
// shift by 2 along dim 0 stays in its tile, bits x 2 x 2 cycles (the flattened
// distance); in 1x64 it is a whole-tile move over the H-tree (gem5's per-array
// ceil(64 / 32) x 32 cycles per level), in 8x8 bits x 2 x 8 in a tile plus an
// inter-tile part (simulated: 160 cycles in 32x2, 278 in 1x64, 1228 in 8x8).
// CHECK-LABEL: func.func @small_lattice
// CHECK:       infs.layout = {config = "small-16", lattice = array<i64: 16, 16>, tiles = array<i64: 32, 2>, laid_out = array<i64: 0, 1>, shapes = [array<i64: 12, 16>, array<i64: 16, 16>]}
func.func @small_lattice(%A: memref<12x16xf32>, %B: memref<16x16xf32>) {
  tdfg.graph ins(%A, %B : memref<12x16xf32>, memref<16x16xf32>) rank 2 hints {shift = array<i64: 0, 1>} {
  ^bb0(%a: memref<12x16xf32>, %b: memref<16x16xf32>):
    %0 = tdfg.tensor %a [0:12, 0:16] : memref<12x16xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.mv %0 dim 0 dist 2 : !tdfg.tensor<f32, 2>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 2> -> memref<16x16xf32>
    tdfg.yield
  }
  func.return
}
