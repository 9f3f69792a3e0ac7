"""Where a region may run, and who decides: the names the runtime and the tools share.

``MODES``: ``auto`` (the runtime decides, ASPLOS §4.3), ``in`` (in memory, the
SRAM arrays), ``near`` (near memory, the L3 banks' stream engines, NSC) or
``core`` (the cores); ``POLICIES``: who decides an ``auto`` region.  The
driver (``infs.runtime.driver.RunOptions``) reads them; the tools list them
in their ``--help`` without loading the runtime, so this module imports
nothing.
"""

from __future__ import annotations

MODES = ("auto", "in", "near", "core")
# Who decides where an ``auto`` region runs (``RunOptions.policy``):
# * ``eq2`` (default, Inf-S): ASPLOS §4.3's Eq. 2 (``RegionRuntime.decide``);
# * ``lowerable``: the authors' gem5 artifact, which has no Eq. 2 -- it offloads a
#   region to the SRAM arrays whenever its patterns compile
#   (gem-forge-gem5, branch gem-forge, src/cpu/gem_forge/accelerator/stream/cache/
#   pum/MLCPUMManager.cc, MLCPUMManager::canApplyPUMToGroup, lines 346-476: no cost
#   test, only whether the streams are affine, eliminated, of known trip count and
#   accepted by the DataMoveCompiler), else runs it near memory (its streams float
#   to the L3), else on the cores.  Here: in memory whenever the region lowers
#   (tensorize, a layout, the wordlines fit; in chunks if need be).
POLICIES = ("eq2", "lowerable")
