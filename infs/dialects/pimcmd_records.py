"""The record form of ``pimcmd.program``: plain Python values, no IR.

A ``PimProgram`` is a program op's properties and a list of ``Cmd`` records
(the command's op class, whose class-level facts say what it reads, writes
and works on, and its properties as plain Python values).  The lower-pim passes
are algorithms on records (``infs.passes.lower_pim.pim_program``), the JIT chains them
without building IR (ASPLOS §4.2, "Reducing JIT Overheads"), and the simulator
(``infs.sim.sram.machine``) executes records: the IR is built (``to_op``) only to
print or verify a program, and read back (``from_op``) when a program comes
from a file.  Both directions live here, next to the ops they mirror.

Property values: ``int``; ``str``; ``tuple[int, ...]`` (int lists, masks and
ranges); ``Box`` = ``tuple[tuple[int, int], ...]`` (concrete domains);
``Pattern``; ``AccessMap``; ``float``/``int`` constants (key ``const``);
``True`` (unit flags).  Array operands are stored as ``arr`` = the index of the
program argument.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar

from xdsl.dialects.builtin import DenseArrayBase, FloatAttr, IntegerAttr, MemRefType, StringAttr, UnitAttr, f64, i32, i64
from xdsl.ir import Attribute, Block, Region
from xdsl.utils.exceptions import DiagnosticException

from infs.dialects import pimcmd as pc
from infs.dialects.lattice import AccessMap, Domain, DomainAttr, MapAttr, Pattern, PatternAttr
from infs.dialects.pimcmd import TiledLattice

Box = tuple[tuple[int, int], ...]


def box_empty(b: Box) -> bool:
    """No cell: some range is empty (the passes and the simulator ask it)."""
    return any(q <= p for p, q in b)


# (list comprehensions and conditionals, not generators and max/min: these run per node per lowering)
def box_intersect(a: Box, b: Box) -> Box:
    return tuple([(p0 if p0 > p1 else p1, q0 if q0 < q1 else q1) for (p0, q0), (p1, q1) in zip(a, b)])


def box_shift(b: Box, dim: int, k: int) -> Box:
    return tuple([(p + k, q + k) if d == dim else (p, q) for d, (p, q) in enumerate(b)])


def box_with(b: Box, dim: int, p: int, q: int) -> Box:
    return tuple([(p, q) if d == dim else r for d, r in enumerate(b)])


class RecordError(DiagnosticException):
    """A record that has no ``pimcmd`` op or attribute form (one line)."""


class Cmd:
    """One command: ``kind`` is its op class (``pc.ComputeOp``, ...: the one
    definition of the command, ``pc.Command``) and its properties are typed
    attributes (``c.dst``, ``c.tiles``; ``c["dst"]`` and ``c.get("tiles")`` for
    a name held in a variable).

    ``Cmd(kind, {name: value})`` builds an instance of the kind's record class
    (``record_class``): ``__slots__`` generated once from the op definition's
    properties (plus ``arr``, the array argument's index, for a command on an
    array), so a name that is no property of the command is an error when the
    record is built or changed, not a silently ignored key.  An optional
    property that is absent is ``None`` (no property value is ``None``):
    ``c.get(name)`` gives the default, ``c[name]`` a ``KeyError``, and
    ``fields()`` leaves it out.  ``get`` of a name that some other command has
    (``tiles`` of a sync) gives the default; a name no command has raises.  A
    property whose name the record's own API takes (``near_store``'s ``kind``)
    is held in the slot ``<name>_`` and read by name (``c["kind"]``).
    """

    __slots__ = ()
    kind: ClassVar[type[pc.Command]]
    NAMES: ClassVar[tuple[str, ...]] = ()  # the fields, in the op's declaration order
    _SLOT_OF: ClassVar[dict[str, str]] = {}  # field name -> its slot
    _NAME_SET: ClassVar[frozenset[str]] = frozenset()

    def __new__(cls, kind: type[pc.Command], fields: Mapping[str, Any] | None = None, /) -> "Cmd":
        return record_class(kind)._make(fields or {})

    # generated per record class (``_generate``): ``_make(fields)`` builds one,
    # ``_values()`` every slot in NAMES order, ``with_(**changes)`` a copy with
    # ``changes`` (a name that is no field of the command raises)
    _make: ClassVar[Callable[[Mapping[str, Any]], "Cmd"]]
    _values: Callable[[], tuple]
    with_: Callable[..., "Cmd"]

    def __reduce__(self) -> tuple:
        return (Cmd, (self.kind, self.fields()))

    def __repr__(self) -> str:
        return f"Cmd({getattr(self.kind, 'MNEMONIC', self.kind)}, {self.fields()})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()  # type: ignore[union-attr]

    __hash__ = None  # type: ignore[assignment]  # mutable, as the passes build them

    def __getitem__(self, key: str) -> Any:
        slot = self._SLOT_OF.get(key)
        if slot is None:
            raise KeyError(_no_field(self.kind, key))
        v = getattr(self, slot)
        if v is None:
            raise KeyError(key)
        return v

    def __contains__(self, key: str) -> bool:
        slot = self._SLOT_OF.get(key)
        return slot is not None and getattr(self, slot) is not None

    def get(self, key: str, default: Any = None) -> Any:
        slot = self._SLOT_OF.get(key)
        if slot is None:
            if key not in _ALL_FIELDS:
                raise RecordError(_no_field(self.kind, key))
            return default
        v = getattr(self, slot)
        return default if v is None else v

    def fields(self) -> dict[str, Any]:
        """The properties that are set, in declaration order (a new dict)."""
        return {k: v for k, v in zip(self.NAMES, self._values()) if v is not None}

    def items(self):
        return self.fields().items()


def _no_field(kind: type, key: str) -> str:
    names = record_class(kind).NAMES if isinstance(kind, type) and issubclass(kind, pc.Command) else ()
    return f"'{getattr(kind, 'name', kind)}' has no field '{key}' (its fields: {', '.join(names) or '-'})"


_RECORD_CLASSES: dict[type, type[Cmd]] = {}
_ALL_FIELDS: set[str] = set()
_RESERVED = frozenset(dir(Cmd)) | {"kind", "NAMES"}  # the record's own API: such a field gets the slot "<name>_"


def _generate(name: str, slots: tuple[str, ...], names: tuple[str, ...]) -> dict[str, Any]:
    """Straight-line ``_make``/``_values``/``with_`` for one record class (as
    ``dataclasses`` generates ``__init__``): a loop over the slots per record
    was most of what the records cost the JIT."""
    targets = "".join(f"o.{s}, " for s in slots)
    values = "".join(f"self.{s}, " for s in slots)
    # ``map`` calls ``f.get`` from C: one store per slot, no Python call per slot
    src = "\n".join([
        "def _make(cls, f):",
        "    if not f.keys() <= NAME_SET:",
        "        raise RecordError(no_field(KIND, next(k for k in f if k not in NAME_SET)))",
        "    o = new(cls)", f"    {targets or '_,'} = map(f.get, NAMES)" if slots else "    pass", "    return o",
        "def _values(self):", f"    return ({values})",
        "def with_(self, **f):",
        "    if not f.keys() <= NAME_SET:",
        "        raise RecordError(no_field(KIND, next(k for k in f if k not in NAME_SET)))",
        "    o = new(type(self))", f"    {targets} = map(f.get, NAMES, ({values}))" if slots else "    pass", "    return o",
    ])  # fmt: skip
    return {"src": src, "file": f"<record {name}>"}


def record_class(kind: type[pc.Command]) -> type[Cmd]:
    """The record class of a command: ``__slots__`` of its properties, built once."""
    rc = _RECORD_CLASSES.get(kind)
    if rc is None:
        if not (isinstance(kind, type) and issubclass(kind, pc.Command)):
            raise RecordError(f"record kind {kind!r} is not a pimcmd command")
        names = tuple(p for p in kind.get_irdl_definition().properties if p != "operandSegmentSizes")
        if kind.ARRAY_OPERAND:
            names += ("arr",)
        slots = tuple(f"{n}_" if n in _RESERVED else n for n in names)
        name_set = frozenset(names)
        code = _generate(kind.__name__, slots, names)
        ns: dict[str, Any] = {"new": object.__new__, "NAME_SET": name_set, "NAMES": names, "KIND": kind, "RecordError": RecordError, "no_field": _no_field}
        exec(compile(code["src"], code["file"], "exec"), ns)  # noqa: S102 -- generated from the op definition's property names only
        body = {"__slots__": slots, "kind": kind, "NAMES": names, "_SLOT_OF": dict(zip(names, slots)), "_NAME_SET": name_set,
                "__module__": __name__, "_make": classmethod(ns["_make"]), "_values": ns["_values"], "with_": ns["with_"]}  # fmt: skip
        rc = _RECORD_CLASSES[kind] = type(f"{kind.__name__}Record", (Cmd,), body)
        _ALL_FIELDS.update(names)
    return rc


def _register_all_commands() -> None:
    # every command's fields known up front: ``get`` can tell a field of another
    # command (default) from a name no command has (an error)
    stack = [pc.Command]
    while stack:
        k = stack.pop()
        stack.extend(k.__subclasses__())
        if getattr(k, "MNEMONIC", None) and k.__dict__.get("name"):
            record_class(k)


@dataclass
class PimProgram(TiledLattice):
    """A ``pimcmd.program``: its properties, argument types and commands."""

    arg_types: list[Attribute]
    config: str
    lattice: tuple[int, ...]
    tiles: tuple[int, ...]
    banks: int
    per_bank: int
    wordlines: int
    virtual: bool
    result_types: list[Attribute] = field(default_factory=list)
    cmds: list[Cmd] = field(default_factory=list)
    scalar_types: list[Attribute] = field(default_factory=list)
    arg_names: list[str | None] = field(default_factory=list)  # name hints of the array arguments

    def with_cmds(self, cmds: list[Cmd]) -> "PimProgram":
        # a shallow copy of the fields (every JIT step calls this once;
        # dataclasses.replace was a tenth of a small graph's lowering time)
        out = object.__new__(PimProgram)
        out.__dict__.update(self.__dict__)
        out.cmds = cmds
        return out

    def arrays(self) -> Iterator[Cmd]:
        return (c for c in self.cmds if c.kind is pc.ArrayOp)

    def element(self, arr: int) -> str:
        """Element type name (``f32``, ``i1``, ...) of array argument ``arr``."""
        return element_name(self.arg_types[arr])

    def arg_name(self, arr: int) -> str:
        names = self.arg_names
        return (names[arr] if arr < len(names) else None) or f"arg{arr}"


_ELEMENT_NAMES: dict[Attribute, str] = {}
# by identity first: hashing a memref type walks its parameters in Python (about
# 1 µs, several when cold); an entry keeps its type alive, so its id stays its own
_ELEMENT_NAMES_BY_ID: dict[int, tuple[Attribute, str]] = {}


def element_name(t: Attribute) -> str:
    """``str`` of a memref's (or a type's own) element type, memoized: printing
    an attribute costs tens of microseconds, and the JIT asks for it per node."""
    seen = _ELEMENT_NAMES_BY_ID.get(id(t))
    if seen is not None and seen[0] is t:
        return seen[1]
    hit = _ELEMENT_NAMES.get(t)
    if hit is None:
        et = t.element_type if isinstance(t, MemRefType) or hasattr(t, "element_type") else t
        hit = _ELEMENT_NAMES[t] = str(et)
    if len(_ELEMENT_NAMES_BY_ID) > 100_000:
        _ELEMENT_NAMES_BY_ID.clear()
    _ELEMENT_NAMES_BY_ID[id(t)] = (t, hit)
    return hit


# ---------------------------------------------------------------------------
# IR <-> records
# ---------------------------------------------------------------------------


_VALUE_OF: dict[type, Callable[[Any], Any]] = {
    IntegerAttr: lambda a: a.value.data, FloatAttr: lambda a: float(a.value.data),
    DenseArrayBase: lambda a: tuple(int(v) for v in a.get_values()), StringAttr: lambda a: a.data,
    PatternAttr: lambda a: a.data, MapAttr: lambda a: a.data, DomainAttr: lambda a: a.data.concrete(), UnitAttr: lambda a: True,
}  # fmt: skip


def _value_of(attr: Attribute) -> Any:
    value_of = _VALUE_OF.get(type(attr))
    if value_of is None:
        raise RecordError(f"unexpected property {attr}")
    return value_of(attr)


_ATTR_CACHE: dict[tuple[str, type, Any], Attribute] = {}


def _attr_of(key: str, v: Any) -> Attribute:
    """The property attribute for a record value; attributes are immutable, so
    equal values share one (building and verifying xDSL attributes dominates
    the JIT's time otherwise)."""
    # floats by their bits: -0.0 == 0.0 in Python, not in a constant (x / -0.0)
    ck = (key if key == "domain" else "", type(v), v.hex() if isinstance(v, float) else v)
    hit = _ATTR_CACHE.get(ck)
    if hit is None:
        if len(_ATTR_CACHE) > 200_000:
            _ATTR_CACHE.clear()
        hit = _ATTR_CACHE[ck] = _make_attr(key, v)
    return hit


def _make_attr(key: str, v: Any) -> Attribute:
    if v is True:
        return UnitAttr()
    if isinstance(v, Pattern):
        return PatternAttr(v)
    if isinstance(v, AccessMap):
        return MapAttr(v)
    if isinstance(v, str):
        return StringAttr(v)
    if isinstance(v, float):
        return FloatAttr(v, f64)
    if isinstance(v, int):
        return IntegerAttr(v, i64)
    if isinstance(v, tuple):
        if v and isinstance(v[0], tuple):
            return DomainAttr(Domain.of(v))
        if key == "domain":
            return DomainAttr(Domain(()))
        return DenseArrayBase.from_list(i64, list(v))
    raise RecordError(f"cannot store {key} = {v!r} as a property")


def from_op(op: pc.ProgramOp) -> PimProgram:
    """The records of a program op (array operands become argument indices)."""
    args = list(op.body.block.args)[: len(op.arrays)]
    cmds = []
    for o in op.body.block.ops:
        f = {k: _value_of(v) for k, v in o.properties.items()}
        if o.operands:
            f["arr"] = args.index(o.operands[0])
        if not isinstance(o, pc.Command):
            raise RecordError(f"'{o.name}' is not a pimcmd command")
        cmds.append(Cmd(type(o), f))
    return PimProgram(
        arg_types=[a.type for a in args],
        config=op.config.data,
        lattice=op.lattice_shape,
        tiles=op.tile_shape,
        banks=op.num_banks,
        per_bank=op.per_bank,
        wordlines=op.num_wordlines,
        virtual=not op.is_allocated,
        result_types=[r.type for r in op.res],
        cmds=cmds,
        scalar_types=[v.type for v in op.scalars],
        arg_names=[a.name_hint for a in args],
    )


def to_op(prog: PimProgram, operands: list, scalars: list | None = None) -> pc.ProgramOp:
    """The program op of ``prog`` on ``operands`` (arrays) and ``scalars`` (not verified)."""
    block = Block(arg_types=[*prog.arg_types, *prog.scalar_types])
    for arg, name in zip(block.args, prog.arg_names):
        if name:
            arg.name_hint = name
    for c in prog.cmds:
        cls = c.kind
        if not (isinstance(cls, type) and issubclass(cls, pc.Command)):
            raise RecordError(f"record kind {cls!r} is not a pimcmd command")
        props = {k: _attr_of(k, v) for k, v in c.items() if k != "arr"}
        ops = [block.args[c.arr]] if cls.ARRAY_OPERAND else []
        block.add_op(cls.create(operands=ops, properties=props))
    scalars = scalars or []
    props: dict[str, Attribute] = {
        "config": _attr_of("config", prog.config),
        "lattice": _attr_of("lattice", tuple(prog.lattice)),
        "tiles": _attr_of("tiles", tuple(prog.tiles)),
        "banks": _attr_of("banks", prog.banks),
        "arrays_per_bank": _attr_of("arrays_per_bank", prog.per_bank),
        "wordlines": _attr_of("wordlines", prog.wordlines),
        "operandSegmentSizes": _segments(len(operands), len(scalars)),
    }
    if prog.virtual:
        props["virtual"] = UnitAttr()
    # create() with ready-made properties: xDSL's generic __init__ path is slow
    return pc.ProgramOp.create(operands=[*operands, *scalars], result_types=list(prog.result_types), properties=props, regions=[Region(block)])


@lru_cache(maxsize=256)
def _segments(n_arrays: int, n_scalars: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, [n_arrays, n_scalars])


_register_all_commands()
