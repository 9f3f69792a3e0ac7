"""Area, latency and energy of a mapped STREAM program, and of the same
function on the WRITE-based baseline CONTRA (STREAM §VIII-C1, [29]).

Takes an ``XbarProgram`` and the number of input vectors streamed through
it; gives ``XbarCost`` records.  Constants come from ``infs.hardware.xbar``
(STREAM §VIII, Table III).

STREAM (what is modelled):

* area: every layer of ``n_in x n_out`` cells takes
  ``ceil(n_in/128) * ceil(n_out/128)`` crossbars (Eq. (4)) of Table III's
  25 um^2; each kernel adds its controller, an input register per byte of
  layer-0 rows and an output register per byte of outputs (Table III);
* latency: one READ per layer (§II-A: a layer's bitlines are read at once),
  kernels in series along the longest kernel path; vectors are streamed
  (§III, §VII "pipelining"): the registers between hardwired crossbars let a
  new vector enter every READ, so ``n`` vectors take ``(depth + n - 1)``
  READs.  Not modelled: the bus between PEs (the paper gives its area and
  power, Table III, but no transfer latency);
* energy: one READ energy (1.08 pJ) per physical crossbar per layer per
  vector, plus the registers' and controller's Table III power over the
  time they are busy.  Crossbar power (0.3 mW) is not added on top of the
  READ energy: that would count the same READ twice.

CONTRA (what is modelled, [29] as STREAM §II-A/§VIII-C1 describe it: MAGIC
gates evaluated by repeated WRITEs, cells reused to save area):

* every logic column of the STREAM-O program (a dummy buffer is not one) is
  one multi-input MAGIC NOR; an OR column needs a NOT after it
  (MAGIC's native gate is NOR, [24]); each input's complement is one NOT;
* the gates run one after another, each an evaluation step, and every
  output cell is initialized once, a wordline of cells per initialization
  step (``magic.magic_steps``); each step is one crossbar WRITE at
  STREAM §II-C's 50.88 ns / 3.91 nJ.  Not counted: the operand copies that
  align LUT inputs (a cost of CONTRA that STREAM §VIII-C1 names) and
  CONTRA's parallel execution of aligned gates in different rows;
* area: one 128x128 crossbar while inputs plus gate outputs fit in its
  cells (cell reuse not needed), else as many as they fill.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...dialects.xbar_records import PRIMARY, XbarProgram
from ...hardware.xbar import (
    CONTROLLER,
    CROSSBAR,
    DEFAULT_TECH,
    INPUT_REGISTER,
    OUTPUT_REGISTER,
    XbarTech,
)

from .magic import magic_steps

MW_NS_TO_PJ = 1.0  # 1 mW x 1 ns = 1 pJ


@dataclass(frozen=True)
class XbarCost:
    """One mapping's figures (um^2, ns, pJ) and what they were counted from."""

    model: str
    area_um2: float
    latency_ns: float
    energy_pj: float
    crossbars: int
    depth: int  # READ (or WRITE) steps of one vector
    operations: int  # READs of physical crossbars (STREAM) or MAGIC gates (CONTRA), all vectors

    def as_row(self) -> dict:
        return {
            "model": self.model, "area_um2": self.area_um2, "latency_ns": self.latency_ns,
            "energy_pj": self.energy_pj, "crossbars": self.crossbars, "depth": self.depth,
            "operations": self.operations,
        }


def _bytes(bits: int) -> int:
    return -(-bits // 8)


def kernel_depths(program: XbarProgram) -> np.ndarray:
    """Layers from the primary inputs to each kernel's outputs (the longest kernel path)."""
    finish = np.zeros(len(program.kernels), dtype=np.int64)
    for k, (kernel, sources) in enumerate(zip(program.kernels, program.kernel_inputs)):
        feeders = [int(s) for s, _ in sources.tolist() if s != PRIMARY]
        start = int(finish[feeders].max()) if feeders else 0
        finish[k] = start + kernel.depth
    return finish


def program_depth(program: XbarProgram) -> int:
    finish = kernel_depths(program)
    srcs = [int(s) for s, _ in program.output_sources.tolist() if s != PRIMARY]
    return int(finish[srcs].max()) if srcs else 0


def stream_cost(program: XbarProgram, n_vectors: int = 1, tech: XbarTech = DEFAULT_TECH) -> XbarCost:
    """STREAM's figures for ``n_vectors`` vectors streamed through ``program``."""
    size = program.crossbar_size
    crossbars = sum(k.crossbars(size) for k in program.kernels)
    ir_bytes = sum(_bytes(k.layers[0].n_in) for k in program.kernels)
    or_bytes = sum(_bytes(len(k.outputs)) for k in program.kernels)
    n_kernels = len(program.kernels)
    area = (
        crossbars * CROSSBAR.area_um2  # Table III crossbar
        + n_kernels * CONTROLLER.area_um2  # Table III controller, one per kernel
        + ir_bytes * INPUT_REGISTER.area_um2  # Table III IR per byte
        + or_bytes * OUTPUT_REGISTER.area_um2  # Table III OR per byte
    )
    depth = program_depth(program)
    steps = depth + max(n_vectors, 1) - 1 if depth else 0
    latency = steps * tech.read_ns
    reads = crossbars * n_vectors
    peripheral_mw = (
        n_kernels * CONTROLLER.power_mw + ir_bytes * INPUT_REGISTER.power_mw + or_bytes * OUTPUT_REGISTER.power_mw
    )
    energy = reads * tech.read_pj + peripheral_mw * latency * MW_NS_TO_PJ
    return XbarCost(f"{program.style}", area, latency, energy, crossbars, depth, reads)


def logic_gates(program: XbarProgram) -> tuple[int, int]:
    """(NOR-class gates, extra NOTs) a MAGIC mapping of the program's logic needs.

    A column is logic unless it is a dummy buffer (one LRS cell, no inverter);
    a non-inverted logic column is an OR, which MAGIC builds as NOR + NOT."""
    nors = nots = 0
    for kernel in program.kernels:
        for layer in kernel.layers:
            fanin = np.count_nonzero(layer.plane, axis=0)
            buffer = (fanin == 1) & ~layer.invert
            logic = ~buffer & (fanin > 0)
            nors += int(np.count_nonzero(logic))
            nots += int(np.count_nonzero(logic & ~layer.invert))
        # layer 0 reads complements of the inputs for free; MAGIC computes them once each
        nots += kernel.n_inputs
    return nors, nots


def contra_cost(program: XbarProgram, n_vectors: int = 1, tech: XbarTech = DEFAULT_TECH) -> XbarCost:
    """The CONTRA-style WRITE-based figures for the same logic (see the module docstring)."""
    nors, nots = logic_gates(program)
    gates = nors + nots
    cells = program.n_inputs + gates
    crossbars = max(1, -(-cells // (tech.rows * tech.cols)))
    steps = magic_steps(gates, tech.cols)  # one vector: evaluations + initializations
    writes = steps * max(n_vectors, 1)  # vectors one after another
    latency = writes * tech.write_ns  # one crossbar WRITE per step, STREAM §II-C
    energy = writes * tech.write_pj
    area = crossbars * CROSSBAR.area_um2 + CONTROLLER.area_um2
    return XbarCost("contra", area, latency, energy, crossbars, steps, gates * max(n_vectors, 1))
