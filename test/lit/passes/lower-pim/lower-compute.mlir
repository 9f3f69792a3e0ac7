// lower-compute: every domain-form `compute` piece gets its bitline and tile
// patterns (§4.2 steps 1 and 3): exactly its box's cells when it writes an
// array's register or a register other commands also write (decompose split
// it), the covering cells of its tiles for a temporary; `readout`/`writein`
// get the patterns of the cells they touch and keep their box (the buffer's
// shape).  No `domain` is left on a compute.  The inputs are lower-reduce's
// printed output on `tiny`, 12x8 in 4x4 tiles (grid 3x2, tile t = 2*row + col).
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics -p lower-compute | filecheck %s

// The temporary: the covering tiles whole; the store pieces: rows 1-3 of
// tile 0; rows 1-3 x cols 0-1 of tile 1; all of tile 2; ...
// CHECK-LABEL: func.func @cross
// CHECK:         pimcmd.transpose_in %1 :
// CHECK-NEXT:    pimcmd.compute neg f32 dst 2 srcs [0] bitlines 0:1:16 tiles 0:1:6{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] bitlines 4:1:12 tiles 0:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] bitlines 4:1:2:4:3 tiles 1:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] bitlines 0:1:16 tiles 2:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] bitlines 0:1:2:4:4 tiles 3:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] bitlines 0:1:12 tiles 4:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] bitlines 0:1:2:4:3 tiles 5:1:1{{$}}
// CHECK-NEXT:    pimcmd.release
// CHECK-NOT:     domain
func.func @cross(%A: memref<12x8xf32>, %B: memref<12x8xf32>) {
  pimcmd.program ins(%A, %B : memref<12x8xf32>, memref<12x8xf32>) config tiny lattice [12, 8] tiles [4, 4] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<12x8xf32>, %1: memref<12x8xf32>):
    pimcmd.array %0 shape [12, 8] wordline 0 transposed : memref<12x8xf32>
    pimcmd.array %1 shape [12, 8] wordline 1 transposed : memref<12x8xf32>
    pimcmd.transpose_in %0 : memref<12x8xf32>
    pimcmd.transpose_in %1 : memref<12x8xf32>
    pimcmd.compute neg f32 dst 2 srcs [0] domain [1:11, 0:6]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [1:4, 0:4]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [1:4, 4:6]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [4:8, 0:4]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [4:8, 4:6]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [8:11, 0:4]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [8:11, 4:6]
    pimcmd.release %1 : memref<12x8xf32>
  }
  func.return
}

// -----
// Whole tiles in both dims (tiles 2-5) and a box inside one tile (rows 5-6 x
// cols 1-2 of tile 2: in-tile bitlines 5, 6, 9, 10).
// CHECK-LABEL: func.func @aligned_and_inside
// CHECK:         pimcmd.transpose_in %1 :
// CHECK-NEXT:    pimcmd.compute abs f32 dst 2 srcs [0] bitlines 0:1:16 tiles 2:1:4{{$}}
// CHECK-NEXT:    pimcmd.compute neg f32 dst 3 srcs [0] bitlines 5:1:2:4:2 tiles 2:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] bitlines 0:1:16 tiles 2:1:4{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [3] bitlines 5:1:2:4:2 tiles 2:1:1{{$}}
// CHECK-NOT:     domain
func.func @aligned_and_inside(%A: memref<12x8xf32>, %B: memref<12x8xf32>) {
  pimcmd.program ins(%A, %B : memref<12x8xf32>, memref<12x8xf32>) config tiny lattice [12, 8] tiles [4, 4] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<12x8xf32>, %1: memref<12x8xf32>):
    pimcmd.array %0 shape [12, 8] wordline 0 transposed : memref<12x8xf32>
    pimcmd.array %1 shape [12, 8] wordline 1 transposed : memref<12x8xf32>
    pimcmd.transpose_in %0 : memref<12x8xf32>
    pimcmd.transpose_in %1 : memref<12x8xf32>
    pimcmd.compute abs f32 dst 2 srcs [0] domain [4:12, 0:8]
    pimcmd.compute neg f32 dst 3 srcs [0] domain [5:7, 1:3]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [4:12, 0:8]
    pimcmd.compute copy f32 dst 1 srcs [3] domain [5:7, 1:3]
    pimcmd.release %1 : memref<12x8xf32>
  }
  func.return
}

// -----
// The readout and the writein of rows [2,7) (two pieces along dim 0: the
// covering patterns, tiles 0-3) keep their box; the near-memory gather is
// untouched.
// CHECK-LABEL: func.func @near
// CHECK:         pimcmd.transpose_in %2 :
// CHECK-NEXT:    pimcmd.readout i32 src 0 domain [2:7, 0:8] id 0 bitlines 0:1:16 tiles 0:1:4{{$}}
// CHECK-NEXT:    pimcmd.near_load f32 %1 map [0] indirect [0] indices [0] domain [2:7, 0:8] out 1 : memref<128xf32>
// CHECK-NEXT:    pimcmd.writein f32 dst 2 domain [2:7, 0:8] id 1 bitlines 0:1:16 tiles 0:1:4{{$}}
// CHECK-NEXT:    pimcmd.compute neg f32 dst 3 srcs [2] bitlines 0:1:12 tiles 2:1:1{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [3] bitlines 0:1:12 tiles 2:1:1{{$}}
func.func @near(%I: memref<12x8xi32>, %X: memref<128xf32>, %B: memref<12x8xf32>) {
  pimcmd.program ins(%I, %X, %B : memref<12x8xi32>, memref<128xf32>, memref<12x8xf32>) config tiny lattice [12, 8] tiles [4, 4] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<12x8xi32>, %1: memref<128xf32>, %2: memref<12x8xf32>):
    pimcmd.array %0 shape [12, 8] wordline 0 transposed : memref<12x8xi32>
    pimcmd.array %2 shape [12, 8] wordline 1 transposed : memref<12x8xf32>
    pimcmd.transpose_in %0 : memref<12x8xi32>
    pimcmd.transpose_in %2 : memref<12x8xf32>
    pimcmd.readout i32 src 0 domain [2:7, 0:8] id 0
    pimcmd.near_load f32 %1 map [0] indirect [0] indices [0] domain [2:7, 0:8] out 1 : memref<128xf32>
    pimcmd.writein f32 dst 2 domain [2:7, 0:8] id 1
    pimcmd.compute neg f32 dst 3 srcs [2] domain [4:7, 0:4]
    pimcmd.compute copy f32 dst 1 srcs [3] domain [4:7, 0:4]
    pimcmd.release %2 : memref<12x8xf32>
  }
  func.return
}

// -----
// Moves left in the program (lower-shift skipped): one line, naming the
// program.
// CHECK-NOT:   Traceback
// CHECK:       error: pass 'lower-compute' failed: the pimcmd.program at {{.*}}lower-compute.mlir:[[# @LINE + 2]]:3 in @mv_left: 'mv' left in the program: run lower-shift and lower-reduce first
func.func @mv_left(%A: memref<64xf32>, %B: memref<64xf32>) {
  pimcmd.program ins(%A, %B : memref<64xf32>, memref<64xf32>) config tiny lattice [64] tiles [16] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<64xf32>, %1: memref<64xf32>):
    pimcmd.array %0 shape [64] wordline 0 transposed : memref<64xf32>
    pimcmd.array %1 shape [64] wordline 1 transposed : memref<64xf32>
    pimcmd.transpose_in %0 : memref<64xf32>
    pimcmd.transpose_in %1 : memref<64xf32>
    pimcmd.mv f32 dst 2 src 0 dim 0 dist 3 domain [0:48]
    pimcmd.mv f32 dst 2 src 0 dim 0 dist 3 domain [48:61]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [3:16]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [16:64]
    pimcmd.release %1 : memref<64xf32>
  }
  func.return
}
// CHECK-NOT:   Traceback
