"""``linalg`` on memrefs -> loops, before extract-streams reads them.

Takes a module's ``linalg`` structured ops on memrefs (``generic``,
``matmul``, ``fill``, ``broadcast``, ``reduce``, pooling, ...); gives them
lowered by xDSL's own ``convert-linalg-to-loops`` pattern (each loop keeping
the op's location for the remarks), the remarks of those it cannot lower, and
the ``linalg.fill`` ops that only set a reduction's output to the
reduction's identity (``fill_before``: the region then folds from the
identity, and the fill is dropped).  linalg on tensors is an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import affine, arith, memref
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import BroadcastOp, FillOp, GenericOp, PoolingNchwMaxOp, ReduceOp, YieldOp as LinalgYieldOp
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, Region
from xdsl.ir.affine import AffineMap, AffineDimExpr
from xdsl.rewriter import Rewriter
from xdsl.traits import is_side_effect_free
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from infs.passes.extract_loops import is_loop
from infs.passes.extract_remarks import ExtractError, Remark, location_text
from infs.passes.extract_trees import Const, is_identity, reduce_kind


@dataclass(eq=False)
class FillFold:
    """A ``linalg.fill`` and the reduction after it (``fill_before``), as loops."""

    fill: list[Operation]  # the fill's ops: its bounds, then its loop nest
    fill_root: Operation
    acc_root: Operation  # the reduction's outermost loop
    folded: bool = False  # the reduction's region folds from the identity: the fill is dead


def fill_before(g: Operation) -> FillOp | None:
    """The ``linalg.fill`` that ``g``'s reduction may start from instead of its
    output's cells, as xDSL's ``memref-stream-fold-fill`` and MLIR-HLO's
    fuse-fill-into-reduction fold it: the fill is of ``g``'s only output, with
    the identity of the op ``g`` yields, and only pure ops run between them.
    Linalg makes operand shapes that disagree with the indexing maps undefined,
    so an output map of distinct loop dims means ``g`` writes every cell of the
    output, each after folding over all its other loops (from the identity,
    once the fill is dropped; an empty fold stores the identity, as the fill
    did).  Distinct memrefs are distinct arrays, as everywhere in this pass;
    views, which would alias, are not folded."""
    if not isinstance(g, LinalgStructuredOperation) or isinstance(g, FillOp) or len(g.outputs) != 1:  # type: ignore[attr-defined]
        return None
    c, ins, blk = g.outputs[0], list(g.inputs), g.body.block  # type: ignore[attr-defined]
    out_map = g.get_indexing_maps().data[-1].data  # type: ignore[attr-defined]
    dims = [e.position for e in out_map.results if isinstance(e, AffineDimExpr)]
    y = blk.last_op.operands[0].owner if blk.last_op is not None and blk.last_op.operands else None
    kind = reduce_kind(y) if isinstance(y, Operation) and blk.args[len(ins)] in y.operands else None
    f = g.prev_op
    while f is not None and not isinstance(f, FillOp) and not f.regions and is_side_effect_free(f):
        f = f.prev_op
    if (kind is None or not isinstance(f, FillOp) or f.outputs[0] is not c or c in ins
            or len(set(dims)) != len(out_map.results) or len(dims) == out_map.num_dims):  # (no reduction loop: nothing to fold)
        return None
    v = f.inputs[0]
    if not (isinstance(v.owner, arith.ConstantOp) and is_identity(Const(v.type, v.owner), kind)):
        return None
    arrays = [m for m in [c, *ins] if isinstance(m.type, MemRefType)]
    return f if all(isinstance(m, BlockArgument) or isinstance(m.owner, (memref.AllocOp, memref.AllocaOp)) for m in arrays) else None


def _check_body_types(op: Operation, name: str) -> None:
    """Each value the op's body yields has its output's element type.  Upstream's
    named ops cast their operands to the output's type (``cast_signed``: a fill
    of an f64 into f32, an i8 copy into i32); xDSL's bodies do not, and its
    lowering would store an i8 into an i32 array (a verifier error on a
    ``memref.store`` the user never wrote): one line naming the op instead."""
    term = op.body.block.last_op  # type: ignore[attr-defined]
    outs = list(op.outputs)  # type: ignore[attr-defined]
    if term is None or len(term.operands) != len(outs):
        return  # (the op's own verifier names a malformed body)
    for v, o in zip(term.operands, outs):
        elem = o.type.element_type if isinstance(o.type, MemRefType) else None
        if elem is not None and v.type != elem:
            ins = sorted({str(x.type.element_type if isinstance(x.type, MemRefType) else x.type) for x in op.inputs})  # type: ignore[attr-defined]
            raise ExtractError(f"{location_text(op)}: '{name}' computes {v.type} for an output of {elem} elements (inputs: {', '.join(ins)}): "
                               "convert-linalg-to-loops does not cast between element types; cast the inputs first (arith.extsi/sitofp/extf/truncf in a linalg.generic)")


def _pooling_max_body(op: Operation) -> None:
    """Upstream's ``linalg.pooling_nchw_max`` is ``O = max(O, I)`` (the kernel
    operand only gives the window's shape); xDSL 0.74's body is ``max(I, K)``,
    which would store the max of the input and the kernel's values and drop
    the window's running max.  The op gets upstream's body before lowering."""
    block = op.body.block  # type: ignore[attr-defined]
    old = block.last_op.operands[0].owner if block.last_op is not None and block.last_op.operands else None
    if not (isinstance(old, (arith.MaximumfOp, arith.MaxSIOp)) and len(block.args) == 3):
        return
    new = type(old)(block.args[2], block.args[0])
    Rewriter.replace_op(old, new)


def _as_generic(op: BroadcastOp | ReduceOp) -> Operation | None:
    """``linalg.broadcast`` / ``linalg.reduce`` on memrefs as the ``linalg.generic``
    they are (xDSL 0.74 has no loop lowering for them, and the host none
    either): broadcast reads its input at the output's dims but ``dimensions``,
    reduce folds its input over ``dimensions`` into its init with its body."""
    if op.results or not all(isinstance(v.type, MemRefType) for v in (op.input, op.init)):
        return None  # (on tensors: the host names the op)
    dims = set(op.dimensions.get_values())  # type: ignore[union-attr]
    rank = len(op.init.type.get_shape() if isinstance(op, BroadcastOp) else op.input.type.get_shape())  # type: ignore[union-attr]
    full = AffineMap.identity(rank)
    part = AffineMap(rank, 0, tuple(AffineDimExpr(i) for i in range(rank) if i not in dims))
    if isinstance(op, BroadcastOp):
        maps, iters = [part, full], [IteratorTypeAttr.parallel()] * rank
        body = Region(Block(arg_types=[op.input.type.element_type, op.init.type.element_type]))  # type: ignore[union-attr]
        body.block.add_op(LinalgYieldOp(body.block.args[0]))
    else:
        maps = [full, part]
        iters = [IteratorTypeAttr.reduction() if i in dims else IteratorTypeAttr.parallel() for i in range(rank)]
        body = Rewriter.move_region_contents_to_new_regions(op.region)  # (%in, %init) -> the new init, as generic's (ins, outs)
    g = GenericOp([op.input], [op.init], body, [affine.AffineMapAttr(m) for m in maps], iters)
    g.location = op.location
    Rewriter.replace_op(op, g)
    return g


def lower_linalg(module: ModuleOp) -> tuple[list[Remark], dict[Operation, FillFold]]:
    """``linalg`` structured ops on memrefs (``linalg.generic``, ``matmul``,
    ``fill``, ``add``, ...) as loops, by xDSL's own ``convert-linalg-to-loops``
    pattern (infs has no second linalg lowering), one op at a time so that the
    loops keep the op's location (the pass's remarks then point at it).  Also
    the fills a reduction may fold (``fill_before``), by the load of the
    output in the reduction's loops."""
    from xdsl.dialects.builtin import TensorType
    from xdsl.pattern_rewriter import PatternRewriter
    from xdsl.transforms.convert_linalg_to_loops import LowerLinalgStructuredOpPattern

    remarks: list[Remark] = []
    pattern = LowerLinalgStructuredOpPattern()
    names: dict[Operation, str] = {}  # a generic made of a broadcast/reduce -> the op the user wrote
    for o in [o for o in module.walk() if isinstance(o, (BroadcastOp, ReduceOp))]:
        if (g := _as_generic(o)) is not None:
            names[g] = o.name
    ops = [o for o in module.walk() if isinstance(o, LinalgStructuredOperation)]
    pairs = {g: (f, g.outputs[0]) for g in ops if (f := fill_before(g)) is not None}  # type: ignore[attr-defined]
    lowered: dict[Operation, list[Operation]] = {}
    fills: dict[Operation, FillFold] = {}
    for op in ops:
        if op.results or any(isinstance(v.type, TensorType) for v in op.operands):
            raise ExtractError(f"{location_text(op)}: '{op.name}' on tensors: bufferize it to memrefs first (convert-linalg-to-loops lowers linalg on memrefs only)")
        _check_body_types(op, names.get(op, op.name))
        if isinstance(op, PoolingNchwMaxOp):
            _pooling_max_body(op)
        block = op.parent_block()
        assert block is not None
        old = set(block.ops)
        try:
            pattern.match_and_rewrite(op, PatternRewriter(op))
        except (NotImplementedError, DiagnosticException, VerifyException) as e:
            raise ExtractError(f"{location_text(op)}: '{names.get(op, op.name)}': convert-linalg-to-loops cannot lower it: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
        new = [o for o in block.ops if o not in old]  # (the op's loops, where it stood)
        for o in new:
            for x in o.walk():
                if location_text(x) == "<unknown>":
                    x.location = op.location
        loop = next((o for o in new if is_loop(o)), None)
        how = "" if op not in names else " (as the linalg.generic it is)"
        remarks.append(Remark(loop or op, f"'{names.get(op, op.name)}' lowered to loops by convert-linalg-to-loops{how}", False))
        lowered[op] = new
        if op in pairs:
            f, c = pairs[op]
            f_loop = next((o for o in lowered[f] if is_loop(o)), None)
            loads = [x for o in new for x in o.walk() if isinstance(x, memref.LoadOp) and x.memref is c]
            if loop is not None and f_loop is not None and len(loads) == 1:
                fills[loads[0]] = FillFold(lowered[f], f_loop, loop)
    return remarks, fills
