// RUN: %infs-opt %s --split-input-file --verify-diagnostics --synthesize-stream-o | FileCheck %s

// CHECK: pass 'synthesize-stream-o' failed: the hw.module at {{.*}}: wide: comb.add is not a one-bit combinational op
hw.module @wide(in %a: i8, in %b: i8, out y: i8) {
  %0 = comb.add %a, %b : i8
  hw.output %0 : i8
}

// -----

// CHECK: pass 'synthesize-stream-o' failed: the hw.module at {{.*}}: is synthesized already (it holds xbar nodes)
hw.module @done(in %a: i1, out y: i1) {
  %n = xbar.or inverted (%a)
  hw.output %n : i1
}
