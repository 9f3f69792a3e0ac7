// extract-streams finds pointer chases (NSC Table II's pointer-chasing
// streams) in plain loops as cgeist prints them: an scf.while carrying one
// integer slot, tested for null ('p >= 0') and, when not null, by a test that
// loads the node's fields at the pointer; its step loads the next slot.  Each
// becomes a stream.chase; what the reader does not take stays on the host
// with a remark.
//
// RUN: infs-opt %s --split-input-file -p 'extract-streams' | filecheck %s
// RUN: infs-opt %s --split-input-file -p 'extract-streams{remarks=true}' 2>&1 >/dev/null | filecheck %s --check-prefix=REMARK

// A linked-list search per key: the chain from the list's head to the node
// holding the key (or its end, -1).
// CHECK-LABEL: func.func @list_search
// CHECK: stream.region ins(%{{.*}}) syms(n = %{{.*}} : index, head = %{{.*}} : i32) domain [0:n] iterators [parallel] {
// CHECK: %[[K:.*]] = stream.load %{{.*}}[d0] : memref<?xi32> -> !stream.stream<i32>
// CHECK-NEXT: %[[P:.*]] = stream.chase(%{{.*}} : i32) fields(%{{.*}}, %{{.*}} : memref<?xi32>, memref<?xi32>) with(%[[K]] : !stream.stream<i32>) -> !stream.stream<i32> {
// CHECK-NEXT: ^{{.*}}(%[[PTR:.*]]: i32, %[[VAL:.*]]: i32, %[[NX:.*]]: i32, %[[KEY:.*]]: i32):
// CHECK-NEXT: %[[NE:.*]] = arith.cmpi ne, %[[VAL]], %[[KEY]] : i32
// CHECK-NEXT: stream.yield %[[NE]], %[[NX]] : i1, i32
// CHECK: stream.store %[[P]] -> %{{.*}}[d0] : !stream.stream<i32> -> memref<?xi32>
// REMARK: pointer-chase.mlir:[[# @LINE + 4]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [parallel]
func.func @list_search(%Val: memref<?xi32>, %Next: memref<?xi32>, %Keys: memref<?xi32>, %Out: memref<?xi32>, %Head: memref<?xi32>, %n: index) {
  %zero = arith.constant 0 : i32
  %head = affine.load %Head[0] : memref<?xi32>
  affine.for %i = 0 to %n {
    %k = affine.load %Keys[%i] : memref<?xi32>
    %p = scf.while (%q = %head) : (i32) -> i32 {
      %valid = arith.cmpi sge, %q, %zero : i32
      %go = scf.if %valid -> (i1) {
        %qi = arith.index_cast %q : i32 to index
        %v = memref.load %Val[%qi] : memref<?xi32>
        %ne = arith.cmpi ne, %v, %k : i32
        scf.yield %ne : i1
      } else {
        %f = arith.constant false
        scf.yield %f : i1
      }
      scf.condition(%go) %q : i32
    } do {
    ^bb0(%c: i32):
      %ci = arith.index_cast %c : i32 to index
      %nx = memref.load %Next[%ci] : memref<?xi32>
      scf.yield %nx : i32
    }
    affine.store %p, %Out[%i] : memref<?xi32>
  }
  func.return
}

// -----

// A chain walked to its end per start (no test but the null one), then a
// count of the non-empty chains beside the per-point store: one region
// folding over its points, the chase's body going on while not null.
// CHECK-LABEL: func.func @walk_to_end
// CHECK: stream.region {{.*}} domain [0:n] iterators [reduction] -> i32 {
// CHECK: stream.chase(%{{.*}} : !stream.stream<i32>) fields(%{{.*}} : memref<?xi32>) -> !stream.stream<i32> {
// CHECK: %[[T:.*]] = arith.constant true
// CHECK-NEXT: stream.yield %[[T]], %{{.*}} : i1, i32
// CHECK: stream.reduce add
// REMARK: pointer-chase.mlir:[[# @LINE + 4]]:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [reduction]
func.func @walk_to_end(%Next: memref<?xi32>, %Start: memref<?xi32>, %Out: memref<?xi32>, %Cnt: memref<?xi32>, %n: index) {
  %zero = arith.constant 0 : i32
  %c0 = affine.load %Cnt[0] : memref<?xi32>
  %total = affine.for %i = 0 to %n iter_args(%cnt = %c0) -> (i32) {
    %s = affine.load %Start[%i] : memref<?xi32>
    %p = scf.while (%q = %s) : (i32) -> i32 {
      %valid = arith.cmpi sge, %q, %zero : i32
      scf.condition(%valid) %q : i32
    } do {
    ^bb0(%c: i32):
      %ci = arith.index_cast %c : i32 to index
      %nx = memref.load %Next[%ci] : memref<?xi32>
      scf.yield %nx : i32
    }
    affine.store %p, %Out[%i] : memref<?xi32>
    %any = arith.cmpi sge, %s, %zero : i32
    %one = arith.extui %any : i1 to i32
    %cnt1 = arith.addi %cnt, %one : i32
    affine.yield %cnt1 : i32
  }
  affine.store %total, %Cnt[0] : memref<?xi32>
  func.return
}

// -----

// No null test before the loads: the chase would load through -1.
// REMARK: pointer-chase.mlir:[[# @LINE + 4]]:3: remark: extract-streams: loop nest not extracted: the 'scf.while' at line [[# @LINE + 6]] does not test its pointer for null ('p >= 0') before it loads through it
func.func @no_null_test(%Val: memref<?xi32>, %Next: memref<?xi32>, %Out: memref<?xi32>, %n: index) {
  %zero = arith.constant 0 : i32
  %k = arith.constant 7 : i32
  affine.for %i = 0 to %n {
    %s = affine.load %Next[%i] : memref<?xi32>
    %p = scf.while (%q = %s) : (i32) -> i32 {
      %qi = arith.index_cast %q : i32 to index
      %v = memref.load %Val[%qi] : memref<?xi32>
      %ne = arith.cmpi ne, %v, %k : i32
      scf.condition(%ne) %q : i32
    } do {
    ^bb0(%c: i32):
      %ci = arith.index_cast %c : i32 to index
      %nx = memref.load %Next[%ci] : memref<?xi32>
      scf.yield %nx : i32
    }
    affine.store %p, %Out[%i] : memref<?xi32>
  }
  func.return
}

// -----

// A walk that stores on its way is not a stream: it stays on the host.
// REMARK: pointer-chase.mlir:[[# @LINE + 3]]:3: remark: extract-streams: loop nest not extracted: 'memref.store' in the pointer chase at line [[# @LINE + 5]] (its test and step take loads at the pointer and arith only)
func.func @stores_on_the_way(%Next: memref<?xi32>, %Mark: memref<?xi32>, %Out: memref<?xi32>, %n: index) {
  %zero = arith.constant 0 : i32
  affine.for %i = 0 to %n {
    %s = affine.load %Out[%i] : memref<?xi32>
    %p = scf.while (%q = %s) : (i32) -> i32 {
      %valid = arith.cmpi sge, %q, %zero : i32
      scf.condition(%valid) %q : i32
    } do {
    ^bb0(%c: i32):
      %ci = arith.index_cast %c : i32 to index
      memref.store %zero, %Mark[%ci] : memref<?xi32>
      %nx = memref.load %Next[%ci] : memref<?xi32>
      scf.yield %nx : i32
    }
    affine.store %p, %Out[%i] : memref<?xi32>
  }
  func.return
}

// -----

// The chase's fields are written by the same nest: the region would not
// verify (a chain reads the structure as it was at region entry).
// REMARK: pointer-chase.mlir:[[# @LINE + 3]]:3: remark: extract-streams: loop nest not extracted: the region would not verify: 'stream.chase' chases through %Next, which the region writes (a chain reads the structure as it was at region entry)
func.func @field_written(%Next: memref<?xi32>, %Start: memref<?xi32>, %n: index) {
  %zero = arith.constant 0 : i32
  affine.for %i = 0 to %n {
    %s = affine.load %Start[%i] : memref<?xi32>
    %p = scf.while (%q = %s) : (i32) -> i32 {
      %valid = arith.cmpi sge, %q, %zero : i32
      scf.condition(%valid) %q : i32
    } do {
    ^bb0(%c: i32):
      %ci = arith.index_cast %c : i32 to index
      %nx = memref.load %Next[%ci] : memref<?xi32>
      scf.yield %nx : i32
    }
    affine.store %p, %Next[%i] : memref<?xi32>
  }
  func.return
}
