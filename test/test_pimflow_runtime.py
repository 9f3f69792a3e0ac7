"""PIMFlow's runtime: the parts a split gives each device (against window arithmetic done
by hand), the split costs, the pipeline's schedule, the search against brute force on
small chains, the configurations, and one-line errors."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from infs.runtime import pimflow
from infs.runtime.pimflow import (CONFIGS, RATIOS, STAGE_SPLITS, PimFlowError, Platform, gpu_seconds, gpu_work, in_rows, layer_options,
                                  md_dp, pattern_starts, pim_cost, pim_layer, pipeline, plan, platform, split_copy_seconds, units)  # fmt: skip
from infs.runtime.pimflow_models import MODELS, NetLayer, model_layers

TINY_MEM = {"channels": 8, "pim_channels": 4}


def _pf(config="PIMFlow", **kw):
    return platform(config, pim_channels=4, channels=8, **kw)


convs = st.builds(lambda h, w, c, f, k, s: NetLayer("x", "conv", h, w, c, f, k, s, k // 2),
                  st.integers(2, 9), st.integers(2, 9), st.integers(1, 24), st.integers(1, 24), st.sampled_from([1, 3, 5]), st.integers(1, 2))  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(layer=convs, frac=st.integers(0, 10))
def test_a_conv_part_reads_the_rows_its_windows_touch(layer, frac):
    oh, ow = layer.out_hw
    r = int(round(oh * frac / 10))
    rows = in_rows(layer, r)
    # by hand: output row i reads padded rows i*s .. i*s + k - 1
    touched = {i * layer.s + d for i in range(r) for d in range(layer.k)}
    assert rows == (max(touched) + 1 if touched else 0)
    if r:
        rec = pim_layer(layer, r)
        assert rec.out_hw == (r, ow) and rec.reduction == layer.k * layer.k * layer.c and rec.outputs == layer.f
    flops, byts, tensor = gpu_work(layer, r)
    assert flops == 2 * r * ow * layer.f * layer.k * layer.k * layer.c and bool(tensor)
    e = 2
    want = e * (rows * (layer.w + 2 * layer.p) * layer.c + layer.k * layer.k * layer.c * layer.f + r * ow * layer.f) if r else 0
    assert byts == want


def test_split_ends_are_the_whole_layer_on_one_device():
    pf = _pf()
    layer = NetLayer("c", "conv", 6, 6, 16, 16, 3, 1, 1)
    opts = md_dp(pf, layer)
    full_pim, _ = pim_cost(pf, layer, [units(layer)])
    assert opts["seconds"][0] == pytest.approx(float(gpu_seconds(pf, layer)))
    assert opts["seconds"][-1] == pytest.approx(float(full_pim[0]))
    mid = opts["seconds"][1:-1]
    assert np.all(mid >= np.maximum(opts["gpu_s"][1:-1], opts["pim_s"][1:-1]) - 1e-18)


def test_gpu_time_is_the_roofline_on_its_channels_plus_one_launch():
    pf = _pf()
    layer = NetLayer("c", "conv", 6, 6, 16, 16, 3, 1, 1)
    flops, byts, _ = gpu_work(layer)
    # tensor-core peak at 1365 MHz, the 4 GPU channels of 28 GB/s, 5000 SM cycles of launch latency
    want = max(float(flops) / (240 * 64 * 2 * 1.365e9), float(byts) / (4 * 28.0e9)) + 5000 / 1.365e9
    assert float(gpu_seconds(pf, layer)) == pytest.approx(want)
    # a layer wholly on PIM leaves the GPU no kernel: no launch is charged
    assert md_dp(pf, layer)["gpu_s"][-1] == 0.0


def test_split_copies_without_the_memory_optimizer():
    layer = NetLayer("c", "conv", 6, 6, 16, 32, 3, 1, 1)
    assert split_copy_seconds(_pf(), layer) == 0.0
    pf = _pf(layout_opt=False)
    byts = 2 * 2 * (6 * 6 * 16 + 8 * 8 * 16 + 6 * 6 * 32)  # slice, pad, concat: each read and written, FP16
    # at the GPU's channel rate (28 GB/s), three copy kernels each paying the launch latency
    assert split_copy_seconds(pf, layer) == pytest.approx(byts / (pf.gpu_channels * 28.0e9) + 3 * 5000 / 1.365e9)
    with_copies, without = md_dp(pf, layer), md_dp(_pf(), layer)
    assert with_copies["seconds"][0] == without["seconds"][0] and with_copies["seconds"][10] == without["seconds"][10]
    assert np.all(with_copies["seconds"][1:10] > without["seconds"][1:10])


def test_pipeline_of_1x1_then_dw_is_its_schedule():
    pf = _pf()
    a, dw = NetLayer("a", "conv", 8, 8, 16, 32), NetLayer("dw", "dw", 8, 8, 32, 32, 3, 1, 1)
    res = pipeline(pf, (a, dw))
    for i, q in enumerate(STAGE_SPLITS):
        r_dw = int(np.clip(round(8 * q / 10), 1, 7))
        r_a = min(8, max(1, int(in_rows(dw, r_dw)) - 1))  # rows of a the first DW stage reads (one halo row)
        p1, p2 = (float(x) for x in pim_cost(pf, a, [r_a, 8 - r_a])[0])
        g1, g2 = float(gpu_seconds(pf, dw, r_dw)), float(gpu_seconds(pf, dw, 8 - r_dw))
        assert res["seconds"][i] == pytest.approx(p1 + max(g1, p2) + g2)
        assert res["gpu_s"][i] == pytest.approx(g1 + g2) and res["pim_s"][i] == pytest.approx(p1 + p2)


def test_patterns_are_found():
    assert pattern_starts(model_layers("tiny")) == [(0, 2), (0, 3), (1, 2)]


def _brute(layers, config, pf):
    """Every cover of the chain by single layers (every allowed ratio) and pipelines (every split)."""
    singles, pipes = layer_options(pf, layers, config)
    mddp, pipe = CONFIGS[config][1], CONFIGS[config][2]
    ratios = RATIOS if mddp else np.array([0, 10])
    single_opts = []
    for i, x in enumerate(layers):
        if not x.candidate or CONFIGS[config][0] is None:
            single_opts.append([float(gpu_seconds(pf, x))])
        else:
            single_opts.append(list(md_dp(pf, x, ratios)["seconds"]))
    pipe_opts = {k: list(pipeline(pf, layers[k[0] : k[0] + k[1]])["seconds"]) for k in pipes} if pipe else {}
    best = np.inf

    def covers(i):
        if i == len(layers):
            yield []
            return
        for rest in covers(i + 1):
            yield [("s", i)] + rest
        for (j, n) in pipe_opts:
            if j == i:
                for rest in covers(i + n):
                    yield [("p", (j, n))] + rest

    for cover in covers(0):
        lists = [single_opts[x] if k == "s" else pipe_opts[x] for k, x in cover]
        for combo in itertools.product(*lists):
            best = min(best, sum(combo))
    return best


@pytest.mark.parametrize("config", list(CONFIGS))
def test_search_matches_brute_force_on_the_tiny_model(config):
    layers = model_layers("tiny")
    pf = _pf(config) if config != "Baseline" else Platform(mem=pimflow.load_dram_pim("pimflow", **TINY_MEM), gpu_channels=8)
    assert plan(layers, config, pf).seconds == pytest.approx(_brute(layers, config, pf), rel=1e-12)


layer_kinds = st.sampled_from([("conv", 1), ("conv", 3), ("dw", 3), ("eltwise", 1)])


@settings(max_examples=12, deadline=None)
@given(kinds=st.lists(layer_kinds, min_size=1, max_size=5), c=st.sampled_from([8, 16, 48]), h=st.integers(2, 6))
def test_search_matches_brute_force_on_random_chains(kinds, c, h):
    layers = tuple(NetLayer(f"l{i}", op, h, h, c, c, k, 1, k // 2, reads=2 if op == "eltwise" else 1) for i, (op, k) in enumerate(kinds))
    pf = _pf()
    p = plan(layers, "PIMFlow", pf)
    assert p.seconds == pytest.approx(_brute(layers, "PIMFlow", pf), rel=1e-12)
    assert [n for s in p.segments for n in s.layers] == [x.name for x in layers]


def test_configurations():
    assert platform("Baseline").gpu_channels == 32
    for c in ("Newton+", "Newton++", "PIMFlow"):
        assert platform(c).gpu_channels == 16 and platform(c).mem.pim_channels == 16
    assert platform("Newton+").mem.global_buffers == 1 and not platform("Newton+").mem.gwrite_latency_hiding
    assert platform("Newton++").mem.global_buffers == 4 and platform("Newton++").mem.gwrite_latency_hiding
    layers = model_layers("tiny")
    # more freedom never loses: PIMFlow <= PIMFlow-md, PIMFlow-pl <= Newton++ on the same platform
    t = {c: plan(layers, c, _pf(c)).seconds for c in CONFIGS if c != "Baseline"}
    assert t["PIMFlow"] <= min(t["PIMFlow-md"], t["PIMFlow-pl"]) + 1e-15
    assert max(t["PIMFlow-md"], t["PIMFlow-pl"]) <= t["Newton++"] + 1e-15


def test_a_layer_too_large_for_pim_stays_on_the_gpu():
    pf = platform("Newton++", pim_channels=1, channels=2, pim_overrides={"rows_per_bank": 1})
    big = NetLayer("fc", "fc", 1, 1, 4096, 4096)
    t, _ = pim_cost(pf, big, [4096])
    assert np.isinf(t[0])
    assert plan((big,), "Newton++", pf).segments[0].mode == "gpu"


def test_models_build():
    for m in MODELS:
        layers = model_layers(m)
        assert layers and all(x.out_hw[0] >= 1 for x in layers)
    assert sum(x.op == "conv" for x in model_layers("ResNet50")) == 53 and sum(x.op == "conv" for x in model_layers("VGG16")) == 13


@pytest.mark.parametrize("call, message", [
    (lambda: platform("Newton"), "pimflow: no configuration 'Newton' (known: Baseline"),
    (lambda: platform("PIMFlow", pim_channels=32), "pimflow: 32 PIM channels of 32: both the GPU and PIM need at least one"),
    (lambda: plan((), "PIMFlow"), "pimflow: the network has no layers"),
    (lambda: model_layers("AlexNet"), "pimflow: no model 'AlexNet'"),
])  # fmt: skip
def test_bad_input_is_one_line(call, message):
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value).startswith(message) and "\n" not in str(e.value)
    assert isinstance(e.value, PimFlowError) or "model" in message


def _rec(name, op, kind, inputs, outputs, ish, osh, kernel=(1, 1), stride=(1, 1), pads=(0, 0, 0, 0), dilation=(1, 1)):
    from types import SimpleNamespace

    return SimpleNamespace(name=name, op=op, kind=kind, inputs=inputs, outputs=outputs, input_shape=ish, output_shape=osh,
                           kernel=kernel, stride=stride, pads=pads, dilation=dilation)  # fmt: skip


def test_onnx_records_fuse_activations_and_keep_edges():
    from infs.runtime.pimflow_models import from_onnx_layers

    recs = [_rec("pw", "Conv", "pointwise", ("x",), ("a",), (1, 8, 6, 6), (1, 16, 6, 6)),
            _rec("bn", "BatchNormalization", "other", ("a",), ("b",), (1, 16, 6, 6), (1, 16, 6, 6)),
            _rec("sg", "Sigmoid", "other", ("b",), ("s",), (1, 16, 6, 6), (1, 16, 6, 6)),
            _rec("sw", "Mul", "other", ("b", "s"), ("c",), (1, 16, 6, 6), (1, 16, 6, 6)),
            _rec("dw", "Conv", "depthwise", ("c",), ("d",), (1, 16, 6, 6), (1, 16, 3, 3), (3, 3), (2, 2), (1, 1, 1, 1)),
            _rec("side", "Conv", "pointwise", ("x",), ("e",), (1, 8, 6, 6), (1, 16, 3, 3), stride=(2, 2)),
            _rec("add", "Add", "other", ("d", "e"), ("f",), (1, 16, 3, 3), (1, 16, 3, 3))]  # fmt: skip
    got = from_onnx_layers(recs)
    assert [(x.name, x.op, x.feeds_next) for x in got] == [("pw", "conv", True), ("dw", "dw", False), ("side", "conv", True), ("add", "eltwise", False)]
    assert got[1] == NetLayer("dw", "dw", 6, 6, 16, 16, 3, 2, 1, feeds_next=False)
    assert got[3].reads == 2
    assert pattern_starts(got) == [(0, 2)]  # dw does not feed 'side': no DW-1x1 there


def test_an_onnx_node_the_runtime_cannot_price_is_one_line():
    from infs.runtime.pimflow_models import from_onnx_layers

    bad = _rec("g", "Conv", "grouped", ("x",), ("y",), (1, 8, 6, 6), (1, 8, 6, 6), (3, 3), (1, 1), (1, 1, 1, 1))
    with pytest.raises(ValueError) as e:
        from_onnx_layers([bad], "net.onnx")
    assert str(e.value).startswith("pimflow: net.onnx: node 'g' (Conv grouped") and "\n" not in str(e.value)


@pytest.mark.parametrize("onnx_name, ours", [("efficientnet-b0", "ENetB0"), ("resnet50", "ResNet50")])
def test_the_onnx_models_read_back_as_the_block_tables(onnx_name, ours):
    pytest.importorskip("onnx")
    from infs.frontend.onnx_models import layers
    from infs.runtime.pimflow_models import from_onnx_layers

    got, want = from_onnx_layers(layers(onnx_name), onnx_name), model_layers(ours)
    sig = lambda xs: [(x.op, x.h, x.w, x.c, x.f, x.k, x.s, x.p) for x in xs if x.op != "eltwise"]  # noqa: E731
    assert sig(got) == sig(want)
    assert pattern_starts(got) == pattern_starts(want)
