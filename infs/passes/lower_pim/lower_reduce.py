"""``lower-reduce``: in-memory partial reductions as compute + intra-tile shift rounds.

Takes: a decomposed domain-form program.  Gives: every ``reduce`` piece as
(§4.2, "Other tDFG nodes": "a sequence of interleaving compute and intra-tile
shift commands to fully reduce each tile on the reduced dimension"):

1. a copy of the piece into the destination register;
2. ``ceil(log2 n)`` rounds over the piece's ``n`` in-tile cells along the dim:
   the upper part is shifted down by ``h = ceil(n/2)`` into a scratch register
   (an intra-tile shift) and combined into the lower part (a compute);
3. for a piece starting inside a tile, one more shift moving its result to
   the tile's first cell, where ``stream_reduce`` reads the partials.

The final rounds across tiles are left to ``near_reduce`` (Fig. 4b).
"""

from __future__ import annotations

from infs.dialects import pimcmd_schema as K
from infs.dialects.lattice_values import Domain
from infs.dialects.pimcmd_records import Cmd, PimProgram
from infs.passes.lowering_errors import LoweringError
from infs.passes.lower_pim.pim_program import record_pass, require_virtual
from infs.passes.lower_pim.tile_patterns import is_product_form, patterns, tile_ranges


def _next_reg(prog: PimProgram) -> int:
    return max((r + 1 for c in prog.cmds for r in c.kind.registers(c)), default=0)


def lower_reduce(prog: PimProgram) -> PimProgram:
    require_virtual(prog, "lower-reduce")
    out: list[Cmd] = []
    fresh = _next_reg(prog)
    for c in prog.cmds:
        if c.kind is not K.REDUCE:
            out.append(c)
            continue
        box, d, ty, dst = c["domain"], c["dim"], c["type"], c["dst"]
        if not is_product_form(box, prog):
            raise LoweringError(f"'reduce' box {Domain.of(box)} is not decomposed (run decompose first)")
        tr, ir = tile_ranges(box, prog)

        def cells(lo: int, hi: int):
            return patterns(tr, tuple((lo, hi) if i == d else r for i, r in enumerate(ir)), prog)

        a, b = ir[d]
        bl, tl = cells(a, b)
        out.append(Cmd(K.COMPUTE, dict(op="copy", type=ty, dst=dst, srcs=(c["src"],), bitlines=bl, tiles=tl)))
        tmp = fresh
        fresh += 1
        n = b - a
        while n > 1:
            h = (n + 1) // 2
            bl, tl = cells(a + h, a + n)
            out.append(Cmd(K.SHIFT, dict(type=ty, dst=tmp, src=dst, dim=d, mask=(a + h, a + n), inter=0, intra=-h, bitlines=bl, tiles=tl)))
            bl, tl = cells(a, a + n - h)
            out.append(Cmd(K.COMPUTE, dict(op=c["op"], type=ty, dst=dst, srcs=(dst, tmp), bitlines=bl, tiles=tl)))
            n = h
        if a > 0:  # a head piece: its result goes to the tile's first cell
            bl, tl = cells(a, a + 1)
            out.append(Cmd(K.SHIFT, dict(type=ty, dst=tmp, src=dst, dim=d, mask=(a, a + 1), inter=0, intra=-a, bitlines=bl, tiles=tl)))
            bl, tl = cells(0, 1)
            out.append(Cmd(K.COMPUTE, dict(op="copy", type=ty, dst=dst, srcs=(tmp,), bitlines=bl, tiles=tl)))
    return prog.with_cmds(out)


__getattr__ = record_pass("lower-reduce", lower_reduce)  # LowerReducePass, built on first use
