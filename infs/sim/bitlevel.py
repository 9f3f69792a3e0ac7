"""Bit-level execution: compute commands on packed bit-planes (ASPLOS §2.2).

In the transposed layout bit ``k`` of every element sits on wordline
``start + k``; a bit-serial PE per bitline reads one or two wordlines, does a
logic step and writes a wordline.  Here a wordline over the selected bitlines
is a *plane*: one bit per bitline, packed 64 to a ``uint64``, and a register
of ``m`` wordlines is an ``[m, words]`` array of planes (row ``k`` = bit ``k``).
The algorithms below are the textbook bit-serial ones:

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

Integers (i8/i16/i32/i64 two's complement; i1 as 0/1 with arithmetic mod 2)
and the f32/f64 operations that only touch bits (logic, select, copy, neg,
abs, relu) run here and must agree exactly with the word-level mode.  f32/f64
arithmetic and compares are not bit-serialized; ``BitSerial.run`` returns
``None`` for them and the machine executes them word-level (counted as a
fallback).

``reads``/``writes``/``logic`` count plane reads, plane writes and logic steps
of the model above, one per plane per gate.  The numpy code does the same gates
on whole planes, grouping the ones that do not depend on each other where that
is faster: in ``add`` the ``a ^ b`` and ``a & b`` of all bits are one call
each, only the carry ripples bit by bit, and the sums are one call once the
carries are known; ``mul`` goes bit by bit (its rows then stay in cache).  A
gate whose result is known without computing it (an AND with a zero carry-in,
the carry out of the top bit nobody reads) is counted but not executed.  Loops
run over the <= 64 bits of an element, never over bitlines.

Words <-> planes is a bit-matrix transpose (``Layout``), done for all bits and
bitlines at once with the delta swaps of Hacker's Delight §7-3: the words of a
``w``-bit register are laid out as ``w`` rows and each ``w x w`` block is
transposed in place by log2(w) rounds of shift/xor/mask over whole rows.  Which
bitline a bit of a plane stands for is the layout's business (any fixed order
works for element-wise gates); the inverse transpose puts every bit back.
"""

from __future__ import annotations

import numpy as np

from infs.dialects.element_types import COMPARE_OPS, ELEMENT_BITS, WORD_TYPES, is_float_element

FP_BITWISE = {"and", "or", "xor", "not", "copy", "select", "neg", "abs", "relu"}

_U64 = np.uint64
_ALL = _U64(0xFFFFFFFFFFFFFFFF)
# delta-swap masks: bit positions p with (p & j) == 0.  The same 64-bit mask
# serves w-bit lanes for any w >= 2j (w divides 64), so lanes never mix.
_MASK = {j: _U64(sum(1 << p for p in range(64) if not p & j)) for j in (32, 16, 8, 4, 2, 1)}
_SHIFT = {j: _U64(j) for j in _MASK}

_SCRATCH: dict[str, np.ndarray] = {}


def scratch(name: str, rows: int, cols: int) -> np.ndarray:
    """A contiguous ``[rows, cols]`` ``uint64`` buffer kept between commands.

    A chunk's planes are a few hundred KB each; fresh arrays would cost a page
    fault per 4 KB in every chunk of every command.  One flat buffer per name,
    grown to the largest chunk seen (about ``BitSerial.CHUNK_BYTES``; some 15 MB
    in all).  Module state, like the machine: one command at a time per process."""
    flat = _SCRATCH.get(name)
    if flat is None or flat.size < rows * cols:
        flat = _SCRATCH[name] = np.empty(rows * cols, _U64)
    return flat[: rows * cols].reshape(rows, cols)


class Layout:
    """Where the bits of ``n`` words of ``width`` bits go in bit-planes.

    ``n`` is padded to ``npad`` (a multiple of 64) and the words are read as
    ``width`` rows of ``M = npad / width`` words: word ``c = r * M + g`` is row
    ``r``, column ``g``.  After the transpose, plane ``k`` is ``M`` words of
    ``width`` bits in which bit ``r`` of word ``g`` is bit ``k`` of word
    ``r * M + g``; as ``uint64`` that is ``L = npad / 64`` words, and every
    64-bit lane holds ``64 / width`` independent ``width x width`` blocks.
    1-bit registers (an i1 operand or result, a select's condition) use the
    same bitline order, packed with ``np.packbits`` instead of transposed.

    Columns are independent, so a command runs in chunks of lanes
    (``chunks``): the planes of a chunk stay in cache from the transpose in
    through the gates to the transpose out."""

    def __init__(self, n: int, width: int):
        self.n = n
        self.width = width
        self.npad = max(64, -(-n // 64) * 64)
        self.M = self.npad // width
        self.L = self.npad // 64

    def chunks(self, chunk_bytes: int) -> list[tuple[int, int]]:
        """Lane ranges ``[l0, l1)`` whose ``width`` planes take about ``chunk_bytes``."""
        step = max(1, chunk_bytes // (8 * self.width))
        return [(l0, min(self.L, l0 + step)) for l0 in range(0, self.L, step)]

    def _transpose(self, src: np.ndarray, dst: np.ndarray) -> None:
        """Each ``w x w`` bit block of the ``[w, Lc]`` rows ``src`` transposed into
        ``dst`` (may be ``src``): round ``j`` swaps the bits at columns ``p + j``
        of rows ``k`` with those at columns ``p`` of rows ``k + j`` (``p``, ``k``
        with bit ``j`` clear).  6 row operations on half the rows per round."""
        w, lc = self.width, src.shape[1]
        tmp = scratch("transpose", w // 2, lc)
        j, s = w // 2, src
        while j:
            groups = w // (2 * j)
            # splitting the row axis is always a view, whatever the row stride
            sv, dv = s.reshape(groups, 2, j, lc), dst.reshape(groups, 2, j, lc)
            lo, hi = sv[:, 0], sv[:, 1]
            t = tmp.reshape(groups, j, lc)
            np.right_shift(lo, _SHIFT[j], out=t)
            t ^= hi
            t &= _MASK[j]
            np.bitwise_xor(hi, t, out=dv[:, 1])
            t <<= _SHIFT[j]
            np.bitwise_xor(lo, t, out=dv[:, 0])
            j, s = j // 2, dst

    def _padded(self, raw: np.ndarray) -> np.ndarray:
        if raw.size == self.npad and raw.flags.c_contiguous:
            return raw.reshape(-1)
        full = np.zeros(self.npad, raw.dtype)
        full[: self.n] = raw.reshape(-1)
        return full

    def prepare(self, raw: np.ndarray, bits: int) -> np.ndarray:
        """An operand's words as the layout's rows (a 0-d constant stays 0-d)."""
        raw = np.asarray(raw)
        if raw.ndim == 0:
            return raw
        if bits == 1:  # bit 0 of each word (the wordline)
            return np.bitwise_and(self._padded(raw.astype(np.uint8, copy=False)), 1).reshape(self.width, self.M)
        return self._padded(raw.astype(WORD_TYPES[bits], copy=False)).reshape(bits, self.M).view(_U64)

    def planes(self, rows: np.ndarray, bits: int, l0: int, l1: int, out: np.ndarray) -> np.ndarray:
        """``[bits, l1 - l0]`` planes of lanes ``l0..l1`` of a prepared operand,
        in ``out`` (a ``[bits, l1 - l0]`` buffer) unless 1-bit."""
        if rows.ndim == 0:  # a constant operand: every bitline holds the same word
            value = int(rows)
            out[...] = np.array([_ALL if value >> k & 1 else 0 for k in range(bits)], _U64)[:, None]
            return out
        if bits == 1:
            per = 64 // self.width  # columns per lane
            packed = np.packbits(rows[:, l0 * per : l1 * per].T, axis=1, bitorder="little")
            return packed.reshape(1, -1).view(_U64)
        self._transpose(rows[:, l0:l1], out)
        return out

    def destination(self, bits: int, out: np.ndarray | None) -> np.ndarray:
        """Padded result words; ``out`` itself when it can take the chunks directly."""
        if self._direct(bits, out) and self.n == self.npad:
            return out  # type: ignore[return-value]
        return np.empty(self.npad, WORD_TYPES[bits])

    def store(self, planes: np.ndarray, bits: int, dest: np.ndarray, l0: int, l1: int) -> None:
        """Lanes ``l0..l1`` of ``[bits, l1 - l0]`` planes back into words of ``dest``."""
        if bits == 1:
            per = 64 // self.width
            b8 = np.unpackbits(planes.reshape(-1).view(np.uint8).reshape(-1, self.width // 8), axis=1, bitorder="little")
            dest.reshape(self.width, self.M)[:, l0 * per : l1 * per] = b8.T
        else:
            self._transpose(planes, dest.reshape(bits, self.M).view(_U64)[:, l0:l1])

    def finish(self, dest: np.ndarray, bits: int, out: np.ndarray | None) -> np.ndarray:
        if dest is out:
            return dest
        if self._direct(bits, out):
            out[...] = dest[: self.n]  # type: ignore[index]
            return out  # type: ignore[return-value]
        return dest[: self.n]

    def _direct(self, bits: int, out: np.ndarray | None) -> bool:
        return out is not None and out.dtype == WORD_TYPES[bits] and out.shape == (self.n,) and out.flags.c_contiguous


class BitSerial:
    """Bit-serial ALU over the planes of ``ncells`` bitlines; counts steps."""

    CHUNK_BYTES = 1 << 21
    """Bytes of one operand's planes per chunk (see ``Layout.chunks``); measured
    on paper-64 (benchmarks/README.md, bench_sim)."""

    def __init__(self, ncells: int):
        self.ncells = ncells
        self.nwords = max(1, -(-ncells // 64))  # of the chunk being computed
        self.reads = 0
        self.writes = 0
        self.logic = 0

    # -- planes ----------------------------------------------------------------
    def zeros(self, m: int) -> np.ndarray:
        return np.zeros((m, self.nwords), _U64)

    def ones(self) -> np.ndarray:
        return np.full(self.nwords, _ALL, _U64)

    def _buf(self, name: str, m: int) -> np.ndarray:
        return scratch(name, m, self.nwords)

    # -- arithmetic on planes (row k = bit k) ----------------------------------
    def add(self, a: np.ndarray, b: np.ndarray, carry: np.ndarray | None = None, out: np.ndarray | None = None,
            need_carry: bool = False, need_sum: bool = True) -> tuple[np.ndarray | None, np.ndarray | None]:
        """Ripple-carry ``a + b (+ carry)``; returns (sum planes, carry out).

        Per bit: ``t = a ^ b``, ``s = t ^ c``, ``c' = (a & b) | (c & t)`` -- 5
        steps.  ``out`` may be ``a`` or ``b`` (both are read before it is written)."""
        m = a.shape[0]
        t = np.bitwise_xor(a, b, out=self._buf("t", m))
        g = np.bitwise_and(a, b, out=self._buf("g", m))
        return self._ripple(t, g, carry, out, need_carry, need_sum)

    def _ripple(self, t: np.ndarray, g: np.ndarray, carry: np.ndarray | None, out: np.ndarray | None,
                need_carry: bool, need_sum: bool) -> tuple[np.ndarray | None, np.ndarray | None]:
        """The adder given ``t = a ^ b`` and ``g = a & b`` of every bit (counted
        here, with the rest of the 5 steps a bit); ``g[k]`` becomes the carry out
        of bit ``k``, then the sums are ``t ^ carries`` in one call."""
        m = t.shape[0]
        self.logic += 5 * m
        tmp = self._buf("c", 1)[0]
        c = carry
        for k in range(m if need_carry else m - 1):
            if c is not None:  # c' = g | (c & t); with no carry in, c' = g
                np.bitwise_and(c, t[k], out=tmp)
                np.bitwise_or(g[k], tmp, out=g[k])
            c = g[k]
        s = None
        if need_sum:
            s = np.empty_like(t) if out is None else out
            if carry is None:
                s[0] = t[0]
            else:
                np.bitwise_xor(t[0], carry, out=s[0])
            np.bitwise_xor(t[1:], g[: m - 1], out=s[1:])
        return s, (g[m - 1].copy() if need_carry else None)

    def sub(self, a: np.ndarray, b: np.ndarray, need_carry: bool = False, need_sum: bool = True):
        """``a - b`` as ``a + ~b + 1``; the carry out is 1 iff ``a >= b`` (unsigned)."""
        self.logic += a.shape[0]
        return self.add(a, ~b, self.ones(), need_carry=need_carry, need_sum=need_sum)

    def neg(self, a: np.ndarray) -> np.ndarray:
        return self.sub(self.zeros(a.shape[0]), a)[0]  # type: ignore[return-value]

    def mul(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Shift-add: ``acc = a & b[0]``, then partial product ``i`` (``a & b[i]``,
        bits ``i..n-1``) rippled into ``acc`` -- 1 + 5 steps a bit.

        Bit by bit, not grouped like ``add``: the five rows a full adder touches
        stay in cache, where the grouped calls stream ``[n - i, words]`` arrays
        (measured: about 1.5x faster on paper-64, benchmarks/README.md)."""
        n = a.shape[0]
        acc = np.bitwise_and(a, b[0], out=self._buf("acc", n))
        self.logic += n + 6 * (n * (n - 1) // 2)
        rows, arows = list(acc), list(a)
        pp, t, c, x = self._buf("mul", 4)
        for i in range(1, n):  # partial product i only touches bits i..n-1
            bi = b[i]
            for k in range(i, n):
                s = rows[k]
                np.bitwise_and(arows[k - i], bi, out=pp)
                if k == i:  # no carry in: s' = s ^ pp, c' = s & pp
                    if k < n - 1:
                        np.bitwise_and(s, pp, out=c)
                    s ^= pp
                    continue
                np.bitwise_xor(s, pp, out=t)
                if k < n - 1:  # the top bit's carry out is not needed
                    np.bitwise_and(s, pp, out=x)
                    np.bitwise_and(c, t, out=s)  # s is free until its sum: c & t
                    np.bitwise_or(x, s, out=x)  # the carry out
                    np.bitwise_xor(t, c, out=s)
                    c, x = x, c
                else:
                    np.bitwise_xor(t, c, out=s)
        return acc

    def lt(self, a: np.ndarray, b: np.ndarray, signed: bool) -> np.ndarray:
        if signed:  # flip the sign bits: signed order becomes unsigned order
            self.logic += 2
            a, b = a.copy(), b.copy()
            np.invert(a[-1], out=a[-1])
            np.invert(b[-1], out=b[-1])
        _, ge = self.sub(a, b, need_carry=True, need_sum=False)
        self.logic += 1
        return ~ge  # type: ignore[operator]

    def eq(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """AND of the XNORs of all bits: 2 steps for bit 0, 3 for each further bit."""
        self.logic += 3 * a.shape[0] - 1
        x = np.bitwise_xor(a, b, out=self._buf("t", a.shape[0]))
        return ~np.bitwise_or.reduce(x, axis=0)

    def select(self, c: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """``c ? a : b`` per plane, ``(c & a) | (~c & b)``: 4 steps a plane."""
        self.logic += 4 * a.shape[0]
        r = np.bitwise_xor(a, b)
        r &= c
        r ^= b
        return r

    def udivmod(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Restoring division of unsigned magnitudes; the quotient planes."""
        n = a.shape[0]
        rem = self.zeros(n + 1)
        nbx = ~np.concatenate([b, self.zeros(1)])  # ~b, one bit wider
        q = np.empty((n, self.nwords), _U64)
        one = self.ones()
        for i in range(n - 1, -1, -1):
            rem[1:] = rem[:-1].copy()  # shift left, bring in bit i (wiring, no step)
            rem[0] = a[i]
            self.logic += n + 1  # the sub's ~b
            diff, ge = self.add(rem, nbx, one, need_carry=True)
            q[i] = ge
            rem = self.select(ge, diff, rem)  # type: ignore[arg-type]
        return q

    def div(self, a: np.ndarray, b: np.ndarray, signed: bool) -> np.ndarray:
        if not signed:  # i1: a / 1 = a, a / 0 = 0
            self.logic += 1
            return a & b
        sa, sb = a[-1], b[-1]
        ma = self.select(sa, self.neg(a), a)
        mb = self.select(sb, self.neg(b), b)
        q = self.udivmod(ma, mb)
        self.logic += 1
        q = self.select(sa ^ sb, self.neg(q), q)
        n = b.shape[0]
        self.logic += (n - 1) + n  # OR-reduce b to "b != 0", then AND each quotient bit
        q &= np.bitwise_or.reduce(b, axis=0)
        return q

    # -- one command -------------------------------------------------------------
    def run(self, op: str, ty: str, srcs: list[np.ndarray], out: np.ndarray | None = None) -> np.ndarray | None:
        """Raw result words of ``op`` on raw operand words (a 0-d operand is a
        constant on every bitline), or None for f32/f64 arithmetic.  ``out``: a
        contiguous vector of result words to write into, when possible."""
        bits = ELEMENT_BITS[ty]
        if is_float_element(ty) and op not in FP_BITWISE:
            return None
        layout = Layout(self.ncells, max(8, bits))
        in_bits = [1 if op == "select" and i == 0 else bits for i in range(len(srcs))]
        out_bits = 1 if op in COMPARE_OPS else bits
        rows = [layout.prepare(s, m) for s, m in zip(srcs, in_bits)]
        dest = layout.destination(out_bits, out)
        steps = None
        for l0, l1 in layout.chunks(self.CHUNK_BYTES):
            self.nwords = l1 - l0
            self.reads += sum(in_bits)  # the operands' wordlines
            ins = [layout.planes(r, m, l0, l1, self._buf(f"in{i}", m)) for i, (r, m) in enumerate(zip(rows, in_bits))]
            res = self._compute(op, ty, ins)
            self.writes += out_bits
            layout.store(res, out_bits, dest, l0, l1)
            if steps is None:  # every chunk takes the same steps; the command takes them once
                steps = (self.reads, self.writes, self.logic)
        self.reads, self.writes, self.logic = steps  # type: ignore[misc]
        return layout.finish(dest, out_bits, out)

    def _compute(self, op: str, ty: str, ins: list[np.ndarray]) -> np.ndarray:
        """The result planes of ``op`` on operand planes."""
        bits = ELEMENT_BITS[ty]
        signed = ty != "i1"
        if op == "select":
            return self.select(ins[0][0], ins[1], ins[2])
        if op in COMPARE_OPS:
            a, b = ins
            if op == "cmp_lt":
                r = self.lt(a, b, signed)
            elif op == "cmp_eq":
                r = self.eq(a, b)
            else:
                self.logic += 1
                r = self.lt(a, b, signed) | self.eq(a, b)
            return r[None]
        res: np.ndarray
        if op == "copy":
            res = ins[0]
        elif op in ("and", "or", "xor"):
            self.logic += bits
            res = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[op](ins[0], ins[1])
        elif op == "not":
            self.logic += bits
            res = ~ins[0]
        elif is_float_element(ty):  # sign-bit operations
            res = ins[0]
            if op == "neg":
                self.logic += 1
                np.invert(res[-1], out=res[-1])
            elif op == "abs":
                res[-1] = 0
            else:  # relu: +0 when the sign bit is set
                self.logic += 1 + bits
                res &= ~res[-1]
        elif op == "add":
            res = self.add(ins[0], ins[1], out=self._buf("sum", bits))[0]  # type: ignore[assignment]
        elif op == "sub":
            res = self.sub(ins[0], ins[1])[0]
        elif op == "mul":
            res = self.mul(ins[0], ins[1])
        elif op == "fma":
            res = self.add(self.mul(ins[0], ins[1]), ins[2])[0]  # type: ignore[assignment]
        elif op == "div":
            res = self.div(ins[0], ins[1], signed)
        elif op in ("min", "max"):
            a, b = ins
            lt = self.lt(a, b, signed)
            res = self.select(lt, a, b) if op == "min" else self.select(lt, b, a)
        elif op == "neg":
            res = self.neg(ins[0])
        elif op == "abs":
            a = ins[0]
            res = self.select(a[-1], self.neg(a), a) if signed else a
        elif op == "relu":
            res = ins[0]
            if signed:
                self.logic += 1 + bits
                res &= ~res[-1]
        else:
            raise ValueError(f"unknown compute op '{op}'")
        return res
