"""PointNet++ (ASPLOS'23 §8 "Case Study of PointNet++", Table 4) as stage programs.

A set abstraction (SA) is five stages, each one program of this folder:

* ``fps.mlir`` -- furthest point sampling: K centroids, each the point furthest
  from the ones before (a min-updated distance array and an argmax per
  centroid; the host carries the last centroid);
* ``ball_query.mlir`` -- the first N points within radius r of each centroid,
  the first one found filling the slots left;
* ``gather.mlir`` -- the neighbours' coordinates relative to their centroid and
  their features: a (K x N) x (3 + D) matrix (indirect loads);
* ``mlp.mlir`` -- three fully connected layers with ReLU (also the classifier's
  FCx3, whose last layer has none);
* ``aggregate.mlir`` -- the max over each centroid's N neighbours, K x D_out.

``SSG`` and ``MSG`` are the two classifiers of Table 4; ``SMALL_SSG`` and
``SMALL_MSG`` the same networks scaled down for tests.  ``network_calls(net,
seed)`` runs the network's numpy reference and returns every stage call in
order: the program, its arguments (inputs as the reference computed them,
outputs zeroed) and the outputs the reference expects -- what a runner needs
to run each stage on its own and check it.  The references are plain numpy,
written from the paper's description and the PointNet++ reference
implementation's semantics (first centroid point 0; relative coordinates
concatenated before the features; group-all for SA3), never by interpreting
the programs.

This module imports numpy only (the workloads are the ground floor).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = [
    "MSG", "SMALL_MSG", "SMALL_SSG", "SSG", "SA", "Net", "StageCall", "STAGES", "PROGRAMS",
    "aggregate_ref", "ball_query_ref", "fps_ref", "gather_ref", "mlp_ref", "network_calls", "points",
]  # fmt: skip

_DIR = Path(__file__).parent
F32 = np.float32
I32 = np.int32

# stage kind -> (program file, entry function, argument names in order)
PROGRAMS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "sample": ("fps.mlir", "pointnet_fps", ("X", "dist", "cidx", "C", "p", "k")),
    "ball_query": ("ball_query.mlir", "pointnet_ball_query", ("X", "C", "R", "iota", "key", "sel", "idx", "p", "k", "n")),
    "gather": ("gather.mlir", "pointnet_gather", ("X", "F", "C", "idx", "G", "k", "n", "d")),
    "mlp": ("mlp.mlir", "pointnet_mlp", ("G", "W1", "b1", "H1", "W2", "b2", "H2", "W3", "b3", "Y", "k", "n", "d0", "d1", "d2", "d3", "relu3")),
    "aggregate": ("aggregate.mlir", "pointnet_aggregate", ("Y", "O", "k", "n", "d", "off")),
}
STAGES = ("sample", "ball_query", "gather", "mlp", "aggregate")


def program_path(kind: str) -> Path:
    return _DIR / PROGRAMS[kind][0]


# ---------------------------------------------------------------------------
# Table 4
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SA:
    """One set abstraction of Table 4: K centroids, N neighbours within radius r
    (``None``: group all, SA3's "Inf"), the MLP's three widths."""

    name: str
    k: int
    n: int
    r: float | None
    dims: tuple[int, int, int]


@dataclass(frozen=True)
class Net:
    """A classifier: levels of SAs (the SAs of one level share their input and
    their centroids, MSG's scales, and their outputs are concatenated), then FCx3."""

    name: str
    points: int
    levels: tuple[tuple[SA, ...], ...]
    fc: tuple[int, int, int]
    note: str = field(default="")


# ASPLOS'23 Table 4 (taken by the paper from PointNet++'s classifiers).
_SA = {
    "SA1": SA("SA1", 512, 32, 0.2, (64, 64, 128)),
    "SA2": SA("SA2", 128, 64, 0.4, (128, 128, 256)),
    "SA3": SA("SA3", 1, 128, None, (256, 512, 1024)),
    "SA4": SA("SA4", 512, 16, 0.1, (32, 32, 64)),
    "SA5": SA("SA5", 512, 32, 0.2, (64, 64, 128)),
    "SA6": SA("SA6", 512, 128, 0.4, (64, 96, 128)),
    "SA7": SA("SA7", 128, 16, 0.2, (64, 64, 128)),
    "SA8": SA("SA8", 128, 32, 0.4, (128, 128, 256)),
    "SA9": SA("SA9", 128, 128, 0.8, (128, 128, 256)),
}
FC = (512, 256, 10)  # Table 4's FCx3: 1024 -> 512 -> 256 -> 10 class scores
POINTS = 4096  # §8: "The input point cloud contains 4k randomly generated points"

SSG = Net("ssg", POINTS, ((_SA["SA1"],), (_SA["SA2"],), (_SA["SA3"],)), FC)
MSG = Net("msg", POINTS, ((_SA["SA4"], _SA["SA5"], _SA["SA6"]), (_SA["SA7"], _SA["SA8"], _SA["SA9"]), (_SA["SA3"],)), FC)

# Test sizes: the same structure, a 64-point cloud, a ball query with radii
# small enough that some centroids find fewer than N neighbours.
SMALL_SSG = Net("ssg", 64, ((SA("SA1", 16, 8, 0.2, (8, 8, 16)),), (SA("SA2", 4, 8, 0.5, (16, 16, 32)),),
                            (SA("SA3", 1, 4, None, (16, 32, 32)),)), (16, 8, 10))  # fmt: skip
SMALL_MSG = Net("msg", 64, ((SA("SA4", 16, 4, 0.1, (4, 4, 8)), SA("SA5", 16, 8, 0.2, (8, 8, 16)), SA("SA6", 16, 16, 0.4, (8, 12, 16))),
                            (SA("SA7", 4, 4, 0.2, (8, 8, 16)), SA("SA8", 4, 8, 0.4, (16, 16, 32)), SA("SA9", 4, 16, 0.8, (16, 16, 32))),
                            (SA("SA3", 1, 4, None, (16, 32, 32)),)), (16, 8, 10))  # fmt: skip


def points(n: int, rng: np.random.Generator) -> np.ndarray:
    """n random points in [0, 1)^3 (§8)."""
    return rng.random((n, 3), dtype=F32)


# ---------------------------------------------------------------------------
# references (plain numpy)
# ---------------------------------------------------------------------------


def _sqdist(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """|a - b|^2 over the last axis of 3, summed x, y, z in that order in f32
    (the programs' order: the comparisons below are then exact)."""
    d = (a - b).astype(F32)
    return (d[..., 0] * d[..., 0] + d[..., 1] * d[..., 1]) + d[..., 2] * d[..., 2]


def fps_ref(x: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(cidx, C): k furthest-point samples of x (P x 3), the first point 0."""
    p = x.shape[0]
    if not 1 <= k <= p:
        raise ValueError(f"furthest point sampling of {k} centroids from {p} points")
    dist = np.full(p, np.inf, dtype=F32)
    cidx = np.zeros(k, dtype=I32)
    for j in range(1, k):  # one centroid per step: each depends on the previous
        dist = np.minimum(dist, _sqdist(x, x[cidx[j - 1]]))
        cidx[j] = np.argmax(dist)  # first index on ties
    return cidx, x[cidx].astype(F32)


def ball_query_ref(x: np.ndarray, c: np.ndarray, r: float, n: int) -> np.ndarray:
    """idx (K x N, i32): per centroid the first n points (index order) with
    |x - c|^2 < r^2 (in f32), the first found repeated in the slots left, 0 if none."""
    inside = _sqdist(x[None, :, :], c[:, None, :]) < F32(r) * F32(r)
    # the rank of each point among its centroid's points inside, and the first n of them
    rank = np.cumsum(inside, axis=1) - 1
    k = c.shape[0]
    idx = np.zeros((k, n), dtype=I32)
    rows, cols = np.nonzero(inside & (rank < n))
    idx[rows, rank[rows, cols]] = cols
    found = inside.sum(axis=1)
    first = np.where(found > 0, idx[:, 0], 0)
    slot = np.arange(n)[None, :]
    return np.where(slot < found[:, None], idx, first[:, None]).astype(I32)


def gather_ref(x: np.ndarray, f: np.ndarray, c: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """G (K x N x (3 + D)): neighbours' coordinates minus their centroid's, then their features."""
    return np.concatenate([(x[idx] - c[:, None, :]).astype(F32), f[idx]], axis=2).astype(F32)


def mlp_ref(g: np.ndarray, layers: list[tuple[np.ndarray, np.ndarray]], relu_last: bool) -> list[np.ndarray]:
    """[H1, H2, Y]: each layer h @ W + b, ReLU on all but a final FC layer."""
    outs, h = [], g
    for i, (w, b) in enumerate(layers):
        h = (np.matmul(h, w) + b).astype(F32)
        if i < len(layers) - 1 or relu_last:
            h = np.maximum(h, F32(0))
        outs.append(h)
    return outs


def aggregate_ref(y: np.ndarray) -> np.ndarray:
    """K x D: the max over the neighbours (axis 1)."""
    return y.max(axis=1).astype(F32)


# ---------------------------------------------------------------------------
# a network's stage calls
# ---------------------------------------------------------------------------


@dataclass
class StageCall:
    """One stage program's call: ``args`` name -> array or int (in
    ``PROGRAMS[kind]``'s order); ``expected`` output name -> the reference's
    array; ``tol`` the relative tolerance of the float outputs (0: exact)."""

    net: str
    level: int
    sa: str  # "SA1", "SA4+SA5+SA6" (MSG's shared sampling), "FC"
    kind: str
    args: dict[str, object]
    expected: dict[str, np.ndarray]
    tol: float = 0.0

    @property
    def label(self) -> str:
        return f"{self.sa} {self.kind.replace('_', ' ')}"

    @property
    def path(self) -> Path:
        return program_path(self.kind)

    @property
    def entry(self) -> str:
        return PROGRAMS[self.kind][1]

    def fresh_args(self) -> list[object]:
        """Positional arguments with every array copied (a run writes its outputs)."""
        out = []
        for name in PROGRAMS[self.kind][2]:
            v = self.args[name]
            out.append(np.array(v, copy=True) if isinstance(v, np.ndarray) else int(v))
        return out

    def outputs_of(self, args: list[object]) -> dict[str, np.ndarray]:
        names = PROGRAMS[self.kind][2]
        return {n: args[names.index(n)] for n in self.expected}


def _layers(rng: np.random.Generator, d_in: int, dims: tuple[int, ...]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Weights (He-scaled, so the activations stay of order 1 through the layers) and biases."""
    out = []
    for d in dims:
        w = (rng.standard_normal((d_in, d), dtype=F32) * F32(np.sqrt(2.0 / d_in))).astype(F32)
        b = (rng.standard_normal(d, dtype=F32) * F32(0.1)).astype(F32)
        out.append((w, b))
        d_in = d
    return out


def _mlp_call(net: str, level: int, sa: str, g: np.ndarray, layers, relu_last: bool, kind_tol: float) -> tuple[StageCall, np.ndarray]:
    k, n, d0 = g.shape
    (w1, b1), (w2, b2), (w3, b3) = layers
    h1, h2, y = mlp_ref(g, layers, relu_last)
    zeros = lambda h: np.zeros(h.shape, dtype=F32)  # noqa: E731
    args = {"G": g, "W1": w1, "b1": b1, "H1": zeros(h1), "W2": w2, "b2": b2, "H2": zeros(h2), "W3": w3, "b3": b3, "Y": zeros(y),
            "k": k, "n": n, "d0": d0, "d1": w1.shape[1], "d2": w2.shape[1], "d3": w3.shape[1], "relu3": int(relu_last)}  # fmt: skip
    return StageCall(net, level, sa, "mlp", args, {"H1": h1, "H2": h2, "Y": y}, kind_tol), y


def network_calls(net: Net, seed: int = 0) -> list[StageCall]:
    """Every stage call of ``net`` on a random cloud (``seed``), in execution order,
    each with the inputs the reference computed for it and its expected outputs."""
    rng = np.random.default_rng(seed)
    xyz = points(net.points, rng)
    feats = np.zeros((net.points, 0), dtype=F32)  # SA1/SA4-6 see coordinates only
    calls: list[StageCall] = []
    tol = 2e-4  # f32 sums of up to ~1000 products in another order
    for li, level in enumerate(net.levels):
        p = xyz.shape[0]
        group_all = level[0].r is None
        if group_all:  # SA3: one group of every point, coordinates as they are
            if len(level) != 1:
                raise ValueError("a group-all level has one SA")
            cen = np.zeros((1, 3), dtype=F32)
        else:
            k = level[0].k
            if any(s.k != k for s in level):
                raise ValueError("the SAs of one level share their centroids (one K)")
            cidx, cen = fps_ref(xyz, k)
            sa_name = "+".join(s.name for s in level)
            calls.append(StageCall(net.name, li, sa_name, "sample",
                                   {"X": xyz, "dist": np.zeros(p, F32), "cidx": np.zeros(k, I32), "C": np.zeros((k, 3), F32), "p": p, "k": k},
                                   {"cidx": cidx, "C": cen}))  # fmt: skip
        width = sum(s.dims[2] for s in level)
        out = np.zeros((cen.shape[0], width), dtype=F32)
        off = 0
        for s in level:
            if group_all:
                idx = np.arange(p, dtype=I32)[None, :]
            else:
                idx = ball_query_ref(xyz, cen, s.r, s.n)
                calls.append(StageCall(net.name, li, s.name, "ball_query",
                                       {"X": xyz, "C": cen, "R": np.array([F32(s.r) * F32(s.r)], F32), "iota": np.arange(p, dtype=I32),
                                        "key": np.zeros((cen.shape[0], p), I32), "sel": np.zeros((cen.shape[0], s.n + 1), I32),
                                        "idx": np.zeros((cen.shape[0], s.n), I32), "p": p, "k": cen.shape[0], "n": s.n},
                                       {"idx": idx}))  # fmt: skip
            g = gather_ref(xyz, feats, cen, idx)
            kk, nn = idx.shape
            calls.append(StageCall(net.name, li, s.name, "gather",
                                   {"X": xyz, "F": feats, "C": cen, "idx": idx, "G": np.zeros(g.shape, F32), "k": kk, "n": nn, "d": feats.shape[1]},
                                   {"G": g}))  # fmt: skip
            call, y = _mlp_call(net.name, li, s.name, g, _layers(rng, g.shape[2], s.dims), True, tol)
            calls.append(call)
            before = out.copy()
            out[:, off : off + s.dims[2]] = aggregate_ref(y)
            calls.append(StageCall(net.name, li, s.name, "aggregate", {"Y": y, "O": before, "k": kk, "n": nn, "d": s.dims[2], "off": off},
                                   {"O": out.copy()}))  # fmt: skip
            off += s.dims[2]
        xyz, feats = cen, out
    g = feats.reshape(1, 1, -1)
    call, _ = _mlp_call(net.name, len(net.levels), "FC", g, _layers(rng, g.shape[2], net.fc), False, tol)
    calls.append(call)
    return calls
