// map-banks (§4.2 step 3): every pattern-form command gets the L3 banks that
// hold a tile of its tile pattern (tile t is in bank t // arrays_per_bank),
// as a pattern; when those banks are not an arithmetic progression, the
// covering range.  Other commands get no banks.
//
// RUN: infs-opt %s --split-input-file --map-banks | filecheck %s

// fig9: one array per bank, banks = tiles (Fig. 9: CMD 0 is on banks 0, 2).
// CHECK-LABEL: func.func @one_array_per_bank
// CHECK:         pimcmd.shift f32 dst 2 src 0 dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 0:2:2 banks 0:2:2{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 0 dim 1 mask [1:2] inter 1 intra -1 bitlines 1:2:2 tiles 0:2:2 banks 0:2:2{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst 2 src 0 dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 1:2:2 banks 1:2:2{{$}}
// CHECK-NEXT:    pimcmd.sync{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] bitlines 0:1:4 tiles 0:1:4 banks 0:1:4{{$}}
func.func @one_array_per_bank(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  pimcmd.program ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) config fig9 lattice [4, 4] tiles [2, 2] banks 4 arrays_per_bank 1 wordlines 128 virtual {
  ^bb0(%a: memref<4x4xf32>, %b: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    pimcmd.array %b shape [4, 4] wordline 1 transposed : memref<4x4xf32>
    pimcmd.transpose_in %a : memref<4x4xf32>
    pimcmd.shift f32 dst 2 src 0 dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 0:2:2
    pimcmd.shift f32 dst 2 src 0 dim 1 mask [1:2] inter 1 intra -1 bitlines 1:2:2 tiles 0:2:2
    pimcmd.shift f32 dst 2 src 0 dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 1:2:2
    pimcmd.sync
    pimcmd.compute copy f32 dst 1 srcs [2] bitlines 0:1:4 tiles 0:1:4
    pimcmd.release %b : memref<4x4xf32>
  }
  func.return
}

// -----
// Two arrays per bank (tiles 0-1 in bank 0, 2-3 in bank 1, ...), 8x8 in 4x4
// tiles (grid 2x2).
// CHECK-LABEL: func.func @two_arrays_per_bank
// CHECK:         pimcmd.compute neg f32 dst 2 srcs [0] bitlines 0:1:16 tiles 0:1:4 banks 0:1:2{{$}}
// CHECK-NEXT:    pimcmd.compute neg f32 dst 2 srcs [0] bitlines 0:1:16 tiles 2:1:1 banks 1:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute neg f32 dst 2 srcs [0] bitlines 0:1:16 tiles 1:2:2 banks 0:1:2{{$}}
// CHECK-NEXT:    pimcmd.shift f32 dst 3 src 2 dim 0 mask [0:4] inter 1 intra 0 bitlines 0:1:16 tiles 0:1:2 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.bcast f32 dst 3 src 2 dim 0 intra [0:4] inter [1:2] bitlines 0:1:4 tiles 1:1:1 banks 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.sync{{$}}
// CHECK-NEXT:    pimcmd.readout f32 src 3 domain [4:8, 0:8] id 0 bitlines 0:1:16 tiles 2:1:2 banks 1:1:1{{$}}
// CHECK-NEXT:    pimcmd.near_reduce add f32 in 0 dims [0, 1] step [1, 1] out 1{{$}}
// CHECK-NEXT:    pimcmd.writein f32 dst 1 domain [0:4, 0:4] id 0 bitlines 0:1:16 tiles 0:1:1 banks 0:1:1{{$}}
// already mapped: kept
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [3] bitlines 0:1:16 tiles 3:1:1 banks 1:1:1{{$}}
func.func @two_arrays_per_bank(%A: memref<8x8xf32>, %B: memref<8x8xf32>) -> f32 {
  %s = pimcmd.program ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) config tiny lattice [8, 8] tiles [4, 4] banks 4 arrays_per_bank 2 wordlines 256 virtual -> f32 {
  ^bb0(%a: memref<8x8xf32>, %b: memref<8x8xf32>):
    pimcmd.array %a shape [8, 8] wordline 0 transposed : memref<8x8xf32>
    pimcmd.array %b shape [8, 8] wordline 1 transposed : memref<8x8xf32>
    pimcmd.transpose_in %a : memref<8x8xf32>
    pimcmd.compute neg f32 dst 2 srcs [0] bitlines 0:1:16 tiles 0:1:4
    pimcmd.compute neg f32 dst 2 srcs [0] bitlines 0:1:16 tiles 2:1:1
    pimcmd.compute neg f32 dst 2 srcs [0] bitlines 0:1:16 tiles 1:2:2
    pimcmd.shift f32 dst 3 src 2 dim 0 mask [0:4] inter 1 intra 0 bitlines 0:1:16 tiles 0:1:2
    pimcmd.bcast f32 dst 3 src 2 dim 0 intra [0:4] inter [1:2] bitlines 0:1:4 tiles 1:1:1
    pimcmd.sync
    pimcmd.readout f32 src 3 domain [4:8, 0:8] id 0 bitlines 0:1:16 tiles 2:1:2
    pimcmd.near_reduce add f32 in 0 dims [0, 1] step [1, 1] out 1
    pimcmd.writein f32 dst 1 domain [0:4, 0:4] id 0 bitlines 0:1:16 tiles 0:1:1
    pimcmd.compute copy f32 dst 1 srcs [3] bitlines 0:1:16 tiles 3:1:1 banks 1:1:1
    pimcmd.result index 0 id 1
  }
  func.return %s : f32
}

// -----
// Multi-level tile patterns; a bank set that is no progression gets the
// covering range.  6x6 in 2x2 tiles (grid 3x3), two arrays per bank.
// CHECK-LABEL: func.func @inexact
// tiles {0, 1, 3, 4} -> banks {0, 1, 2}
// CHECK:         pimcmd.compute abs f32 dst 2 srcs [0] bitlines 0:1:4 tiles 0:1:2:3:2 banks 0:1:3{{$}}
// tiles {0, 3, 6} -> banks {0, 1, 3}: covered by 0..3
// CHECK-NEXT:    pimcmd.compute abs f32 dst 2 srcs [0] bitlines 0:1:4 tiles 0:3:3 banks 0:1:4{{$}}
// tiles {1, 4, 7} -> banks {0, 2, 3}: covered by 0..3
// CHECK-NEXT:    pimcmd.compute abs f32 dst 2 srcs [0] bitlines 0:1:4 tiles 1:3:3 banks 0:1:4{{$}}
// tiles {0, 4, 8} -> banks {0, 2, 4}
// CHECK-NEXT:    pimcmd.compute abs f32 dst 2 srcs [0] bitlines 0:1:4 tiles 0:4:3 banks 0:2:3{{$}}
func.func @inexact(%A: memref<6x6xf32>) {
  pimcmd.program ins(%A : memref<6x6xf32>) config custom lattice [6, 6] tiles [2, 2] banks 5 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%a: memref<6x6xf32>):
    pimcmd.array %a shape [6, 6] wordline 0 transposed : memref<6x6xf32>
    pimcmd.transpose_in %a : memref<6x6xf32>
    pimcmd.compute abs f32 dst 2 srcs [0] bitlines 0:1:4 tiles 0:1:2:3:2
    pimcmd.compute abs f32 dst 2 srcs [0] bitlines 0:1:4 tiles 0:3:3
    pimcmd.compute abs f32 dst 2 srcs [0] bitlines 0:1:4 tiles 1:3:3
    pimcmd.compute abs f32 dst 2 srcs [0] bitlines 0:1:4 tiles 0:4:3
  }
  func.return
}
