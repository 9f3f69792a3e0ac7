"""Reading programs: the context of every dialect, the parser, the verifier, ``InfsError``.

``parse_text`` / ``parse_file`` read a module (custom or generic form, with
each op's file:line:column recorded as its location) and verify it;
``verify_module`` checks SSA dominance, then every op's verifier.  Every
failure is an ``InfsError`` whose ``str`` is one line naming the
file:line:column (when known), the op, and what is wrong.

This is the parser's entry point below everything that reads programs: the
runtime (a compiled program's ``infs.source``, the driver's folding region)
and the scripting API (``infs.api``, which hands these names on) both use
it; it imports nothing of infs above the dialects.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Callable
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.universe import Universe
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

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


def make_context(allow_unregistered: bool = False) -> Context:
    """A context with every xDSL dialect and the infs dialects."""
    ctx = Context(allow_unregistered=allow_unregistered)
    register_dialects(ctx, Universe.get_multiverse().all_dialects)
    return ctx


def register_dialects(ctx: Context, factories: dict[str, Callable[[], object]]) -> None:
    """Register ``factories`` (xDSL's dialects, by name), the dialects that upstream
    MLIR prints in a custom form xDSL 0.74 lacks with infs's op classes for
    those ops in place of xDSL's (``infs.dialects.upstream_syntax``), and the
    infs dialects."""
    for name, factory in factories.items():
        ctx.register_dialect(name, with_upstream_syntax(name, factory))  # type: ignore[arg-type]
    register_infs_dialects(ctx)


_UPSTREAM_SYNTAX = frozenset({"affine", "scf", "memref", "llvm"})  # upstream_syntax.UPSTREAM_OPS' dialects


def with_upstream_syntax(name: str, factory: Callable[[], object]) -> Callable[[], object]:
    """``factory``, or for a dialect with upstream custom syntax in
    ``infs.dialects.upstream_syntax``, a factory of that dialect with infs's
    op classes (loaded with the dialect: start-up stays as cheap)."""
    if name not in _UPSTREAM_SYNTAX:
        return factory

    def load():
        from infs.dialects.upstream_syntax import with_upstream_syntax as upstream

        return upstream(factory())  # type: ignore[arg-type]

    return load


def register_infs_dialects(ctx: Context) -> None:
    """Register the infs dialects the context does not have yet: once infs is
    installed, xDSL's multiverse already holds them (the ``xdsl.universe``
    entry point, ``infs/universe.py``) and registering twice raises."""
    have = set(ctx.registered_dialect_names)
    if have.issuperset(_INFS_DIALECT_NAMES):
        return  # (not importing the dialects here: parsing loads those it meets, which keeps start-up short)
    from infs.dialects import INFS_DIALECTS

    for d in INFS_DIALECTS:
        if d.name not in have:
            ctx.register_dialect(d.name, lambda d=d: d)


_INFS_DIALECT_NAMES = ("lattice", "stream", "tdfg", "pimcmd", "dram_pim")  # INFS_DIALECTS' names
_INFS_DIALECT_NAMES += ("xbar",)  # the crossbar target (STREAM)


_OP_NAME = re.compile(r'\s*(?:%[\w$.-]+(?::\d+)?\s*(?:,\s*%[\w$.-]+(?::\d+)?\s*)*=\s*)?"?([A-Za-z_][\w.$]*)')


_DLTI_ENTRY_MAPS = ("dlti.dl_spec", "dlti.target_device_spec", "dlti.map")
_LEGACY_DL_ENTRY = re.compile(r"\s*#dlti\.dl_entry\b")


class LocatingParser(LiteralGuards, Parser):
    """A parser that records each op's file:line:col as its location (and
    reports out-of-range integer literals and shape dims, ``LiteralGuards``)."""

    def _parse_dialect_type_or_attribute_body(self, attr_name, is_type, is_opaque, starting_opaque_pos):
        # MLIR before 19 (and so Polygeist's cgeist) prints a data layout as a
        # list of entries, `#dlti.dl_spec<#dlti.dl_entry<i64, dense<64> :
        # vector<2xi32>>, ...>`; xDSL 0.74 reads only the later `<key = value, ...>`
        # form.  Read the older one into the same attribute (inputs as
        # real tools print them).
        if not is_type and attr_name in _DLTI_ENTRY_MAPS and self._current_token.text == "<" and _LEGACY_DL_ENTRY.match(self.lexer.input.content, self._current_token.span.end):
            from xdsl.dialects.builtin import ArrayAttr
            from xdsl.dialects.dlti import DataLayoutEntryAttr

            start = self._current_token.span.start
            entries = self.parse_comma_separated_list(self.Delimiter.ANGLE, self.parse_attribute)
            if not all(isinstance(e, DataLayoutEntryAttr) for e in entries):
                self.raise_error(f"'#{attr_name}' mixes '#dlti.dl_entry' entries with other attributes", start, self.pos)
            attr_def = self.ctx.get_optional_attr(attr_name)
            if attr_def is None:
                self.raise_error(f"'{attr_name}' is not registered", start, self.pos)
            return attr_def.new((ArrayAttr(entries),))
        return super()._parse_dialect_type_or_attribute_body(attr_name, is_type, is_opaque, starting_opaque_pos)

    def parse_affine_map_of_ssa_ids(self):
        # upstream MLIR's rule: `%i` is a dim, `symbol(%n)` a symbol (xDSL 0.74
        # makes every SSA id a symbol, which upstream refuses for a loop index)
        from infs.dialects.affine_ssa_ids import parse_affine_map_of_ssa_ids

        return parse_affine_map_of_ssa_ids(self)

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
            line, col = self._line_col(span)
            op.location = FileLineColLoc(StringAttr(span.input.name or "<input>"), IntAttr(line), IntAttr(col))
        return op

    def _line_col(self, span) -> tuple[int, int]:
        """(line, column) of ``span``'s start, from 1, as ``Span.get_location`` gives them, off
        an index of the input's newlines built once (that method counts the newlines from
        the start of the input for every op: quadratic in the file's size)."""
        content = span.input.content
        if not isinstance(content, str) or span.input.newline != "\n":
            loc = span.get_location()
            return loc.line, int(loc.col)
        if getattr(self, "_newlines_of", None) is not content:
            self._newlines = [m.start() for m in re.finditer("\n", content)]
            self._newlines_of = content
        pos = span.start
        k = bisect.bisect_left(self._newlines, pos)  # the newlines before pos
        return k + 1 + span.line_offset, pos - (self._newlines[k - 1] + 1 if k else 0) + 1


def _loc_text(loc: object) -> str | None:
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return None


def source_file(module: Operation) -> str | None:
    """The file ``module``'s ops were read from (an ``.mlir`` file, an
    ``@infs.kernel``'s ``.py``), from the first op with a file location; a
    runtime error names it, its message gives the lines."""
    for op in module.walk():
        if isinstance(op.location, FileLineColLoc):
            return op.location.filename.data
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
    parser = None
    try:
        # (the parser lexes its first token when built: a bad one is a ParseError too)
        parser = LocatingParser(ctx, text, name)
        module = parser.parse_module(implicit_module)
    except ParseError as e:
        raise _parse_error(e) from None
    except (VerifyException, LatticeError, ValueError, OverflowError, IndexError, NotImplementedError) as e:
        # attribute verifiers run while parsing (e.g. a top-level attribute alias);
        # xDSL's parser lets a bare ValueError/OverflowError escape from a few
        # builders (an out-of-range value packed into an attribute), and its linalg
        # parsers an IndexError when they build an op's hidden region from operands
        # a truncated op lacks (``linalg.fill i``, found by make fuzz): each is an
        # error in the input, reported at the token the parser stopped on
        line, col = _line_col(text, parser._current_token.span.start if parser is not None else 0)  # noqa: SLF001
        what = _one_line(str(e)) or type(e).__name__
        if isinstance(e, IndexError):
            what = f"xDSL's parser could not build this op (IndexError: {what}); is it complete?"
        if isinstance(e, NotImplementedError):
            # xDSL 0.74's affine expressions are affine only: `d0 mod s0`, `d0 floordiv s0`
            # (what upstream's --affine-loop-coalescing prints) raise it
            what = f"semi-affine maps (a product, mod or division by a symbol or dimension) are not supported: {what}"
        raise InfsError(what, f"{name}:{line}:{col}") from None
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
            raise InfsError(*_located(_strip_op_prefix(text, op.name), op)) from None
        except Exception as e:  # noqa: BLE001
            # a few of xDSL's own verifiers raise a bare Exception for malformed
            # input (scf.while "Block arguments with wrong type", found by make
            # fuzz); infs's ops raise VerifyException, so anything else from
            # them stays an internal error
            if type(op).__module__.startswith("infs."):
                raise
            text = _one_line(str(e)) or type(e).__name__
            raise InfsError(_strip_op_prefix(text, op.name), _loc_text(op.location), op.name) from None


def _located(message: str, op: Operation) -> tuple[str, str | None, str]:
    """(message, location, op name) of a verifier failure of ``op``; an op
    without a location (the body xDSL builds for a named linalg op, e.g. a
    ``linalg.matmul`` of i8 into i32) is named through its nearest ancestor
    that has one, so the line is the user's op."""
    if _loc_text(op.location) is None:
        p = op.parent_op()
        while p is not None and _loc_text(p.location) is None:
            p = p.parent_op()
        if p is not None:
            return f"its body's '{op.name}' does not verify: {message}", _loc_text(p.location), p.name
    return message, _loc_text(op.location), op.name


def _one_line(text: str) -> str:
    """All the lines of a message, joined (xDSL's constraint errors give the reason on a later line)."""
    return " ".join(line.strip() for line in text.strip().splitlines() if line.strip())


def _strip_op_prefix(text: str, opname: str) -> str:
    text = text.strip()
    for prefix in (f"'{opname}' ", f"{opname}: ", f"Operation {opname} "):
        if text.startswith(prefix):
            return text[len(prefix) :]
    return text
