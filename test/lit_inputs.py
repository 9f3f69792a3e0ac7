"""The inputs of the lit suite: the .mlir files its RUN lines give to ``infs-opt``.

A lit test's input is not always the test file itself (``infs-opt
%S/../Inputs/x.mlir | ... | filecheck %s``), so a check that wants every valid
input reads the RUN lines instead of globbing the tree.  Only RUN lines that are
expected to succeed count: negative runs (``not infs-opt``,
``--verify-diagnostics``, ``--parsing-diagnostics``) and expected failures (``XFAIL``) are left out.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

RUN_LINE = re.compile(r"^\s*//\s*RUN:\s?(.*)$", re.MULTILINE)

def _run_commands(text: str) -> list[str]:
    """The lit file's RUN commands, continuation lines joined."""
    cmds, cur = [], ""
    for line in RUN_LINE.findall(text):
        cur += line.rstrip()
        if cur.endswith("\\"):
            cur = cur[:-1] + " "
            continue
        cmds.append(cur)
        cur = ""
    return cmds


def inputs_of(path: Path) -> set[Path]:
    """The .mlir files that ``path``'s successful RUN lines give to ``infs-opt``."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if "XFAIL:" in text:
        return set()
    found = set()
    for cmd in _run_commands(text):
        for stage in cmd.split("|"):
            words = shlex.split(stage)
            if not words or words[0] != "infs-opt" or {"--verify-diagnostics", "--parsing-diagnostics"} & set(words):
                continue  # `not infs-opt ...` starts with "not": a negative run
            for w in words[1:]:
                w = w.replace("%s", str(path)).replace("%S", str(path.parent))
                if w.endswith(".mlir") and not w.startswith("-") and Path(w).is_file():
                    found.add(Path(w).resolve())
    return found


def lit_inputs(lit_dir: Path) -> list[Path]:
    out: set[Path] = set()
    for p in sorted(lit_dir.rglob("*.mlir")):
        rel = p.relative_to(lit_dir)
        if "Inputs" in rel.parts or "Output" in rel.parts:
            continue
        out |= inputs_of(p)
    return sorted(out)
