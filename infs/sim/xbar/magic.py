"""MAGIC NOR netlists of the WRITE-based baselines' arithmetic, built and
counted rather than assumed (MAGIC, Kvatinsky et al. [24]; STREAM §II-A).

Takes nothing; gives ``NorNetlist`` builders for a NOT, an AND of two
literals and a full adder as MAGIC NOR/NOT gates, evaluated with numpy (the
tests check them exhaustively), and the gate counts the baselines'
cost models charge (``FULL_ADDER_GATES``, ``AND_GATES``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
