// What extract-streams leaves on the host, one remark each (and the host code
// is lowered to scf/arith/memref: nothing of affine remains).
//
// RUN: infs-opt %s --split-input-file -p 'extract-streams{remarks=true}' 2>&1 >/dev/null | filecheck %s
// RUN: infs-opt %s --split-input-file -p extract-streams 2>/dev/null | filecheck %s --check-prefix=HOST
// HOST-NOT: affine.
// HOST-NOT: stream.region

func.func private @ext(f32) -> f32
func.func @call_in_loop(%A: memref<?xf32>, %n: index) {
  // CHECK: host.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: 'func.call' in the loop body
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xf32>
    %b = func.call @ext(%a) : (f32) -> f32
    affine.store %b, %A[%i] : memref<?xf32>
  }
  func.return
}

// -----

func.func @alloc_in_loop(%A: memref<?xf32>, %n: index) {
  // CHECK: host.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: 'memref.alloc' in the loop body
  affine.for %i = 0 to %n {
    %t = memref.alloc() : memref<4xf32>
    %a = affine.load %t[0] : memref<4xf32>
    affine.store %a, %A[%i] : memref<?xf32>
    memref.dealloc %t : memref<4xf32>
  }
  func.return
}

// -----

func.func @indirect(%A: memref<?xf32>, %I: memref<?xindex>, %n: index) {
  // CHECK: host.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: an index is computed by 'affine.load', which is not affine in the loop indices
  affine.for %i = 0 to %n {
    %j = affine.load %I[%i] : memref<?xindex>
    %a = memref.load %A[%j] : memref<?xf32>
    affine.store %a, %A[%i] : memref<?xf32>
  }
  func.return
}

// -----

func.func @step2(%A: memref<?xf32>, %n: index) {
  // CHECK: host.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: step 2 (only unit steps map onto a domain)
  affine.for %i = 0 to %n step 2 {
    %a = affine.load %A[%i] : memref<?xf32>
    affine.store %a, %A[%i + 1] : memref<?xf32>
  }
  func.return
}

// -----

func.func @maxbound(%A: memref<?xf32>, %n: index, %m: index) {
  // CHECK: host.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: a max/min bound (several bound expressions) is not a rectangular domain
  affine.for %i = max affine_map<()[s0, s1] -> (s0, s1)>()[%n, %m] to min affine_map<()[s0] -> (s0, 10)>()[%n] {
    %a = affine.load %A[%i] : memref<?xf32>
    affine.store %a, %A[%i] : memref<?xf32>
  }
  func.return
}

// -----

func.func @iv_as_value(%A: memref<?xf32>, %n: index) {
  // CHECK: host.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: a loop index is used as a value (streams carry array elements, not their coordinates)
  affine.for %i = 0 to %n {
    %x = arith.index_cast %i : index to i32
    %f = arith.sitofp %x : i32 to f32
    affine.store %f, %A[%i] : memref<?xf32>
  }
  func.return
}

// -----

func.func @rank4(%A: memref<?x?x?x?xf32>, %n: index) {
  // CHECK: host.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: 'affine.load' of a rank-4 array (streams reach up to 3 dims)
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i, %i, %i, %i] : memref<?x?x?x?xf32>
    affine.store %a, %A[%i, 0, 0, %i] : memref<?x?x?x?xf32>
  }
  func.return
}

// -----

func.func @while_inside(%A: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: host.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: the 'scf.while' at line [[# @LINE + 2]] carries a value of type index (a pointer chase carries an integer slot, i8 or wider)
  scf.for %i = %c0 to %n step %c1 {
    %r = scf.while (%k = %c0) : (index) -> index {
      %c = arith.cmpi slt, %k, %c1 : index
      scf.condition(%c) %k : index
    } do {
    ^bb0(%k2: index):
      %k3 = arith.addi %k2, %c1 : index
      scf.yield %k3 : index
    }
  }
  func.return
}

// -----

func.func @empty_const(%A: memref<?xf32>) {
  // CHECK: host.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: the loop never runs (bounds 5 to 3)
  affine.for %i = 5 to 3 {
    %a = affine.load %A[%i] : memref<?xf32>
    affine.store %a, %A[%i] : memref<?xf32>
  }
  func.return
}

// -----

func.func @vector(%A: memref<?xf32>, %n: index) {
  // CHECK: host.mlir:[[# @LINE + 1]]:3: remark: extract-streams: loop nest not extracted: 'vector.broadcast' in the loop body
  affine.for %i = 0 to %n {
    %a = affine.load %A[%i] : memref<?xf32>
    %v = vector.broadcast %a : f32 to vector<4xf32>
  }
  func.return
}
