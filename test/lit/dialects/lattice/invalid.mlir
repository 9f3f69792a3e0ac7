// Negative tests for the shared `lattice` attributes: the rules of
// `verify_domain` and `verify_pattern` (infs/dialects/lattice.py), which run
// when an attribute is built (at parse time, reported at the enclosing op),
// and parse-level errors inside `#lattice.<...>` bodies.
//
// `verify_pattern`'s "has no stride:count level" rule cannot be reached from
// text: the parser already rejects a pattern without a level (see the
// `pattern_no_level` chunk).
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: {{.*}}domain [0:4, 3:1] has lower bound > upper bound in dim 1
func.func @domain_bounds() attributes {d = #lattice.domain<[0:4, 3:1]>} {
  func.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: {{.*}}pattern 1:2:0 has a count <= 0
func.func @pattern_count() attributes {p = #lattice.pattern<1:2:0>} {
  func.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: {{.*}}pattern 0:1:4:8:-1 has a count <= 0
func.func @pattern_count_level() attributes {p = #lattice.pattern<0:1:4:8:-1>} {
  func.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: {{.*}}pattern -1:2:2 starts below 0
func.func @pattern_start() attributes {p = #lattice.pattern<-1:2:2>} {
  func.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: {{.*}}pattern 2:-2:3 reaches negative indices
func.func @pattern_negative() attributes {p = #lattice.pattern<2:-2:3>} {
  func.return
}

// -----

// Parse-level errors.

// CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected ':' between pattern stride and count
func.func @pattern_no_level() attributes {p = #lattice.pattern<1:2>} {
  func.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: a pattern needs at least one ':stride:count' level
func.func @pattern_start_only() attributes {p = #lattice.pattern<3>} {
  func.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected integer literal
func.func @pattern_empty() attributes {p = #lattice.pattern<>} {
  func.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected integer literal
func.func @pattern_symbolic() attributes {p = #lattice.pattern<0:N:2>} {
  func.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected ':' between domain bounds
func.func @domain_no_colon() attributes {d = #lattice.domain<[3]>} {
  func.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: '[' expected
func.func @domain_no_brackets() attributes {d = #lattice.domain<0:4>} {
  func.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: expected an integer or a symbol name in affine expression
func.func @expr_dangling_plus() attributes {e = #lattice.expr<N +>} {
  func.return
}

// -----

// An affine expression cannot multiply two symbols.
// CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: Expected integer literal
func.func @map_nonlinear() attributes {m = #lattice.map<[d0 * k]>} {
  func.return
}

// -----

// CHECK: invalid.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: '>' expected
func.func @map_trailing() attributes {m = #lattice.map<[d0] d1>} {
  func.return
}
