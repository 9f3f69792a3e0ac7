// When the live registers do not fit an SRAM array's wordlines the lowering
// stops with one line naming the pressure (spilling is not implemented):
// `fig9` arrays have 128 wordlines = four f32 registers; the two arrays and
// the two moved tensors are live when the sum needs a fifth.
//
// RUN: not infs-opt --lower-pim='config=fig9 tiles=2x2' %s 2>&1 | filecheck %s

// CHECK-NOT:   Traceback
// CHECK:       wordline pressure: at command {{[0-9]+}} the 4 live registers take 128 of 128 wordlines and a 32-bit register does not fit (spilling is not supported){{.*$}}
// CHECK-NOT:   {{.}}
func.func @pressure(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  tdfg.graph ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) rank 2 {
  ^bb0(%a: memref<4x4xf32>, %b: memref<4x4xf32>):
    %0 = tdfg.tensor %a [0:4, 0:3] : memref<4x4xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.mv %0 dim 1 dist 1 : !tdfg.tensor<f32, 2>
    %2 = tdfg.tensor %a [0:4, 1:4] : memref<4x4xf32> -> !tdfg.tensor<f32, 2>
    %3 = tdfg.mv %2 dim 1 dist -1 : !tdfg.tensor<f32, 2>
    %4 = tdfg.cmp add(%1, %3) : !tdfg.tensor<f32, 2>, !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    tdfg.store %4 -> %b : !tdfg.tensor<f32, 2> -> memref<4x4xf32>
    tdfg.yield
  }
  func.return
}
