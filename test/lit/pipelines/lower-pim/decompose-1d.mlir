// decompose (Alg. 1) of unaligned 1-D tensors.  On `tiny` a rank-1 f32
// lattice gets 16-cell tiles (64 cells: tiles [0,16) [16,32) [32,48) [48,64)).
// Each box written into an array is split into a head (up to the first tile boundary), a middle of
// whole tiles and a tail (after the last boundary); the pieces that would be
// empty are not emitted, and a box inside one tile is kept whole.
//
// RUN: infs-opt --specialize --choose-layout=config=tiny --tdfg-to-pimcmd --expand-mv-bc --decompose %s | filecheck %s

// CHECK-LABEL: func.func @alg1_1d
// CHECK:         pimcmd.program {{.*}} lattice [64] tiles [16] {{.*}} virtual {
// B is only written, and its stores cover all of it: it is not fetched
// CHECK:           pimcmd.transpose_in %0
// a compute into a temporary is not split: one command over its box (the
// boundary tiles' other cells are don't-care), whatever the box's alignment
// CHECK-NEXT:      pimcmd.compute neg f32 dst [[R1:[0-9]+]] srcs [0] domain [5:60]{{$}}
// CHECK-NEXT:      pimcmd.compute abs f32 dst [[R2:[0-9]+]] srcs [0] domain [0:20]{{$}}
// CHECK-NEXT:      pimcmd.compute relu f32 dst [[R3:[0-9]+]] srcs [0] domain [35:64]{{$}}
// CHECK-NEXT:      pimcmd.compute neg f32 dst [[R4:[0-9]+]] srcs [0] domain [18:30]{{$}}
// CHECK-NEXT:      pimcmd.compute abs f32 dst [[R5:[0-9]+]] srcs [0] domain [16:48]{{$}}
// a store into an array's register is decomposed (Alg. 1): head, middle
// (2 whole tiles) and tail, so that cells outside the box keep the array's data
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R1]]] domain [5:16]{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R1]]] domain [16:48]{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R1]]] domain [48:60]{{$}}
// CHECK:           pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R4]]] domain [18:30]{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R5]]] domain [16:48]{{$}}
// CHECK-NEXT:      pimcmd.release
func.func @alg1_1d(%A: memref<64xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [5:60] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.cmp neg(%0) : !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    %2 = tdfg.tensor %a [0:20] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %3 = tdfg.cmp abs(%2) : !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    %4 = tdfg.tensor %a [35:64] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %5 = tdfg.cmp relu(%4) : !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    %6 = tdfg.tensor %a [18:30] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %7 = tdfg.cmp neg(%6) : !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    %8 = tdfg.tensor %a [16:48] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %9 = tdfg.cmp abs(%8) : !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.store %3 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.store %5 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.store %7 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.store %9 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// A move splits its *source* box (the cells it reads).
// CHECK-LABEL: func.func @mv_source_1d
// B is written only in part ([10:48]): it is fetched, for the cells the store does not write
// CHECK:           pimcmd.transpose_in %1
// CHECK-NEXT:      pimcmd.mv f32 dst [[M:[0-9]+]] src 0 dim 0 dist 7 domain [3:16]{{$}}
// CHECK-NEXT:      pimcmd.mv f32 dst [[M]] src 0 dim 0 dist 7 domain [16:32]{{$}}
// CHECK-NEXT:      pimcmd.mv f32 dst [[M]] src 0 dim 0 dist 7 domain [32:41]{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[M]]] domain [10:16]{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[M]]] domain [16:48]{{$}}
func.func @mv_source_1d(%A: memref<64xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [3:41] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.mv %0 dim 0 dist 7 : !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}
