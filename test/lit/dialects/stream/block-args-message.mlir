// Regression (was a bug): the message of stream.region's block-argument rule prints the Python
// reprs of the expected types instead of their MLIR syntax: "expected 2 of
// types [MemRefType(shape=ArrayAttr(data=(IntAttr(data=-9223372036854775808),)),
// element_type=Float32Type(), ...), IndexType()]".
//
// RUN: infs-opt %s --verify-diagnostics | filecheck %s

func.func @region_block_args(%A: memref<?xf32>, %n: index) {
  // CHECK-NOT: MemRefType(
  // CHECK: block-args-message.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op block arguments must match the operands (arrays then scalars): expected 2 of types {{.*}}memref<?xf32>{{.*}}index
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: i32):
    stream.yield
  }
  func.return
}
