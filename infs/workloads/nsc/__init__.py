"""The 14 workloads of near-stream computing (Wang et al., HPCA'22, Table VI) as plain-loop programs.

Each workload is one ``<name>.mlir`` file of this folder holding one public
``func.func @<name>`` written the way Polygeist's ``cgeist`` prints the C: counted
loops as ``affine.for``/``scf.for`` (a CSR row's edge loop has bounds loaded from
memory, so it is an ``scf.for``), loops that stop on a condition (a pointer chase,
a ``break``) as ``scf.while``, filters as ``scf.if``, ``memref`` loads and stores.
No ``stream.region`` is written by hand: what runs near memory is what
extract-streams finds.

``WORKLOADS[name]`` (names ``nsc/<workload>``, the file's path under
``infs/workloads``) is an ``infs.workloads.Workload`` as for the ASPLOS'23
workloads: ``args``, ``small``/``paper`` sizes (``paper`` is Table VI's),
``make_inputs``, ``outputs`` and an independent numpy ``reference`` (vectorized,
never an interpretation of the program); ``get("pr_pull")`` finds one by its
short name.  ``STREAM_KINDS[<short name>]`` says which stream kinds of NSC
Table II the workload needs (address pattern: affine,
indirect, pointer-chasing; compute: load, store, RMW (atomic), reduce, plus the
filters) -- what extract-streams must find to offload it.

The graphs of the GAP kernels come from ``kronecker``: GAP's Kronecker (R-MAT)
generator with A/B/C = 0.57/0.19/0.19, vertex ids permuted, self-loops and
duplicates dropped, symmetrized (GAP's undirected ``-g``), weights uniform in
[1, 255]; in CSR (``offs``, ``nbr``, ``wt``) padded to a fixed arc capacity ``m``
so that every array's shape follows from the sizes.  ``hash_table`` and
``search_tree`` build hash_join's chained table and bin_tree's binary search tree
(child indices in arrays) in numpy.

This module imports numpy and ``infs.workloads`` only (the workloads are the ground floor).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from infs.workloads import Workload

__all__ = ["STREAM_KINDS", "WORKLOADS", "get", "hash_table", "kronecker", "search_tree"]

F32 = np.float32
I32 = np.int32
I64 = np.int64

Sizes = Mapping[str, int]
Arrays = Mapping[str, np.ndarray]


def _uniform(rng: np.random.Generator, shape, lo: float, hi: float) -> np.ndarray:
    return (rng.random(shape, dtype=F32) * F32(hi - lo) + F32(lo)).astype(F32)


def _copy(inputs: Arrays, *names: str) -> list[np.ndarray]:
    return [np.array(inputs[n], copy=True) for n in names]


def _even_steps(name: str, t: int) -> int:
    if t % 2:
        raise ValueError(f"{name} ping-pongs A -> B -> A: its step count t must be even, got {t}")
    return t


# ---------------------------------------------------------------------------
# Rodinia: pathfinder, srad, hotspot, hotspot3D
# ---------------------------------------------------------------------------


def _pathfinder_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    n, t = s["n"], _even_steps("pathfinder", s["t"])
    # Rodinia's wall: rand() % 10 per cell, t + 1 rows (the first is the start row)
    return {"W": rng.integers(0, 10, (t + 1, n)).astype(I32), "A": np.zeros(n, I32), "B": np.zeros(n, I32)}


def _min3(src: np.ndarray) -> np.ndarray:
    """min(src[j-1], src[j], src[j+1]), the neighbours outside the row left out."""
    m = src.copy()
    m[1:] = np.minimum(m[1:], src[:-1])
    m[:-1] = np.minimum(m[:-1], src[1:])
    return m


def _pathfinder_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    w = x["W"]
    a = w[0].copy()
    b = np.array(x["B"], copy=True)
    for step in range(w.shape[0] - 1):
        src, dst = (a, b) if step % 2 == 0 else (b, a)
        dst[:] = w[step + 1] + _min3(src)
    return {"A": a, "B": b}


def _srad_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    r, c = s["rows"], s["cols"]
    # Rodinia srad_v2: J = exp(image), the image random in [0, 1); the neighbour
    # index arrays (clamped at the border) are built by its main()
    i, j = np.arange(r), np.arange(c)
    out = {
        "J": np.exp(rng.random((r, c), dtype=F32)).astype(F32),
        "iN": np.maximum(i - 1, 0).astype(I32), "iS": np.minimum(i + 1, r - 1).astype(I32),
        "jW": np.maximum(j - 1, 0).astype(I32), "jE": np.minimum(j + 1, c - 1).astype(I32),
        "L": np.array([0.5], F32),  # Rodinia's lambda
    }  # fmt: skip
    for k in ("dN", "dS", "dW", "dE", "C"):
        out[k] = np.zeros((r, c), F32)
    return out


def _srad_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    (j,) = _copy(x, "J")
    i_n, i_s, j_w, j_e = (x[k].astype(np.intp) for k in ("iN", "iS", "jW", "jE"))
    lam = x["L"][0]
    size = F32(j.size)
    dn = ds = dw = de = c = None
    for _ in range(s["iters"]):
        mean = F32(np.sum(j, dtype=F32)) / size
        var = F32(np.sum(j * j, dtype=F32)) / size - mean * mean
        q0 = var / (mean * mean)
        jc = j
        dn, ds = j[i_n, :] - jc, j[i_s, :] - jc
        dw, de = j[:, j_w] - jc, j[:, j_e] - jc
        g2 = (((dn * dn + ds * ds) + dw * dw) + de * de) / (jc * jc)
        lap = (((dn + ds) + dw) + de) / jc
        num = F32(0.5) * g2 - F32(1.0 / 16.0) * (lap * lap)
        den = F32(1) + F32(0.25) * lap
        qsqr = num / (den * den)
        den = (qsqr - q0) / (q0 * (F32(1) + q0))
        c = np.clip(F32(1) / (F32(1) + den), F32(0), F32(1)).astype(F32)
        cs, ce = c[i_s, :], c[:, j_e]
        d = ((c * dn + cs * ds) + c * dw) + ce * de
        j = (j + (F32(0.25) * lam) * d).astype(F32)
    return {"J": j, "dN": dn, "dS": ds, "dW": dw, "dE": de, "C": c}


# Rodinia hotspot's chip (hotspot_openmp.cpp): 0.5 mm thick, 16 mm x 16 mm, the
# silicon's heat capacity and conductivity, the ambient 80 K above, the time step
# from the maximum power density.  Computed in double as Rodinia does, then f32.
_T_CHIP, _CHIP_H, _CHIP_W = 0.0005, 0.016, 0.016
_FACTOR_CHIP, _SPEC_HEAT_SI, _K_SI = 0.5, 1.75e6, 100.0
_MAX_PD, _PRECISION, _AMB_TEMP = 3.0e6, 0.001, 80.0


def _hotspot_coefficients(rows: int, cols: int) -> np.ndarray:
    """[step/Cap, 1/Rx, 1/Ry, 1/Rz, amb_temp] of Rodinia hotspot for a rows x cols grid."""
    gh, gw = _CHIP_H / rows, _CHIP_W / cols
    cap = _FACTOR_CHIP * _SPEC_HEAT_SI * _T_CHIP * gw * gh
    rx = gw / (2.0 * _K_SI * _T_CHIP * gh)
    ry = gh / (2.0 * _K_SI * _T_CHIP * gw)
    rz = _T_CHIP / (_K_SI * gh * gw)
    max_slope = _MAX_PD / (_FACTOR_CHIP * _T_CHIP * _SPEC_HEAT_SI)
    step = _PRECISION / max_slope / 1000.0
    return np.array([step / cap, 1.0 / rx, 1.0 / ry, 1.0 / rz, _AMB_TEMP], F32)


def _hotspot3d_coefficients(nx: int, ny: int, nz: int) -> np.ndarray:
    """[cc, cn, cs, ce, cw, ct, cb, dt/Cap, amb_temp] of Rodinia hotspot3D (3D.c)."""
    dx, dy, dz = _CHIP_H / ny, _CHIP_W / nx, _T_CHIP / nz
    cap = _FACTOR_CHIP * _SPEC_HEAT_SI * _T_CHIP * dx * dy
    rx = dy / (2.0 * _K_SI * _T_CHIP * dx)
    ry = dx / (2.0 * _K_SI * _T_CHIP * dy)
    rz = dz / (_K_SI * dx * dy)
    max_slope = _MAX_PD / (_FACTOR_CHIP * _T_CHIP * _SPEC_HEAT_SI)
    dt = _PRECISION / max_slope
    sdc = dt / cap
    ce = cw = sdc / rx
    cn = cs = sdc / ry
    ct = cb = sdc / rz
    cc = 1.0 - (2.0 * ce + 2.0 * cn + 3.0 * ct)
    return np.array([cc, cn, cs, ce, cw, ct, cb, sdc, _AMB_TEMP], F32)


def _grid_temps(rng: np.random.Generator, shape) -> tuple[np.ndarray, np.ndarray]:
    """Temperatures around Rodinia's inputs' (323-343 K) and powers up to 1 mW a cell."""
    return _uniform(rng, shape, 323.0, 343.0), _uniform(rng, shape, 0.0, 1e-3)


def _hotspot_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    r, c = s["rows"], s["cols"]
    _even_steps("hotspot", s["t"])
    temp, power = _grid_temps(rng, (r, c))
    return {"T": temp, "P": power, "B": temp.copy(), "K": _hotspot_coefficients(r, c)}


def _clamped(a: np.ndarray, axis: int, shift: int) -> np.ndarray:
    """a's neighbour at ``shift`` along ``axis``, the cell itself past the border."""
    n = a.shape[axis]
    idx = np.clip(np.arange(n) + shift, 0, n - 1)
    return np.take(a, idx, axis=axis)


def _hotspot_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    t, b = _copy(x, "T", "B")
    p = x["P"]
    cap1, rx1, ry1, rz1, amb = x["K"]
    for step in range(_even_steps("hotspot", s["t"])):
        src, dst = (t, b) if step % 2 == 0 else (b, t)
        two = F32(2) * src
        vert = ((_clamped(src, 0, 1) + _clamped(src, 0, -1)) - two) * ry1
        horiz = ((_clamped(src, 1, 1) + _clamped(src, 1, -1)) - two) * rx1
        delta = cap1 * (((p + vert) + horiz) + (amb - src) * rz1)
        dst[:] = src + delta
    return {"T": t, "B": b}


def _hotspot3d_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    nx, ny, nz = s["nx"], s["ny"], s["nz"]
    _even_steps("hotspot3D", s["t"])
    temp, power = _grid_temps(rng, (nz, ny, nx))
    return {"T": temp, "P": power, "B": temp.copy(), "K": _hotspot3d_coefficients(nx, ny, nz)}


def _hotspot3d_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    t, b = _copy(x, "T", "B")
    p = x["P"]
    cc, cn, cs, ce, cw, ct, cb, sdc, amb = x["K"]
    for step in range(_even_steps("hotspot3D", s["t"])):
        src, dst = (t, b) if step % 2 == 0 else (b, t)
        # the program's order (Rodinia 3D.c): centre, w, e, s, n, b, t, power, ambient
        acc = cc * src + cw * _clamped(src, 2, -1)
        acc = acc + ce * _clamped(src, 2, 1)
        acc = acc + cs * _clamped(src, 1, 1)
        acc = acc + cn * _clamped(src, 1, -1)
        acc = acc + cb * _clamped(src, 0, -1)
        acc = acc + ct * _clamped(src, 0, 1)
        acc = acc + sdc * p
        dst[:] = acc + ct * amb
    return {"T": t, "B": b}


# ---------------------------------------------------------------------------
# MineBench: histogram, scluster (Rodinia's streamcluster), svm
# ---------------------------------------------------------------------------


def _histogram_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    # 32-bit values; the 8-bit key is the top byte (256 bins)
    v = rng.integers(0, 1 << 32, s["n"], dtype=np.uint64).astype(np.uint32).view(I32)
    return {"V": v, "H": np.zeros(256, I32)}


def _histogram_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    keys = x["V"].view(np.uint32) >> np.uint32(24)
    return {"H": (x["H"] + np.bincount(keys, minlength=256)).astype(I32)}


def _scluster_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    p, d, k, it = s["p"], s["d"], s["k"], s["iters"]
    if not 1 <= k <= p:
        raise ValueError(f"scluster: {k} centers among {p} points")
    pts = _uniform(rng, (p, d), 0.0, 1.0)
    centers = rng.choice(p, k, replace=False).astype(I32)  # the open centers' point ids
    table = np.zeros(p, I32)
    table[centers] = np.arange(k, dtype=I32)  # streamcluster's center_table: point id -> center number
    assign = centers[rng.integers(0, k, p)]
    weight = _uniform(rng, p, 1.0, 2.0)
    # each point's cost: its weighted distance to its center (as streamcluster keeps it)
    diff = pts - pts[assign]
    cost = (np.sum(diff * diff, axis=1, dtype=F32) * weight).astype(F32)
    # candidates among the points that are not open centers (pgain's x is a new
    # center): an open center would tie with the cost of every point it serves, a
    # comparison rounding would decide
    closed = np.setdiff1d(np.arange(p), centers) if p > k else np.arange(p)
    return {
        "X": pts, "Wt": weight, "Cost": cost, "Asg": assign, "Ctab": table,
        "Cand": closed[rng.integers(0, closed.size, it)].astype(I32),
        "Sw": np.zeros((it, p), I32), "Gain": np.zeros(it, F32), "Low": np.zeros((it, k), F32),
    }  # fmt: skip


def _sqdist_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """sum_k (a[:, k] - b[k])^2 added in k order (the program's order), f32."""
    acc = np.zeros(a.shape[0], F32)
    for k in range(a.shape[1]):  # over the 16 dimensions, each step vectorized over the points
        t = a[:, k] - b[k]
        acc = acc + t * t
    return acc


def _scluster_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    pts, w, cost = x["X"], x["Wt"], x["Cost"]
    sw, gain, low = _copy(x, "Sw", "Gain", "Low")
    center = x["Ctab"][x["Asg"]]
    for it, cand in enumerate(x["Cand"]):
        xc = _sqdist_rows(pts, pts[cand]) * w
        switch = xc < cost
        sw[it] = switch.astype(I32)
        gain[it] = gain[it] + np.sum((xc - cost)[switch], dtype=F32)
        np.add.at(low[it], center[~switch], (cost - xc)[~switch])
    return {"Sw": sw, "Gain": gain, "Low": low}


def _svm_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    n, d, it = s["n"], s["d"], s["iters"]
    truth = _uniform(rng, d, -1.0, 1.0)
    xs = _uniform(rng, (n, d), -1.0, 1.0)
    y = np.where(xs @ truth >= 0, F32(1), F32(-1)).astype(F32)
    flip = rng.random(n) < 0.05  # some label noise: not separable
    y[flip] = -y[flip]
    return {
        "X": xs, "Y": y, "Wv": _uniform(rng, d, -0.1, 0.1), "G": np.zeros(d, F32), "M": np.zeros((it, n), F32),
        "K": np.array([0.5, 0.01], F32),  # learning rate, regularization
    }  # fmt: skip


def _svm_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    xs, y = x["X"], x["Y"]
    w, g, m = _copy(x, "Wv", "G", "M")
    lr, lam = x["K"]
    n = xs.shape[0]
    for it in range(s["iters"]):
        dot = np.zeros(n, F32)
        for k in range(xs.shape[1]):  # the program's order over the 16 dimensions
            dot = dot + xs[:, k] * w[k]
        m[it] = y * dot
        g[:] = 0
        viol = m[it] < F32(1)
        for k in range(xs.shape[1]):
            g[k] = np.sum(y[viol] * xs[viol, k], dtype=F32)
        w = ((F32(1) - lr * lam) * w + (lr / F32(n)) * g).astype(F32)
    return {"Wv": w, "G": g, "M": m}


# ---------------------------------------------------------------------------
# GAP: the Kronecker graph and bfs_push, pr_push, sssp, bfs_pull, pr_pull
# ---------------------------------------------------------------------------

# GAP's generator (src/generator.h, MakeKronEL): the Graph500 R-MAT quadrant
# probabilities A, B, C (D = 1 - A - B - C = 0.05), as NSC Table VI lists them.
KRON_A, KRON_B, KRON_C = 0.57, 0.19, 0.19
WEIGHT_MAX = 255  # GAP's InsertWeights: uniform integers in [1, 255]


def kronecker(n: int, m: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(offs, nbr, wt): an undirected R-MAT graph on ``n`` vertices in CSR, padded to ``m`` arcs.

    ``m // 2`` edges are drawn as GAP does (each of ``ceil(log2 n)`` bits picks a
    quadrant with probabilities A/B/C/D; GAP's edge factor 16 at scale 18 is
    ``n = 2**18``, ``m = 2 * 16 * n``), ids permuted at random, weights uniform in
    [1, 255]; edges with an endpoint past ``n`` (n not a power of two), self-loops
    and duplicates (the lightest kept) are dropped, then both directions of each
    edge stored, each row sorted by neighbour.  ``offs`` has n + 1 entries
    (``offs[n]`` arcs in all, at most ``m``); ``nbr``/``wt`` past it are 0."""
    if n < 1 or m < 0:
        raise ValueError(f"kronecker graph of {n} vertices and {m} arcs")
    edges = m // 2
    scale = max(1, int(np.ceil(np.log2(n)))) if n > 1 else 1
    src = np.zeros(edges, np.int64)
    dst = np.zeros(edges, np.int64)
    for bit in range(scale):  # one quadrant choice per bit, vectorized over the edges
        r = rng.random(edges)
        down = r >= KRON_A + KRON_B  # quadrants C and D: the source's bit is 1
        right = ((r >= KRON_A) & (r < KRON_A + KRON_B)) | (r >= KRON_A + KRON_B + KRON_C)  # B and D
        src |= down.astype(np.int64) << bit
        dst |= right.astype(np.int64) << bit
    perm = rng.permutation(1 << scale)  # GAP permutes the ids (no locality from the generator)
    src, dst = perm[src], perm[dst]
    wt = rng.integers(1, WEIGHT_MAX + 1, edges)
    keep = (src < n) & (dst < n) & (src != dst)
    src, dst, wt = src[keep], dst[keep], wt[keep]
    # both directions, then one arc per (u, v): the lightest.  One sort of the
    # packed (u, v, w) (w < 256) orders by source, neighbour, weight at once.
    packed = (np.concatenate([src, dst]) * n + np.concatenate([dst, src])) * (WEIGHT_MAX + 1) + np.concatenate([wt, wt])
    packed.sort()
    pair = packed // (WEIGHT_MAX + 1)
    first = np.ones(pair.size, bool)
    first[1:] = pair[1:] != pair[:-1]
    packed = packed[first]
    w = packed % (WEIGHT_MAX + 1)
    u, v = np.divmod(packed // (WEIGHT_MAX + 1), n)
    offs = np.zeros(n + 1, I32)
    offs[1:] = np.cumsum(np.bincount(u, minlength=n))
    nbr = np.zeros(m, I32)
    wts = np.zeros(m, I32)
    nbr[: v.size] = v
    wts[: w.size] = w
    return offs, nbr, wts


def _graph(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    offs, nbr, wt = kronecker(s["n"], s["m"], rng)
    return {"offs": offs, "nbr": nbr, "wt": wt}


def _arcs(x: Arrays) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(source, target, weight or None) of every arc, in CSR order."""
    offs = x["offs"].astype(np.int64)
    n = offs.size - 1
    m = int(offs[n])
    src = np.repeat(np.arange(n), np.diff(offs))
    return src, x["nbr"][:m].astype(np.int64), x["wt"][:m].astype(np.int64) if "wt" in x else None


def _bfs_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    g = _graph(s, rng)
    n = s["n"]
    # GAP picks a source with at least one neighbour (its SourcePicker)
    deg = np.diff(g["offs"])
    cands = np.flatnonzero(deg > 0)
    src = int(cands[rng.integers(0, cands.size)]) if cands.size else 0
    return g | {"S": np.array([src], I32), "Q": np.zeros(n, I32), "D": np.full(n, -1, I32), "Par": np.full(n, -1, I32)}


def _bfs_levels(x: Arrays) -> tuple[np.ndarray, list[np.ndarray]]:
    """Depth of every vertex from the source (-1: unreachable) and each level's
    vertices in the order a FIFO top-down BFS discovers them."""
    src, dst, _ = _arcs(x)
    offs = x["offs"]
    n = offs.size - 1
    depth = np.full(n, -1, I32)
    s0 = int(x["S"][0])
    depth[s0] = 0
    frontier = np.array([s0])
    levels = [frontier]
    level = 0
    deg = np.diff(offs.astype(np.int64))
    while frontier.size:
        # the frontier's arcs in the order the loop visits them: vertex by vertex, row order
        starts = offs[frontier].astype(np.int64)
        counts = deg[frontier]
        arc = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
        vs = dst[arc]
        fresh = depth[vs] < 0
        nxt, first = np.unique(vs[fresh], return_index=True)
        nxt = nxt[np.argsort(first)]  # discovery order
        level += 1
        depth[nxt] = level
        frontier = nxt
        if nxt.size:
            levels.append(nxt)
    return depth, levels


def _bfs_push_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    """Top-down: a vertex's parent is the first frontier vertex (queue order) to reach it."""
    src, dst, _ = _arcs(x)
    depth, levels = _bfs_levels(x)
    n = depth.size
    par = np.full(n, -1, I32)
    s0 = int(x["S"][0])
    par[s0] = s0
    queue = np.concatenate(levels).astype(I32)
    rank = np.full(n, n, np.int64)
    rank[queue] = np.arange(queue.size)
    # arcs from level l into level l + 1, ordered by the source's place in the queue, then row order
    good = (depth[src] >= 0) & (depth[dst] == depth[src] + 1)
    cand_src, cand_dst = src[good], dst[good]
    order = np.lexsort((np.arange(cand_src.size), rank[cand_src]))
    cand_src, cand_dst = cand_src[order], cand_dst[order]
    _, first = np.unique(cand_dst, return_index=True)
    par[cand_dst[first]] = cand_src[first]
    q = np.array(x["Q"], copy=True)
    q[: queue.size] = queue
    return {"D": depth, "Par": par, "Q": q}


def _bfs_pull_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    """Bottom-up: a vertex's parent is its first neighbour (row order) on the previous level."""
    src, dst, _ = _arcs(x)
    depth, _ = _bfs_levels(x)
    n = depth.size
    par = np.full(n, -1, I32)
    s0 = int(x["S"][0])
    par[s0] = s0
    # the graph is symmetric: row v lists v's in-neighbours; the first one a level up
    good = (depth[src] > 0) & (depth[dst] == depth[src] - 1)
    v, u = src[good], dst[good]
    _, first = np.unique(v, return_index=True)  # CSR order: the first arc of each row
    par[v[first]] = u[first]
    return {"D": depth, "Par": par}


DAMPING = 0.85  # GAP pr's damping factor (kDamp)


def _pr_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    g = _graph(s, rng)
    n = s["n"]
    return g | {"Sc": np.full(n, 1.0 / n, F32), "Nx": np.zeros(n, F32), "Ct": np.zeros(n, F32), "K": np.array([DAMPING], F32)}


def _pr_ref(push: bool):
    def ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
        src, dst, _ = _arcs(x)
        n = x["offs"].size - 1
        deg = np.maximum(np.diff(x["offs"]), 1).astype(F32)
        d = x["K"][0]
        base = (F32(1) - d) / F32(n)
        (score,) = _copy(x, "Sc")
        ct = nx = None
        for _ in range(s["iters"]):
            ct = (score / deg).astype(F32)
            acc = np.zeros(n, F32)
            # push: each arc (u, v) adds u's contribution into v; pull: v sums its
            # neighbours' -- the same sums on a symmetric graph, other orders
            np.add.at(acc, dst if push else src, ct[src if push else dst])
            nx = acc
            score = (base + d * acc).astype(F32)
        out = {"Sc": score, "Ct": ct}
        if push:
            out["Nx"] = np.zeros(n, F32)  # cleared after each iteration's use
        return out

    return ref


_INF = np.iinfo(I32).max  # "not reached" (GAP's kDistInf)


def _sssp_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    x = _bfs_inputs(s, rng)
    n = s["n"]
    return {k: x[k] for k in ("offs", "nbr", "wt", "S")} | {
        "Dist": np.full(n, _INF, I32), "Fr": np.zeros(n, I32), "Nf": np.zeros(n, I32), "In": np.zeros(n, I32),
    }  # fmt: skip


def _sssp_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    """Bellman-Ford over all arcs at once until nothing improves (the distances do
    not depend on the order the program relaxes them in)."""
    src, dst, w = _arcs(x)
    n = x["offs"].size - 1
    dist = np.full(n, np.iinfo(np.int64).max // 4, np.int64)
    dist[int(x["S"][0])] = 0
    for _ in range(n):
        cand = dist[src] + w
        new = dist.copy()
        np.minimum.at(new, dst, cand)
        if np.array_equal(new, dist):
            break
        dist = new
    out = np.where(dist >= np.iinfo(np.int64).max // 4, _INF, dist).astype(I32)
    return {"Dist": out, "In": np.zeros(n, I32)}


# ---------------------------------------------------------------------------
# bin_tree, hash_join
# ---------------------------------------------------------------------------


def _distinct_keys(rng: np.random.Generator, count: int) -> np.ndarray:
    """``count`` distinct non-negative 64-bit keys in random order."""
    keys = np.unique(rng.integers(0, 1 << 62, count + count // 8 + 8, dtype=I64))
    while keys.size < count:  # (collisions among 2^62 are vanishingly rare)
        keys = np.unique(np.concatenate([keys, rng.integers(0, 1 << 62, count, dtype=I64)]))
    return rng.permutation(keys)[:count]


def search_tree(keys: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(key, left, right, root): a binary search tree of the distinct ``keys``,
    shaped as random insertion would shape it (each subtree's root drawn uniformly
    from its keys), its nodes at random array slots, children -1 when absent.
    Built level by level, vectorized over each level's subtrees."""
    n = keys.size
    if n == 0:
        return keys.astype(I64), np.zeros(0, I32), np.zeros(0, I32), -1
    order = np.sort(keys)
    slot = rng.permutation(n).astype(I32)  # sorted position -> array slot
    left = np.full(n, -1, I32)
    right = np.full(n, -1, I32)
    lo, hi = np.array([0]), np.array([n])  # the open subtrees [lo, hi) of sorted positions
    parent, side = np.array([-1]), np.array([0])
    root = -1
    while lo.size:
        piv = lo + (rng.random(lo.size) * (hi - lo)).astype(np.int64)
        node = slot[piv]
        if root < 0:
            root = int(node[0])
        has = parent >= 0
        lt = has & (side == 0)
        rt = has & (side == 1)
        left[slot[parent[lt]]] = node[lt]
        right[slot[parent[rt]]] = node[rt]
        nlo = np.concatenate([lo, piv + 1])
        nhi = np.concatenate([piv, hi])
        npar = np.concatenate([piv, piv])
        nside = np.concatenate([np.zeros(lo.size, np.int64), np.ones(lo.size, np.int64)])
        alive = nlo < nhi
        lo, hi, parent, side = nlo[alive], nhi[alive], npar[alive], nside[alive]
    key = np.empty(n, I64)
    key[slot] = order
    return key, left, right, root


def _bin_tree_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    n, q = s["n"], s["q"]
    keys = _distinct_keys(rng, n + q)
    key, left, right, root = search_tree(keys[:n], rng)
    # half the lookups find a key of the tree, half look for one it does not hold
    hit = rng.random(q) < 0.5
    probe = np.where(hit, key[rng.integers(0, max(n, 1), q)] if n else keys[n:], keys[n:]).astype(I64)
    return {"Key": key, "Lt": left, "Rt": right, "Root": np.array([root], I32), "Qk": probe, "Res": np.zeros(q, I32)}


def _bin_tree_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    """The node holding each looked-up key, -1 when none (a sorted search, not a walk)."""
    key, qk = x["Key"], x["Qk"]
    order = np.argsort(key, kind="stable")
    sk = key[order]
    pos = np.searchsorted(sk, qk)
    pos_c = np.minimum(pos, max(sk.size - 1, 0))
    found = (pos < sk.size) & (sk[pos_c] == qk) if sk.size else np.zeros(qk.size, bool)
    return {"Res": np.where(found, order[pos_c] if sk.size else -1, -1).astype(I32)}


def hash_table(keys: np.ndarray, buckets: int) -> tuple[np.ndarray, np.ndarray]:
    """(head, next): a chained hash table of ``keys`` (bucket ``key % buckets``),
    as inserting the rows in order at the head of their chain leaves it: ``head[b]``
    the last row inserted into bucket b, ``next[r]`` the row inserted before r
    into r's bucket, -1 at a chain's end."""
    b = (keys % buckets).astype(np.int64)
    rows = np.arange(keys.size)
    order = np.lexsort((rows, b))  # by bucket, then insertion order
    sb = b[order]
    nxt = np.full(keys.size, -1, I32)
    same = np.zeros(keys.size, bool)
    same[1:] = sb[1:] == sb[:-1]
    nxt[order[1:][same[1:]]] = order[:-1][same[1:]]
    head = np.full(buckets, -1, I32)
    head[sb] = order  # the last of each bucket's run wins: its latest row
    return head, nxt


HIT_RATE = 1 / 8  # NSC Table VI: hash_join's probe hit rate


def _hash_join_inputs(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
    b, p, h = s["b"], s["p"], s["h"]
    if h < 1:
        raise ValueError("hash_join needs at least one bucket")
    keys = _distinct_keys(rng, b + p)
    head, nxt = hash_table(keys[:b], h)
    hit = (rng.random(p) < HIT_RATE) & (b > 0)
    probe = np.where(hit, keys[rng.integers(0, max(b, 1), p)], keys[b:]).astype(I64)
    return {"Bk": keys[:b].astype(I64), "Head": head, "Next": nxt, "Pk": probe, "Match": np.zeros(p, I32), "Cnt": np.zeros(1, I32)}


def _hash_join_ref(x: Arrays, s: Sizes) -> dict[str, np.ndarray]:
    """The build row with each probe's key (-1: none), found by sorting, and the matches' count."""
    bk, pk = x["Bk"], x["Pk"]
    order = np.argsort(bk, kind="stable")
    sk = bk[order]
    pos = np.searchsorted(sk, pk)
    pos_c = np.minimum(pos, max(sk.size - 1, 0))
    found = (pos < sk.size) & (sk[pos_c] == pk) if sk.size else np.zeros(pk.size, bool)
    match = np.where(found, order[pos_c] if sk.size else -1, -1).astype(I32)
    return {"Match": match, "Cnt": (x["Cnt"] + np.count_nonzero(found)).astype(I32)}


# ---------------------------------------------------------------------------
# registry
# ---------------------------------------------------------------------------

_M = 1 << 20
_K = 1 << 10
_GRAPH_PAPER = {"n": 256 * _K, "m": 2 * 16 * 256 * _K}  # GAP scale 18, edge factor 16 (3.6M edges kept)
_GRAPH_SMALL = {"n": 64, "m": 512}

# NSC Table II's kinds each program needs offloaded (its address patterns and the
# computations on them); "filter": a condition on loaded values (scf.if) chooses
# whether an access or update happens.
STREAM_KINDS: dict[str, tuple[str, ...]] = {
    "pathfinder": ("affine load", "affine multi-operand store"),
    "srad": ("affine load", "indirect load (the clamped neighbour index arrays)", "affine reduce", "affine multi-operand store"),
    "hotspot": ("affine load", "affine multi-operand store"),
    "hotspot3D": ("affine load", "affine multi-operand store"),
    "histogram": ("affine load", "indirect atomic (RMW) at a computed key"),
    "scluster": ("affine load", "indirect load (the candidate's coordinates)", "affine reduce", "filter",
                 "indirect atomic (RMW) through two indirections"),
    "svm": ("affine load", "affine reduce", "filter", "affine store"),
    "bfs_push": ("affine load", "indirect load (CSR rows)", "filter", "indirect atomic (compare-and-swap)", "indirect store"),
    "pr_push": ("affine load", "indirect load (CSR rows)", "indirect atomic (add)"),
    "sssp": ("affine load", "indirect load (CSR rows)", "filter", "indirect atomic (min)"),
    "bfs_pull": ("affine load", "indirect load (CSR rows)", "indirect reduce with early exit (scf.while)", "filter"),
    "pr_pull": ("affine load", "indirect load (CSR rows)", "indirect reduce"),
    "bin_tree": ("affine load", "pointer-chasing reduce (scf.while)"),
    "hash_join": ("affine load", "indirect load (the bucket's head)", "pointer-chasing reduce (scf.while)", "affine store"),
}  # fmt: skip



def _nsc(name: str, args: tuple[str, ...], outputs: tuple[str, ...], make_inputs, **kw) -> Workload:
    """A workload whose ``make_inputs`` gives exactly its array arguments (the
    generators shared by several workloads make a few more: a graph's weights)."""

    def make(s: Sizes, rng: np.random.Generator) -> dict[str, np.ndarray]:
        return {k: v for k, v in make_inputs(s, rng).items() if k in args}

    return Workload(f"nsc/{name}", args, outputs, make_inputs=make, entry=name, **kw)


_ALL = [
    _nsc(
        "pathfinder", ("W", "A", "B", "n", "t"), ("A", "B"),
        small={"n": 64, "t": 4}, paper={"n": 1536 * _K, "t": 8},
        make_inputs=_pathfinder_inputs, reference=_pathfinder_ref,
        description="Rodinia pathfinder: dynamic programming down a wall, row t+1 = wall + min of 3 above (t even)",
    ),
    _nsc(
        "srad", ("J", "iN", "iS", "jW", "jE", "dN", "dS", "dW", "dE", "C", "L", "rows", "cols", "iters"),
        ("J", "dN", "dS", "dW", "dE", "C"),
        small={"rows": 16, "cols": 24, "iters": 2}, paper={"rows": _K, "cols": 2 * _K, "iters": 8},
        make_inputs=_srad_inputs, reference=_srad_ref,
        description="Rodinia srad (v2): speckle-reducing anisotropic diffusion, the ROI statistics then two sweeps",
    ),
    _nsc(
        "hotspot", ("T", "P", "B", "K", "rows", "cols", "t"), ("T", "B"),
        small={"rows": 12, "cols": 16, "t": 2}, paper={"rows": 2 * _K, "cols": _K, "t": 8},
        make_inputs=_hotspot_inputs, reference=_hotspot_ref,
        description="Rodinia hotspot: 2D transient thermal simulation, t steps (even) ping-pong T -> B -> T",
    ),
    _nsc(
        "hotspot3D", ("T", "P", "B", "K", "nx", "ny", "nz", "t"), ("T", "B"),
        small={"nx": 8, "ny": 6, "nz": 4, "t": 2}, paper={"nx": 256, "ny": _K, "nz": 8, "t": 8},
        make_inputs=_hotspot3d_inputs, reference=_hotspot3d_ref,
        description="Rodinia hotspot3D: 3D thermal simulation (7 points, clamped at the faces), t steps (even)",
    ),
    _nsc(
        "histogram", ("V", "H", "n"), ("H",),
        small={"n": 256}, paper={"n": 12 * _M},
        make_inputs=_histogram_inputs, reference=_histogram_ref,
        description="histogram of 32-bit values by their 8-bit top byte (256 bins)",
    ),
    _nsc(
        "scluster", ("X", "Wt", "Cost", "Asg", "Ctab", "Cand", "Sw", "Gain", "Low", "p", "d", "k", "iters"),
        ("Sw", "Gain", "Low"),
        small={"p": 32, "d": 16, "k": 4, "iters": 2}, paper={"p": 768 * _K, "d": 16, "k": 64, "iters": 5},
        make_inputs=_scluster_inputs, reference=_scluster_ref,
        description="streamcluster's pgain: each point's weighted distance to a candidate center, switch or credit its center",
    ),
    _nsc(
        "svm", ("X", "Y", "Wv", "G", "M", "K", "n", "d", "iters"), ("Wv", "G", "M"),
        small={"n": 32, "d": 16, "iters": 2}, paper={"n": 384 * _K, "d": 16, "iters": 2},
        make_inputs=_svm_inputs, reference=_svm_ref,
        description="linear SVM, batch hinge-loss sub-gradient steps: margins, the violators' sum, the weight update",
    ),
    _nsc(
        "bfs_push", ("offs", "nbr", "S", "Q", "D", "Par", "n"), ("Q", "D", "Par"),
        small=_GRAPH_SMALL, paper=_GRAPH_PAPER,
        make_inputs=_bfs_inputs, reference=_bfs_push_ref,
        description="GAP bfs, top-down (push): level by level, each frontier vertex claims its unvisited neighbours",
    ),
    _nsc(
        "pr_push", ("offs", "nbr", "Sc", "Nx", "Ct", "K", "n", "iters"), ("Sc", "Nx", "Ct"),
        small=_GRAPH_SMALL | {"iters": 3}, paper=_GRAPH_PAPER | {"iters": 20},
        make_inputs=_pr_inputs, reference=_pr_ref(True),
        description="PageRank, push: each vertex adds its contribution into its neighbours' sums (atomic adds)",
    ),
    _nsc(
        "sssp", ("offs", "nbr", "wt", "S", "Dist", "Fr", "Nf", "In", "n"), ("Dist", "In"),
        small=_GRAPH_SMALL, paper=_GRAPH_PAPER,
        make_inputs=_sssp_inputs, reference=_sssp_ref,
        description="single-source shortest paths, frontier Bellman-Ford: relax the frontier's arcs (atomic min)",
    ),
    _nsc(
        "bfs_pull", ("offs", "nbr", "S", "D", "Par", "n"), ("D", "Par"),
        small=_GRAPH_SMALL, paper=_GRAPH_PAPER,
        make_inputs=_bfs_inputs,
        reference=_bfs_pull_ref,
        description="GAP bfs, bottom-up (pull): each unvisited vertex looks for a neighbour on the last level, stops at the first",
    ),
    _nsc(
        "pr_pull", ("offs", "nbr", "Sc", "Ct", "K", "n", "iters"), ("Sc", "Ct"),
        small=_GRAPH_SMALL | {"iters": 3}, paper=_GRAPH_PAPER | {"iters": 20},
        make_inputs=_pr_inputs,
        reference=_pr_ref(False),
        description="GAP pr, pull: each vertex sums its neighbours' contributions (a reduction per row)",
    ),
    _nsc(
        "bin_tree", ("Key", "Lt", "Rt", "Root", "Qk", "Res", "q"), ("Res",),
        small={"n": 64, "q": 48}, paper={"n": 128 * _K, "q": 128 * _K},
        make_inputs=_bin_tree_inputs, reference=_bin_tree_ref,
        description="lookups in a binary search tree of 8-byte keys (child indices in arrays): a pointer chase per lookup",
    ),
    _nsc(
        "hash_join", ("Bk", "Head", "Next", "Pk", "Match", "Cnt", "p", "h"), ("Match", "Cnt"),
        small={"b": 64, "p": 128, "h": 32}, paper={"b": 256 * _K, "p": 512 * _K, "h": 256 * _K},
        make_inputs=_hash_join_inputs, reference=_hash_join_ref,
        description="hash join probe: each probe key walks its bucket's chain of 8-byte build keys (hit rate 1/8)",
    ),
]

WORKLOADS: dict[str, Workload] = {w.name: w for w in _ALL}


def get(name: str) -> Workload:
    """``"nsc/pr_pull"`` or ``"pr_pull"``."""
    key = name if name.startswith("nsc/") else f"nsc/{name}"
    try:
        return WORKLOADS[key]
    except KeyError:
        raise KeyError(f"unknown NSC workload '{name}' (known: {', '.join(w.removeprefix('nsc/') for w in WORKLOADS)})") from None
