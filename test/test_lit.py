"""Runs the lit/FileCheck suite (test/lit) as one pytest test, so that
`make test` has a single pytest closing summary covering everything."""

import os
import re
import subprocess
import sys
from pathlib import Path

LIT_DIR = Path(__file__).parent / "lit"


def test_lit_suite():
    bin_dir = Path(sys.executable).parent
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    proc = subprocess.run(
        [str(bin_dir / "lit"), "-q", "--no-progress-bar", "-j2", str(LIT_DIR)],
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode == 0, f"lit failed:\n{proc.stdout}\n{proc.stderr}"


def test_lit_inputs_follow_the_run_lines():
    """Regression: the upstream-MLIR check globbed the lit files themselves, so a
    test whose IR lives in ``Inputs/`` (its RUN line reads ``%S/../Inputs/x.mlir``) was fed to
    infs-opt as if it were IR, and failed once the optional ``[mlir]`` extra was installed."""
    from lit_inputs import inputs_of, lit_inputs

    inputs_dir = (LIT_DIR / "Inputs").resolve()
    attrs = LIT_DIR / "dialects" / "discardable-attributes.mlir"
    assert inputs_of(attrs) == {inputs_dir / "all-ops-with-attributes.mlir"}
    # a negative run's input (`not infs-opt %S/../Inputs/parse-error.mlir`) is no input
    everything = lit_inputs(LIT_DIR)
    assert inputs_dir / "parse-error.mlir" not in everything
    assert attrs.resolve() not in everything
    # every input discovered parses and verifies
    from infs import api

    for path in everything:
        text = path.read_text(encoding="utf-8")
        for i, chunk in enumerate(re.split(r"^// -----\s*$", text, flags=re.MULTILINE)):
            # a chunk of comments only is an empty module (infs-opt prints one; tools/empty-input.mlir)
            if re.sub(r"//[^\n]*", "", chunk).strip():
                api.parse_text(chunk, name=f"{path}#{i}")
