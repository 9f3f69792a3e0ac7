"""infs-run for crossbar programs (STREAM): ``infs-run FILE.xbar.json`` (the
records' JSON form, ``dialects.xbar_records.program_to_json``) or
``FILE.xbar.mlir`` (the ``xbar`` dialect, when its module is installed)
evaluates the kernels on given inputs and reports latency, energy and area
under STREAM's cost model beside the CONTRA-style WRITE baseline.

Takes the command line after ``infs-run`` has seen a crossbar file; gives
the outputs (one bit string per vector, primary outputs in order) and the
figures, or ``--json``.  Inputs: ``--inputs 0110,1011`` (one bit string per
vector, primary inputs in order), ``--inputs FILE.npy`` (a ``(vectors,
inputs)`` 0/1 array), or ``--random N`` seeded vectors.  A mistake is one
line on stderr naming the file and what is wrong (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from infs.tools.cli import UsageError, errors_in_one_line, report_failure

PROG = "infs-run"
SUFFIXES = (".xbar.json", ".xbar.mlir")


def is_xbar_file(name: str) -> bool:
    return any(str(name).endswith(s) for s in SUFFIXES)


def load_program(path: Path):
    from infs.dialects.xbar_records import XbarRecordError, program_from_json

    if not path.is_file():
        raise UsageError(f"'{path}': no such file")
    if str(path).endswith(".xbar.json"):
        try:
            doc = json.loads(path.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise UsageError(f"'{path}': not JSON ({e})") from None
        try:
            return program_from_json(doc)
        except XbarRecordError as e:
            raise UsageError(f"'{path}': {e}") from None
    try:  # the xbar dialect's conversion to records
        from infs.dialects import xbar as xbar_dialect  # type: ignore[attr-defined]
    except ImportError:
        raise UsageError(f"'{path}': this infs has no xbar dialect to read .xbar.mlir; give the records' .xbar.json form") from None
    from infs.tools.runner import parse_program

    module = parse_program(path)  # (a parse or verifier error: the parser's one line, reported by run)
    programs = [op for op in module.walk() if isinstance(op, xbar_dialect.ProgramOp)]
    if len(programs) != 1:
        names = ", ".join(f"@{op.sym_name.data}" for op in programs) or "none"
        raise UsageError(f"'{path}': expected one xbar.program to run, found {len(programs)} ({names})")
    return xbar_dialect.xbar_to_records(programs[0])


def parse_inputs(text: str | None, random: int | None, seed: int, n_inputs: int) -> np.ndarray:
    if text is not None and random is not None:
        raise UsageError("--inputs and --random: give one")
    if text is None:
        count = 1 if random is None else random
        if count < 1:
            raise UsageError(f"--random {count}: needs at least one vector")
        return np.random.default_rng(seed).random((count, n_inputs)) < 0.5
    if text.endswith(".npy"):
        try:
            arr = np.load(text)
        except (OSError, ValueError) as e:
            raise UsageError(f"--inputs '{text}': cannot read ({e})") from None
        arr = np.atleast_2d(arr)
        if arr.ndim != 2 or arr.shape[1] != n_inputs or (arr.size and not np.isin(arr, (0, 1)).all()):
            raise UsageError(f"--inputs '{text}': expected a (vectors, {n_inputs}) array of 0/1, got shape {arr.shape}")
        return arr.astype(np.bool_)
    rows = []
    for k, word in enumerate(w.strip() for w in text.split(",")):
        if len(word) != n_inputs or set(word) - {"0", "1"}:
            raise UsageError(f"--inputs vector {k} '{word}': expected {n_inputs} characters 0/1 (one per primary input)")
        rows.append([c == "1" for c in word])
    return np.array(rows, dtype=np.bool_)


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=PROG, description="Evaluate a mapped crossbar (STREAM) program and report its cost.")
    parser.add_argument("file")
    parser.add_argument("--inputs", help="vectors as bit strings (0110,1011; primary inputs in order) or FILE.npy")
    parser.add_argument("--random", type=int, metavar="N", help="N random input vectors (seeded)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=16, metavar="N", help="print the first N vectors' outputs (default 16)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    errors_in_one_line(parser, PROG)
    args = parser.parse_args(argv)
    try:
        from infs.sim.xbar.cost import contra_cost, stream_cost
        from infs.sim.xbar.evaluate import XbarEvalError, evaluate

        path = Path(args.file)
        program = load_program(path)
        x = parse_inputs(args.inputs, args.random, args.seed, program.n_inputs)
        try:
            y = evaluate(program, x)
        except XbarEvalError as e:
            raise UsageError(f"'{path}': {e}") from None
        costs = [stream_cost(program, x.shape[0]), contra_cost(program, x.shape[0])]
    except UsageError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, Exception) as e:  # the parser's and verifier's errors: one line
        return report_failure(PROG, e, args.file)
    bits = ["".join("1" if b else "0" for b in row) for row in y]
    if args.json:
        print(json.dumps({
            "file": str(path), "style": program.style, "kernels": len(program.kernels),
            "primary_inputs": list(program.primary_inputs), "primary_outputs": list(program.primary_outputs),
            "vectors": x.shape[0], "outputs": bits, "costs": [c.as_row() for c in costs],
        }, indent=2))
        return 0
    print(f"{path.name}: {program.style}, {len(program.kernels)} kernel(s), {program.n_inputs} inputs, "
          f"{program.n_outputs} outputs, {x.shape[0]} vector(s)")
    print(f"outputs ({', '.join(program.primary_outputs[:8])}{'...' if program.n_outputs > 8 else ''}):")
    for k, word in enumerate(bits[: args.show]):
        print(f"  {k:>4}: {word}")
    if len(bits) > args.show:
        print(f"  ... {len(bits) - args.show} more (--show N, --json)")
    print(f"{'model':<10} {'area um^2':>12} {'latency ns':>14} {'energy pJ':>14} {'crossbars':>9} {'depth':>7}")
    for c in costs:
        print(f"{c.model:<10} {c.area_um2:>12,.2f} {c.latency_ns:>14,.2f} {c.energy_pj:>14,.2f} {c.crossbars:>9} {c.depth:>7}")
    return 0
