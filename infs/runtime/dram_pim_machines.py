"""The GPU + DRAM-PIM machines ``infs-run --config`` names, and which of PIMFlow's
configurations (CGO'23 §5) each one is.

Takes nothing; gives ``MACHINES`` (a machine's name -> its configuration in
``runtime/pimflow.CONFIGS`` and what it is).  The tools read it to tell a
DRAM-PIM machine from an in-SRAM one before loading the runtime, so this
module imports nothing.

Pipelining (PIMFlow-pl, PIMFlow) is planned by ``runtime/pimflow`` but not
executed by ``runtime/dram_pim_run``, whose layers run one after the other:
those configurations are not machines here.
"""

from __future__ import annotations

# name -> (PIMFlow's configuration, what it is)
MACHINES: dict[str, tuple[str, str]] = {
    "gpu-dram-pim": ("PIMFlow-md", "RTX 2060 + GDDR6 with 16 of 32 channels Newton++ PIM, MD-DP splits (PIMFlow §5, PIMFlow-md)"),
    "gpu+newton-plus": ("Newton+", "RTX 2060 + GDDR6 with 16 of 32 channels Newton PIM, whole layers only (PIMFlow §5, Newton+)"),
    "gpu+newton++": ("Newton++", "RTX 2060 + GDDR6 with 16 of 32 channels Newton++ PIM, whole layers only (PIMFlow §5, Newton++)"),
    "gpu-only": ("Baseline", "RTX 2060 with all 32 GDDR6 channels, no PIM (PIMFlow §5, Baseline)"),
}
