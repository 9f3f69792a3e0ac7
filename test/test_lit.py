"""Runs the lit/FileCheck suite (test/lit) as one pytest test, so that
`make test` has a single pytest closing summary covering everything."""

import os
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
