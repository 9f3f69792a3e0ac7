"""infs as an xDSL plugin: its dialects and passes for every xDSL tool.

``pyproject.toml`` names ``INFS_UNIVERSE`` under the ``xdsl.universe`` entry
point, so once infs is installed ``xdsl-opt -p tensorize``, ``xdsl-gui`` and
the other xDSL tools find them through ``Universe.get_multiverse()``.  Loading
this module is cheap: every factory imports its dialect or pass on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from xdsl.ir import Dialect
from xdsl.universe import Universe

from infs.passes.pipelines import INFS_PASSES

# dialect name -> (module, attribute), as in infs.dialects.INFS_DIALECTS
_DIALECTS = {
    "lattice": ("infs.dialects.lattice", "Lattice"),
    "stream": ("infs.dialects.stream", "Stream"),
    "tdfg": ("infs.dialects.tdfg", "TDFG"),
    "pimcmd": ("infs.dialects.pimcmd", "PIMCMD"),
    "dram_pim": ("infs.dialects.dram_pim", "DRAM_PIM"),
    "xbar": ("infs.dialects.xbar", "XBAR"),
}


def _dialect(module: str, name: str) -> Callable[[], Dialect]:
    def factory() -> Dialect:
        return getattr(importlib.import_module(module), name)

    return factory


INFS_UNIVERSE = Universe(
    all_dialects={name: _dialect(*where) for name, where in _DIALECTS.items()},
    all_passes=dict(INFS_PASSES),
)
