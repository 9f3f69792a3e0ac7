"""``infs-import-onnx model.onnx -o model.mlir``: an ONNX model as infs's linalg MLIR.

Takes an ONNX file (single batch, float32, the ops of docs/onnx.md), or
``--model NAME`` one of PIMFlow's models built in code
(``infs.frontend.onnx_models``: ``--input-size``, ``--width``, ``--classes``,
``--seed``); writes one ``func.func`` that ``infs-run`` runs.
``--write-model FILE.onnx`` also writes the ONNX model (for another tool or
``onnx.reference``); ``--layers`` prints the model's layer table (type,
shapes, kernel, stride, groups, MACs) instead of importing it.  ``--weights globals`` (default) keeps the
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
    parser.add_argument("model", nargs="?", help="the ONNX file (or --model NAME)")
    parser.add_argument("-o", "--output", help="the .mlir to write (default: stdout)")
    parser.add_argument("--weights", choices=("globals", "args"), default="globals")
    parser.add_argument("--function", help="the function's name (default: the graph's)")
    built = parser.add_argument_group("models built in code (PIMFlow's, docs/onnx.md)")
    built.add_argument("--model", dest="builtin", metavar="NAME", help="efficientnet-b0, mnasnet-a1, mnasnet-b1, mobilenetv2, resnet50, vgg16, bert-base-fc")
    built.add_argument("--input-size", type=int, help="the image side (default 224) or, for bert-base-fc, the sequence length (default 64)")
    built.add_argument("--width", type=float, default=1.0, help="the width multiplier (default 1)")
    built.add_argument("--classes", type=int, default=1000, help="the classifier's outputs (default 1000)")
    built.add_argument("--seed", type=int, default=0, help="the weights' random seed (default 0)")
    built.add_argument("--write-model", metavar="FILE.onnx", help="also write the ONNX model")
    built.add_argument("--layers", action="store_true", help="print the model's layers (type, shapes, kernel, stride, groups, MACs) and do not import it")
    args = parser.parse_args(argv)
    if (args.model is None) == (args.builtin is None):
        print("infs-import-onnx: give an ONNX file or --model NAME (one of them)", file=sys.stderr)
        return 1
    if args.builtin is None and (args.input_size is not None or args.write_model):
        print("infs-import-onnx: --input-size and --write-model go with --model NAME", file=sys.stderr)
        return 1
    try:
        import onnx  # noqa: F401
    except ImportError:
        print("infs-import-onnx: the onnx package is not installed (pip install 'infs[onnx]')", file=sys.stderr)
        return 1
    import numpy as np

    from infs.frontend import onnx_models
    from infs.frontend.onnx_import import OnnxImportError, import_model, load_model

    source = args.model
    try:
        if args.builtin is not None:
            source = onnx_models.build(args.builtin, args.input_size, args.width, args.classes, args.seed, weights=not args.layers or bool(args.write_model))
            if args.write_model:
                onnx.save(source, args.write_model)
        if args.layers:
            sys.stdout.write(_layer_table(onnx_models.layers(source if args.builtin else load_model(args.model)), args.builtin or args.model))
            return 0
        prog = import_model(source, weights=args.weights, function=args.function)
    except (OnnxImportError, onnx_models.ModelError) as e:
        print(f"infs-import-onnx: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"infs-import-onnx: cannot write '{args.write_model}': {e.strerror}", file=sys.stderr)
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


def _layer_table(layers, name: str) -> str:
    """One line per layer with MACs (convs, FC), then the counts and the total."""
    rows = [f"{'layer':<24} {'kind':<10} {'input':<18} {'output':<18} {'kernel':>6} {'stride':>6} {'groups':>6} {'MACs':>14}"]
    for layer in layers:
        if layer.macs:
            k, st = f"{layer.kernel[0]}x{layer.kernel[1]}", f"{layer.stride[0]}"
            rows.append(f"{layer.name:<24} {layer.kind:<10} {'x'.join(map(str, layer.input_shape)):<18} {'x'.join(map(str, layer.output_shape)):<18} {k:>6} {st:>6} {layer.groups:>6} {layer.macs:>14,}")
    kinds = {}
    for layer in layers:
        if layer.macs:
            kinds[layer.kind] = kinds.get(layer.kind, 0) + 1
    rows.append(f"{name}: {len(layers)} nodes; " + ", ".join(f"{n} {k}" for k, n in kinds.items()) + f"; {sum(layer.macs for layer in layers):,} MACs")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
