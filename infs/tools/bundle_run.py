"""``infs-run FILE.infsb``: a bundle run, with the compiler never loaded (docs/bundles.md).

Takes: infs-run's flags (an ``argparse`` namespace) and a bundle
(``infs-opt --tensorize --emit-bundle``).  Gives: ``run_once``'s dict, as
``runner.run_once`` gives it for a ``.mlir``: the function's arguments from
the command line (``--sizes``/``--scalar``/``--shape``/``--input``/``--seed``,
typed by the bundle's host signature), or, for a bundle of a workload of
``infs/workloads`` (its program name and signature are the workload's), the
registry's inputs and sizes; the run (``bundle.executor.run_bundle``); and
``--check`` against the workload's numpy reference (a bundle of another
program has no oracle here: its ``.mlir`` has, ``infs-run FILE.mlir --check``).
Imports no xDSL, no compiler pass and no egglog (``test_bundle_run``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from infs.runtime.bundle.executor import BundleProgram, run_bundle
from infs.runtime.bundle.host_program import HostFunction
from infs.runtime.bundle.host_values import dtype_of, is_memref
from infs.runtime.check import compare_values
from infs.runtime.in_memory import RunOptions
from infs.runtime.memory import phantom_array
from infs.tools.cli import UsageError
from infs.tools.run_args import _check_capacity, fill_arrays, _npy_header, _parse_kv, _parse_shape, _parse_sizes, _tiles, _workload_shapes


def bundle_workload(prog: BundleProgram, fn: HostFunction):
    """The workload of ``infs/workloads`` the bundle was written from (its program name,
    entry and argument names), or None."""
    from infs.workloads import WORKLOADS

    w = WORKLOADS.get(prog.name or "")
    if w is None or w.entry != fn.name or list(w.args) != list(fn.arg_names):
        return None
    return w


def _scalar(name: str, text: str, ty: str) -> Any:
    dt = dtype_of(ty)
    if dt is None:
        raise UsageError(f"bad --scalar {name}={text}: %{name} is an {ty} argument, which the command line does not give")
    try:
        v: Any = float(text) if dt.kind == "f" else int(text)
    except ValueError:
        raise UsageError(f"bad --scalar {name}={text}: %{name} is a {ty} argument: expected {'a number' if dt.kind == 'f' else 'an integer'}") from None
    if dt.kind in "iu" and not (np.iinfo(dt).min <= v <= np.iinfo(dt).max):
        raise UsageError(f"bad --scalar {name}={text}: out of range for {ty}")
    if dt == np.bool_ and v not in (0, 1):
        raise UsageError(f"bad --scalar {name}={text}: %{name} is an i1 argument: expected 0 or 1")
    return v if ty == "index" else np.asarray(v, dtype=dt)[()]


def build_arguments(prog: BundleProgram, fn: HostFunction, args: argparse.Namespace, phantom: bool) -> tuple[dict[str, Any], dict[str, int], list[str], list[str], Any]:
    """(argument values by name, sizes, output array names, result names, the workload or None)."""
    sizes_given = _parse_sizes(args)
    inputs_given = _parse_kv(args.input, "input") if args.input else {}
    shapes_given = _parse_kv(args.shape, "shape") if args.shape else {}
    scalars_given = _parse_kv(args.scalar, "scalar") if args.scalar else {}
    if any(n is None for n in fn.arg_names):
        raise UsageError(f"@{fn.name} has an unnamed argument: the command line gives arguments by name")
    w = bundle_workload(prog, fn)
    if w is not None:
        for flag, given in (("--input", inputs_given), ("--shape", shapes_given), ("--scalar", scalars_given)):
            if given:
                raise UsageError(f"{flag} {sorted(given)[0]}: the bundle is of the workload {w.name}, whose arguments come from the registry (--size-set, --sizes, --seed)")
        unknown = set(sizes_given) - set(w.small) - set(fn.arg_names)
        if unknown:
            raise UsageError(f"--sizes: '{sorted(unknown)[0]}' is not a size of {w.name} (sizes: {', '.join(w.small)})")
        sizes = {**w.sizes(args.size_set or "small"), **sizes_given}
        shapes = _workload_shapes(w, sizes)
        copied = set(w.outputs) if args.check else set()
        if phantom:
            values: dict[str, Any] = {k: phantom_array(shape, dt) for k, (shape, dt) in shapes.items()}
        else:
            _check_capacity([(k, shape, dt) for k, (shape, dt) in shapes.items()], copied)
            values = dict(w.inputs(sizes, args.seed))
        for a in fn.arg_names:
            if a not in values and a in sizes:
                values[a] = sizes[a]
        return values, sizes, list(w.outputs), list(w.results), w
    if args.size_set is not None:
        raise UsageError("--size-set applies to the workloads of infs/workloads; give the bundle's sizes with --sizes")
    if args.check:
        raise UsageError("--check: a bundle of a program outside infs/workloads has no reference here; check its .mlir (infs-run FILE.mlir --check)")
    types = dict(zip(fn.arg_names, fn.arg_types))
    arrays = [n for n, t in types.items() if is_memref(t)]
    scalars = [n for n, t in types.items() if not is_memref(t)]
    for flag, given, allowed, what in (("--input", inputs_given, arrays, "array"), ("--shape", shapes_given, arrays, "array"),
                                       ("--scalar", scalars_given, scalars, "scalar"), ("--sizes", sizes_given, scalars, "scalar")):  # fmt: skip
        for k in given:
            if k not in allowed:
                raise UsageError(f"{flag} {k}: @{fn.name} has no {what} argument %{k} ({what}s: {', '.join('%' + n for n in allowed) or 'none'})")
    for k in set(inputs_given) & set(shapes_given):
        raise UsageError(f"--shape {k} and --input {k}: an input file has its own shape")
    rng = np.random.default_rng(args.seed)
    values, outputs, sizes = {}, [], dict(sizes_given)
    plan = []
    for name in arrays:
        _, static, elem = types[name]
        dt = dtype_of(elem)
        if name in inputs_given:
            shape, _ = _npy_header(name, inputs_given[name])
        elif name in shapes_given:
            shape = tuple(_parse_shape(name, shapes_given[name]))
        elif any(s < 0 for s in static):
            # (the .mlir path's words, the type as MLIR spells it: a cached .mlir run says the same)
            spelled = "memref<" + "".join(f"{'?' if s < 0 else s}x" for s in static) + f"{elem}>"
            raise UsageError(f"argument %{name} has a dynamic shape {spelled}: give --shape {name}=AxB or --input {name}=file.npy")
        else:
            shape = tuple(static)
        if len(shape) != len(static) or any(s >= 0 and s != n for s, n in zip(static, shape)):
            raise UsageError(f"shape {list(shape)} does not fit argument %{name} (static shape {static})")
        plan.append((name, shape, dt))
    if not phantom:
        _check_capacity(plan)
    fill_arrays(plan, values, outputs, inputs_given, rng, phantom)
    for name in scalars:
        ty = types[name]
        if name in scalars_given:
            values[name] = _scalar(name, scalars_given[name], ty)
            if ty == "index":
                if values[name] < 0:
                    raise UsageError(f"bad --scalar {name}={scalars_given[name]}: %{name} is an index: non-negative")
                sizes[name] = values[name]
        elif name in sizes:
            values[name] = sizes[name] if ty == "index" else _scalar(name, str(sizes[name]), ty)
        elif ty == "index" or ty.startswith("i"):
            raise UsageError(f"argument %{name} of @{fn.name} is a size that was never bound: give --sizes {name}=...")
        else:
            raise UsageError(f"argument %{name} of @{fn.name} ({ty}) is a scalar that was never bound: give --scalar {name}=...")
    return values, sizes, outputs, [f"result{i}" for i in range(len(fn.result_types))], None


def run_once(prog: BundleProgram, path: Path, args: argparse.Namespace, mode: str) -> dict[str, Any]:
    """One run of the bundle in ``mode`` (``runner.run_once``'s dict)."""
    fn = prog.host.find(args.entry or prog.entry)
    values, sizes, outputs, result_names, w = build_arguments(prog, fn, args, phantom=args.analysis)
    copies = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in values.items()} if args.check else {}
    if args.check:
        from infs.runtime import jit

        jit.set_verify(True)  # (the verifiers are the IR's: xDSL is loaded for --check, as in a .mlir run)
    options = RunOptions(config=args.config, mode=mode, tiles=_tiles(args.tiles), jit=not args.no_jit_charge, policy=args.policy,
                         machine_mode="analysis" if args.analysis else "functional", warm=not args.cold, strict=args.strict,
                         strict_offload=args.strict_offload)  # fmt: skip
    args_in_order = {n: values[n] for n in fn.arg_names}
    report = run_bundle(prog, args_in_order, fn.name, options)
    out: dict[str, Any] = {"mode": mode, "report": report, "values": values, "outputs": outputs, "results": dict(zip(result_names, report.results)),
                           "policy": options.policy, "jit_model": report.machine.cfg.jit_model}  # fmt: skip
    if args.check:
        expected = w.reference({k: v for k, v in copies.items() if isinstance(v, np.ndarray)}, sizes)
        actual = {**{k: values[k] for k in outputs}, **out["results"]}
        out["check"] = compare_values({k: actual[k] for k in expected}, expected)
        out["oracle"] = f"the numpy reference of the workload {w.name}"
    if args.save_outputs:
        d = Path(args.save_outputs)
        for k in outputs:
            try:
                np.save(d / f"{k}.npy", values[k])
            except OSError as e:
                raise UsageError(f"--save-outputs: cannot write '{d / f'{k}.npy'}': {e.strerror}") from None
    return out
