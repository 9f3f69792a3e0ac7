// Round trip of every `pimcmd` op in its custom form, in each syntactic
// variant: program with and without array operands; array with and without
// `transposed`; transpose_in, release, sync; compute of every op and element
// type, with and without a constant (float, negative and positive integer)
// and with and without the optional `banks` pattern; shift intra- and
// inter-tile (both directions), with and without banks; bcast with negative
// ranges, with and without banks; readout with and without banks; single-
// and multi-level patterns.
//
// RUN: infs-opt %s | filecheck %s
// RUN: infs-opt %s --print-op-generic | infs-opt | filecheck %s
// RUN: infs-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

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
// CHECK-NEXT:     pimcmd.release %b : memref<4x4xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return
// CHECK-NEXT: }

// GENERIC-LABEL: "func.func"() <{sym_name = "fig9"
// GENERIC: "pimcmd.program"(%A, %B) <{config = "tiny", lattice = array<i64: 4, 4>, tiles = array<i64: 2, 2>, banks = 2 : i64, arrays_per_bank = 2 : i64, wordlines = 256 : i64}> ({
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
// GENERIC: "pimcmd.program"(%A, %B, %C, %M) <{config = "int_cfg", lattice = array<i64: 8>, tiles = array<i64: 4>, banks = 1 : i64, arrays_per_bank = 2 : i64, wordlines = 64 : i64}> ({
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
// GENERIC: "pimcmd.program"() <{config = "none", lattice = array<i64: 1>, tiles = array<i64: 1>, banks = 1 : i64, arrays_per_bank = 1 : i64, wordlines = 1 : i64}> ({
// GENERIC: "pimcmd.sync"() : () -> ()
