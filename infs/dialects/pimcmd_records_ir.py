"""Records <-> IR: the ``pimcmd.program`` op of a ``PimProgram`` (``to_op``)
and the records of a program op (``from_op``), to print or verify a program
and to read one from a file.  The one module of the record form that imports
xDSL: the passes and the JIT build records, the simulator runs them, and
neither needs the IR.

Takes ``PimProgram``s and program ops; gives ``from_op``, ``to_op`` and
``arrays_by_index`` (a run's arrays keyed by the op's SSA values or names).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, FloatAttr, IndexType, IntegerAttr, IntegerType, MemRefType, StringAttr, UnitAttr, f16, f32, f64, i32, i64
from xdsl.ir import Attribute, Block, Region, SSAValue

from infs.dialects import pimcmd as pc
from infs.dialects.lattice import AccessMap, Domain, DomainAttr, MapAttr, Pattern, PatternAttr
from infs.dialects.pimcmd_records import ArrayType, Cmd, PimProgram, RecordError, ScalarType
from infs.dialects.tdfg_ir_records import array_type, type_name

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
        cmds.append(Cmd(o.KIND, f))
    return PimProgram(
        arg_types=[array_type(a.type) for a in args],
        config=op.config.data,
        lattice=op.lattice_shape,
        tiles=op.tile_shape,
        banks=op.num_banks,
        per_bank=op.per_bank,
        wordlines=op.num_wordlines,
        virtual=not op.is_allocated,
        result_types=[ScalarType(type_name(r.type)) for r in op.res],
        cmds=cmds,
        scalar_types=[ScalarType(type_name(v.type)) for v in op.scalars],
        arg_names=[a.name_hint for a in args],
    )


def to_op(prog: PimProgram, operands: list, scalars: list | None = None) -> pc.ProgramOp:
    """The program op of ``prog`` on ``operands`` (arrays) and ``scalars`` (not verified)."""
    block = Block(arg_types=[ir_type(t) for t in (*prog.arg_types, *prog.scalar_types)])
    for arg, name in zip(block.args, prog.arg_names):
        if name:
            arg.name_hint = name
    for c in prog.cmds:
        cls = pc.OP_OF_KIND.get(c.kind)
        if cls is None:
            raise RecordError(f"record kind {c.kind!r} is not a pimcmd command")
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
    return pc.ProgramOp.create(operands=[*operands, *scalars], result_types=[ir_type(t) for t in prog.result_types], properties=props, regions=[Region(block)])


@lru_cache(maxsize=256)
def _segments(n_arrays: int, n_scalars: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, [n_arrays, n_scalars])



_IR_ELEMENTS: dict[str, Attribute] = {"f64": f64, "f32": f32, "f16": f16, "i64": i64, "i32": i32, "i16": IntegerType(16), "i8": IntegerType(8), "i1": IntegerType(1), "index": IndexType()}


def ir_type(t: Any) -> Attribute:
    """The xDSL type of a record's argument type (the IR's own, or ``ArrayType``/``ScalarType``)."""
    if isinstance(t, ArrayType):
        return MemRefType(ir_type(ScalarType(t.element_type)), [DYNAMIC_INDEX if d < 0 else d for d in t.shape])  # (-1: a dynamic dim)
    if isinstance(t, ScalarType):
        hit = _IR_ELEMENTS.get(t.name)
        if hit is None:
            raise RecordError(f"no IR type for the element type '{t.name}' (known: {', '.join(_IR_ELEMENTS)})")
        return hit
    return t


def arrays_by_index(op: pc.ProgramOp, arrays: Any) -> Any:
    """A run's arrays keyed by the op's SSA values (block arguments or
    operands) or their names (``"%A"``/``"A"``), keyed by argument index
    instead (a sequence or index keys are left as they are)."""
    if not isinstance(arrays, Mapping):
        return arrays
    args, operands = list(op.body.block.args), list(op.arrays)
    names = {a.name_hint: i for i, a in enumerate(args[: len(operands)]) if a.name_hint}
    names.update({v.name_hint: i for i, v in enumerate(operands) if v.name_hint})
    out: dict[Any, Any] = {}
    for k, v in arrays.items():
        if isinstance(k, SSAValue):
            k = args.index(k) if k in args else operands.index(k)
        elif not isinstance(k, int) and str(k).lstrip("%") in names:
            k = names[str(k).lstrip("%")]
        out[k] = v
    return out
