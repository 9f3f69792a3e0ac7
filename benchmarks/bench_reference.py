"""Near-memory / core functional values: the stream reference evaluator at scale.

Regions that run near memory or on the cores take their values from the
reference evaluator (``infs.runtime.reference``).  This runs whole
``infs-run`` processes on such regions and reports, per case, the process wall
time, the run's own wall time (``wall_seconds`` of ``--json``: the simulation,
values included, without start-up and input generation) and the peak RSS
(``/usr/bin/time -f %M``), min/median/max of ``--repeat`` runs, next to the
bytes of the program's arrays and the interpreter's baseline (the same command
at a tiny size).

    .venv/bin/python benchmarks/bench_reference.py                # all cases, 3 runs each
    .venv/bin/python benchmarks/bench_reference.py --cases vec_add_16M,conv3d_near --repeat 1
    .venv/bin/python benchmarks/bench_reference.py --tree ../old-infs     # another source tree (before/after)
    .venv/bin/python benchmarks/bench_reference.py --profile vec_add_16M  # top cProfile entries of one case
    .venv/bin/python benchmarks/bench_reference.py --evaluator     # evaluate_region alone, views vs grids

``--tree DIR`` puts DIR first on ``PYTHONPATH`` (a ``git archive`` of an older
commit), so the same cases measure the code before a change.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
PY = str(ROOT / ".venv" / "bin" / "python")
RUN = "import sys; from infs.tools.infs_run import main; sys.exit(main())"

M = 1 << 20
# name: (workload, sizes, mode, tiny sizes for the interpreter baseline)
CASES: dict[str, tuple[str, dict[str, int], str, dict[str, int]]] = {
    "vec_add_4M": ("vec_add", {"n": 4 * M}, "near", {"n": 1024}),
    "vec_add_16M": ("vec_add", {"n": 16 * M}, "near", {"n": 1024}),
    "vec_add_64M": ("vec_add", {"n": 64 * M}, "near", {"n": 1024}),
    "stencil2d_near": ("stencil2d", {"m": 2048, "n": 2048, "t": 10}, "near", {"m": 16, "n": 16, "t": 2}),
    "stencil2d_core": ("stencil2d", {"m": 2048, "n": 2048, "t": 10}, "core", {"m": 16, "n": 16, "t": 2}),
    "conv3d_near": ("conv3d", {"ci": 16, "co": 16, "h": 256, "w": 256}, "near", {"ci": 2, "co": 2, "h": 8, "w": 8}),
    "conv3d_core": ("conv3d", {"ci": 16, "co": 16, "h": 256, "w": 256}, "core", {"ci": 2, "co": 2, "h": 8, "w": 8}),
    "gauss_elim_near": ("gauss_elim", {"n": 512}, "near", {"n": 8}),
}


def env_for(tree: str | None) -> dict[str, str]:
    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = tree + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env["INFS_BENCH_CWD"] = tree  # `python -c` puts the working directory first on sys.path
    return env


def command(workload: str, sizes: dict[str, int], mode: str, tree: str | None = None) -> list[str]:
    path = Path(tree or ROOT) / "infs" / "workloads" / f"{workload}.mlir"  # the tree's own workloads (infs-run knows their inputs)
    return [PY, "-c", RUN, str(path), "--sizes", ",".join(f"{k}={v}" for k, v in sizes.items()), "--mode", mode, "--json"]


def run_once(cmd: list[str], env: dict[str, str]) -> dict[str, float]:
    """One process: wall seconds, the run's wall_seconds, peak RSS (bytes)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        proc = subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", tf.name, *cmd], capture_output=True, text=True, env=env, cwd=env.get("INFS_BENCH_CWD", ROOT))
        if proc.returncode:
            raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
        wall, rss_kb = tf.read().split()[-2:]
    out = json.loads(proc.stdout)
    return {"wall": float(wall), "run": float(out["wall_seconds"]), "rss": float(rss_kb) * 1024}


def array_bytes(workload: str, sizes: dict[str, int]) -> int:
    from infs.workloads import WORKLOADS

    w = WORKLOADS[workload]
    arrays = w.make_inputs(w.sizes(sizes), np.random.default_rng(0))
    return sum(a.nbytes for a in arrays.values())


def stats(xs: list[float]) -> tuple[float, float, float]:
    return min(xs), statistics.median(xs), max(xs)


def fmt3(xs: list[float], scale: float = 1.0, digits: int = 2) -> str:
    lo, med, hi = stats([x / scale for x in xs])
    return f"{lo:.{digits}f} / {med:.{digits}f} / {hi:.{digits}f}"


def profile(name: str, tree: str | None, top: int) -> None:
    workload, sizes, mode, _ = CASES[name]
    with tempfile.NamedTemporaryFile(suffix=".prof") as pf:
        cmd = command(workload, sizes, mode, tree)
        cmd = [PY, "-m", "cProfile", "-o", pf.name, str(ROOT / ".venv" / "bin" / "infs-run"), *cmd[3:]]
        env = env_for(tree)
        subprocess.run(cmd, check=True, capture_output=True, env=env, cwd=env.get("INFS_BENCH_CWD", ROOT))
        import pstats

        pstats.Stats(pf.name).sort_stats("tottime").print_stats(top)


def evaluator_scaling(sizes: list[int], repeat: int, grid_max: int) -> None:
    """The evaluator alone on vec_add's region, in this process, arrays touched
    beforehand (a fresh ``np.zeros`` output costs its page faults on first
    write, in any evaluator): the view path and the general grid path
    (``views=False``), wall time and tracemalloc peak (numpy's allocations)."""
    import time
    import tracemalloc

    from infs import api
    from infs.dialects import stream
    from infs.runtime.reference import evaluate_region

    module = api.parse_text((ROOT / "infs" / "workloads" / "vec_add.mlir").read_text())
    region = next(op for op in module.walk() if isinstance(op, stream.RegionOp))
    print("| elements | path | evaluate_region s (min / median / max) | peak allocated MiB | arrays MiB |")
    print("|---:|---|---:|---:|---:|")
    rng = np.random.default_rng(0)
    for n in sizes:
        A, B = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
        C = np.ones(n, np.float32)
        for views in (True, False):
            if not views and n > grid_max:
                continue
            times = []
            for _ in range(repeat):
                t = time.perf_counter()
                evaluate_region(region, [A, B, C], [n], views=views)
                times.append(time.perf_counter() - t)
            tracemalloc.start()
            evaluate_region(region, [A, B, C], [n], views=views)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            assert np.array_equal(C, A + B)
            print(f"| {n:,} | {'views' if views else 'grids'} | {fmt3(times, digits=3)} | {peak / M:.0f} | {3 * 4 * n / M:.0f} |", flush=True)
        del A, B, C


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", default=",".join(CASES), help=f"comma-separated, of: {', '.join(CASES)}")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tree", default=None, help="source tree to measure instead of this checkout (put first on PYTHONPATH)")
    ap.add_argument("--profile", default=None, metavar="CASE", help="print the top cProfile entries (by own time) of one run of CASE")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--json", default=None, metavar="FILE")
    ap.add_argument("--evaluator", action="store_true", help="time evaluate_region alone on vec_add at 4M/16M/64M, views vs grids")
    ap.add_argument("--grid-max", type=int, default=16 * M, help="largest size the grid path is timed at with --evaluator")
    args = ap.parse_args()
    if args.evaluator:
        evaluator_scaling([4 * M, 16 * M, 64 * M], args.repeat, args.grid_max)
        return
    if args.profile:
        profile(args.profile, args.tree, args.top)
        return
    env = env_for(args.tree)
    rows = []
    print("| case | mode | wall s (min / median / max) | run s | peak RSS MiB | baseline MiB | arrays MiB | (peak - baseline) / arrays |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for name in args.cases.split(","):
        workload, sizes, mode, tiny = CASES[name]
        base = run_once(command(workload, tiny, mode, args.tree), env)["rss"]
        runs = [run_once(command(workload, sizes, mode, args.tree), env) for _ in range(args.repeat)]
        arrays = array_bytes(workload, sizes)
        peak = statistics.median(r["rss"] for r in runs)
        row = {
            "case": name, "mode": mode, "sizes": sizes, "wall": [r["wall"] for r in runs], "run": [r["run"] for r in runs],
            "rss": [r["rss"] for r in runs], "baseline_rss": base, "array_bytes": arrays, "ratio": (peak - base) / arrays,
        }  # fmt: skip
        rows.append(row)
        print(
            f"| {name} | {mode} | {fmt3(row['wall'])} | {fmt3(row['run'])} | {fmt3(row['rss'], M, 0)} | {base / M:.0f} | {arrays / M:.0f} | {row['ratio']:.2f} |",
            flush=True,
        )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    sys.exit(main())
