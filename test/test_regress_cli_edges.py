"""Regressions found by red-teaming the command-line tools' edge cases
(infs-opt pass order, infs-sweep and infs-view flags): each test failed
before its fix."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from infs.tools import infs_sweep


def _tool(name: str, *args: str) -> subprocess.CompletedProcess:
    """Run the venv's console script ``name`` (infs-opt, infs-run) with ``args``."""
    return subprocess.run([str(Path(sys.executable).parent / name), *args], capture_output=True, text=True)


def test_sweep_plot_without_a_table_is_a_one_line_error(tmp_path: Path, capsys) -> None:
    # `--plot` plots the table as it is; with no table there is nothing to plot.
    # It used to say "wrote OUT/sweep.csv", exit 0, and write nothing.
    spec = tmp_path / "s.toml"
    spec.write_text('workloads = ["vec_add"]\nsizes = ["small"]\nmodes = ["core", "in"]\n[machines]\nbase = "tiny"\n')
    out = tmp_path / "out"
    rc = infs_sweep.main([str(spec), "--plot", "--quiet", "--out", str(out)])
    cap = capsys.readouterr()
    assert rc == 2
    err = cap.err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("infs-sweep: error: --plot:"), cap.err
    assert "run the sweep first" in err[0]
    assert "wrote" not in cap.out + cap.err
    assert not (out / "sweep.csv").exists()


def test_specialize_rejects_a_negative_index_symbol(tmp_path: Path) -> None:
    # The tdfg lattice's symbols are non-negative (canonicalize-tdfg's and optimize-tdfg's
    # rewrites are proved for those values only); specialize bound N=-1 and silently
    # clamped [0:N] to the empty [0:0], so lower-pim then did nothing, with exit 0.
    src = tmp_path / "g.mlir"
    src.write_text(
        "func.func @f(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {\n"
        "  tdfg.graph ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index) rank 1 {\n"
        "  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index):\n"
        "    %0 = tdfg.tensor %a [0:N] : memref<?xf32> -> !tdfg.tensor<f32, 1>\n"
        "    tdfg.store %0 -> %b : !tdfg.tensor<f32, 1> -> memref<?xf32>\n"
        "    tdfg.yield\n  }\n  func.return\n}\n"
    )
    for flag in ("--specialize=sizes=N=-1", "--lower-pim=sizes=N=-1 config=small-16"):
        p = _tool("infs-opt", flag, str(src))
        assert p.returncode == 1, (flag, p.stdout)
        err = p.stderr.strip().splitlines()
        assert len(err) == 1 and "symbol 'N' is a size (an index)" in err[0] and "-1" in err[0], (flag, p.stderr)


def test_optimize_tdfg_takes_a_whole_number_time_limit(tmp_path: Path) -> None:
    # time-limit is seconds (a float); `time-limit=2` was refused by the option
    # parser ("Incompatible types: given (2,), expected <class 'float'>").
    src = tmp_path / "g.mlir"
    src.write_text(
        "func.func @f(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {\n"
        "  tdfg.graph ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index) rank 1 {\n"
        "  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index):\n"
        "    %0 = tdfg.tensor %a [0:N] : memref<?xf32> -> !tdfg.tensor<f32, 1>\n"
        "    %1 = tdfg.cmp add(%0, %0) : !tdfg.tensor<f32, 1>, !tdfg.tensor<f32, 1> -> !tdfg.tensor<f32, 1>\n"
        "    tdfg.store %1 -> %b : !tdfg.tensor<f32, 1> -> memref<?xf32>\n"
        "    tdfg.yield\n  }\n  func.return\n}\n"
    )
    p = _tool("infs-opt", "--optimize-tdfg=time-limit=2", str(src))
    assert p.returncode == 0 and "tdfg.graph" in p.stdout, p.stderr
    p = _tool("infs-opt", "--optimize-tdfg=time-limit=-1", str(src))
    assert p.returncode == 1 and p.stderr.strip() == "infs-opt: error: pass 'optimize-tdfg' failed: option time-limit must be >= 0, got -1", p.stderr


def test_lower_pim_on_a_lowered_program_says_so(tmp_path: Path) -> None:
    # lower-pim runs its record steps on a pimcmd.program already in the module;
    # on an allocated one the error blamed 'decompose', a step the user never named.
    src = tmp_path / "p.mlir"
    src.write_text(
        "func.func @allocated(%A: memref<4x4xf32>) {\n"
        "  pimcmd.program ins(%A : memref<4x4xf32>) config fig9 lattice [4, 4] tiles [2, 2] banks 4 arrays_per_bank 1 wordlines 128 {\n"
        "  ^bb0(%0: memref<4x4xf32>):\n"
        "    pimcmd.array %0 shape [4, 4] wordline 0 transposed : memref<4x4xf32>\n"
        "    pimcmd.transpose_in %0 : memref<4x4xf32>\n"
        "    pimcmd.compute neg f32 dst 32 srcs [0] bitlines 0:1:4 tiles 0:1:4 banks 0:1:4\n"
        "    pimcmd.release %0 : memref<4x4xf32>\n  }\n  func.return\n}\n"
    )
    p = _tool("infs-opt", "--lower-pim=config=fig9", str(src))
    assert p.returncode == 1, p.stdout
    assert p.stderr.strip() == (f"infs-opt: error: pass 'lower-pim' failed: the pimcmd.program at {src}:2:3 in @allocated: "
                                "the program is already lowered (its wordlines are allocated); lower-pim runs once"), p.stderr


def test_a_lowered_float_constant_in_exponent_form_reads_back() -> None:
    # format_number printed repr(1e16) = '1e+16', which MLIR's lexer reads as the
    # integer 1 followed by an identifier ('Operation e is not registered'): an
    # infs-opt output that infs-opt could not read back.  Every printed float has a
    # '.' in its mantissa now.
    from infs import api
    from infs.dialects.keyword_syntax import format_number

    for v in (1e16, -1e16, 1e-5, 2.5e-300, 1e300, 5e-324, 123.0, -0.0):
        text = format_number(v)
        assert float(text) == v and "." in text.split("e")[0], text
    src = (
        "func.func @f(%A: memref<?xf64>, %C: memref<?xf64>, %n: index) {\n"
        "  stream.region ins(%A, %C : memref<?xf64>, memref<?xf64>) syms(N = %n : index) domain [0:N] iterators [parallel] {\n"
        "  ^bb0(%a: memref<?xf64>, %c: memref<?xf64>, %N: index):\n"
        "    %x = stream.load %a[d0] : memref<?xf64> -> !stream.stream<f64>\n"
        "    %s = stream.compute(%x : !stream.stream<f64>) -> !stream.stream<f64> {\n"
        "    ^bb1(%u: f64):\n"
        "      %k = arith.constant 1.0e16 : f64\n"
        "      %t = arith.mulf %u, %k : f64\n"
        "      stream.yield %t : f64\n"
        "    }\n"
        "    stream.store %s -> %c[d0] : !stream.stream<f64> -> memref<?xf64>\n"
        "    stream.yield\n  }\n  func.return\n}\n"
    )
    module = api.parse_text(src)
    api.PassManager.parse("tensorize,lower-pim{sizes=N=64 config=tiny}").run(module)
    printed = str(module)
    assert "const 1.0e+16" in printed
    assert str(api.parse_text(printed)) == printed


def test_a_host_loop_with_a_step_that_is_not_positive_names_its_line() -> None:
    # MLIR's scf.for takes a positive step.  A run-time step of 0 ended in Python's
    # "range() arg 3 must not be zero" with no op or line; a negative one looped
    # like Python's range (counting down), which no MLIR loop does.
    import numpy as np
    import pytest

    from infs import api

    src = (
        "func.func @k(%A: memref<?xf32>, %n: index, %st: index) {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %one = arith.constant 1.0 : f32\n"
        "  scf.for %i = %n to %c0 step %st {\n"
        "    memref.store %one, %A[%i] : memref<?xf32>\n"
        "  }\n"
        "  func.return\n}\n"
    )
    for step in (0, -1):
        a = np.zeros(4, np.float32)
        with pytest.raises(api.InfsError, match=rf"'scf.for' at line 4 has step {step}: a loop's step must be positive"):
            api.run(src, {"A": a, "n": 3, "st": step}, config="small-16")
    out = api.run(src, {"A": np.zeros(4, np.float32), "n": 3, "st": 1}, config="small-16").outputs["A"]
    assert not out.any()  # from 3 to 0: an empty loop


def test_a_host_op_without_an_implementation_names_its_line() -> None:
    # xDSL's interpreter says only "Could not find interpretation function for op
    # memref.subview": the run's one line now names the op and its line.
    import numpy as np
    import pytest

    from infs import api

    src = (
        "func.func @k(%A: memref<8xf32>) {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %v = memref.subview %A[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>\n"
        "  %one = arith.constant 1.0 : f32\n"
        "  memref.store %one, %v[%c0] : memref<4xf32, strided<[1], offset: 2>>\n"
        "  func.return\n}\n"
    )
    with pytest.raises(api.InfsError, match=r"@k: 'memref.subview' at line 3 is not supported on the host$"):
        api.run(src, {"A": np.zeros(8, np.float32)}, config="small-16")


def test_an_i1_scalar_other_than_0_or_1_is_refused(tmp_path: Path) -> None:
    # infs-run --scalar c=2 for an i1 argument ran with c = True (numpy's bool of
    # 2), where api.run refuses it: the two entry points agree now.
    src = tmp_path / "rows.mlir"
    src.write_text(
        "func.func @k(%A: memref<?x?xi1>, %B: memref<?xi1>, %n: index, %m: index, %c: i1) {\n"
        "  stream.region ins(%A, %B : memref<?x?xi1>, memref<?xi1>) syms(N = %n : index, M = %m : index, c = %c : i1) domain [0:N, 0:M] iterators [parallel, reduction] {\n"
        "  ^bb0(%a: memref<?x?xi1>, %b: memref<?xi1>, %N: index, %M: index, %cc: i1):\n"
        "    %l = stream.load %a[d0, d1] : memref<?x?xi1> -> !stream.stream<i1>\n"
        "    %s = stream.reduce max %l over [1] init %cc : !stream.stream<i1> -> !stream.stream<i1>\n"
        "    stream.store %s -> %b[d0] : !stream.stream<i1> -> memref<?xi1>\n"
        "    stream.yield\n  }\n  func.return\n}\n"
    )
    base = [str(src), "--sizes", "n=4,m=3", "--shape", "A=4x3,B=4", "--config", "tiny"]
    bad = _tool("infs-run", *base, "--scalar", "c=2")
    assert bad.returncode == 2 and bad.stderr.strip() == "infs-run: error: bad --scalar c=2: %c is an i1 argument: expected 0 or 1", bad.stderr
    for ok in ("0", "1"):
        p = _tool("infs-run", *base, "--scalar", f"c={ok}")
        assert p.returncode == 0, p.stderr


def test_an_empty_view_path_is_refused() -> None:
    # infs-run --view '' ran and silently wrote no page (an empty string is falsy),
    # where infs-view -o '' is an error.
    vec_add = str(Path(__file__).resolve().parents[1] / "infs" / "workloads" / "vec_add.mlir")
    p = _tool("infs-run", vec_add, "--size-set", "small", "--config", "tiny", "--view", "")
    assert p.returncode == 2 and p.stderr.strip() == "infs-run: error: --view: an empty path", p.stderr
