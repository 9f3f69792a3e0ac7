"""infs-run and the runtime driver: every workload, every mode, checked
against the stream reference; bad inputs give one line and a non-zero exit."""

import json

import numpy as np
import pytest

from infs import api
from infs.runtime.check import compare_values
from infs.runtime.driver import RunOptions, run_program
from infs.runtime.host import run_function
from infs.tools import infs_run, runner
from infs.workloads import WORKLOADS

MODES = ("auto", "in", "near", "core")


def _check(name: str, mode: str, config: str = "small-16", **options):
    w = WORKLOADS[name]
    sizes = w.sizes("small")
    inputs = w.inputs(sizes, 0)
    ref_arrays = {k: v.copy() for k, v in inputs.items()}
    module = api.parse_file(w.path)
    ref = run_function(module, w.call_args(ref_arrays, sizes), w.entry)
    arrays = {k: v.copy() for k, v in inputs.items()}
    report = run_program(module, w.call_args(arrays, sizes), w.entry, RunOptions(config=config, mode=mode, **options))
    expected = {**{k: ref_arrays[k] for k in w.outputs}, **dict(zip(w.results, ref))}
    actual = {**{k: arrays[k] for k in w.outputs}, **dict(zip(w.results, report.results))}
    return compare_values(actual, expected), report


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_every_workload_every_mode_matches_the_reference(name, mode):
    check, report = _check(name, mode)
    assert check.ok, check.note
    assert report.regions, "no region ran"
    assert report.stats.total_cycles > 0
    if mode in ("near", "core"):
        # a region the stream engines cannot take (more streams than NSC's 12 per core:
        # conv3d) runs on the cores, and says so
        assert all(r.mode == mode or (mode == "near" and r.mode == "core" and "NSC Table V" in r.not_honoured) for r in report.regions)
        assert any(r.mode == mode for r in report.regions)


def test_forced_in_memory_really_runs_in_memory():
    check, report = _check("stencil2d", "in")
    assert check.ok
    assert {r.mode for r in report.regions} == {"in"}
    assert report.stats.cycles["compute"] > 0 and report.stats.cycles["move"] > 0
    # stencil time steps: the graphs are lowered once each, then memoized
    assert sum(r.jit_misses for r in report.regions) <= 2


def test_no_jit_option_charges_no_jit_cycles():
    w = WORKLOADS["vec_add"]
    sizes = w.sizes("small")
    module = api.parse_file(w.path)
    with_jit = run_program(module, w.call_args(w.inputs(sizes, 0), sizes), w.entry, RunOptions(config="small-16", mode="in"))
    no_jit = run_program(module, w.call_args(w.inputs(sizes, 0), sizes), w.entry, RunOptions(config="small-16", mode="in", jit=False))
    assert with_jit.stats.cycles["jit"] > 0
    assert no_jit.stats.cycles["jit"] == 0


def test_array_too_big_runs_in_chunks_else_falls_back_to_near_memory_with_a_note():
    # stencil2d's 16x24 grid does not fit the 8 SRAM arrays of 'tiny' at once: in chunks of rows it does
    check, report = _check("stencil2d", "in", config="tiny")
    assert check.ok
    assert all(r.mode == "in" and r.chunks >= 2 and "chunks of" in r.reason for r in report.regions)
    check, report = _check("stencil2d", "in", config="tiny", chunk=False)
    assert check.ok
    assert all(r.mode == "near" for r in report.regions)
    assert all("in-memory impossible" in r.reason and "SRAM arrays" in r.reason for r in report.regions)


def test_cli_check_json(capsys):
    rc = infs_run.main([str(WORKLOADS["array_sum"].path), "--config", "small-16", "--mode", "all", "--check", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert [s["mode"] for s in out] == ["in", "near", "core"]
    for s in out:
        assert s["check"]["ok"] and s["total_cycles"] > 0
    assert out[0]["results"]["sum"] == pytest.approx(out[1]["results"]["sum"], rel=1e-5)


def test_cli_report_and_outputs(tmp_path, capsys):
    rc = infs_run.main([str(WORKLOADS["vec_add"].path), "--config", "small-16", "--check", "--save-outputs", str(tmp_path)])
    out = capsys.readouterr().out
    assert rc == 0
    assert "cycles (Fig. 14 breakdown)" in out and "traffic (Fig. 12/13)" in out and "match the stream reference" in out
    assert (tmp_path / "C.npy").exists() or any(tmp_path.iterdir())


def test_cli_generic_program_with_shapes_and_inputs(tmp_path, capsys):
    src = tmp_path / "scale.mlir"
    src.write_text(
        """func.func @scale(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index):
    %x = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %y = stream.compute(%x : !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%v: f32):
      %t = arith.addf %v, %v : f32
      stream.yield %t : f32
    }
    stream.store %y -> %b[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
"""
    )
    a = np.arange(32, dtype=np.float32)
    np.save(tmp_path / "a.npy", a)
    rc = infs_run.main([str(src), "--config", "small-16", "--sizes", "n=32", "--input", f"A={tmp_path / 'a.npy'}", "--shape", "B=32",
                        "--check", "--save-outputs", str(tmp_path / "out"), "--json"])  # fmt: skip
    assert rc == 0, capsys.readouterr().err
    assert np.array_equal(np.load(tmp_path / "out" / "B.npy"), 2 * a)


BAD = [
    (["/nonexistent/x.mlir"], "cannot read"),
    (["{wl}", "--config", "no-such-config"], "no-such-config"),
    (["{wl}", "--sizes", "n=abc"], "n=abc"),
    (["{wl}", "--sizes", "zz=4"], "'zz' is not a size"),
    (["{wl}", "--mode", "sideways"], "invalid choice"),
    (["{wl}", "--tiles", "4y4"], "bad --tiles"),
    (["{noregion}", "--strict-offload"], "nothing to offload"),  # (without the flag: a remark, and the host runs it)
    (["{generic}", "--shape", "A=8"], "never bound"),
    (["{generic}", "--sizes", "n=8"], "dynamic shape"),
    (["{unnamed}", "--sizes", "n=8"], "argument #0 of @g has no name (%0)"),  # it said 'argument % has a dynamic shape'
]


@pytest.mark.parametrize("argv,message", BAD)
def test_bad_inputs_one_line_nonzero_exit(argv, message, tmp_path, capsys):
    noregion = tmp_path / "plain.mlir"
    noregion.write_text("func.func @f(%a: index) -> index {\n  func.return %a : index\n}\n")
    generic = tmp_path / "generic.mlir"
    generic.write_text(
        """func.func @g(%A: memref<?xf32>, %n: index) {
  stream.region ins(%A : memref<?xf32>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %N: index):
    %x = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    stream.store %x -> %a[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
"""
    )
    unnamed = tmp_path / "unnamed.mlir"
    unnamed.write_text(generic.read_text().replace("%A", "%0"))
    args = [a.format(wl=WORKLOADS["vec_add"].path, noregion=noregion, generic=generic, unnamed=unnamed) for a in argv]
    try:
        rc = infs_run.main(args)
    except SystemExit as e:  # argparse errors
        rc = e.code
    err = capsys.readouterr().err.strip()
    assert rc != 0
    assert message in err, err
    assert "Traceback" not in err and len(err.splitlines()) == 1, err


@pytest.mark.parametrize("name", ["stencil2d", "mm_inner", "array_sum"])
def test_cli_runs_a_program_tensorized_ahead_of_time(name, tmp_path, capsys):
    """``infs-opt --tensorize`` output (``tdfg.graph``s in the host code, mm_inner's
    inside its host scf.for) runs in memory, checked against the lattice semantics
    and equal to the stream program's run."""
    w = WORKLOADS[name]
    tensorized = tmp_path / f"{name}_t.mlir"
    tensorized.write_text(api.to_text(api.run_pipeline(api.parse_file(w.path), "tensorize")))
    sizes = w.sizes("small")
    inputs = w.inputs(sizes, 0)
    args = []
    for k, v in inputs.items():
        np.save(tmp_path / f"{k}.npy", v)
        args += ["--input", f"{k}={tmp_path / f'{k}.npy'}"]
    rc = infs_run.main([str(tensorized), "--config", "small-16", "--sizes", ",".join(f"{a}={int(sizes[a])}" for a in w.args if a not in inputs),
                        *args, "--check", "--json", "--save-outputs", str(tmp_path)])  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert rc == 0
    s = out[0] if isinstance(out, list) else out
    assert s["check"]["ok"] and s["check"]["oracle"] == "the tDFG lattice semantics"
    assert s["region_modes"].get("in", 0) >= 1 and s["total_cycles"] > 0 and s["elements_in_memory_fraction"] > 0, s
    ref = {k: v.copy() for k, v in inputs.items()}
    res = run_function(api.parse_file(w.path), w.call_args(ref, sizes), w.entry)
    for k in w.outputs:
        assert compare_values({k: np.load(tmp_path / f"{k}.npy")}, {k: ref[k]}).ok, k
    assert list(s["results"].values()) == pytest.approx([float(v) for v in res], rel=1e-5)


def test_cli_refuses_near_and_core_for_a_tensorized_program(tmp_path, capsys):
    w = WORKLOADS["vec_add"]
    tensorized = tmp_path / "vec_add_t.mlir"
    tensorized.write_text(api.to_text(api.run_pipeline(api.parse_file(w.path), "tensorize")))
    for mode in ("near", "core"):
        rc = infs_run.main([str(tensorized), "--config", "tiny", "--sizes", "n=40", "--shape", "A=40,B=40,C=40", "--mode", mode])
        err = capsys.readouterr().err.strip()
        assert rc != 0 and len(err.splitlines()) == 1, err
        assert f"mode '{mode}' cannot run a tdfg.graph" in err and "'tdfg.graph' at line" in err


# ---------------------------------------------------------------------------
# Inputs: values only when needed, --check copies only what may be written
# ---------------------------------------------------------------------------


def _fn(text: str):
    m = api.parse_text(text)
    return runner.find_function(m)


def test_may_write_reads_the_ir_conservatively():
    w = WORKLOADS["vec_add"]
    assert runner.may_write(runner.find_function(api.parse_file(w.path))) == {"C"}
    # stencil1d's host loop runs A->B then B->A: both written
    assert runner.may_write(runner.find_function(api.parse_file(WORKLOADS["stencil1d"].path))) >= {"A", "B"}
    fn = _fn(
        """func.func @f(%A: memref<8xf32>, %B: memref<8xf32>, %C: memref<8xf32>, %D: memref<8xf32>, %E: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %A[%c0] : memref<8xf32>
  memref.store %x, %B[%c0] : memref<8xf32>
  func.call @g(%C) : (memref<8xf32>) -> ()
  %v = "memref.cast"(%D) : (memref<8xf32>) -> memref<?xf32>
  %y = memref.load %E[%c0] : memref<8xf32>
  func.return
}
func.func private @g(memref<8xf32>)"""
    )
    # A and E only loaded; B stored; C passed to a call and D cast (an alias): may be written
    assert runner.may_write(fn) == {"B", "C", "D"}


def test_check_shares_read_only_inputs_and_still_matches(monkeypatch, capsys):
    seen = {}
    real = runner.run_program

    def spy(module, values, entry, options, progress=None):
        seen.update({k: v.flags.writeable for k, v in values.items() if isinstance(v, np.ndarray)})
        return real(module, values, entry, options, progress)

    monkeypatch.setattr(runner, "run_program", spy)
    rc = infs_run.main([str(WORKLOADS["vec_add"].path), "--config", "small-16", "--check", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["check"]["ok"]
    assert seen == {"A": False, "B": False, "C": True}  # A, B shared with the reference (not copied), frozen


def test_a_run_that_writes_a_read_only_input_is_an_internal_error_not_a_pass(monkeypatch, capsys):
    real = runner.run_program

    def corrupting(module, values, entry, options, progress=None):
        values["A"][0] += 1  # a runtime bug: the program never writes A
        return real(module, values, entry, options, progress)

    monkeypatch.setattr(runner, "run_program", corrupting)
    rc = infs_run.main([str(WORKLOADS["vec_add"].path), "--config", "small-16", "--check"])
    err = capsys.readouterr().err
    assert rc == 70 and "wrote to an array the program only reads" in err and len(err.strip().splitlines()) == 1


def test_analysis_creates_no_input_values(monkeypatch, capsys):
    def no_values(*a, **k):
        raise AssertionError("inputs created in --analysis")

    monkeypatch.setattr(type(WORKLOADS["vec_add"]), "inputs", no_values)
    # 2^31 elements: 8 GiB per array if it were allocated
    rc = infs_run.main([str(WORKLOADS["vec_add"].path), "--sizes", "n=2147483648", "--mode", "in", "--analysis", "--json"])
    assert rc == 0, capsys.readouterr().err


def test_check_of_a_tensorized_program_too_large_for_the_lattice_evaluator_is_one_line(tmp_path, capsys):
    """Found by make fuzz: --check of a tdfg.graph program whose bc count is 1e11
    was a MemoryError (internal error) in the lattice evaluator."""
    src = tmp_path / "bc.mlir"
    src.write_text(
        """func.func @f(%A: memref<?xf32>, %B: memref<?xf32>, %n: index, %k: index) {
  tdfg.graph ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index, K = %k : index) rank 1 {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index, %K: index):
    %0 = tdfg.tensor %a [0:1] : memref<?xf32> -> !tdfg.tensor<f32, 1>
    %1 = tdfg.bc %0 dim 0 dist 1 count K - 1 : !tdfg.tensor<f32, 1>
    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<?xf32>
    tdfg.yield
  }
  func.return
}
"""
    )
    rc = infs_run.main([str(src), "--config", "paper-64", "--sizes", "n=2,k=99999999999", "--shape", "A=13,B=3", "--check"])
    err = capsys.readouterr().err.strip()
    assert rc not in (0, 70) and len(err.splitlines()) == 1 and "internal error" not in err, err
    assert "'tdfg.bc': the lattice evaluator cannot hold its tensor on this host" in err


def test_report_shows_the_chunk_plan(capsys):
    rc = infs_run.main([str(WORKLOADS["vec_add"].path), "--sizes", "n=1000", "--config", "tiny", "--mode", "in", "--check"])
    out = capsys.readouterr().out
    assert rc == 0 and "match the stream reference" in out
    (row,) = [ln for ln in out.splitlines() if "in memory in chunks" in ln]
    assert "1 region run(s): 8 chunks of 125 rows" in row


def test_no_chunks_flag_runs_a_too_large_region_near_memory(capsys):
    rc = infs_run.main([str(WORKLOADS["vec_add"].path), "--sizes", "n=1000", "--config", "tiny", "--mode", "in", "--no-chunks", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0
    s = out[0] if isinstance(out, list) else out
    assert s["region_modes"] == {"near": 1} and "SRAM arrays" in s["not_honoured"][0]["reason"]


def test_report_shows_the_dram_cycles_chunks_hide(capsys):
    # The DRAM cycles a chunk's fetch hides behind the previous chunk's compute
    # (RegionRecord.dram_hidden) were only in --json and the region's reason
    argv = [str(WORKLOADS["vec_add"].path), "--sizes", "n=1000", "--config", "tiny", "--mode", "in"]
    assert infs_run.main(argv + ["--json"]) == 0
    hidden = sum(r["dram_hidden"] for r in json.loads(capsys.readouterr().out)["regions"])
    assert hidden > 0
    assert infs_run.main(argv) == 0
    (row,) = [ln for ln in capsys.readouterr().out.splitlines() if "DRAM hidden" in ln]
    assert f"{hidden:,} cycles" in row and "not in total" in row, row
    # a run that hides nothing has no such row
    assert infs_run.main([str(WORKLOADS["vec_add"].path), "--sizes", "n=100", "--config", "tiny", "--mode", "in"]) == 0
    assert "DRAM hidden" not in capsys.readouterr().out
