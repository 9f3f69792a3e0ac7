// A random tdfg graph (test_optimize_tdfg's generator) with a compute over an empty
// intersection of domains: rows [3:4) and [0:2) (test_disjoint_shrinks_...).
func.func @g(%A0: memref<?x?x?xf32>, %n: index, %w: f32) {
  tdfg.graph ins(%A0 : memref<?x?x?xf32>) syms(N = %n : index, w = %w : f32) rank 3 {
  ^bb0(%a0: memref<?x?x?xf32>, %N: index, %W: f32):
    %v0 = tdfg.tensor %a0 [0:2, 0:2, 0:1] : memref<?x?x?xf32> -> !tdfg.tensor<f32, 3>
    %v1 = tdfg.tensor %a0 [3:4, 0:2, 0:1] : memref<?x?x?xf32> -> !tdfg.tensor<f32, 3>
    %v2 = tdfg.const 2.0 : !tdfg.tensor<f32, 3>
    %v3 = tdfg.shrink %v0 dim 0 to [1:2] : !tdfg.tensor<f32, 3>
    %v4 = tdfg.bc %v3 dim 0 dist 1 count 1 : !tdfg.tensor<f32, 3>
    %v5 = tdfg.cmp fma(%v0, %v0, %v0) : !tdfg.tensor<f32, 3>, !tdfg.tensor<f32, 3>, !tdfg.tensor<f32, 3> -> !tdfg.tensor<f32, 3>
    %v6 = tdfg.tensor %a0 [2:3, 0:2, 0:N] : memref<?x?x?xf32> -> !tdfg.tensor<f32, 3>
    %v7 = tdfg.cmp fma(%v0, %v0, %v0) : !tdfg.tensor<f32, 3>, !tdfg.tensor<f32, 3>, !tdfg.tensor<f32, 3> -> !tdfg.tensor<f32, 3>
    %v8 = tdfg.cmp fma(%v0, %v0, %v0) : !tdfg.tensor<f32, 3>, !tdfg.tensor<f32, 3>, !tdfg.tensor<f32, 3> -> !tdfg.tensor<f32, 3>
    %v9 = tdfg.cmp fma(%v1, %v1, %v0) : !tdfg.tensor<f32, 3>, !tdfg.tensor<f32, 3>, !tdfg.tensor<f32, 3> -> !tdfg.tensor<f32, 3>
    %v10 = tdfg.tensor %a0 [0:2, 0:2, 0:N] : memref<?x?x?xf32> -> !tdfg.tensor<f32, 3>
    %v11 = tdfg.cmp fma(%v0, %v0, %v0) : !tdfg.tensor<f32, 3>, !tdfg.tensor<f32, 3>, !tdfg.tensor<f32, 3> -> !tdfg.tensor<f32, 3>
    tdfg.store %v9 -> %a0 : !tdfg.tensor<f32, 3> -> memref<?x?x?xf32>
    tdfg.yield
  }
  func.return
}
