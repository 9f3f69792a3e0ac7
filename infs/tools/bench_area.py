"""Chip area overhead of in-/near-memory computing for a machine configuration (ASPLOS §8
"Energy and Area": 6.52% for its Table 2 machine).

Takes a ``HardwareConfig`` and gives its added area (in-memory compute logic per compute
bitline, near-memory stream engines per bank), the chip's area and their ratio.  The paper
adds in-memory logic (66.75 mm^2, from Neural Cache's die analysis with COFFE subcircuit
areas) and near-memory logic (28.16 mm^2, from Near-Stream Computing) to the McPAT area of
the CPU (22 nm) and gets 6.52%.  Neither paper prints the chip area itself; each prints an
overhead ratio with the areas added, which gives two chip areas, one per L3 size: ASPLOS
(64 OOO8 cores, 144 MB L3) and NSC (the same cores and mesh, 64 MB L3, 2.1% for OOO8).
The chip area is the line through those two points (cores and uncore + area per L3 MB).
"""

from __future__ import annotations

from dataclasses import dataclass

# ASPLOS §8 "Energy and Area" (asplos:532): "additional logic for in-memory compute (66.75mm^2)",
# Neural Cache's die analysis, subcircuit areas from COFFE (footnote 2, asplos:536).
IN_MEMORY_MM2 = 66.75
# ASPLOS §7 (asplos:477) "In total, it has 4M bitlines": Table 2's 64 banks x 16 compute ways x
# 16 arrays x 256 bitlines -- the bitlines the 66.75 mm^2 make compute (sense amps and write
# drivers per bitline, asplos:532), so the logic is priced per compute bitline.
PAPER_COMPUTE_BITLINES = 64 * 16 * 16 * 256
# ASPLOS §8 (asplos:532): "near-memory support (28.16mm^2)", Near-Stream Computing's logic [64].
NEAR_MEMORY_MM2 = 28.16
PAPER_BANKS = 64  # ASPLOS Table 2: 8x8 tiles, one SE_L3 per L3 bank
# ASPLOS §8 (asplos:532): "the whole chip area overhead is 6.52%".
PAPER_OVERHEAD = 0.0652
PAPER_L3_MB = 144.0  # ASPLOS Table 2: 64 banks x 18 ways x 16 arrays x 8 kB = 144 MB
# NSC §VI-A "Area" (nsc:403): "the whole chip area overhead is ... 2.1% for OOO8", with 1 MB per L3
# bank (NSC Table V, nsc:337) on the same 8x8 mesh: 64 MB.  The added logic is NSC's own, the
# 28.16 mm^2 ASPLOS cites for it.
NSC_OVERHEAD = 0.021
NSC_L3_MB = 64.0
# NSC's per-tile components (nsc:403), shown beside the per-bank total: SE_L3's 64 kB buffer
# 0.195 mm^2, its stream configuration (48 kB) 0.11 mm^2, SE_core's stream buffer 0.09 mm^2.
NSC_TILE_PARTS_MM2 = {"SE_L3 buffer": 0.195, "SE_L3 configuration": 0.11, "SE_core buffer": 0.09}

_ASPLOS_CHIP = (IN_MEMORY_MM2 + NEAR_MEMORY_MM2) / PAPER_OVERHEAD
_NSC_CHIP = NEAR_MEMORY_MM2 / NSC_OVERHEAD
L3_MM2_PER_MB = (_ASPLOS_CHIP - _NSC_CHIP) / (PAPER_L3_MB - NSC_L3_MB)
CORES_AND_UNCORE_MM2 = _ASPLOS_CHIP - L3_MM2_PER_MB * PAPER_L3_MB


@dataclass(frozen=True)
class Area:
    in_memory_mm2: float
    near_memory_mm2: float
    chip_mm2: float
    compute_bitlines: int
    banks: int
    l3_mb: float

    @property
    def overhead(self) -> float:
        """Added area over the chip without it (the paper's "whole chip area overhead")."""
        return (self.in_memory_mm2 + self.near_memory_mm2) / self.chip_mm2


def area(cfg) -> Area:
    """The area model of module docstring for ``cfg`` (scaled per compute bitline, per bank
    and per L3 MB; the cores are the paper's 64 -- McPAT's per-core area is not printed)."""
    l3_mb = cfg.l3_bytes / 2**20
    return Area(
        in_memory_mm2=IN_MEMORY_MM2 * cfg.total_bitlines / PAPER_COMPUTE_BITLINES,
        near_memory_mm2=NEAR_MEMORY_MM2 * cfg.banks / PAPER_BANKS,
        chip_mm2=CORES_AND_UNCORE_MM2 + L3_MM2_PER_MB * l3_mb,
        compute_bitlines=cfg.total_bitlines,
        banks=cfg.banks,
        l3_mb=l3_mb,
    )


def describe(a: Area, name: str) -> str:
    """One sentence: the terms of the overhead for machine ``name``."""
    parts = ", ".join(f"{k} {v} mm^2" for k, v in NSC_TILE_PARTS_MM2.items())
    return (f"`{name}`: in-memory logic {a.in_memory_mm2:.2f} mm^2 ({a.compute_bitlines:,} compute bitlines at "
            f"{IN_MEMORY_MM2:g} mm^2 per {PAPER_COMPUTE_BITLINES:,}), near-memory logic {a.near_memory_mm2:.2f} mm^2 "
            f"({a.banks} banks at {NEAR_MEMORY_MM2 / PAPER_BANKS:.3f} mm^2; NSC's {parts} and the rest), chip "
            f"{a.chip_mm2:,.0f} mm^2 ({CORES_AND_UNCORE_MM2:,.0f} mm^2 of cores and uncore + {a.l3_mb:g} MB of L3 at "
            f"{L3_MM2_PER_MB:.2f} mm^2/MB, the line through ASPLOS's and NSC's implied chip areas): {a.overhead:.2%}.")  # fmt: skip
