"""The runtime's decision under Inf-S: how much of a run it takes, and how much of that the run uses.

    .venv/bin/python benchmarks/bench_decide.py [--workloads gauss_elim,mm_outer] [--size-set paper]
                                                [--config paper-64] [--runs 3] [--no-shortcuts]

Per workload, ``--runs`` times, each in this process with the JIT cache cleared
(as ``infs-bench`` runs it: ``run_program`` with ``mode="auto"`` in the
machine's analysis mode, the inputs in the L3): the run's wall and CPU seconds
and the decision's (``RunReport.decide_seconds``: every ``RegionRuntime.decide``
call), split into what the run then used (``decide_used_seconds``: the
lowerings and probes of the calls run in memory, the pricing of the mode a
near/core call runs in) and the decision's own (the rest: lowerings and probes
of calls sent elsewhere, the lower bounds, the alternative not chosen).  The
share printed is the decision's own seconds over the run's wall seconds.
Prints min / median / max per figure and the load average before and after;
everything printed is measured when the script runs.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from infs import api  # noqa: E402
from infs.runtime import jit  # noqa: E402
from infs.runtime.driver import RunOptions, run_program  # noqa: E402
from infs.workloads import WORKLOADS  # noqa: E402


def load() -> str:
    p = Path("/proc/loadavg")
    return p.read_text().split()[0] if p.exists() else "?"


def one_run(name: str, size_set: str, config: str, shortcuts: bool) -> dict[str, float]:
    w = WORKLOADS[name]
    sizes = w.sizes(size_set)
    module = api.parse_file(w.path)
    values = w.make_inputs(sizes, np.random.default_rng(0))
    jit.clear_cache()
    gc.collect()
    c0, t0 = time.process_time(), time.perf_counter()
    rep = run_program(module, w.call_args(values, sizes), w.entry, RunOptions(config=config, mode="auto", machine_mode="analysis", shortcuts=shortcuts))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"wall": wall, "cpu": cpu, "decide": rep.decide_seconds, "used": rep.decide_used_seconds,
            "own": rep.decide_seconds - rep.decide_used_seconds, "calls": len(rep.regions)}  # fmt: skip


def spread(xs: list[float]) -> str:
    return f"{min(xs):.2f} / {statistics.median(xs):.2f} / {max(xs):.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workloads", default="gauss_elim")
    ap.add_argument("--size-set", default="paper", choices=["small", "paper"])
    ap.add_argument("--config", default="paper-64")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-shortcuts", action="store_true", help="price and probe every call in full (RunOptions.shortcuts=False)")
    a = ap.parse_args()
    names = a.workloads.split(",")
    for n in names:
        if n not in WORKLOADS:
            raise SystemExit(f"bench_decide: unknown workload '{n}' (have: {', '.join(sorted(WORKLOADS))})")
    print(f"load average before: {load()}")
    for n in names:
        runs = [one_run(n, a.size_set, a.config, not a.no_shortcuts) for _ in range(a.runs)]
        col = {k: [r[k] for r in runs] for k in runs[0]}
        share = [r["own"] / r["wall"] for r in runs]
        print(f"{n} ({runs[0]['calls']:.0f} region calls), seconds min / median / max over {a.runs} runs: wall {spread(col['wall'])}, "
              f"CPU {spread(col['cpu'])}; decide {spread(col['decide'])}, of which the run used {spread(col['used'])}, "
              f"its own {spread(col['own'])}: {min(share):.0%} / {statistics.median(share):.0%} / {max(share):.0%} of the wall", flush=True)  # fmt: skip
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
