// Every flag infs-opt accepts does what its --help says, or is refused with
// one line. This file is its own input.
//
// IR after every pass on stderr, headed as mlir-opt heads it; the final
// program alone on stdout.
// RUN: infs-opt --canonicalize --cse --print-between-passes %s 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: infs-opt --canonicalize --cse --mlir-print-ir-after-all %s 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// AFTER: // -----// IR Dump After Canonicalize (canonicalize) //----- //
// AFTER-NEXT: builtin.module {
// AFTER-NOT: arith.addi
// AFTER: // -----// IR Dump After CommonSubexpressionElimination (cse) //----- //
// AFTER-NEXT: builtin.module {
//
// RUN: infs-opt --canonicalize --mlir-print-ir-before-all %s 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// BEFORE: // -----// IR Dump Before Canonicalize (canonicalize) //----- //
// BEFORE: arith.addi
// BEFORE-NOT: IR Dump After
//
// RUN: infs-opt --canonicalize --print-between-passes %s 2>/dev/null | filecheck %s --check-prefix=STDOUT
// STDOUT-NOT: IR Dump
// STDOUT: func.func @fold
//
// A wall-time table on stderr, one row per step (MLIR's --mlir-timing list view).
// RUN: infs-opt --canonicalize --cse --time-passes %s 2>&1 >/dev/null | filecheck %s --check-prefix=TIME
// RUN: infs-opt --canonicalize --cse --mlir-timing %s 2>&1 >/dev/null | filecheck %s --check-prefix=TIME
// TIME: ... Execution time report ...
// TIME: Total Execution Time: {{[0-9.]+}} seconds
// TIME: ----Wall Time----  ----Name----
// TIME: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Parser
// TIME: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Canonicalize (canonicalize)
// TIME: {{[0-9.]+}} ({{ *[0-9.]+}}%)  CommonSubexpressionElimination (cse)
// TIME: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Output
// TIME: {{[0-9.]+}} (100.0%)  Total
//
// --parsing-diagnostics: a parse error goes to the output, exit 0.
// RUN: infs-opt --parsing-diagnostics %S/../Inputs/parse-error.mlir | filecheck %s --check-prefix=PARSEDIAG
// PARSEDIAG: {{^}}{{.*}}Inputs/parse-error.mlir:4:23: error: operand expected
// ... but a verifier error is still an error.
// RUN: not infs-opt --parsing-diagnostics %S/../Inputs/verify-error.mlir 2>&1 | filecheck %s --check-prefix=VERIFYERR
// VERIFYERR: {{^}}{{.*}}Inputs/verify-error.mlir:6:5: error: 'stream.load' op {{.*}}
// VERIFYERR-NOT: {{.}}
//
// --no-implicit-module: the top level must be a builtin.module.
// RUN: not infs-opt --no-implicit-module %s 2>&1 | filecheck %s --check-prefix=NOMODULE
// NOMODULE: {{^}}{{.*}}opt-flags.mlir:{{[0-9]+}}:1: error: builtin.module operation expected
// NOMODULE-NOT: {{.}}
//
// Targets: only mlir (xDSL's assembly/LLVM targets lower xDSL's own dialects).
// RUN: not infs-opt -t llvm %s 2>&1 | filecheck %s --check-prefix=TARGET
// RUN: not infs-opt -t riscv-asm %s 2>&1 | filecheck %s --check-prefix=TARGET
// TARGET: {{^}}infs-opt: error: argument -t/--target: invalid choice: '{{llvm|riscv-asm}}' (choose from mlir)
// TARGET-NOT: {{.}}
// RUN: infs-opt -t mlir %s | filecheck %s --check-prefix=STDOUT
//
// RUN: not infs-opt --shrink %s 2>&1 | filecheck %s --check-prefix=SHRINK
// SHRINK: {{^}}infs-opt: error: --shrink is not supported{{.*}}
// SHRINK-NOT: {{.}}
//
// File errors.
// RUN: not infs-opt %S 2>&1 | filecheck %s --check-prefix=INDIR
// INDIR: {{^}}infs-opt: error: cannot open '{{.*}}': Is a directory
// INDIR-NOT: {{.}}
// RUN: not infs-opt %s -o %S 2>&1 | filecheck %s --check-prefix=OUTDIR
// OUTDIR: {{^}}infs-opt: error: cannot write -o '{{.*}}': Is a directory
// OUTDIR-NOT: {{.}}
//
// An unbalanced quote in a pass option.
// RUN: not infs-opt --lower-pim='sizes=N=4 config="tiny' %s 2>&1 | filecheck %s --check-prefix=QUOTE
// QUOTE: {{^}}infs-opt: error: bad pass options 'sizes=N=4 config="tiny': no closing quotation
// QUOTE-NOT: {{.}}

func.func @fold() -> (index, index) {
  %a = arith.constant 1 : index
  %b = arith.constant 2 : index
  %c = arith.addi %a, %b : index
  %d = arith.constant 3 : index
  func.return %c, %d : index, index
}
