"""``infs-import-onnx model.onnx -o model.mlir``: an ONNX model as infs's linalg MLIR.

Takes an ONNX file (single batch, float32, the ops of docs/onnx.md); writes one
``func.func`` that ``infs-run`` runs.  ``--weights globals`` (default) keeps the
weights in the module as ``memref.global`` constants; ``--weights args`` makes
them arguments and writes each to ``<out>.weights/<name>.npy`` (for
``infs-run --input``).  A model infs cannot import is one line on stderr and
exit status 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="infs-import-onnx", description="Import an ONNX model as linalg MLIR for infs.")
    parser.add_argument("model")
    parser.add_argument("-o", "--output", help="the .mlir to write (default: stdout)")
    parser.add_argument("--weights", choices=("globals", "args"), default="globals")
    parser.add_argument("--function", help="the function's name (default: the graph's)")
    args = parser.parse_args(argv)
    try:
        import onnx  # noqa: F401
    except ImportError:
        print("infs-import-onnx: the onnx package is not installed (pip install 'infs[onnx]')", file=sys.stderr)
        return 1
    import numpy as np

    from infs.frontend.onnx_import import OnnxImportError, import_model

    try:
        prog = import_model(args.model, weights=args.weights, function=args.function)
    except OnnxImportError as e:
        print(f"infs-import-onnx: {e}", file=sys.stderr)
        return 1
    if args.output:
        out = Path(args.output)
        try:
            out.write_text(prog.text, encoding="utf-8")
            if args.weights == "args":
                folder = out.with_suffix(".weights")
                folder.mkdir(exist_ok=True)
                for name, arr in prog.weights.items():
                    np.save(folder / f"{name}.npy", arr)
        except OSError as e:
            print(f"infs-import-onnx: cannot write '{args.output}': {e.strerror}", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(prog.text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
