"""``make run``: the main demo.

1. the compiler: ``infs-opt --tensorize --lower-pim`` turns stencil2d's stream
   regions into in-SRAM commands (the first lines of the program);
2. the compiled program from a file: that output, written to a file, runs
   with ``infs-run FILE --check`` (the paper's "Inf-S no JIT": no JIT runs;
   the check evaluates the graph each program was lowered from);
3. the program as a bundle: ``infs-opt --tensorize --emit-bundle`` writes
   stencil2d's host code and tDFGs as one data file, which ``infs-run`` runs
   and checks without loading the compiler (docs/bundles.md);
4. the runtime: ``infs-run`` runs stencil2d at the paper's size (2048 x 2048,
   10 time steps) on the ``paper-64`` machine in memory, near memory and on
   the cores, checks every output against the stream reference semantics,
   and reports cycles, traffic and energy;
5. plain loops in: ``infs-run`` on ``examples/jacobi2d.mlir``, PolyBench's
   jacobi-2d as affine loops (no hand-written stream region): extract-streams
   finds the sweeps, the runtime runs them in memory (``--mode auto``).

The README's demo block is this demo's own output, excerpted by
``readme_block``: ``python -m infs.tools.demo --update-readme`` rewrites it,
and ``test/test_driver_api.py`` fails when the README's figures differ from
what the demo prints today (it regenerates the block with ``--analysis``, the
same timing without data: ``check:`` lines aside, the same text).
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from rich.console import Console

from infs.tools import infs_run
from infs.workloads import WORKLOADS

LOWER = "sizes=M=64,N=64 config=small-16"
RUN = ["--size-set", "paper", "--config", "paper-64", "--mode", "all"]
COMPILER_RULE = "[bold]the compiler: stream regions -> tDFG -> in-SRAM commands"
COMPILED_RULE = "[bold]the compiled program from a file: no JIT, checked against its tDFG"
COMPILED_FILE = "stencil2d.small-16.mlir"
COMPILED_RUN = ["--sizes", "m=64,n=64,t=2", "--shape", "A=64x64,B=64x64,W=2"]
BUNDLE_RULE = "[bold]the program as a bundle: host code and tDFGs as data, no compiler"
BUNDLE_FILE = "stencil2d.infsb"
BUNDLE_RUN = ["--config", "small-16", "--mode", "in"]
RUNTIME_RULE = "[bold]the runtime: stencil2d at paper size on paper-64, three ways, checked"
LOOPS_RULE = "[bold]plain loops in: jacobi-2d as affine loops, streams found, run in memory"
LOOPS = Path("examples/jacobi2d.mlir")
LOOPS_RUN = ["--sizes", "n=2048,tsteps=10", "--shape", "A=2048x2048,B=2048x2048", "--config", "paper-64", "--mode", "auto"]
README = Path(__file__).resolve().parents[2] / "README.md"
BEGIN, END = "<!-- demo:begin (python -m infs.tools.demo --update-readme) -->", "<!-- demo:end -->"
WIDTH = 80  # the README's block, and the test, render at this width


def _workload():
    w = WORKLOADS["stencil2d"]
    return w, w.path.relative_to(w.path.parents[2])


def compiled_text() -> str:
    """What ``infs-opt --tensorize --lower-pim`` prints for stencil2d: host code holding ``pimcmd.program`` ops."""
    w, _ = _workload()
    proc = subprocess.run(
        [sys.executable, "-m", "infs.tools.infs_opt", "--tensorize", f"--lower-pim={LOWER}", str(w.path)],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip())
    return proc.stdout


def write_bundle(directory: Path) -> Path:
    """stencil2d tensorized and written as a bundle in ``directory`` (``infs-opt --emit-bundle``)."""
    w, _ = _workload()
    path = directory / BUNDLE_FILE
    proc = subprocess.run([sys.executable, "-m", "infs.tools.infs_opt", "--tensorize", "--emit-bundle", str(path), str(w.path)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip())
    return path


def compiler_lines(text: str | None = None) -> list[str]:
    """The ``pimcmd`` lines of ``compiled_text``."""
    return [ln.strip() for ln in (text if text is not None else compiled_text()).splitlines() if "pimcmd." in ln]


def main() -> int:
    console = Console()
    w, rel = _workload()
    console.rule(COMPILER_RULE)
    console.print(f"$ infs-opt --tensorize --lower-pim='{LOWER}' {rel}", markup=False, soft_wrap=True)
    try:
        text = compiled_text()
    except RuntimeError as e:
        console.print(str(e), style="red", markup=False)
        return 1
    lines = compiler_lines(text)
    console.print("\n".join(lines[:16]), highlight=False, markup=False, soft_wrap=True)
    console.print(f"... {len(lines)} pimcmd lines in all", style="dim")
    console.rule(COMPILED_RULE)
    with tempfile.TemporaryDirectory() as tmp:
        compiled = Path(tmp) / COMPILED_FILE
        compiled.write_text(text)
        console.print(f"$ infs-opt --tensorize --lower-pim='{LOWER}' {rel} -o {COMPILED_FILE}", markup=False, soft_wrap=True)
        console.print(f"$ infs-run {COMPILED_FILE} {' '.join(COMPILED_RUN)} --check", markup=False, soft_wrap=True)
        rc = infs_run.main([str(compiled), *COMPILED_RUN, "--check"])
    if rc:
        return rc
    console.rule(BUNDLE_RULE)
    with tempfile.TemporaryDirectory() as tmp:
        console.print(f"$ infs-opt --tensorize --emit-bundle {BUNDLE_FILE} {rel}", markup=False, soft_wrap=True)
        console.print(f"$ infs-run {BUNDLE_FILE} {' '.join(BUNDLE_RUN)} --check", markup=False, soft_wrap=True)
        try:
            bundle = write_bundle(Path(tmp))
        except RuntimeError as e:
            console.print(str(e), style="red", markup=False)
            return 1
        rc = infs_run.main([str(bundle), *BUNDLE_RUN, "--check"])
    if rc:
        return rc
    console.rule(RUNTIME_RULE)
    console.print(f"$ infs-run {rel} {' '.join(RUN)} --check", markup=False, soft_wrap=True)
    rc = infs_run.main([str(w.path), *RUN, "--check"])
    console.rule(LOOPS_RULE)
    console.print(f"$ infs-run {LOOPS} {' '.join(LOOPS_RUN)} --check", markup=False, soft_wrap=True)
    return rc or infs_run.main([str(README.parent / LOOPS), *LOOPS_RUN, "--check"])


def _rule(title: str) -> str:
    out = io.StringIO()
    Console(file=out, width=WIDTH, color_system=None).rule(title)
    return out.getvalue().rstrip("\n")


def readme_block(analysis: bool = False) -> str:
    """The README's excerpt of this demo's output.  ``analysis``: run the
    runtime part with ``--analysis`` instead of ``--check`` (seconds instead of
    a minute; the same figures, no ``check:`` lines)."""
    w, rel = _workload()
    text = compiled_text()
    lines = compiler_lines(text)
    clip = lambda ln: ln if len(ln) <= 110 else ln[:106] + " ..."  # noqa: E731
    out = [_rule(COMPILER_RULE), f"$ infs-opt --tensorize --lower-pim='{LOWER}' {rel}"]
    # an excerpt of what main() prints: its first lines, then its count line
    out += [clip(ln) for ln in lines[:5]] + ["...", f"... {len(lines)} pimcmd lines in all"]
    env = dict(os.environ, COLUMNS=str(WIDTH), TERM="dumb")
    out += [_rule(COMPILED_RULE), f"$ infs-opt --tensorize --lower-pim='{LOWER}' {rel} -o {COMPILED_FILE}",
            f"$ infs-run {COMPILED_FILE} {' '.join(COMPILED_RUN)} --check", "(the same report, then)"]  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        compiled = Path(tmp) / COMPILED_FILE
        compiled.write_text(text)
        proc = subprocess.run([sys.executable, "-m", "infs.tools.infs_run", str(compiled), *COMPILED_RUN, "--analysis" if analysis else "--check"],
                              capture_output=True, text=True, env=env)  # fmt: skip
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip() or proc.stdout.strip()[-500:])
    got = proc.stdout.splitlines()
    out += [ln.rstrip() for ln in got if ln.startswith(("│ total ", "│ JIT lowerings", "│ compiled ahead of time"))]
    out += [ln for ln in got if ln.startswith("check:")]
    out += [_rule(BUNDLE_RULE), f"$ infs-opt --tensorize --emit-bundle {BUNDLE_FILE} {rel}",
            f"$ infs-run {BUNDLE_FILE} {' '.join(BUNDLE_RUN)} --check", "(the same report, then)"]  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        bundle = write_bundle(Path(tmp))
        proc = subprocess.run([sys.executable, "-m", "infs.tools.infs_run", str(bundle), *BUNDLE_RUN, "--analysis" if analysis else "--check"],
                              capture_output=True, text=True, env=env)  # fmt: skip
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip() or proc.stdout.strip()[-500:])
    got = proc.stdout.splitlines()
    out += [ln.rstrip() for ln in got if ln.startswith(("│ total ", "│ regions"))]
    out += [ln for ln in got if ln.startswith("check:")]
    out += [_rule(RUNTIME_RULE), f"$ infs-run {rel} {' '.join(RUN)} --check", "(per mode: cycle breakdown as Fig. 14, traffic as Fig. 12/13, energy, offload, JIT, then)"]
    proc = subprocess.run(
        [sys.executable, "-m", "infs.tools.infs_run", str(w.path), *RUN, "--analysis" if analysis else "--check"], capture_output=True, text=True, env=env
    )
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip() or proc.stdout.strip()[-500:])
    text = proc.stdout.splitlines()
    out += [ln for ln in text if ln.startswith("check:")]
    start = next(i for i, ln in enumerate(text) if ln.strip() == "modes compared")
    out.append(text[start].rstrip())
    out += [ln.rstrip() for ln in text[start + 1 :] if ln.startswith(("┃", "│"))]
    out += [_rule(LOOPS_RULE), f"$ infs-run {LOOPS} {' '.join(LOOPS_RUN)} --check", "(the same report, then)"]
    proc = subprocess.run(
        [sys.executable, "-m", "infs.tools.infs_run", str(README.parent / LOOPS), *LOOPS_RUN, "--analysis" if analysis else "--check"],
        capture_output=True, text=True, env=env,
    )  # fmt: skip
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip() or proc.stdout.strip()[-500:])
    text = proc.stdout.splitlines()
    out += [ln.rstrip() for ln in text if ln.startswith(("│ total ", "│ regions", "│ elements computed in memory"))]
    out += [ln for ln in text if ln.startswith("check:")]
    return "\n".join(out)


def readme_section(text: str) -> str:
    """The demo block of the README's text (between the markers, without the fence)."""
    m = re.search(re.escape(BEGIN) + r"\n```\n(.*?)\n```\n" + re.escape(END), text, re.S)
    if not m:
        raise RuntimeError(f"README.md has no demo block between {BEGIN!r} and {END!r}")
    return m.group(1)


def update_readme(path: Path = README) -> None:
    text = path.read_text()
    old = readme_section(text)
    path.write_text(text.replace(f"{BEGIN}\n```\n{old}\n```\n{END}", f"{BEGIN}\n```\n{readme_block()}\n```\n{END}"))


if __name__ == "__main__":
    if sys.argv[1:] == ["--update-readme"]:
        update_readme()
        raise SystemExit(0)
    raise SystemExit(main())
