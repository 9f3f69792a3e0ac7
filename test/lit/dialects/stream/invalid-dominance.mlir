// SSA dominance and scoping (infs/dialects/dominance.py, run by the module
// verifier before any op verifier): an operand must be defined earlier in its
// block or in an enclosing block, and nothing from outside crosses an
// isolated-from-above op (func.func, stream.region).  xDSL's parser resolves a
// forward reference to a later definition anywhere, so these parse; each must
// be one located error, not an endless recursion in an evaluator.
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @compute_uses_its_own_result(%A: memref<?xf32>, %n: index) {
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index):
    %c = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid-dominance.mlir:[[# @LINE + 1]]:5: error: 'stream.compute' op operand #1 (%s) does not dominate this use
    %s = stream.compute(%c, %s : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
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

func.func @two_computes_use_each_other(%A: memref<?xf32>, %n: index) {
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index):
    // CHECK: invalid-dominance.mlir:[[# @LINE + 1]]:5: error: 'stream.compute' op operand #0 (%t) does not dominate this use
    %s = stream.compute(%t : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32):
      stream.yield %x : f32
    }
    %t = stream.compute(%s : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32):
      stream.yield %x : f32
    }
    stream.store %t -> %a[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----

func.func @value_of_a_sibling_body(%A: memref<?xf32>, %n: index) {
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index):
    %c = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%c : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32):
      // CHECK: invalid-dominance.mlir:[[# @LINE + 1]]:7: error: 'arith.mulf' op operand #1 (%w) does not dominate this use
      %v = arith.mulf %x, %w : f32
      stream.yield %v : f32
    }
    %t = stream.compute(%c : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32):
      %w = arith.addf %x, %x : f32
      stream.yield %w : f32
    }
    stream.store %t -> %a[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----

func.func @use_before_definition_in_a_compute_body(%A: memref<?xf32>, %n: index) {
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index):
    %c = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%c : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32):
      // CHECK: invalid-dominance.mlir:[[# @LINE + 1]]:7: error: 'arith.addf' op operand #1 (%v) does not dominate this use
      %w = arith.addf %x, %v : f32
      %v = arith.mulf %x, %x : f32
      stream.yield %w : f32
    }
    stream.store %s -> %a[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----

func.func @for_step_defined_in_its_body(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: invalid-dominance.mlir:[[# @LINE + 1]]:3: error: 'scf.for' op operand #2 does not dominate this use
  scf.for %i = %c0 to %n step %s {
    %s = arith.addi %c1, %c1 : index
  }
  func.return
}

// -----

func.func @region_uses_a_value_of_the_host(%A: memref<?xf32>, %n: index) {
  %one = arith.constant 1.0 : f32
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index):
    %c = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid-dominance.mlir:[[# @LINE + 1]]:5: error: 'stream.compute' op operand #1 (%one) is defined outside the enclosing 'stream.region', which is isolated from above (pass it in as an operand)
    %s = stream.compute(%c, %one : !stream.stream<f32>, f32) -> !stream.stream<f32> {
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

func.func @block_that_does_not_dominate(%b: i1, %x: i32) -> i32 {
  cf.cond_br %b, ^then, ^join
^then:
  %y = arith.addi %x, %x : i32
  cf.br ^join
^join:
  // CHECK: invalid-dominance.mlir:[[# @LINE + 1]]:3: error: 'func.return' op operand #0 (%y) does not dominate this use
  func.return %y : i32
}

// -----

// CHECK: invalid-dominance.mlir:[[# @LINE + 3]]:3: error: 'arith.addi' op operand #0 (%late) does not dominate this use
func.func @host_use_before_definition(%n: index) -> index {
  %c1 = arith.constant 1 : index
  %m = arith.addi %late, %c1 : index
  %late = arith.addi %n, %c1 : index
  func.return %m : index
}
