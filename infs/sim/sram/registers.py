"""The SRAM machine's wordline registers: raw words over every cell at once.

A register is one numpy vector over all ``total_arrays x bitlines`` cells
holding the raw bits of its elements (bit ``k`` of an element is wordline
``start + k``, LSB first, ASPLOS Fig. 1(d)).  ``RegisterFile`` keeps one vector
per register start wordline and re-slices the bits exactly when a read or
write covers a range that does not match a stored register.
"""

from __future__ import annotations

import numpy as np

from infs.element_types import WORD_TYPES



class RegisterFile:
    """Wordline registers over all cells; one raw vector per stored start wordline."""

    def __init__(self, cells: int, wordlines: int):
        self.cells = cells
        self.wordlines = wordlines
        self.regs: dict[int, np.ndarray] = {}
        self.width: dict[int, int] = {}
        self.owner = np.full(wordlines, -1, dtype=np.int64)  # wordline -> start of its register

    def _bit(self, wl: int) -> np.ndarray | None:
        s = int(self.owner[wl])
        if s < 0:
            return None
        arr = self.regs[s]
        return ((arr >> WORD_TYPES[self.width[s]](wl - s)) & 1).astype(np.uint8) if self.width[s] > 1 else arr

    def read(self, start: int, bits: int) -> np.ndarray:
        """Raw words of the register ``[start, start + bits)`` (a view when stored as such)."""
        if self.width.get(start) == bits and int(self.owner[start]) == start:
            return self.regs[start]
        dt = WORD_TYPES[bits]
        out = np.zeros(self.cells, dtype=dt)
        for k in range(bits):  # loop over the <= 32 bits of the register
            b = self._bit(start + k)
            if b is not None:
                out |= b.astype(dt) << dt(k)
        return out

    def write_view(self, start: int, bits: int) -> np.ndarray:
        """The stored raw vector of ``[start, start + bits)``, for in-place writes.

        Registers overlapping the range are re-sliced: their bits inside the
        range become this register's, the others stay as 1-bit registers."""
        if self.width.get(start) == bits and int(self.owner[start]) == start:
            return self.regs[start]
        if not np.any(self.owner[start : start + bits] >= 0):
            arr = np.zeros(self.cells, dtype=WORD_TYPES[bits])
        else:
            arr = self.read(start, bits)
            for s in np.unique(self.owner[start : start + bits]):
                s = int(s)
                if s < 0:
                    continue
                w = self.width[s]
                old = self.regs.pop(s)
                del self.width[s]
                self.owner[s : s + w] = -1
                for wl in range(s, s + w):  # keep the bits outside the new register
                    if not start <= wl < start + bits:
                        bit = ((old >> WORD_TYPES[w](wl - s)) & 1).astype(np.uint8) if w > 1 else old
                        self.regs[wl], self.width[wl] = bit, 1
                        self.owner[wl] = wl
        self.regs[start], self.width[start] = arr, bits
        self.owner[start : start + bits] = start
        return arr
