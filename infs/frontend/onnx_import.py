"""ONNX in: an ONNX model (a file or a ``ModelProto``) -> one ``func.func`` of
``linalg`` on memrefs that ``extract-streams`` reads, with the model's weights.

Takes a single-batch float32 model of the ops in ``SUPPORTED`` (docs/onnx.md);
gives an ``OnnxProgram``: the MLIR text, the function's argument names, the
weights and the conversions between ONNX's arrays and the function's.  Every
refusal is an ``OnnxImportError`` of one line naming the file, node and op.

Layout (why): a 4-D activation ``[1, C, H, W]`` (ONNX's NCHW) is stored HWC,
the batch of one dropped — NHWC with N = 1 — because extract-streams follows
arrays of up to three dims; a conv's weights are stored ``[KH*KW*C, F]`` (the
im2col order of the weights, PIMFlow §2's conv-as-FC view) for the same
reason.  So a conv is a ``linalg.generic`` with the indexing maps of
``linalg.conv_2d_nhwc_hwcf`` less the batch dim (a 1x1 conv has matmul's,
one reduction over the channels, which tensorize runs in memory; xDSL 0.74
has no ``depthwise_conv_2d_nhwc_hwc``: depthwise and pooling are generics too), FC
layers are ``linalg.matmul``, element-wise ops ``linalg.generic``.

Weights: ``memref.global`` constants (``weights="globals"``: the module is the
whole model, ``infs-run model.mlir`` computes the model's own outputs) or
function arguments (``weights="args"``: the text stays small at full size and
the values come with the inputs; the static compiler sees the same program).
BatchNormalization after a conv with constant weights is folded into it.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

SUPPORTED = ("Conv", "Gemm", "MatMul", "Add", "Sub", "Mul", "Div", "Relu", "Clip", "Sigmoid", "Tanh", "HardSwish",
             "MaxPool", "AveragePool", "GlobalAveragePool", "BatchNormalization", "Concat", "Slice", "Pad",
             "Flatten", "Reshape", "Identity", "Dropout")


class OnnxImportError(ValueError):
    """A model infs cannot import: one line (file, node, op, what is wrong)."""


@dataclass
class Tensor:
    """An ONNX value as a memref: ``shape`` is ONNX's, ``layout[i]`` the ONNX dim
    stored at memref dim ``i`` (the dims left out have size 1)."""

    ssa: str
    shape: tuple[int, ...]
    layout: tuple[int, ...]

    @property
    def stored(self) -> tuple[int, ...]:
        return tuple(self.shape[d] for d in self.layout)


def default_layout(shape: tuple[int, ...]) -> tuple[int, ...]:
    """HWC for ``[1, C, H, W]`` (NHWC, N = 1), ONNX's own order otherwise."""
    if len(shape) == 4 and shape[0] == 1:
        return (2, 3, 1)
    return tuple(range(len(shape)))


def memref_type(stored: tuple[int, ...]) -> str:
    return f"memref<{'x'.join(str(s) for s in stored)}{'x' if stored else ''}f32>"


def _expr(terms: list[tuple[int, int]], const: int = 0) -> str:
    """``sum(coef * d_dim) + const`` as affine-map text."""
    parts = [f"d{d}" if c == 1 else f"d{d} * {c}" for c, d in terms if c != 0]
    if const or not parts:
        parts.append(str(const))
    return " + ".join(parts)


def _map(ndims: int, results: list[str]) -> str:
    dims = ", ".join(f"d{i}" for i in range(ndims))
    return f"affine_map<({dims}) -> ({', '.join(results)})>"


def _f32(v: float) -> str:
    """An f32 constant as MLIR text (hex: exact, and -inf/inf)."""
    return "0x" + np.array([v], "<f4").view("<u4")[0].item().to_bytes(4, "big").hex().upper()


@dataclass
class OnnxProgram:
    """An imported model: the MLIR ``text`` of ``function``; its arguments in order
    (``args``: ONNX inputs, then weights if they are arguments, then outputs);
    ``weights`` (name -> array as the function stores it); ``inputs``/``outputs``
    (ONNX name -> (argument name, Tensor))."""

    text: str
    function: str
    args: list[str]
    weights: dict[str, np.ndarray]
    weights_as: str
    inputs: dict[str, tuple[str, Tensor]] = field(default_factory=dict)
    outputs: dict[str, tuple[str, Tensor]] = field(default_factory=dict)

    def feed(self, onnx_inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """The function's inputs (``api.run``'s ``inputs``) for ONNX's inputs:
        activations in the function's layout, the weights if they are
        arguments, zeroed outputs."""
        feed: dict[str, np.ndarray] = {}
        for name, (arg, t) in self.inputs.items():
            if name not in onnx_inputs:
                raise OnnxImportError(f"input '{name}' of the model is not given")
            a = np.asarray(onnx_inputs[name], np.float32)
            if a.shape != t.shape:
                raise OnnxImportError(f"input '{name}': shape {list(a.shape)}, the model declares {list(t.shape)}")
            feed[arg] = to_stored(a, t)
        if self.weights_as == "args":
            feed.update({k: v.copy() for k, v in self.weights.items()})
        for arg, t in self.outputs.values():
            feed[arg] = np.zeros(t.stored, np.float32)
        return feed

    def results(self, outputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """ONNX's outputs (ONNX's shapes and layout) from a run's ``outputs``."""
        return {name: from_stored(outputs[arg], t) for name, (arg, t) in self.outputs.items()}


def to_stored(a: np.ndarray, t: Tensor) -> np.ndarray:
    """An ONNX-layout array as the memref ``t`` stores it."""
    rest = [d for d in range(a.ndim) if d not in t.layout]
    return np.ascontiguousarray(np.transpose(a, (*rest, *t.layout)).reshape(t.stored))


def from_stored(a: np.ndarray, t: Tensor) -> np.ndarray:
    """The memref ``t``'s array back in ONNX's layout."""
    rest = [d for d in range(len(t.shape)) if d not in t.layout]
    order = (*rest, *t.layout)
    full = np.asarray(a).reshape([t.shape[d] for d in order])
    return np.transpose(full, np.argsort(order))


# ---------------------------------------------------------------- reading a file


def host_memory_bytes() -> int:
    """The machine's physical memory (what a model's declared sizes are held to)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return 1 << 34


def _declared_bytes(dims, elem_bytes: int = 4) -> int:
    n = 1
    for d in dims:
        n *= max(int(d), 0)
    return n * elem_bytes


def load_model(path: str | os.PathLike):
    """Read an ONNX file, refusing (one line each) a file that is not a model,
    external data outside the model's folder, declared sizes beyond the host's
    memory; external data inside the folder is then read."""
    import onnx
    from google.protobuf.message import DecodeError

    p = Path(path)
    try:
        model = onnx.load(str(p), load_external_data=False)
    except FileNotFoundError:
        raise OnnxImportError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise OnnxImportError(f"{p}: is a directory, not an ONNX file") from None
    except (DecodeError, RuntimeError, ValueError, UnicodeDecodeError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise OnnxImportError(f"{p}: not an ONNX model (protobuf: {first})") from None
    if not model.graph.node and not model.graph.output:
        raise OnnxImportError(f"{p}: not an ONNX model (no graph: no nodes and no outputs)")
    folder = p.resolve().parent
    external = False
    for t in _all_tensors(model.graph):
        _check_size(t.name, t.dims, f"{p}: initializer '{t.name}'")
        if t.data_location == onnx.TensorProto.EXTERNAL:
            external = True
            info = {e.key: e.value for e in t.external_data}
            loc = info.get("location", "")
            target = (folder / loc).resolve()
            if not loc or os.path.isabs(loc) or (target != folder and folder not in target.parents):
                raise OnnxImportError(f"{p}: initializer '{t.name}': external data '{loc}' lies outside the model's folder {folder} (refused: an ONNX file must not make infs read other files)")
            if not target.is_file():
                raise OnnxImportError(f"{p}: initializer '{t.name}': external data file '{loc}' does not exist")
            want = int(info["length"]) if "length" in info else _declared_bytes(t.dims, _elem_bytes(t.data_type))
            have = target.stat().st_size - int(info.get("offset", 0))
            if want > have:
                raise OnnxImportError(f"{p}: initializer '{t.name}': external data '{loc}' holds {max(have, 0)} bytes from its offset, the tensor needs {want}")
    for vi in [*model.graph.input, *model.graph.output, *model.graph.value_info]:
        dims = [d.dim_value for d in vi.type.tensor_type.shape.dim if d.HasField("dim_value")]
        _check_size(vi.name, dims, f"{p}: tensor '{vi.name}'")
    if external:
        from onnx.external_data_helper import load_external_data_for_model

        load_external_data_for_model(model, str(folder))
    return model


def _elem_bytes(data_type: int) -> int:
    import onnx

    try:
        return int(onnx.helper.tensor_dtype_to_np_dtype(data_type).itemsize)
    except (KeyError, TypeError, ValueError):
        return 4


def _check_size(name: str, dims, where: str) -> None:
    need = _declared_bytes(dims)
    if need > host_memory_bytes():
        raise OnnxImportError(f"{where}: declared shape {list(dims)} needs {need / 2**30:.1f} GiB, more than this host's memory ({host_memory_bytes() / 2**30:.1f} GiB); refused before allocating")


def _all_tensors(graph):
    yield from graph.initializer
    for n in graph.node:
        for a in n.attribute:
            if a.HasField("t"):
                yield a.t


# ---------------------------------------------------------------- the importer


def _sanitize(name: str, taken: set[str], ssa: bool = True) -> str:
    """An MLIR identifier for ``name``, none in ``taken``.  An SSA name (``ssa``)
    gets a trailing ``_`` where it would end in ``_<digits>`` (xDSL's parser
    reads that as a uniquing suffix and drops it: ``%fc_484`` would be looked up
    as ``%fc``) or look like the importer's own names (``%o``, ``%a0``, ``%t12``:
    the generics' block arguments and the function's temporaries)."""
    s = re.sub(r"[^A-Za-z0-9_]", "_", name) or "v"
    if not s[0].isalpha():
        s = "t" + s
    if ssa and (re.search(r"_\d+$", s) or re.fullmatch(r"[a-z]|[a-z]+\d+", s)):
        s += "_"
    base, k = s, 1
    while s in taken:
        k += 1
        s = f"{base}_{k}_"
    taken.add(s)
    return s


class _Importer:
    def __init__(self, model, source: str, weights_as: str, function: str | None):
        import onnx

        self.onnx = onnx
        self.source = source
        self.weights_as = weights_as
        self.graph = model.graph
        self.function = _sanitize(function or model.graph.name or "model", set(), ssa=False)
        self.taken: set[str] = set()
        self.lines: list[str] = []
        self.globals: list[str] = []
        self.args: list[tuple[str, str]] = []  # (name, type)
        self.weights: dict[str, np.ndarray] = {}
        self.values: dict[str, Tensor] = {}
        self.consts: dict[str, np.ndarray] = {}
        self.counter = 0
        self.node_label = ""
        self.program = OnnxProgram("", self.function, [], self.weights, weights_as)
        self.uses: dict[str, int] = {}
        for n in self.graph.node:
            for i in n.input:
                self.uses[i] = self.uses.get(i, 0) + 1
        self.graph_outputs = {o.name for o in self.graph.output}

    def fail(self, what: str) -> OnnxImportError:
        return OnnxImportError(f"{self.source}: {self.node_label}: {what}" if self.node_label else f"{self.source}: {what}")

    # -- values
    def fresh(self, hint: str = "v") -> str:
        self.counter += 1
        return f"%{hint}{self.counter}"

    def const(self, name: str) -> np.ndarray | None:
        return self.consts.get(name)

    def weight(self, name: str, arr: np.ndarray) -> Tensor:
        """A constant array as a memref (a global or an argument), stored as given."""
        arr = np.ascontiguousarray(arr, np.float32)
        if arr.ndim == 0:
            arr = arr.reshape(1)
        key = _sanitize("w_" + name, self.taken)
        self.weights[key] = arr
        ty = memref_type(arr.shape)
        if self.weights_as == "args":
            self.args.append((key, ty))
            ssa = f"%{key}"
        else:
            hexdata = arr.astype("<f4").tobytes().hex().upper()
            tensor_ty = f"tensor<{'x'.join(str(s) for s in arr.shape)}xf32>"
            self.globals.append(f'"memref.global"() <{{sym_name = "{key}", sym_visibility = "private", type = {ty}, '
                                f'initial_value = dense<"0x{hexdata}"> : {tensor_ty}, constant}}> : () -> ()')
            ssa = self.fresh("g")
            self.lines.append(f"  {ssa} = memref.get_global @{key} : {ty}")
        return Tensor(ssa, tuple(arr.shape), tuple(range(arr.ndim)))

    def value(self, name: str) -> Tensor:
        if name in self.values:
            return self.values[name]
        if name in self.consts:
            c = self.consts[name]
            t = self.weight(name, c)
            t = Tensor(t.ssa, tuple(c.shape), tuple(range(c.ndim)))
            self.values[name] = t
            return t
        raise self.fail(f"input '{name}' is produced by no node, initializer or graph input")

    def out(self, name: str, shape: tuple[int, ...]) -> Tensor:
        """The buffer of ONNX value ``name``: the function's output argument, or an alloc."""
        shape = tuple(int(s) for s in shape)
        if len(shape) == 4 and shape[0] != 1:
            raise self.fail(f"value '{name}' has batch {shape[0]}: infs imports single-batch models")
        layout = default_layout(shape)
        if name in self.graph_outputs and name not in self.program.outputs:
            key = _sanitize(name, self.taken)
            t = Tensor(f"%{key}", shape, layout)
            self.args.append((key, memref_type(t.stored)))
            self.program.outputs[name] = (key, t)
        else:
            t = Tensor(self.fresh("t"), shape, layout)
            self.lines.append(f"  {t.ssa} = memref.alloc() : {memref_type(t.stored)}")
        self.values[name] = t
        return t

    def scratch(self, stored: tuple[int, ...]) -> str:
        ssa = self.fresh("s")
        self.lines.append(f"  {ssa} = memref.alloc() : {memref_type(stored)}")
        return ssa

    # -- linalg text
    def fill(self, value: float, buf: str, stored: tuple[int, ...]) -> None:
        c = self.fresh("c")
        self.lines.append(f"  {c} = arith.constant {_f32(value)} : f32")
        self.lines.append(f"  linalg.fill ins({c} : f32) outs({buf} : {memref_type(stored)})")

    def generic(self, ndims: int, ins: list[tuple[str, tuple[int, ...], list[str]]], out: tuple[str, tuple[int, ...], list[str]],
                reductions: int, body: list[str], args: list[str], **consts: float) -> None:
        """A ``linalg.generic``: ``ins``/``out`` are (ssa, stored shape, map results);
        the last ``reductions`` dims reduce; ``body`` computes ``%r`` from ``args``
        (the block's argument names, ins then out)."""
        for cname, cval in consts.items():  # scalars the body uses (%zero, %alpha, ...), defined before the op
            self.lines.append(f"  %{cname}{self.counter + 1} = arith.constant {_f32(0.0 if cval is True else float(cval))} : f32")
            self.counter += 1
            body = [re.sub(rf"%{cname}\b", f"%{cname}{self.counter}", line) for line in body]
        maps = ", ".join(_map(ndims, m) for _, _, m in [*ins, out])
        iters = ", ".join(['"parallel"'] * (ndims - reductions) + ['"reduction"'] * reductions)
        ins_text = f"ins({', '.join(s for s, _, _ in ins)} : {', '.join(memref_type(t) for _, t, _ in ins)}) " if ins else ""
        self.lines.append(f"  linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iters}]}} {ins_text}outs({out[0]} : {memref_type(out[1])}) {{")
        self.lines.append(f"  ^bb0({', '.join(f'{a}: f32' for a in args)}):")
        self.lines.extend(f"    {line}" for line in body)
        self.lines.append("    linalg.yield %r : f32")
        self.lines.append("  }")

    def bcast_map(self, x: Tensor, o: Tensor) -> list[str]:
        """``x``'s indices over ``o``'s stored dims, numpy broadcasting on ONNX's shapes."""
        off = len(o.shape) - len(x.shape)
        res = []
        for d in x.layout:
            od = d + off
            if x.shape[d] == 1 and o.shape[od] != 1 or od not in o.layout:
                res.append("0")
            else:
                res.append(f"d{o.layout.index(od)}")
        return res

    # -- the graph
    def run(self) -> OnnxProgram:
        onnx = self.onnx
        from onnx import numpy_helper

        for init in self.graph.initializer:
            if init.data_type != onnx.TensorProto.FLOAT and init.data_type != onnx.TensorProto.INT64:
                raise self.fail(f"initializer '{init.name}': element type {onnx.TensorProto.DataType.Name(init.data_type)} (infs imports float32 models; int64 for shapes and axes)")
            self.consts[init.name] = numpy_helper.to_array(init)
        shapes = {}
        for vi in [*self.graph.input, *self.graph.value_info, *self.graph.output]:
            tt = vi.type.tensor_type
            if not tt.HasField("shape") or any(not d.HasField("dim_value") for d in tt.shape.dim):
                continue
            shapes[vi.name] = (tuple(d.dim_value for d in tt.shape.dim), tt.elem_type)
        self.shapes = shapes
        for vi in self.graph.input:
            if vi.name in self.consts:
                continue
            if vi.name not in shapes:
                raise self.fail(f"graph input '{vi.name}' has no static shape (give every dim a number)")
            shape, elem = shapes[vi.name]
            if elem != onnx.TensorProto.FLOAT:
                raise self.fail(f"graph input '{vi.name}': element type {onnx.TensorProto.DataType.Name(elem)} (infs imports float32 models)")
            if len(shape) == 4 and shape[0] != 1:
                raise self.fail(f"graph input '{vi.name}' has batch {shape[0]}: infs imports single-batch models")
            key = _sanitize(vi.name, self.taken)
            t = Tensor(f"%{key}", shape, default_layout(shape))
            self.args.append((key, memref_type(t.stored)))
            self.values[vi.name] = t
            self.program.inputs[vi.name] = (key, t)
        self.fold_batchnorms()
        for i, node in enumerate(self.graph.node):
            self.node_label = f"node {i} '{node.name or node.output[0]}' ({node.op_type})"
            if node.output[0] in self.bn_skip:
                continue
            if node.domain not in ("", "ai.onnx"):
                raise self.fail(f"op '{node.domain}.{node.op_type}' is not supported (infs imports the default ONNX domain)")
            handler = getattr(self, f"op_{node.op_type}", None)
            if handler is None:
                raise self.fail(f"op '{node.op_type}' is not supported (supported: {', '.join(SUPPORTED)})")
            for o in node.output:
                if o and o not in shapes:
                    raise self.fail(f"cannot infer the shape of its output '{o}' (infs needs every shape static)")
            handler(node, {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute})
        self.node_label = ""
        for o in self.graph.output:
            if o.name not in self.program.outputs:
                src = self.values.get(o.name)
                if src is None:
                    raise self.fail(f"graph output '{o.name}' is produced by no node")
                self.copy_into(o.name, src)
        order = [a for a, _ in self.args]
        self.program.args = order
        sig = ", ".join(f"%{a}: {t}" for a, t in self.args)
        text = "\n".join([*self.globals, f"func.func @{self.function}({sig}) {{", *self.lines, "  func.return", "}", ""])
        self.program.text = text
        return self.program

    def copy_into(self, name: str, src: Tensor) -> None:
        o = self.out(name, src.shape)
        self.generic(len(o.stored), [(src.ssa, src.stored, self.bcast_map(src, o))], (o.ssa, o.stored, [f"d{i}" for i in range(len(o.stored))]),
                     0, ["%r = arith.addf %a, %zero : f32"], ["%a", "%o"], zero=True)

    def shape_of(self, name: str) -> tuple[int, ...]:
        if name in self.consts:
            return tuple(self.consts[name].shape)
        if name in self.shapes:
            return self.shapes[name][0]
        if name in self.values:
            return self.values[name].shape
        raise self.fail(f"cannot infer the shape of '{name}'")

    def fold_batchnorms(self) -> None:
        """A BatchNormalization whose input is a conv's only use, the conv's weights
        and the BN's parameters constants: the conv's weights and bias absorb it
        (W' = W * g / sqrt(v + eps), b' = (b - m) * g / sqrt(v + eps) + beta)."""
        producer = {o: n for n in self.graph.node for o in n.output}
        # keyed by the nodes' first output (unique in an ONNX graph): protobuf hands out a new
        # wrapper object per access, so id(node) does not name a node across iterations
        self.bn_fold: dict[str, tuple[np.ndarray, np.ndarray, str]] = {}
        self.bn_skip: set[str] = set()
        for bn in self.graph.node:
            if bn.op_type != "BatchNormalization" or len(bn.output) != 1:
                continue
            conv = producer.get(bn.input[0])
            params = [self.consts.get(x) for x in bn.input[1:5]]
            has_b = conv is not None and len(conv.input) > 2 and bool(conv.input[2])
            if (conv is None or conv.op_type != "Conv" or self.uses.get(bn.input[0], 0) != 1 or bn.input[0] in self.graph_outputs
                    or any(p is None for p in params) or conv.input[1] not in self.consts or (has_b and conv.input[2] not in self.consts)):
                continue
            eps = next((a.f for a in bn.attribute if a.name == "epsilon"), 1e-5)
            gamma, beta, mean, var = (np.asarray(p, np.float64) for p in params)
            scale = gamma / np.sqrt(var + eps)
            w = np.asarray(self.consts[conv.input[1]], np.float64)
            b = np.asarray(self.consts[conv.input[2]], np.float64) if has_b else np.zeros(w.shape[0])
            self.bn_fold[conv.output[0]] = ((w * scale[:, None, None, None]).astype(np.float32), ((b - mean) * scale + beta).astype(np.float32), bn.output[0])
            self.bn_skip.add(bn.output[0])

    # -- the ops (ONNX operator semantics: onnx/docs/Operators.md)
    def _ints(self, attrs: dict, key: str, default: list[int]) -> list[int]:
        v = attrs.get(key)
        return [int(x) for x in v] if v is not None else list(default)

    def _padded(self, x: Tensor, pads: list[int], value: float) -> tuple[str, tuple[int, ...], tuple[int, int]]:
        """``x`` (HWC) in a buffer ``pads`` = [top, left, bottom, right] larger, the
        border ``value``: the window ops then read no index outside an array.
        Gives the buffer, its shape and the shift of the windows' first row and
        column: a side padded only at its end gets one more cell in front (linalg's
        verifier holds a plain dim to one size across operands)."""
        if not any(pads):
            return x.ssa, x.stored, (0, 0)
        shift = (int(pads[0] == 0 and pads[2] > 0), int(pads[1] == 0 and pads[3] > 0))
        top, left = pads[0] + shift[0], pads[1] + shift[1]
        h, w, c = x.stored
        stored = (h + top + pads[2], w + left + pads[3], c)
        buf = self.scratch(stored)
        self.fill(value, buf, stored)
        self._place(x, buf, stored, [top, left, 0])
        return buf, stored, shift

    def _place(self, x: Tensor, buf: str, stored: tuple[int, ...], offsets: list[int]) -> None:
        """Copy ``x`` into ``buf`` at ``offsets``.  linalg's verifier holds a plain
        dim to one size across operands, so a dim placed at 0 in a larger buffer
        is written as ``d + u``, ``u`` a loop of one trip (a one-cell operand
        gives its range)."""
        r = len(x.stored)
        res = [f"d{i} + d{r}" if off == 0 and stored[i] != x.stored[i] else _expr([(1, i)], off) for i, off in enumerate(offsets)]
        unit = self.scratch((1,))
        self.generic(r + 1, [(x.ssa, x.stored, [f"d{i}" for i in range(r)]), (unit, (1,), [f"d{r}"])], (buf, stored, res), 0,
                     ["%r = arith.addf %a, %zero : f32"], ["%a", "%u", "%o"], zero=True)

    def _window(self, node, attrs: dict, x: Tensor, kernel: list[int]) -> tuple[list[int], list[int], list[int]]:
        if len(x.shape) != 4:
            raise self.fail(f"input of rank {len(x.shape)}: infs imports 2-D windows on [1, C, H, W]")
        if attrs.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
            raise self.fail(f"auto_pad={attrs['auto_pad']!r} is not supported (give explicit pads)")
        strides = self._ints(attrs, "strides", [1, 1])
        dil = self._ints(attrs, "dilations", [1, 1])
        p = self._ints(attrs, "pads", [0, 0, 0, 0])
        if any(v < 0 for v in p):
            raise self.fail(f"negative pads {p}")
        return strides, dil, [p[0], p[1], p[2], p[3]]

    def op_Conv(self, node, attrs: dict) -> None:
        x = self.value(node.input[0])
        if node.input[1] not in self.consts:
            raise self.fail("weights that are not an initializer (infs imports inference models with constant weights)")
        fold = self.bn_fold.get(node.output[0])
        w = fold[0] if fold else self.consts[node.input[1]].astype(np.float32)
        b = fold[1] if fold else (self.consts.get(node.input[2]) if len(node.input) > 2 and node.input[2] else None)
        if len(node.input) > 2 and node.input[2] and b is None:
            raise self.fail("a bias that is not an initializer")
        name = fold[2] if fold else node.output[0]
        if w.ndim != 4:
            raise self.fail(f"weights of rank {w.ndim}: infs imports 2-D convs")
        F, Cg, KH, KW = (int(s) for s in w.shape)
        G = int(attrs.get("group", 1))
        strides, dil, pads = self._window(node, attrs, x, [KH, KW])
        C = x.shape[1]
        if C != Cg * G or F % G:
            raise self.fail(f"{C} input channels, {G} groups and weights {list(w.shape)} disagree")
        src, stored, sh = self._padded(x, pads, 0.0)
        o = self.out(name, self.shape_of(node.output[0]) if not fold else self.shape_of(name))
        OH, OW, _ = o.stored
        if b is not None:
            bt = self.weight(node.input[2] if not fold else name + "_bias", np.asarray(b, np.float32).reshape(F))
            self.generic(3, [(bt.ssa, bt.stored, ["d2"])], (o.ssa, o.stored, ["d0", "d1", "d2"]), 0, ["%r = arith.addf %a, %zero : f32"], ["%a", "%o"], zero=True)
        else:
            self.fill(0.0, o.ssa, o.stored)
        ih = lambda kd: _expr([(strides[0], 0), (dil[0], kd)], sh[0])  # noqa: E731
        iw = lambda kd: _expr([(strides[1], 1), (dil[1], kd)], sh[1])  # noqa: E731
        mac = ["%m = arith.mulf %a, %b : f32", "%r = arith.addf %o, %m : f32"]
        if G == 1 and (KH, KW) == (1, 1):
            # a 1x1 conv is an FC layer over the pixels (PIMFlow §2): (oh, ow, f, c), one
            # reduction, as linalg.matmul's (m, n, k) with m split in two; weights [C, F]
            wt = self.weight(node.input[1], np.transpose(w[:, :, 0, 0], (1, 0)))
            self.generic(4, [(src, stored, [_expr([(strides[0], 0)], sh[0]), _expr([(strides[1], 1)], sh[1]), "d3"]), (wt.ssa, wt.stored, ["d3", "d2"])],
                         (o.ssa, o.stored, ["d0", "d1", "d2"]), 1, mac, ["%a", "%b", "%o"])
        elif G == 1:
            # (oh, ow, f, kh, kw, c): conv_2d_nhwc_hwcf's maps without n; weights [KH*KW*C, F]
            # (a shape-only window operand names kh, kw's ranges: linalg's maps must be invertible)
            wt = self.weight(node.input[1], np.transpose(w, (2, 3, 1, 0)).reshape(KH * KW * C, F))
            win = self.scratch((KH, KW))
            self.generic(6, [(src, stored, [ih(3), iw(4), "d5"]), (wt.ssa, wt.stored, [f"d3 * {KW * C} + d4 * {C} + d5", "d2"]), (win, (KH, KW), ["d3", "d4"])],
                         (o.ssa, o.stored, ["d0", "d1", "d2"]), 3, mac, ["%a", "%b", "%k", "%o"])
        elif G == C and F == C:
            # depthwise (oh, ow, c, kh, kw): depthwise_conv_2d_nhwc_hwc's maps without n
            wt = self.weight(node.input[1], np.transpose(w[:, 0], (1, 2, 0)))
            self.generic(5, [(src, stored, [ih(3), iw(4), "d2"]), (wt.ssa, wt.stored, ["d3", "d4", "d2"])],
                         (o.ssa, o.stored, ["d0", "d1", "d2"]), 2, mac, ["%a", "%b", "%o"])
        else:
            # grouped (oh, ow, g, f, kh, kw, c); weights [G, KH*KW*Cg, F/G]
            Fg = F // G
            wt = self.weight(node.input[1], np.transpose(w.reshape(G, Fg, Cg, KH, KW), (0, 3, 4, 2, 1)).reshape(G, KH * KW * Cg, Fg))
            win = self.scratch((KH, KW, Cg, Fg))
            self.generic(7, [(src, stored, [ih(4), iw(5), f"d2 * {Cg} + d6"]), (wt.ssa, wt.stored, ["d2", f"d4 * {KW * Cg} + d5 * {Cg} + d6", "d3"]), (win, (KH, KW, Cg, Fg), ["d4", "d5", "d6", "d3"])],
                         (o.ssa, o.stored, ["d0", "d1", f"d2 * {Fg} + d3"]), 3, mac, ["%a", "%b", "%k", "%o"])
        if (OH, OW) != ((stored[0] - sh[0] - dil[0] * (KH - 1) - 1) // strides[0] + 1, (stored[1] - sh[1] - dil[1] * (KW - 1) - 1) // strides[1] + 1):
            raise self.fail(f"output {OH}x{OW} disagrees with the window ({KH}x{KW}, strides {strides}, pads {pads})")

    def _pool(self, node, attrs: dict, kind: str) -> None:
        x = self.value(node.input[0])
        kernel = self._ints(attrs, "kernel_shape", [])
        if len(kernel) != 2:
            raise self.fail(f"kernel_shape {kernel}: infs imports 2-D pooling")
        strides, dil, pads = self._window(node, attrs, x, kernel)
        o = self.out(node.output[0], self.shape_of(node.output[0]))
        OH, OW, _ = o.stored
        # ceil_mode: the last windows reach past the end; the extra cells are padding
        need_h = (OH - 1) * strides[0] + dil[0] * (kernel[0] - 1) + 1
        need_w = (OW - 1) * strides[1] + dil[1] * (kernel[1] - 1) + 1
        extra = [max(0, need_h - (x.stored[0] + pads[0] + pads[2])), max(0, need_w - (x.stored[1] + pads[1] + pads[3]))]
        full = [pads[0], pads[1], pads[2] + extra[0], pads[3] + extra[1]]
        if kind == "max":
            src, stored, sh = self._padded(x, full, float("-inf"))
            maps_in = [_expr([(strides[0], 0), (dil[0], 3)], sh[0]), _expr([(strides[1], 1), (dil[1], 4)], sh[1]), "d2"]
            win = self.scratch(tuple(kernel))  # the window's shape only (as linalg's pooling ops' kernel operand)
            self.fill(float("-inf"), o.ssa, o.stored)
            self.generic(5, [(src, stored, maps_in), (win, tuple(kernel), ["d3", "d4"])], (o.ssa, o.stored, ["d0", "d1", "d2"]), 2,
                         ["%r = arith.maximumf %o, %a : f32"], ["%a", "%b", "%o"])
            return
        src, stored, sh = self._padded(x, full, 0.0)
        maps_in = [_expr([(strides[0], 0), (dil[0], 3)], sh[0]), _expr([(strides[1], 1), (dil[1], 4)], sh[1]), "d2"]
        include = int(attrs.get("count_include_pad", 0))
        self.fill(0.0, o.ssa, o.stored)
        if include or not any(full):
            wt = self.weight(node.output[0] + "_window", np.full(kernel, 1.0 / (kernel[0] * kernel[1]), np.float32))
        else:
            wt = self.weight(node.output[0] + "_window", np.ones(kernel, np.float32))
        self.generic(5, [(src, stored, maps_in), (wt.ssa, wt.stored, ["d3", "d4"])], (o.ssa, o.stored, ["d0", "d1", "d2"]), 2,
                     ["%m = arith.mulf %a, %b : f32", "%r = arith.addf %o, %m : f32"], ["%a", "%b", "%o"])
        if not (include or not any(full)):
            # the mean over the cells inside the input: 1 / count per output cell
            inside = np.zeros(stored[:2], np.float32)
            inside[pads[0] + sh[0]:pads[0] + sh[0] + x.stored[0], pads[1] + sh[1]:pads[1] + sh[1] + x.stored[1]] = 1
            count = np.zeros((OH, OW), np.float32)
            for kh in range(kernel[0]):
                for kw in range(kernel[1]):
                    r0, c0 = sh[0] + kh * dil[0], sh[1] + kw * dil[1]
                    count += inside[r0:r0 + (OH - 1) * strides[0] + 1:strides[0], c0:c0 + (OW - 1) * strides[1] + 1:strides[1]]
            inv = self.weight(node.output[0] + "_inv_count", 1.0 / np.maximum(count, 1))
            self.generic(3, [(inv.ssa, inv.stored, ["d0", "d1"])], (o.ssa, o.stored, ["d0", "d1", "d2"]), 0,
                         ["%r = arith.mulf %o, %a : f32"], ["%a", "%o"])

    def op_MaxPool(self, node, attrs: dict) -> None:
        if len(node.output) > 1 and node.output[1]:
            raise self.fail("the Indices output is not supported")
        self._pool(node, attrs, "max")

    def op_AveragePool(self, node, attrs: dict) -> None:
        self._pool(node, attrs, "avg")

    def op_GlobalAveragePool(self, node, attrs: dict) -> None:
        x = self.value(node.input[0])
        if len(x.shape) != 4:
            raise self.fail(f"input of rank {len(x.shape)}: infs imports [1, C, H, W]")
        o = self.out(node.output[0], self.shape_of(node.output[0]))
        H, W, _ = x.stored
        self.fill(0.0, o.ssa, o.stored)
        # (c, h, w): sum of x / (H*W) into o[0, 0, c]
        self.generic(3, [(x.ssa, x.stored, ["d1", "d2", "d0"])], (o.ssa, o.stored, ["0", "0", "d0"]), 2,
                     ["%m = arith.mulf %a, %scale : f32", "%r = arith.addf %o, %m : f32"], ["%a", "%o"], scale=1.0 / (H * W))

    def op_BatchNormalization(self, node, attrs: dict) -> None:
        x = self.value(node.input[0])
        params = [self.consts.get(v) for v in node.input[1:5]]
        if any(p is None for p in params) or len(x.shape) < 2:
            raise self.fail("scale, bias, mean and var must be initializers and the input of rank >= 2")
        gamma, beta, mean, var = (np.asarray(p, np.float64) for p in params)
        scale = gamma / np.sqrt(var + float(attrs.get("epsilon", 1e-5)))
        shape = (len(scale),) + (1,) * (len(x.shape) - 2)
        s = self.weight(node.output[0] + "_scale", scale.astype(np.float32).reshape(shape))
        t = self.weight(node.output[0] + "_shift", (beta - mean * scale).astype(np.float32).reshape(shape))
        o = self.out(node.output[0], x.shape)
        s.shape, t.shape = shape, shape
        self.generic(len(o.stored), [(x.ssa, x.stored, self.bcast_map(x, o)), (s.ssa, s.stored, self.bcast_map(s, o)), (t.ssa, t.stored, self.bcast_map(t, o))],
                     (o.ssa, o.stored, [f"d{i}" for i in range(len(o.stored))]), 0,
                     ["%m = arith.mulf %a, %b : f32", "%r = arith.addf %m, %c : f32"], ["%a", "%b", "%c", "%o"])

    def _binary(self, node, op: str) -> None:
        shape = self.shape_of(node.output[0])
        ins = []
        body_args = []
        consts = {}
        for k, name in enumerate(node.input[:2]):
            c = self.consts.get(name)
            if c is not None and c.size == 1:  # a scalar: a constant in the body
                consts[f"k{k}"] = float(c.reshape(-1)[0])
                body_args.append(f"%k{k}")
            else:
                ins.append(self.value(name))
                body_args.append(f"%a{k}")
        o = self.out(node.output[0], shape)
        args = [f"%a{k}" for k, name in enumerate(node.input[:2]) if f"%a{k}" in body_args]
        self.generic(len(o.stored), [(t.ssa, t.stored, self.bcast_map(t, o)) for t in ins], (o.ssa, o.stored, [f"d{i}" for i in range(len(o.stored))]), 0,
                     [f"%r = arith.{op} {body_args[0]}, {body_args[1]} : f32"], [*args, "%o"], **consts)

    def op_Add(self, node, attrs: dict) -> None:
        self._binary(node, "addf")

    def op_Sub(self, node, attrs: dict) -> None:
        self._binary(node, "subf")

    def op_Mul(self, node, attrs: dict) -> None:
        self._binary(node, "mulf")

    def op_Div(self, node, attrs: dict) -> None:
        self._binary(node, "divf")

    def _unary(self, node, body: list[str], **consts: float) -> None:
        x = self.value(node.input[0])
        o = self.out(node.output[0], x.shape)
        self.generic(len(o.stored), [(x.ssa, x.stored, self.bcast_map(x, o))], (o.ssa, o.stored, [f"d{i}" for i in range(len(o.stored))]), 0,
                     body, ["%a", "%o"], **consts)

    def op_Relu(self, node, attrs: dict) -> None:
        self._unary(node, ["%r = arith.maximumf %a, %zero : f32"], zero=True)

    def op_Clip(self, node, attrs: dict) -> None:
        lo, hi = attrs.get("min", float("-inf")), attrs.get("max", float("inf"))
        for k, name in ((1, "min"), (2, "max")):
            if len(node.input) > k and node.input[k]:
                c = self.consts.get(node.input[k])
                if c is None:
                    raise self.fail(f"its {name} is not an initializer")
                lo, hi = (float(c), hi) if k == 1 else (lo, float(c))
        self._unary(node, ["%m = arith.maximumf %a, %lo : f32", "%r = arith.minimumf %m, %hi : f32"], lo=lo, hi=hi)

    def op_Sigmoid(self, node, attrs: dict) -> None:
        self._unary(node, ["%n = arith.negf %a : f32", "%e = math.exp %n : f32", "%d = arith.addf %e, %one : f32", "%r = arith.divf %one, %d : f32"], one=1.0)

    def op_Tanh(self, node, attrs: dict) -> None:
        self._unary(node, ["%r = math.tanh %a : f32"])

    def op_HardSwish(self, node, attrs: dict) -> None:
        # x * max(0, min(1, x / 6 + 1 / 2)) (ONNX HardSwish: HardSigmoid alpha 1/6, beta 0.5)
        self._unary(node, ["%s = arith.mulf %a, %sixth : f32", "%t = arith.addf %s, %half : f32", "%u = arith.maximumf %t, %zero : f32",
                           "%v = arith.minimumf %u, %one : f32", "%r = arith.mulf %a, %v : f32"], sixth=1.0 / 6.0, half=0.5, zero=True, one=1.0)

    def op_Identity(self, node, attrs: dict) -> None:
        self.copy_into(node.output[0], self.value(node.input[0]))

    def op_Dropout(self, node, attrs: dict) -> None:
        if len(node.output) > 1 and node.output[1]:
            raise self.fail("the mask output is not supported (inference: Dropout is the identity)")
        self.op_Identity(node, attrs)

    def _matmul(self, a: Tensor, b: Tensor, o: Tensor, trans_a: bool, trans_b: bool, alpha: float) -> None:
        if len(a.stored) == 2 and len(b.stored) == 2 and not trans_a and not trans_b and alpha == 1.0:
            self.lines.append(f"  linalg.matmul ins({a.ssa}, {b.ssa} : {memref_type(a.stored)}, {memref_type(b.stored)}) outs({o.ssa} : {memref_type(o.stored)})")
            return
        lead = len(o.stored) - 2  # (batch..., m, n, k)
        n = lead + 3
        bs = [f"d{i}" for i in range(lead)]
        m, nn, k = f"d{lead}", f"d{lead + 1}", f"d{lead + 2}"
        amap = [*bs[len(bs) - (len(a.stored) - 2):], *((k, m) if trans_a else (m, k))]
        bmap = [*bs[len(bs) - (len(b.stored) - 2):], *((nn, k) if trans_b else (k, nn))]
        body = ["%m = arith.mulf %a, %b : f32"] + (["%s = arith.mulf %m, %alpha : f32", "%r = arith.addf %o, %s : f32"] if alpha != 1.0 else ["%r = arith.addf %o, %m : f32"])
        self.generic(n, [(a.ssa, a.stored, amap), (b.ssa, b.stored, bmap)], (o.ssa, o.stored, [*bs, m, nn]), 1, body, ["%a", "%b", "%o"],
                     **({"alpha": alpha} if alpha != 1.0 else {}))

    def _plain(self, t: Tensor) -> Tensor:
        if t.layout != tuple(range(len(t.shape))):
            raise self.fail(f"an operand of shape {list(t.shape)} stored HWC: flatten or reshape it first")
        return t

    def op_MatMul(self, node, attrs: dict) -> None:
        a, b = self._plain(self.value(node.input[0])), self._plain(self.value(node.input[1]))
        if len(a.shape) < 2 or len(b.shape) < 2 or len(a.shape) > 3 or len(b.shape) > 3:
            raise self.fail(f"operands of ranks {len(a.shape)} and {len(b.shape)}: infs imports matrices (and one batch dim)")
        o = self.out(node.output[0], self.shape_of(node.output[0]))
        self.fill(0.0, o.ssa, o.stored)
        self._matmul(a, b, o, False, False, 1.0)

    def op_Gemm(self, node, attrs: dict) -> None:
        a, b = self._plain(self.value(node.input[0])), self._plain(self.value(node.input[1]))
        if len(a.shape) != 2 or len(b.shape) != 2:
            raise self.fail(f"operands of ranks {len(a.shape)} and {len(b.shape)} (Gemm takes matrices)")
        alpha, beta = float(attrs.get("alpha", 1.0)), float(attrs.get("beta", 1.0))
        o = self.out(node.output[0], self.shape_of(node.output[0]))
        if len(node.input) > 2 and node.input[2] and beta != 0.0:
            c = self.value(node.input[2])
            self.generic(2, [(c.ssa, c.stored, self.bcast_map(c, o))], (o.ssa, o.stored, ["d0", "d1"]), 0,
                         ["%r = arith.mulf %a, %beta : f32"], ["%a", "%o"], beta=beta)
        else:
            self.fill(0.0, o.ssa, o.stored)
        self._matmul(a, b, o, bool(attrs.get("transA", 0)), bool(attrs.get("transB", 0)), alpha)

    def _relayout(self, node, x: Tensor, shape: tuple[int, ...]) -> None:
        """A reshape: each element of ``x`` to the cell of its row-major (ONNX) index."""
        o = self.out(node.output[0], shape)
        r = len(x.stored)
        strides_in = [int(np.prod(x.shape[d + 1:])) for d in range(len(x.shape))]
        lin = _expr([(strides_in[d], i) for i, d in enumerate(x.layout)])
        res = []
        for d in o.layout:
            stride = int(np.prod(shape[d + 1:]))
            e = f"({lin}) floordiv {stride}" if stride > 1 else f"({lin})"
            res.append(f"({e}) mod {shape[d]}")
        self.generic(r, [(x.ssa, x.stored, [f"d{i}" for i in range(r)])], (o.ssa, o.stored, res), 0, ["%r = arith.addf %a, %zero : f32"], ["%a", "%o"], zero=True)

    def op_Flatten(self, node, attrs: dict) -> None:
        x = self.value(node.input[0])
        axis = int(attrs.get("axis", 1)) % max(len(x.shape), 1)
        self._relayout(node, x, (int(np.prod(x.shape[:axis])), int(np.prod(x.shape[axis:]))))

    def op_Reshape(self, node, attrs: dict) -> None:
        x = self.value(node.input[0])
        if node.input[1] not in self.consts:
            raise self.fail("a shape that is not an initializer (infs needs every shape static)")
        self._relayout(node, x, self.shape_of(node.output[0]))

    def op_Concat(self, node, attrs: dict) -> None:
        shape = self.shape_of(node.output[0])
        axis = int(attrs["axis"]) % len(shape)
        o = self.out(node.output[0], shape)
        off = 0
        for name in node.input:
            x = self.value(name)
            sd = o.layout.index(axis) if axis in o.layout else None
            if x.layout != o.layout:
                raise self.fail("inputs stored in different layouts")
            offs = [0] * len(o.stored)
            if sd is not None:
                offs[sd] = off
            self._place(x, o.ssa, o.stored, offs)
            off += x.shape[axis]

    def op_Slice(self, node, attrs: dict) -> None:
        x = self.value(node.input[0])
        vals = []
        for k in range(1, 5):
            if len(node.input) > k and node.input[k]:
                c = self.consts.get(node.input[k])
                if c is None:
                    raise self.fail("starts, ends, axes and steps must be initializers")
                vals.append([int(v) for v in c.reshape(-1)])
            else:
                vals.append(None)
        starts, ends, axes, steps = vals
        axes = [a % len(x.shape) for a in (axes or range(len(starts)))]
        steps = steps or [1] * len(axes)
        begin = {a: 0 for a in range(len(x.shape))}
        step = {a: 1 for a in range(len(x.shape))}
        for a, s, st in zip(axes, starts, steps):
            n = x.shape[a]
            if st == 0:
                raise self.fail("a step of 0")
            s = s + n if s < 0 else s
            begin[a] = min(max(s, 0), n - 1 if st < 0 else n)
            step[a] = st
        o = self.out(node.output[0], self.shape_of(node.output[0]))
        res = []
        for d in x.layout:
            sd = o.layout.index(d)
            res.append(_expr([(step[d], sd)], begin[d]))
        self.generic(len(o.stored), [(x.ssa, x.stored, res)], (o.ssa, o.stored, [f"d{i}" for i in range(len(o.stored))]), 0,
                     ["%r = arith.addf %a, %zero : f32"], ["%a", "%o"], zero=True)

    def op_Pad(self, node, attrs: dict) -> None:
        x = self.value(node.input[0])
        mode = attrs.get("mode", b"constant")
        if mode not in (b"constant", "constant"):
            raise self.fail(f"mode {mode!r} is not supported (constant only)")
        pads = attrs.get("pads")
        if len(node.input) > 1 and node.input[1]:
            c = self.consts.get(node.input[1])
            if c is None:
                raise self.fail("pads that are not an initializer")
            pads = c
        value = float(attrs.get("value", 0.0))
        if len(node.input) > 2 and node.input[2]:
            c = self.consts.get(node.input[2])
            if c is None:
                raise self.fail("a constant_value that is not an initializer")
            value = float(c.reshape(-1)[0])
        if len(node.input) > 3 and node.input[3]:
            raise self.fail("the axes input is not supported")
        pads = [int(p) for p in pads]
        r = len(x.shape)
        if any(p < 0 for p in pads):
            raise self.fail(f"negative pads {pads}")
        o = self.out(node.output[0], self.shape_of(node.output[0]))
        self.fill(value, o.ssa, o.stored)
        self._place(x, o.ssa, o.stored, [pads[d] for d in o.layout])
        if any(pads[d] or pads[d + r] for d in range(r) if d not in x.layout):
            raise self.fail("padding the batch dim is not supported (single batch)")


def import_model(model, source: str = "<model>", weights: str = "globals", function: str | None = None) -> OnnxProgram:
    """An ONNX ``ModelProto`` (or a path) as an ``OnnxProgram`` (module docstring)."""
    import onnx

    if weights not in ("globals", "args"):
        raise OnnxImportError(f"weights={weights!r}: 'globals' or 'args'")
    if isinstance(model, (str, os.PathLike)):
        source = str(model)
        model = load_model(model)
    for vi in [*model.graph.input, *model.graph.output, *model.graph.value_info]:
        dims = [d.dim_value for d in vi.type.tensor_type.shape.dim if d.HasField("dim_value")]
        _check_size(vi.name, dims, f"{source}: tensor '{vi.name}'")
    try:
        model = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)
        onnx.checker.check_model(model)
    except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError, ValueError, RuntimeError) as e:
        first = next((ln.strip() for ln in str(e).splitlines() if ln.strip()), type(e).__name__)
        raise OnnxImportError(f"{source}: invalid model: {first}") from None
    for vi in model.graph.value_info:
        dims = [d.dim_value for d in vi.type.tensor_type.shape.dim if d.HasField("dim_value")]
        _check_size(vi.name, dims, f"{source}: tensor '{vi.name}'")
    return _Importer(model, source, weights, function).run()
