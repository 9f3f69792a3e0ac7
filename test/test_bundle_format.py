"""The bundle container (infs.runtime.bundle.container): a round trip, one
``BundleError`` line for each way a file can be wrong, and a fuzz of the
loader (truncations, bit flips, structured mutations of the sections
re-checksummed so that the host section's checker sees them) that finds
nothing but ``BundleError``, quickly."""

from __future__ import annotations

import copy
import hashlib
import json
import struct
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infs import api
from infs.runtime.bundle import container
from infs.runtime.bundle.container import BundleError, dumps, loads
from infs.runtime.bundle.host_form import bundle_sections
from infs.runtime.bundle.host_program import compile_host
from infs.runtime.reference import evaluate_region
from infs.workloads import WORKLOADS

PROGRAM = """
func.func @main(%A: memref<?xf32>, %n: index, %c: i1) -> (f32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.5 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (f32) {
    %e = memref.load %A[%i] : memref<?xf32>
    %b = arith.addf %a, %e : f32
    scf.yield %b : f32
  }
  %w = scf.while (%k = %c0) : (index) -> index {
    %lt = arith.cmpi slt, %k, %n : index
    scf.condition(%lt) %k : index
  } do {
  ^bb0(%k2: index):
    %k3 = arith.addi %k2, %c1 : index
    scf.yield %k3 : index
  }
  %r = scf.if %c -> (index) {
    %x = func.call @twice(%w) : (index) -> index
    scf.yield %x : index
  } else {
    scf.yield %w : index
  }
  func.return %s, %r : f32, index
}
func.func private @twice(%x: index) -> index {
  %r = arith.addi %x, %x : index
  func.return %r : index
}
"""


def _sections():
    m = api.parse_text(PROGRAM)
    sections, _ = bundle_sections(m, "test", "main")
    return sections


SECTIONS = _sections()
GOOD = dumps(SECTIONS, [b"\x00\x01blob"])


def test_round_trip_and_run(tmp_path):
    path = tmp_path / "p.infsb"
    container.write(path, SECTIONS, [b"\x00\x01blob"])
    b, prog = container.load_program(path)
    assert b.sections == json.loads(json.dumps(SECTIONS)) and b.blobs == [b"\x00\x01blob"]
    assert b.format_version == container.FORMAT_VERSION and b.infs_version == container.infs_version()
    A = np.arange(5, dtype=np.float32)
    s, r = prog.run([A, 5, True], "main")
    assert s == np.float32(10.5) and s.dtype == np.float32 and r == 10


def test_f32_constants_exact():
    m = api.parse_text("func.func @f() -> f32 {\n  %x = arith.constant 0.1 : f32\n  func.return %x : f32\n}")
    sections, _ = bundle_sections(m)
    (prog,) = [compile_host(loads(dumps(sections)).sections["host"])]
    assert prog.run([])[0].tobytes() == np.float32(0.1).tobytes()
    assert '"bits":"0x3dcccccd"' in dumps(sections).decode("latin-1")


def test_workload_bundle_runs_like_the_module():
    w = WORKLOADS["gauss_elim"]
    m = api.parse_text(w.text())
    sections, offloads = bundle_sections(m, w.name, w.entry)
    prog = compile_host(loads(dumps(sections)).sections["host"])
    sizes = w.sizes("small")
    inputs = w.inputs(sizes, seed=0)
    args = [inputs[a] if a in inputs else sizes[a] for a in w.args]
    prog.run(args, w.entry, region=lambda i, arrays, scalars: evaluate_region(offloads["region"][i], arrays, scalars))
    ref = w.reference(w.inputs(sizes, seed=0), sizes)
    for k in w.outputs:
        np.testing.assert_allclose(inputs[k], ref[k], rtol=1e-4, atol=1e-4)


def _rechecksum(data: bytes, payload: bytes) -> bytes:
    nver = struct.unpack_from("<H", data, 10)[0]
    head = data[: 12 + nver]
    return head + struct.pack("<Q32s", len(payload), hashlib.sha256(payload).digest()) + payload


def _payload_of(doc: bytes, blobs=()) -> bytes:
    parts = [struct.pack("<Q", len(doc)), doc, struct.pack("<I", len(blobs))]
    for b in blobs:
        parts += [struct.pack("<Q", len(b)), b]
    return b"".join(parts)


def _with_doc(doc: bytes) -> bytes:
    return _rechecksum(GOOD, _payload_of(doc))


def _other_version(data: bytes, ver: bytes) -> bytes:
    nver = struct.unpack_from("<H", data, 10)[0]
    return data[:10] + struct.pack("<H", len(ver)) + ver + data[12 + nver :]


CASES = {
    "empty": (b"", "not an infs bundle"),
    "bad magic": (b"INFSBNDX" + GOOD[8:], "not an infs bundle"),
    "foreign format": (GOOD[:8] + struct.pack("<H", 7) + GOOD[10:], "bundle format 7; this infs reads format 2"),
    "foreign infs": (_other_version(GOOD, b"0.0.1"), "written by infs 0.0.1"),
    "truncated header": (GOOD[:15], "truncated in its header"),
    "truncated payload": (GOOD[:-3], "truncated: its payload is"),
    "trailing bytes": (GOOD + b"xx", "2 bytes after its payload"),
    "checksum": (GOOD[:-1] + bytes([GOOD[-1] ^ 1]), "checksum mismatch"),
    "json syntax": (_with_doc(b'{"sections": {'), "malformed JSON"),
    "json nan": (_with_doc(b'{"sections": {"host": {"x": NaN}}}'), "malformed JSON: NaN is not JSON data here"),
    "json duplicate": (_with_doc(b'{"sections": {"host": {}, "host": {}}}'), "twice in one object"),
    "json deep": (_with_doc(b'{"sections": {"host": ' + b"[" * 500 + b"]" * 500 + b"}}"), "section 'host' is list"),
    "json deeper": (_with_doc(b'{"sections": ' + b"[" * 200_000 + b"]" * 200_000 + b"}"), "JSON"),
    "json huge int": (_with_doc(b'{"sections": {"host": {"format": ' + b"9" * 10_000 + b"}}}"), "malformed JSON"),
    "not utf8": (_with_doc(b'{"sections": "\xff"}'), "not UTF-8"),
    "no sections": (_with_doc(b"[]"), "one field 'sections'"),
    "unknown section": (_with_doc(b'{"sections": {"host": {}, "code": "x"}}'), "unknown section 'code'"),
    # format 2 has a regions section (an object) and no layouts one (docs/bundles.md says why)
    "regions section": (_with_doc(b'{"sections": {"host": {}, "regions": []}}'), "section 'regions' is list, not dict"),
    "layouts section": (_with_doc(b'{"sections": {"host": {}, "layouts": {}}}'), "unknown section 'layouts' (format 2 has program, host, regions)"),
    "no host": (_with_doc(b'{"sections": {"program": {}}}'), "no 'host' section"),
    "wrong type": (_with_doc(b'{"sections": {"host": []}}'), "section 'host' is list, not dict"),
    "huge json length": (_rechecksum(GOOD, struct.pack("<Q", 2**63) + b"{}"), "runs past its end"),
    "huge blob count": (_rechecksum(GOOD, _payload_of(b'{"sections":{"host":{}}}')[:-4] + struct.pack("<I", 2**32 - 1)), "blobs, more than"),
    "huge payload length": (GOOD[:20] + struct.pack("<Q", 2**64 - 1) + GOOD[28:], "truncated: its payload is"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_load_errors_are_one_line(name):
    data, expect = CASES[name]
    with pytest.raises(BundleError) as e:
        loads(data, "p.infsb")
    msg = str(e.value)
    assert msg.startswith("p.infsb: ") and "\n" not in msg and expect in msg, msg


def test_foreign_infs_accepted_when_asked():
    b = loads(_other_version(GOOD, b"0.0.1"), any_infs=True)
    assert b.infs_version == "0.0.1"


def test_file_errors(tmp_path):
    with pytest.raises(BundleError, match=r"^.*missing.infsb: cannot read the bundle: No such file or directory$"):
        container.read(tmp_path / "missing.infsb")
    with pytest.raises(BundleError, match=r"cannot write the bundle"):
        container.write(tmp_path / "no" / "dir" / "p.infsb", SECTIONS)


@pytest.mark.parametrize(
    "mutate, expect",
    [
        (lambda h: h.__setitem__("format", 2), "format 2, this infs reads 1"),
        (lambda h: h["functions"][0]["body"]["ops"][0].__setitem__("op", "builtins.exec"), "'builtins.exec' is not an op of the host's data form"),
        (lambda h: h["functions"][0]["body"]["ops"][4].__setitem__("in", [999]), "value #999 does not exist"),
        (lambda h: h["functions"][0]["body"]["ops"][1].__setitem__("out", h["functions"][0]["body"]["ops"][0]["out"]), "is defined twice"),
        (lambda h: h["functions"][0]["body"]["ops"].pop(), "does not end with 'func.return'"),
        (lambda h: h["functions"][0]["values"].__setitem__(0, "q7"), "is not a host type"),
        (lambda h: h["functions"][1].__setitem__("name", "main"), "@main is defined twice"),
    ],
    ids=["format", "unknown-op", "undefined-value", "redefined-value", "no-terminator", "bad-type", "duplicate-function"],
)
def test_host_section_errors_are_one_line(mutate, expect):
    host = copy.deepcopy(json.loads(json.dumps(SECTIONS["host"])))
    mutate(host)
    with pytest.raises(BundleError) as e:
        compile_host(host)
    assert expect in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_use_before_definition_is_refused():
    # an op reading a value its block defines later: dominance, not only existence
    host = json.loads(json.dumps(SECTIONS["host"]))
    ops = host["functions"][0]["body"]["ops"]
    ops[0], ops[2] = ops[2], ops[0]  # %z before %c0: no use between; then the loop before its bounds
    ops.insert(0, ops.pop(3))
    with pytest.raises(BundleError, match="is used where it is not defined"):
        compile_host(host)


# ---------------------------------------------------------------------------
# Fuzz
# ---------------------------------------------------------------------------


def _load_all(data: bytes) -> None:
    """The loader and the host section's compiler: BundleError or nothing."""
    t = time.perf_counter()
    try:
        b = loads(data, "f.infsb")
        compile_host(b.sections["host"])
    except BundleError as e:
        assert "\n" not in str(e)
    assert time.perf_counter() - t < 5.0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cut=st.integers(0, len(GOOD)), flips=st.lists(st.tuples(st.integers(0, len(GOOD) - 1), st.integers(0, 7)), max_size=4))
def test_fuzz_truncations_and_bit_flips(cut, flips):
    data = bytearray(GOOD)
    for i, bit in flips:
        data[i] ^= 1 << bit
    _load_all(bytes(data[:cut]))
    _load_all(bytes(data))
    # the same flips inside the payload, re-checksummed: they reach the JSON and the host checker
    nver = struct.unpack_from("<H", GOOD, 10)[0]
    start = 12 + nver + 40
    if flips:
        payload = bytearray(GOOD[start:])
        for i, bit in flips:
            payload[i % len(payload)] ^= 1 << bit
        _load_all(_rechecksum(GOOD, bytes(payload)))


def _nodes(v, path=()):
    yield path
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _nodes(x, (*path, k))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _nodes(x, (*path, i))


NODES = list(_nodes(json.loads(json.dumps(SECTIONS))))
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.sampled_from([-1, 0, 1, 2, 3, 10**9, 2**63]),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8),
    st.sampled_from(["index", "i1", "i32", "f32", "memref", "scf.for", "scf.yield", "func.return", "offload", "region", "0x7fc00000", "main", "twice"]),
    st.lists(st.integers(-2, 40), max_size=4), st.just([]), st.just({}),
    st.just(["memref", [-1], "f32"]), st.just(["memref", [2**47, 2**47], "f64"]),
)  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzz_structured_mutations(data):
    doc = json.loads(json.dumps(SECTIONS))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(NODES))
        if not path:
            continue
        parent = doc
        try:
            for k in path[:-1]:
                parent = parent[k]
            key = path[-1]
            parent[key]
            if not isinstance(parent, (list, dict)):
                continue
        except (KeyError, IndexError, TypeError):
            continue
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
        raw = json.dumps({"sections": doc}).encode()
    except (TypeError, ValueError):
        return
    _load_all(_with_doc(raw))


def test_loader_imports_no_xdsl(tmp_path):
    path = tmp_path / "p.infsb"
    container.write(path, SECTIONS)
    script = textwrap.dedent(f"""
        import sys
        import numpy as np
        from infs.runtime.bundle.container import load_program
        b, prog = load_program({str(path)!r})
        print(prog.run([np.ones(4, np.float32), 4, False], "main"))
        print([m for m in sys.modules if m.split(".")[0] in ("xdsl", "egglog") or m.startswith(("infs.passes", "infs.dialects", "infs.element_types"))])
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True).stdout.splitlines()
    assert out == ["(np.float32(4.5), 4)", "[]"]


def test_nesting_limit_is_one_line():
    # regions inside regions past the checker's bound: refused, not a RecursionError
    from infs.runtime.bundle.host_values import MAX_NESTING

    body = {"args": [], "ops": [{"op": "scf.yield", "in": []}]}
    for _ in range(MAX_NESTING + 5):
        body = {"args": [], "ops": [{"op": "scf.if", "in": [0], "regions": [body, None]}, {"op": "scf.yield", "in": []}]}
    fn = {"name": "f", "public": True, "args": ["i1"], "arg_names": ["c"], "results": [], "values": ["i1"],
          "body": {"args": [0], "ops": [body["ops"][0], {"op": "func.return", "in": []}]}}  # fmt: skip
    with pytest.raises(BundleError, match=f"regions nest more than {MAX_NESTING} deep"):
        compile_host({"format": 1, "functions": [fn]})
    with pytest.raises(BundleError, match=f"regions nest more than {MAX_NESTING} deep"):
        loads_and_compile = container.loads(_with_doc(json.dumps({"sections": {"host": {"format": 1, "functions": [fn]}}}).encode()))
        compile_host(loads_and_compile.sections["host"])


def test_infs_version_is_the_installed_metadata_read_without_importlib_metadata(tmp_path):
    # the loader checks the writer's infs version on every load: read off the dist-info's
    # METADATA, the same value importlib.metadata gives, without importing it (30-70 ms)
    from importlib.metadata import version

    assert container._dist_info_version() == version("infs")
    path = tmp_path / "p.infsb"
    container.write(path, SECTIONS)
    script = textwrap.dedent(f"""
        import sys
        from infs.runtime.bundle.container import infs_version, load_program
        load_program({str(path)!r})
        print(infs_version())
        print("importlib.metadata" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True).stdout.splitlines()
    assert out == [version("infs"), "False"]
