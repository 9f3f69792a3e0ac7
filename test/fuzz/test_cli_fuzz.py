"""Smoke run of the CLI fuzzer (``make fuzz`` runs it for real with fresh seeds):
a fixed seed, a few hundred mutated valid programs through ``infs-opt`` and
``infs-run``, no internal error, hang or wrong ``--check``."""

from __future__ import annotations

import random
from pathlib import Path

import cli_fuzz
from record import Recorder

ROOT = Path(__file__).resolve().parents[2]


def test_cli_fuzz_smoke(tmp_path):
    rec = cli_fuzz.fuzz(seed=20240610, cases=150, deadline=None, out=tmp_path / "fuzz-out", timeout=60)
    failures = sorted(p.name for p in (tmp_path / "fuzz-out").iterdir()) if (tmp_path / "fuzz-out").exists() else []
    details = "\n\n".join((tmp_path / "fuzz-out" / f / "case.txt").read_text()[:1500] for f in failures[:5])
    assert rec.counts["cases"] == 150
    assert not failures, f"{rec.counts}\n{details}"


def test_the_fuzzer_flags_internal_errors_and_hangs():
    """The classifier is real: exit 70, a traceback and a hang count; a clean error does not."""
    assert cli_fuzz.classify("infs-opt", [], "ok", 70, "", "infs-opt: internal error: KeyError: 1") == "internal"
    assert cli_fuzz.classify("infs-opt", [], "ok", 1, "", "Traceback (most recent call last):") == "internal"
    assert cli_fuzz.classify("infs-run", [], "hang", None, "", "") == "internal"
    assert cli_fuzz.classify("infs-run", ["--check"], "ok", 1, "check FAILED: a differs", "") == "mismatch"
    assert cli_fuzz.classify("infs-run", ["--check"], "ok", 1, "", "infs-run: error: bad --sizes") is None
    status, code, _, _ = cli_fuzz.run_tool("infs-opt", ["/nonexistent.mlir"], timeout=30)
    assert status == "ok" and code == 1
    # a case past its timeout is interrupted and reported as a hang
    status, code, _, _ = cli_fuzz.run_tool("infs-run", [str(cli_fuzz.ROOT / "infs/workloads/stencil2d.mlir"), "--mode", "all"], timeout=0.01)
    assert status == "hang" and code is None


def test_mutations_change_the_text():
    rng = random.Random(1)
    text = "func.func @f(%a: memref<?xf32>, %n: index) {\n  func.return\n}\n"
    changed = sum(cli_fuzz.mutate(text, rng, [text])[0] != text for _ in range(50))
    assert changed > 25
    assert isinstance(Recorder(None, "x").counts, dict)


def test_a_requested_huge_host_loop_is_slow_not_hung():
    """Found by make fuzz: stencil1d with --sizes t=99999999999 runs 5e10 host
    iterations by request; a time-out there is not a hang of infs. A huge array
    size (n) is not such a loop bound, so its time-outs still count."""
    from cli_fuzz import huge_host_loop

    text = (ROOT / "infs" / "workloads" / "stencil1d.mlir").read_text()
    assert huge_host_loop(text, ["--sizes", "n=8,t=99999999999"])
    assert not huge_host_loop(text, ["--sizes", "n=99999999999,t=2"])
    assert not huge_host_loop(text, ["--sizes", "n=8,t=999999"])
    # a bound written in the program (a mutated affine.for lower bound; an scf.for bound constant)
    loop = "func.func @f(%n: index) {{\n  affine.for %i = {} to %n {{\n  }}\n  func.return\n}}\n"
    assert huge_host_loop(loop.format("-2147483648"), []) and not huge_host_loop(loop.format("0"), [])
    scf = "%c0 = arith.constant 0 : index\n%c9 = arith.constant {} : index\n%c1 = arith.constant 1 : index\nscf.for %i = %c0 to %c9 step %c1 {{\n}}\n"
    assert huge_host_loop(scf.format(10**7), []) and not huge_host_loop(scf.format(10**5), [])
    assert not huge_host_loop("%big = arith.constant 99999999 : index\n", [])  # not a loop bound: a time-out still counts
    # a plain-loop program (extract-streams input): the time loop is an affine.for bounded by an argument
    loops = (ROOT / "infs" / "workloads" / "loops" / "stencil2d.mlir").read_text()
    assert huge_host_loop(loops, ["--sizes", "m=8,n=8,t=99999999999"]) and not huge_host_loop(loops, ["--sizes", "m=99999999999,n=8,t=2"])
