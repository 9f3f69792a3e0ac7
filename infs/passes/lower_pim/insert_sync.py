"""``insert-sync``: barriers between inter-tile moves and their consumers (§4.2).

Takes: a pattern-form program.  Gives: a ``sync`` before the first command
that reads a register written by an inter-tile ``shift``/``bcast`` since the
last sync (inter-tile moves finish once their packets are injected, so their
data may still be in flight).  Sequences of intra-tile shifts and computes
get no sync.
"""

from __future__ import annotations

from infs.dialects import pimcmd_schema as K
from infs.dialects.pimcmd_records import Cmd, PimProgram
from infs.passes.lower_pim.pim_program import record_pass


def insert_sync(prog: PimProgram) -> PimProgram:
    arrays_of = {c.arr: c.wordline for c in prog.cmds if c.kind is K.ARRAY}
    pending: set[int] = set()
    out: list[Cmd] = []
    for c in prog.cmds:
        k = c.kind
        f = c
        if pending:  # (nothing in flight: nothing to wait for)
            used = set()
            for key in k.REG_READS:  # ``Command.reads``, read off the fields directly
                v = getattr(f, key)
                if v is not None:
                    used.update(v if isinstance(v, tuple) else (v,))
            if k is K.RELEASE:  # writes the array's register back to memory
                used.add(arrays_of.get(f.arr, -1))
            if pending & used:
                out.append(Cmd(K.SYNC, {}))
                pending.clear()
        out.append(c)
        if k.inter_tile(f):
            pending.update(k.writes(f))
    return prog.with_cmds(out)


__getattr__ = record_pass("insert-sync", insert_sync)  # InsertSyncPass, built on first use
