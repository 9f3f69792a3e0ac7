// --verify-diagnostics and pass failures: a pass error about an op (a
// lower-pim error names "the tdfg.graph at f:L:C", the op's location, which
// the error carries as data) is announced by an expected-error on the op's
// line, as mlir-opt matches a pass failure emitted on an op.  This file
// passes (exit 0); its Inputs/ copy with an annotation a line off fails,
// naming the op's line.  An error about no op still needs @unknown.
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics -p tdfg-to-pimcmd,lower-shift
// RUN: not infs-opt %S/Inputs/expected-pass-wrong-line.mlir --verify-diagnostics -p tdfg-to-pimcmd 2>&1 | filecheck %s --check-prefix=LINE
// RUN: infs-opt %S/Inputs/expected-pass-unknown.mlir --verify-diagnostics -p 'optimize-tdfg{node-limit=-1}'

// read_layout's error (a LayoutError), reported at the graph
func.func @no_layout(%A: memref<64xf32>, %B: memref<64xf32>) {
  // expected-error @+1 {{pass 'tdfg-to-pimcmd' failed: the tdfg.graph at}}
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 attributes {infs.sizes = {}} {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [0:64] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    tdfg.store %0 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// -----

// the converter's own error (a LoweringError), annotated below
func.func @partials_to_cmp(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  // expected-error-re @below {{in @partials_to_cmp: the partial results of {{.*}} can only feed 'tdfg.stream_reduce'}}
  tdfg.graph ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) rank 2 attributes {infs.sizes = {}, infs.layout = {config = "tiny", lattice = array<i64: 8, 8>, tiles = array<i64: 2, 8>, laid_out = array<i64: 0, 1>, shapes = [array<i64: 8, 8>, array<i64: 8, 8>]}} {
  ^bb0(%a: memref<8x8xf32>, %b: memref<8x8xf32>):
    %0 = tdfg.tensor %a [0:8, 0:8] : memref<8x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.reduce add %0 dim 1 : !tdfg.tensor<f32, 2>
    %2 = tdfg.cmp neg(%1) : !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    tdfg.store %2 -> %b : !tdfg.tensor<f32, 2> -> memref<8x8xf32>
    tdfg.yield
  }
  func.return
}

// -----

// a record-level pass (lower-shift) on a program: its error is at the program
func.func @not_decomposed(%A: memref<64xf32>, %B: memref<64xf32>) {
  pimcmd.program ins(%A, %B : memref<64xf32>, memref<64xf32>) config tiny lattice [64] tiles [16] banks 4 arrays_per_bank 2 wordlines 256 virtual { // expected-error {{'mv' box [0:61] is not decomposed}}
  ^bb0(%0: memref<64xf32>, %1: memref<64xf32>):
    pimcmd.array %0 shape [64] wordline 0 transposed : memref<64xf32>
    pimcmd.array %1 shape [64] wordline 1 transposed : memref<64xf32>
    pimcmd.transpose_in %0 : memref<64xf32>
    pimcmd.transpose_in %1 : memref<64xf32>
    pimcmd.mv f32 dst 2 src 0 dim 0 dist 3 domain [0:61]
    pimcmd.compute copy f32 dst 1 srcs [2] domain [3:64]
    pimcmd.release %1 : memref<64xf32>
  }
  func.return
}

// LINE-NOT:   Traceback
// LINE:       expected-pass-wrong-line.mlir:5:3: error: unexpected error: pass 'tdfg-to-pimcmd' failed: the tdfg.graph at {{.*}}expected-pass-wrong-line.mlir:5:3 in @no_layout: it has no layout (infs.layout): run choose-layout first
// LINE-NEXT:  expected-pass-wrong-line.mlir:3:6: error: expected error "has no layout" was not produced
// LINE-NOT:   {{.}}
