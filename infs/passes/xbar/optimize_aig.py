"""``optimize-aig``: technology-independent optimization alone (STREAM §IV-A), comb netlist -> ABC's AIG.

Takes ``hw.module`` ops of ``comb`` logic; gives each as the And-Inverter
Graph ABC makes of it (``strash; resyn2``), in ``comb`` again: ``comb.and``
of two literals, a NOT an XOR with ``true``.  The synthesis passes run this
step themselves; alone it shows the AIG they start from.  Needs ABC.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from infs.dialects import xbar
from infs.dialects.netlist_records import Gate, Netlist
from infs.passes.lowering_errors import LoweringError
from infs.passes.xbar.abc import RESYN2, run_abc
from infs.passes.xbar._common import replace_each
from infs.passes.xbar.netlist_ir import module_kind


def optimized_aig(netlist: Netlist) -> Netlist:
    """ABC's ``strash; resyn2`` of ``netlist``; its outputs keep their names (buffers where ABC renamed)."""
    (aig,) = run_abc(netlist, "read_blif {in}; strash; " + RESYN2 + "; write_blif {out0}")
    # (an output that is a primary input of its name needs nothing: the name is the input)
    extra = tuple(Gate(o, "buf", (s,)) for o, s in zip(netlist.outputs, aig.outputs) if o != s and o not in netlist.inputs)
    return Netlist(netlist.name, netlist.inputs, netlist.outputs, aig.gates + extra)


@dataclass(frozen=True)
class OptimizeAigPass(ModulePass):
    name = "optimize-aig"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        def rewrite(module):
            if module_kind(module) not in ("comb", "empty"):
                raise LoweringError.about(module, "is synthesized already (it holds xbar nodes)")
            return xbar.netlist_to_hw(optimized_aig(xbar.hw_to_netlist(module)))

        replace_each(op, rewrite)
