"""``optimize-tdfg``: each tensor dataflow graph becomes the cheapest equivalent one equality saturation finds.

After ASPLOS'23 §3.2 "Optimizing tDFG", Appendix Eq. 3-9, Figs. 6 and 20.

Takes: any module; works inside every ``tdfg.graph`` (symbolic sizes).  Gives: the same
graphs, each replaced by the cheapest equivalent graph found, or left exactly as it was
when nothing cheaper was found.

Per graph: tDFG -> e-graph -> saturate -> extract -> tDFG.

* **E-graph library: egglog** (``egglog`` on PyPI, the maintained successor of the egg
  library the paper used), driven through its Rust engine with egglog source text
  (``egglog.bindings``): the Python DSL's per-call overhead was ~10 ms per run.  xDSL 0.74's ``eqsat`` passes keep e-classes inside the IR and
  rewrite with PDL patterns: they have no way to compute with rule parameters (Eq. 7b's
  shifted range ``[p + dist, q + dist)``) or to guard a rule by a proved fact, which
  egglog's rules do with their i64 arithmetic and conditions.  The encoding and the rules
  are in ``infs.passes.tdfg_egraph``.
* **Rules**: Eq. 3a/3b/3c (associative, commutative, distributive), 4a/4b (compute with
  move / broadcast), 6a/6b, 7a/7b, 8a/8b, 9 (shrink with shrink / move / broadcast /
  compute) are egglog rules, each in the ruleset of its equation.  Eq. 5 (tensor
  expansion) is applied while the e-graph is built: every ``tdfg.tensor`` read of an array
  is made equal to shrinks of the read of the hull of that array's reads (the largest
  expansion that stays inside cells the graph already reads), where that hull is provable.
* **Exact symbolic domains**: bounds are affine in the graph's index symbols (at most
  ``tdfg_egraph.SLOTS`` of them; a graph with more is left as it is); order facts are
  proved for every non-negative value of the symbols (``lattice.provably_ge``), and a
  rule that needs a fact it cannot prove does not fire.
* **Facts the rules respect** (tdfg semantics, ``infs.dialects.tdfg``): an integer
  ``div`` never moves onto cells it did not compute on (a zero divisor there would be an
  error), so Eq. 4 and 9 skip it; float add/mul/min/max are reassociated and distributed
  only with ``reassociate_floats`` (on by default, as the paper does; the rounding of the
  result may change, as with any reassociation); a ``tdfg.tensor`` read after a write to
  its array in the same graph is kept where it is.
* **Extraction** minimizes an architecture-informed latency (§3.2: move vs. compute
  latency, data moved, number of computes), priced with the hardware cost profile of
  ``config`` (``infs.hardware``), the numbers the simulator charges: a compute costs
  ``CostProfile.compute_cycles(op, type, has_const)`` plus the copy a constant needs
  where the lowering cannot take it as the command's constant operand, and the JIT's
  per-command charge; a move costs the intra-tile shift (``bits x |dist|``, ``timing.py``)
  plus an inter-tile transfer and its synchronization (H-tree levels up and down and a
  barrier round trip to the farthest bank); a broadcast likewise over its copies.  Shared
  values are paid once: the extractor starts from the best tree (or the one with shared
  children's costs split among their users, when its DAG is cheaper) and then tries a
  bounded number of single e-class switches, each followed by re-picking the DAG's
  e-classes by marginal cost.  The result replaces the graph only when it is strictly
  cheaper than the graph itself under the same model and needs no more live registers
  than the graph (or than the wordlines hold besides the arrays: no spilling, §3.4), so
  the pass never makes a graph worse by its own measure.  Registers are part of the
  search: the live registers of a candidate DAG are computed without building it
  (``_DagRegisters``, the lowering's schedule) and each one beyond what fits costs more
  than any latency; when the cheapest DAGs do not fit, the search starts again from the
  graph itself (which fits) and keeps only DAGs that fit (conv3d on paper-64).
* **Limits** (options): ``node_limit`` (e-nodes), ``iter_limit`` (saturation
  iterations), ``time_limit`` (seconds of saturation per graph); whichever comes first
  stops the saturation, and extraction uses what was found.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, i1
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import DiagnosticException

from infs.dialects import tdfg
from infs.dialects.lattice import Affine, Domain, LatticeError
from infs.element_types import COMMUTATIVE, ELEMENT_BITS, element_name, is_float_element
from infs.hardware import CostProfile, HardwareConfig, get_profile, load_config
from infs.passes.tdfg_domains import postorder

ASSOCIATIVE = ("add", "mul", "min", "max", "and", "or", "xor")
DISTRIBUTIVE = (("mul", "add"), ("mul", "sub"))
EPS_NODE = 1e-3  # every node with inputs costs something: the best tree is acyclic
EPS_READ = 1e-2  # a read that has an expanded form: prefer the form other nodes can share


class OptimizeError(DiagnosticException):
    """A bad option of ``optimize-tdfg`` (one line)."""


def _elem(t) -> str:
    return str(t.element_type) if isinstance(t, tdfg.TensorType) else str(t)


# ---------------------------------------------------------------------------
# The cost model (priced with the hardware cost profile)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CostModel:
    """Latency estimate (cycles) of one tDFG node, from ``infs.hardware`` (see module docstring)."""

    cfg: HardwareConfig
    profile: CostProfile

    @staticmethod
    def of(config: str | HardwareConfig) -> "CostModel":
        cfg = load_config(config)
        return CostModel(cfg, get_profile(cfg.profile))

    @property
    def per_command(self) -> float:
        return float(self.cfg.jit_command_cycles)

    @property
    def transfer(self) -> float:
        """Inter-tile part of a move (timing.py ``_inter_tile`` + ``sync``): up and down the
        H-tree, and a barrier round trip between TC_core and the farthest bank."""
        c = self.cfg
        far = (c.mesh_rows - 1) + (c.mesh_cols - 1)
        return 2 * c.htree_levels + 2 * far * c.hop_cycles

    def _nominal(self, e: Affine) -> int:
        # a symbolic distance / count: assume it spans a tile's bitlines
        return abs(e.const) if e.is_constant else self.cfg.bitlines

    def compute(self, op: str, ty: str, const_inputs: Sequence[bool], scalar_only: bool) -> float:
        if all(const_inputs):
            # folded when every input is a literal; runtime scalars alone cannot be lowered
            return math.inf if scalar_only else EPS_NODE
        flags = list(const_inputs)
        if op in COMMUTATIVE and len(flags) == 2 and flags[0] and not flags[1]:
            flags.reverse()
        has_const = flags[-1] and op != "select"
        copies = sum(flags[:-1]) + (1 if flags[-1] and op == "select" else 0)
        cost = self.profile.compute_cycles(op, ty, has_const) + self.per_command
        if copies:
            cost += copies * (self.profile.compute_cycles("copy", ty, True) + self.per_command)
        return float(cost)

    def move(self, ty: str, dist: Affine) -> float:
        return float(ELEMENT_BITS[ty] * max(1, self._nominal(dist)) + self.transfer + self.per_command)

    def broadcast(self, ty: str, count: Affine) -> float:
        return float(ELEMENT_BITS[ty] * max(1, min(self._nominal(count), self.cfg.bitlines)) + self.transfer + self.per_command)


# ---------------------------------------------------------------------------
# Affine <-> egglog
# ---------------------------------------------------------------------------


class _Slots:
    def __init__(self, symbols: Sequence[str]):
        self.names = tuple(sorted(symbols))
        self.index = {n: k for k, n in enumerate(self.names)}

    def fields(self, e: Affine) -> tuple[int, ...]:
        from infs.passes.tdfg_egraph import SLOTS

        out = [e.const] + [0] * SLOTS
        for n, c in e.terms:
            out[1 + self.index[n]] = c
        return tuple(out)

    def aff(self, e: Affine) -> str:
        from infs.passes.tdfg_egraph import aff_text

        return aff_text(self.fields(e))

    def affine(self, fields: Sequence[int]) -> Affine:
        return Affine._make(fields[0], {n: fields[1 + k] for k, n in enumerate(self.names)})  # noqa: SLF001


# ---------------------------------------------------------------------------
# Graph -> e-graph
# ---------------------------------------------------------------------------

_WRITES = (tdfg.StoreOp, tdfg.StreamStoreOp)


@dataclass
class _Encoding:
    graph: tdfg.GraphOp
    slots: _Slots
    rank: int
    reads: list[tuple[SSAValue, Domain]] = field(default_factory=list)  # read id -> (array, domain)
    read_ids: dict[tuple[int, Domain], int] = field(default_factory=dict)
    expanded: set[int] = field(default_factory=set)  # read ids that have an expanded form
    consts: list[tdfg.ConstOp] = field(default_factory=list)
    const_ids: dict[tuple, int] = field(default_factory=dict)
    leaves: list[SSAValue] = field(default_factory=list)
    leaf_ids: dict[SSAValue, int] = field(default_factory=dict)
    terms: dict[SSAValue, str] = field(default_factory=dict)  # algebra value -> egglog global
    program: list[str] = field(default_factory=list)  # egglog commands adding the graph
    opaque: list[Operation] = field(default_factory=list)  # ops kept as they are, in order
    roots: list[SSAValue] = field(default_factory=list)  # algebra values the opaque ops use
    types: dict[tuple[str, int], str] = field(default_factory=dict)  # (kind, id) -> element type

    def read_id(self, array: SSAValue, dom: Domain, ty: str = "") -> int:
        """The id of the read of ``array`` over ``dom``, numbered when first seen (of type ``ty``)."""
        key = (list(self.graph.array_args).index(array), dom)
        if key not in self.read_ids:
            self.read_ids[key] = len(self.reads)
            self.reads.append((array, dom))
            self.types[("read", self.read_ids[key])] = ty
        return self.read_ids[key]

    def const_id(self, op: tdfg.ConstOp) -> int:
        key = _const_key(op, self.graph)
        if key not in self.const_ids:
            self.const_ids[key] = len(self.consts)
            self.consts.append(op)
            self.types[("const", self.const_ids[key])] = _elem(op.result.type)
        return self.const_ids[key]

    def node(self, op: Operation) -> tuple[str, tuple] | None:
        """A read, constant or algebra op as its e-node: constructor and literal arguments."""
        if isinstance(op, tdfg.TensorOp):
            return "Read", (self.read_id(op.array, op.domain.data),)
        if isinstance(op, tdfg.ConstOp):
            return "Const", (self.const_id(op),)
        return _algebra(op, self.slots)


def _const_key(op: tdfg.ConstOp, graph: tdfg.GraphOp) -> tuple:
    if op.scalar is not None:
        # by the value the graph's scalar is bound to: two block arguments bound to the same
        # SSA value outside the graph (``syms(w2 = %w, w3 = %w)``) are provably equal
        outer = graph.scalars[list(graph.scalar_args).index(op.scalar)]
        return ("scalar", outer, op.result.type)
    return ("literal", str(op.value), op.result.type)  # by spelling: -0.0 stays apart from 0.0


def _algebra(op: Operation, slots: _Slots) -> tuple[str, tuple] | None:
    """A compute, move, broadcast or shrink as an e-node: its constructor and literal
    arguments (op name and type, dim, affine fields), as ``_EGraphView`` reads them back."""
    if isinstance(op, tdfg.CmpOp):
        return f"Cmp{len(op.inputs)}", (op.op.data, _elem(op.inputs[-1].type))
    if isinstance(op, tdfg.MvOp):
        return "Mv", (op.dim.value.data, slots.fields(op.dist.data))
    if isinstance(op, tdfg.BcOp):
        return "Bc", (op.dim.value.data, slots.fields(op.dist.data), slots.fields(op.count.data))
    if isinstance(op, tdfg.ShrinkOp):
        ((lo, hi),) = op.range.data.bounds
        return "Shrink", (op.dim.value.data, slots.fields(lo), slots.fields(hi))
    return None


def _encode(graph: tdfg.GraphOp, slots: _Slots) -> _Encoding:
    """The graph's tensor algebra as egglog terms (``enc.terms``: value -> a ``$v<k>`` global
    bound by ``enc.program``); every other op stays as it is."""
    from infs.passes.tdfg_egraph import aff_text

    enc = _Encoding(graph, slots, graph.lattice_rank)
    written: set[SSAValue] = set()

    def bind(v: SSAValue, text: str) -> None:
        name = f"$v{len(enc.terms)}"
        enc.program.append(f"(let {name} {text})")
        enc.terms[v] = name

    def term(v: SSAValue) -> str:
        t = enc.terms.get(v)
        if t is not None:
            return t
        if v not in enc.leaf_ids:
            enc.leaf_ids[v] = len(enc.leaves)
            enc.leaves.append(v)
            enc.types[("leaf", enc.leaf_ids[v])] = _elem(v.type)
        return f"(Leaf {enc.leaf_ids[v]})"

    for op in graph.body.block.ops:
        if isinstance(op, tdfg.TensorOp) and op.array not in written:
            bind(op.result, f"(Read {enc.read_id(op.array, op.domain.data, _elem(op.result.type))})")
        elif isinstance(op, tdfg.ConstOp):
            bind(op.result, f"(Const {enc.const_id(op)})")
        elif (node := _algebra(op, slots)) is not None:
            ctor, values = node
            lits = [f'"{a}"' if isinstance(a, str) else aff_text(a) if isinstance(a, tuple) else str(a) for a in values]
            kids = [term(v) for v in op.operands]
            # egglog's constructors: a compute's op and type come first, a move's input first
            bind(op.result, "(" + " ".join([ctor, *(lits + kids if ctor.startswith("Cmp") else kids + lits)]) + ")")
        else:
            enc.opaque.append(op)
            for v in op.operands:
                if v in enc.terms and v not in enc.roots:
                    enc.roots.append(v)
            if isinstance(op, _WRITES):
                written.add(op.array)
    return enc


def _expand(enc: _Encoding, graph: tdfg.GraphOp, slots: _Slots) -> list[str]:
    """Adds the expanded reads to ``enc``; the egglog facts of Eq. 5 and of one-cell-wide
    reads (Eq. 8b).  Deterministic: the same graph gives the same read ids."""
    program: list[str] = []
    # Eq. 5: T(.., p, q, ..) <=> S(i, p, q, T(.., p', q', ..)) towards the hull of the array's reads
    for rid, hull in _expansions(enc):
        arr, dom = enc.reads[rid]
        t = f"(Read {enc.read_id(arr, hull, enc.types[('read', rid)])})"
        for d, ((p, q), (hp, hq)) in enumerate(zip(dom.bounds, hull.bounds)):
            if (p, q) != (hp, hq):
                t = f"(Shrink {t} {d} {slots.aff(p)} {slots.aff(q)})"
        program.append(f"(union (Read {rid}) {t})")
        enc.expanded.add(rid)
    # Eq. 8b needs one-cell-wide reads
    for rid, (_arr, dom) in enumerate(enc.reads):
        for d, (p, q) in enumerate(dom.bounds):
            if q - p == Affine(1):
                program.append(f"(unit_at (Read {rid}) {d} {slots.aff(p)})")
    return program


def _expansions(enc: _Encoding) -> list[tuple[int, Domain]]:
    """Eq. 5: for each read, the hull of it and of the other reads of its array that have
    a provable hull with it -- cells the graph reads anyway, so they exist.  A read that is
    provably empty reads nothing, and its bounds need not lie in the array (``[N + 3:N + 3]``
    is a valid read of an N-cell array): it neither widens a hull nor is expanded."""
    by_array: dict[SSAValue, list[int]] = {}
    for rid, (arr, dom) in enumerate(enc.reads):
        if dom.is_empty() is not True:
            by_array.setdefault(arr, []).append(rid)
    out: list[tuple[int, Domain]] = []
    for rids in by_array.values():
        for rid in rids:
            hull = enc.reads[rid][1]
            for other in rids:
                try:
                    hull = hull.hull(enc.reads[other][1])
                except LatticeError:
                    continue  # not provable: no expansion towards that read
            if hull != enc.reads[rid][1]:
                out.append((rid, hull))
    return out


# ---------------------------------------------------------------------------
# Serialized e-graph, costs, extraction
# ---------------------------------------------------------------------------


@dataclass
class _Node:
    op: str
    children: tuple[str, ...]  # e-class ids of Tn children
    args: tuple  # literal arguments (strings, ints, Aff field tuples) in order


class _EGraphView:
    """The Tn e-classes of a serialized e-graph."""

    def __init__(self, data: dict):
        nodes = data["nodes"]
        self.eclass_of = {nid: n["eclass"] for nid, n in nodes.items()}
        # literals: strings (JSON-quoted) and i64s; affine fields: the literals of an ``A`` node
        prim = {nid: json.loads(n["op"]) if n["op"].startswith('"') else int(n["op"]) for nid, n in nodes.items() if nid.startswith("primitive-")}
        affs = {n["eclass"]: tuple(prim[c] for c in n["children"]) for n in nodes.values() if n["op"] == "A"}
        self.classes: dict[str, list[_Node]] = {}
        self.root_class: dict[int, str] = {}  # Root id -> its e-class
        for nid, n in nodes.items():
            op = n["op"]
            if nid.startswith("primitive-") or (op not in _TN_OPS and op != "Root"):
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
                self.classes.setdefault(n["eclass"], []).append(_Node(op, tuple(kids), tuple(args)))


_TN_OPS = ("Read", "Const", "Leaf", "Cmp1", "Cmp2", "Cmp3", "Mv", "Bc", "Shrink")


class _Extractor:
    def __init__(self, view: _EGraphView, enc: _Encoding, model: CostModel):
        self.enc, self.model = enc, model
        self.classes = view.classes
        self._class_facts()
        self.ncost = {id(n): self.node_cost(n) for nodes in self.classes.values() for n in nodes}
        parents: dict[str, set[str]] = {}  # the e-classes with a node using each e-class
        self.users: dict[str, list[tuple[str, _Node]]] = {}  # and those nodes
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

    def node_cost(self, n: _Node) -> float:
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
    def best_tree(self, amortized: bool = False) -> dict[str, _Node]:
        """The cheapest tree per e-class (Bellman-Ford: the e-graph has cycles).  With
        ``amortized``, a child's cost is shared among the e-classes that can use it -- a
        guess at sharing that the DAG cost then checks."""
        cost = {c: math.inf for c in self.classes}
        choice: dict[str, _Node] = {}
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

    def dag(self, choice: Mapping[str, _Node], roots: Sequence[str]) -> tuple[float, list[str]] | None:
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
        self, choice: dict[str, _Node], roots: Sequence[str], budget: int, excess: Callable[[Mapping[str, _Node]], int] | None = None
    ) -> tuple[dict[str, _Node], float, list[tuple[float, dict[str, _Node]]]]:
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
        penalty = (lambda ch: _REGISTER_PENALTY * excess(ch)) if excess is not None else (lambda ch: 0.0)  # noqa: E731
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

    def _regreedy(self, choice: dict[str, _Node], roots: Sequence[str], keep: str) -> dict[str, _Node] | None:
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

class _DagRegisters:
    """``live_registers`` of the graph an extraction would build, computed on the chosen
    e-classes without building it: the same schedule (side effects in order, operand
    trees depth first, the larger first) and the same register rules (computes, moves,
    broadcasts and reductions fill one; a shrink is its input's)."""

    def __init__(self, enc: _Encoding, root_classes: Sequence[str]):
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

    def __call__(self, choice: Mapping[str, _Node]) -> int:
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
            for cur in postorder([] if key in size else [key], lambda k: [d for d in deps(k) if d not in size], _no_order):
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
        return _peak([(pos[key], last[key]) for key in order if key in last and fills(key)])


def _no_order(_node) -> int:
    """``postorder``'s subtree size where any order of the dependences will do."""
    return 0


def _peak(spans: Sequence[tuple[int, int]]) -> int:
    """The most ``(first, last)`` position spans that overlap (a span ending where
    another starts overlaps it: the register is read by the op that fills the next)."""
    events = sorted([(a, 1) for a, _b in spans] + [(b, -1) for _a, b in spans], key=lambda e: (e[0], -e[1]))
    live = peak = 0
    for _k, delta in events:
        live += delta
        peak = max(peak, live)
    return peak


def live_registers(graph: tdfg.GraphOp) -> int:
    """The most tensor registers live at once in the lowering's node order (``schedule``):
    computes, moves and broadcasts each fill a register until their last use (a shrink is
    its input's register).  The wordlines hold only a few (§3.4: no spilling), so the pass
    does not accept a graph that needs more of them than the original."""
    from infs.passes.tdfg_domains import schedule

    order = schedule(list(graph.body.block.ops))
    pos = {op: k for k, op in enumerate(order)}
    owner: dict[SSAValue, SSAValue] = {}
    for op in order:
        if isinstance(op, tdfg.ShrinkOp):
            owner[op.result] = owner.get(op.input, op.input)
    last: dict[SSAValue, int] = {}
    for op in order:
        for v in op.operands:
            r = owner.get(v, v)
            last[r] = max(last.get(r, -1), pos[op])
    return _peak([(pos[op], last[op.results[0]]) for op in order if isinstance(op, (tdfg.CmpOp, tdfg.MvOp, tdfg.BcOp, tdfg.ReduceOp)) and op.results[0] in last])


def _register_room(graph: tdfg.GraphOp, model: CostModel) -> int:
    """Registers of the graph's widest element (32 bits at least: an i1 mask is no
    room for another value) a bitline's wordlines hold besides its laid-out arrays;
    a 64-bit graph's room is half a 32-bit one's."""
    from infs.passes.tdfg_domains import laid_out_arrays

    ops = list(graph.body.block.ops)
    widths = [ELEMENT_BITS.get(element_name(r.type.element_type) or "", 32) for op in ops for r in op.results if isinstance(r.type, tdfg.TensorType)]
    return model.cfg.wordlines // max([32, *widths]) - len(laid_out_arrays(ops, graph.array_args))


def original_cost(graph: tdfg.GraphOp, model: CostModel) -> float:
    """The graph's own cost under ``model`` (each live tensor node once)."""
    const: dict[SSAValue, bool] = {}
    scalar: dict[SSAValue, bool] = {}
    total = 0.0
    for op in graph.body.block.ops:
        if isinstance(op, tdfg.ConstOp):
            const[op.result] = True
            scalar[op.result] = op.scalar is not None
        elif isinstance(op, tdfg.CmpOp):
            ins = [const.get(v, False) for v in op.inputs]
            total += model.compute(op.op.data, _elem(op.inputs[-1].type), ins, any(scalar.get(v, False) for v in op.inputs))
            if all(ins):
                const[op.result] = True
        elif isinstance(op, (tdfg.MvOp, tdfg.BcOp, tdfg.ShrinkOp)):
            # a moved, broadcast or shrunk constant is the same constant
            const[op.result] = const.get(op.input, False)
            if const[op.result] or isinstance(op, tdfg.ShrinkOp):
                total += EPS_NODE
            elif isinstance(op, tdfg.MvOp):
                total += model.move(_elem(op.input.type), op.dist.data)
            else:
                total += model.broadcast(_elem(op.input.type), op.count.data)
    return total


# ---------------------------------------------------------------------------
# E-graph -> tDFG
# ---------------------------------------------------------------------------


class _Rebuild:
    def __init__(self, enc: _Encoding, choice: Mapping[str, _Node]):
        self.enc, self.choice = enc, choice
        self.values: dict[str, SSAValue] = {}

    def emit(self, c: str, before: Operation) -> SSAValue:
        """The value of e-class ``c`` (building its ops before ``before``)."""
        enc = self.enc
        for cls in postorder([c], lambda k: [d for d in self.choice[k].children if d not in self.values], _no_order):
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
                self.values[cls] = enc.leaves[n.args[0]]  # defined earlier (``_leaves_in_order``)
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


# ---------------------------------------------------------------------------
# The pass
# ---------------------------------------------------------------------------


_INT_LITERAL = re.compile(r"(?<![\w.])-?\d+(?![\w.])")


@dataclass
class GraphReport:
    """What ``optimize_graph`` did to one graph (for the benchmark and the tests)."""

    changed: bool
    reason: str  # why it kept the graph, or "optimized"
    cost_before: float
    cost_after: float
    enodes: int = 0
    iterations: int = 0
    seconds: float = 0.0
    saturation_seconds: float = 0.0


def optimize_graph(
    graph: tdfg.GraphOp,
    model: CostModel,
    node_limit: int = 1500,
    iter_limit: int = 10,
    time_limit: float = 1.0,
    reassociate_floats: bool = True,
    rules: Sequence[str] | None = None,
    shortcut: bool = True,
) -> GraphReport:
    """Optimize one graph in place (see module docstring); ``rules`` restricts the rule families.
    ``shortcut``: a graph no rule can make cheaper (``_no_rule_can_improve``) is kept without
    building its e-graph -- the same result, without egglog's start-up and saturation."""
    from infs.passes import tdfg_egraph as E

    start = time.perf_counter()
    before = original_cost(graph, model)
    syms = graph.symbol_names()
    if len(syms) > E.SLOTS:
        return GraphReport(False, f"more than {E.SLOTS} index symbols", before, before)
    slots = _Slots(syms)
    enc = _encode(graph, slots)
    if not enc.roots:
        return GraphReport(False, "no tensor computation", before, before)
    if shortcut and _no_rule_can_improve(enc):
        return GraphReport(False, NO_RULE_CAN_IMPROVE, before, before, seconds=time.perf_counter() - start)

    families = tuple(rules) if rules is not None else E.RULE_FAMILIES
    program = enc.program + _expand(enc, graph, slots)
    program += [f"(union (Root {k}) {enc.terms[v]})" for k, v in enumerate(enc.roots)]
    # markers of every value of the graph, to find the graph itself among the e-classes
    program += [f"(union (Root {_MARK_VALUE + j}) {t})" for j, t in enumerate(enc.terms.values())]
    program += [f"(union (Root {_MARK_LEAF + i}) (Leaf {i}))" for i in range(len(enc.leaves))]
    # reads and leaves (reductions, embedded loads, reads after a write) are bounded in
    # every dim; the ``bounded`` rules derive the rest (only constants are not)
    program += [f"(bounded ({kind} {k}) {d})" for kind, n in (("Read", len(enc.reads)), ("Leaf", len(enc.leaves))) for k in range(n) for d in range(enc.rank)]
    # egglog's integers are 64-bit: a graph with a larger one (an access offset of
    # 2^63 - 1 plus a move, found by make fuzz) is kept as it is
    if any(abs(int(v)) >= 2**63 for v in _INT_LITERAL.findall("\n".join(program))):
        return GraphReport(False, "an integer beyond the e-graph's 64-bit range", before, before)

    from egglog.bindings import EggSmolError

    eg = _engine(reassociate_floats)
    iterations = 0
    deadline = time.perf_counter() + time_limit  # the first graph also compiles the rules: not counted
    try:
        eg.run_program(*eg.parse_program("(push)"))
        try:
            eg.run_program(*eg.parse_program("\n".join(program)))
            # Eq. 7 and 8 ask whether a tensor is bounded along a dim: derived in full first
            step = " ".join((f"(saturate (run {E.BOUNDED})) " if f in ("eq7", "eq8") else "") + f"(run {f})" for f in families)
            enodes = _size(eg)
            while families and iterations < iter_limit and time.perf_counter() < deadline and enodes <= node_limit:
                chunk = min(_CHUNK, iter_limit - iterations)
                (out,) = eg.run_program(*eg.parse_program(f"(run-schedule (repeat {chunk} {step}))"))
                iterations += chunk
                enodes = _size(eg)
                if not out.report.updated:
                    break
            data = json.loads(eg.serialize([]).to_json())
        finally:
            eg.run_program(*eg.parse_program("(pop)"))
    except EggSmolError as e:
        # a rule's i64 arithmetic overflowed (offsets near 2^63 that a rule adds: an access at
        # column 2^63 - 1 moved by a copy, found by make fuzz): the graph is kept as it is, and
        # the engine is rebuilt for the next graph (a panic may leave it mid-push)
        _engines().pop(reassociate_floats, None)
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
        return GraphReport(False, f"the e-graph's 64-bit arithmetic failed ({why[:80]})", before, before)
    t_sat = time.perf_counter()
    view = _EGraphView(data)
    root_classes = [view.root_class.get(k) for k in range(len(enc.roots))]
    ex = _Extractor(view, enc, model)
    choice = ex.best_tree()
    if any(r not in choice for r in root_classes):
        return GraphReport(False, "no finite-cost extraction", before, before, enodes, iterations, time.perf_counter() - start)
    shared = ex.best_tree(amortized=True)
    if all(r in shared for r in root_classes):
        a, b = ex.dag(shared, root_classes), ex.dag(choice, root_classes)
        if a is not None and b is not None and a[0] < b[0]:
            choice = shared
    regs = live_registers(graph)
    limit = max(regs, _register_room(graph, model))
    need = _DagRegisters(enc, root_classes)
    excess = lambda ch: max(0, need(ch) - limit)  # noqa: E731
    choice, after, kept = ex.improve(choice, root_classes, _IMPROVE_BUDGET, excess)
    if excess(choice):
        # the cheapest DAGs need too many registers: search again from the graph itself
        # (which fits), keeping only DAGs that fit
        own = _own_choice(view, enc)
        if own is not None and ex.dag(own, root_classes) is not None:
            _c, _a, kept2 = ex.improve(own, root_classes, _IMPROVE_BUDGET, excess)
            kept += kept2
    if not any(c < before - 0.5 for c, _ch in kept):
        return GraphReport(False, "nothing cheaper found", before, after, enodes, iterations, time.perf_counter() - start)
    # the DAGs the search kept that fit (by ``_DagRegisters``), cheapest first, then the
    # others; each is built on a copy of the graph (encoded again: the same ids), which
    # replaces the graph's body only when its real live registers fit too.
    candidates = [(c, ch) for c, ch in sorted(kept, key=lambda t: (excess(t[1]) > 0, t[0])) if c < before - 0.5][:_REGISTER_TRIES]
    reason = "a value would be needed before the node that defines it"
    for cost, cand in candidates:
        trial = graph.clone()
        tenc = _encode(trial, slots)
        _expand(tenc, trial, slots)
        assert (len(tenc.reads), len(tenc.consts), len(tenc.leaves), len(tenc.roots)) == (len(enc.reads), len(enc.consts), len(enc.leaves), len(enc.roots))
        root_class = dict(zip(tenc.roots, root_classes))
        if not _leaves_in_order(tenc, cand, root_class):
            trial.erase()
            continue
        _replace(trial, tenc, cand, root_class)
        if live_registers(trial) > limit:
            # more registers live at once than before: it might not fit the wordlines
            trial.erase()
            reason = "needs more live registers"
            continue
        _restore(graph, trial)
        return GraphReport(True, "optimized", before, cost, enodes, iterations, time.perf_counter() - start, t_sat - start)
    return GraphReport(False, reason, before, after, enodes, iterations, time.perf_counter() - start)


NO_RULE_CAN_IMPROVE = "no rule can make it cheaper (no e-graph built)"


def _no_rule_can_improve(enc: _Encoding) -> bool:
    """True only when saturating and extracting provably keep the graph as it is, so the
    e-graph need not be built (without it vec_add's three nodes paid 0.5-2 s of egglog).

    Why it is conservative.  The rules' left-hand sides (``tdfg_egraph``) need a ``Mv``,
    ``Bc`` or ``Shrink`` term (Eq. 4, 6-9), or a ``Cmp2`` with a ``Cmp2`` child of its own
    op (Eq. 3a), or a ``Cmp2`` over two ``Cmp2`` children of one op (Eq. 3c); Eq. 3b
    (commutativity) fits any ``Cmp2``.  When the graph has no move, broadcast or shrink,
    Eq. 5 adds no shrink (no read has a larger hull) and no ``Cmp2`` has either child
    pattern -- checked with the children in either order, which is all 3b adds -- only 3b
    fires, and it only puts ``f(b, a)`` in the e-class of ``f(a, b)``, whose cost is the
    same (``CostModel.compute`` prices a commutative op's constant on either side alike).
    Every DAG the extractor can pick then has the graph's own e-classes, at the cost
    ``original_cost`` gives the graph when also (a) no two computes are equal up to
    commutativity (the e-graph would share them, a cheaper DAG), (b) every compute is
    used by the graph's other ops (the DAG would drop a dead one), and (c) no compute has
    constants only (``original_cost`` counts its result as a constant, the extractor does
    not).  No DAG is then cheaper than the graph, and ``optimize_graph`` keeps it."""
    if _expansions(enc):
        return False
    canon: dict[SSAValue, object] = {}
    computes: list[SSAValue] = []
    for v in enc.terms:
        op = v.owner
        if isinstance(op, (tdfg.MvOp, tdfg.BcOp, tdfg.ShrinkOp)):
            return False
        if not isinstance(op, tdfg.CmpOp):
            canon[v] = enc.node(op)  # a read or a constant
            continue
        ins = list(op.inputs)
        if all(isinstance(u.owner, tdfg.ConstOp) for u in ins):
            return False  # (c)
        if len(ins) == 2:
            kids = [u.owner if isinstance(u.owner, tdfg.CmpOp) and len(u.owner.inputs) == 2 else None for u in ins]
            if any(k is not None and k.op.data == op.op.data for k in kids):
                return False  # Eq. 3a
            if kids[0] is not None and kids[1] is not None and kids[0].op.data == kids[1].op.data:
                return False  # Eq. 3c
        args = [canon[u] if u in canon else ("Leaf", enc.leaf_ids.get(u)) for u in ins]
        if len(ins) == 2:
            args.sort(key=repr)  # equal up to Eq. 3b
        canon[v] = (op.op.data, _elem(op.inputs[-1].type), tuple(args))
        computes.append(v)
    if len({canon[v] for v in computes}) != len(computes):
        return False  # (a)
    live: set[SSAValue] = set()
    todo = list(enc.roots)
    while todo:
        v = todo.pop()
        if v in live or v not in enc.terms:
            continue
        live.add(v)
        if isinstance(v.owner, tdfg.CmpOp):
            todo.extend(v.owner.inputs)
    return all(v in live for v in computes)  # (b)


_IMPROVE_BUDGET = 60  # extraction candidates tried per graph (deterministic, unlike a time limit)
_REGISTER_PENALTY = 1e9  # per register a DAG needs beyond what fits: more than any cost
_REGISTER_TRIES = 4  # cheaper DAGs rebuilt per graph until one fits the registers
_CHUNK = 1  # saturation iterations between two checks of the node and time limits
# egglog's EGraph may be used only on the thread that made it (a Rust panic, 'EGraph is
# unsendable', otherwise): one engine per thread and reassociation mode
_ENGINES = threading.local()


def _engines() -> dict[bool, object]:
    by_mode = getattr(_ENGINES, "by_mode", None)
    if by_mode is None:
        by_mode = _ENGINES.by_mode = {}
    return by_mode


def drop_engines() -> None:
    """Forget this thread's engines (on the thread that made them: egglog drops them there)."""
    _engines().clear()


def _engine(reassociate_floats: bool):
    """An egglog e-graph holding the prelude (sorts, rules) and the op gates; each graph is
    added inside a push/pop pair, so the rules are compiled once per thread."""
    from egglog import bindings

    from infs.passes import tdfg_egraph as E

    eg = _engines().get(reassociate_floats)
    if eg is not None:
        return eg
    eg = bindings.EGraph()
    gates = [E.PRELUDE]
    for ty in ELEMENT_BITS:
        exact = not is_float_element(ty) or reassociate_floats
        # IEEE add and mul commute exactly; min/max may pick the other signed zero
        gates += [f'(comm_ok "{f}" "{ty}")' for f in COMMUTATIVE if exact or f not in ("min", "max")]
        gates += [f'(assoc_ok "{f}" "{ty}")' for f in ASSOCIATIVE if exact and not (is_float_element(ty) and f in ("and", "or", "xor"))]
        gates += [f'(distrib_ok "{outer}" "{inner}" "{ty}")' for outer, inner in DISTRIBUTIVE if exact]
        gates += [f'(spread_ok "{f}" "{ty}")' for f in tdfg.CMP_ARITY if not (f == "div" and not is_float_element(ty))]
    eg.run_program(*eg.parse_program("\n".join(gates)))
    _engines()[reassociate_floats] = eg
    return eg


def _size(eg) -> int:
    """Tensor e-nodes in the e-graph."""
    (out,) = eg.run_program(*eg.parse_program("(print-size)"))
    return sum(n for name, n in out.sizes if name in _TN_OPS)


_MARK_VALUE = 1 << 40  # Root ids marking the graph's own values (the extracted roots are 0..)
_MARK_LEAF = 1 << 41


def _own_choice(view: _EGraphView, enc: _Encoding) -> dict[str, _Node] | None:
    """The graph itself as an extraction: each e-class of one of its values picks the node
    of the first op that computes it; None if one is not found."""
    found = view.root_class
    if any(_MARK_VALUE + j not in found for j in range(len(enc.terms))):
        return None
    cls = {v: found[_MARK_VALUE + j] for j, v in enumerate(enc.terms)}
    choice: dict[str, _Node] = {}
    for i, v in enumerate(enc.leaves):
        c = found.get(_MARK_LEAF + i)
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


def _replace(graph: tdfg.GraphOp, enc: _Encoding, choice: Mapping[str, _Node], root_class: Mapping[SSAValue, str]) -> None:
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


def _restore(graph: tdfg.GraphOp, saved: tdfg.GraphOp) -> None:
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


def _leaves_in_order(enc: _Encoding, choice: Mapping[str, _Node], root_class: Mapping[SSAValue, str]) -> bool:
    """Every leaf an extracted DAG uses is defined before the op that consumes the DAG."""
    available: set[int] = set()
    seen: set[str] = set()  # checked under an earlier op: fewer leaves were available there
    for op in enc.opaque:
        roots = [root_class[v] for v in op.operands if v in root_class and root_class[v] not in seen]
        for c in postorder(roots, lambda k: [d for d in choice[k].children if d not in seen], _no_order):
            seen.add(c)
            n = choice[c]
            if n.op == "Leaf" and n.args[0] not in available:
                return False
        available.update(enc.leaf_ids[r] for r in op.results if r in enc.leaf_ids)
    return True


@dataclass(frozen=True)
class OptimizeTdfgPass(ModulePass):
    """Optimize every ``tdfg.graph`` by equality saturation (see module docstring)."""

    name = "optimize-tdfg"
    config: str = "paper-64"
    node_limit: int = 1500
    iter_limit: int = 10
    time_limit: float | int = 1.0  # (int too: the option parser refuses `time-limit=2` for a float)
    reassociate_floats: bool = True
    rules: str = ""  # comma-separated rule families (eq3,eq4,eq6,eq7,eq8,eq9); empty: all

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # named as the user writes them (node-limit), not as the fields are
        for k, v in (("node-limit", self.node_limit), ("iter-limit", self.iter_limit), ("time-limit", self.time_limit)):
            if not v >= 0:  # not "v < 0": a NaN time limit is refused too
                raise OptimizeError(f"option {k} must be >= 0, got {v}")
        try:
            model = CostModel.of(self.config)
        except ValueError as e:
            raise OptimizeError(f"{e}") from None
        from infs.passes.tdfg_egraph import RULE_FAMILIES

        families = None
        if self.rules:
            families = tuple(r.strip() for r in self.rules.split(",") if r.strip())
            unknown = [r for r in families if r not in RULE_FAMILIES]
            if unknown:
                raise OptimizeError(f"unknown rule family '{unknown[0]}' (known: {', '.join(RULE_FAMILIES)})")
        for graph in [g for g in op.walk() if isinstance(g, tdfg.GraphOp)]:
            optimize_graph(graph, model, self.node_limit, self.iter_limit, self.time_limit, self.reassociate_floats, families)
