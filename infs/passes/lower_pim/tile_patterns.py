"""Bitline and tile patterns of a decomposed box (shared by the lowering passes).

A decomposed box (``decompose``) is, in every dim, either inside one tile or
a run of whole tiles; so its cells are the cross product of a box of tiles
(row-major over the tile grid) and a box of in-tile coordinates (row-major
inside the tile): two ``start:stride:count`` patterns (§4.2, Fig. 9).
"""

from __future__ import annotations

from functools import lru_cache

from infs.dialects.lattice_values import Domain, Pattern
from infs.dialects.pimcmd_schema import tile_grid
from infs.dialects.pimcmd_records import Box, PimProgram
from infs.passes.lowering_errors import LoweringError


def tile_ranges(box: Box, prog: PimProgram) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """(tile index range, in-tile range) per dim; the in-tile range is exact
    for a decomposed box and the covering range otherwise."""
    tr, ir = [], []
    for (p, q), t in zip(box, prog.tiles):
        ta, tb = p // t, (q - 1) // t + 1
        tr.append((ta, tb))
        ir.append((p - ta * t, q - ta * t) if tb - ta == 1 else (0, t))
    return tuple(tr), tuple(ir)


def is_product_form(box: Box, prog: PimProgram) -> bool:
    for (p, q), t in zip(box, prog.tiles):
        if (p // t) != ((q - 1) // t) and (p % t or q % t):
            return False
    return True


def patterns(tr, ir, prog: PimProgram) -> tuple[Pattern, Pattern]:
    """(bitline pattern, tile pattern) of a tile box x in-tile box."""
    return _box_pattern(tuple(ir), prog.tiles), _box_pattern(tuple(tr), _grid(prog.lattice, prog.tiles))


@lru_cache(maxsize=1024)
def _grid(lattice: tuple[int, ...], tiles: tuple[int, ...]) -> tuple[int, ...]:
    """``TiledLattice.grid``, once per (lattice, tiles): asked per command."""
    return tile_grid(lattice, tiles)


@lru_cache(maxsize=65536)
def _box_pattern(ranges: tuple[tuple[int, int], ...], shape: tuple[int, ...]) -> Pattern:
    return Pattern.box([a for a, _ in ranges], [b for _, b in ranges], shape)


def box_patterns(box: Box, prog: PimProgram, exact: bool = True) -> tuple[Pattern, Pattern]:
    if exact and not is_product_form(box, prog):
        raise LoweringError(f"box {Domain.of(box)} is not decomposed along tile boundaries (run decompose first)")
    tr, ir = tile_ranges(box, prog)
    return patterns(tr, ir, prog)
