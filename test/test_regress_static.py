"""Static refusals every entry point shares.

* A region in which an iteration may read a cell an earlier iteration
  (or an earlier op of the same iteration) writes -- a loop-carried flow
  dependence -- is refused by the ``stream.region`` verifier
  (``stream.loop_carried_dependence``), so ``infs-opt``, ``--tensorize`` and
  ``infs-run`` in every mode give the same one-line error.  Before, ``--mode
  in`` ran it silently from the array's entry values.  Legal in-place updates
  (same cell, cells written later, disjoint cells) still run, in every mode,
  with the loop nest's values.
* SSA dominance (``infs.dialects.dominance``): a use that its
  definition does not dominate is one located error, not a RecursionError or
  KeyError in ``infs-run`` and tensorize.
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from infs import api
from infs.dialects import stream
from infs.runtime.driver import RunOptions, run_program
from infs.runtime.host import run_function
from infs.runtime.scalar_ops import EvaluationError
from infs.tools import infs_opt, infs_run

RUN_MODES = ("in", "near", "core", "auto", "all")

S = "!stream.stream<f32>"
M1, M2 = "memref<?xf32>", "memref<?x?xf32>"


def func(body: str, arrays: str = f"%A: {M1}", ins: str = f"%A : {M1}", bargs: str = f"%a: {M1}", domain: str = "[0:N]", iters: str = "parallel") -> str:
    return (
        f"func.func @f({arrays}, %n: index) {{\n"
        f"  stream.region ins({ins}) syms(N = %n : index) domain {domain} iterators [{iters}] {{\n"
        f"  ^bb0({bargs}, %N: index):\n{body}    stream.yield\n  }}\n  func.return\n}}\n"
    )


def add(r: str, a: str, b: str) -> str:
    return f"    %{r} = stream.compute(%{a}, %{b} : {S}, {S}) -> {S} {{\n    ^bb1(%x: f32, %y: f32):\n      %z = arith.addf %x, %y : f32\n      stream.yield %z : f32\n    }}\n"


# ---------------------------------------------------------------------------
# Loop-carried dependences, refused everywhere with one message
# ---------------------------------------------------------------------------

CARRIED = {
    # A[i] = A[i-1] + A[i]: the issue's recurrence
    "recurrence": (
        func(f"    %p = stream.load %a[d0 - 1] : {M1} -> {S}\n    %c = stream.load %a[d0] : {M1} -> {S}\n" + add("s", "p", "c") + f"    stream.store %s -> %a[d0] : {S} -> {M1}\n", domain="[1:N]"),
        "'stream.region' op has a loop-carried dependence: the 'stream.load' at line 4 may read a cell of %a written by the 'stream.store' at line 11 in an earlier iteration; split it into several regions",
    ),
    # a load of the cell a store of the same iteration wrote just before
    "same_iteration": (
        func(f"    %c = stream.load %a[d0 + N] : {M1} -> {S}\n    stream.store %c -> %a[d0] : {S} -> {M1}\n    %d = stream.load %a[d0] : {M1} -> {S}\n    stream.store %d -> %a[d0 + N] : {S} -> {M1}\n"),
        "the 'stream.load' at line 6 may read a cell of %a written by the 'stream.store' at line 5 earlier in the same iteration",
    ),
    # A[i] = A[I[i]]: the cells depend on I, so it is refused for every I
    "indirect": (
        func(
            f"    %j = stream.load %i[d0] : memref<?xi32> -> !stream.stream<i32>\n    %x = stream.load %a[%j] : {M1} -> {S}\n    stream.store %x -> %a[d0] : {S} -> {M1}\n",
            arrays=f"%A: {M1}, %I: memref<?xi32>", ins=f"%A, %I : {M1}, memref<?xi32>", bargs=f"%a: {M1}, %i: memref<?xi32>",
        ),
        "the 'stream.load' at line 5 may read a cell of %a written by the 'stream.store' at line 6 in an earlier iteration",
    ),
    # an atomic, then a load of the cell it updated one iteration earlier
    "atomic": (
        func(f"    %p = stream.load %a[d0 - 1] : {M1} -> {S}\n    stream.atomic add %p -> %a[d0] : {S} -> {M1}\n", domain="[1:N]"),
        "the 'stream.load' at line 4 may read a cell of %a updated by the 'stream.atomic' at line 5 in an earlier iteration",
    ),
    # A[i][j] = A[j][i]
    "transpose": (
        func(f"    %p = stream.load %a[d1, d0] : {M2} -> {S}\n    stream.store %p -> %a[d0, d1] : {S} -> {M2}\n", arrays=f"%A: {M2}", ins=f"%A : {M2}", bargs=f"%a: {M2}", domain="[0:N, 0:N]", iters="parallel, parallel"),
        "the 'stream.load' at line 4 may read a cell of %a written by the 'stream.store' at line 5 in an earlier iteration",
    ),
    # one array passed twice: the two arguments alias
    "aliased": (
        func(f"    %p = stream.load %s[d0 - 1] : {M1} -> {S}\n    stream.store %p -> %d[d0] : {S} -> {M1}\n", ins=f"%A, %A : {M1}, {M1}", bargs=f"%s: {M1}, %d: {M1}", domain="[1:N]"),
        "may read a cell of %s written by the 'stream.store' at line 5 in an earlier iteration",
    ),
}


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / f"{name}.mlir"
    p.write_text(text)
    return p


def _shapes(text: str) -> list[str]:
    out = ["--sizes", "n=8", "--config", "small-16"]
    for name, rank in (("A", 1), ("I", 1)):
        if f"%{name}: memref<?xf32>" in text or f"%{name}: memref<?xi32>" in text:
            out += ["--shape", f"{name}=16"]
    if f"%A: {M2}" in text:
        out += ["--shape", "A=16x16"]
    return out


def _errors_everywhere(path: Path, capsys) -> list[str]:
    """The stderr line of infs-run in every mode and of infs-opt --tensorize
    (tool prefix stripped), after checking each is a clean one-line refusal."""
    text = path.read_text()
    runs = [(infs_run.main, [str(path), "--mode", m, *_shapes(text)]) for m in RUN_MODES]
    runs += [(infs_opt.main, ["--tensorize", str(path)]), (infs_opt.main, [str(path)])]
    lines = []
    for main, argv in runs:
        rc = main(argv)
        err = capsys.readouterr().err
        assert rc not in (0, 70), (argv, rc, err)
        assert "Traceback" not in err and "internal error" not in err, err
        assert len(err.strip().splitlines()) == 1, err
        lines.append(err.strip().removeprefix("infs-run: "))
    return lines


@pytest.mark.parametrize("name", sorted(CARRIED))
def test_loop_carried_dependence_is_one_error_in_every_mode(name, tmp_path, capsys):
    text, message = CARRIED[name]
    lines = _errors_everywhere(_write(tmp_path, name, text), capsys)
    assert len(set(lines)) == 1, lines
    assert lines[0].startswith(f"{tmp_path / name}.mlir:2:3: error: 'stream.region' op has a loop-carried dependence: "), lines[0]
    assert message in lines[0]


@pytest.mark.parametrize("name", sorted(CARRIED))
def test_unverified_loop_carried_region_is_refused_by_tensorize_and_the_reference(name):
    """IR that skipped the verifier (built by a program): tensorize keeps the
    region as a stream with the reason, the reference refuses it, same text."""
    from infs.passes.tensorize import tensorize_region

    text, message = CARRIED[name]
    module = api.parse_text(text, verify=False)
    region = next(op for op in module.walk() if isinstance(op, stream.RegionOp))
    graph, reason = tensorize_region(region)
    assert graph is None and message.removeprefix("'stream.region' op has a loop-carried dependence: ") in reason
    assert reason.startswith("'stream.region' has a loop-carried dependence")
    arrays = [np.zeros(16, np.float32) if "f32" in str(a.type) else np.zeros(16, np.int32) for a in region.arrays]
    if name == "transpose":
        arrays = [np.zeros((16, 16), np.float32)]
    with pytest.raises(EvaluationError) as e:
        from infs.runtime.reference import evaluate_region

        evaluate_region(region, arrays, [8])
    assert str(e.value) == reason


# ---------------------------------------------------------------------------
# Legal in-place updates keep working, with the loop nest's values
# ---------------------------------------------------------------------------


def _loop_nest(kind: str, A: np.ndarray, n: int) -> np.ndarray:
    """The sequential loop nest, element by element (the definition)."""
    A = A.copy()
    if kind == "scale":
        for i in range(n):
            A[i] = A[i] + A[i]
    elif kind == "shift_left":
        for i in range(n - 1):
            A[i] = A[i + 1]
    elif kind == "disjoint":
        for i in range(n):
            A[i + n] = A[i]
    elif kind == "row_sum":
        for i in range(n):
            s = np.float32(0)
            for j in range(n):
                s = np.float32(s + A[i, j])
            A[i, 0] = s
    elif kind == "atomic_same_cell":
        for i in range(n):
            A[i] = A[i] + A[i]
    return A


LEGAL = {
    "scale": func(f"    %c = stream.load %a[d0] : {M1} -> {S}\n" + add("s", "c", "c") + f"    stream.store %s -> %a[d0] : {S} -> {M1}\n"),
    "shift_left": func(f"    %c = stream.load %a[d0 + 1] : {M1} -> {S}\n    stream.store %c -> %a[d0] : {S} -> {M1}\n", domain="[0:N - 1]"),
    "disjoint": func(f"    %c = stream.load %a[d0] : {M1} -> {S}\n    stream.store %c -> %a[d0 + N] : {S} -> {M1}\n"),
    "row_sum": func(
        f"    %c = stream.load %a[d0, d1] : {M2} -> {S}\n    %r = stream.reduce add %c over [1] : {S} -> {S}\n    stream.store %r -> %a[d0, 0] : {S} -> {M2}\n",
        arrays=f"%A: {M2}", ins=f"%A : {M2}", bargs=f"%a: {M2}", domain="[0:N, 0:N]", iters="parallel, reduction",
    ),
}


@pytest.mark.parametrize("mode", ("in", "near", "core"))
@pytest.mark.parametrize("name", sorted(LEGAL))
def test_legal_in_place_update_runs_in_every_mode(name, mode):
    module = api.parse_text(LEGAL[name])
    n = 6
    rng = np.random.default_rng(1)
    A = rng.integers(-8, 9, size=(n, n) if name == "row_sum" else (2 * n,)).astype(np.float32)
    want = _loop_nest(name, A, n)
    report = run_program(module, {"A": A, "n": n}, None, RunOptions(config="small-16", mode=mode))
    assert {r.mode for r in report.regions} == {mode}
    np.testing.assert_array_equal(A, want)


def test_atomic_before_a_store_of_the_same_cell_is_not_tensorized():
    """The graph applies stores before atomics: an atomic that precedes a store
    of the same cell (here in program order) must stay a stream region, whose
    value is the store's (found while checking the legal in-place forms)."""
    from infs.passes.tensorize import tensorize_region

    text = func(
        f"    %c = stream.load %a[d0] : {M1} -> {S}\n    stream.atomic add %c -> %b[d0] : {S} -> {M1}\n    stream.store %c -> %b[d0] : {S} -> {M1}\n",
        arrays=f"%A: {M1}, %B: {M1}", ins=f"%A, %B : {M1}, {M1}", bargs=f"%a: {M1}, %b: {M1}",
    )
    region = next(op for op in api.parse_text(text).walk() if isinstance(op, stream.RegionOp))
    graph, reason = tensorize_region(region)
    assert graph is None and "an atomic may update a cell that a later store overwrites" in reason
    # the other program order is a graph (store, then the atomic on top)
    swapped = text.replace(
        f"    stream.atomic add %c -> %b[d0] : {S} -> {M1}\n    stream.store %c -> %b[d0] : {S} -> {M1}\n",
        f"    stream.store %c -> %b[d0] : {S} -> {M1}\n    stream.atomic add %c -> %b[d0] : {S} -> {M1}\n",
    )
    region = next(op for op in api.parse_text(swapped).walk() if isinstance(op, stream.RegionOp))
    graph, reason = tensorize_region(region)
    assert graph is not None, reason
    graph.drop_all_references()


# ---------------------------------------------------------------------------
# The static check against the dependences the evaluator finds on
# the actual cells (random in-place regions)
# ---------------------------------------------------------------------------


@st.composite
def in_place_regions(draw):
    """A region loading and writing one array, with (``exact``) maps of the
    form ``d<k> + c`` per array dim, which the check decides exactly, or
    (otherwise) strided, reversed, transposed, symbolic and indirect ones,
    where it may only be conservative."""
    rank = draw(st.integers(1, 2))
    exact = draw(st.booleans())
    lo = [draw(st.integers(0, 2)) for _ in range(rank)]
    hi = [draw(st.integers(-2, 0)) for _ in range(rank)]
    dom = ", ".join(f"{lo[d]}:N{' - ' + str(-hi[d]) if hi[d] else ''}" for d in range(rank))

    def row(k: int) -> str:
        c = draw(st.integers(0, 4))
        if exact:
            return draw(st.sampled_from([f"d{k} + {c}", f"{c}"]))
        return draw(st.sampled_from([f"d{k} + {c}", f"{c}", f"2*d{k} + {c}", f"N + {c} - d{k}", f"d{rank - 1 - k} + {c}", f"N + {c}", f"k + {c}"]))

    mt = "memref<" + "?x" * rank + "f32>"
    lmap = ", ".join(row(k) for k in range(rank))
    wmap = ", ".join(row(k) for k in range(rank))
    load = f"    %c = stream.load %a[{lmap}] : {mt} -> {S}\n"
    kind = draw(st.sampled_from(["store", "store", "atomic"]))
    write = f"    stream.{'store' if kind == 'store' else 'atomic add'} %c -> %a[{wmap}] : {S} -> {mt}\n"
    if draw(st.booleans()):  # the write first in program order: a second load of the array after it
        lmap2 = ", ".join(row(k) for k in range(rank))
        body = f"    %e = stream.load %b[{', '.join(f'd{k}' for k in range(rank))}] : {mt} -> {S}\n" + write.replace("%c ->", "%e ->") + f"    %c = stream.load %a[{lmap2}] : {mt} -> {S}\n    stream.store %c -> %b[{', '.join(f'd{k}' for k in range(rank))}] : {S} -> {mt}\n"
    else:
        body = load + write
    text = (
        f"func.func @f(%A: {mt}, %B: {mt}, %n: index, %k: index) {{\n"
        f"  stream.region ins(%A, %B : {mt}, {mt}) syms(N = %n : index, k = %k : index) domain [{dom}] iterators [{', '.join(['parallel'] * rank)}] {{\n"
        f"  ^bb0(%a: {mt}, %b: {mt}, %N: index, %K: index):\n{body}    stream.yield\n  }}\n  func.return\n}}\n"
    )
    return text, rank, exact


def _dynamic_dependence(module, rank: int) -> bool:
    """Whether the evaluator finds a flow dependence on the actual cells for
    some small size (the static check switched off)."""
    with mock.patch.object(stream, "loop_carried_dependence", lambda region: None):
        for n in range(1, 12):
            for k in (0, 1, 3):
                shape = (3 * n + 12,) * rank
                args = {"A": np.zeros(shape, np.float32), "B": np.zeros(shape, np.float32), "n": n, "k": k}
                try:
                    run_function(module, args)
                except AssertionError:  # the evaluator's cross-check: a dependence
                    return True
    return False


@settings(max_examples=150, deadline=None)
@given(in_place_regions())
def test_static_check_is_sound_and_exact_on_offset_maps(case):
    text, rank, exact = case
    try:
        api.parse_text(text)
        refused = False
    except api.InfsError as e:
        assert "loop-carried dependence" in str(e), str(e)
        refused = True
    found = _dynamic_dependence(api.parse_text(text, verify=False), rank)
    event(f"{'exact' if exact else 'general'} maps: {'refused' if refused else 'accepted'}, {'a' if found else 'no'} dependence on the cells")
    if not refused:
        assert not found, f"accepted a region with a loop-carried dependence:\n{text}"
    elif exact:
        assert found, f"refused a region without a loop-carried dependence:\n{text}"


# ---------------------------------------------------------------------------
# Dominance
# ---------------------------------------------------------------------------

DOMINANCE = {
    "own_result": (
        func(f"    %c = stream.load %a[d0] : {M1} -> {S}\n" + add("s", "c", "s") + f"    stream.store %s -> %a[d0] : {S} -> {M1}\n"),
        ":5:5: error: 'stream.compute' op operand #1 (%s) does not dominate this use",
    ),
    "each_other": (
        func(add("s", "t", "t") + add("t", "s", "s") + f"    stream.store %t -> %a[d0] : {S} -> {M1}\n"),
        ":4:5: error: 'stream.compute' op operand #0 (%t) does not dominate this use",
    ),
    "sibling_body": (
        func(
            f"    %c = stream.load %a[d0] : {M1} -> {S}\n"
            f"    %s = stream.compute(%c : {S}) -> {S} {{\n    ^bb1(%x: f32):\n      %v = arith.mulf %x, %w : f32\n      stream.yield %v : f32\n    }}\n"
            f"    %t = stream.compute(%c : {S}) -> {S} {{\n    ^bb1(%x: f32):\n      %w = arith.addf %x, %x : f32\n      stream.yield %w : f32\n    }}\n"
            f"    stream.store %s -> %a[d0] : {S} -> {M1}\n"
        ),
        ":7:7: error: 'arith.mulf' op operand #1 (%w) does not dominate this use",
    ),
    "for_step_in_body": (
        "func.func @f(%A: memref<?xf32>, %n: index) {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
        "  scf.for %i = %c0 to %n step %s {\n    %s = arith.addi %c1, %c1 : index\n  }\n"
        + func(f"    %c = stream.load %a[d0] : {M1} -> {S}\n    stream.store %c -> %a[d0] : {S} -> {M1}\n").split("\n", 1)[1],
        ":4:3: error: 'scf.for' op operand #2 does not dominate this use",
    ),
    "host_value_in_region": (
        func(
            f"    %c = stream.load %a[d0] : {M1} -> {S}\n"
            f"    %s = stream.compute(%c, %h : {S}, f32) -> {S} {{\n    ^bb1(%x: f32, %y: f32):\n      %z = arith.addf %x, %y : f32\n      stream.yield %z : f32\n    }}\n"
            f"    stream.store %s -> %a[d0] : {S} -> {M1}\n"
        ).replace("{\n  stream.region", "{\n  %h = arith.constant 1.0 : f32\n  stream.region", 1),
        "error: 'stream.compute' op operand #1 (%h) is defined outside the enclosing 'stream.region', which is isolated from above (pass it in as an operand)",
    ),
}


@pytest.mark.parametrize("name", sorted(DOMINANCE))
def test_dominance_is_one_error_in_every_mode(name, tmp_path, capsys):
    text, message = DOMINANCE[name]
    path = _write(tmp_path, name, text)
    lines = _errors_everywhere(path, capsys)
    assert len(set(lines)) == 1, lines
    assert lines[0].startswith(f"{path}:") and message in lines[0], lines[0]


def test_values_of_dominating_blocks_are_visible():
    """Multi-block regions: a value of a block that dominates the use is fine
    (and one of a block that does not is refused)."""
    ok = """func.func @g(%b: i1, %x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  cf.cond_br %b, ^then, ^join(%y : i32)
^then:
  %z = arith.addi %y, %x : i32
  cf.br ^join(%z : i32)
^join(%r: i32):
  %s = arith.addi %r, %y : i32
  func.return %s : i32
}
"""
    api.parse_text(ok)
    bad = ok.replace("%s = arith.addi %r, %y : i32", "%s = arith.addi %r, %z : i32")
    with pytest.raises(api.InfsError, match=r"<input>:8:3: error: 'arith.addi' op operand #1 \(%z\) does not dominate this use"):
        api.parse_text(bad)


def test_a_block_label_defined_twice_after_a_forward_reference_is_a_located_error():
    """Found by make fuzz: `cf.cond_br ... ^join`, then `^join:` twice, was a KeyError inside xDSL's parser."""
    text = (
        "func.func @f(%b: i1, %x: i32) -> i32 {\n  cf.cond_br %b, ^then, ^join\n^then:\n  cf.br ^join\n"
        "^join:\n  cf.br ^join\n^join:\n  func.return %x : i32\n}\n"
    )
    with pytest.raises(api.InfsError, match=r"^<input>:7:1: error: re-declaration of block 'join'"):
        api.parse_text(text)


def test_a_block_label_starting_with_a_digit_is_accepted_as_mlir_does():
    """Found by make fuzz: `cf.br ^0` then `^0:` (a suffix-id label, valid MLIR) made xDSL's Block name
    setter raise ValueError (infs-opt exit 70). It parses as an unnamed block, forward-referenced or not,
    and a second `^0:` is a located re-declaration error."""
    body = "func.func @f(%x: i32) -> i32 {{\n{}\n}}\n"
    forward = body.format("  cf.br ^0(%x : i32)\n^0(%y: i32):\n  cf.br ^1\n^1:\n  func.return %y : i32")
    printed = api.to_text(api.parse_text(forward))
    assert "cf.br ^bb1(%x : i32)" in printed and "^bb1(%y: i32):" in printed and "^bb2:" in printed
    twice = body.format("  cf.br ^0\n^0:\n  cf.br ^0\n^0:\n  func.return %x : i32")
    with pytest.raises(api.InfsError, match=r"^<input>:5:1: error: re-declaration of block '0'"):
        api.parse_text(twice)


def test_a_region_verifier_tolerates_a_malformed_store():
    """Found by make fuzz: a stream.store whose operandSegmentSizes property is misspelt made the region's
    loop-carried check crash (KeyError) before the store's own verifier could report it."""
    text = (
        "func.func @f(%A: memref<4xf32>) {\n"
        "  stream.region ins(%A : memref<4xf32>) domain [0:4] iterators [parallel] {\n"
        "  ^bb0(%a: memref<4xf32>):\n"
        "    %s = stream.load %a[d0] : memref<4xf32> -> !stream.stream<f32>\n"
        '    "stream.store"(%s, %a) <{map = #lattice.map<[d0]>, indirect_dims = array<i64>, perandSegmentSizes = array<i32: 1, 1, 0>}> : (!stream.stream<f32>, memref<4xf32>) -> ()\n'
        "    stream.yield\n  }\n  func.return\n}\n"
    )
    with pytest.raises(api.InfsError, match=r"^<input>:5:5: error: 'stream.store' op Expected operandSegmentSizes property"):
        api.parse_text(text)


def test_a_program_verifier_tolerates_a_malformed_array_entry():
    """Found by make fuzz: `"pimcmd.array"(...) <{..., wordline = 0 : f32, ...}>` reached the program's
    wordline-overlap check before the array op's own verifier, an AssertionError (infs-opt exit 70)."""
    from pathlib import Path

    text = (Path(__file__).parent / "lit" / "Inputs" / "all-ops-with-attributes.mlir").read_text()
    good = '"pimcmd.array"(%m) <{shape = array<i64: 4, 4>, wordline = 0 : i64, transposed}>'
    assert good in text
    api.parse_text(text)
    with pytest.raises(api.InfsError, match=r"^<input>:\d+:\d+: error: 'pimcmd.program' op expected an integer attribute, got 0.0+e\+00 : f32"):
        api.parse_text(text.replace(good, good.replace("wordline = 0 : i64", "wordline = 0 : f32")))


def test_an_upstream_verifier_raising_a_bare_exception_is_a_located_error():
    """Found by make fuzz: xDSL's scf.while verifier raises a bare Exception for a result type that does not
    match its block arguments (`scf.while (%k = %c0) : (index) -> i8`): infs-run exited 70."""
    text = (
        "func.func @f() {\n  %c0 = arith.constant 0 : index\n"
        "  %r = scf.while (%k = %c0) : (index) -> index {\n    %t = arith.constant false\n"
        "    scf.condition(%t) %k : index\n  } do {\n  ^bb0(%j: index):\n    scf.yield %j : index\n  }\n"
        "  func.return\n}\n"
    )
    api.parse_text(text)
    with pytest.raises(api.InfsError, match=r"^<input>:3:\d+: error: 'scf.while' op Block arguments with wrong type"):
        api.parse_text(text.replace("(index) -> index {", "(index) -> i8 {"))
