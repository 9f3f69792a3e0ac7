"""Driver conventions, the Python API, the xDSL plugin and the tools'
--version.  The lit tests of the new infs-opt flags are
test/lit/tools/{pass-pipeline-nested,print-ir-after-before,verify-diagnostics-expected}.mlir."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from infs import api
from infs.tools import demo, infs_bench, infs_opt

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
VEC_ADD = str(ROOT / "infs/workloads/vec_add.mlir")
STENCIL2D = str(ROOT / "infs/workloads/stencil2d.mlir")

TWO_FUNCS = """
func.func @f() -> index {
  %a = arith.constant 1 : index
  %b = arith.constant 2 : index
  %c = arith.addi %a, %b : index
  func.return %c : index
}
func.func @g(%x: index) -> index {
  %a = arith.constant 1 : index
  %b = arith.constant 1 : index
  %c = arith.addi %a, %b : index
  %d = arith.addi %c, %x : index
  func.return %d : index
}
"""


def opt(capsys, argv):
    code = infs_opt.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# --- the API document's examples run ----------------------------------------


def test_python_api_doc_examples_run(monkeypatch, capsys):
    doc = (ROOT / "docs/python-api.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", doc, re.S)
    assert len(blocks) >= 4
    monkeypatch.chdir(ROOT)
    ns: dict = {}
    for block in blocks:
        exec(compile(block, str(ROOT / "docs/python-api.md"), "exec"), ns)  # noqa: S102 - the documentation's own code
    out = capsys.readouterr()
    assert "cycles" in out.out and "Execution time report" in out.out
    assert "IR Dump After Tensorize (tensorize)" in out.err  # print_after=["tensorize"]
    assert "is a module pass" in out.out


def test_api_run_matches_numpy_and_reports_modes():
    n = 256
    rng = np.random.default_rng(0)
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    inputs = {"A": a, "B": b, "C": np.zeros(n, np.float32), "n": n}
    for mode in ("in", "near", "core"):
        r = api.run(VEC_ADD, inputs, config="small-16", mode=mode)
        np.testing.assert_array_equal(r.outputs["C"], a + b)
        assert [x.mode for x in r.regions] == [mode] and r.cycles == r.stats.total_cycles > 0
    assert not inputs["C"].any()  # the caller's arrays are untouched


def test_api_run_extracts_the_streams_of_plain_loops():
    """A module of plain loops (no stream.region) goes through extract-streams, as with infs-run."""
    n = 37
    rng = np.random.default_rng(1)
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    path = Path(__file__).resolve().parents[1] / "infs" / "workloads" / "loops" / "vec_add.mlir"
    r = api.run(path, {"A": a, "B": b, "C": np.zeros(n, np.float32), "n": n}, config="small-16", mode="in")
    np.testing.assert_array_equal(r.outputs["C"], a + b)
    assert [x.mode for x in r.regions] == ["in"]


def test_api_run_and_lower_errors_are_one_line():
    with pytest.raises(api.InfsError, match="unknown mode 'sideways'"):
        api.run(VEC_ADD, {}, mode="sideways")
    with pytest.raises(api.InfsError, match="unknown run option 'speed'"):
        api.run(VEC_ADD, {}, speed=2)
    with pytest.raises(api.InfsError, match="unknown hardware config"):
        api.lower(VEC_ADD, {"N": 64}, "no-such-machine")
    with pytest.raises(api.InfsError, match="nothing to lower"):
        api.lower(api.parse_text(TWO_FUNCS), {}, "tiny")


def test_api_run_refuses_keys_the_function_does_not_take():
    """A size that is not an argument (gather_mlp's ``r`` only shapes the inputs)
    is one line naming it and the arguments the function takes, before a missing
    argument is reported (a misspelt name is both)."""
    from infs.workloads import WORKLOADS

    w = WORKLOADS["gather_mlp_inner"]
    inputs = w.make_inputs(w.small, np.random.default_rng(0))
    takes = "(it takes %X, %idx, %G, %Wt, %Y, %m, %n, %k)"
    with pytest.raises(api.InfsError) as e:
        api.run(w.path, inputs | w.small, config="tiny")
    assert str(e.value) == f"{w.path}: error: @gather_mlp_inner has no argument 'r' {takes}"
    with pytest.raises(api.InfsError) as e:  # 'N' for 'n', 'r' as well: both named, n not bound
        api.run(w.path, inputs | {"m": 32, "N": 8, "k": 12, "r": 16}, config="tiny")
    assert str(e.value) == f"{w.path}: error: @gather_mlp_inner has no argument 'N', 'r' {takes}"
    with pytest.raises(api.InfsError, match=rf"^{re.escape(str(w.path))}: error: no value bound for argument %n of @gather_mlp_inner$"):
        api.run(w.path, inputs | {"m": 32, "k": 12}, config="tiny")


def test_api_lower_graph_and_module_agree():
    module = api.parse_file(STENCIL2D)
    api.PassManager.parse("builtin.module(tensorize)").run(module)
    graphs = [op for op in module.walk() if op.name == "tdfg.graph"]
    from_module = api.lower(STENCIL2D, {"M": 64, "N": 64}, "small-16")
    from_graph = api.lower(graphs[0], {"M": 64, "N": 64}, "small-16")
    assert len(from_module) == len(graphs) == 2
    assert from_graph.commands == from_module[0].commands > 0
    assert api.to_text(from_graph.program) == api.to_text(from_module[0].program)


def test_pass_manager_takes_the_cli_syntax(capsys, tmp_path):
    """PassManager.parse and infs-opt --pass-pipeline / -p give the same IR."""
    pipeline = "builtin.module(tensorize,lower-pim{sizes=M=64,N=64 config=small-16})"
    module = api.parse_file(STENCIL2D)
    api.PassManager.parse(pipeline).run(module)
    for argv in ([f"--pass-pipeline={pipeline}"], ["-p", 'tensorize,lower-pim{sizes="M=64,N=64" config=small-16}'],
                 ["--tensorize", "--lower-pim=sizes=M=64,N=64 config=small-16"]):  # fmt: skip
        code, out, err = opt(capsys, [*argv, STENCIL2D])
        assert code == 0, err
        assert out.rstrip("\n") == api.to_text(module).rstrip("\n")


def test_func_func_nesting_runs_each_function_alone(capsys):
    """`func.func(p)` runs p on each function (was: an error, nested anchors unsupported)."""
    module = api.parse_text(TWO_FUNCS)
    seen = []
    pm = api.PassManager.parse("builtin.module(func.func(canonicalize))")
    pm.add_instrumentation(lambda when, p, op: seen.append((when, p.name, op.sym_name.data)))
    pm.run(module)
    assert seen == [("before", "canonicalize", "f"), ("after", "canonicalize", "f"), ("before", "canonicalize", "g"), ("after", "canonicalize", "g")]
    text = api.to_text(module)
    assert "arith.constant 3 : index" in text and "arith.constant 2 : index" in text
    assert text.index("@f") < text.index("@g")  # functions keep their places
    with pytest.raises(api.InfsError, match="'tensorize' is a module pass"):
        api.PassManager.parse("builtin.module(func.func(canonicalize,tensorize))")


@pytest.mark.parametrize(
    "spec,message",
    [
        ("builtin.module(cse", "missing ')'"),
        ("builtin.module(cse))", "unbalanced ')'"),
        ("builtin.module(affine.for(cse))", "cannot nest passes under 'affine.for'"),
        ("builtin.module(func.func(func.func(cse)))", "functions do not nest"),
        ("func.func(builtin.module(cse))", "outermost anchor only"),
        ("builtin.module(nosuch)", "unknown pass 'nosuch'"),
        ("builtin.module(lower-pim{tiles=2x2 colour=red})", "bad pipeline"),
    ],
)
def test_bad_pipelines_are_one_line(spec, message):
    with pytest.raises(api.InfsError, match=re.escape(message)) as e:
        api.parse_pass_pipeline(spec)
    assert "\n" not in str(e.value)


# --- --verify-diagnostics, --help --------------------------------------------

ANNOTATED = """func.func @f(%n: index, %m: index) {
  // expected-error @below {{MESSAGE}}
  stream.region syms(N = %n : index, N = %m : index) domain [0:N] iterators [parallel] {
  ^bb0(%N: index, %M: index):
    stream.yield
  }
  func.return
}
"""


@pytest.mark.parametrize(
    "message,code,stderr",
    [
        ("duplicate symbol names", 0, []),
        ("'stream.region' op has duplicate symbol names ['N', 'N']", 0, []),
        ("no such message", 1, ["x.mlir:3:3: error: unexpected error: 'stream.region' op has duplicate symbol names ['N', 'N']",
                                'x.mlir:2:6: error: expected error "no such message" was not produced']),
    ],
)  # fmt: skip
def test_verify_diagnostics_checks_expected_errors(capsys, tmp_path, monkeypatch, message, code, stderr):
    monkeypatch.chdir(tmp_path)
    Path("x.mlir").write_text(ANNOTATED.replace("MESSAGE", message))
    got, out, err = opt(capsys, ["x.mlir", "--verify-diagnostics"])
    assert got == code and err.splitlines() == stderr
    assert "error" not in out  # mlir-opt's mode: diagnostics are checked, not printed


def test_verify_diagnostics_missing_and_unknown_location(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("x.mlir").write_text("// expected-error @unknown {{never}}\nfunc.func @f() {\n  func.return\n}\n")
    code, _, err = opt(capsys, ["x.mlir", "--verify-diagnostics"])
    assert code == 1 and err.strip() == 'x.mlir:1:4: error: expected error "never" was not produced'
    # an error on a line with no annotation, in a file that has annotations
    Path("y.mlir").write_text(ANNOTATED.replace("@below", "@+3").replace("MESSAGE", "duplicate"))
    code, _, err = opt(capsys, ["y.mlir", "--verify-diagnostics"])
    assert code == 1 and "unexpected error" in err and "was not produced" in err


def test_verify_diagnostics_without_annotations_keeps_xdsl_convention(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("x.mlir").write_text(ANNOTATED.replace("// expected-error @below {{MESSAGE}}", "// (no annotation)"))
    code, out, err = opt(capsys, ["x.mlir", "--verify-diagnostics"])
    assert code == 0 and out.strip() == "x.mlir:3:3: error: 'stream.region' op has duplicate symbol names ['N', 'N']" and not err


def test_help_lists_infs_passes_with_options_first(capsys):
    code, out, _ = opt(capsys, ["--help"])
    assert code == 0
    infs_at, xdsl_at = out.index("infs passes"), out.index("xDSL passes")
    assert infs_at < xdsl_at
    for flag in ("--tensorize", "--lower-pim{sizes,config,tiles,shapes}", "--choose-layout{config,tiles}", "--allocate-wordlines"):
        assert out.index(flag) < xdsl_at, flag
    assert "config=<str>" in out and "--mlir-print-ir-after" in out and "--pass-pipeline" in out
    assert re.search(r"\bcse\b", out[xdsl_at:]) and "canonicalize-dmp" in out[xdsl_at:]


# --- infs as an xDSL plugin --------------------------------------------------


def test_xdsl_opt_sees_infs_passes_and_dialects():
    r = subprocess.run([str(BIN / "xdsl-opt"), "-p", "tensorize", VEC_ADD], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "tdfg.graph" in r.stdout and "stream.region" not in r.stdout


def test_multiverse_holds_infs_once_and_infs_opt_tolerates_it(capsys):
    from xdsl.universe import Universe

    multiverse = Universe.get_multiverse()
    assert {"lattice", "stream", "tdfg", "pimcmd"} <= set(multiverse.all_dialects)
    assert {"tensorize", "lower-pim"} <= set(multiverse.all_passes)
    api.make_context()  # would raise AlreadyRegisteredConstructException if registered twice
    code, out, err = opt(capsys, ["--tensorize", VEC_ADD])
    assert code == 0 and "tdfg.graph" in out, err


# --- --version, the README's demo block ---------------------------------------


def test_versions(capsys):
    import infs

    assert opt(capsys, ["--version"])[:2] == (0, f"infs-opt (infs {infs.__version__}) built on xdsl 0.74.0\n")
    with pytest.raises(SystemExit) as e:
        infs_bench.main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out == f"infs-bench (infs {infs.__version__}) built on xdsl 0.74.0\n"
    from infs.tools import infs_run

    with pytest.raises(SystemExit) as e:
        infs_run.main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out == f"infs-run (infs {infs.__version__}) built on xdsl 0.74.0\n"


def test_readme_demo_block_is_current():
    """The README's `make run` block is the demo's own output: regenerated here
    at reduced cost (``--analysis``: the same figures, no data, so no
    ``check:`` lines); refresh it with ``python -m infs.tools.demo --update-readme``."""
    readme = demo.readme_section((ROOT / "README.md").read_text())
    fresh = demo.readme_block(analysis=True)
    # blanks squeezed: a table pads to its widest cell, which can be a wall time
    drop = lambda text: [" ".join(ln.split()) for ln in text.splitlines() if not ln.startswith("check:")]  # noqa: E731
    assert drop(readme) == drop(fresh), "README.md's demo block is stale: run `python -m infs.tools.demo --update-readme`"
    assert any(ln.startswith("check: outputs match") for ln in readme.splitlines())


def test_api_run_names_an_unnamed_argument_by_its_position():
    """``%0``-style arguments have no name xDSL keeps: binding by name says so
    (it said 'has no argument ... (it takes %None, %n)')."""
    text = """func.func @f(%0: memref<?xf32>, %n: index) {
  func.return
}"""
    with pytest.raises(api.InfsError) as e:
        api.run(text, {"X": np.zeros(4, np.float32), "n": 4}, config="tiny")
    assert str(e.value) == "<input>: error: argument #0 of @f has no name (%0): name the arguments (%A, %n, ...) to bind them by name"
