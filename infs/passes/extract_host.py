"""Host code around the regions: affine expressions and loops as ``scf``/``arith``/``memref``.

Takes the ops left on the host (``affine.for``/``parallel``/``if``/``apply``/
``load``/``store``, ``scf.parallel``); gives the same computation in ``scf``,
``arith`` and ``memref``, which the host interpreter and every later pass
know: affine maps evaluated with index arithmetic (``HostOps`` collects what
goes before and after a region), parallel loops as nested ``scf.for`` loops
(with their reductions as ``iter_args``).  An op with no such lowering raises
``ExtractError``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap, AffineBinaryOpExpr, AffineBinaryOpKind, AffineExpr
from xdsl.rewriter import Rewriter

from infs.dialects.lattice import Affine
from infs.passes.extract_analysis import Analysis, fold_affine
from infs.passes.extract_loops import parallel_bounds, scf_bounds
from infs.passes.extract_remarks import ExtractError, location_text


# ---------------------------------------------------------------------------
# Host code: affine expressions as arith ops
# ---------------------------------------------------------------------------


class HostOps:
    """Ops to insert on the host (before the nest, and after it)."""

    def __init__(self) -> None:
        self.before: list[Operation] = []
        self.after: list[Operation] = []
        self.consts: dict[int, SSAValue] = {}

    def const(self, v: int) -> SSAValue:
        if v not in self.consts:
            self.consts[v] = _index_const(self.before, v)
        return self.consts[v]

    def emit(self, op: Operation, after: bool = False) -> SSAValue:
        (self.after if after else self.before).append(op)
        return op.results[0] if op.results else None  # type: ignore[return-value]

    def index(self, v: SSAValue) -> SSAValue:
        """``v`` as an index (a cast before the nest if it is an integer)."""
        return v if isinstance(v.type, IndexType) else self.emit(arith.IndexCastOp(v, IndexType()))

    def symbols(self, a: Analysis) -> dict[str, SSAValue]:
        """The analysis's symbols by name, as index values."""
        return {nm: self.index(v) for v, nm in a.symbols.items()}

    def affine(self, e: Affine, env: dict[str, SSAValue], after: bool = False) -> SSAValue:
        acc: SSAValue | None = None
        for n, c in e.terms:
            t = env[n]
            if c != 1:
                t = self.emit(arith.MuliOp(t, self.const(c)), after)
            acc = t if acc is None else self.emit(arith.AddiOp(acc, t), after)
        if acc is None:
            return self.const(e.const)
        if e.const:
            acc = self.emit(arith.AddiOp(acc, self.const(e.const)), after)
        return acc


def _put(out: list[Operation], op: Operation) -> SSAValue:
    out.append(op)
    return op.results[0]


def _index_const(out: list[Operation], v: int) -> SSAValue:
    return _put(out, arith.ConstantOp(IntegerAttr.from_index_int_value(v)))


_HOST_BINARY = {AffineBinaryOpKind.Add: arith.AddiOp, AffineBinaryOpKind.Mul: arith.MuliOp, AffineBinaryOpKind.FloorDiv: arith.FloorDivSIOp}


def host_affine_expr(e: AffineExpr, dims: Sequence[SSAValue], syms: Sequence[SSAValue], out: list[Operation]) -> SSAValue:
    """``e`` as arith ops (affine ``mod`` is non-negative, ``floordiv`` rounds down)."""

    def binary(x: AffineBinaryOpExpr, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        if x.kind in _HOST_BINARY:
            return _put(out, _HOST_BINARY[x.kind](lhs, rhs))
        if x.kind == AffineBinaryOpKind.CeilDiv:  # ceil(a/b) = -floor(-a/b)
            fl = _put(out, arith.FloorDivSIOp(_put(out, arith.SubiOp(_index_const(out, 0), lhs)), rhs))
            return _put(out, arith.SubiOp(_index_const(out, 0), fl))
        # a mod b = a - b * floor(a/b)
        mul = _put(out, arith.MuliOp(rhs, _put(out, arith.FloorDivSIOp(lhs, rhs))))
        return _put(out, arith.SubiOp(lhs, mul))

    return fold_affine(e, dims, syms, lambda v: _index_const(out, v), binary)


def _host_map(amap: affine.AffineMapAttr, operands: Sequence[SSAValue], out: list[Operation]) -> list[SSAValue]:
    m = amap.data
    ops = list(operands)
    return [host_affine_expr(r, ops[: m.num_dims], ops[m.num_dims :], out) for r in m.results]


def _fold(values: list[SSAValue], cls: type[Operation], out: list[Operation]) -> SSAValue:
    return functools.reduce(lambda acc, v: _put(out, cls(acc, v)), values)


def _scf_region(region: Region) -> Region:
    """The region's contents moved to a new region, its affine/scf.reduce terminator replaced by scf.yield."""
    term = region.blocks[0].last_op if region.blocks else None
    if term is not None and term.name in ("affine.yield", "scf.reduce"):
        if term.name == "scf.reduce" and term.operands:
            raise ExtractError(f"{location_text(term)}: 'scf.parallel' with reductions cannot stay on the host")
        Rewriter.replace_op(term, scf.YieldOp(*term.operands))
    return Rewriter.move_region_contents_to_new_regions(region)


def parallel_as_loops(op: scf.ParallelOp | affine.ParallelOp, lbs: Sequence[SSAValue], ubs: Sequence[SSAValue], steps: Sequence[SSAValue], out: Sequence[Operation] = ()) -> None:
    """A parallel loop (after the bound ops ``out``) as nested ``scf.for`` loops,
    carrying the accumulators of an ``scf.parallel``'s reductions (a sequential
    order is one of its legal executions)."""
    body = op.body.blocks[0]
    red = body.last_op
    inits = list(op.initVals) if isinstance(op, scf.ParallelOp) else []
    ivs = list(body.args)
    blocks = [Block(arg_types=[IndexType(), *(v.type for v in inits)]) for _ in ivs]
    # the innermost block: the body, then each reduction's combiner on (accumulator, value)
    inner = blocks[-1]
    for o in list(body.ops)[:-1]:  # (all but the terminator, red)
        o.detach()
        inner.add_op(o)
    new_accs = []
    for j, (r, v) in enumerate(zip(red.reductions, red.args) if isinstance(red, scf.ReduceOp) else ()):
        rb = r.blocks[0]
        mapper: dict[SSAValue, SSAValue] = {rb.args[0]: inner.args[1 + j], rb.args[1]: v}
        *combine, ret = rb.ops
        assert isinstance(ret, scf.ReduceReturnOp)
        for o in combine:
            inner.add_op(o.clone(value_mapper=mapper))  # (clone maps o's results to the copy's in mapper)
        new_accs.append(mapper.get(ret.result, ret.result))
    inner.add_op(scf.YieldOp(*new_accs))
    loop: scf.ForOp | None = None
    for k in reversed(range(len(ivs))):
        if loop is not None:
            blocks[k].add_ops([loop, scf.YieldOp(*loop.results)])
        loop = scf.ForOp(lbs[k], ubs[k], steps[k], inits if k == 0 else list(blocks[k - 1].args[1:]), Region(blocks[k]))
        loop.location = op.location
    for k, iv in enumerate(ivs):
        iv.replace_all_uses_with(blocks[k].args[0])
    assert loop is not None
    Rewriter.replace_op(op, [*out, loop], list(loop.results))


def affine_parallel_as_fors(op: affine.ParallelOp) -> None:
    """An ``affine.parallel`` with ``reduce`` as the ``affine.for`` nest with
    ``iter_args`` that folds the same values in one legal order (the sequential
    one), each accumulator starting from its kind's identity as upstream's
    ``--lower-affine`` starts it: the analysis reads that nest's fold as a
    ``stream.reduce`` (``reduction_loop``), and the host runs it as ``scf.for``.
    Each iv's bound group is the ``max``/``min`` bound map of its loop."""
    from infs.dialects.upstream_syntax import reduction_combiner, reduction_identity, reduction_kind

    kinds = [reduction_kind(a) for a in op.reductions.data]
    types = [r.type for r in op.res]
    out: list[Operation] = []
    inits: list[SSAValue] = []
    combiners = []
    for k, t in zip(kinds, types):
        ident, comb = reduction_identity(k, t), reduction_combiner(k)
        if ident is None or comb is None:
            raise ExtractError(f"{location_text(op)}: 'affine.parallel' reduce (\"{k}\") of {t} has no identity to start from (upstream's --lower-affine refuses it too)")
        inits.append(_put(out, arith.ConstantOp(ident)))
        combiners.append(comb)
    body = op.body.blocks[0]
    ivs = list(body.args)
    lm, um = op.lowerBoundsMap.data, op.upperBoundsMap.data
    n = lm.num_dims + lm.num_symbols
    lops, uops = list(op.map_operands[:n]), list(op.map_operands[n:])

    def bound(m: AffineMap, groups: Sequence[int], k: int) -> affine.AffineMapAttr:
        start = sum(groups[:k])
        return affine.AffineMapAttr(AffineMap(m.num_dims, m.num_symbols, m.results[start : start + groups[k]]))

    lg, ug = op.lowerBoundsGroups.get_values(), op.upperBoundsGroups.get_values()
    blocks = [Block(arg_types=[IndexType(), *types]) for _ in ivs]
    inner = blocks[-1]
    y = body.last_op
    assert isinstance(y, affine.YieldOp)
    for o in list(body.ops)[:-1]:
        o.detach()
        inner.add_op(o)
    folded = [_put_in(inner, comb(acc, v)) for comb, acc, v in zip(combiners, inner.args[1:], y.operands)]
    inner.add_op(affine.YieldOp.get(*folded))
    loop: affine.ForOp | None = None
    for k in reversed(range(len(ivs))):
        if loop is not None:
            blocks[k].add_ops([loop, affine.YieldOp.get(*loop.results)])
        accs = inits if k == 0 else list(blocks[k - 1].args[1:])
        loop = affine.ForOp.from_region(lops, uops, accs, types, bound(lm, lg, k), bound(um, ug, k), Region(blocks[k]), op.steps.data[k].value.data)
        loop.location = op.location
    for k, iv in enumerate(ivs):
        iv.replace_all_uses_with(blocks[k].args[0])
    assert loop is not None
    Rewriter.replace_op(op, [*out, loop], list(loop.results))


def _put_in(block: Block, op: Operation) -> SSAValue:
    block.add_op(op)
    return op.results[0]


def _grouped(values: list[SSAValue], groups: Sequence[int], cls: type[Operation], out: list[Operation]) -> list[SSAValue]:
    """An ``affine.parallel``'s bound values per iv: each group folded by ``cls`` (max for lower bounds, min for upper)."""
    res, i = [], 0
    for g in groups:
        res.append(_fold(values[i : i + g], cls, out))
        i += g
    return res


def lower_host_affine(root: Operation) -> None:
    """What stays on the host, in scf/arith/memref (the host interpreter's dialects)."""
    todo = [op for op in root.walk() if op.dialect_name() == "affine" or isinstance(op, scf.ParallelOp)]
    # inner ops first: a loop's body is lowered before the loop is rebuilt around it
    for op in reversed(todo):
        if op.parent is None:
            continue
        out: list[Operation] = []
        if isinstance(op, (affine.ApplyOp, affine.MinOp)):
            # (an apply's map has one result, which is the min of it alone)
            vals = _host_map(op.map, op.mapOperands if isinstance(op, affine.ApplyOp) else op.arguments, out)
            Rewriter.replace_op(op, out, [_fold(vals, arith.MinSIOp, out)])
        elif op.name == "affine.max":  # (infs.dialects.upstream_syntax.AffineMaxOp: xDSL 0.74 has none)
            vals = _host_map(op.properties["map"], op.operands, out)
            Rewriter.replace_op(op, out, [_fold(vals, arith.MaxSIOp, out)])
        elif isinstance(op, (affine.LoadOp, affine.StoreOp)):
            idx = _host_map(op.map, op.indices, out)
            new_mem = memref.LoadOp.get(op.memref, idx) if isinstance(op, affine.LoadOp) else memref.StoreOp.get(op.value, op.memref, idx)
            new_mem.location = op.location  # (a run-time error of the access names the user's line)
            Rewriter.replace_op(op, [*out, new_mem])
        elif isinstance(op, affine.ForOp):
            lb = _fold(_host_map(op.lowerBoundMap, op.lowerBoundOperands, out), arith.MaxSIOp, out)
            ub = _fold(_host_map(op.upperBoundMap, op.upperBoundOperands, out), arith.MinSIOp, out)
            step = _index_const(out, op.step.value.data)
            new = scf.ForOp(lb, ub, step, list(op.inits), _scf_region(op.body))
            new.location = op.location
            Rewriter.replace_op(op, [*out, new], list(new.results))
        elif isinstance(op, (affine.ParallelOp, scf.ParallelOp)):
            if isinstance(op, affine.ParallelOp):
                if op.reductions.data or op.res:
                    raise ExtractError(f"{location_text(op)}: 'affine.parallel' with reductions cannot stay on the host")
                # a bound group (as affine-loop-tile and affine-parallelize print them) is the max
                # of its lower bound expressions and the min of its upper ones, per iv
                lb_all, ub_all = parallel_bounds(op, lambda m, operands: _host_map(m, operands, out))
                lbs = _grouped(lb_all, op.lowerBoundsGroups.get_values(), arith.MaxSIOp, out)
                ubs = _grouped(ub_all, op.upperBoundsGroups.get_values(), arith.MinSIOp, out)
                steps = [_index_const(out, s.value.data) for s in op.steps.data]
            else:
                lbs, ubs, steps = map(list, scf_bounds(op))
            parallel_as_loops(op, lbs, ubs, steps, out)
        elif isinstance(op, affine.IfOp):
            s = op.condition.data
            args = list(op.args)
            conds = []
            for con in s.constraints:
                e = host_affine_expr(con.lhs - con.rhs, args[: s.num_dims], args[s.num_dims :], out)
                pred = {"==": "eq", ">=": "sge", "<=": "sle"}[con.kind.value]
                conds.append(_put(out, arith.CmpiOp(e, _index_const(out, 0), pred)))
            if not conds:
                conds.append(_put(out, arith.ConstantOp(IntegerAttr(1, IntegerType(1)))))
            cond = _fold(conds, arith.AndIOp, out)
            then_r, else_r = _scf_region(op.then_region), _scf_region(op.else_region)
            new = scf.IfOp(cond, [r.type for r in op.res], then_r, else_r if else_r.blocks else None)
            new.location = op.location
            Rewriter.replace_op(op, [*out, new], list(new.results))
        elif isinstance(op, affine.YieldOp):
            continue  # rewritten with its loop
        else:
            raise ExtractError(f"{location_text(op)}: '{op.name}' cannot stay on the host (no lowering to scf/memref)")
