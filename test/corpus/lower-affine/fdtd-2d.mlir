// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(lower-affine)' test/polybench/fdtd-2d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module attributes {dlti.dl_spec = #dlti.dl_spec<#dlti.dl_entry<f80, dense<128> : vector<2xi32>>, #dlti.dl_entry<!llvm.ptr<272>, dense<64> : vector<4xi32>>, #dlti.dl_entry<i64, dense<64> : vector<2xi32>>, #dlti.dl_entry<!llvm.ptr<270>, dense<32> : vector<4xi32>>, #dlti.dl_entry<!llvm.ptr<271>, dense<32> : vector<4xi32>>, #dlti.dl_entry<f16, dense<16> : vector<2xi32>>, #dlti.dl_entry<f64, dense<64> : vector<2xi32>>, #dlti.dl_entry<f128, dense<128> : vector<2xi32>>, #dlti.dl_entry<i32, dense<32> : vector<2xi32>>, #dlti.dl_entry<i8, dense<8> : vector<2xi32>>, #dlti.dl_entry<i16, dense<16> : vector<2xi32>>, #dlti.dl_entry<!llvm.ptr, dense<64> : vector<4xi32>>, #dlti.dl_entry<i1, dense<8> : vector<2xi32>>, #dlti.dl_entry<"dlti.stack_alignment", 128 : i32>, #dlti.dl_entry<"dlti.endianness", "little">>, llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "polygeist.target-cpu" = "x86-64", "polygeist.target-features" = "+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87", "polygeist.tune-cpu" = "generic"} {
  llvm.mlir.global internal constant @str1("%0.2lf \00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @str0("\0A\00") {addr_space = 0 : i32}
  llvm.mlir.global external @stderr() {addr_space = 0 : i32} : !llvm.ptr
  llvm.func @fprintf(!llvm.ptr, !llvm.ptr, ...) -> i32
  func.func @kernel_fdtd_2d(%arg0: i32, %arg1: i32, %arg2: i32, %arg3: memref<?x30xf64>, %arg4: memref<?x30xf64>, %arg5: memref<?x30xf64>, %arg6: memref<?xf64>) attributes {llvm.linkage = #llvm.linkage<external>} {
    %cst = arith.constant 5.000000e-01 : f64
    %cst_0 = arith.constant 0.69999999999999996 : f64
    %0 = arith.index_cast %arg1 : i32 to index
    %1 = arith.index_cast %arg2 : i32 to index
    %2 = arith.index_cast %arg0 : i32 to index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %arg7 = %c0 to %2 step %c1 {
      %c0_1 = arith.constant 0 : index
      %c1_2 = arith.constant 1 : index
      scf.for %arg8 = %c0_1 to %1 step %c1_2 {
        %4 = memref.load %arg6[%arg7] : memref<?xf64>
        %c0_9 = arith.constant 0 : index
        memref.store %4, %arg4[%c0_9, %arg8] : memref<?x30xf64>
      }
      %c1_3 = arith.constant 1 : index
      %c1_4 = arith.constant 1 : index
      scf.for %arg8 = %c1_3 to %0 step %c1_4 {
        %c0_9 = arith.constant 0 : index
        %c1_10 = arith.constant 1 : index
        scf.for %arg9 = %c0_9 to %1 step %c1_10 {
          %4 = memref.load %arg4[%arg8, %arg9] : memref<?x30xf64>
          %5 = memref.load %arg5[%arg8, %arg9] : memref<?x30xf64>
          %c-1_11 = arith.constant -1 : index
          %6 = arith.addi %arg8, %c-1_11 : index
          %7 = memref.load %arg5[%6, %arg9] : memref<?x30xf64>
          %8 = arith.subf %5, %7 : f64
          %9 = arith.mulf %8, %cst : f64
          %10 = arith.subf %4, %9 : f64
          memref.store %10, %arg4[%arg8, %arg9] : memref<?x30xf64>
        }
      }
      %c0_5 = arith.constant 0 : index
      %c1_6 = arith.constant 1 : index
      scf.for %arg8 = %c0_5 to %0 step %c1_6 {
        %c1_9 = arith.constant 1 : index
        %c1_10 = arith.constant 1 : index
        scf.for %arg9 = %c1_9 to %1 step %c1_10 {
          %4 = memref.load %arg3[%arg8, %arg9] : memref<?x30xf64>
          %5 = memref.load %arg5[%arg8, %arg9] : memref<?x30xf64>
          %c-1_11 = arith.constant -1 : index
          %6 = arith.addi %arg9, %c-1_11 : index
          %7 = memref.load %arg5[%arg8, %6] : memref<?x30xf64>
          %8 = arith.subf %5, %7 : f64
          %9 = arith.mulf %8, %cst : f64
          %10 = arith.subf %4, %9 : f64
          memref.store %10, %arg3[%arg8, %arg9] : memref<?x30xf64>
        }
      }
      %c0_7 = arith.constant 0 : index
      %c-1 = arith.constant -1 : index
      %3 = arith.addi %0, %c-1 : index
      %c1_8 = arith.constant 1 : index
      scf.for %arg8 = %c0_7 to %3 step %c1_8 {
        %c0_9 = arith.constant 0 : index
        %c-1_10 = arith.constant -1 : index
        %4 = arith.addi %1, %c-1_10 : index
        %c1_11 = arith.constant 1 : index
        scf.for %arg9 = %c0_9 to %4 step %c1_11 {
          %5 = memref.load %arg5[%arg8, %arg9] : memref<?x30xf64>
          %c1_12 = arith.constant 1 : index
          %6 = arith.addi %arg9, %c1_12 : index
          %7 = memref.load %arg3[%arg8, %6] : memref<?x30xf64>
          %8 = memref.load %arg3[%arg8, %arg9] : memref<?x30xf64>
          %9 = arith.subf %7, %8 : f64
          %c1_13 = arith.constant 1 : index
          %10 = arith.addi %arg8, %c1_13 : index
          %11 = memref.load %arg4[%10, %arg9] : memref<?x30xf64>
          %12 = arith.addf %9, %11 : f64
          %13 = memref.load %arg4[%arg8, %arg9] : memref<?x30xf64>
          %14 = arith.subf %12, %13 : f64
          %15 = arith.mulf %14, %cst_0 : f64
          %16 = arith.subf %5, %15 : f64
          memref.store %16, %arg5[%arg8, %arg9] : memref<?x30xf64>
        }
      }
    }
    return
  }
}
