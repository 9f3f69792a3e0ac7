"""The runtime decision's shortcuts (``RunOptions.shortcuts``) change no decision and no
statistic: near/core costs reused across region calls with equal profiles, the cores not
priced when near memory beats their latency alone (``core_floor``), the JIT skipped when
the compute commands and transpositions every lowering of the graph emits already lose
(``RegionRuntime._graph_floor``), and the in-memory probe skipped when the lowering's
compute commands alone already lose (``RegionRuntime._compute_floor``): true lower
bounds of the probe's estimate and whole run, checked against every probe."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infs import api
from infs.runtime import driver, jit
from infs.runtime.driver import RunOptions, run_program
from infs.runtime.reference import region_label
from infs.workloads import WORKLOADS

from strategies import examples, machines

NAMES = sorted(WORKLOADS)
_MODULES: dict[str, object] = {}


def _module(name: str):
    if name not in _MODULES:
        _MODULES[name] = api.parse_file(WORKLOADS[name].path)
    return _MODULES[name]


def _run(name: str, config, shortcuts: bool, sizes=None, mode: str = "auto", machine_mode: str = "functional", policy: str = "eq2"):
    w = WORKLOADS[name]
    sizes = sizes or w.sizes("small")
    values = w.make_inputs(sizes, np.random.default_rng(0))
    jit.clear_cache()  # (each run lowers as a fresh process would)
    rep = run_program(_module(name), w.call_args(values, sizes), w.entry, RunOptions(config=config, mode=mode, machine_mode=machine_mode, shortcuts=shortcuts, policy=policy))
    return rep, values


def _same(name: str, config, sizes=None, mode: str = "auto", machine_mode: str = "functional", policy: str = "eq2") -> list[str]:
    """Run ``name`` with the shortcuts on and off; assert identical outputs, statistics and
    records (but the reason's words); the reasons of the run with them."""
    on, v_on = _run(name, config, True, sizes, mode, machine_mode, policy)
    off, v_off = _run(name, config, False, sizes, mode, machine_mode, policy)
    where = f"{name} on {getattr(config, 'name', config)}"
    for k in v_on:
        np.testing.assert_array_equal(v_on[k], v_off[k], err_msg=f"{where}: array {k}")
    for a, b in zip(on.results, off.results):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b), err_msg=f"{where}: a result")
    s, t = on.stats, off.stats
    assert (s.cycles, s.traffic, s.energy_pj, s.commands, s.element_ops) == (t.cycles, t.traffic, t.energy_pj, t.commands, t.element_ops), where
    assert s.noc_byte_hops == t.noc_byte_hops, where
    assert len(on.regions) == len(off.regions), where
    for r, q in zip(on.regions, off.regions):
        a, b = dict(vars(r)), dict(vars(q))
        for k in ("reason", "jit_seconds", "optimize_seconds"):  # (words, host wall times)
            a.pop(k), b.pop(k)
        assert a == b, where
    return [r.reason for r in on.regions]


@pytest.mark.parametrize("name", NAMES)
def test_every_workload_same_with_and_without_shortcuts(name):
    _same(name, "small-16")


# (the others run in many chunks on tiny: seconds each)
@pytest.mark.parametrize("name", ["gauss_elim", "mm_inner", "kmeans_inner", "gather_mlp_inner", "array_sum", "dwt2d"])
def test_on_the_tiny_machine_same_with_and_without_shortcuts(name):
    _same(name, "tiny")


# forced in memory and the lowerable policy never need the probe: it is not run
@pytest.mark.parametrize("name", ["gauss_elim", "mm_outer", "kmeans_inner", "array_sum"])
def test_forced_and_lowerable_runs_same_without_the_probe(name):
    _same(name, "small-16", mode="in")
    _same(name, "small-16", policy="lowerable")


def test_the_floor_shortcuts_fire_and_change_nothing():
    # before the JIT: gauss_elim's division (region 0) at n = 64 on paper-64, whose divide
    # alone costs more than the cores' peak time and the near-memory model, is not lowered;
    # after it: kmeans_inner on tiny, where the lowered program's compute commands (its
    # reduction's rounds) lose where the graph's cmp nodes alone do not
    reasons = _same("gauss_elim", "paper-64", sizes={"n": 64}, machine_mode="analysis")
    assert any("not lowered" in r for r in reasons)
    reasons = _same("kmeans_inner", "tiny")
    assert any("its compute commands alone" in r for r in reasons)


def test_a_host_loop_prices_an_unchanged_profile_once(monkeypatch):
    # stencil2d's time steps: every call of a region has the same profile, priced at most
    # once (not at all when Eq. 2 sends it in memory: the alternative is then not priced)
    calls = []
    real = driver.core_cost

    def counted(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(driver, "core_cost", counted)
    on, _ = _run("stencil2d", "small-16", True)
    priced_on, calls[:] = len(calls), []
    off, _ = _run("stencil2d", "small-16", False)
    assert len(on.regions) == len(calls) == len(off.regions) > 2 and priced_on <= len({r.region for r in on.regions})


def test_the_floor_is_a_lower_bound_of_every_probe(monkeypatch):
    """``_compute_floor`` never exceeds the probe's estimate, nor ``_cut_cycles`` its whole
    run (so the shortcut takes the decision the probe would take): every probe of every
    workload, forced in memory, on a small machine and on the paper's."""
    seen = []
    real = driver.RegionRuntime.estimate_cycles

    def checked(self, lowered, params, arrays, window=0):
        ops, whole = real(self, lowered, params, arrays, window)
        floor = self._compute_floor(lowered)
        assert floor <= ops <= whole, (floor, ops, whole)
        if not window:  # (a chunk's window may hide DRAM time the cut program pays)
            cut = self._cut_cycles(lowered, params, arrays)
            assert floor <= cut <= whole, (floor, cut, whole)
        seen.append(floor)
        return ops, whole

    monkeypatch.setattr(driver.RegionRuntime, "estimate_cycles", checked)
    for name in NAMES:
        _run(name, "small-16", False, mode="in", machine_mode="analysis")
    for name in ("gauss_elim", "stencil2d", "kmeans_outer"):
        _run(name, "paper-64", False, mode="in", machine_mode="analysis")
    assert len(seen) > len(NAMES) and any(seen)


@settings(max_examples=examples(4), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(machine=machines(), name=st.sampled_from(["gauss_elim", "mm_outer", "kmeans_outer", "dwt2d", "array_sum"]))
def test_random_machines_same_with_and_without_shortcuts(machine, name):
    _same(name, machine.cfg)


def test_the_graph_floor_bounds_every_lowering_and_probe(monkeypatch):
    """``_graph_floor``, read off the graph before the JIT, never exceeds the compute
    commands of the lowerings at the same call (``_compute_floor``), nor the probe's
    estimate, nor (its whole part) the probe's whole run -- chunked plans included, whose
    chunks each lower a graph of their own: every region call of every workload, in
    memory where it lowers and as Eq. 2 decides (the arrays' residency differing), on a
    small machine, the tiny one (chunks) and the paper's."""
    seen: list[tuple[int, int]] = []
    real_plan, real_chunked = driver.RegionRuntime.plan_in_memory, driver.RegionRuntime.plan_chunked

    def plan(self, region, comp, arrays, scalars, points=None, probe=True):
        floor = self._graph_floor(region, comp, arrays, scalars) if points is None else None
        out = real_plan(self, region, comp, arrays, scalars, points, probe)
        if floor is not None:
            lowered = sum(self._compute_floor(low) for low, *_ in out["calls"])
            assert floor[0] <= lowered, (region_label(region), floor, lowered)
            if probe:
                assert floor[0] <= out["estimate"] and floor[1] <= out["full"], (region_label(region), floor, out["estimate"], out["full"])
            seen.append(floor)
        return out

    def chunked(self, region, arrays, scalars):
        floor = self._graph_floor(region, self.compiled[id(region)], arrays, scalars)
        out, why = real_chunked(self, region, arrays, scalars)
        if out is not None and not out.get("empty"):
            assert floor[0] <= out["estimate"] and floor[1] <= out["full"], (region_label(region), floor, out["estimate"], out["full"])
            seen.append(floor)
        return out, why

    monkeypatch.setattr(driver.RegionRuntime, "plan_in_memory", plan)
    monkeypatch.setattr(driver.RegionRuntime, "plan_chunked", chunked)
    for name in NAMES:
        for mode in ("in", "auto"):
            _run(name, "small-16", False, mode=mode, machine_mode="analysis")
    for name in ("gauss_elim", "mm_inner", "kmeans_inner", "array_sum", "dwt2d"):
        _run(name, "tiny", False, machine_mode="analysis")
    for name in ("gauss_elim", "stencil2d", "kmeans_outer"):
        _run(name, "paper-64", False, mode="in", machine_mode="analysis")
    assert len(seen) > len(NAMES) and any(c for c, _ in seen) and any(w > c for c, w in seen)


def test_the_graph_floor_skips_the_jit(monkeypatch):
    # gauss_elim's division (region 0) at n = 64 on paper-64: the divide, multiply and subtract
    # every lowering emits already lose Eq. 2 and the near-memory model: never lowered, and
    # the same run as lowering and pricing every call (``_same``)
    lowered = []
    real = jit.lower

    def counted(graph, *a, **k):
        lowered.append(graph)
        return real(graph, *a, **k)

    monkeypatch.setattr(jit, "lower", counted)
    sizes = {"n": 64}
    on, _ = _run("gauss_elim", "paper-64", True, sizes, machine_mode="analysis")
    with_shortcuts, lowered[:] = len(lowered), []
    off, _ = _run("gauss_elim", "paper-64", False, sizes, machine_mode="analysis")
    skipped = [r for r in on.regions if "not lowered" in r.reason]
    assert len(lowered) == len(off.regions) and {r.region for r in skipped} >= {0}, (len(lowered), len(off.regions))
    assert with_shortcuts == len(on.regions) - len(skipped) < len(lowered)
    _same("gauss_elim", "paper-64", sizes=sizes, machine_mode="analysis")


def test_the_core_floor_bounds_every_core_cost(monkeypatch):
    """``core_floor`` (the cores' latency term, which lets the decision skip pricing the
    cores when near memory beats it) is at most ``core_cost`` of every profile priced."""
    seen = []
    real = driver.core_cost

    def checked(profile, cfg, cold=False):
        cost = real(profile, cfg, cold=cold)
        assert driver.core_floor(profile, cfg) <= cost.cycles, (driver.core_floor(profile, cfg), cost.cycles)
        seen.append(cost.cycles)
        return cost

    monkeypatch.setattr(driver, "core_cost", checked)
    for name in NAMES:
        _run(name, "small-16", False, machine_mode="analysis")
    _run("gauss_elim", "tiny", False, machine_mode="analysis")
    assert len(seen) > len(NAMES)


@pytest.mark.parametrize("mode", ["auto", "in", "core"])
def test_the_decision_time_and_what_the_run_used_of_it(mode):
    rep, _ = _run("gauss_elim", "small-16", True, mode=mode, machine_mode="analysis")
    assert 0.0 <= rep.decide_used_seconds <= rep.decide_seconds <= rep.wall_seconds
    if mode == "core":  # forced: nothing decided, nothing priced before the run
        assert rep.decide_used_seconds == 0.0
    if mode == "in":  # every call's lowering is the run's
        assert rep.decide_used_seconds > 0.0


def test_a_graph_lowered_after_skipped_calls_sees_the_same_jit(monkeypatch):
    """A call the graph floor sends elsewhere is not lowered then; a later lowering of the
    graph first runs those (``InMemoryRuntime.defer_lowerings``), so that the JIT's memo and
    the graph's last layout, which ``jit.lower`` reads, are those of a run lowering every
    call: per graph, the lowerings of the run with the shortcuts are the first ones of the
    run without them, with the same sizes, shapes and held layouts, in the same order."""
    calls: list[tuple] = []
    real = jit.lower

    def recorded(graph, sizes, config, tiles=None, shapes=None, resident=None):
        facts = jit.graph_facts(graph)  # (a graph named as its errors name it: the same in both runs)
        calls.append(((facts.graph.label, facts.nodes, tuple(sorted(facts.symbols))), tuple(sorted(sizes.items())), tuple(sorted((shapes or {}).items())), tuple(sorted((resident or {}).items()))))
        return real(graph, sizes, config, tiles, shapes, resident)

    monkeypatch.setattr(jit, "lower", recorded)
    checked = 0
    for name, config, sizes in [*((n, "small-16", None) for n in NAMES), ("gauss_elim", "tiny", None), ("gauss_elim", "paper-64", {"n": 64})]:
        per: list[dict] = []
        for shortcuts in (True, False):
            calls.clear()
            _run(name, config, shortcuts, sizes, machine_mode="analysis")
            graphs: dict = {}
            for g, *rest in calls:
                graphs.setdefault(g, []).append(tuple(rest))
            per.append(graphs)
        on, off = per
        for g, seq in on.items():
            assert seq == off[g][: len(seq)], f"{name} on {config}: graph {g}"
            checked += len(seq)
    assert checked > 0
