// specialize errors: one line, naming the symbol and the op that uses it; a
// non-zero exit and no traceback.  With --verify-diagnostics every chunk's
// error is printed (xDSL convention: exit 0).
//
// RUN: not infs-opt --split-input-file --specialize %s 2>&1 | filecheck %s --check-prefix=EXIT
// RUN: infs-opt --verify-diagnostics --split-input-file --specialize='sizes=N=16' %s | filecheck %s

// EXIT-NOT:  Traceback
// EXIT:      infs-opt: error: pass 'specialize' failed: 'tdfg.tensor' domain uses symbol 'N' that was never bound (give it in sizes=...)
// EXIT-NOT:  {{.}}

// CHECK-NOT: Traceback
// CHECK:     error: pass 'specialize' failed: 'tdfg.tensor' domain uses symbol 'M' that was never bound (give it in sizes=...)
func.func @unbound_domain(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %m: index, %n: index) {
  tdfg.graph ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) syms(N = %n : index, M = %m : index) rank 2 {
  ^bb0(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %N: index, %M: index):
    %0 = tdfg.tensor %a [0:N, 0:M] : memref<?x?xf32> -> !tdfg.tensor<f32, 2>
    tdfg.store %0 -> %b : !tdfg.tensor<f32, 2> -> memref<?x?xf32>
    tdfg.yield
  }
  func.return
}

// -----
// CHECK:      error: pass 'specialize' failed: 'tdfg.mv' dist uses symbol 'K' that was never bound (give it in sizes=...)
func.func @unbound_distance(%A: memref<?xf32>, %B: memref<?xf32>, %n: index, %k: index) {
  tdfg.graph ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index, K = %k : index) rank 1 {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index, %K: index):
    %0 = tdfg.tensor %a [0:N] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.mv %0 dim 0 dist K : !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<?xf32>
    tdfg.yield
  }
  func.return
}

// -----
// CHECK:      error: pass 'specialize' failed: 'tdfg.bc' count uses symbol 'K' that was never bound (give it in sizes=...)
func.func @unbound_count(%A: memref<?xf32>, %B: memref<?xf32>, %n: index, %k: index) {
  tdfg.graph ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index, K = %k : index) rank 1 {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index, %K: index):
    %0 = tdfg.tensor %a [0:1] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.bc %0 dim 0 dist 1 count K - 1 : !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<?xf32>
    tdfg.yield
  }
  func.return
}

// -----
// sizes=N=16 is a binding (it wins over a static shape), but [0:16] then
// exceeds the static array of 8 elements: the verifier after the pass says so.
// CHECK:      error: 'tdfg.tensor' op domain [0:16] exceeds the array extent 8 in dim 0
func.func @static_conflict(%A: memref<8xf32>, %B: memref<8xf32>, %n: index) {
  tdfg.graph ins(%A, %B : memref<8xf32>, memref<8xf32>) syms(N = %n : index) rank 1 {
  ^bb0(%a: memref<8xf32>, %b: memref<8xf32>, %N: index):
    %0 = tdfg.tensor %a [0:N] : memref<8xf32> -> !tdfg.tensor<f32, 1>
    tdfg.store %0 -> %b : !tdfg.tensor<f32, 1> -> memref<8xf32>
    tdfg.yield
  }
  func.return
}

// -----
// CHECK:      error: pass 'specialize' failed: sizes binds 'N', which no tdfg.graph has as a symbol (have: M)
// CHECK-NOT: Traceback
func.func @unknown_binding(%A: memref<?xf32>, %B: memref<?xf32>, %m: index) {
  tdfg.graph ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(M = %m : index) rank 1 {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %M: index):
    %0 = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    tdfg.store %0 -> %b : !tdfg.tensor<f32, 1> -> memref<?xf32>
    tdfg.yield
  }
  func.return
}
