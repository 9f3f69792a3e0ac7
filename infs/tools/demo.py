"""``make run``: the main demo.

1. the compiler: ``infs-opt --tensorize --lower-pim`` turns stencil2d's stream
   regions into in-SRAM commands (the first lines of the program);
2. the runtime: ``infs-run`` runs stencil2d at the paper's size (2048 x 2048,
   10 time steps) on the ``paper-64`` machine in memory, near memory and on
   the cores, checks every output against the stream reference semantics,
   and reports cycles, traffic and energy.
"""

from __future__ import annotations

import subprocess
import sys

from rich.console import Console

from infs.tools import infs_run
from infs.workloads import WORKLOADS

LOWER = "sizes=M=64,N=64 config=small-16"


def main() -> int:
    console = Console()
    w = WORKLOADS["stencil2d"]
    rel = w.path.relative_to(w.path.parents[2])
    console.rule("[bold]the compiler: stream regions -> tDFG -> in-SRAM commands")
    console.print(f"$ infs-opt --tensorize --lower-pim='{LOWER}' {rel}", markup=False, soft_wrap=True)
    proc = subprocess.run(
        [sys.executable, "-m", "infs.tools.infs_opt", "--tensorize", f"--lower-pim={LOWER}", str(w.path)],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        console.print(proc.stderr.strip(), style="red", markup=False)
        return 1
    lines = [ln for ln in proc.stdout.splitlines() if "pimcmd." in ln]
    console.print("\n".join(ln.strip() for ln in lines[:16]), highlight=False, markup=False, soft_wrap=True)
    console.print(f"... {len(lines)} pimcmd lines in all", style="dim")
    console.rule("[bold]the runtime: stencil2d at paper size on paper-64, three ways, checked")
    console.print(f"$ infs-run {rel} --size-set paper --config paper-64 --mode all --check", markup=False, soft_wrap=True)
    return infs_run.main([str(w.path), "--size-set", "paper", "--config", "paper-64", "--mode", "all", "--check"])


if __name__ == "__main__":
    raise SystemExit(main())
