// RUN: %infs-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK: only a primary input (an hw.module argument) can be read complemented
hw.module @neg_node(in %a: i1, out y: i1) {
  %n = xbar.or (%a)
  %m = xbar.or (not %n)
  hw.output %m : i1
}

// -----

// CHECK: 'xbar.sop' op cube '1' must be 2 characters of 0, 1, -
hw.module @bad_cube(in %a: i1, in %b: i1, out y: i1) {
  %f = xbar.sop (%a, %b) cubes ["1"]
  hw.output %f : i1
}

// -----

// CHECK: xbar.layer: column 0 reads row 4 of 4
xbar.program @rows style "stream-o" crossbar 128 inputs ["a", "b"] outputs ["y"] {
  xbar.kernel inputs [pi 0, pi 1] outputs [0] {
    xbar.layer rows 4 [or(4)]
  }
  xbar.outputs [0:0]
}

// -----

// CHECK: kernel layer 1: 2 rows but layer 0 has 1 columns
xbar.program @stairs style "stream-o" crossbar 128 inputs ["a"] outputs ["y"] {
  xbar.kernel inputs [pi 0] outputs [0] {
    xbar.layer rows 2 [or(0)]
    xbar.layer rows 2 [or(1)]
  }
  xbar.outputs [0:0]
}

// -----

// CHECK: source kernel 1 is not an earlier kernel
xbar.program @order style "stream-m" crossbar 128 inputs ["a"] outputs ["y"] {
  xbar.kernel inputs [1:0] outputs [0] {
    xbar.layer rows 2 [or(0)]
  }
  xbar.kernel inputs [pi 0] outputs [0] {
    xbar.layer rows 2 [or(0)]
  }
  xbar.outputs [0:0]
}

// -----

// CHECK: program style 'stream-x': expected one of stream-o, stream-m
xbar.program @style style "stream-x" crossbar 128 inputs ["a"] outputs ["y"] {
  xbar.kernel inputs [pi 0] outputs [0] {
    xbar.layer rows 2 [or(0)]
  }
  xbar.outputs [0:0]
}
