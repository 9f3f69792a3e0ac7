"""Run a bundle: its host code as closures, each graph offload through the JIT and the machine.

Takes: a bundle file (``container``) whose host code offloads ``tdfg.graph``s (a
program tensorized ahead of time: ``infs-opt --tensorize --emit-bundle``) and
whose ``regions`` section holds each graph's record (``tdfg_records``).  Gives:
``load_bundle`` -- the bundle checked whole (the container, the host section,
every record, and that each offload call's operand and result types are its
record's) -- and ``run_bundle`` -- the run's ``RunReport``, as
``driver.run_program`` gives it for the same program parsed from MLIR: the
host code runs on ``HostProgram``'s closures, each graph call on the runtime's
in-memory half (``infs.runtime.in_memory``: its plan lowers the record through
the memoized JIT, §4.2, then the ``Machine`` runs the program).  The same
options, machine set-up, records and statistics as the ``.mlir`` run; no xDSL,
no compiler pass, no egglog is imported.

A graph in the host code has no streams left for the near-memory or core
models, so it runs in memory or not at all (``--mode near``/``core`` is refused
as for the ``.mlir``).  A host section that offloads ``stream.region``s or
``pimcmd.program``s is refused when the bundle is loaded: a bundle carries
records of tDFGs, not the stream semantics the decision and the near-memory
and core paths read (docs/bundles.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from infs.dialects.tdfg_records import GraphRecord, RecordDataError, read_graph
from infs.element_types import EvaluationError
from infs.runtime.bundle.container import Bundle, load_program
from infs.runtime.bundle.errors import BundleError
from infs.runtime.bundle.host_program import HostProgram
from infs.runtime.in_memory import InMemoryRuntime, RegionRecord, RunOptions, RunReport, start_run

REGIONS_FORMAT = 1
_KIND_WORDS = {"region": "stream.region", "program": "pimcmd.program"}


@dataclass
class BundleProgram:
    """A loaded bundle: its sections, its host code compiled, its graphs' records by offload index."""

    bundle: Bundle
    host: HostProgram
    graphs: list[GraphRecord]
    source: str

    @property
    def name(self) -> str | None:
        return self.bundle.sections.get("program", {}).get("name")

    @property
    def entry(self) -> str | None:
        return self.bundle.sections.get("program", {}).get("entry")


def regions_data(graphs: Sequence[GraphRecord]) -> dict[str, Any]:
    """The ``regions`` section of these graph records (offload index order)."""
    return {"format": REGIONS_FORMAT, "graph": [g.to_data() for g in graphs]}


def read_regions(section: Any, host: HostProgram, source: str) -> list[GraphRecord]:
    """The graph records of a ``regions`` section, checked against the host code's offload calls."""
    for kind in ("region", "program"):
        n = host.n_offloads.get(kind, 0)
        if n:
            raise BundleError(f"{source}: its host code offloads {n} {_KIND_WORDS[kind]}(s); a bundle runs tDFG graphs "
                              "(tensorize the program ahead of time: infs-opt --tensorize --emit-bundle)")  # fmt: skip
    n_graphs = host.n_offloads.get("graph", 0)
    if section is None:
        if n_graphs:
            raise BundleError(f"{source}: its host code offloads {n_graphs} graph(s) but it has no 'regions' section")
        return []
    if set(section) != {"format", "graph"}:
        raise BundleError(f"{source}: section 'regions' has the fields {sorted(section)[:4]}, not format and graph")
    if section["format"] != REGIONS_FORMAT or isinstance(section["format"], bool):
        raise BundleError(f"{source}: section 'regions' is format {str(section['format'])[:20]}; this infs reads {REGIONS_FORMAT}")
    items = section["graph"]
    if not isinstance(items, list) or len(items) != n_graphs:
        have = len(items) if isinstance(items, list) else type(items).__name__
        raise BundleError(f"{source}: section 'regions' holds {have} graph(s); its host code offloads {n_graphs}")
    graphs = []
    for k, item in enumerate(items):
        where = f"{source}: region {k}"
        try:
            g = read_graph(item, where)
        except RecordDataError as e:
            raise BundleError(str(e)) from None
        except RecursionError:
            raise BundleError(f"{where}: nests too deep") from None
        _check_call(g, host.offload_calls[("graph", k)], where)
        graphs.append(g)
    return graphs


def _check_call(g: GraphRecord, call: tuple, where: str) -> None:
    """The host's offload call of a graph passes what the graph takes and takes what it gives."""
    arrays, tin, tout = call
    n = len(arrays)
    want_arrays = [["memref", list(a.shape), a.element_type] for a in g.arrays]
    if n != len(g.arrays) or list(tin[:n]) != want_arrays:
        raise BundleError(f"{where}: the host passes arrays {list(tin[:n])}, the graph takes {want_arrays}")
    if list(tin[n:]) != list(g.scalar_types):
        raise BundleError(f"{where}: the host passes scalars {list(tin[n:])}, the graph takes {list(g.scalar_types)}")
    if list(tout) != list(g.result_types):
        raise BundleError(f"{where}: the host takes results {list(tout)}, the graph gives {list(g.result_types)}")


def load_bundle(path: str | Path, any_infs: bool = False) -> BundleProgram:
    """The bundle at ``path``, every part checked (module docstring); ``BundleError`` (one line) if not."""
    bundle, host = load_program(path, any_infs)
    graphs = read_regions(bundle.sections.get("regions"), host, str(path))
    return BundleProgram(bundle, host, graphs, str(path))


class BundleRuntime(InMemoryRuntime):
    """The graph executor of a bundle's host code: offload k runs graph record k in memory."""

    def __init__(self, options: RunOptions, machine, program: BundleProgram, progress: Callable[[RegionRecord], None] | None = None):
        super().__init__(options, machine, progress)
        self.bundle_graphs = program.graphs
        self.operands = {k: call[0] for (kind, k), call in program.host.offload_calls.items() if kind == "graph"}

    def graph(self, k: int, arrays: list, scalars: list) -> list:
        return self.run_graph(self.bundle_graphs[k], arrays, scalars, self.operands.get(k))


def run_bundle(program: BundleProgram | str | Path, args: Mapping[str, Any] | Sequence[Any], name: str | None = None,
               options: RunOptions | None = None, progress: Callable[[RegionRecord], None] | None = None) -> RunReport:  # fmt: skip
    """Run the host function ``name`` (default: the bundle's entry, else its one public
    function) of a bundle; arrays are updated in place (``driver.run_program``'s contract)."""
    if not isinstance(program, BundleProgram):
        program = load_bundle(program)
    options, machine = start_run(options, args)
    if options.strict_offload and not program.graphs:
        raise EvaluationError("nothing to offload: the bundle's host code calls no graph (strict_offload)")
    runtime = BundleRuntime(options, machine, program, progress)
    t0 = time.perf_counter()
    results = program.host.run(args, name or program.entry, graph=runtime.graph, phantom_alloc=options.machine_mode == "analysis")
    return RunReport(results, machine, runtime.records, time.perf_counter() - t0, runtime.programs)
