"""Quantified causes of the gaps between the paper's numbers and ours (REPRODUCTION.md).

Takes a ``Check``: one number of the paper, ours, and how ours is computed from the runs
(``metric`` over ``table``, name -> configuration -> run row, as ``infs-bench`` writes them).
Gives, for a check whose ours / paper is outside 0.8-1.25, a sentence computed from the runs:

* which single statistic of one configuration (a cycle category, a NoC traffic kind or an
  energy class) would have to be scaled, all else equal, for ours to equal the paper's, by
  how much, what share of that configuration's total it is, and what ours would be without
  it -- the category needing the smallest change is named, with the model component that
  charges it;
* which benchmark pulls ours furthest from the paper's: ours without it.

Both are counterfactuals on the recorded statistics (no run is repeated): they say where
the difference sits in our model, not that the paper's model differs there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

# "close to the paper": the band the headline table has always used
CLOSE = (0.8, 1.25)


def _keys(family: str) -> tuple[str, str, tuple[str, ...]]:
    """family -> (column prefix, total column, keys).  Traffic is the NoC's (what Fig. 12
    and ``noc_traffic`` count: byte-hops of inter-tile moves, data and control)."""
    from infs.sim.stats import CYCLE_KEYS, ENERGY_KEYS

    return {
        "cycles": ("cyc_", "total_cycles", CYCLE_KEYS),
        "traffic": ("traffic_", "noc_traffic", ("noc_inter_tile", "noc_data", "noc_control")),
        "energy": ("energy_", "energy_pj", ENERGY_KEYS),
    }[family]


def _num(r: dict, k: str) -> float:
    v = r.get(k, 0.0)
    try:
        return float(v or 0.0)
    except (TypeError, ValueError):
        return 0.0


def scaled(row: dict, family: str, key: str, f: float) -> dict:
    """``row`` with statistic ``key`` of ``family`` times ``f`` and the family's total adjusted."""
    pre, tot, _ = _keys(family)
    v = _num(row, pre + key)
    out = dict(row)
    out[pre + key] = v * f
    out[tot] = _num(row, tot) + (f - 1.0) * v
    return out


def perturb(table: dict[str, dict[str, dict]], config: str, family: str, key: str, f: float) -> dict[str, dict[str, dict]]:
    return {b: {c: (scaled(r, family, key, f) if c == config else r) for c, r in cs.items()} for b, cs in table.items()}


def _safe(metric: Callable[[dict], Any], table: dict) -> float | None:
    try:
        v = metric(table)
    except (ZeroDivisionError, ValueError, KeyError):
        return None
    return float(v) if v is not None and isinstance(v, int | float) and math.isfinite(v) else None


def solve_scale(metric: Callable[[dict], Any], table: dict, config: str, family: str, key: str, target: float,
                lo: float = 1e-3, hi: float = 1e3) -> float | None:  # fmt: skip
    """The factor ``f`` on ``key`` of ``config`` (every benchmark alike) for which the metric
    equals ``target``; None if no factor in [lo, hi] reaches it (bisection in log f: each
    metric here is monotone in one statistic)."""

    def g(f):
        v = _safe(metric, perturb(table, config, family, key, f))
        return None if v is None else v - target

    a, b = math.log(lo), math.log(hi)
    ga, gb = g(lo), g(hi)
    if ga is None or gb is None or ga * gb > 0:
        return None
    for _ in range(60):
        m = (a + b) / 2
        gm = g(math.exp(m))
        if gm is None:
            return None
        if (gm > 0) == (ga > 0):
            a, ga = m, gm
        else:
            b = m
    return math.exp((a + b) / 2)


def share(table: dict[str, dict[str, dict]], config: str, family: str, key: str) -> float:
    """Mean over the table's benchmarks of ``key``'s share of ``config``'s total."""
    pre, tot, _ = _keys(family)
    xs = [_num(cs[config], pre + key) / _num(cs[config], tot) for cs in table.values() if config in cs and _num(cs[config], tot) > 0]
    return sum(xs) / len(xs) if xs else 0.0


@dataclass
class Check:
    """One number of the paper against ours.  ``metric(table)`` recomputes ours from the
    rows (so that the counterfactuals can perturb them); ``scan`` the (configuration,
    family) pairs whose statistics may explain a gap; ``fmt`` formats paper and ours;
    ``agrees`` for a qualitative number (the paper says "most", "wins"): True/False."""

    fig: str
    what: str
    key: str
    paper: float | None
    ours: float | None
    fmt: str = "{:.2f}x"
    paper_fmt: str | None = None
    table: dict[str, dict[str, dict]] = field(default_factory=dict)
    metric: Callable[[dict], Any] | None = None
    scan: Sequence[tuple[str, str]] = ()
    labels: dict[str, str] = field(default_factory=dict)  # configuration -> its name in the text
    agrees: bool | None = None
    note: str = ""
    own: Sequence[str] = ()  # the statistics the number is a share of: a cause names them first  # computed facts the cause starts with (e.g. which benchmark the max is)

    @property
    def ratio(self) -> float | None:
        o, p = self.ours, self.paper
        if o is None or not p or not isinstance(o, int | float) or not math.isfinite(o):
            return None
        return o / p

    @property
    def gap(self) -> bool:
        if self.agrees is not None:
            return not self.agrees
        r = self.ratio
        return r is not None and not CLOSE[0] <= r <= CLOSE[1]

    def cell(self, v: float | None, fmt: str | None = None) -> str:
        if v is None or (isinstance(v, float) and not math.isfinite(v)):
            return "n/a"
        return (fmt or self.fmt).format(v)

    def md(self) -> str:
        """The table row: figure, quantity, paper, ours, ours / paper (or agrees/disagrees)."""
        p = "-" if self.paper is None else self.cell(self.paper, self.paper_fmt)
        if self.agrees is not None:
            last = "agrees" if self.agrees else "**disagrees**"
        else:
            last = "n/a" if self.ratio is None else f"{self.ratio:.2f}"
        return f"| {self.fig} | {self.what} | {p} | {self.cell(self.ours)} | {last} |"

    def cause(self) -> str:
        """The generated, quantified cause of the gap (``quantified_cause``)."""
        return quantified_cause(self)


def _label(chk: Check, c: str) -> str:
    if c in chk.labels:
        return chk.labels[c]
    from infs.tools.bench_defs import CONFIGS

    return CONFIGS[c][0] if c in CONFIGS else c


def _component(family: str, key: str) -> str:
    from infs.tools.bench_defs import COMPONENT, energy_classes

    if family == "cycles":
        return COMPONENT.get(key, "")
    if family == "energy":
        return f"charged by {energy_classes().get(key, 'the machine')}"
    return {"noc_inter_tile": "inter-tile moves crossing banks (`timing.py` `shift`)",
            "noc_data": "DRAM, near-memory and core data on the mesh (`infs/noc.py`)",
            "noc_control": "commands, syncs, stream configuration and flow control (`control_bytes`, `se_sync_lines`)"}.get(key, "")  # fmt: skip


def quantified_cause(chk: Check) -> str:
    """Where ours departs from the paper, computed from the rows (module docstring)."""
    fmt = lambda v: chk.cell(v)  # noqa: E731
    parts: list[str] = [chk.note] if chk.note else []
    if chk.metric is None or chk.paper is None or chk.ours is None or not chk.table:
        return " ".join(parts)
    target = chk.paper
    cands = []
    for c, fam in chk.scan:
        _, _, keys = _keys(fam)
        for k in keys:
            s = share(chk.table, c, fam, k)
            if s <= 0:
                continue
            f = solve_scale(chk.metric, chk.table, c, fam, k, target)
            if f is not None:
                cands.append((k not in chk.own, abs(math.log(f)), c, fam, k, f, s))
    if cands:
        _, _, c, fam, k, f, s = min(cands)
        without = _safe(chk.metric, perturb(chk.table, c, fam, k, 0.0))
        what = {"cycles": "cycles", "traffic": "NoC byte-hops", "energy": "energy"}[fam]
        n = sum(1 for cs in chk.table.values() if c in cs)
        comp = _component(fam, k)
        line = (f"`{k}` is {s:.1%} of {_label(chk, c)}'s {what} (mean over {n} run(s)){f' ({comp})' if comp else ''}; "
                f"ours equals the paper's {fmt(target)} with it at {f:.3g}x the model's charge, all else equal")  # fmt: skip
        if without is not None and f < 1 and k not in chk.own:  # (a share without its own statistic is 0)
            line += f" (without it: {fmt(without)})"
        if fam == "cycles" and k == "jit":
            line += f" ({f * _jit_rate(chk.table, c):,.0f} cycles per lowered command instead of {_jit_rate(chk.table, c):,})"
        parts.append(line + ".")
        gone = _removal(chk, target, exclude=(c, fam, k))
        if gone:
            parts.append(gone)
        others = sorted(x for x in cands if x[2:5] != (c, fam, k))[:2]
        if others:
            parts.append("Next: " + "; ".join(f"{_label(chk, c2)}'s `{k2}` ({s2:.1%}) at {f2:.3g}x" for _, _, c2, _, k2, f2, s2 in others) + ".")
    elif chk.scan:
        gone = _removal(chk, target)
        if gone:
            parts.append(gone)
        parts.append("No single statistic of " + ", ".join(dict.fromkeys(_label(chk, c) for c, _ in chk.scan))
                     + f" reaches the paper's {fmt(target)} when scaled between 0.001x and 1000x.")  # fmt: skip
    parts += [x for x in (_regions_note(chk, c) for c in dict.fromkeys(c for c, _ in chk.scan)) if x]
    if len(chk.table) > 1:
        loo = []
        for b in chk.table:
            v = _safe(chk.metric, {k: v for k, v in chk.table.items() if k != b})
            if v is not None and chk.ours and v > 0 and chk.ours > 0:
                loo.append((abs(math.log(max(v, 1e-12) / target)), b, v))
        if loo:
            _, b, v = min(loo)
            if abs(math.log(max(v, 1e-12) / target)) < abs(math.log(max(chk.ours, 1e-12) / target)):
                parts.append(f"Without {b}, ours would be {fmt(v)} (of {len(chk.table)} benchmarks, the one furthest from the paper's).")
    return " ".join(parts)


def _regions_note(chk: Check, config: str) -> str:
    """For a configuration that decides per region (runtime mode ``auto``): how many of its region
    calls ran in memory, when not all did (a share of in-memory cycles follows it)."""
    rs = [cs[config] for cs in chk.table.values() if config in cs]
    if not rs or any(r.get("mode") != "auto" for r in rs):
        return ""
    n = sum(int(_num(r, "regions")) for r in rs)
    i, nr, co = (sum(int(_num(r, k)) for r in rs) for k in ("regions_in", "regions_near", "regions_core"))
    if not n or i == n:
        return ""
    el = sum(_num(r, "elements_in_memory_fraction") for r in rs) / len(rs)
    return (f"{_label(chk, config)} ran {i:,} of its {n:,} region calls in memory (in/near/core {i:,}/{nr:,}/{co:,}, "
            f"{el:.0%} of the elements, mean), as Eq. 2 decided.")


def _jit_rate(table: dict[str, dict[str, dict]], config: str) -> int:
    """Cycles per lowered command the runs of ``config`` were charged (their machine's JIT model)."""
    from infs.hardware import load_config

    r = next((cs[config] for cs in table.values() if config in cs), {})
    return load_config("paper-64", jit_model=str(r.get("jit_model") or "per-command")).jit_command_cycles


def _bulk(table: dict[str, dict[str, dict]], config: str, family: str, key: str) -> bool:
    """Whether ``key`` is nearly all (over 95%) of some run's total: removing it removes the run."""
    pre, tot, _ = _keys(family)
    return any(_num(cs[config], pre + key) > 0.95 * _num(cs[config], tot) for cs in table.values() if config in cs)


def _removal(chk: Check, target: float, exclude: tuple = ()) -> str:
    """The statistic whose removal (every benchmark alike) brings ours closest to the paper's,
    at least halfway (in log) from ours: "without it ours would be y".  A statistic that is
    nearly all of some run is left out (without it there is no run)."""
    here = abs(math.log(max(chk.ours, 1e-12) / target)) if chk.ours and chk.ours > 0 and target > 0 else None
    if here is None:
        return ""
    best = None
    for c, fam in chk.scan:
        for k in _keys(fam)[2]:
            s = share(chk.table, c, fam, k)
            if s <= 0 or (c, fam, k) == exclude or _bulk(chk.table, c, fam, k):
                continue
            v = _safe(chk.metric, perturb(chk.table, c, fam, k, 0.0))
            if v is not None and v > 0:
                d = abs(math.log(v / target))
                if d < here / 2 and (best is None or d < best[0]):
                    best = (d, c, fam, k, s, v)
    if best is None:
        return ""
    _, c, fam, k, s, v = best
    what = {"cycles": "cycles", "traffic": "NoC byte-hops", "energy": "energy"}[fam]
    return f"Without {_label(chk, c)}'s `{k}` ({s:.1%} of its {what}), ours would be {chk.cell(v)}."


# ---------------------------------------------------------------------------------
# metrics over a table (name -> configuration -> row), as ``bench_report.headline`` computes them
# ---------------------------------------------------------------------------------


def geo(xs) -> float | None:
    xs = [x for x in xs if x and x > 0 and math.isfinite(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def speedup_geo(num: str, den: str, key: str = "total_cycles") -> Callable[[dict], float | None]:
    """Geomean over the table of den / num (num's speedup over den)."""
    return lambda t: geo(_num(cs[den], key) / _num(cs[num], key) for cs in t.values() if num in cs and den in cs and _num(cs[num], key) > 0)


def cut_geo(num: str, den: str, key: str = "noc_traffic") -> Callable[[dict], float | None]:
    """1 - geomean of num / den (Fig. 12's traffic cut)."""

    def m(t):
        g = geo(max(_num(cs[num], key) / _num(cs[den], key), 1e-9) for cs in t.values() if num in cs and den in cs and _num(cs[den], key) > 0)
        return None if g is None else 1 - g

    return m


def mean_share(config: str, keys: Sequence[str], family: str = "cycles") -> Callable[[dict], float | None]:
    """Mean over the table of the keys' summed share of the configuration's total."""
    pre, tot, _ = _keys(family)

    def m(t):
        xs = [sum(_num(cs[config], pre + k) for k in keys) / _num(cs[config], tot) for cs in t.values() if config in cs and _num(cs[config], tot) > 0]
        return sum(xs) / len(xs) if xs else None

    return m


def ratio_of(num: str, den: str, key: str) -> Callable[[dict], float | None]:
    """num's ``key`` over den's, geomean over the table (one row: the ratio itself)."""
    return lambda t: geo(_num(cs[num], key) / _num(cs[den], key) for cs in t.values() if num in cs and den in cs and _num(cs[den], key) > 0)
