// Round trip of the shared `lattice` attributes (they have no ops): domains
// (half-open numpy-slice bounds, rank 0, empty, symbolic), access maps,
// multi-level patterns (negative and zero strides) and affine expressions.
// Affine expressions are printed canonically (terms sorted by name, constant
// last, coefficients folded), so a few inputs below are not in printed form.
//
// Custom -> custom; custom -> generic (checked with the GENERIC prefix);
// generic -> custom.
// RUN: infs-opt %s | filecheck %s
// RUN: infs-opt %s --print-op-generic > %t.generic.mlir
// RUN: filecheck %s --check-prefix=GENERIC < %t.generic.mlir
// RUN: infs-opt %t.generic.mlir | filecheck %s

func.func @domains() attributes {d0 = #lattice.domain<[0:N - 1, k + 1:N]>, d1 = #lattice.domain<[]>, d2 = #lattice.domain<[-2:3, 2*k:2*N - 1, -k + 4:7]>, d3 = #lattice.domain<[0:0]>, d4 = #lattice.domain<[N:N]>, d5 = #lattice.domain<[N - 1:k]>} {
  func.return
}

// CHECK-LABEL: func.func @domains()
// CHECK-SAME: d0 = #lattice.domain<[0:N - 1, k + 1:N]>,
// CHECK-SAME: d1 = #lattice.domain<[]>,
// CHECK-SAME: d2 = #lattice.domain<[-2:3, 2*k:2*N - 1, -k + 4:7]>,
// CHECK-SAME: d3 = #lattice.domain<[0:0]>,
// CHECK-SAME: d4 = #lattice.domain<[N:N]>,
// CHECK-SAME: d5 = #lattice.domain<[N - 1:k]>}

// GENERIC-LABEL: "func.func"() <{sym_name = "domains"
// GENERIC: }) {d0 = #lattice.domain<[0:N - 1, k + 1:N]>, d1 = #lattice.domain<[]>, d2 = #lattice.domain<[-2:3, 2*k:2*N - 1, -k + 4:7]>, d3 = #lattice.domain<[0:0]>, d4 = #lattice.domain<[N:N]>, d5 = #lattice.domain<[N - 1:k]>} : () -> ()

func.func @domains_normalized() attributes {d0 = #lattice.domain<[ 0 : N*2 , k+1:N-1+1 ]>, d1 = #lattice.domain<[-0:3*k - k]>} {
  func.return
}

// CHECK-LABEL: func.func @domains_normalized()
// CHECK-SAME: d0 = #lattice.domain<[0:2*N, k + 1:N]>,
// CHECK-SAME: d1 = #lattice.domain<[0:2*k]>}

// GENERIC-LABEL: "func.func"() <{sym_name = "domains_normalized"
// GENERIC: }) {d0 = #lattice.domain<[0:2*N, k + 1:N]>, d1 = #lattice.domain<[0:2*k]>} : () -> ()

func.func @maps() attributes {m0 = #lattice.map<[d0 - 1, k]>, m1 = #lattice.map<[]>, m2 = #lattice.map<[2*d1 + 3, -d0, 5]>, m3 = #lattice.map<[d2, d1, d0]>, m4 = #lattice.map<[N - d0 - 1]>} {
  func.return
}

// CHECK-LABEL: func.func @maps()
// CHECK-SAME: m0 = #lattice.map<[d0 - 1, k]>,
// CHECK-SAME: m1 = #lattice.map<[]>,
// CHECK-SAME: m2 = #lattice.map<[2*d1 + 3, -d0, 5]>,
// CHECK-SAME: m3 = #lattice.map<[d2, d1, d0]>,
// CHECK-SAME: m4 = #lattice.map<[N - d0 - 1]>}

// GENERIC-LABEL: "func.func"() <{sym_name = "maps"
// GENERIC: }) {m0 = #lattice.map<[d0 - 1, k]>, m1 = #lattice.map<[]>, m2 = #lattice.map<[2*d1 + 3, -d0, 5]>, m3 = #lattice.map<[d2, d1, d0]>, m4 = #lattice.map<[N - d0 - 1]>} : () -> ()

func.func @patterns() attributes {p0 = #lattice.pattern<1:2:2>, p1 = #lattice.pattern<0:1:4:16:2:64:3>, p2 = #lattice.pattern<8:-2:4>, p3 = #lattice.pattern<0:0:1>, p4 = #lattice.pattern<5:1:1>} {
  func.return
}

// CHECK-LABEL: func.func @patterns()
// CHECK-SAME: p0 = #lattice.pattern<1:2:2>,
// CHECK-SAME: p1 = #lattice.pattern<0:1:4:16:2:64:3>,
// CHECK-SAME: p2 = #lattice.pattern<8:-2:4>,
// CHECK-SAME: p3 = #lattice.pattern<0:0:1>,
// CHECK-SAME: p4 = #lattice.pattern<5:1:1>}

// GENERIC-LABEL: "func.func"() <{sym_name = "patterns"
// GENERIC: }) {p0 = #lattice.pattern<1:2:2>, p1 = #lattice.pattern<0:1:4:16:2:64:3>, p2 = #lattice.pattern<8:-2:4>, p3 = #lattice.pattern<0:0:1>, p4 = #lattice.pattern<5:1:1>} : () -> ()

func.func @exprs() attributes {e0 = #lattice.expr<N - 1>, e1 = #lattice.expr<0>, e2 = #lattice.expr<-3>, e3 = #lattice.expr<3 - N + 2*M - 1>, e4 = #lattice.expr<N - N>, e5 = #lattice.expr<k*4>, e6 = #lattice.expr<-k>} {
  func.return
}

// CHECK-LABEL: func.func @exprs()
// CHECK-SAME: e0 = #lattice.expr<N - 1>,
// CHECK-SAME: e1 = #lattice.expr<0>,
// CHECK-SAME: e2 = #lattice.expr<-3>,
// CHECK-SAME: e3 = #lattice.expr<2*M - N + 2>,
// CHECK-SAME: e4 = #lattice.expr<0>,
// CHECK-SAME: e5 = #lattice.expr<4*k>,
// CHECK-SAME: e6 = #lattice.expr<-k>}

// GENERIC-LABEL: "func.func"() <{sym_name = "exprs"
// GENERIC: }) {e0 = #lattice.expr<N - 1>, e1 = #lattice.expr<0>, e2 = #lattice.expr<-3>, e3 = #lattice.expr<2*M - N + 2>, e4 = #lattice.expr<0>, e5 = #lattice.expr<4*k>, e6 = #lattice.expr<-k>} : () -> ()
