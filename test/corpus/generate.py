#!/usr/bin/env python3
"""Regenerate ``test/corpus``: real upstream MLIR output for infs to read.

Each source -- the PolyBench kernels as cgeist prints them
(``test/polybench/*.mlir``) and the workloads as plain loops
(``infs/workloads/loops/*.mlir``) -- goes through each pipeline of
``PIPELINES`` with upstream MLIR's own passes, run by ``iree-opt`` (the
``iree-base-compiler`` wheel of the ``[mlir]`` extra), and what it prints is
``<pipeline>/<source>.mlir`` here, under a header naming the command.

The sources are read as they are, with ``--allow-unregistered-dialect``:
iree-opt registers no ``dlti`` dialect, so cgeist's data layout
(``#dlti.dl_spec<#dlti.dl_entry<k, v>, ...>``, the form before MLIR 19) is
kept as an opaque attribute and printed back unchanged.

    python test/corpus/generate.py           # rewrite the corpus with iree-opt
    python test/corpus/generate.py --check   # exit 1 if a committed file differs

``produce(source, pipeline, in_process=True)`` gives the same text through the
wheel's Python bindings (the same MLIR library iree-opt links, without a
process per file); ``test/test_corpus.py`` uses it to check the committed files.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

# directory -> the pipeline, in MLIR's textual pass-pipeline syntax
PIPELINES: dict[str, str] = {
    "affine-parallelize": "builtin.module(func.func(affine-parallelize))",
    "affine-parallelize-reductions": "builtin.module(func.func(affine-parallelize{parallel-reductions=true}))",
    "canonicalize": "builtin.module(canonicalize)",
    "affine-loop-fusion": "builtin.module(func.func(affine-loop-fusion))",
    "affine-loop-tile-4": "builtin.module(func.func(affine-loop-tile{tile-size=4}))",
    "affine-loop-unroll-3": "builtin.module(func.func(affine-loop-unroll{unroll-factor=3}))",
    "lower-affine": "builtin.module(lower-affine)",
}


def sources() -> dict[str, Path]:
    """Corpus name -> source file (the names do not clash)."""
    out = {p.stem: p for p in sorted((ROOT / "test" / "polybench").glob("*.mlir"))}
    for p in sorted((ROOT / "infs" / "workloads" / "loops").glob("*.mlir")):
        assert p.stem not in out, p
        out[p.stem] = p
    return out


def iree_opt() -> str:
    """The ``iree-opt`` beside this Python (the venv's), else on PATH."""
    here = Path(sys.executable).parent / "iree-opt"
    found = str(here) if here.exists() else shutil.which("iree-opt")
    if not found:
        raise SystemExit("generate.py: iree-opt not found: install the [mlir] extra (pip install -e '.[mlir]')")
    return found


def version() -> str:
    from importlib.metadata import version as dist_version

    return f"iree-base-compiler {dist_version('iree-base-compiler')}"


def header(name: str, pipeline: str) -> str:
    src = sources()[name].relative_to(ROOT)
    return (
        f"// iree-opt --allow-unregistered-dialect --pass-pipeline='{PIPELINES[pipeline]}' {src}\n"
        f"// ({version()}; written by test/corpus/generate.py, which regenerates it)\n"
    )


def produce(name: str, pipeline: str, in_process: bool = False) -> str:
    """The corpus file ``<pipeline>/<name>.mlir``: the header, then what upstream MLIR prints."""
    text = sources()[name].read_text()
    if in_process:
        from iree.compiler import ir
        from iree.compiler.passmanager import PassManager

        with ir.Context() as ctx:
            ctx.allow_unregistered_dialects = True
            module = ir.Module.parse(text)
            PassManager.parse(PIPELINES[pipeline], ctx).run(module.operation)
            body = str(module)
    else:
        proc = subprocess.run([iree_opt(), "--allow-unregistered-dialect", f"--pass-pipeline={PIPELINES[pipeline]}", "-"], input=text, capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"generate.py: iree-opt failed on {name} ({pipeline}):\n{proc.stderr}")
        body = proc.stdout.rstrip("\n") + "\n"  # (iree-opt ends with an empty line; the bindings' str() does not)
    return header(name, pipeline) + body


def corpus_files() -> list[tuple[str, str, Path]]:
    """(pipeline, source name, path) of every corpus file."""
    return [(p, n, HERE / p / f"{n}.mlir") for p in PIPELINES for n in sources()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the committed files instead of writing them")
    ap.add_argument("--in-process", action="store_true", help="run the passes through the Python bindings instead of iree-opt")
    args = ap.parse_args(argv)
    stale = []
    for pipeline, name, path in corpus_files():
        text = produce(name, pipeline, in_process=args.in_process)
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(str(path.relative_to(ROOT)))
            continue
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    if args.check and stale:
        print("generate.py: out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    if not args.check:
        print(f"generate.py: wrote {len(corpus_files())} files under {HERE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    os.chdir(ROOT)
    raise SystemExit(main())
