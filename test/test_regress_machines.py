"""Regressions found by attacking the machine / size / layout dimension
(hardware files the repo does not ship, odd sizes, forced tiles, re-entered
regions).  Each test failed before its fix (noted per test)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from infs import api
from infs.dialects import tdfg
from infs.runtime import jit

ROOT = Path(__file__).resolve().parents[1]
VEC_ADD = ROOT / "infs" / "workloads" / "vec_add.mlir"


def test_a_config_file_edited_between_two_lowerings_is_the_new_machine(tmp_path):
    """``api.lower``/``jit.lower`` given a config *file* read it once per process
    (``jit._named_config`` cached it by path): after the file was edited, the
    next lowering silently targeted the old machine (16 bitlines, tiles [16],
    where the file now says 8).  Fixed: a file's text is part of the cache key."""
    machine = tmp_path / "m.toml"
    machine.write_text('base = "tiny"\nbitlines = 16\n')
    (a,) = api.lower(VEC_ADD, {"N": 64}, str(machine))
    assert a.record.config.endswith("bitlines=16,htree_levels=1,mem_ctrls=2}")  # (htree_degree 2 is the default)
    machine.write_text('base = "tiny"\nbitlines = 8\nline_bytes = 32\n')
    (b,) = api.lower(VEC_ADD, {"N": 64}, str(machine))
    assert "bitlines=8," in b.record.config, b.record.config
    # on one graph: the same text again is a cache hit (not a new machine at every call)
    module = api.parse_file(VEC_ADD)
    api.run_pipeline(module, "tensorize")
    (graph,) = [op for op in module.walk() if isinstance(op, tdfg.GraphOp)]
    first = jit.lower(graph, {"N": 64}, str(machine))
    assert jit.lower(graph, {"N": 64}, str(machine)) is first
    machine.write_text('base = "tiny"\nbitlines = 16\n')
    assert "bitlines=16," in jit.lower(graph, {"N": 64}, str(machine)).record.config


def test_a_tdfg_graph_too_large_for_the_machine_does_not_blame_strict(tmp_path, capsys):
    """A program tensorized ahead of time whose graph does not fit the machine
    (stencil2d's 16 x 24 lattice on tiny's 128 bitlines, which only chunking of the
    stream region could run) is an error in every mode; ``infs-run --mode auto``
    (no ``--strict``, which auto refuses anyway) said '--mode in cannot be honoured
    (--strict)'.  Fixed: the error says why a graph has no fallback."""
    from infs.tools import infs_run

    module = api.parse_file(ROOT / "infs" / "workloads" / "stencil2d.mlir")
    api.run_pipeline(module, "tensorize")
    src = tmp_path / "s2d.mlir"
    src.write_text(api.to_text(module))
    argv = [str(src), "--config", "tiny", "--sizes", "m=16,n=24,t=2", "--shape", "A=16x24,B=16x24,W=2"]
    for mode in ("auto", "in"):
        assert infs_run.main([*argv, "--mode", mode]) == 1
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "--strict" not in err, err
        assert "tensorized ahead of time" in err and "needs at least 24 SRAM arrays" in err, err
    assert infs_run.main([*argv, "--mode", "in", "--strict"]) == 1
    assert "(--strict)" in capsys.readouterr().err
    # api.run said "region 0: mode 'in' cannot be honoured" under mode="auto" (the driver's words)
    ones = {"A": np.ones((16, 24), np.float32), "B": np.ones((16, 24), np.float32), "W": np.ones(2, np.float32), "m": 16, "n": 24, "t": 2}
    with pytest.raises(api.InfsError) as e:
        api.run(module, ones, config="tiny", mode="auto")
    assert "runs in memory or not at all" in str(e.value) and "cannot be honoured" not in str(e.value), e.value
