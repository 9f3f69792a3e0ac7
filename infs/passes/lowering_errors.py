"""The lowering error and error locations, shared by every pass that lowers a tDFG.

A tDFG that cannot be lowered (for a machine, or at all) raises ``LoweringError``
with one line naming the graph or program (``where``) and the op's
``file:line:col`` as data (``location_text``), for ``infs-opt`` and the runtime alike.
The error is a ``ValueError`` (bad input), not an xDSL diagnostic: the JIT raises it
when it lowers a bundle's records without xDSL; the functions that read an op's
location import xDSL when called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.ir import Operation


class LoweringError(ValueError):
    """A tDFG that cannot be lowered for this machine (one-line message).

    ``location`` ("file:line:col", or None) is the op the error is about, as
    data: ``infs-opt --verify-diagnostics`` matches the error to an
    ``expected-error`` annotation on that line, as mlir-opt does for a pass
    failure emitted on an op.  ``about`` sets it."""

    def __init__(self, message: str, location: str | None = None):
        super().__init__(message)
        self.location = location

    @classmethod
    def about(cls, op: "Operation", e: Exception | str) -> LoweringError:
        """``e`` as an error of ``op``: its text after ``where(op)``, op's location as data."""
        return cls(f"{where(op)}: {e}", location=location_text(op))


def location_text(op: "Operation") -> str | None:
    """'f.mlir:3:5', or None when the op has no file location."""
    from xdsl.dialects.builtin import FileLineColLoc

    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return None


def where(op: "Operation") -> str:
    """'the program at f.mlir:3:5 in @fn' -- which graph/program an error is about."""
    from xdsl.dialects.func import FuncOp
    from xdsl.traits import HasAncestor

    parts = [f"the {op.name}"]
    loc = location_text(op)
    if loc is not None:
        parts.append(f"at {loc}")
    fn = HasAncestor(FuncOp).get_ancestor(op)  # (op itself, a graph or a program, is no function)
    if fn is not None:
        parts.append(f"in @{fn.sym_name.data}")
    return " ".join(parts)
