"""The PointNet++ case study (ASPLOS'23 §8 "Case Study of PointNet++", Table 4, Fig. 19).

    python -m infs.tools.bench_pointnet [--size-set paper|small] [--nets ssg,msg] [--check]

Runs every stage program of ``infs.workloads.pointnet`` (furthest point
sampling, ball query, gather, MLP, aggregate of each set abstraction, then the
classifier's FCx3) of the SSG and MSG classifiers under the paper's Base,
Near-L3, In-L3 and Inf-S configurations (infs-bench's, ``bench_defs.CONFIGS``) on
``paper-64``, each stage on its own with the inputs the numpy reference
computed for it, and gives:

* ``study(...)`` -- one row per stage call and configuration: cycles, where the
  cycles ran (in memory, near memory, on the cores), wall time, and (with
  ``check``) whether the outputs match the reference;
* ``summary(rows)`` -- per network the totals normalized to Base, the stage
  kinds' shares of Base's time and their speedups, beside the paper's numbers;
* ``markdown(rows)`` -- the section infs-bench writes into REPRODUCTION.md.

Timing comes from the machine's analysis mode (no data computed): a stage's
cycles do not depend on its values, except furthest point sampling, whose host
loop reads each centroid the argmax found, so sampling runs functionally.
``--check`` runs every stage functionally and compares each output with the
reference (slow at paper size; the tests do it at small sizes).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from infs.tools.bench_csv import read_csv, write_csv
from infs.tools.bench_defs import CONFIGS as BENCH_CONFIGS

PROG = "bench_pointnet"
STUDY_CONFIGS = ("base", "near", "in", "infs")

# ASPLOS'23 §8 "Case Study of PointNet++" (the text's numbers; Fig. 19's bars are images).
PAPER_POINTNET: dict[str, float] = {
    "ssg_in_over_base": 1.10,  # "In-L3 only yields a 10% speedup over Base"
    "ssg_near_over_base": 1.31,  # "31% performance improvement for Near-L3 over Base"
    "ssg_infs_over_base": 1.69,  # Fig. 19(a)
    "ssg_sample_share_base": 0.46,  # "furthest sampling takes 46% of the total runtime"
    "ssg_mlp_share_base": 0.48,  # "it only takes 48% of the total runtime in Base"
    "ssg_near_over_base_sample": 3.1,  # "near-memory computing ... achieves 3.1x speedup for sampling"
    "msg_in_over_base": 1.37,  # "In-L3 and Near-L3 achieve 37% and 12% speedup over Base"
    "msg_near_over_base": 1.12,
    "msg_infs_over_base": 1.93,  # Fig. 19(b)
}
KIND_LABEL = {"sample": "furthest sample", "ball_query": "ball query", "gather": "gather", "mlp": "MLP", "aggregate": "aggregate", "fc": "FCx3"}
_WHERE = (("in", "in memory"), ("near", "near memory"), ("core", "cores"))


# name -> (label, runtime mode, charge the JIT, optimize-tdfg): infs-bench's configurations
# (ASPLOS'23 §7 "Parameters and Configurations"), the four Fig. 19 shows.
CONFIGS: dict[str, tuple[str, str, bool, bool]] = {c: BENCH_CONFIGS[c] for c in STUDY_CONFIGS}


def _kind(call) -> str:
    return "fc" if call.sa == "FC" else call.kind


_MODULES: dict[str, Any] = {}


def _module(call):
    from infs import api

    key = str(call.path)
    if key not in _MODULES:
        _MODULES[key] = api.parse_file(call.path)
    return _MODULES[key]


def _close(out: np.ndarray, ref: np.ndarray, tol: float) -> tuple[bool, float]:
    """(matches, max abs error): exact for integers, float32 tolerance scaled by the reference's magnitude."""
    if out.shape != ref.shape:
        return False, float("inf")
    if ref.size == 0:
        return True, 0.0
    if not np.issubdtype(ref.dtype, np.floating):
        return bool(np.array_equal(out, ref)), float(np.abs(out.astype(np.int64) - ref.astype(np.int64)).max())
    err = float(np.abs(out.astype(np.float64) - ref).max())
    return bool(np.allclose(out, ref, rtol=tol, atol=tol * max(1.0, float(np.abs(ref).max())))), err


def run_call(call, config: str, machine: Any = "paper-64", functional: bool | None = None) -> dict[str, Any]:
    """One stage call under one configuration: its row (cycles, cycles by where
    they ran, outputs match the reference when run functionally)."""
    from infs.runtime import jit
    from infs.runtime.driver import RunOptions, run_program

    label, mode, charge, optimize = CONFIGS[config]
    if functional is None:
        functional = call.kind == "sample"  # the host reads the argmax: data needed (module docstring)
    args = call.fresh_args()
    jit.clear_cache()
    options = RunOptions(config=machine, mode=mode, jit=charge, optimize=optimize, machine_mode="functional" if functional else "analysis", warm=True)
    t0 = time.perf_counter()
    rep = run_program(_module(call), args, call.entry, options)
    wall = time.perf_counter() - t0
    by = {m: 0 for m, _ in _WHERE}
    for r in rep.regions:
        by[r.mode] = by.get(r.mode, 0) + r.cycles
    row: dict[str, Any] = {
        "net": call.net, "level": call.level, "sa": call.sa, "kind": _kind(call), "stage": call.label, "config": config, "label": label,
        "cycles": int(rep.stats.total_cycles), **{f"cyc_{m}": int(v) for m, v in by.items()},
        "regions": len(rep.regions), **{f"regions_{m}": sum(1 for r in rep.regions if r.mode == m) for m, _ in _WHERE},
        "machine_mode": options.machine_mode, "wall_s": wall,
    }  # fmt: skip
    if functional:
        errs, ok = [], True
        for name, got in call.outputs_of(args).items():
            good, err = _close(got, call.expected[name], call.tol)
            ok &= good
            errs.append(err)
        row["check"] = "match" if ok else "MISMATCH"
        row["max_error"] = max(errs, default=0.0)
    return row


def where(row: dict[str, Any]) -> str:
    """Where a run's region cycles went: "in memory", "near memory 70%, cores 30%" ..."""
    tot = sum(row[f"cyc_{m}"] for m, _ in _WHERE)
    if not tot:
        return "-"
    parts = [(row[f"cyc_{m}"] / tot, name) for m, name in _WHERE if row[f"cyc_{m}"]]
    parts.sort(reverse=True)
    if parts[0][0] >= 0.995:
        return parts[0][1]
    return ", ".join(f"{name} {100 * f:.0f}%" for f, name in parts if f >= 0.005)


def study(size_set: str = "paper", nets: tuple[str, ...] = ("ssg", "msg"), configs: tuple[str, ...] = STUDY_CONFIGS, seed: int = 0,
          machine: Any = "paper-64", check: bool = False, progress=None) -> list[dict[str, Any]]:  # fmt: skip
    """Every stage call of each network under each configuration: the rows."""
    from infs.workloads import pointnet as pn

    table = {("ssg", "paper"): pn.SSG, ("msg", "paper"): pn.MSG, ("ssg", "small"): pn.SMALL_SSG, ("msg", "small"): pn.SMALL_MSG}
    rows = []
    for name in nets:
        for call in pn.network_calls(table[(name, size_set)], seed):
            for c in configs:
                t0 = time.perf_counter()
                try:
                    r = run_call(call, c, machine, functional=True if check else None)
                except Exception as e:  # a failing run is a row with its error, not the end of the study (as in infs-bench)
                    if os.environ.get("INFS_DEBUG"):
                        raise
                    text = str(e).strip()
                    r = {"net": call.net, "level": call.level, "sa": call.sa, "kind": _kind(call), "stage": call.label, "config": c,
                         "label": CONFIGS[c][0], "error": f"{type(e).__name__}: {text.splitlines()[0] if text else ''}"[:300],
                         "machine_mode": "", "wall_s": time.perf_counter() - t0}  # fmt: skip
                r["size_set"] = size_set
                r["machine"] = machine if isinstance(machine, str) else getattr(machine, "name", str(machine))
                rows.append(r)
                if progress:
                    progress(f"{name} {r['stage']} {r['label']}: " + (f"FAILED {r['error']}" if "error" in r else
                             f"{r['cycles']:,} cycles ({where(r)}), {r['wall_s']:.1f} s"))  # fmt: skip
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per network: total cycles per configuration, per stage kind cycles per
    configuration, and the quantities the paper gives."""
    out: dict[str, dict[str, Any]] = {}
    for r in rows:
        s = out.setdefault(r["net"], {"total": {}, "kind": {}, "failed": set()})
        k = s["kind"].setdefault(r["kind"], {})
        if "error" in r:  # a configuration with a failed stage has no total (nor that stage kind)
            s["failed"] |= {r["config"], (r["kind"], r["config"])}
            continue
        s["total"][r["config"]] = s["total"].get(r["config"], 0) + r["cycles"]
        k[r["config"]] = k.get(r["config"], 0) + r["cycles"]
    for s in out.values():
        for f in s["failed"]:
            if isinstance(f, tuple):
                s["kind"][f[0]].pop(f[1], None)
            else:
                s["total"].pop(f, None)
    for net, s in out.items():
        base = s["total"].get("base")
        ours: dict[str, float] = {}
        if base:
            for c in ("in", "near", "infs"):
                if s["total"].get(c):
                    ours[f"{net}_{c}_over_base"] = base / s["total"][c]
            for kind in ("sample", "mlp"):
                if kind in s["kind"] and "base" in s["kind"][kind]:
                    ours[f"{net}_{kind}_share_base"] = s["kind"][kind]["base"] / base
            smp = s["kind"].get("sample", {})
            if smp.get("base") and smp.get("near"):
                ours[f"{net}_near_over_base_sample"] = smp["base"] / smp["near"]
        s["ours"] = ours
    return out


def _fmt(x: float, key: str) -> str:
    return f"{100 * x:.0f}%" if "share" in key else f"{x:.2f}x"


_WHAT = {
    "ssg_in_over_base": "SSG: In-L3 over Base", "ssg_near_over_base": "SSG: Near-L3 over Base", "ssg_infs_over_base": "SSG: Inf-S over Base",
    "ssg_sample_share_base": "SSG: furthest sample's share of Base", "ssg_mlp_share_base": "SSG: MLP's share of Base (SAs)",
    "ssg_near_over_base_sample": "SSG: Near-L3 over Base on sampling",
    "msg_in_over_base": "MSG: In-L3 over Base", "msg_near_over_base": "MSG: Near-L3 over Base", "msg_infs_over_base": "MSG: Inf-S over Base",
}  # fmt: skip


def markdown(rows: list[dict[str, Any]], wall_s: float | None = None, heading: str = "##", figure: str | None = None) -> list[str]:
    """The study as markdown lines: the paper's numbers beside ours, then per network the stages' table."""
    if not rows:
        return [f"{heading} PointNet++ (§8 case study, Table 4, Fig. 19)", "", "(not run)", ""]
    configs = [c for c in STUDY_CONFIGS if any(r["config"] == c for r in rows)]
    labels = {r["config"]: r["label"] for r in rows}
    summ = summary(rows)
    size_set = rows[0].get("size_set", "paper")
    lines = [f"{heading} PointNet++ (§8 case study, Table 4, Fig. 19)", ""]
    lines += [
        "Generated by `infs.tools.bench_pointnet` (`python -m infs.tools.bench_pointnet`): the "
        + " and ".join(n.upper() for n in summ) + f" classifier{'s' if len(summ) > 1 else ''} of Table 4 on "
        + ("4k random points in [0, 1)^3 (§8), " if size_set == "paper" else f"test sizes ({', '.join(f'`SMALL_{n.upper()}`' for n in summ)}), ")
        + f"each stage of each set abstraction one program of `infs/workloads/pointnet/` run on its own on {rows[0].get('machine', 'paper-64')} with the inputs the numpy "
        f"reference computed for it, under {', '.join(labels[c] for c in configs)} ("
        + ("every stage run functionally and its outputs checked" if all(r["machine_mode"] == "functional" for r in rows)
           else "timing in analysis mode; furthest point sampling runs functionally, its host loop reads each argmax")
        + "). Every cycle below is a region's (in memory, near memory or on the cores, as the runtime ran it); the host's scalar work "
        "between regions (the sampling loop's coordinate loads, loop control) is not charged. What each program models and what it "
        "does not: docs/pointnet.md."
        + (f" Wall time {wall_s / 60:.1f} min." if wall_s is not None else ""),
        "",
        "| quantity | paper | ours | ours / paper |",
        "|---|---:|---:|---:|",
    ]  # fmt: skip
    ours_all: dict[str, float] = {}
    for s in summ.values():
        ours_all.update(s["ours"])
    for key, paper in PAPER_POINTNET.items():
        if key.split("_")[0] not in summ:
            continue
        mine = ours_all.get(key)
        lines.append(f"| {_WHAT[key]} | {_fmt(paper, key)} | {_fmt(mine, key) if mine is not None else '-'} | "
                     f"{f'{mine / paper:.2f}' if mine is not None else '-'} |")  # fmt: skip
    lines.append("")
    if figure:
        lines += [f"![Fig. 19: PointNet++ timeline per configuration]({figure})", "",
                  "(Fig. 19's form: each network's stages in order, normalized to Base's total; colour: the stage kind; "
                  "hatching: where most of the stage's cycles ran, none for the cores, // near memory, xx in memory.)", ""]  # fmt: skip
    for net, s in summ.items():
        base = s["total"].get("base")
        lines += [f"**{net.upper()}** -- per stage: cycles, and where they ran.", ""]
        lines.append("| stage | " + " | ".join(labels[c] for c in configs) + " |")
        lines.append("|---|" + "---:|" * len(configs))
        by_stage: dict[str, dict[str, dict]] = {}
        for r in rows:
            if r["net"] == net:
                by_stage.setdefault(r["stage"], {})[r["config"]] = r
        for stage, per in by_stage.items():
            cells = [("FAILED" if "error" in per[c] else f"{per[c]['cycles']:,} ({where(per[c])})") if c in per else "-" for c in configs]
            lines.append(f"| {stage} | " + " | ".join(cells) + " |")
        tot = [(f"**{s['total'][c]:,}**" + (f" ({base / s['total'][c]:.2f}x)" if base else "")) if s["total"].get(c) else "incomplete" for c in configs]
        lines.append("| **total** (speedup over Base) | " + " | ".join(tot) + " |")
        lines += ["", f"**{net.upper()}** -- per stage kind: share of Base's cycles, speedup over Base.", ""]
        lines.append("| stage kind | share of Base | " + " | ".join(labels[c] for c in configs if c != "base") + " |")
        lines.append("|---|---:|" + "---:|" * (len(configs) - 1))
        for kind, per in s["kind"].items():
            b = per.get("base")
            share = f"{100 * b / base:.1f}%" if b and base else "-"
            sp = [f"{b / per[c]:.2f}x" if b and per.get(c) else "-" for c in configs if c != "base"]
            lines.append(f"| {KIND_LABEL.get(kind, kind)} | {share} | " + " | ".join(sp) + " |")
        lines.append("")
    lines += _why([r for r in rows if "error" not in r], summ)
    failed = [r for r in rows if "error" in r]
    if failed:
        lines += ["Failed runs (no cycles; their configuration's total is incomplete):", ""]
        lines += [f"- {r['net'].upper()} {r['stage']}, {r['label']}: {r['error']}" for r in failed] + [""]
    bad = [r for r in rows if r.get("check") == "MISMATCH"]
    if any("check" in r for r in rows):
        lines += [f"Outputs checked against the numpy reference: {sum(1 for r in rows if r.get('check') == 'match')} runs match"
                  + (f", {len(bad)} do not ({', '.join(sorted({r['stage'] for r in bad}))})." if bad else "."), ""]  # fmt: skip
    return lines


def _why(rows: list[dict[str, Any]], summ: dict[str, dict[str, Any]]) -> list[str]:
    """Why ours differ from the paper, from the rows' own numbers."""
    out = []
    base = {(r["net"], r["stage"]): r for r in rows if r["config"] == "base"}
    for net, s in summ.items():
        b = s["total"].get("base")
        smp = [r for (n, _), r in base.items() if n == net and r["kind"] == "sample"]
        if b and smp:
            steps = sum(r["regions"] for r in smp) / 2  # two regions per centroid (fps.mlir), plus the init and the gather
            cyc = sum(r["cycles"] for r in smp)
            out.append(f"- {net.upper()} sampling on Base: {cyc:,} cycles, {cyc / max(steps, 1):,.0f} per centroid step (a distance update and an "
                       f"argmax, each a parallel region with a fork/join barrier in the core model), {100 * cyc / b:.1f}% of Base."
                       + (" The paper's 46% comes from OpenMP synchronization and L1 misses per step; infs/sim/core/baseline.py charges each "
                          "region's fork and join (libomp's hyper barrier over the whole team, core.forkjoin_cycles) and its lines from "
                          "the L3, not the runtime's own instructions." if net == "ssg" else ""))  # fmt: skip
        mlp = s["kind"].get("mlp", {})
        if b and mlp.get("base"):
            sp = ", ".join(f"{CONFIGS[c][0]} {mlp['base'] / mlp[c]:.2f}x" for c in ("near", "in", "infs") if mlp.get(c))
            out.append(f"- {net.upper()} MLP: {100 * mlp['base'] / b:.0f}% of Base; over Base {sp}. With sampling cheap on Base, "
                       "the MLP's speedups set the totals.")  # fmt: skip
        bq = s["kind"].get("ball_query", {})
        if b and bq.get("base"):
            out.append(f"- {net.upper()} ball query: {100 * bq['base'] / b:.1f}% of Base, as N min-reductions over K x P in every "
                       "configuration (a core's early-exit scan is not a stream program; docs/pointnet.md).")  # fmt: skip
    return (["Why they differ:", "", *out, ""]) if out else []


_KIND_COLOR = {"sample": "#1f77b4", "ball_query": "#ff7f0e", "gather": "#2ca02c", "mlp": "#d62728", "aggregate": "#9467bd", "fc": "#8c564b"}
_HATCH = {"core": "", "near": "//", "in": "xx"}


def timeline_plot(rows: list[dict[str, Any]], path: Path) -> Path | None:
    """Fig. 19's timeline: per network and configuration, the stages in order as
    bars normalized to Base's total, colored by stage kind, hatched by where most
    of each stage's cycles ran (none: cores, //: near memory, xx: in memory)."""
    ok = [r for r in rows if "error" not in r]
    nets = list(dict.fromkeys(r["net"] for r in ok))
    if not nets:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    configs = [c for c in STUDY_CONFIGS if any(r["config"] == c for r in ok)]
    fig, axes = plt.subplots(len(nets), 1, figsize=(9, 1.0 + 0.55 * len(configs) * len(nets)), squeeze=False)
    for ax, net in zip(axes[:, 0], nets):
        base = sum(r["cycles"] for r in ok if r["net"] == net and r["config"] == "base") or None
        for y, c in enumerate(configs):
            left = 0.0
            for r in (r for r in ok if r["net"] == net and r["config"] == c):
                w = r["cycles"] / base if base else r["cycles"]
                main = max(("in", "near", "core"), key=lambda m: r[f"cyc_{m}"])
                ax.barh(y, w, left=left, color=_KIND_COLOR[r["kind"]], hatch=_HATCH[main], edgecolor="white", linewidth=0.3)
                left += w
        ax.set_yticks(range(len(configs)))
        ax.set_yticklabels([CONFIGS[c][0] for c in configs])
        ax.invert_yaxis()
        ax.set_title(f"PointNet++ {net.upper()}", fontsize=10)
        ax.set_xlabel("time normalized to Base" if base else "cycles")
    handles = [Patch(color=col, label=KIND_LABEL[k]) for k, col in _KIND_COLOR.items()]
    handles += [Patch(facecolor="white", edgecolor="k", hatch=_HATCH[m], label=name) for m, name in _WHERE[::-1]]
    fig.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(0.80, 0.98))
    fig.tight_layout(rect=(0, 0, 0.79, 1))
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def append_reproduction(repro: Path, out: Path, size_set: str | None, quiet: bool = False, nets: tuple[str, ...] = ("ssg", "msg"),
                        configs: tuple[str, ...] = STUDY_CONFIGS) -> list[dict[str, Any]]:  # fmt: skip
    """infs-bench's hook: run the study (``size_set``; None: no runs, the rows of
    ``out/pointnet.csv`` from an earlier run, as ``--replot`` does), write
    ``out/pointnet.csv`` and append the section to ``repro``.  The rows."""
    csv_path = out / "pointnet.csv"
    if size_set is None:
        if not csv_path.exists():
            return []
        rows = read_csv(csv_path)
        wall = sum(float(r.get("wall_s", 0.0)) for r in rows)
    else:
        say = None if quiet else (lambda m: print(f"pointnet: {m}", file=sys.stderr, flush=True))
        t0 = time.perf_counter()
        rows = study(size_set, nets, configs, progress=say)
        wall = time.perf_counter() - t0
        out.mkdir(parents=True, exist_ok=True)
        write_csv(csv_path, rows)
    fig = timeline_plot(rows, repro.parent / "figures" / "fig19_pointnet.png")
    with repro.open("a") as f:
        f.write("\n" + "\n".join(markdown(rows, wall, figure=f"figures/{fig.name}" if fig else None)) + "\n")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=PROG, description="The PointNet++ case study (ASPLOS'23 §8): per stage cycles under Base, Near-L3, In-L3 and Inf-S.")
    parser.add_argument("--size-set", default="paper", choices=["paper", "small"])
    parser.add_argument("--nets", default="ssg,msg", help="comma-separated of ssg, msg")
    parser.add_argument("--configs", default=",".join(STUDY_CONFIGS), help=f"comma-separated of {', '.join(STUDY_CONFIGS)}")
    parser.add_argument("--check", action="store_true", help="run every stage functionally and compare its outputs with the reference")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    nets = tuple(s.strip() for s in args.nets.split(",") if s.strip())
    configs = tuple(s.strip() for s in args.configs.split(",") if s.strip())
    for n in nets:
        if n not in ("ssg", "msg"):
            print(f"{PROG}: error: unknown network '{n}' (known: ssg, msg)", file=sys.stderr)
            return 2
    for c in configs:
        if c not in STUDY_CONFIGS:
            print(f"{PROG}: error: unknown config '{c}' (known: {', '.join(STUDY_CONFIGS)})", file=sys.stderr)
            return 2
    t0 = time.perf_counter()
    say = None if args.quiet else (lambda m: print(m, file=sys.stderr, flush=True))
    rows = study(args.size_set, nets, configs, seed=args.seed, check=args.check, progress=say)
    print("\n".join(markdown(rows, time.perf_counter() - t0)))
    return 1 if any(r.get("check") == "MISMATCH" for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
