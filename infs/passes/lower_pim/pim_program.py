"""The lower-pim passes' side of the record form of ``pimcmd.program``.

Each lower-pim pass is an algorithm on a ``PimProgram`` (``Cmd`` records, see
``infs.dialects.pimcmd_records``) wrapped by a thin ``ModulePass`` that
converts the IR to records and back (``rewrite_programs``).  The JIT
(``infs.runtime.jit``) chains the algorithms on records and never builds the
IR: the simulator runs records (§4.2, "Reducing JIT Overheads").  Here: the
record passes' wrapper (``record_pass``, built on first use: ``lazy_pass``) and the
check that a program is still virtual.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from infs.dialects.pimcmd_records import PimProgram, RecordError
from infs.passes.lowering_errors import LoweringError

if TYPE_CHECKING:
    from xdsl.ir import Operation


def rewrite_programs(module: "Operation", step: Callable[[PimProgram], PimProgram]) -> None:
    """Apply a record-level lowering step to every ``pimcmd.program`` of ``module``."""
    from xdsl.rewriter import Rewriter

    from infs.dialects import pimcmd as pc
    from infs.dialects.pimcmd_records_ir import from_op, to_op

    for op in [o for o in module.walk() if isinstance(o, pc.ProgramOp)]:
        try:
            new = to_op(step(from_op(op)), list(op.arrays), list(op.scalars))
        except (LoweringError, RecordError) as e:
            raise LoweringError.about(op, e) from None
        new.location = op.location
        new.attributes.update(op.attributes)  # (a compiled program's provenance, lower_pim.py, survives a later step)
        Rewriter.replace_op(op, new, new_results=list(new.res))


def lazy_pass(module: str, class_name: str, build: Callable[[], type]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that gives the module's pass class ``class_name``, built by
    ``build`` (which imports xDSL) on first use: the module's algorithm imports without
    xDSL (the JIT runs it on a bundle's records), its ``ModulePass`` only when asked for
    (``infs.passes.pipelines``, ``infs-opt``).  The class belongs to ``module`` under
    ``class_name`` (its help line is that module's docstring; repr and pickle name it)."""

    def __getattr__(name: str) -> Any:
        if name != class_name:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        mod = sys.modules[module]
        cls = mod.__dict__.get(class_name)
        if cls is None:
            cls = build()
            cls.__module__ = module
            cls.__name__ = cls.__qualname__ = class_name
            if not cls.__doc__:
                cls.__doc__ = mod.__doc__
            setattr(mod, class_name, cls)  # (built once: later lookups find it without __getattr__)
        return cls

    return __getattr__


def record_pass(pass_name: str, step: Callable[[PimProgram], PimProgram], requires: Callable[[PimProgram], None] | None = None) -> Callable[[str], Any]:
    """The step module's ``__getattr__`` (``lazy_pass``) for the ``ModulePass`` named
    ``pass_name`` ("expand-mv-bc" -> ``ExpandMvBcPass``) that runs ``step`` on every program
    (``rewrite_programs``), after ``requires`` (a check that the steps it needs ran before it,
    raising ``LoweringError`` naming the missing one: a pipeline written by hand may leave one
    out; lower-pim's fixed order cannot, and calls ``step`` alone)."""

    def checked(prog: PimProgram) -> PimProgram:
        requires(prog)
        return step(prog)

    def build() -> type:
        from dataclasses import dataclass

        from xdsl.context import Context
        from xdsl.dialects.builtin import ModuleOp
        from xdsl.passes import ModulePass

        @dataclass(frozen=True)
        class RecordStepPass(ModulePass):
            name = pass_name

            def apply(self, ctx: Context, op: ModuleOp) -> None:
                rewrite_programs(op, step if requires is None else checked)

        # the step module's docstring (infs-opt --help prints its first line), not this one's
        RecordStepPass.__doc__ = sys.modules[step.__module__].__doc__
        return RecordStepPass

    return lazy_pass(step.__module__, "".join(w.capitalize() for w in pass_name.split("-")) + "Pass", build)


def require_virtual(prog: PimProgram, pass_name: str) -> None:
    if not prog.virtual:
        raise LoweringError(f"'{pass_name}' runs before allocate-wordlines (the program's registers are already wordlines)")
