"""``lower-pim``: the JIT lowering of tDFGs to in-memory commands (ASPLOS §4.1-§4.2).

Takes: ``tdfg.graph`` ops (symbolic) and options ``sizes="N=64,..."``,
``config=NAME`` (a built-in hardware config or a TOML/JSON file) and
optionally ``tiles=4x4`` and ``shapes="A=64x64,B=64x64"`` (the shapes of
dynamically shaped arrays, by the name of the host value a graph takes: the
layout then covers the whole array, as the JIT's does with the run's arrays;
without it, what the graph touches).  Gives: one allocated ``pimcmd.program`` per graph.
The layout and the program record the machine as ``hardware.config_spec`` (a
built-in's name, else its parameters inline): a config given as a file is
reloaded from that text by the later steps and readers of the printed
program, without the file, and always as the same machine.
It is the pipeline

    specialize -> canonicalize-tdfg -> choose-layout -> tdfg-to-pimcmd ->
    expand-mv-bc -> decompose -> lower-shift -> lower-reduce -> lower-compute ->
    map-banks -> insert-sync -> allocate-wordlines

each of which is also a pass of its own.

Provenance (what a compiled program needs to run and be checked, the paper's
"Inf-S no JIT"): each program takes every symbol of its graph as a scalar
operand -- the runtime parameters its commands read first, then the others
(the sizes it was specialized for) -- and carries, as discardable attributes,
``infs.symbols`` (the graph symbol each scalar operand is), ``infs.sizes`` (the
bindings it was specialized for: a run with other values is an error, not a
silently different computation) and ``infs.source`` (the graph as lower-pim
was given it, printed as a function of its operands: ``infs-run --check``
evaluates it on the lattice as the oracle).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from infs.dialects import pimcmd_schema as K
from infs.dialects.pimcmd_records import PimProgram, ScalarType
from infs.dialects.tdfg_records import GraphRecord
from infs.hardware import HardwareConfig
from infs.passes.lower_pim.allocate_wordlines import allocate_wordlines
from infs.passes.lower_pim.choose_layout import LayoutError, choose_layout, layout_config, parse_tiles
from infs.passes.lower_pim.decompose import decompose
from infs.passes.lower_pim.expand_mv_bc import expand_mv_bc
from infs.passes.lower_pim.insert_sync import insert_sync
from infs.passes.lower_pim.lower_compute import lower_compute
from infs.passes.lower_pim.lower_reduce import lower_reduce
from infs.passes.lower_pim.lower_shift import lower_shift
from infs.passes.lower_pim.map_banks import map_banks
from infs.passes.lowering_errors import LoweringError, where
from infs.passes.lower_pim.pim_program import lazy_pass, rewrite_programs
from infs.passes.tdfg_domains import CONCRETE, Bindings, GraphFacts
from infs.passes.lower_pim.tdfg_to_pimcmd import convert_graph

if TYPE_CHECKING:
    from infs.dialects import tdfg

RECORD_STEPS = (expand_mv_bc, decompose, lower_shift, lower_reduce, lower_compute, map_banks, insert_sync, allocate_wordlines)
# the steps that only rewrite these kinds (no step creates them) pass a program without them unchanged
_ONLY = {expand_mv_bc: (K.MV, K.BC), lower_shift: (K.MV, K.BC), lower_reduce: (K.REDUCE,)}


def lower_program(prog: PimProgram) -> PimProgram:
    """Every record-level step after ``tdfg-to-pimcmd`` (the JIT's; one set of kinds decides the skips)."""
    if not prog.virtual:  # (the first step that applies would name itself, a step the user never asked for)
        raise LoweringError("the program is already lowered (its wordlines are allocated); lower-pim runs once")
    kinds = {c.kind for c in prog.cmds}
    for step in RECORD_STEPS:
        if step not in _ONLY or not kinds.isdisjoint(_ONLY[step]):  # an empty program is still allocated
            prog = step(prog)
    return prog


def lower_graph(graph: GraphRecord, cfg: HardwareConfig, tiles: tuple[int, ...] | None = None,
                shapes: Mapping[int, tuple[int, ...]] | None = None, at: Bindings = CONCRETE,
                facts: GraphFacts | None = None, resident=None) -> tuple[PimProgram, list[int]]:  # fmt: skip
    """choose-layout -> tdfg-to-pimcmd -> the record steps, on records: the one
    lowering of a specialized graph, for this pass and the JIT alike.  The pass
    gives a graph specialized in the IR (``at`` = ``CONCRETE``); the JIT gives
    its sizes as bindings instead of a specialized copy.  The layout is an
    object here, never an IR attribute (that is ``choose-layout`` run alone).
    Returns the allocated program and, per program scalar, the graph scalar."""
    facts = facts or GraphFacts.of(graph)
    layout = choose_layout(graph, cfg, tiles, dict(shapes) if shapes else None, at, facts, resident)
    domain_form, scalar_map = convert_graph(graph, at, (cfg, layout), facts)
    record = lower_program(domain_form)
    record.arg_names = list(facts.arg_names)
    return record, scalar_map


def _lower_pim_pass() -> type:
    """``LowerPimPass`` (xDSL's side, built on first use: ``pim_program.lazy_pass``)."""
    from xdsl.context import Context
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.passes import ModulePass

    from infs.dialects import tdfg
    from infs.dialects.tdfg_ir_records import from_graph
    from infs.passes.canonicalize_tdfg import CanonicalizeTdfgPass
    from infs.passes.specialize import SpecializePass

    @dataclass(frozen=True)
    class LowerPimPass(ModulePass):
        name = "lower-pim"
        sizes: str = ""
        config: str = "paper-64"
        tiles: str = ""
        shapes: str = ""

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            rewrite_programs(op, lower_program)  # domain-form programs already in the module
            sources = [source_text(g) for g in op.walk() if isinstance(g, tdfg.GraphOp)]  # as given: symbolic
            SpecializePass(self.sizes).apply(ctx, op)
            CanonicalizeTdfgPass().apply(ctx, op)
            cfg = layout_config(self.config)
            force = parse_tiles(self.tiles) if self.tiles else None
            graphs = [g for g in op.walk() if isinstance(g, tdfg.GraphOp)]
            assert len(graphs) == len(sources)  # (the two passes rewrite inside the graphs, never add or drop one)
            shapes = parse_shapes(self.shapes, graphs)
            for g, source in zip(graphs, sources):
                given = {i: shapes[v.name_hint] for i, v in enumerate(g.arrays) if v.name_hint in shapes}
                for i, shape in given.items():
                    t = g.arrays[i].type
                    static = list(t.get_shape())  # type: ignore[attr-defined]
                    if len(shape) != len(static) or any(s >= 0 and s != n for s, n in zip(static, shape)):
                        raise LoweringError.about(g, f"shapes={g.arrays[i].name_hint}={'x'.join(map(str, shape))} does not fit %{g.arrays[i].name_hint} : {t}")
                try:
                    replace_with_program(g, *lower_graph(from_graph(g), cfg, force, given or None), source)
                except LayoutError as e:
                    raise LayoutError(f"{where(g)}: {e}") from None
                except LoweringError as e:
                    raise LoweringError.about(g, e) from None

    return LowerPimPass


__getattr__ = lazy_pass(__name__, "LowerPimPass", _lower_pim_pass)


def parse_shapes(text: str, graphs: list["tdfg.GraphOp"]) -> dict[str, tuple[int, ...]]:
    """``"A=64x64,B=64x64"`` -> ``{"A": (64, 64), ...}``; each name an array some graph takes."""
    out: dict[str, tuple[int, ...]] = {}
    known = {v.name_hint for g in graphs for v in g.arrays if v.name_hint}
    for item in text.replace(",", " ").split():
        name, eq, value = item.partition("=")
        try:
            shape = tuple(int(x) for x in value.lower().split("x")) if eq and name else ()
        except ValueError:
            shape = ()
        if not shape or any(s < 0 for s in shape):
            raise LoweringError(f"bad shapes entry '{item}': expected NAME=AxB, e.g. A=64x64")
        if name not in known:
            raise LoweringError(f"shapes names '{name}', which no tdfg.graph takes as an array (have: {', '.join(sorted(known)) or 'none'})")
        out[name] = shape
    return out


def source_text(graph: "tdfg.GraphOp") -> str:
    """``graph`` printed as the body of ``func.func @source`` whose arguments are
    its operands (arrays, then scalars, with their names): text that parses
    alone, whatever the host code around it."""
    from io import StringIO

    from xdsl.dialects import func
    from xdsl.ir import Block, Region
    from xdsl.printer import Printer

    block = Block(arg_types=[v.type for v in graph.operands])
    for arg, v in zip(block.args, graph.operands):
        arg.name_hint = v.name_hint
    block.add_op(graph.clone(value_mapper=dict(zip(graph.operands, block.args))))
    block.add_op(func.ReturnOp())
    out = StringIO()
    Printer(stream=out).print_op(func.FuncOp("source", ([a.type for a in block.args], []), Region(block)))
    return out.getvalue()


def replace_with_program(graph: "tdfg.GraphOp", prog: PimProgram, scalar_map: list[int], source: str) -> None:
    """Replace the specialized ``graph`` by its program, with the provenance of
    the module docstring: the scalar operands are the commands' runtime
    parameters (``scalar_map``) and then every other symbol of the graph."""
    from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, StringAttr
    from xdsl.rewriter import Rewriter

    from infs.dialects.pimcmd_records_ir import to_op
    from infs.dialects.tdfg_ir_records import type_name

    rest = [j for j in range(len(graph.scalars)) if j not in scalar_map]
    order = [*scalar_map, *rest]
    prog = prog.with_cmds(prog.cmds)
    prog.scalar_types = [*prog.scalar_types, *(ScalarType(type_name(graph.scalars[j].type)) for j in rest)]
    new = to_op(prog, list(graph.arrays), [graph.scalars[j] for j in order])
    n = len(graph.arrays)
    for k, j in enumerate(order):
        new.body.block.args[n + k].name_hint = graph.names[j]
    new.attributes["infs.symbols"] = ArrayAttr([StringAttr(graph.names[j]) for j in order])
    new.attributes["infs.sizes"] = graph.attributes.get("infs.sizes", DictionaryAttr({}))
    new.attributes["infs.source"] = StringAttr(source)
    new.location = graph.location  # errors of later passes point at the graph
    Rewriter.replace_op(graph, new, new_results=list(new.res))
