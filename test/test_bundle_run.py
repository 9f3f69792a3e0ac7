"""Running bundles (infs.runtime.bundle.executor, ``infs-run FILE.infsb``).

* every workload, tensorized and written as a bundle, runs from the bundle with
  the same outputs, results, region records and statistics as the tensorized
  module run by the driver (modes in and auto, small sizes);
* a bundle run imports no xDSL, no compiler pass and no egglog (a fresh process
  running ``infs-run x.infsb``);
* the loader refuses a damaged regions section in one ``BundleError`` line
  (a fuzz of structured mutations, re-checksummed), and a bundle whose host
  code offloads what a bundle cannot run;
* ``infs-opt --emit-bundle`` and ``infs-run`` say what is wrong in one line.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infs import api
from infs.runtime.bundle import container
from infs.runtime.bundle.errors import BundleError
from infs.runtime.bundle.executor import load_bundle, run_bundle
from infs.runtime.bundle.host_form import bundle_sections, runnable_sections
from infs.runtime.driver import RunOptions, run_program
from infs.workloads import WORKLOADS

BIN = Path(sys.executable).parent


def _tensorized(name: str):
    w = WORKLOADS[name]
    module = api.parse_file(w.path)
    api.run_pipeline(module, "tensorize")
    return w, module


def _bundle(tmp_path: Path, name: str) -> tuple[Path, object]:
    w, module = _tensorized(name)
    path = tmp_path / f"{name}.infsb"
    container.write(path, runnable_sections(module, name, w.entry))
    return path, module


# workloads with a region tensorize leaves a stream.region (runs near memory or on the cores:
# a bundle carries no stream semantics, docs/bundles.md)
NOT_TENSORIZED = frozenset({"kmeans_inner", "kmeans_outer"})


def _stats(rep) -> dict:
    st_ = rep.stats
    regions = [{k: v for k, v in vars(r).items() if k not in ("jit_seconds", "optimize_seconds")} for r in rep.regions]
    return {"cycles": dict(st_.cycles), "traffic": dict(st_.traffic), "energy": dict(st_.energy_pj), "hops": st_.noc_byte_hops, "regions": regions}


@pytest.mark.parametrize("mode", ["in", "auto"])
@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_bundle_runs_like_the_module(tmp_path, name, mode):
    if name in NOT_TENSORIZED:
        # a region that does not tensorize stays a stream.region: no bundle (one line says so)
        with pytest.raises(BundleError, match=r"^'stream.region' at line \d+: a stream.region in the host code: a bundle holds tDFG graphs"):
            _bundle(tmp_path, name)
        return
    path, module = _bundle(tmp_path, name)
    w = WORKLOADS[name]
    sizes = w.sizes("small")
    inputs = w.inputs(sizes)
    runs = []
    for run in ("module", "bundle"):
        arrays = {k: v.copy() for k, v in inputs.items()}
        args = dict(zip(w.args, w.call_args(arrays, sizes)))
        options = RunOptions(config="small-16", mode=mode)
        try:
            rep = run_program(module, args, w.entry, options) if run == "module" else run_bundle(load_bundle(path), args, w.entry, options)
        except Exception as e:  # noqa: BLE001 -- the same refusal both ways
            runs.append(("error", type(e).__name__, str(e)))
            continue
        runs.append(({k: arrays[k] for k in arrays}, [np.asarray(r) for r in rep.results], _stats(rep)))
    a, b = runs
    if a[0] == "error":
        assert a == b
        return
    assert b[0] != "error", b
    for k in a[0]:
        assert np.array_equal(a[0][k], b[0][k], equal_nan=True), k
    assert len(a[1]) == len(b[1]) and all(np.array_equal(x, y, equal_nan=True) and x.dtype == y.dtype for x, y in zip(a[1], b[1]))
    assert a[2] == b[2]


def _fresh(argv: list[str], cwd: Path) -> list[str]:
    script = (
        "import sys\n"
        "from infs.tools import infs_run\n"
        f"rc = infs_run.main({argv!r})\n"
        "print('rc', rc)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'xdsl', 'egglog'}))\n"
        "print(sorted(m for m in sys.modules if m.startswith('infs.passes') and not m.startswith('infs.passes.lower_pim')))\n"
    )
    env = {**os.environ, "INFS_VERIFY": "0"}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=cwd, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.splitlines()[-3:]


def test_bundle_run_imports_no_compiler(tmp_path):
    path, _ = _bundle(tmp_path, "stencil2d")
    for extra in (["--mode", "in"], ["--mode", "auto", "--analysis"], ["--mode", "in", "--json"]):
        rc, xdsl, passes = _fresh([str(path), "--config", "small-16", *extra], tmp_path)
        assert rc == "rc 0" and xdsl == "[]", (extra, rc, xdsl)
        assert passes == str(["infs.passes", "infs.passes.lowering_errors", "infs.passes.tdfg_domains", "infs.passes.tdfg_semantics"]), passes


def _cli(tool: str, *argv: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / tool), *argv], capture_output=True, text=True, timeout=300, cwd=cwd)


def test_cli_bundle_round_trip_and_check(tmp_path):
    out = _cli("infs-opt", "--tensorize", "--emit-bundle", "s.infsb", str(WORKLOADS["stencil2d"].path), cwd=tmp_path)
    assert out.returncode == 0 and out.stdout == "", out.stderr
    run = _cli("infs-run", "s.infsb", "--config", "small-16", "--mode", "in", "--check", "--json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["check"]["ok"] is True


def test_cli_errors_are_one_line(tmp_path):
    src = str(WORKLOADS["vec_add"].path)
    out = _cli("infs-opt", "--emit-bundle", "v.infsb", src, cwd=tmp_path)
    assert out.returncode == 1 and out.stderr.count("\n") == 1 and "a stream.region in the host code" in out.stderr, out.stderr
    assert _cli("infs-opt", "--tensorize", "--emit-bundle", "v.infsb", src, cwd=tmp_path).returncode == 0
    for argv, expect in (
        (["--mode", "near"], "mode 'near' cannot run a tdfg.graph"),
        (["--view", "x.html"], "--view draws a program's IR"),
        (["--check", "--analysis"], "--check needs the functional simulation"),
    ):
        run = _cli("infs-run", "v.infsb", "--config", "tiny", *argv, cwd=tmp_path)
        assert run.returncode in (1, 2) and run.stderr.count("\n") == 1 and expect in run.stderr, (argv, run.stderr)
    (tmp_path / "bad.infsb").write_bytes(b"INFSBNDL" + b"\0" * 20)
    run = _cli("infs-run", "bad.infsb", cwd=tmp_path)
    assert run.returncode == 1 and run.stderr.count("\n") == 1 and "bad.infsb" in run.stderr, run.stderr


def test_region_offloads_are_refused(tmp_path):
    w = WORKLOADS["vec_add"]
    module = api.parse_file(w.path)
    with pytest.raises(BundleError, match="a stream.region in the host code"):
        runnable_sections(module, "vec_add", w.entry)
    sections, _ = bundle_sections(module, "vec_add", w.entry)
    container.write(tmp_path / "r.infsb", sections)
    with pytest.raises(BundleError, match=r"r\.infsb: its host code offloads 1 stream\.region\(s\)"):
        load_bundle(tmp_path / "r.infsb")


# -- the regions section, fuzzed ---------------------------------------------------------

_DOC: dict = {}


def _doc() -> dict:
    if not _DOC:
        w, module = _tensorized("stencil2d")
        _DOC.update(runnable_sections(module, "stencil2d", w.entry))
    return copy.deepcopy(_DOC)


def _paths(v, path=()):
    yield path
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, (*path, k))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, (*path, i))


JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**66), 2**66), st.sampled_from([-1, 0, 1, 2, 3, 2**63]), st.text(max_size=6),
    st.sampled_from(["index", "f32", "i32", "N", "tdfg.mv", "tdfg.yield", "graph", "memref"]), st.lists(st.integers(-2, 8), max_size=3),
    st.just([]), st.just({}), st.just(["memref", [-1, -1], "f32"]),
)  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.data())
def test_fuzz_regions_section(tmp_path, data):
    doc = _doc()
    regions = doc["regions"]
    paths = [p for p in _paths(regions) if p]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        parent = regions
        try:
            for k in path[:-1]:
                parent = parent[k]
            parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue
        if not isinstance(parent, (dict, list)):  # an earlier mutation made a container a string
            continue
        how = data.draw(st.sampled_from(["replace", "delete", "duplicate"]))
        if how == "replace":
            parent[path[-1]] = data.draw(JUNK)
        elif how == "delete":
            del parent[path[-1]]
        elif isinstance(parent, list):
            parent.insert(path[-1], copy.deepcopy(parent[path[-1]]))
    try:
        raw = container.dumps(doc)
    except BundleError:
        return
    f = tmp_path / "f.infsb"
    f.write_bytes(raw)
    try:
        prog = load_bundle(f)
    except BundleError as e:
        assert "\n" not in str(e) and str(e).startswith(str(f)), str(e)
        return
    assert len(prog.graphs) == len(_DOC["regions"]["graph"])
