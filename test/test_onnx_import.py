"""ONNX in: models built with ``onnx.helper``, imported by
``infs.frontend.onnx_import`` and run through infs against
``onnx.reference.ReferenceEvaluator`` (the oracle): convs (dense with bias and
strides, depthwise with asymmetric pads, grouped), pooling, flatten, FC and
element-wise ops, on the in/near/core modes; bad models refused in one line."""

from __future__ import annotations

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

from infs import api  # noqa: E402
from infs.frontend.onnx_import import OnnxImportError, import_model, load_model  # noqa: E402

RNG = np.random.default_rng(0)


def _init(name, a):
    return numpy_helper.from_array(np.asarray(a), name)


def _model(nodes, shape, inits, opset=17):
    g = helper.make_graph(nodes, "m", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def _check(m, x, mode="in", weights="globals"):
    want = ReferenceEvaluator(m).run(None, {"x": x})[0]
    p = import_model(m, weights=weights)
    res = api.run(p.text, p.feed({"x": x}), config="small-16", mode=mode)
    got = p.results(res.outputs)["y"]
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * max(1.0, float(np.abs(want).max())))
    return res


def _f(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def test_conv_bias_strides_pads_relu_in_memory():
    m = _model([helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1], strides=[2, 1]), helper.make_node("Relu", ["c"], ["y"])],
               [1, 4, 7, 6], [_init("w", _f(5, 4, 3, 3)), _init("b", _f(5))])
    res = _check(m, _f(1, 4, 7, 6), "in")
    assert any(r.mode == "in" for r in res.regions)


def test_depthwise_asymmetric_pads_maxpool_flatten():
    m = _model([helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 0, 1, 2], group=4),
                helper.make_node("MaxPool", ["c"], ["p"], kernel_shape=[2, 2], strides=[2, 2]), helper.make_node("Flatten", ["p"], ["y"])],
               [1, 4, 7, 6], [_init("w", _f(4, 1, 3, 3))])
    _check(m, _f(1, 4, 7, 6), "in")


@pytest.mark.parametrize("mode", ["near", "core"])
def test_grouped_conv_global_average_pool(mode):
    m = _model([helper.make_node("Conv", ["x", "w"], ["c"], group=2), helper.make_node("GlobalAveragePool", ["c"], ["y"])],
               [1, 4, 5, 6], [_init("w", _f(6, 2, 1, 1))])
    _check(m, _f(1, 4, 5, 6), mode)


def test_conv_batchnorm_folded_clip_avgpool_args():
    c = 3
    m = _model([helper.make_node("Conv", ["x", "w"], ["c"], pads=[2, 2, 2, 2]),
                helper.make_node("BatchNormalization", ["c", "g", "be", "mu", "var"], ["n"]),
                helper.make_node("Clip", ["n", "lo", "hi"], ["r"]),
                helper.make_node("AveragePool", ["r"], ["y"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])],
               [1, 2, 6, 6], [_init("w", _f(c, 2, 5, 5)), _init("g", _f(c)), _init("be", _f(c)), _init("mu", _f(c)),
                              _init("var", np.abs(_f(c)) + 0.5), _init("lo", np.float32(0)), _init("hi", np.float32(6))])
    p = import_model(m)
    assert "BatchNormalization" not in p.text and p.text.count("linalg.generic") >= 3
    _check(m, _f(1, 2, 6, 6), "core", weights="args")


def test_gemm_sigmoid_hardswish_add_mul():
    m = _model([helper.make_node("Gemm", ["x", "w", "b"], ["g"], transB=1), helper.make_node("Sigmoid", ["g"], ["s"]),
                helper.make_node("HardSwish", ["g"], ["h"]), helper.make_node("Mul", ["s", "h"], ["mm"]), helper.make_node("Add", ["mm", "b2"], ["y"])],
               [1, 6], [_init("w", _f(5, 6)), _init("b", _f(5)), _init("b2", _f(1, 5))])
    _check(m, _f(1, 6), "core")


def test_matmul_concat_slice_pad_reshape():
    m = _model([helper.make_node("MatMul", ["x", "w"], ["a"]), helper.make_node("Concat", ["a", "a"], ["c"], axis=1),
                helper.make_node("Slice", ["c", "st", "en", "ax", "sp"], ["s"]), helper.make_node("Pad", ["s", "pads"], ["p"]),
                helper.make_node("Reshape", ["p", "shape"], ["y"])],
               [3, 4], [_init("w", _f(4, 5)), _init("st", np.array([1], np.int64)), _init("en", np.array([9], np.int64)),
                        _init("ax", np.array([1], np.int64)), _init("sp", np.array([2], np.int64)),
                        _init("pads", np.array([0, 1, 1, 1], np.int64)), _init("shape", np.array([2, -1], np.int64))])
    _check(m, _f(3, 4), "core")


def test_unsupported_op_names_op_and_node():
    m = _model([helper.make_node("Softmax", ["x"], ["y"], name="sm")], [1, 4], [])
    with pytest.raises(OnnxImportError, match=r"node 0 'sm' \(Softmax\): op 'Softmax' is not supported"):
        import_model(m)


def test_malformed_file(tmp_path):
    f = tmp_path / "bad.onnx"
    f.write_bytes(b"\x08\x07garbage\xff\xff\xff")
    with pytest.raises(OnnxImportError, match="not an ONNX model"):
        load_model(f)


def test_external_data_outside_folder_refused(tmp_path):
    t = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4])
    t.data_location = TensorProto.EXTERNAL
    t.external_data.add(key="location", value="../../etc/passwd")
    m = _model([helper.make_node("Add", ["x", "w"], ["y"])], [4], [t])
    f = tmp_path / "ext.onnx"
    f.write_bytes(m.SerializeToString())
    with pytest.raises(OnnxImportError, match="outside the model's folder"):
        load_model(f)


def test_declared_size_beyond_memory_refused():
    m = _model([helper.make_node("Relu", ["x"], ["y"])], [1, 1 << 20, 1 << 20, 1 << 10], [])
    with pytest.raises(OnnxImportError, match="more than this host's memory"):
        import_model(m)


def test_shape_not_inferable():
    m = _model([helper.make_node("Relu", ["x"], ["y"])], [1, "n"], [])
    with pytest.raises(OnnxImportError, match="no static shape"):
        import_model(m)


def test_cli_imports_and_infs_run_checks(tmp_path):
    import subprocess
    import sys

    m = _model([helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]), helper.make_node("Relu", ["c"], ["y"])],
               [1, 2, 5, 5], [_init("w", _f(3, 2, 3, 3))])
    src, out = tmp_path / "m.onnx", tmp_path / "m.mlir"
    src.write_bytes(m.SerializeToString())
    r = subprocess.run([sys.executable, "-m", "infs.tools.infs_import_onnx", str(src), "-o", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([sys.executable, "-m", "infs.tools.infs_run", str(out), "--config", "small-16", "--mode", "in", "--check"], capture_output=True, text=True)
    assert r.returncode == 0 and "check: outputs match" in r.stdout, r.stdout + r.stderr
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x0a\xff\xff")
    r = subprocess.run([sys.executable, "-m", "infs.tools.infs_import_onnx", str(bad)], capture_output=True, text=True)
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
