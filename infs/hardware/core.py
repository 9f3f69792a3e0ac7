"""The cores and their private caches: the Base of ASPLOS §6 (Table 2), section ``[core]``.

Takes nothing but the field machinery.  Gives ``PART``: the clock
(``freq_ghz``, a finite number in 0.01..100, the cores', caches' and NoC's),
the cores (``cores`` 1..4096, one per tile; ``host_tile`` the tile of the one
running TC_core, 0..banks-1), their SIMD width and functional units, their
L1/L2 latencies and L2 capacity, their outstanding misses and the OpenMP
runtime's fork/join tree, with their defaults (paper-64), ranges and sources,
and the check that the host tile is on the mesh.  The core baseline
(``sim/core/baseline.py``) uses them:

* ``simd_lanes`` (16) -- 32-bit lanes of a 512-bit vector (cores and L3 stream
  engines), 1..1024;
* the Base core's functional units (gem5's GemForgeO8FUPool, which Table 2
  describes): ``core_issue_width`` (8) instructions per cycle,
  ``core_fp_simd_units`` (4) FP-SIMD units of ``core_fp_simd_cycles`` (2,
  unpipelined) per fp add/mul/div, ``core_int_simd_units`` (4) pipelined
  integer SIMD units, ``core_mem_ports`` (4) load/store ports;
* ``core_mshrs`` (16) -- outstanding line misses per core, which bound every
  line a core fetches, affine or indirect (gem5 ``configs/common/Options.py:200``:
  16 MSHRs per private L2);
* ``core_barrier_radix`` (4) -- the branch factor of the OpenMP runtime's
  fork/join tree (LLVM libomp's hyper barrier, ``kmp_global.cpp``), which the
  Base pays once per parallel region call (``core.forkjoin_cycles``);
* ``core_load_queue`` (72) -- load-queue entries, which bound a core's demand
  loads in flight beside the MSHRs (NSC Table V's IO4/OOO4/OOO8: 4, 24, 72).
"""

from __future__ import annotations

from infs.hardware.part_fields import BYTES, COUNT, TABLE_2, ConfigError, ConfigField, FieldRange, Part

FIELDS = (
    ConfigField(
        "freq_ghz", "float", 2.0,
        FieldRange("number", 0.01, 100.0, "a clock", "a clock"),
        TABLE_2 + ": 2.0 GHz", "Fig. 14 (JIT share: the JIT's time in cycles)",
    ),
    ConfigField(
        "cores", "int", 64,
        FieldRange("int", 1, 4096),
        TABLE_2 + ": 8x8 cores", "Fig. 11 (Base) and Eq. 2's TP_core",
    ),
    ConfigField(
        "simd_lanes", "int", 16,  # fp32 lanes of one 512-bit vector (cores and L3 stream engines; ASPLOS §2.2)
        FieldRange("int", 1, 1024),
        "ASPLOS §2.2 (asplos:119): 'one 512-bit vector op per cycle (64 x 16 = 1024 ops/cycle)': 16 fp32 lanes; Eq. 2's TP_core = cores x simd_lanes (§4.3, the runtime's estimate) and the SE_L3's rate; the Base timing model issues on the FU pool (core_*)", "Fig. 11 (Base, Near-L3) and Eq. 2's TP_core",
    ),
    ConfigField(
        "host_tile", "int", 0,  # mesh node of the core running TC_core
        FieldRange("int", 0, 4095),  # also < banks
        "assumed: TC_core at mesh node 0 (the paper does not place it)", "Fig. 14 (sync round trips)",
    ),
    ConfigField(
        "core_mshrs", "int", 16,  # outstanding line misses per core (gem5 Options.py:200, 16 L2 MSHRs): bounds every stream (core.py)
        FieldRange("int", 1, COUNT),
        "gem5 configs/common/Options.py:200 --l1_5d_mshrs 16 (private L2)", "Fig. 11 (Base on streaming regions: the MLP bound)",
    ),
    # The Base core's functional units (core.py), gem5's GemForgeO8FUPool, which the
    # authors' 8-issue O3 core uses (GemForgeO3CPUConfig.py:64-72, Table 2's 64 IQ /
    # 72 LQ / 56 SQ / 224 ROB core); GemForgeFUPool.py:47-99 on branch gem-forge.
    ConfigField(
        "core_issue_width", "int", 8,  # Table 2 '8-issue'; GemForgeO3CPUConfig.py issueWidth = 8
        FieldRange("int", 1, COUNT),
        TABLE_2 + ": 'OOO CPU (8-issue)'; gem5 GemForgeO3CPUConfig.py:64-72 (issue width 8: GemForgeO8FUPool)", "Fig. 11 (Base: all vector instructions, loads and stores included)",
    ),
    ConfigField(
        "core_fp_simd_units", "int", 4,  # GemForgeO8FUPool FUList[6].count = 4 GemForgeFpSIMDUnit (Table 2 '4 FP ALU/SIMD')
        FieldRange("int", 1, COUNT),
        "gem5 src/cpu/o3/GemForgeFUPool.py:89-99 (branch gem-forge): GemForgeO8FUPool sets FUList[6] (GemForgeFpSIMDUnit) count = 4; Table 2 '4 FP ALU/SIMD'", "Fig. 11 (Base on fp regions)",
    ),
    ConfigField(
        "core_fp_simd_cycles", "int", 2,  # GemForgeFpSIMDUnit: opLat=2, pipelined=False for every SimdFloat* class
        FieldRange("int", 1, COUNT),
        "gem5 src/cpu/o3/GemForgeFUPool.py:62-76 (branch gem-forge): every SimdFloat* class (add, mul, fma, div, cmp, cvt) opLat=2, pipelined=False: 4 units / 2 cycles = two 512-bit fp ops per cycle; a vector divide is one of them (vdivps is SimdFloatDivOp, avxop.isa:314-315), not Table 2's scalar '4 FP Div (12 cy.)' (FP_MultDiv's FloatDiv). The avx512 branch pipelines them (four per cycle); gem-forge is the branch of the paper's model", "Fig. 11 (Base on fp regions)",
    ),
    ConfigField(
        "core_int_simd_units", "int", 4,  # GemForgeO8FUPool FUList[5].count = 4 GemForgeIntSIMDUnit (opLat 1, pipelined)
        FieldRange("int", 1, COUNT),
        "gem5 src/cpu/o3/GemForgeFUPool.py:47-60, 97 (branch gem-forge): GemForgeIntSIMDUnit (SimdAdd/Mult/Cmp/Misc..., opLat 1, pipelined) count = 4 in GemForgeO8FUPool. Compares, selects, min/max and casts go here too (int ones are SimdCmpOp, avxop.isa:368-387; vcmpps and vcvt* carry no op class, avxop.isa:621, 751; fp max is SimdFloatCmpOp: the int pipe is the faster, conservative reading)", "Fig. 11 (Base on integer regions)",
    ),
    ConfigField(
        "core_mem_ports", "int", 4,  # FuncUnitConfig.py RdWrPort count = 4 (GemForgeO8FUPool keeps it)
        FieldRange("int", 1, COUNT),
        "gem5 src/cpu/o3/FuncUnitConfig.py RdWrPort count = 4 (GemForgeO8FUPool keeps the default)", "Fig. 11 (Base on load-heavy regions: stencil taps)",
    ),
    # The Base core's private caches (core.py): Table 2 'L1 I/D $ 32KB, 8-way, 2 cy.',
    # 'Priv. L2 $ 256KB, 16-way, 16 cy.'; gem5 configs/common/Options.py:191, 198, 207.
    ConfigField(
        "core_l1_cycles", "int", 2,  # L1 D lookup before a miss reaches the L2 (Table 2; Options.py:191 --l1d_lat 2)
        FieldRange("int", 0, COUNT),
        TABLE_2 + ": 'L1 I/D $ 32KB, 8-way, 2 cy.'; gem5 configs/common/Options.py:191 --l1d_lat 2: on a region's first access", "Fig. 11 (Base on short regions)",
    ),
    ConfigField(
        "core_l2_cycles", "int", 16,  # private L2 lookup (Table 2; Options.py:207 --l2_lat 16, the L2's response latency in MESI_Three_Level_Stream.py:242)
        FieldRange("int", 0, COUNT),
        TABLE_2 + ": 'Priv. L2 $ 256KB, 16-way, 16 cy.'; gem5 configs/common/Options.py:207 --l2_lat 16 (the private L2's response latency, configs/ruby/MESI_Three_Level_Stream.py:242): on every L2 miss's round trip, which holds an L2 MSHR", "Fig. 11 (Base on latency-bound regions: gathers, the MLP bound)",
    ),
    ConfigField(
        "core_l2_bytes", "int", 262144,  # private L2 capacity: what a thread's stencil taps can reuse (Table 2; Options.py:198)
        FieldRange("int", 0, BYTES),
        TABLE_2 + ": 'Priv. L2 $ 256KB'; gem5 configs/common/Options.py:198 --l1_5d_size 256kB: the reuse distance within which a thread's stencil taps share their lines (core.tap_reads)", "Fig. 11 (Base on stencil3d: its up/down taps a plane apart)",
    ),
    # The Base's OpenMP runtime (core.py forkjoin_cycles): LLVM libomp, whose hyper barrier
    # joins and releases the team in a radix-4 tree (kmp_global.cpp: branch bits 2).
    ConfigField(
        "core_barrier_radix", "int", 4,  # libomp __kmp_barrier_{gather,release}_bb_dflt = 2 (branch factor 4), bp_hyper_bar
        FieldRange("int", 2, COUNT),
        "LLVM OpenMP runtime openmp/runtime/src/kmp_global.cpp: __kmp_barrier_gather_bb_dflt = __kmp_barrier_release_bb_dflt = 2 (branch factor 4) and bp_hyper_bar, the defaults of the runtime the authors' Base binaries run (gem5 src/cpu/o3/o3_cpu_delegator.cc:746-754, branch gem-forge, names its __kmp_hyper_barrier_release, __kmp_join_barrier and __kmp_fork_call); the kernels' `#pragma omp parallel for` per host-loop step (gem-forge-transform benchmark/GemForgeMicroSuite/stream/gaussian_elim/omp_gaussian_elim_avx/omp_gaussian_elim_avx.c:41-43, 89-90; the team is started by a warm-up region before gf_reset_stats, :187-193, so thread creation is not measured): a region's fork and join each cross ceil(log4(cores)) levels of it (core.forkjoin_cycles)", "Fig. 11 (Base on host loops of short regions: gauss_elim, mm_outer, kmeans_outer); §8 (PointNet++ sampling on Base)",
    ),
    # The core's load queue (NSC Table V: IO4 '4 LSQ', OOO4 '24 LQ', OOO8 '72 LQ'; ASPLOS Table 2 '72 LQ'):
    # a demand load in flight holds an entry, so it bounds the indirect loads a core has
    # outstanding beside the MSHRs (core.py ``demand_window``); prefetched lines do not hold one.
    ConfigField(
        "core_load_queue", "int", 72,
        FieldRange("int", 1, COUNT),
        TABLE_2 + ": '72 LQ' (NSC Table V: IO4 '4 LSQ', OOO4 '24 LQ', OOO8 '72 LQ'): a demand load holds an entry, so indirect loads in flight per core are min(core_mshrs, core_load_queue) (core.demand_window)", "NSC Fig. 9/10 (Base on IO4/OOO4: indirect loads)",
    ),
)


def _host_on_the_mesh(cfg, where: str) -> None:
    if cfg.host_tile >= cfg.banks:
        raise ConfigError(f"{where}: host_tile {cfg.host_tile} is outside the {cfg.mesh_rows}x{cfg.mesh_cols} mesh")


PART = Part("core", "the cores (the Base) and their private caches", FIELDS, (_host_on_the_mesh,))
