"""Hardware configurations, as data: the simulated machine of ASPLOS §5 (Table 2), part by part.

Shared by the compiler (layout, lowering) and the simulator, so it sits at the
bottom of the layering and imports nothing from infs but the element types
(``infs.element_types``) and the JIT models' table (``infs.jit_models``), which
import nothing from infs.

A ``HardwareConfig`` describes one machine.  Each part of the machine is a
module of this package that declares its fields -- their types, defaults,
ranges and sources -- and the checks that make it possible (``PARTS``):

* ``sram`` -- the L3's SRAM arrays: banks, ways, arrays, wordlines and
  bitlines, the bank's latency and interleave, the cost profile of its
  bit-serial commands (``cost_profiles``) and the JIT's charge;
* ``near`` -- the L3 banks' near-memory stream engines (NSC);
* ``core`` -- the cores of the baseline and their private caches, the clock;
* ``noc`` -- the mesh (links, routers, multicast, message sizes) and each
  bank's H-tree;
* ``dram`` -- DRAM bandwidth and memory controllers;
* ``energy`` -- the energy constants and their sources.

``HardwareConfig`` is one frozen dataclass composed of the parts' fields (an
attribute per field: ``cfg.bitlines``, ``cfg.link_bytes``), with the derived
geometry and power every model uses.  A new part is one module declaring its
``PART`` and its entry in ``PARTS``: its fields then load, validate, print
inline and appear in benchmarks/MODEL.md (``model_table``), and its section
reads from config files, with nothing else changed.

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

``load_config`` accepts a built-in name, a ``.toml``/``.json`` file, a
``dict`` of the same, an inline config ``NAME{field=value,...}``
(``config_spec``: what a lowered program records), or a config.  A file has
one section per part -- ``[sram]``, ``[near]``, ``[core]``, ``[noc]``,
``[dram]``, ``[energy]`` -- holding that part's fields (``[energy]`` the
energy constants), and at the top ``name`` (default: the file's stem) and
``base = "paper-64"`` (inherit a built-in); a field may also be given at the
top level by its name, as files written before the sections were.
Impossible configurations raise ``ConfigError`` with one line naming the file
(or config), the field and what is wrong.

Every field has a type and an inclusive range (``FIELD_RANGES``: each part's
module lists its own), checked at load time.  The generic upper bounds (2^20
for counts, latencies and message sizes, 2^30 for byte counts) are far beyond
any machine the papers model and keep every product the models form exact in
int64/float64.
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import asdict, field, fields, make_dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from infs.hardware import core, dram, energy, near, noc, sram

# Besides what this module uses, the names callers have always imported from
# ``infs.hardware`` (``from infs.hardware import PROFILES``): they live in the
# parts' modules and beside them now.  benchmarks/MODEL.md's table is
# ``infs.hardware.model_table``'s, which reads this module.
from infs.hardware.cost_profiles import (  # noqa: F401
    CONST_OPERAND,
    INFS_LATENCY,
    PIMEVAL_BITSIMD_V_CSV,
    PIMEVAL_DTYPE,
    PIMEVAL_EXTRAPOLATED_SOURCE,
    PIMEVAL_MAP,
    PIMEVAL_STEPS,
    PROFILES,
    CostProfile,
    OpLatency,
    get_profile,
    pimeval_extrapolated,
    pimeval_row,
)
from infs.hardware.energy import DEFAULT_ENERGY_PJ, ENERGY_FIGURES, ENERGY_SOURCES, MAX_ENERGY_PJ, energy_values  # noqa: F401
from infs.hardware.near import NEAR_CONFIGS, NEAR_LOCKS  # noqa: F401
from infs.hardware.part_fields import ConfigError, ConfigField, FieldRange, Part, check_value, show
from infs.hardware.sram import MAX_TOTAL_BITLINES  # noqa: F401
from infs.jit_models import JIT_COMMAND_CYCLES, JIT_MODEL_SOURCES, JIT_MODELS  # noqa: F401

# The parts of the machine, in the order their checks run and their sections are named.
PARTS: tuple[Part, ...] = (sram.PART, near.PART, core.PART, noc.PART, dram.PART, energy.PART)

# The order inline configs (``config_spec``) and benchmarks/MODEL.md have always
# listed the fields in (Table 2's, roughly: the clock, the mesh and the L3, the
# network, DRAM, the cores, the stream engines, the JIT); a part's fields not
# named here follow, part by part.
FIELD_ORDER = (
    "freq_ghz", "mesh_rows", "mesh_cols", "banks", "ways", "compute_ways", "arrays_per_way", "wordlines", "bitlines",
    "htree_levels", "htree_degree", "htree_leaf_bytes_per_cycle", "htree_bytes_per_cycle", "l3_latency", "interleave_bytes",
    "link_bytes", "link_cycles", "router_stages", "multicast", "dram_gbps", "mem_ctrls", "cores", "simd_lanes",
    "se_init_cycles", "host_tile", "control_bytes", "command_bytes", "jit_model", "jit_us_per_lowering",
    "jit_cycles_per_command", "line_bytes", "l3_bank_bytes_per_cycle", "vector_div_cycles", "vector_other_cycles",
    "se_config_bytes", "se_sync_lines", "se_buffer_bytes", "se_streams_per_core", "core_mshrs", "core_issue_width",
    "core_fp_simd_units", "core_fp_simd_cycles", "core_int_simd_units", "core_mem_ports", "core_l1_cycles",
    "core_l2_cycles", "core_l2_bytes", "core_barrier_radix", "core_load_queue", "se_core_fifo_bytes", "scc_count",
    "scc_rob_entries", "near_config", "near_lock", "near_scalar_pe", "parallel_intra_shift", "profile", "energy_pj",
)  # fmt: skip

_DECLARED = {f.name: f for part in PARTS for f in part.fields}
# every field of every part, in FIELD_ORDER
CONFIG_FIELDS: dict[str, ConfigField] = {n: _DECLARED[n] for n in (*[n for n in FIELD_ORDER if n in _DECLARED], *_DECLARED)}
PART_OF: dict[str, Part] = {f.name: part for part in PARTS for f in part.fields}
SECTIONS: dict[str, Part] = {part.section: part for part in PARTS}


class MachineProperties:
    """What every model derives from a machine's fields (the base of ``HardwareConfig``)."""

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


def _dataclass_field(f: ConfigField) -> Any:
    return field(default_factory=f.default) if callable(f.default) else field(default=f.default)


HardwareConfig = make_dataclass(
    "HardwareConfig",
    [("name", "str"), *((f.name, f.type, _dataclass_field(f)) for f in CONFIG_FIELDS.values())],
    bases=(MachineProperties,),
    frozen=True,
    namespace={"__module__": __name__, "__doc__": "One machine: a field per part's field (``PARTS``), the derived geometry of ``MachineProperties``."},
)

_DEFAULT = HardwareConfig(name="paper-64")

FIELD_RANGES: dict[str, FieldRange] = {"name": FieldRange("str"), **{n: f.range for n, f in CONFIG_FIELDS.items()}}


def _where(name: str, source: str | None = None) -> str:
    return f"invalid hardware config file '{source}'" if source else f"invalid hardware config '{name}'"


def validate(cfg: HardwareConfig, source: str | None = None) -> HardwareConfig:
    """Raise ``ConfigError`` (one line naming ``source`` -- the file -- or the
    config, and the field) unless every field has its type and range
    (``FIELD_RANGES``) and the fields describe a possible machine (each
    part's checks, in ``PARTS`` order)."""
    where = _where(cfg.name, source)
    for f in fields(HardwareConfig):
        check_value(where, f.name, FIELD_RANGES[f.name], getattr(cfg, f.name))
    for part in PARTS:
        for check in part.checks:
            check(cfg, where)
    return cfg


def flat_fields(data: Mapping[str, Any], bad: Callable[[str], ConfigError]) -> dict[str, Any]:
    """A config file's (or dict's) values as fields: each part's section (``[sram]``, ...)
    gives that part's fields (``[energy]`` the energy table), a key at the top
    level a field by its name; a field given twice, or in another part's
    section, is an error (``bad(message)``)."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        part = SECTIONS.get(key)
        if part is None:
            if isinstance(value, Mapping) and key not in CONFIG_FIELDS:  # a table that is no part's
                raise bad(f"[{key}] is not a section (the parts: {', '.join(f'[{s}]' for s in SECTIONS)})")
            if key in out:
                raise bad(f"{key} is given twice (at the top level and in [{PART_OF[key].section}])")
            out[key] = value
            continue
        if part.table is not None:  # [energy]: the entries of one table field
            if part.table in data or part.table in out:
                raise bad(f"give {part.title} once, as [{part.section}] or {part.table}")
            out[part.table] = value
            continue
        if not isinstance(value, Mapping):
            raise bad(f"{key} must be a table (the [{key}] section: {part.title}), got {show(value)}")
        for k, v in value.items():
            if PART_OF.get(k) is not part:
                elsewhere = PART_OF.get(k)
                raise bad(f"[{key}] has no field {show(k)}" + (f" (it is a field of [{elsewhere.section}])" if elsewhere else ""))
            if k in data or k in out:
                raise bad(f"{k} is given twice (at the top level and in [{key}])")
            out[k] = v
    return out


# ---------------------------------------------------------------------------
# Built-in configurations
# ---------------------------------------------------------------------------

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
    check_value(where, "name", FIELD_RANGES["name"], name)
    values = dict(values)
    energy = dict(DEFAULT_ENERGY_PJ)
    base_name = values.pop("base", None)
    if base_name is not None:
        if not isinstance(base_name, str) or base_name not in BUILTIN:
            raise ConfigError(f"{where}: base must be a built-in config ({', '.join(BUILTIN)}), got {show(base_name)}")
        energy.update(BUILTIN[base_name].get("energy_pj", {}))
        values = {**BUILTIN[base_name], **values}
    values.pop("name", None)
    known = {f.name for f in fields(HardwareConfig)} - {"name"}
    unknown = set(values) - known
    if unknown:
        raise ConfigError(f"{where}: unknown fields {sorted(map(str, unknown))}")
    if "energy_pj" in values:
        given = values["energy_pj"]
        check_value(where, "energy", FIELD_RANGES["energy_pj"], given)
        energy.update(given)
    values["energy_pj"] = energy_values(where, energy)
    # type and range before building: a bad value never reaches arithmetic
    for k, v in values.items():
        if k != "energy_pj":
            values[k] = check_value(where, k, FIELD_RANGES[k], v)
    return validate(HardwareConfig(name=name, **values), source)



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
    name = data.pop("name", path.stem)
    return _build(name, flat_fields(data, bad), str(path))


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
        name = d.pop("name", "custom")
        cfg = _build(name, flat_fields(d, lambda msg: ConfigError(f"{_where(str(name))}: {msg}")))
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
            check_value(where, "energy", FIELD_RANGES["energy_pj"], overrides["energy_pj"])
            overrides["energy_pj"] = energy_values(where, {**cfg.energy_pj, **overrides["energy_pj"]})
        for k, v in overrides.items():
            if k != "energy_pj":
                overrides[k] = check_value(where, k, FIELD_RANGES[k], v)
        cfg = replace(cfg, **overrides)
    return validate(cfg, source)
