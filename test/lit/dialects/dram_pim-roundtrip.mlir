// Round trip of every `dram_pim` op in its custom form: an FC layer (the
// matmul form of its weights, kn) and a convolution (hwcf) on the tiny-pim
// machine; place; gwrite, gwrite_2 and gwrite_4 (three and four vectors), each
// plain and strided; g_act; comp; readres; discardable attributes.
// Custom -> custom; custom -> generic (GENERIC prefix); generic -> custom.
// RUN: infs-opt %s --split-input-file | filecheck %s
// RUN: infs-opt %s --split-input-file --print-op-generic > %t.generic.mlir
// RUN: filecheck %s --check-prefix=GENERIC < %t.generic.mlir
// RUN: infs-opt %t.generic.mlir --split-input-file | filecheck %s

// CHECK-LABEL: func.func @fc
// CHECK:       dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
// CHECK-NEXT:    dram_pim.place ch 0 row 0 outputs 0 banks 4 k 0 used 20
// CHECK-NEXT:    dram_pim.place ch 1 row 0 outputs 4 banks 1 k 0 used 20 attributes {note = "kept"}
// CHECK-NEXT:    dram_pim.gwrite_4 ch 0 buffer 0 from [0, 20, 40, 60] length 20
// CHECK-NEXT:    dram_pim.gwrite ch 0 buffer 0 from [80] length 20
// CHECK-NEXT:    dram_pim.gwrite_2 ch 1 buffer 2 from [0, 20] length 20
// CHECK-NEXT:    dram_pim.gwrite_4 ch 1 buffer 0 from [0, 20, 40] length 20
// CHECK-NEXT:    dram_pim.g_act ch 0 group 1 row 0
// CHECK-NEXT:    dram_pim.comp ch 0 buffer 3 columns [0:2]
// CHECK-NEXT:    dram_pim.readres ch 0 vector 4 outputs 0 banks 4
// CHECK-NEXT:  }
// GENERIC:     "dram_pim.layer"(%x, %w, %y) <{layer_name = "fc1", kind = "fc", dims = array<i64: 5, 20, 5, 0>, dtype = "bf16", config = "tiny-pim", granularity = "comp", weight_form = "kn"}> ({
// GENERIC:       "dram_pim.gwrite_4"() <{ch = 0 : i64, buffer = 0 : i64, sources = array<i64: 0, 20, 40, 60>, length = 20 : i64}> : () -> ()
func.func @fc(%x: memref<5x20xf32>, %w: memref<20x5xf32>, %y: memref<5x5xf32>) {
  dram_pim.layer fc1 fc [5, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<5x20xf32>, memref<20x5xf32>) outs(%y : memref<5x5xf32>) {
    dram_pim.place ch 0 row 0 outputs 0 banks 4 k 0 used 20
    dram_pim.place ch 1 row 0 outputs 4 banks 1 k 0 used 20 attributes {note = "kept"}
    dram_pim.gwrite_4 ch 0 buffer 0 from [0, 20, 40, 60] length 20
    dram_pim.gwrite ch 0 buffer 0 from [80] length 20
    dram_pim.gwrite_2 ch 1 buffer 2 from [0, 20] length 20
    dram_pim.gwrite_4 ch 1 buffer 0 from [0, 20, 40] length 20
    dram_pim.g_act ch 0 group 1 row 0
    dram_pim.comp ch 0 buffer 3 columns [0:2]
    dram_pim.readres ch 0 vector 4 outputs 0 banks 4
  }
  func.return
}

// -----

// A 3x3 convolution on a pre-padded 6x6x4 image (4x4 outputs): each vector's
// window is three runs of 12 elements a padded row (24) apart.
// CHECK-LABEL: func.func @conv
// CHECK:       dram_pim.layer "conv 0" conv [6, 6, 4, 3, 3, 3, 1, 1, 0, 0] fp16 config "tiny-pim" granularity g_act weights hwcf
// CHECK-NEXT:    dram_pim.place ch 3 row 7 outputs 0 banks 3 k 0 used 36
// CHECK-NEXT:    dram_pim.gwrite_2 ch 3 buffer 2 from [0, 4] length 12 runs 3 stride 24
// CHECK-NEXT:    dram_pim.gwrite ch 2 buffer 3 from [40] length 12 runs 3 stride 24
// CHECK-NEXT:    dram_pim.g_act ch 3 group 0 row 7
// CHECK-NEXT:    dram_pim.comp ch 3 buffer 2 columns [0:3]
// CHECK-NEXT:    dram_pim.readres ch 3 vector 15 outputs 0 banks 3
// GENERIC:     "dram_pim.gwrite_2"() <{ch = 3 : i64, buffer = 2 : i64, sources = array<i64: 0, 4>, length = 12 : i64, runs = 3 : i64, stride = 24 : i64}> : () -> ()
func.func @conv(%x: memref<6x6x4xf32>, %w: memref<3x3x4x3xf32>, %y: memref<4x4x3xf32>) {
  dram_pim.layer "conv 0" conv [6, 6, 4, 3, 3, 3, 1, 1, 0, 0] fp16 config "tiny-pim" granularity g_act weights hwcf ins(%x, %w : memref<6x6x4xf32>, memref<3x3x4x3xf32>) outs(%y : memref<4x4x3xf32>) {
    dram_pim.place ch 3 row 7 outputs 0 banks 3 k 0 used 36
    dram_pim.gwrite_2 ch 3 buffer 2 from [0, 4] length 12 runs 3 stride 24
    dram_pim.gwrite ch 2 buffer 3 from [40] length 12 runs 3 stride 24
    dram_pim.g_act ch 3 group 0 row 7
    dram_pim.comp ch 3 buffer 2 columns [0:3]
    dram_pim.readres ch 3 vector 15 outputs 0 banks 3
  }
  func.return
}
