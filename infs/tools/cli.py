"""What the command-line tools share: one-line errors, exit codes, a lazy ``--version``.

Imports nothing heavy (the standard library and ``infs``'s package face), so a
tool's ``--help`` and ``--version`` load neither xDSL nor numpy: a tool
builds its parser with this, and imports what runs a program only once the
arguments are read.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

from infs import version_text


class UsageError(Exception):
    """A mistake in the command line or in what it names (exit 2, one line)."""


def errors_in_one_line(parser: argparse.ArgumentParser, prog: str) -> None:
    """A command-line mistake is one line on stderr and exit 2 (argparse prints its usage too)."""

    def one_line_error(message: str) -> NoReturn:
        print(f"{prog}: error: {message}", file=sys.stderr)
        raise SystemExit(2)

    parser.error = one_line_error  # type: ignore[method-assign]


def _loaded(module: str, name: str) -> type | None:
    """The exception class ``module.name`` if that module is loaded: an exception of
    a module never imported cannot have been raised, so checking for one imports nothing."""
    return getattr(sys.modules.get(module), name, None)


def _bad_input_classes() -> tuple[type, ...]:
    # InfsError (parse/verify), EvaluationError (reference semantics), ConfigError
    # (hardware), SimError (the machine), and a ValueError of any other kind
    found = (
        _loaded("infs.dialects.parse", "InfsError"),
        _loaded("infs.element_types", "EvaluationError"),
        _loaded("infs.hardware", "ConfigError"),
        _loaded("infs.sim.sram.machine", "SimError"),
    )
    return (*(c for c in found if c is not None), ValueError)


def report_failure(prog: str, e: BaseException, source: str | None = None) -> int:
    """One line on stderr for an exception that ends a run, and its exit code:
    1 for bad input or a refused run, 130 for Ctrl-C, 70 for a bug in infs
    (``INFS_DEBUG=1`` re-raises it with its traceback).  ``source``: the program's
    file, named by an error of its values (``EvaluationError``: the lines are in
    its message)."""
    if isinstance(e, _bad_input_classes()):
        text = str(e).strip()
        first = text.splitlines()[0] if text else type(e).__name__
        infs_error = _loaded("infs.dialects.parse", "InfsError")
        evaluation_error = _loaded("infs.element_types", "EvaluationError")
        if infs_error is not None and isinstance(e, infs_error):
            print(f"{prog}: {e}", file=sys.stderr)
        else:
            named = source and evaluation_error is not None and isinstance(e, evaluation_error)
            print(f"{prog}: {source + ': ' if named else ''}error: {first}", file=sys.stderr)
        return 1
    if isinstance(e, KeyboardInterrupt):
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    if os.environ.get("INFS_DEBUG"):
        raise e
    print(f"{prog}: internal error: {type(e).__name__}: {e} (please report; INFS_DEBUG=1 shows the traceback)", file=sys.stderr)
    return 70


class VersionAction(argparse.Action):
    """``--version``, its text read from the installed metadata only when asked
    (argparse's own action takes the text up front: importlib.metadata at every start).
    The parser's ``prog`` names the tool."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text(parser.prog))
        parser.exit()
