"""The ``tdfg`` dialect: the tensor dataflow graph (ASPLOS'23 §3.2-§3.4, Fig. 5).

A ``tdfg.graph`` replaces a tensorized ``stream.region``: same operands (arrays,
named scalars whose ``index`` members are symbols), a body of SSA tensor nodes.
Every tensor is a hyperrectangle on the graph's ``rank``-dimensional global
lattice; its domain is computed by ``infs.dialects.tdfg_domains`` from the
nodes (symbolically, and concretely once the symbols are bound).

Lattice semantics (the lattice evaluator implements exactly this):

* arrays sit at the origin; a rank-r array in a rank-R lattice occupies the
  last r lattice dims (the leading ones at coordinate 0);
* ``tensor`` takes the array's cells in its domain; ``cmp`` applies an
  element-wise op on the *intersection* of its inputs' domains; ``mv`` moves a
  tensor by ``dist`` along ``dim``; ``bc`` copies a tensor of extent ``w``
  along ``dim`` ``count`` times, copy ``j`` moved by ``dist + j*w``; ``const``
  is an infinite tensor; ``shrink`` restricts a domain;
* the lattice is the non-negative orthant, unbounded above: data a ``mv``,
  ``bc`` or ``stream_load`` puts at a negative coordinate is discarded, and
  nothing else is (a ``mv`` discards its result's cells at a negative
  coordinate in every dim, also those a shrunk constant had there; a ``bc`` of
  a tensor unbounded along its dim is that tensor: its copies cover the same
  cells).  §3.2's *global bounding hyperrectangle* is the physical
  lattice a layout picks (``tdfg_domains.lattice_extent``): the laid-out
  arrays, the ``stream_load`` domains and every cell that can reach a
  ``store``, ``stream_store`` or ``stream_reduce`` -- an iteration domain
  may be larger than every array (a fixed-index load broadcast over it, a
  store through a reversed map), and none of its cells is lost.  Cells
  outside it are dropped because nothing needs them, so the graph means the
  same on any lattice that holds them (a graph that needs more than the
  machine holds does not fit it).  Merging two moves is exact unless the
  first puts cells below 0 that the second brings back;
* ``reduce`` is the in-memory *partial* reduction of Fig. 4(b): it folds the
  cells of each group of consecutive cells along ``dim`` (one group per tile,
  the tile size being chosen at lowering) into the group's first cell; a
  ``stream_reduce`` over the same dim completes the fold near memory.  Only
  the pair has a hardware-independent meaning;
* ``stream_load``/``stream_store``/``stream_reduce`` are embedded streams
  (§3.3) for accesses that are not unrolled (strided, indirect, atomic);
* ``store`` writes a tensor's cells back to its array.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FloatAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
    i1,
    i64,
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
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import HasAncestor, HasParent, IsolatedFromAbove, IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException

# tdfg.cmp's ops are the element-wise ops (§3.2 compute nodes)
from infs.element_types import BITWISE_OPS, COMPARE_OPS, MACHINE_ELEMENTS, REDUCE_KINDS, STORE_KINDS, is_machine_element
from infs.element_types import ELEMENTWISE_ARITY as CMP_ARITY
from infs.dialects.keyword_syntax import Field, format_number, int_array, parse_fields, parse_number_or_special, print_fields
from infs.dialects.tdfg_records import MAX_LATTICE_RANK
from infs.dialects.lattice import (
    AccessMap,
    Affine,
    AffineAttr,
    Domain,
    DomainAttr,
    MapAttr,
    parse_domain_body,
    parse_int64,
    verify_access,
    verify_domain,
)
from infs.dialects.syntax import (
    SymbolRegion,
    check_one_of,
    parse_attributes,
    parse_index_list,
    print_attributes,
    print_index_list,
    print_reduction,
    parse_reduction,
    parse_signature,
    print_signature,
)

HINT_KEYS = ("shift", "broadcast", "reduce", "primary", "align")



@irdl_attr_definition
class TensorType(ParametrizedAttribute, TypeAttribute):
    """``!tdfg.tensor<f32, 2>``: element type and lattice rank."""

    name = "tdfg.tensor"
    element_type: Attribute
    rank: IntAttr

    def __init__(self, element_type: Attribute, rank: int | IntAttr):
        super().__init__(element_type, rank if isinstance(rank, IntAttr) else IntAttr(rank))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            t = parser.parse_type()
            parser.parse_punctuation(",")
            r = parse_int64(parser, allow_negative=False)
        return [t, IntAttr(r)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.element_type)
        printer.print_string(f", {self.rank.data}>")

    def verify(self) -> None:
        if not is_machine_element(self.element_type):
            raise VerifyException(f"tdfg tensors hold {MACHINE_ELEMENTS} elements, got {self.element_type}")
        if not 1 <= self.rank.data <= MAX_LATTICE_RANK:
            raise VerifyException(f"tdfg tensor rank must be between 1 and {MAX_LATTICE_RANK}, got {self.rank.data}")


def _check_rank(op: Operation, t: Attribute, graph: "GraphOp", what: str = "result") -> TensorType:
    if not isinstance(t, TensorType):
        raise VerifyException(f"'{op.name}' {what} must be a !tdfg.tensor, got {t}")
    if t.rank.data != graph.rank.value.data:
        raise VerifyException(f"'{op.name}' {what} has rank {t.rank.data} but the graph lattice has rank {graph.rank.value.data}")
    return t


def _check_dim(op: Operation, dim: int, rank: int) -> None:
    if dim < 0 or dim >= rank:
        raise VerifyException(f"'{op.name}' dim {dim} is outside the rank-{rank} lattice")


def _check_array(op: Operation, array: SSAValue, g: "GraphOp", elem: Attribute | None = None, how: str = "") -> MemRefType:
    """``array`` is an array argument of ``g``, of ``elem``s if given (else ``how``,
    formatted with both element types, says what the op does with the others)."""
    if array not in g.array_args:
        raise VerifyException(f"'{op.name}' array must be an array argument of the enclosing 'tdfg.graph'")
    mt = array.type
    assert isinstance(mt, MemRefType)
    if elem is not None and elem != mt.element_type:
        raise VerifyException(f"'{op.name}' " + how.format(elem, mt.element_type))
    return mt


def _check_domain(op: Operation, g: "GraphOp", t: TensorType, what: str) -> Domain:
    """The op's ``domain``: well-formed, of the tensor's rank, over the graph's symbols."""
    dom = op.domain.data  # type: ignore[attr-defined]
    verify_domain(dom, what)
    if dom.rank != t.rank.data:
        raise VerifyException(f"'{op.name}' domain {dom} has rank {dom.rank}, expected {t.rank.data}")
    _check_symbols(op, dom.names, g, f"domain {dom}")
    return dom


def _check_symbols(op: Operation, names: frozenset[str], graph: "GraphOp", what: str) -> None:
    unknown = names - graph.symbol_names()
    if unknown:
        raise VerifyException(f"'{op.name}' {what} uses undeclared symbol(s) {sorted(unknown)}")


# ---------------------------------------------------------------------------
# tdfg.graph
# ---------------------------------------------------------------------------


@irdl_op_definition
class GraphOp(SymbolRegion):
    """A tensorized region: ``tdfg.graph ins(..) syms(..) rank R (hints {..})? (-> T..)? { ... tdfg.yield }``.

    ``hints`` are the layout hints of §3.4: dims along which tensors are
    ``shift``-ed, ``broadcast`` or ``reduce``-d (lists of lattice dims), the
    ``primary`` array (operand index) whose tiles all arrays share, and the
    arrays that must stay bitline-``align``-ed.
    """

    name = "tdfg.graph"
    rank = prop_def(IntegerAttr)
    hints = opt_prop_def(DictionaryAttr)
    traits = traits_def(IsolatedFromAbove())
    DIMS: ClassVar[str] = "lattice"

    def __init__(
        self,
        arrays: Sequence[SSAValue],
        scalars: Sequence[SSAValue],
        sym_names: Sequence[str],
        rank: int,
        body: Region,
        result_types: Sequence[Attribute] = (),
        hints: DictionaryAttr | None = None,  # from the custom syntax (SymbolRegion.parse)
    ):
        # (xDSL's op init drops a None property: no hints)
        props = {"sym_names": ArrayAttr([StringAttr(n) for n in sym_names]), "rank": IntegerAttr(rank, i64), "hints": hints}
        super().__init__(operands=[arrays, scalars], result_types=[result_types], properties=props, regions=[body])

    @property
    def lattice_rank(self) -> int:
        return self.rank.value.data

    def verify_(self) -> None:
        self.verify_symbols()
        rank = self.lattice_rank
        if rank < 1:
            raise VerifyException(f"'{self.name}' lattice rank must be >= 1, got {rank}")
        if rank > MAX_LATTICE_RANK:
            raise VerifyException(f"'{self.name}' lattice rank must be at most {MAX_LATTICE_RANK}, got {rank}")
        for a in self.arrays:
            assert isinstance(a.type, MemRefType)
            if len(a.type.get_shape()) > rank:
                raise VerifyException(f"'{self.name}' array of type {a.type} has more dims than the rank-{rank} lattice")
        self.verify_block_args()
        self.verify_yield()
        if self.hints is not None:
            for key, val in self.hints.data.items():
                if key not in HINT_KEYS:
                    raise VerifyException(f"'{self.name}' unknown layout hint '{key}' (known: {', '.join(HINT_KEYS)})")
                if key in ("shift", "broadcast", "reduce"):
                    if not isinstance(val, DenseArrayBase):
                        raise VerifyException(f"'{self.name}' hint '{key}' must be an array<i64: dims>")
                    for d in val.get_values():
                        _check_dim(self, int(d), rank)
                elif key == "primary":
                    if not isinstance(val, IntegerAttr) or not 0 <= val.value.data < len(self.arrays):
                        raise VerifyException(f"'{self.name}' hint 'primary' must be an array operand index")
                elif key == "align":
                    if not isinstance(val, DenseArrayBase) or any(not 0 <= int(i) < len(self.arrays) for i in val.get_values()):
                        raise VerifyException(f"'{self.name}' hint 'align' must list array operand indices")

    def print_head(self, printer: Printer) -> None:
        printer.print_string(f" rank {self.lattice_rank}")
        if self.hints is not None:
            printer.print_string(" hints ")
            printer.print_attribute(self.hints)

    @classmethod
    def parse_head(cls, parser: Parser) -> dict:
        parser.parse_keyword("rank")
        rank = parse_int64(parser)
        if parser.parse_optional_keyword("hints") is None:
            return {"rank": rank}
        hints = parser.parse_attribute()
        if not isinstance(hints, DictionaryAttr):
            parser.raise_error("tdfg.graph hints must be a dictionary attribute")
        return {"rank": rank, "hints": hints}


class _GraphNode(IRDLOperation):
    """An op of a graph's body, checked against its graph (symbols, rank)."""

    traits = traits_def(HasAncestor(GraphOp))

    def verify_(self) -> None:
        # the trait, verified before this, has found the graph
        g = HasAncestor(GraphOp).get_ancestor(self)
        if isinstance(g, GraphOp):
            self.verify_in(g)

    def verify_in(self, g: GraphOp) -> None:
        """The op's checks against its graph."""


class _KeywordOp(_GraphNode):
    """``op.name <LEADING identifiers> %input <FIELDS> : result type``: a node
    that keeps its input's type and works along one lattice ``dim``."""

    input = operand_def(TensorType)
    dim = prop_def(IntegerAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    FIELDS: ClassVar[tuple[Field, ...]] = ()
    LEADING: ClassVar[tuple[tuple[str, str], ...]] = ()  # string properties: (property, what it is)

    def verify_in(self, g: GraphOp) -> None:
        t = _check_rank(self, self.input.type, g, "input")
        if t != self.result.type:
            raise VerifyException(f"'{self.name}' result type {self.result.type} must equal the input type {t}")
        _check_dim(self, self.dim.value.data, t.rank.data)
        self.verify_node(g)

    def verify_node(self, g: GraphOp) -> None:
        """The node's own checks."""

    def print(self, printer: Printer) -> None:
        for prop, _ in self.LEADING:
            printer.print_string(f" {self.properties[prop].data}")  # type: ignore[attr-defined]
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_ssa_value)
        print_fields(printer, self.FIELDS, dict(self.properties))
        printer.print_string(" : ")
        printer.print_attribute(self.results[0].type)
        print_attributes(printer, self)

    @classmethod
    def parse(cls, parser: Parser):
        lead = {prop: StringAttr(parser.parse_identifier(f" ({what})")) for prop, what in cls.LEADING}
        pos = parser.pos
        operand = parser.parse_unresolved_operand()
        props = parse_fields(parser, cls.FIELDS) | lead  # in this order in the generic form
        parser.parse_punctuation(":")
        t = parser.parse_type()
        (val,) = parser.resolve_operands([operand], [t], pos)
        return parse_attributes(parser, cls.create(operands=[val], result_types=[t], properties=props))


# ---------------------------------------------------------------------------
# Tensor nodes
# ---------------------------------------------------------------------------


@irdl_op_definition
class TensorOp(_GraphNode):
    """``%t = tdfg.tensor %A [p0:q0, ...] : memref<..> -> !tdfg.tensor<T, R>``.

    The array's elements in the domain, each in its own lattice cell.
    """

    name = "tdfg.tensor"
    array = operand_def(MemRefType)
    domain = prop_def(DomainAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, array: SSAValue, domain: Domain, rank: int):
        assert isinstance(array.type, MemRefType)
        super().__init__(operands=[array], result_types=[TensorType(array.type.element_type, rank)], properties={"domain": DomainAttr(domain)})

    def verify_in(self, g: GraphOp) -> None:
        t = _check_rank(self, self.result.type, g)
        mt = _check_array(self, self.array, g, t.element_type, "tensor element type {} differs from the array's {}")
        dom = _check_domain(self, g, t, "tensor domain")
        shape = mt.get_shape()
        lead = dom.rank - len(shape)
        for d in range(dom.rank):
            p, q = dom.bounds[d]
            size = 1 if d < lead else shape[d - lead]
            if p.is_constant and p.const < 0:
                raise VerifyException(f"'{self.name}' domain {dom} starts below 0 in dim {d}")
            if q.is_constant and size >= 0 and q.const > size:
                raise VerifyException(f"'{self.name}' domain {dom} exceeds the array extent {size} in dim {d}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.array)
        printer.print_string(f" {self.domain.data}")
        print_signature(printer, self, [self.array.type], self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> "TensorOp":
        arr = parser.parse_unresolved_operand()
        dom = parse_domain_body(parser)
        (at,), rt = parse_signature(parser, 1)
        array = parser.resolve_operand(arr, at)
        return parse_attributes(parser, cls.create(operands=[array], result_types=[rt], properties={"domain": DomainAttr(dom)}))


@irdl_op_definition
class CmpOp(_GraphNode):
    """``%r = tdfg.cmp add(%a, %b) : !tdfg.tensor<f32, 2>``.

    Element-wise op on the intersection of the inputs' domains.  Compare ops
    give ``i1`` tensors; ``select(%cond, %a, %b)`` takes an ``i1`` condition.
    """

    name = "tdfg.cmp"
    inputs = var_operand_def(TensorType)
    op = prop_def(StringAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, op: str, inputs: Sequence[SSAValue], result_type: Attribute):
        super().__init__(operands=[inputs], result_types=[result_type], properties={"op": StringAttr(op)})

    def verify_in(self, g: GraphOp) -> None:
        opname = self.op.data
        if opname not in CMP_ARITY:
            raise VerifyException(f"'{self.name}' unknown op '{opname}' (known: {', '.join(CMP_ARITY)})")
        if len(self.inputs) != CMP_ARITY[opname]:
            raise VerifyException(f"'{self.name}' {opname} takes {CMP_ARITY[opname]} inputs, got {len(self.inputs)}")
        rt = _check_rank(self, self.result.type, g)
        ins = [_check_rank(self, v.type, g, "input") for v in self.inputs]
        data = ins[1:] if opname == "select" else ins
        if opname == "select" and ins[0].element_type != i1:
            raise VerifyException(f"'{self.name}' select condition must be an i1 tensor")
        elems = {t.element_type for t in data}
        if len(elems) != 1:
            raise VerifyException(f"'{self.name}' {opname} inputs have different element types {sorted(map(str, elems))}")
        (elem,) = elems
        if opname in COMPARE_OPS:
            if rt.element_type != i1:
                raise VerifyException(f"'{self.name}' {opname} result must be an i1 tensor")
        elif rt.element_type != elem:
            raise VerifyException(f"'{self.name}' result element type {rt.element_type} differs from the inputs' {elem}")
        if opname in BITWISE_OPS and not isinstance(elem, IntegerType):
            raise VerifyException(f"'{self.name}' {opname} needs integer tensors")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.op.data}(")
        printer.print_list(self.inputs, printer.print_ssa_value)
        printer.print_string(")")
        print_signature(printer, self, [v.type for v in self.inputs], self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> "CmpOp":
        opname = parser.parse_identifier(" (element-wise op)")
        pos = parser.pos
        names = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        types, rt = parse_signature(parser)
        if len(names) != len(types):
            parser.raise_error(f"{len(names)} inputs but {len(types)} types", pos, parser.pos)
        return parse_attributes(parser, cls(opname, parser.resolve_operands(names, types, pos), rt))


@irdl_op_definition
class MvOp(_KeywordOp):
    """``%r = tdfg.mv %a dim 1 dist -1 : !tdfg.tensor<f32, 2>`` -- move by ``dist`` along ``dim``."""

    name = "tdfg.mv"
    dist = prop_def(AffineAttr)
    FIELDS: ClassVar[tuple[Field, ...]] = (Field("dim", "dim", "int"), Field("dist", "dist", "expr"))

    def __init__(self, input: SSAValue, dim: int, dist: Affine | int):
        super().__init__(operands=[input], result_types=[input.type], properties={"dim": IntegerAttr(dim, i64), "dist": AffineAttr(Affine.of(dist))})

    def verify_node(self, g: GraphOp) -> None:
        _check_symbols(self, self.dist.data.names, g, "distance")


@irdl_op_definition
class BcOp(_KeywordOp):
    """``%r = tdfg.bc %a dim 0 dist 1 count N - k - 1 : !tdfg.tensor<f32, 2>``.

    Broadcast: ``count`` copies along ``dim``, copy ``j`` moved by
    ``dist + j * w`` where ``w`` is the input's extent along ``dim``.
    """

    name = "tdfg.bc"
    dist = prop_def(AffineAttr)
    count = prop_def(AffineAttr)
    FIELDS: ClassVar[tuple[Field, ...]] = (Field("dim", "dim", "int"), Field("dist", "dist", "expr"), Field("count", "count", "expr"))

    def __init__(self, input: SSAValue, dim: int, dist: Affine | int, count: Affine | int):
        super().__init__(
            operands=[input],
            result_types=[input.type],
            properties={"dim": IntegerAttr(dim, i64), "dist": AffineAttr(Affine.of(dist)), "count": AffineAttr(Affine.of(count))},
        )

    def verify_node(self, g: GraphOp) -> None:
        _check_symbols(self, self.dist.data.names | self.count.data.names, g, "distance/count")
        c = self.count.data
        if c.is_constant and c.const < 0:
            raise VerifyException(f"'{self.name}' count must be >= 0, got {c}")


@irdl_op_definition
class ConstOp(_GraphNode):
    """``%c = tdfg.const 2.0 : !tdfg.tensor<f32, 2>`` or ``tdfg.const %alpha : ...``.

    An infinite tensor holding a compile-time constant or a scalar's value.
    """

    name = "tdfg.const"
    scalar = opt_operand_def()
    value = opt_prop_def(Attribute)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, result_type: TensorType, value: float | int | None = None, scalar: SSAValue | None = None):
        props: dict[str, Attribute] = {}
        if value is not None:
            et = result_type.element_type
            props["value"] = FloatAttr(float(value), et) if isinstance(et, AnyFloat) else IntegerAttr(int(value), et)  # type: ignore[arg-type]
        super().__init__(operands=[[scalar] if scalar is not None else []], result_types=[result_type], properties=props)

    def verify_in(self, g: GraphOp) -> None:
        t = _check_rank(self, self.result.type, g)
        if (self.scalar is None) == (self.value is None):
            raise VerifyException(f"'{self.name}' needs exactly one of a literal value or a scalar operand")
        if self.scalar is not None:
            if self.scalar not in g.scalar_args:
                raise VerifyException(f"'{self.name}' scalar must be a scalar argument of the enclosing 'tdfg.graph'")
            st = self.scalar.type
            if st != t.element_type and not (isinstance(st, IndexType) and isinstance(t.element_type, IntegerType)):
                raise VerifyException(f"'{self.name}' scalar of type {st} cannot fill a tensor of {t.element_type}")
        else:
            v = self.value
            if not isinstance(v, (FloatAttr, IntegerAttr)) or v.type != t.element_type:
                raise VerifyException(f"'{self.name}' value must be a literal of the tensor's element type {t.element_type}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        if self.scalar is not None:
            printer.print_ssa_value(self.scalar)
            print_signature(printer, self, [self.scalar.type], self.result.type)
            return
        v = self.value
        assert isinstance(v, (FloatAttr, IntegerAttr))
        printer.print_string(format_number(float(v.value.data)) if isinstance(v, FloatAttr) else str(v.value.data))
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)
        print_attributes(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> "ConstOp":
        start = parser.pos
        if parser._current_token.text.startswith("%"):  # noqa: SLF001
            name = parser.parse_unresolved_operand()
            (st,), rt = parse_signature(parser, 1)
            return parse_attributes(parser, cls.create(operands=[parser.resolve_operand(name, st)], result_types=[rt]))
        num = parse_number_or_special(parser)
        parser.parse_punctuation(":")
        rt = parser.parse_type()
        if not isinstance(rt, TensorType):
            parser.raise_error(f"tdfg.const result must be a !tdfg.tensor, got {rt}", start, parser.pos)
        et = rt.element_type
        if not (isinstance(et, AnyFloat) or (isinstance(et, IntegerType) and isinstance(num, int))):
            parser.raise_error(f"literal {num} does not fit a tensor of {et}", start, parser.pos)
        return parse_attributes(parser, cls(rt, value=num))


@irdl_op_definition
class ShrinkOp(_KeywordOp):
    """``%r = tdfg.shrink %a dim 0 [1:N - 1] : ...`` -- restrict the domain (bookkeeping only)."""

    name = "tdfg.shrink"
    range = prop_def(DomainAttr)
    FIELDS: ClassVar[tuple[Field, ...]] = (Field("dim", "dim", "int"), Field("to", "range", "domain"))

    def __init__(self, input: SSAValue, dim: int, lo: Affine | int, hi: Affine | int):
        super().__init__(
            operands=[input], result_types=[input.type], properties={"dim": IntegerAttr(dim, i64), "range": DomainAttr(Domain.of([(lo, hi)]))}
        )

    def verify_node(self, g: GraphOp) -> None:
        r = self.range.data
        if r.rank != 1:
            raise VerifyException(f"'{self.name}' range must be one interval [p:q], got {r}")
        verify_domain(r, "shrink range")
        _check_symbols(self, r.names, g, "range")


@irdl_op_definition
class ReduceOp(_KeywordOp):
    """``%p = tdfg.reduce add %a dim 1 : ...`` -- in-memory partial reduction within each tile."""

    name = "tdfg.reduce"
    kind = prop_def(StringAttr)
    FIELDS: ClassVar[tuple[Field, ...]] = (Field("dim", "dim", "int"),)
    LEADING: ClassVar[tuple[tuple[str, str], ...]] = (("kind", "reduction kind"),)

    def __init__(self, kind: str, input: SSAValue, dim: int):
        super().__init__(operands=[input], result_types=[input.type], properties={"kind": StringAttr(kind), "dim": IntegerAttr(dim, i64)})

    def verify_node(self, g: GraphOp) -> None:
        check_one_of(self, "kind", self.kind.data, REDUCE_KINDS)


# ---------------------------------------------------------------------------
# Embedded streams (§3.3)
# ---------------------------------------------------------------------------


class _StreamAccessOp(_GraphNode):
    """An embedded stream's access ``%A[map]``, indirect through index tensors
    (its operands and properties follow a subclass's own)."""

    array = operand_def(MemRefType)
    indices = var_operand_def(TensorType)
    map = prop_def(MapAttr)
    indirect_dims = prop_def(DenseArrayBase)

    def verify_stream_access(self, g: GraphOp) -> None:
        rank = len(_check_array(self, self.array, g).get_shape())
        pos = tuple(self.indirect_dims.get_values())
        verify_access(self.name, self.map.data, rank, g.lattice_rank, "lattice", g.symbol_names(), pos, len(self.indices), "tensors")
        for v in self.indices:
            t = _check_rank(self, v.type, g, "index")
            if not isinstance(t.element_type, IntegerType) or t.element_type == i1:
                raise VerifyException(f"'{self.name}' index tensors must hold integers, got {t.element_type}")


@irdl_op_definition
class StreamLoadOp(_StreamAccessOp):
    """``%t = tdfg.stream_load %A[%idx, d1] over [0:P, 0:D] : memref<..> -> !tdfg.tensor<T, R>``.

    An embedded load stream: for every cell ``x`` of the domain, the array
    element at the map's indices (lattice coordinates ``d<i>``; an SSA index
    tensor makes the access indirect).  Lays irregular data out as a tensor.
    """

    name = "tdfg.stream_load"
    domain = prop_def(DomainAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    def __init__(self, array: SSAValue, indices: Sequence[SSAValue], amap: AccessMap, indirect_dims: Sequence[int], domain: Domain, result_type: Attribute):
        props = {"map": MapAttr(amap), "indirect_dims": int_array(indirect_dims), "domain": DomainAttr(domain)}
        super().__init__(operands=[array, list(indices)], result_types=[result_type], properties=props)

    def verify_in(self, g: GraphOp) -> None:
        t = _check_rank(self, self.result.type, g)
        self.verify_stream_access(g)
        _check_array(self, self.array, g, t.element_type, "result element type {} differs from the array's {}")
        _check_domain(self, g, t, "stream domain")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.array)
        print_index_list(printer, self.map.data, tuple(self.indirect_dims.get_values()), self.indices)
        printer.print_string(f" over {self.domain.data}")
        print_signature(printer, self, [*(v.type for v in self.indices), self.array.type], self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> "StreamLoadOp":
        arr = parser.parse_unresolved_operand()
        amap, pos, idx = parse_index_list(parser)
        parser.parse_keyword("over")
        dom = parse_domain_body(parser)
        types, rt = parse_signature(parser)
        return parse_attributes(parser, cls(parser.resolve_operand(arr, types[-1]), idx, amap, pos, dom, rt))


@irdl_op_definition
class StreamReduceOp(_GraphNode):
    """``%s = tdfg.stream_reduce add %p over [1] : !tdfg.tensor<f32, 2> -> T``.

    Final near-memory reduction (Fig. 4b) of the partial results of a
    ``tdfg.reduce`` (or of any tensor) along the listed dims: a scalar when
    every dim is reduced, else a tensor whose reduced dims collapse to their
    first coordinate.
    """

    name = "tdfg.stream_reduce"
    input = operand_def(TensorType)
    kind = prop_def(StringAttr)
    dims = prop_def(DenseArrayBase)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, kind: str, input: SSAValue, dims: Sequence[int], result_type: Attribute):
        super().__init__(operands=[input], result_types=[result_type], properties={"kind": StringAttr(kind), "dims": int_array(dims)})

    def dims_list(self) -> tuple[int, ...]:
        return tuple(int(d) for d in self.dims.get_values())

    def verify_in(self, g: GraphOp) -> None:
        t = _check_rank(self, self.input.type, g, "input")
        check_one_of(self, "kind", self.kind.data, REDUCE_KINDS)
        dims = self.dims_list()
        if not dims or len(set(dims)) != len(dims):
            raise VerifyException(f"'{self.name}' needs distinct dims to reduce, got {list(dims)}")
        for d in dims:
            _check_dim(self, d, t.rank.data)
        if len(dims) == t.rank.data:
            if self.result.type != t.element_type:
                raise VerifyException(f"'{self.name}' over every dim returns a scalar {t.element_type}, got {self.result.type}")
        elif self.result.type != t:
            raise VerifyException(f"'{self.name}' over some dims returns {t}, got {self.result.type}")

    def print(self, printer: Printer) -> None:
        print_reduction(printer, self, self.kind.data, self.input, self.dims_list())

    @classmethod
    def parse(cls, parser: Parser) -> "StreamReduceOp":
        kind, inp, dims, _init, rt = parse_reduction(parser)
        return parse_attributes(parser, cls(kind, inp, dims, rt))


@irdl_op_definition
class StreamStoreOp(_StreamAccessOp):
    """``tdfg.stream_store add %t -> %C[%idx, d1] : ...`` -- tensor to array through a stream.

    For every cell ``x`` of ``%t``'s domain, writes (``store``) or atomically
    combines (``add``/``min``/``max``) its value into the element the map
    names; indirect through index tensors.  Ends the tensor's life.
    """

    name = "tdfg.stream_store"
    value = operand_def(TensorType)
    kind = prop_def(StringAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, kind: str, value: SSAValue, array: SSAValue, indices: Sequence[SSAValue], amap: AccessMap, indirect_dims: Sequence[int]):
        props = {"kind": StringAttr(kind), "map": MapAttr(amap), "indirect_dims": int_array(indirect_dims)}
        super().__init__(operands=[value, array, list(indices)], properties=props)  # (and operandSegmentSizes)

    def verify_in(self, g: GraphOp) -> None:
        t = _check_rank(self, self.value.type, g, "value")
        check_one_of(self, "kind", self.kind.data, STORE_KINDS)
        self.verify_stream_access(g)
        _check_array(self, self.array, g, t.element_type, "stores {} into an array of {}")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.kind.data} ")
        printer.print_ssa_value(self.value)
        printer.print_string(" -> ")
        printer.print_ssa_value(self.array)
        print_index_list(printer, self.map.data, tuple(self.indirect_dims.get_values()), self.indices)
        print_signature(printer, self, [self.value.type, *[v.type for v in self.indices]], self.array.type)

    @classmethod
    def parse(cls, parser: Parser) -> "StreamStoreOp":
        kind = parser.parse_identifier(" (store kind)")
        pos = parser.pos
        val = parser.parse_unresolved_operand()
        parser.parse_punctuation("->")
        arr = parser.parse_unresolved_operand()
        amap, ipos, idx = parse_index_list(parser)
        types, at = parse_signature(parser)
        (value,) = parser.resolve_operands([val], types[:1], pos)
        return parse_attributes(parser, cls(kind, value, parser.resolve_operand(arr, at), idx, amap, ipos))


@irdl_op_definition
class StoreOp(_GraphNode):
    """``tdfg.store %t -> %B : !tdfg.tensor<T, R> -> memref<..>`` -- write the tensor's cells to its array."""

    name = "tdfg.store"
    value = operand_def(TensorType)
    array = operand_def(MemRefType)
    assembly_format = "$value `->` $array attr-dict `:` type($value) `->` type($array)"

    def __init__(self, value: SSAValue, array: SSAValue):
        super().__init__(operands=[value, array])

    def verify_in(self, g: GraphOp) -> None:
        t = _check_rank(self, self.value.type, g, "value")
        _check_array(self, self.array, g, t.element_type, "stores {} into an array of {}")


@irdl_op_definition
class YieldOp(IRDLOperation):
    """``tdfg.yield %s... : T...`` -- ends a graph, returning its scalar results."""

    name = "tdfg.yield"
    values = var_operand_def()
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(GraphOp), Pure()))
    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[list(values)])


GraphOp.YIELD = YieldOp

TDFG = Dialect(
    "tdfg",
    [GraphOp, TensorOp, CmpOp, MvOp, BcOp, ConstOp, ShrinkOp, ReduceOp, StreamLoadOp, StreamReduceOp, StreamStoreOp, StoreOp, YieldOp],
    [TensorType],
)
