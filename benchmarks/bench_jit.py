"""JIT lowering time (tDFG -> pimcmd) per tDFG node and per command, every workload at paper size.

    .venv/bin/python benchmarks/bench_jit.py [--workloads a,b] [--config paper-64] [--repeat N]
                                             [--memo-repeat N] [--loop-index middle] [--csv FILE]

For every workload of ``infs.workloads`` the module is parsed and tensorized
once (``TensorizePass``, the static compiler); then every ``tdfg.graph`` it
holds is lowered with ``infs.runtime.jit.lower(graph, sizes, config, shapes=...)``
the way the runtime calls it (``infs.runtime.driver``: a ``HardwareConfig``
object, the graph's index symbols as ``sizes``, the real array shapes):

* sizes: each index symbol of a graph is evaluated from the host function at
  the workload's paper (Table 3) sizes: function arguments take the paper
  value, ``arith`` ops on index values (``w2 = w / 2``) are computed, and an
  ``scf.for`` induction variable (gauss_elim's ``k``, mm_outer's ``kk``,
  kmeans_outer's ``j``, conv3d's and gather_mlp_outer's ``i``) takes a
  representative value of its range, by default the middle
  ``lb + (ub - lb) // 2`` (``--loop-index first|middle|last``);
* shapes: derived from the workload's ``make_inputs`` without allocating
  paper-size arrays: it is called twice with small, distinct probe sizes
  (every size key a different even number >= 20), each array dim is matched
  to the size key whose probe value it equals (it must match the same key in
  both probes) or kept when it is the same constant in both (conv's 3 x 3 and
  9 taps), and the paper sizes are substituted;
* first call: ``jit.clear_cache(facts=False)``, ``gc.collect()``, then one
  ``lower`` (wall time around the call), after one untimed warm-up lowering of
  the same graph; median of ``--repeat`` (the very first lowering in the
  process is reported as ``cold_ms`` in the CSV).  This is the first call for
  new sizes: the size-independent ``GraphFacts`` the JIT reads once per graph
  are kept.  As ``run_program`` runs the JIT, the objects alive before the
  calls (the parsed program, the modules) are frozen
  (``infs.runtime.heap.frozen_heap``), so the collection walks only what was
  allocated since; ``unfrozen_ms`` in the CSV is the same call when nothing is
  frozen and the collection walks the whole heap (what a run cost before the
  runtime froze the heap);
* new-graph call: the same with ``jit.clear_cache()`` (facts too), i.e. the
  first lowering of a graph the JIT has never seen (facts read too);
* back-to-back first call: the same as the first call without the
  ``gc.collect()`` before each (a full collection walks every object of the
  process and leaves the CPU caches cold; this one shows the lowering's own
  cost with warm caches);
* memoized call: the same ``lower`` call again (a cache hit), median of
  ``--memo-repeat`` individually timed calls; and after ``gc.collect()``
  (median of ``--repeat``): what a full collection alone costs a call;
* nodes: ``Lowered.nodes`` (tDFG ops of the graph, yield excluded);
  commands: ``Lowered.commands`` (pimcmd commands, ``array`` declarations
  excluded).

A graph that does not lower (``LayoutError``, wordline pressure, ...) is a row
with its one-line error instead of figures.  A scaling check lowers the same
workloads (``--scaling``, default vec_add, stencil2d) at element counts
paper/64, paper/16, paper/4 and paper (each array-size key scaled by the
same factor, so a 2D array's element count scales by the square) to show that
lowering time tracks the command count, not the element count.

Prints tables (rich) and writes one CSV row per graph and per scaling point
to ``benchmarks/out/jit.csv``.  Everything printed is measured when the
script runs.
"""

from __future__ import annotations

import argparse
import csv
import gc
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table
from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import BlockArgument, OpResult, SSAValue

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from infs import api  # noqa: E402
from infs.dialects import stream, tdfg  # noqa: E402
from infs.hardware import load_config  # noqa: E402
from infs.runtime.heap import frozen_heap  # noqa: E402
from infs.passes.tensorize import NOT_TENSORIZED, TensorizePass  # noqa: E402
from infs.runtime import jit  # noqa: E402
from infs.workloads import WORKLOADS, Workload  # noqa: E402

OUT = Path(__file__).resolve().parent / "out" / "jit.csv"
TARGET_FIRST_US_PER_NODE = 200.0
TARGET_FIRST_US_PER_GRAPH = 220.0  # the paper's average JIT time per lowering (C++), ASPLOS §8
TARGET_MEMO_US = 5.0


# ---------------------------------------------------------------------------
# array shapes from make_inputs, without paper-size allocations
# ---------------------------------------------------------------------------


def _probe(w: Workload, base: int) -> tuple[dict[str, tuple[int, ...]], dict[str, int]]:
    keys = sorted(w.paper)
    sizes = {k: base + 2 * i for i, k in enumerate(keys)}
    arrays = w.make_inputs(sizes, np.random.default_rng(0))
    return {name: tuple(a.shape) for name, a in arrays.items()}, sizes


def shape_templates(w: Workload) -> dict[str, tuple[str | int, ...]]:
    """Array name -> dims, each a size key (str) or a constant (int)."""
    shapes1, s1 = _probe(w, 20)
    shapes2, s2 = _probe(w, 40)
    by1 = {v: k for k, v in s1.items()}
    by2 = {v: k for k, v in s2.items()}
    out: dict[str, tuple[str | int, ...]] = {}
    for name, dims1 in shapes1.items():
        dims2 = shapes2[name]
        tpl: list[str | int] = []
        for d1, d2 in zip(dims1, dims2, strict=True):
            if d1 in by1 and by2.get(d2) == by1[d1]:
                tpl.append(by1[d1])
            elif d1 == d2:
                tpl.append(int(d1))
            else:
                raise ValueError(f"{w.name}: dim of '{name}' ({d1} / {d2}) is no size key nor a constant")
        out[name] = tuple(tpl)
    return out


def concrete_shape(tpl: tuple[str | int, ...], sizes: dict[str, int]) -> tuple[int, ...]:
    return tuple(int(sizes[d]) if isinstance(d, str) else d for d in tpl)


# ---------------------------------------------------------------------------
# graph symbols from the host function
# ---------------------------------------------------------------------------

_INT_OPS = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.DivSIOp: lambda a, b: int(a / b),
    arith.DivUIOp: lambda a, b: a // b,
    arith.FloorDivSIOp: lambda a, b: a // b,
    arith.CeilDivSIOp: lambda a, b: -(-a // b),
    arith.RemSIOp: lambda a, b: int(math.fmod(a, b)),
    arith.MaxSIOp: max,
    arith.MinSIOp: min,
}


class HostValues:
    """Evaluates index SSA values of a host function at given sizes."""

    def __init__(self, fn: func.FuncOp, w: Workload, sizes: dict[str, int], loop_index: str):
        self.fn = fn
        self.w = w
        self.sizes = sizes
        self.loop_index = loop_index

    def value(self, v: SSAValue) -> int:
        if isinstance(v, BlockArgument):
            owner = v.block.parent_op()
            if owner is self.fn:
                return int(self.sizes[self.w.args[v.index]])
            if isinstance(owner, scf.ForOp) and v.index == 0:
                lb, ub = self.value(owner.lb), self.value(owner.ub)
                if ub <= lb:
                    raise ValueError(f"empty loop range [{lb}, {ub})")
                pick = {"first": lb, "middle": lb + (ub - lb) // 2, "last": ub - 1}[self.loop_index]
                return pick
            raise ValueError(f"cannot evaluate block argument {v.index} of {owner.name if owner else '?'}")
        assert isinstance(v, OpResult)
        op = v.op
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
            return int(op.value.value.data)
        if type(op) in _INT_OPS:
            return int(_INT_OPS[type(op)](self.value(op.lhs), self.value(op.rhs)))
        raise ValueError(f"cannot evaluate '{op.name}' on the host")

    def loop_var(self, v: SSAValue) -> bool:
        return isinstance(v, BlockArgument) and isinstance(v.block.parent_op(), scf.ForOp) and v.index == 0


def graph_inputs(g: tdfg.GraphOp, host: HostValues, templates, sizes) -> tuple[dict[str, int], dict[int, tuple[int, ...]], list[str]]:
    syms = g.symbol_names()
    bind: dict[str, int] = {}
    loops: list[str] = []
    for name, operand in zip(g.names, g.scalars):
        if name in syms:
            bind[name] = host.value(operand)
            if host.loop_var(operand):
                loops.append(f"{name}={bind[name]}")
    shapes: dict[int, tuple[int, ...]] = {}
    for i, a in enumerate(g.arrays):
        if isinstance(a, BlockArgument) and a.block.parent_op() is host.fn:
            shapes[i] = concrete_shape(templates[host.w.args[a.index]], sizes)
    return bind, shapes, loops


# ---------------------------------------------------------------------------
# measurement
# ---------------------------------------------------------------------------


def one_line(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def _call(fn) -> tuple[object, float, float]:
    c0, t0 = time.thread_time(), time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0, time.thread_time() - c0


def measure(g, bind, cfg, shapes, repeat: int, memo_repeat: int) -> dict:
    """First-call and memoized lowering times of one graph (or its error): wall and CPU."""
    row: dict = {}
    call = lambda: jit.lower(g, bind, cfg, None, shapes)  # noqa: E731 -- as driver.plan_in_memory calls it
    try:
        jit.clear_cache()
        low, wall, _ = _call(call)
        row["cold_ms"] = wall * 1e3
    except Exception as e:  # a lowering failure is a result, not a crash
        row["error"] = one_line(e)
        return row
    unfrozen = []  # the heap walked by each collection: nothing frozen (as before the runtime froze it)
    for _ in range(repeat):
        jit.clear_cache(facts=False)
        gc.collect()
        unfrozen.append(_call(call)[1])
    # the rest as run_program makes the calls: the program's objects frozen (infs.runtime.heap)
    with frozen_heap():
        fresh, firsts, first_cpu = [], [], []
        for _ in range(repeat):
            jit.clear_cache(facts=True)
            gc.collect()
            fresh.append(_call(call)[1])
        for _ in range(repeat):
            jit.clear_cache(facts=False)
            gc.collect()
            low, wall, cpu = _call(call)
            firsts.append(wall)
            first_cpu.append(cpu)
        warm = []  # back to back, no gc.collect() between (CPU caches warm)
        for _ in range(repeat):
            jit.clear_cache(facts=False)
            low, wall, _ = _call(call)
            warm.append(wall)
        memo, memo_cpu = [], []
        for _ in range(memo_repeat):
            hit, wall, cpu = _call(call)
            memo.append(wall)
            memo_cpu.append(cpu)
        assert hit is low and jit.cache_stats()["hits"] == memo_repeat, "memoized call missed the cache"
        memo_gc = [(gc.collect(), _call(call)[1])[1] for _ in range(repeat)]  # a cache hit after a collection
    first, fcpu = statistics.median(firsts), statistics.median(first_cpu)
    mwall, mcpu = statistics.median(memo), statistics.median(memo_cpu)
    row.update(
        nodes=low.nodes,
        commands=low.commands,
        first_ms=first * 1e3,
        best_ms=min(firsts) * 1e3,
        warm_ms=statistics.median(warm) * 1e3,
        unfrozen_ms=statistics.median(unfrozen) * 1e3,
        first_cpu_ms=fcpu * 1e3,
        internal_ms=low.seconds * 1e3,
        memo_us=mwall * 1e6,
        memo_cpu_us=mcpu * 1e6,
        memo_after_gc_us=statistics.median(memo_gc) * 1e6,
        us_per_node=first * 1e6 / low.nodes,
        new_graph_ms=statistics.median(fresh) * 1e3,
        new_graph_us_per_node=statistics.median(fresh) * 1e6 / low.nodes,
        cpu_us_per_node=fcpu * 1e6 / low.nodes,
        us_per_cmd=first * 1e6 / low.commands if low.commands else float("nan"),
        cpu_us_per_cmd=fcpu * 1e6 / low.commands if low.commands else float("nan"),
        memo_us_per_node=mwall * 1e6 / low.nodes,
    )
    return row


def prepare(w: Workload):
    module = api.parse_file(w.path)
    TensorizePass().apply(Context(), module)
    fn = next(op for op in module.walk() if isinstance(op, func.FuncOp) and op.sym_name.data == w.entry)
    graphs = [op for op in fn.walk() if isinstance(op, tdfg.GraphOp)]
    # regions tensorize left as streams: run near-memory by the runtime, no JIT
    streams = [op for op in fn.walk() if isinstance(op, stream.RegionOp)]
    return module, fn, graphs, streams


def graph_label(g: tdfg.GraphOp, i: int) -> str:
    return f"#{i} ({','.join(a.name_hint or '?' for a in g.arrays)})"


def run_workload(w: Workload, cfg, args, sizes: dict[str, int] | None = None) -> list[dict]:
    sizes = sizes or w.sizes("paper")
    rows = []
    try:
        _module, fn, graphs, streams = prepare(w)
        templates = shape_templates(w)
    except Exception as e:
        return [{"workload": w.name, "graph": "-", "error": one_line(e)}]
    if not graphs and not streams:
        return [{"workload": w.name, "graph": "-", "note": "no tdfg.graph and no stream.region"}]
    for r in streams:
        reason = r.attributes.get(NOT_TENSORIZED)
        rows.append({
            "workload": w.name, "graph": "stream.region",
            "note": f"not tensorized (no JIT): {reason.data if reason else 'unknown'}",
        })  # fmt: skip
    host = HostValues(fn, w, sizes, args.loop_index)
    for i, g in enumerate(graphs):
        row = {"workload": w.name, "graph": graph_label(g, i)}
        try:
            bind, shapes, loops = graph_inputs(g, host, templates, sizes)
        except Exception as e:
            rows.append(row | {"error": one_line(e)})
            continue
        row["sizes"] = " ".join(f"{k}={v}" for k, v in sorted(bind.items()))
        row["loop_vars"] = " ".join(loops)
        row["shapes"] = " ".join("x".join(map(str, s)) for _, s in sorted(shapes.items()))
        row["elements"] = max((math.prod(s) for s in shapes.values()), default=0)
        row |= measure(g, bind, cfg, shapes, args.repeat, args.memo_repeat)
        rows.append(row)
    return rows


def scaled_sizes(w: Workload, templates, factor: float) -> dict[str, int]:
    """Paper sizes with every array-size key scaled so the element count scales by ``factor``."""
    paper = w.sizes("paper")
    keys = sorted({d for t in templates.values() for d in t if isinstance(d, str)})
    rank = max(sum(isinstance(d, str) for d in t) for t in templates.values())
    per_dim = factor ** (1.0 / rank)
    return {k: (max(1, round(v * per_dim)) if k in keys else v) for k, v in paper.items()}


SCALES = (("paper/64", 1 / 64), ("paper/16", 1 / 16), ("paper/4", 1 / 4), ("paper", 1.0))


def scaling_points(w: Workload, cfg, args) -> list[dict]:
    """One workload at every ``SCALES`` size; the sizes are measured round-robin
    (each repeat visits every size, in a rotating order) so that a change in
    the machine's load during the run does not show up as a trend."""
    _, fn, graphs, _ = prepare(w)
    templates = shape_templates(w)
    points = []
    for label, factor in SCALES:
        sz = scaled_sizes(w, templates, factor)
        rec = {"workload": w.name, "graph": f"scaling {label}", "size": label, "sizes": " ".join(f"{k}={sz[k]}" for k in sorted(sz))}
        host = HostValues(fn, w, sz, args.loop_index)
        calls = []
        try:
            for g in graphs:
                bind, shapes, _ = graph_inputs(g, host, templates, sz)
                calls.append(lambda g=g, bind=bind, shapes=shapes: jit.lower(g, bind, cfg, None, shapes))
            jit.clear_cache(facts=False)
            lows = [c() for c in calls]
        except Exception as e:
            rec["error"] = one_line(e)
            points.append((rec, []))
            continue
        if not graphs:
            rec["error"] = "no tdfg.graph"
        else:
            rec |= {
                "elements": max(math.prod(concrete_shape(t, sz)) for t in templates.values()),
                "nodes": sum(lo.nodes for lo in lows),
                "commands": sum(lo.commands for lo in lows),
            }
        points.append((rec, calls))
    live = [(rec, calls) for rec, calls in points if "error" not in rec]
    first = {id(rec): [[] for _ in calls] for rec, calls in live}
    first_cpu = {id(rec): [[] for _ in calls] for rec, calls in live}
    with frozen_heap():  # as run_program calls the JIT
        for rep in range(args.repeat):
            for j in range(len(live)):
                rec, calls = live[(rep + j) % len(live)]
                for i, c in enumerate(calls):
                    jit.clear_cache(facts=False)
                    gc.collect()
                    _, wall, cpu = _call(c)
                    first[id(rec)][i].append(wall)
                    first_cpu[id(rec)][i].append(cpu)
    jit.clear_cache()
    for _, calls in live:
        for c in calls:
            c()  # fill the cache for every size
    memo: dict[int, list[float]] = {id(rec): [] for rec, _ in live}
    for _ in range(args.memo_repeat):
        for rec, calls in live:
            for c in calls:
                memo[id(rec)].append(_call(c)[1])
    for rec, _ in live:
        rec["first_ms"] = sum(statistics.median(ts) for ts in first[id(rec)]) * 1e3
        rec["first_cpu_ms"] = sum(statistics.median(ts) for ts in first_cpu[id(rec)]) * 1e3
        rec["best_cpu_ms"] = sum(min(ts) for ts in first_cpu[id(rec)]) * 1e3
        rec["memo_us"] = statistics.median(memo[id(rec)]) * 1e6
        rec["us_per_cmd"] = rec["first_ms"] * 1e3 / rec["commands"] if rec["commands"] else float("nan")
        rec["us_per_node"] = rec["first_ms"] * 1e3 / rec["nodes"]
    return [rec for rec, _ in points]


# ---------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------


def fmt(v, spec: str) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return format(v, spec)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workloads", default=",".join(WORKLOADS), help="comma-separated (default: all)")
    ap.add_argument("--config", default="paper-64")
    ap.add_argument("--repeat", type=int, default=7, help="first-call lowerings per graph (median)")
    ap.add_argument("--memo-repeat", type=int, default=1000, help="memoized calls per graph (median)")
    ap.add_argument("--loop-index", choices=("first", "middle", "last"), default="middle",
                    help="value of host loop indices (k, j, i) bound as symbols")  # fmt: skip
    ap.add_argument("--scaling", default="vec_add,stencil2d", help="workloads for the size-scaling check ('' to skip)")
    ap.add_argument("--csv", type=Path, default=OUT)
    args = ap.parse_args(argv)

    names = [n.strip() for n in args.workloads.split(",") if n.strip()]
    scale_names = [n.strip() for n in args.scaling.split(",") if n.strip()]
    unknown = [n for n in names + scale_names if n not in WORKLOADS]
    if unknown:
        ap.error(f"unknown workload(s) {', '.join(unknown)} (known: {', '.join(WORKLOADS)})")
    if args.repeat < 1 or args.memo_repeat < 1:
        ap.error("--repeat and --memo-repeat must be >= 1")
    cfg = load_config(args.config)
    console = Console(width=max(Console().width, 160))
    load0 = os.getloadavg()[0]

    rows: list[dict] = []
    for n in names:
        rows.extend(run_workload(WORKLOADS[n], cfg, args))

    t = Table(
        title=f"JIT lowering at paper size on {cfg.name}: first call median of {args.repeat}, "
        f"memoized median of {args.memo_repeat}; wall (perf_counter) and CPU (thread_time); "
        f"host loop indices = {args.loop_index}"
    )
    cols = [
        "workload", "graph", "sizes", "nodes", "cmds", "first ms", "first CPU ms",
        "µs/node", "CPU µs/node", "µs/cmd", "new graph µs/node", "memo µs", "memo CPU µs",
    ]  # fmt: skip
    for col in cols:
        t.add_column(col, justify="left" if col in ("workload", "graph", "sizes") else "right", overflow="fold")
    blank = [""] * (len(cols) - 3)
    for r in rows:
        if "note" in r:
            note = r["note"] if len(r["note"]) <= 90 else r["note"][:89] + "…"  # whole in the CSV
            t.add_row(r["workload"], r["graph"], f"[dim]{note}[/dim]", *blank)
        elif "error" in r:
            t.add_row(r["workload"], r["graph"], f"[red]{r['error']}[/red]", *blank)
        else:
            t.add_row(
                r["workload"], r["graph"], r["sizes"], str(r["nodes"]), str(r["commands"]),
                fmt(r["first_ms"], ".2f"), fmt(r["first_cpu_ms"], ".2f"), fmt(r["us_per_node"], ".0f"),
                fmt(r["cpu_us_per_node"], ".0f"), fmt(r["us_per_cmd"], ".0f"), fmt(r["new_graph_us_per_node"], ".0f"), fmt(r["memo_us"], ".2f"),
                fmt(r["memo_cpu_us"], ".2f"),
            )  # fmt: skip
    console.print(t)

    ok = [r for r in rows if "nodes" in r]
    failed = [r for r in rows if "error" in r]
    if ok:
        med = lambda key: statistics.median(r[key] for r in ok if not math.isnan(r[key]))  # noqa: E731
        s = {
            k: med(k)
            for k in ("us_per_node", "cpu_us_per_node", "us_per_cmd", "cpu_us_per_cmd", "memo_us", "memo_cpu_us", "memo_us_per_node",
                      "new_graph_us_per_node")
        }
        met_first = s["us_per_node"] <= TARGET_FIRST_US_PER_NODE
        met_memo = s["memo_us"] <= TARGET_MEMO_US
        console.print(
            f"{len(ok)} graphs lowered, {len(failed)} failed, {sum('note' in r for r in rows)} regions left as streams; "
            f"{sum(r['nodes'] for r in ok)} nodes, {sum(r['commands'] for r in ok)} commands, "
            f"{sum(r['first_ms'] for r in ok):.1f} ms of first calls in all"
        )
        g_wall, g_cpu = med("first_ms") * 1e3, med("first_cpu_ms") * 1e3
        met_graph = g_wall <= TARGET_FIRST_US_PER_GRAPH
        console.print(
            f"median per graph, first call: {g_wall:.0f} µs wall ({g_cpu:.0f} CPU); new graph {med('new_graph_ms') * 1e3:.0f} µs wall -- "
            f"target ≤ {TARGET_FIRST_US_PER_GRAPH:.0f} µs/graph: {'met' if met_graph else 'MISSED'}"
        )
        console.print(
            f"median per graph, first call back to back (no gc.collect() before it: CPU caches warm): {med('warm_ms') * 1e3:.0f} µs wall; "
            f"after a gc.collect() that walks the whole heap (nothing frozen, unlike run_program): {med('unfrozen_ms') * 1e3:.0f} µs wall"
        )
        console.print(
            f"median over graphs, first call: {s['us_per_node']:.0f} µs/node wall ({s['cpu_us_per_node']:.0f} CPU), "
            f"{s['us_per_cmd']:.0f} µs/command wall ({s['cpu_us_per_cmd']:.0f} CPU) -- "
            f"target ≤ {TARGET_FIRST_US_PER_NODE:.0f} µs/node: {'met' if met_first else 'MISSED'}"
        )
        met_new = s["new_graph_us_per_node"] <= TARGET_FIRST_US_PER_NODE
        console.print(
            f"median over graphs, first call of a never-seen graph (graph facts read too): {s['new_graph_us_per_node']:.0f} µs/node wall -- "
            f"target ≤ {TARGET_FIRST_US_PER_NODE:.0f} µs/node: {'met' if met_new else 'MISSED'}"
        )
        console.print(
            f"median over graphs, memoized call: {s['memo_us']:.2f} µs wall ({s['memo_cpu_us']:.2f} CPU), "
            f"{s['memo_us_per_node']:.2f} µs/node -- target ≤ {TARGET_MEMO_US:.0f} µs/call: {'met' if met_memo else 'MISSED'}; "
            f"after gc.collect() (caches cold): {med('memo_after_gc_us'):.1f} µs wall"
        )

    scaling: list[dict] = []
    if scale_names:
        st = Table(title=f"Scaling on {cfg.name}: element count paper/64 .. paper, all graphs of the workload summed; "
            f"sizes interleaved, first call median (and best) of {args.repeat}, memoized median of {args.memo_repeat}")
        scols = [
            "workload", "size", "sizes", "elements", "nodes", "cmds", "first ms", "first CPU ms", "best CPU ms", "µs/cmd", "memo µs",
        ]  # fmt: skip
        for col in scols:
            st.add_column(col, justify="left" if col in ("workload", "size", "sizes") else "right")
        for n in scale_names:
            for rec in scaling_points(WORKLOADS[n], cfg, args):
                if "error" in rec:
                    st.add_row(n, rec["size"], rec["sizes"], f"[red]{rec['error']}[/red]", *[""] * (len(scols) - 4))
                else:
                    st.add_row(
                        n, rec["size"], rec["sizes"], f"{rec['elements']:,}", str(rec["nodes"]), str(rec["commands"]),
                        fmt(rec["first_ms"], ".2f"), fmt(rec["first_cpu_ms"], ".2f"), fmt(rec["best_cpu_ms"], ".2f"),
                        fmt(rec["us_per_cmd"], ".0f"), fmt(rec["memo_us"], ".2f"),
                    )  # fmt: skip
                scaling.append(rec)
        console.print(st)

    load1 = os.getloadavg()[0]
    console.print(f"host: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
                  f"1-min load average {load0:.2f} at start, {load1:.2f} at end")  # fmt: skip

    args.csv.parent.mkdir(parents=True, exist_ok=True)
    fields = [
        "workload", "graph", "sizes", "loop_vars", "shapes", "elements", "nodes", "commands",
        "first_ms", "best_ms", "warm_ms", "unfrozen_ms", "first_cpu_ms", "best_cpu_ms", "cold_ms", "internal_ms", "us_per_node", "cpu_us_per_node",
        "new_graph_ms", "new_graph_us_per_node",
        "us_per_cmd", "cpu_us_per_cmd", "memo_us", "memo_cpu_us", "memo_us_per_node", "memo_after_gc_us", "note", "error",
    ]  # fmt: skip
    with args.csv.open("w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        wr.writeheader()
        for r in rows + scaling:
            wr.writerow({k: (f"{v:.4g}" if isinstance(v, float) else v) for k, v in r.items()})
    console.print(f"wrote {args.csv}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
