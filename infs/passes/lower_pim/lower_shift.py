"""``lower-shift``: moves and broadcasts become shift/bcast commands (§4.2, Alg. 2).

Takes: a decomposed domain-form program.  Gives: every ``mv`` piece as one or
two ``shift`` commands (Alg. 2: an intra-tile shift of the cells that stay in
their tile, an inter-tile shift of those that cross ``d_inter + 1`` tile
boundaries) with the bitline/tile patterns of the piece intersected with
each shift mask, commands with an empty mask dropped; every ``bc`` piece as
one ``bcast`` multicast per run of destination tiles (the head tile, the
whole tiles in the middle, the tail tile).
"""

from __future__ import annotations

from infs.dialects import pimcmd_schema as K
from infs.dialects.lattice_values import Domain
from infs.dialects.pimcmd_records import Cmd, PimProgram
from infs.passes.lowering_errors import LoweringError
from infs.passes.lower_pim.pim_program import record_pass, require_virtual
from infs.passes.lower_pim.tile_patterns import is_product_form, patterns, tile_ranges


def alg2_shifts(t: int, d: int) -> list[tuple[tuple[int, int], int, int]]:
    """Alg. 2: (mask, inter-tile distance, intra-tile distance) per command."""
    d_inter, d_intra = abs(d) // t, abs(d) % t
    comp = t - d_intra
    out = []
    if d > 0:
        out.append(((0, comp), d_inter, d_intra))
        if d_intra > 0:
            out.append(((comp, t), d_inter + 1, -comp))
    elif d < 0:
        if d_intra > 0:
            out.append(((0, d_intra), -(d_inter + 1), comp))
        out.append(((d_intra, t), -d_inter, -d_intra))
    return out


def _lower_mv(c: Cmd, prog: PimProgram) -> list[Cmd]:
    box, k, d = c.domain, c.dim, c.dist
    if d == 0:  # Alg. 2 has no shift for it: it would be dropped, its destination never written
        raise LoweringError("'mv' by 0 (a copy in place): run expand-mv-bc first")
    if not is_product_form(box, prog):
        raise LoweringError(f"'mv' box {Domain.of(box)} is not decomposed (run decompose first)")
    tr, ir = tile_ranges(box, prog)
    out = []
    for (m0, m1), inter, intra in alg2_shifts(prog.tiles[k], d):
        lo, hi = max(ir[k][0], m0), min(ir[k][1], m1)
        if lo >= hi:
            continue  # the mask misses the tensor: no command (Alg. 2, filtered)
        sub = tuple((lo, hi) if i == k else r for i, r in enumerate(ir))
        bl, tl = patterns(tr, sub, prog)
        out.append(Cmd(K.SHIFT, dict(type=c.type, dst=c.dst, src=c.src, dim=k, mask=(lo, hi), inter=inter, intra=intra, bitlines=bl, tiles=tl)))
    return out


def _lower_bc(c: Cmd, prog: PimProgram) -> list[Cmd]:
    box, k = c.domain, c.dim
    t = prog.tiles[k]
    p, q = box[k]
    if q - p != 1:
        raise LoweringError("'bc' of a slice wider than one cell: run expand-mv-bc first")
    if not is_product_form(box, prog):
        raise LoweringError(f"'bc' box {Domain.of(box)} is not decomposed (run decompose first)")
    tr, ir = tile_ranges(box, prog)
    bl, tl = patterns(tr, ir, prog)
    tp, l = p // t, p % t
    lo, hi = p + c.dist, p + c.dist + c.count
    return [Cmd(K.BCAST, dict(type=c.type, dst=c.dst, src=c.src, dim=k, intra=(r0 - l, r1 - l), inter=(ta - tp, tb - tp), bitlines=bl, tiles=tl))
            for ta, tb, r0, r1 in bcast_runs(lo, hi, t)]


def bcast_runs(lo: int, hi: int, t: int) -> list[tuple[int, int, int, int]]:
    """The destination runs of a broadcast to ``[lo, hi)`` on tiles of ``t`` cells
    (head tile, whole tiles, tail tile): (first tile, end tile, first in-tile
    offset, end in-tile offset); one run when the destination is inside one tile."""
    first_full, last_full = -(-lo // t), hi // t
    if first_full > last_full:
        return [(lo // t, lo // t + 1, lo % t, (hi - 1) % t + 1)]
    runs = []
    if lo % t:
        runs.append((lo // t, lo // t + 1, lo % t, t))
    if first_full < last_full:
        runs.append((first_full, last_full, 0, t))
    if hi % t:
        runs.append((hi // t, hi // t + 1, 0, hi % t))
    return runs


_LOWER = {K.MV: _lower_mv, K.BC: _lower_bc}


def lower_shift(prog: PimProgram) -> PimProgram:
    require_virtual(prog, "lower-shift")
    out: list[Cmd] = []
    for c in prog.cmds:
        lower = _LOWER.get(c.kind)
        out.extend(lower(c, prog) if lower is not None else (c,))
    return prog.with_cmds(out)


__getattr__ = record_pass("lower-shift", lower_shift)  # LowerShiftPass, built on first use
