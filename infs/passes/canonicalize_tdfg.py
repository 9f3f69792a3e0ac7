"""``canonicalize-tdfg``: local simplifications that keep tensor dataflow graphs small.

Takes: any module; works inside every ``tdfg.graph``.  Gives: the same graphs
with

* consecutive ``tdfg.mv`` on one dim merged (``mv(mv(x, d, a), d, b)`` ->
  ``mv(x, d, a + b)``; distances are affine, so symbolic ones merge too);
* zero moves dropped (``mv(x, d, 0)`` -> ``x``) and single broadcasts turned
  into moves (``bc(x, d, k, 1)`` -> ``mv(x, d, k)``);
* constants folded: a ``tdfg.cmp`` whose inputs are all literal ``tdfg.const``
  becomes a literal ``tdfg.const`` (same numpy semantics as the lattice
  evaluator; an integer division by zero is left for run time), and equal
  literal constants are shared;
* dead nodes removed;
* the layout hints of a graph that has them recomputed (``layout_hints``).

Moves are merged even across the global-bounding-hyperrectangle discard: the
passes that produce graphs (``tensorize``) only move data inside the
iteration space, where discarding never happens in between.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import AnyFloat, DenseArrayBase, DictionaryAttr, FloatAttr, IntegerAttr, ModuleOp, i64
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from infs.dialects import tdfg
from infs.dialects.lattice import Affine
from infs.passes.tdfg_semantics import TdfgSemanticsError, apply_cmp, element_dtype


class MergeMoves(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tdfg.MvOp, rewriter: PatternRewriter) -> None:
        if op.dist.data == Affine(0):
            rewriter.replace(op, [], [op.input])
            return
        inner = op.input.owner
        if isinstance(inner, tdfg.MvOp) and inner.dim.value.data == op.dim.value.data:
            rewriter.replace(op, tdfg.MvOp(inner.input, op.dim.value.data, inner.dist.data + op.dist.data))


class SingleBroadcastIsMove(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tdfg.BcOp, rewriter: PatternRewriter) -> None:
        if op.count.data == Affine(1):
            rewriter.replace(op, tdfg.MvOp(op.input, op.dim.value.data, op.dist.data))


def _literal(v) -> tuple[np.ndarray, Attribute] | None:
    owner = v.owner
    if isinstance(owner, tdfg.ConstOp) and owner.scalar is None and isinstance(owner.value, (FloatAttr, IntegerAttr)):
        et = v.type.element_type
        return np.asarray(owner.value.value.data).astype(element_dtype(et)), et
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
            val = apply_cmp(op.op.data, [x[0] for x in lits], element_dtype(rt.element_type))  # type: ignore[index]
        except TdfgSemanticsError:
            return
        py = float(val) if isinstance(rt.element_type, AnyFloat) else int(val)
        rewriter.replace(op, tdfg.ConstOp(rt, value=py))


def _share_constants(graph: tdfg.GraphOp) -> None:
    seen: dict[tuple, Operation] = {}
    for op in list(graph.body.block.ops):
        if not isinstance(op, tdfg.ConstOp):
            continue
        if op.scalar is not None:
            key: tuple = ("scalar", op.scalar, op.result.type)
        else:
            key = ("literal", str(op.value), op.result.type)  # by spelling: keeps -0.0 apart from 0.0
        first = seen.get(key)
        if first is None:
            seen[key] = op
            continue
        op.result.replace_all_uses_with(first.results[0])
        op.detach()
        op.erase()


def layout_hints(graph: tdfg.GraphOp) -> DictionaryAttr:
    """§3.4 layout hints derived from the graph's data movement.

    ``shift``/``broadcast``/``reduce``: lattice dims of ``mv``/``bc``/``reduce``
    nodes; ``primary``: the array of the first ``store`` (else of the first
    ``tensor``) whose tiling all arrays follow; ``align``: the arrays unrolled
    into tensors or written back as tensors, which must stay bitline-aligned.
    """
    shift: set[int] = set()
    bcast: set[int] = set()
    red: set[int] = set()
    tensors: list[int] = []
    stores: list[int] = []
    args = list(graph.array_args)
    for op in graph.body.block.ops:
        if isinstance(op, tdfg.MvOp):
            shift.add(op.dim.value.data)
        elif isinstance(op, tdfg.BcOp):
            bcast.add(op.dim.value.data)
        elif isinstance(op, tdfg.ReduceOp):
            red.add(op.dim.value.data)
        elif isinstance(op, tdfg.TensorOp):
            tensors.append(args.index(op.array))
        elif isinstance(op, tdfg.StoreOp):
            stores.append(args.index(op.array))
    hints: dict[str, Attribute] = {
        "shift": DenseArrayBase.from_list(i64, sorted(shift)),
        "broadcast": DenseArrayBase.from_list(i64, sorted(bcast)),
        "reduce": DenseArrayBase.from_list(i64, sorted(red)),
    }
    primary = stores[0] if stores else (tensors[0] if tensors else None)
    if primary is not None:
        hints["primary"] = IntegerAttr(primary, i64)
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
