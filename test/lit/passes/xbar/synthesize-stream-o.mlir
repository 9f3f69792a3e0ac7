// REQUIRES: berkeley-abc
// RUN: %infs-opt %s --split-input-file --synthesize-stream-o | FileCheck %s

// A NAND of two inputs: ABC maps OR(INV a, INV b); the input inverters become
// complement rows, the OR stays one column.
// CHECK-LABEL: hw.module @nand2(in %a: i1, in %b: i1, out y: i1) {
// CHECK-NEXT:    %{{.*}} = xbar.or (not %{{[ab]}}, not %{{[ab]}})
// CHECK-NEXT:    hw.output
hw.module @nand2(in %a: i1, in %b: i1, out y: i1) {
  %t = hw.constant true
  %0 = comb.and %a, %b : i1
  %1 = comb.xor %0, %t : i1
  hw.output %1 : i1
}

// -----

// An OR tree of single-use ORs is covered by one wide OR (ABC's cells take five inputs).
// CHECK-LABEL: hw.module @or6
// CHECK-NEXT:    %{{.*}} = xbar.or (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NEXT:    hw.output
hw.module @or6(in %a: i1, in %b: i1, in %c: i1, in %d: i1, in %e: i1, in %f: i1, out y: i1) {
  %0 = comb.or %a, %b, %c, %d, %e, %f : i1
  hw.output %0 : i1
}
