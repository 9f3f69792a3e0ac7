"""The runtime: runs whole programs, each region where the runtime decides (ASPLOS §4, §5).

``run_program(module, args, options)`` interprets the host function (xDSL's
interpreter, numpy arrays as host memory).  At every ``stream.region`` it

1. compiles the region once (``tensorize``; a region whose iteration space has
   more dims than its arrays keeps its outer parallel dims as host loops; a
   loop index that only moves where the streams start becomes the base address
   of array views, ``infs.runtime.base_offsets``), and optimizes its tDFG
   (``optimize-tdfg``; ``RunOptions.optimize``);
2. decides where it runs (``decide``, §4.3 Eq. 2: the cores at peak
   throughput against the commands' latencies plus the JIT; when Eq. 2
   refuses, the whole in-memory run against the near-memory and core models):
   in memory (tDFG -> JIT -> the simulated L3), else near memory (NSC stream
   engines) or on the cores, whichever model is faster; ``RunOptions.policy``
   ``lowerable`` (``POLICIES``) is the authors' gem5 rule instead: in memory
   whenever the region lowers, else near memory, else the cores.  The decision
   does only the work its answer needs (``RunOptions.shortcuts``): the
   in-memory probe is skipped when a lower bound of its cycles already loses,
   near/core costs are priced only when Eq. 2 refuses, and a forced mode
   probes nothing -- the same decisions and statistics as pricing everything;
3. runs it: in memory through the memoized JIT (``infs.runtime.jit``) and the
   ``Machine`` (fused: embedded streams run on the stream engines; arrays left
   transposed carry over between regions, §5.2), charging the JIT's cycles
   (the config's ``jit_model``; by default gem5's per-command charge) on each
   lowering that was not memoized; near memory / on the cores with the
   reference semantics and the NSC / core cost models of ``infs.sim``.

The report (``RunReport``) has the machine's stats (Fig. 12-14 breakdowns),
one record per region invocation, and the JIT's measured wall time.

A forced mode the runtime cannot honour (``in`` for a region that does not
tensorize or does not fit the machine) runs the region near memory and says so
in the record (``not_honoured``); ``RunOptions.strict`` makes it an error.

Near memory and on the cores, a region's values come from the stream
reference evaluator, so comparing a run with the reference would compare the
reference with itself; ``RunOptions.cross_check`` also evaluates each such
region's tDFG with the lattice semantics (``infs.runtime.lattice_eval``, an
independent implementation) on copies of its arrays and records any
disagreement (``check`` / ``check_error``).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp

from infs.dialects import pimcmd as pc
from infs.dialects import pimcmd_schema as K
from infs.dialects import stream, tdfg
from infs.hardware import HardwareConfig, load_config
from infs.element_types import ELEMENT_BITS
from infs.passes.lower_pim.choose_layout import LayoutError
from infs.passes.lower_pim.compute_floor import lowering_floor
from infs.passes.tdfg_domains import SpecializeError, element_name
from infs.passes.lowering_errors import LoweringError
from infs.passes.tensorize import CompiledRegion, compile_region, host_loop_points, tensorize_region
from infs.dialects.lattice import LatticeError, dim_name
from infs.passes.tdfg_semantics import TdfgSemanticsError
from infs.runtime import host, jit
from infs.runtime.base_offsets import BaseOffsets, fold_base_offsets
from infs.runtime.check import compare_values
from infs.runtime.heap import frozen_heap
from infs.runtime.in_memory import MAX_HOST_POINTS, InMemoryRuntime, host_points, ModeNotHonoured, RegionRecord, RunOptions, RunReport, _index_value, _scalar_value, private_copies, start_run, tiles_error  # noqa: F401 -- the driver's names
from infs.runtime.chunking import MAX_CHUNKS, assumptions_unmet, bind_rows, chunk_assumptions, chunk_combine, chunk_grid, chunk_names, chunk_region, dim_label, dim_unsafe, fold_cells, fold_identity, fold_partials, overlap_window, region_unsafe, stored_folds, transposed_in
from infs.runtime.lattice_eval import evaluate_graph
from infs.runtime.modes import MODES, POLICIES
from infs.runtime.reference import evaluate_region
from infs.runtime.reference_checks import aliased_operands, check_domain_memory, out_of_bounds_access, region_label
from infs.runtime.region_profile import profile_region
from infs.runtime.scalar_ops import FAILS_ON_SOME_POINTS, EvaluationError
from infs.sim import Machine, SimError
from infs.sim.core.baseline import core_cost, core_floor
from infs.sim.near.engine import not_offloadable, vector_lanes
from infs.sim.near.nsc import near_cost as near_memory_cost  # the configuration's near model (NSC §VI)



# near/core costs kept by profile value (``RegionRuntime._model_cost``): a host loop that
# repeats a profile (a stencil's time steps) prices it once; beyond it the oldest go.
MODEL_COSTS = 1 << 14


def profile_key(profile) -> tuple:
    """A hashable form of a ``RegionProfile``'s value: everything the near-memory and core
    models read of it (``near_memory_cost`` and ``core_cost`` are functions of the profile,
    the machine and the residency only), so equal keys price alike."""
    return tuple(tuple(sorted(v.items())) if isinstance(v := getattr(profile, f.name), Mapping) else v for f in fields(profile))


@dataclass
class _Compiled(CompiledRegion):
    """A region as tensorized (``compile_region``), with what the runtime adds."""

    nodes_before: int = 0  # tDFG nodes as tensorized
    nodes_after: int = 0  # after optimize-tdfg (the graph the JIT lowers)
    optimize_seconds: float = 0.0
    # the region (or its peeled inner region) with its loop indices folded into
    # base addresses, and its graph: one lowering for every iteration
    # (``infs.runtime.base_offsets``); None when no index folds
    fold: "tuple[stream.RegionOp, BaseOffsets, tdfg.GraphOp] | None" = None
    # a region run in chunks (``infs.runtime.chunking``): the kind folding each result across them
    combine: tuple[str, ...] = ()

    @classmethod
    def of(cls, region: stream.RegionOp) -> "_Compiled":
        """``compile_region(region)``, with room for what the runtime adds."""
        c = compile_region(region)
        return cls(**{f.name: getattr(c, f.name) for f in fields(CompiledRegion)})


class RegionRuntime(InMemoryRuntime):
    """The region executor plugged into the host interpreter: compilation, the decision,
    chunks and the near-memory and core paths on top of the in-memory half (``InMemoryRuntime``)."""

    def __init__(self, options: RunOptions, machine: Machine, progress: Callable[[RegionRecord], None] | None = None):
        super().__init__(options, machine, progress)
        self._keep: list = []  # keeps folded regions alive
        self._chunked: dict[tuple, _Compiled | str] = {}  # per (region, chunked dims): its chunked form, or why it has none
        self._fold_costs: dict[tuple, Any] = {}  # near-memory cost of folding chunks' partials (``_fold_cost``)
        self._priced: dict[tuple, tuple] = {}  # this region call's near/core costs (``_model_cost``)
        self._costs_of: dict[tuple, Any] = {}  # near/core costs by profile value (``_model_cost``, ``RunOptions.shortcuts``)
        self._views: dict = {}  # compiled programs' array views, kept for the next call (``compiled.bind``)
        self._graph_floors: dict[tuple, tuple] = {}  # what a graph's lowerings emit, by graph, sizes and shapes (``_graph_floor``)
        self.decide_seconds = 0.0  # RunReport.decide_seconds, decide_used_seconds
        self.decide_used_seconds = 0.0
        self._pricing: dict[str, float] = {}  # this region call's model pricing, wall seconds per mode

    # -- compilation (once per region) --------------------------------------------
    def compile(self, region: stream.RegionOp) -> _Compiled:
        key = id(region)
        hit = self.compiled.get(key)
        if hit is not None:
            return hit
        self.ids[key] = len(self.ids)
        comp = _Compiled.of(region)
        reassoc = floats_may_reassociate(region)
        self._optimize(comp, reassoc)
        if comp.graph is not None and self.options.fold_base_offsets:
            self._fold(comp, comp.inner or region, reassoc)
        self.compiled[key] = comp
        return comp

    def _fold(self, comp: _Compiled, source: stream.RegionOp, reassociate_floats: bool) -> BaseOffsets | None:
        """``comp.fold``: ``source`` with its loop indices folded into base addresses
        (``fold_base_offsets``), tensorized and optimized; the offsets, or None when
        nothing folds or the folded region does not tensorize."""
        offsets = fold_base_offsets(source)
        if offsets is None:
            return None
        self._keep.append(offsets)
        # a chunk's assumptions (``chunking.chunk_region``) hold of the folded region too: same symbols
        offsets.region.assumptions = getattr(source, "assumptions", ())  # type: ignore[attr-defined]
        folded, _ = tensorize_region(offsets.region)
        if folded is None:
            return None
        comp.optimize_seconds += self._optimize_graph(folded, reassociate_floats)[1]
        comp.fold = (source, offsets, folded)
        return offsets

    def _optimize(self, comp: _Compiled, reassociate_floats: bool) -> None:
        """``optimize-tdfg`` on the region's graph, before the JIT: the optimized graph is
        the one lowered and memoized (§3.2 "Optimizing tDFG", Fig. 3: the compiler
        optimizes each tDFG once, the JIT lowers it at every configuration).  Its wall
        time is recorded but not charged as simulated cycles: in the paper it is the
        static compiler's work (Fig. 3, "our static compiler first extracts an initial
        tDFG ... and optimizes it"), done before the program runs; the runtime does it
        here only because infs tensorizes regions when they are first met."""
        graph = comp.graph
        if graph is None:
            return
        comp.nodes_before = comp.nodes_after = _tdfg_nodes(graph)
        changed, comp.optimize_seconds = self._optimize_graph(graph, reassociate_floats)
        if changed:
            comp.nodes_after = _tdfg_nodes(graph)

    def _optimize_graph(self, graph: tdfg.GraphOp, reassociate_floats: bool) -> tuple[bool, float]:
        """optimize-tdfg on ``graph`` in place (when ``RunOptions.optimize``): (changed, wall seconds).
        Not in a forced near/core run without ``cross_check``: no graph of it is lowered or evaluated.
        Float arithmetic is reassociated (Eq. 3's associativity and distributivity on floats) only
        when the region's float ops allow it (``floats_may_reassociate``)."""
        if not self.options.optimize or (self.options.mode in ("near", "core") and not self.options.cross_check):
            return False, 0.0
        from infs.passes.optimize_tdfg import optimize_graph
        from infs.passes.tdfg_cost import CostModel
        from infs.sim.config import get_profile

        model = CostModel(self.cfg, get_profile(self.options.profile or self.cfg.profile))
        t0 = time.perf_counter()
        # no time limit: the node and iteration limits bound the work, so the graph (and the
        # simulated cycles) do not depend on the host's load
        report = optimize_graph(graph, model, time_limit=math.inf, reassociate_floats=reassociate_floats)
        return report.changed, time.perf_counter() - t0

    # -- decision (§4.3) ----------------------------------------------------------------
    def decide(self, region, comp: _Compiled, arrays, scalars, profile) -> tuple[str, str, Any, str]:
        """(mode, reason, in-memory plan or None, why a forced mode was not honoured)."""
        mode = self.options.mode
        plan = None
        why_not = comp.reason
        # the in-memory estimates (the probe) are left out until Eq. 2 needs them: a forced
        # mode and the lowerable policy never do (a chunked plan has them: its windows need them)
        lazy = self.options.shortcuts
        stuck = not_offloadable(profile, self.cfg)  # near memory impossible: the cores run it
        priced: list = []

        def alternative() -> tuple[str, int]:
            # the faster of near memory and the cores, and its cycles: priced only when
            # the decision needs them (Eq. 2 sending a region in memory does not)
            if not priced:
                cold = self.cold(arrays)
                near = self._model_cost("near", profile, cold).cycles if not stuck else math.inf
                # the cores are not priced when their floor (their latency term alone) already
                # loses to near memory: near wins either way, and the reason names only the winner
                lazy_core = self.options.shortcuts and near <= core_floor(profile, self.cfg)
                core = math.inf if lazy_core else self._model_cost("core", profile, cold).cycles
                priced.extend(("near", near) if near <= core else ("core", core))
            return priced[0], priced[1]

        if lazy and mode == "auto" and self.options.policy == "eq2" and comp.graph is not None:
            # before the JIT: when the compute commands every lowering of the graph emits
            # already lose Eq. 2, and they and the transpositions lose to the alternative,
            # no lowering would say otherwise (``_compute_floor`` after it is at least this)
            lhs = self._cores_at_peak(profile)
            early, whole = self._graph_floor(region, comp, arrays, scalars)
            if lhs <= early:
                alt, best = alternative()
                if best <= whole:
                    self.defer_lowerings(region, comp, arrays, scalars)
                    return alt, (f"Eq. 2: cores at peak {lhs:,} <= in-memory ops + JIT (at least {early:,} cycles: the compute "
                                 f"commands every lowering of its graph emits; not lowered); {alt} is faster ({best:,} cycles)"), None, ""  # fmt: skip
        if mode in ("auto", "in") and comp.graph is not None:
            try:
                plan = self.plan_in_memory(region, comp, arrays, scalars, probe=not lazy)
            except (LayoutError, LoweringError) as e:
                why_not = str(e).strip().splitlines()[0]
                if isinstance(e, LayoutError) and self.options.chunk:
                    plan, why_chunks = self.plan_chunked(region, arrays, scalars)
                    if plan is None and why_chunks != why_not:  # (the same error again says nothing new)
                        why_not = f"{why_not}; not in chunks: {why_chunks}"
        if mode == "in":
            if plan is None:
                if self.options.strict:
                    raise ModeNotHonoured(self.ids[id(region)], mode, str(why_not))
                if stuck:
                    return "core", f"in-memory impossible ({why_not}); near memory too ({stuck}); ran on the cores", None, str(why_not)
                return "near", f"in-memory impossible ({why_not}); ran near memory", None, str(why_not)
            return "in", "forced", plan, ""
        if mode == "near" and stuck:
            if self.options.strict:
                raise ModeNotHonoured(self.ids[id(region)], mode, stuck)
            return "core", f"near memory impossible ({stuck}); ran on the cores", None, stuck
        if mode in ("near", "core"):
            return mode, "forced", None, ""
        if not self.options.shortcuts:
            alternative()  # (every call priced up front, as before the shortcuts)
        if self.options.policy == "lowerable":
            # the artifact's rule (POLICIES): in memory whenever it lowers, no cost test
            if plan is not None:
                return "in", "policy lowerable: the region lowers for this machine", plan, ""
            if stuck:
                return "core", f"policy lowerable: not in memory ({why_not}); near memory impossible ({stuck})", None, ""
            return "near", f"policy lowerable: not in memory ({why_not})", None, ""
        if plan is not None:
            # Eq. 2 (§4.3, asplos:359-361): in memory when
            #   N_elem x N_op / TP_core  >  sum_i Lat_op_i + N_node x Lat_JIT.
            # LHS: the region's element ops (the compiler's op counts) at the
            # cores' peak, TP_core = cores x simd_lanes ops/cycle (§2.2: "64 x 16 =
            # 1024 ops/cycle"; half the lanes for 64-bit elements, ``vector_lanes``).
            # RHS: the lowered commands' latencies (compute, moves, syncs, final reduce; no DRAM/transposition term: the paper's
            # RHS has none, so the one-time transposition is amortized over
            # every re-entry) plus the JIT charge of the lowerings not yet paid
            # (``jit_cycles``).  Between near memory and the cores, which §4.3
            # does not decide, the faster model wins.  N_op is at least one per
            # element: a region with no arithmetic (a copy, a constant store)
            # still has the cores produce every element, one vector op per
            # simd_lanes elements at peak -- with N_op = 0 the LHS would be 0
            # and such a region could never run in memory however cheap it is.
            lhs = self._cores_at_peak(profile)
            if "floor" in plan and lhs <= plan["floor"]:
                # the in-memory estimate is at least its compute commands' cycles plus the JIT
                # (``_compute_floor``), its whole run at least ``_whole_floor``: when Eq. 2 refuses
                # and the whole run cannot beat the alternative, the probe would say nothing else
                alt, best = alternative()
                if best <= plan["floor"] or best <= self._whole_floor(plan):
                    return alt, (f"Eq. 2: cores at peak {lhs:,} <= in-memory ops + JIT (at least {plan['floor']:,} cycles: its compute "
                                 f"commands alone); {alt} is faster ({best:,} cycles)"), None, ""  # fmt: skip
            rhs = self.probe_plan(plan)["estimate"]
            if lhs > rhs:
                return "in", f"Eq. 2: cores at peak {lhs:,} > in-memory ops + JIT {rhs:,} cycles", plan, ""
            # Eq. 2 is "basic and conservative (assuming peak core performance)"
            # (§4.3): the runtime also has the near-memory and core models the
            # alternative is priced with, and the in-memory run's whole time
            # (transposition included, at the arrays' current residency); when
            # that is below the faster model, the region runs in memory after
            # all -- so Inf-S is never slower than a region's faster of In-L3
            # and Near-L3/Base by the runtime's own estimates.
            alt, best = alternative()
            if plan["full"] < best:
                return "in", (f"Eq. 2: cores at peak {lhs:,} <= in-memory ops + JIT {rhs:,} cycles, but the whole in-memory "
                              f"run ({plan['full']:,} cycles) beats the {alt} model ({best:,})"), plan, ""  # fmt: skip
            return alt, f"Eq. 2: cores at peak {lhs:,} <= in-memory ops + JIT {rhs:,} cycles; {alt} is faster ({best:,} cycles)", None, ""
        alt, best = alternative()
        return alt, f"not in memory ({why_not}); {alt} is faster ({best:,} cycles)", None, ""

    def _cores_at_peak(self, profile) -> int:
        """Eq. 2's LHS: the region's element ops at the cores' peak throughput (``decide``)."""
        return -(-max(profile.total_ops, profile.iterations) // (self.cfg.cores * vector_lanes(profile, self.cfg)))

    def _graph_floor(self, region, comp: _Compiled, arrays, scalars) -> tuple[int, int]:
        """Lower bounds of a region call's in-memory estimate and whole run, read off its
        graph before the JIT (``compute_floor.lowering_floor``): per graph invocation, the
        compute commands every lowering of it emits, each at its op's latency with or
        without a constant operand, whichever is less (at most ``_compute_floor`` of any
        of its lowerings); and, for the whole run, each array it transposes in that is not
        held transposed now (in any layout, which might be the one it gets), once, at the
        transposition inside the L3 of its laid-out bytes (what a transpose_in costs from
        the L3, and at most what it costs from DRAM, whose H-tree part alone is as long).
        The machine's clock advances by every charge, so the whole run is at least the sum.
        The JIT's charge is left out (its commands are not counted yet).  (0, 0) when the
        graph does not lower as read (the lowering will say why) or the call has host loop points."""
        compute_cycles = self.machine.costs.profile.compute_cycles
        cfg = self.cfg
        floor = moves = 0
        seen: set[int] = set()
        try:
            ranges, count = host_points(comp, region, scalars)
            if count > 1:
                # a host loop's points (kmeans_inner's 32,768) mostly share one lowering (the JIT's
                # memo, ``plan_in_memory``'s previous point): binding every point twice costs more
                # than the JIT it could save
                return 0, 0
            for g, call_arrays, _, call_shapes, sizes in self.bound_points(comp, arrays, scalars, itertools.product(*ranges)):
                facts = jit.graph_facts(g)
                # (a host loop's points and re-entered calls over the same graph, sizes and shapes emit alike)
                key = (id(g), tuple(sorted(sizes.items())), tuple(sorted(call_shapes.items())))
                hit = self._graph_floors.get(key)
                if hit is None or hit[0] is not g:
                    if len(self._graph_floors) >= MODEL_COSTS:
                        self._graph_floors.clear()
                    hit = self._graph_floors[key] = (g, lowering_floor(facts, sizes, call_shapes))
                emitted = hit[1]
                for op, ty in emitted.computes:
                    floor += min(compute_cycles(op, ty, False), compute_cycles(op, ty, True))
                for i, shape in emitted.fetched.items():
                    a = call_arrays[i]
                    st = self.machine.residency_of(a)
                    if id(a) in seen or (st is not None and len(st) > 2):
                        continue
                    seen.add(id(a))
                    moved = int(math.prod(shape) * (ELEMENT_BITS[element_name(facts.arg_types[i])] / 8.0))
                    moves += -(-moved // max(1, cfg.htree_bytes_per_cycle * cfg.banks)) + cfg.l3_latency
        except (LayoutError, LoweringError, LatticeError, SpecializeError):
            return 0, 0
        return floor, floor + moves

    def _model_cost(self, mode: str, profile, cold: bool):
        """``near_memory_cost`` or ``core_cost`` of ``profile``, priced once per region
        call: the decision's estimate is the cost the run then charges (the models
        depend on the profile, the machine and ``cold`` only)."""
        key = (mode, id(profile), cold)
        hit = self._priced.get(key)
        if hit is None or hit[0] is not profile:
            # a host loop whose region's profile does not change (a stencil's time steps)
            # prices it once for the whole loop
            memo = (mode, profile_key(profile), cold) if self.options.shortcuts else None
            cost = self._costs_of.get(memo) if memo is not None else None
            if cost is None:
                t0 = time.perf_counter()
                cost = near_memory_cost(profile, self.cfg, cold=cold) if mode == "near" else core_cost(profile, self.cfg, cold=cold)
                self._pricing[mode] = self._pricing.get(mode, 0.0) + time.perf_counter() - t0
                if memo is not None:
                    if len(self._costs_of) >= MODEL_COSTS:
                        self._costs_of.pop(next(iter(self._costs_of)))
                    self._costs_of[memo] = cost
            hit = self._priced[key] = (profile, cost)
        return hit[1]

    def plan_chunked(self, region, arrays, scalars) -> tuple[dict | None, str]:
        """The in-memory plan of ``region`` in chunks (``infs.runtime.chunking``), the
        fewest whose chunk lowers for this machine; (None, why) when none does.

        The chunked dims are the region's dims that can be chunked (``dim_unsafe``),
        outer first: the first one is split in 2, 4, 8, ... chunks (down to single
        rows); when single rows of it still do not fit, the next one is split too,
        and so on (stencil3d on a small machine: single planes of its outer dim, in
        rows of its second).  A region whose outer dims run as host loops (mm_inner)
        is chunked inside every host loop point: its inner region's dims."""
        whole = self.compiled[id(region)]
        base = whole.inner if whole.peel else region
        assert base is not None
        # the inner region's dims at every host loop point (its bounds may name the host indices)
        if whole.peel:
            ranges, _ = host_loop_points(whole, region, scalars)
            hosts = list(itertools.product(*ranges))
        else:
            hosts = [()]
        envs = [{n: int(v) for n, v, s in zip(base.names, [*scalars, *hp], base.scalars) if isinstance(s.type, IndexType)} for hp in hosts]
        empty = self._plan_empty(region, base, envs)
        if empty is not None:
            return empty, ""
        why = region_unsafe(base)
        if why is not None:
            return None, why
        unsafe: list[str] = []

        def chunkable(dims) -> list[int]:
            # atomics need the chunks in the region's order: whether the dims before are chunked too matters;
            # a reduction dim whose values are stored comes last (its chunks' partials are folded: more work)
            out: list[int] = []
            folded: list[int] = []
            for d in dims:
                why = next((w for env in envs if (w := dim_unsafe(base, d, out == list(range(d)), env)) is not None), None)
                if why is None:
                    out.append(d)
                    continue
                if base.iterator_kinds[d] == "reduction" and self.options.chunk_folds:
                    fwhy = next((w for env in envs if (w := dim_unsafe(base, d, False, env, fold=True)) is not None), None)
                    if fwhy is None:
                        folded.append(d)
                        continue
                    why = fwhy
                unsafe.append(f"{dim_name(d)}: {why}" if base.iteration_domain.rank > 1 else why)
            fold_dims.update(folded)
            return out + folded

        fold_dims: set[int] = set()
        safe = chunkable(range(base.iteration_domain.rank))
        tried: list[str] = []
        while safe:
            plan, why, bad = self._plan_chunks(region, base, safe, hosts, envs, arrays, scalars, whole.peel, fold_dims)
            if bad is None:  # (no plan: the last chunks tried did not fit; say why the other dims were not chunked)
                return plan, "" if plan is not None else "; ".join(dict.fromkeys([*tried, why, *unsafe]))
            tried.append(f"{dim_name(bad)}: {why}" if base.iteration_domain.rank > 1 else why)
            safe = chunkable([d for d in safe if d != bad])  # chunks of ``bad`` do not compile: the other dims without it
        return None, "; ".join(dict.fromkeys([*unsafe, *tried]))

    def _plan_empty(self, region, base, envs) -> dict | None:
        """The in-memory plan of a region that computes nothing at this call (at every
        host loop point): a parallel dim no reduction folds is empty, so no store or
        atomic runs, or the region only has results, each then a fold of nothing (its
        identity, as the reference gives it).  Its whole graph over arrays not cut to an
        empty box may not fit the machine (base_offsets has no view of nothing), which is
        no reason to run it elsewhere, nor to refuse it under --strict: the plan is no
        graph invocation.  None when the region may compute something."""
        ops = list(base.body.block.ops)
        kinds = base.iterator_kinds
        folded = {d for op in ops if isinstance(op, stream.ReduceOp) for d in op.dims_list()}

        def empty(d: int) -> bool:
            return all(hi - lo <= 0 for env in envs for lo, hi in [tuple(b.evaluate(env) for b in base.iteration_domain.bounds[d])])

        dims = range(base.iteration_domain.rank)
        if any(isinstance(op, (stream.StoreOp, stream.AtomicOp)) for op in ops):
            if not any(kinds[d] == "parallel" and d not in folded and empty(d) for d in dims):
                return None
        elif not any(empty(d) for d in dims):
            return None
        combine = chunk_combine(region, ()) if region.res else ()
        if isinstance(combine, str):  # (a fold with an init value: its result is not an identity)
            return None
        return {"calls": [], "estimate": 0, "full": 0, "misses": 0, "jit_wall": 0.0, "windows": [], "combine": combine, "empty": True}

    def _plan_chunks(self, region, base, safe, hosts, envs, arrays, scalars, peel, fold_dims) -> tuple[dict | None, str, int | None]:
        """``plan_chunked`` over the dims ``safe``: (plan, "", None), (None, why, None),
        or (None, why, d) when the region chunked along ``d`` does not compile.
        ``fold_dims``: those of them whose chunks' stored partials are folded (``_plan_folds``)."""
        boxes = [[tuple(b.evaluate(env) for b in base.iteration_domain.bounds[d]) for d in safe] for env in envs]
        extent = [max((hi - lo for lo, hi in (box[i] for box in boxes)), default=0) for i in range(len(safe))]
        last = f"{dim_label(safe[0])} has fewer than 2 rows"
        if 0 in extent:  # an empty box along a dim: nothing to chunk (and no chunk count of 0 to split it in)
            return None, f"{dim_label(safe[extent.index(0)])} is empty", None
        for i in range(len(safe)):
            dims = tuple(safe[: i + 1])
            counts = []
            count = 2
            while count <= extent[i]:
                counts.append(count)
                count *= 2
            if extent[i] >= 2 and (not counts or counts[-1] < extent[i]):
                # single rows, before the next dim is split too (or, along the last dim, as
                # the last try: 100 rows in 64 chunks of 2 may not fit where single rows do)
                counts.append(extent[i])
            if not any(e >= 2 for e in extent) and i == 0:
                counts = [1]  # nothing to split: the region over views cut to its box may still fit (a lattice is its arrays' extent)
            for count in counts:
                split = (*extent[:i], count)  # the dims before: single rows
                grids = [chunk_grid(box, split) for box in boxes]  # per host loop point: its chunks
                chunks = len(grids[0]) if grids else 0
                if chunks > MAX_CHUNKS:
                    return None, f"it would need more than {MAX_CHUNKS:,} chunks ({last})", None
                comp = self._chunked.get((id(region), dims))
                if comp is None:  # (safe for these symbols' values: checked above)
                    comp = self._chunked[(id(region), dims)] = self._compile_chunked(region, base, dims)
                if isinstance(comp, str):
                    return None, comp, dims[-1]
                points = [(*hp, *c) for hp, grid in zip(hosts, grids) for c in grid]
                # the facts the chunked region was checked under, on every chunk's values
                names, facts = chunk_names(base, dims), chunk_assumptions(base, dims)
                unmet = next((w for env, grid in zip(envs, grids) for c in grid
                              if (w := assumptions_unmet(facts, {**env, **dict(zip(names, c))})) is not None), None)  # fmt: skip
                if unmet is not None:
                    return None, unmet, None
                try:
                    plan = self.plan_in_memory(region, comp, arrays, scalars, points)
                except (LayoutError, LoweringError) as e:
                    last = str(e).strip().splitlines()[0]
                    continue
                if fold_dims & set(dims):  # chunks of a stored reduction dim: partials folded
                    self._plan_folds(plan, base, dims, [d for d in dims if d in fold_dims], hosts, envs, points)
                first = points[0][len(hosts[0]) :] if points else ()
                plan["chunks"] = (len(points), first[0] if first else 0)
                plan["chunk_shape"] = " x ".join(f"{dim_name(d)}:{n}" for d, n in zip(dims, first[::2]))
                plan["chunk_outer"] = dims == (0,) and not peel
                plan["combine"] = comp.combine
                return plan, "", None
        return None, last, None

    def _plan_folds(self, plan: dict, base, dims: tuple[int, ...], folded: list[int], hosts, envs, points) -> None:
        """Chunks of a reduction dim whose values are stored (mm_inner's k when one
        j's row of A does not fit): each chunk stores its partials (its k's); every
        chunk after the first along the folded dims folds them into the cells the
        earlier chunks stored, in chunk order (``stored_folds``).  The fold is a
        near-memory element-wise op over the stored cells, as the final reduction
        of a tile's partials is (§4.2 "Reduction", Fig. 4b: partials finished near
        memory): charged by the near-memory model (``near_memory_cost``) as a region
        reading the stored cells and the new partials and writing the folded ones."""
        spec = stored_folds(base, folded[0])
        assert not isinstance(spec, str)
        width = len(hosts[0]) if hosts else 0
        envs_of = dict(zip(hosts, envs))
        folds: list = []
        extra = 0
        for point in points:
            hp, c = point[:width], point[width:]
            env = envs_of[hp]
            box = [tuple(b.evaluate(env) for b in bounds) for bounds in base.iteration_domain.bounds]
            at = {d: (c[2 * i + 1], c[2 * i + 1] + c[2 * i]) for i, d in enumerate(dims)}
            if all(at[d][0] == box[d][0] for d in folded):
                folds.append(None)  # the first chunk along the folded dims: its partials stored as they are
                continue
            box = [at.get(d, b) for d, b in enumerate(box)]
            cells = fold_cells(spec, env, box, data=self.options.machine_mode != "analysis")
            costs = [self._fold_cost(base.arrays[key].type.element_type, kind, n) for key, kind, _, n in cells]  # type: ignore[attr-defined]
            extra += sum(cost.cycles for cost in costs)
            folds.append([(key, kind, idx, cost) for (key, kind, idx, _), cost in zip(cells, costs)])
        plan["folds"] = folds
        plan["estimate"] += extra
        plan["full"] += extra

    def _fold_cost(self, element_type, kind: str, cells: int):
        """The near-memory model's cost of folding ``cells`` partials into stored cells (``_plan_folds``)."""
        key = (str(element_type), kind, cells)
        hit = self._fold_costs.get(key)
        if hit is None:
            t = str(element_type)
            fl = t.startswith(("f", "bf"))
            op = {"add": ("addf", "addi"), "mul": ("mulf", "muli"), "min": ("minimumf", "minsi"), "max": ("maximumf", "maxsi")}[kind][0 if fl else 1]
            text = f"""func.func @fold(%C: memref<?x{t}>, %P: memref<?x{t}>, %n: index) {{
  stream.region ins(%C, %P : memref<?x{t}>, memref<?x{t}>) syms(N = %n : index) domain [0:N] iterators [parallel] {{
  ^bb0(%c: memref<?x{t}>, %p: memref<?x{t}>, %N: index):
    %x = stream.load %c[d0] : memref<?x{t}> -> !stream.stream<{t}>
    %y = stream.load %p[d0] : memref<?x{t}> -> !stream.stream<{t}>
    %z = stream.compute(%x, %y : !stream.stream<{t}>, !stream.stream<{t}>) -> !stream.stream<{t}> {{
    ^bb1(%u: {t}, %v: {t}):
      %w = arith.{op} %u, %v : {t}
      stream.yield %w : {t}
    }}
    stream.store %z -> %c[d0] : !stream.stream<{t}> -> memref<?x{t}>
    stream.yield
  }}
  func.return
}}"""
            from infs.dialects.parse import parse_text  # (the parser: loaded only when a region's partials are folded)

            (fold,) = [op for op in parse_text(text).walk() if isinstance(op, stream.RegionOp)]
            dummy = np.zeros(cells, dtype=host.numpy_dtype(element_type))
            hit = self._fold_costs[key] = near_memory_cost(profile_region(fold, [dummy, dummy], [cells]), self.cfg, cold=False)
        return hit

    def _compile_chunked(self, region, base, dims: tuple[int, ...]) -> _Compiled | str:
        """``base`` (the region, or its inner region when outer dims are host loops)
        chunked along ``dims`` (``chunk_region``; ``dim_unsafe`` checked by the
        caller, for the symbols' values), tensorized, every chunk start folded
        into array views."""
        try:
            chunked, holder = chunk_region(base, dims)
        except ValueError as e:  # (the verifier cannot prove the chunk's accesses apart, even under its assumptions)
            return str(e)
        self._keep.append((chunked, holder))
        comp = _Compiled.of(chunked)
        if comp.graph is None or comp.peel:
            return f"the chunked region does not tensorize ({comp.reason})"
        offsets = self._fold(comp, chunked, floats_may_reassociate(region))
        starts = chunk_names(base, dims)[1::2]  # (XLO per dim: each chunk's start)
        if offsets is None or any(x not in offsets.folded for x in starts):
            return "the chunk's start is not only where its streams start, or the chunk over array views does not tensorize"
        comp.combine = chunk_combine(region, dims) if region.res else ()  # (a tuple: chunk_unsafe checked it)
        return comp

    # -- execution ------------------------------------------------------------------------
    def __call__(self, region: stream.RegionOp, arrays: list[np.ndarray], scalars: list[Any]) -> list[Any]:
        first = id(region) not in self.compiled
        comp = self.compile(region)
        # every mode: distinct operands are distinct arrays (the static checks,
        # the layout of each array in memory); aliased host arguments are refused
        alias = aliased_operands(region, arrays)
        if alias is not None:
            raise EvaluationError(f"region {self.ids[id(region)]} ({region_label(region)}): {alias}")
        # every mode: an access outside its array is an error (in memory, the lattice would drop it)
        bad = out_of_bounds_access(region, [np.shape(a) for a in arrays], scalars)
        if bad is not None:
            raise EvaluationError(f"region {self.ids[id(region)]} ({region_label(region)}): {bad}")
        profile = profile_region(region, arrays, scalars)
        self._priced.clear()  # (the costs of the previous call's profile)
        self._pricing.clear()
        t0 = time.perf_counter()
        mode, reason, plan, not_honoured = self.decide(region, comp, arrays, scalars, profile)
        self.decide_seconds += time.perf_counter() - t0
        # (what of it the run uses: RunReport.decide_used_seconds)
        self.decide_used_seconds += plan["jit_wall"] + plan.get("probe_wall", 0.0) if plan is not None else self._pricing.get(mode, 0.0)
        rec = RegionRecord(self.ids[id(region)], mode, reason, elements=profile.iterations, requested=self.options.mode, not_honoured=not_honoured)
        if plan is not None and plan.get("empty"):
            rec.reason += "; its domain is empty: nothing to compute, no graph invocation (its whole graph does not fit the SRAM arrays)"
        if plan is not None and "chunks" in plan:
            rec.chunks, rec.chunk_rows = plan["chunks"]
            rec.chunk_shape = plan["chunk_shape"]
            if rec.chunks == 1:
                rec.reason += "; in one chunk, over array views cut to its domain (its arrays are too large for the SRAM arrays)"
            elif plan["chunk_outer"]:
                rec.reason += f"; in {rec.chunks} chunks of {rec.chunk_rows} rows of its outer dim (too large for the arrays at once)"
            else:
                where = " of its inner region at each host loop point" if comp.peel else ""
                rec.reason += f"; in {rec.chunks} chunks of {rec.chunk_shape}{where} (too large for the arrays at once)"
            if "overlap" in plan:
                rec.reason += f"; {plan['overlap']}"
        if first:
            rec.tdfg_nodes_before, rec.tdfg_nodes_after, rec.optimize_seconds = comp.nodes_before, comp.nodes_after, comp.optimize_seconds
        start = self.machine.cycles
        if mode == "in":
            self.check_divisors(region, arrays, scalars)
            try:
                results = self.run_in_memory(comp, plan, arrays, rec)
            except SimError:
                # an index loaded from memory outside its array stops the stream
                # engines (the machine names its pimcmd op): the program's error is
                # the reference's, naming the stream op and index, as near/core say it
                if any(isinstance(op, stream.LoadOp | stream.StoreOp | stream.AtomicOp) and op.indirect_positions() for op in region.body.block.ops):
                    evaluate_region(region, private_copies(arrays), scalars)
                raise
        else:
            results = self.run_near_or_core(region, mode, arrays, scalars, profile, comp, rec)
        rec.cycles = self.machine.cycles - start
        self.records.append(rec)
        if self.progress:
            self.progress(rec)
        return results

    def check_divisors(self, region: stream.RegionOp, arrays, scalars) -> None:
        """An integer division by zero is the program's error in every mode
        (the reference's, naming the op), not the machine's quotient 0: a
        region that divides integers and runs in memory is first evaluated
        by the reference on copies of its arrays, which raises it (host work
        only, nothing charged; no other region pays for it)."""
        if self.options.machine_mode == "analysis" or not any(
            isinstance(inner, FAILS_ON_SOME_POINTS) for op in region.body.block.ops if isinstance(op, stream.ComputeOp) for inner in op.body.block.ops
        ):
            return
        evaluate_region(region, private_copies(arrays), scalars)

    def run_compiled(self, op, arrays: list[np.ndarray], scalars: list[Any]) -> list[Any]:
        """A ``pimcmd.program`` in the host code (compiled ahead of time, ``infs-opt
        --lower-pim``: the paper's "Inf-S no JIT"): checked against this call
        (``infs.runtime.compiled.bind``: machine, sizes, shapes) and run as lowered,
        with the statistics of the JIT's run of the same program and no JIT charge
        (no JIT ran).  Any forced mode runs it in memory: it has no streams left."""
        from infs.runtime import compiled

        key = id(op)
        if key not in self.ids:
            self.ids[key] = len(self.ids)
            self._keep.append(op)
        if self.options.mode in ("near", "core"):
            raise EvaluationError(f"region {self.ids[key]} ({region_label(op)}): mode '{self.options.mode}' cannot run a pimcmd.program "
                                  "(compiled ahead of time: commands for the SRAM arrays, no streams left for near memory or the cores): use --mode in or auto")  # fmt: skip
        prog, host_arrays, params = compiled.bind(op, self.cfg, arrays, scalars, self._views, self.options.tiles)
        if self.options.machine_mode != "analysis" and any(c.kind is K.COMPUTE and c.get("op") == "div" and c.get("type", "").startswith("i") for c in prog.cmds):
            # an integer division by zero is the program's error, not the machine's quotient 0
            # (as run_graph gives a graph's): the source graph, when there is one, on copies
            src = compiled.source_graph(op)
            if src is not None:
                try:
                    evaluate_graph(src[0], private_copies(arrays), [scalars[k] for k in src[1]])
                except EvaluationError as e:  # (its lines are those of the infs.source text)
                    raise EvaluationError(f"{region_label(op)}: {str(e).strip().splitlines()[0]} of its infs.source") from None
        cells = math.prod(prog.lattice)
        commands = sum(1 for c in prog.cmds if c.kind is not K.ARRAY)
        rec = RegionRecord(self.ids[key], "in", "a pimcmd.program (compiled ahead of time) runs as lowered; no JIT", elements=cells,
                           graphs=1, commands=commands, requested=self.options.mode)  # fmt: skip
        start = self.machine.cycles
        self.machine.run(prog, host_arrays, scalars=params)
        self.programs.append((rec.region, _Precompiled(prog, list(range(len(params))), 0, 0.0), params, host_arrays))
        rec.cycles = self.machine.cycles - start
        self.records.append(rec)
        if self.progress:
            self.progress(rec)
        if self.options.machine_mode == "analysis":
            return [np.zeros((), dtype=host.numpy_dtype(r.type))[()] for r in op.res]
        return [np.asarray(self.machine.results[i], dtype=host.numpy_dtype(r.type))[()] for i, r in enumerate(op.res)]

    def run_near_or_core(self, region, mode: str, arrays, scalars, profile, comp: _Compiled | None = None, rec: RegionRecord | None = None) -> list[Any]:
        cold = self.cold(arrays)
        cost = self._model_cost(mode, profile, cold)
        self.machine.account(cost, f"region_{mode}")
        # what fits the L3 stays there; a footprint beyond it came from DRAM and leaves the
        # rest there too (near_memory_cost charged it as such: near.data_traffic)
        self.machine.mark_resident(arrays, capacity=self.cfg.l3_bytes)
        if self.options.machine_mode == "analysis":
            return [np.zeros((), dtype=host.numpy_dtype(r.type))[()] for r in region.res]
        # the domain the reference will materialize fits the host (one line naming the region)
        env = {n: int(v) for n, v, s in zip(region.names, scalars, region.scalars) if isinstance(s.type, IndexType)}
        try:
            box = region.iteration_domain.evaluate(env)
        except LatticeError:
            box = None  # the evaluator reports it
        if box is not None:
            check_domain_memory(region, box, f"region {self.ids[id(region)]} ({region_label(region)})")
        if not (self.options.cross_check and comp is not None and rec is not None):
            return evaluate_region(region, arrays, scalars)
        shadow = private_copies(arrays)
        results = evaluate_region(region, arrays, scalars)
        if profile.iterations == 0:
            # no iteration: the reference read and computed nothing, and the
            # tDFG's tensors of an empty domain may name boxes outside the
            # arrays (found by the CLI fuzzer, F3): nothing to cross-check
            rec.check = "empty domain"
            return results
        self.cross_check(region, comp, shadow, arrays, scalars, results, rec)
        return results

    def cross_check(self, region, comp: _Compiled, shadow, arrays, scalars, results, rec: RegionRecord) -> None:
        """The region's tDFG on the lattice (on ``shadow``, copies of the inputs) vs the reference's values."""
        graph = comp.graph
        if graph is None:
            rec.check = f"reference only: {comp.reason}"
            return
        rec.check = "lattice"
        try:
            if comp.peel:  # outer dims as host loops around the graph (as the pass emits them)
                for point in itertools.product(*host_loop_points(comp, region, scalars)[0]):
                    evaluate_graph(graph, shadow, [*scalars, *point])
                lattice_results = None
            else:
                lattice_results = evaluate_graph(graph, shadow, scalars)
        except (EvaluationError, LatticeError, TdfgSemanticsError) as e:
            rec.check_error = f"the lattice evaluator failed: {str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__}"
            return
        names = [a.name_hint or f"array{i}" for i, a in enumerate(region.array_args)]
        actual = {f"%{n}": a for n, a in zip(names, shadow)}
        expected = {f"%{n}": a for n, a in zip(names, arrays)}
        if lattice_results is not None:
            actual.update({f"result {i}": v for i, v in enumerate(lattice_results)})
            expected.update({f"result {i}": v for i, v in enumerate(results)})
        res = compare_values(actual, expected)
        if not res.ok:
            rec.check_error = f"lattice evaluator vs reference: {res.note}"


class _Precompiled(jit.Lowered):
    """A compiled program's records as ``RunReport.programs`` lists the JIT's (``jit.Lowered``): no lowering ran."""


def _tdfg_nodes(graph: tdfg.GraphOp) -> int:
    """Tensor nodes of a graph (what optimize-tdfg rewrites and the benchmark counts)."""
    return sum(1 for op in graph.body.block.ops if isinstance(op, (tdfg.TensorOp, tdfg.ConstOp, tdfg.CmpOp, tdfg.MvOp, tdfg.BcOp, tdfg.ShrinkOp)))


_FLOAT_ARITH = (arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.DivfOp)


def floats_may_reassociate(region: stream.RegionOp) -> bool:
    """Whether every float add/sub/mul/div of the region carries the ``reassoc``
    fast-math flag (``arith.addf %a, %b fastmath<reassoc> : f32``): as in MLIR
    and C compilers, float arithmetic is reassociated only where the program
    allows it -- the results may differ in rounding (a stencil whose weights make
    its values grow 3x a step differs by far more than f32's epsilon after 10)."""
    for op in region.walk():
        if isinstance(op, _FLOAT_ARITH) and arith.FastMathFlag.REASSOC not in op.fastmath.data:
            return False
    return True


NOTHING_TO_OFFLOAD = "nothing to offload"


def extract_regions(module: ModuleOp) -> str | None:
    """A program of plain loops (affine/scf/linalg, no stream.region, tdfg.graph
    or pimcmd.program) goes through extract-streams, as infs-run and api.run take
    it (its ``DiagnosticException`` propagates; the caller verifies the result).
    Returns the remark when nothing is offloaded -- the host then runs all of it,
    as ``@infs.kernel`` does with the same code -- and None when some region is."""
    if any(isinstance(op, (stream.RegionOp, tdfg.GraphOp, pc.ProgramOp)) for op in module.walk()):
        return None
    from infs.passes.extract_remarks import location_text
    from infs.passes.extract_streams import extract_streams, has_plain_loops

    if not has_plain_loops(module):
        return f"{NOTHING_TO_OFFLOAD}: the program has no stream.region and no loop nest; the host runs all of it"
    remarks = extract_streams(module)
    if any(isinstance(op, stream.RegionOp) for op in module.walk()):
        return None
    left = [r for r in remarks if not r.extracted]
    why = left[0] if left else None
    more = f"; {len(left) - 1} more remark(s): infs-opt -p 'extract-streams{{remarks=true}}' FILE shows each" if len(left) > 1 else ""
    because = f" ({location_text(why.op)}: {why.text}{more})" if why else ""
    return f"{NOTHING_TO_OFFLOAD}: extract-streams turned none of its loop nests into a stream.region{because}; the host runs all of it"


def run_program(
    module: ModuleOp,
    args: Mapping[str, Any] | Sequence[Any],
    name: str | None = None,
    options: RunOptions | None = None,
    progress: Callable[[RegionRecord], None] | None = None,
) -> RunReport:
    """Run the host function ``name`` of ``module``; arrays are updated in place."""
    options, machine = start_run(options, args)
    cfg = machine.cfg
    if options.strict_offload and not any(isinstance(op, (stream.RegionOp, tdfg.GraphOp, pc.ProgramOp)) for op in module.walk()):
        raise EvaluationError(f"{NOTHING_TO_OFFLOAD}: the program has no stream.region, tdfg.graph or pimcmd.program (strict_offload)")
    runtime = RegionRuntime(options, machine, progress)
    t0 = time.perf_counter()
    # analysis runs carry no data: host allocations are shapes only
    with frozen_heap():  # collections skip the program's IR (infs.runtime.heap)
        results = host.run_function(module, args, name, executor=runtime, phantom_alloc=options.machine_mode == "analysis", graph_executor=runtime.run_graph,
                                    program_executor=runtime.run_compiled)  # fmt: skip
    return RunReport(results, machine, runtime.records, time.perf_counter() - t0, runtime.programs, runtime.decide_seconds, runtime.decide_used_seconds)
