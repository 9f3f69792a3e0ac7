// Bad input files: one clear line on stderr (with file:line:col when the
// error is in the text), a non-zero exit code, no Python traceback.
// `X-NOT: {{.}}` after the expected line checks that nothing follows it.
//
// RUN: not infs-opt %S/../Inputs/no-such-file.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING-NOT: Traceback
// MISSING: {{^}}infs-opt: error: cannot open '{{.*}}Inputs/no-such-file.mlir': No such file or directory
// MISSING-NOT: {{.}}
//
// RUN: not infs-opt %S/../Inputs/parse-error.mlir 2>&1 | filecheck %s --check-prefix=PARSE
// PARSE-NOT: Traceback
// PARSE: {{^}}{{.*}}Inputs/parse-error.mlir:4:23: error: operand expected
// PARSE-NOT: {{.}}
//
// RUN: not infs-opt %S/../Inputs/verify-error.mlir 2>&1 | filecheck %s --check-prefix=VERIFY
// VERIFY-NOT: Traceback
// VERIFY: {{^}}{{.*}}Inputs/verify-error.mlir:6:5: error: 'stream.load' op access map [d0] has 1 results for a rank-2 array
// VERIFY-NOT: {{.}}
//
// RUN: not infs-opt %S/../Inputs/not-utf8.mlir 2>&1 | filecheck %s --check-prefix=UTF8
// UTF8-NOT: Traceback
// UTF8: {{^}}infs-opt: error: '{{.*}}Inputs/not-utf8.mlir' is not a UTF-8 text file
// UTF8-NOT: {{.}}
