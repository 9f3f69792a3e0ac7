// Non-finite float constants in tdfg.const and pimcmd.compute (helper input of
// dialects/xfail-nonfinite-constants.mlir and dialects/generic-inputs.mlir).
func.func @f(%M: memref<4x4xf32>) {
  tdfg.graph rank 1 {
    %i = "tdfg.const"() <{value = 0x7F800000 : f32}> : () -> !tdfg.tensor<f32, 1>
    %n = "tdfg.const"() <{value = 0xFF800000 : f32}> : () -> !tdfg.tensor<f32, 1>
    tdfg.yield
  }
  pimcmd.program ins(%M : memref<4x4xf32>) config tiny lattice [4, 4] tiles [2, 2] banks 2 arrays_per_bank 2 wordlines 256 {
  ^bb0(%m: memref<4x4xf32>):
    pimcmd.array %m shape [4, 4] wordline 0 transposed : memref<4x4xf32>
    "pimcmd.compute"() <{op = "max", type = "f32", dst = 32 : i64, srcs = array<i64: 0>, const = 0xFFF0000000000000 : f64, bitlines = #lattice.pattern<0:1:4>, tiles = #lattice.pattern<0:1:4>}> : () -> ()
  }
  func.return
}
