// Regression: a hardware config given as a file
// works wherever a built-in name does. infs-opt used to store the config's
// name and reload it by name ("internal error: ConfigError: unknown hardware
// config"). The program records the machine inline (NAME{field=value,...},
// hardware.config_spec), so it re-parses, re-verifies and means the same
// machine without the file. A bad file is one line naming the file and field.
//
// RUN: echo 'name = "mine"' > %t.toml
// RUN: echo 'base = "small-16"' >> %t.toml
// RUN: echo 'bitlines = 48' >> %t.toml
// RUN: echo '{"name": "mine", "base": "small-16", "bitlines": 48}' > %t.json
//
// RUN: infs-opt %s --tensorize --lower-pim='sizes=N=100 config=%t.toml' | filecheck %s
// RUN: infs-opt %s --tensorize --lower-pim='sizes=N=100 config=%t.json' | filecheck %s
// RUN: infs-opt %s -p 'tensorize,lower-pim{sizes="N=100" config="%t.toml"}' | filecheck %s
// Each lower-pim step that takes a config; the layout records it inline too.
// RUN: infs-opt %s --tensorize --specialize='sizes=N=100' --choose-layout='config=%t.toml' | filecheck %s --check-prefix=LAYOUT
// RUN: infs-opt %s --tensorize --specialize='sizes=N=100' --choose-layout='config=%t.toml' > %t.layout.mlir
// RUN: infs-opt %t.layout.mlir --tdfg-to-pimcmd | filecheck %s --check-prefix=VIRTUAL
// The printed program re-parses and re-verifies, also in generic form.
// RUN: infs-opt %s --tensorize --lower-pim='sizes=N=100 config=%t.toml' > %t.out.mlir
// RUN: infs-opt %t.out.mlir | filecheck %s
// RUN: infs-opt %t.out.mlir --print-op-generic | infs-opt | filecheck %s
//
// CHECK: pimcmd.program ins({{.*}}) config "mine{mesh_rows=4,mesh_cols=4,banks=16,ways=2,compute_ways=2,arrays_per_way=4,bitlines=48,htree_levels=2,mem_ctrls=8}" lattice [100] tiles [48] banks 16 arrays_per_bank 8 wordlines 256 {
// LAYOUT: infs.layout = {config = "mine{mesh_rows=4,mesh_cols=4,banks=16,ways=2,compute_ways=2,arrays_per_way=4,bitlines=48,htree_levels=2,mem_ctrls=8}"
// VIRTUAL: pimcmd.program ins({{.*}}) config "mine{{{.*}}bitlines=48{{.*}}}" lattice [100] tiles [48] banks 16 arrays_per_bank 8 wordlines 256 virtual {
//
// Bad files: one line, the file and the field, exit 1 (never 70).
// RUN: echo 'bitlines = 99999999999999999999' > %t.huge.toml
// RUN: not infs-opt %s --tensorize --lower-pim='sizes=N=100 config=%t.huge.toml' 2>&1 | filecheck %s --check-prefix=HUGE
// HUGE-NOT: internal error
// HUGE: {{^}}infs-opt: error: {{.*}}invalid hardware config file '{{.*}}huge.toml': bitlines must be a positive integer at most 4096, got 99999999999999999999
// HUGE-NOT: {{.}}
// RUN: echo 'energy_pj = 5' > %t.energy.toml
// RUN: not infs-opt %s --tensorize --lower-pim='sizes=N=100 config=%t.energy.toml' 2>&1 | filecheck %s --check-prefix=ENERGY
// ENERGY: {{^}}infs-opt: error: {{.*}}invalid hardware config file '{{.*}}energy.toml': energy must be a table, got 5
// ENERGY-NOT: {{.}}
// RUN: echo 'freq_ghz = inf' > %t.inf.toml
// RUN: not infs-opt %s --tensorize --lower-pim='sizes=N=100 config=%t.inf.toml' 2>&1 | filecheck %s --check-prefix=INF
// INF: {{^}}infs-opt: error: {{.*}}invalid hardware config file '{{.*}}inf.toml': freq_ghz must be a finite number in [0.01, 100], got inf
// INF-NOT: {{.}}

func.func @vec_add(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %n: index) {
  stream.region ins(%A, %B, %C : memref<?xf32>, memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %N: index):
    %x = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %y = stream.load %b[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%x, %y : !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%u: f32, %v: f32):
      %t = arith.addf %u, %v : f32
      stream.yield %t : f32
    }
    stream.store %s -> %c[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
