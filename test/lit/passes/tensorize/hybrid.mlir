// tensorize: irregular streams are not unrolled but kept as embedded streams
// of the graph (hybrid in-/near-memory, §3.3): indirect loads lay data out as
// a tensor (tdfg.stream_load), indirect atomic updates stay near-memory
// (tdfg.stream_store add), strided accesses become affine stream_loads.
//
// RUN: infs-opt --tensorize %s --split-input-file | filecheck %s

// CHECK-LABEL: func.func @gather_scale
// CHECK:         %[[I:.*]] = tdfg.tensor %ix [0:1, 0:M]
// CHECK-NEXT:    %[[IB:.*]] = tdfg.bc %[[I]] dim 0 dist 0 count N
// CHECK:         %[[G:.*]] = tdfg.stream_load %x[%{{.*}}, d1] over [0:N, 0:M]
// CHECK:         tdfg.cmp mul(%[[G]],
// CHECK:         tdfg.store
func.func @gather_scale(%X: memref<?x?xf32>, %Idx: memref<?xi32>, %Y: memref<?x?xf32>, %n: index, %m: index, %s: f32) {
  stream.region ins(%X, %Idx, %Y : memref<?x?xf32>, memref<?xi32>, memref<?x?xf32>) syms(N = %n : index, M = %m : index, s = %s : f32) domain [0:N, 0:M] iterators [parallel, parallel] {
  ^bb0(%x: memref<?x?xf32>, %ix: memref<?xi32>, %y: memref<?x?xf32>, %N: index, %M: index, %sc: f32):
    %i = stream.load %ix[d1] : memref<?xi32> -> !stream.stream<i32>
    %g = stream.load %x[%i, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %r = stream.compute(%g, %sc : !stream.stream<f32>, f32) -> !stream.stream<f32> {
    ^bb1(%v: f32, %k: f32):
      %p = arith.mulf %v, %k : f32
      stream.yield %p : f32
    }
    stream.store %r -> %y[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}

// -----
// CHECK-LABEL: func.func @histogram
// CHECK:         %[[B:.*]] = tdfg.tensor %b [0:N]
// CHECK-NEXT:    %[[ONE:.*]] = tdfg.const 1 : !tdfg.tensor<i32, 1>
// CHECK-NEXT:    %[[S:.*]] = tdfg.shrink %[[ONE]] dim 0 to [0:N]
// CHECK-NEXT:    tdfg.stream_store add %[[S]] -> %h[%[[B]]]
func.func @histogram(%Bins: memref<?xi32>, %H: memref<?xi32>, %n: index) {
  stream.region ins(%Bins, %H : memref<?xi32>, memref<?xi32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%b: memref<?xi32>, %h: memref<?xi32>, %N: index):
    %i = stream.load %b[d0] : memref<?xi32> -> !stream.stream<i32>
    %one = stream.compute() -> !stream.stream<i32> {
    ^bb1():
      %c1 = arith.constant 1 : i32
      stream.yield %c1 : i32
    }
    stream.atomic add %one -> %h[%i] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}

// -----
// CHECK-LABEL: func.func @decimate
// CHECK:         %[[E:.*]] = tdfg.stream_load %a[2*d0] over [0:H]
// CHECK-NEXT:    %[[O:.*]] = tdfg.stream_load %a[2*d0 + 1] over [0:H]
// CHECK-NEXT:    %[[S:.*]] = tdfg.cmp add(%[[E]], %[[O]])
// CHECK-NEXT:    tdfg.store %[[S]] -> %o
func.func @decimate(%A: memref<?xf32>, %O: memref<?xf32>, %h: index) {
  stream.region ins(%A, %O : memref<?xf32>, memref<?xf32>) syms(H = %h : index) domain [0:H] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %o: memref<?xf32>, %H: index):
    %e = stream.load %a[2*d0] : memref<?xf32> -> !stream.stream<f32>
    %d = stream.load %a[2*d0 + 1] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%e, %d : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32, %y: f32):
      %r = arith.addf %x, %y : f32
      stream.yield %r : f32
    }
    stream.store %s -> %o[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
