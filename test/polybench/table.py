"""The PolyBench table of docs/polybench.md: where each region of each kernel runs.

    .venv/bin/python test/polybench/table.py [--dataset MEDIUM] [--config paper-64] [--steps 2]

Each kernel of ``test/polybench`` as cgeist prints it for the dataset
(``reference.cgeist_text``) goes through ``extract-streams`` and then the
runtime in analysis mode (timing only: arrays have shapes, no data) under
``--mode auto`` on the config.  Time loops (TSTEPS/TMAX) run ``--steps``
steps: every step runs the same regions, so where they run does not change.
One row per region (the loop nest it came from, its domain and iterators with
PolyBench's size names, how many times it ran, where, and the runtime's
reason), then one per loop nest left on the host (the pass's remark).
Prints markdown.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reference import KERNELS, cgeist_text, inputs  # noqa: E402

from infs import api  # noqa: E402
from infs.dialects import stream  # noqa: E402
from infs.passes.extract_remarks import location_text  # noqa: E402
from infs.passes.extract_streams import extract_streams  # noqa: E402
from infs.runtime.host import phantom_array  # noqa: E402

WHERE = {"in": "in memory", "near": "near memory", "core": "cores"}


def _names(k, text: str) -> str:
    """cgeist's argument names (arg0, ...) as PolyBench's size names."""
    return re.sub(r"\barg(\d+)\b", lambda m: k.params[int(m.group(1))] if int(m.group(1)) < len(k.params) else m.group(0), text)


def _short(reason: str, limit: int = 200) -> str:
    # the row names the loop nest already: drop the graph's location from the runtime's reasons
    reason = re.sub(r"the tdfg\.graph at \S+:\d+:\d+: ", "", reason).replace("|", "/")
    # the pass's remarks, shorter (the whole text: infs-opt -p 'extract-streams{remarks=true}' FILE)
    reason = re.sub(r"its inner loop nests are tried on their own \(not distributed: (.*)\)$", r"not distributed: \1", reason)
    reason = re.sub(r"has a loop-carried dependence: the 'stream\.load' at line \d+ may read a cell of (%\w+) written by the 'stream\.store' at line \d+ in an earlier iteration", r"a loop-carried dependence on \1", reason)
    reason = reason.replace(", written by one statement and accessed by another, is shared between iterations of", " is shared between iterations of")
    return reason if len(reason) <= limit else reason[: limit - 3] + "..."


def kernel_rows(name: str, dataset: str, config: str, steps: int) -> tuple[list[list[str]], float]:
    k = KERNELS[name]
    sizes = dict(k.datasets[dataset])
    for t in ("TSTEPS", "TMAX"):
        if t in sizes:
            sizes[t] = min(sizes[t], steps)
    module = api.parse_text(cgeist_text(k, dataset), f"{name}.mlir")
    remarks = extract_streams(module)
    regions = [op for op in module.walk() if isinstance(op, stream.RegionOp)]
    args = inputs(k, sizes, dataset, shapes_only=True)
    args = {a: (phantom_array(v, np.float64) if isinstance(v, tuple) else v) for a, v in args.items()}
    t0 = time.perf_counter()
    res = api.run(module, args, config=config, mode="auto", machine_mode="analysis") if regions else None
    wall = time.perf_counter() - t0
    rows = []
    by_region: dict[int, list] = {}
    for r in res.regions if res else []:
        by_region.setdefault(r.region, []).append(r)
    for i, reg in enumerate(regions):
        recs = by_region.get(i, [])
        line = location_text(reg).rsplit(":", 2)[-2] if location_text(reg) != "<unknown>" else "?"
        what = _names(k, f"l.{line} {reg.iteration_domain} {'/'.join(x[0] for x in reg.iterator_kinds)}")
        modes = Counter(r.mode for r in recs)
        where = ", ".join(f"{WHERE[m]}" + (f" x{c}" if len(modes) > 1 else "") for m, c in modes.most_common()) or "not run"
        reason = recs[0].reason if recs else ""
        rows.append([name, what, str(len(recs)), where, _short(_names(k, reason))])
    for rm in remarks:
        if not rm.extracted and ("not extracted:" in rm.text or "not distributed:" in rm.text or "stay on the host" in rm.text or "stays on the host" in rm.text):
            line = location_text(rm.op).rsplit(":", 2)[-2]
            rows.append([name, f"l.{line} (host loop)", "", "host", _short(_names(k, rm.text), 300)])
    return rows, wall


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dataset", default="MEDIUM", choices=["MINI", "MEDIUM", "LARGE"])
    ap.add_argument("--config", default="paper-64")
    ap.add_argument("--steps", type=int, default=2)
    ap.add_argument("--kernels", help="comma-separated subset")
    ap.add_argument("--update-doc", "--update-readme", dest="update_doc", action="store_true", help="write the table into docs/polybench.md between its polybench-table markers")
    a = ap.parse_args(argv)
    names = a.kernels.split(",") if a.kernels else list(KERNELS)
    lines = ["| kernel | region (loop nest: domain, iterators) | runs | where (auto) | why |", "|---|---|---|---|---|"]
    for name in names:
        rows, wall = kernel_rows(name, a.dataset, a.config, a.steps)
        print(f"[{name}: {wall:.1f} s]", file=sys.stderr)
        lines += ["| " + " | ".join(r) + " |" for r in rows]
    table = "\n".join(lines)
    if not a.update_doc:
        print(table)
        return 0
    readme = Path(__file__).resolve().parents[2] / "docs" / "polybench.md"
    text = readme.read_text()
    m = re.search(r"(<!-- polybench-table:begin[^\n]*-->\n)(.*?)(<!-- polybench-table:end -->)", text, re.S)
    if m is None:
        print("table.py: error: docs/polybench.md has no polybench-table markers", file=sys.stderr)
        return 1
    head = f"<!-- polybench-table:begin (python test/polybench/table.py --dataset {a.dataset} --config {a.config} --steps {a.steps} --update-doc) -->\n"
    readme.write_text(text[: m.start()] + head + table + "\n" + text[m.start(3) :])
    return 0


if __name__ == "__main__":
    sys.exit(main())
