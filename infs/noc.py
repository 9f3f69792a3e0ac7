"""The on-chip network: an R x C mesh with X-Y routing and multicast, and the H-tree.

ASPLOS Table 2: 8x8 mesh, 32 B 1-cycle links, 5-stage routers, multicast,
X-Y routing; one L3 bank per mesh node (bank ``k`` at node ``k``,
``x = k % cols``, ``y = k // cols``).  Inside a bank a buffered H-tree of
``htree_levels`` levels connects the SRAM arrays (§5.2).

Traffic is accounted per directed link, vectorized over flows with difference
arrays (no loop over flows, banks or links):

* a *unicast* flow ``src -> dst`` of ``b`` bytes loads every link of its X-Y
  path (first along the row of ``src``, then along the column of ``dst``);
* a *multicast* group (one source, a set of destinations) loads every link
  of the union of its X-Y paths once -- the tree a multicast router builds.

``bytes x hops`` is the sum of the link loads.
"""

from __future__ import annotations

import numpy as np

from infs.unique_ints import unique_ints_inverse

# Link directions of the load array: [E, W, S, N] x rows x cols; entry
# [E, y, x] is the link (x, y) -> (x+1, y), [W, y, x] is (x+1, y) -> (x, y),
# [S, y, x] is (x, y) -> (x, y+1), [N, y, x] is (x, y+1) -> (x, y).
E, W, S, N = 0, 1, 2, 3


class Mesh:
    def __init__(self, rows: int, cols: int, link_bytes: int, hop_cycles: int):
        self.rows, self.cols = rows, cols
        self.link_bytes = link_bytes
        self.hop_cycles = hop_cycles

    @property
    def nodes(self) -> int:
        return self.rows * self.cols

    def xy(self, node: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        node = np.asarray(node, dtype=np.int64)
        return node % self.cols, node // self.cols

    def hops(self, src, dst) -> np.ndarray:
        xs, ys = self.xy(src)
        xd, yd = self.xy(dst)
        return np.abs(xs - xd) + np.abs(ys - yd)

    def zero_loads(self) -> np.ndarray:
        return np.zeros((4, self.rows, self.cols), dtype=np.float64)

    def _segment_pair(self, loads: np.ndarray, d0: int, d1: int, first: tuple, second: tuple, along_x: bool) -> None:
        """Add ``w`` to the links of direction ``d0`` covering positions [a, b) of
        ``line`` for ``first`` = (line, a, b, w), and likewise ``second`` to ``d1``
        (two directions along the same axis: E/W along x, S/N along y).

        One difference array for both: +w at a, -w at b, the second direction's
        lines numbered after the first's; bincount adds in input order from 0.0,
        as add.at at a and then at b would, so each link gets the same sums, bit
        for bit, as one difference array per direction (half the numpy calls:
        this runs for every move command and region priced)."""
        n = self.cols if along_x else self.rows
        m = self.rows if along_x else self.cols
        idx, wts = [], []
        for part, (line, a, b, w) in enumerate((first, second)):
            keep = b > a
            line, a, b, w = line[keep], a[keep], b[keep], w[keep]
            base = (line + part * m) * (n + 1)
            idx.append(base + a)
            idx.append(base + b)
            wts.append(w)
            wts.append(-w)
        # the +w's of both directions, then the -w's of both: within a link's bin the
        # order is its direction's +w's then -w's, as with a difference array of its own
        idx_all = np.concatenate([idx[0], idx[2], idx[1], idx[3]])
        if idx_all.size == 0:
            return
        diff = np.bincount(idx_all, weights=np.concatenate([wts[0], wts[2], wts[1], wts[3]]), minlength=2 * m * (n + 1)).reshape(2, m, n + 1)
        acc = np.cumsum(diff[:, :, :n], axis=2)
        # past a flow's end, +w and -w of fractional bytes cancel only to rounding:
        # a link no flow crosses was left with -2e-13 bytes (loads are never negative)
        np.maximum(acc, 0.0, out=acc)
        if along_x:
            loads[d0] += acc[0]
            loads[d1] += acc[1]
        else:
            loads[d0] += acc[0].T
            loads[d1] += acc[1].T

    def unicast_loads(self, src, dst, nbytes) -> np.ndarray:
        """Per-link bytes of unicast flows routed X then Y."""
        src = np.asarray(src, dtype=np.int64).ravel()
        dst = np.asarray(dst, dtype=np.int64).ravel()
        w = np.broadcast_to(np.asarray(nbytes, dtype=np.float64), src.shape).astype(np.float64)
        xs, ys = self.xy(src)
        xd, yd = self.xy(dst)
        loads = self.zero_loads()
        # Row segment on row ys: east over [xs, xd), west over [xd, xs).
        self._segment_pair(loads, E, W, (ys, xs, xd, w), (ys, xd, xs, w), True)
        # Column segment on column xd: south over [ys, yd), north over [yd, ys).
        self._segment_pair(loads, S, N, (xd, ys, yd, w), (xd, yd, ys, w), False)
        return loads

    def multicast_loads(self, group: np.ndarray, src: np.ndarray, dst: np.ndarray, nbytes: np.ndarray) -> np.ndarray:
        """Per-link bytes of multicast groups: ``group[i]`` sends ``nbytes[group]`` from
        ``src[i]`` (one source per group) to ``dst[i]``; each group loads its X-Y tree once."""
        return self._multicast(self._trees(group, src, dst), nbytes)

    def all_to_all_loads(self, nbytes: np.ndarray) -> np.ndarray:
        """``multicast_loads`` of every node multicasting ``nbytes[node]`` to every node
        (its trees built once per mesh)."""
        trees = getattr(self, "_all_trees", None)
        if trees is None:
            nodes = np.arange(self.nodes, dtype=np.int64)
            src = np.repeat(nodes, self.nodes)
            trees = self._all_trees = self._trees(src, src, np.tile(nodes, self.nodes))
        return self._multicast(trees, nbytes)

    def _trees(self, group: np.ndarray, src: np.ndarray, dst: np.ndarray):
        """The X-Y trees of multicast groups (``multicast_loads``), without their bytes."""
        group = np.asarray(group, dtype=np.int64).ravel()
        src = np.asarray(src, dtype=np.int64).ravel()
        dst = np.asarray(dst, dtype=np.int64).ravel()
        if group.size == 0:
            return None
        ng = int(group.max()) + 1
        xs, ys = self.xy(src)
        xd, yd = self.xy(dst)
        gsrc_x = np.zeros(ng, np.int64)
        gsrc_y = np.zeros(ng, np.int64)
        gsrc_x[group], gsrc_y[group] = xs, ys
        key = group * self.cols + xd
        if ng * self.cols * self.rows <= 1 << 22:
            # the extremes as first/last set cells of masks (coordinates are small)
            cols = np.zeros((ng, self.cols), dtype=bool)
            cols[group, xd] = True
            gi = np.flatnonzero(_any_row(cols))
            minx = np.argmax(cols[gi], axis=1).astype(np.int64)
            maxx = self.cols - 1 - np.argmax(cols[gi, ::-1], axis=1).astype(np.int64)
            cells = np.zeros((ng * self.cols, self.rows), dtype=bool)
            cells[key, yd] = True
            ukey = np.flatnonzero(_any_row(cells))
            miny = np.argmax(cells[ukey], axis=1).astype(np.int64)
            maxy = self.rows - 1 - np.argmax(cells[ukey, ::-1], axis=1).astype(np.int64)
            kg, kx = ukey // self.cols, ukey % self.cols
            return gi, gsrc_x[gi], gsrc_y[gi], minx, maxx, kg, kx, gsrc_y[kg], miny, maxy
        # Row part of the tree: from the source column out to the extreme destination columns.
        big = np.iinfo(np.int64).max
        minx = np.full(ng, big, np.int64)
        maxx = np.full(ng, -1, np.int64)
        np.minimum.at(minx, group, xd)
        np.maximum.at(maxx, group, xd)
        used = maxx >= 0
        gi = np.nonzero(used)[0]
        # Column parts: one per (group, destination column), from the source row
        # out to the extreme destination rows in that column.
        ukey, inv = unique_ints_inverse(key)
        miny = np.full(ukey.size, big, np.int64)
        maxy = np.full(ukey.size, -1, np.int64)
        np.minimum.at(miny, inv, yd)
        np.maximum.at(maxy, inv, yd)
        kg, kx = ukey // self.cols, ukey % self.cols
        return gi, gsrc_x[gi], gsrc_y[gi], minx[gi], maxx[gi], kg, kx, gsrc_y[kg], miny, maxy

    def _multicast(self, trees, nbytes: np.ndarray) -> np.ndarray:
        loads = self.zero_loads()
        if trees is None:
            return loads
        nbytes = np.asarray(nbytes, dtype=np.float64).ravel()
        gi, sx, sy, minx, maxx, kg, kx, ky, miny, maxy = trees
        wg, wk = nbytes[gi], nbytes[kg]
        self._segment_pair(loads, E, W, (sy, sx, maxx, wg), (sy, minx, sx, wg), True)
        self._segment_pair(loads, S, N, (kx, ky, maxy, wk), (kx, miny, ky, wk), False)
        return loads

    def tree_links(self, src: int, dsts: np.ndarray) -> int:
        """Number of links in the X-Y multicast tree from ``src`` to ``dsts``."""
        dsts = np.asarray(dsts, dtype=np.int64).ravel()
        loads = self.multicast_loads(np.zeros(dsts.size, np.int64), np.full(dsts.size, src), dsts, np.ones(1))
        return int(np.count_nonzero(loads))

    def drain_cycles(self, loads: np.ndarray, max_hops: int) -> int:
        """Cycles for traffic ``loads`` to arrive: the busiest link's serialization
        plus the longest path's router/link latency."""
        if max_hops <= 0 and not np.any(loads):
            return 0
        busiest = float(loads.max()) if loads.size else 0.0
        return int(np.ceil(busiest / self.link_bytes)) + max_hops * self.hop_cycles


def _any_row(m: np.ndarray) -> np.ndarray:
    """``m.any(axis=1)`` of a boolean matrix with few columns (one vector op per column:
    numpy's reduction along a short axis is far slower)."""
    out = m[:, 0].copy()
    for j in range(1, m.shape[1]):  # over the <= 16 columns of a mesh row
        out |= m[:, j]
    return out


def memory_controllers(rows: int, cols: int, count: int) -> np.ndarray:
    """Mesh nodes of the memory controllers, spread evenly over the west and east
    edge columns (ASPLOS Table 2: 16 controllers on the 8x8 mesh)."""
    west = np.arange(rows, dtype=np.int64) * cols
    places = np.stack([west, west + (cols - 1)], axis=1).reshape(-1) if cols > 1 else west
    idx = np.round(np.linspace(0, places.size - 1, min(count, places.size))).astype(np.int64)
    return np.unique(places[idx])


def nearest(mesh: Mesh, nodes: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """For every node, the nearest target (fewest hops; lowest index on ties)."""
    nodes = np.asarray(nodes, dtype=np.int64)
    h = mesh.hops(nodes[:, None], np.asarray(targets)[None, :])
    return np.asarray(targets)[np.argmin(h, axis=1)]


def htree_lca_level(a: np.ndarray, b: np.ndarray, degree: int, levels: int) -> np.ndarray:
    """H-tree level of the lowest common ancestor of arrays ``a`` and ``b`` of one bank
    (0 = same array); arrays are the leaves, ``degree`` children per node."""
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    lvl = np.full(np.broadcast(a, b).shape, levels, dtype=np.int64)
    for k in range(levels, -1, -1):  # loop over the <= levels tree levels
        span = degree**k
        lvl = np.where(a // span == b // span, k, lvl)
    return lvl
