"""``infs-run``: run a program on the simulated machine and report (DESIGN §4-§5).

    infs-run FILE.mlir [--entry F] [--config paper-64] [--mode auto|in|near|core|all]
             [--sizes N=64,M=32] [--shape A=64x64] [--input A=a.npy] [--seed 0]
             [--save-outputs DIR] [--check] [--tiles 16x16] [--no-jit-charge]
             [--analysis] [--json]

Inputs: a workload of ``infs/workloads`` (by its file) gets the registry's
inputs and sizes (``--sizes`` overrides them); otherwise index arguments come
from ``--sizes``, arrays from ``--input NAME=file.npy`` or are generated from
``--seed`` with ``--shape NAME=AxB`` for dynamic dims.  ``--check`` compares
every output with the stream reference semantics.  Every error is one line.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from xdsl.dialects.builtin import IndexType, IntegerType, MemRefType

from infs import api
from infs.hardware import ConfigError, load_config
from infs.runtime.check import compare_values
from infs.runtime.driver import MODES, RegionRecord, RunOptions, RunReport, run_program
from infs.runtime.host import find_function, run_function
from infs.runtime.scalar_ops import EvaluationError, numpy_dtype
from infs.sim import SimError

PROG = "infs-run"


class UsageError(Exception):
    pass


def _parse_kv(items: list[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        for part in item.replace(",", " ").split() if what != "input" else [item]:
            k, eq, v = part.partition("=")
            if not eq or not k or not v:
                raise UsageError(f"bad --{what} '{part}': expected NAME=VALUE")
            out[k] = v
    return out


def _workload_for(path: Path):
    from infs.workloads import WORKLOADS

    for w in WORKLOADS.values():
        try:
            if w.path.resolve() == path.resolve():
                return w
        except OSError:
            pass
    return None


def build_arguments(path: Path, fn, args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, int], list[str], list[str]]:
    """(argument values by name, sizes, output array names, result names)."""
    sizes_given: dict[str, int] = {}
    for k, v in (_parse_kv(args.sizes, "sizes").items() if args.sizes else ()):
        try:
            sizes_given[k] = int(v)
        except ValueError:
            raise UsageError(f"bad --sizes {k}={v}: sizes are integers") from None
    inputs_given = _parse_kv(args.input, "input") if args.input else {}
    shapes_given = _parse_kv(args.shape, "shape") if args.shape else {}
    params = [a.name_hint for a in fn.body.block.args]
    w = _workload_for(path)
    if w is not None:
        unknown = set(sizes_given) - set(w.small) - set(params)
        if unknown:
            raise UsageError(f"--sizes: '{sorted(unknown)[0]}' is not a size of {w.name} (sizes: {', '.join(w.small)})")
        sizes = {**w.sizes(args.size_set), **sizes_given}
        values: dict[str, Any] = dict(w.inputs(sizes, args.seed))
        for a in params:
            if a not in values and a in sizes:
                values[a] = sizes[a]
        outputs, results = list(w.outputs), list(w.results)
    else:
        rng = np.random.default_rng(args.seed)
        values, outputs = {}, []
        sizes = dict(sizes_given)
        for a in fn.body.block.args:
            name = a.name_hint or ""
            if isinstance(a.type, IndexType) or isinstance(a.type, IntegerType) and not isinstance(a.type, MemRefType):
                if name not in sizes:
                    raise UsageError(f"argument %{name} of @{fn.sym_name.data} is a size that was never bound: give --sizes {name}=...")
                values[name] = sizes[name]
            elif isinstance(a.type, MemRefType):
                dt = numpy_dtype(a.type.element_type)
                if name in inputs_given:
                    try:
                        arr = np.load(inputs_given[name])
                    except (OSError, ValueError) as e:
                        raise UsageError(f"--input {name}: cannot load '{inputs_given[name]}': {e}") from None
                    values[name] = np.ascontiguousarray(arr.astype(dt))
                else:
                    shape = list(a.type.get_shape())
                    if any(s < 0 for s in shape):
                        if name not in shapes_given:
                            raise UsageError(f"argument %{name} has a dynamic shape {a.type}: give --shape {name}=AxB or --input {name}=file.npy")
                        try:
                            shape = [int(x) for x in shapes_given[name].lower().split("x")]
                        except ValueError:
                            raise UsageError(f"bad --shape {name}={shapes_given[name]}: expected e.g. 64x64") from None
                    values[name] = (rng.uniform(-1, 1, shape).astype(dt) if dt.kind == "f" else rng.integers(0, 4, shape).astype(dt))
                outputs.append(name)
            else:
                if name not in sizes:
                    raise UsageError(f"scalar argument %{name} was never bound: give --sizes {name}=...")
                values[name] = np.asarray(sizes[name], dtype=numpy_dtype(a.type))[()]
        results = [f"result{i}" for i in range(len(fn.function_type.outputs.data))]
    return values, sizes, outputs, results


def run_once(module, path: Path, fn, args, mode: str, console: Console | None) -> dict[str, Any]:
    values, sizes, outputs, result_names = build_arguments(path, fn, args)
    copies = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in values.items()}
    options = RunOptions(config=args.config, mode=mode, tiles=_tiles(args.tiles), jit=not args.no_jit_charge,
                         machine_mode="analysis" if args.analysis else "functional", warm=not args.cold)  # fmt: skip
    progress = None
    if console is not None and not args.json and console.is_terminal:
        bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.completed} regions"), TimeElapsedColumn(), console=console, transient=True)
        bar.start()
        task = bar.add_task(f"{path.name} ({mode})", total=None)

        def progress(rec: RegionRecord) -> None:
            bar.advance(task)

    try:
        report = run_program(module, values, fn.sym_name.data, options, progress)
    finally:
        if progress is not None:
            bar.stop()
    out: dict[str, Any] = {"mode": mode, "report": report, "values": values, "outputs": outputs, "results": dict(zip(result_names, report.results))}
    if args.check:
        if args.analysis:
            raise UsageError("--check needs the functional simulation (drop --analysis)")
        ref = run_function(module, copies, fn.sym_name.data)
        expected = {**{k: copies[k] for k in outputs}, **dict(zip(result_names, ref))}
        actual = {**{k: values[k] for k in outputs}, **out["results"]}
        out["check"] = compare_values(actual, expected)
    if args.save_outputs:
        d = Path(args.save_outputs)
        d.mkdir(parents=True, exist_ok=True)
        for k in outputs:
            np.save(d / f"{k}.npy", values[k])
    return out


def _tiles(text: str | None) -> tuple[int, ...] | None:
    if not text:
        return None
    try:
        return tuple(int(x) for x in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"bad --tiles '{text}': expected e.g. 16x16") from None


def summary(out: dict[str, Any], freq_ghz: float) -> dict[str, Any]:
    rep: RunReport = out["report"]
    st = rep.stats
    offl = sum(r.elements for r in rep.regions if r.mode == "in")
    total_el = sum(r.elements for r in rep.regions) or 1
    d = {
        "mode": out["mode"],
        "total_cycles": st.total_cycles,
        "seconds_simulated": st.total_cycles / (freq_ghz * 1e9),
        "cycles": dict(st.cycles),
        "traffic": dict(st.traffic),
        "noc_byte_hops": st.noc_byte_hops,
        "energy_pj": dict(st.energy_pj),
        "total_energy_pj": st.total_energy_pj,
        "regions": [vars(r) for r in rep.regions],
        "region_modes": rep.mode_counts(),
        "elements_in_memory_fraction": offl / total_el,
        "jit": {"misses": sum(r.jit_misses for r in rep.regions), "seconds": sum(r.jit_seconds for r in rep.regions)},
        "wall_seconds": rep.wall_seconds,
        "results": {k: np.asarray(v).item() for k, v in out["results"].items()},
    }
    if "check" in out:
        d["check"] = {"ok": out["check"].ok, "max_error": out["check"].max_error, "note": out["check"].note}
    return d


def print_report(console: Console, path: Path, s: dict[str, Any], cfg_name: str) -> None:
    console.rule(f"[bold]{path.name}[/] on {cfg_name}, mode {s['mode']}")
    t = Table(title="cycles (Fig. 14 breakdown)")
    t.add_column("category")
    t.add_column("cycles", justify="right")
    t.add_column("share", justify="right")
    tot = s["total_cycles"] or 1
    for k, v in s["cycles"].items():
        t.add_row(k, f"{v:,}", f"{100 * v / tot:.1f}%")
    t.add_row("[bold]total", f"[bold]{s['total_cycles']:,}", f"{s['seconds_simulated'] * 1e6:,.1f} µs")
    console.print(t)
    t = Table(title="traffic (Fig. 12/13)")
    t.add_column("kind")
    t.add_column("value", justify="right")
    for k, v in s["traffic"].items():
        unit = "byte-hops" if k.startswith("noc") else "bytes"
        t.add_row(k, f"{v:,.0f} {unit}")
    t.add_row("NoC links total", f"{s['noc_byte_hops']:,.0f} byte-hops")
    console.print(t)
    t = Table(title="energy and offload")
    t.add_column("")
    t.add_column("value", justify="right")
    t.add_row("energy", f"{s['total_energy_pj'] / 1e6:,.3f} µJ")
    t.add_row("regions", ", ".join(f"{k}: {v}" for k, v in sorted(s["region_modes"].items())) or "none")
    t.add_row("elements computed in memory", f"{100 * s['elements_in_memory_fraction']:.1f}%")
    t.add_row("JIT lowerings (not memoized)", str(s["jit"]["misses"]))
    t.add_row("JIT wall time", f"{s['jit']['seconds'] * 1e3:.1f} ms")
    t.add_row("simulation wall time", f"{s['wall_seconds']:.2f} s")
    for k, v in s["results"].items():
        t.add_row(f"result {k}", f"{v}")
    console.print(t)
    if "check" in s:
        c = s["check"]
        if c["ok"]:
            console.print(f"[green]check: outputs match the stream reference[/] (max error {c['max_error']:.2e})")
        else:
            console.print(f"[red]check FAILED:[/] {c['note']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=PROG, description="Run an infs program on the simulated machine.")
    parser.add_argument("file")
    parser.add_argument("--entry", help="function to run (default: the only public one)")
    parser.add_argument("--config", default="paper-64", help="hardware config name or TOML/JSON file")
    parser.add_argument("--mode", default="auto", choices=[*MODES, "all"])
    parser.add_argument("--sizes", action="append", help="N=64,M=32 (index arguments / workload sizes)")
    parser.add_argument("--size-set", default="small", choices=["small", "paper"], help="workload size set")
    parser.add_argument("--shape", action="append", help="NAME=AxB for dynamic array shapes")
    parser.add_argument("--input", action="append", help="NAME=file.npy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save-outputs", metavar="DIR")
    parser.add_argument("--check", action="store_true", help="compare with the stream reference semantics")
    parser.add_argument("--tiles", help="force the tile shape, e.g. 16x16")
    parser.add_argument("--no-jit-charge", action="store_true", help="do not charge JIT cycles (Inf-S no JIT)")
    parser.add_argument("--analysis", action="store_true", help="timing only, no data (paper sizes)")
    parser.add_argument("--cold", action="store_true", help="inputs start in DRAM (default: in the L3, as after initialization)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")

    def one_line_error(message: str) -> NoReturn:
        print(f"{PROG}: error: {message}", file=sys.stderr)
        raise SystemExit(2)

    parser.error = one_line_error  # type: ignore[method-assign]
    args = parser.parse_args(argv)
    console = Console()
    try:
        path = Path(args.file)
        cfg = load_config(args.config)
        module = api.parse_file(path)
        fn = find_function(module, args.entry)
        if not any(True for _ in module.walk() if _.name == "stream.region"):
            raise UsageError(f"'{path}' has no stream.region: nothing to offload")
        modes = ["in", "near", "core"] if args.mode == "all" else [args.mode]
        outs = [summary(run_once(module, path, fn, args, m, console), cfg.freq_ghz) for m in modes]
    except UsageError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except (api.InfsError, EvaluationError, ConfigError, SimError, ValueError) as e:
        print(f"{PROG}: {e}" if isinstance(e, api.InfsError) else f"{PROG}: error: {str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug in infs: still one line (INFS_DEBUG=1 re-raises)
        if os.environ.get("INFS_DEBUG"):
            raise
        print(f"{PROG}: internal error: {type(e).__name__}: {e} (please report; INFS_DEBUG=1 shows the traceback)", file=sys.stderr)
        return 70
    if args.json:
        print(json.dumps(outs if len(outs) > 1 else outs[0], indent=2, default=float))
    else:
        for s in outs:
            print_report(console, path, s, cfg.name)
        if len(outs) > 1:
            t = Table(title="modes compared")
            for c in ("mode", "cycles", "speedup vs core", "NoC byte-hops", "energy µJ"):
                t.add_column(c, justify="right")
            core = next(s for s in outs if s["mode"] == "core")["total_cycles"] or 1
            for s in outs:
                t.add_row(s["mode"], f"{s['total_cycles']:,}", f"{core / max(1, s['total_cycles']):.2f}x", f"{s['noc_byte_hops']:,.0f}", f"{s['total_energy_pj'] / 1e6:,.3f}")
            console.print(t)
    failed = any("check" in s and not s["check"]["ok"] for s in outs)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
