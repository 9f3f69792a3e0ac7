"""What extract-streams says: its remarks, its refusals and its errors.

Takes an op (a loop nest, a linalg op, host code); gives its source location
as text, a ``Remark`` (one line per loop nest, printed as MLIR's optimization
remarks), ``Refuse`` (raised by the analysis: this nest, at this depth, is not
a stream region, and why), ``ExtractError`` (host code the pass cannot lower)
and an op's source line for the remarks that name loops by line.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException

from infs.passes import lowering_errors


# ---------------------------------------------------------------------------
# Remarks
# ---------------------------------------------------------------------------


def location_text(op: Operation) -> str:
    return lowering_errors.location_text(op) or "<unknown>"


@dataclass
class Remark:
    op: Operation
    text: str
    extracted: bool

    def __str__(self) -> str:
        return f"{location_text(self.op)}: remark: extract-streams: {self.text}"


class Refuse(Exception):
    """This loop nest (at this depth) is not a stream region; the message says why."""


class ExtractError(DiagnosticException):
    """Host code the pass cannot lower (one line, with the op's location)."""


def source_line(op: Operation) -> str:
    loc = op.location
    return str(loc.line.data) if isinstance(loc, FileLineColLoc) else "?"
