"""``tensorize``: stream dataflow graph (``stream.region``) -> tensor dataflow graph (``tdfg.graph``).

Takes: a module whose offloaded loop nests are ``stream.region`` ops (the
output of stream extraction, or hand-written like ``infs/workloads``).
Gives: every region that can be tensorized replaced by a ``tdfg.graph`` with
the same operands and results (ASPLOS'23 §3.2-§3.4); every other region left
as it is, with a remark ``infs.not_tensorized = "<reason>"`` (also printed to
stderr as ``remark: ...`` with ``verbose=true``).  Domains stay symbolic.

How a region becomes a graph:

* Lattice.  The graph's rank is ``R = max(region rank, array ranks)``.  Arrays
  sit at the origin in the trailing lattice dims (``tdfg`` docstring).  The
  iteration dims are placed on lattice dims by an order-preserving map
  ``pi`` chosen so that as many affine accesses as possible line up with
  their arrays; the iteration space is *anchored* at the primary access (the
  first affine store, else the first affine load): iteration point ``x``
  sits at lattice cell ``pi(x) + o`` where ``o`` is that access's offset.
  Lattice dims no access lines up with are anchored at the origin (the
  domain's lower bound at cell 0: the lattice has no negative cells).
* Affine unit-stride loads become ``tdfg.tensor`` nodes over the cells they
  read, aligned to the iteration space with ``tdfg.mv`` (offset accesses:
  stencils) and ``tdfg.bc`` (a dim the map drops or fixes to a symbol, e.g.
  ``A[k, d1]`` or ``A[d0, k]``: outer products, gauss_elim).  Loads that are
  strided, transposed (a dim on another lattice dim than its array's) or
  indirect stay streams: ``tdfg.stream_load`` laying the data out as a tensor
  (hybrid in-/near-memory, §3.3).
* ``stream.compute`` bodies are split into primitive ``tdfg.cmp`` nodes
  (``arith``/``math`` op -> cmp op; predicates map onto ``cmp_lt``/``cmp_le``/
  ``cmp_eq`` with swapped operands and ``not``); scalar inputs and constants
  become ``tdfg.const`` (infinite tensors).
* ``stream.reduce`` becomes ``tdfg.reduce`` (in-memory partial reduction, one
  per reduced lattice dim) followed by ``tdfg.stream_reduce`` (final near-memory
  reduction), as in Fig. 4(b).  A reduced value combined with full ones is
  broadcast back along the reduced dims.
* Affine stores become ``tdfg.store`` after the inverse moves (a store whose
  map drops a non-reduced dim keeps the last iteration: ``tdfg.shrink``);
  irregular or indirect stores and every ``stream.atomic`` become
  ``tdfg.stream_store``.  All reads come before all writes (a stream region
  reads its arrays' entry values).
* Layout hints (§3.4) on the graph: the lattice dims that are ``shift``-ed,
  ``broadcast`` and ``reduce``-d, the ``primary`` array and the arrays that
  must stay bitline-``align``-ed (those unrolled into tensors).
* The graph is then canonicalized (``canonicalize-tdfg``).
* Host loops.  The lattice has the rank of the largest array (§3.2); cells
  outside the arrays' bounding hyperrectangle are undefined.  A region whose
  iteration space has more dims (inner-product mm: ``(i, j, k)`` over
  matrices) keeps its outer dims on the host: they must be parallel, and
  become an ``scf.for`` nest around the graph of the remaining dims, the loop
  indices passed as new symbols ``x0, x1, ...`` (as host code passes the
  indices of dependence-carrying loops).

A region stays a stream region (with its reason) when it uses an op or type
without a tensor counterpart: argmin/argmax reductions, casts, unsigned or
unordered compares, elements other than f32/i32/i16/i8/i1, a scalar
reduction with an ``init`` value, region results that are not reductions,
stores to one array that may overlap in an order tensors cannot express, an
iteration space wider than its arrays whose outer dims are reductions.
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FileLineColLoc,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import VerifyException

from infs.dialects import stream, tdfg
from infs.element_types import MACHINE_ELEMENTS, is_machine_element
from infs.dialects.lattice import AccessMap, Affine, Domain, LatticeError, MapAttr, dim_index, dim_name
from infs.passes.canonicalize_tdfg import canonicalize_graph, layout_hints
from infs.passes.lowering_errors import location_text

NOT_TENSORIZED = "infs.not_tensorized"


def atomic_lines(atomics: Sequence[Operation]) -> str:
    """``'stream.atomic' at lines 6 and 7``: the atomics a mixed-kinds error names
    (here and in the reference evaluator, which refuses such a region at run time)."""
    lines = [str(op.location.line.data) for op in atomics if isinstance(op.location, FileLineColLoc)]
    if len(lines) < len(atomics):
        return "'stream.atomic'"
    return f"'stream.atomic' at lines {', '.join(lines[:-1])} and {lines[-1]}"


class NotTensorizable(Exception):
    """Why a region stays a stream region (one line)."""


@dataclass
class _TV:
    """A tensor value of the graph being built, with what is known of its domain
    relative to the iteration box: ``inf`` (unbounded, from constants) or the
    box with the lattice dims in ``collapsed`` folded to their first coordinate."""

    value: SSAValue
    inf: bool = False
    collapsed: frozenset[int] = field(default_factory=frozenset)


# Access classification: per lattice dim ("aligned", j, offset) or ("fixed", coordinate).
Spec = list[tuple]


_BINARY = {
    arith.AddfOp: "add", arith.AddiOp: "add", arith.SubfOp: "sub", arith.SubiOp: "sub",
    arith.MulfOp: "mul", arith.MuliOp: "mul", arith.DivfOp: "div", arith.DivSIOp: "div",
    arith.MaximumfOp: "max", arith.MaxSIOp: "max", arith.MinimumfOp: "min", arith.MinSIOp: "min",
    arith.AndIOp: "and", arith.OrIOp: "or", arith.XOrIOp: "xor",
}  # fmt: skip
_OTHER = {"arith.negf": "neg", "arith.select": "select", "math.absf": "abs", "math.absi": "abs", "math.fma": "fma"}
_ARITHMETIC = ("add", "sub", "mul", "div")
# predicate -> (cmp op, swap operands, negate)
_CMPF = {"olt": ("cmp_lt", False, False), "ogt": ("cmp_lt", True, False), "ole": ("cmp_le", False, False),
         "oge": ("cmp_le", True, False), "oeq": ("cmp_eq", False, False), "une": ("cmp_eq", False, True)}  # fmt: skip
_CMPI = {"slt": ("cmp_lt", False, False), "sgt": ("cmp_lt", True, False), "sle": ("cmp_le", False, False),
         "sge": ("cmp_le", True, False), "eq": ("cmp_eq", False, False), "ne": ("cmp_eq", False, True)}  # fmt: skip


class _Builder:
    def __init__(self, region: stream.RegionOp):
        self.region = region
        self.dom = region.iteration_domain
        self.n = self.dom.rank
        if self.n == 0:
            raise NotTensorizable("a rank-0 region has nothing to unroll")
        ranks = [len(a.type.get_shape()) for a in region.arrays]  # type: ignore[attr-defined]
        if ranks and self.n > max(ranks):
            raise NotTensorizable(
                f"the rank-{self.n} iteration space does not fit the rank-{max(ranks)} lattice of its arrays "
                "(cells outside the arrays' bounding hyperrectangle are undefined)"
            )
        self.R = max([self.n, 1, *ranks])
        self.ops: list[Operation] = []
        self.tvs: dict[SSAValue, _TV] = {}
        self.scalar_results: dict[SSAValue, SSAValue] = {}
        self.const_cache: dict[SSAValue, _TV] = {}
        body = region.body.block
        self.body_ops = list(body.ops)
        self._check_types()
        self.pi, self.pi_inv = self._choose_placement()
        self.o = self._anchor()

    # -- set-up -------------------------------------------------------------
    def _check_types(self) -> None:
        for a in self.region.arrays:
            et = a.type.element_type  # type: ignore[attr-defined]
            if not is_machine_element(et):
                raise NotTensorizable(f"array element type {et} has no tdfg tensor type ({MACHINE_ELEMENTS})")
        for op in self.body_ops:
            if isinstance(op, stream.ChaseOp):
                # NSC Table II's pointer chasing: each step's address is the element the
                # previous one loaded, a dependence no tensor of the lattice expresses
                raise NotTensorizable("a pointer-chasing stream ('stream.chase') has no tdfg counterpart: each step's address is loaded by the step before")
            if isinstance(op, (stream.ClaimOp, stream.CountOp)) or (isinstance(op, stream.AtomicOp) and op.changed is not None):
                # each point's outcome depends on the points before it at its cell (a claim, a min's improvement) or
                # on all before it (a count): an order no tensor of the lattice keeps
                raise NotTensorizable(f"'{op.name}' has no tdfg counterpart: each point's result depends on the points before it in iteration order")
            if isinstance(op, (stream.StoreOp, stream.AtomicOp)) and op.mask is not None:
                # NSC's filtered streams write where their filter holds; a tdfg store writes its whole tensor
                raise NotTensorizable(f"a filtered '{op.name}' (if %m) has no tdfg counterpart: a tdfg store writes every cell of its tensor")
            if isinstance(op, stream.ReduceOp) and op.kind.data not in tdfg.REDUCE_KINDS:
                raise NotTensorizable(f"'{op.kind.data}' reductions have no in-memory counterpart")

    def _memory_ops(self):
        return [op for op in self.body_ops if isinstance(op, (stream.LoadOp, stream.StoreOp, stream.AtomicOp))]

    def _array_rank(self, array: SSAValue) -> int:
        return len(array.type.get_shape())  # type: ignore[attr-defined]

    def classify(self, op, pi_inv: dict[int, int] | None = None) -> Spec | None:
        """Per-lattice-dim spec of an affine unit-stride access, or None if irregular."""
        if pi_inv is None:
            pi_inv = self.pi_inv
        if op.indices:
            return None
        amap: AccessMap = op.access_map()
        r = self._array_rank(op.array)
        lead = self.R - r
        spec: Spec = [("fixed", Affine(0))] * lead
        used: set[int] = set()
        for a, e in enumerate(amap.results):
            ell = lead + a
            dims = [(nm, c) for nm, c in e.terms if dim_index(nm) is not None]
            if not dims:
                spec.append(("fixed", e))
                continue
            if len(dims) != 1 or dims[0][1] != 1:
                return None
            j = dim_index(dims[0][0])
            assert j is not None
            if j in used or pi_inv.get(ell) != j:
                return None
            used.add(j)
            spec.append(("aligned", j, e - Affine.of(dims[0][0])))
        return spec

    def _choose_placement(self) -> tuple[dict[int, int], dict[int, int]]:
        def score(combo: tuple[int, ...]) -> int:
            pi_inv = {ell: j for j, ell in enumerate(combo)}
            return sum(1 for op in self._memory_ops() if not isinstance(op, stream.AtomicOp) and self.classify(op, pi_inv) is not None)

        # the best-scoring placement; ties: the most trailing one (max keeps the first it meets)
        combo = max(reversed(list(itertools.combinations(range(self.R), self.n))), key=score)
        return {j: ell for j, ell in enumerate(combo)}, {ell: j for j, ell in enumerate(combo)}

    def _anchor(self) -> list[Affine]:
        mem = self._memory_ops()
        ordered = [op for op in mem if isinstance(op, stream.StoreOp)] + [op for op in mem if isinstance(op, stream.LoadOp)]
        specs = [s for s in (self.classify(op) for op in ordered) if s is not None]
        o: list[Affine] = []
        for ell in range(self.R):
            j = self.pi_inv.get(ell)
            if j is None:  # every access fixes this dim (classify): the first one's coordinate
                o.append(specs[0][ell][1] if specs else Affine(0))
                continue
            # an iteration dim no access lines up with starts at the lattice's
            # origin: the lattice has no negative cells (tdfg docstring), and a
            # domain [-2:N] or [1:N + 1] then needs no cell beyond its extent
            o.append(next((s[ell][2] for s in specs if s[ell][0] == "aligned"), Affine(0) - self.lo(j)))
        return o

    # -- geometry -------------------------------------------------------------
    def lo(self, j: int) -> Affine:
        return self.dom.lo(j)

    def hi(self, j: int) -> Affine:
        return self.dom.hi(j)

    def box(self, ell: int) -> tuple[Affine, Affine]:
        j = self.pi_inv.get(ell)
        if j is None:
            return self.o[ell], self.o[ell] + 1
        return self.lo(j) + self.o[ell], self.hi(j) + self.o[ell]

    def extent(self, ell: int) -> Affine:
        j = self.pi_inv[ell]
        return self.hi(j) - self.lo(j)

    def lattice_box(self) -> Domain:
        return Domain(tuple(self.box(ell) for ell in range(self.R)))

    def lattice_map(self, amap: AccessMap) -> AccessMap:
        env = {dim_name(j): Affine.of(dim_name(ell)) - self.o[ell] for j, ell in self.pi.items()}
        return amap.substitute(env)

    # -- node builders ----------------------------------------------------------
    def emit(self, op: Operation) -> Operation:
        self.ops.append(op)
        return op

    def ttype(self, elem: Attribute) -> tdfg.TensorType:
        if not is_machine_element(elem):
            raise NotTensorizable(f"element type {elem} has no tdfg tensor type ({MACHINE_ELEMENTS})")
        return tdfg.TensorType(elem, self.R)

    def mv(self, v: SSAValue, ell: int, dist: Affine) -> SSAValue:
        if dist == Affine(0):
            return v
        return self.emit(tdfg.MvOp(v, ell, dist)).results[0]

    def bc(self, v: SSAValue, ell: int, dist: Affine, count: Affine) -> SSAValue:
        return self.emit(tdfg.BcOp(v, ell, dist, count)).results[0]

    def shrink(self, v: SSAValue, ell: int, p: Affine, q: Affine) -> SSAValue:
        return self.emit(tdfg.ShrinkOp(v, ell, p, q)).results[0]

    def bounded(self, tv: _TV) -> _TV:
        if not tv.inf:
            return tv
        v = tv.value
        for ell in range(self.R):
            v = self.shrink(v, ell, *self.box(ell))
        return _TV(v)

    def expand(self, tv: _TV, keep: frozenset[int]) -> _TV:
        """Broadcast a reduced value back along its collapsed dims not in ``keep``."""
        if tv.inf:
            return tv
        v = tv.value
        for ell in sorted(tv.collapsed - keep):
            v = self.bc(v, ell, Affine(0), self.extent(ell))
        return _TV(v, False, tv.collapsed & keep)

    def full(self, tv: _TV) -> _TV:
        return self.expand(self.bounded(tv), frozenset())

    def cmp(self, opname: str, ins: Sequence[_TV], elem: Attribute) -> _TV:
        if opname in _ARITHMETIC and isinstance(elem, IntegerType) and elem.width.data == 1:
            raise NotTensorizable(f"'{opname}' on i1 values has no tdfg counterpart")
        rt = self.ttype(elem)
        finite = [t for t in ins if not t.inf]
        if not finite:
            op = self.emit(tdfg.CmpOp(opname, [t.value for t in ins], rt))
            return _TV(op.results[0], inf=True)
        keep = frozenset.intersection(*(t.collapsed for t in finite))
        vals = [self.expand(t, keep).value for t in ins]
        op = self.emit(tdfg.CmpOp(opname, vals, rt))
        return _TV(op.results[0], False, keep)

    def const_literal(self, attr: Attribute) -> _TV:
        if not isinstance(attr, (IntegerAttr, FloatAttr)):
            raise NotTensorizable(f"constant {attr} is not a scalar literal")
        rt = self.ttype(attr.type)
        value = attr.value.data
        op = self.emit(tdfg.ConstOp(rt, value=value))
        return _TV(op.results[0], inf=True)

    # -- scalars ------------------------------------------------------------
    def scalar_tv(self, v: SSAValue) -> _TV:
        """A region scalar (block argument or region-level arith) as a const tensor."""
        if v in self.const_cache:
            return self.const_cache[v]
        owner = v.owner
        if isinstance(owner, Block):
            if v not in self.region.scalar_args:
                raise NotTensorizable("a compute input is neither a stream nor a region scalar")
            tv = _TV(self.emit(tdfg.ConstOp(self.ttype(v.type), scalar=self.graph_array(v))).results[0], inf=True)
        elif isinstance(owner, stream.ReduceOp):
            raise NotTensorizable("a scalar reduction result is used inside its region")
        elif isinstance(owner, Operation) and owner.dialect_name() == "arith":
            tv = self.scalar_op(owner, [self.scalar_tv(a) for a in owner.operands])
        else:
            raise NotTensorizable(f"scalar produced by '{owner.name}' cannot become a tensor")  # type: ignore[union-attr]
        self.const_cache[v] = tv
        return tv

    def scalar_op(self, op: Operation, ins: list[_TV]) -> _TV:
        """One arith/math op on tensor values (compute bodies and region level)."""
        for r in op.results:
            if not is_machine_element(r.type):
                raise NotTensorizable(f"'{op.name}' produces {r.type}, which has no tdfg tensor type")
        if isinstance(op, arith.ConstantOp):
            return self.const_literal(op.value)
        for a in op.operands:
            if not is_machine_element(a.type):
                raise NotTensorizable(f"'{op.name}' takes {a.type}, which has no tdfg tensor type")
        rtype = op.results[0].type
        # a signed i1 is 0 or -1 (true is the smaller), the machine's i1 is 0/1
        # (unsigned compares, min = and, max = or): signed i1 ops swap their sense
        signed_i1 = isinstance(op, (arith.MaxSIOp, arith.MinSIOp, arith.CmpiOp)) and op.operands[0].type == IntegerType(1)
        kind = _BINARY.get(type(op)) or _OTHER.get(op.name)  # type: ignore[arg-type]
        if kind is not None:
            if signed_i1:
                kind = {"max": "min", "min": "max"}[kind]
            return self.cmp(kind, ins, rtype)
        if isinstance(op, (arith.CmpfOp, arith.CmpiOp)):
            table, names = (_CMPF, arith.CMPF_COMPARISON_OPERATIONS) if isinstance(op, arith.CmpfOp) else (_CMPI, arith.CMPI_COMPARISON_OPERATIONS)
            pred = names[op.predicate.value.data]
            if pred not in table:
                raise NotTensorizable(f"'{op.name}' predicate '{pred}' has no tdfg counterpart")
            name, swap, negate = table[pred]
            if signed_i1 and pred in ("slt", "sle", "sgt", "sge"):
                swap = not swap  # slt(a, b) = ult(b, a) on 0/-1
            args = list(reversed(ins)) if swap else ins
            r = self.cmp(name, args, rtype)
            return self.cmp("not", [r], rtype) if negate else r
        raise NotTensorizable(f"'{op.name}' has no tdfg element-wise counterpart")

    # -- streams ------------------------------------------------------------
    def graph_array(self, arg: SSAValue) -> SSAValue:
        """The graph's block argument for the region's (an array or a scalar)."""
        return self.graph_args[self.region.body.block.args.index(arg)]  # type: ignore[arg-type]

    def check_above_start(self, op: stream.LoadOp | stream.StoreOp, spec: Spec, verb: str) -> None:
        """A tensor cannot start below its array (the tdfg verifier's rule), nor a store's
        cells (lower-pim dropped those and wrote the rest): the region stays on the stream
        path, whose evaluator names the access when it runs.  Not an error here: over an
        empty domain (N = 0) nothing is accessed, and the region is valid."""
        lead = self.R - self._array_rank(op.array)
        for d, (p, _q) in enumerate(self._cells(spec)):
            if p.is_constant and p.const < 0:
                loc = op.location
                where = f"'{op.name}' at line {loc.line.data}" if isinstance(loc, FileLineColLoc) else f"'{op.name}'"
                raise NotTensorizable(f"{where} {verb} index {p.const} in dim {d - lead} of its array, below its start")

    def load(self, op: stream.LoadOp) -> None:
        arr = self.graph_array(op.array)
        spec = self.classify(op)
        if spec is None:
            self.tvs[op.result] = self.stream_load(op, arr)
            return
        self.check_above_start(op, spec, "reads from")
        cells = self._cells(spec)
        v = self.emit(tdfg.TensorOp(arr, Domain(tuple(cells)), self.R)).results[0]
        for ell, s in enumerate(spec):
            j = self.pi_inv.get(ell)
            if s[0] == "aligned":
                v = self.mv(v, ell, self.o[ell] - s[2])
            elif j is None:
                v = self.mv(v, ell, self.o[ell] - s[1])
            else:
                v = self.bc(v, ell, self.lo(j) + self.o[ell] - s[1], self.extent(ell))
        self.tvs[op.result] = _TV(v)

    def index_tensors(self, op) -> list[SSAValue]:
        out = []
        for idx in op.indices:
            tv = self.full(self.stream_tv(idx))
            t = idx.type.element_type
            if not isinstance(t, IntegerType) or t.width.data == 1:
                raise NotTensorizable(f"index stream of {t} cannot become an index tensor (needs i8/i16/i32)")
            out.append(tv.value)
        return out

    def stream_load(self, op: stream.LoadOp, arr: SSAValue) -> _TV:
        idx = self.index_tensors(op)
        rt = self.ttype(op.array.type.element_type)  # type: ignore[attr-defined]
        new = tdfg.StreamLoadOp(arr, idx, self.lattice_map(op.access_map()), op.indirect_positions(), self.lattice_box(), rt)
        return _TV(self.emit(new).results[0])

    def stream_tv(self, v: SSAValue) -> _TV:
        if v not in self.tvs:
            raise NotTensorizable(f"stream value defined by '{v.owner.name}' is not available")  # type: ignore[union-attr]
        return self.tvs[v]

    def compute(self, op: stream.ComputeOp) -> None:
        body = op.body.block
        local: dict[SSAValue, _TV] = {}
        for arg, v in zip(body.args, op.inputs):
            local[arg] = self.stream_tv(v) if isinstance(v.type, stream.StreamType) else self.scalar_tv(v)
            if not is_machine_element(arg.type):
                raise NotTensorizable(f"compute input of type {arg.type} has no tdfg tensor type")
        for inner in body.ops:
            if isinstance(inner, stream.YieldOp):
                self.tvs[op.result] = local[inner.values[0]]
                return
            local[inner.results[0]] = self.scalar_op(inner, [local[a] for a in inner.operands])

    def reduce(self, op: stream.ReduceOp) -> None:
        kind = op.kind.data
        elem = stream.elem_type(op.input.type)
        if elem == IntegerType(1) and kind in ("min", "max"):
            # stream.reduce's min/max are signed (an i1 true is -1: min is or,
            # max is and); the machine's i1 is 0/1 (min is and, max is or)
            kind = "max" if kind == "min" else "min"
        tv = self.bounded(self.stream_tv(op.input))
        lat = sorted(self.pi[d] for d in op.dims_list())
        v = tv.value
        for ell in lat:
            v = self.emit(tdfg.ReduceOp(kind, v, ell)).results[0]
        to_scalar = not isinstance(op.result.type, stream.StreamType)
        if to_scalar and op.init is not None:
            raise NotTensorizable("a reduction to a scalar with an 'init' value has no tdfg counterpart")
        r = self.emit(tdfg.StreamReduceOp(kind, v, list(range(self.R)) if to_scalar else lat, elem if to_scalar else self.ttype(elem)))
        if to_scalar:
            self.scalar_results[op.result] = r.results[0]
            return
        out = _TV(r.results[0], False, tv.collapsed | frozenset(lat))
        if op.init is not None:
            out = self.cmp(kind, [out, self.scalar_tv(op.init)], elem)  # tdfg's reduction kinds are element-wise ops
        self.tvs[op.result] = out

    def store(self, op: stream.StoreOp) -> None:
        arr = self.graph_array(op.array)
        value = self.stream_tv(op.value)
        spec = self.classify(op)
        if spec is None:
            self.stream_store("store", op, arr, value)
            return
        self.check_above_start(op, spec, "writes to")
        tv = self.bounded(value)
        v = tv.value
        for ell, s in enumerate(spec):
            j = self.pi_inv.get(ell)
            if s[0] == "aligned":
                dist = s[2] - self.o[ell]
            elif j is None:
                dist = s[1] - self.o[ell]
            elif ell in tv.collapsed:
                dist = s[1] - (self.lo(j) + self.o[ell])
            else:  # the map drops a non-reduced dim: the last iteration wins
                last = self.hi(j) - 1 + self.o[ell]
                v = self.shrink(v, ell, last, last + 1)
                dist = s[1] - last
            v = self.mv(v, ell, dist)
        self.emit(tdfg.StoreOp(v, arr))

    def stream_store(self, kind: str, op, arr: SSAValue, value: _TV) -> None:
        v = self.bounded(value).value
        idx = self.index_tensors(op)
        self.emit(tdfg.StreamStoreOp(kind, v, arr, idx, self.lattice_map(op.access_map()), op.indirect_positions()))

    # -- overlap of stores ------------------------------------------------------
    def _cells(self, spec: Spec) -> list[tuple[Affine, Affine]]:
        """The array cells an access of ``spec`` touches, per lattice dim."""
        return [(self.lo(s[1]) + s[2], self.hi(s[1]) + s[2]) if s[0] == "aligned" else (s[1], s[1] + 1) for s in spec]

    def _target_box(self, op) -> list[tuple[Affine, Affine]] | None:
        spec = self.classify(op)
        return None if spec is None else self._cells(spec)[self.R - self._array_rank(op.array) :]

    def _same_array(self, a: SSAValue, b: SSAValue) -> bool:
        """Two block arguments bound to one region operand are one array."""
        args = list(self.region.array_args)
        return self.region.arrays[args.index(a)] is self.region.arrays[args.index(b)]

    def check_store_order(self) -> None:
        stores = [op for op in self.body_ops if isinstance(op, stream.StoreOp)]
        atomics = [op for op in self.body_ops if isinstance(op, stream.AtomicOp)]
        # two atomic kinds on one array do not commute with each other (add
        # then max per iteration is not all adds then all maxes, the graph's
        # order); the reference refuses such a region, so it stays a stream
        for a, b in itertools.combinations(atomics, 2):
            if a.kind.data != b.kind.data and self._same_array(a.array, b.array):
                raise NotTensorizable(f"'stream.region' mixes atomic kinds {sorted({a.kind.data, b.kind.data})} on one array ({atomic_lines([a, b])})")
        # the graph applies every store before every atomic: an atomic that may
        # land on a cell a later store overwrites needs the other order
        for a in atomics:
            for b in stores:
                if self._same_array(a.array, b.array) and stream.may_write_before(a, b, self.region):
                    raise NotTensorizable("an atomic may update a cell that a later store overwrites, and a graph applies stores before atomics")
        for a, b in itertools.combinations(stores, 2):
            same = a.access_map() == b.access_map() and list(a.indices) == list(b.indices) and a.indirect_positions() == b.indirect_positions()
            if same or not self._same_array(a.array, b.array):
                continue  # the same access: one iteration writes both cells, program order decides, as in the graph
            ba, bb = self._target_box(a), self._target_box(b)
            if ba is None or bb is None or not (_disjoint(ba, bb) or _disjoint_given(ba, bb, self.region)):
                raise NotTensorizable("two stores to one array may overlap in an order tensors cannot express")

    # -- driver -------------------------------------------------------------
    def build(self) -> tdfg.GraphOp:
        region = self.region
        block = Block(arg_types=[a.type for a in region.body.block.args])
        for new, old in zip(block.args, region.body.block.args):
            new.name_hint = old.name_hint
        self.graph_args = list(block.args)
        self.check_store_order()
        results: list[SSAValue] = []
        for op in self.body_ops:
            if isinstance(op, stream.LoadOp):
                self.load(op)
            elif isinstance(op, stream.ComputeOp):
                self.compute(op)
            elif isinstance(op, stream.ReduceOp):
                self.reduce(op)
            elif isinstance(op, stream.YieldOp):
                for v in op.values:
                    if v not in self.scalar_results:
                        raise NotTensorizable("a region result that is not a reduction over every dim has no tdfg counterpart")
                    results.append(self.scalar_results[v])
            # other region-level arith ops are mapped on demand (scalar_tv); writes come last
        for op in self.body_ops:
            if isinstance(op, stream.StoreOp):
                self.store(op)
        for op in self.body_ops:
            if isinstance(op, stream.AtomicOp):
                kind = op.kind.data
                if stream.elem_type(op.value.type) == IntegerType(1) and kind in ("min", "max"):
                    kind = "max" if kind == "min" else "min"  # signed i1 (true is -1) on the machine's 0/1 i1
                self.stream_store(kind, op, self.graph_array(op.array), self.stream_tv(op.value))
        self.ops.append(tdfg.YieldOp(*results))
        block.add_ops(self.ops)
        graph = tdfg.GraphOp(region.arrays, region.scalars, region.names, self.R, Region(block), [r.type for r in region.res])
        graph.location = region.location
        return graph


def _disjoint(a: Sequence[tuple[Affine, Affine]], b: Sequence[tuple[Affine, Affine]]) -> bool:
    for (p0, q0), (p1, q1) in zip(a, b):
        c0, c1 = q0.compare(p1), q1.compare(p0)
        if (c0 is not None and c0 <= 0) or (c1 is not None and c1 <= 0):
            return True
    return False


def _disjoint_given(a: Sequence[tuple[Affine, Affine]], b: Sequence[tuple[Affine, Affine]], region: stream.RegionOp) -> bool:
    """``_disjoint`` from the region's ``assumptions`` too (a chunk's rows inside the
    region's: dwt2d's ``O[d0 + XLO, d1]`` ends before ``O[d0 + XLO + H2, d1]`` starts
    because ``XLO + CH <= H2``; ``chunking.chunk_region``, checked by the runtime)."""
    assumed = getattr(region, "assumptions", ())
    if not assumed:
        return False
    facts = stream._Facts(region.iteration_domain, assumed)
    return any(facts.ge0(p1 - q0) or facts.ge0(p0 - q1) for (p0, q0), (p1, q1) in zip(a, b))


def tensorize_region(region: stream.RegionOp) -> tuple[tdfg.GraphOp | None, str | None]:
    """The graph of one region (not inserted anywhere), or ``(None, reason)``.

    The graph uses the region's operands; erase it (``drop_all_references``) if
    it is not inserted.
    """
    # a graph reads its arrays' entry values: a flow dependence would be lost
    # (the verifier rejects such regions; this covers IR built without it)
    carried = stream.loop_carried_dependence(region)
    if carried is not None:
        return None, f"'{region.name}' {carried}"
    try:
        graph = _Builder(region).build()
    except NotTensorizable as e:
        return None, str(e)
    except LatticeError as e:
        return None, f"symbolic domain reasoning failed: {e}"
    canonicalize_graph(graph)
    graph.hints = layout_hints(graph)
    return graph, None


def peel_count(region: stream.RegionOp) -> int:
    """How many outermost dims must go to the host for the iteration space to
    fit the lattice of the region's arrays (0 when it fits)."""
    ranks = [len(a.type.get_shape()) for a in region.arrays]  # type: ignore[attr-defined]
    return max(0, region.iteration_domain.rank - max(ranks)) if ranks else 0


def peel_region(region: stream.RegionOp, ivs: Sequence[SSAValue]) -> tuple[stream.RegionOp, list[str], list[tuple[Affine, Affine]]]:
    """The region without its ``len(ivs)`` outermost dims, which become symbols
    bound to ``ivs`` (host loop indices).  Returns the inner region (not
    inserted anywhere; erase it with ``drop_all_references``), the new symbol
    names and the peeled dims' ranges.  Only parallel dims can be peeled."""
    k = len(ivs)
    dom = region.iteration_domain
    kinds = region.iterator_kinds
    if any(kinds[j] != "parallel" for j in range(k)):
        raise NotTensorizable(f"its outer {k} dim(s) are not all parallel, so they cannot become host loops")
    if region.res:
        raise NotTensorizable("a region with results cannot be split into host loops")
    taken = set(region.names)
    names: list[str] = []
    for j in range(k):
        name = f"x{j}"
        while name in taken:
            name += "_"
        taken.add(name)
        names.append(name)
    env = {dim_name(j): (Affine.of(names[j]) if j < k else Affine.of(dim_name(j - k))) for j in range(dom.rank)}
    old = region.body.block
    block = Block(arg_types=[a.type for a in old.args] + [IndexType()] * k)
    for new, a in zip(block.args, old.args):
        new.name_hint = a.name_hint
    for new, name in zip(block.args[len(old.args) :], names):
        new.name_hint = name
    vmap: dict[SSAValue, SSAValue] = dict(zip(old.args, block.args))
    for op in old.ops:
        new_op = op.clone(value_mapper=vmap)
        if isinstance(new_op, (stream.LoadOp, stream.StoreOp, stream.AtomicOp)):
            new_op.properties["map"] = MapAttr(new_op.access_map().substitute(env))
        elif isinstance(new_op, stream.ReduceOp):
            new_op.properties["dims"] = DenseArrayBase.from_list(i64, [d - k for d in new_op.dims_list()])
        block.add_op(new_op)
    inner = stream.RegionOp(
        region.arrays, [*region.scalars, *ivs], [*region.names, *names], Domain(dom.bounds[k:]), kinds[k:], Region(block), []
    )
    inner.location = region.location
    try:
        inner.verify()
    except VerifyException as e:
        inner.drop_all_references()
        raise NotTensorizable(f"without its outer dim(s) the region is not valid: {str(e).splitlines()[0]}") from None
    return inner, names, list(dom.bounds[:k])


def _materialize(expr: Affine, symbols: dict[str, SSAValue], ops: list[Operation]) -> SSAValue:
    """Host arith computing an affine expression of the region's symbols."""

    def emit(op: Operation) -> SSAValue:
        ops.append(op)
        return op.results[0]

    def const(v: int) -> SSAValue:
        return emit(arith.ConstantOp(IntegerAttr(v, IndexType())))

    acc: SSAValue | None = const(expr.const) if expr.const or not expr.terms else None
    for name, c in expr.terms:
        v = symbols[name] if c == 1 else emit(arith.MuliOp(symbols[name], const(c)))
        acc = v if acc is None else emit(arith.AddiOp(acc, v))
    assert acc is not None
    return acc


@dataclass
class CompiledRegion:
    """What tensorize makes of one region: its graph, with the ``peel`` outermost
    dims as host loops (``bounds``, bound to the new symbols ``names``) around the
    graph of ``inner``, the region without them; or ``reason`` why there is none."""

    graph: tdfg.GraphOp | None
    reason: str | None
    peel: int = 0
    bounds: list[tuple[Affine, Affine]] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    inner: stream.RegionOp | None = None
    ivs: Sequence[SSAValue] = ()  # the host loop indices the inner region's symbols are bound to

    def release(self) -> None:
        """Erase the graph and the inner region (neither is inserted anywhere)."""
        for op in (self.graph, self.inner):
            if op is not None and op.parent is None:
                op.drop_all_references()


def compile_region(region: stream.RegionOp, ivs: Sequence[SSAValue] | None = None) -> CompiledRegion:
    """Tensorize ``region``; if its iteration space does not fit the lattice of its
    arrays, tensorize it without its outer dims, which become host loops (module
    docstring, "Host loops") indexed by ``ivs`` (fresh index values by default).
    The one place that decides this, for the pass, the runtime and the lattice oracle."""
    graph, reason = tensorize_region(region)
    k = peel_count(region)
    if graph is not None or not k:
        return CompiledRegion(graph, reason)
    if ivs is None:
        ivs = Block(arg_types=[IndexType()] * k).args
    try:
        inner, names, bounds = peel_region(region, ivs)
    except NotTensorizable as e:
        return CompiledRegion(None, f"{reason}; with the outer loop(s) on the host: {e}")
    inner_graph, why = tensorize_region(inner)
    if inner_graph is None:
        inner.drop_all_references()
        return CompiledRegion(None, f"{reason}; with the outer loop(s) on the host: {why}")
    return CompiledRegion(inner_graph, None, k, bounds, names, inner, ivs)


def host_loop_points(comp: CompiledRegion, region: stream.RegionOp, scalars: Sequence) -> tuple[list[range], int]:
    """The ranges of a compiled region's host loops for the region's scalar
    values, and how many graph invocations they make (1 with no host loop)."""
    env = {n: int(v) for n, v, s in zip(region.names, scalars, region.scalars) if isinstance(s.type, IndexType)}
    ranges = [range(lo.evaluate(env), hi.evaluate(env)) for lo, hi in comp.bounds]
    return ranges, math.prod(len(r) for r in ranges)


def _host_loop_nest(region: stream.RegionOp, comp: CompiledRegion, blocks: list[Block]) -> list[Operation]:
    """The ops that replace ``region``: its host loop bounds and an ``scf.for``
    nest (one per peeled dim, bodies ``blocks``) around the graph."""
    assert comp.graph is not None and comp.inner is not None
    comp.inner.drop_all_references()
    for b, name in zip(blocks, comp.names):
        b.args[0].name_hint = name
    symbols = {n: v for n, v in zip(region.names, region.scalars) if isinstance(v.type, IndexType)}
    pre: list[Operation] = []
    lbs = [_materialize(lo, symbols, pre) for lo, _ in comp.bounds]
    ubs = [_materialize(hi, symbols, pre) for _, hi in comp.bounds]
    step = arith.ConstantOp(IntegerAttr(1, IndexType()))
    pre.append(step)
    body: list[Operation] = [comp.graph]
    loop: Operation | None = None
    for i in reversed(range(comp.peel)):
        blocks[i].add_ops([*body, scf.YieldOp()])
        loop = scf.ForOp(lbs[i], ubs[i], step.result, [], blocks[i])
        body = [loop]
    assert loop is not None
    return [*pre, loop]


def tensorize_module(module: ModuleOp) -> ModuleOp:
    """A tensorized copy of ``module`` (the pass on a clone)."""
    out = module.clone()
    TensorizePass().apply(Context(), out)
    return out


@dataclass(frozen=True)
class TensorizePass(ModulePass):
    """Replace tensorizable ``stream.region`` ops by ``tdfg.graph`` ops (see module docstring)."""

    name = "tensorize"

    verbose: bool = False
    """Print a remark for every region left as a stream region."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        regions = [r for r in op.walk() if isinstance(r, stream.RegionOp)]
        for region in regions:
            blocks = [Block(arg_types=[IndexType()]) for _ in range(peel_count(region))]
            comp = compile_region(region, [b.args[0] for b in blocks])
            graph, reason = comp.graph, comp.reason
            if comp.peel:
                Rewriter.insert_op(_host_loop_nest(region, comp, blocks), InsertPoint.before(region))
                Rewriter.erase_op(region)
                continue
            if graph is None:
                region.attributes[NOT_TENSORIZED] = StringAttr(reason or "unknown")
                if self.verbose:
                    loc = location_text(region)
                    print(f"{loc + ': ' if loc else ''}remark: stream.region not tensorized: {reason}", file=sys.stderr)
                continue
            region.attributes.pop(NOT_TENSORIZED, None)
            graph.attributes.update(region.attributes)
            Rewriter.replace_op(region, graph, graph.results)
