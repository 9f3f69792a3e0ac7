"""infs-sweep: a spec's cells on a local Dask cluster, the table equal to direct runs, resumability
after a killed sweep or worker, per-cell failures, and one-line spec errors.

The kill tests start the sweep as a subprocess (its own session, so the whole
process group -- sweep and workers -- can be killed).  They take 20-40 s each on a
busy 2-core machine, so they run under ``make test-distributed`` (INFS_TEST_DISTRIBUTED=1;
.ci/run runs it too), not ``make test``."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from infs.tools import infs_sweep as S

ROOT = Path(__file__).resolve().parents[1]
distributed = pytest.mark.skipif(not os.environ.get("INFS_TEST_DISTRIBUTED"), reason="a kill test: run by `make test-distributed`")

# 2 machines x (vec_add, stencil1d at small sizes + dwt2d at 4x4 and at 3x4, which dwt2d
# rejects: odd sizes) x 3 modes = 24 cells, 6 of them failing
SPEC = """
workloads = ["vec_add", "stencil1d", "dwt2d"]
sizes = ["small"]
modes = ["core", "in", "auto"]
[explicit_sizes]
dwt2d = [{h = 4, w = 4}, {h = 3, w = 4}]
[machines]
configs = ["tiny", "small-16"]
"""

# more cells of the same kind for the kill tests (2 machines x 4 workloads x 4 modes = 32)
KILL_SPEC = """
workloads = ["vec_add", "array_sum", "stencil1d", "stencil2d"]
sizes = ["small"]
modes = ["core", "near", "in", "auto"]
[machines]
configs = ["tiny", "small-16"]
"""


def _spec(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def _table(out: Path) -> S.Table:
    t = S.Table(out / S.TABLE)
    t.load(repair=False)
    return t


def _computed(err: str) -> int:
    m = re.search(r"(\d+) computed", err)
    assert m, err
    return int(m.group(1))


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """SPEC run once on a local cluster of 2 worker processes (as ``python -m``: then this module
    is __main__, which once made Dask ship the cell function by value -- every cell on a new
    thread, and egglog's e-graphs used from the wrong one, a panic)."""
    tmp = tmp_path_factory.mktemp("sweep")
    spec = _spec(tmp, SPEC)
    r = subprocess.run([sys.executable, "-m", "infs.tools.infs_sweep", str(spec), "--workers", "2"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr and "panicked" not in r.stderr, r.stderr
    return spec, tmp / "out" / "s"


def test_every_cell_equals_a_direct_run(swept):
    from infs import api
    from infs.hardware import load_config
    from infs.runtime import jit
    from infs.runtime.driver import RunOptions, run_program
    from infs.workloads import WORKLOADS

    spec, out = swept
    cells = S.cells(S.load_spec(spec))
    rows = {r["key"]: r for r in S.typed_rows(_table(out))}
    assert len(cells) == 24 and set(rows) == {c["key"] for c in cells}
    assert all(r["pid"] != os.getpid() for r in rows.values())  # run on the workers
    ok = [r for r in rows.values() if r["status"] == "ok"]
    assert len(ok) == 18
    for r in ok:
        cfg = load_config(r["machine"])
        assert (r["banks"], r["bitlines"], r["wordlines"], r["arrays_per_way"], r["profile"]) == (
            cfg.banks, cfg.bitlines, cfg.wordlines, cfg.arrays_per_way, cfg.profile)  # fmt: skip
        w = WORKLOADS[r["workload"]]
        sizes = {k: int(v) for k, v in (kv.split("=") for kv in r["sizes"].split())}
        values = w.make_inputs(sizes, np.random.default_rng(0))
        jit.clear_cache()
        rep = run_program(api.parse_file(w.path), w.call_args(values, sizes), w.entry,
                          RunOptions(config=cfg, mode=r["mode"], machine_mode=r["machine_mode"], warm=True))  # fmt: skip
        st = rep.stats
        what = (r["machine"], r["workload"], r["sizes"], r["mode"])
        assert r["total_cycles"] == st.total_cycles, what
        for k, v in st.cycles.items():
            assert r[f"cyc_{k}"] == v, (what, k)
        for k, v in st.traffic.items():
            assert r[f"traffic_{k}"] == v, (what, k)
        for k, v in st.energy_pj.items():
            assert r[f"energy_{k}"] == v, (what, k)
        assert r["energy_pj"] == st.total_energy_pj and r["noc_byte_hops"] == st.noc_byte_hops
        modes = rep.mode_counts()
        assert (r["regions_in"], r["regions_near"], r["regions_core"]) == (modes.get("in", 0), modes.get("near", 0), modes.get("core", 0))
        assert r["wall_s"] > 0
    # the in-memory cells did run in memory somewhere (the comparison covers the JIT path)
    assert any(r["regions_in"] > 0 for r in ok)


def test_failed_cells_are_rows_with_their_error(swept):
    spec, out = swept
    failed = [r for r in S.typed_rows(_table(out)) if r["status"] != "ok"]
    assert len(failed) == 6
    for r in failed:
        assert (r["workload"], r["sizes"], r["error_kind"]) == ("dwt2d", "h=3 w=4", "run")
        assert r["error"] == "ValueError: dwt2d needs even h and w"
        assert r["banks"] in (4, 16)  # the machine's columns are there too


def test_rerun_skips_finished_cells(swept, capsys):
    spec, out = swept
    before = (out / S.TABLE).read_bytes()
    assert S.main([str(spec), "--workers", "2"]) == 0
    assert _computed(capsys.readouterr().err) == 0
    assert (out / S.TABLE).read_bytes() == before
    # the speedup plot, and its numbers: Base cycles over the mode's, same machine
    assert (out / "speedup_vs_machine.png").stat().st_size > 5000
    spec_obj = S.load_spec(spec)
    rows = S.typed_rows(_table(out))
    _, data = S.speedups(spec_obj, rows)
    by = {(r["machine"], r["workload"], r["sizes"], r["mode"]): r["total_cycles"] for r in rows if r["status"] == "ok"}
    x, y = dict(data["stencil1d"]["In-L3"]).popitem()
    sz = next(s for (m, w, s, _) in by if w == "stencil1d")
    assert y == by[(x, "stencil1d", sz, "core")] / by[(x, "stencil1d", sz, "in")]


def test_redo_failed_runs_only_the_failed_cells(swept, capsys, tmp_path):
    spec, out = swept
    copy = tmp_path / "out"
    copy.mkdir()
    (copy / S.TABLE).write_bytes((out / S.TABLE).read_bytes())
    assert S.main([str(spec), "--workers", "1", "--out", str(copy), "--redo-failed"]) == 0
    assert _computed(capsys.readouterr().err) == 6
    t = _table(copy)
    assert len(t.rows) == 24 and t.lines == 24  # each key once (the retried rows replaced the old)


def test_torn_last_line_is_dropped(tmp_path):
    t = S.Table(tmp_path / S.TABLE)
    t.header = ["key", "status"]
    t.append({"key": "ca", "status": "ok"})
    t.append({"key": "cb", "status": "ok"})
    with (tmp_path / S.TABLE).open("a") as f:
        f.write("cc,o")  # a kill in the middle of a row
    t2 = S.Table(tmp_path / S.TABLE)
    t2.load()
    assert list(t2.rows) == ["ca", "cb"]
    assert (tmp_path / S.TABLE).read_text() == "key,status\nca,ok\ncb,ok\n"
    # a new column rewrites the table atomically, the old rows kept
    t2.append({"key": "cd", "status": "failed", "error": "E: x"})
    assert (tmp_path / S.TABLE).read_text().splitlines() == ["key,status,error", "ca,ok,", "cb,ok,", "cd,failed,E: x"]


def _start(spec: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "infs.tools.infs_sweep", str(spec), "--workers", "2", "--quiet", *extra], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)  # fmt: skip


def _stop(proc: subprocess.Popen) -> None:
    """Kill what is left of a sweep started by ``_start`` (its session: the sweep and its workers)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.communicate()


def _wait_rows(proc: subprocess.Popen, table: Path, n: int, timeout: float = 120) -> None:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if table.exists() and table.read_text().count("\n") - 1 >= n:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    raise AssertionError(f"no {n} rows in {timeout} s")


def _reap(pids) -> None:
    import psutil

    for pid in pids:  # a worker that outlived its sweep (none should)
        try:
            psutil.Process(pid).kill()
        except psutil.Error:
            pass


@distributed
@pytest.mark.parametrize("how", ["SIGKILL", "SIGINT"])
def test_killed_sweep_resumes_without_recomputing(tmp_path, capsys, how):
    """Kill the sweep after a few cells (SIGKILL to its whole process group: sweep and workers;
    or SIGINT, Ctrl-C); the rerun computes exactly the cells not in the table, and the rows
    computed before the kill are kept as they were."""
    spec = _spec(tmp_path, KILL_SPEC)
    table = tmp_path / "out" / "s" / S.TABLE
    proc = _start(spec)
    try:
        _wait_rows(proc, table, 3)
        if how == "SIGKILL":
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        else:
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=60)
            assert proc.returncode == 130, err
            assert "interrupted:" in err and "run the same command again" in err and "Traceback" not in err
    finally:
        _stop(proc)
    first = _table(table.parent)
    _reap({int(r["pid"]) for r in first.rows.values()})
    total = len(S.cells(S.load_spec(spec)))
    done = len(first.rows)
    assert 3 <= done < total
    assert all(r["status"] == "ok" for r in first.rows.values()), [r["error"] for r in first.rows.values()]
    assert S.main([str(spec), "--workers", "2"]) == 0
    assert _computed(capsys.readouterr().err) == total - done
    final = _table(table.parent)
    assert len(final.rows) == total and final.lines == total
    assert all(r["status"] == "ok" for r in final.rows.values())
    for k, r in first.rows.items():  # not recomputed: the same row, worker pid and time
        assert final.rows[k] == r


@distributed
def test_killed_worker_does_not_lose_the_sweep(tmp_path):
    """SIGKILL one worker process mid-sweep: Dask reruns its cell elsewhere and the sweep completes."""
    import psutil

    spec = _spec(tmp_path, KILL_SPEC)
    table = tmp_path / "out" / "s" / S.TABLE
    proc = _start(spec)
    try:
        _wait_rows(proc, table, 2)
        victim = int(next(iter(_table(table.parent).rows.values()))["pid"])
        assert victim != proc.pid and psutil.Process(victim).ppid() == proc.pid
        os.kill(victim, signal.SIGKILL)
        out, err = proc.communicate(timeout=180)
    finally:
        _stop(proc)
    assert proc.returncode == 0, err
    final = _table(table.parent)
    total = len(S.cells(S.load_spec(spec)))
    assert len(final.rows) == total
    assert all(r["status"] == "ok" for r in final.rows.values()), [r["error"] for r in final.rows.values() if r["status"] != "ok"]
    assert not psutil.pid_exists(victim) or psutil.Process(victim).status() == psutil.STATUS_ZOMBIE


# -- spec errors: one line naming the file, exit 2, no traceback ------------------------------

BAD = [
    ("workloads = ['vec_add']\nbogus = 1\n", "top level: unknown key 'bogus'"),
    ("workloads = ['vec_ad']\n", "workloads: unknown value 'vec_ad'"),
    ("workloads = 'vec_add'\nmodes = ['fast']\n", "modes: unknown value 'fast'"),
    ("workloads = ['vec_add']\nsizes = ['huge']\n", "sizes: unknown value 'huge'"),
    ("workloads = ['vec_add']\nprofiles = ['x']\n", "profiles: unknown value 'x'"),
    ("modes = ['in']\n", "workloads: missing"),
    ("workloads = ['vec_add'\n", "not valid TOML"),
    ("workloads = ['vec_add']\n[machines.grid]\nbankz = [16]\n", "unknown hardware field 'bankz'"),
    ("workloads = ['vec_add']\n[machines.grid]\nbanks = [16]\n", "banks (16) must equal mesh_rows x mesh_cols"),
    ("workloads = ['vec_add']\n[machines.grid]\nbitlines = ['wide']\n", "bitlines"),
    ("workloads = ['vec_add']\n[machines.grid]\nbitlines = []\n", "non-empty list"),
    ("workloads = ['vec_add']\n[machines]\nconfigs = ['nope.toml']\n", "unknown config 'nope.toml'"),
    ("workloads = ['vec_add']\n[machines]\nbase = 'tiny'\nwhat = 1\n", "machines: unknown key 'what'"),
    ("workloads = ['vec_add']\n[explicit_sizes]\nvec_add = [{m = 4}]\n", "unknown size 'm' for vec_add"),
    ("workloads = ['vec_add']\n[explicit_sizes]\nvec_add = [{n = -4}]\n", "size n must be an integer"),
    ("workloads = ['vec_add']\n[explicit_sizes]\nstencil1d = [{n = 4}]\n", "not one of this spec's workloads"),
    ("workloads = ['vec_add']\n[plot]\nx = 'colour'\n", "plot.x"),
    ("workloads = ['vec_add']\nmodes = ['in']\n[plot]\nbaseline = 'core'\n", "plot.baseline: mode 'core'"),
    ("workloads = ['vec_add']\n[machines.grid]\nbanks = [{banks = 4, mesh_rows = 2, mesh_cols = 2, mem_ctrls = 4}]\n[plot]\nbaseline = 64\n",
     "plot.baseline: 64 is neither a mode nor a value of banks"),
    ("workloads = ['vec_add']\nfunctional = 'yes'\n", "functional: expected true or false"),
]  # fmt: skip


@pytest.mark.parametrize("text,want", BAD, ids=[w for _, w in BAD])
def test_spec_errors_are_one_line(tmp_path, capsys, text, want):
    spec = _spec(tmp_path, text)
    assert S.main([str(spec), "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"infs-sweep: error: {spec}: "), err
    assert want in err, err
    assert not (tmp_path / "out").exists()


def test_file_errors_are_one_line(tmp_path, capsys):
    cases = [(tmp_path / "missing.toml", "no such file"), (tmp_path, "is a directory")]
    (tmp_path / "s.yaml").write_text("workloads: [vec_add\n")
    cases.append((tmp_path / "s.yaml", "not valid YAML"))
    (tmp_path / "l.yaml").write_text("- vec_add\n")
    cases.append((tmp_path / "l.yaml", "the top level must be a mapping"))
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe\x00")
    cases.append((tmp_path / "bin.toml", "not a UTF-8 text file"))
    for path, want in cases:
        assert S.main([str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(f"infs-sweep: error: {path}: ") and want in err, err


def test_cli_errors_are_one_line(tmp_path, capsys):
    spec = _spec(tmp_path, "workloads = ['vec_add']\n[machines]\nconfigs = ['tiny']\n")
    assert S.main([str(spec), "--workers", "0"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    # a table that is not a sweep's
    (tmp_path / "out" / "s").mkdir(parents=True)
    (tmp_path / "out" / "s" / S.TABLE).write_text("a,b\n1,2\n")
    assert S.main([str(spec)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not an infs-sweep table" in err


def test_yaml_spec_is_the_toml_spec(tmp_path):
    t = S.load_spec(_spec(tmp_path, "workloads = ['vec_add']\nmodes = ['in']\n[machines]\nconfigs = ['tiny']\n[machines.grid]\nbitlines = [8, 16]\n"))
    y = S.load_spec(_spec(tmp_path, "workloads: [vec_add]\nmodes: [in]\nmachines:\n  configs: [tiny]\n  grid: {bitlines: [8, 16]}\n", "s.yaml"))
    assert [c["key"] for c in S.cells(t)] == [c["key"] for c in S.cells(y)] and len(S.cells(t)) == 3


def test_grid_machines(tmp_path):
    """A grid over a base: the product of the axes, linked fields set together, profiles as an axis."""
    spec = _spec(tmp_path, """
workloads = ["vec_add"]
profiles = ["infs", "pimeval-bitsimd-v"]
[machines]
base = "small-16"
set = {jit_model = "per-lowering"}
[machines.grid]
bitlines = [32, 64]
mesh = [{banks = 4, mesh_rows = 2, mesh_cols = 2, mem_ctrls = 4}, {banks = 16, mesh_rows = 4, mesh_cols = 4}]
""")
    s = S.load_spec(spec)
    got = {(m.bitlines, m.banks, m.mesh_rows, m.profile, m.jit_model, m.arrays_per_way) for m in s.machines}
    assert got == {(b, n, r, p, "per-lowering", 4) for b in (32, 64) for n, r in ((4, 2), (16, 4)) for p in ("infs", "pimeval-bitsimd-v")}
    assert s.plot_x == "bitlines" and s.plot_baseline == "core"
    # no Base among the modes: the baseline is the first machine's x (speedup over it, same mode)
    no_core = S.load_spec(_spec(tmp_path, "workloads = ['vec_add']\nmodes = ['in', 'near']\n[machines.grid]\nbanks = [{banks = 4, mesh_rows = 2, "
                                          "mesh_cols = 2, mem_ctrls = 4}, {banks = 16, mesh_rows = 4, mesh_cols = 4, mem_ctrls = 8}]\n", "n.toml"))  # fmt: skip
    assert (no_core.plot_x, no_core.plot_baseline) == ("banks", 4)
    rows = [{"status": "ok", "workload": "vec_add", "sizes": "n=64", "mode": m, "machine_key": f"m{b}", "banks": b, "mesh_rows": r, "total_cycles": c}
            for m, b, r, c in (("in", 4, 2, 900), ("in", 16, 4, 300), ("near", 4, 2, 800), ("near", 16, 4, 1000))]  # fmt: skip
    label, data = S.speedups(no_core, rows)
    assert label == "speedup over banks=4 (same mode)"
    assert data == {"vec_add": {"In-L3": [(4, 1.0), (16, 3.0)], "Near-L3": [(4, 1.0), (16, 0.8)]}}
    assert len(S.cells(s)) == 8 * 4
    # the key is the cell's full spec: another field, another key; the name alone, the same key
    from dataclasses import replace

    m0 = s.machines[0]
    s2 = replace(s, machines=[replace(m0, name="other")])
    s3 = replace(s, machines=[replace(m0, l3_latency=m0.l3_latency + 1)])
    k = {c["key"] for c in S.cells(replace(s, machines=[m0]))}
    assert {c["key"] for c in S.cells(s2)} == k and not {c["key"] for c in S.cells(s3)} & k
