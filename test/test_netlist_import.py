"""Netlists in: the ISCAS85 .bench and BLIF readers, the comb IR they become, their errors.

The oracle is netlist_records.evaluate (numpy, one op per gate over every
vector); each reader and the hw/comb conversion must agree with it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from infs.dialects.netlist_records import NetlistError, evaluate, parse_bench, parse_blif, write_blif
from infs.dialects.xbar import hw_to_netlist, netlist_to_hw
from infs.frontend.netlist_import import import_netlist, read_netlist

ISCAS = Path(__file__).resolve().parents[1] / "infs" / "workloads" / "iscas85"

# STREAM Table IV: inputs and outputs; gates: those of these files (Table IV omits them).
# c880's outputs: Table IV prints 126, the c880 netlist has 26 (infs/workloads/iscas85/README.md).
TABLE_IV = {
    "c432": (36, 7, 160),
    "c499": (41, 32, 202),
    "c880": (60, 26, 383),
    "c1355": (41, 32, 546),
    "c1908": (33, 25, 880),
    "c2670": (233, 140, 1193),
    "c3540": (50, 22, 1669),
    "c5315": (178, 123, 2307),
    "c6288": (32, 32, 2416),
    "c7552": (207, 108, 3512),
}


@pytest.mark.parametrize("name", sorted(TABLE_IV))
def test_iscas85_against_table_iv(name):
    net = read_netlist(str(ISCAS / f"{name}.bench"))
    n_in, n_out, n_gates = TABLE_IV[name]
    assert (len(net.inputs), len(net.outputs), len(net.gates)) == (n_in, n_out, n_gates)


def test_c17_truth_table():
    net = read_netlist(str(ISCAS / "c17.bench"))
    x = ((np.arange(32)[:, None] >> np.arange(5)) & 1).astype(bool)
    nand = lambda a, b: ~(a & b)  # noqa: E731
    g1, g2, g3, g6, g7 = x.T
    g10, g11 = nand(g1, g3), nand(g3, g6)
    g16, g19 = nand(g2, g11), nand(g11, g7)
    want = np.stack([nand(g10, g16), nand(g16, g19)], axis=1)
    assert (evaluate(net, x) == want).all()


@pytest.mark.parametrize("name", ["c17", "c432", "c880", "c6288"])
def test_blif_and_comb_round_trips_compute_the_same(name):
    net = read_netlist(str(ISCAS / f"{name}.bench"))
    x = np.random.default_rng(7).random((200, len(net.inputs))) < 0.5
    want = evaluate(net, x)
    assert (evaluate(parse_blif(write_blif(net), "rt.blif"), x) == want).all()
    back = hw_to_netlist(netlist_to_hw(net))
    assert back.inputs == net.inputs and back.outputs == net.outputs
    assert (evaluate(back, x) == want).all()


def test_blif_reader_covers():
    text = """# a full adder
.model fa
.inputs a b \\
  c
.outputs s co
.names a b c s
100 1
010 1
001 1
111 1
.names a b c co
11- 1
1-1 1
-11 1
.names k
.end
"""
    net = parse_blif(text, "fa.blif")
    x = ((np.arange(8)[:, None] >> np.arange(3)) & 1).astype(bool)
    total = x.sum(axis=1)
    got = evaluate(net, x)
    assert (got[:, 0] == (total % 2 == 1)).all() and (got[:, 1] == (total >= 2)).all()
    off = parse_blif(".model m\n.inputs a b\n.outputs y\n.names a b y\n11 0\n.end\n", "off.blif")
    assert (evaluate(off, x[:4, :2])[:, 0] == ~(x[:4, 0] & x[:4, 1])).all()


BAD_BENCH = [
    ("INPUT(a)\nOUTPUT(y)\ny = MAJ(a, a)\n", "bad.bench:3: unknown gate 'MAJ'"),
    ("INPUT(a)\nOUTPUT(y)\ny = AND(a, q)\n", "bad.bench:3: gate 'y' reads undefined signal 'q'"),
    ("INPUT(a)\nOUTPUT(y)\ny = NOT(a, a)\n", "bad.bench:3: NOT gate 'y' takes one input, got 2"),
    ("INPUT(a)\nOUTPUT(y)\ny = AND(a, z)\nz = OR(y, a)\n", "bad.bench:3: combinational cycle through gate 'y'"),
    ("INPUT(a)\nOUTPUT(y)\ny = BUF(a)\ny = NOT(a)\n", "bad.bench:4: signal 'y' defined twice"),
    ("INPUT(a)\nOUTPUT(z)\ny = BUF(a)\n", "bad.bench:2: output 'z' is never defined"),
    ("INPUT(a)\ny := AND(a)\n", "bad.bench:2: expected INPUT(x), OUTPUT(x) or 'x = GATE(a, ...)'"),
    ("# nothing\n", "bad.bench:1: no INPUT, OUTPUT or gate line"),
]


@pytest.mark.parametrize("text,message", BAD_BENCH)
def test_malformed_bench_is_one_line(text, message):
    with pytest.raises(NetlistError) as e:
        parse_bench(text, "bad.bench")
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


BAD_BLIF = [
    (".model m\n.inputs a\n.outputs y\n.names a y\n2 1\n", "bad.blif:5: .names 'y': cube '2' must be 1 of 0, 1, -"),
    (".model m\n.inputs a\n.outputs y\n.latch a y\n", "bad.blif:4: .latch: only combinational"),
    (".model m\n.inputs a\n.outputs y\n.names a y\n1 1\n0 0\n", "bad.blif:4: .names 'y': a cover mixes"),
    (".model m\n.inputs a\n.outputs y\n1 1\n", "bad.blif:4: cover row '1 1' outside a .names"),
    (".model m\n.inputs a\n.outputs y\n.names a y\n1 x\n", "bad.blif:5: .names 'y': output column 'x'"),
    (".model m\n.inputs a\n.outputs y\n.frob\n", "bad.blif:4: unknown BLIF directive '.frob'"),
    (".model m\n.inputs a\n.outputs y\n.gate AND2 a=a b=a O=y\n", "bad.blif:4: .gate 'AND2': not a cell"),
]


@pytest.mark.parametrize("text,message", BAD_BLIF)
def test_malformed_blif_is_one_line(text, message):
    with pytest.raises(NetlistError) as e:
        parse_blif(text, "bad.blif")
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_import_netlist_module_verifies():
    module = import_netlist(str(ISCAS / "c432.bench"))
    module.verify()


@pytest.mark.parametrize("flag,suffix,text,message", [
    ("--import-bench", ".bench", "INPUT(a)\nOUTPUT(y)\ny = AND(a, q)\n", "gate 'y' reads undefined signal 'q'"),
    ("--import-blif", ".blif", ".model m\n.inputs a\n.outputs y\n.names a y\n1 2\n", "output column '2' must be 0 or 1"),
])
def test_infs_opt_reports_bad_netlist_in_one_line(tmp_path, flag, suffix, text, message):
    path = tmp_path / f"bad{suffix}"
    path.write_text(text)
    proc = subprocess.run([sys.executable, "-m", "infs.tools.infs_opt", flag, str(path)], capture_output=True, text=True)
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and f"bad{suffix}:" in lines[0] and message in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


def test_synthesis_without_abc_names_the_package(tmp_path):
    # a PATH without berkeley-abc: the pass fails in one line naming the Debian package
    import os
    import shutil

    bindir = tmp_path / "bin"
    bindir.mkdir()
    env = {**os.environ, "PATH": str(bindir)}
    assert shutil.which("berkeley-abc", path=str(bindir)) is None
    proc = subprocess.run(
        [sys.executable, "-m", "infs.tools.infs_opt", "--import-bench", str(ISCAS / "c17.bench"), "--synthesize-stream-o"],
        capture_output=True, text=True, env=env,
    )
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "berkeley-abc" in lines[0] and "synthesize-stream-o" in lines[0], proc.stderr
