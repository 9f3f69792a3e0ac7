"""The lower-pim passes' side of the record form of ``pimcmd.program``.

Each lower-pim pass is an algorithm on a ``PimProgram`` (``Cmd`` records, see
``infs.dialects.pimcmd_records``) wrapped by a thin ``ModulePass`` that
converts the IR to records and back (``rewrite_programs``).  The JIT
(``infs.runtime.jit``) chains the algorithms on records and never builds the
IR: the simulator runs records (§4.2, "Reducing JIT Overheads").  Here: the
record passes' wrapper (``record_pass``) and the check that a program is still virtual.
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

from infs.dialects import pimcmd as pc
from infs.dialects.pimcmd_records import PimProgram, RecordError
from infs.dialects.pimcmd_records_ir import from_op, to_op
from infs.passes.lowering_errors import LoweringError


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


def require_virtual(prog: PimProgram, pass_name: str) -> None:
    if not prog.virtual:
        raise LoweringError(f"'{pass_name}' runs before allocate-wordlines (the program's registers are already wordlines)")
