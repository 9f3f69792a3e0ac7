// Regression (was a bug): non-finite float constants do not survive the custom form. tdfg.const
// and pimcmd.compute print a float with Python's repr(), i.e. `inf`/`nan`,
// which their parsers (parse_number) reject: generic -> custom -> parse fails
// with "integer or float literal expected".
// generic-inputs.mlir checks that the input itself is valid.
//
// RUN: infs-opt %S/../Inputs/nonfinite-constants.mlir | infs-opt --print-op-generic | filecheck %s

// CHECK: "tdfg.const"() <{value = {{0x7[fF]800000}} : f32}>
// CHECK: "tdfg.const"() <{value = {{0x[fF][fF]800000}} : f32}>
// CHECK: "pimcmd.compute"() <{op = "max", {{.*}}const = {{0x[fF][fF][fF]0000000000000}} : f64
