"""infs.runtime.heap: a run freezes the objects alive when it starts, and hands them back after."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import numpy as np
import pytest

from infs import api
from infs.runtime.driver import RunOptions, run_program
from infs.runtime.heap import frozen_heap

VEC_ADD = Path(__file__).resolve().parents[1] / "infs" / "workloads" / "vec_add.mlir"
DIV_BY_ZERO = """
func.func @f(%A: memref<?xi32>, %B: memref<?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.load %A[%i] : memref<?xi32>
    %b = memref.load %B[%i] : memref<?xi32>
    %q = arith.divsi %a, %b : i32
    memref.store %q, %A[%i] : memref<?xi32>
  }
  func.return
}
"""


class Cycle:
    def __init__(self):
        self.me = self


def _inputs(n=64):
    a = np.arange(n, dtype=np.float32)
    return [a, a + 1, np.zeros(n, np.float32), n]


def test_a_run_freezes_the_heap_and_unfreezes_it_after():
    seen = []
    run_program(api.parse_file(VEC_ADD), _inputs(), "vec_add", RunOptions(config="tiny", mode="in"),
                progress=lambda rec: seen.append(gc.get_freeze_count()))  # fmt: skip
    assert seen and all(c > 0 for c in seen)
    assert gc.get_freeze_count() == 0


def test_a_failing_run_unfreezes_too():
    with pytest.raises(api.InfsError, match="division by zero"):
        api.run(DIV_BY_ZERO, {"A": np.ones(8, np.int32), "B": np.zeros(8, np.int32), "n": 8}, config="tiny", mode="core")
    assert gc.get_freeze_count() == 0


def test_garbage_from_before_the_run_is_still_collected():
    """A cycle dropped before the run is frozen with the program, handed back
    after it, and freed by the next full collection: nothing leaks."""
    c = Cycle()
    dead = weakref.ref(c)
    del c
    api.run(VEC_ADD, dict(zip("ABCn", _inputs())), config="tiny", mode="in")
    gc.collect()
    assert dead() is None


def _frozen(obj) -> bool:
    """Tracked by the collector but in none of its generations: in the permanent one.
    (By identity: gc.get_freeze_count() also moves when another thread of the process,
    pytest-xdist's, frees frozen objects meanwhile.)"""
    return gc.is_tracked(obj) and not any(o is obj for o in gc.get_objects())


def test_a_caller_that_froze_objects_keeps_them_frozen():
    keep = Cycle()
    gc.freeze()
    try:
        assert _frozen(keep)
        with frozen_heap():
            Cycle()
        assert _frozen(keep)  # not unfrozen behind the caller's back
    finally:
        gc.unfreeze()
    assert not _frozen(keep)
    del keep
