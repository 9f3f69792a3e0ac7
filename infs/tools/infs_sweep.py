"""``infs-sweep``: design-space sweeps (machines x workloads x sizes x modes x cost profiles) on Dask.

    infs-sweep SPEC.toml [--workers N | --address tcp://host:port] [--out DIR]
                         [--plot] [--dry-run] [--redo-failed] [--fresh] [--quiet]

SPEC is a TOML file (or the same tables in YAML, ``.yaml``/``.yml``; docs/user-guide.md, "infs-sweep";
``benchmarks/sweeps/*.toml`` are examples)::

    name = "banks"                            # optional: the file's stem
    workloads = ["vec_add", "stencil2d"]      # names of infs/workloads
    sizes = ["paper"]                         # size sets ("small", "paper"), as infs-bench
    modes = ["core", "near", "in", "auto"]    # runtime modes (default: all four)
    profiles = ["infs"]                       # optional: cost profiles (each overrides the machine's)
    functional = false                        # optional: compute data too (default: analysis mode)
    out = "out/banks"                         # optional, relative to SPEC (default: out/<name> beside it)

    [explicit_sizes]                          # optional: used instead of `sizes` for these workloads
    vec_add = [{n = 65536}, {n = 1048576}]    # keys not given keep their paper value

    [machines]
    base = "paper-64"                         # built-in name or config file (relative to SPEC)
    configs = ["tiny", "my.toml"]             # optional: machines taken as they are
    set = {jit_model = "per-command"}         # optional: fields fixed on every grid machine
    skip_invalid = false                      # true: leave out grid points the config rejects

    [machines.grid]                           # the product of the axes, each over ``base``
    bitlines = [128, 256, 512]                # an axis over one field, or several fields at once:
    mesh = [{banks = 16, mesh_rows = 4, mesh_cols = 4}, {banks = 64, mesh_rows = 8, mesh_cols = 8}]

    [plot]
    x = "bitlines"                            # a table column (default: the first grid axis)
    baseline = "core"                         # a mode (same machine) or a value of x (same mode);
                                              # default: "core" if swept, else the first machine's x

Each cell (one machine, workload, size binding, mode) is one Dask task: one
``run_program`` through ``infs_bench.run_one`` in the machine's analysis mode,
exactly as infs-bench runs its cells.  The engine is a ``LocalCluster`` of
``--workers`` processes (one thread each: the simulator is Python) or the
scheduler at ``--address``.

The table, ``OUT/sweep.csv``, has one row per cell: its key (a hash of the
cell's full spec: every machine field but the name, workload, sizes, mode,
analysis or functional), status (``ok``/``failed``) and one-line error, the
workload, sizes and mode, every ``HardwareConfig`` field (energy constants as
``energy_const.KEY``), and infs-bench's statistics (cycles and their Fig. 14
breakdown, traffic, NoC byte-hops, energy, regions per mode, wall time).  Each
finished cell is appended and fsync'd at once, so a crash, Ctrl-C or a killed
machine loses nothing computed; a rerun skips every cell already in the table
(failed ones too, unless ``--redo-failed``; cells whose worker died are
retried), so it finishes a sweep that was cut short.  ``OUT/speedup_vs_X.png``
plots speedup against one swept parameter, one panel per workload.
"""

from __future__ import annotations

import argparse
import csv
import datetime as _dt
import fcntl
import hashlib
import io
import itertools
import json
import math
import os
import signal
import socket
import sys
import time
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from infs.tools.cli import VersionAction

PROG = "infs-sweep"
MODES = ("core", "near", "in", "auto")
MODE_LABEL = {"core": "Base", "near": "Near-L3", "in": "In-L3", "auto": "Inf-S"}
# runtime mode -> infs-bench's configuration of that mode (its run_one takes the latter)
BENCH_CONFIG = {"core": "base", "near": "near", "in": "in", "auto": "infs"}
SIZE_SETS = ("small", "paper")
KEY_VERSION = 1  # bump when a cell's meaning changes: old rows then no longer match
TABLE = "sweep.csv"
DERIVED = ("total_arrays", "total_bitlines", "l3_mb")  # machine columns computed from the fields


class SpecError(Exception):
    """A bad spec or command line: one line, exit 2."""


@dataclass
class Spec:
    path: Path
    name: str
    out: Path
    workloads: list[str]
    sizes: dict[str, list[tuple[str, dict[str, int]]]]  # workload -> [(size-set label, binding)]
    modes: list[str]
    machines: list[Any]  # HardwareConfig
    functional: bool = False
    grid_axes: list[str] = field(default_factory=list)
    plot_x: str = "machine"
    plot_baseline: Any = None


# ---------------------------------------------------------------------------------
# the spec
# ---------------------------------------------------------------------------------

_TOP = {"name", "workloads", "sizes", "explicit_sizes", "modes", "profiles", "functional", "out", "machines", "plot"}
_MACHINES = {"base", "configs", "set", "grid", "skip_invalid"}
_PLOT = {"x", "baseline"}


def _show(v: Any) -> str:
    s = json.dumps(v) if isinstance(v, (str, list, dict)) else str(v).lower() if isinstance(v, bool) else str(v)
    return s if len(s) <= 60 else s[:57] + "..."


def _strings(where: str, v: Any, allowed: tuple[str, ...] | None = None) -> list[str]:
    if isinstance(v, str):
        v = [v]
    if not isinstance(v, list) or not v or not all(isinstance(x, str) for x in v):
        raise SpecError(f"{where}: expected a non-empty list of strings, got {_show(v)}")
    for x in v:
        if allowed is not None and x not in allowed:
            raise SpecError(f"{where}: unknown value '{x}' (known: {', '.join(allowed)})")
    return list(dict.fromkeys(v))


def _unknown(where: str, got: dict, known: set[str]) -> None:
    extra = sorted(set(got) - known)
    if extra:
        raise SpecError(f"{where}: unknown key{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra))} (known: {', '.join(sorted(known))})")


def _table(where: str, v: Any) -> dict:
    if not isinstance(v, dict):
        raise SpecError(f"{where}: expected a table, got {_show(v)}")
    return v


def _machine(where: str, ref: Any, spec_dir: Path, **overrides: Any):
    """A validated config from a built-in name or a file (relative to the spec), with ``overrides``."""
    from infs.hardware import BUILTIN, ConfigError, load_config

    if not isinstance(ref, str) or not ref:
        raise SpecError(f"{where}: expected a built-in config name ({', '.join(BUILTIN)}) or a config file, got {_show(ref)}")
    src: str | Path = ref if ref in BUILTIN else spec_dir / ref
    if not isinstance(src, str) and not src.exists():
        raise SpecError(f"{where}: unknown config '{ref}': not a built-in ({', '.join(BUILTIN)}) nor a file ({src})")
    try:
        return load_config(src, **overrides)
    except ConfigError as e:
        raise SpecError(f"{where}: {' '.join(str(e).split())}") from None


def _axis(where: str, name: str, values: Any, known: set[str]) -> list[tuple[str, dict[str, Any]]]:
    """One grid axis: [(label, field overrides)] -- ``field = [v, ...]`` or ``name = [{field = v, ...}, ...]``."""
    if not isinstance(values, list) or not values:
        raise SpecError(f"{where}.{name}: expected a non-empty list of values, got {_show(values)}")
    out = []
    for v in values:
        if isinstance(v, dict):
            if not v:
                raise SpecError(f"{where}.{name}: an empty table sets no field")
            bad = sorted(set(v) - known)
            if bad:
                raise SpecError(f"{where}.{name}: unknown hardware field {bad[0]!r} (see `infs-run --help-config` or docs/hardware.md)")
            label = str(v[name]) if name in v else "/".join(f"{k}={x}" for k, x in v.items())
            out.append((f"{name}={label}", dict(v)))
        else:
            if name not in known:
                raise SpecError(f"{where}: unknown hardware field {name!r} (an axis of tables may have any name; a list of plain values must name a field)")
            out.append((f"{name}={_show(v)}", {name: v}))
    return out


def load_spec(path: str | Path, out: str | None = None) -> Spec:
    """The spec at ``path``, checked (every error: ``SpecError``, one line naming the file)."""
    p = Path(path)
    try:
        return _load_spec(p, out)
    except SpecError as e:
        raise SpecError(f"{p}: {e}") from None


def _load_spec(p: Path, out: str | None) -> Spec:
    from infs.hardware import PROFILES, HardwareConfig
    from infs.tools.infs_bench import bench_sizes
    from infs.workloads import WORKLOADS

    if not p.exists():
        raise SpecError("no such file")
    if p.is_dir():
        raise SpecError("is a directory, not a spec file")
    try:
        text = p.read_bytes().decode("utf-8")
    except OSError as e:
        raise SpecError(f"cannot read it: {e.strerror}") from None
    except UnicodeDecodeError:
        raise SpecError("not a UTF-8 text file") from None
    if p.suffix.lower() in (".yaml", ".yml"):
        # the same tables in YAML (PyYAML comes with distributed)
        import yaml

        try:
            d = yaml.safe_load(text)
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
            raise SpecError(f"not valid YAML: {getattr(e, 'problem', None) or type(e).__name__}{where}") from None
        except RecursionError:
            raise SpecError("not valid YAML: nested too deeply") from None
        if not isinstance(d, dict):
            raise SpecError("the top level must be a mapping (workloads: [...], machines: {...})")
    else:
        try:
            d = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError) as e:
            raise SpecError(f"not valid TOML: {' '.join(str(e).split())}") from None
    _unknown("top level", d, _TOP)
    name = d.get("name", p.stem)
    # (the name is the default output directory's: no separator, and no NUL, which no path may hold)
    if not isinstance(name, str) or not name or "/" in name or "\0" in name:
        raise SpecError(f"name: expected a non-empty string without '/' or NUL, got {_show(name)}")
    if "workloads" not in d:
        raise SpecError(f"workloads: missing (a list of names from infs/workloads: {', '.join(WORKLOADS)})")
    workloads = _strings("workloads", d["workloads"], tuple(WORKLOADS))
    modes = _strings("modes", d.get("modes", list(MODES)), MODES)
    sets = _strings("sizes", d.get("sizes", ["paper"]), SIZE_SETS)
    functional = d.get("functional", False)
    if not isinstance(functional, bool):
        raise SpecError(f"functional: expected true or false, got {_show(functional)}")
    sizes: dict[str, list[tuple[str, dict[str, int]]]] = {w: [(s, bench_sizes(WORKLOADS[w], s)[0]) for s in sets] for w in workloads}
    explicit = _table("explicit_sizes", d.get("explicit_sizes", {}))
    for w, binds in explicit.items():
        where = f"explicit_sizes.{w}"
        if w not in workloads:
            raise SpecError(f"{where}: '{w}' is not one of this spec's workloads ({', '.join(workloads)})")
        if isinstance(binds, dict):
            binds = [binds]
        if not isinstance(binds, list) or not binds:
            raise SpecError(f"{where}: expected a non-empty list of size tables such as {{n = 4096}}, got {_show(binds)}")
        paper = bench_sizes(WORKLOADS[w], "paper")[0]
        sizes[w] = []
        for b in binds:
            b = _table(where, b)
            for k, v in b.items():
                if k not in paper:
                    raise SpecError(f"{where}: unknown size '{k}' for {w} (its sizes: {', '.join(paper)})")
                if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 1 << 40:
                    raise SpecError(f"{where}: size {k} must be an integer in [0, 2^40], got {_show(v)}")
            sizes[w].append(("explicit", {**paper, **b}))
    spec_dir = p.parent
    profiles = None
    if "profiles" in d:
        profiles = _strings("profiles", d["profiles"], tuple(PROFILES))
    machines, axes = _machines(d.get("machines", {}), spec_dir, profiles)
    known_cols = {f.name for f in fields(HardwareConfig)} | set(DERIVED) | {"machine"}
    plot = _table("plot", d.get("plot", {}))
    _unknown("plot", plot, _PLOT)
    x = plot.get("x", axes[0] if axes else "machine")
    if not isinstance(x, str) or x not in known_cols or x == "energy_pj":
        raise SpecError(f"plot.x: expected a machine column (a hardware field, {', '.join(DERIVED)} or machine), got {_show(x)}")
    # by default: over Base on the same machine, else over the first machine (same mode)
    baseline = plot.get("baseline", "core" if "core" in modes else _col_value(machines[0], x))
    if isinstance(baseline, str) and baseline in MODES:
        if baseline not in modes:
            raise SpecError(f"plot.baseline: mode '{baseline}' is not one of this spec's modes ({', '.join(modes)})")
    elif baseline is not None and not (isinstance(baseline, (int, float, str)) and not isinstance(baseline, bool)):
        raise SpecError(f"plot.baseline: expected a mode ({', '.join(MODES)}) or a value of {x}, got {_show(baseline)}")
    if baseline is not None and not (isinstance(baseline, str) and baseline in MODES):
        xs = {_col_value(m, x) for m in machines}
        if baseline not in xs:
            raise SpecError(f"plot.baseline: {_show(baseline)} is neither a mode nor a value of {x} in this sweep ({', '.join(map(_show, sorted(xs, key=str)))})")
    if out is None:
        o = d.get("out", f"out/{name}")
        if not isinstance(o, str) or not o or "\0" in o:
            raise SpecError(f"out: expected a directory path (without NUL), got {_show(o)}")
        out_dir = Path(os.path.normpath(spec_dir / o))
    else:
        if not out or "\0" in out:
            raise SpecError(f"--out: expected a directory path, got {_show(out)}")
        out_dir = Path(out)
    return Spec(p, name, out_dir, workloads, sizes, modes, machines, functional, axes, x, baseline)


def _machines(m: Any, spec_dir: Path, profiles: list[str] | None) -> tuple[list[Any], list[str]]:
    """Every machine of ``[machines]`` (configs, then the grid over base), times ``profiles``."""
    from infs.hardware import HardwareConfig

    m = _table("machines", m)
    _unknown("machines", m, _MACHINES)
    known = {f.name for f in fields(HardwareConfig)} - {"name"}
    skip = m.get("skip_invalid", False)
    if not isinstance(skip, bool):
        raise SpecError(f"machines.skip_invalid: expected true or false, got {_show(skip)}")
    fixed = _table("machines.set", m.get("set", {}))
    bad = sorted(set(fixed) - known)
    if bad:
        raise SpecError(f"machines.set: unknown hardware field {bad[0]!r}")
    grid = _table("machines.grid", m.get("grid", {}))
    prof = [{"profile": p} for p in profiles] if profiles else [{}]
    configs = m.get("configs", [])
    if isinstance(configs, str):
        configs = [configs]
    if not isinstance(configs, list) or ("configs" in m and not configs):
        raise SpecError(f"machines.configs: expected a non-empty list of config names or files, got {_show(configs)}")
    out = []
    for i, ref in enumerate(configs):
        for pr in prof:
            out.append(_machine(f"machines.configs[{i}]", ref, spec_dir, **pr))
    axes = [(k, _axis("machines.grid", k, v, known)) for k, v in grid.items()]
    if "base" in m or grid or fixed or not out:
        base_ref = m.get("base", "paper-64")
        base = _machine("machines.base", base_ref, spec_dir, **fixed)
        for combo in itertools.product(*(vals for _, vals in axes)):
            over: dict[str, Any] = {}
            for _label, vals in combo:
                over.update(vals)
            label = ",".join(lbl for lbl, _ in combo)
            for pr in prof:
                try:
                    cfg = _machine(f"machines.grid ({label or 'base'})", base_ref, spec_dir, **{**fixed, **over, **pr})
                except SpecError as e:
                    if skip:
                        continue
                    raise SpecError(f"{e} (set machines.skip_invalid = true to leave such machines out)") from None
                out.append(replace(cfg, name=f"{base.name}[{label}]" if label else base.name))
        if not out:
            raise SpecError("machines: every grid point is invalid (skip_invalid left none)")
    # the same machine twice (e.g. a config file equal to a grid point) is one machine
    seen: dict[str, Any] = {}
    for cfg in out:
        seen.setdefault(_machine_key(cfg), cfg)
    grid_x = []
    for k, vals in axes:
        fields_set = vals[0][1]
        grid_x.append(k if k in known else next(iter(fields_set)))
    return list(seen.values()), grid_x


def _machine_dict(cfg) -> dict[str, Any]:
    """Every field but the name (a machine's identity)."""
    d = cfg.to_dict()
    d.pop("name")
    return d


def _machine_key(cfg) -> str:
    # a letter first: a key never reads back from the CSV as a number
    return "m" + hashlib.sha256(json.dumps(_machine_dict(cfg), sort_keys=True).encode()).hexdigest()[:16]


def _col_value(cfg, col: str) -> Any:
    if col == "machine":
        return cfg.name
    if col == "l3_mb":
        return cfg.l3_bytes / 2**20
    return getattr(cfg, col)


# ---------------------------------------------------------------------------------
# cells
# ---------------------------------------------------------------------------------


def cells(spec: Spec) -> list[dict[str, Any]]:
    """Every cell of the sweep (machine x workload x sizes x mode), each with its key, in a stable order."""
    out: dict[str, dict[str, Any]] = {}
    for cfg, w, mode in itertools.product(spec.machines, spec.workloads, spec.modes):
        for label, sizes in spec.sizes[w]:
            ident = {"v": KEY_VERSION, "machine": _machine_dict(cfg), "workload": w, "sizes": dict(sorted(sizes.items())),
                     "mode": mode, "functional": spec.functional}  # fmt: skip
            key = "c" + hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:20]
            out.setdefault(key, {"key": key, "machine": cfg, "workload": w, "size_set": label, "sizes": sizes, "mode": mode, "functional": spec.functional})
    return list(out.values())


def machine_columns(cfg) -> dict[str, Any]:
    """The table's machine columns: the name, every field (energy constants as energy_const.KEY), and derived sizes."""
    d: dict[str, Any] = {"machine": cfg.name, "machine_key": _machine_key(cfg)}
    for k, v in cfg.to_dict().items():
        if k == "energy_pj":
            d.update({f"energy_const.{e}": x for e, x in v.items()})
        elif k != "name":
            d[k] = v
    d["total_arrays"] = cfg.total_arrays
    d["total_bitlines"] = cfg.total_bitlines
    d["l3_mb"] = cfg.l3_bytes / 2**20
    return d


def _head(cell: dict[str, Any]) -> dict[str, Any]:
    return {"key": cell["key"], "status": "", "error": "", "error_kind": "", "workload": cell["workload"], "size_set": cell["size_set"],
            "sizes": " ".join(f"{k}={v}" for k, v in cell["sizes"].items()), "mode": cell["mode"], **machine_columns(cell["machine"])}  # fmt: skip


_MODULES: dict[str, Any] = {}
# infs-bench's columns that say nothing in a sweep (its configuration name, forced tile shape)
_DROP = ("config", "label", "tiles", "workload", "mode", "sizes")


def one_line(e: BaseException) -> str:
    """``Type: first line of the message`` (a table cell, one line)."""
    msg = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return f"{type(e).__name__}: {msg}"[:400] if msg else type(e).__name__


# Every cell of a worker process runs on this one thread: optimize-tdfg keeps its egglog
# e-graphs per process (rules compiled once), and an egglog e-graph may only be used and
# dropped by the thread that made it -- a worker started with several threads would
# otherwise hand a cell another thread's e-graph and fail it.  (The simulator holds the
# GIL, so one thread loses nothing.)
_THREAD: Any = None


def _cell_thread():
    global _THREAD
    if _THREAD is None:
        from concurrent.futures import ThreadPoolExecutor

        _THREAD = ThreadPoolExecutor(1, thread_name_prefix="infs-sweep-cell")
    return _THREAD


def _drop_engines() -> None:
    from infs.passes import optimize_tdfg

    optimize_tdfg.drop_engines()  # on their own thread (else egglog complains at exit)


def _worker_plugin():
    """A Dask worker plugin that drops the e-graphs on the cell thread when the worker closes."""
    from distributed import WorkerPlugin

    class DropEngines(WorkerPlugin):
        name = "infs-sweep-drop-engines"

        def teardown(self, worker):
            # this class travels by value: reach the worker's own copy of the module
            from infs.tools import infs_sweep

            if infs_sweep._THREAD is not None:
                infs_sweep._THREAD.submit(infs_sweep._drop_engines).result(timeout=30)

    return DropEngines()


def run_cell(cell: dict[str, Any]) -> dict[str, Any]:
    """One cell, on a worker: its table row (a failing run is a row with its one-line error)."""
    return _cell_thread().submit(_run_cell, cell).result()


def _run_cell(cell: dict[str, Any]) -> dict[str, Any]:
    from infs import api
    from infs.tools.infs_bench import run_one
    from infs.workloads import WORKLOADS

    row = _head(cell)
    t0 = time.perf_counter()
    try:
        w = WORKLOADS[cell["workload"]]
        if w.name not in _MODULES:
            _MODULES[w.name] = api.parse_file(w.path)
        r = run_one(_MODULES[w.name], w, dict(cell["sizes"]), BENCH_CONFIG[cell["mode"]], cell["functional"], machine=cell["machine"])
        row.update({k: v for k, v in r.items() if k not in _DROP})
        row["status"] = "ok"
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # noqa: BLE001 -- a failing cell is a row, never the end of the sweep (pyo3's PanicException is a BaseException)
        row.update(status="failed", error=one_line(e), error_kind="run")
    # messages name the workload files: relative to the checkout, so tables compare across hosts
    root = f"{Path(__file__).resolve().parents[2]}/"
    for k in ("error", "not_in_reason", "not_honoured"):
        if isinstance(row.get(k), str):
            row[k] = row[k].replace(root, "")
    row["cell_wall_s"] = time.perf_counter() - t0
    row["host"] = socket.gethostname()
    row["pid"] = os.getpid()
    row["finished_at"] = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    return row


def engine_failure(cell: dict[str, Any], e: BaseException) -> dict[str, Any]:
    """The row of a cell the engine could not run (its worker died, the scheduler went away): retried on a rerun."""
    row = _head(cell)
    row.update(status="failed", error=one_line(e), error_kind="engine",
               finished_at=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"))  # fmt: skip
    return row


def done_before(row: dict[str, Any], redo_failed: bool) -> bool:
    """Does this table row settle its cell (no rerun)?"""
    if row.get("status") == "ok":
        return True
    return row.get("status") == "failed" and row.get("error_kind") == "run" and not redo_failed


# ---------------------------------------------------------------------------------
# the table: one CSV, one appended + fsync'd line per finished cell
# ---------------------------------------------------------------------------------


def _cell_text(v: Any) -> str:
    if v is None:
        return ""
    s = str(v)
    # one physical line per row: a torn last line is then the only damage a kill can do
    return s.replace("\r", " ").replace("\n", " ") if ("\n" in s or "\r" in s) else s


class Table:
    """``sweep.csv``: rows by cell key (the last row of a key wins)."""

    def __init__(self, path: Path):
        self.path = path
        self.header: list[str] = []
        self.rows: dict[str, dict[str, str]] = {}
        self.lines = 0

    def load(self, repair: bool = True) -> None:
        """Read the table; ``repair`` (the writer, holding the lock) cuts a torn last line off the file."""
        if not self.path.exists():
            return
        try:
            self._load(repair)
        except OSError as e:
            raise SpecError(f"{self.path}: cannot read the table ({e.strerror}); move it away or use --out") from None
        except csv.Error as e:
            raise SpecError(f"{self.path}: not a readable infs-sweep table ({e}); move it away or use --out") from None

    def _load(self, repair: bool) -> None:
        raw = self.path.read_bytes()
        if raw and not raw.endswith(b"\n"):
            # a line cut by a kill mid-write: drop it (its cell is computed again)
            raw = raw[: raw.rfind(b"\n") + 1]
            if repair:
                with self.path.open("r+b") as f:
                    f.truncate(len(raw))
        text = raw.decode("utf-8", errors="replace")
        reader = csv.reader(io.StringIO(text))
        try:
            self.header = next(reader)
        except StopIteration:
            return
        if "key" not in self.header or "status" not in self.header:
            raise SpecError(f"{self.path}: not an infs-sweep table (no 'key' and 'status' columns); move it away or use --out")
        for rec in reader:
            if len(rec) != len(self.header):
                continue
            row = dict(zip(self.header, rec))
            self.rows[row["key"]] = row
            self.lines += 1

    def append(self, row: dict[str, Any]) -> None:
        text = {k: _cell_text(v) for k, v in row.items()}
        self.rows[text["key"]] = text
        new = [k for k in text if k not in self.header]
        if new or not self.path.exists():
            self.header += new
            self.rewrite()
            return
        with self.path.open("a", newline="") as f:
            csv.writer(f, lineterminator="\n").writerow([text.get(k, "") for k in self.header])
            f.flush()
            os.fsync(f.fileno())
        self.lines += 1

    def rewrite(self) -> None:
        """The whole table, atomically (a new column, or duplicates compacted)."""
        tmp = self.path.with_name(f".{self.path.name}.tmp{os.getpid()}")
        with tmp.open("w", newline="") as f:
            wr = csv.writer(f, lineterminator="\n")
            wr.writerow(self.header)
            for r in self.rows.values():
                wr.writerow([r.get(k, "") for k in self.header])
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        self.lines = len(self.rows)


# columns that are text whatever they read like: a machine named "64" (a config file's
# name) stays the string the spec's plot.baseline and the machines' own names compare to
_TEXT = {"key", "status", "error", "error_kind", "workload", "size_set", "sizes", "mode", "machine", "machine_key", "host", "finished_at"}


def _text_columns() -> set[str]:
    from infs.hardware import HardwareConfig

    return _TEXT | {f.name for f in fields(HardwareConfig) if f.type == "str"}


def typed_rows(table: Table, keys: list[str] | None = None) -> list[dict[str, Any]]:
    """The table's rows (of ``keys`` when given, in that order), numbers as numbers."""
    from infs.tools.infs_bench import csv_value as conv

    text = _text_columns()
    rows = table.rows.values() if keys is None else (table.rows[k] for k in keys if k in table.rows)
    return [{k: v if k in text else conv(v) for k, v in r.items() if v != ""} for r in rows]


# ---------------------------------------------------------------------------------
# running
# ---------------------------------------------------------------------------------


def _connect(address: str | None, workers: int):
    """(client, cluster or None): the scheduler at ``address``, or a new local cluster."""
    import logging

    from distributed import Client, LocalCluster

    if address:
        try:
            return Client(address, timeout="20s"), None
        except (OSError, TimeoutError) as e:
            raise SpecError(f"--address {address}: cannot reach a Dask scheduler there ({one_line(e)})") from None
        except ValueError as e:
            raise SpecError(f"--address {address}: {one_line(e)} (expected tcp://HOST:PORT)") from None
        except Exception as e:  # noqa: BLE001 -- a scheme Dask knows but cannot use here (ucx:// without ucx-py: a TypeError)
            raise SpecError(f"--address {address}: cannot connect to a Dask scheduler there ({one_line(e)}; expected tcp://HOST:PORT)") from None
    # processes with one thread each: the simulator holds the GIL; spawned (Dask's default),
    # not forked, so no worker inherits egglog's thread pool (infs-bench's note on forkserver)
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                           silence_logs=logging.CRITICAL)  # fmt: skip
    return Client(cluster), cluster


def _on_term(signum, frame):  # SIGTERM as Ctrl-C: the table is closed cleanly either way
    raise KeyboardInterrupt


def run_sweep(spec: Spec, todo: list[dict[str, Any]], table: Table, address: str | None, workers: int, quiet: bool) -> dict[str, int]:
    """Run ``todo`` (cells not yet in the table), appending each finished row; counts by outcome."""
    from distributed import as_completed
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    counts = {"computed": 0, "ok": 0, "failed": 0, "engine": 0}
    if not todo:
        return counts
    # (no more worker processes than cells: --workers 1000 on 4 cells would start 1000)
    client, cluster = _connect(address, min(workers, len(todo)))
    progress = Progress(
        TextColumn(f"[bold]{PROG}[/] {spec.name}"), BarColumn(), MofNCompleteColumn(), TextColumn("cells"),
        TextColumn("{task.fields[failed]} failed"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
        # the ETA from the last 10 minutes of cells (rich's default 30 s sees no cell of a slow sweep)
        console=Console(stderr=True), disable=quiet, transient=False, speed_estimate_period=600,
    )  # fmt: skip
    nonce = os.urandom(4).hex()
    client.register_plugin(_worker_plugin())
    # the task by its importable name: under `python -m infs.tools.infs_sweep` this module is
    # __main__, whose functions Dask would ship by value -- each cell then with fresh globals
    # (a new cell thread per cell, and egglog's e-graphs used from the wrong thread)
    from infs.tools.infs_sweep import run_cell as task

    futures = []
    by_key: dict[str, dict[str, Any]] = {}
    try:
        with progress:
            bar = progress.add_task("cells", total=len(todo), failed=0)
            for c in todo:
                f = client.submit(task, c, key=f"infs-sweep-{c['key']}-{nonce}", pure=False)
                by_key[f.key] = c
                futures.append(f)
            for fut in as_completed(futures):
                cell = by_key[fut.key]
                try:
                    row = fut.result()
                except (KeyboardInterrupt, SystemExit):
                    raise
                except BaseException as e:  # noqa: BLE001 -- the worker died (KilledWorker), was cancelled, or the scheduler is gone
                    row = engine_failure(cell, e)
                    counts["engine"] += 1
                fut.release()
                table.append(row)
                counts["computed"] += 1
                counts["ok" if row["status"] == "ok" else "failed"] += 1
                if row["status"] != "ok" and not quiet:
                    what = f"{cell['workload']} ({row['sizes']}) {cell['mode']} on {cell['machine'].name}"
                    progress.console.print(f"{what}: FAILED {row['error']}", markup=False, highlight=False)
                progress.update(bar, advance=1, failed=counts["failed"])
    finally:
        try:
            client.cancel(futures)
            client.close(timeout=10)
            if cluster is not None:
                cluster.close(timeout=10)
        except Exception:  # noqa: BLE001 -- closing after an interrupt: what was computed is already in the table
            pass
    return counts


# ---------------------------------------------------------------------------------
# plots
# ---------------------------------------------------------------------------------

# machine columns that are names, hashes or computed from the fields (never a series of their own)
_NOT_SERIES = {"machine", "machine_key", *DERIVED}


def _machine_cols(rows: list[dict[str, Any]]) -> list[str]:
    from infs.hardware import HardwareConfig

    names = [f.name for f in fields(HardwareConfig) if f.name not in ("name", "energy_pj")]
    extra = sorted({k for r in rows for k in r if k.startswith("energy_const.")})
    return names + extra


def speedups(spec: Spec, rows: list[dict[str, Any]]) -> tuple[str, dict[str, dict[str, list[tuple[Any, float]]]]]:
    """(y label, workload -> series label -> [(x, speedup)]) over the ``ok`` rows of the spec's cells."""
    ok = [r for r in rows if r.get("status") == "ok" and "total_cycles" in r]
    x = spec.plot_x
    base = spec.plot_baseline
    by_mode = isinstance(base, str) and base in MODES
    # series: everything that varies besides x and what x determines (linked fields such as the mesh)
    dims = []
    for c in _machine_cols(ok):
        if c == x or c in _NOT_SERIES:
            continue
        vals = {r.get(c) for r in ok}
        if len(vals) > 1 and any(len({r.get(c) for r in ok if r.get(x) == xv}) > 1 for xv in {r.get(x) for r in ok}):
            dims.append(c)
    vary_sizes = len({(r["workload"], r.get("sizes", "")) for r in ok}) > len({r["workload"] for r in ok})

    def series(r) -> str:
        parts = [MODE_LABEL[r["mode"]]]
        parts += [f"{c}={r.get(c)}" for c in dims]
        if vary_sizes:
            parts.append(str(r.get("sizes", "")))
        return ", ".join(parts)

    def rest(r) -> tuple:  # everything but x (the baseline of a series at another x)
        return (r["workload"], r.get("sizes", ""), r["mode"], *(r.get(c) for c in dims))

    cyc = {(r["machine_key"], r["workload"], r.get("sizes", ""), r["mode"]): r["total_cycles"] for r in ok}
    at_x = {(rest(r), r.get(x)): r["total_cycles"] for r in ok}
    out: dict[str, dict[str, list[tuple[Any, float]]]] = {}
    for r in ok:
        if by_mode:
            if r["mode"] == base:
                continue
            ref = cyc.get((r["machine_key"], r["workload"], r.get("sizes", ""), base))
        else:
            ref = at_x.get((rest(r), base))
        if not ref or not r["total_cycles"]:
            continue
        out.setdefault(r["workload"], {}).setdefault(series(r), []).append((r.get(x), ref / r["total_cycles"]))
    label = f"speedup over {MODE_LABEL[base]} (same machine)" if by_mode else f"speedup over {x}={base} (same mode)"
    for ws in out.values():
        for k in ws:
            ws[k] = sorted(set(ws[k]), key=lambda p: (isinstance(p[0], str), p[0]))
    return label, out


def plot(spec: Spec, rows: list[dict[str, Any]], out_dir: Path) -> Path | None:
    """``speedup_vs_X.png``: speedup against the swept parameter, one panel per workload."""
    if spec.plot_baseline is None:
        return None
    ylabel, data = speedups(spec, rows)
    if not data:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    wls = [w for w in spec.workloads if w in data]
    ncols = min(3, len(wls))
    nrows = math.ceil(len(wls) / ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.0 * nrows + 0.8), squeeze=False)
    xs_all = sorted({x for ws in data.values() for pts in ws.values() for x, _ in pts}, key=lambda v: (isinstance(v, str), v))
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in xs_all)
    pos = {v: i for i, v in enumerate(xs_all)}
    handles: dict[str, Any] = {}
    labels = list(dict.fromkeys(lbl for w in wls for lbl in data[w]))
    # one color, marker and dash per series (equal series, e.g. In-L3 and Inf-S, stay visible)
    style = {lbl: (f"C{i % 10}", "os^Dv<>p*h"[i % 10], ("-", "--", ":", "-.")[i % 4]) for i, lbl in enumerate(labels)}
    for ax, w in zip(axes.flat, wls):
        for label, pts in data[w].items():
            xv = [p[0] if numeric else pos[p[0]] for p in pts]
            color, marker, dash = style[label]
            (ln,) = ax.plot(xv, [p[1] for p in pts], color=color, marker=marker, ls=dash, label=label, markersize=4)
            handles.setdefault(label, ln)
        ax.axhline(1.0, color="grey", lw=0.8, ls=":")
        sizes = {r.get("sizes") for r in rows if r.get("workload") == w}
        ax.set_title(w + (f" ({sizes.pop()})" if len(sizes) == 1 else ""), fontsize=9)
        if numeric and len(xs_all) > 2 and all(v > 0 and float(v).is_integer() and (int(v) & (int(v) - 1)) == 0 for v in xs_all):
            ax.set_xscale("log", base=2)
        if numeric:
            ax.set_xticks(xs_all, [f"{v:g}" for v in xs_all])
        else:
            ax.set_xticks(range(len(xs_all)), [str(v) for v in xs_all], rotation=20, fontsize=7)
        ys = [p[1] for pts in data[w].values() for p in pts]
        if ys and max(ys) / max(min(ys), 1e-12) > 30:
            ax.set_yscale("log")
        ax.set_xlabel(spec.plot_x, fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(wls):]:
        ax.set_visible(False)
    fig.supylabel(ylabel, fontsize=9)
    fig.suptitle(f"infs-sweep {spec.name}: speedup vs {spec.plot_x}", fontsize=10)
    fig.legend(list(handles.values()), list(handles), loc="lower center", ncol=min(4, len(handles)), fontsize=7, frameon=False)
    legend_rows = math.ceil(len(handles) / min(4, len(handles)))
    fig.tight_layout(rect=(0, 0.04 * legend_rows + 0.02, 1, 1))
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"speedup_vs_{spec.plot_x}.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def markdown(spec: Spec, rows: list[dict[str, Any]]) -> str:
    """The plot's numbers as a Markdown table (workload, series, one column per x)."""
    ylabel, data = speedups(spec, rows)
    xs = sorted({x for ws in data.values() for pts in ws.values() for x, _ in pts}, key=lambda v: (isinstance(v, str), v))
    out = [f"{ylabel}:", "", f"| workload | series | {' | '.join(f'{spec.plot_x}={x}' for x in xs)} |", "|---|---|" + "---:|" * len(xs)]
    for w in spec.workloads:
        for label, pts in data.get(w, {}).items():
            d = dict(pts)
            out.append(f"| {w} | {label} | " + " | ".join(f"{d[x]:.2f}x" if x in d else "-" for x in xs) + " |")
    return "\n".join(out)


# ---------------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------------


def _lock(out: Path):
    """An exclusive lock on OUT (released when the process ends, however it ends)."""
    try:
        f = (out / ".lock").open("w")
    except OSError as e:
        raise SpecError(f"{out / '.lock'}: cannot create the sweep's lock file ({e.strerror})") from None
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise SpecError(f"{out}: another infs-sweep is writing this table (wait for it, or use --out)") from None
    return f


def _say(msg: str, quiet: bool) -> None:
    if not quiet:
        print(f"{PROG}: {msg}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=PROG, description="Sweep machines x workloads x sizes x modes on a Dask cluster (local by default).",
                                     epilog="The spec format is in the module docstring (python -m pydoc infs.tools.infs_sweep) and docs/user-guide.md ('infs-sweep').")  # fmt: skip
    parser.add_argument("spec", help="the sweep's spec: TOML, or YAML (.yaml, .yml)")
    parser.add_argument("--version", action=VersionAction, help="print infs's and xDSL's versions and exit")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="local cluster: worker processes (default: one per CPU)")
    parser.add_argument("--address", help="a running Dask scheduler (tcp://HOST:PORT) instead of a local cluster")
    parser.add_argument("--out", help="directory of the table and plot (default: the spec's `out`, else out/NAME beside the spec)")
    parser.add_argument("--plot", action="store_true", help="no runs: plot the table as it is")
    parser.add_argument("--dry-run", action="store_true", help="no runs: say how many cells there are and how many are done")
    parser.add_argument("--redo-failed", action="store_true", help="run again the cells whose run failed (deterministic failures are skipped by default)")
    parser.add_argument("--fresh", action="store_true", help="start a new table (the old one is kept as sweep.csv.old)")
    parser.add_argument("--markdown", action="store_true", help="print the plot's numbers as a Markdown table at the end")
    parser.add_argument("--quiet", action="store_true", help="no progress bar or messages (errors still print)")
    args = parser.parse_args(argv)
    lock = None
    old_term = signal.getsignal(signal.SIGTERM)
    try:
        if args.workers < 1:
            raise SpecError(f"--workers: expected at least 1, got {args.workers}")
        if args.address and not args.address.strip():
            raise SpecError("--address: empty")
        spec = load_spec(args.spec, args.out)
        all_cells = cells(spec)
        keys = [c["key"] for c in all_cells]
        out = spec.out
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise SpecError(f"{out}: cannot create the output directory ({e.strerror})") from None
        readonly = args.plot or args.dry_run
        if not readonly:
            lock = _lock(out)
        tpath = out / TABLE
        if args.fresh and tpath.exists() and not readonly:
            try:
                os.replace(tpath, tpath.with_name(TABLE + ".old"))
            except OSError as e:
                raise SpecError(f"--fresh: cannot move {tpath} to {TABLE}.old ({e.strerror})") from None
        table = Table(tpath)
        table.load(repair=not readonly)
        settled = {r["key"] for r in typed_rows(table) if done_before(r, args.redo_failed)}
        todo = [c for c in all_cells if c["key"] not in settled]
        nmach = len(spec.machines)
        _say(f"{spec.path}: {len(all_cells)} cells ({nmach} machine{'s' * (nmach != 1)} x {len(spec.workloads)} workload(s) x sizes x "
             f"{len(spec.modes)} mode(s)); {len(all_cells) - len(todo)} already in {tpath}, {len(todo)} to run", args.quiet)  # fmt: skip
        if args.dry_run:
            return 0
        counts = {"computed": 0, "ok": 0, "failed": 0, "engine": 0}
        interrupted = False
        t0 = time.perf_counter()
        if not args.plot and todo:
            signal.signal(signal.SIGTERM, _on_term)
            engine = f"scheduler {args.address}" if args.address else f"local cluster of {args.workers} worker process(es)"
            _say(f"running {len(todo)} cells on a {engine}", args.quiet)
            try:
                counts = run_sweep(spec, todo, table, args.address, args.workers, args.quiet)
            except KeyboardInterrupt:
                interrupted = True
            finally:
                signal.signal(signal.SIGTERM, old_term)
            if interrupted:
                left = sum(1 for k in keys if k not in table.rows)
                print(f"{PROG}: interrupted: {len(keys) - left} of {len(keys)} cells are in {tpath}; run the same command again to finish the other {left}",
                      file=sys.stderr)  # fmt: skip
                return 130
        if not readonly and table.lines != len(table.rows):
            table.rewrite()  # retried cells: keep each key's last row only
        rows = typed_rows(table, keys)
        if args.plot and not rows:  # plotting an absent table would "succeed" having drawn nothing
            raise SpecError(f"--plot: {tpath} holds none of this spec's {len(keys)} cells: run the sweep first")
        try:
            fig = plot(spec, rows, out)
        except OSError as e:
            raise SpecError(f"cannot write the plot '{e.filename}' ({e.strerror}); the table {tpath} is complete") from None
        failed = sum(1 for r in rows if r.get("status") != "ok")
        if not args.plot:
            _say(f"{len(keys)} cells: {len(keys) - counts['computed']} already in the table, {counts['computed']} computed "
                 f"({counts['failed']} failed, {counts['engine']} lost with their worker) in {time.perf_counter() - t0:.1f} s", args.quiet)  # fmt: skip
        wrote = (f"plotted {len(rows)} of {len(keys)} cells of {tpath}: " + (f"wrote {fig}" if fig else "no plot (no baseline cell succeeded)")
                 if args.plot else f"wrote {tpath}" + (f" and {fig}" if fig else ""))  # --plot writes no table
        _say(wrote + (f"; {failed} cell(s) failed (their one-line errors are in the table's 'error' column)" if failed else ""),
             args.quiet)  # fmt: skip
        if args.markdown:
            print(markdown(spec, rows))
        return 0
    except SpecError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    finally:
        if lock is not None:
            lock.close()


if __name__ == "__main__":
    raise SystemExit(main())
