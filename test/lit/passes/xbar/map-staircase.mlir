// RUN: %infs-opt %s --split-input-file --verify-diagnostics --map-staircase | FileCheck %s

// STREAM-O (Fig. 5): longest-path levels, one crossbar per level; the edges from
// %h and %e (level 1) to %g (level 3) skip a level and get dummy buffers.
// Layer 0's rows: a, b, c, then not a, not b, not c.
// CHECK-LABEL: xbar.program @fig5 style "stream-o" crossbar 128 inputs ["a", "b", "c"] outputs ["y"] {
// CHECK-NEXT:    xbar.kernel inputs [pi 0, pi 1, pi 2] outputs [0] {
// CHECK-NEXT:      xbar.layer rows 6 [nor(0, 4), or(1, 2), nor(2)]
// CHECK-NEXT:      xbar.layer rows 3 [or(0, 1), or(2), or(1)]
// CHECK-NEXT:      xbar.layer rows 3 [nor(0, 1, 2)]
// CHECK-NEXT:    }
// CHECK-NEXT:    xbar.outputs [0:0]
hw.module @fig5(in %a: i1, in %b: i1, in %c: i1, out y: i1) {
  %d = xbar.or inverted (%a, not %b)
  %e = xbar.or (%b, %c)
  %f = xbar.or (%d, %e)
  %h = xbar.or inverted (%c)
  %g = xbar.or inverted (%f, %h, %e)
  hw.output %g : i1
}

// -----

// STREAM-M (Fig. 8(a)): a product crossbar (each product the NOR of its
// complemented literals) then a sum crossbar (the node and its complement).
// CHECK-LABEL: xbar.program @fig8 style "stream-m"
// CHECK-NEXT:    xbar.kernel inputs [pi 0, pi 1, pi 2] outputs [0, 2] {
// CHECK-NEXT:      xbar.layer rows 6 [nor(3), nor(2, 4), nor(0), nor(1, 3, 5)]
// CHECK-NEXT:      xbar.layer rows 4 [or(0, 1), nor(0, 1), or(2, 3), nor(2, 3)]
// CHECK-NEXT:    }
// CHECK-NEXT:    xbar.outputs [0:0, 0:1]
hw.module @fig8(in %x0: i1, in %x1: i1, in %x2: i1, out f1: i1, out f2: i1) {
  %f1 = xbar.sop (%x0, %x1, %x2) cubes ["1--", "-10"]
  %f2 = xbar.sop (%x0, %x1, %x2) cubes ["0--", "101"]
  hw.output %f1, %f2 : i1, i1
}

// -----

// An output that is a primary input is carried to the last layer.
// CHECK-LABEL: xbar.program @wire
// CHECK-NEXT:    xbar.kernel inputs [pi 0] outputs [0, 1] {
// CHECK-NEXT:      xbar.layer rows 2 [nor(0), or(0)]
// CHECK-NEXT:    }
hw.module @wire(in %a: i1, out y: i1, out z: i1) {
  %n = xbar.or inverted (%a)
  hw.output %n, %a : i1, i1
}

// -----

// CHECK: pass 'map-staircase' failed: the hw.module at {{.*}} holds no xbar.or / xbar.sop nodes
hw.module @comb(in %a: i1, in %b: i1, out y: i1) {
  %0 = comb.and %a, %b : i1
  hw.output %0 : i1
}
