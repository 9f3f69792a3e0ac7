"""What ``infs-run`` and ``infs-view`` share: a program file and the run's arguments in, a run and its summary out.

``program_path`` finds the file (or a named workload's, ``nsc/pr_pull``),
``parse_program`` reads it (a file with nothing to run says so),
``extract_plain_loops`` sends plain loops through extract-streams,
``build_arguments`` makes the function's arguments from the command line
(a workload's registry inputs, ``--sizes``/``--scalar``/``--shape``/``--input``/
``--seed``; shapes known and the host's memory checked before any array is
allocated), ``run_once`` runs it in one mode (and ``--check``s it against
its oracle), ``summary`` gives the report as the tools print it.  The
arguments are an ``argparse`` namespace of infs-run's flags (infs-view sets
those it lacks).  Every mistake in them is a ``UsageError``.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects.builtin import IndexType, IntegerType, MemRefType

from infs import api
from infs.hardware import load_config
from infs.runtime import jit
from infs.runtime.check import compare_values
from infs.runtime.driver import RegionRecord, RunOptions, RunReport, extract_regions, run_program
from infs.runtime.host import find_function, phantom_array, run_function, unnamed_argument
from infs.runtime.memory import available_memory, human_bytes
from infs.runtime.scalar_ops import numpy_dtype
from infs.tools.cli import UsageError
from infs.tools.run_args import _check_capacity, fill_arrays, _npy_header, _parse_kv, _parse_shape, _parse_sizes, _tiles, _workload_for, _workload_shapes, prepare_save_dir, program_path, summary  # noqa: F401 -- infs-view's and the tests' names

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["UsageError", "build_arguments", "extract_plain_loops", "find_function", "may_write", "parse_program", "program_path", "run_once", "run_program", "summary"]


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
    fill_arrays(plan, values, outputs, inputs_given, rng, phantom)
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
        from infs.tools.opt_driver import holds_no_operation

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
