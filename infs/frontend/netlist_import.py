"""Netlists in: ISCAS85 ``.bench`` and BLIF files as CIRCT ``hw``/``comb`` IR (STREAM's input, §IV-A).

Takes a file path (or text and its name); gives a ``builtin.module`` holding
one ``hw.module`` of ``comb.and``/``comb.or``/``comb.xor`` ops (NOT as XOR with
``true``, as CIRCT writes it) whose ports are the netlist's inputs and
outputs.  A malformed file is one ``NetlistError`` line naming the file and
the line (``infs-opt --import-bench`` / ``--import-blif`` print it).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from infs.dialects.netlist_records import Netlist, NetlistError, parse_bench, parse_blif
from infs.dialects.xbar import netlist_to_hw

__all__ = ["NetlistError", "import_netlist", "netlist_module", "read_netlist"]


def read_netlist(path: str, kind: str | None = None) -> Netlist:
    """The netlist of a ``.bench`` or ``.blif`` file (``kind`` 'bench' / 'blif', else by the suffix)."""
    kind = kind or ("blif" if path.endswith(".blif") else "bench")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError:
        raise NetlistError(f"{path}:1: not a UTF-8 text file") from None
    return parse_blif(text, path) if kind == "blif" else parse_bench(text, path)


def netlist_module(netlist: Netlist) -> ModuleOp:
    return ModuleOp([netlist_to_hw(netlist)])


def import_netlist(path: str, kind: str | None = None) -> ModuleOp:
    """``path`` read (``read_netlist``) as a module of one ``hw.module``."""
    return netlist_module(read_netlist(path, kind))
