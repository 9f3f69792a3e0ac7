"""Border peeling: loops whose body tests the index against its first or last value, split there.

Takes a ``func.func`` of plain loops; gives it with each such ``affine.for``
(step 1, no ``iter_args``, a constant lower bound ``lb``, an upper bound ``ub``
that is a constant or one index value) split into its first iteration, its
interior and its last (index-set splitting), under a host ``scf.if`` that the
loop runs at least two iterations (else one piece, whose one iteration is
both).  In each piece a
comparison of the index with ``lb`` or ``ub - 1`` (``arith.cmpi`` with any
predicate, the border as an ``arith.constant`` or ``arith.subi %ub, 1`` defined
outside the loop) has one value, so it becomes a constant, and the
``arith.select``s and ``scf.if``s it decides fold to the side it takes.

Why: C clamps a stencil's neighbour at the border with a conditional (Rodinia's
hotspot ``r == 0 ? r : r - 1``, pathfinder's ``j > 0``), an index the stream
dialect cannot express; in each piece it is affine, and the interior -- all but
the border rows -- is one stream region, as NSC's compiler offloads these
kernels (HPCA'22 §VI: hotspot, hotspot3D, pathfinder as affine streams).  Nested
loops are split in turn (a 2-D stencil: nine nests, the interior one and eight
borders).  Gives one remark per split loop.
"""

from __future__ import annotations

from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from infs.passes.extract_loops import is_pure_scalar_op

# arith.cmpi predicates: the relations of x to y ('<', '=', '>') under which ``x pred y`` holds
_HOLDS = {
    0: {"="}, 1: {"<", ">"}, 2: {"<"}, 3: {"<", "="}, 4: {">"}, 5: {">", "="},  # eq, ne, slt, sle, sgt, sge
    6: {"<"}, 7: {"<", "="}, 8: {">"}, 9: {">", "="},  # ult, ule, ugt, uge (the index and its borders are >= 0 here)
}  # fmt: skip
_FLIP = {"<": ">", "=": "=", ">": "<"}


def _const_index(v: SSAValue) -> int | None:
    op = v.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr) and isinstance(v.type, IndexType):
        return op.value.value.data
    return None


def _map_const(m: AffineMapAttr) -> int | None:
    amap = m.data
    if amap.num_dims or amap.num_symbols or len(amap.results) != 1:
        return None
    s = str(amap.results[0])
    return int(s) if s.lstrip("-").isdigit() else None


def _upper(loop: affine.ForOp) -> tuple[int | None, SSAValue | None] | None:
    """(constant ub, None) or (None, the ub's value), or None: another bound."""
    c = _map_const(loop.upperBoundMap)
    if c is not None:
        return c, None
    amap = loop.upperBoundMap.data
    if len(loop.upperBoundOperands) == 1 and len(amap.results) == 1 and str(amap.results[0]) in ("d0", "s0"):
        return None, loop.upperBoundOperands[0]
    return None


def _border(v: SSAValue, loop: affine.ForOp, lb: int, ub: tuple[int | None, SSAValue | None]) -> str | None:
    """'first' when ``v`` is the loop's first index value, 'last' its last, else None."""
    if loop.is_ancestor(v.owner) if isinstance(v.owner, Operation) else False:
        return None
    c = _const_index(v)
    cub, vub = ub
    if c is not None:
        return "first" if c == lb else "last" if cub is not None and c == cub - 1 else None
    op = v.owner
    if vub is not None and isinstance(op, arith.SubiOp) and op.lhs is vub and _const_index(op.rhs) == 1:
        return "last"
    return None


def _border_tests(loop: affine.ForOp, lb: int, ub) -> list[tuple[arith.CmpiOp, str, bool]]:
    """The comparisons of the index with a border: (op, which border, index on the left)."""
    iv = loop.body.block.args[0]
    out = []
    for op in loop.walk():
        if isinstance(op, arith.CmpiOp) and (op.lhs is iv) != (op.rhs is iv):
            left = op.lhs is iv
            which = _border(op.rhs if left else op.lhs, loop, lb, ub)
            if which is not None:
                out.append((op, which, left))
    return out


def _fold(root: Operation) -> None:
    """Selects and ``scf.if``s on constant conditions inside ``root``, folded."""
    changed = True
    while changed:
        changed = False
        for op in list(root.walk()):
            if op is root or op.parent is None:
                continue
            if isinstance(op, arith.SelectOp) and isinstance(op.cond.owner, arith.ConstantOp):
                pick = op.lhs if op.cond.owner.value.value.data else op.rhs
                op.result.replace_all_uses_with(pick)
                Rewriter.erase_op(op)
                changed = True
            elif isinstance(op, scf.IfOp) and isinstance(op.cond.owner, arith.ConstantOp):
                region = op.true_region if op.cond.owner.value.value.data else op.false_region
                if region.blocks:
                    blk = region.block
                    term = blk.last_op
                    assert isinstance(term, scf.YieldOp)
                    values = list(term.operands)
                    for inner in list(blk.ops)[:-1]:
                        inner.detach()
                        Rewriter.insert_op(inner, InsertPoint.before(op))
                    for r, v in zip(op.results, values):
                        r.replace_all_uses_with(v)
                Rewriter.erase_op(op, safe_erase=False)
                changed = True
                break  # the walk's list is stale


def _piece(loop: affine.ForOp, lo, hi) -> affine.ForOp:
    """A copy of ``loop`` over [lo, hi) (each an int or (map, operands))."""

    def bound(b):
        return (b, []) if isinstance(b, int) else b

    (lmap, lops), (umap, uops) = bound(lo), bound(hi)
    new = affine.ForOp.from_region(lops, uops, [], [], lmap, umap, loop.body.clone(), 1)
    new.location = loop.location
    return new


def _settle(new: affine.ForOp, lb: int, ub, relations: dict[str, str]) -> None:
    """The border tests of a piece as constants (``relations``: its index against
    'first' and 'last'), and what they decide folded."""
    consts: list[arith.ConstantOp] = []
    for op, which, left in _border_tests(new, lb, ub):
        rel = relations[which] if left else _FLIP[relations[which]]
        holds = rel in _HOLDS[op.predicate.value.data]
        c = arith.ConstantOp.from_int_and_width(1 if holds else 0, 1)
        Rewriter.insert_op(c, InsertPoint.before(op))
        op.result.replace_all_uses_with(c.result)
        Rewriter.erase_op(op)
        consts.append(c)
    _fold(new)
    for c in consts:
        if not c.result.uses:
            Rewriter.erase_op(c)


def _split(loop: affine.ForOp, lb: int, ub, guards: dict) -> Operation:
    """``scf.if (ub >= lb + 2) {first; interior; last} else {the loop with both
    borders its first iteration}`` in the loop's place."""
    cub, vub = ub
    minus1 = AffineMapAttr(AffineMap(0, 1, (AffineExpr.symbol(0) - 1,)))
    ident = AffineMapAttr(AffineMap(0, 1, (AffineExpr.symbol(0),)))
    if vub is None:
        mid_hi, last_lo, last_hi = cub - 1, cub - 1, cub
    else:
        mid_hi, last_lo, last_hi = (minus1, [vub]), (minus1, [vub]), (ident, [vub])
    pieces = [
        (_piece(loop, lb, lb + 1), {"first": "=", "last": "<"}),
        (_piece(loop, lb + 1, mid_hi), {"first": ">", "last": "<"}),
        (_piece(loop, last_lo, last_hi), {"first": ">", "last": "="}),
    ]
    for p, rel in pieces:
        _settle(p, lb, ub, rel)
    # one iteration (or none): it is both the first and the last
    lone = _piece(loop, lb, (loop.upperBoundMap, list(loop.upperBoundOperands)) if vub is not None else cub)
    _settle(lone, lb, ub, {"first": "=", "last": "="})
    if vub is None:  # a constant trip count: the pieces or the lone one, no guard
        keep = [p for p, _ in pieces] if cub - lb >= 2 else [lone]
        Rewriter.insert_op(keep, InsertPoint.before(loop))
        Rewriter.erase_op(loop, safe_erase=False)
        return keep[0]
    key = (vub, lb)
    if key not in guards:
        # the test where the bound is defined: invariant in every loop around it, one per bound
        # (so _unswitch hoists the guards of a stencil's nested splits together)
        two = arith.ConstantOp(IntegerAttr.from_index_int_value(lb + 2))
        cmp = arith.CmpiOp(vub, two.result, "sge")
        for o in (two, cmp):
            o.location = loop.location
        owner = vub.owner
        Rewriter.insert_op([two, cmp], InsertPoint.after(owner) if isinstance(owner, Operation) else InsertPoint.at_start(owner))
        guards[key] = cmp.result
    guard = scf.IfOp(guards[key], [], Region(Block([p for p, _ in pieces] + [scf.YieldOp()])), Region(Block([lone, scf.YieldOp()])))
    guard.location = loop.location
    Rewriter.insert_op(guard, InsertPoint.before(loop))
    Rewriter.erase_op(loop, safe_erase=False)
    return guard


def _inline(if_op: scf.IfOp, then: bool) -> None:
    """An ``scf.if`` without results replaced by one of its sides' ops."""
    region = if_op.true_region if then else if_op.false_region
    if region.blocks:
        for inner in list(region.block.ops)[:-1]:
            inner.detach()
            Rewriter.insert_op(inner, InsertPoint.before(if_op))
    Rewriter.erase_op(if_op, safe_erase=False)


def _unswitch(root: Operation) -> bool:
    """One loop unswitched: ``for { a; if (c) {X1} else {Y1}; if (c) {X2} else {Y2} }``
    (``a`` index arithmetic, ``c`` one value defined outside the loop) becomes
    ``if (c) {for {a; X1; X2}} else {for {a; Y1; Y2}}``, so the pieces of a split
    inner loop are a band with the outer loop's; a loop with other statements is
    left (no copies of them)."""
    for loop in root.walk():
        if not isinstance(loop, affine.ForOp) or loop.results:
            continue
        body = list(loop.body.block.ops)
        ifs = [k for k, op in enumerate(body) if op.regions]
        if not ifs or not all(isinstance(op, (scf.IfOp, affine.YieldOp)) or is_pure_scalar_op(op) for op in body):
            continue
        conds = {body[k].cond for k in ifs}
        if len(conds) != 1 or any(body[k].results for k in ifs):
            continue
        (cond,) = conds
        owner = cond.owner
        if (isinstance(owner, Operation) and loop.is_ancestor(owner)) or owner is loop.body.block:
            continue
        sides = []
        for then in (True, False):
            c = loop.clone()
            cbody = list(c.body.block.ops)
            for k in ifs:
                _inline(cbody[k], then)
            sides.append(c)
        guard = scf.IfOp(cond, [], Region(Block([sides[0], scf.YieldOp()])), Region(Block([sides[1], scf.YieldOp()])))
        guard.location = loop.location
        Rewriter.insert_op(guard, InsertPoint.before(loop))
        Rewriter.erase_op(loop, safe_erase=False)
        return True
    return False


def peel_borders(root: Operation) -> list[tuple[Operation, str]]:
    """Split every loop of ``root`` whose body tests its index against a border
    (module docstring), outer loops first; gives (loop, remark text) per split."""
    done: list[tuple[Operation, str]] = []
    guards: dict = {}  # (bound, lb) -> its `ub >= lb + 2` test
    while True:
        found = None
        for op in root.walk():
            if not isinstance(op, affine.ForOp):
                continue
            if op.results or op.step.value.data != 1 or _map_const(op.lowerBoundMap) is None:
                continue
            ub = _upper(op)
            if ub is None:
                continue
            lb = _map_const(op.lowerBoundMap)
            tests = _border_tests(op, lb, ub)
            if tests:
                found = (op, lb, ub, tests)
                break
        if found is None:
            while _unswitch(root):
                pass
            return done
        loop, lb, ub, tests = found
        guard = _split(loop, lb, ub, guards)
        borders = sorted({w for _, w, _ in tests})
        if any(g.location == guard.location for g, _ in done):
            continue  # a copy of a loop split already (the pieces of an outer split): one remark per loop
        done.append((guard, f"loop split at its {' and '.join(borders)} iteration{'s' if len(borders) > 1 else ''}: its body tests the index against "
                            f"{'them' if len(borders) > 1 else 'it'} (a border clamp), constant in each piece"))  # fmt: skip
