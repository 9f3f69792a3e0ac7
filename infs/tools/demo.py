"""``make run``: the main demo.

1. ``infs-opt`` parses, verifies and prints a workload (stencil2d);
2. every workload of the suite runs at its small size through the reference
   semantics of the stream dialect (host code on xDSL's interpreter, regions
   vectorized with numpy), and is checked against its independent numpy
   reference; a table reports sizes, elements touched, error and time.
"""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
from rich.console import Console
from rich.table import Table

from infs import api
from infs.runtime.host import run_function
from infs.runtime.check import compare_values
from infs.workloads import WORKLOADS, Workload


def check_workload(w: Workload, seed: int = 0) -> tuple[bool, float, float, str]:
    """Run the stream program and the numpy reference; (ok, max error, seconds, note)."""
    module = api.parse_file(w.path)
    sizes = w.sizes("small")
    inputs = w.inputs(sizes, seed)
    expected = w.reference(inputs, sizes)
    arrays = {k: v.copy() for k, v in inputs.items()}
    t0 = time.perf_counter()
    results = run_function(module, w.call_args(arrays, sizes), w.entry)
    elapsed = time.perf_counter() - t0
    actual = {**arrays, **dict(zip(w.results, results))}
    check = compare_values(actual, expected)
    return check.ok, check.max_error, elapsed, check.note


def main() -> int:
    console = Console()
    w = WORKLOADS["stencil2d"]
    console.rule("[bold]infs-opt: parse, verify and print a stream program")
    console.print(f"$ infs-opt {w.path.relative_to(w.path.parents[2])}")
    proc = subprocess.run([sys.executable, "-m", "infs.tools.infs_opt", str(w.path)], capture_output=True, text=True)
    if proc.returncode != 0:
        console.print(proc.stderr.strip(), style="red")
        return 1
    lines = proc.stdout.splitlines()
    console.print("\n".join(lines[:24]), highlight=False, markup=False)
    if len(lines) > 24:
        console.print(f"... ({len(lines) - 24} more lines)", style="dim")

    console.rule("[bold]reference semantics vs. numpy, every workload at its small size")
    table = Table()
    for col in ("workload", "sizes", "result", "max error", "time"):
        table.add_column(col)
    failures = 0
    for name, wl in WORKLOADS.items():
        try:
            ok, err, secs, note = check_workload(wl)
        except api.InfsError as e:
            ok, err, secs, note = False, float("nan"), 0.0, str(e)
        failures += not ok
        sizes = ", ".join(f"{k}={v}" for k, v in wl.small.items())
        table.add_row(name, sizes, "[green]match[/]" if ok else f"[red]MISMATCH[/] {note}", f"{err:.2e}", f"{secs * 1e3:.0f} ms")
    console.print(table)
    console.print(f"{len(WORKLOADS) - failures}/{len(WORKLOADS)} workloads match their numpy reference.")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
