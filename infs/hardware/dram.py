"""DRAM and its memory controllers (ASPLOS Table 2), section ``[dram]``.

Takes nothing but the field machinery.  Gives ``PART``: the DRAM bandwidth
(``dram_gbps``, a finite number in 0.001..1e5) and the memory controllers on
the mesh's two edge columns (``mem_ctrls``, 1..2 x mesh_rows), with their
defaults (paper-64), ranges and sources, and the check that the controllers
fit on those columns.
"""

from __future__ import annotations

from infs.hardware.part_fields import TABLE_2, ConfigError, ConfigField, FieldRange, Part

FIELDS = (
    ConfigField(
        "dram_gbps", "float", 25.6,
        FieldRange("number", 0.001, 1e5, "a bandwidth", "a bandwidth"),
        TABLE_2 + ": 3200MHz DDR4 25.6 GB/s", "Fig. 14 (DRAM cycles, cold runs)",
    ),
    ConfigField(
        "mem_ctrls", "int", 16,
        FieldRange("int", 1, 128),  # also <= 2 x mesh_rows (the two edge columns)
        TABLE_2 + ": 16 mem. ctrls", "Fig. 12/13 (DRAM NoC traffic)",
    ),
)


def _controllers_fit_the_edges(cfg, where: str) -> None:
    if cfg.mem_ctrls > 2 * cfg.mesh_rows:
        raise ConfigError(f"{where}: mem_ctrls: {cfg.mem_ctrls} memory controllers do not fit on the mesh's two edge columns ({2 * cfg.mesh_rows} places)")


PART = Part("dram", "DRAM and its memory controllers", FIELDS, (_controllers_fit_the_edges,))
