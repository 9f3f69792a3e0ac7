"""``synthesize-stream-m``: STREAM-M's synthesis (§V-A, §V-B, Algorithm 1), comb netlist -> multi-level logic.

Takes ``hw.module`` ops of ``comb`` logic; gives each as an ``hw.module`` of
``xbar.sop`` nodes: ABC's optimized AIG as a logic network, ``eliminate i``
for the ``i`` Algorithm 1 picks by HardwareCost (Eq. 1-4), or the
``eliminate`` option's ``i`` (``synthesis.stream_m``).  Needs ABC.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from infs.dialects import xbar
from infs.dialects.xbar_records import CROSSBAR_SIZE
from infs.passes.lowering_errors import LoweringError
from infs.passes.xbar import synthesis
from infs.passes.xbar._common import replace_each
from infs.passes.xbar.netlist_ir import mll_to_hw, module_kind


@dataclass(frozen=True)
class SynthesizeStreamMPass(ModulePass):
    name = "synthesize-stream-m"

    eliminate: int = -1  # -1: Algorithm 1 searches i = 0 .. 30; else eliminate this i
    crossbar: int = CROSSBAR_SIZE  # r = c of Eq. (4)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.eliminate < -1 or self.crossbar < 1:
            raise LoweringError(f"synthesize-stream-m: eliminate={self.eliminate} crossbar={self.crossbar}: eliminate is -1 or >= 0, crossbar >= 1")

        def rewrite(module):
            if module_kind(module) not in ("comb", "empty"):
                raise LoweringError.about(module, "is synthesized already (it holds xbar nodes)")
            netlist = xbar.hw_to_netlist(module)
            net, _ = synthesis.stream_m(netlist, None if self.eliminate < 0 else self.eliminate, self.crossbar)
            return mll_to_hw(net, netlist.outputs)

        replace_each(op, rewrite)
