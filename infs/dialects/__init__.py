"""The infs dialects: ``lattice`` (shared attributes), ``stream``, ``tdfg``, ``pimcmd``,
``dram_pim`` (Newton's DRAM-PIM commands);
``parse`` reads and verifies programs in them.  What their elements and
element-wise ops are is ``infs.element_types``, on the ground floor.

The dialect objects are loaded on first use (PEP 562), so that importing one
module of the package (``infs.dialects.parse``, which ``import infs.api``
loads) does not load every dialect: parsing loads those it meets.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from infs.dialects.dram_pim import DRAM_PIM
    from infs.dialects.lattice import Lattice
    from infs.dialects.pimcmd import PIMCMD
    from infs.dialects.stream import Stream
    from infs.dialects.tdfg import TDFG
    from infs.dialects.xbar import XBAR

_DIALECTS = {"Lattice": "lattice", "Stream": "stream", "TDFG": "tdfg", "PIMCMD": "pimcmd", "DRAM_PIM": "dram_pim"}  # INFS_DIALECTS order
_DIALECTS["XBAR"] = "xbar"  # the crossbar target's netlist nodes and kernels (STREAM)

__all__ = ["DRAM_PIM", "INFS_DIALECTS", "Lattice", "PIMCMD", "Stream", "TDFG"]
__all__ += ["XBAR"]


def __getattr__(name: str) -> Any:
    if name in _DIALECTS:
        return getattr(import_module(f"infs.dialects.{_DIALECTS[name]}"), name)
    if name == "INFS_DIALECTS":
        return tuple(__getattr__(n) for n in _DIALECTS)
    raise AttributeError(f"module 'infs.dialects' has no attribute '{name}'")
