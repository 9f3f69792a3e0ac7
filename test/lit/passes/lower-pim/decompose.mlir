// decompose (Alg. 1): every compute/mv/bc/reduce box is split along tile
// boundaries into a head (up to the first boundary), a middle of whole tiles
// and a tail, per dim, crossed over the dims (dim 0 outermost); pieces that
// would be empty are not emitted and a box inside one tile stays whole.
// mv/bc split their source box.  A compute into a temporary written by no
// other command is not split (the boundary tiles' other cells are
// don't-care); one into an array's register, or into a register other
// commands also write, is.  readout/writein keep their box.  The inputs are
// expand-mv-bc's printed output on `tiny`.
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics -p decompose | filecheck %s

// 1-D, tiles of 16: [5,60) -> head [5,16), middle [16,48), tail [48,60);
// [18,30) is inside tile 1; [16,48) is whole tiles.
// CHECK-LABEL: func.func @alg1_1d
// CHECK:         pimcmd.transpose_in %1 :
// the temporaries: not split
// CHECK-NEXT:    pimcmd.compute neg f32 dst 2 srcs [0] domain [5:60]{{$}}
// CHECK-NEXT:    pimcmd.compute neg f32 dst 3 srcs [0] domain [18:30]{{$}}
// CHECK-NEXT:    pimcmd.compute abs f32 dst 4 srcs [0] domain [16:48]{{$}}
// the stores into B's register (1): split
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] domain [5:16]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] domain [16:48]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] domain [48:60]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [3] domain [18:30]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [4] domain [16:48]{{$}}
// CHECK-NEXT:    pimcmd.release
func.func @alg1_1d(%A: memref<64xf32>, %B: memref<64xf32>) {
  pimcmd.program ins(%A, %B : memref<64xf32>, memref<64xf32>) config tiny lattice [64] tiles [16] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<64xf32>, %1: memref<64xf32>):
    pimcmd.array %0 shape [64] wordline 0 transposed : memref<64xf32>
    pimcmd.array %1 shape [64] wordline 1 transposed : memref<64xf32>
    pimcmd.transpose_in %0 : memref<64xf32>
    pimcmd.transpose_in %1 : memref<64xf32>
    pimcmd.compute neg f32 dst 2 srcs [0] domain [5:60]
    pimcmd.compute neg f32 dst 3 srcs [0] domain [18:30]
    pimcmd.compute abs f32 dst 4 srcs [0] domain [16:48]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [5:60]
    pimcmd.compute copy f32 dst 1 srcs [3] domain [18:30]
    pimcmd.compute copy f32 dst 1 srcs [4] domain [16:48]
    pimcmd.release %1 : memref<64xf32>
  }
  func.return
}

// -----
// 2-D, 12x8 in 4x4 tiles: rows [1,11) -> [1,4) [4,8) [8,11), columns [0,6)
// -> [0,4) [4,6), crossed.
// CHECK-LABEL: func.func @cross
// CHECK:         pimcmd.transpose_in %1 :
// CHECK-NEXT:    pimcmd.compute neg f32 dst 2 srcs [0] domain [1:11, 0:6]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] domain [1:4, 0:4]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] domain [1:4, 4:6]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] domain [4:8, 0:4]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] domain [4:8, 4:6]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] domain [8:11, 0:4]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] domain [8:11, 4:6]{{$}}
// CHECK-NEXT:    pimcmd.release
func.func @cross(%A: memref<12x8xf32>, %B: memref<12x8xf32>) {
  pimcmd.program ins(%A, %B : memref<12x8xf32>, memref<12x8xf32>) config tiny lattice [12, 8] tiles [4, 4] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<12x8xf32>, %1: memref<12x8xf32>):
    pimcmd.array %0 shape [12, 8] wordline 0 transposed : memref<12x8xf32>
    pimcmd.array %1 shape [12, 8] wordline 1 transposed : memref<12x8xf32>
    pimcmd.transpose_in %0 : memref<12x8xf32>
    pimcmd.transpose_in %1 : memref<12x8xf32>
    pimcmd.compute neg f32 dst 2 srcs [0] domain [1:11, 0:6]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [1:11, 0:6]
    pimcmd.release %1 : memref<12x8xf32>
  }
  func.return
}

// -----
// mv splits its source box [2,6) x [3,7); the one-row bc its source row's
// columns [1,6) -> [1,4) [4,6) (rows [2,3) lie in one tile).
// CHECK-LABEL: func.func @moves
// CHECK:         pimcmd.transpose_in %1 :
// CHECK-NEXT:    pimcmd.mv f32 dst 2 src 0 dim 0 dist 5 domain [2:4, 3:4]{{$}}
// CHECK-NEXT:    pimcmd.mv f32 dst 2 src 0 dim 0 dist 5 domain [2:4, 4:7]{{$}}
// CHECK-NEXT:    pimcmd.mv f32 dst 2 src 0 dim 0 dist 5 domain [4:6, 3:4]{{$}}
// CHECK-NEXT:    pimcmd.mv f32 dst 2 src 0 dim 0 dist 5 domain [4:6, 4:7]{{$}}
// CHECK-NEXT:    pimcmd.bc f32 dst 3 src 0 dim 0 dist 1 count 3 domain [2:3, 1:4]{{$}}
// CHECK-NEXT:    pimcmd.bc f32 dst 3 src 0 dim 0 dist 1 count 3 domain [2:3, 4:6]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] domain [7:8, 3:4]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] domain [7:8, 4:7]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] domain [8:11, 3:4]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [2] domain [8:11, 4:7]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [3] domain [3:4, 1:4]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [3] domain [3:4, 4:6]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [3] domain [4:6, 1:4]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [3] domain [4:6, 4:6]{{$}}
// CHECK-NEXT:    pimcmd.release
func.func @moves(%A: memref<12x8xf32>, %B: memref<12x8xf32>) {
  pimcmd.program ins(%A, %B : memref<12x8xf32>, memref<12x8xf32>) config tiny lattice [12, 8] tiles [4, 4] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<12x8xf32>, %1: memref<12x8xf32>):
    pimcmd.array %0 shape [12, 8] wordline 0 transposed : memref<12x8xf32>
    pimcmd.array %1 shape [12, 8] wordline 1 transposed : memref<12x8xf32>
    pimcmd.transpose_in %0 : memref<12x8xf32>
    pimcmd.transpose_in %1 : memref<12x8xf32>
    pimcmd.mv f32 dst 2 src 0 dim 0 dist 5 domain [2:6, 3:7]
    pimcmd.bc f32 dst 3 src 0 dim 0 dist 1 count 3 domain [2:3, 1:6]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [7:11, 3:7]
    pimcmd.compute copy f32 dst 1 srcs [3] domain [3:6, 1:6]
    pimcmd.release %1 : memref<12x8xf32>
  }
  func.return
}

// -----
// A reduce splits along the tiles (columns [1,8) -> [1,4) [4,8)); the
// readout keeps its box (the buffer's shape).
// CHECK-LABEL: func.func @reduce
// CHECK:         pimcmd.transpose_in %0 :
// CHECK-NEXT:    pimcmd.reduce add f32 dst 1 src 0 dim 1 domain [0:8, 1:4]{{$}}
// CHECK-NEXT:    pimcmd.reduce add f32 dst 1 src 0 dim 1 domain [0:8, 4:8]{{$}}
// CHECK-NEXT:    pimcmd.readout f32 src 1 domain [0:8, 0:8] id 0{{$}}
// CHECK-NEXT:    pimcmd.near_reduce
func.func @reduce(%A: memref<8x8xf32>) -> f32 {
  %s = pimcmd.program ins(%A : memref<8x8xf32>) config tiny lattice [8, 8] tiles [4, 4] banks 4 arrays_per_bank 2 wordlines 256 virtual -> f32 {
  ^bb0(%0: memref<8x8xf32>):
    pimcmd.array %0 shape [8, 8] wordline 0 transposed : memref<8x8xf32>
    pimcmd.transpose_in %0 : memref<8x8xf32>
    pimcmd.reduce add f32 dst 1 src 0 dim 1 domain [0:8, 1:8]
    pimcmd.readout f32 src 1 domain [0:8, 0:8] id 0
    pimcmd.near_reduce add f32 in 0 dims [0, 1] step [1, 4] out 1
    pimcmd.result index 0 id 1
  }
  func.return %s : f32
}

// -----
// Register 2 is written by the copy in place and the move of a wide bc
// (expand-mv-bc): both pieces of its copy are kept exact, so the move's cells
// are not overwritten; register 3, written once, is not split.
// CHECK-LABEL: func.func @written_twice
// CHECK:         pimcmd.transpose_in %1 :
// CHECK-NEXT:    pimcmd.compute copy f32 dst 2 srcs [0] domain [1:3, 2:4]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 2 srcs [0] domain [1:3, 4:8]{{$}}
// CHECK-NEXT:    pimcmd.mv f32 dst 2 src 0 dim 0 dist 2 domain [1:3, 2:4]{{$}}
// CHECK-NEXT:    pimcmd.mv f32 dst 2 src 0 dim 0 dist 2 domain [1:3, 4:8]{{$}}
// CHECK-NEXT:    pimcmd.compute neg f32 dst 3 srcs [2] domain [1:5, 2:8]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs [3] domain [1:4, 2:4]{{$}}
func.func @written_twice(%A: memref<12x8xf32>, %B: memref<12x8xf32>) {
  pimcmd.program ins(%A, %B : memref<12x8xf32>, memref<12x8xf32>) config tiny lattice [12, 8] tiles [4, 4] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<12x8xf32>, %1: memref<12x8xf32>):
    pimcmd.array %0 shape [12, 8] wordline 0 transposed : memref<12x8xf32>
    pimcmd.array %1 shape [12, 8] wordline 1 transposed : memref<12x8xf32>
    pimcmd.transpose_in %0 : memref<12x8xf32>
    pimcmd.transpose_in %1 : memref<12x8xf32>
    pimcmd.compute copy f32 dst 2 srcs [0] domain [1:3, 2:8]
    pimcmd.mv f32 dst 2 src 0 dim 0 dist 2 domain [1:3, 2:8]
    pimcmd.compute neg f32 dst 3 srcs [2] domain [1:5, 2:8]
    pimcmd.compute copy f32 dst 1 srcs [3] domain [1:5, 2:8]
    pimcmd.release %1 : memref<12x8xf32>
  }
  func.return
}


// -----
// A program whose registers are already wordlines is past this pass.
// CHECK-NOT:   Traceback
// CHECK:       error: pass 'decompose' failed: the pimcmd.program at {{.*}}decompose.mlir:[[# @LINE + 2]]:3 in @allocated: 'decompose' runs before allocate-wordlines (the program's registers are already wordlines)
func.func @allocated(%A: memref<64xf32>) {
  pimcmd.program ins(%A : memref<64xf32>) config tiny lattice [64] tiles [16] banks 4 arrays_per_bank 2 wordlines 256 {
  ^bb0(%0: memref<64xf32>):
    pimcmd.array %0 shape [64] wordline 0 transposed : memref<64xf32>
    pimcmd.transpose_in %0 : memref<64xf32>
    pimcmd.compute neg f32 dst 32 srcs [0] bitlines 0:1:16 tiles 0:1:4
    pimcmd.compute copy f32 dst 0 srcs [32] bitlines 0:1:16 tiles 0:1:4
    pimcmd.release %0 : memref<64xf32>
  }
  func.return
}
// CHECK-NOT:   Traceback
