"""NSC's configurations as one near-memory model (HPCA'22 §VI): which side prices a region.

``near_cost(profile, cfg, cold)`` takes a ``RegionProfile`` and the machine
(``cfg.near_config`` names the configuration) and gives the ``Cost`` of the
region offloaded the way that configuration offloads it, category
``near_mem``.  This is the near-memory model of the runtime (Near-L3, Eq. 2's
near estimate) and of ``infs-bench --suite nsc``:

* NS, NS_no_sync, NS_decouple -- streams and computation at the banks
  (``engine.near_memory_detail``, which adds what separates the three:
  range-sync, its commits and their waits; none; decoupled instances);
* NS_no_comp -- streams offloaded without their computation (Stream Floating
  [68]): the cores compute on the data the SE_L3s push to them
  (``core.core_detail(floated=True)``);
* INST -- iteration-level offload (Omni-Compute [57]): at the banks with one
  request per iteration (engine), except a region with a reduction, which
  "cannot be supported due to fine-grained offloading" (§VI): floated, as
  INST keeps stream prefetching ("INST and SINGLE both benefit from
  stream-based prefetching even when the compute pattern is not supported");
* SINGLE -- single-line functions (Livia [44]), sync-free: at the banks
  (as NS_no_sync) when the region's function touches one data structure
  (``single_line``); indirect atomics fall back to iteration-level offload
  (§VII-B: "SINGLE cannot achieve autonomy on indirect atomics and falls back
  to iteration-level offloading"); multi-operand regions are floated (§VII-B:
  SINGLE "underperforms on the first four workloads, as they are array codes
  that operate on multiple arrays").

``near_detail`` also says which of these the region took (``terms["path"]``).
"""

from __future__ import annotations

from dataclasses import replace

from infs.sim.config import HardwareConfig
from infs.sim.core.baseline import core_detail
from infs.sim.near.engine import near_memory_detail
from infs.sim.stats import Cost
from infs.sim.workload_profile import RegionProfile

# what ``near_detail`` reports a region took
PATHS = ("banks", "floated", "iteration")


def single_line(profile: RegionProfile) -> bool:
    """The region's function touches one data structure (Livia's single-line
    functions, chained): the arrays of its streams but its index streams (the
    affine loads of a region with indirect streams, which chain to them) and its
    reduced results (the final value sent back) are one array at most."""
    live = [s for s in profile.streams if s.accesses]
    has_indirect = any(s.indirect for s in live)
    arrays = {s.array for s in live if not (has_indirect and s.kind == "load" and not s.indirect) and not (s.is_write and s.reduced)}
    return len(arrays) <= 1


_AS_INST: dict[int, tuple[HardwareConfig, HardwareConfig]] = {}


def _as_inst(cfg: HardwareConfig) -> HardwareConfig:
    """``cfg`` with ``near_config = INST``, one object per config (the engine keeps
    its mesh constants per config object)."""
    hit = _AS_INST.get(id(cfg))
    if hit is None or hit[0] is not cfg:
        if len(_AS_INST) > 64:
            _AS_INST.clear()
        hit = _AS_INST[id(cfg)] = (cfg, replace(cfg, near_config="INST"))
    return hit[1]


def _relabel(cost: Cost) -> Cost:
    cost.category = "near_mem"
    return cost


def near_detail(profile: RegionProfile, cfg: HardwareConfig, cold: bool = False) -> tuple[Cost, dict[str, float | str]]:
    """``near_cost`` and its terms (``engine.near_memory_detail``'s or
    ``core.core_detail``'s), with ``path``: ``banks`` (streams and computation at the
    banks), ``floated`` (streams offloaded, computation on the cores) or
    ``iteration`` (one offload per iteration)."""
    c = cfg.near_config
    live = [s for s in profile.streams if s.accesses]
    if c == "NS_no_comp" or (c == "INST" and profile.reductions):
        cost, terms = core_detail(profile, cfg, cold, floated=True)
        return _relabel(cost), {**terms, "path": "floated"}
    if c == "SINGLE":
        if any(s.indirect and s.kind == "atomic" for s in live):
            cost, terms = near_memory_detail(profile, _as_inst(cfg), cold)
            return cost, {**terms, "path": "iteration"}
        if not single_line(profile):
            cost, terms = core_detail(profile, cfg, cold, floated=True)
            return _relabel(cost), {**terms, "path": "floated"}
    cost, terms = near_memory_detail(profile, cfg, cold)
    return cost, {**terms, "path": "iteration" if c == "INST" else "banks"}


def near_cost(profile: RegionProfile, cfg: HardwareConfig, cold: bool = False) -> Cost:
    """Cycles, traffic and energy of ``profile`` offloaded as ``cfg.near_config`` does (module docstring)."""
    return near_detail(profile, cfg, cold)[0]
