// Sync placement (§4.2 "Synchronization"): inter-tile shifts finish once
// their packets are injected, so a `sync` goes between an inter-tile move and
// the first command reading its result; pure intra-tile shift and compute
// sequences get none.  8x8 lattice in 4x4 tiles (grid 2x2).
//
// RUN: infs-opt --specialize --choose-layout='config=tiny tiles=4x4' --tdfg-to-pimcmd --expand-mv-bc --decompose --lower-shift --lower-reduce --lower-compute --map-banks --insert-sync %s | filecheck %s

// The compute between the inter-tile shift and its consumer does not read
// the moved value: the sync goes right before the consumer.
// CHECK-LABEL: func.func @inter_then_consumer
// CHECK:         pimcmd.transpose_in %1
// CHECK-NEXT:    pimcmd.shift f32 dst [[M:[0-9]+]] src 0 dim 1 mask [0:4] inter 1 intra 0
// CHECK-NEXT:    pimcmd.compute neg f32 dst [[N:[0-9]+]] srcs [0]
// CHECK-NEXT:    pimcmd.sync
// CHECK-NEXT:    pimcmd.compute add f32 dst {{[0-9]+}} srcs {{\[}}[[N]], [[M]]]
// CHECK-NEXT:    pimcmd.compute copy
// CHECK-NEXT:    pimcmd.release
func.func @inter_then_consumer(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  tdfg.graph ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) rank 2 {
  ^bb0(%a: memref<8x8xf32>, %b: memref<8x8xf32>):
    %0 = tdfg.tensor %a [0:4, 0:4] : memref<8x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.mv %0 dim 1 dist 4 : !tdfg.tensor<f32, 2>
    %2 = tdfg.tensor %a [0:4, 4:8] : memref<8x8xf32> -> !tdfg.tensor<f32, 2>
    %3 = tdfg.cmp neg(%2) : !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    %5 = tdfg.cmp add(%3, %1) : !tdfg.tensor<f32, 2>, !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    tdfg.store %5 -> %b : !tdfg.tensor<f32, 2> -> memref<8x8xf32>
    tdfg.yield
  }
  func.return
}

// An intra-tile move, a compute and an in-memory reduction: no sync.
// CHECK-LABEL: func.func @intra_only
// CHECK:         pimcmd.shift f32 dst {{[0-9]+}} src 0 dim 1 mask [0:3] inter 0 intra 1
// CHECK-NOT:     pimcmd.sync
// CHECK:         pimcmd.near_reduce
func.func @intra_only(%A: memref<8x8xf32>) -> f32 {
  %s = tdfg.graph ins(%A : memref<8x8xf32>) rank 2 -> f32 {
  ^bb0(%a: memref<8x8xf32>):
    %0 = tdfg.tensor %a [0:8, 0:3] : memref<8x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.mv %0 dim 1 dist 1 : !tdfg.tensor<f32, 2>
    %2 = tdfg.cmp mul(%1, %1) : !tdfg.tensor<f32, 2>, !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    %3 = tdfg.reduce add %2 dim 1 : !tdfg.tensor<f32, 2>
    %4 = tdfg.stream_reduce add %3 over [0, 1] : !tdfg.tensor<f32, 2> -> f32
    tdfg.yield %4 : f32
  }
  func.return %s : f32
}

// No move at all: no sync.
// CHECK-LABEL: func.func @compute_only
// CHECK-NOT:     pimcmd.sync
// CHECK:         pimcmd.release
func.func @compute_only(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  tdfg.graph ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) rank 2 {
  ^bb0(%a: memref<8x8xf32>, %b: memref<8x8xf32>):
    %0 = tdfg.tensor %a [1:7, 1:7] : memref<8x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.cmp mul(%0, %0) : !tdfg.tensor<f32, 2>, !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    %2 = tdfg.cmp add(%1, %0) : !tdfg.tensor<f32, 2>, !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    tdfg.store %2 -> %b : !tdfg.tensor<f32, 2> -> memref<8x8xf32>
    tdfg.yield
  }
  func.return
}

// Two inter-tile moves feeding one compute need one sync; the move of that
// compute's result needs another before the store reads it.
// CHECK-LABEL: func.func @one_sync_for_two
// CHECK:         pimcmd.transpose_in %1
// CHECK-NEXT:    pimcmd.shift f32 dst [[X:[0-9]+]] src 0 dim 1 mask [0:4] inter 1 intra 0
// CHECK-NEXT:    pimcmd.shift f32 dst [[Y:[0-9]+]] src 0 dim 0 mask [0:4] inter 1 intra 0
// CHECK-NEXT:    pimcmd.sync
// CHECK-NEXT:    pimcmd.compute add f32 dst [[S:[0-9]+]] srcs {{\[}}[[Y]], [[X]]]
// CHECK-NEXT:    pimcmd.shift f32 dst [[Z:[0-9]+]] src [[S]] dim 0 mask [0:4] inter -1 intra 0
// CHECK-NEXT:    pimcmd.sync
// CHECK-NEXT:    pimcmd.compute copy f32 dst 1 srcs {{\[}}[[Z]]]
// CHECK-NEXT:    pimcmd.release
// CHECK-NOT:     pimcmd.sync
// CHECK:         func.return
func.func @one_sync_for_two(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  tdfg.graph ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) rank 2 {
  ^bb0(%a: memref<8x8xf32>, %b: memref<8x8xf32>):
    %0 = tdfg.tensor %a [0:4, 0:8] : memref<8x8xf32> -> !tdfg.tensor<f32, 2>
    %1 = tdfg.mv %0 dim 0 dist 4 : !tdfg.tensor<f32, 2>
    %2 = tdfg.tensor %a [0:8, 0:4] : memref<8x8xf32> -> !tdfg.tensor<f32, 2>
    %3 = tdfg.mv %2 dim 1 dist 4 : !tdfg.tensor<f32, 2>
    %4 = tdfg.cmp add(%1, %3) : !tdfg.tensor<f32, 2>, !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    %5 = tdfg.mv %4 dim 0 dist -4 : !tdfg.tensor<f32, 2>
    tdfg.store %5 -> %b : !tdfg.tensor<f32, 2> -> memref<8x8xf32>
    tdfg.yield
  }
  func.return
}
