"""An extracted DAG rebuilt as a tensor dataflow graph's ops, for ``optimize-tdfg``.

Takes a graph, its encoding and a choice of e-nodes (``egraph_extraction``);
gives the graph's own ops as such a choice (``own_choice``: what the
extraction must beat), the graph with its values replaced by the chosen
DAG's ops (``replace_graph``), the graph restored from a saved copy, and
whether every leaf the chosen DAG uses is defined before the op that
consumes the DAG (``leaves_in_order``).
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.dialects.builtin import i1
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from infs.dialects import tdfg
from infs.passes.egraph_extraction import EGraphView, ENode
from infs.passes.tdfg_cost import no_order
from infs.passes.tdfg_domains import postorder
from infs.passes.tdfg_to_egraph import GraphEncoding


# ---------------------------------------------------------------------------
# E-graph -> tDFG
# ---------------------------------------------------------------------------


class _Rebuild:
    def __init__(self, enc: GraphEncoding, choice: Mapping[str, ENode]):
        self.enc, self.choice = enc, choice
        self.values: dict[str, SSAValue] = {}

    def emit(self, c: str, before: Operation) -> SSAValue:
        """The value of e-class ``c`` (building its ops before ``before``)."""
        enc = self.enc
        for cls in postorder([c], lambda k: [d for d in self.choice[k].children if d not in self.values], no_order):
            if cls in self.values:  # ``c`` itself, built for an earlier use
                continue
            n = self.choice[cls]
            ins = [self.values[k] for k in n.children]
            new: Operation | None = None
            if n.op == "Read":
                arr, dom = enc.reads[n.args[0]]
                new = tdfg.TensorOp(arr, dom, enc.rank)
            elif n.op == "Const":
                new = enc.consts[n.args[0]].clone()
            elif n.op == "Leaf":
                self.values[cls] = enc.leaves[n.args[0]]  # defined earlier (``leaves_in_order``)
                continue
            elif n.op.startswith("Cmp"):
                opname = n.args[0]
                new = tdfg.CmpOp(opname, ins, tdfg.TensorType(i1, enc.rank) if opname in tdfg.COMPARE_OPS else ins[-1].type)
            elif n.op == "Mv":
                new = tdfg.MvOp(ins[0], n.args[0], enc.slots.affine(n.args[1]))
            elif n.op == "Bc":
                new = tdfg.BcOp(ins[0], n.args[0], enc.slots.affine(n.args[1]), enc.slots.affine(n.args[2]))
            elif n.op == "Shrink":
                lo, hi = enc.slots.affine(n.args[1]), enc.slots.affine(n.args[2])
                if lo.is_constant and hi.is_constant and lo.const > hi.const:
                    hi = lo  # Eq. 6b met disjoint ranges (a compute over an empty intersection): empty either way
                new = tdfg.ShrinkOp(ins[0], n.args[0], lo, hi)
            assert new is not None
            Rewriter.insert_op(new, InsertPoint.before(before))
            self.values[cls] = new.results[0]
        return self.values[c]


MARK_VALUE = 1 << 40  # Root ids marking the graph's own values (the extracted roots are 0..)
MARK_LEAF = 1 << 41


def own_choice(view: EGraphView, enc: GraphEncoding) -> dict[str, ENode] | None:
    """The graph itself as an extraction: each e-class of one of its values picks the node
    of the first op that computes it; None if one is not found."""
    found = view.root_class
    if any(MARK_VALUE + j not in found for j in range(len(enc.terms))):
        return None
    cls = {v: found[MARK_VALUE + j] for j, v in enumerate(enc.terms)}
    choice: dict[str, ENode] = {}
    for i, v in enumerate(enc.leaves):
        c = found.get(MARK_LEAF + i)
        leaf = next((n for n in view.classes.get(c, ()) if n.op == "Leaf" and n.args == (i,)), None)
        if leaf is None:
            return None
        cls[v] = c
        choice.setdefault(c, leaf)
    for v in enc.terms:
        op = v.owner
        want = enc.node(op)  # type: ignore[arg-type]
        kids = tuple(cls[o] for o in op.operands) if not isinstance(op, (tdfg.TensorOp, tdfg.ConstOp)) else ()
        node = next((n for n in view.classes.get(cls[v], ()) if (n.op, n.args, n.children) == (*want, kids)), None)
        if node is None:
            return None
        choice.setdefault(cls[v], node)
    return choice


def replace_graph(graph: tdfg.GraphOp, enc: GraphEncoding, choice: Mapping[str, ENode], root_class: Mapping[SSAValue, str]) -> None:
    """Rebuild the body: extracted DAGs before the ops that use them, opaque ops kept in order."""
    from infs.passes.canonicalize_tdfg import layout_hints

    block: Block = graph.body.block
    rb = _Rebuild(enc, choice)
    mapping: dict[SSAValue, SSAValue] = {}
    for op in enc.opaque:
        for v in op.operands:
            if v in root_class and v not in mapping:
                mapping[v] = rb.emit(root_class[v], op)
    for op in enc.opaque:
        for k, v in enumerate(op.operands):
            if v in mapping:
                op.operands[k] = mapping[v]
    # the new reads (and constants) go first: reads in the e-graph are the ones no write
    # of the graph precedes, so they read the arrays as the graph starts
    top = block.first_op
    assert top is not None
    for v in rb.values.values():
        new = v.owner
        if isinstance(new, (tdfg.TensorOp, tdfg.ConstOp)) and new is not top and v not in enc.leaf_ids:
            new.detach()
            block.insert_op_before(new, top)
    # the old algebra nodes are dead now
    for op in reversed(list(block.ops)):
        if isinstance(op, _PURE) and not any(r.uses for r in op.results):
            block.erase_op(op)
    if graph.hints is not None:
        graph.hints = layout_hints(graph)


def restore_graph(graph: tdfg.GraphOp, saved: tdfg.GraphOp) -> None:
    """Give ``graph`` the body of ``saved`` (a clone of ``graph``, rewritten or not); ``saved`` is erased."""
    block, old = graph.body.block, saved.body.block
    for a, b in zip(block.args, old.args):
        b.replace_all_uses_with(a)
    for op in reversed(list(block.ops)):
        block.erase_op(op, safe_erase=False)
    for op in list(old.ops):
        op.detach()
        block.add_op(op)
    graph.hints = saved.hints
    saved.erase()


_PURE = (tdfg.TensorOp, tdfg.ConstOp, tdfg.CmpOp, tdfg.MvOp, tdfg.BcOp, tdfg.ShrinkOp)


def leaves_in_order(enc: GraphEncoding, choice: Mapping[str, ENode], root_class: Mapping[SSAValue, str]) -> bool:
    """Every leaf an extracted DAG uses is defined before the op that consumes the DAG."""
    available: set[int] = set()
    seen: set[str] = set()  # checked under an earlier op: fewer leaves were available there
    for op in enc.opaque:
        roots = [root_class[v] for v in op.operands if v in root_class and root_class[v] not in seen]
        for c in postorder(roots, lambda k: [d for d in choice[k].children if d not in seen], no_order):
            seen.add(c)
            n = choice[c]
            if n.op == "Leaf" and n.args[0] not in available:
                return False
        available.update(enc.leaf_ids[r] for r in op.results if r in enc.leaf_ids)
    return True
