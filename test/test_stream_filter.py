"""Filtered streams (``stream.store``/``stream.atomic`` ``if %m``, NSC §II-A / §III-B) end to end.

The plain-loop program ``examples/filter_update.mlir`` -- an ``if``/``else``
around affine stores and an indirect atomic, a filtered store of a pointer
chase's result, and a relaxation ``if (w < D[v]) D[v] = w`` -- through
extract-streams (one region) and the runtime near memory under every NSC
configuration, on the cores and in auto mode, on random machines, against a
plain numpy reference on random data and random predicates (thresholds,
lists with keys in and out of them, indices that are out of range exactly
where the filter fails); the reference evaluator's two entry points
against each other; the profile's filtered streams (the points that write)
and the near model's price falling with the filter's share; a filtered write out of bounds where its filter holds is one line.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infs import api
from infs.dialects.parse import parse_text
from infs.hardware import NEAR_CONFIGS
from infs.runtime.reference import evaluate_region
from infs.runtime.region_profile import profile_region
from infs.runtime.scalar_ops import EvaluationError
from infs.sim.config import load_config
from infs.sim.near.engine import near_memory_detail
from strategies import machine_fields, write_config

PROGRAM = "examples/filter_update.mlir"


@st.composite
def filter_inputs(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.integers(0, 40))
    h = draw(st.integers(1, 9))
    t = draw(st.integers(0, 12))  # x > t >= 0 keeps x % h in range; where it fails x may be negative
    a = rng.integers(-15, 16, n).astype(np.int32)
    slots = draw(st.integers(0, 12))
    val = rng.permutation(np.arange(-8, 24))[:slots].astype(np.int32)
    order = rng.permutation(slots)
    nxt = np.full(slots, -1, np.int32)
    nxt[order[:-1]] = order[1:]
    head = int(order[0]) if slots else -1
    cells = draw(st.integers(1, 10))
    v = rng.integers(0, cells, n).astype(np.int32)
    w = rng.integers(-20, 20, n).astype(np.int32)
    d = rng.integers(-20, 20, cells).astype(np.int32)
    return {"A": a, "B": np.full(n, 99, np.int32), "H": np.zeros(h, np.int32), "Val": val, "Next": nxt, "Found": np.full(n, -7, np.int32),
            "V": v, "W": w, "D": d, "T": np.array([t, head], np.int32), "n": n, "h": h}  # fmt: skip


def reference(x: dict) -> dict:
    """The loop's effects in numpy (not an interpretation of the program)."""
    a, t, head = x["A"], int(x["T"][0]), int(x["T"][1])
    big = a > t
    out = {"B": np.where(big, a, -a).astype(np.int32), "H": x["H"].copy(), "D": x["D"].copy(), "Found": x["Found"].copy()}
    np.add.at(out["H"], (a[big] % x["h"]).astype(np.int64), 1)
    np.minimum.at(out["D"], x["V"].astype(np.int64), x["W"])
    slot = {}
    p = head
    while p >= 0:  # the list's slot of each value (values are distinct)
        slot[int(x["Val"][p])] = p
        p = int(x["Next"][p])
    hit = np.array([int(k) in slot for k in a], bool)
    out["Found"][hit] = [slot[int(k)] for k in a[hit]]
    return out


def _copy(x: dict) -> dict:
    return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in x.items()}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(filter_inputs(), st.sampled_from(["near", "core", "auto"]), st.sampled_from(NEAR_CONFIGS), st.one_of(st.just(None), machine_fields()))
def test_filters_through_infs_under_every_near_config(x, mode, near_config, fields) -> None:
    """Random predicates and structures, every NSC configuration, random machines: the reference's effects."""
    f = dict(fields or {"base": "small-16"})
    f["near_config"] = near_config
    machine = write_config(f)
    want = reference(x)
    res = api.run(PROGRAM, _copy(x), config=str(machine.path), mode=mode)
    for k, v in want.items():
        np.testing.assert_array_equal(res.outputs[k], v, err_msg=k)
    assert len(res.regions) == (1 if x["n"] else len(res.regions))
    if x["n"]:
        assert [r.mode for r in res.regions] == ["core" if mode == "core" else "near"]


REGION = """
func.func @f(%A: memref<?xi32>, %B: memref<?xi32>, %H: memref<?xi32>, %n: index, %t: i32) {
  stream.region ins(%A, %B, %H : memref<?xi32>, memref<?xi32>, memref<?xi32>) syms(N = %n : index, t = %t : i32) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xi32>, %b: memref<?xi32>, %h: memref<?xi32>, %N: index, %T: i32):
    %x = stream.load %a[d0] : memref<?xi32> -> !stream.stream<i32>
    %m = stream.compute(%x, %T : !stream.stream<i32>, i32) -> !stream.stream<i1> {
    ^bb1(%v: i32, %u: i32):
      %c = arith.cmpi sgt, %v, %u : i32
      stream.yield %c : i1
    }
    stream.store %x -> %b[d0] if %m : !stream.stream<i32> -> memref<?xi32>
    stream.atomic add %x -> %h[%x] if %m : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}
"""


def _region():
    return next(op for op in parse_text(REGION).walk() if op.name == "stream.region")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 60), st.integers(-1, 30))
def test_reference_writes_where_the_filter_holds(seed, n, t) -> None:
    """Both entry points (views and grids) against numpy; an index out of range where the filter fails is no error."""
    rng = np.random.default_rng(seed)
    a = rng.integers(-40, 32, n).astype(np.int32)
    for views in (True, False):
        b, h = np.full(n, 5, np.int32), np.zeros(32, np.int32)
        evaluate_region(_region(), [a, b, h], [n, t], views=views)
        keep = a > t
        np.testing.assert_array_equal(b, np.where(keep, a, 5))
        want = np.zeros(32, np.int32)
        np.add.at(want, a[keep], a[keep])
        np.testing.assert_array_equal(h, want)


def test_a_filtered_write_out_of_bounds_where_it_holds_is_one_line() -> None:
    a = np.array([3, 40, -50], np.int32)
    with pytest.raises(EvaluationError) as e:
        evaluate_region(_region(), [a, np.zeros(3, np.int32), np.zeros(32, np.int32)], [3, 0])
    assert str(e.value) == "'stream.atomic' at line 12 accesses index 40 in dim 0 of an array of shape [32]", str(e.value)


def test_profile_counts_the_points_that_write_and_the_model_prices_them() -> None:
    n = 4096
    a = np.arange(n, dtype=np.int32) % 32
    cfg = load_config("small-16")
    costs = []
    for t, wrote in ((31, 0), (15, n // 2), (-1, n)):
        prof = profile_region(_region(), [a, np.zeros(n, np.int32), np.zeros(32, np.int32)], [n, t])
        store, atomic = (s for s in prof.streams if s.is_write)
        assert store.filtered == atomic.filtered == n
        assert store.accesses == atomic.accesses == wrote
        assert store.lines <= max(wrote, 0) and atomic.lines == wrote  # one request per indirect write
        c = near_memory_detail(prof, cfg)[0]
        costs.append((c.cycles + c.async_cycles, sum(c.traffic.values())))
    assert costs[0][0] <= costs[1][0] <= costs[2][0] and costs[0][1] < costs[1][1] < costs[2][1], costs


RELAX = """
func.func @relax(%V: memref<?xi32>, %W: memref<?xi32>, %D: memref<?xi32>, %n: index) {
  affine.for %i = 0 to %n {
    %v = affine.load %V[%i] : memref<?xi32>
    %w = affine.load %W[%i] : memref<?xi32>
    %vi = arith.index_cast %v : i32 to index
    %d = memref.load %D[%vi] : memref<?xi32>
    %better = arith.cmpi slt, %w, %d : i32
    scf.if %better {
      memref.store %w, %D[%vi] : memref<?xi32>
    }
  }
  func.return
}
"""


def test_a_relaxation_is_an_atomic_min_the_mrsw_lock_serves(tmp_path) -> None:
    """sssp's relaxation as a filter: an atomic min, most of whose updates change
    nothing, so the MRSW lock (§IV-C, §VII-D) locks a cell for few of them."""
    from infs.hardware import load_config as hw_config

    path = tmp_path / "relax.mlir"
    path.write_text(RELAX)
    n, cells = 1 << 14, 64
    rng = np.random.default_rng(1)
    x = {"V": rng.integers(0, cells, n).astype(np.int32), "W": rng.integers(0, 1000, n).astype(np.int32), "n": n}
    want = np.full(cells, 10**6, np.int32)
    np.minimum.at(want, x["V"].astype(np.int64), x["W"])
    cycles = {}
    for lock in ("mrsw", "exclusive"):
        res = api.run(str(path), {**x, "D": np.full(cells, 10**6, np.int32)}, config=hw_config("nsc-ooo8", near_lock=lock), mode="near")
        np.testing.assert_array_equal(res.outputs["D"], want)
        cycles[lock] = res.stats.total_cycles
    assert cycles["mrsw"] < cycles["exclusive"], cycles
