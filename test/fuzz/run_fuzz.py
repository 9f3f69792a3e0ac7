"""``make fuzz``: the differential properties and the CLI fuzzer, in parallel, for a time budget.

    python test/fuzz/run_fuzz.py --minutes 10 --out fuzz-out

Two processes (one per core): ``differential.py`` (random regions through the
full pipeline and tensorize, random graphs through the JIT, fresh hypothesis
seeds) and ``cli_fuzz.py`` (mutated valid programs through ``infs-opt`` and
``infs-run``, a fresh seed).  Every failing case is written under ``--out``
(its input, its command or generated case, the error).  The closing line is

    fuzz: N cases, M mismatches, K internal errors

and the exit status is non-zero when M or K is.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--out", type=Path, default=Path("fuzz-out"))
    a = ap.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    stats = {k: a.out / f"stats-{k}-{stamp}.json" for k in ("differential", "cli")}
    env = {**os.environ, "INFS_FUZZ": "1", "PYTHONHASHSEED": "random"}
    env.pop("INFS_DEBUG", None)
    cmds = {
        "differential": [sys.executable, str(HERE / "differential.py"), "--minutes", str(a.minutes), "--out", str(a.out), "--stats", str(stats["differential"])],
        "cli": [sys.executable, str(HERE / "cli_fuzz.py"), "--minutes", str(a.minutes), "--out", str(a.out), "--stats", str(stats["cli"])],
    }
    print(f"fuzz: {a.minutes:g} minutes on 2 processes; failing cases go to {a.out}/", flush=True)
    procs = {k: subprocess.Popen(c, env=env) for k, c in cmds.items()}
    codes = {k: p.wait() for k, p in procs.items()}
    total = {"cases": 0, "mismatches": 0, "internal errors": 0}
    for k, path in stats.items():
        if not path.exists():  # the process died before writing its counts: that is an internal error
            print(f"fuzz: the {k} fuzzer exited {codes[k]} without its counts", file=sys.stderr)
            total["internal errors"] += 1
            continue
        data = json.loads(path.read_text())
        for key in total:
            total[key] += data["counts"].get(key, 0)
        outcomes = ", ".join(f"{o}: {n}" for o, n in sorted(data["outcomes"].items()))
        print(f"  {k}: {outcomes}")
    print(f"fuzz: {total['cases']} cases, {total['mismatches']} mismatches, {total['internal errors']} internal errors")
    return 1 if total["mismatches"] or total["internal errors"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
