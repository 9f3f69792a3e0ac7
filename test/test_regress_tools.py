"""Regressions of the user-facing tools beyond infs-run: infs-sweep, infs-view,
the Python kernel front end and plain-loop input (red-team pass).  Each test
failed before its fix."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from infs.tools import infs_run, infs_sweep, infs_view

ROOT = Path(__file__).resolve().parents[1]


def _page_data(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    assert m, "the page embeds its data"
    return json.loads(m.group(1))


# ---------------------------------------------------------------------------
# infs-view
# ---------------------------------------------------------------------------


def test_infs_view_shows_a_plain_loop_program(tmp_path, capsys):
    """infs-run runs a file of plain loops through extract-streams; infs-view said
    "has no stream.region and no pimcmd.program: nothing to view" (exit 2).  The
    page's run is infs-run's (--mode in --analysis): the same total cycles."""
    src = ROOT / "infs/workloads/loops/stencil2d.mlir"
    flags = ["--sizes", "m=64,n=48,t=2", "--shape", "A=64x48,B=64x48,W=2", "--config", "small-16"]
    out = tmp_path / "v.html"
    assert infs_view.main([str(src), *flags, "-o", str(out)]) == 0, capsys.readouterr().err
    data = _page_data(out.read_text())
    assert data["programs"] and all(p["cmds"] for p in data["programs"])
    capsys.readouterr()
    assert infs_run.main([str(src), *flags, "--mode", "in", "--analysis", "--json"]) == 0
    run = json.loads(capsys.readouterr().out)
    assert data["run"]["total_cycles"] == run["total_cycles"] > 0


def test_infs_view_of_a_file_without_anything_to_offload_says_the_host_ran_it(tmp_path, capsys):
    """A program with nothing to offload is a valid program: the page is written
    and says the host ran all of it; an unbound size is still one line."""
    p = tmp_path / "f.mlir"
    p.write_text("func.func @f(%n: index) {\n  func.return\n}\n")
    assert infs_view.main([str(p), "-o", str(tmp_path / "f.html")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "never bound" in err and "--sizes n=" in err
    assert infs_view.main([str(p), "--sizes", "n=4", "-o", str(tmp_path / "f.html")]) == 0
    data = _page_data((tmp_path / "f.html").read_text())
    assert data["programs"] == [] and data["run"]["regions"] == []
    assert any("nothing to offload, the host ran all of it" in n for n in data["run"]["notes"])


# ---------------------------------------------------------------------------
# infs-sweep
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("line, what", [('name = "a\\u0000b"', "name:"), ('out = "o\\u0000ut"', "out:")])
def test_sweep_nul_in_name_or_out_is_one_line(tmp_path, capsys, line, what):
    """A NUL in the spec's name or out (the default output directory) raised
    ValueError('embedded null byte') from mkdir: a traceback."""
    spec = tmp_path / "s.toml"
    spec.write_text(f'workloads = ["vec_add"]\n{line}\n')
    assert infs_sweep.main([str(spec), "--dry-run"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and str(spec) in err and what in err and "NUL" in err


def test_infs_view_region_shows_that_regions_programs_as_they_ran(tmp_path, capsys):
    """--region N replayed only region N's programs: with --cold, region 1's first
    command found its arrays in DRAM though region 0 had brought them into the L3
    (its DRAM cycles were not the run's), and the page's note said the replay
    disagreed with the run (the whole run's totals against a part of it)."""
    src = str(ROOT / "infs/workloads/stencil2d.mlir")
    flags = ["--config", "small-16", "--cold"]
    assert infs_view.main([src, *flags, "-o", str(tmp_path / "all.html")]) == 0
    assert infs_view.main([src, *flags, "--region", "1", "-o", str(tmp_path / "r1.html")]) == 0, capsys.readouterr().err
    whole, part = (_page_data((tmp_path / f).read_text()) for f in ("all.html", "r1.html"))
    assert whole["run"]["replay_note"] == "" and part["run"]["replay_note"] == ""
    want = [p for p in whole["programs"] if 1 in p["regions"]]
    assert [p["regions"] for p in part["programs"]] == [p["regions"] for p in want] and want
    for got, exp in zip(part["programs"], want):
        assert got["cycles"] == exp["cycles"] and got["cost"] == exp["cost"]
    assert [p["id"] for p in part["programs"]] == list(range(len(part["programs"])))
    assert whole["run"].pop("shown_regions") is None and part["run"].pop("shown_regions") == [1]
    assert part["run"] == whole["run"]


# ---------------------------------------------------------------------------
# plain loops: extract-streams
# ---------------------------------------------------------------------------

_CAST_DISTRIBUTED = """
func.func @k(%A: memref<?x?xf32>, %C: memref<?x?xf32>, %D: memref<?x?xf32>, %n: index) {
  %h = arith.constant 2.0 : f32
  %B = "memref.cast"(%A) : (memref<?x?xf32>) -> memref<?x?xf32>
  affine.for %i = 0 to affine_map<()[s0] -> (s0 - 1)>()[%n] {
    affine.for %j = 0 to %n {
      %a = affine.load %C[%i, %j] : memref<?x?xf32>
      %c = arith.mulf %a, %h : f32
      affine.store %c, %A[%i, %j] : memref<?x?xf32>
    }
    affine.for %j = 0 to %n {
      %b = affine.load %B[%i + 1, %j] : memref<?x?xf32>
      affine.store %b, %D[%i, %j] : memref<?x?xf32>
    }
  }
  func.return
}"""

_CAST_CARRIED = """
func.func @k(%A: memref<?xf32>, %n: index) {
  %h = arith.constant 0.5 : f32
  %B = "memref.cast"(%A) : (memref<?xf32>) -> memref<?xf32>
  affine.for %i = 0 to %n {
    %a = affine.load %B[%i] : memref<?xf32>
    %b = arith.mulf %a, %h : f32
    affine.store %b, %A[%i + 1] : memref<?xf32>
  }
  func.return
}"""


@pytest.mark.parametrize("mode", ["in", "core"])
def test_an_array_and_its_memref_cast_are_one_array(mode):
    """extract-streams took %A and a memref.cast of it for two arrays: it
    distributed an imperfect nest whose second statement reads (through the
    cast) a row the first writes at the next iteration -- D silently got the new
    values, not the old ones -- and made a region of a carried loop that read
    through the cast (the run then refused the aliased operands)."""
    from infs import api

    n = 6
    rng = np.random.default_rng(0)
    A0, C0 = rng.random((n, n)).astype(np.float32), rng.random((n, n)).astype(np.float32)
    A, C, D = A0.copy(), C0.copy(), np.zeros((n, n), np.float32)
    for i in range(n - 1):
        A[i, :] = C[i, :] * np.float32(2)
        D[i, :] = A[i + 1, :]
    r = api.run(_CAST_DISTRIBUTED, {"A": A0.copy(), "C": C0.copy(), "D": np.zeros((n, n), np.float32), "n": n}, config="small-16", mode=mode)
    assert np.array_equal(r.outputs["A"], A) and np.array_equal(r.outputs["D"], D)
    a = rng.random(n + 1).astype(np.float32)
    want = a.copy()
    for i in range(n):
        want[i + 1] = want[i] * np.float32(0.5)
    r = api.run(_CAST_CARRIED, {"A": a.copy(), "n": n}, config="small-16", mode=mode)
    assert np.array_equal(r.outputs["A"], want)


_TWO_GET_GLOBALS = """
"memref.global"() <{sym_name = "g", sym_visibility = "private", type = memref<8xf32>, initial_value = dense<1.0> : tensor<8xf32>}> : () -> ()
func.func @k(%A: memref<8xf32>) {
  %h = arith.constant 2.0 : f32
  %G1 = memref.get_global @g : memref<8xf32>
  %G2 = memref.get_global @g : memref<8xf32>
  affine.for %i = 0 to 7 {
    %a = affine.load %G1[%i] : memref<8xf32>
    %c = arith.mulf %a, %h : f32
    affine.store %c, %G2[%i + 1] : memref<8xf32>
  }
  affine.for %i = 0 to 8 {
    %a = affine.load %G1[%i] : memref<8xf32>
    affine.store %a, %A[%i] : memref<8xf32>
  }
  func.return
}"""


def test_two_get_globals_of_one_global_are_one_array():
    """Two memref.get_global of @g are one array (the host hands out one per run):
    a loop carried through them was a region, which the run refused as aliased."""
    from infs import api

    r = api.run(_TWO_GET_GLOBALS, {"A": np.zeros(8, np.float32)}, config="small-16", mode="in")
    assert np.array_equal(r.outputs["A"], 2.0 ** np.arange(8, dtype=np.float32))


# ---------------------------------------------------------------------------
# Python kernels
# ---------------------------------------------------------------------------


def test_a_kernel_on_a_huge_broadcast_view_is_one_line():
    """A broadcast view (np.broadcast_to) takes no memory, its copy for the run
    does: the call ended in numpy's MemoryError traceback."""
    import infs
    from infs.frontend.kernel_types import KernelError

    @infs.kernel
    def scale(A, B, n: int):
        for i in range(n):
            B[i] = A[i] * 2.0

    huge = np.broadcast_to(np.float32(1), (1 << 42,))
    with pytest.raises(KernelError) as e:
        scale(huge, np.zeros(4, np.float32), 4, config="small-16")
    assert "do not fit in the host's memory" in str(e.value) and "\n" not in str(e.value)
    assert str(e.value).startswith(f"{__file__}:")


def test_sweep_machine_named_like_a_number_keeps_its_name(tmp_path):
    """The table read back turned a machine named "64" (or "1_000": int() takes
    underscores) into a number, so plot.baseline = "64" -- accepted, as one of the
    machines' names -- matched no row: an empty plot and Markdown table."""
    import json as _json

    from infs.hardware import load_config

    for name, bitlines in (("64", 256), ("1_000", 128)):
        d = load_config("small-16").to_dict()
        d.update(name=name, bitlines=bitlines)
        (tmp_path / f"{name}.json").write_text(_json.dumps(d))
    spec_path = tmp_path / "s.toml"
    spec_path.write_text('workloads = ["vec_add"]\nsizes = ["small"]\nmodes = ["in"]\n'
                         '[machines]\nconfigs = ["64.json", "1_000.json"]\n[plot]\nbaseline = "64"\n')  # fmt: skip
    spec = infs_sweep.load_spec(spec_path)
    table = infs_sweep.Table(tmp_path / "sweep.csv")
    for k, cell in enumerate(infs_sweep.cells(spec)):
        row = infs_sweep._head(cell)
        row.update(status="ok", total_cycles=1000 * (k + 1))
        table.append(row)
    table = infs_sweep.Table(tmp_path / "sweep.csv")
    table.load(repair=False)
    rows = infs_sweep.typed_rows(table)
    assert sorted(r["machine"] for r in rows) == ["1_000", "64"]
    _, data = infs_sweep.speedups(spec, rows)
    got = dict(data["vec_add"]["In-L3"])
    cyc = {r["machine"]: r["total_cycles"] for r in rows}
    assert got == {"64": 1.0, "1_000": cyc["64"] / cyc["1_000"]}


def _recip(A, n: int, k: int):
    for i in range(n):
        A[i] = A[i] + 1.0 / (i - k)


def _ratio(A, a: float, b: float, n: int):
    for i in range(n):
        A[i] = A[i] * (a / b)


@pytest.mark.parametrize("mode", ["in", "near", "core"])
def test_true_division_of_python_numbers_by_zero_stops(mode):
    """'/' of two Python numbers (a loop index, int/float arguments) raises
    ZeroDivisionError in Python, where numpy's (an array element on a side) gives
    inf: the kernel gave inf, another answer than the function's."""
    import infs
    from infs.frontend.kernel_types import KernelError

    recip, ratio = infs.kernel(_recip), infs.kernel(_ratio)
    line = _recip.__code__.co_firstlineno + 2
    with pytest.raises(api_error()) as e:
        recip(np.ones(6, np.float32), 6, 2, config="small-16", mode=mode)
    assert f"at line {line}" in str(e.value) and "division by zero" in str(e.value)
    for b in (0.0, -0.0):
        with pytest.raises(api_error(), match="division by zero"):
            ratio(np.ones(6, np.float32), 3.0, b, 6, config="small-16", mode=mode)
    # a nonzero (or NaN) divisor: the function's values
    for args in ((6, 20), (6, -1)):
        A, want = np.ones(6, np.float32), np.ones(6, np.float32)
        _recip(want, *args)
        recip(A, *args, config="small-16", mode=mode)
        assert np.array_equal(A, want)
    for b in (0.5, float("nan")):
        A, want = np.ones(6, np.float32), np.ones(6, np.float32)
        _ratio(want, 3.0, b, 6)
        ratio(A, 3.0, b, 6, config="small-16", mode=mode)
        assert np.array_equal(A, want, equal_nan=True)
    # a literal zero divisor: when the kernel is read
    with pytest.raises(KernelError, match="division by zero"):
        infs.kernel(_recip_by_literal_zero).mlir(np.ones(6, np.float32), 6)


def _recip_by_literal_zero(A, n: int):
    for i in range(n):
        A[i] = A[i] + i / 0


def api_error():
    from infs.api import InfsError

    return InfsError


@pytest.fixture(scope="module")
def lowered(tmp_path_factory):
    """stencil2d lowered ahead of time (infs-opt --lower-pim): two pimcmd.programs for small-16."""
    from infs.tools import infs_opt

    p = tmp_path_factory.mktemp("lowered") / "low.mlir"
    src = str(ROOT / "infs/workloads/stencil2d.mlir")
    assert infs_opt.main(["--tensorize", "--lower-pim=sizes=M=64,N=64 config=small-16", src, "-o", str(p)]) in (0, None)
    return p


@pytest.mark.parametrize("flags, want", [
    (["--config", "tiny"], "does not run on machine 'tiny'"),
    (["--sizes", "M=8"], "--sizes applies to a program that runs"),
    (["--tiles", "4x4"], "--tiles applies to a program that runs"),
    (["--mode", "core"], "--mode core"),
    (["--region", "5"], "--region 5: "),
])  # fmt: skip
def test_infs_view_of_lowered_programs_refuses_what_does_not_apply(lowered, tmp_path, capsys, flags, want):
    """On a file of pimcmd.programs, --config of another machine ended in an
    internal error (an IndexError sizing the pictures by the machine), and
    --sizes, --tiles, --mode and --region were silently ignored."""
    assert infs_view.main([str(lowered), *flags, "-o", str(tmp_path / "v.html")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("infs-view: error: ") and want in err


def test_infs_view_of_lowered_programs_takes_region_and_cold(lowered, tmp_path):
    """--region K keeps program K of the file; --cold starts its arrays in DRAM
    (both were ignored: every program, always warm)."""
    def page(*flags):
        out = tmp_path / "v.html"
        assert infs_view.main([str(lowered), *flags, "-o", str(out)]) == 0
        return _page_data(out.read_text())

    warm, cold, one = page(), page("--cold"), page("--region", "1")
    assert len(warm["programs"]) == 2 and [p["regions"] for p in one["programs"]] == [[1]]
    assert one["programs"][0]["cmds"] == warm["programs"][1]["cmds"]
    assert cold["run"]["cycles"]["dram"] > warm["run"]["cycles"]["dram"]


def _store_index(B, n: int):
    for i in range(n):
        B[i] = i


def _add_index(A, B, n: int):
    for i in range(n):
        for j in range(i, n):
            B[i, j] = A[i, j] + (j - i)


@pytest.mark.parametrize("mode", ["in", "core"])
def test_a_loop_variable_that_does_not_fit_a_narrow_integer_is_refused(mode):
    """numpy raises OverflowError when a Python int (a loop variable) meets an
    int8 it does not fit (B[i] = i, A[i] + i); the kernel's index_cast wrapped
    it: B[128] was -128 where the function stops."""
    import infs
    from infs.frontend.kernel_types import KernelError

    store, add = infs.kernel(_store_index), infs.kernel(_add_index)
    for n in (128, 129):
        B, want = np.zeros(n, np.int8), np.zeros(n, np.int8)
        try:
            _store_index(want, n)
        except OverflowError:
            with pytest.raises(KernelError, match=r"may take values in \[0, 128\].*int8") as e:
                store(B, n, config="small-16", mode=mode)
            assert f":{_store_index.__code__.co_firstlineno + 2}:" in str(e.value) and "\n" not in str(e.value)
        else:
            store(B, n, config="small-16", mode=mode)
            assert np.array_equal(B, want)
    for n in (100, 129):
        A = np.random.default_rng(n).integers(-20, 20, (n, n)).astype(np.int8)
        B, want = np.zeros((n, n), np.int8), np.zeros((n, n), np.int8)
        try:
            with np.errstate(over="ignore"):
                _add_index(A, want, n)
        except OverflowError:
            with pytest.raises(KernelError, match="int8"):
                add(A, B, n, config="small-16", mode=mode)
        else:
            add(A, B, n, config="small-16", mode=mode)
            assert np.array_equal(B, want)


def test_infs_view_page_of_a_file_named_like_its_placeholder():
    """The page put the title in with str.replace, then the data: a title holding
    "__DATA__" (a file of that name) got the whole JSON pasted into <title>."""
    from infs.tools.view_page import render

    page = render({"title": "__DATA__.mlir", "config": {}, "run": {}, "programs": [], "omitted_programs": []})
    assert "<title>infs-view: __DATA__.mlir</title>" in page
    assert page.count('"title":"__DATA__.mlir"') == 1 and _page_data(page)["title"] == "__DATA__.mlir"


def test_sweep_address_of_an_unusable_scheme_is_one_line(tmp_path, capsys):
    """--address ucx://... (a scheme Dask knows, without its transport installed)
    ended in a TypeError traceback from inside distributed."""
    spec = tmp_path / "s.toml"
    spec.write_text('workloads = ["vec_add"]\nsizes = ["small"]\nmodes = ["core"]\n')
    assert infs_sweep.main([str(spec), "--address", "ucx://127.0.0.1:5", "--out", str(tmp_path / "out"), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("infs-sweep: error: --address ucx://127.0.0.1:5: ")


def test_sweep_starts_no_more_workers_than_cells(tmp_path, monkeypatch):
    """--workers N started N local worker processes whatever the number of cells
    to run (--workers 1000 on a 4-cell sweep: 1000 processes)."""
    spec_path = tmp_path / "s.toml"
    spec_path.write_text('workloads = ["vec_add"]\nsizes = ["small"]\nmodes = ["core", "in"]\n')
    spec = infs_sweep.load_spec(spec_path)
    asked = []

    class Stop(Exception):
        pass

    def connect(address, workers):
        asked.append(workers)
        raise Stop

    monkeypatch.setattr(infs_sweep, "_connect", connect)
    with pytest.raises(Stop):
        infs_sweep.run_sweep(spec, infs_sweep.cells(spec), infs_sweep.Table(tmp_path / "t.csv"), None, 1000, True)
    assert asked == [2]


@pytest.mark.parametrize("damage", ["directory", "huge field", "lock", "fresh"])
def test_sweep_unreadable_table_is_one_line(tmp_path, capsys, damage):
    """A sweep.csv that is a directory, or holds a field longer than the csv
    module reads, or a lock file that cannot be created, ended in an
    IsADirectoryError / _csv.Error traceback."""
    spec = tmp_path / "s.toml"
    spec.write_text('workloads = ["vec_add"]\nsizes = ["small"]\nmodes = ["core"]\n')
    out = tmp_path / "out"
    out.mkdir()
    if damage == "directory":
        (out / "sweep.csv").mkdir()
    elif damage == "lock":  # (the lock file a directory: a run cannot take the lock)
        (out / ".lock").mkdir()
    elif damage == "fresh":  # (--fresh keeps the old table as sweep.csv.old: a directory there)
        (out / "sweep.csv").write_text("key,status\n")
        (out / "sweep.csv.old" / "x").mkdir(parents=True)
    else:
        (out / "sweep.csv").write_text('key,status\nc1,"' + "x" * 200_000 + '"\n')
    flag = {"lock": [], "fresh": ["--fresh"]}.get(damage, ["--dry-run"])
    assert infs_sweep.main([str(spec), "--out", str(out), "--quiet", *flag]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    what = {"lock": f"{out / '.lock'}: ", "fresh": f"--fresh: cannot move {out / 'sweep.csv'}"}.get(damage, f"{out / 'sweep.csv'}: ")
    assert err[-1].startswith(f"infs-sweep: error: {what}") and not any("Traceback" in x for x in err)


def test_sweep_plot_it_cannot_write_is_one_line(tmp_path, capsys):
    """A plot path that cannot be written (here a directory of that name) ended
    in matplotlib's IsADirectoryError traceback."""
    spec_path = tmp_path / "s.toml"
    spec_path.write_text('workloads = ["vec_add"]\nsizes = ["small"]\nmodes = ["core", "in"]\n[machines]\nconfigs = ["tiny"]\n')
    spec = infs_sweep.load_spec(spec_path)
    out = tmp_path / "out"
    out.mkdir()
    table = infs_sweep.Table(out / "sweep.csv")
    for k, cell in enumerate(infs_sweep.cells(spec)):
        row = infs_sweep._head(cell)
        row.update(status="ok", total_cycles=100 * (k + 1))
        table.append(row)
    (out / "speedup_vs_machine.png").mkdir()
    assert infs_sweep.main([str(spec_path), "--out", str(out), "--plot"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("infs-sweep: error: cannot write the plot") and not any("Traceback" in x for x in err)


def test_a_kernel_over_a_wrapped_function_is_refused():
    """@infs.kernel over a functools.wraps decorator read the inner function's
    source (inspect unwraps it) and ran that: what the wrapper does -- here,
    scale the array first -- silently did not happen."""
    import functools

    import infs
    from infs.frontend.kernel_types import KernelError

    def scaled_first(fn):
        @functools.wraps(fn)
        def wrapper(A, n):
            A *= 2
            return fn(A, n)

        return wrapper

    def inc(A, n: int):
        for i in range(n):
            A[i] += 1.0

    with pytest.raises(KernelError, match="wrapped by another decorator") as e:
        infs.kernel(scaled_first(inc))
    assert str(e.value).startswith(f"{__file__}:") and "\n" not in str(e.value)


def _guarded_select(A, n: int, k: int):
    for i in range(n):
        A[i] = A[i] + (1.0 / (i - k) if i != k else 0.0)


def _guarded_if(A, n: int, k: int):
    for i in range(n):
        x = 0.0
        if i != k:
            x = 1.0 / (i - k)
        A[i] = A[i] + x


def _guarded_and(A, n: int, k: int):
    for i in range(n):
        if i != k and 1.0 / (i - k) > 0.3:
            A[i] = 5.0


@pytest.mark.parametrize("fn", [_guarded_select, _guarded_if, _guarded_and])
def test_a_guarded_division_of_python_numbers_runs(fn):
    """The division check must not fire on a side Python does not take: a pure
    conditional is if-converted (both sides computed, then selected), so the
    guarded '1.0 / (i - k)' stopped the run at i == k (the side not taken)."""
    import infs

    kern = infs.kernel(fn)
    for mode in ("in", "core"):
        A, want = np.ones(6, np.float32), np.ones(6, np.float32)
        fn(want, 6, 2)
        kern(A, 6, 2, config="small-16", mode=mode)
        assert np.array_equal(A, want)


def _index_product(B, n: int):
    for i in range(n):
        for j in range(n):
            B[i, j] = (i + 1) * (j - 3) + n


def test_a_product_of_loop_variables_that_does_not_fit_is_refused():
    """The bound of a Python int that is not affine in the loop variables
    ((i + 1) * (j - 3) + n into int16) is taken from the index ops that make it;
    it was not checked, and wrapped."""
    import infs
    from infs.frontend.kernel_types import KernelError

    kern = infs.kernel(_index_product)
    for n in (100, 200):
        B, want = np.zeros((n, n), np.int16), np.zeros((n, n), np.int16)
        try:
            _index_product(want, n)
        except OverflowError:
            with pytest.raises(KernelError, match=r"may take values in \[-400, 39400\].*int16"):
                kern(B, n, config="small-16", mode="core")
        else:
            kern(B, n, config="small-16", mode="core")
            assert np.array_equal(B, want)


@pytest.mark.parametrize("flags, want", [
    (["-o", ""], "infs-view: error: -o: an empty path"),
    (["--png", ""], "infs-view: error: --png: an empty path"),
    (["-o", "/dev/full"], "infs-view: error: cannot write '/dev/full': "),
])  # fmt: skip
def test_infs_view_output_paths(tmp_path, capsys, monkeypatch, flags, want):
    """-o '' wrote FILE.html anyway and --png '' drew nothing, silently (an empty
    path read as 'not given'); a write that fails past opening (ENOSPC on
    /dev/full) said "cannot write 'None'"."""
    if "/dev/full" in flags and not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    monkeypatch.chdir(tmp_path)
    src = str(ROOT / "infs/workloads/vec_add.mlir")
    assert infs_view.main([src, "--config", "small-16", *flags]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith(want)
    assert not (tmp_path / "vec_add.html").exists()


def test_sweep_empty_out_is_one_line(tmp_path, capsys, monkeypatch):
    """--out '' was the current directory: the table and its lock written there, silently."""
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "s.toml"
    spec.write_text('workloads = ["vec_add"]\nsizes = ["small"]\nmodes = ["core"]\n')
    assert infs_sweep.main([str(spec), "--out", "", "--dry-run"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--out: expected a directory path" in err
