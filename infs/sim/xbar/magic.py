"""MAGIC NOR netlists of the WRITE-based baselines' arithmetic, built and
counted rather than assumed (MAGIC, Kvatinsky et al. [24]; STREAM §II-A).

Takes nothing; gives ``NorNetlist`` builders for a NOT, an AND of two
literals and a full adder as MAGIC NOR/NOT gates, evaluated with numpy (the
tests check them exhaustively), the gate counts the baselines' cost models
charge (``FULL_ADDER_GATES``, ``AND_GATES``), and ``magic_steps``: the
crossbar operations a sequence of gates takes.

The step model (what one crossbar WRITE operation does).  A MAGIC gate is two
steps (STREAM §II-A, Fig. 1(a)): the output cell's initialization to LRS and
the evaluation.  A step is one operation of the crossbar, whatever number of
cells it acts on at once:

* one evaluation step evaluates the same gate in every selected row ("MAGIC
  enables parallel logic NOR operations by programming inputs and outputs to
  multiple bitlines (or wordlines)", STREAM §II-A; SIMPLER's premise: a
  function's instances in many rows run in the same cycles, Ben-Hur et al.,
  TCAD'20, abstract);
* one initialization step sets to LRS the output cells of a whole wordline
  segment at once: SIMPLER's mapping (the authors' SIMPLER_Mapping.py,
  Ben-Hur et al. [30]) counts one cycle per gate plus one cycle per
  re-initialization, which sets every freed cell of the row at once (the
  row's first initialization is not counted there).  Here every gate's
  output cell is initialized once, ``CELLS_PER_INIT`` of them per step (a
  crossbar's wordline), the first initialization included: one step per 128
  gates, against SIMPLER's count of none for a function that fits its row
  and more for one that must reuse cells many times.

Each step is priced as one WRITE (STREAM §II-C / §VIII: 50.88 ns, 3.91 nJ,
PipeLayer [35]): STREAM's own figures, the only WRITE figures the paper
gives.  Neither CONTRA [29] nor SIMPLER [30] is priced by STREAM with
per-gate figures of its own, and no published per-gate MAGIC energy was
found to replace the WRITE (docs/crossbar.md says what that leaves).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...hardware.xbar import DEFAULT_TECH

import numpy as np


@dataclass
class NorNetlist:
    """Gates in order; signal ``k < n_inputs`` is an input, later signals are gate outputs."""

    n_inputs: int
    gates: list[tuple[int, ...]] = field(default_factory=list)  # each: the NOR's operands (one operand: NOT)

    def nor(self, *operands: int) -> int:
        self.gates.append(tuple(operands))
        return self.n_inputs + len(self.gates) - 1

    def evaluate(self, inputs: np.ndarray) -> np.ndarray:
        """bool ``(vectors, n_inputs)`` -> every signal ``(vectors, n_inputs + gates)``."""
        sig = [inputs[:, i] for i in range(self.n_inputs)]
        for ops in self.gates:
            acc = np.zeros(inputs.shape[0], dtype=np.bool_)
            for o in ops:
                acc = acc | sig[o]
            sig.append(~acc)
        return np.stack(sig, axis=1)


def and2() -> tuple[NorNetlist, int]:
    """a AND b = NOR(NOT a, NOT b): three MAGIC gates."""
    net = NorNetlist(2)
    return net, net.nor(net.nor(0), net.nor(1))


def full_adder() -> tuple[NorNetlist, int, int]:
    """Sum and carry of a, b, c in NOR gates (XNOR from four NORs, twice, then the carry)."""
    net = NorNetlist(3)
    a, b, c = 0, 1, 2
    n1 = net.nor(a, b)
    xnor_ab = net.nor(net.nor(a, n1), net.nor(b, n1))  # XNOR(a, b)
    n2 = net.nor(xnor_ab, c)
    s = net.nor(net.nor(xnor_ab, n2), net.nor(c, n2))  # XNOR(XNOR(a,b), c) = a XOR b XOR c
    carry = net.nor(n1, n2)  # NOR(NOR(a,b), NOR(xnor,c)) = (a+b)(xnor+c) = ab + (a XOR b)c
    return net, s, carry


FULL_ADDER_GATES = len(full_adder()[0].gates)  # 9 MAGIC NOR gates
AND_GATES = len(and2()[0].gates)  # 3 MAGIC gates


CELLS_PER_INIT = DEFAULT_TECH.cols  # one initialization step: a wordline of the 128x128 crossbar, STREAM §VII


def magic_steps(gates: int, cells_per_init: int = CELLS_PER_INIT) -> int:
    """Crossbar operations of ``gates`` MAGIC gates run one after another: an evaluation each and
    one initialization step per ``cells_per_init`` output cells (see the module docstring)."""
    if gates < 0 or cells_per_init < 1:
        raise ValueError(f"magic_steps: gates {gates} and cells_per_init {cells_per_init} must be >= 0 and >= 1")
    return int(gates) + -(-int(gates) // int(cells_per_init))
