// Loop-carried dependences (stream.loop_carried_dependence, run by the
// stream.region verifier): a region in which an iteration may read a cell
// that an earlier iteration -- or an earlier op of the same iteration --
// writes is not a stream region.  Every lowering reads the arrays as they were
// at region entry, so the region is refused before tensorize (or any run
// mode, test_regress_static.py) sees it, with one message.  Indirect accesses
// and rows that couple several dims are refused unless the other rows prove
// the cells disjoint: the check cannot know.  in-place.mlir has the legal
// in-place updates.
//
// RUN: infs-opt --tensorize %s --split-input-file --verify-diagnostics | filecheck %s

// A[i] = A[i-1] + A[i]: an in-place recurrence (a loop-carried flow dependence)
func.func @recurrence(%A: memref<?xf32>, %n: index) {
  // CHECK: carried.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op has a loop-carried dependence: the 'stream.load' at line [[# @LINE + 3]] may read a cell of %a written by the 'stream.store' at line [[# @LINE + 10]] in an earlier iteration; split it into several regions
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [1:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index):
    %p = stream.load %a[d0 - 1] : memref<?xf32> -> !stream.stream<f32>
    %c = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%p, %c : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32, %y: f32):
      %z = arith.addf %x, %y : f32
      stream.yield %z : f32
    }
    stream.store %s -> %a[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----

// a load of the cell a store wrote just before it, in the same iteration
func.func @load_after_store(%A: memref<?xf32>, %n: index) {
  // CHECK: carried.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op has a loop-carried dependence: the 'stream.load' at line [[# @LINE + 5]] may read a cell of %a written by the 'stream.store' at line [[# @LINE + 4]] earlier in the same iteration; split it into several regions
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index):
    %c = stream.load %a[d0 + N] : memref<?xf32> -> !stream.stream<f32>
    stream.store %c -> %a[d0] : !stream.stream<f32> -> memref<?xf32>
    %d = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    stream.store %d -> %a[d0 + N] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----

// A[i][j] = A[i-1][j+1]: carried by the outer dim, whatever the inner offset
func.func @outer_dim(%A: memref<?x?xf32>, %n: index) {
  // CHECK: carried.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op has a loop-carried dependence: the 'stream.load' at line [[# @LINE + 3]] may read a cell of %a written by the 'stream.store' at line [[# @LINE + 4]] in an earlier iteration
  stream.region ins(%A : memref<?x?xf32>) syms(N = %n : index) domain [1:N, 0:N - 1] iterators [parallel, parallel] {
  ^bb0(%a: memref<?x?xf32>, %N: index):
    %p = stream.load %a[d0 - 1, d1 + 1] : memref<?x?xf32> -> !stream.stream<f32>
    stream.store %p -> %a[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}

// -----

// A[i][j] = A[j][i]: iteration (i, j) reads what (j, i) wrote when j < i
func.func @transpose_in_place(%A: memref<?x?xf32>, %n: index) {
  // CHECK: carried.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op has a loop-carried dependence: the 'stream.load' at line [[# @LINE + 3]] may read a cell of %a written by the 'stream.store' at line [[# @LINE + 4]] in an earlier iteration
  stream.region ins(%A : memref<?x?xf32>) syms(N = %n : index) domain [0:N, 0:N] iterators [parallel, parallel] {
  ^bb0(%a: memref<?x?xf32>, %N: index):
    %p = stream.load %a[d1, d0] : memref<?x?xf32> -> !stream.stream<f32>
    stream.store %p -> %a[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}

// -----

// A[i] = A[I[i]]: which cells are read depends on I, so it is refused for every I
func.func @indirect_read(%A: memref<?xf32>, %I: memref<?xi32>, %n: index) {
  // CHECK: carried.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op has a loop-carried dependence: the 'stream.load' at line [[# @LINE + 4]] may read a cell of %a written by the 'stream.store' at line [[# @LINE + 5]] in an earlier iteration
  stream.region ins(%A, %I : memref<?xf32>, memref<?xi32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %i: memref<?xi32>, %N: index):
    %j = stream.load %i[d0] : memref<?xi32> -> !stream.stream<i32>
    %x = stream.load %a[%j] : memref<?xf32> -> !stream.stream<f32>
    stream.store %x -> %a[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----

// a histogram read while it is being built: the atomic's cell is data, so any
// load of the array may see an earlier iteration's update (the first one is reported)
func.func @atomic_then_load(%A: memref<?xf32>, %I: memref<?xi32>, %n: index) {
  // CHECK: carried.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op has a loop-carried dependence: the 'stream.load' at line [[# @LINE + 4]] may read a cell of %a updated by the 'stream.atomic' at line [[# @LINE + 5]] in an earlier iteration
  stream.region ins(%A, %I : memref<?xf32>, memref<?xi32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %i: memref<?xi32>, %N: index):
    %j = stream.load %i[d0] : memref<?xi32> -> !stream.stream<i32>
    %one = stream.load %a[d0 + N] : memref<?xf32> -> !stream.stream<f32>
    stream.atomic add %one -> %a[%j] : !stream.stream<f32> -> memref<?xf32>
    %h = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    stream.store %h -> %a[d0 + N] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----

// an atomic on the cell a later op of the same iteration loads
func.func @atomic_then_load_same_cell(%A: memref<?xf32>, %n: index) {
  // CHECK: carried.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op has a loop-carried dependence: the 'stream.load' at line [[# @LINE + 5]] may read a cell of %a updated by the 'stream.atomic' at line [[# @LINE + 4]] earlier in the same iteration
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index):
    %c = stream.load %a[d0 + N] : memref<?xf32> -> !stream.stream<f32>
    stream.atomic max %c -> %a[d0] : !stream.stream<f32> -> memref<?xf32>
    %d = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    stream.store %d -> %a[d0 + N] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----

// A[0] = A[0] + B[i] over i: a store that drops the iteration dim is a recurrence too
func.func @accumulate_by_store(%A: memref<?xf32>, %n: index) {
  // CHECK: carried.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op has a loop-carried dependence: the 'stream.load' at line [[# @LINE + 3]] may read a cell of %a written by the 'stream.store' at line [[# @LINE + 10]] in an earlier iteration
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [1:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index):
    %acc = stream.load %a[0] : memref<?xf32> -> !stream.stream<f32>
    %b = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%acc, %b : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32, %y: f32):
      %z = arith.addf %x, %y : f32
      stream.yield %z : f32
    }
    stream.store %s -> %a[0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----

// a row sum stored into the next row, which the next row's iterations read
func.func @reduce_into_next_row(%A: memref<?x?xf32>, %n: index) {
  // CHECK: carried.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op has a loop-carried dependence: the 'stream.load' at line [[# @LINE + 3]] may read a cell of %a written by the 'stream.store' at line [[# @LINE + 5]] in an earlier iteration
  stream.region ins(%A : memref<?x?xf32>) syms(N = %n : index) domain [0:N - 1, 0:N] iterators [parallel, reduction] {
  ^bb0(%a: memref<?x?xf32>, %N: index):
    %c = stream.load %a[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
    %r = stream.reduce add %c over [1] : !stream.stream<f32> -> !stream.stream<f32>
    stream.store %r -> %a[d0 + 1, 0] : !stream.stream<f32> -> memref<?x?xf32>
    stream.yield
  }
  func.return
}

// -----

// two arguments bound to one array are one array
func.func @aliased_arguments(%A: memref<?xf32>, %n: index) {
  // CHECK: carried.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op has a loop-carried dependence: the 'stream.load' at line [[# @LINE + 3]] may read a cell of %src written by the 'stream.store' at line [[# @LINE + 4]] in an earlier iteration
  stream.region ins(%A, %A : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [1:N] iterators [parallel] {
  ^bb0(%src: memref<?xf32>, %dst: memref<?xf32>, %N: index):
    %p = stream.load %src[d0 - 1] : memref<?xf32> -> !stream.stream<f32>
    stream.store %p -> %dst[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
