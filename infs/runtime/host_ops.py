"""The host ops xDSL's interpreter runs for us: integer ``arith``, ``scf``,
``func``, ``math`` and ``builtin.unrealized_conversion_cast``.

Why not ``xdsl.interpreters.arith`` and friends: importing any module of the
``xdsl.interpreters`` package runs the package's ``__init__``, which imports
every interpreter xDSL has (riscv, snitch, linalg, pdl, ...) with their
dialects -- 0.2-0.6 s of start-up per process for the ~30 scalar ops host code
uses.  There is no clean way to load a submodule without its
package's ``__init__`` (it would mean planting a fake package in
``sys.modules``), so this module implements those ops itself, with xDSL 0.74's
semantics op for op (signless integers wrapped to the width of their type with
``to_signed``; ``index`` is ``interpreter.index_bitwidth`` wide; division
truncates; ``floordivsi``/``ceildivsi`` run in ``infs.runtime.host``, with the
regions' semantics); ``test/test_host_ops.py`` runs both on the
same inputs.  Where xDSL asserts (a zero divisor) the host says so in one line
instead of an ``AssertionError``; a shift by the bit width or more (poison in
MLIR, an ``AssertionError`` or a huge Python int in xDSL) gives 0 or the sign.

Float arith, float and integer constants and the ops xDSL lacks are in
``infs.runtime.host`` (numpy semantics, in the op's own precision).
"""

from __future__ import annotations

import functools
import math
import operator
import sys
from collections.abc import Callable
from typing import Any

from xdsl.dialects import arith, builtin, func, scf
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_callable,
    impl_terminator,
    register_impls,
)
from xdsl.utils.comparisons import to_signed, to_unsigned

from infs.runtime.call_depth import MAX_CALL_DEPTH
from infs.runtime.scalar_ops import EvaluationError, op_label


def _width(interpreter: Interpreter, t: Any) -> int:
    if isinstance(t, builtin.IntegerType):
        return t.width.data
    if isinstance(t, builtin.IndexType):
        return interpreter.index_bitwidth
    raise ValueError("unexpected integer type")


def _wrapping(fn: Callable[[int, int], int]):
    """A signless binary integer op: operands and result wrapped to the result's width."""

    def run(self: InterpreterFunctions, interpreter: Interpreter, op: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
        w = _width(interpreter, op.result.type)
        return (to_signed(fn(to_signed(args[0], w), to_signed(args[1], w)), w),)

    return run


_WRAPPING_OPS: dict[type, Callable[[int, int], int]] = {
    arith.AddiOp: operator.add, arith.SubiOp: operator.sub, arith.MuliOp: operator.mul,
    arith.AndIOp: operator.and_, arith.OrIOp: operator.or_, arith.XOrIOp: operator.xor,
}  # fmt: skip

# arith.cmpi predicates 0-9: eq ne slt sle sgt sge ult ule ugt uge (6-9 compare unsigned)
_CMPI = (operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge, operator.lt, operator.le, operator.gt, operator.ge)


def _truncated_quotient(lhs: int, rhs: int, op: Any) -> int:
    if rhs == 0:  # the program's error naming the op's line, as in a region (scalar_ops)
        raise EvaluationError(f"division by zero in {op_label(op)}")
    q = abs(lhs) // abs(rhs)
    return -q if (lhs > 0) != (rhs > 0) else q


@register_impls
class HostIntegerArith(InterpreterFunctions):
    """Integer ``arith`` on Python ints (xDSL 0.74's ``ArithFunctions``)."""

    for _op, _fn in _WRAPPING_OPS.items():
        locals()[f"run_{_op.__name__}"] = impl(_op)(_wrapping(_fn))
    del _op, _fn

    @impl(arith.CmpiOp)
    def run_cmpi(self, interpreter: Interpreter, op: arith.CmpiOp, args: tuple[Any, ...]):
        w = _width(interpreter, op.lhs.type)
        p = op.predicate.value.data
        if not 0 <= p < len(_CMPI):
            raise EvaluationError(f"{op_label(op)}: predicate {p} is not one of cmpi's ten")
        conv = to_unsigned if p >= 6 else to_signed
        return (_CMPI[p](conv(args[0], w), conv(args[1], w)),)

    # A shift amount is unsigned, and shifting by the bit width or more is poison in
    # MLIR (LLVM's shl/ashr): the host gives what a region's numpy gives (0, or the
    # sign for shrsi), never a huge Python int (1 << 2**40: a MemoryError) or an error
    # for an amount that only reads negative as signed (an i8 200).
    @impl(arith.ShLIOp)
    def run_shli(self, interpreter: Interpreter, op: arith.ShLIOp, args: tuple[Any, ...]):
        w = _width(interpreter, op.result.type)
        amount = to_unsigned(args[1], w)
        return (to_signed(to_signed(args[0], w) << amount, w) if amount < w else 0,)

    @impl(arith.ShRSIOp)
    def run_shrsi(self, interpreter: Interpreter, op: arith.ShRSIOp, args: tuple[Any, ...]):
        w = _width(interpreter, op.result.type)
        return (to_signed(args[0], w) >> min(to_unsigned(args[1], w), w),)

    @impl(arith.DivSIOp)
    def run_divsi(self, interpreter: Interpreter, op: arith.DivSIOp, args: tuple[Any, ...]):
        w = _width(interpreter, op.result.type)
        return (to_signed(_truncated_quotient(to_signed(args[0], w), to_signed(args[1], w), op), w),)

    @impl(arith.RemSIOp)
    def run_remsi(self, interpreter: Interpreter, op: arith.RemSIOp, args: tuple[Any, ...]):
        w = _width(interpreter, op.result.type)
        lhs, rhs = to_signed(args[0], w), to_signed(args[1], w)
        return (lhs - _truncated_quotient(lhs, rhs, op) * rhs,)

    @impl(arith.SelectOp)
    def run_select(self, interpreter: Interpreter, op: arith.SelectOp, args: tuple[Any, ...]):
        # host values are scalars and numpy arrays (memrefs): the condition is a scalar
        cond, lhs, rhs = args
        return (lhs if cond else rhs,)

    @impl(arith.IndexCastOp)
    def run_index_cast(self, interpreter: Interpreter, op: arith.IndexCastOp, args: tuple[Any, ...]):
        (value,) = args
        src, dst = _width(interpreter, op.input.type), _width(interpreter, op.result.type)
        # narrowing truncates to the new width, widening sign-extends from the old one:
        # both are the value read as signed at the narrower of the two widths
        return (to_signed(value, min(src, dst)),)


@register_impls
class HostScf(InterpreterFunctions):
    """``scf``: if, for, while, index_switch and their terminators."""

    @impl(scf.IfOp)
    def run_if(self, interpreter: Interpreter, op: scf.IfOp, args: tuple[Any, ...]):
        (cond,) = args
        return interpreter.run_ssacfg_region(op.true_region if cond else op.false_region, ())

    @impl(scf.ForOp)
    def run_for(self, interpreter: Interpreter, op: scf.ForOp, args: tuple[Any, ...]):
        lb, ub, step, *carried = args
        if step <= 0:  # MLIR's scf.for takes a positive step (a zero one made range() fail, unnamed)
            raise EvaluationError(f"{op_label(op)} has step {step}: a loop's step must be positive")
        values = tuple(carried)
        for i in range(lb, ub, step):
            values = interpreter.run_ssacfg_region(op.body, (i, *values), "for_loop")
        return values

    @impl(scf.WhileOp)
    def run_while(self, interpreter: Interpreter, op: scf.WhileOp, args: tuple[Any, ...]):
        values = args
        while True:
            # the before region ends in scf.condition(%cond) %forwarded...
            cond, *forwarded = interpreter.run_ssacfg_region(op.before_region, values, "while.before_region")
            if not cond:
                return tuple(forwarded)
            values = interpreter.run_ssacfg_region(op.after_region, tuple(forwarded), "while.after_region")

    @impl(scf.IndexSwitchOp)
    def run_index_switch(self, interpreter: Interpreter, op: scf.IndexSwitchOp, args: tuple[Any, ...]):
        cases = op.cases.get_values()
        if args[0] in cases:
            k = cases.index(args[0])
            return interpreter.run_ssacfg_region(op.case_regions[k], (), f"index_switch.case {k}")
        return interpreter.run_ssacfg_region(op.default_region, (), "index_switch.case default")

    @impl_terminator(scf.YieldOp)
    def run_yield(self, interpreter: Interpreter, op: scf.YieldOp, args: tuple[Any, ...]) -> tuple[TerminatorValue, tuple[Any, ...]]:
        return ReturnedValues(args), ()

    @impl_terminator(scf.ConditionOp)
    def run_condition(self, interpreter: Interpreter, op: scf.ConditionOp, args: tuple[Any, ...]) -> tuple[TerminatorValue, tuple[Any, ...]]:
        return ReturnedValues(args), ()




@register_impls
class HostFunc(InterpreterFunctions):
    """``func``: calls, returns, and the body of a called function."""

    def __init__(self) -> None:
        self.depth = 0  # calls under way (an interpreter per run)

    @impl_terminator(func.ReturnOp)
    def run_return(self, interpreter: Interpreter, op: func.ReturnOp, args: tuple[Any, ...]) -> tuple[TerminatorValue, tuple[Any, ...]]:
        return ReturnedValues(args), ()

    @impl(func.CallOp)
    def run_call(self, interpreter: Interpreter, op: func.CallOp, args: tuple[Any, ...]):
        if self.depth >= MAX_CALL_DEPTH:
            raise EvaluationError(f"{op_label(op)}: calls nest more than {MAX_CALL_DEPTH:,} deep (a recursion that does not end?)")
        self.depth += 1
        try:
            return interpreter.call_op(op.callee, args)
        finally:
            self.depth -= 1

    @impl_callable(func.FuncOp)
    def call_func(self, interpreter: Interpreter, op: func.FuncOp, args: tuple[Any, ...]):
        block = op.body.blocks.first
        if block is None or not block.ops:
            # xDSL's 'Could not find external function implementation' named no call
            raise EvaluationError(f"@{op.sym_name.data} is a declaration (no body): the host cannot run a call to it")
        return interpreter.run_ssacfg_region(op.body, args, op.sym_name.data)


@functools.cache
def _host_math() -> type[InterpreterFunctions]:
    """``math.exp``/``sqrt``/``log`` in Python double precision (as xDSL 0.74).  Built on
    first use: xDSL's math dialect costs 15-35 ms to import, and a program has math ops
    only if parsing it loaded that dialect (``host_op_functions``)."""
    from xdsl.dialects import math as math_dialect

    @register_impls
    class HostMath(InterpreterFunctions):
        @impl(math_dialect.ExpOp)
        def run_exp(self, interpreter: Interpreter, op: Any, args: tuple[Any, ...]):
            return (math.exp(args[0]),)

        @impl(math_dialect.SqrtOp)
        def run_sqrt(self, interpreter: Interpreter, op: Any, args: tuple[Any, ...]):
            return (math.sqrt(args[0]),)

        @impl(math_dialect.LogOp)
        def run_log(self, interpreter: Interpreter, op: Any, args: tuple[Any, ...]):
            return (math.log(args[0]),)

    return HostMath


@register_impls
class HostBuiltin(InterpreterFunctions):
    """``builtin.unrealized_conversion_cast`` through the interpreter's registered casts."""

    @impl(builtin.UnrealizedConversionCastOp)
    def run_cast(self, interpreter: Interpreter, op: builtin.UnrealizedConversionCastOp, args: tuple[Any, ...]):
        return tuple(interpreter.cast_value(o.type, r.type, a) for o, r, a in zip(op.operands, op.results, args))


def host_op_functions() -> tuple[type[InterpreterFunctions], ...]:
    """What ``infs.runtime.host.make_interpreter`` registers before its own overrides.
    The math ops only once xDSL's math dialect is loaded: no ``math`` op can exist before
    (parsing or building one imports ``xdsl.dialects.math``)."""
    fns: tuple[type[InterpreterFunctions], ...] = (HostIntegerArith, HostScf, HostFunc, HostBuiltin)
    return fns + (_host_math(),) if "xdsl.dialects.math" in sys.modules else fns
