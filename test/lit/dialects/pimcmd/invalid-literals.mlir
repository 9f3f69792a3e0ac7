// Regression: integer literals out of the signed
// 64-bit range used to end in an internal ValueError/OverflowError, and the
// verifier expanded patterns into index arrays before checking their bounds
// (`tiles 0:1:300000000`: 4.6 GB and 14 s). Each is now a located one-line
// error; the pattern bounds are checked arithmetically (max index, size).
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @lattice_literal(%A: memref<4x4xf32>) {
  // CHECK: invalid-literals.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: integer literal 99999999999999999999 out of the signed 64-bit range
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [99999999999999999999, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.sync
  }
  func.return
}

// -----

func.func @banks_literal(%A: memref<4x4xf32>) {
  // CHECK: invalid-literals.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: integer literal -99999999999999999999 out of the signed 64-bit range
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks -99999999999999999999 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.sync
  }
  func.return
}

// -----

func.func @pattern_start_literal(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid-literals.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: integer literal 99999999999999999999 out of the signed 64-bit range
    pimcmd.compute add f32 dst 64 srcs [0, 32] bitlines 99999999999999999999:2:2 tiles 0:1:4
  }
  func.return
}

// -----

func.func @pattern_count_literal(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid-literals.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: integer literal 18446744073709551616 out of the signed 64-bit range
    pimcmd.compute add f32 dst 64 srcs [0, 32] bitlines 0:1:4 tiles 0:1:18446744073709551616
  }
  func.return
}

// -----

// Each literal fits, but the largest index does not.
func.func @pattern_max_beyond_i64(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid-literals.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: {{.*}}pattern 0:9223372036854775807:3 reaches beyond the signed 64-bit range
    pimcmd.compute add f32 dst 64 srcs [0, 32] bitlines 0:1:4 tiles 0:9223372036854775807:3
  }
  func.return
}

// -----

// Checked without expanding: the verifier answers at once.
func.func @huge_tile_pattern(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid-literals.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op tile pattern 0:1:300000000000 reaches tile 299999999999 of 4
    pimcmd.compute add f32 dst 64 srcs [0, 32] bitlines 0:1:4 tiles 0:1:300000000000
  }
  func.return
}

// -----

// In range (indices 0..3 only) but 3e11 and 2^40 selections: indices repeat
// more than any machine has cells (the simulator would expand them).
func.func @repeating_pattern(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid-literals.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op selects 300000000000 bitlines x 4 tiles: more than any machine has cells (2^24, hardware.MAX_TOTAL_BITLINES), so indices repeat
    pimcmd.compute add f32 dst 64 srcs [0, 32] bitlines 0:0:300000000000 tiles 0:1:4
  }
  func.return
}

// -----

func.func @repeating_levels(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid-literals.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op selects 1099511627776 bitlines x 1 tiles: more than any machine has cells
    pimcmd.compute add f32 dst 64 srcs [0, 32] bitlines 0:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2:0:2 tiles 0:1:1
  }
  func.return
}

// -----

func.func @huge_bank_pattern(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid-literals.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op bank pattern 0:1:1:2:4000000000000 reaches bank 7999999999998 of 2
    pimcmd.compute add f32 dst 64 srcs [0, 32] bitlines 0:1:4 tiles 0:1:4 banks 0:1:1:2:4000000000000
  }
  func.return
}

// -----

func.func @domain_literal(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid-literals.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: integer literal 99999999999999999999 out of the signed 64-bit range
    pimcmd.compute add f32 dst 2 srcs [0, 1] domain [0:99999999999999999999, 0:4]
  }
  func.return
}

// -----

// A memref size beyond int64 is unusable everywhere (MLIR's shapes are int64).
// CHECK: invalid-literals.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: shape dimension 99999999999999999999 out of the signed 64-bit range
func.func @memref_dim(%A: memref<99999999999999999999xf32>) {
  func.return
}

// -----

func.func @inline_config_geometry(%A: memref<4x4xf32>) {
  // CHECK: invalid-literals.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.program' op banks is 2 but its config 'mine' has 4 banks
  pimcmd.program ins(%A : memref<4x4xf32>) config "mine{mesh_rows=2,mesh_cols=2,banks=4,ways=1,compute_ways=1,arrays_per_way=2,wordlines=256,bitlines=4,htree_levels=1,htree_degree=2,mem_ctrls=2}" lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.sync
  }
  func.return
}

// -----

func.func @inline_config_value(%A: memref<4x4xf32>) {
  // CHECK: invalid-literals.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.program' op config: invalid hardware config 'mine': bitlines must be a positive integer at most 4096, got 99999999999999999999
  pimcmd.program ins(%A : memref<4x4xf32>) config "mine{bitlines=99999999999999999999}" lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.sync
  }
  func.return
}
