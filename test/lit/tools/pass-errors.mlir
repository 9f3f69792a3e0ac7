// Bad pipelines on the command line: one clear line on stderr, a non-zero
// exit code, no Python traceback. `X-NOT: {{.}}` after the expected line
// checks that nothing follows it.
//
// RUN: not infs-opt -p nosuchpass %S/../Inputs/ok.mlir 2>&1 | filecheck %s --check-prefix=UNKNOWN-P
// UNKNOWN-P-NOT: Traceback
// UNKNOWN-P: {{^}}infs-opt: error: unknown pass 'nosuchpass'{{.*}}
// UNKNOWN-P-NOT: {{.}}
//
// RUN: not infs-opt --nosuchpass %S/../Inputs/ok.mlir 2>&1 | filecheck %s --check-prefix=UNKNOWN-FLAG
// UNKNOWN-FLAG-NOT: Traceback
// UNKNOWN-FLAG: {{^}}infs-opt: error: {{.*}}--nosuchpass
// UNKNOWN-FLAG-NOT: {{.}}
//
// RUN: not infs-opt --pass-pipeline='builtin.module(nosuchpass)' %S/../Inputs/ok.mlir 2>&1 | filecheck %s --check-prefix=UNKNOWN-PIPELINE
// UNKNOWN-PIPELINE-NOT: Traceback
// UNKNOWN-PIPELINE: {{^}}infs-opt: error: unknown pass 'nosuchpass'{{.*}}
// UNKNOWN-PIPELINE-NOT: {{.}}
//
// RUN: not infs-opt --canonicalize=foo=1 %S/../Inputs/ok.mlir 2>&1 | filecheck %s --check-prefix=UNKNOWN-OPTION
// RUN: not infs-opt -p 'canonicalize{foo=1}' %S/../Inputs/ok.mlir 2>&1 | filecheck %s --check-prefix=UNKNOWN-OPTION
// UNKNOWN-OPTION-NOT: Traceback
// UNKNOWN-OPTION: {{^}}infs-opt: error: bad pipeline 'canonicalize{foo=1}': {{.*}}foo{{.*}}not found{{.*}}
// UNKNOWN-OPTION-NOT: {{.}}
//
// RUN: not infs-opt -p 2>&1 | filecheck %s --check-prefix=MISSING-ARG
// MISSING-ARG-NOT: Traceback
// MISSING-ARG: {{^}}infs-opt: error: argument -p/--passes: expected one argument
// MISSING-ARG-NOT: {{.}}
