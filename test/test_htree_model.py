"""The bank's H-tree priced in the shape of the authors' gem5 model.

gem5 (``PUMEngine::estimateCommandLatency``, inter-array commands) charges
``ceil(bitlines / 32) x bits`` cycles per array transfer at each level of a
degree-2 tree over the arrays of a way, then the way level, then the bank level
(``DataMoveCompiler::compileInterArrayShift``'s ``split``s); the levels add up,
the sub-trees of a level run in parallel, the ways are read in parallel.  The
counts below are worked out by hand from those sources for paper-64 (16 arrays
per way, 16 compute ways, 256 bitlines).
"""

from __future__ import annotations

import numpy as np
import pytest

from infs import cost_formulas as cf
from infs.hardware import load_config
from infs.sim.sram.timing import CostModel
from infs.hardware import get_profile

P64 = dict(degree=2, levels=5, arrays_per_way=16, ways=16)


def _arrays(src, dst, apb=256, **kw):
    src, dst = np.asarray(src), np.asarray(dst)
    lvl = cf.htree_lca_levels(src % apb, np.minimum(dst, apb - 1) % apb, kw["degree"], kw["levels"], kw["arrays_per_way"], kw["ways"])
    remote = dst // apb != src // apb
    return cf.htree_level_arrays(src // apb, src % apb, np.where(remote, 0, lvl), remote, kw["degree"], kw["levels"], kw["arrays_per_way"], kw["ways"])


def test_lca_levels_in_a_way_then_the_way_level():
    lvl = cf.htree_lca_levels(np.array([0, 0, 0, 0, 0, 0]), np.array([0, 1, 2, 8, 15, 16]), **P64)
    assert list(lvl) == [0, 1, 2, 4, 4, 5]


def test_a_shift_by_one_array_of_a_whole_bank():
    """Every array of a bank to the next one: one crossing per in-way level (4), the
    15 ways whose last array crosses into the next way, the last array leaving the
    bank: 20 array transfers, gem5's count (split(1,2,1) .. split(16,16,1), split(256,64,1))."""
    src = np.arange(256)
    assert _arrays(src, src + 1, **P64) == 4 + 15 + 1


def test_a_shift_by_a_whole_bank_is_ways_at_a_time():
    """Every array to the next bank: gem5 charges min(256, 16 ways) transfers (parallel way
    read) -- 16 x 4 B per cycle = Table 2's 64 B per bank."""
    src = np.arange(256)
    assert _arrays(src, src + 256, **P64) == 16


def test_a_multicast_source_is_charged_once_at_its_top_level():
    """One array broadcast to the 15 other arrays of its way: one transfer at the top
    in-way level (the tree fans it out below)."""
    n = cf.htree_level_arrays(np.zeros(1), np.zeros(1), np.array([4]), np.array([False]), **P64)
    assert n == 1


def test_array_cycles():
    assert cf.htree_array_cycles(256, 32, 4) == 8 * 32
    assert cf.htree_array_cycles(16, 32, 4) == 32
    assert cf.htree_array_cycles(33, 8, 4) == 2 * 8


@pytest.mark.parametrize("levels", [1, 2, 3])
def test_coarse_trees_join_the_rest_at_their_top(levels):
    """A tree with fewer levels than a way needs: the top in-way node joins the rest of
    the way (one level: the whole bank); every array is still reached."""
    kw = dict(P64, levels=levels)
    lvl = cf.htree_lca_levels(np.zeros(256, dtype=np.int64), np.arange(256), **kw)
    assert lvl.max() == levels and lvl[0] == 0
    assert _arrays(np.arange(256), np.arange(256) + 1, **kw) >= 1


def test_timing_charges_the_gem5_shape():
    """paper-64, a shift by one tile of a bank's 256 f32 tiles (256 bitlines each): the
    bank side is 20 transfers x ceil(256 / 32) x 32 cycles + 2 x 5 levels."""
    cfg = load_config("paper-64")
    cm = CostModel(cfg, get_profile(cfg.profile))
    from infs.sim.stats import Cost

    cost = Cost("move")
    src = np.arange(256, dtype=np.int64)
    cycles = cm._inter_tile(cost, 32, 256, src, src + 1, multicast=False)
    assert cycles >= 20 * 256 + 10
    assert cycles == max(20 * 256, 1024 // 32) + 10
