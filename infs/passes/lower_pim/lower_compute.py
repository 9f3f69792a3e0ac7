"""``lower-compute``: compute commands get their bitline and tile patterns.

Takes: a decomposed program whose moves and reductions are lowered.  Gives:
every domain-form ``compute`` piece as a pattern-form ``compute`` (§4.2:
compute nodes "still need step 1 and 3 to handle the boundary tiles"; a
compute into a temporary covers its box's tiles whole), and
every ``readout``/``writein`` with the patterns of the cells it touches (its
box stays: it is the buffer's shape).
"""

from __future__ import annotations

from infs.dialects import pimcmd_schema as K
from infs.passes.lower_pim.decompose import decompose_box, written_exactly
from infs.dialects.pimcmd_records import Cmd, PimProgram
from infs.passes.lowering_errors import LoweringError
from infs.passes.lower_pim.pim_program import record_pass, require_virtual
from infs.passes.lower_pim.tile_patterns import box_patterns


def lower_compute(prog: PimProgram) -> PimProgram:
    require_virtual(prog, "lower-compute")
    exact = written_exactly(prog)  # the computes decompose split (the others cover their tiles)
    out: list[Cmd] = []
    for c in prog.cmds:
        kind = c.kind
        if kind is K.COMPUTE and c.get("domain") is not None:
            bl, tl = box_patterns(c["domain"], prog, exact=c["dst"] in exact)
            out.append(Cmd(K.COMPUTE, {k: v for k, v in c.items() if k != "domain"} | {"bitlines": bl, "tiles": tl}))
        elif (kind is K.READOUT or kind is K.WRITEIN) and c.get("bitlines") is None:
            pieces = decompose_box(c["domain"], prog.tiles)
            if not pieces:  # empty box: a writein does nothing, a readout gives an empty buffer
                if kind is K.READOUT:
                    out.append(c)
                continue
            # several pieces: the covering patterns (cost only; the box says which cells)
            bl, tl = box_patterns(pieces[0], prog) if len(pieces) == 1 else box_patterns(c["domain"], prog, exact=False)
            out.append(c.with_(bitlines=bl, tiles=tl))
        elif kind.TENSOR_LEVEL:
            raise LoweringError(f"'{kind.MNEMONIC}' left in the program: run lower-shift and lower-reduce first")
        else:
            out.append(c)
    return prog.with_cmds(out)


__getattr__ = record_pass("lower-compute", lower_compute)  # LowerComputePass, built on first use
