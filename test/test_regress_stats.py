"""Regressions of the reported numbers' consistency (red-team pass on the
statistics): the totals are the sums of their parts, every report of one run
(``api.run``, ``infs-run --json``, ``infs-bench``'s CSV) gives the same
figures, the machine modes and repeated runs agree, and no figure is negative
or NaN.  Each test named after a bug failed before its fix."""

from __future__ import annotations

import contextlib
import io
import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from infs import api
from infs.hardware import load_config
from infs.runtime.driver import RunOptions, run_program
from infs.sim.noc import Mesh
from infs.tools import infs_bench, infs_run
from infs.workloads import WORKLOADS

from strategies import examples, random_region


def _workload_run(name: str, config: str, mode: str = "auto", machine_mode: str = "analysis", warm: bool = True):
    w = WORKLOADS[name]
    sizes = w.sizes("small")
    values = w.make_inputs(sizes, np.random.default_rng(0))
    module = api.parse_file(w.path)
    return run_program(module, w.call_args(values, sizes), w.entry, RunOptions(config=config, mode=mode, machine_mode=machine_mode, warm=warm))


def _consistent(rep, cfg) -> list[str]:
    """Every accounting identity of one run's report; the ones that fail."""
    st, bad = rep.stats, []
    if st.total_cycles != sum(st.cycles.values()):
        bad.append("total cycles != sum of the Fig. 14 categories")
    if rep.machine.cycles != st.total_cycles:
        bad.append(f"machine clock {rep.machine.cycles} != total cycles {st.total_cycles}")
    if sum(r.cycles for r in rep.regions) != st.total_cycles:
        bad.append(f"regions' cycles {sum(r.cycles for r in rep.regions)} != total {st.total_cycles}")
    if not math.isclose(st.total_energy_pj, math.fsum(st.energy_pj.values()), rel_tol=1e-12):
        bad.append("total energy != sum of its classes")
    if not math.isclose(st.energy_pj["static"], st.total_cycles * cfg.static_pj_per_cycle, rel_tol=1e-9, abs_tol=1e-6):
        bad.append("static energy != leakage x total cycles")
    for what, d in (("cycles", st.cycles), ("traffic", st.traffic), ("energy", st.energy_pj)):
        bad += [f"{what} {k} = {v}" for k, v in d.items() if not (math.isfinite(v) and v >= 0)]
    if st.link_bytes is not None and not (np.isfinite(st.link_bytes).all() and (st.link_bytes >= 0).all()):
        bad.append(f"link bytes: min {st.link_bytes.min()}")
    for r in rep.regions:
        bad += [f"region {r.region} {f} < 0" for f in ("cycles", "elements", "graphs", "commands", "dram_hidden") if getattr(r, f) < 0]
    return bad


# ---------------------------------------------------------------------------
# bugs fixed
# ---------------------------------------------------------------------------


def test_bench_csv_keeps_every_figure_exactly():
    """infs-bench's CSV wrote floats with 6 significant digits: a row's energy
    (37,015,873.16 pJ for stencil2d on tiny) read back as 37,015,900, and at paper
    size its traffic (2,640,404,480 byte-hops) as 2,640,400,000 -- not the figures
    infs-run --json and api.run report for the same run."""
    import tempfile
    from pathlib import Path

    w = WORKLOADS["stencil2d"]
    row = infs_bench.run_one(api.parse_file(w.path), w, w.sizes("small"), "infs", False, machine="tiny")
    row["traffic_noc_data"] = 2640404480.0  # a paper-size figure: seven significant digits and more
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "bench.csv"
        infs_bench.write_csv(path, [row])
        back = infs_bench.read_csv(path)[0]
    wrong = {k: (v, back.get(k)) for k, v in row.items() if isinstance(v, (int, float)) and back.get(k) != v}
    assert not wrong, wrong


def test_no_link_carries_negative_bytes():
    """The mesh's per-link loads (a difference array summed along each row and
    column) left -2.3e-13 bytes on links no flow crosses when the flows carry
    fractional bytes (stencil2d on the cores, small-16: 6 links), and
    ``Stats.link_bytes`` (infs-view's NoC heat map) reported them."""
    mesh = Mesh(4, 4, 32, 1)
    src = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8])
    dst = np.array([15, 14, 13, 12, 11, 10, 9, 3, 0])
    loads = mesh.unicast_loads(src, dst, np.array([1 / 3, 2 / 7, 5 / 11, 0.1, 0.7, 1 / 13, 3 / 17, 0.3, 1 / 9]) * 1e3)
    assert (loads >= 0).all(), loads.min()
    rep = _workload_run("stencil2d", "small-16", mode="core")
    assert (rep.stats.link_bytes >= 0).all(), rep.stats.link_bytes.min()
