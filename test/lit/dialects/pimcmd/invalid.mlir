// Negative tests: one chunk per verifier rule of the `pimcmd` dialect
// (infs/dialects/pimcmd.py) and per parse-level error of its custom syntax.
// Each CHECK sits right above the op that must be reported. Unless a chunk
// says otherwise, the machine is a 4x4 lattice cut into 2x2 tiles (4 tiles of
// 4 bitlines), 2 banks of 2 SRAM arrays, 256 wordlines.
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @outside_program(%A: memref<4x4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.sync' op must be directly inside a 'pimcmd.program'
  pimcmd.sync
  func.return
}

// -----

func.func @program_rank(%A: memref<4x4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.program' op lattice [4, 4] and tiles [2] must have the same, non-zero rank
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.sync
  }
  func.return
}

// -----

func.func @program_rank_zero() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.program' op lattice [] and tiles [] must have the same, non-zero rank
  pimcmd.program config tiny lattice [] tiles [] banks 1 arrays_per_bank 1 wordlines 8 {
    pimcmd.sync
  }
  func.return
}

// -----

func.func @program_sizes(%A: memref<4x4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.program' op lattice and tile sizes must be positive
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [0, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.sync
  }
  func.return
}

// -----

func.func @program_banks(%A: memref<4x4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.program' op banks must be positive, got 0
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 0 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.sync
  }
  func.return
}

// -----

func.func @program_arrays_per_bank(%A: memref<4x4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.program' op arrays_per_bank must be positive, got -1
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank -1 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.sync
  }
  func.return
}

// -----

func.func @program_wordlines(%A: memref<4x4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.program' op wordlines must be positive, got 0
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 0 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.sync
  }
  func.return
}

// -----

func.func @program_capacity(%A: memref<4x4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.program' op needs 16 tiles but the machine has 4 SRAM arrays
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [8, 8] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.sync
  }
  func.return
}

// -----

func.func @program_block_args(%A: memref<4x4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.program' op block arguments must match its array operands
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xi32>):
    pimcmd.sync
  }
  func.return
}

// -----

func.func @program_layout_overlap(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.program' op layout entries overlap on wordlines [16, 32)
  pimcmd.program ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>, %b: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 : memref<4x4xf32>
    pimcmd.array %b shape [4, 4] wordline 16 : memref<4x4xf32>
  }
  func.return
}

// -----

func.func @program_syntax_ins(%A: memref<4x4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: ins: 2 operands but 1 types
  pimcmd.program ins(%A, %A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>, %b: memref<4x4xf32>):
    pimcmd.sync
  }
  func.return
}

// -----

func.func @program_syntax_fields(%A: memref<4x4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected 'tiles'
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.sync
  }
  func.return
}

// -----

func.func @array_foreign(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    %m = memref.alloc() : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.array' op must describe an argument of the enclosing 'pimcmd.program'
    pimcmd.array %m shape [4, 4] wordline 0 : memref<4x4xf32>
  }
  func.return
}

// -----

func.func @array_element_type(%A: memref<4x4xf64>) {
  pimcmd.program ins(%A : memref<4x4xf64>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf64>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.array' op element type must be one of f32, i32, i16, i8, i1, got 'f64'
    pimcmd.array %a shape [4, 4] wordline 0 : memref<4x4xf64>
  }
  func.return
}

// -----

func.func @array_shape_rank(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.array' op shape [16] does not match the rank of memref<4x4xf32>
    pimcmd.array %a shape [16] wordline 0 : memref<4x4xf32>
  }
  func.return
}

// -----

func.func @array_shape(%A: memref<4x?xf32>) {
  pimcmd.program ins(%A : memref<4x?xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.array' op shape [2, 4] does not match memref<4x?xf32>
    pimcmd.array %a shape [2, 4] wordline 0 : memref<4x?xf32>
  }
  func.return
}

// -----

func.func @array_rank(%A: memref<2x2x2xf32>) {
  pimcmd.program ins(%A : memref<2x2x2xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<2x2x2xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.array' op rank-3 array in a rank-2 lattice
    pimcmd.array %a shape [2, 2, 2] wordline 0 : memref<2x2x2xf32>
  }
  func.return
}

// -----

func.func @array_exceeds_lattice(%A: memref<8xf32>) {
  pimcmd.program ins(%A : memref<8xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<8xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.array' op shape [8] exceeds the lattice [4, 4]
    pimcmd.array %a shape [8] wordline 0 : memref<8xf32>
  }
  func.return
}

// -----

func.func @array_wordlines(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.array' op register wordlines [240, 272) leave the array's 256 wordlines
    pimcmd.array %a shape [4, 4] wordline 240 : memref<4x4xf32>
  }
  func.return
}

// -----

func.func @array_syntax_shape(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: '[' expected
    pimcmd.array %a shape 4 wordline 0 : memref<4x4xf32>
  }
  func.return
}

// -----

func.func @layout_entry_missing(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.transpose_in' op array has no 'pimcmd.array' layout entry
    pimcmd.transpose_in %a : memref<4x4xf32>
  }
  func.return
}

// -----

func.func @layout_entry_missing_release(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.release' op array has no 'pimcmd.array' layout entry
    pimcmd.release %a : memref<4x4xf32>
  }
  func.return
}

// -----

func.func @compute_unknown_op(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op unknown op 'sqrt' (known: add, sub, mul, div, fma, min, max, cmp_lt, cmp_le, cmp_eq, select, and, or, xor, not, abs, neg, relu, copy)
    pimcmd.compute sqrt f32 dst 32 srcs [0] bitlines 0:1:4 tiles 0:1:4
  }
  func.return
}

// -----

func.func @compute_element_type(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op element type must be one of f32, i32, i16, i8, i1, got 'f16'
    pimcmd.compute add f16 dst 32 srcs [0, 0] bitlines 0:1:4 tiles 0:1:4
  }
  func.return
}

// -----

func.func @compute_arity(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op add takes 2 operands, got 1
    pimcmd.compute add f32 dst 32 srcs [0] bitlines 0:1:4 tiles 0:1:4
  }
  func.return
}

// -----

func.func @compute_arity_const(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op neg takes 1 operands, got 2
    pimcmd.compute neg f32 dst 32 srcs [0] const 1.0 bitlines 0:1:4 tiles 0:1:4
  }
  func.return
}

// -----

func.func @compute_select_const(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op select takes no constant operand
    pimcmd.compute select f32 dst 64 srcs [32, 0] const 1.0 bitlines 0:1:4 tiles 0:1:4
  }
  func.return
}

// -----

func.func @compute_dst_wordlines(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op destination wordlines [240, 272) leave the array's 256 wordlines
    pimcmd.compute add f32 dst 240 srcs [0, 0] bitlines 0:1:4 tiles 0:1:4
  }
  func.return
}

// -----

func.func @compute_src_wordlines(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op source wordlines [-1, 31) leave the array's 256 wordlines
    pimcmd.compute add f32 dst 32 srcs [0, -1] bitlines 0:1:4 tiles 0:1:4
  }
  func.return
}

// -----

func.func @compute_bitlines(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op bitline pattern 0:1:5 reaches bitline 4 of 4
    pimcmd.compute add f32 dst 32 srcs [0, 0] bitlines 0:1:5 tiles 0:1:4
  }
  func.return
}

// -----

func.func @compute_tiles(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op tile pattern 1:2:3 reaches tile 5 of 4
    pimcmd.compute add f32 dst 32 srcs [0, 0] bitlines 0:1:4 tiles 1:2:3
  }
  func.return
}

// -----

func.func @compute_banks(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op bank pattern 1:1:2 reaches bank 2 of 2
    pimcmd.compute add f32 dst 32 srcs [0, 0] bitlines 0:1:4 tiles 0:1:4 banks 1:1:2
  }
  func.return
}

// -----

func.func @compute_syntax_pattern(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected ':' between pattern stride and count
    pimcmd.compute add f32 dst 32 srcs [0, 0] bitlines 0:1 tiles 0:1:4
  }
  func.return
}

// -----

func.func @compute_syntax_missing_tiles(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 2]]:3: error: Expected 'tiles'
    pimcmd.compute add f32 dst 32 srcs [0, 0] bitlines 0:1:4
  }
  func.return
}

// -----

func.func @compute_syntax_pattern_count(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: pattern 0:1:0 has a count <= 0
    pimcmd.compute add f32 dst 32 srcs [0, 0] bitlines 0:1:0 tiles 0:1:4
  }
  func.return
}

// -----

func.func @shift_element_type(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.shift' op element type must be one of f32, i32, i16, i8, i1, got 'f64'
    pimcmd.shift f64 dst 64 src 0 dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 0:1:4
  }
  func.return
}

// -----

func.func @shift_wordlines(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.shift' op source wordlines [250, 282) leave the array's 256 wordlines
    pimcmd.shift f32 dst 64 src 250 dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 0:1:4
  }
  func.return
}

// -----

func.func @shift_dim(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.shift' op dim 2 is outside the rank-2 lattice
    pimcmd.shift f32 dst 64 src 0 dim 2 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 0:1:4
  }
  func.return
}

// -----

func.func @shift_mask(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.shift' op mask [1:3] is not inside the tile extent 2
    pimcmd.shift f32 dst 64 src 0 dim 1 mask [1:3] inter 1 intra 0 bitlines 0:2:2 tiles 0:1:4
  }
  func.return
}

// -----

func.func @shift_intra_distance(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.shift' op intra-tile distance 2 must be smaller than the tile extent 2
    pimcmd.shift f32 dst 64 src 0 dim 1 mask [0:0] inter 0 intra 2 bitlines 0:2:2 tiles 0:1:4
  }
  func.return
}

// -----

func.func @shift_mask_leaves_tile(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.shift' op mask [1:2] shifted by 1 leaves the tile
    pimcmd.shift f32 dst 64 src 0 dim 1 mask [1:2] inter 0 intra 1 bitlines 1:2:2 tiles 0:1:4
  }
  func.return
}

// -----

func.func @shift_tiles(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.shift' op tile pattern 0:1:5 reaches tile 4 of 4
    pimcmd.shift f32 dst 64 src 0 dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 0:1:5
  }
  func.return
}

// -----

func.func @shift_syntax_mask(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected ':'
    pimcmd.shift f32 dst 64 src 0 dim 1 mask [0, 1] inter 0 intra 1 bitlines 0:2:2 tiles 0:1:4
  }
  func.return
}

// -----

func.func @bcast_element_type(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.bcast' op element type must be one of f32, i32, i16, i8, i1, got 'i64'
    pimcmd.bcast i64 dst 64 src 0 dim 0 intra [0:1] inter [0:2] bitlines 0:1:2 tiles 0:1:2
  }
  func.return
}

// -----

func.func @bcast_wordlines(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.bcast' op destination wordlines [256, 288) leave the array's 256 wordlines
    pimcmd.bcast f32 dst 256 src 0 dim 0 intra [0:1] inter [0:2] bitlines 0:1:2 tiles 0:1:2
  }
  func.return
}

// -----

func.func @bcast_dim(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.bcast' op dim -1 is outside the rank-2 lattice
    pimcmd.bcast f32 dst 64 src 0 dim -1 intra [0:1] inter [0:2] bitlines 0:1:2 tiles 0:1:2
  }
  func.return
}

// -----

func.func @bcast_empty_intra(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.bcast' op intra range [1:1] is empty
    pimcmd.bcast f32 dst 64 src 0 dim 0 intra [1:1] inter [0:2] bitlines 0:1:2 tiles 0:1:2
  }
  func.return
}

// -----

func.func @bcast_empty_inter(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.bcast' op inter range [2:0] is empty
    pimcmd.bcast f32 dst 64 src 0 dim 0 intra [0:1] inter [2:0] bitlines 0:1:2 tiles 0:1:2
  }
  func.return
}

// -----

func.func @bcast_intra_extent(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.bcast' op intra range [-1:2] exceeds the tile extent 2
    pimcmd.bcast f32 dst 64 src 0 dim 0 intra [-1:2] inter [0:2] bitlines 0:1:2 tiles 0:1:2
  }
  func.return
}

// -----

func.func @bcast_banks(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.bcast' op bank pattern 0:2:2 reaches bank 2 of 2
    pimcmd.bcast f32 dst 64 src 0 dim 0 intra [0:1] inter [0:2] bitlines 0:1:2 tiles 0:1:2 banks 0:2:2
  }
  func.return
}

// -----

func.func @readout_element_type(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.readout' op element type must be one of f32, i32, i16, i8, i1, got 'bf16'
    pimcmd.readout bf16 src 32 domain [0:4, 0:1] id 0 bitlines 0:2:2 tiles 0:2:2
  }
  func.return
}

// -----

func.func @readout_wordlines(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.readout' op source wordlines [300, 332) leave the array's 256 wordlines
    pimcmd.readout f32 src 300 domain [0:4, 0:1] id 0 bitlines 0:2:2 tiles 0:2:2
  }
  func.return
}

// -----

func.func @readout_domain_bounds(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: {{(readout )?}}domain [0:4, 1:0] has lower bound > upper bound in dim 1
    pimcmd.readout f32 src 32 domain [0:4, 1:0] id 0 bitlines 0:2:2 tiles 0:2:2
  }
  func.return
}

// -----

func.func @readout_domain_concrete(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.readout' op domain [0:N, 0:1] must be concrete
    pimcmd.readout f32 src 32 domain [0:N, 0:1] id 0 bitlines 0:2:2 tiles 0:2:2
  }
  func.return
}

// -----

func.func @readout_domain_rank(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.readout' op domain [0:4] has rank 1, lattice has 2
    pimcmd.readout f32 src 32 domain [0:4] id 0 bitlines 0:2:2 tiles 0:2:2
  }
  func.return
}

// -----

func.func @readout_domain_lattice(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.readout' op domain [0:4, 2:5] leaves the lattice [4, 4]
    pimcmd.readout f32 src 32 domain [0:4, 2:5] id 0 bitlines 0:2:2 tiles 0:2:2
  }
  func.return
}

// -----

func.func @readout_bitlines(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.readout' op bitline pattern 3:1:2 reaches bitline 4 of 4
    pimcmd.readout f32 src 32 domain [0:4, 0:1] id 0 bitlines 3:1:2 tiles 0:2:2
  }
  func.return
}
