"""PIMFlow's models built in code (``infs.frontend.onnx_models``): their layer
counts, MACs and weights at 224 against the published figures; each imported
and run through infs (SRAM target, ``small-16``) at a tiny size against
``onnx.reference.ReferenceEvaluator`` (BERT's FC layers whole, the CNNs
through their first blocks; every model whole with ``INFS_ONNX_MODELS=all``,
5-15 s each); random convs and FC layers
(hypothesis) against the same oracle; the CLI's ``--model`` route."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402
from strategies import examples  # noqa: E402

from infs import api  # noqa: E402
from infs.frontend import onnx_models  # noqa: E402
from infs.frontend.onnx_import import import_model  # noqa: E402

ALL = os.environ.get("INFS_ONNX_MODELS", "").lower() == "all"

# name -> (conv layers, FC layers, MACs, weights (convs + FC, no biases/BN), where the figures are from)
PUBLISHED = {
    # Sandler et al. CVPR'18 Table 4: 300M multiply-adds, 3.4M parameters; torchvision mobilenet_v2: 52 Conv2d + 1 Linear, 3.5M
    "mobilenetv2": (52, 1, 300e6, 3.4e6),
    # Tan & Le ICML'19 Table 2: EfficientNet-B0 0.39B FLOPs (multiply-adds), 5.3M parameters; torchvision efficientnet_b0: 81 Conv2d
    "efficientnet-b0": (81, 1, 0.39e9, 5.3e6),
    # Tan et al. CVPR'19 Table 1: MnasNet-A1 312M multiply-adds, 3.9M parameters
    "mnasnet-a1": (65, 1, 312e6, 3.9e6),
    # torchvision mnasnet1_0 (B1, PIMFlow's mnasnet-1.0): 0.31 GFLOPS, 4.4M parameters, 52 Conv2d
    "mnasnet-b1": (52, 1, 0.314e9, 4.38e6),
    # torchvision resnet50 (v1.5): 4.09 GFLOPS, 25.6M parameters; He et al. Table 1: 49 convs + FC, 4 projections
    "resnet50": (53, 1, 4.09e9, 25.6e6),
    # Simonyan & Zisserman Table 2: 138M parameters (D); torchvision vgg16: 15.47 GFLOPS, 13 Conv2d + 3 Linear
    "vgg16": (13, 3, 15.47e9, 138e6),
    # BERT-base (Devlin et al. §3): Q, K, V, O 768x768 and the FFN 768x3072x768 per layer; at 64 tokens 64 * 7,077,888 MACs
    "bert-base-fc": (0, 6, 64 * (4 * 768 * 768 + 2 * 768 * 3072), 4 * 768 * 768 + 2 * 768 * 3072),
}


@pytest.mark.parametrize("name", list(PUBLISHED))
def test_layers_at_224_match_the_published_figures(name):
    convs, fcs, macs, params = PUBLISHED[name]
    layers = onnx_models.layers(name)
    assert sum(layer.op == "Conv" for layer in layers) == convs
    assert sum(layer.kind == "fc" for layer in layers) == fcs
    assert abs(sum(layer.macs for layer in layers) / macs - 1) < 0.02
    weights = sum(int(np.prod(layer.weight_shape)) for layer in layers if layer.op in ("Conv", "Gemm", "MatMul"))
    assert abs(weights / params - 1) < 0.03
    assert all(isinstance(layer, onnx_models.Layer) for layer in layers)
    with pytest.raises(AttributeError):
        layers[0].macs = 0  # frozen


def test_layer_records_of_mobilenetv2():
    layers = onnx_models.layers("mobilenetv2")
    stem, first_dw = layers[0], next(layer for layer in layers if layer.kind == "depthwise")
    assert (stem.kind, stem.input_shape, stem.output_shape, stem.kernel, stem.stride, stem.pads) == ("conv", (1, 3, 224, 224), (1, 32, 112, 112), (3, 3), (2, 2), (1, 1, 1, 1))
    assert stem.macs == 112 * 112 * 32 * 3 * 9
    assert (first_dw.groups, first_dw.weight_shape, first_dw.macs) == (32, (32, 1, 3, 3), 112 * 112 * 32 * 9)
    assert [layer.op for layer in layers[:4]] == ["Conv", "BatchNormalization", "Clip", "Conv"] and first_dw is layers[3]
    assert first_dw.inputs == layers[2].outputs and layers[2].inputs == layers[1].outputs  # the graph's edges, weights left out
    fc = layers[-1]
    assert (fc.op, fc.kind, fc.input_shape, fc.output_shape, fc.macs) == ("Gemm", "fc", (1, 1280), (1, 1000), 1_280_000)
    # Sandler et al. Table 2: the 7x7x160 -> 7x7x960 expansions of the last stage
    assert sum(layer.kind == "pointwise" and layer.input_shape == (1, 160, 7, 7) and layer.output_shape == (1, 960, 7, 7) for layer in layers) == 3


def test_shape_only_and_full_models_list_the_same_layers():
    for name in onnx_models.MODELS:
        size = 3 if name == "bert-base-fc" else 32
        full = onnx_models.build(name, size, 0.25, classes=10)
        assert onnx_models.layers(full) == onnx_models.layers(onnx_models.build(name, size, 0.25, classes=10, weights=False))


def test_seed_decides_the_weights():
    def w(seed):
        m = onnx_models.build("mobilenetv2", 16, 0.25, classes=10, seed=seed)
        return np.concatenate([numpy_helper.to_array(t).ravel() for t in m.graph.initializer])

    a, b, c = w(3), w(3), w(4)
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_bad_requests_one_line():
    for kwargs, match in [({"name": "alexnet"}, "unknown model 'alexnet'"), ({"name": "vgg16", "input_size": 48}, "not a multiple of 32"),
                          ({"name": "resnet50", "input_size": 0}, "not positive"), ({"name": "resnet50", "width": 0.0}, "width multiplier"),
                          ({"name": "resnet50", "classes": 0}, "0 classes")]:
        with pytest.raises(onnx_models.ModelError, match=match):
            onnx_models.build(**kwargs)
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "m", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, "n"])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    with pytest.raises(onnx_models.ModelError, match=r"node 0 'y' \(Relu\): the shape of 'y' is not static"):
        onnx_models.layers(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]))


# ---------------------------------------------------------------- run through infs


def _run(m, mode: str = "in"):
    """``m`` imported and run on small-16 against onnx.reference; the regions' modes."""
    rng = np.random.default_rng(1)
    feeds = {i.name: rng.standard_normal([d.dim_value for d in i.type.tensor_type.shape.dim]).astype(np.float32) for i in m.graph.input}
    want = ReferenceEvaluator(m).run(None, feeds)
    p = import_model(m)
    res = api.run(p.text, p.feed(feeds), config="small-16", mode=mode)
    got = p.results(res.outputs)
    for o, w in zip(m.graph.output, want):
        assert got[o.name].shape == w.shape
        np.testing.assert_allclose(got[o.name], w, rtol=1e-4, atol=1e-4 * max(1.0, float(np.abs(w).max())), err_msg=o.name)
    return [r.mode for r in res.regions]


def _prefix(m, hint: str, nth: int = 1):
    """``m``'s nodes up to the ``nth`` whose name starts with ``hint``, its output the graph's."""
    idx = [i for i, n in enumerate(m.graph.node) if n.name.startswith(hint)][nth - 1]
    nodes = list(m.graph.node[:idx + 1])
    used = {x for n in nodes for x in n.input}
    g = helper.make_graph(nodes, m.graph.name, list(m.graph.input), [helper.make_tensor_value_info(nodes[-1].output[0], TensorProto.FLOAT, None)],
                          [t for t in m.graph.initializer if t.name in used])
    return helper.make_model(g, opset_imports=list(m.opset_import))


TINY = {"vgg16": 32, "bert-base-fc": 3}


def test_bert_fc_layers_run_in_memory_against_the_reference():
    modes = _run(onnx_models.build("bert-base-fc", 3, 1 / 16, seed=2))
    assert modes.count("in") == len(modes) - 1  # GELU's tanh has no in-memory op: near


# the first blocks of the others: the stem, an inverted residual with its skip (a
# bottleneck with its projection and the max pool), EfficientNet's SE with Swish,
# MnasNet-A1's first SE block (ReLU), VGG16's first two stages
@pytest.mark.parametrize("name,hint,nth", [("mobilenetv2", "residual", 1), ("efficientnet-b0", "residual", 1), ("mnasnet-a1", "se_scale", 1),
                                           ("mnasnet-b1", "residual", 1), ("resnet50", "residual", 1), ("vgg16", "maxpool", 2)])
def test_first_blocks_run_in_memory_against_the_reference(name, hint, nth):
    modes = _run(_prefix(onnx_models.build(name, TINY.get(name, 16), 1 / 16, classes=10, seed=2), hint, nth))
    assert "in" in modes


@pytest.mark.skipif(not ALL, reason="a whole model through infs takes 5-15 s: INFS_ONNX_MODELS=all runs them")
@pytest.mark.parametrize("name", list(onnx_models.MODELS))
def test_every_whole_model_against_the_reference(name):
    modes = _run(onnx_models.build(name, TINY.get(name, 16), 1 / 16, classes=10, seed=3))
    assert "in" in modes


# ---------------------------------------------------------------- random layers


def _graph(nodes, shape, inits):
    g = helper.make_graph(nodes, "layer", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


@st.composite
def convs(draw):
    k = draw(st.sampled_from([1, 3, 5, 7]))
    dil = draw(st.sampled_from([1, 1, 2])) if k > 1 else 1
    stride = draw(st.integers(1, 3))
    pads = [draw(st.integers(0, k // 2)) for _ in range(4)]
    span = dil * (k - 1) + 1
    h = draw(st.integers(max(1, span - pads[0] - pads[2]), max(1, span - pads[0] - pads[2]) + 8))
    w = draw(st.integers(max(1, span - pads[1] - pads[3]), max(1, span - pads[1] - pads[3]) + 8))
    c = draw(st.sampled_from([1, 2, 3, 4, 5, 6, 7]))
    kind = draw(st.sampled_from(["dense", "depthwise", "grouped"]))
    if kind == "depthwise":
        g, f = c, c
    elif kind == "grouped":
        g = draw(st.sampled_from([d for d in range(1, c + 1) if c % d == 0]))
        f = g * draw(st.integers(1, 3))
    else:
        g, f = 1, draw(st.integers(1, 7))
    bias, relu, seed = draw(st.booleans()), draw(st.booleans()), draw(st.integers(0, 2**16))
    return k, dil, stride, pads, h, w, c, g, f, bias, relu, seed


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(convs())
def test_random_convs_against_the_reference(case):
    k, dil, stride, pads, h, w, c, g, f, bias, relu, seed = case
    rng = np.random.default_rng(seed)
    inits = [numpy_helper.from_array(rng.standard_normal((f, c // g, k, k)).astype(np.float32), "w")]
    ins = ["x", "w"]
    if bias:
        inits.append(numpy_helper.from_array(rng.standard_normal(f).astype(np.float32), "b"))
        ins.append("b")
    nodes = [helper.make_node("Conv", ins, ["c" if relu else "y"], kernel_shape=[k, k], strides=[stride, stride], pads=pads, dilations=[dil, dil], group=g)]
    if relu:
        nodes.append(helper.make_node("Relu", ["c"], ["y"]))
    _run(_graph(nodes, [1, c, h, w], inits))


@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 5), st.integers(1, 13), st.integers(1, 13), st.sampled_from(["gemm", "gemm_t", "matmul"]), st.booleans(), st.integers(0, 2**16))
def test_random_fc_layers_against_the_reference(m, k, n, kind, bias, seed):
    rng = np.random.default_rng(seed)
    wshape = (n, k) if kind == "gemm_t" else (k, n)
    inits = [numpy_helper.from_array(rng.standard_normal(wshape).astype(np.float32), "w")]
    if kind == "matmul":
        nodes = [helper.make_node("MatMul", ["x", "w"], ["y"])]
    else:
        ins = ["x", "w"]
        if bias:
            inits.append(numpy_helper.from_array(rng.standard_normal(n).astype(np.float32), "b"))
            ins.append("b")
        nodes = [helper.make_node("Gemm", ins, ["y"], transB=int(kind == "gemm_t"))]
    _run(_graph(nodes, [m, k], inits))


def test_pointwise_convs_run_in_memory():
    # a 1x1 conv (strided, padded, with a bias) is matmul's iteration space: its
    # accumulation region tensorizes, as depthwise convs' do
    rng = np.random.default_rng(5)
    for stride, pads in ((1, [0, 0, 0, 0]), (2, [0, 1, 1, 0])):
        inits = [numpy_helper.from_array(rng.standard_normal((6, 5, 1, 1)).astype(np.float32), "w"), numpy_helper.from_array(rng.standard_normal(6).astype(np.float32), "b")]
        modes = _run(_graph([helper.make_node("Conv", ["x", "w", "b"], ["y"], strides=[stride, stride], pads=pads)], [1, 5, 7, 7], inits))
        assert set(modes) == {"in"}, modes


def test_outputs_named_like_the_importers_own_values():
    # a graph output 'o' (a generic's block argument) and names ending in _<digits>
    # (xDSL reads that as a uniquing suffix): each its own argument
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal((4, 3)).astype(np.float32), "w_1")]
    g = helper.make_graph([helper.make_node("MatMul", ["x_1", "w_1"], ["o"]), helper.make_node("Relu", ["o"], ["t12"]), helper.make_node("Tanh", ["o"], ["fc_484"])], "m",
                          [helper.make_tensor_value_info("x_1", TensorProto.FLOAT, [2, 4])],
                          [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in ("o", "t12", "fc_484")], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    p = import_model(m, weights="args")
    assert len(set(p.args)) == len(p.args) == 5
    _run(m, "core")


# ---------------------------------------------------------------- the CLI


def test_cli_builds_writes_imports_and_lists(tmp_path):
    onnx_file, mlir = tmp_path / "m.onnx", tmp_path / "m.mlir"
    r = subprocess.run([sys.executable, "-m", "infs.tools.infs_import_onnx", "--model", "bert-base-fc", "--input-size", "3", "--width", "0.0625",
                        "--write-model", str(onnx_file), "-o", str(mlir)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "func.func @bert_base_fc" in mlir.read_text()
    assert onnx_models.layers(onnx.load(str(onnx_file))) == onnx_models.layers(onnx_models.build("bert-base-fc", 3, 0.0625))
    r = subprocess.run([sys.executable, "-m", "infs.tools.infs_import_onnx", "--model", "vgg16", "--layers"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "vgg16: 37 nodes; 13 conv, 3 fc; 15,470,264,320 MACs"
    for argv, msg in [(["--model", "alexnet"], "unknown model 'alexnet'"), ([], "give an ONNX file or --model NAME"),
                      ([str(onnx_file), "--input-size", "3"], "go with --model NAME"), (["--model", "vgg16", "--input-size", "33"], "not a multiple of 32")]:
        r = subprocess.run([sys.executable, "-m", "infs.tools.infs_import_onnx", *argv], capture_output=True, text=True)
        assert r.returncode == 1 and msg in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
