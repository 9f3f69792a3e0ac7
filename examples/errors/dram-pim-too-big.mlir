// An FC layer of 4096 x 64 weights: 512 DRAM rows, more than tiny-pim's four
// PIM channels hold (docs/dram-pim.md): lower-dram-pim refuses it in one line.
func.func @big(%x: memref<1x4096xf32>, %w: memref<4096x64xf32>, %y: memref<1x64xf32>) {
  linalg.matmul ins(%x, %w : memref<1x4096xf32>, memref<4096x64xf32>) outs(%y : memref<1x64xf32>)
  func.return
}
