// Malformed input (helper input of the tools tests): line 4, column 23.
func.func @f() -> i32 {
  %c = arith.constant 1 : i32
  %x = arith.addi %c, : i32
  func.return %x : i32
}
