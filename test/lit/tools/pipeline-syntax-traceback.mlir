// Regression (was a bug): a malformed pipeline specification makes xDSL raise ArgSpecParseError,
// which derives from BaseException, not Exception: neither
// infs.api.parse_pipeline nor infs-opt's main() catches it, and infs-opt dies
// with a Python traceback (exit code 1) instead of one line.
// Reproducer: infs-opt -p 'canonicalize,,cse' test/lit/Inputs/ok.mlir
//
// RUN: not infs-opt -p 'canonicalize,,cse' %S/../Inputs/ok.mlir 2>&1 | filecheck %s --check-prefix=EMPTY-NAME
// EMPTY-NAME-NOT: Traceback
// EMPTY-NAME: {{^}}infs-opt: error: {{.*}}canonicalize,,cse{{.*}}
// EMPTY-NAME-NOT: {{.}}
//
// RUN: not infs-opt -p 'canonicalize{' %S/../Inputs/ok.mlir 2>&1 | filecheck %s --check-prefix=UNCLOSED
// UNCLOSED-NOT: Traceback
// UNCLOSED: {{^}}infs-opt: error: {{.*}}canonicalize{{{.*}}
// UNCLOSED-NOT: {{.}}
//
// Nested MLIR anchors are not supported; they must still be one clear line.
// RUN: not infs-opt --pass-pipeline='builtin.module(func.func(cse))' %S/../Inputs/ok.mlir 2>&1 | filecheck %s --check-prefix=NESTED
// NESTED-NOT: Traceback
// NESTED: {{^}}infs-opt: error: {{.*}}func.func(cse){{.*}}
// NESTED-NOT: {{.}}
