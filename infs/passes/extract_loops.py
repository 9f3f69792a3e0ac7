"""The loop ops extract-streams reads, and the bands of perfectly nested loops.

Takes ``affine.for``/``affine.parallel``/``scf.for``/``scf.parallel`` ops;
gives their bodies, induction variables, body ops without the terminator,
bounds (scf operands, ``affine.parallel``'s maps), which ops a band or a
compute body may hold, the band under a loop with its innermost body, and the
erasure of ops a rewrite replaced.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.traits import is_side_effect_free

from infs.dialects import stream


# ---------------------------------------------------------------------------
# Loops
# ---------------------------------------------------------------------------

_LOOPS = (affine.ForOp, scf.ForOp, affine.ParallelOp, scf.ParallelOp)


def is_loop(op: Operation) -> bool:
    return isinstance(op, _LOOPS)


def loop_body(op: Operation) -> Block:
    return op.regions[0].blocks[0]


def loop_ivs(op: Operation) -> list[SSAValue]:
    args = loop_body(op).args
    return list(args[:1] if isinstance(op, (affine.ForOp, scf.ForOp)) else args)


def ops_of(block: Block) -> list[Operation]:
    ops = list(block.ops)
    if ops and ops[-1].name in ("affine.yield", "scf.yield", "scf.reduce"):
        ops = ops[:-1]
    return ops


def scf_bounds(op: scf.ForOp | scf.ParallelOp) -> tuple[Sequence[SSAValue], Sequence[SSAValue], Sequence[SSAValue]]:
    """The lower bounds, upper bounds and steps of an scf loop's ivs."""
    if isinstance(op, scf.ForOp):
        return [op.lb], [op.ub], [op.step]
    return op.lowerBound, op.upperBound, op.step


def one_bound_each(op: affine.ParallelOp) -> bool:
    """No max/min bound groups: one lower and one upper bound expression per iv."""
    return all(g == 1 for g in (*op.lowerBoundsGroups.get_values(), *op.upperBoundsGroups.get_values()))


def parallel_bounds(op: affine.ParallelOp, read):
    """``read(map, its operands)`` of an ``affine.parallel``'s lower, then of its upper bound map."""
    lm, um = op.lowerBoundsMap.data, op.upperBoundsMap.data
    n = lm.num_dims + lm.num_symbols
    return read(op.lowerBoundsMap, op.map_operands[:n]), read(op.upperBoundsMap, op.map_operands[n : n + um.num_dims + um.num_symbols])


_INDEX_ARITH = (arith.ConstantOp, arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.IndexCastOp, arith.ExtSIOp, arith.TruncIOp, affine.ApplyOp)


def is_compute_op(op: Operation) -> bool:
    """A side-effect-free arith/math op, which a compute body may hold."""
    return op.dialect_name() in stream.COMPUTE_BODY_DIALECTS and not op.regions and is_side_effect_free(op)


def is_pure_scalar_op(op: Operation) -> bool:
    """Pure integer/index arithmetic a band may hold between its loops
    (analysed lazily), or a compute op (read on use, where it becomes part of
    a compute body, or refused if it uses a loop index as a value)."""
    index_arith = isinstance(op, _INDEX_ARITH) and all(isinstance(r.type, (IndexType, IntegerType)) for r in op.results)
    return index_arith or is_compute_op(op)


def erase_ops(ops: Sequence[Operation]) -> None:
    for op in reversed(ops):
        Rewriter.erase_op(op, safe_erase=False)


def loop_band(loop: Operation) -> tuple[list[Operation], list[Operation]]:
    """The perfectly nested loops from ``loop`` down, and the innermost body's ops."""
    if loop.results:
        return [], [loop]  # a host-level accumulation loop: its results escape to the host
    band = [loop]
    while True:
        ops = ops_of(loop_body(band[-1]))
        loops = [o for o in ops if is_loop(o)]
        if not (len(loops) == 1 and not loops[0].results and all(o is loops[0] or is_pure_scalar_op(o) for o in ops)):
            return band, ops
        band.append(loops[0])
