"""The lattice's values: affine expressions, domains, access maps and patterns.

Everything in infs lives on the *global lattice space* of the Infinity Stream
paper (ASPLOS'23 §3.2): an N-dimensional integer grid on which arrays are laid
out from the origin and tensors are hyperrectangles.  This module is the
algebra, as plain Python values (numpy where a pattern is expanded, loaded on
first use) that import no xDSL: the compiler's attributes carry them
(``infs.dialects.lattice``), and the runtime that reads a bundle's tDFG records
or runs the simulator uses them without any IR.

* ``Affine`` -- an affine (linear) expression with integer coefficients over
  named symbols, e.g. ``N - 1`` or ``2*k + 1``.  Symbols are the ``index``
  values an offloaded region receives (sizes, the host loop's ``k``).
* ``Domain`` -- a hyperrectangle ``[p0:q0, p1:q1, ...]`` (half-open, numpy
  slice notation: ``p <= x < q``) whose bounds are ``Affine``.  Concrete once
  every symbol is bound.
* ``AccessMap`` -- an affine map from iteration dims ``d0, d1, ...`` (and
  symbols) to array indices, e.g. ``[d0 - 1, k]``.
* ``Pattern`` -- the paper's ``start[:stride:count]+`` index sets (§4.2):
  element ``i`` is ``start + sum_k stride_k * ((i // prod_{j<k} count_j) % count_k)``,
  so level 0 varies fastest.  ``1:2:2`` = {1, 3}.

Lattice dims follow numpy/memref order: the last dim is the contiguous one.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING


if TYPE_CHECKING:
    import numpy as np


def _is_numpy_integer(value: object) -> bool:
    """``isinstance(value, np.integer)`` without importing numpy: no value is a numpy
    integer before numpy is loaded (importing ``infs.api`` needs no numpy, for start-up time)."""
    np_mod = sys.modules.get("numpy")
    return np_mod is not None and isinstance(value, np_mod.integer)


class LatticeError(ValueError):
    """An operation on domains/patterns that cannot be carried out."""


# Every integer of the infs attributes is a signed 64-bit value (as MLIR's
# i64/index): the passes, records and the simulator compute on int64.
I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1

def short_int(v: int) -> str:
    """An integer for a message: its digits, or how many there are when very long."""
    if abs(v) < 10**30:
        return str(v)
    return f"of {len(str(abs(v)))} digits" if abs(v) < 10**4000 else "of over 4000 digits"


# ---------------------------------------------------------------------------
# Affine expressions
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Affine:
    """``const + sum(coeff * name)``, canonical (sorted terms, no zero coeffs)."""

    const: int = 0
    terms: tuple[tuple[str, int], ...] = ()

    @staticmethod
    def of(value: "Affine | int | str") -> "Affine":
        if isinstance(value, Affine):
            return value
        if isinstance(value, int) or _is_numpy_integer(value):
            return Affine(int(value))
        if isinstance(value, str):
            return Affine(0, ((value, 1),))
        raise TypeError(f"cannot make an affine expression of {value!r}")

    @staticmethod
    def _make(const: int, coeffs: Mapping[str, int]) -> "Affine":
        return Affine(int(const), tuple(sorted((n, int(c)) for n, c in coeffs.items() if c)))

    # -- algebra ----------------------------------------------------------
    def __add__(self, other: "Affine | int | str") -> "Affine":
        o = Affine.of(other)
        coeffs = dict(self.terms)
        for n, c in o.terms:
            coeffs[n] = coeffs.get(n, 0) + c
        return Affine._make(self.const + o.const, coeffs)

    __radd__ = __add__

    def __neg__(self) -> "Affine":
        return Affine._make(-self.const, {n: -c for n, c in self.terms})

    def __sub__(self, other: "Affine | int | str") -> "Affine":
        return self + (-Affine.of(other))

    def __rsub__(self, other: "Affine | int | str") -> "Affine":
        return Affine.of(other) - self

    def __mul__(self, k: int) -> "Affine":
        if not (isinstance(k, int) or _is_numpy_integer(k)):
            raise LatticeError("affine expressions can only be scaled by integers")
        return Affine._make(self.const * int(k), {n: c * int(k) for n, c in self.terms})

    __rmul__ = __mul__

    # -- queries ------------------------------------------------------------
    @property
    def is_constant(self) -> bool:
        return not self.terms

    @property
    def names(self) -> frozenset[str]:
        return frozenset(n for n, _ in self.terms)

    def coeff(self, name: str) -> int:
        return dict(self.terms).get(name, 0)

    def substitute(self, env: Mapping[str, "Affine | int"]) -> "Affine":
        """Replace the names bound in ``env`` (others stay symbolic)."""
        out = Affine(self.const)
        for n, c in self.terms:
            out = out + (Affine.of(env[n]) * c if n in env else Affine(0, ((n, c),)))
        return out

    def evaluate(self, env: Mapping[str, int]) -> int:
        """Concrete value; raises ``LatticeError`` naming an unbound symbol."""
        total = self.const
        for n, c in self.terms:
            if n not in env:
                raise LatticeError(f"symbol '{n}' is not bound")
            total += c * int(env[n])
        return total

    def constant_value(self) -> int:
        if self.terms:
            raise LatticeError(f"'{self}' is not a constant")
        return self.const

    def compare(self, other: "Affine | int") -> int | None:
        """Sign of ``self - other`` when provable for all symbols >= 0, else None.

        Symbols are sizes and loop indices, hence non-negative; that is what
        lets ``k + 1 >= 0`` be decided without knowing ``k``.
        """
        diff = self - Affine.of(other)
        coeffs = [c for _, c in diff.terms]
        if not coeffs:
            return (diff.const > 0) - (diff.const < 0)
        if all(c >= 0 for c in coeffs) and diff.const >= 0:
            return 1 if diff.const > 0 else None  # >= 0; == only if symbols are 0
        if all(c <= 0 for c in coeffs) and diff.const <= 0:
            return -1 if diff.const < 0 else None
        return None

    def __str__(self) -> str:
        parts: list[str] = []
        for n, c in self.terms:
            mag = abs(c)
            body = n if mag == 1 else f"{mag}*{n}"
            if not parts:
                parts.append(body if c > 0 else f"-{body}")
            else:
                parts.append(("+ " if c > 0 else "- ") + body)
        if not parts:
            parts.append(str(self.const))
        elif self.const:
            parts.append(("+ " if self.const > 0 else "- ") + str(abs(self.const)))
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Affine({str(self)!r})"


def provably_ge(a: Affine | int, b: Affine | int) -> bool:
    """``a >= b`` for every value of the (non-negative) symbols."""
    diff = Affine.of(a) - Affine.of(b)
    return diff.const >= 0 and all(c >= 0 for _, c in diff.terms)


def affine_max(a: Affine, b: Affine) -> Affine:
    if provably_ge(a, b):
        return a
    if provably_ge(b, a):
        return b
    raise LatticeError(f"cannot decide max({a}, {b}) symbolically")


def affine_min(a: Affine, b: Affine) -> Affine:
    if provably_ge(b, a):
        return a
    if provably_ge(a, b):
        return b
    raise LatticeError(f"cannot decide min({a}, {b}) symbolically")


# ---------------------------------------------------------------------------
# Domains
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Domain:
    """A hyperrectangle ``[p0:q0, ...]`` on the lattice (half-open bounds)."""

    bounds: tuple[tuple[Affine, Affine], ...]

    @staticmethod
    def of(bounds: Iterable[tuple[Affine | int | str, Affine | int | str]]) -> "Domain":
        return Domain(tuple((Affine.of(p), Affine.of(q)) for p, q in bounds))

    @staticmethod
    def from_shape(shape: Sequence[Affine | int | str]) -> "Domain":
        return Domain.of((0, s) for s in shape)

    @property
    def rank(self) -> int:
        return len(self.bounds)

    @property
    def names(self) -> frozenset[str]:
        return frozenset().union(*(p.names | q.names for p, q in self.bounds))

    @property
    def is_concrete(self) -> bool:
        return not self.names

    def lo(self, d: int) -> Affine:
        return self.bounds[d][0]

    def hi(self, d: int) -> Affine:
        return self.bounds[d][1]

    def substitute(self, env: Mapping[str, Affine | int]) -> "Domain":
        return Domain(tuple((p.substitute(env), q.substitute(env)) for p, q in self.bounds))

    def evaluate(self, env: Mapping[str, int]) -> tuple[tuple[int, int], ...]:
        return tuple((p.evaluate(env), q.evaluate(env)) for p, q in self.bounds)

    def concrete(self) -> tuple[tuple[int, int], ...]:
        return tuple((p.constant_value(), q.constant_value()) for p, q in self.bounds)

    def extent(self, d: int) -> Affine:
        return self.hi(d) - self.lo(d)

    def is_empty(self) -> bool | None:
        """True/False when provable, None when it depends on the symbols."""
        signs = [q.compare(p) for p, q in self.bounds]  # 0 where p == q
        if any(c is not None and c <= 0 for c in signs):
            return True
        return None if None in signs else False

    def volume(self, env: Mapping[str, int] | None = None) -> int:
        box = self.evaluate(env or {})
        return math.prod(max(0, q - p) for p, q in box)

    def shift(self, dim: int, dist: Affine | int) -> "Domain":
        return self.with_dim(dim, self.lo(dim) + dist, self.hi(dim) + dist)

    def with_dim(self, dim: int, lo: Affine | int, hi: Affine | int) -> "Domain":
        b = list(self.bounds)
        b[dim] = (Affine.of(lo), Affine.of(hi))
        return Domain(tuple(b))

    def extend_rank(self, rank: int) -> "Domain":
        """Pad with ``[0:1]`` dims: a lower-rank array sits at coordinate 0 of the
        missing lattice dims (ASPLOS §3.2, arrays aligned to the origin).
        Missing dims are the *leading* ones, as numpy broadcasting does."""
        if rank < self.rank:
            raise LatticeError(f"cannot lower a rank-{self.rank} domain to rank {rank}")
        pad = tuple((Affine(0), Affine(1)) for _ in range(rank - self.rank))
        return Domain(pad + self.bounds)

    def intersect(self, other: "Domain") -> "Domain":
        return self._combine(other, affine_max, affine_min)

    def hull(self, other: "Domain") -> "Domain":
        """Smallest hyperrectangle containing both (the bounding hyperrectangle)."""
        return self._combine(other, affine_min, affine_max)

    def _combine(self, other: "Domain", lo: Callable[[Affine, Affine], Affine], hi: Callable[[Affine, Affine], Affine]) -> "Domain":
        if self.rank != other.rank:
            raise LatticeError(f"rank mismatch: {self} and {other}")
        return Domain(tuple((lo(p0, p1), hi(q0, q1)) for (p0, q0), (p1, q1) in zip(self.bounds, other.bounds)))

    def contains(self, other: "Domain") -> bool | None:
        if other.is_empty() is True:
            return True  # the empty set is a subset of every domain
        res = True
        for (p0, q0), (p1, q1) in zip(self.bounds, other.bounds):
            a, b = p1.compare(p0), q0.compare(q1)
            if (a is not None and a < 0) or (b is not None and b < 0):
                return False
            if (a is None and p0 != p1) or (b is None and q0 != q1):
                res = None  # type: ignore[assignment]
        return res

    def slices(self, env: Mapping[str, int] | None = None) -> tuple[slice, ...]:
        return tuple(slice(p, q) for p, q in self.evaluate(env or {}))

    def __str__(self) -> str:
        return "[" + ", ".join(f"{p}:{q}" for p, q in self.bounds) + "]"


# ---------------------------------------------------------------------------
# Access maps
# ---------------------------------------------------------------------------

DIM_PREFIX = "d"


def dim_name(i: int) -> str:
    return f"{DIM_PREFIX}{i}"


def dim_index(name: str) -> int | None:
    if name.startswith(DIM_PREFIX) and name[1:].isdigit():
        return int(name[1:])
    return None


@dataclass(frozen=True)
class AccessMap:
    """Array indices as affine expressions of iteration dims ``d<i>`` and symbols."""

    results: tuple[Affine, ...]

    @property
    def rank(self) -> int:
        return len(self.results)

    def dims_used(self) -> frozenset[int]:
        return frozenset(i for e in self.results for n in e.names if (i := dim_index(n)) is not None)

    def symbols_used(self) -> frozenset[str]:
        return frozenset(n for e in self.results for n in e.names if dim_index(n) is None)

    def substitute(self, env: Mapping[str, Affine | int]) -> "AccessMap":
        return AccessMap(tuple(e.substitute(env) for e in self.results))

    def apply(self, grids: Sequence[np.ndarray], env: Mapping[str, int]) -> tuple[np.ndarray, ...]:
        """Evaluate the map on index grids (one array per iteration dim)."""
        import numpy as np

        out = []
        for e in self.results:
            if not all(I64_MIN <= v <= I64_MAX for v in (e.const, *(c for _, c in e.terms))):
                # a map built by a pass from upstream IR (affine.load %A[%i - 99999999999999999999]),
                # not parsed: numpy would overflow (found by make fuzz)
                raise LatticeError(f"index {e} is beyond the signed 64-bit range")
            acc: np.ndarray | int = e.const
            for n, c in e.terms:
                i = dim_index(n)
                if i is not None:
                    acc = acc + c * grids[i]
                else:
                    if n not in env:
                        raise LatticeError(f"symbol '{n}' is not bound")
                    acc = acc + c * int(env[n])
            out.append(np.broadcast_to(np.asarray(acc, dtype=np.int64), np.broadcast(*grids).shape if grids else ()))
        return tuple(out)

    def __str__(self) -> str:
        return "[" + ", ".join(str(e) for e in self.results) + "]"


# ---------------------------------------------------------------------------
# Patterns
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Pattern:
    """``start[:stride:count]+`` (§4.2); level 0 varies fastest."""

    start: int
    levels: tuple[tuple[int, int], ...]  # (stride, count)

    @staticmethod
    def range(lo: int, hi: int) -> "Pattern":
        return Pattern(lo, ((1, hi - lo),))

    @staticmethod
    def box(start: Sequence[int], stop: Sequence[int], shape: Sequence[int]) -> "Pattern":
        """Row-major linear indices of the box ``[start, stop)`` inside ``shape``."""
        n = len(shape)
        strides = [1] * n  # row-major: the product of the later dims (one pass)
        acc = 1
        for i in range(n - 1, -1, -1):
            strides[i] = acc
            acc *= shape[i]
        base = sum(s * st for s, st in zip(start, strides))
        levels = tuple([(strides[i], stop[i] - start[i]) for i in range(n - 1, -1, -1)])
        return Pattern(base, levels).normalized()

    @property
    def size(self) -> int:
        return math.prod(c for _, c in self.levels)

    @property
    def min_index(self) -> int:
        """The smallest index, without expanding (counts are positive)."""
        return self.start + sum(min(0, s * (c - 1)) for s, c in self.levels)

    @property
    def max_index(self) -> int:
        """The largest index, without expanding: ``start + sum(stride_k * (count_k - 1))`` over positive strides."""
        return self.start + sum(max(0, s * (c - 1)) for s, c in self.levels)

    def normalized(self) -> "Pattern":
        """Drop count-1 levels and merge levels that continue each other."""
        levels = [(s, c) for s, c in self.levels if c != 1]
        merged: list[tuple[int, int]] = []
        for s, c in levels:
            if merged and merged[-1][0] * merged[-1][1] == s:
                ps, pc = merged[-1]
                merged[-1] = (ps, pc * c)
            else:
                merged.append((s, c))
        return Pattern(self.start, tuple(merged or [(1, 1)]))

    def expand(self) -> np.ndarray:
        """All indices, in element order (vectorized)."""
        import numpy as np

        idx = np.array([self.start], dtype=np.int64)
        for stride, count in self.levels:
            # level k varies slower than the levels before it
            idx = (np.arange(count, dtype=np.int64)[:, None] * stride + idx[None, :]).reshape(-1)
        return idx

    def mask(self, n: int) -> np.ndarray:
        # bounds first, arithmetically: a pattern far out of range is never expanded
        if self.min_index < 0 or self.max_index >= n:
            raise LatticeError(f"pattern {self} leaves [0, {n})")
        import numpy as np

        m = np.zeros(n, dtype=bool)
        m[self.expand()] = True
        return m

    def intersect_range(self, lo: int, hi: int) -> np.ndarray:
        """Indices of the pattern that fall in ``[lo, hi)`` (sorted, unique)."""
        import numpy as np

        idx = self.expand()
        return np.unique(idx[(idx >= lo) & (idx < hi)])

    @staticmethod
    def from_indices(indices: np.ndarray) -> "Pattern | None":
        """A single-level pattern for an arithmetic progression, else None."""
        import numpy as np

        idx = np.unique(np.asarray(indices, dtype=np.int64))
        if idx.size == 0:
            return None
        if idx.size == 1:
            return Pattern(int(idx[0]), ((1, 1),))
        steps = np.diff(idx)
        if np.all(steps == steps[0]):
            return Pattern(int(idx[0]), ((int(steps[0]), int(idx.size)),))
        return None

    def __str__(self) -> str:
        return str(self.start) + "".join(f":{s}:{c}" for s, c in self.levels)
