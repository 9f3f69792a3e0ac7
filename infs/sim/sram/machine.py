"""The simulated machine: executes ``pimcmd`` programs (ASPLOS §4-§5).

State.  Every SRAM array of every bank at once: a wordline register is one
numpy vector over all ``total_arrays x bitlines`` cells (array-major, so cell
``(t, b)`` is element ``t * bitlines + b``), holding the raw bits of its
elements (``uint64``/``uint32`` for 64/32-bit registers, ``uint16``, ``uint8``; ``uint8``
0/1 for 1-bit ones).  ``RegisterFile`` keeps one vector per register *start
wordline*; reading or writing a wordline range that does not match a stored
register re-slices the bits exactly (bit ``k`` of an element is wordline
``start + k``, LSB first, Fig. 1(d)).

The LOT (``Machine.lot``, ASPLOS Table 1): one entry per ``pimcmd.array``
with the array's shape, element type, start wordline and transposed state.

Commands are executed as a few numpy operations on index forms built from
their patterns (``geometry.py``): slices when the selection is a (strided)
box, index arrays otherwise -- never a Python loop over cells, tiles or banks.
Semantics are those of ``infs/dialects/pimcmd.py``.  Element semantics:

* f32/f64 follow numpy float32/float64 (``fma`` = ``a * b + c`` rounded after each op,
  as numpy evaluates it; ``neg``/``abs`` flip/clear the sign bit; ``relu``
  gives +0 when the sign bit is set);
* i8/i16/i32/i64 are two's complement with wraparound; ``div`` truncates toward
  zero and gives 0 for a zero divisor (numpy's integer rule), ``abs``/``neg``
  wrap; compares, ``min``/``max`` are signed;
* i1 holds 0/1; its arithmetic is mod 2 and its compares unsigned;
* compares write an i1 register; ``select``'s first source is i1;
* logic ops act on the raw bits (also for f32/f64).

Programs are run in record form (``infs.dialects.pimcmd_records``): the JIT
hands its records over without building IR; a ``pimcmd.program`` op (from a
file) is read into records once (``pimcmd_records_ir``, imported only then:
the machine runs records without xDSL).

Buffers (``Machine.buffers``): ``readout`` reads a register over a lattice
box into buffer ``id`` (an array shaped like the box); ``writein`` writes a
buffer back into a register; the near-memory stream operations of the L3
stream engines (§3.3, §5.3) work on buffers: ``near_reduce`` (final
reduction), ``near_load`` / ``near_store`` (affine or indirect gathers and
plain/atomic scatters on a program array -- on its registers while the array
is held transposed, §5.3 "Fused In-/Near-Memory", else on host memory) and
``result`` (a buffer's single element becomes program result ``index``,
``Machine.results``).  Programs must be fully lowered (not ``virtual``).

Modes: ``functional`` (word-level numpy), ``bitlevel`` (compute commands on
packed bit-planes with bit-serial algorithms, ``bitlevel.py``), ``analysis``
(no data: only timing, traffic and energy).  The cost of every command is a
function of the command alone (``timing.py``), so all modes give identical
statistics.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import numpy as np

from infs.dialects import pimcmd_schema as K
from infs.element_types import ELEMENT_BITS, WORD_TYPES, float_fold_at, reduce_ufunc
from infs.dialects.pimcmd_records import Cmd, PimProgram, box_empty
from infs.sim.sram.bitlevel import BitSerial
from infs.sim.config import HardwareConfig, get_profile, load_config
from infs.sim.energy import energy_pj
from infs.sim.sram.geometry import (
    AxisMap,
    Geometry,
    axis_map,
    bank_set,
    bcast_maps,
    combine,
    gather_box,
    is_contiguous_all,
    pattern_identity_map,
    pattern_set,
    scatter_box,
    shift_maps,
)
from infs.sim.stats import Cost, Stats
from infs.sim.sram.registers import RegisterFile
from infs.sim.sram.word_ops import HOST, TYPED, raw_const, reduce_box, to_raw, word_op
from infs.sim.sram.timing import COSTS, CostModel

if TYPE_CHECKING:
    from infs.dialects.pimcmd import ProgramOp


class SimError(RuntimeError):
    """A program the machine cannot run (wrong machine, missing array, ...)."""


# ---------------------------------------------------------------------------
# Per-command plans (index forms + cost), cached per op
# ---------------------------------------------------------------------------


# Bounds of a machine's plan caches (least recently used out), measured on the
# paper-size suite (benchmarks/README.md, "Plan caches"): ``SHARED_PLANS``
# command plans shared across programs, ``PROGRAM_PLANS`` programs' per-command
# plan lists (a program is planned again only when 64 others ran since its last
# run; in the suite at most 1 does, as the decision's probe and the run share a
# program; a gauss_elim program's plans hold 0.24-0.49 MB), ``REPLAYS``
# recorded analysis runs (a few kB each).
SHARED_PLANS = 4096
PROGRAM_PLANS = 64
REPLAYS = 1024

def _frozen(fields: Mapping[str, Any]) -> tuple:
    """A hashable form of a command's fields (lists become tuples)."""
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in fields.items()))


@dataclass
class Plan:
    cost: Cost | None
    tmap: AxisMap | None = None
    bmap: AxisMap | None = None
    full: bool = False  # compute over a contiguous range of whole tiles


@dataclass
class _Replay:
    """A recorded analysis run (``Machine._replay``)."""

    prog: PimProgram
    stats: Stats  # the run's own statistics
    cycles: int  # clock advance
    residency: list  # (array index, layout key, wordline) in the order the run set them
    pairs: list  # inter-tile pairs left for a later sync
    lot: dict  # layout entries at the end
    boxes: dict  # buffer boxes at the end
    hidden: int = 0  # DRAM cycles the run hid behind earlier work (``Machine.overlap_next``)
    charges: list | None = None  # what each command charged (``Machine.record_charges``)


@dataclass
class LotEntry:
    """ASPLOS Table 1: base (the host array), shape, element type, start wordline, trans."""

    index: int
    name: str
    shape: tuple[int, ...]
    element: str
    wordline: int
    transposed: bool
    trans: int = 0  # 0: in memory, 2: held transposed in the arrays


def _transpose_only(full: Cost, cfg) -> Cost:
    """The L3-internal part of a transfer: transposition over the H-tree, no DRAM."""
    c = Cost("dram")
    moved = full.quantities.get("transpose_bytes", 0.0)
    c.cycles = -(-int(moved) // max(1, cfg.htree_bytes_per_cycle * cfg.banks)) + cfg.l3_latency
    c.quantities = {"transpose_bytes": moved, "htree_byte_levels": full.quantities.get("htree_byte_levels", 0.0)}
    return c


class Machine:
    """``Machine(config, mode="functional"|"bitlevel"|"analysis", profile=None)``.

    ``run(program, arrays)`` executes a ``pimcmd.program`` (the op, or its
    records ``PimProgram``); ``arrays`` maps program arguments (by position,
    argument name or index) to host numpy arrays, which ``release`` writes back in place.  ``stats``
    accumulates over runs; ``readouts[id]`` holds the last run's readouts,
    each a numpy array over its lattice box (``readout_boxes[id]``)."""

    MODES = ("functional", "bitlevel", "analysis")

    def __init__(self, config: "HardwareConfig | str | Mapping[str, Any]" = "paper-64", mode: str = "functional", profile: str | None = None,
                 like: "Machine | None" = None):  # fmt: skip
        """``like``: a machine whose config, cost profile, cost model and
        cross-program plans this one shares (``config``/``profile`` are then
        ignored) -- an analysis probe of a running machine, made cheaply."""
        if mode not in self.MODES:
            raise SimError(f"unknown mode '{mode}' (known: {', '.join(self.MODES)})")
        self.mode = mode
        if like is not None:
            self.cfg, self.profile, self.costs = like.cfg, like.profile, like.costs
        else:
            self.cfg = load_config(config)
            self.profile = get_profile(profile or self.cfg.profile)
            self.costs = CostModel(self.cfg, self.profile)
        self._static_pj = self.cfg.static_pj_per_cycle
        self.stats = Stats()
        self.regs = RegisterFile(self.cfg.total_bitlines, self.cfg.wordlines) if mode != "analysis" else None
        self.lot: dict[int, LotEntry] = {}
        self.buffers: dict[int, np.ndarray] = {}
        self._buffer_boxes: dict[int, tuple[tuple[int, int], ...]] = {}
        self.readouts, self.readout_boxes = self.buffers, self._buffer_boxes  # readout buffers by id
        self.results: dict[int, Any] = {}
        # Per program, per command: built once per (program, machine) and shared
        # with the machine's probes (``like``), so the runtime's decision and the
        # run it decides on plan a command once; LRU, ``PROGRAM_PLANS`` programs.
        self._plans: OrderedDict[int, tuple[PimProgram, list[Plan | None]]] = like._plans if like is not None else OrderedDict()
        # Plans of the commands whose plan is a function of the command and the
        # program's geometry alone, shared across programs: a host loop that
        # re-lowers a region per iteration (a new program each time) repeats
        # most of its commands unchanged (ASPLOS §8 "JIT overheads" cases).
        self._shared_plans: OrderedDict[tuple, Plan] = like._shared_plans if like is not None else OrderedDict()  # LRU, SHARED_PLANS entries
        # Analysis runs recorded by what they depend on (``_replay_key``): a run
        # of the same program from the same state is the recorded one again
        # (a host loop re-running one lowering, or the run after its decision's
        # probe); LRU, ``REPLAYS`` runs, shared with the machine's probes.
        self._replays: OrderedDict[tuple, _Replay] = like._replays if like is not None else OrderedDict()
        self._residency_log: list[tuple[int, Any, int]] | None = None  # (array index, layout key, wordline) set by this run
        self.replayed = 0  # runs this machine replayed (a statistic of the simulator, not of the machine)
        # ``record_charges``: per run, what each command charged (None: not kept); a
        # probe of a recording machine records too, so that the run it lets the
        # machine replay has its charges
        self.charges: list[tuple[PimProgram, list[tuple[int, str, Cost]]]] | None = [] if like is not None and like.charges is not None else None
        self._run_charges: list[tuple[int, str, Cost]] | None = None
        self._at = -1  # the command being stepped (-1: none, the end-of-program drain)
        self._records: dict[int, tuple[Any, PimProgram]] = {}  # program ops read into records
        self._prog: PimProgram | None = None
        # Arrays left transposed in the registers by an earlier run (delayed release,
        # §5.2), keyed by the host array's identity (its "physical address").
        self._held: dict[int, tuple[np.ndarray, int, tuple[int, ...], str]] = {}
        # Arrays of the current run held transposed whose registers a near_store
        # wrote (§5.3: the stream engines write the transposed data in place) and
        # that no release has written back yet.
        self._dirty: set[int] = set()
        # Where each host array's data is, for the costs of transpose_in/release
        # (ASPLOS §5.2, delayed release): id -> (array, "l3") in the cache in its
        # normal layout, or (array, layout key) held transposed.  Absent: in DRAM.
        self.residency: dict[int, tuple[np.ndarray, Any]] = {}
        self._host: dict[int, np.ndarray] = {}
        self._now = 0
        self._pending = 0  # absolute cycle when in-flight inter-tile data has arrived
        self._pending_pairs: list[np.ndarray] = []
        # Double-buffered chunks (``overlap_next``): cycles of in-memory work
        # the next run's DRAM fetches may proceed behind, and the DRAM cycles
        # hidden so in all (not charged: the bytes, traffic and energy are).
        self._overlap = 0
        self.dram_hidden = 0

    # -- public helpers ------------------------------------------------------------
    def charge(self, category: str, cycles: int) -> None:
        """Charge cycles spent outside the machine (``jit``, ``near_mem``) to the breakdown."""
        if category not in self.stats.cycles:
            raise SimError(f"unknown cycle category '{category}'")
        self.stats.cycles[category] += int(cycles)
        self._now += int(cycles)
        self._leak(int(cycles))

    def _leak(self, cycles: int) -> None:
        """Static energy: the chip leaks for every cycle charged, whatever runs
        (``HardwareConfig.static_pj_per_cycle``)."""
        self.stats.energy_pj["static"] = self.stats.energy_pj.get("static", 0.0) + cycles * self._static_pj

    def account(self, cost: Cost, name: str) -> None:
        """Add work done outside the SRAM arrays -- a region run near memory
        (``near.near_memory_cost``) or on the cores (``core.core_cost``) -- to the
        statistics and the clock: cycles by ``cost.category``, traffic, link loads,
        energy, and one count of ``name``.  Works in every mode (no data involved)."""
        if cost.category not in self.stats.cycles:
            raise SimError(f"unknown cycle category '{cost.category}'")
        self._charge(cost, name)

    def record_charges(self) -> None:
        """From now on keep what every command of every run charged:
        ``self.charges`` gets one ``(program, [(command index, name, cost), ...])``
        per run, in run order, a replayed run's being its recorded run's
        (index -1: the end-of-program drain).  What ``infs-view`` draws; the
        statistics are the same either way."""
        if self.charges is None:
            self.charges = []

    def reset_stats(self) -> None:
        self.stats = Stats()
        self._now = self._pending = 0
        self._pending_pairs = []
        self.dram_hidden = 0

    @property
    def cycles(self) -> int:
        return self._now

    # -- running -------------------------------------------------------------------
    def run(self, program: "PimProgram | ProgramOp", arrays: "Mapping[Any, np.ndarray] | Sequence[np.ndarray] | None" = None,
            scalars: "Sequence[float | int] | None" = None) -> Stats:  # fmt: skip
        """Execute ``program``; returns this run's stats (also added to ``self.stats``)."""
        if not isinstance(program, PimProgram):
            program, arrays = self._read(program, arrays)
        prog = program
        if prog.virtual:
            raise SimError("the machine runs only fully lowered programs; this one is still 'virtual' (run allocate-wordlines)")
        geo = self._geometry(prog)
        host = self._bind(prog, arrays)
        self.scalars = list(scalars or [])
        if len(self.scalars) != len(prog.scalar_types):
            raise SimError(f"the program takes {len(prog.scalar_types)} scalar arguments, got {len(self.scalars)}")
        key = self._replay_key(prog, host) if self.mode == "analysis" else None
        if key is not None:
            hit = self._replays.get(key)
            if hit is not None and hit.prog is prog and (self.charges is None or hit.charges is not None):
                self._replays.move_to_end(key)
                self._overlap = 0  # the window is this run's only
                if self.charges is not None:
                    self.charges.append((prog, hit.charges))
                return self._replay(hit, host)
        self.buffers, self._buffer_boxes, self.results = {}, {}, {}
        self.lot = {}  # layout entries are per program: argument i of another program is another array
        self._host = host
        self.readouts, self.readout_boxes = self.buffers, self._buffer_boxes
        before = self.stats
        self.stats = Stats()
        self._prog = prog
        self._dirty = set()
        plans = self._plans_of(prog)
        start = self._now
        hidden = self.dram_hidden
        self._residency_log = [] if key is not None else None
        charges = self._run_charges = [] if self.charges is not None else None
        try:
            for i, c in enumerate(prog.cmds):
                self._at = i
                self._step(c, i, plans, geo, host)
            self._at = -1
            # A near_store into an array held transposed wrote its registers
            # (§5.3); the array stays there (delayed release, §5.2), but its data
            # is the array's: the host copy -- the normal layout a core or the
            # next transpose_in reads -- gets it, as a release would (no cost:
            # release's transposition back is charged when it is needed).
            for idx in sorted(self._dirty):
                if self.mode != "analysis" and idx in self.lot and self.lot[idx].trans == 2:
                    self._write_back(self.lot[idx], geo, host)
            if self._pending > self._now:  # the program's end waits for in-flight data
                self._charge(Cost("move", cycles=self._pending - self._now), "drain")
            if key is not None:
                self._replays[key] = _Replay(prog, self.stats.copy(), self._now - start, list(self._residency_log or ()),
                                             list(self._pending_pairs), {i: replace(e) for i, e in self.lot.items()},
                                             dict(self._buffer_boxes), self.dram_hidden - hidden, charges)  # fmt: skip
                if len(self._replays) > REPLAYS:
                    self._replays.popitem(last=False)
            if charges is not None:
                self.charges.append((prog, charges))  # type: ignore[union-attr]
        finally:
            self._residency_log = None
            self._run_charges, self._at = None, -1
            self._overlap = 0  # the window is this run's only
            run_stats = self.stats
            before.merge(run_stats)
            self.stats = before
        return run_stats

    # -- analysis runs replayed --------------------------------------------------------
    def _replay_key(self, prog: PimProgram, host: dict[int, np.ndarray]) -> tuple:
        """What an analysis run of ``prog`` depends on besides the program: where
        each bound array is (``residency_of``: the transpose_in/release costs, §5.2),
        which bound arrays are the same array or view one another (a transfer of one
        changes where the other is), and the inter-tile pairs a sync still has to
        settle.  Costs are functions of the commands alone (``timing.py``), in-flight
        time never outlasts a run (its end drains it), and the scalars only matter
        to data; so two runs with equal keys charge exactly the same."""
        arrays = list(host.items())
        states = []
        for i, a in arrays:
            st = self.residency_of(a)
            same = next(j for j, b in arrays if b is a)
            bases = []
            base = getattr(a, "base", None)
            while isinstance(base, np.ndarray):
                bases.extend(j for j, b in arrays if b is base)
                base = base.base
            states.append((i, None if st is None else st[1:], same, tuple(bases)))
        pairs = tuple(p.tobytes() for p in self._pending_pairs)
        return (id(prog), tuple(states), pairs, max(0, self._pending - self._now), self._overlap)

    def _replay(self, r: "_Replay", host: dict[int, np.ndarray]) -> Stats:
        """The recorded run ``r`` again on ``host``'s arrays: the same statistics
        (merged as a run's, so every sum is the same), clock, residency changes and
        the state a run leaves (layout entries, buffer boxes, pairs to settle)."""
        for idx, lkey, wl in r.residency:
            a = host.get(idx)
            if a is not None:
                self.residency[id(a)] = (a, lkey, wl)
        self._host, self._prog, self._dirty = host, r.prog, set()
        self.lot = dict(r.lot)  # its entries change only while a run steps, and a run makes its own
        self.buffers, self._buffer_boxes, self.results = {}, dict(r.boxes), {}
        self.readouts, self.readout_boxes = self.buffers, self._buffer_boxes
        self._now += r.cycles  # any in-flight time ended inside the run (its drain), so _pending stays behind _now
        self._pending_pairs = list(r.pairs)
        self.stats.merge(r.stats)
        self.dram_hidden += r.hidden
        self.replayed += 1
        return r.stats.copy()

    def forget(self, program: "PimProgram | ProgramOp | None" = None) -> None:
        """Drop what the machine derived from ``program`` (all programs by default):
        its records and per-command plans.  A program op is read once per
        machine, as an analysis is computed once per op in MLIR: after editing
        an op in place, forget it before running it again."""
        if program is None:
            self._records.clear()
            self._plans.clear()
            self._shared_plans.clear()
            self._replays.clear()
            return
        rec = self._records.pop(id(program), (None, program))[1]
        self._plans.pop(id(rec), None)
        for k in [k for k, r in self._replays.items() if r.prog is rec]:
            del self._replays[k]

    def _read(self, op: "ProgramOp", arrays):
        """The records of a program op, read once per op (see ``forget``), and
        ``arrays`` keyed by argument index (they may name the op's SSA values)."""
        from infs.dialects.pimcmd import ProgramOp  # the IR and its reader: xDSL only for a program op
        from infs.dialects.pimcmd_records_ir import arrays_by_index, from_op

        if not isinstance(op, ProgramOp):
            raise SimError(f"the machine runs a pimcmd program (its records or a 'pimcmd.program' op), not a {type(op).__name__}")
        hit = self._records.get(id(op))
        if hit is None or hit[0] is not op:
            hit = self._records[id(op)] = (op, from_op(op))
        return hit[1], arrays_by_index(op, arrays)

    def _geometry(self, prog: PimProgram) -> Geometry:
        c = self.cfg
        if prog.bitlines != c.bitlines:
            raise SimError(f"program tiles {list(prog.tiles)} use {prog.bitlines} bitlines, machine '{c.name}' has {c.bitlines} per array")
        if prog.per_bank != c.arrays_per_bank or prog.banks != c.banks:
            raise SimError(f"program expects {prog.banks} banks x {prog.per_bank} arrays, machine '{c.name}' has {c.banks} x {c.arrays_per_bank}")
        if prog.wordlines > c.wordlines:
            raise SimError(f"program uses {prog.wordlines} wordlines, machine '{c.name}' has {c.wordlines}")
        return Geometry(tuple(prog.lattice), tuple(prog.tiles), c.arrays_per_bank)

    def _bind(self, prog: PimProgram, arrays) -> dict[int, np.ndarray]:
        out: dict[int, np.ndarray] = {}
        if arrays is None:
            return out
        if isinstance(arrays, Mapping):
            names = {n: i for i, n in enumerate(prog.arg_names) if n}
            for k, v in arrays.items():
                if isinstance(k, int):
                    i = k
                else:
                    key = str(k).lstrip("%")
                    if key not in names:
                        raise SimError(f"program has no array argument named '{k}' (known: {', '.join(sorted(names))})")
                    i = names[key]
                out[i] = v
        else:
            for i, v in enumerate(arrays):
                out[i] = v
        return out

    # -- one command -----------------------------------------------------------------
    def _plans_of(self, prog: PimProgram) -> list[Plan | None]:
        plans = self._plans
        hit = plans.get(id(prog))
        if hit is None or hit[0] is not prog or len(hit[1]) != len(prog.cmds):
            hit = plans[id(prog)] = (prog, [None] * len(prog.cmds))
            if len(plans) > PROGRAM_PLANS:
                plans.popitem(last=False)
        else:
            plans.move_to_end(id(prog))
        return hit[1]

    def _plan(self, c: Cmd, geo: Geometry) -> Plan | None:
        """The command's plan (cost, index maps; None: it has none), through the
        shared cache for the commands whose plan depends on nothing but their
        fields and the geometry."""
        sem = _semantics(c.kind)
        if sem.plan is None:
            return None
        if not sem.shared:
            return sem.plan(self, c, geo)
        if sem.plan is Machine._plan_dram:  # its array's layout entry, not the command, says what moves
            e = self._entry(c)
            key = (geo.lattice, geo.tiles, geo.per_bank, c.kind, e.shape, e.element)
        else:
            key = (geo.lattice, geo.tiles, geo.per_bank, c.kind, _frozen(c.fields()))
        cache = self._shared_plans
        plan = cache.get(key)
        if plan is None:
            plan = cache[key] = sem.plan(self, c, geo)
            if len(cache) > SHARED_PLANS:
                cache.popitem(last=False)
        else:
            cache.move_to_end(key)
        return plan

    # -- plans: cost (timing.COSTS) and index maps of one command ------------------------
    def _cells(self, c: Cmd, geo: Geometry):
        """A patterned command's selected tiles, bitlines, banks, and element bits."""
        tiles = pattern_set(c["tiles"])
        return tiles, pattern_set(c["bitlines"]), bank_set(geo, tiles, c.get("banks")), ELEMENT_BITS[c["type"]]

    def _plan_compute(self, c: Cmd, geo: Geometry) -> Plan:
        tiles, bls, banks, _ = self._cells(c, geo)
        const = c.get("const") is not None or c.get("const_arg") is not None
        cost = self.costs.of(c.kind)(c["op"], c["type"], const, tiles, bls, banks)
        tmap, bmap = pattern_identity_map(c["tiles"], (geo.num_tiles,)), pattern_identity_map(c["bitlines"], geo.tiles)
        return Plan(cost, tmap, bmap, full=is_contiguous_all(tmap, bmap, geo))

    def _plan_shift(self, c: Cmd, geo: Geometry) -> Plan:
        tiles, bls, banks, bits = self._cells(c, geo)
        dim, inter, intra = c["dim"], c["inter"], c["intra"]
        ts, td, bs, bd = shift_maps(geo, tiles, bls, dim, c["mask"], inter, intra)
        cost = self.costs.of(c.kind)(bits, inter, intra, ts, td, bs, banks, geo.bstride(dim))
        return Plan(cost, axis_map(ts, td, geo.grid), axis_map(bs, bd, geo.tiles))

    def _plan_bcast(self, c: Cmd, geo: Geometry) -> Plan:
        tiles, bls, banks, bits = self._cells(c, geo)
        intra, inter = c["intra"], c["inter"]
        ts, td, bs, bd = bcast_maps(geo, tiles, bls, c["dim"], intra, inter)
        cost = self.costs.of(c.kind)(bits, intra, inter, c["dst"] == c["src"], ts, td, bs, banks, geo.bstride(c["dim"]))
        return Plan(cost, axis_map(ts, td, geo.grid), axis_map(bs, bd, geo.tiles))

    def _plan_buffer_move(self, c: Cmd, geo: Geometry) -> Plan:
        """readout / writein: a register's cells to / from a buffer."""
        if c.get("tiles") is None:  # a readout of an empty box: an empty buffer, no cost
            return Plan(Cost("final_reduce"))
        tiles, bls, banks, bits = self._cells(c, geo)
        return Plan(self.costs.of(c.kind)(bits, tiles, bls, banks))

    def _plan_result(self, c: Cmd, geo: Geometry) -> Plan:
        return Plan(self.costs.of(c.kind)())

    def _plan_dram(self, c: Cmd, geo: Geometry) -> Plan:
        """transpose_in / release: the array between memory and its registers."""
        entry = self._entry(c)
        box = self._array_box(geo, entry)
        return Plan(self.costs.of(c.kind)(geo, box, ELEMENT_BITS[entry.element], to_memory=c.kind is K.RELEASE))

    def _charge(self, cost: Cost, name: str) -> None:
        st = self.stats
        st.cycles[cost.category] += cost.cycles
        start = self._now
        self._now += cost.cycles
        self._leak(cost.cycles)
        if cost.async_cycles:
            self._pending = max(self._pending, start + cost.cycles + cost.async_cycles)
        if cost.sync_pairs is not None:
            self._pending_pairs.append(cost.sync_pairs)
        for k, v in cost.traffic.items():
            st.traffic[k] = st.traffic.get(k, 0.0) + v
        energy = cost.energy
        if energy is None:  # a cost is not changed once charged: its energy is computed once
            energy = cost.energy = energy_pj(self.cfg, cost.quantities)
        for k, v in energy.items():
            st.energy_pj[k] = st.energy_pj.get(k, 0.0) + v
        st.add_links(cost.link_loads)
        st.element_ops += cost.element_ops
        st.count(name)
        if self._run_charges is not None:
            self._run_charges.append((self._at, name, cost))

    def _step(self, op: Cmd, i: int, plans: list[Plan | None], geo: Geometry, host: dict[int, np.ndarray]) -> None:
        sem = _semantics(op.kind)
        plan = plans[i]
        if plan is None and sem.plan is not None:
            plan = plans[i] = self._plan(op, geo)
        sem.step(self, op, plan, geo, host)

    # -- steps: the semantics of one command (SEMANTICS) -------------------------------
    def _charged(self, op: Cmd, plan: Plan, geo: Geometry, host) -> None:
        """A command whose cost is its plan's; data moves unless in analysis mode."""
        self._charge(plan.cost, op.kind.MNEMONIC)
        if self.mode != "analysis":
            _semantics(op.kind).run(self, op, plan, geo, host)

    def _step_array(self, op: Cmd, plan, geo: Geometry, host) -> None:
        self._enter(op)

    def _step_sync(self, op: Cmd, plan, geo: Geometry, host) -> None:
        # §4.2 Synchronization: wait for in-flight inter-tile data, then a barrier.
        pairs = np.concatenate(self._pending_pairs) if self._pending_pairs else None
        cost = self.costs.of(op.kind)(pairs)
        wait = max(0, self._pending - self._now)
        if wait:  # the model's cost is shared (memoized): the wait is this run's
            cost = replace(cost, cycles=cost.cycles + wait)
        self._pending_pairs = []
        self._charge(cost, op.kind.MNEMONIC)
        self._pending = 0

    def _step_transpose_in(self, op: Cmd, plan: Plan, geo: Geometry, host) -> None:
        self._charge(self._residency_cost(op, plan, geo, release=False), op.kind.MNEMONIC)
        if self.mode == "analysis":
            self._entry(op).trans = 2
        else:
            self._exec_transpose_in(op, plan, geo, host)

    def _step_release(self, op: Cmd, plan: Plan, geo: Geometry, host) -> None:
        self._charge(self._residency_cost(op, plan, geo, release=True), op.kind.MNEMONIC)
        if self.mode != "analysis":
            self._exec_release(op, plan, geo, host)

    def _step_readout(self, op: Cmd, plan: Plan, geo: Geometry, host) -> None:
        self._charge(plan.cost, op.kind.MNEMONIC)
        # A buffer read out in pieces (decomposed boxes of one stream) grows to their hull.
        rid, box = op["id"], op["domain"]
        prev = self._buffer_boxes.get(rid)
        hull = box if prev is None else tuple((min(p0, p1), max(q0, q1)) for (p0, q0), (p1, q1) in zip(prev, box))
        self._buffer_boxes[rid] = hull
        if self.mode != "analysis":
            self._exec_readout(op, geo, box, prev, hull)

    def _residency_cost(self, op, plan: Plan, geo: Geometry, release: bool) -> Cost:
        """The cost of moving an array in or out, given where its data is (§5.2).

        ``transpose_in`` of an array still held transposed in the same layout is
        free; of an array in the L3 in its normal layout it costs the transposition
        (H-tree) only; of an array in DRAM the full transfer.  ``release`` keeps
        the data transposed in the L3 (delayed release): the transposition back
        happens lazily, when a core or another layout needs the array, and is
        charged then (the next ``transpose_in`` of another layout, or the
        runtime's near-memory/core models).  The data itself is always copied
        exactly, whatever the cost."""
        e = self._entry(op)
        a = self._host.get(e.index)
        key = ("T", e.shape, e.element, geo.lattice, geo.tiles)
        state = self.residency_of(a) if a is not None else None
        held_at, state = (state[2], state[1]) if state is not None and state[0] is a and len(state) > 2 else (None, state[1] if state is not None and state[0] is a else None)
        if a is not None:
            self.residency[id(a)] = (a, key, e.wordline)
            if self._residency_log is not None:
                self._residency_log.append((e.index, key, e.wordline))
        if release:
            return Cost("dram")
        if state == key:
            # still transposed in this layout; at other wordlines it is one
            # register copy inside every array (ping-pong buffers swap places)
            return Cost("dram") if held_at == e.wordline else Cost("dram", cycles=ELEMENT_BITS[e.element])
        if state is not None:  # in the L3 (normal layout, or another transposed layout)
            return _transpose_only(plan.cost, self.cfg)
        if self._overlap:
            # In DRAM, and the runtime opened a window (``overlap_next``): the
            # DRAM-to-L3 part of the transfer (its cost beyond the transposition
            # it would cost from the L3) proceeds behind the previous chunk's
            # compute; the transposition into the arrays does not (the arrays
            # are busy computing).  Each fetch takes what is left of the window.
            cost = plan.cost
            hidden = min(self._overlap, max(0, cost.cycles - _transpose_only(cost, self.cfg).cycles))
            if hidden:
                self._overlap -= hidden
                self.dram_hidden += hidden
                return replace(cost, cycles=cost.cycles - hidden)  # (same bytes, traffic and energy)
        return plan.cost

    def overlap_next(self, window: int) -> None:
        """Let the next run's DRAM fetches (``transpose_in`` of an array in DRAM)
        proceed during the last ``window`` cycles of in-memory work: the runtime's
        double-buffered chunks (``infs.runtime.chunking``), chunk i+1's inputs
        fetched into the L3 while chunk i computes.  A fetch then charges only
        what the window does not cover (``max(compute_i, dram_{i+1})`` per step);
        the window closes at the end of that run."""
        self._overlap = max(0, int(window))

    def mark_resident(self, arrays, capacity: int | None = None) -> list[np.ndarray]:
        """Arrays a near-memory or core region touched are now in the L3 (normal layout).

        ``capacity`` (bytes): place them in order while they fit in it (an array
        given twice counts once); the first that does not fit and every one after
        it stay where they are (in DRAM for a fresh machine).  Returns those."""
        left: list[np.ndarray] = []
        used, seen = 0, set()
        for a in arrays:
            if not isinstance(a, np.ndarray):
                continue
            if capacity is not None and id(a) not in seen:
                seen.add(id(a))
                used += a.nbytes
                if left or used > capacity:
                    left.append(a)
                    continue
            elif capacity is not None and any(b is a for b in left):
                continue
            self.residency[id(a)] = (a, "l3")
        return left

    def is_resident(self, a: np.ndarray) -> bool:
        return self.residency_of(a) is not None

    def residency_of(self, a: np.ndarray) -> tuple | None:
        """``residency``'s entry for ``a``; for a view (a stream's base address
        inside an array, ``infs.runtime.base_offsets``) with no entry of its
        own, ``(a, "l3")`` when an array it views is in the L3 (its data is
        there, but not transposed in the view's layout); None if in DRAM."""
        st = self.residency.get(id(a))
        if st is not None and st[0] is a:
            return st
        base = a.base if isinstance(a, np.ndarray) else None
        while isinstance(base, np.ndarray):
            st = self.residency.get(id(base))
            if st is not None and st[0] is base:
                return (a, "l3")
            base = base.base
        return None

    # -- LOT ---------------------------------------------------------------------------
    def _enter(self, op: Cmd) -> None:
        """A ``pimcmd.array``: the array's LOT entry (held transposed if an earlier run left it so)."""
        prog = self._prog
        assert prog is not None
        idx, shape, element = op["arr"], tuple(op["shape"]), prog.element(op["arr"])
        trans = self.lot[idx].trans if idx in self.lot else 0
        a = self._host.get(idx)
        held = self._held.get(id(a)) if a is not None else None
        if held is not None and held[0] is a and held[1:] == (op["wordline"], shape, element):
            trans = 2
        self.lot[idx] = LotEntry(idx, prog.arg_name(idx), shape, element, op["wordline"], bool(op.get("transposed")), trans)

    def _entry(self, op: Cmd) -> LotEntry:
        prog = self._prog
        assert prog is not None
        idx = op["arr"]
        if idx not in self.lot:
            for o in prog.cmds:
                if o.kind is K.ARRAY and o["arr"] == idx:
                    self._enter(o)
        if idx not in self.lot:
            raise SimError(f"array argument {idx} has no 'pimcmd.array' layout entry")
        return self.lot[idx]

    @staticmethod
    def _array_box(geo: Geometry, e: LotEntry) -> tuple[tuple[int, int], ...]:
        pad = geo.rank - len(e.shape)
        return tuple((0, 1) for _ in range(pad)) + tuple((0, s) for s in e.shape)

    def _view(self, start: int, bits: int, geo: Geometry, write: bool) -> np.ndarray:
        raw = self.regs.write_view(start, bits) if write else self.regs.read(start, bits)
        return raw[: geo.cells]

    # -- executors ---------------------------------------------------------------------
    def _exec_transpose_in(self, op, plan, geo, host) -> None:
        e = self._entry(op)
        if e.index not in host:
            raise SimError(f"transpose_in of '{e.name}' but no host array was given for it")
        a = np.asarray(host[e.index])
        if a.shape != e.shape:
            raise SimError(f"host array '{e.name}' has shape {a.shape}, the layout says {e.shape}")
        bits = ELEMENT_BITS[e.element]
        vals = a.astype(TYPED[e.element], copy=False) if e.element != "i1" else (a != 0).astype(np.uint8)
        raw = np.ascontiguousarray(vals).view(WORD_TYPES[bits]) if bits > 1 else vals
        raw = raw.reshape((1,) * (geo.rank - raw.ndim) + raw.shape)
        view = self._view(e.wordline, bits, geo, write=True).reshape(geo.grid + geo.tiles)
        scatter_box(view, geo, self._array_box(geo, e), raw)
        e.trans = 2
        lo, hi = e.wordline, e.wordline + bits
        for k, (_, wl, _, el) in list(self._held.items()):  # registers now overwritten
            if wl < hi and lo < wl + ELEMENT_BITS[el]:
                del self._held[k]
        self._held[id(host[e.index])] = (host[e.index], e.wordline, e.shape, e.element)

    def _exec_release(self, op, plan, geo, host) -> None:
        e = self._entry(op)
        self._write_back(e, geo, host)
        self._dirty.discard(e.index)
        e.trans = 0
        self._held.pop(id(host[e.index]), None)

    def _write_back(self, e: LotEntry, geo: Geometry, host) -> None:
        """The array's registers into its host array (in place; a new one if none was given)."""
        bits = ELEMENT_BITS[e.element]
        box = self._array_box(geo, e)
        out = np.empty(tuple(q - p for p, q in box), dtype=WORD_TYPES[bits])
        gather_box(self._view(e.wordline, bits, geo, write=False).reshape(geo.grid + geo.tiles), geo, box, out)
        vals = out.reshape(e.shape)
        vals = vals.view(TYPED[e.element]) if bits > 1 else vals.astype(np.bool_)
        if e.index in host:
            dst = host[e.index]
            if not isinstance(dst, np.ndarray) or dst.shape != e.shape:
                raise SimError(f"release of '{e.name}' needs a writable numpy array of shape {e.shape}")
            dst[...] = vals
        else:
            host[e.index] = vals.copy()

    def _exec_readout(self, op, geo, box, prev, hull) -> None:
        ty = op["type"]
        bits = ELEMENT_BITS[ty]
        shape = tuple(max(0, q - p) for p, q in box)
        if 0 in shape:
            self.buffers[op["id"]] = np.empty(shape, dtype=HOST[ty])
            return
        out = np.empty(shape, dtype=WORD_TYPES[bits])
        gather_box(self._view(op["src"], bits, geo, write=False).reshape(geo.grid + geo.tiles), geo, box, out)
        vals = out.view(TYPED[ty]) if bits > 1 else out.astype(np.bool_)
        rid = op["id"]
        if prev is not None and hull != box:
            merged = np.zeros(tuple(q - p for p, q in hull), dtype=vals.dtype)
            merged[tuple(slice(p - h, q - h) for (p, q), (h, _) in zip(prev, hull))] = self.buffers[rid]
            merged[tuple(slice(p - h, q - h) for (p, q), (h, _) in zip(box, hull))] = vals
            vals = merged
        self.buffers[rid] = vals

    def _exec_writein(self, op, plan, geo, host) -> None:
        ty = op["type"]
        bits = ELEMENT_BITS[ty]
        box = op["domain"]
        buf, bbox = self._buffer(op["id"])
        shape = tuple(q - p for p, q in box)
        if all(p0 <= p1 and q1 <= q0 for (p0, q0), (p1, q1) in zip(bbox, box)):
            vals = buf[tuple(slice(p1 - p0, q1 - p0) for (p0, _), (p1, q1) in zip(bbox, box))]
        else:
            try:
                vals = np.broadcast_to(buf, shape)
            except ValueError:
                raise SimError(f"writein of buffer {op['id']} over {list(bbox)} into the box {list(box)}") from None
        raw = to_raw(vals, ty)
        scatter_box(self._view(op["dst"], bits, geo, write=True).reshape(geo.grid + geo.tiles), geo, box, raw)

    def _buffer(self, rid: int):
        if rid not in self.buffers and self.mode != "analysis":
            raise SimError(f"buffer {rid} is used before any readout/near_load/near_reduce produced it")
        return self.buffers.get(rid), self._buffer_boxes[rid]

    def _exec_result(self, op, plan, geo, host) -> None:
        buf, _ = self._buffer(op["id"])
        if buf.size != 1:
            raise SimError(f"result {op['index']} takes buffer {op['id']} of {buf.size} elements, not one")
        self.results[op["index"]] = buf.reshape(()).item() if buf.dtype != np.bool_ else bool(buf.reshape(()))

    # -- near-memory stream operations (§3.3, §5.1, §5.3) ---------------------------------
    def _step_near_reduce(self, op, plan, geo: Geometry, host) -> None:
        rid = op["input"]
        if rid not in self._buffer_boxes:
            raise SimError(f"near_reduce of buffer {rid} before it was produced")
        box = self._buffer_boxes[rid]
        dims, step = op["dims"], op["step"]
        kept = tuple(max(0, -(-(q - p) // s)) for (p, q), s in zip(box, step))
        # a folded dim collapses to one cell, the identity where it was empty
        # (tdfg stream_reduce: a stream.reduce over no iteration, per kept cell)
        out_box = tuple((p, p + 1) if d in dims else (p, p + k) for d, ((p, _q), k) in enumerate(zip(box, kept)))
        cost = self.costs.of(op.kind)(geo, box, step, dims, ELEMENT_BITS[op["type"]])
        self._charge(cost, op.kind.MNEMONIC)
        self._buffer_boxes[op["out"]] = out_box
        if self.mode == "analysis":
            return
        buf, _ = self._buffer(rid)
        sub = buf[tuple(slice(None, None, s) for s in step)]
        folded = reduce_box(op["op"], op["type"], sub, tuple(dims))
        self.buffers[op["out"]] = folded[tuple(slice(0, q - p) for p, q in out_box)]

    def _step_near_access(self, op, plan, geo: Geometry, host) -> None:
        """near_load / near_store: a gather from / scatter into a program array."""
        is_load = op.kind is K.NEAR_LOAD
        write_back: tuple[np.ndarray, np.ndarray] | None = None
        name = op.kind.name
        ty = op["type"]
        if is_load:
            box = op["domain"]
        else:
            if op["input"] not in self._buffer_boxes:
                raise SimError(f"near_store of buffer {op['input']} before it was produced")
            whole = self._buffer_boxes[op["input"]]
            box = op.get("domain") or whole
            if any(p < p0 or q > q0 for (p, q), (p0, q0) in zip(box, whole)) and not box_empty(box):
                raise SimError(f"near_store of the cells {list(box)} of buffer {op['input']} over {list(whole)}")
        cost = self.costs.of(op.kind)(geo, box, ELEMENT_BITS[ty], len(op["indirect"]) > 0)
        self._charge(cost, op.kind.MNEMONIC)
        if is_load:
            self._buffer_boxes[op["out"]] = box
        if self.mode == "analysis":
            return
        idx = op["arr"]
        shape = self._prog.arg_shape(idx)  # type: ignore[union-attr]
        if any(s < 0 for s in shape):  # dynamic memref: the layout entry's or the host array's shape
            if idx in host:
                shape = tuple(host[idx].shape)
            elif idx in self.lot:
                shape = tuple(self.lot[idx].shape)
            else:
                raise SimError(f"'{name}' on a dynamically shaped array with no layout entry and no host array")
        grids = np.meshgrid(*[np.arange(p, q) for p, q in box], indexing="ij") if box else []
        coords = list(op["map"].apply(grids, {}))
        for pos, bid in zip(op["indirect"], op["indices"]):
            ib, ibox = self._buffer(bid)
            # two empty boxes are the same (no cell), wherever their empty range starts
            if ibox != box and not (box_empty(ibox) and box_empty(box)):
                raise SimError(f"index buffer {bid} over {list(ibox)} does not match the access box {list(box)}")
            coords[pos] = np.asarray(ib).astype(np.int64)
        for c, n in zip(coords, shape):
            if c.size and (c.min() < 0 or c.max() >= n):
                raise SimError(f"'{name}' reaches index {int(c.max()) if c.max() >= n else int(c.min())} outside {list(shape)}")
        entry = self.lot.get(idx)
        if entry is not None and entry.trans == 2:  # held transposed: the stream engines read/write the arrays (§5.3)
            bits = ELEMENT_BITS[entry.element]
            cells = _array_cells(geo, shape, coords)
            reg = self.regs.write_view(entry.wordline, bits) if not is_load else self.regs.read(entry.wordline, bits)
            target = reg.view(TYPED[entry.element]) if bits > 1 else reg
            flat = cells
            if not is_load:
                self._dirty.add(idx)
        else:
            if idx not in host:
                raise SimError(f"'{name}' needs host array argument {idx}")
            arr = host[idx]
            # a view (a stream's base address inside an array: runtime.base_offsets)
            # is worked on as a contiguous copy and written back after a store
            work = arr if arr.flags.c_contiguous else np.ascontiguousarray(arr)
            target = work.reshape(-1)
            if work is not arr and not is_load:
                write_back = (arr, work)
            flat = np.ravel_multi_index(tuple(coords), shape) if coords else np.zeros((), np.int64)
        if is_load:
            vals = target[flat]
            self.buffers[op["out"]] = vals.astype(HOST[ty]) if vals.dtype != HOST[ty] else vals
            return
        buf, whole = self._buffer(op["input"])
        if box != whole:  # only the cells in the store's domain
            buf = np.asarray(buf)[tuple(slice(p - p0, q - p0) for (p, q), (p0, _) in zip(box, whole))]
        vals = np.asarray(buf).astype(target.dtype).reshape(-1)
        flat = np.asarray(flat).reshape(-1)
        kind = op["kind"]
        if kind == "store":  # last cell in row-major order wins
            rev = flat[::-1]
            uniq, first = np.unique(rev, return_index=True)
            target[uniq] = vals[::-1][first]
        else:
            with np.errstate(all="ignore"):
                # i1: add is xor (mod 2); floats: min/max with -0.0 < +0.0
                float_fold_at(kind, target, flat, vals, reduce_ufunc(kind, np.bool_ if ty == "i1" else target.dtype))
        if write_back is not None:
            write_back[0][...] = write_back[1]

    def _move(self, plan: Plan, geo: Geometry, src: int, dst: int, bits: int) -> None:
        if plan.tmap.empty or plan.bmap.empty:
            return
        shape, sidx = combine(plan.tmap, plan.bmap, "src")
        _, didx = combine(plan.tmap, plan.bmap, "dst")
        sview = self._view(src, bits, geo, write=False).reshape(shape)
        dview = self._view(dst, bits, geo, write=True).reshape(shape)
        dview[didx] = sview[sidx]

    def _exec_shift(self, op, plan, geo, host) -> None:
        self._move(plan, geo, op["src"], op["dst"], ELEMENT_BITS[op["type"]])

    def _exec_compute(self, op, plan, geo, host) -> None:
        name, ty = op["op"], op["type"]
        bits = ELEMENT_BITS[ty]
        srcs = op["srcs"]
        const = op.get("const") if op.get("const_arg") is None else self.scalars[op["const_arg"]]
        if plan.tmap.empty or plan.bmap.empty:
            return
        if plan.full:  # a contiguous run of whole arrays: plain 1-D slices
            ts = plan.tmap.src[0]
            idx: Any = (slice(ts.start * geo.B, ts.stop * geo.B),)
            shape: tuple[int, ...] = (geo.cells,)
        else:
            shape, idx = combine(plan.tmap, plan.bmap, "src")
        ins = [self._view(s, b, geo, write=False).reshape(shape)[idx] for s, b in zip(srcs, op.kind.src_bits(op))]
        dview = self._view(op["dst"], op.kind.dst_bits(op), geo, write=True).reshape(shape)
        if self.mode == "bitlevel":
            sel_shape = ins[0].shape if ins else dview[idx].shape
            n = int(np.prod(sel_shape))
            raws = [np.ascontiguousarray(x).reshape(-1) for x in ins]
            if const is not None:  # 0-d: the same word on every bitline
                raws.append(np.asarray(raw_const(const, ty)))
            alu = BitSerial(n)
            direct = dview[idx] if plan.full else None  # contiguous: the ALU writes it in place
            res = alu.run(name, ty, raws, out=direct)
            st = self.stats.bit_steps
            st["reads"] += alu.reads
            st["writes"] += alu.writes
            st["logic"] += alu.logic
            if res is not None:
                if res is not direct:
                    dview[idx] = res.reshape(sel_shape)
                return
            self.stats.bitlevel_fallbacks += 1
        out = dview[idx] if not isinstance(idx, tuple) or all(isinstance(i, slice) for i in idx) else None
        res = word_op(name, ty, ins, const, out=out)
        if out is None or res is not out:
            dview[idx] = res


def _array_cells(geo: Geometry, shape: tuple[int, ...], coords: list[np.ndarray]) -> np.ndarray:
    """Flat register cells of array elements ``coords`` (lower-rank arrays sit at
    coordinate 0 of the leading lattice dims)."""
    pad = geo.rank - len(shape)
    full = [np.zeros_like(coords[0]) for _ in range(pad)] + list(coords) if coords else []
    tile = np.zeros_like(full[0]) if full else np.zeros((), np.int64)
    bit = np.zeros_like(tile)
    for x, t, g in zip(full, geo.tiles, geo.grid):
        tile = tile * g + x // t
        bit = bit * t + x % t
    return tile * geo.B + bit


# ---------------------------------------------------------------------------
# Semantics of every command (the simulator's side of its definition)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Semantics:
    """What the machine does for one command: ``step`` runs it (charging its
    cost, ``timing.COSTS``); ``plan`` prepares its static cost and index maps
    once per program (None: everything happens at run time); ``shared``: the
    plan depends on the command's fields (a transfer's: its array's layout
    entry) and the geometry alone, so programs share it; ``run``: the data
    movement of a ``Machine._charged`` step."""

    step: Callable[..., None]
    plan: Callable[..., Plan] | None = None
    shared: bool = False
    run: Callable[..., None] | None = None


def _charged(plan, run) -> Semantics:
    return Semantics(Machine._charged, plan, shared=True, run=run)


SEMANTICS: dict[K.CommandKind, Semantics] = {
    K.ARRAY: Semantics(Machine._step_array),
    K.TRANSPOSE_IN: Semantics(Machine._step_transpose_in, Machine._plan_dram, shared=True),
    K.RELEASE: Semantics(Machine._step_release, Machine._plan_dram, shared=True),
    K.COMPUTE: _charged(Machine._plan_compute, Machine._exec_compute),
    K.SHIFT: _charged(Machine._plan_shift, Machine._exec_shift),
    K.BCAST: _charged(Machine._plan_bcast, Machine._exec_shift),
    K.SYNC: Semantics(Machine._step_sync),
    K.READOUT: Semantics(Machine._step_readout, Machine._plan_buffer_move, shared=True),
    K.WRITEIN: _charged(Machine._plan_buffer_move, Machine._exec_writein),
    K.NEAR_REDUCE: Semantics(Machine._step_near_reduce),
    K.NEAR_LOAD: Semantics(Machine._step_near_access),
    K.NEAR_STORE: Semantics(Machine._step_near_access),
    K.RESULT: _charged(Machine._plan_result, Machine._exec_result),
}


def _semantics(kind: K.CommandKind) -> Semantics:
    sem = SEMANTICS.get(kind)
    if sem is None:
        if getattr(kind, "TENSOR_LEVEL", False):
            raise SimError(f"the machine runs only fully lowered programs; '{kind.name}' is a domain-form command")
        raise SimError(f"'{getattr(kind, 'name', kind)}' has no simulator semantics (infs.sim.sram.machine.SEMANTICS)")
    return sem


class CommandCoverageError(RuntimeError):
    """A command the machine may be handed has no semantics or no cost (one line)."""


def check_command_coverage(commands: "Sequence[K.CommandKind]" = K.COMMANDS) -> None:
    """Every command that can reach the machine has semantics (``SEMANTICS``)
    and a cost (``timing.COSTS``); tensor-level commands are expanded by the
    lower-pim passes before a program runs, so they need neither.  Checked at
    import: a command added to ``pimcmd`` without them fails here, by name."""
    missing = []
    for kind in commands:
        if kind.TENSOR_LEVEL:
            continue
        lacks = [what for what, table in (("simulator semantics (infs.sim.sram.machine.SEMANTICS)", SEMANTICS), ("cost (infs.sim.sram.timing.COSTS)", COSTS)) if kind not in table]
        if lacks:
            missing.append(f"'{kind.name}' has no {' and no '.join(lacks)}")
    if missing:
        raise CommandCoverageError("; ".join(missing))


check_command_coverage()
