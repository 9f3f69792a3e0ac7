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
  (``DagRegisters``, the lowering's schedule) and each one beyond what fits costs more
  than any latency; when the cheapest DAGs do not fit, the search starts again from the
  graph itself (which fits) and keeps only DAGs that fit (conv3d on paper-64).
* **Limits** (options): ``node_limit`` (e-nodes), ``iter_limit`` (saturation
  iterations), ``time_limit`` (seconds of saturation per graph); whichever comes first
  stops the saturation, and extraction uses what was found.

The pass is this module (``optimize_graph``: the steps per graph, the limits,
the egglog engines); its parts: ``tdfg_cost`` (the cost model, a graph's own
cost and live registers), ``tdfg_to_egraph`` (a graph as egglog facts, with
Eq. 5's expansions), ``egraph_extraction`` (the serialized e-graph and the
extraction of the cheapest DAG that fits the registers), ``egraph_to_tdfg``
(the extracted DAG rebuilt as the graph's ops).  The rules are in
``tdfg_egraph``.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from infs.dialects import tdfg
from infs.element_types import COMMUTATIVE, ELEMENT_BITS, is_float_element
from infs.passes.egraph_extraction import TN_OPS, DagRegisters, EGraphView, Extractor
from infs.passes.egraph_to_tdfg import MARK_LEAF, MARK_VALUE, leaves_in_order, own_choice, replace_graph, restore_graph
from infs.passes.tdfg_cost import CostModel, element_of, live_registers, original_cost, register_room
from infs.passes.tdfg_to_egraph import GraphEncoding, Slots, encode, expand, expansions


ASSOCIATIVE = ("add", "mul", "min", "max", "and", "or", "xor")
DISTRIBUTIVE = (("mul", "add"), ("mul", "sub"))


class OptimizeError(DiagnosticException):
    """A bad option of ``optimize-tdfg`` (one line)."""


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
    slots = Slots(syms)
    enc = encode(graph, slots)
    if not enc.roots:
        return GraphReport(False, "no tensor computation", before, before)
    if shortcut and _no_rule_can_improve(enc):
        return GraphReport(False, NO_RULE_CAN_IMPROVE, before, before, seconds=time.perf_counter() - start)

    families = tuple(rules) if rules is not None else E.RULE_FAMILIES
    program = enc.program + expand(enc, graph, slots)
    program += [f"(union (Root {k}) {enc.terms[v]})" for k, v in enumerate(enc.roots)]
    # markers of every value of the graph, to find the graph itself among the e-classes
    program += [f"(union (Root {MARK_VALUE + j}) {t})" for j, t in enumerate(enc.terms.values())]
    program += [f"(union (Root {MARK_LEAF + i}) (Leaf {i}))" for i in range(len(enc.leaves))]
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
    view = EGraphView(data)
    root_classes = [view.root_class.get(k) for k in range(len(enc.roots))]
    ex = Extractor(view, enc, model)
    choice = ex.best_tree()
    if any(r not in choice for r in root_classes):
        return GraphReport(False, "no finite-cost extraction", before, before, enodes, iterations, time.perf_counter() - start)
    shared = ex.best_tree(amortized=True)
    if all(r in shared for r in root_classes):
        a, b = ex.dag(shared, root_classes), ex.dag(choice, root_classes)
        if a is not None and b is not None and a[0] < b[0]:
            choice = shared
    regs = live_registers(graph)
    limit = max(regs, register_room(graph, model))
    need = DagRegisters(enc, root_classes)
    excess = lambda ch: max(0, need(ch) - limit)  # noqa: E731
    choice, after, kept = ex.improve(choice, root_classes, _IMPROVE_BUDGET, excess)
    if excess(choice):
        # the cheapest DAGs need too many registers: search again from the graph itself
        # (which fits), keeping only DAGs that fit
        own = own_choice(view, enc)
        if own is not None and ex.dag(own, root_classes) is not None:
            _c, _a, kept2 = ex.improve(own, root_classes, _IMPROVE_BUDGET, excess)
            kept += kept2
    if not any(c < before - 0.5 for c, _ch in kept):
        return GraphReport(False, "nothing cheaper found", before, after, enodes, iterations, time.perf_counter() - start)
    # the DAGs the search kept that fit (by ``DagRegisters``), cheapest first, then the
    # others; each is built on a copy of the graph (encoded again: the same ids), which
    # replaces the graph's body only when its real live registers fit too.
    candidates = [(c, ch) for c, ch in sorted(kept, key=lambda t: (excess(t[1]) > 0, t[0])) if c < before - 0.5][:_REGISTER_TRIES]
    reason = "a value would be needed before the node that defines it"
    for cost, cand in candidates:
        trial = graph.clone()
        tenc = encode(trial, slots)
        expand(tenc, trial, slots)
        assert (len(tenc.reads), len(tenc.consts), len(tenc.leaves), len(tenc.roots)) == (len(enc.reads), len(enc.consts), len(enc.leaves), len(enc.roots))
        root_class = dict(zip(tenc.roots, root_classes))
        if not leaves_in_order(tenc, cand, root_class):
            trial.erase()
            continue
        replace_graph(trial, tenc, cand, root_class)
        if live_registers(trial) > limit:
            # more registers live at once than before: it might not fit the wordlines
            trial.erase()
            reason = "needs more live registers"
            continue
        restore_graph(graph, trial)
        return GraphReport(True, "optimized", before, cost, enodes, iterations, time.perf_counter() - start, t_sat - start)
    return GraphReport(False, reason, before, after, enodes, iterations, time.perf_counter() - start)


NO_RULE_CAN_IMPROVE = "no rule can make it cheaper (no e-graph built)"


def _no_rule_can_improve(enc: GraphEncoding) -> bool:
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
    if expansions(enc):
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
        canon[v] = (op.op.data, element_of(op.inputs[-1].type), tuple(args))
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
    return sum(n for name, n in out.sizes if name in TN_OPS)


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
