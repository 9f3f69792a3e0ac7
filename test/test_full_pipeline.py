"""The full pipeline on random regions: ``infs-run --mode in`` == the stream reference.

Each example is a random stream region (``strategies.random_region``: every
reduction subset, permuted maps, tight runtime shapes, odd/prime sizes, mixed
ranks, i8/i16/i32/f32, in-place updates) on a random machine loaded from a
TOML file (``strategies.machines``).  It runs through the runtime forced in
memory -- tensorize, JIT (``lower-pim``), simulator -- in process, either via
``driver.run_program`` or via ``infs-run``'s own ``main`` (``--config
FILE.toml --mode in --check --json``, arrays from ``--input``/``--shape`` as a
user passes them), and is compared with the stream reference
(``host.run_function``).

Outcomes that pass: the values match; or the region could not run in memory
and the runtime said why (the region record's reason); or the reference
rejects the region (a loop-carried dependence, ...) and the pipeline rejects
it too with a one-line error.  A wrong value, values where the reference
refuses, and any exception where the reference runs are failures.

This is the random check that catches wrong in-memory reductions over several
dims and transposed reductions with runtime shapes.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from collections import Counter
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from strategies import Machine, RegionCase, examples, machines, random_region

from infs import api
from infs.runtime.check import compare_values
from infs.runtime.driver import RunOptions, run_program
from infs.runtime.host import run_function
from infs.tools import infs_run

EXAMPLES = examples(40, "INFS_PIPELINE_EXAMPLES")


class Mismatch(AssertionError):
    """A wrong value (or values where the reference refuses)."""


def reference(case: RegionCase):
    """(arrays after, results) of the stream reference, or the exception it raises."""
    args = case.call_args()
    try:
        res = run_function(api.parse_text(case.text), args, "f")
    except Exception as e:  # noqa: BLE001 - the reference refusing is an outcome
        return None, e
    arrays = {p: a for p, a in zip(case.params, args) if isinstance(a, np.ndarray)}
    return (arrays, {f"result{i}": r for i, r in enumerate(res)}), None


def via_driver(case: RegionCase, machine: Machine, stats: Counter) -> str:
    want, ref_error = reference(case)
    args = case.call_args()
    named = dict(zip(case.params, args))
    options = RunOptions(config=str(machine.path), mode="in")
    try:
        report = run_program(api.parse_text(case.text), named, "f", options)
    except Exception as e:
        if ref_error is not None:
            # both refuse: the pipeline's refusal is one line
            assert "\n" not in str(e).strip(), f"multi-line error: {e!r}"
            return "both-refuse"
        raise
    if ref_error is not None:
        raise Mismatch(f"the reference refuses ({ref_error}) but --mode in gave values")
    (rec,) = report.regions
    got = {**{p: named[p] for p in want[0]}, **{f"result{i}": r for i, r in enumerate(report.results)}}
    check = compare_values(got, {**want[0], **want[1]})
    if not check.ok:
        raise Mismatch(f"ran {rec.mode} ({rec.reason}): {check.note}")
    if rec.mode != "in":
        assert rec.reason, "a forced in-memory region that ran elsewhere must say why"
        stats[f"refused: {rec.reason[:90]}"] += 1
        return "refused"
    return "in"


def cli_argv(case: RegionCase, machine: Machine, workdir: Path, rng: np.random.Generator) -> list[str]:
    """``infs-run`` arguments for ``case``: the program file, sizes, inputs (.npy) or shapes."""
    src = workdir / "region.mlir"
    src.write_text(case.text)
    argv = [str(src), "--config", str(machine.path), "--mode", "in", "--check", "--json"]
    sizes = [f"{k}={int(v)}" for k, v in case.scalars.items() if k != "salpha"]
    argv += ["--sizes", ",".join(sizes), "--scalar", f"salpha={case.scalars['salpha']}"]
    for name, arr in case.arrays.items():
        # index arrays and exact values through --input; others sometimes from --shape
        # (infs-run draws them itself, as for a user who gives only shapes)
        if not name.startswith("J") and rng.integers(0, 3) == 0 and f"memref<{'x'.join(map(str, arr.shape))}x" not in case.text:
            argv += ["--shape", f"{name}={'x'.join(map(str, arr.shape))}"]
        else:
            np.save(workdir / f"{name}.npy", arr)
            argv += ["--input", f"{name}={workdir / f'{name}.npy'}"]
    return argv


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = infs_run.main(argv)
    return code, out.getvalue(), err.getvalue()


def via_cli(case: RegionCase, machine: Machine, seed: int, stats: Counter) -> str:
    _, ref_error = reference(case)
    with tempfile.TemporaryDirectory(prefix="infs-fp-") as d:
        argv = cli_argv(case, machine, Path(d), np.random.default_rng(seed))
        code, out, err = run_cli(argv)
    cmd = "infs-run " + " ".join(argv)
    assert code != 70 and "internal error" not in err and "Traceback" not in err, f"{cmd}\n{err}"
    if ref_error is not None:
        if code == 0:
            raise Mismatch(f"{cmd}: the reference refuses ({ref_error}) but --mode in gave values")
        assert len(err.strip().splitlines()) == 1, f"{cmd}: not one line:\n{err}"
        return "both-refuse"
    if code == 1 and out.strip().startswith("{"):
        raise Mismatch(f"{cmd}: {json.loads(out).get('check')}")
    assert code == 0, f"{cmd}: exit {code}: {err}"
    s = json.loads(out)
    (reg,) = s["regions"]
    if reg["mode"] != "in":
        assert reg["reason"], cmd
        return "refused"
    return "in"


def check_full_pipeline(case: RegionCase, machine: Machine, cli: bool, seed: int, stats: Counter) -> str:
    outcome = via_cli(case, machine, seed, stats) if cli else via_driver(case, machine, stats)
    stats[outcome] += 1
    return outcome


@st.composite
def pipeline_cases(draw):
    return draw(random_region()), draw(machines()), draw(st.integers(0, 3)) == 0, draw(st.integers(0, 2**16))


def test_random_regions_through_the_full_pipeline():
    stats: Counter = Counter()

    @settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(pipeline_cases())
    def run(args):
        case, machine, cli, seed = args
        note(case.describe())
        note(machine.describe())
        note(f"via {'infs-run main' if cli else 'driver.run_program'}")
        check_full_pipeline(case, machine, cli, seed, stats)

    run()
    print(f"full pipeline: {dict(stats)}")
    # not vacuous: a good part ran in memory (the rest are small random machines
    # that cannot hold the lattice or its registers, and say so)
    assert stats["in"] >= EXAMPLES // 6, stats
