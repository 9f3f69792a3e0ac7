"""The ``stream`` dialect: the stream dataflow graph (sDFG).

A ``stream.region`` is one offloadable loop nest (the paper's ``inf_cfg``
region, ASPLOS'23 §3.1, NSC HPCA'22 §II).  It is isolated from above: its body
block receives the arrays (``memref``) and scalars it uses as block arguments.
Scalars of ``index`` type are *symbols* and carry a name (``N``, ``k``) that
affine expressions (the iteration domain, access maps) refer to.

Semantics (the reference evaluator in ``infs.runtime.reference`` implements
exactly this): the region equals the sequential loop nest over its iteration
domain ``[p0:q0, p1:q1, ...]`` (dim ``d0`` outermost), executing the body once
per point.  ``stream.load`` reads the element its access map names,
``stream.compute`` applies a scalar ``arith``/``math`` body, ``stream.store``
writes (the last write in iteration order wins), ``stream.atomic`` performs a
relaxed read-modify-write, and ``stream.reduce`` folds a stream over the
``reduction`` dims it names; its result is available after those loops (and is
a region result when it folds every dim).  ``stream.chase`` is a
pointer-chasing stream (NSC Table II, ``P = P->next``): from a start pointer,
it loads the node's fields at the pointer, and a body computes from them
whether to go on and the next pointer, until the body stops or the pointer is
null (negative); its value is the pointer it stopped at.  ``stream.claim``
is a test-and-set at a cell (a compare-exchange, NSC §IV-C): in iteration
order, a point whose cell passes the claim's test writes it and claims it;
its result says which points claimed.  An atomic min/max may also return
whether each point's update changed its cell (``changed``).  ``stream.count``
numbers the points where a filter holds (an append's slots).  Loads observe the
array contents at region entry: a region in which an iteration reads a cell
written by an earlier iteration is not a stream region (the evaluator rejects
it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    FileLineColLoc,
    IndexType,
    IntegerType,
    MemRefType,
    StringAttr,
)
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, Region, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import HasAncestor, HasParent, IsolatedFromAbove, IsTerminator, Pure, is_side_effect_free
from xdsl.utils.exceptions import VerifyException

from infs.element_types import ATOMIC_KINDS
from infs.dialects.keyword_syntax import int_array
from infs.dialects.lattice import AccessMap, Affine, Domain, DomainAttr, MapAttr, dim_name, parse_domain_body, verify_access, verify_domain
from infs.dialects.syntax import (
    SymbolRegion,
    check_one_of,
    is_scalar_type,
    parse_attributes,
    parse_index_list,
    print_attributes,
    print_index_list,
    print_signature,
    print_reduction,
    parse_signature,
    parse_reduction,
    parse_typed_operands,
    print_typed_operands,
)


MAX_COMPUTE_INPUTS = 8  # NSC/Infinity Stream: near-stream functions take at most 8 operands
MAX_ACCESS_RANK = 3  # §3.3: up to three dims for affine access
ITERATOR_KINDS = ("parallel", "reduction")
REDUCE_KINDS = ("add", "mul", "min", "max", "argmin", "argmax")
COMPUTE_BODY_DIALECTS = ("arith", "math")


@irdl_attr_definition
class StreamType(ParametrizedAttribute, TypeAttribute):
    """``!stream.stream<T>``: a stream of scalar elements over the region's domain."""

    name = "stream.stream"
    element_type: Attribute

    def __init__(self, element_type: Attribute):
        super().__init__(element_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            return [parser.parse_type()]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.element_type)
        printer.print_string(">")

    def verify(self) -> None:
        if not is_scalar_type(self.element_type):
            raise VerifyException(f"stream element type must be an integer, index or float type, got {self.element_type}")


def elem_type(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, StreamType) else t


def _enclosing_region(op: Operation) -> "RegionOp | None":
    found = HasAncestor(RegionOp).get_ancestor(op)
    return found if isinstance(found, RegionOp) else None


# ---------------------------------------------------------------------------
# stream.region
# ---------------------------------------------------------------------------


@irdl_op_definition
class RegionOp(SymbolRegion):
    """One offloadable loop nest (sDFG).

    ``stream.region ins(arrays) syms(name = %v : type, ...) domain [..]
    iterators [parallel, ...] (-> result types)? { ^bb0(arrays..., scalars...): ... }``

    Block arguments are the arrays, then the scalars, in order.  Index-typed
    scalars are symbols usable in affine expressions by their name.
    """

    name = "stream.region"
    domain = prop_def(DomainAttr)
    iterators = prop_def(ArrayAttr[StringAttr])
    traits = traits_def(IsolatedFromAbove())
    DIMS: ClassVar[str] = "iteration"

    def __init__(
        self,
        arrays: Sequence[SSAValue],
        scalars: Sequence[SSAValue],
        sym_names: Sequence[str],
        domain: Domain,
        iterators: Sequence[str],
        body: Region,
        result_types: Sequence[Attribute] = (),
    ):
        super().__init__(
            operands=[arrays, scalars],
            result_types=[result_types],
            properties={
                "sym_names": ArrayAttr([StringAttr(n) for n in sym_names]),
                "domain": DomainAttr(domain),
                "iterators": ArrayAttr([StringAttr(i) for i in iterators]),
            },
            regions=[body],
        )

    @property
    def iteration_domain(self) -> Domain:
        return self.domain.data

    @property
    def iterator_kinds(self) -> tuple[str, ...]:
        return tuple(s.data for s in self.iterators.data)

    def verify_(self) -> None:
        self.verify_symbols()
        self.verify_block_args()
        dom = self.iteration_domain
        verify_domain(dom, "iteration domain")
        kinds = self.iterator_kinds
        if len(kinds) != dom.rank:
            raise VerifyException(f"'{self.name}' has {len(kinds)} iterators for a rank-{dom.rank} domain")
        for k in kinds:
            check_one_of(self, "iterator kind", k, ITERATOR_KINDS)
        unknown = dom.names - self.symbol_names()
        if unknown:
            raise VerifyException(f"'{self.name}' domain {dom} uses undeclared symbol(s) {sorted(unknown)}")
        self.verify_yield()
        for op in self.body.block.ops:
            # besides stream ops, pure arith: scalar constants / symbol arithmetic
            if not isinstance(op, (LoadOp, StoreOp, AtomicOp, ClaimOp, CountOp, ComputeOp, ReduceOp, ChaseOp, YieldOp)) and not (op.dialect_name() == "arith" and is_side_effect_free(op)):
                raise VerifyException(f"'{self.name}' body may only hold stream ops and pure arith ops, found '{op.name}'")
        carried = loop_carried_dependence(self)
        if carried is not None:
            raise VerifyException(f"'{self.name}' {carried}")

    def print_head(self, printer: Printer) -> None:
        printer.print_string(f" domain {self.iteration_domain} iterators [{', '.join(self.iterator_kinds)}]")

    @classmethod
    def parse_head(cls, parser: Parser) -> dict:
        parser.parse_keyword("domain")
        domain = parse_domain_body(parser)
        parser.parse_keyword("iterators")
        return {"domain": domain, "iterators": parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, lambda: parser.parse_identifier())}


# ---------------------------------------------------------------------------
# Memory streams
# ---------------------------------------------------------------------------


class _MemoryStreamOp(IRDLOperation):
    """An access ``%A[map]`` with optional indirect indices, and its verification
    (its operands and properties follow a subclass's own)."""

    array = operand_def(MemRefType)
    indices = var_operand_def(StreamType)
    map = prop_def(MapAttr)
    indirect_dims = prop_def(DenseArrayBase)
    traits = traits_def(HasAncestor(RegionOp))

    def access_map(self) -> AccessMap:
        return self.map.data

    def indirect_positions(self) -> tuple[int, ...]:
        return tuple(self.indirect_dims.get_values())

    def _verify_access(self, indices: Sequence[SSAValue]) -> None:
        region = _enclosing_region(self)
        if region is None:  # reported by the HasAncestor trait, verified before
            return
        array = self.array  # type: ignore[attr-defined]
        if array not in region.array_args:
            raise VerifyException(f"'{self.name}' array operand must be an array argument of the enclosing 'stream.region'")
        mtype = array.type
        assert isinstance(mtype, MemRefType)
        amap, pos, rank = self.access_map(), self.indirect_positions(), len(mtype.get_shape())
        verify_access(self.name, amap, rank, region.iteration_domain.rank, "domain", region.symbol_names(), pos, len(indices), "streams")
        if rank > MAX_ACCESS_RANK:
            raise VerifyException(f"'{self.name}' accesses a rank-{rank} array; streams support up to {MAX_ACCESS_RANK} dims")
        for p in pos:
            if not amap.results[p].is_constant or amap.results[p].const != 0:
                raise VerifyException(f"'{self.name}' indirect position {p} must have a zero affine part")
        for idx in indices:
            if not isinstance(idx.type, StreamType) or not isinstance(idx.type.element_type, (IntegerType, IndexType)):
                raise VerifyException(f"'{self.name}' index operand must be a stream of integers, got {idx.type}")
            # NSC §II-B: the address of an indirect stream comes from another
            # stream of the same region, never from a foreign value.
            owner = idx.owner
            if not isinstance(owner, (LoadOp, ComputeOp, ChaseOp, CountOp)) or _enclosing_region(owner) is not region:
                raise VerifyException(f"'{self.name}' index stream must be produced by a stream.load, stream.compute, stream.chase or stream.count of the same region")


@irdl_op_definition
class LoadOp(_MemoryStreamOp):
    """``%s = stream.load %A[d0 - 1, k] : memref<..> -> !stream.stream<T>``.

    Affine load: the element at the map's indices, at every iteration point.
    A dim the map drops is a broadcast; permuted dims are a transpose.  An
    index entry given as an SSA stream (``%A[%idx, d1]``) makes it indirect.
    """

    name = "stream.load"
    result = result_def(StreamType)
    traits = traits_def(Pure())

    def __init__(self, array: SSAValue, amap: AccessMap, indices: Sequence[SSAValue] = (), indirect_dims: Sequence[int] = ()):
        assert isinstance(array.type, MemRefType)
        super().__init__(
            operands=[array, indices],
            result_types=[StreamType(array.type.element_type)],
            properties={"map": MapAttr(amap), "indirect_dims": int_array(indirect_dims)},
        )

    def verify_(self) -> None:
        self._verify_access(self.indices)
        mtype = self.array.type
        assert isinstance(mtype, MemRefType)
        if self.result.type != StreamType(mtype.element_type):
            raise VerifyException(f"'{self.name}' result must be !stream.stream<{mtype.element_type}>, got {self.result.type}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.array)
        print_index_list(printer, self.map.data, self.indirect_positions(), self.indices)
        print_signature(printer, self, [self.array.type], self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> "LoadOp":
        start = parser.pos
        arr = parser.parse_unresolved_operand()
        amap, pos, idx = parse_index_list(parser)
        (atype,), rtype = parse_signature(parser, 1)
        if not isinstance(atype, MemRefType) or rtype != StreamType(atype.element_type):
            parser.raise_error(f"stream.load of {atype} must return a stream of its element type, got {rtype}", start, parser.pos)
        return parse_attributes(parser, cls(parser.resolve_operand(arr, atype), amap, idx, pos))


def _parse_value_to_array(parser: Parser) -> tuple[SSAValue, SSAValue, AccessMap, list[SSAValue], list[int], SSAValue | None]:
    """What ``_print_value_to_array`` writes: the value, the array, the map, its
    index streams and their positions, and the filter (``if %m``) or None."""
    val = parser.parse_unresolved_operand()
    parser.parse_punctuation("->")
    arr = parser.parse_unresolved_operand()
    amap, pos, idx = parse_index_list(parser)
    mask = parser.parse_unresolved_operand() if parser.parse_optional_keyword("if") else None
    (vtype,), atype = parse_signature(parser, 1)
    m = parser.resolve_operand(mask, StreamType(IntegerType(1))) if mask is not None else None
    return parser.resolve_operand(val, vtype), parser.resolve_operand(arr, atype), amap, idx, pos, m


def _print_value_to_array(printer: Printer, op: "StoreOp | AtomicOp") -> None:
    """``%v -> %A[map] [if %m] : <value type> -> <array type> {attrs}``: the tail both write ops print."""
    printer.print_ssa_value(op.value)
    printer.print_string(" -> ")
    printer.print_ssa_value(op.array)
    print_index_list(printer, op.map.data, op.indirect_positions(), op.indices)
    if op.mask is not None:
        printer.print_string(" if ")
        printer.print_ssa_value(op.mask)
    print_signature(printer, op, [op.value.type], op.array.type)


@irdl_op_definition
class StoreOp(_MemoryStreamOp):
    """``stream.store %v -> %B[d0] : !stream.stream<T> -> memref<..>``.

    Writes the stream's element at every iteration point; where several points
    write one cell the last in iteration order wins.  Indirect like loads.
    ``if %m`` (a stream of i1) filters it: only the points where ``%m`` holds
    write (NSC's filtered streams, §II-A; a conditional store as predication
    in the stream's configuration, §III-B).
    """

    name = "stream.store"
    value = operand_def(StreamType)
    array = operand_def(MemRefType)  # (redeclared: the filter is the last operand, the generic form's segments stay value, array, indices, filter)
    indices = var_operand_def(StreamType)
    mask = opt_operand_def(StreamType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, value: SSAValue, array: SSAValue, amap: AccessMap, indices: Sequence[SSAValue] = (), indirect_dims: Sequence[int] = (),
                 mask: SSAValue | None = None):  # fmt: skip
        super().__init__(
            operands=[value, array, indices, [mask] if mask is not None else []],
            properties={"map": MapAttr(amap), "indirect_dims": int_array(indirect_dims)},
        )

    def verify_(self) -> None:
        _verify_write(self, "stores {} into a memref of {}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_value_to_array(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> "StoreOp":
        return parse_attributes(parser, cls(*_parse_value_to_array(parser)))


@irdl_op_definition
class AtomicOp(_MemoryStreamOp):
    """``stream.atomic add %v -> %C[%idx, d1] : !stream.stream<T> -> memref<..>``.

    Relaxed read-modify-write (add/min/max) at every iteration point; the
    order of updates is unobservable because the kinds are commutative.
    ``if %m`` filters it as it does a store.
    """

    name = "stream.atomic"
    value = operand_def(StreamType)
    array = operand_def(MemRefType)  # (as stream.store's)
    indices = var_operand_def(StreamType)
    mask = opt_operand_def(StreamType)
    kind = prop_def(StringAttr)
    changed = opt_result_def(StreamType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, kind: str, value: SSAValue, array: SSAValue, amap: AccessMap, indices: Sequence[SSAValue] = (), indirect_dims: Sequence[int] = (),
                 mask: SSAValue | None = None, changed: bool = False):  # fmt: skip
        super().__init__(
            operands=[value, array, indices, [mask] if mask is not None else []],
            properties={"kind": StringAttr(kind), "map": MapAttr(amap), "indirect_dims": int_array(indirect_dims)},
            result_types=[[StreamType(IntegerType(1))] if changed else []],
        )

    def verify_(self) -> None:
        check_one_of(self, "kind", self.kind.data, ATOMIC_KINDS)
        _verify_write(self, "updates a memref of {1} with {0}")
        if self.changed is not None:
            if self.changed.type != StreamType(IntegerType(1)):
                raise VerifyException(f"'{self.name}' changed result must be a !stream.stream<i1>, got {self.changed.type}")
            if self.kind.data not in ("min", "max"):
                raise VerifyException(f"'{self.name}' returns whether it changed its cell for min and max only, not {self.kind.data}")
            _verify_sole_access(self, "an atomic returning whether it changed its cell")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.kind.data} ")
        if self.changed is not None:
            printer.print_string("changed ")
        _print_value_to_array(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> "AtomicOp":
        kind = parser.parse_identifier(" (atomic kind)")
        changed = parser.parse_optional_keyword("changed") is not None
        return parse_attributes(parser, cls(kind, *_parse_value_to_array(parser), changed=changed))


CLAIM_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge")


def claim_test(pred: str, old, bound):
    """``old <pred> bound`` elementwise (numpy or Python values): a claim's test."""
    import operator

    return {"eq": operator.eq, "ne": operator.ne, "slt": operator.lt, "sle": operator.le, "sgt": operator.gt, "sge": operator.ge}[pred](old, bound)


@irdl_op_definition
class ClaimOp(_MemoryStreamOp):
    """``%won = stream.claim slt %k, %v -> %X[%idx] if %m : !stream.stream<T> -> memref<..>``.

    A test-and-set at a cell (NSC §IV-C's compare-exchange, GAP bfs's claim
    of an unvisited vertex): at each point, in iteration order, where its
    filter holds, if the cell passes the test ``X[c] <pred> k`` (``k`` a
    scalar of the element type, the same at every point), the point writes
    its value there and claims the cell (``%won`` true); else nothing is
    written (``%won`` false).  When the written value fails the test (a
    claim proper: ``D[v] < 0`` set to a level), each cell is claimed at most
    once, by its first point.  The claimed array is accessed by the claim
    only in its region (the cell's value is the claim's own read).
    """

    name = "stream.claim"
    value = operand_def(StreamType)
    array = operand_def(MemRefType)
    indices = var_operand_def(StreamType)
    mask = opt_operand_def(StreamType)
    bound = operand_def()
    predicate = prop_def(StringAttr)
    won = result_def(StreamType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, predicate: str, bound: SSAValue, value: SSAValue, array: SSAValue, amap: AccessMap, indices: Sequence[SSAValue] = (),
                 indirect_dims: Sequence[int] = (), mask: SSAValue | None = None):  # fmt: skip
        super().__init__(
            operands=[value, array, indices, [mask] if mask is not None else [], bound],
            properties={"predicate": StringAttr(predicate), "map": MapAttr(amap), "indirect_dims": int_array(indirect_dims)},
            result_types=[StreamType(IntegerType(1))],
        )

    def verify_(self) -> None:
        check_one_of(self, "predicate", self.predicate.data, CLAIM_PREDICATES)
        _verify_write(self, "claims a memref of {1} with {0}")
        mtype = self.array.type
        assert isinstance(mtype, MemRefType)
        if isinstance(self.bound.type, StreamType) or self.bound.type != mtype.element_type:
            raise VerifyException(f"'{self.name}' test bound must be a scalar of the array's element type {mtype.element_type}, got {self.bound.type}")
        if not isinstance(mtype.element_type, IntegerType):
            raise VerifyException(f"'{self.name}' claims integer cells only, got {mtype.element_type}")
        if self.won.type != StreamType(IntegerType(1)):
            raise VerifyException(f"'{self.name}' result must be a !stream.stream<i1>, got {self.won.type}")
        _verify_sole_access(self, "a claimed array")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.predicate.data} ")
        printer.print_ssa_value(self.bound)
        printer.print_string(", ")
        _print_value_to_array(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> "ClaimOp":
        pred = parser.parse_identifier(" (claim predicate)")
        bound = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        value, array, amap, idx, pos, mask = _parse_value_to_array(parser)
        et = array.type.element_type if isinstance(array.type, MemRefType) else value.type
        return parse_attributes(parser, cls(pred, parser.resolve_operand(bound, et), value, array, amap, idx, pos, mask))


@irdl_op_definition
class CountOp(IRDLOperation):
    """``%pos = stream.count %m from %t : !stream.stream<i1>``: at each point,
    ``t`` plus the number of points before it in iteration order where ``%m``
    holds (an exclusive prefix count, ``!stream.stream<index>``).  The slots
    of an append (``Q[t++] = v`` under a filter: a store at ``%pos`` filtered
    by ``%m`` fills ``Q[t : t + count]`` in iteration order)."""

    name = "stream.count"
    mask = operand_def(StreamType)
    start = operand_def(IndexType)
    result = result_def(StreamType)
    traits = traits_def(Pure(), HasAncestor(RegionOp))

    def __init__(self, mask: SSAValue, start: SSAValue):
        super().__init__(operands=[mask, start], result_types=[StreamType(IndexType())])

    def verify_(self) -> None:
        if self.mask.type != StreamType(IntegerType(1)):
            raise VerifyException(f"'{self.name}' counts a !stream.stream<i1>, got {self.mask.type}")
        if self.result.type != StreamType(IndexType()):
            raise VerifyException(f"'{self.name}' result must be a !stream.stream<index>, got {self.result.type}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.mask)
        printer.print_string(" from ")
        printer.print_ssa_value(self.start)
        printer.print_string(" : ")
        printer.print_attribute(self.mask.type)
        print_attributes(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> "CountOp":
        m = parser.parse_unresolved_operand()
        parser.parse_keyword("from")
        t = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        mt = parser.parse_type()
        return parse_attributes(parser, cls(parser.resolve_operand(m, mt), parser.resolve_operand(t, IndexType())))


def _verify_sole_access(op: "AtomicOp | ClaimOp", what: str) -> None:
    """The op's array is read and written by no other op of its region (its
    result is computed from the cell's values in iteration order)."""
    region = _enclosing_region(op)
    if region is None:
        return
    for other in region.body.block.ops:
        if other is op:
            continue
        arrays = list(other.fields) if isinstance(other, ChaseOp) else [getattr(other, "array", None)]
        if op.array in arrays:
            raise VerifyException(f"'{op.name}': {what} is accessed by no other op of its region, but '{other.name}' accesses it")


def live_dims(value: SSAValue, region: RegionOp) -> frozenset[int]:
    """Iteration dims a stream value varies over (reductions remove dims)."""
    owner = value.owner
    if isinstance(owner, ReduceOp):
        return live_dims(owner.input, region) - frozenset(owner.dims_list())
    if isinstance(owner, ComputeOp):
        stream_inputs = [v for v in owner.inputs if isinstance(v.type, StreamType)]
        if stream_inputs:
            return frozenset().union(*(live_dims(v, region) for v in stream_inputs))
    return frozenset(range(region.iteration_domain.rank))


def _verify_filter(op: "StoreOp | AtomicOp", region: RegionOp) -> None:
    """A write's filter: a stream of i1 of the same region, defined at every
    point the op writes (a reduced value is written once per point of its
    remaining dims, so the filter must not vary over the reduced ones)."""
    mask = op.mask
    assert mask is not None
    if mask.type != StreamType(IntegerType(1)):
        raise VerifyException(f"'{op.name}' filter must be a !stream.stream<i1>, got {mask.type}")
    owner = mask.owner
    if not isinstance(owner, (LoadOp, ComputeOp, ChaseOp, ClaimOp, AtomicOp)) or _enclosing_region(owner) is not region:
        raise VerifyException(f"'{op.name}' filter must be produced by a stream.load, stream.compute, stream.chase, stream.claim or stream.atomic of the same region")
    extra = live_dims(mask, region) - live_dims(op.value, region)
    if extra:
        raise VerifyException(f"'{op.name}' filter varies over dim(s) {sorted(extra)} its value is reduced over")


def _verify_write(op: "StoreOp | AtomicOp", how: str) -> None:
    """A store's or atomic's access, its value of the array's element type (else
    ``how``, formatted with both types), and the dims it may index."""
    op._verify_access(op.indices)
    mtype = op.array.type
    assert isinstance(mtype, MemRefType)
    if elem_type(op.value.type) != mtype.element_type:
        raise VerifyException(f"'{op.name}' " + how.format(elem_type(op.value.type), mtype.element_type))
    region = _enclosing_region(op)
    if region is None:
        return
    if op.mask is not None:
        _verify_filter(op, region)
    value, owner = op.value, op.value.owner
    if isinstance(owner, ReduceOp) or (isinstance(owner, ComputeOp) and any(isinstance(v.owner, ReduceOp) for v in owner.inputs)):
        reduced = frozenset(range(region.iteration_domain.rank)) - live_dims(value, region)
        used = op.access_map().dims_used()
        if used & reduced:
            raise VerifyException(f"'{op.name}' of a reduced stream indexes reduced dim(s) {sorted(used & reduced)}")


# ---------------------------------------------------------------------------
# Computation
# ---------------------------------------------------------------------------


def _verify_body(op: "ComputeOp | ChaseOp", expected: Sequence[Attribute], whose: str) -> Operation | None:
    """A compute's or chase's body: its arguments of the ``expected`` types
    (``whose`` names them in the message), side-effect-free arith/math ops
    only (NSC's near-stream functions, the scalar PE's and SCM's ops); gives
    its last op (the yield, checked by the caller)."""
    block = op.body.block
    if [a.type for a in block.args] != list(expected):
        raise VerifyException(f"'{op.name}' body arguments {[str(a.type) for a in block.args]} must be {whose} {[str(t) for t in expected]}")
    for inner in block.ops:
        if not isinstance(inner, YieldOp) and (inner.dialect_name() not in COMPUTE_BODY_DIALECTS or inner.regions or not is_side_effect_free(inner)):
            raise VerifyException(f"'{op.name}' body may only hold side-effect-free arith/math ops, found '{inner.name}'")
    return block.last_op


@irdl_op_definition
class ComputeOp(IRDLOperation):
    """``%r = stream.compute(%a, %b : !stream.stream<f32>, f32) -> !stream.stream<f32> { ^bb0(%x: f32, %y: f32): ... stream.yield %z : f32 }``.

    Near-stream computation: a memory-free, control-free body of ``arith``/
    ``math`` ops applied at every iteration point to the elements of its
    input streams (and scalar symbols).  Up to 8 inputs.  The body is
    isolated from above: everything it uses, scalars of the region included,
    is an input (the near-stream engine receives exactly its operands; the
    8-input limit counts them all).
    """

    name = "stream.compute"
    inputs = var_operand_def()
    result = result_def(StreamType)
    body = region_def("single_block")
    traits = traits_def(Pure(), IsolatedFromAbove(), HasAncestor(RegionOp))

    def __init__(self, inputs: Sequence[SSAValue], result_type: Attribute, body: Region):
        super().__init__(operands=[inputs], result_types=[result_type], regions=[body])

    def verify_(self) -> None:
        if len(self.inputs) > MAX_COMPUTE_INPUTS:
            raise VerifyException(f"'{self.name}' takes at most {MAX_COMPUTE_INPUTS} inputs, got {len(self.inputs)}")
        region = _enclosing_region(self)
        if region is None:  # reported by the HasAncestor trait, verified before
            return
        for v in self.inputs:
            if not isinstance(v.type, StreamType) and not is_scalar_type(v.type):
                raise VerifyException(f"'{self.name}' input must be a stream or a scalar, got {v.type}")
        term = _verify_body(self, [elem_type(v.type) for v in self.inputs], "the element types")
        if not isinstance(term, YieldOp) or len(term.values) != 1:
            raise VerifyException(f"'{self.name}' body must end with 'stream.yield' of one value")
        if not isinstance(self.result.type, StreamType) or term.values[0].type != self.result.type.element_type:
            raise VerifyException(f"'{self.name}' yields {term.values[0].type} but returns {self.result.type}")

    def print(self, printer: Printer) -> None:
        print_typed_operands(printer, self.inputs)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)
        print_attributes(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> "ComputeOp":
        inputs = parse_typed_operands(parser, noun="inputs")
        parser.parse_punctuation("->")
        rtype = parser.parse_type()
        body = parser.parse_region()
        return parse_attributes(parser, cls(inputs, rtype, body))


def _stream_roots(v: SSAValue, region: RegionOp, seen: set[int] | None = None) -> set[Operation]:
    """The affine ``stream.load``s the stream ``v`` derives from: an indirect
    load's value comes from its index streams' roots (its address does), a
    compute's or a chase's from its operands'."""
    seen = set() if seen is None else seen
    owner = v.owner
    if not isinstance(v.type, StreamType) or not isinstance(owner, Operation) or id(owner) in seen:
        return set()
    seen.add(id(owner))
    if isinstance(owner, LoadOp):
        if not owner.indices:
            return {owner}
        return set().union(*(_stream_roots(i, region, seen) for i in owner.indices))
    if isinstance(owner, ComputeOp):
        return set().union(set(), *(_stream_roots(i, region, seen) for i in owner.inputs))
    if isinstance(owner, ChaseOp):
        return set().union(set(), *(_stream_roots(i, region, seen) for i in (owner.start, *owner.inputs)))
    if isinstance(owner, ReduceOp):
        return _stream_roots(owner.input, region, seen)
    return set()


@irdl_op_definition
class ChaseOp(IRDLOperation):
    """``%r = stream.chase(%start : T) fields(%Key, %Nx : memref<?xK>, memref<?xT>) with(%k : !stream.stream<K>) -> !stream.stream<T> { ^bb0(%p: T, %key: K, %nx: T, %k: K): ... stream.yield %more, %next : i1, T }``.

    A pointer-chasing stream (NSC HPCA'22 Table II, §II-A Fig. 2(d): ``P =
    P->next`` until a condition): at every iteration point a chain starts at
    ``start`` (a stream of integers or a region scalar); at each step, a
    negative pointer (null) ends the chain, else every field array is loaded
    at the pointer and the body, given the pointer, those elements and the
    ``with`` inputs, yields whether to go on and the next pointer.  Its value
    is the pointer the chain stopped at (the node found, or a negative one).

    The next address comes from the element the stream loaded, never from
    another stream: NSC §II-B lets a data-dependent (indirect or
    pointer-chasing) stream take operands only from its base stream, whose
    element travels with its requests.  So the start and the ``with`` inputs
    derive from at most one affine stream of the region (or are region
    scalars), and the body is isolated: the near-stream function receives its
    operands only (at most 8 with the pointer and the fields).  The fields are
    rank-1 arrays the region does not write (the chain reads the structure as
    it was at region entry).  A chain longer than its arrays (a cycle) or a
    pointer past their end is an error of the run, naming the op.
    """

    name = "stream.chase"
    start = operand_def()
    fields = var_operand_def(MemRefType)
    inputs = var_operand_def()
    result = result_def(StreamType)
    body = region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure(), IsolatedFromAbove(), HasAncestor(RegionOp))

    def __init__(self, start: SSAValue, fields: Sequence[SSAValue], inputs: Sequence[SSAValue], body: Region):
        super().__init__(operands=[start, fields, inputs], result_types=[StreamType(elem_type(start.type))], regions=[body])

    def verify_(self) -> None:
        region = _enclosing_region(self)
        if region is None:  # reported by the HasAncestor trait, verified before
            return
        ptr = elem_type(self.start.type)
        if not isinstance(ptr, IntegerType) or ptr.width.data < 8:
            raise VerifyException(f"'{self.name}' start must be a stream or scalar of i8 or wider integers (a pointer: a slot of its fields), got {self.start.type}")
        if self.result.type != StreamType(ptr):
            raise VerifyException(f"'{self.name}' result must be !stream.stream<{ptr}> (the pointer it stops at), got {self.result.type}")
        if not self.fields:
            raise VerifyException(f"'{self.name}' loads at least one field: a pointer-chasing stream's next address comes from the element it loads")
        if len(self.fields) + len(self.inputs) + 1 > MAX_COMPUTE_INPUTS:
            raise VerifyException(f"'{self.name}' takes at most {MAX_COMPUTE_INPUTS} operands with its pointer and fields, got {len(self.fields) + len(self.inputs) + 1}")
        for f in self.fields:
            if f not in region.array_args:
                raise VerifyException(f"'{self.name}' field must be an array argument of the enclosing 'stream.region'")
            if len(f.type.get_shape()) != 1:  # type: ignore[attr-defined]
                raise VerifyException(f"'{self.name}' field must be a rank-1 array (a node's field at a pointer), got {f.type}")
            for use in f.uses:
                if isinstance(use.operation, (StoreOp, AtomicOp)) and use.operation.array is f:
                    raise VerifyException(f"'{self.name}' chases through {_array_name(f, region.array_args.index(f))}, which the region writes (a chain reads the structure as it was at region entry)")
        for v in (self.start, *self.inputs):
            if isinstance(v.type, StreamType):
                owner = v.owner
                if not isinstance(owner, Operation) or _enclosing_region(owner) is not region:
                    raise VerifyException(f"'{self.name}' stream operand must be produced in the same region")
            elif not is_scalar_type(v.type):
                raise VerifyException(f"'{self.name}' operand must be a stream or a scalar, got {v.type}")
        roots = set().union(*(_stream_roots(v, region) for v in (self.start, *self.inputs)))
        if len(roots) > 1:
            raise VerifyException(
                f"'{self.name}' operands derive from {len(roots)} affine streams; a pointer-chasing stream takes operands from its base stream only (NSC §II-B)"
            )
        expected = [ptr, *(f.type.element_type for f in self.fields), *(elem_type(v.type) for v in self.inputs)]  # type: ignore[attr-defined]
        term = _verify_body(self, expected, "the pointer's, the fields' and the inputs' element types")
        if not isinstance(term, YieldOp) or [v.type for v in term.values] != [IntegerType(1), ptr]:
            raise VerifyException(f"'{self.name}' body must end with 'stream.yield' of whether to go on (i1) and the next pointer ({ptr})")

    def print(self, printer: Printer) -> None:
        print_typed_operands(printer, [self.start])
        printer.print_string(" fields")
        print_typed_operands(printer, self.fields)
        if self.inputs:
            printer.print_string(" with")
            print_typed_operands(printer, self.inputs)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)
        print_attributes(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> "ChaseOp":
        pos = parser.pos
        start = parse_typed_operands(parser, noun="start operands")
        if len(start) != 1:
            parser.raise_error(f"stream.chase takes one start pointer, got {len(start)}", pos, parser.pos)
        parser.parse_keyword("fields")
        fields = parse_typed_operands(parser, noun="fields")
        inputs = parse_typed_operands(parser, noun="inputs") if parser.parse_optional_keyword("with") is not None else []
        parser.parse_punctuation("->")
        rpos = parser.pos
        rtype = parser.parse_type()
        body = parser.parse_region()
        op = cls(start[0], fields, inputs, body)
        if op.result.type != rtype:
            parser.raise_error(f"stream.chase returns a stream of its start's element type {op.result.type}, got {rtype}", rpos, rpos)
        return parse_attributes(parser, op)


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """``%r = stream.reduce add %v over [2] (init %c)? : !stream.stream<f32> -> T``.

    Folds the stream over the listed ``reduction`` dims with an associative
    kind (add, mul, min, max; argmin/argmax over one dim give the iteration
    coordinate of the extremum, the first one on ties).  ``init`` defaults to the kind's identity.  The result
    is a stream over the remaining dims, or a scalar when none remain.

    On integers the kinds are ``arith``'s: add/mul wrap (addi, muli), min/max
    and argmin/argmax are signed (minsi, maxsi).  An i1 is signed too (true is
    -1), so over i1 add is xor, mul is and, min is or, max is and, and argmin
    finds the first true.
    """

    name = "stream.reduce"
    input = operand_def(StreamType)
    init = opt_operand_def()
    result = result_def()
    kind = prop_def(StringAttr)
    dims = prop_def(DenseArrayBase)
    traits = traits_def(HasAncestor(RegionOp))

    def __init__(self, kind: str, input: SSAValue, dims: Sequence[int], result_type: Attribute, init: SSAValue | None = None):
        super().__init__(
            operands=[input, [init] if init is not None else []],
            result_types=[result_type],
            properties={"kind": StringAttr(kind), "dims": int_array(dims)},
        )

    def dims_list(self) -> tuple[int, ...]:
        return tuple(self.dims.get_values())

    def verify_(self) -> None:
        kind = self.kind.data
        check_one_of(self, "kind", kind, REDUCE_KINDS)
        region = _enclosing_region(self)
        if region is None:  # reported by the HasAncestor trait, verified before
            return
        dims = self.dims_list()
        rank = region.iteration_domain.rank
        if not dims:
            raise VerifyException(f"'{self.name}' must reduce at least one dim")
        if len(set(dims)) != len(dims):
            raise VerifyException(f"'{self.name}' reduces dim(s) {list(dims)} more than once")
        live = live_dims(self.input, region)
        for d in dims:
            if d < 0 or d >= rank:
                raise VerifyException(f"'{self.name}' dim {d} is outside the rank-{rank} domain")
            if region.iterator_kinds[d] != "reduction":
                raise VerifyException(f"'{self.name}' reduces dim {d}, which is not a 'reduction' iterator")
            if d not in live:
                raise VerifyException(f"'{self.name}' reduces dim {d}, which its input was already reduced over")
        in_elem = elem_type(self.input.type)
        arg = kind in ("argmin", "argmax")
        if arg and len(dims) != 1:
            raise VerifyException(f"'{self.name}' {kind} reduces exactly one dim")
        out_elem = elem_type(self.result.type)
        if arg:
            if not isinstance(out_elem, (IntegerType, IndexType)):
                raise VerifyException(f"'{self.name}' {kind} result must be an integer index type, got {out_elem}")
            if self.init is not None:
                raise VerifyException(f"'{self.name}' {kind} takes no init value")
        elif out_elem != in_elem:
            raise VerifyException(f"'{self.name}' result element type {out_elem} must equal the input's {in_elem}")
        if self.init is not None and self.init.type != in_elem:
            raise VerifyException(f"'{self.name}' init has type {self.init.type}, expected {in_elem}")
        remaining = live - frozenset(dims)
        if remaining and not isinstance(self.result.type, StreamType):
            raise VerifyException(f"'{self.name}' leaves dims {sorted(remaining)} so its result must be a stream")
        if not remaining and isinstance(self.result.type, StreamType):
            raise VerifyException(f"'{self.name}' reduces every dim so its result must be a scalar")

    def print(self, printer: Printer) -> None:
        print_reduction(printer, self, self.kind.data, self.input, self.dims_list(), self.init)

    @classmethod
    def parse(cls, parser: Parser) -> "ReduceOp":
        kind, inp, dims, init, rtype = parse_reduction(parser, elem_type)
        return parse_attributes(parser, cls(kind, inp, dims, rtype, init))


@irdl_op_definition
class YieldOp(IRDLOperation):
    """``stream.yield %v... : T...`` -- ends a region (its scalar results) or a compute body."""

    name = "stream.yield"
    values = var_operand_def()
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(RegionOp, ComputeOp, ChaseOp), Pure()))
    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[list(values)])

    def verify_(self) -> None:
        parent = self.parent_op()
        if isinstance(parent, RegionOp):
            for v in self.values:
                if not is_scalar_type(v.type):
                    raise VerifyException(f"'{self.name}' of a region yields scalars, got {v.type}")


RegionOp.YIELD = YieldOp


# ---------------------------------------------------------------------------
# Loop-carried dependences (the one check every path relies on)
# ---------------------------------------------------------------------------
#
# A region equals its sequential loop nest, but every lowering (tensorize, the
# near-memory and core models, the reference's vectorized evaluation) reads the
# arrays as they were at region entry.  The two agree unless some iteration
# reads a cell that an earlier iteration -- or an earlier op of the same
# iteration -- writes (a flow dependence).  Reading cells that *later*
# iterations write (A[i] = A[i+1] + 1) is fine: the loop nest sees the old
# values too.  Such regions are rejected here, at verification, so that every
# entry point (infs-opt, tensorize, infs-run in every mode, the API) refuses
# them with the same message.
#
# The test is a small exact solver for the usual access forms and
# conservative beyond them: for each (store/atomic, load) pair on one array it
# looks for a write point s and a read point t with W(s) = R(t) and
# (s, store) before (t, load) in (iteration, program) order.  Rows of the maps
# with a single unknown are solved and range-checked against the domain; rows
# ``c*s_d - c*t_d = e`` give the distance u_d = s_d - t_d; any other row
# (transposes, d0 + d1, one array row fed by two dims) and indirect rows
# (data-dependent cells) are assumed to be satisfiable -- so they are rejected
# unless another row proves the accesses disjoint.  Symbols may take any value
# except that the domain is non-empty (hi - lo >= 1 in every dim): an empty
# domain has no iterations and nothing to depend on.


def _access_ok(op: _MemoryStreamOp, region: RegionOp) -> bool:
    """Whether ``op``'s access is well-formed enough to analyse (a malformed one
    is reported by its own verifier, which runs after the region's)."""
    try:
        # its properties and operands as IRDL defines them (a mutated input may
        # lack them), then its own verifier: the access (_verify_access) too
        op.verify()
    except VerifyException:
        return False
    return True


class _Facts:
    """Proves ``e >= 0`` from: the domain is non-empty, and the region's
    ``assumptions`` (affine expressions >= 0 for every symbol value the region is
    run with: a chunk's rows lie inside the region's, ``chunking.chunk_region``,
    whose runtime checks them on the values it binds); nothing else is assumed."""

    def __init__(self, domain: Domain, assumed: Sequence[Affine] = ()):
        self.facts = [domain.hi(d) - domain.lo(d) - 1 for d in range(domain.rank)] + list(assumed)

    def ge0(self, e: Affine) -> bool:
        # e minus a combination of at most two facts (with repetition) is a constant >= 0
        cands = [Affine(0)] + self.facts + [f + g for i, f in enumerate(self.facts) for g in self.facts[i:]]
        return any((r := e - c).is_constant and r.const >= 0 for c in cands)

    def never_zero(self, e: Affine) -> bool:
        return self.ge0(e - 1) or self.ge0(-e - 1)

    def signs(self, e: Affine) -> set[int]:
        """The signs ``e`` may take (an over-approximation)."""
        return {sign for sign, possible in ((-1, not self.ge0(e)), (0, not self.never_zero(e)), (1, not self.ge0(-e))) if possible}


def _exact_div(e: Affine, c: int) -> Affine | None:
    if e.const % c or any(k % c for _, k in e.terms):
        return None
    return Affine(e.const // c, tuple((n, k // c) for n, k in e.terms))


def _is_var(name: str) -> bool:
    return name.startswith("@")


def _write_dims(op: Operation, region: RegionOp) -> frozenset[int]:
    """The dims along which ``op`` happens at every point: all of them for a
    load, the live dims of the value for a store or atomic."""
    if isinstance(op, (StoreOp, AtomicOp)):
        return live_dims(op.value, region)
    return frozenset(range(region.iteration_domain.rank))


def _flow_dependence(write: _MemoryStreamOp, read: _MemoryStreamOp, wpos: int, rpos: int, region: RegionOp) -> str | None:
    """Whether ``write`` may touch a cell ``read`` touches later in sequential
    order (``read`` a load: it sees the written value; a write: it lands after):
    None, or when ("in an earlier iteration", "earlier in the same iteration")."""
    dom = region.iteration_domain
    rank = dom.rank
    facts = _Facts(dom, getattr(region, "assumptions", ()))
    earlier = "in an earlier iteration"
    # unknowns: write point @s<d>, read point @t<d>
    s_env = {dim_name(d): Affine.of(f"@s{d}") for d in range(rank)}
    t_env = {dim_name(d): Affine.of(f"@t{d}") for d in range(rank)}
    # a reduced value is written once per point of its remaining dims, after the
    # reduction loops: at the last coordinate of each reduced dim
    live, rlive = _write_dims(write, region), _write_dims(read, region)
    wmap, rmap = write.access_map(), read.access_map()
    if wmap.dims_used() - live or rmap.dims_used() - rlive:
        return earlier  # a reduced value stored at a reduced dim's coordinate: not analysed
    fixed: dict[str, Affine] = {f"@s{d}": dom.hi(d) - 1 for d in range(rank) if d not in live}
    fixed |= {f"@t{d}": dom.hi(d) - 1 for d in range(rank) if d not in rlive}
    skip = set(write.indirect_positions()) | set(read.indirect_positions())
    eqs = [wmap.results[k].substitute(s_env) - rmap.results[k].substitute(t_env) for k in range(wmap.rank) if k not in skip]

    def out_of_range(var: str, v: Affine) -> bool:
        d = int(var[2:])
        return facts.ge0(dom.lo(d) - v - 1) or facts.ge0(v - dom.hi(d))

    # solve the rows with one unknown, to a fixpoint
    changed = True
    while changed:
        changed = False
        pending = []
        for e in eqs:
            e = e.substitute(fixed)
            unknowns = [(n, c) for n, c in e.terms if _is_var(n)]
            if not unknowns:
                if facts.never_zero(e):
                    return None  # this row never matches: disjoint cells
                continue
            if len(unknowns) == 1:
                n, c = unknowns[0]
                v = _exact_div(-(e - Affine(0, ((n, c),))), c)
                if v is None:
                    if (e - Affine(0, ((n, c),))).is_constant:
                        return None  # no integer solution
                    pending.append(e)
                    continue
                if out_of_range(n, v):
                    return None
                fixed[n] = v
                changed = True
                continue
            pending.append(e)
        eqs = pending
    # what is left: distances c*(s_d - t_d) = e, or rows we do not solve
    for e in eqs:
        unknowns = [c for n, c in e.terms if _is_var(n)]
        rest = e - Affine(0, tuple((n, c) for n, c in e.terms if _is_var(n)))
        if rest.is_constant and rest.const % math.gcd(*unknowns):
            return None  # no integer solution (the GCD test: 2*s1 = 2*t0 + 1)
    dist: dict[int, list[Affine]] = {}
    for e in eqs:
        unknowns = dict((n, c) for n, c in e.terms if _is_var(n))
        ds = {int(n[2:]) for n in unknowns}
        (c, *_) = unknowns.values()
        if len(ds) == 1 and len(unknowns) == 2:
            (d,) = ds
            if unknowns.get(f"@s{d}") == c and unknowns.get(f"@t{d}") == -c:
                rest = e - Affine(0, ((f"@s{d}", c), (f"@t{d}", -c)))
                u = _exact_div(-rest, c)
                if u is None and rest.is_constant:
                    return None
                if u is not None:
                    dist.setdefault(d, []).append(u)
                    continue
        return earlier  # a row coupling several dims (or a stride pattern): assume it matches
    # the signs the distance u_d = s_d - t_d may take, per dim
    signs: list[set[int]] = []
    for d in range(rank):
        lo, last = dom.lo(d), dom.hi(d) - 1
        sd, td = fixed.get(f"@s{d}"), fixed.get(f"@t{d}")
        if d in dist:
            u, *others = dist[d]
            if any(facts.never_zero(u - o) for o in others):
                return None
            ext = dom.hi(d) - lo
            if facts.ge0(u - ext) or facts.ge0(-u - ext):
                return None  # farther apart than the domain is wide
            signs.append(facts.signs(u))
        elif sd is not None and td is not None:
            signs.append(facts.signs(sd - td))
        elif sd is not None:  # t_d free in [lo, last]
            signs.append({0} | ({-1} if not facts.ge0(sd - last) else set()) | ({1} if not facts.ge0(lo - sd) else set()))
        elif td is not None:  # s_d free in [lo, last]
            signs.append({0} | ({-1} if not facts.ge0(lo - td) else set()) | ({1} if not facts.ge0(td - last) else set()))
        else:  # both free: any distance the domain's width allows
            wide = not facts.ge0(1 - (dom.hi(d) - lo))
            signs.append({-1, 0, 1} if wide else {0})
    # lexicographic order: s before t iff the first non-zero u_d is negative
    for sg in signs:
        if -1 in sg:
            return earlier
        if 0 not in sg:
            return None
    return "earlier in the same iteration" if wpos < rpos else None


def may_write_before(first: _MemoryStreamOp, second: _MemoryStreamOp, region: RegionOp) -> bool:
    """Whether the write ``first`` may hit a cell that ``second`` (a load or a
    write of the same array) touches later in sequential (iteration, program)
    order -- conservative: True when unsure.  Both must be in ``region``'s body."""
    ops = list(region.body.block.ops)
    return _flow_dependence(first, second, ops.index(first), ops.index(second), region) is not None


def _where(op: Operation, index: int) -> str:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"at line {loc.line.data}"
    return f"(op #{index} of the body)"


def _array_name(arg: SSAValue, index: int) -> str:
    return f"%{arg.name_hint}" if arg.name_hint else f"array #{index}"


def loop_carried_dependence(region: RegionOp) -> str | None:
    """Why ``region`` is not a stream region (a load may read a value a store or
    atomic of the region wrote before it in sequential order), or None.

    The message is the one every entry point reports (after the op name)."""
    ops = list(region.body.block.ops)
    args = region.array_args
    if len(args) != len(region.arrays):
        return None  # malformed: the region's own checks report it
    # two block arguments bound to one array alias each other
    key = {a: region.arrays[i] for i, a in enumerate(args)}
    writes = [(i, op) for i, op in enumerate(ops) if isinstance(op, (StoreOp, AtomicOp)) and _access_ok(op, region)]
    if not writes:
        return None
    for rpos, read in enumerate(ops):
        if not isinstance(read, LoadOp) or not _access_ok(read, region):
            continue
        for wpos, write in writes:
            if key[write.array] is not key[read.array]:
                continue
            when = _flow_dependence(write, read, wpos, rpos, region)
            if when is not None:
                i = args.index(read.array)
                how = "written" if isinstance(write, StoreOp) else "updated"
                return (
                    f"has a loop-carried dependence: the 'stream.load' {_where(read, rpos)} may read a cell of "
                    f"{_array_name(read.array, i)} {how} by the '{write.name}' {_where(write, wpos)} {when}; "
                    f"split it into several regions"
                )
    return None


Stream = Dialect(
    "stream",
    [RegionOp, LoadOp, StoreOp, AtomicOp, ClaimOp, CountOp, ComputeOp, ReduceOp, ChaseOp, YieldOp],
    [StreamType],
)
