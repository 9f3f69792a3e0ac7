"""The ``pimcmd`` command set as plain Python: per command its name, its
fields (name, value kind, optional) and whether it works on an array
argument, and the facts the passes, the simulator and the runtime ask of it.

Takes nothing (no xDSL: the simulator and the bundle's runner import it);
gives the kinds by mnemonic (``ARRAY``, ``COMPUTE``, ``MV``, ...), which a
record's ``kind`` is and which code compares it with (``c.kind is K.COMPUTE``);
``COMMANDS`` (every kind, once); ``CommandKind`` and ``Prop`` (a new kind:
``CommandKind("toy.triple", (...))``); ``COMPUTE_ARITY``; and the tile
geometry the layout, the records and the simulator share (``tile_grid``,
``TiledLattice``).

This is the one definition of the commands: ``infs.dialects.pimcmd`` builds
each op's properties (``prop_def``) and array operand from its kind
(``@command(K.X)``), and the record classes (``pimcmd_records``) are
generated from the same fields.  The machine model and the commands'
meaning are the ``pimcmd`` docstring's (ASPLOS'23 §4.2, §5).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from infs.element_types import COMPARE_OPS, ELEMENT_BITS, ELEMENTWISE_ARITY

# pimcmd.compute runs the element-wise ops of tdfg.cmp, plus a register copy
COMPUTE_ARITY = {**ELEMENTWISE_ARITY, "copy": 1}

# What a field holds (the ``keyword_syntax`` kinds of the textual form), as a
# record holds it: ``int``; ``ints`` a tuple of ints; ``range`` two ints
# ``(lo, hi)``; ``str``; ``pattern`` a ``Pattern``; ``domain`` a concrete box
# ``((lo, hi), ...)``; ``map`` an ``AccessMap``; ``flag`` ``True``; ``number``
# an int or float constant.
VALUE_KINDS = frozenset({"int", "ints", "range", "str", "pattern", "domain", "map", "flag", "number"})


@dataclass(frozen=True)
class Prop:
    """One field of a command: its name, value kind (``VALUE_KINDS``), optional or not."""

    name: str
    value: str
    optional: bool = False

    def __post_init__(self) -> None:
        if self.value not in VALUE_KINDS:
            raise ValueError(f"field '{self.name}': unknown value kind '{self.value}' (known: {', '.join(sorted(VALUE_KINDS))})")


_KINDS: dict[str, "CommandKind"] = {}  # by name: a kind is one object (records compare kinds by identity)


def kind_named(name: str) -> "CommandKind":
    """The kind called ``name`` (``pimcmd.compute``): how a pickled kind comes back as itself."""
    try:
        return _KINDS[name]
    except KeyError:
        raise ValueError(f"no command kind '{name}'") from None


class CommandKind:
    """A command: ``name`` (``pimcmd.compute``), ``MNEMONIC`` (``compute``),
    ``props`` (its fields in order) and the facts derived from them, named
    as the passes and the simulator ask them:

    * ``REG_READS``/``REG_WRITES``: the fields naming registers it reads
      (``src``/``srcs``) and writes (``dst``); ``REGISTERS`` every field naming
      a register (reads and writes unless given: a layout entry's ``wordline``);
    * ``ARRAY_OPERAND``: works on a program argument (record field ``arr``);
    * ``PATTERNED``: ``bitlines`` x ``tiles`` patterns give its cells once
      lowered (map-banks adds ``banks``);
    * ``TENSOR_LEVEL``: domain form only, expanded by the lower-pim passes,
      never executed.

    ``f`` below is anything with ``[]``/``get`` over the command's fields (a record).
    """

    def __init__(self, name: str, props: Sequence[Prop], *, array: bool = False, tensor_level: bool = False,
                 registers: tuple[str, ...] = ()) -> None:  # fmt: skip
        if "." not in name:
            raise ValueError(f"command kind '{name}' needs a dialect prefix ('pimcmd.{name}')")
        if name in _KINDS:
            raise ValueError(f"command kind '{name}' is defined twice")
        names = [p.name for p in props]
        if len(set(names)) != len(names) or "arr" in names:
            raise ValueError(f"command kind '{name}': field names {names} must be distinct and not 'arr' (the array operand's)")
        self.name = name
        self.MNEMONIC = name.split(".", 1)[1]
        self.props: tuple[Prop, ...] = tuple(props)
        self.REG_READS = tuple(p for p in ("src", "srcs") if p in names)
        self.REG_WRITES = ("dst",) if "dst" in names else ()
        self.REGISTERS = registers or self.REG_READS + self.REG_WRITES
        self.ARRAY_OPERAND = array
        self.PATTERNED = "bitlines" in names
        self.TENSOR_LEVEL = tensor_level
        # the record's fields: the properties, then the array argument's index
        self.field_names: tuple[str, ...] = (*names, "arr") if array else tuple(names)
        _KINDS[name] = self

    def __repr__(self) -> str:
        return f"<command {self.name}>"

    def __reduce__(self) -> tuple:
        return (kind_named, (self.name,))

    def reads(self, f) -> tuple[int, ...]:
        """Registers the command reads."""
        return _regs(f, self.REG_READS)

    def writes(self, f) -> tuple[int, ...]:
        """Registers the command writes."""
        return _regs(f, self.REG_WRITES)

    def registers(self, f) -> tuple[int, ...]:
        """Every register the command names (read, written, or a layout entry's)."""
        return _regs(f, self.REGISTERS)

    def dst_bits(self, f) -> int:
        """Width of the register it writes (wordlines)."""
        return ELEMENT_BITS[f["type"]]

    def inter_tile(self, f) -> bool:
        """Moves data between tiles (asynchronous: a ``sync`` waits for it, §4.2)."""
        return False


def _regs(f: Any, fields: tuple[str, ...]) -> tuple[int, ...]:
    out: list[int] = []
    for k in fields:
        v = f.get(k)
        if isinstance(v, tuple):
            out.extend(v)
        elif v is not None:
            out.append(v)
    return tuple(out)


class _Compute(CommandKind):
    def dst_bits(self, f) -> int:
        return 1 if f["op"] in COMPARE_OPS else ELEMENT_BITS[f["type"]]

    def src_bits(self, f) -> tuple[int, ...]:
        """Widths of the source registers: compares write i1, select's condition is i1."""
        bits = ELEMENT_BITS[f["type"]]
        return tuple(1 if (f["op"] == "select" and i == 0) else bits for i in range(len(f["srcs"])))


class _Shift(CommandKind):
    def inter_tile(self, f) -> bool:
        return f["inter"] != 0


class _Bcast(CommandKind):
    def inter_tile(self, f) -> bool:
        return tuple(f["inter"]) != (0, 1)


def _p(spec: str) -> tuple[Prop, ...]:
    """``"name:value name:value? ..."`` (``?``: optional) as fields."""
    out = []
    for item in spec.split():
        name, value = item.split(":")
        out.append(Prop(name, value.rstrip("?"), value.endswith("?")))
    return tuple(out)


_PATTERNS = "bitlines:pattern tiles:pattern banks:pattern?"
_OPT_PATTERNS = "bitlines:pattern? tiles:pattern? banks:pattern?"

# The commands (``pimcmd`` docstring): layout and data movement between memory and the registers
ARRAY = CommandKind("pimcmd.array", _p("shape:ints wordline:int transposed:flag?"), array=True, registers=("wordline",))
TRANSPOSE_IN = CommandKind("pimcmd.transpose_in", (), array=True)
RELEASE = CommandKind("pimcmd.release", (), array=True)
# bit-serial compute and moves on the selected cells (lowered form; ``domain``: the compute's domain form)
COMPUTE = _Compute("pimcmd.compute", _p(f"op:str type:str dst:int srcs:ints const:number? const_arg:int? domain:domain? {_OPT_PATTERNS}"))
SHIFT = _Shift("pimcmd.shift", _p(f"type:str dst:int src:int dim:int mask:range inter:int intra:int {_PATTERNS}"))
BCAST = _Bcast("pimcmd.bcast", _p(f"type:str dst:int src:int dim:int intra:range inter:range {_PATTERNS}"))
SYNC = CommandKind("pimcmd.sync", ())
READOUT = CommandKind("pimcmd.readout", _p(f"type:str src:int domain:domain id:int {_OPT_PATTERNS}"))
WRITEIN = CommandKind("pimcmd.writein", _p(f"type:str dst:int domain:domain id:int {_OPT_PATTERNS}"))
# domain-form (tensor-level) commands, expanded by the lower-pim passes
MV = CommandKind("pimcmd.mv", _p("type:str dst:int src:int dim:int dist:int domain:domain"), tensor_level=True)
BC = CommandKind("pimcmd.bc", _p("type:str dst:int src:int dim:int dist:int count:int domain:domain"), tensor_level=True)
REDUCE = CommandKind("pimcmd.reduce", _p("op:str type:str dst:int src:int dim:int domain:domain"), tensor_level=True)
# near-memory stream operations on buffers (§3.3)
NEAR_REDUCE = CommandKind("pimcmd.near_reduce", _p("op:str type:str input:int dims:ints step:ints out:int"))
NEAR_LOAD = CommandKind("pimcmd.near_load", _p("type:str map:map indirect:ints indices:ints domain:domain out:int"), array=True)
NEAR_STORE = CommandKind("pimcmd.near_store", _p("kind:str type:str input:int map:map indirect:ints indices:ints domain:domain?"), array=True)
RESULT = CommandKind("pimcmd.result", _p("index:int id:int"))

# Every command, once: the records, the simulator's semantics and the timing
# model's costs are keyed by these (``infs.sim.sram.machine.check_command_coverage``).
COMMANDS: tuple[CommandKind, ...] = (
    ARRAY, TRANSPOSE_IN, RELEASE, COMPUTE, SHIFT, BCAST, SYNC, READOUT, WRITEIN,
    MV, BC, REDUCE, NEAR_REDUCE, NEAR_LOAD, NEAR_STORE, RESULT,
)  # fmt: skip


def tile_grid(lattice: Sequence[int], tiles: Sequence[int]) -> tuple[int, ...]:
    """Tiles per lattice dim (the last one may be partly used): the one place
    the compiler's layout, the lowering records and the simulator get it from."""
    return tuple(-(-s // t) for s, t in zip(lattice, tiles))  # (ceil(s / t))


class TiledLattice:
    """Row-major tiles over a lattice, for any class with ``lattice`` and
    ``tiles`` (the lowering's records, the layout, the simulator's geometry)."""

    lattice: tuple[int, ...]
    tiles: tuple[int, ...]

    @property
    def rank(self) -> int:
        return len(self.lattice)

    @property
    def grid(self) -> tuple[int, ...]:
        return tile_grid(self.lattice, self.tiles)

    @property
    def num_tiles(self) -> int:
        return math.prod(self.grid)

    @property
    def bitlines(self) -> int:
        """Cells of one tile: the bitlines of an SRAM array it fills."""
        return math.prod(self.tiles)
