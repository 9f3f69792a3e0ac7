"""infs-view at paper size: how long a page takes to build, how big it is, how fast it redraws a step.

    .venv/bin/python benchmarks/bench_view.py [--workloads gauss_elim,stencil2d] [--config paper-64]
                                              [--size-set paper] [--steps 40] [--csv FILE]

For every workload (default: gauss_elim, 4,094 distinct in-memory programs,
and stencil2d, 16,384 tiles per program, at the paper's sizes on paper-64):

* build: ``infs-view FILE --size-set paper --config paper-64 -o page.html`` as
  a fresh process (start to exit, what a user waits for), wall and CPU
  seconds; and, in this process, the same steps timed one by one: the run
  (``runner.run_once`` with the charges recorded, ``Machine.record_charges``),
  the page's data (``infs_view.data_of_report``) and the HTML (``view_page.render``);
* the page's size in bytes and the number of commands embedded;
* the redraw of a step, in headless Chromium when it is installed: the page's
  own ``#bench=N`` (``performance.now()`` around each of N step redraws of the
  program with the most commands, layout included): mean, median, max and
  the milliseconds spent in each part (selection, lattice, machine panel,
  command panel, NoC map, command list); and the page's load time.

The CPU seconds say what the build costs on an idle machine when other work
shares the cores (the wall seconds then grow, the CPU seconds do not).
Prints one line per workload and writes ``benchmarks/out/view.csv``.
Everything printed is measured when the script runs.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from infs.hardware import load_config  # noqa: E402
from infs.tools import infs_view, runner  # noqa: E402
from infs.tools.view_page import render  # noqa: E402


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def build_process(workload: Path, args: list[str], out: Path) -> tuple[float, float]:
    """Wall and CPU seconds of ``infs-view`` as a fresh process."""
    c0, t0 = children_cpu(), time.perf_counter()
    r = subprocess.run([str(ROOT / ".venv/bin/infs-view"), str(workload), *args, "-o", str(out)], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit(f"bench_view: infs-view {workload.name} failed: {r.stderr.strip()}")
    return wall, children_cpu() - c0


def build_steps(workload: Path, config: str, size_set: str) -> dict[str, float]:
    """The build's steps in this process (wall seconds each)."""
    ns = argparse.Namespace(file=str(workload), entry=None, config=config, mode="in", sizes=None, scalar=None, size_set=size_set, shape=None,
                            input=None, tiles=None, no_jit_charge=False, cold=False, region=None)  # fmt: skip
    ns.seed, ns.check, ns.analysis, ns.json, ns.save_outputs, ns.strict, ns.record_charges = 0, False, True, True, None, False, True
    module = runner.parse_program(workload)
    fn = runner.find_function(module, None)
    runner.extract_plain_loops(module, workload)
    t0 = time.perf_counter()
    out = runner.run_once(module, workload, fn, ns, "in", None)
    t1 = time.perf_counter()
    data = infs_view.data_of_report(out["report"], load_config(config), workload.name, True, None, out["values"])
    t2 = time.perf_counter()
    render(data)
    t3 = time.perf_counter()
    return {"run_s": t1 - t0, "data_s": t2 - t1, "render_s": t3 - t2, "programs_run": data["run"]["programs_run"]}


def browse(page: Path, fragment: str) -> dict:
    chromium = next((p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")) if p), None)
    if chromium is None:
        return {}
    with tempfile.TemporaryDirectory() as prof:
        r = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--user-data-dir={prof}", "--virtual-time-budget=30000",
                            "--window-size=1400,1500", "--dump-dom", page.resolve().as_uri() + "#" + fragment], capture_output=True, text=True, timeout=300)  # fmt: skip
    errors = re.search(r'<pre id="errors"[^>]*>(.*?)</pre>', r.stdout, re.S)
    if errors is None or errors.group(1).strip():
        raise SystemExit(f"bench_view: the page reported errors: {errors.group(1) if errors else r.stderr[-500:]}")
    return json.loads(re.search(r'<pre id="sel">(.*?)</pre>', r.stdout, re.S).group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--workloads", default="gauss_elim,stencil2d")
    ap.add_argument("--config", default="paper-64")
    ap.add_argument("--size-set", default="paper", choices=["small", "paper"])
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--csv", default=str(ROOT / "benchmarks/out/view.csv"))
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for w in a.workloads.split(","):
            path = ROOT / "infs/workloads" / f"{w}.mlir"
            page = Path(tmp) / f"{w}.html"
            wall, cpu = build_process(path, ["--size-set", a.size_set, "--config", a.config], page)
            steps = build_steps(path, a.config, a.size_set)
            html = page.read_text()
            data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S).group(1))
            progs = data["programs"]
            k = max(range(len(progs)), key=lambda j: len(progs[j]["cmds"])) if progs else None
            sel = browse(page, f"prog={k}&step=0&bench={a.steps}") if k is not None else {}
            row = {
                "workload": w, "config": a.config, "size_set": a.size_set, "build_wall_s": round(wall, 2), "build_cpu_s": round(cpu, 2),
                "run_s": round(steps["run_s"], 2), "data_s": round(steps["data_s"], 2), "render_s": round(steps["render_s"], 3),
                "programs_run": steps["programs_run"], "programs_embedded": len(progs), "commands_embedded": sum(len(p["cmds"]) for p in progs),
                "page_bytes": len(html.encode()), "bench_program_commands": len(progs[k]["cmds"]) if k is not None else 0,
                "redraw_mean_ms": round(sel.get("bench_ms", float("nan")), 1), "redraw_median_ms": round(sel.get("bench_median_ms", float("nan")), 1),
                "redraw_max_ms": round(sel.get("bench_max_ms", float("nan")), 1), "load_ms": sel.get("load_ms", ""),
                "redraw_parts_ms": json.dumps(sel.get("bench_parts", {})),
            }  # fmt: skip
            rows.append(row)
            print(f"{w}: build {wall:.1f} s wall / {cpu:.1f} s CPU (run {steps['run_s']:.1f} s, data {steps['data_s']:.2f} s, html {steps['render_s']:.2f} s); "
                  f"{row['programs_embedded']} of {row['programs_run']} programs, {row['commands_embedded']:,} commands, page {row['page_bytes'] / 1e6:.2f} MB; "
                  f"step redraw ({row['bench_program_commands']} commands): mean {row['redraw_mean_ms']} ms, median {row['redraw_median_ms']} ms, "
                  f"max {row['redraw_max_ms']} ms, parts {row['redraw_parts_ms']}; page load {row['load_ms']} ms", flush=True)  # fmt: skip
    out = Path(a.csv)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0]))
        wr.writeheader()
        wr.writerows(rows)
    print(f"wrote {out}; load average {open('/proc/loadavg').read().split()[0] if Path('/proc/loadavg').exists() else '?'}")


if __name__ == "__main__":
    main()
