"""Whole processes, start to exit: infs against PIMeval's vec-add.

    .venv/bin/python benchmarks/bench_process.py [--runs N] [--warmup N] [--pimeval PATH]
                                                 [--pimeval-repo GITDIR] [--tree DIR]
                                                 [--baseline DIR] [--json FILE]

Times, N times each (default 3), as separate processes started from here:

* ``python -c "import infs.api"`` -- the scripting API's start-up;
* ``infs-run infs/workloads/vec_add.mlir --sizes n=4194304 --mode in`` -- a
  functional run over all 4,194,304 bitlines of paper-64 (inputs generated,
  parsed, tensorized, optimized, JIT-lowered, simulated, report printed);
* the same with ``--analysis`` (timing only, no data);
* the tools' start-up: ``infs-run --help``, ``infs-run --version``,
  ``infs-opt --help`` and ``infs-bench --help``, each as its console script
  runs it (``from infs.tools.X import main; main()``);
* three floors, no infs code: ``python -c pass``; a Python process that
  imports numpy, makes vec_add's two 4M f32 inputs as ``infs.workloads`` does
  and adds them (``NUMPY_FLOOR``: what any Python run of vec_add must at least
  do); and the imports xDSL needs to parse vec_add.mlir (``XDSL_IMPORTS``);
* PIMeval-PIMbench's ``vec-add.out -l 4194304`` with
  ``PIMEVAL_SIM_TARGET=PIM_DEVICE_BITSIMD_V`` (its bit-serial vertical device),
  when ``--pimeval`` names its binary (or the PIMeval-PIMbench directory it was
  built in); without it that row is skipped with a note.  PIMeval is never part
  of this repository: clone and build it elsewhere (``benchmarks/README.md``,
  "Whole process vs PIMeval"); ``--pimeval-repo`` names the git directory it was
  built from, whose commit is then printed with the figures.

The runs of the cases are interleaved (run 1 of every case, then run 2, ...) so
that all of them see the same load, after ``--warmup`` unmeasured runs of each
(default 1: it also writes Python's bytecode cache, which the children may
write even where ``PYTHONDONTWRITEBYTECODE`` is set, as a user's runs have it).  Per case: wall time min / median / max, the
child's CPU time (user + sys, less sensitive to a shared machine's load than
wall time) and its peak RSS (``getrusage`` of the child).  Then the start-up
goals, with their verdicts on the medians: the infs-run functional row no
slower than PIMeval's, ``import infs.api`` under 0.3 s, and ``infs-run --help``
under 0.15 s.

``--tree DIR`` measures another source tree (e.g. a ``git worktree`` of an older
commit) with this venv: DIR goes first on ``PYTHONPATH``; ``--baseline DIR`` adds
the three infs rows of a second tree, interleaved with the others (before/after
under the same load).

Everything printed is measured on this machine when the script runs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
N = 4_194_304
IMPORT_GOAL_S = 0.3
HELP_GOAL_S = 0.15  # infs-run --help: an empty interpreter and argparse, nothing of xDSL or numpy
VEC_ADD_BIN = Path("PIMbench/vec-add/PIM/vec-add.out")


def _pimeval_binary(path: str | None) -> tuple[Path | None, str]:
    """(binary, note): the binary, or None and why the row is skipped."""
    if not path:
        return None, "PIMeval row skipped: no --pimeval PATH given (see benchmarks/README.md, 'Whole process vs PIMeval')"
    p = Path(path)
    if p.is_dir():
        p = p / VEC_ADD_BIN
    if not p.is_file() or not os.access(p, os.X_OK):
        return None, f"PIMeval row skipped: no executable vec-add binary at '{p}'"
    return p, ""


def _git_commit(gitdir: str | None) -> str | None:
    if not gitdir:
        return None
    try:
        out = subprocess.run(["git", "--git-dir" if Path(gitdir, "HEAD").is_file() else "-C", gitdir, "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        return f"unknown ({e})"
    return out.stdout.strip()


# The least any Python process must do to produce vec_add's result the way infs-run
# does (not infs): start the interpreter, import numpy, make the two 4M f32 inputs
# as ``infs.workloads``' vec_add does (uniform in [-1, 1) from default_rng(0)), add
# them into a third array.  No simulation, no IR.  A lower bound for infs-run.
NUMPY_FLOOR = (
    "import numpy as np\n"
    f"n = {N}\n"
    "rng = np.random.default_rng(0)\n"
    "a = (rng.random(n, dtype=np.float32) * np.float32(2) + np.float32(-1)).astype(np.float32)\n"
    "b = (rng.random(n, dtype=np.float32) * np.float32(2) + np.float32(-1)).astype(np.float32)\n"
    "c = np.zeros(n, np.float32)\n"
    "np.add(a, b, out=c)\n"
)
# What parsing an MLIR file with xDSL needs loaded (the parser and the dialects of
# vec_add.mlir's host code), on top of the floor above: infs parses with xDSL.
XDSL_IMPORTS = "import numpy, xdsl.parser, xdsl.dialects.builtin, xdsl.dialects.arith, xdsl.dialects.func, xdsl.dialects.scf"


def floor_cases() -> list[dict]:
    """Lower bounds measured beside the rows: what any Python process, and any
    Python process that parses with xDSL, costs before doing infs's work."""
    py = sys.executable
    return [
        {"name": "floor: python -c pass", "argv": [py, "-c", "pass"], "floor": True},
        {"name": "floor: python + numpy, vec_add's inputs, one np.add (no infs)", "argv": [py, "-c", NUMPY_FLOOR], "floor": True},
        {"name": "floor: python + numpy + xDSL's parser and vec_add's dialects (no infs)", "argv": [py, "-c", XDSL_IMPORTS], "floor": True},
    ]


def _script(tool: str) -> list[str]:
    """What the console script of ``infs.tools.<tool>`` runs (the tree's, through PYTHONPATH)."""
    return [sys.executable, "-c", f"import sys; from infs.tools.{tool} import main; sys.exit(main())"]


HELP_ROW = "infs-run --help"


def infs_cases(tree: Path, label: str = "") -> list[dict]:
    py = sys.executable
    wl = str(tree / "infs/workloads/vec_add.mlir")
    run = [py, "-m", "infs.tools.infs_run", wl, "--sizes", f"n={N}", "--mode", "in"]
    return [
        {"name": "python -c 'import infs.api'" + label, "argv": [py, "-c", "import infs.api"], "tree": tree},
        {"name": "infs-run vec_add n=4194304 --mode in (functional)" + label, "argv": run, "tree": tree},
        {"name": "infs-run vec_add n=4194304 --mode in --analysis" + label, "argv": run + ["--analysis"], "tree": tree},
        {"name": HELP_ROW + label, "argv": _script("infs_run") + ["--help"], "tree": tree},
        {"name": "infs-run --version" + label, "argv": _script("infs_run") + ["--version"], "tree": tree},
        {"name": "infs-opt --help" + label, "argv": _script("infs_opt") + ["--help"], "tree": tree},
        {"name": "infs-bench --help" + label, "argv": _script("infs_bench") + ["--help"], "tree": tree},
    ]


def cases(tree: Path, pimeval: Path | None, baseline: Path | None = None) -> list[dict]:
    out = infs_cases(tree)
    if baseline is not None:
        out += infs_cases(baseline, f" [baseline {_head(baseline)}]")
    out += floor_cases()
    if pimeval is not None:
        out.append({"name": "PIMeval vec-add -l 4194304 (BITSIMD_V)", "argv": [str(pimeval), "-l", str(N)], "cwd": str(pimeval.parent), "env": {"PIMEVAL_SIM_TARGET": "PIM_DEVICE_BITSIMD_V"}})
    return out


def _head(tree: Path) -> str:
    return subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip() or "?"


def run_once(case: dict, default_tree: Path) -> dict:
    tree = case.get("tree", default_tree)
    env = dict(os.environ)
    env.update(case.get("env", {}))
    env["PYTHONPATH"] = str(tree) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["COLUMNS"] = "80"  # rich's tables the same width in every run
    # as a user runs it: with Python's bytecode cache (written by the warm-up run), not
    # compiling every module of infs in every process
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    t0 = time.perf_counter()
    proc = subprocess.Popen(case["argv"], cwd=case.get("cwd", str(tree)), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    proc.stderr.close()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"bench_process: '{case['name']}' exited {proc.returncode}: {err.strip().splitlines()[-1] if err.strip() else ''}")
    # ru_maxrss is in KiB on Linux
    return {"wall_s": wall, "cpu_s": ru.ru_utime + ru.ru_stime, "peak_rss_mib": ru.ru_maxrss / 1024}


def summarize(samples: list[dict]) -> dict:
    walls = [s["wall_s"] for s in samples]
    return {
        "runs": len(samples),
        "wall_min_s": min(walls),
        "wall_median_s": statistics.median(walls),
        "wall_max_s": max(walls),
        "cpu_median_s": statistics.median(s["cpu_s"] for s in samples),
        "peak_rss_median_mib": statistics.median(s["peak_rss_mib"] for s in samples),
        "samples": samples,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=1, help="unmeasured runs of each case first (default 1)")
    ap.add_argument("--pimeval", default=os.environ.get("PIMEVAL"), help="PIMeval's vec-add.out, or the PIMeval-PIMbench directory it was built in (default: $PIMEVAL)")
    ap.add_argument("--pimeval-repo", default=os.environ.get("PIMEVAL_REPO"), help="git directory PIMeval was built from: its commit is printed (default: $PIMEVAL_REPO)")
    ap.add_argument("--tree", default=str(ROOT), help="source tree to measure (default: this checkout)")
    ap.add_argument("--baseline", default=None, metavar="DIR", help="another source tree whose infs rows are measured too, interleaved")
    ap.add_argument("--json", default=None, metavar="FILE")
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error("--runs must be >= 1")
    tree = Path(args.tree).resolve()
    pimeval, note = _pimeval_binary(args.pimeval)
    commit = _git_commit(args.pimeval_repo) if pimeval is not None else None
    todo = cases(tree, pimeval, Path(args.baseline).resolve() if args.baseline else None)

    for _ in range(args.warmup):
        for c in todo:
            run_once(c, tree)
    load_before = os.getloadavg()
    samples: dict[str, list[dict]] = {c["name"]: [] for c in todo}
    for _ in range(args.runs):
        for c in todo:
            samples[c["name"]].append(run_once(c, tree))
    load_after = os.getloadavg()
    res = {name: summarize(s) for name, s in samples.items()}

    head = _head(tree)
    print(f"# whole processes, {args.runs} runs each, interleaved; infs at {head} ({tree})")
    print(f"# {platform.node()}: {os.cpu_count()} cores, load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; python {platform.python_version()}")
    if pimeval is not None:
        print(f"# PIMeval: {pimeval}" + (f" (PIMeval-PIMbench commit {commit})" if commit else " (commit not given: --pimeval-repo)"))
    else:
        print(f"# {note}")
    print()
    print("| process | wall min / median / max (s) | CPU median (s) | peak RSS median (MiB) |")
    print("|---|---:|---:|---:|")
    for name, r in res.items():
        print(f"| {name} | {r['wall_min_s']:.2f} / {r['wall_median_s']:.2f} / {r['wall_max_s']:.2f} | {r['cpu_median_s']:.2f} | {r['peak_rss_median_mib']:.0f} |")
    print()
    imp = res[todo[0]["name"]]
    ok = imp["wall_median_s"] < IMPORT_GOAL_S
    print(f"goal: import infs.api under {IMPORT_GOAL_S} s: median {imp['wall_median_s']:.2f} s wall ({imp['cpu_median_s']:.2f} s CPU): {'met' if ok else 'NOT met'}")
    run = res[todo[1]["name"]]
    if pimeval is not None:
        pim = res[todo[-1]["name"]]
        ratio = run["wall_median_s"] / pim["wall_median_s"]
        verdict = "met" if ratio <= 1.0 else "NOT met"
        print(
            f"goal: infs-run vec_add 4M --mode in no slower than PIMeval vec-add 4M: median {run['wall_median_s']:.2f} s vs {pim['wall_median_s']:.2f} s wall "
            f"({ratio:.2f}x; CPU {run['cpu_median_s']:.2f} s vs {pim['cpu_median_s']:.2f} s): {verdict}"
        )
    else:
        print(f"goal: infs-run vs PIMeval: not measured ({note})")
    hlp = res[HELP_ROW]
    ok = hlp["wall_median_s"] < HELP_GOAL_S
    print(f"goal: {HELP_ROW} under {HELP_GOAL_S} s: median {hlp['wall_median_s']:.3f} s wall ({hlp['cpu_median_s']:.3f} s CPU): {'met' if ok else 'NOT met'}")
    floors = [c for c in todo if c.get("floor")]
    base = res[floors[0]["name"]]["wall_median_s"]
    for c in floors[1:]:
        f = res[c["name"]]
        versus = f"; {f['wall_median_s'] / pim['wall_median_s']:.2f}x PIMeval's" if pimeval is not None else ""
        print(f"{c['name']}: median {f['wall_median_s']:.2f} s wall ({f['wall_median_s'] - base:.2f} s over an empty interpreter{versus})")
    if args.baseline:
        n = len(infs_cases(tree))
        for c, b in zip(todo[:n], todo[n : 2 * n]):
            r0, r1 = res[b["name"]], res[c["name"]]
            print(f"vs baseline: {c['name']}: {r0['wall_median_s'] / r1['wall_median_s']:.2f}x faster (wall medians), {r0['cpu_median_s'] / r1['cpu_median_s']:.2f}x (CPU), peak RSS {r0['peak_rss_median_mib']:.0f} -> {r1['peak_rss_median_mib']:.0f} MiB")
    if args.json:
        Path(args.json).write_text(json.dumps({"tree": str(tree), "head": head, "load_before": load_before, "load_after": load_after, "cores": os.cpu_count(),
                                               "pimeval": str(pimeval) if pimeval else None, "pimeval_commit": commit, "results": res}, indent=2))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
