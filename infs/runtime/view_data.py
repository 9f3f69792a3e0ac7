"""What ``infs-view`` draws, as plain JSON-able data.

``view_data(runs, stats, cfg, charges=...)`` turns the in-memory programs of
a run (the records the JIT produced, ``RunReport.programs``) and what each of
their commands charged (``Machine.record_charges``, recorded by the run
itself) into:

* the machine: the mesh of banks, the arrays of a bank, and for each program
  which arrays (tensors) live on which tile (tile ``t`` is SRAM array
  ``t % per_bank`` of bank ``t // per_bank``, ``infs.sim.sram.geometry``), and the
  busy cycles of every bank (whole run, per program) and of every SRAM array
  (per program): the aggregates the page's zoom levels colour;
* every command of the programs embedded (at most ``MAX_PROGRAMS``, spread
  evenly over each region's programs), compactly (patterns stay
  ``start:stride:count`` and are expanded by the page), with what it cost
  when it first ran: cycles, category, NoC bytes x hops and the mesh links it
  loaded;
* per-link NoC bytes (``Stats.link_bytes``, ``noc.Mesh`` layout);
* the cycle breakdown (Fig. 14).

Large per-tile vectors are run-length coded (tile maps are long runs).

A bank (an SRAM array) is *busy* for a command's cycles when the command works
on its SRAM arrays (compute, shift, bcast, readout, writein, transpose_in/release
of an array with tiles in it; all banks run a command in lock-step, ASPLOS
§4.2); syncs, near-memory folds and the end-of-program drain occupy the
network and the stream engines, not the arrays.

Without recorded charges (a file of lowered ``pimcmd.program`` ops, viewed as
it is), the programs are run, in order, on an analysis-mode machine (no data:
costs do not depend on values) that records them, starting where the run
started (inputs in the L3 or in DRAM).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from infs.dialects import pimcmd_schema as K
from infs.element_types import ELEMENT_BITS
from infs.dialects.lattice import Pattern
from infs.dialects.pimcmd_records import Cmd, PimProgram
from infs.hardware import HardwareConfig
from infs.sim import Machine
from infs.sim.sram.geometry import Geometry, box_tile_counts, pattern_set
from infs.sim.stats import CYCLE_KEYS, Cost, Stats

# at most this many distinct programs are embedded with their commands (a page
# stays small and responsive); the others are listed with their totals only
MAX_PROGRAMS = 64

Charges = list[tuple[int, str, Cost]]


@dataclass
class _ProgramView:
    record: PimProgram
    first: int  # its first run's place in the run
    regions: list[int] = field(default_factory=list)
    invocations: int = 0
    charges: Charges | None = None  # its first run's
    cmd_cycles: np.ndarray | None = None  # per command, summed over its runs
    totals: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CYCLE_KEYS, 0))
    link_bytes: np.ndarray | None = None
    drain: int = 0  # first run's
    bank_busy: np.ndarray | None = None  # busy cycles per bank over its runs (``_busy``)


@dataclass
class _Summary:
    """One run's charges summed up (computed once per charge list: a replayed run shares its recorded run's)."""

    cycles: np.ndarray
    totals: dict[str, int]
    links: np.ndarray | None
    drain: int


def geometry_of(rec: PimProgram) -> Geometry:
    return Geometry(tuple(rec.lattice), tuple(rec.tiles), rec.per_bank)


def _array_box(rec: PimProgram, shape: Sequence[int]) -> tuple[tuple[int, int], ...]:
    pad = len(rec.lattice) - len(shape)
    return tuple((0, 1) for _ in range(pad)) + tuple((0, int(s)) for s in shape)


def command_tiles(rec: PimProgram, geo: Geometry, c: Cmd, box_tiles: dict[int, np.ndarray]) -> np.ndarray:
    """Tiles (SRAM arrays) a command works on (empty: none, see the module docstring)."""
    if c.kind.PATTERNED and c.get("tiles") is not None:
        t = pattern_set(c["tiles"])
        return t[(t >= 0) & (t < geo.num_tiles)]
    if (c.kind is K.TRANSPOSE_IN or c.kind is K.RELEASE) and c["arr"] in box_tiles:
        return box_tiles[c["arr"]]
    return np.zeros(0, np.int64)


def command_banks(rec: PimProgram, geo: Geometry, c: Cmd, box_tiles: dict[int, np.ndarray]) -> np.ndarray:
    """Banks whose SRAM arrays a command works on: its ``banks`` pattern, else those holding its tiles."""
    if c.kind.PATTERNED and c.get("tiles") is not None and c.get("banks") is not None:
        return pattern_set(c["banks"])
    t = command_tiles(rec, geo, c, box_tiles)
    return np.unique(t // geo.per_bank) if t.size else t


class _BoxTiles(dict):
    """Tiles holding each array of a program, computed when first asked for
    (most programs' transfers cost nothing: a warm run's arrays are in the L3)."""

    def __init__(self, rec: PimProgram, geo: Geometry):
        super().__init__()
        self.shapes = {c["arr"]: c["shape"] for c in rec.arrays()}
        self.rec, self.geo = rec, geo

    def __contains__(self, arr) -> bool:  # type: ignore[override]
        return arr in self.shapes

    def __missing__(self, arr) -> np.ndarray:
        t = self[arr] = np.flatnonzero(box_tile_counts(self.geo, _array_box(self.rec, self.shapes[arr])))
        return t


def _box_tiles(rec: PimProgram, geo: Geometry) -> dict[int, np.ndarray]:
    return _BoxTiles(rec, geo)


def record_charges(runs: Sequence[tuple[int, PimProgram, list, dict]], cfg: HardwareConfig, warm: bool = True, resident: Sequence[Any] | None = None) -> list[Charges]:
    """Run ``runs`` ((region, record, scalars, arrays) in run order) on an analysis
    machine that records what each command charged; per run, its charges.

    ``warm``: the arrays in ``resident`` (the run's host arguments) start in the
    L3; without ``resident``, every array a program touches."""
    m = Machine(cfg, mode="analysis")
    m.record_charges()
    if warm and resident is not None:
        m.mark_resident(resident)
    for _region, rec, params, arrays in runs:
        if warm and resident is None:
            m.mark_resident([a for a in arrays.values() if not m.is_resident(a)])
        m.run(rec, arrays, scalars=params)
    return [cs for _, cs in m.charges or ()]


def _summary(charges: Charges, n: int) -> _Summary:
    idx = np.fromiter((i for i, _, _ in charges), np.int64, len(charges))
    cyc = np.fromiter((c.cycles for _, _, c in charges), np.int64, len(charges))
    totals: dict[str, int] = {}
    links = None
    for _, _, c in charges:
        totals[c.category] = totals.get(c.category, 0) + c.cycles
        if c.link_loads is not None:
            links = c.link_loads.astype(float) if links is None else links + c.link_loads
    inside = idx >= 0
    per_cmd = np.bincount(idx[inside], weights=cyc[inside], minlength=n).astype(np.int64) if n else np.zeros(0, np.int64)
    return _Summary(per_cmd, totals, links, int(cyc[~inside].sum()))


def summarize(runs: Sequence[tuple[int, PimProgram, list, dict]], charges: Sequence[Charges]) -> list[_ProgramView]:
    """One ``_ProgramView`` per distinct record, in first-run order, from each run's charges."""
    if len(charges) != len(runs):
        raise ValueError(f"{len(charges)} runs' charges for {len(runs)} runs")
    views: dict[int, _ProgramView] = {}
    sums: dict[int, _Summary] = {}
    for k, ((region, rec, _params, _arrays), cs) in enumerate(zip(runs, charges)):
        v = views.get(id(rec))
        if v is None:
            v = views[id(rec)] = _ProgramView(rec, k, charges=cs, cmd_cycles=np.zeros(len(rec.cmds), np.int64))
        s = sums.get(id(cs))
        if s is None:
            s = sums[id(cs)] = _summary(cs, len(rec.cmds))
        if region not in v.regions:
            v.regions.append(region)
        if v.invocations == 0:
            v.drain = s.drain
        v.invocations += 1
        v.cmd_cycles += s.cycles
        for key, x in s.totals.items():
            v.totals[key] = v.totals.get(key, 0) + x
        if s.links is not None:
            v.link_bytes = s.links.copy() if v.link_bytes is None else v.link_bytes + s.links
    return list(views.values())


def _busy(v: _ProgramView, banks: int) -> np.ndarray:
    """Busy cycles per bank of a program over its runs (one product of its per-command
    cycles with its commands' bank sets)."""
    rec = v.record
    geo = geometry_of(rec)
    boxes = _box_tiles(rec, geo)
    hot = np.flatnonzero(v.cmd_cycles)  # (only the commands that cost anything: most syncs and arrays do not)
    sets = [command_banks(rec, geo, rec.cmds[i], boxes) for i in hot]
    if not sets:
        return np.zeros(banks)
    idx = np.concatenate(sets)
    w = np.repeat(v.cmd_cycles[hot], [b.size for b in sets]).astype(float)
    ok = (idx >= 0) & (idx < banks)
    return np.bincount(idx[ok], weights=w[ok], minlength=banks)[:banks]


def _tile_busy(v: _ProgramView, total_tiles: int) -> np.ndarray:
    """Busy cycles per SRAM array (= tile) of a program over its runs."""
    rec = v.record
    geo = geometry_of(rec)
    boxes = _box_tiles(rec, geo)
    hot = np.flatnonzero(v.cmd_cycles)
    sets = [command_tiles(rec, geo, rec.cmds[i], boxes) for i in hot]
    if not sets:
        return np.zeros(total_tiles, np.int64)
    idx = np.concatenate(sets)
    w = np.repeat(v.cmd_cycles[hot], [t.size for t in sets])
    return np.bincount(idx, weights=w, minlength=total_tiles)[:total_tiles].astype(np.int64)


def choose(views: Sequence[_ProgramView], limit: int = MAX_PROGRAMS) -> list[_ProgramView]:
    """The programs embedded: all when at most ``limit``; else, per region, an even
    spread over its programs (its first and last included), in first-run order."""
    if len(views) <= limit:
        return list(views)
    by_region: dict[int, list[int]] = {}
    for j, v in enumerate(views):
        by_region.setdefault(v.regions[0], []).append(j)
    quota = max(1, limit // len(by_region))
    keep: set[int] = set()
    for js in by_region.values():
        picks = np.unique(np.linspace(0, len(js) - 1, min(quota, len(js))).round().astype(int))
        keep.update(js[p] for p in picks)
    return [views[j] for j in sorted(keep)[: max(limit, len(by_region))]]


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
    cmds = [{"k": c.kind.MNEMONIC, **{key: _json_value(val) for key, val in c.items()}} for c in rec.cmds]
    # the first run's per-command costs
    n = len(rec.cmds)
    cyc = np.zeros(n, np.int64)
    cat = [""] * n
    noc = np.zeros(n)
    links: dict[int, np.ndarray] = {}
    for i, _name, cost in v.charges or ():
        if i < 0:
            continue
        cyc[i] += cost.cycles
        cat[i] = cat[i] or cost.category
        noc[i] += sum(x for key, x in cost.traffic.items() if key.startswith("noc"))
        if cost.link_loads is not None and np.any(cost.link_loads):
            links[i] = cost.link_loads if i not in links else links[i] + cost.link_loads
    link_json = {str(i): [[int(j), round(float(x), 1)] for j, x in zip(np.flatnonzero(ld), ld.ravel()[np.flatnonzero(ld)])] for i, ld in links.items()}
    total_tiles = cfg.banks * cfg.arrays_per_bank
    return {
        "id": k, "regions": v.regions, "invocations": v.invocations, "lattice": list(rec.lattice), "tiles": list(rec.tiles),
        "grid": list(geo.grid), "num_tiles": geo.num_tiles, "wordlines": rec.wordlines, "arrays": arrays, "tile_arrays": _rle(tile_mask),
        "cmds": cmds, "cost": {"cycles": cyc.tolist(), "category": cat, "noc": [round(float(x), 1) for x in noc]},
        "links": link_json, "drain": v.drain, "cycles": v.totals, "bank_busy": v.bank_busy.tolist(),
        "tile_busy": _rle(_tile_busy(v, total_tiles)),
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
    charges: Sequence[Charges] | None = None,
    only_regions: set[int] | None = None,
    notes: Sequence[str] = (),
) -> dict[str, Any]:
    """The page's data for ``runs`` ((region, record, scalars, arrays) in run
    order), ``charges`` (per run, what its commands charged: the run's
    ``Machine.charges``; None: recorded here, see ``record_charges``) and the
    run's ``stats`` (None: the programs' own totals are the run).
    ``only_regions``: embed and list only those regions' programs; ``notes``:
    lines the page shows under its title."""
    if charges is None:
        charges = record_charges(runs, cfg, warm, resident)
    views = summarize(runs, charges)
    busy = np.zeros(cfg.banks)
    for v in views:
        v.bank_busy = _busy(v, cfg.banks)
        busy += v.bank_busy
    if stats is None:
        stats = Stats()
        for v in views:
            for key, x in v.totals.items():
                stats.cycles[key] = stats.cycles.get(key, 0) + x
            stats.add_links(v.link_bytes)
    # the in-memory categories come only from the programs: their charges must
    # add up to the run's; where they do not, the page says by how much
    diff = {k: sum(v.totals.get(k, 0) for v in views) - int(stats.cycles.get(k, 0)) for k in ("dram", "move", "compute", "final_reduce")}
    note = "" if not any(diff.values()) else "the per-command costs differ from the run's: " + ", ".join(f"{k} {d:+,}" for k, d in diff.items() if d) + " cycles"
    links = stats.link_bytes if stats.link_bytes is not None else np.zeros((4, cfg.mesh_rows, cfg.mesh_cols))
    listed = [v for v in views if only_regions is None or set(v.regions) & only_regions]
    shown = choose(listed)
    kept = {id(v) for v in shown}
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
            "notes": list(notes),
            "shown_regions": None if only_regions is None else sorted(only_regions),
            "programs_run": len(views),
        },
        "programs": [_program_json(k, v, cfg) for k, v in enumerate(shown)],
        "omitted_programs": [{"regions": v.regions, "invocations": v.invocations, "commands": len(v.record.cmds), "cycles": int(sum(v.totals.values()))}
                             for v in listed if id(v) not in kept],  # fmt: skip
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
