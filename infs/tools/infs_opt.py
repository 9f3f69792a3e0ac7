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
import time
from collections.abc import Sequence
from typing import IO, NoReturn

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute
from xdsl.passes import ModulePass, PassPipeline
from xdsl.universe import Universe
from xdsl.utils.diagnostic import Diagnostic
from xdsl.xdsl_opt_main import xDSLOptMain

from infs import api

PROG = "infs-opt"
_PIPELINE_FLAGS = ("-p", "--passes")


class InfsOptMain(xDSLOptMain):
    version_format = "infs-opt (infs 0.1.0) built on xdsl {xdsl_version}"

    def __init__(self, description: str = "infs optimizer driver", args: Sequence[str] | None = None):
        # xDSL's --disable-verify / --syntax-highlight patch global state
        # (Attribute.__post_init__, Diagnostic.colored); put it back when this
        # driver is done, so in-process callers (tests, the API) are unaffected
        self._saved_globals = (Attribute.__post_init__, Diagnostic.colored)
        try:
            super().__init__(description, args)
        finally:
            # --disable-verify means "no verifier between passes" (mlir-opt's
            # --verify-each=0): the input is always verified, and attribute
            # verifiers keep running, else invalid IR reaches the passes
            Attribute.__post_init__ = self._saved_globals[0]  # type: ignore[method-assign]

    def register_all_dialects(self) -> None:
        super().register_all_dialects()  # the multiverse: with infs installed, infs's dialects too
        api.register_infs_dialects(self.ctx)

    def register_all_passes(self) -> None:
        for name, factory in api.available_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        # xDSL's other targets (riscv-asm, llvm, wat, ...) lower xDSL's own
        # dialects; for infs programs they crash or print nothing
        self.available_targets["mlir"] = Universe.get_multiverse().all_targets["mlir"]

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.prog = PROG
        self._arg_parser = arg_parser

        def one_line_error(message: str) -> NoReturn:
            print(f"{PROG}: error: {message}", file=sys.stderr)
            raise SystemExit(2)

        arg_parser.error = one_line_error  # type: ignore[method-assign]
        helps = {
            "--disable-verify": "do not verify the IR after each pass (the input is always verified, as mlir-opt does)",
            "--target": "output format: mlir (the only target for infs programs)",
            "--print-between-passes": "print the IR after every pass on stderr, headed by the pass's name (= --mlir-print-ir-after-all)",
            "--time-passes": "print a wall-time table of parsing, each pass, verification and output on stderr (= --mlir-timing)",
            "--verify-diagnostics": "print a parse, verifier or pass error on the output and exit 0 (for FileCheck tests)",
            "--parsing-diagnostics": "print a parse error on the output and exit 0 (for FileCheck tests)",
            "--shrink": argparse.SUPPRESS,
        }
        for action in arg_parser._actions:  # noqa: SLF001 - argparse has no public way to edit help
            for opt in action.option_strings:
                if opt in helps:
                    action.help = helps[opt]
        arg_parser.add_argument("--mlir-print-ir-after-all", dest="print_between_passes", action="store_true", help="same as --print-between-passes")
        arg_parser.add_argument("--mlir-print-ir-before-all", dest="print_before_passes", action="store_true", help="print the IR before every pass on stderr, headed by the pass's name")
        arg_parser.add_argument("--mlir-timing", dest="time_passes", action="store_true", help="same as --time-passes")

    def register_all_frontends(self) -> None:
        super().register_all_frontends()

        def parse_mlir(io: IO[bytes]) -> ModuleOp:
            return api.parse_text(io.read().decode("utf-8", errors="replace"), self.get_input_name(), self.ctx)

        self.available_frontends["mlir"] = parse_mlir

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0) -> ModuleOp | None:
        """Parse only (the caller verifies): parse and verifier errors are told apart."""
        if file_extension != "mlir":
            return super().parse_chunk(chunk, file_extension, start_offset)
        data = chunk.read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise api.InfsError(f"'{self.get_input_name()}' is not a UTF-8 text file") from None
        return api.parse_text(
            text, self.get_input_name(), self.ctx, verify=False, line_offset=start_offset, implicit_module=not self.args.no_implicit_module
        )

    def setup_pipeline(self) -> None:
        if self.args.shrink:
            # xDSL's hook for the shrinkray test-case reducer: no infs pass raises ShrinkException
            self._arg_parser.error("--shrink is not supported (it is xDSL's hook for test-case reduction; infs passes never raise ShrinkException)")
        self.pipeline = PassPipeline(api.parse_pipeline(self.args.passes, self.available_passes))
        self.timings: list[list] = []  # [name, seconds], in first-seen order (MLIR's list view)

    def _time(self, name: str, seconds: float) -> None:
        for row in self.timings:
            if row[0] == name:
                row[1] += seconds
                return
        self.timings.append([name, seconds])

    def _dump(self, when: str, p: ModulePass, module: ModuleOp) -> None:
        # mlir-opt's header: `// -----// IR Dump After Canonicalizer (canonicalize) //----- //`
        title = type(p).__name__.removesuffix("Pass") or p.name
        text = api.to_text(module, generic=self.args.print_op_generic, debuginfo=self.args.print_debuginfo)
        print(f"// -----// IR Dump {when} {title} ({p.name}) //----- //\n{text}", file=sys.stderr, flush=True)

    def apply_passes(self, prog: ModuleOp) -> None:
        verify_each = not self.args.disable_verify
        for index, p in enumerate(self.pipeline.passes):
            if self.args.print_before_passes:
                self._dump("Before", p, prog)
            t0 = time.perf_counter()
            api.run_pipeline(prog, [p], self.ctx, verify_each=False)
            t1 = time.perf_counter()
            # the pipeline's passes in order; a pass run twice has two rows, as in MLIR
            self._time(f"{type(p).__name__.removesuffix('Pass') or p.name} ({p.name}) #{index}", t1 - t0)
            if verify_each:
                api.verify_module(prog)
                self._time("Verifier", time.perf_counter() - t1)
            if self.args.print_between_passes:
                self._dump("After", p, prog)

    def prepare_output(self) -> IO[str]:
        if self.args.output_file is None:
            return sys.stdout
        try:
            return open(self.args.output_file, "w")
        except OSError as e:
            raise api.InfsError(f"cannot write -o '{self.args.output_file}': {e.strerror}") from None

    def timing_report(self) -> str:
        """MLIR's ``--mlir-timing`` list view: wall time per step, then the total."""
        total = sum(t for _, t in self.timings) or 1e-12
        rule = "===" + "-" * 73 + "==="
        lines = [rule, "... Execution time report ...".center(len(rule)).rstrip(), rule, f"  Total Execution Time: {total:.4f} seconds", "", "  ----Wall Time----  ----Name----"]
        for name, t in self.timings:
            lines.append(f"  {t:8.4f} ({100 * t / total:5.1f}%)  {name.rsplit(' #', 1)[0]}")
        lines.append(f"  {total:8.4f} (100.0%)  Total")
        return "\n".join(lines)

    def run(self) -> None:
        try:
            self._run()
        finally:
            Diagnostic.colored = self._saved_globals[1]

    def _run(self) -> None:
        try:
            chunks, file_extension = self.prepare_input()
        except ValueError as e:
            raise api.InfsError(str(e)) from None
        output = self.prepare_output()
        diagnostics = self.args.verify_diagnostics
        try:
            for i, (chunk, offset) in enumerate(chunks):
                if i > 0:
                    output.write("// -----\n")
                try:
                    t0 = time.perf_counter()
                    try:
                        module = self.parse_chunk(chunk, file_extension, offset)
                    except api.InfsError as e:
                        if not (diagnostics or self.args.parsing_diagnostics):
                            raise
                        output.write(f"{e}\n")  # checked by FileCheck, exit 0 (xDSL convention)
                        continue
                    finally:
                        self._time("Parser", time.perf_counter() - t0)
                    if module is None:
                        continue
                    try:
                        t0 = time.perf_counter()
                        api.verify_module(module)
                        self._time("Verifier", time.perf_counter() - t0)
                        self.apply_passes(module)
                        t0 = time.perf_counter()
                        output.write(self.output_resulting_program(module))
                        self._time("Output", time.perf_counter() - t0)
                    except api.InfsError as e:
                        if not diagnostics:
                            raise
                        output.write(f"{e}\n")
                finally:
                    chunk.close()
                output.flush()
        finally:
            if output is not sys.stdout:
                output.close()
            if self.args.time_passes:
                print(self.timing_report(), file=sys.stderr, flush=True)


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
    try:
        items = shlex.split(opts)
    except ValueError as e:  # shlex: "No closing quotation"
        raise api.InfsError(f"bad pass options '{opts}': {str(e).lower()}") from None
    for item in items:
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
    except OSError as e:  # a missing input, a directory given as input, ...
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
