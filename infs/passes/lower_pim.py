"""``lower-pim``: the JIT lowering of tDFGs to in-memory commands (ASPLOS §4.1-§4.2).

Takes: ``tdfg.graph`` ops (symbolic) and options ``sizes="N=64,..."``,
``config=NAME`` (a built-in hardware config or a TOML/JSON file) and
optionally ``tiles=4x4``.  Gives: one allocated ``pimcmd.program`` per graph.
The layout and the program record the machine as ``hardware.config_spec`` (a
built-in's name, else its parameters inline): a config given as a file is
reloaded from that text by the later steps and readers of the printed
program, without the file, and always as the same machine.
It is the pipeline

    specialize -> canonicalize-tdfg -> choose-layout -> tdfg-to-pimcmd ->
    expand-mv-bc -> decompose -> lower-shift -> lower-reduce -> lower-compute ->
    map-banks -> insert-sync -> allocate-wordlines

each of which is also a pass of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from infs.dialects import pimcmd as pc
from infs.dialects import tdfg
from infs.dialects.pimcmd_records import PimProgram
from infs.hardware import HardwareConfig
from infs.passes.allocate_wordlines import allocate_wordlines
from infs.passes.canonicalize_tdfg import CanonicalizeTdfgPass
from infs.passes.choose_layout import LayoutError, choose_layout, layout_config, parse_tiles
from infs.passes.decompose import decompose
from infs.passes.expand_mv_bc import expand_mv_bc
from infs.passes.insert_sync import insert_sync
from infs.passes.lower_compute import lower_compute
from infs.passes.lower_reduce import lower_reduce
from infs.passes.lower_shift import lower_shift
from infs.passes.map_banks import map_banks
from infs.passes.pim_program import LoweringError, rewrite_programs, where
from infs.passes.specialize import SpecializePass
from infs.passes.tdfg_domains import CONCRETE, Bindings, GraphFacts
from infs.passes.tdfg_to_pimcmd import convert_graph, replace_graph

RECORD_STEPS = (expand_mv_bc, decompose, lower_shift, lower_reduce, lower_compute, map_banks, insert_sync, allocate_wordlines)
# the steps that only rewrite these kinds (no step creates them) pass a program without them unchanged
_ONLY = {expand_mv_bc: (pc.MoveOp, pc.BroadcastOp), lower_shift: (pc.MoveOp, pc.BroadcastOp), lower_reduce: (pc.ReduceOp,)}


def lower_program(prog: PimProgram) -> PimProgram:
    """Every record-level step after ``tdfg-to-pimcmd`` (the JIT's; one set of kinds decides the skips)."""
    if not prog.virtual:  # (the first step that applies would name itself, a step the user never asked for)
        raise LoweringError("the program is already lowered (its wordlines are allocated); lower-pim runs once")
    kinds = {c.kind for c in prog.cmds}
    for step in RECORD_STEPS:
        if step not in _ONLY or not kinds.isdisjoint(_ONLY[step]):  # an empty program is still allocated
            prog = step(prog)
    return prog


def lower_graph(graph: tdfg.GraphOp, cfg: HardwareConfig, tiles: tuple[int, ...] | None = None,
                shapes: Mapping[int, tuple[int, ...]] | None = None, at: Bindings = CONCRETE,
                facts: GraphFacts | None = None) -> tuple[PimProgram, list[int]]:  # fmt: skip
    """choose-layout -> tdfg-to-pimcmd -> the record steps, on records: the one
    lowering of a specialized graph, for this pass and the JIT alike.  The pass
    gives a graph specialized in the IR (``at`` = ``CONCRETE``); the JIT gives
    its sizes as bindings instead of a specialized copy.  The layout is an
    object here, never an IR attribute (that is ``choose-layout`` run alone).
    Returns the allocated program and, per program scalar, the graph scalar."""
    facts = facts or GraphFacts.of(graph)
    layout = choose_layout(graph, cfg, tiles, dict(shapes) if shapes else None, at, facts)
    domain_form, scalar_map = convert_graph(graph, at, (cfg, layout), facts)
    record = lower_program(domain_form)
    record.arg_names = list(facts.arg_names)
    return record, scalar_map


@dataclass(frozen=True)
class LowerPimPass(ModulePass):
    name = "lower-pim"
    sizes: str = ""
    config: str = "paper-64"
    tiles: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewrite_programs(op, lower_program)  # domain-form programs already in the module
        SpecializePass(self.sizes).apply(ctx, op)
        CanonicalizeTdfgPass().apply(ctx, op)
        cfg = layout_config(self.config)
        force = parse_tiles(self.tiles) if self.tiles else None
        for g in [g for g in op.walk() if isinstance(g, tdfg.GraphOp)]:
            try:
                replace_graph(g, *lower_graph(g, cfg, force))
            except LayoutError as e:
                raise LayoutError(f"{where(g)}: {e}") from None
            except LoweringError as e:
                raise LoweringError.about(g, e) from None
