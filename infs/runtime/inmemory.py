"""In-memory execution of whole programs: tensorize, JIT, simulate.

``run_function_in_memory(module, args, config=...)`` tensorizes the module
(the static compiler), then runs its host function; every ``tdfg.graph`` is
lowered by the JIT (memoized) for the runtime's sizes, scalar values and
array shapes and executed on the simulated ``Machine`` (fused in-/near-memory:
the graph's embedded streams run on the machine's stream engines).  Regions
that could not be tensorized run with the stream reference semantics.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.utils.exceptions import InterpretationError

from infs.dialects import tdfg
from infs.passes.tensorize import TensorizePass
from infs.runtime import host, jit
from infs.runtime.scalar_ops import EvaluationError
from infs.sim import Machine


def scalar_bindings(graph: tdfg.GraphOp, scalars: Sequence[Any]) -> dict[str, float | int]:
    out: dict[str, float | int] = {}
    for name, operand, v in zip(graph.names, graph.scalars, scalars):
        val = np.asarray(v).item()
        out[name] = int(val) if isinstance(operand.type, IndexType) else val
    return out


@register_impls
class InMemoryGraphFunctions(InterpreterFunctions):
    """Runs ``tdfg.graph`` ops on a simulated machine through the JIT."""

    def __init__(self, machine: Machine, tiles: tuple[int, ...] | None = None):
        self.machine = machine
        self.tiles = tiles
        self.lowered: list[jit.Lowered] = []

    @impl(tdfg.GraphOp)
    def run_graph(self, interpreter: Interpreter, op: tdfg.GraphOp, args: tuple[Any, ...]):
        n = len(op.arrays)
        arrays = list(args[:n])
        scalars = list(args[n:])
        _check_aliasing(op, arrays)
        sizes = {k: v for k, v in scalar_bindings(op, scalars).items() if k in op.symbol_names()}
        shapes = {i: tuple(a.shape) for i, a in enumerate(arrays)}
        lowered = jit.lower(op, sizes, self.machine.cfg, self.tiles, shapes)
        self.lowered.append(lowered)
        params = [np.asarray(scalars[i]).item() for i in lowered.scalar_map]
        self.machine.run(lowered.record, {i: a for i, a in enumerate(arrays)}, scalars=params)
        results = self.machine.results
        return tuple(np.asarray(results[i], dtype=_dtype(r.type))[()] for i, r in enumerate(op.res))


def _check_aliasing(graph: tdfg.GraphOp, arrays: Sequence[Any]) -> None:
    """Each graph operand is laid out as its own array: distinct operands that
    share memory at run time, one of them written, are refused (one line)."""
    args = list(graph.body.block.args[: len(arrays)])
    written = {args.index(o.array) for o in graph.body.block.ops if isinstance(o, (tdfg.StoreOp, tdfg.StreamStoreOp)) and o.array in args}
    for i in range(len(arrays)):
        for j in range(i + 1, len(arrays)):
            a, b = arrays[i], arrays[j]
            if graph.arrays[i] is graph.arrays[j] or not (i in written or j in written):
                continue
            if isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.size and b.size and np.shares_memory(a, b):
                names = [f"%{graph.arrays[k].name_hint or args[k].name_hint or f'array #{k}'}" for k in (i, j)]
                raise EvaluationError(f"'tdfg.graph': its array operands {names[0]} and {names[1]} share memory at run time (aliased host arguments) and it writes one: pass distinct arrays")


def _dtype(t) -> np.dtype:
    from infs.runtime.scalar_ops import numpy_dtype

    return numpy_dtype(t)


def tensorize_module(module: ModuleOp) -> ModuleOp:
    out = module.clone()
    TensorizePass().apply(Context(), out)
    return out


def run_function_in_memory(
    module: ModuleOp,
    args: Mapping[str, Any] | Sequence[Any],
    name: str | None = None,
    config: str = "tiny",
    tiles: tuple[int, ...] | None = None,
    machine: Machine | None = None,
) -> tuple[tuple[Any, ...], Machine, InMemoryGraphFunctions]:
    """Run ``name`` with every tensorizable region in memory; returns (results, machine, executor)."""
    m = machine or Machine(config)
    tmod = tensorize_module(module)
    fn = host.find_function(tmod, name)
    values = host.bind_arguments(fn, args)
    interp = host.make_interpreter(tmod)
    graphs = InMemoryGraphFunctions(m, tiles)
    interp.register_implementations(graphs)
    try:
        results = tuple(interp.call_op(fn, tuple(values)))
    except InterpretationError as e:
        raise EvaluationError(f"@{fn.sym_name.data}: {e}") from None
    return results, m, graphs
