"""The simulator's caches change no number: plans built once per
(program, machine) and shared with the runtime's probes, bounded LRUs, analysis
runs replayed from a record, memoized run-time costs, and the O(n) set helpers."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infs.dialects.lattice import Pattern
from infs.dialects.pimcmd_records_ir import from_op
from infs.runtime import jit
from infs.runtime.driver import RunOptions, run_program
from infs.sim import Machine
from infs.sim.sram import machine as machine_mod
from infs.sim.sram.machine import _semantics
from infs.sim.sram.geometry import pattern_set
from infs.unique_ints import unique_ints, unique_ints_inverse
from infs.workloads import WORKLOADS

from sim_helpers import parse_program, program_text

SETTINGS = settings(max_examples=60, deadline=None)
ints = st.lists(st.integers(-3000, 3000), max_size=200)


@SETTINGS
@given(ints, st.booleans(), st.sampled_from([np.int64, np.int32]))
def test_unique_ints_is_np_unique(xs, sort, dtype):
    a = np.array(sorted(xs) if sort else xs, dtype=dtype)
    u, inv = np.unique(a, return_inverse=True)
    got = unique_ints(a)
    assert got.dtype == u.dtype and np.array_equal(got, u)
    gu, ginv = unique_ints_inverse(a)
    assert gu.dtype == u.dtype and np.array_equal(gu, u) and np.array_equal(ginv, inv.reshape(-1))


def test_unique_ints_of_a_wide_range_sorts():
    a = np.array([10**12, 5, 10**12, -(10**11), 5], dtype=np.int64)  # too wide for a mask
    assert np.array_equal(unique_ints(a), np.unique(a))
    u, inv = unique_ints_inverse(a)
    assert np.array_equal(u, np.unique(a)) and np.array_equal(u[inv], a)


@SETTINGS
@given(st.integers(-50, 50), st.lists(st.tuples(st.integers(-40, 40), st.integers(0, 6)), max_size=4))
def test_pattern_set_is_the_sorted_unique_expansion(start, levels):
    p = Pattern(start, tuple(levels))
    got = pattern_set.__wrapped__(p)
    assert got.dtype == np.int64 and np.array_equal(got, np.unique(p.expand()))


# -- whole runs: analysis (planned once, replayed) == functional (run for real) ------------


def _run(name: str, mode: str, machine_mode: str, sizes=None, config="small-16"):
    from infs import api

    w = WORKLOADS[name]
    sizes = sizes or w.sizes("small")
    args = w.call_args(w.make_inputs(sizes, np.random.default_rng(0)), sizes)
    jit.clear_cache()
    return run_program(api.parse_file(w.path), args, w.entry, RunOptions(config=config, mode=mode, machine_mode=machine_mode))


# gauss_elim forced in memory: every step k is a new lowering and a forced run
# has no decision probe, so nothing replays; the others re-run a lowering
@pytest.mark.parametrize("name,mode,config,replays", [("gauss_elim", "in", "small-16", False), ("kmeans_inner", "in", "small-16", True),
                                                      ("mm_outer", "in", "small-16", True), ("kmeans_outer", "auto", "paper-64", True),
                                                      ("mm_outer", "auto", "paper-64", True)])  # fmt: skip
def test_analysis_runs_replay_and_charge_what_functional_runs_do(name, mode, config, replays):
    """Host loops re-run programs; analysis replays them (the probe's run, or a
    lowering run again from the same state) and must charge exactly what the
    functional machine, which replays nothing, charges."""
    a = _run(name, mode, "analysis", config=config)
    f = _run(name, mode, "functional", config=config)
    assert (a.machine.replayed > 0) == replays and f.machine.replayed == 0
    assert a.stats.to_dict() == f.stats.to_dict()
    assert [(r.mode, r.cycles, r.commands) for r in a.regions] == [(r.mode, r.cycles, r.commands) for r in f.regions]


def test_plans_are_built_once_for_the_decision_and_the_run(monkeypatch):
    """The runtime's analysis probe (``Machine(like=...)``) and the machine share
    their per-program plans: each command of a program is planned once."""
    built = []
    orig = Machine._plan

    def counting(self, c, geo):
        # a plan built, not one found in the shared cache (the decision's lower
        # bound runs a cut-down copy of a program: its commands' plans are found)
        before = len(self._shared_plans)
        plan = orig(self, c, geo)
        sem = _semantics(c.kind)
        if sem.plan is not None and (not sem.shared or len(self._shared_plans) > before):
            built.append(id(c))
        return plan

    monkeypatch.setattr(Machine, "_plan", counting)
    _run("kmeans_outer", "auto", "functional", config="paper-64")  # Eq. 2 probes, then runs, in memory
    assert built and len(built) == len(set(built))


# -- the machine's record of a run: keyed by what the run depends on ------------------------

BODY = """  pimcmd.array %a shape [8, 16] wordline 0 : memref<8x16xf32>
  pimcmd.array %b shape [8, 16] wordline 32 : memref<8x16xf32>
  pimcmd.transpose_in %a : memref<8x16xf32>
  pimcmd.transpose_in %b : memref<8x16xf32>
  pimcmd.compute add f32 dst 32 srcs [0, 32] bitlines 0:1:16 tiles 0:1:8
  pimcmd.shift f32 dst 64 src 32 dim 1 mask [0:4] inter 1 intra 0 bitlines 0:1:16 tiles 0:1:8
  pimcmd.sync
  pimcmd.release %a : memref<8x16xf32>
  pimcmd.release %b : memref<8x16xf32>"""


def _prog():
    return parse_program(program_text("tiny", (8, 16), (4, 4), BODY, [("a", "memref<8x16xf32>"), ("b", "memref<8x16xf32>")]))


def _sequence(m: Machine, prog, a, b):
    """Runs whose costs depend on where the arrays are: cold, transposed, aliased, back in the L3."""
    out = []
    for i, arrays in enumerate(((a, b), (a, b), (b, a), (a, a), (a, b), (a, b))):
        out.append(m.run(prog, list(arrays)).to_dict())
        if i == 2:
            m.mark_resident([a])  # a is back in its normal layout
    return out


def test_replayed_runs_follow_residency_and_aliasing():
    prog = _prog()
    a, b = (np.arange(128, dtype=np.float32).reshape(8, 16) for _ in range(2))
    m_a, m_f = Machine("tiny", mode="analysis"), Machine("tiny", mode="functional")
    fa, fb = a.copy(), b.copy()
    got, want = _sequence(m_a, prog, a, b), _sequence(m_f, prog, fa, fb)
    assert got == want and m_a.stats.to_dict() == m_f.stats.to_dict() and m_a.cycles == m_f.cycles
    assert len({str(x) for x in want}) > 2  # the residency really changed the costs
    # a probe (``like``) of the machine in the same state replays its record (the
    # runtime hands the machine records, read once: ``from_op``)
    rec = from_op(prog)
    m_a.run(rec, [a, b])
    probe = Machine("tiny", mode="analysis", like=m_a)
    probe.residency = dict(m_a.residency)
    before = m_a.replayed
    in_probe = probe.run(rec, [a, b]).to_dict()
    again = m_a.run(rec, [a, b]).to_dict()
    m_f.run(rec, [fa, fb])
    assert m_f.run(rec, [fa, fb]).to_dict() == again == in_probe
    assert m_a.replayed == before + 1 and probe.replayed == 1 and m_a.stats.to_dict() == m_f.stats.to_dict()


def test_plan_caches_are_bounded(monkeypatch):
    monkeypatch.setattr(machine_mod, "PROGRAM_PLANS", 3)
    monkeypatch.setattr(machine_mod, "REPLAYS", 2)
    m = Machine("tiny", mode="analysis")
    progs = [_prog() for _ in range(6)]
    a, b = (np.zeros((8, 16), np.float32) for _ in range(2))
    for p in progs:
        m.run(p, [a, b])
    assert len(m._plans) == 3 and len(m._replays) == 2
    m.forget()
    assert not m._plans and not m._replays and not m._shared_plans


def test_a_replay_knows_an_array_passed_twice():
    """Two cold arrays and one cold array passed twice start in the same places, but
    the second transfer of the aliased array finds it already transposed."""
    rec = from_op(_prog())
    m = Machine("tiny", mode="analysis")
    m.run(rec, [np.zeros((8, 16), np.float32), np.zeros((8, 16), np.float32)])
    c = np.zeros((8, 16), np.float32)
    probe = Machine("tiny", mode="analysis", like=m)
    got = probe.run(rec, [c, c]).to_dict()
    f = Machine("tiny", mode="functional")
    fc = c.copy()
    assert got == f.run(rec, [fc, fc]).to_dict()
