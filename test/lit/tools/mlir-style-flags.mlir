// MLIR-style pass flags are accepted besides xDSL's `-p`: `--pass-name`
// flags (run in command-line order) and `--pass-pipeline=builtin.module(..)`.
// This file is its own input: canonicalize folds the addition, cse merges
// the two equal constants.
//
// RUN: infs-opt --canonicalize --cse %s | filecheck %s
// RUN: infs-opt --pass-pipeline='builtin.module(canonicalize,cse)' %s | filecheck %s
// RUN: infs-opt -p canonicalize,cse %s | filecheck %s
// RUN: infs-opt %s | filecheck %s --check-prefix=NOPASS

func.func @fold() -> (index, index) {
  %a = arith.constant 1 : index
  %b = arith.constant 2 : index
  %c = arith.addi %a, %b : index
  %d = arith.constant 3 : index
  func.return %c, %d : index, index
}

// CHECK-LABEL: func.func @fold() -> (index, index) {
// CHECK-NEXT:    %{{.*}} = arith.constant 3 : index
// CHECK-NEXT:    func.return %[[C:.*]], %[[C]] : index, index
// CHECK-NEXT:  }

// NOPASS: arith.addi
