"""The lower-pim passes' side of the record form of ``pimcmd.program``.

Each lower-pim pass is an algorithm on a ``PimProgram`` (``Cmd`` records, see
``infs.dialects.pimcmd_records``) wrapped by a thin ``ModulePass`` that
converts the IR to records and back (``rewrite_programs``).  The JIT
(``infs.runtime.jit``) chains the algorithms on records and never builds the
IR: the simulator runs records (§4.2, "Reducing JIT Overheads").  Here: the
lowering error, error locations, and box arithmetic shared by the passes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import DiagnosticException

from infs.dialects import pimcmd as pc
from infs.dialects.pimcmd_records import Box, PimProgram, RecordError, from_op, to_op


class LoweringError(DiagnosticException):
    """A tDFG that cannot be lowered for this machine (one-line message).

    ``location`` ("file:line:col", or None) is the op the error is about, as
    data: ``infs-opt --verify-diagnostics`` matches the error to an
    ``expected-error`` annotation on that line, as mlir-opt does for a pass
    failure emitted on an op.  ``about`` sets it."""

    def __init__(self, message: str, location: str | None = None):
        super().__init__(message)
        self.location = location

    @classmethod
    def about(cls, op: Operation, e: Exception | str) -> LoweringError:
        """``e`` as an error of ``op``: its text after ``where(op)``, op's location as data."""
        return cls(f"{where(op)}: {e}", location=location_text(op))


def rewrite_programs(module: Operation, step: Callable[[PimProgram], PimProgram]) -> None:
    """Apply a record-level lowering step to every ``pimcmd.program`` of ``module``."""
    for op in [o for o in module.walk() if isinstance(o, pc.ProgramOp)]:
        try:
            new = to_op(step(from_op(op)), list(op.arrays), list(op.scalars))
        except (LoweringError, RecordError) as e:
            raise LoweringError.about(op, e) from None
        new.location = op.location
        new.attributes.update(op.attributes)  # (a compiled program's provenance, lower_pim.py, survives a later step)
        Rewriter.replace_op(op, new, new_results=list(new.res))


def record_pass(pass_name: str, step: Callable[[PimProgram], PimProgram], requires: Callable[[PimProgram], None] | None = None) -> type[ModulePass]:
    """The ``ModulePass`` named ``pass_name`` that runs ``step`` on every program (``rewrite_programs``),
    after ``requires`` (a check that the steps it needs ran before it, raising ``LoweringError``
    naming the missing one: a pipeline written by hand may leave one out; lower-pim's fixed order
    cannot, and calls ``step`` alone)."""

    def checked(prog: PimProgram) -> PimProgram:
        requires(prog)
        return step(prog)

    @dataclass(frozen=True)
    class RecordStepPass(ModulePass):
        name = pass_name

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            rewrite_programs(op, step if requires is None else checked)

    # The class belongs to the step's module, under the name that module binds it to
    # ("expand-mv-bc" -> ExpandMvBcPass): its docstring is that module's (infs-opt --help
    # prints the module docstring's first line), and repr/pickle name the real pass.
    RecordStepPass.__module__ = step.__module__
    RecordStepPass.__name__ = RecordStepPass.__qualname__ = "".join(w.capitalize() for w in pass_name.split("-")) + "Pass"
    RecordStepPass.__doc__ = sys.modules[step.__module__].__doc__
    return RecordStepPass


def location_text(op: Operation) -> str | None:
    """'f.mlir:3:5', or None when the op has no file location."""
    from xdsl.dialects.builtin import FileLineColLoc

    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    return None


def where(op: Operation) -> str:
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


def require_virtual(prog: PimProgram, pass_name: str) -> None:
    if not prog.virtual:
        raise LoweringError(f"'{pass_name}' runs before allocate-wordlines (the program's registers are already wordlines)")


# (list comprehensions and conditionals, not generators and max/min: these run per node per lowering)
def box_intersect(a: Box, b: Box) -> Box:
    return tuple([(p0 if p0 > p1 else p1, q0 if q0 < q1 else q1) for (p0, q0), (p1, q1) in zip(a, b)])


def box_shift(b: Box, dim: int, k: int) -> Box:
    return tuple([(p + k, q + k) if d == dim else (p, q) for d, (p, q) in enumerate(b)])


def box_with(b: Box, dim: int, p: int, q: int) -> Box:
    return tuple([(p, q) if d == dim else r for d, r in enumerate(b)])
