"""Simulator speed on the full paper-64 machine (ASPLOS Table 2: 4,194,304 bitlines).

    .venv/bin/python benchmarks/bench_sim.py [--repeat N] [--json FILE]

Runs one-command ``pimcmd`` programs on ``Machine("paper-64")`` over a
2048 x 2048 f32 lattice in 16 x 16 tiles (every bitline of every array) and
reports, per command, the wall time of ``machine.run`` (median and best of
N), simulated commands per second and element-ops (cells) per second, next to
the host's memory-bandwidth bound for the same bytes, measured here with numpy:

* fp32 add reads two 16 MB registers and writes one: ``np.add(a, b, out=c)``
  on three 16 MB float32 arrays;
* a shift reads one 16 MB register and writes one: ``np.copyto(d, s)``.

Everything printed is measured on this machine when the script runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.parser import Parser

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from infs.dialects import INFS_DIALECTS  # noqa: E402
from infs.sim import Machine, load_config  # noqa: E402

N = 2048
T = 16
MT = f"memref<{N}x{N}xf32>"


def context() -> Context:
    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    for d in INFS_DIALECTS:
        if d.name not in ctx.registered_dialect_names:
            ctx.load_dialect(d)
    return ctx


def program(ctx: Context, body: str, arrays: bool = False):
    cfg = load_config("paper-64")
    ins = f"ins(%A, %B : {MT}, {MT}) " if arrays else ""
    args = f"^bb0(%a: {MT}, %b: {MT}):\n" if arrays else ""
    text = (
        f"pimcmd.program {ins}config paper_64 lattice [{N}, {N}] tiles [{T}, {T}] banks {cfg.banks} "
        f"arrays_per_bank {cfg.arrays_per_bank} wordlines {cfg.wordlines} {{\n{args}{body}\n}}"
    )
    op = Parser(ctx, text).parse_op()
    op.verify()
    return op


def timed(fn, repeat: int) -> list[float]:
    fn()  # warm-up (plans cached, pages touched)
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--json", type=Path, default=None, help="also write the results as JSON")
    args = ap.parse_args(argv)

    ctx = context()
    cfg = load_config("paper-64")
    cells = N * N
    assert cells == cfg.total_bitlines
    tiles = cells // cfg.bitlines

    m = Machine(cfg)
    rng = np.random.default_rng(0)
    A = rng.standard_normal((N, N)).astype(np.float32)
    B = rng.standard_normal((N, N)).astype(np.float32)
    setup = program(
        ctx,
        f"  pimcmd.array %a shape [{N}, {N}] wordline 0 : {MT}\n"
        f"  pimcmd.array %b shape [{N}, {N}] wordline 32 : {MT}\n"
        f"  pimcmd.transpose_in %a : {MT}\n  pimcmd.transpose_in %b : {MT}",
        arrays=True,
    )
    m.run(setup, {"a": A, "b": B})

    every = f"bitlines 0:1:{cfg.bitlines} tiles 0:1:{tiles}"
    cases = {
        "fp32 add (all 4,194,304 bitlines)": (f"  pimcmd.compute add f32 dst 64 srcs [0, 32] {every}", "add3"),
        "intra-tile shift f32 (dim 1 by 1)": (
            f"  pimcmd.shift f32 dst 96 src 0 dim 1 mask [0:{T - 1}] inter 0 intra 1 bitlines 0:1:{T - 1}:{T}:{T} tiles 0:1:{tiles}",
            "copy",
        ),
        "inter-tile shift f32 (dim 1, tile edge)": (
            f"  pimcmd.shift f32 dst 96 src 0 dim 1 mask [{T - 1}:{T}] inter 1 intra -{T - 1} bitlines {T - 1}:{T}:{T} tiles 0:1:{tiles}",
            None,
        ),
        "fp32 mul by constant": (f"  pimcmd.compute mul f32 dst 128 srcs [0] const 0.5 {every}", "copy"),
    }

    # Host memory-bandwidth bounds for the same bytes (measured now).
    a = rng.standard_normal(cells).astype(np.float32)
    b = rng.standard_normal(cells).astype(np.float32)
    c = np.empty_like(a)
    bounds = {
        "add3": statistics.median(timed(lambda: np.add(a, b, out=c), args.repeat)),
        "copy": statistics.median(timed(lambda: np.copyto(c, a), args.repeat)),
    }

    rows = []
    for name, (body, bound) in cases.items():
        prog = program(ctx, body)
        stats = m.run(prog)
        ts = timed(lambda: m.run(prog), args.repeat)
        med, best = statistics.median(ts), min(ts)
        # compute: cells computed; moves: cells moved (bytes moved / 4 B)
        ops = stats.element_ops or (stats.traffic["intra_tile"] + stats.traffic["inter_tile"]) / 4
        row = {
            "command": name,
            "median_ms": med * 1e3,
            "best_ms": best * 1e3,
            "commands_per_s": 1.0 / med,
            "element_ops_per_s": ops / med,
            "simulated_cycles": stats.total_cycles,
            "bound": bound,
            "bound_ms": bounds[bound] * 1e3 if bound else None,
        }
        row["ratio_to_bound"] = med / bounds[bound] if bound else None
        rows.append(row)

    # Correctness of what was timed.
    check = np.empty((N, N), np.float32)
    from infs.sim.geometry import Geometry, gather_box

    geo = Geometry((N, N), (T, T), cfg.arrays_per_bank)
    gather_box(m.regs.read(64, 32)[: geo.cells].view(np.float32).reshape(geo.grid + geo.tiles), geo, ((0, N), (0, N)), check)
    assert np.array_equal(check, A + B), "fp32 add result differs from numpy"

    print(f"infs simulator on {cfg.name}: {cfg.total_bitlines:,} bitlines, {N}x{N} f32 lattice, {T}x{T} tiles; median of {args.repeat}")
    print(f"numpy bound: add of three 16 MB arrays {bounds['add3'] * 1e3:.2f} ms, copy of 16 MB {bounds['copy'] * 1e3:.2f} ms")
    print()
    print(f"{'command':42s} {'median ms':>10s} {'best ms':>8s} {'bound ms':>9s} {'x bound':>8s} {'cmds/s':>8s} {'elem-ops/s':>11s}")
    for r in rows:
        bms = f"{r['bound_ms']:.2f}" if r["bound_ms"] is not None else "-"
        rat = f"{r['ratio_to_bound']:.2f}" if r["ratio_to_bound"] is not None else "-"
        print(
            f"{r['command']:42s} {r['median_ms']:10.2f} {r['best_ms']:8.2f} {bms:>9s} {rat:>8s} "
            f"{r['commands_per_s']:8.0f} {r['element_ops_per_s']:11.3e}"
        )
    # Analysis mode: the same commands without data.
    am = Machine(cfg, mode="analysis")
    prog = program(ctx, "\n".join(b for b, _ in cases.values()) + "\n  pimcmd.sync")
    am.run(prog)
    ts = timed(lambda: am.run(prog), args.repeat)
    n_cmds = len(cases) + 1
    print()
    print(f"analysis mode (no data), {n_cmds} commands: {statistics.median(ts) * 1e3:.3f} ms per run, "
          f"{n_cmds / statistics.median(ts):,.0f} commands/s")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps({"bounds_ms": {k: v * 1e3 for k, v in bounds.items()}, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
