"""Pointer-chasing streams (``stream.chase``, NSC Table II) end to end.

The reference evaluator (both its paths) against a plain Python walk of each
chain on random linked structures -- cycles and pointers past the arrays
included, which must be one error naming the op; the plain-loop list search
(``examples/list_search.mlir``) through extract-streams and the runtime, near
memory, on the cores and in auto mode, on small-16, tiny and random machines;
random search trees and hash tables (bin_tree, hash_join) on random machines;
the profile's step counts and the models' chase term; and infs-run's one
line for a cycle.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infs import api
from infs.dialects.parse import parse_text
from infs.runtime.reference import evaluate_region
from infs.runtime.region_profile import profile_region
from infs.runtime.scalar_ops import EvaluationError
from infs.sim.config import load_config
from infs.sim.core.baseline import core_detail
from infs.sim.near.engine import mesh_consts, near_memory_detail, threads_of
from infs.tools import infs_run
from infs.workloads import nsc
from strategies import machines

LIST_SEARCH = "examples/list_search.mlir"

# The region extract-streams makes of examples/list_search.mlir, written by hand:
# a list search per key, the chase's test on the node's value, its step the next slot.
REGION = """
func.func @f(%Val: memref<?xi32>, %Next: memref<?xi32>, %Keys: memref<?xi32>, %Out: memref<?xi32>, %n: index, %head: i32) {
  stream.region ins(%Val, %Next, %Keys, %Out : memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>) syms(N = %n : index, head = %head : i32) domain [0:N] iterators [parallel] {
  ^bb0(%val: memref<?xi32>, %next: memref<?xi32>, %keys: memref<?xi32>, %out: memref<?xi32>, %N: index, %h: i32):
    %k = stream.load %keys[d0] : memref<?xi32> -> !stream.stream<i32>
    %p = stream.chase(%h : i32) fields(%val, %next : memref<?xi32>, memref<?xi32>) with(%k : !stream.stream<i32>) -> !stream.stream<i32> {
    ^bb1(%q: i32, %v: i32, %nx: i32, %x: i32):
      %ne = arith.cmpi ne, %v, %x : i32
      stream.yield %ne, %nx : i1, i32
    }
    stream.store %p -> %out[d0] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}
"""


def _region():
    return next(op for op in parse_text(REGION).walk() if op.name == "stream.region")


def walk(val, nxt, head: int, key: int) -> tuple[str, int, int]:
    """One chain, step by step: ("ok", the slot found or -1, steps), or the
    failure and the step it happens at: ("out", pointer, step), ("cycle", slot, step)."""
    p, steps, seen = head, 0, set()
    while p >= 0:
        if p >= len(val):
            return "out", p, steps + 1
        if p in seen:
            return "cycle", p, len(val) + 1
        seen.add(p)
        steps += 1
        if val[p] == key:
            return "ok", p, steps
        p = int(nxt[p])
    return "ok", p, steps


@st.composite
def linked(draw, max_slots: int = 24, wild: bool = True):
    """Val, Next (wild: any values in [-1, slots + 2), cycles and strays included;
    else a forest of lists: each slot points to a higher one or ends), keys, a head."""
    n = draw(st.integers(1, max_slots))
    if wild:
        nxt = draw(st.lists(st.integers(-1, n + 1), min_size=n, max_size=n))
    else:
        nxt = [draw(st.integers(i + 1, n)) for i in range(n)]
        nxt = [x if x < n else -1 for x in nxt]
    val = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    q = draw(st.integers(0, 12))
    keys = draw(st.lists(st.integers(0, 7), min_size=q, max_size=q))
    head = draw(st.integers(-1, n - 1))
    return np.array(val, np.int32), np.array(nxt, np.int32), np.array(keys, np.int32), head


@settings(max_examples=150, deadline=None)
@given(st.booleans().flatmap(lambda wild: linked(wild=wild)), st.booleans())
def test_reference_against_a_walk_of_each_chain(structure, views) -> None:
    val, nxt, keys, head = structure
    walks = [walk(val, nxt, head, int(k)) for k in keys]
    out = np.full(keys.size, 99, np.int32)
    stats: dict = {}
    failed = [w for w in walks if w[0] != "ok"]
    run = lambda: evaluate_region(_region(), [val, nxt, keys, out], [keys.size, head], views=views, chase_stats=stats)  # noqa: E731
    if not failed:
        run()
        np.testing.assert_array_equal(out, [w[1] for w in walks])
        if walks:
            (steps, longest), = stats.values()
            assert steps == sum(w[2] for w in walks) and longest == max(w[2] for w in walks)
        return
    # the first step at which some chain fails decides; a stray pointer before a cycle at the same step
    first = min(failed, key=lambda w: (w[2], w[0] != "out"))
    with pytest.raises(EvaluationError) as e:
        run()
    msg = str(e.value)
    assert msg.startswith("'stream.chase'") and "\n" not in msg
    if first[0] == "out":
        assert f"reaches pointer {first[1]} at step {first[2]}, outside %Val of {val.size} elements" in msg, msg
    else:
        assert f"runs more steps than its fields have slots ({val.size}): it cycles" in msg, msg


def _list_inputs(structure):
    val, nxt, keys, head = structure
    return {"Val": val, "Next": nxt, "Keys": keys, "Out": np.zeros(keys.size, np.int32), "Head": np.array([head], np.int32), "n": keys.size}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(linked(wild=False), st.sampled_from(["near", "core", "auto"]), st.one_of(st.sampled_from(["small-16", "tiny"]), machines()))
def test_list_search_through_infs(structure, mode, machine) -> None:
    """The plain-loop program: extract-streams' chase, run where the mode says, gives the walk's slots."""
    val, nxt, keys, head = structure
    config = machine if isinstance(machine, str) else str(machine.path)
    res = api.run(LIST_SEARCH, _list_inputs(structure), config=config, mode=mode)
    np.testing.assert_array_equal(res.outputs["Out"], [walk(val, nxt, head, int(k))[1] for k in keys])
    if keys.size:
        (r,) = res.regions
        assert r.mode == ("core" if mode == "core" else "near")


def test_a_cycle_through_infs_is_one_line() -> None:
    val = np.zeros(4, np.int32) + 5
    nxt = np.array([1, 2, 3, 1], np.int32)  # 0 -> 1 -> 2 -> 3 -> 1 -> ...
    x = _list_inputs((val, nxt, np.array([7, 5], np.int32), 0))
    for mode in ("near", "core", "auto"):
        with pytest.raises(api.InfsError) as e:
            api.run(LIST_SEARCH, x, config="small-16", mode=mode)
        msg = str(e.value)
        assert "'stream.chase' at line 11: the chain of iteration [0] runs more steps than its fields have slots (4): it cycles" in msg, msg
        assert "\n" not in msg


def test_infs_run_a_stray_pointer_is_one_line(tmp_path, capsys) -> None:
    """infs-run with inputs from .npy files: a next slot past the list's arrays."""
    x = _list_inputs((np.array([1, 2, 3], np.int32), np.array([1, 9, -1], np.int32), np.array([3], np.int32), 0))
    args = []
    for k, v in x.items():
        if isinstance(v, np.ndarray):
            np.save(tmp_path / f"{k}.npy", v)
            args += ["--input", f"{k}={tmp_path / f'{k}.npy'}"]
    code = infs_run.main([LIST_SEARCH, "--sizes", "n=1", *args, "--config", "small-16", "--mode", "near"])
    err = capsys.readouterr().err.strip()
    assert code == 1
    assert err == f"infs-run: {LIST_SEARCH}: error: 'stream.chase' at line 11: the chain of iteration [0] reaches pointer 9 at step 3, outside %Val of 3 elements", err


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["bin_tree", "hash_join"]), st.integers(0, 10**6), machines(), st.sampled_from(["near", "core", "auto"]))
def test_random_trees_and_hash_tables_on_random_machines(name, seed, machine, mode) -> None:
    w = nsc.get(name)
    rng = np.random.default_rng(seed)
    sizes = {"n": int(rng.integers(0, 50)), "q": int(rng.integers(1, 30))} if name == "bin_tree" else \
        {"b": int(rng.integers(0, 50)), "p": int(rng.integers(1, 50)), "h": int(rng.integers(1, 16))}  # fmt: skip
    x = w.inputs(sizes, seed)
    args = {k: v for k, v in {**x, **sizes}.items() if k in w.args}
    res = api.run(w.path, args, config=str(machine.path), mode=mode)
    want = w.reference(x, sizes)
    for o in w.outputs:
        np.testing.assert_array_equal(res.outputs[o], want[o], err_msg=f"{name}: {o}")
    assert [r.mode for r in res.regions] == ["core" if mode == "core" else "near"]


def test_profile_counts_the_chains_steps_and_the_models_price_them() -> None:
    """The profile's field streams carry every chain's steps (the walks'); the
    near and core models' chase term is max(longest, steps / threads) x their step."""
    val = np.arange(32, dtype=np.int32)
    nxt = np.append(np.arange(1, 32), -1).astype(np.int32)  # one list 0 -> 1 -> ... -> 31
    keys = np.array([3, 17, 31, 40] * 16, np.int32)  # 40: not in the list, walks to its end
    args = [val, nxt, keys, np.zeros(keys.size, np.int32)]
    prof = profile_region(_region(), args, [keys.size, 0])
    steps = sum(walk(val, nxt, 0, int(k))[2] for k in keys)
    chase = [s for s in prof.streams if s.chase_depth]
    assert [s.name for s in chase] == ["Val", "Next"]
    assert all(s.accesses == s.lines == steps and s.chase_depth == 32 and s.indirect for s in chase)
    cfg = load_config("small-16")
    threads = threads_of(prof, cfg)
    mc = mesh_consts(cfg)
    _, near = near_memory_detail(prof, cfg)
    _, core = core_detail(prof, cfg)
    per_thread = max(32.0, steps / threads)
    assert near["chase"] == pytest.approx(per_thread * (cfg.l3_latency + mc.mean_hops * mc.mesh.hop_cycles))
    rtt = cfg.core_l2_cycles + cfg.l3_latency + 2 * mc.mean_hops * mc.mesh.hop_cycles
    assert core["chase"] == pytest.approx(per_thread * rtt)
    # longer chains cost more, in both models
    longer = [val, nxt, np.full(keys.size, 40, np.int32), np.zeros(keys.size, np.int32)]
    prof2 = profile_region(_region(), longer, [keys.size, 0])
    assert near_memory_detail(prof2, cfg)[0].cycles > near_memory_detail(prof, cfg)[0].cycles
    assert core_detail(prof2, cfg)[0].cycles > core_detail(prof, cfg)[0].cycles
    # no chase: no term
    assert "chase" not in near_memory_detail(profile_region(_region(), args, [0, 0]), cfg)[1]
