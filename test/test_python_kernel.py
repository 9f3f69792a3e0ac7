"""Python kernels: ``@infs.kernel`` -> affine MLIR -> extract-streams -> the runtime.

* vec_add, a jacobi-2d step, mm (``C[i,j] += A[i,k]*B[k,j]``) and an array sum
  written as Python kernels give numpy's results on odd/prime sizes, in f32
  and f64, under ``mode`` auto/in/near on ``tiny`` and ``small-16``; the same
  function called in plain Python is the oracle too;
* a loop-carried dependence (``A[i] = A[i-1] + A[i]``) is not extracted;
* the MLIR a kernel prints parses back (``api.parse_text``) to the same text;
* unsupported Python is one line naming the file and the line;
* random affine loop nests written as Python source (hypothesis), exec'd, run
  as kernels and in plain Python: the same arrays.
"""

from __future__ import annotations

import inspect
import linecache
import math
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import infs
from infs import api
from infs.frontend.kernel_types import Array, KernelError

from strategies import examples

EXAMPLES = examples(8, "INFS_PYKERNEL_EXAMPLES")


# ---------------------------------------------------------------------------
# The kernels
# ---------------------------------------------------------------------------


@infs.kernel
def vec_add(A, B, C, n: int):
    for i in range(n):
        C[i] = A[i] + B[i]


@infs.kernel
def jacobi2d_step(A, B, n: int):
    for i in range(1, n - 1):
        for j in range(1, n - 1):
            B[i, j] = 0.2 * (A[i, j] + A[i - 1, j] + A[i + 1, j] + A[i][j - 1] + A[i, j + 1])


@infs.kernel
def mm(A, B, C):
    for i in range(A.shape[0]):
        for j in range(B.shape[1]):
            for k in range(A.shape[1]):
                C[i, j] += A[i, k] * B[k, j]


@infs.kernel
def array_sum(A, out):
    for i in range(len(A)):
        out[0] += A[i]


@infs.kernel
def array_sum_value(A):
    s = 0.0
    for i in range(len(A)):
        s += A[i]
    return s


@infs.kernel
def prefix(A, n: int):
    for i in range(1, n):
        A[i] = A[i - 1] + A[i]


CONFIGS = ["tiny", "small-16"]
MODES = ["auto", "in", "near"]
DTYPES = [np.float32, np.float64]


def _rtol(dtype) -> float:
    return 2e-5 if dtype == np.float32 else 1e-12


def _python(fn, *args):
    """The kernel's function called in plain Python on copies (the second oracle)."""
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        ret = fn.fn(*copies)
    return copies, ret


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_vec_add(config, mode, dtype):
    rng = np.random.default_rng(1)
    n = 37
    A, B = rng.uniform(-1, 1, n).astype(dtype), rng.uniform(-1, 1, n).astype(dtype)
    C = np.zeros(n, dtype)
    run = vec_add(A, B, C, n, config=config, mode=mode)
    np.testing.assert_array_equal(C, A + B)
    assert run.cycles > 0 and len(run.modes) == 1
    if mode != "auto":
        assert run.modes == [mode]


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_jacobi2d_step(config, mode, dtype):
    rng = np.random.default_rng(2)
    n = 13
    A = rng.uniform(0, 1, (n, n)).astype(dtype)
    B = np.zeros((n, n), dtype)
    want = B.copy()
    want[1:-1, 1:-1] = dtype(0.2) * (A[1:-1, 1:-1] + A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:])
    (_, oracle_B, _), _ = _python(jacobi2d_step, A, B, n)
    run = jacobi2d_step(A, B, n, config=config, mode=mode)
    np.testing.assert_allclose(B, want, rtol=_rtol(dtype))
    np.testing.assert_allclose(B, oracle_B, rtol=_rtol(dtype))
    assert len(run.modes) == 1


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_mm(config, mode, dtype):
    rng = np.random.default_rng(3)
    m, k, n = 7, 5, 11
    A, B = rng.uniform(-1, 1, (m, k)).astype(dtype), rng.uniform(-1, 1, (k, n)).astype(dtype)
    C = rng.uniform(-1, 1, (m, n)).astype(dtype)
    want = C + A @ B
    run = mm(A, B, C, config=config, mode=mode)
    np.testing.assert_allclose(C, want, rtol=10 * _rtol(dtype), atol=10 * _rtol(dtype))
    assert len(run.modes) == 2  # the fold into a temporary, then the update (extract-streams)


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_array_sum(config, mode, dtype):
    rng = np.random.default_rng(4)
    A = rng.uniform(0, 1, 31).astype(dtype)
    out = np.zeros(1, dtype)
    run = array_sum(A, out, config=config, mode=mode)
    assert math.isclose(out[0], A.sum(dtype=np.float64), rel_tol=10 * _rtol(dtype))
    assert len(run.modes) == 1
    # the same sum as a local accumulator, returned
    run = array_sum_value(A, config=config, mode=mode)
    assert isinstance(run.value, dtype) and math.isclose(run.value, A.sum(dtype=np.float64), rel_tol=10 * _rtol(dtype))
    assert "iterators [reduction]" in run.remarks[0]


def test_loop_carried_dependence_stays_on_the_host():
    A = np.arange(1, 12, dtype=np.int32)
    want = np.cumsum(A).astype(np.int32)
    (remark,) = prefix.remarks(A, len(A))
    line = inspect.getsourcelines(prefix.fn)[1] + 2  # the loop, after the decorator and the def
    assert remark.startswith(f"{__file__}:{line}:5: remark: extract-streams: loop nest not extracted: has a loop-carried dependence"), remark
    assert "stream.region" not in prefix.mlir(A, len(A), stage="streams")
    for mode in ("auto", "in"):
        B = A.copy()
        run = prefix(B, len(B), config="tiny", mode=mode)
        np.testing.assert_array_equal(B, want)
        assert run.modes == []


@pytest.mark.parametrize("kernel, args", [
    (vec_add, (Array("float32", 1), Array("float32", 1), Array("float32", 1), int)),
    (jacobi2d_step, (Array("float64", 2), Array("float64", 2), int)),
    (mm, (Array("int16", 2), Array("int16", 2), Array("int16", 2))),
    (array_sum_value, (Array("float32", 1),)),
    (prefix, (Array("int64", 1), int)),
])  # fmt: skip
def test_mlir_round_trips(kernel, args):
    text = kernel.mlir(*args)
    assert "affine.for" in text
    module = api.parse_text(text)
    assert api.to_text(module) == text
    streams = kernel.mlir(*args, stage="streams")
    assert api.to_text(api.parse_text(streams)) == streams


def test_mlir_is_specialized_on_dtype_and_rank():
    f32 = vec_add.mlir(np.zeros(3, np.float32), np.zeros(3, np.float32), np.zeros(3, np.float32), 3)
    i8 = vec_add.mlir(np.zeros(3, np.int8), np.zeros(3, np.int8), np.zeros(3, np.int8), 3)
    assert "memref<?xf32>" in f32 and "arith.addf" in f32
    assert "memref<?xi8>" in i8 and "arith.addi" in i8
    # mixed: int32 + float32 is float64 in numpy; the store truncates it back to f32
    mixed = vec_add.mlir(np.zeros(3, np.int32), np.zeros(3, np.float32), np.zeros(3, np.float32), 3)
    assert "arith.sitofp" in mixed and "arith.truncf" in mixed and "addf" in mixed and ": f64" in mixed


# ---------------------------------------------------------------------------
# Semantics beyond the four kernels: each against the plain-Python call
# ---------------------------------------------------------------------------


@infs.kernel
def python_semantics(A, B, C, n: int, alpha: float):
    for i in range(n):
        a = A[i]
        b = B[i]
        q = a // 3  # Python's floor, also of negatives
        r = a % 3
        m = max(a, b, 2)
        t = -a if a < 0 else a
        if a > b:
            u = a - b
        else:
            u = b - a
        C[i, 0] = q
        C[i, 1] = r
        C[i, 2] = m + min(a, b)
        C[i, 3] = t + abs(b)
        C[i, 4] = u * 2
        C[i, 5] = a / 2 * alpha  # a float: truncated on the store, as numpy does
        C[i, 6] = (a + i) % 4 if a != 0 and b != 0 else 7


@infs.kernel
def indirect(A, idx, out, n: int):
    for i in range(n):
        out[i] = A[idx[i]] + A[(i * i) % n]


@infs.kernel
def triangular(A, out, n: int):
    for i in range(n):
        s = 0
        for j in range(i + 1):
            s += A[i, j]
        out[i] = s
    for i in range(n):
        for j in range(i, min(n, i + 3)):
            out[j] = out[j] + 1


@infs.kernel
def guarded(A, out, n: int):
    for i in range(n):
        out[i] = A[i - 1] if i > 0 else A[i]
        if i + 1 < n and A[i + 1] > 0:
            out[i] += 10


def test_integer_semantics_are_pythons():
    rng = np.random.default_rng(5)
    n = 17
    A = rng.integers(-9, 10, n).astype(np.int32)
    B = rng.integers(-9, 10, n).astype(np.int32)
    C = np.zeros((n, 7), np.int32)
    (_, _, want, _, _), _ = _python(python_semantics, A, B, C, n, 1.5)
    for mode in ("auto", "in", "near"):
        C = np.zeros((n, 7), np.int32)
        python_semantics(A, B, C, n, 1.5, config="tiny", mode=mode)
        np.testing.assert_array_equal(C, want)


def test_indirect_triangular_and_guarded_accesses_run_on_the_host():
    rng = np.random.default_rng(6)
    n = 11
    A = rng.uniform(-1, 1, n).astype(np.float32)
    idx = rng.integers(0, n, n).astype(np.int64)
    out = np.zeros(n, np.float32)
    (_, _, want, _), _ = _python(indirect, A, idx, out, n)
    indirect(A, idx, out, n, config="tiny")
    np.testing.assert_array_equal(out, want)
    A2 = rng.uniform(-1, 1, (n, n))
    out2 = np.zeros(n)
    (_, want2, _), _ = _python(triangular, A2, out2, n)
    triangular(A2, out2, n, config="tiny")
    np.testing.assert_allclose(out2, want2, rtol=1e-12)
    out3 = np.zeros(n, np.float32)
    (_, want3, _), _ = _python(guarded, A, out3, n)
    guarded(A, out3, n, config="tiny")
    np.testing.assert_array_equal(out3, want3)


def test_kernel_call_arguments():
    A = np.ones(5, np.float32)
    C = np.zeros(5, np.float32)
    with pytest.raises(KernelError, match=r"arguments 'A' and 'B' share memory"):
        vec_add(A, A, C, 5, config="tiny")
    with pytest.raises(KernelError, match=r"float16 arrays are not supported"):
        vec_add(A.astype(np.float16), A, C, 5, config="tiny")
    with pytest.raises(KernelError, match=r"argument 'B': a list is neither"):
        vec_add(A, [1.0] * 5, C, 5, config="tiny")
    with pytest.raises(api.InfsError, match=r"unknown run option 'nosuch'"):
        vec_add(A, A.copy(), C, 5, config="tiny", nosuch=1)
    with pytest.raises(api.InfsError, match=r"accesses index 5 in dim 0 of an array of shape \[5\]"):
        vec_add(A, A.copy(), C, 6, config="tiny", mode="near")
    # a strided view is updated in place, the rest of its base untouched
    base = np.zeros(10, np.float32)
    vec_add(A, A.copy(), base[::2], 5, config="tiny")
    np.testing.assert_array_equal(base, [2, 0] * 5)


def test_import_infs_does_not_load_xdsl():
    code = "import sys, infs; assert 'xdsl' not in sys.modules, 'xdsl loaded'; assert callable(infs.kernel); assert 'xdsl' in sys.modules"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr


# ---------------------------------------------------------------------------
# Unsupported Python: one line, at the right line
# ---------------------------------------------------------------------------


def bad_while(A, n: int):
    i = 0
    while i < n:  # ERR
        A[i] = 0.0
        i += 1


def bad_call(A, n: int):
    for i in range(n):
        A[i] = np.sin(A[i])  # ERR


def bad_slice(A, B, n: int):
    for i in range(n):
        B[i] = 1.0
    A[0:n] = 1.0  # ERR


def bad_after_loop(A, n: int):
    for i in range(n):
        t = A[i] * 2
    A[0] = t  # ERR


def bad_negative_index(A, n: int):
    for i in range(n):
        A[i] = A[-1]  # ERR


def bad_float_floordiv(A, n: int):
    for i in range(n):
        A[i] = A[i] // 2.0  # ERR


def bad_loop(A, n: int):
    for x in A:  # ERR
        pass


def bad_print(A, n: int):
    for i in range(n):
        print(A[i])  # ERR


def bad_early_return(A, n: int):
    for i in range(n):
        return A[i]  # ERR


def bad_rank(A, n: int):
    for i in range(n):
        A[i] = 1.0  # ERR


def bad_object(A, n: int):
    for i in range(n):
        A[i] = "x"  # ERR


def bad_bound(A, n: int):
    for i in range(n):
        for j in range(i * i):  # ERR
            A[i, j] = 0.0


def bad_inner_loop_variable(A, j: int, n: int):
    for i in range(n):
        for j in range(n):
            A[i, j] = 1.0
    A[0, 0] = j  # ERR


@pytest.mark.parametrize("fn, args, what", [
    (bad_while, (np.zeros(4), 4), "'while' loop"),
    (bad_call, (np.zeros(4), 4), "call of 'np.sin'"),
    (bad_slice, (np.zeros(4), np.zeros(4), 4), "slice of 'A'"),
    (bad_after_loop, (np.zeros(4), 4), "use of 't', which is bound inside the loop"),
    (bad_negative_index, (np.zeros(4), 4), "negative index -1"),
    (bad_float_floordiv, (np.zeros(4), 4), "'//' on floats"),
    (bad_loop, (np.zeros(4), 4), "loop (only 'for i in range(...)')"),
    (bad_print, (np.zeros(4), 4), "call of 'print' as a statement"),
    (bad_early_return, (np.zeros(4), 4), "'return' before the end"),
    (bad_rank, (np.zeros((4, 4)), 4), "access A with 1 index(es): it has 2 dims"),
    (bad_object, (np.zeros(4), 4), "constant 'x'"),
    (bad_bound, (np.zeros((4, 16)), 4), "loop bound: not affine"),
    # Python leaves j at the inner loop's last value: the kernel refuses rather than read the argument
    (bad_inner_loop_variable, (np.zeros((4, 4)), 0, 4), "use of 'j', which is bound inside the loop"),
])  # fmt: skip
def test_unsupported_python_is_one_line_at_its_line(fn, args, what):
    lines, first = inspect.getsourcelines(fn)
    line = first + next(k for k, text in enumerate(lines) if "# ERR" in text)
    k = infs.kernel(fn)
    for call in (lambda: k.mlir(*args), lambda: k(*args, config="tiny")):
        with pytest.raises(KernelError) as e:
            call()
        msg = str(e.value)
        assert "\n" not in msg
        assert msg.startswith(f"{__file__}:{line}:"), msg
        assert "error: unsupported " in msg and what in msg, msg


SCALE = 2.0


@infs.kernel
def scaled(A, n: int):
    for i in range(n):
        A[i] = A[i] * SCALE


def test_numeric_globals_are_read_at_each_specialization():
    global SCALE
    A = np.ones(5)
    scaled(A, 5, config="tiny")
    assert A.tolist() == [2.0] * 5
    SCALE = 3.0
    try:
        scaled(A, 5, config="tiny")
    finally:
        SCALE = 2.0
    assert A.tolist() == [6.0] * 5


def test_decorating_something_else_is_an_error():
    with pytest.raises(KernelError, match="applies to a Python function"):
        infs.kernel(np.add)
    with pytest.raises(KernelError, match="collides with the run keyword"):

        @infs.kernel
        def f(A, mode):
            pass


# ---------------------------------------------------------------------------
# Random affine loop nests as Python source (hypothesis)
# ---------------------------------------------------------------------------

_SOURCES = 0


def _exec_kernel(src: str, name: str = "kern"):
    """Compile ``src`` under a file name of its own, registered with linecache
    (the front end reads a kernel's source as Python's ``inspect`` does)."""
    global _SOURCES
    _SOURCES += 1
    filename = f"<random-kernel-{_SOURCES}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    scope: dict = {"np": np}
    exec(compile(src, filename, "exec"), scope)
    return scope[name]


@st.composite
def python_nests(draw):
    dtype = draw(st.sampled_from(["float32", "float64", "int32"]))
    depth = draw(st.integers(1, 3))
    sizes = [draw(st.sampled_from([1, 2, 3, 5, 7])) for _ in range(2)]
    loops = []  # (lo, hi source, hi value)
    for d in range(depth):
        lo = draw(st.sampled_from([0, 0, 1]))
        form = draw(st.sampled_from(["n", "n-1", "const"]))
        k = draw(st.integers(0, 1))
        if form == "const":
            c = draw(st.sampled_from([1, 2, 4]))
            loops.append((lo, str(c), c))
        elif form == "n":
            loops.append((lo, f"n{k}", sizes[k]))
        else:
            loops.append((lo, f"n{k} - 1", sizes[k] - 1))
    ranks = {"A0": draw(st.integers(1, 2)), "A1": draw(st.integers(1, 3)), "T0": depth, "T1": draw(st.integers(1, depth))}
    ext = {a: [1] * r for a, r in ranks.items()}
    ivr = [(lo, max(lo, hi - 1)) for lo, _, hi in loops]

    def index(arr: str, dim: int, kind: str) -> str:
        form = draw(st.sampled_from(["iv", "iv", "off", "two", "sum", "const", "neg"]))
        k = draw(st.integers(0, depth - 1))
        lo, hi = ivr[k]
        if form == "iv":
            e, mn, mx = f"i{k}", lo, hi
        elif form == "off":
            c = draw(st.integers(-1, 2))
            c = max(c, -lo)
            e, mn, mx = f"i{k} + {c}" if c >= 0 else f"i{k} - {-c}", lo + c, hi + c
        elif form == "two":
            e, mn, mx = f"2 * i{k}", 2 * lo, 2 * hi
        elif form == "sum" and depth > 1:
            k2 = (k + 1) % depth
            e, mn, mx = f"i{k} + i{k2}", lo + ivr[k2][0], hi + ivr[k2][1]
        elif form == "neg":
            # a reversed index: (hi) - i
            e, mn, mx = f"{hi} - i{k}", 0, hi - lo
        else:
            c = draw(st.integers(0, 2))
            e, mn, mx = str(c), c, c
        assert mn >= 0
        ext[arr][dim] = max(ext[arr][dim], mx + 1)
        return e

    def access(arr: str) -> str:
        return f"{arr}[{', '.join(index(arr, d, 'r') for d in range(ranks[arr]))}]"

    def target(arr: str) -> str:
        if arr == "T0":  # written at a permutation of the loop variables: usually a clean region
            perm = draw(st.permutations(range(depth)))
            for d, k in enumerate(perm):
                ext[arr][d] = max(ext[arr][d], ivr[k][1] + 1)
            return f"T0[{', '.join(f'i{k}' for k in perm)}]"
        return access(arr)

    consts = ["2", "3", "1"] if dtype == "int32" else ["2", "0.5", "1.5", "3"]

    def expr(budget: int) -> str:
        kind = draw(st.sampled_from(["load", "load", "const", "op", "op", "minmax", "select", "local"] if budget > 0 else ["load", "load", "const"]))
        if kind == "load":
            return access(draw(st.sampled_from(["A0", "A1", "A1", "T0", "T1"])))
        if kind == "const":
            return draw(st.sampled_from(consts))
        if kind == "minmax":
            return f"{draw(st.sampled_from(['min', 'max']))}({expr(budget - 1)}, {expr(budget - 1)})"
        if kind == "select":
            return f"({expr(budget - 1)} if {expr(0)} < {expr(0)} else {expr(budget - 1)})"
        if kind == "local":
            return "t"
        op = draw(st.sampled_from(["+", "-", "*"]))
        return f"({expr(budget - 1)} {op} {expr(budget - 1)})"

    body = []
    pad = "    " * (depth + 1)
    body.append(f"{pad}t = {access('A0')}")
    for _ in range(draw(st.integers(1, 3))):
        arr = draw(st.sampled_from(["T0", "T0", "T1"]))
        op = draw(st.sampled_from(["=", "=", "+="]))
        body.append(f"{pad}{target(arr)} {op} {expr(2)}")
    lines = ["def kern(A0, A1, T0, T1, n0: int, n1: int):"]
    for d, (lo, hi, _) in enumerate(loops):
        lines.append("    " * (d + 1) + f"for i{d} in range({lo}, {hi}):")
    lines += body
    src = "\n".join(lines) + "\n"
    return src, dtype, sizes, {a: tuple(e) for a, e in ext.items()}


@settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(python_nests(), st.integers(0, 2**16), st.sampled_from(["auto", "in"]))
def test_random_python_loop_nests_match_plain_python(nest, seed, mode):
    src, dtype, sizes, shapes = nest
    note(src)
    fn = _exec_kernel(src)
    k = infs.kernel(fn)
    note(k.mlir(*[np.zeros(shapes[a], dtype) for a in ("A0", "A1", "T0", "T1")], *sizes, stage="streams"))
    rng = np.random.default_rng(seed)
    arrays = []
    for a in ("A0", "A1", "T0", "T1"):
        if dtype == "int32":
            arrays.append(rng.integers(-4, 5, shapes[a]).astype(np.int32))
        else:
            arrays.append(rng.uniform(0.5, 1.5, shapes[a]).astype(dtype))
    want, _ = _python(k, *arrays, *sizes)
    got = [a.copy() for a in arrays]
    k(*got, *sizes, config="tiny", mode=mode)
    for name, g, w in zip(("A0", "A1", "T0", "T1"), got, want):
        if dtype == "int32":
            np.testing.assert_array_equal(g, w, err_msg=name)
        else:
            np.testing.assert_allclose(g, w, rtol=1e-4 if dtype == "float32" else 1e-10, err_msg=name)


# ---------------------------------------------------------------------------
# Three workloads as Python kernels against their hand-written stream versions
# ---------------------------------------------------------------------------


@infs.kernel
def array_sum_workload(A, n: int):
    s = np.float32(0)
    for i in range(n):
        s += A[i]
    return s


@infs.kernel
def mm_inner_workload(A, Bt, C, m: int, n: int, k: int):
    for i in range(m):
        for j in range(n):
            s = np.float32(0)
            for kk in range(k):
                s += A[i, kk] * Bt[j, kk]
            C[i, j] = s


@pytest.mark.parametrize("name,kern", [("vec_add", vec_add), ("array_sum", array_sum_workload), ("mm_inner", mm_inner_workload)])
@pytest.mark.parametrize("mode", ["auto", "in"])
def test_workloads_as_python_kernels_equal_the_stream_versions(name, kern, mode):
    """Three workloads of infs/workloads written as Python kernels give
    the hand-written stream program's outputs and regions (as many, each in the
    same place) and total cycles within 5%."""
    from infs.workloads import WORKLOADS

    w = WORKLOADS[name]
    sizes = {k: v + 2 for k, v in w.sizes("small").items()}  # odd sizes
    inputs = w.inputs(sizes, seed=5)
    args = {k: v for k, v in {**inputs, **sizes}.items() if k in w.args}
    hand = api.run(w.path, {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in args.items()}, config="small-16", mode=mode)
    arrays = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in args.items()}
    got = kern(*(arrays[a] for a in w.args), config="small-16", mode=mode)
    for o in w.outputs:
        np.testing.assert_allclose(arrays[o], hand.outputs[o], rtol=1e-5, atol=1e-6, err_msg=f"{name}: {o}")
    if w.results:
        assert got.value == pytest.approx(float(hand.results[0]), rel=1e-5)
    assert got.modes == [r.mode for r in hand.regions]
    assert abs(got.cycles - hand.cycles) <= 0.05 * hand.cycles, (got.cycles, hand.cycles)


@infs.kernel
def _shifted_add(A, B, n):
    for i in range(n):
        t = A[i]
        B[i] = t + A[i + 1]  # out of bounds at i = n - 1 when len(A) == n


@pytest.mark.parametrize("mode", ["in", "near", "core"])
def test_an_out_of_bounds_access_names_its_own_line_not_the_loops(mode):
    # the error named only the region, i.e. the line of the loop it came from
    src, first = inspect.getsourcelines(_shifted_add)
    loop = first + next(i for i, ln in enumerate(src) if "for i" in ln)
    access = first + next(i for i, ln in enumerate(src) if "A[i + 1]" in ln)
    A, B = np.arange(8, dtype=np.float32), np.zeros(8, np.float32)
    with pytest.raises(api.InfsError) as e:
        _shifted_add(A, B, 8, config="tiny", mode=mode)
    msg = str(e.value)
    assert len(msg.splitlines()) == 1, msg
    assert f"'stream.load' at line {access} accesses index 8 in dim 0 of an array of shape [8]" in msg, msg
    assert f"at line {loop})" in msg, msg  # the region is still named by its loop
    assert msg.startswith(f"{__file__}: error: "), msg  # and the file those lines are in


@infs.kernel
def _floor_quotient(A, B, n):
    for i in range(n):
        B[i] = A[i] // B[i]


@pytest.mark.parametrize("mode", ["in", "core"])
def test_a_division_by_zero_names_the_file_and_the_line(mode):
    # it was "division by zero in 'arith.remsi'": no file, no line
    src, first = inspect.getsourcelines(_floor_quotient)
    line = first + next(i for i, ln in enumerate(src) if "//" in ln)
    A, B = np.arange(8, dtype=np.int32), np.ones(8, np.int32)
    B[5] = 0
    with pytest.raises(api.InfsError) as e:
        _floor_quotient(A, B, 8, config="tiny", mode=mode)
    msg = str(e.value)
    assert len(msg.splitlines()) == 1, msg
    assert msg.startswith(f"{__file__}: error: division by zero in 'arith."), msg
    assert msg.endswith(f"at line {line}"), msg
