// Upstream MLIR's custom form of affine.parallel, affine.if, affine.min,
// affine.max and affine.apply (infs/dialects/upstream_syntax.py), as
// `mlir-opt` prints them: custom -> custom; custom -> generic (the properties
// of upstream's generic form, checked with the GENERIC prefix); generic -> custom.
// RUN: infs-opt %s --split-input-file | filecheck %s
// RUN: infs-opt %s --split-input-file --print-op-generic > %t.generic.mlir
// RUN: filecheck %s --check-prefix=GENERIC < %t.generic.mlir
// RUN: infs-opt %t.generic.mlir --split-input-file | filecheck %s

// CHECK-LABEL: func.func @parallel
// CHECK:         affine.parallel (%i, %j) = (0, 0) to (%n, 10) {
// CHECK-NEXT:      %v = affine.load %A[%i, %j] : memref<?x?xf32>
// CHECK-NEXT:      affine.store %v, %A[%j, %i] : memref<?x?xf32>
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "parallel"
// GENERIC:       "affine.parallel"(%n) <{reductions = [], lowerBoundsMap = affine_map<() -> (0, 0)>, lowerBoundsGroups = dense<1> : tensor<2xi32>, upperBoundsMap = affine_map<(d0) -> (d0, 10)>, upperBoundsGroups = dense<1> : tensor<2xi32>, steps = [1 : i64, 1 : i64]}>
// GENERIC:         "affine.yield"() : () -> ()
func.func @parallel(%A: memref<?x?xf32>, %n: index) {
  affine.parallel (%i, %j) = (0, 0) to (%n, 10) {
    %v = affine.load %A[%i, %j] : memref<?x?xf32>
    affine.store %v, %A[%j, %i] : memref<?x?xf32>
  }
  return
}

// -----

// Reductions, steps, max/min bound groups and symbols, as
// `--affine-parallelize`, `--affine-loop-tile` and `--canonicalize` print them.
// CHECK-LABEL: func.func @reduce
// CHECK:         %r, %r_1 = affine.parallel (%i, %j) = (0, max(0, %N - 4)) to (symbol(%M), min(20, %N)) step (1, 2) reduce ("addf", "maxnumf") -> (f32, f32) {
// CHECK-NEXT:      %v = affine.load %A[%i, %j] : memref<10x20xf32>
// CHECK-NEXT:      affine.yield %v, %v : f32, f32
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "reduce"
// GENERIC:       %r, %r_1 = "affine.parallel"(%N, %N, %M) <{reductions = [0 : i64, 5 : i64], lowerBoundsMap = affine_map<(d0) -> (0, 0, (d0 + -4))>, lowerBoundsGroups = dense<[1, 2]> : tensor<2xi32>, upperBoundsMap = affine_map<(d0)[s0] -> (s0, 20, d0)>, upperBoundsGroups = dense<[1, 2]> : tensor<2xi32>, steps = [1 : i64, 2 : i64]}>
func.func @reduce(%A: memref<10x20xf32>, %N: index, %M: index) -> (f32, f32) {
  %r:2 = affine.parallel (%i, %j) = (0, max(0, %N - 4)) to (symbol(%M), min(20, %N)) step (1, 2) reduce ("addf", "maxnumf") -> (f32, f32) {
    %v = affine.load %A[%i, %j] : memref<10x20xf32>
    affine.yield %v, %v : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}

// -----

// CHECK-LABEL: func.func @conditions
// CHECK:         affine.if affine_set<(d0)[s0] : ({{.*}})>(%i)[%n] {
// CHECK-NEXT:      affine.store %c, %A[%i] : memref<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    affine.if affine_set<(d0) : (d0 == 0)>(%i) {
// CHECK-NEXT:      affine.store %c, %A[%i] : memref<?xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      affine.store %c, %A[%i + 1] : memref<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = affine.if affine_set<()[s0] : (s0 >= 0)>()[%n] -> f32 {
// CHECK-NEXT:      affine.yield %c : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %l = affine.load %A[0] : memref<?xf32>
// CHECK-NEXT:      affine.yield %l : f32
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "conditions"
// GENERIC:       "affine.if"(%i, %n) <{condition = affine_set<(d0)[s0] : {{.*}}>}> ({
// GENERIC:       }, {
// GENERIC-NEXT:  }) : (index, index) -> ()
// GENERIC:       %r = "affine.if"(%n) <{condition = affine_set<()[s0] : (s0 >= 0)>}> ({
// GENERIC:       }) : (index) -> f32
#set = affine_set<(d0)[s0] : (d0 - 10 >= 0, s0 - d0 - 1 >= 0)>
func.func @conditions(%i: index, %n: index, %A: memref<?xf32>) -> f32 {
  %c = arith.constant 1.000000e+00 : f32
  affine.if #set(%i)[%n] {
    affine.store %c, %A[%i] : memref<?xf32>
  }
  affine.if affine_set<(d0) : (d0 == 0)>(%i) {
    affine.store %c, %A[%i] : memref<?xf32>
  } else {
    affine.store %c, %A[%i + 1] : memref<?xf32>
  }
  %r = affine.if affine_set<()[s0] : (s0 >= 0)>()[%n] -> f32 {
    affine.yield %c : f32
  } else {
    %l = affine.load %A[0] : memref<?xf32>
    affine.yield %l : f32
  }
  return %r : f32
}

// -----

// CHECK-LABEL: func.func @maps
// CHECK-NEXT:    %0 = affine.min affine_map<(d0)[s0] -> (s0, (d0 + 4))>(%i)[%n]
// CHECK-NEXT:    %1 = affine.max affine_map<(d0)[s0] -> (s0, (d0 + -4))>(%i)[%n]
// CHECK-NEXT:    %2 = affine.apply affine_map<(d0)[s0] -> (((d0 * 2) + s0))>(%i)[%n]
// CHECK-NEXT:    %3 = affine.apply affine_map<() -> (42)>()
// GENERIC-LABEL: sym_name = "maps"
// GENERIC:       %1 = "affine.max"(%i, %n) <{map = affine_map<(d0)[s0] -> (s0, (d0 + -4))>}> : (index, index) -> index
func.func @maps(%i: index, %n: index) -> (index, index, index, index) {
  %0 = affine.min affine_map<(d0)[s0] -> (s0, d0 + 4)>(%i)[%n]
  %1 = affine.max affine_map<(d0)[s0] -> (s0, d0 - 4)>(%i)[%n]
  %2 = affine.apply affine_map<(d0)[s0] -> (d0 * 2 + s0)>(%i)[%n]
  %3 = affine.apply affine_map<() -> (42)>()
  return %0, %1, %2, %3 : index, index, index, index
}
