// RUN: %infs-opt --import-bench %S/../../../infs/workloads/iscas85/c17.bench | FileCheck %s
// RUN: not %infs-opt --import-bench %S/../Inputs/bad-gate.bench 2>&1 | FileCheck %s --check-prefix=ERR

// c17's NANDs as CIRCT comb: AND, then XOR with true.
// CHECK-LABEL: hw.module @c17(in %G1gat: i1, in %G2gat: i1, in %G3gat: i1, in %G6gat: i1, in %G7gat: i1, out G22gat: i1, out G23gat: i1) {
// CHECK:         %[[T:.*]] = hw.constant true
// CHECK:         %G11gat = comb.xor %{{.*}}, %[[T]] : i1
// CHECK:         hw.output %G22gat, %G23gat : i1, i1

// ERR: bad-gate.bench:4: unknown gate 'MAJ'
// ERR-NOT: Traceback
