// The generic-form inputs of the XFAIL tests xfail-discardable-attributes.mlir
// and xfail-nonfinite-constants.mlir are valid and keep their attributes and
// values through the generic form, so those tests fail only for the bug they
// document.
//
// RUN: infs-opt %S/../Inputs/all-ops-with-attributes.mlir --print-op-generic | filecheck %s --check-prefix=ATTRS
// RUN: infs-opt %S/../Inputs/nonfinite-constants.mlir --print-op-generic | filecheck %s --check-prefix=NONFINITE

// ATTRS-DAG: {tag = 1 : i64}
// ATTRS-DAG: {tag = 2 : i64}
// ATTRS-DAG: {tag = 3 : i64}
// ATTRS-DAG: {tag = 4 : i64}
// ATTRS-DAG: {tag = 5 : i64}
// ATTRS-DAG: {tag = 6 : i64}
// ATTRS-DAG: {tag = 7 : i64}
// ATTRS-DAG: {tag = 8 : i64}
// ATTRS-DAG: {tag = 9 : i64}
// ATTRS-DAG: {tag = 10 : i64}
// ATTRS-DAG: {tag = 11 : i64}
// ATTRS-DAG: {tag = 12 : i64}
// ATTRS-DAG: {tag = 13 : i64}
// ATTRS-DAG: {tag = 14 : i64}
// ATTRS-DAG: {tag = 15 : i64}
// ATTRS-DAG: {tag = 16 : i64}
// ATTRS-DAG: {tag = 17 : i64}
// ATTRS-DAG: {tag = 18 : i64}
// ATTRS-DAG: {tag = 19 : i64}
// ATTRS-DAG: {tag = 20 : i64}
// ATTRS-DAG: {tag = 21 : i64}
// ATTRS-DAG: {tag = 22 : i64}
// ATTRS-DAG: {tag = 23 : i64}
// ATTRS-DAG: {tag = 24 : i64}
// ATTRS-DAG: {tag = 25 : i64}
// ATTRS-DAG: {tag = 26 : i64}
// ATTRS-DAG: {tag = 27 : i64}
// ATTRS-DAG: {tag = 28 : i64}
// ATTRS-DAG: {tag = 29 : i64}
// ATTRS-DAG: {tag = 30 : i64}
// ATTRS-DAG: {tag = 31 : i64}

// NONFINITE: "tdfg.const"() <{value = {{0x7[fF]800000}} : f32}>
// NONFINITE: "tdfg.const"() <{value = {{0x[fF][fF]800000}} : f32}>
// NONFINITE: "pimcmd.compute"() <{op = "max", {{.*}}const = {{0x[fF][fF][fF]0000000000000}} : f64
