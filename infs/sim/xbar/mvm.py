"""Sparse matrix-vector products on STREAM by bit-slicing (STREAM §VI-B,
Fig. 10, §VII, §VIII-C2), their cost, and the SIMPLER-style baseline.

Takes a sparse matrix as COO arrays of 32-bit words (``SparseMatrix``) and
input vectors of 32-bit words; gives ``y = A x`` modulo ``2**32`` (two's
complement words: a fixed-point format's raw words, its scale left to the
host) computed *through the crossbar kernels*, and ``XbarCost`` figures.

How the product is computed (every bit passes through OR-plane layers):

* each non-zero ``a`` is a constant multiplier: the Boolean function of a
  4-bit slice ``s`` of ``x`` giving the 32 low bits of ``a * s`` (§VIII-C2:
  the matrix operands are constants, 4-bit slices), mapped as a two-level
  kernel (``two_level.truth_table_kernel``: a 16-minterm decoder crossbar
  and a 16x32 OR crossbar; STREAM-M's node form, Fig. 8(a));
* the eight slices of ``x`` stream through it one after another (the time
  steps of Fig. 10(ii)); the shifter (Table III) places slice ``t``'s product
  ``4 t`` bits up;
* the shifted products and then a row's products are summed by STREAM's
  ADDER (§VII, Fig. 11(c)): a 32-bit add as eleven 3-bit slices (the largest
  adder a 128x128 crossbar pair holds, §VIII-B, Fig. 16), each slice the
  two-level kernel of its truth table, the carry rippling from slice to
  slice.  Sums are formed as balanced trees (the order a pipelined shared
  adder may take; addition modulo ``2**32`` is associative).

Spatial partitioning is Algorithm 2 (``spatial_blocks``): square blocks
grown from the first unassigned non-zero until they hold a PE's 640
multipliers (128 staircase units of 10 crossbars, Table III, five
two-crossbar multipliers each).  What is not modelled: inter-PE bus latency
and energy (Table III gives the bus's area and power but no transfer time;
the partial sums of rows split between PEs are counted,
``cross_pe_partials``, and added by one adder, not priced on the bus).

The matrices of Table V: the Trefethen matrices are generated exactly
(Trefethen's definition: the primes on the diagonal, 1 where ``|i - j|`` is
a power of two; the dimensions and non-zero counts match Table V); the
others are seeded random patterns with Table V's dimensions and non-zero
counts (their SuiteSparse files were not available offline).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...dialects.xbar_records import PRIMARY, XbarKernel, XbarProgram
from ...hardware.xbar import (
    ADDER,
    ADDER_BITS_PER_PAIR,
    CONTROLLER,
    CROSSBAR,
    DEFAULT_TECH,
    EDRAM_BUFFER,
    PE,
    SHIFTER,
    STAIRCASE_CROSSBARS,
    STAIRCASE_UNITS_PER_PE,
    XbarTech,
)
from .cost import MW_NS_TO_PJ, XbarCost
from .evaluate import evaluate_kernel, or_plane
from .magic import AND_GATES, FULL_ADDER_GATES, magic_steps
from .two_level import adder_slice_table, input_bits, truth_table_kernel

WORD_BITS = 32  # 32-bit operands, §VIII-C2
SLICE_BITS = 4  # bit-slicing width, §VIII-C2
N_SLICES = WORD_BITS // SLICE_BITS
ADDER_SLICES = -(-WORD_BITS // ADDER_BITS_PER_PAIR)  # 11 three-bit slices for a 32-bit add
MULTIPLIER_CROSSBARS = 2  # decoder + OR plane, each within one 128x128 crossbar
MULTIPLIERS_PER_PE = STAIRCASE_UNITS_PER_PE * (STAIRCASE_CROSSBARS // MULTIPLIER_CROSSBARS)  # 640
MASK = (1 << WORD_BITS) - 1


class MvmError(ValueError):
    """A matrix or vector the MVM cannot take (one line)."""


@dataclass(frozen=True, eq=False)
class SparseMatrix:
    """COO form: ``vals[e]`` (a 32-bit word, int64 holding ``0 .. 2**32-1``) at ``(rows[e], cols[e])``."""

    name: str
    shape: tuple[int, int]
    rows: np.ndarray
    cols: np.ndarray
    vals: np.ndarray

    def __post_init__(self) -> None:
        m, n = self.shape
        r, c = np.asarray(self.rows, np.int64), np.asarray(self.cols, np.int64)
        v = np.asarray(self.vals, np.int64) & MASK
        if not (r.shape == c.shape == v.shape) or r.ndim != 1:
            raise MvmError(f"matrix {self.name}: rows, cols and vals must be equal-length vectors")
        if r.size and (r.min() < 0 or r.max() >= m or c.min() < 0 or c.max() >= n):
            raise MvmError(f"matrix {self.name}: an index lies outside its {m}x{n} shape")
        order = np.lexsort((c, r))  # row-major: the PEs take consecutive rows
        key = r[order] * n + c[order]
        if key.size > 1 and (np.diff(key) == 0).any():
            raise MvmError(f"matrix {self.name}: a position appears twice")
        object.__setattr__(self, "rows", r[order])
        object.__setattr__(self, "cols", c[order])
        object.__setattr__(self, "vals", v[order])

    @property
    def nnz(self) -> int:
        return int(self.rows.size)


def _primes(count: int) -> np.ndarray:
    limit = max(16, int(count * (np.log(count + 1) + np.log(np.log(count + 2)) + 2)))
    sieve = np.ones(limit + 1, dtype=np.bool_)
    sieve[:2] = False
    for p in range(2, int(limit**0.5) + 1):
        if sieve[p]:
            sieve[p * p :: p] = False
    return np.flatnonzero(sieve)[:count]


def trefethen(n: int, name: str | None = None) -> SparseMatrix:
    """Trefethen's matrix: primes on the diagonal, 1 where ``|i - j|`` is a power of two."""
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    d = np.abs(i - j)
    mask = (d > 0) & ((d & (d - 1)) == 0)
    mask |= d == 0
    r, c = np.nonzero(mask)
    vals = np.where(r == c, _primes(n)[r], 1)
    return SparseMatrix(name or f"Trefethen_{n}", (n, n), r, c, vals)


def random_pattern(name: str, n: int, nnz: int, seed: int) -> SparseMatrix:
    """A seeded ``n x n`` pattern with ``nnz`` non-zeros (the diagonal first), random 16-bit signed values."""
    rng = np.random.default_rng(seed)
    diag = np.arange(min(n, nnz))
    flat = diag * n + diag
    while flat.size < nnz:  # draw off-diagonal positions until enough distinct ones
        draw = rng.integers(0, n * n, size=2 * (nnz - flat.size) + 16)
        draw = draw[draw // n != draw % n]
        _, first = np.unique(draw, return_index=True)
        draw = draw[np.sort(first)]
        draw = draw[~np.isin(draw, flat)]
        flat = np.concatenate([flat, draw[: nnz - flat.size]])
    vals = rng.integers(-(1 << 15), 1 << 15, size=flat.size)
    vals[vals == 0] = 1
    return SparseMatrix(name, (n, n), flat // n, flat % n, vals)


# STREAM Table V: (name, dimension, non-zeros); Trefethen_200b is Trefethen_200 without its last row and column.
TABLE_V: tuple[tuple[str, int, int], ...] = (
    ("Trefethen_20", 20, 158),
    ("mesh3em5", 289, 1377),
    ("Trefethen_150", 150, 2040),
    ("Trefethen_200b", 199, 2873),
    ("Trefethen_200", 200, 2890),
    ("bcsstk02", 66, 4356),
    ("Trefethen_300", 300, 4678),
    ("Chem97ZtZ", 2541, 7361),
    ("Trefethen_500", 500, 8478),
    ("Journals", 124, 12068),
    ("Trefethen_700", 700, 12654),
)


def table_v_matrix(name: str) -> tuple[SparseMatrix, str]:
    """One Table V matrix and how it was obtained ("exact" or "generated")."""
    for idx, (nm, n, nnz) in enumerate(TABLE_V):
        if nm == name:
            if nm.startswith("Trefethen"):
                m = trefethen(200, nm) if nm == "Trefethen_200b" else trefethen(n, nm)
                if nm == "Trefethen_200b":
                    keep = (m.rows < n) & (m.cols < n)
                    m = SparseMatrix(nm, (n, n), m.rows[keep], m.cols[keep], m.vals[keep])
                return m, "exact (Trefethen's definition)"
            return random_pattern(nm, n, nnz, seed=idx), "generated (Table V's dimensions and non-zeros, seeded)"
    raise MvmError(f"matrix {name!r}: not in Table V ({', '.join(n for n, _, _ in TABLE_V)})")


# ---- the kernels ------------------------------------------------------------

_SLICE_VALUES = np.arange(1 << SLICE_BITS, dtype=np.int64)


def multiplier_table(a: int) -> np.ndarray:
    """bool ``(16, 32)``: the low 32 bits of ``a * s`` for every 4-bit ``s``."""
    prod = ((int(a) & MASK) * _SLICE_VALUES) & MASK
    return ((prod[:, None] >> np.arange(WORD_BITS)) & 1).astype(np.bool_)


def multiplier_kernel(a: int) -> XbarKernel:
    """The constant multiplier of one non-zero as a two-level kernel (4 inputs, 32 outputs)."""
    return truth_table_kernel(multiplier_table(a), all_minterms=True)


ADDER_SLICE = truth_table_kernel(adder_slice_table(ADDER_BITS_PER_PAIR))  # 7 inputs, 4 outputs


def adder_program(bits: int = WORD_BITS) -> XbarProgram:
    """A ``bits``-bit adder as chained 3-bit slices (inputs a0.., b0..; outputs s0..), carry-in 0."""
    w = ADDER_BITS_PER_PAIR
    n_slices = -(-bits // w)
    kernels, wiring = [], []
    zero_pi = 2 * bits  # a constant-0 primary input: the first carry-in and the bits past the top
    for k in range(n_slices):
        src = []
        for operand in range(2):
            for b in range(w):
                bit = k * w + b
                src.append((PRIMARY, operand * bits + bit) if bit < bits else (PRIMARY, zero_pi))
        src.append((PRIMARY, zero_pi) if k == 0 else (k - 1, w))
        kernels.append(ADDER_SLICE)
        wiring.append(np.array(src))
    outs = np.array([(bit // w, bit % w) for bit in range(bits)])
    names_in = tuple(f"a{b}" for b in range(bits)) + tuple(f"b{b}" for b in range(bits)) + ("zero",)
    return XbarProgram(tuple(kernels), tuple(wiring), outs, names_in, tuple(f"s{b}" for b in range(bits)), "stream-m")


def word_bits(words: np.ndarray) -> np.ndarray:
    """int (...) -> bool (..., 32), bit ``k`` at index ``k``."""
    return ((np.asarray(words, np.int64)[..., None] >> np.arange(WORD_BITS)) & 1).astype(np.bool_)


def bits_word(bits: np.ndarray) -> np.ndarray:
    """bool (..., 32) -> int64 words ``0 .. 2**32-1``."""
    return (bits.astype(np.int64) << np.arange(WORD_BITS)).sum(axis=-1)


def add_words(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a + b`` modulo ``2**32`` on bool words ``(..., 32)``, slice by slice through ``ADDER_SLICE``."""
    w = ADDER_BITS_PER_PAIR
    lead = a.shape[:-1]
    pad = ADDER_SLICES * w - WORD_BITS
    fa = np.concatenate([a, np.zeros(lead + (pad,), np.bool_)], axis=-1).reshape(-1, ADDER_SLICES, w)
    fb = np.concatenate([b, np.zeros(lead + (pad,), np.bool_)], axis=-1).reshape(-1, ADDER_SLICES, w)
    carry = np.zeros((fa.shape[0], 1), np.bool_)
    out = np.empty_like(fa)
    for k in range(ADDER_SLICES):  # the carry ripples slice to slice (the staircase's pairs, Fig. 11(c))
        res = evaluate_kernel(ADDER_SLICE, np.concatenate([fa[:, k], fb[:, k], carry], axis=1))
        out[:, k], carry = res[:, :w], res[:, w:]
    return out.reshape(lead + (ADDER_SLICES * w,))[..., :WORD_BITS]


def tree_sum(words: np.ndarray, axis: int) -> np.ndarray:
    """Sum bool words along ``axis`` (not the bit axis) by a balanced tree of ``add_words``."""
    x = np.moveaxis(words, axis, 0)
    while x.shape[0] > 1:
        if x.shape[0] % 2:
            x = np.concatenate([x, np.zeros((1,) + x.shape[1:], np.bool_)], axis=0)
        x = add_words(x[0::2], x[1::2])
    return x[0]


_DECODER = truth_table_kernel(multiplier_table(1), all_minterms=True).layers[0]  # the shared 16-minterm layer


def multiply_slices(matrix: SparseMatrix, x_bits: np.ndarray) -> np.ndarray:
    """Every non-zero's kernel on every slice of its column's input.

    ``x_bits`` bool ``(V, N, 32)`` -> bool ``(E, V, 8, 32)``: the product of the
    non-zero with slice ``t`` (not yet shifted)."""
    v = x_bits.shape[0]
    slices = x_bits.reshape(v, x_bits.shape[1], N_SLICES, SLICE_BITS)  # slice t = bits 4t .. 4t+3
    inputs = np.moveaxis(slices[:, matrix.cols], 1, 0).reshape(matrix.nnz, v * N_SLICES, SLICE_BITS)
    decoded = or_plane(np.concatenate([inputs, ~inputs], axis=-1), _DECODER.plane, _DECODER.invert)
    prod_words = (matrix.vals[:, None] * _SLICE_VALUES[None, :]) & MASK  # (E, 16): each kernel's OR plane
    planes = ((prod_words[..., None] >> np.arange(WORD_BITS)) & 1).astype(np.bool_)  # (E, 16, 32)
    out = or_plane(decoded, planes, np.zeros((matrix.nnz, WORD_BITS), np.bool_))
    return out.reshape(matrix.nnz, v, N_SLICES, WORD_BITS)


def shift_slices(products: np.ndarray) -> np.ndarray:
    """The shifter: slice ``t``'s product moved ``4 t`` bits up, bits past 32 dropped."""
    out = np.zeros_like(products)
    for t in range(N_SLICES):
        s = SLICE_BITS * t
        out[..., t, s:] = products[..., t, : WORD_BITS - s]
    return out


def _row_layout(matrix: SparseMatrix) -> tuple[np.ndarray, np.ndarray, int]:
    counts = np.bincount(matrix.rows, minlength=matrix.shape[0])
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    pos = np.arange(matrix.nnz) - starts[matrix.rows]
    return counts, pos, int(counts.max()) if counts.size else 0


def mvm(matrix: SparseMatrix, x) -> np.ndarray:
    """``y = A x`` modulo ``2**32`` through the kernels: ``x`` int ``(N,)`` or ``(V, N)`` -> int64 ``(V, M)`` words."""
    x = np.asarray(x)
    if x.ndim == 1:
        x = x[None, :]
    if x.ndim != 2 or x.shape[1] != matrix.shape[1]:
        raise MvmError(f"vector: expected {matrix.shape[1]} entries for {matrix.name}, got shape {x.shape}")
    v = x.shape[0]
    m = matrix.shape[0]
    if matrix.nnz == 0:
        return np.zeros((v, m), np.int64)
    per_nnz = tree_sum(shift_slices(multiply_slices(matrix, word_bits(x & MASK))), axis=2)  # (E, V, 32)
    counts, pos, width = _row_layout(matrix)
    grid = np.zeros((m, width, v, WORD_BITS), np.bool_)
    grid[matrix.rows, pos] = per_nnz
    return bits_word(tree_sum(grid, axis=1)).T


# ---- cost ------------------------------------------------------------------


def adds_needed(matrix: SparseMatrix) -> tuple[int, int]:
    """(adds per vector, longest chain of dependent adds): seven per non-zero for its
    slices, then a row's products summed in a tree."""
    counts, _, width = _row_layout(matrix)
    slice_adds = (N_SLICES - 1) * matrix.nnz
    row_adds = int(np.maximum(counts - 1, 0).sum())
    chain = int(np.ceil(np.log2(N_SLICES))) + (int(np.ceil(np.log2(width))) if width > 1 else 0)
    return slice_adds + row_adds, chain


def spatial_blocks(matrix: SparseMatrix, threshold: int = MULTIPLIERS_PER_PE) -> np.ndarray:
    """Algorithm 2 (§VI-A, Fig. 9(c)): the block (PE) of every non-zero.

    From the first non-zero not yet extracted (row-major), a ``k x k`` block
    with that non-zero at its top-left corner grows until it covers
    ``threshold`` non-extracted non-zeros (or reaches the matrix's edge); the
    block is extracted, at most ``threshold`` of its non-zeros (row-major: a
    PE holds ``threshold`` multipliers).  The count is monotone in ``k``, so
    the smallest ``k`` is found by bisection rather than one step at a time."""
    m, n = matrix.shape
    block = np.full(matrix.nnz, -1, dtype=np.int64)
    b = 0
    while True:
        left = np.flatnonzero(block < 0)
        if left.size == 0:
            return block
        r0, c0 = matrix.rows[left[0]], matrix.cols[left[0]]
        rr, cc = matrix.rows[left], matrix.cols[left]

        def inside(k: int) -> np.ndarray:
            return (rr >= r0) & (rr < r0 + k) & (cc >= c0) & (cc < c0 + k)

        lo, hi = 1, max(m - r0, n - c0)
        while lo < hi:  # the smallest k whose block holds `threshold` non-zeros (or the largest block)
            mid = (lo + hi) // 2
            if np.count_nonzero(inside(mid)) >= threshold:
                hi = mid
            else:
                lo = mid + 1
        block[left[np.flatnonzero(inside(lo))[:threshold]]] = b
        b += 1


def stream_mvm_cost(matrix: SparseMatrix, n_vectors: int = 1, tech: XbarTech = DEFAULT_TECH) -> tuple[XbarCost, dict]:
    """STREAM's figures for ``n_vectors`` products with ``matrix`` (see the module docstring)."""
    nnz = matrix.nnz
    block = spatial_blocks(matrix) if nnz else np.zeros(0, np.int64)
    pes = max(1, int(block.max()) + 1 if nnz else 1)
    # a row's products on one PE are summed there; each further PE holding part of the row sends a partial sum
    pairs = np.unique(matrix.rows * pes + block) if nnz else np.zeros(0, np.int64)
    rows_touched = np.unique(matrix.rows).size
    cross = int(pairs.size - rows_touched)
    per_pe = np.bincount(block, minlength=pes) if nnz else np.zeros(1, np.int64)
    rows_per_pe = np.bincount(pairs % pes, minlength=pes) if nnz else np.zeros(1, np.int64)
    adds_pe = (N_SLICES - 1) * per_pe + np.maximum(per_pe - rows_per_pe, 0)  # slices, then a row's products
    adds = int(adds_pe.sum())
    _, chain = adds_needed(matrix)
    adder_depth = 2 * ADDER_SLICES  # READs through one 32-bit add (a crossbar pair per slice)
    mult_steps = MULTIPLIER_CROSSBARS + N_SLICES * n_vectors - 1  # slices stream through the multipliers
    # each PE's one ADDER takes a new add every READ; a dependent add waits for its operand; the PEs run in
    # parallel, then the partial sums of split rows are added (one adder, one add per READ)
    add_steps = max(int(adds_pe.max()) * n_vectors, chain * adder_depth) + adder_depth - 1 + cross * n_vectors
    latency = (mult_steps + add_steps) * tech.read_ns
    reads = nnz * MULTIPLIER_CROSSBARS * N_SLICES * n_vectors + (adds + cross) * adder_depth * n_vectors
    peripheral_mw = EDRAM_BUFFER.power_mw + SHIFTER.power_mw + CONTROLLER.power_mw  # Table III, per PE
    energy = reads * tech.read_pj + pes * peripheral_mw * latency * MW_NS_TO_PJ
    area = pes * PE.area_um2  # Table III PE (128 staircase units, one ADDER, buffer)
    crossbars = nnz * MULTIPLIER_CROSSBARS + pes * 2 * ADDER_SLICES
    cost = XbarCost("stream (two-level kernels)", area, latency, energy, crossbars,
                    MULTIPLIER_CROSSBARS + chain * adder_depth, reads)
    return cost, {"pes": pes, "adds": adds, "cross_pe_partials": cross, "adder_crossbars_table_iii": ADDER.spec}


# SIMPLER [30] as STREAM §VIII-C2 describes it: MAGIC gates executed in a single
# row, every matrix row's dot product in its own row in parallel, no use of the
# matrix's sparsity (the reason STREAM gives for beating it, §IX).
MULTIPLY_AND_GATES = sum(WORD_BITS - i for i in range(WORD_BITS)) * AND_GATES  # partial products of the low 32 bits
MULTIPLY_FA_GATES = sum(WORD_BITS - k for k in range(1, WORD_BITS)) * FULL_ADDER_GATES  # ripple rows of the array multiplier
ADD_GATES = WORD_BITS * FULL_ADDER_GATES  # 32-bit ripple adder


def simpler_row_cells(n: int) -> int:
    """Cells a matrix row's function needs in its memory row (a lower bound): its operands, ``n`` matrix
    words and ``n`` vector words, and the 32-bit result; the multiplier's working cells, reused, are not counted."""
    return 2 * n * WORD_BITS + WORD_BITS


def simpler_mvm_cost(matrix: SparseMatrix, n_vectors: int = 1, tech: XbarTech = DEFAULT_TECH) -> XbarCost:
    """The SIMPLER-style figures (SIMPLER [30]: a function's MAGIC NOR sequence in one row, the same
    sequence in every row at once).

    Per matrix row: ``N`` 32-bit multiplies and ``N - 1`` adds in MAGIC NOR gates (``magic``), zeros
    included; every row runs the sequence in the same cycles, so a cycle is one MAGIC step
    (``magic_steps``: an evaluation per gate, an initialization per 128 output cells) and the run is
    the row's step count, vectors one after another.  Energy: a step is one WRITE (STREAM §II-C) in
    each of the ``ceil(M / 128)`` crossbars whose rows it drives (a gate's cells lie in one 128-column
    band).  Area: ``M`` rows of ``simpler_row_cells(N)`` cells (a lower bound)."""
    m, n = matrix.shape
    gates_per_row = n * (MULTIPLY_AND_GATES + MULTIPLY_FA_GATES) + (n - 1) * ADD_GATES
    steps = magic_steps(gates_per_row, tech.cols)  # one vector, all rows at once
    row_bands = -(-m // tech.rows)  # crossbars stacked along the matrix rows
    latency = steps * n_vectors * tech.write_ns
    energy = row_bands * steps * n_vectors * tech.write_pj
    crossbars = row_bands * -(-simpler_row_cells(n) // tech.cols)
    area = crossbars * CROSSBAR.area_um2 + CONTROLLER.area_um2
    return XbarCost("simpler", area, latency, energy, crossbars, steps, m * gates_per_row * n_vectors)


def reference_words(matrix: SparseMatrix, x) -> np.ndarray:
    """The same product in plain integer numpy (int64, then modulo 2**32), for reports' checks."""
    x = np.atleast_2d(np.asarray(x, np.int64)) & MASK
    y = np.zeros((x.shape[0], matrix.shape[0]), np.uint64)
    contrib = (matrix.vals.astype(np.uint64)[None, :] * x[:, matrix.cols].astype(np.uint64))
    np.add.at(y, (slice(None), matrix.rows), contrib)
    return (y & np.uint64(MASK)).astype(np.int64)
