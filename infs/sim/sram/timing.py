"""Per-command latency, traffic and energy quantities (ASPLOS §4.2, §5.2, §7).

Everything here is a function of the command and the layout only -- never of
the data -- so the analysis mode reproduces the functional mode's statistics
exactly.  All banks execute a command in parallel; a command's latency is the
slowest participating bank's.

* compute: the cost profile's cycles (``config.CostProfile``);
* intra-tile shift (inter = 0): ``bits x |distance| x bstride(dim)`` cycles --
  one cycle per bit (wordline) per *flattened* bitline step.  This is the
  authors' gem5 model: ``DataMoveCompiler::compileAlign`` multiplies the
  distance by the inner tile sizes (``pum/DataMoveCompiler.cc:400-404``) and
  ``PUMEngine::estimateCommandLatency`` charges ``wordline_bits x
  |bitline_dist|`` (``pum/PUMEngine.cc:269-295``) unless
  ``stream_pum_enable_parallel_intra_array_shift`` is set (default off,
  ``configs/.../run.py:375``); ``HardwareConfig.parallel_intra_shift`` is that
  flag (then a shift costs ``bits``).  ASPLOS §5.2 only says the arrays
  "support bit-serial logic and shifts";
* in-tile part of a broadcast: ``bits x max(1, |lo| x bstride(dim))`` -- the
  source is aligned to the *first* destination offset ``lo`` and the fan-out
  to the other offsets is free (``intra_bcast_cycles``);
* inter-tile shift / broadcast: every source array sends its selected bits up
  the bank's H-tree (``htree_bytes_per_cycle`` per bank, shared); destinations
  in other banks are reached through the mesh (X-Y routing, multicast for
  broadcasts), injected at ``link_bytes`` per cycle.  The command finishes at
  the banks after ``max(H-tree, injection) + 2 x levels``; it is asynchronous
  (§4.2 Synchronization): the data is in flight until
  ``busiest link / link_bytes + max hops x (router + link)`` later, which the
  next ``sync`` waits for.  The in-tile offsets of a broadcast ride on the
  same transfer: the fan-out is a multicast, free in time (gem5
  ``PUMEngine.cc:441-486``, "when there is reuse, just send to all the
  DstBank");
* sync: the remaining in-flight time plus a barrier round trip between
  TC_core (at ``host_tile``) and the farthest bank (§5.2);
* readout: bytes per bank over the H-tree plus the L3 latency (final reduce);
* transpose_in / release: bytes over DRAM at ``dram_gbps`` through the
  nearest memory controller, plus the L3 latency.

Every command other than sync and the LOT entries is also sent by TC_core to
its banks (``command_bytes``, multicast): that is control traffic.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from infs import cost_formulas
from infs.dialects import pimcmd_schema as K
from infs.sim.config import CostProfile, HardwareConfig
from infs.sim.sram.geometry import Geometry, box_tile_counts
from infs.unique_ints import unique_ints
from infs.noc import Mesh, memory_controllers, nearest
from infs.sim.stats import Cost


def _ceil(x: float) -> int:
    return int(math.ceil(x - 1e-9))


MEMO = 4096  # run-time costs memoized per cost model (LRU)


def _tuples(x):
    """A hashable form of a command field (nested lists become tuples)."""
    return tuple(_tuples(v) for v in x) if isinstance(x, (list, tuple)) else x


@dataclass
class CostModel:
    cfg: HardwareConfig
    profile: CostProfile

    def __post_init__(self) -> None:
        c = self.cfg
        self.mesh = Mesh(c.mesh_rows, c.mesh_cols, c.link_bytes, c.hop_cycles)
        self.all_banks = np.arange(c.banks, dtype=np.int64)
        self.mcs = memory_controllers(c.mesh_rows, c.mesh_cols, c.mem_ctrls)
        self.mc_of_bank = nearest(self.mesh, self.all_banks, self.mcs)
        self._tree_cache: dict[bytes, int] = {}
        # H-tree level of the common ancestor of every two arrays of a bank, looked up
        # instead of computed per transfer (up to 1024 arrays per bank: 8 MB)
        apb = c.arrays_per_bank
        ids = np.arange(apb, dtype=np.int64)
        self._lca = self._lca_levels(ids[:, None], ids[None, :]) if apb <= 1024 else None
        # costs computed at run time (not in a plan), memoized by their arguments:
        # a host loop re-running a program repeats them unchanged
        self._memo: OrderedDict[tuple, Cost] = OrderedDict()
        far = int(self.mesh.hops(c.host_tile, self.all_banks).max())
        self._far_hops = far
        self._mean_hops = float(self.mesh.hops(self.all_banks[:, None], self.all_banks[None, :]).mean())
        # sync's part that does not depend on the pairs: reports to TC_core and its clear
        self._sync_ctrl = float(self.mesh.hops(self.all_banks, c.host_tile).sum()) * c.control_bytes
        self._sync_ctrl += self.mesh.tree_links(c.host_tile, self.all_banks) * c.control_bytes

    def _memoized(self, key: tuple, make: Callable[[], Cost]) -> Cost:
        """``make()``, once per ``key`` (LRU of ``MEMO`` costs; a cost is not changed once made)."""
        memo = self._memo
        cost = memo.get(key)
        if cost is None:
            cost = memo[key] = make()
            if len(memo) > MEMO:
                memo.popitem(last=False)
        else:
            memo.move_to_end(key)
        return cost

    def of(self, kind: K.CommandKind) -> Callable[..., Cost]:
        """The cost function of a command (``COSTS``), bound to this model."""
        fn = COSTS.get(kind)
        if fn is None:
            raise ValueError(f"'{getattr(kind, 'name', kind)}' has no cost (infs.sim.sram.timing.COSTS)")
        return fn.__get__(self)

    # -- helpers -------------------------------------------------------------
    def command_control(self, banks: np.ndarray, cost: Cost) -> None:
        """TC_core multicasts the command to its banks (control traffic)."""
        key = np.asarray(banks, np.int64).tobytes()
        links = self._tree_cache.get(key)
        if links is None:
            links = self.mesh.tree_links(self.cfg.host_tile, banks) if len(banks) else 0
            self._tree_cache[key] = links
        bh = float(links * self.cfg.command_bytes)
        cost.traffic["noc_control"] = cost.traffic.get("noc_control", 0.0) + bh
        cost.quantities["noc_byte_hops"] = cost.quantities.get("noc_byte_hops", 0.0) + bh

    def _bank(self, tiles: np.ndarray) -> np.ndarray:
        return tiles // (self.cfg.arrays_per_bank)

    def _lca_levels(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """H-tree level of the common ancestor of arrays ``a`` and ``b`` of one bank
        (``cost_formulas.htree_lca_levels``: in-way levels, then the way level)."""
        c = self.cfg
        return cost_formulas.htree_lca_levels(a, b, c.htree_degree, c.htree_levels, c.arrays_per_way, c.compute_ways)

    # -- compute ---------------------------------------------------------------
    def compute(self, op: str, ty: str, has_const: bool, tiles: np.ndarray, bls: np.ndarray, banks: np.ndarray) -> Cost:
        cycles = self.profile.compute_cycles(op, ty, has_const)
        cells = int(tiles.size) * int(bls.size)
        cost = Cost("compute", cycles=cycles, element_ops=cells)
        cost.quantities["bitline_cycles"] = float(cells) * cycles
        self.command_control(banks, cost)
        return cost

    # -- moves -------------------------------------------------------------------
    def intra_shift_cycles(self, bits: int, dist: int, bstride: int = 1) -> int:
        """An in-array shift by ``dist`` along a dim whose neighbours are ``bstride``
        bitlines apart: ``bits x |dist| x bstride`` (gem5 measures the distance in
        flattened bitlines, ``DataMoveCompiler.cc:400-404``, and charges
        ``wordline_bits x |bitline_dist|``, ``PUMEngine.cc:269-295``), or ``bits``
        with ``parallel_intra_shift`` (gem5's
        ``stream_pum_enable_parallel_intra_array_shift``, default off).  A
        distance of 0 (a copy between registers) still reads and writes every bit
        row: ``bits`` cycles.  gem5 floors it at 1 cycle (the engine's tick,
        ``kickNextCommand``); the paper is silent, so the more conservative
        ``bits`` is kept."""
        return cost_formulas.intra_shift_cycles(bits, dist, bstride, self.cfg.parallel_intra_shift)

    def intra_bcast_cycles(self, bits: int, lo: int, bstride: int) -> int:
        """The in-array part of a broadcast to in-tile offsets ``[lo, hi)``: the
        source is aligned to the first destination (distance ``lo``) and replicated
        over the rest for free, whatever the fan-out.

        Sources: ASPLOS §5.2 "a buffered H tree to enable efficient broadcast"
        and §4.1 "broadcast is inexpensive, as it can reuse the read data"; gem5
        ``DataMoveCompiler::compileStreamPair`` aligns the source start to the
        destination start (``dstStarts - srcStarts``, ``DataMoveCompiler.cc:
        221-255``, a fake 0 alignment when they coincide),
        ``maskCmdsByReuses`` (958-1039) only tags the command with the reuse
        count, and ``estimateCommandLatency`` (``PUMEngine.cc:269-295``) ignores
        the reuse: ``bits x |bitline_dist|``.  Log2 doubling is not used: under a
        distance-proportional shifter its copies at 1, 2, 4 ... cost the span of
        the offsets, which neither the paper nor gem5 charges."""
        return cost_formulas.intra_bcast_cycles(bits, lo, bstride, self.cfg.parallel_intra_shift)

    def _inter_tile(self, cost: Cost, bits: int, nb: int, src_tiles: np.ndarray, dst_tiles: np.ndarray, multicast: bool) -> int:
        """Account tile->tile transfers (``nb`` bitlines each); returns the bank-side latency.

        For a multicast (broadcast) a source array's bits go up the H-tree once
        and each destination bank receives them once."""
        c = self.cfg
        if src_tiles.size == 0:
            return 0
        per_tile = nb * bits / 8.0
        sb, db = self._bank(src_tiles), self._bank(dst_tiles)
        same = sb == db
        # Bytes delivered between arrays (Fig. 13 "inter-tile").
        cost.traffic["inter_tile"] = cost.traffic.get("inter_tile", 0.0) + per_tile * src_tiles.size
        # H-tree levels traversed: up to the common ancestor and down, or up to
        # the bank's root, across the mesh, and down in the destination bank.
        sa, da = src_tiles % c.arrays_per_bank, dst_tiles % c.arrays_per_bank
        lca = self._lca[sa, da] if self._lca is not None else self._lca_levels(sa, da)
        lvl = np.where(same, 2 * lca, 2 * c.htree_levels)
        cost.quantities["htree_byte_levels"] = cost.quantities.get("htree_byte_levels", 0.0) + float(lvl.sum()) * per_tile
        usrc = unique_ints(src_tiles)
        # Inter-bank: one packet stream per (source tile, destination bank).
        remote = ~same
        loads = self.mesh.zero_loads()
        max_hops = 0
        in_b = np.zeros(c.banks)
        inj_b = np.zeros(c.banks)
        if np.any(remote):
            rs, rdb = src_tiles[remote], db[remote]
            # unique (source tile, destination bank) pairs, sorted: numbered by the
            # source's rank among the source tiles (a small range), not its number
            rank = np.searchsorted(usrc, rs)
            pair = unique_ints(rank * c.banks + rdb)
            key = usrc[pair // c.banks] * c.banks + pair % c.banks
            gsrc_tile, gdst_bank = key // c.banks, key % c.banks
            gsrc_bank = self._bank(gsrc_tile)
            in_b = np.bincount(gdst_bank, minlength=c.banks) * per_tile
            if multicast and c.multicast:
                gid = np.cumsum(np.concatenate(([True], gsrc_tile[1:] != gsrc_tile[:-1]))) - 1  # gsrc_tile is sorted (key is)
                ngroups = int(gid.max()) + 1
                loads = self.mesh.multicast_loads(gid, gsrc_bank, gdst_bank, np.full(ngroups, per_tile))
                inj_b = np.bincount(self._bank(unique_ints(gsrc_tile)), minlength=c.banks) * per_tile
            else:
                flat = gsrc_bank * c.banks + gdst_bank
                counts = np.bincount(flat, minlength=c.banks * c.banks)  # flat < banks**2
                upair = np.flatnonzero(counts)
                ps, pd = upair // c.banks, upair % c.banks
                loads = self.mesh.unicast_loads(ps, pd, counts[upair] * per_tile)
                inj_b = np.bincount(gsrc_bank, minlength=c.banks) * per_tile
            max_hops = int(self.mesh.hops(gsrc_bank, gdst_bank).max())
            pairs = unique_ints(gsrc_bank * c.banks + gdst_bank)
            cost.sync_pairs = np.stack([pairs // c.banks, pairs % c.banks], axis=1)
            bh = float(loads.sum())
            cost.traffic["noc_inter_tile"] = cost.traffic.get("noc_inter_tile", 0.0) + bh
            cost.quantities["noc_byte_hops"] = cost.quantities.get("noc_byte_hops", 0.0) + bh
            cost.link_loads = loads
            cost.async_cycles = max(cost.async_cycles, self.mesh.drain_cycles(loads, max_hops))
        # The H-tree (gem5's shape, ``cost_formulas.htree_level_arrays``): each source array
        # once, at the level of the common ancestor of it and its destinations (a
        # multicast's fan-out below it is free), the levels one after the other.
        idx = np.searchsorted(usrc, src_tiles)
        top = np.zeros(usrc.size, dtype=np.int64)
        np.maximum.at(top, idx, np.where(same, lca, 0))
        away = np.zeros(usrc.size, dtype=bool)
        away[idx[~same]] = True
        moved = cost_formulas.htree_level_arrays(self._bank(usrc), usrc % c.arrays_per_bank, top, away, c.htree_degree, c.htree_levels,
                                                 c.arrays_per_way, c.compute_ways)  # fmt: skip
        tree = moved * cost_formulas.htree_array_cycles(nb, bits, c.htree_leaf_bytes_per_cycle)
        # a receiving bank writes what arrives down its tree from the root (Table 2's 64 B/cycle)
        recv = np.ceil(in_b / c.htree_bytes_per_cycle - 1e-9)
        inject = np.ceil(inj_b / c.link_bytes - 1e-9)
        return int(max(tree, np.maximum(recv, inject).max())) + 2 * c.htree_levels

    def shift(self, bits: int, inter: int, intra: int, tsrc: np.ndarray, tdst: np.ndarray, bsrc: np.ndarray, banks: np.ndarray,
              bstride: int = 1) -> Cost:
        cost = Cost("move")
        nb = int(bsrc.size)
        cells = int(tsrc.size) * nb
        if inter == 0:
            cost.cycles = self.intra_shift_cycles(bits, intra, bstride)
            cost.traffic["intra_tile"] = cells * bits / 8.0
            # gem5's m_statPUMIntraArrayShiftBitHops: bits x bitlines x |flattened distance|
            cost.quantities["shift_bit_steps"] = float(cells) * bits * max(1, abs(intra) * bstride)
        else:
            cost.cycles = self._inter_tile(cost, bits, nb, tsrc, tdst, multicast=False)
        self.command_control(banks, cost)
        return cost

    def bcast(self, bits: int, intra: tuple[int, int], inter: tuple[int, int], same_reg: bool,
              tsrc: np.ndarray, tdst: np.ndarray, bsrc: np.ndarray, banks: np.ndarray, bstride: int = 1) -> Cost:
        """Broadcast: the inter-tile part goes through the H-tree and the mesh as a
        multicast (``_inter_tile``); the in-tile part is one alignment of the
        source to the first destination offset, the fan-out free
        (``intra_bcast_cycles``: ASPLOS §4.1, §5.2; gem5 ``maskCmdsByReuses``,
        ``PUMEngine.cc:269-295``).  It is charged when some destination is in the
        source's own tile, unless the only such destination is the source cell
        itself in the same register (nothing moves).  Arrivals in other tiles are
        written at their bitlines by the H-tree (gem5's inter-array commands carry
        the destination bitline mask, ``DataMoveCompiler.cc:420-510``)."""
        cost = Cost("move")
        nb = int(unique_ints(bsrc).size)
        local = tsrc == tdst
        cycles = 0
        if np.any(~local):
            cycles += self._inter_tile(cost, bits, nb, tsrc[~local], tdst[~local], multicast=True)
        offs = [b for b in range(intra[0], intra[1]) if b != 0]
        nlocal = int(np.count_nonzero(local))
        moves_locally = nlocal > 0 and (bool(offs) or not same_reg)
        if moves_locally:
            cycles += self.intra_bcast_cycles(bits, intra[0], bstride)
        cost.cycles = cycles
        ndst = int(unique_ints(tdst).size)
        copy_local = nlocal > 0 and 0 in range(intra[0], intra[1]) and not same_reg
        intra_cells = ndst * nb * len(offs) + (nlocal * nb if copy_local else 0)
        cost.traffic["intra_tile"] = intra_cells * bits / 8.0
        # Energy: every destination cell is written once (bits row writes); the
        # local alignment moves the source cells |lo| x bstride bitline steps
        # (gem5's IntraArrayShiftBitHops counts the source mask only).
        align = float(nlocal * nb * bits * max(1, abs(intra[0]) * bstride)) if moves_locally else 0.0
        cost.quantities["shift_bit_steps"] = float(intra_cells) * bits + align
        self.command_control(banks, cost)
        return cost

    def sync(self, pairs: np.ndarray | None) -> Cost:
        """Barrier (§5.2): each bank reports packets sent to the receivers and
        TC_core; receivers confirm; TC_core broadcasts the clear.  ``pairs``: the
        (src bank, dst bank) rows of the inter-tile moves in flight, repeats
        counted once."""
        key = ("sync", b"" if pairs is None else pairs.tobytes())
        return self._memoized(key, lambda: self._sync(None if pairs is None else np.unique(pairs, axis=0)))

    def _sync(self, pairs: np.ndarray | None) -> Cost:
        c = self.cfg
        cost = Cost("move", cycles=2 * self._far_hops * self.mesh.hop_cycles)
        ctrl = self._sync_ctrl  # reports + clear
        if pairs is not None and len(pairs):
            ctrl += float(self.mesh.hops(pairs[:, 0], pairs[:, 1]).sum()) * c.control_bytes
        cost.traffic["noc_control"] = ctrl
        cost.quantities["noc_byte_hops"] = ctrl
        return cost

    # -- readout, DRAM -------------------------------------------------------------
    def readout(self, bits: int, tiles: np.ndarray, bls: np.ndarray, banks: np.ndarray) -> Cost:
        c = self.cfg
        per_tile = bls.size * bits / 8.0
        bank_bytes = np.bincount(self._bank(tiles), minlength=c.banks) * per_tile
        cost = Cost("final_reduce")
        cost.cycles = _ceil(float(bank_bytes.max()) / c.htree_bytes_per_cycle) + c.l3_latency if tiles.size else 0
        total = float(bank_bytes.sum())
        cost.traffic["readout"] = total
        cost.quantities["readout_bytes"] = total
        cost.quantities["htree_byte_levels"] = total * c.htree_levels
        self.command_control(banks, cost)
        return cost

    def dram(self, geo: Geometry, box, bits: int, to_memory: bool) -> Cost:
        """transpose_in (``to_memory`` False) / release of the array occupying ``box``."""
        c = self.cfg
        counts = box_tile_counts(geo, box)
        tiles = np.nonzero(counts)[0]
        bank_bytes = np.bincount(self._bank(tiles), weights=counts[tiles], minlength=c.banks) * (bits / 8.0)
        total = float(bank_bytes.sum())
        cost = Cost("dram")
        dram_cycles = _ceil(total / c.dram_bytes_per_cycle)
        htree_cycles = _ceil(float(bank_bytes.max()) / c.htree_bytes_per_cycle) if bank_bytes.size else 0
        cost.cycles = max(dram_cycles, htree_cycles) + c.l3_latency
        used = np.nonzero(bank_bytes)[0]
        src, dst = self.mc_of_bank[used], used
        if to_memory:
            src, dst = dst, src
        loads = self.mesh.unicast_loads(src, dst, bank_bytes[used])
        bh = float(loads.sum())
        cost.link_loads = loads
        cost.traffic["noc_data"] = bh
        cost.quantities.update({
            "dram_bytes": total, "transpose_bytes": total, "noc_byte_hops": bh,
            "htree_byte_levels": total * c.htree_levels,
        })  # fmt: skip
        self.command_control(unique_ints(self._bank(tiles)), cost)
        return cost


    # -- buffers and near-memory streams (NSC; ASPLOS §3.3, §5.1) -----------------------
    def writein(self, bits: int, tiles: np.ndarray, bls: np.ndarray, banks: np.ndarray) -> Cost:
        """A buffer written into a register: per-bank bytes down the H-tree."""
        cost = self.readout(bits, tiles, bls, banks)
        cost.category = "near_mem"
        cost.traffic["readout"] = 0.0
        cost.quantities["readout_bytes"] = 0.0
        return cost

    def result(self) -> Cost:
        """A buffer's single element returned to the core."""
        far = int(self.mesh.hops(self.cfg.host_tile, self.all_banks).max())
        return Cost("final_reduce", cycles=self.cfg.l3_latency + far * self.mesh.hop_cycles)

    def _bank_cells(self, geo: Geometry, box, step=None) -> np.ndarray:
        """Cells of ``box`` (every ``step``-th per dim) held by each bank."""
        per_tile = np.ones(1, dtype=np.int64)
        for d, ((p, q), t, g) in enumerate(zip(box, geo.tiles, geo.grid)):
            s = 1 if step is None else step[d]
            xs = np.arange(p, q, s, dtype=np.int64)
            per_tile = (per_tile[:, None] * np.bincount(xs // t, minlength=g)[None, :]).reshape(-1)
        tiles = np.nonzero(per_tile)[0]
        return np.bincount(self._bank(tiles), weights=per_tile[tiles], minlength=self.cfg.banks)

    def near_reduce(self, geo: Geometry, box, step, dims, bits: int) -> Cost:
        """Final reduction by the banks' stream engines: each reduces its local partial
        results (``simd_lanes`` per cycle after ``se_init_cycles``), then forwards its
        partial outputs to the bank holding the output's first cell."""
        key = ("near_reduce", geo, _tuples(box), _tuples(step), _tuples(dims), bits)
        return self._memoized(key, lambda: self._near_reduce(geo, box, step, dims, bits))

    def _near_reduce(self, geo: Geometry, box, step, dims, bits: int) -> Cost:
        c = self.cfg
        cells = self._bank_cells(geo, box, step)
        out_cells = math.prod(1 if d in dims else -(-(q - p) // s) for d, ((p, q), s) in enumerate(zip(box, step)))
        cost = Cost("final_reduce")
        local = _ceil(float(cells.max()) / c.simd_lanes) + c.se_init_cycles if cells.size and cells.max() else 0
        first = 0
        for (p, _q), t, g in zip(box, geo.tiles, geo.grid):
            first = first * g + p // t
        dst = int(self._bank(np.array([first]))[0])
        senders = np.nonzero(cells)[0]
        senders = senders[senders != dst]
        nbytes = out_cells * bits / 8.0
        loads = self.mesh.unicast_loads(senders, np.full(senders.size, dst), nbytes)
        hops = int(self.mesh.hops(senders, dst).max()) if senders.size else 0
        cost.cycles = local + (self.mesh.drain_cycles(loads, hops) + _ceil(senders.size * out_cells / c.simd_lanes) if senders.size else 0)
        bh = float(loads.sum())
        cost.link_loads = loads
        cost.traffic["noc_data"] = bh
        cost.quantities["noc_byte_hops"] = bh
        return cost

    def near_access(self, geo: Geometry, box, bits: int, indirect: bool) -> Cost:
        """A near-memory gather/scatter over ``box``: each bank's stream engine handles
        the box cells it holds (``simd_lanes`` per cycle); array elements come from
        their home banks under the static-NUCA interleave, which for a data-independent
        model are spread evenly: each element crosses the mean bank-to-bank distance.
        An indirect access first reads its index (one more L3 access)."""
        key = ("near_access", geo, _tuples(box), bits, indirect)
        return self._memoized(key, lambda: self._near_access(geo, box, bits, indirect))

    def _near_access(self, geo: Geometry, box, bits: int, indirect: bool) -> Cost:
        c = self.cfg
        cells = self._bank_cells(geo, box)
        n = float(cells.sum())
        mean_hops = self._mean_hops
        cost = Cost("near_mem")
        lat = c.l3_latency * (2 if indirect else 1) + c.se_init_cycles + int(math.ceil(mean_hops)) * self.mesh.hop_cycles
        cost.cycles = (_ceil(float(cells.max()) / c.simd_lanes) + lat) if n else 0
        bh = n * bits / 8.0 * mean_hops
        cost.traffic["noc_data"] = bh
        cost.quantities["noc_byte_hops"] = bh
        if bh:
            # the same byte-hops on the links, spread as the model spreads the
            # elements (every bank to every bank alike), so that the links carry
            # every data byte-hop (``Stats.link_bytes``)
            uniform = self._uniform_loads()
            cost.link_loads = uniform * (bh / float(uniform.sum()))
        cost.element_ops = 0
        return cost

    def _uniform_loads(self) -> np.ndarray:
        """Per-link loads of one byte from every bank to every bank (X-Y routes)."""
        loads = getattr(self, "_uniform", None)
        if loads is None:
            b = self.all_banks
            loads = self._uniform = self.mesh.unicast_loads(np.repeat(b, b.size), np.tile(b, b.size), 1.0)
        return loads


# The price of every command (the timing model's side of its definition; the
# simulator's semantics call it through ``CostModel.of``).  None: free by
# definition -- a layout entry is part of the program, not an action.
COSTS: dict[K.CommandKind, Callable[..., Cost] | None] = {
    K.ARRAY: None,
    K.TRANSPOSE_IN: CostModel.dram,
    K.RELEASE: CostModel.dram,
    K.COMPUTE: CostModel.compute,
    K.SHIFT: CostModel.shift,
    K.BCAST: CostModel.bcast,
    K.SYNC: CostModel.sync,
    K.READOUT: CostModel.readout,
    K.WRITEIN: CostModel.writein,
    K.NEAR_REDUCE: CostModel.near_reduce,
    K.NEAR_LOAD: CostModel.near_access,
    K.NEAR_STORE: CostModel.near_access,
    K.RESULT: CostModel.result,
}
