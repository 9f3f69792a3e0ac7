"""SSA dominance and scoping, verified the way MLIR's verifier does.

xDSL 0.74 computes block dominance (``xdsl.irdl.dominance``) but never checks
that an operand is visible where it is used, and its parser resolves a
forward reference to a value defined later in *any* region (a compute using
its own result, a use of a value of a sibling body, an ``scf.for`` whose step
is defined in its own body).  Such IR then sends the evaluators into endless
recursion or missing-value lookups, so every module is checked here before
any op verifier runs (``infs.api.verify_module``).

The rule (MLIR, "SSACFG regions"): an operand is visible at a use when it is

* a result of an op earlier in the same block, or an argument of that block;
* defined in a block that properly dominates the use's block (multi-block
  regions, via ``xdsl.irdl.dominance.DominanceInfo``);
* visible at the op that encloses the use's region -- except across an
  ``IsolatedFromAbove`` op (``func.func``, ``stream.region``, ``tdfg.graph``),
  whose regions see nothing from outside.

Every region is checked as an SSACFG region (MLIR treats ``builtin.module``
as a graph region; infs programs never need a forward use there).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.irdl.dominance import DominanceInfo
from xdsl.traits import IsolatedFromAbove


@dataclass(frozen=True)
class DominanceError:
    """The first use that breaks dominance: the using op and a one-line reason."""

    op: Operation
    message: str


def _describe(value: SSAValue) -> str:
    return f" (%{value.name_hint})" if value.name_hint else ""


def _defined_outside(value: SSAValue, isolated: Operation) -> bool:
    """Whether ``value`` is defined outside ``isolated`` (a forward reference the
    parser never resolved has no owner: it is defined nowhere)."""
    try:
        owner = value.owner
    except ValueError:
        return False
    op = owner if isinstance(owner, Operation) else owner.parent_op()
    # a result of the isolated op itself is outside its regions too
    return op is None or op is isolated or not isolated.is_ancestor(op)


def _in_enclosing_scope(value: SSAValue, op: Operation) -> bool:
    """Whether ``value``'s block encloses ``op`` (a value of a sibling body does
    not: it is out of scope, whatever isolates ``op``)."""
    try:
        owner = value.owner
    except ValueError:
        return False
    block = owner if isinstance(owner, Block) else owner.parent_block()
    p: Operation | None = op
    while p is not None:
        if p.parent_block() is block:
            return True
        p = p.parent_op()
    return False


def _reason(op: Operation, index: int, value: SSAValue) -> str:
    """Why ``value`` is not visible at ``op``: across an isolated region, or dominance."""
    p = op.parent_op()
    while p is not None:
        if p.has_trait(IsolatedFromAbove) and _defined_outside(value, p) and _in_enclosing_scope(value, p):
            return (
                f"operand #{index}{_describe(value)} is defined outside the enclosing '{p.name}', "
                f"which is isolated from above (pass it in as an operand)"
            )
        p = p.parent_op()
    return f"operand #{index}{_describe(value)} does not dominate this use"


def verify_dominance(root: Operation) -> DominanceError | None:
    """The first operand (in program order) not visible where it is used, or None."""
    return _check_op_regions(root, set())


def _check_op_regions(op: Operation, visible: set[SSAValue]) -> DominanceError | None:
    scope = set() if op.has_trait(IsolatedFromAbove) else visible
    return next((err for region in op.regions if (err := _check_region(region, scope)) is not None), None)


def _check_region(region: Region, outer: set[SSAValue]) -> DominanceError | None:
    blocks = list(region.blocks)
    if len(blocks) == 1:
        return _check_block(blocks[0], outer)
    dom = DominanceInfo(region) if blocks else None
    for block in blocks:
        # values of the blocks that properly dominate this one are visible in it
        scope = set(outer)
        for other in blocks:
            if other is not block and dom is not None and dom.strictly_dominates(other, block):
                scope.update(other.args)
                for o in other.ops:
                    scope.update(o.results)
        err = _check_block(block, scope)
        if err is not None:
            return err
    return None


def _check_block(block: Block, outer: set[SSAValue]) -> DominanceError | None:
    added: list[SSAValue] = []
    try:
        for a in block.args:
            if a not in outer:
                outer.add(a)
                added.append(a)
        for op in block.ops:
            for i, v in enumerate(op.operands):
                if v not in outer:
                    return DominanceError(op, _reason(op, i, v))
            err = _check_op_regions(op, outer)
            if err is not None:
                return err
            for r in op.results:
                outer.add(r)
                added.append(r)
        return None
    finally:
        for v in added:
            outer.discard(v)
