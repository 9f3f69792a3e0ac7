"""Programs compiled ahead of time run from a file (the paper's "Inf-S no JIT").

``infs-opt --tensorize --lower-pim='sizes=... config=...'`` gives host code
holding ``pimcmd.program`` ops; ``infs-run`` and ``api.run`` run it
(``infs.runtime.compiled``).  Checked here: its values are the stream
reference's; its statistics are the JIT's run of the same graphs (with the
arrays' shapes given to lower-pim, the layouts are the JIT's) minus the JIT
charge; a run on another machine, with other sizes or too small arrays is
one line naming the op and its line; ``--check`` compares with the graph each
program was lowered from (``infs.source``) and fails on a corrupted command.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infs import api
from infs.passes.lower_pim.lower_pim import LowerPimPass
from infs.passes.tensorize import TensorizePass
from infs.runtime.host import run_function
from infs.tools import infs_run
from infs.workloads import WORKLOADS

STENCIL2D = WORKLOADS["stencil2d"].path
VEC_ADD = WORKLOADS["vec_add"].path
ARRAY_SUM = WORKLOADS["array_sum"].path


def lowered(path: Path, sizes: str, config: str, shapes: str = "") -> str:
    """tensorize + lower-pim, printed (what infs-opt writes is what runs)."""
    module = api.parse_file(path)
    api.run_pipeline(module, [TensorizePass(), LowerPimPass(sizes=sizes, config=config, shapes=shapes)])
    return api.to_text(module)


def tensorized(path: Path) -> str:
    module = api.parse_file(path)
    api.run_pipeline(module, [TensorizePass()])
    return api.to_text(module)


def stencil_inputs(m: int, n: int, t: int = 2, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    A = rng.uniform(-1, 1, (m, n)).astype(np.float32)
    return {"A": A, "B": A.copy(), "W": np.array([0.25, 0.5], np.float32), "m": m, "n": n, "t": t}


def reference(path: Path, args: dict) -> dict:
    values = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in args.items()}
    run_function(api.parse_file(path), values)
    return values


def same_stats(a, b) -> None:
    assert dict(a.cycles) == dict(b.cycles)
    assert dict(a.traffic) == dict(b.traffic)
    assert a.total_energy_pj == pytest.approx(b.total_energy_pj, rel=1e-12)
    assert a.noc_byte_hops == b.noc_byte_hops


@pytest.mark.parametrize("config,m,n", [("small-16", 16, 16), ("small-16", 24, 20), ("tiny", 8, 8)])
def test_stencil2d_compiled_equals_the_jit_run(config, m, n):
    """Given the arrays' shapes, lower-pim lays them out as the JIT does: the same values and
    statistics as the JIT's run of the tensorized program without its charge (no JIT ran)."""
    args = stencil_inputs(m, n)
    aot = api.run(lowered(STENCIL2D, f"M={m},N={n}", config, f"A={m}x{n},B={m}x{n}"), args, config=config)
    jit = api.run(tensorized(STENCIL2D), args, config=config, jit=False)
    want = reference(STENCIL2D, args)
    for k in ("A", "B"):
        np.testing.assert_array_equal(aot.outputs[k], jit.outputs[k])
        np.testing.assert_allclose(aot.outputs[k], want[k], rtol=1e-5, atol=1e-6)
    same_stats(aot.stats, jit.stats)
    assert aot.stats.cycles["jit"] == 0 and [r.mode for r in aot.regions] == ["in"] * 2
    assert all(r.jit_misses == 0 and "compiled ahead of time" in r.reason for r in aot.regions)


def test_without_shapes_the_layout_covers_what_the_graph_touches():
    """sizes only: the written array's entry is the box the graph writes ([15, 15] of a 16x16
    array); the program runs on the arrays' views of that box, with the reference's values."""
    text = lowered(STENCIL2D, "M=16,N=16", "small-16")
    assert "shape [15, 15]" in text
    args = stencil_inputs(16, 16, t=4)
    got = api.run(text, args, config="small-16")
    want = reference(STENCIL2D, args)
    for k in ("A", "B"):
        np.testing.assert_allclose(got.outputs[k], want[k], rtol=1e-5, atol=1e-6)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(1, 64), config=st.sampled_from(["tiny", "small-16"]), seed=st.integers(0, 3))
def test_vec_add_and_array_sum_compiled_match_the_reference(n, config, seed):
    if config == "tiny":
        n = min(n, 16 * 8)
    rng = np.random.default_rng(seed)
    A, B = rng.uniform(-1, 1, n).astype(np.float32), rng.uniform(-1, 1, n).astype(np.float32)
    got = api.run(lowered(VEC_ADD, f"N={n}", config), {"A": A, "B": B, "C": np.zeros(n, np.float32), "n": n})
    np.testing.assert_array_equal(got.outputs["C"], A + B)
    aot = api.run(lowered(ARRAY_SUM, f"N={n}", config), {"A": A, "n": n})
    jit = api.run(tensorized(ARRAY_SUM), {"A": A, "n": n}, config=config, jit=False)
    assert aot.results == jit.results
    assert float(aot.results[0]) == pytest.approx(float(A.sum(dtype=np.float64)), rel=1e-4, abs=1e-4)
    same_stats(aot.stats, jit.stats)


def test_api_run_takes_the_config_the_programs_were_lowered_for():
    got = api.run(lowered(VEC_ADD, "N=16", "tiny"), {"A": np.ones(16, np.float32), "B": np.ones(16, np.float32), "C": np.zeros(16, np.float32), "n": 16})
    assert got.report.machine.cfg.name == "tiny"
    np.testing.assert_array_equal(got.outputs["C"], 2)


# ---------------------------------------------------------------------------
# The file path: infs-run
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def stencil_file(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("aot") / "y.mlir"
    p.write_text(lowered(STENCIL2D, "M=16,N=16", "small-16"))
    return p


RUN = ["--sizes", "m=16,n=16,t=2", "--shape", "A=16x16,B=16x16,W=2"]


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    rc = infs_run.main([str(a) for a in argv])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_infs_run_check_of_a_compiled_file_passes(capsys, stencil_file):
    rc, out, err = run(capsys, [stencil_file, *RUN, "--check", "--json"])
    assert rc == 0, err
    s = json.loads(out)
    assert s["check"]["ok"] and "infs.source" in s["check"]["oracle"] and s["check"]["unchecked"] == []
    assert s["jit"]["misses"] == 0 and s["cycles"]["jit"] == 0 and s["region_modes"] == {"in": 2}


def test_infs_run_check_fails_on_a_corrupted_command(capsys, stencil_file, tmp_path):
    """An add turned into a sub in the printed program: the lattice evaluation of the
    graph it was lowered from gives other values, and the check says so."""
    text = stencil_file.read_text()
    bad = tmp_path / "bad.mlir"
    bad.write_text(text.replace("pimcmd.compute add f32", "pimcmd.compute sub f32", 1))
    assert bad.read_text() != text
    rc, out, err = run(capsys, [bad, *RUN, "--check"])
    assert rc == 1, err
    assert "check FAILED" in out


def test_a_program_without_its_source_is_named_unchecked(capsys, stencil_file, tmp_path):
    text = re.sub(r', infs\.source = "(?:[^"\\]|\\.)*"', "", stencil_file.read_text())
    assert "infs.source" not in text
    bare = tmp_path / "bare.mlir"
    bare.write_text(text)
    rc, out, err = run(capsys, [bare, *RUN, "--check", "--json"])
    assert rc == 0, err
    lines = [i + 1 for i, line in enumerate(text.splitlines()) if "pimcmd.program ins(" in line]
    assert json.loads(out)["check"]["unchecked"] == [f"'pimcmd.program' at line {n}" for n in lines]
    rc, out, err = run(capsys, [bare, *RUN, "--check"])
    assert "carries no source graph" in out and "not checked" in out


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--config", "tiny"], r"'pimcmd.program' at line \d+ was lowered for config 'small-16', this run's machine is 'tiny'"),
        (["--sizes", "m=12"], r"'pimcmd.program' at line \d+ was specialized for M = 16 \(lower-pim sizes\), this call has %m = 12"),
        (["--shape", "A=8x16"], r"'pimcmd.program' at line \d+: array %A has shape \[8, 16\], the program was lowered for \[16, 16\]"),
        (["--mode", "near"], r"mode 'near' cannot run a pimcmd.program"),
    ],
)
def test_a_call_the_program_was_not_made_for_is_one_line(capsys, stencil_file, extra, message):
    rc, out, err = run(capsys, [stencil_file, *RUN, *extra])
    assert rc == 1
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert re.search(message, err), err


def test_a_corrupted_source_is_one_line(capsys, stencil_file, tmp_path):
    bad = tmp_path / "src.mlir"
    bad.write_text(stencil_file.read_text().replace("tdfg.graph ins(%A, %B", "tdfg.graph ins(%A, %Q", 1))
    rc, out, err = run(capsys, [bad, *RUN, "--check"])
    assert rc == 1 and len(err.strip().splitlines()) == 1 and "its infs.source does not parse" in err, err


def test_lower_pim_shapes_errors_are_one_line(capsys):
    from infs.tools import infs_opt

    for shapes, message in (("X=4x4", "shapes names 'X', which no tdfg.graph takes as an array"), ("A=16", "does not fit %A : memref<?x?xf32>"), ("A=4y4", "bad shapes entry")):
        rc = infs_opt.main([str(STENCIL2D), "--tensorize", f"--lower-pim=sizes=M=16,N=16 config=small-16 shapes={shapes}"])
        err = capsys.readouterr().err
        assert rc != 0 and message in err and len(err.strip().splitlines()) == 1, err


def test_a_tile_shape_other_than_the_programs_is_one_line(capsys, stencil_file):
    # the tile shape choose-layout picked for the program (the same for both of its regions)
    (lowered_tiles,) = {m.group(1).replace(", ", "x") for m in re.finditer(r"tiles \[(\d+, \d+)\]", stencil_file.read_text())}
    other = "4x16" if lowered_tiles != "4x16" else "16x4"
    rc, out, err = run(capsys, [stencil_file, *RUN, "--tiles", other])
    assert rc == 1 and len(err.strip().splitlines()) == 1, err
    assert re.search(rf"'pimcmd.program' at line \d+ was lowered with tiles {lowered_tiles}: a compiled program's layout is fixed", err), err
    rc, out, err = run(capsys, [stencil_file, *RUN, "--tiles", lowered_tiles])
    assert rc == 0, err


def test_a_weight_bound_at_compile_time_is_checked_at_run_time():
    """sizes=C0=0.25 makes C0 a literal in the commands: a call with another C0 would
    compute with 0.25 silently; it is one line naming the binding and the call's value."""
    text = lowered(STENCIL2D, "M=16,N=16,C0=0.25", "small-16")
    args = stencil_inputs(16, 16)
    got = api.run(text, args)
    want = reference(STENCIL2D, args)
    np.testing.assert_allclose(got.outputs["A"], want["A"], rtol=1e-5, atol=1e-6)
    args["W"] = np.array([0.3, 0.5], np.float32)
    with pytest.raises(api.InfsError, match=r"'pimcmd.program' at line \d+ was specialized for C0 = 0.25 \(lower-pim sizes\), this call has C0 = 0.3:"):
        api.run(text, args)


def test_infs_run_view_of_a_compiled_run(capsys, stencil_file, tmp_path):
    rc, out, err = run(capsys, [stencil_file, *RUN, "--view", tmp_path / "v.html"])
    assert rc == 0, err
    assert (tmp_path / "v.html").stat().st_size > 1000


def test_a_later_step_on_the_compiled_file_keeps_its_provenance(stencil_file):
    """A lower-pim step run again on the printed programs (insert-sync) rebuilds each
    program op: its infs.* attributes come along, so the run still checks its sizes."""
    module = api.parse_file(stencil_file)
    api.run_pipeline(module, "insert-sync")
    text = api.to_text(module)
    assert text.count("infs.sizes = {M = 16 : i64, N = 16 : i64}") == 2 and text.count("infs.source") == 2
    with pytest.raises(api.InfsError, match="was specialized for N = 16"):
        api.run(text, {**stencil_inputs(16, 16), "n": 15})


def test_compiled_with_optimize_tdfg_equals_the_runtimes_in_memory_run():
    """The runtime optimizes each region's tDFG before its JIT; compiled with optimize-tdfg
    in the pipeline (and the arrays' shapes), the program is the one the JIT lowers: the
    same values and statistics as the stream program's in-memory run without the charge."""
    module = api.parse_file(STENCIL2D)
    api.run_pipeline(module, 'tensorize,optimize-tdfg{config=small-16},lower-pim{sizes="M=16,N=16" shapes="A=16x16,B=16x16" config=small-16}')
    args = stencil_inputs(16, 16)
    aot = api.run(api.to_text(module), args)
    jit = api.run(STENCIL2D, args, config="small-16", mode="in", jit=False)
    np.testing.assert_array_equal(aot.outputs["A"], jit.outputs["A"])
    same_stats(aot.stats, jit.stats)


@pytest.mark.parametrize(
    "edit,message",
    [
        (('infs.symbols = ["C0", "C1", "M", "N"]', 'infs.symbols = ["C0", "C1", "M"]'), "its infs.symbols must name each of its 4 scalar operands"),
        (("infs.sizes = {M = 16 : i64, N = 16 : i64}", "infs.sizes = {M = 16 : i64, Q = 16 : i64}"), "its infs.sizes binds 'Q', which is none of its infs.symbols"),
    ],
)
def test_a_corrupted_specialization_record_is_one_line(capsys, stencil_file, tmp_path, edit, message):
    """A record the run cannot read would leave the sizes unchecked: an error, not a silent pass."""
    bad = tmp_path / "rec.mlir"
    text = stencil_file.read_text()
    assert edit[0] in text
    bad.write_text(text.replace(edit[0], edit[1], 1))
    rc, out, err = run(capsys, [bad, *RUN])
    assert rc == 1 and len(err.strip().splitlines()) == 1 and message in err, err


DIVIDE = """func.func @div(%A: memref<?xi32>, %B: memref<?xi32>, %C: memref<?xi32>, %n: index) {
  stream.region ins(%A, %B, %C : memref<?xi32>, memref<?xi32>, memref<?xi32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xi32>, %b: memref<?xi32>, %c: memref<?xi32>, %N: index):
    %x = stream.load %a[d0] : memref<?xi32> -> !stream.stream<i32>
    %y = stream.load %b[d0] : memref<?xi32> -> !stream.stream<i32>
    %s = stream.compute(%x, %y : !stream.stream<i32>, !stream.stream<i32>) -> !stream.stream<i32> {
    ^bb1(%u: i32, %v: i32):
      %t = arith.divsi %u, %v : i32
      stream.yield %t : i32
    }
    stream.store %s -> %c[d0] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}
"""


def test_an_integer_division_by_zero_is_the_programs_error(tmp_path):
    """The machine's quotient for a zero divisor is 0; the program's semantics is an error,
    as for a region or a graph: the source graph says so before the program runs."""
    src = tmp_path / "div.mlir"
    src.write_text(DIVIDE)
    text = lowered(src, "N=8", "small-16")
    A, B = np.arange(1, 9, dtype=np.int32), np.full(8, 2, np.int32)
    got = api.run(text, {"A": A, "B": B, "C": np.zeros(8, np.int32), "n": 8})
    np.testing.assert_array_equal(got.outputs["C"], A // 2)
    B[3] = 0
    with pytest.raises(api.InfsError, match=r"'pimcmd.program' at line \d+: integer division by zero in 'tdfg.cmp' div at line \d+ of its infs.source"):
        api.run(text, {"A": A, "B": B, "C": np.zeros(8, np.int32), "n": 8})


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=st.integers(3, 16), n=st.integers(3, 16), t=st.sampled_from([2, 4]), seed=st.integers(0, 3))
def test_stencil2d_compiled_for_random_sizes_equals_the_jit_run(m, n, t, seed):
    args = stencil_inputs(m, n, t, seed)
    aot = api.run(lowered(STENCIL2D, f"M={m},N={n}", "small-16", f"A={m}x{n},B={m}x{n}"), args)
    jit = api.run(tensorized(STENCIL2D), args, config="small-16", jit=False)
    for k in ("A", "B"):
        np.testing.assert_array_equal(aot.outputs[k], jit.outputs[k])
    same_stats(aot.stats, jit.stats)
    want = reference(STENCIL2D, args)
    np.testing.assert_allclose(aot.outputs["A"], want["A"], rtol=1e-5, atol=1e-5)


def test_a_program_lowered_for_a_config_file_runs_on_it_by_default(capsys, tmp_path):
    """lower-pim records a config file's machine inline: the run needs no file, and
    another machine is one line saying how to run it on its own."""
    cfg = tmp_path / "mine.json"
    cfg.write_text('{"name": "mine", "base": "small-16", "bitlines": 48}')
    prog = tmp_path / "va.mlir"
    prog.write_text(lowered(VEC_ADD, "N=100", str(cfg)))
    rc, out, err = run(capsys, [prog, "--sizes", "n=100", "--shape", "A=100,B=100,C=100", "--check", "--json"])
    assert rc == 0, err
    assert json.loads(out)["check"]["ok"]
    rc, out, err = run(capsys, [prog, "--sizes", "n=100", "--shape", "A=100,B=100,C=100", "--config", "small-16"])
    assert rc == 1 and "was lowered for config 'mine', this run's machine is 'small-16' (bitlines 48 vs 64): run it without --config" in err, err
