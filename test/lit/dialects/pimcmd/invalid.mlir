// Negative tests: one chunk per verifier rule of the `pimcmd` dialect
// (infs/dialects/pimcmd.py) and per parse-level error of its custom syntax.
// Each CHECK sits right above the op that must be reported. Unless a chunk
// says otherwise, the machine is a 4x4 lattice cut into 2x2 tiles (4 tiles of
// 4 bitlines), 2 banks of 2 SRAM arrays, 256 wordlines.
//
// Three rules cannot be reached, because another rule always fires first:
// _verify_cells' "needs a domain" (its own "needs a domain or bitlines/tiles
// patterns" precedes it); _DomainCommandOp's "is a domain-form command; it
// needs a 'virtual' program" and pimcmd.result's "index .. is not a result of
// the program" (ops are verified outermost first, and the enclosing program's
// "has wordlines allocated but still holds the domain-form .." and
// result-count rules catch the same errors). The
// chunks program_allocated_domain_form and program_results cover them.
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @outside_program(%A: memref<4x4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.sync' op expects parent op 'pimcmd.program'
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
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.program' op block arguments must match its operands (arrays, then scalars)
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

func.func @array_element_type(%A: memref<4x4xf16>) {
  pimcmd.program ins(%A : memref<4x4xf16>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf16>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.array' op element type must be one of f64, i64, f32, i32, i16, i8, i1, got 'f16'
    pimcmd.array %a shape [4, 4] wordline 0 : memref<4x4xf16>
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

func.func @array_negative_wordline(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.array' op register -32 is negative{{$}}
    pimcmd.array %a shape [4, 4] wordline -32 : memref<4x4xf32>
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

func.func @program_scalar_type(%A: memref<4x4xf32>, %B: memref<4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.program' op scalar operands must be scalars, got memref<4xf32>
  pimcmd.program ins(%A : memref<4x4xf32>) scalars(%B : memref<4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>, %b: memref<4xf32>):
    pimcmd.sync
  }
  func.return
}

// -----

func.func @compute_const_and_const_arg(%A: memref<4x4xf32>, %w: f32) {
  pimcmd.program ins(%A : memref<4x4xf32>) scalars(%w : f32) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>, %W: f32):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op takes a literal constant or a scalar argument, not both
    pimcmd.compute mul f32 dst 32 srcs [0] const 2.0 const_arg 0 bitlines 0:1:4 tiles 0:1:4
  }
  func.return
}

// -----

func.func @compute_const_arg_index(%A: memref<4x4xf32>, %w: f32) {
  pimcmd.program ins(%A : memref<4x4xf32>) scalars(%w : f32) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>, %W: f32):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op const_arg 1 is not a scalar argument of the program (1 scalars)
    pimcmd.compute mul f32 dst 32 srcs [0] const_arg 1 bitlines 0:1:4 tiles 0:1:4
  }
  func.return
}

// -----

func.func @compute_const_arg_no_scalars(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op const_arg 0 is not a scalar argument of the program (0 scalars)
    pimcmd.compute select f32 dst 64 srcs [32, 0] const_arg 0 bitlines 0:1:4 tiles 0:1:4
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
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op element type must be one of f64, i64, f32, i32, i16, i8, i1, got 'f16'
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

func.func @compute_src_negative(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op source register -1 is negative
    pimcmd.compute add f32 dst 32 srcs [0, -1] bitlines 0:1:4 tiles 0:1:4
  }
  func.return
}

// -----

func.func @compute_src_wordlines(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op source wordlines [250, 282) leave the array's 256 wordlines
    pimcmd.compute add f32 dst 32 srcs [0, 250] bitlines 0:1:4 tiles 0:1:4
  }
  func.return
}

// -----

func.func @compute_no_cells(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op needs a domain or bitlines/tiles patterns
    pimcmd.compute add f32 dst 32 srcs [0, 0]
  }
  func.return
}

// -----

func.func @compute_half_patterns(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op needs both bitlines and tiles patterns
    pimcmd.compute add f32 dst 32 srcs [0, 0] bitlines 0:1:4
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

func.func @compute_syntax_missing_srcs(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected 'srcs'
    pimcmd.compute add f32 dst 32 bitlines 0:1:4 tiles 0:1:4
  }
  func.return
}

// -----

func.func @compute_syntax_pattern_count(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: {{.*}}pattern 0:1:0 has a count <= 0
    pimcmd.compute add f32 dst 32 srcs [0, 0] bitlines 0:1:0 tiles 0:1:4
  }
  func.return
}

// -----

func.func @shift_element_type(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.shift' op element type must be one of f64, i64, f32, i32, i16, i8, i1, got 'f16'
    pimcmd.shift f16 dst 64 src 0 dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 0:1:4
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
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.bcast' op element type must be one of f64, i64, f32, i32, i16, i8, i1, got 'i4'
    pimcmd.bcast i4 dst 64 src 0 dim 0 intra [0:1] inter [0:2] bitlines 0:1:2 tiles 0:1:2
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
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.readout' op element type must be one of f64, i64, f32, i32, i16, i8, i1, got 'bf16'
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
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: {{.*}}domain [0:4, 1:0] has lower bound > upper bound in dim 1
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

func.func @readout_needs_patterns(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.readout' op needs bitlines/tiles patterns once registers are allocated (only a readout of an empty box has none)
    pimcmd.readout f32 src 32 domain [0:4, 0:1] id 0
  }
  func.return
}

// -----

func.func @writein_needs_patterns(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.writein' op needs bitlines/tiles patterns once registers are allocated (only a readout of an empty box has none)
    pimcmd.writein f32 dst 32 domain [0:4, 0:1] id 0
  }
  func.return
}

// -----

func.func @writein_negative(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.writein' op destination register -32 is negative
    pimcmd.writein f32 dst -32 domain [0:4, 0:1] id 0 bitlines 0:2:2 tiles 0:2:2
  }
  func.return
}

// -----

func.func @program_results(%A: memref<4x4xf32>) -> f32 {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.program' op has 1 results but 'pimcmd.result' ops for indices [1]
  %r = pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 -> f32 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.result index 1 id 0
  }
  func.return %r : f32
}

// -----

func.func @program_allocated_domain_form(%A: memref<4x4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.program' op has wordlines allocated but still holds the domain-form 'pimcmd.mv'
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.mv f32 dst 32 src 0 dim 1 dist 1 domain [0:4, 0:3]
  }
  func.return
}

// -----

func.func @program_allocated_domain_compute(%A: memref<4x4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'pimcmd.program' op has wordlines allocated but still holds the domain-form 'pimcmd.compute'
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.compute add f32 dst 32 srcs [0, 0] domain [0:4, 0:4]
  }
  func.return
}

// -----

func.func @compute_domain_concrete(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op domain [0:N, 0:4] must be concrete
    pimcmd.compute add f32 dst 2 srcs [0, 1] domain [0:N, 0:4]
  }
  func.return
}

// -----

func.func @compute_domain_rank(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op domain [0:4] has rank 1, lattice has 2
    pimcmd.compute add f32 dst 2 srcs [0, 1] domain [0:4]
  }
  func.return
}

// -----

func.func @compute_domain_lattice(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op domain [0:5, 0:4] leaves the lattice [4, 4]
    pimcmd.compute add f32 dst 2 srcs [0, 1] domain [0:5, 0:4]
  }
  func.return
}

// -----

func.func @virtual_register_negative(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.compute' op destination register -2 is negative
    pimcmd.compute add f32 dst -2 srcs [0, 1] domain [0:4, 0:4]
  }
  func.return
}

// -----

func.func @mv_register_negative(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.mv' op source register -1 is negative
    pimcmd.mv f32 dst 1 src -1 dim 1 dist 1 domain [0:4, 0:3]
  }
  func.return
}

// -----

func.func @mv_element_type(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.mv' op element type must be one of f64, i64, f32, i32, i16, i8, i1, got 'f16'
    pimcmd.mv f16 dst 1 src 0 dim 1 dist 1 domain [0:4, 0:3]
  }
  func.return
}

// -----

func.func @mv_dim(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.mv' op dim 2 is outside the rank-2 lattice
    pimcmd.mv f32 dst 1 src 0 dim 2 dist 1 domain [0:4, 0:3]
  }
  func.return
}

// -----

func.func @mv_domain(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.mv' op domain [0:4, 0:5] leaves the lattice [4, 4]
    pimcmd.mv f32 dst 1 src 0 dim 1 dist 1 domain [0:4, 0:5]
  }
  func.return
}

// -----

func.func @mv_outside(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.mv' op moves [0:3] by 2 outside the lattice extent 4
    pimcmd.mv f32 dst 1 src 0 dim 1 dist 2 domain [0:4, 0:3]
  }
  func.return
}

// -----

func.func @bc_count(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.bc' op count must be >= 1, got 0
    pimcmd.bc f32 dst 1 src 0 dim 0 dist 1 count 0 domain [0:1, 0:4]
  }
  func.return
}

// -----

func.func @bc_outside(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.bc' op copies reach [1:5] outside the lattice extent 4
    pimcmd.bc f32 dst 1 src 0 dim 0 dist 1 count 4 domain [0:1, 0:4]
  }
  func.return
}

// -----

func.func @reduce_op(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.reduce' op op must be one of add, mul, min, max, got 'xor'
    pimcmd.reduce xor f32 dst 1 src 0 dim 1 domain [0:4, 0:4]
  }
  func.return
}

// -----

func.func @reduce_dim(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.reduce' op dim -1 is outside the rank-2 lattice
    pimcmd.reduce add f32 dst 1 src 0 dim -1 domain [0:4, 0:4]
  }
  func.return
}

// -----

func.func @writein_domain_concrete(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.writein' op domain [0:4, 0:N] must be concrete
    pimcmd.writein f32 dst 1 domain [0:4, 0:N] id 0
  }
  func.return
}

// -----

func.func @near_reduce_op(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_reduce' op op must be one of add, mul, min, max, got 'argmin'
    pimcmd.near_reduce argmin f32 in 0 dims [0] step [1, 2] out 1
  }
  func.return
}

// -----

func.func @near_reduce_type(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_reduce' op element type must be one of f64, i64, f32, i32, i16, i8, i1, got 'f16'
    pimcmd.near_reduce add f16 in 0 dims [0] step [1, 2] out 1
  }
  func.return
}

// -----

func.func @near_reduce_dims(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_reduce' op dims [0, 0] must be distinct lattice dims
    pimcmd.near_reduce add f32 in 0 dims [0, 0] step [1, 2] out 1
  }
  func.return
}

// -----

func.func @near_reduce_dims_range(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_reduce' op dims [2] must be distinct lattice dims
    pimcmd.near_reduce add f32 in 0 dims [2] step [1, 2] out 1
  }
  func.return
}

// -----

func.func @near_reduce_dims_empty(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_reduce' op dims [] must be distinct lattice dims
    pimcmd.near_reduce add f32 in 0 dims [] step [1, 2] out 1
  }
  func.return
}

// -----

func.func @near_reduce_step(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_reduce' op step [1] needs one positive entry per lattice dim
    pimcmd.near_reduce add f32 in 0 dims [0] step [1] out 1
  }
  func.return
}

// -----

func.func @near_reduce_step_positive(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_reduce' op step [1, 0] needs one positive entry per lattice dim
    pimcmd.near_reduce add f32 in 0 dims [0] step [1, 0] out 1
  }
  func.return
}

// -----

func.func @near_load_foreign_array(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    %m = memref.alloc() : memref<16xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_load' op array must be an argument of the enclosing 'pimcmd.program'
    pimcmd.near_load f32 %m map [d1] indirect [] indices [] domain [0:1, 0:4] out 2 : memref<16xf32>
  }
  func.return
}

// -----

func.func @near_load_type(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_load' op element type must be one of f64, i64, f32, i32, i16, i8, i1, got 'f16'
    pimcmd.near_load f16 %c map [d1] indirect [] indices [] domain [0:1, 0:4] out 2 : memref<16xf32>
  }
  func.return
}

// -----

func.func @near_load_map_rank(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_load' op access map [d0, d1] has 2 results for a rank-1 array
    pimcmd.near_load f32 %c map [d0, d1] indirect [] indices [] domain [0:1, 0:4] out 2 : memref<16xf32>
  }
  func.return
}

// -----

func.func @near_load_map_symbols(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_load' op map [d1 + k] must not use symbols (the program is concrete)
    pimcmd.near_load f32 %c map [d1 + k] indirect [] indices [] domain [0:1, 0:4] out 2 : memref<16xf32>
  }
  func.return
}

// -----

func.func @near_load_map_dims(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_load' op access map [d2] uses d2 outside the rank-2 lattice
    pimcmd.near_load f32 %c map [d2] indirect [] indices [] domain [0:1, 0:4] out 2 : memref<16xf32>
  }
  func.return
}

// -----

func.func @near_load_indirect(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_load' op indirect positions [0] do not match its 0 index buffers
    pimcmd.near_load f32 %c map [0] indirect [0] indices [] domain [0:1, 0:4] out 2 : memref<16xf32>
  }
  func.return
}

// -----

func.func @near_load_domain(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_load' op domain [0:1, 0:8] leaves the lattice [4, 4]
    pimcmd.near_load f32 %c map [d1] indirect [] indices [] domain [0:1, 0:8] out 2 : memref<16xf32>
  }
  func.return
}

// -----

func.func @near_load_syntax_type(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 2]]:3: error: Expected ':'
    pimcmd.near_load f32 %c map [d1] indirect [] indices [] domain [0:1, 0:4] out 2
  }
  func.return
}

// -----

func.func @near_store_kind(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_store' op kind must be one of store, add, min, max, got 'mul'
    pimcmd.near_store mul f32 in 0 -> %c map [d1] indirect [] indices [] : memref<16xf32>
  }
  func.return
}

// -----

func.func @near_store_type(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_store' op element type must be one of f64, i64, f32, i32, i16, i8, i1, got 'i4'
    pimcmd.near_store add i4 in 0 -> %c map [d1] indirect [] indices [] : memref<16xf32>
  }
  func.return
}

// -----

func.func @near_store_indirect(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_store' op indirect positions [1] do not match its 1 index buffers
    pimcmd.near_store add f32 in 0 -> %c map [0] indirect [1] indices [2] : memref<16xf32>
  }
  func.return
}

// -----

func.func @near_store_syntax_arrow(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected '->'
    pimcmd.near_store add f32 in 0 %c map [d1] indirect [] indices [] : memref<16xf32>
  }
  func.return
}

// -----

func.func @result_syntax(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  // A virtual program (registers not yet allocated).
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected 'index'
    pimcmd.result 0 id 1
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

// -----

func.func @near_store_domain_leaves_lattice(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    pimcmd.readout f32 src 0 domain [0:1, 0:4] id 0 bitlines 0:1:2 tiles 0:1:2
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_store' op domain [0:1, 2:6] leaves the lattice [4, 4]
    pimcmd.near_store store f32 in 0 -> %c map [d1] indirect [] indices [] domain [0:1, 2:6] : memref<16xf32>
  }
  func.return
}

// -----

func.func @near_store_domain_and_indirect(%A: memref<4x4xf32>, %C: memref<16xf32>) {
  pimcmd.program ins(%A, %C : memref<4x4xf32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>, %c: memref<16xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    pimcmd.readout f32 src 0 domain [0:1, 0:4] id 0 bitlines 0:1:2 tiles 0:1:2
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.near_store' op with a domain cannot be indirect (its index buffers cover the whole input)
    pimcmd.near_store store f32 in 0 -> %c map [0] indirect [0] indices [0] domain [0:1, 1:3] : memref<16xf32>
  }
  func.return
}

// -----

// A range property (written [lo:hi]) of another length in the generic form: an
// error naming it, not an internal error (found while simplifying the dialect).
func.func @shift_mask_not_a_range(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.shift' op mask must be a range [lo:hi], got [1, 2, 3]
    "pimcmd.shift"() <{type = "f32", dst = 64 : i64, src = 0 : i64, dim = 1 : i64, mask = array<i64: 1, 2, 3>, inter = 0 : i64, intra = 1 : i64, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:4>}> : () -> ()
  }
  func.return
}

// -----

func.func @bcast_inter_not_a_range(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'pimcmd.bcast' op inter must be a range [lo:hi], got [1]
    "pimcmd.bcast"() <{type = "f32", dst = 64 : i64, src = 0 : i64, dim = 0 : i64, intra = array<i64: 0, 1>, inter = array<i64: 1>, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:2>}> : () -> ()
  }
  func.return
}
