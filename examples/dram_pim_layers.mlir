// Two layers for the DRAM-PIM target (docs/dram-pim.md): an FC layer
// (linalg.matmul, 2 vectors of 40 inputs, 6 outputs) and a 3x3 convolution
// of a pre-padded 6x6 image of 4 channels into 3 (conv_2d_nhwc_hwcf, one
// image). `infs-opt --lower-dram-pim='config=tiny-pim'` lowers both.
func.func @fc(%x: memref<2x40xf32>, %w: memref<40x6xf32>, %y: memref<2x6xf32>) {
  linalg.matmul ins(%x, %w : memref<2x40xf32>, memref<40x6xf32>) outs(%y : memref<2x6xf32>)
  func.return
}

func.func @conv(%x: memref<1x6x6x4xf32>, %w: memref<3x3x4x3xf32>, %y: memref<1x4x4x3xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x6x6x4xf32>, memref<3x3x4x3xf32>) outs(%y : memref<1x4x4x3xf32>)
  func.return
}
