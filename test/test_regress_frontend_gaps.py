"""Front-end gaps that kept offloadable nests on the host, and float ``abs``.

* a reduction written as nested ``iter_args`` loops (``s += A[i, j] * A[i, j]``
  over two loops, min/max, integer sums; scf and affine) is one region that
  reduces over both dims;
* a conditional expression whose sides load arrays is a select in the region
  when every load is in bounds at every point of the domain, and stays on the
  host (with the reason) when that cannot be proved;
* ``abs`` of a float is ``math.absf``: ``abs(-0.0)`` is ``+0.0``.

The oracle is the same function called in plain Python (numpy scalars), or
numpy itself, on small machines and odd sizes.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import infs
from infs import api

from strategies import examples

EXAMPLES = examples(6, "INFS_FRONTEND_GAPS_EXAMPLES")
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def plain(fn, *args):
    """``fn`` run as plain Python on copies of the arrays (the oracle)."""
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        out = fn.fn(*copies)
    return copies, out


# ---------------------------------------------------------------------------
# float abs
# ---------------------------------------------------------------------------


@infs.kernel
def inv_abs(X, Y):
    for i in range(len(X)):
        Y[i] = 1.0 / abs(X[i])


@infs.kernel
def int_abs(X, Y):
    for i in range(len(X)):
        Y[i] = abs(X[i])


@pytest.mark.parametrize("mode", ["core", "near", "in"])
def test_abs_of_minus_zero_is_plus_zero(mode):
    X = np.array([-0.0, 0.0, -2.0, 4.0, -np.inf, np.nan], np.float32)
    Y = np.zeros_like(X)
    (_, want), _ = plain(inv_abs, X, Y)
    inv_abs(X, Y, config="tiny", mode=mode)
    assert np.array_equal(Y, want, equal_nan=True)
    assert Y[0] == np.inf and Y[1] == np.inf


def test_float_abs_is_math_absf_in_the_program():
    text = inv_abs.mlir(np.zeros(3, np.float32), np.zeros(3, np.float32))
    assert "math.absf" in text and "arith.select" not in text


@pytest.mark.parametrize("mode", ["core", "in"])
def test_integer_abs_wraps_on_int_min(mode):
    X = np.array([np.iinfo(np.int32).min, -1, 0, 7, np.iinfo(np.int32).max], np.int32)
    Y = np.zeros_like(X)
    (_, want), _ = plain(int_abs, X, Y)
    int_abs(X, Y, config="tiny", mode=mode)
    assert np.array_equal(Y, want) and Y[0] == np.iinfo(np.int32).min
