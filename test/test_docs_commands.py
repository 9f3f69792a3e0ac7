"""Every command the documentation shows runs and prints what the documentation says.

The docs (README.md, CONTRIBUTING.md, docs/*.md) mark checked examples as fenced
```console blocks:

    $ infs-opt --tensorize infs/workloads/vec_add.mlir     <- a command (bash, from the repository root)
    builtin.module {                                       <- lines its output must contain, in order
    ...                                                    <- any number of elided lines
      tdfg.graph ins(%A, %B, %C ...                        <- '...' inside a line: any text there

Expected lines not separated by a `...` line are consecutive lines of the output
(stdout and stderr together, as a terminal shows them), compared with runs of
blanks squeezed to one (tables pad to their widest cell).
A command ends with `# exit N` when it must exit with status N (default 0). The
installed tools (infs-opt, infs-run, ...) are the venv's, first on PATH. ```sh
blocks are not run: they show commands that take minutes or need a cluster.

The ```python blocks of README.md, docs/tour.md and docs/user-guide.md run too, each file's
in order in one interpreter (docs/python-api.md's are run by test_driver_api).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
EXIT = re.compile(r"\s+#\s*exit\s+(\d+)\s*$")


@dataclass
class Example:
    doc: str
    line: int  # the `$` line, 1-based
    command: str
    status: int
    expected: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def examples_of(path: Path) -> list[Example]:
    """The `$` commands of the ```console blocks of one markdown file."""
    out: list[Example] = []
    in_block = False
    current: Example | None = None
    for no, line in enumerate(path.read_text().splitlines(), 1):
        stripped = line.strip()
        if not in_block:
            in_block = stripped == "```console"
            continue
        if stripped.startswith("```"):
            in_block, current = False, None
            continue
        if line.startswith("$ "):
            command, status = line[2:], 0
            m = EXIT.search(command)
            if m:
                command, status = command[: m.start()], int(m.group(1))
            current = Example(str(path.relative_to(ROOT)), no, command.strip(), status)
            out.append(current)
        elif current is not None:
            current.expected.append(line.rstrip())
        elif stripped:
            raise AssertionError(f"{path.name}:{no}: a console block must start with a '$ ' command line")
    return out


def squeeze(line: str) -> str:
    """A line with its runs of blanks as one: a table's padding follows its widest
    cell (a wall time), which is not what a doc example shows."""
    return " ".join(line.split())


def line_pattern(expected: str) -> re.Pattern[str]:
    """An expected line, `...` in it standing for any text."""
    return re.compile(".*".join(re.escape(squeeze(part)) for part in expected.split("...")))


def missing(expected: list[str], output: list[str]) -> str | None:
    """None when `expected` (runs of consecutive lines, `...` lines between runs) is in
    `output` in order; else the first expected line that could not be matched."""
    runs: list[list[str]] = [[]]
    for e in expected:
        if e.strip() == "...":
            runs.append([])
        elif e.strip():
            runs[-1].append(e)
        # a blank expected line is layout, not a check
    pos = 0
    for run in runs:
        if not run:
            continue
        pats = [line_pattern(e) for e in run]
        found = None
        for start in range(pos, len(output) - len(run) + 1):
            if all(p.fullmatch(output[start + k]) for k, p in enumerate(pats)):
                found = start
                break
        if found is None:
            # name the first line of the run that does not match anywhere after pos
            for e, p in zip(run, pats):
                if not any(p.fullmatch(o) for o in output[pos:]):
                    return e
            return run[0] + "   (the run's lines are not consecutive in the output)"
        pos = found + len(run)
    return None


EXAMPLES = [ex for doc in DOCS if doc.exists() for ex in examples_of(doc)]


def test_the_docs_have_checked_examples():
    docs = {ex.doc for ex in EXAMPLES}
    assert "README.md" in docs
    assert len(EXAMPLES) >= 30, [ex.id for ex in EXAMPLES]


def test_the_matcher_fails_when_it_should():
    out = [squeeze(o) for o in ["a", "b x  c", "d", "e"]]
    assert missing(["a", "b ... c"], out) is None
    assert missing(["a", "...", "e"], out) is None
    assert missing(["a", "d"], out) is not None  # not consecutive
    assert missing(["e", "...", "a"], out) is not None  # not in order
    assert missing(["b c"], out) == "b c"
    assert missing(["b ..."], out) is None
    assert missing(["b x c"], out) is None  # padding is not compared


PYTHON_DOCS = ["README.md", "docs/tour.md", "docs/user-guide.md"]


@pytest.mark.parametrize("doc", PYTHON_DOCS)
def test_a_doc_s_python_examples_run(doc: str):
    blocks = re.findall(r"^```python\n(.*?)^```", (ROOT / doc).read_text(), re.S | re.M)
    assert blocks, f"{doc} has no python example"
    proc = subprocess.run(
        [sys.executable, "-c", "\n\n".join(blocks)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, f"{doc}'s python examples failed:\n{proc.stderr[-3000:]}"


_RUNS: dict[str, tuple[int, str]] = {}  # a command the README and a page both show runs once


def run_command(command: str) -> tuple[int, str]:
    if command not in _RUNS:
        env = dict(os.environ)
        env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
        env["COLUMNS"] = "100"  # rich's tables, as a 100-column terminal shows them
        env.pop("INFS_DEBUG", None)
        proc = subprocess.run(
            ["bash", "-c", command],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=120,
        )
        _RUNS[command] = (proc.returncode, proc.stdout)
    return _RUNS[command]


@pytest.mark.parametrize("ex", EXAMPLES, ids=[ex.id for ex in EXAMPLES])
def test_a_documented_command_prints_what_the_doc_says(ex: Example):
    status, text = run_command(ex.command)
    output = [line.rstrip() for line in text.splitlines()]
    shown = "\n".join(output[:80])
    output = [squeeze(line) for line in output]
    assert status == ex.status, f"{ex.id}: `{ex.command}` exited {status}, the doc says {ex.status}:\n{shown}"
    gone = missing(ex.expected, output)
    assert gone is None, f"{ex.id}: `{ex.command}` did not print {gone!r}; it printed:\n{shown}"


LINK = re.compile(r"\]\(([^)\s]+)\)|^\[[^\]]+\]:\s*(\S+)", re.M)


def slug(heading: str) -> str:
    """GitHub's anchor of a markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(), flags=re.S | re.M)
    return {slug(m) for m in re.findall(r"^#+\s+(.*)$", text, re.M)}


def test_every_relative_link_of_the_docs_resolves():
    """A link to a file of the repository names one that exists, and an anchor
    (`page.md#section`) a heading of that page; the docs link nothing outside."""
    bad = []
    for doc in [*DOCS, ROOT / "CHANGELOG.md"]:
        if not doc.exists():
            continue
        text = re.sub(r"^```.*?^```", "", doc.read_text(), flags=re.S | re.M)
        for m in LINK.finditer(text):
            target = m.group(1) or m.group(2)
            if re.match(r"[a-z]+:", target):
                continue  # https:, mailto:
            path, _, anchor = target.partition("#")
            dest = (doc.parent / path).resolve() if path else doc
            where = f"{doc.relative_to(ROOT)}: ({target})"
            if ROOT not in dest.parents and dest != ROOT:
                bad.append(f"{where} points outside the repository")
            elif not dest.exists():
                bad.append(f"{where} does not exist")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                bad.append(f"{where} has no heading #{anchor}")
    assert not bad, "\n".join(bad)
