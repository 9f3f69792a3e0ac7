"""Building the ``stream.region`` (or two) of an analysed loop nest.

Takes an ``Analysis`` of a candidate region; gives a ``Plan``: the region(s)
(domain, iterators, ``stream.load``/``compute``/``reduce``/``store``/
``atomic``), the host ops before and after them, and the values that replace
the nest's results.  An accumulation into an array the region also reads at
the same cell becomes two regions (the fold into a host temporary, then the
update); a fold to a scalar is a region yielding it.  Every region passes the
stream dialect's own dependence test and verifier, or the plan is refused.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, MemRefType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

from infs.dialects import stream
from infs.dialects.lattice import AccessMap, Affine, Domain, LatticeError, dim_name
from infs.passes.extract_analysis import Analysis, array_label, classify, point_store, reds_of
from infs.passes.extract_host import HostOps
from infs.passes.extract_loops import erase_ops
from infs.passes.extract_remarks import Refuse, source_line
from infs.passes.extract_trees import Changed, Chase, Const, Load, Node, Op, Red, Scalar, Slot, Store, Won, walk_nodes


# ---------------------------------------------------------------------------
# Building regions
# ---------------------------------------------------------------------------


@dataclass(eq=False)
class TmpLoad(Node):
    """Region 2 of a two-phase accumulation: the fold, read back from its temporary."""

    array: SSAValue
    amap: AccessMap


class RegionBuilder:
    """One ``stream.region`` over ``dims`` (dims of the analysis, in order)."""

    def __init__(self, a: Analysis, host: HostOps, dims: Sequence[int], red: frozenset[int]):
        self.a, self.host = a, host
        self.dims = list(dims)
        self.env = {dim_name(d): Affine.of(dim_name(i)) for i, d in enumerate(self.dims)}
        self.domain = Domain(tuple(a.bounds[d] for d in self.dims))
        self.iterators = ["reduction" if d in red else "parallel" for d in self.dims]
        self.memo: dict[int, SSAValue] = {}
        self.claimed: dict[int, SSAValue] = {}  # a claim's (an atomic's) Store -> its stream.claim's (changed) result
        self.block: Block | None = None

    def build(self, stores: list[Store], loads: list[Load], results: list[Node]) -> stream.RegionOp:
        """``stores`` (maps in analysis dims); ``loads``: every load the values use."""
        a = self.a
        used_syms: set[str] = set(self.domain.names)
        nodes: list[Node] = []
        seen: set[int] = set()
        for s in stores:
            used_syms |= s.amap.symbols_used()
            for v in [s.value, *(x for _, x in s.ind), *([s.mask] if s.mask is not None else []), *([s.claim[1]] if s.claim is not None else [])]:
                nodes.extend(walk_nodes(v, seen))
        for r in results:
            nodes.extend(walk_nodes(r, seen))
        accesses = sorted([(s.order, s.array) for s in stores] + [(n.order, n.array) for n in nodes if isinstance(n, Load)]
                          + [(n.order, f) for n in nodes if isinstance(n, Chase) for f, _ in n.fields], key=lambda t: t[0])  # fmt: skip
        arrays = list(dict.fromkeys([*(x for _, x in accesses), *(n.array for n in nodes if isinstance(n, TmpLoad))]))
        used_syms.update(*(n.amap.symbols_used() for n in nodes if isinstance(n, (Load, TmpLoad))))
        by_name = {nm: v for v, nm in a.symbols.items()}
        sym_names = sorted(used_syms)
        sym_vals = [self.host.index(by_name[nm]) for nm in sym_names]
        data = list(dict.fromkeys(n.value for n in nodes if isinstance(n, Scalar)))
        names = sym_names + [a.scalars[v] for v in data]
        scalar_vals = sym_vals + data
        block = Block(arg_types=[x.type for x in arrays] + [v.type for v in scalar_vals])
        for arg, x in zip(block.args, [*arrays, *scalar_vals]):
            arg.name_hint = x.name_hint  # (the dependence test's messages name arrays by them)
        self.block = block
        self.array_arg = {x: block.args[i] for i, x in enumerate(arrays)}
        self.scalar_arg = {v: block.args[len(arrays) + len(sym_vals) + i] for i, v in enumerate(data)}
        used_loads = [ld for ld in loads if any(ld is n for n in nodes)]
        for s in sorted([*used_loads, *stores], key=lambda x: (x.order, isinstance(x, Store))):
            if isinstance(s, Load):
                self.value(s)
            else:
                where = (self.array_arg[s.array], s.amap.substitute(self.env), [self.value(x) for _, x in s.ind], [p for p, _ in s.ind])
                mask = self.stream(s.mask) if s.mask is not None else None
                if s.claim is not None:
                    pred, bound = s.claim
                    st = stream.ClaimOp(pred, self.scalar(bound), self.stream(s.value), *where, mask)
                    self.claimed[id(s)] = st.won
                elif s.atomic:
                    st = stream.AtomicOp(s.atomic, self.stream(s.value), *where, mask, changed=s.changed)
                    if s.changed:
                        self.claimed[id(s)] = st.changed
                else:
                    st = stream.StoreOp(self.stream(s.value), *where, mask)
                if s.src is not None:
                    st.location = s.src.location
                block.add_op(st)
        block.add_op(stream.YieldOp(*[self.value(r) for r in results]))
        return stream.RegionOp(arrays, scalar_vals, names, self.domain, self.iterators, Region(block), [r.type for r in results])

    # -- values -----------------------------------------------------------
    def add(self, op: Operation) -> SSAValue:
        assert self.block is not None
        self.block.add_op(op)
        return op.results[0]

    def value(self, n: Node) -> SSAValue:
        if id(n) in self.memo:
            return self.memo[id(n)]
        if isinstance(n, (Load, TmpLoad)):
            ind = n.ind if isinstance(n, Load) else ()
            op = stream.LoadOp(self.array_arg[n.array], n.amap.substitute(self.env), [self.value(x) for _, x in ind], [p for p, _ in ind])
            if isinstance(n, Load):
                op.location = n.src.location
            v = self.add(op)
        elif isinstance(n, Red):
            body = self.stream(n.body)
            rdims = [i for i, d in enumerate(self.dims) if d in n.dims]
            whole = len(rdims) == len(self.dims)
            red = stream.ReduceOp(n.kind, body, rdims, n.type if whole else stream.StreamType(n.type))
            if n.src is not None:
                red.location = n.src.location
            v = self.add(red)
        elif isinstance(n, Scalar):
            v = self.scalar_arg[n.value]
        elif isinstance(n, Chase):
            v = self.chase(n)
        elif isinstance(n, (Won, Changed)):
            if id(n.store) not in self.claimed:
                raise Refuse(f"a statement at line {source_line(n.store.src)} is used before it (a claim's or an update's result)")
            v = self.claimed[id(n.store)]
        elif isinstance(n, Slot):
            v = self.add(stream.CountOp(self.stream(n.mask), self.scalar(n.start)))
        else:
            v = self.compute(n)
        self.memo[id(n)] = v
        return v

    def scalar(self, n: Node) -> SSAValue:
        """``n`` as a value of the region that is no stream: a region scalar, or a constant in the region's body."""
        if isinstance(n, Scalar):
            return self.scalar_arg[n.value] if n.value in self.scalar_arg else self.value(n)
        if isinstance(n, Const):
            return self.add(n.op.clone())
        raise Refuse("a claim's test bound that is not a constant or a host value")

    def chase(self, n: Chase) -> SSAValue:
        """The ``stream.chase`` of a pointer chase: its test's and step's ops
        cloned into its body, the pointer and the fields' loads mapped to the
        body's arguments."""
        start = self.value(n.start)
        inputs = [self.value(x) for _, x in n.inputs]
        fields = [self.array_arg[a] for a, _ in n.fields]
        blk = Block(arg_types=[n.type, *(a.type.element_type for a, _ in n.fields), *(stream.elem_type(v.type) for v in inputs)])  # type: ignore[attr-defined]
        vmap: dict[SSAValue, SSAValue] = {p: blk.args[0] for p in n.ptr}
        for j, (_, loads) in enumerate(n.fields):
            vmap.update((ld, blk.args[1 + j]) for ld in loads)
        vmap.update((v, blk.args[1 + len(fields) + j]) for j, (v, _) in enumerate(n.inputs))
        for o in n.body:
            blk.add_op(o.clone(value_mapper=vmap))
        if n.go is None:
            yes = arith.ConstantOp.from_int_and_width(1, 1)
            blk.add_op(yes)
            go = yes.result
        else:
            go = vmap[n.go]
        blk.add_op(stream.YieldOp(go, vmap[n.next]))
        op = stream.ChaseOp(start, fields, inputs, Region(blk))
        op.location = n.src.location
        return self.add(op)

    def stream(self, n: Node) -> SSAValue:
        v = self.value(n)
        if isinstance(v.type, stream.StreamType):
            return v
        # a scalar (a region scalar) stored at every point: a compute that yields it
        blk = Block(arg_types=[v.type])
        blk.add_op(stream.YieldOp(blk.args[0]))
        return self.add(stream.ComputeOp([v], stream.StreamType(v.type), Region(blk)))

    def compute(self, n: Node) -> SSAValue:
        def leaves_of(x: Node, seen: set[int]) -> list[Node]:
            if id(x) in seen:
                return []
            seen.add(id(x))
            if isinstance(x, (Load, TmpLoad, Red, Scalar, Chase, Won, Changed, Slot)) or (id(x) in self.memo and x is not n):
                return [x]
            return [leaf for y in x.args for leaf in leaves_of(y, seen)] if isinstance(x, Op) else []

        leaves = leaves_of(n, set())
        if len(leaves) > stream.MAX_COMPUTE_INPUTS:
            # NSC: a near-stream function takes at most 8 inputs: compute the operands first
            assert isinstance(n, Op)
            for y in n.args:
                if isinstance(y, Op):
                    self.value(y)
            leaves = leaves_of(n, set())
        inputs = [self.value(x) for x in leaves]
        blk = Block(arg_types=[stream.elem_type(v.type) for v in inputs])
        env: dict[int, SSAValue] = {id(x): blk.args[i] for i, x in enumerate(leaves)}

        def emit(x: Node) -> SSAValue:
            if id(x) in env:
                return env[id(x)]
            assert isinstance(x, (Const, Op))
            # two operands of one SSA value mapped to different nodes cannot happen: a node is per SSA value
            c = x.op.clone(value_mapper={operand: emit(arg) for operand, arg in zip(x.op.operands, x.args)} if isinstance(x, Op) else None)
            blk.add_op(c)
            env[id(x)] = c.results[0]
            return c.results[0]

        out = emit(n)
        blk.add_op(stream.YieldOp(out))
        return self.add(stream.ComputeOp(inputs, stream.StreamType(n.type), Region(blk)))


# ---------------------------------------------------------------------------
# One loop nest
# ---------------------------------------------------------------------------


def _dependence(region: stream.RegionOp) -> None:
    """The stream dialect's own test (the region verifier's): refuse a region
    that would not equal its sequential loop nest."""
    why = stream.loop_carried_dependence(region)
    if why is not None:
        raise Refuse(why.removesuffix("; split it into several regions"))
    try:
        region.verify()
    except VerifyException as e:
        raise Refuse(f"the region would not verify: {str(e).splitlines()[0]}") from None


@dataclass
class Plan:
    host: HostOps
    regions: list[stream.RegionOp]
    replace: dict[SSAValue, SSAValue] = field(default_factory=dict)
    note: str = ""


def plan_region(a: Analysis) -> Plan:
    """The region(s) for analysed loops, or Refuse."""
    red = classify(a)
    dims = list(range(len(a.bounds)))
    par = [d for d in dims if d not in red]
    host = HostOps()
    built: list[stream.RegionOp] = []
    try:
        if not par:
            return _plan_scalar(a, host, dims, red, built)
        if red and not red & set(a.band_dims) and not all(_reduced_only(s.value) for s in a.stores):
            # the fold is an iter_args loop inside the band: a store after it
            # happens once per band point, even when the fold's range is
            # empty, but in one region a store of a value that is not a fold
            # would happen once per point of the fold's range (never, if empty)
            return _plan_two_phase(a, host, dims, par, red, "a store after the accumulation loop does not store only folds", built)
        one = RegionBuilder(a, host, dims, red).build(a.stores, a.loads, [])
        try:
            return Plan(host, [_checked(one, built)])
        except Refuse as e:
            if not red:
                raise
            first_why = str(e)
        built.remove(one)
        one.erase(safe_erase=False)
        if red == frozenset(range(len(red))):
            # the folded loops are the outermost: the program asks for the
            # outer-product order (ASPLOS'23 mm/out), which keeps them on the
            # host around an element-wise region rather than a temporary
            raise Refuse(f"{first_why}; the accumulation loop is outermost, so it stays on the host (outer-product order)")
        return _plan_two_phase(a, host, dims, par, red, first_why, built)
    except (Refuse, VerifyException, LatticeError):
        erase_ops(built)
        erase_ops(host.after + host.before)
        raise


def _reduced_only(n: Node) -> bool:
    """Whether every stream ``n`` is computed from is a fold (so ``n`` lives on
    the region's parallel dims only): a Red, or arith over Reds and constants."""
    leaves = [x for x in walk_nodes(n, into_reductions=False) if isinstance(x, (Load, Scalar, Red))]
    return bool(leaves) and all(isinstance(x, Red) for x in leaves)


def _stored_in_reds(a: Analysis) -> None:
    stored = {id(s.array) for s in a.stores}
    for r in reds_of(a):
        for n in walk_nodes(r.body):
            if isinstance(n, Load) and id(n.array) in stored:
                raise Refuse(f"the reduction reads {array_label(n.array)}, which the nest also writes")


def _checked(region: stream.RegionOp, built: list[stream.RegionOp]) -> stream.RegionOp:
    """``region``, once the dependence test passes (``built``: for ``plan_region`` to erase if not)."""
    built.append(region)
    _dependence(region)
    return region


def _plan_two_phase(a: Analysis, host: HostOps, dims: list[int], par: list[int], red: frozenset[int], first_why: str, built: list[stream.RegionOp]) -> Plan:
    """``X[m] = X[m] op fold(f)``: the folds into temporaries (region 1), then
    the element-wise update (region 2)."""
    _stored_in_reds(a)
    if len(par) > stream.MAX_ACCESS_RANK:
        raise Refuse(f"{first_why}; and the accumulation's {len(par)} parallel loops are too many for a temporary")
    env = host.symbols(a)
    extents = [host.emit(arith.MaxSIOp(host.affine(a.bounds[d][1] - a.bounds[d][0], env), host.const(0))) for d in par]
    r1_stores = []
    tmap = AccessMap(tuple(Affine.of(dim_name(d)) - a.bounds[d][0] for d in par))
    swapped: dict[int, Node] = {}  # each node of the update, with the folds read back from their temporaries
    for r in reds_of(a):
        t = MemRefType(r.type, [DYNAMIC_INDEX] * len(par))
        alloc = memref.AllocOp(extents, [], t)
        host.before.append(alloc)
        host.after.append(memref.DeallocOp.get(alloc.memref))
        # region 1 stores each fold at its last reduction point (after all reduction loops), so order = last
        r1_stores.append(Store(alloc.memref, tmap, r, 1 << 30, None))
        swapped[id(r)] = TmpLoad(r.type, alloc.memref, tmap)
    region1 = _checked(RegionBuilder(a, host, dims, red).build(r1_stores, a.loads, []), built)

    def swap(n: Node) -> Node:
        if id(n) not in swapped:
            swapped[id(n)] = Op(n.type, n.op, [swap(x) for x in n.args]) if isinstance(n, Op) else n
        return swapped[id(n)]

    stores2 = [dataclasses.replace(s, value=swap(s.value)) for s in a.stores]
    region2 = _checked(RegionBuilder(a, host, par, frozenset()).build(stores2, a.loads, []), built)
    return Plan(host, [region1, region2], note=" (the accumulation through a temporary: the fold, then the update)")


def _plan_scalar(a: Analysis, host: HostOps, dims: list[int], red: frozenset[int], built: list[stream.RegionOp]) -> Plan:
    """Every loop folds: the region's results are the folds (scalars); the host
    combines them with the initial values and stores."""
    _stored_in_reds(a)
    reds = reds_of(a)
    at_points = [s for s in a.stores if point_store(a, s)]
    region = _checked(RegionBuilder(a, host, dims, red).build(at_points, a.loads, list(reds)), built)
    env = {id(r): region.results[i] for i, r in enumerate(reds)}
    sym_env = host.symbols(a)

    def hval(n: Node) -> SSAValue:
        if id(n) in env:
            return env[id(n)]
        if isinstance(n, Load):
            idx = [host.affine(e, sym_env, True) for e in n.amap.results]
            for p, x in n.ind:
                idx[p] = host.emit(arith.IndexCastOp(hval(x), IndexType()), True)
            v = host.emit(memref.LoadOp.get(n.array, idx), True)
        elif isinstance(n, Scalar):
            v = n.value
        elif isinstance(n, Chase):
            raise Refuse(f"the pointer chase at line {source_line(n.src)} is used on the host after the region (only its folds are)")
        else:
            assert isinstance(n, (Const, Op))
            v = host.emit(n.op.clone(value_mapper={o: hval(x) for o, x in zip(n.op.operands, n.args)} if isinstance(n, Op) else None), True)
        env[id(n)] = v
        return v

    for s in a.stores:
        if any(s is t for t in at_points):
            continue
        v = hval(s.value)
        idx = [host.affine(e, sym_env, True) for e in s.amap.results]
        host.emit(memref.StoreOp.get(v, s.array, idx), True)
    return Plan(host, [region], {res: hval(n) for res, n in a.escaping.items()})
