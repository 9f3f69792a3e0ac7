"""Extraction of the cheapest graph from a saturated e-graph, for ``optimize-tdfg``.

Takes the serialized e-graph (egglog's JSON: ``EGraphView`` keeps its tensor
e-classes), the graph's encoding and a ``CostModel``; gives a choice of one
e-node per e-class: the best tree (or the one with shared children's costs
split among their users, when its DAG is cheaper), then a bounded number of
single e-class switches, each followed by re-picking the DAG's e-classes by
marginal cost.  ``DagRegisters`` counts the live registers of the DAG a
choice would build, without building it (the lowering's schedule), so that
a DAG needing more registers than fit costs more than any latency.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import i1
from xdsl.ir import Operation

from infs.dialects import tdfg
from infs.passes.tdfg_cost import EPS_NODE, EPS_READ, REGISTER_PENALTY, CostModel, no_order, peak_live
from infs.passes.tdfg_domains import postorder
from infs.passes.tdfg_to_egraph import GraphEncoding


# ---------------------------------------------------------------------------
# Serialized e-graph, costs, extraction
# ---------------------------------------------------------------------------


@dataclass
class ENode:
    op: str
    children: tuple[str, ...]  # e-class ids of Tn children
    args: tuple  # literal arguments (strings, ints, Aff field tuples) in order


class EGraphView:
    """The Tn e-classes of a serialized e-graph."""

    def __init__(self, data: dict):
        nodes = data["nodes"]
        self.eclass_of = {nid: n["eclass"] for nid, n in nodes.items()}
        # literals: strings (JSON-quoted) and i64s; affine fields: the literals of an ``A`` node
        prim = {nid: json.loads(n["op"]) if n["op"].startswith('"') else int(n["op"]) for nid, n in nodes.items() if nid.startswith("primitive-")}
        affs = {n["eclass"]: tuple(prim[c] for c in n["children"]) for n in nodes.values() if n["op"] == "A"}
        self.classes: dict[str, list[ENode]] = {}
        self.root_class: dict[int, str] = {}  # Root id -> its e-class
        for nid, n in nodes.items():
            op = n["op"]
            if nid.startswith("primitive-") or (op not in TN_OPS and op != "Root"):
                continue
            kids: list[str] = []
            args: list = []
            for c in n["children"]:
                if c in prim:
                    args.append(prim[c])
                elif self.eclass_of[c] in affs:
                    args.append(affs[self.eclass_of[c]])
                else:
                    kids.append(self.eclass_of[c])
            if op == "Root":
                self.root_class[args[0]] = n["eclass"]
            else:
                self.classes.setdefault(n["eclass"], []).append(ENode(op, tuple(kids), tuple(args)))


TN_OPS = ("Read", "Const", "Leaf", "Cmp1", "Cmp2", "Cmp3", "Mv", "Bc", "Shrink")


class Extractor:
    def __init__(self, view: EGraphView, enc: GraphEncoding, model: CostModel):
        self.enc, self.model = enc, model
        self.classes = view.classes
        self._class_facts()
        self.ncost = {id(n): self.node_cost(n) for nodes in self.classes.values() for n in nodes}
        parents: dict[str, set[str]] = {}  # the e-classes with a node using each e-class
        self.users: dict[str, list[tuple[str, ENode]]] = {}  # and those nodes
        for c, nodes in self.classes.items():
            for n in nodes:
                for k in dict.fromkeys(n.children):
                    parents.setdefault(k, set()).add(c)
                    self.users.setdefault(k, []).append((c, n))
        self.parents = {k: len(v) for k, v in parents.items()}

    # -- per-class facts: element type, constant-ness -----------------------------------
    def _class_facts(self) -> None:
        enc = self.enc
        self.ty: dict[str, str] = {}
        self.const: dict[str, bool] = {}
        self.scalar: dict[str, bool] = {}
        for c, nodes in self.classes.items():
            for n in nodes:
                if n.op in ("Const", "Read", "Leaf"):
                    self.ty[c] = enc.types[(n.op.lower(), n.args[0])]
                if n.op == "Const":
                    self.const[c] = True
                    self.scalar[c] = self.scalar.get(c, False) or enc.consts[n.args[0]].scalar is not None
                elif n.op.startswith("Cmp"):
                    self.ty[c] = "i1" if n.args[0] in tdfg.COMPARE_OPS else n.args[1]
        changed = True
        while changed:  # moves, broadcasts and shrinks keep their input's type
            changed = False
            for c, nodes in self.classes.items():
                if c in self.ty:
                    continue
                for n in nodes:
                    if n.children and n.children[0] in self.ty:
                        self.ty[c] = self.ty[n.children[0]]
                        changed = True
                        break

    def node_cost(self, n: ENode) -> float:
        m = self.model
        if n.op == "Read":
            return EPS_READ if n.args[0] in self.enc.expanded else 0.0
        if n.op in ("Const", "Leaf"):
            return 0.0
        if n.op.startswith("Cmp"):
            ins = [self.const.get(k, False) for k in n.children]
            scalar = any(self.scalar.get(k, False) for k in n.children)
            return m.compute(n.args[0], n.args[1], ins, scalar)
        child = n.children[0]
        if n.op == "Shrink" or self.const.get(child, False):
            return EPS_NODE  # (a moved / broadcast constant is the same constant)
        ty = self.ty.get(child)
        if ty is None:
            return math.inf
        if n.op == "Mv":
            return m.move(ty, self.enc.slots.affine(n.args[1]))
        return m.broadcast(ty, self.enc.slots.affine(n.args[2]))

    # -- extraction -------------------------------------------------------------------------
    def best_tree(self, amortized: bool = False) -> dict[str, ENode]:
        """The cheapest tree per e-class (Bellman-Ford: the e-graph has cycles).  With
        ``amortized``, a child's cost is shared among the e-classes that can use it -- a
        guess at sharing that the DAG cost then checks."""
        cost = {c: math.inf for c in self.classes}
        choice: dict[str, ENode] = {}
        ncost = self.ncost
        share = {k: max(1, v) for k, v in self.parents.items()} if amortized else {}
        # Sweeps in e-class order (the first node to reach an e-class's least cost keeps
        # it); a node is re-priced only when one of its children got cheaper since it was
        # last priced -- otherwise its price is the one that already lost.
        pending = {id(n) for nodes in self.classes.values() for n in nodes}
        while pending:
            for c, nodes in self.classes.items():
                for n in nodes:
                    if id(n) not in pending:
                        continue
                    pending.discard(id(n))
                    total = ncost[id(n)] + sum(cost.get(k, math.inf) / share.get(k, 1) for k in n.children)
                    if total < cost[c] - 1e-12:
                        cost[c], choice[c] = total, n
                        pending.update(id(u) for _c, u in self.users.get(c, ()))
        if not amortized:
            self.tree_cost, self.tree_choice = cost, choice
        return choice

    def dag(self, choice: Mapping[str, ENode], roots: Sequence[str]) -> tuple[float, list[str]] | None:
        """Cost and a post-order of the DAG ``choice`` picks from ``roots``; None if cyclic."""
        state: dict[str, int] = {}
        order: list[str] = []
        total = 0.0
        for r in roots:
            if state.get(r) == 2:
                continue
            stack = [(r, False)]
            while stack:
                c, done = stack.pop()
                if done:
                    state[c] = 2
                    order.append(c)
                    total += self.ncost[id(choice[c])]
                    continue
                s = state.get(c)
                if s == 2:
                    continue
                if s == 1 or c not in choice:
                    return None  # a cycle (``c`` is on the path to it), or an e-class with no node
                state[c] = 1
                stack.append((c, True))
                for k in choice[c].children:
                    if state.get(k) != 2:
                        stack.append((k, False))
        return total, order

    def improve(
        self, choice: dict[str, ENode], roots: Sequence[str], budget: int, excess: Callable[[Mapping[str, ENode]], int] | None = None
    ) -> tuple[dict[str, ENode], float, list[tuple[float, dict[str, ENode]]]]:
        """Lower the DAG cost (shared values are paid once).

        A candidate switches one e-class of the DAG to another of its nodes, then re-picks
        every e-class of the resulting DAG by its marginal cost (children already in the DAG
        are free), children first; it is kept when the DAG gets cheaper.  That finds reuse
        that needs several e-classes to switch together (Fig. 20: both multiplies move onto
        the one over the expanded tensor).  ``budget`` bounds the candidates tried, so the
        result does not depend on the machine's speed.  ``excess`` (registers a DAG needs
        beyond what fits) is a penalty that outweighs any cost: a DAG that fits is kept
        over a cheaper one that does not.  Also returns every DAG it kept on the way,
        (cost, choice), from the first."""
        res = self.dag(choice, roots)
        assert res is not None
        penalty = (lambda ch: REGISTER_PENALTY * excess(ch)) if excess is not None else (lambda ch: 0.0)  # noqa: E731
        best, order = res
        best_p = best + penalty(choice)
        kept = [(best, choice)]
        tried = 0
        improved = True
        while improved and tried < budget:
            improved = False
            # the current DAG's switches (an e-class to another of its nodes), within the budget
            switches = ((c, n) for c in list(order) for n in self.classes[c] if n is not choice[c] and math.isfinite(self.ncost[id(n)]))
            for c, n in itertools.islice(switches, budget - tried):
                tried += 1
                trials = []
                if excess is not None:
                    # the switch alone (new e-classes from the best trees): re-picking
                    # the rest tends to bring back the sharing that needs the registers
                    trials.append({**self.tree_choice, **choice, c: n})
                greedy = self._regreedy({**choice, c: n}, roots, keep=c)
                if greedy is not None:
                    trials.append(greedy)
                found = next(((t, r) for t in trials if (r := self.dag(t, roots)) is not None and r[0] + penalty(t) < best_p - 1e-9), None)
                if found is not None:
                    choice, (best, order) = found
                    best_p = best + penalty(choice)
                    kept.append((best, choice))
                    improved = True
                    break
        return choice, best, kept

    def _regreedy(self, choice: dict[str, ENode], roots: Sequence[str], keep: str) -> dict[str, ENode] | None:
        r = self.dag(choice, roots)
        if r is None:
            return None
        _cost, order = r
        inside = set(order)
        for c in order:  # post-order: children first
            if c == keep:
                continue
            best_n, best_m = choice[c], math.inf
            for n in self.classes[c]:
                m = self.ncost[id(n)] + sum(0.0 if k in inside else self.tree_cost.get(k, math.inf) / max(1, self.parents.get(k, 1)) for k in n.children)
                if m < best_m - 1e-12:
                    best_n, best_m = n, m
            choice[c] = best_n
        return choice

class DagRegisters:
    """``live_registers`` of the graph an extraction would build, computed on the chosen
    e-classes without building it: the same schedule (side effects in order, operand
    trees depth first, the larger first) and the same register rules (computes, moves,
    broadcasts and reductions fill one; a shrink is its input's)."""

    def __init__(self, enc: GraphEncoding, root_classes: Sequence[str]):
        self.enc = enc
        root_of = dict(zip(enc.roots, root_classes))
        index = {op: i for i, op in enumerate(enc.opaque)}
        self.sinks = [i for i, op in enumerate(enc.opaque) if isinstance(op, (tdfg.StoreOp, tdfg.StreamStoreOp, tdfg.YieldOp))]
        self.reduces = {i for i, op in enumerate(enc.opaque) if isinstance(op, tdfg.ReduceOp)}
        self.leaf_owner = [index.get(v.owner) if isinstance(v.owner, Operation) else None for v in enc.leaves]
        # operands of each opaque op: ("c", e-class) for algebra values, ("o", i) for values of opaque op i
        self.opaque_args: list[list[tuple[str, object]]] = []
        for op in enc.opaque:
            args: list[tuple[str, object]] = []
            for v in op.operands:
                if v in root_of:
                    args.append(("c", root_of[v]))
                elif isinstance(v.owner, Operation) and v.owner in index:
                    args.append(("o", index[v.owner]))
            self.opaque_args.append(args)

    def __call__(self, choice: Mapping[str, ENode]) -> int:
        def resolve(key):
            if key[0] == "c":
                n = choice[key[1]]
                if n.op == "Leaf":
                    owner = self.leaf_owner[n.args[0]]
                    return None if owner is None else ("o", owner)
            return key

        def deps(key) -> list:
            if key[0] == "o":
                out = [resolve(a) for a in self.opaque_args[key[1]]]
            else:
                out = [resolve(("c", k)) for k in choice[key[1]].children]
            return [d for d in out if d is not None]

        size: dict = {}

        def subtree(key) -> int:
            for cur in postorder([] if key in size else [key], lambda k: [d for d in deps(k) if d not in size], no_order):
                size[cur] = 1 + sum(size[k] for k in deps(cur))
            return size[key]

        order = postorder([("o", sink) for sink in self.sinks], deps, subtree)
        pos = {k: i for i, k in enumerate(order)}

        def register(key):
            while key[0] == "c" and choice[key[1]].op == "Shrink":
                nxt = resolve(("c", choice[key[1]].children[0]))
                if nxt is None:
                    break
                key = nxt
            return key

        last: dict = {}
        for key in order:
            for d in deps(key):
                r = register(d)
                last[r] = max(last.get(r, -1), pos[key])
        fills = lambda key: key[1] in self.reduces if key[0] == "o" else choice[key[1]].op.startswith(("Cmp", "Mv", "Bc"))  # noqa: E731
        return peak_live([(pos[key], last[key]) for key in order if key in last and fills(key)])
