"""Lower one matrix-vector layer (an FC layer, or a convolution after im2col
lowering on NHWC data) to Newton's commands for a DRAM-PIM memory.

Takes a layer (``FcLayer`` / ``ConvLayer`` of ``dialects/dram_pim_records``),
a ``DramPimConfig`` and the element type; gives a ``Program``: the weight rows
placed in the banks in advance (bank ``j`` of a row holds output ``n0 + j``,
one DRAM row of 512 reduction elements; PIMFlow §2.2, Fig. 2), and per PIM
channel its GWRITE / G_ACT / COMP / READRES sequence (PIMFlow §4.1).  A layer
whose weights do not fit the PIM channels' rows raises ``LoweringError`` (one line).

The reduction axis is cut into row-sized chunks along the vector's runs (the
kh rows of a convolution window are ``KW*C`` contiguous elements, a padded
image row apart), so that each chunk of each vector is one strided GWRITE.
Up to ``global_buffers`` vectors share one GWRITE_n and every G_ACT of the
rows that follow it (PIMFlow §4.1, multiple global buffers).

Channel scheduling (PIMFlow §4.3.1, Fig. 6): rows are spread over the PIM
channels at G_ACT granularity when there are at least as many rows as
channels; else (row, vector group) pairs at READRES granularity (a row is
then placed in every channel that uses it); else the columns of a row are
split too, at COMP granularity (partial sums the host adds).  Commands are
built as whole numpy tables (one template per row visit, masked), never a
Python loop per command.
"""

from __future__ import annotations

import numpy as np

from infs.dialects.dram_pim_records import COMP, DTYPES, G_ACT, GWRITE, READRES, Commands, Gathers, Layer, Placements, Program
from infs.hardware.dram_pim import DramPimConfig
from infs.passes.lowering_errors import LoweringError


def _chunks(layer: Layer, row: int) -> tuple[np.ndarray, ...]:
    """(k0, used, rel offset, runs, length, stride) of each reduction chunk."""
    r, length, stride = layer.runs()
    if length <= row:
        q = row // length
        j = np.arange(-(-r // q), dtype=np.int64)
        nr = np.minimum(q, r - j * q)
        return j * q * length, nr * length, j * q * stride, nr, np.full_like(j, length), np.full_like(j, stride)
    p = -(-length // row)
    i, t = np.divmod(np.arange(r * p, dtype=np.int64), p)
    used = np.minimum(row, length - t * row)
    return i * length + t * row, used, i * stride + t * row, np.ones_like(i), used, used


def lower_layer(layer: Layer, cfg: DramPimConfig, dtype: str = "bf16", name: str = "layer") -> Program:
    if dtype not in DTYPES:
        raise LoweringError(f"dram-pim: layer '{name}': element type '{dtype}' is not one Newton computes (expected {' or '.join(DTYPES)})")
    P, B, G = cfg.pim_channels, cfg.banks, cfg.bank_groups
    E, col_e, gb = cfg.elements_per_row, cfg.elements_per_column, cfg.global_buffers
    k0, used, rel, cruns, clen, cstride = _chunks(layer, E)
    NC, V, N = k0.size, layer.vectors, layer.outputs
    NT, VG = -(-N // B), -(-V // gb)
    R = NT * NC
    ncols = -(-used // col_e)
    # units: rows (chunk-major, so that a channel's consecutive rows share a chunk's GWRITE)
    chunk_of = np.repeat(np.arange(NC), NT)
    nt_of = np.tile(np.arange(NT), NC)
    if R >= P:
        gran, S = "g_act", 1
        u_row = np.arange(R)
        u_ch = u_row * P // R
        v_row, v_vg = np.repeat(u_row, VG), np.tile(np.arange(VG), R)
        v_ch = np.repeat(u_ch, VG)
        v_slice = np.zeros_like(v_row)
    else:
        gran, S = ("readres", 1) if R * VG >= P else ("comp", int(min(ncols.max(), -(-P // (R * VG)))))
        U = R * VG * S
        u = np.arange(U)
        v_row, rest = np.divmod(u, VG * S)
        v_vg, v_slice = np.divmod(rest, S)
        v_ch = u * P // U
    v_chunk, v_nt = chunk_of[v_row], nt_of[v_row]
    nc = ncols[v_chunk]
    c_lo, c_hi = v_slice * nc // S, (v_slice + 1) * nc // S
    keep = c_hi > c_lo
    v_row, v_vg, v_ch, v_chunk, v_nt, c_lo, c_hi = (x[keep] for x in (v_row, v_vg, v_ch, v_chunk, v_nt, c_lo, c_hi))
    order = np.lexsort((c_lo, v_nt, v_chunk, v_vg, v_ch))
    v_row, v_vg, v_ch, v_chunk, v_nt, c_lo, c_hi = (x[order] for x in (v_row, v_vg, v_ch, v_chunk, v_nt, c_lo, c_hi))
    # weight rows: one per (channel, row unit), numbered in each channel from 0
    pair = v_ch.astype(np.int64) * R + v_row
    uniq, inv = np.unique(pair, return_inverse=True)
    p_ch, p_rowunit = np.divmod(uniq, R)
    first = np.searchsorted(p_ch, np.arange(P))
    p_row = np.arange(uniq.size) - first[p_ch]
    need = int(p_row.max()) + 1
    if need > cfg.rows_per_bank:
        total = P * B * cfg.rows_per_bank
        raise LoweringError(f"dram-pim: layer '{name}' needs {need} weight rows per bank in a channel ({R} rows of "
                            f"{B} x {E} weights), the {P} PIM channels of '{cfg.name}' have {cfg.rows_per_bank} "
                            f"({total} rows in all): the layer is larger than the PIM channels")  # fmt: skip
    p_nt, p_chunk = nt_of[p_rowunit], chunk_of[p_rowunit]
    placements = Placements(p_ch, p_row, p_nt * B, np.minimum(B, N - p_nt * B), k0[p_chunk], used[p_chunk])
    v_prow = p_row[inv]
    # a GWRITE before the first visit of each (channel, vector group, chunk)
    key = (v_ch.astype(np.int64) * VG + v_vg) * NC + v_chunk
    new_key = np.ones(key.size, bool)
    new_key[1:] = key[1:] != key[:-1]
    nv = np.minimum(gb, V - v_vg * gb)
    nvalid = np.minimum(B, N - v_nt * B)
    ngroups = -(-nvalid // (B // G))
    # gathers, one per GWRITE
    gw = np.flatnonzero(new_key)
    vecs = v_vg[gw, None] * gb + np.arange(4)[None, :]
    bases = layer.vector_bases()
    offs = np.where(np.arange(4)[None, :] < nv[gw, None], bases[np.minimum(vecs, V - 1)] + rel[v_chunk[gw], None], -1)
    gathers = Gathers(offs, cruns[v_chunk[gw]], clen[v_chunk[gw]], cstride[v_chunk[gw]])
    gidx = np.cumsum(new_key) - 1
    # the template of a visit: GWRITE, G_ACT x groups, (COMP, READRES) x buffers; masked
    n = key.size
    T = 1 + G + 2 * gb
    rows = np.zeros((n, T, 5), np.int64)
    valid = np.zeros((n, T), bool)
    rows[:, :, 1] = v_ch[:, None]
    rows[:, 0, 0], rows[:, 0, 2], rows[:, 0, 3], rows[:, 0, 4] = GWRITE, 0, nv, gidx
    valid[:, 0] = new_key
    g = np.arange(G)
    rows[:, 1 : 1 + G, 0], rows[:, 1 : 1 + G, 2], rows[:, 1 : 1 + G, 3] = G_ACT, g[None, :], v_prow[:, None]
    valid[:, 1 : 1 + G] = g[None, :] < ngroups[:, None]
    b = np.arange(gb)
    cs, rs = 1 + G + 2 * b, 2 + G + 2 * b
    rows[:, cs, 0], rows[:, cs, 2], rows[:, cs, 3], rows[:, cs, 4] = COMP, b[None, :], c_lo[:, None], (c_hi - c_lo)[:, None]
    rows[:, rs, 0], rows[:, rs, 2], rows[:, rs, 3], rows[:, rs, 4] = READRES, v_vg[:, None] * gb + b[None, :], (v_nt * B)[:, None], nvalid[:, None]
    valid[:, cs] = valid[:, rs] = b[None, :] < nv[:, None]
    gwb = rows[:, 0, 3]
    rows[:, 0, 3] = np.where(gwb > 0, gwb, 1)
    cmds = Commands.from_rows(rows[valid])
    return Program(name, layer, dtype, cfg, cmds, gathers, placements, gran)
