"""The infs dialects: ``lattice`` (shared attributes), ``stream``, ``tdfg``, ``pimcmd``."""

from infs.dialects.lattice import Lattice
from infs.dialects.pimcmd import PIMCMD
from infs.dialects.stream import Stream
from infs.dialects.tdfg import TDFG

INFS_DIALECTS = (Lattice, Stream, TDFG, PIMCMD)

__all__ = ["INFS_DIALECTS", "Lattice", "PIMCMD", "Stream", "TDFG"]
