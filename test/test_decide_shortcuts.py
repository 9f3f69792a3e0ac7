"""The runtime decision's shortcuts (``RunOptions.shortcuts``) change no decision and no
statistic: near/core costs reused across region calls with equal profiles, and the
in-memory probe skipped when the lowering's compute commands alone already lose
(``RegionRuntime._compute_floor``, a true lower bound of the probe's estimate)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infs import api
from infs.runtime import driver, jit
from infs.runtime.driver import RunOptions, run_program
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


def test_the_floor_shortcut_fires_and_changes_nothing():
    # gauss_elim's region 0 (a division) at the small size: its divide command alone costs
    # more than the cores' peak time and the near-memory model's; the probe is skipped
    reasons = _same("gauss_elim", "small-16")
    assert any("its compute commands alone" in r for r in reasons)
    _same("gauss_elim", "paper-64", sizes={"n": 64}, machine_mode="analysis")


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
