// PolyBench gemm (test/polybench/gemm.mlir, cgeist's output) after upstream's
// `mlir-opt --affine-parallelize`, exactly as it prints it (generated with
// `iree-opt --affine-parallelize`; the module's legacy #dlti.dl_entry data
// layout, which MLIR 20 and later no longer read, left out).  extract-streams
// finds its regions in the affine.parallel nests, and it runs.
// RUN: infs-opt %s -p 'extract-streams{remarks=true}' 2>&1 >/dev/null | filecheck %s
// RUN: infs-run %s --config tiny --mode auto --check --scalar arg0=5 --scalar arg1=7 --scalar arg2=3 --scalar arg3=1.5 --scalar arg4=1.25 --shape arg5=5x25 --shape arg6=5x30 --shape arg7=3x25 | filecheck %s --check-prefix=EXEC
// CHECK: gemm-affine-parallelize.mlir:[[# @LINE + 14]]:5: remark: extract-streams: loop nest distributed into 2 nests, one per statement
// CHECK: statement 1 of 2: loop nest extracted into 1 stream.region: domain [0:arg0, 0:arg1] iterators [parallel, parallel]
// CHECK: statement 2 of 2: loop nest extracted into 2 stream.regions: domain [0:arg0, 0:arg2, 0:arg1] iterators [parallel, reduction, parallel]
// EXEC: regions {{.*}}: 3
// EXEC: check: outputs match the stream reference
module attributes {llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "polygeist.target-cpu" = "x86-64", "polygeist.target-features" = "+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87", "polygeist.tune-cpu" = "generic"} {
  llvm.mlir.global internal constant @str1("%0.2lf \00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @str0("\0A\00") {addr_space = 0 : i32}
  llvm.mlir.global external @stderr() {addr_space = 0 : i32} : !llvm.ptr
  llvm.func @fprintf(!llvm.ptr, !llvm.ptr, ...) -> i32
  func.func @kernel_gemm(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: f64, %arg4: f64, %arg5: memref<?x25xf64>, %arg6: memref<?x30xf64>, %arg7: memref<?x25xf64>) attributes {llvm.linkage = #llvm.linkage<external>} {
    %0 = arith.index_cast %arg1 : i32 to index
    %1 = arith.index_cast %arg2 : i32 to index
    %2 = arith.index_cast %arg0 : i32 to index
    affine.parallel (%arg8) = (0) to (symbol(%2)) {
      affine.parallel (%arg9) = (0) to (symbol(%0)) {
        %3 = affine.load %arg5[%arg8, %arg9] : memref<?x25xf64>
        %4 = arith.mulf %3, %arg4 : f64
        affine.store %4, %arg5[%arg8, %arg9] : memref<?x25xf64>
      }
      affine.for %arg9 = 0 to %1 {
        affine.parallel (%arg10) = (0) to (symbol(%0)) {
          %3 = affine.load %arg6[%arg8, %arg9] : memref<?x30xf64>
          %4 = arith.mulf %arg3, %3 : f64
          %5 = affine.load %arg7[%arg9, %arg10] : memref<?x25xf64>
          %6 = arith.mulf %4, %5 : f64
          %7 = affine.load %arg5[%arg8, %arg10] : memref<?x25xf64>
          %8 = arith.addf %7, %6 : f64
          affine.store %8, %arg5[%arg8, %arg10] : memref<?x25xf64>
        }
      }
    }
    return
  }
}

