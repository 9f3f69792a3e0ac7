"""GPU + DRAM-PIM runs end to end (runtime/dram_pim_run, infs-run --config gpu-dram-pim):
every layer against an independent numpy product within its fp16 rounding bound, the
placement as PIMFlow's models decide it, MobileNetV2 imported from ONNX, the error lines."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from infs import api
from infs.runtime import dram_pim_run, pimflow
from infs.sim.dram_pim.numerics import ROUND, UNIT_ROUNDOFF
from infs.tools import infs_run


def _fc(b: int, k: int, n: int) -> str:
    return f"""func.func @fc(%x: memref<{b}x{k}xf32>, %w: memref<{k}x{n}xf32>, %y: memref<{b}x{n}xf32>) {{
  linalg.matmul ins(%x, %w : memref<{b}x{k}xf32>, memref<{k}x{n}xf32>) outs(%y : memref<{b}x{n}xf32>)
  func.return
}}"""


def _conv(h: int, c: int, f: int, k: int, kw: int | None = None) -> str:
    kw = k if kw is None else kw
    oh, ow = h - k + 1, h - kw + 1
    return f"""func.func @conv(%x: memref<1x{h}x{h}x{c}xf32>, %w: memref<{k}x{kw}x{c}x{f}xf32>, %y: memref<1x{oh}x{ow}x{f}xf32>) {{
  linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}} ins(%x, %w : memref<1x{h}x{h}x{c}xf32>, memref<{k}x{kw}x{c}x{f}xf32>) outs(%y : memref<1x{oh}x{ow}x{f}xf32>)
  func.return
}}"""


def _oracle(cols: np.ndarray, wm: np.ndarray, y0: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r = ROUND["fp16"]
    c, m = r(cols).astype(np.float64), r(wm).astype(np.float64)
    return y0 + c @ m, np.abs(c) @ np.abs(m) + np.abs(y0)


@pytest.mark.parametrize(
    "b,k,n,machine,mode",
    [(1, 512, 256, "gpu-dram-pim", "pim"), (16, 1024, 512, "gpu-dram-pim", "split"), (4, 1024, 512, "gpu+newton++", "pim"),
     (32, 512, 512, "gpu+newton++", "gpu"), (3, 77, 129, "gpu-only", "gpu"), (2, 300, 37, "gpu+newton-plus", None)],
)  # fmt: skip
def test_fc_layer_placed_and_exact_within_bound(b, k, n, machine, mode):
    rng = np.random.default_rng(b * k + n)
    x, w, y0 = (rng.standard_normal(s).astype(np.float32) for s in ((b, k), (k, n), (b, n)))
    args = {"x": x.copy(), "w": w.copy(), "y": y0.copy()}
    res = dram_pim_run.run(api.parse_text(_fc(b, k, n)), args, machine, check=True)
    (layer,) = res.layers
    if mode is not None:
        assert layer.mode == mode, layer
    ref, mag = _oracle(x, w, y0.astype(np.float64))
    assert np.all(np.abs(args["y"] - ref) <= (UNIT_ROUNDOFF["fp16"] * 1.001 + k * 2.0**-23) * mag + 1e-30)
    assert res.check["ok"] and res.check["worst_ratio"] <= 1.0
    # the plan is PIMFlow's: the layer's time is the search's choice over the allowed ratios
    net = pimflow.NetLayer("fc0", "fc", b, 1, k, n)
    opts = pimflow.md_dp(pimflow.platform(res.config), net)
    allowed = slice(None) if res.config == "PIMFlow-md" else [0] if res.config == "Baseline" else [0, 10]
    assert layer.seconds == pytest.approx(float(np.min(opts["seconds"][allowed])))


@pytest.mark.parametrize("h,c,f,k", [(6, 16, 24, 1), (5, 8, 12, 3), (4, 3, 5, 2)])
def test_conv_layer_exact_within_bound(h, c, f, k):
    rng = np.random.default_rng(h * c + f)
    x, w = rng.standard_normal((1, h, h, c)).astype(np.float32), rng.standard_normal((k, k, c, f)).astype(np.float32)
    o = h - k + 1
    y = np.zeros((1, o, o, f), np.float32)
    args = {"x": x, "w": w, "y": y}
    res = dram_pim_run.run(api.parse_text(_conv(h, c, f, k)), args, "gpu-dram-pim", check=True)
    win = np.lib.stride_tricks.sliding_window_view(x[0], (k, k), axis=(0, 1))  # [o, o, c, k, k]
    cols = win.transpose(0, 1, 3, 4, 2).reshape(o * o, k * k * c)
    ref, mag = _oracle(cols, w.reshape(k * k * c, f), np.zeros((o * o, f)))
    assert np.all(np.abs(args["y"].reshape(o * o, f) - ref) <= (UNIT_ROUNDOFF["fp16"] * 1.001 + k * k * c * 2.0**-23) * mag + 1e-30)
    assert res.check["ok"], res.check


def test_conv_split_rows_run_on_both():
    """A split conv: the first rows from the PIM sub-layer, the rest from the GPU, all within bound."""
    from infs.dialects.dram_pim_records import ConvLayer
    from infs.runtime.dram_pim_run import _part, _pim_units

    layer = ConvLayer(7, 6, 4, 5, 3, 3, 1, 1, 0, 0)
    units = _pim_units(layer, 4)
    sub, flat, wm, vectors = _part(layer, np.arange(7 * 6 * 4, dtype=np.float32), np.ones((36, 5), np.float32), units)
    assert units == 2 and sub.h == 4 and sub.out_hw == (2, 4) and vectors == 8 and flat.size == 4 * 6 * 4 and wm.shape == (36, 5)


def test_mobilenetv2_end_to_end_checked(tmp_path, capsys):
    path = tmp_path / "m.mlir"
    from infs.tools import infs_import_onnx

    assert infs_import_onnx.main(["--model", "mobilenetv2", "--input-size", "32", "--width", "0.25", "-o", str(path)]) == 0
    assert infs_run.main([str(path), "--config", "gpu-dram-pim", "--check", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    layers = out["layers"]
    assert len(layers) == 53 and out["check"]["ok"]
    assert sum(x["op"].startswith("dw") for x in layers) == 17 and all(x["mode"] == "gpu" for x in layers if x["op"].startswith("dw"))
    assert any(x["mode"] in ("pim", "split") for x in layers)  # the FC layer at least
    assert out["check"]["worst_ratio"] <= 1.0 and out["check"]["relative_error"]["fc_484_"] < out["check"]["tolerance"]
    assert out["seconds"] == pytest.approx(sum(x["seconds"] for x in layers) + out["host"]["seconds"])


def test_errors_one_line(tmp_path, capsys):
    bad = tmp_path / "rect.mlir"
    bad.write_text(_conv(5, 4, 3, 1, kw=3))
    assert infs_run.main([str(bad), "--config", "gpu-dram-pim"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "rect.mlir:2:3" in err and "square" in err
    ok = tmp_path / "fc.mlir"
    ok.write_text(_fc(1, 8, 4))
    assert infs_run.main([str(ok), "--config", "gpu-dram-pim", "--mode", "in"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--mode applies to the in-SRAM machine" in err
    assert infs_run.main([str(ok), "--config", "gpu-dram-pmi"]) != 0
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "gpu-dram-pmi" in err
    host_only = tmp_path / "add.mlir"
    host_only.write_text("func.func @f(%a: memref<4xf32>) {\n  func.return\n}\n")
    assert infs_run.main([str(host_only), "--config", "gpu-dram-pim"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no FC or convolution layer" in err
    batch = tmp_path / "batch.mlir"
    batch.write_text(_conv(5, 4, 3, 1).replace("memref<1x5x5", "memref<2x5x5"))
    assert infs_run.main([str(batch), "--config", "gpu+newton++"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "batch.mlir:2:3" in err and "cannot be lowered to DRAM-PIM" in err
    with pytest.raises(dram_pim_run.DramPimRunError, match="no GPU \\+ DRAM-PIM machine 'nope'"):
        dram_pim_run.run(api.parse_text(_fc(1, 8, 4)), {}, "nope")


def test_mobilenetv2_against_the_onnx_reference():
    """The network's output on the machine against ONNX's reference evaluator of the graph
    (within the runtime's end-to-end guard: fp16 operands at every layer)."""
    pytest.importorskip("onnx")
    from onnx.reference import ReferenceEvaluator

    from infs.frontend import onnx_models

    model = onnx_models.mobilenetv2(size=32, width=0.25, classes=10, seed=3)
    prog = api.import_onnx(model)
    name = next(iter(prog.inputs))
    x = np.random.default_rng(3).standard_normal(prog.inputs[name][1].shape).astype(np.float32)
    feed = prog.feed({name: x})
    res = dram_pim_run.run(api.parse_text(prog.text), feed, "gpu+newton++")
    (got,) = prog.results(feed).values()
    (want,) = ReferenceEvaluator(model).run(None, {name: x})
    rel = np.abs(got - want).max() / np.abs(want).max()
    assert rel <= len(res.layers) * UNIT_ROUNDOFF["fp16"] * dram_pim_run.CHAIN_GROWTH, rel
    assert rel > 0  # fp16 MACs: not the float32 values bit for bit


@settings(max_examples=15, deadline=None)
@given(b=st.integers(1, 9), k=st.integers(1, 700), n=st.integers(1, 300), machine=st.sampled_from(["gpu-dram-pim", "gpu+newton-plus"]),
       scale=st.sampled_from([1e-3, 1.0, 300.0]), seed=st.integers(0, 2**16))  # fmt: skip
def test_fc_any_shape_any_placement_within_bound(b, k, n, machine, scale, seed):
    """Odd and prime sizes, large and small magnitudes, a bias in the output: whatever the
    plan (GPU, PIM, a split of the outputs), every output within the fp16 MACs' bound."""
    rng = np.random.default_rng(seed)
    x, w, y0 = ((rng.standard_normal(s) * scale).astype(np.float32) for s in ((b, k), (k, n), (b, n)))
    args = {"x": x.copy(), "w": w.copy(), "y": y0.copy()}
    ref, mag = _oracle(x, w, y0.astype(np.float64))
    try:
        res = dram_pim_run.run(api.parse_text(_fc(b, k, n)), args, machine)
    except dram_pim_run.DramPimRunError as e:
        # fp16 MACs: refused (one line) only when a product or sum of the magnitudes leaves fp16's range
        assert "overflows fp16" in str(e) and "\n" not in str(e), str(e)
        assert mag.max() > np.finfo(np.float16).max, (mag.max(), str(e))
        return
    # (the absolute term: below fp16's normal range each of the k products and k sums rounds
    # to its subnormal spacing 2^-24, at most half of it each)
    bound = (UNIT_ROUNDOFF["fp16"] * 1.001 + k * 2.0**-23) * mag + 2.0**-23 * np.abs(ref) + (2 * k + -(-k // 512)) * 2.0**-25
    assert np.all(np.abs(args["y"] - ref) <= bound), (res.layers[0].mode, res.layers[0].ratio)


@settings(max_examples=12, deadline=None)
@given(h=st.integers(1, 9), c=st.integers(1, 70), f=st.integers(1, 90), k=st.integers(1, 3), seed=st.integers(0, 2**16))
def test_conv_any_shape_within_bound(h, c, f, k, seed):
    """Convolutions of any small shape (splits of their rows included where the plan picks one)."""
    k = min(k, h)
    rng = np.random.default_rng(seed)
    x, w = rng.standard_normal((1, h, h, c)).astype(np.float32), rng.standard_normal((k, k, c, f)).astype(np.float32)
    o = h - k + 1
    args = {"x": x, "w": w, "y": np.zeros((1, o, o, f), np.float32)}
    dram_pim_run.run(api.parse_text(_conv(h, c, f, k)), args, "gpu-dram-pim")
    cols = np.lib.stride_tricks.sliding_window_view(x[0], (k, k), axis=(0, 1)).transpose(0, 1, 3, 4, 2).reshape(o * o, k * k * c)
    ref, mag = _oracle(cols, w.reshape(k * k * c, f), np.zeros((o * o, f)))
    assert np.all(np.abs(args["y"].reshape(o * o, f) - ref) <= (UNIT_ROUNDOFF["fp16"] * 1.001 + k * k * c * 2.0**-23) * mag + 1e-30)
