// RUN: %infs-opt %s --split-input-file --decompose-pe=crossbars=2 | FileCheck %s

// Three layers, two per PE: the cut goes after the narrowest layer (one signal
// crosses, not three); the second PE's first layer gets complement rows.
// CHECK-LABEL: xbar.program @cut
// CHECK-NEXT:    xbar.kernel inputs [pi 0, pi 1] outputs [0] {
// CHECK-NEXT:      xbar.layer rows 4 [or(0, 1), nor(2), or(3)]
// CHECK-NEXT:      xbar.layer rows 3 [or(0, 1, 2)]
// CHECK-NEXT:    }
// CHECK-NEXT:    xbar.kernel inputs [0:0] outputs [1] {
// CHECK-NEXT:      xbar.layer rows 2 [nor(0), or(0)]
// CHECK-NEXT:    }
// CHECK-NEXT:    xbar.outputs [1:0]
xbar.program @cut style "stream-o" crossbar 128 inputs ["a", "b"] outputs ["y"] {
  xbar.kernel inputs [pi 0, pi 1] outputs [1] {
    xbar.layer rows 4 [or(0, 1), nor(2), or(3)]
    xbar.layer rows 3 [or(0, 1, 2)]
    xbar.layer rows 1 [nor(0), or(0)]
  }
  xbar.outputs [0:0]
}

// -----

// A kernel that fits one PE is left alone.
// CHECK-LABEL: xbar.program @fits
// CHECK-NEXT:    xbar.kernel inputs [pi 0] outputs [0] {
// CHECK-NEXT:      xbar.layer rows 2 [nor(0)]
// CHECK-NEXT:    }
// CHECK-NEXT:    xbar.outputs [0:0]
xbar.program @fits style "stream-o" crossbar 128 inputs ["a"] outputs ["y"] {
  xbar.kernel inputs [pi 0] outputs [0] {
    xbar.layer rows 2 [nor(0)]
  }
  xbar.outputs [0:0]
}
