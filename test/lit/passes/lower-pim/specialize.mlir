// specialize: bind a tDFG's symbols to concrete values (from `sizes=` or,
// for a symbol that is the full extent of a statically shaped array dim,
// from the memref type), making every domain, distance and count concrete;
// the bindings are recorded as `infs.sizes`.  A non-index scalar stays a
// runtime parameter unless `sizes` binds it.
//
// RUN: infs-opt --specialize='sizes=N=16' %s | filecheck %s
// RUN: infs-opt --specialize='sizes=N=16,w=0.5' %s | filecheck %s --check-prefix=BIND

// CHECK-LABEL: func.func @bound
// CHECK:         tdfg.graph {{.*}} attributes {infs.sizes = {N = 16 : i64}}
// CHECK:           tdfg.tensor %{{.*}} [0:14] :
// CHECK-NEXT:      tdfg.mv %{{.*}} dim 0 dist 2 :
// CHECK-NEXT:      tdfg.bc %{{.*}} dim 0 dist 1 count 15 :
// the weight stays a runtime scalar
// CHECK-NEXT:      tdfg.const %{{.*}} : f32 -> !tdfg.tensor<f32, 1>
// BIND-LABEL: func.func @bound
// BIND:         tdfg.graph {{.*}} attributes {infs.sizes = {N = 16 : i64, w = 5.000000e-01 : f32}}
// BIND:           tdfg.const 0.5 : !tdfg.tensor<f32, 1>
func.func @bound(%A: memref<?xf32>, %B: memref<?xf32>, %n: index, %w: f32) {
  tdfg.graph ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index, w = %w : f32) rank 1 {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index, %ww: f32):
    %0 = tdfg.tensor %a [0:N - 2] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.mv %0 dim 0 dist N - 14 : !tdfg.tensor<f32, 1>
    %2 = tdfg.bc %0 dim 0 dist 1 count N - 1 : !tdfg.tensor<f32, 1>
    %k = tdfg.const %ww : f32 -> !tdfg.tensor<f32, 1>
    %3 = tdfg.cmp mul(%1, %k) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    %4 = tdfg.cmp add(%3, %2) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.store %4 -> %b : !tdfg.tensor<f32, 1> -> memref<?xf32>
    tdfg.yield
  }
  func.return
}

// S is the full extent [0:S] of a memref<32x...>: inferred as 32; T likewise
// from dim 1 of the same array (24).
// CHECK-LABEL: func.func @static_shapes
// CHECK:         tdfg.graph {{.*}} attributes {infs.sizes = {S = 32 : i64, T = 24 : i64}}
// CHECK:           tdfg.tensor %{{.*}} [0:32, 0:24] :
// CHECK-NEXT:      tdfg.shrink %{{.*}} dim 1 to [1:23] :
// CHECK-NEXT:      tdfg.mv %{{.*}} dim 0 dist -1 :
func.func @static_shapes(%A: memref<32x24xi32>, %B: memref<32x24xi32>, %s: index, %t: index) {
  tdfg.graph ins(%A, %B : memref<32x24xi32>, memref<32x24xi32>) syms(S = %s : index, T = %t : index) rank 2 {
  ^bb0(%a: memref<32x24xi32>, %b: memref<32x24xi32>, %S: index, %T: index):
    %0 = tdfg.tensor %a [0:S, 0:T] : memref<32x24xi32> -> !tdfg.tensor<i32, 2>
    %1 = tdfg.shrink %0 dim 1 to [1:T - 1] : !tdfg.tensor<i32, 2>
    %2 = tdfg.mv %1 dim 0 dist 31 - S : !tdfg.tensor<i32, 2>
    tdfg.store %2 -> %b : !tdfg.tensor<i32, 2> -> memref<32x24xi32>
    tdfg.yield
  }
  func.return
}
