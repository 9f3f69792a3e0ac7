"""The simulator and the command records run without xDSL: a fresh process that
imports ``infs.sim`` and ``infs.dialects.pimcmd_records`` and runs lowered
programs (the JIT's records of real workloads, handed over as data) has loaded
neither xDSL nor egglog nor any of infs's passes, and gives the outputs and
statistics the same programs give in this process, where the IR exists."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.ir import Block

from infs import api
from infs.dialects.pimcmd_records import ArrayType, PimProgram, ScalarType
from infs.dialects.pimcmd_records_ir import ir_type, to_op
from infs.runtime.driver import RunOptions, run_program
from infs.sim import Machine
from infs.workloads import WORKLOADS

# the child: load the programs (records, plain data), run each on its inputs,
# report what it loaded and what the runs gave
CHILD = r"""
import json, pickle, sys
import numpy as np
import infs.sim, infs.dialects.pimcmd_records
from infs.sim import Machine

progs, inputs, mode = pickle.load(open(sys.argv[1], "rb"))
out = {"stats": [], "outputs": []}
for prog, arrays in zip(progs, inputs):
    arrays = {i: a.copy() for i, a in arrays.items()}
    st = Machine("tiny", mode=mode).run(prog, arrays, [1.5] * len(prog.scalar_types))
    out["stats"].append(st.to_dict())
    out["outputs"].append({i: a.tolist() for i, a in arrays.items()})
out["loaded"] = sorted(m for m in sys.modules if m.split(".")[0] in ("xdsl", "egglog") or m.startswith("infs.passes") or m == "infs.dialects.pimcmd")
print(json.dumps(out))
"""


def _plain(prog: PimProgram) -> PimProgram:
    """The program with its argument types as plain values (what a bundle holds: no xDSL types)."""
    out = prog.with_cmds(list(prog.cmds))
    out.arg_types = [t if isinstance(t, ArrayType) else ArrayType(str(t.element_type), tuple(t.get_shape())) for t in prog.arg_types]
    out.scalar_types = [t if isinstance(t, ScalarType) else ScalarType(str(t)) for t in prog.scalar_types]
    out.result_types = [t if isinstance(t, ScalarType) else ScalarType(str(t)) for t in prog.result_types]
    return out


def _lowered(name: str) -> list[tuple[PimProgram, dict]]:
    """The lowered programs of a workload's run, each with the host arrays it ran on (their values after the run)."""
    w = WORKLOADS[name]
    sizes = w.sizes("small")
    values = w.make_inputs(sizes, np.random.default_rng(0))
    rep = run_program(api.parse_file(str(w.path)), w.call_args(values, sizes), w.entry, RunOptions(config="tiny", mode="in", machine_mode="analysis"))
    return [(low.record, host) for _, low, _, host in rep.programs]


@pytest.mark.parametrize("mode", ["functional", "analysis"])
def test_records_run_in_a_process_without_xdsl(tmp_path: Path, mode: str):
    runs = [run for name in ("stencil2d", "array_sum", "gather_mlp_outer") for run in _lowered(name)]
    progs = [_plain(p) for p, _ in runs]
    assert progs and all(not p.virtual for p in progs)
    kinds = {c.kind.MNEMONIC for p in progs for c in p.cmds}
    assert {"shift", "readout", "near_reduce", "near_load", "compute", "release"} <= kinds, kinds  # the programs exercise the machine
    inputs = [{i: np.array(a) for i, a in host.items()} for _, host in runs]  # (index arrays must stay indices)
    path = tmp_path / "progs.pkl"
    path.write_bytes(pickle.dumps((progs, inputs, mode)))
    child = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, timeout=300)
    assert child.returncode == 0, child.stderr
    got = json.loads(child.stdout)
    assert got["loaded"] == [], f"the simulator loaded {got['loaded']}"

    # the same programs here, where the IR exists, read back from their op form
    for k, (prog, arrays) in enumerate(zip(progs, inputs)):
        arrays = {i: a.copy() for i, a in arrays.items()}
        holder = Block(arg_types=[ir_type(t) for t in (*prog.arg_types, *prog.scalar_types)])
        n = len(prog.arg_types)
        op = to_op(prog, list(holder.args[:n]), list(holder.args[n:]))
        st = Machine("tiny", mode=mode).run(op if k % 2 else prog, arrays, [1.5] * len(prog.scalar_types))
        assert got["stats"][k] == json.loads(json.dumps(st.to_dict())), k
        for i, a in arrays.items():
            np.testing.assert_array_equal(np.asarray(got["outputs"][k][str(i)], dtype=a.dtype), a)
