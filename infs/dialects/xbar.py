"""The ``xbar`` dialect: Boolean functions on READ-based OR-plane crossbars (STREAM).

Takes nothing at import; gives the ops below, their syntax and verifiers, and
the conversions between IR and plain data: CIRCT ``hw``/``comb`` netlists to
and from ``Netlist`` records (``netlist_records``), synthesized netlists
(``xbar.or``, ``xbar.sop`` inside an ``hw.module``) to and from their plain
forms, and ``xbar.program`` to and from ``XbarProgram`` records
(``xbar_records``, what the crossbar simulator runs).

Ops (STREAM §II-A: a bitline reads the OR of the wordlines whose cells are in
LRS; a peripheral inverter makes it a NOR):

* ``%y = xbar.or [inverted] (%a, not %b, ...)`` -- an OIG node (STREAM-O,
  §IV): one crossbar column, OR (NOR when ``inverted``) of its operands.  Only
  a primary input (an argument of the enclosing ``hw.module``) may be read
  complemented: the first crossbar's rows are the inputs and their
  complements (Fig. 8(a)), later crossbars see only the previous one's columns.
* ``%y = xbar.sop [complemented] (%a, %b, ...) cubes ["1-0", "01-"]`` -- a
  multi-level-logic node (STREAM-M, §V): the OR of its product terms (each
  cube: ``1`` the operand, ``0`` its complement, ``-`` absent), complemented
  when ``complemented``; mapped on two crossbars in series.
* ``xbar.program @name style "stream-m" crossbar 128 inputs [...] outputs [...]
  { xbar.kernel ... ; xbar.outputs [...] }`` -- mapped kernels.
* ``xbar.kernel inputs [pi 0, 1:3, ...] outputs [c, ...] { xbar.layer ... }``
  -- one PE's staircase; an input is a primary input (``pi i``) or output
  ``j`` of an earlier kernel ``k`` (``k:j``); ``outputs`` are columns of its
  last layer.
* ``xbar.layer rows R [or(0, 3), nor(1), ...]`` -- one crossbar: per column,
  the rows whose cells are in LRS and whether the column is inverted.
* ``xbar.outputs [0:1, pi 2, ...]`` -- where each primary output comes from.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
from xdsl.dialects import comb, hw
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolNameConstraint,
    UnitAttr,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, Dialect, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, NoTerminator, Pure
from xdsl.utils.exceptions import VerifyException

from infs.dialects import xbar_records as xr
from infs.dialects.netlist_records import Gate, Netlist, NetlistError

# ---------------------------------------------------------------- netlist ops


def _parse_operand_list(parser: Parser, allow_not: bool) -> tuple[list[UnresolvedOperand], list[bool]]:
    operands: list[UnresolvedOperand] = []
    negated: list[bool] = []
    parser.parse_punctuation("(")
    if parser.parse_optional_punctuation(")") is None:
        while True:
            neg = allow_not and parser.parse_optional_keyword("not") is not None
            operands.append(parser.parse_unresolved_operand())
            negated.append(neg)
            if parser.parse_optional_punctuation(",") is None:
                break
        parser.parse_punctuation(")")
    return operands, negated


@irdl_op_definition
class OrOp(IRDLOperation):
    """One OIG node: ``y = OR(x_i)``, or ``NOR`` when ``inverted``; complemented operands are primary inputs."""

    name = "xbar.or"
    ins = var_operand_def(i1)
    result = result_def(i1)
    negated = prop_def(DenseArrayBase)
    inverted = opt_prop_def(UnitAttr)
    traits = traits_def(Pure())

    def __init__(self, operands: Sequence[SSAValue], negated: Sequence[bool], inverted: bool):
        super().__init__(
            operands=[list(operands)],
            result_types=[i1],
            properties={"negated": DenseArrayBase.from_list(i1, [int(b) for b in negated]), **({"inverted": UnitAttr()} if inverted else {})},
        )

    @property
    def negations(self) -> tuple[bool, ...]:
        return tuple(bool(v) for v in self.negated.get_values())

    @classmethod
    def parse(cls, parser: Parser) -> OrOp:
        inverted = parser.parse_optional_keyword("inverted") is not None
        operands, negated = _parse_operand_list(parser, True)
        values = parser.resolve_operands(operands, [i1] * len(operands), parser.pos)
        return cls(values, negated, inverted)

    def print(self, printer: Printer) -> None:
        printer.print_string(" inverted (" if self.inverted else " (")
        for k, (v, neg) in enumerate(zip(self.ins, self.negations)):
            printer.print_string(", " if k else "")
            printer.print_string("not " if neg else "")
            printer.print_ssa_value(v)
        printer.print_string(")")

    def verify_(self) -> None:
        if len(self.negations) != len(self.ins):
            raise VerifyException(f"xbar.or: {len(self.negations)} negation flags for {len(self.ins)} operands")
        for v, neg in zip(self.ins, self.negations):
            if neg and not (isinstance(v.owner, Block) and isinstance(v.owner.parent_op(), hw.HWModuleOp)):
                raise VerifyException(
                    "xbar.or: only a primary input (an hw.module argument) can be read complemented; "
                    "a later crossbar sees only its predecessor's columns (STREAM Fig. 8(a))"
                )


_CUBE = re.compile(r"^[01-]*$")


@irdl_op_definition
class SopOp(IRDLOperation):
    """One multi-level-logic node: the OR of product terms over the operands (complemented when ``complemented``)."""

    name = "xbar.sop"
    ins = var_operand_def(i1)
    result = result_def(i1)
    cubes = prop_def(ArrayAttr[StringAttr])
    complemented = opt_prop_def(UnitAttr)
    traits = traits_def(Pure())

    def __init__(self, operands: Sequence[SSAValue], cubes: Sequence[str], complemented: bool):
        super().__init__(
            operands=[list(operands)],
            result_types=[i1],
            properties={"cubes": ArrayAttr([StringAttr(c) for c in cubes]), **({"complemented": UnitAttr()} if complemented else {})},
        )

    @property
    def cube_strings(self) -> tuple[str, ...]:
        return tuple(c.data for c in self.cubes.data)

    @classmethod
    def parse(cls, parser: Parser) -> SopOp:
        complemented = parser.parse_optional_keyword("complemented") is not None
        operands, _ = _parse_operand_list(parser, False)
        parser.parse_keyword("cubes")
        cubes = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_str_literal)
        values = parser.resolve_operands(operands, [i1] * len(operands), parser.pos)
        return cls(values, cubes, complemented)

    def print(self, printer: Printer) -> None:
        printer.print_string(" complemented (" if self.complemented else " (")
        printer.print_list(self.ins, printer.print_ssa_value)
        printer.print_string(") cubes [")
        printer.print_list(self.cube_strings, lambda c: printer.print_string(f'"{c}"'))
        printer.print_string("]")

    def verify_(self) -> None:
        for c in self.cube_strings:
            if len(c) != len(self.ins) or not _CUBE.match(c):
                raise VerifyException(f"xbar.sop: cube '{c}' must be {len(self.ins)} characters of 0, 1, -")


# ---------------------------------------------------------------- mapped ops


def _parse_source(parser: Parser) -> tuple[int, int]:
    if parser.parse_optional_keyword("pi") is not None:
        return xr.PRIMARY, parser.parse_integer(allow_negative=False, allow_boolean=False)
    k = parser.parse_integer(allow_negative=False, allow_boolean=False)
    parser.parse_punctuation(":")
    return k, parser.parse_integer(allow_negative=False, allow_boolean=False)


def _print_sources(printer: Printer, flat: Sequence[int]) -> None:
    pairs = [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]
    printer.print_string("[" + ", ".join(f"pi {j}" if s == xr.PRIMARY else f"{s}:{j}" for s, j in pairs) + "]")


def _flat_sources(pairs: Sequence[tuple[int, int]]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [v for p in pairs for v in p])


def plane_of(rows: int, columns: Sequence[Sequence[int]]) -> np.ndarray | str:
    """The (rows, columns) LRS plane whose column j holds the cells ``columns[j]`` (or what is wrong)."""
    lengths = np.fromiter((len(c) for c in columns), np.int64, len(columns))
    flat = np.fromiter((r for c in columns for r in c), np.int64, int(lengths.sum()))
    col = np.repeat(np.arange(len(columns)), lengths)
    bad = np.flatnonzero((flat < 0) | (flat >= rows))
    if bad.size:
        return f"column {col[bad[0]]} reads row {flat[bad[0]]} of {rows}"
    plane = np.zeros((rows, len(columns)), np.bool_)
    plane[flat, col] = True
    return plane


def columns_of(plane: np.ndarray) -> list[list[int]]:
    """Per column of ``plane``, its LRS rows in order."""
    if plane.shape[1] == 0:
        return []
    col, row = np.nonzero(plane.T)
    return [part.tolist() for part in np.split(row, np.cumsum(np.bincount(col, minlength=plane.shape[1]))[:-1])]


@irdl_op_definition
class LayerOp(IRDLOperation):
    """One crossbar of a staircase: ``rows`` wordlines; per column its LRS rows and its inverter."""

    name = "xbar.layer"
    rows = prop_def(IntegerAttr[IntegerType])
    columns = prop_def(ArrayAttr[DenseArrayBase])
    invert = prop_def(DenseArrayBase)

    def __init__(self, rows: int, columns: Sequence[Sequence[int]], invert: Sequence[bool]):
        super().__init__(
            properties={
                "rows": IntegerAttr(rows, i64),
                "columns": ArrayAttr([DenseArrayBase.from_list(i64, list(c)) for c in columns]),
                "invert": DenseArrayBase.from_list(i1, [int(b) for b in invert]),
            }
        )

    @classmethod
    def parse(cls, parser: Parser) -> LayerOp:
        parser.parse_keyword("rows")
        rows = parser.parse_integer(allow_negative=False, allow_boolean=False)

        def column() -> tuple[bool, list[int]]:
            kind = parser.parse_identifier()
            if kind not in ("or", "nor"):
                parser.raise_error(f"a column is or(rows) or nor(rows), got '{kind}'")
            ints = parser.parse_comma_separated_list(parser.Delimiter.PAREN, lambda: parser.parse_integer(allow_negative=False, allow_boolean=False))
            return kind == "nor", ints

        cols = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, column)
        return cls(rows, [c for _, c in cols], [inv for inv, _ in cols])

    def print(self, printer: Printer) -> None:
        inv = self.invert.get_values()
        cols = [c.get_values() for c in self.columns.data]
        body = ", ".join(f"{'nor' if i else 'or'}({', '.join(str(r) for r in c)})" for i, c in zip(inv, cols))
        printer.print_string(f" rows {self.rows.value.data} [{body}]")

    def record(self) -> xr.XbarLayer:
        rows = self.rows.value.data
        cols = [c.get_values() for c in self.columns.data]
        plane = plane_of(rows, cols)
        if isinstance(plane, str):
            raise VerifyException(f"xbar.layer: {plane}")
        inv = self.invert.get_values()
        if len(inv) != len(cols):
            raise VerifyException(f"xbar.layer: {len(inv)} inverter flags for {len(cols)} columns")
        return xr.XbarLayer(plane, np.asarray(inv, np.bool_))

    def verify_(self) -> None:
        if not isinstance(self.parent_op(), KernelOp):
            raise VerifyException("xbar.layer: must be inside an xbar.kernel")
        self.record()


@irdl_op_definition
class KernelOp(IRDLOperation):
    """One PE's staircase: its input wiring, its layers in series, the last layer's output columns."""

    name = "xbar.kernel"
    sources = prop_def(DenseArrayBase)
    outputs = prop_def(DenseArrayBase)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self, sources: Sequence[tuple[int, int]], outputs: Sequence[int], layers: Sequence[LayerOp] | Region):
        super().__init__(
            properties={"sources": _flat_sources(sources), "outputs": DenseArrayBase.from_list(i64, list(outputs))},
            regions=[layers if isinstance(layers, Region) else Region(Block(list(layers)))],
        )

    @classmethod
    def parse(cls, parser: Parser) -> KernelOp:
        parser.parse_keyword("inputs")
        sources = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: _parse_source(parser))
        parser.parse_keyword("outputs")
        outs = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_negative=False, allow_boolean=False))
        return cls(sources, outs, parser.parse_region())

    def print(self, printer: Printer) -> None:
        printer.print_string(" inputs ")
        _print_sources(printer, self.sources.get_values())
        printer.print_string(" outputs [" + ", ".join(str(o) for o in self.outputs.get_values()) + "] ")
        printer.print_region(self.body)

    def record(self) -> xr.XbarKernel:
        layers = [op.record() for op in self.body.block.ops if isinstance(op, LayerOp)]
        try:
            return xr.XbarKernel(tuple(layers), tuple(self.outputs.get_values()))
        except xr.XbarRecordError as e:
            raise VerifyException(f"xbar.kernel: {e}") from None

    def source_pairs(self) -> np.ndarray:
        flat = self.sources.get_values()
        return np.asarray(flat, np.int64).reshape(-1, 2)

    def verify_(self) -> None:
        if not isinstance(self.parent_op(), ProgramOp):
            raise VerifyException("xbar.kernel: must be inside an xbar.program")
        for op in self.body.block.ops:
            if not isinstance(op, LayerOp):
                raise VerifyException(f"xbar.kernel: holds only xbar.layer ops, got {op.name}")
        if len(self.sources.get_values()) % 2:
            raise VerifyException("xbar.kernel: sources must be (source, index) pairs")


@irdl_op_definition
class OutputsOp(IRDLOperation):
    """Where each primary output of the program comes from."""

    name = "xbar.outputs"
    sources = prop_def(DenseArrayBase)
    traits = traits_def(IsTerminator())

    def __init__(self, sources: Sequence[tuple[int, int]]):
        super().__init__(properties={"sources": _flat_sources(sources)})

    @classmethod
    def parse(cls, parser: Parser) -> OutputsOp:
        return cls(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: _parse_source(parser)))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_sources(printer, self.sources.get_values())

    def verify_(self) -> None:
        if not isinstance(self.parent_op(), ProgramOp):
            raise VerifyException("xbar.outputs: must be inside an xbar.program")


@irdl_op_definition
class ProgramOp(IRDLOperation):
    """A mapped STREAM program: kernels in topological order and the primary outputs' sources."""

    name = "xbar.program"
    sym_name = prop_def(SymbolNameConstraint())
    style = prop_def(StringAttr)
    crossbar = prop_def(IntegerAttr[IntegerType])
    input_names = prop_def(ArrayAttr[StringAttr])
    output_names = prop_def(ArrayAttr[StringAttr])
    body = region_def("single_block")

    def __init__(self, name: str, style: str, crossbar: int, inputs: Sequence[str], outputs: Sequence[str], ops: Sequence[IRDLOperation] | Region):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "style": StringAttr(style),
                "crossbar": IntegerAttr(crossbar, i64),
                "input_names": ArrayAttr([StringAttr(n) for n in inputs]),
                "output_names": ArrayAttr([StringAttr(n) for n in outputs]),
            },
            regions=[ops if isinstance(ops, Region) else Region(Block(list(ops)))],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ProgramOp:
        name = parser.parse_symbol_name().data
        parser.parse_keyword("style")
        style = parser.parse_str_literal()
        parser.parse_keyword("crossbar")
        size = parser.parse_integer(allow_negative=False, allow_boolean=False)
        parser.parse_keyword("inputs")
        ins = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_str_literal)
        parser.parse_keyword("outputs")
        outs = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_str_literal)
        return cls(name, style, size, ins, outs, parser.parse_region())

    def print(self, printer: Printer) -> None:
        names = lambda attr: "[" + ", ".join(f'"{s.data}"' for s in attr.data) + "]"  # noqa: E731
        printer.print_string(f" @{self.sym_name.data} style \"{self.style.data}\" crossbar {self.crossbar.value.data}")
        printer.print_string(f" inputs {names(self.input_names)} outputs {names(self.output_names)} ")
        printer.print_region(self.body)

    def verify_(self) -> None:
        ops = list(self.body.block.ops)
        if not ops or not isinstance(ops[-1], OutputsOp):
            raise VerifyException("xbar.program: the body must end with xbar.outputs")
        for op in ops[:-1]:
            if not isinstance(op, KernelOp):
                raise VerifyException(f"xbar.program: holds xbar.kernel ops and one xbar.outputs, got {op.name}")
        xbar_to_records(self)


def xbar_to_records(op: ProgramOp) -> xr.XbarProgram:
    """The ``XbarProgram`` an ``xbar.program`` describes (a malformed one: ``VerifyException``)."""
    ops = list(op.body.block.ops)
    kernels = [k for k in ops if isinstance(k, KernelOp)]
    outs = [o for o in ops if isinstance(o, OutputsOp)]
    if len(outs) != 1:
        raise VerifyException("xbar.program: needs exactly one xbar.outputs")
    try:
        return xr.XbarProgram(
            kernels=tuple(k.record() for k in kernels),
            kernel_inputs=tuple(k.source_pairs() for k in kernels),
            output_sources=np.asarray(outs[0].sources.get_values(), np.int64).reshape(-1, 2),
            primary_inputs=tuple(s.data for s in op.input_names.data),
            primary_outputs=tuple(s.data for s in op.output_names.data),
            style=op.style.data,
            crossbar_size=op.crossbar.value.data,
        )
    except xr.XbarRecordError as e:
        raise VerifyException(f"xbar.program @{op.sym_name.data}: {e}") from None


def records_to_xbar(program: xr.XbarProgram, name: str) -> ProgramOp:
    """An ``xbar.program`` op printing ``program``."""
    ops: list[IRDLOperation] = []
    for kernel, src in zip(program.kernels, program.kernel_inputs):
        layers = [
            LayerOp(layer.n_in, columns_of(layer.plane), layer.invert.tolist())
            for layer in kernel.layers
        ]
        ops.append(KernelOp([tuple(p) for p in src.tolist()], kernel.outputs, layers))
    ops.append(OutputsOp([tuple(p) for p in program.output_sources.tolist()]))
    return ProgramOp(name, program.style, program.crossbar_size, program.primary_inputs, program.primary_outputs, ops)


# ---------------------------------------------------------------- hw/comb <-> netlists

_SSA_NAME = re.compile(r"^[A-Za-z_$.][\w$.]*$")


def _hint(name: str) -> str | None:
    """An SSA name hint for a signal (``%G1gat``); a name MLIR cannot spell gets none."""
    return name if _SSA_NAME.match(name) and not name[0].isdigit() else None


def _module_shell(netlist_name: str, inputs: Sequence[str], outputs: Sequence[str]) -> tuple[hw.HWModuleOp, Block]:
    ports = [hw.ModulePort(StringAttr(n), i1, hw.DirectionAttr(hw.Direction.INPUT)) for n in inputs]
    ports += [hw.ModulePort(StringAttr(n), i1, hw.DirectionAttr(hw.Direction.OUTPUT)) for n in outputs]
    block = Block(arg_types=[i1] * len(inputs))
    for arg, n in zip(block.args, inputs):
        arg.name_hint = _hint(n)
    module = hw.HWModuleOp(StringAttr(netlist_name), hw.ModuleType(ArrayAttr(ports)), Region(block))
    return module, block


def _port_names(module: hw.HWModuleOp) -> tuple[list[str], list[str]]:
    ins, outs = [], []
    for p in module.module_type.ports.data:
        (ins if p.dir.data == hw.Direction.INPUT else outs).append(p.port_name.data)
    return ins, outs


def netlist_to_hw(netlist: Netlist) -> hw.HWModuleOp:
    """``netlist`` as an ``hw.module`` of ``comb`` ops (NOT as ``comb.xor`` with true, as CIRCT writes it)."""
    module, block = _module_shell(netlist.name, netlist.inputs, netlist.outputs)
    values: dict[str, SSAValue] = dict(zip(netlist.inputs, block.args))
    consts: dict[bool, SSAValue] = {}

    def const(v: bool) -> SSAValue:
        if v not in consts:
            op = hw.ConstantOp(-1 if v else 0, i1)
            block.add_op(op)
            consts[v] = op.result
        return consts[v]

    def add(op) -> SSAValue:
        block.add_op(op)
        return op.result

    def neg(v: SSAValue) -> SSAValue:
        return add(comb.XorOp([v, const(True)]))

    def reduce(kind, vals: list[SSAValue]) -> SSAValue:
        return vals[0] if len(vals) == 1 else add(kind(vals))

    for g in netlist.gates:
        xs = [values[f] for f in g.fanins]
        if g.op in ("and", "nand"):
            v = reduce(comb.AndOp, xs)
        elif g.op in ("or", "nor"):
            v = reduce(comb.OrOp, xs)
        elif g.op in ("xor", "xnor"):
            v = reduce(comb.XorOp, xs)
        elif g.op == "not":
            v = xs[0]
        elif g.op == "buf":
            v = xs[0]
        else:  # sop: OR of ANDs of literals
            terms = []
            for cube in g.cubes:
                lits = [x if c == "1" else neg(x) for c, x in zip(cube, xs) if c != "-"]
                terms.append(reduce(comb.AndOp, lits) if lits else const(True))
            v = reduce(comb.OrOp, terms) if terms else const(False)
        if g.op in ("nand", "nor", "xnor", "not") or (g.op == "sop" and g.offset):
            v = neg(v)
        if isinstance(v.owner, Block) or v.name_hint is not None:
            values[g.name] = v  # a buffer of an input or of a named signal: the same value
        else:
            v.name_hint = _hint(g.name)
            values[g.name] = v
    block.add_op(hw.OutputOp([values[o] for o in netlist.outputs]))
    return module


def hw_to_netlist(module: hw.HWModuleOp) -> Netlist:
    """The netlist an ``hw.module`` of ``comb`` / ``hw.constant`` / ``xbar.or`` / ``xbar.sop`` ops computes."""
    ins, outs = _port_names(module)
    block = module.body.block
    names: dict[SSAValue, str] = dict(zip(block.args, ins))
    gates: list[Gate] = []
    used = set(ins)

    def fresh(hint: str | None) -> str:
        base = hint or "n"
        name, k = base, 0
        while name in used:
            k += 1
            name = f"{base}_{k}"
        used.add(name)
        return name

    out_values: list[SSAValue] = []
    for op in block.ops:
        if isinstance(op, hw.OutputOp):
            out_values = list(op.operands)
            continue
        if len(op.results) != 1 or op.results[0].type != i1:
            raise NetlistError(f"{module.sym_name.data}: {op.name} is not a one-bit combinational op (only i1 comb logic is synthesized)")
        res = op.results[0]
        name = fresh(res.name_hint)
        names[res] = name
        fan = tuple(names[v] for v in op.operands)
        if isinstance(op, hw.ConstantOp):
            gates.append(Gate(name, "sop", (), ("",) if op.value.value.data != 0 else ()))
        elif isinstance(op, comb.AndOp):
            gates.append(Gate(name, "and", fan))
        elif isinstance(op, comb.OrOp):
            gates.append(Gate(name, "or", fan))
        elif isinstance(op, comb.XorOp):
            gates.append(Gate(name, "xor", fan))
        elif isinstance(op, OrOp):
            # OR of literals == SOP with one single-literal cube per operand
            cubes = tuple("-" * k + ("0" if n else "1") + "-" * (len(fan) - k - 1) for k, n in enumerate(op.negations))
            gates.append(Gate(name, "sop", fan, cubes, bool(op.inverted)))
        elif isinstance(op, SopOp):
            gates.append(Gate(name, "sop", fan, op.cube_strings, bool(op.complemented)))
        else:
            raise NetlistError(f"{module.sym_name.data}: {op.name} is not supported in a netlist (comb.and/or/xor, hw.constant, xbar.or, xbar.sop)")
    # a primary output that is another output's signal or an input: a buffer keeps names unique
    out_names = []
    for o_name, v in zip(outs, out_values):
        src = names[v]
        if src != o_name:
            if o_name in used:
                raise NetlistError(f"{module.sym_name.data}: output '{o_name}' clashes with a signal name")
            used.add(o_name)
            gates.append(Gate(o_name, "buf", (src,)))
        out_names.append(o_name)
    return Netlist(module.sym_name.data, tuple(ins), tuple(out_names), tuple(gates))


XBAR = Dialect("xbar", [OrOp, SopOp, LayerOp, KernelOp, OutputsOp, ProgramOp], [])
