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
of the model above, one per plane per gate, here in Python.  The hot gates run
as compiled kernels (``bit_kernels``, numba; imported on the first bit-level
command): ``add`` (the ripple) and ``mul`` do the same gates in the same order,
over blocks of ``bit_kernels.BLK`` words of every plane, so the rows stay in
cache (numpy, one call a gate over a whole plane, was memory-bound:
benchmarks/README.md).  A gate whose result is known without computing it (in
mul, an AND with a zero carry-in, the carry out of the top bit nobody reads) is
counted all the same; the kernels may skip it.  The rest (compares, select,
logic, div's control) are numpy calls over whole planes.  Loops in Python run
over the <= 64 bits of an element, never over bitlines.

Words <-> planes is a bit-matrix transpose (``Layout``), done for all bits and
bitlines at once with the delta swaps of Hacker's Delight §7-3: the words of a
``w``-bit register are laid out as ``w`` rows and each ``w x w`` block is
transposed in place by log2(w) rounds of shift/xor/mask over the rows
(``bit_kernels.transpose``).  Which bitline a bit of a plane stands for is the
layout's business (any fixed order works for element-wise gates); the inverse
transpose puts every bit back.
"""

from __future__ import annotations

import threading

import numpy as np

from infs.element_types import COMPARE_OPS, ELEMENT_BITS, WORD_TYPES, is_float_element

FP_BITWISE = {"and", "or", "xor", "not", "copy", "select", "neg", "abs", "relu"}

_U64 = np.uint64
_ALL = _U64(0xFFFFFFFFFFFFFFFF)
_ZERO = _U64(0)

_SCRATCH = threading.local()  # .bufs: this thread's buffers (``scratch``)


def kernels():
    """The compiled kernels (``infs.sim.sram.bit_kernels``), imported on the first
    bit-level command: importing numba costs a few hundred ms that word-level
    runs and ``import infs.api`` must not pay (test/test_startup.py)."""
    try:
        from infs.sim.sram import bit_kernels
    except RuntimeError as e:
        # numba keeps compiled kernels (cache=True) beside the module or in the
        # user's cache directory; with neither writable (a read-only install and
        # HOME) it refuses to compile at all.  Compile into a directory of this
        # process's own instead: bit-level mode then works, only uncached.
        if "cannot cache function" not in str(e):
            raise
        _private_numba_cache()
        from infs.sim.sram import bit_kernels

    return bit_kernels


def _private_numba_cache() -> None:
    import atexit
    import shutil
    import tempfile

    from numba.core import config

    path = tempfile.mkdtemp(prefix="infs-numba-")
    atexit.register(shutil.rmtree, path, True)
    config.CACHE_DIR = path


def scratch(name: str, rows: int, cols: int) -> np.ndarray:
    """A contiguous ``[rows, cols]`` ``uint64`` buffer kept between commands.

    A chunk's planes are up to about a MB each; fresh arrays would cost a page
    fault per 4 KB in every chunk of every command.  One flat buffer per name,
    grown to the largest chunk seen (about ``BitSerial.CHUNK_BYTES``; a few MB
    in all).  One set per thread: the kernels release the GIL, so two threads
    running machines would otherwise write each other's planes mid-command."""
    bufs = getattr(_SCRATCH, "bufs", None)
    if bufs is None:
        bufs = _SCRATCH.bufs = {}
    flat = bufs.get(name)
    if flat is None or flat.size < rows * cols:
        flat = bufs[name] = np.empty(rows * cols, _U64)
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

    def _transpose(self, src: np.ndarray, s0: int, dst: np.ndarray, d0: int, nl: int) -> None:
        """Each ``w x w`` bit block of lanes ``s0 .. s0 + nl`` of the ``[w, *]``
        rows ``src`` transposed into lanes ``d0 ..`` of ``dst``: the delta swaps of
        Hacker's Delight §7-3, compiled (``bit_kernels.transpose``)."""
        bk = kernels()
        bk.transpose(src, s0, dst, d0, nl, bk.MASKS)

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
        self._transpose(rows, l0, out, 0, l1 - l0)
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
            self._transpose(planes, 0, dest.reshape(bits, self.M).view(_U64), l0, l1 - l0)

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

    CHUNK_BYTES = 1 << 20
    """Bytes of one operand's planes per chunk (see ``Layout.chunks``).  Measured
    with the kernels on 4M-bitline i32 add / mul, CPU ms (chunks of 256 KB /
    512 KB / 1 MB / 2 MB / 4 MB): add 6.2 / 6.0 / 5.5 / 5.7 / 6.1, mul 13.4 /
    13.2 / 12.7 / 12.7 / 15.7 (benchmarks/README.md, "Bit-level mode")."""

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
            need_carry: bool = False, need_sum: bool = True,
            invert_b: bool = False) -> tuple[np.ndarray | None, np.ndarray | None]:
        """Ripple-carry ``a + b (+ carry)``, LSB first; returns (sum planes, carry out).

        Per bit: ``t = a ^ b``, ``s = t ^ c``, ``c' = (a & b) | (c & t)`` -- 5
        steps, counted here; ``bit_kernels.add`` computes them.  ``invert_b``:
        ``a + ~b`` (the caller counts the NOTs).  ``out`` may be ``a`` or ``b``."""
        m, nw = a.shape
        self.logic += 5 * m
        s = out if out is not None else (np.empty_like(a) if need_sum else a)
        cout = np.empty(nw, _U64) if need_carry else self._buf("cout", 1)[0]
        flip = _ALL if invert_b else _ZERO
        kernels().add(a, b, flip, cout if carry is None else carry, carry is not None, s, need_sum, cout, need_carry)
        return (s if need_sum else None), (cout if need_carry else None)

    def sub(self, a: np.ndarray, b: np.ndarray, need_carry: bool = False, need_sum: bool = True):
        """``a - b`` as ``a + ~b + 1``; the carry out is 1 iff ``a >= b`` (unsigned)."""
        self.logic += a.shape[0]
        return self.add(a, b, self.ones(), need_carry=need_carry, need_sum=need_sum, invert_b=True)

    def neg(self, a: np.ndarray) -> np.ndarray:
        return self.sub(self.zeros(a.shape[0]), a)[0]  # type: ignore[return-value]

    def mul(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Shift-add: ``acc = a & b[0]``, then partial product ``i`` (``a & b[i]``,
        bits ``i..n-1``) rippled into ``acc`` -- 1 + 5 steps a bit, n(n+1)/2
        full-adder steps in all; ``bit_kernels.mul`` computes them."""
        n = a.shape[0]
        self.logic += n + 6 * (n * (n - 1) // 2)
        acc = self._buf("acc", n)
        kernels().mul(a, b, acc)
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
