"""The L3's SRAM arrays: the in-memory part of the machine (ASPLOS §5, Table 2), section ``[sram]``.

Takes nothing but the field machinery and the cost profiles (``profile``
names one).  Gives ``PART``: the fields of the L3 -- its banks (one per mesh
tile), ways (``compute_ways`` of them compute), SRAM arrays per way and their
``wordlines`` x ``bitlines``, the bank's latency and line interleave, an
in-array shift's price, the cost profile of its bit-serial commands and the
JIT's charge for lowering them -- with their defaults (paper-64), ranges and
sources, and the checks that make a possible L3: ``banks`` = mesh_rows x
mesh_cols, ``compute_ways`` <= ways, ``interleave_bytes`` a multiple of
``line_bytes``, at most ``MAX_TOTAL_BITLINES`` bitlines, a known JIT model and
profile.

Ranges: ``banks`` 1..4096; ``ways``/``compute_ways`` 1..64;
``arrays_per_way`` 1..1024; ``wordlines`` 32..1024 (one 32-bit register; the
10-bit LOT wordline field, ASPLOS Table 1); ``bitlines`` 1..4096 (any count:
choose-layout factors it into tile sizes, nothing assumes a power of two);
``banks x compute_ways x arrays_per_way x bitlines`` <= 2^24 (the simulator
holds a dense vector over every bitline: 64 MB per 32-bit register);
``interleave_bytes`` 1..2^30; ``jit_cycles_per_command`` 0..2^20;
``jit_us_per_lowering`` 0..1e6; ``jit_model`` one of ``JIT_MODELS``;
``profile`` one of ``PROFILES``.

Near-memory streams and the cores read the L3 through three of these fields:
``line_bytes`` (64) -- cache line: the unit of L3 accesses, NoC requests and
stream-engine flow control; ``l3_bank_bytes_per_cycle`` (64) -- one line per
cycle read or written per L3 bank (the bank's 64 B/cycle H-tree, Table 2);
and ``interleave_bytes`` (1024) -- static-NUCA interleave: byte ``a`` of an
array lives in bank ``(a // 1024) % banks``; arrays start 64 kB-aligned.
"""

from __future__ import annotations

from infs.hardware.cost_profiles import PROFILES
from infs.hardware.part_fields import BYTES, COUNT, TABLE_2, ConfigError, ConfigField, FieldRange, Part
from infs.jit_models import JIT_MODELS

# The simulator keeps dense per-cell vectors over every bitline of the machine
# (``sim.machine.RegisterFile``): 2^24 cells is 64 MB per 32-bit register,
# 4x the paper's 4M bitlines (ASPLOS Table 2, CAL'22 Table 2).
MAX_TOTAL_BITLINES = 1 << 24

FIELDS = (
    ConfigField(
        "banks", "int", 64,  # one L3 bank per mesh tile
        FieldRange("int", 1, 4096),  # also = mesh_rows x mesh_cols
        TABLE_2 + ": 64 banks, one per tile", "Fig. 11 (in-memory parallelism)",
    ),
    ConfigField(
        "ways", "int", 18,
        FieldRange("int", 1, 64),
        TABLE_2 + ": 18 ways", "Fig. 11 (L3 capacity: which inputs fit, Base/Near-L3 DRAM traffic)",
    ),
    ConfigField(
        "compute_ways", "int", 16,
        FieldRange("int", 1, 64),  # also <= ways
        "ASPLOS §5.2 (asplos:382): 'we use 16 ways' of the 18 for in-memory computing", "Fig. 11 (in-memory parallelism)",
    ),
    ConfigField(
        "arrays_per_way", "int", 16,
        FieldRange("int", 1, 1024),
        TABLE_2 + ": 16 arrays per way", "Fig. 11 (in-memory parallelism)",
    ),
    ConfigField(
        "wordlines", "int", 256,
        FieldRange("int", 32, 1024, "cannot hold one 32-bit register", "exceed the 10-bit LOT wordline field (ASPLOS Table 1)"),
        TABLE_2 + ": 256x256 SRAM arrays", "Fig. 16/17 (tile sizes)",
    ),
    ConfigField(
        "bitlines", "int", 256,
        # A tile fills one array (§4.1); no power-of-two is assumed (choose-layout
        # factors any bitline count into tile sizes).  8x CAL'22's 512-bit arrays.
        FieldRange("int", 1, 4096),
        TABLE_2 + ": 256x256 SRAM arrays", "Fig. 16/17 (tile sizes)",
    ),
    ConfigField(
        "l3_latency", "int", 20,
        FieldRange("int", 1, COUNT),
        TABLE_2 + ": shared L3 20 cycles", "Fig. 11 (Near-L3 and Base latency)",
    ),
    ConfigField(
        "interleave_bytes", "int", 1024,
        FieldRange("int", 1, BYTES),  # also a multiple of line_bytes
        TABLE_2 + ": static NUCA, 1kB interleave", "Fig. 12/13 (Near-L3/Base NoC traffic)",
    ),
    ConfigField(
        "line_bytes", "int", 64,  # cache line
        FieldRange("int", 1, COUNT),
        "assumed: the 64 B x86 cache line (Table 2's H tree is 64B wide)", "Fig. 12/13 (Near-L3/Base traffic)",
    ),
    ConfigField(
        "l3_bank_bytes_per_cycle", "int", 64,  # one line/cycle per L3 bank (= the bank's H-tree, Table 2)
        FieldRange("int", 1, COUNT),
        TABLE_2 + ": the bank's 64B total H-tree bandwidth", "Fig. 11 (Base/Near-L3 port bound)",
    ),
    # gem5's stream_pum_enable_parallel_intra_array_shift (default 0, run.py:375,
    # Controller.py:194): an in-array shift costs ``bits`` whatever its distance.
    ConfigField(
        "parallel_intra_shift", "bool", False,
        FieldRange("bool"),
        "gem5 stream_pum_enable_parallel_intra_array_shift, default 0 (run.py:375, Controller.py:194)", "Fig. 11 (In-L3 on stencils)",
    ),
    ConfigField(
        "profile", "str", "infs",
        FieldRange("str"),  # also one of PROFILES
    ),
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
    ConfigField(
        "jit_model", "str", "per-command",
        FieldRange("str"),  # also one of JIT_MODELS
        "HardwareConfig.jit_lowering_cycles: per-command by default, as the authors' gem5 model charges it (MLCPUMManager.cc:3662-3682); the named models hardware/gem5-controller/software are in the JIT table below; per-lowering sends every mm_outer/stencil region near memory under Eq. 2", "Fig. 14 (JIT share), Fig. 11 (Inf-S vs Inf-S no JIT)",
    ),
    ConfigField(
        "jit_us_per_lowering", "float", 220.0,  # ASPLOS §8 (asplos:516): "The average JIT time is 220us"
        FieldRange("number", 0.0, 1e6, "a time", "a time (a second per lowering)"),
        "ASPLOS §8 (asplos:516): 'The average JIT time is 220us'", "Fig. 14 (JIT share), Fig. 11 (Inf-S vs Inf-S no JIT)",
    ),
    ConfigField(
        "jit_cycles_per_command", "int", 10,  # CAL'22 (cal:139) hardware lowering "10 cycles/cmd"; gem5 run.py:393
        FieldRange("int", 0, COUNT),
        "CAL'22 (cal:139) '10 cycles/cmd'; gem5 run.py:393 stream_pum_compile_lat_per_cmd", "Fig. 14 (JIT share, jit_model=per-command)",
    ),
)


def _banks_fill_the_mesh(cfg, where: str) -> None:
    if cfg.banks != cfg.mesh_rows * cfg.mesh_cols:
        raise ConfigError(f"{where}: banks ({cfg.banks}) must equal mesh_rows x mesh_cols ({cfg.mesh_rows}x{cfg.mesh_cols}): one L3 bank per mesh tile")


def _compute_ways_fit(cfg, where: str) -> None:
    if cfg.compute_ways > cfg.ways:
        raise ConfigError(f"{where}: compute_ways ({cfg.compute_ways}) exceeds the bank's {cfg.ways} ways")


def _interleave_in_lines(cfg, where: str) -> None:
    if cfg.interleave_bytes % cfg.line_bytes:
        raise ConfigError(f"{where}: interleave_bytes ({cfg.interleave_bytes}) must be a multiple of line_bytes ({cfg.line_bytes})")


def _bitlines_fit_the_simulator(cfg, where: str) -> None:
    if cfg.total_bitlines > MAX_TOTAL_BITLINES:
        raise ConfigError(f"{where}: bitlines: banks x compute_ways x arrays_per_way x bitlines = {cfg.total_bitlines} exceeds {MAX_TOTAL_BITLINES} "
                          "(2^24: the simulator keeps a vector over every bitline)")  # fmt: skip


def _known_jit_model(cfg, where: str) -> None:
    if cfg.jit_model not in JIT_MODELS:
        raise ConfigError(f"{where}: jit_model: unknown JIT model '{cfg.jit_model}' (known: {', '.join(JIT_MODELS)})")


def _known_profile(cfg, where: str) -> None:
    if cfg.profile not in PROFILES:
        raise ConfigError(f"{where}: profile: unknown cost profile '{cfg.profile}' (known: {', '.join(PROFILES)})")


PART = Part("sram", "the L3's SRAM arrays (in-memory compute), its cost profile and the JIT's charge", FIELDS,
            (_banks_fill_the_mesh, _compute_ways_fit, _interleave_in_lines, _bitlines_fit_the_simulator, _known_jit_model, _known_profile))  # fmt: skip
