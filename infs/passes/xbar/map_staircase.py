"""``map-staircase``: crossbar mapping (§IV-C, §V-C), synthesized netlist -> ``xbar.program``.

Takes ``hw.module`` ops of ``xbar.or`` (STREAM-O) or ``xbar.sop`` (STREAM-M)
nodes; gives each as an ``xbar.program`` of one kernel: longest-path levels,
dummy buffers for edges that skip a level, one crossbar per level (two for
STREAM-M: products, then sums), a layer's rows the previous layer's columns
(``synthesis.map_oig`` / ``map_mll``).  ``decompose-pe`` splits the kernel
among PEs.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from infs.dialects import xbar
from infs.dialects import xbar_records as xr
from infs.passes.lowering_errors import LoweringError
from infs.passes.xbar import synthesis
from infs.passes.xbar._common import replace_each
from infs.passes.xbar.netlist_ir import hw_to_mll, hw_to_oig, module_kind


@dataclass(frozen=True)
class MapStaircasePass(ModulePass):
    name = "map-staircase"

    crossbar: int = xr.CROSSBAR_SIZE  # the crossbars' rows = columns (§VII: 128 x 128)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        def rewrite(module):
            kind = module_kind(module)
            if kind in ("oig", "empty"):
                oig = hw_to_oig(module)
                kernel, style, ins, outs = synthesis.map_oig(oig), "stream-o", oig.inputs, oig.output_names
            elif kind == "mll":
                net, outs = hw_to_mll(module)
                kernel, style, ins = synthesis.map_mll(net), "stream-m", net.inputs
            else:
                raise LoweringError.about(module, "holds no xbar.or / xbar.sop nodes: run --synthesize-stream-o or --synthesize-stream-m first")
            program = xr.single_kernel_program(kernel, ins, outs, style, self.crossbar)
            return xbar.records_to_xbar(program, module.sym_name.data)

        replace_each(op, rewrite)
