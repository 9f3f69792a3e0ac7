"""The record form of ``pimcmd.program``: plain Python values, no IR, no xDSL.

A ``PimProgram`` is a program op's properties and a list of ``Cmd`` records
(the command's kind, ``pimcmd_schema.CommandKind``, whose facts say what it
reads, writes and works on, and its fields as plain Python values).  The
lower-pim passes are algorithms on records (``infs.passes.lower_pim.pim_program``),
the JIT chains them without building IR (ASPLOS §4.2, "Reducing JIT
Overheads"), and the simulator (``infs.sim.sram.machine``) executes records:
the IR is built (``pimcmd_records_ir.to_op``) only to print or verify a
program, and read back (``from_op``) when a program comes from a file.  The
record classes are generated from the kinds' fields, as the ops' properties
are (``pimcmd.command``): the two forms have one definition.

Field values (``pimcmd_schema.VALUE_KINDS``): ``int``; ``str``;
``tuple[int, ...]`` (int lists, masks and ranges); ``Box`` =
``tuple[tuple[int, int], ...]`` (concrete domains); ``Pattern``;
``AccessMap``; ``float``/``int`` constants (key ``const``); ``True`` (flags).
Array operands are stored as ``arr`` = the index of the program argument.
Argument types are the IR's types (a program read from IR or lowered from a
tDFG graph) or ``ArrayType``/``ScalarType`` (built without xDSL): what is asked
of them is an element type's name (``element_name``) and an array's shape.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from infs.dialects import pimcmd_schema as K
from infs.dialects.pimcmd_schema import CommandKind, TiledLattice

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


class RecordError(ValueError):
    """A record that has no ``pimcmd`` op or attribute form (one line)."""


class Cmd:
    """One command: ``kind`` is its kind (``K.COMPUTE``, ...: the one
    definition of the command, ``pimcmd_schema``) and its fields are typed
    attributes (``c.dst``, ``c.tiles``; ``c["dst"]`` and ``c.get("tiles")`` for
    a name held in a variable).

    ``Cmd(kind, {name: value})`` builds an instance of the kind's record class
    (``record_class``): ``__slots__`` generated once from the kind's fields
    (plus ``arr``, the array argument's index, for a command on an
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
    kind: ClassVar[CommandKind]
    NAMES: ClassVar[tuple[str, ...]] = ()  # the fields, in the kind's order
    _SLOT_OF: ClassVar[dict[str, str]] = {}  # field name -> its slot
    _NAME_SET: ClassVar[frozenset[str]] = frozenset()

    def __new__(cls, kind: CommandKind, fields: Mapping[str, Any] | None = None, /) -> "Cmd":
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
        return f"Cmd({self.kind.MNEMONIC}, {self.fields()})"

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
    names = record_class(kind).NAMES if isinstance(kind, CommandKind) else ()
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


def record_class(kind: CommandKind) -> type[Cmd]:
    """The record class of a command: ``__slots__`` of its fields, built once."""
    rc = _RECORD_CLASSES.get(kind)
    if rc is None:
        if not isinstance(kind, CommandKind):
            raise RecordError(f"record kind {kind!r} is not a pimcmd command")
        names = kind.field_names
        slots = tuple(f"{n}_" if n in _RESERVED else n for n in names)
        name_set = frozenset(names)
        cls_name = "".join(w.capitalize() for w in kind.MNEMONIC.split("_"))
        code = _generate(kind.name, slots, names)
        ns: dict[str, Any] = {"new": object.__new__, "NAME_SET": name_set, "NAMES": names, "KIND": kind, "RecordError": RecordError, "no_field": _no_field}
        exec(compile(code["src"], code["file"], "exec"), ns)  # noqa: S102 -- generated from the kind's field names only
        body = {"__slots__": slots, "kind": kind, "NAMES": names, "_SLOT_OF": dict(zip(names, slots)), "_NAME_SET": name_set,
                "__module__": __name__, "_make": classmethod(ns["_make"]), "_values": ns["_values"], "with_": ns["with_"]}  # fmt: skip
        rc = _RECORD_CLASSES[kind] = type(f"{cls_name}Record", (Cmd,), body)
        _ALL_FIELDS.update(names)
    return rc


def _register_all_commands() -> None:
    # every command's fields known up front: ``get`` can tell a field of another
    # command (default) from a name no command has (an error)
    for k in K.COMMANDS:
        record_class(k)


@dataclass
class PimProgram(TiledLattice):
    """A ``pimcmd.program``: its properties, argument types and commands."""

    arg_types: list[Any]  # the arrays' types, then (scalar_types) the scalars': the IR's, or ArrayType/ScalarType
    config: str
    lattice: tuple[int, ...]
    tiles: tuple[int, ...]
    banks: int
    per_bank: int
    wordlines: int
    virtual: bool
    result_types: list[Any] = field(default_factory=list)
    cmds: list[Cmd] = field(default_factory=list)
    scalar_types: list[Any] = field(default_factory=list)
    arg_names: list[str | None] = field(default_factory=list)  # name hints of the array arguments

    def with_cmds(self, cmds: list[Cmd]) -> "PimProgram":
        # a shallow copy of the fields (every JIT step calls this once;
        # dataclasses.replace was a tenth of a small graph's lowering time)
        out = object.__new__(PimProgram)
        out.__dict__.update(self.__dict__)
        out.cmds = cmds
        return out

    def arrays(self) -> Iterator[Cmd]:
        return (c for c in self.cmds if c.kind is K.ARRAY)

    def element(self, arr: int) -> str:
        """Element type name (``f32``, ``i1``, ...) of array argument ``arr``."""
        return element_name(self.arg_types[arr])

    def arg_shape(self, arr: int) -> tuple[int, ...]:
        """Shape of array argument ``arr`` (as its type declares it)."""
        return tuple(self.arg_types[arr].get_shape())

    def arg_name(self, arr: int) -> str:
        names = self.arg_names
        return (names[arr] if arr < len(names) else None) or f"arg{arr}"


@dataclass(frozen=True)
class ArrayType:
    """An array argument's type without xDSL: ``memref<4x8xf32>`` is
    ``ArrayType("f32", (4, 8))`` (``element_type`` and ``get_shape`` as a memref type's)."""

    element_type: str
    shape: tuple[int, ...]

    def get_shape(self) -> tuple[int, ...]:
        return self.shape

    def __str__(self) -> str:
        dims = "".join(f"{d}x" if d >= 0 else "?x" for d in self.shape)  # (-1: a dynamic dim)
        return f"memref<{dims}{self.element_type}>"


@dataclass(frozen=True)
class ScalarType:
    """A scalar argument's or result's type without xDSL (``f32``, ``index``)."""

    name: str

    def __str__(self) -> str:
        return self.name


_ELEMENT_NAMES: dict[Any, str] = {}
# by identity first: hashing a memref type walks its parameters in Python (about
# 1 µs, several when cold); an entry keeps its type alive, so its id stays its own
_ELEMENT_NAMES_BY_ID: dict[int, tuple[Any, str]] = {}


def element_name(t: Any) -> str:
    """``str`` of an array type's (or a type's own) element type, memoized: printing
    an attribute costs tens of microseconds, and the JIT asks for it per node."""
    seen = _ELEMENT_NAMES_BY_ID.get(id(t))
    if seen is not None and seen[0] is t:
        return seen[1]
    hit = _ELEMENT_NAMES.get(t)
    if hit is None:
        et = t.element_type if hasattr(t, "element_type") else t
        hit = _ELEMENT_NAMES[t] = str(et)
    if len(_ELEMENT_NAMES_BY_ID) > 100_000:
        _ELEMENT_NAMES_BY_ID.clear()
    _ELEMENT_NAMES_BY_ID[id(t)] = (t, hit)
    return hit


_register_all_commands()
