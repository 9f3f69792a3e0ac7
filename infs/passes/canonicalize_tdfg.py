"""``canonicalize-tdfg``: local simplifications that keep tensor dataflow graphs small.

Takes: any module; works inside every ``tdfg.graph``.  Gives: the same graphs
with

* consecutive ``tdfg.mv`` on one dim merged (``mv(mv(x, d, a), d, b)`` ->
  ``mv(x, d, a + b)``; distances are affine, so symbolic ones merge too)
  where the first move provably keeps every cell at >= 0;
* zero moves dropped (``mv(x, d, 0)`` -> ``x``) and single broadcasts turned
  into moves (``bc(x, d, k, 1)`` -> ``mv(x, d, k)``), where ``x`` has no cell
  below 0 for the move to drop (a constant shrunk to ``[-5:3]`` has);
* constants folded: a ``tdfg.cmp`` whose inputs are all literal ``tdfg.const``
  becomes a literal ``tdfg.const`` (same numpy semantics as the lattice
  evaluator; an integer division by zero is left for run time), and equal
  literal constants are shared;
* dead nodes removed;
* the layout hints of a graph that has them recomputed (``layout_hints``).

Moves are merged only where exact: the lattice has no negative cells (the
``tdfg`` docstring), so ``mv(mv(x, -2), 2)`` loses ``x``'s first two cells
and ``x`` does not; above, the lattice is unbounded and nothing is lost.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import AnyFloat, DenseArrayBase, DictionaryAttr, FloatAttr, IntegerAttr, ModuleOp, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from infs.dialects import tdfg
from infs.element_types import numpy_dtype
from infs.dialects.lattice import Affine, provably_ge
from infs.passes.tdfg_semantics import TdfgSemanticsError, apply_cmp


def _lower_bound(v: SSAValue, dim: int, depth: int = 0) -> Affine | None:
    """An affine lower bound of the coordinates of ``v``'s cells along ``dim``
    (symbols non-negative), or None where ``v`` is unbounded along ``dim`` (a
    constant).  A move or broadcast drops cells below 0 (tdfg semantics), a read
    has none; a shrink of a constant does not drop them: ``shrink(c, d, [-5, 3))``
    has cells at -5 (so 0 is not a lower bound of every tensor).  The producers
    often say more (a read's domain, a move's distance)."""
    owner = v.owner
    if depth >= 64 or not isinstance(owner, Operation):
        return _unknown(v, dim)
    if isinstance(owner, tdfg.ConstOp):
        return None
    if isinstance(owner, (tdfg.TensorOp, tdfg.StreamLoadOp)):
        return _at_least_0(owner.domain.data.bounds[dim][0])
    if isinstance(owner, (tdfg.MvOp, tdfg.BcOp)):
        lb = _lower_bound(owner.input, dim, depth + 1)
        if owner.dim.value.data != dim:
            # a move clips every dim of a tensor it moves; a broadcast along a dim the
            # tensor is unbounded in gives the tensor itself (lattice_eval)
            return None if lb is None else lb if isinstance(owner, tdfg.BcOp) else _at_least_0(lb)
        return None if lb is None else _at_least_0(lb + owner.dist.data)
    if isinstance(owner, tdfg.ShrinkOp):
        lb = _lower_bound(owner.input, dim, depth + 1)
        if owner.dim.value.data != dim:
            return lb
        p = owner.range.data.bounds[0][0]  # the cells lie at >= max(p, lb): either bounds them
        return p if lb is None or provably_ge(p, 0) or not provably_ge(lb, 0) and provably_ge(p, lb) else lb
    if isinstance(owner, (tdfg.ReduceOp, tdfg.StreamReduceOp)):
        return _lower_bound(owner.operands[0], dim, depth + 1)
    if isinstance(owner, tdfg.CmpOp):
        # the intersection lies inside each bounded input: any one's bound holds
        bounds = [b for x in owner.inputs if (b := _lower_bound(x, dim, depth + 1)) is not None]
        return max(bounds, key=lambda a: provably_ge(a, 0), default=None)
    return _unknown(v, dim)


def _unknown(_v: SSAValue, _dim: int) -> Affine:
    """No bound known: the most negative one (no merge relies on it)."""
    return Affine(-(1 << 62))


def _at_least_0(lb: Affine) -> Affine:
    """A bound of cells that lie at >= 0 (read or clipped by a move): ``lb`` or 0."""
    return lb if provably_ge(lb, 0) else Affine(0)


def _no_cells_below_0(v: SSAValue, rank: int) -> bool:
    """Every cell of ``v`` lies at >= 0 in every dim (``mv(v, d, 0)`` is ``v`` then)."""
    return all((lb := _lower_bound(v, d)) is None or provably_ge(lb, 0) for d in range(rank))


class MergeMoves(RewritePattern):
    """``mv(mv(x, d, a), d, b) -> mv(x, d, a + b)`` where exact: the first
    move must not put cells below 0 (discarded there, tdfg semantics) that
    the second brings back.  Provably so when ``b <= 0`` (what falls below 0
    first falls further), or when ``x``'s cells moved by ``a`` stay >= 0, or
    ``x`` is unbounded along ``d`` (a constant: moving it moves nothing);
    the moves ``tensorize`` emits stay inside the iteration space.  A zero
    move is dropped where it drops no cell (``x`` has none below 0)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tdfg.MvOp, rewriter: PatternRewriter) -> None:
        if op.dist.data == Affine(0):
            if _no_cells_below_0(op.input, op.result.type.rank.data):
                rewriter.replace(op, [], [op.input])
            return
        inner = op.input.owner
        if isinstance(inner, tdfg.MvOp) and inner.dim.value.data == op.dim.value.data:
            a, b, d = inner.dist.data, op.dist.data, op.dim.value.data
            lb = _lower_bound(inner.input, d)
            if provably_ge(0, b) or lb is None or provably_ge(lb + a, 0):
                rewriter.replace(op, tdfg.MvOp(inner.input, d, a + b))


class SingleBroadcastIsMove(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tdfg.BcOp, rewriter: PatternRewriter) -> None:
        # exact unless the input is unbounded along the dim (a broadcast then gives it
        # as it is, a move clips its other dims) and has cells below 0
        d = op.dim.value.data
        if op.count.data == Affine(1) and (_lower_bound(op.input, d) is not None or _no_cells_below_0(op.input, op.result.type.rank.data)):
            rewriter.replace(op, tdfg.MvOp(op.input, op.dim.value.data, op.dist.data))


def _literal(v) -> tuple[np.ndarray, Attribute] | None:
    owner = v.owner
    if isinstance(owner, tdfg.ConstOp) and owner.scalar is None and isinstance(owner.value, (FloatAttr, IntegerAttr)):
        et = v.type.element_type
        return np.asarray(owner.value.value.data).astype(numpy_dtype(et)), et
    return None


class FoldConstants(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tdfg.CmpOp, rewriter: PatternRewriter) -> None:
        lits = [_literal(v) for v in op.inputs]
        if any(x is None for x in lits):
            return
        rt = op.result.type
        assert isinstance(rt, tdfg.TensorType)
        try:
            val = apply_cmp(op.op.data, [x[0] for x in lits], numpy_dtype(rt.element_type))  # type: ignore[index]
        except TdfgSemanticsError:
            return
        py = float(val) if isinstance(rt.element_type, AnyFloat) else int(val)
        rewriter.replace(op, tdfg.ConstOp(rt, value=py))


def _share_constants(graph: tdfg.GraphOp) -> None:
    seen: dict[tuple, Operation] = {}
    for op in list(graph.body.block.ops):
        if not isinstance(op, tdfg.ConstOp):
            continue
        # literals by spelling: keeps -0.0 apart from 0.0
        key = ("scalar", op.scalar) if op.scalar is not None else ("literal", str(op.value))
        first = seen.setdefault((*key, op.result.type), op)
        if first is op:
            continue
        op.result.replace_all_uses_with(first.results[0])
        graph.body.block.erase_op(op)


def layout_hints(graph: tdfg.GraphOp) -> DictionaryAttr:
    """§3.4 layout hints derived from the graph's data movement.

    ``shift``/``broadcast``/``reduce``: lattice dims of ``mv``/``bc``/``reduce``
    nodes; ``primary``: the array of the first ``store`` (else of the first
    ``tensor``) whose tiling all arrays follow; ``align``: the arrays unrolled
    into tensors or written back as tensors, which must stay bitline-aligned.
    """
    kinds = {tdfg.MvOp: "shift", tdfg.BcOp: "broadcast", tdfg.ReduceOp: "reduce"}
    dims: dict[str, set[int]] = {key: set() for key in kinds.values()}
    tensors: list[int] = []
    stores: list[int] = []
    args = list(graph.array_args)
    for op in graph.body.block.ops:
        if type(op) in kinds:
            dims[kinds[type(op)]].add(op.dim.value.data)  # type: ignore[attr-defined]
        elif isinstance(op, tdfg.TensorOp):
            tensors.append(args.index(op.array))
        elif isinstance(op, tdfg.StoreOp):
            stores.append(args.index(op.array))
    hints: dict[str, Attribute] = {key: DenseArrayBase.from_list(i64, sorted(ds)) for key, ds in dims.items()}
    if stores or tensors:
        hints["primary"] = IntegerAttr((stores + tensors)[0], i64)
    align = sorted(set(tensors) | set(stores))
    if align:
        hints["align"] = DenseArrayBase.from_list(i64, align)
    return DictionaryAttr(hints)


def canonicalize_graph(graph: tdfg.GraphOp) -> None:
    """Apply the canonicalizations to one graph (in place)."""
    walker = PatternRewriteWalker(
        GreedyRewritePatternApplier([MergeMoves(), SingleBroadcastIsMove(), FoldConstants()]),
        apply_recursively=True,
    )
    walker.rewrite_region(graph.body)
    _share_constants(graph)
    # erase nodes that became dead (the walker's DCE runs before the sharing above)
    PatternRewriteWalker(GreedyRewritePatternApplier([]), apply_recursively=True).rewrite_region(graph.body)
    if graph.hints is not None:
        graph.hints = layout_hints(graph)


@dataclass(frozen=True)
class CanonicalizeTdfgPass(ModulePass):
    """Canonicalize every ``tdfg.graph`` (see module docstring)."""

    name = "canonicalize-tdfg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for graph in [g for g in op.walk() if isinstance(g, tdfg.GraphOp)]:
            canonicalize_graph(graph)
