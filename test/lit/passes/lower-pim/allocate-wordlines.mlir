// allocate-wordlines (§3.4): a linear scan over the command list; every
// virtual register gets the lowest free run of its width in wordlines (32
// for f32/i32, 8 for i8, 1 for a compare's i1 mask), is live from its first
// to its last command, and its wordlines are reused by registers first
// written after that.  Array registers are live for the whole program and
// their wordlines are never reused.  The `virtual` flag goes away.
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics -p allocate-wordlines | filecheck %s

// Array %a (register 0) is last read by the first command, yet no temporary
// takes its wordlines.  Register 2 (64) is still read by the command writing
// register 3, so 3 gets 96; register 4 comes after 2's last use and reuses 64.
// CHECK-LABEL: func.func @chain
// CHECK:         pimcmd.program {{.*}} wordlines 128 {
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      pimcmd.array %{{.*}} shape [4, 4] wordline 0 transposed
// CHECK-NEXT:      pimcmd.array %{{.*}} shape [4, 4] wordline 32 transposed
// CHECK-NEXT:      pimcmd.transpose_in
// CHECK-NEXT:      pimcmd.compute neg f32 dst 64 srcs [0] bitlines
// CHECK-NEXT:      pimcmd.compute abs f32 dst 96 srcs [64] bitlines
// CHECK-NEXT:      pimcmd.compute relu f32 dst 64 srcs [96] bitlines
// CHECK-NEXT:      pimcmd.compute neg f32 dst 96 srcs [64] bitlines
// CHECK-NEXT:      pimcmd.compute copy f32 dst 32 srcs [96] bitlines
// CHECK-NEXT:      pimcmd.release
func.func @chain(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  pimcmd.program ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) config fig9 lattice [4, 4] tiles [2, 2] banks 4 arrays_per_bank 1 wordlines 128 virtual {
  ^bb0(%a: memref<4x4xf32>, %b: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    pimcmd.array %b shape [4, 4] wordline 1 transposed : memref<4x4xf32>
    pimcmd.transpose_in %a : memref<4x4xf32>
    pimcmd.compute neg f32 dst 2 srcs [0] bitlines 0:1:4 tiles 0:1:4
    pimcmd.compute abs f32 dst 3 srcs [2] bitlines 0:1:4 tiles 0:1:4
    pimcmd.compute relu f32 dst 4 srcs [3] bitlines 0:1:4 tiles 0:1:4
    pimcmd.compute neg f32 dst 5 srcs [4] bitlines 0:1:4 tiles 0:1:4
    pimcmd.compute copy f32 dst 1 srcs [5] bitlines 0:1:4 tiles 0:1:4
    pimcmd.release %b : memref<4x4xf32>
  }
  func.return
}

// -----
// Widths: i8 arrays take 8 wordlines, compare masks 1.  A register written by
// several commands (a shift's pieces) is live across all of them.
// CHECK-LABEL: func.func @widths
// CHECK:         pimcmd.array %{{.*}} wordline 0 transposed
// CHECK-NEXT:    pimcmd.array %{{.*}} wordline 8 transposed
// CHECK-NEXT:    pimcmd.transpose_in
// CHECK-NEXT:    pimcmd.compute cmp_lt i8 dst 16 srcs [0, 0]
// CHECK-NEXT:    pimcmd.shift i8 dst 17 src 0 dim 1 mask [0:1]
// CHECK-NEXT:    pimcmd.compute add i8 dst 25 srcs [0, 0]
// CHECK-NEXT:    pimcmd.shift i8 dst 17 src 0 dim 1 mask [1:2]
// CHECK-NEXT:    pimcmd.compute select i8 dst 33 srcs [16, 17, 25]
// the mask, the shift result and the sum are dead: their wordlines are free
// CHECK-NEXT:    pimcmd.compute cmp_eq i8 dst 16 srcs [33, 0]
// CHECK-NEXT:    pimcmd.compute xor i8 dst 17 srcs [33, 0]
// CHECK-NEXT:    pimcmd.compute select i8 dst 8 srcs [16, 17, 33]
func.func @widths(%A: memref<4x4xi8>, %B: memref<4x4xi8>) {
  pimcmd.program ins(%A, %B : memref<4x4xi8>, memref<4x4xi8>) config fig9 lattice [4, 4] tiles [2, 2] banks 4 arrays_per_bank 1 wordlines 128 virtual {
  ^bb0(%a: memref<4x4xi8>, %b: memref<4x4xi8>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xi8>
    pimcmd.array %b shape [4, 4] wordline 1 transposed : memref<4x4xi8>
    pimcmd.transpose_in %a : memref<4x4xi8>
    pimcmd.compute cmp_lt i8 dst 2 srcs [0, 0] bitlines 0:1:4 tiles 0:1:4
    pimcmd.shift i8 dst 3 src 0 dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 0:1:4
    pimcmd.compute add i8 dst 4 srcs [0, 0] bitlines 0:1:4 tiles 0:1:4
    pimcmd.shift i8 dst 3 src 0 dim 1 mask [1:2] inter 0 intra -1 bitlines 1:2:2 tiles 0:1:4
    pimcmd.compute select i8 dst 5 srcs [2, 3, 4] bitlines 0:1:4 tiles 0:1:4
    pimcmd.compute cmp_eq i8 dst 6 srcs [5, 0] bitlines 0:1:4 tiles 0:1:4
    pimcmd.compute xor i8 dst 7 srcs [5, 0] bitlines 0:1:4 tiles 0:1:4
    pimcmd.compute select i8 dst 1 srcs [6, 7, 5] bitlines 0:1:4 tiles 0:1:4
    pimcmd.release %b : memref<4x4xi8>
  }
  func.return
}

// -----
// When the live registers do not fit an SRAM array's wordlines the pass
// stops with one line naming the program and the pressure (spilling is not
// implemented): `fig9` arrays have 128 wordlines = four f32 registers; the
// two arrays and the two moved tensors are live when the sum needs a fifth.
// The input is insert-sync's printed output.
// CHECK-NOT:   Traceback
// CHECK:       error: pass 'allocate-wordlines' failed: the pimcmd.program at {{.*}}allocate-wordlines.mlir:[[# @LINE + 2]]:3 in @pressure: wordline pressure: at command 11 the 4 live registers take 128 of 128 wordlines and a 32-bit register does not fit (spilling is not supported)
func.func @pressure(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  pimcmd.program ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) config fig9 lattice [4, 4] tiles [2, 2] banks 4 arrays_per_bank 1 wordlines 128 virtual {
  ^bb0(%0: memref<4x4xf32>, %1: memref<4x4xf32>):
    pimcmd.array %0 shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    pimcmd.array %1 shape [4, 4] wordline 1 transposed : memref<4x4xf32>
    pimcmd.transpose_in %0 : memref<4x4xf32>
    pimcmd.transpose_in %1 : memref<4x4xf32>
    pimcmd.shift f32 dst 2 src 0 dim 1 mask [1:2] inter 0 intra -1 bitlines 1:2:2 tiles 0:2:2 banks 0:2:2
    pimcmd.shift f32 dst 2 src 0 dim 1 mask [0:1] inter -1 intra 1 bitlines 0:2:2 tiles 1:2:2 banks 1:2:2
    pimcmd.shift f32 dst 2 src 0 dim 1 mask [1:2] inter 0 intra -1 bitlines 1:2:2 tiles 1:2:2 banks 1:2:2
    pimcmd.shift f32 dst 3 src 0 dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 0:2:2 banks 0:2:2
    pimcmd.shift f32 dst 3 src 0 dim 1 mask [1:2] inter 1 intra -1 bitlines 1:2:2 tiles 0:2:2 banks 0:2:2
    pimcmd.shift f32 dst 3 src 0 dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 1:2:2 banks 1:2:2
    pimcmd.sync
    pimcmd.compute add f32 dst 4 srcs [3, 2] bitlines 0:1:4 tiles 0:1:4 banks 0:1:4
    pimcmd.compute copy f32 dst 1 srcs [4] bitlines 1:2:2 tiles 0:2:2 banks 0:2:2
    pimcmd.compute copy f32 dst 1 srcs [4] bitlines 0:2:2 tiles 1:2:2 banks 1:2:2
    pimcmd.release %1 : memref<4x4xf32>
  }
  func.return
}

// -----
// A register read before any command writes it (a hand-edited program).
// CHECK:       error: pass 'allocate-wordlines' failed: the pimcmd.program at {{.*}}allocate-wordlines.mlir:[[# @LINE + 2]]:3 in @never_written: register 5 is read but never written
func.func @never_written(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  pimcmd.program ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) config fig9 lattice [4, 4] tiles [2, 2] banks 4 arrays_per_bank 1 wordlines 128 virtual {
  ^bb0(%0: memref<4x4xf32>, %1: memref<4x4xf32>):
    pimcmd.array %0 shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    pimcmd.array %1 shape [4, 4] wordline 1 transposed : memref<4x4xf32>
    pimcmd.transpose_in %0 : memref<4x4xf32>
    pimcmd.compute add f32 dst 1 srcs [0, 5] bitlines 0:1:4 tiles 0:1:4 banks 0:1:4
    pimcmd.release %1 : memref<4x4xf32>
  }
  func.return
}

// -----
// A program already allocated (no `virtual`): allocating it again would read
// its wordlines as registers.
// CHECK:       error: pass 'allocate-wordlines' failed: the pimcmd.program at {{.*}}allocate-wordlines.mlir:[[# @LINE + 2]]:3 in @allocated: the program's wordlines are already allocated (it is not 'virtual'); allocate-wordlines runs once
func.func @allocated(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config fig9 lattice [4, 4] tiles [2, 2] banks 4 arrays_per_bank 1 wordlines 128 {
  ^bb0(%0: memref<4x4xf32>):
    pimcmd.array %0 shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    pimcmd.transpose_in %0 : memref<4x4xf32>
    pimcmd.compute neg f32 dst 32 srcs [0] bitlines 0:1:4 tiles 0:1:4 banks 0:1:4
    pimcmd.release %0 : memref<4x4xf32>
  }
  func.return
}

// -----
// A program still in domain form (lower-compute not run): allocation must
// refuse it and name the pass that is missing, not hand the verifier an
// allocated program holding a domain-form 'compute'.
// CHECK:       error: pass 'allocate-wordlines' failed: the pimcmd.program at {{.*}}allocate-wordlines.mlir:[[# @LINE + 2]]:3 in @domain_form: the domain-form 'compute' is left in the program: run lower-compute first
func.func @domain_form(%A: memref<64xf32>, %B: memref<64xf32>) {
  pimcmd.program ins(%A, %B : memref<64xf32>, memref<64xf32>) config "small-16" lattice [64] tiles [64] banks 16 arrays_per_bank 8 wordlines 256 virtual {
  ^bb0(%0: memref<64xf32>, %1: memref<64xf32>):
    pimcmd.array %0 shape [64] wordline 0 transposed : memref<64xf32>
    pimcmd.array %1 shape [64] wordline 1 transposed : memref<64xf32>
    pimcmd.transpose_in %0 : memref<64xf32>
    pimcmd.compute neg f32 dst 2 srcs [0] domain [0:64]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [0:64]
    pimcmd.release %1 : memref<64xf32>
  }
  func.return
}

// -----
// A program still holding a tensor-level move (lower-shift not run).
// CHECK:       error: pass 'allocate-wordlines' failed: the pimcmd.program at {{.*}}allocate-wordlines.mlir:[[# @LINE + 2]]:3 in @tensor_level: 'mv' left in the program: run lower-shift and lower-reduce, then lower-compute, first
func.func @tensor_level(%A: memref<64xf32>, %B: memref<64xf32>) {
  pimcmd.program ins(%A, %B : memref<64xf32>, memref<64xf32>) config tiny lattice [64] tiles [16] banks 4 arrays_per_bank 2 wordlines 256 virtual {
  ^bb0(%0: memref<64xf32>, %1: memref<64xf32>):
    pimcmd.array %0 shape [64] wordline 0 transposed : memref<64xf32>
    pimcmd.array %1 shape [64] wordline 1 transposed : memref<64xf32>
    pimcmd.transpose_in %0 : memref<64xf32>
    pimcmd.mv f32 dst 2 src 0 dim 0 dist 3 domain [0:48]
    pimcmd.compute copy f32 dst 1 srcs [2] bitlines 3:1:13 tiles 0:1:1
    pimcmd.release %1 : memref<64xf32>
  }
  func.return
}
// CHECK-NOT:   Traceback
