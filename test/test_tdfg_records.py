"""The tDFG record form (infs.dialects.tdfg_records): the graph as plain values.

* every graph the runtime lowers for every workload survives IR -> record ->
  JSON -> record unchanged, and the JIT lowers the record read back from JSON
  to the same program as the graph op (one lowering, two inputs);
* the data reader refuses, in one ``RecordDataError`` line, whatever is no
  graph (a fuzz of structured mutations), and what it accepts lowers or fails
  with the lowering's own one-line errors, nothing else;
* reading and checking a record imports no xDSL (a fresh process).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infs import api
from infs.dialects.tdfg_ir_records import from_graph
from infs.dialects.tdfg_records import GraphRecord, RecordDataError, read_graph
from infs.passes.lower_pim.choose_layout import LayoutError
from infs.passes.lowering_errors import LoweringError
from infs.passes.specialize import SpecializeError
from infs.runtime import jit
from infs.workloads import WORKLOADS


def _lowerings(name: str, config: str = "tiny") -> list[tuple]:
    """Every (graph op, sizes, config, tiles, shapes, resident, lowering) the runtime asks the JIT for
    when it runs ``name`` at its small sizes in memory."""
    w = WORKLOADS[name]
    calls: list[tuple] = []
    real = jit.lower

    def spy(graph, sizes, cfg, tiles=None, shapes=None, resident=None):
        out = real(graph, sizes, cfg, tiles, shapes, resident)
        calls.append((graph, dict(sizes), cfg, tiles, dict(shapes or {}), resident, out))
        return out

    jit.lower = spy
    try:
        sizes = w.sizes("small")
        inputs = w.inputs(sizes)
        api.run(w.path, dict(zip(w.args, w.call_args(inputs, sizes))), config=config, mode="in")
    finally:
        jit.lower = real
    return calls


def _via_json(rec: GraphRecord) -> GraphRecord:
    return read_graph(json.loads(json.dumps(rec.to_data(), allow_nan=False)), "test")


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_every_lowered_graph_round_trips_and_lowers_alike(name):
    calls = _lowerings(name)
    seen: set[int] = set()
    for graph, sizes, cfg, tiles, shapes, resident, lowered in calls:
        if id(graph) in seen:
            continue
        seen.add(id(graph))
        rec = from_graph(graph) if not isinstance(graph, GraphRecord) else graph
        back = _via_json(rec)
        assert back == rec
        assert back.to_data() == rec.to_data()
        again = jit.lower(back, sizes, cfg, tiles, shapes or None, resident)
        assert again is not lowered  # (a different graph object: lowered afresh)
        assert again.record.cmds == lowered.record.cmds
        assert (again.record.lattice, again.record.tiles, again.scalar_map) == (lowered.record.lattice, lowered.record.tiles, lowered.scalar_map)
        assert again.record.arg_types == lowered.record.arg_types and again.record.scalar_types == lowered.record.scalar_types


def test_record_memo_key_is_the_record():
    """Two equal records are two graphs to the memo (it keys on identity, as on ops); one record is lowered once."""
    graph, sizes, cfg, tiles, shapes, resident, _ = _lowerings("vec_add")[0]
    rec = _via_json(from_graph(graph))
    jit.clear_cache()
    a = jit.lower(rec, sizes, cfg, tiles, shapes or None)
    assert jit.lower(rec, sizes, cfg, tiles, shapes or None) is a
    assert jit.lower(_via_json(rec), sizes, cfg, tiles, shapes or None) is not a
    other = dict(sizes)
    key = next(iter(other))
    other[key] = other[key] + 1
    assert jit.lower(rec, other, cfg, tiles, shapes or None) is not a


# -- the reader: one line per way data can be wrong ------------------------------------

_SAMPLE = {}


def _sample(name: str) -> dict:
    if name not in _SAMPLE:
        graph, sizes, cfg, tiles, shapes, *_ = _lowerings(name)[0]
        _SAMPLE[name] = (from_graph(graph).to_data(), sizes, cfg, tiles, shapes)
    return _SAMPLE[name]


@pytest.mark.parametrize(
    "mutate, expect",
    [
        (lambda d: d.update(rank=0), "rank must be an integer in [1, 32]"),
        (lambda d: d.update(extra=1), "unknown key 'extra'"),
        (lambda d: d.pop("nodes"), "missing key 'nodes'"),
        (lambda d: d["nodes"][0].update(kind="tdfg.bogus"), "unknown kind 'tdfg.bogus'"),
        (lambda d: d["nodes"].pop(), "ends with its one 'tdfg.yield'"),
        (lambda d: d["nodes"][-2].update(ins=[99]), "operand value 99 is not defined before its use"),
        (lambda d: d["arrays"][0].__setitem__(1, "f16"), "element type must be a string (one of"),
        (lambda d: d["nodes"][0]["domain"][0][1].__setitem__(1, [["Q", 1]]), "uses 'Q', which is no index scalar of the graph"),
        (lambda d: d["nodes"][0].update(arr=7), "arr must be an integer in [0,"),
        (lambda d: d["hints"].update(wobble=[0]), "unknown layout hint 'wobble'"),
    ],
)
def test_reader_errors_are_one_line(mutate, expect):
    doc = copy.deepcopy(_sample("vec_add")[0])
    mutate(doc)
    with pytest.raises(RecordDataError) as e:
        read_graph(doc, "f.infsb: region 0")
    text = str(e.value)
    assert "\n" not in text and text.startswith("f.infsb: region 0") and expect in text, text


def _paths(v, path=()):
    yield path
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, (*path, k))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _paths(x, (*path, i))


JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.sampled_from([-1, 0, 1, 2, 3, 31, 32, 33, 2**63]),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=6),
    st.sampled_from(["index", "i1", "i32", "f32", "f64", "N", "M", "d0", "d1", "tdfg.cmp", "tdfg.mv", "tdfg.yield", "add", "store", "select"]),
    st.lists(st.integers(-2, 8), max_size=4), st.just([]), st.just({}), st.just([0, []]), st.just([0, [["N", 1]]]),
    st.just({"float": "0x1.8p+1"}), st.just({"float": "nan"}),
)  # fmt: skip

_FUZZED = ("vec_add", "stencil2d", "array_sum", "gather_mlp_inner", "kmeans_inner", "dwt2d")


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_fuzz_reader_and_lowering(data):
    """Mutated graph data: refused in one line, or lowered (or refused by the lowering in one line)."""
    doc, sizes, cfg, tiles, shapes = _sample(data.draw(st.sampled_from(_FUZZED)))
    doc = copy.deepcopy(doc)
    paths = list(_paths(doc))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        if not path:
            continue
        parent = doc
        try:
            for k in path[:-1]:
                parent = parent[k]
            parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue
        key = path[-1]
        how = data.draw(st.sampled_from(["replace", "delete", "duplicate", "swap"]))
        if how == "replace":
            parent[key] = data.draw(JUNK)
        elif how == "delete":
            del parent[key]
        elif how == "duplicate" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif how == "swap" and isinstance(parent, list) and len(parent) > 1:
            j = data.draw(st.integers(0, len(parent) - 1))
            parent[key], parent[j] = parent[j], parent[key]
    try:
        rec = read_graph(json.loads(json.dumps(doc)), "fuzz")
    except RecordDataError as e:
        assert "\n" not in str(e) and str(e).startswith("fuzz")
        return
    try:
        jit.lower(rec, sizes, cfg, tiles, shapes or None)
    except (LoweringError, LayoutError, SpecializeError) as e:
        assert "\n" not in str(e).strip()


def test_records_lower_and_run_without_xdsl():
    """A record read from JSON is lowered by the JIT and run on the machine in a fresh
    process that loads neither xDSL nor egglog, nor any pass but the lowering's."""
    doc, sizes, cfg, tiles, shapes = _sample("stencil2d")
    script = (
        "import json, sys\n"
        "import numpy as np\n"
        "from infs.dialects.tdfg_records import read_graph\n"
        "from infs.runtime import jit\n"
        "from infs.sim import Machine\n"
        f"rec = read_graph(json.loads({json.dumps(doc)!r}))\n"
        f"low = jit.lower(rec, {sizes!r}, {cfg.name!r}, None, {shapes!r} or None)\n"
        "m = Machine(jit._named_config(%r), mode='analysis')\n" % cfg.name
        + "arrays = {i: np.zeros(s, dtype=np.float32) for i, s in enumerate(%r)}\n" % [shapes[i] for i in sorted(shapes)]
        + "m.run(low.record, arrays, scalars=[0.5] * len(low.scalar_map))\n"
        "print(m.cycles > 0, low.commands > 0)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'xdsl', 'egglog'}))\n"
        "print(sorted(m for m in sys.modules if m.startswith('infs.passes') and not m.startswith('infs.passes.lower_pim')))\n"
    )
    env = {**os.environ, "INFS_VERIFY": "0"}  # (verifying builds the program's IR: xDSL's side)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert lines[0] == "True True" and lines[1] == "[]", lines
    assert lines[2] == str(sorted(["infs.passes", "infs.passes.lowering_errors", "infs.passes.tdfg_domains", "infs.passes.tdfg_semantics"])), lines


def test_reading_records_imports_no_xdsl():
    doc = json.dumps(_sample("stencil2d")[0])
    script = (
        "import json, sys\n"
        "from infs.dialects.tdfg_records import read_graph\n"
        f"rec = read_graph(json.loads({doc!r}))\n"
        "print(len(rec.nodes))\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'xdsl', 'egglog'}))\n"
        "print(sorted(m for m in sys.modules if m.startswith('infs.passes')))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True).stdout.splitlines()
    assert int(out[0]) > 0 and out[1] == "[]" and out[2] == "[]", out
