"""``infs-run``: run a program on the simulated machine and report (the runtime of ASPLOS §4, the machine of §5).

    infs-run FILE.mlir [--entry F] [--config paper-64] [--mode auto|in|near|core|all] [--strict] [--strict-offload]
             [--sizes N=64,M=32] [--scalar w=0.5] [--shape A=64x64] [--input A=a.npy] [--seed 0]
             [--save-outputs DIR] [--check] [--tiles 16x16] [--no-jit-charge]
             [--policy eq2|lowerable] [--jit-model NAME]
             [--no-chunks] [--analysis] [--cold] [--json] [--view OUT.html]

Inputs: a workload of ``infs/workloads`` (by its file) gets the registry's
inputs and sizes (``--size-set``; ``--sizes`` overrides them); otherwise index
arguments come from ``--sizes``, other scalars from ``--scalar`` (typed by the
argument), arrays from ``--input NAME=file.npy`` or are generated from
``--seed`` with ``--shape NAME=AxB`` for dynamic dims.  Shapes are known and the
host's memory checked before any array is allocated; ``--analysis`` allocates
no data at all.  A forced ``--mode`` a region cannot run in is a warning per
region (``--strict``: an error).  ``--check`` compares every output with the
stream reference semantics, and cross-checks the regions that ran near memory
or on the cores (whose values come from that reference) against the tDFG
lattice evaluator, and verifies every program the JIT produces (the pimcmd
verifiers, as for printed IR).  Every error is one line.

A file ``infs-opt --lower-pim`` wrote (``pimcmd.program`` ops in the host code,
compiled ahead of time) runs as it is, on the config it was lowered for by
default, each call checked against the machine, sizes and shapes the program
was made for (``infs.runtime.compiled``); its ``--check`` compares with the
graph each program was lowered from.  A program with nothing to offload runs
on the host with one remark (``--strict-offload``: an error).
docs/running-programs.md says more.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Collection
from pathlib import Path
from typing import Any, NoReturn

import numpy as np
from rich.console import Console
from rich.table import Table
from xdsl.dialects.builtin import IndexType, IntegerType, MemRefType

from infs import api, version_text
from infs.hardware import JIT_MODELS, ConfigError, load_config
from infs.runtime.check import compare_values
from infs.runtime import jit
from infs.runtime.driver import MODES, POLICIES, ModeNotHonoured, RegionRecord, RunOptions, RunReport, extract_regions, run_program
from infs.runtime.host import find_function, phantom_array, run_function, unnamed_argument
from infs.runtime.memory import available_memory, human_bytes
from infs.runtime.scalar_ops import EvaluationError, numpy_dtype
from infs.sim import SimError

PROG = "infs-run"


class UsageError(Exception):
    pass


_MODE_WORDS = {"near": "near memory", "core": "on the cores", "in": "in memory"}


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


def _parse_sizes(args: argparse.Namespace) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for k, v in (_parse_kv(args.sizes, "sizes").items() if args.sizes else ()):
        try:
            n = int(v)
        except ValueError:
            raise UsageError(f"bad --sizes {k}={v}: sizes are integers (a non-index scalar argument takes --scalar {k}={v})") from None
        if n < 0:
            raise UsageError(f"bad --sizes {k}={v}: sizes are non-negative integers")
        sizes[k] = n
    return sizes


def _parse_shape(name: str, text: str) -> list[int]:
    try:
        shape = [int(x) for x in text.lower().split("x")]
    except ValueError:
        raise UsageError(f"bad --shape {name}={text}: expected e.g. 64x64") from None
    if any(s < 0 for s in shape):
        raise UsageError(f"bad --shape {name}={text}: dims are non-negative integers")
    return shape


def _scalar_value(name: str, text: str, ty) -> Any:
    """``--scalar NAME=VALUE`` typed by the argument's type (f32 weights, i32 thresholds, ...)."""
    dt = numpy_dtype(ty)
    if dt.kind == "f":
        try:
            return np.asarray(float(text), dtype=dt)[()]
        except ValueError:
            raise UsageError(f"bad --scalar {name}={text}: %{name} is a {ty} argument: expected a number") from None
    try:
        v = int(text)
    except ValueError:
        raise UsageError(f"bad --scalar {name}={text}: %{name} is a {ty} argument: expected an integer") from None
    if dt.kind in "iu" and not (np.iinfo(dt).min <= v <= np.iinfo(dt).max):
        raise UsageError(f"bad --scalar {name}={text}: out of range for {ty}")
    if dt == np.bool_ and v not in (0, 1):  # as api.run (host._scalar_argument): 2 was True
        raise UsageError(f"bad --scalar {name}={text}: %{name} is an i1 argument: expected 0 or 1")
    return v if isinstance(ty, IndexType) else np.asarray(v, dtype=dt)[()]


def _npy_header(name: str, file: str) -> tuple[tuple[int, ...], np.dtype]:
    """The shape and dtype an ``.npy`` file declares, read without loading it."""
    try:
        with open(file, "rb") as f:
            magic = f.read(6)
            if magic[:2] == b"PK":
                raise UsageError(f"--input {name}: '{file}' is an .npz archive; --input takes one array per .npy file")
            if magic != b"\x93NUMPY":
                raise UsageError(f"--input {name}: '{file}' is not an .npy file")
            f.seek(0)
            version = np.lib.format.read_magic(f)
            read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            shape, _fortran, dtype = read_header(f)
    except UsageError:
        raise
    except OSError as e:
        raise UsageError(f"--input {name}: cannot read '{file}': {e.strerror}") from None
    except (ValueError, TypeError, SyntaxError) as e:
        raise UsageError(f"--input {name}: '{file}' has a bad .npy header: {str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__}") from None
    if dtype.kind == "c":
        raise UsageError(f"--input {name}: '{file}' holds complex numbers ({dtype}); infs arrays are real")
    if dtype.kind not in "biuf":
        raise UsageError(f"--input {name}: '{file}' holds {dtype} values; infs arrays hold integers or floats")
    return tuple(int(s) for s in shape), dtype


def _check_capacity(arrays: list[tuple[str, tuple[int, ...], np.dtype]], copied: Collection[str] = ()) -> None:
    """The host must hold every array, and a second one of those in ``copied`` (the
    --check reference's copies), checked before anything is allocated."""
    need = sum(math.prod(shape) * np.dtype(dt).itemsize * (2 if name in copied else 1) for name, shape, dt in arrays)
    avail = available_memory()
    if avail is not None and need > avail:
        big = max(arrays, key=lambda a: math.prod(a[1]) * np.dtype(a[2]).itemsize)
        raise UsageError(
            f"the arrays need {human_bytes(need)} of host memory (largest: {big[0]}, {'x'.join(map(str, big[1])) or 'scalar'} {np.dtype(big[2])}), "
            f"this host has {human_bytes(avail)} available: use smaller sizes, or --analysis (timing only, no data)"
        )


def _workload_shapes(w, sizes: dict[str, int]) -> dict[str, tuple[tuple[int, ...], np.dtype]]:
    """Every array's shape and dtype for ``sizes``, without allocating them: the
    registry's ``make_inputs`` runs on probe sizes (distinct even values, each
    size's own), and each dim of the probe arrays that equals a probe value is
    that size (the others are constants such as a 3x3 kernel)."""
    primes = [11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71]
    keys = sorted(set(sizes) | set(w.small))
    probe = {k: 2 * primes[i] for i, k in enumerate(keys)}
    back = {v: sizes.get(k, w.small.get(k)) for k, v in probe.items()}
    out = {}
    for name, arr in w.make_inputs(probe, np.random.default_rng(0)).items():
        out[name] = (tuple(int(back.get(d, d)) for d in arr.shape), arr.dtype)
    return out


def build_arguments(path: Path, fn, args: argparse.Namespace, phantom: bool = False) -> tuple[dict[str, Any], dict[str, int], list[str], list[str]]:
    """(argument values by name, sizes, output array names, result names).

    ``phantom`` (``--analysis``): arrays have their shapes but no data."""
    sizes_given = _parse_sizes(args)
    inputs_given = _parse_kv(args.input, "input") if args.input else {}
    shapes_given = _parse_kv(args.shape, "shape") if args.shape else {}
    scalars_given = _parse_kv(args.scalar, "scalar") if args.scalar else {}
    copied = may_write(fn) if args.check else set()
    params = [a.name_hint for a in fn.body.block.args]
    unnamed = unnamed_argument(fn)  # inputs, shapes and sizes are given by name
    if unnamed is not None:
        raise UsageError(unnamed)
    w = _workload_for(path)
    if w is not None:
        for flag, given in (("--input", inputs_given), ("--shape", shapes_given), ("--scalar", scalars_given)):
            if given:
                raise UsageError(
                    f"{flag} {sorted(given)[0]}: {path.name} is a workload of infs/workloads, whose arguments come from the registry "
                    "(--size-set, --sizes, --seed); copy the file elsewhere to give your own"
                )
        unknown = set(sizes_given) - set(w.small) - set(params)
        if unknown:
            raise UsageError(f"--sizes: '{sorted(unknown)[0]}' is not a size of {w.name} (sizes: {', '.join(w.small)})")
        sizes = {**w.sizes(args.size_set or "small"), **sizes_given}
        shapes = _workload_shapes(w, sizes)
        if phantom:
            values: dict[str, Any] = {k: phantom_array(shape, dt) for k, (shape, dt) in shapes.items()}
        else:
            _check_capacity([(k, shape, dt) for k, (shape, dt) in shapes.items()], copied)
            values = dict(w.inputs(sizes, args.seed))
        for a in params:
            if a not in values and a in sizes:
                values[a] = sizes[a]
        return values, sizes, list(w.outputs), list(w.results)
    if args.size_set is not None:
        raise UsageError(f"--size-set applies to the workloads of infs/workloads; give the sizes of '{path.name}' with --sizes")
    by_name = {a.name_hint or "": a for a in fn.body.block.args}
    arrays = [n for n, a in by_name.items() if isinstance(a.type, MemRefType)]
    scalars = [n for n, a in by_name.items() if not isinstance(a.type, MemRefType)]
    for flag, given, allowed, what in (
        ("--input", inputs_given, arrays, "array"), ("--shape", shapes_given, arrays, "array"),
        ("--scalar", scalars_given, scalars, "scalar"), ("--sizes", sizes_given, scalars, "scalar"),
    ):  # fmt: skip
        for k in given:
            if k not in allowed:
                raise UsageError(f"{flag} {k}: @{fn.sym_name.data} has no {what} argument %{k} ({what}s: {', '.join('%' + n for n in allowed) or 'none'})")
    for k in set(inputs_given) & set(shapes_given):
        raise UsageError(f"--shape {k} and --input {k}: an input file has its own shape")
    for k in set(sizes_given) & set(scalars_given):
        raise UsageError(f"--sizes {k} and --scalar {k}: give %{k} once")
    rng = np.random.default_rng(args.seed)
    values, outputs = {}, []
    sizes = dict(sizes_given)
    # shapes first (from .npy headers, --shape or the static type), then the capacity check, then data
    plan: list[tuple[str, tuple[int, ...], np.dtype]] = []
    for name in arrays:
        t = by_name[name].type
        dt = numpy_dtype(t.element_type)
        static = list(t.get_shape())
        if name in inputs_given:
            shape, _file_dt = _npy_header(name, inputs_given[name])
        elif name in shapes_given:
            shape = tuple(_parse_shape(name, shapes_given[name]))
        elif any(s < 0 for s in static):
            raise UsageError(f"argument %{name} has a dynamic shape {t}: give --shape {name}=AxB or --input {name}=file.npy")
        else:
            shape = tuple(static)
        if len(shape) != len(static) or any(s >= 0 and s != n for s, n in zip(static, shape)):
            src = f"'{inputs_given[name]}'" if name in inputs_given else f"--shape {name}"
            raise UsageError(f"{src}: shape {list(shape)} does not fit argument %{name} : {t}")
        plan.append((name, shape, dt))
    if not phantom:
        _check_capacity(plan, copied)
    for name, shape, dt in plan:
        if phantom:
            values[name] = phantom_array(shape, dt)
        elif name in inputs_given:
            try:
                arr = np.load(inputs_given[name], allow_pickle=False)
            except (OSError, ValueError) as e:
                raise UsageError(f"--input {name}: cannot load '{inputs_given[name]}': {str(e).strip().splitlines()[0]}") from None
            values[name] = np.ascontiguousarray(arr.astype(dt))
        else:
            values[name] = rng.uniform(-1, 1, shape).astype(dt) if dt.kind == "f" else rng.integers(0, 4, shape).astype(dt)
        outputs.append(name)
    for name in scalars:
        ty = by_name[name].type
        if name in scalars_given:
            values[name] = _scalar_value(name, scalars_given[name], ty)
            if isinstance(ty, IndexType):
                if values[name] < 0:
                    raise UsageError(f"bad --scalar {name}={scalars_given[name]}: %{name} is an index: non-negative")
                sizes[name] = values[name]
        elif name in sizes:  # an integer given with --sizes (also fine for a float argument)
            values[name] = sizes[name] if isinstance(ty, IndexType) else _scalar_value(name, str(sizes[name]), ty)
        elif isinstance(ty, (IndexType, IntegerType)):
            raise UsageError(f"argument %{name} of @{fn.sym_name.data} is a size that was never bound: give --sizes {name}=...")
        else:
            raise UsageError(f"argument %{name} of @{fn.sym_name.data} ({ty}) is a scalar that was never bound: give --scalar {name}=...")
    results = [f"result{i}" for i in range(len(fn.function_type.outputs.data))]
    return values, sizes, outputs, results


# Uses of an array that only read it: the argument itself, and inside the regions and
# graphs it is passed to, their block argument for it (``may_write``).
_READS = {"memref.load": 0, "memref.dim": 0, "affine.load": 0, "stream.load": 0, "tdfg.tensor": 0, "tdfg.stream_load": 0}
_OFFLOADS = ("stream.region", "tdfg.graph")


def _only_read(v) -> bool:
    for use in v.uses:
        op = use.operation
        if _READS.get(op.name) == use.index:
            continue
        if op.name in _OFFLOADS and use.index < len(op.arrays) and _only_read(op.regions[0].blocks.first.args[use.index]):
            continue
        return False  # a store, a call, a view or cast that may alias it, an op not known here: it may be written
    return True


def may_write(fn) -> set[str]:
    """Names of @fn's array arguments the program may write, from the IR, conservatively:
    every argument but those whose every use (through the regions and graphs it is
    passed to) is a load.  --check copies only these for its reference run; the others
    are shared by the run and the reference (vec_add's A and B at 4M are 32 MB)."""
    return {a.name_hint or "" for a in fn.body.block.args if isinstance(a.type, MemRefType) and not _only_read(a)}


def run_once(module, path: Path, fn, args, mode: str, console: Console | None) -> dict[str, Any]:
    # ``args`` may be infs-view's (it calls this), which has no --no-optimize: optimize then
    values, sizes, outputs, result_names = build_arguments(path, fn, args, phantom=args.analysis)
    # the reference runs on copies of the arrays the program may write; the arrays it only
    # reads are shared, and read-only during the run and the reference, so that a run that
    # wrote one anyway would be an error, not a check against inputs it changed
    written = may_write(fn) if args.check else set()
    copies = {k: (v.copy() if isinstance(v, np.ndarray) and k in written else v) for k, v in values.items()} if args.check else {}
    shared = [v for k, v in copies.items() if isinstance(v, np.ndarray) and k not in written and v.flags.writeable]
    for v in shared:
        v.flags.writeable = False
    if args.check:
        jit.set_verify(True)  # every program the JIT produces goes through the pimcmd verifiers too
    options = RunOptions(config=args.config, mode=mode, tiles=_tiles(args.tiles), jit=not args.no_jit_charge,
                         policy=getattr(args, "policy", "eq2"),
                         machine_mode="analysis" if args.analysis else "functional", warm=not args.cold,
                         strict=args.strict, cross_check=args.check, optimize=not getattr(args, "no_optimize", False),
                         chunk=not getattr(args, "no_chunks", False),
                         record_charges=bool(getattr(args, "view", None) or getattr(args, "record_charges", False)))  # fmt: skip
    progress = None
    if console is not None and not args.json and console.is_terminal:
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn  # only on a terminal (start-up)

        bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.completed} regions"), TimeElapsedColumn(), console=console, transient=True)
        bar.start()
        task = bar.add_task(f"{path.name} ({mode})", total=None)

        def progress(rec: RegionRecord) -> None:
            bar.advance(task)

    try:
        report = run_program(module, values, fn.sym_name.data, options, progress)
    except ValueError as e:
        if shared and "read-only" in str(e):
            # a bug of infs, not of the program: exit 70 (report_failure), not a bad-input 1
            raise RuntimeError(f"the run wrote to an array the program only reads ({e})") from None
        raise
    finally:
        if progress is not None:
            bar.stop()
    out: dict[str, Any] = {"mode": mode, "report": report, "values": values, "outputs": outputs, "results": dict(zip(result_names, report.results)),
                           "policy": options.policy, "jit_model": report.machine.cfg.jit_model}  # fmt: skip
    if args.check:
        names = {op.name for op in module.walk()}
        if "pimcmd.program" in names:
            # compiled programs: each one's oracle is the graph it was lowered from (its
            # infs.source) on the lattice; one without a source is named as unchecked
            from infs.runtime.compiled import source_executor
            from infs.runtime.lattice_eval import evaluate_graph

            unchecked: list[str] = []
            cfg = load_config(args.config)
            ref = run_function(module, copies, fn.sym_name.data, graph_executor=lambda g, a, sc: evaluate_graph(g, a, sc),
                               program_executor=source_executor(cfg, unchecked))  # fmt: skip
            out["oracle"] = "the lattice semantics of the graphs the programs were lowered from (infs.source)"
            out["unchecked"] = unchecked
        elif "tdfg.graph" in names:
            # a program tensorized ahead of time: its graphs' reference is the lattice semantics
            from infs.runtime.lattice_eval import run_function as run_on_lattice

            ref = run_on_lattice(module, copies, fn.sym_name.data)
            out["oracle"] = "the tDFG lattice semantics"
        else:
            ref = run_function(module, copies, fn.sym_name.data)
            # nothing offloaded (a remark said so): the run and its reference are the same host code
            out["oracle"] = "the stream reference" if "stream.region" in names else "the host interpreter's second run (nothing was offloaded: the check compares the host code with itself)"
        expected = {**{k: copies[k] for k in outputs}, **dict(zip(result_names, ref))}
        actual = {**{k: values[k] for k in outputs}, **out["results"]}
        out["check"] = compare_values(actual, expected)
        for v in shared:
            v.flags.writeable = True
    if args.save_outputs:
        d = Path(args.save_outputs)
        for k in outputs:
            try:
                np.save(d / f"{k}.npy", values[k])
            except OSError as e:
                raise UsageError(f"--save-outputs: cannot write '{d / f'{k}.npy'}': {e.strerror}") from None
    return out


def _prepare_save_dir(text: str) -> None:
    """``--save-outputs DIR``: DIR may exist; else only its last level is created (its parent must exist)."""
    d = Path(text)
    if d.is_dir():
        return
    if d.exists():
        raise UsageError(f"--save-outputs '{d}': not a directory")
    if not d.parent.is_dir():
        raise UsageError(f"--save-outputs '{d}': the parent directory '{d.parent}' does not exist (only the last level is created)")
    try:
        d.mkdir()
    except OSError as e:
        raise UsageError(f"--save-outputs '{d}': cannot create it: {e.strerror}") from None


def _tiles(text: str | None) -> tuple[int, ...] | None:
    if not text:
        return None
    try:
        tiles = tuple(int(x) for x in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"bad --tiles '{text}': expected e.g. 16x16") from None
    if any(t <= 0 for t in tiles):
        raise UsageError(f"bad --tiles '{text}': tile sizes are positive integers")
    return tiles


def fallbacks(rep: RunReport) -> list[tuple[int, str, str]]:
    """(region, mode it ran in, reason) per region whose forced mode was not honoured, once each."""
    seen: dict[tuple[int, str], tuple[int, str, str]] = {}
    for r in rep.regions:
        if r.not_honoured:
            seen.setdefault((r.region, r.not_honoured), (r.region, r.mode, r.not_honoured))
    return list(seen.values())


def region_checks(rep: RunReport) -> list[dict[str, Any]]:
    """Per region (first invocation's verdict, first disagreement of any): how its values were checked."""
    out: dict[int, dict[str, Any]] = {}
    for r in rep.regions:
        d = out.setdefault(r.region, {"region": r.region, "ran": r.mode, "against": "simulator vs reference" if r.mode == "in" else r.check, "error": ""})
        if r.check_error and not d["error"]:
            d["error"] = r.check_error
    return [out[k] for k in sorted(out)]


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
        # who decided the auto regions (RunOptions.policy; forced modes decide nothing)
        "policy": out.get("policy", "eq2"),
        "jit": {"misses": sum(r.jit_misses for r in rep.regions), "seconds": sum(r.jit_seconds for r in rep.regions),
                "model": out.get("jit_model", "")},
        # optimize-tdfg before the JIT (host wall time, not simulated cycles: driver ``_optimize``)
        "optimize": {
            "seconds": sum(r.optimize_seconds for r in rep.regions),
            "tdfg_nodes_before": sum(r.tdfg_nodes_before for r in rep.regions),
            "tdfg_nodes_after": sum(r.tdfg_nodes_after for r in rep.regions),
        },
        "wall_seconds": rep.wall_seconds,
        "results": {k: np.asarray(v).item() for k, v in out["results"].items()},
    }
    # a forced mode that could not run: per region, where it ran instead and why
    d["not_honoured"] = [{"region": r, "ran": m, "reason": why} for r, m, why in fallbacks(rep)]
    counts = rep.mode_counts()
    d["ran_as"] = ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) if len(counts) > 1 else next(iter(counts), out["mode"])
    if "check" in out:
        c = out["check"]
        regions = region_checks(rep)
        bad = next((r for r in regions if r["error"]), None)
        ok = c.ok and bad is None
        note = c.note if not c.ok else (f"region {bad['region']} ({bad['ran']}): {bad['error']}" if bad else "")
        d["check"] = {"ok": ok, "max_error": c.max_error, "note": note, "regions": regions, "oracle": out["oracle"], "unchecked": out.get("unchecked", [])}
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
    # (chunks of one dim: its rows; of several: the first chunk's extent per dim, "d0:1 x d1:4")
    chunked = {(r["chunks"], f"{r['chunk_rows']:,} rows" if " x " not in r.get("chunk_shape", "") else r["chunk_shape"]) for r in s["regions"] if r.get("chunks")}
    if chunked:  # regions too large for the arrays at once (infs.runtime.chunking)
        runs = sum(1 for r in s["regions"] if r.get("chunks"))
        t.add_row("in memory in chunks", f"{runs} region run(s): " + ", ".join(f"{n} chunks of {what}" for n, what in sorted(chunked)))
    hidden = sum(r.get("dram_hidden", 0) for r in s["regions"])
    if hidden:  # double-buffered chunks: each fetch behind the previous chunk's compute (RegionRecord.dram_hidden)
        t.add_row("DRAM hidden behind compute", f"{hidden:,} cycles (not in total)")
    if s["mode"] == "auto":
        t.add_row("decided by", "policy lowerable (in memory whenever it lowers, the gem5 artifact's rule)" if s["policy"] == "lowerable" else "policy eq2 (Eq. 2, ASPLOS §4.3)")
    if s["jit"]["model"]:
        t.add_row("JIT model", s["jit"]["model"])
    t.add_row("JIT lowerings (not memoized)", str(s["jit"]["misses"]))
    t.add_row("JIT wall time", f"{s['jit']['seconds'] * 1e3:.1f} ms")
    aot = sum(1 for r in s["regions"] if r["reason"].startswith("a pimcmd.program"))
    if aot:  # programs compiled ahead of time (infs-opt --lower-pim): no JIT ran, none is charged
        t.add_row("compiled ahead of time", f"{aot} program run(s), no JIT")
    o = s["optimize"]
    t.add_row("tDFG nodes (optimize-tdfg)", f"{o['tdfg_nodes_before']} -> {o['tdfg_nodes_after']}, {o['seconds'] * 1e3:.1f} ms wall")
    t.add_row("simulation wall time", f"{s['wall_seconds']:.2f} s")
    for k, v in s["results"].items():
        t.add_row(f"result {k}", f"{v}")
    console.print(t)
    if "check" in s:
        c = s["check"]
        if c["ok"]:
            console.print(f"[green]check: outputs match {c['oracle']}[/] (max error {c['max_error']:.2e})")
        else:
            console.print(f"[red]check FAILED:[/] {c['note']}", soft_wrap=True)
        for label in c.get("unchecked", []):  # a compiled program with no infs.source: no oracle for its values
            console.print(f"[yellow]check: {label} carries no source graph (infs.source): the reference ran its own commands again, "
                          "so its values were not checked[/]", soft_wrap=True)  # fmt: skip
        # near/core regions take their values from the reference: say what each was really checked against
        for r in c["regions"]:
            if r["ran"] == "in":
                continue
            if r["against"] == "empty domain":
                console.print(f"check: region {r['region']} ran {r['ran']} over an empty iteration domain: nothing to cross-check", soft_wrap=True)
            elif r["against"] == "lattice":
                verdict = "[red]disagrees[/]: " + r["error"] if r["error"] else "agrees"
                console.print(f"check: region {r['region']} ran {r['ran']} (values from the stream reference); its tDFG on the lattice evaluator {verdict}", soft_wrap=True)
            else:
                console.print(f"check: region {r['region']} ran {r['ran']} and does not tensorize ({r['against'].removeprefix('reference only: ')}): its check is only reference vs reference", soft_wrap=True)


def errors_in_one_line(parser: argparse.ArgumentParser, prog: str) -> None:
    """A command-line mistake is one line on stderr and exit 2 (argparse prints its usage too)."""

    def one_line_error(message: str) -> NoReturn:
        print(f"{prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)

    parser.error = one_line_error  # type: ignore[method-assign]


def report_failure(prog: str, e: BaseException, source: str | None = None) -> int:
    """One line on stderr for an exception that ends a run, and its exit code:
    1 for bad input or a refused run, 130 for Ctrl-C, 70 for a bug in infs
    (``INFS_DEBUG=1`` re-raises it with its traceback).  ``source``: the program's
    file, named by an error of its values (``EvaluationError``: the lines are in
    its message)."""
    if isinstance(e, (api.InfsError, EvaluationError, ConfigError, SimError, ValueError)):
        text = str(e).strip()
        first = text.splitlines()[0] if text else type(e).__name__
        if isinstance(e, api.InfsError):
            print(f"{prog}: {e}", file=sys.stderr)
        else:
            print(f"{prog}: {source + ': ' if source and isinstance(e, EvaluationError) else ''}error: {first}", file=sys.stderr)
        return 1
    if isinstance(e, KeyboardInterrupt):
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    if os.environ.get("INFS_DEBUG"):
        raise e
    print(f"{prog}: internal error: {type(e).__name__}: {e} (please report; INFS_DEBUG=1 shows the traceback)", file=sys.stderr)
    return 70


def _context():
    """``api.make_context()``'s dialects without xDSL's multiverse: that is xDSL's
    dialects and, through the ``xdsl.universe`` entry point, infs's
    (``infs/universe.py``), and finding the entry points imports
    ``importlib.metadata`` (with email, zipfile...) and scans the installed
    packages, 30-80 ms of every start.  (Dialects of other xDSL
    plugins are not infs-run's business.)"""
    from xdsl.context import Context
    from xdsl.dialects import get_all_dialects

    ctx = Context()
    api.register_dialects(ctx, get_all_dialects())
    return ctx


def parse_program(path: Path):
    """The program's module.  A file with no operation (empty, or only
    comments and whitespace) parses as an empty module in infs-opt, as in
    mlir-opt; here it has nothing to run, and says so."""
    try:
        module = api.parse_file(path, ctx=_context())
    except api.InfsError:
        from infs.tools.infs_opt import holds_no_operation

        try:
            blank = holds_no_operation(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeError):
            blank = False  # parse_file's own error says what is wrong
        if blank:
            raise UsageError(f"'{path}' holds no operation: nothing to run") from None
        raise
    if not module.ops:
        raise UsageError(f"'{path}' holds an empty module: nothing to run")
    return module


def extract_plain_loops(module, path: Path, strict: bool = False) -> str | None:
    """A program of plain loops (no stream.region, tdfg.graph or pimcmd.program)
    goes through extract-streams first (``driver.extract_regions``).  Nothing to
    offload is a remark, returned (the host runs all of the program, as
    ``@infs.kernel`` does); ``strict`` (``--strict-offload``) makes it an error."""
    from xdsl.utils.exceptions import DiagnosticException

    plain = not any(op.name in ("stream.region", "tdfg.graph", "pimcmd.program") for op in module.walk())
    try:
        remark = extract_regions(module)
    except DiagnosticException as e:
        raise api.InfsError(str(e).strip().splitlines()[0]) from None
    if plain:
        api.verify_module(module)
    if remark is not None and strict:
        raise UsageError(f"'{path}': {remark.removesuffix('; the host runs all of it')} (--strict-offload)")
    return remark


class _VersionAction(argparse.Action):
    """``--version``, its text read from the installed metadata only when asked
    (argparse's own action takes the text up front: importlib.metadata at every start)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text(PROG))
        parser.exit()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=PROG, description="Run an infs program on the simulated machine.")
    parser.add_argument("file")
    parser.add_argument("--version", action=_VersionAction, help="print infs's and xDSL's versions and exit")
    parser.add_argument("--entry", help="function to run (default: the only public one)")
    parser.add_argument("--config", help="hardware config name or TOML/JSON file (default: the config a compiled program was lowered for, else paper-64)")
    parser.add_argument("--mode", default="auto", choices=[*MODES, "all"])
    parser.add_argument("--strict", action="store_true", help="a forced --mode that cannot be honoured for a region is an error (default: a warning, and the region runs near memory)")
    parser.add_argument("--strict-offload", action="store_true", help="a program with nothing to offload is an error (default: a remark, and the host runs all of it)")
    parser.add_argument("--sizes", action="append", help="N=64,M=32 (index arguments / workload sizes)")
    parser.add_argument("--scalar", action="append", help="NAME=VALUE for scalar arguments (f32 weights, i32 thresholds...), typed by the argument")
    parser.add_argument("--size-set", choices=["small", "paper"], help="workload size set (default small; workloads of infs/workloads only)")
    parser.add_argument("--shape", action="append", help="NAME=AxB for dynamic array shapes")
    parser.add_argument("--input", action="append", help="NAME=file.npy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save-outputs", metavar="DIR")
    parser.add_argument(
        "--check",
        action="store_true",
        help="compare the outputs with the stream reference semantics; a region that runs near memory or on the cores takes its values "
        "from that reference, so it is also cross-checked against its tDFG on the lattice evaluator (where it tensorizes; where it does "
        "not, its check is only reference vs reference)",
    )
    parser.add_argument("--tiles", help="force the tile shape, e.g. 16x16")
    parser.add_argument("--no-jit-charge", action="store_true", help="do not charge JIT cycles (Inf-S no JIT)")
    parser.add_argument("--policy", default="eq2", choices=POLICIES,
                        help="who decides where an auto region runs: eq2 (default, Inf-S's Eq. 2) or lowerable (in memory whenever it lowers, else near memory, else the cores: the gem5 artifact's rule)")
    parser.add_argument("--jit-model", choices=JIT_MODELS, help="the config's jit_model for this run (hardware 10 cycles/cmd, gem5-controller 100, software 1000, ...; see docs/hardware.md)")
    parser.add_argument("--no-optimize", action="store_true", help="lower each region's tDFG as tensorized, without optimize-tdfg (Inf-S no e-graph)")
    parser.add_argument("--no-chunks", action="store_true", help="a region too large for the SRAM arrays runs near memory instead of in memory in chunks")
    parser.add_argument("--analysis", action="store_true", help="timing only, no data (paper sizes)")
    parser.add_argument("--cold", action="store_true", help="inputs start in DRAM (default: in the L3, as after initialization)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--view", metavar="OUT.html", help="also write infs-view's page of the run (with --mode all: of the in-memory run)")

    errors_in_one_line(parser, PROG)
    args = parser.parse_args(argv)
    console = Console()
    try:
        path = Path(args.file)
        cfg = load_config(args.config) if args.config is not None else None
        module = parse_program(path)
        if cfg is None:  # a compiled program's own machine (infs.runtime.compiled), else the default
            from infs.runtime.compiled import module_config

            args.config = module_config(module) or "paper-64"
            cfg = load_config(args.config)
        fn = find_function(module, args.entry)
        remark = extract_plain_loops(module, path, args.strict_offload)
        if remark is not None and not args.json:
            print(f"{PROG}: remark: '{path}': {remark} (infs models no cost for host code: the report's cycles are 0)", file=sys.stderr)
        if args.check and args.analysis:
            raise UsageError("--check needs the functional simulation (drop --analysis)")
        if args.save_outputs and args.analysis:
            raise UsageError("--save-outputs needs the functional simulation (--analysis computes no values)")
        if args.mode in ("near", "core") and (args.tiles or args.no_jit_charge):
            raise UsageError(f"{'--tiles' if args.tiles else '--no-jit-charge'} applies to in-memory execution; --mode {args.mode} runs nothing in memory")
        if args.policy != "eq2" and args.mode != "auto":
            raise UsageError(f"--policy decides auto regions; --mode {args.mode} forces them")
        if args.jit_model is not None:
            if args.mode in ("near", "core"):
                raise UsageError(f"--jit-model applies to in-memory execution; --mode {args.mode} runs nothing in memory")
            cfg = load_config(cfg, jit_model=args.jit_model)
            args.config = cfg
        if args.strict and args.mode == "auto":
            raise UsageError("--strict applies to a forced --mode (in, near, core or all)")
        if args.save_outputs:
            _prepare_save_dir(args.save_outputs)
        if args.view is not None:  # (an empty path is an error, not "no view")
            from infs.tools import infs_view

            try:
                view_path = infs_view.check_output(args.view, "--view")
            except infs_view.ViewError as e:
                raise UsageError(str(e)) from None
        modes = ["in", "near", "core"] if args.mode == "all" else [args.mode]
        outs = []
        viewed = None
        for m in modes:
            o = run_once(module, path, fn, args, m, console)
            viewed = o if args.view and (viewed is None or m == "in") else viewed
            s = summary(o, cfg.freq_ghz)
            for f in s["not_honoured"]:
                print(f"{PROG}: warning: region {f['region']}: --mode {m} not honoured, ran {_MODE_WORDS.get(f['ran'], f['ran'])}: {f['reason']}", file=sys.stderr)
            outs.append(s)
        if viewed is not None:
            try:
                infs_view.write_view(infs_view.data_of_report(viewed["report"], cfg, f"{path.name} (--mode {viewed['mode']})", not args.cold, inputs=viewed["values"]), view_path, None)
            except infs_view.ViewError as e:
                raise UsageError(str(e)) from None
    except ModeNotHonoured as e:
        if not e.strict:  # a tdfg.graph that cannot run in memory: the driver's own words
            return report_failure(PROG, e, args.file)
        print(f"{PROG}: error: region {e.region}: --mode {e.mode} cannot be honoured (--strict): {e.reason}", file=sys.stderr)
        return 1
    except UsageError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, Exception) as e:
        return report_failure(PROG, e, args.file)
    if args.json:
        for s in outs:
            s["remarks"] = [remark] if remark is not None else []
        print(json.dumps(outs if len(outs) > 1 else outs[0], indent=2, default=float))
    else:
        for s in outs:
            print_report(console, path, s, cfg.name)
        if len(outs) > 1:
            t = Table(title="modes compared")
            for c in ("mode", "ran as", "cycles", "speedup vs core", "NoC byte-hops", "energy µJ"):
                t.add_column(c, justify="right")
            core = next(s for s in outs if s["mode"] == "core")["total_cycles"] or 1
            for s in outs:
                # a region that could not run in memory ran near: the row says so, not only stderr
                ran = s["ran_as"] if not s["not_honoured"] else f"[yellow]{s['ran_as']} (not honoured: region {', '.join(sorted({str(f['region']) for f in s['not_honoured']}))})[/]"
                t.add_row(s["mode"], ran, f"{s['total_cycles']:,}", f"{core / max(1, s['total_cycles']):.2f}x", f"{s['noc_byte_hops']:,.0f}", f"{s['total_energy_pj'] / 1e6:,.3f}")
            console.print(t)
            for s in outs:
                for f in s["not_honoured"]:
                    console.print(f"[yellow]{s['mode']} row:[/] region {f['region']} ran {_MODE_WORDS.get(f['ran'], f['ran'])}: {f['reason']}", soft_wrap=True)
    failed = any("check" in s and not s["check"]["ok"] for s in outs)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
