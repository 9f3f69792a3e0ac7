// gauss_elim (ASPLOS'23 Table 3, Fig. 4(c)): forward elimination of A x = b
// on an N x N system, no pivoting.  The k loop carries the dependence and
// stays on the host; per k, two regions:
//   (1) i loop, k < i < N:          m[i] = A[i][k] / A[k][k];  b[i] -= m[i] * b[k]
//   (2) i, j loops, k < i, j < N:   A[i][j] -= m[i] * A[k][j]
// A[k][k] and b[k] are outer-loop values, loaded on the host and passed as
// f32 scalars.  Region (1) is the paper's stream m writing the division
// result into a tensor that region (2) consumes (m broadcast along j, row k
// of A broadcast along i).  Column k below the diagonal is left as is (the
// multipliers are in m).
func.func @gauss_elim(%A: memref<?x?xf32>, %b: memref<?xf32>, %m: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  scf.for %k = %c0 to %nm1 step %c1 {
    %akk = memref.load %A[%k, %k] : memref<?x?xf32>
    %bk = memref.load %b[%k] : memref<?xf32>
    stream.region ins(%A, %b, %m : memref<?x?xf32>, memref<?xf32>, memref<?xf32>) syms(N = %n : index, k = %k : index, akk = %akk : f32, bk = %bk : f32) domain [k + 1:N] iterators [parallel] {
    ^bb0(%a: memref<?x?xf32>, %bb: memref<?xf32>, %mm: memref<?xf32>, %N: index, %K: index, %vakk: f32, %vbk: f32):
      %aik = stream.load %a[d0, k] : memref<?x?xf32> -> !stream.stream<f32>
      %bi = stream.load %bb[d0] : memref<?xf32> -> !stream.stream<f32>
      %mi = stream.compute(%aik, %vakk : !stream.stream<f32>, f32) -> !stream.stream<f32> {
      ^bb1(%x: f32, %p: f32):
        %q = arith.divf %x, %p : f32
        stream.yield %q : f32
      }
      %nb = stream.compute(%bi, %mi, %vbk : !stream.stream<f32>, !stream.stream<f32>, f32) -> !stream.stream<f32> {
      ^bb1(%x: f32, %f: f32, %y: f32):
        %t = arith.mulf %f, %y : f32
        %r = arith.subf %x, %t : f32
        stream.yield %r : f32
      }
      stream.store %mi -> %mm[d0] : !stream.stream<f32> -> memref<?xf32>
      stream.store %nb -> %bb[d0] : !stream.stream<f32> -> memref<?xf32>
      stream.yield
    }
    stream.region ins(%A, %m : memref<?x?xf32>, memref<?xf32>) syms(N = %n : index, k = %k : index) domain [k + 1:N, k + 1:N] iterators [parallel, parallel] {
    ^bb0(%a: memref<?x?xf32>, %mm: memref<?xf32>, %N: index, %K: index):
      %mi = stream.load %mm[d0] : memref<?xf32> -> !stream.stream<f32>
      %akj = stream.load %a[k, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %aij = stream.load %a[d0, d1] : memref<?x?xf32> -> !stream.stream<f32>
      %r = stream.compute(%aij, %mi, %akj : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
      ^bb1(%x: f32, %f: f32, %y: f32):
        %t = arith.mulf %f, %y : f32
        %s = arith.subf %x, %t : f32
        stream.yield %s : f32
      }
      stream.store %r -> %a[d0, d1] : !stream.stream<f32> -> memref<?x?xf32>
      stream.yield
    }
  }
  func.return
}
