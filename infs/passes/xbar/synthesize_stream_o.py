"""``synthesize-stream-o``: STREAM-O's synthesis (§IV-A, §IV-B), comb netlist -> OR-Inverter graph.

Takes ``hw.module`` ops of ``comb`` logic (``--import-bench`` / ``--import-blif``
make them); gives each as an ``hw.module`` of ``xbar.or`` nodes: ABC's AIG
optimization mapped on INV/OR2..OR5 cells, then covered with OR/NOR gates of
any fan-in (``synthesis.stream_o``).  Needs ABC (``berkeley-abc``).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from infs.dialects import xbar
from infs.passes.lowering_errors import LoweringError
from infs.passes.xbar import synthesis
from infs.passes.xbar._common import replace_each
from infs.passes.xbar.netlist_ir import module_kind, oig_to_hw


@dataclass(frozen=True)
class SynthesizeStreamOPass(ModulePass):
    name = "synthesize-stream-o"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        def rewrite(module):
            if module_kind(module) not in ("comb", "empty"):
                raise LoweringError.about(module, "is synthesized already (it holds xbar nodes)")
            oig, _ = synthesis.stream_o(xbar.hw_to_netlist(module))
            return oig_to_hw(oig)

        replace_each(op, rewrite)
