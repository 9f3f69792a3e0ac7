// Negative tests: one chunk per verifier rule of the `dram_pim` dialect
// (infs/dialects/dram_pim.py). The machine is tiny-pim (4 PIM channels of 4
// banks in 2 bank groups, 8 rows of 8 column I/Os = 128 elements per bank,
// 4 global buffers); unless a chunk says otherwise the layer is an FC layer
// of 5 vectors, 20 reduction elements and 5 outputs.
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @outside_layer() {
  // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:3: error: 'dram_pim.g_act' op expects parent op 'dram_pim.layer'
  dram_pim.g_act ch 0 group 0 row 0
  func.return
}

// -----

func.func @channel(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.g_act' op channel 4 is not one of the 4 PIM channels of 'tiny-pim'
    dram_pim.g_act ch 4 group 0 row 0
  }
  func.return
}

// -----

func.func @gact_group(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.g_act' op group 2 is outside 0..1 ('tiny-pim' has 2 bank groups)
    dram_pim.g_act ch 0 group 2 row 0
  }
  func.return
}

// -----

func.func @gact_row(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.g_act' op row 8 is outside 0..7 ('tiny-pim' has 8 rows per bank)
    dram_pim.g_act ch 0 group 0 row 8
  }
  func.return
}

// -----

func.func @place_row(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.place' op row 9 is outside 0..7 ('tiny-pim' has 8 rows per bank)
    dram_pim.place ch 0 row 9 outputs 0 banks 4 k 0 used 20
  }
  func.return
}

// -----

func.func @place_banks(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.place' op banks 5 is outside 1..4 (the banks of a channel)
    dram_pim.place ch 0 row 0 outputs 0 banks 5 k 0 used 20
  }
  func.return
}

// -----

func.func @place_outputs(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.place' op outputs 4..5 are not outputs of the layer (it has 5)
    dram_pim.place ch 0 row 0 outputs 4 banks 2 k 0 used 20
  }
  func.return
}

// -----

func.func @place_k(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.place' op k 10..29 is outside the layer's reduction of 20
    dram_pim.place ch 0 row 0 outputs 0 banks 4 k 10 used 20
  }
  func.return
}

// -----

func.func @place_used(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.place' op used 129 is outside 1..128 (the elements of a row)
    dram_pim.place ch 0 row 0 outputs 0 banks 4 k 0 used 129
  }
  func.return
}

// -----

func.func @gwrite_count(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.gwrite_2' op writes 2 global buffers but names 3 sources
    dram_pim.gwrite_2 ch 0 buffer 0 from [0, 20, 40] length 20
  }
  func.return
}

// -----

func.func @gwrite4_count(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.gwrite_4' op writes 4 global buffers but names 2 sources (3 or 4: a fourth buffer may stay empty)
    dram_pim.gwrite_4 ch 0 buffer 0 from [0, 20] length 20
  }
  func.return
}

// -----

func.func @gwrite_buffers(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.gwrite_2' op buffers 3..4 are not among the 4 global buffers of 'tiny-pim'
    dram_pim.gwrite_2 ch 0 buffer 3 from [0, 20] length 20
  }
  func.return
}

// -----

func.func @gwrite_half_strided(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.gwrite' op strided form needs both runs and stride
    dram_pim.gwrite ch 0 buffer 0 from [0] length 4 runs 2
  }
  func.return
}

// -----

func.func @gwrite_overlap(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.gwrite' op gather of 2 runs of 4 elements 3 apart: runs and length must be positive and runs must not overlap
    dram_pim.gwrite ch 0 buffer 0 from [0] length 4 runs 2 stride 3
  }
  func.return
}

// -----

func.func @gwrite_big(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.gwrite' op gathers 140 elements, a global buffer holds 128
    dram_pim.gwrite ch 0 buffer 0 from [0] length 20 runs 7 stride 20
  }
  func.return
}

// -----

func.func @gwrite_source(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.gwrite' op source 90..109 is outside the input's 100 elements
    dram_pim.gwrite ch 0 buffer 0 from [90] length 20
  }
  func.return
}

// -----

func.func @comp_buffer(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.comp' op buffer 4 is outside 0..3 ('tiny-pim' has 4 global buffers)
    dram_pim.comp ch 0 buffer 4 columns [0:1]
  }
  func.return
}

// -----

func.func @comp_columns(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.comp' op columns [6, 9] must be a non-empty range [lo:hi] within the 8 column I/Os of a row
    dram_pim.comp ch 0 buffer 0 columns [6:9]
  }
  func.return
}

// -----

func.func @comp_empty(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.comp' op columns [2, 2] must be a non-empty range [lo:hi] within the 8 column I/Os of a row
    dram_pim.comp ch 0 buffer 0 columns [2:2]
  }
  func.return
}

// -----

func.func @readres_vector(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.readres' op vector 5 is outside 0..4 (the layer has 5 vectors)
    dram_pim.readres ch 0 vector 5 outputs 0 banks 4
  }
  func.return
}

// -----

func.func @readres_outputs(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:5: error: 'dram_pim.readres' op outputs 2..5 are not outputs of the layer (it has 5)
    dram_pim.readres ch 0 vector 0 outputs 2 banks 4
  }
  func.return
}

// -----

func.func @layer_config(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:3: error: 'dram_pim.layer' op config: dram-pim config 'huge': no such built-in (known: pimflow, newton-plus, tiny-pim)
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "huge" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
  }
  func.return
}

// -----

func.func @layer_dtype(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:3: error: 'dram_pim.layer' op element type 'f32' is not one of bf16, fp16
  dram_pim.layer fc1 fc [5, 20, 5, 0] f32 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
  }
  func.return
}

// -----

func.func @layer_granularity(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:3: error: 'dram_pim.layer' op granularity 'bank' is not one of g_act, readres, comp
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity bank weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
  }
  func.return
}

// -----

func.func @layer_dims(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:3: error: 'dram_pim.layer' op a fc layer has 4 dims, got 3
  dram_pim.layer fc1 fc [5, 20, 5] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
  }
  func.return
}

// -----

func.func @layer_kind(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:3: error: 'dram_pim.layer' op unknown layer kind 'pool' (expected fc or conv)
  dram_pim.layer fc1 pool [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
  }
  func.return
}

// -----

func.func @layer_input(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:3: error: 'dram_pim.layer' op input [5, 20] has 100 elements, the fc layer reads 80
  dram_pim.layer fc1 fc [4, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
  }
  func.return
}

// -----

func.func @layer_weights(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:3: error: 'dram_pim.layer' op weights [20, 5] do not fit the 'nk' form of the layer (expected no shape (a fc layer has no 'nk' weights))
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights nk ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
  }
  func.return
}

// -----

func.func @layer_conv_weights(%x: memref<6x6x4xf32>, %w: memref<3x3x4x2xf32>, %y: memref<4x4x3xf32>) {
  // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:3: error: 'dram_pim.layer' op weights [3, 3, 4, 2] do not fit the 'hwcf' form of the layer (expected [3, 3, 4, 3] or [36, 3])
  dram_pim.layer c conv [6, 6, 4, 3, 3, 3, 1, 1, 0, 0] bf16 config "tiny-pim" granularity g_act weights hwcf ins(%x, %w : memref<6x6x4xf32>, memref<3x3x4x2xf32>) outs(%y : memref<4x4x3xf32>) {
  }
  func.return
}

// -----

func.func @layer_output(%x: memref<6x6x4xf32>, %w: memref<36x3xf32>, %y: memref<4x4x2xf32>) {
  // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:3: error: 'dram_pim.layer' op output [4, 4, 2] has 32 elements, the layer writes 16 x 3 = 48
  dram_pim.layer c conv [6, 6, 4, 3, 3, 3, 1, 1, 0, 0] bf16 config "tiny-pim" granularity g_act weights hwcf ins(%x, %w : memref<6x6x4xf32>, memref<36x3xf32>) outs(%y : memref<4x4x2xf32>) {
  }
  func.return
}

// -----

func.func @layer_groups(%x: memref<6x6x4xf32>, %w: memref<3x12x1xf32>, %y: memref<4x4x3xf32>) {
  // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:3: error: 'dram_pim.layer' op weights [3, 12, 1] do not fit the 'ghwcf' form of the layer (expected [G, KH*KW*C/G, F/G] with G dividing C and F)
  dram_pim.layer c conv [6, 6, 4, 3, 3, 3, 1, 1, 0, 0] bf16 config "tiny-pim" granularity g_act weights ghwcf ins(%x, %w : memref<6x6x4xf32>, memref<3x12x1xf32>) outs(%y : memref<4x4x3xf32>) {
  }
  func.return
}

// -----

func.func @layer_block_args(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  // CHECK: dram_pim-invalid.mlir:[[# @LINE + 1]]:3: error: 'dram_pim.layer' op body takes no block arguments (its commands name no values)
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
  ^bb0(%a: index):
    dram_pim.g_act ch 0 group 0 row 0
  }
  func.return
}
