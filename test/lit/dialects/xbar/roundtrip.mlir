// RUN: %infs-opt %s --split-input-file | FileCheck %s
// RUN: %infs-opt %s --split-input-file --print-op-generic | %infs-opt --split-input-file | FileCheck %s

// An OIG node reads primary inputs complemented (the first crossbar's complement rows).
// CHECK-LABEL: hw.module @oig
// CHECK:         %n = xbar.or inverted (not %a, %b)
// CHECK-NEXT:    %m = xbar.or (%n, not %b)
hw.module @oig(in %a: i1, in %b: i1, out y: i1) {
  %n = xbar.or inverted (not %a, %b)
  %m = xbar.or (%n, not %b)
  hw.output %m : i1
}

// -----

// CHECK-LABEL: hw.module @mll
// CHECK:         %f = xbar.sop (%a, %b, %c) cubes ["1-0", "011"]
// CHECK-NEXT:    %g = xbar.sop complemented (%f, %a) cubes ["1-"]
// CHECK-NEXT:    %k = xbar.sop () cubes []
hw.module @mll(in %a: i1, in %b: i1, in %c: i1, out y: i1, out z: i1) {
  %f = xbar.sop (%a, %b, %c) cubes ["1-0", "011"]
  %g = xbar.sop complemented (%f, %a) cubes ["1-"]
  %k = xbar.sop () cubes []
  hw.output %g, %k : i1, i1
}

// -----

// CHECK-LABEL: xbar.program @two style "stream-o" crossbar 128 inputs ["a", "b"] outputs ["y", "z"] {
// CHECK-NEXT:    xbar.kernel inputs [pi 0, pi 1] outputs [0, 1] {
// CHECK-NEXT:      xbar.layer rows 4 [nor(2, 3), or(0, 1)]
// CHECK-NEXT:    }
// CHECK-NEXT:    xbar.kernel inputs [0:0, pi 1] outputs [0] {
// CHECK-NEXT:      xbar.layer rows 4 [or(0, 3)]
// CHECK-NEXT:      xbar.layer rows 1 [nor(0)]
// CHECK-NEXT:    }
// CHECK-NEXT:    xbar.outputs [1:0, 0:1]
xbar.program @two style "stream-o" crossbar 128 inputs ["a", "b"] outputs ["y", "z"] {
  xbar.kernel inputs [pi 0, pi 1] outputs [0, 1] {
    xbar.layer rows 4 [nor(2, 3), or(0, 1)]
  }
  xbar.kernel inputs [0:0, pi 1] outputs [0] {
    xbar.layer rows 4 [or(0, 3)]
    xbar.layer rows 1 [nor(0)]
  }
  xbar.outputs [1:0, 0:1]
}
