// Generic form of one op of every stream/tdfg/pimcmd kind, each carrying a
// discardable attribute {tag = N} (helper input of
// dialects/xfail-discardable-attributes.mlir and dialects/generic-inputs.mlir).
"builtin.module"() ({
  "func.func"() <{sym_name = "all_ops", function_type = (memref<4xf32>, memref<4xi32>, memref<4x4xf32>, index) -> f32}> ({
  ^bb0(%A: memref<4xf32>, %I: memref<4xi32>, %M: memref<4x4xf32>, %n: index):
    %r = "stream.region"(%A, %I, %M, %n) <{sym_names = ["N"], domain = #lattice.domain<[0:4]>, iterators = ["reduction"], operandSegmentSizes = array<i32: 3, 1>}> ({
    ^bb0(%a: memref<4xf32>, %i: memref<4xi32>, %m: memref<4x4xf32>, %N: index):
      %v = "stream.load"(%m) <{map = #lattice.map<[d0, 0]>, indirect_dims = array<i64>}> {tag = 1 : i64} : (memref<4x4xf32>) -> !stream.stream<f32>
      %j = "stream.load"(%i) <{map = #lattice.map<[d0]>, indirect_dims = array<i64>}> {tag = 2 : i64} : (memref<4xi32>) -> !stream.stream<i32>
      %s = "stream.compute"(%v) ({
      ^bb0(%x: f32):
        "stream.yield"(%x) {tag = 3 : i64} : (f32) -> ()
      }) {tag = 4 : i64} : (!stream.stream<f32>) -> !stream.stream<f32>
      "stream.store"(%s, %a) <{map = #lattice.map<[d0]>, indirect_dims = array<i64>, operandSegmentSizes = array<i32: 1, 1, 0, 0>}> {tag = 5 : i64} : (!stream.stream<f32>, memref<4xf32>) -> ()
      "stream.atomic"(%s, %a, %j) <{kind = "add", map = #lattice.map<[0]>, indirect_dims = array<i64: 0>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}> {tag = 6 : i64} : (!stream.stream<f32>, memref<4xf32>, !stream.stream<i32>) -> ()
      %t = "stream.reduce"(%s) <{kind = "add", dims = array<i64: 0>}> {tag = 7 : i64} : (!stream.stream<f32>) -> f32
      "stream.yield"(%t) {tag = 8 : i64} : (f32) -> ()
    }) {tag = 9 : i64} : (memref<4xf32>, memref<4xi32>, memref<4x4xf32>, index) -> f32
    %g = "tdfg.graph"(%A, %I) <{sym_names = [], rank = 1 : i64, operandSegmentSizes = array<i32: 2, 0>}> ({
    ^bb0(%a: memref<4xf32>, %i: memref<4xi32>):
      %t = "tdfg.tensor"(%a) <{domain = #lattice.domain<[0:4]>}> {tag = 10 : i64} : (memref<4xf32>) -> !tdfg.tensor<f32, 1>
      %m = "tdfg.mv"(%t) <{dim = 0 : i64, dist = #lattice.expr<1>}> {tag = 11 : i64} : (!tdfg.tensor<f32, 1>) -> !tdfg.tensor<f32, 1>
      %b = "tdfg.bc"(%t) <{dim = 0 : i64, dist = #lattice.expr<0>, count = #lattice.expr<1>}> {tag = 12 : i64} : (!tdfg.tensor<f32, 1>) -> !tdfg.tensor<f32, 1>
      %c = "tdfg.const"() <{value = 2.000000e+00 : f32}> {tag = 13 : i64} : () -> !tdfg.tensor<f32, 1>
      %x = "tdfg.cmp"(%m, %c) <{op = "add"}> {tag = 14 : i64} : (!tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1>) -> !tdfg.tensor<f32, 1>
      %s = "tdfg.shrink"(%x) <{dim = 0 : i64, range = #lattice.domain<[1:3]>}> {tag = 15 : i64} : (!tdfg.tensor<f32, 1>) -> !tdfg.tensor<f32, 1>
      %p = "tdfg.reduce"(%s) <{dim = 0 : i64, kind = "add"}> {tag = 16 : i64} : (!tdfg.tensor<f32, 1>) -> !tdfg.tensor<f32, 1>
      %l = "tdfg.stream_load"(%a) <{map = #lattice.map<[d0]>, indirect_dims = array<i64>, domain = #lattice.domain<[0:4]>}> {tag = 17 : i64} : (memref<4xf32>) -> !tdfg.tensor<f32, 1>
      %q = "tdfg.stream_reduce"(%p) <{kind = "add", dims = array<i64: 0>}> {tag = 18 : i64} : (!tdfg.tensor<f32, 1>) -> f32
      "tdfg.stream_store"(%l, %a) <{kind = "store", map = #lattice.map<[d0]>, indirect_dims = array<i64>, operandSegmentSizes = array<i32: 1, 1, 0>}> {tag = 19 : i64} : (!tdfg.tensor<f32, 1>, memref<4xf32>) -> ()
      "tdfg.store"(%b, %a) {tag = 20 : i64} : (!tdfg.tensor<f32, 1>, memref<4xf32>) -> ()
      "tdfg.yield"(%q) {tag = 21 : i64} : (f32) -> ()
    }) {tag = 22 : i64} : (memref<4xf32>, memref<4xi32>) -> f32
    "pimcmd.program"(%M) <{config = "tiny", lattice = array<i64: 4, 4>, tiles = array<i64: 2, 2>, banks = 2 : i64, arrays_per_bank = 2 : i64, wordlines = 256 : i64, operandSegmentSizes = array<i32: 1, 0>}> ({
    ^bb0(%m: memref<4x4xf32>):
      "pimcmd.array"(%m) <{shape = array<i64: 4, 4>, wordline = 0 : i64, transposed}> {tag = 23 : i64} : (memref<4x4xf32>) -> ()
      "pimcmd.transpose_in"(%m) {tag = 24 : i64} : (memref<4x4xf32>) -> ()
      "pimcmd.compute"() <{op = "add", type = "f32", dst = 32 : i64, srcs = array<i64: 0, 0>, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:4>}> {tag = 25 : i64} : () -> ()
      "pimcmd.shift"() <{type = "f32", dst = 64 : i64, src = 0 : i64, dim = 1 : i64, mask = array<i64: 0, 1>, inter = 0 : i64, intra = 1 : i64, bitlines = #lattice.pattern<0:2:2>, tiles = #lattice.pattern<0:1:4>}> {tag = 26 : i64} : () -> ()
      "pimcmd.bcast"() <{type = "f32", dst = 64 : i64, src = 0 : i64, dim = 0 : i64, intra = array<i64: 0, 1>, inter = array<i64: 0, 2>, bitlines = #lattice.pattern<0:1:2>, tiles = #lattice.pattern<0:1:2>}> {tag = 27 : i64} : () -> ()
      "pimcmd.sync"() {tag = 28 : i64} : () -> ()
      "pimcmd.readout"() <{type = "f32", src = 32 : i64, domain = #lattice.domain<[0:4, 0:1]>, id = 0 : i64, bitlines = #lattice.pattern<0:2:2>, tiles = #lattice.pattern<0:2:2>}> {tag = 29 : i64} : () -> ()
      "pimcmd.release"(%m) {tag = 30 : i64} : (memref<4x4xf32>) -> ()
    }) {tag = 31 : i64} : (memref<4x4xf32>) -> ()
    "func.return"(%r) : (f32) -> ()
  }) : () -> ()
}) : () -> ()
