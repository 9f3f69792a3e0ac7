"""The ``dram_pim`` dialect: Newton's commands for a DRAM-PIM memory (PIMFlow, CGO'23, §2.2, §4.1).

A ``dram_pim.layer`` is one matrix-vector layer (an FC layer, or a
convolution after im2col on NHWC data; ``dialects/dram_pim_records``) lowered
for one machine (a built-in ``DramPimConfig`` by name).  It takes three memrefs
-- the input, the weights, the output it accumulates into -- and holds, in
program order, the weight rows placed in the banks in advance and each PIM
channel's commands:

* ``place`` -- row ``row`` of bank ``j < banks`` of channel ``ch`` holds
  ``Wm[k : k + used, outputs + j]`` (one DRAM row of reduction elements);
* ``gwrite`` / ``gwrite_2`` / ``gwrite_4`` -- fill 1, 2 or 4 global buffers
  from ``buffer`` on with one vector each, gathered from the flat input at the
  ``from`` offsets: ``length`` elements, or in the strided form (PIMFlow
  §4.3.2) ``runs`` runs of ``length`` elements ``stride`` apart.  A
  ``gwrite_4`` may carry three vectors (the last buffer then holds none);
* ``g_act`` -- activate row ``row`` in every bank of bank group ``group``;
* ``comp`` -- the MACs over column I/Os ``columns [lo:hi]`` of the open rows
  against global buffer ``buffer`` (one COMP per column), into the result latches;
* ``readres`` -- read the latches of banks ``0 .. banks`` out as outputs
  ``outputs ..`` of vector ``vector`` (added to the output) and clear them.

The layer's ``weights`` form says how the weight memref is the ``(K, N)``
matrix ``Wm`` the rows are cut from (``weight_matrix``): ``kn`` (``(K, N)``,
linalg.matmul's B), ``nk`` (``(N, K)``, a matvec's matrix), ``hwcf`` (an HWCF
filter, or it reshaped to ``(KH*KW*C, F)``), ``hwc`` (a depthwise filter
``(KH, KW, C)``) and ``ghwcf`` (a grouped filter ``(G, KH*KW*C/G, F/G)``); the
last two become a block-diagonal dense filter (channel ``c`` feeds only the
outputs of its group), so a grouped convolution costs the MACs of a dense one.

Verifiers sit on each op (channel below the PIM channels, row, bank group,
buffer, column and output bounds, gathers inside the input and a buffer, the
memrefs' shapes against the layer).  ``program_of`` and ``layer_of`` convert
between a layer op and the ``Program`` record the simulator runs.
"""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar

import numpy as np
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, MemRefType, StringAttr, i64
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, prop_def, region_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, NoTerminator
from xdsl.utils.exceptions import VerifyException

from infs.dialects.dram_pim_records import COMP, DTYPES, G_ACT, GWRITE, READRES, Commands, Gathers, Layer, Placements, Program, layer_from_dims
from infs.dialects.keyword_syntax import Field, int_array, parse_fields, print_fields
from infs.dialects.syntax import parse_attributes, parse_typed_operands, print_attributes, print_typed_operands
from infs.hardware.dram_pim import ConfigError, DramPimConfig, load_dram_pim

WEIGHT_FORMS = ("kn", "nk", "hwcf", "hwc", "ghwcf")
GRANULARITIES = ("g_act", "readres", "comp")  # PIMFlow §4.3.1 channel scheduling


def _int(op: Operation, prop: str) -> int:
    a = op.properties.get(prop)
    if not isinstance(a, IntegerAttr):
        raise VerifyException(f"'{op.name}' {prop} must be an integer, got {a}")
    return a.value.data


def _ints(op: Operation, prop: str) -> tuple[int, ...]:
    a = op.properties.get(prop)
    if not isinstance(a, DenseArrayBase):
        raise VerifyException(f"'{op.name}' {prop} must be an integer array, got {a}")
    return tuple(int(v) for v in a.get_values())


def _str(op: Operation, prop: str) -> str:
    a = op.properties.get(prop)
    if not isinstance(a, StringAttr):
        raise VerifyException(f"'{op.name}' {prop} must be a string, got {a}")
    return a.data


@lru_cache(maxsize=32)
def _config(name: str) -> "DramPimConfig | str":
    try:
        return load_dram_pim(name)
    except ConfigError as e:
        return str(e)


def config_named(name: str) -> DramPimConfig:
    """The built-in machine ``name``; ``ConfigError`` (one line) if there is none."""
    cfg = _config(name)
    if isinstance(cfg, str):
        raise ConfigError(cfg)
    return cfg


def _static_shape(op: Operation, what: str, v: SSAValue) -> tuple[int, ...]:
    t = v.type
    if not isinstance(t, MemRefType) or any(d < 0 for d in t.get_shape()):
        raise VerifyException(f"'{op.name}' {what} must be a statically shaped memref, got {t}")
    return tuple(t.get_shape())


def weight_shapes(form: str, layer: Layer) -> tuple[tuple[int, ...], ...]:
    """The weight memref shapes ``form`` allows for ``layer`` (empty: the form does not fit the layer)."""
    if layer.kind == "fc":
        k, n = layer.k, layer.n
        return {"kn": ((k, n),), "nk": ((n, k),)}.get(form, ()) if (form == "nk") == layer.weights_nk else ()
    kh, kw, c, f = layer.kh, layer.kw, layer.c, layer.f
    if form == "hwcf":
        return ((kh, kw, c, f), (kh * kw * c, f))
    if form == "hwc":
        return ((kh, kw, c),) if f == c else ()
    return ()  # ghwcf: any G dividing C and F, checked by weight_groups


def weight_groups(form: str, layer: Layer, shape: tuple[int, ...]) -> int | None:
    """The group count a ``ghwcf`` weight of ``shape`` means for ``layer``, or None if it does not fit."""
    if form != "ghwcf" or layer.kind != "conv" or len(shape) != 3:
        return None
    g = shape[0]
    if g < 1 or layer.c % g or layer.f % g or shape[1:] != (layer.kh * layer.kw * (layer.c // g), layer.f // g):
        return None
    return g


def weight_matrix(form: str, w: np.ndarray, layer: Layer) -> np.ndarray:
    """The ``(K, N)`` matrix ``Wm`` of a weight array in ``form`` (block-diagonal for grouped filters)."""
    w = np.asarray(w, np.float32)
    if form == "kn":
        return w.reshape(layer.reduction, layer.outputs)
    if form == "nk":
        return w.reshape(layer.outputs, layer.reduction).T
    if form == "hwcf":
        return w.reshape(layer.reduction, layer.outputs)
    kh, kw, c, f = layer.kh, layer.kw, layer.c, layer.f
    g = c if form == "hwc" else int(w.shape[0])
    cg, fg = c // g, f // g
    # grouped as [G, KH, KW, Cg, Fg]; depthwise is G = C, Cg = Fg = 1
    wg = w.reshape(kh, kw, c).transpose(2, 0, 1).reshape(c, kh, kw, 1, 1) if form == "hwc" else w.reshape(g, kh, kw, cg, fg)
    dense = np.zeros((kh, kw, g, cg, g, fg), np.float32)
    gi = np.arange(g)
    dense[:, :, gi, :, gi, :] = wg  # (the advanced indices' axis goes first: [G, KH, KW, Cg, Fg])
    return dense.reshape(kh * kw * c, f)


# -- the layer ----------------------------------------------------------------


@irdl_op_definition
class LayerOp(IRDLOperation):
    """``dram_pim.layer "NAME" KIND [dims] DTYPE config CFG granularity G weights FORM
    ins(%x, %w : T, T) outs(%y : T) { place..., commands... }``."""

    name = "dram_pim.layer"
    input = operand_def(MemRefType)
    weights = operand_def(MemRefType)
    output = operand_def(MemRefType)
    layer_name = prop_def(StringAttr)
    kind = prop_def(StringAttr)
    dims = prop_def(DenseArrayBase)
    dtype = prop_def(StringAttr)
    config = prop_def(StringAttr)
    granularity = prop_def(StringAttr)
    weight_form = prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("config", "config", "str"),
        Field("granularity", "granularity", "str"),
        Field("weights", "weight_form", "str"),
    )

    def layer(self) -> Layer:
        try:
            return layer_from_dims(_str(self, "kind"), _ints(self, "dims"))
        except ValueError as e:
            raise VerifyException(f"'{self.name}' {e}") from None

    def machine(self) -> DramPimConfig:
        cfg = _config(_str(self, "config"))
        if isinstance(cfg, str):
            raise VerifyException(f"'{self.name}' config: {cfg}")
        return cfg

    def verify_(self) -> None:
        layer = self.layer()
        self.machine()
        if self.body.block.args:
            raise VerifyException(f"'{self.name}' body takes no block arguments (its commands name no values)")
        dtype, gran, form = _str(self, "dtype"), _str(self, "granularity"), _str(self, "weight_form")
        for what, v, choices in (("element type", dtype, DTYPES), ("granularity", gran, GRANULARITIES), ("weights form", form, WEIGHT_FORMS)):
            if v not in choices:
                raise VerifyException(f"'{self.name}' {what} '{v}' is not one of {', '.join(choices)}")
        xs, ws, ys = (_static_shape(self, w, v) for w, v in (("input", self.input), ("weights", self.weights), ("output", self.output)))
        if int(np.prod(xs)) != layer.input_elements:
            raise VerifyException(f"'{self.name}' input {list(xs)} has {int(np.prod(xs))} elements, the {layer.kind} layer reads {layer.input_elements}")
        if int(np.prod(ys)) != layer.vectors * layer.outputs:
            raise VerifyException(f"'{self.name}' output {list(ys)} has {int(np.prod(ys))} elements, the layer writes "
                                  f"{layer.vectors} x {layer.outputs} = {layer.vectors * layer.outputs}")  # fmt: skip
        allowed = weight_shapes(form, layer)
        if ws not in allowed and weight_groups(form, layer, ws) is None:
            want = " or ".join(str(list(s)) for s in allowed) if allowed else (
                "[G, KH*KW*C/G, F/G] with G dividing C and F" if form == "ghwcf" and layer.kind == "conv" else f"no shape (a {layer.kind} layer has no '{form}' weights)")
            raise VerifyException(f"'{self.name}' weights {list(ws)} do not fit the '{form}' form of the layer (expected {want})")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_identifier_or_string_literal(self.layer_name.data)
        printer.print_string(f" {self.kind.data} [{', '.join(map(str, _ints(self, 'dims')))}] {self.dtype.data}")
        print_fields(printer, self.FIELDS, dict(self.properties))
        printer.print_string(" ins")
        print_typed_operands(printer, [self.input, self.weights])
        printer.print_string(" outs")
        print_typed_operands(printer, [self.output])
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        print_attributes(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> "LayerOp":
        props: dict[str, Attribute] = {"layer_name": StringAttr(parser.parse_identifier_or_str_literal())}
        props["kind"] = StringAttr(parser.parse_identifier(" (the layer kind, fc or conv)"))
        props["dims"] = int_array(parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parser.parse_integer))
        props["dtype"] = StringAttr(parser.parse_identifier(" (the element type, bf16 or fp16)"))
        props |= parse_fields(parser, cls.FIELDS)
        parser.parse_keyword("ins")
        ins = parse_typed_operands(parser, "ins: ")
        parser.parse_keyword("outs")
        outs = parse_typed_operands(parser, "outs: ")
        if len(ins) != 2 or len(outs) != 1:
            parser.raise_error(f"dram_pim.layer takes ins(input, weights) and outs(output), got {len(ins)} and {len(outs)} operands")
        body = parser.parse_region()
        if not body.blocks:
            body.add_block(Block())
        return parse_attributes(parser, cls.create(operands=[*ins, *outs], properties=props, regions=[body]))


# -- the commands ---------------------------------------------------------------


class _Command(IRDLOperation):
    """A command of a layer: ``op.name <FIELDS>``; ``check`` verifies it against the layer."""

    FIELDS: ClassVar[tuple[Field, ...]] = ()
    traits = traits_def(HasParent(LayerOp))

    def print(self, printer: Printer) -> None:
        print_fields(printer, self.FIELDS, dict(self.properties))
        print_attributes(printer, self)

    @classmethod
    def parse(cls, parser: Parser):
        return parse_attributes(parser, cls.create(properties=parse_fields(parser, cls.FIELDS)))

    def _context(self) -> tuple[DramPimConfig, Layer] | None:
        parent = self.parent_op()
        if not isinstance(parent, LayerOp):
            return None  # (HasParent reports it)
        try:
            return parent.machine(), parent.layer()
        except VerifyException:
            return None  # (the layer's own verifier reports it)

    def verify_(self) -> None:
        ctx = self._context()
        if ctx is None:
            return
        cfg, layer = ctx
        ch = _int(self, "ch")
        if not 0 <= ch < cfg.pim_channels:
            raise VerifyException(f"'{self.name}' channel {ch} is not one of the {cfg.pim_channels} PIM channels of '{cfg.name}'")
        self.check(cfg, layer)

    def check(self, cfg: DramPimConfig, layer: Layer) -> None:
        """The command's bounds beyond its channel, against the machine and the layer
        (each command op states its own; the channel alone is checked here)."""

    def _within(self, what: str, lo: int, v: int, hi: int, of: str) -> None:
        if not lo <= v < hi:
            raise VerifyException(f"'{self.name}' {what} {v} is outside 0..{hi - 1} ({of})")

    def _outputs_of_banks(self, cfg: DramPimConfig, layer: Layer) -> None:
        """``banks`` of a channel holding the layer's outputs ``n0 ..`` (one per bank)."""
        n0, banks = _int(self, "n0"), _int(self, "banks")
        if not 1 <= banks <= cfg.banks:
            raise VerifyException(f"'{self.name}' banks {banks} is outside 1..{cfg.banks} (the banks of a channel)")
        if n0 < 0 or n0 + banks > layer.outputs:
            raise VerifyException(f"'{self.name}' outputs {n0}..{n0 + banks - 1} are not outputs of the layer (it has {layer.outputs})")


_CH = Field("ch", "ch", "int")


@irdl_op_definition
class PlaceOp(_Command):
    """``dram_pim.place ch C row R outputs N0 banks B k K0 used U``: a weight row placed in advance."""

    name = "dram_pim.place"
    ch = prop_def(IntegerAttr)
    row = prop_def(IntegerAttr)
    n0 = prop_def(IntegerAttr)
    banks = prop_def(IntegerAttr)
    k0 = prop_def(IntegerAttr)
    used = prop_def(IntegerAttr)
    FIELDS: ClassVar[tuple[Field, ...]] = (_CH, Field("row", "row", "int"), Field("outputs", "n0", "int"), Field("banks", "banks", "int"), Field("k", "k0", "int"), Field("used", "used", "int"))

    def check(self, cfg: DramPimConfig, layer: Layer) -> None:
        self._within("row", 0, _int(self, "row"), cfg.rows_per_bank, f"'{cfg.name}' has {cfg.rows_per_bank} rows per bank")
        self._outputs_of_banks(cfg, layer)
        k0, used = _int(self, "k0"), _int(self, "used")
        if not 1 <= used <= cfg.elements_per_row:
            raise VerifyException(f"'{self.name}' used {used} is outside 1..{cfg.elements_per_row} (the elements of a row)")
        if k0 < 0 or k0 + used > layer.reduction:
            raise VerifyException(f"'{self.name}' k {k0}..{k0 + used - 1} is outside the layer's reduction of {layer.reduction}")


class _GwriteOp(_Command):
    """``dram_pim.gwrite[_2|_4] ch C buffer B from [o, ..] length L [runs R stride S]``."""

    BUFFERS: ClassVar[int] = 1
    ch = prop_def(IntegerAttr)
    buffer = prop_def(IntegerAttr)
    sources = prop_def(DenseArrayBase)
    length = prop_def(IntegerAttr)
    runs = opt_prop_def(IntegerAttr)
    stride = opt_prop_def(IntegerAttr)
    FIELDS: ClassVar[tuple[Field, ...]] = (_CH, Field("buffer", "buffer", "int"), Field("from", "sources", "ints"), Field("length", "length", "int"),
              Field("runs", "runs", "int", True), Field("stride", "stride", "int", True))  # fmt: skip

    def gather(self) -> tuple[tuple[int, ...], int, int, int]:
        """(sources, runs, length, stride); the plain form is one run."""
        length = _int(self, "length")
        runs = _int(self, "runs") if self.runs is not None else 1
        stride = _int(self, "stride") if self.stride is not None else length
        return _ints(self, "sources"), runs, length, stride

    def check(self, cfg: DramPimConfig, layer: Layer) -> None:
        srcs, runs, length, stride = self.gather()
        n, want = len(srcs), self.BUFFERS
        if not (n == want or (want == 4 and n == 3)):
            raise VerifyException(f"'{self.name}' writes {want} global buffers but names {n} sources"
                                  + (" (3 or 4: a fourth buffer may stay empty)" if want == 4 else ""))  # fmt: skip
        b = _int(self, "buffer")
        if b < 0 or b + want > cfg.global_buffers:
            raise VerifyException(f"'{self.name}' buffers {b}..{b + want - 1} are not among the {cfg.global_buffers} global buffers of '{cfg.name}'")
        if (self.runs is None) != (self.stride is None):
            raise VerifyException(f"'{self.name}' strided form needs both runs and stride")
        if runs < 1 or length < 1 or stride < length:
            raise VerifyException(f"'{self.name}' gather of {runs} runs of {length} elements {stride} apart: runs and length must be positive and runs must not overlap")
        if runs * length > cfg.elements_per_row:
            raise VerifyException(f"'{self.name}' gathers {runs * length} elements, a global buffer holds {cfg.buffer_elements}")
        span = (runs - 1) * stride + length
        for o in srcs:
            if o < 0 or o + span > layer.input_elements:
                raise VerifyException(f"'{self.name}' source {o}..{o + span - 1} is outside the input's {layer.input_elements} elements")


@irdl_op_definition
class GwriteOp(_GwriteOp):
    name = "dram_pim.gwrite"
    BUFFERS: ClassVar[int] = 1


@irdl_op_definition
class Gwrite2Op(_GwriteOp):
    name = "dram_pim.gwrite_2"
    BUFFERS: ClassVar[int] = 2


@irdl_op_definition
class Gwrite4Op(_GwriteOp):
    name = "dram_pim.gwrite_4"
    BUFFERS: ClassVar[int] = 4


@irdl_op_definition
class GActOp(_Command):
    """``dram_pim.g_act ch C group G row R``: activate a row in every bank of a bank group."""

    name = "dram_pim.g_act"
    ch = prop_def(IntegerAttr)
    group = prop_def(IntegerAttr)
    row = prop_def(IntegerAttr)
    FIELDS: ClassVar[tuple[Field, ...]] = (_CH, Field("group", "group", "int"), Field("row", "row", "int"))

    def check(self, cfg: DramPimConfig, layer: Layer) -> None:
        self._within("group", 0, _int(self, "group"), cfg.bank_groups, f"'{cfg.name}' has {cfg.bank_groups} bank groups")
        self._within("row", 0, _int(self, "row"), cfg.rows_per_bank, f"'{cfg.name}' has {cfg.rows_per_bank} rows per bank")


@irdl_op_definition
class CompOp(_Command):
    """``dram_pim.comp ch C buffer B columns [lo:hi]``: one COMP per column I/O of the open rows."""

    name = "dram_pim.comp"
    ch = prop_def(IntegerAttr)
    buffer = prop_def(IntegerAttr)
    columns = prop_def(DenseArrayBase)
    FIELDS: ClassVar[tuple[Field, ...]] = (_CH, Field("buffer", "buffer", "int"), Field("columns", "columns", "range"))

    def check(self, cfg: DramPimConfig, layer: Layer) -> None:
        self._within("buffer", 0, _int(self, "buffer"), cfg.global_buffers, f"'{cfg.name}' has {cfg.global_buffers} global buffers")
        cols = _ints(self, "columns")
        if len(cols) != 2 or not 0 <= cols[0] < cols[1] <= cfg.column_ios_per_row:
            raise VerifyException(f"'{self.name}' columns {list(cols)} must be a non-empty range [lo:hi] within the {cfg.column_ios_per_row} column I/Os of a row")


@irdl_op_definition
class ReadresOp(_Command):
    """``dram_pim.readres ch C vector V outputs N0 banks B``: the latches of banks 0..B out to ``out[V, N0 ..]``."""

    name = "dram_pim.readres"
    ch = prop_def(IntegerAttr)
    vector = prop_def(IntegerAttr)
    n0 = prop_def(IntegerAttr)
    banks = prop_def(IntegerAttr)
    FIELDS: ClassVar[tuple[Field, ...]] = (_CH, Field("vector", "vector", "int"), Field("outputs", "n0", "int"), Field("banks", "banks", "int"))

    def check(self, cfg: DramPimConfig, layer: Layer) -> None:
        self._within("vector", 0, _int(self, "vector"), layer.vectors, f"the layer has {layer.vectors} vectors")
        self._outputs_of_banks(cfg, layer)


DRAM_PIM = Dialect("dram_pim", [LayerOp, PlaceOp, GwriteOp, Gwrite2Op, Gwrite4Op, GActOp, CompOp, ReadresOp], [])

_GWRITE_OPS = {1: GwriteOp, 2: Gwrite2Op, 3: Gwrite4Op, 4: Gwrite4Op}


# -- IR <-> records -------------------------------------------------------------


def _iattr(v) -> IntegerAttr:
    return _int_attr(int(v))


@lru_cache(maxsize=65536)
def _int_attr(v: int) -> IntegerAttr:
    # attributes are immutable and a layer repeats few values (channels, rows, banks): building one is slow in xDSL 0.74
    return IntegerAttr(v, i64)


def layer_of(prog: Program, x: SSAValue, w: SSAValue, y: SSAValue, weight_form: str) -> LayerOp:
    """The layer op of a ``Program`` (from ``lower_layer``) on memrefs ``x``, ``w``, ``y``."""
    cfg = prog.config
    if _config(cfg.name) != cfg:
        raise ConfigError(f"dram-pim config '{cfg.name}': only a built-in machine can be named in the IR")
    ops: list[Operation] = []
    pl = prog.placements
    for ch, row, n0, banks, k0, used in zip(*(a.tolist() for a in (pl.ch, pl.row, pl.n0, pl.banks, pl.k0, pl.used))):
        ops.append(PlaceOp.create(properties={"ch": _iattr(ch), "row": _iattr(row), "n0": _iattr(n0), "banks": _iattr(banks), "k0": _iattr(k0), "used": _iattr(used)}))
    c, ga = prog.commands, prog.gathers
    for kind, ch, a, b, cc in zip(*(v.tolist() for v in (c.kind, c.ch, c.a, c.b, c.c))):
        if kind == GWRITE:
            srcs = [int(o) for o in ga.offsets[cc][:b]]
            props = {"ch": _iattr(ch), "buffer": _iattr(a), "sources": int_array(srcs), "length": _iattr(ga.length[cc])}
            if ga.runs[cc] != 1 or ga.stride[cc] != ga.length[cc]:
                props |= {"runs": _iattr(ga.runs[cc]), "stride": _iattr(ga.stride[cc])}
            ops.append(_GWRITE_OPS[b].create(properties=props))
        elif kind == G_ACT:
            ops.append(GActOp.create(properties={"ch": _iattr(ch), "group": _iattr(a), "row": _iattr(b)}))
        elif kind == COMP:
            ops.append(CompOp.create(properties={"ch": _iattr(ch), "buffer": _iattr(a), "columns": int_array([b, b + cc])}))
        else:
            ops.append(ReadresOp.create(properties={"ch": _iattr(ch), "vector": _iattr(a), "n0": _iattr(b), "banks": _iattr(cc)}))
    props = {"layer_name": StringAttr(prog.name), "kind": StringAttr(prog.layer.kind), "dims": int_array(prog.layer.dims), "dtype": StringAttr(prog.dtype),
             "config": StringAttr(cfg.name), "granularity": StringAttr(prog.granularity), "weight_form": StringAttr(weight_form)}  # fmt: skip
    return LayerOp.create(operands=[x, w, y], properties=props, regions=[Region(Block(ops))])


def program_of(op: LayerOp) -> Program:
    """The ``Program`` record of a (verified) layer op, for ``sim/dram_pim``."""
    cfg, layer = op.machine(), op.layer()
    place: list[tuple[int, ...]] = []
    rows: list[tuple[int, int, int, int, int]] = []
    offsets: list[list[int]] = []
    gather: list[tuple[int, int, int]] = []
    for c in op.body.block.ops:
        ch = _int(c, "ch")
        if isinstance(c, PlaceOp):
            place.append(tuple(_int(c, p) for p in ("ch", "row", "n0", "banks", "k0", "used")))
        elif isinstance(c, _GwriteOp):
            srcs, runs, length, stride = c.gather()
            rows.append((GWRITE, ch, _int(c, "buffer"), len(srcs), len(offsets)))
            offsets.append([*srcs, *[-1] * (4 - len(srcs))])
            gather.append((runs, length, stride))
        elif isinstance(c, GActOp):
            rows.append((G_ACT, ch, _int(c, "group"), _int(c, "row"), 0))
        elif isinstance(c, CompOp):
            lo, hi = _ints(c, "columns")
            rows.append((COMP, ch, _int(c, "buffer"), lo, hi - lo))
        elif isinstance(c, ReadresOp):
            rows.append((READRES, ch, _int(c, "vector"), _int(c, "n0"), _int(c, "banks")))
    pa = np.asarray(place, np.int64).reshape(-1, 6)
    ga = np.asarray(gather, np.int64).reshape(-1, 3)
    gathers = Gathers(np.asarray(offsets, np.int64).reshape(-1, 4), ga[:, 0].copy(), ga[:, 1].copy(), ga[:, 2].copy())
    placements = Placements(*(pa[:, i].copy() for i in range(6)))
    return Program(op.layer_name.data, layer, op.dtype.data, cfg, Commands.from_rows(rows), gathers, placements, op.granularity.data)


def bind(op: LayerOp, x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The simulator's (flat input, ``(K, N)`` weights) from the layer's input and weight arrays."""
    layer = op.layer()
    return np.asarray(x, np.float32).ravel(), weight_matrix(op.weight_form.data, w, layer)
