// extract-streams: an scf.if that yields a loaded value on each side (C's
// `c ? x[i] : y[i]`, a Python kernel's `x[i] if c else y[i]`) is an arith.select
// in the region's compute body when both sides are safe to evaluate at every
// point: each load in bounds over the whole domain (proved from the affine maps,
// the domain and the array's size), no integer division that may trap.
// Otherwise the nest stays on the host, and the remark says why.
//
// RUN: infs-opt %s --split-input-file -p extract-streams 2>/dev/null | filecheck %s
// RUN: infs-opt %s --split-input-file -p 'extract-streams{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// Static sizes: the domain [1:15] keeps A[i - 1] and B[i + 1] inside 16 elements.
// CHECK-LABEL: func.func @static_sizes
// CHECK:         stream.region ins(%C, %A, %B : memref<16xf32>, memref<16xf32>, memref<16xf32>) domain [1:15] iterators [parallel] {
// CHECK:           stream.compute
// CHECK:             arith.cmpf ogt
// CHECK:             arith.select
// CHECK-NOT:     scf.if
func.func @static_sizes(%A: memref<16xf32>, %B: memref<16xf32>, %C: memref<16xf32>) {
  %z = arith.constant 0.0 : f32
  // REMARK: select.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [1:15] iterators [parallel]
  affine.for %i = 1 to 15 {
    %c = affine.load %C[%i] : memref<16xf32>
    %p = arith.cmpf ogt, %c, %z : f32
    %v = scf.if %p -> (f32) {
      %a = affine.load %A[%i - 1] : memref<16xf32>
      scf.yield %a : f32
    } else {
      %b = affine.load %B[%i + 1] : memref<16xf32>
      %b2 = arith.mulf %b, %b : f32
      scf.yield %b2 : f32
    }
    affine.store %v, %C[%i] : memref<16xf32>
  }
  func.return
}

// -----

// A dynamic size: the loop runs to memref.dim of the array each side reads.
// CHECK-LABEL: func.func @dynamic_sizes
// CHECK:         stream.region
// CHECK:           arith.select
func.func @dynamic_sizes(%A: memref<?x?xi32>, %B: memref<?x?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?x?xi32>
  %m = memref.dim %A, %c1 : memref<?x?xi32>
  %zero = arith.constant 0 : i32
  // REMARK: select.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n, 0:m] iterators [parallel, parallel]
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c1 {
      %x = memref.load %B[%i, %j] : memref<?x?xi32>
      %neg = arith.cmpi slt, %x, %zero : i32
      %v = scf.if %neg -> (i32) {
        %a = memref.load %A[%i, %j] : memref<?x?xi32>
        scf.yield %a : i32
      } else {
        scf.yield %x : i32
      }
      memref.store %v, %B[%i, %j] : memref<?x?xi32>
    }
  }
  func.return
}

// -----

// %n is not a size of %B: B[i] may be past its end where the program never reads it.
// CHECK-LABEL: func.func @unproved
// CHECK-NOT:     stream.region
// CHECK:         scf.if
func.func @unproved(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  %z = arith.constant 0.0 : f32
  // REMARK: select.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: the 'scf.if' at line [[# @LINE + 4]] loads %B[d0] on one side only: a select evaluates both sides, and its dim 0 has a dynamic size that no bound of the domain is read from (memref.dim)
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xf32>
    %p = arith.cmpf olt, %a, %z : f32
    %v = scf.if %p -> (f32) {
      %b = affine.load %B[%i] : memref<?xf32>
      scf.yield %b : f32
    } else {
      scf.yield %a : f32
    }
    affine.store %v, %A[%i] : memref<?xf32>
  }
  func.return
}

// -----

// A static size the domain overruns: A[i + 1] reaches 16 at i = 15.
// CHECK-LABEL: func.func @overrun
// CHECK-NOT:     stream.region
func.func @overrun(%A: memref<16xf32>, %C: memref<16xf32>) {
  %z = arith.constant 0.0 : f32
  // REMARK: select.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: the 'scf.if' at line [[# @LINE + 4]] loads %A[d0 + 1] on one side only: a select evaluates both sides, and its index 0 (d0 + 1) is not proved < its size 16 over the domain (its greatest value is 16)
  affine.for %i = 0 to 16 {
    %c = affine.load %C[%i] : memref<16xf32>
    %p = arith.cmpf ogt, %c, %z : f32
    %v = scf.if %p -> (f32) {
      %a = affine.load %A[%i + 1] : memref<16xf32>
      scf.yield %a : f32
    } else {
      scf.yield %c : f32
    }
    affine.store %v, %C[%i] : memref<16xf32>
  }
  func.return
}

// -----

// An integer division on one side only: x / y with y == 0 must not run where the program does not.
// CHECK-LABEL: func.func @division
// CHECK-NOT:     stream.region
func.func @division(%A: memref<8xi32>, %B: memref<8xi32>) {
  %zero = arith.constant 0 : i32
  // REMARK: select.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: the 'scf.if' at line [[# @LINE + 5]] holds 'arith.divsi' by a divisor that may be 0 or -1 on one side only: a select evaluates both sides
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i] : memref<8xi32>
    %b = affine.load %B[%i] : memref<8xi32>
    %p = arith.cmpi ne, %b, %zero : i32
    %v = scf.if %p -> (i32) {
      %q = arith.divsi %a, %b : i32
      scf.yield %q : i32
    } else {
      scf.yield %zero : i32
    }
    affine.store %v, %B[%i] : memref<8xi32>
  }
  func.return
}
