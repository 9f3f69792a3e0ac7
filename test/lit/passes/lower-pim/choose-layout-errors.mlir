// choose-layout errors: a graph that does not fit the machine, a machine
// with no tiling that keeps a cache line in one bank, bad forced tile shapes.
// One line each, no traceback, non-zero exit.  (The other tile-shape errors
// are checked in-process by test/test_lower_pim_units.py.)
//
// RUN: not infs-opt --choose-layout=config=fig9 %s 2>&1 | filecheck %s --check-prefix=LINE
// RUN: infs-opt --verify-diagnostics --split-input-file --choose-layout=config=small-16 %s | filecheck %s --check-prefix=FIT
// RUN: not infs-opt --choose-layout='config=small-16 tiles=4x8' %s 2>&1 | filecheck %s --check-prefix=CELLS

// fig9 arrays have 4 bitlines and 1 array per bank: no f32 tiling puts a
// 16-element line in one bank (T_inner * 1 mod 16 != 0).
// LINE-NOT:  Traceback
// LINE:      infs-opt: error: pass 'choose-layout' failed: {{.*}}no tile shape of 4 bitlines keeps a 16-element cache line in one bank of 'fig9' (T_inner * 1 mod 16 != 0): §4.1 asks for a tile shape T with T0*T1 = 4 and T1 * 1 arrays per bank a multiple of the 16 f32 elements of a 64-byte line, so T1 a multiple of 16, and no multiple of 16 divides 4
// LINE-NOT:  {{.}}

// The first graph fits (one 8x8 tile), the second does not.
// FIT-NOT:   Traceback
// FIT:       tiles = array<i64: 8, 8>
// FIT:       error: pass 'choose-layout' failed: {{.*}}the lattice [128, 128] needs at least 256 SRAM arrays of 64 bitlines; 'small-16' has 128
// FIT-NOT:   Traceback

// CELLS-NOT: Traceback
// CELLS:     infs-opt: error: pass 'choose-layout' failed: {{.*}}tile shape 4x8 covers 32 cells; an SRAM array of 'small-16' has 64 bitlines
// CELLS-NOT: {{.}}

func.func @fits(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  tdfg.graph ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) rank 2 hints {shift = array<i64: 0, 1>} {
  ^bb0(%a: memref<4x4xf32>, %b: memref<4x4xf32>):
    %0 = tdfg.tensor %a [0:4, 0:4] : memref<4x4xf32> -> !tdfg.tensor<f32, 2>
    tdfg.store %0 -> %b : !tdfg.tensor<f32, 2> -> memref<4x4xf32>
    tdfg.yield
  }
  func.return
}

// -----
// 128x128 f32 = 16384 cells; small-16 has 16 banks x 8 arrays x 64 bitlines = 8192.
func.func @too_big(%A: memref<128x128xf32>, %B: memref<128x128xf32>) {
  tdfg.graph ins(%A, %B : memref<128x128xf32>, memref<128x128xf32>) rank 2 {
  ^bb0(%a: memref<128x128xf32>, %b: memref<128x128xf32>):
    %0 = tdfg.tensor %a [0:128, 0:128] : memref<128x128xf32> -> !tdfg.tensor<f32, 2>
    tdfg.store %0 -> %b : !tdfg.tensor<f32, 2> -> memref<128x128xf32>
    tdfg.yield
  }
  func.return
}
