"""``insert-sync``: barriers between inter-tile moves and their consumers (§4.2).

Takes: a pattern-form program.  Gives: a ``sync`` before the first command
that reads a register written by an inter-tile ``shift``/``bcast`` since the
last sync (inter-tile moves finish once their packets are injected, so their
data may still be in flight).  Sequences of intra-tile shifts and computes
get no sync.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from infs.dialects.pimcmd_records import Cmd, PimProgram
from infs.passes.pim_program import rewrite_programs


def reads(c: Cmd) -> tuple[int, ...]:
    if c.kind == "compute":
        return tuple(c["srcs"])
    if c.kind in ("shift", "bcast", "readout"):
        return (c["src"],)
    return ()


def is_inter_tile(c: Cmd) -> bool:
    if c.kind == "shift":
        return c["inter"] != 0
    if c.kind == "bcast":
        lo, hi = c["inter"]
        return not (lo == 0 and hi == 1)
    return False


def insert_sync(prog: PimProgram) -> PimProgram:
    arrays_of = {c["arr"]: c["wordline"] for c in prog.cmds if c.kind == "array"}
    pending: set[int] = set()
    out: list[Cmd] = []
    for c in prog.cmds:
        used = set(reads(c))
        if c.kind == "release":
            used.add(arrays_of.get(c["arr"], -1))
        if pending & used:
            out.append(Cmd("sync", {}))
            pending.clear()
        out.append(c)
        if is_inter_tile(c):
            pending.add(c["dst"])
    return prog.with_cmds(out)


@dataclass(frozen=True)
class InsertSyncPass(ModulePass):
    name = "insert-sync"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewrite_programs(op, insert_sync)
