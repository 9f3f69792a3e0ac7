"""What ``infs-opt`` runs: the infs optimizer driver (an ``xDSLOptMain``).

Accepts xDSL pipelines (``-p 'a{x=1 y=2},b'``) and MLIR's conventions: pass
flags (``--tensorize --lower-pim='sizes=N=64 config=tiny'``), full pipelines
(``--pass-pipeline='builtin.module(tensorize,func.func(cse))'``, parsed by
``infs.api.parse_pass_pipeline``, the syntax ``api.PassManager.parse`` takes),
``--mlir-print-ir-{before,after}[-all]``, ``--mlir-timing`` and
``--verify-diagnostics`` with ``// expected-error`` annotations.  Every error
is one line with file:line:col where known, and a non-zero exit; no
tracebacks.  ``infs.tools.infs_opt`` (the console script) loads this module
for everything but a lone ``--version``.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import os
import re
import sys
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, NoReturn

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.targets.mlir import MLIRTarget
from xdsl.utils.diagnostic import Diagnostic
from xdsl.xdsl_opt_main import xDSLOptMain

import infs
from infs import api

PROG = "infs-opt"
_PIPELINE_FLAGS = ("-p", "--passes")


@dataclasses.dataclass(frozen=True)
class UpstreamMLIRTarget(MLIRTarget):
    """xDSL's MLIR output, with the affine access ops in upstream's custom form
    (xDSL 0.74 prints a map's symbols by the wrong operands; infs.dialects.affine_ssa_ids)."""

    def emit(self, ctx, module, output) -> None:
        from infs.dialects.affine_ssa_ids import Printer, SyntaxPrinter

        printer = (SyntaxPrinter if self.syntax_highlight else Printer)(
            stream=output, print_generic_format=self.print_generic_format,
            print_properties_as_attributes=self.print_properties_as_attributes, print_debuginfo=self.print_debuginfo,
        )  # fmt: skip
        printer.print_op(module)
        printer.print_metadata(ctx.loaded_dialects)
        print("\n", file=output)


class InfsOptMain(xDSLOptMain):
    version_format = infs.version_text(PROG).replace("{", "{{").replace("}", "}}")

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
        # the multiverse (with infs installed, infs's dialects too), with upstream
        # MLIR's custom syntax for the ops xDSL 0.74 reads only in generic form
        from xdsl.universe import Universe

        api.register_dialects(self.ctx, Universe.get_multiverse().all_dialects)

    def register_all_passes(self) -> None:
        for name, factory in api.available_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        # xDSL's other targets (riscv-asm, llvm, wat, ...) lower xDSL's own
        # dialects; for infs programs they crash or print nothing
        self.available_targets["mlir"] = lambda: UpstreamMLIRTarget

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
            "--passes": "a pipeline, xDSL's 'a{x=1 y=2},b' or MLIR's 'builtin.module(a{x=1},func.func(b))' (the passes are listed below)",
            "--print-between-passes": "print the IR after every pass on stderr, headed by the pass's name (= --mlir-print-ir-after-all)",
            "--time-passes": "print a wall-time table of parsing, each pass, verification and output on stderr (= --mlir-timing)",
            "--verify-diagnostics": "check the input's '// expected-error @+1 {{message}}' annotations against the errors (mlir-opt's "
            "convention: a missing, wrong or unexpected error fails); in a file without annotations, print the error on the output and exit 0 "
            "(xDSL's convention, for FileCheck tests)",
            "--parsing-diagnostics": "print a parse error on the output and exit 0 (for FileCheck tests)",
            "--version": "print infs's and xDSL's versions and exit",
            "--shrink": argparse.SUPPRESS,
        }
        for action in arg_parser._actions:  # noqa: SLF001 - argparse has no public way to edit help
            for opt in action.option_strings:
                if opt in helps:
                    action.help = helps[opt]
        arg_parser.add_argument("--pass-pipeline", metavar="PIPELINE", help="MLIR's full pipeline syntax, 'builtin.module(tensorize,lower-pim{sizes=N=64 config=small-16})' (translated before parsing; shown here for --help)")
        arg_parser.add_argument("--mlir-print-ir-after-all", dest="print_between_passes", action="store_true", help="same as --print-between-passes")
        arg_parser.add_argument("--mlir-print-ir-before-all", dest="print_before_passes", action="store_true", help="print the IR before every pass on stderr, headed by the pass's name")
        arg_parser.add_argument("--mlir-print-ir-after", dest="print_after", metavar="PASS[,PASS]", action="append", default=[], help="print the IR after each run of the named passes on stderr (repeatable)")
        arg_parser.add_argument("--mlir-print-ir-before", dest="print_before", metavar="PASS[,PASS]", action="append", default=[], help="print the IR before each run of the named passes on stderr (repeatable)")
        arg_parser.add_argument("--mlir-timing", dest="time_passes", action="store_true", help="same as --time-passes")
        arg_parser.add_argument("--emit-bundle", metavar="FILE.infsb", help="write the program after the passes as a bundle (host code and each graph's tDFG record; "
                                "its offloads must be tdfg.graphs: give --tensorize) instead of printing it; infs-run runs it without the compiler (docs/bundles.md)")
        arg_parser.add_argument("--import-bench", metavar="FILE.bench", help="read an ISCAS85 .bench netlist as hw/comb IR instead of an MLIR input (the crossbar target, docs/crossbar.md)")
        arg_parser.add_argument("--import-blif", metavar="FILE.blif", help="read a combinational BLIF netlist as hw/comb IR instead of an MLIR input")
        base_help = arg_parser.format_help
        arg_parser.format_help = lambda: base_help() + "\n" + passes_help(self.available_passes)  # type: ignore[method-assign]

    def register_all_frontends(self) -> None:
        super().register_all_frontends()

        def parse_mlir(io: IO[bytes]) -> ModuleOp:
            return api.parse_text(io.read().decode("utf-8", errors="replace"), self.get_input_name(), self.ctx)

        self.available_frontends["mlir"] = parse_mlir

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        if self.netlist_path() is not None:
            return io.BytesIO(b""), "mlir"  # the netlist is read in parse_chunk
        if self.args.input_file == "-":  # mlir-opt's name for stdin
            return sys.stdin.buffer, "mlir"
        return super().get_input_stream()

    def netlist_path(self) -> str | None:
        """The ``--import-bench`` / ``--import-blif`` file, when one is given."""
        return getattr(self.args, "import_bench", None) or getattr(self.args, "import_blif", None)

    def get_input_name(self) -> str:
        if self.netlist_path() is not None:
            return self.netlist_path()
        return "stdin" if self.args.input_file in (None, "-") else self.args.input_file

    def parse_chunk(self, chunk: IO[bytes], file_extension: str, start_offset: int = 0) -> ModuleOp | None:
        """Parse only (the caller verifies): parse and verifier errors are told apart."""
        if self.netlist_path() is not None:
            from infs.frontend import netlist_import

            if self.args.import_bench and self.args.import_blif:
                raise api.InfsError("--import-bench and --import-blif: give one netlist")
            if self.args.input_file not in (None, "-"):
                raise api.InfsError(f"--import-bench/--import-blif read the netlist instead of an MLIR input: drop '{self.args.input_file}'")
            try:
                return netlist_import.import_netlist(self.netlist_path(), "bench" if self.args.import_bench else "blif")
            except netlist_import.NetlistError as e:
                raise api.InfsError(str(e)) from None
        if file_extension != "mlir":
            return super().parse_chunk(chunk, file_extension, start_offset)
        data = chunk.read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise api.InfsError(f"'{self.get_input_name()}' is not a UTF-8 text file") from None
        if holds_no_operation(text):
            # mlir-opt: no operation is an empty (implicit) module, not a parse error
            if self.args.no_implicit_module:
                raise api.InfsError("no top-level operation: --no-implicit-module needs one builtin.module", f"{self.get_input_name()}:{start_offset + 1}:1")
            return ModuleOp([])
        return api.parse_text(
            text, self.get_input_name(), self.ctx, verify=False, line_offset=start_offset, implicit_module=not self.args.no_implicit_module
        )

    def setup_pipeline(self) -> None:
        if self.args.shrink:
            # xDSL's hook for the shrinkray test-case reducer: no infs pass raises ShrinkException
            self._arg_parser.error("--shrink is not supported (it is xDSL's hook for test-case reduction; infs passes never raise ShrinkException)")
        self.pm = api.PassManager(api.parse_pass_pipeline(self.args.passes, self.available_passes), self.ctx)
        self.pm.enable_verifier(not self.args.disable_verify)
        names = {n.strip() for spec in (*self.args.print_after, *self.args.print_before) for n in spec.split(",") if n.strip()}
        for flag, specs in (("--mlir-print-ir-after", self.args.print_after), ("--mlir-print-ir-before", self.args.print_before)):
            for n in (n.strip() for spec in specs for n in spec.split(",")):
                if n and n not in self.available_passes:
                    raise api.InfsError(f"{flag}: unknown pass '{n}' (see --help for the list)")
        if self.args.print_between_passes or self.args.print_before_passes or names:
            self.pm.enable_ir_printing(
                print_before_all=self.args.print_before_passes,
                print_after_all=self.args.print_between_passes,
                print_before=[n.strip() for spec in self.args.print_before for n in spec.split(",")],
                print_after=[n.strip() for spec in self.args.print_after for n in spec.split(",")],
                generic=self.args.print_op_generic,
                debuginfo=self.args.print_debuginfo,
            )

    def apply_passes(self, prog: ModuleOp) -> None:
        self.pm.run(prog)

    def prepare_output(self) -> IO[str]:
        if self.args.output_file is None:
            return sys.stdout
        try:
            return open(self.args.output_file, "w")
        except OSError as e:
            raise api.InfsError(f"cannot write -o '{self.args.output_file}': {e.strerror}") from None

    def timing_report(self) -> str:
        return self.pm.timing_report()

    def write_bundle(self, module: ModuleOp, chunk: int) -> None:
        """``--emit-bundle``: the module as one bundle file (one program: one input chunk)."""
        from infs.runtime.bundle import container
        from infs.runtime.bundle.errors import BundleError
        from infs.runtime.bundle.host_form import runnable_sections

        if chunk > 0:
            raise api.InfsError("--emit-bundle writes one program: the input has more than one (--split-input-file)")
        name = Path(self.get_input_name()).stem if self.get_input_name() not in ("-", "") else None
        try:
            container.write(self.args.emit_bundle, runnable_sections(module, name, None))
        except BundleError as e:
            raise api.InfsError(str(e)) from None

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
        texts = []
        for chunk, offset in chunks:
            try:
                texts.append((chunk.read(), offset))
            finally:
                chunk.close()
        output = self.prepare_output()
        diagnostics = self.args.verify_diagnostics
        # mlir-opt's convention when the input has expected-* annotations, xDSL's otherwise
        expected = ExpectedDiagnostics(self.get_input_name()) if diagnostics and any(EXPECTED.search(t.decode("utf-8", "replace")) for t, _ in texts) else None
        timing = self.pm.record_time
        try:
            for i, (data, offset) in enumerate(texts):
                if i > 0:
                    output.write("// -----\n")
                if expected is not None:
                    expected.scan(data.decode("utf-8", "replace"), offset)
                t0 = time.perf_counter()
                try:
                    module = self.parse_chunk(io.BytesIO(data), file_extension, offset)
                except api.InfsError as e:
                    if expected is not None:
                        expected.produced(e)
                    elif diagnostics or self.args.parsing_diagnostics:
                        output.write(f"{e}\n")  # checked by FileCheck, exit 0 (xDSL convention)
                    else:
                        raise
                    continue
                finally:
                    timing("Parser", time.perf_counter() - t0)
                if module is None:
                    continue
                try:
                    t0 = time.perf_counter()
                    api.verify_module(module)
                    timing("Verifier", time.perf_counter() - t0)
                    self.apply_passes(module)
                    t0 = time.perf_counter()
                    if self.args.emit_bundle:
                        self.write_bundle(module, i)
                    else:
                        output.write(self.output_resulting_program(module))
                    timing("Output", time.perf_counter() - t0)
                except api.InfsError as e:
                    if expected is not None:
                        expected.produced(e)
                    elif diagnostics:
                        output.write(f"{e}\n")
                    else:
                        raise
                output.flush()
        finally:
            if output is not sys.stdout:
                output.close()
            if self.args.time_passes:
                print(self.timing_report(), file=sys.stderr, flush=True)
        if expected is not None:
            failures = expected.finish()
            if failures:
                for line in failures:
                    print(line, file=sys.stderr)
                raise SystemExit(1)


def holds_no_operation(text: str) -> bool:
    """Only whitespace and ``//`` comments (an MLIR comment runs to the end of
    its line, so a line whose first non-blank characters are ``//`` holds no token)."""
    return all(not s or s.startswith("//") for s in (ln.strip() for ln in text.splitlines()))


# ---------------------------------------------------------------------------
# --verify-diagnostics with mlir-opt's expected-* annotations
# ---------------------------------------------------------------------------

# mlir-opt's designator (mlir/lib/IR/Diagnostics.cpp): kind, optional -re, optional @+N/@-N/@above/@below/@unknown
EXPECTED = re.compile(r"expected-(error|note|remark|warning)(-re)? *(?:@([+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}[ \t\r]*$", re.M)


@dataclasses.dataclass
class _Expected:
    kind: str
    line: int | None  # None: @unknown
    pattern: str  # the text between {{ }}
    regex: re.Pattern | None  # -re: {{...}} spans inside the message are regular expressions
    at: str  # where the annotation is (file:line:col)
    matched: bool = False

    def matches(self, message: str) -> bool:
        return bool(self.regex.search(message)) if self.regex else self.pattern in message


def _pass_error_location(e: api.InfsError) -> str | None:
    """The op location a pass error is about ("file:line:col"), or None.

    A pass's error about an op (``LoweringError.about``: "the tdfg.graph at
    f:L:C in @fn: ...") carries the op's location as data, ``location``; the
    PassManager turns it into an ``InfsError`` whose own location stays
    empty, so the printed line is unchanged, and keeps the pass's exception
    as ``__context__`` (``raise ... from None`` hides it from tracebacks
    only).  mlir-opt reports a pass failure emitted on an op at the op."""
    cause = e.__context__
    loc = getattr(cause, "location", None) if cause is not None else None
    return loc if isinstance(loc, str) else None


class ExpectedDiagnostics:
    """mlir-opt's diagnostic verifier: each error must be announced by an
    ``expected-error`` annotation on its line (``@+N``/``@-N`` relative,
    ``@above``/``@below`` the nearest line without a designator, ``@unknown``
    for an error with no location) whose text is part of the message; every
    annotation must be matched by an error."""

    def __init__(self, name: str):
        self.name = name
        self.expected: list[_Expected] = []
        self.failures: list[str] = []

    def scan(self, text: str, line_offset: int) -> None:
        lines = text.split("\n")
        designated = [bool(EXPECTED.search(ln)) for ln in lines]
        for i, ln in enumerate(lines):
            m = EXPECTED.search(ln)
            if not m:
                continue
            at = f"{self.name}:{line_offset + i + 1}:{m.start() + 1}"
            kind, is_re, where, pattern = m.group(1), m.group(2), m.group(3), m.group(4)
            target: int | None = i
            if where == "unknown":
                target = None
            elif where in ("above", "below"):
                step = -1 if where == "above" else 1
                j = i + step
                while 0 <= j < len(lines) and designated[j]:
                    j += step
                if not 0 <= j < len(lines):
                    self.failures.append(f"{at}: error: expected-{kind}@{where} has no line {where} it (every line is a designator)")
                    continue
                target = j
            elif where:
                target = i + int(where)
                if not 0 <= target < len(lines):
                    self.failures.append(f"{at}: error: expected-{kind}@{where} points outside the input")
                    continue
            regex = None
            if is_re:
                # MLIR: literal text, with {{regex}} spans
                parts = re.split(r"\{\{(.*?)\}\}", pattern)
                try:
                    regex = re.compile("".join(re.escape(p) if k % 2 == 0 else f"(?:{p})" for k, p in enumerate(parts)))
                except re.error as e:
                    self.failures.append(f"{at}: error: invalid regex in expected-{kind}-re: {e}")
                    continue
            line = None if target is None else line_offset + target + 1
            self.expected.append(_Expected(kind, line, pattern, regex, at))

    def produced(self, e: api.InfsError) -> None:
        """An error was emitted: match it against an annotation of its line."""
        message = f"'{e.op}' op {e.message}" if e.op else e.message
        location = e.location or _pass_error_location(e)
        line = None
        if location:
            try:
                line = int(location.rsplit(":", 2)[-2])
            except (ValueError, IndexError):
                line = None
        for exp in self.expected:
            if not exp.matched and exp.kind == "error" and exp.line == line and exp.matches(message):
                exp.matched = True
                return
        where = location or self.name
        self.failures.append(f"{where}: error: unexpected error: {message}")

    def finish(self) -> list[str]:
        out = list(self.failures)
        for exp in self.expected:
            if not exp.matched:
                out.append(f'{exp.at}: error: expected {exp.kind} "{exp.pattern}" was not produced')
        return out


# ---------------------------------------------------------------------------
# --help: infs's passes first, with their options, then xDSL's
# ---------------------------------------------------------------------------


def _summary(cls: type) -> str:
    """A pass's one-line description: its module docstring's first line, without the ``name``: prefix."""
    doc = (sys.modules[cls.__module__].__doc__ or cls.__doc__ or "").strip().split("\n")[0]
    doc = re.sub(r"^``[\w-]+``:\s*", "", doc)
    return doc.replace("``", "")


def passes_help(available: dict) -> str:
    from infs.passes.pipelines import INFS_PASSES

    lines = ["infs passes (as --NAME[=OPTIONS] flags, run in command-line order, or in -p / --pass-pipeline):"]
    for name, factory in INFS_PASSES.items():
        cls = factory()
        fields = dataclasses.fields(cls)
        flag = f"--{name}" + ("{" + ",".join(f.name.replace("_", "-") for f in fields) + "}" if fields else "")
        lines.append(f"  {flag:<38} {_summary(cls)}" if len(flag) <= 38 else f"  {flag}\n  {'':<38} {_summary(cls)}")
        for f in fields:
            default = f.default if f.default is not dataclasses.MISSING else "(required)"
            typ = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
            lines.append(f"      {f.name.replace('_', '-')}=<{typ}>".ljust(41) + f"default: {default!r}" if default != "" else f"      {f.name.replace('_', '-')}=<{typ}>")
    others = [n for n in available if n not in INFS_PASSES]
    lines.append("")
    lines.append(f"xDSL passes ({len(others)}; same flags; their options are in xDSL's documentation):")
    lines.extend(textwrap.wrap(", ".join(others), width=100, initial_indent="  ", subsequent_indent="  ", break_on_hyphens=False))
    return "\n".join(lines) + "\n"


def translate_mlir_style(argv: Sequence[str], pass_names: Sequence[str], passes: dict | None = None) -> list[str]:
    """Turn ``--pass[=opts]`` flags, ``-p`` and ``--pass-pipeline=`` into one ``-p``
    (in command-line order; ``api.parse_pass_pipeline`` reads it)."""
    names = set(pass_names)
    passes = passes or {}
    pieces: list[str] = []
    rest: list[str] = []
    it = iter(argv)
    for arg in it:
        if arg in (*_PIPELINE_FLAGS, "--pass-pipeline"):
            value = next(it, None)
            if value is None:
                rest.append(arg)  # let argparse complain
            elif value.strip():
                pieces.append(value.strip())
            continue
        if arg.startswith(("-p=", "--passes=", "--pass-pipeline=")):
            value = arg.split("=", 1)[1].strip()
            if value:
                pieces.append(value)
            continue
        if arg.startswith("--") and len(arg) > 2:
            name, _, opts = arg[2:].partition("=")
            if name in names:
                opts = opts.strip()
                if opts.startswith("{") and opts.endswith("}"):
                    opts = opts[1:-1]
                api.quote_option_values(opts)  # an unbalanced quote: the error names the flag's own text
                pieces.append(f"{name}{{{opts}}}" if opts.strip() else name)
                continue
        rest.append(arg)
    return (["-p", ",".join(pieces)] if pieces else []) + rest


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
