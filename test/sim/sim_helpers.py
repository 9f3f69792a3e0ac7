"""Test helpers for the simulator: program text builders and a slow per-element reference.

The reference model here is deliberately naive: explicit Python loops over
every selected (tile, bitline) cell, straight from the semantics in the
``pimcmd`` docstring (ASPLOS §4.2, Alg. 2, Fig. 9).  The machine's vectorized
executors are checked against it.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.parser import Parser

from infs.dialects import INFS_DIALECTS
from infs.dialects.lattice import Pattern
from infs.sim import Machine, load_config

_CTX: Context | None = None

BITS = {"f32": 32, "i32": 32, "i16": 16, "i8": 8, "i1": 1}
RAW = {32: np.uint32, 16: np.uint16, 8: np.uint8, 1: np.uint8}
TYPED = {"f32": np.float32, "i32": np.int32, "i16": np.int16, "i8": np.int8, "i1": np.uint8}


def ctx() -> Context:
    global _CTX
    if _CTX is None:
        c = Context()
        for name, factory in get_all_dialects().items():
            c.register_dialect(name, factory)
        for d in INFS_DIALECTS:
            if d.name not in c.registered_dialect_names:
                c.load_dialect(d)
        _CTX = c
    return _CTX


def parse_program(text: str):
    op = Parser(ctx(), text).parse_op()
    op.verify()
    return op


def program_text(config: str, lattice, tiles, body: str, arrays: list[tuple[str, str]] | None = None) -> str:
    """``pimcmd.program`` text for the machine ``config`` (arrays: (name, memref type))."""
    cfg = load_config(config)
    arrays = arrays or []
    ins = ""
    args = ""
    if arrays:
        ins = "ins(" + ", ".join(f"%{n.upper()}" for n, _ in arrays) + " : " + ", ".join(t for _, t in arrays) + ") "
        args = "^bb0(" + ", ".join(f"%{n}: {t}" for n, t in arrays) + "):\n"
    return (
        f"pimcmd.program {ins}config {config.replace('-', '_')} lattice {list(lattice)} tiles {list(tiles)} "
        f"banks {cfg.banks} arrays_per_bank {cfg.arrays_per_bank} wordlines {cfg.wordlines} {{\n{args}{body}\n}}"
    )


def pat(p: Pattern) -> str:
    return str(p)


# ---------------------------------------------------------------------------
# Reference model
# ---------------------------------------------------------------------------


class RefState:
    """Register contents per cell ``[num_tiles, B]`` (raw words), read out of a machine."""

    def __init__(self, m: Machine, num_tiles: int, B: int):
        self.m, self.nt, self.B = m, num_tiles, B

    def get(self, start: int, bits: int) -> np.ndarray:
        return self.m.regs.read(start, bits)[: self.nt * self.B].reshape(self.nt, self.B).copy()


def set_register(m: Machine, start: int, bits: int, raw: np.ndarray) -> None:
    m.regs.write_view(start, bits)[: raw.size] = raw.reshape(-1)


def unravel(i: int, shape) -> list[int]:
    return [int(x) for x in np.unravel_index(i, shape)]


def ravel(c, shape) -> int:
    return int(np.ravel_multi_index(tuple(c), shape))


def ref_shift(src: np.ndarray, dst: np.ndarray, grid, T, tiles, bls, dim, mask, inter, intra) -> np.ndarray:
    out = dst.copy()
    lo, hi = mask
    for t in sorted(set(int(x) for x in tiles)):
        for b in sorted(set(int(x) for x in bls)):
            c = unravel(b, T)
            if not lo <= c[dim] < hi:
                continue
            g = unravel(t, grid)
            g[dim] += inter
            c[dim] += intra
            if not 0 <= g[dim] < grid[dim] or not 0 <= c[dim] < T[dim]:
                continue
            out[ravel(g, grid), ravel(c, T)] = src[t, b]
    return out


def ref_bcast(src: np.ndarray, dst: np.ndarray, grid, T, tiles, bls, dim, intra, inter) -> np.ndarray:
    out = dst.copy()
    for a in range(inter[0], inter[1]):
        for k in range(intra[0], intra[1]):
            for t in sorted(set(int(x) for x in tiles)):
                for b in sorted(set(int(x) for x in bls)):
                    g, c = unravel(t, grid), unravel(b, T)
                    g[dim] += a
                    c[dim] += k
                    if not 0 <= g[dim] < grid[dim] or not 0 <= c[dim] < T[dim]:
                        continue
                    out[ravel(g, grid), ravel(c, T)] = src[t, b]
    return out


def _signed(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


def ref_elem(op: str, ty: str, raws: list[int]) -> int:
    """One element: raw operand words in, raw result word out."""
    bits = BITS[ty]
    mask = (1 << bits) - 1
    if op in ("and", "or", "xor"):
        a, b = raws
        return {"and": a & b, "or": a | b, "xor": a ^ b}[op] & mask
    if op == "not":
        return ~raws[0] & mask
    if op == "copy":
        return raws[0]
    if op == "select":
        return raws[1] if raws[0] & 1 else raws[2]
    if ty == "f32":
        f = [np.uint32(r).view(np.float32) for r in raws]
        with np.errstate(all="ignore"):
            if op == "neg":
                return raws[0] ^ 0x80000000
            if op == "abs":
                return raws[0] & 0x7FFFFFFF
            if op == "relu":
                return 0 if raws[0] & 0x80000000 else raws[0]
            if op in ("cmp_lt", "cmp_le", "cmp_eq"):
                return int({"cmp_lt": f[0] < f[1], "cmp_le": f[0] <= f[1], "cmp_eq": f[0] == f[1]}[op])
            r = {
                "add": lambda: f[0] + f[1],
                "sub": lambda: f[0] - f[1],
                "mul": lambda: f[0] * f[1],
                "div": lambda: f[0] / f[1],
                "fma": lambda: np.float32(f[0] * f[1]) + f[2],
                "min": lambda: np.minimum(f[0], f[1]),
                "max": lambda: np.maximum(f[0], f[1]),
            }[op]()
            return int(np.float32(r).view(np.uint32))
    if ty == "i1":
        a = [r & 1 for r in raws]
        if op in ("cmp_lt", "cmp_le", "cmp_eq"):
            return int({"cmp_lt": a[0] < a[1], "cmp_le": a[0] <= a[1], "cmp_eq": a[0] == a[1]}[op])
        if op in ("neg", "abs", "relu"):
            return a[0]
        if op == "min":
            return min(a[0], a[1])
        if op == "max":
            return max(a[0], a[1])
        if op == "div":
            return a[0] if a[1] else 0
        v = {"add": lambda: a[0] + a[1], "sub": lambda: a[0] - a[1], "mul": lambda: a[0] * a[1],
             "fma": lambda: a[0] * a[1] + a[2]}[op]()  # fmt: skip
        return v & 1
    s = [_signed(r, bits) for r in raws]
    if op in ("cmp_lt", "cmp_le", "cmp_eq"):
        return int({"cmp_lt": s[0] < s[1], "cmp_le": s[0] <= s[1], "cmp_eq": s[0] == s[1]}[op])
    if op == "div":
        if s[1] == 0:
            v = 0
        else:
            q = abs(s[0]) // abs(s[1])
            v = -q if (s[0] < 0) != (s[1] < 0) else q
    else:
        v = {
            "add": lambda: s[0] + s[1], "sub": lambda: s[0] - s[1], "mul": lambda: s[0] * s[1],
            "fma": lambda: s[0] * s[1] + s[2], "min": lambda: min(s[0], s[1]), "max": lambda: max(s[0], s[1]),
            "neg": lambda: -s[0], "abs": lambda: abs(s[0]), "relu": lambda: max(s[0], 0),
        }[op]()  # fmt: skip
    return v & mask


def const_raw(value, ty: str) -> int:
    if ty == "f32":
        return int(np.float32(value).view(np.uint32))
    return int(value) & ((1 << BITS[ty]) - 1)


def ref_compute(op: str, ty: str, ins: list[np.ndarray], dst: np.ndarray, tiles, bls, const=None) -> np.ndarray:
    out = dst.copy()
    for t in sorted(set(int(x) for x in tiles)):
        for b in sorted(set(int(x) for x in bls)):
            raws = [int(x[t, b]) for x in ins]
            if const is not None:
                raws.append(const_raw(const, ty))
            out[t, b] = ref_elem(op, ty, raws)
    return out


def random_raw(rng: np.random.Generator, ty: str, n: int) -> np.ndarray:
    """Random raw words: full-range integers, finite floats with zeros and -0."""
    bits = BITS[ty]
    if ty == "f32":
        v = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)).astype(np.float32)
        v[rng.random(n) < 0.1] = 0.0
        v[rng.random(n) < 0.05] = -0.0
        v[rng.random(n) < 0.1] = np.float32(rng.integers(-4, 5))
        return v.view(np.uint32)
    if bits == 1:
        return rng.integers(0, 2, n).astype(np.uint8)
    raw = rng.integers(0, 1 << bits, n, dtype=np.uint64).astype(RAW[bits])
    small = rng.random(n) < 0.3  # plenty of small values, zeros, -1, MIN
    raw[small] = (rng.integers(-3, 4, int(small.sum())) & ((1 << bits) - 1)).astype(RAW[bits])
    raw[rng.random(n) < 0.05] = RAW[bits](1 << (bits - 1))
    return raw


def same_raw(ty: str, got: np.ndarray, want: np.ndarray) -> bool:
    if ty != "f32":
        return np.array_equal(got, want)
    g, w = got.view(np.float32), want.view(np.float32)
    gn, wn = np.isnan(g), np.isnan(w)
    return np.array_equal(gn, wn) and np.array_equal(got[~gn], want[~wn])


def all_cells(shape_grid, shape_T):
    return itertools.product(range(math.prod(shape_grid)), range(math.prod(shape_T)))
