// Regression (was a bug): the custom printers of most infs ops drop discardable attributes (an
// op's attr-dict), so generic -> custom -> generic changes the IR. Today only
// stream.region, tdfg.graph, tdfg.store, tdfg.yield, pimcmd.transpose_in,
// pimcmd.release and pimcmd.sync keep them; tags 1-8, 10-19, 23, 25-27, 29
// and 31 of the input are lost (every other stream/tdfg/pimcmd op).
// generic-inputs.mlir checks that the input itself is valid.
//
// RUN: infs-opt %S/../Inputs/all-ops-with-attributes.mlir | infs-opt --print-op-generic | filecheck %s

// CHECK-DAG: {tag = 1 : i64}
// CHECK-DAG: {tag = 2 : i64}
// CHECK-DAG: {tag = 3 : i64}
// CHECK-DAG: {tag = 4 : i64}
// CHECK-DAG: {tag = 5 : i64}
// CHECK-DAG: {tag = 6 : i64}
// CHECK-DAG: {tag = 7 : i64}
// CHECK-DAG: {tag = 8 : i64}
// CHECK-DAG: {tag = 9 : i64}
// CHECK-DAG: {tag = 10 : i64}
// CHECK-DAG: {tag = 11 : i64}
// CHECK-DAG: {tag = 12 : i64}
// CHECK-DAG: {tag = 13 : i64}
// CHECK-DAG: {tag = 14 : i64}
// CHECK-DAG: {tag = 15 : i64}
// CHECK-DAG: {tag = 16 : i64}
// CHECK-DAG: {tag = 17 : i64}
// CHECK-DAG: {tag = 18 : i64}
// CHECK-DAG: {tag = 19 : i64}
// CHECK-DAG: {tag = 20 : i64}
// CHECK-DAG: {tag = 21 : i64}
// CHECK-DAG: {tag = 22 : i64}
// CHECK-DAG: {tag = 23 : i64}
// CHECK-DAG: {tag = 24 : i64}
// CHECK-DAG: {tag = 25 : i64}
// CHECK-DAG: {tag = 26 : i64}
// CHECK-DAG: {tag = 27 : i64}
// CHECK-DAG: {tag = 28 : i64}
// CHECK-DAG: {tag = 29 : i64}
// CHECK-DAG: {tag = 30 : i64}
// CHECK-DAG: {tag = 31 : i64}
