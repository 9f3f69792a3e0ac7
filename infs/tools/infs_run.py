"""``infs-run``: run a program on the simulated machine and report (the runtime of ASPLOS §4, the machine of §5).

    infs-run FILE.mlir [--entry F] [--config paper-64] [--mode auto|in|near|core|all] [--strict] [--strict-offload]
             [--sizes N=64,M=32] [--scalar w=0.5] [--shape A=64x64] [--input A=a.npy] [--seed 0]
             [--save-outputs DIR] [--check] [--tiles 16x16] [--no-jit-charge]
             [--policy eq2|lowerable] [--jit-model NAME]
             [--no-chunks] [--analysis] [--cold] [--json] [--view OUT.html] [--no-cache]

Inputs: a workload of ``infs/workloads`` (by its file; the near-stream
workloads also by name, ``infs-run nsc/pr_pull``) gets the registry's
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
graph each program was lowered from.  A ``.mlir`` whose offloads are all
``tdfg.graph`` ops (``infs-opt --tensorize``) is cached as a bundle, and its
next run starts as a bundle's (``infs.tools.bundle_cache``; ``--no-cache``).  A program with nothing to offload runs
on the host with one remark (``--strict-offload``: an error).
docs/running-programs.md says more.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

# (light imports only: --help and --version load no xDSL, numpy or rich; what runs
# a program is imported once the arguments are read)
from infs.jit_models import JIT_MODELS
from infs.runtime.dram_pim_machines import MACHINES as DRAM_PIM_MACHINES
from infs.runtime.modes import MODES, POLICIES
from infs.tools.cli import UsageError, VersionAction, errors_in_one_line, report_failure

if TYPE_CHECKING:
    from rich.console import Console

PROG = "infs-run"


# a crossbar program's file names (``xbar_run.SUFFIXES``, equal by test_startup): xbar_run
# itself imports numpy, which --help and --version do not load
XBAR_SUFFIXES = (".xbar.json", ".xbar.mlir")

_MODE_WORDS = {"near": "near memory", "core": "on the cores", "in": "in memory"}


def print_report(console: Console, path: Path, s: dict[str, Any], cfg_name: str) -> None:
    from rich.table import Table

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


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if any(a.endswith(XBAR_SUFFIXES) for a in argv if not a.startswith("-")):  # a crossbar (STREAM) program
        from infs.tools import xbar_run

        return xbar_run.run(argv)
    parser = argparse.ArgumentParser(prog=PROG, description="Run an infs program on the simulated machine.")
    parser.add_argument("file")
    parser.add_argument("--version", action=VersionAction, help="print infs's and xDSL's versions and exit")
    parser.add_argument("--entry", help="function to run (default: the only public one)")
    parser.add_argument("--config", help="hardware config name or TOML/JSON file (default: the config a compiled program was lowered for, else paper-64), "
                        f"or a GPU + DRAM-PIM machine ({', '.join(DRAM_PIM_MACHINES)}: docs/dram-pim.md)")
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
    parser.add_argument("--no-cache", action="store_true",
                        help="neither read nor write the bundle cache (a .mlir whose offloads are all tdfg.graphs is cached as a bundle "
                        "under $XDG_CACHE_HOME/infs/bundles, so that its next run loads no compiler)")

    errors_in_one_line(parser, PROG)
    args = parser.parse_args(argv)
    if args.config in DRAM_PIM_MACHINES:  # PIMFlow's runtime on the GPU + DRAM-PIM machine
        from infs.tools import dram_pim_report

        try:
            return dram_pim_report.run(args, PROG)
        except UsageError as e:
            print(f"{PROG}: error: {e}", file=sys.stderr)
            return 2
        except (KeyboardInterrupt, Exception) as e:
            return report_failure(PROG, e, args.file)
    from rich.console import Console

    from infs.hardware import load_config
    from infs.runtime.in_memory import ModeNotHonoured
    from infs.tools import bundle_cache
    from infs.tools.run_args import prepare_save_dir, program_path, summary

    console = Console(emoji=False)  # (a location such as 'f.mlir:100:5' is text, not rich's emoji code ':100:')
    try:
        path = program_path(args.file)
        bundle = path.suffix == ".infsb"
        cfg = load_config(args.config) if args.config is not None else None
        remark = None
        cached = entry = None
        if not bundle and bundle_cache.serves(args):
            entry = bundle_cache.entry_path(path)
            cached = bundle_cache.load(entry) if entry is not None else None
        if bundle or cached is not None:
            from infs.runtime.bundle.executor import load_bundle
            from infs.tools import bundle_run

            if args.view is not None:
                raise UsageError("--view draws a program's IR: run the bundle's .mlir (infs-run FILE.mlir --view OUT.html)")
            if args.no_optimize:
                raise UsageError("--no-optimize: a bundle's graphs run as the compiler left them (run its .mlir to lower unoptimized graphs)")
            prog = cached if cached is not None else load_bundle(path)
            bundle = True
            if cfg is None:
                args.config = "paper-64"
                cfg = load_config(args.config)
        else:
            from infs.runtime.host import find_function
            from infs.tools.runner import extract_plain_loops, parse_program, run_once

            module = parse_program(path)
            if cfg is None:  # a compiled program's own machine (infs.runtime.compiled), else the default
                from infs.runtime.compiled import module_config

                args.config = module_config(module) or "paper-64"
                cfg = load_config(args.config)
            fn = find_function(module, args.entry)
            remark = extract_plain_loops(module, path, args.strict_offload)
            if entry is not None:
                bundle_cache.store(entry, module)  # (before the run, which may annotate the module)
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
            prepare_save_dir(args.save_outputs)
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
            o = bundle_run.run_once(prog, path, args, m) if bundle else run_once(module, path, fn, args, m, console)
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
            from rich.table import Table

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
