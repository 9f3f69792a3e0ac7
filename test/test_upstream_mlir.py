"""The upstream check (docs/upstream-mlir.md): what infs prints, upstream MLIR reads.

The generic form (``--print-op-generic``) of infs-opt's output must parse and
verify in upstream MLIR with unregistered dialects allowed
(``mlir-opt --allow-unregistered-dialect``), for

* every lit input as read, and through exactly the infs-opt stages its RUN lines run
  (each stage of ``infs-opt ... | infs-opt ...``; only RUN lines expected to
  succeed: not ``not infs-opt``, ``--verify-diagnostics``,
  ``--parsing-diagnostics`` or an ``XFAIL`` file; a file is split at
  ``// -----`` only when its RUN line says ``--split-input-file``);
* every workload (``infs/workloads/*.mlir``): as read, after ``--tensorize``
  and after ``--tensorize --lower-pim`` (its small sizes, ``small-16``);
* every workload as plain loops (``infs/workloads/loops/*.mlir``): as read,
  after ``--extract-streams``, then ``--tensorize``, then ``--lower-pim``.

infs-opt runs in-process (``infs.tools.infs_opt.main``), upstream MLIR through
the Python bindings of the ``iree-base-compiler`` wheel (the ``[mlir]`` extra,
``pip install -e '.[mlir]'``; ``.ci/run`` installs it).  Without it the tests
skip and say so, except under ``CI=true``, where they fail.

Each output is parsed twice:

1. in a context with no dialect registered (``_mlir.ir._Context``, the
   bindings' own class before IREE's start-up hook adds its registry): the
   text as infs prints it, the dialect name ``stream`` included, is checked
   as syntax only;
2. in the wheel's default context, where the upstream dialects (builtin,
   func, arith, math, memref, affine, scf, linalg, ...) are registered and
   their verifiers run, as in ``mlir-opt``.  IREE registers a dialect of its
   own named ``stream`` there (plain ``mlir-opt`` has none), and the wheel
   offers no way to register the upstream dialects without it (see
   docs/upstream-mlir.md, "Why the dialect is called stream"), so infs's
   ``stream.`` ops, types and attributes are renamed to an unregistered
   prefix for this parse only.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import tempfile
from pathlib import Path

import numpy as np
import pytest
from lit_inputs import _run_commands

from infs.tools import infs_opt
from infs.workloads import WORKLOADS

try:
    from iree.compiler import ir
    from iree.compiler._mlir_libs import _mlir
except ImportError:  # the [mlir] extra is not installed
    ir = _mlir = None

ROOT = Path(__file__).resolve().parent.parent
LIT_DIR = ROOT / "test" / "lit"
WORKLOADS_DIR = ROOT / "infs" / "workloads"
CI = os.environ.get("CI", "").lower() == "true"
SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)
# infs's stream dialect as the generic form spells it: "stream.op", !stream.type, #stream.attr
STREAM_PREFIX = re.compile(r'(["!#])stream\.')
# shell redirections in a RUN stage: not infs-opt's arguments
REDIRECT = re.compile(r"^(\d?>>?|&>|<|\d?>&\d)")


# -- what the lit RUN lines run ---------------------------------------------------


def _stage_args(words: list[str], path: Path) -> list[str] | None:
    """infs-opt's arguments of one RUN stage (``%s``/``%S`` substituted,
    redirections dropped); None if it reads a file lit makes (``%t``)."""
    out, skip = [], False
    for w in words[1:]:
        if skip:
            skip = False
            continue
        if REDIRECT.match(w):
            skip = w in (">", ">>", "<", "2>", "1>", "&>")  # the target is the next word
            continue
        if "%t" in w:
            return None
        out.append(w.replace("%s", str(path)).replace("%S", str(path.parent)))
    return out


def lit_runs(path: Path) -> list[list[list[str]]]:
    """The infs-opt chains of ``path``'s RUN lines expected to succeed, each a
    list of stages' arguments; the first stage names its input file."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if "XFAIL:" in text:
        return []
    chains = []
    for cmd in _run_commands(text):
        chain: list[list[str]] = []
        for stage in cmd.split("|"):
            words = shlex.split(stage)
            if not words or words[0] != "infs-opt" or {"--verify-diagnostics", "--parsing-diagnostics"} & set(words):
                break  # (`not infs-opt` starts with "not")
            args = _stage_args(words, path)
            if args is None:
                break
            chain.append(args)
        if chain and any(a.endswith(".mlir") and Path(a).is_file() for a in chain[0]):
            chains.append(chain)
    return chains


LIT_FILES = [p for p in sorted(LIT_DIR.rglob("*.mlir")) if not {"Inputs", "Output"} & set(p.relative_to(LIT_DIR).parts) and lit_runs(p)]


def _lower_pim(path: Path, before: str) -> str:
    """``lower-pim{sizes=... config=small-16}`` binding every symbol of the
    graphs ``before,tensorize`` makes of ``path``: a workload's size at its
    small value, any other symbol (a host loop's index, a scalar the host
    loads: the JIT binds them at each call) at 1, one instance of the graph."""
    from infs import api

    w = WORKLOADS[path.stem]
    module = api.parse_file(path)
    api.run_pipeline(module, f"{before},tensorize" if before else "tensorize")
    small = {k.lower(): v for k, v in w.small.items() if k in w.args}
    names = sorted({n for g in module.walk() if g.name == "tdfg.graph" for n in g.names})
    sizes = ",".join(f"{n}={small.get(n.lower(), 1)}" for n in names)
    return f"lower-pim{{sizes={sizes} config=small-16}}"


def workload_stages() -> list[tuple[Path, list[str]]]:
    """(file, infs-opt's pipeline) of every workload stage; "lower-pim" stands
    for ``_lower_pim``'s bindings, found when the test runs."""
    out = []
    for name in sorted(WORKLOADS):
        stream, loops = WORKLOADS_DIR / f"{name}.mlir", WORKLOADS_DIR / "loops" / f"{name}.mlir"
        out += [(stream, []), (stream, ["tensorize"]), (stream, ["tensorize", "lower-pim"])]
        out += [(loops, []), (loops, ["extract-streams"]), (loops, ["extract-streams", "tensorize"]), (loops, ["extract-streams", "tensorize", "lower-pim"])]
    return out


# -- running infs-opt and upstream MLIR -------------------------------------------


def infs_opt_generic(args: list[str]) -> str:
    """``infs-opt ARGS --print-op-generic``, in-process; its stdout."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = infs_opt.main([*args, "--print-op-generic"])
    assert rc == 0, f"infs-opt {shlex.join(args)} failed (exit {rc}):\n{err.getvalue()}"
    return out.getvalue()


class Upstream:
    def __init__(self) -> None:
        self.bare = _mlir.ir._Context()  # no dialect registered: syntax only
        self.bare.allow_unregistered_dialects = True
        self.full = ir.Context()  # upstream's dialects (and IREE's), verified
        self.full.allow_unregistered_dialects = True

    def errors(self, text: str, generic: bool = True) -> list[str]:
        """upstream MLIR's diagnostics for each chunk of ``text`` it rejects
        (custom form, ``generic=False``: in the default context only, the
        context without dialects reads only the generic form)."""
        out = []
        for i, chunk in enumerate(c for c in SPLIT.split(text) if c.strip()):
            for what, ctx, body in (("syntax", self.bare, chunk), ("verifier", self.full, STREAM_PREFIX.sub(r"\1infs_stream.", chunk)))[0 if generic else 1 :]:
                try:
                    _mlir.ir.Module.parse(body, ctx) if ctx is self.bare else ir.Module.parse(body, ctx)
                except Exception as e:  # MLIRError carries the upstream diagnostics
                    out.append(f"chunk {i} ({what}): {' '.join(str(e).split())[:600]}")
                    break
        return out


@pytest.fixture(scope="module")
def upstream() -> Upstream:
    if ir is None:
        if CI:
            pytest.fail("CI=true but the [mlir] extra (iree-base-compiler) is not installed: .ci/run installs it with pip install -e '.[mlir]'")
        pytest.skip("upstream MLIR (the [mlir] extra, iree-base-compiler) is not installed: pip install -e '.[mlir]'")
    return Upstream()


# -- the tests --------------------------------------------------------------------


def test_the_check_has_inputs():
    assert len(LIT_FILES) > 20
    assert {p.parent for p, _ in workload_stages()} == {WORKLOADS_DIR, WORKLOADS_DIR / "loops"}


def test_a_split_marker_inside_a_line_is_not_a_split():
    """empty-input.mlir's RUN line holds ``// -----`` inside a printf and runs
    infs-opt on the file whole: it is checked whole (split, it is two chunks
    that neither infs-opt nor mlir-opt reads)."""
    path = LIT_DIR / "tools" / "empty-input.mlir"
    chains = lit_runs(path)
    assert path in LIT_FILES and chains
    assert all("--split-input-file" not in stage for chain in chains for stage in chain)


def test_the_checker_refuses_what_upstream_refuses(upstream):
    """A loop index used as an affine symbol (what xDSL 0.74's parser made of
    ``affine.load %A[%i]``) is refused; the same access with the index as a
    dim is not; infs's stream ops parse in both contexts."""
    head = '"func.func"() <{sym_name = "f", function_type = (memref<?xf64>, index) -> ()}> ({\n^bb0(%A: memref<?xf64>, %n: index):\n'
    loop = '"affine.for"(%n) <{lowerBoundMap = affine_map<() -> (0)>, upperBoundMap = affine_map<()[s0] -> (s0)>, step = 1 : index, operandSegmentSizes = array<i32: 0, 1, 0>}> ({\n^bb1(%i: index):\n'
    tail = '"affine.yield"() : () -> ()\n}) : (index) -> ()\n"func.return"() : () -> ()\n}) : () -> ()\n'

    def access(m):
        return f'%x = "affine.load"(%A, %i) <{{map = affine_map<{m}>}}> : (memref<?xf64>, index) -> f64\n'

    assert upstream.errors(head + loop + access("()[s0] -> (s0)") + tail)
    assert "cannot be used as a symbol" in upstream.errors(head + loop + access("()[s0] -> (s0)") + tail)[0]
    assert upstream.errors(head + loop + access("(d0) -> (d0)") + tail) == []
    region = '"stream.region"(%n) : (index) -> ()\n'
    assert upstream.errors(head + region + '"func.return"() : () -> ()\n}) : () -> ()\n') == []


@pytest.mark.parametrize("path", LIT_FILES, ids=lambda p: str(p.relative_to(LIT_DIR)))
def test_lit_outputs_parse_upstream(path: Path, upstream: Upstream):
    failures = []
    chains = lit_runs(path)
    # each input as read (split as its RUN line splits it), then each chain's stages
    reads = {(next(a for a in c[0] if a.endswith(".mlir") and Path(a).is_file()), "--split-input-file" in c[0]) for c in chains}
    for src, split in sorted(reads):
        args = [src, "--split-input-file"] if split else [src]
        failures += [f"infs-opt {shlex.join(args)}: {e}" for e in upstream.errors(infs_opt_generic(args))]
    for chain in chains:
        with tempfile.TemporaryDirectory() as tmp:
            src = None
            for k, args in enumerate(chain):
                if src is not None:  # a later stage of `infs-opt ... | infs-opt ...` reads the one before
                    args = [a for a in args if a != "-"] + [src]
                text = infs_opt_generic(args)
                src = str(Path(tmp) / f"stage{k}.mlir")
                Path(src).write_text(text)
                errs = upstream.errors(text)
                failures += [f"infs-opt {shlex.join(args)}: {e}" for e in errs]
    assert not failures, "upstream MLIR rejects infs's output:\n" + "\n".join(failures)


@pytest.mark.parametrize("path, pipeline", workload_stages(), ids=lambda x: str(x.relative_to(WORKLOADS_DIR)) if isinstance(x, Path) else ("+".join(x) or "read"))
def test_workload_stage_parses_upstream(path: Path, pipeline: list[str], upstream: Upstream):
    passes = [_lower_pim(path, ",".join(pipeline[:-2])) if p == "lower-pim" else p for p in pipeline]
    args = [str(path), "-p", ",".join(passes)] if passes else [str(path)]
    errs = upstream.errors(infs_opt_generic(args))
    assert not errs, f"upstream MLIR rejects infs-opt {shlex.join(args)}:\n" + "\n".join(errs)


# -- Python kernels ------------------------------------------------------------------
# (@infs.kernel emits affine MLIR itself: loop variables must be dims, arguments symbols)


def _triangle(A, B, n: int):
    for i in range(n):
        for j in range(i, n - 1):
            B[i, j] = A[j + 1, i] * 2.0 + A[i, n - 1 - j]


def _strided_sum(A, n: int):
    s = 0.0
    for i in range(1, n, 2):
        s += A[i // 2] + A[n - i]
    return s


def _gather(A, idx, B, n: int):
    for i in range(n):
        B[i] = A[idx[i]]


KERNELS = {
    "triangle": (_triangle, lambda: (np.zeros((9, 9)), np.zeros((9, 9)), 7)),
    "strided_sum": (_strided_sum, lambda: (np.zeros(20), 9)),
    "gather": (_gather, lambda: (np.zeros(10), np.zeros(10, dtype=np.int64), np.zeros(10), 5)),
}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_python_kernel_parses_upstream(name: str, upstream: Upstream):
    """Generic and custom form: a kernel's module holds upstream's dialects only."""
    import infs
    from infs import api

    fn, args = KERNELS[name]
    module = infs.kernel(fn).module(*args())
    for generic in (True, False):
        errs = upstream.errors(api.to_text(module, generic=generic), generic=generic)
        assert not errs, f"{name} ({'generic' if generic else 'custom'} form):\n" + "\n".join(errs)
