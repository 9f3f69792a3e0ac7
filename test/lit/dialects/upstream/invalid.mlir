// Bad upstream-syntax input is one line naming file:line:col and what is
// wrong (infs/dialects/upstream_syntax.py), for each op's parser and verifier.
// RUN: infs-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: not infs-opt %s 2>&1 | filecheck %s --check-prefix=ONE
// ONE: invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: expected 1 upper bounds (one per induction variable), not 2
// ONE-NOT: Traceback
// ONE-NOT: error

func.func @too_many_bounds(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:33: error: expected 1 upper bounds (one per induction variable), not 2
  affine.parallel (%i) = (0) to (%n, 4) {
  }
  return
}

// -----

func.func @unknown_reduction(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:46: error: invalid reduction value: "plus" (one of addf, addi,
  affine.parallel (%i) = (0) to (%n) reduce ("plus") -> (f32) {
  }
  return
}

// -----

func.func @zero_step(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:43: error: steps must be positive
  affine.parallel (%i) = (0) to (%n) step (0) {
  }
  return
}

// -----

func.func @reduction_of_the_wrong_type(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'affine.parallel' op result type i32 cannot match reduction 'addf'
  %r = affine.parallel (%i) = (0) to (%n) reduce ("addf") -> (i32) {
    %c = arith.constant 1 : i32
    affine.yield %c : i32
  }
  return
}

// -----

func.func @max_in_an_upper_bound(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:34: error: an upper bound group is min(...), not max(...)
  affine.parallel (%i) = (0) to (max(%n, 3)) {
  }
  return
}

// -----

func.func @semi_affine_bound(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:34: error: not an affine expression (a product or quotient of two values is semi-affine)
  affine.parallel (%i) = (0) to (%n * %n) {
  }
  return
}

// -----

func.func @if_operands(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:41: error: this integer set takes 1 dimension and 0 symbol operands, not 1 and 1
  affine.if affine_set<(d0) : (d0 >= 0)>(%n)[%n] {
  }
  return
}

// -----

func.func @if_results_without_else(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'affine.if' op with results, it needs an else region
  %r = affine.if affine_set<(d0) : (d0 >= 0)>(%n) -> f32 {
    %c = arith.constant 1.0 : f32
    affine.yield %c : f32
  }
  return
}

// -----

func.func @max_of_a_set(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:19: error: expected an affine map, not affine_set<(d0) : (d0 >= 0)>
  %x = affine.max affine_set<(d0) : (d0 >= 0)>(%n)
  return
}

// -----

func.func @scf_parallel_bounds(%n: index) {
  %c0 = arith.constant 0 : index
  // CHECK: invalid.mlir:[[# @LINE + 1]]:27: error: expected 2 lower bounds (one per induction variable), not 1
  scf.parallel (%i, %j) = (%c0) to (%n) step (%c0) {
  }
  return
}

// -----

func.func @cast_of_another_rank(%A: memref<?xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'memref.cast' op operand type memref<?xf32> and result type memref<4x4xf32> are cast incompatible
  %a = memref.cast %A : memref<?xf32> to memref<4x4xf32>
  return
}

// -----

func.func @alloca_of_a_scalar(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:43: error: expected a memref type, not f32
  %a = memref.alloca(%n) alignment = 16 : f32
  return
}
