"""PIMFlow's evaluated models (PIMFlow §5, "Evaluated models" and "Model type
and size") as ONNX graphs built in code, and the list of a graph's layers.

Takes a model name of ``MODELS``, an input size (224 at the papers' size), a
width multiplier, a class count and a seed; gives an ``onnx.ModelProto`` of one
batch, float32, random weights drawn from the seed (He-normal, so activations
stay of order one through the depth; BatchNormalization with random
statistics after every conv, as the trained models have it, which
``infs.frontend.onnx_import`` folds into the convs -- but VGG16's, whose
configuration D has none and biases instead).  ``layers(model)`` reads
any ONNX model's nodes back as ``Layer`` records (type, shapes, kernel,
stride, pads, groups, MACs) for the cost models that split a model between a
GPU and DRAM-PIM.

The architectures, from their papers' tables (pads ``k // 2`` on both sides,
as torchvision builds them, which PIMFlow's artifact imports):

* ``mobilenetv2``: Sandler et al., CVPR'18, Table 2 (stem conv3x3/32 s2; the
  bottlenecks (t, c, n, s) = (1,16,1,1) (6,24,2,2) (6,32,3,2) (6,64,4,2)
  (6,96,3,1) (6,160,3,2) (6,320,1,1); conv1x1/1280; avgpool; the table's
  last 1x1 conv on the pooled 1x1x1280, an FC layer, as a Gemm), ReLU6, a
  residual where stride 1 keeps the channels.
* ``efficientnet-b0``: Tan & Le, ICML'19, Table 1 (stem conv3x3/32 s2; MBConv
  (expansion, kernel, c, n, s) = (1,3,16,1,1) (6,3,24,2,2) (6,5,40,2,2)
  (6,3,80,3,2) (6,5,112,3,1) (6,5,192,4,2) (6,3,320,1,1); conv1x1/1280;
  pooling; FC), squeeze-and-excitation in every MBConv (§4: "we also add
  squeeze-and-excitation optimization"; ratio 0.25 of the block's input
  channels, the reference implementation's ``se_ratio``), Swish x*sigmoid(x).
* ``mnasnet-a1``: Tan et al., CVPR'19, Fig. 7(a) (stem conv3x3/32 s2;
  SepConv3x3/16; MBConv (e, k, c, n, s, SE) = (6,3,24,2,2,-) (3,5,40,3,2,SE)
  (6,3,80,4,2,-) (6,3,112,2,1,SE) (6,5,160,3,2,SE) (6,3,320,1,1,-);
  conv1x1/1280 as the reference implementation; pooling; FC), ReLU; SE
  (Hu et al.'s squeeze-and-excitation, in the paper's search space) of
  ratio 0.25 with ReLU then a sigmoid gate.
* ``mnasnet-b1``: the same search's SE-free variant, as torchvision's
  ``mnasnet1_0`` (PIMFlow's artifact: ``mnasnet-1.0``): stem conv3x3/32 s2,
  SepConv3x3/16, MBConv (e, k, c, n, s) = (3,3,24,3,2) (3,5,40,3,2)
  (6,5,80,3,2) (6,3,96,2,1) (6,5,192,4,2) (6,3,320,1,1), conv1x1/1280, FC.
* ``resnet50``: He et al., CVPR'16, Table 1, 50-layer column (conv1 7x7/64
  s2; 3x3 max pool s2; bottlenecks [1x1 c, 3x3 c, 1x1 4c] x 3, 4, 6, 3 at c =
  64, 128, 256, 512; average pool; FC), the stride on the 3x3 conv as
  torchvision's ResNet v1.5 (4.1 GMACs; the paper's stride-on-1x1 form is
  3.8, its Table 1), a projection shortcut where the shape changes.
* ``vgg16``: Simonyan & Zisserman, ICLR'15, Table 1, configuration D (conv3x3
  64,64, M, 128,128, M, 256 x3, M, 512 x3, M, 512 x3, M; FC 4096, 4096,
  classes), ReLU; the first FC takes whatever the last pool leaves (7x7x512
  at 224).
* ``bert-base-fc``: the FC layers of one BERT-base encoder layer (Devlin et
  al., NAACL'19, §3: hidden 768, 12 heads, FFN 4 x 768 = 3072), PIMFlow's
  model-type study (§5, Fig. 16): Q, K, V from the layer's input, the output
  projection O from the attention context (softmax(QK^T)V is not an FC
  layer: it is the graph's second input), the FFN 768 -> 3072 -> 768 with
  GELU between (the tanh form of google-research/bert's ``modeling.gelu``)
  from the third input (the post-attention LayerNorm's output).  The input
  size is the sequence length (PIMFlow: 3 and 64).

The width multiplier scales every channel count (``_ch``: small test models
are the same graphs, thinner); ``classes`` sets the classifier.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


class ModelError(ValueError):
    """A model request infs cannot build: one line."""


# ---------------------------------------------------------------- the layer list


@dataclass(frozen=True)
class Layer:
    """One node of an ONNX graph.

    ``op``: the ONNX op type; ``kind``: ``"conv"`` (a KxK conv, groups 1),
    ``"pointwise"`` (1x1, groups 1), ``"depthwise"`` (groups = channels),
    ``"grouped"``, ``"fc"`` (Gemm/MatMul) or ``"other"``; ``inputs``/``outputs``:
    the ONNX value names (the graph's edges, activations first; weights left
    out); ``input_shape``/``output_shape``: ONNX's shapes (NCHW) of the first
    activation input and the output; ``weight_shape``: the weights' ONNX shape
    (``()`` if none); ``kernel``/``stride``/``dilation`` (``(1, 1)`` for FC
    and element-wise ops), ``pads`` (top, left, bottom, right), ``groups``;
    ``macs``: multiply-accumulates (convs: OH*OW*F*C/G*KH*KW; FC: M*N*K;
    0 for everything else).
    """

    name: str
    op: str
    kind: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    input_shape: tuple[int, ...]
    output_shape: tuple[int, ...]
    weight_shape: tuple[int, ...]
    kernel: tuple[int, int]
    stride: tuple[int, int]
    dilation: tuple[int, int]
    pads: tuple[int, int, int, int]
    groups: int
    macs: int


def layers(model) -> tuple[Layer, ...]:
    """Every node of ``model`` (a ``ModelProto``, or a name of ``MODELS`` built at
    its defaults) as a ``Layer``, in graph order; shapes from ONNX's shape
    inference (a shape it cannot make static is a ``ModelError``)."""
    import onnx

    if isinstance(model, str):
        model = build(model, weights=False)
    skeleton, consts = _skeleton(model)
    try:
        skeleton = onnx.shape_inference.infer_shapes(skeleton, strict_mode=True)
    except (onnx.shape_inference.InferenceError, ValueError, RuntimeError) as e:
        raise ModelError(f"{model.graph.name}: shape inference: {next((ln.strip() for ln in str(e).splitlines() if ln.strip()), type(e).__name__)}") from None
    g = skeleton.graph
    shapes: dict[str, tuple[int, ...]] = {}
    for vi in [*g.input, *g.value_info, *g.output]:
        dims = vi.type.tensor_type.shape.dim
        if all(d.HasField("dim_value") for d in dims):
            shapes[vi.name] = tuple(int(d.dim_value) for d in dims)
    for t in g.initializer:
        shapes.setdefault(t.name, tuple(int(d) for d in t.dims))
    out: list[Layer] = []
    for i, n in enumerate(g.node):
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute}
        acts = tuple(x for x in n.input if x and x not in consts)
        for o in n.output:
            if o and o not in shapes:
                raise ModelError(f"node {i} '{n.name or n.output[0]}' ({n.op_type}): the shape of '{o}' is not static")
        ish = shapes.get(acts[0], ()) if acts else ()
        osh = shapes.get(n.output[0], ())
        kernel, stride, dil, pads, groups, wsh, macs, kind = (1, 1), (1, 1), (1, 1), (0, 0, 0, 0), 1, (), 0, "other"
        if n.op_type == "Conv":
            wsh = shapes[n.input[1]]
            F, Cg, KH, KW = wsh
            groups = int(attrs.get("group", 1))
            kernel = (KH, KW)
            stride = tuple(int(s) for s in attrs.get("strides", (1, 1)))
            dil = tuple(int(s) for s in attrs.get("dilations", (1, 1)))
            pads = tuple(int(p) for p in attrs.get("pads", (0, 0, 0, 0)))
            macs = int(np.prod(osh[2:])) * F * Cg * KH * KW
            C = ish[1]
            kind = ("pointwise" if (KH, KW) == (1, 1) else "conv") if groups == 1 else ("depthwise" if groups == C == F else "grouped")
        elif n.op_type in ("Gemm", "MatMul"):
            wsh = shapes.get(n.input[1], ())
            a = shapes[n.input[0]]
            k = a[-2] if n.op_type == "Gemm" and attrs.get("transA", 0) else a[-1]
            macs = int(np.prod(osh)) * int(k)
            kind = "fc"
        elif n.op_type in ("MaxPool", "AveragePool"):
            kernel = tuple(int(k) for k in attrs["kernel_shape"])
            stride = tuple(int(s) for s in attrs.get("strides", (1, 1)))
            pads = tuple(int(p) for p in attrs.get("pads", (0, 0, 0, 0)))
        out.append(Layer(n.name or n.output[0], n.op_type, kind, acts, tuple(o for o in n.output if o), ish, osh, wsh,
                         kernel, stride, dil, pads, groups, macs))
    return tuple(out)


_WEIGHT_DOC = "a weight: shape only"


def _skeleton(model):
    """``model`` with its large initializers turned into graph inputs of their
    shapes (shape inference then copies no weights: VGG16's 553 MB would take
    seconds), and the names of every weight (initializers, shape-only inputs)."""
    import onnx

    g = model.graph
    consts = {t.name for t in g.initializer} | {vi.name for vi in g.input if vi.doc_string == _WEIGHT_DOC}
    small = [t for t in g.initializer if int(np.prod(t.dims)) <= 64]
    big = [onnx.helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)) for t in g.initializer if int(np.prod(t.dims)) > 64]
    inputs = [vi for vi in g.input if vi.name not in {b.name for b in big}]
    sk = onnx.helper.make_graph(list(g.node), g.name, [*inputs, *big], list(g.output), small)
    return onnx.helper.make_model(sk, opset_imports=list(model.opset_import), ir_version=model.ir_version), consts


def total_macs(model) -> int:
    """The sum of ``layers(model)``'s MACs."""
    return sum(layer.macs for layer in layers(model))


# ---------------------------------------------------------------- building graphs


class _Graph:
    """A graph under construction: nodes, initializers, fresh names, the seed's draws."""

    def __init__(self, name: str, seed: int, weights: bool = True):
        import onnx

        self.onnx = onnx
        self.name = name
        self.weights = weights
        self.shape_only: list = []
        self.rng = np.random.default_rng(seed)
        self.nodes: list = []
        self.inits: list = []
        self.count = 0

    def fresh(self, hint: str) -> str:
        self.count += 1
        return f"{hint}_{self.count}"

    def init(self, hint: str, arr) -> str:
        """A constant: ``arr`` an array, or a shape whose values ``draw()`` gives
        (not drawn at all for a shape-only model: a graph input of that shape)."""
        from onnx import numpy_helper

        name = self.fresh(hint)
        if isinstance(arr, tuple) and not self.weights:
            self.shape_only.append(self.onnx.helper.make_tensor_value_info(name, self.onnx.TensorProto.FLOAT, list(arr[0]), doc_string=_WEIGHT_DOC))
            return name
        if isinstance(arr, tuple):
            arr = arr[1]()
        self.inits.append(numpy_helper.from_array(np.asarray(arr) if np.ndim(arr) == 0 else np.ascontiguousarray(arr), name))
        return name

    def node(self, op: str, inputs: list[str], hint: str | None = None, **attrs) -> str:
        out = self.fresh(hint or op.lower())
        self.nodes.append(self.onnx.helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    def conv(self, x: str, cin: int, cout: int, k: int, stride: int = 1, groups: int = 1, bias: bool = False, bn: bool = True) -> str:
        ins = [x, self.init("w", self.he((cout, cin // groups, k, k), cin // groups * k * k, 2.0))]
        if bias:
            ins.append(self.init("b", self.he((cout,), 100, 1.0)))
        p = k // 2
        y = self.node("Conv", ins, "conv", kernel_shape=[k, k], strides=[stride, stride], pads=[p, p, p, p], group=groups)
        if not bn:
            return y
        params = [self.uniform(cout), self.he((cout,), 100, 1.0), self.he((cout,), 100, 1.0), self.uniform(cout)]
        return self.node("BatchNormalization", [y, *(self.init(h, v) for h, v in zip(("gamma", "beta", "mean", "var"), params))], "bn", epsilon=1e-5)

    def he(self, shape: tuple[int, ...], fan_in: int, gain: float):
        """He-normal (He et al., ICCV'15, §2.2): std sqrt(gain / fan_in); gain 2
        before a ReLU, 1 for a linear layer (std 0.1 for biases: fan_in 100)."""
        return (shape, lambda: self.rng.standard_normal(shape, dtype=np.float32) * np.float32(math.sqrt(gain / fan_in)))

    def uniform(self, n: int):
        """BN's scale and variance: uniform in [0.5, 1.5)."""
        return ((n,), lambda: self.rng.uniform(0.5, 1.5, n).astype(np.float32))

    def act(self, x: str, kind: str | None) -> str:
        if kind is None:
            return x
        if kind == "relu":
            return self.node("Relu", [x], "relu")
        if kind == "relu6":
            return self.node("Clip", [x, self.init("lo", np.float32(0.0)), self.init("hi", np.float32(6.0))], "relu6")
        if kind == "swish":  # x * sigmoid(x) (EfficientNet §4; Ramachandran et al.)
            return self.node("Mul", [x, self.node("Sigmoid", [x], "sigmoid")], "swish")
        raise AssertionError(kind)

    def fc(self, x: str, fin: int, fout: int) -> str:
        return self.node("Gemm", [x, self.init("w", self.he((fout, fin), fin, 1.0)), self.init("b", self.he((fout,), 100, 1.0))], "fc", transB=1)

    def classifier(self, x: str, c: int, classes: int) -> str:
        p = self.node("GlobalAveragePool", [x], "pool")
        return self.fc(self.node("Flatten", [p], "flatten", axis=1), c, classes)

    def se(self, x: str, c: int, squeezed: int, act: str) -> str:
        """Squeeze-and-excitation (Hu et al., CVPR'18, Fig. 2): global pool, 1x1 to
        ``squeezed`` and ``act``, 1x1 back and a sigmoid gate times ``x``."""
        s = self.node("GlobalAveragePool", [x], "se_pool")
        s = self.act(self.conv(s, c, squeezed, 1, bias=True, bn=False), act)
        s = self.node("Sigmoid", [self.conv(s, squeezed, c, 1, bias=True, bn=False)], "se_gate")
        return self.node("Mul", [x, s], "se_scale")

    def mbconv(self, x: str, cin: int, cout: int, expand: int, k: int, stride: int, act: str, se_ratio: float = 0.0) -> str:
        """MobileNetV2's inverted residual (Sandler et al. Fig. 3(b), Table 1):
        1x1 expansion (left out at expansion 1), kxk depthwise with the stride, SE
        on the expanded channels if ``se_ratio``, a linear 1x1 projection, the
        residual where stride 1 keeps the channels."""
        mid = cin * expand
        h = self.act(self.conv(x, cin, mid, 1), act) if expand != 1 else x
        h = self.act(self.conv(h, mid, mid, k, stride, groups=mid), act)
        if se_ratio:
            h = self.se(h, mid, max(1, int(cin * se_ratio)), act)
        h = self.conv(h, mid, cout, 1)
        return self.node("Add", [x, h], "residual") if stride == 1 and cin == cout else h

    def model(self, inputs: list[tuple[str, list[int]]], outputs: list[str]):
        helper = self.onnx.helper
        g = helper.make_graph(self.nodes, self.name, [*(helper.make_tensor_value_info(n, self.onnx.TensorProto.FLOAT, s) for n, s in inputs), *self.shape_only],
                              [helper.make_tensor_value_info(o, self.onnx.TensorProto.FLOAT, None) for o in outputs], self.inits)
        # not shape-inferred nor checked here: import_model does both (on 553 MB of VGG16 they take seconds)
        return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], producer_name="infs.frontend.onnx_models")


def _ch(c: int, width: float) -> int:
    """A channel count times the width multiplier, a multiple of 8 (MobileNetV2's
    ``_make_divisible``, no less than 90% of the product) at width >= 1; below
    width 1 (small test models) a multiple of 4, at least 4."""
    if width == 1.0:
        return c
    d = 8 if width > 1.0 else 4
    v = max(d, int(c * width + d / 2) // d * d)
    return v + d if v < 0.9 * c * width else v


def _cnn_input(size: int) -> tuple[str, list[int]]:
    return ("input", [1, 3, size, size])


def _mobilenet_like(name: str, size: int, width: float, classes: int, seed: int, weights: bool, blocks, act: str, se_ratio_of, sep_stem: bool):
    g = _Graph(name, seed, weights)
    c = _ch(32, width)
    x = g.act(g.conv("input", 3, c, 3, 2), act)
    if sep_stem:  # MnasNet's SepConv3x3 (Fig. 7): depthwise 3x3 + linear 1x1 to 16
        c16 = _ch(16, width)
        x = g.act(g.conv(x, c, c, 3, 1, groups=c), act)
        x = g.conv(x, c, c16, 1)
        c = c16
    for expand, k, cout, n, s, se in blocks:
        cout = _ch(cout, width)
        for i in range(n):
            x = g.mbconv(x, c, cout, expand, k, s if i == 0 else 1, act, se_ratio_of(se))
            c = cout
    last = _ch(1280, width)
    x = g.act(g.conv(x, c, last, 1), act)
    return g.model([_cnn_input(size)], [g.classifier(x, last, classes)])


def mobilenetv2(size: int = 224, width: float = 1.0, classes: int = 1000, seed: int = 0, weights: bool = True):
    """MobileNetV2 (Sandler et al., CVPR'18, Table 2; module docstring)."""
    t = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]
    return _mobilenet_like("mobilenetv2", size, width, classes, seed, weights, [(e, 3, c, n, s, False) for e, c, n, s in t], "relu6", lambda se: 0.0, False)


def efficientnet_b0(size: int = 224, width: float = 1.0, classes: int = 1000, seed: int = 0, weights: bool = True):
    """EfficientNet-B0 (Tan & Le, ICML'19, Table 1; module docstring)."""
    t = [(1, 3, 16, 1, 1), (6, 3, 24, 2, 2), (6, 5, 40, 2, 2), (6, 3, 80, 3, 2), (6, 5, 112, 3, 1), (6, 5, 192, 4, 2), (6, 3, 320, 1, 1)]
    return _mobilenet_like("efficientnet_b0", size, width, classes, seed, weights, [(*r, True) for r in t], "swish", lambda se: 0.25, False)


def mnasnet_a1(size: int = 224, width: float = 1.0, classes: int = 1000, seed: int = 0, weights: bool = True):
    """MnasNet-A1 (Tan et al., CVPR'19, Fig. 7(a); module docstring)."""
    t = [(6, 3, 24, 2, 2, False), (3, 5, 40, 3, 2, True), (6, 3, 80, 4, 2, False), (6, 3, 112, 2, 1, True), (6, 5, 160, 3, 2, True), (6, 3, 320, 1, 1, False)]
    return _mobilenet_like("mnasnet_a1", size, width, classes, seed, weights, t, "relu", lambda se: 0.25 if se else 0.0, True)


def mnasnet_b1(size: int = 224, width: float = 1.0, classes: int = 1000, seed: int = 0, weights: bool = True):
    """MnasNet-B1 as torchvision's ``mnasnet1_0`` (module docstring)."""
    t = [(3, 3, 24, 3, 2), (3, 5, 40, 3, 2), (6, 5, 80, 3, 2), (6, 3, 96, 2, 1), (6, 5, 192, 4, 2), (6, 3, 320, 1, 1)]
    return _mobilenet_like("mnasnet_b1", size, width, classes, seed, weights, [(*r, False) for r in t], "relu", lambda se: 0.0, True)


def resnet50(size: int = 224, width: float = 1.0, classes: int = 1000, seed: int = 0, weights: bool = True):
    """ResNet-50 (He et al., CVPR'16, Table 1; v1.5 strides; module docstring)."""
    g = _Graph("resnet50", seed, weights)
    c = _ch(64, width)
    x = g.act(g.conv("input", 3, c, 7, 2), "relu")
    x = g.node("MaxPool", [x], "maxpool", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    for stage, (planes, n) in enumerate(((64, 3), (128, 4), (256, 6), (512, 3))):
        p = _ch(planes, width)
        for i in range(n):
            s = 2 if i == 0 and stage > 0 else 1
            h = g.act(g.conv(x, c, p, 1), "relu")
            h = g.act(g.conv(h, p, p, 3, s), "relu")
            h = g.conv(h, p, 4 * p, 1)
            short = g.conv(x, c, 4 * p, 1, s) if i == 0 else x
            x = g.act(g.node("Add", [h, short], "residual"), "relu")
            c = 4 * p
    return g.model([_cnn_input(size)], [g.classifier(x, c, classes)])


def vgg16(size: int = 224, width: float = 1.0, classes: int = 1000, seed: int = 0, weights: bool = True):
    """VGG16 (Simonyan & Zisserman, ICLR'15, Table 1, configuration D; module docstring)."""
    if size % 32:
        raise ModelError(f"vgg16: input size {size} is not a multiple of 32 (five 2x2 pools)")
    g = _Graph("vgg16", seed, weights)
    x, c = "input", 3
    for v in (64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M"):
        if v == "M":
            x = g.node("MaxPool", [x], "maxpool", kernel_shape=[2, 2], strides=[2, 2])
            continue
        v = _ch(v, width)
        x = g.act(g.conv(x, c, v, 3, bias=True, bn=False), "relu")
        c = v
    x = g.node("Flatten", [x], "flatten", axis=1)
    fin, hidden = c * (size // 32) ** 2, _ch(4096, width)
    x = g.act(g.fc(x, fin, hidden), "relu")
    x = g.act(g.fc(x, hidden, hidden), "relu")
    return g.model([_cnn_input(size)], [g.fc(x, hidden, classes)])


def bert_base_fc(size: int = 64, width: float = 1.0, classes: int = 0, seed: int = 0, weights: bool = True):
    """BERT-base's FC layers of one encoder layer at sequence length ``size``
    (Devlin et al. §3; module docstring).  Inputs ``x``, ``context``,
    ``attention_out`` ([size, 768] each); outputs ``q``, ``k``, ``v``, ``o``,
    ``ffn``."""
    g = _Graph("bert_base_fc", seed, weights)
    hid, ffn = _ch(768, width), _ch(3072, width)

    def lin(x: str, fin: int, fout: int, hint: str) -> str:
        y = g.node("MatMul", [x, g.init("w", g.he((fin, fout), fin, 1.0))], hint)
        return g.node("Add", [y, g.init("b", g.he((fout,), 100, 1.0))], hint + "_bias")

    outs = [lin("x", hid, hid, name) for name in ("q", "k", "v")]
    outs.append(lin("context", hid, hid, "o"))
    h = lin("attention_out", hid, ffn, "ffn1")
    # GELU, tanh form (google-research/bert modeling.py gelu): 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    cube = g.node("Mul", [g.node("Mul", [h, h], "sq"), h], "cube")
    inner = g.node("Mul", [g.node("Add", [h, g.node("Mul", [cube, g.init("c", np.float32(0.044715))], "cube_c")], "sum"), g.init("c", np.float32(math.sqrt(2.0 / math.pi)))], "scaled")
    t = g.node("Add", [g.node("Tanh", [inner], "tanh"), g.init("one", np.float32(1.0))], "onep")
    h = g.node("Mul", [g.node("Mul", [h, g.init("half", np.float32(0.5))], "halfx"), t], "gelu")
    outs.append(lin(h, ffn, hid, "ffn2"))
    m = g.model([(n, [size, hid]) for n in ("x", "context", "attention_out")], outs)
    for o, name in zip(m.graph.output, ("q", "k", "v", "o", "ffn")):
        _rename(m, o.name, name)
    return m


def _rename(m, old: str, new: str) -> None:
    for n in m.graph.node:
        n.output[:] = [new if o == old else o for o in n.output]
        n.input[:] = [new if i == old else i for i in n.input]
    for vi in [*m.graph.output, *m.graph.value_info]:
        if vi.name == old:
            vi.name = new


# name -> (builder, default input size, what the input size is)
MODELS = {
    "efficientnet-b0": (efficientnet_b0, 224, "image side"),
    "mnasnet-a1": (mnasnet_a1, 224, "image side"),
    "mnasnet-b1": (mnasnet_b1, 224, "image side"),
    "mobilenetv2": (mobilenetv2, 224, "image side"),
    "resnet50": (resnet50, 224, "image side"),
    "vgg16": (vgg16, 224, "image side"),
    "bert-base-fc": (bert_base_fc, 64, "sequence length"),
}


def build(name: str, input_size: int | None = None, width: float = 1.0, classes: int = 1000, seed: int = 0, weights: bool = True):
    """The ``ModelProto`` of ``MODELS[name]`` (input size: its default if None)."""
    if name not in MODELS:
        raise ModelError(f"unknown model '{name}' (models: {', '.join(MODELS)})")
    fn, default, _ = MODELS[name]
    size = default if input_size is None else int(input_size)
    if size < 1:
        raise ModelError(f"{name}: input size {size} ({MODELS[name][2]}) is not positive")
    if not (0.0 < width <= 4.0):
        raise ModelError(f"{name}: width multiplier {width} outside (0, 4]")
    if classes < 1 and name != "bert-base-fc":
        raise ModelError(f"{name}: {classes} classes")
    return fn(size, width, classes, seed, weights)
