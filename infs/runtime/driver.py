"""The runtime: runs whole programs, each region where the runtime decides (ASPLOS §4, §5).

``run_program(module, args, options)`` interprets the host function (xDSL's
interpreter, numpy arrays as host memory).  At every ``stream.region`` it

1. compiles the region once (``tensorize``; a region whose iteration space has
   more dims than its arrays keeps its outer parallel dims as host loops);
2. decides where it runs (``decide``, §4.3 Eq. 2): in memory (tDFG -> JIT ->
   the simulated L3), near memory (NSC stream engines) or on the cores;
3. runs it: in memory through the memoized JIT (``infs.runtime.jit``) and the
   ``Machine`` (fused: embedded streams run on the stream engines; arrays left
   transposed carry over between regions, §5.2), charging the JIT's cycles
   (configurable cycles per command, gem5 used 10) on each lowering that was
   not memoized; near memory / on the cores with the reference semantics and
   the NSC / core cost models of ``infs.sim``.

The report (``RunReport``) has the machine's stats (Fig. 12-14 breakdowns),
one record per region invocation, and the JIT's measured wall time.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block

from infs.dialects import stream, tdfg
from infs.hardware import HardwareConfig, load_config
from infs.passes.choose_layout import LayoutError
from infs.passes.pim_program import LoweringError
from infs.passes.tensorize import NotTensorizable, peel_count, peel_region, tensorize_region
from infs.runtime import host, jit
from infs.runtime.reference import evaluate_region
from infs.runtime.region_profile import profile_region
from infs.runtime.scalar_ops import EvaluationError
from infs.sim import Machine
from infs.sim.core import core_cost
from infs.sim.near import near_memory_cost

MODES = ("auto", "in", "near", "core")


@dataclass(frozen=True)
class RunOptions:
    config: str | HardwareConfig = "paper-64"
    mode: str = "auto"  # auto | in | near | core
    tiles: tuple[int, ...] | None = None
    jit: bool = True  # False: the "Inf-S no JIT" configuration (lowering not charged)
    machine_mode: str = "functional"  # functional | analysis (timing only, no data)
    profile: str | None = None  # cost profile of the in-memory commands
    warm: bool = True  # inputs start in the L3 (initialized by the cores, as in the paper's runs); False: in DRAM


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


@dataclass
class RunReport:
    results: tuple[Any, ...]
    machine: Machine
    regions: list[RegionRecord] = field(default_factory=list)
    wall_seconds: float = 0.0

    @property
    def stats(self):
        return self.machine.stats

    def mode_counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.regions:
            out[r.mode] = out.get(r.mode, 0) + 1
        return out


@dataclass
class _Compiled:
    graph: tdfg.GraphOp | None
    peel: int  # outer dims run as host loops
    bounds: list  # affine ranges of the peeled dims
    reason: str | None  # why not tensorizable


class RegionRuntime:
    """The region executor plugged into the host interpreter."""

    def __init__(self, options: RunOptions, machine: Machine, progress: Callable[[RegionRecord], None] | None = None):
        self.options = options
        self.cfg = machine.cfg
        self.machine = machine
        self.compiled: dict[int, _Compiled] = {}
        self.ids: dict[int, int] = {}
        self.records: list[RegionRecord] = []
        self.progress = progress
        self._keep: list = []  # keeps compiled regions' helper blocks alive
        self._estimates: dict[int, int] = {}

    # -- compilation (once per region) --------------------------------------------
    def compile(self, region: stream.RegionOp) -> _Compiled:
        key = id(region)
        hit = self.compiled.get(key)
        if hit is not None:
            return hit
        self.ids[key] = len(self.ids)
        graph, reason = tensorize_region(region)
        comp = _Compiled(graph, 0, [], reason)
        if graph is None:
            k = peel_count(region)
            if k:
                ivs = Block(arg_types=[IndexType()] * k)
                try:
                    inner, _names, bounds = peel_region(region, ivs.args)
                    g2, r2 = tensorize_region(inner)
                    self._keep.append((ivs, inner))
                    comp = _Compiled(g2, k, bounds, r2 if g2 is None else None)
                except NotTensorizable as e:
                    comp = _Compiled(None, 0, [], str(e))
        self.compiled[key] = comp
        return comp

    # -- decision (§4.3) ----------------------------------------------------------------
    def decide(self, region, comp: _Compiled, arrays, scalars, profile) -> tuple[str, str, Any]:
        """(mode, reason, in-memory plan or None)."""
        mode = self.options.mode
        plan = None
        why_not = comp.reason
        if mode in ("auto", "in") and comp.graph is not None:
            try:
                plan = self.plan_in_memory(region, comp, arrays, scalars)
            except (LayoutError, LoweringError) as e:
                why_not = str(e).strip().splitlines()[0]
        if mode == "in":
            if plan is None:
                return "near", f"in-memory impossible ({why_not}); ran near memory", None
            return "in", "forced", plan
        if mode in ("near", "core"):
            return mode, "forced", None
        cold = self.cold(arrays)
        near = near_memory_cost(profile, self.cfg, cold=cold).cycles
        core = core_cost(profile, self.cfg, cold=cold).cycles
        if plan is not None:
            # Eq. 2: in memory when the alternative's time exceeds the commands'
            # latencies plus the JIT's cost for the nodes it must lower
            est_in = plan["estimate"]
            best_alt = min(near, core)
            if est_in < best_alt:
                return "in", f"Eq. 2: in-memory {est_in:,} < near/core {best_alt:,} cycles", plan
            alt = "near" if near <= core else "core"
            return alt, f"Eq. 2: {alt} {best_alt:,} <= in-memory {est_in:,} cycles", None
        alt = "near" if near <= core else "core"
        return alt, f"not in memory ({why_not}); {alt} is faster ({min(near, core):,} cycles)", None

    def plan_in_memory(self, region, comp: _Compiled, arrays, scalars) -> dict:
        """Lower every graph invocation (JIT, memoized) and estimate its time."""
        graph = comp.graph
        assert graph is not None
        env = {n: int(v) for n, v, s in zip(region.names, scalars, region.scalars) if isinstance(s.type, IndexType)}
        points = list(itertools.product(*[range(lo.evaluate(env), hi.evaluate(env)) for lo, hi in comp.bounds])) if comp.peel else [()]
        calls = []
        estimate = 0
        misses = 0
        jit_wall = 0.0
        shapes = {i: tuple(a.shape) for i, a in enumerate(arrays)}
        for point in points:
            gscalars = [*scalars, *point]
            sizes = {n: int(np.asarray(v).item()) for n, v, s in zip(graph.names, gscalars, graph.scalars) if isinstance(s.type, IndexType)}
            before = jit.cache_stats()["misses"]
            t0 = time.perf_counter()
            lowered = jit.lower(graph, sizes, self.cfg, self.options.tiles, shapes)
            jit_wall += time.perf_counter() - t0
            miss = jit.cache_stats()["misses"] > before
            misses += miss
            params = [np.asarray(gscalars[i]).item() for i in lowered.scalar_map]
            calls.append((lowered, params, miss))
            estimate += self.estimate_cycles(lowered, params, arrays) + (self.jit_cycles(lowered) if miss else 0)
        return {"calls": calls, "estimate": estimate, "misses": misses, "jit_wall": jit_wall}

    def estimate_cycles(self, lowered: jit.Lowered, params, arrays) -> int:
        """The program's latency, from an analysis-mode run (no data) on a probe
        that knows where the arrays are now (in the L3, transposed or in DRAM),
        cached per (program, residency of its arrays)."""
        state = tuple(self.machine.residency.get(id(a), (None, None))[1] if self.machine.is_resident(a) else None for a in arrays)
        key = (id(lowered.record), repr(state))
        if key not in self._estimates:
            probe = Machine(self.cfg, mode="analysis", profile=self.options.profile)
            probe.residency = dict(self.machine.residency)
            probe.run(lowered.record, {i: a for i, a in enumerate(arrays)}, scalars=params)
            self._estimates[key] = probe.cycles
        return self._estimates[key]

    def jit_cycles(self, lowered: jit.Lowered) -> int:
        return self.cfg.jit_cycles_per_command * lowered.commands if self.options.jit else 0

    # -- execution ------------------------------------------------------------------------
    def __call__(self, region: stream.RegionOp, arrays: list[np.ndarray], scalars: list[Any]) -> list[Any]:
        comp = self.compile(region)
        profile = profile_region(region, arrays, scalars)
        mode, reason, plan = self.decide(region, comp, arrays, scalars, profile)
        rec = RegionRecord(self.ids[id(region)], mode, reason, elements=profile.iterations)
        start = self.machine.cycles
        if mode == "in":
            results = self.run_in_memory(comp, plan, arrays, rec)
        else:
            results = self.run_near_or_core(region, mode, arrays, scalars, profile)
        rec.cycles = self.machine.cycles - start
        self.records.append(rec)
        if self.progress:
            self.progress(rec)
        return results

    def run_in_memory(self, comp: _Compiled, plan: dict, arrays, rec: RegionRecord) -> list[Any]:
        graph = comp.graph
        assert graph is not None
        results: list[Any] = []
        host_arrays = {i: a for i, a in enumerate(arrays)}
        for lowered, params, miss in plan["calls"]:
            if miss and self.options.jit:
                self.machine.charge("jit", self.jit_cycles(lowered))
            self.machine.run(lowered.record, host_arrays, scalars=params)
            rec.graphs += 1
            rec.commands += lowered.commands
            if self.options.machine_mode == "analysis":  # timing only: no values
                results = [np.zeros((), dtype=host.numpy_dtype(r.type))[()] for r in graph.res]
            else:
                results = [np.asarray(self.machine.results[i], dtype=host.numpy_dtype(r.type))[()] for i, r in enumerate(graph.res)]
        rec.jit_misses = plan["misses"]
        rec.jit_seconds = plan["jit_wall"]
        return results

    def cold(self, arrays) -> bool:
        """Some array of the region is not in the L3 yet (first touch: DRAM)."""
        return not all(self.machine.is_resident(a) for a in arrays)

    def run_near_or_core(self, region, mode: str, arrays, scalars, profile) -> list[Any]:
        cold = self.cold(arrays)
        cost = near_memory_cost(profile, self.cfg, cold=cold) if mode == "near" else core_cost(profile, self.cfg, cold=cold)
        self.machine.account(cost, f"region_{mode}")
        self.machine.mark_resident(arrays)
        if self.options.machine_mode == "analysis":
            return [np.zeros((), dtype=host.numpy_dtype(r.type))[()] for r in region.res]
        return evaluate_region(region, arrays, scalars)


def run_program(
    module: ModuleOp,
    args: Mapping[str, Any] | Sequence[Any],
    name: str | None = None,
    options: RunOptions | None = None,
    progress: Callable[[RegionRecord], None] | None = None,
) -> RunReport:
    """Run the host function ``name`` of ``module``; arrays are updated in place."""
    options = options or RunOptions()
    if options.mode not in MODES:
        raise EvaluationError(f"unknown mode '{options.mode}' (choose from {', '.join(MODES)})")
    cfg = options.config if isinstance(options.config, HardwareConfig) else load_config(options.config)
    machine = Machine(cfg, mode=options.machine_mode, profile=options.profile)
    if options.warm:
        machine.mark_resident(args.values() if isinstance(args, Mapping) else args)
    runtime = RegionRuntime(options, machine, progress)
    t0 = time.perf_counter()
    results = host.run_function(module, args, name, executor=runtime)
    return RunReport(results, machine, runtime.records, time.perf_counter() - t0)
