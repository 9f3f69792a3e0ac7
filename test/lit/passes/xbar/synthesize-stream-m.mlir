// REQUIRES: berkeley-abc
// RUN: %infs-opt %s --split-input-file --synthesize-stream-m | FileCheck %s
// RUN: %infs-opt %s --split-input-file --synthesize-stream-m=eliminate=0 --map-staircase | FileCheck %s --check-prefix=MAP

// A 2:1 multiplexer collapses into one two-level node.
// CHECK-LABEL: hw.module @mux
// CHECK-NEXT:    %{{.*}} = xbar.sop {{(complemented )?}}(%{{.*}}, %{{.*}}, %{{.*}}) cubes [
// CHECK-NEXT:    hw.output
// MAP-LABEL: xbar.program @mux style "stream-m"
// MAP-NEXT:    xbar.kernel inputs [pi 0, pi 1, pi 2] outputs [0] {
// MAP-NEXT:      xbar.layer rows 6
// MAP-NEXT:      xbar.layer rows 2 [or(0, 1), nor(0, 1)]
hw.module @mux(in %s: i1, in %a: i1, in %b: i1, out y: i1) {
  %t = hw.constant true
  %ns = comb.xor %s, %t : i1
  %0 = comb.and %s, %a : i1
  %1 = comb.and %ns, %b : i1
  %2 = comb.or %0, %1 : i1
  hw.output %2 : i1
}
