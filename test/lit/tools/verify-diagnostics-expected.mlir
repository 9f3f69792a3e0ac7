// --verify-diagnostics with mlir-opt's expected-* annotations: each error
// must be announced on its line (@+N, @-N, @above, @below or the same line)
// with a part of its message; this file is such a negative test, written
// the MLIR way, and passes (exit 0).  The Inputs/ copies break it in the
// three ways a test can be wrong: a wrong message, a wrong line, an error
// that is never produced; each fails with a non-zero exit naming it.
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics
// RUN: not infs-opt %S/Inputs/expected-wrong-message.mlir --split-input-file --verify-diagnostics 2>&1 | filecheck %s --check-prefix=WRONG
// RUN: not infs-opt %S/Inputs/expected-wrong-line.mlir --verify-diagnostics 2>&1 | filecheck %s --check-prefix=LINE
// RUN: not infs-opt %S/Inputs/expected-missing.mlir --verify-diagnostics 2>&1 | filecheck %s --check-prefix=MISSING

func.func @names_vs_scalars(%n: index) {
  // expected-error @+1 {{'stream.region' op has 1 scalars but 0 names}}
  "stream.region"(%n) <{sym_names = [], domain = #lattice.domain<[0:4]>, iterators = ["parallel"], operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%N: index):
    "stream.yield"() : () -> ()
  }) : (index) -> ()
  func.return
}

// -----

func.func @duplicate_names(%n: index, %m: index) {
  // expected-error @below {{duplicate symbol names}}
  stream.region syms(N = %n : index, N = %m : index) domain [0:N] iterators [parallel] {
  ^bb0(%N: index, %M: index):
    stream.yield
  }
  func.return
}

// -----

func.func @duplicate_names_above(%n: index, %m: index) {
  stream.region syms(N = %n : index, N = %m : index) domain [0:N] iterators [parallel] {
  // expected-error-re @above {{duplicate {{[a-z]+}} names ['{{[A-Z]}}', 'N']}}
  ^bb0(%N: index, %M: index):
    stream.yield
  }
  func.return
}

// -----

// A chunk without an error, and a parse error announced on its own line.
func.func @fine() {
  func.return
}

// -----

func.func @parse_error() {
  %x = arith.constant 1 : i32
  %y = arith.addi %x, %x : i64 // expected-error {{}}
  func.return
}

// WRONG: expected-wrong-message.mlir:4:3: error: unexpected error: 'stream.region' op has duplicate symbol names ['N', 'N']
// WRONG-NEXT: expected-wrong-message.mlir:3:6: error: expected error "no such words" was not produced
// LINE: expected-wrong-line.mlir:4:3: error: unexpected error: 'stream.region' op has duplicate symbol names ['N', 'N']
// LINE-NEXT: expected-wrong-line.mlir:2:6: error: expected error "duplicate symbol names" was not produced
// MISSING: expected-missing.mlir:2:22: error: expected error "never produced" was not produced
