"""The benchmark suites' runner: every task in ``jobs`` processes.

Takes a task function, its argument tuples and a callback; gives each
task's row to the callback as it finishes (``run_pool``).  Shared by
``infs-bench`` (``infs_bench``) and its NSC suite (``bench_nsc``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def run_pool(task: Callable[..., dict], tasks: Sequence[tuple], jobs: int, done: Callable[[int, dict], Any]) -> None:
    """``done(i, task(*tasks[i]))`` for every task: in order in this process
    when ``jobs <= 1``, else in ``jobs`` worker processes as they finish."""
    if jobs <= 1:
        for i, t in enumerate(tasks):
            done(i, task(*t))
        return
    import concurrent.futures as cf
    import multiprocessing as mp

    # not "fork": a process that has run optimize-tdfg holds egglog's rayon thread
    # pool, which a forked child does not have (its first egglog call waits forever)
    with cf.ProcessPoolExecutor(max_workers=jobs, mp_context=mp.get_context("forkserver")) as ex:
        futs = {ex.submit(task, *t): i for i, t in enumerate(tasks)}
        for f in cf.as_completed(futs):
            done(futs[f], f.result())
