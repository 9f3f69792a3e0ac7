"""A light record form of ``pimcmd.program`` for the lower-pim passes.

Each lower-pim pass is an algorithm on a ``PimProgram`` (a list of ``Cmd``
records: an op kind and its properties as plain Python values) wrapped by a
thin ``ModulePass`` that converts the IR to records and back.  The JIT
(``infs.runtime.jit``) chains the algorithms on records directly and builds
the IR once, which keeps lowering time per tDFG node small (§4.2, "Reducing
JIT Overheads").

Property values: ``int``; ``str``; ``tuple[int, ...]`` (int lists, masks and
ranges); ``Box`` = ``tuple[tuple[int, int], ...]`` (concrete domains);
``Pattern``; ``AccessMap``; ``float``/``int`` constants (key ``const``);
``True`` (unit flags).  Array operands are stored as ``arr`` = the index of the
program argument.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from xdsl.dialects.builtin import DenseArrayBase, FloatAttr, IntegerAttr, StringAttr, UnitAttr, f64, i32, i64
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import DiagnosticException

from infs.dialects import pimcmd as pc
from infs.dialects.pimcmd import tile_grid
from infs.dialects.lattice import AccessMap, Domain, DomainAttr, MapAttr, Pattern, PatternAttr

Box = tuple[tuple[int, int], ...]

_OPS: dict[str, type] = {op.name.split(".", 1)[1]: op for op in pc.PIMCMD.operations}
_OPERAND_KINDS = ("array", "transpose_in", "release", "near_load", "near_store")


class LoweringError(DiagnosticException):
    """A tDFG that cannot be lowered for this machine (one-line message)."""


@dataclass
class Cmd:
    kind: str
    f: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.f[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.f.get(key, default)

    def with_(self, **changes: Any) -> "Cmd":
        return Cmd(self.kind, {**self.f, **changes})


@dataclass
class PimProgram:
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

    # -- geometry (row-major tiles, pimcmd docstring) --------------------------
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
        return math.prod(self.tiles)

    def with_cmds(self, cmds: list[Cmd]) -> "PimProgram":
        return replace(self, cmds=cmds)

    def arrays(self) -> Iterator[Cmd]:
        return (c for c in self.cmds if c.kind == "array")


# ---------------------------------------------------------------------------
# IR <-> records
# ---------------------------------------------------------------------------


def _value_of(attr: Attribute) -> Any:
    if isinstance(attr, IntegerAttr):
        return attr.value.data
    if isinstance(attr, FloatAttr):
        return float(attr.value.data)
    if isinstance(attr, DenseArrayBase):
        return tuple(int(v) for v in attr.get_values())
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, PatternAttr):
        return attr.data
    if isinstance(attr, DomainAttr):
        return attr.data.concrete()
    if isinstance(attr, MapAttr):
        return attr.data
    if isinstance(attr, UnitAttr):
        return True
    raise LoweringError(f"unexpected property {attr}")


_ATTR_CACHE: dict[tuple[str, type, Any], Attribute] = {}


def _attr_of(key: str, v: Any) -> Attribute:
    """The property attribute for a record value; attributes are immutable, so
    equal values share one (building and verifying xDSL attributes dominates
    the JIT's time otherwise)."""
    ck = (key if key == "domain" else "", type(v), v)
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
    raise LoweringError(f"cannot store {key} = {v!r} as a property")


def from_op(op: pc.ProgramOp) -> PimProgram:
    args = list(op.body.block.args)[: len(op.arrays)]
    cmds = []
    for o in op.body.block.ops:
        f = {k: _value_of(v) for k, v in o.properties.items()}
        if o.operands:
            f["arr"] = args.index(o.operands[0])
        cmds.append(Cmd(o.name.split(".", 1)[1], f))
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
    )


def to_op(prog: PimProgram, operands: list, scalars: list | None = None) -> pc.ProgramOp:
    block = Block(arg_types=[*prog.arg_types, *prog.scalar_types])
    for c in prog.cmds:
        cls = _OPS.get(c.kind)
        if cls is None:
            raise LoweringError(f"no pimcmd op '{c.kind}'")
        props = {k: _attr_of(k, v) for k, v in c.f.items() if k != "arr"}
        ops = [block.args[c.f["arr"]]] if c.kind in _OPERAND_KINDS else []
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


def rewrite_programs(module: Operation, step: Callable[[PimProgram], PimProgram]) -> None:
    """Apply a record-level lowering step to every ``pimcmd.program`` of ``module``."""
    for op in [o for o in module.walk() if isinstance(o, pc.ProgramOp)]:
        try:
            new = to_op(step(from_op(op)), list(op.arrays), list(op.scalars))
        except LoweringError as e:
            raise LoweringError(f"{where(op)}: {e}") from None
        new.location = op.location
        Rewriter.replace_op(op, new, new_results=list(new.res))


def where(op: Operation) -> str:
    """'the program at f.mlir:3:5 in @fn' -- which graph/program an error is about."""
    from xdsl.dialects.builtin import FileLineColLoc
    from xdsl.dialects.func import FuncOp

    parts = [f"the {op.name}"]
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        parts.append(f"at {loc.filename.data}:{loc.line.data}:{loc.column.data}")
    fn = op.parent_op()
    while fn is not None and not isinstance(fn, FuncOp):
        fn = fn.parent_op()
    if fn is not None:
        parts.append(f"in @{fn.sym_name.data}")
    return " ".join(parts)


def require_virtual(prog: PimProgram, pass_name: str) -> None:
    if not prog.virtual:
        raise LoweringError(f"'{pass_name}' runs before allocate-wordlines (the program's registers are already wordlines)")


def box_intersect(a: Box, b: Box) -> Box:
    return tuple((max(p0, p1), min(q0, q1)) for (p0, q0), (p1, q1) in zip(a, b))


def box_empty(b: Box) -> bool:
    return any(q <= p for p, q in b)


def box_shift(b: Box, dim: int, k: int) -> Box:
    return tuple((p + k, q + k) if d == dim else (p, q) for d, (p, q) in enumerate(b))


def box_with(b: Box, dim: int, p: int, q: int) -> Box:
    return tuple((p, q) if d == dim else r for d, r in enumerate(b))
