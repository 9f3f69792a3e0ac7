"""Runs host functions (func/scf/arith/memref around offloaded regions).

Built on xDSL's interpreter: ``host_ops`` implements func/scf/integer
arith/math with xDSL's semantics (not ``xdsl.interpreters``: start-up), and this module adds numpy-backed ``memref`` ops and a hook that
executes each ``stream.region`` (by default with the reference semantics; the
runtime plugs other executors in) and each ``tdfg.graph`` of a program
tensorized ahead of time (through the executor the runtime gives).
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import AnyFloat, DenseIntOrFPElementsAttr, FloatAttr, IndexType, IntegerAttr, IntegerType, MemRefType, ModuleOp
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.utils.comparisons import to_signed, to_unsigned
from xdsl.utils.exceptions import InterpretationError

from infs.dialects import stream, tdfg
from infs.runtime.call_depth import deep_calls
from infs.runtime.host_ops import host_op_functions  # not xdsl.interpreters: its __init__ loads every interpreter (host_ops' docstring)
from infs.runtime import memory
from infs.runtime.memory import phantom_array  # noqa: F401 -- the host's API (infs-run's timing-only arguments)
from infs.runtime.reference import evaluate_region
from infs.runtime.scalar_ops import EvaluationError, eval_scalar_op, numpy_dtype, op_label

RegionExecutor = Callable[[stream.RegionOp, list[np.ndarray], list[Any]], list[Any]]
GraphExecutor = Callable[[tdfg.GraphOp, list[np.ndarray], list[Any]], list[Any]]
ProgramExecutor = Callable[[Any, list[np.ndarray], list[Any]], list[Any]]  # a pimcmd.program's (compiled ahead of time)


def checked_alloc(shape: Sequence[int], dtype: np.dtype, what: str) -> np.ndarray:
    """``np.zeros`` after checking the host has the memory (else an EvaluationError, not a MemoryError)."""
    return memory.checked_alloc(shape, dtype, what, EvaluationError)


def _as_scalar(v: Any) -> Any:
    """A numpy scalar of the value's own dtype (f32 results stay float32)."""
    return np.asarray(v)[()]


def _operand(a: Any, t: Any) -> np.ndarray:
    """A host value as a numpy scalar of its operand's type: host integers are
    Python ints (signed), so an unsigned op (shrui, remui, extui, ...) must see
    them at their own width, not as int64."""
    try:
        dtype = numpy_dtype(t)
    except EvaluationError:  # a type numpy cannot hold: the op's evaluation says so
        return np.asarray(a)
    with np.errstate(over="ignore"):
        return np.asarray(a).astype(dtype) if np.asarray(a).dtype != dtype else np.asarray(a)


def _int_width(t: Any) -> int | None:
    """The width of an integer type numpy has no dtype for (i4, i17, i128), else None."""
    if isinstance(t, IntegerType) and t.width.data not in (1, 8, 16, 32, 64):
        return t.width.data
    return None


def _odd_width_op(op: Any, args: tuple[Any, ...]) -> Any:
    """An integer op on a width numpy has no dtype for, on Python ints, with MLIR's
    semantics.  Through numpy, an i4's bits were read as int64: extui of an i4 -3
    gave -3 (not 13), uitofp 1.8e19, and divui/shrui/trunci/maxsi/... stopped with
    'no numpy type for i4' naming no op."""
    ins = [x.type for x in op.operands]
    rt = op.results[0].type
    win = [64 if isinstance(t, IndexType) else t.width.data if isinstance(t, IntegerType) else None for t in ins]
    wout = 64 if isinstance(rt, IndexType) else rt.width.data if isinstance(rt, IntegerType) else None
    sv = [to_signed(int(a), w) if w else a for a, w in zip(args, win)]
    uv = [to_unsigned(int(a), w) if w else a for a, w in zip(args, win)]
    if isinstance(op, (arith.DivUIOp, arith.RemUIOp, arith.FloorDivSIOp, arith.CeilDivSIOp)) and sv[1] == 0:
        raise EvaluationError(f"division by zero in {op_label(op)}")
    if isinstance(op, arith.ExtSIOp):
        r = sv[0]
    elif isinstance(op, arith.ExtUIOp):
        r = uv[0]
    elif isinstance(op, arith.TruncIOp):
        r = sv[0]  # wrapped below
    elif isinstance(op, arith.DivUIOp):
        r = uv[0] // uv[1]
    elif isinstance(op, arith.RemUIOp):
        r = uv[0] % uv[1]
    elif isinstance(op, arith.ShRUIOp):
        r = uv[0] >> uv[1] if uv[1] < wout else 0  # by the width or more: poison, 0 as numpy
    elif isinstance(op, (arith.MaxSIOp, arith.MinSIOp)):
        r = (max if isinstance(op, arith.MaxSIOp) else min)(sv)
    elif isinstance(op, (arith.MaxUIOp, arith.MinUIOp)):
        r = (max if isinstance(op, arith.MaxUIOp) else min)(uv)
    elif isinstance(op, arith.FloorDivSIOp):
        r = sv[0] // sv[1]
    elif isinstance(op, arith.CeilDivSIOp):
        r = -(-sv[0] // sv[1])
    elif isinstance(op, (arith.SIToFPOp, arith.UIToFPOp)):
        x = (sv if isinstance(op, arith.SIToFPOp) else uv)[0]
        dt = numpy_dtype(rt)
        with np.errstate(over="ignore"):
            return np.asarray(float(x) if abs(x) < 2**1000 else math.copysign(math.inf, x)).astype(dt)[()]
    elif isinstance(op, arith.FPToSIOp):
        x = float(args[0])
        r = int(x) if math.isfinite(x) else 0  # out of range: poison (wrapped below)
    elif op.name == "math.absi":
        r = abs(sv[0])
    else:
        raise EvaluationError(f"{op_label(op)} on {', '.join(str(t) for t in ins)} is not supported on the host")
    return to_signed(r, wout)


def _host_scalar_op(self: InterpreterFunctions, interpreter: Interpreter, op: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    if any(_int_width(x.type) for x in (*op.operands, *op.results)):
        return (_odd_width_op(op, args),)
    try:
        v = _as_scalar(eval_scalar_op(op, [_operand(a, x.type) for a, x in zip(args, op.operands)]))
    except EvaluationError as e:
        if str(e).startswith("no numpy type"):  # bf16, ...: which op
            raise EvaluationError(f"{op_label(op)}: {e}") from None
        raise
    # integers as Python ints: xDSL's own integer ops (addi, index_cast, ...)
    # overflow on a numpy int32 when they wrap the result to its width
    return (int(v) if isinstance(v, np.integer) else v,)


# arith ops xDSL's interpreter does not implement on the host (unsigned
# division, float division, casts...): run them with the same numpy semantics
# as stream computations.
_HOST_EXTRA_ARITH = (
    arith.DivUIOp, arith.RemUIOp, arith.ShRUIOp, arith.DivfOp, arith.NegfOp,
    arith.SIToFPOp, arith.UIToFPOp, arith.FPToSIOp, arith.ExtFOp, arith.TruncFOp,
    arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp, arith.MaxSIOp, arith.MinSIOp,
    arith.MaxUIOp, arith.MinUIOp, arith.MaxnumfOp, arith.MinnumfOp,
    arith.FloorDivSIOp, arith.CeilDivSIOp,
)  # fmt: skip


# float arith that xDSL's interpreter runs in Python double precision: run it in
# the op's own type (f32 stays float32, as in the regions and on the machine)
_HOST_FLOAT_ARITH = (arith.AddfOp, arith.SubfOp, arith.MulfOp, arith.MaximumfOp, arith.MinimumfOp, arith.CmpfOp)


@register_impls
class HostArithExtras(InterpreterFunctions):
    """The arith ops xDSL's interpreter does not implement (``host_ops`` has the others)."""

    for _op in _HOST_EXTRA_ARITH:
        locals()[f"run_{_op.__name__}"] = impl(_op)(_host_scalar_op)
    del _op


@register_impls
class HostFloatArith(InterpreterFunctions):
    """Float arith and float constants in their own precision (overrides xDSL's)."""

    for _op in _HOST_FLOAT_ARITH:
        locals()[f"run_{_op.__name__}"] = impl(_op)(_host_scalar_op)
    del _op

    @impl(arith.ConstantOp)
    def run_constant(self, interpreter: Interpreter, op: arith.ConstantOp, args: tuple[Any, ...]):
        v = op.value
        if isinstance(v, FloatAttr):
            return (numpy_dtype(v.type).type(v.value.data),)
        if isinstance(v, IntegerAttr):
            # wrapped to its width: xDSL keeps an index constant written in the
            # unsigned range (18446744073709551615 : index, i.e. -1) as it is, which
            # as a loop bound ran 2**64 - 1 iterations and matched no index_switch case
            w = interpreter.index_bitwidth if isinstance(v.type, IndexType) else v.type.width.data
            return (to_signed(int(v.value.data), w) if w > 1 else int(v.value.data),)
        # a vector or tensor constant: no op line was named
        raise EvaluationError(f"{op_label(op)} of type {op.result.type} is not supported on the host (it runs scalar arith)")


def _bits(t: Any) -> int:
    return 64 if isinstance(t, IndexType) else t.width.data if isinstance(t, IntegerType) else numpy_dtype(t).itemsize * 8


@register_impls
class HostArithPython(InterpreterFunctions):
    """arith ops neither xDSL's interpreter nor the regions' numpy semantics have,
    on the host's Python ints with MLIR's semantics (each stopped a host loop
    with '... is not supported on the host')."""

    @impl(arith.FPToUIOp)
    def run_fptoui(self, interpreter: Interpreter, op: arith.FPToUIOp, args: tuple[Any, ...]):
        x = float(args[0])
        # toward zero; NaN, inf and values out of the unsigned range are poison: their low bits
        return (to_signed(int(x) if math.isfinite(x) else 0, _bits(op.result.type)),)

    @impl(arith.CeilDivUIOp)
    def run_ceildivui(self, interpreter: Interpreter, op: arith.CeilDivUIOp, args: tuple[Any, ...]):
        w = _bits(op.result.type)
        a, b = to_unsigned(int(args[0]), w), to_unsigned(int(args[1]), w)
        if b == 0:
            raise EvaluationError(f"division by zero in {op_label(op)}")
        return (to_signed(-(-a // b), w),)

    @impl(arith.AddUIExtendedOp)
    def run_addui_extended(self, interpreter: Interpreter, op: arith.AddUIExtendedOp, args: tuple[Any, ...]):
        w = _bits(op.sum.type)
        total = to_unsigned(int(args[0]), w) + to_unsigned(int(args[1]), w)
        return (to_signed(total, w), total >= 2**w)

    @impl(arith.MulSIExtendedOp)
    def run_mulsi_extended(self, interpreter: Interpreter, op: arith.MulSIExtendedOp, args: tuple[Any, ...]):
        w = _bits(op.low.type)
        p = to_signed(int(args[0]), w) * to_signed(int(args[1]), w)
        return (to_signed(p, w), to_signed(p >> w, w))

    @impl(arith.MulUIExtendedOp)
    def run_mului_extended(self, interpreter: Interpreter, op: arith.MulUIExtendedOp, args: tuple[Any, ...]):
        w = _bits(op.low.type)
        p = to_unsigned(int(args[0]), w) * to_unsigned(int(args[1]), w)
        return (to_signed(p, w), to_signed(p >> w, w))

    @impl(arith.BitcastOp)
    def run_bitcast(self, interpreter: Interpreter, op: arith.BitcastOp, args: tuple[Any, ...]):
        src, dst = op.input.type, op.result.type
        (v,) = args
        if isinstance(src, (IntegerType, IndexType)) and isinstance(dst, (IntegerType, IndexType)):
            return (v,)  # signless: the same bits
        w = _bits(dst)
        if isinstance(src, (IntegerType, IndexType)):  # the bits of an int as a float
            return (np.asarray(to_signed(int(v), w), dtype=f"int{w}").view(numpy_dtype(dst))[()],)
        bits = np.asarray(v, dtype=numpy_dtype(src)).view(f"int{w}")[()]
        return (int(bits) if isinstance(dst, (IntegerType, IndexType)) else bits.view(numpy_dtype(dst))[()],)


@functools.cache
def host_math_functions() -> type[InterpreterFunctions]:
    """``math`` ops on the host with the regions' numpy semantics, in the op's own
    type (overrides ``host_ops``' Python-double exp/sqrt/log, which raised on
    sqrt(-1), log(0) -- "math domain error", no line -- and exp(800) -- an
    OverflowError: NaN and inf, as in a region); also absf/absi/tanh/fma/powf,
    which the host lacked, and floor/ceil/sin/cos/copysign/fpowi.  Built on first use, as ``host_ops``' math ops."""
    from xdsl.dialects import math as math_dialect

    ops = (math_dialect.AbsFOp, math_dialect.AbsIOp, math_dialect.SqrtOp, math_dialect.ExpOp, math_dialect.LogOp,
           math_dialect.TanhOp, math_dialect.FmaOp, math_dialect.PowFOp, math_dialect.FloorOp, math_dialect.CeilOp,
           math_dialect.SinOp, math_dialect.CosOp, math_dialect.CopySignOp, math_dialect.FPowIOp)  # fmt: skip

    @register_impls
    class HostMathNumpy(InterpreterFunctions):
        for _op in ops:
            locals()[f"run_{_op.__name__}"] = impl(_op)(_host_scalar_op)
        del _op

    return HostMathNumpy


@functools.cache
def numpy_memref_functions() -> type[InterpreterFunctions]:
    """The host's ``memref`` ops, built on first use: xDSL's memref dialect costs
    15-50 ms to import, and a program has memref ops only if parsing (or building)
    it loaded that dialect (``make_interpreter``), as with ``host_ops``' math ops."""
    from xdsl.dialects import memref

    from infs.dialects.upstream_syntax import MemRefAllocaOp, MemRefAllocOp, MemRefCastOp

    @register_impls
    class NumpyMemrefFunctions(InterpreterFunctions):
        """``memref`` ops on numpy arrays (the host's memory); ``phantom``: allocations
        are shapes without data (timing-only runs)."""

        def __init__(self, phantom: bool = False):
            self.phantom = phantom
            self.globals: dict[str, np.ndarray] = {}  # memref.global: one array per run

        @impl(memref.GetGlobalOp)
        def run_get_global(self, interpreter: Interpreter, op: memref.GetGlobalOp, args: tuple[Any, ...]):
            # cgeist's static arrays (a C global or a constant table): the module's
            # memref.global, made once per run from its initial value (zeros if none)
            name = op.name_.root_reference.data
            if name not in self.globals:
                glob = next((g for g in interpreter.module.walk() if isinstance(g, memref.GlobalOp) and g.sym_name.data == name), None)
                if glob is None:
                    raise EvaluationError(f"'{op.name}' of @{name}: the module has no memref.global @{name}")
                t = glob.type
                dt = numpy_dtype(t.element_type)
                shape = tuple(t.get_shape())
                init = glob.initial_value
                if isinstance(init, DenseIntOrFPElementsAttr):
                    vals = np.asarray(init.get_values(), dtype=dt)
                    self.globals[name] = (np.full(shape, vals.item(), dt) if vals.size == 1 else vals.reshape(shape)).copy()
                else:
                    self.globals[name] = checked_alloc(shape, dt, f"'{op.name}' of @{name}")
            return (self.globals[name],)

        @impl(memref.CastOp)
        def run_cast(self, interpreter: Interpreter, op: memref.CastOp, args: tuple[Any, ...]):
            return (args[0],)  # the same memory, its static/dynamic dims relabelled

        @impl(memref.AllocOp)
        def run_alloc(self, interpreter: Interpreter, op: memref.AllocOp, args: tuple[Any, ...]):
            return self.allocate(op, args)

        @impl(memref.AllocaOp)
        def run_alloca(self, interpreter: Interpreter, op: memref.AllocaOp, args: tuple[Any, ...]):
            # not through run_alloc: @impl wraps it into (results, terminator value)
            return self.allocate(op, args)

        # the same ops as parsed from upstream's custom form: subclasses of xDSL's
        # (infs.dialects.upstream_syntax), and the interpreter dispatches on the exact class
        @impl(MemRefCastOp)
        def run_upstream_cast(self, interpreter: Interpreter, op: memref.CastOp, args: tuple[Any, ...]):
            return (args[0],)

        @impl(MemRefAllocOp)
        def run_upstream_alloc(self, interpreter: Interpreter, op: memref.AllocOp, args: tuple[Any, ...]):
            return self.allocate(op, args)

        @impl(MemRefAllocaOp)
        def run_upstream_alloca(self, interpreter: Interpreter, op: memref.AllocaOp, args: tuple[Any, ...]):
            return self.allocate(op, args)

        def allocate(self, op: Any, args: tuple[Any, ...]) -> tuple[np.ndarray]:
            t = op.memref.type
            assert isinstance(t, MemRefType)
            dyn = iter(args)
            shape = [int(next(dyn)) if s < 0 else s for s in t.get_shape()]
            if any(s < 0 for s in shape):
                raise EvaluationError(f"{op_label(op)} of negative size {shape}")
            dt = numpy_dtype(t.element_type)
            if self.phantom:
                return (phantom_array(shape, dt),)
            return (checked_alloc(shape, dt, f"'{op.name}'"),)

        @impl(memref.DeallocOp)
        def run_dealloc(self, interpreter: Interpreter, op: memref.DeallocOp, args: tuple[Any, ...]):
            return ()

        @impl(memref.LoadOp)
        def run_load(self, interpreter: Interpreter, op: memref.LoadOp, args: tuple[Any, ...]):
            arr, *idx = args
            _check_index(arr, idx, op)
            v = arr[tuple(int(i) for i in idx)]
            # integers as Python ints: xDSL's integer arith wraps them to the op's
            # width with Python-int arithmetic, which overflows on a numpy int32
            return (int(v) if arr.dtype.kind in "iu" else v,)

        @impl(memref.StoreOp)
        def run_store(self, interpreter: Interpreter, op: memref.StoreOp, args: tuple[Any, ...]):
            value, arr, *idx = args
            _check_index(arr, idx, op)
            try:
                arr[tuple(int(i) for i in idx)] = value
            except OverflowError:  # a Python int past the width (numpy 2 refuses it): its low bits, as MLIR's signless store
                arr[tuple(int(i) for i in idx)] = to_signed(int(value), arr.dtype.itemsize * 8)
            return ()

        @impl(memref.DimOp)
        def run_dim(self, interpreter: Interpreter, op: memref.DimOp, args: tuple[Any, ...]):
            arr, d = args
            if not 0 <= int(d) < arr.ndim:  # UB in MLIR; Python's shape[-1] would answer silently, shape[5] with an IndexError traceback
                raise EvaluationError(f"{op_label(op)}: dimension {int(d)} of a rank-{arr.ndim} memref")
            return (int(arr.shape[int(d)]),)

        @impl(memref.CopyOp)
        def run_copy(self, interpreter: Interpreter, op: memref.CopyOp, args: tuple[Any, ...]):
            src, dst = args
            if src.shape != dst.shape:
                raise EvaluationError(f"{op_label(op)} between shapes {list(src.shape)} and {list(dst.shape)}")
            dst[...] = src
            return ()

    return NumpyMemrefFunctions


def _check_index(arr: np.ndarray, idx: Sequence[Any], op: Any) -> None:
    for d, i in enumerate(idx):
        if not 0 <= int(i) < arr.shape[d]:
            raise EvaluationError(f"{op_label(op)} index {int(i)} out of bounds for dim {d} of shape {list(arr.shape)}")


def _offload(executor: Callable[..., list[Any]], op: stream.RegionOp | tdfg.GraphOp, args: tuple[Any, ...]) -> tuple[Any, ...]:
    n = len(op.arrays)
    results = [_as_scalar(r) for r in executor(op, list(args[:n]), list(args[n:]))]
    # integers as Python ints, as memref.load gives them (xDSL's integer ops overflow on numpy int32)
    return tuple(int(r) if isinstance(r, np.integer) else r for r in results)


@register_impls
class OffloadFunctions(InterpreterFunctions):
    """Executes ``stream.region`` ops, and ``tdfg.graph`` ops of a program
    tensorized ahead of time, through pluggable executors."""

    def __init__(self, executor: RegionExecutor | None = None, graph_executor: GraphExecutor | None = None):
        self.executor = executor or evaluate_region
        self.graph_executor = graph_executor

    @impl(stream.RegionOp)
    def run_region(self, interpreter: Interpreter, op: stream.RegionOp, args: tuple[Any, ...]):
        return _offload(self.executor, op, args)

    @impl(tdfg.GraphOp)
    def run_graph(self, interpreter: Interpreter, op: tdfg.GraphOp, args: tuple[Any, ...]):
        if self.graph_executor is None:
            raise EvaluationError("a 'tdfg.graph' in the host code runs only in memory or on the lattice (infs.runtime.driver / lattice_eval)")
        return _offload(self.graph_executor, op, args)


@functools.cache
def _program_functions() -> type[InterpreterFunctions]:
    from infs.dialects import pimcmd  # (loaded when a parsed module holds a program)

    @register_impls
    class ProgramFunctions(InterpreterFunctions):
        """Executes each ``pimcmd.program`` (compiled ahead of time) through the runtime's executor."""

        def __init__(self, executor: ProgramExecutor):
            self.executor = executor

        @impl(pimcmd.ProgramOp)
        def run_program(self, interpreter: Interpreter, op: pimcmd.ProgramOp, args: tuple[Any, ...]):
            return _offload(self.executor, op, args)

    return ProgramFunctions


def make_interpreter(
    module: ModuleOp, executor: RegionExecutor | None = None, phantom_alloc: bool = False, graph_executor: GraphExecutor | None = None,
    program_executor: ProgramExecutor | None = None,
) -> Interpreter:
    interp = Interpreter(module)
    for fns in host_op_functions():
        interp.register_implementations(fns())
    interp.register_implementations(HostArithExtras())
    interp.register_implementations(HostArithPython())
    interp.register_implementations(HostFloatArith(), override=True)
    if "xdsl.dialects.math" in sys.modules:  # else the module has no math op
        interp.register_implementations(host_math_functions()(), override=True)
    if "xdsl.dialects.memref" in sys.modules:  # else the module has no memref op
        interp.register_implementations(numpy_memref_functions()(phantom_alloc), override=True)
    interp.register_implementations(OffloadFunctions(executor, graph_executor))
    if program_executor is not None:
        interp.register_implementations(_program_functions()(program_executor))
    return interp


def find_function(module: ModuleOp, name: str | None = None) -> func.FuncOp:
    funcs = [op for op in module.walk() if isinstance(op, func.FuncOp) and op.body.blocks]
    if name is None:
        public = [f for f in funcs if f.sym_visibility is None or f.sym_visibility.data == "public"]
        if len(public) != 1:
            raise EvaluationError(f"the module has {len(public)} public functions; name the one to run")
        return public[0]
    for f in funcs:
        if f.sym_name.data == name:
            return f
    raise EvaluationError(f"no function named '{name}' (have: {', '.join(f.sym_name.data for f in funcs)})")


def unnamed_argument(fn: func.FuncOp) -> str | None:
    """Why ``fn``'s arguments cannot be given by name: one of them is ``%0``
    style, a name xDSL does not keep (None when all have names)."""
    i = next((i for i, a in enumerate(_entry_block(fn).args) if a.name_hint is None), None)
    return None if i is None else f"argument #{i} of @{fn.sym_name.data} has no name (%{i}): name the arguments (%A, %n, ...) to bind them by name"


def bind_arguments(fn: func.FuncOp, args: Mapping[str, Any] | Sequence[Any]) -> list[Any]:
    """Order arguments by the function's parameter names (the SSA names of its entry block)."""
    block = _entry_block(fn)
    if isinstance(args, Mapping):
        unnamed = unnamed_argument(fn)
        if unnamed is not None:
            raise EvaluationError(unnamed)
        # unknown keys first: a misspelt name is also a missing one, and the list says which to use
        extra = [k for k in args if k not in {a.name_hint for a in block.args}]
        if extra:
            takes = ", ".join(f"%{a.name_hint}" for a in block.args)
            raise EvaluationError(f"@{fn.sym_name.data} has no argument {', '.join(map(repr, extra))} (it takes {takes})")
        out = []
        for a in block.args:
            name = a.name_hint
            if name not in args:
                raise EvaluationError(f"no value bound for argument %{name} of @{fn.sym_name.data}")
            out.append(args[name])
        args = out
    if len(args) != len(block.args):
        raise EvaluationError(f"@{fn.sym_name.data} takes {len(block.args)} arguments, got {len(args)}")
    for a, v in zip(block.args, args):
        if isinstance(a.type, MemRefType):
            want = numpy_dtype(a.type.element_type)
            if not isinstance(v, np.ndarray) or v.dtype != want or v.ndim != len(a.type.get_shape()):
                raise EvaluationError(f"argument %{a.name_hint} of @{fn.sym_name.data} must be a rank-{len(a.type.get_shape())} numpy array of {want}")
            for s, n in zip(a.type.get_shape(), v.shape):
                if s >= 0 and s != n:
                    raise EvaluationError(f"argument %{a.name_hint} has shape {list(v.shape)}, expected {a.type}")
    return [v if isinstance(a.type, MemRefType) else _scalar_argument(fn, a, v) for a, v in zip(block.args, args)]


def _entry_block(fn: func.FuncOp) -> Any:
    # not ``fn.body.block``: xDSL's ValueError for a function of several blocks
    # (cf branches) named nothing; the run then names the branch it cannot run
    return fn.body.blocks.first


def _scalar_argument(fn: func.FuncOp, a: Any, v: Any) -> Any:
    """A scalar argument as the host computes with it, checked against its type as
    ``infs-run --scalar`` checks it: integers as Python ints (as memref.load gives
    them: xDSL's integer arith and index_cast overflow on numpy int32 values) in
    the type's signed range, i1 a bool, floats as numpy scalars of their type.
    Unchecked, an i8 given 300 wrapped here but not in a store (numpy's
    OverflowError traceback), a float given for an i32 was added as a float, and a
    string ended in a TypeError."""
    t = a.type
    what = f"argument %{a.name_hint} of @{fn.sym_name.data} is {t}"
    if isinstance(v, np.ndarray) and v.ndim == 0:
        v = v[()]
    if isinstance(t, (IntegerType, IndexType)):
        if not isinstance(v, (int, np.integer, np.bool_)):  # bool is an int
            raise EvaluationError(f"{what}: got {type(v).__name__} {v!r}, expected an integer")
        w = 64 if isinstance(t, IndexType) else t.width.data
        if w == 1:
            if int(v) not in (0, 1):
                raise EvaluationError(f"{what}: got {int(v)}, expected a bool (0 or 1)")
            return bool(v)
        lo, hi = -(2 ** (w - 1)), 2 ** (w - 1) - 1
        if not lo <= int(v) <= hi:
            raise EvaluationError(f"{what}: {int(v)} is out of its range [{lo}, {hi}]")
        return int(v)
    if isinstance(t, AnyFloat):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise EvaluationError(f"{what}: got {type(v).__name__} {v!r}, expected a number")
        try:
            return numpy_dtype(t).type(v)  # f32 stays float32 through the host and into regions
        except EvaluationError:  # bf16: no numpy type; its ops say so
            return float(v)
    return v


def run_function(
    module: ModuleOp,
    args: Mapping[str, Any] | Sequence[Any],
    name: str | None = None,
    executor: RegionExecutor | None = None,
    phantom_alloc: bool = False,
    graph_executor: GraphExecutor | None = None,
    program_executor: ProgramExecutor | None = None,
) -> tuple[Any, ...]:
    """Run a host function; arrays are updated in place; returns its results.
    ``stream.region`` ops run through ``executor`` (default: the reference
    semantics), ``tdfg.graph`` ops through ``graph_executor``, ``pimcmd.program``
    ops (compiled ahead of time) through ``program_executor``.
    ``phantom_alloc``: ``memref.alloc`` gives arrays without data (timing-only runs)."""
    fn = find_function(module, name)
    values = bind_arguments(fn, args)
    interp = make_interpreter(module, executor, phantom_alloc, graph_executor, program_executor)
    try:
        with deep_calls():
            results = tuple(interp.call_op(fn, tuple(values)))
    except InterpretationError as e:
        raise EvaluationError(f"@{fn.sym_name.data}: {_unsupported_op(module, str(e)) or e}") from None
    except RecursionError:  # scf nests deep in every one of MAX_CALL_DEPTH calls
        raise EvaluationError(f"@{fn.sym_name.data}: the host's calls and scf regions nest too deep for Python's stack") from None
    # Inside the host code integers are Python ints (xDSL's integer ops overflow
    # on numpy int32); the function's results are scalars of its result types.
    types = fn.function_type.outputs.data
    return tuple(_typed_result(r, t) for r, t in zip(results, types))


_NO_IMPL = "Could not find interpretation function for op "


def _unsupported_op(module: ModuleOp, message: str) -> str | None:
    """xDSL's 'no interpretation function' error as one line naming the op's
    line: the first op of that name in the module (xDSL's message names none)."""
    if not message.startswith(_NO_IMPL):
        return None
    name = message[len(_NO_IMPL) :].strip()
    op = next((o for o in module.walk() if o.name == name), None)
    return f"{op_label(op) if op is not None else repr(name)} is not supported on the host"


def _typed_result(value: Any, t: Any) -> Any:
    """An integer or float result as a numpy scalar of its MLIR type (others as they are)."""
    if isinstance(value, (int, float, np.number)) and not isinstance(value, bool) and not isinstance(t, IndexType):
        try:
            dt = numpy_dtype(t)
        except (EvaluationError, KeyError, TypeError, ValueError):
            return value
        return np.asarray(value).astype(dt)[()]
    return value
