// decompose (Alg. 1) of unaligned 2-D tensors: a 12x8 lattice in 4x4 tiles
// (grid 3x2, tile t = 2*row + col).  The per-dim intervals are crossed, dim 0
// outermost (Alg. 1 lines 7-18); lower-compute then gives each piece one
// tile pattern and one in-tile bitline pattern.
//
// RUN: infs-opt --specialize --choose-layout='config=tiny tiles=4x4' --tdfg-to-pimcmd --expand-mv-bc --decompose %s | filecheck %s
// RUN: infs-opt --specialize --choose-layout='config=tiny tiles=4x4' --tdfg-to-pimcmd --expand-mv-bc --decompose --lower-shift --lower-reduce --lower-compute %s | filecheck %s --check-prefix=PAT

// [1,11) -> head [1,4), middle [4,8), tail [8,11); [0,6) -> [0,4), tail [4,6)
// CHECK-LABEL: func.func @cross
// CHECK:           pimcmd.transpose_in %1
// the compute into a temporary stays whole (don't-care cells), the store into
// B's register is decomposed
// CHECK-NEXT:      pimcmd.compute neg f32 dst [[R:[0-9]+]] srcs [0] domain [1:11, 0:6]{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] domain [1:4, 0:4]{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] domain [1:4, 4:6]{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] domain [4:8, 0:4]{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] domain [4:8, 4:6]{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] domain [8:11, 0:4]{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] domain [8:11, 4:6]{{$}}
// PAT-LABEL: func.func @cross
// PAT:           pimcmd.transpose_in %1
// the temporary: the covering tiles whole; the store: rows 1-3 of tile 0;
// rows 1-3 x cols 0-1 of tile 1; all of tile 2; ...
// PAT-NEXT:      pimcmd.compute neg f32 dst [[R:[0-9]+]] srcs [0] bitlines 0:1:16 tiles 0:1:6{{$}}
// PAT-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] bitlines 4:1:12 tiles 0:1:1{{$}}
// PAT-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] bitlines 4:1:2:4:3 tiles 1:1:1{{$}}
// PAT-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] bitlines 0:1:16 tiles 2:1:1{{$}}
// PAT-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] bitlines 0:1:2:4:4 tiles 3:1:1{{$}}
// PAT-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] bitlines 0:1:12 tiles 4:1:1{{$}}
// PAT-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[R]]] bitlines 0:1:2:4:3 tiles 5:1:1{{$}}
func.func @cross(%A: memref<12x8xf32>, %B: memref<12x8xf32>) {
  tdfg.graph ins(%A, %B : memref<12x8xf32>, memref<12x8xf32>) rank 2 {
  ^bb0(%a: memref<12x8xf32>, %b: memref<12x8xf32>):
    %0 = tdfg.tensor %a [1:11, 0:6] : memref<12x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.cmp neg(%0) : !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 2> -> memref<12x8xf32>
    tdfg.yield
  }
  func.return
}

// Whole tiles in both dims and a box inside one tile stay one piece each.
// CHECK-LABEL: func.func @aligned_and_inside
// CHECK:           pimcmd.transpose_in %1
// CHECK-NEXT:      pimcmd.compute abs f32 dst {{[0-9]+}} srcs [0] domain [4:12, 0:8]{{$}}
// CHECK-NEXT:      pimcmd.compute neg f32 dst {{[0-9]+}} srcs [0] domain [5:7, 1:3]{{$}}
// PAT-LABEL: func.func @aligned_and_inside
// PAT:           pimcmd.transpose_in %1
// PAT-NEXT:      pimcmd.compute abs f32 dst {{[0-9]+}} srcs [0] bitlines 0:1:16 tiles 2:1:4{{$}}
// PAT-NEXT:      pimcmd.compute neg f32 dst {{[0-9]+}} srcs [0] bitlines 5:1:2:4:2 tiles 2:1:1{{$}}
func.func @aligned_and_inside(%A: memref<12x8xf32>, %B: memref<12x8xf32>) {
  tdfg.graph ins(%A, %B : memref<12x8xf32>, memref<12x8xf32>) rank 2 {
  ^bb0(%a: memref<12x8xf32>, %b: memref<12x8xf32>):
    %0 = tdfg.tensor %a [4:12, 0:8] : memref<12x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.cmp abs(%0) : !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    %2 = tdfg.tensor %a [5:7, 1:3] : memref<12x8xf32> -> !tdfg.tensor<f32, 2>
    %3 = tdfg.cmp neg(%2) : !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 2> -> memref<12x8xf32>
    tdfg.store %3 -> %b : !tdfg.tensor<f32, 2> -> memref<12x8xf32>
    tdfg.yield
  }
  func.return
}

// mv splits its source box [2,6) x [3,7) -> rows [2,4) [4,6) x cols [3,4) [4,7).
// CHECK-LABEL: func.func @mv_source_2d
// CHECK:           pimcmd.transpose_in %1
// CHECK-NEXT:      pimcmd.mv f32 dst [[M:[0-9]+]] src 0 dim 0 dist 5 domain [2:4, 3:4]{{$}}
// CHECK-NEXT:      pimcmd.mv f32 dst [[M]] src 0 dim 0 dist 5 domain [2:4, 4:7]{{$}}
// CHECK-NEXT:      pimcmd.mv f32 dst [[M]] src 0 dim 0 dist 5 domain [4:6, 3:4]{{$}}
// CHECK-NEXT:      pimcmd.mv f32 dst [[M]] src 0 dim 0 dist 5 domain [4:6, 4:7]{{$}}
// CHECK-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[M]]] domain [7:8, 3:4]{{$}}
// Along dim 0 (t = 4, d = 5: Alg. 2 gives (mask [0:3], +1 tile, +1 row) and
// (mask [3:4], +2 tiles, -3 rows)); the tail rows [4,6) miss mask [3:4].
// PAT-LABEL: func.func @mv_source_2d
// PAT:           pimcmd.transpose_in %1
// PAT-NEXT:      pimcmd.shift f32 dst [[M:[0-9]+]] src 0 dim 0 mask [2:3] inter 1 intra 1 bitlines 11:1:1 tiles 0:1:1{{$}}
// PAT-NEXT:      pimcmd.shift f32 dst [[M]] src 0 dim 0 mask [3:4] inter 2 intra -3 bitlines 15:1:1 tiles 0:1:1{{$}}
// PAT-NEXT:      pimcmd.shift f32 dst [[M]] src 0 dim 0 mask [2:3] inter 1 intra 1 bitlines 8:1:3 tiles 1:1:1{{$}}
// PAT-NEXT:      pimcmd.shift f32 dst [[M]] src 0 dim 0 mask [3:4] inter 2 intra -3 bitlines 12:1:3 tiles 1:1:1{{$}}
// PAT-NEXT:      pimcmd.shift f32 dst [[M]] src 0 dim 0 mask [0:2] inter 1 intra 1 bitlines 3:4:2 tiles 2:1:1{{$}}
// PAT-NEXT:      pimcmd.shift f32 dst [[M]] src 0 dim 0 mask [0:2] inter 1 intra 1 bitlines 0:1:3:4:2 tiles 3:1:1{{$}}
// PAT-NEXT:      pimcmd.compute copy f32 dst 1 srcs {{\[}}[[M]]] bitlines 15:1:1 tiles 2:1:1{{$}}
func.func @mv_source_2d(%A: memref<12x8xf32>, %B: memref<12x8xf32>) {
  tdfg.graph ins(%A, %B : memref<12x8xf32>, memref<12x8xf32>) rank 2 {
  ^bb0(%a: memref<12x8xf32>, %b: memref<12x8xf32>):
    %0 = tdfg.tensor %a [2:6, 3:7] : memref<12x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.mv %0 dim 0 dist 5 : !tdfg.tensor<f32, 2>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 2> -> memref<12x8xf32>
    tdfg.yield
  }
  func.return
}
