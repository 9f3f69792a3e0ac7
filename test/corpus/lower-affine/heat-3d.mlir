// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(lower-affine)' test/polybench/heat-3d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
module attributes {dlti.dl_spec = #dlti.dl_spec<#dlti.dl_entry<f80, dense<128> : vector<2xi32>>, #dlti.dl_entry<!llvm.ptr<272>, dense<64> : vector<4xi32>>, #dlti.dl_entry<i64, dense<64> : vector<2xi32>>, #dlti.dl_entry<!llvm.ptr<270>, dense<32> : vector<4xi32>>, #dlti.dl_entry<!llvm.ptr<271>, dense<32> : vector<4xi32>>, #dlti.dl_entry<f16, dense<16> : vector<2xi32>>, #dlti.dl_entry<f64, dense<64> : vector<2xi32>>, #dlti.dl_entry<f128, dense<128> : vector<2xi32>>, #dlti.dl_entry<i32, dense<32> : vector<2xi32>>, #dlti.dl_entry<i8, dense<8> : vector<2xi32>>, #dlti.dl_entry<i16, dense<16> : vector<2xi32>>, #dlti.dl_entry<!llvm.ptr, dense<64> : vector<4xi32>>, #dlti.dl_entry<i1, dense<8> : vector<2xi32>>, #dlti.dl_entry<"dlti.stack_alignment", 128 : i32>, #dlti.dl_entry<"dlti.endianness", "little">>, llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128", llvm.target_triple = "x86_64-unknown-linux-gnu", "polygeist.target-cpu" = "x86-64", "polygeist.target-features" = "+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87", "polygeist.tune-cpu" = "generic"} {
  llvm.mlir.global internal constant @str1("%0.2lf \00") {addr_space = 0 : i32}
  llvm.mlir.global internal constant @str0("\0A\00") {addr_space = 0 : i32}
  llvm.mlir.global external @stderr() {addr_space = 0 : i32} : !llvm.ptr
  llvm.func @fprintf(!llvm.ptr, !llvm.ptr, ...) -> i32
  func.func @kernel_heat_3d(%arg0: i32, %arg1: i32, %arg2: memref<?x10x10xf64>, %arg3: memref<?x10x10xf64>) attributes {llvm.linkage = #llvm.linkage<external>} {
    %cst = arith.constant 1.250000e-01 : f64
    %cst_0 = arith.constant 2.000000e+00 : f64
    %0 = arith.index_cast %arg1 : i32 to index
    %1 = arith.index_cast %arg0 : i32 to index
    %c1 = arith.constant 1 : index
    %c1_1 = arith.constant 1 : index
    %2 = arith.addi %1, %c1_1 : index
    %c1_2 = arith.constant 1 : index
    scf.for %arg4 = %c1 to %2 step %c1_2 {
      %c1_3 = arith.constant 1 : index
      %c-1 = arith.constant -1 : index
      %3 = arith.addi %0, %c-1 : index
      %c1_4 = arith.constant 1 : index
      scf.for %arg5 = %c1_3 to %3 step %c1_4 {
        %c1_8 = arith.constant 1 : index
        %c-1_9 = arith.constant -1 : index
        %5 = arith.addi %0, %c-1_9 : index
        %c1_10 = arith.constant 1 : index
        scf.for %arg6 = %c1_8 to %5 step %c1_10 {
          %c1_11 = arith.constant 1 : index
          %c-1_12 = arith.constant -1 : index
          %6 = arith.addi %0, %c-1_12 : index
          %c1_13 = arith.constant 1 : index
          scf.for %arg7 = %c1_11 to %6 step %c1_13 {
            %c1_14 = arith.constant 1 : index
            %7 = arith.addi %arg5, %c1_14 : index
            %8 = memref.load %arg2[%7, %arg6, %arg7] : memref<?x10x10xf64>
            %9 = memref.load %arg2[%arg5, %arg6, %arg7] : memref<?x10x10xf64>
            %10 = arith.mulf %9, %cst_0 : f64
            %11 = arith.subf %8, %10 : f64
            %c-1_15 = arith.constant -1 : index
            %12 = arith.addi %arg5, %c-1_15 : index
            %13 = memref.load %arg2[%12, %arg6, %arg7] : memref<?x10x10xf64>
            %14 = arith.addf %11, %13 : f64
            %15 = arith.mulf %14, %cst : f64
            %c1_16 = arith.constant 1 : index
            %16 = arith.addi %arg6, %c1_16 : index
            %17 = memref.load %arg2[%arg5, %16, %arg7] : memref<?x10x10xf64>
            %18 = arith.subf %17, %10 : f64
            %c-1_17 = arith.constant -1 : index
            %19 = arith.addi %arg6, %c-1_17 : index
            %20 = memref.load %arg2[%arg5, %19, %arg7] : memref<?x10x10xf64>
            %21 = arith.addf %18, %20 : f64
            %22 = arith.mulf %21, %cst : f64
            %23 = arith.addf %15, %22 : f64
            %c1_18 = arith.constant 1 : index
            %24 = arith.addi %arg7, %c1_18 : index
            %25 = memref.load %arg2[%arg5, %arg6, %24] : memref<?x10x10xf64>
            %26 = arith.subf %25, %10 : f64
            %c-1_19 = arith.constant -1 : index
            %27 = arith.addi %arg7, %c-1_19 : index
            %28 = memref.load %arg2[%arg5, %arg6, %27] : memref<?x10x10xf64>
            %29 = arith.addf %26, %28 : f64
            %30 = arith.mulf %29, %cst : f64
            %31 = arith.addf %23, %30 : f64
            %32 = arith.addf %31, %9 : f64
            memref.store %32, %arg3[%arg5, %arg6, %arg7] : memref<?x10x10xf64>
          }
        }
      }
      %c1_5 = arith.constant 1 : index
      %c-1_6 = arith.constant -1 : index
      %4 = arith.addi %0, %c-1_6 : index
      %c1_7 = arith.constant 1 : index
      scf.for %arg5 = %c1_5 to %4 step %c1_7 {
        %c1_8 = arith.constant 1 : index
        %c-1_9 = arith.constant -1 : index
        %5 = arith.addi %0, %c-1_9 : index
        %c1_10 = arith.constant 1 : index
        scf.for %arg6 = %c1_8 to %5 step %c1_10 {
          %c1_11 = arith.constant 1 : index
          %c-1_12 = arith.constant -1 : index
          %6 = arith.addi %0, %c-1_12 : index
          %c1_13 = arith.constant 1 : index
          scf.for %arg7 = %c1_11 to %6 step %c1_13 {
            %c1_14 = arith.constant 1 : index
            %7 = arith.addi %arg5, %c1_14 : index
            %8 = memref.load %arg3[%7, %arg6, %arg7] : memref<?x10x10xf64>
            %9 = memref.load %arg3[%arg5, %arg6, %arg7] : memref<?x10x10xf64>
            %10 = arith.mulf %9, %cst_0 : f64
            %11 = arith.subf %8, %10 : f64
            %c-1_15 = arith.constant -1 : index
            %12 = arith.addi %arg5, %c-1_15 : index
            %13 = memref.load %arg3[%12, %arg6, %arg7] : memref<?x10x10xf64>
            %14 = arith.addf %11, %13 : f64
            %15 = arith.mulf %14, %cst : f64
            %c1_16 = arith.constant 1 : index
            %16 = arith.addi %arg6, %c1_16 : index
            %17 = memref.load %arg3[%arg5, %16, %arg7] : memref<?x10x10xf64>
            %18 = arith.subf %17, %10 : f64
            %c-1_17 = arith.constant -1 : index
            %19 = arith.addi %arg6, %c-1_17 : index
            %20 = memref.load %arg3[%arg5, %19, %arg7] : memref<?x10x10xf64>
            %21 = arith.addf %18, %20 : f64
            %22 = arith.mulf %21, %cst : f64
            %23 = arith.addf %15, %22 : f64
            %c1_18 = arith.constant 1 : index
            %24 = arith.addi %arg7, %c1_18 : index
            %25 = memref.load %arg3[%arg5, %arg6, %24] : memref<?x10x10xf64>
            %26 = arith.subf %25, %10 : f64
            %c-1_19 = arith.constant -1 : index
            %27 = arith.addi %arg7, %c-1_19 : index
            %28 = memref.load %arg3[%arg5, %arg6, %27] : memref<?x10x10xf64>
            %29 = arith.addf %26, %28 : f64
            %30 = arith.mulf %29, %cst : f64
            %31 = arith.addf %23, %30 : f64
            %32 = arith.addf %31, %9 : f64
            memref.store %32, %arg2[%arg5, %arg6, %arg7] : memref<?x10x10xf64>
          }
        }
      }
    }
    return
  }
}
