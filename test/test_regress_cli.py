"""Regression tests for the promises of the drivers ``infs-opt`` and ``infs-run``:
every accepted flag works or is
refused in one line, a forced mode that cannot be honoured says so, ``--check``
checks something real in every mode, sizes are checked before anything is
allocated.  The tools are driven in-process through their ``main``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from infs.tools import infs_opt, infs_run, runner
from infs.workloads import WORKLOADS

OK_MLIR = "test/lit/Inputs/ok.mlir"

# y[i] = 2 * x[i] in f16: no in-memory implementation (the machine holds no f16 elements;
# f64 and i64 run in memory: test_wide_types)
F16 = """
func.func @f(%A: memref<?xf16>, %B: memref<?xf16>, %n: index) {
  stream.region ins(%A, %B : memref<?xf16>, memref<?xf16>) syms(N = %n : index) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf16>, %b: memref<?xf16>, %N: index):
    %l = stream.load %a[d0] : memref<?xf16> -> !stream.stream<f16>
    %s = stream.compute(%l, %l : !stream.stream<f16>, !stream.stream<f16>) -> !stream.stream<f16> {
    ^bb1(%x: f16, %y: f16):
      %t = arith.addf %x, %y : f16
      stream.yield %t : f16
    }
    stream.store %s -> %b[d0] : !stream.stream<f16> -> memref<?xf16>
    stream.yield
  }
  func.return
}
"""

# B[i] = A[i] * w with an f32 weight argument of the host function
SCALED = """
func.func @f(%A: memref<?xf32>, %B: memref<?xf32>, %n: index, %w: f32) {
  stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index, W = %w : f32) domain [0:N] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index, %W: f32):
    %l = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%l, %W : !stream.stream<f32>, f32) -> !stream.stream<f32> {
    ^bb1(%x: f32, %k: f32):
      %t = arith.mulf %x, %k : f32
      stream.yield %t : f32
    }
    stream.store %s -> %b[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
"""

# the same with an i32 threshold
SCALED_I32 = SCALED.replace("f32", "i32").replace("arith.mulf", "arith.muli")


def run(capsys, argv):
    code = infs_run.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def opt(capsys, argv):
    code = infs_opt.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and "internal error" not in err, err
    return lines[0]


@pytest.fixture
def f16_prog(tmp_path):
    p = tmp_path / "f16.mlir"
    p.write_text(F16)
    return p


@pytest.fixture
def scaled_prog(tmp_path):
    p = tmp_path / "scaled.mlir"
    p.write_text(SCALED)
    return p


# ---------------------------------------------------------------------------
# infs-opt flags
# ---------------------------------------------------------------------------


def test_opt_disable_verify_does_not_leave_attribute_verification_off(capsys):
    from xdsl.ir import Attribute

    before = Attribute.__post_init__
    code, _, _ = opt(capsys, ["--disable-verify", OK_MLIR])
    assert code == 0
    assert Attribute.__post_init__ is before  # xDSL's global patch would outlive the run (and skip attribute verifiers)


def test_opt_syntax_highlight_does_not_leak(capsys):
    from xdsl.utils.diagnostic import Diagnostic

    before = Diagnostic.colored
    assert opt(capsys, ["--syntax-highlight", OK_MLIR])[0] == 0
    assert Diagnostic.colored == before


def test_opt_print_between_passes_prints_each_pass(capsys):
    code, out, err = opt(capsys, ["--canonicalize", "--cse", "--print-between-passes", OK_MLIR])
    assert code == 0
    assert "// -----// IR Dump After Canonicalize (canonicalize) //----- //" in err
    assert "// -----// IR Dump After CommonSubexpressionElimination (cse) //----- //" in err
    assert "IR Dump" not in out and "stream.region" in out


def test_opt_mlir_spellings(capsys):
    code, _, err = opt(capsys, ["--tensorize", "--mlir-print-ir-before-all", "--mlir-print-ir-after-all", "--mlir-timing", OK_MLIR])
    assert code == 0, err
    before = err.index("IR Dump Before Tensorize (tensorize)")
    after = err.index("IR Dump After Tensorize (tensorize)")
    assert before < after
    assert "stream.region" in err[before:after] and "tdfg.graph" in err[after:]
    assert "Execution time report" in err and "Tensorize (tensorize)" in err.split("Execution time report")[1]


def test_opt_time_passes_table(capsys):
    code, _, err = opt(capsys, ["--canonicalize", "--time-passes", OK_MLIR])
    assert code == 0
    table = err.split("----Wall Time----  ----Name----")[1].strip().splitlines()
    names = [line.split("%)")[1].strip() for line in table]
    assert names[0] == "Parser" and "Canonicalize (canonicalize)" in names and names[-1] == "Total"
    shares = [float(line.split("(")[1].split("%")[0]) for line in table[:-1]]
    assert abs(sum(shares) - 100) < 0.6


def test_opt_parsing_diagnostics(capsys):
    code, out, _ = opt(capsys, ["--parsing-diagnostics", "test/lit/Inputs/parse-error.mlir"])
    assert code == 0 and "parse-error.mlir:4:23: error: operand expected" in out


def test_opt_no_implicit_module(capsys, tmp_path):
    code, _, err = opt(capsys, ["--no-implicit-module", OK_MLIR])
    assert code == 1 and "builtin.module operation expected" in one_error_line(err)
    explicit = tmp_path / "m.mlir"
    explicit.write_text("builtin.module {\n" + open(OK_MLIR).read() + "\n}\n")
    assert opt(capsys, ["--no-implicit-module", explicit])[0] == 0


@pytest.mark.parametrize("flags", [["-t", "llvm"], ["-t", "riscv-asm"], ["-t", "wat"], ["--shrink"]])
def test_opt_refused_flags(capsys, flags):
    code, out, err = opt(capsys, [*flags, OK_MLIR])
    assert code != 0 and not out
    line = one_error_line(err)
    assert line.startswith("infs-opt: error: ")


# ---------------------------------------------------------------------------
# infs-opt file errors and pass options
# ---------------------------------------------------------------------------


def test_opt_file_errors(capsys, tmp_path):
    code, _, err = opt(capsys, [tmp_path])
    assert code == 1 and "Is a directory" in one_error_line(err)
    code, _, err = opt(capsys, [OK_MLIR, "-o", tmp_path])
    assert code == 1 and one_error_line(err) == f"infs-opt: error: cannot write -o '{tmp_path}': Is a directory"
    code, _, err = opt(capsys, [OK_MLIR, "-o", tmp_path / "no" / "such" / "dir.mlir"])
    assert code == 1 and "cannot write -o" in one_error_line(err)


def test_opt_unbalanced_quote_in_pass_option(capsys):
    code, _, err = opt(capsys, ["--lower-pim=sizes=N=4 config=\"tiny", OK_MLIR])
    assert code == 1
    assert one_error_line(err) == "infs-opt: error: bad pass options 'sizes=N=4 config=\"tiny': no closing quotation"


# ---------------------------------------------------------------------------
# a forced mode that cannot be honoured says so
# ---------------------------------------------------------------------------


def test_forced_in_mode_not_honoured_warns_per_region(capsys, f16_prog):
    code, out, err = run(capsys, [f16_prog, "--sizes", "n=64", "--shape", "A=64", "--shape", "B=64", "--mode", "in", "--json"])
    assert code == 0
    assert err.strip().splitlines() == [
        "infs-run: warning: region 0: --mode in not honoured, ran near memory: array element type f16 has no tdfg tensor type (f64, i64, f32, i32, i16, i8, i1)"
    ]
    s = json.loads(out)
    assert s["not_honoured"] == [{"region": 0, "ran": "near", "reason": "array element type f16 has no tdfg tensor type (f64, i64, f32, i32, i16, i8, i1)"}]
    assert s["regions"][0]["not_honoured"] and s["regions"][0]["requested"] == "in"


def test_forced_in_mode_too_big_for_the_machine_warns(capsys):
    # (dwt2d's first step runs in chunks; its second would need more than MAX_CHUNKS chunks of
    # 'tiny''s 8 arrays, so it runs near memory and says why)
    code, out, err = run(capsys, [WORKLOADS["dwt2d"].path, "--sizes", "h=200,w=200", "--config", "tiny", "--mode", "in", "--json"])
    assert code == 0
    assert err.startswith("infs-run: warning: region 1: --mode in not honoured, ran near memory: ") and "SRAM arrays" in err
    assert "not in chunks: it would need more than 4,096 chunks" in err
    assert [r["region"] for r in json.loads(out)["not_honoured"]] == [1]


def test_strict_makes_it_an_error(capsys, f16_prog):
    code, out, err = run(capsys, [f16_prog, "--sizes", "n=64", "--shape", "A=64", "--shape", "B=64", "--mode", "in", "--strict"])
    assert code == 1 and not out
    assert one_error_line(err).startswith("infs-run: error: region 0: --mode in cannot be honoured (--strict): array element type f16")


def test_honoured_modes_say_nothing(capsys):
    code, out, err = run(capsys, [WORKLOADS["vec_add"].path, "--mode", "in", "--json", "--strict"])
    assert code == 0 and not err
    assert json.loads(out)["not_honoured"] == []


def test_mode_all_marks_the_in_row(capsys, f16_prog):
    code, out, err = run(capsys, [f16_prog, "--sizes", "n=64", "--shape", "A=64", "--shape", "B=64", "--mode", "all"])
    assert code == 0
    row = next(line for line in out.splitlines() if line.strip().startswith("│") and line.split("│")[1].strip() == "in")
    assert "near" in row.split("│")[2] and "not" in row.split("│")[2]
    assert "in row: region 0 ran near memory: array element type f16" in out
    code, out, _ = run(capsys, [f16_prog, "--sizes", "n=64", "--shape", "A=64", "--shape", "B=64", "--mode", "all", "--json"])
    by_mode = {s["mode"]: s for s in json.loads(out)}
    assert by_mode["in"]["ran_as"] == "near" and by_mode["in"]["not_honoured"]
    assert by_mode["near"]["not_honoured"] == [] and by_mode["core"]["not_honoured"] == []


# ---------------------------------------------------------------------------
# --check in near / core modes is not the reference against itself
# ---------------------------------------------------------------------------


def _broken_reference(monkeypatch):
    """A bug in the stream reference evaluator (every stored value + 1): a check
    that compares the reference with itself cannot see it."""
    from infs.runtime import driver, host, reference

    real = reference.evaluate_region

    def wrong(region, arrays, scalars):
        before = [a.copy() for a in arrays]
        results = real(region, arrays, scalars)
        for a, b in zip(arrays, before):
            changed = a != b
            a[changed] += 1
        return results

    monkeypatch.setattr(driver, "evaluate_region", wrong)
    monkeypatch.setattr(host, "evaluate_region", wrong)


@pytest.mark.parametrize("mode", ["near", "core"])
def test_check_in_near_and_core_modes_is_independent_of_the_reference(capsys, monkeypatch, mode):
    _broken_reference(monkeypatch)
    code, out, _ = run(capsys, [WORKLOADS["stencil1d"].path, "--mode", mode, "--check", "--json"])
    assert code == 1
    c = json.loads(out)["check"]
    assert not c["ok"] and "lattice evaluator vs reference" in c["note"]


def test_check_in_near_mode_passes_on_a_correct_reference(capsys):
    code, out, _ = run(capsys, [WORKLOADS["stencil2d"].path, "--mode", "near", "--check", "--json"])
    assert code == 0
    regions = json.loads(out)["check"]["regions"]
    assert regions and all(r["against"] == "lattice" and not r["error"] for r in regions)


def test_check_says_which_regions_are_only_reference_vs_reference(capsys):
    code, out, _ = run(capsys, [WORKLOADS["kmeans_inner"].path, "--mode", "core", "--check"])
    assert code == 0
    assert "does not tensorize ('argmin' reductions have no in-memory counterpart): its check is only reference vs reference" in out
    assert "its tDFG on the lattice evaluator agrees" in out


def test_check_help_says_what_it_compares(capsys):
    with pytest.raises(SystemExit):
        infs_run.main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "reference vs reference" in out and "lattice evaluator" in out


# ---------------------------------------------------------------------------
# --scalar
# ---------------------------------------------------------------------------


def test_scalar_flag_binds_a_float_argument(capsys, scaled_prog, tmp_path):
    a = np.linspace(-1, 1, 64, dtype=np.float32)
    np.save(tmp_path / "a.npy", a)
    out_dir = tmp_path / "out"
    code, _, err = run(capsys, [scaled_prog, "--sizes", "n=64", "--scalar", "w=2.5", "--input", f"A={tmp_path / 'a.npy'}", "--shape", "B=64", "--save-outputs", out_dir, "--check"])
    assert code == 0, err
    np.testing.assert_array_equal(np.load(out_dir / "B.npy"), a * np.float32(2.5))


def test_scalar_errors(capsys, scaled_prog, tmp_path):
    base = [scaled_prog, "--shape", "A=64", "--shape", "B=64"]
    code, _, err = run(capsys, [*base, "--sizes", "n=64"])
    assert code == 2 and one_error_line(err) == "infs-run: error: argument %w of @f (f32) is a scalar that was never bound: give --scalar w=..."
    code, _, err = run(capsys, [*base, "--sizes", "n=64,w=2.5"])
    assert code == 2 and "--scalar w=2.5" in one_error_line(err)
    code, _, err = run(capsys, [*base, "--sizes", "n=64", "--scalar", "w=abc"])
    assert code == 2 and "expected a number" in one_error_line(err)
    code, _, err = run(capsys, [*base, "--sizes", "n=64", "--scalar", "w=1", "--scalar", "q=1"])
    assert code == 2 and "no scalar argument %q" in one_error_line(err)
    p = tmp_path / "i32.mlir"
    p.write_text(SCALED_I32)
    code, _, err = run(capsys, [p, "--shape", "A=64", "--shape", "B=64", "--sizes", "n=64", "--scalar", "w=2.5"])
    assert code == 2 and "%w is a i32 argument: expected an integer" in one_error_line(err)
    assert run(capsys, [p, "--shape", "A=64", "--shape", "B=64", "--sizes", "n=64", "--scalar", "w=3", "--check"])[0] == 0


# ---------------------------------------------------------------------------
# sizes, shapes and inputs are checked before anything is allocated
# ---------------------------------------------------------------------------


HUGE = 2**40


def test_huge_sizes_are_refused_before_allocation(capsys):
    code, _, err = run(capsys, [WORKLOADS["vec_add"].path, "--sizes", f"n={HUGE}"])
    assert code == 2
    line = one_error_line(err)
    assert line.startswith("infs-run: error: the arrays need ") and "--analysis" in line


def test_analysis_allocates_no_input_data(capsys):
    import tracemalloc

    tracemalloc.start()
    try:
        code, out, err = run(capsys, [WORKLOADS["vec_add"].path, "--sizes", f"n={HUGE}", "--analysis", "--json"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 0, err
    assert json.loads(out)["total_cycles"] > HUGE // 64
    assert peak < 200 * 2**20


def test_analysis_host_alloc_has_no_data(capsys, tmp_path):
    # a host-side memref.alloc of 4 TB in a timing-only run
    p = tmp_path / "alloc.mlir"
    p.write_text(F16.replace("func.func @f(%A: memref<?xf16>, %B: memref<?xf16>, %n: index) {", "func.func @f(%A: memref<?xf16>, %n: index) {\n  %B = memref.alloc(%n) : memref<?xf16>"))
    code, out, err = run(capsys, [p, "--sizes", f"n={HUGE}", "--shape", f"A={HUGE}", "--analysis", "--json"])
    assert code == 0, err


def test_huge_shape_and_npy_header_are_refused(capsys, scaled_prog, tmp_path):
    code, _, err = run(capsys, [scaled_prog, "--sizes", "n=64", "--scalar", "w=1", "--shape", f"A={HUGE}", "--shape", "B=64"])
    assert code == 2 and "the arrays need" in one_error_line(err)
    big = tmp_path / "big.npy"
    with open(big, "wb") as f:
        np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": (HUGE,)})
    code, _, err = run(capsys, [scaled_prog, "--sizes", "n=64", "--scalar", "w=1", "--input", f"A={big}", "--shape", "B=64"])
    assert code == 2 and "the arrays need" in one_error_line(err)


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--sizes", "n=-4"], "sizes are non-negative integers"),
        (["--tiles", "0"], "tile sizes are positive integers"),
        (["--input", "A=x.npy"], "is a workload of infs/workloads"),
        (["--shape", "A=64"], "is a workload of infs/workloads"),
        (["--mode", "near", "--tiles", "8"], "--tiles applies to in-memory execution"),
        (["--mode", "core", "--no-jit-charge"], "--no-jit-charge applies to in-memory execution"),
        (["--mode", "auto", "--strict"], "--strict applies to a forced --mode"),
    ],
)
def test_bad_workload_flags(capsys, extra, message):
    code, _, err = run(capsys, [WORKLOADS["vec_add"].path, *extra])
    assert code == 2 and message in one_error_line(err)


def test_bad_input_flags(capsys, scaled_prog, tmp_path):
    base = [scaled_prog, "--sizes", "n=64", "--scalar", "w=1", "--shape", "B=64"]
    np.save(tmp_path / "c.npy", np.zeros(64, np.complex64))
    code, _, err = run(capsys, [*base, "--input", f"A={tmp_path / 'c.npy'}"])
    assert code == 2 and "holds complex numbers" in one_error_line(err)
    np.save(tmp_path / "a.npy", np.zeros(64, np.float32))
    code, _, err = run(capsys, [*base, "--input", f"A={tmp_path / 'a.npy'}", "--input", f"Q={tmp_path / 'a.npy'}"])
    assert code == 2 and "no array argument %Q" in one_error_line(err)
    code, _, err = run(capsys, [*base, "--shape", "A=64", "--size-set", "paper"])
    assert code == 2 and "--size-set applies to the workloads" in one_error_line(err)


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_workload_shapes_without_allocation_match_the_registry(name):
    w = WORKLOADS[name]
    for sizes in (w.sizes("small"), {k: v + 2 * (i + 1) for i, (k, v) in enumerate(w.sizes("small").items())}):
        real = w.make_inputs(sizes, np.random.default_rng(0))
        shapes = runner._workload_shapes(w, sizes)
        assert {k: (tuple(v.shape), v.dtype) for k, v in real.items()} == shapes


# ---------------------------------------------------------------------------
# file errors
# ---------------------------------------------------------------------------


def test_run_file_errors(capsys, scaled_prog, tmp_path):
    vec = WORKLOADS["vec_add"].path
    code, _, err = run(capsys, [tmp_path])
    assert code == 1 and "Is a directory" in one_error_line(err)
    code, _, err = run(capsys, [vec, "--config", tmp_path])
    assert code == 1 and "directory" in one_error_line(err)
    code, _, err = run(capsys, [vec, "--save-outputs", "/proc/infs-out"])
    assert code == 2 and "--save-outputs" in one_error_line(err)
    deep = tmp_path / "a" / "b" / "c"
    code, _, err = run(capsys, [vec, "--save-outputs", deep])
    assert code == 2 and "does not exist (only the last level is created)" in one_error_line(err)
    assert not (tmp_path / "a").exists()
    code, _, _ = run(capsys, [vec, "--save-outputs", tmp_path / "out"])
    assert code == 0 and (tmp_path / "out" / "C.npy").exists()
    np.savez(tmp_path / "a.npz", a=np.zeros(64, np.float32))
    base = [scaled_prog, "--sizes", "n=64", "--scalar", "w=1", "--shape", "B=64"]
    code, _, err = run(capsys, [*base, "--input", f"A={tmp_path / 'a.npz'}"])
    assert code == 2 and "is an .npz archive" in one_error_line(err)
    code, _, err = run(capsys, [*base, "--input", f"A={tmp_path}"])
    assert code == 2 and "Is a directory" in one_error_line(err)


def test_analysis_refuses_save_outputs(capsys, tmp_path):
    code, _, err = run(capsys, [WORKLOADS["vec_add"].path, "--analysis", "--save-outputs", tmp_path / "o"])
    assert code == 2 and "--save-outputs needs the functional simulation" in one_error_line(err)
    assert not (tmp_path / "o").exists()


def test_capacity_message_is_in_bytes_of_every_array(capsys):
    # 3 arrays of n f32 (A, B, C): the message's total matches
    code, _, err = run(capsys, [WORKLOADS["vec_add"].path, "--sizes", f"n={HUGE}"])
    assert code == 2 and f"{3 * HUGE * 4 / 2**40:.1f} TB" in err


def test_forced_near_mode_with_more_streams_than_an_se_takes_runs_on_the_cores(capsys):
    """NSC Table V: an SE_L3 takes 12 streams per core; conv3d's region has 20 (nine input taps,
    nine weights, the output read and written), so Near-L3 cannot offload it: it says so."""
    code, out, err = run(capsys, [WORKLOADS["conv3d"].path, "--mode", "near", "--json"])
    assert code == 0
    assert "--mode near not honoured" in err and "it has 20 streams; an SE_L3 takes 12 per core (NSC Table V)" in err
    s = json.loads(out)
    ran = {r["region"]: r["mode"] for r in s["regions"]}
    assert {n["ran"] for n in s["not_honoured"]} == {"core"} and all(ran[n["region"]] == "core" for n in s["not_honoured"])
    code, out, err = run(capsys, [WORKLOADS["conv3d"].path, "--mode", "near", "--strict"])
    assert code == 1 and "--mode near cannot be honoured (--strict): it has 20 streams" in one_error_line(err)


HUGE_HOST_LOOP = """
func.func @rows_from_k(%V: memref<?xi32>, %W: memref<?xi32>, %n: index, %m: index, %k: index) {
  stream.region ins(%V, %W : memref<?xi32>, memref<?xi32>) syms(N = %n : index, M = %m : index, k = %k : index) domain [k + 3:N - 1, 0:M] iterators [parallel, parallel] {
  ^bb0(%v: memref<?xi32>, %w: memref<?xi32>, %N: index, %M: index, %K: index):
    %x = stream.load %v[d1] : memref<?xi32> -> !stream.stream<i32>
    stream.atomic add %x -> %w[d1] : !stream.stream<i32> -> memref<?xi32>
    stream.yield
  }
  func.return
}
"""


def test_a_host_run_outer_dim_of_1e11_rows_is_refused_in_memory_not_listed(capsys, tmp_path):
    """Found by make fuzz: the in-memory path listed every point of a host-run outer dim
    (1e11 rows) before lowering: a MemoryError.  Beyond MAX_HOST_POINTS it says so in one line
    and the region runs near memory (analytically here); with --check the reference's own
    memory check is the one-line error."""
    prog = tmp_path / "rows.mlir"
    prog.write_text(HUGE_HOST_LOOP)
    args = [prog, "--sizes", "n=99999999999,m=2,k=13", "--shape", "V=16", "--shape", "W=13", "--mode", "in"]
    code, out, err = run(capsys, [*args, "--analysis"])
    assert code == 0 and "Traceback" not in err
    assert "--mode in not honoured, ran near memory: its outer dim(s) run on the host as 99,999,999,982 graph invocations" in err
    code, out, err = run(capsys, [*args, "--check"])
    assert code == 1 and "needs at least 1.5 TB of host memory" in one_error_line(err)


def test_a_location_at_line_100_prints_as_written_not_as_an_emoji(capsys):
    """rich read ':100:' in 'srad.mlir:100:5' (--mode all's reasons) as its emoji code and
    printed '💯'; infs-run's console prints text as it is."""
    code, out, err = run(capsys, ["nsc/srad", "--size-set", "paper", "--analysis", "--mode", "all"])
    assert code == 0
    assert "srad.mlir:100:5:wordlinepressure" in "".join(out.split()) and "\N{HUNDRED POINTS SYMBOL}" not in out
