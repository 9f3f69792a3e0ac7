"""Functional runs on the full paper-64 (and cal-64) machines against numpy on the lattice."""

import numpy as np
import pytest
from sim_helpers import parse_program, program_text

from infs.sim import Machine

N, T = 2048, 16
MT = f"memref<{N}x{N}xf32>"
ARRS = [("a", MT), ("b", MT)]
HEAD = (
    f"  pimcmd.array %a shape [{N}, {N}] wordline 0 : {MT}\n"
    f"  pimcmd.array %b shape [{N}, {N}] wordline 32 : {MT}\n"
    f"  pimcmd.transpose_in %a : {MT}\n  pimcmd.transpose_in %b : {MT}\n"
)
TAIL = f"\n  pimcmd.release %b : {MT}"
ALL = f"tiles 0:1:{(N // T) ** 2}"


def alg2(d: int) -> str:
    """ASPLOS Alg. 2: mv along dim 1 by d over the whole lattice (tile size T)."""
    inter, intra = abs(d) // T, abs(d) % T
    comp = T - intra
    cmds = []
    if d > 0:
        cmds.append((0, comp, inter, intra))
        if intra:
            cmds.append((comp, T, inter + 1, -comp))
    else:
        if intra:
            cmds.append((0, intra, -(inter + 1), comp))
        cmds.append((intra, T, -inter, -intra))
    out = []
    for lo, hi, ti, bi in cmds:
        out.append(f"  pimcmd.shift f32 dst 32 src 0 dim 1 mask [{lo}:{hi}] inter {ti} intra {bi} bitlines {lo}:1:{hi - lo}:{T}:{T} {ALL}")
    return "\n".join(out) + "\n  pimcmd.sync"


@pytest.fixture(scope="module")
def machine():
    return Machine("paper-64")


@pytest.mark.parametrize("d", [1, -1, 5, 17, -33])
def test_paper_64_alg2_moves(machine, d):
    rng = np.random.default_rng(abs(d))
    A = rng.standard_normal((N, N)).astype(np.float32)
    B = np.zeros((N, N), np.float32)
    st = machine.run(parse_program(program_text("paper-64", (N, N), (T, T), HEAD + alg2(d) + TAIL, ARRS)), {"a": A, "b": B})
    want = np.zeros((N, N), np.float32)
    if d > 0:
        want[:, d:] = A[:, :-d]
    else:
        want[:, :d] = A[:, -d:]
    assert np.array_equal(B, want)
    assert st.traffic["inter_tile"] > 0


def test_paper_64_compute_and_row_broadcast(machine):
    rng = np.random.default_rng(7)
    A = rng.standard_normal((N, N)).astype(np.float32)
    B = rng.standard_normal((N, N)).astype(np.float32)
    body = (
        f"  pimcmd.compute fma f32 dst 64 srcs [0, 32, 0] bitlines 0:1:256 {ALL}\n"
        f"  pimcmd.bcast f32 dst 32 src 64 dim 0 intra [0:{T}] inter [0:{N // T}] bitlines 0:1:{T} tiles 0:1:{N // T}\n"
        "  pimcmd.sync"
    )
    Bc = B.copy()
    st = machine.run(parse_program(program_text("paper-64", (N, N), (T, T), HEAD + body + TAIL, ARRS)), {"a": A, "b": Bc})
    row0 = np.float32(A[0] * B[0]) + A[0]
    assert np.array_equal(Bc, np.broadcast_to(row0, (N, N)))
    assert st.cycles["compute"] == 2 * 32 * 32
    assert st.traffic["noc_inter_tile"] > 0


def test_cal_64_runs():
    n, t = 2048, (16, 32)
    mt = f"memref<{n}x{n}xi16>"
    body = (
        f"  pimcmd.array %a shape [{n}, {n}] wordline 0 : {mt}\n  pimcmd.array %b shape [{n}, {n}] wordline 16 : {mt}\n"
        f"  pimcmd.transpose_in %a : {mt}\n"
        f"  pimcmd.compute mul i16 dst 16 srcs [0] const 3 bitlines 0:1:512 tiles 0:1:8192\n"
        f"  pimcmd.release %b : {mt}"
    )
    A = np.arange(n * n, dtype=np.int64).reshape(n, n).astype(np.int16)
    B = np.zeros_like(A)
    m = Machine("cal-64")
    st = m.run(parse_program(program_text("cal-64", (n, n), t, body, [("a", mt), ("b", mt)])), {"a": A, "b": B})
    assert np.array_equal(B, (A * np.int16(3)).astype(np.int16))
    assert st.cycles["compute"] == 16 * 16 + 5 * 16 + 16  # n^2 + 5n (ASPLOS §5.2) + the constant (n)
