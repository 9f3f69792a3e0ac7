"""``map-banks``: the L3 banks each command applies to (ASPLOS §4.2, step 3).

Takes: a pattern-form program.  Gives: every compute/shift/bcast/readout/
writein command with ``banks``, the banks holding any tile of its tile
pattern (tile ``t`` is in bank ``t // arrays_per_bank``); other banks skip
the command.  Exact when the bank set is an arithmetic progression, else the
covering range (a bank with no selected tile then just does nothing).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from infs.dialects.lattice import Pattern
from infs.passes.pim_program import Cmd, PimProgram, rewrite_programs

PATTERN_KINDS = ("compute", "shift", "bcast", "readout", "writein")


def bank_pattern(tiles: Pattern, per_bank: int) -> Pattern:
    banks = np.unique(tiles.expand() // per_bank)
    exact = Pattern.from_indices(banks)
    if exact is not None:
        return exact
    return Pattern.range(int(banks[0]), int(banks[-1]) + 1)


def map_banks(prog: PimProgram) -> PimProgram:
    cache: dict[Pattern, Pattern] = {}
    out: list[Cmd] = []
    for c in prog.cmds:
        if c.kind in PATTERN_KINDS and c.get("tiles") is not None:
            t = c["tiles"]
            if t not in cache:
                cache[t] = bank_pattern(t, prog.per_bank)
            out.append(c.with_(banks=cache[t]))
        else:
            out.append(c)
    return prog.with_cmds(out)


@dataclass(frozen=True)
class MapBanksPass(ModulePass):
    name = "map-banks"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewrite_programs(op, map_banks)
