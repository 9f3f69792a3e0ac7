// not UTF-8: ÿþý
func.func @f() {
  func.return
}
