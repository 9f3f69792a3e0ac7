"""The DRAM-PIM part of the hardware description: a GDDR6 memory with Newton's
bank-level MAC units in a subset of its channels (PIMFlow, CGO'23, §4.1), and
the GPU beside it, as data.

Takes a name (``pimflow``, ``newton-plus``, ``tiny-pim``), a mapping of field
overrides, or a ``DramPimConfig``; gives a checked, frozen ``DramPimConfig``
(``load_dram_pim``).  A bad field is one ``ConfigError`` line naming the
config, the field and what is wrong.

Sources, cited beside every constant:

* PIMFlow Table 1 (GDDR6 configuration): 1 rank, 16 banks, 32 column I/Os per
  row, 256-bit column I/O, 4 KB global buffer, 16 multipliers per bank;
  tBL 2, tCL 11, tRP 11, tRCD 11, tCCD 2, tRAS 25 (DRAM clocks);
* PIMFlow §4.1 (four global buffers, GWRITE_2/GWRITE_4, GWRITE latency hiding)
  and §6.2 (16 of the 32 channels PIM-enabled);
* the authors' Ramulator extension (PIMFlow_ramulator, ``src/GDDR6.h``
  speed entry ``GDDR6_3500``, ``src/GDDR6.cpp`` ``init_timing``, and
  ``src/Controller.h`` ``finish()`` for the energy per command) for what the
  paper leaves out: the clock, tFAW, tRC, tRTP, the PIM command-to-command
  gaps and the energy parameters (which the paper attributes to CACTI 7 and
  its reference [54]);
* the GPU side: NVIDIA GeForce RTX 2060 specifications (1920 CUDA cores in
  30 SMs, 1680 MHz boost clock, 192-bit GDDR6 at 14 Gbps = 336 GB/s, 160 W
  board power) and the Turing architecture whitepaper (8 tensor cores per SM,
  64 FP16 FMA per tensor core per clock).

A module of ``infs.hardware`` with a machine of its own: it imports only the
package's ``ConfigError`` (``part_fields``), so a bad DRAM-PIM config is the
same one-line error as a bad SRAM one, and it neither reads nor changes
``HardwareConfig`` (the SRAM machine's description).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from infs.hardware.part_fields import ConfigError


@dataclass(frozen=True)
class DramPimEnergy:
    """Energy per event in picojoules (PIMFlow_ramulator ``src/Controller.h`` ``finish()``,
    which PIMFlow §5 says comes from CACTI 7 with parameters adapted from its [54])."""

    precharge_bank_pj: float = 31.83  # Controller.h pre_energy = 0.03183e-9 J per bank; PREA = 16 x this
    sram_read_pj: float = 175.814  # Controller.h sram_read_energy (global buffer / result latch read)
    sram_write_pj: float = 181.995  # Controller.h sram_write_energy (a GWRITE into one global buffer)
    dram_read_pj: float = 1168.22  # Controller.h read_energy: one DRAM column read
    mul_pj: float = 1.1  # Controller.h fp16_mul_array_energy = 1.1e-12 x 16 (16 multipliers per bank)
    add_pj: float = 0.4  # Controller.h fp16_add_array_energy = 0.4e-12 x 16 (the adder tree)


@dataclass(frozen=True)
class GpuModel:
    """The GPU beside the memory, for an analytic (roofline) model: not a simulator."""

    name: str = "RTX 2060"
    sms: int = 30  # RTX 2060 specifications: 1920 CUDA cores = 30 SMs x 64
    cuda_cores: int = 1920  # RTX 2060 specifications
    boost_ghz: float = 1.68  # RTX 2060 specifications: 1680 MHz boost clock
    tensor_cores_per_sm: int = 8  # Turing whitepaper: 8 tensor cores per SM (240 on the 2060)
    tensor_fp16_fma_per_clock: int = 64  # Turing whitepaper: 64 FP16 FMA per tensor core per clock
    mem_gbps: float = 336.0  # RTX 2060 specifications: 192-bit GDDR6 at 14 Gbps = 336 GB/s
    board_watts: float = 160.0  # RTX 2060 specifications: 160 W graphics card power

    @property
    def peak_fp16_flops(self) -> float:
        """Tensor-core FP16 peak, FLOP/s (2 per FMA)."""
        return self.sms * self.tensor_cores_per_sm * self.tensor_fp16_fma_per_clock * 2 * self.boost_ghz * 1e9

    @property
    def peak_fp32_flops(self) -> float:
        """CUDA-core FP32 peak, FLOP/s (one FMA per core per clock)."""
        return self.cuda_cores * 2 * self.boost_ghz * 1e9


@dataclass(frozen=True)
class DramPimConfig:
    """One GDDR6 memory with Newton MAC units in its PIM-enabled channels."""

    name: str = "pimflow"
    channels: int = 32  # PIMFlow §5 'Baseline: GPU-only execution with a 32-channel memory'
    pim_channels: int = 16  # PIMFlow §6.2: the 16-16 channel division
    banks: int = 16  # Table 1: 16 banks
    bank_groups: int = 4  # Ramulator GDDR6 org: 4 bank groups of 4 banks (G_ACT0..G_ACT3, one per group)
    rows_per_bank: int = 16384  # Ramulator GDDR6.h org_table GDDR6_8Gb_x16: 1<<14 rows
    column_ios_per_row: int = 32  # Table 1: 32 column I/Os per row
    column_io_bits: int = 256  # Table 1: 256-bit column I/O
    multipliers_per_bank: int = 16  # Table 1: 16 multipliers per bank
    global_buffer_bytes: int = 4096  # Table 1: 4 KB global buffer (per channel, §7)
    global_buffers: int = 4  # §4.1: four global buffers instead of one (Newton) or two (AiM)
    gwrite_latency_hiding: bool = True  # §4.1: G_ACT issued while GWRITE's data is still in flight
    element_bits: int = 16  # Newton's MACs take 16-bit operands (bf16 in Newton; fp16 in PIMFlow_ramulator's energy names)
    freq_ghz: float = 0.875  # Ramulator GDDR6.h speed entry GDDR6_3500: freq 7*500/4 MHz, tCK 8/7 ns
    tBL: int = 2  # Table 1
    tCL: int = 11  # Table 1
    tRP: int = 11  # Table 1
    tRCD: int = 11  # Table 1
    tCCD: int = 2  # Table 1
    tRAS: int = 25  # Table 1
    tFAW: int = 17  # Ramulator GDDR6_3500 nFAW: the G_ACT0 -> G_ACT1 -> G_ACT2 -> G_ACT3 gap (GDDR6.cpp init_timing)
    tRC: int = 35  # Ramulator GDDR6_3500 nRC
    tRTP: int = 2  # Ramulator GDDR6_3500 nRTP: last column read (COMP) -> precharge
    gwrite_to_comp_extra: int = 16  # Ramulator GDDR6.cpp: GWRITE -> COMP is nRC + 16
    readres_to_gwrite: int = 6  # Ramulator GDDR6.cpp: READRES -> GWRITE 6
    comp_to_readres: int = 1  # Ramulator GDDR6.cpp: COMP -> READRES 1
    energy: DramPimEnergy = field(default_factory=DramPimEnergy)
    gpu: GpuModel = field(default_factory=GpuModel)

    # -- derived quantities -------------------------------------------------
    @property
    def elements_per_column(self) -> int:
        """Elements one COMP reads per bank: 256 bits / 16 = the 16 multipliers' operands."""
        return self.column_io_bits // self.element_bits

    @property
    def elements_per_row(self) -> int:
        """Elements of one DRAM row per bank (32 x 16 = 512 at Table 1)."""
        return self.column_ios_per_row * self.elements_per_column

    @property
    def buffer_elements(self) -> int:
        """Elements one global buffer holds (4 KB / 4 buffers / 2 B = 512)."""
        return self.global_buffer_bytes * 8 // self.element_bits // self.global_buffers

    @property
    def readres_latency(self) -> int:
        """READRES issue to data at the controller: tCL + tBL (Ramulator GDDR6.cpp readres_latency)."""
        return self.tCL + self.tBL

    def gwrite_gap(self, buffers: int) -> int:
        """GWRITE(_n) -> next GWRITE / G_ACT: 1 clock with latency hiding (Ramulator GDDR6.cpp c = 1),
        else the data's time on the bus, 32 x tCCD per 1 KB buffer (Ramulator c = 32 * nCCDS)."""
        return 1 if self.gwrite_latency_hiding else buffers * self.column_ios_per_row * self.tCCD

    @property
    def gwrite_to_comp(self) -> int:
        return self.tRC + self.gwrite_to_comp_extra

    @property
    def ns_per_cycle(self) -> float:
        return 1.0 / self.freq_ghz


# field -> (low, high), inclusive; booleans and sub-records are checked by type
_RANGES: dict[str, tuple[float, float]] = {
    "channels": (1, 1024),
    "pim_channels": (1, 1024),
    "banks": (1, 256),
    "bank_groups": (1, 64),
    "rows_per_bank": (1, 1 << 20),
    "column_ios_per_row": (1, 4096),
    "column_io_bits": (8, 4096),
    "multipliers_per_bank": (1, 4096),
    "global_buffer_bytes": (2, 1 << 20),
    "global_buffers": (1, 4),
    "element_bits": (16, 16),
    "freq_ghz": (0.01, 100.0),
    **{t: (1, 1 << 16) for t in ("tBL", "tCL", "tRP", "tRCD", "tCCD", "tRAS", "tFAW", "tRC", "tRTP")},
    "gwrite_to_comp_extra": (0, 1 << 16),
    "readres_to_gwrite": (0, 1 << 16),
    "comp_to_readres": (1, 1 << 16),
}


def validate(cfg: DramPimConfig) -> DramPimConfig:
    """``cfg`` if every field is possible, else one ``ConfigError`` line."""
    where = f"dram-pim config '{cfg.name}'"
    for f in fields(cfg):
        v = getattr(cfg, f.name)
        if f.name in _RANGES:
            lo, hi = _RANGES[f.name]
            want_int = isinstance(lo, int) and isinstance(hi, int)
            if isinstance(v, bool) or not isinstance(v, int if want_int else (int, float)) or not math.isfinite(v):
                raise ConfigError(f"{where}: field '{f.name}' must be {'an integer' if want_int else 'a number'}, got {v!r}")
            if not lo <= v <= hi:
                raise ConfigError(f"{where}: field '{f.name}' = {v} is outside {lo}..{hi}")
        elif f.name == "gwrite_latency_hiding" and not isinstance(v, bool):
            raise ConfigError(f"{where}: field 'gwrite_latency_hiding' must be true or false, got {v!r}")
    if cfg.pim_channels > cfg.channels:
        raise ConfigError(f"{where}: pim_channels = {cfg.pim_channels} exceeds channels = {cfg.channels}")
    if cfg.banks % cfg.bank_groups:
        raise ConfigError(f"{where}: banks = {cfg.banks} is not a multiple of bank_groups = {cfg.bank_groups}")
    if cfg.column_io_bits % cfg.element_bits or cfg.elements_per_column != cfg.multipliers_per_bank:
        raise ConfigError(f"{where}: a column I/O of {cfg.column_io_bits} bits holds {cfg.column_io_bits // cfg.element_bits} "
                          f"elements, but a bank has {cfg.multipliers_per_bank} multipliers (one per element)")
    if cfg.buffer_elements != cfg.elements_per_row:
        raise ConfigError(f"{where}: a global buffer holds {cfg.buffer_elements} elements "
                          f"({cfg.global_buffer_bytes} B / {cfg.global_buffers} buffers), a row {cfg.elements_per_row}: they must match")
    return cfg


BUILTIN: dict[str, dict[str, Any]] = {
    "pimflow": {},  # Newton++ / PIMFlow: four global buffers, GWRITE latency hiding (§4.1)
    "newton-plus": {"global_buffers": 1, "global_buffer_bytes": 1024, "gwrite_latency_hiding": False},  # §5 Newton+
    # a small machine for tests: 4 PIM channels of 4 banks, 8-column rows, 8 rows per bank
    "tiny-pim": {"channels": 8, "pim_channels": 4, "banks": 4, "bank_groups": 2, "rows_per_bank": 8,
                 "column_ios_per_row": 8, "global_buffer_bytes": 1024},  # fmt: skip
}


def load_dram_pim(spec: "str | Mapping[str, Any] | DramPimConfig" = "pimflow", **overrides: Any) -> DramPimConfig:
    """A checked config from a built-in name, a mapping (``base`` names a built-in) or a config."""
    if isinstance(spec, DramPimConfig):
        base, values = spec, {}
    elif isinstance(spec, str):
        if spec not in BUILTIN:
            raise ConfigError(f"dram-pim config '{spec}': no such built-in (known: {', '.join(BUILTIN)})")
        base, values = DramPimConfig(name=spec), dict(BUILTIN[spec])
    elif isinstance(spec, Mapping):
        values = dict(spec)
        b = values.pop("base", "pimflow")
        if b not in BUILTIN:
            raise ConfigError(f"dram-pim config: base '{b}' is no built-in (known: {', '.join(BUILTIN)})")
        base = DramPimConfig(name=str(values.get("name", b)))
        values = {**BUILTIN[b], **values}
    else:
        raise ConfigError(f"dram-pim config: expected a name, a mapping or a config, got {type(spec).__name__}")
    values.update(overrides)
    known = {f.name for f in fields(DramPimConfig)}
    for k in values:
        if k not in known:
            raise ConfigError(f"dram-pim config '{base.name}': unknown field '{k}'")
    return validate(dataclasses.replace(base, **values))
