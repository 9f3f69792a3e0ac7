"""Compiled (numba) kernels for bit-level mode's hot loops (``infs/sim/sram/bitlevel.py``).

numpy runs every gate as a call over a whole plane, which is 3,008 calls over
65,536 words for one i32 mul on 4M bitlines, and the calls are bound by memory
traffic (benchmarks/README.md, "Bit-level mode"). These kernels do the same
gates in the same order, but over a block of ``BLK`` words of every plane at a
time, so the block's rows stay in cache through all the gates, and each gate
is an inner loop over the block's words, which LLVM vectorizes.

Kernels compute only the results. The model's step counts (reads, writes,
logic) are counted in Python by ``BitSerial``, as before.

This module is imported on the first bit-level command only, because numba
takes a few hundred milliseconds to import. ``cache=True`` keeps the compiled
code on disk (``__pycache__`` beside this file), so compilation is paid once
per machine; the costs are in benchmarks/README.md. ``nogil``: a kernel does
not hold the GIL while it runs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

BLK = 512
"""Words of each plane in one block (4 KB a row; the 3 x 32 rows of an i32 mul
take 384 KB, in L2). Measured on 4M-bitline i32 add / mul, CPU ms (blocks of
64 / 128 / 256 / 512 / 1024 words): add 9.0 / 7.4 / 7.6 / 5.5 / 5.1, mul
16.7 / 15.3 / 17.1 / 13.3 / 14.9 (benchmarks/README.md, "Bit-level mode")."""

# Delta-swap masks for Hacker's Delight §7-3, indexed by log2(j): the bit
# positions p with (p & j) == 0. The same 64-bit mask works for w-bit lanes for
# any w >= 2j (w divides 64), so lanes never mix.
MASKS = np.array([sum(1 << p for p in range(64) if not p & (1 << r)) for r in range(6)], np.uint64)

_OPTS = dict(cache=True, nogil=True, boundscheck=False)


@njit(**_OPTS)
def _swap(lo, hi, sh, mask):
    """One delta swap (Hacker's Delight §7-3): the bits of ``lo`` at ``p + j``
    (``sh`` = j) trade places with the bits of ``hi`` at ``p``, ``p`` in ``mask``."""
    t = ((lo >> sh) ^ hi) & mask
    return lo ^ (t << sh), hi ^ t


# The transpose's rounds, three (or two, or one) at a time: rounds 4h, 2h and h
# only mix the 8 rows k + q*h (q = 0..7), so one pass reads those 8 rows, does
# the 12 swaps in registers and writes the rows back. An i32 register then takes
# 2 passes over its rows instead of 5. Each pass is an inner loop over a block's
# words, which LLVM vectorizes. Row slices are taken first, so indices are
# non-negative (numba wraps negative indices, and LLVM does not vectorize that).


@njit(**_OPTS)
def _rounds3(src, s, dst, d, m, r, w, masks):
    """Rounds 4h, 2h, h (h = 2^r) of ``m`` words: rows of ``src`` from word
    ``s`` into rows of ``dst`` from word ``d`` (``dst`` may be ``src``)."""
    h = 1 << r
    s1, s2, s4 = np.uint64(h), np.uint64(2 * h), np.uint64(4 * h)
    m1, m2, m4 = masks[r], masks[r + 1], masks[r + 2]
    for g in range(0, w, 8 * h):
        for k in range(g, g + h):
            a0, a1, a2, a3 = src[k, s : s + m], src[k + h, s : s + m], src[k + 2 * h, s : s + m], src[k + 3 * h, s : s + m]
            a4, a5, a6, a7 = src[k + 4 * h, s : s + m], src[k + 5 * h, s : s + m], src[k + 6 * h, s : s + m], src[k + 7 * h, s : s + m]
            b0, b1, b2, b3 = dst[k, d : d + m], dst[k + h, d : d + m], dst[k + 2 * h, d : d + m], dst[k + 3 * h, d : d + m]
            b4, b5, b6, b7 = dst[k + 4 * h, d : d + m], dst[k + 5 * h, d : d + m], dst[k + 6 * h, d : d + m], dst[k + 7 * h, d : d + m]
            for i in range(m):
                x0, x4 = _swap(a0[i], a4[i], s4, m4)
                x1, x5 = _swap(a1[i], a5[i], s4, m4)
                x2, x6 = _swap(a2[i], a6[i], s4, m4)
                x3, x7 = _swap(a3[i], a7[i], s4, m4)
                x0, x2 = _swap(x0, x2, s2, m2)
                x1, x3 = _swap(x1, x3, s2, m2)
                x4, x6 = _swap(x4, x6, s2, m2)
                x5, x7 = _swap(x5, x7, s2, m2)
                b0[i], b1[i] = _swap(x0, x1, s1, m1)
                b2[i], b3[i] = _swap(x2, x3, s1, m1)
                b4[i], b5[i] = _swap(x4, x5, s1, m1)
                b6[i], b7[i] = _swap(x6, x7, s1, m1)


@njit(**_OPTS)
def _rounds2(src, s, dst, d, m, r, w, masks):
    """Rounds 2h, h (h = 2^r), as ``_rounds3``."""
    h = 1 << r
    s1, s2 = np.uint64(h), np.uint64(2 * h)
    m1, m2 = masks[r], masks[r + 1]
    for g in range(0, w, 4 * h):
        for k in range(g, g + h):
            a0, a1, a2, a3 = src[k, s : s + m], src[k + h, s : s + m], src[k + 2 * h, s : s + m], src[k + 3 * h, s : s + m]
            b0, b1, b2, b3 = dst[k, d : d + m], dst[k + h, d : d + m], dst[k + 2 * h, d : d + m], dst[k + 3 * h, d : d + m]
            for i in range(m):
                x0, x2 = _swap(a0[i], a2[i], s2, m2)
                x1, x3 = _swap(a1[i], a3[i], s2, m2)
                b0[i], b1[i] = _swap(x0, x1, s1, m1)
                b2[i], b3[i] = _swap(x2, x3, s1, m1)


@njit(**_OPTS)
def _rounds1(src, s, dst, d, m, r, w, masks):
    """Round h (h = 2^r), as ``_rounds3``."""
    h = 1 << r
    s1, m1 = np.uint64(h), masks[r]
    for g in range(0, w, 2 * h):
        for k in range(g, g + h):
            a0, a1 = src[k, s : s + m], src[k + h, s : s + m]
            b0, b1 = dst[k, d : d + m], dst[k + h, d : d + m]
            for i in range(m):
                b0[i], b1[i] = _swap(a0[i], a1[i], s1, m1)


@njit(**_OPTS)
def transpose(src, s0, dst, d0, nl, masks):
    """Transpose each ``w x w`` bit block of lanes ``s0 .. s0 + nl`` of the
    ``[w, *]`` rows ``src`` (w = 8, 16, 32 or 64) into lanes ``d0 ..`` of
    ``dst`` (``dst`` may be ``src``).

    Hacker's Delight §7-3: round ``j`` (w/2, ..., 1) swaps the bits at columns
    ``p + j`` of rows ``k`` with those at columns ``p`` of rows ``k + j``
    (``p``, ``k`` with bit ``j`` clear). The transpose is its own inverse, so
    the same kernel turns words into planes and planes back into words. Block
    by block of ``BLK`` words: the first pass reads ``src``, the last writes
    ``dst``, passes between work on a block buffer in cache."""
    w = src.shape[0]
    buf = np.empty((w, BLK), np.uint64)
    top = 0  # log2(w / 2), the first round's
    while (2 << top) < w:
        top += 1
    for j0 in range(0, nl, BLK):
        m = min(nl - j0, BLK)
        r = top
        while r >= 0:
            n = min(3, r + 1)  # rounds in this pass: r, ..., r - n + 1
            first, last = r == top, r < n
            a, sa = (src, s0 + j0) if first else (buf, 0)
            b, sb = (dst, d0 + j0) if last else (buf, 0)
            if n == 3:
                _rounds3(a, sa, b, sb, m, r - 2, w, masks)
            elif n == 2:
                _rounds2(a, sa, b, sb, m, r - 1, w, masks)
            else:
                _rounds1(a, sa, b, sb, m, r, w, masks)
            r -= n


@njit(**_OPTS)
def _mul_block(a, b, acc, c, m):
    """Shift-add on one block (rows = bits, ``m`` words each): ``acc = a & b[0]``,
    then partial product ``i`` (``a & b[i]``, bits ``i..n-1``) rippled into
    ``acc[i:]``. Per bit ``k``: ``p = a[k-i] & b[i]``, ``t = s ^ p``,
    ``s' = t ^ c``, ``c' = (s & p) | (c & t)``; no carry into bit ``i``, and
    the top bit's carry out is not computed (nobody reads it)."""
    n = a.shape[0]
    b0 = b[0]
    for k in range(n):
        ak = a[k]
        dk = acc[k]
        for j in range(m):
            dk[j] = ak[j] & b0[j]
    for i in range(1, n):
        bi = b[i]
        for k in range(i, n):
            ak = a[k - i]
            s = acc[k]
            if k == i:
                if k < n - 1:
                    for j in range(m):
                        p = ak[j] & bi[j]
                        c[j] = s[j] & p
                        s[j] ^= p
                else:
                    for j in range(m):
                        s[j] ^= ak[j] & bi[j]
            elif k < n - 1:
                for j in range(m):
                    p = ak[j] & bi[j]
                    sj = s[j]
                    t = sj ^ p
                    cj = c[j]
                    c[j] = (sj & p) | (cj & t)
                    s[j] = t ^ cj
            else:
                for j in range(m):
                    s[j] ^= (ak[j] & bi[j]) ^ c[j]


@njit(**_OPTS)
def mul(a, b, acc):
    """``acc`` = the low ``n`` bits of ``a * b`` on ``[n, L]`` planes, block by
    block of ``BLK`` words (``_mul_block``)."""
    n, nl = a.shape
    ab = np.empty((n, BLK), np.uint64)
    bb = np.empty((n, BLK), np.uint64)
    db = np.empty((n, BLK), np.uint64)
    c = np.empty(BLK, np.uint64)
    for j0 in range(0, nl, BLK):
        m = min(nl - j0, BLK)
        for k in range(n):
            ak, bk, xa, xb = a[k, j0 : j0 + m], b[k, j0 : j0 + m], ab[k], bb[k]
            for j in range(m):
                xa[j] = ak[j]
                xb[j] = bk[j]
        _mul_block(ab, bb, db, c, m)
        for k in range(n):
            dk, xd = acc[k, j0 : j0 + m], db[k]
            for j in range(m):
                dk[j] = xd[j]


@njit(**_OPTS)
def add(a, b, flip, carry, has_carry, s, need_sum, cout, need_carry):
    """Ripple carry, LSB first, on ``[n, L]`` planes: ``a + (b ^ flip) (+ carry)``.

    Per bit: ``t = a ^ b``, ``s = t ^ c``, ``c' = (a & b) | (c & t)``. ``flip``
    is 0, or all ones for ``a + ~b`` (sub). The sums go to ``s`` if
    ``need_sum`` (``s`` may be ``a`` or ``b``: a word is read before it is
    written), the carry out of the top bit to ``cout`` if ``need_carry``.
    Block by block of ``BLK`` words, so the carry row stays in cache."""
    n, nl = a.shape
    c = np.empty(BLK, np.uint64)
    zero = np.uint64(0)
    for j0 in range(0, nl, BLK):
        m = min(nl - j0, BLK)
        if has_carry:
            for j in range(m):
                c[j] = carry[j0 + j]
        else:
            for j in range(m):
                c[j] = zero
        for k in range(n):
            ak = a[k, j0 : j0 + m]
            bk = b[k, j0 : j0 + m]
            if need_sum:
                sk = s[k, j0 : j0 + m]
                for j in range(m):
                    x = ak[j]
                    y = bk[j] ^ flip
                    t = x ^ y
                    cj = c[j]
                    sk[j] = t ^ cj
                    c[j] = (x & y) | (cj & t)
            else:
                for j in range(m):
                    x = ak[j]
                    y = bk[j] ^ flip
                    c[j] = (x & y) | (c[j] & (x ^ y))
        if need_carry:
            for j in range(m):
                cout[j0 + j] = c[j]
