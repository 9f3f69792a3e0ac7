"""Check that the JIT's programs do not change: every graph of every workload,
at small and paper sizes, on paper-64 and small-16, host loop indices first,
middle and last; each lowering's commands (kind and fields, in order, values
with their types), program fields, scalar map and layout, canonicalized.

    .venv/bin/python benchmarks/jit_identity.py --save FILE    # the baseline
    .venv/bin/python benchmarks/jit_identity.py --check FILE   # compare (exit 1 on a difference)

A tool for performance work on the lowering (same programs before and after),
not a test: the baseline is whatever the code gave when it was saved.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bench_jit as bj  # noqa: E402

from infs.hardware import load_config  # noqa: E402
from infs.passes.lower_pim import lower_pim  # noqa: E402
from infs.runtime import jit  # noqa: E402
from infs.workloads import WORKLOADS  # noqa: E402


def canon(v):
    """A comparable, picklable form that keeps types (1 != 1.0 != True, -0.0 != 0.0)."""
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, int):
        return (type(v).__name__, int(v))
    if isinstance(v, float):
        return (type(v).__name__, float(v).hex())
    if isinstance(v, str):
        return ("str", v)
    if v is None:
        return ("None",)
    if isinstance(v, tuple):
        return ("tuple", tuple(canon(x) for x in v))
    if isinstance(v, list):
        return ("list", tuple(canon(x) for x in v))
    if isinstance(v, dict):
        return ("dict", tuple((canon(k), canon(x)) for k, x in v.items()))
    if isinstance(v, type):
        return ("type", v.__module__, v.__qualname__)
    if dataclasses.is_dataclass(v):
        return (type(v).__qualname__, tuple((f.name, canon(getattr(v, f.name))) for f in dataclasses.fields(v)))
    return (type(v).__qualname__, str(v))  # xDSL types


def program_form(low: jit.Lowered, layout) -> tuple:
    r = low.record
    cmds = tuple((canon(c.kind), canon(c.fields())) for c in r.cmds)
    head = {k: canon(getattr(r, k)) for k in ("arg_types", "config", "lattice", "tiles", "banks", "per_bank", "wordlines",
                                               "virtual", "result_types", "scalar_types", "arg_names")}  # fmt: skip
    return (canon(head), cmds, canon(low.scalar_map), low.nodes, canon(layout))


def collect() -> dict:
    seen_layout: list = []
    real = lower_pim.choose_layout

    def spy(*a, **k):
        out = real(*a, **k)
        seen_layout.append(out)
        return out

    lower_pim.choose_layout = spy
    out: dict = {}
    try:
        for cfg_name in ("paper-64", "small-16"):
            cfg = load_config(cfg_name)
            for wname, w in WORKLOADS.items():
                _, fn, graphs, _ = bj.prepare(w)
                templates = bj.shape_templates(w)
                for size_set in ("small", "paper"):
                    sizes = w.sizes(size_set)
                    for li in ("first", "middle", "last"):
                        host = bj.HostValues(fn, w, sizes, li)
                        for i, g in enumerate(graphs):
                            key = (cfg_name, wname, size_set, li, i)
                            try:
                                bind, shapes, _ = bj.graph_inputs(g, host, templates, sizes)
                            except Exception as e:
                                out[key] = ("inputs", bj.one_line(e))
                                continue
                            jit.clear_cache()
                            seen_layout.clear()
                            try:
                                low = jit.lower(g, bind, cfg, None, shapes)
                            except Exception as e:
                                out[key] = ("error", bj.one_line(e))
                                continue
                            out[key] = program_form(low, seen_layout[-1] if seen_layout else None)
    finally:
        lower_pim.choose_layout = real
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--save", type=Path)
    g.add_argument("--check", type=Path)
    args = ap.parse_args()
    now = collect()
    errs = sum(1 for v in now.values() if v[0] in ("error", "inputs"))
    print(f"{len(now)} lowerings ({errs} errors), {sum(len(v[1]) for v in now.values() if v[0] not in ('error', 'inputs'))} commands")
    if args.save:
        args.save.write_bytes(pickle.dumps(now))
        print(f"saved {args.save}")
        return 0
    base = pickle.loads(args.check.read_bytes())
    bad = [k for k in sorted(set(base) | set(now), key=str) if base.get(k) != now.get(k)]
    for k in bad[:20]:
        b, n = base.get(k), now.get(k)
        print(f"DIFFERS {k}")
        if b and n and b[0] not in ("error", "inputs") and n[0] not in ("error", "inputs"):
            for part, (x, y) in enumerate(zip(b, n)):
                if x != y:
                    if part == 1:
                        for j, (cx, cy) in enumerate(zip(x, y)):
                            if cx != cy:
                                print(f"  cmd {j}:\n    before {cx}\n    after  {cy}")
                                break
                        else:
                            print(f"  command count {len(x)} -> {len(y)}")
                    else:
                        print(f"  part {part}:\n    before {x}\n    after  {y}")
        else:
            print(f"  before {b}\n  after  {n}")
    print("IDENTICAL" if not bad else f"{len(bad)} of {len(base)} lowerings differ")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
