"""``allocate-wordlines``: virtual registers become wordline ranges (ASPLOS §3.4).

Takes: a pattern-form program with virtual registers, its commands in a
topological order (the tDFG's).  Gives: the program with every register an
actual start wordline (flag ``virtual`` removed): a linear scan over the
command list, each register live from its first to its last command (array
registers for the whole program; the destination of an inter-tile move
until the next sync), given the lowest free run of
``bits`` wordlines (32 for f32/i32, 16, 8, 1 for i1 masks).  When the live
registers do not fit the array's wordlines the error names the command and
the pressure (spilling is not implemented).
"""

from __future__ import annotations

from infs.dialects import pimcmd_schema as K
from infs.element_types import ELEMENT_BITS
from infs.dialects.pimcmd_records import Cmd, PimProgram, box_empty
from infs.passes.lowering_errors import LoweringError
from infs.passes.lower_pim.pim_program import record_pass


def allocate_wordlines(prog: PimProgram) -> PimProgram:
    if not prog.virtual:  # its "registers" are wordlines: reading them as registers would be wrong
        raise LoweringError("the program's wordlines are already allocated (it is not 'virtual'); allocate-wordlines runs once")
    cmds = prog.cmds
    n = len(cmds)
    bits: dict[int, int] = {}
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    fixed: set[int] = set()
    syncs: list[int] = []
    inter: list[int] = []  # inter-tile moves (their dst: see below)
    ARRAY, SYNC, READOUT = K.ARRAY, K.SYNC, K.READOUT
    # the registers are read off the fields directly (``Command.reads``/``writes``
    # per command were a tenth of a small graph's lowering)
    for i, c in enumerate(cmds):
        k = c.kind
        f = c
        if k is ARRAY:
            r = f.wordline
            bits[r] = ELEMENT_BITS[prog.element(f.arr)]
            fixed.add(r)
            continue
        if k is SYNC:
            syncs.append(i)
        reads = () if k is READOUT and box_empty(f.domain) else k.REG_READS  # an empty readout reads nothing
        for keys, written in ((k.REG_WRITES, True), (reads, False)):
            for key in keys:
                v = getattr(f, key)
                if v is None:
                    continue
                for r in v if isinstance(v, tuple) else (v,):
                    if written and r not in bits:
                        bits[r] = k.dst_bits(f)
                    if r not in first:
                        first[r] = i
                    last[r] = i
        if k.inter_tile(f):
            inter.append(i)
    # Inter-tile moves finish when their packets are injected (§4.2): their
    # destination may still be written until the next sync, so its wordlines
    # are not handed to another register before that sync.
    for i in inter:
        c = cmds[i]
        nxt = next((s for s in syncs if s > i), n)
        last[c["dst"]] = max(last[c["dst"]], nxt)
    for r in fixed:
        first[r], last[r] = -1, n
    for r in first:
        if r not in bits:
            raise LoweringError(f"register {r} is read but never written")

    free = [(0, prog.wordlines)]  # sorted disjoint runs [lo, hi)
    where: dict[int, int] = {}
    ends: list[tuple[int, int]] = []  # (last use, reg) of live registers
    for start, r in sorted([(i, r) for r, i in first.items()]):
        # free registers whose last use is before this one's first use
        still = []
        for e, other in ends:
            if e < start:
                _release(free, where[other], bits[other])
            else:
                still.append((e, other))
        ends = still
        need = bits[r]
        slot = next((lo for lo, hi in free if hi - lo >= need), None)
        if slot is None:
            live = sorted(((bits[o], o) for _, o in ends), reverse=True)
            used = sum(b for b, _ in live)
            raise LoweringError(
                f"wordline pressure: at command {max(start, 0)} the {len(live)} live registers take {used} of "
                f"{prog.wordlines} wordlines and a {need}-bit register does not fit (spilling is not supported)"
            )
        _take(free, slot, need)
        where[r] = slot
        ends.append((last[r], r))

    out: list[Cmd] = []
    for c in cmds:
        k = c.kind
        if not k.REGISTERS:
            out.append(c)  # names no register: the same record (records are not mutated)
            continue
        # a readout of an empty box (an empty buffer) reads no cell: any wordline will do for its source
        look = (lambda r: where.get(r, 0)) if k is READOUT and box_empty(c.domain) else where.__getitem__
        changes = {}
        for key in k.REGISTERS:
            v = getattr(c, key)
            if isinstance(v, tuple):
                changes[key] = tuple([look(r) for r in v])
            elif v is not None:
                changes[key] = look(v)
        out.append(c.with_(**changes))
    prog = prog.with_cmds(out)
    prog.virtual = False
    return prog


def _take(free: list[tuple[int, int]], lo: int, n: int) -> None:
    for i, (a, b) in enumerate(free):
        if a == lo:
            free[i : i + 1] = [(a + n, b)] if a + n < b else []
            return


def _release(free: list[tuple[int, int]], lo: int, n: int) -> None:
    free.append((lo, lo + n))
    free.sort()
    merged: list[tuple[int, int]] = []
    for a, b in free:
        if merged and merged[-1][1] == a:
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    free[:] = merged


def require_allocatable(prog: PimProgram) -> None:
    """The steps before allocate-wordlines ran, in order (the standalone pass's
    check; lower-pim and the JIT run the steps in their fixed order, which makes
    these hold, and skip it: it would be another scan of every command per
    lowering)."""
    if not prog.virtual:
        return  # allocate_wordlines says so itself
    # registers an inter-tile move wrote since the last sync: a read of one
    # before a sync means insert-sync did not run after lower-shift (values
    # right on the simulator, but no sync charged and data in flight, §4.2)
    pending: set[int] = set()
    array_reg: dict[object, int] = {}
    for i, c in enumerate(prog.cmds):
        k = c.kind
        f = c
        # an allocated program holds pattern-form commands only (the verifier's rule): refuse a
        # domain-form one here, naming the missing pass, rather than emit IR that fails to verify
        if k.TENSOR_LEVEL:
            raise LoweringError(f"'{k.MNEMONIC}' left in the program: run lower-shift and lower-reduce, then lower-compute, first")
        if k is K.COMPUTE and f.get("domain") is not None:
            raise LoweringError("the domain-form 'compute' is left in the program: run lower-compute first")
        if k in (K.READOUT, K.WRITEIN) and f.get("bitlines") is None and not box_empty(f["domain"]):
            raise LoweringError(f"a '{k.MNEMONIC}' has no bitline/tile patterns: run lower-compute first")
        if k is K.ARRAY:
            array_reg[f["arr"]] = f["wordline"]
            continue
        if k is K.SYNC:
            pending.clear()
        if pending:
            used = set() if k is K.READOUT and box_empty(f["domain"]) else set(k.reads(f))  # an empty readout reads nothing
            if k is K.RELEASE:
                used.add(array_reg.get(f["arr"], -1))
            if pending & used:
                raise LoweringError(f"command {i} ('{k.MNEMONIC}') reads register {min(pending & used)}, which an inter-tile move wrote, with no 'sync' between: run insert-sync after lower-shift, before allocate-wordlines")
        if k.inter_tile(f):
            pending.update(k.writes(f))


__getattr__ = record_pass("allocate-wordlines", allocate_wordlines, require_allocatable)  # AllocateWordlinesPass, built on first use
