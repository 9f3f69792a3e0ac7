"""The compute commands every lowering of a tDFG emits, read off the graph before the JIT.

Takes: a graph's facts (``GraphFacts``, of its ``tdfg.graph`` record), the bindings of its symbols (the JIT's sizes) and the
shapes of its arrays.  Gives (``GraphCommands``): ``(op, element type)`` of each
``tdfg.cmp`` that ``tdfg-to-pimcmd`` turns into a ``compute`` command whatever
the layout ``choose-layout`` picks, and the arrays it transposes in, with their
laid-out shapes -- what the runtime's decision reads to refuse a region in
memory without lowering it (``RegionRuntime.decide``, ASPLOS §4.3 Eq. 2: the
in-memory side is at least its compute commands' latencies, its whole run at
least those and the transpositions).

A ``cmp`` in the lowering's schedule (the nodes a side effect needs) emits one
``compute`` over its box unless every input is a constant (it folds) or its
box is empty (``_Converter.convert_cmp``); a constant stays one through
``mv``, ``bc`` and ``shrink``.  The boxes are inferred on the lattice's
bounding box, which ``choose-layout`` takes from the array shapes and the
graph, never from the tiles (``lattice_extent``).  The record steps after it
keep every ``compute``: ``decompose`` splits one into one or more pieces,
each charged its op's full latency (bit-serial, every array at once), and the
others give it patterns.  So the sum of these ops' latencies (the cheaper of
the op with and without a constant operand) is at most the lowered program's
compute commands' cycles (``RegionRuntime._compute_floor``), at any tiling.

Every laid-out array with cells gets a ``transpose_in`` but one whose every
use is a ``store`` (``_Converter.write_only``): an array a ``tensor`` or a
near-memory stream of the schedule reads is transposed in, at the shape
``choose-layout`` lays it out in (``array_shapes``, whatever the tiles).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from infs.dialects.pimcmd_records import box_empty
from infs.dialects.tdfg_records import BC, CMP, CONST, MV, SHRINK, STORE
from infs.passes.lower_pim.layout import other_shapes
from infs.passes.tdfg_domains import Bindings, GraphFacts, array_shapes, checked_element, infer_boxes, lattice_extent, symbol_extents

# the nodes whose result is the constant their input is (``_Converter.convert``)
_PASS_CONSTANT = (MV, BC, SHRINK)


def bindings(facts: GraphFacts, sizes: Mapping[str, float | int]) -> Bindings:
    """The symbols' values as the JIT binds them (``jit._lower``): the sizes given,
    then the full extents of statically sized arrays the graph reads whole."""
    env = {n: int(sizes[n]) for n in facts.symbols if n in sizes}
    for name, size in symbol_extents(facts.static_extents, env).items():
        env.setdefault(name, size)
    return Bindings(env)


@dataclass(frozen=True)
class GraphCommands:
    """What every lowering of a graph at given sizes emits (module docstring)."""

    computes: list[tuple[str, str]]  # (op, element type) of each compute command, at least once
    fetched: dict[int, tuple[int, ...]]  # array index -> laid-out shape, for each array transposed in


def lowering_floor(facts: GraphFacts, sizes: Mapping[str, float | int], shapes: Mapping[int, tuple[int, ...]] | None = None) -> GraphCommands:
    """The compute commands and transpositions each lowering of the graph of ``facts``
    at ``sizes`` emits at least once (module docstring)."""
    graph = facts.graph
    at = bindings(facts, sizes)
    known = {i: tuple(s) for i, s in shapes.items()} if shapes else None
    laid = array_shapes(graph, known, at, facts)
    others = other_shapes(facts.arg_static, laid, known)
    lattice = lattice_extent(graph, laid, {**others, **laid}, at, facts)
    boxes = infer_boxes(graph, clip=tuple((0, s) for s in lattice), at=at, facts=facts)
    constant = [False] * facts.values
    out: list[tuple[str, str]] = []
    for n in facts.sched:
        k = n.kind
        if k is CONST:
            constant[n.res] = True
        elif k in _PASS_CONSTANT:
            constant[n.res] = constant[n.ins[0]]
        elif k is CMP:
            if all(constant[v] for v in n.ins):
                constant[n.res] = True  # folded: no command
            elif boxes[n.res] is not None and not box_empty(boxes[n.res]):
                out.append((n.name, checked_element(n.in_elem)))
    read = {n.arr for n in facts.sched if n.arr >= 0 and n.kind is not STORE}
    fetched = {i: s for i, s in laid.items() if i in read and all(x > 0 for x in s) and math.prod(s) > 0}
    return GraphCommands(out, fetched)
