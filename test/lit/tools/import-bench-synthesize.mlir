// REQUIRES: berkeley-abc
// RUN: %infs-opt --import-bench %S/../../../infs/workloads/iscas85/c432.bench --synthesize-stream-m --map-staircase | FileCheck %s
// RUN: %infs-opt --import-bench %S/../../../infs/workloads/iscas85/c17.bench --synthesize-stream-o --map-staircase --decompose-pe=crossbars=2 | FileCheck %s --check-prefix=PE

// CHECK-LABEL: xbar.program @c432 style "stream-m" crossbar 128 inputs ["G1gat", {{.*}}] outputs ["G223gat", "G329gat", "G370gat", "G421gat", "G430gat", "G431gat", "G432gat"] {
// CHECK-NEXT:    xbar.kernel inputs [pi 0, pi 1, {{.*}}, pi 35] outputs [{{.*}}] {
// CHECK-NEXT:      xbar.layer rows 72 [
// CHECK:         xbar.outputs [0:0, 0:1, 0:2, 0:3, 0:4, 0:5, 0:6]

// c17's three crossbars on two PEs of two crossbars each.
// PE-LABEL: xbar.program @c17 style "stream-o"
// PE:         xbar.kernel inputs [pi 0, pi 1, pi 2, pi 3, pi 4]
// PE:         xbar.kernel inputs [0:0,
// PE:         xbar.outputs [1:0, 1:1]
