"""Claims, atomics returning ``changed`` and appends (``stream.claim``, ``stream.atomic min changed``, ``stream.count``) end to end.

``examples/claim_queue.mlir`` holds GAP bfs's claim of an unvisited vertex
with its queue append, and sssp's relaxation whose improvement guards a
test-and-set and an append; extract-streams makes each loop one region.  The
indices repeat (the graph kernels' rows do not, a general loop may), so the
claimers, the relaxations that lower their cell and the queue's order must be
the sequential loop's: checked against the plain loop run in Python, near
memory under every NSC configuration, on the cores and in auto mode.  Then
the profile (a claim's requests and its claimers; MRSW's locks taken by them)
and the error lines.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infs import api
from infs.dialects import stream
from infs.hardware import NEAR_CONFIGS
from infs.passes.extract_streams import extract_streams
from infs.runtime.region_profile import profile_region
from infs.sim.near.engine import modifying_fraction
from strategies import write_config

PROGRAM = "examples/claim_queue.mlir"


@st.composite
def claim_inputs(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(0, 40))
    cells = draw(st.integers(1, 8))
    v = rng.integers(0, cells, n).astype(np.int32)
    w = rng.integers(-5, 20, n).astype(np.int32)
    d = np.where(rng.random(cells) < 0.6, -1, rng.integers(0, 4, cells)).astype(np.int32)
    lvl = draw(st.integers(-2, 3))  # a negative level passes the claim's test: a cell is claimed again by each point
    t0, r0 = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    return {"V": v, "W": w, "D": d, "P": np.full(cells, -9, np.int32), "Q": np.full(n + 4, -9, np.int32),
            "Dist": rng.integers(-3, 25, cells).astype(np.int32), "In": (rng.random(cells) < 0.3).astype(np.int32),
            "R": np.full(n + 4, -9, np.int32), "T": np.array([t0, r0, lvl], np.int32), "n": n}  # fmt: skip


def loops(x: dict) -> dict:
    """The two loops, run as written (the oracle for sequential semantics)."""
    o = {k: v.copy() for k, v in x.items() if isinstance(v, np.ndarray)}
    t, r, lvl = int(o["T"][0]), int(o["T"][1]), int(o["T"][2])
    for v, w in zip(x["V"].tolist(), x["W"].tolist()):
        if o["D"][v] < 0:
            o["D"][v], o["P"][v], o["Q"][t] = lvl, w, v
            t += 1
    for v, w in zip(x["V"].tolist(), x["W"].tolist()):
        if w < o["Dist"][v]:
            o["Dist"][v] = w
            if o["In"][v] == 0:
                o["In"][v], o["R"][r] = 1, v
                r += 1
    o["T"][0], o["T"][1] = t, r
    return o


def _copy(x: dict) -> dict:
    return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in x.items()}


def test_each_loop_is_one_region_of_claims_and_slots() -> None:
    module = api.parse_file(PROGRAM)
    remarks = [str(r).removeprefix(f"{PROGRAM}:") for r in extract_streams(module)]
    assert remarks == [
        "18:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [reduction]",
        "35:3: remark: extract-streams: loop nest extracted into 1 stream.region: domain [0:n] iterators [reduction]",
    ]
    ops = [op.name for op in module.walk()]
    assert ops.count("stream.claim") == 2 and ops.count("stream.count") == 2 and "scf.if" not in ops
    (changed,) = [op for op in module.walk() if isinstance(op, stream.AtomicOp)]
    assert changed.kind.data == "min" and changed.changed is not None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(claim_inputs(), st.sampled_from(["near", "core", "auto"]), st.sampled_from(NEAR_CONFIGS))
def test_claims_and_appends_are_the_sequential_loops(x, mode, near_config) -> None:
    """Repeated cells, levels that pass the claim's own test, empty loops: the loops' effects exactly."""
    machine = write_config({"base": "small-16", "near_config": near_config})
    want = loops(x)
    res = api.run(PROGRAM, _copy(x), config=str(machine.path), mode=mode)
    for k in ("D", "P", "Q", "Dist", "In", "R", "T"):
        np.testing.assert_array_equal(res.outputs[k], want[k], err_msg=k)
    if x["n"]:
        assert [r.mode for r in res.regions] == ["core" if mode == "core" else "near"] * 2


def test_the_profile_counts_a_claims_requests_and_claimers() -> None:
    """One cell asked three times and claimed once; the relaxation lowers it twice of three: MRSW locks those."""
    module = api.parse_file(PROGRAM)
    extract_streams(module)
    bfs, sssp = [op for op in module.walk() if isinstance(op, stream.RegionOp)]
    v = np.array([0, 0, 1, 0], np.int32)
    w = np.array([5, 3, 7, 4], np.int32)
    d = np.array([-1, 2], np.int32)
    arrays = [v, w, d, np.zeros(2, np.int32), np.zeros(8, np.int32)]
    p = profile_region(bfs, arrays, [4, 0, 1])  # (n, t0, L)
    (claim,) = [s for s in p.streams if s.atomic == "claim"]
    assert (claim.accesses, claim.changes) == (4, 1)  # cell 0 claimed by its first point; cell 1 fails the test
    assert modifying_fraction(claim) == pytest.approx(0.25)
    dist = np.array([6, 2], np.int32)
    arrays = [v, w, dist, np.zeros(2, np.int32), np.zeros(8, np.int32)]
    p = profile_region(sssp, arrays, [4, 0])
    (relax,) = [s for s in p.streams if s.atomic == "min"]
    (mark,) = [s for s in p.streams if s.atomic == "claim"]
    assert (relax.accesses, relax.changes) == (4, 2)  # 5 < 6, 3 < 5, 7 > 2, 4 > 3
    assert (mark.accesses, mark.changes) == (2, 1)  # asked where the relaxation lowered its cell; claimed once


def test_a_slot_out_of_the_queue_is_one_line() -> None:
    x = {"V": np.array([0, 1, 2], np.int32), "W": np.zeros(3, np.int32), "D": np.full(3, -1, np.int32), "P": np.zeros(3, np.int32),
         "Q": np.zeros(2, np.int32), "Dist": np.zeros(3, np.int32), "In": np.zeros(3, np.int32), "R": np.zeros(3, np.int32),
         "T": np.array([0, 0, 1], np.int32), "n": 3}  # fmt: skip
    with pytest.raises(api.InfsError) as e:
        api.run(PROGRAM, x, config="small-16", mode="near")
    assert "accesses index 2 in dim 0 of an array of shape [2]" in str(e.value) and "\n" not in str(e.value)
