"""``choose-layout``: pick the transposed data layout of each tDFG (ASPLOS §4.1).

Takes: specialized ``tdfg.graph`` ops (concrete domains) and a hardware
configuration.  Gives: the same graphs with ``infs.layout``: the lattice's
bounding box, the tile shape ``T`` shared by all arrays of the graph (the
primary array's, §4.1), and the shape of every array laid out in memory.

Tile sizes satisfy both constraints of §4.1: ``prod(T) == bitlines`` (a tile
fills one SRAM array) and ``T_inner * W mod L == 0`` (``W`` compute arrays
per bank, ``L`` elements per cache line, the innermost dim being the
contiguous one here).  A graph that moves data in memory (a ``mv``, ``bc`` or
``reduce``) ranks the valid tilings by the cycles the timing model would
charge for it: the graph is converted once (``tdfg-to-pimcmd`` +
``expand-mv-bc``), and per tile shape its commands are counted as the
lowering would split them (``decompose``'s pieces, Alg. 2's intra/inter-tile
shifts, ``lower-shift``'s broadcast runs, ``lower-reduce``'s rounds, the
partials read out) and priced with the timing model's formulas
(``infs.cost_formulas``: an in-array shift costs ``bits x |d| x`` the inner
tile sides, gem5's flattened distance; compute cycles from the cost profile;
inter-tile moves by their bytes over the H-tree and over the mesh links
they share, routed as the machine routes them, then a sync).
Nothing is lowered or simulated per shape.  A tiling other than the one an array
is held transposed in now (the runtime's residency, ``resident``) also pays that
array's re-transposition inside the L3.  Ties, and graphs without moves
(element-wise work, hints alone), fall back to the geometric preferences, in
order: no tile larger than the array along a dim (no bitline left idle), long
tiles on reduced dims, square-ish tiles on shifted dims (fewest cells crossing
a tile boundary), a small innermost tile when broadcasting, then fewer tiles.
Nothing else restricts the tile shapes (no powers of two, no tile dividing
an array's extents: boundary tiles are partly idle, §4.1).  A graph that
does not fit the machine is reported with ``LayoutError`` naming the rule
that failed -- constraint (2) when no tile shape meets it (whatever the
sizes), else the capacity in the shapes that do -- and the runtime then runs
it near memory.  ``tiles=4x4`` forces a tile shape.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from infs import cost_formulas
from infs.noc import Mesh
from infs.dialects import pimcmd_schema as K
from infs.element_types import ELEMENT_BITS, ELEMENT_BYTES
from infs.dialects.pimcmd_schema import tile_grid
from infs.hardware import CostProfile, HardwareConfig, get_profile, load_config
from infs.passes.lower_pim.decompose import decompose_box, split_interval, written_exactly
from infs.passes.lower_pim.expand_mv_bc import expand_mv_bc
from infs.passes.lower_pim.layout import Layout, LayoutError, other_shapes
from infs.passes.lower_pim.lower_shift import alg2_shifts, bcast_runs
from infs.passes.lowering_errors import LoweringError
from infs.dialects.tdfg_records import BC, MV, REDUCE, STREAM_LOAD, STREAM_REDUCE, GraphRecord
from infs.passes.tdfg_domains import CONCRETE, Bindings, GraphFacts, array_shapes, checked_element, element_name, lattice_extent
from infs.passes.lower_pim.pim_program import lazy_pass
from infs.passes.lower_pim.tdfg_to_pimcmd import convert_graph

CACHE_LINE_BYTES = 64


def _divisors(n: int) -> list[int]:
    """Divisors of ``n`` in increasing order, by trial division up to sqrt(n)
    (a machine may have 2^31 - 1 bitlines: test_divisor_enumeration_is_not_linear_in_the_width)."""
    small, large = [], []
    d = 1
    while d * d <= n:
        if n % d == 0:
            small.append(d)
            if d * d != n:
                large.append(n // d)
        d += 1
    return small + large[::-1]


@lru_cache(maxsize=256)
def _factorizations(n: int, rank: int) -> list[tuple[int, ...]]:
    """Every ``rank``-tuple of positive ints whose product is ``n`` (tile shapes)."""
    if rank == 1:
        return [(n,)]
    return [(d, *rest) for d in _divisors(n) for rest in _factorizations(n // d, rank - 1)]


def parse_tiles(text: str) -> tuple[int, ...]:
    try:
        t = tuple(int(x) for x in text.lower().split("x"))
    except ValueError:
        raise LayoutError(f"bad tile shape '{text}': expected e.g. 16x16") from None
    if not t or any(v <= 0 for v in t):
        raise LayoutError(f"bad tile shape '{text}': sizes must be positive")
    return t


def choose_layout(graph: GraphRecord, cfg: HardwareConfig, force_tiles: tuple[int, ...] | None = None,
                  shapes: dict[int, tuple[int, ...]] | None = None, at: Bindings = CONCRETE,
                  facts: GraphFacts | None = None, resident: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] | None = None) -> Layout:  # fmt: skip
    """The layout of ``graph`` (module docstring).  ``resident``: graph array index ->
    (lattice, tiles) of the layout the array is held transposed in now (the runtime's
    residency); a tiling that differs pays that array's re-transposition in the ranking."""
    facts = facts or GraphFacts.of(graph)
    rank = facts.rank
    arr_shapes = array_shapes(graph, shapes, at, facts)
    others = other_shapes(facts.arg_static, arr_shapes, shapes)
    # The lattice semantics has no upper bound (tdfg docstring); the physical
    # lattice covers the laid-out arrays, the tensors embedded load streams
    # lay out (§3.3) and every cell that reaches a store or a reduction: an
    # iteration domain may be larger than every array (a fixed-index load
    # broadcast over it, a store through a reversed map), and none of its
    # cells may be lost.
    lattice = lattice_extent(graph, arr_shapes, {**others, **arr_shapes}, at, facts)
    lattice_t = tuple(lattice)
    if any(s <= 0 for s in lattice_t):
        raise LayoutError(f"empty lattice {list(lattice_t)}")
    B, W = cfg.bitlines, cfg.arrays_per_bank
    capacity = cfg.banks * W
    primary = facts.primary
    if primary is not None and primary in arr_shapes:
        elem = element_name(facts.arg_types[primary])
    elif arr_shapes:
        elem = element_name(facts.arg_types[min(arr_shapes)])
    elif facts.has_stream_load:
        elem = checked_element(next(n for n in facts.body if n.kind is STREAM_LOAD).elem)
    else:
        # no array in memory: constants folded over the lattice (a sum of 1.0
        # over [0:N]) still compute there, and an empty graph lowers to an empty
        # program, as a graph over an empty domain does; 'nothing to lay out'
        # sent the one near memory and made the other an error.  The element
        # type only sizes the cache-line constraint (L) here.
        elem = next((element_name(n.elem) for n in facts.body if n.res >= 0 and (n.kind is not STREAM_REDUCE or n.tensor_result)), "f32")
    L = max(1, getattr(cfg, "line_bytes", CACHE_LINE_BYTES) // ELEMENT_BYTES[elem])

    def tiles_needed(T: tuple[int, ...]) -> int:
        return math.prod(tile_grid(lattice_t, T))

    if force_tiles is not None:
        if len(force_tiles) != rank:
            raise LayoutError(f"tile shape {'x'.join(map(str, force_tiles))} has rank {len(force_tiles)}, the lattice has rank {rank}")
        if math.prod(force_tiles) != B:
            raise LayoutError(f"tile shape {'x'.join(map(str, force_tiles))} covers {math.prod(force_tiles)} cells; an SRAM array of '{cfg.name}' has {B} bitlines")
        if tiles_needed(force_tiles) > capacity:
            raise LayoutError(f"the lattice {list(lattice_t)} in tiles {'x'.join(map(str, force_tiles))} needs {tiles_needed(force_tiles)} SRAM arrays; '{cfg.name}' has {capacity}")
        return Layout(lattice_t, tuple(force_tiles), arr_shapes, others)

    # the lattice's extents rounded up to powers of two (overshoot below)
    pow2 = tuple(1 << max(0, math.ceil(math.log2(s))) for s in lattice_t)
    best = None
    moved = facts.moved_dims
    logs: dict[tuple[int, int], float] = {}  # log2(t / min(t, p2)): few distinct (t, p2)
    candidates = _candidates(B, rank, W, L, moved["reduce"], moved["shift"], moved["broadcast"])
    if not candidates:
        # constraint (2) fails whatever the sizes: say which multiple the inner tile would need
        step = L // math.gcd(L, W)
        line = getattr(cfg, "line_bytes", CACHE_LINE_BYTES)
        raise LayoutError(
            f"no tile shape of {B} bitlines keeps a {L}-element cache line in one bank of '{cfg.name}' (T_inner * {W} mod {L} != 0): "
            f"§4.1 asks for a tile shape T with {_product_text(rank)} = {B} and {_inner_text(rank)} * {W} arrays per bank a multiple of "
            f"the {L} {elem} elements of a {line}-byte line, so {_inner_text(rank)} a multiple of {step}, and no multiple of {step} divides {B}"
        )
    fits = []
    for T, rest in candidates:
        n = tiles_needed(T)
        if n > capacity:
            continue
        overshoot = sum([logs[x] if x in logs else logs.setdefault(x, math.log2(x[0] / min(x))) for x in zip(T, pow2)])
        key = (round(overshoot, 6), *rest, n)
        fits.append((key, T))
        if best is None or key < best[0]:
            best = (key, T)
    # the estimate ranks the tilings of a graph that moves data in memory; without
    # a mv/bc/reduce (hints alone, element-wise work) the geometric key decides
    if len(fits) > 1 and any(n.kind in _MOVING for n in facts.body):
        chosen = _estimated_best(graph, cfg, fits, lattice_t, arr_shapes, others, at, facts, resident)
        if chosen is not None:
            best = (None, chosen)
    if best is None:
        # every tile shape that meets both constraints takes more SRAM arrays than the machine has
        need, fewest = min((tiles_needed(T), T) for T, _ in candidates)
        message = f"the lattice {list(lattice_t)} needs at least {need} SRAM arrays of {B} bitlines; '{cfg.name}' has {capacity}"
        if rank > 1:
            message += f" (in tiles {'x'.join(map(str, fewest))}"
            any_min, any_T = min((tiles_needed(T), T) for T in _factorizations(B, rank))
            if any_min < need:
                message += f"; {'x'.join(map(str, any_T))} would take {any_min} but breaks §4.1's cache-line rule {_inner_text(rank)} * {W} mod {L} = 0"
            message += ")"
        raise LayoutError(message)
    return Layout(lattice_t, best[1], arr_shapes, others)


def _product_text(rank: int) -> str:
    return "*".join(f"T{i}" for i in range(rank))


def _inner_text(rank: int) -> str:
    """The innermost (contiguous) tile dim: the paper's T_0, the last dim here (memref order)."""
    return f"T{rank - 1}"


@lru_cache(maxsize=1024)
def _candidates(B: int, rank: int, W: int, L: int, reduce_d: frozenset[int], shift_d: frozenset[int],
                bcast_d: frozenset[int]) -> tuple[tuple[tuple[int, ...], tuple], ...]:  # fmt: skip
    """The tile shapes that meet §4.1's constraint (2) (a cache line stays in
    one bank) with the size-independent part of their preference key
    (reduced, shifted and broadcast dims); the same for every size of a graph."""
    out = []
    for T in _factorizations(B, rank):
        if (T[-1] * W) % L != 0:
            continue
        rest = (
            -sum(math.log2(T[d]) for d in reduce_d),
            round(sum(1.0 / T[d] for d in shift_d), 9),
            math.log2(T[-1]) if bcast_d else 0.0,
        )
        out.append((T, rest))
    return tuple(out)


def layout_config(config: str) -> HardwareConfig:
    """The machine of a ``config=`` option (a built-in name, a TOML/JSON file or an inline spec)."""
    try:
        return load_config(config)
    except ValueError as e:
        raise LayoutError(str(e)) from None


def _choose_layout_pass() -> type:
    """``ChooseLayoutPass`` (xDSL's side, built on first use: ``pim_program.lazy_pass``)."""
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.passes import ModulePass

    from infs.dialects import tdfg
    from infs.dialects.tdfg_ir_records import from_graph
    from infs.passes.lower_pim.layout import layout_attr
    from infs.passes.lowering_errors import where

    @dataclass(frozen=True)
    class ChooseLayoutPass(ModulePass):
        """Annotate every specialized ``tdfg.graph`` with ``infs.layout`` (options ``config``, ``tiles``)."""

        name = "choose-layout"
        config: str = "paper-64"
        tiles: str = ""

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            cfg = layout_config(self.config)
            force = parse_tiles(self.tiles) if self.tiles else None
            for g in op.walk():
                if isinstance(g, tdfg.GraphOp):
                    try:
                        layout = choose_layout(from_graph(g), cfg, force)
                    except LayoutError as e:
                        raise LayoutError(f"{where(g)}: {e}") from None
                    g.attributes["infs.layout"] = layout_attr(layout, cfg, len(g.arrays))

    return ChooseLayoutPass


__getattr__ = lazy_pass(__name__, "ChooseLayoutPass", _choose_layout_pass)


# -- the cost estimate that ranks the valid tilings ------------------------------------


_INTER_TABLES: dict[int, tuple[HardwareConfig, dict]] = {}


def _inter_table(cfg: HardwareConfig) -> dict:
    """``_Est.inter``'s table of one machine (by identity: the runtime keeps its config object)."""
    hit = _INTER_TABLES.get(id(cfg))
    if hit is None or hit[0] is not cfg:
        if len(_INTER_TABLES) >= 64:
            _INTER_TABLES.clear()
        hit = _INTER_TABLES[id(cfg)] = (cfg, {})
    return hit[1]


@dataclass
class _Est:
    """The timing model's formulas (``infs.cost_formulas``, ``infs.sim.sram.timing``) on
    the commands the lowering would give one tile shape, counted, not built."""

    cfg: HardwareConfig
    lattice: tuple[int, ...]
    T: tuple[int, ...]

    def __post_init__(self) -> None:
        c, T = self.cfg, self.T
        self.grid = tile_grid(self.lattice, T)
        self.bstride = [math.prod(T[k + 1:]) for k in range(len(T))]  # bitlines between neighbours (row-major tile)
        self.tstride = [math.prod(self.grid[k + 1:]) for k in range(len(T))]  # tile numbers between neighbours
        host_r, host_c = divmod(c.host_tile, c.mesh_cols)
        # sync (§5.2): a barrier round trip between TC_core and the farthest bank (timing.CostModel._sync)
        self.sync = 2 * (max(host_r, c.mesh_rows - 1 - host_r) + max(host_c, c.mesh_cols - 1 - host_c)) * c.hop_cycles
        self._parts: dict = {}  # box -> intervals per dim (terms share boxes: a convolution's taps)
        self._others: dict = {}
        self._inter = _inter_table(c)  # inter-tile move arguments -> cycles, per machine

    def parts(self, box) -> list[list[tuple[int, tuple[int, int]]]]:
        """decompose's intervals of ``box`` (Alg. 1) per dim, each as (tiles, in-tile range):
        its pieces are their cross product."""
        out = self._parts.get(box)
        if out is None:
            out = self._parts[box] = [
                [(1, (a % t, (b - 1) % t + 1)) if b - a < t or a % t else ((b - a) // t, (0, t)) for a, b in split_interval(p, q, t)]
                for (p, q), t in zip(box, self.T)
            ]
        return out

    def others(self, box, d: int) -> dict[tuple[tuple[int, ...], int], int]:
        """The pieces of ``box`` over the dims other than ``d``: (tiles per dim, ``d``'s
        entry 1; in-tile cells) -> count."""
        key = (box, d)
        out = self._others.get(key)
        if out is None:
            out = {((), 1): 1}
            for i, ps in enumerate(self.parts(box)):
                nxt: dict = {}
                for (ns, w), m in out.items():
                    for pn, (a, b) in ps if i != d else [(1, (0, 1))]:
                        k = ((*ns, pn), w * (b - a))
                        nxt[k] = nxt.get(k, 0) + m
                out = nxt
            self._others[key] = out
        return out

    def run(self, ns: tuple[int, ...]) -> int:
        """Source tiles of a box of ``ns`` tiles per dim that share a bank, at most: tiles
        are numbered row-major and a bank holds ``arrays_per_bank`` consecutive ones, so a
        box's tiles are consecutive along its inner dims while it spans them whole."""
        run = 1
        for n, g in zip(reversed(ns), reversed(self.grid)):
            run *= n
            if n < g:
                break
        return min(run, self.cfg.arrays_per_bank)

    def bank_cells(self, box, dims) -> float:
        """Cells of ``box`` in its busiest bank (one per tile along ``dims``: partials)."""
        ns, per_tile, cells = [], 1, 1
        for i, ((p, q), t) in enumerate(zip(box, self.T)):
            n = max(0, -(-q // t) - p // t)
            ns.append(n)
            per_tile *= 1 if i in dims else min(t, q - p)
            cells *= n if i in dims else q - p
        return min(cells, self.run(tuple(ns)) * per_tile)

    def pieces(self, box):
        """decompose's pieces of ``box``: (tiles per dim, in-tile range per dim)."""
        return [(tuple(n for n, _ in ps), tuple(r for _, r in ps)) for ps in itertools.product(*self.parts(box))]

    def inter(self, bits: int, ntiles: int, nb: int, dim: int, tiles_away: int, mult: float = 1.0) -> int:
        """An inter-tile shift or broadcast (timing ``_inter_tile``): every source array's
        ``nb`` bitlines up its bank's H-tree (``ntiles`` of them in the busiest bank), into
        another bank's when the destination tile is in another bank, then the mesh drain
        the next sync waits for, its busiest link carrying ``mult`` (``contention``) banks' worth."""
        # the cycles depend on the tile-number distance, not on which dim or tiling gives
        # it: one table per machine, shared by every candidate and every call (a host loop
        # ranks the same few shapes again at every step)
        key = (bits, min(ntiles, self.cfg.arrays_per_bank), nb, abs(tiles_away) * self.tstride[dim], round(mult, 4))
        table = self._inter
        cycles = table.get(key)
        if cycles is None:
            if len(table) >= 100_000:
                table.clear()
            cycles = table[key] = self._inter_cycles(*key)
        return cycles

    def _inter_cycles(self, bits: int, ntiles: int, nb: int, step: int, mult: float) -> int:
        """``inter``'s cycles for sources ``step`` tile numbers from their destinations
        (tile -> bank: tile // arrays_per_bank)."""
        c = self.cfg
        apb = c.arrays_per_bank
        per_tile = nb * bits / 8.0
        per_bank = min(apb, ntiles)
        remote = min(1.0, step / apb)
        # the H-tree as the timing model prices it (gem5's levels, ``cost_formulas.htree_level_arrays``)
        # for the busiest bank's sources, taken as its first ``per_bank`` arrays each sent ``step`` on
        # (the transfer count depends on the sources and the distance only: kept per machine
        # under the key ``("moved", per_bank, step)``, as the size of what moves varies per call)
        moved = self._inter.get(("moved", per_bank, step))
        if moved is None:
            src = np.arange(per_bank, dtype=np.int64)
            dst = src + step
            away = dst >= apb
            lvl = cost_formulas.htree_lca_levels(src, np.minimum(dst, apb - 1), c.htree_degree, c.htree_levels, c.arrays_per_way, c.compute_ways)
            moved = self._inter["moved", per_bank, step] = cost_formulas.htree_level_arrays(
                np.zeros_like(src), src, lvl, away, c.htree_degree, c.htree_levels, c.arrays_per_way, c.compute_ways)
        tree = moved * cost_formulas.htree_array_cycles(nb, bits, c.htree_leaf_bytes_per_cycle)
        recv = cost_formulas.htree_cycles(per_bank * per_tile * remote, c.htree_bytes_per_cycle)
        cycles = max(tree, recv) + 2 * c.htree_levels
        if remote:
            banks_away = max(1, step // apb)
            hops = min(c.mesh_rows + c.mesh_cols - 2, banks_away // c.mesh_cols + banks_away % c.mesh_cols)
            cycles += cost_formulas.drain_cycles(per_bank * per_tile * remote * mult, c.link_bytes, hops, c.hop_cycles)
        return cycles

    def contention(self, box, d: int, lo: int, hi: int, multicast: bool) -> float:
        """The mesh's share of an inter-tile move of ``box``'s tiles along ``d`` by the tile
        offsets ``[lo, hi)`` (a shift: one offset; a broadcast: its destination run): the
        bytes the busiest link carries over those the busiest source bank sends to other
        banks, which ``inter``'s drain counts.  The machine routes every source tile's data
        to its destination banks over the X-Y mesh (``timing._inter_tile``, ``noc.Mesh``;
        a broadcast's fan-out a multicast tree) and flows that share a link serialize on it
        (ASPLOS Table 2: 32 B links): a broadcast along the outer dim of a 4x8x8 tiling
        sends four banks' slices across the same row links, an 8x8x4 tiling's eight down
        eight columns.  Kept per machine under the tile ranges, the dim and the offsets
        (a host loop's boxes change tile ranges every tile side, not every step)."""
        c, T = self.cfg, self.T
        apb = c.arrays_per_bank
        rng = tuple((p // t, -(-q // t)) for (p, q), t in zip(box, T))
        key = ("contention", T, rng, d, lo, hi, multicast)
        hit = self._inter.get(key)
        if hit is not None:
            return hit
        ids = np.zeros(1, dtype=np.int64)
        for k, (a, b) in enumerate(rng):  # the box's tile numbers, row-major (its tile sub-box)
            ids = (ids[:, None] + np.arange(a, b, dtype=np.int64)[None, :] * self.tstride[k]).ravel()
        pos = (ids // self.tstride[d]) % self.grid[d]  # each source tile's position along d
        offs = np.arange(lo, hi, dtype=np.int64)
        offs = offs[offs != 0]
        ok = (pos[:, None] + offs[None, :] >= 0) & (pos[:, None] + offs[None, :] < self.grid[d])
        src = np.broadcast_to((ids // apb)[:, None], ok.shape)
        dst = (ids[:, None] + offs[None, :] * self.tstride[d]) // apb
        away = ok & (dst != src)
        mult = 1.0
        if np.any(away):
            s, t = src[away], dst[away]
            mesh = Mesh(c.mesh_rows, c.mesh_cols, c.link_bytes, c.hop_cycles)
            banks = c.mesh_rows * c.mesh_cols
            if multicast:
                # one tree per source tile (the machine's groups), summed per source bank:
                # a bank's tiles send to the same destination banks
                tiles_of = np.bincount(ids[np.any(away, axis=1)] // apb, minlength=banks).astype(np.float64)
                pairs = np.flatnonzero(np.bincount(s * banks + t, minlength=banks * banks))
                flows = ("multicast", pairs.tobytes(), tiles_of.tobytes())
            else:
                counts = np.bincount(s * banks + t, minlength=banks * banks)
                pairs = np.flatnonzero(counts)
                flows = ("unicast", pairs.tobytes(), counts[pairs].tobytes())
            # the same bank-to-bank flows (tile ranges that differ inside banks) route once
            mult = self._inter.get(flows)
            if mult is None:
                if multicast:
                    loads = mesh.multicast_loads(pairs // banks, pairs // banks, pairs % banks, tiles_of)
                    sent = tiles_of.max()
                else:
                    loads = mesh.unicast_loads(pairs // banks, pairs % banks, counts[pairs].astype(np.float64))
                    sent = np.bincount(s, minlength=banks).max()
                mult = self._inter[flows] = float(loads.max()) / float(sent)
        if len(self._inter) >= 100_000:
            self._inter.clear()
        self._inter[key] = mult
        return mult

    def cycles(self, terms: dict[tuple, int], bound: bool = False) -> float:
        """The estimated cycles of ``terms`` (``_terms``: the commands' shape-dependent
        parts, each with its count) lowered on this tile shape; with ``bound``, a lower
        bound of them that skips the mesh contention (its multiplier taken as 0: the
        drain is monotone in it, and so is every operation that sums the terms)."""
        cfg, T = self.cfg, self.T
        par = cfg.parallel_intra_shift
        total = 0.0
        for term, times in terms.items():
            k = term[0]
            before = total
            if k is K.COMPUTE:  # split by decompose (into a register written exactly)
                _, cyc, box = term
                total += cyc * len(decompose_box(box, T))
            elif k is K.MV:
                _, bits, d, dist, box = term
                others = self.others(box, d)
                combos = sum(others.values())
                crossed = False
                for nd, (a, b) in self.parts(box)[d]:
                    for (m0, m1), inter, intra in alg2_shifts(T[d], dist):
                        lo, hi = max(a, m0), min(b, m1)
                        if lo >= hi:
                            continue
                        if inter == 0:
                            total += cost_formulas.intra_shift_cycles(bits, intra, self.bstride[d], par) * combos
                        else:
                            crossed = True
                            mult = 0.0 if bound else self.contention(box, d, inter, inter + 1, False)
                            for (ns, w), m in others.items():
                                total += self.inter(bits, nd * math.prod(ns), w * (hi - lo), d, inter, mult) * m
                total += self.sync if crossed else 0
            elif k is K.BC:
                # lower-shift's runs of destination tiles (head, whole tiles, tail), each one
                # bcast: its in-tile part an alignment to the run's first offset when the run
                # holds the source's tile, a multicast over the H-tree and mesh otherwise
                _, bits, d, dist, count, box = term
                t = T[d]
                p = box[d][0]
                tp, l = p // t, p % t
                lo, hi = p + dist, p + dist + count
                runs = bcast_runs(lo, hi, t)
                others = self.others(box, d)  # (the slice is one cell thick along d: one interval)
                combos = sum(others.values())
                crossed = False
                for ta, tb, r0, _r1 in runs:
                    if ta <= tp < tb:
                        total += cost_formulas.intra_bcast_cycles(bits, r0 - l, self.bstride[d], par) * combos
                    if tb - ta > 1 or ta != tp:
                        crossed = True
                        away = max(abs(ta - tp), abs(tb - 1 - tp), 1)
                        mult = 0.0 if bound else self.contention(box, d, ta - tp, tb - tp, cfg.multicast)
                        for (ns, w), m in others.items():
                            total += self.inter(bits, self.run(ns), w, d, away, mult) * m
                total += self.sync * combos if crossed else 0
            elif k is K.REDUCE:
                _, bits, d, add, copy, box = term
                for nt, ir in self.pieces(box):
                    a, b = ir[d]
                    n = b - a
                    total += copy
                    while n > 1:
                        h = (n + 1) // 2
                        total += cost_formulas.intra_shift_cycles(bits, h, self.bstride[d], par) + add
                        n = h
                    if a > 0:
                        total += cost_formulas.intra_shift_cycles(bits, a, self.bstride[d], par) + copy
            elif k is K.READOUT:
                # the partials of an in-memory reduce: one per tile along its dims (Fig. 4b),
                # read out over the banks' H-trees, then reduced by their stream engines
                _, bits, dims, box = term
                per_bank = self.bank_cells(box, dims)
                total += cost_formulas.htree_cycles(per_bank * bits / 8.0, cfg.htree_bytes_per_cycle)
                total += per_bank / cfg.simd_lanes
            elif k is K.NEAR_LOAD:
                # a near-memory gather or scatter: each bank's stream engine handles the
                # cells of the box it holds (timing ``near_access``), the busiest bank last
                _, box = term
                total += self.bank_cells(box, ()) / cfg.simd_lanes
            total = before + (total - before) * times
        return total


def _estimated_best(graph: GraphRecord, cfg: HardwareConfig, fits: list[tuple[tuple, tuple[int, ...]]], lattice: tuple[int, ...],
                    arr_shapes, others, at: Bindings, facts: GraphFacts, resident=None) -> tuple[int, ...] | None:  # fmt: skip
    """The valid tiling with the fewest estimated cycles (ties: the geometric key), or
    None when the graph does not convert (the lowering then reports why).  A tiling
    other than the one a laid-out array is held transposed in pays its
    re-transposition inside the L3 (the machine's charge: bytes over every bank's
    H-tree root, ``htree_bytes_per_cycle``, plus the L3 latency): a host loop whose
    invocations rank close tilings differently (gauss_elim's shrinking update, its box
    start's alignment changing with k) keeps its layout instead of re-transposing
    the array at every step."""
    try:
        prog, _ = convert_graph(graph, at, (cfg, Layout(lattice, fits[0][1], arr_shapes, others)), facts)
    except (LoweringError, LayoutError):
        return None
    terms = _terms(expand_mv_bc(prog), get_profile(cfg.profile))
    moves = []
    for i, (lat, tiles) in (resident or {}).items():
        if i in arr_shapes:
            nbytes = math.prod(arr_shapes[i]) * ELEMENT_BYTES[element_name(facts.arg_types[i])]
            moves.append((lat, tiles, -(-nbytes // (cfg.htree_bytes_per_cycle * cfg.banks)) + cfg.l3_latency))

    def relayout(T) -> int:
        return sum(c for lat, tiles, c in moves if (tuple(lat), tuple(tiles)) != (lattice, tuple(T)))

    # branch and bound: the full estimate (with contention) only for the tilings whose lower
    # bound can still beat the best so far; the same minimum, ties included, as ranking all
    ests = [_Est(cfg, lattice, T) for _, T in fits]
    bounds = sorted(((e.cycles(terms, bound=True) + relayout(kt[1]), kt[0], i) for i, (kt, e) in enumerate(zip(fits, ests))))
    best = None
    for low, key, i in bounds:
        if best is not None and (low, key, i) >= best:
            break
        full = (ests[i].cycles(terms) + relayout(fits[i][1]), key, i)
        if best is None or full < best:
            best = full
    return fits[best[2]][1]


def _terms(prog, profile: CostProfile) -> dict[tuple, int]:
    """The shape-dependent part of every command of the expanded domain-form ``prog``,
    counted (a graph repeats the same box and move many times: priced once per shape).
    Commands whose cost no tile shape changes (a compute into a temporary, run once
    over its covering tiles) are left out: they do not rank."""
    exact = written_exactly(prog)
    reduced: dict[int, set[int]] = {}  # register -> dims reduced in memory (its readout keeps a partial per tile)
    terms: dict[tuple, int] = {}
    bufs: dict[int, tuple] = {}  # buffer -> its box (a near_store without a domain stores its buffer whole)
    for c in prog.cmds:
        k, f = c.kind, c
        box = f.get("domain")
        if k is K.COMPUTE:
            if box is None or f["dst"] not in exact:
                continue
            term = (k, profile.compute_cycles(f["op"], f["type"], f.get("const") is not None or f.get("const_arg") is not None), box)
        elif k is K.MV:
            term = (k, ELEMENT_BITS[f["type"]], f["dim"], f["dist"], box)
        elif k is K.BC:
            term = (k, ELEMENT_BITS[f["type"]], f["dim"], f["dist"], f["count"], box)
        elif k is K.REDUCE:
            reduced.setdefault(f["dst"], set()).add(f["dim"])
            term = (k, ELEMENT_BITS[f["type"]], f["dim"], profile.compute_cycles(f["op"], f["type"]), profile.compute_cycles("copy", f["type"]), box)
        elif k is K.READOUT:
            bufs[f["id"]] = box
            term = (k, ELEMENT_BITS[f["type"]], frozenset(reduced.get(f["src"], ())), box)
        elif k is K.NEAR_LOAD or k is K.NEAR_STORE:
            box = box or bufs.get(f.get("input"))
            if k is K.NEAR_LOAD:
                bufs[f["out"]] = box
            if box is None:
                continue
            term = (K.NEAR_LOAD, box)
        else:
            continue
        terms[term] = terms.get(term, 0) + 1
    return terms


_MOVING = (MV, BC, REDUCE)
