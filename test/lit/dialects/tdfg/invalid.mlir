// Negative tests: one chunk per verifier rule of the `tdfg` dialect
// (infs/dialects/tdfg.py) and per parse-level error of its custom syntax.
// Each CHECK sits right above the op that must be reported.
//
// Not reachable from text: _check_rank's "must be a !tdfg.tensor" (every
// operand/result it is applied to is constrained to TensorType, and xDSL's
// own constraint check runs before verify_; see
// ../../tools/xfail-irdl-constraint-message.mlir). The ops' own `p <= q`
// domain checks ("tensor domain ..", "shrink range ..", "stream domain ..")
// are pre-empted by the same check in the domain attribute, which runs at
// parse time: the message then has no op name (chunks *_bounds below).
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: {{.*}}tdfg tensors hold f64, i64, f32, i32, i16, i8, i1 elements, got f16
func.func @tensor_type_element(%t: !tdfg.tensor<f16, 1>) {
  func.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: {{.*}}tdfg tensor rank must be between 1 and 32, got 0
func.func @tensor_type_rank(%t: !tdfg.tensor<f32, 0>) {
  func.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: {{.*}}tdfg tensor rank must be between 1 and 32, got 33
func.func @tensor_type_rank_too_big(%t: !tdfg.tensor<f32, 33>) {
  func.return
}

// -----

func.func @graph_rank_too_big() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'tdfg.graph' op lattice rank must be at most 32, got 9223372036854775807
  tdfg.graph rank 9223372036854775807 {
    tdfg.yield
  }
  func.return
}

// -----

func.func @outside_graph(%t: !tdfg.tensor<f32, 1>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'tdfg.mv' op expects ancestor op 'tdfg.graph'
  %m = tdfg.mv %t dim 0 dist 1 : !tdfg.tensor<f32, 1>
  func.return
}

// -----

func.func @graph_names_vs_scalars(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'tdfg.graph' op has 1 scalars but 0 names
  "tdfg.graph"(%n) <{sym_names = [], rank = 1 : i64, operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%N: index):
    "tdfg.yield"() : () -> ()
  }) : (index) -> ()
  func.return
}

// -----

func.func @graph_duplicate_names(%n: index, %m: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'tdfg.graph' op has duplicate symbol names ['N', 'N']
  tdfg.graph syms(N = %n : index, N = %m : index) rank 1 {
  ^bb0(%N: index, %M: index):
    tdfg.yield
  }
  func.return
}

// -----

func.func @graph_name_clashes_with_dim(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'tdfg.graph' op symbol name 'd1' clashes with lattice dim names d<i>
  tdfg.graph syms(d1 = %n : index) rank 1 {
  ^bb0(%N: index):
    tdfg.yield
  }
  func.return
}

// -----

func.func @graph_rank() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'tdfg.graph' op lattice rank must be >= 1, got 0
  tdfg.graph rank 0 {
    tdfg.yield
  }
  func.return
}

// -----

func.func @graph_array_rank(%A: memref<4x4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'tdfg.graph' op array of type memref<4x4xf32> has more dims than the rank-1 lattice
  tdfg.graph ins(%A : memref<4x4xf32>) rank 1 {
  ^bb0(%a: memref<4x4xf32>):
    tdfg.yield
  }
  func.return
}

// -----

func.func @graph_block_args(%A: memref<?xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'tdfg.graph' op block arguments must match the operands (arrays then scalars)
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xi32>):
    tdfg.yield
  }
  func.return
}

// -----

func.func @graph_terminator() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'tdfg.graph' op body must end with 'tdfg.yield'
  tdfg.graph rank 1 {
    %c = arith.constant 0 : index
  }
  func.return
}

// -----

func.func @graph_results() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'tdfg.graph' op yields [] but declares results ['f32']
  %r = tdfg.graph rank 1 -> f32 {
    tdfg.yield
  }
  func.return
}

// -----

func.func @graph_hint_key() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'tdfg.graph' op unknown layout hint 'tile' (known: shift, broadcast, reduce, primary, align)
  tdfg.graph rank 1 hints {tile = 4 : i64} {
    tdfg.yield
  }
  func.return
}

// -----

func.func @graph_hint_dims_type() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'tdfg.graph' op hint 'broadcast' must be an array<i64: dims>
  tdfg.graph rank 1 hints {broadcast = 0 : i64} {
    tdfg.yield
  }
  func.return
}

// -----

func.func @graph_hint_dims_range() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'tdfg.graph' op dim 2 is outside the rank-2 lattice
  tdfg.graph rank 2 hints {reduce = array<i64: 0, 2>} {
    tdfg.yield
  }
  func.return
}

// -----

func.func @graph_hint_primary(%A: memref<?xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'tdfg.graph' op hint 'primary' must be an array operand index
  tdfg.graph ins(%A : memref<?xf32>) rank 1 hints {primary = 1 : i64} {
  ^bb0(%a: memref<?xf32>):
    tdfg.yield
  }
  func.return
}

// -----

func.func @graph_hint_align(%A: memref<?xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'tdfg.graph' op hint 'align' must list array operand indices
  tdfg.graph ins(%A : memref<?xf32>) rank 1 hints {align = array<i64: 0, 3>} {
  ^bb0(%a: memref<?xf32>):
    tdfg.yield
  }
  func.return
}

// -----

func.func @graph_hints_syntax() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: tdfg.graph hints must be a dictionary attribute
  tdfg.graph rank 1 hints [0] {
    tdfg.yield
  }
  func.return
}

// -----

func.func @result_rank(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.tensor' op result has rank 2 but the graph lattice has rank 1
    %t = tdfg.tensor %a [0:1, 0:4] : memref<?xf32> -> !tdfg.tensor<f32, 2>
    tdfg.yield
  }
  func.return
}

// -----

func.func @tensor_foreign_array(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %m = memref.alloc() : memref<4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.tensor' op array must be an array argument of the enclosing 'tdfg.graph'
    %t = tdfg.tensor %m [0:4] : memref<4xf32> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @tensor_element_type(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.tensor' op tensor element type i32 differs from the array's f32
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<i32, 1>
    tdfg.yield
  }
  func.return
}

// -----

// The `p <= q` rule of a tensor's domain is checked when the domain attribute
// is built, i.e. while parsing the op.
func.func @tensor_domain_bounds(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: {{.*}}domain [4:2] has lower bound > upper bound in dim 0
    %t = tdfg.tensor %a [4:2] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @tensor_domain_rank(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 2 {
  ^bb0(%a: memref<?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.tensor' op domain [0:4] has rank 1, expected 2
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 2>
    tdfg.yield
  }
  func.return
}

// -----

func.func @tensor_domain_symbols(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.tensor' op domain [0:N] uses undeclared symbol(s) ['N']
    %t = tdfg.tensor %a [0:N] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @tensor_domain_below_zero(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.tensor' op domain [-1:4] starts below 0 in dim 0
    %t = tdfg.tensor %a [-1:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

// A rank-1 array on a rank-2 lattice sits at coordinate 0 of the leading dim.
func.func @tensor_domain_extent(%A: memref<8xf32>) {
  tdfg.graph ins(%A : memref<8xf32>) rank 2 {
  ^bb0(%a: memref<8xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.tensor' op domain [0:2, 0:8] exceeds the array extent 1 in dim 0
    %t = tdfg.tensor %a [0:2, 0:8] : memref<8xf32> -> !tdfg.tensor<f32, 2>
    tdfg.yield
  }
  func.return
}

// -----

func.func @cmp_unknown_op(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.cmp' op unknown op 'sqrt' (known: add, sub, mul, div, fma, min, max, cmp_lt, cmp_le, cmp_eq, select, and, or, xor, not, abs, neg, relu)
    %x = tdfg.cmp sqrt(%t) : !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @cmp_arity(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.cmp' op fma takes 3 inputs, got 2
    %x = tdfg.cmp fma(%t, %t) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @cmp_select_condition(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.cmp' op select condition must be an i1 tensor
    %x = tdfg.cmp select(%t, %t, %t) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @cmp_mixed_elements(%A: memref<?xf32>, %B: memref<?xi32>) {
  tdfg.graph ins(%A, %B : memref<?xf32>, memref<?xi32>) rank 1 {
  ^bb0(%a: memref<?xf32>, %b: memref<?xi32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    %u = tdfg.tensor %b [0:4] : memref<?xi32> -> !tdfg.tensor<i32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.cmp' op add inputs have different element types ['f32', 'i32']
    %x = tdfg.cmp add(%t, %u) : !tdfg.tensor<f32, 1>, !tdfg.tensor<i32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @cmp_compare_result(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.cmp' op cmp_le result must be an i1 tensor
    %x = tdfg.cmp cmp_le(%t, %t) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @cmp_result_element(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.cmp' op result element type i32 differs from the inputs' f32
    %x = tdfg.cmp mul(%t, %t) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<i32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @cmp_bitwise_float(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.cmp' op xor needs integer tensors
    %x = tdfg.cmp xor(%t, %t) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @cmp_syntax_types(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: 2 inputs but 1 types
    %x = tdfg.cmp add(%t, %t) : !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @mv_same_type(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.mv' op result type !tdfg.tensor<i32, 1> must equal the input type !tdfg.tensor<f32, 1>
    %m = "tdfg.mv"(%t) <{dim = 0 : i64, dist = #lattice.expr<1>}> : (!tdfg.tensor<f32, 1>) -> !tdfg.tensor<i32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @mv_dim(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.mv' op dim 1 is outside the rank-1 lattice
    %m = tdfg.mv %t dim 1 dist 1 : !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @mv_symbols(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.mv' op distance uses undeclared symbol(s) ['k']
    %m = tdfg.mv %t dim 0 dist k : !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @bc_symbols(%A: memref<?xf32>, %n: index) {
  tdfg.graph ins(%A : memref<?xf32>) syms(N = %n : index) rank 1 {
  ^bb0(%a: memref<?xf32>, %N: index):
    %t = tdfg.tensor %a [0:1] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.bc' op distance/count uses undeclared symbol(s) ['M']
    %b = tdfg.bc %t dim 0 dist 1 count M - 1 : !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @bc_count(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:1] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.bc' op count must be >= 0, got -2
    %b = tdfg.bc %t dim 0 dist 1 count -2 : !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @const_value_or_scalar() {
  tdfg.graph rank 1 {
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.const' op needs exactly one of a literal value or a scalar operand
    %c = "tdfg.const"() : () -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @const_foreign_scalar() {
  tdfg.graph rank 1 {
    %f = arith.constant 1.0 : f32
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.const' op scalar must be a scalar argument of the enclosing 'tdfg.graph'
    %c = tdfg.const %f : f32 -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @const_scalar_type(%al: f32) {
  tdfg.graph syms(alpha = %al : f32) rank 1 {
  ^bb0(%alpha: f32):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.const' op scalar of type f32 cannot fill a tensor of i32
    %c = tdfg.const %alpha : f32 -> !tdfg.tensor<i32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @const_literal_type() {
  tdfg.graph rank 1 {
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.const' op value must be a literal of the tensor's element type f32
    %c = "tdfg.const"() <{value = 1 : i32}> : () -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @const_syntax_result() {
  tdfg.graph rank 1 {
    // CHECK: invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: tdfg.const result must be a !tdfg.tensor, got f32
    %c = tdfg.const 1.0 : f32
    tdfg.yield
  }
  func.return
}

// -----

func.func @const_syntax_literal() {
  tdfg.graph rank 1 {
    // CHECK: invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: literal 1.5 does not fit a tensor of i32
    %c = tdfg.const 1.5 : !tdfg.tensor<i32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @shrink_range_rank(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.shrink' op range must be one interval [p:q], got [0:1, 0:2]
    %s = tdfg.shrink %t dim 0 to [0:1, 0:2] : !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @shrink_range_bounds(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: {{.*}}[3:2] has lower bound > upper bound in dim 0
    %s = tdfg.shrink %t dim 0 to [3:2] : !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @shrink_range_symbols(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.shrink' op range uses undeclared symbol(s) ['N']
    %s = tdfg.shrink %t dim 0 to [1:N] : !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @reduce_kind(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.reduce' op kind must be one of add, mul, min, max, got 'argmax'
    %r = tdfg.reduce argmax %t dim 0 : !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_load_foreign_array(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %m = memref.alloc() : memref<4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_load' op array must be an array argument of the enclosing 'tdfg.graph'
    %t = tdfg.stream_load %m[d0] over [0:4] : memref<4xf32> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_load_map_rank(%A: memref<4x4xf32>) {
  tdfg.graph ins(%A : memref<4x4xf32>) rank 2 {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_load' op access map [d0] has 1 results for a rank-2 array
    %t = tdfg.stream_load %a[d0] over [0:4, 0:4] : memref<4x4xf32> -> !tdfg.tensor<f32, 2>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_load_map_dims(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_load' op access map [d1] uses d1 outside the rank-1 lattice
    %t = tdfg.stream_load %a[d1] over [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_load_map_symbols(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_load' op access map [d0 + k] uses undeclared symbol(s) ['k']
    %t = tdfg.stream_load %a[d0 + k] over [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_load_indirect_positions(%A: memref<?xf32>, %I: memref<?xi32>) {
  tdfg.graph ins(%A, %I : memref<?xf32>, memref<?xi32>) rank 1 {
  ^bb0(%a: memref<?xf32>, %i: memref<?xi32>):
    %idx = tdfg.tensor %i [0:4] : memref<?xi32> -> !tdfg.tensor<i32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_load' op indirect positions [] do not match its 1 index tensors
    %t = "tdfg.stream_load"(%a, %idx) <{map = #lattice.map<[d0]>, indirect_dims = array<i64>, domain = #lattice.domain<[0:4]>}> : (memref<?xf32>, !tdfg.tensor<i32, 1>) -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_load_index_type(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %f = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_load' op index tensors must hold integers, got f32
    %t = tdfg.stream_load %a[%f] over [0:4] : !tdfg.tensor<f32, 1>, memref<?xf32> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_load_index_rank(%A: memref<?xf32>, %I: memref<?xi32>) {
  tdfg.graph ins(%A, %I : memref<?xf32>, memref<?xi32>) rank 1 {
  ^bb0(%a: memref<?xf32>, %i: memref<?xi32>):
    %f = tdfg.tensor %i [0:4] : memref<?xi32> -> !tdfg.tensor<i32, 1>
    %g = tdfg.cmp cmp_eq(%f, %f) : !tdfg.tensor<i32, 1>, !tdfg.tensor<i32, 1> -> !tdfg.tensor<i1, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_load' op index tensors must hold integers, got i1
    %t = tdfg.stream_load %a[%g] over [0:4] : !tdfg.tensor<i1, 1>, memref<?xf32> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_load_element_type(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_load' op result element type i32 differs from the array's f32
    %t = tdfg.stream_load %a[d0] over [0:4] : memref<?xf32> -> !tdfg.tensor<i32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_load_domain_rank(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_load' op domain [0:1, 0:4] has rank 2, expected 1
    %t = tdfg.stream_load %a[d0] over [0:1, 0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_load_domain_symbols(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_load' op domain [0:N] uses undeclared symbol(s) ['N']
    %t = tdfg.stream_load %a[d0] over [0:N] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_reduce_kind(%A: memref<?xf32>) {
  %r = tdfg.graph ins(%A : memref<?xf32>) rank 1 -> f32 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_reduce' op kind must be one of add, mul, min, max, got 'argmin'
    %s = tdfg.stream_reduce argmin %t over [0] : !tdfg.tensor<f32, 1> -> f32
    tdfg.yield %s : f32
  }
  func.return
}

// -----

func.func @stream_reduce_dims(%A: memref<4x4xf32>) {
  tdfg.graph ins(%A : memref<4x4xf32>) rank 2 {
  ^bb0(%a: memref<4x4xf32>):
    %t = tdfg.tensor %a [0:4, 0:4] : memref<4x4xf32> -> !tdfg.tensor<f32, 2>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_reduce' op needs distinct dims to reduce, got [1, 1]
    %s = tdfg.stream_reduce add %t over [1, 1] : !tdfg.tensor<f32, 2> -> !tdfg.tensor<f32, 2>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_reduce_no_dims(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_reduce' op needs distinct dims to reduce, got []
    %s = tdfg.stream_reduce add %t over [] : !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_reduce_dim_range(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_reduce' op dim 1 is outside the rank-1 lattice
    %s = tdfg.stream_reduce add %t over [1] : !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_reduce_scalar_result(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_reduce' op over every dim returns a scalar f32, got !tdfg.tensor<f32, 1>
    %s = tdfg.stream_reduce add %t over [0] : !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_reduce_tensor_result(%A: memref<4x4xf32>) {
  tdfg.graph ins(%A : memref<4x4xf32>) rank 2 {
  ^bb0(%a: memref<4x4xf32>):
    %t = tdfg.tensor %a [0:4, 0:4] : memref<4x4xf32> -> !tdfg.tensor<f32, 2>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_reduce' op over some dims returns !tdfg.tensor<f32, 2>, got f32
    %s = tdfg.stream_reduce add %t over [0] : !tdfg.tensor<f32, 2> -> f32
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_store_kind(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_store' op kind must be one of store, add, min, max, got 'mul'
    tdfg.stream_store mul %t -> %a[d0] : !tdfg.tensor<f32, 1> -> memref<?xf32>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_store_map_rank(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_store' op access map [d0, 0] has 2 results for a rank-1 array
    tdfg.stream_store store %t -> %a[d0, 0] : !tdfg.tensor<f32, 1> -> memref<?xf32>
    tdfg.yield
  }
  func.return
}

// -----

func.func @stream_store_element_type(%A: memref<?xf32>, %B: memref<?xi32>) {
  tdfg.graph ins(%A, %B : memref<?xf32>, memref<?xi32>) rank 1 {
  ^bb0(%a: memref<?xf32>, %b: memref<?xi32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.stream_store' op stores f32 into an array of i32
    tdfg.stream_store add %t -> %b[d0] : !tdfg.tensor<f32, 1> -> memref<?xi32>
    tdfg.yield
  }
  func.return
}

// -----

func.func @store_foreign_array(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    %m = memref.alloc() : memref<4xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.store' op array must be an array argument of the enclosing 'tdfg.graph'
    tdfg.store %t -> %m : !tdfg.tensor<f32, 1> -> memref<4xf32>
    tdfg.yield
  }
  func.return
}

// -----

func.func @store_element_type(%A: memref<?xf32>, %B: memref<?xi32>) {
  tdfg.graph ins(%A, %B : memref<?xf32>, memref<?xi32>) rank 1 {
  ^bb0(%a: memref<?xf32>, %b: memref<?xi32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'tdfg.store' op stores f32 into an array of i32
    tdfg.store %t -> %b : !tdfg.tensor<f32, 1> -> memref<?xi32>
    tdfg.yield
  }
  func.return
}

// -----

// Parse-level errors of the custom syntax.

func.func @syntax_rank() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected 'rank'
  tdfg.graph {
    tdfg.yield
  }
  func.return
}

// -----

func.func @syntax_mv_fields(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:4] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected 'dist'
    %m = tdfg.mv %t dim 0 : !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @syntax_tensor_type() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected ','
  %r = tdfg.graph rank 1 -> !tdfg.tensor<f32> {
    tdfg.yield
  }
  func.return
}

// -----

func.func @syntax_bc_count(%A: memref<?xf32>) {
  tdfg.graph ins(%A : memref<?xf32>) rank 1 {
  ^bb0(%a: memref<?xf32>):
    %t = tdfg.tensor %a [0:1] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: expected an integer or a symbol name in affine expression
    %b = tdfg.bc %t dim 0 dist 1 count : !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  func.return
}

// -----

func.func @yield_parent() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'tdfg.yield' op
  tdfg.yield
}
