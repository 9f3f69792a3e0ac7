// lower-dram-pim's refusals: one line each, at the op, saying why.
// RUN: infs-opt %s --split-input-file --verify-diagnostics --lower-dram-pim='config=tiny-pim'
// RUN: not infs-opt %s --lower-dram-pim='config=nowhere' 2>&1 | filecheck %s --check-prefix=CONFIG
// RUN: not infs-opt %s --lower-dram-pim='config=tiny-pim' 2>&1 | filecheck %s --check-prefix=ONE
// RUN: not infs-opt %s --lower-dram-pim='dtype=f32' 2>&1 | filecheck %s --check-prefix=DTYPE
// DTYPE: infs-opt: error: pass 'lower-dram-pim' failed: lower-dram-pim: dtype 'f32' is not a type Newton computes (bf16 or fp16)
// CONFIG: infs-opt: error: pass 'lower-dram-pim' failed: lower-dram-pim: dram-pim config 'nowhere': no such built-in (known: pimflow, newton-plus, tiny-pim)
// ONE-COUNT-1: error:
// ONE-NOT: Traceback

// A layer larger than the PIM channels: 4096 x 64 weights are 128 rows per
// bank in each of tiny-pim's 4 channels, which have 8.
func.func @too_big(%x: memref<1x4096xf32>, %w: memref<4096x64xf32>, %y: memref<1x64xf32>) {
  // expected-error @+1 {{pass 'lower-dram-pim' failed: the linalg.matmul at}}
  linalg.matmul ins(%x, %w : memref<1x4096xf32>, memref<4096x64xf32>) outs(%y : memref<1x64xf32>)
  func.return
}

// -----

func.func @dilated(%x: memref<1x7x7x2xf32>, %w: memref<3x3x2x2xf32>, %y: memref<1x3x3x2xf32>) {
  // expected-error @+1 {{cannot be lowered to DRAM-PIM: it is dilated (2): Newton's strided GWRITE reads undilated windows}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x7x7x2xf32>, memref<3x3x2x2xf32>) outs(%y : memref<1x3x3x2xf32>)
  func.return
}

// -----

func.func @batch(%x: memref<2x4x4x2xf32>, %w: memref<3x3x2x2xf32>, %y: memref<2x2x2x2xf32>) {
  // expected-error @+1 {{it convolves a batch of 2 images: lower one image per op (N = 1)}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<2x4x4x2xf32>, memref<3x3x2x2xf32>) outs(%y : memref<2x2x2x2xf32>)
  func.return
}

// -----

func.func @dynamic(%x: memref<?x20xf32>, %w: memref<20x5xf32>, %y: memref<?x5xf32>) {
  // expected-error @+1 {{its operand 0 memref<?x20xf32> has a dynamic size (a layer's shape must be static)}}
  linalg.matmul ins(%x, %w : memref<?x20xf32>, memref<20x5xf32>) outs(%y : memref<?x5xf32>)
  func.return
}

// -----

func.func @f64(%x: memref<2x3xf64>, %w: memref<3x4xf64>, %y: memref<2x4xf64>) {
  // expected-error @+1 {{its operand 0 holds f64: Newton's MACs take 16-bit floats (the memrefs must be f32, f16 or bf16)}}
  linalg.matmul ins(%x, %w : memref<2x3xf64>, memref<3x4xf64>) outs(%y : memref<2x4xf64>)
  func.return
}

// -----

// The input read transposed (x[k, m]): not a vector per row.
func.func @transposed(%x: memref<20x3xf32>, %w: memref<20x5xf32>, %y: memref<3x5xf32>) {
  // expected-error @+1 {{its input is not read as x[m, k] for output y[m, n] (a transposed or offset read)}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<20x3xf32>, memref<20x5xf32>) outs(%y : memref<3x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  }
  func.return
}

// -----

// Windows from the second row and column (the importer's asymmetric pad).
func.func @offset(%x: memref<6x6x1xf32>, %w: memref<9x1xf32>, %y: memref<3x3x1xf32>) {
  %k = memref.alloc() : memref<3x3xf32>
  // expected-error @+1 {{its windows start at 1 along index 0, inside the buffer (an asymmetric pad)}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0 + d3 + 1, d1 + d4 + 1, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 * 3 + d4 + d5, d2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w, %k : memref<6x6x1xf32>, memref<9x1xf32>, memref<3x3xf32>) outs(%y : memref<3x3x1xf32>) {
  ^bb0(%a: f32, %b: f32, %u: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %o, %m : f32
    linalg.yield %r : f32
  }
  func.return
}
