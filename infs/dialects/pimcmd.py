"""The ``pimcmd`` dialect: bit-serial in-SRAM commands (ASPLOS'23 §4.2, §5).

A ``pimcmd.program`` is one tDFG specialized for concrete sizes and lowered
for one hardware configuration.  Everything in it is concrete but the values
of its scalar operands (runtime parameters such as stencil weights, used as
compute constants through ``const_arg``).

Machine model (the simulator in ``infs.sim`` executes exactly this):

* the graph's global lattice (bounding box ``lattice [S0, ...]``) is cut into
  tiles of ``tiles [T0, ...]`` cells, ``prod(T) == bitlines`` of one SRAM array;
  tiles are numbered row-major over the tile grid (last dim fastest), cells
  inside a tile likewise (bitline ``b = sum(c_i * prod(T_{>i}))``);
* tile ``t`` lives in SRAM array ``t`` (arrays numbered bank-major:
  bank ``t // arrays_per_bank``), so every array of the graph shares bitlines
  with the others on the same lattice cells and differs only in wordlines;
* a *register* is ``bits`` consecutive wordlines starting at a wordline, on
  every bitline; an element of type f64/i64/f32/i32/i16/i8/i1 takes
  64/64/32/32/16/8/1 (``element_types.ELEMENT_BITS``);
* ``bitlines`` and ``tiles`` patterns (``start:stride:count``) select the cells a
  command applies to: the cross product of the tile set and the in-tile
  bitline set.  ``banks`` (set by map-banks) lists the L3 banks that hold any
  selected tile; other banks skip the command.

Commands:

* ``array`` -- a layout (LOT, Table 1) entry: which program argument, its
  concrete shape, start wordline, whether it is held transposed;
* ``transpose_in`` / ``release`` -- move an array from memory into its
  registers (transposed layout) / write it back;
* ``compute`` -- ``dst = op(srcs...)`` (an optional constant as last operand);
* ``shift`` -- Alg. 2: cell ``(t, c)`` of ``src`` goes to ``dst`` at tile
  ``t + inter * tstride[dim]`` and in-tile coordinate ``c[dim] + intra``;
  ``mask [lo:hi]`` is the in-tile range along ``dim`` it selected; intra-tile
  when ``inter == 0``;
* ``bcast`` -- every selected cell is copied to all tiles ``t + a * tstride[dim]``
  (``a`` in ``inter [lo:hi]``) at in-tile coordinate ``c[dim] + b`` (``b`` in
  ``intra [lo:hi]``): an H-tree/NoC multicast;
* ``sync`` -- global barrier: every inter-tile move before it has arrived;
* ``readout`` -- read a register's cells over a lattice box out to the
  near-memory stream engines, as buffer ``id`` (shaped like the box);
* ``writein`` -- the reverse: buffer ``id`` into a register's cells.

Progressive lowering (the ``lower-pim`` passes).  While a program carries the
``virtual`` flag (until ``allocate-wordlines`` has run) register numbers are
*virtual registers*, one per tDFG value, and commands may be in *domain form*: a
``domain [..]`` lattice box instead of ``bitlines``/``tiles`` patterns, plus
three tensor-level commands that later passes expand: ``mv`` (move the box by
``dist`` along ``dim``), ``bc`` (copy the box ``count`` times along ``dim``,
copy ``j`` moved by ``dist + j*w``) and ``reduce`` (fold each tile's part of
the box along ``dim`` into the tile's first cell along ``dim``).  The
simulator runs only fully lowered programs.

Near-memory stream operations (§3.3, §5.3) work on the buffers, executed by
the L3 stream engines: ``near_reduce`` (final reduction of partial results,
keeping every ``step``-th cell), ``near_load`` (a strided/indirect gather from
an array into a buffer), ``near_store`` (a buffer into an array, plain or
atomic), and ``result`` (buffer -> the program's scalar result).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, FileLineColLoc, IntegerAttr, MemRefType, StringAttr, UnitAttr, i32
from xdsl.ir import Attribute, BlockArgument, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    OptPropertyDef,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, NoTerminator
from xdsl.utils.exceptions import VerifyException

from infs.element_types import COMPARE_OPS, ELEMENT_BITS, REDUCE_KINDS, STORE_KINDS
from infs.dialects import pimcmd_schema as K
from infs.dialects.keyword_syntax import Field, parse_fields, print_fields
from infs.hardware import MAX_TOTAL_BITLINES, ConfigError, HardwareConfig, is_inline_spec, load_config
from infs.dialects.lattice import DomainAttr, MapAttr, Pattern, PatternAttr, verify_access, verify_domain
from infs.dialects.pimcmd_schema import COMPUTE_ARITY, tile_grid
from infs.dialects.syntax import check_one_of, parse_attributes, parse_operands_with_types, print_attributes, print_operands_with_types

def _int(attr: Attribute) -> int:
    # a malformed property (`wordline = 0 : f32`) can reach a parent's verifier
    # before the op's own: an error, not an assertion (found by make fuzz)
    if not isinstance(attr, IntegerAttr):
        raise VerifyException(f"expected an integer attribute, got {attr}")
    return attr.value.data


def _vals(attr: Attribute) -> tuple[int, ...]:
    if not isinstance(attr, DenseArrayBase):
        raise VerifyException(f"expected an integer array attribute, got {attr}")
    return tuple(int(v) for v in attr.get_values())


def _range(op: Operation, prop: str) -> tuple[int, int]:
    """A ``range`` property, ``[lo:hi]``: two ints (the generic form can hold any number)."""
    vals = _vals(op.properties[prop])
    if len(vals) != 2:
        raise VerifyException(f"'{op.name}' {prop} must be a range [lo:hi], got {list(vals)}")
    return vals[0], vals[1]


@lru_cache(maxsize=64)
def _inline_config(text: str) -> "HardwareConfig | str":
    """The machine of an inline config, or why it is not one (one line)."""
    try:
        return load_config(text)
    except ConfigError as e:
        return str(e)


@irdl_op_definition
class ProgramOp(IRDLOperation):
    """``pimcmd.program ins(..) config NAME lattice [..] tiles [..] banks B arrays_per_bank W wordlines L { ^bb0(..): cmds }``."""

    name = "pimcmd.program"
    arrays = var_operand_def(MemRefType)
    scalars = var_operand_def()
    config = prop_def(StringAttr)
    lattice = prop_def(DenseArrayBase)
    tiles = prop_def(DenseArrayBase)
    banks = prop_def(IntegerAttr)
    arrays_per_bank = prop_def(IntegerAttr)
    wordlines = prop_def(IntegerAttr)
    virtual = opt_prop_def(UnitAttr)
    res = var_result_def()
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), NoTerminator())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    # -- layout geometry (shared by verifiers, map-banks and the simulator) --
    @property
    def lattice_shape(self) -> tuple[int, ...]:
        return _vals(self.lattice)

    @property
    def tile_shape(self) -> tuple[int, ...]:
        return _vals(self.tiles)

    @property
    def num_tiles(self) -> int:
        return math.prod(tile_grid(self.lattice_shape, self.tile_shape))

    @property
    def bitlines(self) -> int:
        return math.prod(self.tile_shape)

    @property
    def is_allocated(self) -> bool:
        """False while register numbers are virtual (before allocate-wordlines)."""
        return self.virtual is None

    @property
    def num_wordlines(self) -> int:
        return _int(self.wordlines)

    @property
    def num_banks(self) -> int:
        return _int(self.banks)

    @property
    def per_bank(self) -> int:
        return _int(self.arrays_per_bank)

    def verify_(self) -> None:
        lat, tiles = self.lattice_shape, self.tile_shape
        if not lat or len(lat) != len(tiles):
            raise VerifyException(f"'{self.name}' lattice {list(lat)} and tiles {list(tiles)} must have the same, non-zero rank")
        if any(s <= 0 for s in lat) or any(t <= 0 for t in tiles):
            raise VerifyException(f"'{self.name}' lattice and tile sizes must be positive")
        for name, v in (("banks", self.num_banks), ("arrays_per_bank", self.per_bank), ("wordlines", self.num_wordlines)):
            if v <= 0:
                raise VerifyException(f"'{self.name}' {name} must be positive, got {v}")
        self._verify_config()
        capacity = self.num_banks * self.per_bank
        if self.num_tiles > capacity:
            raise VerifyException(f"'{self.name}' needs {self.num_tiles} tiles but the machine has {capacity} SRAM arrays")
        if [a.type for a in self.body.block.args] != [v.type for v in self.arrays] + [v.type for v in self.scalars]:
            raise VerifyException(f"'{self.name}' block arguments must match its operands (arrays, then scalars)")
        for v in self.scalars:
            if isinstance(v.type, MemRefType):
                raise VerifyException(f"'{self.name}' scalar operands must be scalars, got {v.type}")
        results = [op for op in self.body.block.ops if isinstance(op, ResultOp)]
        indices = sorted(_int(r.index) for r in results)
        if indices != list(range(len(self.res))):
            raise VerifyException(f"'{self.name}' has {len(self.res)} results but 'pimcmd.result' ops for indices {indices}")
        if not self.is_allocated:
            return  # virtual registers: nothing to check on wordlines yet
        for op in self.body.block.ops:
            if isinstance(op, (MoveOp, BroadcastOp, ReduceOp)) or op.properties.get("domain") is not None and not isinstance(op, (ReadoutOp, WriteInOp, NearLoadOp, NearStoreOp)):
                raise VerifyException(f"'{self.name}' has wordlines allocated but still holds the domain-form '{op.name}'")
        # Registers of the LOT entries must not overlap.
        spans = sorted(((op.wordline_start, op.wordline_start + op.bits) for op in self.body.block.ops if isinstance(op, ArrayOp)), key=lambda s: s[0])
        for (_lo0, hi0), (lo1, _hi1) in zip(spans, spans[1:]):
            if lo1 < hi0:
                raise VerifyException(f"'{self.name}' layout entries overlap on wordlines [{lo1}, {hi0})")
        self._verify_array_registers()

    def _verify_array_registers(self) -> None:
        """A command that names an array's register (allocated: registers are
        wordlines) uses all of it, as the array's element type: the simulator
        reads the wordlines as the command's type, so an i32 add of an f32
        array, a write of 16 of its 32 wordlines, or a register that starts
        inside it gave wrong values without an error.  Array registers are
        fixed for the whole program (allocate-wordlines), so the rule holds at
        every command.  Here, in one pass over the program, not per command
        (each would scan the layout); the message names the command and its line."""
        arrays = [op for op in self.body.block.ops if isinstance(op, ArrayOp) and isinstance(op.array.type, MemRefType) and op.bits]
        entries = sorted(((op.wordline_start, op.bits, op.element, op) for op in arrays), key=lambda e: e[0])
        if not entries:
            return
        starts = [e[0] for e in entries]
        for op in self.body.block.ops:
            for reg, t, written in _typed_registers(op):
                bits = ELEMENT_BITS[t]
                if reg < 0 or reg + bits > self.num_wordlines:
                    continue  # the command's own verifier says so, after this one
                i = bisect.bisect_right(starts, reg) - 1  # the entry starting at or below reg
                hit = entries[i] if i >= 0 and reg < entries[i][0] + entries[i][1] else None
                if hit is None and i + 1 < len(entries) and entries[i + 1][0] < reg + bits:
                    hit = entries[i + 1]  # it starts below an array's register and runs into it
                if hit is None:
                    continue
                lo, n, elem, arr = hit
                verb = "writes" if written else "reads"
                name = f"%{arr.array.name_hint}" if isinstance(arr.array, BlockArgument) and arr.array.name_hint else "an array"
                where = f"'{op.name}' at {_line_of(op)}"
                if reg == lo and t != elem:
                    raise VerifyException(f"'{self.name}' {where} {verb} {name}'s register ({elem}) as {t}")
                if reg != lo or bits != n:
                    raise VerifyException(f"'{self.name}' {where} {verb} wordlines [{reg}, {reg + bits}), which cut {name}'s register [{lo}, {lo + n}) ({elem})")

    def _verify_config(self) -> None:
        """An inline machine (``NAME{field=value,...}``, what lower-pim records
        for a config that is not a built-in) must load and be the machine the
        program's geometry says.  Other names are labels: hand-written
        programs use them freely, and the simulator checks the geometry
        against its own machine when it runs one."""
        text = self.config.data
        if not is_inline_spec(text):
            return
        cfg = _inline_config(text)
        if isinstance(cfg, str):
            raise VerifyException(f"'{self.name}' config: {cfg}")
        got = {"banks": self.num_banks, "arrays_per_bank": self.per_bank, "wordlines": self.num_wordlines, "bitlines": self.bitlines}
        want = {"banks": cfg.banks, "arrays_per_bank": cfg.arrays_per_bank, "wordlines": cfg.wordlines, "bitlines": cfg.bitlines}
        for key, v in got.items():
            if v != want[key]:
                what = f"tiles {list(self.tile_shape)} cover {v} bitlines" if key == "bitlines" else f"{key} is {v}"
                raise VerifyException(f"'{self.name}' {what} but its config '{cfg.name}' has {want[key]} {key}")

    def print(self, printer: Printer) -> None:
        print_operands_with_types(printer, "ins", self.arrays)
        print_operands_with_types(printer, "scalars", self.scalars)
        print_fields(printer, self.FIELDS, {k: v for k, v in self.properties.items() if k != "operandSegmentSizes"})
        if self.res:
            printer.print_string(" -> ")
            printer.print_list([r.type for r in self.res], printer.print_attribute)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)
        print_attributes(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> "ProgramOp":
        arrays = parse_operands_with_types(parser, "ins")
        scalars = parse_operands_with_types(parser, "scalars")
        props = parse_fields(parser, cls.FIELDS)
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        body = parser.parse_region()
        props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [len(arrays), len(scalars)])
        return parse_attributes(parser, cls.create(operands=[*arrays, *scalars], result_types=result_types, properties=props, regions=[body]))


def _line_of(op: Operation) -> str:
    """``line N`` of the op's location, or its position in its block (an op built in memory)."""
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"line {loc.line.data}"
    block = op.parent
    return f"command {block.get_operation_index(op)} of the program" if block is not None else "an unknown line"


def _typed_registers(op: Operation) -> list[tuple[int, str, bool]]:
    """(register, element type, written) of each register a lowered command
    names; nothing for a command whose own verifier will refuse its type or op
    (the program is verified first, outermost first: its error comes then)."""
    props = op.properties
    t = props.get("type")
    if not isinstance(op, Command) or not isinstance(t, StringAttr) or t.data not in ELEMENT_BITS:
        return []
    t = t.data
    if isinstance(op, ComputeOp):
        name = props.get("op")
        if not isinstance(name, StringAttr) or name.data not in COMPUTE_ARITY:
            return []
        if not isinstance(props.get("dst"), IntegerAttr) or not isinstance(props.get("srcs"), DenseArrayBase):
            return []  # malformed: the command's own verifier names it
        name = name.data
        out = [(_int(props["dst"]), "i1" if name in COMPARE_OPS else t, True)]
        return out + [(s, "i1" if name == "select" and i == 0 else t, False) for i, s in enumerate(_vals(props["srcs"]))]
    dom = props.get("domain")
    if isinstance(op, ReadoutOp) and isinstance(dom, DomainAttr) and dom.data.is_concrete and any(q <= p for p, q in dom.data.concrete()):
        return []  # a readout of an empty box reads nothing (the JIT types it as the graph, not the register)
    if isinstance(op, (ShiftOp, BcastOp, ReadoutOp, WriteInOp)):
        return [(_int(props[k]), t, k == "dst") for k in type(op).REGISTERS if isinstance(props.get(k), IntegerAttr)]
    return []


def _check_wordlines(op: Operation, prog: ProgramOp, start: int, bits: int, what: str) -> None:
    if start < 0:
        noun = what if what == "register" else f"{what} register"  # (an array's start is "register", not "register register")
        raise VerifyException(f"'{op.name}' {noun} {start} is negative")
    if prog.is_allocated and start + bits > prog.num_wordlines:
        raise VerifyException(f"'{op.name}' {what} wordlines [{start}, {start + bits}) leave the array's {prog.num_wordlines} wordlines")


def _check_type(op: Operation, t: str) -> int:
    check_one_of(op, "element type", t, ELEMENT_BITS)
    return ELEMENT_BITS[t]


class Command(IRDLOperation):
    """A command of a ``pimcmd.program``, defined by its kind (``KIND``, a
    ``pimcmd_schema.CommandKind``): ``@command(K.X)`` gives the op its name,
    its properties (one ``prop_def`` per field of the kind, in order), its
    array operand and the kind's facts (``REG_READS``, ``ARRAY_OPERAND``,
    ...), so the IR and the records (``pimcmd_records``) cannot disagree.
    The op adds the textual syntax (``LEADING``, ``KEYWORDS``) and the
    verifiers; the passes, the simulator and the timing model ask the kind.
    """

    KIND: ClassVar[K.CommandKind]
    MNEMONIC: ClassVar[str] = ""  # the op name without ``pimcmd.``
    # syntax: LEADING properties are bare identifiers first (with what they
    # are, for parse errors); FIELDS (derived, ``keyword_fields``) the others
    LEADING: ClassVar[tuple[tuple[str, str], ...]] = ()
    KEYWORDS: ClassVar[dict[str, str]] = {}
    FIELDS: ClassVar[tuple[Field, ...]] = ()
    # the kind's facts (``pimcmd_schema.CommandKind``), for the verifiers
    REG_READS: ClassVar[tuple[str, ...]] = ()
    REG_WRITES: ClassVar[tuple[str, ...]] = ()
    REGISTERS: ClassVar[tuple[str, ...]] = ()
    ARRAY_OPERAND: ClassVar[bool] = False
    PATTERNED: ClassVar[bool] = False
    TENSOR_LEVEL: ClassVar[bool] = False
    traits = traits_def(HasParent(ProgramOp))

    def verify_(self) -> None:
        # HasParent has checked the parent; a detached command, which xDSL's
        # traits leave alone too, has no program to be checked against
        prog = self.parent_op()
        if isinstance(prog, ProgramOp):
            self.verify_in(prog)

    def verify_in(self, prog: ProgramOp) -> None:
        """The command's checks against its program (layout, registers, lattice)."""


# A field's attribute, by its value kind (``pimcmd_schema.VALUE_KINDS``); a
# flag or a number is any attribute here (its syntax and the records say more)
_ATTRIBUTE_OF_VALUE = {
    "int": IntegerAttr, "ints": DenseArrayBase, "range": DenseArrayBase, "str": StringAttr, "pattern": PatternAttr,
    "domain": DomainAttr, "map": MapAttr, "flag": Attribute, "number": Attribute,
}  # fmt: skip
_FIELD_KIND = {IntegerAttr: "int", DenseArrayBase: "ints", StringAttr: "str", PatternAttr: "pattern", DomainAttr: "domain", MapAttr: "map", UnitAttr: "flag"}


def keyword_fields(cls) -> tuple[Field, ...]:
    """The ``keyword value`` syntax (``keyword_syntax.Field``) of an op's
    properties, in declaration order: the keyword is the property's name (or
    ``KEYWORDS[prop]``), the value's syntax a command's field's value kind
    (``KIND``), or for another op the attribute type's; an optional
    property is an optional field.  ``LEADING`` properties are not fields."""
    lead = {p for p, _ in getattr(cls, "LEADING", ())}
    keywords = getattr(cls, "KEYWORDS", {})
    kind = getattr(cls, "KIND", None)
    if kind is not None:
        return tuple(Field(keywords.get(p.name, p.name), p.name, p.value, optional=p.optional and p.value != "flag") for p in kind.props if p.name not in lead)
    out = []
    for prop, d in cls.get_irdl_definition().properties.items():
        if prop in lead or prop == "operandSegmentSizes":
            continue
        value = _FIELD_KIND.get(getattr(d.constr, "attr", None))
        if value is None:
            raise TypeError(f"'{cls.name}' property '{prop}' has no keyword syntax ({d.constr})")
        out.append(Field(keywords.get(prop, prop), prop, value, optional=isinstance(d, OptPropertyDef) and value != "flag"))
    return tuple(out)


def command(kind: K.CommandKind):
    """``irdl_op_definition`` of the op of ``kind``: its name, one property per
    field of the kind (``prop_def``/``opt_prop_def`` of the value kind's
    attribute), the ``array`` operand if it works on one, and the kind's facts."""

    def define(cls):
        cls.name = kind.name
        for p in kind.props:
            setattr(cls, p.name, (opt_prop_def if p.optional else prop_def)(_ATTRIBUTE_OF_VALUE[p.value]))
        if kind.ARRAY_OPERAND:
            cls.array = operand_def(MemRefType)
        cls = irdl_op_definition(cls)
        cls.KIND, cls.MNEMONIC = kind, kind.MNEMONIC
        cls.REG_READS, cls.REG_WRITES, cls.REGISTERS = kind.REG_READS, kind.REG_WRITES, kind.REGISTERS
        cls.ARRAY_OPERAND, cls.PATTERNED, cls.TENSOR_LEVEL = kind.ARRAY_OPERAND, kind.PATTERNED, kind.TENSOR_LEVEL
        check_op_against_kind(cls, kind)
        cls.FIELDS = keyword_fields(cls)
        return cls

    return define


def check_op_against_kind(op: type[IRDLOperation], kind: K.CommandKind) -> None:
    """The op's IRDL definition is its kind's, field for field (name, order,
    optional, attribute) and operand for operand: a ``TypeError`` naming the
    first difference (a property added to the op by hand, an inherited one)."""
    d = op.get_irdl_definition()
    got = [(n, isinstance(p, OptPropertyDef), getattr(p.constr, "attr", Attribute)) for n, p in d.properties.items() if n != "operandSegmentSizes"]
    want = [(p.name, p.optional, _ATTRIBUTE_OF_VALUE[p.value]) for p in kind.props]
    if got != want:
        raise TypeError(f"'{op.name}' properties {got} are not its kind's {want} (pimcmd_schema)")
    operands = [n for n, _ in d.operands]
    if operands != (["array"] if kind.ARRAY_OPERAND else []) or op.name != kind.name:
        raise TypeError(f"'{op.name}' operands {operands} are not its kind's '{kind.name}' (array operand: {kind.ARRAY_OPERAND})")


ProgramOp.FIELDS = keyword_fields(ProgramOp)  # type: ignore[attr-defined]


class _KeywordSyntax(Command):
    """``op.name <LEADING bare identifiers> <FIELDS>``: the syntax of most
    commands, derived from their properties (``keyword_fields``).  A command
    on an array (``ARRAY_OPERAND``) writes it after its first ``BEFORE_ARRAY``
    fields (behind ``->`` if there are any) and its type last:
    ``pimcmd.near_store add f32 in 3 -> %A map [..] : memref<..>``."""

    BEFORE_ARRAY: ClassVar[int] = 0

    def print(self, printer: Printer) -> None:
        for prop, _ in self.LEADING:
            printer.print_string(f" {self.properties[prop].data}")  # type: ignore[attr-defined]
        pre, props = self.BEFORE_ARRAY, dict(self.properties)
        print_fields(printer, self.FIELDS[:pre], props)
        if self.ARRAY_OPERAND:
            printer.print_string(" -> " if pre else " ")
            printer.print_ssa_value(self.operands[0])
        print_fields(printer, self.FIELDS[pre:], props)
        if self.ARRAY_OPERAND:
            printer.print_string(" : ")
            printer.print_attribute(self.operands[0].type)
        print_attributes(printer, self)

    @classmethod
    def parse(cls, parser: Parser):
        props: dict[str, Attribute] = {prop: StringAttr(parser.parse_identifier(f" ({what})")) for prop, what in cls.LEADING}
        props |= parse_fields(parser, cls.FIELDS[: cls.BEFORE_ARRAY])
        if not cls.ARRAY_OPERAND:
            return parse_attributes(parser, cls.create(properties=props | parse_fields(parser, cls.FIELDS)))
        if cls.BEFORE_ARRAY:
            parser.parse_punctuation("->")
        name = parser.parse_unresolved_operand()
        props |= parse_fields(parser, cls.FIELDS[cls.BEFORE_ARRAY :])
        parser.parse_punctuation(":")
        return parse_attributes(parser, cls.create(operands=[parser.resolve_operand(name, parser.parse_type())], properties=props))


class _CommandOp(_KeywordSyntax):
    """A command with the ``bitlines``/``tiles`` (and optional ``banks``) patterns."""

    def lattice_box(self) -> tuple[tuple[int, int], ...] | None:
        d = self.properties.get("domain")
        return d.data.concrete() if isinstance(d, DomainAttr) else None

    def _verify_cells(self, prog: ProgramOp) -> None:
        """Patterns (lowered form), a concrete lattice box (domain form), or both."""
        has_dom = self.properties.get("domain") is not None
        has_pat = self.properties.get("bitlines") is not None or self.properties.get("tiles") is not None
        if not has_dom and not has_pat:
            raise VerifyException(f"'{self.name}' needs a domain or bitlines/tiles patterns")
        if has_pat and ("bitlines" not in self.properties or "tiles" not in self.properties):
            raise VerifyException(f"'{self.name}' needs both bitlines and tiles patterns")
        if has_dom:
            _verify_box(self, prog, self.properties["domain"].data)  # type: ignore[attr-defined]
        if has_pat:
            self._verify_patterns(prog)

    def bank_pattern(self) -> Pattern | None:
        b = self.properties.get("banks")
        return b.data if isinstance(b, PatternAttr) else None

    def _verify_patterns(self, prog: ProgramOp) -> None:
        # Bounds arithmetically (the largest index of a pattern, its size): a
        # pattern is never expanded here, so a huge one costs nothing to reject.
        banks = self.bank_pattern()
        checks = [("bitline", self.bitlines.data, prog.bitlines), ("tile", self.tiles.data, prog.num_tiles)]  # type: ignore[attr-defined]
        for what, p, n in checks + ([("bank", banks, prog.num_banks)] if banks is not None else []):
            if p.max_index >= n:
                raise VerifyException(f"'{self.name}' {what} pattern {p} reaches {what} {p.max_index} of {n}")
        # Overlapping levels may repeat an index (harmless: a selection is a
        # set), but the simulator and map-banks expand the patterns: more
        # selections than any valid machine has cells can only be repeats.
        bl, tl = checks[0][1], checks[1][1]
        if bl.size * tl.size > MAX_TOTAL_BITLINES or (banks is not None and banks.size > MAX_TOTAL_BITLINES):
            raise VerifyException(
                f"'{self.name}' selects {bl.size} bitlines x {tl.size} tiles{f' in {banks.size} banks' if banks is not None else ''}: "
                f"more than any machine has cells (2^24, hardware.MAX_TOTAL_BITLINES), so indices repeat")


class _TypedCommandOp(_CommandOp):
    """``op.name <element type> <FIELDS>``: a command on registers of one type."""

    LEADING: ClassVar[tuple[tuple[str, str], ...]] = (("type", "element type"),)

    def _verify_move(self, prog: ProgramOp) -> int:
        """A move's ``dst`` and ``src`` registers of its type, and its ``dim`` (returned)."""
        bits = _check_type(self, self.properties["type"].data)  # type: ignore[attr-defined]
        _check_wordlines(self, prog, _int(self.properties["dst"]), bits, "destination")
        _check_wordlines(self, prog, _int(self.properties["src"]), bits, "source")
        dim = _int(self.properties["dim"])
        if not 0 <= dim < len(prog.tile_shape):
            raise VerifyException(f"'{self.name}' dim {dim} is outside the rank-{len(prog.tile_shape)} lattice")
        return dim


class _BufferOp(_TypedCommandOp):
    """readout/writein: a register's cells over a box (the buffer's shape) and
    buffer ``id``; the cells' patterns once registers are allocated."""

    def verify_in(self, prog: ProgramOp) -> None:
        (reg,) = self.REGISTERS
        bits = _check_type(self, self.properties["type"].data)  # type: ignore[attr-defined]
        _check_wordlines(self, prog, _int(self.properties[reg]), bits, "source" if reg == "src" else "destination")
        self._verify_cells(prog)
        if prog.is_allocated and self.bitlines is None:
            if not (isinstance(self, ReadoutOp) and any(q <= p for p, q in self.domain.data.concrete())):
                raise VerifyException(f"'{self.name}' needs bitlines/tiles patterns once registers are allocated"
                                      " (only a readout of an empty box has none)")  # fmt: skip


def _verify_box(op: Operation, prog: ProgramOp, dom) -> None:
    verify_domain(dom, "domain")
    if not dom.is_concrete:
        raise VerifyException(f"'{op.name}' domain {dom} must be concrete")
    lat = prog.lattice_shape
    if dom.rank != len(lat):
        raise VerifyException(f"'{op.name}' domain {dom} has rank {dom.rank}, lattice has {len(lat)}")
    for (p, q), s in zip(dom.concrete(), lat):
        if p < 0 or q > s:
            raise VerifyException(f"'{op.name}' domain {dom} leaves the lattice {list(lat)}")


@command(K.ARRAY)
class ArrayOp(_KeywordSyntax):
    """``pimcmd.array %A shape [4, 4] wordline 0 (transposed)? : memref<..>`` -- a LOT entry."""

    REGISTERS: ClassVar[tuple[str, ...]] = ("wordline",)

    @property
    def wordline_start(self) -> int:
        return _int(self.wordline)

    @property
    def element(self) -> str:
        """The array's element type; "" for an operand that is no memref (its
        own verifier refuses it, after the program's, which asks this first)."""
        t = self.array.type
        return str(t.element_type) if isinstance(t, MemRefType) else ""

    @property
    def bits(self) -> int:
        return ELEMENT_BITS.get(self.element, 0)

    @property
    def concrete_shape(self) -> tuple[int, ...]:
        return _vals(self.shape)

    def verify_in(self, prog: ProgramOp) -> None:
        if self.array not in prog.body.block.args:
            raise VerifyException(f"'{self.name}' must describe an argument of the enclosing 'pimcmd.program'")
        # One LOT row per array (§4.2): with two, transpose_in and release would
        # pick one register and the commands might name the other.  The
        # entries come first in a program, so the scan up to this one is short.
        for other in prog.body.block.ops:
            if other is self:
                break
            if isinstance(other, ArrayOp) and other.array is self.array:
                name = f"%{self.array.name_hint}" if self.array.name_hint else "its array"
                raise VerifyException(f"'{self.name}' places {name} a second time: it already has the layout entry at {_line_of(other)} (one per array)")
        mt = self.array.type
        assert isinstance(mt, MemRefType)
        _check_type(self, self.element)
        shape = self.concrete_shape
        mshape = mt.get_shape()
        if len(shape) != len(mshape):
            raise VerifyException(f"'{self.name}' shape {list(shape)} does not match the rank of {mt}")
        for s, m in zip(shape, mshape):
            if s <= 0 or (m >= 0 and m != s):
                raise VerifyException(f"'{self.name}' shape {list(shape)} does not match {mt}")
        lat = prog.lattice_shape
        if len(shape) > len(lat):
            raise VerifyException(f"'{self.name}' rank-{len(shape)} array in a rank-{len(lat)} lattice")
        for s, l in zip(reversed(shape), reversed(lat)):
            if s > l:
                raise VerifyException(f"'{self.name}' shape {list(shape)} exceeds the lattice {list(lat)}")
        _check_wordlines(self, prog, self.wordline_start, self.bits, "register")


def _layout_entry(op: Operation, prog: ProgramOp, array: SSAValue) -> ArrayOp:
    for other in prog.body.block.ops:
        if isinstance(other, ArrayOp) and other.array is array:
            return other
    raise VerifyException(f"'{op.name}' array has no 'pimcmd.array' layout entry")


class _ArrayMoveOp(Command):
    assembly_format = "$array attr-dict `:` type($array)"

    def verify_in(self, prog: ProgramOp) -> None:
        _layout_entry(self, prog, self.array)


@command(K.TRANSPOSE_IN)
class TransposeInOp(_ArrayMoveOp):
    """``pimcmd.transpose_in %A : memref<..>`` -- fetch the array into its transposed registers."""


@command(K.RELEASE)
class ReleaseOp(_ArrayMoveOp):
    """``pimcmd.release %A : memref<..>`` -- write the array's registers back to memory."""


@command(K.COMPUTE)
class ComputeOp(_CommandOp):
    """``pimcmd.compute add f32 dst 64 srcs [0, 32] (const 2.0)? bitlines .. tiles .. (banks ..)?``.

    Bit-serial element-wise op on the selected cells; the constant, if any, is
    the last operand.  Compare ops write a 1-bit (i1) register; ``select``'s
    first source is a 1-bit register.
    """

    LEADING: ClassVar[tuple[tuple[str, str], ...]] = (("op", "compute op"), ("type", "element type"))

    def verify_in(self, prog: ProgramOp) -> None:
        opname = self.op.data
        if opname not in COMPUTE_ARITY:
            raise VerifyException(f"'{self.name}' unknown op '{opname}' (known: {', '.join(COMPUTE_ARITY)})")
        bits = _check_type(self, self.type.data)
        srcs = _vals(self.srcs)
        if self.const is not None and self.const_arg is not None:
            raise VerifyException(f"'{self.name}' takes a literal constant or a scalar argument, not both")
        if self.const_arg is not None and not 0 <= _int(self.const_arg) < len(prog.scalars):
            raise VerifyException(f"'{self.name}' const_arg {_int(self.const_arg)} is not a scalar argument of the program ({len(prog.scalars)} scalars)")
        n = len(srcs) + (1 if self.const is not None or self.const_arg is not None else 0)
        if n != COMPUTE_ARITY[opname]:
            raise VerifyException(f"'{self.name}' {opname} takes {COMPUTE_ARITY[opname]} operands, got {n}")
        if opname == "select" and (self.const is not None or self.const_arg is not None):
            raise VerifyException(f"'{self.name}' select takes no constant operand")
        fields = {"op": opname, "type": self.type.data, "srcs": srcs}
        _check_wordlines(self, prog, _int(self.dst), self.KIND.dst_bits(fields), "destination")
        for s, b in zip(srcs, self.KIND.src_bits(fields)):
            _check_wordlines(self, prog, s, b, "source")
        self._verify_cells(prog)


@command(K.SHIFT)
class ShiftOp(_TypedCommandOp):
    """``pimcmd.shift f32 dst 64 src 0 dim 1 mask [1:2] inter 1 intra -1 bitlines 1:2:2 tiles 0:2:2``.

    Alg. 2's command: tensor (the patterns), dim, mask, inter-tile and
    intra-tile distances.
    """

    def verify_in(self, prog: ProgramOp) -> None:
        dim, tiles = self._verify_move(prog), prog.tile_shape
        lo, hi = _range(self, "mask")
        if not 0 <= lo <= hi <= tiles[dim]:
            raise VerifyException(f"'{self.name}' mask [{lo}:{hi}] is not inside the tile extent {tiles[dim]}")
        intra = _int(self.intra)
        if abs(intra) >= tiles[dim]:
            raise VerifyException(f"'{self.name}' intra-tile distance {intra} must be smaller than the tile extent {tiles[dim]}")
        if not (0 <= lo + intra and hi + intra <= tiles[dim]):
            raise VerifyException(f"'{self.name}' mask [{lo}:{hi}] shifted by {intra} leaves the tile")
        self._verify_patterns(prog)


@command(K.BCAST)
class BcastOp(_TypedCommandOp):
    """``pimcmd.bcast f32 dst 64 src 0 dim 0 intra [-1:1] inter [1:3] bitlines .. tiles ..`` -- multicast."""

    def verify_in(self, prog: ProgramOp) -> None:
        dim, tiles = self._verify_move(prog), prog.tile_shape
        for what, (lo, hi) in (("intra", _range(self, "intra")), ("inter", _range(self, "inter"))):
            if lo >= hi:
                raise VerifyException(f"'{self.name}' {what} range [{lo}:{hi}] is empty")
        lo, hi = _range(self, "intra")
        if hi - lo > tiles[dim] or abs(lo) >= tiles[dim] or abs(hi - 1) >= tiles[dim]:
            raise VerifyException(f"'{self.name}' intra range [{lo}:{hi}] exceeds the tile extent {tiles[dim]}")
        self._verify_patterns(prog)


@command(K.SYNC)
class SyncOp(Command):
    """``pimcmd.sync`` -- global barrier after inter-tile moves (§4.2, Synchronization)."""

    assembly_format = "attr-dict"


@command(K.READOUT)
class ReadoutOp(_BufferOp):
    """``pimcmd.readout f32 src 64 domain [0:4, 0:1] id 0 bitlines .. tiles ..``.

    Reads the register's cells in the lattice box out to the near-memory
    stream engines, as stream ``id`` (partial results for ``stream_reduce``).
    A readout of an empty box has no patterns: it reads nothing and gives an
    empty buffer (whose reduction is the identity).
    """



# ---------------------------------------------------------------------------
# Domain-form (tensor-level) commands, expanded by the lower-pim passes
# ---------------------------------------------------------------------------


class _DomainCommandOp(_TypedCommandOp):
    """A tensor-level command on a lattice box with virtual registers (its kind's ``TENSOR_LEVEL``)."""

    def verify_in(self, prog: ProgramOp) -> None:
        if prog.is_allocated:
            raise VerifyException(f"'{self.name}' is a domain-form command; it needs a 'virtual' program")
        dim = self._verify_move(prog)
        _verify_box(self, prog, self.domain.data)  # type: ignore[attr-defined]
        self.verify_box(prog, dim, *self.domain.data.concrete()[dim])  # type: ignore[attr-defined]

    def verify_box(self, prog: ProgramOp, dim: int, p: int, q: int) -> None:
        """The command's own checks, on the box's range ``[p:q]`` along ``dim``."""


@command(K.MV)
class MoveOp(_DomainCommandOp):
    """``pimcmd.mv f32 dst R src S dim d dist k domain [..]`` -- move the source box by ``dist`` along ``dim``."""

    def verify_box(self, prog: ProgramOp, dim: int, p: int, q: int) -> None:
        k = _int(self.dist)
        if p + k < 0 or q + k > prog.lattice_shape[dim]:
            raise VerifyException(f"'{self.name}' moves [{p}:{q}] by {k} outside the lattice extent {prog.lattice_shape[dim]}")


@command(K.BC)
class BroadcastOp(_DomainCommandOp):
    """``pimcmd.bc f32 dst R src S dim d dist k count c domain [..]`` -- ``count`` copies, copy ``j`` moved by ``dist + j*w``."""

    def verify_box(self, prog: ProgramOp, dim: int, p: int, q: int) -> None:
        if _int(self.count) < 1:
            raise VerifyException(f"'{self.name}' count must be >= 1, got {_int(self.count)}")
        lo, hi = p + _int(self.dist), p + _int(self.dist) + _int(self.count) * (q - p)
        if lo < 0 or hi > prog.lattice_shape[dim]:
            raise VerifyException(f"'{self.name}' copies reach [{lo}:{hi}] outside the lattice extent {prog.lattice_shape[dim]}")


@command(K.REDUCE)
class ReduceOp(_DomainCommandOp):
    """``pimcmd.reduce add f32 dst R src S dim d domain [..]`` -- fold each tile's part of the box along ``dim``."""

    LEADING: ClassVar[tuple[tuple[str, str], ...]] = (("op", "reduction op"), ("type", "element type"))

    def verify_box(self, prog: ProgramOp, dim: int, p: int, q: int) -> None:
        check_one_of(self, "op", self.op.data, REDUCE_KINDS)


@command(K.WRITEIN)
class WriteInOp(_BufferOp):
    """``pimcmd.writein f32 dst R domain [..] id K (bitlines .. tiles ..)?`` -- buffer ``K`` into a register."""



# ---------------------------------------------------------------------------
# Near-memory stream operations on buffers (§3.3 hybrid execution)
# ---------------------------------------------------------------------------


class _NearOp(_KeywordSyntax):
    """A near-memory stream operation."""


@command(K.NEAR_REDUCE)
class NearReduceOp(_NearOp):
    """``pimcmd.near_reduce add f32 in K dims [1] step [1, 16] out K2``.

    Folds buffer ``K`` over ``dims`` (they collapse to their first coordinate)
    after keeping every ``step``-th cell per dim (partial results of an
    in-memory ``reduce`` sit at tile starts).  Folds start at the identity; a
    folded dim along which the buffer is empty stays empty, unless every dim
    is folded (a scalar: the identity), as ``tdfg.stream_reduce``.
    """

    LEADING: ClassVar[tuple[tuple[str, str], ...]] = (("op", "reduction op"), ("type", "element type"))
    KEYWORDS: ClassVar[dict[str, str]] = {"input": "in"}

    def verify_in(self, prog: ProgramOp) -> None:
        _check_type(self, self.type.data)
        check_one_of(self, "op", self.op.data, REDUCE_KINDS)
        rank = len(prog.lattice_shape)
        dims = _vals(self.dims)
        if not dims or len(set(dims)) != len(dims) or any(not 0 <= d < rank for d in dims):
            raise VerifyException(f"'{self.name}' dims {list(dims)} must be distinct lattice dims")
        step = _vals(self.step)
        if len(step) != rank or any(s < 1 for s in step):
            raise VerifyException(f"'{self.name}' step {list(step)} needs one positive entry per lattice dim")


@command(K.NEAR_LOAD)
class NearLoadOp(_NearOp):
    """``pimcmd.near_load f32 %A map [d0, d1] indirect [0] indices [K] domain [..] out K2 : memref<..>``.

    For every cell of ``domain``, the array element the map names (lattice
    coordinates ``d<i>``; at ``indirect`` positions the index is taken from
    buffer ``indices[j]`` at that cell).
    """

    LEADING: ClassVar[tuple[tuple[str, str], ...]] = (("type", "element type"),)

    def verify_in(self, prog: ProgramOp) -> None:
        _check_type(self, self.type.data)
        _verify_near_access(self, prog, self.array, self.map.data, _vals(self.indirect), _vals(self.indices))
        _verify_box(self, prog, self.domain.data)


@command(K.NEAR_STORE)
class NearStoreOp(_NearOp):
    """``pimcmd.near_store add f32 in K -> %A map [..] indirect [..] indices [..] (domain [..])? : memref<..>``.

    Buffer ``K`` (over its box, or only its cells in ``domain``, a sub-box of
    it: the part of a tensor that lies inside the array) into the array,
    plainly (``store``: the last cell in row-major order wins) or atomically
    (``add``/``min``/``max``).
    """

    LEADING: ClassVar[tuple[tuple[str, str], ...]] = (("kind", "store kind"), ("type", "element type"))
    KEYWORDS: ClassVar[dict[str, str]] = {"input": "in"}
    BEFORE_ARRAY: ClassVar[int] = 1

    def verify_in(self, prog: ProgramOp) -> None:
        _check_type(self, self.type.data)
        check_one_of(self, "kind", self.kind.data, STORE_KINDS)
        _verify_near_access(self, prog, self.array, self.map.data, _vals(self.indirect), _vals(self.indices))
        if self.domain is not None:
            _verify_box(self, prog, self.domain.data)
            if len(self.indirect) > 0:
                raise VerifyException(f"'{self.name}' with a domain cannot be indirect (its index buffers cover the whole input)")


def _verify_near_access(op: Operation, prog: ProgramOp, array: SSAValue, amap, indirect: Sequence[int], indices: Sequence[int]) -> None:
    if array not in prog.body.block.args:
        raise VerifyException(f"'{op.name}' array must be an argument of the enclosing 'pimcmd.program'")
    mt = array.type
    assert isinstance(mt, MemRefType)
    if amap.symbols_used():
        raise VerifyException(f"'{op.name}' map {amap} must not use symbols (the program is concrete)")
    verify_access(op.name, amap, len(mt.get_shape()), len(prog.lattice_shape), "lattice", frozenset(), indirect, len(indices), "buffers")


@command(K.RESULT)
class ResultOp(_KeywordSyntax):
    """``pimcmd.result index 0 id K`` -- the program's scalar result ``index`` is buffer ``K``'s one element."""

    def verify_in(self, prog: ProgramOp) -> None:
        if not 0 <= _int(self.index) < len(prog.res):
            raise VerifyException(f"'{self.name}' index {_int(self.index)} is not a result of the program ({len(prog.res)} results)")


# The op of every command kind (``pimcmd_schema.COMMANDS``), once
COMMAND_OPS: tuple[type[Command], ...] = (
    ArrayOp, TransposeInOp, ReleaseOp, ComputeOp, ShiftOp, BcastOp, SyncOp, ReadoutOp, WriteInOp,
    MoveOp, BroadcastOp, ReduceOp, NearReduceOp, NearLoadOp, NearStoreOp, ResultOp,
)  # fmt: skip
OP_OF_KIND: dict[K.CommandKind, type[Command]] = {op.KIND: op for op in COMMAND_OPS}
if set(OP_OF_KIND) != set(K.COMMANDS):  # an op for every kind, and no other
    raise TypeError(f"pimcmd ops and kinds differ: {sorted(k.name for k in set(OP_OF_KIND) ^ set(K.COMMANDS))}")

PIMCMD = Dialect("pimcmd", [ProgramOp, *COMMAND_OPS], [])
