"""The paper-size suite in analysis mode, three modes, timed.

    .venv/bin/python benchmarks/bench_suite.py [--repeat 3] [--jobs 2] [--functional]
                                               [--configs base,near,in]
                                               [--workloads a,b] [--keep DIR]
                                               [--diff BASELINE.csv]
                                               [--profile WORKLOAD:CONFIG] [--top N]

Runs ``infs-bench --configs base,near,in --tiles-study none --jobs 2`` (every
workload at its paper size, ASPLOS Table 3, plus the Fig. 2 vec_add sizes;
timing only, or with ``--functional`` the data too) ``--repeat`` times, each
in a fresh process, and prints the wall time of the whole command (process
start, parsing, inputs, every run, the plots) as min / median / max, then each
workload's run time (the CSV's ``wall_s`` summed over the configurations)
likewise.  A run that failed (a row with an error) is listed, and the script
exits 1: the goal counts every workload.

``--diff BASELINE.csv`` compares the last repetition's ``bench.csv`` with an
earlier one, every column but the wall times (cycles, traffic, commands,
energy, ...): a speed-up must change no number.  ``--profile
WORKLOAD:CONFIG`` instead runs that one benchmark under cProfile in this
process and prints the top ``--top`` entries by cumulative and by own time.

Everything printed is measured on this machine when the script runs.
"""

from __future__ import annotations

import argparse
import cProfile
import csv
import io
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / ".venv" / "bin" / "infs-bench"
# columns that are host time, not results of the simulation
WALL_COLUMNS = {"wall_s", "jit_lowering_ms", "jit_wall_s", "optimize_wall_s"}


def run_suite(configs: str, jobs: int, workloads: str | None, out: Path, functional: bool = False) -> float:
    cmd = [str(BENCH), "--configs", configs, "--tiles-study", "none", "--jobs", str(jobs), "--out", str(out), "--quiet"]
    if functional:
        cmd.append("--functional")
    if workloads:
        cmd += ["--workloads", workloads]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def rows_of(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def diff(base: Path, new: Path) -> int:
    """Print every differing cell (wall times aside); the number of differences."""
    key = lambda r: (r["workload"], r["config"], r.get("sizes", ""), r.get("tiles", ""))  # noqa: E731
    a, b = {key(r): r for r in rows_of(base)}, {key(r): r for r in rows_of(new)}
    n = 0
    for k in sorted(set(a) | set(b)):
        if k not in a or k not in b:
            print(f"  {' '.join(k)}: only in {'the baseline' if k in a else 'the new run'}")
            n += 1
            continue
        for col in sorted((set(a[k]) | set(b[k])) - WALL_COLUMNS):
            if a[k].get(col, "") != b[k].get(col, ""):
                print(f"  {' '.join(k)} {col}: {a[k].get(col)!r} -> {b[k].get(col)!r}")
                n += 1
    print(f"diff vs {base}: {len(b)} rows, {n} differing cells (every column but {', '.join(sorted(WALL_COLUMNS))})")
    return n


def mmm(xs: list[float]) -> str:
    return f"{min(xs):7.1f} {statistics.median(xs):7.1f} {max(xs):7.1f}"


def profile(spec: str, top: int) -> None:
    """One benchmark under cProfile, as infs-bench runs it (``run_one``)."""
    from infs.tools import infs_bench
    from infs.workloads import WORKLOADS

    name, config = spec.split(":")
    w = WORKLOADS[name]
    sizes, note = infs_bench.bench_sizes(w, "paper")
    infs_bench._task(name, sizes, note, config, False)  # warm-up: imports, parsing, optimize-tdfg's engine
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    row = infs_bench._task(name, sizes, note, config, False)
    prof.disable()
    print(f"{name} {config}: {row.get('total_cycles')} cycles, {time.perf_counter() - t0:.2f} s under cProfile")
    for order in ("cumulative", "tottime"):
        s = io.StringIO()
        pstats.Stats(prof, stream=s).strip_dirs().sort_stats(order).print_stats(top)
        print(s.getvalue())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--configs", default="base,near,in")
    ap.add_argument("--workloads", default=None, help="comma-separated (default: all)")
    ap.add_argument("--functional", action="store_true", help="compute the data too (infs-bench --functional)")
    ap.add_argument("--keep", default=None, help="directory for each repetition's bench.csv (default: a temporary one)")
    ap.add_argument("--diff", default=None, help="a baseline bench.csv to compare the last repetition's with")
    ap.add_argument("--profile", default=None, help="WORKLOAD:CONFIG: cProfile one benchmark instead")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args(argv)
    if args.profile:
        profile(args.profile, args.top)
        return 0
    tmp = tempfile.TemporaryDirectory(prefix="bench_suite_") if args.keep is None else None
    root = Path(args.keep or tmp.name)  # type: ignore[union-attr]
    totals: list[float] = []
    per: dict[str, list[float]] = {}
    per_config: dict[str, list[float]] = {}
    last = None
    failed: list[str] = []
    for i in range(args.repeat):
        out = root / f"run{i + 1}"
        wall = run_suite(args.configs, args.jobs, args.workloads, out, args.functional)
        totals.append(wall)
        rows = rows_of(out / "bench.csv")
        for r in rows:  # a run that failed is not a figure: every workload must be included
            if r.get("error"):
                failed.append(f"run {i + 1}: {r['workload']} {r['config']}: {r['error']}")
        sums: dict[str, float] = {}
        csums: dict[str, float] = {}
        for r in rows:
            sums[r["workload"]] = sums.get(r["workload"], 0.0) + float(r.get("wall_s") or 0.0)
            csums[r["config"]] = csums.get(r["config"], 0.0) + float(r.get("wall_s") or 0.0)
        for k, v in sums.items():
            per.setdefault(k, []).append(v)
        for k, v in csums.items():
            per_config.setdefault(k, []).append(v)
        print(f"run {i + 1}: {wall:.1f} s wall, {len(rows)} benchmarks, runs {sum(sums.values()):.1f} s", flush=True)
        last = out / "bench.csv"
    print(f"\npaper-size suite, {'functional' if args.functional else 'analysis'}, configs {args.configs}, --jobs {args.jobs}, {args.repeat} runs")
    print(f"{'':28} {'min':>7} {'median':>7} {'max':>7}  (s)")
    print(f"{'whole command (wall)':28} {mmm(totals)}")
    for c, xs in per_config.items():
        print(f"{'  runs of ' + c:28} {mmm(xs)}")
    for w, xs in sorted(per.items(), key=lambda kv: -statistics.median(kv[1])):
        print(f"{'  ' + w:28} {mmm(xs)}")
    for line in failed:
        print(f"FAILED {line}")
    bad = diff(Path(args.diff), last) if args.diff and last is not None else 0
    return 1 if bad or failed else 0


if __name__ == "__main__":
    sys.exit(main())
