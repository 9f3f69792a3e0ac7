"""``infs-opt``: the infs optimizer driver (an ``xDSLOptMain``).

Accepts xDSL pipelines (``-p 'a{x=1 y=2},b'``) and MLIR-style pass flags
(``--tensorize --lower-pim='sizes=N=64 config=tiny'``, ``--pass-pipeline=
'builtin.module(a,b)'``).  Every error is one line with file:line:col where
known, and a non-zero exit; no tracebacks.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Sequence
from typing import IO, NoReturn

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline
from xdsl.xdsl_opt_main import xDSLOptMain

from infs import api
from infs.dialects import INFS_DIALECTS

PROG = "infs-opt"
_PIPELINE_FLAGS = ("-p", "--passes")


class InfsOptMain(xDSLOptMain):
    version_format = "infs-opt (infs 0.1.0) built on xdsl {xdsl_version}"

    def register_all_dialects(self) -> None:
        super().register_all_dialects()
        for d in INFS_DIALECTS:
            self.ctx.register_dialect(d.name, lambda d=d: d)

    def register_all_passes(self) -> None:
        for name, factory in api.available_passes().items():
            self.register_pass(name, factory)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.prog = PROG

        def one_line_error(message: str) -> NoReturn:
            print(f"{PROG}: error: {message}", file=sys.stderr)
            raise SystemExit(2)

        arg_parser.error = one_line_error  # type: ignore[method-assign]

    def register_all_frontends(self) -> None:
        super().register_all_frontends()

        def parse_mlir(io: IO[bytes]) -> ModuleOp:
            return api.parse_text(io.read().decode("utf-8", errors="replace"), self.get_input_name(), self.ctx)

        self.available_frontends["mlir"] = parse_mlir

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0) -> ModuleOp | None:
        if file_extension != "mlir":
            return super().parse_chunk(chunk, file_extension, start_offset)
        data = chunk.read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise api.InfsError(f"'{self.get_input_name()}' is not a UTF-8 text file") from None
        return api.parse_text(text, self.get_input_name(), self.ctx, line_offset=start_offset)

    def setup_pipeline(self) -> None:
        self.pipeline = PassPipeline(api.parse_pipeline(self.args.passes, self.available_passes))

    def apply_passes(self, prog: ModuleOp) -> None:
        api.run_pipeline(prog, self.pipeline.passes, self.ctx, verify_each=not self.args.disable_verify)

    def run(self) -> None:
        try:
            chunks, file_extension = self.prepare_input()
        except ValueError as e:
            raise api.InfsError(str(e)) from None
        output = self.prepare_output()
        try:
            for i, (chunk, offset) in enumerate(chunks):
                if i > 0:
                    output.write("// -----\n")
                try:
                    module = self.parse_chunk(chunk, file_extension, offset)
                    if module is not None:
                        self.apply_passes(module)
                        output.write(self.output_resulting_program(module))
                except api.InfsError as e:
                    if not self.args.verify_diagnostics:
                        raise
                    output.write(f"{e}\n")  # checked by FileCheck, exit 0 (xDSL convention)
                finally:
                    chunk.close()
                output.flush()
        finally:
            if output is not sys.stdout:
                output.close()


def translate_mlir_style(argv: Sequence[str], pass_names: Sequence[str], passes: dict | None = None) -> list[str]:
    """Turn ``--pass[=opts]`` and ``--pass-pipeline=builtin.module(..)`` into one ``-p``."""
    names = set(pass_names)
    passes = passes or {}
    pieces: list[str] = []
    rest: list[str] = []
    it = iter(argv)
    for arg in it:
        if arg in _PIPELINE_FLAGS:
            value = next(it, None)
            if value is None:
                rest.append(arg)  # let argparse complain
            elif value.strip():
                pieces.append(value)
            continue
        if arg.startswith(("-p=", "--passes=")):
            pieces.append(arg.split("=", 1)[1])
            continue
        if arg.startswith("--pass-pipeline="):
            spec = arg.split("=", 1)[1].strip()
            if spec.startswith("builtin.module(") and spec.endswith(")"):
                spec = spec[len("builtin.module(") : -1]
            if spec:
                pieces.append(spec)
            continue
        if arg.startswith("--") and len(arg) > 2:
            name, _, opts = arg[2:].partition("=")
            if name in names:
                opts = _quote_option_values(opts.strip().strip("{}"), _str_options(passes.get(name)))
                pieces.append(f"{name}{{{opts}}}" if opts else name)
                continue
        rest.append(arg)
    return (["-p", ",".join(pieces)] if pieces else []) + rest


def _str_options(factory) -> set[str]:
    """Names of a pass's string-typed options (their values are quoted for xDSL)."""
    if factory is None:
        return set()
    import dataclasses

    try:
        cls = factory()
        return {f.name.replace("_", "-") for f in dataclasses.fields(cls) if f.type in (str, "str")} | {
            f.name for f in dataclasses.fields(cls) if f.type in (str, "str")
        }
    except Exception:  # noqa: BLE001 - a pass we cannot introspect keeps xDSL's own typing
        return set()


def _quote_option_values(opts: str, str_options: set[str] = frozenset()) -> str:  # type: ignore[assignment]
    """MLIR-style ``sizes=N=64,M=32 config=tiny`` -> xDSL's ``sizes="N=64,M=32" config=tiny``.

    xDSL's pipeline syntax does not allow ``=`` inside an option value, and it
    types bare values itself (``tiles=16`` would be an int): values of
    string-typed options, and any value holding ``=``, are passed quoted.
    """
    out = []
    for item in shlex.split(opts):
        key, eq, value = item.partition("=")
        if eq and ("=" in value or key in str_options) and not value.startswith('"'):
            value = '"' + value.replace('"', '\\"') + '"'
        out.append(f"{key}{eq}{value}")
    return " ".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        passes = api.available_passes()
        args = translate_mlir_style(args, list(passes), passes)
        InfsOptMain(description="infs optimizer driver", args=args).run()
    except api.InfsError as e:
        print(str(e) if e.location else f"{PROG}: {e}", file=sys.stderr)
        return 1
    except FileNotFoundError as e:
        print(f"{PROG}: error: cannot open '{e.filename}': {e.strerror}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except SystemExit as e:
        return int(e.code) if isinstance(e.code, int) else (0 if e.code is None else 1)
    except Exception as e:  # a bug in infs, not bad input: still one line (INFS_DEBUG=1 re-raises)
        if os.environ.get("INFS_DEBUG"):
            raise
        print(f"{PROG}: internal error: {type(e).__name__}: {e} (please report; INFS_DEBUG=1 shows the traceback)", file=sys.stderr)
        return 70
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
