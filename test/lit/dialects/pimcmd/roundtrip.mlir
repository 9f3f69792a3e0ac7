// Round trip of every `pimcmd` op in its custom form, in each syntactic
// variant: program with and without array and scalar operands, `virtual` flag and
// results; array with and without `transposed`; transpose_in, release, sync;
// compute of every op and element type, with and without a constant (float,
// negative and positive integer, or a scalar argument `const_arg`), in pattern form (with and without the
// optional `banks`) and in domain form; shift intra- and inter-tile (both
// directions), with and without banks; bcast with negative ranges, with and
// without banks; readout and writein in domain form and with patterns (with
// and without banks; an allocated readout of an empty box has none); the domain-form mv, bc and reduce; near_reduce,
// near_load and near_store (affine and indirect, every store kind, with a domain); result;
// single- and multi-level patterns.
//
// Custom -> custom; custom -> generic (checked with the GENERIC prefix);
// generic -> custom.
// RUN: infs-opt %s | filecheck %s
// RUN: infs-opt %s --print-op-generic > %t.generic.mlir
// RUN: filecheck %s --check-prefix=GENERIC < %t.generic.mlir
// RUN: infs-opt %t.generic.mlir | filecheck %s

func.func @fig9(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
  pimcmd.program ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>, %b: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    pimcmd.array %b shape [4, 4] wordline 32 : memref<4x4xf32>
    pimcmd.transpose_in %a : memref<4x4xf32>
    pimcmd.shift f32 dst 64 src 0 dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 0:2:2 banks 0:1:2
    pimcmd.shift f32 dst 64 src 0 dim 1 mask [1:2] inter 1 intra -1 bitlines 1:2:2 tiles 0:2:2
    pimcmd.shift f32 dst 64 src 0 dim 0 mask [0:2] inter -1 intra 0 bitlines 0:1:4 tiles 2:1:2
    pimcmd.sync
    pimcmd.compute add f32 dst 32 srcs [0, 64] bitlines 0:1:4 tiles 0:1:4
    pimcmd.compute mul f32 dst 32 srcs [32] const 2.5 bitlines 0:1:4 tiles 0:1:4 banks 0:1:2
    pimcmd.compute sub f32 dst 32 srcs [32] const -1 bitlines 0:1:4 tiles 0:1:4
    pimcmd.compute cmp_lt f32 dst 96 srcs [32, 0] bitlines 0:1:4 tiles 0:1:4
    pimcmd.compute select f32 dst 128 srcs [96, 32, 0] bitlines 0:1:4 tiles 0:1:4
    pimcmd.compute fma f32 dst 128 srcs [0, 32] const 0.5 bitlines 0:1:2:2:2 tiles 0:1:4
    pimcmd.compute copy f32 dst 160 srcs [128] bitlines 3:1:1 tiles 3:1:1
    pimcmd.bcast f32 dst 64 src 0 dim 0 intra [-1:1] inter [0:2] bitlines 2:1:2 tiles 0:1:2
    pimcmd.bcast f32 dst 64 src 0 dim 1 intra [0:2] inter [-1:1] bitlines 0:1:2 tiles 1:2:2 banks 0:1:2
    pimcmd.readout f32 src 32 domain [0:4, 0:1] id 0 bitlines 0:2:2 tiles 0:2:2
    pimcmd.readout f32 src 32 domain [0:2, 2:4] id 1 bitlines 0:1:4 tiles 1:1:1 banks 0:1:1
    pimcmd.readout f32 src 32 domain [0:4, 2:2] id 2
    pimcmd.release %b : memref<4x4xf32>
  }
  func.return
}

// CHECK-LABEL: func.func @fig9(%A: memref<4x4xf32>, %B: memref<4x4xf32>) {
// CHECK-NEXT:   pimcmd.program ins(%A, %B : memref<4x4xf32>, memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
// CHECK-NEXT:   ^bb0(%a: memref<4x4xf32>, %b: memref<4x4xf32>):
// CHECK-NEXT:     pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
// CHECK-NEXT:     pimcmd.array %b shape [4, 4] wordline 32 : memref<4x4xf32>
// CHECK-NEXT:     pimcmd.transpose_in %a : memref<4x4xf32>
// CHECK-NEXT:     pimcmd.shift f32 dst 64 src 0 dim 1 mask [0:1] inter 0 intra 1 bitlines 0:2:2 tiles 0:2:2 banks 0:1:2
// CHECK-NEXT:     pimcmd.shift f32 dst 64 src 0 dim 1 mask [1:2] inter 1 intra -1 bitlines 1:2:2 tiles 0:2:2
// CHECK-NEXT:     pimcmd.shift f32 dst 64 src 0 dim 0 mask [0:2] inter -1 intra 0 bitlines 0:1:4 tiles 2:1:2
// CHECK-NEXT:     pimcmd.sync
// CHECK-NEXT:     pimcmd.compute add f32 dst 32 srcs [0, 64] bitlines 0:1:4 tiles 0:1:4
// CHECK-NEXT:     pimcmd.compute mul f32 dst 32 srcs [32] const 2.5 bitlines 0:1:4 tiles 0:1:4 banks 0:1:2
// CHECK-NEXT:     pimcmd.compute sub f32 dst 32 srcs [32] const -1 bitlines 0:1:4 tiles 0:1:4
// CHECK-NEXT:     pimcmd.compute cmp_lt f32 dst 96 srcs [32, 0] bitlines 0:1:4 tiles 0:1:4
// CHECK-NEXT:     pimcmd.compute select f32 dst 128 srcs [96, 32, 0] bitlines 0:1:4 tiles 0:1:4
// CHECK-NEXT:     pimcmd.compute fma f32 dst 128 srcs [0, 32] const 0.5 bitlines 0:1:2:2:2 tiles 0:1:4
// CHECK-NEXT:     pimcmd.compute copy f32 dst 160 srcs [128] bitlines 3:1:1 tiles 3:1:1
// CHECK-NEXT:     pimcmd.bcast f32 dst 64 src 0 dim 0 intra [-1:1] inter [0:2] bitlines 2:1:2 tiles 0:1:2
// CHECK-NEXT:     pimcmd.bcast f32 dst 64 src 0 dim 1 intra [0:2] inter [-1:1] bitlines 0:1:2 tiles 1:2:2 banks 0:1:2
// CHECK-NEXT:     pimcmd.readout f32 src 32 domain [0:4, 0:1] id 0 bitlines 0:2:2 tiles 0:2:2
// CHECK-NEXT:     pimcmd.readout f32 src 32 domain [0:2, 2:4] id 1 bitlines 0:1:4 tiles 1:1:1 banks 0:1:1
// CHECK-NEXT:     pimcmd.readout f32 src 32 domain [0:4, 2:2] id 2
// CHECK-NEXT:     pimcmd.release %b : memref<4x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "fig9"
// GENERIC: "pimcmd.program"(%A, %B) <{config = "tiny", lattice = array<i64: 4, 4>, tiles = array<i64: 2, 2>, banks = 2 : i64, arrays_per_bank = 2 : i64, wordlines = 256 : i64, operandSegmentSizes = array<i32: 2, 0>}> ({
// GENERIC: "pimcmd.array"(%a) <{shape = array<i64: 4, 4>, wordline = 0 : i64, transposed}> : (memref<4x4xf32>) -> ()
// GENERIC: "pimcmd.array"(%b) <{shape = array<i64: 4, 4>, wordline = 32 : i64}> : (memref<4x4xf32>) -> ()
// GENERIC: "pimcmd.transpose_in"(%a) : (memref<4x4xf32>) -> ()
// GENERIC: "pimcmd.shift"() <{type = "f32", dst = 64 : i64, src = 0 : i64, dim = 1 : i64, mask = array<i64: 0, 1>, inter = 0 : i64, intra = 1 : i64, bitlines = #lattice.pattern<0:2:2>, tiles = #lattice.pattern<0:2:2>, banks = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.shift"() <{type = "f32", dst = 64 : i64, src = 0 : i64, dim = 1 : i64, mask = array<i64: 1, 2>, inter = 1 : i64, intra = -1 : i64, bitlines = #lattice.pattern<1:2:2>, tiles = #lattice.pattern<0:2:2>}> : () -> ()
// GENERIC: "pimcmd.shift"() <{type = "f32", dst = 64 : i64, src = 0 : i64, dim = 0 : i64, mask = array<i64: 0, 2>, inter = -1 : i64, intra = 0 : i64, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<2:1:2>}> : () -> ()
// GENERIC: "pimcmd.sync"() : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "add", type = "f32", dst = 32 : i64, srcs = array<i64: 0, 64>, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:4>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "mul", type = "f32", dst = 32 : i64, srcs = array<i64: 32>, const = 2.500000e+00 : f64, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:4>, banks = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "sub", type = "f32", dst = 32 : i64, srcs = array<i64: 32>, const = -1 : i64, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:4>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "cmp_lt", type = "f32", dst = 96 : i64, srcs = array<i64: 32, 0>, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:4>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "select", type = "f32", dst = 128 : i64, srcs = array<i64: 96, 32, 0>, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:4>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "fma", type = "f32", dst = 128 : i64, srcs = array<i64: 0, 32>, const = 5.000000e-01 : f64, bitlines = #lattice.pattern<0:1:2:2:2>, tiles = #lattice.pattern<0:1:4>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "copy", type = "f32", dst = 160 : i64, srcs = array<i64: 128>, bitlines = #lattice.pattern<3:1:1>, tiles = #lattice.pattern<3:1:1>}> : () -> ()
// GENERIC: "pimcmd.bcast"() <{type = "f32", dst = 64 : i64, src = 0 : i64, dim = 0 : i64, intra = array<i64: -1, 1>, inter = array<i64: 0, 2>, bitlines = #lattice.pattern<2:1:2>, tiles = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.bcast"() <{type = "f32", dst = 64 : i64, src = 0 : i64, dim = 1 : i64, intra = array<i64: 0, 2>, inter = array<i64: -1, 1>, bitlines = #lattice.pattern<0:1:2>, tiles = #lattice.pattern<1:2:2>, banks = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.readout"() <{type = "f32", src = 32 : i64, domain = #lattice.domain<[0:4, 0:1]>, id = 0 : i64, bitlines = #lattice.pattern<0:2:2>, tiles = #lattice.pattern<0:2:2>}> : () -> ()
// GENERIC: "pimcmd.readout"() <{type = "f32", src = 32 : i64, domain = #lattice.domain<[0:2, 2:4]>, id = 1 : i64, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<1:1:1>, banks = #lattice.pattern<0:1:1>}> : () -> ()
// GENERIC: "pimcmd.release"(%b) : (memref<4x4xf32>) -> ()
// GENERIC: }) : (memref<4x4xf32>, memref<4x4xf32>) -> ()

func.func @ints(%A: memref<8xi8>, %B: memref<8xi16>, %C: memref<8xi32>, %M: memref<8xi1>) {
  pimcmd.program ins(%A, %B, %C, %M : memref<8xi8>, memref<8xi16>, memref<8xi32>, memref<8xi1>) config int_cfg lattice [8] tiles [4] banks 1 arrays_per_bank 2 wordlines 64 {
  ^bb0(%a: memref<8xi8>, %b: memref<8xi16>, %c: memref<8xi32>, %m: memref<8xi1>):
    pimcmd.array %a shape [8] wordline 0 : memref<8xi8>
    pimcmd.array %b shape [8] wordline 8 : memref<8xi16>
    pimcmd.array %c shape [8] wordline 24 : memref<8xi32>
    pimcmd.array %m shape [8] wordline 56 : memref<8xi1>
    pimcmd.compute and i8 dst 0 srcs [0] const 15 bitlines 0:1:4 tiles 0:1:2
    pimcmd.compute or i16 dst 8 srcs [8, 8] bitlines 0:1:4 tiles 0:1:2
    pimcmd.compute xor i32 dst 24 srcs [24, 24] bitlines 0:1:4 tiles 0:1:2
    pimcmd.compute not i1 dst 56 srcs [56] bitlines 0:1:4 tiles 0:1:2
    pimcmd.compute abs i8 dst 0 srcs [0] bitlines 0:1:4 tiles 0:1:2
    pimcmd.compute neg i16 dst 8 srcs [8] bitlines 0:1:4 tiles 0:1:2
    pimcmd.compute relu i32 dst 24 srcs [24] bitlines 0:1:4 tiles 0:1:2
    pimcmd.compute div i32 dst 24 srcs [24] const 3 bitlines 0:1:4 tiles 0:1:2
    pimcmd.compute min i8 dst 0 srcs [0, 0] bitlines 0:1:4 tiles 0:1:2
    pimcmd.compute max i8 dst 0 srcs [0, 0] bitlines 0:1:4 tiles 0:1:2
    pimcmd.compute cmp_le i16 dst 57 srcs [8, 8] bitlines 0:1:4 tiles 0:1:2
    pimcmd.compute cmp_eq i32 dst 58 srcs [24] const 0 bitlines 0:1:4 tiles 0:1:2
    pimcmd.shift i16 dst 8 src 8 dim 0 mask [0:4] inter 1 intra 0 bitlines 0:1:4 tiles 0:1:1
    pimcmd.bcast i8 dst 0 src 0 dim 0 intra [0:1] inter [1:2] bitlines 0:1:1 tiles 0:1:1
    pimcmd.readout i32 src 24 domain [0:8] id 2 bitlines 0:1:4 tiles 0:1:2
    pimcmd.release %c : memref<8xi32>
  }
  func.return
}

// CHECK-LABEL: func.func @ints(%A: memref<8xi8>, %B: memref<8xi16>, %C: memref<8xi32>, %M: memref<8xi1>) {
// CHECK-NEXT:   pimcmd.program ins(%A, %B, %C, %M : memref<8xi8>, memref<8xi16>, memref<8xi32>, memref<8xi1>) config int_cfg lattice [8] tiles [4] banks 1 arrays_per_bank 2 wordlines 64 {
// CHECK-NEXT:   ^bb0(%a: memref<8xi8>, %b: memref<8xi16>, %c: memref<8xi32>, %m: memref<8xi1>):
// CHECK-NEXT:     pimcmd.array %a shape [8] wordline 0 : memref<8xi8>
// CHECK-NEXT:     pimcmd.array %b shape [8] wordline 8 : memref<8xi16>
// CHECK-NEXT:     pimcmd.array %c shape [8] wordline 24 : memref<8xi32>
// CHECK-NEXT:     pimcmd.array %m shape [8] wordline 56 : memref<8xi1>
// CHECK-NEXT:     pimcmd.compute and i8 dst 0 srcs [0] const 15 bitlines 0:1:4 tiles 0:1:2
// CHECK-NEXT:     pimcmd.compute or i16 dst 8 srcs [8, 8] bitlines 0:1:4 tiles 0:1:2
// CHECK-NEXT:     pimcmd.compute xor i32 dst 24 srcs [24, 24] bitlines 0:1:4 tiles 0:1:2
// CHECK-NEXT:     pimcmd.compute not i1 dst 56 srcs [56] bitlines 0:1:4 tiles 0:1:2
// CHECK-NEXT:     pimcmd.compute abs i8 dst 0 srcs [0] bitlines 0:1:4 tiles 0:1:2
// CHECK-NEXT:     pimcmd.compute neg i16 dst 8 srcs [8] bitlines 0:1:4 tiles 0:1:2
// CHECK-NEXT:     pimcmd.compute relu i32 dst 24 srcs [24] bitlines 0:1:4 tiles 0:1:2
// CHECK-NEXT:     pimcmd.compute div i32 dst 24 srcs [24] const 3 bitlines 0:1:4 tiles 0:1:2
// CHECK-NEXT:     pimcmd.compute min i8 dst 0 srcs [0, 0] bitlines 0:1:4 tiles 0:1:2
// CHECK-NEXT:     pimcmd.compute max i8 dst 0 srcs [0, 0] bitlines 0:1:4 tiles 0:1:2
// CHECK-NEXT:     pimcmd.compute cmp_le i16 dst 57 srcs [8, 8] bitlines 0:1:4 tiles 0:1:2
// CHECK-NEXT:     pimcmd.compute cmp_eq i32 dst 58 srcs [24] const 0 bitlines 0:1:4 tiles 0:1:2
// CHECK-NEXT:     pimcmd.shift i16 dst 8 src 8 dim 0 mask [0:4] inter 1 intra 0 bitlines 0:1:4 tiles 0:1:1
// CHECK-NEXT:     pimcmd.bcast i8 dst 0 src 0 dim 0 intra [0:1] inter [1:2] bitlines 0:1:1 tiles 0:1:1
// CHECK-NEXT:     pimcmd.readout i32 src 24 domain [0:8] id 2 bitlines 0:1:4 tiles 0:1:2
// CHECK-NEXT:     pimcmd.release %c : memref<8xi32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "ints"
// GENERIC: "pimcmd.program"(%A, %B, %C, %M) <{config = "int_cfg", lattice = array<i64: 8>, tiles = array<i64: 4>, banks = 1 : i64, arrays_per_bank = 2 : i64, wordlines = 64 : i64, operandSegmentSizes = array<i32: 4, 0>}> ({
// GENERIC: "pimcmd.array"(%a) <{shape = array<i64: 8>, wordline = 0 : i64}> : (memref<8xi8>) -> ()
// GENERIC: "pimcmd.array"(%b) <{shape = array<i64: 8>, wordline = 8 : i64}> : (memref<8xi16>) -> ()
// GENERIC: "pimcmd.array"(%c) <{shape = array<i64: 8>, wordline = 24 : i64}> : (memref<8xi32>) -> ()
// GENERIC: "pimcmd.array"(%m) <{shape = array<i64: 8>, wordline = 56 : i64}> : (memref<8xi1>) -> ()
// GENERIC: "pimcmd.compute"() <{op = "and", type = "i8", dst = 0 : i64, srcs = array<i64: 0>, const = 15 : i64, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "or", type = "i16", dst = 8 : i64, srcs = array<i64: 8, 8>, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "xor", type = "i32", dst = 24 : i64, srcs = array<i64: 24, 24>, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "not", type = "i1", dst = 56 : i64, srcs = array<i64: 56>, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "abs", type = "i8", dst = 0 : i64, srcs = array<i64: 0>, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "neg", type = "i16", dst = 8 : i64, srcs = array<i64: 8>, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "relu", type = "i32", dst = 24 : i64, srcs = array<i64: 24>, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "div", type = "i32", dst = 24 : i64, srcs = array<i64: 24>, const = 3 : i64, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "min", type = "i8", dst = 0 : i64, srcs = array<i64: 0, 0>, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "max", type = "i8", dst = 0 : i64, srcs = array<i64: 0, 0>, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "cmp_le", type = "i16", dst = 57 : i64, srcs = array<i64: 8, 8>, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "cmp_eq", type = "i32", dst = 58 : i64, srcs = array<i64: 24>, const = 0 : i64, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.shift"() <{type = "i16", dst = 8 : i64, src = 8 : i64, dim = 0 : i64, mask = array<i64: 0, 4>, inter = 1 : i64, intra = 0 : i64, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:1>}> : () -> ()
// GENERIC: "pimcmd.bcast"() <{type = "i8", dst = 0 : i64, src = 0 : i64, dim = 0 : i64, intra = array<i64: 0, 1>, inter = array<i64: 1, 2>, bitlines = #lattice.pattern<0:1:1>, tiles = #lattice.pattern<0:1:1>}> : () -> ()
// GENERIC: "pimcmd.readout"() <{type = "i32", src = 24 : i64, domain = #lattice.domain<[0:8]>, id = 2 : i64, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.release"(%c) : (memref<8xi32>) -> ()
// GENERIC: }) : (memref<8xi8>, memref<8xi16>, memref<8xi32>, memref<8xi1>) -> ()

func.func @empty_program() {
  pimcmd.program config none lattice [1] tiles [1] banks 1 arrays_per_bank 1 wordlines 1 {
    pimcmd.sync
  }
  func.return
}

// CHECK-LABEL: func.func @empty_program() {
// CHECK-NEXT:   pimcmd.program config none lattice [1] tiles [1] banks 1 arrays_per_bank 1 wordlines 1 {
// CHECK-NEXT:     pimcmd.sync
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "empty_program"
// GENERIC: "pimcmd.program"() <{config = "none", lattice = array<i64: 1>, tiles = array<i64: 1>, banks = 1 : i64, arrays_per_bank = 1 : i64, wordlines = 1 : i64, operandSegmentSizes = array<i32: 0, 0>}> ({
// GENERIC: "pimcmd.sync"() : () -> ()

func.func @virtual_program(%A: memref<4x4xf32>, %I: memref<4xi32>, %C: memref<16xf32>) -> (f32, i32) {
  %r:2 = pimcmd.program ins(%A, %I, %C : memref<4x4xf32>, memref<4xi32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual -> f32, i32 {
  ^bb0(%a: memref<4x4xf32>, %i: memref<4xi32>, %c: memref<16xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    pimcmd.transpose_in %a : memref<4x4xf32>
    pimcmd.mv f32 dst 1 src 0 dim 1 dist 1 domain [0:4, 0:3]
    pimcmd.mv f32 dst 2 src 1 dim 0 dist -1 domain [1:4, 0:4]
    pimcmd.bc f32 dst 3 src 0 dim 0 dist 1 count 3 domain [0:1, 0:4]
    pimcmd.reduce add f32 dst 4 src 3 dim 1 domain [0:4, 0:4]
    pimcmd.reduce max f32 dst 5 src 3 dim 0 domain [0:4, 0:4]
    pimcmd.compute add f32 dst 6 srcs [1, 2] domain [1:4, 1:3]
    pimcmd.compute mul f32 dst 6 srcs [6] const 0.5 domain [1:4, 1:3]
    pimcmd.compute neg f32 dst 7 srcs [6] bitlines 0:1:4 tiles 0:1:4
    pimcmd.readout f32 src 4 domain [0:4, 0:1] id 0
    pimcmd.writein f32 dst 8 domain [0:4, 0:1] id 0
    pimcmd.near_reduce add f32 in 0 dims [0] step [1, 2] out 1
    pimcmd.near_reduce min f32 in 0 dims [0, 1] step [1, 1] out 3
    pimcmd.near_load i32 %i map [d1] indirect [] indices [] domain [0:1, 0:4] out 2 : memref<4xi32>
    pimcmd.near_load f32 %c map [0] indirect [0] indices [2] domain [0:1, 0:4] out 4 : memref<16xf32>
    pimcmd.near_store add f32 in 4 -> %c map [0] indirect [0] indices [2] : memref<16xf32>
    pimcmd.near_store store f32 in 4 -> %c map [d1 + 4] indirect [] indices [] : memref<16xf32>
    pimcmd.near_store store f32 in 4 -> %c map [d1] indirect [] indices [] domain [0:1, 1:3] : memref<16xf32>
    pimcmd.result index 0 id 1
    pimcmd.result index 1 id 2
  }
  func.return %r#0, %r#1 : f32, i32
}

// CHECK-LABEL: func.func @virtual_program(%A: memref<4x4xf32>, %I: memref<4xi32>, %C: memref<16xf32>) -> (f32, i32) {
// CHECK-NEXT:   %r, %r_1 = pimcmd.program ins(%A, %I, %C : memref<4x4xf32>, memref<4xi32>, memref<16xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 virtual -> f32, i32 {
// CHECK-NEXT:   ^bb0(%a: memref<4x4xf32>, %i: memref<4xi32>, %c: memref<16xf32>):
// CHECK-NEXT:     pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
// CHECK-NEXT:     pimcmd.transpose_in %a : memref<4x4xf32>
// CHECK-NEXT:     pimcmd.mv f32 dst 1 src 0 dim 1 dist 1 domain [0:4, 0:3]
// CHECK-NEXT:     pimcmd.mv f32 dst 2 src 1 dim 0 dist -1 domain [1:4, 0:4]
// CHECK-NEXT:     pimcmd.bc f32 dst 3 src 0 dim 0 dist 1 count 3 domain [0:1, 0:4]
// CHECK-NEXT:     pimcmd.reduce add f32 dst 4 src 3 dim 1 domain [0:4, 0:4]
// CHECK-NEXT:     pimcmd.reduce max f32 dst 5 src 3 dim 0 domain [0:4, 0:4]
// CHECK-NEXT:     pimcmd.compute add f32 dst 6 srcs [1, 2] domain [1:4, 1:3]
// CHECK-NEXT:     pimcmd.compute mul f32 dst 6 srcs [6] const 0.5 domain [1:4, 1:3]
// CHECK-NEXT:     pimcmd.compute neg f32 dst 7 srcs [6] bitlines 0:1:4 tiles 0:1:4
// CHECK-NEXT:     pimcmd.readout f32 src 4 domain [0:4, 0:1] id 0
// CHECK-NEXT:     pimcmd.writein f32 dst 8 domain [0:4, 0:1] id 0
// CHECK-NEXT:     pimcmd.near_reduce add f32 in 0 dims [0] step [1, 2] out 1
// CHECK-NEXT:     pimcmd.near_reduce min f32 in 0 dims [0, 1] step [1, 1] out 3
// CHECK-NEXT:     pimcmd.near_load i32 %i map [d1] indirect [] indices [] domain [0:1, 0:4] out 2 : memref<4xi32>
// CHECK-NEXT:     pimcmd.near_load f32 %c map [0] indirect [0] indices [2] domain [0:1, 0:4] out 4 : memref<16xf32>
// CHECK-NEXT:     pimcmd.near_store add f32 in 4 -> %c map [0] indirect [0] indices [2] : memref<16xf32>
// CHECK-NEXT:     pimcmd.near_store store f32 in 4 -> %c map [d1 + 4] indirect [] indices [] : memref<16xf32>
// CHECK-NEXT:     pimcmd.near_store store f32 in 4 -> %c map [d1] indirect [] indices [] domain [0:1, 1:3] : memref<16xf32>
// CHECK-NEXT:     pimcmd.result index 0 id 1
// CHECK-NEXT:     pimcmd.result index 1 id 2
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return %r, %r_1 : f32, i32
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "virtual_program"
// GENERIC: %r, %r_1 = "pimcmd.program"(%A, %I, %C) <{config = "tiny", lattice = array<i64: 4, 4>, tiles = array<i64: 2, 2>, banks = 2 : i64, arrays_per_bank = 2 : i64, wordlines = 256 : i64, virtual, operandSegmentSizes = array<i32: 3, 0>}> ({
// GENERIC: "pimcmd.array"(%a) <{shape = array<i64: 4, 4>, wordline = 0 : i64, transposed}> : (memref<4x4xf32>) -> ()
// GENERIC: "pimcmd.transpose_in"(%a) : (memref<4x4xf32>) -> ()
// GENERIC: "pimcmd.mv"() <{type = "f32", dst = 1 : i64, src = 0 : i64, dim = 1 : i64, dist = 1 : i64, domain = #lattice.domain<[0:4, 0:3]>}> : () -> ()
// GENERIC: "pimcmd.mv"() <{type = "f32", dst = 2 : i64, src = 1 : i64, dim = 0 : i64, dist = -1 : i64, domain = #lattice.domain<[1:4, 0:4]>}> : () -> ()
// GENERIC: "pimcmd.bc"() <{type = "f32", dst = 3 : i64, src = 0 : i64, dim = 0 : i64, dist = 1 : i64, count = 3 : i64, domain = #lattice.domain<[0:1, 0:4]>}> : () -> ()
// GENERIC: "pimcmd.reduce"() <{op = "add", type = "f32", dst = 4 : i64, src = 3 : i64, dim = 1 : i64, domain = #lattice.domain<[0:4, 0:4]>}> : () -> ()
// GENERIC: "pimcmd.reduce"() <{op = "max", type = "f32", dst = 5 : i64, src = 3 : i64, dim = 0 : i64, domain = #lattice.domain<[0:4, 0:4]>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "add", type = "f32", dst = 6 : i64, srcs = array<i64: 1, 2>, domain = #lattice.domain<[1:4, 1:3]>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "mul", type = "f32", dst = 6 : i64, srcs = array<i64: 6>, const = 5.000000e-01 : f64, domain = #lattice.domain<[1:4, 1:3]>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "neg", type = "f32", dst = 7 : i64, srcs = array<i64: 6>, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:4>}> : () -> ()
// GENERIC: "pimcmd.readout"() <{type = "f32", src = 4 : i64, domain = #lattice.domain<[0:4, 0:1]>, id = 0 : i64}> : () -> ()
// GENERIC: "pimcmd.writein"() <{type = "f32", dst = 8 : i64, domain = #lattice.domain<[0:4, 0:1]>, id = 0 : i64}> : () -> ()
// GENERIC: "pimcmd.near_reduce"() <{op = "add", type = "f32", input = 0 : i64, dims = array<i64: 0>, step = array<i64: 1, 2>, out = 1 : i64}> : () -> ()
// GENERIC: "pimcmd.near_reduce"() <{op = "min", type = "f32", input = 0 : i64, dims = array<i64: 0, 1>, step = array<i64: 1, 1>, out = 3 : i64}> : () -> ()
// GENERIC: "pimcmd.near_load"(%i) <{type = "i32", map = #lattice.map<[d1]>, indirect = array<i64>, indices = array<i64>, domain = #lattice.domain<[0:1, 0:4]>, out = 2 : i64}> : (memref<4xi32>) -> ()
// GENERIC: "pimcmd.near_load"(%c) <{type = "f32", map = #lattice.map<[0]>, indirect = array<i64: 0>, indices = array<i64: 2>, domain = #lattice.domain<[0:1, 0:4]>, out = 4 : i64}> : (memref<16xf32>) -> ()
// GENERIC: "pimcmd.near_store"(%c) <{kind = "add", type = "f32", input = 4 : i64, map = #lattice.map<[0]>, indirect = array<i64: 0>, indices = array<i64: 2>}> : (memref<16xf32>) -> ()
// GENERIC: "pimcmd.near_store"(%c) <{kind = "store", type = "f32", input = 4 : i64, map = #lattice.map<[d1 + 4]>, indirect = array<i64>, indices = array<i64>}> : (memref<16xf32>) -> ()
// GENERIC: "pimcmd.near_store"(%c) <{kind = "store", type = "f32", input = 4 : i64, map = #lattice.map<[d1]>, indirect = array<i64>, indices = array<i64>, domain = #lattice.domain<[0:1, 1:3]>}> : (memref<16xf32>) -> ()
// GENERIC: "pimcmd.result"() <{index = 0 : i64, id = 1 : i64}> : () -> ()
// GENERIC: "pimcmd.result"() <{index = 1 : i64, id = 2 : i64}> : () -> ()
// GENERIC: }) : (memref<4x4xf32>, memref<4xi32>, memref<16xf32>) -> (f32, i32)

func.func @lowered_buffers(%A: memref<4x4xf32>) {
  pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>):
    pimcmd.array %a shape [4, 4] wordline 0 : memref<4x4xf32>
    pimcmd.readout f32 src 0 domain [0:4, 0:1] id 0 bitlines 0:2:2 tiles 0:2:2 banks 0:1:2
    pimcmd.writein f32 dst 32 domain [0:4, 0:1] id 0 bitlines 0:2:2 tiles 0:2:2
    pimcmd.writein f32 dst 64 domain [0:2, 0:2] id 0 bitlines 0:1:4 tiles 0:1:1 banks 0:1:1
    pimcmd.near_store max f32 in 0 -> %a map [d0, d1] indirect [] indices [] : memref<4x4xf32>
  }
  func.return
}

// CHECK-LABEL: func.func @lowered_buffers(%A: memref<4x4xf32>) {
// CHECK-NEXT:   pimcmd.program ins(%A : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
// CHECK-NEXT:   ^bb0(%a: memref<4x4xf32>):
// CHECK-NEXT:     pimcmd.array %a shape [4, 4] wordline 0 : memref<4x4xf32>
// CHECK-NEXT:     pimcmd.readout f32 src 0 domain [0:4, 0:1] id 0 bitlines 0:2:2 tiles 0:2:2 banks 0:1:2
// CHECK-NEXT:     pimcmd.writein f32 dst 32 domain [0:4, 0:1] id 0 bitlines 0:2:2 tiles 0:2:2
// CHECK-NEXT:     pimcmd.writein f32 dst 64 domain [0:2, 0:2] id 0 bitlines 0:1:4 tiles 0:1:1 banks 0:1:1
// CHECK-NEXT:     pimcmd.near_store max f32 in 0 -> %a map [d0, d1] indirect [] indices [] : memref<4x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "lowered_buffers"
// GENERIC: "pimcmd.program"(%A) <{config = "tiny", lattice = array<i64: 4, 4>, tiles = array<i64: 2, 2>, banks = 2 : i64, arrays_per_bank = 2 : i64, wordlines = 256 : i64, operandSegmentSizes = array<i32: 1, 0>}> ({
// GENERIC: "pimcmd.array"(%a) <{shape = array<i64: 4, 4>, wordline = 0 : i64}> : (memref<4x4xf32>) -> ()
// GENERIC: "pimcmd.readout"() <{type = "f32", src = 0 : i64, domain = #lattice.domain<[0:4, 0:1]>, id = 0 : i64, bitlines = #lattice.pattern<0:2:2>, tiles = #lattice.pattern<0:2:2>, banks = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: "pimcmd.writein"() <{type = "f32", dst = 32 : i64, domain = #lattice.domain<[0:4, 0:1]>, id = 0 : i64, bitlines = #lattice.pattern<0:2:2>, tiles = #lattice.pattern<0:2:2>}> : () -> ()
// GENERIC: "pimcmd.writein"() <{type = "f32", dst = 64 : i64, domain = #lattice.domain<[0:2, 0:2]>, id = 0 : i64, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:1>, banks = #lattice.pattern<0:1:1>}> : () -> ()
// GENERIC: "pimcmd.near_store"(%a) <{kind = "max", type = "f32", input = 0 : i64, map = #lattice.map<[d0, d1]>, indirect = array<i64>, indices = array<i64>}> : (memref<4x4xf32>) -> ()
// GENERIC: }) : (memref<4x4xf32>) -> ()

func.func @runtime_scalars(%A: memref<4x4xf32>, %w: f32, %k: i32) {
  pimcmd.program ins(%A : memref<4x4xf32>) scalars(%w, %k : f32, i32) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%a: memref<4x4xf32>, %W: f32, %K: i32):
    pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    pimcmd.compute mul f32 dst 32 srcs [0] const_arg 0 bitlines 0:1:4 tiles 0:1:4
    pimcmd.compute add f32 dst 32 srcs [32] const_arg 1 bitlines 0:1:4 tiles 0:1:4 banks 0:1:2
  }
  func.return
}

// CHECK-LABEL: func.func @runtime_scalars(%A: memref<4x4xf32>, %w: f32, %k: i32) {
// CHECK-NEXT:   pimcmd.program ins(%A : memref<4x4xf32>) scalars(%w, %k : f32, i32) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
// CHECK-NEXT:   ^bb0(%a: memref<4x4xf32>, %W: f32, %K: i32):
// CHECK-NEXT:     pimcmd.array %a shape [4, 4] wordline 0 transposed : memref<4x4xf32>
// CHECK-NEXT:     pimcmd.compute mul f32 dst 32 srcs [0] const_arg 0 bitlines 0:1:4 tiles 0:1:4
// CHECK-NEXT:     pimcmd.compute add f32 dst 32 srcs [32] const_arg 1 bitlines 0:1:4 tiles 0:1:4 banks 0:1:2
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "runtime_scalars"
// GENERIC: "pimcmd.program"(%A, %w, %k) <{config = "tiny", lattice = array<i64: 4, 4>, tiles = array<i64: 2, 2>, banks = 2 : i64, arrays_per_bank = 2 : i64, wordlines = 256 : i64, operandSegmentSizes = array<i32: 1, 2>}> ({
// GENERIC: "pimcmd.array"(%a) <{shape = array<i64: 4, 4>, wordline = 0 : i64, transposed}> : (memref<4x4xf32>) -> ()
// GENERIC: "pimcmd.compute"() <{op = "mul", type = "f32", dst = 32 : i64, srcs = array<i64: 0>, const_arg = 0 : i64, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:4>}> : () -> ()
// GENERIC: "pimcmd.compute"() <{op = "add", type = "f32", dst = 32 : i64, srcs = array<i64: 32>, const_arg = 1 : i64, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:4>, banks = #lattice.pattern<0:1:2>}> : () -> ()
// GENERIC: }) : (memref<4x4xf32>, f32, i32) -> ()

func.func @scalars_only(%w: f32) {
  pimcmd.program scalars(%w : f32) config tiny lattice [4] tiles [4] banks 1 arrays_per_bank 1 wordlines 64 virtual {
  ^bb0(%W: f32):
    pimcmd.compute copy f32 dst 1 srcs [] const_arg 0 domain [0:4]
  }
  func.return
}

// CHECK-LABEL: func.func @scalars_only(%w: f32) {
// CHECK-NEXT:   pimcmd.program scalars(%w : f32) config tiny lattice [4] tiles [4] banks 1 arrays_per_bank 1 wordlines 64 virtual {
// CHECK-NEXT:   ^bb0(%W: f32):
// CHECK-NEXT:     pimcmd.compute copy f32 dst 1 srcs [] const_arg 0 domain [0:4]
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "scalars_only"
// GENERIC: "pimcmd.program"(%w) <{config = "tiny", lattice = array<i64: 4>, tiles = array<i64: 4>, banks = 1 : i64, arrays_per_bank = 1 : i64, wordlines = 64 : i64, virtual, operandSegmentSizes = array<i32: 0, 1>}> ({
// GENERIC: "pimcmd.compute"() <{op = "copy", type = "f32", dst = 1 : i64, srcs = array<i64>, const_arg = 0 : i64, domain = #lattice.domain<[0:4]>}> : () -> ()
