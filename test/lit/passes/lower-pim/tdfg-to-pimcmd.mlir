// tdfg-to-pimcmd: a laid-out tdfg.graph (the output of choose-layout, its
// `infs.layout` attribute) becomes a domain-form pimcmd.program (`virtual`):
// one register per tensor value, commands still on lattice boxes.  Arrays
// read as tensors or stored to get an `array` entry and a `transpose_in`,
// the written ones a `release`; element-wise ops become `compute`, `mv`/`bc`
// keep only the cells landing inside the lattice (§3.2), `reduce` and the
// embedded streams become `reduce`/`readout`/`near_*` (§3.3, Fig. 4b).
// The inputs are choose-layout's printed output on `tiny`.
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics -p tdfg-to-pimcmd | filecheck %s

// A constant operand is folded into the compute (`const`), the commutative
// mul taking it last; the store is a copy into B's register (1).
// CHECK-LABEL: func.func @cmp_const_store
// CHECK:         pimcmd.program ins({{.*}}) config tiny lattice [64] tiles [16] banks 4 arrays_per_bank 2 wordlines 256 virtual {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xf32>):
// CHECK-NEXT:      pimcmd.array %[[A]] shape [64] wordline 0 transposed : memref<64xf32>
// CHECK-NEXT:      pimcmd.array %[[B]] shape [64] wordline 1 transposed : memref<64xf32>
// CHECK-NEXT:      pimcmd.transpose_in %[[A]] : memref<64xf32>
// CHECK-NEXT:      pimcmd.transpose_in %[[B]] : memref<64xf32>
// CHECK-NEXT:      pimcmd.compute mul f32 dst [[R:[0-9]+]] srcs [0] const 2.0 domain [5:60]{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] domain [5:60]{{$}}
// CHECK-NEXT:      pimcmd.release %[[B]] : memref<64xf32>
// CHECK-NEXT:    }
// CHECK-NOT:     tdfg.
func.func @cmp_const_store(%A: memref<64xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 attributes {infs.sizes = {}, infs.layout = {config = "tiny", lattice = array<i64: 64>, tiles = array<i64: 16>, laid_out = array<i64: 0, 1>, shapes = [array<i64: 64>, array<i64: 64>]}} {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [5:60] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %k = tdfg.const 2.0 : !tdfg.tensor<f32, 1>
    %1 = tdfg.cmp mul(%k, %0) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// -----
// A move of [0,64) by 20: only the source cells [0,44) land inside the lattice.
// CHECK-LABEL: func.func @mv_clipped
// CHECK:         pimcmd.transpose_in %1 :
// CHECK-NEXT:    pimcmd.mv f32 dst [[R:[0-9]+]] src 0 dim 0 dist 20 domain [0:44]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] domain [20:64]{{$}}
// CHECK-NEXT:    pimcmd.release
// CHECK-NOT:     tdfg.
func.func @mv_clipped(%A: memref<64xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 attributes {infs.sizes = {}, infs.layout = {config = "tiny", lattice = array<i64: 64>, tiles = array<i64: 16>, laid_out = array<i64: 0, 1>, shapes = [array<i64: 64>, array<i64: 64>]}} {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [0:64] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.mv %0 dim 0 dist 20 : !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// -----
// Broadcasts (16x8 lattice in 2x8 tiles): a one-row bc keeps the copies
// inside the lattice (count 40 -> 15); a two-row bc whose last copy is cut by
// the lattice's edge keeps the whole copies as a bc (count 2) and the cut one
// as a mv of its inside row.
// CHECK-LABEL: func.func @bc
// CHECK:         pimcmd.transpose_in %1 :
// CHECK-NEXT:    pimcmd.bc f32 dst [[R1:[0-9]+]] src 0 dim 0 dist 1 count 15 domain [0:1, 2:6]{{$}}
// CHECK-NEXT:    pimcmd.bc f32 dst [[R2:[0-9]+]] src 0 dim 0 dist 11 count 2 domain [0:2, 0:8]{{$}}
// CHECK-NEXT:    pimcmd.mv f32 dst [[R2]] src 0 dim 0 dist 15 domain [0:1, 0:8]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R1]]] domain [1:16, 2:6]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R2]]] domain [11:16, 0:8]{{$}}
// CHECK-NEXT:    pimcmd.release
func.func @bc(%A: memref<16x8xf32>, %B: memref<16x8xf32>) {
  tdfg.graph ins(%A, %B : memref<16x8xf32>, memref<16x8xf32>) rank 2 attributes {infs.sizes = {}, infs.layout = {config = "tiny", lattice = array<i64: 16, 8>, tiles = array<i64: 2, 8>, laid_out = array<i64: 0, 1>, shapes = [array<i64: 16, 8>, array<i64: 16, 8>]}} {
  ^bb0(%a: memref<16x8xf32>, %b: memref<16x8xf32>):
    %0 = tdfg.tensor %a [0:1, 2:6] : memref<16x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.bc %0 dim 0 dist 1 count 40 : !tdfg.tensor<f32, 2>
    %2 = tdfg.tensor %a [0:2, 0:8] : memref<16x8xf32> -> !tdfg.tensor<f32, 2>
    %3 = tdfg.bc %2 dim 0 dist 11 count 3 : !tdfg.tensor<f32, 2>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 2> -> memref<16x8xf32>
    tdfg.store %3 -> %b : !tdfg.tensor<f32, 2> -> memref<16x8xf32>
    tdfg.yield
  }
  func.return
}

// -----
// An in-memory reduce leaves partials at each tile's first cell (Fig. 4b):
// stream_reduce reads the tile-aligned box out and keeps every 8th cell
// along dim 1 (`step`); the graph's scalar result is the near_reduce's buffer.
// CHECK-LABEL: func.func @reduce
// CHECK:         %{{.*}} = pimcmd.program ins({{.*}}) config tiny lattice [8, 8] tiles [2, 8] {{.*}} virtual -> f32 {
// CHECK:         pimcmd.transpose_in
// CHECK-NEXT:    pimcmd.reduce add f32 dst [[R:[0-9]+]] src 0 dim 1 domain [0:8, 1:8]{{$}}
// CHECK-NEXT:    pimcmd.readout f32 src [[R]] domain [0:8, 0:8] id [[IN:[0-9]+]]{{$}}
// CHECK-NEXT:    pimcmd.near_reduce add f32 in [[IN]] dims [0, 1] step [1, 8] out [[OUT:[0-9]+]]{{$}}
// CHECK-NEXT:    pimcmd.result index 0 id [[OUT]]{{$}}
// CHECK-NOT:     pimcmd.release
// CHECK:         func.return
func.func @reduce(%A: memref<8x8xf32>) -> f32 {
  %s = tdfg.graph ins(%A : memref<8x8xf32>) rank 2 -> f32 attributes {infs.sizes = {}, infs.layout = {config = "tiny", lattice = array<i64: 8, 8>, tiles = array<i64: 2, 8>, laid_out = array<i64: 0>, shapes = [array<i64: 8, 8>]}} {
  ^bb0(%a: memref<8x8xf32>):
    %0 = tdfg.tensor %a [0:8, 1:8] : memref<8x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.reduce add %0 dim 1 : !tdfg.tensor<f32, 2>
    %2 = tdfg.stream_reduce add %1 over [0, 1] : !tdfg.tensor<f32, 2> -> f32
    tdfg.yield %2 : f32
  }
  func.return %s : f32
}

// -----
// Embedded streams run near memory: the index tensor is read out, the
// gather is a near_load written into a register, the scattering stream_store
// a near_store after the stores.  X is not laid out (no array entry).  B is
// only written, and whole: allocated, not fetched (no transpose_in), and the
// neg computes straight into B's register (no copy).
// CHECK-LABEL: func.func @near
// CHECK:         ^bb0(%[[I:.*]]: memref<64xi32>, %[[X:.*]]: memref<128xf32>, %[[B:.*]]: memref<64xf32>):
// CHECK-NEXT:      pimcmd.array %[[I]] shape [64] wordline 0 transposed : memref<64xi32>
// CHECK-NEXT:      pimcmd.array %[[B]] shape [64] wordline [[N:[0-9]+]] transposed : memref<64xf32>
// CHECK-NEXT:      pimcmd.transpose_in %[[I]]
// CHECK-NEXT:      pimcmd.readout i32 src 0 domain [0:64] id [[IDX:[0-9]+]]{{$}}
// CHECK-NEXT:      pimcmd.near_load f32 %[[X]] map [0] indirect [0] indices {{\[}}[[IDX]]] domain [0:64] out [[G:[0-9]+]] : memref<128xf32>
// CHECK-NEXT:      pimcmd.writein f32 dst [[GR:[0-9]+]] domain [0:64] id [[G]]{{$}}
// CHECK-NEXT:      pimcmd.compute neg f32 dst [[N]] srcs {{\[}}[[GR]]] domain [0:64]{{$}}
// CHECK-NEXT:      pimcmd.readout f32 src [[N]] domain [0:64] id [[NB:[0-9]+]]{{$}}
// CHECK-NEXT:      pimcmd.readout i32 src 0 domain [0:64] id [[IDX2:[0-9]+]]{{$}}
// CHECK-NEXT:      pimcmd.near_store add f32 in [[NB]] -> %[[X]] map [0] indirect [0] indices {{\[}}[[IDX2]]] : memref<128xf32>
// CHECK-NEXT:      pimcmd.release %[[B]]
func.func @near(%I: memref<64xi32>, %X: memref<128xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%I, %X, %B : memref<64xi32>, memref<128xf32>, memref<64xf32>) rank 1 attributes {infs.sizes = {}, infs.layout = {config = "tiny", lattice = array<i64: 64>, tiles = array<i64: 16>, laid_out = array<i64: 0, 2>, shapes = [array<i64: 64>, array<i64>, array<i64: 64>]}} {
  ^bb0(%i: memref<64xi32>, %x: memref<128xf32>, %b: memref<64xf32>):
    %idx = tdfg.tensor %i [0:64] : memref<64xi32> -> !tdfg.tensor<i32, 1>
    %g = tdfg.stream_load %x[%idx] over [0:64] : !tdfg.tensor<i32, 1>, memref<128xf32> -> !tdfg.tensor<f32, 1>
    %n = tdfg.cmp neg(%g) : !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.store %n -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.stream_store add %n -> %x[%idx] : !tdfg.tensor<f32, 1>, !tdfg.tensor<i32, 1> -> memref<128xf32>
    tdfg.yield
  }
  func.return
}

// -----
// Tensors read the arrays as they were on entry: swapping A and B snapshots
// both registers before either store lands.
// CHECK-LABEL: func.func @swap_arrays
// CHECK:         pimcmd.transpose_in
// CHECK-NEXT:    pimcmd.transpose_in
// CHECK-NEXT:    pimcmd.compute copy f32 dst [[SA:[0-9]+]] srcs [0] domain [0:64]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst [[SB:[0-9]+]] srcs [1] domain [0:64]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs {{\[}}[[SA]]] domain [0:64]{{$}}
// CHECK-NEXT:    pimcmd.compute copy f32 dst 0 srcs {{\[}}[[SB]]] domain [0:64]{{$}}
// CHECK-NEXT:    pimcmd.release
// CHECK-NEXT:    pimcmd.release
func.func @swap_arrays(%A: memref<64xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 attributes {infs.sizes = {}, infs.layout = {config = "tiny", lattice = array<i64: 64>, tiles = array<i64: 16>, laid_out = array<i64: 0, 1>, shapes = [array<i64: 64>, array<i64: 64>]}} {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [0:64] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.tensor %b [0:64] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    tdfg.store %0 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.store %1 -> %a : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// -----
// Errors: one line each, naming the graph where the pass knows it.
// CHECK-NOT:   Traceback
// CHECK:       error: pass 'tdfg-to-pimcmd' failed: the tdfg.graph at {{.*}}tdfg-to-pimcmd.mlir:[[# @LINE + 2]]:3 in @no_layout: it has no layout (infs.layout): run choose-layout first
func.func @no_layout(%A: memref<64xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 attributes {infs.sizes = {}} {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [0:64] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    tdfg.store %0 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// -----
// A malformed layout (the attribute can come from a file) is one line, not a KeyError.
// CHECK:       error: pass 'tdfg-to-pimcmd' failed: the tdfg.graph at {{.*}}tdfg-to-pimcmd.mlir:[[# @LINE + 2]]:3 in @malformed_layout: malformed infs.layout: 'shapes' must be a list of array<i64: ...>
func.func @malformed_layout(%A: memref<64xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 attributes {infs.sizes = {}, infs.layout = {config = "tiny"}} {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [0:64] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    tdfg.store %0 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// -----
// CHECK:       error: pass 'tdfg-to-pimcmd' failed: the tdfg.graph at {{.*}}tdfg-to-pimcmd.mlir:[[# @LINE + 2]]:3 in @partials_to_cmp: the partial results of 'tdfg.reduce' can only feed 'tdfg.stream_reduce'
func.func @partials_to_cmp(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
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
// CHECK:       error: pass 'tdfg-to-pimcmd' failed: the tdfg.graph at {{.*}}tdfg-to-pimcmd.mlir:[[# @LINE + 2]]:3 in @incomplete_reduce: 'tdfg.stream_reduce' over [0] does not complete the in-memory reduce over dim 1
func.func @incomplete_reduce(%A: memref<8x8xf32>, %B: memref<8xf32>) {
  tdfg.graph ins(%A, %B : memref<8x8xf32>, memref<8xf32>) rank 2 attributes {infs.sizes = {}, infs.layout = {config = "tiny", lattice = array<i64: 8, 8>, tiles = array<i64: 2, 8>, laid_out = array<i64: 0>, shapes = [array<i64: 8, 8>]}} {
  ^bb0(%a: memref<8x8xf32>, %b: memref<8xf32>):
    %0 = tdfg.tensor %a [0:8, 0:8] : memref<8x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.reduce add %0 dim 1 : !tdfg.tensor<f32, 2>
    %2 = tdfg.stream_reduce add %1 over [0] : !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    tdfg.store %2 -> %b : !tdfg.tensor<f32, 2> -> memref<8xf32>
    tdfg.yield
  }
  func.return
}
// CHECK-NOT:   Traceback

// -----
// An array the graph only writes, and writes whole, is allocated, not fetched:
// no transpose_in for C, and the add computes straight into C's register (no
// spare register, no copy); its release stays.
// CHECK-LABEL: func.func @write_only
// CHECK:         ^bb0(%[[A:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xf32>, %[[C:.*]]: memref<64xf32>):
// CHECK-NEXT:      pimcmd.array %[[A]] shape [64] wordline 0 transposed
// CHECK-NEXT:      pimcmd.array %[[B]] shape [64] wordline 1 transposed
// CHECK-NEXT:      pimcmd.array %[[C]] shape [64] wordline [[R:[0-9]+]] transposed
// CHECK-NEXT:      pimcmd.transpose_in %[[A]]
// CHECK-NEXT:      pimcmd.transpose_in %[[B]]
// CHECK-NEXT:      pimcmd.compute add f32 dst [[R]] srcs [0, 1] domain [0:64]{{$}}
// CHECK-NEXT:      pimcmd.release %[[C]]
// CHECK-NEXT:    }
func.func @write_only(%A: memref<64xf32>, %B: memref<64xf32>, %C: memref<64xf32>) {
  tdfg.graph ins(%A, %B, %C : memref<64xf32>, memref<64xf32>, memref<64xf32>) rank 1 attributes {infs.sizes = {}, infs.layout = {config = "tiny", lattice = array<i64: 64>, tiles = array<i64: 16>, laid_out = array<i64: 0, 1, 2>, shapes = [array<i64: 64>, array<i64: 64>, array<i64: 64>]}} {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>, %c: memref<64xf32>):
    %0 = tdfg.tensor %a [0:64] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.tensor %b [0:64] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %2 = tdfg.cmp add(%0, %1) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.store %2 -> %c : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// -----
// A partial write (a stencil's interior [1:63]) keeps the fetch: the release
// writes back every cell, and the two the graph does not write keep their values.
// CHECK-LABEL: func.func @partial_write
// CHECK:         ^bb0(%[[A:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xf32>):
// CHECK-NEXT:      pimcmd.array %[[A]] shape [64] wordline 0 transposed
// CHECK-NEXT:      pimcmd.array %[[B]] shape [64] wordline 1 transposed
// CHECK-NEXT:      pimcmd.transpose_in %[[A]]
// CHECK-NEXT:      pimcmd.transpose_in %[[B]]
// CHECK:           pimcmd.compute copy f32 dst 1 srcs {{\[}}{{[0-9]+}}] domain [1:63]{{$}}
// CHECK-NEXT:      pimcmd.release %[[B]]
func.func @partial_write(%A: memref<64xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 attributes {infs.sizes = {}, infs.layout = {config = "tiny", lattice = array<i64: 64>, tiles = array<i64: 16>, laid_out = array<i64: 0, 1>, shapes = [array<i64: 64>, array<i64: 64>]}} {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [1:63] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.cmp neg(%0) : !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// -----
// Two stores that together cover the array ([0:40] and [24:64]): not fetched;
// two stores, so the computes keep their registers and the copies keep the
// stores' order (the second one wins on [24:40]).
// CHECK-LABEL: func.func @two_stores_cover
// CHECK:         ^bb0(%[[A:.*]]: memref<64xf32>, %[[B:.*]]: memref<64xf32>):
// CHECK-NEXT:      pimcmd.array %[[A]] shape [64] wordline 0 transposed
// CHECK-NEXT:      pimcmd.array %[[B]] shape [64] wordline 1 transposed
// CHECK-NEXT:      pimcmd.transpose_in %[[A]]
// CHECK-NEXT:      pimcmd.compute neg f32 dst [[X:[0-9]+]] srcs [0] domain [0:40]{{$}}
// CHECK-NEXT:      pimcmd.compute abs f32 dst [[Y:[0-9]+]] srcs [0] domain [24:64]{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[X]]] domain [0:40]{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[Y]]] domain [24:64]{{$}}
// CHECK-NEXT:      pimcmd.release %[[B]]
func.func @two_stores_cover(%A: memref<64xf32>, %B: memref<64xf32>) {
  tdfg.graph ins(%A, %B : memref<64xf32>, memref<64xf32>) rank 1 attributes {infs.sizes = {}, infs.layout = {config = "tiny", lattice = array<i64: 64>, tiles = array<i64: 16>, laid_out = array<i64: 0, 1>, shapes = [array<i64: 64>, array<i64: 64>]}} {
  ^bb0(%a: memref<64xf32>, %b: memref<64xf32>):
    %0 = tdfg.tensor %a [0:40] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.cmp neg(%0) : !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    %2 = tdfg.tensor %a [24:64] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %3 = tdfg.cmp abs(%2) : !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.store %3 -> %b : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}

// -----
// An array the graph reads and writes (C += A) is fetched: the store needs its old values.
// CHECK-LABEL: func.func @read_write
// CHECK:         ^bb0(%[[A:.*]]: memref<64xf32>, %[[C:.*]]: memref<64xf32>):
// CHECK:           pimcmd.transpose_in %[[A]]
// CHECK-NEXT:      pimcmd.transpose_in %[[C]]
// CHECK-NEXT:      pimcmd.compute add f32 dst [[S:[0-9]+]] srcs [1, 0] domain [0:64]{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[S]]] domain [0:64]{{$}}
// CHECK-NEXT:      pimcmd.release %[[C]]
func.func @read_write(%A: memref<64xf32>, %C: memref<64xf32>) {
  tdfg.graph ins(%A, %C : memref<64xf32>, memref<64xf32>) rank 1 attributes {infs.sizes = {}, infs.layout = {config = "tiny", lattice = array<i64: 64>, tiles = array<i64: 16>, laid_out = array<i64: 0, 1>, shapes = [array<i64: 64>, array<i64: 64>]}} {
  ^bb0(%a: memref<64xf32>, %c: memref<64xf32>):
    %0 = tdfg.tensor %a [0:64] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.tensor %c [0:64] : memref<64xf32> -> !tdfg.tensor<f32, 1>
    %2 = tdfg.cmp add(%1, %0) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.store %2 -> %c : !tdfg.tensor<f32, 1> -> memref<64xf32>
    tdfg.yield
  }
  func.return
}
