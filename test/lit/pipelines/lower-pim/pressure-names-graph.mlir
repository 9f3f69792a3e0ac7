// Regression (was a bug): when registers run out the error must name the graph and the
// pressure; the wordline-pressure message names the command
// index and the pressure but not the graph (neither the enclosing function
// nor the tdfg.graph's location), so with several graphs in a module the
// user cannot tell which one failed.
//
// RUN: not infs-opt --lower-pim='config=fig9 tiles=2x2' %s 2>&1 | filecheck %s

// CHECK: {{(.*(@second_graph|pressure-names-graph.mlir:[0-9]+).*wordline pressure.*)|(.*wordline pressure.*(@second_graph|pressure-names-graph.mlir:[0-9]+).*)}}
func.func @first_graph(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  tdfg.graph ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) rank 2 {
  ^bb0(%a: memref<4x4xf32>, %b: memref<4x4xf32>):
    %0 = tdfg.tensor %a [0:4, 0:3] : memref<4x4xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.mv %0 dim 1 dist 1 : !tdfg.tensor<f32, 2>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 2> -> memref<4x4xf32>
    tdfg.yield
  }
  func.return
}
func.func @second_graph(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
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
