"""Bit-sliced sparse MVM on crossbar kernels (infs.sim.xbar.mvm) against
scipy.sparse: random sparse matrices of odd sizes, adversarial words (0, -1,
the sign bit), the Table V matrices' shapes, the kernels as records, the
cost model's counts."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from infs.dialects.xbar_records import single_kernel_program
from infs.sim.xbar.evaluate import evaluate
from infs.sim.xbar.mvm import (
    ADDER_SLICES,
    MASK,
    MULTIPLIERS_PER_PE,
    TABLE_V,
    MvmError,
    SparseMatrix,
    adder_program,
    bits_word,
    multiplier_kernel,
    multiplier_table,
    multiply_slices,
    mvm,
    random_pattern,
    simpler_mvm_cost,
    spatial_blocks,
    stream_mvm_cost,
    table_v_matrix,
    word_bits,
)
from infs.sim.xbar.two_level import input_bits

SPECIAL = np.array([0, 1, -1, 2**31, 2**31 - 1, -(2**31), 0x55555555, 0xAAAAAAAA], dtype=np.int64)


def scipy_words(matrix: SparseMatrix, x: np.ndarray) -> np.ndarray:
    a = sp.csr_matrix((matrix.vals.astype(np.int64), (matrix.rows, matrix.cols)), shape=matrix.shape)
    # words below 2**32 times words below 2**32 overflow int64; split x into 16-bit halves
    xw = np.atleast_2d(x).astype(np.int64) & MASK
    lo, hi = xw & 0xFFFF, xw >> 16
    ylo = (a @ lo.T).T & MASK  # each term < 2**48, at most 2**15 terms: no int64 overflow
    a_lo = sp.csr_matrix(((matrix.vals & 0xFFFF).astype(np.int64), (matrix.rows, matrix.cols)), shape=matrix.shape)
    yhi = ((a_lo @ hi.T).T << 16) & MASK  # only the low 16 bits of a matter once shifted by 16
    return (ylo + yhi) & MASK


def random_sparse(rng, m: int, n: int, density: float, special: bool) -> SparseMatrix:
    mask = rng.random((m, n)) < density
    r, c = np.nonzero(mask)
    vals = rng.integers(0, 2**32, size=r.size)
    if special and r.size:
        vals[: min(r.size, SPECIAL.size)] = SPECIAL[: min(r.size, SPECIAL.size)]
    return SparseMatrix("random", (m, n), r, c, vals)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 23), st.integers(1, 23), st.floats(0.0, 1.0), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_mvm_matches_scipy(m, n, density, n_vectors, seed):
    rng = np.random.default_rng(seed)
    matrix = random_sparse(rng, m, n, density, special=bool(seed % 2))
    x = rng.integers(-(2**31), 2**31, size=(n_vectors, n))
    x[0, : min(n, SPECIAL.size)] = SPECIAL[: min(n, SPECIAL.size)]
    np.testing.assert_array_equal(mvm(matrix, x), scipy_words(matrix, x))


def test_mvm_one_vector_and_empty_matrix():
    matrix = SparseMatrix("empty", (3, 5), [], [], [])
    np.testing.assert_array_equal(mvm(matrix, np.arange(5)), np.zeros((1, 3)))
    matrix = random_pattern("p", 17, 40, seed=3)
    x = np.random.default_rng(1).integers(0, 2**32, size=17)
    np.testing.assert_array_equal(mvm(matrix, x), scipy_words(matrix, x))


def test_table_v_shapes_and_counts():
    for name, n, nnz in TABLE_V:
        matrix, how = table_v_matrix(name)
        assert matrix.shape == (n, n) and matrix.nnz == nnz, name
        assert ("exact" in how) == name.startswith("Trefethen")
    small, _ = table_v_matrix("Trefethen_20")
    x = np.random.default_rng(0).integers(-(2**31), 2**31, size=20)
    np.testing.assert_array_equal(mvm(small, x), scipy_words(small, x))


def test_multiplier_kernel_is_the_batched_form():
    rng = np.random.default_rng(5)
    for a in [0, 1, 7, 2**31, MASK, int(rng.integers(0, 2**32))]:
        kernel = multiplier_kernel(a)
        assert kernel.crossbars() == 2 and kernel.n_inputs == 4
        got = evaluate(single_kernel_program(kernel), input_bits(4))
        np.testing.assert_array_equal(got, multiplier_table(a))
        matrix = SparseMatrix("one", (1, 1), [0], [0], [a])
        x = rng.integers(0, 2**32, size=(2, 1))
        batched = multiply_slices(matrix, word_bits(x))[0]  # (V, 8, 32)
        slices = (x[:, :, None] >> (4 * np.arange(8))) & 15
        np.testing.assert_array_equal(batched, multiplier_table(a)[slices[:, 0]])


def test_adder_program_adds():
    program = adder_program()
    assert len(program.kernels) == ADDER_SLICES == 11
    rng = np.random.default_rng(2)
    a, b = rng.integers(0, 2**32, size=64), rng.integers(0, 2**32, size=64)
    a[:3], b[:3] = [MASK, 0, 2**31], [1, 0, 2**31]
    x = np.concatenate([word_bits(a), word_bits(b), np.zeros((64, 1), bool)], axis=1)
    np.testing.assert_array_equal(bits_word(evaluate(program, x)), (a + b) & MASK)


def test_spatial_blocks_algorithm_2():
    # a dense 30x30: the first block grows to 26x26 (676 >= 640) and takes its first 640 non-zeros
    # (rows 0-23, row 24's columns 0-15); then from (0, 26): columns 26-29 of every row (120); from
    # (24, 16): rows 24-29, columns 16-25 (60); from (25, 0): rows 25-29, columns 0-15 (80)
    r, c = np.nonzero(np.ones((30, 30), bool))
    dense = SparseMatrix("dense", (30, 30), r, c, np.ones(r.size))
    block = spatial_blocks(dense)
    assert np.bincount(block).tolist() == [640, 120, 60, 80]
    first = (dense.rows < 26) & (dense.cols < 26)
    assert (block[first][:640] == 0).all() and block[first].size == 676
    # every non-zero in exactly one block of at most 640, on random patterns
    rng = np.random.default_rng(4)
    for _ in range(5):
        n = int(rng.integers(5, 120))
        m = random_pattern("p", n, int(rng.integers(1, n * n)), seed=int(rng.integers(1 << 30)))
        b = spatial_blocks(m, threshold=37)
        assert (b >= 0).all() and np.bincount(b).max() <= 37
        # a block starts at the first non-zero (row-major) not in an earlier block
        starts = [int(np.flatnonzero(b == k)[0]) for k in range(b.max() + 1)]
        assert starts == sorted(starts) and starts[0] == 0


def test_mvm_cost_counts():
    matrix = random_pattern("p", 40, 700, seed=1)
    cost, extra = stream_mvm_cost(matrix)
    block = spatial_blocks(matrix)
    pes = int(block.max()) + 1
    assert extra["pes"] == pes and MULTIPLIERS_PER_PE == 640
    assert cost.area_um2 == pytest.approx(pes * 65700.0)  # Table III PE area
    split = sum(len(set(block[matrix.rows == r].tolist())) - 1 for r in np.unique(matrix.rows))
    assert extra["cross_pe_partials"] == split
    per_pe_rows = [len(set(matrix.rows[block == k].tolist())) for k in range(pes)]
    per_pe = np.bincount(block)
    assert extra["adds"] == int(7 * 700 + (per_pe - np.array(per_pe_rows)).sum())
    c2, _ = stream_mvm_cost(matrix, 2)
    assert c2.latency_ns > cost.latency_ns and c2.energy_pj > cost.energy_pj
    s = simpler_mvm_cost(matrix)
    gates = 40 * (528 * 3 + 496 * 9) + 39 * 32 * 9  # one row's MAGIC NOR gates
    steps = gates + -(-gates // 128)  # evaluations + initializations (a wordline per step)
    assert s.depth == steps and s.operations == 40 * gates
    assert s.latency_ns == pytest.approx(steps * 50.88)  # the 40 rows run the same steps at once
    assert s.energy_pj == pytest.approx(1 * steps * 3910.0)  # 40 rows: one crossbar per step
    cells = 2 * 40 * 32 + 32  # a row's 40 + 40 operand words and its result
    assert s.crossbars == 1 * -(-cells // 128) and s.area_um2 == pytest.approx(s.crossbars * 25.0 + 6.27)
    tall = random_pattern("t", 300, 900, seed=2)  # 300 rows: three crossbars along the rows
    t = simpler_mvm_cost(tall)
    assert t.energy_pj == pytest.approx(3 * t.depth * 3910.0) and t.latency_ns == pytest.approx(t.depth * 50.88)
    assert simpler_mvm_cost(matrix, 2).energy_pj == pytest.approx(2 * s.energy_pj)


def test_bad_matrix_and_vector():
    with pytest.raises(MvmError, match="outside its 2x2 shape"):
        SparseMatrix("m", (2, 2), [0, 2], [0, 0], [1, 1])
    with pytest.raises(MvmError, match="appears twice"):
        SparseMatrix("m", (2, 2), [0, 0], [1, 1], [1, 1])
    with pytest.raises(MvmError, match="expected 2 entries"):
        mvm(SparseMatrix("m", (2, 2), [0], [0], [1]), np.zeros(3))
    with pytest.raises(MvmError, match="not in Table V"):
        table_v_matrix("nope")
