"""``infs-view``: see what the compiler and the machine did.

    infs-view PROGRAM.mlir [infs-run's size/config flags] [--region N] -o out.html [--png out.png]

Runs the program as ``infs-run --analysis`` does (timing only, no data: paper
sizes take seconds), by default with ``--mode in``, and writes one
self-contained HTML page (no network: inline JS/SVG, the data as JSON) showing

* the machine, zoomed semantically: the mesh of banks, each coloured by its
  busy cycles, its arrays holding tiles or the NoC bytes it sends, with the
  number written in it; a click shows a bank's SRAM arrays (the tensors on
  each tile, or its busy cycles), another an array's bitlines; breadcrumbs
  zoom out; every heat map has a numeric colour scale;
* the lattice's tile grid (a click zooms into a window of it);
* every command, step by step: the tiles and bitlines its patterns select
  (source / destination), its wordlines, a shift's direction and distance, a
  broadcast's fan-out, and what it cost (the run's own charges,
  ``Machine.record_charges``: nothing is simulated again);
* the NoC's bytes per link as a heat map on the mesh and the banks' busy
  cycles (whole run, one program, one command);
* the cycle breakdown (Fig. 14) and where each region ran and why; the page
  opens on an in-memory region's program, or says that none ran in memory and why.

``--png`` also draws the tile map, the NoC heat map and the cycle breakdown
with matplotlib (no browser needed).  A file holding ``pimcmd.program`` ops
(``infs-opt --lower-pim`` output) is viewed as it is: its programs are run
once each.  A program with nothing to offload is run on the host and its
page says so.  ``infs-run ... --view out.html`` writes the page for a real
run.  docs/infs-view.md describes the page.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

# (light imports only: --help and --version load no xDSL or numpy; the rest is
# imported by the functions that draw)
from infs.tools.cli import UsageError, VersionAction, errors_in_one_line, report_failure

if TYPE_CHECKING:
    import numpy as np

    from infs.hardware import HardwareConfig

PROG = "infs-view"


class ViewError(Exception):
    """A user error of the view (one line)."""


def check_output(path: str, flag: str) -> Path:
    """An output file's path: its directory must exist, it must not be a directory."""
    if not path:
        raise ViewError(f"{flag}: an empty path")
    p = Path(path)
    if p.is_dir():
        raise ViewError(f"{flag} '{path}' is a directory")
    if not p.parent.is_dir():
        raise ViewError(f"{flag} '{path}': the directory '{p.parent}' does not exist")
    return p


def region_rows(report) -> list[dict[str, Any]]:
    """Per region of a run: where it ran, how often, its cycles."""
    out: dict[int, dict[str, Any]] = {}
    for r in report.regions:
        d = out.setdefault(r.region, {"region": r.region, "mode": r.mode, "runs": 0, "cycles": 0, "reason": r.reason})
        d["runs"] += 1
        d["cycles"] += r.cycles
    return [out[k] for k in sorted(out)]


def data_of_report(report, cfg: HardwareConfig, title: str, warm: bool = True, regions: set[int] | None = None, inputs: dict | None = None,
                   notes: tuple[str, ...] = ()) -> dict[str, Any]:  # fmt: skip
    """The page's data for a ``RunReport`` (``regions``: only those regions'
    programs; ``inputs``: the run's arguments, in the L3 at the start when ``warm``).

    The per-command costs are the run's own (``Machine.record_charges``, on when
    the run was made for a view); a run made without them is replayed."""
    import numpy as np

    from infs.runtime.view_data import view_data

    runs = [(r, low.record, params, arrays) for r, low, params, arrays in report.programs]
    if regions is not None:
        known = {r.region for r in report.regions}
        for k in sorted(regions - known):
            raise ViewError(f"--region {k}: the program has regions {', '.join(map(str, sorted(known))) or 'none'}")
    charges = getattr(report.machine, "charges", None)
    if charges is not None and (len(charges) != len(runs) or any(p is not r[1] for (p, _), r in zip(charges, runs))):
        charges = None  # (not one per program run: replayed instead)
    resident = [v for v in inputs.values() if isinstance(v, np.ndarray)] if inputs is not None else None
    return view_data(runs, report.stats, cfg, title, warm, region_rows(report), resident,
                     charges=None if charges is None else [cs for _, cs in charges], only_regions=regions, notes=notes)  # fmt: skip


def write_view(data: dict[str, Any], html: Path | None, png: Path | None) -> None:
    from infs.tools.view_page import render

    for path, write in ((html, lambda p: p.write_text(render(data), encoding="utf-8")), (png, lambda p: render_png(data, p))):
        if path is None:
            continue
        try:
            write(path)
        except OSError as e:  # (a failed write, ENOSPC, names no file: the path it was writing)
            raise ViewError(f"cannot write '{e.filename or path}': {e.strerror or e}") from None


# ---------------------------------------------------------------------------
# PNG (matplotlib, from the same data)
# ---------------------------------------------------------------------------

_PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#edc948", "#76b7b2", "#ff9da7", "#9c755f", "#e15759", "#bab0ac"]
_CAT_COLORS = {"dram": "#8c564b", "jit": "#7f7f7f", "move": "#1f77b4", "compute": "#2ca02c", "final_reduce": "#9467bd", "near_mem": "#ff7f0e", "core": "#d62728"}


def _hex(c: str) -> tuple[float, float, float]:
    return tuple(int(c[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def _blends(c: dict[str, Any], k: int) -> bool:
    """Whether the tile map's blocks are a pixel or two wide (paper-64: 8 x 16 arrays a row)."""
    from infs.runtime.view_data import bank_grid

    return c["mesh_cols"] * bank_grid(c["per_bank"])[1] * k > 100


def tile_image(data: dict[str, Any], prog: dict[str, Any] | None) -> np.ndarray:
    """RGB image of the machine: banks on the mesh, arrays in each bank (a
    ``k x k`` pixel block per array, a gap between banks), each block striped
    by the arrays (tensors) living on its tile (``k``: the most on one tile, <= 4),
    or filled with the blend of their colours when the blocks are too small
    for stripes (``_blends``)."""
    import numpy as np

    from infs.runtime.view_data import bank_grid

    c = data["config"]
    br, bc = bank_grid(c["per_bank"])
    mask = np.zeros(0, np.int64)
    if prog is not None:
        r = prog["tile_arrays"]
        mask = np.repeat(np.asarray(r[0::2], np.int64), np.asarray(r[1::2], np.int64))
    bits = (mask[:, None] >> np.arange(30)[None, :]) & 1
    k = int(min(4, max(1, bits.sum(axis=1).max(initial=1))))
    h, w = c["mesh_rows"] * (br * k + 1) + 1, c["mesh_cols"] * (bc * k + 1) + 1
    img = np.ones((h, w, 3))
    t = np.arange(c["banks"] * c["per_bank"])
    bank, arr = t // c["per_bank"], t % c["per_bank"]
    y0 = 1 + (bank // c["mesh_cols"]) * (br * k + 1) + (arr // bc) * k
    x0 = 1 + (bank % c["mesh_cols"]) * (bc * k + 1) + (arr % bc) * k
    colors = np.array([_hex(_PALETTE[j % len(_PALETTE)]) for j in range(30)] + [(0.9, 0.9, 0.9), (0.965, 0.965, 0.965)])
    n = mask.size
    # per tile, the stripe colours: its arrays in order, repeated to fill k stripes
    stripe = np.full((t.size, k), 31, np.int64)  # 31: an unused array
    if n:
        order = np.where(bits == 1, np.arange(30)[None, :], 99)
        order.sort(axis=1)
        cnt = bits.sum(axis=1)
        for j in range(k):
            pick = np.where(cnt > 0, order[np.arange(n), j % np.maximum(cnt, 1)], 30)  # 30: no tensor
            stripe[:n, j] = pick
    if _blends(c, k):
        # a tile a pixel or two wide: stripes would read as texture; the blend of
        # its tensors' colours reads as an area (as on the page)
        px = colors[stripe].mean(axis=1)
        for dy in range(k):
            for j in range(k):
                img[y0 + dy, x0 + j] = px
        return img
    for dy in range(k):
        for j in range(k):
            img[y0 + dy, x0 + j] = colors[stripe[:, j]]
    return img


def render_png(data: dict[str, Any], path: Path) -> None:
    import numpy as np

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection

    c = data["config"]
    prog = data["programs"][0] if data["programs"] else None
    fig = plt.figure(figsize=(15, 5.6), dpi=100)
    gs = fig.add_gridspec(2, 3, height_ratios=[5, 1.2])
    fig.suptitle(f"{data['title']} on {c['name']}: {data['run']['total_cycles']:,} cycles", fontsize=12)
    # the tile map
    ax = fig.add_subplot(gs[0, 0])
    ax.imshow(tile_image(data, prog), interpolation="nearest")
    ax.set_title(f"tiles on {c['mesh_rows']}x{c['mesh_cols']} banks x {c['per_bank']} arrays" + (f" (program {prog['id']})" if prog else "\n(no program ran in memory)"), fontsize=10)
    ax.set_xticks([])
    ax.set_yticks([])
    if prog is not None:
        n = len(prog["arrays"])
        handles = [plt.Rectangle((0, 0), 1, 1, color=_PALETTE[j % len(_PALETTE)]) for j in range(n)]
        names = [f"%{a['name']} {'x'.join(map(str, a['shape']))}" for a in prog["arrays"]]
        if n > 1 and _blends(c, 2):  # (a tile holding several tensors is their blend)
            handles.append(plt.Rectangle((0, 0), 1, 1, color=np.mean([_hex(_PALETTE[j % len(_PALETTE)]) for j in range(min(n, 4))], axis=0)))
            names.append("several (blend)")
        ax.legend(handles, names, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.01), ncol=3, frameon=False)
    # the NoC heat map
    ax = fig.add_subplot(gs[0, 1])
    rows, cols = c["mesh_rows"], c["mesh_cols"]
    lb = np.asarray(data["run"]["link_bytes"], dtype=float).reshape(4, rows, cols)
    segs, vals = [], []
    o = 0.08
    for d in range(4):
        for y in range(rows):
            for x in range(cols):
                if d < 2 and x + 1 < cols:
                    yy = y - o if d == 0 else y + o
                    segs.append([(x + 0.25, yy), (x + 0.75, yy)] if d == 0 else [(x + 0.75, yy), (x + 0.25, yy)])
                elif d >= 2 and y + 1 < rows:
                    xx = x + o if d == 2 else x - o
                    segs.append([(xx, y + 0.25), (xx, y + 0.75)])
                else:
                    continue
                vals.append(lb[d, y, x])
    vals_a = np.asarray(vals)
    hot = vals_a > 0
    # links without traffic in light grey, as on the page
    ax.add_collection(LineCollection([sg for sg, h in zip(segs, hot) if not h], colors="#dddddd", linewidths=1.0))
    lc = LineCollection([sg for sg, h in zip(segs, hot) if h], cmap="viridis", linewidths=3.0)
    lc.set_array(vals_a[hot])
    lc.set_clim(0, max(1.0, float(vals_a.max(initial=0))))
    ax.add_collection(lc)
    busy = np.asarray(data["run"]["bank_busy"], dtype=float)
    sc = ax.scatter(np.arange(c["banks"]) % cols, np.arange(c["banks"]) // cols, c=busy, cmap="Oranges", marker="s", s=max(20, 2400 / max(rows, cols) ** 1.3), edgecolors="#666", vmin=0, vmax=max(1.0, float(busy.max(initial=0))))
    ax.set_xlim(-0.6, cols - 0.4)
    ax.set_ylim(rows - 0.4, -0.6)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(f"NoC: {vals_a.sum():,.0f} byte-hops; banks: busy cycles", fontsize=10)
    fig.colorbar(lc, ax=ax, fraction=0.046, pad=0.02, label="bytes per link")
    fig.colorbar(sc, ax=ax, fraction=0.046, pad=0.08, label="bank busy cycles", location="left")
    # the cycle breakdown
    ax = fig.add_subplot(gs[0, 2])
    cyc = data["run"]["cycles"]
    keys = [k for k in _CAT_COLORS if cyc.get(k, 0)] or list(_CAT_COLORS)
    ax.barh(keys[::-1], [cyc.get(k, 0) for k in keys[::-1]], color=[_CAT_COLORS[k] for k in keys[::-1]])
    tot = max(1, data["run"]["total_cycles"])
    for i, k in enumerate(keys[::-1]):
        ax.text(cyc.get(k, 0), i, f" {cyc.get(k, 0):,} ({100 * cyc.get(k, 0) / tot:.1f}%)", va="center", fontsize=8)
    ax.set_title("cycles (Fig. 14 breakdown)", fontsize=10)
    ax.margins(x=0.35)
    ax = fig.add_subplot(gs[1, :])
    left = 0
    for k, col in _CAT_COLORS.items():
        v = cyc.get(k, 0) / tot
        if v > 0:
            ax.barh([0], [v], left=left, color=col, label=k)
            left += v
    ax.set_xlim(0, 1)
    ax.set_yticks([])
    ax.legend(ncol=7, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.35), frameon=False)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------


# infs-view's flags that say how to run a program: a file of lowered pimcmd.programs
# has nothing to run that way (its programs are already lowered, for given sizes)
_RUN_FLAGS = (("entry", "--entry"), ("sizes", "--sizes"), ("scalar", "--scalar"), ("size_set", "--size-set"), ("shape", "--shape"),
              ("input", "--input"), ("tiles", "--tiles"), ("no_jit_charge", "--no-jit-charge"))  # fmt: skip


def _pimcmd_data(module, path: Path, args: argparse.Namespace, title: str) -> dict[str, Any]:
    """The page of a file of ``pimcmd.program`` ops (each run once; the arrays in
    the L3 unless ``--cold``); ``--region K`` keeps program K (in file order)."""
    from infs.hardware import load_config
    from infs.runtime.view_data import view_data
    from infs.sim import SimError

    from infs.dialects import pimcmd as pc
    from infs.dialects.pimcmd_records_ir import from_op
    from infs.element_types import ELEMENT_DTYPES
    from infs.runtime.host import phantom_array

    for attr, flag in _RUN_FLAGS:
        if getattr(args, attr):
            raise ViewError(f"{flag} applies to a program that runs; '{path}' holds lowered pimcmd.programs, viewed as they are")
    if args.mode != "in":
        raise ViewError(f"--mode {args.mode}: '{path}' holds lowered pimcmd.programs, which run in memory as they are")
    progs = [op for op in module.walk() if isinstance(op, pc.ProgramOp)]
    recs = [from_op(op) for op in progs]
    for k in sorted(set(args.region or ()) - set(range(len(recs)))):
        raise ViewError(f"--region {k}: '{path}' holds {len(recs)} pimcmd.program(s), numbered 0 to {len(recs) - 1}")
    for k, rec in enumerate(recs):
        if rec.virtual:
            raise ViewError(f"{path}: pimcmd.program {k} is virtual (no wordlines allocated): lower it through allocate-wordlines (--lower-pim)")
    names = {rec.config for rec in recs}
    if args.config is None and len(names) > 1:
        raise ViewError(f"{path}: the programs are for different machines ({', '.join(sorted(names))}); give --config")
    cfg = load_config(args.config or recs[0].config)
    for k, rec in enumerate(recs):
        # (the machine's own checks, before the view sizes its pictures by the machine)
        if rec.bitlines != cfg.bitlines or rec.banks != cfg.banks or rec.per_bank != cfg.arrays_per_bank or rec.wordlines > cfg.wordlines:
            raise ViewError(f"{path}: pimcmd.program {k} (for '{rec.config}': {rec.banks} banks x {rec.per_bank} arrays of {rec.bitlines} bitlines, "
                            f"{rec.wordlines} wordlines) does not run on machine '{cfg.name}' ({cfg.banks} x {cfg.arrays_per_bank} of {cfg.bitlines}, "
                            f"{cfg.wordlines} wordlines)")  # fmt: skip
    runs = []
    for k, rec in enumerate(recs):
        if args.region and k not in args.region:
            continue
        arrays = {c["arr"]: phantom_array(c["shape"], ELEMENT_DTYPES[rec.element(c["arr"])]) for c in rec.arrays()}
        runs.append((k, rec, [0] * len(rec.scalar_types), arrays))
    try:
        return view_data(runs, None, cfg, title, warm=not args.cold)
    except SimError as e:
        raise ViewError(f"{path}: {str(e).strip().splitlines()[0]}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=PROG, description="Draw a program's layout, commands, NoC traffic and cycles as an HTML page (and a PNG).")
    parser.add_argument("file")
    parser.add_argument("--version", action=VersionAction, help="print infs's and xDSL's versions and exit")
    parser.add_argument("-o", "--output", default=None, help="the HTML page to write (default: FILE's name with .html, here)")
    parser.add_argument("--png", help="also draw the tile map, NoC heat map and cycle breakdown into this PNG")
    parser.add_argument("--region", type=int, action="append", help="only this region's programs (repeatable; default: all)")
    parser.add_argument("--entry", help="function to run (default: the only public one)")
    parser.add_argument("--config", default=None, help="hardware config name or TOML/JSON file (default paper-64; a pimcmd file: its programs' own)")
    parser.add_argument("--mode", default="in", choices=["auto", "in", "near", "core"], help="where regions run (default in: the view is about in-memory programs)")
    parser.add_argument("--sizes", action="append", help="N=64,M=32 (index arguments / workload sizes)")
    parser.add_argument("--scalar", action="append", help="NAME=VALUE for scalar arguments")
    parser.add_argument("--size-set", choices=["small", "paper"], help="workload size set (workloads of infs/workloads only)")
    parser.add_argument("--shape", action="append", help="NAME=AxB for dynamic array shapes")
    parser.add_argument("--input", action="append", help="NAME=file.npy (only its shape is read)")
    parser.add_argument("--tiles", help="force the tile shape, e.g. 16x16")
    parser.add_argument("--no-jit-charge", action="store_true", help="do not charge JIT cycles")
    parser.add_argument("--cold", action="store_true", help="inputs start in DRAM")

    errors_in_one_line(parser, PROG)
    args = parser.parse_args(argv)
    from infs.hardware import load_config
    from infs.tools import runner

    # what infs-run's argument builder reads, for a timing-only run
    args.seed, args.check, args.analysis, args.json, args.save_outputs, args.strict = 0, False, True, True, None, False
    args.record_charges = True  # the run keeps each command's costs: the page draws them (no replay)
    try:
        path = runner.program_path(args.file)  # a file, or a named workload (nsc/pr_pull)
        html = check_output(args.output if args.output is not None else path.stem + ".html", "-o")
        png = check_output(args.png, "--png") if args.png is not None else None
        module = runner.parse_program(path)
        title = path.name
        names = {op.name for op in module.walk()}
        if not names & {"stream.region", "tdfg.graph"} and "pimcmd.program" in names:
            data = _pimcmd_data(module, path, args, title)
        else:
            # what infs-run runs, infs-view shows: stream regions, graphs tensorized ahead of
            # time, and plain affine/scf/linalg loops (through extract-streams, as infs-run)
            from infs.passes.extract_streams import has_plain_loops

            # a program with nothing to offload still runs (on the host): its page says so
            notes: tuple[str, ...] = ()
            if not names & {"stream.region", "tdfg.graph"} and not has_plain_loops(module):
                notes = (f"{path.name} has no stream.region, no loop nest and no pimcmd.program: nothing to offload, the host ran all of it",)
            args.config = args.config or "paper-64"
            cfg = load_config(args.config)
            fn = runner.find_function(module, args.entry)
            if not notes:
                runner.extract_plain_loops(module, path)
            if args.mode in ("near", "core") and (args.tiles or args.no_jit_charge):
                raise ViewError(f"{'--tiles' if args.tiles else '--no-jit-charge'} applies to in-memory execution; --mode {args.mode} runs nothing in memory")
            out = runner.run_once(module, path, fn, args, args.mode, None)
            s = runner.summary(out, cfg.freq_ghz)
            for f in s["not_honoured"]:
                print(f"{PROG}: warning: region {f['region']}: --mode {args.mode} not honoured, ran {f['ran']}: {f['reason']}", file=sys.stderr)
            data = data_of_report(out["report"], cfg, title, not args.cold, set(args.region) if args.region else None, out["values"], notes)
        write_view(data, html, png)
    except (ViewError, UsageError) as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, Exception) as e:
        return report_failure(PROG, e, args.file)
    n = len(data["programs"])
    print(f"{PROG}: wrote {html}" + (f" and {png}" if png else "") + f" ({n} in-memory program{'s' if n != 1 else ''}, {sum(len(p['cmds']) for p in data['programs']):,} commands)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
