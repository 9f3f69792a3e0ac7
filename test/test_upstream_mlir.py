"""Optional upstream-MLIR compatibility check: infs's IR in generic form parses with upstream MLIR.

The generic form (``infs-opt --print-op-generic``) of every valid lit input
(``test/lit/**/*.mlir``, split at ``// -----``) and of every workload
(``infs/workloads/*.mlir``) must parse with upstream MLIR when unregistered
dialects are allowed (``mlir-opt --allow-unregistered-dialect``).

Upstream MLIR comes from the Python bindings of the ``iree-base-compiler``
wheel, pinned in ``pyproject.toml``'s ``mlir`` extra (~530 MB installed, hence
optional: ``pip install -e '.[mlir]'``).  Without it every test here is skipped.
Only the wheel's public module ``iree.compiler.ir`` is used.

The inputs are what the lit tests' RUN lines feed to ``infs-opt`` (``%s``, or a
file such as ``%S/../Inputs/x.mlir``), for every RUN line that is expected to
succeed: negative runs (``not infs-opt``, ``--verify-diagnostics``) and
expected failures (``XFAIL``) are left out.

Each chunk is parsed in the wheel's default context, where every upstream
dialect (func, arith, math, memref, scf, ...) is registered and verified -- as
in ``mlir-opt`` -- and unregistered dialects are allowed.  IREE registers a
dialect of its own named ``stream`` in that context (plain ``mlir-opt`` has
none), so infs's ``stream`` ops, types and attributes are renamed to an
unregistered prefix first; the syntax checked is unchanged.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from lit_inputs import lit_inputs

ir = pytest.importorskip("iree.compiler.ir", reason="upstream MLIR bindings (iree-base-compiler) not installed")

ROOT = Path(__file__).resolve().parent.parent
LIT_DIR = ROOT / "test" / "lit"
WORKLOADS = ROOT / "infs" / "workloads"
SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)
# infs's stream dialect, as it appears in generic form: "stream.op", !stream.type, #stream.attr
STREAM_PREFIX = re.compile(r'(["!#])stream\.')


INPUTS = lit_inputs(LIT_DIR) + sorted(WORKLOADS.glob("*.mlir"))


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


def _upstream_parse(text: str) -> str | None:
    """None when upstream MLIR parses (and verifies) ``text``, else its diagnostics."""
    ctx = ir.Context()
    ctx.allow_unregistered_dialects = True
    try:
        ir.Module.parse(STREAM_PREFIX.sub(r"\1infs_stream.", text), ctx)
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
        err = _upstream_parse(chunk)
        if err is not None:
            failures.append(f"chunk {i}: {err}")
    assert not failures, f"upstream MLIR rejects the generic form of {path.relative_to(ROOT)}:\n" + "\n".join(failures)
