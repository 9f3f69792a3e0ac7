"""Simulation statistics, broken down as the paper's figures (ASPLOS §8).

* ``cycles`` (Fig. 14): ``dram`` (transfer + transpose from/to DRAM), ``jit``
  (lowering, charged by the runtime), ``move`` (tensor moves: shifts,
  broadcasts, and the syncs that wait for them), ``compute`` (bit-serial
  compute), ``final_reduce`` (reading partial results out to the near-memory
  stream engines), ``near_mem`` (pure near-memory streams: the NSC model,
  ``near.py``), ``core`` (regions run on the cores: the Base model,
  ``core.py``).  ``total_cycles`` is their sum: every command's latency is charged
  to exactly one category.
* ``traffic`` (Fig. 12/13): ``intra_tile`` and ``inter_tile`` bytes moved
  inside an SRAM array / between arrays (H-tree, including those that then
  cross the NoC), ``noc_inter_tile`` bytes x hops of inter-tile moves that
  cross banks, ``noc_data`` bytes x hops of DRAM data, ``noc_control`` bytes x
  hops of commands and sync messages (and of stream configuration, flow
  control and request headers near memory / on the cores), and ``readout``
  bytes read out.  Near-memory and core data (operand forwarding, L3 to core
  lines) are ``noc_data``.
* ``energy_pj`` per op class (``energy.py``), and ``static``: the chip's
  leakage over every cycle charged (``HardwareConfig.static_pj_per_cycle``).
* ``commands`` per op name, ``element_ops`` (cell-ops computed in memory),
  ``link_bytes`` (data bytes per directed mesh link, ``noc.Mesh`` layout: inter-tile
  moves, DRAM and near-memory data; control messages are only in ``noc_control``).
* bit-level mode only: ``bit_steps`` (row reads, row writes, logic steps of the
  bit-serial algorithms) and ``bitlevel_fallbacks`` (f32 arithmetic/compare
  commands executed word-level).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

CYCLE_KEYS = ("dram", "jit", "move", "compute", "final_reduce", "near_mem", "core")
TRAFFIC_KEYS = ("intra_tile", "inter_tile", "noc_inter_tile", "noc_data", "noc_control", "readout")
ENERGY_KEYS = ("compute", "intra_tile", "inter_tile", "noc", "dram", "readout", "static")


@dataclass
class Cost:
    """What one command costs (independent of the data: analysis == functional)."""

    category: str
    cycles: int = 0  # synchronous latency at the banks
    async_cycles: int = 0  # extra cycles until inter-bank data has arrived (waited for by sync)
    traffic: dict[str, float] = field(default_factory=dict)
    quantities: dict[str, float] = field(default_factory=dict)  # inputs of the energy model
    link_loads: np.ndarray | None = None
    element_ops: int = 0
    sync_pairs: np.ndarray | None = None  # (src bank, dst bank) pairs a later sync must settle
    # ``energy.energy_pj`` of ``quantities``, filled by the machine when it first
    # charges the cost (a cost is not changed once charged; plans reuse theirs)
    energy: dict[str, float] | None = field(default=None, repr=False, compare=False)


@dataclass
class Stats:
    cycles: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CYCLE_KEYS, 0))
    traffic: dict[str, float] = field(default_factory=lambda: dict.fromkeys(TRAFFIC_KEYS, 0.0))
    energy_pj: dict[str, float] = field(default_factory=lambda: dict.fromkeys(ENERGY_KEYS, 0.0))
    commands: dict[str, int] = field(default_factory=dict)
    element_ops: int = 0
    link_bytes: np.ndarray | None = None
    bit_steps: dict[str, int] = field(default_factory=lambda: {"reads": 0, "writes": 0, "logic": 0})
    bitlevel_fallbacks: int = 0

    @property
    def total_cycles(self) -> int:
        return int(sum(self.cycles.values()))

    @property
    def total_energy_pj(self) -> float:
        return float(sum(self.energy_pj.values()))

    @property
    def noc_byte_hops(self) -> float:
        return float(self.link_bytes.sum()) if self.link_bytes is not None else 0.0

    def seconds(self, freq_ghz: float) -> float:
        return self.total_cycles / (freq_ghz * 1e9)

    def breakdown(self) -> dict[str, float]:
        """Fraction of total cycles per category (Fig. 14)."""
        tot = self.total_cycles
        return {k: (v / tot if tot else 0.0) for k, v in self.cycles.items()}

    def count(self, name: str, n: int = 1) -> None:
        self.commands[name] = self.commands.get(name, 0) + n

    def add_links(self, loads: np.ndarray | None) -> None:
        if loads is None:
            return
        if self.link_bytes is None:
            self.link_bytes = np.zeros_like(loads)
        self.link_bytes += loads

    def copy(self) -> "Stats":
        return Stats(dict(self.cycles), dict(self.traffic), dict(self.energy_pj), dict(self.commands), self.element_ops,
                     None if self.link_bytes is None else self.link_bytes.copy(), dict(self.bit_steps), self.bitlevel_fallbacks)  # fmt: skip

    def merge(self, other: "Stats") -> None:
        for k, v in other.cycles.items():
            self.cycles[k] = self.cycles.get(k, 0) + v
        for k, v in other.traffic.items():
            self.traffic[k] = self.traffic.get(k, 0.0) + v
        for k, v in other.energy_pj.items():
            self.energy_pj[k] = self.energy_pj.get(k, 0.0) + v
        for k, v in other.commands.items():
            self.count(k, v)
        self.element_ops += other.element_ops
        self.add_links(other.link_bytes)
        for k, v in other.bit_steps.items():
            self.bit_steps[k] = self.bit_steps.get(k, 0) + v
        self.bitlevel_fallbacks += other.bitlevel_fallbacks

    def to_dict(self, with_bitlevel: bool = True) -> dict:
        d = {
            "cycles": dict(self.cycles),
            "total_cycles": self.total_cycles,
            "traffic": dict(self.traffic),
            "energy_pj": dict(self.energy_pj),
            "commands": dict(sorted(self.commands.items())),
            "element_ops": self.element_ops,
            "noc_byte_hops": self.noc_byte_hops,
            "link_bytes": None if self.link_bytes is None else self.link_bytes.tolist(),
        }
        if with_bitlevel:
            d["bit_steps"] = dict(self.bit_steps)
            d["bitlevel_fallbacks"] = self.bitlevel_fallbacks
        return d

    def same_costs(self, other: "Stats") -> bool:
        """Equal timing, traffic and energy (what analysis mode must reproduce)."""
        return self.to_dict(with_bitlevel=False) == other.to_dict(with_bitlevel=False)
