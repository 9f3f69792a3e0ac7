"""Loop distribution (fission) of a nest's statements, for extract-streams.

Takes a band of perfectly nested loops and its innermost body; gives the
body's statements (ops joined by def-use chains, pure scalar ops copied into
each statement using them), why distributing them over the band would change
the program (an array one statement writes and another touches at a
different iteration), and the distributed nests, one per statement.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine, memref, scf
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from infs.dialects.lattice import Affine, dim_index, dim_name
from infs.passes.extract_analysis import Analysis, array_label, array_root
from infs.passes.extract_loops import erase_ops, is_loop, is_pure_scalar_op, loop_band, loop_ivs
from infs.passes.extract_remarks import Refuse, source_line


# ---------------------------------------------------------------------------
# Loop distribution (fission) of a nest's statements
# ---------------------------------------------------------------------------

_MEM_OPS = (affine.LoadOp, affine.StoreOp, memref.LoadOp, memref.StoreOp)
_CONTROL = (affine.ForOp, scf.ForOp, affine.ParallelOp, scf.ParallelOp, affine.IfOp, scf.IfOp, affine.YieldOp, scf.YieldOp, scf.ReduceOp, scf.ReduceReturnOp)


def statements_of(leaf: Sequence[Operation]) -> list[list[int]]:
    """The innermost body's statements, as lists of positions in ``leaf``: ops
    joined by def-use chains (through pure scalar ops, which every statement
    that uses them gets a copy of), loops each on their own, then
    interleaved statements merged, so that each is one contiguous stretch of
    the body (distribution keeps every op's order within an iteration)."""
    pos = {op: i for i, op in enumerate(leaf)}
    floating = {i for i, op in enumerate(leaf) if not is_loop(op) and is_pure_scalar_op(op)}
    # each statement op -> the furthest op joined to it by a def-use chain
    reach = {i: i for i in range(len(leaf)) if i not in floating}

    def sources(v: SSAValue, seen: set[int]) -> set[int]:
        """The statement ops (not floating) ``v`` is computed from, within the body."""
        owner = v.owner
        if not isinstance(owner, Operation) or owner not in pos:
            return set()
        i = pos[owner]
        if i not in floating:
            return {i}
        if i in seen:
            return set()
        seen.add(i)
        return set().union(*(sources(o, seen) for o in owner.operands))

    for i in reach:
        for inner in leaf[i].walk():
            for o in inner.operands:
                for j in sources(o, set()):
                    reach[min(i, j)] = max(reach[min(i, j)], i, j)
    # joined ops and the ops between them are one stretch: merge the overlapping [i, reach[i]]
    merged: list[list[int]] = []
    for lo in sorted(reach):
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], reach[lo])
        else:
            merged.append([lo, reach[lo]])
    return [[i for i in range(lo, hi + 1) if i not in floating] for lo, hi in merged]


def _outer_index(a: Analysis, op: Operation) -> tuple[SSAValue, list[Affine | None]]:
    """The array and each index of a load/store as an affine function of the
    band's loops (None where it moves with a loop inside the band's body, or
    is not affine)."""

    def attempt(read, *args) -> Affine | None:
        try:
            return read(*args)
        except Refuse:
            return None

    if isinstance(op, (affine.LoadOp, affine.StoreOp)):
        m = op.map.data
        inner = Affine.of("inner-")  # an operand that moves inside the body: a result using it is None
        ops = [x if x is not None else inner for x in (attempt(a.aff, o) for o in op.indices)]
        out = [attempt(a.expr, e, ops[: m.num_dims], ops[m.num_dims :]) for e in m.results]
        return op.memref, [None if r is None or "inner-" in r.names else r for r in out]
    return op.memref, [attempt(a.aff, i) for i in op.indices]  # type: ignore[attr-defined]


def distribution_refused(band: Sequence[Operation], leaf: Sequence[Operation], parts: list[list[int]]) -> str | None:
    """Why the band may not be distributed over ``parts`` (None: it may).

    Distributing runs every instance of part 1, then every instance of part
    2, ...; within one iteration of the band the parts keep their order, so
    the new order differs only between a later part's instance at one band
    iteration and an earlier part's at a later one.  That is legal when no
    array one part writes is touched by another part at a different band
    iteration: every access to such an array (in every part) has, for each
    loop of the band, one index that is that loop's index (coefficient +-1,
    plus the same symbols and constant in every access) -- so two iterations
    of the band never touch the same cell of it.  Anything else (an array
    shared across iterations, an op with effects the analysis does not read)
    keeps the nest as it is: when unsure, no distribution."""
    a = Analysis(band[0])
    loop_of: list[Operation] = []
    for loop in band:
        for iv in loop_ivs(loop):
            a.dims[iv] = len(loop_of)
            loop_of.append(loop)
    touched: dict[object, list[tuple[int, Operation, bool]]] = {}
    for n, part in enumerate(parts):
        for i in part:
            for op in leaf[i].walk():
                if isinstance(op, _MEM_OPS):
                    if a.inside(op.memref):
                        return f"'{op.name}' on an array allocated inside the nest"
                    touched.setdefault(array_root(op.memref), []).append((n, op, isinstance(op, (affine.StoreOp, memref.StoreOp))))
                elif not (isinstance(op, _CONTROL) or is_pure_scalar_op(op)):
                    return f"'{op.name}' in the loop body"
    for acc in touched.values():
        if len({n for n, _, _ in acc}) < 2 or not any(w for _, _, w in acc):
            continue
        array = acc[0][1].memref  # (a name it has, for the message)
        idx = [_outer_index(a, op)[1] for _, op, _ in acc]
        if len({len(x) for x in idx}) != 1:
            return f"{array_label(array)} is accessed with different ranks"
        same = [r for r in range(len(idx[0])) if idx[0][r] is not None and all(x[r] == idx[0][r] for x in idx)]
        for d, loop in enumerate(loop_of):
            dn = dim_name(d)
            if not any(idx[0][r].coeff(dn) in (1, -1) and all(n == dn or dim_index(n) is None for n in idx[0][r].names) for r in same):  # type: ignore[union-attr]
                return f"{array_label(array)}, written by one statement and accessed by another, is shared between iterations of the loop at line {source_line(loop)}"
    return None


def distribute(root: Operation, leaf: Sequence[Operation], parts: list[list[int]]) -> list[Operation]:
    """One copy of the nest per part, each keeping only that part's ops (and
    the pure scalar ops they use), in order before ``root``, which goes."""
    pos = {op: i for i, op in enumerate(leaf)}
    floating = {i for i, op in enumerate(leaf) if not is_loop(op) and is_pure_scalar_op(op)}
    out: list[Operation] = []
    for part in parts:
        keep = set(part)
        todo = list(part)
        while todo:
            i = todo.pop()
            for inner in leaf[i].walk():
                for o in inner.operands:
                    j = pos.get(o.owner) if isinstance(o.owner, Operation) else None
                    if j is not None and j in floating and j not in keep:
                        keep.add(j)
                        todo.append(j)
        copy = root.clone()
        _, ops = loop_band(copy)  # (the copy of root's band: its leaf is a copy of leaf)
        assert len(ops) == len(leaf)
        erase_ops([o for i, o in enumerate(ops) if i not in keep])
        out.append(copy)
    Rewriter.insert_op(out, InsertPoint.before(root))
    Rewriter.erase_op(root, safe_erase=False)
    return out
