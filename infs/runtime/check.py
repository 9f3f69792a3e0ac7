"""Comparing a run's outputs with expected values (the ``--check`` of the tools)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

# f32 results differ from a reference by summation order and fused
# evaluation; integers must match exactly.
#
# The sign of a zero is not compared (-0.0 == +0.0, as IEEE compares them),
# on purpose: a legitimate in-memory run may give the other zero.
# optimize-tdfg factors a*b + a*c into a*(b + c) where the program allows
# reassociation (fastmath<reassoc>, Eq. 3's distributivity): with a = -1,
# b = 1, c = -1 the reference gives -1 + 1 = +0.0 and the machine -1 * +0.0
# = -0.0 (test_regress_lowering.py::test_a_reassociated_run_may_give_the_other_zero).
# The tolerance already accepts -1e-6 against +1e-6; a zero of the other sign
# is closer than that.  Float min/max keep their signed zeros exact
# (minimumf/maximumf, element_types.float_fold), so no path needs this there.
F32_RTOL = 1e-4
F32_ATOL = 1e-5


@dataclass(frozen=True)
class CheckResult:
    ok: bool
    max_error: float
    note: str = ""


def compare_values(actual: Mapping[str, object], expected: Mapping[str, object], rtol: float = F32_RTOL, atol: float = F32_ATOL) -> CheckResult:
    """Every expected name must be present and match (exact for ints/bools)."""
    worst = 0.0
    for name, exp in expected.items():
        if name not in actual:
            return CheckResult(False, float("nan"), f"no value for '{name}'")
        e = np.asarray(exp)
        a = np.asarray(actual[name])
        if a.shape != e.shape:
            return CheckResult(False, float("nan"), f"'{name}' has shape {list(a.shape)}, expected {list(e.shape)}")
        if e.dtype.kind in "iub":
            diff = np.abs(a.astype(np.int64) - e.astype(np.int64))
            err = float(diff.max()) if diff.size else 0.0
            if err:
                i = np.unravel_index(int(np.argmax(diff)), diff.shape)
                return CheckResult(False, err, f"'{name}'{list(map(int, i))} = {a[i]}, expected {e[i]}")
        else:
            a64, e64 = a.astype(np.float64), e.astype(np.float64)
            with np.errstate(invalid="ignore"):  # equal infinities differ by 0, not NaN
                diff = np.where(a64 == e64, 0.0, np.abs(a64 - e64))
            diff = diff[~np.isnan(diff)]  # NaN == NaN counts as equal (isclose below)
            err = float(diff.max()) if diff.size else 0.0
            bad = ~np.isclose(a64, e64, rtol=rtol, atol=atol, equal_nan=True)
            if np.any(bad):
                i = np.unravel_index(int(np.argmax(bad)), bad.shape)
                return CheckResult(False, err, f"'{name}'{list(map(int, i))} = {a[i]}, expected {e[i]}")
        worst = max(worst, err)
    return CheckResult(True, worst)
