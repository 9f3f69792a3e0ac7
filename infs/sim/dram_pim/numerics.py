"""Newton's arithmetic: 16-bit operands, exact products, float32 sums.

Takes numpy arrays; gives them rounded to the element type as float32.
Newton multiplies 16-bit floats in each bank's 16 multipliers and sums them
in an adder tree into the bank's result latch (Newton, MICRO'20, §III; bf16
there; PIMFlow_ramulator's energy model names fp16 multipliers): both are
modelled.  A product of two bf16 or fp16 values is exact in float32 (8- or
11-bit significands, 16 or 22 bits of product), so the model is: operands
rounded to the type, products and the adder tree and latch in float32, and
READRES returning each latch rounded to the type (16 latches of 16 bits are
one 256-bit column burst, PIMFlow Table 1); the host adds the partial sums of
a row's chunks in float32.
"""

from __future__ import annotations

import numpy as np


def round_bf16(x: np.ndarray) -> np.ndarray:
    """Round to the nearest bfloat16, ties to even (NaN stays NaN), as float32."""
    f = np.ascontiguousarray(x, dtype=np.float32)
    u = f.view(np.uint32)
    lsb = (u >> np.uint32(16)) & np.uint32(1)
    r = ((u + np.uint32(0x7FFF) + lsb) & np.uint32(0xFFFF0000)).view(np.float32)
    return np.where(np.isnan(f), f, r)


def round_fp16(x: np.ndarray) -> np.ndarray:
    """Round to the nearest IEEE half (numpy's float16: ties to even, overflow to inf), as float32."""
    return np.asarray(x, dtype=np.float32).astype(np.float16).astype(np.float32)


ROUND = {"bf16": round_bf16, "fp16": round_fp16}
UNIT_ROUNDOFF = {"bf16": 2.0**-8, "fp16": 2.0**-11}  # half an ulp of 1: 8 and 11 significand bits
