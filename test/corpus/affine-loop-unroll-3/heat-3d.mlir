// iree-opt --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))' test/polybench/heat-3d.mlir
// (iree-base-compiler 3.13.0; written by test/corpus/generate.py, which regenerates it)
#map = affine_map<()[s0] -> (s0 + 1)>
#map1 = affine_map<()[s0] -> (s0 - 1)>
#map2 = affine_map<()[s0] -> (((s0 - 2) floordiv 3) * 3 + 1)>
#map3 = affine_map<(d0) -> (d0 + 1)>
#map4 = affine_map<(d0) -> (d0 + 2)>
#map5 = affine_map<()[s0] -> (((s0 - 2) floordiv 3) * 3 + 1, 1)>
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
    affine.for %arg4 = 1 to #map()[%1] {
      affine.for %arg5 = 1 to #map1()[%0] {
        affine.for %arg6 = 1 to #map1()[%0] {
          affine.for %arg7 = 1 to #map2()[%0] step 3 {
            %2 = affine.load %arg2[%arg5 + 1, %arg6, %arg7] : memref<?x10x10xf64>
            %3 = affine.load %arg2[%arg5, %arg6, %arg7] : memref<?x10x10xf64>
            %4 = arith.mulf %3, %cst_0 : f64
            %5 = arith.subf %2, %4 : f64
            %6 = affine.load %arg2[%arg5 - 1, %arg6, %arg7] : memref<?x10x10xf64>
            %7 = arith.addf %5, %6 : f64
            %8 = arith.mulf %7, %cst : f64
            %9 = affine.load %arg2[%arg5, %arg6 + 1, %arg7] : memref<?x10x10xf64>
            %10 = arith.subf %9, %4 : f64
            %11 = affine.load %arg2[%arg5, %arg6 - 1, %arg7] : memref<?x10x10xf64>
            %12 = arith.addf %10, %11 : f64
            %13 = arith.mulf %12, %cst : f64
            %14 = arith.addf %8, %13 : f64
            %15 = affine.load %arg2[%arg5, %arg6, %arg7 + 1] : memref<?x10x10xf64>
            %16 = arith.subf %15, %4 : f64
            %17 = affine.load %arg2[%arg5, %arg6, %arg7 - 1] : memref<?x10x10xf64>
            %18 = arith.addf %16, %17 : f64
            %19 = arith.mulf %18, %cst : f64
            %20 = arith.addf %14, %19 : f64
            %21 = arith.addf %20, %3 : f64
            affine.store %21, %arg3[%arg5, %arg6, %arg7] : memref<?x10x10xf64>
            %22 = affine.apply #map3(%arg7)
            %23 = affine.load %arg2[%arg5 + 1, %arg6, %22] : memref<?x10x10xf64>
            %24 = affine.load %arg2[%arg5, %arg6, %22] : memref<?x10x10xf64>
            %25 = arith.mulf %24, %cst_0 : f64
            %26 = arith.subf %23, %25 : f64
            %27 = affine.load %arg2[%arg5 - 1, %arg6, %22] : memref<?x10x10xf64>
            %28 = arith.addf %26, %27 : f64
            %29 = arith.mulf %28, %cst : f64
            %30 = affine.load %arg2[%arg5, %arg6 + 1, %22] : memref<?x10x10xf64>
            %31 = arith.subf %30, %25 : f64
            %32 = affine.load %arg2[%arg5, %arg6 - 1, %22] : memref<?x10x10xf64>
            %33 = arith.addf %31, %32 : f64
            %34 = arith.mulf %33, %cst : f64
            %35 = arith.addf %29, %34 : f64
            %36 = affine.load %arg2[%arg5, %arg6, %22 + 1] : memref<?x10x10xf64>
            %37 = arith.subf %36, %25 : f64
            %38 = affine.load %arg2[%arg5, %arg6, %22 - 1] : memref<?x10x10xf64>
            %39 = arith.addf %37, %38 : f64
            %40 = arith.mulf %39, %cst : f64
            %41 = arith.addf %35, %40 : f64
            %42 = arith.addf %41, %24 : f64
            affine.store %42, %arg3[%arg5, %arg6, %22] : memref<?x10x10xf64>
            %43 = affine.apply #map4(%arg7)
            %44 = affine.load %arg2[%arg5 + 1, %arg6, %43] : memref<?x10x10xf64>
            %45 = affine.load %arg2[%arg5, %arg6, %43] : memref<?x10x10xf64>
            %46 = arith.mulf %45, %cst_0 : f64
            %47 = arith.subf %44, %46 : f64
            %48 = affine.load %arg2[%arg5 - 1, %arg6, %43] : memref<?x10x10xf64>
            %49 = arith.addf %47, %48 : f64
            %50 = arith.mulf %49, %cst : f64
            %51 = affine.load %arg2[%arg5, %arg6 + 1, %43] : memref<?x10x10xf64>
            %52 = arith.subf %51, %46 : f64
            %53 = affine.load %arg2[%arg5, %arg6 - 1, %43] : memref<?x10x10xf64>
            %54 = arith.addf %52, %53 : f64
            %55 = arith.mulf %54, %cst : f64
            %56 = arith.addf %50, %55 : f64
            %57 = affine.load %arg2[%arg5, %arg6, %43 + 1] : memref<?x10x10xf64>
            %58 = arith.subf %57, %46 : f64
            %59 = affine.load %arg2[%arg5, %arg6, %43 - 1] : memref<?x10x10xf64>
            %60 = arith.addf %58, %59 : f64
            %61 = arith.mulf %60, %cst : f64
            %62 = arith.addf %56, %61 : f64
            %63 = arith.addf %62, %45 : f64
            affine.store %63, %arg3[%arg5, %arg6, %43] : memref<?x10x10xf64>
          }
          affine.for %arg7 = max #map5()[%0] to #map1()[%0] {
            %2 = affine.load %arg2[%arg5 + 1, %arg6, %arg7] : memref<?x10x10xf64>
            %3 = affine.load %arg2[%arg5, %arg6, %arg7] : memref<?x10x10xf64>
            %4 = arith.mulf %3, %cst_0 : f64
            %5 = arith.subf %2, %4 : f64
            %6 = affine.load %arg2[%arg5 - 1, %arg6, %arg7] : memref<?x10x10xf64>
            %7 = arith.addf %5, %6 : f64
            %8 = arith.mulf %7, %cst : f64
            %9 = affine.load %arg2[%arg5, %arg6 + 1, %arg7] : memref<?x10x10xf64>
            %10 = arith.subf %9, %4 : f64
            %11 = affine.load %arg2[%arg5, %arg6 - 1, %arg7] : memref<?x10x10xf64>
            %12 = arith.addf %10, %11 : f64
            %13 = arith.mulf %12, %cst : f64
            %14 = arith.addf %8, %13 : f64
            %15 = affine.load %arg2[%arg5, %arg6, %arg7 + 1] : memref<?x10x10xf64>
            %16 = arith.subf %15, %4 : f64
            %17 = affine.load %arg2[%arg5, %arg6, %arg7 - 1] : memref<?x10x10xf64>
            %18 = arith.addf %16, %17 : f64
            %19 = arith.mulf %18, %cst : f64
            %20 = arith.addf %14, %19 : f64
            %21 = arith.addf %20, %3 : f64
            affine.store %21, %arg3[%arg5, %arg6, %arg7] : memref<?x10x10xf64>
          }
        }
      }
      affine.for %arg5 = 1 to #map1()[%0] {
        affine.for %arg6 = 1 to #map1()[%0] {
          affine.for %arg7 = 1 to #map2()[%0] step 3 {
            %2 = affine.load %arg3[%arg5 + 1, %arg6, %arg7] : memref<?x10x10xf64>
            %3 = affine.load %arg3[%arg5, %arg6, %arg7] : memref<?x10x10xf64>
            %4 = arith.mulf %3, %cst_0 : f64
            %5 = arith.subf %2, %4 : f64
            %6 = affine.load %arg3[%arg5 - 1, %arg6, %arg7] : memref<?x10x10xf64>
            %7 = arith.addf %5, %6 : f64
            %8 = arith.mulf %7, %cst : f64
            %9 = affine.load %arg3[%arg5, %arg6 + 1, %arg7] : memref<?x10x10xf64>
            %10 = arith.subf %9, %4 : f64
            %11 = affine.load %arg3[%arg5, %arg6 - 1, %arg7] : memref<?x10x10xf64>
            %12 = arith.addf %10, %11 : f64
            %13 = arith.mulf %12, %cst : f64
            %14 = arith.addf %8, %13 : f64
            %15 = affine.load %arg3[%arg5, %arg6, %arg7 + 1] : memref<?x10x10xf64>
            %16 = arith.subf %15, %4 : f64
            %17 = affine.load %arg3[%arg5, %arg6, %arg7 - 1] : memref<?x10x10xf64>
            %18 = arith.addf %16, %17 : f64
            %19 = arith.mulf %18, %cst : f64
            %20 = arith.addf %14, %19 : f64
            %21 = arith.addf %20, %3 : f64
            affine.store %21, %arg2[%arg5, %arg6, %arg7] : memref<?x10x10xf64>
            %22 = affine.apply #map3(%arg7)
            %23 = affine.load %arg3[%arg5 + 1, %arg6, %22] : memref<?x10x10xf64>
            %24 = affine.load %arg3[%arg5, %arg6, %22] : memref<?x10x10xf64>
            %25 = arith.mulf %24, %cst_0 : f64
            %26 = arith.subf %23, %25 : f64
            %27 = affine.load %arg3[%arg5 - 1, %arg6, %22] : memref<?x10x10xf64>
            %28 = arith.addf %26, %27 : f64
            %29 = arith.mulf %28, %cst : f64
            %30 = affine.load %arg3[%arg5, %arg6 + 1, %22] : memref<?x10x10xf64>
            %31 = arith.subf %30, %25 : f64
            %32 = affine.load %arg3[%arg5, %arg6 - 1, %22] : memref<?x10x10xf64>
            %33 = arith.addf %31, %32 : f64
            %34 = arith.mulf %33, %cst : f64
            %35 = arith.addf %29, %34 : f64
            %36 = affine.load %arg3[%arg5, %arg6, %22 + 1] : memref<?x10x10xf64>
            %37 = arith.subf %36, %25 : f64
            %38 = affine.load %arg3[%arg5, %arg6, %22 - 1] : memref<?x10x10xf64>
            %39 = arith.addf %37, %38 : f64
            %40 = arith.mulf %39, %cst : f64
            %41 = arith.addf %35, %40 : f64
            %42 = arith.addf %41, %24 : f64
            affine.store %42, %arg2[%arg5, %arg6, %22] : memref<?x10x10xf64>
            %43 = affine.apply #map4(%arg7)
            %44 = affine.load %arg3[%arg5 + 1, %arg6, %43] : memref<?x10x10xf64>
            %45 = affine.load %arg3[%arg5, %arg6, %43] : memref<?x10x10xf64>
            %46 = arith.mulf %45, %cst_0 : f64
            %47 = arith.subf %44, %46 : f64
            %48 = affine.load %arg3[%arg5 - 1, %arg6, %43] : memref<?x10x10xf64>
            %49 = arith.addf %47, %48 : f64
            %50 = arith.mulf %49, %cst : f64
            %51 = affine.load %arg3[%arg5, %arg6 + 1, %43] : memref<?x10x10xf64>
            %52 = arith.subf %51, %46 : f64
            %53 = affine.load %arg3[%arg5, %arg6 - 1, %43] : memref<?x10x10xf64>
            %54 = arith.addf %52, %53 : f64
            %55 = arith.mulf %54, %cst : f64
            %56 = arith.addf %50, %55 : f64
            %57 = affine.load %arg3[%arg5, %arg6, %43 + 1] : memref<?x10x10xf64>
            %58 = arith.subf %57, %46 : f64
            %59 = affine.load %arg3[%arg5, %arg6, %43 - 1] : memref<?x10x10xf64>
            %60 = arith.addf %58, %59 : f64
            %61 = arith.mulf %60, %cst : f64
            %62 = arith.addf %56, %61 : f64
            %63 = arith.addf %62, %45 : f64
            affine.store %63, %arg2[%arg5, %arg6, %43] : memref<?x10x10xf64>
          }
          affine.for %arg7 = max #map5()[%0] to #map1()[%0] {
            %2 = affine.load %arg3[%arg5 + 1, %arg6, %arg7] : memref<?x10x10xf64>
            %3 = affine.load %arg3[%arg5, %arg6, %arg7] : memref<?x10x10xf64>
            %4 = arith.mulf %3, %cst_0 : f64
            %5 = arith.subf %2, %4 : f64
            %6 = affine.load %arg3[%arg5 - 1, %arg6, %arg7] : memref<?x10x10xf64>
            %7 = arith.addf %5, %6 : f64
            %8 = arith.mulf %7, %cst : f64
            %9 = affine.load %arg3[%arg5, %arg6 + 1, %arg7] : memref<?x10x10xf64>
            %10 = arith.subf %9, %4 : f64
            %11 = affine.load %arg3[%arg5, %arg6 - 1, %arg7] : memref<?x10x10xf64>
            %12 = arith.addf %10, %11 : f64
            %13 = arith.mulf %12, %cst : f64
            %14 = arith.addf %8, %13 : f64
            %15 = affine.load %arg3[%arg5, %arg6, %arg7 + 1] : memref<?x10x10xf64>
            %16 = arith.subf %15, %4 : f64
            %17 = affine.load %arg3[%arg5, %arg6, %arg7 - 1] : memref<?x10x10xf64>
            %18 = arith.addf %16, %17 : f64
            %19 = arith.mulf %18, %cst : f64
            %20 = arith.addf %14, %19 : f64
            %21 = arith.addf %20, %3 : f64
            affine.store %21, %arg2[%arg5, %arg6, %arg7] : memref<?x10x10xf64>
          }
        }
      }
    }
    return
  }
}
