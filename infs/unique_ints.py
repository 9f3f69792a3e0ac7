"""``np.unique`` for the integer sets of the simulator (tiles, banks, bitlines), without its hashing.

Sets of tile, bank and bitline numbers are mostly sorted (patterns expand in order)
or span a small range: a run test or a mask over the range beats a sort.
"""

from __future__ import annotations

import numpy as np


def unique_ints(a: np.ndarray) -> np.ndarray:
    """``np.unique(a)`` of a 1-D integer array, without its hashing: O(n) when ``a``
    is sorted (tile and bitline sets mostly are: patterns expand in order), a mask
    over the values' range when that range is small (tile, bank and bitline
    numbers), else a sort."""
    if a.size <= 1:
        return np.unique(a)
    if bool(np.all(a[1:] >= a[:-1])):
        return a[_starts(a)]
    lo, hi = int(a.min()), int(a.max())
    if hi - lo < _mask_range(a.size):
        seen = np.zeros(hi - lo + 1, dtype=bool)
        seen[a - lo] = True
        return (np.flatnonzero(seen) + lo).astype(a.dtype, copy=False)
    s = np.sort(a)
    return s[_starts(s)]


def unique_ints_inverse(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(a, return_inverse=True)`` of a 1-D integer array (as ``unique_ints``)."""
    if a.size <= 1 or int(a.max()) - int(a.min()) >= _mask_range(a.size):
        u, inv = np.unique(a, return_inverse=True)
        return u, inv.reshape(-1)
    lo = int(a.min())
    seen = np.zeros(int(a.max()) - lo + 1, dtype=bool)
    seen[a - lo] = True
    rank = np.cumsum(seen) - 1  # position of each present value among the present ones
    return (np.flatnonzero(seen) + lo).astype(a.dtype, copy=False), rank[a - lo].astype(np.intp, copy=False)


def _mask_range(n: int) -> int:
    """Value ranges below which a mask beats a sort of ``n`` values (measured: a
    mask of 131,072 values against a sort of 14,000, about 10x)."""
    return 32 * n + 65536


def _starts(s: np.ndarray) -> np.ndarray:
    """Mask of the first element of each run of equal values of sorted ``s``."""
    keep = np.empty(s.size, dtype=bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return keep
