"""The scripting API (infs.api): parse, verify, transform, print -- and its
error contract: every failure is an ``InfsError`` whose ``str`` is one line,
naming file:line:col when the error has a place in the input."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.dead_code_elimination import DeadCodeElimination
from xdsl.utils.exceptions import VerifyException

from infs import api
from infs.api import InfsError
from infs.dialects import stream
from infs.dialects import parse
from infs.dialects.lattice import AccessMap, Affine, MapAttr

CTX = api.make_context()
WORKLOADS = sorted((Path(api.__file__).parent / "workloads").glob("*.mlir"))

STENCIL = """func.func @stencil1d(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [1:N - 1] iterators [parallel] {
  ^bb0(%a: memref<?xf32>, %b: memref<?xf32>, %N: index):
    %l = stream.load %a[d0 - 1] : memref<?xf32> -> !stream.stream<f32>
    %c = stream.load %a[d0] : memref<?xf32> -> !stream.stream<f32>
    %r = stream.load %a[d0 + 1] : memref<?xf32> -> !stream.stream<f32>
    %s = stream.compute(%l, %c, %r : !stream.stream<f32>, !stream.stream<f32>, !stream.stream<f32>) -> !stream.stream<f32> {
    ^bb1(%x: f32, %y: f32, %z: f32):
      %t = arith.addf %x, %y : f32
      %u = arith.addf %t, %z : f32
      stream.yield %u : f32
    }
    stream.store %s -> %b[d0] : !stream.stream<f32> -> memref<?xf32>
    stream.yield
  }
  func.return
}
"""

LOC = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): error: ")


def located(e: InfsError, file: str, line: int | None = None, col: int | None = None) -> re.Match:
    """The error is one line that starts with file:line:col."""
    text = str(e)
    assert "\n" not in text and "\r" not in text, text
    m = LOC.match(text)
    assert m, f"no file:line:col in {text!r}"
    assert m["file"] == file, text
    if line is not None:
        assert int(m["line"]) == line, text
    if col is not None:
        assert int(m["col"]) == col, text
    return m


def one_line(e: BaseException) -> str:
    assert isinstance(e, InfsError), f"{type(e).__name__}: {e}"
    text = str(e)
    assert text and "\n" not in text and "\r" not in text, repr(text)
    assert "Traceback" not in text
    return text


# ---------------------------------------------------------------------------
# happy paths
# ---------------------------------------------------------------------------


def test_parse_text_verifies_and_records_locations():
    m = api.parse_text(STENCIL, "s1.mlir")
    assert isinstance(m, ModuleOp)
    regions = [op for op in m.walk() if isinstance(op, stream.RegionOp)]
    assert len(regions) == 1
    r = regions[0]
    assert r.names == ("N",) and r.iterator_kinds == ("parallel",)
    assert str(r.iteration_domain) == "[1:N - 1]"
    loads = [op for op in m.walk() if isinstance(op, stream.LoadOp)]
    assert [str(op.access_map()) for op in loads] == ["[d0 - 1]", "[d0]", "[d0 + 1]"]
    assert parse._loc_text(loads[0].location) == "s1.mlir:4:5"  # noqa: SLF001 - the location parse_text recorded


def test_custom_form_round_trips():
    m = api.parse_text(STENCIL)
    text = api.to_text(m)
    assert text.endswith("\n")
    assert "stream.region ins(%A, %B : memref<?xf32>, memref<?xf32>) syms(N = %n : index) domain [1:N - 1] iterators [parallel]" in text
    assert api.to_text(api.parse_text(text)) == text


def test_generic_form_round_trips():
    m = api.parse_text(STENCIL)
    custom = api.to_text(m)
    generic = api.to_text(m, generic=True)
    assert '"stream.region"' in generic and "#lattice.domain<[1:N - 1]>" in generic
    assert '"stream.load"' in generic and "#lattice.map<[d0 - 1]>" in generic
    again = api.parse_text(generic)
    assert api.to_text(again) == custom
    assert api.to_text(again, generic=True) == generic


@pytest.mark.parametrize("path", WORKLOADS, ids=lambda p: p.stem)
def test_parse_file_workloads(path):
    m = api.parse_file(path)
    assert any(isinstance(op, stream.RegionOp) for op in m.walk())
    text = api.to_text(m)
    assert api.to_text(api.parse_text(text)) == text
    generic = api.to_text(m, generic=True)
    assert api.to_text(api.parse_text(generic)) == text


def test_parse_file_accepts_str_and_path(tmp_path):
    f = tmp_path / "prog.mlir"
    f.write_text(STENCIL)
    a = api.parse_file(f)
    b = api.parse_file(str(f))
    assert api.to_text(a) == api.to_text(b) == api.to_text(api.parse_text(STENCIL))


def test_parse_without_verification():
    bad = STENCIL.replace("%a[d0 - 1]", "%a[d0, d0]")
    m = api.parse_text(bad, verify=False)  # parses: only the verifier objects
    with pytest.raises(InfsError) as ei:
        api.verify_module(m)
    assert "'stream.load' op" in one_line(ei.value)


@pytest.mark.parametrize(
    "pipeline",
    ["canonicalize", "cse,dce", "", "  ", CanonicalizePass(), [CanonicalizePass(), DeadCodeElimination()], ()],
    ids=["text", "text-list", "empty", "blank", "pass", "pass-list", "empty-list"],
)
def test_run_pipeline_happy_paths(pipeline):
    m = api.parse_text(STENCIL)
    before = api.to_text(m)
    out = api.run_pipeline(m, pipeline, ctx=CTX)
    assert out is m
    assert api.to_text(m) == before  # nothing to simplify in this program


def test_run_pipeline_really_transforms():
    src = """func.func @f(%x: i32) -> i32 {
  %a = arith.constant 2 : i32
  %b = arith.constant 3 : i32
  %unused = arith.addi %x, %a : i32
  %c = arith.addi %a, %b : i32
  func.return %c : i32
}
"""
    m = api.parse_text(src)
    api.run_pipeline(m, "canonicalize")
    text = api.to_text(m)
    assert "arith.constant 5 : i32" in text
    assert "%unused" not in text and "arith.addi" not in text


def test_parse_pipeline():
    passes = api.parse_pipeline("canonicalize,cse")
    assert [p.name for p in passes] == ["canonicalize", "cse"]
    assert api.parse_pipeline("") == ()
    assert "canonicalize" in api.available_passes()


# ---------------------------------------------------------------------------
# errors: one line, InfsError, file:line:col when the error has a place
# ---------------------------------------------------------------------------


def test_parse_error_location():
    with pytest.raises(InfsError) as ei:
        api.parse_text("func.func @f(", "f.mlir")
    located(ei.value, "f.mlir", 1, 14)


def test_parse_error_in_region_body_location():
    bad = STENCIL.replace("%r = stream.load %a[d0 + 1]", "%r = stream.load %a[d0 + ]")
    with pytest.raises(InfsError) as ei:
        api.parse_text(bad, "s.mlir")
    located(ei.value, "s.mlir", 6)


def test_parse_error_unknown_op():
    with pytest.raises(InfsError) as ei:
        api.parse_text('"foo.bar"() : () -> ()', "u.mlir")
    located(ei.value, "u.mlir", 1)
    assert "foo.bar" in str(ei.value)


def test_a_truncated_linalg_op_is_an_error_of_its_line():
    """xDSL 0.74's linalg.fill parser indexes operands a truncated op lacks (IndexError;
    found by make fuzz as an infs-opt internal error)."""
    with pytest.raises(InfsError) as ei:
        api.parse_text("func.func @f() {\n  linalg.fill i", "t.mlir")
    located(ei.value, "t.mlir", 2)
    assert "is it complete?" in str(ei.value)


def test_parse_error_line_offset():
    with pytest.raises(InfsError) as ei:
        api.parse_text("func.func @f(", "split.mlir", line_offset=10)
    located(ei.value, "split.mlir", 11, 14)


def test_op_locations_are_their_lines_and_columns():
    """Every op is located at its line and column (read off an index of the newlines,
    not recounted per op), split inputs' line offsets included."""
    lines = ["func.func @f() {"] + [f"{'  ' * (1 + i % 3)}%c{i} = arith.constant {i} : i32" for i in range(40)] + ["  func.return", "}"]
    for offset in (0, 7):
        m = api.parse_text("\n".join(lines), "loc.mlir", verify=False, line_offset=offset)
        consts = [op for op in m.walk() if op.name == "arith.constant"]
        assert [(op.location.line.data, op.location.column.data) for op in consts] == [
            (offset + 2 + i, 3 + 2 * (i % 3)) for i in range(40)
        ]


def test_verifier_error_names_op_and_location():
    bad = STENCIL.replace("%a[d0 - 1]", "%a[d0, d1]")
    with pytest.raises(InfsError) as ei:
        api.parse_text(bad, "v.mlir")
    located(ei.value, "v.mlir", 4, 5)
    assert "'stream.load' op" in str(ei.value)
    assert "rank-1 array" in str(ei.value)
    assert ei.value.op == "stream.load"


def test_verifier_error_of_a_builtin_op():
    src = "func.func @f() {\n  %x = arith.constant 1 : i32\n  func.return %x : i32\n}\n"
    with pytest.raises(InfsError) as ei:
        api.parse_text(src, "r.mlir")
    located(ei.value, "r.mlir", 3, 3)
    assert "'func.return' op" in str(ei.value)


def test_verifier_error_undeclared_symbol():
    bad = STENCIL.replace("domain [1:N - 1]", "domain [1:M]")
    with pytest.raises(InfsError) as ei:
        api.parse_text(bad, "d.mlir")
    located(ei.value, "d.mlir", 2, 3)
    assert "'stream.region' op" in str(ei.value) and "'M'" in str(ei.value)


def test_attribute_verifier_error_inside_an_op_is_located():
    bad = STENCIL.replace("domain [1:N - 1]", "domain [3:1]")
    with pytest.raises(InfsError) as ei:
        api.parse_text(bad, "a.mlir")
    located(ei.value, "a.mlir", 2)
    assert "lower bound > upper bound" in str(ei.value)


def test_domain_bounds_error_names_the_op():
    bad = STENCIL.replace("domain [1:N - 1]", "domain [3:1]")
    with pytest.raises(InfsError) as ei:
        api.parse_text(bad, "a.mlir")
    assert "'stream.region' op" in str(ei.value)


def test_attribute_alias_error_is_located():
    src = "#bad = #lattice.pattern<1:2:0>\nfunc.func @f() {\n  func.return\n}\n"
    with pytest.raises(InfsError) as ei:
        api.parse_text(src, "p.mlir")
    located(ei.value, "p.mlir", 1)


def test_attribute_error_in_op_attribute_is_located():
    src = 'func.func @f() {\n  "test.op"() {p = #lattice.pattern<1:2:0>} : () -> ()\n  func.return\n}\n'
    with pytest.raises(InfsError) as ei:
        api.parse_text(src, "p.mlir")
    located(ei.value, "p.mlir", 2)
    assert "count <= 0" in str(ei.value)


def test_error_from_a_file_names_the_file(tmp_path):
    f = tmp_path / "broken.mlir"
    f.write_text(STENCIL.replace("%a[d0 - 1]", "%a[d7]"))
    with pytest.raises(InfsError) as ei:
        api.parse_file(f)
    located(ei.value, str(f), 4, 5)
    assert "uses d7" in str(ei.value)


def test_missing_file(tmp_path):
    missing = tmp_path / "nope.mlir"
    with pytest.raises(InfsError) as ei:
        api.parse_file(missing)
    text = one_line(ei.value)
    assert str(missing) in text and "No such file" in text


def test_directory_and_binary_files(tmp_path):
    with pytest.raises(InfsError) as ei:
        api.parse_file(tmp_path)
    assert str(tmp_path) in one_line(ei.value)
    b = tmp_path / "bin.mlir"
    b.write_bytes(b"\xff\xfe\x00\x81garbage")
    with pytest.raises(InfsError) as ei:
        api.parse_file(b)
    assert str(b) in one_line(ei.value)


def test_unknown_pass():
    m = api.parse_text(STENCIL)
    with pytest.raises(InfsError) as ei:
        api.run_pipeline(m, "canonicalize,no-such-pass")
    text = one_line(ei.value)
    assert "unknown pass" in text and "no-such-pass" in text


@pytest.mark.parametrize("spec, name", [("canonicalize{foo=1}", "foo"), ("dce{bogus=true}", "bogus")])
def test_bad_pass_option(spec, name):
    m = api.parse_text(STENCIL)
    with pytest.raises(InfsError) as ei:
        api.run_pipeline(m, spec)
    assert name in one_line(ei.value)


@pytest.mark.parametrize("spec", ["canonicalize{", ",,", "canonicalize{a=}"])
def test_malformed_pipeline(spec):
    """xDSL reports these with ArgSpecParseError, a BaseException: it must not escape."""
    m = api.parse_text(STENCIL)
    try:
        api.run_pipeline(m, spec)
    except BaseException as e:  # noqa: BLE001 - the point is what escapes
        text = one_line(e)
        assert spec in text and "pass-pipeline:1:" in text
    else:
        pytest.fail("a malformed pipeline was accepted")


class _BreakLoads(ModulePass):
    """Makes every stream.load's map rank wrong (IR the verifier rejects)."""

    name = "break-loads"

    def apply(self, ctx, op):
        for o in op.walk():
            if isinstance(o, stream.LoadOp):
                o.properties["map"] = MapAttr(AccessMap((Affine.of("d0"), Affine.of("d0"))))


class _Raises(ModulePass):
    name = "raises"

    def apply(self, ctx, op):
        raise VerifyException("something is wrong\nsecond line")


def test_pass_producing_invalid_ir_is_reported_with_location():
    m = api.parse_text(STENCIL, "s.mlir")
    with pytest.raises(InfsError) as ei:
        api.run_pipeline(m, [_BreakLoads()])
    located(ei.value, "s.mlir", 4, 5)
    assert "'stream.load' op" in str(ei.value)
    # without verification the pass simply runs
    m2 = api.parse_text(STENCIL)
    api.run_pipeline(m2, _BreakLoads(), verify_each=False)


def test_pass_failure_is_one_line():
    m = api.parse_text(STENCIL)
    with pytest.raises(InfsError) as ei:
        api.run_pipeline(m, _Raises())
    text = one_line(ei.value)
    assert "raises" in text and "something is wrong" in text


def test_infs_error_format():
    e = InfsError("bad\nthing   here", "f.mlir:1:2", "stream.load")
    assert str(e) == "f.mlir:1:2: error: 'stream.load' op bad thing here"
    assert str(InfsError("plain")) == "error: plain"


# ---------------------------------------------------------------------------
# fuzz: whatever the input, parse_text raises only InfsError, on one line
# ---------------------------------------------------------------------------


@st.composite
def mutated_programs(draw):
    text = STENCIL
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 12)))
        insert = draw(st.sampled_from(["", "", "-", "]", "[", ":", "%a", "d9", "0", "-1", "N", "}", ",", "xf32", "<", ">", "@", "\n", "(", "*", "#x"]))
        text = text[:i] + insert + text[j:]
    return text


# No '"' among the insertions: an unterminated string literal makes xDSL's lexer
# backtrack exponentially (test_unterminated_string_literal_fails_fast).
@settings(max_examples=100, deadline=None)
@given(mutated_programs())
def test_fuzzed_input_only_raises_one_line_infs_errors(text):
    try:
        api.parse_text(text, "fuzz.mlir", ctx=CTX)
    except InfsError as e:
        one_line(e)
        assert str(e).startswith("fuzz.mlir"), str(e)


def test_unterminated_string_literal_fails_fast():
    def timeout(signum, frame):
        raise TimeoutError

    text = 'func.func @f() {\n  "' + "x" * 40 + "\n}\n"
    old = signal.signal(signal.SIGALRM, timeout)
    signal.setitimer(signal.ITIMER_REAL, 2.0)
    try:
        with pytest.raises(InfsError) as ei:
            api.parse_text(text, "q.mlir")
    except TimeoutError:
        pytest.fail("parse_text did not finish within 2 s")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    located(ei.value, "q.mlir", 2, 3)


@pytest.mark.parametrize("text", ["@.func @f() {\n}\n", ".func @f() {\n}\n", "\n\n  .func @f() {\n}\n"])
def test_a_bad_first_token_is_a_located_error(text):
    """Found by fuzzing: xDSL's parser lexes the first token when it is built."""
    with pytest.raises(api.InfsError) as e:
        api.parse_text(text, "fuzz.mlir")
    assert str(e.value).startswith("fuzz.mlir:") and "\n" not in str(e.value)


@pytest.mark.parametrize("text", [".", "@", "N ."])
def test_bad_affine_text_is_a_lattice_error(text):
    from infs.dialects.lattice import LatticeError, affine_from_text

    with pytest.raises(LatticeError):
        affine_from_text(text)
