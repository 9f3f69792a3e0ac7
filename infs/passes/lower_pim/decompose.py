"""``decompose``: split tensors along tile boundaries (ASPLOS §4.2, Alg. 1).

Takes: a domain-form ``pimcmd.program`` after ``expand-mv-bc``.  Gives: every
``compute``/``mv``/``bc``/``reduce`` box split into sub-boxes that are each a
product of a box of whole tiles and one in-tile box (head, middle and tail
intervals per dim, crossed over the dims), so that the next passes can give
each one bitline and tile patterns.  ``mv``/``bc`` split their source box.
A ``compute`` into a temporary written by no other command is not split: it
runs once over the covering tiles (cells outside its box are don't-care); into
an array's register, or a register other commands also write (the pieces of a
broadcast), it is split, so that cells outside the box keep their data.
``readout``/``writein`` keep their box: it names the buffer's shape.
"""

from __future__ import annotations

import itertools

from infs.dialects import pimcmd_schema as K
from infs.dialects.pimcmd_records import Box, Cmd, PimProgram
from infs.passes.lowering_errors import LoweringError
from infs.passes.lower_pim.pim_program import record_pass, require_virtual


def split_interval(p: int, q: int, t: int) -> list[tuple[int, int]]:
    """Alg. 1 for one dim: head / middle / tail of ``[p, q)`` on tiles of ``t``."""
    if q <= p:
        return []
    a, b = (p // t) * t, -(-p // t) * t
    c = (q // t) * t
    if b > c:  # a = c <= p < q < b = d: inside one tile
        return [(p, q)]
    out = []
    if a < p:
        out.append((p, b))  # head
    if b < c:
        out.append((b, c))  # middle: whole tiles
    if c < q:
        out.append((c, q))  # tail
    return out


def decompose_box(box: Box, tiles: tuple[int, ...]) -> list[Box]:
    """Cross product of the per-dim intervals (Alg. 1 lines 7-18)."""
    per_dim = [split_interval(p, q, t) for (p, q), t in zip(box, tiles)]
    return [tuple(parts) for parts in itertools.product(*per_dim)]


def written_exactly(prog: PimProgram) -> set[int]:
    """Registers whose cells outside a compute's box must keep their data: the
    arrays' and those more than one command writes."""
    writers: dict[int, int] = {}
    arrays: set[int] = set()
    for c in prog.cmds:
        k, f = c.kind, c
        if k is K.ARRAY:
            arrays.add(f.wordline)
        for key in k.REG_WRITES:  # ``Command.writes``, read off the fields directly
            v = getattr(f, key)
            if v is None:
                continue
            for r in v if isinstance(v, tuple) else (v,):
                writers[r] = writers.get(r, 0) + 1
    return arrays | {r for r, n in writers.items() if n > 1}


def decompose(prog: PimProgram) -> PimProgram:
    require_virtual(prog, "decompose")
    exact = written_exactly(prog)
    out: list[Cmd] = []
    for c in prog.cmds:
        k = c.kind
        # A compute is split only into a register written exactly: an
        # element-wise compute into a temporary may also compute the
        # boundary tiles' unused cells (outside its box they hold nothing
        # anyone reads): one command over the covering tiles, not one per
        # head/middle/tail piece (each would pay the full bit-serial latency).
        if (k.TENSOR_LEVEL or (k is K.COMPUTE and c.dst in exact)) and c.get("domain") is not None:  # (a readout's/writein's box is its buffer's shape)
            out.extend(c.with_(domain=b) for b in decompose_box(c.domain, prog.tiles))
        else:
            out.append(c)
    return prog.with_cmds(out)


def require_decomposable(prog: PimProgram) -> None:
    """expand-mv-bc ran first (the standalone pass's check; lower-pim's fixed
    order makes it hold): expand-mv-bc repeats a broadcast slice at the slice's
    width, and split first it would repeat each piece at the piece's width
    (wrong values)."""
    for c in prog.cmds:
        if c.kind is K.BC and c["domain"][c["dim"]][1] - c["domain"][c["dim"]][0] != 1:
            raise LoweringError("'bc' of a slice wider than one cell: run expand-mv-bc first")


__getattr__ = record_pass("decompose", decompose, require_decomposable)  # DecomposePass, built on first use
