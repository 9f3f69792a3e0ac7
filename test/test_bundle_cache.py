"""``infs-run FILE.mlir``'s bundle cache (infs.tools.bundle_cache).

* a tensorized workload's ``.mlir`` run writes one entry; the next run comes
  from it and prints the same JSON (outputs' results, every statistic, the
  region records) as the first, and as a ``--no-cache`` run, in modes in and
  auto, functional and analysis;
* a run served from the cache imports no xDSL (a fresh process);
* a damaged entry (truncated, a byte flipped, empty, random bytes) is never
  trusted: the run gives the same figures and the entry is written again;
* a ``stream.region`` program, ``--check``, ``--view``, ``--no-optimize``,
  ``--no-chunks`` and ``--no-cache`` write no entry; a changed file is a new key;
  ``$XDG_CACHE_HOME`` is honoured (a relative one is ignored, as the XDG spec says).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from infs import api
from infs.tools import bundle_cache, demo, infs_run
from infs.tools.run_args import _workload_shapes
from infs.workloads import WORKLOADS


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CACHE_HOME", str(root))
    return root / "infs" / "bundles"


def _tensorized_file(tmp_path: Path, name: str) -> tuple[Path, list[str]]:
    """The workload tensorized ahead of time as a .mlir file, and the flags that give its arguments."""
    w = WORKLOADS[name]
    module = api.parse_file(w.path)
    api.run_pipeline(module, "tensorize")
    path = tmp_path / f"{name}_t.mlir"
    path.write_text(str(module))
    sizes = w.sizes("small")
    shapes = _workload_shapes(w, sizes)
    flags = ["--config", "small-16"]
    index = [a for a in w.args if a in sizes]
    if index:
        flags += ["--sizes", ",".join(f"{a}={sizes[a]}" for a in index)]
    arrays = [a for a in w.args if a in shapes]
    if arrays:
        flags += ["--shape", ",".join(f"{a}={'x'.join(map(str, shapes[a][0]))}" for a in arrays)]
    return path, flags


def _run(capsys, argv: list[str]) -> dict:
    capsys.readouterr()
    rc = infs_run.main([*argv, "--json"])
    out = capsys.readouterr()
    assert rc == 0, out.err
    return _timeless(json.loads(out.out))


def _timeless(d):
    if isinstance(d, dict):
        return {k: _timeless(v) for k, v in d.items() if "seconds" not in k and "wall" not in k}
    if isinstance(d, list):
        return [_timeless(x) for x in d]
    return d


def _entries(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.infsb")) if cache.is_dir() else []


@pytest.mark.parametrize("name", ["vec_add", "gauss_elim", "stencil2d", "mm_outer"])
@pytest.mark.parametrize("mode", ["in", "auto"])
def test_second_run_comes_from_the_cache_and_is_the_same(tmp_path, cache, capsys, name, mode):
    path, flags = _tensorized_file(tmp_path, name)
    for extra in ([], ["--analysis"]):
        argv = [str(path), *flags, "--mode", mode, "--seed", "3", *extra]
        uncached = _run(capsys, [*argv, "--no-cache"])
        assert _entries(cache) == []
        first = _run(capsys, argv)
        (entry,) = _entries(cache)
        stamp = entry.stat().st_mtime_ns
        second = _run(capsys, argv)
        assert entry.stat().st_mtime_ns == stamp  # read, not written again
        assert first == uncached and second == uncached
        entry.unlink()


def test_a_cached_run_loads_no_compiler(tmp_path, cache):
    path, flags = _tensorized_file(tmp_path, "stencil2d")
    script = (
        "import sys\n"
        "from infs.tools import infs_run\n"
        f"rc = infs_run.main({[str(path), *flags, '--mode', 'in', '--json']!r})\n"
        "print('rc', rc)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'xdsl', 'egglog'}))\n"
    )
    env = {**os.environ, "INFS_VERIFY": "0"}
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env) for _ in range(2)]
    for r in runs:
        assert r.returncode == 0, r.stderr[-2000:]
    assert runs[0].stdout.splitlines()[-2:] == ["rc 0", "['xdsl']"]  # (the first run parses the file)
    assert runs[1].stdout.splitlines()[-2:] == ["rc 0", "[]"]
    assert _timeless(json.loads("\n".join(runs[0].stdout.splitlines()[:-2]))) == _timeless(json.loads("\n".join(runs[1].stdout.splitlines()[:-2])))


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "garbage"])
def test_a_damaged_entry_is_rebuilt_not_trusted(tmp_path, cache, capsys, damage):
    path, flags = _tensorized_file(tmp_path, "vec_add")
    argv = [str(path), *flags, "--mode", "in"]
    good = _run(capsys, argv)
    (entry,) = _entries(cache)
    intact = entry.read_bytes()
    if damage == "truncate":
        entry.write_bytes(intact[: len(intact) // 2])
    elif damage == "flip":  # (inside the sections: the checksum no longer holds)
        entry.write_bytes(intact[:len(intact) // 2] + bytes([intact[len(intact) // 2] ^ 0x10]) + intact[len(intact) // 2 + 1 :])
    elif damage == "empty":
        entry.write_bytes(b"")
    else:
        entry.write_bytes(os.urandom(len(intact)))
    assert _run(capsys, argv) == good
    assert entry.read_bytes() == intact  # written again


def test_what_is_not_cached(tmp_path, cache, capsys):
    src = WORKLOADS["vec_add"].path  # stream.regions: decided by Eq. 2 from their stream semantics
    _run(capsys, [str(src), "--config", "small-16", "--mode", "auto"])
    assert _entries(cache) == []
    path, flags = _tensorized_file(tmp_path, "stencil2d")
    argv = [str(path), *flags, "--mode", "in"]
    for extra in (["--check"], ["--no-optimize"], ["--no-chunks"], ["--no-cache"]):
        _run(capsys, [*argv, *extra])
        assert _entries(cache) == [], extra
    _run(capsys, [*argv, "--view", str(tmp_path / "v.html")])
    assert _entries(cache) == []
    # compiled ahead of time (pimcmd.program): no entry either
    lowered = subprocess.run([str(Path(sys.executable).parent / "infs-opt"), "--tensorize", f"--lower-pim={demo.LOWER}", str(WORKLOADS["stencil2d"].path)],
                             capture_output=True, text=True, timeout=300)  # fmt: skip
    assert lowered.returncode == 0, lowered.stderr
    compiled = tmp_path / "s_lowered.mlir"
    compiled.write_text(lowered.stdout)
    _run(capsys, [str(compiled), *demo.COMPILED_RUN, "--mode", "in"])
    assert _entries(cache) == []


def test_a_changed_file_is_a_new_key(tmp_path, cache, capsys):
    path, flags = _tensorized_file(tmp_path, "vec_add")
    key = bundle_cache.entry_path(path)
    assert key is not None and key.parent == cache
    path.write_text(path.read_text() + "\n// changed\n")
    assert bundle_cache.entry_path(path) != key
    assert bundle_cache.entry_path(tmp_path / "missing.mlir") is None


def test_cache_dir_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert bundle_cache.cache_dir() == tmp_path / "infs" / "bundles"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/dir")
    assert bundle_cache.cache_dir() == Path.home() / ".cache" / "infs" / "bundles"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert bundle_cache.cache_dir() == Path.home() / ".cache" / "infs" / "bundles"


def test_an_unwritable_cache_is_no_error(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # a file where the directory would be
    path, flags = _tensorized_file(tmp_path, "vec_add")
    assert _run(capsys, [str(path), *flags, "--mode", "in"]) == _run(capsys, [str(path), *flags, "--mode", "in", "--no-cache"])


def test_an_entry_of_another_infs_version_is_rebuilt(tmp_path, cache, capsys):
    from infs.runtime.bundle import container

    path, flags = _tensorized_file(tmp_path, "vec_add")
    argv = [str(path), *flags, "--mode", "in"]
    good = _run(capsys, argv)
    (entry,) = _entries(cache)
    intact = entry.read_bytes()
    b = container.read(entry)
    entry.write_bytes(container.dumps(b.sections, b.blobs, version="0.0.0-other"))
    assert _run(capsys, argv) == good
    assert entry.read_bytes() == intact


def test_a_cached_run_says_what_the_mlir_run_says(tmp_path, cache, capsys):
    # a bad command line gives the .mlir path's line when the run comes from the cache
    path, flags = _tensorized_file(tmp_path, "stencil2d")
    vec, vflags = _tensorized_file(tmp_path, "vec_add")
    for argv in ([str(vec), "--config", "small-16", "--sizes", "n=64", "--mode", "in"],  # no --shape for a memref<?xf32>
                 [str(path), *flags, "--mode", "in", "--scalar", "nope=1"],
                 [str(path), *flags, "--mode", "near"]):  # fmt: skip
        said = []
        for _ in range(2):
            capsys.readouterr()
            rc = infs_run.main(argv)
            said.append((rc, capsys.readouterr().err))
        assert said[0] == said[1] and said[0][0] != 0, (argv, said)
    assert len(_entries(cache)) == 2  # (both files were cached by their first run: the second came from there)
