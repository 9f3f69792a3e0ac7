// lower-dram-pim: each multiply-accumulate linalg op on memrefs becomes its
// dram_pim.layer (weights placed in the banks, Newton's commands per PIM
// channel); the ops around it stay. The machine is tiny-pim (4 PIM channels of
// 4 banks, 128-element rows) unless a RUN line names another.
// RUN: infs-opt %s --split-input-file --lower-dram-pim='config=tiny-pim' | filecheck %s
// RUN: infs-opt %s --split-input-file -p 'lower-dram-pim{config=newton-plus dtype=fp16}' | filecheck %s --check-prefix=NEWTON

// An FC layer of 3 vectors: the three share one GWRITE_4 (a fourth buffer
// empty) and every G_ACT; 5 outputs on 4 banks are two weight rows, fewer
// than the channels, so the columns are split too (COMP granularity).
// CHECK-LABEL: func.func @fc
// CHECK:         linalg.fill
// CHECK-NEXT:    dram_pim.layer layer0 fc [3, 20, 5, 0] bf16 config "tiny-pim" granularity comp weights kn ins(%x, %w : memref<3x20xf32>, memref<20x5xf32>) outs(%y : memref<3x5xf32>) {
// CHECK-NEXT:      dram_pim.place ch 0 row 0 outputs 0 banks 4 k 0 used 20
// CHECK:           dram_pim.gwrite_4 ch 0 buffer 0 from [0, 20, 40] length 20
// CHECK-NEXT:      dram_pim.g_act ch 0 group 0 row 0
// CHECK-NEXT:      dram_pim.g_act ch 0 group 1 row 0
// CHECK-NEXT:      dram_pim.comp ch 0 buffer 0 columns [0:1]
// CHECK-NEXT:      dram_pim.readres ch 0 vector 0 outputs 0 banks 4
// CHECK-NOT:     linalg.matmul
// NEWTON-LABEL: func.func @fc
// NEWTON:         dram_pim.layer layer0 fc [3, 20, 5, 0] fp16 config "newton-plus" granularity comp weights kn
// NEWTON:           dram_pim.gwrite ch 0 buffer 0 from [0] length 20
func.func @fc(%x: memref<3x20xf32>, %w: memref<20x5xf32>, %y: memref<3x5xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%y : memref<3x5xf32>)
  linalg.matmul ins(%x, %w : memref<3x20xf32>, memref<20x5xf32>) outs(%y : memref<3x5xf32>)
  func.return
}

// -----

// A 3x3 convolution as infs-import-onnx writes it (conv_2d_nhwc_hwcf's maps
// without n, the filter [KH*KW*C, F], a shape-only window operand), on the
// pre-padded 6x6x4 image: each window is one strided GWRITE, three runs of
// 12 elements a padded row (24) apart.
// CHECK-LABEL: func.func @conv
// CHECK:         dram_pim.layer layer0 conv [6, 6, 4, 3, 3, 3, 1, 1, 0, 0] bf16 config "tiny-pim" granularity readres weights hwcf ins(%x, %w : memref<6x6x4xf32>, memref<36x3xf32>) outs(%y : memref<4x4x3xf32>) {
// CHECK:           dram_pim.gwrite_4 ch 0 buffer 0 from [0, 4, 8, 12] length 12 runs 3 stride 24
// CHECK-NOT:     linalg.generic
func.func @conv(%x: memref<6x6x4xf32>, %w: memref<36x3xf32>, %y: memref<4x4x3xf32>) {
  %k = memref.alloc() : memref<3x3xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0 + d3, d1 + d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 * 12 + d4 * 4 + d5, d2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w, %k : memref<6x6x4xf32>, memref<36x3xf32>, memref<3x3xf32>) outs(%y : memref<4x4x3xf32>) {
  ^bb0(%a: f32, %b: f32, %u: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  }
  func.return
}

// -----

// A depthwise 3x3 convolution at stride 2 (the importer's generic, filter
// [KH, KW, C]): a block-diagonal dense filter, 'weights hwc'.
// CHECK-LABEL: func.func @depthwise
// CHECK:         dram_pim.layer layer0 conv [7, 7, 4, 4, 3, 3, 2, 2, 0, 0] bf16 config "tiny-pim" granularity {{.*}} weights hwc ins(%x, %w : memref<7x7x4xf32>, memref<3x3x4xf32>) outs(%y : memref<3x3x4xf32>) {
func.func @depthwise(%x: memref<7x7x4xf32>, %w: memref<3x3x4xf32>, %y: memref<3x3x4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0 * 2 + d3, d1 * 2 + d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d3, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : memref<7x7x4xf32>, memref<3x3x4xf32>) outs(%y : memref<3x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  }
  func.return
}

// -----

// What is not a layer stays: a max-pool-like reduction, an element-wise add.
// CHECK-LABEL: func.func @not_layers
// CHECK-NOT:     dram_pim
// CHECK:         linalg.generic
// CHECK:         arith.maximumf
func.func @not_layers(%x: memref<4x4xf32>, %y: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x4xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  }
  func.return
}
