// Regression (test_regress_lowering.py, the allocated program's verifier): in an allocated program a
// command that names an array's register uses all of it, as the array's
// element type, and an array has one layout entry.  Each was accepted, and
// the simulator read the array's bits as the command's type.
//
// RUN: infs-opt %s --split-input-file --verify-diagnostics

func.func @placed_twice(%A: memref<64xf32>) {
  pimcmd.program ins(%A : memref<64xf32>) config "small-16" lattice [64] tiles [64] banks 16 arrays_per_bank 8 wordlines 256 {
  ^bb0(%a: memref<64xf32>):
    pimcmd.array %a shape [64] wordline 0 transposed : memref<64xf32>
    // expected-error @+1 {{'pimcmd.array' op places %a a second time: it already has the layout entry at line 11 (one per array)}}
    pimcmd.array %a shape [64] wordline 32 transposed : memref<64xf32>
  }
  func.return
}

// -----

// expected-error @+2 {{'pimcmd.program' op 'pimcmd.compute' at line 26 reads %a's register (f32) as i32}}
func.func @read_as_another_type(%A: memref<64xf32>) {
  pimcmd.program ins(%A : memref<64xf32>) config "small-16" lattice [64] tiles [64] banks 16 arrays_per_bank 8 wordlines 256 {
  ^bb0(%a: memref<64xf32>):
    pimcmd.array %a shape [64] wordline 0 transposed : memref<64xf32>
    pimcmd.transpose_in %a : memref<64xf32>
    pimcmd.compute add i32 dst 32 srcs [0, 0] bitlines 0:1:64 tiles 0:1:1 banks 0:1:1
  }
  func.return
}

// -----

// expected-error @+2 {{'pimcmd.program' op 'pimcmd.compute' at line 39 writes wordlines [16, 48), which cut %a's register [0, 32) (f32)}}
func.func @register_cut(%A: memref<64xf32>) {
  pimcmd.program ins(%A : memref<64xf32>) config "small-16" lattice [64] tiles [64] banks 16 arrays_per_bank 8 wordlines 256 {
  ^bb0(%a: memref<64xf32>):
    pimcmd.array %a shape [64] wordline 0 transposed : memref<64xf32>
    pimcmd.transpose_in %a : memref<64xf32>
    pimcmd.compute copy f32 dst 16 srcs [0] bitlines 0:1:64 tiles 0:1:1 banks 0:1:1
  }
  func.return
}
