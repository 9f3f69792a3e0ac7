"""The networks the PIMFlow runtime (``runtime/pimflow``) plans, as layer sequences.

Takes the layer records of an ONNX graph (``frontend/onnx_models.layers``: any
object with their fields; this module imports no frontend) and gives a tuple
of ``NetLayer`` (``from_onnx_layers``): convolutions (``conv``), depthwise
convolutions (``dw``), FC layers (``fc``) and the element-wise and pooling
nodes between them (``eltwise``), in graph order.  BatchNormalization is
folded (as ``onnx_import`` folds it), unary activations and Swish's
``x * sigmoid(x)`` are fused into the layer before them (cuDNN's fused
epilogues; PIMFlow's ``skip_activation``, Algorithm 1), reshapes are free.
Each layer says whether its output is the next layer's input (``feeds_next``),
which the pipelining patterns need.

Also the five CNNs and BERT's FC layers built by hand from their block
tables (cited per builder), which the ONNX graphs of ``onnx_models`` are
checked against (test_pimflow_runtime: the same layers, the same patterns),
and a small network for tests (``model_layers``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True)
class NetLayer:
    """One node: input ``h x w x c`` (NHWC, one image), ``f`` outputs, a square ``k x k``
    kernel of stride ``s`` and padding ``p``; an FC layer is ``h`` rows (tokens) of ``c``
    inputs; an element-wise node reads ``reads`` tensors of ``h x w x c`` and writes ``f``
    elements per pixel of its ``k``-strided output (pooling: ``k`` = ``s`` = window)."""

    name: str
    op: str  # conv, dw, fc, eltwise
    h: int
    w: int
    c: int
    f: int
    k: int = 1
    s: int = 1
    p: int = 0
    reads: int = 1
    feeds_next: bool = True  # the next layer reads this one's output (a pipeline needs it)

    @property
    def out_hw(self) -> tuple[int, int]:
        if self.op == "fc":
            return self.h, 1
        return (self.h + 2 * self.p - self.k) // self.s + 1, (self.w + 2 * self.p - self.k) // self.s + 1

    @property
    def candidate(self) -> bool:
        """A PIM candidate (§4.2.1: FC and CONV layers except depthwise)."""
        return self.op in ("conv", "fc")


def _conv(name, h, w, c, f, k=1, s=1):
    return NetLayer(name, "conv", h, w, c, f, k, s, k // 2)


def _hw(h, k, s):
    return (h + 2 * (k // 2) - k) // s + 1


def _mbconv(out: list, tag: str, h: int, c: int, f: int, t: int, k: int, s: int, se: bool) -> int:
    """An inverted residual block (MobileNetV2 §3.3, Fig. 4d): 1x1 expand (t > 1), k x k
    depthwise of stride s, [squeeze-excitation], 1x1 project, the residual add when s = 1, c = f."""
    e = c * t
    if t > 1:
        out.append(_conv(f"{tag}.expand", h, h, c, e))
    out.append(NetLayer(f"{tag}.dw", "dw", h, h, e, e, k, s, k // 2))
    h2 = _hw(h, k, s)
    if se:  # EfficientNet §4 / MnasNet §4: squeeze (pool), two FCs (1x1 convs on 1x1), excite (multiply)
        r = max(1, c // 4)
        out.append(NetLayer(f"{tag}.se_pool", "eltwise", h2, h2, e, e, h2, h2))
        out.append(_conv(f"{tag}.se_reduce", 1, 1, e, r))
        out.append(_conv(f"{tag}.se_expand", 1, 1, r, e))
        out.append(NetLayer(f"{tag}.se_mul", "eltwise", h2, h2, e, e, reads=2))
    out.append(_conv(f"{tag}.project", h2, h2, e, f))
    if s == 1 and c == f:
        out.append(NetLayer(f"{tag}.add", "eltwise", h2, h2, f, f, reads=2))
    return h2


def _mobile(stem: int, blocks, se: bool, head: int = 1280, sep_first: int = 0) -> tuple[NetLayer, ...]:
    out: list[NetLayer] = [_conv("stem", 224, 224, 3, stem, 3, 2)]
    h, c = 112, stem
    if sep_first:  # MnasNet: a separable 3x3 first block
        out.append(NetLayer("sep.dw", "dw", h, h, c, c, 3, 1, 1))
        out.append(_conv("sep.project", h, h, c, sep_first))
        c = sep_first
    for bi, (t, k, s, f, n) in enumerate(blocks):
        for i in range(n):
            h = _mbconv(out, f"b{bi}.{i}", h, c, f, t, k, s if i == 0 else 1, se)
            c = f
    out.append(_conv("head", h, h, c, head))
    out.append(NetLayer("pool", "eltwise", h, h, head, head, h, h))
    out.append(NetLayer("fc", "fc", 1, 1, head, 1000))
    return tuple(out)


def mobilenet_v2():
    """MobileNetV2 (Sandler et al., CVPR'18, Table 2): (t, k, s, c, n)."""
    return _mobile(32, [(1, 3, 1, 16, 1), (6, 3, 2, 24, 2), (6, 3, 2, 32, 3), (6, 3, 2, 64, 4), (6, 3, 1, 96, 3),
                        (6, 3, 2, 160, 3), (6, 3, 1, 320, 1)], se=False)  # fmt: skip


def efficientnet_b0():
    """EfficientNet-B0 (Tan & Le, ICML'19, Table 1): MBConv (t, k, s, c, n) with squeeze-excitation."""
    return _mobile(32, [(1, 3, 1, 16, 1), (6, 3, 2, 24, 2), (6, 5, 2, 40, 2), (6, 3, 2, 80, 3), (6, 5, 1, 112, 3),
                        (6, 5, 2, 192, 4), (6, 3, 1, 320, 1)], se=True)  # fmt: skip


def mnasnet():
    """MnasNet-B1 (Tan et al., CVPR'19, Fig. 7(b) without SE; torchvision mnasnet1_0): a separable first block, then MBConv."""
    return _mobile(32, [(3, 3, 2, 24, 3), (3, 5, 2, 40, 3), (6, 5, 2, 80, 3), (6, 3, 1, 96, 2), (6, 5, 2, 192, 4),
                        (6, 3, 1, 320, 1)], se=False, sep_first=16)  # fmt: skip


def resnet50():
    """ResNet-50 (He et al., CVPR'16, Table 1; the stride on the 3x3 as torchvision's v1.5)."""
    out = [_conv("conv1", 224, 224, 3, 64, 7, 2), NetLayer("maxpool", "eltwise", 112, 112, 64, 64, 2, 2)]
    h, c = 56, 64
    for si, (width, n) in enumerate([(64, 3), (128, 4), (256, 6), (512, 3)]):
        for i in range(n):
            s = 2 if i == 0 and si > 0 else 1
            tag = f"s{si}.{i}"
            out.append(_conv(f"{tag}.a", h, h, c, width))
            out.append(_conv(f"{tag}.b", h, h, width, width, 3, s))
            h2 = _hw(h, 3, s)
            out.append(_conv(f"{tag}.c", h2, h2, width, 4 * width))
            if i == 0:
                out.append(NetLayer(f"{tag}.down", "conv", h, h, c, 4 * width, 1, s, 0))
            out.append(NetLayer(f"{tag}.add", "eltwise", h2, h2, 4 * width, 4 * width, reads=2))
            h, c = h2, 4 * width
    out.append(NetLayer("pool", "eltwise", h, h, c, c, h, h))
    out.append(NetLayer("fc", "fc", 1, 1, c, 1000))
    return tuple(out)


def vgg16():
    """VGG-16 (Simonyan & Zisserman, ICLR'15, Table 1 configuration D)."""
    out, h, c = [], 224, 3
    for bi, (f, n) in enumerate([(64, 2), (128, 2), (256, 3), (512, 3), (512, 3)]):
        for i in range(n):
            out.append(_conv(f"conv{bi + 1}_{i + 1}", h, h, c, f, 3))
            c = f
        out.append(NetLayer(f"pool{bi + 1}", "eltwise", h, h, c, c, 2, 2))
        h //= 2
    out += [NetLayer("fc6", "fc", 1, 1, 7 * 7 * 512, 4096), NetLayer("fc7", "fc", 1, 1, 4096, 4096), NetLayer("fc8", "fc", 1, 1, 4096, 1000)]
    return tuple(out)


def bert_fc(tokens: int = 3):
    """BERT-base's FC layers of one encoder layer (Devlin et al., NAACL'19: hidden 768, FFN 3072),
    ``tokens`` input rows (PIMFlow §6.3: 1x3 and 1x64)."""
    return tuple(NetLayer(n, "fc", tokens, 1, k, f) for n, k, f in
                 [("q", 768, 768), ("k", 768, 768), ("v", 768, 768), ("out", 768, 768), ("ffn1", 768, 3072), ("ffn2", 3072, 768)])  # fmt: skip


def tiny():
    """A small network for tests: a 1x1-DW-1x1 block, a 3x3 convolution and an FC layer."""
    return (_conv("a", 8, 8, 16, 32), NetLayer("dw", "dw", 8, 8, 32, 32, 3, 1, 1), _conv("b", 8, 8, 32, 16),
            NetLayer("add", "eltwise", 8, 8, 16, 16, reads=2), _conv("c", 8, 8, 16, 16, 3), NetLayer("fc", "fc", 1, 1, 1024, 64))  # fmt: skip


MODELS = {"ENetB0": efficientnet_b0, "MnasNet": mnasnet, "MBNetV2": mobilenet_v2, "ResNet50": resnet50, "VGG16": vgg16}


def model_layers(name: str) -> tuple[NetLayer, ...]:
    if name in MODELS:
        return MODELS[name]()
    if name.startswith("BERT"):
        return bert_fc(int(name[4:] or 3))
    if name == "tiny":
        return tiny()
    raise ValueError(f"pimflow: no model '{name}' (known: {', '.join(MODELS)}, BERT<tokens>, tiny)")


_FUSED = {"BatchNormalization", "Relu", "Clip", "Sigmoid", "Tanh", "LeakyRelu", "HardSigmoid", "HardSwish", "Erf", "Identity",
          "Flatten", "Reshape", "Squeeze", "Unsqueeze", "Dropout"}  # fmt: skip
_POOLS = {"MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool"}


def from_onnx_layers(records, where: str = "model") -> tuple[NetLayer, ...]:
    """``NetLayer``s of an ONNX graph's layer records (module docstring); a node the runtime
    cannot price is a ValueError naming it."""
    producer: dict[str, str] = {}  # a value -> the kept layer it is (after fused nodes)
    sig_of: dict[str, str] = {}  # a Sigmoid's output -> its input
    out: list[NetLayer] = []
    reads_of: list[tuple[str, ...]] = []
    for r in records:
        src = tuple(producer.get(x, x) for x in r.inputs)
        if r.op == "Sigmoid":
            sig_of[r.outputs[0]] = r.inputs[0]
        swish = r.op == "Mul" and len(r.inputs) == 2 and any(sig_of.get(b) == a for a, b in (r.inputs, r.inputs[::-1]))
        if r.op in _FUSED or swish:
            for o in r.outputs:
                producer[o] = src[0] if src else o
            continue
        ish, osh = tuple(r.input_shape), tuple(r.output_shape)
        if r.op == "Conv":
            if r.kind == "grouped" or r.kernel[0] != r.kernel[1] or r.stride[0] != r.stride[1] or len(set(r.pads)) > 1 or tuple(r.dilation) != (1, 1):
                raise ValueError(f"pimflow: {where}: node '{r.name}' (Conv {r.kind}, kernel {r.kernel}, stride {r.stride}, pads {r.pads}, "
                                 f"dilation {r.dilation}): only square, evenly padded, undilated convolutions of groups 1 or depthwise")  # fmt: skip
            layer = NetLayer(r.name, "dw" if r.kind == "depthwise" else "conv", ish[2], ish[3], ish[1], osh[1], r.kernel[0], r.stride[0], r.pads[0])
        elif r.kind == "fc":
            rows = 1
            for d in ish[:-1]:
                rows *= d
            layer = NetLayer(r.name, "fc", rows, 1, ish[-1], osh[-1])
        elif r.op in _POOLS:
            k = ish[2] if r.op.startswith("Global") else r.kernel[0]
            s = ish[2] if r.op.startswith("Global") else r.stride[0]
            layer = NetLayer(r.name, "eltwise", ish[2], ish[3], ish[1], ish[1], k, s, 0 if r.op.startswith("Global") else r.pads[0])
        elif len(osh) == 4:
            layer = NetLayer(r.name, "eltwise", osh[2], osh[3], osh[1], osh[1], reads=max(1, len(r.inputs)))
        elif len(osh) >= 1:  # element-wise over rows of features (BERT's bias adds and GELU)
            rows = 1
            for d in osh[:-1]:
                rows *= d
            layer = NetLayer(r.name, "eltwise", rows, 1, osh[-1], osh[-1], reads=max(1, len(r.inputs)))
        else:
            raise ValueError(f"pimflow: {where}: node '{r.name}' ({r.op}) has no static output shape")
        out.append(layer)
        reads_of.append(src)
        for o in r.outputs:
            producer[o] = r.name
    # a layer feeds the next when the next reads its output (through fused nodes)
    return tuple(dataclasses.replace(x, feeds_next=i + 1 < len(out) and x.name in reads_of[i + 1]) for i, x in enumerate(out))
