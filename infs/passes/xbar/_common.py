"""What the ``xbar`` passes share: the ``hw.module`` ops of a module and one error line per failure."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from xdsl.dialects import hw
from xdsl.dialects.builtin import ModuleOp

from infs.dialects.netlist_records import NetlistError
from infs.dialects.xbar_records import XbarRecordError
from infs.passes.lowering_errors import LoweringError
from infs.passes.xbar.abc import AbcFailed, AbcMissing
from infs.passes.xbar.synthesis import SynthesisError


def hw_modules(module: ModuleOp) -> list[hw.HWModuleOp]:
    return [op for op in module.ops if isinstance(op, hw.HWModuleOp)]


@contextmanager
def reported(op) -> Iterator[None]:
    """Synthesis failures as one ``LoweringError`` line about ``op``."""
    try:
        yield
    except LoweringError:
        raise
    except (AbcMissing, AbcFailed, NetlistError, SynthesisError, XbarRecordError) as e:
        raise LoweringError.about(op, e) from None


def replace_each(module: ModuleOp, rewrite: Callable[[hw.HWModuleOp], object]) -> None:
    for op in hw_modules(module):
        with reported(op):
            new = rewrite(op)
        if new is not None:
            new.location = op.location  # later errors still name the input's line
            module.body.block.insert_op_before(new, op)
            op.detach()
            op.erase()
