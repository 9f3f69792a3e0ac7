"""Hardware configurations and cost profiles, as data (the simulated machine of ASPLOS §5, Table 2).

Shared by the compiler (layout, lowering) and the simulator, so it sits at the
bottom of the layering and imports nothing from infs but the element types
(``infs.element_types``) and the JIT models' table (``infs.jit_models``), which
import nothing from infs.

A ``HardwareConfig`` describes one machine: the mesh of L3 banks, the SRAM
arrays in each bank, the H-tree, the NoC, DRAM, and the energy constants.
Built-in configurations:

* ``paper-64`` -- ASPLOS'23 Table 2: 2 GHz, 8x8 mesh, one L3 bank per tile,
  18 ways of which 16 compute, 16 SRAM arrays per way, 256x256 arrays,
  5-level H-tree with 64 B/cycle per bank, 32 B 1-cycle links, 5-stage routers,
  DDR4 at 25.6 GB/s -- 64 x 16 x 16 x 256 = 4,194,304 bitlines;
* ``cal-64`` -- CAL'22 Table 2: 512x512 arrays, 8 arrays per way, 16 ways per
  bank (all used for compute: 64 x 16 x 8 x 512 = 4M bitlines, 256 MB),
  256-bit links; what CAL leaves out is taken from ``paper-64``;
* ``tiny`` -- 4 banks (2x2 mesh) x 1 way x 2 arrays x 16 bitlines, for tests;
* ``fig9`` -- the ASPLOS Fig. 9 toy: 4 banks x 1 array x 4 bitlines, so a 4x4
  array in 2x2 tiles puts tile ``t`` in bank ``t``;
* ``small-16`` -- 16 banks (4x4 mesh) x 2 ways x 4 arrays x 64 bitlines.

``load_config`` accepts a built-in name, a ``.toml``/``.json`` file (keys are
the field names; ``base = "paper-64"`` inherits a built-in; an ``[energy]``
table overrides energy constants), a ``dict`` of the same, an inline config
``NAME{field=value,...}`` (``config_spec``: what a lowered program records),
or a config.  Impossible configurations raise ``ConfigError`` with one line
naming the file (or config), the field and what is wrong.

Every field has a type and an inclusive range (``FIELD_RANGES``), checked at
load time.  Integers: ``mesh_rows``/``mesh_cols`` 1..64; ``banks`` 1..4096 and
= rows x cols; ``ways``/``compute_ways`` 1..64 (compute <= ways);
``arrays_per_way`` 1..1024; ``wordlines`` 32..1024 (one 32-bit register; the
10-bit LOT wordline field, ASPLOS Table 1); ``bitlines`` 1..4096 (any count:
choose-layout factors it into tile sizes, nothing assumes a power of two);
``banks x compute_ways x arrays_per_way x bitlines`` <= 2^24 (the simulator
holds a dense vector over every bitline: 64 MB per 32-bit register);
``htree_degree`` 2..64 and ``htree_levels`` 1..16 (the in-way levels of a
degree-``htree_degree`` tree, then one level joining the ways; a tree with too few
in-way levels joins the rest of a way at its top one); ``htree_leaf_bytes_per_cycle``
1..2^20; ``mem_ctrls`` 1..2 x mesh_rows (the two edge columns);
``host_tile`` 0..banks-1; ``router_stages`` and ``jit_cycles_per_command``
0..2^20; ``jit_us_per_lowering`` 0..1e6; ``jit_model`` one of ``JIT_MODELS``; ``interleave_bytes`` and ``se_buffer_bytes`` 1..2^30 (interleave a
multiple of ``line_bytes``); ``cores`` 1..4096; ``simd_lanes`` 1..1024; every
other integer (latencies, cycle counts, message and link sizes) 1..2^20.
Finite numbers: ``freq_ghz`` 0.01..100, ``dram_gbps`` 0.001..1e5, every energy
constant 0..1e9 pJ.  ``multicast`` and ``parallel_intra_shift`` true/false; ``profile`` one of
``PROFILES``; ``name`` a non-empty string.  The generic upper bounds are far
beyond any machine the papers model and keep every product the models form
exact in int64/float64.

Cost profiles (``PROFILES``) price bit-serial compute commands:

* ``infs`` -- one documented source per op (``INFS_LATENCY``: the paper's
  text first, then the authors' gem5 model, then PIMeval): n-bit int add n
  cycles, int mul n^2 + 5n (ASPLOS §5.2), fp add/mul/div/min/max/cmp n^2 and
  fp fma 2n^2 (gem5), int div PIMeval's step count;
* ``pimeval-bitsimd-v`` -- PIMeval-PIMbench's published BITSIMD-V step
  counts, priced ``reads*tR + writes*tW + logic*tL`` (tR = tW = tL = 1 cycle
  for an SRAM row here; configurable).

Data movement (intra-array shifts: n cycles per flattened bitline of distance,
or n with ``parallel_intra_shift``; broadcasts: one alignment, fan-out free;
H-tree, mesh, sync, DRAM) is priced the same under both profiles
(``timing.py``, which cites gem5 for each).

Near-memory streams (NSC, ``sim/near/engine.py``) and the core baseline
(``sim/core/baseline.py``) use these fields (defaults; ASPLOS Table 2 / NSC Table V where
the papers give a number, else the assumption is stated next to the field):

* ``line_bytes`` (64) -- cache line: the unit of L3 accesses, NoC requests and
  stream-engine flow control;
* ``l3_bank_bytes_per_cycle`` (64) -- one line per cycle read or written per
  L3 bank (the bank's 64 B/cycle H-tree, Table 2);
* ``interleave_bytes`` (1024) -- static-NUCA interleave: byte ``a`` of an
  array lives in bank ``(a // 1024) % banks``; arrays start 64 kB-aligned;
* ``simd_lanes`` (16) -- 32-bit lanes of a 512-bit vector (cores and L3 stream
  engines); an L3 stream engine does one 512-bit vector op per cycle,
  ``vector_div_cycles`` (3) a divide (Table 2: 4 FP dividers of 12 cycles);
  ``vector_other_cycles`` (1) -- casts and other ops (assumed; cores too);
* the Base core's functional units (gem5's GemForgeO8FUPool, which Table 2
  describes): ``core_issue_width`` (8) instructions per cycle,
  ``core_fp_simd_units`` (4) FP-SIMD units of ``core_fp_simd_cycles`` (2,
  unpipelined) per fp add/mul/div, ``core_int_simd_units`` (4) pipelined
  integer SIMD units, ``core_mem_ports`` (4) load/store ports;
* ``se_init_cycles`` (4) -- SE_L3 compute initiation (Table 2);
  ``se_config_bytes`` (64) -- a stream configuration / migration message
  (NSC Table IV: ~450 bits of fields, one line); ``se_sync_lines`` (8) --
  flow control (credit + done) every 8 lines per stream (NSC §IV-B collects
  ranges every 8 iterations, one line each when vectorized);
  ``se_buffer_bytes`` (1024) -- each SE_L3's stream buffer space per core
  (NSC Table V: 64 kB per bank, 1 kB per core), which bounds the lines a
  bank's streams have in flight and, the whole 64 kB less those lines, the
  reused data a stream engine can hold between uses (``near.rereads``);
  ``se_streams_per_core`` (12) -- streams an SE_L3 takes per core (NSC Table
  V); a region with more is not offloaded (``near.not_offloadable``);
* ``core_mshrs`` (16) -- outstanding line misses per core, which bound every
  line a core fetches, affine or indirect (gem5 ``configs/common/Options.py:200``:
  16 MSHRs per private L2);
* ``core_barrier_radix`` (4) -- the branch factor of the OpenMP runtime's
  fork/join tree (LLVM libomp's hyper barrier, ``kmp_global.cpp``), which the
  Base pays once per parallel region call (``core.forkjoin_cycles``);
* energy ``vector_op`` -- one 512-bit SIMD op (core or stream engine);
  ``sram_read_byte`` also prices L3 line reads/writes of streams and cores.
"""

from __future__ import annotations

import csv
import io
import json
import math
import tomllib
from dataclasses import asdict, dataclass, field, fields, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Mapping

from infs.element_types import ELEMENT_BITS, is_float_element
from infs.jit_models import JIT_COMMAND_CYCLES, JIT_MODEL_SOURCES, JIT_MODELS


class ConfigError(ValueError):
    """An impossible or malformed hardware configuration (one-line message).

    Not an xDSL ``DiagnosticException``: the simulator and the bundle's runner
    load configs without xDSL; the pass runner (``infs.api``) reports it as the
    pass's error, like any other bad input."""


# Energy constants in picojoules (pJ per event; ``static_fraction`` is a
# fraction of the machine's peak dynamic power, ``HardwareConfig.static_pj_per_cycle``).  The paper takes SRAM/H-tree energy from CACTI at 22 nm and
# the cores' from McPAT (ASPLOS §8, asplos:530; NSC nsc:367) without printing
# a number, so each constant below cites the published figure it comes from
# (``ENERGY_SOURCES``, also the table of benchmarks/MODEL.md); the ones no
# stored reference prices are marked "estimate" there.  Kept as data so a
# user can replace them (``[energy]`` in a config file).
# CRAM's 0.6 V figure scaled by V^2 to 0.8 V, the supply of CACTI's 22 nm
# technology (tech_params/22nm.dat), the tool and node the paper names for its
# arrays (asplos:530) and the point htree_byte_level is computed at.
_CRAM_BITLINE_CYCLE = 1 / 5.27 / 8 * (0.8 / 0.6) ** 2  # pJ: 0.0422 (ENERGY_SOURCES)
DEFAULT_ENERGY_PJ: dict[str, float] = {
    "compute_bitline_cycle": round(_CRAM_BITLINE_CYCLE, 4),  # one bitline, one bit-serial cycle
    "shift_bitline_bit": round(_CRAM_BITLINE_CYCLE, 4),  # one bit moved one bitline inside an array
    "htree_byte_level": 0.45,  # one byte over one H-tree level (CACTI 7, 22 nm)
    "noc_byte_hop": 0.52,  # one byte over one router (the authors' McPAT method, links not charged)
    "dram_byte": 157.0,  # DDR4 read burst (gem5's datasheet currents) + I/O (CACTI 7 extio)
    "transpose_byte": 2.5,  # tensor transpose unit, per byte (a write and a read of a small SRAM)
    "sram_read_byte": 1.25,  # conventional read of a row segment (readout, L3 line access)
    "vector_op": 150.0,  # one 512-bit SIMD instruction on a core / stream engine
    "static_fraction": 0.15,  # static power = 15% of the peak dynamic power (gem-forge-transform energy.py:33-37)
}
ENERGY_SOURCES: dict[str, str] = {
    "compute_bitline_cycle": (
        "CRAM, the compute SRAM the paper cites as [60] (Wang et al., JSSC 55(1) 2020, 28 nm): 5.27 TOPS/W for 8-bit "
        "addition at 0.6 V = 0.190 pJ per add, over the paper's n = 8 cycles (Eq. 1) = 0.0237 pJ per bitline-cycle, "
        "scaled by V^2 to 0.8 V, the supply of CACTI 7's 22 nm technology (tech_params/22nm.dat), the tool and node "
        "the paper names for its SRAM arrays (asplos:530) and the point htree_byte_level is computed at = 0.0422 pJ"),
    "shift_bitline_bit": (
        "one bit-step of an in-array shift is a row read, a PE pass and a row write on one bitline: the work of one "
        "bit-serial cycle, so CRAM's figure as compute_bitline_cycle (PIMeval's DRAM BSLU logic step, "
        "0.007 mW x 0.75 ns x 4 = 0.021 pJ, pimParamsDDRDram.h getPjLogic, is the lower DRAM-process value)"),
    "htree_byte_level": (
        "CACTI 7 (HewlettPackard/cacti 1ffd8df), the tool the paper names for its H-tree energy (asplos:530), run "
        "at 22 nm (tech_params/22nm.dat, 0.8 V) for a 2 MB, 16-way, 64 B-line L3 bank with the aggressive wire "
        "projection the authors' McPAT driver sets (gem-forge Gem5McPAT.py interconnect_projection_type = 0): "
        "'Total energy in H-tree' 0.1439 nJ per 64 B access = 2.25 pJ/B root to leaf, over htree_levels = 5 "
        "= 0.45 pJ/B per level (an even split: lower levels are shorter, so a near move costs less)"),
    "noc_byte_hop": (
        "the authors' NoC energy method (gem-forge-transform, stream-execution branch: "
        "driver/Utils/Gem5McPAT/RubyMcPAT.py:231 has_global_link = 0, i.e. routers only, one access per flit-hop; "
        "driver/ProcessingScripts/HPCA21-after-sub/energy.py:22-26 'The NoC power in McPAT is too high. We divide "
        "NoC power by 8') on McPAT 1.3's 22 nm 8x8-mesh example (gem-forge-gem5 branch mcpat, "
        "ext/mcpat-1.3/ExampleResults/T1_DC_64: router 1.66586 W over 360,000 flit-hops in 100,000 cycles at "
        "3.5 GHz = 132.2 pJ per 256-bit flit): 132.2 / 8 / 32 B = 0.52 pJ/B/hop. The more conservative choice "
        "for Inf-S (it cuts NoC traffic): McPAT undivided with links is 7.0, Piton's silicon (HPCA'18) ~1.4"),
    "dram_byte": (
        "DDR4 read: burst (IDD4R - IDD3N) x VDD x tBURST x 8 chips / 64 B = (135 - 43) mA x 1.2 V x 3.332 ns x 8 / "
        "64 = 46.0 pJ/B with gem5's DDR4_2400_8x8 datasheet currents (src/mem/DRAMInterface.py, Micron MT40A1G8), "
        "activate/precharge 3.44 nJ per 8 kB row = 0.42 pJ/B when streaming, plus I/O from CACTI 7's extio DDR4 "
        "model (the paper's CACTI [7]; DDR4-3200, 64 DQ, UDIMM, read: 2,832 mW at 25.6 GB/s = 110.6 pJ/B) = 157"),
    "transpose_byte": (
        "estimate (the paper and Neural Cache give no transpose-unit energy): each byte is written into and read "
        "out of a small transpose SRAM once, 2 x sram_read_byte = 2.5 pJ/B (Horowitz ISSCC 2014, 45 nm; CACTI 7 "
        "at 22 nm gives 0.22 pJ/B for a 4 kB RAM, so this is the conservative side for Inf-S)"),
    "sram_read_byte": (
        "Horowitz, 'Computing's energy problem', ISSCC 2014 (45 nm, 0.9 V): 10 pJ per 64-bit access of an 8 kB "
        "SRAM = 1.25 pJ/B, as tabulated in PMC8934428 Table 3; a lower bound for a 2 MB L3 bank"),
    "vector_op": (
        "functional units: 16 lanes x (fp32 add 0.9 + mul 3.7 pJ) = 73.6 pJ (Horowitz ISSCC 2014, 45 nm, via "
        "PMC8934428 Table 3); the other ~76 pJ (fetch, rename, issue, register file of the 8-issue OOO core) "
        "is an estimate"),
    "static_fraction": (
        "the authors' energy method (gem-forge-transform, stream-execution branch, "
        "driver/ProcessingScripts/HPCA21-after-sub/energy.py:33-37 computeAdjustStaticPower: 'The static power in "
        "McPAT is not making sense at all. Use 15% of the highest dynamic power'): static power = 0.15 x the "
        "machine's peak dynamic power by these constants (HardwareConfig.peak_dynamic_pj_per_cycle: every compute "
        "bitline busy, or every core's FU pool, L3 bank port and mesh link busy, whichever is more), charged for "
        "every cycle in every mode. The script takes the highest dynamic power measured over a configuration's "
        "runs, which a single run cannot see; the peak is its upper bound and the same chip in every mode"),
}

@dataclass(frozen=True)
class HardwareConfig:
    name: str
    freq_ghz: float = 2.0
    mesh_rows: int = 8
    mesh_cols: int = 8
    banks: int = 64  # one L3 bank per mesh tile
    ways: int = 18
    compute_ways: int = 16
    arrays_per_way: int = 16
    wordlines: int = 256
    bitlines: int = 256
    htree_levels: int = 5  # Table 2; gem5's tree: log2(16 arrays per way) = 4 in-way levels + the way level
    htree_degree: int = 2  # gem5 CacheMemory.cc (CacheMemory::CacheMemory): cacheParams.arrayTreeDegree = 2
    htree_leaf_bytes_per_cycle: int = 4  # gem5 CacheMemory.cc (CacheMemory::CacheMemory): cacheParams.arrayTreeLeafBandwidth = 4
    htree_bytes_per_cycle: int = 64  # total per bank (Table 2): the root, what a bank reads out, writes in or receives
    l3_latency: int = 20
    interleave_bytes: int = 1024
    link_bytes: int = 32
    link_cycles: int = 1
    router_stages: int = 5
    multicast: bool = True
    dram_gbps: float = 25.6
    mem_ctrls: int = 16
    cores: int = 64
    simd_lanes: int = 16  # fp32 lanes of one 512-bit vector (cores and L3 stream engines; ASPLOS §2.2)
    se_init_cycles: int = 4  # SE_L3 compute initiation latency (Table 2)
    host_tile: int = 0  # mesh node of the core running TC_core
    control_bytes: int = 8  # a control message (sync report, ack)
    command_bytes: int = 16  # one in-memory command sent to a bank
    # JIT charge per lowering that is not memoized (``jit_lowering_cycles``):
    # "per-command" (default) jit_cycles_per_command x commands; the named models
    # "hardware" / "gem5-controller" / "software" their cited cycles per command
    # (``JIT_COMMAND_CYCLES``); "per-lowering" jit_us_per_lowering at freq_ghz;
    # "measured" the JIT's own wall time.
    # per-command is the default: it is the charge of the authors' gem5 model,
    # which produced the paper's figures.  per-lowering (the paper's measured
    # software JIT) cannot be the charge Eq. 2 sees either: with 440,000 cycles
    # in its right-hand side no mm_outer k-step (4,096 cycles of core work at
    # peak) and no stencil time step would go in memory, against the paper's
    # Fig. 11/14 (99% of the elements in memory).  A re-entered region is
    # lowered once (runtime/base_offsets.py), so per-lowering charges mm_outer
    # one lowering, not 2,048.
    jit_model: str = "per-command"
    jit_us_per_lowering: float = 220.0  # ASPLOS §8 (asplos:516): "The average JIT time is 220us"
    jit_cycles_per_command: int = 10  # CAL'22 (cal:139) hardware lowering "10 cycles/cmd"; gem5 run.py:393
    # Near-memory streams (NSC) and the core baseline (module docstring).
    line_bytes: int = 64  # cache line
    l3_bank_bytes_per_cycle: int = 64  # one line/cycle per L3 bank (= the bank's H-tree, Table 2)
    vector_div_cycles: int = 3  # SE_L3 512-bit divide: Table 2's 4 FP dividers, 12 cycles each, unpipelined
    vector_other_cycles: int = 1  # casts and other ops: one vector op (assumed)
    se_config_bytes: int = 64  # stream configure/migrate message (NSC Table IV fields, ~450 bits)
    se_sync_lines: int = 8  # SE_core <-> SE_L3 credit/done every 8 lines per stream (NSC §IV-B)
    se_buffer_bytes: int = 1024  # SE_L3 stream buffer per core in each bank (NSC Table V: 64 kB, 1 kB per core)
    se_streams_per_core: int = 12  # streams an SE_L3 takes per core (NSC Table V: 12 per core, 768 in all)
    core_mshrs: int = 16  # outstanding line misses per core (gem5 Options.py:200, 16 L2 MSHRs): bounds every stream (core.py)
    # The Base core's functional units (core.py), gem5's GemForgeO8FUPool, which the
    # authors' 8-issue O3 core uses (GemForgeO3CPUConfig.py:64-72, Table 2's 64 IQ /
    # 72 LQ / 56 SQ / 224 ROB core); GemForgeFUPool.py:47-99 on branch gem-forge.
    core_issue_width: int = 8  # Table 2 '8-issue'; GemForgeO3CPUConfig.py issueWidth = 8
    core_fp_simd_units: int = 4  # GemForgeO8FUPool FUList[6].count = 4 GemForgeFpSIMDUnit (Table 2 '4 FP ALU/SIMD')
    core_fp_simd_cycles: int = 2  # GemForgeFpSIMDUnit: opLat=2, pipelined=False for every SimdFloat* class
    core_int_simd_units: int = 4  # GemForgeO8FUPool FUList[5].count = 4 GemForgeIntSIMDUnit (opLat 1, pipelined)
    core_mem_ports: int = 4  # FuncUnitConfig.py RdWrPort count = 4 (GemForgeO8FUPool keeps it)
    # The Base core's private caches (core.py): Table 2 'L1 I/D $ 32KB, 8-way, 2 cy.',
    # 'Priv. L2 $ 256KB, 16-way, 16 cy.'; gem5 configs/common/Options.py:191, 198, 207.
    core_l1_cycles: int = 2  # L1 D lookup before a miss reaches the L2 (Table 2; Options.py:191 --l1d_lat 2)
    core_l2_cycles: int = 16  # private L2 lookup (Table 2; Options.py:207 --l2_lat 16, the L2's response latency in MESI_Three_Level_Stream.py:242)
    core_l2_bytes: int = 262144  # private L2 capacity: what a thread's stencil taps can reuse (Table 2; Options.py:198)
    # The Base's OpenMP runtime (core.py forkjoin_cycles): LLVM libomp, whose hyper barrier
    # joins and releases the team in a radix-4 tree (kmp_global.cpp: branch bits 2).
    core_barrier_radix: int = 4  # libomp __kmp_barrier_{gather,release}_bb_dflt = 2 (branch factor 4), bp_hyper_bar
    # The core's load queue (NSC Table V: IO4 '4 LSQ', OOO4 '24 LQ', OOO8 '72 LQ'; ASPLOS Table 2 '72 LQ'):
    # a demand load in flight holds an entry, so it bounds the indirect loads a core has
    # outstanding beside the MSHRs (core.py ``demand_window``); prefetched lines do not hold one.
    core_load_queue: int = 72
    # NSC's SE_core (Table V 'SE_core (IO4-OOO8): 256B/1kB/2kB FIFO, 12 streams, 2 SCCs, total
    # -/32/64 ROB-entry'): the FIFO a floated stream's data waits in for the core (NS_no_comp,
    # near.nsc_terms: Little's law over the round trip), the stream computing contexts'
    # ROB entries that bound the SCM's ops in flight (0: the in-order IO4, one op per SCC).
    se_core_fifo_bytes: int = 2048
    scc_count: int = 2  # NSC Table V '2 SCCs'; §VII-C 'we set the default OOO8 configuration to 2 SCCs'
    scc_rob_entries: int = 64  # NSC Table V 'total -/32/64 ROB-entry'; §VII-C 'with total 64 ROB entries'
    # Which of NSC's configurations (§VI: Base is ``mode core``) the near model prices
    # (``near.NEAR_CONFIGS``): NS (range-sync, the default of NSC and of ASPLOS's Near-L3,
    # asplos:101 'coordinates with the remote CPU core'), NS_no_sync, NS_decouple,
    # NS_no_comp, INST, SINGLE.
    near_config: str = "NS"
    near_lock: str = "mrsw"  # NSC §VII-D 'By default, we use MRSW lock' (or 'exclusive', Fig. 16)
    near_scalar_pe: bool = True  # NSC §VII-D 'Both SE_core and SE_L3 has a scalar PE' (Fig. 17 turns it off)
    # gem5's stream_pum_enable_parallel_intra_array_shift (default 0, run.py:375,
    # Controller.py:194): an in-array shift costs ``bits`` whatever its distance.
    parallel_intra_shift: bool = False
    profile: str = "infs"
    energy_pj: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_ENERGY_PJ))

    # -- derived geometry ------------------------------------------------------
    @property
    def arrays_per_bank(self) -> int:
        return self.compute_ways * self.arrays_per_way

    @property
    def total_arrays(self) -> int:
        return self.banks * self.arrays_per_bank

    @property
    def total_bitlines(self) -> int:
        return self.total_arrays * self.bitlines

    @property
    def dram_bytes_per_cycle(self) -> float:
        return self.dram_gbps / self.freq_ghz

    @property
    def l3_bytes(self) -> int:
        """L3 capacity (all ways)."""
        return self.banks * self.ways * self.arrays_per_way * self.wordlines * self.bitlines // 8

    @property
    def hop_cycles(self) -> int:
        """Latency of one mesh hop: router pipeline + link."""
        return self.router_stages + self.link_cycles

    def jit_lowering_cycles(self, commands: int, seconds: float) -> int:
        """Core cycles charged for one lowering that was not memoized (``jit_model``).

        * ``per-lowering``: ``jit_us_per_lowering`` (220 us: the mean
          JIT time ASPLOS §8 measured for its C++ runtime on the simulated
          core, asplos:516) at ``freq_ghz`` -- 440,000 cycles at 2 GHz.
          Deterministic, and from the paper being reproduced; it does not
          follow a lowering's size (the paper's σ is 449 us), which is the
          price of not using infs's own JIT time.
        * ``per-command`` (default): ``jit_cycles_per_command`` x commands -- CAL'22's
          hardware lowering pipeline, "10 cycles/cmd" (cal:139), gem5's
          ``stream_pum_compile_lat_per_cmd`` (run.py:393, charged once per PUM
          context, MLCPUMManager.cc:3662-3701); set it to 1000 for CAL'22's
          software runtime ("about 1k cycles per command", cal:137).
        * ``hardware`` / ``gem5-controller`` / ``software``: the named per-command
          rates of ``JIT_COMMAND_CYCLES`` (10, 100, 1000 cycles/cmd) x commands,
          whatever ``jit_cycles_per_command`` says.
        * ``measured``: ``seconds`` (infs's own JIT wall time for this lowering)
          at ``freq_ghz``.  Not deterministic (20-30%
          run-to-run) and Python: several times the paper's C++ JIT, so it
          overstates the JIT share; for exploration only.

        The "Inf-S no JIT" configuration charges nothing (``RunOptions.jit``)."""
        if self.jit_model in ("per-command", *JIT_COMMAND_CYCLES):
            return self.jit_command_cycles * commands
        if self.jit_model == "measured":
            return int(round(seconds * self.freq_ghz * 1e9))
        return int(round(self.jit_us_per_lowering * 1e-6 * self.freq_ghz * 1e9))

    @property
    def jit_command_cycles(self) -> int:
        """Cycles one lowered command costs the JIT: the named model's cited rate
        (``JIT_COMMAND_CYCLES``), else ``jit_cycles_per_command`` (the rate Eq. 2's
        N_node x Lat_JIT and optimize-tdfg's cost model use under every model)."""
        return JIT_COMMAND_CYCLES.get(self.jit_model, self.jit_cycles_per_command)

    def energy(self, key: str) -> float:
        return float(self.energy_pj[key])

    @property
    def core_peak_vector_ops(self) -> float:
        """512-bit compute instructions one core issues per cycle at most: its FP-SIMD
        units' rate plus its integer SIMD units', within the issue width."""
        return min(self.core_issue_width, self.core_fp_simd_units / self.core_fp_simd_cycles + self.core_int_simd_units)

    @property
    def mesh_links(self) -> int:
        """Directed links of the mesh."""
        return 2 * (self.mesh_rows * (self.mesh_cols - 1) + self.mesh_cols * (self.mesh_rows - 1))

    @property
    def peak_dynamic_pj_per_cycle(self) -> float:
        """The machine's highest dynamic power by its energy constants (pJ per cycle):
        every compute bitline doing a bit-serial cycle (In-L3), or every core's FU
        pool at its peak (``core_peak_vector_ops`` x ``vector_op``), every L3 bank
        port (``l3_bank_bytes_per_cycle`` x ``sram_read_byte``) and every mesh link
        (``link_bytes`` x ``noc_byte_hop``) busy at once (Base), whichever is more."""
        in_memory = self.total_bitlines * self.energy("compute_bitline_cycle")
        cores = (self.cores * self.core_peak_vector_ops * self.energy("vector_op")
                 + self.banks * self.l3_bank_bytes_per_cycle * self.energy("sram_read_byte")
                 + self.mesh_links * self.link_bytes * self.energy("noc_byte_hop"))  # fmt: skip
        return max(in_memory, cores)

    @property
    def static_pj_per_cycle(self) -> float:
        """Static power of the whole chip per cycle, in every mode: ``static_fraction``
        (15%) of ``peak_dynamic_pj_per_cycle``, the authors' method (``ENERGY_SOURCES``).
        This is what makes energy follow run time, as NSC notes: "improved
        performance (less static energy)" (nsc:395)."""
        return self.energy("static_fraction") * self.peak_dynamic_pj_per_cycle

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["energy_pj"] = dict(self.energy_pj)
        return d

    @cached_property
    def spec(self) -> str:
        """What a lowered program records to name this machine: ``load_config(spec)``
        gives it back (``config_spec``)."""
        return config_spec(self)


_DEFAULT = HardwareConfig(name="paper-64")


# ---------------------------------------------------------------------------
# Field types and ranges (checked at load time, one line naming the field)
# ---------------------------------------------------------------------------

# Generic upper bounds: far beyond any machine the papers model, small enough
# that every count the models multiply (bytes x hops x cycles, summed over a
# run) stays exact in int64/float64.  Bounds with a specific reason say it.
_COUNT = 1 << 20  # sizes, latencies, cycle counts
_BYTES = 1 << 30  # byte counts
# The simulator keeps dense per-cell vectors over every bitline of the machine
# (``sim.machine.RegisterFile``): 2^24 cells is 64 MB per 32-bit register,
# 4x the paper's 4M bitlines (ASPLOS Table 2, CAL'22 Table 2).
MAX_TOTAL_BITLINES = 1 << 24


@dataclass(frozen=True)
class FieldRange:
    """One field's type (``int``, ``number`` = finite int/float, ``bool``, ``str``) and inclusive range."""

    kind: str
    lo: float | None = None
    hi: float | None = None
    why_lo: str = ""
    why_hi: str = ""


FIELD_RANGES: dict[str, FieldRange] = {
    "name": FieldRange("str"),
    "freq_ghz": FieldRange("number", 0.01, 100.0, "a clock", "a clock"),
    "mesh_rows": FieldRange("int", 1, 64),
    "mesh_cols": FieldRange("int", 1, 64),
    "banks": FieldRange("int", 1, 4096),  # also = mesh_rows x mesh_cols
    "ways": FieldRange("int", 1, 64),
    "compute_ways": FieldRange("int", 1, 64),  # also <= ways
    "arrays_per_way": FieldRange("int", 1, 1024),
    "wordlines": FieldRange("int", 32, 1024, "cannot hold one 32-bit register", "exceed the 10-bit LOT wordline field (ASPLOS Table 1)"),
    # A tile fills one array (§4.1); no power-of-two is assumed (choose-layout
    # factors any bitline count into tile sizes).  8x CAL'22's 512-bit arrays.
    "bitlines": FieldRange("int", 1, 4096),
    "htree_levels": FieldRange("int", 1, 16),
    "htree_degree": FieldRange("int", 2, 64, "a tree needs at least 2 children per node"),
    "htree_leaf_bytes_per_cycle": FieldRange("int", 1, _COUNT),
    "htree_bytes_per_cycle": FieldRange("int", 1, _COUNT),
    "l3_latency": FieldRange("int", 1, _COUNT),
    "interleave_bytes": FieldRange("int", 1, _BYTES),  # also a multiple of line_bytes
    "link_bytes": FieldRange("int", 1, _COUNT),
    "link_cycles": FieldRange("int", 1, _COUNT),
    "router_stages": FieldRange("int", 0, _COUNT),
    "multicast": FieldRange("bool"),
    "dram_gbps": FieldRange("number", 0.001, 1e5, "a bandwidth", "a bandwidth"),
    "mem_ctrls": FieldRange("int", 1, 128),  # also <= 2 x mesh_rows (the two edge columns)
    "cores": FieldRange("int", 1, 4096),
    "simd_lanes": FieldRange("int", 1, 1024),
    "se_init_cycles": FieldRange("int", 1, _COUNT),
    "host_tile": FieldRange("int", 0, 4095),  # also < banks
    "control_bytes": FieldRange("int", 1, _COUNT),
    "command_bytes": FieldRange("int", 1, _COUNT),
    "jit_cycles_per_command": FieldRange("int", 0, _COUNT),
    "jit_model": FieldRange("str"),  # also one of JIT_MODELS
    "jit_us_per_lowering": FieldRange("number", 0.0, 1e6, "a time", "a time (a second per lowering)"),
    "line_bytes": FieldRange("int", 1, _COUNT),
    "l3_bank_bytes_per_cycle": FieldRange("int", 1, _COUNT),
    "vector_div_cycles": FieldRange("int", 1, _COUNT),
    "vector_other_cycles": FieldRange("int", 1, _COUNT),
    "se_config_bytes": FieldRange("int", 1, _COUNT),
    "se_sync_lines": FieldRange("int", 1, _COUNT),
    "se_buffer_bytes": FieldRange("int", 1, _BYTES),
    "se_streams_per_core": FieldRange("int", 1, _COUNT),
    "core_mshrs": FieldRange("int", 1, _COUNT),
    "core_issue_width": FieldRange("int", 1, _COUNT),
    "core_fp_simd_units": FieldRange("int", 1, _COUNT),
    "core_fp_simd_cycles": FieldRange("int", 1, _COUNT),
    "core_int_simd_units": FieldRange("int", 1, _COUNT),
    "core_mem_ports": FieldRange("int", 1, _COUNT),
    "core_l1_cycles": FieldRange("int", 0, _COUNT),
    "core_l2_cycles": FieldRange("int", 0, _COUNT),
    "core_l2_bytes": FieldRange("int", 0, _BYTES),
    "core_barrier_radix": FieldRange("int", 2, _COUNT),
    "core_load_queue": FieldRange("int", 1, _COUNT),
    "se_core_fifo_bytes": FieldRange("int", 1, _BYTES),
    "scc_count": FieldRange("int", 1, _COUNT),
    "scc_rob_entries": FieldRange("int", 0, _COUNT),  # 0: in-order SCCs (NSC Table V's '-' for IO4)
    "near_config": FieldRange("str"),  # also one of NEAR_CONFIGS
    "near_lock": FieldRange("str"),  # also one of NEAR_LOCKS
    "near_scalar_pe": FieldRange("bool"),
    "parallel_intra_shift": FieldRange("bool"),
    "profile": FieldRange("str"),  # also one of PROFILES
    "energy_pj": FieldRange("table"),  # every key of DEFAULT_ENERGY_PJ, each a number in [0, MAX_ENERGY_PJ]
}  # fmt: skip
MAX_ENERGY_PJ = 1e9  # a millijoule per event: beyond any constant of this kind


def _fmt_bound(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(v)


def _check_value(where: str, key: str, r: FieldRange, v: Any) -> Any:
    """``v`` checked against ``r`` (numbers become floats); one-line ``ConfigError`` naming ``key``."""
    what = {"int": "an integer", "number": "a finite number", "bool": "true or false", "str": "a non-empty string", "table": "a table"}[r.kind]
    if r.kind == "int" and r.lo in (0, 1) and r.hi is not None:
        what = f"a {'positive' if r.lo else 'non-negative'} integer at most {_fmt_bound(r.hi)}"
    elif r.lo is not None and r.hi is not None:
        what += f" in [{_fmt_bound(r.lo)}, {_fmt_bound(r.hi)}]"
    ok = {
        "int": lambda: type(v) is int,
        "number": lambda: type(v) in (int, float) and math.isfinite(v),
        "bool": lambda: type(v) is bool,
        "str": lambda: isinstance(v, str) and v != "",
        "table": lambda: isinstance(v, Mapping),
    }[r.kind]()
    if not ok:
        raise ConfigError(f"{where}: {key} must be {what}, got {_show(v)}")
    if r.lo is not None and v < r.lo:
        raise ConfigError(f"{where}: {key} must be {what}, got {_show(v)}" + (f" ({key} {r.why_lo})" if r.why_lo else ""))
    if r.hi is not None and v > r.hi:
        raise ConfigError(f"{where}: {key} must be {what}, got {_show(v)}" + (f" ({key} {r.why_hi})" if r.why_hi else ""))
    return float(v) if r.kind == "number" else v


def _show(v: Any) -> str:
    """A value for an error message: short, one line."""
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10**30:
        return f"an integer of {len(str(abs(v))) if abs(v) < 10**4000 else 'over 4000'} digits"
    text = json.dumps(v) if isinstance(v, (bool, str)) else repr(v)
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def _where(name: str, source: str | None = None) -> str:
    return f"invalid hardware config file '{source}'" if source else f"invalid hardware config '{name}'"


def validate(cfg: HardwareConfig, source: str | None = None) -> HardwareConfig:
    """Raise ``ConfigError`` (one line naming ``source`` -- the file -- or the
    config, and the field) unless every field has its type and range
    (``FIELD_RANGES``) and the fields describe a possible machine."""
    where = _where(cfg.name, source)

    def bad(msg: str) -> ConfigError:
        return ConfigError(f"{where}: {msg}")

    for f in fields(HardwareConfig):
        _check_value(where, f.name, FIELD_RANGES[f.name], getattr(cfg, f.name))
    if cfg.banks != cfg.mesh_rows * cfg.mesh_cols:
        raise bad(f"banks ({cfg.banks}) must equal mesh_rows x mesh_cols ({cfg.mesh_rows}x{cfg.mesh_cols}): one L3 bank per mesh tile")
    if cfg.compute_ways > cfg.ways:
        raise bad(f"compute_ways ({cfg.compute_ways}) exceeds the bank's {cfg.ways} ways")
    if cfg.host_tile >= cfg.banks:
        raise bad(f"host_tile {cfg.host_tile} is outside the {cfg.mesh_rows}x{cfg.mesh_cols} mesh")
    if cfg.mem_ctrls > 2 * cfg.mesh_rows:
        raise bad(f"mem_ctrls: {cfg.mem_ctrls} memory controllers do not fit on the mesh's two edge columns ({2 * cfg.mesh_rows} places)")
    if cfg.interleave_bytes % cfg.line_bytes:
        raise bad(f"interleave_bytes ({cfg.interleave_bytes}) must be a multiple of line_bytes ({cfg.line_bytes})")
    if cfg.total_bitlines > MAX_TOTAL_BITLINES:
        raise bad(f"bitlines: banks x compute_ways x arrays_per_way x bitlines = {cfg.total_bitlines} exceeds {MAX_TOTAL_BITLINES} (2^24: the simulator keeps a vector over every bitline)")
    if cfg.jit_model not in JIT_MODELS:
        raise bad(f"jit_model: unknown JIT model '{cfg.jit_model}' (known: {', '.join(JIT_MODELS)})")
    if cfg.near_config not in NEAR_CONFIGS:
        raise bad(f"near_config: unknown near-stream configuration '{cfg.near_config}' (known: {', '.join(NEAR_CONFIGS)})")
    if cfg.near_lock not in NEAR_LOCKS:
        raise bad(f"near_lock: unknown lock '{cfg.near_lock}' (known: {', '.join(NEAR_LOCKS)})")
    if cfg.profile not in PROFILES:
        raise bad(f"profile: unknown cost profile '{cfg.profile}' (known: {', '.join(PROFILES)})")
    unknown = set(cfg.energy_pj) - set(DEFAULT_ENERGY_PJ)
    if unknown:
        raise bad(f"energy: unknown energy constants {sorted(map(str, unknown))} (known: {', '.join(DEFAULT_ENERGY_PJ)})")
    missing = set(DEFAULT_ENERGY_PJ) - set(cfg.energy_pj)
    if missing:
        raise bad(f"energy: missing energy constants {sorted(missing)}")
    for k, v in cfg.energy_pj.items():
        _check_value(where, f"energy.{k}", FieldRange("number", 0, MAX_ENERGY_PJ), v)
    return cfg


# ---------------------------------------------------------------------------
# Built-in configurations
# ---------------------------------------------------------------------------

# NSC's configurations the near model prices (HPCA'22 §VI; ``sim/near/engine.py``
# ``nsc_terms`` says what separates them); Base is the core model (``mode core``).
NEAR_CONFIGS = ("NS", "NS_no_sync", "NS_decouple", "NS_no_comp", "INST", "SINGLE")
NEAR_LOCKS = ("mrsw", "exclusive")  # NSC §IV-C: the multi-reader single-writer lock, or an exclusive one

# NSC's machine (HPCA'22 Table V), one config per core: 2.0 GHz, 8x8 mesh of 256-bit
# 1-cycle links, 5-stage routers, multicast X-Y routing, 4 corner memory controllers;
# L3 1 MB per bank, 16-way, 20 cycles, 64 B interleave; L1 32 kB 2 cycles, L2 256 kB
# 16 cycles; SE_L3 12 streams per core, 64 kB buffer (1 kB per core), 4-cycle SCM.
_NSC_MACHINE: dict[str, Any] = {
    "freq_ghz": 2.0,  # Table V 'System Params 2.0GHz, 8x8 Cores'
    "mesh_rows": 8, "mesh_cols": 8, "banks": 64,  # Table V '8x8 Mesh', one L3 bank per tile
    "ways": 16, "compute_ways": 16, "arrays_per_way": 8,  # Table V '1MB per bank / 16-way' (16 x 8 x 256 x 256 bits = 1 MB)
    "l3_latency": 20,  # Table V '20-cycle lat.'
    "interleave_bytes": 64,  # Table V 'Static NUCA, 64B Interleave'
    "link_bytes": 32, "link_cycles": 1, "router_stages": 5,  # Table V '256-bit 1-cycle link', '5-stage router'
    "multicast": True,  # Table V 'multicast X-Y routing'
    "mem_ctrls": 4, "dram_gbps": 25.6,  # Table V '4 corner mem. ctrl.', '3200MHz DDR4 25.6 GB/s'
    "cores": 64,  # Table V '8x8 Cores'
    "core_l1_cycles": 2, "core_l2_cycles": 16, "core_l2_bytes": 256 * 1024,  # Table V L1 '2-cycle', L2 '256KB ... 16-cycle'
    "se_streams_per_core": 12, "se_buffer_bytes": 1024,  # Table V SE_L3 '12 streams per core', '1kB per core'
    "se_init_cycles": 4,  # Table V SE_L3 '4-cycle lat. to local SCM'
    "scc_count": 2,  # Table V SE_core '2 SCCs'
    # Table V 'Func. Units (x2 for OOO8)': 4 Int ALU/SIMD, 2 FP ALU/SIMD (2 cycles) per 4-issue core
    "core_fp_simd_cycles": 2,
}  # fmt: skip

BUILTIN: dict[str, dict[str, Any]] = {
    # ASPLOS'23 Table 2.
    "paper-64": {},
    # CAL'22 Table 2: 512x512 (32 kB) arrays, 8 arrays/way, 16 ways/bank, 256-bit links.
    # CAL gives "4x4 DDR4-3200 channels (25.6GB/s)"; we keep 25.6 GB/s total as ASPLOS.
    "cal-64": {
        "ways": 16, "compute_ways": 16, "arrays_per_way": 8, "wordlines": 512, "bitlines": 512,
        "link_bytes": 32,
    },
    # Test machines.
    "tiny": {
        "mesh_rows": 2, "mesh_cols": 2, "banks": 4, "ways": 1, "compute_ways": 1,
        "arrays_per_way": 2, "bitlines": 16, "wordlines": 256, "htree_levels": 1, "htree_degree": 2,
        "mem_ctrls": 2,
    },
    "fig9": {
        "mesh_rows": 2, "mesh_cols": 2, "banks": 4, "ways": 1, "compute_ways": 1,
        "arrays_per_way": 1, "bitlines": 4, "wordlines": 128, "htree_levels": 1, "htree_degree": 2,
        "mem_ctrls": 2,
    },
    "small-16": {
        "mesh_rows": 4, "mesh_cols": 4, "banks": 16, "ways": 2, "compute_ways": 2,
        "arrays_per_way": 4, "bitlines": 64, "wordlines": 256, "htree_levels": 2,
        "mem_ctrls": 8,
    },
    # NSC Table V, per core type: IO4 '4-wide fetch/issue/commit, 10 IQ, 4 LSQ', SE_core
    # '256B' FIFO and no SCC ROB ('-'); OOO4 '24 IQ, 24 LQ ... 96 ROB', '1kB' FIFO, 32
    # ROB entries; OOO8 '64 IQ, 72 LQ ... 224 ROB', '2kB' FIFO, 64 ROB entries, x2 FUs.
    "nsc-io4": {**_NSC_MACHINE, "core_issue_width": 4, "core_load_queue": 4, "core_int_simd_units": 4, "core_fp_simd_units": 2,
                "se_core_fifo_bytes": 256, "scc_rob_entries": 0},
    "nsc-ooo4": {**_NSC_MACHINE, "core_issue_width": 4, "core_load_queue": 24, "core_int_simd_units": 4, "core_fp_simd_units": 2,
                 "se_core_fifo_bytes": 1024, "scc_rob_entries": 32},
    "nsc-ooo8": {**_NSC_MACHINE, "core_issue_width": 8, "core_load_queue": 72, "core_int_simd_units": 8, "core_fp_simd_units": 4,
                 "core_mem_ports": 4, "se_core_fifo_bytes": 2048, "scc_rob_entries": 64},
}  # fmt: skip


def _build(name: Any, values: Mapping[str, Any], source: str | None = None) -> HardwareConfig:
    """A validated config from field values (``base`` inherits a built-in)."""
    where = _where(str(name), source)
    _check_value(where, "name", FIELD_RANGES["name"], name)
    values = dict(values)
    energy = dict(DEFAULT_ENERGY_PJ)
    base_name = values.pop("base", None)
    if base_name is not None:
        if not isinstance(base_name, str) or base_name not in BUILTIN:
            raise ConfigError(f"{where}: base must be a built-in config ({', '.join(BUILTIN)}), got {_show(base_name)}")
        energy.update(BUILTIN[base_name].get("energy_pj", {}))
        values = {**BUILTIN[base_name], **values}
    values.pop("name", None)
    known = {f.name for f in fields(HardwareConfig)} - {"name"}
    unknown = set(values) - known
    if unknown:
        raise ConfigError(f"{where}: unknown fields {sorted(map(str, unknown))}")
    if "energy_pj" in values:
        given = values["energy_pj"]
        _check_value(where, "energy", FIELD_RANGES["energy_pj"], given)
        energy.update(given)
    values["energy_pj"] = _energy_values(where, energy)
    # type and range before building: a bad value never reaches arithmetic
    for k, v in values.items():
        if k != "energy_pj":
            values[k] = _check_value(where, k, FIELD_RANGES[k], v)
    return validate(HardwareConfig(name=name, **values), source)


def _energy_values(where: str, energy: Mapping[Any, Any]) -> dict[Any, Any]:
    """Energy constants as floats (unknown keys are left to ``validate``'s message)."""
    num = FieldRange("number", 0, MAX_ENERGY_PJ)
    return {k: _check_value(where, f"energy.{k}", num, v) if k in DEFAULT_ENERGY_PJ else v for k, v in energy.items()}


def _read_file(path: Path) -> HardwareConfig:
    def bad(msg: str) -> ConfigError:
        return ConfigError(f"invalid hardware config file '{path}': {msg}")

    if path.is_dir():
        raise bad("is a directory")
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise bad(f"cannot read it: {e.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise bad("not a UTF-8 text file") from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except (ValueError, RecursionError) as e:  # decode errors; integers past Python's digit limit
        raise bad(" ".join(str(e).split()) or type(e).__name__) from None
    if not isinstance(data, dict):
        raise bad("the top level must be a table (TOML) / an object (JSON)")
    if "energy" in data:
        if "energy_pj" in data:
            raise bad("give the energy constants once, as [energy] or energy_pj")
        data["energy_pj"] = data.pop("energy")
    name = data.pop("name", path.stem)
    return _build(name, data, str(path))


# ---------------------------------------------------------------------------
# Inline configs: the text a lowered program stores
# ---------------------------------------------------------------------------
#
# A program lowered for a machine records which machine (``pimcmd.program
# config "..."``, the graph's ``infs.layout``), and the next pass (or a reader
# of the printed program) reloads it from that text.  A built-in is recorded
# by its name; any other machine -- from a file, a dict, or a built-in with
# overrides -- by its full parameters inline, ``NAME{field=value,...}``
# (the fields that differ from the built-in NAME when NAME is one, else from
# ``HardwareConfig``'s defaults, which are paper-64; energy constants as
# ``energy.KEY=value``), so ``small-16{num_banks=4}`` is small-16 with 4 banks.  Inline rather than the
# file's path: the program then means the same machine wherever it is read,
# and editing or deleting the file cannot silently turn it into another.


def config_spec(cfg: HardwareConfig) -> str:
    """The text ``load_config`` turns back into ``cfg`` (equal in every field)."""
    if cfg.name in BUILTIN and cfg == _builtin(cfg.name):
        return cfg.name
    default = _builtin(cfg.name) if cfg.name in BUILTIN else _DEFAULT
    parts = []
    for f in fields(HardwareConfig):
        if f.name in ("name", "energy_pj"):
            continue
        v = getattr(cfg, f.name)
        if v != getattr(default, f.name):
            parts.append(f"{f.name}={_fmt_inline(v)}")
    for k, v in cfg.energy_pj.items():
        if v != default.energy_pj.get(k):
            parts.append(f"energy.{k}={_fmt_inline(v)}")
    return f"{cfg.name}{{{','.join(parts)}}}"


def _fmt_inline(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return repr(v) if isinstance(v, float) else str(v)


def is_inline_spec(text: str) -> bool:
    return text.endswith("}") and "{" in text


def _parse_inline(text: str) -> HardwareConfig:
    # the body has no braces: the name is everything before the last '{'
    i = text.rindex("{")
    name, body = text[:i], text[i + 1 : -1]
    where = f"invalid hardware config '{text if len(text) <= 80 else text[:77] + '...'}'"
    values: dict[str, Any] = {}
    energy: dict[str, Any] = {}
    for item in filter(None, body.split(",")):
        key, eq, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        target, field_name = (energy, key[len("energy.") :]) if key.startswith("energy.") else (values, key)
        kind = "number" if target is energy else FIELD_RANGES[key].kind if key in FIELD_RANGES and key not in ("name", "energy_pj") else None
        if not eq or kind is None or field_name in target:
            raise ConfigError(f"{where}: bad item '{item}' (expected FIELD=VALUE, each field once)")
        try:
            if kind == "int":
                if len(raw) > 20:
                    raise ValueError
                v: Any = int(raw)
            elif kind == "number":
                v = float(raw) if len(raw) <= 40 else math.nan
            elif kind == "bool":
                v = {"true": True, "false": False}[raw]
            else:
                v = raw
        except (ValueError, KeyError):
            raise ConfigError(f"{where}: {key} has a bad value '{raw[:40]}'") from None
        target[field_name] = v
    if energy:
        values["energy_pj"] = energy
    if name in BUILTIN:  # the fields are what differs from the built-in of that name
        values["base"] = name
    return _build(name, values, None)


_BUILTIN_CACHE: dict[str, HardwareConfig] = {}


def _builtin(name: str) -> HardwareConfig:
    if name not in _BUILTIN_CACHE:
        _BUILTIN_CACHE[name] = _build(name, BUILTIN[name])
    return _BUILTIN_CACHE[name]


def load_config(spec: "str | Path | Mapping[str, Any] | HardwareConfig", **overrides: Any) -> HardwareConfig:
    """A validated ``HardwareConfig`` from a built-in name, an inline config
    (``config_spec``), a TOML/JSON file, a dict or a config.

    ``overrides`` replace fields (e.g. ``load_config("paper-64", profile="pimeval-bitsimd-v")``).
    """
    source = None
    if isinstance(spec, HardwareConfig):
        cfg = spec
    elif isinstance(spec, Mapping):
        d = dict(spec)
        cfg = _build(d.pop("name", "custom"), d)
    else:
        s = str(spec)
        if s in BUILTIN:
            cfg = _builtin(s)
        elif is_inline_spec(s) and not isinstance(spec, Path):
            cfg = _parse_inline(s)
        else:
            path = Path(s)
            if not path.exists():
                raise ConfigError(f"unknown hardware config '{s}': not a built-in ({', '.join(BUILTIN)}) nor a file")
            cfg = _read_file(path)
            source = str(path)
    if overrides:
        where = _where(cfg.name, source)
        known = {f.name for f in fields(HardwareConfig)}
        unknown = set(overrides) - known
        if unknown:
            raise ConfigError(f"{where}: unknown fields {sorted(unknown)}")
        if "energy_pj" in overrides:
            _check_value(where, "energy", FIELD_RANGES["energy_pj"], overrides["energy_pj"])
            overrides["energy_pj"] = _energy_values(where, {**cfg.energy_pj, **overrides["energy_pj"]})
        for k, v in overrides.items():
            if k != "energy_pj":
                overrides[k] = _check_value(where, k, FIELD_RANGES[k], v)
        cfg = replace(cfg, **overrides)
    return validate(cfg, source)


# ---------------------------------------------------------------------------
# Cost profiles for compute commands
# ---------------------------------------------------------------------------


def _kind_of(ty: str) -> str:
    """The latency table (``INFS_LATENCY``) of an element type."""
    return "fp" if is_float_element(ty) else "int"


# ``infs`` profile: cycles = c2*n^2 + c1*n + c0 for an n-bit element, or the
# PIMeval step count where neither the paper nor gem5 prices the op.  One
# documented source per op, in this order of precedence:
# the paper's text first, then the authors' gem5 model, then PIMeval.
#   asplos:L  = line L of the ASPLOS'23 paper's plain text (infinity-stream-asplos23.txt);
#   gem5      = PolyArch/gem-forge-gem5@gem-forge, MLCPUMManager::getComputeLat
#               (src/cpu/gem_forge/accelerator/stream/cache/pum/MLCPUMManager.cc:2532-2602),
#               which prices an op by its x86 micro-op class (avxop.isa lines given);
#   PIMeval   = the BITSIMD-V step table below (R + W + L, 1 cycle each).
# "§2.2 step" is the paper's description of one bit-serial step (asplos:111:
# activate the operands' bit rows together, the PEs operate on the sensed bits,
# write the result bit back): one cycle per bit for any bitwise op.
# i1 values are 0/1 with mod-2 arithmetic: an i1 op costs one §2.2 step per
# bitwise row of its PIMEVAL_MAP["bool"] composition (``CostProfile``).


@dataclass(frozen=True)
class OpLatency:
    """Cycles of one bit-serial command: ``c2 n^2 + c1 n + c0``, or PIMeval's step
    count when ``pimeval``; ``source`` is where the number comes from."""

    c2: float
    c1: float
    c0: float
    source: str
    pimeval: bool = False

    def formula(self) -> str:
        if self.pimeval:
            return "PIMeval R+W+L"
        terms = [f"{_num(self.c2)}n^2" if self.c2 else "", f"{_num(self.c1)}n" if self.c1 else "", _num(self.c0) if self.c0 else ""]
        return " + ".join(t for t in terms if t).replace("1n", "n") or "0"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


_STEP = "paper §2.2 step (asplos:111): one cycle per bit"
_ADD = "paper §2.2 (asplos:111 'O(n) for integer addition'; Eq. 1 latency 32 for int32 add, asplos:115-117)"
INFS_LATENCY: dict[str, dict[str, OpLatency]] = {
    "int": {
        "add": OpLatency(0, 1, 0, _ADD),
        "sub": OpLatency(0, 1, 0, _ADD + "; a subtraction is an addition of the complement"),
        "mul": OpLatency(1, 5, 0, "paper §5.2 (asplos:396): 'n^2 + 5n for n-bit integer multiply' (gem5 used n^2/2)"),
        "fma": OpLatency(1, 6, 0, "paper §5.2 mul (n^2 + 5n, asplos:396) + §2.2 add (n) (gem5 SimdMultAcc: n^2/2 + n)"),
        "div": OpLatency(0, 0, 0, "paper silent, gem5 has no int divide (getComputeLat panics): PIMeval BITSIMD-V div row", pimeval=True),
        "min": OpLatency(0, 1, 0, "gem5 SimdCmpOp = n (vpminsd is Vminsi, avxop.isa:380-381)"),
        "max": OpLatency(0, 1, 0, "gem5 SimdCmpOp = n (int min/max share Vminsi's class, avxop.isa:380-381)"),
        "cmp_lt": OpLatency(0, 1, 0, "gem5 SimdCmpOp = n (Vcmpeq, avxop.isa:386-387)"),
        "cmp_le": OpLatency(0, 1, 0, "gem5 SimdCmpOp = n (Vcmpeq, avxop.isa:386-387)"),
        "cmp_eq": OpLatency(0, 1, 0, "gem5 SimdCmpOp = n (Vcmpeq, avxop.isa:386-387)"),
        "select": OpLatency(0, 1, 0, _STEP + " (gem5's SimdMiscOp would charge 1 cycle for the whole n-bit select; the paper's per-bit step is the conservative choice)"),
        "and": OpLatency(0, 1, 0, _STEP + " (gem5 SimdAddOp, Vandi avxop.isa:362-363: n)"),
        "or": OpLatency(0, 1, 0, _STEP + " (gem5 SimdCmpOp, Vor avxop.isa:374-375: n)"),
        "xor": OpLatency(0, 1, 0, _STEP + " (gem5 SimdCmpOp, Vxor avxop.isa:368-369: n)"),
        "not": OpLatency(0, 1, 0, _STEP + " (xor with ones)"),
        "abs": OpLatency(0, 2, 0, "paper silent, gem5 silent: negate (n, §2.2 add) + select by the sign (n, §2.2 step), the conservative composition"),
        "neg": OpLatency(0, 1, 0, _ADD + "; 0 - x"),
        "relu": OpLatency(0, 1, 0, "gem5 SimdCmpOp = n: relu is max(x, 0) (Vminsi class, avxop.isa:380-381)"),
        "copy": OpLatency(0, 1, 0, _STEP + " (read and write each bit row; gem5's SimdMiscOp 1 cycle is not physical)"),
    },
    "fp": {
        "add": OpLatency(1, 0, 0, "gem5 SimdFloatAddOp = n^2 (paper silent, defers to [17])"),
        "sub": OpLatency(1, 0, 0, "gem5 SimdFloatAddOp = n^2 (Vsubf, avxop.isa:296-297)"),
        "mul": OpLatency(1, 0, 0, "gem5 SimdFloatMultOp = n^2 (Vmulf, avxop.isa:302-303)"),
        "fma": OpLatency(2, 0, 0, "gem5 SimdFloatMultAccOp = 2n^2 (Vfmaddf, avxop.isa:445-446)"),
        "div": OpLatency(1, 0, 0, "gem5 SimdFloatDivOp = n^2 (Vdivf, avxop.isa:314-315)"),
        "min": OpLatency(1, 0, 0, "gem5 SimdFloatAddOp = n^2 (Vminf, avxop.isa:266-267)"),
        "max": OpLatency(1, 0, 0, "gem5 SimdFloatCmpOp = n^2 (Vmaxf, avxop.isa:284-285)"),
        "cmp_lt": OpLatency(1, 0, 0, "gem5 SimdFloatCmpOp = n^2 (vcmpps's micro-op has no class, avxop.isa:751, which would make it 1 cycle; the SimdFloatCmpOp case is the conservative reading)"),
        "cmp_le": OpLatency(1, 0, 0, "gem5 SimdFloatCmpOp = n^2 (as cmp_lt)"),
        "cmp_eq": OpLatency(1, 0, 0, "gem5 SimdFloatCmpOp = n^2 (as cmp_lt)"),
        "select": OpLatency(0, 1, 0, _STEP + " (bitwise on the n bit rows)"),
        "and": OpLatency(0, 1, 0, _STEP + " (gem5 SimdAddOp, Vandf avxop.isa:290-291: n)"),
        "or": OpLatency(0, 1, 0, _STEP + " (gem5 SimdCmpOp, Vor avxop.isa:374-375: n)"),
        "xor": OpLatency(0, 1, 0, _STEP + " (gem5 SimdCmpOp, Vxor avxop.isa:368-369: n)"),
        "not": OpLatency(0, 1, 0, _STEP + " (xor with ones)"),
        "abs": OpLatency(0, 1, 0, "gem5: and with a sign mask, SimdAddOp = n (Vandf, avxop.isa:290-291)"),
        "neg": OpLatency(0, 1, 0, "gem5: xor with the sign bit, SimdCmpOp = n (Vxor, avxop.isa:368-369)"),
        "relu": OpLatency(1, 0, 0, "gem5 SimdFloatCmpOp = n^2: relu is max(x, 0.0) (Vmaxf, avxop.isa:284-285)"),
        "copy": OpLatency(0, 1, 0, _STEP + " (read and write each bit row)"),
    },
}  # fmt: skip
# A constant operand is first written to the bitlines, one bit row per cycle:
# ASPLOS §5.2 (asplos:396) "first broadcasts constant operands (if any) to
# bitlines"; gem5 prices it as FloatMemReadOp = n ("one cycle to read 1 bit of
# constant value").
CONST_OPERAND = OpLatency(0, 1, 0, "paper §5.2 (asplos:396) + gem5 FloatMemReadOp = n")

# PIMeval-PIMbench BITSIMD-V step counts (libpimeval/src/pimPerfEnergyTables.cpp
# @40ce162, MIT licence; the rows infs uses from shared/data/pimeval_bitsimd_v_steps.csv).
PIMEVAL_BITSIMD_V_CSV = """\
dtype,op,reads,writes,logic
bool,not,1,1,1
bool,and,2,1,2
bool,or,2,1,2
bool,xor,2,1,2
int8,abs,9,8,34
int8,add,16,8,25
int8,sub,16,8,25
int8,mul,72,36,136
int8,div,196,137,336
int8,not,8,8,8
int8,and,16,8,16
int8,or,16,8,16
int8,xor,16,8,16
int8,gt,16,1,25
int8,lt,16,1,25
int8,eq,16,1,26
int8,min,32,8,41
int8,max,32,8,41
int8,add_scalar,8,8,33
int8,sub_scalar,8,8,33
int8,mul_scalar,36,36,172
int8,div_scalar,146,145,394
int8,and_scalar,8,8,24
int8,or_scalar,8,8,24
int8,xor_scalar,8,8,24
int8,gt_scalar,8,1,33
int8,lt_scalar,8,1,33
int8,eq_scalar,8,1,34
int8,min_scalar,16,8,57
int8,max_scalar,16,8,57
int16,abs,17,16,66
int16,add,32,16,49
int16,sub,32,16,49
int16,mul,272,136,528
int16,div,772,469,1176
int16,not,16,16,16
int16,and,32,16,32
int16,or,32,16,32
int16,xor,32,16,32
int16,gt,32,1,49
int16,lt,32,1,49
int16,eq,32,1,50
int16,min,64,16,81
int16,max,64,16,81
int16,add_scalar,16,16,65
int16,sub_scalar,16,16,65
int16,mul_scalar,136,136,664
int16,div_scalar,546,485,1418
int16,and_scalar,16,16,48
int16,or_scalar,16,16,48
int16,xor_scalar,16,16,48
int16,gt_scalar,16,1,65
int16,lt_scalar,16,1,65
int16,eq_scalar,16,1,66
int16,min_scalar,32,16,113
int16,max_scalar,32,16,113
int32,abs,33,32,130
int32,add,64,32,97
int32,sub,64,32,97
int32,mul,1056,528,2080
int32,div,3076,1709,4392
int32,not,32,32,32
int32,and,64,32,64
int32,or,64,32,64
int32,xor,64,32,64
int32,gt,64,1,97
int32,lt,64,1,97
int32,eq,64,1,98
int32,min,128,32,161
int32,max,128,32,161
int32,add_scalar,32,32,129
int32,sub_scalar,32,32,129
int32,mul_scalar,528,528,2608
int32,div_scalar,2114,1741,5386
int32,and_scalar,32,32,96
int32,or_scalar,32,32,96
int32,xor_scalar,32,32,96
int32,gt_scalar,32,1,129
int32,lt_scalar,32,1,129
int32,eq_scalar,32,1,130
int32,min_scalar,64,32,225
int32,max_scalar,64,32,225
fp32,add,1331,685,1687
fp32,sub,1331,685,1687
fp32,mul,1852,1000,3054
fp32,div,2744,1458,4187
fp32,mul_scalar,1852,1000,3054
int64,abs,65,64,258
int64,add,128,64,193
int64,sub,128,64,193
int64,not,64,64,64
int64,and,128,64,128
int64,or,128,64,128
int64,xor,128,64,128
int64,gt,128,1,193
int64,lt,128,1,193
int64,eq,128,1,194
int64,min,256,64,321
int64,max,256,64,321
int64,add_scalar,64,64,257
int64,sub_scalar,64,64,257
int64,and_scalar,64,64,192
int64,or_scalar,64,64,192
int64,xor_scalar,64,64,192
int64,gt_scalar,64,1,257
int64,lt_scalar,64,1,257
int64,eq_scalar,64,1,258
int64,min_scalar,128,64,449
int64,max_scalar,128,64,449
"""


def _parse_pimeval(text: str) -> dict[tuple[str, str], tuple[int, int, int]]:
    rows = csv.DictReader(io.StringIO(text))
    return {(r["dtype"], r["op"]): (int(r["reads"]), int(r["writes"]), int(r["logic"])) for r in rows}


PIMEVAL_STEPS = _parse_pimeval(PIMEVAL_BITSIMD_V_CSV)
"""The rows PIMeval publishes (test_sim_config checks them against the shared table)."""
PIMEVAL_DTYPE = {"f64": "fp64", "i64": "int64", "f32": "fp32", "i32": "int32", "i16": "int16", "i8": "int8", "i1": "bool"}

# Rows PIMeval does not publish, which 64-bit elements need (its simulator
# prints "Unimplemented bit-serial runtime estimation" for them:
# libpimeval/src/pimPerfEnergyBitSerial.cpp).
# * int64 mul / div (and their _scalar rows): each of reads, writes, logic is
#   the quadratic in n through PIMeval's own int8/int16/int32 rows, at n = 64.
#   The published rows are exactly quadratic (int32 mul: reads n^2 + n, writes
#   (n^2 + n)/2, logic 2n^2 + n; div: reads 3n^2 + 4, writes 1.5n^2 + 5.5n - 3,
#   logic 4n^2 + 9n + 8), and the same extrapolation reproduces every int64 row
#   PIMeval does publish (add, min, abs, compares... test_wide_types checks it).
# * fp64 add / sub / mul / div (mul_scalar): PIMeval has no fp64 row at all; its
#   fp32 row scaled by (64/32)^2 = 4, gem5's law for every bit-serial fp op
#   (n^2 in the element's bits, INFS_LATENCY["fp"]), the one fp width law the
#   model's sources give (the paper defers fp circuits to its refs [17, 29, 60]).
PIMEVAL_EXTRAPOLATED_SOURCE = {
    "int64": "PIMeval int8/int16/int32 rows, each count's quadratic in n evaluated at n = 64",
    "fp64": "PIMeval fp32 row x (64/32)^2 (gem5's n^2 fp law; PIMeval publishes no fp64 row)",
}


def _quadratic_at(points: list[tuple[int, int]], x: int) -> int:
    """The quadratic through three (n, value) points, at ``x`` (Lagrange, exact)."""
    from fractions import Fraction

    total = Fraction(0)
    for i, (xi, yi) in enumerate(points):
        term = Fraction(yi)
        for j, (xj, _) in enumerate(points):
            if j != i:
                term *= Fraction(x - xj, xi - xj)
        total += term
    return int(math.ceil(total))


def pimeval_extrapolated(dtype: str, op: str) -> tuple[int, int, int] | None:
    """A (reads, writes, logic) row PIMeval does not publish, derived as
    ``PIMEVAL_EXTRAPOLATED_SOURCE`` says; None when no derivation applies."""
    if dtype == "int64" and all((f"int{b}", op) in PIMEVAL_STEPS for b in (8, 16, 32)):
        rows = [PIMEVAL_STEPS[(f"int{b}", op)] for b in (8, 16, 32)]
        return tuple(_quadratic_at([(b, r[i]) for b, r in zip((8, 16, 32), rows)], 64) for i in range(3))  # type: ignore[return-value]
    if dtype == "fp64" and ("fp32", op) in PIMEVAL_STEPS:
        return tuple(4 * v for v in PIMEVAL_STEPS[("fp32", op)])  # type: ignore[return-value]
    return None


def pimeval_row(dtype: str, op: str) -> tuple[int, int, int] | None:
    """PIMeval's published row, else its extrapolation (``pimeval_extrapolated``), else None."""
    return PIMEVAL_STEPS.get((dtype, op)) or pimeval_extrapolated(dtype, op)


# How infs ops map onto PIMeval's table: per element kind, a list of
# (dtype row, table op, multiplicity) summed.  ``copy`` is a plain n-row copy
# (n reads, n writes).  With a constant operand the ``*_scalar`` row is used
# when PIMeval publishes one (or ``pimeval_row`` derives one).  PIMeval has no
# fp compare/min/max/logic rows: those take the integer rows of the same width
# (``"int="``: int32 for f32, int64 for f64; a sign-magnitude compare is an
# integer compare on the same bits); neg/abs/relu on a float rewrite the sign
# row of a copy.  i1 values
# are 0/1 and their arithmetic is mod 2, so every i1 op is a few bool rows.
PIMEVAL_MAP: dict[str, dict[str, list[tuple[str, str, int]]]] = {
    "int": {
        "add": [("=", "add", 1)], "sub": [("=", "sub", 1)], "mul": [("=", "mul", 1)],
        "div": [("=", "div", 1)], "fma": [("=", "mul", 1), ("=", "add", 1)],
        "min": [("=", "min", 1)], "max": [("=", "max", 1)],
        "cmp_lt": [("=", "lt", 1)], "cmp_le": [("=", "gt", 1), ("bool", "not", 1)],
        "cmp_eq": [("=", "eq", 1)],
        "and": [("=", "and", 1)], "or": [("=", "or", 1)], "xor": [("=", "xor", 1)],
        "not": [("=", "not", 1)], "abs": [("=", "abs", 1)],
        "neg": [("=", "sub_scalar", 1)],  # 0 - x
        "relu": [("=", "max_scalar", 1)],  # max(x, 0)
        "select": [("=", "and", 2), ("=", "or", 1)],  # (c & a) | (~c & b)
        "copy": [("=", "copy", 1)],
    },
    "fp": {
        "add": [("=", "add", 1)], "sub": [("=", "sub", 1)], "mul": [("=", "mul", 1)],
        "div": [("=", "div", 1)], "fma": [("=", "mul", 1), ("=", "add", 1)],
        "min": [("int=", "min", 1)], "max": [("int=", "max", 1)],
        "cmp_lt": [("int=", "lt", 1)], "cmp_le": [("int=", "gt", 1), ("bool", "not", 1)],
        "cmp_eq": [("int=", "eq", 1)],
        "and": [("int=", "and", 1)], "or": [("int=", "or", 1)], "xor": [("int=", "xor", 1)],
        "not": [("int=", "not", 1)],
        "abs": [("=", "copy", 1), ("bool", "and", 1)], "neg": [("=", "copy", 1), ("bool", "not", 1)],
        "relu": [("=", "copy", 1), ("bool", "and", 1)],
        "select": [("int=", "and", 2), ("int=", "or", 1)],
        "copy": [("=", "copy", 1)],
    },
    "bool": {
        "add": [("=", "xor", 1)], "sub": [("=", "xor", 1)], "mul": [("=", "and", 1)],
        "div": [("=", "and", 1)], "fma": [("=", "and", 1), ("=", "xor", 1)],
        "min": [("=", "and", 1)], "max": [("=", "or", 1)],
        "cmp_lt": [("=", "not", 1), ("=", "and", 1)], "cmp_le": [("=", "not", 1), ("=", "or", 1)],
        "cmp_eq": [("=", "xor", 1), ("=", "not", 1)],
        "and": [("=", "and", 1)], "or": [("=", "or", 1)], "xor": [("=", "xor", 1)],
        "not": [("=", "not", 1)], "abs": [("=", "copy", 1)], "neg": [("=", "copy", 1)],
        "relu": [("=", "copy", 1)], "select": [("=", "and", 2), ("=", "or", 1)],
        "copy": [("=", "copy", 1)],
    },
}  # fmt: skip


@dataclass(frozen=True)
class CostProfile:
    """Prices one compute command (cycles for the whole, bitline-parallel command)."""

    name: str
    t_read: float = 1.0
    t_write: float = 1.0
    t_logic: float = 1.0

    def compute_cycles(self, op: str, ty: str, has_const: bool = False) -> int:
        bits = ELEMENT_BITS[ty]
        if self.name == "infs":
            if ty == "i1":
                # i1 arithmetic is mod 2: each op is a few bitwise steps on one bit
                # row (the PIMEVAL_MAP "bool" compositions), one §2.2 step each.
                return int(sum(m for _dt, _op, m in PIMEVAL_MAP["bool"][op]) + (CONST_OPERAND.c1 if has_const else 0))
            lat = INFS_LATENCY[_kind_of(ty)][op]
            if lat.pimeval:
                r, w, l = self.steps(op, ty, has_const)
                return r + w + l
            cycles = lat.c2 * bits * bits + lat.c1 * bits + lat.c0
            if has_const:  # CONST_OPERAND
                cycles += CONST_OPERAND.c1 * bits
            return int(math.ceil(cycles))
        r, w, l = self.steps(op, ty, has_const)
        return int(math.ceil(r * self.t_read + w * self.t_write + l * self.t_logic))

    def steps(self, op: str, ty: str, has_const: bool = False) -> tuple[int, int, int]:
        """PIMeval (reads, writes, logic) row counts for one command."""
        bits = ELEMENT_BITS[ty]
        dt = PIMEVAL_DTYPE[ty]
        kind = "bool" if ty == "i1" else _kind_of(ty)
        total = [0, 0, 0]
        for row_dt, top, mult in PIMEVAL_MAP[kind][op]:
            rdt = dt if row_dt == "=" else f"int{bits}" if row_dt == "int=" else row_dt
            scalar = pimeval_row(rdt, top + "_scalar") if has_const else None
            if top == "copy":
                row = (bits, bits, 0)
            elif scalar is not None:
                row = scalar
            elif (plain := pimeval_row(rdt, top)) is not None:
                row = plain
            else:
                raise KeyError(f"no PIMeval step count for {top} on {rdt}")
            for i in range(3):
                total[i] += mult * row[i]
        return total[0], total[1], total[2]


PROFILES: dict[str, CostProfile] = {
    "infs": CostProfile("infs"),
    "pimeval-bitsimd-v": CostProfile("pimeval-bitsimd-v"),
}


def get_profile(name: str) -> CostProfile:
    if name not in PROFILES:
        raise ConfigError(f"unknown cost profile '{name}' (known: {', '.join(PROFILES)})")
    return PROFILES[name]


# ---------------------------------------------------------------------------
# The model's constants and their sources (benchmarks/MODEL.md is generated
# from these tables by ``model_markdown``; test_sim_config checks it is current)
# ---------------------------------------------------------------------------

_T2 = "ASPLOS Table 2 (asplos:412-423)"
# field -> (source, the figure it moves most)
FIELD_SOURCES: dict[str, tuple[str, str]] = {
    "freq_ghz": (_T2 + ": 2.0 GHz", "Fig. 14 (JIT share: the JIT's time in cycles)"),
    "mesh_rows": (_T2 + ": 8x8 cores/mesh", "Fig. 12/13 (NoC traffic)"),
    "mesh_cols": (_T2 + ": 8x8 cores/mesh", "Fig. 12/13 (NoC traffic)"),
    "banks": (_T2 + ": 64 banks, one per tile", "Fig. 11 (in-memory parallelism)"),
    "ways": (_T2 + ": 18 ways", "Fig. 11 (L3 capacity: which inputs fit, Base/Near-L3 DRAM traffic)"),
    "compute_ways": ("ASPLOS §5.2 (asplos:382): 'we use 16 ways' of the 18 for in-memory computing", "Fig. 11 (in-memory parallelism)"),
    "arrays_per_way": (_T2 + ": 16 arrays per way", "Fig. 11 (in-memory parallelism)"),
    "wordlines": (_T2 + ": 256x256 SRAM arrays", "Fig. 16/17 (tile sizes)"),
    "bitlines": (_T2 + ": 256x256 SRAM arrays", "Fig. 16/17 (tile sizes)"),
    "htree_levels": (_T2 + ": 5-level H tree", "Fig. 14 (move cycles)"),
    "htree_degree": ("gem5 CacheMemory.cc (CacheMemory::CacheMemory): arrayTreeDegree = 2, the tree joining the arrays of a way "
                     "(DataMoveCompiler::compileInterArrayShift's splits); 2^4 = 16 arrays per way, the way level the 5th of Table 2", "Fig. 14 (move cycles)"),
    "htree_leaf_bytes_per_cycle": ("gem5 CacheMemory.cc (CacheMemory::CacheMemory): arrayTreeLeafBandwidth = 4; PUMEngine::estimateCommandLatency "
                                   "charges ceil(bitlines / 32) x bits cycles per array per level; 16 ways x 4 B = Table 2's 64 B per bank", "Fig. 14 (move cycles)"),
    "htree_bytes_per_cycle": (_T2 + ": H tree 64B total BW", "Fig. 14 (move and final-reduce cycles)"),
    "l3_latency": (_T2 + ": shared L3 20 cycles", "Fig. 11 (Near-L3 and Base latency)"),
    "interleave_bytes": (_T2 + ": static NUCA, 1kB interleave", "Fig. 12/13 (Near-L3/Base NoC traffic)"),
    "link_bytes": (_T2 + ": 32B 1 cy. link", "Fig. 12/13 (NoC traffic and drain time)"),
    "link_cycles": (_T2 + ": 32B 1 cy. link", "Fig. 14 (sync cycles)"),
    "router_stages": (_T2 + ": 5-stage router", "Fig. 14 (sync cycles)"),
    "multicast": (_T2 + ": multicast X-Y routing", "Fig. 15 (broadcast-heavy outer products)"),
    "dram_gbps": (_T2 + ": 3200MHz DDR4 25.6 GB/s", "Fig. 14 (DRAM cycles, cold runs)"),
    "mem_ctrls": (_T2 + ": 16 mem. ctrls", "Fig. 12/13 (DRAM NoC traffic)"),
    "cores": (_T2 + ": 8x8 cores", "Fig. 11 (Base) and Eq. 2's TP_core"),
    "simd_lanes": ("ASPLOS §2.2 (asplos:119): 'one 512-bit vector op per cycle (64 x 16 = 1024 ops/cycle)': 16 fp32 lanes; Eq. 2's TP_core = cores x simd_lanes (§4.3, the runtime's estimate) and the SE_L3's rate; the Base timing model issues on the FU pool (core_*)", "Fig. 11 (Base, Near-L3) and Eq. 2's TP_core"),
    "se_init_cycles": (_T2 + ": SE_L3 4 cy. compute init. lat.", "Fig. 11 (Near-L3 on short regions)"),
    "host_tile": ("assumed: TC_core at mesh node 0 (the paper does not place it)", "Fig. 14 (sync round trips)"),
    "control_bytes": ("assumed: one 8 B control message (sync report, ack); the paper gives no size", "Fig. 12/13 (control traffic)"),
    "command_bytes": ("assumed: 16 B per command (pattern + op); the paper gives no size", "Fig. 12/13 (control traffic)"),
    "jit_model": ("HardwareConfig.jit_lowering_cycles: per-command by default, as the authors' gem5 model charges it (MLCPUMManager.cc:3662-3682); the named models hardware/gem5-controller/software are in the JIT table below; per-lowering sends every mm_outer/stencil region near memory under Eq. 2", "Fig. 14 (JIT share), Fig. 11 (Inf-S vs Inf-S no JIT)"),
    "jit_us_per_lowering": ("ASPLOS §8 (asplos:516): 'The average JIT time is 220us'", "Fig. 14 (JIT share), Fig. 11 (Inf-S vs Inf-S no JIT)"),
    "jit_cycles_per_command": ("CAL'22 (cal:139) '10 cycles/cmd'; gem5 run.py:393 stream_pum_compile_lat_per_cmd", "Fig. 14 (JIT share, jit_model=per-command)"),
    "line_bytes": ("assumed: the 64 B x86 cache line (Table 2's H tree is 64B wide)", "Fig. 12/13 (Near-L3/Base traffic)"),
    "l3_bank_bytes_per_cycle": (_T2 + ": the bank's 64B total H-tree bandwidth", "Fig. 11 (Base/Near-L3 port bound)"),
    "vector_div_cycles": (_T2 + ": '4 FP Div (12 cy.)': a 512-bit divide every 12 / 4 cycles, unpipelined (the paper does not say; the conservative reading); the SE_L3's (the Base cores divide on their FP-SIMD units, core_fp_simd_cycles)", "Fig. 11 (Near-L3 on divide-heavy regions)"),
    "vector_other_cycles": ("assumed: casts and other ops take one vector op", "Fig. 11 (Base)"),
    "se_config_bytes": ("NSC Table IV: ~450 bits of stream fields, one line", "Fig. 12/13 (Near-L3 control traffic)"),
    "se_sync_lines": ("NSC §IV-B: ranges collected every 8 iterations", "Fig. 12/13 (Near-L3 control traffic)"),
    "se_buffer_bytes": ("NSC Table V (nsc:338-341): 64 kB stream buffer per bank, 1 kB per core", "Fig. 11 (Near-L3 in-flight lines), Fig. 15 (Near-L3: which reuse the SE holds)"),
    "se_streams_per_core": ("NSC Table V (nsc:341): SE_L3 '12 streams per core, 768 total'; a region with more cannot be offloaded and runs on the cores", "Fig. 11 (Near-L3 on conv3d: 20 streams)"),
    "core_mshrs": ("gem5 configs/common/Options.py:200 --l1_5d_mshrs 16 (private L2)", "Fig. 11 (Base on streaming regions: the MLP bound)"),
    "core_issue_width": (_T2 + ": 'OOO CPU (8-issue)'; gem5 GemForgeO3CPUConfig.py:64-72 (issue width 8: GemForgeO8FUPool)", "Fig. 11 (Base: all vector instructions, loads and stores included)"),
    "core_fp_simd_units": ("gem5 src/cpu/o3/GemForgeFUPool.py:89-99 (branch gem-forge): GemForgeO8FUPool sets FUList[6] (GemForgeFpSIMDUnit) count = 4; Table 2 '4 FP ALU/SIMD'", "Fig. 11 (Base on fp regions)"),
    "core_fp_simd_cycles": ("gem5 src/cpu/o3/GemForgeFUPool.py:62-76 (branch gem-forge): every SimdFloat* class (add, mul, fma, div, cmp, cvt) opLat=2, pipelined=False: 4 units / 2 cycles = two 512-bit fp ops per cycle; a vector divide is one of them (vdivps is SimdFloatDivOp, avxop.isa:314-315), not Table 2's scalar '4 FP Div (12 cy.)' (FP_MultDiv's FloatDiv). The avx512 branch pipelines them (four per cycle); gem-forge is the branch of the paper's model", "Fig. 11 (Base on fp regions)"),
    "core_int_simd_units": ("gem5 src/cpu/o3/GemForgeFUPool.py:47-60, 97 (branch gem-forge): GemForgeIntSIMDUnit (SimdAdd/Mult/Cmp/Misc..., opLat 1, pipelined) count = 4 in GemForgeO8FUPool. Compares, selects, min/max and casts go here too (int ones are SimdCmpOp, avxop.isa:368-387; vcmpps and vcvt* carry no op class, avxop.isa:621, 751; fp max is SimdFloatCmpOp: the int pipe is the faster, conservative reading)", "Fig. 11 (Base on integer regions)"),
    "core_mem_ports": ("gem5 src/cpu/o3/FuncUnitConfig.py RdWrPort count = 4 (GemForgeO8FUPool keeps the default)", "Fig. 11 (Base on load-heavy regions: stencil taps)"),
    "core_l1_cycles": (_T2 + ": 'L1 I/D $ 32KB, 8-way, 2 cy.'; gem5 configs/common/Options.py:191 --l1d_lat 2: on a region's first access", "Fig. 11 (Base on short regions)"),
    "core_l2_cycles": (_T2 + ": 'Priv. L2 $ 256KB, 16-way, 16 cy.'; gem5 configs/common/Options.py:207 --l2_lat 16 (the private L2's response latency, configs/ruby/MESI_Three_Level_Stream.py:242): on every L2 miss's round trip, which holds an L2 MSHR", "Fig. 11 (Base on latency-bound regions: gathers, the MLP bound)"),
    "core_l2_bytes": (_T2 + ": 'Priv. L2 $ 256KB'; gem5 configs/common/Options.py:198 --l1_5d_size 256kB: the reuse distance within which a thread's stencil taps share their lines (core.tap_reads)", "Fig. 11 (Base on stencil3d: its up/down taps a plane apart)"),
    "core_barrier_radix": ("LLVM OpenMP runtime openmp/runtime/src/kmp_global.cpp: __kmp_barrier_gather_bb_dflt = __kmp_barrier_release_bb_dflt = 2 (branch factor 4) and bp_hyper_bar, the defaults of the runtime the authors' Base binaries run (gem5 src/cpu/o3/o3_cpu_delegator.cc:746-754, branch gem-forge, names its __kmp_hyper_barrier_release, __kmp_join_barrier and __kmp_fork_call); the kernels' `#pragma omp parallel for` per host-loop step (gem-forge-transform benchmark/GemForgeMicroSuite/stream/gaussian_elim/omp_gaussian_elim_avx/omp_gaussian_elim_avx.c:41-43, 89-90; the team is started by a warm-up region before gf_reset_stats, :187-193, so thread creation is not measured): a region's fork and join each cross ceil(log4(cores)) levels of it (core.forkjoin_cycles)", "Fig. 11 (Base on host loops of short regions: gauss_elim, mm_outer, kmeans_outer); §8 (PointNet++ sampling on Base)"),
    "core_load_queue": (_T2 + ": '72 LQ' (NSC Table V: IO4 '4 LSQ', OOO4 '24 LQ', OOO8 '72 LQ'): a demand load holds an entry, so indirect loads in flight per core are min(core_mshrs, core_load_queue) (core.demand_window)", "NSC Fig. 9/10 (Base on IO4/OOO4: indirect loads)"),
    "se_core_fifo_bytes": ("NSC Table V 'SE_core (IO4-OOO8): 256B/1kB/2kB FIFO': a floated stream's data waits there for the core (NS_no_comp: FIFO / round trip bytes per cycle per core)", "NSC Fig. 9 (NS_no_comp)"),
    "scc_count": ("NSC Table V '2 SCCs'; §VII-C 'we set the default OOO8 configuration to 2 SCCs'", "NSC Fig. 9/14 (SCM compute rate)"),
    "scc_rob_entries": ("NSC Table V 'total -/32/64 ROB-entry' (IO4/OOO4/OOO8); §VII-C 'with total 64 ROB entries': the SCM's ops in flight (0: in-order, one per SCC)", "NSC Fig. 14 (SCM compute rate)"),
    "near_config": ("NSC §VI's configurations (near.NEAR_CONFIGS; Base is mode core); NS by default, NSC's and ASPLOS's Near-L3 (asplos:101 'coordinates with the remote CPU core')", "NSC Fig. 9-12; ASPLOS Fig. 11 (Near-L3)"),
    "near_lock": ("NSC §VII-D 'By default, we use MRSW lock' (§IV-C); 'exclusive' for Fig. 16", "NSC Fig. 16"),
    "near_scalar_pe": ("NSC §VII-D 'Both SE_core and SE_L3 has a scalar PE to handle simple operations and avoid invoking SCM'", "NSC Fig. 17"),
    "parallel_intra_shift": ("gem5 stream_pum_enable_parallel_intra_array_shift, default 0 (run.py:375, Controller.py:194)", "Fig. 11 (In-L3 on stencils)"),
}  # fmt: skip

ENERGY_FIGURES: dict[str, str] = {
    "compute_bitline_cycle": "Fig. 18 (In-L3/Inf-S compute energy)",
    "shift_bitline_bit": "Fig. 18 (In-L3/Inf-S move energy)",
    "htree_byte_level": "Fig. 18 (In-L3/Inf-S move energy)",
    "noc_byte_hop": "Fig. 18 (Near-L3/Base NoC energy)",
    "dram_byte": "Fig. 18 (cold runs)",
    "transpose_byte": "Fig. 18 (cold runs)",
    "sram_read_byte": "Fig. 18 (Near-L3/Base L3 accesses)",
    "vector_op": "Fig. 18 (Base/Near-L3 compute energy)",
    "static_fraction": "Fig. 18 (energy follows run time)",
}


def _show_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def model_markdown() -> str:
    """The body of benchmarks/MODEL.md: every timing and energy constant of the
    default machine (paper-64) and the ``infs`` profile, its value, its source
    and the figure it moves most."""
    cfg = _DEFAULT
    out = ["## Machine (paper-64 defaults, `infs/hardware.py` `HardwareConfig`)", "",
           "| constant | value | source | moves most |", "|---|---|---|---|"]
    for f in fields(HardwareConfig):
        if f.name in ("name", "profile", "energy_pj"):
            continue
        src, fig = FIELD_SOURCES[f.name]
        out.append(f"| `{f.name}` | {_show_value(getattr(cfg, f.name))} | {src} | {fig} |")
    out += ["", "## JIT models (`jit_model`, `HardwareConfig.jit_lowering_cycles`; `infs-run --jit-model NAME`)", "",
            "| model | charge per lowering not memoized | source |", "|---|---|---|",
            f"| `per-command` (default) | `jit_cycles_per_command` ({cfg.jit_cycles_per_command}) x commands | the configurable rate; its default is `hardware`'s |"]
    for name, cycles in JIT_COMMAND_CYCLES.items():
        out.append(f"| `{name}` | {cycles} x commands | {JIT_MODEL_SOURCES[name]} |")
    out += [f"| `per-lowering` | `jit_us_per_lowering` ({cfg.jit_us_per_lowering:g} us) at `freq_ghz` | {FIELD_SOURCES['jit_us_per_lowering'][0]} |",
            "| `measured` | infs's own JIT wall time at `freq_ghz` | not deterministic; for exploration only |",
            "", "gem5 charges its rate once per PUM context, on every command but syncs (MLCPUMManager::configurePUMEngine, "
            "MLCPUMManager.cc:3662-3682, branch gem-forge); infs charges every command of a lowering not memoized.", "",
            "## Bit-serial compute (`infs` profile, `INFS_LATENCY`; n = element bits)", "",
            "| op | int | fp | int source | fp source |", "|---|---|---|---|---|"]
    for op in INFS_LATENCY["int"]:
        i, f_ = INFS_LATENCY["int"][op], INFS_LATENCY["fp"][op]
        out.append(f"| `{op}` | {i.formula()} | {f_.formula()} | {i.source} | {f_.source} |")
    out.append(f"| constant operand | +{CONST_OPERAND.formula()} | +{CONST_OPERAND.formula()} | {CONST_OPERAND.source} | same |")
    out += ["", "64-bit elements (f64, i64) take n = 64 in every formula (gem5 prices an op by the element's bits). "
            "PIMeval rows it does not publish, which int div (both profiles) and the `pimeval-bitsimd-v` profile need "
            "for 64 bits (`pimeval_extrapolated`):", "",
            "| dtype | rows (reads, writes, logic) | derivation |", "|---|---|---|"]
    for dt, src in PIMEVAL_EXTRAPOLATED_SOURCE.items():
        ops = sorted(op for (d, op) in PIMEVAL_STEPS if d == ("int32" if dt == "int64" else "fp32") and (dt, op) not in PIMEVAL_STEPS and pimeval_extrapolated(dt, op))
        out.append(f"| {dt} | {', '.join(f'{op} {pimeval_extrapolated(dt, op)}' for op in ops)} | {src} |")
    out += ["", "All compute latencies move Fig. 11 (In-L3/Inf-S) and the compute share of Fig. 14.", "",
            "## Data movement (`infs/sim/sram/timing.py`)", "",
            "| cost | formula | source | moves most |", "|---|---|---|---|",
            "| in-array shift | bits x max(1, \\|d\\| x bstride(dim)), or bits with `parallel_intra_shift` | gem5 DataMoveCompiler.cc:400-404 (flattened distance), PUMEngine.cc:269-295 | Fig. 11 (In-L3 on stencils) |",
            "| in-array broadcast | bits x max(1, \\|lo\\| x bstride(dim)), fan-out free | ASPLOS §4.1/§5.2; gem5 DataMoveCompiler.cc:221-255, 958-1039; PUMEngine.cc:269-295 | Fig. 15 (outer products) |",
            "| inter-tile move | H-tree: ceil(bitlines / (8 x `htree_leaf_bytes_per_cycle`)) x bits per array, times the arrays moved one after the other summed over the levels (at each in-way level its busiest sub-tree's sources whose transfer's common ancestor is there, at the way level the ways with such sources, at the bank level the sources leaving the bank, at most `compute_ways`; each source once, a multicast's fan-out free); at least the bytes a bank receives / `htree_bytes_per_cycle` and the mesh injection / `link_bytes`; + 2 x `htree_levels`; drain = busiest link + hops x (router + link) | gem5 PUMEngine::estimateCommandLatency (inter-array), DataMoveCompiler::compileInterArrayShift, CacheMemory.cc; run.py defaults parallel inter-array shift and way read on; ASPLOS §5.2, Table 2 | Fig. 14 (move) |",
            "| sync | drain + 2 x farthest hops x hop cycles | ASPLOS §4.2, §5.2 | Fig. 14 (move) |",
            "| DRAM transpose | bytes / (`dram_gbps` / `freq_ghz`) + `l3_latency` | Table 2 | Fig. 14 (DRAM) |",
            "", "## Energy (`DEFAULT_ENERGY_PJ`, `ENERGY_SOURCES`)", "",
            "| constant | value (pJ; `static_fraction` a fraction of the peak dynamic power) | source | moves most |", "|---|---|---|---|"]
    for k, v in DEFAULT_ENERGY_PJ.items():
        out.append(f"| `{k}` | {_show_value(v)} | {ENERGY_SOURCES[k]} | {ENERGY_FIGURES[k]} |")
    return "\n".join(out) + "\n"


MODEL_MD_BEGIN = "<!-- model:begin (generated by infs.hardware.model_markdown; refresh: python -m infs.hardware) -->"
MODEL_MD_END = "<!-- model:end -->"


if __name__ == "__main__":  # python -m infs.hardware: refresh benchmarks/MODEL.md's generated block
    _path = Path(__file__).resolve().parents[1] / "benchmarks" / "MODEL.md"
    _text = _path.read_text()
    _a, _b = _text.index(MODEL_MD_BEGIN) + len(MODEL_MD_BEGIN), _text.index(MODEL_MD_END)
    _path.write_text(_text[:_a] + "\n" + model_markdown() + _text[_b:])
