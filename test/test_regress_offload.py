"""Regression: a valid program with nothing to offload runs on the host.

infs-run and api.run refused a program in which extract-streams finds no loop
nest to offload ("nothing to offload"), while ``@infs.kernel`` ran the same
code on the host: PolyBench's cholesky, lu, trisolv and trmm could not be run
at all.  Now the host runs it, with one remark line saying why nothing was
offloaded; the report's cycles are 0 (infs models no cost for host code);
``--strict-offload`` / ``strict_offload=True`` make it an error.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from infs import api
from infs.tools import infs_run

sys.path.insert(0, str(Path(__file__).resolve().parent / "polybench"))
from reference import KERNELS, cgeist_text, expected, inputs  # noqa: E402

SIZES = {"cholesky": {"N": 13}, "lu": {"N": 11}, "trisolv": {"N": 13}, "trmm": {"M": 7, "N": 11}}


@pytest.mark.parametrize("name", sorted(SIZES))
def test_triangular_polybench_kernels_run_and_match_numpy(name):
    k = KERNELS[name]
    args = inputs(k, SIZES[name])
    want = expected(k, args, SIZES[name])
    res = api.run(cgeist_text(k), args, config="small-16")
    for a, w in want.items():
        assert np.isfinite(w).all()
        np.testing.assert_allclose(res.outputs[a], w, rtol=1e-10, atol=1e-12, err_msg=f"{name}: %{a}")
    if not res.regions:  # (extract-streams may offload some of them one day: then the remark goes)
        assert len(res.remarks) == 1 and res.remarks[0].startswith("nothing to offload: extract-streams turned none"), res.remarks
        assert res.cycles == 0 and res.stats.total_energy_pj == 0


def test_strict_offload_makes_it_an_error():
    k = KERNELS["trisolv"]
    with pytest.raises(api.InfsError, match=r"nothing to offload: .*\(strict_offload\)$"):
        api.run(cgeist_text(k), inputs(k, SIZES["trisolv"]), config="small-16", strict_offload=True)


def test_a_program_without_loops_runs_on_the_host():
    r = api.run("func.func @f(%a: i32) -> i32 {\n  %b = arith.muli %a, %a : i32\n  func.return %b : i32\n}\n", {"a": np.int32(7)})
    assert r.results == (49,) and r.cycles == 0 and r.regions == []
    assert r.remarks == ("nothing to offload: the program has no stream.region and no loop nest; the host runs all of it",)


@pytest.fixture(scope="module")
def cholesky_file(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("offload") / "cholesky.mlir"
    p.write_text(cgeist_text(KERNELS["cholesky"]))
    return p


CHOLESKY_ARGS = ["--sizes", "arg0=13", "--shape", "arg1=13x40"]


def test_infs_run_runs_cholesky_with_one_remark(capsys, cholesky_file):
    """It was 'infs-run: error: ... nothing to offload', exit 2."""
    rc = infs_run.main([str(cholesky_file), *CHOLESKY_ARGS, "--check"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("infs-run: remark: ") and "nothing to offload" in lines[0], err
    assert re.search(r"cholesky.mlir:\d+:5: loop nest not extracted", lines[0]) and "the report's cycles are 0" in lines[0]
    assert "check: outputs match the host interpreter's second run (nothing was offloaded" in " ".join(out.split())


def test_infs_run_json_carries_the_remark(capsys, cholesky_file):
    rc = infs_run.main([str(cholesky_file), *CHOLESKY_ARGS, "--json"])
    out, err = capsys.readouterr()
    assert rc == 0 and not err.strip(), err
    s = json.loads(out)
    assert s["total_cycles"] == 0 and s["regions"] == [] and len(s["remarks"]) == 1 and "nothing to offload" in s["remarks"][0]


def test_infs_run_strict_offload_is_one_error_line(capsys, cholesky_file):
    rc = infs_run.main([str(cholesky_file), *CHOLESKY_ARGS, "--strict-offload"])
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and lines[0].startswith("infs-run: error: ") and "nothing to offload" in lines[0], err
    assert lines[0].endswith("(--strict-offload)") and "the host runs all of it" not in lines[0]
