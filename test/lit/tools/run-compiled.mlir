// infs-run on what infs-opt --lower-pim writes (host code holding pimcmd.programs,
// the paper's "Inf-S no JIT"): it runs without a JIT, on the config the programs
// were lowered for, and --check compares with the graph each program came from.
// (A call the programs were not made for is one line naming the op and its line,
// and a corrupted command fails --check: test/test_aot_programs.py.)
//
// RUN: infs-opt --tensorize --lower-pim='sizes=M=8,N=8 config=tiny' %S/../../../infs/workloads/stencil2d.mlir -o %t.mlir
// RUN: infs-run %t.mlir --sizes m=8,n=8,t=2 --shape A=8x8,B=8x8,W=2 --check | filecheck %s
// CHECK-LABEL: mode auto
// CHECK:       JIT lowerings (not memoized) {{.*}} 0
// CHECK:       compiled ahead of time {{.*}} 2 program run(s), no JIT
// CHECK:       check: outputs match the lattice semantics of the graphs the programs
