"""linalg in: ``linalg.generic`` and named ops on memrefs go
through xDSL's own ``convert-linalg-to-loops`` (no second lowering), then
``extract-streams``; ``infs-run`` and ``api.run`` do both by themselves, and
``infs-opt --convert-linalg-to-loops --extract-streams`` (or just
``--extract-streams``) prints the regions.

* gemm (``linalg.fill`` + ``linalg.matmul``) and a 2-D element-wise add
  (``linalg.generic``) against numpy, at odd sizes, in modes auto/in;
* three workloads of ``infs/workloads`` written as linalg (vec_add as
  ``linalg.add``, mm_inner as a ``linalg.generic`` reduction, mm_outer as
  ``linalg.matmul``) against the hand-written stream versions: equal outputs;
  vec_add and mm_inner (its ``linalg.fill`` folded into the reduction's
  initial value) also the same regions, placed alike, the same cycles (5%);
* fills that must stay (another value, another array, a read between) stay.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from infs import api
from infs.dialects import stream
from infs.passes.extract_streams import extract_streams
from infs.workloads import WORKLOADS

ROOT = Path(__file__).resolve().parents[1]

GEMM = """
func.func @gemm(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>) {
  %zero = arith.constant 0.0 : f64
  linalg.fill ins(%zero : f64) outs(%C : memref<?x?xf64>)
  linalg.matmul ins(%A, %B : memref<?x?xf64>, memref<?x?xf64>) outs(%C : memref<?x?xf64>)
  func.return
}
"""

ADD2D = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @add2d(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  func.return
}
"""

# three workloads as linalg, with the stream versions' signatures (the index
# sizes are unused: linalg's loop bounds are the arrays' shapes)
VEC_ADD = """
func.func @vec_add(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>, %n: index) {
  linalg.add ins(%A, %B : memref<?xf32>, memref<?xf32>) outs(%C : memref<?xf32>)
  func.return
}
"""

MM_INNER = """
func.func @mm_inner(%A: memref<?x?xf32>, %Bt: memref<?x?xf32>, %C: memref<?x?xf32>, %m: index, %n: index, %k: index) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<?x?xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %Bt : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  }
  func.return
}
"""

MM_OUTER = """
func.func @mm_outer(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %m: index, %n: index, %k: index) {
  linalg.matmul ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
  func.return
}
"""


@pytest.mark.parametrize("mode", ["auto", "in"])
def test_gemm_as_linalg_matches_numpy(mode: str) -> None:
    rng = np.random.default_rng(0)
    A, B = rng.uniform(-1, 1, (7, 5)), rng.uniform(-1, 1, (5, 11))
    C = rng.uniform(-1, 1, (7, 11))  # overwritten by the fill
    res = api.run(GEMM, {"A": A, "B": B, "C": C}, config="small-16", mode=mode)
    np.testing.assert_allclose(res.outputs["C"], A @ B, rtol=1e-12)
    # the fill of C with 0.0 is the matmul's initial value: one region storing the fold
    # (without the fold: the fill, then the matmul's fold into a temporary and C's update)
    assert len(res.regions) == 1


@pytest.mark.parametrize("mode", ["auto", "in"])
def test_elementwise_add_as_linalg_generic_matches_numpy(mode: str) -> None:
    rng = np.random.default_rng(1)
    A, B = (rng.uniform(-1, 1, (13, 7)).astype(np.float32) for _ in range(2))
    res = api.run(ADD2D, {"A": A, "B": B, "C": np.zeros((13, 7), np.float32)}, config="small-16", mode=mode)
    np.testing.assert_array_equal(res.outputs["C"], A + B)
    if mode == "in":
        assert [(r.mode, r.not_honoured) for r in res.regions] == [("in", "")]  # an f32 add runs in memory


# a reduction to a scalar: linalg reduces into a 0-d memref (filled with the identity,
# then folded into the reduction's start), which the function loads and returns
ARRAY_SUM = """
func.func @array_sum(%A: memref<?xf32>, %n: index) -> f32 {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<f32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<f32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%A : memref<?xf32>) outs(%acc : memref<f32>) {
  ^bb0(%a: f32, %c: f32):
    %s = arith.addf %c, %a : f32
    linalg.yield %s : f32
  }
  %r = memref.load %acc[] : memref<f32>
  memref.dealloc %acc : memref<f32>
  func.return %r : f32
}
"""


@pytest.mark.parametrize(("name", "text"), [("vec_add", VEC_ADD), ("array_sum", ARRAY_SUM), ("mm_inner", MM_INNER), ("mm_outer", MM_OUTER)])
def test_workloads_as_linalg_equal_the_stream_versions(name: str, text: str) -> None:
    w = WORKLOADS[name]
    sizes = {k: v + 3 for k, v in w.sizes("small").items()}  # odd sizes
    inputs = w.inputs(sizes, seed=2)
    args = {**inputs, **sizes}
    streams = api.run(str(w.path), {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in args.items()}, config="small-16", mode="auto")
    loops = api.run(text, {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in args.items()}, config="small-16", mode="auto")
    for out in w.outputs:
        np.testing.assert_allclose(loops.outputs[out], streams.outputs[out], rtol=1e-5, atol=1e-6, err_msg=f"{name}: {out}")
        np.testing.assert_allclose(loops.outputs[out], w.reference(inputs, sizes)[out], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(loops.results, np.float64), np.asarray(streams.results, np.float64), rtol=1e-5)
    if name == "mm_outer":
        # linalg's matmul accumulates into its output (C += A.B, no fill): a fold into a
        # temporary and an update of C, where the hand-written program runs the
        # outer-product schedule on the host
        assert len(loops.regions) == 2, [r.mode for r in loops.regions]
    else:
        # the hand-written regions, in the same places (mm_inner: the fill of C with 0.0
        # folded into the reduction's initial value), the same cycles within 5%
        assert [r.mode for r in loops.regions] == [r.mode for r in streams.regions], [r.mode for r in loops.regions]
        assert abs(loops.cycles - streams.cycles) <= 0.05 * streams.cycles, (loops.cycles, streams.cycles)
        assert name not in ("vec_add", "array_sum") or loops.cycles == streams.cycles  # exactly the same


# fills that must stay: their value is not the fold's starting point, or another
# array's, or C is read before the matmul overwrites it (D[0] = C[0, 0] is the fill's)
_KEPT_FILLS = {
    "non-identity value": ("%two = arith.constant 2.0 : f64\n  linalg.fill ins(%two : f64) outs(%C : memref<?x?xf64>)", lambda A, B, C, D: (2 + A @ B, D)),
    "another memref": ("%zero = arith.constant 0.0 : f64\n  linalg.fill ins(%zero : f64) outs(%D : memref<?xf64>)", lambda A, B, C, D: (C + A @ B, 0 * D)),
    "C read between": ("%zero = arith.constant 0.0 : f64\n  linalg.fill ins(%zero : f64) outs(%C : memref<?x?xf64>)\n  %c0 = arith.constant 0 : index\n"
                       "  %x = memref.load %C[%c0, %c0] : memref<?x?xf64>\n  memref.store %x, %D[%c0] : memref<?xf64>",
                       lambda A, B, C, D: (A @ B, np.r_[0.0, D[1:]])),
}  # fmt: skip


@pytest.mark.parametrize("case", list(_KEPT_FILLS))
def test_fill_that_is_not_the_reductions_start_is_kept(case: str) -> None:
    before, want = _KEPT_FILLS[case]
    text = f"""
func.func @k(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>, %D: memref<?xf64>) {{
  {before}
  linalg.matmul ins(%A, %B : memref<?x?xf64>, memref<?x?xf64>) outs(%C : memref<?x?xf64>)
  func.return
}}
"""
    rng = np.random.default_rng(3)
    A, B, C, D = rng.uniform(-1, 1, (6, 4)), rng.uniform(-1, 1, (4, 9)), rng.uniform(-1, 1, (6, 9)), rng.uniform(-1, 1, 5)
    res = api.run(text, {"A": A, "B": B, "C": C.copy(), "D": D.copy()}, config="small-16", mode="auto")
    wc, wd = want(A, B, C, D)
    np.testing.assert_allclose(res.outputs["C"], wc, rtol=1e-12)
    np.testing.assert_allclose(res.outputs["D"], wd, rtol=1e-12)
    assert len(res.regions) == 3  # the fill, then the matmul's fold into a temporary and C's update
    module = api.parse_text(text, "k.mlir")
    assert not any("folded" in str(r) for r in extract_streams(module))


def test_fill_with_plus_inf_folds_into_a_min_reduction() -> None:
    # a row minimum: the fill's +inf is where minimumf's fold starts (-0.0 vs 0.0 aside, every
    # identity is exact: +inf min x = x, NaN included)
    text = """
func.func @rowmin(%A: memref<?x?xf32>, %R: memref<?xf32>) {
  %inf = arith.constant 0x7F800000 : f32
  linalg.fill ins(%inf : f32) outs(%R : memref<?xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%A : memref<?x?xf32>) outs(%R : memref<?xf32>) {
  ^bb0(%a: f32, %r: f32):
    %m = arith.minimumf %r, %a : f32
    linalg.yield %m : f32
  }
  func.return
}
"""
    A = np.random.default_rng(4).uniform(-1, 1, (9, 7)).astype(np.float32)
    res = api.run(text, {"A": A, "R": np.zeros(9, np.float32)}, config="small-16", mode="auto")
    np.testing.assert_array_equal(res.outputs["R"], A.min(axis=1))
    assert len(res.regions) == 1


def test_fill_folds_inside_a_host_loop() -> None:
    # the time loop stays on the host (its body is not one nest); inside it, fill + matmul is one region
    text = """
func.func @k(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>, %D: memref<?x?xf64>, %t: index) {
  %zero = arith.constant 0.0 : f64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %it = %c0 to %t step %c1 {
    linalg.fill ins(%zero : f64) outs(%C : memref<?x?xf64>)
    linalg.matmul ins(%A, %B : memref<?x?xf64>, memref<?x?xf64>) outs(%C : memref<?x?xf64>)
    linalg.add ins(%C, %D : memref<?x?xf64>, memref<?x?xf64>) outs(%D : memref<?x?xf64>)
  }
  func.return
}
"""
    rng = np.random.default_rng(5)
    A, B, C, D = rng.uniform(-1, 1, (5, 4)), rng.uniform(-1, 1, (4, 6)), rng.uniform(-1, 1, (5, 6)), rng.uniform(-1, 1, (5, 6))
    res = api.run(text, {"A": A, "B": B, "C": C, "D": D.copy(), "t": 3}, config="small-16", mode="auto")
    np.testing.assert_allclose(res.outputs["C"], A @ B, rtol=1e-12)
    np.testing.assert_allclose(res.outputs["D"], D + 3 * (A @ B), rtol=1e-12)
    assert len(res.regions) == 2 * 3  # the matmul's and the add's, per step


def test_linalg_lowering_keeps_locations_and_says_so() -> None:
    module = api.parse_text(GEMM, "gemm.mlir")
    remarks = extract_streams(module)
    text = [str(r) for r in remarks]
    assert "gemm.mlir:4:3: remark: extract-streams: 'linalg.fill' lowered to loops by convert-linalg-to-loops" in text
    assert "gemm.mlir:5:3: remark: extract-streams: 'linalg.matmul' lowered to loops by convert-linalg-to-loops" in text
    assert "gemm.mlir:4:3: remark: extract-streams: 'linalg.fill' folded into the reduction at line 5: it sets its output to the reduction's identity, and linalg's reduction writes every cell of it" in text
    assert any(t.startswith("gemm.mlir:5:3: remark: extract-streams: loop nest extracted into 1 stream.region:") for t in text), text
    assert not any(op.dialect_name() == "linalg" for op in module.walk())
    assert sum(isinstance(op, stream.RegionOp) for op in module.walk()) == 1


def test_linalg_on_tensors_is_a_one_line_error() -> None:
    text = """
func.func @t(%A: tensor<4x4xf32>, %B: tensor<4x4xf32>, %C: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.matmul ins(%A, %B : tensor<4x4xf32>, tensor<4x4xf32>) outs(%C : tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}
"""
    with pytest.raises(api.InfsError, match=r"t.mlir:3:3: 'linalg.matmul' on tensors: bufferize it to memrefs first"):
        api.run(api.parse_text(text, "t.mlir"), {"A": np.zeros((4, 4), np.float32)}, config="tiny")


def test_infs_opt_and_infs_run_take_linalg(tmp_path: Path) -> None:
    f = tmp_path / "add2d.mlir"
    f.write_text(ADD2D)
    for flags in (["--convert-linalg-to-loops", "--extract-streams"], ["--extract-streams"]):
        p = subprocess.run([sys.executable, "-m", "infs.tools.infs_opt", str(f), *flags], capture_output=True, text=True, cwd=ROOT)
        assert p.returncode == 0, p.stderr
        assert "stream.region" in p.stdout and "linalg." not in p.stdout
    p = subprocess.run([sys.executable, "-m", "infs.tools.infs_run", str(f), "--shape", "A=9x5,B=9x5,C=9x5", "--config", "small-16", "--mode", "in", "--strict", "--check", "--json"],
                       capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert '"ok": true' in p.stdout
