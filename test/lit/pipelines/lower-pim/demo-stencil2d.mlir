// The issue's demo: tensorize + lower-pim of the stencil2d workload gives one
// readable, allocated pimcmd program per tDFG (the A -> B and B -> A steps
// inside the host loop): 16x16 lattice in 8x8 tiles (forced, to show Alg. 2's
// shifts across a tile boundary) on `small-16`, the two
// weights C0 (neighbours) and C1 (centre) as runtime scalars (`const_arg` 0 and
// 1), the four neighbours as Alg. 2 shifts with a sync before each product, and
// the write-back of the result array.  Without optimize-tdfg C0 multiplies each
// of the four neighbours (the workload is written tap by tap; see
// ../../passes/optimize-tdfg/stencil2d.mlir for the graph the pass makes of it).
//
// RUN: infs-opt --tensorize --lower-pim='sizes=M=16,N=16 config=small-16 tiles=8x8' %S/../../../../infs/workloads/stencil2d.mlir | filecheck %s
//
// Unforced, choose-layout ranks the tilings by the timing model's estimate: in
// 1x64 tiles (48 bitlines idle) a row shift is a whole-tile move over the H-tree
// and a column shift moves 1 bitline; in 8x8 a row shift moves 8 bitlines per bit
// (flattened distance) and both dims cross tile boundaries: 1x64 takes 25% fewer
// cycles (infs-run --analysis --mode in, t=2).
// RUN: infs-opt --tensorize --lower-pim='sizes=M=16,N=16 config=small-16' %S/../../../../infs/workloads/stencil2d.mlir | filecheck %s --check-prefix=HEUR
// HEUR: pimcmd.program ins(%A, %B : {{.*}} lattice [16, 16] tiles [1, 64]
//
// The issue's literal command cannot give a program: stencil2d has two sizes
// (M rows, N columns), and a 64x64 lattice needs 4096 bitlines where `tiny`
// has 8 arrays of 16 (ASPLOS §7: data that does not fit is not computed in
// memory). Both are one-line errors:
// RUN: not infs-opt --tensorize --lower-pim='sizes=N=64 config=tiny' %S/../../../../infs/workloads/stencil2d.mlir 2>&1 | filecheck %s --check-prefix=UNBOUND
// UNBOUND: infs-opt: error: pass 'lower-pim' failed: 'tdfg.tensor' domain uses symbol 'M' that was never bound (give it in sizes=...)
// RUN: not infs-opt --tensorize --lower-pim='sizes=M=64,N=64 config=tiny' %S/../../../../infs/workloads/stencil2d.mlir 2>&1 | filecheck %s --check-prefix=NOFIT
// NOFIT: infs-opt: error: pass 'lower-pim' failed: the tdfg.graph at {{.*}}stencil2d.mlir:24:5 in @stencil2d: the lattice [64, 64] needs at least 256 SRAM arrays of 16 bitlines; 'tiny' has 8

// CHECK-LABEL: func.func @stencil2d
// CHECK:         scf.for
// CHECK-NEXT:      pimcmd.program ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) scalars({{.*}} : f32, f32, index, index) config "small-16" lattice [16, 16] tiles [8, 8] banks 16 arrays_per_bank 8 wordlines 256 {
// CHECK-NEXT:      ^bb0(%[[A:[A-Za-z0-9_]+]]: memref<?x?xf32>, %[[B:[A-Za-z0-9_]+]]: memref<?x?xf32>, {{.*}}: f32, %M: index, %N: index):
// CHECK-NEXT:        pimcmd.array %[[A]] shape [16, 16] wordline 0 transposed
// CHECK-NEXT:        pimcmd.array %[[B]] shape [15, 15] wordline 32 transposed
// CHECK-NEXT:        pimcmd.transpose_in %[[A]]
// CHECK-NEXT:        pimcmd.transpose_in %[[B]]
// A[i+1][j] (the first neighbour the schedule lowers): rows [2,16) x columns
// [1,15) one row up; in tile 0 rows 2-7 stay (intra -1), tile 2's row 0 goes
// to tile 0 row 7 (inter -1, intra +7)
// CHECK-NEXT:        pimcmd.shift f32 dst [[T:[0-9]+]] src 0 dim 0 mask [2:8] inter 0 intra -1 bitlines 17:1:7:8:6 tiles 0:1:1 banks 0:1:1
// CHECK:             pimcmd.shift f32 dst [[T]] src 0 dim 0 mask [0:1] inter -1 intra 7 bitlines 1:1:7 tiles 2:1:1 banks 0:1:1
// CHECK:             pimcmd.sync
// (an element-wise compute into a temporary covers its tiles whole: one command)
// CHECK-NEXT:        pimcmd.compute mul f32 dst {{[0-9]+}} srcs {{\[}}[[T]]] const_arg 0 bitlines 0:1:64 tiles 0:1:4 banks 0:1:1
// the other three neighbours, each times C0, then the centre (A itself, src 0) times C1
// CHECK-COUNT-3:     pimcmd.compute mul f32 dst {{[0-9]+}} srcs {{\[}}{{[0-9]+}}] const_arg 0 bitlines
// CHECK:             pimcmd.compute mul f32 dst {{[0-9]+}} srcs [0] const_arg 1 bitlines
// the result: rows and columns [1,15) of B, in four pieces
// CHECK-COUNT-4:     pimcmd.compute copy f32 dst 32 srcs
// CHECK-NEXT:        pimcmd.release %[[B]]
// the provenance infs-run needs (lower_pim.py): the symbol of each scalar operand
// (C0 and C1 for the commands, then M and N), the sizes it was specialized for,
// and the graph as given, the oracle of `infs-run --check`
// CHECK-NEXT:      } attributes {infs.symbols = ["C0", "C1", "M", "N"], infs.sizes = {M = 16 : i64, N = 16 : i64}, infs.source = "func.func @source(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %m: index, %n: index, %C0: f32, %C1: f32) {\0A  tdfg.graph ins(%A, %B
// CHECK-NEXT:      pimcmd.program ins(%B, %A : memref<?x?xf32>, memref<?x?xf32>) {{.*}} config "small-16" lattice [16, 16] tiles [8, 8]
// CHECK:             pimcmd.release
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     tdfg.
// CHECK-NOT:     stream.
// CHECK-NOT:     virtual
