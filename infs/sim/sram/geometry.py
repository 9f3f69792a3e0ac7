"""Tiled-layout geometry shared by the machine and its cost model (ASPLOS §4.1, §4.2).

The program's lattice is cut into tiles of shape ``T``; tiles are numbered
row-major over the tile grid, cells inside a tile likewise, so cell ``(t, b)``
lives on bitline ``b`` of SRAM array ``t`` (bank ``t // arrays_per_bank``).
A register is one numpy vector over all ``num_tiles * B`` cells, tile-major,
which this module views as ``[tiles..., bitlines...]``.

Every command's cell set is the cross product of a tile set and an in-tile
bitline set.  Moves (shift / bcast) are therefore products of a *tile map*
(source tiles -> destination tiles) and a *bitline map* (source bitlines ->
destination bitlines); each map is turned into the cheapest numpy index form:
one slice over the flat axis, one slice per dimension (a box), or an index
array.  No loop here runs over cells, tiles or banks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from infs.dialects.pimcmd_schema import TiledLattice
from infs.dialects.lattice_values import Pattern
from infs.unique_ints import unique_ints


@dataclass(frozen=True)
class Geometry(TiledLattice):
    """Tile grid and tile shape of one ``pimcmd.program``."""

    lattice: tuple[int, ...]
    tiles: tuple[int, ...]  # tile shape T
    per_bank: int

    @property
    def B(self) -> int:
        return self.bitlines

    @property
    def cells(self) -> int:
        return self.num_tiles * self.B

    def tstride(self, d: int) -> int:
        """Tile-number distance between neighbours along lattice dim ``d``."""
        return math.prod(self.grid[d + 1 :])

    def bstride(self, d: int) -> int:
        """Bitline distance between neighbours along ``d`` inside a tile."""
        return math.prod(self.tiles[d + 1 :])


def _ascending(p: Pattern) -> bool:
    """The pattern expands strictly increasing: each level's stride is positive and
    larger than the span of the levels inside it (a row-major box, a strided range)."""
    span = 0
    for stride, count in p.levels:
        if count > 1:
            if stride <= span:
                return False
            span += stride * (count - 1)
    return True


@lru_cache(maxsize=4096)
def pattern_set(p: Pattern) -> np.ndarray:
    """Sorted unique indices of a pattern (read-only)."""
    out = p.expand() if _ascending(p) else np.unique(p.expand())
    out.setflags(write=False)
    return out


def bank_set(geo: Geometry, tiles: np.ndarray, banks: Pattern | None) -> np.ndarray:
    """Banks a command applies to: its ``banks`` pattern, else those holding its tiles (§4.2 step 3)."""
    if banks is not None:
        return pattern_set(banks)
    return unique_ints(tiles // geo.per_bank)


# ---------------------------------------------------------------------------
# Index forms
# ---------------------------------------------------------------------------


def _progression(a: np.ndarray) -> slice | None:
    """``slice`` equal to ``a`` (ascending arithmetic progression), else None."""
    n = a.size
    if n == 0:
        return None
    if n == 1:
        return slice(int(a[0]), int(a[0]) + 1)
    first, last = int(a[0]), int(a[-1])
    step = int(a[1]) - first
    # the span rules out most non-progressions before any array op; then every
    # difference (a[1:] - a[:-1], not np.diff/np.all: their Python layers cost
    # more than the work on the few-hundred-element sets of a plan)
    if step <= 0 or last - first != step * (n - 1):
        return None
    if n > 2 and not ((a[1:] - a[:-1]) == step).all():
        return None
    return slice(first, last + 1, step)


def _box(a: np.ndarray, shape: tuple[int, ...]) -> tuple[list[np.ndarray], np.ndarray] | None:
    """Per-dim coordinate sets if the sorted unique index set ``a`` is a box in ``shape``.

    Returns (per-dim sorted coordinates, coordinates of ``a`` as an [n, len] array)."""
    coords = np.stack(np.unravel_index(a, shape)) if a.size else np.zeros((len(shape), 0), np.int64)
    uniq = [np.unique(c) for c in coords]
    if math.prod(u.size for u in uniq) != a.size:
        return None
    return uniq, coords


@dataclass(frozen=True)
class AxisMap:
    """One factor (tiles or bitlines) of a move or selection, as numpy index parts.

    ``kind`` is ``flat`` (one slice per side over the flat axis), ``dims`` (one
    slice per dimension: the view splits the axis into ``shape``) or ``fancy``
    (index arrays).  ``src``/``dst`` hold the index parts for each side."""

    kind: str
    shape: tuple[int, ...]  # the axis' view shape: (n,) or the per-dim shape
    src: tuple
    dst: tuple
    count: int  # number of (source, destination) pairs

    @property
    def empty(self) -> bool:
        return self.count == 0


def axis_map(src: np.ndarray, dst: np.ndarray, shape: tuple[int, ...]) -> AxisMap:
    """The cheapest index form mapping ``src[i] -> dst[i]`` inside an axis of ``shape``."""
    n = math.prod(shape)
    if src.size == 0:
        return AxisMap("flat", (n,), (slice(0, 0),), (slice(0, 0),), 0)
    ss = _progression(src)
    ds = ss if dst is src else _progression(dst)
    if ss is not None and ds is not None and ss.step == ds.step:
        return AxisMap("flat", (n,), (ss,), (ds,), int(src.size))
    order = np.argsort(src, kind="stable")
    s_sorted, d_sorted = src[order], dst[order]
    if np.all(np.diff(s_sorted) > 0) and len(shape) > 1:
        box = _box(s_sorted, shape)
        if box is not None:
            uniq, scoords = box
            dcoords = np.stack(np.unravel_index(d_sorted, shape))
            off = dcoords - scoords
            if np.all(off == off[:, :1]):
                sl_s = [_progression(u) for u in uniq]
                if all(s is not None for s in sl_s):
                    o = off[:, 0]
                    sl_d = [slice(s.start + int(k), s.stop + int(k), s.step) for s, k in zip(sl_s, o)]
                    return AxisMap("dims", tuple(shape), tuple(sl_s), tuple(sl_d), int(src.size))
    return AxisMap("fancy", (n,), (src,), (dst,), int(src.size))


def identity_map(sel: np.ndarray, shape: tuple[int, ...]) -> AxisMap:
    return axis_map(sel, sel, shape)


@lru_cache(maxsize=4096)
def pattern_identity_map(p: Pattern, shape: tuple[int, ...]) -> AxisMap:
    """``identity_map`` of ``pattern_set(p)``, once per pattern: a program's
    compute commands mostly select the same cells (gauss_elim plans
    12,809 computes on 2,047 x 2 programs).  An index-array map holds
    ``pattern_set``'s own array (no copy): this keeps at most 4,096 of them
    alive, as ``pattern_set`` itself does."""
    return identity_map(pattern_set(p), shape)


def combine(tmap: AxisMap, bmap: AxisMap, side: str) -> tuple[tuple[int, ...], tuple]:
    """View shape and index tuple for the product of a tile map and a bitline map."""
    tparts = tmap.src if side == "src" else tmap.dst
    bparts = bmap.src if side == "src" else bmap.dst
    if tmap.kind == "fancy" and bmap.kind == "fancy":
        return tmap.shape + bmap.shape, (tparts[0][:, None], bparts[0][None, :])
    return tmap.shape + bmap.shape, tuple(tparts) + tuple(bparts)


def is_contiguous_all(tmap: AxisMap, bmap: AxisMap, geo: Geometry) -> bool:
    """True when the selection covers every cell of every tile from a contiguous tile range."""
    if tmap.kind != "flat" or bmap.kind != "flat":
        return False
    ts, bs = tmap.src[0], bmap.src[0]
    return ts.step == 1 and bs.start == 0 and bs.stop == geo.B and bs.step == 1


# ---------------------------------------------------------------------------
# Moves (ASPLOS §4.2, Alg. 2; pimcmd docstring)
# ---------------------------------------------------------------------------


def _coord(idx: np.ndarray, shape: tuple[int, ...], d: int) -> np.ndarray:
    """Coordinate along ``d`` of flat row-major indices ``idx`` in ``shape``."""
    stride = math.prod(shape[d + 1 :])
    return (idx // stride) % shape[d]


def shift_maps(geo: Geometry, tiles: np.ndarray, bls: np.ndarray, dim: int, mask: tuple[int, int], inter: int, intra: int):
    """(tile src, tile dst, bitline src, bitline dst) of a ``pimcmd.shift``.

    Cell ``(t, c)`` with ``c[dim]`` in the mask goes to tile ``t + inter*tstride[dim]``
    at in-tile coordinate ``c[dim] + intra``; destinations outside the tile grid
    along ``dim`` are dropped (the runtime never emits them)."""
    lo, hi = mask
    c = _coord(bls, geo.tiles, dim)
    keep_b = (c >= lo) & (c < hi) & (c + intra >= 0) & (c + intra < geo.tiles[dim])
    bsrc = bls[keep_b]
    bdst = bsrc + intra * geo.bstride(dim)
    g = _coord(tiles, geo.grid, dim)
    keep_t = (g + inter >= 0) & (g + inter < geo.grid[dim])
    tsrc = tiles[keep_t]
    tdst = tsrc + inter * geo.tstride(dim)
    return tsrc, tdst, bsrc, bdst


def _last_writer(src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Keep, for each destination, the last (src, dst) pair in order."""
    if dst.size == 0:
        return src, dst
    if bool((dst[1:] > dst[:-1]).all()):  # no destination twice, already in order (a broadcast
        return src, dst  # of a row of tiles or bitlines, the common case): np.unique's result
    rev_d = dst[::-1]
    uniq, first = np.unique(rev_d, return_index=True)
    return src[::-1][first], uniq


def bcast_candidates(idx: np.ndarray, shape: tuple[int, ...], dim: int, lo: int, hi: int, stride: int):
    """All (src, dst, offset) copies of ``idx`` moved by ``k`` in ``[lo, hi)`` along ``dim``,
    ordered offset-major; destinations leaving ``shape`` along ``dim`` dropped."""
    offs = np.arange(lo, hi, dtype=np.int64)
    c = _coord(idx, shape, dim)
    nc = c[None, :] + offs[:, None]
    valid = (nc >= 0) & (nc < shape[dim])
    src = np.broadcast_to(idx[None, :], valid.shape)[valid]
    dst = (idx[None, :] + offs[:, None] * stride)[valid]
    off = np.broadcast_to(offs[:, None], valid.shape)[valid]
    return src, dst, off


def bcast_maps(geo: Geometry, tiles: np.ndarray, bls: np.ndarray, dim: int, intra: tuple[int, int], inter: tuple[int, int]):
    """(tile src, tile dst, bitline src, bitline dst) of a ``pimcmd.bcast``.

    Every selected cell goes to tiles ``t + a*tstride[dim]`` (``a`` in ``inter``)
    at in-tile coordinate ``c[dim] + b`` (``b`` in ``intra``).  When two copies
    land on the same cell, the later one in (a, b, source tile, source bitline)
    order wins; that order factors into the last tile copy and the last bitline
    copy, so both maps are one-to-one after ``_last_writer``."""
    ts, td, _ = bcast_candidates(tiles, geo.grid, dim, inter[0], inter[1], geo.tstride(dim))
    bs, bd, _ = bcast_candidates(bls, geo.tiles, dim, intra[0], intra[1], geo.bstride(dim))
    ts, td = _last_writer(ts, td)
    bs, bd = _last_writer(bs, bd)
    return ts, td, bs, bd


# ---------------------------------------------------------------------------
# Lattice boxes <-> (tile, bitline) blocks (transpose_in / release / readout)
# ---------------------------------------------------------------------------


def _segments(p: int, q: int, t: int) -> list[tuple[int, int, int, int, int, int]]:
    """Split ``[p, q)`` along one dim into (x0, x1, g0, g1, c0, c1) pieces, each a
    product of a tile range and an in-tile range (Alg. 1's head/middle/tail)."""
    if q <= p:
        return []
    gp, gq = p // t, (q - 1) // t
    if gp == gq:
        return [(p, q, gp, gp + 1, p - gp * t, q - gp * t)]
    out = []
    g_lo = gp
    if p % t:
        out.append((p, (gp + 1) * t, gp, gp + 1, p % t, t))
        g_lo = gp + 1
    g_hi = gq + 1
    tail = None
    if q % t:
        tail = (gq * t, q, gq, gq + 1, 0, q - gq * t)
        g_hi = gq
    if g_hi > g_lo:
        out.append((g_lo * t, g_hi * t, g_lo, g_hi, 0, t))
    if tail:
        out.append(tail)
    return out


def box_blocks(geo: Geometry, box: tuple[tuple[int, int], ...]):
    """Yield (lattice slices relative to the box, (grid slices..., tile slices...)) blocks.

    At most 3**rank blocks (head, middle, tail per dim) -- the loop is over
    blocks, never over tiles or cells."""
    per_dim = [_segments(p, q, t) for (p, q), t in zip(box, geo.tiles)]
    import itertools

    for combo in itertools.product(*per_dim):
        lat = tuple(slice(x0 - p, x1 - p) for (x0, x1, *_), (p, _q) in zip(combo, box))
        gsl = tuple(slice(g0, g1) for (_, _, g0, g1, _, _) in combo)
        csl = tuple(slice(c0, c1) for (*_, c0, c1) in combo)
        counts = tuple((g1 - g0, c1 - c0) for (_, _, g0, g1, c0, c1) in combo)
        yield lat, gsl + csl, counts


def scatter_box(view: np.ndarray, geo: Geometry, box, values: np.ndarray) -> None:
    """Write lattice-shaped ``values`` over ``box`` into the ``[grid..., T...]`` view."""
    n = geo.rank
    for lat, idx, counts in box_blocks(geo, box):
        block = values[lat]
        inter = block.reshape(tuple(x for gc in counts for x in gc))
        perm = tuple(range(0, 2 * n, 2)) + tuple(range(1, 2 * n, 2))
        view[idx] = inter.transpose(perm)


def gather_box(view: np.ndarray, geo: Geometry, box, out: np.ndarray) -> None:
    """Read the ``box`` of the ``[grid..., T...]`` view into lattice-shaped ``out``."""
    n = geo.rank
    for lat, idx, counts in box_blocks(geo, box):
        blk = view[idx]  # [g..., c...]
        perm = tuple(i for d in range(n) for i in (d, n + d))
        out[lat] = blk.transpose(perm).reshape(tuple(g * c for g, c in counts))


def box_tile_counts(geo: Geometry, box) -> np.ndarray:
    """Number of the box's cells in every tile (flat tile order), vectorized per dim."""
    out = np.ones(1, dtype=np.int64)
    for (p, q), t, g in zip(box, geo.tiles, geo.grid):
        starts = np.arange(g, dtype=np.int64) * t
        cnt = np.clip(np.minimum(starts + t, q) - np.maximum(starts, p), 0, None)
        out = (out[:, None] * cnt[None, :]).reshape(-1)
    return out
