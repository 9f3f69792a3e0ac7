"""Truth tables as two-level OR-plane kernels: a sum of minterms on two
crossbars in series (STREAM §V-C, Fig. 8(a)), and the 3-bit adder slice of
STREAM's ADDER (§VII, Fig. 11(c), §VIII-B).

Takes a boolean truth table ``(2**n, m)`` -- row ``r`` is the assignment with
input ``i`` equal to bit ``i`` of ``r`` -- and gives an ``XbarKernel``:

* layer A, one column per minterm that sets some output: the product of
  literals as a NOR of their complements (De Morgan, Fig. 8(a)); row ``i``
  (signal ``x_i``) is LRS where the minterm has ``x_i = 0``, row ``n + i``
  (``not x_i``) where it has ``x_i = 1``;
* layer B, one column per output: the OR of its minterms.

This is the plain (unminimized) two-level form: no ESPRESSO, no sharing
beyond the minterms; the synthesized flow (``passes/xbar``) does better on
large functions, the form is exact and small for the 4-bit and 7-bit
functions of bit-sliced MVM.
"""

from __future__ import annotations

import numpy as np

from ...dialects.xbar_records import XbarKernel, XbarLayer


def input_bits(n: int) -> np.ndarray:
    """bool ``(2**n, n)``: row ``r``'s input ``i`` is bit ``i`` of ``r``."""
    r = np.arange(1 << n, dtype=np.int64)
    return ((r[:, None] >> np.arange(n)) & 1).astype(np.bool_)


def truth_table_kernel(table: np.ndarray, all_minterms: bool = False) -> XbarKernel:
    """The two-crossbar kernel computing every column of ``table``.

    ``all_minterms`` keeps a product column for every input assignment (a
    fixed decoder layer, so kernels of equal shape stack into one batch)."""
    table = np.asarray(table, dtype=np.bool_)
    n = int(table.shape[0]).bit_length() - 1
    if table.ndim != 2 or table.shape[0] != 1 << n:
        raise ValueError(f"truth table: {table.shape[0]} rows is not a power of two")
    used = np.arange(table.shape[0]) if all_minterms else np.flatnonzero(table.any(axis=1))
    if used.size == 0:
        used = np.array([0])  # a constant-0 function still has a (never used) product column
    bits = input_bits(n)[used]  # (minterms, n)
    plane_a = np.concatenate([~bits, bits], axis=1).T  # (2n, minterms)
    layer_a = XbarLayer(plane_a, np.ones(used.size, dtype=np.bool_))
    layer_b = XbarLayer(table[used], np.zeros(table.shape[1], dtype=np.bool_))
    return XbarKernel((layer_a, layer_b), tuple(range(table.shape[1])))


def adder_slice_table(width: int) -> np.ndarray:
    """``width``-bit adder with carry: inputs a (width), b (width), carry-in; outputs sum (width), carry-out."""
    bits = input_bits(2 * width + 1)
    weights = 1 << np.arange(width)
    a = bits[:, :width] @ weights
    b = bits[:, width : 2 * width] @ weights
    total = a + b + bits[:, 2 * width]
    return ((total[:, None] >> np.arange(width + 1)) & 1).astype(np.bool_)
