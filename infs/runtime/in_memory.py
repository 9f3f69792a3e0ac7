"""In-memory execution of tDFGs: plan each graph invocation and run it on the machine (ASPLOS §4.2, §5).

Takes: a graph -- a ``tdfg.graph`` op or its record (``GraphRecord``, a bundle's) --
with its arrays and scalars, the run's options and machine.  Gives: the
in-memory plan (``plan_in_memory``: every graph invocation lowered by the
memoized JIT, its cycles estimated on a probe of the machine, or a lower bound
of them until the decision needs more) and the run (``run_in_memory``: the
lowered programs on the ``Machine``, the JIT's charge on each lowering not yet
paid, the results).  ``InMemoryRuntime`` is that half of the runtime; the
driver's ``RegionRuntime`` adds compilation, the decision (§4.3) and the
near-memory and core paths on top, and the bundle executor
(``infs.runtime.bundle.executor``) runs a bundle's graphs with it alone.

Imports no xDSL: a graph op's record is read by the JIT (``jit.graph_facts``);
what only a region needs (host loops, chunks, base offsets) is imported where
a region asks for it.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from infs.dialects import pimcmd_schema as K
from infs.dialects.tdfg_records import CMP, STORE, STREAM_STORE, TENSOR_NODES, GraphRecord
from infs.element_types import ELEMENT_DTYPES, EvaluationError
from infs.hardware import HardwareConfig, load_config
from infs.passes.lower_pim.layout import LayoutError
from infs.passes.lowering_errors import LoweringError
from infs.passes.tdfg_domains import SpecializeError
from infs.runtime import jit
from infs.runtime.modes import MODES, POLICIES
from infs.sim import Machine

if TYPE_CHECKING:
    from infs.dialects import tdfg


# Graph invocations of one region's host-run outer dims that the in-memory path
# simulates (mm_outer at paper size has 2,048, gauss_elim 4,094); beyond it the
# region is not run in memory (a user's 1e11-row loop would take days).
MAX_HOST_POINTS = 1 << 20


@dataclass(frozen=True)
class RunOptions:
    config: str | HardwareConfig = "paper-64"
    mode: str = "auto"  # auto | in | near | core
    tiles: tuple[int, ...] | None = None
    jit: bool = True  # False: the "Inf-S no JIT" configuration (lowering not charged)
    policy: str = "eq2"  # who decides an auto region (POLICIES): Eq. 2 (Inf-S) or "lowerable" (the gem5 artifact's rule)
    machine_mode: str = "functional"  # functional | analysis (timing only, no data) | bitlevel (bit-serial, gate by gate)
    profile: str | None = None  # cost profile of the in-memory commands
    # inputs start in the L3 (initialized by the cores, as in the paper's runs), as far as
    # it holds them: in argument order while their bytes fit ``l3_bytes``, the first that
    # does not fit and every one after it in DRAM (a 64M-element vec_add's 768 MB on
    # paper-64's 144 MB L3: all three).  False: every input in DRAM.
    warm: bool = True
    strict: bool = False  # a forced mode that cannot be honoured is an error (ModeNotHonoured), not a fallback
    cross_check: bool = False  # near/core regions: also evaluate the tDFG on the lattice and compare (module docstring)
    optimize: bool = True  # optimize-tdfg on each tensorized graph before the JIT; False: the "Inf-S no e-graph" configuration
    fold_base_offsets: bool = True  # loop indices that only move a stream's start become base addresses: lowered once
    chunk: bool = True  # a region too large for the SRAM arrays runs in memory in chunks (infs.runtime.chunking)
    chunk_folds: bool = True  # ... also in chunks of a reduction dim whose values are stored, the partials folded near memory
    chunk_overlap: bool = True  # ... each chunk's DRAM fetch behind the previous chunk's compute, where the L3 has room (False: serial)
    # a program with nothing to offload (no stream.region, tdfg.graph or pimcmd.program: the host runs all of
    # it, as @infs.kernel does) is an error, not a remark (infs-run --strict-offload)
    strict_offload: bool = False
    record_charges: bool = False  # keep what each command of each in-memory run charged (``Machine.record_charges``: infs-view draws it)
    # the decision's shortcuts (``RegionRuntime.decide``): near/core costs reused by every call with an equal
    # profile, and the in-memory probe skipped when a lower bound of its cycles already loses Eq. 2 and the
    # alternative.  Same decisions and statistics either way (tested); False prices and probes every call in full.
    shortcuts: bool = True


@dataclass
class RunReport:
    results: tuple[Any, ...]
    machine: Machine
    regions: list[RegionRecord] = field(default_factory=list)
    wall_seconds: float = 0.0
    # every in-memory program run, in order: (region, jit.Lowered, scalar params,
    # arrays by argument index) -- what infs.runtime.view_data replays and draws
    programs: list[tuple[int, Any, list, dict]] = field(default_factory=list)
    # host wall seconds of the runtime's decisions (``RegionRuntime.decide``, every region
    # call), and of them the work whose result the run then used: the lowerings and probes
    # of the calls run in memory (the run executes those programs and replays their
    # probes' plans), the pricing of the mode a near/core call runs in (the cost it is
    # charged).  The rest is the decision's own: lowerings and probes of calls sent
    # elsewhere, the lower bounds, the alternative not chosen.
    decide_seconds: float = 0.0
    decide_used_seconds: float = 0.0

    @property
    def stats(self):
        return self.machine.stats

    def mode_counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.regions:
            out[r.mode] = out.get(r.mode, 0) + 1
        return out


def tiles_error(tiles) -> str | None:
    """Why ``tiles`` (RunOptions.tiles, api.lower's) is no tile shape, as
    infs-run's --tiles says it: ``(0,)`` was quietly not honoured (the region
    ran near memory), ``16`` a TypeError traceback.  None when it is one."""
    if tiles is None or (
        isinstance(tiles, Sequence)
        and not isinstance(tiles, str)
        and tiles
        and all(isinstance(t, (int, np.integer)) and not isinstance(t, bool) and t > 0 for t in tiles)
    ):
        return None
    return f"bad tiles {tiles!r}: expected a tuple of positive integers, e.g. (16, 16)"


def start_run(options: RunOptions | None, args) -> tuple[RunOptions, Machine]:
    """The run's options, checked, and its machine, with the inputs where ``warm`` puts them:
    the start of every run, of a module's (``driver.run_program``) and of a bundle's."""
    options = options or RunOptions()
    if options.mode not in MODES:
        raise EvaluationError(f"unknown mode '{options.mode}' (choose from {', '.join(MODES)})")
    if options.policy not in POLICIES:
        raise EvaluationError(f"unknown policy '{options.policy}' (choose from {', '.join(POLICIES)})")
    bad = tiles_error(options.tiles)
    if bad:
        raise EvaluationError(bad)
    cfg = options.config if isinstance(options.config, HardwareConfig) else load_config(options.config)
    machine = Machine(cfg, mode=options.machine_mode, profile=options.profile)
    if options.record_charges:
        machine.record_charges()
    if options.warm:
        # as the cores leave them, as far as the L3 holds them (``RunOptions.warm``)
        machine.mark_resident(args.values() if isinstance(args, Mapping) else args, capacity=cfg.l3_bytes)
    return options, machine


# a lowering's compute-command floors kept (``_compute_floor``); beyond it they are dropped
MODEL_COSTS = 1 << 14


class ModeNotHonoured(EvaluationError):
    """``strict``: a region cannot run in the forced mode."""

    def __init__(self, region: int, mode: str, reason: str, error: Exception | None = None, strict: bool = True):
        self.region, self.mode, self.reason, self.strict = region, mode, reason, strict
        self.error = error  # the lowering's own exception (LayoutError, LoweringError, ...), when there is one
        # not strict: a tdfg.graph that cannot run in memory (it has no near-memory or core fallback)
        what = f"mode '{mode}' cannot be honoured" if strict else "a tdfg.graph (tensorized ahead of time) runs in memory or not at all"
        super().__init__(f"region {region}: {what}: {reason}")


@dataclass
class RegionRecord:
    region: int  # index of the region in the program
    mode: str  # where it ran: in | near | core
    reason: str  # why (the decision, or why in-memory was impossible)
    cycles: int = 0
    elements: int = 0
    graphs: int = 0  # tDFG invocations (several when outer dims are host loops)
    commands: int = 0
    jit_misses: int = 0
    jit_seconds: float = 0.0
    requested: str = "auto"  # the mode asked for
    not_honoured: str = ""  # why the forced mode could not run ("" when it did)
    check: str = ""  # cross-check of a near/core region: "lattice", or "reference only: <why>" ("" when not checked)
    check_error: str = ""  # the lattice evaluator disagrees with the reference (first difference)
    # optimize-tdfg (on the invocation that compiled the region; 0 on the others): tDFG
    # nodes before/after and its wall time (host time, not simulated cycles: see ``_optimize``)
    tdfg_nodes_before: int = 0
    tdfg_nodes_after: int = 0
    optimize_seconds: float = 0.0
    # in memory in chunks (infs.runtime.chunking): how many (graph invocations), and the rows of each but the last along the first chunked dim
    chunks: int = 0
    chunk_rows: int = 0
    chunk_shape: str = ""  # the first chunk's extent along each chunked dim ("d0:1 x d1:4"; a peeled region's: its inner region's dims)
    dram_hidden: int = 0  # DRAM cycles of later chunks hidden behind earlier chunks' compute (double buffering; not in ``cycles``)


@dataclass
class GraphRun:
    """A graph the host code calls, as the in-memory path sees a compiled region: the
    graph, no host loop, no base-offset fold, no chunks (``driver._Compiled`` is a region's)."""

    graph: Any
    reason: str | None = None
    nodes_before: int = 0
    nodes_after: int = 0
    optimize_seconds: float = 0.0
    fold: Any = None
    combine: tuple[str, ...] = ()
    bounds: tuple = ()
    peel: int = 0


def host_points(comp, region, scalars) -> tuple[list[range], int]:
    """The host loop ranges of a compiled region and its graph invocations (one, with no host loop)."""
    if not getattr(comp, "bounds", ()):
        return [], 1
    from infs.passes.tensorize import host_loop_points

    return host_loop_points(comp, region, scalars)


def index_scalars(g) -> list[tuple[int, str]]:
    """(position, name) of a graph's index scalars (what the JIT's sizes bind)."""
    if isinstance(g, GraphRecord):
        return [(i, n) for i, (n, t) in enumerate(zip(g.scalar_names, g.scalar_types)) if t == "index"]
    return [(i, n) for i, (n, s) in enumerate(zip(g.names, g.scalars)) if str(s.type) == "index"]


def result_dtypes(graph) -> list[np.dtype]:
    """The numpy types of a graph's results (a record's by name; an op's by its types)."""
    if isinstance(graph, GraphRecord):
        return [np.dtype(np.int64) if t == "index" else ELEMENT_DTYPES[t] for t in graph.result_types]
    from infs.runtime import host

    return [host.numpy_dtype(r.type) for r in graph.res]


def graph_label(graph) -> str:
    """'tdfg.graph' at line N: a graph as the run's messages name it."""
    if isinstance(graph, GraphRecord):
        return f"'tdfg.graph' at line {graph.line}" if graph.line is not None else "'tdfg.graph'"
    from infs.runtime.reference_checks import region_label

    return region_label(graph)


def aliased_graph_operands(graph, record: GraphRecord, arrays: Sequence[np.ndarray], operands: Sequence[int] | None) -> str | None:
    """Why a graph call's arrays cannot be taken as distinct (``reference_checks.aliased_operands``,
    of a record: ``operands`` says which host values its arrays are)."""
    if not isinstance(graph, GraphRecord):
        from infs.runtime.reference_checks import aliased_operands

        return aliased_operands(graph, arrays)
    written = {n.arr for n in record.nodes if n.kind is STORE or n.kind is STREAM_STORE}
    if not written:
        return None
    names = record.array_names or (None,) * len(arrays)

    def name(i: int) -> str:
        return f"%{names[i] or f'array #{i}'}"

    for i in range(len(arrays)):
        for j in range(i + 1, len(arrays)):
            if (operands is not None and operands[i] == operands[j]) or not (i in written or j in written):
                continue  # one operand passed twice: the static checks see it
            a, b = arrays[i], arrays[j]
            if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
                continue
            if a.size and b.size and np.shares_memory(a, b):
                w = name(j) if j in written else name(i)
                return f"its array operands {name(i)} and {name(j)} share memory at run time (aliased host arguments) and it writes {w}: pass distinct arrays"
    return None


def check_graph_divisors(graph, where: str, arrays, scalars) -> None:
    """An integer division by zero is the program's error: the graph op on the lattice
    evaluator, on copies.  A record has no evaluator here: its run is refused, in one line."""
    if isinstance(graph, GraphRecord):
        raise EvaluationError(f"{where}: it divides integers, and a bundle's graph has no lattice evaluator to check its divisors "
                              "(the machine's quotient by 0 is 0): run the program's .mlir")  # fmt: skip
    from infs.runtime.lattice_eval import evaluate_graph

    evaluate_graph(graph, private_copies(arrays), scalars)


def _fold_partials(kind, before, after):
    from infs.runtime.chunking import fold_partials

    return fold_partials(kind, before, after)


class InMemoryRuntime:
    """The in-memory half of the runtime (module docstring): the state a run keeps
    and the plan, probe and run of graph invocations."""

    def __init__(self, options, machine: Machine, progress: Callable[["RegionRecord"], None] | None = None):
        self.options = options
        self.cfg = machine.cfg
        self.machine = machine
        self.compiled: dict[int, Any] = {}
        self.ids: dict[int, int] = {}
        self.records: list[RegionRecord] = []
        self.programs: list[tuple[int, Any, list, dict]] = []  # RunReport.programs
        self.progress = progress
        self._estimates: dict[int, int] = {}
        self._charged: dict[int, jit.Lowered] = {}  # lowerings whose JIT time this run has charged
        self._floors: dict[int, tuple] = {}  # a lowering's compute commands' cycles (``_compute_floor``)
        self._deferred: dict[int, tuple] = {}  # per graph: the lowerings a decision skipped (``defer_lowerings``)

    def plan_in_memory(self, region, comp, arrays, scalars, points: list[tuple[int, ...]] | None = None, probe: bool = True) -> dict:
        """Lower every graph invocation (JIT, memoized) and estimate its time: one per
        host loop point, or per extra scalar tuple of ``points`` (chunks: (rows, start)).
        ``probe`` False (no ``points``): the estimates are left to ``probe_plan``, and the
        plan has ``floor``, a lower bound of its ``estimate`` (and so of ``full``) from
        its compute commands alone (``_compute_floor``) plus the JIT charge."""
        graph = comp.graph
        assert graph is not None
        points_given = points is not None
        if points is not None:
            ranges, count = [], len(points)
        else:
            ranges, count = host_points(comp, region, scalars)
        if count > MAX_HOST_POINTS:
            # each point is a graph invocation (lowered once when only stream
            # starts move, but simulated one by one): not listed, refused in one line
            raise LoweringError(f"its outer dim(s) run on the host as {count:,} graph invocations, more than the "
                                f"{MAX_HOST_POINTS:,} infs simulates in memory per region")  # fmt: skip
        if points is None:
            points = list(itertools.product(*ranges))  # [()] when nothing is peeled
        calls = []
        estimate = full = 0
        misses = 0
        # chunks (``points`` given): each after the first may fetch its inputs
        # from DRAM behind the previous one's compute (``chunking.overlap_window``)
        windows: list[int] = []
        serial: set[str] = set()
        prev = None
        planned: set[int] = set()
        jit_wall = probe_wall = 0.0
        lazy = not probe and not points_given
        pending: list[tuple] = []
        last = None  # the previous point's graph, sizes, shapes, resident layouts and lowering
        floor = 0
        for g, call_arrays, gscalars, call_shapes, sizes in self.bound_points(comp, arrays, scalars, points):
            # the layouts the arrays are held transposed in (choose-layout weighs re-transposing them)
            resident = {i: st[1][3:5] for i, a in enumerate(call_arrays) if (st := self.machine.residency_of(a)) is not None and len(st) > 2 and st[1][0] == "T"}
            same = (g, sizes, call_shapes, resident)
            if last is not None and last[0] is g and last[1:4] == same[1:]:
                lowered = last[4]  # (the JIT's memo would give this one: same graph, sizes, shapes and resident layouts)
            else:
                if id(g) in self._deferred:
                    self._lower_deferred(g)
                t0 = time.perf_counter()
                lowered = jit.lower(g, sizes, self.cfg, self.options.tiles, call_shapes, resident)
                jit_wall += time.perf_counter() - t0
                last = (*same, lowered)
            # A lowering is charged once per run, on its first in-memory
            # execution: not on the JIT cache's miss, which may have happened in
            # an earlier decision that sent the region elsewhere (Eq. 2 is
            # evaluated before the JIT runs, §4.3) or in an earlier run.
            miss = id(lowered) not in self._charged and id(lowered) not in planned
            planned.add(id(lowered))
            misses += miss
            params = [_scalar_value(gscalars[i]) for i in lowered.scalar_map]
            calls.append((lowered, params, miss, call_arrays))
            window = 0
            if prev is not None and self.options.chunk_overlap:
                from infs.runtime.chunking import overlap_window, transposed_in

                # the bytes this chunk fetches from DRAM (each array once)
                fetched = {id(call_arrays[i]): call_arrays[i].nbytes for i in transposed_in(lowered.record) if self.machine.residency_of(call_arrays[i]) is None}
                window, why = overlap_window(prev[0].record, prev[1], sum(fetched.values()), self.cfg)
                if why:
                    serial.add(why)
            windows.append(window)
            jit_charge = self.jit_cycles(lowered) if miss else 0
            if lazy:  # (no window: a host loop point's fetch is not overlapped)
                pending.append((lowered, params, call_arrays, jit_charge))
                floor += self._compute_floor(lowered) + jit_charge
                continue
            t0 = time.perf_counter()
            ops, whole = self.estimate_cycles(lowered, params, call_arrays, window)
            probe_wall += time.perf_counter() - t0
            if points_given:
                prev = (lowered, ops)  # (ops: its time without DRAM transfers, the window it opens)
            estimate += ops + jit_charge
            full += whole + jit_charge
        plan = {"calls": calls, "estimate": estimate, "full": full, "misses": misses, "jit_wall": jit_wall, "windows": windows, "probe_wall": probe_wall}
        if lazy:
            plan.update(estimate=None, full=None, floor=floor, pending=pending)
        if len(calls) > 1 and points_given:
            # what the record says of the chunks' DRAM transfers
            if any(windows):
                plan["overlap"] = "each chunk's DRAM fetch overlapped with the previous chunk's compute" + (
                    f" where the L3 had room (not: {'; '.join(sorted(serial))})" if len(serial - {"nothing to fetch from DRAM"}) else "")
            elif serial - {"nothing to fetch from DRAM"}:
                plan["overlap"] = f"the chunks' DRAM transfers serial ({'; '.join(sorted(serial - {'nothing to fetch from DRAM'}))})"
        return plan

    def defer_lowerings(self, region, comp, arrays, scalars) -> None:
        """Keep the lowerings of a region call the decision sent elsewhere without the JIT
        (its lower bounds already lost) for ``_lower_deferred``: a lowering leaves the JIT's
        memo and the graph's last layout behind, which a later lowering of the graph reads
        (``jit.lower``'s ``resident``), so the graph's next lowering first runs them, in
        order, at the layouts held then -- the lowerings it sees are those of a run that
        lowers every call; a graph never lowered again costs none of them."""
        ranges, _ = host_points(comp, region, scalars)
        for g, call_arrays, _, call_shapes, sizes in self.bound_points(comp, arrays, scalars, itertools.product(*ranges)):
            resident = {i: st[1][3:5] for i, a in enumerate(call_arrays) if (st := self.machine.residency_of(a)) is not None and len(st) > 2 and st[1][0] == "T"}
            self._deferred.setdefault(id(g), (g, []))[1].append((sizes, call_shapes, resident))

    def _lower_deferred(self, g) -> None:
        """The lowerings of ``g`` that ``defer_lowerings`` kept, run now (their errors are
        those the decision did not need)."""
        graph, pending = self._deferred.pop(id(g))
        if graph is not g:
            return
        for sizes, call_shapes, resident in pending:
            try:
                jit.lower(g, sizes, self.cfg, self.options.tiles, call_shapes, resident)
            except (LayoutError, LoweringError, SpecializeError):
                pass

    def bound_points(self, comp, arrays, scalars, points):
        """Per graph invocation (a point: host loop indices, or a chunk's scalars): the graph
        lowered (the region's, or the one over array views when its loop indices fold into
        base addresses), its arrays, scalars, array shapes and index sizes."""
        graph = comp.graph
        shapes = {i: tuple(a.shape) for i, a in enumerate(arrays)}
        rows = comp.fold is not None and any(cut for _, cut in getattr(comp.fold[0], "array_sources", ()))
        index_at: dict[int, list] = {}
        for point in points:
            gscalars = [*scalars, *point]
            g, call_arrays, call_shapes = graph, arrays, shapes
            if rows:  # a chunk reading a written array's row apart: the row's view (chunking.chunk_region)
                from infs.runtime.chunking import bind_rows

                env = {n: int(np.asarray(v).item()) for n, v, s in zip(comp.fold[0].names, gscalars, comp.fold[0].scalars) if str(s.type) == "index"}
                call_arrays = bind_rows(comp.fold[0], arrays, env)
                if isinstance(call_arrays, str):
                    raise LayoutError(call_arrays)
                call_shapes = {i: tuple(a.shape) for i, a in enumerate(call_arrays)}
            if comp.fold is not None:
                source, offsets, folded = comp.fold
                bound = offsets.bind(source, call_arrays, gscalars)
                if bound is not None:  # the loop indices are the views' base addresses: the same graph every time
                    g, (call_arrays, gscalars) = folded, bound
                    call_shapes = {i: tuple(a.shape) for i, a in enumerate(call_arrays)}
            at = index_at.get(id(g))
            if at is None:  # (the graph's index scalars: read off the IR once per plan, not per point)
                at = index_at[id(g)] = index_scalars(g)
            yield g, call_arrays, gscalars, call_shapes, {n: _index_value(gscalars[i]) for i, n in at}

    def probe_plan(self, plan: dict) -> dict:
        """The estimates ``plan_in_memory(probe=False)`` left out: each call's
        ``estimate_cycles``, as ``plan_in_memory`` sums them."""
        pending = plan.pop("pending", None)
        if pending is not None:
            estimate = full = 0
            t0 = time.perf_counter()
            for lowered, params, call_arrays, jit_charge in pending:
                ops, whole = self.estimate_cycles(lowered, params, call_arrays)
                estimate += ops + jit_charge
                full += whole + jit_charge
            plan["estimate"], plan["full"] = estimate, full
            plan["probe_wall"] = plan.get("probe_wall", 0.0) + time.perf_counter() - t0
            del plan["floor"]
            plan.pop("whole_floor", None)
        return plan

    def _whole_floor(self, plan: dict) -> int:
        """A lower bound of ``plan``'s ``full`` (``plan_in_memory(probe=False)``): the
        compute floor when it already says enough, else each call's program cut down to
        its arrays, transpositions, releases and computes, run on a probe from the
        arrays' residency now.  Those commands charge in the cut program what they
        charge in the whole one: their costs are their plans' but for transpose_in /
        release, which depend on the residency only, and only they change it, in the
        same order; the cut program's end is the later of its charges' sum and its
        in-flight data, and the whole program, whose every other command charges
        cycles >= 0 and whose waits only add, starts each of them no earlier."""
        hit = plan.get("whole_floor")
        if hit is None:
            hit = plan["whole_floor"] = sum(self._cut_cycles(lowered, params, call_arrays) + jit_charge for lowered, params, call_arrays, jit_charge in plan["pending"])
        return hit

    def _cut_cycles(self, lowered: jit.Lowered, params, arrays) -> int:
        """``_whole_floor``'s cut program's cycles on a probe (its caches' entries dropped after)."""
        rec = lowered.record
        keep = (K.ARRAY, K.TRANSPOSE_IN, K.RELEASE, K.COMPUTE)
        cut = rec.with_cmds([c for c in rec.cmds if c.kind in keep])
        probe = Machine(mode="analysis", like=self.machine)
        probe.residency = dict(self.machine.residency)
        try:
            probe.run(cut, {i: a for i, a in enumerate(arrays)}, scalars=params)
        finally:
            probe.forget(cut)  # (the shared plan and replay caches keep the whole programs')
        return probe.cycles

    def _compute_floor(self, lowered: jit.Lowered) -> int:
        """A lower bound of ``estimate_cycles(lowered, ...)[0]`` at any residency: the
        cycles of its compute commands alone.  The machine's clock advances by every
        command's charge (``Machine._charge``; nothing runs in parallel with a command in
        the analysis model, waits only add), a compute command charges its op's latency
        whatever its tiles (``CostModel.compute``: bit-serial, every array at once) and
        in the ``compute`` category, which the estimate keeps (it drops ``dram`` only)."""
        rec = lowered.record
        hit = self._floors.get(id(rec))
        if hit is None or hit[0] is not rec:
            cycles = self.machine.costs.profile.compute_cycles
            floor = sum(cycles(c["op"], c["type"], c.get("const") is not None or c.get("const_arg") is not None) for c in rec.cmds if c.kind is K.COMPUTE)
            if len(self._floors) >= MODEL_COSTS:
                self._floors.clear()
            hit = self._floors[id(rec)] = (rec, floor)
        return hit[1]

    def estimate_cycles(self, lowered: jit.Lowered, params, arrays, window: int = 0) -> tuple[int, int]:
        """(the program's command latencies without its DRAM transfers and
        transpositions -- Eq. 2's sum_i Lat_op_i --, its whole time with them),
        from an analysis-mode run (no data) on a probe that knows where the
        arrays are now, cached per (program, residency of its arrays, the
        ``window`` its DRAM fetches may hide behind: ``Machine.overlap_next``)."""
        state = tuple((st[1] if (st := self.machine.residency_of(a)) is not None else None) for a in arrays)
        key = (id(lowered.record), repr(state), window)
        if key not in self._estimates:
            probe = Machine(mode="analysis", like=self.machine)  # shares its plans: the run reuses them
            probe.residency = dict(self.machine.residency)
            probe.overlap_next(window)
            probe.run(lowered.record, {i: a for i, a in enumerate(arrays)}, scalars=params)
            self._estimates[key] = (probe.cycles - probe.stats.cycles["dram"], probe.cycles)
        return self._estimates[key]

    def jit_cycles(self, lowered: jit.Lowered) -> int:
        """The JIT's charge for a lowering that was not memoized (the config's
        ``jit_model``, ``HardwareConfig.jit_lowering_cycles``); none for "Inf-S no JIT"."""
        return self.cfg.jit_lowering_cycles(lowered.commands, lowered.seconds) if self.options.jit else 0

    def run_graph(self, graph: "GraphRecord | tdfg.GraphOp", arrays: list[np.ndarray], scalars: list[Any], operands: Sequence[int] | None = None) -> list[Any]:
        """A ``tdfg.graph`` in the host code (a program tensorized ahead of time,
        ``infs-opt --tensorize``), as an op or as a bundle's record: it has no streams
        left for the near-memory or core models, so it runs in memory or not at all.
        It is lowered and run as a region's graph is, without optimize-tdfg (the
        static compiler's output is run as given).  ``operands``: for a record, the
        host values its arrays are (two equal numbers: one array passed twice)."""
        key = id(graph)
        first = key not in self.compiled
        record = graph if isinstance(graph, GraphRecord) else jit.graph_facts(graph).graph
        if first:
            self.ids[key] = len(self.ids)
            nodes = sum(1 for n in record.nodes if n.kind in TENSOR_NODES)
            self.compiled[key] = GraphRun(graph, None, nodes_before=nodes, nodes_after=nodes)
        comp = self.compiled[key]
        where = f"region {self.ids[key]} ({graph_label(graph)})"
        if self.options.mode in ("near", "core"):
            raise EvaluationError(f"{where}: mode '{self.options.mode}' cannot run a tdfg.graph (tensorized ahead of time: "
                                  "no streams left for near memory or the cores): use --mode in or auto, or run the program before --tensorize")  # fmt: skip
        alias = aliased_graph_operands(graph, record, arrays, operands)
        if alias is not None:
            raise EvaluationError(f"{where}: {alias}")
        if self.options.machine_mode != "analysis" and any(n.kind is CMP and n.name == "div" and n.elem.startswith("i") for n in record.nodes):
            # an integer division by zero is the program's error (the lattice
            # evaluator's semantics, as check_divisors gives a region's), not
            # the machine's quotient 0: the graph is first evaluated on copies
            check_graph_divisors(graph, where, arrays, scalars)
        try:
            plan = self.plan_in_memory(graph, comp, arrays, scalars, probe=not self.options.shortcuts)  # (nothing to decide)
        except (LayoutError, LoweringError) as e:
            raise ModeNotHonoured(self.ids[key], "in", str(e).strip().splitlines()[0], e, self.options.strict) from None
        cells = sum(math.prod(lowered.record.lattice) for lowered, *_ in plan["calls"])
        rec = RegionRecord(self.ids[key], "in", "a tdfg.graph runs in memory", elements=cells, requested=self.options.mode)
        if first:
            rec.tdfg_nodes_before = rec.tdfg_nodes_after = comp.nodes_before
        start = self.machine.cycles
        results = self.run_in_memory(comp, plan, arrays, rec)
        rec.cycles = self.machine.cycles - start
        self.records.append(rec)
        if self.progress:
            self.progress(rec)
        return results

    def run_in_memory(self, comp, plan: dict, arrays, rec: RegionRecord) -> list[Any]:
        graph = comp.graph
        assert graph is not None
        dtypes = result_dtypes(graph)
        results: list[Any] = []
        functional = self.options.machine_mode != "analysis"
        for k, (lowered, params, miss, call_arrays) in enumerate(plan["calls"]):
            host_arrays = {i: a for i, a in enumerate(call_arrays)}
            if miss:
                self._charged[id(lowered)] = lowered  # held: ids stay unique
                if self.options.jit:
                    self.machine.charge("jit", self.jit_cycles(lowered))
            folds = plan["folds"][k] if "folds" in plan else None
            # a later chunk of a stored reduction dim: what the earlier chunks stored, to fold its partials into
            before = [arrays[key][idx].copy() for key, _, idx, _ in folds] if folds and functional else []
            hidden = self.machine.dram_hidden
            self.machine.overlap_next(plan["windows"][k] if "windows" in plan else 0)  # the plan's (its estimate's) window
            self.machine.run(lowered.record, host_arrays, scalars=params)
            rec.dram_hidden += self.machine.dram_hidden - hidden
            for i, (key, kind, idx, cost) in enumerate(folds or ()):
                if functional:
                    arrays[key][idx] = _fold_partials(kind, before[i], arrays[key][idx])
                self.machine.account(cost, "chunk_fold")
            self.programs.append((rec.region, lowered, params, host_arrays))
            rec.graphs += 1
            rec.commands += lowered.commands
            if self.options.machine_mode == "analysis":  # timing only: no values
                results = [np.zeros((), dtype=t)[()] for t in dtypes]
            else:
                mine = [np.asarray(self.machine.results[i], dtype=t)[()] for i, t in enumerate(dtypes)]
                # chunks: each result folds the previous chunks' (in order); else the last call's
                combine = plan.get("combine", ())
                results = [_fold_partials(k, a, b)[()] for k, a, b in zip(combine, results, mine)] if combine and results else mine
        if plan.get("empty") and dtypes:  # no invocation: each result a fold of nothing (``_plan_empty``)
            from infs.runtime.chunking import fold_identity

            results = [fold_identity(k, t)[()] for k, t in zip(plan["combine"], dtypes)]
        rec.jit_misses = plan["misses"]
        rec.jit_seconds = plan["jit_wall"]
        return results

    def cold(self, arrays) -> bool:
        """Some array of the region is not in the L3 yet (first touch: DRAM)."""
        return not all(self.machine.is_resident(a) for a in arrays)


def _index_value(v) -> int:
    """An index scalar's value as a Python int (``int(np.asarray(v).item())``, without numpy for an int)."""
    return v if type(v) is int else int(np.asarray(v).item())


def _scalar_value(v):
    """A scalar as a Python number (``np.asarray(v).item()``, without numpy for an int or float)."""
    return v if type(v) in (int, float) else np.asarray(v).item()


def private_copies(arrays: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Copies of ``arrays`` to evaluate on without touching them: one copy per
    distinct array, so an array passed twice stays one (aliased) array."""
    copies: dict[int, np.ndarray] = {}
    return [copies.setdefault(id(a), a.copy()) for a in arrays]
