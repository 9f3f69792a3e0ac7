"""What ``infs-view`` draws, as plain JSON-able data.

``view_data(runs, stats, cfg)`` turns the in-memory programs of a run (the
records the JIT produced, ``RunReport.programs``) into:

* the machine: the mesh of banks, the arrays of a bank, and for each program
  which arrays (tensors) live on which tile (tile ``t`` is SRAM array
  ``t % per_bank`` of bank ``t // per_bank``, ``infs.sim.geometry``);
* every command, compactly (patterns stay ``start:stride:count`` and are
  expanded by the page), with what it cost when it ran: cycles, category,
  NoC bytes x hops and the mesh links it loaded;
* per-link NoC bytes (``Stats.link_bytes``, ``noc.Mesh`` layout) and per-bank
  busy cycles;
* the cycle breakdown (Fig. 14).

Per-command costs come from replaying the run's programs, in order, on an
analysis-mode machine (no data: costs do not depend on values) that starts
where the run started (inputs in the L3 or in DRAM), so transpositions are
charged as in the run.  A bank is *busy* for a command's cycles when the
command works on its SRAM arrays (compute, shift, bcast, readout, writein,
transpose_in/release of an array with tiles in it; all banks run a command in
lock-step, ASPLOS §4.2); syncs, near-memory folds and the end-of-program
drain occupy the network and the stream engines, not the arrays.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from infs.dialects import pimcmd as pc
from infs.dialects.element_types import ELEMENT_BITS
from infs.dialects.lattice import Pattern
from infs.dialects.pimcmd_records import Cmd, PimProgram
from infs.hardware import HardwareConfig
from infs.sim import Machine
from infs.sim.geometry import Geometry, bank_set, box_tile_counts, pattern_set
from infs.sim.stats import CYCLE_KEYS, Cost, Stats

# at most this many distinct programs are embedded with their commands (a page
# stays small and responsive); the others are listed with their totals only
MAX_PROGRAMS = 64


class _TracingMachine(Machine):
    """A machine that records what each command of a program was charged.

    It hooks the two places every charge passes through (``_step`` knows the
    command's index, ``_charge`` the cost) rather than changing the machine:
    the view observes the simulator, it does not add to it."""

    def __init__(self, cfg: HardwareConfig):
        super().__init__(cfg, mode="analysis")
        self.trace: list[tuple[int, str, Cost]] = []
        self._at = -1

    def _replay_key(self, prog, host):  # type: ignore[override]
        # every run is simulated command by command, never replayed from the
        # machine's record of an earlier one: the trace needs each charge
        return None

    def _step(self, op, i, plans, geo, host):  # type: ignore[override]
        self._at = i
        try:
            super()._step(op, i, plans, geo, host)
        finally:
            self._at = -1

    def _charge(self, cost: Cost, name: str) -> None:  # type: ignore[override]
        super()._charge(cost, name)
        self.trace.append((self._at, name, cost))


@dataclass
class _ProgramView:
    record: PimProgram
    regions: list[int] = field(default_factory=list)
    invocations: int = 0
    cycles: np.ndarray | None = None  # per command, first invocation
    category: list[str] | None = None
    noc: np.ndarray | None = None
    links: dict[int, np.ndarray] = field(default_factory=dict)  # command -> link loads (first invocation)
    totals: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CYCLE_KEYS, 0))
    link_bytes: np.ndarray | None = None
    bank_busy: np.ndarray | None = None
    drain: int = 0


def geometry_of(rec: PimProgram) -> Geometry:
    return Geometry(tuple(rec.lattice), tuple(rec.tiles), rec.per_bank)


def _array_box(rec: PimProgram, shape: Sequence[int]) -> tuple[tuple[int, int], ...]:
    pad = len(rec.lattice) - len(shape)
    return tuple((0, 1) for _ in range(pad)) + tuple((0, int(s)) for s in shape)


def command_banks(rec: PimProgram, geo: Geometry, c: Cmd, boxes: dict[int, tuple]) -> np.ndarray:
    """Banks whose SRAM arrays a command works on (empty: none, see the module docstring)."""
    if c.kind.PATTERNED and c.get("tiles") is not None:
        return bank_set(geo, pattern_set(c["tiles"]), c.get("banks"))
    if (c.kind is pc.TransposeInOp or c.kind is pc.ReleaseOp) and c["arr"] in boxes:
        tiles = np.nonzero(box_tile_counts(geo, boxes[c["arr"]]))[0]
        return np.unique(tiles // geo.per_bank)
    return np.zeros(0, np.int64)


def replay(runs: Sequence[tuple[int, PimProgram, list, dict]], cfg: HardwareConfig, warm: bool = True, resident: Sequence[Any] | None = None) -> list[_ProgramView]:
    """Replay ``runs`` ((region, record, scalars, arrays) in run order) on an
    analysis machine; one ``_ProgramView`` per distinct record, in first-run order.

    ``warm``: the arrays in ``resident`` (the run's host arguments) start in the
    L3, as the run's did; without ``resident``, every array a program touches."""
    m = _TracingMachine(cfg)
    if warm and resident is not None:
        m.mark_resident(resident)
    views: dict[int, _ProgramView] = {}
    busy_masks: dict[int, np.ndarray] = {}
    for region, rec, params, arrays in runs:
        if warm and resident is None:
            m.mark_resident([a for a in arrays.values() if not m.is_resident(a)])
        v = views.get(id(rec))
        if v is None:
            v = views[id(rec)] = _ProgramView(rec)
            geo = geometry_of(rec)
            boxes = {c["arr"]: _array_box(rec, c["shape"]) for c in rec.arrays()}
            mask = np.zeros((len(rec.cmds), cfg.banks), dtype=bool)
            for i, c in enumerate(rec.cmds):
                mask[i, command_banks(rec, geo, c, boxes)] = True
            busy_masks[id(rec)] = mask
            v.bank_busy = np.zeros(cfg.banks)
        if region not in v.regions:
            v.regions.append(region)
        m.trace = []
        m.run(rec, arrays, scalars=params)
        cyc = np.zeros(len(rec.cmds), np.int64)
        first = v.invocations == 0
        cat = [""] * len(rec.cmds) if first else None
        noc = np.zeros(len(rec.cmds)) if first else None
        for i, name, cost in m.trace:
            v.totals[cost.category] = v.totals.get(cost.category, 0) + cost.cycles
            if cost.link_loads is not None:
                v.link_bytes = cost.link_loads.copy() if v.link_bytes is None else v.link_bytes + cost.link_loads
            if i < 0:  # the end-of-program drain
                v.drain += cost.cycles if first else 0
                continue
            cyc[i] += cost.cycles
            if first:
                cat[i] = cost.category
                noc[i] += sum(x for k, x in cost.traffic.items() if k.startswith("noc"))
                if cost.link_loads is not None and np.any(cost.link_loads):
                    v.links[i] = cost.link_loads if i not in v.links else v.links[i] + cost.link_loads
        v.bank_busy += cyc @ busy_masks[id(rec)]
        if first:
            v.cycles, v.category, v.noc = cyc, cat, noc
        v.invocations += 1
    return list(views.values())


def _json_value(v: Any) -> Any:
    if isinstance(v, Pattern):
        return [v.start, [list(lv) for lv in v.levels]]
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    if isinstance(v, (tuple, list)):
        return [_json_value(x) for x in v]
    if isinstance(v, np.generic):
        return v.item()
    return str(v)


def _rle(values: np.ndarray) -> list[int]:
    """Run-length code [value, count, value, count, ...] (tile maps are long runs)."""
    if values.size == 0:
        return []
    cut = np.nonzero(np.diff(values))[0] + 1
    starts = np.concatenate([[0], cut])
    counts = np.diff(np.concatenate([starts, [values.size]]))
    return np.stack([values[starts], counts], axis=1).reshape(-1).astype(int).tolist()


def _program_json(k: int, v: _ProgramView, cfg: HardwareConfig) -> dict[str, Any]:
    rec = v.record
    geo = geometry_of(rec)
    arrays = []
    tile_mask = np.zeros(geo.num_tiles, np.int64)
    for j, c in enumerate(rec.arrays()):
        box = _array_box(rec, c["shape"])
        elem = rec.element(c["arr"])
        arrays.append({
            "arr": c["arr"], "name": rec.arg_name(c["arr"]), "shape": list(c["shape"]), "element": elem,
            "wordline": c["wordline"], "bits": ELEMENT_BITS.get(elem, 32), "transposed": bool(c.get("transposed")),
        })  # fmt: skip
        if j < 30:  # a tile's residents as a bit mask (30 arrays: far more than any program has)
            tile_mask |= (box_tile_counts(geo, box) > 0).astype(np.int64) << j
    cmds = [{"k": c.kind.MNEMONIC, **{key: _json_value(val) for key, val in c.f.items()}} for c in rec.cmds]
    links = {str(i): [[int(j), round(float(x), 1)] for j, x in zip(np.flatnonzero(ld), ld.ravel()[np.flatnonzero(ld)])] for i, ld in v.links.items()}
    return {
        "id": k, "regions": v.regions, "invocations": v.invocations, "lattice": list(rec.lattice), "tiles": list(rec.tiles),
        "grid": list(geo.grid), "num_tiles": geo.num_tiles, "wordlines": rec.wordlines, "arrays": arrays, "tile_arrays": _rle(tile_mask),
        "cmds": cmds, "cost": {"cycles": v.cycles.tolist(), "category": v.category, "noc": [round(float(x), 1) for x in v.noc]},
        "links": links, "drain": v.drain, "cycles": v.totals, "bank_busy": v.bank_busy.tolist(),
        "link_bytes": None if v.link_bytes is None else v.link_bytes.ravel().tolist(),
    }  # fmt: skip


def view_data(
    runs: Sequence[tuple[int, PimProgram, list, dict]],
    stats: Stats | None,
    cfg: HardwareConfig,
    title: str = "",
    warm: bool = True,
    regions: Sequence[dict[str, Any]] = (),
    resident: Sequence[Any] | None = None,
) -> dict[str, Any]:
    """The page's data for ``runs`` (see ``replay``) and the run's ``stats``
    (None: the replayed programs' own totals are the run)."""
    views = replay(runs, cfg, warm, resident)
    busy = np.zeros(cfg.banks)
    for v in views:
        busy += v.bank_busy
    if stats is None:
        stats = Stats()
        for v in views:
            for key, x in v.totals.items():
                stats.cycles[key] = stats.cycles.get(key, 0) + x
            stats.add_links(v.link_bytes)
    # the in-memory categories come only from the programs: the replay must
    # reproduce them; where it cannot (an array a near-memory region brought
    # into the L3 is charged as still in DRAM) the page says by how much
    diff = {k: sum(v.totals.get(k, 0) for v in views) - int(stats.cycles.get(k, 0)) for k in ("dram", "move", "compute", "final_reduce")}
    note = "" if not any(diff.values()) else "the replay's per-command costs differ from the run's: " + ", ".join(f"{k} {d:+,}" for k, d in diff.items() if d) + " cycles"
    links = stats.link_bytes if stats.link_bytes is not None else np.zeros((4, cfg.mesh_rows, cfg.mesh_cols))
    shown = views[:MAX_PROGRAMS]
    return {
        "title": title,
        "config": {
            "name": cfg.name, "banks": cfg.banks, "mesh_rows": cfg.mesh_rows, "mesh_cols": cfg.mesh_cols,
            "per_bank": cfg.arrays_per_bank, "bitlines": cfg.bitlines, "wordlines": cfg.wordlines, "freq_ghz": cfg.freq_ghz,
        },  # fmt: skip
        "run": {
            "cycles": {k: int(stats.cycles.get(k, 0)) for k in CYCLE_KEYS},
            "total_cycles": stats.total_cycles,
            "link_bytes": links.ravel().tolist(),
            "bank_busy": busy.tolist(),
            "regions": list(regions),
            "replay_note": note,
        },
        "programs": [_program_json(k, v, cfg) for k, v in enumerate(shown)],
        "omitted_programs": [{"regions": v.regions, "invocations": v.invocations, "commands": len(v.record.cmds)} for v in views[MAX_PROGRAMS:]],
    }


def bank_grid(per_bank: int) -> tuple[int, int]:
    """How the pictures lay out a bank's arrays: (rows, cols), the squarest
    full rectangle (cols in [ceil(sqrt), 2 ceil(sqrt)]), else ceil(sqrt) columns
    (the page's ``bankGrid`` is the same rule)."""
    c0 = max(1, math.ceil(math.sqrt(per_bank)))
    for c in range(c0, 2 * c0 + 1):
        if per_bank % c == 0:
            return per_bank // c, c
    return -(-per_bank // c0), c0
