"""Energy model: quantities counted by the cost model times per-unit constants.

The constants live in the hardware config (``HardwareConfig.energy_pj``); the
paper takes SRAM and H-tree energy from CACTI (ASPLOS §8): compute involves
only the SRAM arrays, a tensor move the arrays and the H-tree (and the NoC
when it crosses banks).

Quantities (all counted by ``timing.py`` from a command's patterns):

``bitline_cycles``    bitlines x bit-serial cycles of compute commands
``shift_bit_steps``   bits moved one bitline inside an array (intra-tile)
``htree_byte_levels`` bytes x H-tree levels traversed (inter-tile, readout, fill)
``noc_byte_hops``     bytes x hops on the mesh (data and control)
``dram_bytes``        bytes transferred from/to DRAM
``transpose_bytes``   bytes through the transpose unit
``readout_bytes``     bytes read conventionally out of arrays
``l3_bytes``          bytes read/written by L3 line accesses (streams, cores)
``vector_ops``        512-bit SIMD ops of cores and L3 stream engines

Static energy is not a quantity of a command: the machine charges
``HardwareConfig.static_pj_per_cycle`` for every cycle it charges, to the
``static`` class -- 15% (``static_fraction``) of the machine's peak dynamic
power, as the authors' energy script replaces McPAT's static power
(gem-forge-transform energy.py:33-37).  Each constant's source is
``hardware.ENERGY_SOURCES``.
"""

from __future__ import annotations

from typing import Mapping

from infs.sim.config import HardwareConfig

# quantity -> (energy class, constant name)
ENERGY_OF: dict[str, tuple[str, str]] = {
    "bitline_cycles": ("compute", "compute_bitline_cycle"),
    "shift_bit_steps": ("intra_tile", "shift_bitline_bit"),
    "htree_byte_levels": ("inter_tile", "htree_byte_level"),
    "noc_byte_hops": ("noc", "noc_byte_hop"),
    "dram_bytes": ("dram", "dram_byte"),
    "transpose_bytes": ("dram", "transpose_byte"),
    "readout_bytes": ("readout", "sram_read_byte"),
    "l3_bytes": ("readout", "sram_read_byte"),
    "vector_ops": ("compute", "vector_op"),
}


def energy_pj(cfg: HardwareConfig, quantities: Mapping[str, float]) -> dict[str, float]:
    """Energy (pJ) per class for the given quantities."""
    out: dict[str, float] = {}
    for q, amount in quantities.items():
        cls, const = ENERGY_OF[q]
        out[cls] = out.get(cls, 0.0) + float(amount) * cfg.energy(const)
    return out
