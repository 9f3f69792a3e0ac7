"""``infs-run FILE.mlir --config gpu-dram-pim``: a network on a GPU + DRAM-PIM machine
(``runtime/dram_pim_run``) and its per-layer table.

Takes infs-run's parsed arguments (the file, ``--config`` one of
``runtime/dram_pim_machines``, ``--entry``, ``--input``/``--shape``/``--seed``
for the arguments, ``--check``, ``--json``); gives the exit code, having
printed the table of where each layer ran and why (or the JSON of it).
Options of the in-SRAM machine (``--mode``, ``--tiles``, ...) are refused in
one line: they mean nothing here.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from infs.runtime.dram_pim_machines import MACHINES
from infs.tools.cli import UsageError

# infs-run's options that only the in-SRAM machine reads, and their defaults
_SRAM_ONLY = {"mode": "auto", "strict": False, "strict_offload": False, "sizes": None, "scalar": None, "size_set": None, "save_outputs": None,
              "tiles": None, "no_jit_charge": False, "policy": "eq2", "jit_model": None, "no_optimize": False, "no_chunks": False,
              "analysis": False, "cold": False, "view": None}  # fmt: skip


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def run(args: argparse.Namespace, prog: str) -> int:
    from rich.console import Console
    from rich.table import Table

    from infs.runtime import dram_pim_run
    from infs.tools.runner import build_arguments, parse_program, program_path

    for name, default in _SRAM_ONLY.items():
        if getattr(args, name, default) != default:
            raise UsageError(f"{_flag(name)} applies to the in-SRAM machine; --config {args.config} is a GPU + DRAM-PIM machine")
    path: Path = program_path(args.file)
    module = parse_program(path)
    from infs.runtime.host import find_function

    fn = find_function(module, args.entry)
    values, _, outputs, _ = build_arguments(path, fn, args)
    given = {k: v.copy() for k, v in values.items() if k in outputs}
    res = dram_pim_run.run(module, values, args.config, args.entry, args.check)
    if args.json:
        print(json.dumps(_as_json(res), indent=2, default=float))
        return 0 if res.check is None or res.check["ok"] else 1
    console = Console(emoji=False, width=None if sys.stdout.isatty() else 160)  # (a pipe's 80 columns wrap every row)
    console.rule(f"[bold]{path.name}[/] on {args.config} ({MACHINES[args.config][1]})")
    t = Table(title="where each layer ran and why: modelled µs on the GPU (roofline + launch) / on DRAM-PIM (the command-level machine)")
    for c, j in (("layer", "left"), ("op", "left"), ("shape", "left"), ("where", "left"), ("why (µs)", "left"), ("µs", "right"), ("µJ", "right")):
        t.add_column(c, justify=j)  # type: ignore[arg-type]
    for x in res.layers:
        where = {"gpu": "GPU", "pim": "[green]DRAM-PIM[/]"}.get(x.mode, f"[cyan]split {10 * x.ratio}% PIM[/]")
        t.add_row(x.name, x.op, x.shape, where, x.why, f"{x.seconds * 1e6:.3f}", f"{x.energy_j * 1e6:.3f}")
    t.add_row(f"{res.host_regions} regions", "element-wise", "", "GPU", "bias, activations, pads, pools, adds (values: host)", f"{res.host_seconds * 1e6:.3f}", f"{res.host_energy_j * 1e6:.3f}")
    counts = {m: sum(1 for x in res.layers if x.mode == m) for m in ("gpu", "pim", "split")}
    t.add_row("[bold]total", f"{len(res.layers)} layers", "", f"GPU {counts['gpu']}, PIM {counts['pim']}, split {counts['split']}", f"PIMFlow config {res.config}",
              f"[bold]{res.seconds * 1e6:.3f}", f"[bold]{res.energy_j * 1e6:.3f}")  # fmt: skip
    console.print(t)
    for k in outputs:
        v = res.outputs[k]
        if k in given and (v == given[k]).all():  # only read
            continue
        console.print(f"output {k}: shape {list(v.shape)}, mean {float(v.mean()):.6g}, max |.| {float(abs(v).max(initial=0)):.6g}")
    if res.check is not None:
        c = res.check
        errs = ", ".join(f"{k} {v:.2e}" for k, v in c["relative_error"].items())
        if c["ok"]:
            console.print(f"[green]check: every layer within its fp16 MACs' rounding bound[/] (worst {c['worst_layer']} at {c['worst_ratio']:.2f} of it); "
                          f"outputs vs the float32 reference: {errs} of their magnitude (guard {c['tolerance']:.2e})", soft_wrap=True)  # fmt: skip
        else:
            console.print(f"[red]check FAILED:[/] {c['note']}", soft_wrap=True)
        return 0 if c["ok"] else 1
    return 0


def _as_json(res: Any) -> dict[str, Any]:
    return {
        "machine": res.machine,
        "pimflow_config": res.config,
        "layers": [{k: v for k, v in x.__dict__.items()} for x in res.layers],
        "host": {"regions": res.host_regions, "seconds": res.host_seconds, "energy_j": res.host_energy_j},
        "seconds": res.seconds,
        "energy_j": res.energy_j,
        **({"check": res.check} if res.check is not None else {}),
    }
