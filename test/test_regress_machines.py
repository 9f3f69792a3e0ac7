"""Regressions found by attacking the machine / size / layout dimension
(hardware files the repo does not ship, odd sizes, forced tiles, re-entered
regions).  Each test failed before its fix (noted per test)."""

from __future__ import annotations

from pathlib import Path

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
    assert a.record.config.endswith("bitlines=16,htree_levels=1,htree_degree=2,mem_ctrls=2}")
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
