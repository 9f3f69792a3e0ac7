"""lower-dram-pim against numpy: random FC and convolution layers (odd and prime
sizes, strides, padding, groups, depthwise) written as linalg or imported from
one-node ONNX graphs, lowered to ``dram_pim.layer`` ops, printed and parsed
back, converted to records and run on the command-level machine; every output
within the rounding bound of the bf16/fp16 MACs of the exact (float64) product
of the rounded operands.  The layers the pass cannot lower: one line each."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from infs import api
from infs.dialects import dram_pim
from infs.dialects.dram_pim_records import Program
from infs.hardware.dram_pim import load_dram_pim
from infs.passes.dram_pim.lower import lower_layer
from infs.sim.dram_pim.machine import run
from infs.sim.dram_pim.numerics import ROUND, UNIT_ROUNDOFF


def _lower(text: str, config: str = "tiny-pim", dtype: str = "bf16") -> list[dram_pim.LayerOp]:
    m = api.parse_text(text)
    api.PassManager.parse(f"lower-dram-pim{{config={config} dtype={dtype}}}").run(m)
    printed = str(m)
    again = api.parse_text(printed)  # the custom form parses back to the same IR
    assert str(again) == printed
    return [op for op in again.walk() if isinstance(op, dram_pim.LayerOp)]


def _run_and_check(op: dram_pim.LayerOp, x: np.ndarray, w: np.ndarray, cols: np.ndarray, wm_ref: np.ndarray, dtype: str) -> Program:
    """Run the layer on the machine; ``cols`` (V, K) and ``wm_ref`` (K, N) the oracle's im2col operands."""
    prog = dram_pim.program_of(op)
    flat, wm = dram_pim.bind(op, x, w)
    got = run(prog, flat, wm).out
    rnd = ROUND[dtype]
    c, r = rnd(cols).astype(np.float64), rnd(wm_ref).astype(np.float64)
    ref, mag = c @ r, np.abs(c) @ np.abs(r)
    # each READRES rounds a partial sum to the type; float32 adds in the tree and the host
    bound = (UNIT_ROUNDOFF[dtype] * 1.001 + cols.shape[1] * 1.2e-7) * mag
    assert np.all(np.abs(got - ref) <= bound), (prog.layer, prog.granularity, np.abs(got - ref).max())
    return prog


def _conv_ref(xp: np.ndarray, w4: np.ndarray, s: tuple[int, int], groups: int) -> tuple[np.ndarray, np.ndarray]:
    """(im2col of the padded HWC image, the dense HWCF filter as (KH*KW*C, F)) built the plain way."""
    kh, kw, cg, f = w4.shape
    c = xp.shape[2]
    win = np.lib.stride_tricks.sliding_window_view(xp, (kh, kw), axis=(0, 1))[:: s[0], :: s[1]]  # [OH, OW, C, KH, KW]
    cols = win.transpose(0, 1, 3, 4, 2).reshape(-1, kh * kw * c)
    dense = np.zeros((kh, kw, c, f), np.float32)
    fg = f // groups
    for g in range(groups):  # (a handful of groups: the oracle stays simple)
        dense[:, :, g * cg : (g + 1) * cg, g * fg : (g + 1) * fg] = w4[:, :, :, g * fg : (g + 1) * fg]
    return cols, dense.reshape(-1, f)


def _t(shape) -> str:
    return f"memref<{'x'.join(map(str, shape))}xf32>"


@settings(max_examples=20, deadline=None)
@given(m=st.integers(1, 7), k=st.integers(1, 70), n=st.integers(1, 13), nk=st.booleans(), dtype=st.sampled_from(["bf16", "fp16"]), seed=st.integers(0, 99))
def test_fc_generics_and_matmul(m, k, n, nk, dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((m, k)).astype(np.float32)
    w = rng.standard_normal((n, k) if nk else (k, n)).astype(np.float32)
    if nk:
        text = (f"func.func @f(%x: {_t((m, k))}, %w: {_t((n, k))}, %y: {_t((m, n))}) {{\n"
                f"  linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], "
                f"iterator_types = [\"parallel\", \"parallel\", \"reduction\"]}} ins(%x, %w : {_t((m, k))}, {_t((n, k))}) outs(%y : {_t((m, n))}) {{\n"
                "  ^bb0(%a: f32, %b: f32, %o: f32):\n    %p = arith.mulf %b, %a : f32\n    %r = arith.addf %p, %o : f32\n    linalg.yield %r : f32\n  }\n  func.return\n}\n")  # fmt: skip
    else:
        text = f"func.func @f(%x: {_t((m, k))}, %w: {_t((k, n))}, %y: {_t((m, n))}) {{\n  linalg.matmul ins(%x, %w : {_t((m, k))}, {_t((k, n))}) outs(%y : {_t((m, n))})\n  func.return\n}}\n"
    (op,) = _lower(text, dtype=dtype)
    assert op.weight_form.data == ("nk" if nk else "kn")
    _run_and_check(op, x, w, x, w.T if nk else w, dtype)


@settings(max_examples=10, deadline=None)
@given(k=st.integers(1, 90), n=st.integers(1, 11), seed=st.integers(0, 99))
def test_matvec_generic(k, n, seed):
    rng = np.random.default_rng(seed)
    a, x = rng.standard_normal((n, k)).astype(np.float32), rng.standard_normal(k).astype(np.float32)
    text = (f"func.func @mv(%a: {_t((n, k))}, %x: {_t((k,))}, %y: {_t((n,))}) {{\n"
            f"  linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], "
            f"iterator_types = [\"parallel\", \"reduction\"]}} ins(%a, %x : {_t((n, k))}, {_t((k,))}) outs(%y : {_t((n,))}) {{\n"
            "  ^bb0(%p: f32, %q: f32, %o: f32):\n    %m = arith.mulf %p, %q : f32\n    %r = arith.addf %o, %m : f32\n    linalg.yield %r : f32\n  }\n  func.return\n}\n")  # fmt: skip
    (op,) = _lower(text)
    assert op.input is not None and op.weight_form.data == "nk"
    _run_and_check(op, x, a, x[None, :], a.T, "bf16")


@settings(max_examples=12, deadline=None)
@given(h=st.integers(1, 7), w=st.integers(1, 7), c=st.integers(1, 19), f=st.integers(1, 7), kh=st.integers(1, 3), kw=st.integers(1, 3),
       sh=st.integers(1, 3), sw=st.integers(1, 2), seed=st.integers(0, 99))  # fmt: skip
def test_named_conv_2d_nhwc_hwcf(h, w, c, f, kh, kw, sh, sw, seed):
    if kh > h or kw > w:
        return
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((1, h, w, c)).astype(np.float32)
    wt = rng.standard_normal((kh, kw, c, f)).astype(np.float32)
    oh, ow = (h - kh) // sh + 1, (w - kw) // sw + 1
    text = (f"func.func @conv(%x: {_t((1, h, w, c))}, %w: {_t((kh, kw, c, f))}, %y: {_t((1, oh, ow, f))}) {{\n"
            f"  linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>, strides = dense<[{sh}, {sw}]> : tensor<2xi64>}} "
            f"ins(%x, %w : {_t((1, h, w, c))}, {_t((kh, kw, c, f))}) outs(%y : {_t((1, oh, ow, f))})\n  func.return\n}}\n")  # fmt: skip
    (op,) = _lower(text)
    cols, wm = _conv_ref(x[0], wt, (sh, sw), 1)
    _run_and_check(op, x, wt, cols, wm, "bf16")


def _templates(random):
    """(dims, sizes, iterators, input map, weight map, output map) of each form the pass lowers."""
    s0, s1 = random.randint(1, 2), random.randint(1, 2)
    KH, KW, C, F = random.randint(1, 3), random.randint(1, 3), random.randint(1, 4), random.randint(1, 4)
    OH, OW = random.randint(1, 3), random.randint(1, 3)
    G, Cg, Fg = random.randint(1, 3), random.randint(1, 2), random.randint(1, 2)
    M, K, N = random.randint(1, 4), random.randint(1, 9), random.randint(1, 5)
    return [  # fmt: skip
        # dense (oh, ow, f, kh, kw, c); depthwise; grouped; FC kn, nk; a 1x1 conv
        (6, [OH, OW, F, KH, KW, C], "ppprrr", [f"d0 * {s0} + d3", f"d1 * {s1} + d4", "d5"], [f"d3 * {KW*C} + d4 * {C} + d5", "d2"], ["d0", "d1", "d2"]),
        (5, [OH, OW, C, KH, KW], "ppprr", [f"d0 * {s0} + d3", f"d1 * {s1} + d4", "d2"], ["d3", "d4", "d2"], ["d0", "d1", "d2"]),
        (7, [OH, OW, G, Fg, KH, KW, Cg], "pppprrr", [f"d0 * {s0} + d4", f"d1 * {s1} + d5", f"d2 * {Cg} + d6"], ["d2", f"d4 * {KW*Cg} + d5 * {Cg} + d6", "d3"], ["d0", "d1", f"d2 * {Fg} + d3"]),
        (3, [M, N, K], "ppr", ["d0", "d2"], ["d2", "d1"], ["d0", "d1"]),
        (3, [M, N, K], "ppr", ["d0", "d2"], ["d1", "d2"], ["d0", "d1"]),
        (4, [OH, OW, F, C], "pppr", [f"d0 * {s0}", f"d1 * {s1}", "d3"], ["d3", "d2"], ["d0", "d1", "d2"]),
    ]


def _mutate(random, e: str, nd: int) -> str:
    """One index changed: a constant added, another dim added, a coefficient changed, a dim replaced."""
    r = random.random()
    if r < 0.3:
        return e + " + 1"
    if r < 0.5:
        return e + f" + d{random.randrange(nd)}"
    if r < 0.7:
        return re.sub(r"\* \d+", lambda m: f"* {random.randint(1, 4)}", e, count=1)
    if r < 0.85:
        return f"d{random.randrange(nd)}"
    return e


@settings(max_examples=60, deadline=None)
@given(r=st.randoms(use_true_random=False))
def test_mutated_layer_maps_are_lowered_right_or_refused(r):
    """The forms the pass lowers with one index changed (an offset, a dilation, another dim,
    a stride, a larger buffer): each either refused in one line or lowered to a layer whose
    run equals the generic's own loop nest (a plain Python oracle over the iteration domain)."""
    import itertools

    nd, sz, it_s, ma, mb, mc = r.choice(_templates(r))
    maps = [list(ma), list(mb), list(mc)]
    if r.random() < 0.7:
        k = r.randrange(3)
        j = r.randrange(len(maps[k]))
        maps[k][j] = _mutate(r, maps[k][j], nd)
    top = {f"d{i}": sz[i] - 1 for i in range(nd)}
    shapes = [[eval(e, {}, top) + 1 for e in mp] for mp in maps]  # (the maps are our own text: sums of dims)
    if r.random() < 0.2:
        shapes[0][0] += 1
    dims = ", ".join(f"d{i}" for i in range(nd))
    am = ", ".join(f"affine_map<({dims}) -> ({', '.join(mp)})>" for mp in maps)
    iters = ", ".join('"reduction"' if ch == "r" else '"parallel"' for ch in it_s)
    text = (f"func.func @f(%a: {_t(shapes[0])}, %b: {_t(shapes[1])}, %c: {_t(shapes[2])}) {{\n"
            f"  linalg.generic {{indexing_maps = [{am}], iterator_types = [{iters}]}} ins(%a, %b : {_t(shapes[0])}, {_t(shapes[1])}) outs(%c : {_t(shapes[2])}) {{\n"
            "  ^bb0(%x: f32, %y: f32, %o: f32):\n    %m = arith.mulf %x, %y : f32\n    %r = arith.addf %o, %m : f32\n    linalg.yield %r : f32\n  }\n  func.return\n}\n")  # fmt: skip
    try:
        m = api.parse_text(text)
    except api.InfsError:
        return  # (linalg's own verifier: a map the shapes do not fit)
    try:
        api.PassManager.parse("lower-dram-pim{config=tiny-pim}").run(m)
    except api.InfsError as e:
        assert "\n" not in str(e) and "cannot be lowered to DRAM-PIM" in str(e)
        return
    (op,) = [o for o in m.walk() if isinstance(o, dram_pim.LayerOp)]
    rng = np.random.default_rng(0)
    a, b = (ROUND["bf16"](rng.standard_normal(s).astype(np.float32)) for s in shapes[:2])
    want = np.zeros(shapes[2])
    for pt in itertools.product(*[range(z) for z in sz]):
        env = {f"d{i}": pt[i] for i in range(nd)}
        ia, ib, ic = (tuple(eval(e, {}, env) for e in mp) for mp in maps)
        want[ic] += float(a[ia]) * float(b[ib])
    fn = next(o for o in m.walk() if o.name == "func.func")
    x, w = (a, b) if op.input is fn.body.block.args[0] else (b, a)
    got = run(dram_pim.program_of(op), *dram_pim.bind(op, x, w)).out.reshape(want.shape)
    np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2 * max(1.0, float(np.abs(want).max())))


onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

from infs.frontend.onnx_import import import_model  # noqa: E402


def _onnx_conv(x: np.ndarray, w: np.ndarray, pads: int, strides: tuple[int, int], groups: int):
    node = helper.make_node("Conv", ["x", "w"], ["y"], pads=[pads] * 4, strides=list(strides), group=groups)
    g = helper.make_graph([node], "m", [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [numpy_helper.from_array(w, "w")])  # fmt: skip
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


@settings(max_examples=25, deadline=None)
@given(h=st.integers(1, 7), w=st.integers(1, 7), cg=st.integers(1, 5), groups=st.sampled_from([1, 1, 2, 3, "dw"]), fg=st.integers(1, 3),
       k=st.sampled_from([1, 3]), pads=st.integers(0, 1), sh=st.integers(1, 2), sw=st.integers(1, 2), dtype=st.sampled_from(["bf16", "fp16"]),
       seed=st.integers(0, 99))  # fmt: skip
def test_onnx_convs_dense_grouped_depthwise(h, w, cg, groups, fg, k, pads, sh, sw, dtype, seed):
    if k > h + 2 * pads or k > w + 2 * pads:
        return
    rng = np.random.default_rng(seed)
    G = 4 if groups == "dw" else groups
    C, F = (G, G) if groups == "dw" else (cg * G, fg * G)
    x = rng.standard_normal((1, C, h, w)).astype(np.float32)
    wt = rng.standard_normal((F, C // G, k, k)).astype(np.float32)
    model = _onnx_conv(x, wt, pads, (sh, sw), G)
    prog = import_model(model, weights="args")
    (op,) = _lower(prog.text, dtype=dtype)
    assert op.weight_form.data == ("hwcf" if G == 1 else "hwc" if C == F == G else "ghwcf")
    # the layer's input is the importer's padded buffer: the image in HWC, zero borders
    xp = np.pad(x[0].transpose(1, 2, 0), ((pads, pads), (pads, pads), (0, 0)))
    wname = next(n for n in prog.weights)
    w4 = wt.transpose(2, 3, 1, 0)  # HW(C/G)F
    cols, wm = _conv_ref(xp, w4, (sh, sw), G)
    # the oracle's own semantics against ONNX's reference evaluator (f32, tight)
    want = ReferenceEvaluator(model).run(None, {"x": x})[0][0].transpose(1, 2, 0).reshape(-1, F)
    np.testing.assert_allclose(cols @ wm, want, rtol=1e-4, atol=1e-4 * max(1.0, float(np.abs(want).max())))
    _run_and_check(op, xp, prog.weights[wname], cols, wm, dtype)


def test_every_granularity_through_the_pass():
    """G_ACT, READRES and COMP channel scheduling (PIMFlow §4.3.1) all reached from linalg."""
    grans = set()
    for m, k, n in ((3, 300, 10), (16, 100, 2), (1, 20, 3)):
        text = f"func.func @f(%x: {_t((m, k))}, %w: {_t((k, n))}, %y: {_t((m, n))}) {{\n  linalg.matmul ins(%x, %w : {_t((m, k))}, {_t((k, n))}) outs(%y : {_t((m, n))})\n  func.return\n}}\n"
        (op,) = _lower(text)
        rng = np.random.default_rng(k)
        x, w = rng.standard_normal((m, k)).astype(np.float32), rng.standard_normal((k, n)).astype(np.float32)
        grans.add(_run_and_check(op, x, w, x, w, "bf16").granularity)
    assert grans == {"g_act", "readres", "comp"}


def test_records_round_trip_through_the_ir_keep_the_timing():
    """program -> layer op -> program: the same commands, so the same cycles and energy."""
    from xdsl.dialects.builtin import MemRefType, f32
    from xdsl.ir import Block

    from infs.dialects.dram_pim_records import ConvLayer

    cfg = load_dram_pim("pimflow")
    layer = ConvLayer(6, 6, 40, 24, 3, 3, 1, 1, 1, 1)
    prog = lower_layer(layer, cfg, "fp16", "c")
    blk = Block(arg_types=[MemRefType(f32, [8, 8, 40]), MemRefType(f32, [360, 24]), MemRefType(f32, [6, 6, 24])])
    op = dram_pim.layer_of(prog, *blk.args, "hwcf")
    op.verify()
    back = dram_pim.program_of(op)
    for name in ("kind", "ch", "a", "b", "c"):
        assert np.array_equal(getattr(back.commands, name), getattr(prog.commands, name))
    a, b = run(prog, functional=False), run(back, functional=False)
    assert a.cycles == b.cycles and a.counts == b.counts and a.energy_pj == b.energy_pj


def _refused(text: str, config: str = "tiny-pim") -> str:
    m = api.parse_text(text, "in.mlir")
    with pytest.raises(api.InfsError) as e:
        api.PassManager.parse(f"lower-dram-pim{{config={config}}}").run(m)
    msg = str(e.value)
    assert "\n" not in msg
    return msg


def test_what_cannot_be_lowered_is_one_line():
    big = f"func.func @f(%x: {_t((1, 4096))}, %w: {_t((4096, 64))}, %y: {_t((1, 64))}) {{\n  linalg.matmul ins(%x, %w : {_t((1, 4096))}, {_t((4096, 64))}) outs(%y : {_t((1, 64))})\n  func.return\n}}\n"
    msg = _refused(big)
    assert "larger than the PIM channels" in msg and "linalg.matmul at in.mlir:2:3 in @f" in msg
    dil = (f"func.func @c(%x: {_t((1, 7, 7, 2))}, %w: {_t((3, 3, 2, 2))}, %y: {_t((1, 3, 3, 2))}) {{\n"
           f"  linalg.conv_2d_nhwc_hwcf {{dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}} "
           f"ins(%x, %w : {_t((1, 7, 7, 2))}, {_t((3, 3, 2, 2))}) outs(%y : {_t((1, 3, 3, 2))})\n  func.return\n}}\n")  # fmt: skip
    assert "dilated" in _refused(dil)
    batch = (f"func.func @c(%x: {_t((2, 4, 4, 2))}, %w: {_t((3, 3, 2, 2))}, %y: {_t((2, 2, 2, 2))}) {{\n"
             f"  linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}} "
             f"ins(%x, %w : {_t((2, 4, 4, 2))}, {_t((3, 3, 2, 2))}) outs(%y : {_t((2, 2, 2, 2))})\n  func.return\n}}\n")  # fmt: skip
    assert "batch of 2 images" in _refused(batch)
    ints = "func.func @f(%x: memref<2x3xi32>, %w: memref<3x4xi32>, %y: memref<2x4xi32>) {\n  linalg.matmul ins(%x, %w : memref<2x3xi32>, memref<3x4xi32>) outs(%y : memref<2x4xi32>)\n  func.return\n}\n"
    assert "16-bit floats" in _refused(ints)
    assert "no such built-in" in _refused(big, "nope")


def test_asymmetric_pad_from_onnx_is_refused_in_one_line():
    x = np.zeros((1, 2, 5, 5), np.float32)
    node = helper.make_node("Conv", ["x", "w"], ["y"], pads=[0, 0, 1, 1], strides=[2, 2])
    g = helper.make_graph([node], "m", [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x.shape))],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [numpy_helper.from_array(np.ones((3, 2, 3, 3), np.float32), "w")])  # fmt: skip
    prog = import_model(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]))
    assert "asymmetric pad" in _refused(prog.text)


def test_elementwise_and_pooling_stay_as_they_are():
    text = (f"func.func @f(%x: {_t((4, 4))}, %y: {_t((4,))}) {{\n"
            f"  linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = [\"parallel\", \"reduction\"]}} "
            f"ins(%x : {_t((4, 4))}) outs(%y : {_t((4,))}) {{\n  ^bb0(%a: f32, %o: f32):\n    %r = arith.maximumf %a, %o : f32\n    linalg.yield %r : f32\n  }}\n  func.return\n}}\n")  # fmt: skip
    m = api.parse_text(text)
    api.PassManager.parse("lower-dram-pim{config=tiny-pim}").run(m)
    assert "linalg.generic" in str(m) and "dram_pim" not in str(m)


def test_a_pimflow_model_lowers_every_layer():
    """MobileNetV2 (small): every conv (dense, pointwise, depthwise) and the FC layer become
    layers, their im2col products the table's MACs (a grouped one's times its groups: the
    block-diagonal dense filter); the rest of the function stays."""
    from infs.frontend.onnx_models import build, layers

    model = build("mobilenetv2", 16, 0.25, 10)
    table = [lay for lay in layers(model) if lay.kind in ("conv", "pointwise", "depthwise", "fc")]
    m = api.parse_text(import_model(model).text)
    api.PassManager.parse("lower-dram-pim{config=pimflow}").run(m)
    ops = [op for op in m.walk() if isinstance(op, dram_pim.LayerOp)]
    got = sorted(op.layer().vectors * op.layer().reduction * op.layer().outputs for op in ops)
    assert got == sorted(lay.macs * lay.groups for lay in table)
    assert any(op.weight_form.data == "hwc" for op in ops) and "linalg.generic" in str(m)
