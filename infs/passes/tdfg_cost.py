"""What a tensor dataflow graph costs, for ``optimize-tdfg`` (ASPLOS §3.2, Eq. 3-9's extraction).

Takes a ``tdfg.graph`` (or a node's op, element type and operands) and a
machine; gives the architecture-informed latency the extraction minimizes
(``CostModel``: computes priced with the hardware cost profile's
``compute_cycles`` plus the JIT's per-command charge, moves as the intra-tile
shift plus an inter-tile transfer and its synchronization, broadcasts
likewise), the graph's own cost under that model (``original_cost``), the
tensor registers it keeps live in the lowering's order (``live_registers``)
and the registers the wordlines hold besides its arrays (``register_room``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir import SSAValue

from infs.dialects import tdfg
from infs.dialects.lattice import Affine
from infs.element_types import COMMUTATIVE, ELEMENT_BITS, element_name
from infs.hardware import CostProfile, HardwareConfig, get_profile, load_config

EPS_NODE = 1e-3  # every node with inputs costs something: the best tree is acyclic
EPS_READ = 1e-2  # a read that has an expanded form: prefer the form other nodes can share
REGISTER_PENALTY = 1e9  # per register a DAG needs beyond what fits: more than any cost


def element_of(t) -> str:
    return str(t.element_type) if isinstance(t, tdfg.TensorType) else str(t)


# ---------------------------------------------------------------------------
# The cost model (priced with the hardware cost profile)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CostModel:
    """Latency estimate (cycles) of one tDFG node, from ``infs.hardware`` (see module docstring)."""

    cfg: HardwareConfig
    profile: CostProfile

    @staticmethod
    def of(config: str | HardwareConfig) -> "CostModel":
        cfg = load_config(config)
        return CostModel(cfg, get_profile(cfg.profile))

    @property
    def per_command(self) -> float:
        return float(self.cfg.jit_command_cycles)

    @property
    def transfer(self) -> float:
        """Inter-tile part of a move (timing.py ``_inter_tile`` + ``sync``): up and down the
        H-tree, and a barrier round trip between TC_core and the farthest bank."""
        c = self.cfg
        far = (c.mesh_rows - 1) + (c.mesh_cols - 1)
        return 2 * c.htree_levels + 2 * far * c.hop_cycles

    def _nominal(self, e: Affine) -> int:
        # a symbolic distance / count: assume it spans a tile's bitlines
        return abs(e.const) if e.is_constant else self.cfg.bitlines

    def compute(self, op: str, ty: str, const_inputs: Sequence[bool], scalar_only: bool) -> float:
        if all(const_inputs):
            # folded when every input is a literal; runtime scalars alone cannot be lowered
            return math.inf if scalar_only else EPS_NODE
        flags = list(const_inputs)
        if op in COMMUTATIVE and len(flags) == 2 and flags[0] and not flags[1]:
            flags.reverse()
        has_const = flags[-1] and op != "select"
        copies = sum(flags[:-1]) + (1 if flags[-1] and op == "select" else 0)
        cost = self.profile.compute_cycles(op, ty, has_const) + self.per_command
        if copies:
            cost += copies * (self.profile.compute_cycles("copy", ty, True) + self.per_command)
        return float(cost)

    def move(self, ty: str, dist: Affine) -> float:
        return float(ELEMENT_BITS[ty] * max(1, self._nominal(dist)) + self.transfer + self.per_command)

    def broadcast(self, ty: str, count: Affine) -> float:
        return float(ELEMENT_BITS[ty] * max(1, min(self._nominal(count), self.cfg.bitlines)) + self.transfer + self.per_command)


def no_order(_node) -> int:
    """``postorder``'s subtree size where any order of the dependences will do."""
    return 0


def peak_live(spans: Sequence[tuple[int, int]]) -> int:
    """The most ``(first, last)`` position spans that overlap (a span ending where
    another starts overlaps it: the register is read by the op that fills the next)."""
    events = sorted([(a, 1) for a, _b in spans] + [(b, -1) for _a, b in spans], key=lambda e: (e[0], -e[1]))
    live = peak = 0
    for _k, delta in events:
        live += delta
        peak = max(peak, live)
    return peak


def live_registers(graph: tdfg.GraphOp) -> int:
    """The most tensor registers live at once in the lowering's node order (``schedule``):
    computes, moves and broadcasts each fill a register until their last use (a shrink is
    its input's register).  The wordlines hold only a few (§3.4: no spilling), so the pass
    does not accept a graph that needs more of them than the original."""
    from infs.passes.tdfg_domains import schedule

    order = schedule(list(graph.body.block.ops))
    pos = {op: k for k, op in enumerate(order)}
    owner: dict[SSAValue, SSAValue] = {}
    for op in order:
        if isinstance(op, tdfg.ShrinkOp):
            owner[op.result] = owner.get(op.input, op.input)
    last: dict[SSAValue, int] = {}
    for op in order:
        for v in op.operands:
            r = owner.get(v, v)
            last[r] = max(last.get(r, -1), pos[op])
    return peak_live([(pos[op], last[op.results[0]]) for op in order if isinstance(op, (tdfg.CmpOp, tdfg.MvOp, tdfg.BcOp, tdfg.ReduceOp)) and op.results[0] in last])


def register_room(graph: tdfg.GraphOp, model: CostModel) -> int:
    """Registers of the graph's widest element (32 bits at least: an i1 mask is no
    room for another value) a bitline's wordlines hold besides its laid-out arrays;
    a 64-bit graph's room is half a 32-bit one's."""
    from infs.passes.tdfg_domains import laid_out_arrays

    ops = list(graph.body.block.ops)
    widths = [ELEMENT_BITS.get(element_name(r.type.element_type) or "", 32) for op in ops for r in op.results if isinstance(r.type, tdfg.TensorType)]
    return model.cfg.wordlines // max([32, *widths]) - len(laid_out_arrays(ops, graph.array_args))


def original_cost(graph: tdfg.GraphOp, model: CostModel) -> float:
    """The graph's own cost under ``model`` (each live tensor node once)."""
    const: dict[SSAValue, bool] = {}
    scalar: dict[SSAValue, bool] = {}
    total = 0.0
    for op in graph.body.block.ops:
        if isinstance(op, tdfg.ConstOp):
            const[op.result] = True
            scalar[op.result] = op.scalar is not None
        elif isinstance(op, tdfg.CmpOp):
            ins = [const.get(v, False) for v in op.inputs]
            total += model.compute(op.op.data, element_of(op.inputs[-1].type), ins, any(scalar.get(v, False) for v in op.inputs))
            if all(ins):
                const[op.result] = True
        elif isinstance(op, (tdfg.MvOp, tdfg.BcOp, tdfg.ShrinkOp)):
            # a moved, broadcast or shrunk constant is the same constant
            const[op.result] = const.get(op.input, False)
            if const[op.result] or isinstance(op, tdfg.ShrinkOp):
                total += EPS_NODE
            elif isinstance(op, tdfg.MvOp):
                total += model.move(element_of(op.input.type), op.dist.data)
            else:
                total += model.broadcast(element_of(op.input.type), op.count.data)
    return total
