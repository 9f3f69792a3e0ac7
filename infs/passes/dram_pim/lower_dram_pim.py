"""``lower-dram-pim``: linalg layers on memrefs -> ``dram_pim.layer`` ops (PIMFlow §2.2, §4.1, §4.3).

Takes: a module whose functions hold linalg ops on statically shaped memrefs
of f32, f16 or bf16, and options ``config=NAME`` (a built-in DRAM-PIM machine:
``pimflow``, ``newton-plus``, ``tiny-pim``; ``infs/hardware/dram_pim.py``) and
``dtype=bf16|fp16`` (the type Newton's MACs compute in).  Gives: every
multiply-accumulate layer replaced, in place, by its ``dram_pim.layer`` on
the same memrefs (weight placement and Newton commands from ``lower_layer``):

* ``linalg.matmul`` (``y[M, N] += x[M, K] B[K, N]``) and the FC generics
  ``(m, k) x (k, n)`` / ``(m, k) x (n, k)``, and matvec generics ``A[N, K] x[K]``;
* ``linalg.conv_2d_nhwc_hwcf`` (one image, N = 1) and the convolution
  generics ``infs-import-onnx`` writes (docs/onnx.md): dense (the maps of
  conv_2d_nhwc_hwcf without n, filter ``[KH*KW*C, F]``), depthwise
  (depthwise_conv_2d_nhwc_hwc's without n, filter ``[KH, KW, C]``) and
  grouped (filter ``[G, KH*KW*C/G, F/G]``) -- on the pre-padded input the
  importer allocates (PIMFlow §4.3.2), windows from its first cell.

The rest of a function (fills, bias adds, activations, pooling, copies) stays
as it is: that is the GPU's or the host's work.  A multiply-accumulate linalg
op the pass cannot lower (a dilated or transposed read, windows starting
inside the buffer, a batch of images, an element type Newton does not take, a
layer larger than the PIM channels, ...) is one ``LoweringError`` line naming
the op, its location and why: never left behind in silence.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.ops import Conv2DNhwc_HwcfOp, FillOp, MatmulOp
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, MemRefType, ModuleOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass

from infs.dialects import dram_pim
from infs.dialects.dram_pim_records import DTYPES, ConvLayer, FcLayer, Layer
from infs.hardware.dram_pim import ConfigError
from infs.passes.dram_pim.lower import lower_layer
from infs.passes.lowering_errors import LoweringError

_FLOATS = (Float32Type, Float16Type, BFloat16Type)


class _Refuse(Exception):
    """Why a multiply-accumulate op cannot be lowered (the message's tail)."""


def _linear(e: AffineExpr, ndims: int) -> tuple[list[int], int]:
    """(coefficient per dim, constant) of a sum of constant multiples of dims."""
    if isinstance(e, AffineDimExpr):
        c = [0] * ndims
        c[e.position] = 1
        return c, 0
    if isinstance(e, AffineConstantExpr):
        return [0] * ndims, e.value
    if isinstance(e, AffineBinaryOpExpr) and e.kind == AffineBinaryOpKind.Add:
        (a, x), (b, y) = _linear(e.lhs, ndims), _linear(e.rhs, ndims)
        return [p + q for p, q in zip(a, b)], x + y
    if isinstance(e, AffineBinaryOpExpr) and e.kind == AffineBinaryOpKind.Mul:
        for s, o in ((e.lhs, e.rhs), (e.rhs, e.lhs)):
            if isinstance(s, AffineConstantExpr):
                a, x = _linear(o, ndims)
                return [s.value * p for p in a], s.value * x
    raise _Refuse(f"an index {e} that is not a sum of constant multiples of loop dims")


@dataclass
class _Access:
    """One operand: its shape and, per index, (coefficients, constant)."""

    shape: tuple[int, ...]
    rows: list[tuple[list[int], int]]

    def single(self, i: int) -> int | None:
        """The dim index ``i`` is exactly (coefficient 1, no constant), else None."""
        c, k = self.rows[i]
        nz = [d for d, v in enumerate(c) if v]
        return nz[0] if k == 0 and len(nz) == 1 and c[nz[0]] == 1 else None

    def is_dims(self, dims: list[int]) -> bool:
        return len(self.rows) == len(dims) and all(self.single(i) == d for i, d in enumerate(dims))


def _memref(op: Operation, v, what: str) -> tuple[int, ...]:
    t = v.type
    if not isinstance(t, MemRefType):
        raise _Refuse(f"its {what} is a {t}, not a memref (lower-dram-pim takes linalg on memrefs)")
    if not isinstance(t.element_type, _FLOATS):
        raise _Refuse(f"its {what} holds {t.element_type}: Newton's MACs take 16-bit floats (the memrefs must be f32, f16 or bf16)")
    shape = tuple(t.get_shape())
    if any(d < 0 for d in shape):
        raise _Refuse(f"its {what} {t} has a dynamic size (a layer's shape must be static)")
    return shape


def _mac_operands(op: Operation) -> tuple[int, int] | None:
    """The block-argument indices the body multiplies, if the body is ``out + a * b`` (else None)."""
    block = op.regions[0].blocks.first if op.regions and op.regions[0].blocks else None
    if block is None:
        return None
    ops = list(block.ops)
    if len(ops) != 3 or [o.name for o in ops] != ["arith.mulf", "arith.addf", "linalg.yield"]:
        return None
    mul, add, yld = ops
    args = list(block.args)
    out = args[-1]
    if yld.operands[0] is not add.results[0] or set(add.operands) != {mul.results[0], out}:
        return None
    if not all(a in args[:-1] for a in mul.operands) or mul.operands[0] is mul.operands[1]:
        return None
    return args.index(mul.operands[0]), args.index(mul.operands[1])


def _iterators(op: Operation) -> list[str]:
    return [str(t.data.value) if hasattr(t.data, "value") else str(t.data) for t in op.get_iterator_types()]  # type: ignore[attr-defined]


def recognize(op: Operation) -> tuple[Layer, str, int, int] | None:
    """(layer, weights form, input operand, weight operand) of a linalg MAC op;
    None if ``op`` is no multiply-accumulate contraction; ``_Refuse`` if it is one that cannot be lowered."""
    if not isinstance(op, LinalgStructuredOperation) or isinstance(op, FillOp):
        return None
    iters = _iterators(op)
    if "reduction" not in iters:
        return None
    mac = _mac_operands(op)
    if mac is None:
        if isinstance(op, (MatmulOp, Conv2DNhwc_HwcfOp)):
            for i, v in enumerate(op.operands):
                _memref(op, v, f"operand {i}")
            raise _Refuse("its body is not a float multiply-accumulate")
        return None  # (pooling, sums: not a layer)
    ins, outs = list(op.inputs), list(op.outputs)  # type: ignore[attr-defined]
    if len(outs) != 1:
        raise _Refuse(f"it has {len(outs)} outputs (a layer has one)")
    maps: list[AffineMap] = [m.data for m in op.get_indexing_maps()]  # type: ignore[attr-defined]
    nd = maps[0].num_dims
    if any(m.num_symbols for m in maps):
        raise _Refuse("its indexing maps take symbols")
    acc = [_Access(_memref(op, v, f"operand {i}"), [_linear(e, nd) for e in m.results]) for i, (v, m) in enumerate(zip([*ins, *outs], maps))]
    # the sizes of the loop dims, from the indices that are one dim
    size: dict[int, int] = {}
    for a in acc:
        for i in range(len(a.rows)):
            d = a.single(i)
            if d is not None:
                size.setdefault(d, a.shape[i])
    if len(size) != nd:
        raise _Refuse("the sizes of its loops do not follow from its operands' shapes")
    out = acc[-1]
    i0, i1 = mac
    par = [d for d in range(nd) if iters[d] == "parallel"]
    red = [d for d in range(nd) if iters[d] == "reduction"]
    # the input is the multiplied operand whose index uses the output's first dim (the vectors)
    first = out.single(0)
    if first is None:
        raise _Refuse(f"its output is indexed by {out.rows[0]}, not by a loop dim")
    # (a matvec's one output index is the weights' row: there the input is the operand without it)
    uses = any(c[first] for c, _ in acc[i0].rows)
    xi, wi = (i0, i1) if uses == (len(out.rows) > 1) else (i1, i0)
    x, w = acc[xi], acc[wi]
    if len(out.rows) in (1, 2) and len(red) == 1:
        return _fc(x, w, out, par, red[0]) + (xi, wi)
    if len(out.rows) == 4:  # conv_2d_nhwc_hwcf: a batch dim n first
        n = out.single(0)
        if size[n] != 1:
            raise _Refuse(f"it convolves a batch of {size[n]} images: lower one image per op (N = 1)")
        if x.single(0) != n:
            raise _Refuse("its input's first index is not the batch dim")
        out, x = _Access(out.shape[1:], out.rows[1:]), _Access(x.shape[1:], x.rows[1:])
    if len(out.rows) == 3:
        return _conv(x, w, out, size, red) + (xi, wi)
    raise _Refuse(f"a contraction with {len(out.rows)} output indices and {len(red)} reductions is neither an FC layer nor a 2-D convolution")


def _fc(x: _Access, w: _Access, out: _Access, par: list[int], k: int) -> tuple[Layer, str]:
    if len(out.rows) == 2:  # (m, n) += (m, k) x (k, n) | (n, k)
        m, n = out.single(0), out.single(1)
        if m is None or n is None or not x.is_dims([m, k]):
            raise _Refuse("its input is not read as x[m, k] for output y[m, n] (a transposed or offset read)")
        if w.is_dims([k, n]):
            return FcLayer(x.shape[0], x.shape[1], out.shape[1]), "kn"
        if w.is_dims([n, k]):
            return FcLayer(x.shape[0], x.shape[1], out.shape[1], True), "nk"
        raise _Refuse("its weights are read neither as W[k, n] nor as W[n, k]")
    n = out.single(0)
    if n is None or not x.is_dims([k]):
        raise _Refuse("it is no matrix-vector product y[n] += A[n, k] x[k]")
    if w.is_dims([n, k]):
        return FcLayer(1, x.shape[0], out.shape[0], True), "nk"
    if w.is_dims([k, n]):
        return FcLayer(1, x.shape[0], out.shape[0]), "kn"
    raise _Refuse("its matrix is read neither as A[n, k] nor as A[k, n]")


def _window(x: _Access, i: int, o: int, red: list[int]) -> tuple[int, int | None]:
    """(stride, window dim) of the input's index ``i``: ``stride * o + kd``, no constant, no
    dilation; no window dim for a 1x1 filter (the importer writes a 1x1 conv as matmul's maps)."""
    c, k = x.rows[i]
    kds = [d for d in red if c[d]]
    if len(kds) > 1 or c[o] < 1 or any(v for d, v in enumerate(c) if d not in (o, *kds)):
        raise _Refuse(f"its input's index {i} is not 'stride x output + window' ({c}, {k})")
    if kds and c[kds[0]] != 1:
        raise _Refuse(f"it is dilated ({c[kds[0]]}): Newton's strided GWRITE reads undilated windows")
    if k:
        raise _Refuse(f"its windows start at {k} along index {i}, inside the buffer (an asymmetric pad): the lowering reads windows from the buffer's first cell")
    return c[o], (kds[0] if kds else None)


def _row(a: _Access, i: int, terms: dict[int, int]) -> bool:
    c, k = a.rows[i]
    return k == 0 and all(c[d] == terms.get(d, 0) for d in range(len(c)))


def _conv(x: _Access, w: _Access, out: _Access, size: dict[int, int], red: list[int]) -> tuple[Layer, str]:
    oh, ow = out.single(0), out.single(1)
    if oh is None or ow is None or len(x.rows) != 3:
        raise _Refuse("it is no 2-D convolution on HWC data (output [OH, OW, F], input [H, W, C])")
    sh, kh = _window(x, 0, oh, red)
    sw, kw = _window(x, 1, ow, red)
    H, W, C = x.shape
    KH, KW = (1 if d is None else size[d] for d in (kh, kw))
    win = [d for d in (kh, kw) if d is not None]
    OH, OW, F = out.shape
    f_dim, c_dim = out.single(2), x.single(2)
    if len(set(win)) < len(win) or (c_dim is not None and c_dim in win):
        raise _Refuse("one loop is both a window and a channel (or both windows) of its input: no filter layout reads it")
    if f_dim is not None and c_dim is not None and f_dim != c_dim:  # dense
        flat = {kh: KW * C, kw: C, c_dim: 1}
        flat.pop(None, None)  # type: ignore[call-overload]
        if not ((kh is not None and kw is not None and w.is_dims([kh, kw, c_dim, f_dim])) or (len(w.rows) == 2 and _row(w, 0, flat) and w.single(1) == f_dim)):
            raise _Refuse("its filter is read neither as [KH, KW, C, F] nor as [KH*KW*C, F]")
        form = "hwcf"
    elif f_dim is not None and f_dim == c_dim:  # depthwise: one channel in, one out
        if kh is None or kw is None or not w.is_dims([kh, kw, c_dim]):
            raise _Refuse("its depthwise filter is not read as [KH, KW, C]")
        form = "hwc"
    else:  # grouped: input channel g*Cg + c, output g*Fg + f, filter [g, (kh*KW + kw)*Cg + c, f]
        if len(w.rows) != 3 or w.single(0) is None or w.single(2) is None:
            raise _Refuse("its filter is read neither as [KH, KW, C, F], [KH*KW*C, F], [KH, KW, C] nor [G, KH*KW*C/G, F/G]")
        g, fg = w.single(0), w.single(2)
        cg_dims = [d for d in red if d not in win]
        if len(cg_dims) != 1:
            raise _Refuse("its grouped filter's channel loop is not found")
        cd = cg_dims[0]
        Cg, Fg = size[cd], size[fg]
        flat = {kh: KW * Cg, kw: Cg, cd: 1}
        flat.pop(None, None)  # type: ignore[call-overload]
        if not (_row(x, 2, {g: Cg, cd: 1}) and _row(out, 2, {g: Fg, fg: 1}) and _row(w, 1, flat)):
            raise _Refuse("its grouped indices are not input g*Cg + c, output g*Fg + f, filter [g, (kh*KW + kw)*Cg + c, f]")
        form = "ghwcf"
    layer = ConvLayer(H, W, C, F, KH, KW, sh, sw, 0, 0)
    if KH > H or KW > W or layer.out_hw != (OH, OW):
        raise _Refuse(f"its output {OH}x{OW} is not every {KH}x{KW} window of its {H}x{W} input at strides {sh}x{sw}")
    return layer, form


@dataclass(frozen=True)
class LowerDramPimPass(ModulePass):
    name = "lower-dram-pim"
    config: str = "pimflow"
    dtype: str = "bf16"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            cfg = dram_pim.config_named(self.config)
        except ConfigError as e:
            raise LoweringError(f"lower-dram-pim: {e}") from None
        if self.dtype not in DTYPES:
            raise LoweringError(f"lower-dram-pim: dtype '{self.dtype}' is not a type Newton computes ({' or '.join(DTYPES)})")
        count = 0
        for lop in list(op.walk()):
            try:
                found = recognize(lop)
            except _Refuse as e:
                raise LoweringError.about(lop, f"cannot be lowered to DRAM-PIM: {e}") from None
            if found is None:
                continue
            layer, form, xi, wi = found
            operands = list(lop.operands)
            name = lop.attributes.get("infs.layer")
            label = name.data if name is not None else f"layer{count}"  # type: ignore[attr-defined]
            try:
                prog = lower_layer(layer, cfg, self.dtype, label)
            except LoweringError as e:
                raise LoweringError.about(lop, str(e)) from None
            new = dram_pim.layer_of(prog, operands[xi], operands[wi], operands[-1], form)
            new.location = lop.location
            parent = lop.parent
            assert parent is not None
            parent.insert_op_before(new, lop)
            lop.detach()
            lop.erase()
            count += 1
