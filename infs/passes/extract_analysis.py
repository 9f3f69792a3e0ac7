"""The analysis of one candidate stream region: its loops, accesses and statements.

Takes the outermost loop put in the region (the loops below it whose ivs are
the region's dims); gives the region's domain (affine bounds over named
symbols), its loads and stores as access maps (affine, or indirect through a
loaded index), its innermost body as expression trees, the accumulations its
``iter_args`` loops carry, and (``classify``) which dims are reductions:
``X[m] = X[m] op f`` with ``m`` invariant in some loops becomes a fold of
``f`` over them.  A construct it does not read raises ``Refuse`` saying why.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, IntegerType, MemRefType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr, AffineSymExpr

from infs.dialects import stream
from infs.dialects.lattice import AccessMap, Affine, dim_index, dim_name
from infs.passes.extract_linalg import FillFold
from infs.passes.extract_loops import (
    is_compute_op,
    is_loop,
    is_pure_scalar_op,
    loop_body,
    loop_ivs,
    one_bound_each,
    ops_of,
    parallel_bounds,
    scf_bounds,
)
from infs.passes.extract_remarks import Refuse, source_line
from infs.passes.extract_trees import (
    NUM_MINMAX,
    REDUCE_KIND,
    Chase,
    Changed,
    Const,
    Load,
    Node,
    Op,
    Red,
    Scalar,
    Slot,
    Store,
    Won,
    chained_loop,
    logic_op,
    drop_nans,
    fold_of,
    is_identity,
    may_trap,
    minmax_op,
    no_nans,
    reduce_kind,
    select_op,
    walk_nodes,
)


# ---------------------------------------------------------------------------
# Affine analysis of index values
# ---------------------------------------------------------------------------


def _product(a: Affine, b: Affine) -> Affine:
    """``a * b`` where one of them is a constant."""
    return b * a.const if a.is_constant else a * b.const


def fold_affine(e: AffineExpr, dims: Sequence, syms: Sequence, const, binary):
    """``e`` bottom-up: a constant as ``const(value)``, a dim or symbol as its
    entry of ``dims``/``syms``, a binary op as ``binary(e, lhs, rhs)``."""
    if isinstance(e, AffineConstantExpr):
        return const(e.value)
    if isinstance(e, AffineDimExpr):
        return dims[e.position]
    if isinstance(e, AffineSymExpr):
        return syms[e.position]
    assert isinstance(e, AffineBinaryOpExpr)
    lhs = fold_affine(e.lhs, dims, syms, const, binary)
    return binary(e, lhs, fold_affine(e.rhs, dims, syms, const, binary))


def _early_exit(loop: scf.WhileOp, where: scf.IfOp) -> str:
    """Why a loop with an exit condition inside an ``scf.if`` stays on the host."""
    return (f"the 'scf.while' at line {source_line(loop)} (a loop that stops on a condition: a search's early exit) sits in a branch of the "
            f"'scf.if' at line {source_line(where)}; a stream with a termination condition under a filter has no stream op "
            "(stream.chase ends a pointer walk at the top level of a body only)")


def _narrow(t: Attribute) -> bool:
    """An integer type narrower than i32, whose index arithmetic may wrap at sizes that occur."""
    return isinstance(t, IntegerType) and t.width.data < 32


class Analysis:
    """Reads one candidate region: ``root`` (the outermost loop put in the
    region) and the loops whose ivs are the region's dims."""

    def __init__(self, root: Operation):
        self.root = root
        self.dims: dict[SSAValue, int] = {}
        self.bounds: list[tuple[Affine, Affine]] = []
        self.dim_loops: list[Operation] = []
        self.symbols: dict[SSAValue, str] = {}
        self.scalars: dict[SSAValue, str] = {}
        self.names: set[str] = set()
        self.nodes: dict[SSAValue, Node] = {}
        self.loads: list[Load] = []
        self.stores: list[Store] = []
        self.order = 0
        self.band_dims: list[int] = []
        self.red_loop: Operation | None = None
        self.escaping: dict[SSAValue, Node] = {}
        self.fills: dict[Operation, FillFold] = {}  # (lower_linalg's) the load of an output a fill before it set to the identity
        self.folded: list[FillFold] = []
        self.roots: dict[object, SSAValue] = {}  # array_root -> the SSA name the nest uses for that array
        self.filter_loads: list[tuple[Load, Operation]] = []  # indirect loads inside a filter (an update's read of its cell only)
        self.accs: dict[SSAValue, Node] = {}  # the reduction loop's iter_args -> their initial values (a counter's start)
        self.counts: dict[SSAValue, Node] = {}  # an scf.if's result that is a counter (``t + 1`` under its mask): the mask

    # -- names -----------------------------------------------------------
    def _name(self, v: SSAValue, default: str) -> str:
        hint = v.name_hint or ""
        owner = v.owner
        if not hint and isinstance(owner, (arith.IndexCastOp, arith.ExtSIOp, arith.TruncIOp)):
            hint = owner.input.name_hint or ""  # cgeist's `%0 = arith.index_cast %arg1`: the size is %arg1
        elif not hint and isinstance(owner, memref.DimOp) and isinstance(owner.index.owner, arith.ConstantOp):
            # a bound read from an array's shape (convert-linalg-to-loops): %A's dim 0 is A_0
            arr = owner.source.name_hint
            hint = f"{arr}_{owner.index.owner.value.value.data}" if arr else ""
        base = "".join(c if (c.isalnum() or c == "_") else "_" for c in hint)
        if not base or not (base[0].isalpha() or base[0] == "_") or dim_index(base) is not None:
            base = default
        name, i = base, 1
        while name in self.names or dim_index(name) is not None:
            name, i = f"{base}_{i}", i + 1
        self.names.add(name)
        return name

    def inside(self, v: SSAValue) -> bool:
        return self.root.is_ancestor(v.owner)

    def symbol(self, v: SSAValue) -> Affine:
        if v not in self.symbols:
            if not isinstance(v.type, (IndexType, IntegerType)):
                raise Refuse(f"an index is computed from a {v.type} value")
            self.symbols[v] = self._name(v, "s")
        return Affine.of(self.symbols[v])

    # -- index values -------------------------------------------------------
    def aff(self, v: SSAValue) -> Affine:
        if v in self.dims:
            return Affine.of(dim_name(self.dims[v]))
        owner = v.owner
        if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
            return Affine(int(owner.value.value.data))
        if isinstance(owner, (arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.TruncIOp, arith.IndexCastOp)) and _narrow(v.type):
            # i8/i16 arithmetic wraps where the affine form would not ((i8)i for i >= 128):
            # on the host its value is exact (a symbol); inside the nest it is not affine
            if not self.inside(v):
                return self.symbol(v)
            raise Refuse(f"an index computed in {v.type} by '{owner.name}' may wrap (index arithmetic is read as exact in index, i32 and i64 only)")
        if isinstance(owner, (arith.AddiOp, arith.SubiOp)):
            a, b = self.aff(owner.lhs), self.aff(owner.rhs)
            return a + b if isinstance(owner, arith.AddiOp) else a - b
        if isinstance(owner, arith.MuliOp):
            a, b = self.aff(owner.lhs), self.aff(owner.rhs)
            if a.is_constant or b.is_constant:
                return _product(a, b)
            if not self.inside(v):
                return self.symbol(v)
            raise Refuse(f"index product {a} * {b} is not affine")
        if isinstance(owner, (arith.IndexCastOp, arith.ExtSIOp, arith.TruncIOp)):
            if isinstance(v.type, IndexType) and not self.inside(v):
                return self.symbol(v)  # a host size cast to index once (cgeist's i32 sizes): the symbol is the index
            # (casts between index and i32/i64 as cgeist emits them: sizes and loop indices are far from overflow)
            if isinstance(owner.input.type, (IndexType, IntegerType)):
                return self.aff(owner.input)
        if isinstance(owner, affine.ApplyOp):
            return self.map_results(owner.map, owner.mapOperands)[0]
        if not self.inside(v):
            return self.symbol(v)
        what = f"'{owner.name}'" if isinstance(owner, Operation) else "a block argument"
        raise Refuse(f"an index is computed by {what}, which is not affine in the loop indices")

    def expr(self, e: AffineExpr, dims: Sequence[Affine], syms: Sequence[Affine]) -> Affine:
        def binary(e: AffineBinaryOpExpr, a: Affine, b: Affine) -> Affine:
            if e.kind == AffineBinaryOpKind.Add:
                return a + b
            if e.kind == AffineBinaryOpKind.Mul:
                if a.is_constant or b.is_constant:
                    return _product(a, b)
                raise Refuse(f"affine product {a} * {b}")
            if a.is_constant and b.is_constant and b.const > 0:
                x, y = a.const, b.const
                return Affine({AffineBinaryOpKind.Mod: x % y, AffineBinaryOpKind.FloorDiv: x // y, AffineBinaryOpKind.CeilDiv: -(-x // y)}[e.kind])
            raise Refuse(f"'{e.kind.get_token()}' in an index or bound ({e}) has no rectangular domain or affine map")

        return fold_affine(e, dims, syms, Affine, binary)

    def map_results(self, amap: affine.AffineMapAttr, operands: Sequence[SSAValue]) -> list[Affine]:
        m = amap.data
        ops = [self.aff(o) for o in operands]
        return [self.expr(r, ops[: m.num_dims], ops[m.num_dims :]) for r in m.results]

    # -- loops --------------------------------------------------------------
    def loop_bounds(self, op: Operation) -> list[tuple[Affine, Affine]]:
        """Bounds of the loop's dims (unit steps, one expression each)."""
        if isinstance(op, affine.ForOp):
            if op.step.value.data != 1:
                raise Refuse(f"step {op.step.value.data} (only unit steps map onto a domain)")
            lbs = self.map_results(op.lowerBoundMap, op.lowerBoundOperands)
            ubs = self.map_results(op.upperBoundMap, op.upperBoundOperands)
            if len(lbs) != 1 or len(ubs) != 1:
                raise Refuse("a max/min bound (several bound expressions) is not a rectangular domain")
            return [(lbs[0], ubs[0])]
        if isinstance(op, affine.ParallelOp):
            if op.reductions.data or op.res:
                raise Refuse("affine.parallel with reductions")
            if any(s.value.data != 1 for s in op.steps.data):
                raise Refuse("non-unit steps")
            if not one_bound_each(op):
                raise Refuse("a max/min bound (several bound expressions) is not a rectangular domain")
            return list(zip(*parallel_bounds(op, self.map_results)))
        if isinstance(op, (scf.ForOp, scf.ParallelOp)):
            if isinstance(op, scf.ParallelOp) and (op.initVals or op.res):
                raise Refuse("scf.parallel with reductions")
            out = []
            for lb, ub, st in zip(*scf_bounds(op)):
                s = self.aff(st)
                if not (s.is_constant and s.const == 1):
                    raise Refuse(f"step {s} (only unit steps map onto a domain)")
                out.append((self.aff(lb), self.aff(ub)))
            return out
        raise Refuse(f"'{op.name}' is not a loop")

    def add_loop(self, op: Operation) -> list[int]:
        bounds = self.loop_bounds(op)
        out = []
        for iv, (lo, hi) in zip(loop_ivs(op), bounds):
            for b in (lo, hi):
                if any(dim_index(n) is not None for n in b.names):
                    raise Refuse(f"a bound ({b}) depends on an enclosing loop of the region: not a rectangular domain")
            if lo.is_constant and hi.is_constant and lo.const > hi.const:
                raise Refuse(f"the loop never runs (bounds {lo} to {hi})")
            d = len(self.bounds)
            self.dims[iv] = d
            self.bounds.append((lo, hi))
            self.dim_loops.append(op)
            out.append(d)
        return out

    # -- values of the body -----------------------------------------------------
    def access(self, op: Operation) -> tuple[SSAValue, AccessMap]:
        if isinstance(op, (affine.LoadOp, affine.StoreOp)):
            array = op.memref
            idx = self.map_results(op.map, op.indices)
            ind: list[tuple[int, Node]] = []
        else:
            array = op.memref  # type: ignore[attr-defined]
            ind = [(p, n) for p, n in enumerate(map(self.indirect, op.indices)) if n is not None]  # type: ignore[attr-defined]
            idx = [Affine(0) if any(p == q for q, _ in ind) else self.aff(i) for p, i in enumerate(op.indices)]  # type: ignore[attr-defined]
        t = array.type
        if not isinstance(t, MemRefType):
            raise Refuse(f"'{op.name}' on a {t}")
        if self.inside(array):
            raise Refuse(f"'{op.name}' on an array allocated inside the loop nest")
        # one array under two names (a memref.cast of it, two get_globals): the region and its dependence
        # test would take them for two arrays, and a carried dependence through them
        # would go unseen (the loops stay on the host, which runs them in order)
        other = self.roots.setdefault(array_root(array), array)
        if other is not array:
            raise Refuse(f"{array_label(other)} and {array_label(array)} are one array (a 'memref.cast' of it, or 'memref.get_global's of one global)")
        if len(idx) > stream.MAX_ACCESS_RANK:
            raise Refuse(f"'{op.name}' of a rank-{len(idx)} array (streams reach up to {stream.MAX_ACCESS_RANK} dims)")
        if not stream.is_scalar_type(t.element_type):
            raise Refuse(f"'{op.name}' of {t.element_type} elements")
        return array, AccessMap(tuple(idx)), tuple(ind)

    def indirect(self, v: SSAValue) -> Node | None:
        """An index that is an integer loaded in this body (through casts), or
        computed from loaded integers (``H[V[i] >> 24]``, ``Head[k % h]``), or
        the node a pointer chase stopped at: an indirect access (NSC §II-B,
        ``X[idx[r]]``), the index stream read (or computed) as is."""
        while isinstance(v.owner, (arith.IndexCastOp, arith.ExtSIOp)) and isinstance(v.owner.input.type, IntegerType):
            v = v.owner.input
        n = self.nodes.get(v)
        if n is None and isinstance(v.type, IntegerType) and self.inside(v) and isinstance(v.owner, Operation) and is_compute_op(v.owner):
            try:
                n = self.node(v)
            except Refuse:
                return None
            if not any(isinstance(x, (Load, Chase)) for x in walk_nodes(n)):
                return None  # computed from constants and host values only: affine or not, not data
        return n if isinstance(n, (Load, Op, Chase)) and isinstance(n.type, IntegerType) else None

    def node(self, v: SSAValue) -> Node:
        if v in self.nodes:
            return self.nodes[v]
        if v in self.dims or (isinstance(v.type, IndexType) and self.inside(v)):
            try:
                moves = v in self.dims or any(dim_index(n) is not None for n in self.aff(v).names)
            except Refuse:
                moves = False
            if moves:
                raise Refuse("a loop index is used as a value (streams carry array elements, not their coordinates)")
            raise Refuse(f"an index value computed by '{v.owner.name if isinstance(v.owner, Operation) else 'a block argument'}' in the nest is used as data (streams carry integer and float elements, not index: compute it in i32/i64)")
        owner, outside = v.owner, not self.inside(v)
        if outside and (isinstance(v.type, MemRefType) or not stream.is_scalar_type(v.type)):
            raise Refuse(f"a {v.type} value from outside the nest is used as a value")
        if isinstance(owner, arith.ConstantOp):
            n: Node = Const(v.type, owner)
        elif outside:
            if v not in self.scalars:
                self.scalars[v] = self._name(v, "x")
            n = Scalar(v.type, v)
        elif isinstance(owner, Operation) and is_compute_op(owner) and len(owner.results) == 1:
            n = Op(v.type, owner, [self.node(o) for o in owner.operands])
        else:
            what = f"'{owner.name}'" if isinstance(owner, Operation) else "a block argument"
            raise Refuse(f"a value computed by {what} inside the nest")
        self.nodes[v] = n
        return n

    def body(self, ops: Sequence[Operation], in_reduction: bool = False) -> None:
        """Read the innermost body in program order (loads, stores, one reduction loop)."""
        forward: dict[tuple[int, AccessMap], Node] = {}  # same-iteration store -> load forwarding
        unconditional: set[tuple[int, AccessMap]] = set()  # cells this body reads or writes at every point
        speculated: list[tuple[Load, Operation]] = []  # loads on one side of an scf.if, read as a select
        for op in ops:
            if isinstance(op, (affine.LoadOp, memref.LoadOp)):
                ld = self.load(op, forward)
                if not ld.ind:
                    unconditional.add((id(ld.array), ld.amap))
            elif isinstance(op, (affine.StoreOp, memref.StoreOp)):
                if in_reduction and not self.point_stores():
                    raise Refuse(f"'{op.name}' inside a reduction loop")
                array, amap, ind = self.access(op)
                value = self.node(op.value)
                forward = {k: n for k, n in forward.items() if k[0] != id(array)}
                forward[(id(array), amap, ind)] = value
                self.stores.append(Store(array, amap, value, self.order, op, ind))
                self.order += 1
                if not ind:
                    unconditional.add((id(array), amap))
            elif isinstance(op, (affine.ForOp, scf.ForOp)) and op.results and not in_reduction:
                self.reduction_loop(op)
            elif is_loop(op):
                raise Refuse(f"the body of the innermost loop holds another '{op.name}' (not perfectly nested)")
            elif isinstance(op, scf.IfOp) and op.results and self.counter_if(op, None, forward, speculated):
                continue
            elif isinstance(op, scf.IfOp) and op.results:
                self.if_select(op, forward, speculated)
            elif isinstance(op, scf.IfOp):
                self.filter(op, None, forward, speculated)
            elif isinstance(op, scf.WhileOp):
                self.chase(op)
            elif is_pure_scalar_op(op):
                continue  # read on use
            else:
                raise Refuse(f"'{op.name}' in the loop body")
        for ld, where in speculated:
            why = None if (id(ld.array), ld.amap) in unconditional else self.unproved_bounds(ld)
            if why is not None:
                raise Refuse(f"the 'scf.if' at line {source_line(where)} loads {array_label(ld.array)}[{', '.join(map(str, ld.amap.results))}] on one side only: a select evaluates both sides, and {why}")

    def point_stores(self) -> bool:
        """Whether a store inside the accumulation loop happens at each of its
        points as a region's store can: the loop is the nest itself (no band
        around it), so its points are the region's (``classify`` checks that
        each such store moves with every dim and stores no fold)."""
        return not self.band_dims and self.red_loop is self.root

    def load(self, op: Operation, forward: dict) -> Load:
        """A load of the body (the stored value when this iteration stored that cell before)."""
        array, amap, ind = self.access(op)
        fwd = forward.get((id(array), amap, ind))
        if fwd is not None:
            self.nodes[op.results[0]] = fwd
            return Load(op.results[0].type, array, amap, -1, op, ind)  # (the cell is written at every point: in bounds)
        ld = Load(op.results[0].type, array, amap, self.order, op, ind)
        self.order += 1
        self.loads.append(ld)
        self.nodes[op.results[0]] = ld
        return ld

    def if_select(self, op: scf.IfOp, forward: dict, speculated: list[tuple[Load, Operation]]) -> None:
        """``scf.if`` yielding values, each side loads and arithmetic only (``x[i] if
        c else y[i]``): both sides evaluated and ``arith.select``ed, as a stream
        body must (it has no control flow).  Safe only if neither side can fail
        where the program would not have run it: no integer division by a
        divisor that may be 0 or -1, no indirect load, and every load in bounds
        at every point of the domain (checked by ``body`` once it has read all
        the accesses, ``unproved_bounds``)."""
        cond = self.node(op.cond)
        sides = []
        for region in (op.true_region, op.false_region):
            blk = region.block
            for o in list(blk.ops)[:-1]:
                if isinstance(o, (affine.LoadOp, memref.LoadOp)):
                    ld = self.load(o, forward)
                    if ld.ind:
                        raise Refuse(f"the 'scf.if' at line {source_line(op)} loads at an index loaded from memory on one side only: a select evaluates both sides, and that index may be out of bounds")
                    if ld.order >= 0:
                        speculated.append((ld, op))
                elif isinstance(o, scf.IfOp) and o.results:
                    self.if_select(o, forward, speculated)
                elif is_pure_scalar_op(o):
                    if may_trap(o):
                        raise Refuse(f"the 'scf.if' at line {source_line(op)} holds '{o.name}' by a divisor that may be 0 or -1 on one side only: a select evaluates both sides")
                elif isinstance(o, scf.WhileOp):
                    raise Refuse(_early_exit(o, op))
                else:
                    raise Refuse(f"'{o.name}' in a branch of the 'scf.if' at line {source_line(op)} (a select of its sides takes loads and arithmetic only)")
            sides.append(list(blk.last_op.operands))  # type: ignore[union-attr]
        for res, t, e in zip(op.results, *sides):
            tn, en = self.node(t), self.node(e)
            self.nodes[res] = tn if tn is en else Op(res.type, select_op(res.type), [cond, tn, en])

    def filter(self, op: scf.IfOp, outer: Node | None, forward: dict, speculated: list[tuple[Load, Operation]]) -> None:
        """``scf.if`` yielding nothing around stores (``if (c) B[i] = v``, an
        ``else`` side on ``!c``): NSC's filtered streams (§II-A, a condition
        as predication in the stream's configuration, §III-B).  Each store in
        it is a filtered ``stream.store``/``stream.atomic`` on the condition
        (and the enclosing ones: ``outer``); its loads and arithmetic run at
        every point, as a select's sides do (``if_select``'s safety rules).
        A filtered store forwards nothing to later loads: it may not happen."""
        cond = self.node(op.cond)
        i1 = IntegerType(1)
        for side, region in ((True, op.true_region), (False, op.false_region)):
            if not region.blocks or len(region.block.ops) <= 1:
                continue
            m = cond
            if not side:
                yes = arith.ConstantOp.from_int_and_width(1, 1)
                m = Op(i1, logic_op("xor"), [cond, Const(i1, yes)])
            if outer is not None:
                m = Op(i1, logic_op("and"), [outer, m])
            for o in list(region.block.ops)[:-1]:
                if isinstance(o, (affine.LoadOp, memref.LoadOp)):
                    ld = self.load(o, forward)
                    if ld.ind:  # allowed as the read of an update the filter guards (classify checks)
                        self.filter_loads.append((ld, op))
                    elif ld.order >= 0:
                        speculated.append((ld, op))
                elif isinstance(o, (affine.StoreOp, memref.StoreOp)):
                    self.masked_store(o, *self.access(o), m, forward)
                elif isinstance(o, scf.IfOp) and o.results:
                    self.if_select(o, forward, speculated)
                elif isinstance(o, scf.IfOp):
                    self.filter(o, m, forward, speculated)
                elif is_pure_scalar_op(o):
                    if may_trap(o):
                        raise Refuse(f"the 'scf.if' at line {source_line(op)} holds '{o.name}' by a divisor that may be 0 or -1: a filtered stream computes at every point")
                elif isinstance(o, scf.WhileOp):
                    raise Refuse(_early_exit(o, op))
                else:
                    raise Refuse(f"'{o.name}' in the filter of the 'scf.if' at line {source_line(op)} (a filter takes loads, arithmetic and stores)")

    def masked_store(self, o: Operation, array: SSAValue, amap: AccessMap, ind, m: Node, forward: dict) -> None:
        """A store under the filter ``m``, in program order; the loads forwarded from
        its array are forgotten (a later load reads what it stored)."""
        for k in [k for k in forward if k[0] == id(array)]:
            del forward[k]
        self.stores.append(Store(array, amap, self.node(o.value), self.order, o, ind, mask=m))
        self.order += 1

    def counter_if(self, op: scf.IfOp, outer: Node | None, forward: dict, speculated: list[tuple[Load, Operation]], acc: SSAValue | None = None) -> bool:
        """An ``scf.if`` handing on a counter of the reduction loop (GAP's
        frontier queue, ``if (c) {...; Q[t] = v; t = t + 1;}``): one result,
        the ``else`` side yields the counter unchanged, the ``then`` side its
        increment by one (or the result of such an ``scf.if`` nested in it).
        The ``then`` side is a filter on ``c`` (``filter``'s rules); a store at
        the counter is an append, at the counter's start plus the points
        before where the increment happens (``Slot``: ``stream.count``), and
        the loop's result is the start plus their number.  False if ``op``
        is no counter (an ``if_select``, then)."""
        if len(op.results) != 1 or not op.false_region.blocks or not op.true_region.blocks:
            return False
        no = op.false_region.block.last_op.operands  # type: ignore[union-attr]
        if acc is None:
            acc = no[0] if len(no) == 1 and no[0] in self.accs else None
        if acc is None or list(no) != [acc] or len(op.false_region.block.ops) != 1:
            if acc is not None and list(no) == [acc]:
                raise Refuse(f"the 'scf.if' at line {source_line(op)} counts on one side only, and its 'else' side does more than hand the counter on")
            return False
        i1 = IntegerType(1)
        cond = self.node(op.cond)
        m = cond if outer is None else Op(i1, logic_op("and"), [outer, cond])
        blk = op.true_region.block
        (yes,) = blk.last_op.operands  # type: ignore[union-attr]
        counted: Node | None = None
        inc = yes.owner
        if isinstance(inc, arith.AddiOp) and acc in (inc.lhs, inc.rhs):
            step = inc.rhs if inc.lhs is acc else inc.lhs
            if isinstance(step.owner, arith.ConstantOp) and step.owner.value.value.data == 1:  # type: ignore[union-attr]
                counted = m
        appends: list[Operation] = []
        for o in list(blk.ops)[:-1]:
            if isinstance(o, (affine.LoadOp, memref.LoadOp)):
                ld = self.load(o, forward)
                if ld.ind:
                    self.filter_loads.append((ld, op))
                elif ld.order >= 0:
                    speculated.append((ld, op))
            elif isinstance(o, memref.StoreOp) and list(o.indices) == [acc]:
                appends.append(o)
            elif isinstance(o, (affine.StoreOp, memref.StoreOp)):
                self.masked_store(o, *self.access(o), m, forward)
            elif isinstance(o, scf.IfOp) and o.results and o.results[0] is yes:
                if not self.counter_if(o, m, forward, speculated, acc):
                    raise Refuse(f"the 'scf.if' at line {source_line(o)} hands on the counter of the 'scf.if' at line {source_line(op)} but does not count")
                counted = self.counts[yes]
            elif isinstance(o, scf.IfOp) and o.results:
                self.if_select(o, forward, speculated)
            elif isinstance(o, scf.IfOp):
                self.filter(o, m, forward, speculated)
            elif is_pure_scalar_op(o):
                if may_trap(o):
                    raise Refuse(f"the 'scf.if' at line {source_line(op)} holds '{o.name}' by a divisor that may be 0 or -1: a filtered stream computes at every point")
            else:
                raise Refuse(f"'{o.name}' in the filter of the 'scf.if' at line {source_line(op)} (a filter takes loads, arithmetic and stores)")
        if counted is None:
            raise Refuse(f"the 'scf.if' at line {source_line(op)} hands on the counter of the loop changed by other than one")
        for o in appends:
            if counted is not m:
                raise Refuse(f"the store at the counter at line {source_line(o)} is not where the counter is incremented (an append's slot is the count of the points before)")
            if len(o.memref.type.get_shape()) != 1:  # type: ignore[attr-defined]
                raise Refuse(f"the append at line {source_line(o)} is to a rank-{len(o.memref.type.get_shape())} array")  # type: ignore[attr-defined]
            array = o.memref
            if self.inside(array):
                raise Refuse(f"'{o.name}' on an array allocated inside the loop nest")
            other = self.roots.setdefault(array_root(array), array)
            if other is not array:
                raise Refuse(f"{array_label(other)} and {array_label(array)} are one array (a 'memref.cast' of it, or 'memref.get_global's of one global)")
            self.masked_store(o, array, AccessMap((Affine(0),)), ((0, Slot(IndexType(), m, self.accs[acc])),), m, forward)
        self.counts[op.results[0]] = counted
        return True

    def chase(self, op: scf.WhileOp) -> None:
        """A pointer chase as cgeist prints ``while (p >= 0 && test(p)) p =
        step(p)``: an ``scf.while`` carrying one integer, whose before region is
        the null test ``p >= 0`` and, when it holds, an ``scf.if`` computing the
        test (else false), handing ``p`` on unchanged; the test and the step load
        rank-1 arrays at ``p`` (the node's fields) and compute with arith only
        (NSC Table II's pointer-chasing stream, ``stream.chase``)."""
        where = f"the 'scf.while' at line {source_line(op)}"
        if len(op.arguments) != 1 or len(op.results) != 1:
            raise Refuse(f"{where} carries {len(op.arguments)} values (a pointer chase carries its pointer only)")
        ptr_t = op.results[0].type
        if not isinstance(ptr_t, IntegerType) or ptr_t.width.data < 8:
            raise Refuse(f"{where} carries a value of type {ptr_t} (a pointer chase carries an integer slot, i8 or wider)")
        before, after = op.before_region.block, op.after_region.block
        p0, p1 = before.args[0], after.args[0]
        cond = before.last_op
        if not isinstance(cond, scf.ConditionOp) or list(cond.args) != [p0] or list(after.args) != [p1]:
            raise Refuse(f"{where} does not hand its pointer on unchanged from its test to its step")
        head = list(before.ops)[:-1]

        def null_test(o: Operation) -> bool:
            if not (isinstance(o, arith.CmpiOp) and o.lhs is p0 and isinstance(o.rhs.owner, arith.ConstantOp)):
                return False
            pred, c = o.predicate.value.data, o.rhs.owner.value.value.data  # type: ignore[union-attr]
            return (pred, c) in ((5, 0), (4, -1))  # p >= 0, p > -1

        tests = [o for o in head if null_test(o)]
        if len(tests) != 1:
            raise Refuse(f"{where} does not test its pointer for null ('p >= 0') before it loads through it")
        valid = tests[0].result
        ops: list[Operation] = []
        go: SSAValue | None = None
        if cond.condition is valid:
            rest = [o for o in head if o is not tests[0]]
        else:
            guard = cond.condition.owner
            if not (isinstance(guard, scf.IfOp) and guard.cond is valid and len(guard.results) == 1 and guard in head):
                raise Refuse(f"{where} goes on under a condition that is not 'p >= 0 && test(p)' (an 'scf.if' on the null test)")
            no = guard.false_region.block.last_op.operands[0]  # type: ignore[union-attr]
            if not (isinstance(no.owner, arith.ConstantOp) and no.owner.value.value.data in (0, False)):  # type: ignore[union-attr]
                raise Refuse(f"{where} goes on past a null pointer (its 'scf.if' does not yield false when 'p >= 0' fails)")
            then = guard.true_region.block
            ops += list(then.ops)[:-1]
            go = then.last_op.operands[0]  # type: ignore[union-attr]
            rest = [o for o in head if o not in (tests[0], guard)]
        if any(not isinstance(o, arith.ConstantOp) for o in rest):
            what = next(o for o in rest if not isinstance(o, arith.ConstantOp))
            raise Refuse(f"'{what.name}' in the test of the pointer chase at line {source_line(op)} outside its null check")
        step = list(after.ops)
        ops += step[:-1]
        nxt = step[-1].operands[0]
        inner = {p0, p1}
        fields: dict[object, tuple[SSAValue, list[SSAValue]]] = {}
        body: list[Operation] = []
        inputs: dict[SSAValue, Node] = {}
        for o in ops:
            if not isinstance(o, (arith.IndexCastOp, memref.LoadOp)) and not is_compute_op(o):
                raise Refuse(f"'{o.name}' in the pointer chase at line {source_line(op)} (its test and step take loads at the pointer and arith only)")
        for o in ops:
            if isinstance(o, arith.IndexCastOp) and o.input in (p0, p1):
                if any(not isinstance(u.operation, memref.LoadOp) for u in o.result.uses):
                    raise Refuse(f"the pointer of the chase at line {source_line(op)} is used as an index value other than a load's")
                continue
            if isinstance(o, memref.LoadOp):
                (i,) = o.indices if len(o.indices) == 1 else (None,)
                if i is None or not (isinstance(i.owner, arith.IndexCastOp) and i.owner.input in (p0, p1)):
                    raise Refuse(f"the pointer chase at line {source_line(op)} loads {array_label(o.memref)} elsewhere than at its pointer")
                array = o.memref
                if self.inside(array):
                    raise Refuse(f"the pointer chase at line {source_line(op)} loads an array allocated inside the loop nest")
                other = self.roots.setdefault(array_root(array), array)
                if other is not array:
                    raise Refuse(f"{array_label(other)} and {array_label(array)} are one array (a 'memref.cast' of it, or 'memref.get_global's of one global)")
                fields.setdefault(array_root(array), (array, []))[1].append(o.res)
                continue
            if not is_compute_op(o):
                raise Refuse(f"'{o.name}' in the pointer chase at line {source_line(op)} (its test and step take loads at the pointer and arith only)")
            body.append(o)
            for v in o.operands:
                if v in inner or (isinstance(v.owner, Operation) and op.is_ancestor(v.owner)) or v in inputs:
                    continue
                if isinstance(v.owner, arith.ConstantOp):
                    body.insert(0, v.owner)  # (cloned into the chase's body, once: the clone maps it)
                    inner.add(v)
                    continue
                inputs[v] = self.node(v)
        if not fields:
            raise Refuse(f"the 'scf.while' at line {source_line(op)} loads nothing at its pointer (a pointer chase's next address comes from the node it loads)")
        for v in (go, nxt):
            if v is not None and not (v in inner or (isinstance(v.owner, Operation) and op.is_ancestor(v.owner))):
                inputs.setdefault(v, self.node(v))
        start = self.node(op.arguments[0])
        self.nodes[op.results[0]] = Chase(ptr_t, start, list(fields.values()), list(inputs.items()), [p0, p1], list(dict.fromkeys(body)), go, nxt, self.order, op)
        self.order += 1

    def unproved_bounds(self, ld: Load) -> str | None:
        """Why ``ld``'s indices are not proved inside its array at every point of
        the domain (None: proved).  Each index's least and greatest value over
        the box (a coefficient's sign picks the bound) against 0 and the array's
        size: a static size, or the symbol a ``memref.dim`` of that array gave."""
        shape = ld.array.type.get_shape()  # type: ignore[attr-defined]
        for p, e in enumerate(ld.amap.results):
            lo = hi = Affine(e.const)
            for n, c in e.terms:
                d = dim_index(n)
                if d is None:
                    lo, hi = lo + Affine.of(n) * c, hi + Affine.of(n) * c
                else:
                    first, last = self.bounds[d][0], self.bounds[d][1] - 1
                    lo, hi = lo + (first if c > 0 else last) * c, hi + (last if c > 0 else first) * c
            if not self._nonnegative(lo):
                return f"its index {p} ({e}) is not proved >= 0 over the domain (its least value is {lo})"
            size = Affine(shape[p]) if shape[p] != DYNAMIC_INDEX else self._dim_symbol(ld.array, p)
            if size is None:
                return f"its dim {p} has a dynamic size that no bound of the domain is read from (memref.dim)"
            if not self._nonnegative(size - 1 - hi):
                return f"its index {p} ({e}) is not proved < its size {size} over the domain (its greatest value is {hi})"
        return None

    def _dim_symbol(self, array: SSAValue, p: int) -> Affine | None:
        for v, nm in self.symbols.items():
            o = v.owner
            if isinstance(o, memref.DimOp) and array_root(o.source) == array_root(array) and isinstance(o.index.owner, arith.ConstantOp) and o.index.owner.value.value.data == p:
                return Affine.of(nm)
        return None

    def _nonnegative(self, x: Affine) -> bool:
        """``x >= 0`` for every value of its symbols: a constant >= 0 plus sizes (memref.dim) with positive coefficients."""
        sizes = {nm for v, nm in self.symbols.items() if isinstance(v.owner, memref.DimOp)}
        return x.const >= 0 and all(c > 0 and n in sizes for n, c in x.terms)

    def reduction_loop(self, op: Operation) -> None:
        """An ``iter_args`` accumulation: each result is init op (fold of the body's value).
        Nested ``iter_args`` loops that hand their accumulators down unchanged
        (``for i iter_args(a = init) { for j iter_args(b = a) {...} yield }``, as
        cgeist prints a sum over a 2-D array) are one fold over all their dims."""
        if self.red_loop is not None:
            raise Refuse("two reduction loops in one body")
        self.red_loop = op
        rdims = self.add_loop(op)
        inner = op
        while (nxt := chained_loop(inner)) is not None:
            rdims += self.add_loop(nxt)
            inner = nxt
        blk = loop_body(inner)
        accs = list(blk.args[1:])
        inits = list(op.inits if isinstance(op, affine.ForOp) else op.iter_args)  # type: ignore[attr-defined]
        if inner is op and self.point_stores():
            # (a counter handed on through scf.if's: a queue's tail, counter_if)
            self.accs = {acc: self.node(init) for acc, init in zip(accs, inits) if isinstance(acc.type, IndexType)}
        self.body(ops_of(blk), in_reduction=True)
        term = blk.last_op
        assert term is not None
        if inner is op and self.arg_reduction(op, rdims[0], accs, inits, list(term.operands)):
            return
        for j, (acc, init, y, res) in enumerate(zip(accs, inits, term.operands, op.results)):
            if y in self.counts:  # the counter: its start plus the points that counted
                idx = IndexType()
                one, zero = (Const(idx, arith.ConstantOp(IntegerAttr.from_index_int_value(c))) for c in (1, 0))
                counted = Op(idx, select_op(idx), [self.counts[y], one, zero])
                a, b = Block(arg_types=[idx, idx]).args
                self.nodes[res] = Op(idx, arith.AddiOp(a, b), [self.accs[acc], Red(idx, "add", frozenset(rdims), counted, op)])
                continue
            fold = fold_of(y, acc)
            if fold is None:
                raise Refuse(f"iter_arg #{j} of the reduction loop is not an add/mul/min/max accumulation")
            comb, kind, pos, x, nan = fold
            if nan is not None:
                raise Refuse(f"iter_arg #{j} of the reduction loop is {nan}")
            # the accumulator is a block argument inside the nest: node() refuses any other use of it
            body = self.node(x)
            init_n = self.node(init)
            if comb.name in NUM_MINMAX and not no_nans(comb):
                body = drop_nans(body, kind)
                if not is_identity(init_n, kind) and not (isinstance(init_n, Const) and init_n.op.value.value.data == init_n.op.value.value.data):
                    # maxnum(NaN, fold) is the fold's -inf where the loop keeps NaN (every element NaN, or none)
                    raise Refuse(f"iter_arg #{j} of the reduction loop is a '{comb.name}' fold from a value that may be NaN (the loop keeps it when every element is NaN, the fold of the region gives its identity)")
            red = Red(y.type, kind, frozenset(rdims), body, op)
            if is_identity(init_n, kind):
                self.nodes[res] = red
            else:
                args: list[Node] = [red, red]
                args[pos] = init_n
                if comb.name == "arith.select":  # (its compare's result made the fold's pick: the host combines with the kind's op)
                    comb = minmax_op(kind, y.type)
                self.nodes[res] = Op(y.type, comb, args)

    def arg_reduction(self, op: Operation, r: int, accs: list[SSAValue], inits: list[SSAValue], ys: list[SSAValue]) -> bool:
        """The argmin (argmax) loop ``if (x < best) {best = x; at = i;}``
        (iter_args best = +inf, at = the first index; strict ``<``: the first
        index on ties) as ``stream.reduce argmin``.  Only the index may be used,
        and the compare must say ``fastmath<nnan>`` (C's -ffinite-math-only):
        the loop never picks a NaN, the reduction (like numpy's) picks the first."""
        if len(accs) != 2 or not all(isinstance(y.owner, arith.SelectOp) for y in ys):
            return False
        (sv, si), (bv, bi) = [y.owner for y in ys], accs  # type: ignore[misc]
        cmp, cast = sv.cond.owner, si.lhs.owner
        kind = {4: "argmin", 2: "argmax"}.get(cmp.predicate.value.data if isinstance(cmp, arith.CmpfOp) else -1)  # (cmpf olt, ogt)  # type: ignore[union-attr]
        while isinstance(cast, (arith.IndexCastOp, arith.ExtSIOp)):
            cast = cast.input.owner if cast.input is not loop_ivs(op)[0] else None  # type: ignore[assignment]
        x, init_v, init_i = sv.lhs, inits[0].owner, inits[1].owner
        lo = self.bounds[r][0]
        if (kind is None or cast is not None or si.cond is not sv.cond or list(cmp.operands) != [x, bv] or sv.rhs is not bv or si.rhs is not bi  # type: ignore[union-attr]
                or bv.uses.get_length() != 2 or bi.uses.get_length() != 1 or op.results[0].uses.get_length()
                or not isinstance(init_v, arith.ConstantOp) or init_v.value.value.data != (float("inf") if kind == "argmin" else float("-inf"))  # type: ignore[union-attr]
                or not (isinstance(init_i, arith.ConstantOp) and lo.is_constant and init_i.value.value.data == lo.const)):  # type: ignore[union-attr]
            raise Refuse("an argmin/argmax loop that is not 'if (x < best) {best = x; at = i;}' from best = +inf (-inf), at = the loop's first index, with only the index used")
        if not {f.value for f in cmp.fastmath.data} & {"nnan", "fast"}:  # type: ignore[union-attr]
            raise Refuse("an argmin/argmax loop whose compare is not fastmath<nnan>: the loop skips a NaN, stream.reduce picks it")
        self.nodes[op.results[1]] = Red(si.result.type, kind, frozenset({r}), self.node(x), op)
        return True


# ---------------------------------------------------------------------------
# Statements -> reductions (which loops fold, which stores accumulate)
# ---------------------------------------------------------------------------


def array_root(v: SSAValue) -> object:
    """Which array a memref value is: through ``memref.cast``s (which only change
    its type), and one array for every ``memref.get_global`` of the same global."""
    while isinstance(v.owner, memref.CastOp):
        v = v.owner.source
    if isinstance(v.owner, memref.GetGlobalOp):
        return ("memref.global", v.owner.name_.root_reference.data)
    return v


def array_label(v: SSAValue) -> str:
    return f"%{v.name_hint}" if v.name_hint else "an array"


def classify(a: Analysis) -> frozenset[int]:
    """Turn ``X[m] = X[m] op f`` (``m`` invariant in some loops) into a fold of
    ``f`` over those loops; check the stores and reductions fit one region;
    return the reduction dims."""
    band = frozenset(a.band_dims)
    if not a.stores and not a.escaping:
        raise Refuse("the loop nest stores nothing and yields nothing")
    tests: dict[int, Node] = {}  # an update's or claim's test -> what the statements it guards see (Changed, Won)
    for s in a.stores:
        if s.mask is not None:
            m = s.mask
            if _filtered_min_max(a, s):
                tests[id(m)] = Changed(IntegerType(1), s)
            elif s.ind and (test := _claim(a, s)) is not None:
                tests[id(test)] = Won(IntegerType(1), s)
    if tests:
        _guarded_by(a, tests)
    for s in a.stores:
        inv = band - s.amap.dims_used()
        if s.atomic and s.mask is None and any(isinstance(t, Changed) and t.store is s for t in tests.values()):
            continue
        if s.claim is not None or _append(s) or _claimed_cell(s):
            continue
        if s.ind:
            _atomic(a, s)
        if s.ind or not inv:
            continue
        if s.mask is not None:
            raise Refuse(f"the filtered store to {array_label(s.array)} does not move with the loop(s) at line {', '.join(source_line(a.dim_loops[d]) for d in sorted(inv))} (a filtered accumulation)")
        v = s.value
        loops = ", ".join(source_line(a.dim_loops[d]) for d in sorted(inv))
        pos = _updated_cell(s)
        if pos is None:
            raise Refuse(f"the store to {array_label(s.array)} does not move with the loop(s) at line {loops} and is not an add/mul/min/max accumulation (an output dependence)")
        f = v.args[1 - pos]
        for n in walk_nodes(f):
            if isinstance(n, Red):
                raise Refuse("a reduction nested in an accumulation")
            if isinstance(n, Load) and n.array is s.array:
                raise Refuse(f"the accumulation into {array_label(s.array)} reads {array_label(s.array)} in its summand")
        if sum(1 for t in a.stores if t.array is s.array) > 1:
            raise Refuse(f"{array_label(s.array)} is accumulated and stored again in one body")
        args = list(v.args)
        args[1 - pos] = Red(v.type, REDUCE_KIND[v.op.name], frozenset(inv), f, v.op)
        fill = a.fills.get(v.args[pos].src)  # type: ignore[union-attr]
        if fill is not None and fill.acc_root is a.root:
            # the whole linalg op is the region, so it folds from the fill's value (the identity): the fold alone
            s.value = args[1 - pos]
            a.folded.append(fill)
        else:
            s.value = Op(v.type, v.op, args)
    dims = {n.dims for n in reds_of(a)}
    if len(dims) > 1:
        raise Refuse("reductions over different loops in one body")
    red = next(iter(dims)) if dims else frozenset()
    if red and any(s.atomic and not point_store(a, s) for s in a.stores):
        raise Refuse("an update at a loaded index beside a reduction in one body")
    if red & band:
        # the folded loops enclose every store: a store that is not an
        # accumulation happens only when their range is not empty, which
        # the temporary (or the host) form cannot promise
        for s in a.stores:
            if not any(isinstance(n, Red) for n in walk_nodes(s.value)):
                raise Refuse(f"the store to {array_label(s.array)} sits in the accumulation loop but is not an accumulation")
    if a.filter_loads:
        seen: set[int] = set()
        used_nodes = {id(n) for s in a.stores for v in [s.value, *(x for _, x in s.ind), *([s.mask] if s.mask is not None else [])] for n in walk_nodes(v, seen)}
        for ld, where in a.filter_loads:
            if id(ld) in used_nodes:
                raise Refuse(f"the 'scf.if' at line {source_line(where)} loads {array_label(ld.array)} at an index loaded from memory inside the filter: a filtered stream loads at every point, and that index may be out of bounds where the filter fails")
    alld = frozenset(range(len(a.bounds)))
    for s in a.stores:
        used = s.amap.dims_used()
        if point_store(a, s):
            continue  # stored at each point of the accumulation loop, beside the fold (_plan_scalar)
        if not s.atomic and s.claim is None and not _claimed_cell(s) and (used & red or used != alld - red):
            raise Refuse(f"the store to {array_label(s.array)} does not move with every parallel loop of the nest (an output dependence)")
        for n in walk_nodes(s.value, into_reductions=False):
            if isinstance(n, Load) and n.amap.dims_used() & red:
                raise Refuse("a value loaded inside the reduction is used outside it")
    return red


def point_store(a: Analysis, s: Store) -> bool:
    """A store inside a nest that is one accumulation loop (``point_stores``)
    at a cell moving with every dim, or at a loaded index (an atomic, a
    claim, a store at a claimed cell, an append), of a value that is no fold:
    the region stores it at every point, beside the fold it yields."""
    alld = frozenset(range(len(a.bounds)))
    if not a.point_stores() or any(isinstance(n, Red) for n in walk_nodes(s.value)):
        return False
    if s.ind:
        return bool(s.atomic) or s.claim is not None or _append(s) or _claimed_cell(s)
    return not s.atomic and s.amap.dims_used() == alld


def _append(s: Store) -> bool:
    return len(s.ind) == 1 and isinstance(s.ind[0][1], Slot)


def _conjuncts(m: Node | None) -> list[Node]:
    if m is None:
        return []
    if isinstance(m, Op) and isinstance(m.op, arith.AndIOp) and m.type == IntegerType(1):
        return [x for y in m.args for x in _conjuncts(y)]
    return [m]


def _claimed_cell(s: Store) -> bool:
    """A plain store at a loaded index under a claim of a cell at the same
    index (``if (D[v] < 0) {D[v] = l; Par[v] = u;}``): only the points that
    claimed ``v`` store there -- one per cell when the claimed value fails
    the claim's test, else the claimers in iteration order."""
    ind = [(p, id(n)) for p, n in s.ind]
    return not s.atomic and any(isinstance(c, Won) and [(p, id(n)) for p, n in c.store.ind] == ind and c.store.amap.rank == s.amap.rank for c in _conjuncts(s.mask))


_SWAPPED = {"eq": "eq", "ne": "ne", "slt": "sgt", "sle": "sge", "sgt": "slt", "sge": "sle"}


def _claim(a: Analysis, s: Store) -> Node | None:
    """``if (X[c] pred k) X[c] = f`` (the cell at a loaded index, ``k`` a
    constant or host value, integers): a ``stream.claim`` -- in the loop's
    order, each point whose cell passes the test writes it (GAP bfs's
    compare-and-swap of an unvisited vertex's depth, sssp's queue mark).  The
    test is the innermost condition of the store's filter (the others filter
    the claim); its load of ``X[c]`` is the claim's own read.  Gives the
    test (None: not a claim)."""
    *outer, test = _conjuncts(s.mask)
    if not (isinstance(test, Op) and isinstance(test.op, arith.CmpiOp) and isinstance(s.value.type, IntegerType)):
        return None
    name = arith.CMPI_COMPARISON_OPERATIONS[test.op.predicate.value.data]
    if name not in _SWAPPED:
        return None
    ind = [(p, id(n)) for p, n in s.ind]

    def cell(x: Node) -> bool:
        return isinstance(x, Load) and x.array is s.array and x.amap == s.amap and [(p, id(n)) for p, n in x.ind] == ind

    lhs, rhs = test.args
    if cell(lhs) and isinstance(rhs, (Const, Scalar)):
        pred, bound = name, rhs
    elif cell(rhs) and isinstance(lhs, (Const, Scalar)):
        pred, bound = _SWAPPED[name], lhs
    else:
        return None
    if bound.type != s.value.type or any(isinstance(n, Load) and n.array is s.array for n in walk_nodes(s.value)) or sum(t.array is s.array for t in a.stores) > 1:
        return None
    s.claim = (pred, bound)
    s.mask = None
    for c in outer:
        s.mask = c if s.mask is None else Op(IntegerType(1), logic_op("and"), [s.mask, c])
    return test


def _guarded_by(a: Analysis, tests: dict[int, Node]) -> None:
    """The statements an update's or a claim's test guards see whether that
    point's update changed its cell (``Changed``) or claimed it (``Won``), as
    the loop evaluates the test in order -- not the cell's value at region
    entry; the test's own load goes with the update."""
    memo: dict[int, Node] = {}

    def sub(n: Node) -> Node:
        if id(n) in tests:
            return tests[id(n)]
        if id(n) in memo:
            return memo[id(n)]
        out = n
        if isinstance(n, Op):
            args = [sub(x) for x in n.args]
            if any(x is not y for x, y in zip(args, n.args)):
                out = Op(n.type, n.op, args)
        elif isinstance(n, Red):
            body = sub(n.body)
            if body is not n.body:
                out = Red(n.type, n.kind, n.dims, body, n.src)
        elif isinstance(n, Slot):
            mask = sub(n.mask)
            if mask is not n.mask:
                out = Slot(n.type, mask, n.start)
        memo[id(n)] = out
        return out

    for s in a.stores:
        if s.mask is not None:
            s.mask = sub(s.mask)
        s.value = sub(s.value)
        s.ind = tuple((p, sub(x)) for p, x in s.ind)
    a.escaping = {r: sub(n) for r, n in a.escaping.items()}
    used = [v for t in a.stores for v in [t.mask, t.value, *(x for _, x in t.ind)] if v is not None] + list(a.escaping.values())
    seen: set[int] = set()
    for n in (n for v in used for n in walk_nodes(v, seen)):
        if isinstance(n, Changed):
            n.store.changed = True


def _updated_cell(s: Store) -> int | None:
    """Which operand of the stored value ``X[m] op f`` (op in add/mul/min/max)
    is the load of the stored cell ``X[m]`` (at the same loaded indices); None
    if the value is not such an update."""
    v = s.value
    if not (isinstance(v, Op) and reduce_kind(v.op) is not None and len(v.args) == 2):
        return None
    ind = [(p, id(n)) for p, n in s.ind]
    return next((i for i, x in enumerate(v.args) if isinstance(x, Load) and x.array is s.array and x.amap == s.amap and [(p, id(n)) for p, n in x.ind] == ind), None)


def _filtered_min_max(a: Analysis, s: Store) -> bool:
    """``if (f < X[c]) X[c] = f`` (``>``: max; the cell at a loaded index): the filter is the update's own test, i.e. a
    ``stream.atomic min`` (max) of ``f`` -- where the test fails the atomic
    changes nothing (NSC's sssp relaxation, an atomic min at the bank).  The
    test's load of ``X[c]`` goes with the filter.  Integers only: a float
    NaN fails the test, where min would take it."""
    m, f = s.mask, s.value
    if not s.ind or not (isinstance(m, Op) and isinstance(m.op, arith.CmpiOp) and isinstance(f.type, IntegerType)):
        return False
    pred = m.op.predicate.value.data  # arith.cmpi: 2 slt, 3 sle, 4 sgt, 5 sge
    ind = [(p, id(n)) for p, n in s.ind]

    def cell(x: Node) -> bool:
        return isinstance(x, Load) and x.array is s.array and x.amap == s.amap and [(p, id(n)) for p, n in x.ind] == ind

    lhs, rhs = m.args
    if lhs is f and cell(rhs):
        kind = {2: "min", 4: "max"}.get(pred)
    elif rhs is f and cell(lhs):
        kind = {4: "min", 2: "max"}.get(pred)
    else:
        return False
    if kind is None or any(isinstance(n, Load) and n.array is s.array for n in walk_nodes(f)) or sum(t.array is s.array for t in a.stores) > 1:
        return False
    s.atomic, s.mask = kind, None
    return True


def _atomic(a: Analysis, s: Store) -> None:
    """``X[idx[p]] = X[idx[p]] op f`` (the cell chosen by a loaded index): in
    any order the same updates, i.e. a ``stream.atomic`` of ``f`` (NSC's
    indirect atomics).  A plain store at a loaded index is refused: with
    repeated indices the last writer would depend on the order."""
    pos = _updated_cell(s)
    kind = REDUCE_KIND[s.value.op.name] if pos is not None else None  # type: ignore[union-attr]
    if kind not in stream.ATOMIC_KINDS:
        raise Refuse(f"the store to {array_label(s.array)} at an index loaded from memory is not an add/min/max update of that cell (the last writer would depend on the order)")
    f = s.value.args[1 - pos]  # type: ignore[union-attr, operator]
    if any(isinstance(n, Load) and n.array is s.array for n in walk_nodes(f)) or sum(t.array is s.array for t in a.stores) > 1:
        raise Refuse(f"the update of {array_label(s.array)} at a loaded index reads or stores {array_label(s.array)} elsewhere")
    s.value, s.atomic = f, kind


def reds_of(a: Analysis) -> list[Red]:
    """The reductions the stores and the escaping values use, once each."""
    return list(dict.fromkeys(n for v in [*(s.value for s in a.stores), *a.escaping.values()] for n in walk_nodes(v) if isinstance(n, Red)))
