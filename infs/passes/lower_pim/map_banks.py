"""``map-banks``: the L3 banks each command applies to (ASPLOS §4.2, step 3).

Takes: a pattern-form program.  Gives: every compute/shift/bcast/readout/
writein command with ``banks``, the banks holding any tile of its tile
pattern (tile ``t`` is in bank ``t // arrays_per_bank``); other banks skip
the command.  Exact when the bank set is an arithmetic progression, else the
covering range (a bank with no selected tile then just does nothing).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from infs.dialects.lattice_values import Pattern
from infs.dialects.pimcmd_records import PimProgram
from infs.passes.lower_pim.pim_program import record_pass


def bank_set(tiles: Pattern, per_bank: int) -> np.ndarray:
    """Banks holding the pattern's tiles, from its runs of consecutive tiles
    (the cost follows the number of runs, not of tiles)."""
    (s0, c0), *outer = tiles.levels
    if s0 == 1:
        starts = Pattern(tiles.start, tuple(outer)).expand() if outer else np.array([tiles.start], dtype=np.int64)
        lo, hi = starts // per_bank, (starts + c0 - 1) // per_bank
        if np.all(hi - lo <= 1):
            return np.unique(np.concatenate([lo, hi]))
        n = int(hi.max()) + 2
        diff = np.zeros(n, dtype=np.int64)
        np.add.at(diff, lo, 1)
        np.add.at(diff, hi + 1, -1)
        return np.flatnonzero(np.cumsum(diff)[:-1] > 0)
    return np.unique(tiles.expand() // per_bank)


@lru_cache(maxsize=65536)
def bank_pattern(tiles: Pattern, per_bank: int) -> Pattern:
    banks = bank_set(tiles, per_bank)
    return Pattern.from_indices(banks) or Pattern.range(int(banks[0]), int(banks[-1]) + 1)  # exact, or the covering range


def map_banks(prog: PimProgram) -> PimProgram:
    return prog.with_cmds([
        c.with_(banks=bank_pattern(c.tiles, prog.per_bank)) if c.kind.PATTERNED and c.tiles is not None else c
        for c in prog.cmds
    ])  # fmt: skip


__getattr__ = record_pass("map-banks", map_banks)  # MapBanksPass, built on first use
