// A two-layer perceptron for the GPU + DRAM-PIM machines (docs/dram-pim.md):
// 512 -> 256 (ReLU) -> 1000, one input row. `infs-run --config gpu-dram-pim`
// places each FC layer where PIMFlow's models say (the GPU's roofline time
// against the DRAM-PIM machine's) and runs it there.
#id = affine_map<(i, j) -> (i, j)>
func.func @mlp(%x: memref<1x512xf32>, %w1: memref<512x256xf32>, %w2: memref<256x1000xf32>, %y: memref<1x1000xf32>) {
  %h = memref.alloc() : memref<1x256xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%h : memref<1x256xf32>)
  linalg.matmul ins(%x, %w1 : memref<1x512xf32>, memref<512x256xf32>) outs(%h : memref<1x256xf32>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%h : memref<1x256xf32>) {
  ^bb0(%v: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  }
  linalg.fill ins(%zero : f32) outs(%y : memref<1x1000xf32>)
  linalg.matmul ins(%h, %w2 : memref<1x256xf32>, memref<256x1000xf32>) outs(%y : memref<1x1000xf32>)
  func.return
}
