"""Scripting API: parse, verify, transform and print infs programs.

    from infs import api
    module = api.parse_file("infs/workloads/stencil1d.mlir")
    api.run_pipeline(module, "canonicalize")            # textual pipeline
    print(api.to_text(module))                          # custom form
    print(api.to_text(module, generic=True))            # generic form

Every failure is an ``InfsError`` whose ``str`` is one line naming the
file:line:column (when known), the op, and what is wrong.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Sequence
from io import StringIO
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.universe import Universe
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

from infs.dialects import INFS_DIALECTS
from infs.dialects.dominance import verify_dominance
from infs.dialects.lattice import LatticeError
from infs.dialects.syntax import LiteralGuards


class InfsError(Exception):
    """A user-facing error: one line, with a location when one is known."""

    def __init__(self, message: str, location: str | None = None, op: str | None = None):
        self.message = " ".join(str(message).split())  # one line, always
        self.location = location
        self.op = op
        super().__init__(str(self))

    def __str__(self) -> str:
        parts = []
        if self.location:
            parts.append(self.location)
        parts.append("error")
        head = ": ".join(parts)
        op = f"'{self.op}' op " if self.op else ""
        return f"{head}: {op}{self.message}"


# ---------------------------------------------------------------------------
# Context and parsing
# ---------------------------------------------------------------------------


def make_context(allow_unregistered: bool = False) -> Context:
    """A context with every xDSL dialect and the infs dialects."""
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    register_infs_dialects(ctx)
    return ctx


def register_infs_dialects(ctx: Context) -> None:
    """Register the infs dialects the context does not have yet: once infs is
    installed, xDSL's multiverse already holds them (the ``xdsl.universe``
    entry point, ``infs/universe.py``) and registering twice raises."""
    have = set(ctx.registered_dialect_names)
    for d in INFS_DIALECTS:
        if d.name not in have:
            ctx.register_dialect(d.name, lambda d=d: d)


_OP_NAME = re.compile(r'\s*(?:%[\w$.-]+(?::\d+)?\s*(?:,\s*%[\w$.-]+(?::\d+)?\s*)*=\s*)?"?([A-Za-z_][\w.$]*)')


class LocatingParser(LiteralGuards, Parser):
    """A parser that records each op's file:line:col as its location (and
    reports out-of-range integer literals and shape dims, ``LiteralGuards``)."""

    def _parse_alias_def(self):
        span = self._current_token.span
        try:
            return super()._parse_alias_def()
        except (VerifyException, LatticeError) as e:
            self.raise_error(_one_line(str(e)), span.start, self.pos)

    def parse_operation(self) -> Operation:
        span = self._current_token.span
        try:
            op = super().parse_operation()
        except (VerifyException, LatticeError) as e:
            # attribute verifiers run while parsing: point at the op being parsed, by name
            m = _OP_NAME.match(self.lexer.input.content, span.start)
            prefix = f"'{m.group(1)}' op " if m else ""
            self.raise_error(prefix + _one_line(str(e)), span.start, self.pos)
        if not isinstance(op.location, FileLineColLoc):
            loc = span.get_location()
            op.location = FileLineColLoc(StringAttr(loc.file or "<input>"), IntAttr(loc.line), IntAttr(int(loc.col)))
        return op


def _loc_text(loc: object) -> str | None:
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return None


def _parse_error(e: ParseError, line_offset: int = 0) -> InfsError:
    span = dataclasses.replace(e.span, line_offset=e.span.line_offset + line_offset) if line_offset else e.span
    loc = span.get_location()
    return InfsError(e.msg, f"{loc.file}:{loc.line}:{loc.col}")


def parse_text(
    text: str, name: str = "<input>", ctx: Context | None = None, verify: bool = True, line_offset: int = 0, implicit_module: bool = True
) -> ModuleOp:
    """Parse (and verify) a module; raises ``InfsError``.

    ``implicit_module=False`` requires the text to be one ``builtin.module``
    (``infs-opt --no-implicit-module``)."""
    ctx = ctx or make_context()
    if line_offset:
        text = "\n" * line_offset + text  # keep reported lines true for split inputs
    _check_string_literals(text, name)
    try:
        # (the parser lexes its first token when built: a bad one is a ParseError too)
        parser = LocatingParser(ctx, text, name)
        module = parser.parse_module(implicit_module)
    except ParseError as e:
        raise _parse_error(e) from None
    except (VerifyException, LatticeError) as e:
        # attribute verifiers run while parsing (e.g. a top-level attribute alias)
        line, col = _line_col(text, parser._current_token.span.start)  # noqa: SLF001
        raise InfsError(_one_line(str(e)) or type(e).__name__, f"{name}:{line}:{col}") from None
    if verify:
        verify_module(module)
    return module


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _check_string_literals(text: str, name: str) -> None:
    """An unterminated string literal is an error of its line.

    (xDSL 0.74's string-literal regex backtracks exponentially on one, so it
    is caught here, before the lexer sees it.)"""
    for lineno, line in enumerate(text.split("\n"), start=1):
        if '"' not in line:
            continue
        in_str, start, i = False, 0, 0
        while i < len(line):
            ch = line[i]
            if in_str:
                if ch == "\\":
                    i += 1
                elif ch == '"':
                    in_str = False
            elif ch == '"':
                in_str, start = True, i
            elif line.startswith("//", i):
                break
            i += 1
        if in_str:
            raise InfsError("unterminated string literal", f"{name}:{lineno}:{start + 1}")


def parse_file(path: str | Path, ctx: Context | None = None, verify: bool = True) -> ModuleOp:
    p = Path(path)
    try:
        text = p.read_text()
    except OSError as e:
        raise InfsError(f"cannot read '{path}': {e.strerror}") from None
    except UnicodeDecodeError:
        raise InfsError(f"'{path}' is not a UTF-8 text file") from None
    return parse_text(text, str(path), ctx, verify)


def verify_module(module: Operation) -> None:
    """Verify every op; the first failure (outermost first) becomes an ``InfsError``."""
    # SSA dominance first: op verifiers assume every operand is defined before its use
    bad = verify_dominance(module)
    if bad is not None:
        raise InfsError(bad.message, _loc_text(bad.op.location), bad.op.name)
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except (DiagnosticException, LatticeError) as e:
            text = _one_line(str(e)) or type(e).__name__
            raise InfsError(_strip_op_prefix(text, op.name), _loc_text(op.location), op.name) from None


def _one_line(text: str) -> str:
    """All the lines of a message, joined (xDSL's constraint errors give the reason on a later line)."""
    return " ".join(line.strip() for line in text.strip().splitlines() if line.strip())


def _strip_op_prefix(text: str, opname: str) -> str:
    text = text.strip()
    for prefix in (f"'{opname}' ", f"{opname}: ", f"Operation {opname} "):
        if text.startswith(prefix):
            return text[len(prefix) :]
    return text


# ---------------------------------------------------------------------------
# Passes and pipelines
# ---------------------------------------------------------------------------


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """xDSL's passes plus infs's own (``infs.passes.pipelines``)."""
    from infs.passes.pipelines import INFS_PASSES

    passes = dict(Universe.get_multiverse().all_passes)
    passes.update(INFS_PASSES)
    return passes


def parse_pipeline(spec: str, passes: dict[str, Callable[[], type[ModulePass]]] | None = None) -> tuple[ModulePass, ...]:
    """``'a{x=1 y=2},b'`` -> pass instances; unknown names/options are ``InfsError``."""
    passes = passes if passes is not None else available_passes()
    spec = spec.strip()
    if not spec:
        return ()
    try:
        return PassPipeline.parse_spec(passes, spec).passes
    except ValueError as e:
        msg = str(e)
        m = re.match(r"Unrecognized passes: \[(.*)\]", msg)
        if m:
            names = [n.strip(" '\"") for n in m.group(1).split(",")]
            raise InfsError(f"unknown pass {', '.join(repr(n) for n in names)} (see --help for the list)") from None
        raise InfsError(f"bad pipeline '{spec}': {msg}") from None
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001 - xDSL's ArgSpecParseError derives from BaseException
        raise InfsError(f"bad pipeline '{spec}': {_one_line(str(e))}") from None


def run_pipeline(module: ModuleOp, pipeline: str | Sequence[ModulePass] | ModulePass, ctx: Context | None = None, verify_each: bool = True) -> ModuleOp:
    """Apply passes in order (in place); verifies after each pass."""
    ctx = ctx or make_context()
    if isinstance(pipeline, str):
        passes: Iterable[ModulePass] = parse_pipeline(pipeline)
    elif isinstance(pipeline, ModulePass):
        passes = (pipeline,)
    else:
        passes = pipeline
    for p in passes:
        try:
            p.apply(ctx, module)
        except InfsError:
            raise
        except (DiagnosticException, LatticeError) as e:
            raise InfsError(f"pass '{p.name}' failed: {str(e).strip().splitlines()[0]}") from None
        if verify_each:
            verify_module(module)
    return module


def to_text(op: Operation, generic: bool = False, debuginfo: bool = False) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=generic, print_debuginfo=debuginfo).print_op(op)
    return out.getvalue() + "\n"
