// Negative tests: one chunk per verifier rule of the `stream` dialect
// (infs/dialects/stream.py) and per parse-level error of its custom syntax.
// Each CHECK sits right above the op that must be reported.
//
// The region's own `p <= q` check of its iteration domain is pre-empted by the
// same check in the domain attribute, which runs at parse time: the message
// then has no op name (chunk region_domain_bounds).
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: {{.*}}stream element type must be an integer, index or float type, got tensor<4xf32>
func.func @stream_type_element(%s: !stream.stream<tensor<4xf32>>) {
  func.return
}

// -----

func.func @region_names_vs_scalars(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op has 1 scalars but 0 names
  "stream.region"(%n) <{sym_names = [], domain = #lattice.domain<[0:4]>, iterators = ["parallel"], operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%N: index):
    "stream.yield"() : () -> ()
  }) : (index) -> ()
  func.return
}

// -----

func.func @region_duplicate_names(%n: index, %m: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op has duplicate symbol names ['N', 'N']
  stream.region syms(N = %n : index, N = %m : index) domain [0:N] iterators [parallel] {
  ^bb0(%N: index, %M: index):
    stream.yield
  }
  func.return
}

// -----

func.func @region_name_clashes_with_dim(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op symbol name 'd0' clashes with iteration dim names d<i>
  stream.region syms(d0 = %n : index) domain [0:4] iterators [parallel] {
  ^bb0(%N: index):
    stream.yield
  }
  func.return
}

// -----

func.func @region_scalar_type(%v: tensor<4xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op scalar operand must be an integer, index or float, got tensor<4xf32>
  stream.region syms(v = %v : tensor<4xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%V: tensor<4xf32>):
    stream.yield
  }
  func.return
}

// -----

func.func @region_block_args(%A: memref<?xf32>, %n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op block arguments must match the operands (arrays then scalars): expected 2 of types {{.*}}
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: i32):
    stream.yield
  }
  func.return
}

// -----

// The iteration domain's `p <= q` rule is checked when the domain attribute
// is built, i.e. while parsing the region.
func.func @region_domain_bounds(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: {{.*}}domain [3:1] has lower bound > upper bound in dim 0
  stream.region domain [3:1] iterators [parallel] {
    stream.yield
  }
  func.return
}

// -----

func.func @region_iterator_count() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op has 1 iterators for a rank-2 domain
  stream.region domain [0:4, 0:4] iterators [parallel] {
    stream.yield
  }
  func.return
}

// -----

func.func @region_iterator_kind() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op iterator kind must be one of parallel, reduction, got 'serial'
  stream.region domain [0:4] iterators [serial] {
    stream.yield
  }
  func.return
}

// -----

// `alpha` is declared but is not an index symbol, so it cannot bound a domain.
func.func @region_domain_symbols(%n: index, %al: f32) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op domain [0:M, 0:alpha] uses undeclared symbol(s) ['M', 'alpha']
  stream.region syms(N = %n : index, alpha = %al : f32) domain [0:M, 0:alpha] iterators [parallel, parallel] {
  ^bb0(%N: index, %alpha: f32):
    stream.yield
  }
  func.return
}

// -----

func.func @region_terminator() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op body must end with 'stream.yield'
  stream.region domain [0:4] iterators [parallel] {
    %c = arith.constant 0 : index
  }
  func.return
}

// -----

func.func @region_results() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op yields [] but declares results ['f32']
  %r = stream.region domain [0:4] iterators [reduction] -> f32 {
    stream.yield
  }
  func.return
}

// -----

func.func @region_body_ops() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'stream.region' op body may only hold stream ops and pure arith ops, found 'memref.alloc'
  stream.region domain [0:4] iterators [parallel] {
    %m = memref.alloc() : memref<4xf32>
    stream.yield
  }
  func.return
}

// -----

func.func @region_yield_scalars(%A: memref<?xf32>) {
  %r = stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] -> !stream.stream<f32> {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.yield' op of a region yields scalars, got !stream.stream<f32>
    stream.yield %v : !stream.stream<f32>
  }
  func.return
}

// -----

func.func @load_outside_region(%A: memref<?xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'stream.load' op expects ancestor op 'stream.region'
  %v = stream.load %A[d0] : memref<?xf32> -> !stream.stream<f32>
  func.return
}

// -----

func.func @load_foreign_array(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    %c = arith.constant true
    %m = arith.select %c, %a, %a : memref<?xf32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.load' op array operand must be an array argument of the enclosing 'stream.region'
    %v = stream.load %m[d0] : memref<?xf32> -> !stream.stream<f32>
    stream.yield
  }
  func.return
}

// -----

func.func @load_map_rank(%A: memref<4x4xf32>) {
  stream.region ins(%A : memref<4x4xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<4x4xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.load' op access map [d0] has 1 results for a rank-2 array
    %v = stream.load %a[d0] : memref<4x4xf32> -> !stream.stream<f32>
    stream.yield
  }
  func.return
}

// -----

func.func @load_array_rank(%A: memref<2x2x2x2xf32>) {
  stream.region ins(%A : memref<2x2x2x2xf32>) domain [0:2] iterators [parallel] {
  ^bb0(%a: memref<2x2x2x2xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.load' op accesses a rank-4 array; streams support up to 3 dims
    %v = stream.load %a[d0, 0, 0, 0] : memref<2x2x2x2xf32> -> !stream.stream<f32>
    stream.yield
  }
  func.return
}

// -----

func.func @load_map_dims(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.load' op access map [d1] uses d1 outside the rank-1 domain
    %v = stream.load %a[d1] : memref<?xf32> -> !stream.stream<f32>
    stream.yield
  }
  func.return
}

// -----

func.func @load_map_symbols(%A: memref<?xf32>, %n: index) {
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.load' op access map [d0 + k] uses undeclared symbol(s) ['k']
    %v = stream.load %a[d0 + k] : memref<?xf32> -> !stream.stream<f32>
    stream.yield
  }
  func.return
}

// -----

func.func @load_index_count(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.load' op indirect positions [0] do not match its 0 index streams
    %v = "stream.load"(%a) <{map = #lattice.map<[0]>, indirect_dims = array<i64: 0>}> : (memref<?xf32>) -> !stream.stream<f32>
    stream.yield
  }
  func.return
}

// -----

func.func @load_indirect_positions(%A: memref<?xf32>, %I: memref<?xi32>) {
  stream.region ins(%A, %I : memref<?xf32>, memref<?xi32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %i: memref<?xi32>):
    %idx = stream.load %i[d0] : memref<?xi32> -> !stream.stream<i32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.load' op indirect positions [1] do not match its 1 index streams
    %v = "stream.load"(%a, %idx) <{map = #lattice.map<[0]>, indirect_dims = array<i64: 1>}> : (memref<?xf32>, !stream.stream<i32>) -> !stream.stream<f32>
    stream.yield
  }
  func.return
}

// -----

func.func @load_indirect_affine_part(%A: memref<?xf32>, %I: memref<?xi32>) {
  stream.region ins(%A, %I : memref<?xf32>, memref<?xi32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %i: memref<?xi32>):
    %idx = stream.load %i[d0] : memref<?xi32> -> !stream.stream<i32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.load' op indirect position 0 must have a zero affine part
    %v = "stream.load"(%a, %idx) <{map = #lattice.map<[d0]>, indirect_dims = array<i64: 0>}> : (memref<?xf32>, !stream.stream<i32>) -> !stream.stream<f32>
    stream.yield
  }
  func.return
}

// -----

func.func @load_index_type(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    %f = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.load' op index operand must be a stream of integers, got !stream.stream<f32>
    %v = stream.load %a[%f] : memref<?xf32> -> !stream.stream<f32>
    stream.yield
  }
  func.return
}

// -----

// NSC §II-B: an indirect address must come from a load/compute stream of the
// same region (here it comes from a reduction).
func.func @load_index_producer(%A: memref<?xf32>, %I: memref<4x4xi32>) {
  stream.region ins(%A, %I : memref<?xf32>, memref<4x4xi32>) domain [0:4, 0:4] iterators [parallel, reduction] {
  ^bb0(%a: memref<?xf32>, %i: memref<4x4xi32>):
    %j = stream.load %i[d0, d1] : memref<4x4xi32> -> !stream.stream<i32>
    %r = stream.reduce max %j over [1] : !stream.stream<i32> -> !stream.stream<i32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.load' op index stream must be produced by a stream.load, stream.compute, stream.chase or stream.count of the same region
    %v = stream.load %a[%r] : memref<?xf32> -> !stream.stream<f32>
    stream.yield
  }
  func.return
}

// -----

func.func @load_result_type(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.load' op result must be !stream.stream<f32>, got !stream.stream<i32>
    %v = "stream.load"(%a) <{map = #lattice.map<[d0]>, indirect_dims = array<i64>}> : (memref<?xf32>) -> !stream.stream<i32>
    stream.yield
  }
  func.return
}

// -----

func.func @load_result_type_custom(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    // The location is not checked here: it points one token too far (see
    // xfail-parse-error-location.mlir).
    // CHECK: invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: stream.load of memref<?xf32> must return a stream of its element type, got !stream.stream<i32>
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<i32>
    stream.yield
  }
  func.return
}

// -----

func.func @store_element_type(%A: memref<?xf32>, %B: memref<?xi32>) {
  stream.region ins(%A, %B : memref<?xf32>, memref<?xi32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xi32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.store' op stores f32 into a memref of i32
    stream.store %v -> %b[d0] : !stream.stream<f32> -> memref<?xi32>
    stream.yield
  }
  func.return
}

// -----

func.func @store_outside_region(%A: memref<?xf32>, %s: !stream.stream<f32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'stream.store' op expects ancestor op 'stream.region'
  stream.store %s -> %A[d0] : !stream.stream<f32> -> memref<?xf32>
  func.return
}

// -----

func.func @store_reduced_dim(%A: memref<4x4xf32>, %B: memref<4xf32>) {
  stream.region ins(%A, %B : memref<4x4xf32>, memref<4xf32>) domain [0:4, 0:4] iterators [parallel, reduction] {
  ^bb0(%a: memref<4x4xf32>, %b: memref<4xf32>):
    %v = stream.load %a[d0, d1] : memref<4x4xf32> -> !stream.stream<f32>
    %r = stream.reduce add %v over [1] : !stream.stream<f32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.store' op of a reduced stream indexes reduced dim(s) [1]
    stream.store %r -> %b[d1] : !stream.stream<f32> -> memref<4xf32>
    stream.yield
  }
  func.return
}

// -----

func.func @atomic_kind(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.atomic' op kind must be one of add, min, max, got 'mul'
    stream.atomic mul %v -> %a[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}

// -----

func.func @atomic_element_type(%A: memref<?xf32>, %H: memref<?xi32>) {
  stream.region ins(%A, %H : memref<?xf32>, memref<?xi32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %h: memref<?xi32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.atomic' op updates a memref of i32 with f32
    stream.atomic add %v -> %h[d0] : !stream.stream<f32> -> memref<?xi32>
    stream.yield
  }
  func.return
}

// -----

func.func @compute_too_many_inputs(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.compute' op takes at most 8 inputs, got 9
    %s = stream.compute(%v, %v, %v, %v, %v, %v, %v, %v, %v : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x0: f32, %x1: f32, %x2: f32, %x3: f32, %x4: f32, %x5: f32, %x6: f32, %x7: f32, %x8: f32):
      stream.yield %x0 : f32
    }
    stream.yield
  }
  func.return
}

// -----

func.func @compute_outside_region(%s: !stream.stream<f32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'stream.compute' op expects ancestor op 'stream.region'
  %r = stream.compute(%s : !stream.stream<f32>) -> !stream.stream<f32> {
  ^bb0(%x: f32):
    stream.yield %x : f32
  }
  func.return
}

// -----

func.func @compute_input_type(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.compute' op input must be a stream or a scalar, got memref<?xf32>
    %s = stream.compute(%a : memref<?xf32>) -> !stream.stream<f32> {
    ^bb1(%x: memref<?xf32>):
      %c = arith.constant 0.0 : f32
      stream.yield %c : f32
    }
    stream.yield
  }
  func.return
}

// -----

func.func @compute_body_args(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.compute' op body arguments ['i32'] must be the element types ['f32']
    %s = stream.compute(%v : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: i32):
      %c = arith.constant 0.0 : f32
      stream.yield %c : f32
    }
    stream.yield
  }
  func.return
}

// -----

func.func @compute_body_ops(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.compute' op body may only hold side-effect-free arith/math ops, found 'memref.alloc'
    %s = stream.compute(%v : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32):
      %m = memref.alloc() : memref<4xf32>
      stream.yield %x : f32
    }
    stream.yield
  }
  func.return
}

// -----

func.func @compute_yield_arity(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.compute' op body must end with 'stream.yield' of one value
    %s = stream.compute(%v : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32):
      stream.yield %x, %x : f32, f32
    }
    stream.yield
  }
  func.return
}

// -----

func.func @compute_yield_type(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.compute' op yields i32 but returns !stream.stream<f32>
    %s = stream.compute(%v : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32):
      %c = arith.constant 0 : i32
      stream.yield %c : i32
    }
    stream.yield
  }
  func.return
}

// -----

func.func @compute_syntax_types(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: 2 inputs but 1 types
    %s = stream.compute(%v, %v : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32, %y: f32):
      stream.yield %x : f32
    }
    stream.yield
  }
  func.return
}

// -----

func.func @reduce_kind(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [reduction] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.reduce' op kind must be one of add, mul, min, max, argmin, argmax, got 'xor'
    %s = stream.reduce xor %v over [0] : !stream.stream<f32> -> f32
    stream.yield
  }
  func.return
}

// -----

func.func @reduce_outside_region(%s: !stream.stream<f32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'stream.reduce' op expects ancestor op 'stream.region'
  %r = stream.reduce add %s over [0] : !stream.stream<f32> -> f32
  func.return
}

// -----

func.func @reduce_no_dims(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [reduction] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.reduce' op must reduce at least one dim
    %s = stream.reduce add %v over [] : !stream.stream<f32> -> !stream.stream<f32>
    stream.yield
  }
  func.return
}

// -----

func.func @reduce_dims_twice(%A: memref<4x4xf32>) {
  stream.region ins(%A : memref<4x4xf32>) domain [0:4, 0:4] iterators [reduction, reduction] {
  ^bb0(%a: memref<4x4xf32>):
    %v = stream.load %a[d0, d1] : memref<4x4xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.reduce' op reduces dim(s) [1, 1] more than once
    %s = stream.reduce add %v over [1, 1] : !stream.stream<f32> -> !stream.stream<f32>
    stream.yield
  }
  func.return
}

// -----

func.func @reduce_dim_range(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [reduction] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.reduce' op dim 3 is outside the rank-1 domain
    %s = stream.reduce add %v over [3] : !stream.stream<f32> -> f32
    stream.yield
  }
  func.return
}

// -----

func.func @reduce_parallel_dim(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.reduce' op reduces dim 0, which is not a 'reduction' iterator
    %s = stream.reduce add %v over [0] : !stream.stream<f32> -> f32
    stream.yield
  }
  func.return
}

// -----

func.func @reduce_dim_already_reduced(%A: memref<4x4xf32>) {
  stream.region ins(%A : memref<4x4xf32>) domain [0:4, 0:4] iterators [reduction, reduction] {
  ^bb0(%a: memref<4x4xf32>):
    %v = stream.load %a[d0, d1] : memref<4x4xf32> -> !stream.stream<f32>
    %p = stream.reduce add %v over [1] : !stream.stream<f32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.reduce' op reduces dim 1, which its input was already reduced over
    %s = stream.reduce add %p over [1] : !stream.stream<f32> -> !stream.stream<f32>
    stream.yield
  }
  func.return
}

// -----

func.func @reduce_arg_one_dim(%A: memref<4x4xf32>) {
  stream.region ins(%A : memref<4x4xf32>) domain [0:4, 0:4] iterators [reduction, reduction] {
  ^bb0(%a: memref<4x4xf32>):
    %v = stream.load %a[d0, d1] : memref<4x4xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.reduce' op argmin reduces exactly one dim
    %s = stream.reduce argmin %v over [0, 1] : !stream.stream<f32> -> index
    stream.yield
  }
  func.return
}

// -----

func.func @reduce_arg_result_type(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [reduction] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.reduce' op argmax result must be an integer index type, got f32
    %s = stream.reduce argmax %v over [0] : !stream.stream<f32> -> f32
    stream.yield
  }
  func.return
}

// -----

func.func @reduce_arg_init(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [reduction] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %c = arith.constant 0.0 : f32
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.reduce' op argmax takes no init value
    %s = stream.reduce argmax %v over [0] init %c : !stream.stream<f32> -> index
    stream.yield
  }
  func.return
}

// -----

func.func @reduce_result_element(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [reduction] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.reduce' op result element type i32 must equal the input's f32
    %s = stream.reduce add %v over [0] : !stream.stream<f32> -> i32
    stream.yield
  }
  func.return
}

// -----

func.func @reduce_init_type(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [reduction] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %c = arith.constant 0 : i32
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.reduce' op init has type i32, expected f32
    %s = "stream.reduce"(%v, %c) <{kind = "add", dims = array<i64: 0>}> : (!stream.stream<f32>, i32) -> f32
    stream.yield
  }
  func.return
}

// -----

func.func @reduce_partial_to_scalar(%A: memref<4x4xf32>) {
  stream.region ins(%A : memref<4x4xf32>) domain [0:4, 0:4] iterators [reduction, reduction] {
  ^bb0(%a: memref<4x4xf32>):
    %v = stream.load %a[d0, d1] : memref<4x4xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.reduce' op leaves dims [0] so its result must be a stream
    %s = stream.reduce add %v over [1] : !stream.stream<f32> -> f32
    stream.yield
  }
  func.return
}

// -----

func.func @reduce_full_to_stream(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [reduction] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:5: error: 'stream.reduce' op reduces every dim so its result must be a scalar
    %s = stream.reduce add %v over [0] : !stream.stream<f32> -> !stream.stream<f32>
    stream.yield
  }
  func.return
}

// -----

// Parse-level errors of the custom syntax.

func.func @syntax_ins_types(%A: memref<?xf32>, %B: memref<?xf32>) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: ins: 2 operands but 1 types
  stream.region ins(%A, %B : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>):
    stream.yield
  }
  func.return
}

// -----

func.func @syntax_syms(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected '='
  stream.region syms(N %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%N: index):
    stream.yield
  }
  func.return
}

// -----

func.func @syntax_domain(%n: index) {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected ':' between domain bounds
  stream.region syms(N = %n : index) domain [0, N] iterators [parallel] {
  ^bb0(%N: index):
    stream.yield
  }
  func.return
}

// -----

func.func @syntax_missing_iterators() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected 'iterators'
  stream.region domain [0:4] {
    stream.yield
  }
  func.return
}

// -----

func.func @syntax_access_map(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [parallel] {
  ^bb0(%a: memref<?xf32>):
    // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: expected an integer or a symbol name in affine expression
    %v = stream.load %a[d0 + ] : memref<?xf32> -> !stream.stream<f32>
    stream.yield
  }
  func.return
}

// -----

func.func @syntax_reduce_over(%A: memref<?xf32>) {
  stream.region ins(%A : memref<?xf32>) domain [0:4] iterators [reduction] {
  ^bb0(%a: memref<?xf32>):
    %v = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    // CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected 'over'
    %s = stream.reduce add %v [0] : !stream.stream<f32> -> f32
    stream.yield
  }
  func.return
}

// -----

func.func @yield_parent() {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:3: error: 'stream.yield' op
  stream.yield
}
