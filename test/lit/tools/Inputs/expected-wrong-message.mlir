// Used by ../verify-diagnostics-expected.mlir (a wrong message).
func.func @duplicate_names(%n: index, %m: index) {
  // expected-error @below {{no such words}}
  stream.region syms(N = %n : index, N = %m : index) domain [0:N] iterators [parallel] {
  ^bb0(%N: index, %M: index):
    stream.yield
  }
  func.return
}
