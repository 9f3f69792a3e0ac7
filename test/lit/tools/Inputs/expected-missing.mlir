// Used by ../verify-diagnostics-expected.mlir (an error never produced).
func.func @ok() { // expected-error {{never produced}}
  func.return
}
