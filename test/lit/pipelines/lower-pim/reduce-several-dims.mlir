// A reduction over several dims: after a `reduce` per dim, each
// tile's partial sits at its first cell along EVERY reduced dim, so the
// readout covers the tile-aligned box and `near_reduce` keeps every T-th cell
// along each of them (it kept one partial dim only: step [1, 8] added the
// reduce rounds' leftovers).  The second reduce folds over the tile-aligned
// box, where the first one's head-piece partials went.  Then an empty
// domain (a size of 0): it lowers, no LOT entry for an array without cells.
//
// RUN: infs-opt --tensorize --lower-pim='sizes=M=5,N=7 config=small-16 tiles=8x8' %s | filecheck %s
// RUN: infs-opt --tensorize --lower-pim='sizes=M=13,N=17 config=small-16 tiles=8x8' %s | filecheck %s --check-prefix=OFFSET
// RUN: infs-opt --tensorize --lower-pim='sizes=M=0,N=7 config=tiny' %s | filecheck %s --check-prefix=EMPTY

func.func @sum2d(%A: memref<?x?xf32>, %m: index, %n: index) -> f32 {
  %s = stream.region ins(%A : memref<?x?xf32>) syms(M = %m : index, N = %n : index) domain [0:M, 0:N] iterators [reduction, reduction] -> f32 {
  ^bb0(%a: memref<?x?xf32>, %M: index, %N: index):
    %x = stream.load %a[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %r = stream.reduce add %x over [0, 1] : !stream.stream<f32> -> f32
    stream.yield %r : f32
  }
  func.return %s : f32
}

// CHECK-LABEL: func.func @sum2d
// CHECK:       pimcmd.readout f32 src {{[0-9]+}} domain [0:5, 0:7] id 0
// CHECK-NEXT:  pimcmd.near_reduce add f32 in 0 dims [0, 1] step [8, 8] out 1
// CHECK-NEXT:  pimcmd.result index 0 id 1

func.func @sum2d_offset(%A: memref<?x?xf32>, %m: index, %n: index) -> f32 {
  %s = stream.region ins(%A : memref<?x?xf32>) syms(M = %m : index, N = %n : index) domain [1:M, 3:N - 1] iterators [reduction, reduction] -> f32 {
  ^bb0(%a: memref<?x?xf32>, %M: index, %N: index):
    %x = stream.load %a[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %r = stream.reduce add %x over [0, 1] : !stream.stream<f32> -> f32
    stream.yield %r : f32
  }
  func.return %s : f32
}

// The dim-1 reduce of tile row 0 covers the whole tile (rows 0..7, bitlines
// 0:1:64), including row 0 where the dim-0 head piece [1:8] left its result.
// OFFSET-LABEL: func.func @sum2d_offset
// OFFSET:       pimcmd.compute copy f32 dst [[R:[0-9]+]] srcs [{{[0-9]+}}] bitlines 0:1:64 tiles 1:1:1
// OFFSET:       pimcmd.readout f32 src [[R]] domain [0:13, 0:16] id 0
// OFFSET-NEXT:  pimcmd.near_reduce add f32 in 0 dims [0, 1] step [8, 8] out 1

// EMPTY-LABEL: func.func @sum2d
// EMPTY-NOT:   pimcmd.array
// EMPTY:       pimcmd.readout f32 src 0 domain [0:0, 0:7] id 0
// EMPTY-NEXT:  pimcmd.near_reduce add f32 in 0 dims [0, 1] step [{{[0-9]+}}, {{[0-9]+}}] out 1
// EMPTY-NEXT:  pimcmd.result index 0 id 1
