// insert-sync alone on hand-written pattern-form programs: a sync before the
// first command that reads (compute srcs, shift/bcast/readout src, release of
// an array) a register written by an inter-tile shift or a multicast leaving
// its tile since the last sync; none for intra-tile shifts/multicasts.
//
// RUN: infs-opt %s --split-input-file --insert-sync | filecheck %s

// CHECK-LABEL: func.func @shifts
// CHECK:         pimcmd.shift f32 dst 2 src 0 dim 1 mask [1:2] inter 1 intra -1
// CHECK-NEXT:    pimcmd.shift f32 dst 3 src 0 dim 1 mask [0:1] inter 0 intra 1
// CHECK-NEXT:    pimcmd.compute neg f32 dst 4 srcs [3]
// CHECK-NEXT:    pimcmd.sync
// CHECK-NEXT:    pimcmd.compute add f32 dst 5 srcs [4, 2]
// CHECK-NEXT:    pimcmd.compute add f32 dst 6 srcs [5, 2]
// CHECK-NEXT:    pimcmd.shift f32 dst 7 src 6 dim 0 mask [0:2] inter -1 intra 0
// CHECK-NEXT:    pimcmd.sync
// CHECK-NEXT:    pimcmd.shift f32 dst 8 src 7 dim 0 mask [0:1] inter 0 intra 1
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [8]
// CHECK-NEXT:    pimcmd.release
// CHECK-NEXT:  }
func.func @shifts(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  pimcmd.program ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) config fig9 lattice [4, 4] tiles [2, 2] banks 4 arrays_per_bank 1 wordlines 128 virtual {
  ^bb0(%a: memref<4x4xf32>, %b: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    pimcmd.array %b shape [4, 4] wordline 1 transposed : memref<4x4xf32>
    pimcmd.transpose_in %a : memref<4x4xf32>
    pimcmd.shift f32 dst 2 src 0 dim 1 mask [1:2] inter 1 intra -1 bitlines 1:2:2 tiles 0:2:2
    pimcmd.shift f32 dst 3 src 0 dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 0:2:2
    pimcmd.compute neg f32 dst 4 srcs [3] bitlines 1:2:2 tiles 0:2:2
    pimcmd.compute add f32 dst 5 srcs [4, 2] bitlines 0:1:4 tiles 0:1:4
    pimcmd.compute add f32 dst 6 srcs [5, 2] bitlines 0:1:4 tiles 0:1:4
    pimcmd.shift f32 dst 7 src 6 dim 0 mask [0:2] inter -1 intra 0 bitlines 0:1:4 tiles 2:1:2
    pimcmd.shift f32 dst 8 src 7 dim 0 mask [0:1] inter 0 intra 1 bitlines 0:1:2 tiles 0:1:2
    pimcmd.compute copy f32 dst 1 srcs [8] bitlines 0:1:4 tiles 0:1:4
    pimcmd.release %b : memref<4x4xf32>
  }
  func.return
}

// -----
// Multicasts: one within its tile (inter [0:1]) needs no sync, one to other
// tiles does; a readout of a moved register waits too.
// CHECK-LABEL: func.func @bcasts
// CHECK:         pimcmd.bcast f32 dst 2 src 0 dim 0 intra [1:2] inter [0:1]
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2]
// CHECK-NEXT:    pimcmd.bcast f32 dst 3 src 0 dim 0 intra [-1:1] inter [1:2]
// CHECK-NEXT:    pimcmd.sync
// CHECK-NEXT:    pimcmd.readout f32 src 3
// CHECK-NEXT:    pimcmd.release
// CHECK-NEXT:  }
func.func @bcasts(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  pimcmd.program ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) config fig9 lattice [4, 4] tiles [2, 2] banks 4 arrays_per_bank 1 wordlines 128 virtual {
  ^bb0(%a: memref<4x4xf32>, %b: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    pimcmd.array %b shape [4, 4] wordline 1 transposed : memref<4x4xf32>
    pimcmd.transpose_in %a : memref<4x4xf32>
    pimcmd.bcast f32 dst 2 src 0 dim 0 intra [1:2] inter [0:1] bitlines 0:1:2 tiles 0:1:2
    pimcmd.compute copy f32 dst 1 srcs [2] bitlines 2:1:2 tiles 0:1:2
    pimcmd.bcast f32 dst 3 src 0 dim 0 intra [-1:1] inter [1:2] bitlines 2:1:2 tiles 0:1:2
    pimcmd.readout f32 src 3 domain [2:4, 0:4] id 0 bitlines 0:1:4 tiles 2:1:2
    pimcmd.release %b : memref<4x4xf32>
  }
  func.return
}

// -----
// An inter-tile shift straight into an array's register: the sync comes
// before the array is released (written back).
// CHECK-LABEL: func.func @release
// CHECK:         pimcmd.shift f32 dst 1 src 0 dim 1 mask [1:2] inter 1 intra -1
// CHECK-NEXT:    pimcmd.sync
// CHECK-NEXT:    pimcmd.release %b
func.func @release(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  pimcmd.program ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) config fig9 lattice [4, 4] tiles [2, 2] banks 4 arrays_per_bank 1 wordlines 128 virtual {
  ^bb0(%a: memref<4x4xf32>, %b: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    pimcmd.array %b shape [4, 4] wordline 1 transposed : memref<4x4xf32>
    pimcmd.transpose_in %a : memref<4x4xf32>
    pimcmd.shift f32 dst 1 src 0 dim 1 mask [1:2] inter 1 intra -1 bitlines 1:2:2 tiles 0:2:2
    pimcmd.release %b : memref<4x4xf32>
  }
  func.return
}
