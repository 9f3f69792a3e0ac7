// An input with no operation -- empty, or only whitespace and comments, like
// this file -- is an empty module, as mlir-opt has it: infs-opt prints
// `builtin.module {}` and exits 0, from a file or from stdin, whole or split.
// infs-run has nothing to run in it: one line, non-zero exit.
//
// RUN: printf '' | infs-opt | filecheck %s --check-prefix=EMPTY
// RUN: printf '  \n\t\n' | infs-opt - | filecheck %s --check-prefix=EMPTY
// RUN: infs-opt %s | filecheck %s --check-prefix=EMPTY
// RUN: infs-opt %s -p tensorize,lower-pim | filecheck %s --check-prefix=EMPTY
// EMPTY-NOT:  error
// EMPTY:      {{^}}builtin.module {
// EMPTY-NEXT: {{^}}}
// EMPTY-NOT:  {{.}}
//
// Split: the comment-only chunk is an empty module too.
// RUN: printf '// nothing\n// -----\nfunc.func @f() {\n  func.return\n}\n' | infs-opt --split-input-file | filecheck %s --check-prefix=SPLIT
// SPLIT:      {{^}}builtin.module {
// SPLIT-NEXT: {{^}}}
// SPLIT-EMPTY:
// SPLIT-NEXT: {{^}}// -----
// SPLIT-NEXT: {{^}}builtin.module {
// SPLIT-NEXT: {{^}}  func.func @f() {
//
// --no-implicit-module needs the one top-level builtin.module: none is an error.
// RUN: printf '// nothing\n' | not infs-opt --no-implicit-module 2>&1 | filecheck %s --check-prefix=NOIMPLICIT
// NOIMPLICIT-NOT: Traceback
// NOIMPLICIT:     {{^}}stdin:1:1: error: no top-level operation: --no-implicit-module needs one builtin.module
// NOIMPLICIT-NOT: {{.}}
//
// RUN: printf '' > %t.empty.mlir
// RUN: not infs-run %t.empty.mlir 2>&1 | filecheck %s --check-prefix=NOTHING
// RUN: not infs-run %s 2>&1 | filecheck %s --check-prefix=NOTHING
// NOTHING-NOT: Traceback
// NOTHING:     {{^}}infs-run: error: '{{.*}}' holds no operation: nothing to run
// NOTHING-NOT: {{.}}
