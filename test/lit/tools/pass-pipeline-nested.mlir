// --pass-pipeline in MLIR's full syntax: builtin.module(...) with pass
// options in braces (MLIR's space-separated key=value, values may hold `=`
// and `,`), and func.func(...) nesting: xDSL passes there run on each
// function on its own.  infs's module passes cannot nest under func.func.
//
// RUN: infs-opt --pass-pipeline='builtin.module(func.func(canonicalize,cse))' %s | filecheck %s
// RUN: infs-opt -p 'func.func(canonicalize),cse' %s | filecheck %s
// RUN: infs-opt --pass-pipeline='builtin.module(tensorize,lower-pim{sizes=N=16 config=tiny})' %S/../../../infs/workloads/vec_add.mlir | filecheck %s --check-prefix=LOWER
// RUN: not infs-opt --pass-pipeline='builtin.module(func.func(lower-pim{sizes=N=16}))' %s 2>&1 | filecheck %s --check-prefix=MODULE-PASS
// RUN: not infs-opt --pass-pipeline='builtin.module(scf.for(cse))' %s 2>&1 | filecheck %s --check-prefix=ANCHOR
// RUN: not infs-opt --pass-pipeline='builtin.module(func.func(cse)' %s 2>&1 | filecheck %s --check-prefix=UNBALANCED

func.func @f() -> (index, index) {
  %a = arith.constant 1 : index
  %b = arith.constant 2 : index
  %c = arith.addi %a, %b : index
  %d = arith.constant 3 : index
  func.return %c, %d : index, index
}

func.func @g() -> index {
  %a = arith.constant 20 : index
  %b = arith.constant 22 : index
  %c = arith.addi %a, %b : index
  func.return %c : index
}

// CHECK-LABEL: func.func @f() -> (index, index) {
// CHECK-NEXT:    %{{.*}} = arith.constant 3 : index
// CHECK-NEXT:    func.return %[[C:.*]], %[[C]] : index, index
// CHECK-LABEL: func.func @g() -> index {
// CHECK-NEXT:    %{{.*}} = arith.constant 42 : index

// LOWER: pimcmd.program {{.*}}config tiny
// LOWER-NOT: stream.region

// MODULE-PASS: {{^}}infs-opt: error: bad pipeline '{{.*}}': 'lower-pim' is a module pass {{.*}}run it outside func.func(...)
// MODULE-PASS-NOT: Traceback
// ANCHOR: {{^}}infs-opt: error: {{.*}}cannot nest passes under 'scf.for'
// UNBALANCED: {{^}}infs-opt: error: bad pipeline {{.*}}: missing ')'
