"""``expand-mv-bc``: tensor-level moves become the moves the hardware makes.

Takes: a domain-form ``pimcmd.program`` (``tdfg-to-pimcmd``).  Gives: the
same program where every ``bc`` copies a one-cell-thick slice (what a
multicast carries: §4.2, "Broadcast nodes are handled similarly to move
nodes, with the broadcast destination encoded"), a broadcast of a wider
slice being expanded into one ``mv`` per copy; a ``mv`` by 0 becomes a copy.
``mv`` is per-dimension already (``tdfg.mv`` moves along one dim).
"""

from __future__ import annotations

from infs.dialects import pimcmd as pc
from infs.dialects.pimcmd_records import Cmd, PimProgram
from infs.passes.pim_program import record_pass, require_virtual


def expand_mv_bc(prog: PimProgram) -> PimProgram:
    require_virtual(prog, "expand-mv-bc")
    out: list[Cmd] = []
    for c in prog.cmds:
        if c.kind is pc.MoveOp and c["dist"] == 0:
            out.append(Cmd(pc.ComputeOp, dict(op="copy", type=c["type"], dst=c["dst"], srcs=(c["src"],), domain=c["domain"])))
        elif c.kind is pc.BroadcastOp:
            d = c["dim"]
            p, q = c["domain"][d]
            w = q - p
            if w == 1:
                out.append(c)
                continue
            for j in range(c["count"]):
                k = c["dist"] + j * w
                if k == 0:  # the copy in place
                    out.append(Cmd(pc.ComputeOp, dict(op="copy", type=c["type"], dst=c["dst"], srcs=(c["src"],), domain=c["domain"])))
                else:
                    out.append(Cmd(pc.MoveOp, dict(type=c["type"], dst=c["dst"], src=c["src"], dim=d, dist=k, domain=c["domain"])))
        else:
            out.append(c)
    return prog.with_cmds(out)


ExpandMvBcPass = record_pass("expand-mv-bc", expand_mv_bc)
