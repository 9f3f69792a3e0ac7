"""Every registered infs pass says what it does in ``infs-opt --help``.

The help line of a pass is the first line of its module docstring (``infs.tools.infs_opt``'s
``_summary``); the lower-pim steps are classes made by ``record_pass``, which must carry their
own module's docstring, not the shared one of ``infs.passes.lower_pim.pim_program``.  Each line must be
non-empty, a whole sentence (not the first half of a wrapped one), unique among the passes,
and not a generic phrase.
"""

from __future__ import annotations

import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

from infs.passes.pipelines import INFS_PASSES
from infs.tools.opt_driver import _summary

# Phrases a help line must not consist of or start with: they describe a module or a
# mechanism, not what a pass does.
GENERIC = (
    "the lower-pim passes' side",
    "a pass",
    "a module pass",
    "this pass",
    "this module",
    "todo",
    "helpers",
)

LINES = {name: _summary(factory()) for name, factory in INFS_PASSES.items()}


@pytest.mark.parametrize("name", list(INFS_PASSES))
def test_a_help_line_says_what_the_pass_does(name: str) -> None:
    line = LINES[name]
    assert line.strip(), f"{name}: empty help line"
    assert len(line.split()) >= 4, f"{name}: {line!r} is too short to say what the pass does"
    low = line.lower()
    assert not any(low.startswith(g) for g in GENERIC), f"{name}: generic help line {line!r}"
    # A whole first line: brackets and quotes balanced (an unbalanced one is a sentence cut
    # where the docstring wrapped), ending as a sentence ends.
    assert line.count("(") == line.count(")"), f"{name}: {line!r} is cut off"
    assert line.count('"') % 2 == 0, f"{name}: {line!r} is cut off"
    assert line.rstrip().endswith((".", ")")), f"{name}: {line!r} does not end as a sentence"
    # it speaks of the software, not of documents outside the repository
    assert "DESIGN" not in line, f"{name}: {line!r} cites a document the repository does not have"


def test_help_lines_are_unique() -> None:
    seen: dict[str, str] = {}
    for name, line in LINES.items():
        assert line not in seen, f"{name} and {seen.get(line)} share the help line {line!r}"
        seen[line] = name


@pytest.mark.parametrize("name", list(INFS_PASSES))
def test_the_docstring_is_the_pass_s_own(name: str) -> None:
    """The module docstring read for the help line opens with the pass's own name, and the
    class is importable under the name its module binds (pickle finds it)."""
    cls = INFS_PASSES[name]()
    assert cls.name == name
    doc = sys.modules[cls.__module__].__doc__ or ""
    assert doc.startswith(f"``{name}``:"), f"{name}: help read from {cls.__module__}, whose docstring is {doc[:60]!r}"
    module = name.replace("-", "_")
    # infs/passes/<module>.py, or a pipeline's or a target's package: infs/passes/<package>/<module>.py
    assert cls.__module__.startswith("infs.passes.") and cls.__module__.rsplit(".", 1)[1] == module and cls.__module__.count(".") <= 3
    assert getattr(sys.modules[cls.__module__], cls.__qualname__) is cls
    assert pickle.loads(pickle.dumps(cls())) == cls()


def test_infs_opt_help_prints_each_line() -> None:
    """The printed --help: one line per pass, with the summary beside its flag."""
    exe = Path(sys.executable).with_name("infs-opt")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "infs.tools.infs_opt"]
    out = subprocess.run([*cmd, "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    for name, line in LINES.items():
        assert re.search(rf"^  --{re.escape(name)}\b.*\n?.*{re.escape(line)}$", text, re.M), f"--{name}'s line missing from --help"
