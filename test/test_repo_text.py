"""The repository speaks of the software only: no tracker numbers, run names or
machine paths in its tracked files (docs, help texts, comments, tests).

History belongs in ``CHANGELOG.md`` and the commit log, which are not checked.
Skipped outside a git checkout (an installed package has no tracked files).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Spelled in pieces so that this file does not match itself.
HISTORY = "|".join(("iss" + "ue [0-9]", "[Ss]ess" + "ion [0-9]", "hel" + "per-[0-9]"))
MACHINE = "|".join(("\\.\\./sha" + "red/", "/wo" + "rk/", "/tmp/" + "rt", "DES" + "IGN §", "DES" + "IGN\\.md"))


def _git_grep(pattern: str) -> list[str]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    out = subprocess.run(["git", "grep", "-nIE", pattern, "--", ".", ":!CHANGELOG.md"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)  # fmt: skip
    if out.returncode not in (0, 1):  # 1: no match
        pytest.skip(f"git grep failed: {out.stderr.strip()}")
    return out.stdout.splitlines()


def test_no_tracker_numbers_or_run_names() -> None:
    hits = _git_grep(HISTORY)
    assert not hits, "say what the code does, not where it came from:\n" + "\n".join(hits[:20])


def test_no_machine_paths_or_design_note_references() -> None:
    hits = _git_grep(MACHINE)
    assert not hits, "machine paths or references to a document outside the repository:\n" + "\n".join(hits[:20])
