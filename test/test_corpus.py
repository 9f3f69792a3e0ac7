"""Real upstream MLIR output in: ``test/corpus/<pipeline>/<kernel>.mlir``.

Each corpus file is what upstream MLIR's passes (``--affine-parallelize``,
``--canonicalize``, ``--affine-loop-tile``, ``--lower-affine``, ...; see
``test/corpus/generate.py``) print for a PolyBench kernel as cgeist prints it
(``test/polybench``) or a workload as plain loops (``infs/workloads/loops``).
infs must read each one and give numpy's answer (``test/polybench/reference.py``,
the workloads' ``reference``) on ``small-16`` at small sizes:

* ``--mode auto`` with ``--check``'s cross-check (the lattice semantics
  beside the reference evaluator for every region near memory or on the cores);
* ``--mode in``: a region that cannot run in memory says why and still gives
  the right values.

The committed files must be what ``generate.py`` produces (checked when the
``[mlir]`` extra is installed; skipped with a reason otherwise).

Every distinct file is read, verified and split into regions by
``extract-streams`` in every run.  The two full runs per file (a few tenths of a
second each, 354 in all) go on a stratified sample in ``make test``: every
source under two pipelines per mode, each pipeline as often as the others, the
modes on different files where they can, and every file of the pipelines that print few
distinct programs; ``INFS_CORPUS=all`` (``make test-upstream``, which CI runs)
runs every file in both modes.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from infs import api
from infs.workloads import WORKLOADS

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "polybench"))
sys.path.insert(0, str(HERE / "corpus"))
import generate  # noqa: E402
from reference import KERNELS, expected, inputs  # noqa: E402
from test_polybench import SIZES as POLYBENCH_SIZES  # noqa: E402

FILES = generate.corpus_files()

# the workloads at sizes smaller than their "small" ones (odd where the loops allow: dwt2d halves its
# dims), so that 2 x 7 x 34 runs stay quick
WORKLOAD_SIZES = {
    "vec_add": {"n": 13},
    "array_sum": {"n": 13},
    "stencil1d": {"n": 13, "t": 2},
    "stencil2d": {"m": 7, "n": 9, "t": 2},
    "stencil3d": {"l": 5, "m": 6, "n": 7, "t": 2},
    "dwt2d": {"h": 6, "w": 10},
    "gauss_elim": {"n": 7},
    "conv2d": {"h": 7, "w": 9},
    "conv3d": {"ci": 2, "co": 3, "h": 5, "w": 6},
    "mm_inner": {"m": 5, "n": 7, "k": 3},
    "mm_outer": {"m": 5, "n": 7, "k": 3},
    "kmeans_inner": {"p": 13, "d": 3, "c": 3},
    "kmeans_outer": {"p": 13, "d": 3, "c": 3},
    "gather_mlp_inner": {"m": 7, "n": 5, "k": 3, "r": 6},
    "gather_mlp_outer": {"m": 7, "n": 5, "k": 3, "r": 6},
}
CI = os.environ.get("CI", "").lower() == "true"


def _distinct(files):
    """The files whose program (below the header) no earlier file has: several
    pipelines print the same program for some sources (canonicalize and
    affine-loop-fusion for most), and running it twice checks nothing new."""
    seen, out = set(), []
    for f in files:
        body = f[2].read_text().split("\n", 2)[2] if f[2].exists() else f
        if body not in seen:
            seen.add(body)
            out.append(f)
    return out


def _ids(f):
    return f"{f[0]}/{f[1]}"


# INFS_CORPUS=all: every distinct file through the full pipeline in both modes (make test-upstream)
ALL = os.environ.get("INFS_CORPUS", "").lower() == "all"


def _sample(files, avoid=(), per_source: int = 2):
    """A stratified sample of the distinct files: every file of a pipeline that
    prints distinct programs for fewer than half the sources (most of its outputs
    are another pipeline's), every file whose program is not its source's
    (``OTHER_PROGRAMS``), then for each source the pipelines the sample holds
    least of so far until the source has ``per_source`` files, a file of
    ``avoid`` (the other mode's sample) only when the source has no other."""
    sources = sorted({f[1] for f in files})
    pipelines = list(dict.fromkeys(f[0] for f in files))
    count = {p: sum(1 for f in files if f[0] == p) for p in pipelines}
    chosen = [f for f in files if count[f[0]] < len(sources) // 2 or (f[0], f[1]) in OTHER_PROGRAMS]
    taken = {p: sum(1 for f in chosen if f[0] == p) for p in pipelines}
    for i, name in enumerate(sources):
        mine = {f[0]: f for f in files if f[1] == name}
        while sum(1 for f in chosen if f[1] == name) < min(per_source, len(mine)):
            rest = [p for p in pipelines if p in mine and mine[p] not in chosen]
            turn = {p: (k - i) % len(pipelines) for k, p in enumerate(pipelines)}
            p = min(rest, key=lambda p: (mine[p] in avoid, taken[p], turn[p]))
            chosen.append(mine[p])
            taken[p] += 1
    return [f for f in files if f in chosen]


def _runs():
    """(file, mode) pairs of the full-pipeline test: all of them under ``INFS_CORPUS=all``."""
    files = _distinct(FILES)
    if ALL:
        return [(f, mode) for mode in ("auto", "in") for f in files]
    auto = _sample(files)
    return [(f, "auto") for f in auto] + [(f, "in") for f in _sample(files, avoid=auto)]


def _seidel_2d_tiled(v, s):
    """seidel-2d as ``--affine-loop-tile{tile-size=4}`` prints it: the (t, i, j)
    band tiled by 4 although a Gauss-Seidel sweep's dependences (distance
    (1, -1, -1) among them) make rectangular tiles illegal, so the program
    upstream prints is another computation than PolyBench's; infs must run
    that one.  (Python loops, the file's own order: an oracle at a 9 x 9 size.)"""
    A, n, steps = v["A"], s["N"], s["TSTEPS"]
    for t0 in range(0, steps, 4):
        for i0 in range(1, n - 1, 4):
            for j0 in range(1, n - 1, 4):
                for _ in range(t0, min(t0 + 4, steps)):
                    for i in range(i0, min(i0 + 4, n - 1)):
                        for j in range(j0, min(j0 + 4, n - 1)):
                            A[i, j] = (A[i - 1, j - 1] + A[i - 1, j] + A[i - 1, j + 1] + A[i, j - 1] + A[i, j] + A[i, j + 1] + A[i + 1, j - 1] + A[i + 1, j] + A[i + 1, j + 1]) / 9.0


# the corpus files whose program is not the source's (numpy kernel by PolyBench name)
OTHER_PROGRAMS = {("affine-loop-tile-4", "seidel-2d"): _seidel_2d_tiled}


def test_the_corpus_is_complete():
    """Every pipeline of every source is committed, and nothing else is there."""
    assert all(path.exists() for _, _, path in FILES), [str(p) for _, _, p in FILES if not p.exists()]
    on_disk = sorted(HERE.glob("corpus/*/*.mlir"))
    assert on_disk == sorted(p for _, _, p in FILES)
    assert set(generate.sources()) == set(KERNELS) | set(WORKLOADS)
    assert set(WORKLOAD_SIZES) == set(WORKLOADS) and all(set(s) <= set(WORKLOADS[n].small) for n, s in WORKLOAD_SIZES.items())


def test_the_corpus_is_what_generate_py_produces():
    try:
        import iree.compiler.ir  # noqa: F401
    except ImportError:
        if CI:
            pytest.fail("CI=true but the [mlir] extra (iree-base-compiler) is not installed: .ci/run installs it")
        pytest.skip("the [mlir] extra (iree-base-compiler) is not installed: pip install -e '.[mlir]'")
    stale = [f"{p}/{n}" for p, n, path in FILES if path.read_text() != generate.produce(n, p, in_process=True)]
    assert not stale, f"out of date (python test/corpus/generate.py): {stale}"
    # the bindings print what iree-opt prints: one file through iree-opt itself
    p, n, path = FILES[0]
    assert generate.produce(n, p) == path.read_text()


def _case(name: str, pipeline: str = "", seed: int = 0):
    """(arguments by argument name, the expected outputs by argument name, the tolerance)."""
    if name in KERNELS:
        k = KERNELS[name]
        if (pipeline, name) in OTHER_PROGRAMS:
            k = dataclasses.replace(k, run=OTHER_PROGRAMS[pipeline, name])
        sizes = POLYBENCH_SIZES[name]
        args = inputs(k, sizes, seed=seed)
        return args, expected(k, args, sizes), 1e-10
    w = WORKLOADS[name]
    sizes = w.sizes(WORKLOAD_SIZES[name])
    arrays = w.inputs(sizes, seed=seed)
    values = {**arrays, **sizes}
    ref = w.reference(arrays, sizes)
    # upstream MLIR prints the arguments as %arg0, %arg1, ... in order
    pos = {a: f"arg{i}" for i, a in enumerate(w.args)}
    return {pos[a]: values[a] for a in w.args}, {pos[o]: ref[o] for o in w.outputs}, 1e-4


def _check(label: str, res, want: dict, tol: float) -> None:
    for a, w in want.items():
        np.testing.assert_allclose(res.outputs[a], w, rtol=tol, atol=tol, err_msg=f"{label}: %{a}")
    for r in res.regions:
        assert not getattr(r, "check_error", None), f"{label}: region {r.region}: {r.check_error}"


def test_every_corpus_file_reads_verifies_and_splits_into_regions():
    """What every run starts with, for the files the sample below leaves out too."""
    for _, _, path in _distinct(FILES):
        _regions(path)  # raises on a file that does not read, verify or split


def test_the_sample_covers_every_source_and_pipeline():
    files = _distinct(FILES)
    auto = _sample(files)
    for got in (auto, _sample(files, avoid=auto)):
        assert {f[1] for f in got} == {f[1] for f in files}
        assert {f[0] for f in got} == {f[0] for f in files}
        assert all(sum(1 for g in got if g[1] == f[1]) >= 2 for f in files)
        assert {(p, n) for p, n, _ in got} >= set(OTHER_PROGRAMS)
    assert len({f[2] for f, _ in _runs()}) > len(auto) * 3 // 2  # the modes' samples differ


@pytest.mark.parametrize("corpus,mode", _runs(), ids=[f"{_ids(f)}-{m}" for f, m in _runs()])
def test_corpus_file_matches_numpy(corpus, mode: str) -> None:
    pipeline, name, path = corpus
    args, want, tol = _case(name, pipeline)
    res = api.run(path, args, config="small-16", mode=mode, cross_check=(mode == "auto"))
    _check(f"{pipeline}/{name} --mode {mode}", res, want, tol)
    if mode == "in":
        for r in res.regions:
            if r.mode != "in":
                assert r.not_honoured, f"{pipeline}/{name}: region {r.region} ran {r.mode} under --mode in without a reason"


# pipelines after which extract-streams finds at least as many regions as in the
# source (affine-loop-fusion's output of the outer-product loops has one more);
# after affine-loop-tile (min bounds) and affine-loop-unroll (a step and a cleanup
# loop) some nests stay on the host, still with the right values (above)
KEEPS_REGIONS = ("affine-parallelize", "affine-parallelize-reductions", "canonicalize", "affine-loop-fusion", "lower-affine")


@functools.cache
def _regions(path: Path) -> int:
    """The stream.regions extract-streams finds in a file, which verifies before and after
    (once per file: the test above reads every file, the one below a file and its source)."""
    from infs.passes.extract_streams import extract_streams

    module = api.parse_file(path)
    module.verify()
    extract_streams(module)
    module.verify()
    return sum(1 for op in module.walk() if op.name == "stream.region")


@pytest.mark.parametrize("corpus", [f for f in _distinct(FILES) if f[0] in KEEPS_REGIONS], ids=_ids)
def test_the_pipeline_keeps_every_region(corpus) -> None:
    pipeline, name, path = corpus
    got, source = _regions(path), _regions(generate.sources()[name])
    assert got >= source, f"{pipeline}/{name}: {got} stream.regions, the source {source}"
