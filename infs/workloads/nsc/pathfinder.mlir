// pathfinder (Rodinia; near-stream computing, HPCA'22 Table VI) as plain loops:
// the cheapest path down a wall of T+1 rows of N costs, one row per step,
//   dst[j] = W[t+1][j] + min(src[j-1], src[j], src[j+1])   (neighbours past the row left out)
// starting from src = W[0], T steps (T even) ping-ponging A -> B -> A (Rodinia swaps
// two row pointers; a host loop by two steps does the same without them).  The
// row's edges are Rodinia's two ifs (scf.if): the load past the row is never made.
// W is (T+1) x N (i32), A and B are N (i32).
// Streams (NSC Table II): affine loads of three neighbours and the wall's row, an
// affine multi-operand store.
func.func @pathfinder(%W: memref<?x?xi32>, %A: memref<?xi32>, %B: memref<?xi32>, %n: index, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %last = arith.subi %n, %c1 : index
  affine.for %j = 0 to %n {
    %w0 = affine.load %W[0, %j] : memref<?x?xi32>
    affine.store %w0, %A[%j] : memref<?xi32>
  }
  affine.for %s = 0 to %t step 2 {
    %r1 = arith.addi %s, %c1 : index
    %r2 = arith.addi %s, %c2 : index
    affine.for %j = 0 to %n {
      %c = affine.load %A[%j] : memref<?xi32>
      %has_left = arith.cmpi sgt, %j, %c0 : index
      %m1 = scf.if %has_left -> (i32) {
        %jl = arith.subi %j, %c1 : index
        %l = memref.load %A[%jl] : memref<?xi32>
        %lt = arith.cmpi slt, %l, %c : i32
        %m = arith.select %lt, %l, %c : i32
        scf.yield %m : i32
      } else {
        scf.yield %c : i32
      }
      %has_right = arith.cmpi slt, %j, %last : index
      %m2 = scf.if %has_right -> (i32) {
        %jr = arith.addi %j, %c1 : index
        %r = memref.load %A[%jr] : memref<?xi32>
        %lt = arith.cmpi slt, %r, %m1 : i32
        %m = arith.select %lt, %r, %m1 : i32
        scf.yield %m : i32
      } else {
        scf.yield %m1 : i32
      }
      %w = memref.load %W[%r1, %j] : memref<?x?xi32>
      %v = arith.addi %w, %m2 : i32
      affine.store %v, %B[%j] : memref<?xi32>
    }
    affine.for %j = 0 to %n {
      %c = affine.load %B[%j] : memref<?xi32>
      %has_left = arith.cmpi sgt, %j, %c0 : index
      %m1 = scf.if %has_left -> (i32) {
        %jl = arith.subi %j, %c1 : index
        %l = memref.load %B[%jl] : memref<?xi32>
        %lt = arith.cmpi slt, %l, %c : i32
        %m = arith.select %lt, %l, %c : i32
        scf.yield %m : i32
      } else {
        scf.yield %c : i32
      }
      %has_right = arith.cmpi slt, %j, %last : index
      %m2 = scf.if %has_right -> (i32) {
        %jr = arith.addi %j, %c1 : index
        %r = memref.load %B[%jr] : memref<?xi32>
        %lt = arith.cmpi slt, %r, %m1 : i32
        %m = arith.select %lt, %r, %m1 : i32
        scf.yield %m : i32
      } else {
        scf.yield %m1 : i32
      }
      %w = memref.load %W[%r2, %j] : memref<?x?xi32>
      %v = arith.addi %w, %m2 : i32
      affine.store %v, %A[%j] : memref<?xi32>
    }
  }
  func.return
}
