"""Transposed layout (ASPLOS §4.1, §5.2 LOT), register file, buffers and near-memory ops."""

import numpy as np
import pytest
from sim_helpers import RefState, parse_program, program_text, ravel

from infs.sim import Machine, SimError
from infs.sim.sram.geometry import Geometry
from infs.sim.sram.registers import RegisterFile


def layout_program(lattice, tiles, arrays, extra=""):
    decl = []
    wl = 0
    for name, shape, ty in arrays:
        mt = f"memref<{'x'.join(map(str, shape))}x{ty}>"
        decl.append((name, mt))
        bits = {"f32": 32, "i32": 32, "i16": 16, "i8": 8, "i1": 1}[ty]
        extra_lines = f"  pimcmd.array %{name} shape {list(shape)} wordline {wl} : {mt}\n"
        wl += bits
        decl[-1] = (name, mt, extra_lines)
    body = "".join(d[2] for d in decl)
    body += "".join(f"  pimcmd.transpose_in %{n} : {mt}\n" for n, mt, _ in decl)
    body += extra
    body += "".join(f"  pimcmd.release %{n} : {mt}\n" for n, mt, _ in decl)
    return program_text("tiny", lattice, tiles, body, [(n, mt) for n, mt, _ in decl])


@pytest.mark.parametrize(
    "lattice, tiles, shape",
    [((8, 16), (4, 4), (8, 16)), ((7, 13), (4, 4), (7, 13)), ((7, 13), (4, 4), (13,)), ((128,), (16,), (100,)), ((4, 4, 8), (2, 2, 4), (3, 4, 7))],
)
@pytest.mark.parametrize("ty", ["f32", "i16", "i8", "i1"])
def test_transpose_places_every_element_and_round_trips(lattice, tiles, shape, ty):
    geo = Geometry(lattice, tiles, 2)
    rng = np.random.default_rng(0)
    dt = {"f32": np.float32, "i16": np.int16, "i8": np.int8, "i1": np.bool_}[ty]
    A = (rng.integers(-100, 100, shape) if ty != "i1" else rng.integers(0, 2, shape)).astype(dt)
    out = np.zeros_like(A)
    prog = parse_program(layout_program(lattice, tiles, [("a", shape, ty), ("b", shape, ty)]))
    m = Machine("tiny")
    m.run(prog, {"a": A, "b": out})
    assert np.array_equal(out[...], np.zeros_like(A))  # b was all zeros
    m.run(prog, {"a": A, "b": A.copy()})
    bits = {"f32": 32, "i16": 16, "i8": 8, "i1": 1}[ty]
    reg = RefState(m, geo.num_tiles, geo.B).get(0, bits)
    # per-element reference: element x sits on tile ravel(x // T), bitline ravel(x % T)
    full = A.reshape((1,) * (geo.rank - A.ndim) + A.shape)
    raw = full.view({32: np.uint32, 16: np.uint16, 8: np.uint8}[bits]) if bits > 1 else full.astype(np.uint8)
    seen = np.zeros_like(reg, dtype=bool)
    for x in np.ndindex(full.shape):
        t = ravel([xi // ti for xi, ti in zip(x, tiles)], geo.grid)
        b = ravel([xi % ti for xi, ti in zip(x, tiles)], tiles)
        assert reg[t, b] == raw[x]
        seen[t, b] = True
    assert not np.any(reg[~seen])  # unused bitlines of boundary tiles stay untouched (zero)
    back = np.zeros_like(A) if ty != "i1" else np.ones_like(A)
    rel = parse_program(program_text("tiny", lattice, tiles, f"  pimcmd.array %a shape {list(shape)} wordline 0 : {prog.arrays[0].type}\n  pimcmd.release %a : {prog.arrays[0].type}", [("a", str(prog.arrays[0].type))]))
    m.run(rel, {"a": back})
    assert np.array_equal(back, A)
    assert m.lot[0].trans == 0 and m.lot[0].wordline == 0


def test_register_file_reslices_overlapping_registers():
    rf = RegisterFile(8, 64)
    v = np.arange(8, dtype=np.uint32) * 0x01020304 + 0x80000001
    rf.write_view(0, 32)[:] = v
    assert np.array_equal(rf.read(8, 8), ((v >> 8) & 0xFF).astype(np.uint8))
    rf.write_view(8, 8)[:] = 0xAB
    assert np.array_equal(rf.read(0, 32), (v & ~np.uint32(0xFF00)) | np.uint32(0xAB00))
    assert np.array_equal(rf.read(16, 16), ((v >> 16) & 0xFFFF).astype(np.uint16))
    rf.write_view(4, 1)[:] = 1
    assert np.array_equal(rf.read(0, 8), ((v & 0xFF) | 0x10).astype(np.uint8))
    assert np.array_equal(rf.read(40, 16), np.zeros(8, np.uint16))  # never written


def test_readout_writein_and_near_reduce():
    lattice, tiles = (8, 16), (4, 4)
    A = np.arange(128, dtype=np.int32).reshape(8, 16) - 50
    body = (
        "  pimcmd.readout i32 src 0 domain [1:5, 2:11] id 0 bitlines 0:1:16 tiles 0:1:8\n"
        "  pimcmd.near_reduce add i32 in 0 dims [1] step [1, 1] out 1\n"
        "  pimcmd.near_reduce max i32 in 0 dims [0, 1] step [1, 1] out 2\n"
        "  pimcmd.writein i32 dst 32 domain [1:5, 2:3] id 1 bitlines 0:1:16 tiles 0:1:8\n"
        "  pimcmd.result index 0 id 2\n"
    )
    text = layout_program(lattice, tiles, [("a", (8, 16), "i32"), ("b", (8, 16), "i32")], body)
    text = text.replace("wordlines 256 {", "wordlines 256 -> i32 {")
    B = np.zeros_like(A)
    m = Machine("tiny")
    m.run(parse_program(text), {"a": A, "b": B})
    assert np.array_equal(m.readouts[0], A[1:5, 2:11])
    assert m.readout_boxes[0] == ((1, 5), (2, 11))
    assert np.array_equal(m.buffers[1][:, 0], A[1:5, 2:11].sum(axis=1))
    assert m.results[0] == A[1:5, 2:11].max()
    want = np.zeros_like(A)
    want[1:5, 2] = A[1:5, 2:11].sum(axis=1)
    assert np.array_equal(B, want)


def test_readout_pieces_grow_to_hull_and_strided_near_reduce():
    lattice, tiles = (8, 16), (4, 4)
    A = np.arange(128, dtype=np.float32).reshape(8, 16)
    body = (
        "  pimcmd.readout f32 src 0 domain [0:8, 0:4] id 3 bitlines 0:1:16 tiles 0:4:2\n"
        "  pimcmd.readout f32 src 0 domain [0:8, 4:16] id 3 bitlines 0:1:16 tiles 1:1:3:4:2\n"
        "  pimcmd.near_reduce add f32 in 3 dims [1] step [1, 4] out 4\n"
    )
    m = Machine("tiny")
    m.run(parse_program(layout_program(lattice, tiles, [("a", (8, 16), "f32")], body)), {"a": A})
    assert np.array_equal(m.readouts[3], A)
    assert np.array_equal(m.buffers[4][:, 0], A[:, ::4].sum(axis=1))


@pytest.mark.parametrize("transposed", [False, True])
def test_near_load_and_store(transposed):
    lattice, tiles = (8, 16), (4, 4)
    A = np.arange(128, dtype=np.float32).reshape(8, 16)
    idx = np.array([[3, 0, 5, 5]], dtype=np.int32)
    C = np.zeros(8, np.float32)
    arrays = [("a", (8, 16), "f32"), ("i", (1, 4), "i32")]
    body = (
        "  pimcmd.near_load i32 %i map [d0, d1] indirect [] indices [] domain [0:1, 0:4] out 0 : memref<1x4xi32>\n"
        "  pimcmd.near_load f32 %a map [d0, d1] indirect [0] indices [0] domain [0:1, 0:4] out 1 : memref<8x16xf32>\n"
        "  pimcmd.near_store add f32 in 1 -> %c map [d1] indirect [0] indices [0] : memref<8xf32>\n"
        "  pimcmd.near_store store f32 in 1 -> %a map [d0, d1 + 8] indirect [] indices [] : memref<8x16xf32>\n"
    )
    text = layout_program(lattice, tiles, arrays, body)
    if not transposed:
        text = "\n".join(line for line in text.splitlines() if "transpose_in" not in line and "release" not in line)
    text = text.replace("ins(%A, %I : memref<8x16xf32>, memref<1x4xi32>)", "ins(%A, %I, %C : memref<8x16xf32>, memref<1x4xi32>, memref<8xf32>)")
    text = text.replace("^bb0(%a: memref<8x16xf32>, %i: memref<1x4xi32>)", "^bb0(%a: memref<8x16xf32>, %i: memref<1x4xi32>, %c: memref<8xf32>)")
    Acopy = A.copy()
    m = Machine("tiny")
    m.run(parse_program(text), {"a": Acopy, "i": idx, "c": C})
    gathered = A[idx[0], np.arange(4)]
    assert np.array_equal(m.buffers[1][0], gathered)
    want_c = np.zeros(8, np.float32)
    np.add.at(want_c, idx[0], gathered)
    assert np.array_equal(C, want_c)
    want_a = A.copy()
    want_a[0, 8:12] = gathered
    assert np.array_equal(Acopy, want_a)


def test_virtual_programs_and_wrong_machines_are_rejected():
    text = program_text("tiny", (8, 16), (4, 4), "  pimcmd.sync").replace("wordlines 256 {", "wordlines 256 virtual {")
    with pytest.raises(SimError, match="fully lowered"):
        Machine("tiny").run(parse_program(text))
    with pytest.raises(SimError, match="bitlines"):
        Machine("small-16").run(parse_program(program_text("tiny", (8, 16), (4, 4), "  pimcmd.sync")))


def test_array_left_transposed_carries_over_runs():
    """Delayed release (§5.2): a later program's near-memory access sees the registers."""
    mt = "memref<8x16xf32>"
    decl = f"  pimcmd.array %a shape [8, 16] wordline 0 : {mt}\n"
    first = decl + f"  pimcmd.transpose_in %a : {mt}\n  pimcmd.compute add f32 dst 0 srcs [0] const 1.0 bitlines 0:1:16 tiles 0:1:8"
    second = decl + f"  pimcmd.near_load f32 %a map [d0, d1] indirect [] indices [] domain [2:3, 0:16] out 0 : {mt}"
    A = np.arange(128, dtype=np.float32).reshape(8, 16)
    m = Machine("tiny")
    m.run(parse_program(program_text("tiny", (8, 16), (4, 4), first, [("a", mt)])), {"a": A})
    m.run(parse_program(program_text("tiny", (8, 16), (4, 4), second, [("a", mt)])), {"a": A})
    assert np.array_equal(m.buffers[0][0], A[2] + 1)  # from the registers, not host memory
    m.run(parse_program(program_text("tiny", (8, 16), (4, 4), second, [("a", mt)])), {"a": A.copy()})
    assert np.array_equal(m.buffers[0][0], A[2])  # another host array: memory
