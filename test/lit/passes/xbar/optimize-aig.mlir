// REQUIRES: berkeley-abc
// RUN: %infs-opt %s --optimize-aig | FileCheck %s

// A three-input AND and an OR become two-input ANDs of literals (ABC's AIG);
// the output keeps its port name.
// CHECK-LABEL: hw.module @and_or(in %a: i1, in %b: i1, in %c: i1, out y: i1, out z: i1) {
// CHECK-NOT:     comb.or
// CHECK:         comb.and %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : i1
// CHECK-NOT:     comb.and %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : i1
// CHECK:         hw.output
hw.module @and_or(in %a: i1, in %b: i1, in %c: i1, out y: i1, out z: i1) {
  %0 = comb.and %a, %b, %c : i1
  %1 = comb.or %a, %b : i1
  hw.output %0, %1 : i1, i1
}
