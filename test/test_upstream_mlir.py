"""Optional upstream-MLIR compatibility check (DESIGN §3, issue 2).

The generic form (``infs-opt --print-op-generic``) of every valid lit input
(``test/lit/**/*.mlir``, split at ``// -----``) and of every workload
(``infs/workloads/*.mlir``) must parse with upstream MLIR when unregistered
dialects are allowed (``mlir-opt --allow-unregistered-dialect``).

Upstream MLIR comes from the Python bindings of the ``iree-base-compiler``
wheel (``from iree.compiler import ir``; ~530 MB installed, hence optional:
``pip install -e '.[mlir]'``).  Without it every test here is skipped.

Lit files that are not inputs of a successful run are left out: negative
tests (``--verify-diagnostics``, ``not infs-opt``), expected failures
(``XFAIL``), and the helper files under ``Inputs/``.

Each chunk is parsed twice:

* in a bare MLIR context (only the builtin dialect; every other op, type and
  attribute is unregistered): the text must be valid generic MLIR syntax;
* in the wheel's default context, where every upstream dialect (func, arith,
  math, memref, scf, ...) is registered and verified -- as in ``mlir-opt`` --
  unless the chunk uses the ``stream`` dialect: IREE registers a dialect of
  its own named ``stream`` in that context, which rejects ``!stream.stream<..>``
  ("unknown type `stream` in dialect `stream`"); plain ``mlir-opt`` has no
  such dialect.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ir = pytest.importorskip("iree.compiler.ir", reason="upstream MLIR bindings (iree-base-compiler) not installed")
# The nanobind Context before IREE's site initialization wraps it with a
# registry of every dialect (upstream and IREE's).
BareContext = pytest.importorskip("iree.compiler._mlir_libs._mlir").ir._Context

ROOT = Path(__file__).resolve().parent.parent
LIT_DIR = ROOT / "test" / "lit"
WORKLOADS = ROOT / "infs" / "workloads"
SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)
NOT_AN_INPUT = re.compile(r"--verify-diagnostics|\bnot\s+infs-opt|XFAIL:")
USES_STREAM = re.compile(r"[\"!]stream\.")


def _lit_inputs() -> list[Path]:
    out = []
    for p in sorted(LIT_DIR.rglob("*.mlir")):
        rel = p.relative_to(LIT_DIR)
        if "Inputs" in rel.parts or "Output" in rel.parts:
            continue
        if NOT_AN_INPUT.search(p.read_text(encoding="utf-8", errors="replace")):
            continue
        out.append(p)
    return out


INPUTS = _lit_inputs() + sorted(WORKLOADS.glob("*.mlir"))


def _generic_chunks(path: Path) -> list[str]:
    """``infs-opt FILE --split-input-file --print-op-generic``, one string per chunk."""
    proc = subprocess.run(
        [sys.executable, "-m", "infs.tools.infs_opt", str(path), "--split-input-file", "--print-op-generic"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, f"infs-opt failed on {path}:\n{proc.stderr}"
    return [c for c in SPLIT.split(proc.stdout) if c.strip()]


def _upstream_parse(text: str, registered: bool) -> str | None:
    """None when upstream MLIR parses (and verifies) ``text``, else its diagnostics."""
    ctx = ir.Context() if registered else BareContext()
    ctx.allow_unregistered_dialects = True
    try:
        ir.Module.parse(text, ctx)
    except Exception as e:  # MLIRError carries the upstream diagnostics
        return " ".join(str(e).split())
    return None


def test_there_are_inputs():
    assert any(p.is_relative_to(LIT_DIR) for p in INPUTS)
    assert any(p.is_relative_to(WORKLOADS) for p in INPUTS)


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_generic_form_parses_upstream(path: Path):
    chunks = _generic_chunks(path)
    assert chunks, f"no output for {path}"
    failures = []
    for i, chunk in enumerate(chunks):
        err = _upstream_parse(chunk, registered=False)
        if err is not None:
            failures.append(f"chunk {i} (bare context): {err}")
        elif not USES_STREAM.search(chunk):
            err = _upstream_parse(chunk, registered=True)
            if err is not None:
                failures.append(f"chunk {i} (upstream dialects registered): {err}")
    assert not failures, f"upstream MLIR rejects the generic form of {path.relative_to(ROOT)}:\n" + "\n".join(failures)
