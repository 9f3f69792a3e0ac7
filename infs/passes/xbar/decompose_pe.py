"""``decompose-pe``: a staircase longer than one PE's, split among PEs (§III Problem II, §VII).

Takes ``xbar.program`` ops; gives them with every kernel of more than
``crossbars`` layers cut into consecutive kernels of at most that many
(Table III: a staircase unit holds 10 crossbars).  The cuts minimize the
inter-PE communication: the signals crossing a cut are the columns of the
layer before it (every one of them is read after it, dummies included), and a
dynamic programme over the cut positions minimizes their sum.  A later part's
first layer reads the earlier part's outputs on its rows and gets the
complement rows every kernel input has (left unused: the staircase computed
the complements it needs as columns).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from infs.dialects import xbar
from infs.dialects import xbar_records as xr
from infs.passes.lowering_errors import LoweringError
from infs.passes.xbar._common import reported

PE_CROSSBARS = 10  # crossbars of a staircase unit, STREAM Table III


def best_cuts(widths: list[int], limit: int) -> list[int]:
    """Cut positions (layer indices starting a new part) minimizing the summed widths of the layers before
    each cut, every part at most ``limit`` layers; ``widths[k]`` is layer k's column count."""
    n = len(widths)
    inf = float("inf")
    cost = [0.0] + [inf] * n
    back = [0] * (n + 1)
    for b in range(1, n + 1):
        for a in range(max(0, b - limit), b):
            c = cost[a] + (widths[a - 1] if a > 0 else 0)
            if c < cost[b]:
                cost[b], back[b] = c, a
    cuts, b = [], n
    while b > 0:
        b = back[b]
        if b > 0:
            cuts.append(b)
    return sorted(cuts)


def decompose(program: xr.XbarProgram, limit: int) -> xr.XbarProgram:
    kernels: list[xr.XbarKernel] = []
    wiring: list[np.ndarray] = []
    last_part: dict[int, int] = {}  # old kernel index -> new index of its last part

    def remap(src: np.ndarray) -> np.ndarray:
        out = src.copy()
        for r, (s, _) in enumerate(src.tolist()):
            if s != xr.PRIMARY:
                out[r, 0] = last_part[s]
        return out

    for k, (kernel, src) in enumerate(zip(program.kernels, program.kernel_inputs)):
        layers = list(kernel.layers)
        starts = [0, *best_cuts([layer.n_out for layer in layers], limit)] if len(layers) > limit else [0]
        ends = [*starts[1:], len(layers)]
        for part, (a, b) in enumerate(zip(starts, ends)):
            part_layers = layers[a:b]
            if part == 0:
                inputs = remap(src)
            else:
                first = part_layers[0]
                # the earlier part's columns on the rows, then the (unused) complement rows
                plane = np.vstack([first.plane, np.zeros_like(first.plane)])
                part_layers[0] = xr.XbarLayer(plane, first.invert)
                inputs = np.stack([np.full(first.n_in, len(kernels) - 1), np.arange(first.n_in)], axis=1)
            outputs = kernel.outputs if b == len(layers) else tuple(range(part_layers[-1].n_out))
            kernels.append(xr.XbarKernel(tuple(part_layers), outputs))
            wiring.append(inputs)
        last_part[k] = len(kernels) - 1
    return xr.XbarProgram(
        tuple(kernels), tuple(wiring), remap(program.output_sources), program.primary_inputs, program.primary_outputs, program.style, program.crossbar_size
    )


@dataclass(frozen=True)
class DecomposePePass(ModulePass):
    name = "decompose-pe"

    crossbars: int = PE_CROSSBARS  # layers one PE's staircase holds

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.crossbars < 1:
            raise LoweringError(f"decompose-pe: crossbars={self.crossbars}: a PE holds at least one crossbar")
        for prog in [p for p in op.ops if isinstance(p, xbar.ProgramOp)]:
            with reported(prog):
                new = xbar.records_to_xbar(decompose(xbar.xbar_to_records(prog), self.crossbars), prog.sym_name.data)
            new.location = prog.location
            op.body.block.insert_op_before(new, prog)
            prog.detach()
            prog.erase()
