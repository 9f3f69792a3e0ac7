"""Timing, traffic and energy (ASPLOS §2.2, §4.2, §5.2, §7); analysis mode == functional mode."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sim_helpers import BITS, parse_program, program_text
from test_sim_compute import GEOMS, patterns

from infs.dialects.pimcmd_schema import COMPUTE_ARITY
from infs.sim import Machine, load_config
from infs.sim.sram.geometry import Geometry
from infs.noc import E, N, S, W, Mesh, htree_lca_level, memory_controllers


def run(config, lattice, tiles, body, mode="functional", **kw):
    m = Machine(config, mode=mode, **kw)
    st_ = m.run(parse_program(program_text(config, lattice, tiles, body)))
    return m, st_


@pytest.mark.parametrize(
    "op, ty, cycles",
    [("add", "f32", 1024), ("mul", "f32", 1024), ("fma", "f32", 2048), ("add", "i32", 32), ("add", "i16", 16),
     ("sub", "i8", 8), ("mul", "i32", 32 * 32 + 5 * 32), ("mul", "i16", 16 * 16 + 5 * 16), ("mul", "i8", 8 * 8 + 5 * 8),
     ("max", "f32", 1024), ("cmp_lt", "f32", 1024), ("div", "f32", 1024), ("div", "i32", 3076 + 1709 + 4392),
     ("min", "i32", 32), ("copy", "f32", 32), ("mul", "i1", 1), ("cmp_lt", "i1", 2)],
)  # fmt: skip
def test_compute_latency_infs_profile(op, ty, cycles):
    srcs = list(range(0, 32 * COMPUTE_ARITY[op], 32))
    _, st_ = run("tiny", (8, 16), (4, 4), f"  pimcmd.compute {op} {ty} dst 128 srcs {srcs} bitlines 0:1:16 tiles 0:1:8")
    assert st_.cycles["compute"] == cycles == st_.total_cycles
    assert st_.element_ops == 128
    cfg = load_config("tiny")
    assert st_.energy_pj["compute"] == pytest.approx(128 * cycles * cfg.energy("compute_bitline_cycle"))


def test_every_infs_op_latency_names_its_source():
    """One documented source per op (paper text, then gem5, then PIMeval)."""
    from infs.hardware import CONST_OPERAND, INFS_LATENCY

    ops = set(COMPUTE_ARITY)
    for kind in ("int", "fp"):
        assert set(INFS_LATENCY[kind]) == ops
        for op, lat in INFS_LATENCY[kind].items():
            assert any(src in lat.source for src in ("paper", "gem5", "PIMeval")), (kind, op)
    assert "asplos:396" in INFS_LATENCY["int"]["mul"].source and "asplos:396" in CONST_OPERAND.source


def test_compute_latency_pimeval_profile():
    _, st_ = run("tiny", (8, 16), (4, 4), "  pimcmd.compute add f32 dst 128 srcs [0, 32] bitlines 0:1:16 tiles 0:1:8", profile="pimeval-bitsimd-v")
    assert st_.cycles["compute"] == 1331 + 685 + 1687


@pytest.mark.parametrize("ty, intra, cycles", [("f32", 1, 32), ("f32", 3, 96), ("i8", -2, 16), ("i16", 1, 16)])
def test_intra_tile_shift_latency(ty, intra, cycles):
    lo, hi = (0, 4 - intra) if intra > 0 else (-intra, 4)
    body = f"  pimcmd.shift {ty} dst 64 src 0 dim 1 mask [{lo}:{hi}] inter 0 intra {intra} bitlines {lo}:1:{hi - lo}:4:4 tiles 0:1:8"
    _, st_ = run("tiny", (8, 16), (4, 4), body)
    assert st_.cycles["move"] == cycles
    assert st_.traffic["intra_tile"] == 8 * 4 * (hi - lo) * BITS[ty] / 8
    assert st_.traffic["noc_inter_tile"] == 0


@pytest.mark.parametrize("dim, intra, parallel, cycles", [(0, 1, False, 32 * 4), (0, -2, False, 32 * 8), (1, 2, False, 32 * 2),
                                                         (0, 3, True, 32), (1, 2, True, 32)])
def test_intra_tile_shift_distance_is_flattened(dim, intra, parallel, cycles):
    """gem5 (DataMoveCompiler.cc:400-404, PUMEngine.cc:269-295): an in-array shift along the
    outer dim of a 4x4 tile moves each bit 4 bitlines per step; with gem5's
    parallel_intra_array_shift flag every shift costs ``bits``."""
    lo, hi = (0, 4 - intra) if intra > 0 else (-intra, 4)
    bls = f"{lo * 4}:1:{(hi - lo) * 4}" if dim == 0 else f"{lo}:1:{hi - lo}:4:4"
    body = f"  pimcmd.shift f32 dst 64 src 0 dim {dim} mask [{lo}:{hi}] inter 0 intra {intra} bitlines {bls} tiles 0:1:8"
    m = Machine(load_config("tiny", parallel_intra_shift=parallel))
    st_ = m.run(parse_program(program_text("tiny", (8, 16), (4, 4), body)))
    assert st_.cycles["move"] == cycles


@pytest.mark.parametrize("intra, same, cycles", [((0, 4), False, 32), ((-2, 2), False, 32 * 2 * 4), ((-3, 1), True, 32 * 3 * 4),
                                                 ((0, 1), True, 0), ((0, 1), False, 32)])
def test_in_tile_broadcast_costs_one_alignment_whatever_the_fanout(intra, same, cycles):
    """ASPLOS §4.1/§5.2 + gem5 maskCmdsByReuses: the source is aligned to the first destination
    offset (``lo`` rows of a 4x4 tile = 4 lo bitlines) and replicated for free; a copy in place
    costs nothing, a copy to another register ``bits``."""
    src, dst = 0, (0 if same else 32)
    row = -intra[0]
    body = f"  pimcmd.bcast f32 dst {dst} src {src} dim 0 intra [{intra[0]}:{intra[1]}] inter [0:1] bitlines {row * 4}:1:4 tiles 0:1:8"
    _, st_ = run("tiny", (8, 16), (4, 4), body)
    assert st_.cycles["move"] == cycles


def test_inter_bank_shift_bytes_x_hops_paper_64():
    """Tile 0 (bank 0, mesh (0,0)) -> tile 16128 (bank 63, mesh (7,7)): 1 kB over 14 hops."""
    body = "  pimcmd.shift f32 dst 64 src 0 dim 0 mask [0:256] inter 16128 intra 0 bitlines 0:1:256 tiles 0:1:1\n  pimcmd.sync"
    m, st_ = run("paper-64", (4194304,), (256,), body, mode="analysis")
    assert st_.traffic["inter_tile"] == 1024
    assert st_.traffic["noc_inter_tile"] == 1024 * 14
    L = st_.link_bytes
    assert np.all(L[E, 0, :7] == 1024) and np.all(L[S, :7, 7] == 1024)
    assert L.sum() == 1024 * 14 and L[W].sum() == 0 and L[N].sum() == 0
    # bank side: max(H-tree, injection 1024/32) + 2 x 5 levels; the H-tree as gem5
    # prices it (PUMEngine::estimateCommandLatency): one array leaving the bank,
    # ceil(256 bitlines / 32 per cycle at 4 B per leaf) x 32 bits = 256 cycles;
    # the sync waits for arrival (1024/32 + 14 hops x 6) and a 2 x 14-hop barrier.
    assert st_.cycles["move"] == 256 + 10 + (32 + 14 * 6) + 2 * 14 * 6
    assert st_.energy_pj["noc"] > 1024 * 14 * m.cfg.energy("noc_byte_hop")  # data + control


@pytest.mark.parametrize("inter, hops", [(2, 1), (4, 1), (6, 2)])
def test_inter_bank_shift_tiny(inter, hops):
    """tiny: 2 arrays per bank on a 2x2 mesh; tile t -> t + inter, 16 f32 bitlines = 64 B."""
    body = f"  pimcmd.shift f32 dst 64 src 0 dim 0 mask [0:16] inter {inter} intra 0 bitlines 0:1:16 tiles 0:1:1\n  pimcmd.sync"
    _, st_ = run("tiny", (128,), (16,), body)
    assert st_.traffic["noc_inter_tile"] == 64 * hops
    assert st_.link_bytes.sum() == 64 * hops


def test_intra_bank_inter_tile_shift_stays_off_the_mesh():
    body = "  pimcmd.shift f32 dst 64 src 0 dim 0 mask [0:16] inter 1 intra 0 bitlines 0:1:16 tiles 0:2:4\n  pimcmd.sync"
    _, st_ = run("tiny", (128,), (16,), body)
    assert st_.traffic["inter_tile"] == 4 * 64 and st_.traffic["noc_inter_tile"] == 0
    # no data in flight: the sync is only the barrier (2 x 2 hops x 6 cycles on the 2x2 mesh)
    assert st_.commands == {"shift": 1, "sync": 1}
    # one source array per bank up its one-level H-tree: ceil(16 bitlines / 32 per cycle) x 32
    # bits (gem5 PUMEngine::estimateCommandLatency), + 2 x 1 level; then the barrier
    assert st_.cycles["move"] == (32 + 2 * 1) + 2 * 2 * 6


def test_transpose_in_dram_time():
    arr = [("a", "memref<8x16xf32>")]
    body = "  pimcmd.array %a shape [8, 16] wordline 0 : memref<8x16xf32>\n  pimcmd.transpose_in %a : memref<8x16xf32>"
    m = Machine("tiny")
    st_ = m.run(parse_program(program_text("tiny", (8, 16), (4, 4), body, arr)), {"a": np.zeros((8, 16), np.float32)})
    assert st_.cycles["dram"] == int(np.ceil(512 / 12.8)) + 20
    assert st_.energy_pj["dram"] == pytest.approx(512 * (m.cfg.energy("dram_byte") + m.cfg.energy("transpose_byte")))


def test_breakdown_and_external_charges():
    m = Machine("tiny")
    m.run(parse_program(program_text("tiny", (8, 16), (4, 4), "  pimcmd.compute add i32 dst 64 srcs [0, 32] bitlines 0:1:16 tiles 0:1:8")))
    m.charge("jit", 96)
    assert m.stats.cycles["jit"] == 96 and m.stats.total_cycles == 32 + 96 == m.cycles
    assert sum(m.stats.breakdown().values()) == pytest.approx(1.0)


def test_mesh_routing_and_multicast():
    mesh = Mesh(8, 8, 32, 6)
    assert mesh.hops(0, 63) == 14 and mesh.hops(9, 14) == 5
    uni = mesh.unicast_loads([9], [30], [10.0])  # (1,1) -> (6,3): east on row 1, then south on column 6
    assert np.all(uni[E, 1, 1:6] == 10) and np.all(uni[S, 1:3, 6] == 10) and uni.sum() == 10 * 7
    back = mesh.unicast_loads([30], [9], [10.0])  # west on row 3, then north on column 1
    assert np.all(back[W, 3, 1:6] == 10) and np.all(back[N, 1:3, 1] == 10)
    mc = mesh.multicast_loads([0, 0], [0, 0], [7, 63], [10.0])
    assert mc.sum() == 10 * 14  # the row segment is shared: tree of 14 links, not 7 + 14
    assert mesh.tree_links(0, np.arange(64)) == 63
    assert memory_controllers(8, 8, 16).size == 16
    assert list(htree_lca_level(np.array([0, 0, 0, 0]), np.array([0, 3, 4, 255]), 4, 5)) == [0, 1, 2, 4]


def test_broadcast_uses_multicast():
    """One tile's row broadcast to every tile below it across banks: each bank receives it once."""
    body = "  pimcmd.bcast f32 dst 64 src 0 dim 0 intra [0:1] inter [1:4] bitlines 0:1:16 tiles 0:1:1\n  pimcmd.sync"
    _, st_ = run("small-16", (64, 64), (8, 8), body, mode="analysis")  # 8x8 tiles of 64 bitlines; 8 tiles per bank
    # tiles 8, 16, 24 hold rows 1..3 of the tile grid: banks 1, 2, 3 on mesh row 0
    assert st_.traffic["inter_tile"] == 3 * 64
    assert st_.traffic["noc_inter_tile"] == 64 * 3  # one multicast over links 0->1->2->3


@st.composite
def programs(draw):
    lattice, tiles = draw(st.sampled_from(GEOMS))
    geo = Geometry(lattice, tiles, 2)
    lines = []
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["compute", "shift", "bcast", "sync", "readout"]))
        ty = draw(st.sampled_from(list(BITS)))
        tp, bp = draw(patterns(geo.num_tiles)), draw(patterns(geo.B))
        dim = draw(st.integers(0, geo.rank - 1))
        T, g = tiles[dim], geo.grid[dim]
        if kind == "compute":
            op = draw(st.sampled_from(list(COMPUTE_ARITY)))
            srcs = [200 if (op == "select" and i == 0) else 32 * i for i in range(COMPUTE_ARITY[op])]
            lines.append(f"pimcmd.compute {op} {ty} dst 128 srcs {srcs} bitlines {bp} tiles {tp}")
        elif kind == "shift":
            intra = draw(st.integers(-(T - 1), T - 1))
            lo = draw(st.integers(max(0, -intra), min(T, T - intra)))
            hi = draw(st.integers(lo, min(T, T - intra)))
            inter = draw(st.integers(-g, g))
            lines.append(f"pimcmd.shift {ty} dst 128 src 0 dim {dim} mask [{lo}:{hi}] inter {inter} intra {intra} bitlines {bp} tiles {tp}")
        elif kind == "bcast":
            blo = draw(st.integers(-(T - 1), T - 1))
            bhi = draw(st.integers(blo + 1, min(T, blo + T)))
            alo = draw(st.integers(-g, g))
            lines.append(f"pimcmd.bcast {ty} dst 128 src 0 dim {dim} intra [{blo}:{bhi}] inter [{alo}:{alo + draw(st.integers(1, g + 1))}] bitlines {bp} tiles {tp}")
        elif kind == "sync":
            lines.append("pimcmd.sync")
        else:
            box = ", ".join(f"0:{s}" for s in lattice)
            lines.append(f"pimcmd.readout {ty} src 0 domain [{box}] id 0 bitlines {bp} tiles {tp}")
    return lattice, tiles, "\n".join("  " + x for x in lines)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_analysis_mode_gives_functional_stats(prog):
    lattice, tiles, body = prog
    text = program_text("tiny", lattice, tiles, body)
    f = Machine("tiny")
    a = Machine("tiny", mode="analysis")
    b = Machine("tiny", mode="bitlevel")
    sf, sa, sb = f.run(parse_program(text)), a.run(parse_program(text)), b.run(parse_program(text))
    assert sf.same_costs(sa) and sf.same_costs(sb)
    assert f.cycles == a.cycles == sf.total_cycles
