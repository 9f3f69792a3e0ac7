"""``expand-mv-bc``: tensor-level moves become the moves the hardware makes.

Takes: a domain-form ``pimcmd.program`` (``tdfg-to-pimcmd``).  Gives: the
same program where every ``bc`` copies a one-cell-thick slice (what a
multicast carries: §4.2, "Broadcast nodes are handled similarly to move
nodes, with the broadcast destination encoded"), a broadcast of a wider
slice being expanded into one ``mv`` per copy; a ``mv`` by 0 becomes a copy.
``mv`` is per-dimension already (``tdfg.mv`` moves along one dim).
"""

from __future__ import annotations

from infs.dialects import pimcmd_schema as K
from infs.dialects.pimcmd_records import Cmd, PimProgram
from infs.passes.lower_pim.pim_program import record_pass, require_virtual


def _move(c: Cmd, dim: int, dist: int) -> Cmd:
    """``c``'s source box moved by ``dist`` along ``dim`` into its destination (by 0: a copy in place)."""
    if dist == 0:
        return Cmd(K.COMPUTE, dict(op="copy", type=c["type"], dst=c["dst"], srcs=(c["src"],), domain=c["domain"]))
    return Cmd(K.MV, dict(type=c["type"], dst=c["dst"], src=c["src"], dim=dim, dist=dist, domain=c["domain"]))


def expand_mv_bc(prog: PimProgram) -> PimProgram:
    require_virtual(prog, "expand-mv-bc")
    out: list[Cmd] = []
    for c in prog.cmds:
        if c.kind is K.MV and c["dist"] == 0:
            out.append(_move(c, c["dim"], 0))
        elif c.kind is K.BC and c["domain"][c["dim"]][1] - c["domain"][c["dim"]][0] != 1:
            p, q = c["domain"][c["dim"]]
            out.extend(_move(c, c["dim"], c["dist"] + j * (q - p)) for j in range(c["count"]))
        else:
            out.append(c)
    return prog.with_cmds(out)


__getattr__ = record_pass("expand-mv-bc", expand_mv_bc)  # ExpandMvBcPass, built on first use
