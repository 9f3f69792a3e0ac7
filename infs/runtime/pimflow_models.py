"""The networks PIMFlow evaluates (§5: EfficientNet-B0, MnasNet, MobileNetV2,
ResNet50, VGG16 at 224x224, single batch; §6.3: BERT's FC layers) as layer
sequences for the PIMFlow runtime (``runtime/pimflow``), plus a small network
for tests.

Takes a model name (``model_layers``); gives a tuple of ``NetLayer``: its
convolutions (``conv``), depthwise convolutions (``dw``), FC layers (``fc``)
and the element-wise/pooling nodes between them (``eltwise``), in execution
order, activations fused into the layer before them (as cuDNN's fused kernels
run them).  The block tables are the models' own papers' (cited per builder).
"""

from __future__ import annotations

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
