// --mlir-print-ir-after=PASS and --mlir-print-ir-before=PASS (mlir-opt's):
// the IR on stderr around each run of the named passes only; under a
// func.func(...) pipeline, once per function with mlir-opt's scope note.
//
// RUN: infs-opt -p canonicalize,cse --mlir-print-ir-after=cse %s 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: infs-opt -p canonicalize,cse --mlir-print-ir-before=canonicalize %s 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: infs-opt --pass-pipeline='builtin.module(func.func(cse))' --mlir-print-ir-after=cse,canonicalize %s 2>&1 >/dev/null | filecheck %s --check-prefix=NESTED
// RUN: not infs-opt -p cse --mlir-print-ir-after=nosuchpass %s 2>&1 | filecheck %s --check-prefix=UNKNOWN

func.func @f() -> index {
  %a = arith.constant 1 : index
  %b = arith.constant 2 : index
  %c = arith.addi %a, %b : index
  func.return %c : index
}

// AFTER-NOT: IR Dump After Canonicalize
// AFTER: // -----// IR Dump After CommonSubexpressionElimination (cse) //----- //
// AFTER-NEXT: builtin.module {
// AFTER: arith.constant 3 : index
// AFTER-NOT: IR Dump

// BEFORE: // -----// IR Dump Before Canonicalize (canonicalize) //----- //
// BEFORE: arith.addi
// BEFORE-NOT: IR Dump

// NESTED: // -----// IR Dump After CommonSubexpressionElimination (cse) ('func.func' operation: @f) //----- //
// NESTED-NEXT: func.func @f() -> index {
// NESTED-NOT: IR Dump

// UNKNOWN: {{^}}infs-opt: error: --mlir-print-ir-after: unknown pass 'nosuchpass' (see --help for the list)
