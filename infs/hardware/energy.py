"""The energy constants (picojoules per event) and their sources, section ``[energy]``.

Takes nothing but the field machinery.  Gives ``PART``: one field,
``energy_pj``, the table of constants the statistics price events with
(``sim/energy.py``), whose entries a config's ``[energy]`` section (or
``energy.KEY=value`` inline) overrides; ``DEFAULT_ENERGY_PJ`` (paper-64's),
``ENERGY_SOURCES`` (the derivation of each: paper, tool, figure),
``ENERGY_FIGURES`` (the figure each moves most), and the checks that a
config has every constant, no other, each a number in [0, ``MAX_ENERGY_PJ``].
``vector_op`` is one 512-bit SIMD op (core or stream engine);
``sram_read_byte`` also prices L3 line reads/writes of streams and cores.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from infs.hardware.part_fields import ConfigError, ConfigField, FieldRange, Part, check_value

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

MAX_ENERGY_PJ = 1e9  # a millijoule per event: beyond any constant of this kind

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


FIELDS = (
    ConfigField(
        "energy_pj", "Mapping[str, float]", lambda: dict(DEFAULT_ENERGY_PJ),
        FieldRange("table"),  # every key of DEFAULT_ENERGY_PJ, each a number in [0, MAX_ENERGY_PJ]
    ),
)


def energy_values(where: str, energy: Mapping[Any, Any]) -> dict[Any, Any]:
    """Energy constants as floats (unknown keys are left to the checks' message)."""
    num = FieldRange("number", 0, MAX_ENERGY_PJ)
    return {k: check_value(where, f"energy.{k}", num, v) if k in DEFAULT_ENERGY_PJ else v for k, v in energy.items()}


def _every_constant_once(cfg, where: str) -> None:
    unknown = set(cfg.energy_pj) - set(DEFAULT_ENERGY_PJ)
    if unknown:
        raise ConfigError(f"{where}: energy: unknown energy constants {sorted(map(str, unknown))} (known: {', '.join(DEFAULT_ENERGY_PJ)})")
    missing = set(DEFAULT_ENERGY_PJ) - set(cfg.energy_pj)
    if missing:
        raise ConfigError(f"{where}: energy: missing energy constants {sorted(missing)}")
    for k, v in cfg.energy_pj.items():
        check_value(where, f"energy.{k}", FieldRange("number", 0, MAX_ENERGY_PJ), v)


PART = Part("energy", "the energy constants", FIELDS, (_every_constant_once,), table="energy_pj")
