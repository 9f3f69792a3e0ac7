"""Bit-level execution: compute commands on packed bit-planes (ASPLOS §2.2).

In the transposed layout bit ``k`` of every element sits on wordline
``start + k``; a bit-serial PE per bitline reads one or two wordlines, does a
logic step and writes a wordline.  Here a wordline over the selected bitlines
is a *plane*: a packed ``uint8`` vector (8 bitlines per byte, ``np.packbits``),
and the algorithms below are the textbook bit-serial ones, one plane operation
at a time:

* add / sub: ripple carry, LSB first (sub = a + ~b + 1);
* mul: shift-add -- partial product ``i`` is added into bits ``i..n-1`` only,
  so n(n+1)/2 full-adder steps (the n^2/2 of the ``infs`` profile);
* div: restoring division on magnitudes, sign fix-up, quotient 0 for a zero
  divisor (the word-level rule);
* compare: signed ``<`` as the borrow of a subtraction with flipped sign bits;
  ``==`` as an AND-reduction of XNORs;
* min / max / abs / relu / select / neg: compare or sign bit, then a
  per-plane multiplexer ``(c & a) | (~c & b)``;
* logic ops plane by plane.

Integers (i8/i16/i32/i64 two's complement; i1 as 0/1 with arithmetic mod 2) and
the f32/f64 operations that only touch bits (logic, select, copy, neg, abs, relu)
run here and must agree exactly with the word-level mode.  f32/f64 arithmetic and
compares are not bit-serialized; ``BitSerial.run`` returns ``None`` for them
and the machine executes them word-level (counted as a fallback).

``reads``/``writes``/``logic`` count plane reads, plane writes and logic steps.
Loops here run over the <= 32 bits of an element, never over bitlines.
"""

from __future__ import annotations

import numpy as np

from infs.dialects.element_types import COMPARE_OPS, ELEMENT_BITS, WORD_TYPES, is_float_element

Plane = np.ndarray
FP_BITWISE = {"and", "or", "xor", "not", "copy", "select", "neg", "abs", "relu"}


class BitSerial:
    """Bit-serial ALU over packed planes of ``ncells`` bitlines; counts steps."""

    def __init__(self, ncells: int):
        self.ncells = ncells
        self.nbytes = (ncells + 7) // 8
        self.reads = 0
        self.writes = 0
        self.logic = 0

    # -- planes ----------------------------------------------------------------
    def zeros(self) -> Plane:
        return np.zeros(self.nbytes, np.uint8)

    def ones(self) -> Plane:
        return np.full(self.nbytes, 0xFF, np.uint8)

    def load(self, raw: np.ndarray, bits: int) -> list[Plane]:
        """Read the ``bits`` wordlines of a register (one plane per wordline)."""
        raw = np.asarray(raw)
        self.reads += bits
        return [np.packbits(((raw >> k) & 1).astype(bool)) for k in range(bits)]

    def store(self, planes: list[Plane], bits: int) -> np.ndarray:
        """Write planes back as raw words."""
        self.writes += bits
        out = np.zeros(self.ncells, WORD_TYPES[bits])
        for k in range(bits):
            out |= np.unpackbits(planes[k], count=self.ncells).astype(WORD_TYPES[bits]) << WORD_TYPES[bits](k)
        return out

    def AND(self, a: Plane, b: Plane) -> Plane:
        self.logic += 1
        return a & b

    def OR(self, a: Plane, b: Plane) -> Plane:
        self.logic += 1
        return a | b

    def XOR(self, a: Plane, b: Plane) -> Plane:
        self.logic += 1
        return a ^ b

    def NOT(self, a: Plane) -> Plane:
        self.logic += 1
        return ~a

    def MUX(self, c: Plane, a: Plane, b: Plane) -> Plane:
        """``c ? a : b`` for one plane."""
        return self.OR(self.AND(c, a), self.AND(self.NOT(c), b))

    # -- arithmetic on plane lists (LSB first) ---------------------------------
    def add(self, a: list[Plane], b: list[Plane], carry: Plane | None = None) -> tuple[list[Plane], Plane]:
        """Ripple-carry add; returns (sum planes, carry out)."""
        c = self.zeros() if carry is None else carry
        out = []
        for ak, bk in zip(a, b):
            t = self.XOR(ak, bk)
            out.append(self.XOR(t, c))
            c = self.OR(self.AND(ak, bk), self.AND(c, t))
        return out, c

    def sub(self, a: list[Plane], b: list[Plane]) -> tuple[list[Plane], Plane]:
        """``a - b`` as ``a + ~b + 1``; the carry out is 1 iff ``a >= b`` (unsigned)."""
        return self.add(a, [self.NOT(x) for x in b], self.ones())

    def neg(self, a: list[Plane]) -> list[Plane]:
        return self.sub([self.zeros() for _ in a], a)[0]

    def mul(self, a: list[Plane], b: list[Plane]) -> list[Plane]:
        n = len(a)
        acc = [self.AND(ak, b[0]) for ak in a]
        for i in range(1, n):  # partial product i only touches bits i..n-1
            pp = [self.AND(a[k - i], b[i]) for k in range(i, n)]
            acc[i:] = self.add(acc[i:], pp)[0]
        return acc

    def lt(self, a: list[Plane], b: list[Plane], signed: bool) -> Plane:
        if signed:  # flip the sign bits: signed order becomes unsigned order
            a = a[:-1] + [self.NOT(a[-1])]
            b = b[:-1] + [self.NOT(b[-1])]
        _, ge = self.sub(a, b)
        return self.NOT(ge)

    def eq(self, a: list[Plane], b: list[Plane]) -> Plane:
        r = self.NOT(self.XOR(a[0], b[0]))
        for ak, bk in zip(a[1:], b[1:]):
            r = self.AND(r, self.NOT(self.XOR(ak, bk)))
        return r

    def select(self, c: Plane, a: list[Plane], b: list[Plane]) -> list[Plane]:
        return [self.MUX(c, ak, bk) for ak, bk in zip(a, b)]

    def udivmod(self, a: list[Plane], b: list[Plane]) -> list[Plane]:
        """Restoring division of unsigned magnitudes; the quotient planes."""
        n = len(a)
        rem = [self.zeros() for _ in range(n + 1)]
        bx = b + [self.zeros()]
        q = [self.zeros() for _ in range(n)]
        for i in range(n - 1, -1, -1):
            rem = [a[i]] + rem[:-1]  # shift left, bring in bit i (wiring, no step)
            diff, ge = self.sub(rem, bx)
            q[i] = ge
            rem = self.select(ge, diff, rem)
        return q

    def div(self, a: list[Plane], b: list[Plane], signed: bool) -> list[Plane]:
        if not signed:  # i1: a / 1 = a, a / 0 = 0
            return [self.AND(a[0], b[0])]
        sa, sb = a[-1], b[-1]
        ma = self.select(sa, self.neg(a), a)
        mb = self.select(sb, self.neg(b), b)
        q = self.udivmod(ma, mb)
        q = self.select(self.XOR(sa, sb), self.neg(q), q)
        nz = b[0]
        for bk in b[1:]:
            nz = self.OR(nz, bk)
        return [self.AND(qk, nz) for qk in q]

    # -- one command -------------------------------------------------------------
    def run(self, op: str, ty: str, srcs: list[np.ndarray]) -> np.ndarray | None:
        """Raw result words of ``op`` on raw operand words, or None if f32 arithmetic."""
        bits = ELEMENT_BITS[ty]
        if is_float_element(ty) and op not in FP_BITWISE:
            return None
        signed = ty != "i1"
        if op == "select":
            c = self.load(srcs[0], 1)[0]
            a, b = self.load(srcs[1], bits), self.load(srcs[2], bits)
            return self.store(self.select(c, a, b), bits)
        ins = [self.load(s, bits) for s in srcs]
        if op in COMPARE_OPS:
            a, b = ins
            if op == "cmp_lt":
                r = self.lt(a, b, signed)
            elif op == "cmp_eq":
                r = self.eq(a, b)
            else:
                r = self.OR(self.lt(a, b, signed), self.eq(a, b))
            return self.store([r], 1)
        out: list[Plane]
        if op == "copy":
            out = list(ins[0])
        elif op in ("and", "or", "xor"):
            f = {"and": self.AND, "or": self.OR, "xor": self.XOR}[op]
            out = [f(x, y) for x, y in zip(ins[0], ins[1])]
        elif op == "not":
            out = [self.NOT(x) for x in ins[0]]
        elif is_float_element(ty):  # sign-bit operations
            a = ins[0]
            if op == "neg":
                out = a[:-1] + [self.NOT(a[-1])]
            elif op == "abs":
                out = a[:-1] + [self.zeros()]
            else:  # relu: +0 when the sign bit is set
                keep = self.NOT(a[-1])
                out = [self.AND(x, keep) for x in a]
        elif op == "add":
            out = self.add(ins[0], ins[1])[0]
        elif op == "sub":
            out = self.sub(ins[0], ins[1])[0]
        elif op == "mul":
            out = self.mul(ins[0], ins[1])
        elif op == "fma":
            out = self.add(self.mul(ins[0], ins[1]), ins[2])[0]
        elif op == "div":
            out = self.div(ins[0], ins[1], signed)
        elif op in ("min", "max"):
            a, b = ins
            lt = self.lt(a, b, signed)
            out = self.select(lt, a, b) if op == "min" else self.select(lt, b, a)
        elif op == "neg":
            out = self.neg(ins[0])
        elif op == "abs":
            a = ins[0]
            out = self.select(a[-1], self.neg(a), a) if signed else list(a)
        elif op == "relu":
            a = ins[0]
            if signed:
                keep = self.NOT(a[-1])
                out = [self.AND(x, keep) for x in a]
            else:
                out = list(a)
        else:
            raise ValueError(f"unknown compute op '{op}'")
        return self.store(out, bits)
