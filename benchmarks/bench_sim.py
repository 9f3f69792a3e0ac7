"""Simulator speed on the full paper-64 machine (ASPLOS Table 2: 4,194,304 bitlines).

    .venv/bin/python benchmarks/bench_sim.py [--repeat N] [--json FILE]
                                             [--mode functional|bitlevel|all]
                                             [--bit-repeat N] [--profile N]

Runs one-command ``pimcmd`` programs on ``Machine("paper-64")`` over a
2048 x 2048 f32 lattice in 16 x 16 tiles (every bitline of every array) and
reports, per command, the wall time of ``machine.run`` (median and best of
N), simulated commands per second and element-ops (cells) per second, next to
the host's memory-bandwidth bound for the same bytes, measured here with numpy:

* fp32 add reads two 16 MB registers and writes one: ``np.add(a, b, out=c)``
  on three 16 MB float32 arrays;
* a shift reads one 16 MB register and writes one: ``np.copyto(d, s)``.

``--mode bitlevel`` (also part of ``all``, the default) times i32 add and i32
mul over the same 4,194,304 bitlines in ``mode="bitlevel"`` (bit-serial
algorithms on bit-planes, ``infs/sim/sram/bitlevel.py``) against the same command in
the word-level functional mode, runs of the two machines interleaved so both
see the same load; it checks both give the same words (and numpy's) and prints
min / median / max and the ratio of the medians, in wall-clock time and in the
process's CPU time (``time.process_time``: on a shared machine the longer
bit-level runs are preempted more often than the 2 ms word-level ones, which
the wall-clock ratio then charges to bit level). ``--profile N`` prints the top
N entries of a cProfile of one bit-level run of each command.

Everything printed is measured on this machine when the script runs.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
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
from infs.sim.sram.geometry import Geometry, gather_box  # noqa: E402

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


def bitlevel_table(ctx: Context, repeat: int, profile: int) -> list[dict]:
    """i32 add and mul over every bitline: bit-level vs word-level, interleaved runs."""
    cfg = load_config("paper-64")
    cells = N * N
    tiles = cells // cfg.bitlines
    mi = f"memref<{N}x{N}xi32>"
    rng = np.random.default_rng(1)
    # full-range words, with small values, -1, 0 and INT_MIN mixed in
    A = rng.integers(-(2**31), 2**31, (N, N), dtype=np.int64).astype(np.int32)
    B = rng.integers(-(2**31), 2**31, (N, N), dtype=np.int64).astype(np.int32)
    B[rng.random((N, N)) < 0.3] = rng.integers(-3, 4)
    A[rng.random((N, N)) < 0.05] = np.iinfo(np.int32).min
    text = (
        f"pimcmd.program ins(%A, %B : {mi}, {mi}) config paper_64 lattice [{N}, {N}] tiles [{T}, {T}] "
        f"banks {cfg.banks} arrays_per_bank {cfg.arrays_per_bank} wordlines {cfg.wordlines} {{\n"
        f"^bb0(%a: {mi}, %b: {mi}):\n"
        f"  pimcmd.array %a shape [{N}, {N}] wordline 0 : {mi}\n"
        f"  pimcmd.array %b shape [{N}, {N}] wordline 32 : {mi}\n"
        f"  pimcmd.transpose_in %a : {mi}\n  pimcmd.transpose_in %b : {mi}\n}}"
    )
    setup = Parser(ctx, text).parse_op()
    setup.verify()
    geo = Geometry((N, N), (T, T), cfg.arrays_per_bank)
    machines = {mode: Machine(cfg, mode=mode) for mode in ("functional", "bitlevel")}
    for m in machines.values():
        m.run(setup, {"a": A, "b": B})
    every = f"bitlines 0:1:{cfg.bitlines} tiles 0:1:{tiles}"
    rows = []
    for op in ("add", "mul"):
        prog = program(ctx, f"  pimcmd.compute {op} i32 dst 64 srcs [0, 32] {every}")
        times: dict[str, list[float]] = {mode: [] for mode in machines}
        cpu: dict[str, list[float]] = {mode: [] for mode in machines}
        for m in machines.values():
            m.run(prog)  # warm-up (plans cached, pages touched)
        for _ in range(repeat):
            for mode, m in machines.items():
                t0, c0 = time.perf_counter(), time.process_time()
                m.run(prog)
                times[mode].append(time.perf_counter() - t0)
                cpu[mode].append(time.process_time() - c0)
        fw, bw = (machines[k].regs.read(64, 32)[:cells] for k in ("functional", "bitlevel"))
        assert np.array_equal(fw, bw), f"bit-level i32 {op} differs from word-level"
        want = (A.astype(np.int64) + B if op == "add" else A.astype(np.int64) * B).astype(np.int32)  # wraps
        got = np.empty((N, N), np.int32)
        gather_box(bw.view(np.int32).reshape(geo.grid + geo.tiles), geo, ((0, N), (0, N)), got)
        assert np.array_equal(got, want), f"i32 {op} differs from numpy"
        def mmm(xs: list[float]) -> list[float]:
            return [min(xs) * 1e3, statistics.median(xs) * 1e3, max(xs) * 1e3]

        rows.append({
            "command": f"i32 {op} (all {cells:,} bitlines)",
            "word_ms": mmm(times["functional"]), "bit_ms": mmm(times["bitlevel"]),
            "ratio": statistics.median(times["bitlevel"]) / statistics.median(times["functional"]),
            "word_cpu_ms": mmm(cpu["functional"]), "bit_cpu_ms": mmm(cpu["bitlevel"]),
            "cpu_ratio": statistics.median(cpu["bitlevel"]) / statistics.median(cpu["functional"]),
        })  # fmt: skip
        if profile:
            pr = cProfile.Profile()
            pr.enable()
            machines["bitlevel"].run(prog)
            pr.disable()
            out = io.StringIO()
            pstats.Stats(pr, stream=out).sort_stats("tottime").print_stats(profile)
            print(f"cProfile of one bit-level i32 {op} run (by tottime):")
            print("\n".join(line for line in out.getvalue().splitlines() if line.strip())[:6000])
            print()
    print(f"bit-level vs word-level on {cfg.name} (runs interleaved), {repeat} runs each: min / median / max ms;")
    print("x word = ratio of the medians; wall clock, then this process's CPU time (steadier on a shared machine)")
    print(f"{'command':34s} {'clock':5s} {'word-level ms':>22s} {'bit-level ms':>26s} {'x word':>7s}")
    for r in rows:
        for clock, wk, bk, rk in (("wall", "word_ms", "bit_ms", "ratio"), ("cpu", "word_cpu_ms", "bit_cpu_ms", "cpu_ratio")):
            w = " / ".join(f"{x:.2f}" for x in r[wk])
            b = " / ".join(f"{x:.1f}" for x in r[bk])
            print(f"{r['command'] if clock == 'wall' else '':34s} {clock:5s} {w:>22s} {b:>26s} {r[rk]:7.1f}")
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--json", type=Path, default=None, help="also write the results as JSON")
    ap.add_argument("--mode", choices=("functional", "bitlevel", "all"), default="all",
                    help="word-level command table, bit-level vs word-level table, or both")
    ap.add_argument("--bit-repeat", type=int, default=5, help="runs of each bit-level comparison")
    ap.add_argument("--profile", type=int, default=0, metavar="N",
                    help="print the top N cProfile entries of one bit-level run per command")
    args = ap.parse_args(argv)

    ctx = context()
    result: dict = {}
    if args.mode in ("functional", "all"):
        result.update(functional_table(ctx, args.repeat))
    if args.mode in ("bitlevel", "all"):
        if result:
            print()
        result["bitlevel"] = bitlevel_table(ctx, args.bit_repeat, args.profile)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


def functional_table(ctx: Context, repeat: int) -> dict:
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
        "add3": statistics.median(timed(lambda: np.add(a, b, out=c), repeat)),
        "copy": statistics.median(timed(lambda: np.copyto(c, a), repeat)),
    }

    rows = []
    for name, (body, bound) in cases.items():
        prog = program(ctx, body)
        stats = m.run(prog)
        ts = timed(lambda: m.run(prog), repeat)
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
    geo = Geometry((N, N), (T, T), cfg.arrays_per_bank)
    gather_box(m.regs.read(64, 32)[: geo.cells].view(np.float32).reshape(geo.grid + geo.tiles), geo, ((0, N), (0, N)), check)
    assert np.array_equal(check, A + B), "fp32 add result differs from numpy"

    print(f"infs simulator on {cfg.name}: {cfg.total_bitlines:,} bitlines, {N}x{N} f32 lattice, {T}x{T} tiles; median of {repeat}")
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
    ts = timed(lambda: am.run(prog), repeat)
    n_cmds = len(cases) + 1
    print()
    print(f"analysis mode (no data), {n_cmds} commands: {statistics.median(ts) * 1e3:.3f} ms per run, "
          f"{n_cmds / statistics.median(ts):,.0f} commands/s")  # fmt: skip
    return {"bounds_ms": {k: v * 1e3 for k, v in bounds.items()}, "rows": rows}


if __name__ == "__main__":
    raise SystemExit(main())
