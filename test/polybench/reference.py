"""PolyBench/C 4.2 kernels of ``test/polybench/*.mlir``: sizes, inputs, numpy kernels.

Each ``.mlir`` file is the kernel function as Polygeist's ``cgeist`` prints
it for ``-DMINI_DATASET``: the C arrays' inner dims are static in the memref
types (``memref<?x30xf64>``) and take MINI's values, the sizes are ``i32``
arguments.  ``cgeist_text(kernel, dataset)`` is the same file as cgeist prints
it for another dataset (only those static dims change).

A kernel's arguments are named ``arg0, arg1, ...`` (cgeist's names), in the
order of the C function's parameters (``Kernel.params``).  The numpy kernels
follow PolyBench's C loops exactly (bounds ``_PB_N`` = the runtime size
arguments, which may be smaller than the arrays, as in C).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

DATASETS = ("MINI", "MEDIUM", "LARGE")


@dataclass(frozen=True)
class Kernel:
    name: str
    # the C parameters in order: size names (upper case: a dataset symbol, passed
    # as i32), f64 scalars (lower case, values in ``scalars``) or arrays (keys of ``arrays``)
    params: tuple[str, ...]
    arrays: dict[str, tuple[str, ...]]  # array -> its dims (dataset symbols)
    datasets: dict[str, dict[str, int]]
    run: Callable[[dict, dict], None]  # numpy kernel: (arrays and scalars by param name, sizes) -> in place
    scalars: dict[str, Callable[[dict], float]] = field(default_factory=dict)
    # inputs as PolyBench's init_array makes them usable (a factorization needs a
    # positive definite matrix): (arrays by param name, runtime sizes) -> in place
    prepare: Callable[[dict, dict], None] | None = None

    @property
    def path(self) -> Path:
        return HERE / f"{self.name}.mlir"

    def arg_names(self) -> dict[str, str]:
        return {p: f"arg{i}" for i, p in enumerate(self.params)}

    def static_dims(self) -> list[str]:
        """The dataset symbols cgeist prints into memref types (every dim but an array's first)."""
        out: list[str] = []
        for dims in self.arrays.values():
            for d in dims[1:]:
                if d not in out:
                    out.append(d)
        return out


def cgeist_text(k: Kernel, dataset: str = "MINI") -> str:
    """The kernel's MLIR as cgeist prints it for ``dataset``."""
    text = k.path.read_text()
    if dataset == "MINI":
        return text
    mini, target = k.datasets["MINI"], k.datasets[dataset]
    swap = {str(mini[d]): str(target[d]) for d in k.static_dims()}
    assert len(swap) == len(k.static_dims()), f"{k.name}: two static dims share a MINI value"

    def memref(m: re.Match) -> str:
        parts = m.group(1).split("x")
        return "memref<" + "x".join(swap.get(p, p) if p != "?" else p for p in parts) + "xf64>"

    return re.sub(r"memref<([?0-9x]+)xf64>", memref, text)


def inputs(k: Kernel, sizes: dict[str, int], dataset: str = "MINI", seed: int = 0, shapes_only: bool = False) -> dict:
    """Arguments by cgeist name: i32 sizes, f64 scalars, arrays shaped as the
    C program allocates them for ``dataset`` (all of its dims)."""
    rng = np.random.default_rng(seed)
    full = k.datasets[dataset]
    names = k.arg_names()
    out: dict = {}
    for p in k.params:
        if p in k.arrays:
            shape = tuple(full[d] for d in k.arrays[p])
            out[names[p]] = shape if shapes_only else rng.uniform(-1.0, 1.0, shape)
        elif p in k.scalars:
            out[names[p]] = np.float64(k.scalars[p](sizes))
        else:
            out[names[p]] = np.int32(sizes[p])
    if k.prepare is not None and not shapes_only:
        k.prepare({p: out[names[p]] for p in k.arrays}, sizes)
    return out


def expected(k: Kernel, args: dict, sizes: dict[str, int]) -> dict[str, np.ndarray]:
    """The arrays after the numpy kernel, by cgeist name."""
    names = k.arg_names()
    vals = {p: (args[names[p]].copy() if p in k.arrays else args[names[p]]) for p in k.params}
    k.run(vals, sizes)
    return {names[p]: vals[p] for p in k.arrays}


# ---------------------------------------------------------------------------
# The kernels (PolyBench/C 4.2's loops; N etc. are the runtime sizes)
# ---------------------------------------------------------------------------


def _jacobi_1d(v, s):
    A, B, n = v["A"], v["B"], s["N"]
    for _ in range(s["TSTEPS"]):
        B[1 : n - 1] = (A[0 : n - 2] + A[1 : n - 1] + A[2:n]) * 0.33333
        A[1 : n - 1] = (B[0 : n - 2] + B[1 : n - 1] + B[2:n]) * 0.33333


def _jacobi_2d(v, s):
    A, B, n = v["A"], v["B"], s["N"]
    c = slice(1, n - 1)
    lo, hi = slice(0, n - 2), slice(2, n)
    for _ in range(s["TSTEPS"]):
        B[c, c] = (A[c, c] + A[c, lo] + A[c, hi] + A[hi, c] + A[lo, c]) * 0.2
        A[c, c] = (B[c, c] + B[c, lo] + B[c, hi] + B[hi, c] + B[lo, c]) * 0.2


def _heat_3d(v, s):
    A, B, n = v["A"], v["B"], s["N"]
    c, lo, hi = slice(1, n - 1), slice(0, n - 2), slice(2, n)

    def step(X, Y):
        x = X[c, c, c]
        Y[c, c, c] = (
            0.125 * (X[hi, c, c] - 2.0 * x + X[lo, c, c])
            + 0.125 * (X[c, hi, c] - 2.0 * x + X[c, lo, c])
            + 0.125 * (X[c, c, hi] - 2.0 * x + X[c, c, lo])
            + x
        )

    for _ in range(1, s["TSTEPS"] + 1):
        step(A, B)
        step(B, A)


def _fdtd_2d(v, s):
    ex, ey, hz, fict = v["ex"], v["ey"], v["hz"], v["_fict_"]
    nx, ny = s["NX"], s["NY"]
    for t in range(s["TMAX"]):
        ey[0, :ny] = fict[t]
        ey[1:nx, :ny] -= 0.5 * (hz[1:nx, :ny] - hz[0 : nx - 1, :ny])
        ex[:nx, 1:ny] -= 0.5 * (hz[:nx, 1:ny] - hz[:nx, 0 : ny - 1])
        hz[: nx - 1, : ny - 1] -= 0.7 * (ex[: nx - 1, 1:ny] - ex[: nx - 1, : ny - 1] + ey[1:nx, : ny - 1] - ey[: nx - 1, : ny - 1])


def _seidel_2d(v, s):
    # in place, in the C loops' order (a Gauss-Seidel sweep: each cell reads
    # its already updated upper and left neighbours)
    A, n = v["A"], s["N"]
    for _ in range(s["TSTEPS"]):
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                A[i, j] = (A[i - 1, j - 1] + A[i - 1, j] + A[i - 1, j + 1] + A[i, j - 1] + A[i, j] + A[i, j + 1] + A[i + 1, j - 1] + A[i + 1, j] + A[i + 1, j + 1]) / 9.0


def _gemm(v, s):
    ni, nj, nk = s["NI"], s["NJ"], s["NK"]
    C, A, B = v["C"], v["A"], v["B"]
    C[:ni, :nj] = C[:ni, :nj] * v["beta"] + v["alpha"] * (A[:ni, :nk] @ B[:nk, :nj])


def _2mm(v, s):
    ni, nj, nk, nl = s["NI"], s["NJ"], s["NK"], s["NL"]
    tmp, A, B, C, D = v["tmp"], v["A"], v["B"], v["C"], v["D"]
    tmp[:ni, :nj] = v["alpha"] * (A[:ni, :nk] @ B[:nk, :nj])
    D[:ni, :nl] = D[:ni, :nl] * v["beta"] + tmp[:ni, :nj] @ C[:nj, :nl]


def _gemver(v, s):
    n = s["N"]
    A = v["A"]
    A[:n, :n] += np.outer(v["u1"][:n], v["v1"][:n]) + np.outer(v["u2"][:n], v["v2"][:n])
    v["x"][:n] += v["beta"] * (A[:n, :n].T @ v["y"][:n])
    v["x"][:n] += v["z"][:n]
    v["w"][:n] += v["alpha"] * (A[:n, :n] @ v["x"][:n])


def _gesummv(v, s):
    n = s["N"]
    x = v["x"][:n]
    v["tmp"][:n] = v["A"][:n, :n] @ x
    v["y"][:n] = v["B"][:n, :n] @ x
    v["y"][:n] = v["alpha"] * v["tmp"][:n] + v["beta"] * v["y"][:n]


def _atax(v, s):
    m, n = s["M"], s["N"]
    A = v["A"][:m, :n]
    v["y"][:n] = 0.0
    v["tmp"][:m] = A @ v["x"][:n]
    v["y"][:n] = A.T @ v["tmp"][:m]


def _bicg(v, s):
    m, n = s["M"], s["N"]
    A = v["A"][:n, :m]
    v["s"][:m] = v["r"][:n] @ A
    v["q"][:n] = A @ v["p"][:m]


def _mvt(v, s):
    n = s["N"]
    A = v["A"][:n, :n]
    v["x1"][:n] += A @ v["y_1"][:n]
    v["x2"][:n] += A.T @ v["y_2"][:n]


def _syrk(v, s):
    n, m = s["N"], s["M"]
    C, A = v["C"], v["A"][:n, :m]
    low = np.tril(np.ones((n, n), bool))
    full = C[:n, :n] * v["beta"] + v["alpha"] * (A @ A.T)
    C[:n, :n] = np.where(low, full, C[:n, :n])


def _doitgen(v, s):
    nr, nq, np_ = s["NR"], s["NQ"], s["NP"]
    A, C4 = v["A"], v["C4"]
    if nr and nq:
        res = A[:nr, :nq, :np_] @ C4[:np_, :np_]
        A[:nr, :nq, :np_] = res
        v["sum"][:np_] = res[nr - 1, nq - 1]


def _covariance(v, s):
    m, n = s["M"], s["N"]
    data, cov, mean, fn = v["data"], v["cov"], v["mean"], v["float_n"]
    mean[:m] = data[:n, :m].sum(axis=0) / fn
    data[:n, :m] -= mean[:m]
    full = (data[:n, :m].T @ data[:n, :m]) / (fn - 1.0)
    up = np.triu(np.ones((m, m), bool))
    cov[:m, :m] = np.where(up | up.T, full, cov[:m, :m])


def _cholesky(v, s):
    A, n = v["A"], s["N"]
    for i in range(n):
        for j in range(i):
            A[i, j] -= A[i, :j] @ A[j, :j]
            A[i, j] /= A[j, j]
        A[i, i] -= A[i, :i] @ A[i, :i]
        A[i, i] = np.sqrt(A[i, i])


def _lu(v, s):
    A, n = v["A"], s["N"]
    for i in range(n):
        for j in range(i):
            A[i, j] -= A[i, :j] @ A[:j, j]
            A[i, j] /= A[j, j]
        A[i, i:n] -= A[i, :i] @ A[:i, i:n]  # (each j of the C loop on its own: row i's first i cells are final)


def _trisolv(v, s):
    L, x, b, n = v["L"], v["x"], v["b"], s["N"]
    for i in range(n):
        x[i] = b[i]
        x[i] -= L[i, :i] @ x[:i]
        x[i] = x[i] / L[i, i]


def _trmm(v, s):
    A, B, m, n = v["A"], v["B"], s["M"], s["N"]
    for i in range(m):
        B[i, :n] += A[i + 1 : m, i] @ B[i + 1 : m, :n]  # (rows below i are not updated yet, as in the C loops)
        B[i, :n] *= v["alpha"]


def _positive_definite(v, s):
    """A = M M^T + n I over the runtime n x n block, as PolyBench's init_array
    makes A positive definite (its own B = A A^T), so that no pivot is zero."""
    A, n = v["A"], s["N"]
    A[:n, :n] = A[:n, :n] @ A[:n, :n].T + n * np.eye(n)


def _dominant_diagonal(v, s):
    """L's diagonal away from zero (PolyBench's L[i][i] = 2(n+1)/n)."""
    L, n = v["L"], s["N"]
    L[np.arange(n), np.arange(n)] = 2.0 + np.abs(L[np.arange(n), np.arange(n)])


KERNELS: dict[str, Kernel] = {
    k.name: k
    for k in [
        Kernel("jacobi-1d", ("TSTEPS", "N", "A", "B"), {"A": ("N",), "B": ("N",)},
               {"MINI": {"TSTEPS": 20, "N": 30}, "MEDIUM": {"TSTEPS": 100, "N": 400}, "LARGE": {"TSTEPS": 500, "N": 2000}}, _jacobi_1d),
        Kernel("jacobi-2d", ("TSTEPS", "N", "A", "B"), {"A": ("N", "N"), "B": ("N", "N")},
               {"MINI": {"TSTEPS": 20, "N": 30}, "MEDIUM": {"TSTEPS": 100, "N": 250}, "LARGE": {"TSTEPS": 500, "N": 1300}}, _jacobi_2d),
        Kernel("heat-3d", ("TSTEPS", "N", "A", "B"), {"A": ("N", "N", "N"), "B": ("N", "N", "N")},
               {"MINI": {"TSTEPS": 20, "N": 10}, "MEDIUM": {"TSTEPS": 100, "N": 40}, "LARGE": {"TSTEPS": 500, "N": 120}}, _heat_3d),
        Kernel("fdtd-2d", ("TMAX", "NX", "NY", "ex", "ey", "hz", "_fict_"), {"ex": ("NX", "NY"), "ey": ("NX", "NY"), "hz": ("NX", "NY"), "_fict_": ("TMAX",)},
               {"MINI": {"TMAX": 20, "NX": 20, "NY": 30}, "MEDIUM": {"TMAX": 100, "NX": 200, "NY": 240}, "LARGE": {"TMAX": 500, "NX": 1000, "NY": 1200}}, _fdtd_2d),
        Kernel("seidel-2d", ("TSTEPS", "N", "A"), {"A": ("N", "N")},
               {"MINI": {"TSTEPS": 20, "N": 40}, "MEDIUM": {"TSTEPS": 100, "N": 400}, "LARGE": {"TSTEPS": 500, "N": 2000}}, _seidel_2d),
        Kernel("gemm", ("NI", "NJ", "NK", "alpha", "beta", "C", "A", "B"), {"C": ("NI", "NJ"), "A": ("NI", "NK"), "B": ("NK", "NJ")},
               {"MINI": {"NI": 20, "NJ": 25, "NK": 30}, "MEDIUM": {"NI": 200, "NJ": 220, "NK": 240}, "LARGE": {"NI": 1000, "NJ": 1100, "NK": 1200}}, _gemm,
               {"alpha": lambda s: 1.5, "beta": lambda s: 1.2}),
        Kernel("2mm", ("NI", "NJ", "NK", "NL", "alpha", "beta", "tmp", "A", "B", "C", "D"),
               {"tmp": ("NI", "NJ"), "A": ("NI", "NK"), "B": ("NK", "NJ"), "C": ("NJ", "NL"), "D": ("NI", "NL")},
               {"MINI": {"NI": 16, "NJ": 18, "NK": 22, "NL": 24}, "MEDIUM": {"NI": 180, "NJ": 190, "NK": 210, "NL": 220}, "LARGE": {"NI": 800, "NJ": 900, "NK": 1100, "NL": 1200}}, _2mm,
               {"alpha": lambda s: 1.5, "beta": lambda s: 1.2}),
        Kernel("gemver", ("N", "alpha", "beta", "A", "u1", "v1", "u2", "v2", "w", "x", "y", "z"),
               {"A": ("N", "N"), **{a: ("N",) for a in ("u1", "v1", "u2", "v2", "w", "x", "y", "z")}},
               {"MINI": {"N": 40}, "MEDIUM": {"N": 400}, "LARGE": {"N": 2000}}, _gemver, {"alpha": lambda s: 1.5, "beta": lambda s: 1.2}),
        Kernel("gesummv", ("N", "alpha", "beta", "A", "B", "tmp", "x", "y"), {"A": ("N", "N"), "B": ("N", "N"), "tmp": ("N",), "x": ("N",), "y": ("N",)},
               {"MINI": {"N": 30}, "MEDIUM": {"N": 250}, "LARGE": {"N": 1300}}, _gesummv, {"alpha": lambda s: 1.5, "beta": lambda s: 1.2}),
        Kernel("atax", ("M", "N", "A", "x", "y", "tmp"), {"A": ("M", "N"), "x": ("N",), "y": ("N",), "tmp": ("M",)},
               {"MINI": {"M": 38, "N": 42}, "MEDIUM": {"M": 390, "N": 410}, "LARGE": {"M": 1900, "N": 2100}}, _atax),
        Kernel("bicg", ("M", "N", "A", "s", "q", "p", "r"), {"A": ("N", "M"), "s": ("M",), "q": ("N",), "p": ("M",), "r": ("N",)},
               {"MINI": {"M": 38, "N": 42}, "MEDIUM": {"M": 390, "N": 410}, "LARGE": {"M": 1900, "N": 2100}}, _bicg),
        Kernel("mvt", ("N", "x1", "x2", "y_1", "y_2", "A"), {"x1": ("N",), "x2": ("N",), "y_1": ("N",), "y_2": ("N",), "A": ("N", "N")},
               {"MINI": {"N": 40}, "MEDIUM": {"N": 400}, "LARGE": {"N": 2000}}, _mvt),
        Kernel("syrk", ("N", "M", "alpha", "beta", "C", "A"), {"C": ("N", "N"), "A": ("N", "M")},
               {"MINI": {"M": 20, "N": 30}, "MEDIUM": {"M": 200, "N": 240}, "LARGE": {"M": 1000, "N": 1200}}, _syrk,
               {"alpha": lambda s: 1.5, "beta": lambda s: 1.2}),
        Kernel("doitgen", ("NR", "NQ", "NP", "A", "C4", "sum"), {"A": ("NR", "NQ", "NP"), "C4": ("NP", "NP"), "sum": ("NP",)},
               {"MINI": {"NQ": 8, "NR": 10, "NP": 12}, "MEDIUM": {"NQ": 40, "NR": 50, "NP": 60}, "LARGE": {"NQ": 140, "NR": 150, "NP": 160}}, _doitgen),
        Kernel("covariance", ("M", "N", "float_n", "data", "cov", "mean"), {"data": ("N", "M"), "cov": ("M", "M"), "mean": ("M",)},
               {"MINI": {"M": 28, "N": 32}, "MEDIUM": {"M": 240, "N": 260}, "LARGE": {"M": 1200, "N": 1400}}, _covariance,
               {"float_n": lambda s: float(s["N"])}),
        Kernel("cholesky", ("N", "A"), {"A": ("N", "N")}, {"MINI": {"N": 40}, "MEDIUM": {"N": 400}, "LARGE": {"N": 2000}}, _cholesky,
               prepare=_positive_definite),
        Kernel("lu", ("N", "A"), {"A": ("N", "N")}, {"MINI": {"N": 40}, "MEDIUM": {"N": 400}, "LARGE": {"N": 2000}}, _lu, prepare=_positive_definite),
        Kernel("trisolv", ("N", "L", "x", "b"), {"L": ("N", "N"), "x": ("N",), "b": ("N",)},
               {"MINI": {"N": 40}, "MEDIUM": {"N": 400}, "LARGE": {"N": 2000}}, _trisolv, prepare=_dominant_diagonal),
        Kernel("trmm", ("M", "N", "alpha", "A", "B"), {"A": ("M", "M"), "B": ("M", "N")},
               {"MINI": {"M": 20, "N": 30}, "MEDIUM": {"M": 200, "N": 240}, "LARGE": {"M": 1000, "N": 1200}}, _trmm,
               {"alpha": lambda s: 1.5}),
    ]
}  # fmt: skip
