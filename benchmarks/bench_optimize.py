"""optimize-tdfg benchmark: what the pass does to each workload, as the runtime runs it.

Per workload and size set, two runs of the runtime (``--mode in``, analysis mode, machine
``paper-64``, inputs warm, JIT cache cleared): with ``optimize-tdfg`` before the JIT (the
default) and without it (``infs-run --no-optimize``, the "Inf-S no e-graph" configuration).
Printed per workload: tDFG nodes before/after the pass (summed over the program's regions,
each region's graph counted once), simulated cycles without/with the pass, and the
optimizer's wall time per graph (median and max).  The rules are compiled once per process
before the runs (reported separately), so per-graph times are the pass's own.

Paper sizes are the ``infs-bench`` ones (``infs.tools.infs_bench.bench_sizes``: Table 3).

Run: ``.venv/bin/python benchmarks/bench_optimize.py [--size-set small|paper|both]
[--workloads a,b]``.  A workload slower with the pass than without is flagged ``SLOWER``
and makes the exit status 1 (the extraction cost would be wrong).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from dataclasses import replace

import numpy as np

from infs import api
from infs.passes import optimize_tdfg
from infs.runtime import jit
from infs.runtime.driver import RunOptions, run_program
from infs.tools.infs_bench import bench_sizes
from infs.workloads import WORKLOADS


def run(name: str, sizes: dict[str, int], optimize: bool):
    w = WORKLOADS[name]
    module = api.parse_file(w.path)
    options = RunOptions(config="paper-64", mode="in", machine_mode="analysis", optimize=optimize)
    jit.clear_cache()
    gc.collect()
    try:
        return run_program(module, w.call_args(w.make_inputs(sizes, np.random.default_rng(0)), sizes), w.entry, options)
    except Exception:  # noqa: BLE001 -- analysis mode cannot read a region result out of the arrays (as infs-bench)
        jit.clear_cache()
        return run_program(module, w.call_args(w.make_inputs(sizes, np.random.default_rng(0)), sizes), w.entry, replace(options, machine_mode="functional"))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size-set", choices=["small", "paper", "both"], default="both")
    p.add_argument("--workloads", help="comma-separated (default: all)")
    args = p.parse_args(argv)
    names = args.workloads.split(",") if args.workloads else sorted(WORKLOADS)
    sets = ["small", "paper"] if args.size_set == "both" else [args.size_set]

    t0 = time.perf_counter()
    optimize_tdfg._engine(True)  # the rules, compiled once per process
    print(f"rule compilation (once per process): {(time.perf_counter() - t0) * 1000:.0f} ms")
    times: list[float] = []
    slower: list[str] = []
    head = f"{'workload':18s} {'sizes':22s} {'graphs':>6s} {'nodes before':>12s} {'after':>6s} {'cycles without':>14s} {'with':>12s} {'speedup':>8s} {'opt ms med':>10s} {'max':>8s}"
    for size_set in sets:
        print(f"\n--size-set {size_set}, --mode in, paper-64")
        print(head)
        for name in names:
            sizes, _note = bench_sizes(WORKLOADS[name], size_set)
            off = run(name, sizes, False)
            on = run(name, sizes, True)
            first = [r for r in on.regions if r.tdfg_nodes_before]
            per_graph = [r.optimize_seconds for r in first]
            times += per_graph
            c0, c1 = off.stats.total_cycles, on.stats.total_cycles
            flag = "  SLOWER" if c1 > c0 else ""
            if c1 > c0:
                slower.append(f"{name} ({size_set})")
            med = f"{statistics.median(per_graph) * 1000:.1f}" if per_graph else "-"
            mx = f"{max(per_graph) * 1000:.1f}" if per_graph else "-"
            sz = " ".join(f"{k}={v}" for k, v in sizes.items())
            print(f"{name:18s} {sz:22s} {len(first):6d} {sum(r.tdfg_nodes_before for r in first):12d} {sum(r.tdfg_nodes_after for r in first):6d} "
                  f"{c0:14,d} {c1:12,d} {c0 / max(1, c1):7.3f}x {med:>10s} {mx:>8s}{flag}")  # fmt: skip
            sys.stdout.flush()
    if times:
        print(f"\noptimizer wall time per graph: median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms ({len(times)} graphs)")
    if slower:
        print("slower with the pass: " + ", ".join(slower))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
