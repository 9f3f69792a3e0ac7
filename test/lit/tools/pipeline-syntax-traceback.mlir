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
// A module pass nested under func.func (an xDSL pass there runs on each
// function: test/lit/tools/pass-pipeline-nested.mlir) is one clear line.
// RUN: not infs-opt --pass-pipeline='builtin.module(func.func(tensorize))' %S/../Inputs/ok.mlir 2>&1 | filecheck %s --check-prefix=NESTED
// NESTED-NOT: Traceback
// NESTED: {{^}}infs-opt: error: {{.*}}func.func(tensorize){{.*}} module pass{{.*}}
// NESTED-NOT: {{.}}
