// Used by ../verify-diagnostics-pass-errors.mlir: an error about no op (a bad option) is @unknown.
// expected-error @unknown {{option node-limit must be >= 0, got -1}}
func.func @f() {
  func.return
}
