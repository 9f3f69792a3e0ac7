// Used by ../verify-diagnostics-expected.mlir (a wrong line).
  // expected-error @+1 {{duplicate symbol names}}
func.func @duplicate_names(%n: index, %m: index) {
  stream.region syms(N = %n : index, N = %m : index) domain [0:N] iterators [parallel] {
  ^bb0(%N: index, %M: index):
    stream.yield
  }
  func.return
}
