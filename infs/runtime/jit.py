"""The JIT: lower a tDFG for concrete sizes and a machine, memoized (ASPLOS §4.2).

``lower(graph, sizes, config)`` specializes ``graph`` on ``sizes`` (its index
symbols, evaluated as the conversion reads them; other scalars stay runtime
operands), picks its layout, and runs every lower-pim step on records
(``PimProgram``), which is what the simulator executes: the ``pimcmd.program``
op is built only when asked for (``Lowered.program``, to print or verify it).
Results are memoized on (graph, bindings, config, tile shape, array shapes):
iterative kernels (stencil time steps) lower once (§4.2, "Memoization").
What does not depend on sizes (``GraphFacts``: node order, arrays in memory,
moved dims) is read off a graph once: the JIT treats a graph handed to it as
frozen, as the paper's runtime does the tDFG the compiler embedded in the
binary.

Verified always: with ``INFS_VERIFY=1`` (the tests' setting) or
``set_verify(True)`` (``infs-run --check``) every program the JIT produces is
built as IR and checked by the same verifier as a printed program (the
``pimcmd`` ops' own checks), once per lowering (a cache hit is not re-checked).
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from typing import TYPE_CHECKING, Any

from infs.dialects import pimcmd_schema as K
from infs.dialects.tdfg_records import GraphRecord
from infs.hardware import BUILTIN, HardwareConfig, is_inline_spec, load_config
from infs.passes.lower_pim.choose_layout import LayoutError
from infs.passes.lower_pim.lower_pim import lower_graph
from infs.dialects.pimcmd_records import PimProgram
from infs.passes.lowering_errors import LoweringError
from infs.passes.tdfg_domains import Bindings, GraphFacts, SpecializeError, symbol_extents

if TYPE_CHECKING:
    from infs.dialects import pimcmd as pc
    from infs.dialects import tdfg


@dataclass
class Lowered:
    """One JIT result: the program's records and the lowering's costs."""

    record: PimProgram
    scalar_map: list[int]  # program scalar k = graph scalar scalar_map[k] (runtime parameters)
    nodes: int  # tDFG nodes lowered
    seconds: float  # wall time of the first (unmemoized) lowering
    _program: Any = None

    @property
    def program(self) -> "pc.ProgramOp":
        """The ``pimcmd.program`` op (detached: its operands are block arguments), built on first
        use (the IR's side: xDSL is imported here, to print or verify a program)."""
        if self._program is None:
            from xdsl.ir import Block, Region

            from infs.dialects.pimcmd_records_ir import ir_type, to_op

            rec = self.record
            holder = Block(arg_types=[ir_type(t) for t in (*rec.arg_types, *rec.scalar_types)])
            n = len(rec.arg_types)
            self._program = to_op(rec, list(holder.args[:n]), list(holder.args[n:]))
            Region(holder)  # keep the operands' block alive with the program
            self._program._infs_operand_block = holder  # type: ignore[attr-defined]
        return self._program

    @property
    def commands(self) -> int:
        return sum(1 for c in self.record.cmds if c.kind is not K.ARRAY)


_VERIFY = [False]


def set_verify(on: bool) -> None:
    """Verify every program the JIT produces from now on (``infs-run --check``)."""
    _VERIFY[0] = on


def verifying() -> bool:
    return _VERIFY[0] or os.environ.get("INFS_VERIFY", "") not in ("", "0")


def verify(lowered: Lowered) -> None:
    """The program's IR through the ``pimcmd`` verifiers (one line if it fails)."""
    try:
        lowered.program.verify()
    except _verify_exception() as e:
        raise LoweringError(f"the JIT's program does not verify: {str(e).strip().splitlines()[0]}") from None


def _verify_exception() -> type:
    from xdsl.utils.exceptions import VerifyException

    return VerifyException


_CACHE: dict[tuple, tuple[Any, Lowered]] = {}
_STATS = {"hits": 0, "misses": 0}
# per graph, the (lattice, tiles) of its latest lowering: an array still held in that
# layout was laid out by this graph's previous invocation (``lower``'s ``resident``)
_LAST_LAYOUT: dict[int, tuple[Any, tuple, tuple]] = {}


_NAMED: dict[str | Path | tuple[str, bytes], HardwareConfig] = {}


def _named_config(name: str | Path) -> HardwareConfig:
    """A built-in or inline config, loaded once per process; a config file,
    once per text: a file edited between two lowerings is the new machine
    (its path alone would hand back the old one, silently)."""
    key: str | Path | tuple[str, bytes] = name
    if str(name) not in BUILTIN and not (isinstance(name, str) and is_inline_spec(name)):
        try:
            key = (str(name), Path(name).read_bytes())
        except OSError:
            return load_config(name)  # not a file: load_config's one-line error
    hit = _NAMED.get(key)
    if hit is None:
        hit = _NAMED[key] = load_config(name)
    return hit


def cache_stats() -> dict[str, int]:
    return dict(_STATS, entries=len(_CACHE))


def clear_cache(facts: bool = True) -> None:
    """Forget every lowering and what was read off the graphs (``facts=False``
    keeps the graph facts: the next call is a first call for new sizes)."""
    global _FACTS_GENERATION
    _CACHE.clear()
    _LAST_LAYOUT.clear()
    _STATS.update(hits=0, misses=0)
    if facts:
        _FACTS_GENERATION += 1


_FACTS_GENERATION = 0


def graph_facts(graph: "GraphRecord | tdfg.GraphOp") -> GraphFacts:
    """The graph's ``GraphFacts``, kept on the graph itself (they live and die
    with it); ``clear_cache()`` makes every graph's stale.  A graph op is read
    into its record (``from_graph``) here, once: the lowering reads records."""
    hit = getattr(graph, "_infs_facts", None)
    if hit is None or hit[0] != _FACTS_GENERATION:
        record = graph if isinstance(graph, GraphRecord) else _record_of(graph)
        hit = (_FACTS_GENERATION, GraphFacts.of(record))
        graph._infs_facts = hit  # type: ignore[attr-defined]
    return hit[1]


def _record_of(graph: "tdfg.GraphOp") -> GraphRecord:
    """A graph op's record, labelled as its errors name it (the IR's side: imports xDSL)."""
    from infs.dialects.tdfg_ir_records import from_graph
    from infs.passes.lowering_errors import where

    return from_graph(graph, where(graph))


def _key(graph: "GraphRecord | tdfg.GraphOp", sizes: Mapping[str, float | int], cfg: HardwareConfig, tiles, shapes, facts: GraphFacts | None = None) -> tuple:
    names = (facts or graph_facts(graph)).symbols
    used = tuple(sorted((k, float(v) if isinstance(v, float) else int(v)) for k, v in sizes.items() if k in names))
    shp = tuple(sorted((int(k), tuple(v)) for k, v in (shapes or {}).items()))
    return (id(graph), used, _config_key(cfg), tuple(tiles) if tiles else None, shp)


_CONFIG_KEYS: dict[int, tuple[HardwareConfig, str]] = {}


def _config_key(cfg: HardwareConfig) -> str:
    """The machine's full description (two configs of one name may differ)."""
    hit = _CONFIG_KEYS.get(id(cfg))
    if hit is None or hit[0] is not cfg:
        import json

        hit = _CONFIG_KEYS[id(cfg)] = (cfg, json.dumps(cfg.to_dict(), sort_keys=True, default=str))
    return hit[1]


def lower(
    graph: "GraphRecord | tdfg.GraphOp",
    sizes: Mapping[str, float | int],
    config: str | HardwareConfig,
    tiles: tuple[int, ...] | None = None,
    shapes: Mapping[int, tuple[int, ...]] | None = None,
    resident: Mapping[int, tuple[tuple[int, ...], tuple[int, ...]]] | None = None,
) -> Lowered:
    """Lower ``graph`` for ``sizes`` on ``config``; memoized.

    ``resident`` (graph array index -> (lattice, tiles)): the layouts arrays are held
    transposed in now; choose-layout charges a tiling that differs their
    re-transposition.  Only an array still in the layout this graph's previous
    lowering gave it counts (gauss_elim's update at k and k + 1): a layout another
    graph chose (an initialization before a loop of many invocations) is not worth
    keeping for a one-time transposition, the invocations to come not being known.
    ``resident`` is not part of the memo key (§4.2 memoizes on the graph, its sizes
    and the machine): a re-entered region (a stencil's sweeps) lowers once.

    ``shapes`` (graph array index -> shape) gives the real array shapes when
    the memrefs are dynamic; without it the layout covers what the graph
    touches.  Raises ``LoweringError``/``LayoutError``/``SpecializeError``.
    """
    cfg = config if isinstance(config, HardwareConfig) else _named_config(config)
    facts = graph_facts(graph)
    key = _key(graph, sizes, cfg, tiles, shapes, facts)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is graph:
        _STATS["hits"] += 1
        return hit[1]
    _STATS["misses"] += 1
    t0 = time.perf_counter()
    last = _LAST_LAYOUT.get(id(graph))
    if resident and last is not None and last[0] is graph:
        resident = {i: v for i, v in resident.items() if (tuple(v[0]), tuple(v[1])) == last[1:]}
    else:
        resident = None
    try:
        lowered = _lower(graph, sizes, cfg, tiles, shapes, t0, facts, resident)
        _LAST_LAYOUT[id(graph)] = (graph, tuple(lowered.record.lattice), tuple(lowered.record.tiles))
        if verifying():
            verify(lowered)
    except (LoweringError, LayoutError, SpecializeError) as e:
        raise type(e)(f"{facts.graph.label}: {e}") from None
    _CACHE[key] = (graph, lowered)
    return lowered


def _lower(graph, sizes, cfg, tiles, shapes, t0, facts: GraphFacts | None = None, resident=None) -> Lowered:
    # No copy of the graph: its affine attributes are evaluated under the
    # bindings as the conversion reads them (specialization without IR).
    facts = facts or graph_facts(graph)
    env = {n: int(sizes[n]) for n in facts.symbols if n in sizes}
    # the symbols that are the full extent of a static array dim (a binding
    # wins), as specialize.infer_from_static_shapes, from the graph's facts
    for name, size in symbol_extents(facts.static_extents, env).items():
        env.setdefault(name, size)
    record, scalar_map = lower_graph(facts.graph, cfg, tuple(tiles) if tiles else None, shapes, Bindings(env), facts, dict(resident) if resident else None)
    return Lowered(record, scalar_map, facts.nodes, time.perf_counter() - t0)
