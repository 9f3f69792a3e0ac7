"""choose-layout ranks the valid tilings by the timing model's estimate (ASPLOS §4.1, Fig. 16/17).

* the shared formulas: ``infs.cost_formulas`` is what ``infs.sim.sram.timing`` charges;
* on small graphs (stencils, shifts by more than one cell, broadcasts, in-memory
  reductions; 2-D and 3-D; three machines), the unforced layout's simulated
  cycles (analysis mode) are within 10% of the best valid forced tile shape's,
  and its values are the lattice semantics' (functional mode);
* the choice is a valid tiling: the same set of shapes §4.1's constraints allow.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from infs import api, cost_formulas
from infs.dialects import tdfg
from infs.hardware import load_config
from infs.passes.lower_pim.choose_layout import LayoutError, _candidates, choose_layout
from infs.passes.lowering_errors import LoweringError
from infs.passes.tdfg_domains import CONCRETE, GraphFacts
from infs.runtime import jit
from infs.runtime.check import compare_values
from infs.runtime.lattice_eval import evaluate_graph
from infs.sim import Machine
from infs.sim.sram.timing import CostModel
from infs.hardware import get_profile


def _graph_text(shape: tuple[int, ...], body: list[str], results: int = 0) -> str:
    rank = len(shape)
    T = f"!tdfg.tensor<f32, {rank}>"
    m = f"memref<{'x'.join(map(str, shape))}xf32>"
    dom = ", ".join(f"0:{s}" for s in shape)
    lines = [f"%t = tdfg.tensor %a [{dom}] : {m} -> {T}"]
    lines += [ln.replace("T", T) if not ln.startswith("tdfg.store") else ln.replace("T ->", f"{T} ->").replace("M", m) for ln in body]
    res = " -> f32" if results else ""
    lhs = "%r = " if results else ""
    yld = "tdfg.yield %s : f32" if results else "tdfg.yield"
    return (f"func.func @g(%A: {m}, %B: {m}) {{\n  {lhs}tdfg.graph ins(%A, %B : {m}, {m}) rank {rank}{res} {{\n"
            f"  ^bb0(%a: {m}, %b: {m}):\n    " + "\n    ".join([*lines, yld]) + "\n  }\n  func.return\n}\n")  # fmt: skip


def _stencil(shape: tuple[int, ...], dist: int = 1) -> str:
    body, terms = [], []
    for d in range(len(shape)):
        for s in (dist, -dist):
            v = f"%m{d}{'p' if s > 0 else 'n'}"
            body.append(f"{v} = tdfg.mv %t dim {d} dist {s} : T")
            terms.append(v)
    acc = terms[0]
    for i, v in enumerate(terms[1:]):
        body.append(f"%s{i} = tdfg.cmp add({acc}, {v}) : T, T -> T")
        acc = f"%s{i}"
    body.append(f"tdfg.store {acc} -> %b : T -> M")
    return _graph_text(shape, body)


def _row_sum(shape: tuple[int, ...], dim: int) -> str:
    body = [f"%red = tdfg.reduce add %t dim {dim} : T", f"%s = tdfg.stream_reduce add %red over [{', '.join(map(str, range(len(shape))))}] : T -> f32"]
    return _graph_text(shape, body, results=1)


def _bcast(shape: tuple[int, ...], dim: int) -> str:
    n = shape[dim]
    body = [f"%sh = tdfg.shrink %t dim {dim} to [0:1] : T", f"%bc = tdfg.bc %sh dim {dim} dist 0 count {n} : T",
            "%p = tdfg.cmp mul(%t, %bc) : T, T -> T", "tdfg.store %p -> %b : T -> M"]  # fmt: skip
    return _graph_text(shape, body)


CASES = [
    ("stencil2d", _stencil((16, 16))),
    ("stencil2d_wide", _stencil((8, 32))),
    ("stencil2d_dist3", _stencil((16, 16), 3)),
    ("stencil2d_unaligned", _stencil((12, 20))),
    ("stencil3d", _stencil((8, 8, 8))),
    ("rowsum2d", _row_sum((16, 16), 1)),
    ("colsum2d", _row_sum((16, 16), 0)),
    ("bcast2d", _bcast((16, 16), 0)),
]
# built-in small machines and two of test_lower_pim_e2e's custom ones (wider arrays, fewer banks)
CUSTOM = {
    "cost-b64-2x4": dict(bitlines=64, wordlines=512, mesh_rows=2, mesh_cols=4, banks=8, ways=2, compute_ways=1, arrays_per_way=4, mem_ctrls=4),
    "cost-b256-2x2": dict(bitlines=256, mesh_rows=2, mesh_cols=2, banks=4, ways=1, compute_ways=1, arrays_per_way=4, mem_ctrls=2, htree_levels=1),
}
CONFIGS = ["small-16", *CUSTOM]


def _cfg(name: str):
    return load_config("small-16", name=name, **CUSTOM[name]) if name in CUSTOM else load_config(name)


def _graph(text: str) -> tdfg.GraphOp:
    (g,) = [op for op in api.parse_text(text).walk() if isinstance(op, tdfg.GraphOp)]
    return g


def _run(graph, cfg, tiles, arrays, mode="analysis"):
    lowered = jit.lower(graph, {}, cfg, tiles, {i: a.shape for i, a in enumerate(arrays)})
    m = Machine(cfg, mode=mode)
    m.run(lowered.program, dict(enumerate(arrays)), scalars=[])
    return m, lowered


def _valid_shapes(graph, cfg) -> list[tuple[int, ...]]:
    """Every tile shape choose-layout accepts when forced that meets §4.1's cache-line rule."""
    facts = GraphFacts.of(graph)
    out = []
    for T, _ in _candidates(cfg.bitlines, facts.rank, cfg.arrays_per_bank, max(1, getattr(cfg, "line_bytes", 64) // 4), frozenset(), frozenset(), frozenset()):
        try:
            choose_layout(graph, cfg, T)
        except LayoutError:
            continue
        out.append(T)
    return out


def test_timing_uses_the_shared_formulas():
    for name in ("small-16", "paper-64"):
        cfg = load_config(name)
        cm = CostModel(cfg, get_profile(cfg.profile))
        for bits, dist, bs in [(32, 1, 1), (32, -3, 8), (8, 0, 64), (16, 5, 4)]:
            assert cm.intra_shift_cycles(bits, dist, bs) == cost_formulas.intra_shift_cycles(bits, dist, bs, cfg.parallel_intra_shift)
            assert cm.intra_bcast_cycles(bits, dist, bs) == cost_formulas.intra_bcast_cycles(bits, dist, bs, cfg.parallel_intra_shift)
    assert cost_formulas.intra_shift_cycles(32, 3, 8, parallel=True) == 32
    assert cost_formulas.intra_shift_cycles(32, 3, 8) == 32 * 24


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("name,text", CASES, ids=[c[0] for c in CASES])
def test_chosen_tiling_is_near_the_best_forced_one(name, text, config):
    graph = _graph(text)
    cfg = _cfg(config)
    rng = np.random.default_rng(0)
    shape = tuple(graph.arrays[0].type.get_shape())
    arrays = [rng.uniform(-1, 1, shape).astype(np.float32), np.zeros(shape, np.float32)]
    try:
        m, lowered = _run(graph, cfg, None, [a.copy() for a in arrays])
    except LayoutError:
        pytest.skip(f"{name} does not fit '{config}'")
    chosen = choose_layout(graph, cfg).tiles
    forced = {}
    for T in _valid_shapes(graph, cfg):
        try:
            forced[T] = _run(graph, cfg, T, [a.copy() for a in arrays])[0].cycles
        except LoweringError as e:  # a shape that runs out of wordlines is no competitor
            assert "wordline" in str(e)
    assert forced, "no valid tiling ran"
    best = min(forced.values())
    assert m.cycles <= 1.10 * best, f"{name} on {config}: chosen {chosen} {m.cycles} cycles, best {min(forced, key=forced.get)} {best}"
    # and the values are the lattice semantics' (the layout never changes them)
    want = [a.copy() for a in arrays]
    res = evaluate_graph(graph, want, [])
    got = [a.copy() for a in arrays]
    fm, _ = _run(graph, cfg, None, got, mode="functional")
    assert compare_values({"b": got[1]}, {"b": want[1]}).ok
    assert len(fm.results) == len(res)
    for i, e in enumerate(res):
        assert compare_values({"r": np.asarray(fm.results[i], np.float32)}, {"r": np.asarray(e, np.float32)}).ok


def test_the_choice_is_one_of_the_valid_tilings():
    for name, text in CASES:
        graph = _graph(text)
        for config in CONFIGS:
            cfg = _cfg(config)
            try:
                layout = choose_layout(graph, cfg)
            except LayoutError:
                continue
            assert math.prod(layout.tiles) == cfg.bitlines
            assert tuple(layout.tiles) in _valid_shapes(graph, cfg), (name, config, layout.tiles)


def _estimate(graph, cfg, T) -> float:
    """choose-layout's estimated cycles of ``graph`` in tiles ``T`` (what it ranks by)."""
    from infs.passes.lower_pim.choose_layout import _Est, _terms, convert_graph
    from infs.passes.lower_pim.expand_mv_bc import expand_mv_bc

    facts = GraphFacts.of(graph)
    lay = choose_layout(graph, cfg, T)
    prog, _ = convert_graph(graph, CONCRETE, (cfg, lay), facts)
    return _Est(cfg, lay.lattice, T).cycles(_terms(expand_mv_bc(prog), get_profile(cfg.profile)))


@pytest.mark.parametrize("T", [(4, 8, 8), (8, 8, 4), (8, 4, 8), (16, 4, 4)])
def test_a_broadcast_across_banks_is_priced_on_the_mesh_links_it_shares(T):
    """A broadcast along the outer dim of a lattice that fills paper-64 (conv3d's input
    slice to every channel): a 4-deep tile sends the slice of four banks of one mesh row
    over the same row links, an 8-deep one the slices of eight banks down eight columns.
    The estimate routes the move as the machine does (X-Y, multicast trees), so it
    follows the machine's cycles on every tiling, not only the ones without contention."""
    cfg = load_config("paper-64")
    shape = (64, 256, 256)
    graph = _graph(_bcast(shape, 0))
    arrays = [np.zeros(shape, np.float32), np.zeros(shape, np.float32)]
    m, _ = _run(graph, cfg, T, arrays)
    est = _estimate(graph, cfg, T)
    moved = m.stats.cycles["move"] + m.stats.cycles["compute"]  # (the arrays' transpositions: the same on every tiling)
    assert abs(est - moved) <= 0.2 * moved, f"{T}: estimate {est:.0f}, machine {moved} ({dict(m.stats.cycles)})"


def test_the_bound_search_picks_what_ranking_every_tiling_picks(monkeypatch):
    """``_estimated_best`` prices in full only the tilings whose contention-free lower bound
    can still win: on every case and machine the bound is below the full estimate and the
    pick is the minimum (estimate, geometric key) over all valid tilings."""
    from infs.passes.lower_pim import choose_layout as cl
    from infs.passes.lower_pim.expand_mv_bc import expand_mv_bc

    checked = []
    original = cl._estimated_best

    def ranking_all(graph, cfg, fits, lattice, arr_shapes, others, at, facts, resident=None):
        got = original(graph, cfg, fits, lattice, arr_shapes, others, at, facts, resident)
        prog, _ = cl.convert_graph(graph, at, (cfg, cl.Layout(lattice, fits[0][1], arr_shapes, others)), facts)
        terms = cl._terms(expand_mv_bc(prog), get_profile(cfg.profile))
        full = []
        for key, T in fits:
            est = cl._Est(cfg, lattice, T)
            low, cyc = est.cycles(terms, bound=True), est.cycles(terms)
            assert low <= cyc, (T, low, cyc)
            full.append((cyc, key, T))
        assert resident is None  # (no relayout term in these graphs)
        assert got == min(full)[2], (got, sorted(full)[:3])
        checked.append(len(fits))
        return got

    monkeypatch.setattr(cl, "_estimated_best", ranking_all)
    for _name, text in CASES:
        graph = _graph(text)
        for config in CONFIGS:
            try:
                choose_layout(graph, _cfg(config))
            except LayoutError:
                continue
    assert len(checked) >= len(CASES) and max(checked) > 2
