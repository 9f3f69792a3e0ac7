"""PolyBench/C 4.2 kernels as cgeist prints them: ``test/polybench``.

Each kernel runs at small sizes (odd and prime, below the arrays' MINI
dims as ``_PB_N`` may be in C) through what ``infs-run`` does with a file of
plain loops -- ``extract-streams``, then the runtime -- under ``--mode auto``
and ``--mode in`` on ``small-16``, and must give numpy's answer.  Under
``--mode in`` a region that cannot run in memory must say so (not honoured,
with a reason) and still give the right values.  seidel-2d, an in-place
Gauss-Seidel sweep, must not become a region at all.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from infs import api
from infs.passes.extract_streams import extract_streams

sys.path.insert(0, str(Path(__file__).resolve().parent / "polybench"))
from reference import KERNELS, cgeist_text, expected, inputs  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

# small runtime sizes: odd and prime, below the MINI arrays they run on
SIZES = {
    "jacobi-1d": {"TSTEPS": 2, "N": 13},
    "jacobi-2d": {"TSTEPS": 2, "N": 11},
    "heat-3d": {"TSTEPS": 2, "N": 7},
    "fdtd-2d": {"TMAX": 2, "NX": 7, "NY": 11},
    "seidel-2d": {"TSTEPS": 2, "N": 9},
    "gemm": {"NI": 7, "NJ": 11, "NK": 5},
    "2mm": {"NI": 5, "NJ": 7, "NK": 3, "NL": 11},
    "gemver": {"N": 13},
    "gesummv": {"N": 13},
    "atax": {"M": 7, "N": 11},
    "bicg": {"M": 11, "N": 7},
    "mvt": {"N": 13},
    "syrk": {"N": 5, "M": 3},
    "doitgen": {"NR": 2, "NQ": 3, "NP": 5},
    "covariance": {"M": 5, "N": 7},
    "cholesky": {"N": 13},
    "lu": {"N": 11},
    "trisolv": {"N": 13},
    "trmm": {"M": 7, "N": 11},
}


def _run(name: str, mode: str, sizes: dict[str, int], seed: int = 0):
    k = KERNELS[name]
    args = inputs(k, sizes, seed=seed)
    want = expected(k, args, sizes)
    res = api.run(cgeist_text(k), args, config="small-16", mode=mode)
    return k, res, want


def _check(name: str, res, want) -> None:
    for a, w in want.items():
        np.testing.assert_allclose(res.outputs[a], w, rtol=1e-10, atol=1e-12, err_msg=f"{name}: %{a}")


def test_every_kernel_has_sizes_and_a_file():
    assert sorted(SIZES) == sorted(KERNELS)
    for k in KERNELS.values():
        assert k.path.exists(), k.path


@pytest.mark.parametrize("mode", ["auto", "in"])
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_kernel_matches_numpy(name: str, mode: str) -> None:
    k, res, want = _run(name, mode, SIZES[name])
    _check(name, res, want)
    if name == "seidel-2d":
        assert res.regions == []  # nothing offloaded: the whole sweep stays on the host
    if not res.regions:
        # the host ran it all (test_regress_offload.py), and one remark says why
        assert name in HOST_ONLY, f"{name}: no region ran"
        assert len(res.remarks) == 1 and res.remarks[0].startswith("nothing to offload"), res.remarks
        return
    for r in res.regions:
        if mode == "in" and r.mode != "in":
            # a region that could not run in memory says why; its values were checked above
            assert r.not_honoured, f"{name}: region {r.region} ran {r.mode} under --mode in without a reason"
    if mode == "in" and name in ALL_IN_MEMORY:
        assert {r.mode for r in res.regions} == {"in"}, f"{name}: {[(r.region, r.mode, r.not_honoured) for r in res.regions if r.mode != 'in']}"


# kernels every region of which runs in memory under --mode in at SIZES on
# small-16 (the README says so); the others' stencils and some folds need more
# 64-bit registers than 256 wordlines hold
ALL_IN_MEMORY = {"2mm", "mvt", "doitgen", "covariance"}

# kernels extract-streams offloads nothing of: seidel-2d's sweep, and the
# triangular kernels whose every nest carries a dependence it does not split
HOST_ONLY = {"seidel-2d", "cholesky", "lu", "trisolv", "trmm"}


def test_seidel_2d_is_not_extracted():
    """An in-place Gauss-Seidel sweep: every loop carries a dependence (each
    cell reads its updated upper and left neighbours), so nothing becomes a
    region, and the remark says why."""
    module = api.parse_text(cgeist_text(KERNELS["seidel-2d"]), "seidel-2d.mlir")
    remarks = extract_streams(module)
    assert not any(op.name == "stream.region" for op in module.walk())
    assert [r.extracted for r in remarks] == [False]
    assert "loop-carried dependence" in remarks[0].text


@pytest.mark.parametrize("name", ["gemm", "jacobi-2d"])
def test_mini_sizes_equal_to_the_arrays(name: str) -> None:
    """The runtime sizes equal to the arrays' dims (PolyBench's own MINI run)."""
    k = KERNELS[name]
    sizes = dict(k.datasets["MINI"])
    if "TSTEPS" in sizes:
        sizes["TSTEPS"] = 2
    _, res, want = _run(name, "auto", sizes, seed=1)
    _check(name, res, want)


def test_cgeist_text_rewrites_only_static_dims():
    k = KERNELS["2mm"]
    large = cgeist_text(k, "LARGE")
    assert "memref<?x900xf64>" in large and "memref<?x1100xf64>" in large and "memref<?x1200xf64>" in large
    assert "memref<?x18xf64>" not in large
    api.parse_text(large)  # still a valid module


def test_infs_run_on_a_cgeist_file(tmp_path: Path) -> None:
    """``infs-run`` itself on a cgeist file: i32 sizes as --scalar, arrays as
    .npy inputs, outputs saved and compared with numpy."""
    k = KERNELS["mvt"]  # (every region of mvt runs in memory: --strict holds)
    sizes = {"N": 13}
    args = inputs(k, sizes, seed=3)
    want = expected(k, args, sizes)
    cmd = [sys.executable, "-m", "infs.tools.infs_run", str(k.path), "--config", "small-16", "--mode", "in", "--strict", "--save-outputs", str(tmp_path / "out")]
    for name, v in args.items():
        if isinstance(v, np.ndarray):
            np.save(tmp_path / f"{name}.npy", v)
            cmd += ["--input", f"{name}={tmp_path / f'{name}.npy'}"]
        else:
            cmd += ["--scalar", f"{name}={int(v)}"]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    for name, w in want.items():
        got = np.load(tmp_path / "out" / f"{name}.npy")
        np.testing.assert_allclose(got, w, rtol=1e-12)


def test_cgeist_data_layout_parses():
    """Regression: cgeist (MLIR before 19) prints the module's data layout as
    `#dlti.dl_spec<#dlti.dl_entry<key, value>, ...>`, which xDSL 0.74 did not
    read ("Expected '='"); infs's parser reads it into the same attribute."""
    text = (
        'module attributes {dlti.dl_spec = #dlti.dl_spec<#dlti.dl_entry<"dlti.endianness", "little">, #dlti.dl_entry<i64, dense<64> : vector<2xi32>>, '
        '#dlti.dl_entry<!llvm.ptr<270>, dense<32> : vector<4xi32>>, #dlti.dl_entry<"dlti.stack_alignment", 128 : i32>>} {\n}\n'
    )
    module = api.parse_text(text)
    spec = module.attributes["dlti.dl_spec"]
    assert spec["dlti.endianness"] == api.parse_text('builtin.module attributes {x = "little"} {}').attributes["x"]
    assert len(spec.entries) == 4
    # printed in the current syntax, which parses again
    assert api.to_text(api.parse_text(api.to_text(module))) == api.to_text(module)
    with pytest.raises(api.InfsError, match="mixes"):
        api.parse_text('module attributes {dlti.dl_spec = #dlti.dl_spec<#dlti.dl_entry<i64, 64 : i32>, 3 : i32>} {\n}\n')


def test_the_readme_table_script_runs():
    """test/polybench/table.py (the README's table) on two kernels at MINI."""
    import table

    rows, _ = table.kernel_rows("gemm", "MINI", "paper-64", 2)
    assert [r[1] for r in rows] == ["l.14 [0:NI, 0:NJ] p/p", "l.14 [0:NI, 0:NK, 0:NJ] p/r/p", "l.14 [0:NI, 0:NJ] p/p"]
    assert all(r[2] == "1" and r[3] in ("in memory", "near memory", "cores") and r[4] for r in rows)
    rows, _ = table.kernel_rows("seidel-2d", "MINI", "paper-64", 2)
    assert rows == [["seidel-2d", "l.15 (host loop)", "", "host", "loop nest not extracted: a loop-carried dependence on %A"]]
