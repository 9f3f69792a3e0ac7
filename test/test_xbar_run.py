"""infs-run on crossbar programs (FILE.xbar.json): outputs and figures, the
records' JSON round trip, and one-line errors for bad files and inputs."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infs.dialects.xbar_records import XbarRecordError, program_from_json, program_to_json
from infs.sim.xbar.cost import stream_cost
from infs.sim.xbar.evaluate import evaluate
from infs.sim.xbar.mvm import MASK, adder_program, bits_word, word_bits
from infs.tools.infs_run import main

from test_xbar_sim import random_program


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_json_round_trip(seed):
    program = random_program(seed)
    back = program_from_json(json.loads(json.dumps(program_to_json(program))))
    x = np.random.default_rng(seed).random((9, program.n_inputs)) < 0.5
    np.testing.assert_array_equal(evaluate(back, x), evaluate(program, x))
    assert program_to_json(back) == program_to_json(program)


@pytest.fixture
def adder_file(tmp_path):
    path = tmp_path / "add32.xbar.json"
    path.write_text(json.dumps(program_to_json(adder_program())))
    return path


def test_run_adds_and_reports(adder_file, capsys):
    a, b = 0xFFFFFFFF, 5
    vec = "".join("1" if c else "0" for c in np.concatenate([word_bits(a), word_bits(b), [False]]))
    assert main([str(adder_file), "--inputs", vec, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    got = bits_word(np.array([c == "1" for c in out["outputs"][0]]))
    assert got == (a + b) & MASK
    stream = out["costs"][0]
    assert stream["latency_ns"] == pytest.approx(stream_cost(adder_program(), 1).latency_ns)
    assert [c["model"] for c in out["costs"]] == ["stream-m", "contra"]


def test_run_text_and_npy(adder_file, tmp_path, capsys):
    x = np.random.default_rng(0).random((5, 65)) < 0.5
    np.save(tmp_path / "x.npy", x)
    assert main([str(adder_file), "--inputs", str(tmp_path / "x.npy"), "--show", "2"]) == 0
    text = capsys.readouterr().out
    assert "latency ns" in text and "... 3 more" in text and "contra" in text


@pytest.mark.parametrize(
    "doc, needle",
    [
        ("{", "not JSON"),
        ('{"format": "other"}', "not an infs-xbar document"),
        ('{"format": "infs-xbar", "version": 7}', "version 7"),
        ('{"format": "infs-xbar", "version": 1}', "missing or malformed field 'kernels'"),
    ],
)
def test_bad_files_one_line(tmp_path, capsys, doc, needle):
    path = tmp_path / "bad.xbar.json"
    path.write_text(doc)
    assert main([str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0] and "bad.xbar.json" in err[0]


def test_bad_inputs_one_line(adder_file, capsys):
    assert main([str(adder_file), "--inputs", "0101"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "expected 65 characters" in err[0]
    assert main([str(adder_file), "--inputs", "x", "--random", "3"]) == 2
    assert main([str(adder_file).replace("add32", "none")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_malformed_kernel_is_named():
    doc = program_to_json(adder_program(4))
    doc["kernels"][1]["layers"][1]["rows"] = 3
    with pytest.raises(XbarRecordError, match="kernel 1 layer 1"):
        program_from_json(doc)


def test_run_xbar_mlir(tmp_path, capsys):
    xbar = pytest.importorskip("infs.dialects.xbar")
    from xdsl.dialects.builtin import ModuleOp

    path = tmp_path / "add4.xbar.mlir"
    path.write_text(str(ModuleOp([xbar.records_to_xbar(adder_program(4), "add4")])))
    assert main([str(path), "--inputs", "110011000", "--json"]) == 0  # 3 + 3
    out = json.loads(capsys.readouterr().out)
    assert out["outputs"] == ["0110"] and out["kernels"] == 2
    two = tmp_path / "two.xbar.mlir"
    two.write_text(str(ModuleOp([xbar.records_to_xbar(adder_program(4), "a"), xbar.records_to_xbar(adder_program(4), "b")])))
    assert main([str(two)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "found 2 (@a, @b)" in err[0]
    bad = tmp_path / "bad.xbar.mlir"
    bad.write_text("xbar.program @p style \"stream-o\" crossbar 128 inputs [\"a\"] outputs [\"y\"] {\n}\n")
    assert main([str(bad)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.xbar.mlir" in err[0]


@pytest.mark.parametrize("style", ["--synthesize-stream-o", "--synthesize-stream-m"])
def test_infs_opt_then_infs_run_c17_exhaustive(tmp_path, capsys, style):
    """The issue's 'done when': infs-opt maps c17, infs-run evaluates every input against the netlist."""
    abc = pytest.importorskip("infs.passes.xbar.abc")
    if not abc.abc_available():
        pytest.skip("berkeley-abc is not installed")
    from pathlib import Path

    from infs.dialects.netlist_records import evaluate as netlist_evaluate, parse_bench
    from infs.sim.xbar.two_level import input_bits
    from infs.tools.infs_opt import main as opt_main

    bench = Path(__file__).resolve().parents[1] / "infs" / "workloads" / "iscas85" / "c17.bench"
    assert opt_main(["--import-bench", str(bench), style, "--map-staircase"]) == 0
    mapped = tmp_path / "c17.xbar.mlir"
    mapped.write_text(capsys.readouterr().out)
    x = input_bits(5)
    np.save(tmp_path / "x.npy", x)
    assert main([str(mapped), "--inputs", str(tmp_path / "x.npy"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    got = np.array([[c == "1" for c in word] for word in out["outputs"]])
    np.testing.assert_array_equal(got, netlist_evaluate(parse_bench(bench.read_text(), str(bench), "c17"), x))
    assert out["costs"][0]["latency_ns"] > 0
