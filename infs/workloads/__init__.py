"""The paper's workloads (ASPLOS'23 Table 3 and Fig. 2) as stream-dialect programs.

Each workload is one ``<name>.mlir`` file next to this module holding one public
``func.func @<name>`` that takes memrefs (dynamic dims) and ``index`` sizes,
written the way the paper's C code compiles: outer loops that carry a
dependence (stencil time steps, gauss_elim's ``k``, the outer-product ``k``
loops, conv3d's input channels) are host ``scf.for`` loops around
``stream.region`` ops.

``WORKLOADS[name]`` describes it:

* ``args`` -- the function's arguments in order, by name: arrays (keys of
  ``make_inputs``' result) and sizes (keys of ``small``/``paper``);
* ``small`` / ``paper`` -- size bindings for tests and for the paper's Table 3
  sizes (they may hold extra keys used only to build inputs, e.g. gather's
  table height ``r``);
* ``make_inputs(sizes, rng)`` -- every array argument (inputs, scratch and
  outputs), deterministic for a given ``numpy.random.Generator``; float32 for
  ``f32`` memrefs, int32 for ``i32`` ones, index arrays in range;
* ``outputs`` -- the array arguments the program writes; ``results`` -- names
  of the function's return values;
* ``reference(inputs, sizes)`` -- an independent plain-numpy computation of
  the same math (never by interpreting the MLIR) returning the final contents
  of every output array and every result.  It does not modify ``inputs``.

f32 results differ from the references by summation order; compare them with
a float32 tolerance (``rtol`` around 1e-4 for the reductions and iterated
kernels), integers exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = ["WORKLOADS", "Workload", "get"]

_DIR = Path(__file__).parent
F32 = np.float32

Sizes = Mapping[str, int]
Arrays = Mapping[str, np.ndarray]


@dataclass(frozen=True)
class Workload:
    name: str
    args: tuple[str, ...]
    outputs: tuple[str, ...]
    small: Mapping[str, int]
    paper: Mapping[str, int]
    make_inputs: Callable[[Sizes, np.random.Generator], dict[str, np.ndarray]]
    reference: Callable[[Arrays, Sizes], dict[str, np.ndarray]]
    results: tuple[str, ...] = ()
    description: str = ""
    entry: str = field(default="")

    def __post_init__(self) -> None:
        if not self.entry:
            object.__setattr__(self, "entry", self.name)

    @property
    def path(self) -> Path:
        return _DIR / f"{self.name}.mlir"

    def text(self) -> str:
        return self.path.read_text()

    def sizes(self, which: str | Sizes = "small") -> dict[str, int]:
        """``"small"``, ``"paper"`` or an explicit mapping."""
        if isinstance(which, str):
            if which not in ("small", "paper"):
                raise ValueError(f"unknown size set '{which}' (small, paper)")
            return dict(self.small if which == "small" else self.paper)
        return dict(which)

    def inputs(self, sizes: str | Sizes = "small", seed: int = 0) -> dict[str, np.ndarray]:
        return self.make_inputs(self.sizes(sizes), np.random.default_rng(seed))

    def call_args(self, inputs: Arrays, sizes: str | Sizes = "small") -> list[object]:
        """Positional arguments for ``entry``: arrays from ``inputs``, sizes as ints."""
        sz = self.sizes(sizes)
        out: list[object] = []
        for a in self.args:
            if a in inputs:
                out.append(inputs[a])
            elif a in sz:
                out.append(int(sz[a]))
            else:
                raise KeyError(f"{self.name}: no value for argument '{a}'")
        return out


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def _uniform(rng: np.random.Generator, shape, lo: float = -1.0, hi: float = 1.0) -> np.ndarray:
    return (rng.random(shape, dtype=F32) * F32(hi - lo) + F32(lo)).astype(F32)


def _weights(rng: np.random.Generator, rank: int) -> np.ndarray:
    """A stencil's two weights ``[C0, C1]`` (neighbours, centre; ASPLOS'23 Fig. 6): both
    positive with ``2*rank*C0 + C1 = 1`` over the ``2*rank`` neighbours, so every step is a
    convex combination and the values stay bounded over the steps."""
    c0, c1 = rng.random(2, dtype=F32) + F32(0.5)
    total = F32(2 * rank) * c0 + c1
    return np.array([c0 / total, c1 / total], dtype=F32)


def _zeros(shape, dtype=F32) -> np.ndarray:
    return np.zeros(shape, dtype=dtype)


def _copy(inputs: Arrays, *names: str) -> list[np.ndarray]:
    return [np.array(inputs[n], copy=True) for n in names]


def _steps(t: int) -> int:
    """The host loop runs the A->B, B->A pair ceil(t/2) times."""
    return 2 * ((int(t) + 1) // 2)


# ---------------------------------------------------------------------------
# vec_add, array_sum (Fig. 2)
# ---------------------------------------------------------------------------


def _vec_add_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    n = s["n"]
    return {"A": _uniform(rng, n), "B": _uniform(rng, n), "C": _zeros(n)}


def _vec_add_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    return {"C": (x["A"] + x["B"]).astype(F32)}


def _array_sum_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    return {"A": _uniform(rng, s["n"])}


def _array_sum_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    return {"sum": np.asarray(np.sum(x["A"], dtype=F32), dtype=F32)}


# ---------------------------------------------------------------------------
# stencils (ping-pong buffers, T steps)
# ---------------------------------------------------------------------------


def _stencil_inputs(shape_keys: tuple[str, ...]):
    def make(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
        shape = tuple(s[k] for k in shape_keys)
        a = _uniform(rng, shape)
        return {"A": a, "B": a.copy(), "W": _weights(rng, len(shape_keys))}

    return make


# The references add the taps in the workloads' order (neighbours, then the centre),
# each neighbour multiplied by C0 = W[0] and the centre by C1 = W[1].


def _stencil1d_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    a, b = _copy(x, "A", "B")
    c0, c1 = x["W"]
    for step in range(_steps(s["t"])):
        src, dst = (a, b) if step % 2 == 0 else (b, a)
        dst[1:-1] = c0 * src[:-2] + c0 * src[2:] + c1 * src[1:-1]
    return {"A": a, "B": b}


def _stencil2d_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    a, b = _copy(x, "A", "B")
    c0, c1 = x["W"]
    for step in range(_steps(s["t"])):
        src, dst = (a, b) if step % 2 == 0 else (b, a)
        dst[1:-1, 1:-1] = (
            c0 * src[:-2, 1:-1]
            + c0 * src[2:, 1:-1]
            + c0 * src[1:-1, :-2]
            + c0 * src[1:-1, 2:]
            + c1 * src[1:-1, 1:-1]
        )
    return {"A": a, "B": b}


def _stencil3d_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    a, b = _copy(x, "A", "B")
    c0, c1 = x["W"]
    c = (slice(1, -1),) * 3
    for step in range(_steps(s["t"])):
        src, dst = (a, b) if step % 2 == 0 else (b, a)
        dst[c] = (
            c0 * src[:-2, 1:-1, 1:-1]
            + c0 * src[2:, 1:-1, 1:-1]
            + c0 * src[1:-1, :-2, 1:-1]
            + c0 * src[1:-1, 2:, 1:-1]
            + c0 * src[1:-1, 1:-1, :-2]
            + c0 * src[1:-1, 1:-1, 2:]
            + c1 * src[1:-1, 1:-1, 1:-1]
        )
    return {"A": a, "B": b}


# ---------------------------------------------------------------------------
# dwt2d: one 2D Haar level (lifting), rows then columns, Mallat layout
# ---------------------------------------------------------------------------


def _dwt2d_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    h, w = s["h"], s["w"]
    if h % 2 or w % 2:
        raise ValueError("dwt2d needs even h and w")
    return {"A": _uniform(rng, (h, w)), "T": _zeros((h, w)), "O": _zeros((h, w))}


def _haar(even: np.ndarray, odd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    d = odd - even  # predict
    return even + F32(0.5) * d, d  # update: the average, the difference


def _dwt2d_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    a = x["A"]
    h, w = a.shape
    t = np.empty_like(a)
    t[:, : w // 2], t[:, w // 2 :] = _haar(a[:, 0::2], a[:, 1::2])
    o = np.empty_like(a)
    o[: h // 2, :], o[h // 2 :, :] = _haar(t[0::2, :], t[1::2, :])
    return {"T": t, "O": o}


# ---------------------------------------------------------------------------
# gauss_elim (Fig. 4(c))
# ---------------------------------------------------------------------------


def _gauss_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    n = s["n"]
    a = _uniform(rng, (n, n))
    a[np.diag_indices(n)] += F32(n)  # diagonally dominant: stable without pivoting
    return {"A": a, "b": _uniform(rng, n), "m": _zeros(n)}


def _gauss_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    a, b, m = _copy(x, "A", "b", "m")
    n = s["n"]
    for k in range(n - 1):
        m[k + 1 :] = a[k + 1 :, k] / a[k, k]
        b[k + 1 :] -= m[k + 1 :] * b[k]
        a[k + 1 :, k + 1 :] -= np.outer(m[k + 1 :], a[k, k + 1 :])
    return {"A": a, "b": b, "m": m}


# ---------------------------------------------------------------------------
# conv2d, conv3d
# ---------------------------------------------------------------------------


def _conv2d_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    h, w = s["h"], s["w"]
    return {"I": _uniform(rng, (h, w)), "K": _uniform(rng, (3, 3)), "O": _zeros((h, w))}


def _conv2d_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    (o,) = _copy(x, "O")
    i, k = x["I"], x["K"]
    h, w = i.shape
    acc = np.zeros((h - 2, w - 2), dtype=F32)
    for a in range(3):
        for b in range(3):
            acc += k[a, b] * i[a : a + h - 2, b : b + w - 2]
    o[1:-1, 1:-1] = acc
    return {"O": o}


def _conv3d_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    ci, co, h, w = s["ci"], s["co"], s["h"], s["w"]
    return {
        "I": _uniform(rng, (ci, h, w)),
        "K": _uniform(rng, (co, ci, 9)),
        "O": _zeros((co, h, w)),
    }


def _conv3d_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    i, k = x["I"], x["K"]
    ci, h, w = i.shape
    co = k.shape[0]
    o = np.zeros((co, h, w), dtype=F32)
    for a in range(3):
        for b in range(3):
            # (co x ci) . (ci x (h-2) x (w-2)) for one filter tap
            o[:, 1:-1, 1:-1] += np.tensordot(k[:, :, 3 * a + b], i[:, a : a + h - 2, b : b + w - 2], axes=([1], [0]))
    return {"O": o}


# ---------------------------------------------------------------------------
# mm inner / outer
# ---------------------------------------------------------------------------


def _mm_inner_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    m, n, k = s["m"], s["n"], s["k"]
    return {"A": _uniform(rng, (m, k)), "Bt": _uniform(rng, (n, k)), "C": _zeros((m, n))}


def _mm_inner_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    return {"C": np.matmul(x["A"], x["Bt"].T).astype(F32)}


def _mm_outer_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    m, n, k = s["m"], s["n"], s["k"]
    return {"A": _uniform(rng, (m, k)), "B": _uniform(rng, (k, n)), "C": _zeros((m, n))}


def _mm_outer_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    return {"C": np.matmul(x["A"], x["B"]).astype(F32)}


# ---------------------------------------------------------------------------
# kmeans inner / outer: one Lloyd iteration
# ---------------------------------------------------------------------------


def _kmeans_inputs(transposed: bool):
    def make(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
        p, d, c = s["p"], s["d"], s["c"]
        # Well-separated blobs: the nearest center is never a near-tie, so the
        # assignment does not depend on f32 summation order.
        truth = _uniform(rng, (c, d), -10.0, 10.0)
        labels = rng.integers(0, c, p)
        feats = (truth[labels] + _uniform(rng, (p, d), -0.5, 0.5)).astype(F32)
        cen = (truth + _uniform(rng, (c, d), -0.5, 0.5)).astype(F32)
        out = {"F": feats}
        if transposed:
            out["CenT"] = np.ascontiguousarray(cen.T)
        else:
            out["Cen"] = cen
        out |= {
            "dist": _zeros((p, c)),
            "member": _zeros(p, np.int32),
            "newc": _zeros((c, d)),
            "count": _zeros(c, np.int32),
        }
        return out

    return make


def _kmeans_ref(transposed: bool):
    def ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
        f = x["F"]
        cen = x["CenT"].T if transposed else x["Cen"]
        p, c = f.shape[0], cen.shape[0]
        dist = np.empty((p, c), dtype=F32)
        for j in range(c):
            diff = f - cen[j]
            dist[:, j] = np.sum(diff * diff, axis=1, dtype=F32)
        member = np.argmin(dist, axis=1).astype(np.int32)  # first index on ties
        count = np.bincount(member, minlength=c).astype(np.int32)
        sums = np.zeros(cen.shape, dtype=F32)
        np.add.at(sums, member, f)
        newc = (sums / np.maximum(count, 1).astype(F32)[:, None]).astype(F32)
        return {"dist": dist, "member": member, "newc": newc, "count": count}

    return ref


# ---------------------------------------------------------------------------
# gather_mlp inner / outer
# ---------------------------------------------------------------------------


def _gather_inputs(transposed: bool):
    def make(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
        m, n, k, r = s["m"], s["n"], s["k"], s["r"]
        w = _uniform(rng, (n, k))
        out = {
            "X": _uniform(rng, (r, n)),
            "idx": rng.integers(0, r, m).astype(np.int32),
            "G": _zeros((m, n)),
        }
        if transposed:
            out["Wt"] = np.ascontiguousarray(w.T)
        else:
            out["W"] = w
        out["Y"] = _zeros((m, k))
        return out

    return make


def _gather_ref(transposed: bool):
    def ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
        g = x["X"][x["idx"]]
        w = x["Wt"].T if transposed else x["W"]
        y = np.maximum(np.matmul(g, w), F32(0)).astype(F32)
        return {"G": g, "Y": y}

    return ref


# ---------------------------------------------------------------------------
# registry
# ---------------------------------------------------------------------------

_M4 = 4 * 1024 * 1024
_K2 = 2048

_ALL = [
    Workload(
        "vec_add", ("A", "B", "C", "n"), ("C",),
        small={"n": 64}, paper={"n": _M4},
        make_inputs=_vec_add_inputs, reference=_vec_add_ref,
        description="C = A + B (Fig. 2)",
    ),
    Workload(
        "array_sum", ("A", "n"), (),
        small={"n": 64}, paper={"n": _M4},
        make_inputs=_array_sum_inputs, reference=_array_sum_ref, results=("sum",),
        description="sum of A (Fig. 2); the sum is the function's result",
    ),
    Workload(
        "stencil1d", ("A", "B", "W", "n", "t"), ("A", "B"),
        small={"n": 64, "t": 4}, paper={"n": _M4, "t": 10},
        make_inputs=_stencil_inputs(("n",)), reference=_stencil1d_ref,
        description="3-point stencil C0*(left+right) + C1*centre, t steps (even), ping-pong A->B->A",
    ),
    Workload(
        "stencil2d", ("A", "B", "W", "m", "n", "t"), ("A", "B"),
        small={"m": 16, "n": 24, "t": 4}, paper={"m": _K2, "n": _K2, "t": 10},
        make_inputs=_stencil_inputs(("m", "n")), reference=_stencil2d_ref,
        description="5-point stencil C0*(4 neighbours) + C1*centre (Fig. 6), t steps (even), ping-pong A->B->A",
    ),
    Workload(
        "stencil3d", ("A", "B", "W", "l", "m", "n", "t"), ("A", "B"),
        small={"l": 6, "m": 10, "n": 12, "t": 2}, paper={"l": 16, "m": 512, "n": 512, "t": 10},
        make_inputs=_stencil_inputs(("l", "m", "n")), reference=_stencil3d_ref,
        description="7-point stencil C0*(6 neighbours) + C1*centre on l x m x n, t steps (even), ping-pong A->B->A",
    ),
    Workload(
        "dwt2d", ("A", "T", "O", "h", "w"), ("T", "O"),
        small={"h": 16, "w": 24}, paper={"h": _K2, "w": _K2},
        make_inputs=_dwt2d_inputs, reference=_dwt2d_ref,
        description="one 2D Haar (lifting) level, rows into T then columns into O (Mallat layout)",
    ),
    Workload(
        "gauss_elim", ("A", "b", "m", "n"), ("A", "b", "m"),
        small={"n": 16}, paper={"n": _K2},
        make_inputs=_gauss_inputs, reference=_gauss_ref,
        description="forward elimination (Fig. 4(c)), host loop over k",
    ),
    Workload(
        "conv2d", ("I", "K", "O", "h", "w"), ("O",),
        small={"h": 16, "w": 20}, paper={"h": _K2, "w": _K2},
        make_inputs=_conv2d_inputs, reference=_conv2d_ref,
        description="3x3 convolution, interior of O",
    ),
    Workload(
        "conv3d", ("I", "K", "O", "ci", "co", "h", "w"), ("O",),
        small={"ci": 3, "co": 4, "h": 10, "w": 12}, paper={"ci": 64, "co": 64, "h": 256, "w": 256},
        make_inputs=_conv3d_inputs, reference=_conv3d_ref,
        description="ci -> co channel 3x3 convolution, host loop over input channels",
    ),
    Workload(
        "mm_inner", ("A", "Bt", "C", "m", "n", "k"), ("C",),
        small={"m": 16, "n": 12, "k": 20}, paper={"m": _K2, "n": _K2, "k": _K2},
        make_inputs=_mm_inner_inputs, reference=_mm_inner_ref,
        description="C = A * Bt^T, inner product (reduction over k in the region)",
    ),
    Workload(
        "mm_outer", ("A", "B", "C", "m", "n", "k"), ("C",),
        small={"m": 16, "n": 12, "k": 20}, paper={"m": _K2, "n": _K2, "k": _K2},
        make_inputs=_mm_outer_inputs, reference=_mm_outer_ref,
        description="C = A * B, outer product (host loop over k)",
    ),
    Workload(
        "kmeans_inner", ("F", "Cen", "dist", "member", "newc", "count", "p", "d", "c"),
        ("dist", "member", "newc", "count"),
        small={"p": 64, "d": 8, "c": 4}, paper={"p": 32768, "d": 128, "c": 128},
        make_inputs=_kmeans_inputs(False), reference=_kmeans_ref(False),
        description="one k-means iteration, inner-product distances, argmin, atomic centroid update",
    ),
    Workload(
        "kmeans_outer", ("F", "CenT", "dist", "member", "newc", "count", "p", "d", "c"),
        ("dist", "member", "newc", "count"),
        small={"p": 64, "d": 8, "c": 4}, paper={"p": 32768, "d": 128, "c": 128},
        make_inputs=_kmeans_inputs(True), reference=_kmeans_ref(True),
        description="one k-means iteration, outer-product distances, argmin, atomic centroid update",
    ),
    Workload(
        "gather_mlp_inner", ("X", "idx", "G", "Wt", "Y", "m", "n", "k"), ("G", "Y"),
        small={"m": 32, "n": 8, "k": 12, "r": 16}, paper={"m": 32768, "n": 128, "k": 128, "r": 4096},
        make_inputs=_gather_inputs(True), reference=_gather_ref(True),
        description="G = X[idx]; Y = relu(G * Wt^T), inner product",
    ),
    Workload(
        "gather_mlp_outer", ("X", "idx", "G", "W", "Y", "m", "n", "k"), ("G", "Y"),
        small={"m": 32, "n": 8, "k": 12, "r": 16}, paper={"m": 32768, "n": 128, "k": 128, "r": 4096},
        make_inputs=_gather_inputs(False), reference=_gather_ref(False),
        description="G = X[idx]; Y = relu(G * W), outer product (host loop over n)",
    ),
]

WORKLOADS: dict[str, Workload] = {w.name: w for w in _ALL}


def get(name: str) -> Workload:
    try:
        return WORKLOADS[name]
    except KeyError:
        raise KeyError(f"unknown workload '{name}' (known: {', '.join(WORKLOADS)})") from None
